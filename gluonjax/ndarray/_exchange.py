"""Exchanging arrays with other libraries: DLPack capsules and numpy arrays (``mx.nd.from_dlpack``,
``to_dlpack_for_read``/``_for_write``, ``from_numpy``).

A DLPack capsule hands over the jax buffer itself, without a copy. jax arrays are immutable, so a
library writing through a ``to_dlpack_for_write`` capsule writes the buffer of that one NDArray:
arrays sharing memory with it in gluonjax (basic slices, reshapes) do not see the write.
"""
import jax
import jax.dlpack
import numpy as np

from .. import _caches
from ..base import MXNetError
from ..context import current_context
from .ndarray import NDArray, array, share_host_buffer

__all__ = ['from_dlpack', 'to_dlpack_for_read', 'to_dlpack_for_write', 'from_numpy']

_DLPACK_CPU = 1  # DLDeviceType kDLCPU


class _Capsule:
    """A bare DLPack capsule (what MXNet's to_dlpack functions return) in the form jax takes:
    an object with ``__dlpack__``. The device is read from the capsule's producer: gluonjax's
    own capsules come from ``_exported``."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


# id(capsule) -> DLPack device of the array it was made from (bounded: capsules never consumed)
_exported = _caches.lru_cache('ndarray.dlpack_devices', 256)


def _export(arr, who):
    if not isinstance(arr, NDArray) or arr._sparse:
        raise MXNetError('%s: a dense NDArray is needed, got %s' % (who, type(arr).__name__))
    arr.wait_to_read()
    capsule = arr._data.__dlpack__()
    _exported[id(capsule)] = arr._data.__dlpack_device__()
    return capsule


def to_dlpack_for_read(data):
    """A DLPack capsule of ``data``'s buffer (no copy), after its pending computation."""
    return _export(data, 'to_dlpack_for_read')


def to_dlpack_for_write(data):
    """A DLPack capsule of ``data``'s buffer, for a library to write into (see the module note)."""
    return _export(data, 'to_dlpack_for_write')


def from_dlpack(dlpack):
    """An NDArray over a DLPack capsule's buffer, or over any object with ``__dlpack__``."""
    if not hasattr(dlpack, '__dlpack__'):
        if type(dlpack).__name__ != 'PyCapsule':
            raise TypeError('from_dlpack: expected a DLPack capsule or an object with __dlpack__, got %s'
                            % type(dlpack).__name__)
        dlpack = _Capsule(dlpack, _exported.get(id(dlpack), (_DLPACK_CPU, 0)))
    data = jax.dlpack.from_dlpack(dlpack)
    return NDArray._from_jax(data)


def from_numpy(ndarray, zero_copy=True):
    """An NDArray with the contents of a C-contiguous numpy array. With ``zero_copy`` MXNet takes
    over the numpy buffer and makes the numpy array read-only; gluonjax does the same, and each
    later write to the NDArray (setitem, ``+=``, ``out=``) is copied into the numpy array."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError('from_numpy: expected a numpy.ndarray, got %s' % type(ndarray).__name__)
    if not ndarray.flags['C_CONTIGUOUS']:
        raise ValueError('from_numpy: only C-contiguous arrays are supported (use np.ascontiguousarray)')
    if not zero_copy:
        return array(ndarray, dtype=ndarray.dtype)
    ndarray.flags['WRITEABLE'] = False
    ctx = current_context()
    out = NDArray._from_jax(jax.device_put(ndarray, ctx.jax_device), ctx)
    share_host_buffer(out, ndarray)  # writes to the NDArray reach the numpy array
    return out


# The NDArray methods of the same names
NDArray.to_dlpack_for_read = to_dlpack_for_read
NDArray.to_dlpack_for_write = to_dlpack_for_write
