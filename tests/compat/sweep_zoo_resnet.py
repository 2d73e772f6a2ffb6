import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon.model_zoo import vision


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def params(net):
    for k, v in sorted(net.collect_params().items()):
        print(' ', k, v.shape, v.dtype.__name__ if hasattr(v.dtype, '__name__') else v.dtype)


x = nd.ones((1, 3, 32, 32))
# every ResNet: the printed net before a forward, the parameter count, the output shape
for name in ['resnet18_v1', 'resnet34_v1', 'resnet50_v1', 'resnet101_v1', 'resnet152_v1',
             'resnet18_v2', 'resnet34_v2', 'resnet50_v2', 'resnet101_v2', 'resnet152_v2']:
    net = getattr(vision, name)(classes=7)
    print(name, net.name, net.prefix, type(net).__name__, len(list(net.collect_params().keys())))
    if name in ('resnet18_v1', 'resnet50_v2'):
        print(net)
        net.initialize()
        y = net(x)
        print(y.shape, y.dtype)
        print(net)
        params(net)

# the classes, blocks and get_resnet directly
net = vision.get_resnet(1, 18, classes=3)
print(net.name, type(net).__name__)
net = vision.get_resnet(2, 34, thumbnail=True, classes=5)
print(net.name, net.features[0])
attempt(lambda: vision.get_resnet(3, 18))
attempt(lambda: vision.get_resnet(1, 19))
blk = vision.BasicBlockV1(8, 2, downsample=True, in_channels=4, prefix='b1_')
print(blk)
print(sorted(blk.collect_params().keys()))
blk = vision.BottleneckV2(16, 1, downsample=True, in_channels=8)
print(blk)
blk.initialize()
print(blk(nd.ones((2, 8, 5, 5))).shape)
print(sorted((k, v.shape) for k, v in blk.collect_params().items()))
blk = vision.BottleneckV1(16, 2, downsample=False, in_channels=16)
print(blk)
blk = vision.BasicBlockV2(4, 1)
print(blk)
net = vision.ResNetV1(vision.BasicBlockV1, [1, 1], [4, 4, 8], classes=2, thumbnail=True)
print(net)
net.initialize()
print(net(nd.ones((2, 3, 8, 8))).shape)
params(net)
net = vision.ResNetV2(vision.BottleneckV2, [1], [8, 16], classes=3)
print(net)
attempt(lambda: vision.ResNetV1(vision.BasicBlockV1, [1, 1], [4, 4], classes=2))
net = vision.resnet18_v1(prefix='myres_')
print(net.name, net.prefix, sorted(net.collect_params().keys())[:5])
