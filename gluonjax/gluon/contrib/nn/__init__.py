"""``mx.gluon.contrib.nn``: containers, pixel shuffling, SparseEmbedding and SyncBatchNorm."""
from .basic_layers import *  # noqa: F401,F403
