"""Whether NumPy semantics are on (``npx.set_np()``), and the one conversion Gluon applies.

MXNet 1.9 under ``npx.set_np()``: Blocks, losses, Parameters and the DataLoader give
``mx.np.ndarray``\\ s. gluonjax computes the same way in both modes (``mx.np.ndarray`` is
an ``NDArray``); Gluon calls :func:`to_np` at its boundaries so users see np arrays.
"""
import contextlib
import threading

__all__ = ['is_np_array', 'is_np_shape', 'set_np_state', 'np_scope', 'to_np']

_global = {'array': False, 'shape': False}  # set_np() / reset_np(): the whole process


class _Scopes(threading.local):
    stack = ()  # (array, shape) pushed by use_np-decorated code, innermost last


_scopes = _Scopes()


def is_np_array():
    """True after ``npx.set_np()`` (or inside ``use_np`` code): Gluon gives ``mx.np.ndarray``."""
    stack = _scopes.stack
    return stack[-1][0] if stack else _global['array']


def is_np_shape():
    stack = _scopes.stack
    return stack[-1][1] if stack else _global['shape']


def set_np_state(array, shape):
    """Turn NumPy array / shape semantics on or off for the process."""
    _global['array'], _global['shape'] = bool(array), bool(shape)


@contextlib.contextmanager
def np_scope(array=True, shape=True):
    """NumPy semantics on (or off) inside the block, in this thread."""
    _scopes.stack = _scopes.stack + ((bool(array), bool(shape)),)
    try:
        yield
    finally:
        _scopes.stack = _scopes.stack[:-1]


def to_np(obj):
    """``obj`` with its NDArrays made ``mx.np.ndarray``\\ s when NumPy semantics are on.

    The arrays are fresh results (a Block's outputs, a batch), so their class is changed in
    place: no copy, and the autograd history stays with them. Symbols (a Block being traced
    by ``hybridize()``) become NumPy-style Symbols, whose operators broadcast."""
    if not is_np_array():
        return obj
    return _convert(obj)


def _convert(obj):
    from ._core import as_np
    return as_np(obj)
