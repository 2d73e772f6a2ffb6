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
        print(' ', k, v.shape)


x = nd.ones((1, 3, 32, 32))
for name in ['mobilenet1_0', 'mobilenet0_75', 'mobilenet0_5', 'mobilenet0_25',
             'mobilenet_v2_1_0', 'mobilenet_v2_0_75', 'mobilenet_v2_0_5', 'mobilenet_v2_0_25']:
    net = getattr(vision, name)(classes=4)
    print(name, net.name, type(net).__name__, len(list(net.collect_params().keys())))
    if name in ('mobilenet0_25', 'mobilenet_v2_0_25'):
        print(net)
        net.initialize()
        print(net(x).shape)
        print(net)
        params(net)
    else:
        net.initialize()
        print(net(x).shape)
        print(sorted(v.shape for v in net.collect_params().values())[-3:])

net = vision.get_mobilenet(0.5, classes=3)
print(net.name, net.features[0])
net = vision.get_mobilenet_v2(0.75, classes=3)
print(net.name, net.features[0], net.output)
attempt(lambda: vision.get_mobilenet(0.3))
attempt(lambda: vision.get_mobilenet_v2(2.0))
net = vision.MobileNet(multiplier=0.125, classes=2)
print(net)
net = vision.MobileNetV2(multiplier=0.1, classes=2)
net.initialize()
print(net(x).shape)
print(net.features[:4])
params(net)

for name in ['squeezenet1_0', 'squeezenet1_1']:
    net = getattr(vision, name)(classes=5)
    print(name, net.name, type(net).__name__)
    print(net)
    net.initialize()
    attempt(lambda: net(nd.ones((1, 3, 48, 48))).shape)
    y = net(nd.ones((1, 3, 224, 224)))
    print(y.shape)
    print(net)
    params(net)
attempt(lambda: vision.SqueezeNet('1.2'))
attempt(lambda: vision.get_model('squeezenet1.2'))
net = vision.SqueezeNet('1.1', classes=3, prefix='sq_')
print(net.name, sorted(net.collect_params().keys())[:6])
