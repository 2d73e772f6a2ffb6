"""gluonjax: MXNet 1.x Gluon code, running on JAX and XLA.

``import gluonjax as mx`` and MXNet code works: ``mx.nd``, ``mx.autograd``,
``mx.sym``, ``mx.gluon``, ``mx.init``, ``mx.optimizer``, ``mx.kv`` (the
``kvstore`` package) and ``mx.viz`` (the ``viz`` package).
"""
from . import _logs
_logs.quiet_library_loggers()  # before jax is imported: its import logs too

__version__ = '0.1.0'

from . import _compile_cache  # noqa: E402
_compile_cache.enable_from_environment()

from . import base  # noqa: E402
from .base import MXNetError  # noqa: E402,F401
from . import context  # noqa: E402
from .context import Context, cpu, gpu, cpu_pinned, current_context, num_gpus  # noqa: E402,F401
from . import autograd  # noqa: E402
from . import ndarray  # noqa: E402
from . import ndarray as nd  # noqa: E402
from . import random  # noqa: E402
from . import ops  # noqa: E402
from ._alias import alias_as_mxnet  # noqa: E402,F401
from . import _caches  # noqa: E402
from ._caches import clear_caches  # noqa: E402,F401

import importlib as _importlib  # noqa: E402


def _load_numpy_front_ends():
    return _importlib.import_module('gluonjax.numpy'), _importlib.import_module('gluonjax.numpy_extension')


# Lower layers reach higher ones through base.upper_layer, not by importing them:
# F.np / F.npx and NDArray.as_np_ndarray (mx.np is above NDArray and Symbol).
base.register_upper_layer('numpy', _load_numpy_front_ends)
base.register_upper_layer('kvstore', lambda: _importlib.import_module('kvstore'))  # Trainer's stores
# mx.io.ImageRecordIter and recordio's image codecs live in modules built on io and recordio.
base.register_upper_layer('io_image', lambda: _importlib.import_module('gluonjax.io_image'))
base.register_upper_layer('image', lambda: _importlib.import_module('gluonjax.image.image'))
# mx.nd.contrib.foreach & co. on Symbols (Gluon 2 forward code traced by hybridize) build graph nodes.
base.register_upper_layer('symbol_control_flow', lambda: _importlib.import_module('gluonjax.symbol._control_flow'))
# autograd.get_symbol writes the tape as a Symbol.
base.register_upper_layer('symbol', lambda: _importlib.import_module('gluonjax.symbol.symbol'))

from ._lazy import LAZY as _LAZY, LAZY_ATTRS as _LAZY_ATTRS  # noqa: E402


def __getattr__(name):
    if name in _LAZY_ATTRS:
        module, attr = _LAZY_ATTRS[name]
        value = getattr(_importlib.import_module(module), attr)
        globals()[name] = value
        return value
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError("module 'gluonjax' has no attribute %r" % name)
    module = _importlib.import_module(target)
    globals()[name] = module
    return module


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_ATTRS))


# A worker started by `python -m kvstore.launch` joins its jax.distributed job now,
# before any array exists (jax requires that); see kvstore/dist.py.
import os as _os  # noqa: E402

if _os.environ.get('GLUONJAX_COORDINATOR'):
    _importlib.import_module('kvstore.dist').join_from_environment()
# Shape inference reads mx.np_shape's switch (unknown dimensions are -1 under it, 0 without).
base.register_upper_layer('np_shape', lambda: _importlib.import_module('gluonjax.numpy._state').is_np_shape)
# mx.nd.CachedOp runs a Symbol: it lives in the symbol layer.
base.register_upper_layer('cached_op', lambda: _importlib.import_module('gluonjax.symbol._cached_op').CachedOp)
