"""Casts of automatic mixed precision (``mx.contrib.amp``): ``amp_cast`` and ``amp_multicast``.

Unlike ``Cast`` they leave non-float inputs alone (indices, masks), so AMP can put them in
front of any operator; their gradient is cast back to the input's dtype (jax's ``astype``
vjp), so float32 parameters receive float32 gradients.
"""
import jax.numpy as jnp
import numpy as np

from ..base import MXNetError
from ._registry import P, register


def _is_float(dtype):
    return jnp.issubdtype(dtype, jnp.floating)


@register('amp_cast', params=[P('dtype', 'dtype')])
def amp_cast(data, *, dtype):
    """``data`` cast to ``dtype`` when both are float types; any other input unchanged."""
    target = np.dtype(dtype)
    if not _is_float(data.dtype) or not _is_float(target):
        return data
    return data.astype(target)


@register('amp_multicast', variadic=True, num_args_param='num_outputs',
          num_outputs=lambda attrs: attrs['num_outputs'],
          params=[P('num_outputs', 'int'), P('cast_narrow', 'bool', False)])
def amp_multicast(*data, num_outputs, cast_narrow):
    """The float inputs cast to their widest float type (the narrowest with ``cast_narrow``),
    so an operator that needs one dtype gets it; non-float inputs unchanged."""
    if num_outputs != len(data):
        raise MXNetError('amp_multicast: num_outputs=%d but %d arrays were given' % (num_outputs, len(data)))
    floats = [x.dtype for x in data if _is_float(x.dtype)]
    if not floats:
        return tuple(data)
    pick = min if cast_narrow else max
    target = pick(floats, key=lambda d: (np.dtype(d).itemsize, np.dtype(d) != jnp.bfloat16))
    return tuple(x.astype(target) if _is_float(x.dtype) else x for x in data)
