"""SqueezeNet 1.0 and 1.1 (MXNet 1.9.1's model zoo architecture and parameter names)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ._common import DEFAULT_ROOT, load_pretrained

__all__ = ['SqueezeNet', 'squeezenet1_0', 'squeezenet1_1']


def _conv_relu(channels, kernel_size, padding=0):
    out = nn.HybridSequential(prefix='')
    out.add(nn.Conv2D(channels, kernel_size, padding=padding), nn.Activation('relu'))
    return out


def _fire(squeeze, expand1x1, expand3x3):
    """Fire module: a 1x1 'squeeze' convolution, then 1x1 and 3x3 'expand' convolutions side
    by side, concatenated along channels."""
    out = nn.HybridSequential(prefix='')
    out.add(_conv_relu(squeeze, 1))
    expand = nn.HybridConcurrent(axis=1, prefix='')
    expand.add(_conv_relu(expand1x1, 1))
    expand.add(_conv_relu(expand3x3, 3, 1))
    out.add(expand)
    return out


def _pool():
    return nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True)


class SqueezeNet(HybridBlock):
    r"""SqueezeNet from `"SqueezeNet: AlexNet-level accuracy with 50x fewer parameters and
    <0.5MB model size" <https://arxiv.org/abs/1602.07360>`_; version 1.1 is the
    `official repository's <https://github.com/DeepScale/SqueezeNet/tree/master/SqueezeNet_v1.1>`_
    variant, with 2.4x less computation and about the same accuracy.

    Parameters
    ----------
    version : str
        '1.0' or '1.1'.
    classes : int, default 1000
        Number of classes.
    """

    def __init__(self, version, classes=1000, **kwargs):
        super().__init__(**kwargs)
        assert version in ['1.0', '1.1'], ('Unsupported SqueezeNet version {version}:'
                                           '1.0 or 1.1 expected'.format(version=version))
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            add = self.features.add
            if version == '1.0':
                add(nn.Conv2D(96, kernel_size=7, strides=2), nn.Activation('relu'), _pool())
                add(_fire(16, 64, 64), _fire(16, 64, 64), _fire(32, 128, 128), _pool())
                add(_fire(32, 128, 128), _fire(48, 192, 192), _fire(48, 192, 192),
                    _fire(64, 256, 256), _pool())
                add(_fire(64, 256, 256))
            else:
                add(nn.Conv2D(64, kernel_size=3, strides=2), nn.Activation('relu'), _pool())
                add(_fire(16, 64, 64), _fire(16, 64, 64), _pool())
                add(_fire(32, 128, 128), _fire(32, 128, 128), _pool())
                add(_fire(48, 192, 192), _fire(48, 192, 192), _fire(64, 256, 256),
                    _fire(64, 256, 256))
            add(nn.Dropout(0.5))
            self.output = nn.HybridSequential(prefix='')
            self.output.add(nn.Conv2D(classes, kernel_size=1), nn.Activation('relu'),
                            nn.AvgPool2D(13), nn.Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def get_squeezenet(version, pretrained=False, ctx=cpu(), root=DEFAULT_ROOT, **kwargs):
    r"""SqueezeNet model (see SqueezeNet).

    Parameters
    ----------
    version : str
        '1.0' or '1.1'.
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default $MXNET_HOME/models
        Folder of the pretrained weight files.
    classes : int, default 1000
        Number of classes.
    """
    net = SqueezeNet(version, **kwargs)
    if pretrained:
        load_pretrained(net, 'squeezenet%s' % version, root, ctx)
    return net


def squeezenet1_0(**kwargs):
    r"""SqueezeNet 1.0 model from the `"SqueezeNet: AlexNet-level accuracy with 50x fewer
    parameters and <0.5MB model size" <https://arxiv.org/abs/1602.07360>`_ paper.

    Parameters
    ----------
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default '$MXNET_HOME/models'
        Folder of the pretrained weight files.
    """
    return get_squeezenet('1.0', **kwargs)


def squeezenet1_1(**kwargs):
    r"""SqueezeNet 1.1 model from the `official SqueezeNet repo
    <https://github.com/DeepScale/SqueezeNet/tree/master/SqueezeNet_v1.1>`_.

    Parameters
    ----------
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default '$MXNET_HOME/models'
        Folder of the pretrained weight files.
    """
    return get_squeezenet('1.1', **kwargs)
