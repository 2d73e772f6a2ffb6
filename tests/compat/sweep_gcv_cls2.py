"""GluonCV 0.10.5 classification zoo (MobileNetV3, SENet, DarkNet, CIFAR nets, GroupNorm ResNet), tiny inputs."""
import warnings
import numpy as np
import mxnet as mx
from gluoncv import model_zoo
from _gcv_zoo import attempt, run, describe

warnings.simplefilter('ignore')
mx.random.seed(0)

run('mobilenetv3_small', (1, 3, 32, 32), classes=10)
run('mobilenetv3_large', (1, 3, 32, 32), hybridize=False)
run('darknet53', (1, 3, 32, 32), classes=8)
run('cifar_resnet20_v2', (2, 3, 32, 32))
run('cifar_resnet56_v1', (1, 3, 16, 16), classes=100)
run('cifar_wideresnet16_10', (1, 3, 32, 32), drop_rate=0.3)
run('cifar_resnext29_32x4d', (1, 3, 16, 16))
run('resnet50_v1b_gn', (1, 3, 32, 32), classes=3, hybridize=False)  # its GroupNorm reshape only runs imperatively
run('cifar_residualattentionnet56', (1, 3, 32, 32))

senet = model_zoo.get_model('senet_154', pretrained=False, classes=3)
params = senet.collect_params()
print('senet_154', type(senet).__name__, len(list(params.keys())), sorted(params.keys())[:2],
      sum(1 for p in params.values() if 0 in p.shape))
x = mx.nd.ones((1, 3, 32, 32))
net = model_zoo.get_model('darknet53', pretrained=False, classes=2)
net.initialize(mx.init.Constant(0.01))
print('darknet features', net.features(x).shape)
net = model_zoo.get_model('mobilenetv3_small', pretrained=False, classes=3)
net.initialize(mx.init.One())
net.hybridize(static_alloc=True, static_shape=True)
for side in (32, 40):
    print('mnv3', side, net(mx.nd.ones((1, 3, side, side))).shape)
net = model_zoo.get_model('cifar_resnet20_v1', classes=10)
net.initialize(mx.init.Constant(0.02))
net.hybridize()
with mx.autograd.record():
    out = net(mx.nd.ones((2, 3, 32, 32)))
out.backward()
print('cifar values', np.round(out.asnumpy().astype(np.float64), 3).tolist())
g = net.collect_params()
print('grad', sorted(g.keys())[0], g[sorted(g.keys())[0]].grad().shape)
attempt(lambda: net(mx.nd.ones((2, 4, 32, 32))).shape)
