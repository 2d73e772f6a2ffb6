"""Indexing operators: take, pick, one_hot, topk, sort, argsort, gather_nd, scatter_nd.

MXNet indices are usually float arrays; they are truncated toward zero before
use, as MXNet's kernels cast them. Index outputs (topk, argsort) are float32 by
default, as in MXNet, with a ``dtype`` parameter to choose another type.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..base import DeferredError, MXNetError, shape_str
from . import _onnx
from ._host import Fallback, int_exact, moves
from ._registry import Np, P, along_axes, register
from .shape import norm_axis


def _as_index(indices):
    """Integer indices from MXNet's (usually float) index arrays, truncating toward zero."""
    if jnp.issubdtype(indices.dtype, jnp.integer):
        return indices
    return indices.astype(jnp.int64 if indices.dtype == jnp.float64 else jnp.int32)


def _fix_indices(name, idx, size, mode, xp=jnp, out_avals=()):
    """Indices brought into [0, size): clipped, wrapped, or checked when mode is 'raise'. With
    NumPy (``xp``, a host form) the check runs at once, else in a callback of the compiled kernel."""
    if mode == 'wrap':
        return xp.mod(idx, size)
    if mode == 'raise':
        def check(values):  # MXNet checks as the operator runs: reported at the next wait on its output
            values = np.asarray(values)
            bad = values[(values < 0) | (values >= size)]
            if bad.size:
                raise DeferredError('%s: index %d is out of bounds for an axis of size %d' % (name, bad[0], size),
                                    list(out_avals))
        if xp is np:
            check(idx)
        else:
            jax.debug.callback(check, idx)
    return xp.clip(idx, 0, size - 1)


def _onnx_take(g, node):
    """Gather at the indices (truncated to integers) clipped or wrapped as ``mode`` says."""
    a, shape = node.attrs, node.in_shapes[0]
    axis = a['axis'] % len(shape)
    n = shape[axis]
    idx = _onnx.cast(g, node.inputs[1], node.in_dtypes[1], 'int64')
    if a['mode'] == 'clip':
        idx = g.add('Clip', [idx, g.const(0, 'int64'), g.const(n - 1, 'int64')])
    elif a['mode'] == 'wrap':
        idx = g.add('Mod', [idx, g.const(n, 'int64')])
    return g.add('Gather', [node.inputs[0], idx], axis=axis)


def _onnx_one_hot(g, node):
    """OneHot on the last axis; a negative index gives a row of off_value, as MXNet (ONNX would
    count it from the end)."""
    a = node.attrs
    idx = _onnx.cast(g, node.inputs[0], node.in_dtypes[0], 'int64')
    depth = g.const(a['depth'], 'int64')
    idx = g.add('Where', [g.add('Less', [idx, g.const(0, 'int64')]), depth, idx])
    values = g.const([a['off_value'], a['on_value']], a['dtype'])
    return g.add('OneHot', [idx, depth, values], axis=-1)


def _host_take(a, indices, *, axis, mode):
    """take on the host: float indices truncated as the compiled kernel converts them (those
    that are not finite or do not fit in int32 stay compiled: XLA converts them its own way)."""
    if indices.dtype.kind == 'f' and not (np.isfinite(indices).all() and (np.abs(indices) < 2 ** 31).all()):
        raise Fallback
    return take(a, indices, axis=axis, mode=mode, xp=np)


@register('take', methods=('take',), inputs=('a', 'indices'), onnx=_onnx_take,
          params=[P('axis', 'int', 0), P('mode', 'str', 'clip')], host=moves(_host_take, mixed_dtypes=True, moved=(0,)))
def take(a, indices, *, axis, mode, xp=jnp):
    """Slices of ``a`` along ``axis`` at ``indices``: shape a.shape[:axis] + indices.shape + a.shape[axis+1:].

    mode 'clip' clamps out-of-range indices, 'wrap' wraps them around, 'raise' raises an error.
    """
    if mode not in ('clip', 'wrap', 'raise'):
        raise MXNetError("take: mode must be 'clip', 'wrap' or 'raise', got %r" % (mode,))
    ax = norm_axis('take', axis, a.ndim)
    out_shape = a.shape[:ax] + indices.shape + a.shape[ax + 1:]
    if a.shape[ax] == 0 and xp is np:
        raise Fallback  # nothing to take from: the compiled kernel's own result
    idx = _fix_indices('take', _as_index(indices), a.shape[ax], mode, xp, [(out_shape, a.dtype)])
    return xp.take(a, idx, axis=ax)


def _selected_count(attrs, data, index):
    """boolean_mask's output length along the axis: the nonzero entries of ``index``."""
    return {'_selected': int(np.count_nonzero(index))}


@register('_contrib_boolean_mask', inputs=('data', 'index'), params=[P('axis', 'int', 0)],
          value_attrs=_selected_count)
def boolean_mask(data, index, *, axis, _selected=None):
    """The slices of ``data`` along ``axis`` where the 1-D ``index`` is nonzero, in order; the
    gradient flows back to those slices. The output's length depends on the index values, so the
    operator runs on NDArrays only."""
    ax = norm_axis('boolean_mask', axis, data.ndim)
    if ax != 0:  # MXNet's kernel selects rows only
        raise MXNetError('boolean_mask: only axis 0 is supported (as in MXNet), got axis %d' % axis)
    if index.ndim != 1 or index.shape[0] != data.shape[ax]:
        raise MXNetError('boolean_mask: index must be 1-D with the %d entries of data%s along axis %d, got %s'
                         % (data.shape[ax], shape_str(data.shape), ax, shape_str(index.shape)))
    if _selected is None:
        raise MXNetError('boolean_mask: its output shape depends on the values of index, which a symbol '
                         'or a hybridized block does not know; call mx.nd.contrib.boolean_mask on NDArrays')
    rows = jnp.nonzero(index, size=_selected)[0]
    return jnp.take(data, rows, axis=ax)


@register('batch_take', inputs=('a', 'indices'), gradient=False)
def batch_take(a, indices):
    """out[i] = a[i, indices[i]] for a 2-D ``a`` (indices are clipped)."""
    if a.ndim != 2 or indices.shape != (a.shape[0],):
        raise MXNetError('batch_take: needs a 2-D a and 1-D indices of its length, got %s and %s'
                         % (shape_str(a.shape), shape_str(indices.shape)))
    if indices.dtype != jnp.int32:  # MXNet's type rule: indices are int32, nothing else
        raise MXNetError('batch_take: indices must be int32, got %s' % indices.dtype)
    idx = jnp.clip(_as_index(indices), 0, a.shape[1] - 1)
    return jnp.take_along_axis(a, idx[:, None], axis=1)[:, 0]


def _pick_along(attrs, ndims):
    """``OpDef.along`` of pick: every axis but the picked one; the index's own axes all."""
    if attrs['axis'] is None:  # the flattened data: no axis keeps its positions
        return [frozenset(), frozenset()]
    data_ndim, index_ndim = ndims
    other = frozenset(x for x in range(data_ndim) if x != attrs['axis'] % data_ndim)
    return [other, other if attrs['keepdims'] else frozenset(range(index_ndim))]


@register('pick', npx=('pick',), methods=('pick',), inputs=('data', 'index'), aliases=('choose_element_0index',),
          along=lambda a, ndims: _pick_along(a, ndims),
          params=[P('axis', 'int', -1, optional=True), P('keepdims', 'bool', False), P('mode', 'str', 'clip')])
def pick(data, index, *, axis, keepdims, mode):
    """One element per position along ``axis``: out[i, j] = data[i, index[i, j], j] for axis=1."""
    if axis is None:
        raise MXNetError('pick: axis=None is not supported; give the axis to pick along')
    if mode not in ('clip', 'wrap'):
        raise MXNetError("pick: mode must be 'clip' or 'wrap', got %r" % (mode,))
    ax = norm_axis('pick', axis, data.ndim)
    reduced = data.shape[:ax] + data.shape[ax + 1:]
    kept = data.shape[:ax] + (1,) + data.shape[ax + 1:]
    if index.shape not in (reduced, kept):
        raise MXNetError('pick: index of shape %s does not match data of shape %s along axis %d (expected %s)'
                         % (shape_str(index.shape), shape_str(data.shape), ax, shape_str(reduced)))
    idx = _fix_indices('pick', _as_index(index), data.shape[ax], mode).reshape(kept)
    out = jnp.take_along_axis(data, idx, axis=ax)
    return out if keepdims else jnp.squeeze(out, ax)


@register('fill_element_0index', inputs=('lhs', 'mhs', 'rhs'))
def fill_element_0index(lhs, mhs, rhs):
    """``lhs`` (2-d) with one element per row replaced: out[i, rhs[i]] = mhs[i]."""
    if lhs.ndim != 2 or mhs.shape != lhs.shape[:1] or rhs.shape != lhs.shape[:1]:
        raise MXNetError('fill_element_0index: needs lhs of 2 dimensions and mhs, rhs of shape (%s,), '
                         'got lhs %s, mhs %s, rhs %s' % (lhs.shape[0] if lhs.ndim else '?', shape_str(lhs.shape),
                                                          shape_str(mhs.shape), shape_str(rhs.shape)))
    rows = jnp.arange(lhs.shape[0])
    return lhs.at[rows, _as_index(rhs)].set(mhs.astype(lhs.dtype))


@register('one_hot', npx=('one_hot',), methods=('one_hot',), inputs=('indices',), onnx=_onnx_one_hot,
          params=[P('depth', 'int'), P('on_value', 'float', 1.0), P('off_value', 'float', 0.0),
                  P('dtype', 'dtype', 'float32')])
def one_hot(indices, *, depth, on_value, off_value, dtype):
    """A new last axis of length ``depth``: on_value at each index, off_value elsewhere (and for
    out-of-range indices)."""
    if depth < 0:
        raise MXNetError('one_hot: depth must be a non-negative integer, got %d' % depth)
    if np.dtype(dtype) == np.bool_:  # not among the dtypes MXNet's one_hot accepts
        raise MXNetError("one_hot: dtype 'bool' is not supported")
    idx = _as_index(indices)
    hot = idx[..., None] == jnp.arange(depth, dtype=idx.dtype)
    return jnp.where(hot, jnp.asarray(on_value, dtype), jnp.asarray(off_value, dtype))


# ---- sorting ---------------------------------------------------------------------------

def _sort_axis(name, data, axis):
    """(array, axis) to sort along; axis None sorts the flattened array."""
    if axis is None:
        return data.reshape(-1), 0
    if not -data.ndim <= axis < data.ndim:
        raise MXNetError('%s: axis %d is out of range for an array of shape %s'
                         % (name, axis, shape_str(data.shape)))
    return data, axis % data.ndim


def _refuse_float16(name, data):
    """MXNet's sort and argsort have no float16 kernel (topk has): their type check refuses it."""
    if data.dtype == jnp.float16:
        raise MXNetError('%s: this operation does not support float16 input' % name)


def _argsort(x, axis, ascend):
    """Stable argsort; ties keep their original order in either direction, as in MXNet."""
    return jnp.argsort(x, axis=axis, stable=True, descending=not ascend)


def _top_indices(x, axis, k, ascend):
    """Indices of the k largest (smallest) entries along ``axis``, ties by lower index first."""
    if jnp.issubdtype(x.dtype, jnp.floating) or (not ascend and jnp.issubdtype(x.dtype, jnp.integer)):
        last = jnp.moveaxis(x, axis, -1)
        _, idx = lax.top_k(-last if ascend else last, k)
        return jnp.moveaxis(idx, -1, axis)
    return lax.slice_in_dim(_argsort(x, axis, ascend), 0, k, axis=axis)


def _topk_outputs(attrs):
    return 2 if attrs['ret_typ'] == 'both' else 1


def _topk_dtypes(attrs, dtypes):
    # the indices take the dtype parameter (known even while the data's is not); values and masks keep the data's
    index = attrs['dtype'] if attrs['ret_typ'] == 'indices' else dtypes[0]
    return (dtypes[0], attrs['dtype']) if attrs['ret_typ'] == 'both' else (index,)


@register('topk', npx=('topk',), methods=('topk',), num_outputs=_topk_outputs, out_dtypes=_topk_dtypes,
          params=[P('axis', 'int', -1, optional=True), P('k', 'int', 1), P('ret_typ', 'str', 'indices'),
                  P('is_ascend', 'bool', False), P('dtype', 'dtype', 'float32')])
def topk(data, *, axis, k, ret_typ, is_ascend, dtype):
    """The k largest (or smallest, is_ascend) entries along ``axis``.

    ret_typ 'indices' (default; as ``dtype``, float32 unless told), 'value',
    'both' ([values, indices]) or 'mask' (1 where an entry is among the top k).
    k < 1 selects the whole axis; axis None works on the flattened array.
    """
    if ret_typ not in ('value', 'indices', 'mask', 'both'):
        raise MXNetError("topk: ret_typ must be 'value', 'indices', 'mask' or 'both', got %r" % (ret_typ,))
    x, ax = _sort_axis('topk', data, axis)
    n = x.shape[ax]
    if k > n:
        raise MXNetError('topk: k=%d is larger than the %d elements along axis %s of shape %s'
                         % (k, n, axis, shape_str(data.shape)))
    k = n if k < 1 else k
    idx = _top_indices(x, ax, k, is_ascend)
    if ret_typ == 'mask':
        mask = jnp.zeros(x.shape, data.dtype)
        mask = jnp.put_along_axis(mask, idx, jnp.ones((), data.dtype), axis=ax, inplace=False)
        return mask.reshape(data.shape)
    if ret_typ == 'indices':
        return idx.astype(dtype)
    values = jnp.take_along_axis(x, idx, axis=ax)
    if ret_typ == 'value':
        return values
    return values, idx.astype(dtype)


def _host_sort(data, *, axis, is_ascend):
    """An ascending sort in NumPy, where its order is XLA's stable one: floats without NaN, zeros
    (equal in both signs) or subnormals (which XLA's CPU comparisons read as zero)."""
    if not is_ascend or (data.dtype.kind == 'f' and (
            np.isnan(data).any() or (np.abs(data) < np.finfo(data.dtype).tiny).any())):
        raise Fallback('sort')
    _refuse_float16('sort', data)
    x, ax = _sort_axis('sort', data, axis)
    return np.sort(x, axis=ax, kind='stable')


@register('sort', mxnet_outputs=2, output_names=('output0',), methods=('sort',), params=[P('axis', 'int', -1, optional=True), P('is_ascend', 'bool', True)],
          # np.ndarray.sort sorts in place, as NumPy's (numpy/multiarray.py): not this entry's method
          np=(Np('sort(a, axis=-1, kind=None, order=None)', ignored=('kind',), unsupported=('order',)),),
          host=int_exact(_host_sort))
def sort(data, *, axis, is_ascend):
    """The values sorted along ``axis`` (the flattened array when axis is None)."""
    _refuse_float16('sort', data)
    x, ax = _sort_axis('sort', data, axis)
    return jnp.sort(x, axis=ax, descending=not is_ascend)


@register('argsort', methods=('argsort',),
          np=(Np('argsort(a, axis=-1, kind=None, order=None)', method=True, fixed={'dtype': 'int64'},
                 ignored=('kind',), unsupported=('order',)),),
          params=[P('axis', 'int', -1, optional=True), P('is_ascend', 'bool', True), P('dtype', 'dtype', 'float32')])
def argsort(data, *, axis, is_ascend, dtype):
    """Indices that sort ``data`` along ``axis``, as ``dtype`` (float32 by default, as in MXNet)."""
    _refuse_float16('argsort', data)
    x, ax = _sort_axis('argsort', data, axis)
    return _argsort(x, ax, is_ascend).astype(dtype)


# ---- N-d gather and scatter ----------------------------------------------------------------

def _nd_index(name, indices, shape, what, check_bounds=False):
    """The index tuple of gather_nd-like operators; negative indices count from the end. With
    ``check_bounds`` one outside [-size, size) raises IndexError, as MXNet's CPU gather_nd does."""
    if indices.ndim < 1 or indices.shape[0] > len(shape):
        raise MXNetError('%s: indices of shape %s index %d axes, more than the %d axes of %s %s'
                         % (name, shape_str(indices.shape), indices.shape[0] if indices.ndim else 0,
                            len(shape), what, shape_str(shape)))
    idx = _as_index(indices)
    if check_bounds:
        sizes = np.asarray(shape[:indices.shape[0]]).reshape((-1,) + (1,) * (indices.ndim - 1))

        def check(values):
            bad = np.argwhere((values < -sizes) | (values >= sizes))
            if bad.size:
                axis = bad[0][0]
                raise IndexError('%s: index %d is out of bounds for axis %d with size %d'
                                 % (name, values[tuple(bad[0])], axis, shape[axis]))
        jax.debug.callback(check, idx)
    return tuple(idx[i] for i in range(indices.shape[0]))


@register('gather_nd', npx=('gather_nd',), inputs=('data', 'indices'))
def gather_nd(data, indices):
    """out[i...] = data[indices[0, i...], ..., indices[M-1, i...]]: shape indices.shape[1:] + data.shape[M:]."""
    return data[_nd_index('gather_nd', indices, data.shape, 'data', check_bounds=True)]


@register('scatter_nd', npx=('scatter_nd',), inputs=('data', 'indices'), params=[P('shape', 'shape')])
def scatter_nd(data, indices, *, shape):
    """The inverse of gather_nd: an array of ``shape``, zero except where ``indices`` place ``data``."""
    return jnp.zeros(shape, data.dtype).at[_scatter_index('scatter_nd', data, indices, shape)].set(data)


@register('_backward_gather_nd', inputs=('data', 'indices'), params=[P('shape', 'shape')])
def backward_gather_nd(data, indices, *, shape):
    """gather_nd's gradient: scatter_nd that adds the values of repeated indices instead of
    keeping one of them."""
    return jnp.zeros(shape, data.dtype).at[_scatter_index('_backward_gather_nd', data, indices, shape)].add(data)


def _scatter_index(name, data, indices, shape):
    """The index an output of ``shape`` is written at by scatter_nd-like operator ``name``,
    after checking that ``data`` fits ``indices`` and ``shape``."""
    index = _nd_index(name, indices, shape, 'output')
    expected = tuple(indices.shape[1:]) + tuple(shape[indices.shape[0]:])
    if data.shape != expected:
        raise MXNetError('%s: data of shape %s does not match indices %s and shape %s (expected %s)'
                         % (name, shape_str(data.shape), shape_str(indices.shape), shape_str(shape),
                            shape_str(expected)))
    return index


def _ravel_strides(name, shape):
    """Row-major strides of ``shape``; its leading size may be -1 (unknown: not needed)."""
    if any(d <= 0 for d in shape[1:]) or shape[0] == 0 or shape[0] < -1:
        raise MXNetError('%s: shape %s must be positive (the first entry may be -1)' % (name, shape_str(shape)))
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


@register('_ravel_multi_index', aliases=('ravel_multi_index',), params=[P('shape', 'shape')])
def ravel_multi_index(data, *, shape):
    """Flat indices into an array of ``shape`` of the multi-indices in the columns of ``data``
    (shape (len(shape), N)), in ``data``'s dtype."""
    if data.ndim < 1 or data.shape[0] != len(shape):
        raise MXNetError('_ravel_multi_index: data of shape %s needs %d rows, one per entry of shape %s'
                         % (shape_str(data.shape), len(shape), shape_str(shape)))
    strides = _ravel_strides('_ravel_multi_index', shape)
    index = _as_index(data).astype(jnp.int64)
    flat = sum(index[i] * strides[i] for i in range(len(shape)))
    return flat.astype(data.dtype)


@register('_unravel_index', aliases=('unravel_index',), params=[P('shape', 'shape')])
def unravel_index(data, *, shape):
    """The multi-indices (one row per entry of ``shape``) of the flat indices ``data``: the
    inverse of ravel_multi_index, in ``data``'s dtype."""
    strides = _ravel_strides('_unravel_index', shape)
    flat = _as_index(data).astype(jnp.int64)
    rows = [flat // strides[0] if shape[0] == -1 else (flat // strides[0]) % shape[0]]
    rows += [(flat // strides[i]) % shape[i] for i in range(1, len(shape))]
    return jnp.stack(rows).astype(data.dtype)


@register('_contrib_index_array', params=[P('axes', 'shape', None, optional=True)])
def index_array(data, *, axes):
    """The index of every element of ``data``: int64 of shape data.shape + (len(axes),), whose
    last axis holds the element's position along each of ``axes`` (every axis by default)."""
    axes = tuple(range(data.ndim)) if axes is None else tuple(norm_axis('index_array', a, data.ndim, 'axes')
                                                                for a in axes)
    positions = [lax.broadcasted_iota(jnp.int64, data.shape, a) for a in axes]
    if not positions:  # no axis to index (a 0-d array, or axes=()): an empty last axis
        return jnp.zeros(data.shape + (0,), jnp.int64)
    return jnp.stack(positions, axis=-1)


@register('_contrib_index_copy', inputs=('old_tensor', 'index_vector', 'new_tensor'))
def index_copy(old_tensor, index_vector, new_tensor):
    """A copy of ``old_tensor`` whose rows ``index_vector[i]`` (first axis) are ``new_tensor[i]``."""
    if (index_vector.ndim != 1 or new_tensor.shape[1:] != old_tensor.shape[1:] or new_tensor.ndim < 1
            or new_tensor.shape[0] != index_vector.shape[0]):
        raise MXNetError('index_copy: new_tensor %s must be (len(index_vector), *old_tensor.shape[1:]) with '
                         'old_tensor %s and a 1-D index_vector %s' % (shape_str(new_tensor.shape),
                                                                      shape_str(old_tensor.shape),
                                                                      shape_str(index_vector.shape)))
    if new_tensor.dtype != old_tensor.dtype:  # MXNet's kernel reads both as one type and refuses others
        raise MXNetError('index_copy: new_tensor (%s) must have the dtype of old_tensor (%s)'
                         % (new_tensor.dtype, old_tensor.dtype))
    rows = _as_index(index_vector)
    return old_tensor.at[rows].set(new_tensor)


def _mask_assign(name, data, mask, value, start_axis):
    """``data`` with the positions ``mask`` selects (its axes from ``start_axis`` on) set to
    ``value``: one value broadcast over them (a value of size 1 along the masked axis), or one
    entry per selected position in order (NumPy's ``a[mask] = v``)."""
    lead, trail = data.shape[:start_axis], data.shape[start_axis + mask.ndim:]
    if data.shape[start_axis:start_axis + mask.ndim] != mask.shape:
        raise MXNetError('%s: mask of shape %s does not match data of shape %s from axis %d'
                         % (name, shape_str(mask.shape), shape_str(data.shape), start_axis))
    selected = (mask != 0).reshape(-1)
    rows = data.reshape(lead + (selected.size,) + trail)
    value = jnp.asarray(value, data.dtype)
    if value.ndim == len(lead) + 1 + len(trail) and value.shape[start_axis] != 1:
        # one entry per selected position: the k-th selected one takes entry k
        value = jnp.take(value, jnp.maximum(jnp.cumsum(selected) - 1, 0), axis=start_axis, mode='clip')
    else:
        try:
            value = jnp.broadcast_to(value, lead + (1,) + trail)
        except ValueError:
            raise MXNetError('%s: value of shape %s does not broadcast to the selected entries of data %s'
                             % (name, shape_str(value.shape), shape_str(data.shape))) from None
    where = selected.reshape((1,) * len(lead) + (-1,) + (1,) * len(trail))
    return jnp.where(where, value, rows).reshape(data.shape)


@register('_npi_boolean_mask_assign_scalar', inputs=('data', 'mask'),
          params=[P('value', 'float'), P('start_axis', 'int', 0)], dynamic_params=('value',))
def np_boolean_mask_assign_scalar(data, mask, *, value, start_axis):
    """NumPy's ``data[mask] = value`` for a number (the mask over the axes from ``start_axis``)."""
    return _mask_assign('_npi_boolean_mask_assign_scalar', data, mask, value, start_axis)


@register('_npi_boolean_mask_assign_tensor', inputs=('data', 'mask', 'value'), params=[P('start_axis', 'int', 0)])
def np_boolean_mask_assign_tensor(data, mask, value, *, start_axis):
    """NumPy's ``data[mask] = value`` for an array (the mask over the axes from ``start_axis``)."""
    return _mask_assign('_npi_boolean_mask_assign_tensor', data, mask, value, start_axis)
