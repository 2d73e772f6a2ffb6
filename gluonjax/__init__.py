"""gluonjax: MXNet 1.x Gluon code, running on JAX and XLA.

``import gluonjax as mx`` and MXNet code works: ``mx.nd``, ``mx.autograd``,
``mx.sym``, ``mx.gluon``, ``mx.init``, ``mx.optimizer``, ``mx.kv`` (the
``kvstore`` package) and ``mx.viz`` (the ``viz`` package).
"""
__version__ = '0.1.0'

from . import base  # noqa: E402
from .base import MXNetError  # noqa: E402,F401
from . import context  # noqa: E402
from .context import Context, cpu, gpu, cpu_pinned, current_context, num_gpus  # noqa: E402,F401
from . import autograd  # noqa: E402
from . import _x64  # noqa: E402

# backward and grad run jax (vjp, jit, ones) on the tape's arrays, so they are x64 boundaries like
# every other (see _x64.py). autograd.py is being rewritten elsewhere: until it decorates them
# itself (@_x64.x64 on backward and grad; the decorator is idempotent), they are wrapped here.
autograd.backward = _x64.x64(autograd.backward)
autograd.grad = _x64.x64(autograd.grad)
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
