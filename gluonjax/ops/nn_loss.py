"""Output layers whose gradient is MXNet's, not the derivative of their forward.

SoftmaxOutput's forward is a softmax, but its backward gives the gradient of the
cross-entropy loss, (softmax - onehot(label)) * scale, ignoring the head gradient;
the regression outputs give (out - label) * scale. They are jax.custom_vjp
functions whose configuration is a hashable tuple, so compiled kernels are shared.
The label never receives a gradient.
"""
import collections
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

from ..base import MXNetError, shape_str
from . import _input_shapes, _onnx
from ._registry import P, register
from .nn_util import compute_dtype, float_only

__all__ = []


def _no_gradient(x):
    """The cotangent of an input that gets no gradient (float0 for integer labels, as jax requires)."""
    if jnp.issubdtype(x.dtype, jnp.inexact):
        return jnp.zeros_like(x)
    return np.zeros(x.shape, jax.dtypes.float0)

# ---------------------------------------------------------------------------------------------
# SoftmaxOutput
# ---------------------------------------------------------------------------------------------

_SoftmaxCfg = collections.namedtuple('_SoftmaxCfg', 'grad_scale ignore_label multi_output use_ignore '
                                                    'preserve_shape normalization out_grad smooth_alpha')


def _so_forward(data, cfg):
    """Softmax over axis 1 (multi_output), the last axis (preserve_shape), or each sample flattened."""
    # float16 in float32 (MXNet's CPU kernel rounds each exp and its running sum to float16: 4th
    # decimal differences, docs/MIGRATING.md)
    x, softmax = data.astype(compute_dtype(data.dtype)), jax.nn.softmax
    if cfg.multi_output:
        out = softmax(x, axis=1)
    elif cfg.preserve_shape:
        out = softmax(x, axis=-1)
    else:
        out = softmax(x.reshape(x.shape[0], -1), axis=1).reshape(x.shape)
    return out.astype(data.dtype)


def _so_grad(out, label, cfg):
    """MXNet 1.9.1's gradient, rows of classes against labels. multi_output: (N, C, positions)
    against (N, positions). preserve_shape: the last axis, one label per row. Otherwise the rows
    are the samples, each flattened as the forward normalised them, and MXNet reads the first N
    of the (N, *middle) labels for them while counting all of them ('batch', 'valid')."""
    ct = compute_dtype(out.dtype)
    if label.shape == out.shape:  # a distribution per row: neither ignore_label nor normalization
        return (out.astype(ct) - label.astype(ct)) * jnp.asarray(cfg.grad_scale, ct)
    labels = label.astype(jnp.int32)
    if cfg.multi_output:
        p = out.astype(ct).reshape(out.shape[0], out.shape[1], -1)
        lab = labels.reshape(out.shape[0], 1, -1)
    else:
        rows = math.prod(out.shape[:-1]) if cfg.preserve_shape else out.shape[0]
        p = out.astype(ct).reshape(rows, -1)
        lab = labels.reshape(-1)[:rows].reshape(rows, 1)
    n_class = p.shape[1]
    onehot = (jax.lax.broadcasted_iota(jnp.int32, p.shape, 1) == lab).astype(ct)
    if cfg.smooth_alpha:
        a = cfg.smooth_alpha
        onehot = onehot * (1 - a) + (1 - onehot) * (a / max(n_class - 1, 1))
    grad = p - onehot
    ignore = int(cfg.ignore_label)
    if cfg.use_ignore:
        grad = jnp.where(lab == ignore, jnp.zeros((), ct), grad)
    scale = jnp.asarray(cfg.grad_scale, ct)
    if cfg.normalization == 'valid':  # labels not equal to ignore_label, counted with or without use_ignore
        scale = scale / jnp.maximum(jnp.sum(labels != ignore), 1).astype(ct)
    elif cfg.normalization == 'batch':
        scale = scale / label.size
    elif cfg.multi_output:  # 'null' still averages over the positions
        scale = scale / p.shape[2]
    return (grad * scale).reshape(out.shape)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _softmax_output(data, label, cfg):
    return _so_forward(data, cfg)


def _softmax_output_fwd(data, label, cfg):
    out = _so_forward(data, cfg)
    return out, (out, label)


def _softmax_output_bwd(cfg, res, g):
    out, label = res
    grad = _so_grad(out, label, cfg)
    if cfg.out_grad:
        grad = grad * g.astype(grad.dtype)
    return grad.astype(out.dtype), _no_gradient(label)


_softmax_output.defvjp(_softmax_output_fwd, _softmax_output_bwd)


def _check_softmax_label(data, label, multi_output):
    op = 'SoftmaxOutput'
    if multi_output and data.ndim < 2:
        raise MXNetError('%s: multi_output needs data of at least 2 axes, got %s' % (op, shape_str(data.shape)))
    accepted = _input_shapes.softmax_label_shapes(data.shape, multi_output)
    if label.shape != data.shape and tuple(label.shape) not in accepted:
        others = ''.join(' or %s' % shape_str(s) for s in accepted[1:])
        raise MXNetError('%s: shape inconsistent for label, provided %s, inferred %s%s from data %s%s'
                         % (op, shape_str(label.shape), shape_str(accepted[0]), others,
                            shape_str(data.shape), ' (multi_output)' if multi_output else ''))


def _onnx_softmax_output(g, node):
    """The forward: softmax over axis 1 (multi_output), the last axis (preserve_shape), or each
    sample flattened; the label is not read."""
    a, shape, x = node.attrs, node.in_shapes[0], node.inputs[0]
    if a['multi_output'] or len(shape) == 2:
        return g.add('Softmax', [x], axis=1)
    if a['preserve_shape']:
        return g.add('Softmax', [x], axis=-1)
    flat = g.add('Softmax', [g.add('Flatten', [x], axis=1)], axis=1)
    return _onnx.reshape_to(g, flat, shape)


@register('SoftmaxOutput', onnx=_onnx_softmax_output, input_shapes=_input_shapes.softmax_output, inputs=('data', 'label'), aliases=('Softmax',),
          params=[P('grad_scale', 'float', 1.0), P('ignore_label', 'float', -1.0), P('multi_output', 'bool', False),
                  P('use_ignore', 'bool', False), P('preserve_shape', 'bool', False),
                  P('normalization', 'str', 'null'), P('out_grad', 'bool', False),
                  P('smooth_alpha', 'float', 0.0)])
def softmax_output(data, label, *, grad_scale, ignore_label, multi_output, use_ignore, preserve_shape,
                   normalization, out_grad, smooth_alpha):
    """Softmax forward; backward (softmax - onehot(label)) * grad_scale / normalisation.

    The softmax runs over axis 1 with ``multi_output`` (labels (batch, *spatial)), over
    the last axis with ``preserve_shape``, else over all axes but the first. The head
    gradient is ignored unless ``out_grad``. ``normalization``: 'null' (per spatial
    position with multi_output), 'batch' (divide by the number of labels) or 'valid'
    (by the number of labels not equal to ``ignore_label`` when ``use_ignore``).
    ``smooth_alpha`` spreads that much of the target over the other classes.
    """
    float_only('SoftmaxOutput', data=data)
    if normalization not in ('null', 'batch', 'valid'):
        raise MXNetError("SoftmaxOutput: normalization must be 'null', 'batch' or 'valid', got %r"
                         % normalization)
    _check_softmax_label(data, label, multi_output)
    cfg = _SoftmaxCfg(grad_scale, ignore_label, multi_output, use_ignore, preserve_shape, normalization,
                      out_grad, smooth_alpha)
    return _softmax_output(data, label, cfg)


# ---------------------------------------------------------------------------------------------
# Regression outputs
# ---------------------------------------------------------------------------------------------

def _identity(x):
    return x


_REGRESSION = {
    'LinearRegressionOutput': (_identity, lambda d: d),
    'LogisticRegressionOutput': (jax.nn.sigmoid, lambda d: d),
    'MAERegressionOutput': (_identity, jnp.sign),
}


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3))
def _regression(data, label, kind, grad_scale):
    return _REGRESSION[kind][0](data)


def _regression_fwd(data, label, kind, grad_scale):
    out = _REGRESSION[kind][0](data)
    return out, (out, label)


def _regression_bwd(kind, grad_scale, res, g):
    out, label = res
    num_output = label.size // label.shape[0] if label.ndim else 1
    diff = _REGRESSION[kind][1](out - label.reshape(out.shape).astype(out.dtype))
    return (diff * jnp.asarray(grad_scale / num_output, out.dtype)).astype(out.dtype), _no_gradient(label)


_regression.defvjp(_regression_fwd, _regression_bwd)


def _regression_op(name, doc, onnx):
    def op(data, label, *, grad_scale):
        if label.size != data.size or (label.ndim and data.ndim and label.shape[0] != data.shape[0]):
            raise MXNetError('%s: label %s does not match data %s (same size and batch expected)'
                             % (name, shape_str(label.shape), shape_str(data.shape)))
        return _regression(data, label, name, grad_scale)
    op.__name__ = name
    op.__doc__ = doc
    register(name, inputs=('data', 'label'), params=[P('grad_scale', 'float', 1.0)], onnx=onnx,
             input_shapes=_input_shapes.regression_output)(op)


_regression_op('LinearRegressionOutput',
               'Identity forward; backward (out - label) * grad_scale / (outputs per sample).',
               onnx=lambda g, node: node.inputs[0])
_regression_op('LogisticRegressionOutput',
               'sigmoid forward; backward (out - label) * grad_scale / (outputs per sample).',
               onnx=lambda g, node: g.add('Sigmoid', node.inputs[:1]))
_regression_op('MAERegressionOutput',
               'Identity forward; backward sign(out - label) * grad_scale / (outputs per sample).',
               onnx=lambda g, node: node.inputs[0])


# ---------------------------------------------------------------------------------------------
# MakeLoss
# ---------------------------------------------------------------------------------------------

@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def _make_loss(data, grad_scale, valid_thresh, normalization):
    return data


def _make_loss_fwd(data, grad_scale, valid_thresh, normalization):
    return data, data


def _make_loss_bwd(grad_scale, valid_thresh, normalization, out, g):
    """MXNet's MakeLoss ignores the head gradient: every element gets grad_scale, divided by the
    rows of the output seen as 2-D (all axes but the last: 'batch') or by the count of outputs
    above valid_thresh, at least 1 ('valid')."""
    ct = compute_dtype(out.dtype)
    scale = jnp.asarray(grad_scale, ct)
    if normalization == 'batch':
        scale = scale / max(math.prod(out.shape[:-1]), 1)
    elif normalization == 'valid':
        scale = scale / jnp.maximum(jnp.sum(out > valid_thresh), 1).astype(ct)
    return (jnp.broadcast_to(scale, out.shape).astype(out.dtype),)


_make_loss.defvjp(_make_loss_fwd, _make_loss_bwd)


@register('MakeLoss', params=[P('grad_scale', 'float', 1.0), P('valid_thresh', 'float', 0.0),
                              P('normalization', 'str', 'null')],
          onnx=lambda g, node: node.inputs[0])
def make_loss_op(data, *, grad_scale, valid_thresh, normalization):
    """Identity forward marking ``data`` as a loss; backward grad_scale / normalisation,
    whatever the head gradient ('null', 'batch' or 'valid', see _make_loss_bwd)."""
    float_only('MakeLoss', data=data)
    if normalization not in ('null', 'batch', 'valid'):
        raise MXNetError("MakeLoss: normalization must be 'null', 'batch' or 'valid', got %r" % normalization)
    return _make_loss(data, grad_scale, valid_thresh, normalization)


# ---------------------------------------------------------------------------------------------
# SVMOutput and softmax_cross_entropy
# ---------------------------------------------------------------------------------------------

@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4))
def _svm(data, label, margin, coef, linear):
    return data


def _svm_fwd(data, label, margin, coef, linear):
    return data, (data, label)


def _svm_bwd(margin, coef, linear, res, g):
    data, label = res
    x = data.astype(compute_dtype(data.dtype))
    cls = jax.lax.broadcasted_iota(jnp.int32, x.shape, 1)
    is_label = cls == label.reshape(-1, 1).astype(jnp.int32)
    # The label's score should exceed +margin, the others' stay below -margin.
    slack = jnp.where(is_label, margin - x, margin + x)
    sign = jnp.where(is_label, -1.0, 1.0).astype(x.dtype)
    if linear:
        grad = sign * coef * (slack > 0).astype(x.dtype)
    else:
        grad = sign * 2 * coef * jnp.maximum(slack, 0)
    return grad.astype(data.dtype), _no_gradient(label)


_svm.defvjp(_svm_fwd, _svm_bwd)


@register('SVMOutput', input_shapes=_input_shapes.first_axis_label, inputs=('data', 'label'),
          params=[P('margin', 'float', 1.0), P('regularization_coefficient', 'float', 1.0),
                  P('use_linear', 'bool', False)])
def svm_output(data, label, *, margin, regularization_coefficient, use_linear):
    """Identity forward; backward the gradient of the (squared, unless ``use_linear``) hinge loss."""
    if data.ndim != 2 or label.shape != data.shape[:1]:
        raise MXNetError('SVMOutput: data must be (batch, classes) and label (batch,), got data %s, label %s'
                         % (shape_str(data.shape), shape_str(label.shape)))
    return _svm(data, label, margin, regularization_coefficient, use_linear)


@register('softmax_cross_entropy', input_shapes=_input_shapes.first_axis_label, npx=('softmax_cross_entropy',), methods=('softmax_cross_entropy',), inputs=('data', 'label'))
def softmax_cross_entropy(data, label):
    """Sum over the batch of -log softmax(data)[label]; the output has shape (1,)."""
    if data.ndim != 2 or label.shape != data.shape[:1]:
        raise MXNetError('softmax_cross_entropy: data must be (batch, classes) and label (batch,), '
                         'got data %s, label %s' % (shape_str(data.shape), shape_str(label.shape)))
    logp = jax.nn.log_softmax(data.astype(compute_dtype(data.dtype)), axis=1)
    picked = jnp.take_along_axis(logp, label.astype(jnp.int32).reshape(-1, 1), axis=1)
    return (-jnp.sum(picked)).reshape(1).astype(data.dtype)
