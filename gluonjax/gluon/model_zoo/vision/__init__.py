r"""``mx.gluon.model_zoo.vision``: MXNet 1.9.1's image classification models.

AlexNet, DenseNet, Inception V3, ResNet V1 and V2, SqueezeNet, VGG, MobileNet and MobileNetV2,
with MXNet's parameter names, so MXNet's weight files load into them::

    from gluonjax.gluon.model_zoo import vision
    net = vision.resnet18_v1()                    # random weights: call net.initialize()
    # MXNet's file ~/.mxnet/models/resnet18_v1-a0666292.params:
    net = vision.get_model('resnet18_v1', pretrained=True)

``pretrained=True`` reads MXNet's file from ``root`` (``$MXNET_HOME/models``, by default
``~/.mxnet/models``); gluonjax never downloads it. The pretrained models expect 3-channel RGB
images (N x 3 x H x W, H and W at least 224; 299 for Inception V3) scaled to [0, 1] and then
normalised with mean ``[0.485, 0.456, 0.406]`` and std ``[0.229, 0.224, 0.225]``.
"""
from .alexnet import *  # noqa: F401,F403
from .densenet import *  # noqa: F401,F403
from .inception import *  # noqa: F401,F403
from .resnet import *  # noqa: F401,F403
from .squeezenet import *  # noqa: F401,F403
from .vgg import *  # noqa: F401,F403
from .mobilenet import *  # noqa: F401,F403

_models = {
    'resnet18_v1': resnet18_v1, 'resnet34_v1': resnet34_v1,
    'resnet50_v1': resnet50_v1, 'resnet101_v1': resnet101_v1,
    'resnet152_v1': resnet152_v1,
    'resnet18_v2': resnet18_v2, 'resnet34_v2': resnet34_v2,
    'resnet50_v2': resnet50_v2, 'resnet101_v2': resnet101_v2,
    'resnet152_v2': resnet152_v2,
    'vgg11': vgg11, 'vgg13': vgg13, 'vgg16': vgg16, 'vgg19': vgg19,
    'vgg11_bn': vgg11_bn, 'vgg13_bn': vgg13_bn, 'vgg16_bn': vgg16_bn,
    'vgg19_bn': vgg19_bn,
    'alexnet': alexnet,
    'densenet121': densenet121, 'densenet161': densenet161,
    'densenet169': densenet169, 'densenet201': densenet201,
    'squeezenet1.0': squeezenet1_0, 'squeezenet1.1': squeezenet1_1,
    'inceptionv3': inception_v3,
    'mobilenet1.0': mobilenet1_0, 'mobilenet0.75': mobilenet0_75,
    'mobilenet0.5': mobilenet0_5, 'mobilenet0.25': mobilenet0_25,
    'mobilenetv2_1.0': mobilenet_v2_1_0,
    'mobilenetv2_0.75': mobilenet_v2_0_75,
    'mobilenetv2_0.5': mobilenet_v2_0_5,
    'mobilenetv2_0.25': mobilenet_v2_0_25,
}


def get_model(name, **kwargs):
    """Build a model-zoo network by name (``'resnet18_v1'``, ``'mobilenetv2_0.25'``, ...).

    Parameters
    ----------
    name : str
        Name of the model (case-insensitive).
    pretrained : bool
        Load MXNet's pretrained weights from ``root`` (never downloaded).
    classes : int
        Number of classes of the output layer.
    ctx : Context, default CPU
        Context of the pretrained weights.
    root : str, default '$MXNET_HOME/models'
        Folder of the pretrained weight files.

    Returns
    -------
    HybridBlock
        The network.
    """
    name = name.lower()
    if name not in _models:
        raise ValueError('Model %s is not supported. Available options are\n\t%s'
                         % (name, '\n\t'.join(sorted(_models))))
    return _models[name](**kwargs)
