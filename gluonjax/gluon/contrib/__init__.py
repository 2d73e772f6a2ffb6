"""``mx.gluon.contrib``: MXNet 1.x's contributed Gluon layers.

Only ``contrib.nn`` is provided (Concurrent, HybridConcurrent, Identity, PixelShuffle1D/2D/3D,
SparseEmbedding, SyncBatchNorm); MXNet's ``contrib.rnn``, ``contrib.cnn``, ``contrib.data`` and
``contrib.estimator`` are not.
"""
from . import nn  # noqa: F401
