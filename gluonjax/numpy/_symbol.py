"""Symbols with NumPy semantics, for Blocks traced by ``hybridize()`` under ``npx.set_np()``.

MXNet traces NumPy-mode blocks with NumPy symbols: ``a + b`` broadcasts, ``x.sum()``
reduces to a 0-d value, ``x.reshape(-1, 4)`` follows NumPy. Here a traced Symbol gets
the same methods as ``mx.np.ndarray`` (they build nodes of the same operators), by a
class change at the points where Gluon hands arrays to user code.
"""
import functools
import sys
import types

from ..base import MXNetError
from ..ops._registry import np_entries
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

    def __repr__(self):
        # as MXNet's mx.sym.np._Symbol: named by its class, a group listing its members' reprs
        if len(self) > 1:
            return '<_Symbol group [%s]>' % ', '.join('<_Symbol %s>' % s.name for s in Symbol.__iter__(self))
        return '<_Symbol %s>' % self.name

    def __neg__(self):
        # MXNet's NumPy Symbol negates by multiplying by -1.0 (an _npi_multiply_scalar node)
        return sys.modules['gluonjax.numpy'].multiply(self, -1.0)


def as_np_symbol(sym):
    if type(sym) is Symbol:
        sym.__class__ = NumpySymbol
    return sym


# Functions of mx.np without array inputs: under mx.sym.np they build graph nodes (the table's
# creation operators, and the hand-written functions over them).
_CREATION = frozenset(('full', 'arange', 'linspace', 'identity') +
                      tuple(name for name, (op, _) in np_entries().items() if op.creation))


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
        if name == 'random':
            return symbol_np_random
        value = getattr(sys.modules['gluonjax.numpy'], name)
        if name in _CREATION:
            value = _building_symbols(value)
            setattr(self, name, value)
        return value


class _SymbolNumpyRandom(types.ModuleType):
    """``mx.sym.np.random`` (``F.np.random`` while a block is traced): ``mx.np.random``'s samplers,
    building graph nodes also when no parameter is an array (``F.np.random.uniform(size=3)``)."""

    def __getattr__(self, name):
        from . import random
        value = getattr(random, name)
        if callable(value) and name != 'seed':
            value = _building_symbols(value)
        setattr(self, name, value)
        return value


symbol_np_random = _SymbolNumpyRandom('mxnet.symbol.numpy.random', _SymbolNumpyRandom.__doc__)
symbol_np = _SymbolNumpy('mxnet.symbol.numpy', __doc__)
symbol_np._Symbol = NumpySymbol  # MXNet's name of the class (mx.sym.np._Symbol)


def _basic_index(sym, key):
    """``sym[key]`` for a basic NumPy index (ints, slices, None, Ellipsis) as graph nodes."""
    from ._core import basic_index
    key = key if isinstance(key, tuple) else (key,)
    if not all(k is None or k is Ellipsis or isinstance(k, (int, slice)) for k in key):
        raise NotImplementedError('indexing a NumPy-mode Symbol supports ints, slices, None and Ellipsis, '
                                  'got %r' % (key,))
    if sym.ndim is None:
        raise MXNetError('indexing a Symbol of unknown shape: give the variable a shape')
    res = basic_index(sym, key)
    return res if res is not sym else as_np_symbol(Symbol(sym._outputs))


def _getitem(self, key):
    """Output selection by name (or by position on a group), else NumPy basic indexing."""
    if isinstance(key, str) or (isinstance(key, int) and len(self._outputs) > 1):
        return as_np_symbol(Symbol.__getitem__(self, key))
    return _basic_index(self, key)


NumpySymbol.__getitem__ = _getitem
