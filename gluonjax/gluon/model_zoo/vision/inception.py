"""Inception V3 (MXNet 1.9.1's model zoo architecture and parameter names)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ._common import DEFAULT_ROOT, load_pretrained

__all__ = ['Inception3', 'inception_v3']


def _conv_bn_relu(**conv_args):
    """Convolution without bias, batch norm (epsilon 0.001), ReLU."""
    out = nn.HybridSequential(prefix='')
    out.add(nn.Conv2D(use_bias=False, **conv_args), nn.BatchNorm(epsilon=0.001),
            nn.Activation('relu'))
    return out


def _branch(pool, *convs):
    """A branch: an optional pooling ('avg': 3x3/1 padded, 'max': 3x3/2), then conv-BN-ReLU
    units given as (channels, kernel_size, strides, padding), None meaning the default."""
    out = nn.HybridSequential(prefix='')
    if pool == 'avg':
        out.add(nn.AvgPool2D(pool_size=3, strides=1, padding=1))
    elif pool == 'max':
        out.add(nn.MaxPool2D(pool_size=3, strides=2))
    for conv in convs:
        args = {key: value for key, value in zip(('channels', 'kernel_size', 'strides', 'padding'),
                                                 conv) if value is not None}
        out.add(_conv_bn_relu(**args))
    return out


def _concat(prefix, *branches):
    """Branches side by side under ``prefix``, concatenated along channels; each element of
    ``branches`` is a function building one branch (so it is named inside the prefix)."""
    out = nn.HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        for make in branches:
            out.add(make())
    return out


def _make_A(pool_features, prefix):
    return _concat(prefix,
                   lambda: _branch(None, (64, 1, None, None)),
                   lambda: _branch(None, (48, 1, None, None), (64, 5, None, 2)),
                   lambda: _branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
                   lambda: _branch('avg', (pool_features, 1, None, None)))


def _make_B(prefix):
    return _concat(prefix,
                   lambda: _branch(None, (384, 3, 2, None)),
                   lambda: _branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)),
                   lambda: _branch('max'))


def _make_C(channels_7x7, prefix):
    c = channels_7x7
    return _concat(prefix,
                   lambda: _branch(None, (192, 1, None, None)),
                   lambda: _branch(None, (c, 1, None, None), (c, (1, 7), None, (0, 3)),
                                   (192, (7, 1), None, (3, 0))),
                   lambda: _branch(None, (c, 1, None, None), (c, (7, 1), None, (3, 0)),
                                   (c, (1, 7), None, (0, 3)), (c, (7, 1), None, (3, 0)),
                                   (192, (1, 7), None, (0, 3))),
                   lambda: _branch('avg', (192, 1, None, None)))


def _make_D(prefix):
    return _concat(prefix,
                   lambda: _branch(None, (192, 1, None, None), (320, 3, 2, None)),
                   lambda: _branch(None, (192, 1, None, None), (192, (1, 7), None, (0, 3)),
                                   (192, (7, 1), None, (3, 0)), (192, 3, 2, None)),
                   lambda: _branch('max'))


def _split_1x3_3x1(head):
    """``head`` followed by a 1x3 and a 3x1 conv unit side by side (384 channels each)."""
    out = nn.HybridSequential(prefix='')
    out.add(head)
    split = nn.HybridConcurrent(axis=1, prefix='')
    split.add(_branch(None, (384, (1, 3), None, (0, 1))))
    split.add(_branch(None, (384, (3, 1), None, (1, 0))))
    out.add(split)
    return out


def _make_E(prefix):
    return _concat(prefix,
                   lambda: _branch(None, (320, 1, None, None)),
                   lambda: _split_1x3_3x1(_branch(None, (384, 1, None, None))),
                   lambda: _split_1x3_3x1(_branch(None, (448, 1, None, None), (384, 3, None, 1))),
                   lambda: _branch('avg', (192, 1, None, None)))


def make_aux(classes):
    """The auxiliary classifier head (not used by Inception3's forward, kept as in MXNet)."""
    out = nn.HybridSequential(prefix='')
    out.add(nn.AvgPool2D(pool_size=5, strides=3))
    out.add(_conv_bn_relu(channels=128, kernel_size=1))
    out.add(_conv_bn_relu(channels=768, kernel_size=5))
    out.add(nn.Flatten())
    out.add(nn.Dense(classes))
    return out


class Inception3(HybridBlock):
    r"""Inception V3 from `"Rethinking the Inception Architecture for Computer Vision"
    <http://arxiv.org/abs/1512.00567>`_; expects 299x299 images.

    Parameters
    ----------
    classes : int, default 1000
        Number of classes.
    """

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            add = self.features.add
            add(_conv_bn_relu(channels=32, kernel_size=3, strides=2))
            add(_conv_bn_relu(channels=32, kernel_size=3))
            add(_conv_bn_relu(channels=64, kernel_size=3, padding=1))
            add(nn.MaxPool2D(pool_size=3, strides=2))
            add(_conv_bn_relu(channels=80, kernel_size=1))
            add(_conv_bn_relu(channels=192, kernel_size=3))
            add(nn.MaxPool2D(pool_size=3, strides=2))
            add(_make_A(32, 'A1_'), _make_A(64, 'A2_'), _make_A(64, 'A3_'))
            add(_make_B('B_'))
            add(_make_C(128, 'C1_'), _make_C(160, 'C2_'), _make_C(160, 'C3_'),
                _make_C(192, 'C4_'))
            add(_make_D('D_'))
            add(_make_E('E1_'), _make_E('E2_'))
            add(nn.AvgPool2D(pool_size=8), nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def inception_v3(pretrained=False, ctx=cpu(), root=DEFAULT_ROOT, **kwargs):
    r"""Inception v3 model from `"Rethinking the Inception Architecture for Computer Vision"
    <http://arxiv.org/abs/1512.00567>`_.

    Parameters
    ----------
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default $MXNET_HOME/models
        Folder of the pretrained weight files.
    classes : int, default 1000
        Number of classes.
    """
    net = Inception3(**kwargs)
    if pretrained:
        load_pretrained(net, 'inceptionv3', root, ctx)
    return net
