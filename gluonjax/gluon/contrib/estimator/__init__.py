"""``mx.gluon.contrib.estimator``: MXNet 1.x's high-level training loop.

An :class:`Estimator` runs ``fit``/``evaluate`` over Gluon DataLoaders and hands every
stage of the loop (train, epoch and batch begin/end) to event handlers; the default
handlers update the weights, the metrics, validate and log as MXNet 1.9.1 does.
"""
from . import estimator  # noqa: F401
from . import event_handler  # noqa: F401
from . import batch_processor  # noqa: F401
from .estimator import *  # noqa: F401,F403
from .event_handler import *  # noqa: F401,F403
from .batch_processor import *  # noqa: F401,F403
