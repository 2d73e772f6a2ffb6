"""Normalisation operators: BatchNorm (and its legacy and fused-relu forms), LayerNorm, InstanceNorm,
GroupNorm, L2Normalization, LRN, and IdentityAttachKLSparseReg (a sparseness penalty on activations).

Statistics of half-precision data are computed in float32 and the result cast
back, as MXNet's kernels accumulate in float32.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..base import MXNetError, shape_str
from . import _input_shapes, _onnx
from ._registry import P, Plot, along_axes, register
from .nn_util import compute_dtype, same_dtype, float_only, float32_only

__all__ = []


def _axis(op, axis, ndim):
    if not -ndim <= axis < ndim:
        raise MXNetError('%s: axis %d is out of range for %d-D data' % (op, axis, ndim))
    return axis % ndim


def _check_param(op, name, arr, n, data, want=None):
    """``arr`` is a vector of ``n`` of dtype ``want`` (the data's by default), as MXNet requires."""
    if arr.shape != (n,):
        raise MXNetError('%s: shape inconsistent for %s, provided %s, inferred %s from data %s'
                         % (op, name, shape_str(arr.shape), shape_str((n,)), shape_str(data.shape)))
    same_dtype(op, data, want, **{name: arr})


def _no_grad(*stats):
    """Statistics outputs (mean, std, ...): MXNet passes no gradient back through them."""
    return tuple(lax.stop_gradient(s) for s in stats)


def _along(arr, ndim, axis):
    """A per-channel vector shaped to broadcast along ``axis`` of an ``ndim``-d array."""
    shape = [1] * ndim
    shape[axis] = arr.shape[0]
    return arr.reshape(shape)


# ---------------------------------------------------------------------------------------------
# BatchNorm
# ---------------------------------------------------------------------------------------------

@functools.partial(jax.custom_vjp, nondiff_argnums=(3,))
def _normalize_frozen(x, mean, invstd, axis):
    return (x - _along(mean, x.ndim, axis)) * _along(invstd, x.ndim, axis)


def _normalize_frozen_fwd(x, mean, invstd, axis):
    xhat = _normalize_frozen(x, mean, invstd, axis)
    return xhat, (xhat, invstd)


def _normalize_frozen_bwd(axis, res, g):
    # MXNet 1.9's BatchNorm backward outside training (without use_global_stats) applies the
    # batch-statistics formula with the moving statistics in place of the batch's; reproduced.
    xhat, invstd = res
    axes = tuple(i for i in range(xhat.ndim) if i != axis)
    dx = _along(invstd, xhat.ndim, axis) * (g - jnp.mean(g, axis=axes, keepdims=True)
                                           - xhat * jnp.mean(g * xhat, axis=axes, keepdims=True))
    return dx.astype(xhat.dtype), jnp.zeros_like(invstd), jnp.zeros_like(invstd)


_normalize_frozen.defvjp(_normalize_frozen_fwd, _normalize_frozen_bwd)


def _bn_visible(attrs):
    return 3 if attrs['output_mean_var'] else 1


def _bn_dtypes(attrs, dtypes):
    # the statistics outputs come in the moving statistics' dtype (float32 for half data)
    return dtypes[0], dtypes[3], dtypes[3]


def _bn_rebase(attrs, before, after, now):
    """Moving statistics when backward runs: ``after`` moved onto the current ``now``.

    The update ``moving * momentum + batch * (1 - momentum)`` is affine in ``moving``, so the
    update computed in forward from ``before`` becomes ``after + momentum * (now - before)``.
    """
    m = attrs['momentum']
    return tuple((a + (n - b) * jnp.asarray(m, a.dtype)).astype(a.dtype) for b, a, n in zip(before, after, now))


# MXNet starts the moving statistics of a composed graph at zero and one.
_MOVING_INITS = {'moving_mean': '["zero", {}]', 'moving_var': '["one", {}]'}


def _onnx_batch_norm(g, node):
    """BatchNormalization in inference, with the moving statistics (gamma one under fix_gamma)."""
    a = node.attrs
    if a['axis'] % len(node.in_shapes[0]) != 1:
        raise g.unsupported(node, 'axis %d (ONNX normalises axis 1)' % a['axis'])
    if a['output_mean_var']:
        raise g.unsupported(node, 'output_mean_var=True')
    data, gamma, beta, mean, var = node.inputs
    if a['fix_gamma']:
        gamma = g.const(np.ones(node.in_shapes[1]), node.in_dtypes[1])
    return g.add('BatchNormalization', [data, gamma, beta, mean, var], epsilon=a['eps'])


# What the BatchNorm family's entries share: data, scale, shift and the moving statistics (aux
# states written when backward passes the node), giving (output, mean, var).
_BN_FAMILY = dict(inputs=('data', 'gamma', 'beta', 'moving_mean', 'moving_var'), aux=('moving_mean', 'moving_var'),
                  input_inits=_MOVING_INITS, num_outputs=3, num_visible_outputs=_bn_visible,
                  output_names=('output', 'mean', 'var'), mode_dependent=True, updates_aux=True,
                  rebase_aux=_bn_rebase)
_BN_STATS = ('gamma', 'beta', 'moving_mean', 'moving_var')
_BN_PARAMS = [P('eps', 'float', 1e-3), P('momentum', 'float', 0.9), P('fix_gamma', 'bool', True),
              P('use_global_stats', 'bool', False), P('output_mean_var', 'bool', False),
              P('axis', 'int', 1), P('cudnn_off', 'bool', False),
              P('min_calib_range', 'float', None, optional=True),
              P('max_calib_range', 'float', None, optional=True)]


@register('BatchNorm', onnx=_onnx_batch_norm, mxnet_outputs=3, out_dtypes=_bn_dtypes, plot=Plot('norm'),
          input_shapes=_input_shapes.per_channel(_BN_STATS, 'axis', 1), npx=('batch_norm',), params=_BN_PARAMS,
          **_BN_FAMILY)
def batch_norm(data, gamma, beta, moving_mean, moving_var, *, eps, momentum, fix_gamma, use_global_stats,
               output_mean_var, axis, cudnn_off, min_calib_range, max_calib_range, _train=False):
    """Batch normalisation over every axis but ``axis`` (the channels).

    In training (and without ``use_global_stats``) the batch mean and biased variance
    normalise the data and the moving statistics are updated as
    ``moving = moving * momentum + batch * (1 - momentum)`` (returned after the three
    outputs, for the caller to store when backward runs, as MXNet does; the variance stored
    is MXNet's, recovered from the inverse standard deviation). Otherwise the moving
    statistics are used.
    ``fix_gamma`` treats gamma as 1 (its gradient is then 0). The outputs are
    (out, mean, inverse standard deviation 1/sqrt(var + eps)), as MXNet's CPU kernel gives;
    gradients flow back from ``out`` only. Outside training (without ``use_global_stats``)
    the data gradient is MXNet 1.9's, see _normalize_frozen_bwd.
    """
    op = 'BatchNorm'
    ax = _axis(op, axis, data.ndim)
    c = data.shape[ax]
    for name, arr in (('gamma', gamma), ('beta', beta), ('moving_mean', moving_mean), ('moving_var', moving_var)):
        _check_param(op, name, arr, c, data, compute_dtype(data.dtype))  # float32 for half data
    ct = compute_dtype(data.dtype)
    x = data.astype(ct)
    reduce_axes = tuple(i for i in range(data.ndim) if i != ax)
    batch_stats = _train and not use_global_stats
    if batch_stats:
        mean = jnp.mean(x, axis=reduce_axes)
        var = jnp.mean(jnp.square(x - _along(mean, x.ndim, ax)), axis=reduce_axes)
    else:
        mean, var = moving_mean.astype(ct), moving_var.astype(ct)
    invstd = lax.rsqrt(var + jnp.asarray(eps, ct))
    if _train or use_global_stats:
        xhat = (x - _along(mean, x.ndim, ax)) * _along(invstd, x.ndim, ax)
    else:
        xhat = _normalize_frozen(x, mean, invstd, ax)
    g = 1 if fix_gamma else _along(gamma.astype(ct), x.ndim, ax)
    out = xhat * g + _along(beta.astype(ct), x.ndim, ax)
    stat_dtype = moving_mean.dtype
    outs = (out.astype(data.dtype),) + _no_grad(mean.astype(stat_dtype), invstd.astype(stat_dtype))
    if not batch_stats:
        return outs
    m = jnp.asarray(momentum, ct)
    new_mean = moving_mean.astype(ct) * m + lax.stop_gradient(mean) * (1 - m)
    saved_var = 1 / jnp.square(lax.stop_gradient(invstd)) - jnp.asarray(eps, ct)  # MXNet's INVSTD_TO_VARIANCE
    new_var = moving_var.astype(ct) * m + saved_var * (1 - m)
    return outs + (new_mean.astype(stat_dtype), new_var.astype(moving_var.dtype))


@register('BatchNorm_v1', mxnet_outputs=3, plot=Plot('norm'), input_shapes=_input_shapes.per_channel(_BN_STATS),
          **_BN_FAMILY,
          params=[P('eps', 'float', 1e-3), P('momentum', 'float', 0.9), P('fix_gamma', 'bool', True),
                  P('use_global_stats', 'bool', False), P('output_mean_var', 'bool', False)])
def batch_norm_v1(data, gamma, beta, moving_mean, moving_var, *, eps, momentum, fix_gamma, use_global_stats,
                  output_mean_var, _train=False):
    """MXNet's first BatchNorm: BatchNorm over axis 1, whose second statistics output is the
    variance rather than the inverse standard deviation."""
    outs = batch_norm(data, gamma, beta, moving_mean, moving_var, eps=eps, momentum=momentum, fix_gamma=fix_gamma,
                      use_global_stats=use_global_stats, output_mean_var=output_mean_var, axis=1, cudnn_off=False,
                      min_calib_range=None, max_calib_range=None, _train=_train)
    invstd = outs[2]
    var = (1 / jnp.square(invstd) - jnp.asarray(eps, invstd.dtype)).astype(invstd.dtype)
    return outs[:2] + (var,) + outs[3:]


@register('_contrib_BatchNormWithReLU', mxnet_outputs=4, out_dtypes=_bn_dtypes, plot=Plot('norm'),
          input_shapes=_input_shapes.per_channel(_BN_STATS, 'axis', 1), params=_BN_PARAMS, **_BN_FAMILY)
def batch_norm_relu(data, gamma, beta, moving_mean, moving_var, *, eps, momentum, fix_gamma, use_global_stats,
                    output_mean_var, axis, cudnn_off, min_calib_range, max_calib_range, _train=False):
    """BatchNorm followed by relu, as one operator (MXNet's fused oneDNN form; its CPU build
    takes 4-D data only, any rank works here). The statistics outputs are BatchNorm's; MXNet's
    graphs count a fourth, hidden one (the fused relu's workspace)."""
    outs = batch_norm(data, gamma, beta, moving_mean, moving_var, eps=eps, momentum=momentum, fix_gamma=fix_gamma,
                      use_global_stats=use_global_stats, output_mean_var=output_mean_var, axis=axis,
                      cudnn_off=cudnn_off, min_calib_range=min_calib_range, max_calib_range=max_calib_range,
                      _train=_train)
    return (jnp.maximum(outs[0], jnp.zeros((), outs[0].dtype)),) + outs[1:]


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3))
def _kl_sparse_attach(data, avg, penalty, target):
    """The identity, whose gradient adds the penalty's derivative at ``avg`` (the averages
    updated with this batch, as MXNet's backward reads them)."""
    return data


def _kl_sparse_fwd(data, avg, penalty, target):
    return data, avg


def _kl_sparse_bwd(penalty, target, avg, g):
    # d/d(avg) of the KL divergence between the target activation and each unit's average
    extra = penalty * (-target / avg + (1 - target) / (1 - avg))
    return g + _along(extra, g.ndim, 1).astype(g.dtype), jnp.zeros_like(avg)


_kl_sparse_attach.defvjp(_kl_sparse_fwd, _kl_sparse_bwd)


@register('IdentityAttachKLSparseReg', inputs=('data', 'moving_avg'), aux=('moving_avg',),
          input_inits={'moving_avg': '["zero", {}]'}, input_shapes=_input_shapes.per_channel(('moving_avg',)),
          mode_dependent=True, updates_aux=True, rebase_aux=_bn_rebase,
          params=[P('sparseness_target', 'float', 0.1), P('penalty', 'float', 0.001), P('momentum', 'float', 0.9)])
def identity_attach_kl_sparse_reg(data, moving_avg, *, sparseness_target, penalty, momentum, _train=False):
    """The data unchanged; in training its gradient gains a sparseness penalty: the derivative of
    KL(sparseness_target || average activation of each unit of axis 1), the averages kept as a
    moving average over batches (``moving * momentum + batch mean * (1 - momentum)``)."""
    float32_only('IdentityAttachKLSparseReg', data=data)
    if not _train:
        return (data,)
    axes = tuple(i for i in range(data.ndim) if i != 1)
    m = jnp.asarray(momentum, moving_avg.dtype)
    avg = moving_avg * m + jnp.mean(lax.stop_gradient(data), axis=axes).astype(moving_avg.dtype) * (1 - m)
    return _kl_sparse_attach(data, avg, penalty, sparseness_target), avg


# ---------------------------------------------------------------------------------------------
# LayerNorm, InstanceNorm, GroupNorm
# ---------------------------------------------------------------------------------------------

def _mean_var_visible(attrs):
    return 3 if attrs['output_mean_var'] else 1


def _onnx_layer_norm(g, node):
    """(x - mean) / sqrt(var + eps) * gamma + beta over one axis (LayerNormalization is opset 17)."""
    a, ndim, dtype = node.attrs, len(node.in_shapes[0]), node.in_dtypes[0]
    if a['output_mean_var']:
        raise g.unsupported(node, 'output_mean_var=True')
    axis = a['axis'] % ndim
    data, gamma, beta = node.inputs
    centred = g.add('Sub', [data, g.add('ReduceMean', [data], axes=[axis], keepdims=1)])
    var = g.add('ReduceMean', [g.add('Mul', [centred, centred])], axes=[axis], keepdims=1)
    std = g.add('Sqrt', [g.add('Add', [var, g.const(a['eps'], dtype)])])
    if axis != ndim - 1:  # gamma and beta along ``axis``: (C, 1, ..., 1)
        shape = node.in_shapes[1] + (1,) * (ndim - 1 - axis)
        gamma, beta = (_onnx.reshape_to(g, v, shape) for v in (gamma, beta))
    return g.add('Add', [g.add('Mul', [g.add('Div', [centred, std]), gamma]), beta])


@register('LayerNorm', onnx=_onnx_layer_norm, mxnet_outputs=3, input_shapes=_input_shapes.per_channel(('gamma', 'beta'), 'axis', -1),
          npx=('layer_norm',), inputs=('data', 'gamma', 'beta'), num_outputs=3, num_visible_outputs=_mean_var_visible,
          along=along_axes(lambda a, ndim: [x for x in range(ndim) if x != a['axis'] % ndim]),
          output_names=('output', 'mean', 'std'),
          params=[P('axis', 'int', -1), P('eps', 'float', 1e-5), P('output_mean_var', 'bool', False)])
def layer_norm(data, gamma, beta, *, axis, eps, output_mean_var):
    """Normalise over ``axis`` (the last by default), then scale by gamma and shift by beta.

    Outputs (out, mean, std) with mean and std keeping ``axis`` as size 1;
    std = sqrt(var + eps).
    """
    float_only('LayerNorm', data=data)
    op = 'LayerNorm'
    ax = _axis(op, axis, data.ndim)
    c = data.shape[ax]
    _check_param(op, 'gamma', gamma, c, data)
    _check_param(op, 'beta', beta, c, data)
    ct = compute_dtype(data.dtype)
    x = data.astype(ct)
    mean = jnp.mean(x, axis=ax, keepdims=True)
    std = jnp.sqrt(jnp.mean(jnp.square(x - mean), axis=ax, keepdims=True) + jnp.asarray(eps, ct))
    out = (x - mean) / std * _along(gamma.astype(ct), x.ndim, ax) + _along(beta.astype(ct), x.ndim, ax)
    return (out.astype(data.dtype),) + _no_grad(mean.astype(data.dtype), std.astype(data.dtype))


@register('InstanceNorm', onnx=lambda g, node: g.add('InstanceNormalization', node.inputs, epsilon=node.attrs['eps']),
          mxnet_outputs=3, input_shapes=_input_shapes.per_channel(('gamma', 'beta')),
          npx=('instance_norm',), inputs=('data', 'gamma', 'beta'), num_outputs=3, num_visible_outputs=1,
          output_names=('output', 'mean', 'var'), params=[P('eps', 'float', 1e-3)])
def instance_norm(data, gamma, beta, *, eps):
    """Normalise each (sample, channel) over its spatial axes; gamma and beta are per channel.
    float32 only, as MXNet 1.9.1's (legacy) operator."""
    op = 'InstanceNorm'
    if data.ndim < 3:
        raise MXNetError('%s: data must have at least 3 axes (batch, channel, spatial...), got %s'
                         % (op, shape_str(data.shape)))
    float32_only(op, data)
    c = data.shape[1]
    _check_param(op, 'gamma', gamma, c, data)
    _check_param(op, 'beta', beta, c, data)
    ct = compute_dtype(data.dtype)
    x = data.astype(ct)
    axes = tuple(range(2, data.ndim))
    mean = jnp.mean(x, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=axes, keepdims=True)
    out = (x - mean) * lax.rsqrt(var + jnp.asarray(eps, ct))
    out = out * _along(gamma.astype(ct), x.ndim, 1) + _along(beta.astype(ct), x.ndim, 1)
    n = data.shape[0]
    return (out.astype(data.dtype),) + _no_grad(mean.reshape(n, c).astype(data.dtype),
                                                var.reshape(n, c).astype(data.dtype))


@register('GroupNorm', mxnet_outputs=3, input_shapes=_input_shapes.group_norm,
          npx=('group_norm',), inputs=('data', 'gamma', 'beta'), num_outputs=3, num_visible_outputs=_mean_var_visible,
          output_names=('output', 'mean', 'std'),
          params=[P('num_groups', 'int', 1), P('eps', 'float', 1e-5), P('output_mean_var', 'bool', False)])
def group_norm(data, gamma, beta, *, num_groups, eps, output_mean_var):
    """Normalise each sample over groups of channels (and all spatial positions).

    As in MXNet 1.x, gamma and beta have one value per group. Outputs (out, mean,
    std), mean and std shaped (batch, num_groups).
    """
    float_only('GroupNorm', data=data)
    op = 'GroupNorm'
    if data.ndim < 2:
        raise MXNetError('%s: data must have at least 2 axes (batch, channel, ...), got %s'
                         % (op, shape_str(data.shape)))
    n, c = data.shape[:2]
    if num_groups < 1 or c % num_groups:
        raise MXNetError('%s: %d channels of data %s cannot be split into num_groups=%d'
                         % (op, c, shape_str(data.shape), num_groups))
    _check_param(op, 'gamma', gamma, num_groups, data)
    _check_param(op, 'beta', beta, num_groups, data)
    ct = compute_dtype(data.dtype)
    x = data.astype(ct).reshape(n, num_groups, -1)
    mean = jnp.mean(x, axis=2, keepdims=True)
    std = jnp.sqrt(jnp.mean(jnp.square(x - mean), axis=2, keepdims=True) + jnp.asarray(eps, ct))
    out = (x - mean) / std * gamma.astype(ct)[None, :, None] + beta.astype(ct)[None, :, None]
    return (out.reshape(data.shape).astype(data.dtype),) + _no_grad(
        mean.reshape(n, num_groups).astype(data.dtype), std.reshape(n, num_groups).astype(data.dtype))


# ---------------------------------------------------------------------------------------------
# L2Normalization and LRN
# ---------------------------------------------------------------------------------------------

def _onnx_l2_normalization(g, node):
    a, x, ndim = node.attrs, node.inputs[0], len(node.in_shapes[0])
    axes = {'instance': range(1, ndim), 'channel': (1,), 'spatial': range(2, ndim)}[a['mode']]
    total = _onnx.reduce(g, 'ReduceSum', g.add('Mul', [x, x]), list(axes), True)
    norm = g.add('Sqrt', [g.add('Add', [total, g.const(a['eps'], node.in_dtypes[0])])])
    return g.add('Div', [x, norm])


def _onnx_lrn(g, node):
    """ONNX's LRN windows the channels as MXNet does for odd sizes; MXNet's even nsize sums the
    odd window one channel shorter (see lrn) but still divides alpha by nsize."""
    a = node.attrs
    size = a['nsize'] - 1 + a['nsize'] % 2
    return g.add('LRN', node.inputs, size=size, alpha=a['alpha'] * size / a['nsize'], beta=a['beta'],
                 bias=a['knorm'])


@register('L2Normalization', npx=('l2_normalization',), onnx=_onnx_l2_normalization, num_outputs=2, num_visible_outputs=1, output_names=('output', 'norm'),
          params=[P('eps', 'float', 1e-10), P('mode', 'str', 'instance')])
def l2_normalization(data, *, eps, mode):
    """Divide by the L2 norm sqrt(sum(x**2) + eps) taken per sample ('instance', over every
    axis but the first), per position over the channels ('channel', axis 1), or per
    (sample, channel) over the spatial axes ('spatial')."""
    float_only('L2Normalization', data=data)
    op = 'L2Normalization'
    if mode not in ('instance', 'channel', 'spatial'):
        raise MXNetError("%s: mode must be 'instance', 'channel' or 'spatial', got %r" % (op, mode))
    if mode != 'instance' and data.ndim < 3:
        raise MXNetError('%s: mode %r needs at least 3-D data, got %s' % (op, mode, shape_str(data.shape)))
    if data.ndim < 1:  # 1-D data in 'instance' mode is a batch of scalars, each divided by |x|
        raise MXNetError('%s: data must have at least 1 axis, got %s' % (op, shape_str(data.shape)))
    ct = compute_dtype(data.dtype)
    x = data.astype(ct)
    axes = {'instance': tuple(range(1, data.ndim)), 'channel': (1,),
            'spatial': tuple(range(2, data.ndim))}[mode]
    norm = jnp.sqrt(jnp.sum(jnp.square(x), axis=axes, keepdims=True) + jnp.asarray(eps, ct))
    out = (x / norm).astype(data.dtype)
    shape = {'instance': data.shape[:1], 'channel': norm.shape, 'spatial': data.shape[:2]}[mode]
    return (out,) + _no_grad(norm.reshape(shape).astype(data.dtype))


@register('LRN', npx=('lrn',), onnx=_onnx_lrn, num_outputs=2, num_visible_outputs=1, output_names=('output', 'tmp_norm'),
          params=[P('alpha', 'float', 1e-4), P('beta', 'float', 0.75), P('knorm', 'float', 2.0),
                  P('nsize', 'int')])
def lrn(data, *, alpha, beta, knorm, nsize):
    """Local response normalisation across channels (axis 1):
    x / (knorm + alpha / nsize * sum of x**2 over the neighbouring channels) ** beta.

    As MXNet 1.9.1's CPU build (oneDNN) computes it: float32 data of 4 axes (or 2: batch,
    channel) only, and the window is (nsize - 1) // 2 channels either side, so an even nsize
    sums one channel fewer than nsize."""
    op = 'LRN'
    if data.ndim not in (2, 4):
        raise MXNetError('%s: data must be 4-D (batch, channel, height, width), got %s'
                         % (op, shape_str(data.shape)))
    float32_only(op, data)
    if nsize < 1:
        raise MXNetError('%s: nsize must be positive, got %d' % (op, nsize))
    ct = compute_dtype(data.dtype)
    x = data.astype(ct)
    half = (nsize - 1) // 2
    window = [1] * data.ndim
    window[1] = 2 * half + 1
    padding = [(0, 0)] * data.ndim
    padding[1] = (half, half)
    total = lax.reduce_window(jnp.square(x), np.zeros((), ct), lax.add, window, [1] * data.ndim, padding)
    tmp = jnp.asarray(knorm, ct) + jnp.asarray(alpha / nsize, ct) * total
    return (x * tmp ** jnp.asarray(-beta, ct)).astype(data.dtype), lax.stop_gradient(tmp.astype(data.dtype))


@register('_contrib_SyncBatchNorm', mxnet_outputs=3, out_dtypes=_bn_dtypes,
          input_shapes=_input_shapes.per_channel(_BN_STATS), **_BN_FAMILY,
          params=[P('eps', 'float', 1e-3), P('momentum', 'float', 0.9), P('fix_gamma', 'bool', True),
                  P('use_global_stats', 'bool', False), P('output_mean_var', 'bool', False),
                  P('ndev', 'int', 1), P('key', 'str', '')])
def sync_batch_norm(data, gamma, beta, moving_mean, moving_var, *, eps, momentum, fix_gamma,
                    use_global_stats, output_mean_var, ndev, key, _train=False):
    """MXNet's cross-device batch normalisation over axis 1, for ``ndev`` devices; its outputs
    are (out, mean, variance).

    With ``ndev`` 1, or outside training, or with ``use_global_stats``, no statistics cross
    devices and this is BatchNorm (axis 1). Training with ``ndev`` > 1 would have to share
    batch statistics between devices, which gluonjax does not do (MXNet waits for the other
    devices): that is an error rather than silently per-device statistics.
    """
    if _train and not use_global_stats and ndev > 1:
        raise MXNetError('SyncBatchNorm: cross-device synchronised batch normalisation (ndev=%d, '
                         'key %r) is not supported by gluonjax; use BatchNorm (statistics per '
                         'device), or num_devices=1 with the whole batch on one device.' % (ndev, key))
    outs = batch_norm(data, gamma, beta, moving_mean, moving_var, eps=eps, momentum=momentum,
                      fix_gamma=fix_gamma, use_global_stats=use_global_stats,
                      output_mean_var=output_mean_var, axis=1, cudnn_off=False,
                      min_calib_range=None, max_calib_range=None, _train=_train)
    # MXNet's SyncBatchNorm gives the variance as its third output, where BatchNorm gives the
    # inverse standard deviation: MXNet's INVSTD_TO_VARIANCE
    invstd = outs[2]
    ct = compute_dtype(invstd.dtype)
    var = 1 / jnp.square(invstd.astype(ct)) - jnp.asarray(eps, ct)
    return outs[:2] + (var.astype(invstd.dtype),) + outs[3:]
