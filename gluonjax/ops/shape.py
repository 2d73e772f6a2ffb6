"""Shape operators: reshape, transpose, join and split, slice, tile, pad, broadcast, masks.

Every function here is pure and works on static shapes: the checks run while
tracing and raise MXNetError naming the operator and the shapes, as MXNet's
shape inference does. Gradients come from jax (slicing scatters back, tiling
and broadcasting sum), which is what MXNet's backward kernels compute.

Operators that only move data take ``xp`` (``jax.numpy``; NumPy in their host
form, ops/_host.py): the same code, checks included, runs a first call on the
host instead of compiling it.
"""
import math

import jax.numpy as jnp
import numpy as np
from jax import lax

from ..base import MXNetError, shape_str
from . import _onnx
from ._host import Fallback, flush_subnormals, moves
from ._registry import ELEMENTWISE, MOVES, ORDER, Np, P, Plot, along_axes, register


def norm_axis(name, axis, ndim, what='axis'):
    """``axis`` in [0, ndim), accepting negative values; an MXNetError naming ``name`` otherwise."""
    if not -ndim <= axis < ndim:
        raise MXNetError('%s: %s %d is out of range for an array with %d dimensions (valid: %d to %d)'
                         % (name, what, axis, ndim, -ndim, ndim - 1))
    return axis % ndim


def _nonnegative_axis(name, axis, ndim, what='axis'):
    """``axis`` checked to lie in [0, ndim): the legacy operators that index their shape with it
    directly (transpose, reverse, broadcast_axis) refuse negative axes in MXNet."""
    if not 0 <= axis < ndim:
        raise MXNetError('%s: %s %d is out of range for an array with %d dimensions (valid: 0 to %d; '
                         'this operator takes no negative axes)' % (name, what, axis, ndim, ndim - 1))
    return axis


def _tuple_str(t):
    return '(' + ', '.join('None' if v is None else str(v) for v in t) + (',)' if len(t) == 1 else ')')


# ---- Reshape -------------------------------------------------------------------------

def reshape_shape(dshape, codes, reverse=False, name='Reshape', check_size=True):
    """The output shape of MXNet's Reshape for input shape ``dshape`` and shape ``codes``.

    Codes: ``d > 0`` a new dimension; ``0`` copy the input dimension; ``-1`` infer
    from the rest; ``-2`` copy all remaining input dimensions; ``-3`` merge two
    input dimensions; ``-4 a b`` split one input dimension into ``a x b`` (one may
    be -1). With ``reverse`` the codes are matched from the right.
    """
    src = list(dshape)[::-1] if reverse else list(dshape)
    codes = list(codes)[::-1] if reverse else list(codes)

    def fail(why):
        raise MXNetError('%s: cannot reshape array of shape %s into shape %s%s: %s'
                         % (name, shape_str(dshape), _tuple_str(tuple(codes[::-1] if reverse else codes)),
                            ' (reverse=True)' if reverse else '', why))
    out, j, infer, i = [], 0, -1, 0
    while i < len(codes):
        c = codes[i]
        if c > 0:
            out.append(c)
            j += 1
        elif c == 0:
            if j >= len(src):
                fail('code 0 at position %d has no input dimension to copy' % i)
            out.append(src[j])
            j += 1
        elif c == -1:
            if infer >= 0:
                fail('only one dimension can be inferred (-1)')
            infer = len(out)
            out.append(1)
            j += 1
        elif c == -2:
            out.extend(src[j:])
            j = len(src)
        elif c == -3:
            if j + 1 >= len(src):
                fail('code -3 needs two input dimensions to merge')
            out.append(src[j] * src[j + 1])
            j += 2
        elif c == -4:
            if i + 2 >= len(codes):
                fail('code -4 must be followed by two dimensions')
            if j >= len(src):
                fail('code -4 has no input dimension to split')
            d0, d1, d2 = src[j], codes[i + 1], codes[i + 2]
            j += 1
            i += 2
            if d1 == -1 and d2 == -1:
                fail('split dimensions cannot both be -1')
            if d1 == -1:
                d1 = d0 // d2 if d2 else 0
            if d2 == -1:
                d2 = d0 // d1 if d1 else 0
            if d1 * d2 != d0:
                fail('split dimensions %d, %d do not divide input dimension %d' % (d1, d2, d0))
            out.extend([d1, d2])
        else:
            fail('invalid shape code %d' % c)
        i += 1
    size = math.prod(dshape)
    if infer >= 0:
        rest = math.prod(out)
        if rest == 0 or size % rest:
            fail('the size %d is not a multiple of %d' % (size, rest))
        out[infer] = size // rest
    if check_size and math.prod(out) != size:
        fail('the sizes differ (%d vs %d)' % (size, math.prod(out)))
    return tuple(out[::-1] if reverse else out)


def _legacy_target_shape(dshape, target, keep_highest, name):
    """MXNet's deprecated ``target_shape``: 0 marks the one dimension to infer."""
    out = list(target)
    if keep_highest:
        out[0] = dshape[0]
    zeros = [i for i in range(1 if keep_highest else 0, len(out)) if out[i] == 0]
    size = math.prod(dshape)
    if len(zeros) == 1:
        out[zeros[0]] = 1
        out[zeros[0]] = size // max(math.prod(out), 1)
    if math.prod(out) != size:
        raise MXNetError('%s: cannot reshape array of shape %s into target_shape %s: the sizes differ'
                         % (name, shape_str(dshape), _tuple_str(target)))
    return tuple(out)


def _onnx_reshape(g, node):
    """MXNet's codes 0 (copy) and -1 (infer) are ONNX's, so such a shape stays as written (a
    dynamic batch passes through); -2, -3, -4, reverse and target_shape give the static shape."""
    a = node.attrs
    written = a['shape'] and not a['reverse'] and all(d >= -1 for d in a['shape'])
    return _onnx.reshape_to(g, node.inputs[0], a['shape'] if written else node.out_shapes[0])


@register('Reshape', plot=Plot('shape'), along=ORDER, methods=('reshape',), aliases=('reshape',), onnx=_onnx_reshape, keeps_size=True,
          host=moves(lambda data, **attrs: reshape(data, **attrs)),  # pure shape arithmetic: NumPy runs it as is
          params=[P('shape', 'shape', ()), P('reverse', 'bool', False), P('target_shape', 'shape', ()),
                  P('keep_highest', 'bool', False)])
def reshape(data, *, shape, reverse, target_shape, keep_highest):
    """A new shape for the same elements, with MXNet's special codes 0, -1, -2, -3, -4."""
    if not shape and target_shape:
        return data.reshape(_legacy_target_shape(data.shape, target_shape, keep_highest, 'Reshape'))
    return data.reshape(reshape_shape(data.shape, shape, reverse))


@register('Flatten', along=ORDER, onnx=_onnx.same('Flatten', axis=1), plot=Plot('shape'), npx=('batch_flatten',), methods=('flatten',), aliases=('flatten',),
          host=moves(lambda data: flatten(data)))
def flatten(data):
    """Collapse all axes but the first: (d1, d2, ..., dk) -> (d1, d2*...*dk)."""
    if data.ndim == 0:
        raise MXNetError('Flatten: the input must have at least one dimension, got shape []')
    return data.reshape((data.shape[0], math.prod(data.shape[1:])))


@register('reshape_like', npx=('reshape_like',), methods=('reshape_like',), inputs=('lhs', 'rhs'),
          host=moves(lambda lhs, rhs, **attrs: reshape_like(lhs, rhs, **attrs)),
          params=[P(n, 'int', None, optional=True) for n in ('lhs_begin', 'lhs_end', 'rhs_begin', 'rhs_end')])
def reshape_like(lhs, rhs, *, lhs_begin, lhs_end, rhs_begin, rhs_end):
    """lhs reshaped so that lhs.shape[lhs_begin:lhs_end] becomes rhs.shape[rhs_begin:rhs_end]."""
    def bounds(shape, b, e):
        n = len(shape)
        b = 0 if b is None else (b + n if b < 0 else b)
        e = n if e is None else (e + n if e < 0 else e)
        if not 0 <= b <= e <= n:
            raise MXNetError('reshape_like: begin %d and end %d are not valid for shape %s' % (b, e, shape_str(shape)))
        return b, e
    lb, le = bounds(lhs.shape, lhs_begin, lhs_end)
    rb, re = bounds(rhs.shape, rhs_begin, rhs_end)
    new = lhs.shape[:lb] + rhs.shape[rb:re] + lhs.shape[le:]
    if math.prod(new) != lhs.size:
        raise MXNetError('reshape_like: cannot reshape lhs of shape %s to %s: the sizes differ (%d vs %d)'
                         % (shape_str(lhs.shape), shape_str(new), lhs.size, math.prod(new)))
    return lhs.reshape(new)


@register('shape_array', npx=('shape_array',), methods=('shape_array',), out_dtypes=lambda attrs, dtypes: ('int64',))
def shape_array(data):
    """The shape of the input as a 1-D int64 array."""
    return jnp.asarray(np.array(data.shape, dtype=np.int64))


@register('size_array', methods=('size_array',), out_dtypes=lambda attrs, dtypes: ('int64',))
def size_array(data):
    """The number of elements of the input as a (1,) int64 array."""
    return jnp.asarray(np.array([data.size], dtype=np.int64))


def _cast_on_host(data, *, dtype):
    """``cast`` in NumPy with XLA's CPU bits: float32/float64 subnormals read and written as zero;
    floats outside the integer range (or NaN) are left to XLA, which saturates where C wraps."""
    target = np.dtype(dtype)
    if data.dtype == target:
        return data.copy()
    if data.dtype.kind == 'f':
        data = flush_subnormals(data)
        if target.kind in 'iu':
            # the range of the integer type converted to first (narrow types go through int32)
            info = np.iinfo(np.int32 if target.itemsize < 4 else target)
            whole = np.trunc(data.astype(np.float64))
            if not np.all((whole >= info.min) & (whole < float(info.max) + 1)):  # NaN fails both
                raise Fallback('a float outside %s' % info.dtype)
    return flush_subnormals(cast(data, dtype=target))


@register('Cast', methods=('astype',), along=ELEMENTWISE, aliases=('cast',), npx=('cast',), same_shape_inputs=True,
          onnx=lambda g, node: g.add('Cast', node.inputs, to=_onnx.tensor_type(node.attrs['dtype'])), params=[P('dtype', 'dtype')],
          host=moves(_cast_on_host))  # moves: every dtype; the form declines what it cannot match
def cast(data, *, dtype):
    """The input converted to ``dtype`` (floats to integers truncate toward zero).

    Floats to integers narrower than 32 bits go through int32 and wrap around (300 -> 44 as
    uint8), as MXNet's C++ casts do on x86; XLA would saturate.
    """
    target = np.dtype(dtype)
    if (jnp.issubdtype(data.dtype, jnp.floating) and jnp.issubdtype(target, jnp.integer)
            and target.itemsize < 4):
        data = data.astype(jnp.int32)
    return data.astype(target)


# ---- axes ----------------------------------------------------------------------------

def _onnx_transpose(g, node):
    ndim = len(node.in_shapes[0])
    axes = node.attrs['axes'] or tuple(range(ndim))[::-1]
    return g.add('Transpose', node.inputs, perm=[a % ndim for a in axes])


def _onnx_swap_axis(g, node):
    ndim = len(node.in_shapes[0])
    perm = list(range(ndim))
    a, b = node.attrs['dim1'] % ndim, node.attrs['dim2'] % ndim
    perm[a], perm[b] = perm[b], perm[a]
    return g.add('Transpose', node.inputs, perm=perm)


@register('transpose', methods=('transpose',), along=MOVES, onnx=_onnx_transpose, params=[P('axes', 'shape', ())],
          host=moves(lambda data, *, axes: transpose(data, axes=axes, xp=np)))
def transpose(data, *, axes, xp=jnp):
    """Permute the axes; with no ``axes``, reverse them."""
    if not axes:
        return xp.transpose(data)
    if len(axes) != data.ndim:
        raise MXNetError('transpose: axes %s must list all %d axes of an array of shape %s'
                         % (_tuple_str(axes), data.ndim, shape_str(data.shape)))
    perm = tuple(_nonnegative_axis('transpose', a, data.ndim) for a in axes)
    if sorted(perm) != list(range(data.ndim)):
        raise MXNetError('transpose: axes %s are not a permutation of the axes of shape %s'
                         % (_tuple_str(axes), shape_str(data.shape)))
    return xp.transpose(data, perm)


@register('SwapAxis', methods=('swapaxes',), along=MOVES, aliases=('swapaxes',), onnx=_onnx_swap_axis, params=[P('dim1', 'int', 0), P('dim2', 'int', 0)],
          host=moves(lambda data, *, dim1, dim2: swap_axis(data, dim1=dim1, dim2=dim2, xp=np)),
          np=(Np('swapaxes(a, axis1, axis2)', params={'axis1': 'dim1', 'axis2': 'dim2'}, method=True),))
def swap_axis(data, *, dim1, dim2, xp=jnp):
    """Exchange two axes."""
    a = norm_axis('SwapAxis', dim1, data.ndim, 'dim1')
    b = norm_axis('SwapAxis', dim2, data.ndim, 'dim2')
    return xp.swapaxes(data, a, b)


def _onnx_expand_dims(g, node):
    axis = node.attrs['axis'] % (len(node.in_shapes[0]) + 1)
    return g.add('Unsqueeze', [node.inputs[0], _onnx.axes_const(g, [axis])])


def _onnx_squeeze(g, node):
    """Squeeze the size-1 axes the output lost (a (1,) result, never 0-d, is a reshape)."""
    if node.out_shapes[0] == (1,):
        return _onnx.reshape_to(g, node.inputs[0], (1,))
    shape, axis = node.in_shapes[0], node.attrs['axis']
    if axis is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    else:
        axes = sorted({a % len(shape) for a in ((axis,) if isinstance(axis, int) else axis)})
    return g.add('Squeeze', [node.inputs[0], _onnx.axes_const(g, axes)])


@register('expand_dims', methods=('expand_dims',), along=ORDER, onnx=_onnx_expand_dims, params=[P('axis', 'int')], np=(Np('expand_dims(a, axis)'),),
          host=moves(lambda data, *, axis: expand_dims(data, axis=axis, xp=np)))
def expand_dims(data, *, axis, xp=jnp):
    """Insert an axis of size 1 at ``axis`` (in [-ndim-1, ndim])."""
    n = data.ndim
    if not -n - 1 <= axis <= n:
        raise MXNetError('expand_dims: axis must be in the range [%d, %d] for an array of shape %s (%d provided)'
                         % (-n - 1, n, shape_str(data.shape), axis))
    return xp.expand_dims(data, axis % (n + 1))


@register('squeeze', methods=('squeeze',), along=ORDER, onnx=_onnx_squeeze, params=[P('axis', 'axis', None, optional=True)],
          host=moves(lambda data, *, axis: squeeze(data, axis=axis, xp=np)))
def squeeze(data, *, axis, xp=jnp):
    """Remove axes of size 1 (all of them, or those in ``axis``); never returns a 0-d array."""
    if axis is None:
        axes = tuple(i for i, d in enumerate(data.shape) if d == 1)
    else:
        listed = [norm_axis('squeeze', a, data.ndim) for a in ((axis,) if isinstance(axis, int) else axis)]
        axes = tuple(sorted(set(listed)))
        if len(axes) != len(listed):  # MXNet refuses an axis named twice (-1 and ndim-1 included)
            raise MXNetError('squeeze: axis %s names an axis twice' % (axis,))
        for a in axes:
            if data.shape[a] != 1:
                raise MXNetError('squeeze: cannot squeeze out axis %d of shape %s: it has size %d, not 1'
                                 % (a, shape_str(data.shape), data.shape[a]))
    out = xp.squeeze(data, axes)
    return out.reshape((1,)) if out.ndim == 0 else out


# ---- joining and splitting -------------------------------------------------------------

def _same_dtype(name, arrays):
    for i, a in enumerate(arrays[1:], 1):
        if a.dtype != arrays[0].dtype:
            raise MXNetError('%s: all inputs must have the same dtype, got %s for input 0 and %s for input %d'
                             % (name, arrays[0].dtype, a.dtype, i))


@register('Concat', plot=Plot('shape'), aliases=('concat',), variadic=True,
          along=lambda a, ndims: [frozenset(x for x in range(n) if x != a['dim'] % n) for n in ndims],
          onnx=lambda g, node: g.add('Concat', node.inputs, axis=node.attrs['dim']),
          host=moves(lambda *data, num_args, dim: concat(*data, num_args=num_args, dim=dim, xp=np)),
          params=[P('num_args', 'int'), P('dim', 'int', 1)])
def concat(*data, num_args, dim, xp=jnp):
    """Join arrays along an existing axis ``dim``."""
    first = data[0]
    axis = norm_axis('Concat', dim, first.ndim, 'dim')
    _same_dtype('Concat', data)
    for i, a in enumerate(data[1:], 1):
        if a.ndim != first.ndim or any(x != y for k, (x, y) in enumerate(zip(a.shape, first.shape)) if k != axis):
            raise MXNetError('Concat: input %d has shape %s, incompatible with input 0 of shape %s '
                             '(shapes must agree except on dim %d)'
                             % (i, shape_str(a.shape), shape_str(first.shape), dim))
    return xp.concatenate(data, axis=axis)


def _onnx_stack(g, node):
    return _onnx.stack(g, node.inputs, node.attrs['axis'] % (len(node.in_shapes[0]) + 1))


def _onnx_split(g, node):
    a = node.attrs
    axis = a['axis'] % len(node.in_shapes[0])
    parts = g.add('Split', node.inputs, n_out=a['num_outputs'], axis=axis)
    parts = [parts] if isinstance(parts, str) else parts
    if a['squeeze_axis']:
        axes = _onnx.axes_const(g, [axis])
        parts = [g.add('Squeeze', [p, axes]) for p in parts]
    return parts


@register('stack', variadic=True, onnx=_onnx_stack, params=[P('axis', 'int', 0), P('num_args', 'int')],
          host=moves(lambda *data, axis, num_args: stack(*data, axis=axis, num_args=num_args, xp=np)))
def stack(*data, axis, num_args, xp=jnp):
    """Join arrays of equal shape along a new axis."""
    first = data[0]
    n = first.ndim + 1
    if not -n <= axis < n:
        raise MXNetError('stack: axis %d is out of range for the result with %d dimensions' % (axis, n))
    _same_dtype('stack', data)
    for i, a in enumerate(data[1:], 1):
        if a.shape != first.shape:
            raise MXNetError('stack: all inputs must have the same shape, got %s for input 0 and %s for input %d'
                             % (shape_str(first.shape), shape_str(a.shape), i))
    return xp.stack(data, axis=axis % n)


@register('SliceChannel', npx=('slice_channel',), methods=('split',), aliases=('split',), onnx=_onnx_split,
          params=[P('num_outputs', 'int'), P('axis', 'int', 1), P('squeeze_axis', 'bool', False)],
          num_outputs=lambda attrs: attrs['num_outputs'])
def slice_channel(data, *, num_outputs, axis, squeeze_axis):
    """Split into ``num_outputs`` equal parts along ``axis`` (a list of arrays)."""
    ax = norm_axis('split', axis, data.ndim)
    size = data.shape[ax]
    if num_outputs <= 0 or size % num_outputs:
        raise MXNetError('split: cannot split axis %d of shape %s into num_outputs=%d equal parts'
                         % (ax, shape_str(data.shape), num_outputs))
    if squeeze_axis and size != num_outputs:
        raise MXNetError('split: with squeeze_axis=True the size of axis %d (%d in shape %s) must equal '
                         'num_outputs=%d' % (ax, size, shape_str(data.shape), num_outputs))
    parts = jnp.split(data, num_outputs, axis=ax)
    if squeeze_axis:
        parts = [jnp.squeeze(p, ax) for p in parts]
    return tuple(parts)


# ---- slicing ---------------------------------------------------------------------------

_INT64_MIN = np.iinfo(np.int64).min


def onnx_slice(g, x, shape, index):
    """ONNX Slice of ``x`` (of static ``shape``) by a tuple of Python slices on its leading axes."""
    starts, ends, steps = [], [], []
    for sl, n in zip(index, shape):
        start, stop, step = sl.indices(n)
        starts.append(start)
        # a backwards slice to the front: ONNX reads -1 as the last element, INT64_MIN as 'before 0'
        ends.append(_INT64_MIN if step < 0 and stop < 0 else stop)
        steps.append(step)
    return g.add('Slice', [x] + [_onnx.ints(g, v) for v in (starts, ends, list(range(len(index))), steps)])


def _onnx_slice(g, node):
    a, shape = node.attrs, node.in_shapes[0]
    index = _slice_index('slice', np.broadcast_to(0, shape), a['begin'], a['end'], a['step'])
    return onnx_slice(g, node.inputs[0], shape, index)


def _onnx_slice_axis(g, node):
    a, shape = node.attrs, node.in_shapes[0]
    axis = a['axis'] % len(shape)
    index = (slice(None),) * axis + (slice(a['begin'], a['end']),)
    return onnx_slice(g, node.inputs[0], shape, index)


@register('slice', methods=('slice',), aliases=('crop',), npx=('slice',), onnx=_onnx_slice, partial_shapes='by_axis',
          host=moves(lambda data, **attrs: slice_op(data, **attrs)),  # Python slices index NumPy alike
          params=[P('begin', 'optints'), P('end', 'optints'), P('step', 'optints', ())])
def slice_op(data, *, begin, end, step):
    """Python-style slicing of the leading axes: begin/end/step per axis, None for the default."""
    return data[_slice_index('slice', data, begin, end, step)]


def _slice_index(name, data, begin, end, step):
    """The tuple of Python slices that ``slice``'s begin/end/step stand for, checked."""
    if len(begin) != len(end):
        raise MXNetError('%s: begin %s and end %s must have the same length' % (name, _tuple_str(begin), _tuple_str(end)))
    if step and len(step) != len(begin):
        raise MXNetError('%s: step %s must have the same length as begin %s' % (name, _tuple_str(step), _tuple_str(begin)))
    if len(begin) > data.ndim:
        raise MXNetError('%s: begin %s has more entries than the %d dimensions of shape %s'
                         % (name, _tuple_str(begin), data.ndim, shape_str(data.shape)))
    index = []
    for i, (b, e) in enumerate(zip(begin, end)):
        s = step[i] if step else None
        if s == 0:
            raise MXNetError('%s: step[%d] cannot be 0' % (name, i))
        index.append(slice(b, e, s))
    return tuple(index)


_SLICE_PARAMS = [P('begin', 'optints'), P('end', 'optints'), P('step', 'optints', ())]


@register('_slice_assign', aliases=('_crop_assign',), inputs=('lhs', 'rhs'), params=_SLICE_PARAMS)
def slice_assign(lhs, rhs, *, begin, end, step):
    """``lhs`` with the region that ``slice`` would cut (begin/end/step) replaced by ``rhs``."""
    index = _slice_index('_slice_assign', lhs, begin, end, step)
    region = np.broadcast_to(0, lhs.shape)[index].shape  # the slice's shape, no memory
    if tuple(rhs.shape) != tuple(region):
        raise MXNetError('_slice_assign: rhs of shape %s does not fit the slice of shape %s cut from lhs %s'
                         % (shape_str(rhs.shape), shape_str(region), shape_str(lhs.shape)))
    return lhs.at[index].set(rhs.astype(lhs.dtype))


@register('_slice_assign_scalar', aliases=('_crop_assign_scalar',),
          params=[P('scalar', 'float', 0.0)] + _SLICE_PARAMS)
def slice_assign_scalar(data, *, scalar, begin, end, step):
    """``data`` with the region that ``slice`` would cut (begin/end/step) set to ``scalar``."""
    return data.at[_slice_index('_slice_assign_scalar', data, begin, end, step)].set(scalar)


@register('slice_axis', partial_shapes='by_axis', along=along_axes(lambda a, ndim: [x for x in range(ndim) if x != a['axis'] % ndim]), methods=('slice_axis',), onnx=_onnx_slice_axis,
          host=moves(lambda data, **attrs: slice_axis(data, **attrs, xp=np)),
          params=[P('axis', 'int'), P('begin', 'int'), P('end', 'int', None, optional=True)])
def slice_axis(data, *, axis, begin, end, xp=jnp):
    """Elements begin..end (exclusive; None: to the end) along one axis; negative values count from the end."""
    ax = norm_axis('slice_axis', axis, data.ndim)
    n = data.shape[ax]
    b = begin + n if begin < 0 else begin
    e = n if end is None else (end + n if end < 0 else end)
    if not 0 <= b < e <= n:
        raise MXNetError('slice_axis: invalid begin=%d, end=%s for axis %d of shape %s (need 0 <= begin < end <= %d)'
                         % (begin, end, ax, shape_str(data.shape), n))
    if xp is np:  # the host form (lax has no NumPy twin)
        return data[(slice(None),) * ax + (slice(b, e),)]
    return lax.slice_in_dim(data, b, e, axis=ax)


@register('slice_like', methods=('slice_like',), inputs=('data', 'shape_like'), params=[P('axes', 'shape', ())])
def slice_like(data, shape_like, *, axes):
    """The leading part of ``data`` with the size of ``shape_like`` on ``axes`` (all axes by default)."""
    if not axes:
        if data.ndim != shape_like.ndim:
            raise MXNetError('slice_like: with no axes, data %s and shape_like %s must have the same number of '
                             'dimensions' % (shape_str(data.shape), shape_str(shape_like.shape)))
        axes = range(data.ndim)
    index = [slice(None)] * data.ndim
    for a in axes:
        ax = norm_axis('slice_like', a, data.ndim)
        if ax >= shape_like.ndim:
            raise MXNetError('slice_like: axis %d is out of range for shape_like of shape %s'
                             % (a, shape_str(shape_like.shape)))
        if shape_like.shape[ax] > data.shape[ax]:
            raise MXNetError('slice_like: axis %d of shape_like %s is larger than that of data %s'
                             % (ax, shape_str(shape_like.shape), shape_str(data.shape)))
        index[ax] = slice(0, shape_like.shape[ax])
    return data[tuple(index)]


# ---- repeating and padding -----------------------------------------------------------

def _onnx_tile(g, node):
    """numpy.tile: reps shorter than the array repeat its last axes, longer ones add leading axes."""
    shape, reps, x = node.in_shapes[0], node.attrs['reps'], node.inputs[0]
    if len(reps) > len(shape):
        x = _onnx.reshape_to(g, x, (1,) * (len(reps) - len(shape)) + tuple(shape))
    reps = (1,) * (len(shape) - len(reps)) + tuple(reps)
    return g.add('Tile', [x, _onnx.ints(g, reps)])


@register('tile', methods=('tile',), onnx=_onnx_tile, params=[P('reps', 'shape')],
          host=moves(lambda data, *, reps: tile(data, reps=reps, xp=np)))
def tile(data, *, reps, xp=jnp):
    """Repeat the whole array ``reps`` times per axis (numpy.tile)."""
    if any(r <= 0 for r in reps):
        raise MXNetError('tile: reps %s must be positive for input of shape %s'
                         % (_tuple_str(reps), shape_str(data.shape)))
    return xp.tile(data, reps)


@register('repeat', methods=('repeat',), params=[P('repeats', 'int'), P('axis', 'int', None, optional=True)],
          np=(Np('repeat(a, repeats, axis=None)', method=True),))
def repeat(data, *, repeats, axis):
    """Repeat each element ``repeats`` times along ``axis`` (the flattened array when axis is None)."""
    if repeats < 0:
        raise MXNetError('repeat: repeats cannot be negative, got %d' % repeats)
    if axis is not None:
        axis = norm_axis('repeat', axis, data.ndim)
    if repeats == 0:  # MXNet's shape rule: zero repeats give an empty 1-D array, whatever the axis
        return jnp.zeros((0,), data.dtype)
    if axis is None:
        return jnp.repeat(data.reshape(-1), repeats)
    return jnp.repeat(data, repeats, axis=axis)


def _onnx_pad(g, node):
    a = node.attrs
    widths = a['pad_width']
    inputs = [node.inputs[0], _onnx.ints(g, list(widths[0::2]) + list(widths[1::2]))]
    if a['mode'] == 'constant':
        inputs.append(g.const(a['constant_value'], node.in_dtypes[0]))
    return g.add('Pad', inputs, mode=a['mode'])


@register('Pad', methods=('pad',), aliases=('pad',), onnx=_onnx_pad,
          params=[P('mode', 'str'), P('pad_width', 'shape'), P('constant_value', 'float', 0.0)])
def pad(data, *, mode, pad_width, constant_value):
    """Pad the spatial axes of a 4-D or 5-D array ('constant', 'edge' or 'reflect').

    ``pad_width`` gives (before, after) for every axis; as in MXNet the first two
    axes (batch and channel) cannot be padded.
    """
    if mode not in ('constant', 'edge', 'reflect'):
        raise MXNetError("Pad: invalid mode %r; valid modes are 'constant', 'edge', 'reflect'" % (mode,))
    if data.ndim not in (4, 5):
        raise MXNetError('Pad: only 4-D and 5-D inputs are supported, got shape %s' % shape_str(data.shape))
    if len(pad_width) != 2 * data.ndim:
        raise MXNetError('Pad: pad_width %s must have 2 entries per axis (%d) for input of shape %s'
                         % (_tuple_str(pad_width), 2 * data.ndim, shape_str(data.shape)))
    if any(pad_width[:4]):
        raise MXNetError('Pad: padding of the first two axes must be zero, got pad_width %s' % _tuple_str(pad_width))
    if not jnp.issubdtype(data.dtype, jnp.floating):
        raise MXNetError('Pad: only floating point inputs are supported, got %s' % data.dtype)
    widths = [(pad_width[2 * i], pad_width[2 * i + 1]) for i in range(data.ndim)]
    if mode == 'reflect' and any(max(w) >= d for w, d in zip(widths[2:], data.shape[2:])):
        raise MXNetError('Pad: reflect padding %s must be smaller than the padded axes of shape %s'
                         % (_tuple_str(pad_width), shape_str(data.shape)))
    if mode == 'constant':
        return jnp.pad(data, widths, mode='constant', constant_values=jnp.asarray(constant_value, data.dtype))
    return jnp.pad(data, widths, mode=mode)


@register('reverse', methods=('flip',), aliases=('flip',), params=[P('axis', 'axis')],
          host=moves(lambda data, *, axis: reverse(data, axis=axis, xp=np)))
def reverse(data, *, axis, xp=jnp):
    """Reverse the order of elements along the given axes."""
    axes = [_nonnegative_axis('reverse', a, data.ndim) for a in ((axis,) if isinstance(axis, int) else axis)]
    # MXNet reverses once per listed axis: an axis named twice comes back in order
    return xp.flip(data, tuple(a for a in sorted(set(axes)) if axes.count(a) % 2))


# ---- broadcasting ----------------------------------------------------------------------

def _broadcast_check(name, shape, target):
    if len(shape) != len(target):
        raise MXNetError('%s: operand of shape %s cannot be broadcast to %s (the number of dimensions differs)'
                         % (name, shape_str(shape), shape_str(target)))
    for s, t in zip(shape, target):
        if s != t and s != 1:
            raise MXNetError('%s: array cannot be broadcast from %s to %s'
                             % (name, shape_str(shape), shape_str(target)))


def _onnx_expand(g, node):
    """Expand to the static output shape."""
    return g.add('Expand', [node.inputs[0], _onnx.ints(g, node.out_shapes[0])])


@register('broadcast_to', methods=('broadcast_to',), onnx=_onnx_expand, params=[P('shape', 'shape', ())],
          host=moves(lambda data, *, shape: broadcast_to(data, shape=shape, xp=np)))
def broadcast_to(data, *, shape, xp=jnp):
    """Broadcast axes of size 1 to ``shape``; a 0 in ``shape`` keeps that axis."""
    if len(shape) != data.ndim:
        _broadcast_check('broadcast_to', data.shape, shape)
    target = tuple(d if t == 0 else t for t, d in zip(shape, data.shape))
    _broadcast_check('broadcast_to', data.shape, target)
    return xp.broadcast_to(data, target)


@register('broadcast_like', npx=('broadcast_like',), methods=('broadcast_like',), inputs=('lhs', 'rhs'), onnx=_onnx_expand,
          params=[P('lhs_axes', 'axis', None, optional=True), P('rhs_axes', 'axis', None, optional=True)],
          host=moves(lambda lhs, rhs, **axes: broadcast_like(lhs, rhs, **axes, xp=np)))
def broadcast_like(lhs, rhs, *, lhs_axes, rhs_axes, xp=jnp):
    """Broadcast lhs to the shape of rhs (or only lhs_axes to the sizes of rhs_axes)."""
    if lhs_axes is None and rhs_axes is None:
        _broadcast_check('broadcast_like', lhs.shape, rhs.shape)
        return xp.broadcast_to(lhs, rhs.shape)
    la = (lhs_axes,) if isinstance(lhs_axes, int) else tuple(lhs_axes or ())
    ra = (rhs_axes,) if isinstance(rhs_axes, int) else tuple(rhs_axes or ())
    if len(la) != len(ra):
        raise MXNetError('broadcast_like: lhs_axes %s and rhs_axes %s must have the same length' % (la, ra))
    if not la:
        raise MXNetError('broadcast_like: lhs_axes and rhs_axes are empty; leave both out to broadcast '
                         'to the whole shape of rhs')
    target = list(lhs.shape)
    for a, b in zip(la, ra):
        a = norm_axis('broadcast_like', a, lhs.ndim, 'lhs axis')
        b = norm_axis('broadcast_like', b, rhs.ndim, 'rhs axis')
        if lhs.shape[a] != 1 and lhs.shape[a] != rhs.shape[b]:
            raise MXNetError('broadcast_like: axis %d of lhs %s (size %d) cannot be broadcast to %d'
                             % (a, shape_str(lhs.shape), lhs.shape[a], rhs.shape[b]))
        target[a] = rhs.shape[b]
    return xp.broadcast_to(lhs, tuple(target))


@register('broadcast_axis', aliases=('broadcast_axes',), methods=('broadcast_axes',),
          host=moves(lambda data, *, axis, size: broadcast_axis(data, axis=axis, size=size, xp=np)),
          params=[P('axis', 'shape', ()), P('size', 'shape', ())])
def broadcast_axis(data, *, axis, size, xp=jnp):
    """Broadcast the given axes (each of size 1) to the given sizes."""
    if len(axis) != len(size):
        raise MXNetError('broadcast_axis: axis %s and size %s must have the same length'
                         % (_tuple_str(axis), _tuple_str(size)))
    target = list(data.shape)
    for a, s in zip(axis, size):
        a = _nonnegative_axis('broadcast_axis', a, data.ndim)
        if data.shape[a] != 1:
            raise MXNetError('broadcast_axis: axis %d of shape %s has size %d; only axes of size 1 can be broadcast'
                             % (a, shape_str(data.shape), data.shape[a]))
        target[a] = s
    return xp.broadcast_to(data, tuple(target))


# ---- masks, diagonals, blocks -------------------------------------------------------------

def _sequence_mask_inputs(attrs):
    if attrs is None or attrs.get('use_sequence_length'):
        return ('data', 'sequence_length')
    return ('data',)


def _check_sequence_inputs(name, sequence_length, use_sequence_length):
    """MXNet's input count follows use_sequence_length: a sequence_length given without it is an
    extra input, refused (not ignored)."""
    if sequence_length is not None and not use_sequence_length:
        raise MXNetError('%s: expects 1 input (data) when use_sequence_length is False, but got 2 '
                         '(sequence_length); pass use_sequence_length=True to use it' % name)


@register('SequenceMask', npx=('sequence_mask',), inputs=_sequence_mask_inputs,
          params=[P('use_sequence_length', 'bool', False), P('value', 'float', 0.0), P('axis', 'int', 0)])
def sequence_mask(data, sequence_length=None, *, use_sequence_length, value, axis):
    """Set the steps at or after each sequence's length to ``value``.

    ``axis`` (0 or 1) is the time axis; the other of the first two is the batch,
    and ``sequence_length`` has one (truncated to integer) length per batch entry.
    """
    _check_sequence_inputs('SequenceMask', sequence_length, use_sequence_length)
    if axis not in (0, 1):
        raise MXNetError('SequenceMask: axis must be 0 or 1, got %d' % axis)
    if not use_sequence_length:
        return data
    if sequence_length is None:
        raise MXNetError('SequenceMask: use_sequence_length=True needs the sequence_length input')
    if data.ndim < 2:
        raise MXNetError('SequenceMask: data must have at least 2 dimensions, got shape %s' % shape_str(data.shape))
    batch = data.shape[1 - axis]
    if sequence_length.shape != (batch,):
        raise MXNetError('SequenceMask: sequence_length has shape %s but data %s has batch size %d (axis=%d)'
                         % (shape_str(sequence_length.shape), shape_str(data.shape), batch, axis))
    steps = jnp.arange(data.shape[axis])
    lengths = sequence_length.astype(jnp.int32)
    keep = steps[:, None] < lengths[None, :] if axis == 0 else lengths[:, None] > steps[None, :]
    keep = keep.reshape(keep.shape + (1,) * (data.ndim - 2))
    return jnp.where(keep, data, jnp.asarray(value, data.dtype))


def _sequence_lengths(name, data, sequence_length, axis):
    """The per-batch-entry lengths (integers) of a Sequence* operator, checked against ``data``."""
    if data.ndim < 2:
        raise MXNetError('%s: data must have at least 2 dimensions, got shape %s' % (name, shape_str(data.shape)))
    batch = data.shape[1 - axis]
    if sequence_length.shape != (batch,):
        raise MXNetError('%s: sequence_length has shape %s but data %s has batch size %d (axis=%d)'
                         % (name, shape_str(sequence_length.shape), shape_str(data.shape), batch, axis))
    return sequence_length.astype(jnp.int32)


@register('SequenceLast', inputs=_sequence_mask_inputs,
          params=[P('use_sequence_length', 'bool', False), P('axis', 'int', 0)])
def sequence_last(data, sequence_length=None, *, use_sequence_length, axis):
    """The last step of each sequence along the time ``axis`` (0 or 1): step length-1 of each batch
    entry with ``use_sequence_length``, else the final step; the time axis is removed."""
    _check_sequence_inputs('SequenceLast', sequence_length, use_sequence_length)
    if axis not in (0, 1):
        raise MXNetError('SequenceLast: axis must be 0 or 1, got %d' % axis)
    if not use_sequence_length:
        return jnp.take(data, data.shape[axis] - 1, axis=axis)
    if sequence_length is None:
        raise MXNetError('SequenceLast: use_sequence_length=True needs the sequence_length input')
    last = _sequence_lengths('SequenceLast', data, sequence_length, axis) - 1
    batch = jnp.arange(data.shape[1 - axis])
    return data[last, batch] if axis == 0 else data[batch, last]


@register('SequenceReverse', inputs=_sequence_mask_inputs,
          params=[P('use_sequence_length', 'bool', False), P('axis', 'int', 0)])
def sequence_reverse(data, sequence_length=None, *, use_sequence_length, axis):
    """Reverse each sequence along the time axis 0: its first length steps with
    ``use_sequence_length`` (the padding after them stays in place), else all steps."""
    _check_sequence_inputs('SequenceReverse', sequence_length, use_sequence_length)
    if axis != 0:
        raise MXNetError('SequenceReverse: only axis 0 is supported (as in MXNet), got %d' % axis)
    if not use_sequence_length:
        return jnp.flip(data, 0)
    if sequence_length is None:
        raise MXNetError('SequenceReverse: use_sequence_length=True needs the sequence_length input')
    lengths = _sequence_lengths('SequenceReverse', data, sequence_length, 0)
    steps = jnp.arange(data.shape[0])[:, None]
    source = jnp.where(steps < lengths[None, :], lengths[None, :] - 1 - steps, steps)  # (time, batch)
    return data[source, jnp.arange(data.shape[1])[None, :]]


@register('diag', methods=('diag',), params=[P('k', 'int', 0), P('axis1', 'int', 0), P('axis2', 'int', 1)])
def diag(data, *, k, axis1, axis2):
    """A 1-D input gives a matrix with it on diagonal ``k``; an N-D input gives diagonal ``k``
    of the (axis1, axis2) planes as its last axis."""
    if data.ndim == 0:
        raise MXNetError('diag: the input must have at least one dimension, got shape []')
    if data.ndim == 1:
        return jnp.diag(data, k)
    a1 = norm_axis('diag', axis1, data.ndim, 'axis1')
    a2 = norm_axis('diag', axis2, data.ndim, 'axis2')
    if a1 == a2:
        raise MXNetError('diag: axis1 and axis2 cannot refer to the same axis %d' % a1)
    n1, n2 = data.shape[a1], data.shape[a2]
    if (k > 0 and k >= n2) or (k < 0 and -k >= n1):
        raise MXNetError('diag: diagonal k=%d does not exist in the axes (%d, %d) of shape %s'
                         % (k, a1, a2, shape_str(data.shape)))
    return jnp.diagonal(data, offset=k, axis1=a1, axis2=a2)


def _check_4d(name, data, block_size):
    if data.ndim != 4:
        raise MXNetError('%s: the input must be 4-D (N, C, H, W), got shape %s' % (name, shape_str(data.shape)))
    if block_size <= 0:
        raise MXNetError('%s: block_size must be positive, got %d' % (name, block_size))
    if 0 in data.shape:  # MXNet's shape check refuses empty axes (unknown in its legacy shapes)
        raise MXNetError('%s: the input shape %s has an empty axis' % (name, shape_str(data.shape)))


# MXNet's block order is ONNX's DCR (depth, column, row), for both directions.
@register('depth_to_space', methods=('depth_to_space',),
          onnx=lambda g, node: g.add('DepthToSpace', node.inputs, blocksize=node.attrs['block_size'], mode='DCR'),
          params=[P('block_size', 'int')])
def depth_to_space(data, *, block_size):
    """(N, C, H, W) -> (N, C/b^2, H*b, W*b): blocks of channels become b x b spatial blocks."""
    _check_4d('depth_to_space', data, block_size)
    n, c, h, w = data.shape
    b = block_size
    if c % (b * b):
        raise MXNetError('depth_to_space: the channel axis of shape %s must be a multiple of block_size^2 = %d'
                         % (shape_str(data.shape), b * b))
    x = data.reshape(n, b, b, c // (b * b), h, w)
    return jnp.transpose(x, (0, 3, 4, 1, 5, 2)).reshape(n, c // (b * b), h * b, w * b)


@register('space_to_depth', methods=('space_to_depth',),
          onnx=lambda g, node: g.add('SpaceToDepth', node.inputs, blocksize=node.attrs['block_size']), params=[P('block_size', 'int')])
def space_to_depth(data, *, block_size):
    """(N, C, H, W) -> (N, C*b^2, H/b, W/b): the inverse of depth_to_space."""
    _check_4d('space_to_depth', data, block_size)
    n, c, h, w = data.shape
    b = block_size
    if h % b or w % b:
        raise MXNetError('space_to_depth: the spatial axes of shape %s must be multiples of block_size %d'
                         % (shape_str(data.shape), b))
    x = data.reshape(n, c, h // b, b, w // b, b)
    return jnp.transpose(x, (0, 3, 5, 1, 2, 4)).reshape(n, c * b * b, h // b, w // b)


def _split_v2_outputs(attrs):
    return attrs['sections'] if attrs['sections'] > 0 else len(attrs['indices'])


@register('_split_v2', num_outputs=_split_v2_outputs,
          params=[P('indices', 'shape', ()), P('axis', 'int', 0), P('squeeze_axis', 'bool', False),
                  P('sections', 'int', 0)])
def split_v2(data, *, indices, axis, squeeze_axis, sections):
    """Split along ``axis`` into ``sections`` equal parts, or at the start ``indices`` (the first
    being 0, as mx.nd.split_v2 passes them); ``squeeze_axis`` drops the axis from parts of size 1."""
    ax = norm_axis('split_v2', axis, data.ndim)
    size = data.shape[ax]
    if sections > 0:
        if size % sections:
            raise MXNetError('split_v2: axis %d of shape %s (size %d) does not split into %d equal sections'
                             % (ax, shape_str(data.shape), size, sections))
        starts = tuple(range(0, size, size // sections))
    else:
        starts = tuple(indices)
        if not starts or any(b < a for a, b in zip(starts, starts[1:])) or starts[-1] > size:
            raise MXNetError('split_v2: indices %s must be ascending starts within axis %d of shape %s'
                             % (indices, ax, shape_str(data.shape)))
    ends = starts[1:] + (size,)
    parts = [lax.slice_in_dim(data, a, b, axis=ax) for a, b in zip(starts, ends)]
    if squeeze_axis:
        parts = [jnp.squeeze(p, ax) if p.shape[ax] == 1 else p for p in parts]
    return tuple(parts)


@register('Crop', variadic=True, params=[P('num_args', 'int'), P('offset', 'shape', (0, 0)),
                                         P('h_w', 'shape', (0, 0)), P('center_crop', 'bool', False)])
def crop(*data, num_args, offset, h_w, center_crop):
    """MXNet's legacy 2-D Crop (FCN's): a (N, C, H, W) window of ``data[0]`` of the spatial size of
    ``data[1]`` (num_args=2) or ``h_w``, at ``offset`` (y, x) from the top left or in the centre."""
    op = 'Crop'
    if len(data) != num_args or num_args not in (1, 2):
        raise MXNetError('%s: num_args must be 1 or 2 and match the inputs, got num_args=%d with %d inputs'
                         % (op, num_args, len(data)))
    x = data[0]
    if x.ndim != 4 or (num_args == 2 and data[1].ndim != 4):
        raise MXNetError('%s: the inputs must be 4-D (N, C, H, W), got %s'
                         % (op, ', '.join(shape_str(d.shape) for d in data)))
    h, w = data[1].shape[2:] if num_args == 2 else tuple(h_w)
    height, width = x.shape[2:]
    if not (0 < h <= height and 0 < w <= width):
        raise MXNetError('%s: the crop (%d, %d) must fit in the data %s' % (op, h, w, shape_str(x.shape)))
    top, left = ((height - h) // 2, (width - w) // 2) if center_crop else tuple(offset)
    if not (0 <= top <= height - h and 0 <= left <= width - w):
        raise MXNetError('%s: offset (%d, %d) puts the (%d, %d) crop outside the data %s'
                         % (op, top, left, h, w, shape_str(x.shape)))
    return x[:, :, top:top + h, left:left + w]
