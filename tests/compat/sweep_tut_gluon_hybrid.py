"""MXNet 1.9's Gluon tutorials, blocks/: hybridize, init, activations (small fixed data)."""
import os
import tempfile
import warnings

import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn

tmp = tempfile.mkdtemp()


def r(x, k=4):
    return (x.asnumpy().round(k) + 0).tolist()


def fixed(net):
    for i, (name, p) in enumerate(sorted(net.collect_params().items())):
        n = int(np.prod(p.shape))
        p.set_data(nd.array(np.cos(np.arange(n) * 0.7 + i).reshape(p.shape) * 0.3))


# ---- hybridize.md
def get_net():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(16, activation='relu'))
        net.add(nn.Dense(8, activation='relu'))
        net.add(nn.Dense(2))
    net.initialize()
    return net


x = nd.array(np.linspace(-1, 1, 12).reshape(1, 12))
net = get_net()
net(x)
fixed(net)
eager = net(x)
net.hybridize()
print(r(eager), r(net(x)))
print(r(net(x) - eager, 3))


class Net(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(Net, self).__init__(**kwargs)
        with self.name_scope():
            self.fc1 = nn.Dense(4)
            self.fc2 = nn.Dense(2)

    def hybrid_forward(self, F, x):
        print('type(x): {}, F: {}'.format(type(x).__name__, F.__name__.split('.')[-1]))
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
net.initialize()
x = nd.array(np.linspace(0, 1, 10).reshape(2, 5))
net(x)
fixed(net)
print(r(net(x)))
net.hybridize()
print(r(net(x)))
print(r(net(x)))
net.hybridize(static_alloc=True, static_shape=True)
print(r(net(x)))
xs = mx.sym.var('data')
ys = net(xs)
print(type(ys).__name__, ys.list_arguments(), ys.list_outputs())
print(ys.infer_shape(data=(2, 5))[1])
net.export(os.path.join(tmp, 'netmodel'), epoch=1)
print(sorted(os.listdir(tmp)))
sym = mx.sym.load(os.path.join(tmp, 'netmodel-symbol.json'))
print(sym.list_arguments(), sym.list_outputs())
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    back = gluon.nn.SymbolBlock.imports(os.path.join(tmp, 'netmodel-symbol.json'), ['data'],
                                        os.path.join(tmp, 'netmodel-0001.params'))
print(r(back(x)))
mod = mx.mod.Module(symbol=sym, data_names=['data'], label_names=None, context=mx.cpu())
mod.bind(data_shapes=[('data', (2, 5))], for_training=False)
_, arg_params, aux_params = mx.model.load_checkpoint(os.path.join(tmp, 'netmodel'), 1)
mod.set_params(arg_params, aux_params)
mod.forward(mx.io.DataBatch([x]))
print(r(mod.get_outputs()[0]))


class FancyHybrid(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.sum(F.broadcast_mul(x, F.ones_like(x)) * 2, axis=1, keepdims=True) + F.zeros_like(x).sum()


fh = FancyHybrid()
print(r(fh(nd.array([[1, 2], [3, 4]]))))
fh.hybridize()
try:
    print(r(fh(nd.array([[1, 2], [3, 4]]))))
except Exception as e:
    print(type(e).__name__)


class BadHybrid(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return x.asnumpy()


bh = BadHybrid()
bh.hybridize()
try:
    bh(nd.ones((2, 2)))
except Exception as e:
    print(type(e).__name__)

# ---- init.md
net = nn.Sequential()
net.add(nn.Dense(8, activation='relu'), nn.Dense(2))
net.initialize()
try:
    net[0].weight.data()
except Exception as e:
    print(type(e).__name__, isinstance(e, mx.base.MXNetError) if hasattr(mx.base, 'MXNetError') else '')
xi = nd.array(np.linspace(-1, 1, 12).reshape(3, 4))
net(xi)
print(net[0].weight.shape, net[1].weight.shape)
net.initialize(init=init.Normal(sigma=0.01), force_reinit=True)
print(net[0].weight.data().shape)
net.initialize(init=init.Constant(0.5), force_reinit=True)
print(r(net(xi)))
net[0].weight.initialize(init=init.Xavier(), force_reinit=True)
net[1].initialize(init=init.Constant(42), force_reinit=True)
print(r(net[1].weight.data()), r(net[1].bias.data()))
net.initialize(init.Xavier(rnd_type='gaussian', factor_type='out', magnitude=2), force_reinit=True)
print(net[0].weight.data().shape)


@mx.init.register
class MyInit(init.Initializer):
    def __init__(self, scale=1.0):
        super(MyInit, self).__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, name, data):
        print('Init', name, data.shape)
        data[:] = nd.array(np.arange(data.size).reshape(data.shape) * self.scale)

    def _init_bias(self, name, data):
        print('Bias', name, data.shape)
        data[:] = -1


net.initialize(MyInit(0.1), force_reinit=True)
print(r(net[1].weight.data()), r(net[1].bias.data()))
print(MyInit(0.5).dumps(), init.Xavier(magnitude=2).dumps(), init.Normal(0.2).dumps())
print(init.Uniform(0.3).dumps(), init.Constant(3).dumps(), init.One().dumps())
desc = init.InitDesc('conv_weight', attrs={'__init__': init.Constant(2).dumps()})
arr = nd.zeros((2, 2))
init.Uniform()(desc, arr)
print(r(arr))
b = nd.zeros((1, 1, 4, 4))
init.Bilinear()(init.InitDesc('up_weight'), b)
print(r(b))
lb = nd.zeros((8,))
init.LSTMBias(forget_bias=2.0)(init.InitDesc('lstm_bias'), lb)
print(r(lb))
z = nd.ones((3,))
init.Zero()(init.InitDesc('any_bias'), z)
print(r(z))
g = nd.zeros((3,))
init.Uniform()(init.InitDesc('bn_gamma'), g)
print(r(g))
try:
    init.Uniform()(init.InitDesc('strange'), nd.zeros((2,)))
except Exception as e:
    print(type(e).__name__)
p = gluon.Parameter('weight', shape=(2, 2), init=init.Constant(3))
p.initialize()
print(r(p.data()))
p2 = gluon.Parameter('weight', shape=(2, 2))
p2.initialize(init=init.One(), default_init=init.Zero())
print(r(p2.data()))
p3 = gluon.Parameter('bias', shape=(2,))
p3.initialize(default_init=init.Uniform())
print(p3.data().shape)
p.reset_ctx(mx.cpu())
print(p.list_ctx())
try:
    p.initialize()
except Exception as e:
    print('warned-or-raised', type(e).__name__)
net = nn.Dense(3, in_units=2, weight_initializer=init.Constant(0.25), bias_initializer='ones')
net.initialize()
print(r(net.weight.data()), r(net.bias.data()))
conv = nn.Conv2D(2, 3, in_channels=1, weight_initializer=init.Bilinear(), use_bias=False)
conv.initialize()
print(r(conv.weight.data()))

# init.md: deferred initialization seen through an initializer that only prints, writes through data()


class PrintInit(init.Initializer):
    def _init_weight(self, name, data):
        print('Init', name, data.shape)


def getnet():
    net = nn.Sequential()
    net.add(nn.Dense(4, activation='relu'))
    net.add(nn.Dense(3))
    return net


net = getnet()
print(net.collect_params())
net.initialize(init=PrintInit())
print(net.collect_params())
xd = nd.array(np.linspace(0, 1, 10).reshape(2, 5))
yd = net(xd)
print(r(yd), r(net[0].weight.data()))
yd = net(xd)
net.initialize(init=PrintInit(), force_reinit=True)
net[0].weight.data()[:] += 1
net[0].weight.data()[0, 0] = 42
print(r(net[0].weight.data()))
wd = net[0].weight.data()
wd[1] = 5
wd[:, 2] *= 3
print(r(net[0].weight.data()), r(net(xd)))
try:
    with autograd.record():
        net[0].weight.data()[0, 1] = -1
    print(r(net[0].weight.data()[0]))
except Exception as e:
    print(type(e).__name__)

# ---- activations.md
xa = nd.array(np.linspace(-2, 2, 9))


def visualize(act):
    act.initialize()
    xg = xa.copy()
    xg.attach_grad()
    with autograd.record():
        y = act(xg)
    y.backward()
    print(act, r(y, 3), r(xg.grad, 3))


for a in (nn.Activation('sigmoid'), nn.Activation('tanh'), nn.Activation('relu'),
          nn.Activation('softrelu'), nn.Activation('softsign'), nn.LeakyReLU(0.05),
          nn.PReLU(), nn.ELU(), nn.SELU(), nn.Swish(), nn.GELU()):
    visualize(a)
pr = nn.PReLU(alpha_initializer=init.Constant(0.1))
pr.initialize()
print(pr.alpha.data(), pr.collect_params())
xg = xa.copy()
with autograd.record():
    y = pr(xg)
y.backward()
print(r(pr.alpha.grad()))
seq = nn.HybridSequential()
seq.add(nn.Dense(3, in_units=9, activation='tanh', weight_initializer=init.Constant(0.1)),
        nn.ELU(alpha=0.5), nn.Swish(beta=2.0))
seq.initialize()
print(seq)
print(r(seq(xa.reshape((1, 9)))))
seq.hybridize()
print(r(seq(xa.reshape((1, 9)))))
