"""``mx.sym.random``: sampling symbols over the table's random operators.

Numbers as parameters give ``_random_<dist>`` nodes with a ``shape``; symbols
give ``_sample_<dist>`` nodes drawing per element of the parameter arrays.
"""
import numbers

import numpy as np

from ..ops import get_op
from ..ops._frontend import populate as _populate
from ._gen import make_function as _make_function
from .symbol import Symbol, create


def _sample(scalar_op, array_op, params, shape, dtype, kwargs):
    name = kwargs.pop('name', None)
    attr = kwargs.pop('attr', None)
    symbols = [v for v in params.values() if isinstance(v, Symbol)]
    extra = dict(kwargs)
    if shape is not None:
        extra['shape'] = shape
    if dtype is not None:
        extra['dtype'] = np.dtype(dtype).name
    if symbols:
        if len(symbols) != len(params):  # AssertionError, as MXNet's front end asserts it
            raise AssertionError('%s: parameters must be all Symbols or all numbers, got %s'
                                 % (array_op, [type(v).__name__ for v in params.values()]))
        return create(get_op(array_op), symbols, extra, name=name, attr=attr, hint=array_op)
    for k, v in params.items():
        if not isinstance(v, (numbers.Number, np.generic)):
            raise TypeError('%s: parameter %s must be a number or a Symbol, got %s'
                            % (scalar_op, k, type(v).__name__))
    extra.update(params)
    return create(get_op(scalar_op), [], extra, name=name, attr=attr, hint=scalar_op)


def uniform(low=0, high=1, shape=None, dtype=None, **kwargs):
    return _sample('_random_uniform', '_sample_uniform', {'low': low, 'high': high}, shape, dtype, kwargs)


def normal(loc=0, scale=1, shape=None, dtype=None, **kwargs):
    return _sample('_random_normal', '_sample_normal', {'loc': loc, 'scale': scale}, shape, dtype, kwargs)


def poisson(lam=1, shape=None, dtype=None, **kwargs):
    return _sample('_random_poisson', '_sample_poisson', {'lam': lam}, shape, dtype, kwargs)


def exponential(scale=1, shape=None, dtype=None, **kwargs):
    # a Symbol scale becomes a rate as a number does (an _rdiv_scalar node), as in MXNet
    return _sample('_random_exponential', '_sample_exponential', {'lam': 1.0 / scale}, shape, dtype, kwargs)


def gamma(alpha=1, beta=1, shape=None, dtype=None, **kwargs):
    return _sample('_random_gamma', '_sample_gamma', {'alpha': alpha, 'beta': beta}, shape, dtype, kwargs)


def negative_binomial(k=1, p=1, shape=None, dtype=None, **kwargs):
    return _sample('_random_negative_binomial', '_sample_negative_binomial', {'k': k, 'p': p}, shape, dtype, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=None, dtype=None, **kwargs):
    return _sample('_random_generalized_negative_binomial', '_sample_generalized_negative_binomial',
                   {'mu': mu, 'alpha': alpha}, shape, dtype, kwargs)


def randn(*shape, **kwargs):
    """Normal samples of ``shape`` (positional dimensions, as ``nd.random.randn``)."""
    loc, scale = kwargs.pop('loc', 0), kwargs.pop('scale', 1)
    kwargs.pop('data', None)  # MXNet drops a symbol given to this input-free operator
    return normal(loc, scale, shape or None, **kwargs)


def randint(low, high, shape=None, dtype=None, **kwargs):
    return _sample('_random_randint', None, {'low': low, 'high': high}, shape, dtype, kwargs)


def multinomial(data, shape=None, get_prob=True, dtype='int32', **kwargs):
    # MXNet's symbol form returns the log-probabilities by default (nd.random.multinomial does not)
    extra = dict(kwargs, get_prob=get_prob, dtype=np.dtype(dtype).name)
    if shape is not None:
        extra['shape'] = shape
    name, attr = extra.pop('name', None), extra.pop('attr', None)
    return create(get_op('_sample_multinomial'), [data], extra, name=name, attr=attr, hint='_sample_multinomial')


def shuffle(data, **kwargs):
    name, attr = kwargs.pop('name', None), kwargs.pop('attr', None)
    return create(get_op('_shuffle'), [data], kwargs, name=name, attr=attr, hint='_shuffle')


_populate(globals(), _make_function, ('_random_', '_sample_'))
