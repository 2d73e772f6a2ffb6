"""DenseNet-BC 121/161/169/201 (MXNet 1.9.1's model zoo architecture and parameter names)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ._common import DEFAULT_ROOT, load_pretrained

__all__ = ['DenseNet', 'densenet121', 'densenet161', 'densenet169', 'densenet201']


def _dense_layer(growth_rate, bn_size, dropout):
    """One dense layer: the input concatenated with ``growth_rate`` new feature maps computed by
    BN-ReLU-1x1 conv (``bn_size * growth_rate`` maps) and BN-ReLU-3x3 conv."""
    new = nn.HybridSequential(prefix='')
    new.add(nn.BatchNorm(), nn.Activation('relu'),
            nn.Conv2D(bn_size * growth_rate, kernel_size=1, use_bias=False),
            nn.BatchNorm(), nn.Activation('relu'),
            nn.Conv2D(growth_rate, kernel_size=3, padding=1, use_bias=False))
    if dropout:
        new.add(nn.Dropout(dropout))
    out = nn.HybridConcurrent(axis=1, prefix='')
    out.add(nn.Identity(), new)
    return out


def _dense_block(num_layers, bn_size, growth_rate, dropout, stage_index):
    block = nn.HybridSequential(prefix='stage%d_' % stage_index)
    with block.name_scope():
        for _ in range(num_layers):
            block.add(_dense_layer(growth_rate, bn_size, dropout))
    return block


def _transition(num_output_features):
    """Between dense blocks: BN-ReLU-1x1 conv to ``num_output_features``, 2x2 average pooling."""
    out = nn.HybridSequential(prefix='')
    out.add(nn.BatchNorm(), nn.Activation('relu'),
            nn.Conv2D(num_output_features, kernel_size=1, use_bias=False),
            nn.AvgPool2D(pool_size=2, strides=2))
    return out


class DenseNet(HybridBlock):
    r"""DenseNet-BC from `"Densely Connected Convolutional Networks"
    <https://arxiv.org/pdf/1608.06993.pdf>`_.

    Parameters
    ----------
    num_init_features : int
        Number of filters of the first convolution.
    growth_rate : int
        Feature maps each dense layer adds (``k`` in the paper).
    block_config : list of int
        Number of dense layers in each dense block.
    bn_size : int, default 4
        The bottleneck 1x1 convolutions have ``bn_size * growth_rate`` filters.
    dropout : float, default 0
        Dropout rate after each dense layer.
    classes : int, default 1000
        Number of classes.
    """

    def __init__(self, num_init_features, growth_rate, block_config, bn_size=4, dropout=0,
                 classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.Conv2D(num_init_features, kernel_size=7, strides=2, padding=3,
                                        use_bias=False),
                              nn.BatchNorm(), nn.Activation('relu'),
                              nn.MaxPool2D(pool_size=3, strides=2, padding=1))
            width = num_init_features
            for i, num_layers in enumerate(block_config):
                self.features.add(_dense_block(num_layers, bn_size, growth_rate, dropout, i + 1))
                width += num_layers * growth_rate
                if i != len(block_config) - 1:
                    width //= 2
                    self.features.add(_transition(width))
            self.features.add(nn.BatchNorm(), nn.Activation('relu'), nn.AvgPool2D(pool_size=7),
                              nn.Flatten())
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# depth -> (first convolution's filters, growth rate, dense layers per block)
densenet_spec = {121: (64, 32, [6, 12, 24, 16]),
                 161: (96, 48, [6, 12, 36, 24]),
                 169: (64, 32, [6, 12, 32, 32]),
                 201: (64, 32, [6, 12, 48, 32])}


def get_densenet(num_layers, pretrained=False, ctx=cpu(), root=DEFAULT_ROOT, **kwargs):
    r"""DenseNet-BC model from `"Densely Connected Convolutional Networks"
    <https://arxiv.org/pdf/1608.06993.pdf>`_.

    Parameters
    ----------
    num_layers : int
        Depth: 121, 161, 169 or 201.
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default $MXNET_HOME/models
        Folder of the pretrained weight files.
    bn_size, dropout, classes :
        Passed to DenseNet.
    """
    num_init_features, growth_rate, block_config = densenet_spec[num_layers]
    net = DenseNet(num_init_features, growth_rate, block_config, **kwargs)
    if pretrained:
        load_pretrained(net, 'densenet%d' % num_layers, root, ctx)
    return net


def _constructor(num_layers):
    def make(**kwargs):
        return get_densenet(num_layers, **kwargs)
    make.__name__ = make.__qualname__ = 'densenet%d' % num_layers
    make.__doc__ = r"""DenseNet-BC {depth}-layer model from the `"Densely Connected
    Convolutional Networks" <https://arxiv.org/pdf/1608.06993.pdf>`_ paper.

    Parameters
    ----------
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default '$MXNET_HOME/models'
        Folder of the pretrained weight files.
    classes : int, default 1000
        Number of classes.
    """.format(depth=num_layers)
    return make


densenet121 = _constructor(121)
densenet161 = _constructor(161)
densenet169 = _constructor(169)
densenet201 = _constructor(201)
