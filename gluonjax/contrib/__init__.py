"""``mx.contrib``: MXNet 1.x's contributed APIs.

``contrib.nd`` / ``contrib.ndarray`` and ``contrib.sym`` / ``contrib.symbol`` are
``mx.nd.contrib`` and ``mx.sym.contrib`` (the table's ``_contrib_*`` operators and the control
flow functions foreach, while_loop and cond); ``contrib.autograd`` is the autograd API of
MXNet 0.11 (train_section, mark_variables, grad_and_loss, ...); ``contrib.io`` has
DataLoaderIter; ``contrib.amp`` is automatic mixed precision; ``contrib.onnx.export_model`` is
``mx.onnx.export_model`` (MXNet 1.9.1's older path). MXNet's ONNX import (contrib.onnx.import_model),
``contrib.text`` has vocabularies and token embeddings read from local files;
``contrib.svrg_optimization`` (SVRGModule, a Module: imported by name, as in MXNet). contrib.tensorrt,
contrib.quantization and contrib.tensorboard are not provided.
"""
import sys as _sys

from ..ndarray import contrib as ndarray
from ..symbol import contrib as symbol
from . import autograd, io, onnx  # noqa: F401
from . import amp  # noqa: F401
from . import text  # noqa: F401

nd = ndarray
sym = symbol
# MXNet's contrib.ndarray and contrib.symbol are modules: `from mxnet.contrib.ndarray import
# MultiBoxPrior` (the Straight Dope's SSD chapter) imports them by path
_sys.modules[__name__ + '.ndarray'] = ndarray
_sys.modules[__name__ + '.symbol'] = symbol

__all__ = ['nd', 'ndarray', 'sym', 'symbol', 'autograd', 'io', 'amp', 'onnx', 'text']
