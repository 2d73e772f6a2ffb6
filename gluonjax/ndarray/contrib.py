"""``mx.nd.contrib``: the table's ``_contrib_*`` operators under their short names, and the
control-flow functions foreach, while_loop and cond."""
from ..ops._frontend import populate as _populate
from ._control_flow import foreach, while_loop, cond  # noqa: F401
from ._gen import make_function as _make_function
from . import _internal
from .ndarray import NDArray as _NDArray, array as _array

_populate(globals(), _make_function, ('_contrib_',))


# MXNet's contrib isinf/isfinite/isnan are Python compositions of table operators, not
# operators of their own; like comparisons they give 0/1 in the input's dtype.
def isinf(data):
    """1 where ``data`` is +inf or -inf, else 0 (in ``data``'s dtype)."""
    return data.abs() == float('inf')


def isfinite(data):
    """1 where ``data`` is neither inf nor NaN, else 0 (in ``data``'s dtype)."""
    return (data == data) * (data.abs() != float('inf'))


def isnan(data):
    """1 where ``data`` is NaN, else 0 (in ``data``'s dtype)."""
    return data != data


# MXNet's contrib AdamW functions are Python wrappers of the _adamw_update family that take the
# rescale factor as a number or an array (a loss scaler's) and the multi-tensor ones as lists.
def _rescale_array(rescale_grad, like):
    if isinstance(rescale_grad, _NDArray):
        return rescale_grad
    return _array([rescale_grad], ctx=like.context, dtype='float32')


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0,
                 clip_gradient=-1, out=None, name=None, **kwargs):
    """AdamW update of ``weight`` (mean and var in place); see ``_adamw_update``."""
    return _internal._adamw_update(weight, grad, mean, var, _rescale_array(rescale_grad, weight), lr=lr, eta=eta,
                                   beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd, clip_gradient=clip_gradient,
                                   out=out, name=name, **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                    epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """AdamW update on the float32 master ``weight32`` (mean, var, weight32 in place)."""
    return _internal._mp_adamw_update(weight, grad, mean, var, weight32, _rescale_array(rescale_grad, weight),
                                      lr=lr, eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                                      clip_gradient=clip_gradient, out=out, name=name, **kwargs)


def multi_adamw_update(weights, grads, mean, var, rescale_grad, lrs, wds, etas, out=None, name=None, size=0,
                       **kwargs):
    """adamw_update of each weight of the lists, with its own lr, wd and eta."""
    arrays = [a for group in zip(weights, grads, mean, var) for a in group]
    return _internal._multi_adamw_update(*arrays, _rescale_array(rescale_grad, weights[0]),
                                         num_weights=size or len(weights), lrs=lrs, wds=wds, etas=etas, out=out,
                                         name=name, **kwargs)


def multi_mp_adamw_update(weights, grads, mean, var, weights32, rescale_grad, lrs, wds, etas, out=None,
                          name=None, size=0, **kwargs):
    """mp_adamw_update of each weight of the lists, with its own lr, wd and eta."""
    arrays = [a for group in zip(weights, grads, mean, var, weights32) for a in group]
    return _internal._multi_mp_adamw_update(*arrays, _rescale_array(rescale_grad, weights[0]),
                                            num_weights=size or len(weights), lrs=lrs, wds=wds, etas=etas,
                                            out=out, name=name, **kwargs)


def rand_zipfian(true_classes, num_sampled, range_max, ctx=None):
    """Draw ``num_sampled`` classes (with replacement) from the log-uniform (Zipfian) distribution
    over [0, range_max), P(c) = log((c + 2) / (c + 1)) / log(range_max + 1), as candidate
    sampling uses. Returns (sampled classes int64, expected counts of ``true_classes``, expected
    counts of the sampled classes), the counts being P(c) * num_sampled in float64."""
    from . import random
    if ctx is None:
        ctx = true_classes.context
    return zipfian_from(random.uniform, true_classes, num_sampled, range_max, ctx=ctx)


def zipfian_from(uniform, true_classes, num_sampled, range_max, **where):
    """rand_zipfian written once for NDArrays and Symbols: ``uniform`` is the front end's sampler."""
    import math
    log_range = math.log(range_max + 1)
    draws = uniform(0, log_range, shape=(num_sampled,), dtype='float64', **where)
    sampled = (draws.exp() - 1).astype('int64') % range_max

    def expected_count(classes):
        c = classes.astype('float64')
        return ((c + 2.0) / (c + 1.0)).log() / log_range * num_sampled
    return sampled, expected_count(true_classes), expected_count(sampled)
