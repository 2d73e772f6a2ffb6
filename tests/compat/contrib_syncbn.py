import mxnet as mx
from mxnet import gluon, nd, autograd
from mxnet.gluon import nn
from mxnet.gluon.contrib import nn as cnn

bn = cnn.SyncBatchNorm(num_devices=1)
print(bn)
print(bn.name, sorted(bn.collect_params().keys()))
bn.initialize()
x = nd.array([[[1., 2.], [3., 4.]], [[5., 6.], [7., 9.]]]).reshape((2, 2, 2, 1))
print(bn(x).asnumpy().round(4).tolist())
with autograd.record():
    y = bn(x)
print(y.asnumpy().round(4).tolist())
print(bn.running_mean.data().asnumpy().round(4).tolist(), bn.running_var.data().asnumpy().round(4).tolist())
print(bn)

bn2 = cnn.SyncBatchNorm(in_channels=3, num_devices=1, momentum=0.8, epsilon=1e-3, center=False,
                        scale=False, use_global_stats=True, prefix='sbn_')
print(bn2)
print(bn2.gamma.grad_req, bn2.beta.grad_req, bn2.running_mean.shape)

net = nn.HybridSequential()
with net.name_scope():
    net.add(nn.Conv2D(4, 3, padding=1), cnn.SyncBatchNorm(num_devices=1), nn.Activation('relu'))
print(net)
net.initialize(mx.init.Constant(0.1))
net.hybridize()
img = nd.arange(2 * 2 * 3 * 3).reshape((2, 2, 3, 3)) / 10
with autograd.record():
    out = net(img)
out.backward()
print(out.shape, out.sum().asscalar().round(3), sorted(net.collect_params().keys()))
print(net[1].running_mean.data().asnumpy().round(4).tolist())
print(net[0].weight.grad().sum().asscalar().round(3))

# train-mode output equals BatchNorm's
ref = nn.BatchNorm()
ref.initialize()
with autograd.record():
    a = ref(x)
    b = cnn.SyncBatchNorm(num_devices=1)
    b.initialize()
    b = b(x)
print(float(nd.abs(a - b).max().asscalar()) < 1e-6)

# several devices declared: inference and use_global_stats need no synchronisation
bn4 = cnn.SyncBatchNorm(num_devices=4)
bn4.initialize()
print(bn4, bn4(x).asnumpy().round(4).ravel().tolist())
bn4g = cnn.SyncBatchNorm(num_devices=4, use_global_stats=True)
bn4g.initialize()
with autograd.record():
    print(bn4g(x).asnumpy().round(4).ravel().tolist())
