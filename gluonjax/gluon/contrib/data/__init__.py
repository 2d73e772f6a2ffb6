"""``mx.gluon.contrib.data``: MXNet 1.x's contributed samplers (``IntervalSampler``).

MXNet's ``contrib.data.text`` (WikiText datasets, which download their corpora) is not provided.
"""
from . import sampler  # noqa: F401
from .sampler import IntervalSampler  # noqa: F401
