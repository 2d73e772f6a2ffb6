"""``mx.random``: ``seed`` and the table's random operators (``mx.random.uniform`` & co.).

The key state is ``ops/_rng.py``, below NDArray; the operators are generated into
``nd.random``, so this module sits above ndarray.
"""
from .ops._rng import seed, next_key  # noqa: F401

__all__ = ['seed', 'uniform', 'normal', 'randn', 'randint', 'shuffle', 'exponential', 'gamma',
           'poisson', 'multinomial', 'negative_binomial', 'generalized_negative_binomial']


def __getattr__(name):
    # mx.random.uniform & co. are the table's random operators, generated into nd.random.
    if name in __all__:
        from .ndarray import random as _ndrandom
        return getattr(_ndrandom, name)
    raise AttributeError(name)
