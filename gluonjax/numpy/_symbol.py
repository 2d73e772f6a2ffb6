"""Symbols with NumPy semantics, for Blocks traced by ``hybridize()`` under ``npx.set_np()``.

MXNet traces NumPy-mode blocks with NumPy symbols: ``a + b`` broadcasts, ``x.sum()``
reduces to a 0-d value, ``x.reshape(-1, 4)`` follows NumPy. Here a traced Symbol gets
the same methods as ``mx.np.ndarray`` (they build nodes of the same operators), by a
class change at the points where Gluon hands arrays to user code.
"""
from ..symbol.symbol import Symbol
from .multiarray import _NumpyMethods

__all__ = ['NumpySymbol', 'as_np_symbol']


class NumpySymbol(_NumpyMethods, Symbol):
    """A Symbol whose operators and methods follow ``mx.np`` (MXNet's ``_Symbol`` of ``mx.sym.np``)."""
    __slots__ = ()
    __hash__ = Symbol.__hash__

    def as_nd_ndarray(self):
        return Symbol(self._outputs)

    def as_np_ndarray(self):
        return self


def as_np_symbol(sym):
    if type(sym) is Symbol:
        sym.__class__ = NumpySymbol
    return sym
