"""``mx.np``: MXNet's NumPy-style front end.

``mx.np.ndarray`` is an NDArray with NumPy's semantics (0-d results, bool comparisons,
boolean-mask indexing, ``array([1., 2.])`` printing), float32 by default as in MXNet.
Functions run operators of the same table as ``mx.nd`` (see :mod:`._core`), so they are
recorded by autograd, run on any context and work on Symbols inside hybridized blocks.

Example::

    from gluonjax import np, npx, autograd
    npx.set_np()
    x = np.arange(6).reshape(2, 3)
    x.attach_grad()
    with autograd.record():
        y = (x * x).sum()
    y.backward()          # x.grad == 2 * x
"""
import numpy as _onp

from .multiarray import (ndarray, array, asarray, zeros, ones, full, empty, arange, linspace, eye,  # noqa: F401
                         identity, zeros_like, ones_like, full_like, empty_like, add, subtract, multiply, divide, true_divide, floor_divide, mod,  # noqa: F401
                         remainder, power, maximum, minimum, fmax, fmin, hypot, arctan2, equal, not_equal,
                         greater, greater_equal, less, less_equal, logical_and, logical_or, logical_xor, bitwise_and, bitwise_or, bitwise_xor,
                         clip, where, nonzero, around, round_, sum, prod, mean, amax, amin, max, min, std, var,
                         argmax, argmin, any, all, cumsum, reshape, ravel, transpose, swapaxes,
                         expand_dims, squeeze, broadcast_to, tile, repeat, flip, concatenate, stack, vstack,
                         hstack, split, copy, dot, matmul, tensordot, einsum, pad, unique, inner, outer, vdot, sort, argsort, take,
                         shape, size, ndim, _table_functions)
from .multiarray import meshgrid  # noqa: F401,E402
from . import multiarray as _multiarray  # noqa: E402
from .._x64 import x64 as _x64

# array() moves host data to the device (int64 indices of nonzero/take, float64 data): an x64
# boundary (see gluonjax/_x64.py). multiarray.py is edited elsewhere this session: until it
# decorates array itself, the module's own function is replaced here, so its internal calls
# (where, nonzero, take, ...) get the wrapped one too.
array = _multiarray.array = _x64(_multiarray.array)

from . import random  # noqa: F401,E402
from . import linalg  # noqa: F401,E402
from ._state import is_np_array  # noqa: F401

globals().update(_table_functions)

# dtypes are numpy's own, as in MXNet (np.float32 is numpy.float32)
float16, float32, float64 = _onp.float16, _onp.float32, _onp.float64
int8, int16, int32, int64, uint8 = _onp.int8, _onp.int16, _onp.int32, _onp.int64, _onp.uint8
bool_ = _onp.bool_
bool = _onp.bool_  # noqa: A001 (MXNet's name)
dtype = _onp.dtype
finfo, iinfo = _onp.finfo, _onp.iinfo
pi, e, euler_gamma = _onp.pi, _onp.e, _onp.euler_gamma
inf, nan, PINF, NINF, PZERO, NZERO = _onp.inf, _onp.nan, _onp.inf, -_onp.inf, 0.0, -0.0
NAN = NaN = _onp.nan
newaxis = None


def _wire_core():
    """Give _core what it needs from modules that import it (multiarray, _symbol)."""
    from . import multiarray, _symbol, _core
    _core.set_hooks(array=multiarray.array, as_np_symbol=_symbol.as_np_symbol)


_wire_core()



# More functions with NumPy's signatures over table operators (issue 15: MXNet's test_numpy_op)
from ._functions import *  # noqa: F401,F403,E402
from .fallback import *  # noqa: F401,F403,E402 (NumPy's own functions, as MXNet's mx.np.fallback)
row_stack = vstack  # MXNet's other name of vstack
from . import _internal  # noqa: F401,E402 (mx.np._internal: the _npi_ operators by name)
globals().update(_multiarray._BINARY)  # every binary function of the table's 'np' arith entries (lcm, ldexp, ...)
import sys as _sys  # noqa: E402
from . import _dispatch  # noqa: E402 (official NumPy functions on mx.np arrays run mx.np's: NEP 13/18)
_dispatch.register(_sys.modules[__name__])
