"""``mx.nd.contrib``: the table's ``_contrib_*`` operators under their short names, and the
control-flow functions foreach, while_loop and cond."""
from ..ops._frontend import populate as _populate
from ._control_flow import foreach, while_loop, cond  # noqa: F401
from ._gen import make_function as _make_function

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
