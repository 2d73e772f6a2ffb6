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
