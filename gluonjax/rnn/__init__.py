"""``mx.rnn``: MXNet 1.x's symbolic recurrent cells, bucketing sentence iterator and RNN
checkpoints (the API before ``gluon.rnn``)."""
from . import io, rnn, rnn_cell  # noqa: F401
from .io import BucketSentenceIter, encode_sentences  # noqa: F401
from .rnn import do_rnn_checkpoint, load_rnn_checkpoint, rnn_unroll, save_rnn_checkpoint  # noqa: F401
from .rnn_cell import *  # noqa: F401,F403
