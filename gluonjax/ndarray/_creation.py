"""Array creation functions of ``mx.nd`` (zeros, ones, full, arange, ...)."""
import numpy as np

from ..base import MXNetError, shape_str, upper_layer
from .ndarray import NDArray, invoke


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _known_shape(op_name, shape):
    """``shape``, refused as MXNet refuses it outside ``mx.np_shape()``: its legacy shapes read a 0
    dimension and the empty shape as unknown, so ``zeros((2, 0))`` or ``ones(())`` cannot be made."""
    shape = _shape(shape)
    if (not shape or 0 in shape) and not upper_layer('np_shape')():
        raise MXNetError('Operator %s inferring shapes failed: shape %s has an unknown dimension (outside '
                         'mx.np_shape(), 0 and () mean unknown; use mx.np_shape() or mx.np for zero-size '
                         'and 0-d arrays)' % (op_name, shape_str(shape)))
    return shape


def _dtype(dtype):
    return np.dtype('float32' if dtype is None else dtype).name


def zeros(shape, ctx=None, dtype=None, out=None, **kwargs):
    """An array of zeros (float32 unless ``dtype`` says otherwise); written into ``out`` if given;
    ``stype='row_sparse'|'csr'`` makes an empty sparse array."""
    if kwargs.get('stype', 'default') != 'default':
        from . import sparse
        return sparse.zeros(kwargs['stype'], shape, ctx=ctx, dtype=dtype)
    return invoke('_zeros', [], {'shape': _known_shape('_zeros', shape), 'dtype': _dtype(dtype)}, ctx=ctx, out=out)


def ones(shape, ctx=None, dtype=None, out=None, **kwargs):
    return invoke('_ones', [], {'shape': _known_shape('_ones', shape), 'dtype': _dtype(dtype)}, ctx=ctx, out=out)


def empty(shape, ctx=None, dtype=None, stype=None):
    """An array of the given shape; gluonjax fills it with zeros (MXNet leaves it uninitialised)."""
    if stype not in (None, 'default'):
        from . import sparse
        return sparse.empty(stype, shape, ctx=ctx, dtype=dtype)
    return invoke('_empty', [], {'shape': _shape(shape), 'dtype': _dtype(dtype)}, ctx=ctx)


def full(shape, val, ctx=None, dtype=np.float32, out=None):
    shape = _shape(shape)
    if not shape:  # MXNet makes full((2, 0), v) but refuses full((), v)
        _known_shape('_full', shape)
    return invoke('_full', [], {'shape': shape, 'dtype': _dtype(dtype), 'value': float(val)},
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


def _moveaxis_axes(axes, ndim, what):
    """``axes`` (an int or a sequence of ints) as non-negative axes; ValueError if one is out of
    range or repeated (MXNet's moveaxis errors)."""
    axes = [axes] if isinstance(axes, (int, np.integer)) else list(axes)
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError('moveaxis: %s axis %d is out of range for an array of %d dimensions'
                             % (what, a, ndim))
    axes = [a % ndim for a in axes]
    if len(set(axes)) != len(axes):
        raise ValueError('moveaxis: repeated axis in %s %s' % (what, axes))
    return axes


def moveaxis(tensor, source, destination):
    """Move the axes ``source`` of ``tensor`` to positions ``destination`` (ints or sequences of
    ints, as numpy.moveaxis); the other axes keep their order."""
    src = _moveaxis_axes(source, tensor.ndim, 'source')
    dst = _moveaxis_axes(destination, tensor.ndim, 'destination')
    if len(src) != len(dst):
        raise ValueError('moveaxis: source %s and destination %s must have the same number of '
                         'elements' % (src, dst))
    order = [a for a in range(tensor.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return invoke('transpose', [tensor], {'axes': tuple(order)})


def onehot_encode(indices, out):
    from .._logs import native_log
    native_log('../src/ndarray/./ndarray_function-inl.h:96',
               'The operator onehot_encode is deprecated; use one_hot instead.')
    return invoke('one_hot', [indices], {'depth': out.shape[1]}, out=out)
