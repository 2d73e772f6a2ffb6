import os
import tempfile

import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon.model_zoo import model_store, vision
from mxnet.gluon.model_zoo.vision.mobilenet import LinearBottleneck, RELU6
from mxnet.gluon.model_zoo.vision.squeezenet import get_squeezenet
from mxnet.gluon.model_zoo.vision.densenet import get_densenet, densenet_spec
from mxnet.gluon.model_zoo.vision.resnet import resnet_spec, resnet_net_versions, resnet_block_versions
from mxnet.gluon.model_zoo.vision.vgg import vgg_spec


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


# the model store: short hashes of the weight files, purge
for name in ['alexnet', 'densenet121', 'densenet161', 'densenet169', 'densenet201', 'inceptionv3',
             'mobilenet0.25', 'mobilenet0.5', 'mobilenet0.75', 'mobilenet1.0', 'mobilenetv2_0.25',
             'mobilenetv2_0.5', 'mobilenetv2_0.75', 'mobilenetv2_1.0', 'resnet101_v1', 'resnet101_v2',
             'resnet152_v1', 'resnet152_v2', 'resnet18_v1', 'resnet18_v2', 'resnet34_v1', 'resnet34_v2',
             'resnet50_v1', 'resnet50_v2', 'squeezenet1.0', 'squeezenet1.1', 'vgg11', 'vgg11_bn', 'vgg13',
             'vgg13_bn', 'vgg16', 'vgg16_bn', 'vgg19', 'vgg19_bn']:
    print(name, model_store.short_hash(name))
attempt(lambda: model_store.short_hash('resnet19_v1'))
attempt(lambda: model_store.short_hash('inception_v3'))
tmp = tempfile.mkdtemp()
for f in ['a.params', 'b.params', 'c.txt', 'd.params.bak']:
    open(os.path.join(tmp, f), 'w').close()
model_store.purge(tmp)
print(sorted(os.listdir(tmp)))
attempt(lambda: model_store.purge(os.path.join(tmp, 'missing')))

# the specs and helpers of the modules
print(sorted(resnet_spec.items()))
print([c.__name__ for c in resnet_net_versions], [sorted((k, v.__name__) for k, v in d.items()) for d in resnet_block_versions])
print(sorted(vgg_spec.items()))
print(sorted(densenet_spec.items()))
net = get_densenet(121, classes=3)
print(net.name, type(net).__name__)
attempt(lambda: get_densenet(122))
net = get_squeezenet('1.1', classes=3)
print(net.name, net.features[0])
attempt(lambda: get_squeezenet('2.0'))
r = RELU6()
print(r, r.name)
print(r(nd.array([-1, 0.5, 3, 7])))
blk = LinearBottleneck(in_channels=4, channels=4, t=6, stride=1)
print(blk)
blk.initialize()
print(blk(nd.ones((1, 4, 5, 5))).shape, blk.use_shortcut)
blk = LinearBottleneck(in_channels=4, channels=8, t=1, stride=2, prefix='lb_')
blk.initialize()
print(blk(nd.ones((1, 4, 5, 5))).shape, blk.use_shortcut, sorted(blk.collect_params().keys())[:4])

# Inception V3 on its 299 x 299 input
net = vision.inception_v3(classes=4)
net.initialize()
y = net(nd.ones((1, 3, 299, 299)))
print(y.shape, len(list(net.collect_params().keys())))
print(sorted((k, v.shape) for k, v in net.collect_params().items())[:6])
attempt(lambda: net(nd.ones((1, 3, 64, 64))).shape)
