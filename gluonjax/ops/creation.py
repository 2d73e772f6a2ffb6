"""Creation operators: arrays made from parameters alone (they run on the ctx's device)."""
import math

import jax.numpy as jnp
import numpy as np

from ..base import MXNetError
from ._registry import P, register

_DT = [P('ctx', 'str', ''), P('dtype', 'dtype', 'float32')]


def _shape_params():
    return [P('shape', 'shape', ())] + _DT


@register('_zeros', inputs=(), params=_shape_params(), aliases=('zeros',), creation=True)
def _zeros(*, shape, ctx, dtype):
    return jnp.zeros(shape, dtype)


@register('_ones', inputs=(), params=_shape_params(), aliases=('ones',), creation=True)
def _ones(*, shape, ctx, dtype):
    return jnp.ones(shape, dtype)


@register('_full', inputs=(), params=_shape_params() + [P('value', 'float')], aliases=('full',),
          creation=True, dynamic_params=('value',))
def _full(*, shape, ctx, dtype, value):
    return jnp.full(shape, value, dtype)


@register('_empty', inputs=(), params=_shape_params(), creation=True)
def _empty(*, shape, ctx, dtype):
    return jnp.zeros(shape, dtype)


def arange_length(start, stop, step, repeat):
    if stop is None:
        start, stop = 0.0, start
    if step == 0:
        raise MXNetError('arange: step must not be 0')
    n = int(math.ceil((stop - start) / step))
    return max(n, 0) * repeat, start, stop


@register('_arange', inputs=(), aliases=('arange',), creation=True,
          params=[P('start', 'float'), P('stop', 'float', None, optional=True), P('step', 'float', 1.0),
                  P('repeat', 'int', 1), P('infer_range', 'bool', False)] + _DT)
def _arange(*, start, stop, step, repeat, infer_range, ctx, dtype):
    n, start, stop = arange_length(start, stop, step, repeat)
    # Computed in float64 on the host side of tracing so that float32 results match numpy exactly.
    values = np.repeat(start + step * np.arange(n // max(repeat, 1), dtype=np.float64), repeat)
    return jnp.asarray(values.astype(dtype))


@register('_eye', inputs=(), aliases=('eye',), creation=True,
          params=[P('N', 'int'), P('M', 'int', 0), P('k', 'int', 0)] + _DT)
def _eye(*, N, M, k, ctx, dtype):
    return jnp.eye(N, M if M > 0 else N, k, dtype=dtype)


@register('_linspace', inputs=(), aliases=('linspace',), creation=True,
          params=[P('start', 'float'), P('stop', 'float'), P('num', 'int'), P('endpoint', 'bool', True)] + _DT)
def _linspace(*, start, stop, num, endpoint, ctx, dtype):
    return jnp.asarray(np.linspace(start, stop, num, endpoint=endpoint).astype(dtype))


@register('zeros_like')
def zeros_like(data):
    return jnp.zeros_like(data)


@register('ones_like')
def ones_like(data):
    return jnp.ones_like(data)
