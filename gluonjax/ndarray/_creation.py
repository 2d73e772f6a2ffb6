"""Array creation functions of ``mx.nd`` (zeros, ones, full, arange, ...)."""
import numpy as np

from ..base import MXNetError
from .ndarray import NDArray, invoke


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _dtype(dtype):
    return np.dtype('float32' if dtype is None else dtype).name


def zeros(shape, ctx=None, dtype=None, **kwargs):
    """An array of zeros (float32 unless ``dtype`` says otherwise)."""
    return invoke('_zeros', [], {'shape': _shape(shape), 'dtype': _dtype(dtype)}, ctx=ctx)


def ones(shape, ctx=None, dtype=None, **kwargs):
    return invoke('_ones', [], {'shape': _shape(shape), 'dtype': _dtype(dtype)}, ctx=ctx)


def empty(shape, ctx=None, dtype=None):
    """An array of the given shape; gluonjax fills it with zeros (MXNet leaves it uninitialised)."""
    return invoke('_empty', [], {'shape': _shape(shape), 'dtype': _dtype(dtype)}, ctx=ctx)


def full(shape, val, ctx=None, dtype=np.float32, out=None):
    return invoke('_full', [], {'shape': _shape(shape), 'dtype': _dtype(dtype), 'value': float(val)},
                  ctx=ctx, out=out)


def arange(start, stop=None, step=1.0, repeat=1, infer_range=None, ctx=None, dtype=np.float32):
    return invoke('_arange', [], {'start': float(start), 'stop': None if stop is None else float(stop),
                                  'step': float(step), 'repeat': int(repeat), 'dtype': _dtype(dtype)}, ctx=ctx)


def eye(N, M=0, k=0, ctx=None, dtype=np.float32, **kwargs):
    return invoke('_eye', [], {'N': int(N), 'M': int(M), 'k': int(k), 'dtype': _dtype(dtype)}, ctx=ctx)


def linspace(start, stop, num, endpoint=True, ctx=None, dtype=np.float32):
    return invoke('_linspace', [], {'start': float(start), 'stop': float(stop), 'num': int(num),
                                    'endpoint': bool(endpoint), 'dtype': _dtype(dtype)}, ctx=ctx)


def zeros_like(data, **kwargs):
    return invoke('zeros_like', [data], {}, out=kwargs.get('out'))


def ones_like(data, **kwargs):
    return invoke('ones_like', [data], {}, out=kwargs.get('out'))


def concatenate(arrays, axis=0, always_copy=True):
    """Join arrays along an existing axis (MXNet's python helper; same as nd.concat(dim=axis))."""
    if not arrays:
        raise MXNetError('concatenate: no arrays given')
    return invoke('Concat', list(arrays), {'dim': axis, 'num_args': len(arrays)})


def moveaxis(tensor, source, destination):
    axes = list(range(tensor.ndim))
    src = source % tensor.ndim
    dst = destination % tensor.ndim
    axes.pop(src)
    axes.insert(dst, src)
    return invoke('transpose', [tensor], {'axes': tuple(axes)})


def onehot_encode(indices, out):
    return invoke('one_hot', [indices], {'depth': out.shape[1]}, out=out)
