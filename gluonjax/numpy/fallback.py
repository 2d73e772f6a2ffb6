"""``mx.np`` functions that are NumPy's own, as in MXNet 1.9.1 (``mx.np.allclose is numpy.allclose``).

Called with ``mx.np`` arrays, NumPy hands them to ``ndarray.__array_function__``
(numpy/_dispatch.py), which runs NumPy's code on host copies and brings the arrays back to the
inputs' context; scalars stay NumPy scalars (``np.searchsorted(a, 2.5)`` is ``numpy.int64``), as
in MXNet. Not under autograd (ValueError). The names are MXNet's list; the few the installed NumPy
(2.x) no longer has are written over the functions that replaced them.
"""
import numpy as onp

from ._dispatch import _numpy_fallback

__all__ = [
    'allclose', 'alltrue', 'apply_along_axis', 'apply_over_axes', 'argpartition', 'argwhere', 'array_equal',
    'array_equiv', 'choose', 'compress', 'corrcoef', 'correlate', 'count_nonzero', 'cov', 'digitize', 'divmod',
    'extract', 'flatnonzero', 'float_power', 'frexp', 'genfromtxt', 'heaviside', 'histogram2d', 'histogram_bin_edges',
    'histogramdd', 'i0', 'in1d', 'interp', 'intersect1d', 'isclose', 'isin', 'ix_', 'lexsort', 'min_scalar_type',
    'modf', 'msort', 'nanargmax', 'nanargmin', 'nancumprod', 'nancumsum', 'nanmax', 'nanmedian', 'nanmin',
    'nanpercentile', 'nanprod', 'nanquantile', 'ndim', 'partition', 'piecewise', 'packbits', 'poly', 'polyadd',
    'polydiv', 'polyfit', 'polyint', 'polymul', 'polysub', 'positive', 'promote_types', 'ptp', 'real',
    'result_type', 'rollaxis', 'roots', 'searchsorted', 'select', 'setdiff1d', 'setxor1d', 'signbit', 'size',
    'spacing', 'take_along_axis', 'trapz', 'tril_indices_from', 'trim_zeros', 'triu_indices_from', 'union1d',
    'unpackbits', 'unwrap', 'vander']


# NumPy 2 removed these four: NumPy's replacement runs on host copies, as the others do
def alltrue(a, axis=None, out=None, keepdims=False):
    return _numpy_fallback(onp.all, 'alltrue', (a,), {'axis': axis, 'out': out, 'keepdims': keepdims})


def msort(a):
    return _numpy_fallback(onp.sort, 'msort', (a,), {'axis': 0})


def trapz(y, x=None, dx=1.0, axis=-1):
    return _numpy_fallback(onp.trapezoid, 'trapz', (y,), {'x': x, 'dx': dx, 'axis': axis})


def in1d(ar1, ar2, assume_unique=False, invert=False):
    return _numpy_fallback(onp.isin, 'in1d', (ar1, ar2), {'assume_unique': assume_unique, 'invert': invert}).ravel()


globals().update({name: getattr(onp, name) for name in __all__ if name not in globals()})


def genfromtxt(*args, **kwargs):
    """NumPy's ``genfromtxt`` read into an ``mx.np`` array of the dtype NumPy chose (float64 for
    numbers), on ``ctx`` (default: the current context), as MXNet 1.9.1's ``mx.np.genfromtxt``."""
    from .multiarray import array
    ctx = kwargs.pop('ctx', None)
    values = onp.genfromtxt(*args, **kwargs)
    return array(values, dtype=values.dtype, ctx=ctx)
