"""``mx.gluon``: Parameters, Blocks, layers, losses, Trainer and data loading.

``nn``, ``rnn``, ``utils``, ``Parameter``, ``Block`` and friends load with the package; ``loss``,
``Trainer``, ``data``, ``model_zoo`` and ``contrib`` load on first use, so that a missing
or broken one does not stop the rest from working.
"""
import importlib as _importlib

from .parameter import Parameter, Constant, ParameterDict, DeferredInitializationError  # noqa: F401
from .block import Block, HybridBlock, SymbolBlock  # noqa: F401
from . import nn  # noqa: F401
from . import rnn  # noqa: F401
from . import utils  # noqa: F401

_LAZY_MODULES = {'loss': '.loss', 'data': '.data', 'trainer': '.trainer',
                 'model_zoo': '.model_zoo', 'contrib': '.contrib', 'metric': '.metric'}


def _load(target, name):
    try:
        return _importlib.import_module(target, __name__)
    except ImportError as err:  # a part another module provides is missing or broken
        raise AttributeError('gluonjax.gluon.%s is not available: %s' % (name, err)) from err


def __getattr__(name):
    if name == 'tensor_types':  # MXNet's star-export of gluon.parameter: (Symbol, NDArray)
        from . import parameter
        globals()[name] = parameter.tensor_types  # resolved late there (symbol imports gluon)
        return globals()[name]
    if name == 'Trainer':
        trainer = _load('.trainer', name)
        globals()['Trainer'] = trainer.Trainer
        return trainer.Trainer
    target = _LAZY_MODULES.get(name)
    if target is None:
        raise AttributeError("module 'gluonjax.gluon' has no attribute %r" % name)
    module = _load(target, name)
    globals()[name] = module
    return module


def __dir__():
    return sorted(set(globals()) | set(_LAZY_MODULES) | {'Trainer', 'tensor_types'})
