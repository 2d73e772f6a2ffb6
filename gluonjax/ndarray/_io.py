"""``mx.nd.save`` / ``mx.nd.load`` in MXNet's binary format (see _serialization.py)."""
import numpy as np

from ..base import upper_layer
from .ndarray import NDArray, array


def save(fname, data):
    """Save an NDArray, a list of NDArrays or a dict str -> NDArray, readable by MXNet 1.x."""
    from ._serialization import save_arrays
    if isinstance(data, NDArray):
        data = [data]
    if isinstance(data, dict):
        for k, v in data.items():
            if not isinstance(k, str) or not isinstance(v, NDArray):
                raise TypeError('nd.save: a dict must map str to NDArray, got %r -> %s' % (k, type(v).__name__))
        host = {k: _host(v) for k, v in data.items()}
    elif isinstance(data, (list, tuple)):
        for i, v in enumerate(data):
            if not isinstance(v, NDArray):
                raise TypeError('nd.save: element %d is %s, not an NDArray' % (i, type(v).__name__))
        host = [_host(v) for v in data]
    else:
        raise TypeError('nd.save: data must be an NDArray, a list or a dict of NDArrays, not %s'
                         % type(data).__name__)
    # np-shape (v3) records under mx.np_shape / npx.set_np, as MXNet writes them
    save_arrays(fname, host, np_shape=True if upper_layer('np_shape')() else None)


def _host(v):
    """What the file stores of NDArray ``v``: its numpy value, or a sparse array's parts (MXNet
    writes row_sparse and csr arrays as such, and loads them back in their storage)."""
    from ._serialization import SparseArrays
    if v.stype == 'row_sparse':
        return SparseArrays('row_sparse', v.shape, v.data.asnumpy(), [v.indices.asnumpy()])
    if v.stype == 'csr':
        return SparseArrays('csr', v.shape, v.data.asnumpy(), [v.indptr.asnumpy(), v.indices.asnumpy()])
    return v.asnumpy()


def _array(v, ctx):
    from ._serialization import SparseArrays
    if isinstance(v, SparseArrays):
        from . import sparse
        if v.stype == 'row_sparse':
            return sparse.row_sparse_array((v.data, v.aux[0]), shape=v.shape, ctx=ctx, dtype=v.data.dtype)
        return sparse.csr_matrix((v.data, v.aux[1], v.aux[0]), shape=v.shape, ctx=ctx, dtype=v.data.dtype)
    return array(v, ctx=ctx, dtype=v.dtype)


def _wrap(loaded, ctx=None):
    if isinstance(loaded, dict):
        return {k: _array(v, ctx) for k, v in loaded.items()}
    return [_array(v, ctx) for v in loaded]


def load(fname, ctx=None):
    """Load what ``save`` (here or in MXNet) wrote: a list, or a dict when the arrays have names."""
    from ._serialization import load_arrays
    # as MXNet's, the file's shape semantics must be those on now (np-shape records under mx.np_shape)
    return _wrap(load_arrays(fname, np_shape=bool(upper_layer('np_shape')())), ctx)


def load_any(fname):
    """``load`` whatever the shape semantics of the file (``npx.load``)."""
    from ._serialization import load_arrays
    return _wrap(load_arrays(fname))


def load_frombuffer(buf):
    from ._serialization import load_arrays_from_bytes
    return _wrap(load_arrays_from_bytes(bytes(buf)))
