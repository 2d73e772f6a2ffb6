"""gluonjax: MXNet 1.x Gluon code, running on JAX and XLA.

``import gluonjax as mx`` and MXNet code works: ``mx.nd``, ``mx.autograd``,
``mx.sym``, ``mx.gluon``, ``mx.init``, ``mx.optimizer``, ``mx.kv`` (the
``kvstore`` package) and ``mx.viz`` (the ``viz`` package).
"""
import jax as _jax

# MXNet has float64 and int64 arrays; jax keeps them only with x64 enabled.
# Every operator keeps float32 as the default dtype (see docs/DESIGN.md).
_jax.config.update('jax_enable_x64', True)

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

import importlib as _importlib  # noqa: E402

# Packages loaded on first use: mx.kv and mx.viz are the top-level kvstore and viz
# packages (which import gluonjax themselves), the rest are heavier parts of the core.
_LAZY = {
    'kv': 'kvstore', 'kvstore': 'kvstore', 'viz': 'viz', 'visualization': 'viz',
    'sym': 'gluonjax.symbol', 'symbol': 'gluonjax.symbol', 'gluon': 'gluonjax.gluon',
    'init': 'gluonjax.initializer', 'initializer': 'gluonjax.initializer',
    'optimizer': 'gluonjax.optimizer', 'lr_scheduler': 'gluonjax.lr_scheduler',
    'metric': 'gluonjax.metric', 'io': 'gluonjax.io', 'test_utils': 'gluonjax.test_utils',
    'np': 'gluonjax.numpy', 'numpy': 'gluonjax.numpy', 'npx': 'gluonjax.numpy_extension',
    'deploy': 'gluonjax.deploy', 'executor': 'gluonjax.symbol.executor',
    'util': 'gluonjax.util', 'name': 'gluonjax.name', 'attribute': 'gluonjax.symbol._attribute',
    'mod': 'gluonjax.module', 'module': 'gluonjax.module', 'model': 'gluonjax.model',
    'callback': 'gluonjax.callback', 'monitor': 'gluonjax.monitor', 'mon': 'gluonjax.monitor',
}


# Names of classes loaded on first use: (module, attribute).
_LAZY_ATTRS = {'AttrScope': ('gluonjax.symbol._attribute', 'AttrScope')}


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
