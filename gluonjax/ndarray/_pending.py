"""MXNet's asynchronous operator errors.

MXNet checks some parameters only when an operator runs on its engine thread (a random
sampler's ``scale`` must be positive): the call returns arrays at once, and the error is raised
at the next wait on them (``wait_to_read``, ``asnumpy``, ``mx.nd.waitall``), once. Operators
on such arrays return arrays that carry the same error; raising it clears it for all of them.

gluonjax raises these errors as ``ops.DeferredError`` while tracing; ``invoke`` turns one into
outputs of the right shapes (zeros) that carry it. An array is looked up here by identity; the
table is empty unless an operator failed, so the common path costs one truth test.
"""
import weakref

__all__ = ['Failure', 'entries', 'mark', 'failure_of', 'raise_for', 'raise_any']

entries = {}  # id(array) -> (weak reference to the array, Failure)


class Failure:
    """The error of one failed operator, shared by every array computed from its outputs."""
    __slots__ = ('error',)

    def __init__(self, error):
        self.error = error


def _forget(key):
    return lambda _ref: entries.pop(key, None)


def mark(arrays, failure):
    """``arrays`` carry ``failure``: waiting on any of them raises it."""
    for a in arrays:
        entries[id(a)] = (weakref.ref(a, _forget(id(a))), failure)


def failure_of(arrays):
    """The unraised failure carried by one of ``arrays``, else None."""
    for a in arrays:
        entry = entries.get(id(a))
        if entry is not None and entry[0]() is a and entry[1].error is not None:
            return entry[1]
    return None


def _raise(failure):
    error, failure.error = failure.error, None
    raise error


def raise_for(array):
    """``wait_to_read``/``asnumpy``: raise the array's pending error (once)."""
    failure = failure_of((array,))
    if failure is not None:
        _raise(failure)


def raise_any():
    """``waitall``: raise a pending error of any live array; the others are dropped, as MXNet's
    waitall reports one error and clears them."""
    pending = {id(f): f for ref, f in list(entries.values()) if f.error is not None and ref() is not None}
    if pending:
        first, *others = pending.values()
        for f in others:
            f.error = None
        _raise(first)
