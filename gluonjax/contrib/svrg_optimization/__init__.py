"""``mx.contrib.svrg_optimization``: stochastic variance reduced gradient (Johnson & Zhang, 2013).

``SVRGModule`` is a Module that keeps a second module holding the weights of the last "snapshot"
(taken every ``update_freq`` epochs, when the gradient over the whole data set is computed) and
updates with ``g(w) - g(w_snapshot) + mean full gradient(w_snapshot)``. ``_SVRGOptimizer``
routes each key to the user's optimizer, or, for the ``<name>_full`` keys that accumulate full
gradients in a KVStore, to an optimizer that stores the pushed value.
"""
from . import svrg_module, svrg_optimizer  # noqa: F401
from .svrg_module import SVRGModule
from .svrg_optimizer import _AssignmentOptimizer, _SVRGOptimizer

__all__ = ['SVRGModule', 'svrg_module', 'svrg_optimizer']
