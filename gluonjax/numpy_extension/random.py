"""``mx.npx.random``: seeding, Bernoulli samples and batches of samples (the other samplers are in
``mx.np.random``)."""
import numpy as onp

from ..ndarray.ndarray import NDArray
from ..numpy._core import apply_op, is_scalar, to_array
from ..numpy.multiarray import _ctx, _shape
from ..numpy.random import _np_sample


def seed(seed, ctx='all'):  # noqa: A002 (MXNet's name)
    """Seed the random number generators (as ``mx.random.seed``)."""
    from .. import random as _random
    _random.seed(seed, ctx=ctx)


def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):
    """Samples that are 1 with probability ``prob`` (or ``sigmoid(logit)``), else 0: exactly one
    of the two is given, a number or an array in [0, 1] (checked on the host, with MXNet's
    ValueError); shape ``size`` or the parameter's."""
    if (prob is None) == (logit is None):
        raise ValueError('bernoulli: give exactly one of prob and logit')
    value, is_logit = (prob, False) if logit is None else (logit, True)
    if not is_logit:
        host = onp.asarray(value.asnumpy() if isinstance(value, NDArray) else value)
        if host.size and (host.min() < 0 or host.max() > 1):
            raise ValueError('bernoulli: prob must be in [0, 1]')
    params = {'prob': None, 'logit': None, 'is_logit': is_logit, 'size': None if size is None else _shape(size),
              'dtype': None if dtype is None else onp.dtype(dtype).name}
    inputs = []
    if is_scalar(value):
        params['logit' if is_logit else 'prob'] = float(value)
    else:
        inputs.append(to_array(value, 'bernoulli', 'logit' if is_logit else 'prob'))
    return apply_op('_npi_bernoulli', inputs, params, out=out, ctx=None if inputs else _ctx(ctx))


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """``batch_shape`` samples of U[low, high) for the broadcast shape of the bounds: shape
    batch_shape + that shape."""
    return _np_sample('uniform', {'low': low, 'high': high}, batch_shape, dtype, ctx, None, op='_npi_uniform_n')


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """``batch_shape`` samples of N(loc, scale**2) for the broadcast shape of the parameters:
    shape batch_shape + that shape."""
    return _np_sample('normal', {'loc': loc, 'scale': scale}, batch_shape, dtype, ctx, None,
                      nonnegative=('scale',), op='_npi_normal_n')
