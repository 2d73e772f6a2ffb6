"""Exchanging arrays with other libraries: DLPack capsules and numpy arrays (``mx.nd.from_dlpack``,
``to_dlpack_for_read``/``_for_write``, ``from_numpy``).

A DLPack capsule hands over the jax buffer itself, without a copy. jax arrays are immutable, so a
library writing through a ``to_dlpack_for_write`` capsule writes the buffer of that one NDArray:
arrays sharing memory with it in gluonjax (basic slices, reshapes) do not see the write.
"""
import ctypes

import jax
import jax.dlpack
import numpy as np

from .. import _caches, base
from .._x64 import x64
from ..base import MXNetError
from ..context import current_context
from .ndarray import NDArray, array, c_handles, share_host_buffer

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


@x64  # a float64 or int64 buffer stays one (jax would take it as 32-bit with x64 off)
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


# ---- MXNet's C function, for ctypes code written against MXNet's library ----------------------

class _DLDevice(ctypes.Structure):
    _fields_ = [('device_type', ctypes.c_int32), ('device_id', ctypes.c_int32)]


class _DLTensorHead(ctypes.Structure):
    """The leading fields of DLPack's DLTensor (a DLManagedTensor starts with one)."""
    _fields_ = [('data', ctypes.c_void_p), ('device', _DLDevice)]


# Our own prototype of PyCapsule_New (argument types set on ctypes.pythonapi's would be global).
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
    ('PyCapsule_New', ctypes.pythonapi))
_DLTENSOR = b'dltensor'  # a capsule keeps a pointer to its name: this bytes object outlives them
# As importing MXNet does: ctypes code handling DLPack capsules (MXNet's own tests) relies on
# these result types being pointers and objects, not ctypes' default C int.
ctypes.pythonapi.PyCapsule_GetName.restype = ctypes.c_char_p
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_New.restype = ctypes.py_object


def _c_ndarray_from_dlpack(managed, out):
    """``MXNDArrayFromDLPack(DLManagedTensor *managed, NDArrayHandle *out)``: a handle of an NDArray
    over the tensor's buffer, which the array now owns (the tensor's deleter runs when the array
    is freed, as MXNet's does), for ``NDArray(handle)`` to take over. Returns 0."""
    address = managed.value if isinstance(managed, ctypes.c_void_p) else managed
    if not address:
        raise MXNetError('MXNDArrayFromDLPack: the DLManagedTensor pointer is NULL')
    device = _DLTensorHead.from_address(address).device
    # a fresh capsule over the same tensor: jax takes it over (its deleter included), without a copy
    capsule = _capsule_new(address, _DLTENSOR, None)
    arr = from_dlpack(_Capsule(capsule, (device.device_type, device.device_id)))
    c_handles[id(arr)] = arr
    target = out._obj if hasattr(out, '_obj') else out.contents  # ctypes.byref(h) or ctypes.pointer(h)
    target.value = id(arr)
    return 0


base._LIB.MXNDArrayFromDLPack = _c_ndarray_from_dlpack

# The NDArray methods of the same names
NDArray.to_dlpack_for_read = to_dlpack_for_read
NDArray.to_dlpack_for_write = to_dlpack_for_write
