"""``mx.nd``: the imperative NDArray API. Operator functions are generated from the table."""
from .. import ops as _ops  # registers every operator
from ..base import upper_layer as _upper_layer
from .ndarray import NDArray, array, waitall, invoke, apply_fn  # noqa: F401
from ._creation import (zeros, ones, full, empty, arange, eye, linspace, zeros_like, ones_like,  # noqa: F401
                        concatenate, moveaxis, onehot_encode)
from ._arith import (add, subtract, multiply, divide, true_divide, modulo, power, maximum, minimum,  # noqa: F401
                     equal, not_equal, greater, greater_equal, lesser, lesser_equal, logical_and,
                     logical_or, logical_xor, hypot, negative)
from ._io import save, load, load_frombuffer  # noqa: F401
from ._exchange import from_dlpack, to_dlpack_for_read, to_dlpack_for_write, from_numpy  # noqa: F401
from . import _indexing  # noqa: F401  (gives NDArray its __getitem__ / __setitem__)
from . import _gen
from ..ops._frontend import populate as _populate, add_python_functions as _add_python_functions

_populate(globals(), _gen.make_function)
_add_python_functions(globals(), NDArray)
_gen.add_methods()

from . import random  # noqa: E402,F401
from . import linalg  # noqa: E402,F401
from . import contrib  # noqa: E402,F401
from . import image  # noqa: E402,F401
from . import sparse  # noqa: E402,F401
from . import _internal  # noqa: E402,F401


def __getattr__(name):
    # F.np / F.npx in hybrid_forward: the NumPy front end is a layer above, so it is
    # reached through base.upper_layer, not imported here.
    if name in ('np', 'npx'):
        np_module, npx_module = _upper_layer('numpy')
        return np_module if name == 'np' else npx_module
    if name == 'CachedOp':  # runs a Symbol, so it lives in the symbol layer
        return _upper_layer('cached_op')
    raise AttributeError('module %r has no attribute %r' % (__name__, name))
