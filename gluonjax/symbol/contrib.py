"""``mx.sym.contrib``: the table's ``_contrib_*`` operators under their short names, and the
control-flow functions foreach, while_loop and cond (graph nodes with subgraphs)."""
from ..ops._frontend import populate as _populate
from ._control_flow import foreach, while_loop, cond  # noqa: F401
from ._gen import make_function as _make_function

_populate(globals(), _make_function, ('_contrib_',))


def rand_zipfian(true_classes, num_sampled, range_max):
    """The symbol form of ``mx.nd.contrib.rand_zipfian``: (sampled classes, expected counts of the
    true classes, expected counts of the sampled ones)."""
    from ..ndarray.contrib import zipfian_from
    from . import random
    return zipfian_from(random.uniform, true_classes, num_sampled, range_max)
