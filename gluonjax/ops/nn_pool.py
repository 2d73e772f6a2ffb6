"""Pooling: max, average, sum and Lp pooling over 1-3 spatial axes, with MXNet's conventions."""
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..base import DeferredError, MXNetError, shape_str
from ._registry import P, Plot, along_axes, plot_dims, register
from .nn_util import layout_of, spatial, float_only

__all__ = ['pool_out_size']

_POOL_TYPES = ('max', 'avg', 'sum', 'lp')
_CONVENTIONS = ('valid', 'full', 'same')


def pool_out_size(size, k, s, p, convention):
    """Output length along one axis: floor ('valid'), ceil ('full') or ceil(size/stride) ('same')."""
    if convention == 'valid':
        return 1 + (size + 2 * p - k) // s
    if convention == 'full':
        return 1 + int(math.ceil((size + 2 * p - k) / s))
    return int(math.ceil((size + 2 * p) / s))


def _window_counts(size, k, s, p, n_out, include_pad):
    """How many elements each window along one axis averages over.

    With ``include_pad`` the padding counts but not the extra tail 'full' adds; without it
    only real elements count (never fewer than one).
    """
    lo, hi = (-p, size + p) if include_pad else (0, size)
    start = np.arange(n_out) * s - p
    end = start + k
    return np.maximum(np.minimum(end, hi) - np.maximum(start, lo), 1)


def _lowest(dtype):
    # A numpy constant (not a traced value) lets jax recognise the differentiable max-window reduction.
    if jnp.issubdtype(dtype, jnp.floating):
        return np.array(-np.inf, dtype)
    return np.array(jnp.iinfo(dtype).min, dtype)


def _tiles(data, spatial_axes, kernel, out):
    """``data`` cut to its whole windows, each spatial axis split into (windows, kernel): the
    windows of a pooling whose stride is its kernel, without padding, tile the input."""
    limit = list(data.shape)
    shape = []
    for ax, size in enumerate(data.shape):
        if ax in spatial_axes:
            i = spatial_axes.index(ax)
            limit[ax] = out[i] * kernel[i]
            shape += [out[i], kernel[i]]
        else:
            shape.append(size)
    if limit != list(data.shape):
        data = lax.slice(data, [0] * data.ndim, limit)
    return data.reshape(shape)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _tile_max(tiles, axes):
    """The largest element of each window of :func:`_tiles` (its window axes are ``axes``).

    Its derivative gathers the tangent of each window's first largest element (MXNet's choice
    among ties, as argmax picks it); transposed, a scatter of the gradient to that element. XLA:CPU
    runs the general form's derivative, select-and-scatter, as a reduce-window tracking an index
    per window axis plus a scatter: LeNet's first pooling, forward and backward on one core, 7.5 ms
    that way, 1.7 ms this way."""
    return jnp.max(tiles, axis=axes)


@_tile_max.defjvp
def _tile_max_jvp(axes, primals, tangents):
    (tiles,), (t,) = primals, tangents
    keep = [a for a in range(tiles.ndim) if a not in axes]
    out_shape = tuple(tiles.shape[a] for a in keep)
    k = math.prod(tiles.shape[a] for a in axes)

    def rows(a):  # one row per window, its elements in row-major order
        return jnp.transpose(a, keep + list(axes)).reshape(-1, k)
    first = jnp.argmax(rows(tiles), axis=1)[:, None]
    # gathered by (row, offset) pairs, not one index per axis; the max itself stays a reduction,
    # as a gather it would be recomputed by each consumer fused with it (the next convolution's
    # stacked slices)
    picked = jnp.take_along_axis(rows(t), first, axis=1, mode='clip')
    return jnp.max(tiles, axis=axes), picked.reshape(out_shape)


def _global_pool(data, lay, pool_type, p_value):
    axes = lay.spatial
    if pool_type == 'max':
        return jnp.max(data, axis=axes, keepdims=True)
    if pool_type == 'sum':
        return jnp.sum(data, axis=axes, keepdims=True, dtype=data.dtype)
    if pool_type == 'avg':
        return jnp.mean(data, axis=axes, keepdims=True, dtype=data.dtype)
    return _lp_root(jnp.sum(data ** p_value, axis=axes, keepdims=True), p_value)


def _lp_root(s, p):
    """The signed p-th root MXNet's Lp pooling takes of sum(x**p)."""
    if p == 1:
        return s
    if p == 2:
        return jnp.sqrt(s)
    return jnp.sign(s) * jnp.abs(s) ** (1.0 / p)


def _mxnet_pooling_outputs(attrs):
    # MXNet's pip builds (MKL-DNN) keep a workspace output for max pooling in channel-first layouts.
    pool_type = attrs.get('pool_type', 'max')
    layout = attrs.get('layout', 'None')
    return 2 if pool_type == 'max' and layout in ('None', 'NCW', 'NCHW', 'NCDHW') else 1


def _pool_label(a):
    return 'Pooling\n%s, %s/%s' % (a['pool_type'], plot_dims(a, 'kernel', '[]'), plot_dims(a, 'stride', '1'))


def _onnx_global_pool(g, node):
    a, x = node.attrs, node.inputs[0]
    if a['pool_type'] == 'max':
        return g.add('GlobalMaxPool', [x])
    if a['pool_type'] == 'lp':
        return g.add('GlobalLpPool', [x], p=a['p_value'])
    out = g.add('GlobalAveragePool', [x])
    if a['pool_type'] == 'sum':
        count = int(np.prod(node.in_shapes[0][2:]))
        out = g.add('Mul', [out, g.const(count, node.in_dtypes[0])])
    return out


def _onnx_pooling(g, node):
    """MaxPool / AveragePool / LpPool; MXNet's 'full' convention is ONNX's ceil_mode."""
    a, x = node.attrs, node.inputs[0]
    if a['layout'] not in (None, 'NCW', 'NCHW', 'NCDHW'):
        raise g.unsupported(node, 'layout %s (ONNX pools channel-first data)' % a['layout'])
    if a['pool_type'] == 'lp' and a['p_value'] != 2:
        raise g.unsupported(node, 'Lp pooling with p_value %s (ONNX takes |x|**p; the same only for 2)' % a['p_value'])
    if a['global_pool']:
        return _onnx_global_pool(g, node)
    if a['pooling_convention'] == 'same':
        raise g.unsupported(node, "pooling_convention 'same'")
    n = len(a['kernel'])
    window = dict(kernel_shape=list(a['kernel']), strides=list(spatial('Pooling', 'stride', a['stride'], n, 1)),
                  pads=list(spatial('Pooling', 'pad', a['pad'], n, 0)) * 2)
    if a['pool_type'] == 'max':
        return g.add('MaxPool', [x], ceil_mode=int(a['pooling_convention'] == 'full'), **window)
    if a['pool_type'] == 'lp':
        return g.add('LpPool', [x], p=2, **window)
    if a['pool_type'] == 'sum' and a['pooling_convention'] == 'full':
        raise g.unsupported(node, "sum pooling with pooling_convention 'full'")
    include_pad = a['pool_type'] == 'sum' or a['count_include_pad'] in (None, True)
    out = g.add('AveragePool', [x], ceil_mode=int(a['pooling_convention'] == 'full'),
                count_include_pad=int(include_pad), **window)
    if a['pool_type'] == 'sum':
        out = g.add('Mul', [out, g.const(int(np.prod(a['kernel'])), node.in_dtypes[0])])
    return out


@register('Pooling', onnx=_onnx_pooling, along=along_axes(lambda a, ndim: (0,)), mxnet_outputs=_mxnet_pooling_outputs, plot=Plot('pool', _pool_label), npx=('pooling',),
          params=[P('kernel', 'shape', ()), P('pool_type', 'str', 'max'), P('global_pool', 'bool', False),
                  P('cudnn_off', 'bool', False), P('pooling_convention', 'str', 'valid'),
                  P('stride', 'shape', ()), P('pad', 'shape', ()), P('p_value', 'int', None, optional=True),
                  P('count_include_pad', 'bool', None, optional=True), P('layout', 'str', None, optional=True)])
def pooling(data, *, kernel, pool_type, global_pool, cudnn_off, pooling_convention, stride, pad, p_value,
            count_include_pad, layout):
    """Pool windows of ``kernel`` over the spatial axes (1-D, 2-D or 3-D).

    Output length per axis: 1 + floor((x + 2*pad - kernel) / stride) for 'valid',
    with ceil for 'full' (the last window may run past the padding). Averages count
    the padding unless ``count_include_pad`` is False. Lp pooling gives
    sum(x**p_value)**(1/p_value). ``global_pool`` pools every spatial position.
    """
    float_only('Pooling', data=data)
    op = 'Pooling'
    if pool_type not in _POOL_TYPES:
        raise MXNetError("%s: pool_type must be one of %s, got %r" % (op, ', '.join(_POOL_TYPES), pool_type))
    if pooling_convention not in _CONVENTIONS:
        raise MXNetError("%s: pooling_convention must be one of %s, got %r"
                         % (op, ', '.join(_CONVENTIONS), pooling_convention))
    if pool_type == 'lp' and not p_value:
        raise MXNetError('%s: pool_type lp needs p_value' % op)
    if not 3 <= data.ndim <= 5:
        raise MXNetError('%s: data must be 3-D (batch, channel, x), 4-D (batch, channel, y, x) or 5-D '
                         '(batch, channel, d, y, x), got %s' % (op, shape_str(data.shape)))
    if global_pool:
        return _global_pool(data, layout_of(op, layout, data.ndim), pool_type, p_value)
    n = len(kernel)
    if n == 0:
        raise MXNetError('%s: kernel is required unless global_pool=True' % op)
    lay = layout_of(op, layout, data.ndim, n)
    stride = spatial(op, 'stride', stride, n, 1)
    if pooling_convention == 'same' and not any(pad):
        pad = ()  # 'same' takes no padding; MXNet accepts zeros of any length for it
    pad = spatial(op, 'pad', pad, n, 0)
    if pooling_convention == 'same' and (n != 1 or pool_type != 'max' or any(pad)):
        raise MXNetError("%s: pooling_convention 'same' supports only 1-D max pooling without pad "
                         "(data %s, kernel %s, pool_type %s, pad %s)"
                         % (op, shape_str(data.shape), tuple(kernel), pool_type, pad))
    sizes = [data.shape[ax] for ax in lay.spatial]
    for x, k, p in zip(sizes, kernel, pad):
        if k > x + 2 * p:
            raise MXNetError('%s: kernel %s exceeds data %s padded by %s'
                             % (op, tuple(kernel), shape_str(data.shape), pad))
    out = [pool_out_size(x, k, s, p, pooling_convention) for x, k, s, p in zip(sizes, kernel, stride, pad)]
    if pool_type in ('max', 'avg') and data.dtype == jnp.float32 and any(p >= k for k, p in zip(kernel, pad)):
        # MXNet's CPU kernel for these (oneDNN) needs each pad below the kernel; it fails as it runs
        shape = list(data.shape)
        for ax, o in zip(lay.spatial, out):
            shape[ax] = o
        raise DeferredError('%s: pad %s must be smaller than kernel %s for %s pooling'
                            % (op, pad, tuple(kernel), pool_type), [(tuple(shape), data.dtype)])
    window = [1] * data.ndim
    strides = [1] * data.ndim
    padding = [(0, 0)] * data.ndim
    for ax, x, k, s, p, o in zip(lay.spatial, sizes, kernel, stride, pad, out):
        window[ax], strides[ax] = k, s
        extra = max(0, (o - 1) * s + k - (x + 2 * p))
        if pooling_convention == 'same':
            padding[ax] = (extra // 2, extra - extra // 2)
        else:
            padding[ax] = (p, p + extra)
    if pool_type == 'max':
        if window == strides and not any(lo or hi for lo, hi in padding) and jnp.issubdtype(data.dtype, jnp.floating):
            axes = tuple(ax + i + 1 for i, ax in enumerate(lay.spatial))  # the kernel axes of _tiles
            return _tile_max(_tiles(data, list(lay.spatial), kernel, out), axes)
        return lax.reduce_window(data, _lowest(data.dtype), lax.max, window, strides, padding)
    zero = np.zeros((), data.dtype)
    if pool_type == 'lp':
        return _lp_root(lax.reduce_window(data ** p_value, zero, lax.add, window, strides, padding), p_value)
    total = lax.reduce_window(data, zero, lax.add, window, strides, padding)
    if pool_type == 'sum':
        return total
    include = True if count_include_pad is None else count_include_pad
    counts = np.ones((), np.float64)
    shape = [1] * data.ndim
    for i, (ax, x, k, s, p, o) in enumerate(zip(lay.spatial, sizes, kernel, stride, pad, out)):
        c = _window_counts(x, k, s, p, o, include)
        counts = np.multiply.outer(counts, c) if i else c
        shape[ax] = o
    return (total / jnp.asarray(counts.reshape(shape), data.dtype)).astype(data.dtype)


@register('Pooling_v1', params=[P('kernel', 'shape', ()), P('pool_type', 'str', 'max'), P('global_pool', 'bool', False),
                                P('pooling_convention', 'str', 'valid'), P('stride', 'shape', ()),
                                P('pad', 'shape', ())])
def pooling_v1(data, *, kernel, pool_type, global_pool, pooling_convention, stride, pad):
    """MXNet's first Pooling, which old scripts and JSON files still name: 2-D only, its padding
    is zeros for max pooling too, and an average divides by the whole kernel's area (padding and
    the 'full' convention's tail past the input included)."""
    op = 'Pooling_v1'
    if pool_type not in ('max', 'avg', 'sum'):
        raise MXNetError("%s: pool_type must be one of max, avg, sum, got %r" % (op, pool_type))
    if pooling_convention not in ('valid', 'full'):
        raise MXNetError("%s: pooling_convention must be valid or full, got %r" % (op, pooling_convention))
    if data.ndim != 4 or (not global_pool and len(kernel) != 2):
        raise MXNetError('%s: pools 2-D only: data must be 4-D (batch, channel, y, x) and kernel 2-D, got data %s '
                         'and kernel %s' % (op, shape_str(data.shape), tuple(kernel)))
    common = dict(global_pool=global_pool, cudnn_off=False, pooling_convention=pooling_convention, stride=stride,
                  pad=(), p_value=None, count_include_pad=None, layout=None)
    if global_pool:
        return pooling(data, kernel=kernel, pool_type=pool_type, **common)
    pads = [(0, 0), (0, 0)] + [(p, p) for p in spatial(op, 'pad', pad, 2, 0)]
    padded = jnp.pad(data, pads)  # zeros, which a max over a border window sees as MXNet's did
    out = pooling(padded, kernel=kernel, pool_type='max' if pool_type == 'max' else 'sum', **common)
    if pool_type == 'avg':
        out = (out / np.asarray(np.prod(kernel), out.dtype)).astype(data.dtype)
    return out
