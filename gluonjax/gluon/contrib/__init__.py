"""``mx.gluon.contrib``: MXNet 1.x's contributed Gluon layers.

``contrib.nn`` (Concurrent, HybridConcurrent, Identity, PixelShuffle1D/2D/3D, SparseEmbedding,
SyncBatchNorm), ``contrib.rnn`` (VariationalDropoutCell, LSTMPCell), ``contrib.estimator``
(Estimator, its event handlers, BatchProcessor), ``contrib.data`` (IntervalSampler) and ``contrib.cnn``
(DeformableConvolution, ModulatedDeformableConvolution) are provided.
"""
from . import nn  # noqa: F401
from . import rnn  # noqa: F401
from . import estimator  # noqa: F401
from . import data  # noqa: F401
from . import cnn  # noqa: F401
