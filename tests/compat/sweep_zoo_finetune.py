import os
import tempfile

import mxnet as mx
from mxnet import autograd, gluon, init, nd
from mxnet.gluon import nn
from mxnet.gluon.model_zoo import vision


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


tmp = tempfile.mkdtemp()
x = nd.ones((2, 3, 32, 32))

# the fine-tuning recipe: reuse features, new output layer, output's lr_mult
pre = vision.resnet18_v1(classes=10)
pre.initialize(init.Xavier())
pre(x)
fine = vision.resnet18_v1(classes=4)
fine.features = pre.features
fine.output.initialize(init.Xavier())
fine.output.collect_params().setattr('lr_mult', 10)
print(fine(x).shape)
print(fine.output, fine.output.name)
print(sorted(fine.collect_params().keys())[:3], sorted(fine.collect_params().keys())[-3:])
print([(k, v.lr_mult) for k, v in sorted(fine.output.collect_params().items())])
with fine.name_scope():
    fine.output = nn.Dense(3)
print(fine.output.name, fine.output)
fine.output.initialize()
print(fine(x).shape, sorted(fine.output.collect_params().keys()))

# regex selection of parameters
net = vision.squeezenet1_1(classes=3)
for pat in ['.*weight', '.*bias', '.*conv0.*', 'squeezenet0_conv(1|2)_weight', '.*gamma', 'nothing']:
    print(pat, sorted(net.collect_params(pat).keys())[:4], len(list(net.collect_params(pat).keys())))
print(net.collect_params('.*conv0.*'))
net = vision.alexnet(classes=3)
print(net.collect_params())
net.initialize()
net(nd.ones((1, 3, 67, 67)))
print(net.collect_params())

# slicing features, and walking them layer by layer
net = vision.vgg11_bn(classes=2)
print(len(net.features), net.features[:3])
print(type(net.features[-4:]).__name__, net.features[-4:])
net.initialize()
h = x
for layer in net.features:
    h = layer(h)
    print(layer.name, h.shape)
print(net.output(h).shape)
net = vision.mobilenet_v2_0_25(classes=3)
net.initialize()
h = x
for layer in net.features:
    h = layer(h)
    print(layer.name, type(layer).__name__, h.shape)

# save_parameters / load_parameters between zoo networks
net = vision.resnet18_v1(classes=10)
net.initialize()
net(x)
f = os.path.join(tmp, 'r18.params')
net.save_parameters(f)
saved = nd.load(f)
print(len(saved), sorted(saved.keys())[:6])
other = vision.resnet18_v1(classes=10)
other.load_parameters(f)
print(float(abs(other(x) - net(x)).max().asscalar()))
wrong = vision.resnet18_v1(classes=4)
attempt(lambda: wrong.load_parameters(f))
wrong = vision.resnet34_v1(classes=10)
attempt(lambda: wrong.load_parameters(f))
attempt(lambda: wrong.load_parameters(f, allow_missing=True))
small = vision.ResNetV1(vision.BasicBlockV1, [2, 2], [64, 64, 128], classes=10)
attempt(lambda: small.load_parameters(f))
attempt(lambda: small.load_parameters(f, ignore_extra=True))
net.collect_params().save(os.path.join(tmp, 'r18.pd'))
print(sorted(nd.load(os.path.join(tmp, 'r18.pd')).keys())[:3])
net2 = vision.resnet18_v1(classes=10, prefix=net.prefix)
net2.collect_params().load(os.path.join(tmp, 'r18.pd'))
print(float(abs(net2(x) - net(x)).max().asscalar()))
net3 = vision.resnet18_v1(classes=10, prefix='other_')
attempt(lambda: net3.collect_params().load(os.path.join(tmp, 'r18.pd')))

# cast and dtype
net = vision.squeezenet1_1(classes=3)
net.initialize()
net.cast('float16')
y = net(nd.ones((1, 3, 224, 224), dtype='float16'))
print(y.dtype, y.shape, net.features[0].weight.dtype)
print(sorted({str(v.dtype) for v in net.collect_params().values()}))
net = vision.resnet18_v2(classes=3)
net.cast('float16')
net.initialize()
print(net(nd.ones((1, 3, 32, 32), dtype='float16')).dtype)
print(sorted({(k.split('_')[-1], str(v.dtype)) for k, v in net.collect_params().items()}))

# hybridized with static allocation, batch sizes changing
net = vision.mobilenet0_25(classes=3)
net.initialize()
net.hybridize(static_alloc=True, static_shape=True)
for n in (1, 3, 2):
    print(net(nd.ones((n, 3, 32, 32))).shape)
print(net(mx.sym.var('data')).list_outputs())

# one training step: grads on every parameter that takes one
net = vision.resnet18_v1(classes=3)
net.initialize(init.Xavier())
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
with autograd.record():
    loss = loss_fn(net(x), nd.array([0, 1]))
loss.backward()
trainer.step(2)
print(loss.shape, sorted({v.grad_req for v in net.collect_params().values()}))
nograd = sorted(k for k, v in net.collect_params().items() if v.grad_req == 'null')
print(len(nograd), nograd[:4])
print(sorted(k for k, v in net.collect_params().items() if v.grad_req != 'null')[:4])
