"""``mx.gluon.contrib``: MXNet 1.x's contributed Gluon layers.

``contrib.nn`` (Concurrent, HybridConcurrent, Identity, PixelShuffle1D/2D/3D, SparseEmbedding,
SyncBatchNorm) and ``contrib.rnn`` (VariationalDropoutCell, LSTMPCell) are provided; MXNet's
``contrib.cnn``, ``contrib.data`` and ``contrib.estimator`` are not.
"""
from . import nn  # noqa: F401
from . import rnn  # noqa: F401
