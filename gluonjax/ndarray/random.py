"""``mx.nd.random``: sampling functions over the table's random operators."""
import functools
import math
import numbers

import jax
import numpy as np

from .._transfer import put
from .._x64 import jit as _x64_jit, x64 as _x64
from ..ops import _host
from ..base import MXNetError
from .ndarray import NDArray, _carry_failure, invoke


def _shape(shape):
    if shape is None:
        return (1,)
    if isinstance(shape, numbers.Integral):
        return (int(shape),)
    if not (hasattr(shape, '__iter__') and all(isinstance(d, numbers.Integral) for d in shape)):
        # (2.5, or (2, 2.0)): a shape MXNet fails to parse
        raise MXNetError('shape must be an int or a tuple of ints, got %r' % (shape,))
    return tuple(int(d) for d in shape)  # NumPy integers too (rand_shape_nd's)


def _sample(scalar_op, array_op, params, shape, dtype, ctx, out, **extra):
    arrays = [v for v in params.values() if isinstance(v, NDArray)]
    if arrays:
        if len(arrays) != len(params):  # AssertionError, as MXNet's front end asserts it
            raise AssertionError('%s: parameters must be all NDArrays or all numbers, got %s'
                                 % (array_op, [type(v).__name__ for v in params.values()]))
        kw = {'shape': () if shape is None else _shape(shape)}
        if dtype is not None:
            kw['dtype'] = np.dtype(dtype).name
        return invoke(array_op, arrays, dict(kw, **extra), out=out)
    for k, v in params.items():
        if not isinstance(v, numbers.Real):  # ValueError, as MXNet's front end raises it
            raise ValueError('%s: parameter %s must be an NDArray or a number, got %s'
                             % (scalar_op, k, type(v).__name__))
    kw = {k: float(v) for k, v in params.items()}
    kw.update(shape=_shape(shape), dtype=np.dtype(dtype or 'float32').name, **extra)
    if not kw['shape']:  # the operator's own check, which a bucketed draw (of one value) would skip
        raise MXNetError('%s: shape must be given (got %r)' % (scalar_op, kw['shape']))
    if out is None:
        return draw(scalar_op, kw, ctx)
    return invoke(scalar_op, [], kw, out=out, ctx=ctx)


def draw(scalar_op, kw, ctx, shape_param='shape'):
    """The samples of ``scalar_op`` (a sampler with number parameters) in ``kw[shape_param]``
    (``size`` for NumPy's samplers, whose None is one sample as a 0-d array), cut from a draw of
    the shape's length bucket where the sampler allows (see _bucketed)."""
    shape = kw[shape_param]
    shape = () if shape is None else shape
    size = int(math.prod(shape))  # shapes may hold NumPy integers
    if scalar_op in _ELEMENTWISE and 0 < size <= _MAX_BUCKETED and jax.config.jax_threefry_partitionable:
        return _bucketed(scalar_op, kw, size, ctx, shape_param, shape)
    return invoke(scalar_op, [], kw, ctx=ctx)


# Samplers whose element i is a function of the key's bits i alone (the rejection samplers: of
# the seed of element i's stream): with jax's partitionable threefry, the first n values of a
# longer draw are exactly the draw of n values.
_ELEMENTWISE = frozenset(('_random_uniform', '_random_normal', '_random_exponential', '_random_gamma',
                          '_random_poisson', '_random_negative_binomial', '_random_generalized_negative_binomial',
                          # mx.np.random's, with number parameters (a function of uniform bits i, or gamma's)
                          '_npi_uniform', '_npi_normal', '_npi_exponential', '_npi_rayleigh', '_npi_weibull',
                          '_npi_pareto', '_npi_logistic', '_npi_gumbel', '_npi_powerd', '_npi_gamma'))
_MAX_BUCKETED = 1 << 20


def _bucketed(scalar_op, kw, size, ctx, shape_param, shape):
    """The draw of ``kw['shape']`` (the same numbers) cut from a flat draw whose length is the
    next power of two: the sampler, whose threefry is slow to compile (seconds on a loaded
    CPU), compiles once per length bucket instead of once per shape; the cut compiles per
    shape but is a small program (code drawing many small random shapes, MXNet's tests,
    compiled a sampler per shape)."""
    bucket = _host.bucket_size(size)
    flat = invoke(scalar_op, [], dict(kw, **{shape_param: (bucket,)}), ctx=ctx)
    # an invalid parameter's error (raised at the next wait, as MXNet's) stays with the cut draw
    return _carry_failure([flat], NDArray._from_jax(_cut(flat._data, tuple(shape)), flat._ctx))


def _cut(flat, shape):
    """The first values of ``flat`` in ``shape``: on the host for a shape's first calls (a copy,
    no compile), then by a small program compiled for the shape (ops/_host.py's rule)."""
    if _host.first_call(('random.cut', flat.shape, flat.dtype, shape)):
        return _put(np.asarray(flat)[:math.prod(shape)].reshape(shape), flat.sharding)
    return _compiled_cut(flat, shape)


@_x64  # a float64 draw stays float64
def _put(values, sharding):
    return put(values, sharding)


@functools.partial(_x64_jit, static_argnums=1)  # traced with x64 on, as gluonjax's compiled code is
def _compiled_cut(flat, shape):
    return flat[:math.prod(shape)].reshape(shape)


def uniform(low=0, high=1, shape=None, dtype=None, ctx=None, out=None, **kwargs):
    return _sample('_random_uniform', '_sample_uniform', {'low': low, 'high': high}, shape, dtype, ctx, out)


def normal(loc=0, scale=1, shape=None, dtype=None, ctx=None, out=None, **kwargs):
    return _sample('_random_normal', '_sample_normal', {'loc': loc, 'scale': scale}, shape, dtype, ctx, out)


def randn(*shape, **kwargs):
    loc = kwargs.pop('loc', 0)
    scale = kwargs.pop('scale', 1)
    return normal(loc, scale, shape, **kwargs)  # no dimensions is an empty shape, an error as in MXNet


def exponential(scale=1, shape=None, dtype=None, ctx=None, out=None, **kwargs):
    return _sample('_random_exponential', '_sample_exponential', {'lam': 1.0 / scale}, shape, dtype, ctx, out)


def gamma(alpha=1, beta=1, shape=None, dtype=None, ctx=None, out=None, **kwargs):
    return _sample('_random_gamma', '_sample_gamma', {'alpha': alpha, 'beta': beta}, shape, dtype, ctx, out)


def poisson(lam=1, shape=None, dtype=None, ctx=None, out=None, **kwargs):
    return _sample('_random_poisson', '_sample_poisson', {'lam': lam}, shape, dtype, ctx, out)


def randint(low, high, shape=None, dtype=None, ctx=None, out=None, **kwargs):
    if isinstance(low, NDArray) or isinstance(high, NDArray):
        raise TypeError('randint: low and high must be integers; there is no sampler per element of NDArray bounds')
    if not isinstance(low, numbers.Integral) or not isinstance(high, numbers.Integral):
        raise MXNetError('randint: low and high must be integers, got %r and %r' % (low, high))
    return invoke('_random_randint', [], {'low': int(low), 'high': int(high), 'shape': _shape(shape),
                                          'dtype': np.dtype(dtype or 'int32').name}, out=out, ctx=ctx)


def multinomial(data, shape=None, get_prob=False, out=None, dtype='int32', **kwargs):
    return invoke('_sample_multinomial', [data], {'shape': () if shape is None else _shape(shape),
                                                  'get_prob': get_prob, 'dtype': np.dtype(dtype).name}, out=out)


def shuffle(data, **kwargs):
    return invoke('_shuffle', [data], {}, out=kwargs.get('out'))


def negative_binomial(k=1, p=1, shape=None, dtype=None, ctx=None, out=None, **kwargs):
    return _sample('_random_negative_binomial', '_sample_negative_binomial', {'k': k, 'p': p}, shape, dtype, ctx, out)


def generalized_negative_binomial(mu=1, alpha=1, shape=None, dtype=None, ctx=None, out=None, **kwargs):
    return _sample('_random_generalized_negative_binomial', '_sample_generalized_negative_binomial',
                   {'mu': mu, 'alpha': alpha}, shape, dtype, ctx, out)


# The remaining _random_/_sample_ operators under their short names, as sym.random has them
# (normal_like, pdf_normal, ...), where no function above takes the name.
from ..ops._frontend import populate as _populate  # noqa: E402
from ._gen import make_function as _make_function  # noqa: E402

_populate(globals(), _make_function, ('_random_', '_sample_'))
