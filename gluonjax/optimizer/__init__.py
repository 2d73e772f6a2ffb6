"""``mx.optimizer``: MXNet's optimizers by name, with MXNet 1.9's update formulas.

    opt = mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9, wd=1e-4)
    updater = mx.optimizer.get_updater(opt)
    updater(0, grad, weight)          # weight updated in place

Each optimizer's update runs as an optax transformation, compiled once for all the
weights given together (see ``optimizer.py``). Modules: ``optimizer`` (base class,
registry, Updater, state files), ``sgd`` (SGD, NAG, Signum, LARS, DCASGD), ``adam`` (Adam,
AdamW, Adamax, Nadam, LAMB), ``adaptive`` (RMSProp, AdaGrad, AdaDelta, Ftrl, FTML), ``contrib``
(GroupAdaGrad); ``sgd`` also holds SGLD, LBSGD and Test.
"""
from .optimizer import Optimizer, Updater, create, register, get_updater, mxnet_transform  # noqa: F401
from .sgd import SGD, ccSGD, NAG, Signum, LARS, DCASGD, SGLD, LBSGD, Test  # noqa: F401
from .adam import Adam, AdamW, Adamax, Nadam, LAMB  # noqa: F401
from .adaptive import RMSProp, AdaGrad, AdaDelta, Ftrl, FTML  # noqa: F401
from . import contrib  # noqa: F401  (registers groupadagrad)

__all__ = ['Optimizer', 'Updater', 'create', 'register', 'get_updater', 'mxnet_transform', 'SGD', 'ccSGD', 'NAG',
           'Signum', 'LARS', 'Adam', 'AdamW', 'Adamax', 'Nadam', 'LAMB', 'RMSProp', 'AdaGrad',
           'AdaDelta', 'Ftrl', 'FTML', 'DCASGD', 'SGLD', 'LBSGD', 'Test', 'contrib']
