import numpy as onp

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon.model_zoo import vision


def fill(net):
    """Deterministic weights: a sine wave over each parameter, scaled by its fan-in."""
    for k, p in sorted(net.collect_params().items()):
        size = int(onp.prod(p.shape))
        values = onp.sin(onp.arange(size) * 0.37 + len(k)).reshape(p.shape)
        if k.endswith('running_var') or k.endswith('gamma'):
            values = 1 + 0.1 * values
        elif len(p.shape) > 1:
            values = values / onp.sqrt(size / p.shape[0])
        else:
            values = 0.1 * values
        p.set_data(nd.array(values))


def show(label, arr, digits=3):
    a = arr.asnumpy().astype('float64')
    # (+ 0.0: a sum rounding to zero prints 0.0 whatever its sign)
    print(label, arr.shape, (onp.round(a.ravel()[:6], digits) + 0.0).tolist(), round(float(a.sum()), digits) + 0.0)


# (a batch of 4 at 64 x 64: batch statistics of fewer values, in the last stages, are ill-conditioned)
x = nd.array(onp.cos(onp.arange(4 * 3 * 64 * 64) * 0.01 + onp.repeat(onp.arange(4), 3 * 64 * 64)).reshape(4, 3, 64, 64))
label = nd.array([1, 3, 0, 4])
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
for name in ['resnet18_v1', 'resnet18_v2', 'resnet50_v2', 'mobilenet0.25', 'mobilenetv2_0.25']:
    net = vision.get_model(name, classes=5)
    net.initialize()
    net(x)
    fill(net)
    show(name + ' predict', net(x))
    net.hybridize()
    show(name + ' hybrid', net(x))
    if name in ('resnet18_v1', 'resnet50_v2'):
        # (in training, a few of their last BatchNorm channels see one tiny value among zeros:
        # normalised, the last bits of the convolutions decide the output)
        continue
    with autograd.record():
        out = net(x)
        loss = loss_fn(out, label)
    loss.backward()
    show(name + ' train out', out, 2)
    show(name + ' loss', loss, 1)
    weight = [p for k, p in sorted(net.output.collect_params().items()) if k.endswith('weight')][0]
    show(weight.name + ' grad', weight.grad(), 2)
    # the statistics of the BatchNorms the backward passes change, the others' do not (ResNet
    # V2's first BatchNorm, on the data, learns nothing)
    for k, p in sorted(net.collect_params('.*running_mean').items())[:3]:
        show(k, p.data())

# (MXNet's oneDNN backward of a hybridized DenseNet fails: 'could not construct a sub-memory')
net = vision.DenseNet(8, 4, [2, 2], bn_size=2, classes=5)
net.initialize()
xd = nd.array(onp.cos(onp.arange(2 * 3 * 56 * 56) * 0.01).reshape(2, 3, 56, 56))
net(xd)
fill(net)
show('densenet predict', net(xd))
net.hybridize()
show('densenet hybrid', net(xd))
with autograd.record():
    show('densenet train out', net(xd), 2)
net = vision.alexnet(classes=5)
net.initialize()
xa = nd.array(onp.cos(onp.arange(2 * 3 * 67 * 67) * 0.01).reshape(2, 3, 67, 67))
net(xa)
fill(net)
show('alexnet predict', net(xa))
net = vision.squeezenet1_1(classes=5)
net.initialize()
xs = nd.array(onp.cos(onp.arange(1 * 3 * 224 * 224) * 0.001).reshape(1, 3, 224, 224))
net(xs)
fill(net)
show('squeezenet1.1 predict', net(xs))
