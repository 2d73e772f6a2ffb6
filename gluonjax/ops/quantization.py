"""MXNet's int8 quantization operators (``mx.nd.contrib.quantize``, ``quantize_v2``, ``dequantize``,
``requantize``, ``quantized_act/flatten/fully_connected/pooling/elemwise_add/embedding``) that MXNet
1.9.1 runs on a CPU, with its CPU kernels' numbers.

A quantized tensor travels with its real range as two float32 arrays of one value (min, max);
R = max(|min|, |max|) is the real value of the largest code. quantize and requantize scale by
127 / R (int8) or 255 / R (uint8), quantize_v2 by 127.5 / R or 255.5 / R, all rounding half to
even and clipping to the type (0.7 of 1.0 is 178 as uint8, -2 is -128 as int8); dequantize
multiplies back by R / 127.5 or R / 255.5. An int32 tensor's largest code (2^31 - 1) stands for
its R.
"""
import jax.numpy as jnp
import numpy

from ..base import MXNetError, shape_str
from ._registry import P, get_op, register
from .elemwise import exact_divide
from .nn_pool import pooling

_INT32_MAX = 2147483647.0
_OUT_TYPES = ('auto', 'int8', 'uint8')
_CALIB = [P('min_calib_range', 'float', None, optional=True), P('max_calib_range', 'float', None, optional=True)]
_F32 = jnp.float32


def _dtype_name(x):
    return numpy.dtype(x.dtype).name


def _require_dtype(op, x, allowed, what='data'):
    if _dtype_name(x) not in allowed:
        raise MXNetError('%s: %s must be %s, got %s' % (op, what, ' or '.join(allowed), _dtype_name(x)))


def _real_range(op, lo, hi):
    """R of a (min, max) pair of one-value arrays (shape (1,) or ()), as a float32 scalar."""
    for name, r in (('min', lo), ('max', hi)):
        if r.size != 1 or r.ndim > 1:
            raise MXNetError('%s: the %s range must hold one value, shape (1,), got %s' % (op, name, shape_str(r.shape)))
    return jnp.maximum(jnp.abs(lo), jnp.abs(hi)).astype(_F32).reshape(())


def _calibrated(min_calib_range, max_calib_range):
    """Calibration counts only when both ends are given (MXNet ignores one alone)."""
    return min_calib_range is not None and max_calib_range is not None


def _resolve_out_type(out_type, calibrated, min_calib_range):
    """'auto' is uint8 for a calibrated range that starts at or above zero, else int8."""
    if out_type != 'auto':
        return out_type
    return 'uint8' if calibrated and min_calib_range >= 0 else 'int8'


def _codes(real, scale, out_type):
    lo, hi = (-128, 127) if out_type == 'int8' else (0, 255)
    return jnp.clip(jnp.rint(real * scale), lo, hi).astype(out_type)


def _one(v):
    return jnp.asarray(v, _F32).reshape(1)


def _div(a, b):
    """a / b in float32, correctly rounded (XLA would multiply by a constant's reciprocal)."""
    return exact_divide(jnp.asarray(a, _F32), jnp.asarray(b, _F32))


@register('_contrib_quantize', inputs=('data', 'min_range', 'max_range'), num_outputs=3,
          params=[P('out_type', 'str', 'uint8', choices=('int8', 'uint8'))])
def quantize(data, min_range, max_range, *, out_type):
    """(codes, min, max) of float32 data over the range given: int8 codes stand for (-R, R),
    uint8 codes for the range as given."""
    _require_dtype('quantize', data, ('float32',))
    real = _real_range('quantize', min_range, max_range)
    if out_type == 'int8':
        return _codes(data, _div(127, real), 'int8'), -real.reshape(1), real.reshape(1)
    return _codes(data, _div(255, real), 'uint8'), min_range.astype(_F32), max_range.astype(_F32)


@register('_contrib_dequantize', inputs=('data', 'min_range', 'max_range'),
          params=[P('out_type', 'str', 'float32', choices=('float32',))])
def dequantize(data, min_range, max_range, *, out_type):
    """int8 or uint8 codes back to float32 over the range given."""
    _require_dtype('dequantize', data, ('int8', 'uint8'))
    top = 127.5 if _dtype_name(data) == 'int8' else 255.5
    return data.astype(_F32) * _div(_real_range('dequantize', min_range, max_range), top)


@register('_contrib_quantize_v2', num_outputs=3,
          params=[P('out_type', 'str', 'int8', choices=_OUT_TYPES)] + _CALIB)
def quantize_v2(data, *, out_type, min_calib_range, max_calib_range):
    """(codes, min, max) of float32 data over the calibrated range, else the data's own range;
    int8 or uint8 data of the type asked for passes through."""
    calibrated = _calibrated(min_calib_range, max_calib_range)
    out_type = _resolve_out_type(out_type, calibrated, min_calib_range)
    name = _dtype_name(data)
    if name in ('int8', 'uint8'):
        if name != out_type:
            raise MXNetError('quantize_v2: %s data cannot be quantized to %s' % (name, out_type))
        full = (-127.5, 127.5) if name == 'int8' else (0.0, 255.5)
        lo, hi = (min_calib_range, max_calib_range) if calibrated else full
        return data, _one(lo), _one(hi)
    _require_dtype('quantize_v2', data, ('float32',))
    if data.size == 0:
        raise MXNetError('quantize_v2: data is empty, shape %s' % shape_str(data.shape))
    if calibrated:
        lo, hi = _one(min_calib_range), _one(max_calib_range)
    else:
        lo, hi = jnp.min(data).reshape(1), jnp.max(data).reshape(1)
    real = _real_range('quantize_v2', lo, hi)
    if out_type == 'int8':
        return _codes(data, _div(127.5, real), 'int8'), -real.reshape(1), real.reshape(1)
    return _codes(data, _div(255.5, real), 'uint8'), lo, hi


@register('_contrib_requantize', inputs=('data', 'min_range', 'max_range'), num_outputs=3,
          params=[P('out_type', 'str', 'int8', choices=_OUT_TYPES)] + _CALIB)
def requantize(data, min_range, max_range, *, out_type, min_calib_range, max_calib_range):
    """int32 codes (a quantized layer's output) as int8/uint8 codes over the calibrated range,
    else over the range the values actually reach."""
    _require_dtype('requantize', data, ('int32',))
    real = data.astype(_F32) * _div(_real_range('requantize', min_range, max_range), _INT32_MAX)
    calibrated = _calibrated(min_calib_range, max_calib_range)
    out_type = _resolve_out_type(out_type, calibrated, min_calib_range)
    if calibrated:
        reach = jnp.maximum(jnp.abs(_F32(min_calib_range)), jnp.abs(_F32(max_calib_range)))
    else:
        reach = jnp.maximum(jnp.abs(jnp.min(real)), jnp.abs(jnp.max(real)))
    if out_type == 'int8':
        return _codes(real, _div(127, reach), 'int8'), _one(-reach), _one(reach)
    return _codes(real, _div(255, reach), 'uint8'), _one(0.0), _one(reach)


@register('_contrib_quantized_act', inputs=('data', 'min_data', 'max_data'), num_outputs=3,
          params=[P('act_type', 'str', choices=('relu', 'sigmoid', 'softrelu', 'softsign', 'tanh'))])
def quantized_act(data, min_data, max_data, *, act_type):
    """ReLU of int8 codes (the only activation MXNet quantizes); the range is kept."""
    if act_type != 'relu':
        raise MXNetError('quantized_act: act_type %r is not supported, only relu' % act_type)
    _require_dtype('quantized_act', data, ('int8',))
    return jnp.maximum(data, 0).astype(data.dtype), min_data, max_data


@register('_contrib_quantized_flatten', inputs=('data', 'min_data', 'max_data'), num_outputs=3)
def quantized_flatten(data, min_data, max_data):
    """Flatten of codes of any type to (batch, -1); the range is kept."""
    return data.reshape(data.shape[:1] + (-1,)), min_data, max_data


def _fc_inputs(attrs):
    if attrs is not None and attrs['no_bias']:
        return ('data', 'weight', 'min_data', 'max_data', 'min_weight', 'max_weight')
    return ('data', 'weight', 'bias', 'min_data', 'max_data', 'min_weight', 'max_weight', 'min_bias', 'max_bias')


@register('_contrib_quantized_fully_connected', inputs=_fc_inputs, num_outputs=3,
          params=[P('num_hidden', 'int'), P('no_bias', 'bool', False), P('flatten', 'bool', True)])
def quantized_fully_connected(*arrays, num_hidden, no_bias, flatten):
    """int8 data times int8 weights, accumulated in int32, plus the int8 bias rescaled to the
    product's scale (truncated); the int32 range is that of the product of the two ranges."""
    if no_bias:
        data, weight, min_d, max_d, min_w, max_w = arrays
    else:
        data, weight, bias, min_d, max_d, min_w, max_w, min_b, max_b = arrays
    for name, x in (('data', data), ('weight', weight)) + (() if no_bias else (('bias', bias),)):
        _require_dtype('quantized_fully_connected', x, ('int8',), name)
    if weight.shape[0] != num_hidden:
        raise MXNetError('quantized_fully_connected: weight %s does not have num_hidden=%d rows'
                         % (shape_str(weight.shape), num_hidden))
    rows = data.reshape(data.shape[0], -1) if flatten else data
    out = jnp.matmul(rows.astype(jnp.int32), weight.astype(jnp.int32).T)
    r_d, r_w = _real_range('quantized_fully_connected', min_d, max_d), _real_range('quantized_fully_connected', min_w, max_w)
    if not no_bias:
        r_b = _real_range('quantized_fully_connected', min_b, max_b)
        scale = _div(_div(127.5, r_d) * _div(127.5, r_w), _div(127.5, r_b))
        out = out + jnp.trunc(bias.astype(_F32) * scale).astype(jnp.int32)
    reach = _F32(_INT32_MAX) * _div(r_d, 127) * _div(r_w, 127)
    return out, _one(-reach), _one(reach)


@register('_contrib_quantized_pooling', inputs=('data', 'min_data', 'max_data'), num_outputs=3,
          params=list(get_op('Pooling').params))
def quantized_pooling(data, min_data, max_data, **params):
    """Pooling of int8/uint8 codes: the maximum, or the average rounded half to even (the
    windows as Pooling's); the range is kept."""
    _require_dtype('quantized_pooling', data, ('int8', 'uint8'))
    pooled = pooling(data.astype(_F32), **params)
    return jnp.rint(pooled).astype(data.dtype), min_data, max_data


@register('_contrib_quantized_elemwise_add', inputs=('lhs', 'rhs', 'lhs_min', 'lhs_max', 'rhs_min', 'rhs_max'),
          num_outputs=3, params=_CALIB)
def quantized_elemwise_add(lhs, rhs, lhs_min, lhs_max, rhs_min, rhs_max, *, min_calib_range, max_calib_range):
    """The sum of two int8 tensors: int32 codes over the sum of their ranges, or int8 codes over
    the calibrated range. Each term is rounded to float32 before the float32 sum, as MXNet's
    kernel adds (computed in float64 and rounded, so that no fused multiply-add changes it)."""
    for name, x in (('lhs', lhs), ('rhs', rhs)):
        _require_dtype('quantized_elemwise_add', x, ('int8',), name)
    r_l = _real_range('quantized_elemwise_add', lhs_min, lhs_max).astype(jnp.float64)
    r_r = _real_range('quantized_elemwise_add', rhs_min, rhs_max).astype(jnp.float64)
    if _calibrated(min_calib_range, max_calib_range):
        reach = max(abs(min_calib_range), abs(max_calib_range))
        real = lhs * (r_l / 127.5) + rhs * (r_r / 127.5)
        return _codes(real, 127.5 / reach, 'int8'), _one(min_calib_range), _one(max_calib_range)
    reach = r_l.astype(_F32) + r_r.astype(_F32)
    per_unit = _div(_INT32_MAX, reach)

    def term(x, r):  # the code times its float32 scale, rounded to float32
        scale = _div(r, 127.5) * per_unit
        return (x * scale.astype(jnp.float64)).astype(_F32).astype(jnp.float64)
    total = (term(lhs, r_l) + term(rhs, r_r)).astype(_F32)
    return jnp.rint(total).astype(jnp.int32), _one(-reach), _one(reach)


@register('_contrib_quantized_embedding', inputs=('data', 'weight', 'min_weight', 'max_weight'), num_outputs=3,
          params=[P('input_dim', 'int'), P('output_dim', 'int'), P('dtype', 'str', 'float32'),
                  P('sparse_grad', 'bool', False)])
def quantized_embedding(data, weight, min_weight, max_weight, *, input_dim, output_dim, dtype, sparse_grad):
    """Rows of int8 weights looked up by index (clipped to the table); the range is the weights'."""
    _require_dtype('quantized_embedding', weight, ('int8',), 'weight')
    if weight.shape != (input_dim, output_dim):
        raise MXNetError('quantized_embedding: weight %s is not (input_dim, output_dim) = (%d, %d)'
                         % (shape_str(weight.shape), input_dim, output_dim))
    rows = jnp.clip(data.astype(jnp.int32), 0, input_dim - 1)
    return jnp.take(weight, rows, axis=0), min_weight, max_weight
