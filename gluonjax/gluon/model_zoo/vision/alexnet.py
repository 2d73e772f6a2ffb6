"""AlexNet (MXNet 1.9.1's model zoo architecture and parameter names)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ._common import DEFAULT_ROOT, load_pretrained

__all__ = ['AlexNet', 'alexnet']


class AlexNet(HybridBlock):
    r"""AlexNet from `"One weird trick..." <https://arxiv.org/abs/1404.5997>`_: five
    convolutions with ReLU and three max poolings, then two 4096-unit dense layers with dropout.

    Parameters
    ----------
    classes : int, default 1000
        Number of classes.
    """

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            with self.features.name_scope():
                add = self.features.add
                add(nn.Conv2D(64, kernel_size=11, strides=4, padding=2, activation='relu'))
                add(nn.MaxPool2D(pool_size=3, strides=2))
                add(nn.Conv2D(192, kernel_size=5, padding=2, activation='relu'))
                add(nn.MaxPool2D(pool_size=3, strides=2))
                for width in (384, 256, 256):
                    add(nn.Conv2D(width, kernel_size=3, padding=1, activation='relu'))
                add(nn.MaxPool2D(pool_size=3, strides=2))
                add(nn.Flatten())
                for _ in range(2):
                    add(nn.Dense(4096, activation='relu'))
                    add(nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def alexnet(pretrained=False, ctx=cpu(), root=DEFAULT_ROOT, **kwargs):
    r"""AlexNet model from the `"One weird trick..." <https://arxiv.org/abs/1404.5997>`_ paper.

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
    net = AlexNet(**kwargs)
    if pretrained:
        load_pretrained(net, 'alexnet', root, ctx)
    return net
