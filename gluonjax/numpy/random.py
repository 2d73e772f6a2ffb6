"""``mx.np.random``: NumPy-style sampling over the table's random operators.

``size=None`` gives one sample as a 0-d array, as NumPy; values are float32 unless
``dtype`` says otherwise and follow ``mx.random.seed`` / ``npx.random.seed``.
"""
import numbers

import numpy as onp

from ..base import MXNetError
from ..ndarray import random as _nd_random
from ..ndarray.ndarray import NDArray
from ._core import apply_op, building_symbols, is_scalar, is_symbol, to_array
from .multiarray import _ctx, _shape, array, exp, reshape, take

__all__ = ['uniform', 'normal', 'randn', 'rand', 'randint', 'exponential', 'gamma', 'poisson',
           'choice', 'shuffle', 'permutation', 'multinomial', 'seed', 'lognormal', 'rayleigh', 'weibull', 'pareto', 'power', 'logistic', 'gumbel',
           'beta', 'chisquare', 'multivariate_normal']


def _size(size):
    """(shape to sample, whether to return a 0-d array)."""
    if size is None:
        return (1,), True
    shape = _shape(size)
    return shape or (1,), shape == ()  # size=(): one sample as a 0-d array


def _scalar_sample(scalar_op, array_op, params, size, dtype, ctx, out):
    arrays = {k: v for k, v in params.items() if isinstance(v, NDArray)}
    dtype = onp.dtype(dtype or 'float32').name
    if arrays:
        # array parameters: one draw per element, broadcast against each other and ``size``
        from . import multiarray as _mnp
        shape = _shape(size) if size is not None else None
        values = [v if isinstance(v, NDArray) else _mnp.full((), v, dtype='float32') for v in params.values()]
        target = onp.broadcast_shapes(*[v.shape for v in values]) if shape is None else shape
        values = [_mnp.broadcast_to(v.astype('float32'), target) for v in values]
        res = apply_op(array_op, values, {'dtype': dtype})
    else:
        shape, scalar = _size(size)
        kw = {k: float(v) for k, v in params.items()}
        kw.update(shape=shape, dtype=dtype)
        if building_symbols():  # F.np.random in a traced block: a graph node
            res = apply_op(scalar_op, [], kw)
        else:  # as mx.nd.random's: a sampler compiled per length bucket, not per shape
            res = _nd_random.draw(scalar_op, kw, _ctx(ctx)).as_np_ndarray()
        if scalar:
            res = reshape(res, ())
    if out is not None:
        out[...] = res
        return out
    return res


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples of U[low, high); differentiable in array (or traced) bounds."""
    if is_scalar(low) and is_scalar(high):
        return _scalar_sample('_random_uniform', '_sample_uniform', {'low': low, 'high': high}, size, dtype, ctx, out)
    return _np_sample('uniform', {'low': low, 'high': high}, size, dtype, ctx, out)


def _np_sample(dist, params, size, dtype, ctx, out, positive=(), nonnegative=(), op=None):
    """Samples of ``_npi_<dist>``: number parameters are operator parameters, arrays (or Symbols)
    its inputs, which get gradients. Numbers NumPy requires to be > 0 (``positive``) or >= 0
    (``nonnegative``) are checked, with NumPy's ValueError."""
    arrays, attrs = [], {}
    for name, value in params.items():
        if is_scalar(value) or isinstance(value, NDArray):  # a Symbol's values are not known yet
            low = onp.min(value.asnumpy(), initial=onp.inf) if isinstance(value, NDArray) else value
            if (name in positive and low <= 0) or (name in nonnegative and low < 0):
                raise ValueError('%s: %s must be %s, got %r' % (dist, name, '> 0' if name in positive else '>= 0', low))
        if is_scalar(value):
            attrs[name] = float(value)
        else:
            arrays.append(to_array(value, dist, name))
            attrs[name] = None
    attrs.update(size=None if size is None else _shape(size), dtype=None if dtype is None else onp.dtype(dtype).name)
    if arrays or building_symbols():
        return apply_op(op or '_npi_' + dist, arrays, attrs, out=out, ctx=None if arrays else _ctx(ctx))
    # number parameters: as mx.nd.random's, a sampler compiled per length bucket, not per shape
    res = _nd_random.draw(op or '_npi_' + dist, attrs, _ctx(ctx), 'size').as_np_ndarray()
    if out is not None:
        out[...] = res
        return out
    return res


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples of N(loc, scale**2), differentiable in array ``loc`` and ``scale``."""
    return _np_sample('normal', {'loc': loc, 'scale': scale}, size, dtype, ctx, out, nonnegative=('scale',))


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples of the logistic distribution, differentiable in array ``loc`` and ``scale``."""
    return _np_sample('logistic', {'loc': loc, 'scale': scale}, size, None, ctx, out, nonnegative=('scale',))


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples of the Gumbel distribution, differentiable in array ``loc`` and ``scale``."""
    return _np_sample('gumbel', {'loc': loc, 'scale': scale}, size, None, ctx, out, nonnegative=('scale',))


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples of exp(N(mean, sigma**2))."""
    res = exp(normal(mean, sigma, size=size, dtype=dtype, ctx=ctx))
    if out is not None:
        out[...] = res
        return out
    return res


def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    return _np_sample('rayleigh', {'scale': scale}, size, None, ctx, out, nonnegative=('scale',))


def weibull(a, size=None, ctx=None, out=None):
    return _np_sample('weibull', {'a': a}, size, None, ctx, out, positive=('a',))  # MXNet's: a > 0


def pareto(a, size=None, ctx=None, out=None):
    return _np_sample('pareto', {'a': a}, size, None, ctx, out, positive=('a',))


def power(a, size=None, ctx=None, out=None):
    """Samples in [0, 1] of density a x**(a - 1) (a > 0)."""
    return _np_sample('power', {'a': a}, size, None, ctx, out, positive=('a',), op='_npi_powerd')


def beta(a, b, size=None, dtype=None, ctx=None):
    """Samples of Beta(a, b), as X / (X + Y) of X ~ Gamma(a), Y ~ Gamma(b)."""
    x = _np_sample('gamma', {'shape': a, 'scale': 1.0}, size, dtype, ctx, None, positive=('shape', 'scale'))
    y = _np_sample('gamma', {'shape': b, 'scale': 1.0}, size, dtype, ctx, None, positive=('shape', 'scale'))
    return x / (x + y)


def chisquare(df, size=None, dtype=None, ctx=None):
    """Samples of the chi-square distribution of ``df`` degrees of freedom: Gamma(df / 2, 2)."""
    return _np_sample('gamma', {'shape': df / 2, 'scale': 2.0}, size, dtype, ctx, None, positive=('shape',))


def exponential(scale=1.0, size=None, ctx=None, out=None):
    """Samples of the exponential distribution of mean ``scale``, differentiable in an array scale."""
    return _np_sample('exponential', {'scale': scale}, size, None, ctx, out, nonnegative=('scale',))


def gamma(shape=1.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples of Gamma(shape, scale) (both > 0, as MXNet requires), differentiable in array parameters."""
    return _np_sample('gamma', {'shape': shape, 'scale': scale}, size, dtype, ctx, out, positive=('shape', 'scale'))


def poisson(lam=1.0, size=None, ctx=None, out=None):
    return _scalar_sample('_random_poisson', '_sample_poisson', {'lam': lam}, size, 'float32', ctx, out)


def rand(*size, **kwargs):
    """Uniform [0, 1) samples of the given shape."""
    return uniform(size=size or None, **kwargs)


def randn(*size, **kwargs):
    """Standard normal samples of the given shape."""
    return normal(size=size or None, **kwargs)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Integers uniform in [low, high) (int64 unless ``dtype`` says otherwise)."""
    if high is None:
        low, high = 0, low
    if not isinstance(low, numbers.Integral) or not isinstance(high, numbers.Integral):
        raise MXNetError('randint: low and high must be integers, got %r and %r' % (low, high))
    shape, scalar = _size(size)
    res = apply_op('_random_randint', [], {'low': int(low), 'high': int(high), 'shape': shape,
                                           'dtype': onp.dtype(dtype or 'int64').name}, ctx=_ctx(ctx))
    res = reshape(res, ()) if scalar else res
    if out is not None:
        out[...] = res
        return out
    return res


def shuffle(x):
    """Shuffle ``x`` along its first axis, in place."""
    x[...] = apply_op('_shuffle', [to_array(x, 'shuffle')])


def permutation(x, ctx=None):
    """A shuffled copy of ``x``, or of ``arange(x)`` for an integer."""
    if isinstance(x, numbers.Integral):
        from .multiarray import arange
        x = arange(x, dtype='int64', ctx=ctx)
    return apply_op('_shuffle', [to_array(x, 'permutation')])


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):
    """Samples of ``a`` (or of ``arange(a)``), uniform or with probabilities ``p``: one
    ``_npi_choice`` draw of indices, so it works on traced Symbols too."""
    shape, scalar = _size(size)
    params = {'size': shape, 'replace': bool(replace), 'weighted': p is not None}
    inputs = []
    if isinstance(a, numbers.Integral):
        params['a'] = int(a)
    else:
        a = to_array(a, 'choice', 'a')
        inputs.append(a)
    if p is not None:
        inputs.append(p if isinstance(p, NDArray) or is_symbol(p)
                      else array(onp.asarray(p, dtype=onp.float64), dtype='float64', ctx=ctx))
    idx = apply_op('_npi_choice', inputs, params, ctx=None if inputs else _ctx(ctx))
    res = idx if isinstance(a, numbers.Integral) else take(a, idx)
    res = reshape(res, ()) if scalar else res
    if out is not None:
        out[...] = res
        return out
    return res


def multinomial(n, pvals, size=None):
    """Counts of ``n`` draws over categories with probabilities ``pvals`` (int64)."""
    pvals = onp.asarray(pvals, dtype=onp.float64)
    shape, scalar = _size(size)
    if len(pvals) == 0:  # no categories: empty counts, as MXNet
        counts = onp.zeros(shape + (0,), onp.int64)
    else:
        draws = choice(len(pvals), size=shape + (int(n),), p=pvals).asnumpy()
        counts = (draws[..., None] == onp.arange(len(pvals))).sum(-2).astype(onp.int64)
    return array(counts[0] if scalar else counts, dtype='int64')


def seed(seed, ctx='all'):  # noqa: A002 (MXNet's name)
    """Seed the random number generators (``mx.random.seed``)."""
    from .. import random as _random
    _random.seed(seed, ctx=ctx)


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):
    """Samples of N(mean, cov) (batches broadcast): shape size + batch + (k,)."""
    if check_valid is not None or tol is not None:
        raise NotImplementedError('multivariate_normal: check_valid and tol are not supported (as in MXNet)')
    return apply_op('_npi_multivariate_normal', [to_array(mean, 'multivariate_normal', 'mean'),
                                                 to_array(cov, 'multivariate_normal', 'cov')],
                    {'size': None if size is None else _shape(size)})
