"""MobileNet and MobileNetV2 (MXNet 1.9.1's model zoo architecture and parameter names)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ._common import DEFAULT_ROOT, load_pretrained

__all__ = ['MobileNet', 'MobileNetV2', 'mobilenet1_0', 'mobilenet_v2_1_0', 'mobilenet0_75',
           'mobilenet_v2_0_75', 'mobilenet0_5', 'mobilenet_v2_0_5', 'mobilenet0_25',
           'mobilenet_v2_0_25', 'get_mobilenet', 'get_mobilenet_v2']


class RELU6(HybridBlock):
    """ReLU capped at 6: ``clip(x, 0, 6)``."""

    def hybrid_forward(self, F, x):
        return F.clip(x, 0, 6, name='relu6')


def _add_conv(out, channels=1, kernel=1, stride=1, pad=0, num_group=1, active=True, relu6=False):
    """Add convolution (no bias), batch norm and, if ``active``, ReLU (or ReLU6) to ``out``."""
    out.add(nn.Conv2D(channels, kernel, stride, pad, groups=num_group, use_bias=False))
    out.add(nn.BatchNorm(scale=True))
    if active:
        out.add(RELU6() if relu6 else nn.Activation('relu'))


def _add_conv_dw(out, dw_channels, channels, stride, relu6=False):
    """Depthwise-separable convolution: 3x3 depthwise, then 1x1 pointwise."""
    _add_conv(out, channels=dw_channels, kernel=3, stride=stride, pad=1, num_group=dw_channels,
              relu6=relu6)
    _add_conv(out, channels=channels, relu6=relu6)


class LinearBottleneck(HybridBlock):
    r"""Inverted residual unit of MobileNetV2 (`"Inverted Residuals and Linear Bottlenecks:
    Mobile Networks for Classification, Detection and Segmentation"
    <https://arxiv.org/abs/1801.04381>`_): 1x1 expansion, 3x3 depthwise, linear 1x1
    projection; the input is added back when stride is 1 and the width is unchanged.

    Parameters
    ----------
    in_channels : int
        Number of input channels.
    channels : int
        Number of output channels.
    t : int
        Expansion ratio.
    stride : int
        Stride of the depthwise convolution.
    """

    def __init__(self, in_channels, channels, t, stride, **kwargs):
        super().__init__(**kwargs)
        self.use_shortcut = stride == 1 and in_channels == channels
        expanded = in_channels * t
        with self.name_scope():
            self.out = nn.HybridSequential()
            _add_conv(self.out, expanded, relu6=True)
            _add_conv(self.out, expanded, kernel=3, stride=stride, pad=1, num_group=expanded,
                      relu6=True)
            _add_conv(self.out, channels, active=False, relu6=True)

    def hybrid_forward(self, F, x):
        out = self.out(x)
        return F.elemwise_add(out, x) if self.use_shortcut else out


class MobileNet(HybridBlock):
    r"""MobileNet from `"MobileNets: Efficient Convolutional Neural Networks for Mobile Vision
    Applications" <https://arxiv.org/abs/1704.04861>`_.

    Parameters
    ----------
    multiplier : float, default 1.0
        Width multiplier: every layer has ``int(width * multiplier)`` channels (0.25 or more).
    classes : int, default 1000
        Number of classes.
    """

    def __init__(self, multiplier=1.0, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            with self.features.name_scope():
                _add_conv(self.features, channels=int(32 * multiplier), kernel=3, pad=1, stride=2)
                dw_channels = [int(c * multiplier)
                               for c in [32, 64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024]]
                channels = [int(c * multiplier)
                            for c in [64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024] * 2]
                strides = [1, 2] * 3 + [1] * 5 + [2, 1]
                for dwc, c, s in zip(dw_channels, channels, strides):
                    _add_conv_dw(self.features, dw_channels=dwc, channels=c, stride=s)
                self.features.add(nn.GlobalAvgPool2D(), nn.Flatten())
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class MobileNetV2(HybridBlock):
    r"""MobileNetV2 from `"Inverted Residuals and Linear Bottlenecks: Mobile Networks for
    Classification, Detection and Segmentation" <https://arxiv.org/abs/1801.04381>`_.

    Parameters
    ----------
    multiplier : float, default 1.0
        Width multiplier: every layer has ``int(width * multiplier)`` channels (the last
        1x1 convolution keeps 1280 unless ``multiplier > 1``).
    classes : int, default 1000
        Number of classes.
    """

    def __init__(self, multiplier=1.0, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='features_')
            with self.features.name_scope():
                _add_conv(self.features, int(32 * multiplier), kernel=3, stride=2, pad=1,
                          relu6=True)
                in_widths = [int(c * multiplier) for c in
                             [32] + [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3]
                out_widths = [int(c * multiplier) for c in
                              [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3 + [320]]
                expansions = [1] + [6] * 16
                strides = [1, 2] * 2 + [1, 1, 2] + [1] * 6 + [2] + [1] * 3
                for in_c, c, t, s in zip(in_widths, out_widths, expansions, strides):
                    self.features.add(LinearBottleneck(in_channels=in_c, channels=c, t=t,
                                                       stride=s))
                last = int(1280 * multiplier) if multiplier > 1.0 else 1280
                _add_conv(self.features, last, relu6=True)
                self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.HybridSequential(prefix='output_')
            with self.output.name_scope():
                self.output.add(nn.Conv2D(classes, 1, use_bias=False, prefix='pred_'),
                                nn.Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def _version_suffix(multiplier):
    """'1.0', '0.75', '0.5', '0.25': how MXNet's file names spell a multiplier."""
    suffix = '{0:.2f}'.format(multiplier)
    return suffix[:-1] if suffix in ('1.00', '0.50') else suffix


def get_mobilenet(multiplier, pretrained=False, ctx=cpu(), root=DEFAULT_ROOT, **kwargs):
    r"""MobileNet model (see MobileNet).

    Parameters
    ----------
    multiplier : float
        Width multiplier (0.25 or more).
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default $MXNET_HOME/models
        Folder of the pretrained weight files.
    classes : int, default 1000
        Number of classes.
    """
    net = MobileNet(multiplier, **kwargs)
    if pretrained:
        load_pretrained(net, 'mobilenet%s' % _version_suffix(multiplier), root, ctx)
    return net


def get_mobilenet_v2(multiplier, pretrained=False, ctx=cpu(), root=DEFAULT_ROOT, **kwargs):
    r"""MobileNetV2 model (see MobileNetV2).

    Parameters
    ----------
    multiplier : float
        Width multiplier (0.25 or more).
    pretrained : bool, default False
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default $MXNET_HOME/models
        Folder of the pretrained weight files.
    classes : int, default 1000
        Number of classes.
    """
    net = MobileNetV2(multiplier, **kwargs)
    if pretrained:
        load_pretrained(net, 'mobilenetv2_%s' % _version_suffix(multiplier), root, ctx)
    return net


def _constructor(getter, multiplier, name):
    def make(**kwargs):
        return getter(multiplier, **kwargs)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = r"""{kind} model with width multiplier {m}.

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
    """.format(kind='MobileNet' if getter is get_mobilenet else 'MobileNetV2', m=multiplier)
    return make


mobilenet1_0 = _constructor(get_mobilenet, 1.0, 'mobilenet1_0')
mobilenet0_75 = _constructor(get_mobilenet, 0.75, 'mobilenet0_75')
mobilenet0_5 = _constructor(get_mobilenet, 0.5, 'mobilenet0_5')
mobilenet0_25 = _constructor(get_mobilenet, 0.25, 'mobilenet0_25')
mobilenet_v2_1_0 = _constructor(get_mobilenet_v2, 1.0, 'mobilenet_v2_1_0')
mobilenet_v2_0_75 = _constructor(get_mobilenet_v2, 0.75, 'mobilenet_v2_0_75')
mobilenet_v2_0_5 = _constructor(get_mobilenet_v2, 0.5, 'mobilenet_v2_0_5')
mobilenet_v2_0_25 = _constructor(get_mobilenet_v2, 0.25, 'mobilenet_v2_0_25')
