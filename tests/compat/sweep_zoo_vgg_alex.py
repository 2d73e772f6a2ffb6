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
        print(' ', k, v.shape, v.grad_req, v.lr_mult, v.wd_mult)


for name in ['vgg11', 'vgg13', 'vgg16', 'vgg19', 'vgg11_bn', 'vgg13_bn', 'vgg16_bn', 'vgg19_bn']:
    net = getattr(vision, name)(classes=5)
    print(name, net.name, type(net).__name__, len(list(net.collect_params().keys())))
    print(net)
    if name in ('vgg11', 'vgg11_bn'):
        net.initialize()
        y = net(nd.ones((1, 3, 32, 32)))
        print(y.shape)
        print(net.features[0], net.output)
        params(net)

net = vision.get_vgg(13, batch_norm=True, classes=4)
print(net.name, len(net.features), len(list(net.collect_params().keys())))
attempt(lambda: vision.get_vgg(12))
net = vision.VGG([1, 1], [4, 8], classes=3)
print(net)
net.initialize()
print(net(nd.ones((2, 3, 16, 16))).shape)
params(net)
net = vision.VGG([1, 2], [4, 8], batch_norm=True, classes=3, prefix='tiny_')
print(net)
attempt(lambda: vision.VGG([1, 1, 1], [4, 8], classes=3))

net = vision.alexnet(classes=6)
print(net.name, type(net).__name__)
print(net)
net.initialize()
y = net(nd.ones((2, 3, 67, 67)))
print(y.shape)
print(net)
params(net)
net = vision.AlexNet(classes=2, prefix='alex_')
print(net.name, net.features.name, net.output.name)
print(sorted(net.collect_params().keys()))
# too small an input for AlexNet's pooling
net = vision.alexnet()
net.initialize()
attempt(lambda: net(nd.ones((1, 3, 16, 16))).shape)
