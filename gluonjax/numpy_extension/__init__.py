"""``mx.npx``: MXNet's operators beyond NumPy (neural-network layers, ``set_np``, devices).

The layer functions (``fully_connected``, ``convolution``, ``batch_norm``, ...) are the
operators of the same table as ``mx.nd.FullyConnected`` & co., with MXNet's parameter
names; they take and return ``mx.np.ndarray`` and build graph nodes on Symbols.
"""

from ..context import cpu, gpu, cpu_pinned, num_gpus, current_context, gpu_memory_info  # noqa: F401
from ..ndarray.ndarray import waitall  # noqa: F401
from .. import numpy as _np  # noqa: F401  (mx.np first: it registers its operators)
from ._ops import *  # noqa: F401,F403
from ._mode import set_np, reset_np, is_np_array, is_np_shape, use_np, use_np_array, use_np_shape, \
    np_array, np_shape, is_np_default_dtype  # noqa: F401
from ._io import save, savez, load  # noqa: F401
from . import random  # noqa: F401


def seed(seed, ctx='all'):  # noqa: A002 (MXNet's name)
    """Seed the random number generators (as ``mx.random.seed``)."""
    from .. import random as _random
    _random.seed(seed, ctx=ctx)

