"""Dense and convolution operators: FullyConnected, Convolution, Deconvolution.

Convolution has five implementations with identical results, chosen per call on CPU by
:func:`_choose_impl` from measurements (elsewhere XLA's convolution always): XLA's convolution
('lax'); the same with the data's gradient computed as the transposed patch-rows product
('split', :func:`conv_split`); and im2col, the input windows cut out with strided slices and
multiplied with the weight in one matmul, per sample with channel-first patches ('im2col'), or as
rows of one (positions, kernel offsets x channels) matrix, either with each patch's columns
ordered (kernel offset, channel) ('im2col_rows', :func:`conv_rows`) or (channel, kernel offset),
which takes MXNet's (num_filter, channels, *kernel) weight as it is stored ('weight_rows').
``CONV_IMPL`` forces one of them for tests and benchmarks.
"""
import functools
import itertools
import math

import jax
import jax.numpy as jnp
from jax import lax
from jax.custom_derivatives import SymbolicZero

from ..base import MXNetError, shape_str
from . import _input_shapes, _onnx
from ._registry import P, Plot, along_axes, plot_dims, register
from .nn_util import Layout, layout_of, same_dtype, spatial, float_only

__all__ = ['CONV_IMPL', 'conv_lax', 'conv_split', 'conv_rows', 'conv_im2col', 'conv_out_size', 'deconv_pads']

# None: choose per backend and size (_choose_impl); an implementation's name forces it.
CONV_IMPL = None
# im2col only when the patch matrix has at most this many elements (memory grows with kernel size).
IM2COL_MAX_ELEMENTS = 1 << 25
# ... and only for small images: on ImageNet-sized maps XLA's convolution runs faster and
# compiles 2-4x faster (resnet18 at 224x224: first call 2.9 s against 8.5 s with im2col).
IM2COL_MAX_POSITIONS = 1024
# Patch rows where they beat XLA's convolution only up to this many elements (8 MiB of float32,
# four times that for few input channels): past it the patches and their gradient leave the cache.
ROWS_MAX_ELEMENTS = 1 << 21
# Input channels (per group) that count as few: patch rows beat XLA's convolution there at stride 1.
FEW_CHANNELS = 8


def _bias_inputs(attrs):
    """Inputs of operators whose bias is dropped by no_bias (called with None: every input)."""
    if attrs is not None and attrs.get('no_bias'):
        return ('data', 'weight')
    return ('data', 'weight', 'bias')


def _check_bias(op, bias, no_bias, n, column_ok=False):
    """The bias as a vector of ``n``; ``column_ok``: an (n, 1) column is accepted too (MXNet's
    FullyConnected takes either)."""
    if no_bias:
        if bias is not None:  # MXNet counts the inputs: no_bias=True takes data and weight only
            raise MXNetError('%s: expects 2 inputs (data, weight) with no_bias=True, but got a bias too' % op)
        return None
    if bias is None:
        raise MXNetError('%s: bias input is missing (pass no_bias=True to use none)' % op)
    if column_ok and bias.shape == (n, 1):
        return bias.reshape(n)
    if bias.shape != (n,):
        raise MXNetError('%s: shape inconsistent for bias, provided %s, inferred %s'
                         % (op, shape_str(bias.shape), shape_str((n,))))
    return bias


# ---------------------------------------------------------------------------------------------
# FullyConnected
# ---------------------------------------------------------------------------------------------

def _onnx_fully_connected(g, node):
    """Gemm on the flattened input; without ``flatten``, MatMul on the last axis."""
    data, weight = node.inputs[:2]
    bias = node.inputs[2] if len(node.inputs) > 2 else None
    if node.attrs['flatten']:
        if len(node.in_shapes[0]) != 2:
            data = g.add('Flatten', [data], axis=1)
        return g.add('Gemm', [data, weight] + ([bias] if bias else []), transB=1)
    out = g.add('MatMul', [data, g.add('Transpose', [weight], perm=[1, 0])])
    return g.add('Add', [out, bias]) if bias else out


@register('FullyConnected', plot=Plot('weighted', lambda a: 'FullyConnected\n%s' % a['num_hidden']),
          input_shapes=_input_shapes.fully_connected, npx=('fully_connected',), inputs=_bias_inputs,
          along=along_axes(lambda a, ndim: range(ndim - 1) if not a['flatten'] else (0,)),
          onnx=_onnx_fully_connected,
          params=[P('num_hidden', 'int'), P('no_bias', 'bool', False), P('flatten', 'bool', True)])
def fully_connected(data, weight, bias=None, *, num_hidden, no_bias, flatten):
    """data @ weight.T + bias; weight is (num_hidden, input units).

    With ``flatten`` the input is (batch, ...) flattened to 2-D; without it the
    last axis is transformed and the leading axes are kept.
    """
    float_only('FullyConnected', data=data)
    if data.ndim == 0:
        raise MXNetError('FullyConnected: data must have at least one axis, got a scalar')
    if flatten:
        x = data.reshape(data.shape[0], -1) if data.ndim != 2 else data
    else:
        x = data
    n_in = x.shape[-1]
    if weight.shape != (num_hidden, n_in):
        raise MXNetError('FullyConnected: shape inconsistent for weight, provided %s, inferred %s '
                         '(num_hidden=%d, %d input units from data %s%s)'
                         % (shape_str(weight.shape), shape_str((num_hidden, n_in)), num_hidden, n_in,
                            shape_str(data.shape), ', flatten=True' if flatten else ', flatten=False'))
    bias = _check_bias('FullyConnected', bias, no_bias, num_hidden, column_ok=True)
    same_dtype('FullyConnected', data, weight=weight, bias=bias)
    out = jnp.matmul(x, weight.T)
    if bias is not None:
        out = out + bias
    return out


# ---------------------------------------------------------------------------------------------
# Convolution
# ---------------------------------------------------------------------------------------------

def conv_out_size(size, k, s, d, p):
    """Output length of a convolution along one axis."""
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _lax_dims(layout, n):
    sp = 'DHW'[3 - n:] if n <= 3 else None
    if layout.channel_last:
        return (layout.name, 'O' + sp + 'I', layout.name)
    return (layout.name, 'OI' + sp, layout.name)


def conv_lax(x, w, stride, dilate, pad, groups, layout):
    """Convolution by XLA (the weight in MXNet's layout for ``layout``)."""
    return lax.conv_general_dilated(x, w, stride, [(p, p) for p in pad], rhs_dilation=dilate,
                                    dimension_numbers=_lax_dims(layout, len(stride)),
                                    feature_group_count=groups)


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3, 4, 5, 6))
def conv_split(x, w, stride, dilate, pad, groups, layout):
    """XLA's convolution, differentiated with patch rows for the data's gradient.

    XLA's data gradient of a depthwise convolution is slow on the CPU, where the transposed
    patch-rows product (a matmul and a padded sum of slices) gives it faster; since XLA:CPU's
    convolutions run on Eigen (``_tiers.CPU_OPTIONS``) channel-first patches throughout beat this
    too, and it serves only the depthwise convolutions too large for them (:func:`_choose_impl`).
    """
    return conv_lax(x, w, stride, dilate, pad, groups, layout)


@functools.partial(conv_split.defjvp, symbolic_zeros=True)
def _conv_split_jvp(stride, dilate, pad, groups, layout, primals, tangents):
    (x, w), (tx, tw) = primals, tangents
    terms = []
    if not isinstance(tx, SymbolicZero):
        terms.append(conv_rows(tx, w, stride, dilate, pad, groups, layout))
    if not isinstance(tw, SymbolicZero):
        terms.append(conv_lax(x, tw, stride, dilate, pad, groups, layout))
    y = conv_lax(x, w, stride, dilate, pad, groups, layout)
    return y, functools.reduce(jnp.add, terms) if terms else jnp.zeros_like(y)


def conv_rows(x, w, stride, dilate, pad, groups, layout):
    """Convolution as one (positions, kernel offsets x channels) x (that, filters) product: the
    patch rows of channel-last data with each patch's columns ordered (kernel offset, channel).
    Transposed (the data's gradient), the sum of slices then reads contiguous channels: a
    pool-convolution-pool block of LeNet's second layer, forward and backward, one core, 28.5 ->
    24.0 ms against the (channel, kernel offset) columns of :func:`conv_im2col`'s rows, which take
    the weight as stored. Here a channel-first weight is transposed to match, which costs little
    unless the weight is large against the data ('weight_rows' then)."""
    if layout.channel_last:
        return _patch_rows_product(x, w, w.shape[1:-1], stride, dilate, pad, groups, weight_channel_first=False)
    nd = x.ndim
    to_last = (0,) + tuple(range(2, nd)) + (1,)
    y = _patch_rows_product(jnp.transpose(x, to_last), jnp.transpose(w, to_last), w.shape[2:], stride, dilate,
                            pad, groups, weight_channel_first=False)
    return jnp.transpose(y, (0, nd - 1) + tuple(range(1, nd - 1)))


def _windows(xp, spatial_axes, kernel, stride, dilate, out):
    """Strided slices of the padded input, one per kernel offset (kernel offsets in C order)."""
    cols = []
    nd = xp.ndim
    for offs in itertools.product(*[range(k) for k in kernel]):
        start = [0] * nd
        limit = list(xp.shape)
        strides = [1] * nd
        for ax, o, s, d, n in zip(spatial_axes, offs, stride, dilate, out):
            start[ax] = o * d
            limit[ax] = o * d + (n - 1) * s + 1
            strides[ax] = s
        cols.append(lax.slice(xp, start, limit, strides))
    return cols


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3, 4, 5, 6))
def _stacked_axis_by_axis(xp, spatial_axes, kernel, stride, dilate, out, axis):
    """``jnp.stack(_windows(...), axis)`` cut one spatial axis at a time: the offsets along the
    first spatial axis stacked, then those along the next of that, and so on. XLA emits a stack as
    a choice among its operands per element, so 5 + 5 operands cost far less than 25: LeNet's
    second convolution's patches 6.2 -> 1.8 ms (one core)."""
    pos = axis % (xp.ndim + 1)  # where the kernel axes go; the axes from there on move past them
    for d, (ax, k, s, dl, n) in enumerate(zip(spatial_axes, kernel, stride, dilate, out)):
        ax = ax + d if ax >= pos else ax
        slices = []
        for o in range(k):
            start, limit, strides = [0] * xp.ndim, list(xp.shape), [1] * xp.ndim
            start[ax], limit[ax], strides[ax] = o * dl, o * dl + (n - 1) * s + 1, s
            slices.append(lax.slice(xp, start, limit, strides))
        xp = jnp.stack(slices, axis=pos + d)
    shape = xp.shape[:pos] + (math.prod(kernel),) + xp.shape[pos + len(kernel):]
    return xp.reshape(shape)


@_stacked_axis_by_axis.defjvp
def _stacked_axis_by_axis_jvp(spatial_axes, kernel, stride, dilate, out, axis, primals, tangents):
    # The tangent as one stack: its transpose (the backward's sum of slices) is then one fused sum
    # of padded slices, where the stack axis by axis's is a fusion per stage (LeNet's second
    # layer's data gradient 6.8 -> 2.7 ms, one core).
    return (_stacked_axis_by_axis(primals[0], spatial_axes, kernel, stride, dilate, out, axis),
            jnp.stack(_windows(tangents[0], spatial_axes, kernel, stride, dilate, out), axis=axis))


def _stacked_windows(xp, spatial_axes, kernel, stride, dilate, out, axis):
    """``jnp.stack(_windows(...), axis)``: the patches, the kernel offsets along ``axis``.

    With fewer output positions than kernel offsets (a kernel as large as the image), the
    patches are cut one output position at a time instead, so the program (and its backward:
    a pad and add per slice) grows with the positions, not with the kernel: a 224x224 kernel
    would be 50,176 slices, which XLA takes minutes to compile."""
    if math.prod(out) >= math.prod(kernel):
        return _stacked_axis_by_axis(xp, spatial_axes, kernel, stride, dilate, out, axis)
    nd, first, last = xp.ndim, spatial_axes[0], spatial_axes[-1]
    cols = []
    for pos in itertools.product(*[range(n) for n in out]):
        start, limit, strides = [0] * nd, list(xp.shape), [1] * nd
        for ax, q, k, s, d in zip(spatial_axes, pos, kernel, stride, dilate):
            start[ax], limit[ax], strides[ax] = q * s, q * s + (k - 1) * d + 1, d
        cols.append(lax.slice(xp, start, limit, strides))
    # (positions, *pre, kernel offsets, *post), the spatial axes being contiguous in every layout
    pre, post = xp.shape[:first], xp.shape[last + 1:]
    y = jnp.stack(cols).reshape(tuple(out) + pre + (math.prod(kernel),) + post)
    n_out = len(out)
    pre_axes = list(range(n_out, n_out + len(pre)))
    post_axes = list(range(n_out + len(pre) + 1, y.ndim))
    order = pre_axes + list(range(n_out)) + post_axes  # the stacked layout without its kernel axis
    order.insert(axis % y.ndim, n_out + len(pre))
    return jnp.transpose(y, order)


def conv_im2col(x, w, stride, dilate, pad, groups, layout, rows=None):
    """Convolution as patches x weight: slices of the input, then one (grouped) matmul.

    ``rows`` True builds the patches as rows of one (positions, kernel*channels) matrix,
    channel-last, so that the product is a single large matmul (fastest with many
    channels); False keeps the channel-first layout and multiplies per sample (fastest
    with few input channels). None follows the data's layout.
    """
    if rows is None:
        rows = layout.channel_last
    if not rows and layout.channel_last:
        raise ValueError('channel-first patches need a channel-first layout')
    nsp = len(stride)
    kernel = w.shape[1:1 + nsp] if layout.channel_last else w.shape[2:]
    if rows:
        if layout.channel_last:
            return conv_rows(x, w, stride, dilate, pad, groups, layout)
        # Only the data goes channel-last: the patches' columns are ordered (channel, kernel offset)
        # like the rows of MXNet's (num_filter, channels, *kernel) weight, which is used as it is.
        # XLA's convolution would transpose the weight on every call, which costs more than the
        # whole product when the weight is large against the data (ResNet's last stages).
        nd = x.ndim
        y = _patch_rows_product(jnp.transpose(x, (0,) + tuple(range(2, nd)) + (1,)), w, kernel, stride, dilate,
                                pad, groups, weight_channel_first=True)
        return jnp.transpose(y, (0, nd - 1) + tuple(range(1, nd - 1)))
    xp, out = _padded(x, layout, kernel, stride, dilate, pad)
    n, c, f = x.shape[0], x.shape[1], w.shape[0]
    cg, fg = c // groups, f // groups
    kk, npos = math.prod(kernel), math.prod(out)
    patches = _stacked_windows(xp, layout.spatial, kernel, stride, dilate, out, 2)  # (N, C, K, *out)
    if groups == 1:
        y = jnp.einsum('nkp,fk->nfp', patches.reshape(n, c * kk, npos), w.reshape(f, c * kk))
    else:
        y = jnp.einsum('ngkp,gfk->ngfp', patches.reshape(n, groups, cg * kk, npos),
                       w.reshape(groups, fg, cg * kk))
    return y.reshape((n, f) + out)


def _padded(x, layout, kernel, stride, dilate, pad):
    """The input padded on its spatial axes, and the convolution's output size."""
    pads = [(0, 0, 0)] * x.ndim
    for ax, p in zip(layout.spatial, pad):
        pads[ax] = (p, p, 0)
    xp = lax.pad(x, jnp.zeros((), x.dtype), pads) if any(pad) else x
    out = tuple(conv_out_size(x.shape[ax], k, s, d, p)
                for ax, k, s, d, p in zip(layout.spatial, kernel, stride, dilate, pad))
    return xp, out


def _patch_rows_product(x, w, kernel, stride, dilate, pad, groups, weight_channel_first):
    """Channel-last convolution as one (positions, patch) x (patch, filters) product.

    A patch's columns follow the weight's own order, (channel, kernel offset) for a
    channel-first weight and (kernel offset, channel) for a channel-last one, so that the
    weight enters the product as a reshape, never a transpose.
    """
    layout = Layout('N' + 'DHW'[3 - len(kernel):] + 'C')
    xp, out = _padded(x, layout, kernel, stride, dilate, pad)
    n, c, f = x.shape[0], x.shape[-1], w.shape[0]
    cg, fg = c // groups, f // groups
    kk, m = math.prod(kernel), x.shape[0] * math.prod(out)
    if weight_channel_first:
        patches = _stacked_windows(xp, layout.spatial, kernel, stride, dilate, out, -1).reshape(m, groups, cg, kk)
        wg = w.reshape(groups, fg, cg, kk)
        spec = 'mgck,gfck->mgf'
    else:
        patches = _stacked_windows(xp, layout.spatial, kernel, stride, dilate, out, -2).reshape(m, kk, groups, cg)
        wg = w.reshape(groups, fg, kk, cg)
        spec = 'mkgc,gfkc->mgf'
    if groups == 1:  # the patch rows against the weight's rows: no transposed operand
        y = lax.dot_general(patches.reshape(m, cg * kk), w.reshape(f, cg * kk), (((1,), (1,)), ((), ())))
    else:
        y = jnp.einsum(spec, patches, wg)
    return y.reshape((n,) + out + (f,))


# The patches of a weight-dominated convolution (at most this many times the weight's elements)
# are multiplied with the weight as it is; see conv_im2col.
PATCHES_PER_WEIGHT = 4


def _choose_impl(x, lay, kernel, stride, out, groups, num_filter):
    """'lax', 'split', 'im2col' (channel-first patches), 'im2col_rows' or 'weight_rows' for this
    call (see the module doc).

    Measured on a 2-core AMD EPYC (32 MiB L3), two threads and one, forward and both gradients
    (jitted), XLA's convolutions on Eigen (``_tiers.CPU_OPTIONS``): XLA's convolution wins on most
    maps, 2-4x ahead of patches on 16x16 and 32x32 maps of 16-64 channels (32 x 64 x 32 x 32, 3x3:
    52 against 136 ms). Patch rows win where XLA's is slow: few input channels at stride 1 (an
    RGB image's first layer, 32 x 3 x 32 x 32, 3x3: 3.8 against 9.7 ms; up to 8 channels, 8.2
    against 15.0), a 'valid' kernel large against its map, whose data gradient XLA runs mostly
    over padding (LeNet's second layer), 1x1 kernels (a matmul), and a weight large against the
    data (ResNet-18's 7x7 stage at batch 2: 11.0 against 15.3 ms, the weight used as stored where
    XLA transposes it every call) -- but only while the patches and their gradient stay in the
    cache (``ROWS_MAX_ELEMENTS``; LeNet's second layer at batch 128: 19.7 against 17.8 ms; few
    channels keep the lead to four times that: 128 x 3 x 32 x 32, 31.7 against 56.6 ms).
    Grouped convolutions take channel-first patches (XLA's weight gradient with 4 channels per
    group: 2.4 s against 0.11 s; depthwise against 'split': 64 channels on 56x56 maps at stride 2
    11.0 against 36.0 ms, 256 on 14x14 9.7 against 23.2, 64 on 16x16 17.8 against 39.7 on one core
    but 17.9 / 42.9 against 23.6 / 37.9 in two two-thread runs), depthwise ones 'split' only past
    ``IM2COL_MAX_ELEMENTS``.
    """
    if CONV_IMPL is not None:
        return CONV_IMPL
    if jax.default_backend() != 'cpu' or not isinstance(x.shape[0], int):  # or a symbolic batch (jax.export)
        return 'lax'
    cg, k, positions = x.shape[lay.channel] // groups, math.prod(kernel), math.prod(out)
    patch_elements = x.shape[0] * x.shape[lay.channel] * k * positions
    if patch_elements <= PATCHES_PER_WEIGHT * num_filter * cg * k and patch_elements <= IM2COL_MAX_ELEMENTS:
        return 'weight_rows'
    if groups > 1:
        if patch_elements <= IM2COL_MAX_ELEMENTS and (cg == 1 or positions <= IM2COL_MAX_POSITIONS):
            return 'im2col'
        return 'split' if cg == 1 else 'lax'
    few_channels = cg == 1 or (cg <= FEW_CHANNELS and set(stride) == {1})
    mostly_padding = set(stride) == {1} and math.prod(x.shape[ax] for ax in lay.spatial) >= 1.5 * positions
    if patch_elements <= ROWS_MAX_ELEMENTS * (4 if few_channels else 1) and (k == 1 or few_channels or mostly_padding):
        return 'im2col_rows'
    return 'lax'


def _conv_geometry(op, data, weight, kernel, stride, dilate, pad, num_filter, num_group, layout):
    """Validated (layout, stride, dilate, pad, in_channels) of a convolution-like call."""
    n = len(kernel)
    if n not in (1, 2, 3):
        raise MXNetError('%s: kernel must have 1, 2 or 3 values, got %s' % (op, tuple(kernel)))
    lay = layout_of(op, layout, data.ndim, n)
    stride = spatial(op, 'stride', stride, n, 1)
    dilate = spatial(op, 'dilate', dilate, n, 1)
    pad = spatial(op, 'pad', pad, n, 0)
    if num_group < 1 or num_filter < 1:
        raise MXNetError('%s: num_filter (%d) and num_group (%d) must be positive' % (op, num_filter, num_group))
    if min(stride) < 1 or min(dilate) < 1 or min(kernel) < 1:
        raise MXNetError('%s: kernel %s, stride %s and dilate %s must be positive'
                         % (op, tuple(kernel), stride, dilate))
    c = data.shape[lay.channel]
    if c % num_group:
        raise MXNetError('%s: input channels %d (data %s) are not divisible by num_group %d'
                         % (op, c, shape_str(data.shape), num_group))
    return lay, stride, dilate, pad, c


_CONV_PARAMS = [P('kernel', 'shape'), P('stride', 'shape', ()), P('dilate', 'shape', ()), P('pad', 'shape', ()),
                P('num_filter', 'int'), P('num_group', 'int', 1), P('workspace', 'int', 1024),
                P('no_bias', 'bool', False), P('cudnn_tune', 'str', None, optional=True),
                P('cudnn_off', 'bool', False), P('layout', 'str', None, optional=True)]


def _conv_label(a):
    return 'Convolution\n%s/%s, %s' % (plot_dims(a, 'kernel', ''), plot_dims(a, 'stride', '1'), a['num_filter'])


def _onnx_window(g, node, op_type, pads=None, **extra):
    """Conv or ConvTranspose: ONNX's attributes are MXNet's per spatial axis (channel-first only)."""
    a = node.attrs
    if a['layout'] not in (None, 'NCW', 'NCHW', 'NCDHW'):
        raise g.unsupported(node, 'layout %s (ONNX convolutions are channel-first)' % a['layout'])
    n = len(a['kernel'])
    pad = spatial(op_type, 'pad', a['pad'], n, 0) if pads is None else pads
    return g.add(op_type, node.inputs, kernel_shape=list(a['kernel']),
                 strides=list(spatial(op_type, 'stride', a['stride'], n, 1)),
                 dilations=list(spatial(op_type, 'dilate', a['dilate'], n, 1)),
                 pads=list(pad) * 2, group=a['num_group'], **extra)


@register('Convolution', plot=Plot('weighted', _conv_label), along=along_axes(lambda a, ndim: (0,)), input_shapes=_input_shapes.convolution, npx=('convolution',), inputs=_bias_inputs, params=_CONV_PARAMS,
          onnx=lambda g, node: _onnx_window(g, node, 'Conv'))
def convolution(data, weight, bias=None, *, kernel, stride, dilate, pad, num_filter, num_group, workspace,
                no_bias, cudnn_tune, cudnn_off, layout):
    """1-, 2- or 3-D convolution (cross-correlation, as in MXNet), grouped and dilated.

    The weight is (num_filter, channels/num_group, *kernel), or (num_filter, *kernel,
    channels/num_group) with a channel-last layout.
    """
    float_only('Convolution', data=data)
    op = 'Convolution'
    lay, stride, dilate, pad, c = _conv_geometry(op, data, weight, kernel, stride, dilate, pad, num_filter,
                                                 num_group, layout)
    if num_filter % num_group:
        raise MXNetError('%s: num_filter %d is not divisible by num_group %d' % (op, num_filter, num_group))
    cg = c // num_group
    expected = (num_filter,) + tuple(kernel) + (cg,) if lay.channel_last else (num_filter, cg) + tuple(kernel)
    if weight.shape != expected:
        raise MXNetError('%s: shape inconsistent for weight, provided %s, inferred %s from data %s '
                         '(num_filter=%d, %d input channels, num_group=%d, kernel=%s)'
                         % (op, shape_str(weight.shape), shape_str(expected), shape_str(data.shape),
                            num_filter, c, num_group, tuple(kernel)))
    bias = _check_bias(op, bias, no_bias, num_filter)
    same_dtype(op, data, weight=weight, bias=bias)
    out = tuple(conv_out_size(data.shape[ax], k, s, d, p)
                for ax, k, s, d, p in zip(lay.spatial, kernel, stride, dilate, pad))
    if min(out) < 1:
        raise MXNetError('%s: kernel %s (dilate %s) is larger than the padded input %s (pad %s)'
                         % (op, tuple(kernel), dilate, shape_str(data.shape), pad))
    impl = _choose_impl(data, lay, kernel, stride, out, num_group, num_filter)
    if impl == 'lax':
        y = conv_lax(data, weight, stride, dilate, pad, num_group, lay)
    elif impl == 'split':
        y = conv_split(data, weight, stride, dilate, pad, num_group, lay)
    elif impl == 'im2col_rows':
        y = conv_rows(data, weight, stride, dilate, pad, num_group, lay)
    else:
        y = conv_im2col(data, weight, stride, dilate, pad, num_group, lay,
                        rows=True if impl == 'weight_rows' else lay.channel_last)
    if bias is not None:
        shape = [1] * y.ndim
        shape[lay.channel] = num_filter
        y = y + bias.reshape(shape)
    return y


@register('Convolution_v1', input_shapes=_input_shapes.convolution, inputs=_bias_inputs, params=_CONV_PARAMS)
def convolution_v1(data, weight, bias=None, *, kernel, stride, dilate, pad, num_filter, num_group, workspace,
                   no_bias, cudnn_tune, cudnn_off, layout):
    """MXNet's first Convolution, which old scripts and JSON files still name: the same 2-D or
    3-D convolution (it never had a 1-D form)."""
    if len(kernel) not in (2, 3):
        raise MXNetError('Convolution_v1: kernel %s must be 2-D or 3-D (data %s)'
                         % (tuple(kernel), shape_str(data.shape)))
    return convolution(data, weight, bias, kernel=kernel, stride=stride, dilate=dilate, pad=pad,
                       num_filter=num_filter, num_group=num_group, workspace=workspace, no_bias=no_bias,
                       cudnn_tune=cudnn_tune, cudnn_off=cudnn_off, layout=layout)


# ---------------------------------------------------------------------------------------------
# Deconvolution (transposed convolution)
# ---------------------------------------------------------------------------------------------

def deconv_pads(size, k, s, d, p, adj, target):
    """(pad, adj) along one axis, computed from ``target`` when one is given (as MXNet does)."""
    if target:
        total = s * (size - 1) + d * (k - 1) + 1 - target
        return (total + 1) // 2, total % 2
    return p, adj


def _onnx_deconvolution(g, node):
    """ConvTranspose with MXNet's symmetric pad and adj as output_padding (both from
    target_shape when it is given)."""
    a = node.attrs
    n = len(a['kernel'])
    sizes = node.in_shapes[0][2:]
    per_axis = [deconv_pads(size, k, s, d, p, adj, t) for size, k, s, d, p, adj, t in zip(
        sizes, a['kernel'], spatial('Deconvolution', 'stride', a['stride'], n, 1),
        spatial('Deconvolution', 'dilate', a['dilate'], n, 1), spatial('Deconvolution', 'pad', a['pad'], n, 0),
        spatial('Deconvolution', 'adj', a['adj'], n, 0), spatial('Deconvolution', 'target_shape', a['target_shape'], n, 0))]
    return _onnx_window(g, node, 'ConvTranspose', pads=[p for p, _ in per_axis],
                        output_padding=[adj for _, adj in per_axis])


@register('Deconvolution', input_shapes=_input_shapes.deconvolution, npx=('deconvolution',), inputs=_bias_inputs,
          onnx=_onnx_deconvolution,
          params=[P('kernel', 'shape'), P('stride', 'shape', ()), P('dilate', 'shape', ()), P('pad', 'shape', ()),
                  P('adj', 'shape', ()), P('target_shape', 'shape', ()), P('num_filter', 'int'),
                  P('num_group', 'int', 1), P('workspace', 'int', 512), P('no_bias', 'bool', True),
                  P('cudnn_tune', 'str', None, optional=True), P('cudnn_off', 'bool', False),
                  P('layout', 'str', None, optional=True)])
def deconvolution(data, weight, bias=None, *, kernel, stride, dilate, pad, adj, target_shape, num_filter,
                  num_group, workspace, no_bias, cudnn_tune, cudnn_off, layout):
    """Transposed convolution (the gradient of Convolution with respect to its data).

    The weight is (in_channels, num_filter/num_group, *kernel). The output length per
    axis is stride*(in-1) + dilate*(kernel-1) + 1 - 2*pad + adj; with ``target_shape``
    pad and adj are chosen to give that shape.
    """
    float_only('Deconvolution', data=data)
    op = 'Deconvolution'
    lay, stride, dilate, pad, c = _conv_geometry(op, data, weight, kernel, stride, dilate, pad, num_filter,
                                                 num_group, layout)
    n = len(kernel)
    adj = spatial(op, 'adj', adj, n, 0)
    target = spatial(op, 'target_shape', target_shape, n, 0)
    if num_filter % num_group:
        raise MXNetError('%s: num_filter %d is not divisible by num_group %d' % (op, num_filter, num_group))
    fg = num_filter // num_group
    expected = (c,) + tuple(kernel) + (fg,) if lay.channel_last else (c, fg) + tuple(kernel)
    if weight.shape != expected:
        raise MXNetError('%s: shape inconsistent for weight, provided %s, inferred %s from data %s '
                         '(%d input channels, num_filter=%d, num_group=%d, kernel=%s)'
                         % (op, shape_str(weight.shape), shape_str(expected), shape_str(data.shape),
                            c, num_filter, num_group, tuple(kernel)))
    bias = _check_bias(op, bias, no_bias, num_filter)
    same_dtype(op, data, weight=weight, bias=bias)
    padding = []
    for ax, k, s, d, p, a, t in zip(lay.spatial, kernel, stride, dilate, pad, adj, target):
        if not t and a >= max(s, d):
            raise MXNetError('%s: adj %s must be smaller than stride %s or dilate %s' % (op, adj, stride, dilate))
        p, a = deconv_pads(data.shape[ax], k, s, d, p, a, t)
        lo = d * (k - 1) - p
        padding.append((lo, lo + a))
        if s * (data.shape[ax] - 1) + d * (k - 1) + 1 - 2 * p + a < 1:
            raise MXNetError('%s: pad %s is too large for data %s and kernel %s'
                             % (op, pad, shape_str(data.shape), tuple(kernel)))
    # A transposed convolution is a convolution of the stride-dilated input with the flipped
    # kernel, whose in/out channel axes are swapped within each group.
    cg = c // num_group
    sp_axes = tuple(range(1, 1 + n)) if lay.channel_last else tuple(range(2, 2 + n))
    w = jnp.flip(weight, sp_axes)
    if lay.channel_last:  # (C, *k, Fg) -> (F, *k, Cg)
        w = w.reshape((num_group, cg) + tuple(kernel) + (fg,))
        w = jnp.moveaxis(jnp.moveaxis(w, -1, 1), 2, -1).reshape((num_filter,) + tuple(kernel) + (cg,))
    else:  # (C, Fg, *k) -> (F, Cg, *k)
        w = w.reshape((num_group, cg, fg) + tuple(kernel))
        w = jnp.swapaxes(w, 1, 2).reshape((num_filter, cg) + tuple(kernel))
    y = lax.conv_general_dilated(data, w, (1,) * n, padding, lhs_dilation=stride, rhs_dilation=dilate,
                                 dimension_numbers=_lax_dims(lay, n), feature_group_count=num_group)
    if bias is not None:
        shape = [1] * y.ndim
        shape[lay.channel] = num_filter
        y = y + bias.reshape(shape)
    return y


# ---------------------------------------------------------------------------------------------
# UpSampling: nearest (any number of inputs, joined) and bilinear (a fixed transposed convolution)
# ---------------------------------------------------------------------------------------------

def _upsampling_inputs(attrs, num_args=None):
    """Nearest takes arg0..argN-1 (maps of several sizes); bilinear takes data and its filter."""
    if attrs is not None and attrs.get('sample_type') == 'bilinear':
        return ('data', 'weight')
    return tuple('arg%d' % i for i in range(num_args or 1))


def _upsampling_weight(a, s):
    d = s.get('data') if a.get('sample_type') == 'bilinear' else None
    if d is None:
        return {}
    k = 2 * a['scale'] - a['scale'] % 2
    return {'weight': (d[1], 1, k, k)}


def _nearest(x, factor):
    return jnp.repeat(jnp.repeat(x, factor, axis=2), factor, axis=3)


@register('UpSampling', variadic=True, inputs=_upsampling_inputs, input_shapes=_upsampling_weight,
          input_inits={'weight': '["bilinear", {}]'},
          params=[P('scale', 'int'), P('num_filter', 'int', 0), P('sample_type', 'str'),
                  P('multi_input_mode', 'str', 'concat'), P('num_args', 'int'), P('workspace', 'int', 512)])
def upsampling(*data, scale, num_filter, sample_type, multi_input_mode, num_args, workspace):
    """Enlarge NCHW maps ``scale`` times in height and width.

    'nearest' repeats each pixel; with several inputs each is enlarged to the first input's
    size times ``scale`` and they are joined on the channel axis (``multi_input_mode='concat'``)
    or added ('sum'). 'bilinear' is a transposed convolution of each channel with the learnable
    (C, 1, k, k) filter ``weight``, k = 2*scale - scale%2 (initialised 'bilinear')."""
    float_only('UpSampling', **{'data%d' % i: x for i, x in enumerate(data)})
    op = 'UpSampling'
    if sample_type not in ('nearest', 'bilinear'):
        raise MXNetError("%s: sample_type must be 'nearest' or 'bilinear', got %r" % (op, sample_type))
    if multi_input_mode not in ('concat', 'sum'):
        raise MXNetError("%s: multi_input_mode must be 'concat' or 'sum', got %r" % (op, multi_input_mode))
    if scale < 1:
        raise MXNetError('%s: scale must be positive, got %d' % (op, scale))
    for i, x in enumerate(data):
        if x.ndim != 4:
            raise MXNetError('%s: input %d must be NCHW (4-D), got %s' % (op, i, shape_str(x.shape)))
    if sample_type == 'bilinear':
        if len(data) != 2:
            raise MXNetError('%s: bilinear sampling takes data and weight, got %d inputs' % (op, len(data)))
        x, weight = data
        k = 2 * scale - scale % 2
        pad = (scale - 1 + 1) // 2  # ceil((scale - 1) / 2)
        return deconvolution(x, weight, kernel=(k, k), stride=(scale, scale), dilate=(), pad=(pad, pad),
                             adj=(), target_shape=(), num_filter=x.shape[1], num_group=x.shape[1],
                             workspace=workspace, no_bias=True, cudnn_tune=None, cudnn_off=False, layout=None)
    out_h, out_w = data[0].shape[2] * scale, data[0].shape[3] * scale
    maps = []
    for i, x in enumerate(data):
        if out_h % x.shape[2] or out_w % x.shape[3] or out_h // x.shape[2] != out_w // x.shape[3]:
            raise MXNetError('%s: input %d %s cannot be enlarged by a whole factor to the output size '
                             '(%d, %d) (input 0 %s times scale %d)'
                             % (op, i, shape_str(x.shape), out_h, out_w, shape_str(data[0].shape), scale))
        if x.shape[0] != data[0].shape[0]:
            raise MXNetError('%s: input %d %s has another batch size than input 0 %s'
                             % (op, i, shape_str(x.shape), shape_str(data[0].shape)))
        maps.append(_nearest(x, out_h // x.shape[2]))
    if multi_input_mode == 'sum':
        if any(m.shape != maps[0].shape for m in maps):
            raise MXNetError("%s: multi_input_mode='sum' needs inputs of one channel count, got %s"
                             % (op, ', '.join(shape_str(x.shape) for x in data)))
        return functools.reduce(jnp.add, maps)
    return jnp.concatenate(maps, axis=1) if len(maps) > 1 else maps[0]


# ---------------------------------------------------------------------------------------------
# im2col / col2im: a convolution's patch matrix, and its adjoint
# ---------------------------------------------------------------------------------------------

_PATCH_PARAMS = [P('kernel', 'shape'), P('stride', 'shape', ()), P('dilate', 'shape', ()), P('pad', 'shape', ())]


def _patch_geometry(op, image_shape, kernel, stride, dilate, pad):
    """(stride, dilate, pad, output positions per axis) of patches cut from ``image_shape`` (N, C, ...)."""
    n = len(kernel)
    if n not in (1, 2, 3) or len(image_shape) != n + 2:
        raise MXNetError('%s: a %d-D kernel %s needs %d-D data (N, C and %d spatial axes), got %s'
                         % (op, n, tuple(kernel), n + 2, n, shape_str(image_shape)))
    stride = spatial(op, 'stride', stride, n, 1)
    dilate = spatial(op, 'dilate', dilate, n, 1)
    pad = spatial(op, 'pad', pad, n, 0)
    if min(stride) < 1 or min(dilate) < 1 or min(kernel) < 1:
        raise MXNetError('%s: kernel %s, stride %s and dilate %s must be positive' % (op, tuple(kernel), stride, dilate))
    out = tuple(conv_out_size(size, k, s, d, p)
                for size, k, s, d, p in zip(image_shape[2:], kernel, stride, dilate, pad))
    if min(out) < 1:
        raise MXNetError('%s: kernel %s (dilate %s) is larger than the padded image %s (pad %s)'
                         % (op, tuple(kernel), dilate, shape_str(image_shape), pad))
    return stride, dilate, pad, out


def _patches(image, kernel, stride, dilate, pad, out):
    """(N, C*prod(kernel), prod(out)): rows ordered by channel then kernel offset, as MXNet's."""
    pads = [(0, 0, 0), (0, 0, 0)] + [(p, p, 0) for p in pad]
    padded = lax.pad(image, jnp.zeros((), image.dtype), pads) if any(pad) else image
    spatial_axes = tuple(range(2, image.ndim))
    cols = _stacked_windows(padded, spatial_axes, kernel, stride, dilate, out, 2)  # (N, C, K, *out)
    n, c = image.shape[:2]
    return cols.reshape((n, c * math.prod(kernel), math.prod(out)))


@register('im2col', params=_PATCH_PARAMS)
def im2col(data, *, kernel, stride, dilate, pad):
    """The sliding windows of an (N, C, *spatial) image as columns: (N, C*prod(kernel), positions),
    so that a convolution is a matrix product with the (num_filter, C*prod(kernel)) weight."""
    stride, dilate, pad, out = _patch_geometry('im2col', data.shape, kernel, stride, dilate, pad)
    return _patches(data, kernel, stride, dilate, pad, out)


@register('col2im', params=[P('output_size', 'shape')] + _PATCH_PARAMS)
def col2im(data, *, output_size, kernel, stride, dilate, pad):
    """The adjoint of im2col: columns (N, C*prod(kernel), positions) added back into an image
    (N, C, *output_size); a pixel covered by several windows receives the sum of its copies."""
    op = 'col2im'
    if data.ndim != 3:
        raise MXNetError('%s: data must be (N, C*prod(kernel), positions), got %s' % (op, shape_str(data.shape)))
    k = math.prod(kernel)
    if len(output_size) != len(kernel) or data.shape[1] % k:
        raise MXNetError('%s: data %s does not fit kernel %s and output_size %s (axis 1 must be C*%d)'
                         % (op, shape_str(data.shape), tuple(kernel), tuple(output_size), k))
    image_shape = (data.shape[0], data.shape[1] // k) + tuple(output_size)
    stride, dilate, pad, out = _patch_geometry(op, image_shape, kernel, stride, dilate, pad)
    if data.shape[2] != math.prod(out):
        raise MXNetError('%s: data %s has %d positions, but kernel %s, stride %s, dilate %s and pad %s '
                         'cut %d from output_size %s' % (op, shape_str(data.shape), data.shape[2], tuple(kernel),
                                                         stride, dilate, pad, math.prod(out), tuple(output_size)))
    to_columns = functools.partial(_patches, kernel=kernel, stride=stride, dilate=dilate, pad=pad, out=out)
    image, = jax.linear_transpose(to_columns, jax.ShapeDtypeStruct(image_shape, data.dtype))(data)
    return image


# ---- deformable convolution (Dai et al. 2017; modulated: Zhu et al. 2019) -------------------------

_DEFORM_PARAMS = [P('kernel', 'shape'), P('stride', 'shape', ()), P('dilate', 'shape', ()), P('pad', 'shape', ()),
                  P('num_filter', 'int'), P('num_group', 'int', 1), P('num_deformable_group', 'int', 1),
                  P('workspace', 'int', 1024), P('no_bias', 'bool', False),
                  P('layout', 'str', None, optional=True)]


def _deform_inputs(*names):
    def inputs(attrs):
        if attrs is not None and attrs.get('no_bias'):
            return names
        return names + ('bias',)
    return inputs


def _bilinear_zero_padded(data, y, x, modulated):
    """Samples of ``data`` (N, G, Cg, H, W) at the real positions ``y``, ``x`` (N, G, L): bilinear
    between the four neighbouring pixels, pixels outside the image counting as 0, as MXNet's
    deformable im2col samples. The modulated (v2) operator samples every position within a
    pixel of the image; v1 only positions inside it, and on the last row or column it takes
    that row's (column's) value instead of blending towards the zero beyond."""
    n, g, cg, h, w = data.shape
    flat = data.reshape(n, g, cg, h * w)
    if modulated:
        reach = (y > -1) & (x > -1) & (y < h) & (x < w)
    else:
        reach = (y >= 0) & (x >= 0) & (y < h) & (x < w)
        y = jnp.where(y >= h - 1, h - 1, y)
        x = jnp.where(x >= w - 1, w - 1, x)
    y0, x0 = jnp.floor(y), jnp.floor(x)
    ly, lx = y - y0, x - x0
    index, weight = [], []
    for dy, wy in ((0, 1 - ly), (1, ly)):
        for dx, wx in ((0, 1 - lx), (1, lx)):
            yy, xx = y0 + dy, x0 + dx
            inside = (yy >= 0) & (yy <= h - 1) & (xx >= 0) & (xx <= w - 1)
            index.append((jnp.clip(yy, 0, h - 1) * w + jnp.clip(xx, 0, w - 1)).astype(jnp.int32))
            weight.append(jnp.where(inside, wy * wx, 0).astype(data.dtype))
    # one gather of the four neighbours per image and group: (Cg, H*W) at (4 * L) pixels (a
    # plain gather of columns compiles, with its gradient, far faster than take_along_axis)
    index = jnp.concatenate(index, axis=-1)
    pixels = jax.vmap(jax.vmap(lambda img, at: img[:, at]))(flat, index).reshape(n, g, cg, 4, -1)
    out = jnp.einsum('ngckl,ngkl->ngcl', pixels, jnp.stack(weight, axis=2))
    return out * reach[:, :, None, :].astype(data.dtype)


def _deformable_conv(op, data, offset, mask, weight, bias, kernel, stride, dilate, pad, num_filter,
                     num_group, num_deformable_group, layout):
    """Convolution whose kernel taps sit at the regular grid moved by ``offset`` (2 channels,
    y then x, per tap and deformable group), each sample scaled by ``mask`` when given."""
    if layout not in (None, 'NCHW'):
        raise MXNetError('%s: only the NCHW layout is supported, got %r' % (op, layout))
    if data.ndim != 4 or len(kernel) != 2:
        raise MXNetError('%s: data must be 4-D (NCHW) and kernel 2-D, got data %s, kernel %s'
                         % (op, shape_str(data.shape), kernel))
    n, c, h, w = data.shape
    kh, kw = kernel
    (sh, sw), (dh, dw), (ph, pw) = stride or (1, 1), dilate or (1, 1), pad or (0, 0)
    ho, wo = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1, (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    dg, taps = num_deformable_group, kh * kw
    if c % dg or c % num_group or num_filter % num_group:
        raise MXNetError('%s: channels %d must divide by num_deformable_group %d and num_group %d, '
                         'num_filter %d by num_group' % (op, c, dg, num_group, num_filter))
    if offset.shape != (n, 2 * dg * taps, ho, wo):
        raise MXNetError('%s: offset must have shape %s, got %s'
                         % (op, shape_str((n, 2 * dg * taps, ho, wo)), shape_str(offset.shape)))
    off = offset.astype(data.dtype).reshape(n, dg, taps, 2, ho, wo)
    grid_y = (jnp.arange(kh) * dh)[:, None, None, None] + (jnp.arange(ho) * sh - ph)[None, None, :, None]
    grid_x = (jnp.arange(kw) * dw)[None, :, None, None] + (jnp.arange(wo) * sw - pw)[None, None, None, :]
    grid_y = jnp.broadcast_to(grid_y, (kh, kw, ho, wo)).reshape(taps, ho, wo)
    grid_x = jnp.broadcast_to(grid_x, (kh, kw, ho, wo)).reshape(taps, ho, wo)
    y = (grid_y + off[:, :, :, 0]).reshape(n, dg, -1)
    x = (grid_x + off[:, :, :, 1]).reshape(n, dg, -1)
    cols = _bilinear_zero_padded(data.reshape(n, dg, c // dg, h, w), y, x, mask is not None)
    cols = cols.reshape(n, dg, c // dg, taps, ho, wo)
    if mask is not None:
        if mask.shape != (n, dg * taps, ho, wo):
            raise MXNetError('%s: mask must have shape %s, got %s'
                             % (op, shape_str((n, dg * taps, ho, wo)), shape_str(mask.shape)))
        cols = cols * mask.astype(data.dtype).reshape(n, dg, 1, taps, ho, wo)
    g = num_group
    cols = cols.reshape(n, g, c // g, taps, ho, wo)
    expected = (num_filter, c // g, kh, kw)
    if weight.shape != expected:
        raise MXNetError('%s: weight must have shape %s, got %s' % (op, shape_str(expected), shape_str(weight.shape)))
    kernel_w = weight.reshape(g, num_filter // g, c // g, taps)
    out = jnp.einsum('ngctyx,gfct->ngfyx', cols, kernel_w).reshape(n, num_filter, ho, wo)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1)
    return out.astype(data.dtype)


@register('_contrib_DeformableConvolution', inputs=_deform_inputs('data', 'offset', 'weight'),
          input_shapes=_input_shapes.convolution, params=_DEFORM_PARAMS, plot=Plot('weighted', _conv_label))
def deformable_convolution(data, offset, weight, bias=None, *, kernel, stride, dilate, pad, num_filter,
                           num_group, num_deformable_group, workspace, no_bias, layout):
    """2-D deformable convolution (v1): each kernel tap samples the input bilinearly at its grid
    position plus a learned offset (``offset``: 2 * kernel taps * num_deformable_group channels,
    y then x per tap)."""
    return _deformable_conv('DeformableConvolution', data, offset, None, weight, None if no_bias else bias,
                            kernel, stride, dilate, pad, num_filter, num_group, num_deformable_group, layout)


@register('_contrib_ModulatedDeformableConvolution', inputs=_deform_inputs('data', 'offset', 'mask', 'weight'),
          input_shapes=_input_shapes.convolution, plot=Plot('weighted', _conv_label),
          params=_DEFORM_PARAMS + [P('im2col_step', 'int', 64)])
def modulated_deformable_convolution(data, offset, mask, weight, bias=None, *, kernel, stride, dilate, pad,
                                     num_filter, num_group, num_deformable_group, workspace, no_bias, layout,
                                     im2col_step):
    """2-D modulated deformable convolution (v2): deformable convolution whose samples are scaled
    by ``mask`` (kernel taps * num_deformable_group channels)."""
    return _deformable_conv('ModulatedDeformableConvolution', data, offset, mask, weight,
                            None if no_bias else bias, kernel, stride, dilate, pad, num_filter, num_group,
                            num_deformable_group, layout)
