"""Creation operators: arrays made from parameters alone (they run on the ctx's device)."""
import math

import jax.numpy as jnp
import numpy as np

from ..base import MXNetError
from . import _onnx
from ._host import Fallback, moves
from ._registry import ELEMENTWISE, Np, P, register

_DT = [P('ctx', 'str', ''), P('dtype', 'dtype', 'float32')]


def _shape_params():
    return [P('shape', 'shape', ())] + _DT


@register('_zeros', inputs=(), along=ELEMENTWISE, params=_shape_params(), aliases=('zeros',), creation=True,
          np=(Np("zeros(shape, dtype=None, order='C', ctx=None)", aliases=('empty',), unsupported=('order',)),),
          host=lambda *, shape, ctx, dtype: np.zeros(shape, dtype))
def _zeros(*, shape, ctx, dtype):
    return jnp.zeros(shape, dtype)


@register('_ones', inputs=(), along=ELEMENTWISE, params=_shape_params(), aliases=('ones',), creation=True,
          np=(Np("ones(shape, dtype=None, order='C', ctx=None)", unsupported=('order',)),),
          host=lambda *, shape, ctx, dtype: np.ones(shape, dtype))
def _ones(*, shape, ctx, dtype):
    return jnp.ones(shape, dtype)


def _host_full(*, shape, ctx, dtype, value):
    """``_full`` in NumPy, for values every dtype holds exactly as jax converts them (finite;
    whole numbers for integers and booleans)."""
    if not math.isfinite(value) or (np.dtype(dtype).kind in 'iub' and value != int(value)):
        raise Fallback('full of %r' % value)
    return np.full(shape, value, dtype)


@register('_full', inputs=(), along=ELEMENTWISE, params=_shape_params() + [P('value', 'float')], aliases=('full',),
          creation=True, dynamic_params=('value',), host=_host_full)
def _full(*, shape, ctx, dtype, value):
    return jnp.full(shape, value, dtype)


@register('_empty', inputs=(), params=_shape_params(), creation=True,
          host=lambda *, shape, ctx, dtype: np.zeros(shape, dtype))
def _empty(*, shape, ctx, dtype):
    return jnp.zeros(shape, dtype)


def arange_length(start, stop, step, repeat):
    """(length, start, stop) of MXNet's arange; an empty or endless range is an error, as in MXNet."""
    if stop is None:
        start, stop = 0.0, start
    if step == 0:
        raise MXNetError('arange: step must not be 0')
    if (step > 0 and not start < stop) or (step < 0 and not start > stop):
        raise MXNetError('arange: invalid range (start, stop, step) = (%g, %g, %g): it holds no element'
                         % (start, stop, step))
    n = int(math.ceil((stop - start) / step))
    return n * repeat, start, stop


@register('_arange', inputs=(), aliases=('arange',), creation=True,
          params=[P('start', 'float'), P('stop', 'float', None, optional=True), P('step', 'float', 1.0),
                  P('repeat', 'int', 1), P('infer_range', 'bool', False)] + _DT)
def _arange(*, start, stop, step, repeat, infer_range, ctx, dtype):
    n, start, stop = arange_length(start, stop, step, repeat)
    # start + i * step computed in the output dtype, as MXNet's kernel does (0.1 * 9 is 0.90000004
    # in float32), on the host while tracing.
    dt = np.dtype(dtype)
    with np.errstate(over='ignore'):  # unsigned dtypes wrap around, as MXNet's kernel does
        values = _c_cast(start, dt) + np.arange(n // max(repeat, 1)).astype(dt) * _c_cast(step, dt)
    return jnp.asarray(np.repeat(values.astype(dt), repeat))


def _c_cast(value, dt):
    """A Python number as C casts it to ``dt``: integers truncated, then wrapped into the dtype's
    range (arange(50, -50, -2, dtype='uint8') steps by 254, counting down modulo 256)."""
    if dt.kind in 'iub':
        return np.array(int(value), dtype=np.int64).astype(dt)
    return dt.type(value)


@register('_eye', inputs=(), aliases=('eye',), creation=True,
          params=[P('N', 'int'), P('M', 'int', 0), P('k', 'int', 0)] + _DT)
def _eye(*, N, M, k, ctx, dtype):
    """nd.eye: M=0 means M=N."""
    return jnp.eye(N, M if M > 0 else N, k, dtype=dtype)


@register('_npi_eye', inputs=(), creation=True, np=(Np('eye(N, M=None, k=0, dtype=None, ctx=None)'),),
          params=[P('N', 'int'), P('M', 'int', None, optional=True), P('k', 'int', 0)] + _DT)
def _npi_eye(*, N, M, k, ctx, dtype):
    """np.eye: only M=None means M=N (np.eye(4, 0) is empty); negative sizes are errors."""
    M = N if M is None else M
    if N < 0 or M < 0:
        raise MXNetError('_npi_eye: negative dimensions are not allowed, got N=%d, M=%d' % (N, M))
    return jnp.eye(N, M, k, dtype=dtype)


@register('_linspace', inputs=(), aliases=('linspace',), creation=True,
          params=[P('start', 'float'), P('stop', 'float'), P('num', 'int'), P('endpoint', 'bool', True)] + _DT)
def _linspace(*, start, stop, num, endpoint, ctx, dtype):
    if num < 0:
        raise MXNetError('linspace: num must be non-negative, got %d' % num)
    # numpy's rule for integer dtypes: values rounded towards -inf, not truncated
    return jnp.asarray(np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype))


def _onnx_filled_like(value):
    """A constant expanded to the input's shape (read at run time, so a dynamic batch passes)."""
    def convert(g, node):
        return g.add('Expand', [g.const(value, node.in_dtypes[0]), g.add('Shape', node.inputs)])
    return convert


@register('zeros_like', methods=('zeros_like',), along=ELEMENTWISE, onnx=_onnx_filled_like(0), host=moves(np.zeros_like))
def zeros_like(data):
    return jnp.zeros_like(data)


@register('ones_like', methods=('ones_like',), along=ELEMENTWISE, onnx=_onnx_filled_like(1), host=moves(np.ones_like))
def ones_like(data):
    return jnp.ones_like(data)


@register('_contrib_arange_like', npx=('arange_like',),
          params=[P('start', 'float', 0.0), P('step', 'float', 1.0), P('repeat', 'int', 1), P('ctx', 'str', ''),
                  P('axis', 'int', None, optional=True)])
def _arange_like(data, *, start, step, repeat, ctx, axis):
    """start + (i // repeat) * step in ``data``'s dtype: over the whole shape of ``data`` (i counts
    its elements in order), or 1-D along ``axis``."""
    if repeat < 1:
        raise MXNetError('arange_like: repeat must be positive, got %d' % repeat)
    if axis is None:
        shape = data.shape
    elif -data.ndim <= axis < data.ndim:
        shape = (data.shape[axis],)
    else:
        raise MXNetError('arange_like: axis %d is out of range for data of %d dimensions' % (axis, data.ndim))
    n = math.prod(shape)
    dt = np.dtype(data.dtype)
    values = dt.type(start) + (np.arange(n) // repeat).astype(dt) * dt.type(step)
    return jnp.asarray(values.astype(dt).reshape(shape))
