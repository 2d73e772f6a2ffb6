import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon.model_zoo import vision


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


for name in ['densenet121', 'densenet161', 'densenet169', 'densenet201']:
    net = getattr(vision, name)(classes=5)
    keys = list(net.collect_params().keys())
    print(name, net.name, type(net).__name__, len(keys), keys[:3], keys[-3:])
    if name == 'densenet121':
        print(net)

net = vision.DenseNet(4, 4, [2, 2], bn_size=2, dropout=0.5, classes=3)
print(net)
net.initialize()
print(net(nd.ones((2, 3, 56, 56))).shape)
print(net)
for k, v in sorted(net.collect_params().items()):
    print(' ', k, v.shape)
attempt(lambda: vision.densenet.get_densenet(100))
net = vision.densenet121(classes=4)
net.initialize()
attempt(lambda: net(nd.ones((1, 3, 32, 32))).shape)
print(sorted(v.shape for v in net.collect_params().values())[-4:])

net = vision.inception_v3(classes=6)
keys = list(net.collect_params().keys())
print(net.name, type(net).__name__, len(keys), keys[:3], keys[-3:])
print(net)
net = vision.Inception3(classes=2, prefix='inc_')
print(net.name, sorted(net.collect_params().keys())[:4])
