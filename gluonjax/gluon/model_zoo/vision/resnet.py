"""ResNet V1 and V2 (MXNet 1.9.1's model zoo architecture and parameter names)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ._common import DEFAULT_ROOT, load_pretrained, relu

__all__ = ['ResNetV1', 'ResNetV2',
           'BasicBlockV1', 'BasicBlockV2',
           'BottleneckV1', 'BottleneckV2',
           'resnet18_v1', 'resnet34_v1', 'resnet50_v1', 'resnet101_v1', 'resnet152_v1',
           'resnet18_v2', 'resnet34_v2', 'resnet50_v2', 'resnet101_v2', 'resnet152_v2',
           'get_resnet']


def _conv3x3(channels, stride, in_channels):
    """3x3 convolution, padding 1, no bias."""
    return nn.Conv2D(channels, kernel_size=3, strides=stride, padding=1, use_bias=False,
                     in_channels=in_channels)


def _projection(channels, stride, in_channels):
    """1x1 strided convolution without bias: the shortcut when the shape changes."""
    return nn.Conv2D(channels, kernel_size=1, strides=stride, use_bias=False,
                     in_channels=in_channels)


class _ResidualV1(HybridBlock):
    """Post-activation residual unit: ``relu(body(x) + shortcut(x))``, the body computed first."""
    _shortcut_first = False  # the order of the sum's operands, as in MXNet's graphs

    def _shortcut(self, downsample, channels, stride, in_channels):
        if downsample:
            self.downsample = nn.HybridSequential(prefix='')
            self.downsample.add(_projection(channels, stride, in_channels))
            self.downsample.add(nn.BatchNorm())
        else:
            self.downsample = None

    def hybrid_forward(self, F, x):
        body = self.body(x)
        shortcut = self.downsample(x) if self.downsample else x
        return relu(F, shortcut + body if self._shortcut_first else body + shortcut)


class BasicBlockV1(_ResidualV1):
    r"""BasicBlock V1 from `"Deep Residual Learning for Image Recognition"
    <http://arxiv.org/abs/1512.03385>`_: two 3x3 convolutions; used by ResNet-18 and -34 V1.

    Parameters
    ----------
    channels : int
        Number of output channels.
    stride : int
        Stride of the first convolution (and of the shortcut).
    downsample : bool, default False
        Whether the shortcut is a strided 1x1 convolution with batch norm.
    in_channels : int, default 0
        Number of input channels; 0 infers it from the input.
    """
    _shortcut_first = True

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self.body = nn.HybridSequential(prefix='')
        self.body.add(_conv3x3(channels, stride, in_channels), nn.BatchNorm(),
                      nn.Activation('relu'),
                      _conv3x3(channels, 1, channels), nn.BatchNorm())
        self._shortcut(downsample, channels, stride, in_channels)


class BottleneckV1(_ResidualV1):
    r"""Bottleneck V1 from `"Deep Residual Learning for Image Recognition"
    <http://arxiv.org/abs/1512.03385>`_: 1x1, 3x3, 1x1 convolutions; used by ResNet-50/101/152 V1.

    The two 1x1 convolutions have a bias, as in MXNet's model zoo.

    Parameters
    ----------
    channels : int
        Number of output channels (the bottleneck has a quarter of them).
    stride : int
        Stride of the first convolution (and of the shortcut).
    downsample : bool, default False
        Whether the shortcut is a strided 1x1 convolution with batch norm.
    in_channels : int, default 0
        Number of input channels; 0 infers it from the input.
    """

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        inner = channels // 4
        self.body = nn.HybridSequential(prefix='')
        self.body.add(nn.Conv2D(inner, kernel_size=1, strides=stride), nn.BatchNorm(),
                      nn.Activation('relu'),
                      _conv3x3(inner, 1, inner), nn.BatchNorm(), nn.Activation('relu'),
                      nn.Conv2D(channels, kernel_size=1, strides=1), nn.BatchNorm())
        self._shortcut(downsample, channels, stride, in_channels)


class BasicBlockV2(HybridBlock):
    r"""BasicBlock V2 from `"Identity Mappings in Deep Residual Networks"
    <https://arxiv.org/abs/1603.05027>`_: pre-activation, two 3x3 convolutions; used by
    ResNet-18 and -34 V2.

    Parameters
    ----------
    channels : int
        Number of output channels.
    stride : int
        Stride of the first convolution (and of the shortcut).
    downsample : bool, default False
        Whether the shortcut is a strided 1x1 convolution.
    in_channels : int, default 0
        Number of input channels; 0 infers it from the input.
    """

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self.bn1 = nn.BatchNorm()
        self.conv1 = _conv3x3(channels, stride, in_channels)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(channels, 1, channels)
        self.downsample = _projection(channels, stride, in_channels) if downsample else None

    def hybrid_forward(self, F, x):
        shortcut = x
        x = relu(F, self.bn1(x))
        if self.downsample:
            shortcut = self.downsample(x)
        x = self.conv1(x)
        x = self.conv2(relu(F, self.bn2(x)))
        return x + shortcut


class BottleneckV2(HybridBlock):
    r"""Bottleneck V2 from `"Identity Mappings in Deep Residual Networks"
    <https://arxiv.org/abs/1603.05027>`_: pre-activation 1x1, 3x3, 1x1 convolutions; used by
    ResNet-50/101/152 V2.

    Parameters
    ----------
    channels : int
        Number of output channels (the bottleneck has a quarter of them).
    stride : int
        Stride of the 3x3 convolution (and of the shortcut).
    downsample : bool, default False
        Whether the shortcut is a strided 1x1 convolution.
    in_channels : int, default 0
        Number of input channels; 0 infers it from the input.
    """

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        inner = channels // 4
        self.bn1 = nn.BatchNorm()
        self.conv1 = nn.Conv2D(inner, kernel_size=1, strides=1, use_bias=False)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(inner, stride, inner)
        self.bn3 = nn.BatchNorm()
        self.conv3 = nn.Conv2D(channels, kernel_size=1, strides=1, use_bias=False)
        self.downsample = _projection(channels, stride, in_channels) if downsample else None

    def hybrid_forward(self, F, x):
        shortcut = x
        x = relu(F, self.bn1(x))
        if self.downsample:
            shortcut = self.downsample(x)
        x = self.conv1(x)
        x = self.conv2(relu(F, self.bn2(x)))
        x = self.conv3(relu(F, self.bn3(x)))
        return x + shortcut


def _stage(block, num_units, channels, stride, stage_index, in_channels):
    """``stage<i>_``: ``num_units`` residual units, the first one changing stride/width."""
    stage = nn.HybridSequential(prefix='stage%d_' % stage_index)
    with stage.name_scope():
        stage.add(block(channels, stride, channels != in_channels, in_channels=in_channels,
                        prefix=''))
        for _ in range(num_units - 1):
            stage.add(block(channels, 1, False, in_channels=channels, prefix=''))
    return stage


def _stem(features, channels, thumbnail):
    """The first layers: one 3x3 convolution (thumbnail, for small images), else a 7x7/2
    convolution, batch norm, ReLU and a 3x3/2 max pooling."""
    if thumbnail:
        features.add(_conv3x3(channels, 1, 0))
    else:
        features.add(nn.Conv2D(channels, 7, 2, 3, use_bias=False), nn.BatchNorm(),
                     nn.Activation('relu'), nn.MaxPool2D(3, 2, 1))


class ResNetV1(HybridBlock):
    r"""ResNet V1 from `"Deep Residual Learning for Image Recognition"
    <http://arxiv.org/abs/1512.03385>`_.

    Parameters
    ----------
    block : HybridBlock class
        The residual unit: BasicBlockV1 or BottleneckV1.
    layers : list of int
        Number of units in each stage.
    channels : list of int
        Width of the stem, then of each stage (one more entry than ``layers``).
    classes : int, default 1000
        Number of classes.
    thumbnail : bool, default False
        Use a single 3x3 convolution as the stem (for small images such as CIFAR).
    """

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super().__init__(**kwargs)
        assert len(layers) == len(channels) - 1
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            _stem(self.features, channels[0], thumbnail)
            for i, num_units in enumerate(layers):
                self.features.add(_stage(block, num_units, channels[i + 1], 1 if i == 0 else 2,
                                         i + 1, in_channels=channels[i]))
            self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes, in_units=channels[-1])

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class ResNetV2(HybridBlock):
    r"""ResNet V2 from `"Identity Mappings in Deep Residual Networks"
    <https://arxiv.org/abs/1603.05027>`_.

    The input first goes through a batch norm without scale and shift (a learnt input
    normalisation); a batch norm and ReLU follow the last stage.

    Parameters
    ----------
    block : HybridBlock class
        The residual unit: BasicBlockV2 or BottleneckV2.
    layers : list of int
        Number of units in each stage.
    channels : list of int
        Width of the stem, then of each stage (one more entry than ``layers``).
    classes : int, default 1000
        Number of classes.
    thumbnail : bool, default False
        Use a single 3x3 convolution as the stem (for small images such as CIFAR).
    """

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super().__init__(**kwargs)
        assert len(layers) == len(channels) - 1
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.BatchNorm(scale=False, center=False))
            _stem(self.features, channels[0], thumbnail)
            width = channels[0]
            for i, num_units in enumerate(layers):
                self.features.add(_stage(block, num_units, channels[i + 1], 1 if i == 0 else 2,
                                         i + 1, in_channels=width))
                width = channels[i + 1]
            self.features.add(nn.BatchNorm(), nn.Activation('relu'), nn.GlobalAvgPool2D(),
                              nn.Flatten())
            self.output = nn.Dense(classes, in_units=width)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# depth -> (unit kind, units per stage, widths)
resnet_spec = {18: ('basic_block', [2, 2, 2, 2], [64, 64, 128, 256, 512]),
               34: ('basic_block', [3, 4, 6, 3], [64, 64, 128, 256, 512]),
               50: ('bottle_neck', [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
               101: ('bottle_neck', [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
               152: ('bottle_neck', [3, 8, 36, 3], [64, 256, 512, 1024, 2048])}

resnet_net_versions = [ResNetV1, ResNetV2]
resnet_block_versions = [{'basic_block': BasicBlockV1, 'bottle_neck': BottleneckV1},
                         {'basic_block': BasicBlockV2, 'bottle_neck': BottleneckV2}]


def get_resnet(version, num_layers, pretrained=False, ctx=cpu(), root=DEFAULT_ROOT, **kwargs):
    r"""ResNet V1 (`"Deep Residual Learning for Image Recognition"
    <http://arxiv.org/abs/1512.03385>`_) or V2 (`"Identity Mappings in Deep Residual Networks"
    <https://arxiv.org/abs/1603.05027>`_).

    Parameters
    ----------
    version : int
        1 or 2.
    num_layers : int
        Depth: 18, 34, 50, 101 or 152.
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default $MXNET_HOME/models
        Folder of the pretrained weight files.
    classes, thumbnail :
        Passed to ResNetV1 / ResNetV2.
    """
    assert num_layers in resnet_spec, \
        'Invalid number of layers: %d. Options are %s' % (num_layers, str(resnet_spec.keys()))
    assert 1 <= version <= 2, 'Invalid resnet version: %d. Options are 1 and 2.' % version
    kind, layers, channels = resnet_spec[num_layers]
    net = resnet_net_versions[version - 1](resnet_block_versions[version - 1][kind], layers,
                                           channels, **kwargs)
    if pretrained:
        load_pretrained(net, 'resnet%d_v%d' % (num_layers, version), root, ctx)
    return net


def _constructor(version, num_layers):
    def make(**kwargs):
        return get_resnet(version, num_layers, **kwargs)
    make.__name__ = 'resnet%d_v%d' % (num_layers, version)
    make.__qualname__ = make.__name__
    make.__doc__ = r"""ResNet-{depth} V{version} model from {paper}.

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
    thumbnail : bool, default False
        Single 3x3 convolution as the stem, for small images.
    """.format(depth=num_layers, version=version,
               paper=('`"Deep Residual Learning for Image Recognition" '
                      '<http://arxiv.org/abs/1512.03385>`_' if version == 1 else
                      '`"Identity Mappings in Deep Residual Networks" '
                      '<https://arxiv.org/abs/1603.05027>`_'))
    return make


resnet18_v1 = _constructor(1, 18)
resnet34_v1 = _constructor(1, 34)
resnet50_v1 = _constructor(1, 50)
resnet101_v1 = _constructor(1, 101)
resnet152_v1 = _constructor(1, 152)
resnet18_v2 = _constructor(2, 18)
resnet34_v2 = _constructor(2, 34)
resnet50_v2 = _constructor(2, 50)
resnet101_v2 = _constructor(2, 101)
resnet152_v2 = _constructor(2, 152)
