"""``npx.save`` / ``npx.load``: MXNet's array files, read back as ``mx.np.ndarray``."""
from ..ndarray import _io
from ..numpy._core import as_np

__all__ = ['save', 'savez', 'load']


def save(file, arr):
    """Save an array, a list of arrays or a dict of name -> array (MXNet's format)."""
    _io.save(file, arr)


def savez(file, *args, **kwds):
    """Save arrays by name (positional ones as ``arr_0``, ``arr_1``...)."""
    data = {'arr_%d' % i: a for i, a in enumerate(args)}
    data.update(kwds)
    _io.save(file, data)


def load(file):
    """The arrays of a file written by ``npx.save`` / ``mx.nd.save`` (a list or a dict)."""
    loaded = _io.load_any(file)
    if isinstance(loaded, dict):
        return {k: as_np(v) for k, v in loaded.items()}
    return [as_np(v) for v in loaded]
