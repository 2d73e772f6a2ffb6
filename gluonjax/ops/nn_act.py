"""Activations, softmax, Dropout and Embedding."""
import jax
import jax.numpy as jnp
from jax import lax

from ..base import DeferredError, MXNetError, shape_str
import numpy as np

from . import _input_shapes, _onnx
from ._registry import ELEMENTWISE, P, Plot, along_axes, register
from .nn_util import compute_dtype, same_dtype, float_only

__all__ = []

# ---------------------------------------------------------------------------------------------
# Activation and LeakyReLU
# ---------------------------------------------------------------------------------------------

@jax.custom_vjp
def _relu_from_output(x):
    """max(x, 0), differentiated from its output as MXNet's relu_grad is: the gradient passes where
    the output is positive. (jax.nn.relu's rule keeps a mask and a tensor of zeros from the forward
    for the backward: two stored tensors per activation where the output, kept anyway, suffices.)"""
    return jax.nn.relu(x)


def _relu_forward(x):
    y = jax.nn.relu(x)
    return y, y


def _relu_backward(y, g):
    return (jnp.where(y > 0, g, jnp.zeros((), g.dtype)),)


_relu_from_output.defvjp(_relu_forward, _relu_backward)

_ACTIVATIONS = {
    'relu': _relu_from_output,
    'sigmoid': jax.nn.sigmoid,
    'tanh': jnp.tanh,
    'softrelu': jax.nn.softplus,
    'softsign': jax.nn.soft_sign,
    'log_sigmoid': jax.nn.log_sigmoid,
    'mish': lambda x: x * jnp.tanh(jax.nn.softplus(x)),
}


def _onnx_mish(g, x):
    return g.add('Mul', [x, g.add('Tanh', [g.add('Softplus', [x])])])


# Each act_type as ONNX nodes: fn(g, input name) -> output name.
_ONNX_ACTIVATIONS = {
    'relu': lambda g, x: g.add('Relu', [x]),
    'sigmoid': lambda g, x: g.add('Sigmoid', [x]),
    'tanh': lambda g, x: g.add('Tanh', [x]),
    'softrelu': lambda g, x: g.add('Softplus', [x]),
    'softsign': lambda g, x: g.add('Softsign', [x]),
    'log_sigmoid': lambda g, x: g.add('Log', [g.add('Sigmoid', [x])]),
    'mish': _onnx_mish,
}


def _onnx_activation(g, node):
    return _ONNX_ACTIVATIONS[node.attrs['act_type']](g, node.inputs[0])


@register('Activation', plot=Plot('activation', lambda a: 'Activation\n%s' % a['act_type']), npx=('activation',), along=ELEMENTWISE,
          onnx=_onnx_activation,
          params=[P('act_type', 'str', choices=('relu', 'sigmoid', 'softrelu', 'softsign', 'tanh'))])
def activation(data, *, act_type):
    """Elementwise activation: relu, sigmoid, tanh, softrelu (log(1 + exp(x))) or softsign
    (MXNet 1.9.1's choices: log_sigmoid and mish are operators of their own). float16 is
    computed in float32 and rounded once, as MXNet's kernels do."""
    float_only('Activation', data=data)
    return _ACTIVATIONS[act_type](data.astype(compute_dtype(data.dtype))).astype(data.dtype)


@register('log_sigmoid', methods=('log_sigmoid',), along=ELEMENTWISE)
def log_sigmoid(data):
    """Elementwise log(sigmoid(x)), computed without overflow as -softrelu(-x)."""
    return _ACTIVATIONS['log_sigmoid'](data).astype(data.dtype)


@register('mish', methods=('mish',), along=ELEMENTWISE, onnx=lambda g, node: _onnx_mish(g, node.inputs[0]))
def mish(data):
    """Elementwise Mish activation (Misra, 2019): x * tanh(log(1 + exp(x)))."""
    return _ACTIVATIONS['mish'](data).astype(data.dtype)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_LAMBDA = 1.0507009873554804934193349852946
_LEAKY_TYPES = ('leaky', 'prelu', 'elu', 'selu', 'gelu', 'rrelu')


@jax.custom_vjp
def _selu(x):
    y = x.astype(compute_dtype(x.dtype))
    if x.dtype == jnp.float16:
        # MXNet's kernel: half(lambda) * (x > 0 ? x : half(alpha * expm1(x))), products rounded to half
        lam = jnp.asarray(_SELU_LAMBDA, x.dtype).astype(y.dtype)
        neg = (_SELU_ALPHA * jnp.expm1(jnp.minimum(y, 0))).astype(x.dtype).astype(y.dtype)
        return (lam * jnp.where(y > 0, y, neg)).astype(x.dtype)
    # lambda * alpha as one constant: one rounding in float32, as MXNet's kernel (and the
    # lambda*alpha * expm1(x) its tests compare with, exactly)
    neg = (_SELU_LAMBDA * _SELU_ALPHA) * jnp.expm1(jnp.minimum(y, 0))
    return jnp.where(y < 0, neg, _SELU_LAMBDA * y).astype(x.dtype)


def _selu_fwd(x):
    out = _selu(x)
    return out, (x, out)


def _selu_bwd(res, g):
    # MXNet 1.9's gradient for x <= 0 is lambda * (out + alpha), not the derivative
    # lambda * alpha * exp(x); reproduced so that training follows MXNet (docs/MIGRATING.md).
    x, out = res
    d = jnp.where(x > 0, _SELU_LAMBDA, _SELU_LAMBDA * (out + _SELU_ALPHA))
    return ((g * d).astype(x.dtype),)


_selu.defvjp(_selu_fwd, _selu_bwd)


def _leaky_inputs(attrs):
    if attrs is None or attrs.get('act_type') == 'prelu':
        return ('data', 'gamma')
    return ('data',)


def _leaky_outputs(attrs):
    return 2 if attrs['act_type'] == 'rrelu' else 1


def _onnx_prelu(g, node):
    data, gamma = node.inputs
    ndim, n_gamma = len(node.in_shapes[0]), int(np.prod(node.in_shapes[1]))
    # ONNX broadcasts the slope from the right: one per channel of axis 1 is (C, 1, ..., 1)
    shape = (n_gamma,) + (1,) * (ndim - 2) if n_gamma > 1 else (1,)
    return g.add('PRelu', [data, _onnx.reshape_to(g, gamma, shape)])


def _onnx_gelu(g, node):
    """0.5 x (1 + erf(x / sqrt(2))), the exact GELU."""
    x, dtype = node.inputs[0], node.in_dtypes[0]
    erf = g.add('Erf', [g.add('Div', [x, g.const(np.sqrt(2.0), dtype)])])
    half_x = g.add('Mul', [x, g.const(0.5, dtype)])
    return g.add('Mul', [half_x, g.add('Add', [erf, g.const(1.0, dtype)])])


def _onnx_leaky_relu(g, node):
    act, a = node.attrs['act_type'], node.attrs
    x = node.inputs[0]
    if act == 'leaky':
        return g.add('LeakyRelu', [x], alpha=a['slope'])
    if act == 'prelu':
        return _onnx_prelu(g, node)
    if act == 'elu':
        return g.add('Elu', [x], alpha=a['slope'])
    if act == 'selu':
        return g.add('Selu', [x], alpha=_SELU_ALPHA, gamma=_SELU_LAMBDA)
    if act == 'gelu':
        return _onnx_gelu(g, node)
    if act == 'rrelu':  # inference: the mean slope
        return g.add('LeakyRelu', [x], alpha=(a['lower_bound'] + a['upper_bound']) / 2)
    raise g.unsupported(node, 'act_type %r' % act)


def _prelu_gamma_shape(gamma_shape, data_shape):
    """prelu's gamma aligned with the data as MXNet aligns it: its trailing axes on the data's
    first two (batch, channel), each equal or 1, and 1 on the others: (C,) is one slope per
    channel, (N, C) one per sample and channel, (1,) one for all."""
    out, s = [1] * len(data_shape), len(gamma_shape) - 1
    for i in range(len(data_shape) - 1, -1, -1):
        if s >= 0 and i <= 1 and gamma_shape[s] in (data_shape[i], 1):
            out[i] = gamma_shape[s]
            s -= 1
    if s != -1:
        raise MXNetError('LeakyReLU: prelu gamma %s cannot be broadcast to data %s (its axes align with the '
                         'batch and channel axes)' % (shape_str(gamma_shape), shape_str(data_shape)))
    return tuple(out)


@register('LeakyReLU', onnx=_onnx_leaky_relu, input_inits={'gamma': '["Constant", {"value": 0.25}]'}, plot=Plot('activation', lambda a: 'LeakyReLU\n%s' % a.get('act_type', 'Leaky')),
          input_shapes=_input_shapes.leaky_relu, npx=('leaky_relu',), inputs=_leaky_inputs, num_outputs=_leaky_outputs,
          output_names=lambda a: ('output', 'mask') if a['act_type'] == 'rrelu' else ('output',),
          mode_dependent=True, random=True, along=along_axes('all'),
          params=[P('act_type', 'str', 'leaky'), P('slope', 'float', 0.25), P('lower_bound', 'float', 0.125),
                  P('upper_bound', 'float', 0.334)])
def leaky_relu(data, gamma=None, *, act_type, slope, lower_bound, upper_bound, _train=False, _key=None):
    """Leaky rectifiers and relatives.

    leaky: x or slope*x for x < 0; prelu: the slope is the learnt ``gamma`` (one per
    channel of axis 1, or one for all); elu: slope*(exp(x) - 1) for x < 0; selu;
    gelu (exact, with erf); rrelu: a random slope in [lower_bound, upper_bound] per
    element in training, their mean otherwise (its second output is the slope, zero
    outside training).
    """
    float_only('LeakyReLU', data=data)
    op = 'LeakyReLU'
    # MXNet takes the negative branch at 0 too: there the gradient is the slope, not 1
    neg = ~(data > 0)
    if act_type == 'leaky':
        return jnp.where(neg, data * jnp.asarray(slope, data.dtype), data)
    if act_type == 'prelu':
        if gamma is None:
            raise MXNetError("%s: act_type 'prelu' needs the gamma input" % op)
        g = gamma.reshape(_prelu_gamma_shape(gamma.shape, data.shape))
        same_dtype(op, data, gamma=gamma)
        return jnp.where(neg, data * g.astype(data.dtype), data)
    ct = compute_dtype(data.dtype)  # elu and gelu of float16 in float32, rounded once, as MXNet
    if act_type == 'elu':
        scale = jnp.asarray(slope, data.dtype).astype(ct)
        return jnp.where(neg, (scale * jnp.expm1(jnp.where(neg, data.astype(ct), 0))).astype(data.dtype), data)
    if act_type == 'selu':
        return _selu(data)
    if act_type == 'gelu':
        return jax.nn.gelu(data.astype(ct), approximate=False).astype(data.dtype)
    if act_type == 'rrelu':
        if _train:
            slopes = jax.random.uniform(_key, data.shape, compute_dtype(data.dtype), lower_bound,
                                        upper_bound).astype(data.dtype)
            return jnp.where(neg, data * slopes, data), slopes
        mid = jnp.asarray((lower_bound + upper_bound) / 2, data.dtype)
        return jnp.where(neg, data * mid, data), jnp.zeros_like(data)
    raise MXNetError('%s: act_type must be one of %s, got %r' % (op, ', '.join(_LEAKY_TYPES), act_type))


# ---------------------------------------------------------------------------------------------
# softmax family
# ---------------------------------------------------------------------------------------------

def _softmax_inputs(attrs):
    if attrs is None or attrs.get('use_length'):
        return ('data', 'length')
    return ('data',)


_SOFTMAX_PARAMS = [P('axis', 'int', -1), P('temperature', 'float', None, optional=True),
                   P('dtype', 'dtype', None, optional=True), P('use_length', 'bool', False, optional=True)]


def _prepare(op, data, axis, temperature, dtype):
    if not -data.ndim <= axis < data.ndim:
        raise MXNetError('%s: axis %d is out of range for data %s' % (op, axis, shape_str(data.shape)))
    if dtype is not None and dtype not in ('float16', 'float32', 'float64'):
        raise MXNetError("%s: dtype must be float16, float32 or float64, got %r" % (op, dtype))
    out_dtype = jnp.dtype(dtype) if dtype is not None else data.dtype
    if jnp.issubdtype(data.dtype, jnp.integer):  # MXNet's kernel refuses them as it runs (bool passes)
        raise DeferredError('%s: This operation only support floating point types, not %s' % (op, data.dtype),
                            [(data.shape, out_dtype)])
    x = data.astype(jnp.promote_types(compute_dtype(data.dtype), compute_dtype(out_dtype)))
    if temperature is not None and temperature != 1.0:
        x = x / jnp.asarray(temperature, x.dtype)
    return x, axis % data.ndim, out_dtype


def _length_mask(op, data, length, axis):
    """True where the position along ``axis`` is below ``length`` (shaped as data without axis)."""
    expected = data.shape[:axis] + data.shape[axis + 1:]
    if length is None:
        raise MXNetError('%s: use_length=True needs the length input' % op)
    if length.shape != expected:
        raise MXNetError('%s: length %s must have the shape of data %s without axis %d, %s'
                         % (op, shape_str(length.shape), shape_str(data.shape), axis, shape_str(expected)))
    if not jnp.issubdtype(length.dtype, jnp.integer):
        raise MXNetError('%s: length must be an integer array, got %s' % (op, length.dtype))
    pos = lax.broadcasted_iota(jnp.int32, data.shape, axis)
    return pos < jnp.expand_dims(length.astype(jnp.int32), axis)


def _onnx_softmax_of(op_type, negate=False):
    """softmax-like operators: temperature divides the input; dtype casts the output."""
    def convert(g, node):
        a = node.attrs
        if a.get('use_length'):
            raise g.unsupported(node, 'use_length=True')
        x, dtype = node.inputs[0], node.in_dtypes[0]
        if negate:
            x = g.add('Neg', [x])
        if a['temperature'] is not None and a['temperature'] != 1.0:
            x = g.add('Div', [x, g.const(a['temperature'], dtype)])
        out = g.add(op_type, [x], axis=a['axis'])
        if node.out_dtypes[0] != dtype:
            out = g.add('Cast', [out], to=_onnx.tensor_type(node.out_dtypes[0]))
        return out
    return convert


# every position but along the normalised axis (with ``length``, none: its values pick the positions)
_ALONG_SOFTMAX = along_axes(lambda a, ndim: () if a['use_length'] else [x for x in range(ndim) if x != a['axis'] % ndim])


@register('softmax', npx=('softmax', 'masked_softmax'), methods=('softmax',), inputs=_softmax_inputs, params=_SOFTMAX_PARAMS,
          along=_ALONG_SOFTMAX, input_shapes=_input_shapes.softmax_length,
          onnx=_onnx_softmax_of('Softmax'))
def softmax(data, length=None, *, axis, temperature, dtype, use_length):
    """exp(x / temperature) normalised along ``axis``; with ``use_length`` only the first
    ``length`` positions take part (the rest are 0)."""
    x, ax, out_dtype = _prepare('softmax', data, axis, temperature, dtype)
    if use_length:
        mask = _length_mask('softmax', data, length, ax)
        out = jax.nn.softmax(jnp.where(mask, x, -jnp.inf), axis=ax)
        return jnp.where(mask, out, 0).astype(out_dtype)
    return jax.nn.softmax(x, axis=ax).astype(out_dtype)


@register('log_softmax', npx=('log_softmax',), methods=('log_softmax',), params=_SOFTMAX_PARAMS, along=_ALONG_SOFTMAX,
          onnx=_onnx_softmax_of('LogSoftmax'))
def log_softmax(data, *, axis, temperature, dtype, use_length):
    """log(softmax(x / temperature)) along ``axis``, computed stably."""
    x, ax, out_dtype = _prepare('log_softmax', data, axis, temperature, dtype)
    return jax.nn.log_softmax(x, axis=ax).astype(out_dtype)


@register('softmin', npx=('softmin',), methods=('softmin',), params=_SOFTMAX_PARAMS, along=_ALONG_SOFTMAX,
          onnx=_onnx_softmax_of('Softmax', negate=True))
def softmin(data, *, axis, temperature, dtype, use_length):
    """softmax of -x / temperature along ``axis``."""
    x, ax, out_dtype = _prepare('softmin', data, axis, temperature, dtype)
    return jax.nn.softmax(-x, axis=ax).astype(out_dtype)


@register('SoftmaxActivation', params=[P('mode', 'str', 'instance')])
def softmax_activation(data, *, mode):
    """softmax over the last axis ('instance') or over the channels, axis 1 ('channel').

    With more than 2-D data in 'instance' mode the gradient is MXNet 1.9's, which sums over
    axis 1 instead of the last axis (see _softmax_instance_bwd).
    """
    float_only('SoftmaxActivation', data=data)
    if mode not in ('instance', 'channel'):
        raise MXNetError("SoftmaxActivation: mode must be 'instance' or 'channel', got %r" % mode)
    if mode == 'channel' and data.ndim < 2:
        raise MXNetError('SoftmaxActivation: channel mode needs at least 2-D data, got %s'
                         % shape_str(data.shape))
    if mode == 'instance' and data.ndim > 2:
        return _softmax_instance(data)
    ct = compute_dtype(data.dtype)
    return jax.nn.softmax(data.astype(ct), axis=1 if mode == 'channel' else -1).astype(data.dtype)


@jax.custom_vjp
def _softmax_instance(x):
    return jax.nn.softmax(x.astype(compute_dtype(x.dtype)), axis=-1).astype(x.dtype)


def _softmax_instance_fwd(x):
    y = _softmax_instance(x)
    return y, y


def _softmax_instance_bwd(y, g):
    # MXNet 1.9 normalises over the last axis but back-propagates with the sum over axis 1,
    # as for 'channel' mode: y * (g - sum(g * y, axis=1)). Reproduced, as selu's gradient is.
    ct = compute_dtype(y.dtype)
    yc, gc = y.astype(ct), g.astype(ct)
    s = jnp.sum(gc * yc, axis=1, keepdims=True)
    return ((yc * (gc - s)).astype(y.dtype),)


_softmax_instance.defvjp(_softmax_instance_fwd, _softmax_instance_bwd)


# ---------------------------------------------------------------------------------------------
# Dropout
# ---------------------------------------------------------------------------------------------

# In inference Dropout is the identity: its ONNX value is its input.
@register('Dropout', npx=('dropout',), onnx=lambda g, node: node.inputs[0], num_outputs=2, num_visible_outputs=1, output_names=('output', 'mask'),
          mode_dependent=True, random=True, along=ELEMENTWISE,
          params=[P('p', 'float', 0.5), P('mode', 'str', 'training'), P('axes', 'shape', ()),
                  P('cudnn_off', 'bool', False, optional=True)])
def dropout(data, *, p, mode, axes, cudnn_off, _train=False, _key=None):
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p).

    Only in training unless mode='always'; elsewhere the identity. With ``axes`` one
    draw is shared along those axes (the mask has size 1 there). The hidden second
    output is the scaled mask.
    """
    float_only('Dropout', data=data)
    op = 'Dropout'
    if mode not in ('training', 'always'):
        raise MXNetError("%s: mode must be 'training' or 'always', got %r" % (op, mode))
    if not 0 <= p <= 1:
        raise MXNetError('%s: p must be in [0, 1], got %g' % (op, p))
    if not (_train or mode == 'always') or p == 0:
        return data, jnp.ones_like(data)
    shape = list(data.shape)
    for a in axes:
        if not -data.ndim <= a < data.ndim:
            raise MXNetError('%s: axis %d of axes is out of range for data %s' % (op, a, shape_str(data.shape)))
        shape[a % data.ndim] = 1
    if p == 1:  # MXNet scales the all-zero mask by 1/0: every output and gradient is NaN
        mask = jnp.full(shape, jnp.nan, data.dtype)
    else:
        keep = jax.random.bernoulli(_key, 1.0 - p, tuple(shape))
        mask = jnp.where(keep, jnp.asarray(1.0 / (1.0 - p), data.dtype), jnp.zeros((), data.dtype))
    return data * mask, jnp.broadcast_to(mask, data.shape)


# ---------------------------------------------------------------------------------------------
# Embedding
# ---------------------------------------------------------------------------------------------

def _onnx_embedding(g, node):
    """Rows of weight at the indices truncated to integers (ONNX's Cast truncates, as MXNet)."""
    data, weight = node.inputs
    return g.add('Gather', [weight, g.add('Cast', [data], to=_onnx.tensor_type('int64'))], axis=0)


@register('Embedding', onnx=_onnx_embedding, input_shapes=_input_shapes.embedding, npx=('embedding',), inputs=('data', 'weight'),
          along=along_axes('all'),
          params=[P('input_dim', 'int'), P('output_dim', 'int'), P('dtype', 'dtype', 'float32'),
                  P('sparse_grad', 'bool', False)])
def embedding(data, weight, *, input_dim, output_dim, dtype, sparse_grad):
    """Rows of ``weight`` (input_dim, output_dim) picked by ``data``.

    Indices may be floats (MXNet's default); they are truncated to integers and clipped
    into [0, input_dim - 1], as MXNet does. The output is data.shape + (output_dim,).
    """
    op = 'Embedding'
    if weight.shape != (input_dim, output_dim):
        raise MXNetError('%s: shape inconsistent for weight, provided %s, inferred %s (input_dim=%d, '
                         'output_dim=%d)' % (op, shape_str(weight.shape), shape_str((input_dim, output_dim)),
                                             input_dim, output_dim))
    idx = data if jnp.issubdtype(data.dtype, jnp.integer) else jnp.trunc(data)
    idx = jnp.clip(idx, 0, input_dim - 1).astype(jnp.int32)
    return jnp.take(weight, idx, axis=0)
