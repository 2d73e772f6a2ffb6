"""Symbols with NumPy semantics, for Blocks traced by ``hybridize()`` under ``npx.set_np()``.

MXNet traces NumPy-mode blocks with NumPy symbols: ``a + b`` broadcasts, ``x.sum()``
reduces to a 0-d value, ``x.reshape(-1, 4)`` follows NumPy. Here a traced Symbol gets
the same methods as ``mx.np.ndarray`` (they build nodes of the same operators), by a
class change at the points where Gluon hands arrays to user code.
"""
import functools
import sys
import types

from ..symbol.symbol import Symbol
from ._core import creating_symbols
from .multiarray import _NumpyMethods

__all__ = ['NumpySymbol', 'as_np_symbol', 'symbol_np']


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


# Functions of mx.np without array inputs: under mx.sym.np they build graph nodes.
_CREATION = ('zeros', 'ones', 'full', 'empty', 'arange', 'linspace', 'eye', 'identity', 'logspace', 'indices')


def _building_symbols(fn):
    @functools.wraps(fn)
    def creation(*args, **kwargs):
        with creating_symbols():
            return fn(*args, **kwargs)
    return creation


class _SymbolNumpy(types.ModuleType):
    """``mx.sym.np`` (``F.np`` while a block is traced): ``mx.np``'s functions, which already build
    nodes from Symbol inputs, with the creation functions building nodes too."""

    def __getattr__(self, name):
        value = getattr(sys.modules['gluonjax.numpy'], name)
        if name in _CREATION:
            value = _building_symbols(value)
            setattr(self, name, value)
        return value


symbol_np = _SymbolNumpy('mxnet.symbol.numpy', __doc__)
