"""``mx.gluon.contrib.rnn``: MXNet 1.x's contributed recurrent cells.

``VariationalDropoutCell``, ``LSTMPCell`` (GluonTS's DeepAR uses the first) and the
convolutional cells ``Conv1DRNNCell`` ... ``Conv3DGRUCell`` are provided, and
``rnn_cell.dynamic_unroll``.
"""
from . import rnn_cell  # noqa: F401
from .rnn_cell import *  # noqa: F401,F403
from . import conv_rnn_cell  # noqa: F401
from .conv_rnn_cell import *  # noqa: F401,F403
