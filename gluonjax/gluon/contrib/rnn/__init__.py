"""``mx.gluon.contrib.rnn``: MXNet 1.x's contributed recurrent cells.

``VariationalDropoutCell`` and ``LSTMPCell`` are provided (GluonTS's DeepAR uses the first);
MXNet's convolutional cells (``Conv1DRNNCell`` ... ``Conv3DGRUCell``) and ``dynamic_unroll``
are not.
"""
from . import rnn_cell  # noqa: F401
from .rnn_cell import *  # noqa: F401,F403
