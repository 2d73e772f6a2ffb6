"""VGG 11/13/16/19, with or without batch norm (MXNet 1.9.1's model zoo architecture and names)."""
from ....context import cpu
from ....initializer import Xavier
from ...block import HybridBlock
from ... import nn
from ._common import DEFAULT_ROOT, load_pretrained

__all__ = ['VGG',
           'vgg11', 'vgg13', 'vgg16', 'vgg19',
           'vgg11_bn', 'vgg13_bn', 'vgg16_bn', 'vgg19_bn',
           'get_vgg']


class VGG(HybridBlock):
    r"""VGG from `"Very Deep Convolutional Networks for Large-Scale Image Recognition"
    <https://arxiv.org/abs/1409.1556>`_: blocks of 3x3 convolutions (optionally with batch
    norm) each ending in a 2x2 max pooling, then two 4096-unit dense layers with dropout.

    Parameters
    ----------
    layers : list of int
        Number of convolutions in each block.
    filters : list of int
        Number of filters of the convolutions of each block (same length as ``layers``).
    classes : int, default 1000
        Number of classes.
    batch_norm : bool, default False
        Put a batch norm after each convolution.
    """

    def __init__(self, layers, filters, classes=1000, batch_norm=False, **kwargs):
        super().__init__(**kwargs)
        assert len(layers) == len(filters)
        with self.name_scope():
            self.features = self._make_features(layers, filters, batch_norm)
            for _ in range(2):
                self.features.add(nn.Dense(4096, activation='relu', weight_initializer='normal',
                                           bias_initializer='zeros'))
                self.features.add(nn.Dropout(rate=0.5))
            self.output = nn.Dense(classes, weight_initializer='normal', bias_initializer='zeros')

    def _make_features(self, layers, filters, batch_norm):
        features = nn.HybridSequential(prefix='')
        for count, width in zip(layers, filters):
            for _ in range(count):
                features.add(nn.Conv2D(width, kernel_size=3, padding=1,
                                       weight_initializer=Xavier(rnd_type='gaussian',
                                                                 factor_type='out', magnitude=2),
                                       bias_initializer='zeros'))
                if batch_norm:
                    features.add(nn.BatchNorm())
                features.add(nn.Activation('relu'))
            features.add(nn.MaxPool2D(strides=2))
        return features

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# depth -> (convolutions per block, filters per block)
vgg_spec = {11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]),
            13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
            16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]),
            19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512])}


def get_vgg(num_layers, pretrained=False, ctx=cpu(), root=DEFAULT_ROOT, **kwargs):
    r"""VGG model from `"Very Deep Convolutional Networks for Large-Scale Image Recognition"
    <https://arxiv.org/abs/1409.1556>`_.

    Parameters
    ----------
    num_layers : int
        Depth: 11, 13, 16 or 19.
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default $MXNET_HOME/models
        Folder of the pretrained weight files.
    classes, batch_norm :
        Passed to VGG.
    """
    layers, filters = vgg_spec[num_layers]
    net = VGG(layers, filters, **kwargs)
    if pretrained:
        suffix = '_bn' if kwargs.get('batch_norm') else ''
        load_pretrained(net, 'vgg%d%s' % (num_layers, suffix), root, ctx)
    return net


def _constructor(num_layers, batch_norm):
    def make(**kwargs):
        if batch_norm:
            kwargs['batch_norm'] = True
        return get_vgg(num_layers, **kwargs)
    make.__name__ = make.__qualname__ = 'vgg%d%s' % (num_layers, '_bn' if batch_norm else '')
    make.__doc__ = r"""VGG-{depth} model{bn} from the `"Very Deep Convolutional Networks for
    Large-Scale Image Recognition" <https://arxiv.org/abs/1409.1556>`_ paper.

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
    """.format(depth=num_layers, bn=' with batch normalization' if batch_norm else '')
    return make


vgg11 = _constructor(11, False)
vgg13 = _constructor(13, False)
vgg16 = _constructor(16, False)
vgg19 = _constructor(19, False)
vgg11_bn = _constructor(11, True)
vgg13_bn = _constructor(13, True)
vgg16_bn = _constructor(16, True)
vgg19_bn = _constructor(19, True)
