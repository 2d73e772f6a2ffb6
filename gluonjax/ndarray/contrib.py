"""``mx.nd.contrib``: the table's ``_contrib_*`` operators under their short names, and the
control-flow functions foreach, while_loop and cond."""
from ..ops._frontend import populate as _populate
from ._control_flow import foreach, while_loop, cond  # noqa: F401
from ._gen import make_function as _make_function

_populate(globals(), _make_function, ('_contrib_',))
