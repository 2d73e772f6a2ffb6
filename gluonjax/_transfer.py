"""Host (NumPy) arrays onto one device, at a small fraction of ``jax.device_put``'s cost.

``jax.device_put`` runs a general path for every call (pytrees, shardings of any kind, the
canonical dtype, a new aval): measured with jax 0.10.2 on this project's 2-core machine at load
8, 720 us for a (3, 4) float32 array, against 43 us for the batched transfer that path ends in.
gluonjax puts thousands of small fresh arrays per second on its first-call paths (ops/_host.py:
every result of a host form, every padded bucket) and in ``nd.array``, so that difference is
most of a first call's cost.

:func:`put` takes the direct transfer for a NumPy array whose dtype jax keeps as it is under
the current x64 setting, placed on one device; anything else goes through ``jax.device_put``.
The direct call is jax-internal (``jax._src.interpreters.pxla.batched_device_put``): where a
jax release moves or changes it, the import or the first call fails and every call takes
``jax.device_put`` (checked once). Both may share memory with a large input on the CPU, as
``jax.device_put`` does: callers pass arrays they own.
"""
import jax
import numpy as np

__all__ = ['put']

_direct = []  # [the batched transfer, the aval type, the canonical dtype rule], or [] until checked


def _setup():
    try:
        from jax._src import core, dtypes
        from jax._src.interpreters.pxla import batched_device_put
        device = jax.devices('cpu')[0]
        probe = np.arange(3, dtype=np.float32)
        got = batched_device_put(core.ShapedArray(probe.shape, probe.dtype),
                                 jax.sharding.SingleDeviceSharding(device), [probe], [device])
        if not (isinstance(got, jax.Array) and np.array_equal(np.asarray(got), probe)):
            raise TypeError('unexpected result')
    except Exception:  # another jax: the public path only
        _direct.append(None)
        return
    _direct.extend([batched_device_put, core.ShapedArray, dtypes.canonicalize_dtype])


def put(host, place):
    """``host`` (a NumPy array the caller owns) as a jax array on ``place`` (a Device or a
    single-device Sharding), as ``jax.device_put(host, place)`` makes it."""
    if not _direct:
        _setup()
    transfer = _direct[0]
    if transfer is None or type(host) is not np.ndarray:
        return jax.device_put(host, place)
    if isinstance(place, jax.sharding.SingleDeviceSharding):
        sharding, device = place, next(iter(place.device_set))
    elif isinstance(place, jax.Device):
        sharding, device = _sharding_of(place), place
    else:
        return jax.device_put(host, place)
    aval_type, canonical = _direct[1], _direct[2]
    if canonical(host.dtype) != host.dtype:  # a 64-bit dtype with x64 off: jax's own narrowing
        return jax.device_put(host, place)
    return transfer(aval_type(host.shape, host.dtype), sharding, [host], [device])


_shardings = {}


def _sharding_of(device):
    sharding = _shardings.get(device)
    if sharding is None:
        sharding = _shardings[device] = jax.sharding.SingleDeviceSharding(device)
    return sharding
