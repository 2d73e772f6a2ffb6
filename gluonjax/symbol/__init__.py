"""``mx.sym``: symbolic graphs in MXNet's format, built from the operator table.

``Symbol`` (graph, JSON, composition, inference), ``var``/``Variable``, ``Group``,
``load``/``fromjson``, an ``mx.sym.<op>`` function for every operator of the table
(aliases included), and executors (``Symbol.bind``, ``simple_bind``, ``eval``).
"""
from .. import ops as _ops  # registers every operator
from ..base import upper_layer as _upper_layer
from .symbol import (Symbol, var, Variable, Group,  # noqa: F401
                     pow, power, maximum, minimum, hypot, zeros, ones, full, arange, linspace)
from .json import load, fromjson, load_json  # noqa: F401  (and Symbol.tojson / save)
from ._name import NameManager, Prefix  # noqa: F401
from ._attribute import AttrScope  # noqa: F401
from .executor import Executor  # noqa: F401
from . import _gen
from ..ops._frontend import populate as _populate, add_python_functions as _add_python_functions

_populate(globals(), _gen.make_function)
_add_python_functions(globals(), Symbol)

_gen.add_fluent_methods()

from . import contrib, linalg, random, image, sparse  # noqa: E402,F401
from . import graph  # noqa: E402,F401
from . import _internal  # noqa: E402,F401
from . import _subgraph_json  # noqa: E402,F401  (the reader of _CachedOp subgraphs)
from . import _partition  # noqa: E402,F401  (Symbol.optimize_for, the subgraph API's C functions)


def __getattr__(name):
    # F.np / F.npx in hybrid_forward: the NumPy front end is a layer above, so it is
    # reached through base.upper_layer, not imported here.
    if name in ('np', 'npx'):
        np_module, npx_module = _upper_layer('numpy')
        return np_module._symbol.symbol_np if name == 'np' else npx_module
    raise AttributeError('module %r has no attribute %r' % (__name__, name))
