"""Operators of the NumPy front end (``mx.np``) whose semantics differ from their ``nd`` namesakes.

They join the one operator table (under MXNet's own ``_np_*`` / ``_npi_*`` names), so
eager calls, autograd, symbols and hybridized graphs treat them like any other
operator. Where ``mx.np`` and ``mx.nd`` agree (``exp``, ``broadcast_add``, ``dot`` of
matrices...) ``mx.np`` calls the existing operator instead; this file only holds
what NumPy does differently:

* reductions over every axis give 0-d arrays, not shape ``(1,)``;
* comparisons and logical operators give ``bool`` arrays;
* true division of integers gives float32 (MXNet's default float), not integers;
* ``argmax``/``argmin``/``argsort`` give int64 indices, not floats;
* ``dot``, ``reshape``, ``split``, ``clip``, ``flip``, ``where`` follow NumPy's rules.
"""
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..base import MXNetError, MXNetValueError, shape_str
from . import _input_shapes, _onnx
from ._host import Fallback, Rows, int_exact, moves
from ._registry import Np, P, arith, register
from .reduce import _host_extreme, amax, amin, arg_indices, reduce_axes, sum_rows
from .elemwise import _check_broadcast, _mod, _power, exact_divide

_DEFAULT_FLOAT = jnp.float32


def _float_result(dtype):
    """The dtype of a true division or a mean: the input's float type, else float32."""
    return dtype if jnp.issubdtype(dtype, jnp.floating) else _DEFAULT_FLOAT


# ---- reductions --------------------------------------------------------------------------

_RED = [P('axis', 'axis', None, optional=True), P('dtype', 'dtype', None, optional=True),
        P('keepdims', 'bool', False), P('initial', 'float', None, optional=True)]


def _onnx_np_reduce(op_type):
    """ReduceX in the result's dtype (the input cast first, as the sum runs in ``dtype``); a full
    reduction is 0-d, as NumPy's."""
    def convert(g, node):
        a, shape = node.attrs, node.in_shapes[0]
        if a['initial'] is not None:
            raise g.unsupported(node, 'initial=%s' % a['initial'])
        x = _onnx.cast(g, node.inputs[0], node.in_dtypes[0], node.out_dtypes[0])
        axes = np_reduce_axes(op_type, shape, a['axis'])
        return _onnx.reduce(g, op_type, x, axes, a['keepdims']) if axes else x
    convert.__name__ = 'onnx_np_' + op_type
    return convert


def np_reduce_axes(name, shape, axis):
    """The axes a NumPy reduction runs over: every one for None, none for ``()`` (NumPy's
    ``x.max(axis=())`` is ``x``, where MXNet's nd reductions read ``()`` as every axis)."""
    return () if axis == () else reduce_axes(name, shape, axis, False)


def _np_reducer(name, fn, result_dtype, np, onnx=None, host=None, neutral=None, row_host=None):
    """``fn(a, axes, keepdims, out_dtype)`` reduces in the output dtype (``dtype``, else
    ``result_dtype`` of the input's); ``np``: the entry's Np signatures; ``host``: ``fn``'s exact
    NumPy form, same arguments; ``neutral``: the padding that leaves a reduction unchanged, for
    first calls on float data as padded rows (see ops/_host.py), ``row_host`` their NumPy form."""
    def reduction(fn, on_host=False):
        def op(a, *, axis, dtype, keepdims, initial):
            axes = np_reduce_axes(name, a.shape, axis)
            if on_host and initial is not None:
                raise Fallback('initial')  # rare: the compiled kernel serves it
            out_dtype = dtype or result_dtype(a.dtype)
            out = fn(a, axes, keepdims, out_dtype)
            if initial is not None:
                out = fn(jnp.stack([out, jnp.full(out.shape, initial, out.dtype)]), (0,), False, out_dtype)
            return out.astype(out_dtype)
        op.__name__ = name
        op.__doc__ = 'NumPy-style %s over the given axes (a 0-d array when every axis is reduced).' % name[4:]
        return op
    register(name, inputs=('a',), params=_RED, np=np, onnx=onnx and _onnx_np_reduce(onnx),
             host=host and int_exact(reduction(host, on_host=True)),
             rows=neutral is not None and _np_rows(name, neutral, row_host) or None)(reduction(fn))


def _np_rows(name, neutral, host=None):
    """``OpDef.rows`` of a NumPy reduction: the operator itself, with the call's dtype and initial
    (applied once per row, as once per result), reduces axis 1 of the padded rows."""
    def rows(attrs, shape):
        axes = np_reduce_axes(name, shape, attrs['axis'])
        if attrs['keepdims']:
            out_shape = tuple(1 if i in axes else s for i, s in enumerate(shape))
        else:
            out_shape = tuple(s for i, s in enumerate(shape) if i not in axes)
        kept = dict(dtype=attrs['dtype'], initial=attrs['initial'], keepdims=False)
        return Rows(axes, out_shape, neutral, name, kept, False, host)
    return rows


def _sum_dtype(dtype):
    # MXNet keeps an integer sum in the input's type (NumPy would widen it); bools count as int64.
    return jnp.int64 if dtype == jnp.bool_ else dtype


def _accumulator(in_dtype, out_dtype):
    """The type MXNet sums in before casting to the output's: int64 for integers and bools (an
    int8 array summed with dtype=int32 does not wrap at 127; a sum kept in int8 wraps as the cast
    does), the wider float for floats, at least float32 (MXNet sums float16 in float32; a float16
    running sum drifts by its last bits with the order of the additions), the input's float for
    an integer result (float32 data summed to int8 is 1.5 + 1.5 - 1.7 = 1, not 1 + 1 - 1)."""
    if not jnp.issubdtype(in_dtype, jnp.floating):
        return jnp.int64
    if jnp.issubdtype(out_dtype, jnp.floating):
        return jnp.promote_types(jnp.promote_types(in_dtype, out_dtype), jnp.float32)
    return in_dtype


def _ignore_dtype(host):
    """A host reduction ``(x, axes, keepdims)`` taking the output dtype too (max and min keep the
    input's: the caller casts)."""
    return lambda x, axes, keepdims, out_dtype: host(x, axes, keepdims)


def _np_sum(x, axes, keepdims, out_dtype):
    return jnp.sum(x, axis=axes, keepdims=keepdims, dtype=_accumulator(x.dtype, out_dtype)).astype(out_dtype)


def _host_np_integer(np_fn):
    """``np_fn`` (np.sum or np.prod) of integers and bools in int64, as the compiled reduction
    (integer arithmetic wraps the same in any order), cast to the output dtype where the cast is
    exact; float data is summed in XLA's order (padded rows serve it)."""
    def host(x, axes, keepdims, out_dtype):
        out_dtype = np.dtype(out_dtype)
        if x.dtype.kind not in 'iub':
            raise Fallback('float data')
        out = np_fn(x, axis=axes, keepdims=keepdims, dtype=np.int64)
        if out_dtype.kind == 'f' and np.any(np.abs(out) > 2 ** np.finfo(out_dtype).nmant):
            raise Fallback('inexact cast')  # int64 -> float16: NumPy and XLA may round differently
        return out.astype(out_dtype)
    return host


def _np_prod(x, axes, keepdims, out_dtype):
    return jnp.prod(x, axis=axes, keepdims=keepdims, dtype=_accumulator(x.dtype, out_dtype)).astype(out_dtype)


_np_reducer('_np_sum', _np_sum, _sum_dtype,
            (Np('sum(a, axis=None, dtype=None, keepdims=False, initial=None, out=None)'),  # MXNet's order
             Np('sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None)', method=True, function=False)),
            onnx='ReduceSum', host=_host_np_integer(np.sum), neutral=0, row_host=sum_rows)
_np_reducer('_np_prod', _np_prod, _sum_dtype,
            (Np('prod(a, axis=None, dtype=None, out=None, keepdims=False)', aliases=('product',)),  # MXNet's: no initial
             Np('prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None)', method=True, function=False)),
            onnx='ReduceProd', host=_host_np_integer(np.prod), neutral=1)
_np_reducer('_np_max', lambda x, ax, kd, _: amax(x, axis=ax, keepdims=kd), lambda d: d,
            (Np('amax(a, axis=None, keepdims=False, out=None)', aliases=('max',)),  # MXNet's order
             Np('amax(a, axis=None, out=None, keepdims=False)', method='max', function=False)), onnx='ReduceMax',
            host=_ignore_dtype(_host_extreme(np.max)))
_np_reducer('_np_min', lambda x, ax, kd, _: amin(x, axis=ax, keepdims=kd), lambda d: d,
            (Np('amin(a, axis=None, keepdims=False, out=None)', aliases=('min',)),
             Np('amin(a, axis=None, out=None, keepdims=False)', method='min', function=False)), onnx='ReduceMin',
            host=_ignore_dtype(_host_extreme(np.min)))


def _divide_by_count(total, count):
    """``total / count`` as a true division. (XLA would turn the division by a constant into a
    multiplication by its inexact reciprocal: 15.1 / 3 would come out one float32 step off
    MXNet's result. The barrier keeps the division.)"""
    return exact_divide(total, jnp.asarray(count, total.dtype))


def _count(shape, axes):
    return math.prod(shape[a] for a in axes)


def _mean(x, axes, keepdims):
    x = x.astype(_float_result(x.dtype))
    return _divide_by_count(jnp.sum(x, axis=axes, keepdims=keepdims), _count(x.shape, axes))


def _variance(x, axes, ddof, keepdims):
    x = x.astype(_float_result(x.dtype))
    centred = x - _mean(x, axes, True)
    total = jnp.sum(centred * centred, axis=axes, keepdims=keepdims)
    return _divide_by_count(total, max(_count(x.shape, axes) - ddof, 0))


def _np_mean(x, axes, keepdims, out_dtype):
    """A float mean runs in the wider of the input's float type (float32 for integers) and the
    output's; an integer one (``dtype='int8'``) as MXNet's: of integers, the sum cast to that type
    (wrapping), then divided with truncation towards zero; of floats, the float mean truncated."""
    if jnp.issubdtype(out_dtype, jnp.floating):
        return _mean(x.astype(jnp.promote_types(_float_result(x.dtype), out_dtype)), axes, keepdims)
    if jnp.issubdtype(x.dtype, jnp.floating):
        # MXNet's: the mean in the input's accumulation type (float32 for float16, else float64),
        # truncated; its backward passes the gradient over the count (the cast passes it on)
        acc = jnp.float32 if x.dtype == jnp.float16 else jnp.float64
        return _mean(x.astype(acc), axes, keepdims).astype(out_dtype)
    total = _np_sum(x, axes, keepdims, out_dtype)
    return lax.div(total, jnp.asarray(max(_count(x.shape, axes), 1), out_dtype))


_np_reducer('_npi_mean', _np_mean, _float_result,
            (Np('mean(a, axis=None, dtype=None, out=None, keepdims=False)', method=True),), onnx='ReduceMean')


def _moment(name, fn):
    def op(a, *, axis, dtype, ddof, keepdims):
        axes = np_reduce_axes(name, a.shape, axis)
        out = fn(_variance(a, axes, ddof, keepdims))
        return out.astype(dtype or _float_result(a.dtype))
    op.__name__ = name
    op.__doc__ = 'NumPy-style %s over the given axes.' % name[5:]
    register(name, inputs=('a',),
             params=[P('axis', 'axis', None, optional=True), P('dtype', 'dtype', None, optional=True),
                     P('ddof', 'int', 0), P('keepdims', 'bool', False)],
             np=(Np('%s(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False)' % name[5:], method=True),))(op)

_moment('_npi_std', jnp.sqrt)
_moment('_npi_var', lambda v: v)


def _logical_reducer(name, fn, host_fn, aliases=()):
    def op(data, *, axis, keepdims):
        axes = np_reduce_axes(name, data.shape, axis)
        return fn(data != 0, axis=axes, keepdims=keepdims)

    def host(data, *, axis, keepdims):  # exact, but XLA's CPU code reads subnormals as zero
        if data.dtype.kind == 'f' and ((data != 0) & (np.abs(data) < np.finfo(data.dtype).tiny)).any():
            raise Fallback('subnormal')
        return host_fn(data != 0, axis=np_reduce_axes(name, data.shape, axis), keepdims=keepdims)
    op.__name__ = name
    op.__doc__ = 'Whether %s element along the given axes is non-zero, as bool.' % ('every' if name == '_np_all' else 'some')
    register(name, params=[P('axis', 'axis', None, optional=True), P('keepdims', 'bool', False)],
             np=(Np('%s(a, axis=None, keepdims=False, out=None)' % name[4:], aliases=aliases),  # MXNet's order
                 Np('%s(a, axis=None, out=None, keepdims=False)' % name[4:], method=True, function=False)),
             host=moves(host))(op)  # moves: every dtype, bool included

_logical_reducer('_np_any', jnp.any, np.any, aliases=('sometrue',))
_logical_reducer('_np_all', jnp.all, np.all)


def _np_arg(name, fn):
    def op(data, *, axis, keepdims):
        if data.ndim == 0 and axis in (0, -1):  # NumPy: the only element of a 0-d array
            return jnp.zeros((), jnp.int64)
        if data.size == 0 and (axis is None or (-data.ndim <= axis < data.ndim and data.shape[axis] == 0)):
            raise MXNetError('%s: attempt to get %s of an empty sequence (shape %s, axis %s)'
                             % (name, name[5:], shape_str(data.shape), axis))
        return arg_indices(name, fn, data, axis, keepdims).astype(jnp.int64)
    op.__name__ = name
    op.__doc__ = 'Indices (int64) of the %s values along an axis, or of the flattened array.' % name[8:]
    register(name, params=[P('axis', 'int', None, optional=True), P('keepdims', 'bool', False)],
             np=(Np('%s(a, axis=None, out=None)' % name[5:], method=True),))(op)

_np_arg('_npi_argmax', jnp.argmax)
_np_arg('_npi_argmin', jnp.argmin)


@register('_np_cumsum', inputs=('a',), aliases=('cumsum',),  # MXNet's nd.cumsum / sym.cumsum
          params=[P('axis', 'int', None, optional=True), P('dtype', 'dtype', None, optional=True)],
          np=(Np('cumsum(a, axis=None, dtype=None, out=None)', method=True),))
def np_cumsum(a, *, axis, dtype):
    """Cumulative sum along an axis (of the flattened array when axis is None)."""
    if axis is None:
        a, axis = a.reshape(-1), 0
    dtype = dtype or _sum_dtype(a.dtype)
    if dtype == jnp.float16:
        return _running_sum(a.astype(dtype), axis)
    return jnp.cumsum(a, axis=axis, dtype=dtype)


def _running_sum(a, axis):
    """The cumulative sum added up element after element, each partial sum rounded to ``a``'s
    dtype, as MXNet's (and NumPy's) loop: in float16 a tree-ordered scan (jnp.cumsum) rounds
    differently, by several units in the last place after 20 elements."""
    moved = jnp.moveaxis(a, axis, 0)

    def step(total, x):
        total = total + x
        return total, total
    _, sums = lax.scan(step, jnp.zeros(moved.shape[1:], a.dtype), moved)
    return jnp.moveaxis(sums, 0, axis)


# ---- arithmetic, comparisons, logic --------------------------------------------------------

def _true_divide(a, b):
    dtype = _float_result(jnp.result_type(a, b))
    return exact_divide(a.astype(dtype), b.astype(dtype))


def _register_binary(name, fn, function=None, onnx=None, pointwise=False):
    """An ``mx.np`` binary operator; ``function`` names the mx.np function it implements; ``onnx``
    its OpDef.onnx; ``pointwise``: its OpDef.pointwise (ops/_host.py's size buckets)."""
    def op(lhs, rhs):
        _check_broadcast(name, lhs, rhs)
        return fn(lhs, rhs)
    op.__name__ = name
    register(name, inputs=('lhs', 'rhs'), arith=arith('np', function) if function else (), onnx=onnx,
             pointwise=pointwise)(op)


def _register_scalar(name, fn, backs=(), onnx=None, pointwise=False):
    def op(data, *, scalar, is_int=True):
        # MXNet casts the scalar to the array's type (so int_array + 1.5 adds 1), except
        # for true division, whose result is float anyway.
        return fn(data, scalar)
    op.__name__ = name
    register(name, params=[P('scalar', 'float', 1.0), P('is_int', 'bool', True)], dynamic_params=('scalar',),
             arith=backs, onnx=onnx, pointwise=pointwise)(op)


def _cast_scalar(fn):
    return lambda x, s: fn(x, jax.lax.convert_element_type(s, x.dtype))


_COMPARISONS = {'equal': jnp.equal, 'not_equal': jnp.not_equal, 'greater': jnp.greater,
                'greater_equal': jnp.greater_equal, 'less': jnp.less, 'less_equal': jnp.less_equal,
                'logical_and': lambda a, b: (a != 0) & (b != 0), 'logical_or': lambda a, b: (a != 0) | (b != 0),
                'logical_xor': lambda a, b: (a != 0) ^ (b != 0)}

# A comparison with the number on the left is the mirrored one: 2 < x is x > 2.
_MIRROR = {'greater': 'less', 'less': 'greater', 'greater_equal': 'less_equal', 'less_equal': 'greater_equal'}

def _onnx_true_divide(g, node):
    """Div in the float result type (integers are divided as floats)."""
    to = node.out_dtypes[0]
    return g.add('Div', [_onnx.cast(g, x, d, to) for x, d in zip(node.inputs, node.in_dtypes)])


def _onnx_true_divide_scalar(reverse):
    def convert(g, node):
        to = node.out_dtypes[0]
        x, s = _onnx.cast(g, node.inputs[0], node.in_dtypes[0], to), g.const(node.attrs['scalar'], to)
        return g.add('Div', [s, x] if reverse else [x, s])
    return convert


_register_binary('_npi_true_divide', _true_divide, 'true_divide', onnx=_onnx_true_divide, pointwise=True)
_register_scalar('_npi_true_divide_scalar',
                 lambda x, s: exact_divide(x.astype(_float_result(x.dtype)), jnp.asarray(s, _float_result(x.dtype))),
                 arith('np', 'true_divide', 'scalar'), onnx=_onnx_true_divide_scalar(False), pointwise=True)
_register_scalar('_npi_rtrue_divide_scalar', lambda x, s: s / x.astype(_float_result(x.dtype)),
                 arith('np', 'true_divide', 'rscalar'), onnx=_onnx_true_divide_scalar(True), pointwise=True)
_register_binary('_npi_floor_divide', jnp.floor_divide, 'floor_divide')
_register_scalar('_npi_floor_divide_scalar', _cast_scalar(jnp.floor_divide), arith('np', 'floor_divide', 'scalar'))
_register_scalar('_npi_rfloor_divide_scalar', _cast_scalar(lambda x, s: jnp.floor_divide(s, x)),
                 arith('np', 'floor_divide', 'rscalar'))


def _np_scalar_type(dtype, is_int):
    """The result type of MXNet's mx.np arithmetic of an array and a Python number in a graph:
    a float array keeps its type; an integer array too when the number is an integer (``is_int``),
    a bool array becomes int64 then; with a non-integer number both compute in float64."""
    if jnp.issubdtype(dtype, jnp.floating):
        return dtype
    if not is_int:
        return jnp.dtype(jnp.float64)
    return jnp.dtype(jnp.int64) if dtype == jnp.bool_ else dtype


def _onnx_graph_scalar(op_type, reverse):
    """``x op scalar`` in the output's dtype (an integer array with a fractional number computes
    in float64, as _np_scalar_type says)."""
    def convert(g, node):
        to = node.out_dtypes[0]
        x, s = _onnx.cast(g, node.inputs[0], node.in_dtypes[0], to), g.const(node.attrs['scalar'], to)
        return g.add(op_type, [s, x] if reverse else [x, s])
    return convert


def _register_graph_scalar(name, fn, onnx=None):
    """An mx.np array-scalar operator as MXNet's NumPy-mode graphs name it (``x + 1`` in a
    hybridized block is ``_npi_add_scalar``): gluonjax's own mx.np calls the legacy scalar
    operators, which give MXNet's eager results; these give its graphs' (``_np_scalar_type``)."""
    def op(data, *, scalar, is_int=True):
        dtype = _np_scalar_type(data.dtype, is_int)
        # an integer scalar goes through int64: -3 is 253 for uint8 data, as MXNet casts it
        number = lax.convert_element_type(scalar, jnp.int64) if is_int else scalar
        return fn(data.astype(dtype), lax.convert_element_type(number, dtype))
    op.__name__ = name
    register(name, params=[P('scalar', 'float', 1.0), P('is_int', 'bool', True)], dynamic_params=('scalar',),
             pointwise=True, onnx=onnx)(op)


for _name, _fn, _onnx_type, _reverse in (
        ('add', jnp.add, 'Add', False), ('subtract', jnp.subtract, 'Sub', False),
        ('rsubtract', lambda x, s: s - x, 'Sub', True), ('multiply', jnp.multiply, 'Mul', False),
        ('mod', _mod, None, False), ('rmod', lambda x, s: _mod(s, x), None, True),
        ('power', _power, 'Pow', False), ('rpower', lambda x, s: _power(s, x), 'Pow', True)):
    _register_graph_scalar('_npi_%s_scalar' % _name, _fn,
                           onnx=_onnx_graph_scalar(_onnx_type, _reverse) if _onnx_type else None)

for _name, _fn in _COMPARISONS.items():
    _register_binary('_npi_' + _name, _fn, _name)
    # MXNet 1.9's np casts the scalar to the array's type first (int_array < 1.5 compares with 1)
    _register_scalar('_npi_%s_scalar' % _name, _cast_scalar(_fn),
                     arith('np', _name, 'scalar') + arith('np', _MIRROR.get(_name, _name), 'rscalar'))


def _as_integers(fn):
    """A bitwise function of integer/bool arrays. ``mx.np`` rejects float arrays before they get
    here (as MXNet); a float input reaching the operator (shape inference of an untyped graph)
    is truncated to integers and the result given back in its float type."""
    def run(*args):
        dtype = jnp.result_type(*args)
        if jnp.issubdtype(dtype, jnp.floating):
            return fn(*[a.astype(jnp.int64) for a in args]).astype(dtype)
        return fn(*args)
    return run


def _bitwise(name, fn):
    fn = _as_integers(fn)
    _register_binary('_npi_' + name, fn, name)
    _register_scalar('_npi_%s_scalar' % name, lambda x, s: fn(x, jax.lax.convert_element_type(s, x.dtype)),
                     arith('np', name, 'scalar rscalar'))


for _name, _fn in (('bitwise_and', jnp.bitwise_and), ('bitwise_or', jnp.bitwise_or),
                   ('bitwise_xor', jnp.bitwise_xor)):
    _bitwise(_name, _fn)


def _lcm(a, b):
    """The least common multiple of integers, never negative (0 where either is 0), in their type."""
    return jnp.lcm(a, b).astype(jnp.result_type(a, b))


_register_binary('_npi_lcm', _as_integers(_lcm), 'lcm')
_register_scalar('_npi_lcm_scalar', _cast_scalar(_as_integers(_lcm)), arith('np', 'lcm', 'scalar rscalar'))


@jax.custom_jvp
def _copysign(a, b):
    """a with b's sign, in a's type (integers too). As in MXNet, -0.0 counts as positive
    (copysign(2, -0.0) is 2, where NumPy gives -2)."""
    return jnp.where((a >= 0) == (b >= 0), a, -a).astype(a.dtype)


@_copysign.defjvp
def _copysign_jvp(primals, tangents):
    # MXNet's gradient: 1 for a where a and b agree in sign (a zero a included), else -1; none for b
    (a, b), (da, _) = primals, tangents
    return _copysign(a, b), jnp.where(a * b >= 0, da, -da)


def _copysign_scalar(x, s):
    return _copysign(x, jnp.asarray(s, x.dtype) if jnp.issubdtype(x.dtype, jnp.floating) else s)


def _ldexp(a, b):
    """a * 2**b in the operands' type: an integer result is computed in float64 and truncated (MXNet's
    ldexp of int32 arrays gives -3 * 2**-2 = 0)."""
    dtype = jnp.result_type(a, b)
    work = dtype if jnp.issubdtype(dtype, jnp.floating) else jnp.float64
    # power(2, b), not exp2(b): XLA's exp2 is a few ulps off at integers (2**3 would truncate to 7)
    return (a.astype(work) * jnp.power(jnp.asarray(2, work), b.astype(work))).astype(dtype)


_register_binary('_npi_copysign', lambda a, b: _copysign(a, b.astype(a.dtype) if a.dtype != b.dtype else b), 'copysign')
_register_scalar('_npi_copysign_scalar', _copysign_scalar, arith('np', 'copysign', 'scalar'))
_register_scalar('_npi_rcopysign_scalar', lambda x, s: _copysign(jax.lax.convert_element_type(s, x.dtype), x),
                 arith('np', 'copysign', 'rscalar'))
_register_binary('_npi_ldexp', _ldexp, 'ldexp')
# the number is cast to the array's type first, as MXNet does (an int32 array's ldexp(x, 1.5) is x * 2)
_register_scalar('_npi_ldexp_scalar', _cast_scalar(_ldexp), arith('np', 'ldexp', 'scalar'))
_register_scalar('_npi_rldexp_scalar', _cast_scalar(lambda x, s: _ldexp(s, x)), arith('np', 'ldexp', 'rscalar'))


@register('_npi_bitwise_not', inputs=('x',), np=(Np('invert(x, out=None, **kwargs)', aliases=('bitwise_not',),
                                                   numpy_scalars=True, integers_only=True),))
def np_bitwise_not(x):
    """Elementwise bitwise NOT of integers (logical NOT of bools)."""
    return _as_integers(jnp.invert)(x)


@register('_npi_logical_not', inputs=('x',), np=('logical_not',))
def np_logical_not(x):
    """Elementwise NOT, as bool."""
    return x == 0


def _float_test(name, fn, of_integers=False):
    """A NumPy float test; ``of_integers``: its answer for every integer (or bool) element."""
    def op(x):
        return fn(x) if jnp.issubdtype(x.dtype, jnp.inexact) else jnp.full(x.shape, of_integers, jnp.bool_)
    op.__name__ = name
    op.__doc__ = 'Elementwise NumPy %s, as bool (%s everywhere for integers).' % (name[5:], str(of_integers).lower())
    register(name, inputs=('x',), np=(name[5:],), pointwise=True)(op)


_float_test('_npi_isnan', jnp.isnan)
_float_test('_npi_isinf', jnp.isinf)
_float_test('_npi_isposinf', jnp.isposinf)
_float_test('_npi_isneginf', jnp.isneginf)
_float_test('_npi_isfinite', jnp.isfinite, of_integers=True)  # NumPy's and MXNet's: integers are finite


@register('_npi_around', inputs=('x',), params=[P('decimals', 'int', 0)],
          np=(Np('around(x, decimals=0, out=None)', aliases=('round', 'round_'), method='round', numpy_scalars=True),))
def np_around(x, *, decimals):
    """Round to the given number of decimals (halves to even, as NumPy). Floats are scaled
    as MXNet's kernel scales them, one factor of 10 at a time in x's own type (x*10*10, not
    x*100: the results differ in the last float32 bit, 7.39 -> 7.3900003 as MXNet, not
    7.3899999), rounded, and scaled back the same way. (XLA would merge the steps, x/10/10
    into x/100, or divide by multiplying with an inexact reciprocal: the barriers keep them.)
    Integers keep their digits for decimals >= 0 and, as MXNet's integer arithmetic, drop
    the last -decimals digits towards zero otherwise (15 -> 10, not NumPy's 20)."""
    if x.dtype == jnp.float16:  # MXNet's kernel has no float16 variant
        raise MXNetError('_npi_around: float16 input is not supported; cast to float32 first')
    if not jnp.issubdtype(x.dtype, jnp.floating):
        if decimals >= 0 or x.dtype == jnp.bool_:
            return x
        factor = 10 ** -decimals
        if factor > jnp.iinfo(x.dtype).max:  # every digit dropped
            return jnp.zeros_like(x)
        return jax.lax.div(x, jnp.asarray(factor, x.dtype)) * jnp.asarray(factor, x.dtype)
    # ten enters the barrier beside x: a constant one would be folded out of it
    x, ten = jax.lax.optimization_barrier((x, jnp.full(x.shape, 10, x.dtype)))
    up, down = (jnp.multiply, jnp.divide) if decimals > 0 else (jnp.divide, jnp.multiply)
    for _ in range(abs(decimals)):
        x, ten = jax.lax.optimization_barrier((up(x, ten), ten))
    x = _round_half_even(x)
    for _ in range(abs(decimals)):
        x, ten = jax.lax.optimization_barrier((down(x, ten), ten))
    return x


def _round_half_even(x):
    # MXNet rounds halves away from zero, then steps odd results back by one: -0.5 gives +0.0
    # (np.round(-0.5) prints 0., not NumPy's -0.); other values rounding to zero keep their sign
    return jnp.where(jnp.abs(x) == 0.5, jnp.zeros_like(x), jnp.round(x))


# ---- shapes ------------------------------------------------------------------------------

def _np_reshape_shape(name, size, shape, newshape):
    if list(newshape).count(-1) > 1:
        raise MXNetError('%s: can only specify one unknown dimension, got %s' % (name, newshape))
    known = 1
    for d in newshape:
        if d != -1:
            if d < 0:
                raise MXNetError('%s: invalid dimension %d in newshape %s' % (name, d, newshape))
            known *= d
    out = []
    for d in newshape:
        if d == -1:
            if known == 0 or size % known:
                raise MXNetError('%s: cannot reshape array of shape %s into shape %s'
                                 % (name, shape_str(shape), shape_str(newshape)))
            out.append(size // known)
        else:
            out.append(d)
    if math.prod(out) != size:
        raise MXNetError('%s: cannot reshape array of shape %s into shape %s'
                         % (name, shape_str(shape), shape_str(newshape)))
    return tuple(out)


def _onnx_np_reshape(g, node):
    """NumPy's -1 is ONNX's; a 0 (an empty axis, ONNX's 'copy') takes the static shape."""
    newshape = node.attrs['newshape']
    return _onnx.reshape_to(g, node.inputs[0], node.out_shapes[0] if 0 in newshape else newshape)


@register('_np_reshape', inputs=('a',), onnx=_onnx_np_reshape,
          np=(Np("reshape(a, newshape, order='C', out=None)"),
              Np("ravel(a, order='C')", fixed={'newshape': (-1,)}, method=True),
              Np("flatten(a, order='C')", fixed={'newshape': (-1,)}, method=True, function=False)),
          params=[P('newshape', 'shape'), P('order', 'str', 'C')],
          host=moves(lambda a, **kw: np_reshape(a, **kw)))  # a.reshape works on NumPy arrays as it is
def np_reshape(a, *, newshape, order):
    """NumPy's reshape: -1 infers one dimension; the size must not change."""
    if order != 'C':
        raise MXNetError("_np_reshape: only order='C' is supported, got %r" % order)
    return a.reshape(_np_reshape_shape('_np_reshape', a.size, a.shape, newshape))


def _onnx_np_transpose(g, node):
    ndim, axes = len(node.in_shapes[0]), node.attrs['axes']
    axes = tuple(range(ndim))[::-1] if axes is None else ((axes,) if isinstance(axes, int) else axes)
    return g.add('Transpose', node.inputs, perm=[a % ndim for a in axes])


def _onnx_np_squeeze(g, node):
    """Squeeze to the output's static shape (NumPy's squeeze may give a 0-d array)."""
    return _onnx.reshape_to(g, node.inputs[0], node.out_shapes[0])


@register('_np_transpose', inputs=('a',), onnx=_onnx_np_transpose, params=[P('axes', 'axis', None, optional=True)],
          np=(Np('transpose(a, axes=None)'),), host=moves(lambda *a, **kw: np_transpose(*a, xp=np, **kw)))
def np_transpose(a, *, axes, xp=jnp):
    """Permute the axes (reverse them when axes is None)."""
    if axes is not None:
        axes = (axes,) if isinstance(axes, int) else axes
        if len(axes) != a.ndim or not all(-a.ndim <= x < max(a.ndim, 1) for x in axes):
            raise MXNetError('_np_transpose: axes %s do not match an array of shape %s'
                             % (axes, shape_str(a.shape)))
        if len({x % max(a.ndim, 1) for x in axes}) != len(axes):
            raise MXNetValueError('_np_transpose: repeated axis in axes %s' % (axes,))
    return xp.transpose(a, axes)


@register('_np_squeeze', inputs=('a',), onnx=_onnx_np_squeeze, params=[P('axis', 'axis', None, optional=True)],
          np=(Np('squeeze(a, axis=None, out=None)'), Np('squeeze(a, axis=None)', method=True, function=False)),
          host=moves(lambda *a, **kw: np_squeeze(*a, xp=np, **kw)))
def np_squeeze(a, *, axis, xp=jnp):
    """Remove axes of length one (all of them when axis is None); 0-d results are kept."""
    if a.ndim == 0 and axis in (None, 0, -1, (0,), (-1,)):  # numpy accepts axis 0 / -1 of a 0-d array
        return a
    if axis is not None:
        for ax in ((axis,) if isinstance(axis, int) else axis):
            if not -a.ndim <= ax < a.ndim or a.shape[ax] != 1:
                raise MXNetError('_np_squeeze: cannot select an axis to squeeze out which has '
                                 'size not equal to one (axis %d of shape %s)' % (ax, shape_str(a.shape)))
    return xp.squeeze(a, axis)


def _onnx_np_concatenate(g, node):
    axis = node.attrs['axis']
    if axis is None:  # of the flattened arrays
        return g.add('Concat', [_onnx.reshape_to(g, x, (-1,)) for x in node.inputs], axis=0)
    return g.add('Concat', node.inputs, axis=axis)


@register('_npi_concatenate', variadic=True, onnx=_onnx_np_concatenate, np=(Np('concatenate(seq, axis=0, out=None)'),),
          params=[P('num_args', 'int', 1), P('axis', 'int', 0, optional=True)], host=moves(lambda *a, **kw: np_concatenate(*a, xp=np, **kw)))
def np_concatenate(*arrays, num_args, axis, xp=jnp):
    """Join arrays along an existing axis (of the flattened arrays when axis is None)."""
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    for a in arrays[1:]:
        if a.ndim != nd or any(x != y for i, (x, y) in enumerate(zip(a.shape, arrays[0].shape))
                               if i != axis % max(nd, 1)):
            raise MXNetError('_npi_concatenate: all the input array dimensions except for the '
                             'concatenation axis must match exactly, got %s'
                             % ', '.join(shape_str(b.shape) for b in arrays))
    return xp.concatenate(arrays, axis=axis)


@register('_npi_stack', variadic=True, np=(Np('stack(arrays, axis=0, out=None)'),),
          onnx=lambda g, node: _onnx.stack(g, node.inputs, node.attrs['axis'] % (len(node.in_shapes[0]) + 1)),
          params=[P('axis', 'int', 0), P('num_args', 'int', 1)], host=moves(lambda *a, **kw: np_stack(*a, xp=np, **kw)))
def np_stack(*arrays, axis, num_args, xp=jnp):
    """Join arrays of one shape along a new axis."""
    if len({a.shape for a in arrays}) > 1:
        raise MXNetError('_npi_stack: all input arrays must have the same shape, got %s'
                         % ', '.join(shape_str(b.shape) for b in arrays))
    return xp.stack(arrays, axis=axis)


def _split_outputs(attrs):
    ind = attrs['indices']
    return attrs['sections'] if attrs['sections'] > 0 else len(ind) + 1


@register('_npi_split', inputs=('a',), num_outputs=_split_outputs,
          params=[P('indices', 'shape', ()), P('axis', 'int', 0), P('squeeze_axis', 'bool', False),
                  P('sections', 'int', 0)],
          host=moves(lambda a, **kw: np_split(a, xp=np, **kw)))
def np_split(a, *, indices, axis, squeeze_axis, sections, xp=jnp):
    """Split into equal sections, or at the given indices, along an axis."""
    if sections > 0:
        if a.shape[axis] % sections:
            raise MXNetError('_npi_split: array split does not result in an equal division '
                             '(axis %d of shape %s into %d)' % (axis, shape_str(a.shape), sections))
        return tuple(xp.split(a, sections, axis=axis))
    return split_at(a, indices, axis)


def split_at(a, indices, axis):
    """NumPy's a[prev:index] along ``axis`` for each pair of boundaries: clamped to the axis,
    empty past its end or where an index is below the one before."""
    bounds = [None] + list(indices) + [None]
    lead = (slice(None),) * (axis % a.ndim)
    return tuple(a[lead + (slice(lo, hi),)] for lo, hi in zip(bounds[:-1], bounds[1:]))


@register('_npi_flip', params=[P('axis', 'axis', None, optional=True)], np=(Np('flip(m, axis=None)'),),
          host=moves(lambda *a, **kw: np_flip(*a, xp=np, **kw)))
def np_flip(data, *, axis, xp=jnp):
    """Reverse the order of elements along the given axes (every axis when None)."""
    return xp.flip(data, axis)


@register('_npi_clip', inputs=('a',),
          params=[P('a_min', 'float', None, optional=True), P('a_max', 'float', None, optional=True)],
          np=(Np('clip(a, a_min, a_max, out=None)'),
              Np('clip(a, min=None, max=None, out=None)', params={'min': 'a_min', 'max': 'a_max'}, method=True,
                 function=False)))
def np_clip(a, *, a_min, a_max):
    """Clip into [a_min, a_max]; either bound may be None."""
    if a_min is None and a_max is None:
        raise MXNetError('_npi_clip: a_min and a_max cannot both be None')
    return jnp.clip(a, a_min, a_max).astype(a.dtype)


def _host_where(condition, x, y):
    """where on the host: x and y of one dtype (jax and NumPy promote mixes differently) and a
    condition without subnormals (which XLA's CPU code compares as zero)."""
    if x.dtype != y.dtype or (condition.dtype.kind == 'f' and (
            (condition != 0) & (np.abs(condition) < np.finfo(condition.dtype).tiny)).any()):
        raise Fallback('mixed dtypes or a subnormal condition')
    return np_where(condition, x, y, xp=np)


@register('_npi_where', inputs=('condition', 'x', 'y'), host=moves(_host_where, mixed_dtypes=True, moved=(1, 2)))
def np_where(condition, x, y, xp=jnp):
    """Elements of x where condition is true, else of y, all three broadcast together."""
    try:
        np.broadcast_shapes(condition.shape, x.shape, y.shape)
    except ValueError:
        raise MXNetError('_npi_where: operands could not be broadcast together with shapes %s %s %s'
                         % (shape_str(condition.shape), shape_str(x.shape), shape_str(y.shape))) from None
    return xp.where(condition != 0, x, y)


# ---- linear algebra ----------------------------------------------------------------------

def _matmul_error(name, a, b):
    return MXNetError('%s: shape mismatch %s x %s' % (name, shape_str(a.shape), shape_str(b.shape)))


@register('_np_dot', inputs=('a', 'b'), input_shapes=_input_shapes.dot)
def np_dot(a, b):
    """NumPy's dot: sum over the last axis of a and the second-to-last of b (0-d for vectors)."""
    if a.ndim and b.ndim and a.shape[-1] != b.shape[-2 if b.ndim > 1 else 0]:
        raise _matmul_error('_np_dot', a, b)
    return jnp.dot(a, b)


@register('_npi_matmul', inputs=('a', 'b'), np=(Np('matmul(a, b, out=None)'),))
def np_matmul(a, b):
    """Matrix product with NumPy's broadcasting of leading (batch) axes."""
    if a.ndim == 0 or b.ndim == 0:
        raise MXNetError('_npi_matmul: operands must not be scalars, got %s x %s'
                         % (shape_str(a.shape), shape_str(b.shape)))
    if a.shape[-1] != b.shape[-2 if b.ndim > 1 else 0]:
        raise _matmul_error('_npi_matmul', a, b)
    return jnp.matmul(a, b)


@register('_npi_tensordot', inputs=('a', 'b'),
          params=[P('a_axes_summed', 'shape'), P('b_axes_summed', 'shape')])
def np_tensordot(a, b, *, a_axes_summed, b_axes_summed):
    """Sum products over the given axes of a and b."""
    if any(a.shape[i] != b.shape[j] for i, j in zip(a_axes_summed, b_axes_summed)):
        raise _matmul_error('_npi_tensordot', a, b)
    return jnp.tensordot(a, b, (a_axes_summed, b_axes_summed))


@register('_npi_tensordot_int_axes', inputs=('a', 'b'), params=[P('axes', 'int')])
def np_tensordot_int_axes(a, b, *, axes):
    """Sum products over the last ``axes`` axes of a and the first ``axes`` of b (the form
    ``np.tensordot(a, b, 2)`` takes, usable where the ranks are not known yet)."""
    if axes < 0 or axes > min(a.ndim, b.ndim) or a.shape[a.ndim - axes:] != b.shape[:axes]:
        raise _matmul_error('_npi_tensordot_int_axes', a, b)
    return jnp.tensordot(a, b, axes)


@register('_npi_norm', inputs=('x',),
          params=[P('ord', 'any', None), P('axis', 'axis', None, optional=True), P('keepdims', 'bool', False)])
def np_norm(x, *, ord, axis, keepdims):
    """NumPy's linalg.norm: vector or matrix norms (Frobenius / 2-norm by default)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        x = x.astype(_DEFAULT_FLOAT)
    if isinstance(ord, str) and ord not in ('fro', 'nuc'):  # a number written as a graph attribute
        ord = None if ord == 'None' else float(ord)
    if axis is None and ord is None:
        return jnp.sqrt(jnp.sum(x * x)).reshape((1,) * x.ndim if keepdims else ())
    return jnp.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)


def _float_linalg(name, fn, doc, n_out=1, inputs=('A',), np=None):
    """A linear algebra operator of float matrices; ``np``: its mx.np.linalg entry when more than
    ``linalg.<name>(a, ...)``."""
    def op(*arrays):
        for a in arrays:
            if not jnp.issubdtype(a.dtype, jnp.floating):
                raise MXNetError('%s: a floating point array is required, got %s' % (name, a.dtype))
        A = arrays[0]
        if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
            raise MXNetError('%s: the last two axes must form square matrices, got shape %s'
                             % (name, shape_str(A.shape)))
        out = fn(*arrays)
        return tuple(out) if n_out > 1 else out
    op.__name__, op.__doc__ = name, doc
    np = np or Np('linalg.%s(%s)' % (name[5:], ', '.join(i.lower() for i in inputs)), tuple_outputs=n_out > 1)
    register(name, inputs=inputs, num_outputs=n_out, np=(np,))(op)

# (jnp.linalg is looked up when an operator runs: importing it costs ~70 ms)
_float_linalg('_npi_inv', lambda a: jnp.linalg.inv(a), 'The inverse of each square matrix in the last two axes.')
_float_linalg('_npi_det', lambda a: jnp.linalg.det(a), 'The determinant of each square matrix.')
_float_linalg('_npi_slogdet', lambda a: jnp.linalg.slogdet(a), '(sign, log|det|) of each square matrix.', n_out=2,
              np=Np('linalg.slogdet(a)'))  # a list [sign, logabsdet], as MXNet's (not a tuple)
_float_linalg('_npi_cholesky', lambda a: jnp.linalg.cholesky(a),
              'The lower Cholesky factor of each symmetric positive-definite matrix.')


def _square_matrices(name, a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise MXNetError('%s: the last two axes must form square matrices, got shape %s' % (name, shape_str(a.shape)))


def _eigen_input(name, a):
    """The matrices an eigen-decomposition works on: integer arrays become float64, as in MXNet."""
    _square_matrices(name, a)
    return a if jnp.issubdtype(a.dtype, jnp.floating) else a.astype(jnp.float64)


def _check_uplo(name, UPLO):
    if UPLO not in ('L', 'U'):
        raise MXNetError("%s: UPLO must be 'L' or 'U', got %r" % (name, UPLO))


@register('_npi_eigh', inputs=('A',), num_outputs=2, params=[P('UPLO', 'str', 'L')],
          np=(Np("linalg.eigh(a, UPLO='L')", tuple_outputs=True),))
def np_eigh(A, *, UPLO):
    """Eigenvalues (ascending) and eigenvectors of symmetric matrices, read from the UPLO triangle."""
    _check_uplo('_npi_eigh', UPLO)
    A = _eigen_input('_npi_eigh', A)
    return tuple(jnp.linalg.eigh(A, UPLO=UPLO, symmetrize_input=False))


@register('_npi_eigvalsh', inputs=('A',), params=[P('UPLO', 'str', 'L')], np=(Np("linalg.eigvalsh(a, UPLO='L')"),))
def np_eigvalsh(A, *, UPLO):
    """Eigenvalues (ascending) of symmetric matrices, read from the UPLO triangle."""
    _check_uplo('_npi_eigvalsh', UPLO)
    A = _eigen_input('_npi_eigvalsh', A)
    return jnp.linalg.eigh(A, UPLO=UPLO, symmetrize_input=False)[0]


def _real_eig(A):
    # MXNet's eig and eigvals handle matrices with real eigenvalues only: the real parts are kept
    if A.size == 0:
        return jnp.zeros(A.shape[:-1], A.dtype), jnp.zeros(A.shape, A.dtype)
    w, v = jnp.linalg.eig(A)
    return w.real.astype(A.dtype), v.real.astype(A.dtype)


@register('_npi_eig', inputs=('A',), num_outputs=2, np=(Np('linalg.eig(a)', tuple_outputs=True),))
def np_eig(A):
    """Eigenvalues and (column) eigenvectors of square matrices with real eigenvalues."""
    return _real_eig(_eigen_input('_npi_eig', A))


@register('_npi_eigvals', inputs=('A',), np=(Np('linalg.eigvals(a)'),))
def np_eigvals(A):
    """Eigenvalues of square matrices with real eigenvalues."""
    return _real_eig(_eigen_input('_npi_eigvals', A))[0]


def _pinv(name, A, rcond, hermitian):
    """NumPy's pseudo-inverse: singular values at most rcond times the largest count as zero."""
    if not jnp.issubdtype(A.dtype, jnp.floating) or A.ndim < 2:
        raise MXNetError('%s: a floating point array of at least 2 axes is required, got %s %s'
                         % (name, A.dtype, shape_str(A.shape)))
    if hermitian:
        s, u = jnp.linalg.eigh(A)
        vt = jnp.swapaxes(u * jnp.sign(s)[..., None, :], -1, -2)
        s = jnp.abs(s)
    else:
        u, s, vt = jnp.linalg.svd(A, full_matrices=False)
    cutoff = jnp.asarray(rcond, A.dtype)[..., None] * jnp.max(s, axis=-1, keepdims=True)
    s_inv = jnp.where(s > cutoff, 1 / jnp.where(s > cutoff, s, 1), 0)
    return jnp.matmul(jnp.swapaxes(vt, -1, -2) * s_inv[..., None, :], jnp.swapaxes(u, -1, -2))


@register('_npi_pinv', inputs=('A', 'rcond'), params=[P('hermitian', 'bool', False)])
def np_pinv(A, rcond, *, hermitian):
    """The pseudo-inverse of each matrix, with an array of cutoffs (broadcast over the matrices)."""
    return _pinv('_npi_pinv', A, rcond, hermitian)


@register('_npi_pinv_scalar_rcond', inputs=('A',), params=[P('rcond', 'float', 1e-15), P('hermitian', 'bool', False)])
def np_pinv_scalar_rcond(A, *, rcond, hermitian):
    """The pseudo-inverse of each matrix, with one cutoff."""
    return _pinv('_npi_pinv_scalar_rcond', A, rcond, hermitian)


def _as_matrix(name, a, rows, what):
    """``a`` as a matrix of ``rows`` rows; it must be square."""
    cols = a.size // rows if rows else 0
    if rows != cols:
        raise MXNetError('%s: %s of shape %s is not square (%d x %d)' % (name, what, shape_str(a.shape), rows, cols))
    return a.reshape(rows, cols)


@register('_npi_tensorinv', inputs=('a',), params=[P('ind', 'int', 2)], np=(Np('linalg.tensorinv(a, ind=2)'),))
def np_tensorinv(a, *, ind):
    """The inverse of ``a`` under tensordot over ``ind`` axes: shape a.shape[ind:] + a.shape[:ind]."""
    if ind <= 0:
        raise MXNetError('_npi_tensorinv: ind must be a positive integer, got %d' % ind)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise MXNetError('_npi_tensorinv: a floating point array is required, got %s' % a.dtype)
    rows = math.prod(a.shape[:ind])
    inv = jnp.linalg.inv(_as_matrix('_npi_tensorinv', a, rows, 'the tensor'))
    return inv.reshape(a.shape[ind:] + a.shape[:ind])


@register('_npi_tensorsolve', inputs=('a', 'b'), params=[P('a_axes', 'shape', ())],
          np=(Np('linalg.tensorsolve(a, b, axes=None)', params={'axes': 'a_axes'}),))
def np_tensorsolve(a, b, *, a_axes):
    """x with tensordot(a, x, x.ndim) = b; ``a_axes`` are first moved to the end of a."""
    if not (jnp.issubdtype(a.dtype, jnp.floating) and jnp.issubdtype(b.dtype, jnp.floating)):
        raise MXNetError('_npi_tensorsolve: floating point arrays are required, got %s and %s' % (a.dtype, b.dtype))
    if a_axes:
        axes = [ax % a.ndim for ax in a_axes]
        a = jnp.transpose(a, [i for i in range(a.ndim) if i not in axes] + axes)
    # MXNet's rule: x takes a's last ndim(a) - ndim(b) axes (Python slicing: all of them when the
    # ranks are equal), and a must be a square matrix of b's and x's size
    x_shape = a.shape[-(a.ndim - b.ndim):]
    if math.prod(x_shape) != b.size:
        raise MXNetError('_npi_tensorsolve: the solution shape %s taken from a %s does not fit b %s'
                         % (shape_str(x_shape), shape_str(a.shape), shape_str(b.shape)))
    matrix = _as_matrix('_npi_tensorsolve', a, b.size, 'a')
    return jnp.linalg.solve(matrix, b.reshape(-1)).reshape(x_shape).astype(jnp.result_type(a.dtype, b.dtype))
_float_linalg('_npi_solve', lambda a, b: jnp.linalg.solve(a, b), 'x with A @ x = B.', inputs=('A', 'B'))


@register('_npi_svd', inputs=('A',), num_outputs=3, np=(Np('linalg.svd(a)', tuple_outputs=True),))
def np_svd(A):
    """(ut, l, v) with A = ut @ diag(l) @ v over the last two axes (reduced matrices)."""
    if not jnp.issubdtype(A.dtype, jnp.floating) or A.ndim < 2:
        raise MXNetError('_npi_svd: a floating point array of at least 2 axes is required, got %s %s'
                         % (A.dtype, shape_str(A.shape)))
    return tuple(jnp.linalg.svd(A, full_matrices=False))


@register('_npi_einsum', variadic=True, np=(Np('einsum(subscripts, *operands, out=None, optimize=False)'),),
          params=[P('num_args', 'int', 1), P('subscripts', 'str', ''), P('optimize', 'int', 0)])
def np_einsum(*operands, num_args, subscripts, optimize):
    """Einstein summation over the operands as ``subscripts`` says."""
    try:
        return jnp.einsum(subscripts, *operands, optimize='greedy' if optimize else False)
    except ValueError as err:
        raise MXNetError('_npi_einsum: %s (subscripts %r, operands %s)'
                         % (err, subscripts, ', '.join(shape_str(a.shape) for a in operands))) from None


_PAD_MODES = ('constant', 'edge', 'reflect', 'symmetric', 'maximum', 'minimum', 'mean')


@register('_npi_pad', inputs=('data',),
          params=[P('pad_width', 'shapes'), P('mode', 'str', 'constant'), P('constant_values', 'float', 0.0),
                  P('reflect_type', 'str', 'even')])
def np_pad(data, *, pad_width, mode, constant_values, reflect_type):
    """NumPy's pad: ``pad_width`` is ((before, after),) per axis."""
    if mode not in _PAD_MODES:
        raise MXNetError('_npi_pad: mode must be one of %s, got %r' % (', '.join(_PAD_MODES), mode))
    if len(pad_width) != data.ndim:
        raise MXNetError('_npi_pad: pad_width has %d (before, after) pairs for an array of shape %s'
                         % (len(pad_width), shape_str(data.shape)))
    if mode == 'constant':
        return jnp.pad(data, pad_width, mode='constant', constant_values=constant_values)
    if mode in ('reflect', 'symmetric'):
        return jnp.pad(data, pad_width, mode=mode, reflect_type=reflect_type)
    return jnp.pad(data, pad_width, mode=mode)
