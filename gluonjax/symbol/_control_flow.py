"""``mx.sym.contrib.foreach``, ``while_loop`` and ``cond``: control flow as graph nodes.

The user's Python function is called once on new variables, inside an ``AttrScope`` that marks
every node it creates with ``__subgraph_name__`` (as MXNet does, so the JSON matches). The nodes
so marked are copied into a subgraph; every edge that leaves them (a variable, or a node made
outside the function: the loop body's free variables) becomes an input variable of the subgraph
and an input of the control-flow node ("cutting" the graph). The node carries its subgraphs
(``_Node.subgraphs``); the table's ``_foreach``/``_while_loop``/``_cond`` run them
(``ops/control_flow.py``), and symbol JSON nests them as MXNet writes them.

Variables inside a subgraph are named as MXNet names them: a loop variable made from ``x`` is
``x-0`` (name and output index), a cut edge is the output's name (``fc1_output``), a free
variable keeps its name. The subgraph's input names must be distinct (MXNet asserts it too).
"""
from ..ops import get_op
from ..ops.control_flow import flatten, regroup
from . import _attribute
from ._attribute import AttrScope
from .symbol import Symbol, _Node, create, topo_order, var

__all__ = ['foreach', 'while_loop', 'cond']

_SUBGRAPH = '__subgraph_name__'


def _unique_subgraph_name(name):
    """``name`` numbered per name, nested under the enclosing subgraph's name (MXNet's scheme)."""
    outer = _attribute.current_attrs().get(_SUBGRAPH, '')
    if outer:
        name = outer + '$' + name
    AttrScope._subgraph_names[name] += 1
    return '%s%d' % (name, AttrScope._subgraph_names[name] - 1)


def _unique_input_name(sym):
    node, index = sym._outputs[0]
    return '%s-%d' % (node.name, index)


def _loop_variable(sym, slice_first=False):
    """The variable standing for ``sym`` inside a subgraph, with its shape (one slice of it for
    foreach's data) known while the function is traced, so that layers inside can infer theirs."""
    new = var(_unique_input_name(sym))
    aval = sym._aval()
    if aval is not None:
        shape, dtype = aval
        if shape is not None and slice_first:
            shape = tuple(shape[1:]) or (1,)  # MXNet has no 0-d arrays: a 1-d array's slice has one element
        new._outputs[0][0]._avals = ((shape, dtype),)
    return new


def _flat_symbols(value, what):
    flat, fmt = flatten(value, what, Symbol)
    for s in flat:
        if len(s._outputs) != 1:
            raise ValueError('%s: each symbol must have one output, got a group of %d' % (what, len(s._outputs)))
    return flat, fmt


def _inside(name):
    return lambda node: not node.is_variable and node.attrs.get(_SUBGRAPH) == name


def _as_head(sym, name, copy):
    """``sym`` as a subgraph output: an identity node when it is not the subgraph's own node
    (a variable, a node from outside) or when ``copy`` asks for one, as MXNet makes them."""
    node = sym._outputs[0][0]
    if copy or not _inside(name)(node):
        return create(get_op('identity'), [sym], {}, hint='identity')._outputs[0]
    return sym._outputs[0]


def _cut(heads, name, loop_keys):
    """(subgraph, [key of each subgraph input, in ``list_inputs`` order]) for ``heads``.

    The nodes marked ``name`` are copied; an edge to anything else becomes a new variable.
    A key says what feeds that input: ``('loop', k)`` for loop variable k (``loop_keys`` maps
    id of the loop variables' nodes to them), else the outer graph's (node, output) entry.
    """
    inside = _inside(name)
    copies, boundary, key_of = {}, {}, {}

    def entry(src, index, version):
        if inside(src):
            return (copies[id(src)], index, 0)
        key = (id(src), 0 if src.is_variable else index)
        if key not in boundary:
            if src.is_variable:
                new = _Node(None, src.name, src.attrs)
                new.version = src.version
                key_of[id(new)] = loop_keys.get(id(src), (src, 0))
            else:
                new = _Node(None, src.output_name(index))
                key_of[id(new)] = (src, index)
            boundary[key] = new
        return (boundary[key], 0, version if src.is_variable else 0)

    for node in topo_order([n for n, _ in heads], descend=inside):
        if not inside(node):
            continue
        new = _Node(node.op, node.name, node.attrs, subgraphs=node.subgraphs)
        new._parsed = node._parsed
        new.inputs = [entry(*e) for e in node.inputs]
        copies[id(node)] = new
    subgraph = Symbol([(copies[id(n)], i) for n, i in heads])
    variables = [n for n in subgraph._topo() if n.is_variable]
    names = [n.name for n in variables]
    if len(set(names)) != len(names):
        raise AssertionError("The inputs of the subgraph don't have unique names: " + str(names))
    return subgraph, [key_of[id(n)] for n in variables]


def _trace(name, loop_vars, function, n_sliced=0):
    """Trace ``function`` into a subgraph of its own unique name.

    ``function(new variables) -> (outputs, states, result format, copy states)`` gets one new
    variable per Symbol of ``loop_vars`` (the first ``n_sliced`` stand for one slice of theirs:
    foreach's data). Returns (subgraph, input keys (see ``_cut``), number of outputs, format).
    """
    name = _unique_subgraph_name(name)
    with AttrScope(**{_SUBGRAPH: name}):
        new_vars = [_loop_variable(s, k < n_sliced) for k, s in enumerate(loop_vars)]
        outs, states, fmt, copy_states = function(new_vars)
        out_nodes = {id(o._outputs[0][0]) for o in outs}
        heads = [_as_head(o, name, False) for o in outs]
        heads += [_as_head(s, name, copy_states and id(s._outputs[0][0]) in out_nodes) for s in states]
    loop_keys = {id(v._outputs[0][0]): ('loop', k) for k, v in enumerate(new_vars)}
    subgraph, keys = _cut(heads, name, loop_keys)
    return subgraph, keys, len(outs), fmt


def _entry_symbol(key, loop_vars):
    return loop_vars[key[1]] if key[0] == 'loop' else Symbol([key])


def _locs(keys, key):
    return keys.index(key) if key in keys else None


def _list_str(values):
    return str([int(v) for v in values])


def foreach(body, data, init_states, name='foreach'):
    """Run ``body(data_slice, states) -> (outputs, new_states)`` over axis 0 of ``data``.

    ``data`` and ``init_states`` are Symbols or nested lists of Symbols; returns
    ``(outputs, states)``: the step outputs stacked along axis 0 and the final states, in
    the structures ``body`` returned them.
    """
    flat_data, data_fmt = _flat_symbols(data, 'foreach data')
    flat_states, state_fmt = _flat_symbols(init_states, 'foreach init_states')
    n_data = len(flat_data)

    def trace(args):
        slices, states = args[:n_data], args[n_data:]
        outs, new_states = body(regroup(slices, data_fmt), regroup(states, state_fmt))
        flat_out, out_fmt = _flat_symbols(outs, 'foreach output')
        flat_new, new_fmt = _flat_symbols(new_states, 'foreach states')
        if new_fmt != state_fmt:
            raise AssertionError('The input and output loop_vars have different format')
        return flat_out, flat_new, out_fmt, True

    subgraph, keys, n_out_data, out_fmt = _trace(name, flat_data + flat_states, trace, n_data)
    data_locs, state_locs = [], []
    for k in range(n_data):
        loc = _locs(keys, ('loop', k))
        if loc is None:
            raise AssertionError('the data arrays have to be used in the loop body')
        data_locs.append(loc)
    for k in range(len(flat_states)):
        loc = _locs(keys, ('loop', n_data + k))
        if loc is None:
            raise AssertionError('the state arrays have to be used in the loop body')
        state_locs.append(loc)
    remain_locs = [i for i, key in enumerate(keys) if key[0] != 'loop']
    inputs = flat_data + flat_states + [Symbol([keys[i]]) for i in remain_locs]
    n_out = n_out_data + len(flat_states)
    params = dict(num_args=len(inputs) + 1, num_outputs=n_out, num_out_data=n_out_data,
                  in_state_locs=_list_str(state_locs), in_data_locs=_list_str(data_locs),
                  remain_locs=_list_str(remain_locs))
    result = create(get_op('_foreach'), inputs, params, hint='_foreach', subgraphs=(subgraph,))
    outs = [result[i] for i in range(n_out_data)]
    states = [result[n_out_data + i] for i in range(len(flat_states))]
    return regroup(outs, out_fmt), regroup(states, state_fmt)


def _as_args(args):
    """The loop variables as positional arguments: a lone Symbol is one argument."""
    return [args] if isinstance(args, Symbol) else list(args)


def _step_result(result, what):
    """(flat step outputs, flat new loop variables, output format) of ``func``'s return value:
    ``(outputs, new_vars)`` with None for none, tuples read as lists."""
    outs, new_vars = result
    outs = [] if outs is None else list(outs) if isinstance(outs, tuple) else outs
    new_vars = [] if new_vars is None else list(new_vars) if isinstance(new_vars, tuple) else new_vars
    flat_out, out_fmt = _flat_symbols(outs, '%s output' % what)
    flat_new, _ = _flat_symbols(new_vars, '%s loop_vars' % what)
    return flat_out, flat_new, out_fmt


def _union(key_lists):
    """(distinct keys in order of first use, each list's positions in them)."""
    union, locs = [], []
    for keys in key_lists:
        positions = []
        for key in keys:
            if key not in union:
                union.append(key)
            positions.append(union.index(key))
        locs.append(positions)
    return union, locs


def while_loop(cond, func, loop_vars, max_iterations=None, name='while_loop'):
    """``while cond(*vars): outputs, vars = func(*vars)``, at most ``max_iterations`` times.

    Returns ``(outputs, final loop_vars)``: each step output stacked along axis 0 and padded
    to ``max_iterations`` rows (the rows after the loop stops are zeros), and the loop
    variables in the structure of ``loop_vars``.
    """
    flat_vars, var_fmt = _flat_symbols(loop_vars, 'while_loop loop_vars')
    if max_iterations is None:
        raise ValueError('max_iterations should be specified')
    try:
        max_iterations = int(max_iterations.asscalar() if hasattr(max_iterations, 'asscalar') else max_iterations)
    except (TypeError, ValueError):
        raise ValueError('Cannot convert max_iteration to python int') from None
    if not flat_vars:
        raise ValueError('loop_vars should contain at least one element')

    def trace_cond(new_vars):
        result = cond(*_as_args(regroup(new_vars, var_fmt)))
        if not isinstance(result, Symbol):
            raise ValueError('Return of cond must be a Symbol')
        return [], [result], None, False

    def trace_func(new_vars):
        flat_out, flat_new, out_fmt = _step_result(func(*_as_args(regroup(new_vars, var_fmt))), 'while')
        if len(flat_new) != len(flat_vars):
            raise ValueError('The number of loop_vars should be consistent during the loop')
        return flat_out, flat_new, out_fmt, False

    cond_g, cond_keys, _, _ = _trace(name + '_cond', flat_vars, trace_cond)
    func_g, func_keys, n_out_data, out_fmt = _trace(name + '_func', flat_vars, trace_func)
    keys, (cond_locs, func_locs) = _union([cond_keys, func_keys])
    var_locs = []
    for k in range(len(flat_vars)):
        loc = _locs(func_keys, ('loop', k))
        if loc is None:
            raise ValueError("The %d-th loop_var doesn't involve into the computation" % (k + 1))
        var_locs.append(loc)
    n_out = n_out_data + len(flat_vars)
    params = dict(num_args=len(keys) + 2, num_outputs=n_out, num_out_data=n_out_data,
                  max_iterations=max_iterations, cond_input_locs=_list_str(cond_locs),
                  func_input_locs=_list_str(func_locs), func_var_locs=_list_str(var_locs))
    inputs = [_entry_symbol(key, flat_vars) for key in keys]
    result = create(get_op('_while_loop'), inputs, params, hint='_while_loop', subgraphs=(cond_g, func_g))
    outs = [result[i] for i in range(n_out_data)]
    final = [result[n_out_data + k] for k in range(len(flat_vars))]
    return (regroup(outs, out_fmt) if out_fmt is not None else []), regroup(final, var_fmt)


def cond(pred, then_func, else_func, name='cond'):
    """``then_func()`` where the one-element ``pred`` is non-zero, else ``else_func()``.

    Both functions take no arguments (they use the symbols around them) and return a Symbol
    or a nested list of Symbols of the same shapes; only the branch taken runs.
    """
    def trace(function):
        def run(_new_vars):
            flat, fmt = _flat_symbols(function(), 'cond outputs')
            return flat, [], fmt, False
        return run

    pred_g, pred_keys, n_pred, _ = _trace(name + '_pred', [], trace(lambda: pred))
    if n_pred != 1:
        raise ValueError('pred should always be a single output')
    then_g, then_keys, n_then, then_fmt = _trace(name + '_then', [], trace(then_func))
    else_g, else_keys, n_else, _ = _trace(name + '_else', [], trace(else_func))
    if n_then != n_else:
        raise ValueError('Number of outputs differs between then-branch and else-branch')
    keys, (pred_locs, then_locs, else_locs) = _union([pred_keys, then_keys, else_keys])
    params = dict(num_args=len(keys) + 3, num_outputs=n_then, cond_input_locs=_list_str(pred_locs),
                  then_input_locs=_list_str(then_locs), else_input_locs=_list_str(else_locs))
    result = create(get_op('_cond'), [Symbol([key]) for key in keys], params, hint='_cond',
                    subgraphs=(pred_g, then_g, else_g))
    return regroup([result[i] for i in range(n_then)], then_fmt)
