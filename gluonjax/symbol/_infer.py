"""Shape and dtype inference over a graph.

Output shapes come from the operators themselves: ``jax.eval_shape`` of each
operator's pure function on the input shapes, so inference can never disagree
with execution. What the table's functions cannot tell is the shape of a
*parameter* from the data (FullyConnected's weight from its input); each operator's
``input_shapes`` rule in the table gives those, as MXNet's FInferShape does. Unknown dtypes of
inputs follow the operator's first known input, as MXNet's default type rule.
"""
import warnings

import jax
import jax.numpy as jnp
import numpy as np

from .._caches import lru_cache
from .._x64 import x64
from ..base import DeferredError, MXNetError, shape_str, upper_layer
from ..ops import _host
from ..ops._kernel import operator_error, with_values
from ._node_kernel import node_kernel
from ..ops._registry import _literal

__all__ = ['node_avals', 'eval_node', 'infer_shape', 'infer_type', 'pending_shape', 'entry_shapes', 'entry_avals']

_KEY_AVAL = jax.ShapeDtypeStruct((2,), jnp.uint32)

# MXNet's numeric type flags, as written in ``__dtype__``.
DTYPE_TO_FLAG = {'float32': 0, 'float64': 1, 'float16': 2, 'uint8': 3, 'int32': 4, 'int8': 5, 'int64': 6,
                 'bool': 7, 'int16': 8, 'uint16': 9, 'uint32': 10, 'uint64': 11, 'bfloat16': 12}
FLAG_TO_DTYPE = {v: k for k, v in DTYPE_TO_FLAG.items()}
# Inputs whose dtype is their own (integer indices, softmax's lengths), neither following nor
# setting the others'; while unknown they are evaluated as int32.
_INDEX_INPUTS = ('indices', 'index', 'length')
_eval_cache = lru_cache('symbol.eval_shapes', 8192)  # (kernel, input shapes) -> output avals


def _eval_dtypes(node, dtypes):
    """The dtypes a node's inputs are evaluated with: their own, else int32 for indices, else float32."""
    names = node.input_names()
    return [d or ('int32' if i < len(names) and names[i] in _INDEX_INPUTS else 'float32')
            for i, d in enumerate(dtypes)]


def node_error(node, err):
    """An MXNetError naming the graph node (and, through ``err``, the operator and shapes)."""
    return MXNetError('Error in operator %s: %s' % (node.name, err))


def _eval_static(node, in_avals):
    """eval_node's answer; None where the output shape follows the input values (boolean_mask,
    whose shape is unknown until it runs, as MXNet's dynamic-shape operators' are)."""
    if node.op.value_attrs is None:
        return eval_node(node, in_avals)
    try:
        return eval_node(node, in_avals)
    except MXNetError:
        return None


@x64  # float64/int64 inputs keep their dtypes in the abstract evaluation
def eval_node(node, in_avals, train=False):
    """Output (shape, dtype) pairs of an operator node for input (shape, dtype) pairs.

    Includes every output (BatchNorm's hidden mean and variance too), cached by
    the operator's kernel key and the input avals.
    """
    try:
        kernel = node_kernel(node, train)
    except MXNetError as err:
        raise node_error(node, err) from None
    key = (kernel.key, tuple(in_avals))
    out = _eval_cache.get(key)
    if out is not None:
        return out
    out = _moved_avals(kernel, in_avals)
    if out is not None:
        _eval_cache[key] = out
        return out
    args = [jax.ShapeDtypeStruct(s, d) for s, d in in_avals]
    args.extend(kernel.attrs[n] for n in kernel.dynamic)
    if kernel.op.random:
        args.append(_KEY_AVAL)
    try:
        res = jax.eval_shape(kernel.fn, *args)
    except DeferredError as err:  # MXNet raises it only as the kernel runs: its shapes still infer
        res = [jax.ShapeDtypeStruct(s, d) for s, d in err.avals]
    except MXNetError as err:
        raise node_error(node, err) from None
    except Exception as err:  # a jax error while tracing: name the operator and the shapes
        raise node_error(node, operator_error(node.op.name, node.input_names(), args, err)) from None
    out = tuple((tuple(int(d) for d in o.shape), np.dtype(o.dtype).name) for o in res[:kernel.n_out])
    _eval_cache[key] = out
    return out


# Inputs up to this many elements are small enough to move on the host for their output shapes.
_MOVED_MAX = 1 << 12


def _moved_avals(kernel, in_avals):
    """The output avals of a data-movement operator (slice, squeeze, transpose...: a host form
    declared ``_host.moves``, exact for every dtype) on small inputs, from that form run on zeros:
    microseconds, where tracing the kernel takes milliseconds (a Block built per index, as MXNet's
    slicing tests build them, traced a new slice each time). None where the kernel is traced."""
    form = kernel.op.host
    if form is None or not _host.moves_data(form) or getattr(form, 'mixed_dtypes', False):
        return None
    if any(np.prod(shape, dtype=np.int64) > _MOVED_MAX for shape, _ in in_avals):
        return None
    try:
        outs = kernel.host(*[np.zeros(shape, dtype) for shape, dtype in in_avals],
                           *[kernel.attrs[n] for n in kernel.dynamic])
    except Exception:  # a form declining these inputs, or an invalid call: the kernel's trace says
        return None
    return tuple((tuple(int(d) for d in np.shape(o)), np.dtype(o.dtype).name) for o in outs[:kernel.n_out])


def var_shape(node):
    """A variable's shape from its ``__shape__`` attribute; None when absent or with unknown dims
    (0 or -1; under ``mx.np_shape`` only -1: there 0 is a size, as in a hybridized block's
    zero-size input)."""
    shape = var_given_shape(node)
    smallest_known = 0 if np_shape_semantics() else 1
    if shape is None or any(d < smallest_known for d in shape):
        return None
    return shape


def var_partial_shape(node):
    """A variable's ``__shape__`` as a partial shape (None for each unknown dimension), else None."""
    shape = var_given_shape(node)
    return None if shape is None else as_partial(shape)


def np_shape_semantics():
    """Whether ``mx.np_shape`` is on: -1 marks an unknown dimension and () is a scalar's shape
    (else 0 marks one and () is an unknown shape). The switch lives in the numpy layer."""
    return upper_layer('np_shape')()


def as_partial(shape):
    """A shape as MXNet writes it (0 or -1 for unknown dimensions) as a partial shape."""
    unknown = -1 if np_shape_semantics() else 0
    if not shape and not np_shape_semantics():
        return None
    return tuple(None if d == unknown or d < 0 else d for d in shape)


def as_written(shape):
    """A partial shape as MXNet returns it: unknown dimensions 0 (-1 under np_shape), an
    unknown shape () (None under np_shape)."""
    np_shape = np_shape_semantics()
    if shape is None:
        return None if np_shape else ()
    unknown = -1 if np_shape else 0
    return tuple(unknown if d is None else d for d in shape)


def var_given_shape(node):
    """A variable's ``__shape__`` as written, unknown (0) dimensions included; None when absent."""
    try:
        shape = _literal(node.attrs.get('__shape__', 'None'))
    except ValueError:
        return None
    if shape is None:
        return None
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return shape if all(isinstance(d, int) for d in shape) else None


def var_dtype(node):
    """A variable's dtype name from its ``__dtype__`` attribute (MXNet's type flag), else None."""
    try:
        return FLAG_TO_DTYPE.get(int(node.attrs.get('__dtype__', '-1')))
    except ValueError:
        return None


def pending_shape(node):
    """The ``shape`` of a creation node (``zeros``, ``ones``, ``full``, ``empty``) with unknown (0)
    dimensions, else None.

    In MXNet's symbols a 0 (-1 under np_shape) in such a shape is a dimension decided by shape
    inference from the node's consumers (``F.zeros(shape=(0, n))`` as an RNN begin state of any batch size); the
    node's output shape stays unknown until a consumer's rule gives it.
    """
    if node.is_variable or not node.op.creation or 'shape' not in node.op._param_map:
        return None
    shape = node.parsed().get('shape')
    if shape is None:
        return None
    # under np_shape (npx.set_np()) 0 is an empty dimension and only -1 an unknown one
    np_shape = np_shape_semantics()
    if not shape and not np_shape:
        return ()  # without np_shape an empty shape is an unknown one (``sym.random.normal()`` + x)
    unknown_at = -1 if np_shape else 0
    if all(d > unknown_at for d in shape):
        return None
    return tuple(shape)


def _compatible(partial, shape):
    if not partial:  # an unknown shape (pending_shape's ()) takes any
        return True
    return len(partial) == len(shape) and all(p <= 0 or p == d for p, d in zip(partial, shape))


def node_avals(node):
    """A node's output (shape, dtype) pairs when its inputs' shapes are known, else None.

    Shapes unknown but dtypes known give (None, dtype) pairs. Inputs from creation nodes of
    unknown dimensions take the shapes the operator's input rule gives them.
    """
    if node.is_variable:
        shape, dtype = var_shape(node), var_dtype(node)
        return None if shape is None and dtype is None else ((shape, dtype),)
    if pending_shape(node) is not None:
        return ((None, _fallback_dtype(node, [])),)
    ins = []
    for src, i, _v in node.inputs:
        avals = src.avals()
        ins.append((None, None) if avals is None else avals[i])
    if any(s is None for s, _ in ins):
        ins = _resolve_pending_inputs(node, ins)
    if all(s is not None for s, _ in ins):
        in_avals = tuple(zip([s for s, _ in ins], _eval_dtypes(node, [d for _, d in ins])))
        if node.op.value_attrs is None:
            return eval_node(node, in_avals)
        try:
            return eval_node(node, in_avals)
        except MXNetError as err:
            return _value_dependent_avals(node, in_avals, err)
    dtypes = _fallback_dtypes(node, [d for _, d in ins])
    if all(d is None for d in dtypes):
        return None
    return tuple((None, d) for d in dtypes)


@x64
def _value_dependent_avals(node, in_avals, err):
    """Unknown output shapes for a node whose output shape depends on its input values
    (bincount, boolean_mask: ``OpDef.value_attrs``), which a graph does not know until it runs;
    the dtypes are the operator's for inputs of zeros. ``err`` (the operator's own error without
    values) is raised where the inputs are wrong whatever their values."""
    kernel = node_kernel(node, False)
    try:
        zeros = [np.zeros(s, d) for s, d in in_avals]
        kernel = with_values(kernel, zeros)
        args = [jax.ShapeDtypeStruct(s, d) for s, d in in_avals]
        args.extend(kernel.attrs[n] for n in kernel.dynamic)
        res = jax.eval_shape(kernel.fn, *args)
    except Exception:
        raise node_error(node, err) from None
    return tuple((None, np.dtype(o.dtype).name) for o in res[:kernel.n_out])


def _resolve_pending_inputs(node, ins):
    """``ins`` with the shapes of pending creation inputs filled by the operator's input rule."""
    pending = {k: pending_shape(src) for k, (src, _i, _v) in enumerate(node.inputs)}
    if not any(p is not None and ins[k][0] is None for k, p in pending.items()):
        return ins
    names = node.input_names()
    known = {n: s for n, (s, _d) in zip(names, ins) if s is not None}
    inferred = _inputs_rule(node, known)
    out = list(ins)
    for k, (name, (s, d)) in enumerate(zip(names, ins)):
        got = inferred.get(name)
        if s is None and pending[k] is not None and got is not None:
            if not _compatible(pending[k], got):
                _inconsistent(node, pending[k], got)
            out[k] = (tuple(got), d)
    return out


def _fallback_dtypes(node, in_dtypes):
    """The output dtypes (a tuple, None where unknown) when shapes are unknown: the entry's
    ``out_dtypes`` rule (given None for inputs of unknown dtype), else one dtype for all
    (_fallback_dtype)."""
    if node.op.out_dtypes is None:
        return (_fallback_dtype(node, in_dtypes),) * node.num_outputs()
    in_dtypes = list(in_dtypes) + [None] * (len(node.input_names()) - len(in_dtypes))
    return tuple(None if d is None else np.dtype(d).name for d in node.op.out_dtypes(node.parsed(), in_dtypes))


def _fallback_dtype(node, in_dtypes):
    """The output dtype when shapes are unknown: the 'dtype' parameter, else the first input's
    (integer indices aside)."""
    if 'dtype' in node.op._param_map:
        d = node.parsed().get('dtype')
        if d is not None:
            return np.dtype(d).name
    for name, d in zip(node.input_names(), in_dtypes):
        if d is not None and name not in _INDEX_INPUTS:
            return d
    return None


# ---------------------------------------------------------------------------------------------
# Parameter shapes from data shapes (MXNet's FInferShape, for inputs the data determines)
# ---------------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------------
# Whole-graph inference
# ---------------------------------------------------------------------------------------------

def _given(symbol, args, kwargs, what):
    """{variable name: value} from infer_shape's positional (argument order) and keyword inputs."""
    if args and kwargs:
        raise ValueError('infer_%s: give the known arguments either by position or by keyword, not both' % what)
    arg_names = symbol.list_arguments()
    inputs = symbol.list_inputs()
    given = {}
    if len(args) > len(arg_names):
        raise MXNetError('infer_%s: %d positional inputs given but the symbol has %d arguments'
                         % (what, len(args), len(arg_names)))
    for name, value in zip(arg_names, args):
        if value is not None:
            given[name] = value
    for name, value in kwargs.items():
        if name not in inputs:
            raise MXNetError('infer_%s: keyword argument name %s not found.\nCandidate arguments:\n%s'
                             % (what, name, '\n'.join('\t[%d]%s' % (i, n) for i, n in enumerate(inputs))))
        if value is not None:
            given[name] = value
    return given


def _run(symbol, shapes, dtypes, seed_pending=True):
    """Shapes and dtypes of every entry (id(node), index) given variable shapes and dtypes.

    A shape may be partial: a tuple with None for each unknown dimension. Operators whose
    inputs are all fully known are evaluated; the others pass on what they can (see
    ``_partial_node``), forwards and backwards, until nothing changes.
    """
    order = symbol._topo()
    ent_shape, ent_dtype = {}, {}
    for node in order:
        if node.is_variable:
            s = shapes.get(node.name, var_partial_shape(node))
            d = dtypes.get(node.name, var_dtype(node))
            if s is not None:
                ent_shape[(id(node), 0)] = s
            if d is not None:
                ent_dtype[(id(node), 0)] = d
        elif seed_pending and pending_shape(node) is not None:
            # its known dimensions are known from the start (the width of an RNN begin state
            # gives the h2h weight's shape); consumers fill in the rest. Type inference alone
            # skips this: partial shapes decide no dtype and cost a trial evaluation per node
            partial = as_partial(pending_shape(node))
            if partial is not None:  # None: nothing is known of it
                ent_shape[(id(node), 0)] = partial
    done = set()
    for _ in range(max(4, len(order))):
        progress = False
        for node in order:
            if node.is_variable or id(node) in done:
                continue
            if pending_shape(node) is not None:  # its shape comes from its consumers
                continue
            keys = [(id(n), i) for n, i, _v in node.inputs]
            progress |= _fill_inputs(node, keys, ent_shape)
            if node.op.name == '_foreach':
                progress |= _foreach_shapes(node, keys, ent_shape)
            progress |= _fill_dtypes(node, keys, ent_dtype)
            progress |= _same_dtype(node, keys, ent_dtype)
            outs = None
            if all(is_known(ent_shape.get(k)) for k in keys):
                outs = _eval_static(node, tuple(zip([ent_shape[k] for k in keys],
                                                    _eval_dtypes(node, [ent_dtype.get(k) for k in keys]))))
            if outs is not None:
                for i, (s, d) in enumerate(outs):
                    _set_output(node, i, ent_shape, s)
                    if (id(node), i) not in ent_dtype or all(k in ent_dtype for k in keys):
                        ent_dtype[(id(node), i)] = d
                done.add(id(node))
                progress = True
                continue
            progress |= _partial_node(node, keys, ent_shape, ent_dtype)
            for i, d in enumerate(_fallback_dtypes(node, [ent_dtype.get(k) for k in keys])):
                if d is not None and (id(node), i) not in ent_dtype:
                    ent_dtype[(id(node), i)] = d
                    progress = True
        if not progress:
            break
    return order, ent_shape, ent_dtype


def entry_shapes(symbol, shapes, dtypes, nodes):
    """The output shape inference gives each of ``nodes`` (pending creation nodes) for variables
    of ``shapes`` and ``dtypes``; an MXNetError names a node it cannot decide."""
    _order, ent_shape, _ = _run(symbol, shapes, dtypes)
    out = {}
    for node in nodes:
        shape = ent_shape.get((id(node), 0))
        if not is_known(shape):
            raise MXNetError('Error in operator %s: cannot decide the unknown (0) dimensions of its shape %s '
                             'from the operators that use it' % (node.name, shape_str(pending_shape(node))))
        out[id(node)] = shape
    return out


def entry_avals(symbol, shapes, dtypes):
    """(nodes in topological order, {(id(node), output index): shape}, {...: dtype name}) of
    every entry of ``symbol`` for variables of ``shapes`` and ``dtypes`` (the ONNX exporter's
    static shapes); a shape shows None where it stays unknown."""
    return _run(symbol, shapes, dtypes)


def is_known(shape):
    return shape is not None and None not in shape


def _merge(node, old, new):
    """Two partial shapes of one entry as one (the known dimensions of both); an error if they differ."""
    if old is None:
        return tuple(new)
    if len(old) != len(new) or any(a is not None and b is not None and a != b for a, b in zip(old, new)):
        _inconsistent(node, _shown(old), _shown(new))
    return tuple(a if a is not None else b for a, b in zip(old, new))


def _shown(shape):
    return tuple(0 if d is None else d for d in shape)


def _update(node, ent_shape, key, shape):
    """Merge ``shape`` into entry ``key``; True if it told something new."""
    old = ent_shape.get(key)
    merged = _merge(node, old, shape)
    if merged != old:
        ent_shape[key] = merged
        return True
    return False


def _set_output(node, index, ent_shape, shape):
    _update(node, ent_shape, (id(node), index), shape)


# ---------------------------------------------------------------------------------------------
# Partly known shapes: the operator's own function, run with stand-in sizes
# ---------------------------------------------------------------------------------------------
# An unknown dimension is given a stand-in size and the operator evaluated twice, with two
# different stand-ins: an output dimension equal in both runs does not depend on the unknown
# ones. Unknown dimensions share one stand-in, so those the operator requires equal (the batch
# dimensions of batch_dot) stay equal. Backwards, an output dimension known from elsewhere that
# moves with one unknown input dimension (or one group that must move together) as a*s + b
# gives that dimension: (known - b) / a, kept only when the operator's function confirms it.
_STAND_INS = (9973, 7919)


def _substitute(shapes, value, moved=(), moved_value=None):
    return tuple(tuple((moved_value if (i, k) in moved else value) if d is None else d
                       for k, d in enumerate(s)) for i, s in enumerate(shapes))


def _try_eval(node, shapes, dtypes):
    try:
        return tuple(s for s, _d in eval_node(node, tuple(zip(shapes, dtypes))))
    except MXNetError:
        return None


def _partial_node(node, keys, ent_shape, ent_dtype):
    """What a node with partly known inputs tells: same-shape inputs merged, output dimensions
    that do not depend on the unknown ones, unknown input dimensions the known outputs fix."""
    new = node.op.same_shape_inputs and _merge_same_shape(node, keys, ent_shape)
    ins = [ent_shape.get(k) for k in keys]
    if any(s is None for s in ins) or not node.op.partial_shapes:
        return new
    if node.op.keeps_size and _solve_by_size(node, keys[0], ins[0], ent_shape.get((id(node), 0)), ent_shape):
        return True
    dtypes = _eval_dtypes(node, [ent_dtype.get(k) for k in keys])
    lo, hi = _STAND_INS
    out_lo = _try_eval(node, _substitute(ins, lo), dtypes)
    out_hi = _try_eval(node, _substitute(ins, hi), dtypes)
    if out_lo is None or out_hi is None or [len(s) for s in out_lo] != [len(s) for s in out_hi]:
        return new
    for i, (a, b) in enumerate(zip(out_lo, out_hi)):
        shape = tuple(x if x == y else None for x, y in zip(a, b))
        if node.op.partial_shapes == 'by_axis':
            shape = tuple(None if k < len(ins[0]) and ins[0][k] is None else d for k, d in enumerate(shape))
        new |= _update(node, ent_shape, (id(node), i), shape)
    outs = [ent_shape.get((id(node), i)) for i in range(len(out_lo))]
    return _solve_inputs(node, keys, ins, dtypes, out_lo, outs, ent_shape) or new


def _solve_by_size(node, key, data, out, ent_shape):
    """The one unknown dimension of ``data`` from a fully known output of as many elements."""
    unknown = [k for k, d in enumerate(data) if d is None]
    if len(unknown) != 1 or not is_known(out):
        return False
    known = int(np.prod([d for d in data if d is not None]))
    size = int(np.prod(out))
    if known == 0 or size % known:
        return False
    return _update(node, ent_shape, key, tuple(size // known if d is None else d for d in data))


def _merge_same_shape(node, keys, ent_shape):
    # MXNet's ElemwiseShape: the output shares the inputs' shape, so a shape known for the
    # output (a layer's weight computed from parameters) gives the inputs theirs
    keys = list(keys) + [(id(node), 0)]
    given = [ent_shape[k] for k in keys if k in ent_shape]
    if not given:
        return False
    merged = given[0]
    for s in given[1:]:
        merged = _merge(node, merged, s)
    new = False
    for k in keys:
        new |= _update(node, ent_shape, k, merged)
    return new


def _solve_inputs(node, keys, ins, dtypes, out_lo, outs, ent_shape):
    """Unknown input dimensions fixed by known output dimensions (see the note above)."""
    lo, hi = _STAND_INS
    unknown = [(i, k) for i, s in enumerate(ins) for k, d in enumerate(s) if d is None]
    groups, tied = [], []
    for u in unknown:
        moved = _try_eval(node, _substitute(ins, lo, {u}, hi), dtypes)
        if moved is None:
            tied.append(u)  # must move with others (concatenated batch dimensions)
        else:
            groups.append(((u,), moved))
    if tied:
        moved = _try_eval(node, _substitute(ins, lo, set(tied), hi), dtypes)
        if moved is not None:
            groups.append((tuple(tied), moved))
    solved = {}
    for group, moved in groups:
        value = _solve_group(out_lo, moved, outs)
        if value is not None:
            solved.update((u, value) for u in group)
    if not solved:
        return False
    trial = [tuple(solved.get((i, k), d) for k, d in enumerate(s)) for i, s in enumerate(ins)]
    check = _try_eval(node, _substitute(trial, lo), dtypes)
    if check is None or any(o is not None and any(x is not None and x != y for x, y in zip(o, c))
                            for o, c in zip(outs, check)):
        return False
    new = False
    for key, shape in zip(keys, trial):
        new |= _update(node, ent_shape, key, shape)
    return new


def _solve_group(out_lo, moved, outs):
    """The size of a group of unknown input dimensions that known output dimensions imply, else None."""
    lo, hi = _STAND_INS
    values = set()
    for a_shape, b_shape, known in zip(out_lo, moved, outs):
        if known is None or len(a_shape) != len(b_shape):
            continue
        for a, b, v in zip(a_shape, b_shape, known):
            if a == b or v is None:
                continue
            slope = (b - a) / (hi - lo)
            x = (v - (a - slope * lo)) / slope
            if x != int(x) or x <= 0:
                return None
            values.add(int(x))
    return values.pop() if len(values) == 1 else None


def _foreach_shapes(node, keys, ent_shape):
    """What a foreach node's body tells of the node's shapes, as MXNet infers a subgraph: the body
    is inferred on a data slice, the states and the other inputs it is given (partly known shapes
    included), a state taking the shape of the body's output for it (the loop carries it), and
    the node's unknown inputs and outputs take the shapes the body found (an LSTM's cell state and
    weights from its data and hidden state; the stacked outputs of data of unknown length)."""
    a = node.parsed()
    body = node.subgraphs[0]
    names = body.list_inputs()
    n_data = len(a['in_data_locs'])
    locs = list(a['in_data_locs']) + list(a['in_state_locs']) + list(a['remain_locs'])
    ins = [ent_shape.get(k) for k in keys]
    length = ins[0][0] if ins and ins[0] else None

    def body_shape(j, shape):  # a body input's shape from the node's input j
        if j >= n_data or shape is None:
            return shape
        return tuple(shape[1:]) or (1,)  # a 1-d array's slice is an array of one element
    given = {names[loc]: body_shape(j, s) for j, (loc, s) in enumerate(zip(locs, ins)) if s is not None}
    body_inputs, body_outputs = _run_body(body, given, [names[loc] for loc in a['in_state_locs']],
                                          a['num_out_data'])
    new = False
    for j, (loc, key) in enumerate(zip(locs, keys)):
        s = body_inputs.get(names[loc])
        if s is not None:
            new |= _update(node, ent_shape, key, ((length,) + tuple(s)) if j < n_data else s)
    for i, s in enumerate(body_outputs):
        if s is not None:  # the data outputs are stacked along a new first axis, the states are not
            new |= _update(node, ent_shape, (id(node), i), ((length,) + tuple(s)) if i < a['num_out_data'] else s)
    return new


def _run_body(body, given, state_names, num_out_data):
    """({input name: shape}, [output shape]) inferred for a loop body, the states fed back once:
    a state whose output shape the body computes takes it as its input's."""
    for _ in range(2):
        order, shapes, _ = _run(body, given, {})
        outs = [shapes.get((id(n), i)) for n, i in body._outputs]
        fed = False
        for name, s in zip(state_names, outs[num_out_data:]):
            if s is not None and given.get(name) != s:
                old = given.get(name)
                given[name] = tuple(s) if old is None or len(old) != len(s) else \
                    tuple(x if x is not None else y for x, y in zip(old, s))
                fed = True
        if not fed:
            break
    inputs = {n.name: shapes.get((id(n), 0)) for n in order if n.is_variable}
    return inputs, outs


def _rule_shapes(node, rule, known):
    """The input shapes ``rule`` infers; none when the rule does not apply to these attributes
    (a rank it does not handle, a parameter the operator spells differently)."""
    try:
        return rule(node.parsed(), known)
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError):
        return {}


def _fill_inputs(node, keys, ent_shape):
    """Shapes of inputs the operator's data determines (weights, labels), checked against the
    given ones; True if any was new."""
    rule = node.op.input_shapes
    if rule is None:
        return False
    names = node.input_names()
    given = {n: ent_shape[k] for n, k in zip(names, keys) if k in ent_shape}
    if all(is_known(v) for v in given.values()):
        inferred = _rule_shapes(node, rule, given)
    else:
        inferred = _rule_partial(node, rule, given)
        # the fully known inputs alone may decide a partly known one (a pending creation
        # input's unknown dimensions: where(cond, zeros((0, 3)), x))
        known = {n: v for n, v in given.items() if is_known(v)}
        if known:
            for n, shape in _rule_shapes(node, rule, known).items():
                if not is_known(inferred.get(n)):
                    inferred[n] = shape
    new = False
    for (src, _i, _v), n, k in zip(node.inputs, names, keys):
        s = inferred.get(n)
        if s is None:
            continue
        if k not in ent_shape:  # a creation node whose unknown (0) dimensions its consumers decide
            partial = pending_shape(src)
            if partial is not None and not _compatible(partial, s):
                _inconsistent(node, partial, s)
        new |= _update(node, ent_shape, k, tuple(s))
    return new



def _inputs_rule(node, known):
    """{input name: shape} the operator's rule (or its same-shape inputs) gives from ``known``."""
    rule = node.op.input_shapes
    if rule is not None:
        return _rule_shapes(node, rule, known)
    if node.op.same_shape_inputs and known:
        first = next(iter(known.values()))
        return {n: first for n in node.input_names()}
    return {}

def _rule_partial(node, rule, given):
    """The rule's shapes for partly known inputs: run with two stand-ins for the unknown
    dimensions, a dimension is known where both runs agree (a weight's from the data's known
    channels). A dimension that follows the stand-ins stays unknown, so an input's own unknown
    dimensions are filled only where the other inputs decide them (a deferred weight)."""
    lo, hi = _STAND_INS
    runs = []
    for value in (lo, hi):
        try:
            runs.append(_rule_shapes(node, rule, {n: tuple(value if d is None else d for d in v)
                                                  for n, v in given.items()}))
        except MXNetError:  # a rule that checks its inputs (a subgraph's inference) refusing a stand-in
            return {}
    out = {}
    for n, a in runs[0].items():
        b = runs[1].get(n)
        if b is None or len(a) != len(b):
            continue
        out[n] = tuple(x if x == y else None for x, y in zip(a, b))
    return out


def _inconsistent(node, provided, inferred):
    raise MXNetError('Error in operator %s: Shape inconsistent, Provided = %s, inferred shape=%s'
                     % (node.name, shape_str(provided), tuple(inferred)))


# Operators whose parameters and statistics stay float32 for float16 data.
_FLOAT32_PARAMS_FOR_HALF = ('BatchNorm', '_contrib_SyncBatchNorm', '_contrib_BatchNormWithReLU')


def _fill_dtypes(node, keys, ent_dtype):
    """Unknown input dtypes follow the first known input (MXNet's default type rule); an
    Embedding's weight takes its ``dtype`` parameter. True if any was new."""
    names = node.input_names()
    known = [ent_dtype.get(k) for k in keys]
    own = {}
    if node.op.name == 'Embedding':
        own['weight'] = np.dtype(node.parsed().get('dtype') or 'float32').name
    elif node.op.name in _FLOAT32_PARAMS_FOR_HALF:
        data = ent_dtype.get(keys[0]) if keys else None
        if data in ('float16', 'bfloat16'):  # MXNet keeps a half-precision BatchNorm's statistics in float32
            own.update((n, 'float32') for n in names[1:])
    # (an operator's dtype parameter says nothing of its inputs: Cast's data stays unknown, as in MXNet)
    first = next((d for n, d in zip(names, known) if d is not None and n not in _INDEX_INPUTS and n not in own),
                 None)
    if first is None:
        return _dtype_from_output(node, keys, ent_dtype)
    new = False
    for n, k, d in zip(names, keys, known):
        target = own.get(n, first if n not in _INDEX_INPUTS else None)
        if d is None and target is not None:
            ent_dtype[k] = target
            new = True
    return new


def _dtype_from_output(node, keys, ent_dtype):
    """MXNet's type rules run both ways: with no input's dtype known, an output's known from its
    consumer (``infer_type(label='float16')``) is the first data input's, whose dtype the others
    then follow. Not for operators that decide their outputs' dtypes (a dtype parameter, a rule)."""
    out = ent_dtype.get((id(node), 0))
    if out is None or 'dtype' in node.op._param_map or node.op.out_dtypes is not None:
        return False
    for name, key in zip(node.input_names(), keys):
        if name not in _INDEX_INPUTS:
            ent_dtype[key] = out
            return True
    return False


def _same_dtype(node, keys, ent_dtype):
    """MXNet's ElemwiseType for the operators whose inputs and output share one shape: they share
    one dtype too, known from any of them (an output's dtype known from its consumer gives the
    inputs theirs), and two different ones are an error. True if any was new."""
    if not node.op.same_shape_inputs or 'dtype' in node.op._param_map:
        return False
    keys = list(keys) + [(id(node), 0)]
    known = {ent_dtype[k] for k in keys if k in ent_dtype}
    if len(known) > 1:
        raise node_error(node, '%s: inputs and output must share one dtype, got %s'
                         % (node.op.name, ', '.join(ent_dtype.get(k) or '?' for k in keys[:-1])))
    if not known:
        return False
    dtype = known.pop()
    new = [k for k in keys if k not in ent_dtype]
    ent_dtype.update((k, dtype) for k in new)
    return bool(new)


def _partition(symbol, order, table):
    """(argument values, output values, auxiliary values) from an entry table."""
    by_name = {}
    for node in order:
        if node.is_variable:
            by_name.setdefault(node.name, table.get((id(node), 0)))
    args = [by_name[n] for n in symbol.list_arguments()]
    aux = [by_name[n] for n in symbol.list_auxiliary_states()]
    outs = [table.get((id(n), i)) for n, i in symbol._outputs]
    return args, outs, aux


def _as_shape(value, name):
    if isinstance(value, (int, np.integer)):
        return (int(value),)
    try:
        return tuple(int(d) for d in value)
    except TypeError:
        raise MXNetError('infer_shape: the shape of %r must be a tuple of ints, got %r' % (name, value)) from None


def infer_shape(symbol, args, kwargs, partial):
    given = _given(symbol, args, kwargs, 'shape')
    shapes = {name: as_partial(_as_shape(value, name)) for name, value in given.items()}
    order, ent_shape, _ = _run(symbol, {n: s for n, s in shapes.items() if s is not None}, {})
    arg_s, out_s, aux_s = _partition(symbol, order, ent_shape)
    names = symbol.list_arguments() + symbol.list_auxiliary_states()
    if not partial and not all(is_known(s) for s in arg_s + aux_s + out_s):
        listed = ['%s: %s' % (n, as_written(s)) for n, s in zip(names, arg_s + aux_s) if not is_known(s)]
        warnings.warn('Cannot decide shape for the following arguments (0s in shape means unknown '
                      'dimensions). Consider providing them as input:\n\t' + '\n\t'.join(listed),
                      stacklevel=3)
        return None, None, None
    return ([as_written(s) for s in arg_s], [as_written(s) for s in out_s], [as_written(s) for s in aux_s])


def infer_type(symbol, args, kwargs, partial):
    given = _given(symbol, args, kwargs, 'type')
    dtypes = {}
    for name, value in given.items():
        try:
            dtypes[name] = np.dtype(value).name
        except TypeError:
            raise MXNetError('infer_type: invalid dtype %r for %r' % (value, name)) from None
    order, _, ent_dtype = _run(symbol, {}, dtypes, seed_pending=False)
    arg_t, out_t, aux_t = _partition(symbol, order, ent_dtype)
    if not partial and any(t is None for t in arg_t + out_t + aux_t):
        return None, None, None

    def conv(ts):
        return [None if t is None else np.dtype(t).type for t in ts]
    return conv(arg_t), conv(out_t), conv(aux_t)
