"""``mx.engine``: MXNet's switches for its execution engine's operator bulking.

MXNet's engine can group up to ``size`` consecutive imperative operators into one scheduled
unit, a speed hint that never changes results. gluonjax runs each eager call as a compiled XLA
function and has no such grouping, so the size is kept (and reported back, as MXNet does) but
changes nothing; code that sets it runs unchanged.
"""
import contextlib
import threading

__all__ = ['set_bulk_size', 'bulk']

_state = threading.local()


def _bulk_size():
    return getattr(_state, 'size', 0)


def set_bulk_size(size):
    """Set the largest number of imperative operators bulked together; returns the previous size."""
    size = int(size)
    if size < 0:
        raise ValueError('set_bulk_size: size must be non-negative, got %d' % size)
    previous = _bulk_size()
    _state.size = size
    return previous


@contextlib.contextmanager
def bulk(size):
    """Within the block, bulk up to ``size`` imperative operators (restored on exit)."""
    previous = set_bulk_size(size)
    try:
        yield
    finally:
        set_bulk_size(previous)
