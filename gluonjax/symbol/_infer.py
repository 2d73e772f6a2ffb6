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
from ..base import MXNetError, shape_str
from ..ops._kernel import operator_error
from ._node_kernel import node_kernel
from ..ops._registry import _literal

__all__ = ['node_avals', 'eval_node', 'infer_shape', 'infer_type', 'pending_shape', 'entry_shapes']

_KEY_AVAL = jax.ShapeDtypeStruct((2,), jnp.uint32)

# MXNet's numeric type flags, as written in ``__dtype__``.
DTYPE_TO_FLAG = {'float32': 0, 'float64': 1, 'float16': 2, 'uint8': 3, 'int32': 4, 'int8': 5, 'int64': 6,
                 'bool': 7, 'int16': 8, 'uint16': 9, 'uint32': 10, 'uint64': 11, 'bfloat16': 12}
FLAG_TO_DTYPE = {v: k for k, v in DTYPE_TO_FLAG.items()}
# Inputs whose dtype is their own (integer indices), neither following nor setting the others'.
_INDEX_INPUTS = ('indices', 'index')
_eval_cache = lru_cache('symbol.eval_shapes', 8192)  # (kernel, input shapes) -> output avals


def node_error(node, err):
    """An MXNetError naming the graph node (and, through ``err``, the operator and shapes)."""
    return MXNetError('Error in operator %s: %s' % (node.name, err))


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
    args = [jax.ShapeDtypeStruct(s, d) for s, d in in_avals]
    args.extend(kernel.attrs[n] for n in kernel.dynamic)
    if kernel.op.random:
        args.append(_KEY_AVAL)
    try:
        res = jax.eval_shape(kernel.fn, *args)
    except MXNetError as err:
        raise node_error(node, err) from None
    except Exception as err:  # a jax error while tracing: name the operator and the shapes
        raise node_error(node, operator_error(node.op.name, node.input_names(), args, err)) from None
    out = tuple((tuple(int(d) for d in o.shape), np.dtype(o.dtype).name) for o in res[:kernel.n_out])
    _eval_cache[key] = out
    return out


def var_shape(node):
    """A variable's shape from its ``__shape__`` attribute; None when absent or with unknown (0) dims."""
    shape = var_given_shape(node)
    if shape is None or any(d <= 0 for d in shape):
        return None
    return shape


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

    In MXNet's symbols a 0 in such a shape is a dimension decided by shape inference from the
    node's consumers (``F.zeros(shape=(0, n))`` as an RNN begin state of any batch size); the
    node's output shape stays unknown until a consumer's rule gives it.
    """
    if node.is_variable or not node.op.creation or 'shape' not in node.op._param_map:
        return None
    shape = node.parsed().get('shape')
    if shape is None or all(d > 0 for d in shape):
        return None
    return tuple(shape)


def _compatible(partial, shape):
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
        return eval_node(node, tuple((s, d or 'float32') for s, d in ins))
    dtype = _fallback_dtype(node, [d for _, d in ins])
    if dtype is None:
        return None
    return tuple((None, dtype) for _ in range(node.num_outputs()))


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


def _run(symbol, shapes, dtypes):
    """Shapes and dtypes of every entry (id(node), index) given variable shapes and dtypes."""
    order = symbol._topo()
    ent_shape, ent_dtype = {}, {}
    for node in order:
        if node.is_variable:
            s = shapes.get(node.name, var_shape(node))
            d = dtypes.get(node.name, var_dtype(node))
            if s is not None:
                ent_shape[(id(node), 0)] = s
            if d is not None:
                ent_dtype[(id(node), 0)] = d
    done = set()
    for _ in range(4):
        progress = False
        for node in order:
            if node.is_variable or id(node) in done:
                continue
            if pending_shape(node) is not None:  # its shape comes from its consumers
                continue
            keys = [(id(n), i) for n, i, _v in node.inputs]
            progress |= _fill_inputs(node, keys, ent_shape)
            progress |= _fill_dtypes(node, keys, ent_dtype)
            n_out = node.num_outputs()
            if all(k in ent_shape for k in keys):
                outs = eval_node(node, tuple((ent_shape[k], ent_dtype.get(k, 'float32')) for k in keys))
                for i, (s, d) in enumerate(outs):
                    _set_output(node, i, ent_shape, s)
                    if (id(node), i) not in ent_dtype or all(k in ent_dtype for k in keys):
                        ent_dtype[(id(node), i)] = d
                done.add(id(node))
                progress = True
            else:
                d = _fallback_dtype(node, [ent_dtype.get(k) for k in keys])
                if d is not None:
                    for i in range(n_out):
                        if (id(node), i) not in ent_dtype:
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
        if shape is None:
            raise MXNetError('Error in operator %s: cannot decide the unknown (0) dimensions of its shape %s '
                             'from the operators that use it' % (node.name, shape_str(pending_shape(node))))
        out[id(node)] = shape
    return out


def _set_output(node, index, ent_shape, shape):
    key = (id(node), index)
    old = ent_shape.get(key)
    if old is not None and tuple(old) != tuple(shape):
        _inconsistent(node, old, shape)
    ent_shape[key] = tuple(shape)


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
    names = node.input_names()
    known = {n: ent_shape.get(k) for n, k in zip(names, keys)}
    if node.op.input_shapes is None and not (node.op.same_shape_inputs and None in known.values()):
        return False
    inferred = _inputs_rule(node, {n: v for n, v in known.items() if v is not None})
    new = False
    for (src, _i, _v), n, k in zip(node.inputs, names, keys):
        s = inferred.get(n)
        if s is None:
            continue
        if known[n] is None:
            partial = pending_shape(src)
            if partial is not None and not _compatible(partial, s):
                _inconsistent(node, partial, s)
            ent_shape[k] = tuple(s)
            new = True
        elif tuple(known[n]) != tuple(s):
            _inconsistent(node, known[n], s)
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


def _inconsistent(node, provided, inferred):
    raise MXNetError('Error in operator %s: Shape inconsistent, Provided = %s, inferred shape=%s'
                     % (node.name, shape_str(provided), tuple(inferred)))


# Operators whose parameters and statistics stay float32 for float16 data.
_FLOAT32_PARAMS_FOR_HALF = ('BatchNorm', '_contrib_SyncBatchNorm')


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
    first = next((d for n, d in zip(names, known) if d is not None and n not in _INDEX_INPUTS and n not in own),
                 None) or _fallback_dtype(node, [])
    new = False
    for n, k, d in zip(names, keys, known):
        target = own.get(n, first if n not in _INDEX_INPUTS else None)
        if d is None and target is not None:
            ent_dtype[k] = target
            new = True
    return new


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
    shapes, raw = {}, {}
    for name, value in given.items():
        s = _as_shape(value, name)
        raw[name] = s
        if all(d > 0 for d in s):
            shapes[name] = s
    order, ent_shape, _ = _run(symbol, shapes, {})
    for node in order:  # partly known shapes of variables (0 = unknown) are reported as given
        if node.is_variable and node.name not in raw:
            given_shape = var_given_shape(node)
            if given_shape is not None:
                raw[node.name] = given_shape
    arg_s, out_s, aux_s = _partition(symbol, order, ent_shape)
    out_s = [raw.get(n.name) if s is None and n.is_variable else s
             for s, (n, _i) in zip(out_s, symbol._outputs)]
    names = symbol.list_arguments() + symbol.list_auxiliary_states()
    unknown = [n for n, s in zip(names, arg_s + aux_s) if s is None] + [None for s in out_s if s is None]
    if unknown and not partial:
        listed = ['%s: %s' % (n, raw.get(n, ())) for n in names if n in unknown]
        warnings.warn('Cannot decide shape for the following arguments (0s in shape means unknown '
                      'dimensions). Consider providing them as input:\n\t' + '\n\t'.join(listed),
                      stacklevel=3)
        return None, None, None

    def fill(values, names_):
        return [raw.get(n, ()) if v is None else v for n, v in zip(names_, values)]
    return (fill(arg_s, symbol.list_arguments()), [() if s is None else s for s in out_s],
            fill(aux_s, symbol.list_auxiliary_states()))


def infer_type(symbol, args, kwargs, partial):
    given = _given(symbol, args, kwargs, 'type')
    dtypes = {}
    for name, value in given.items():
        try:
            dtypes[name] = np.dtype(value).name
        except TypeError:
            raise MXNetError('infer_type: invalid dtype %r for %r' % (value, name)) from None
    order, _, ent_dtype = _run(symbol, {}, dtypes)
    arg_t, out_t, aux_t = _partition(symbol, order, ent_dtype)
    if not partial and any(t is None for t in arg_t + out_t + aux_t):
        return None, None, None

    def conv(ts):
        return [None if t is None else np.dtype(t).type for t in ts]
    return conv(arg_t), conv(out_t), conv(aux_t)
