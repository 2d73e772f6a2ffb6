"""The book's builders' guide (MXNet edition) cell by cell: layers and modules, parameter access
and printing, initialisation (built-in, custom, tied), lazy initialisation, custom layers, file
I/O (npx.save/load, save_parameters) and devices, with the printed forms the book shows."""
import os
import tempfile
import warnings

import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon, init, np, npx
from mxnet.gluon import nn
from d2l import mxnet as d2l
from _d2l_common import attempt, r4

warnings.simplefilter('ignore')
npx.set_np()


X = np.array(onp.cos(onp.arange(2 * 20) * 0.3).reshape(2, 20).astype('float32'))

print('== layers and modules')
net = nn.Sequential()
net.add(nn.Dense(256, activation='relu'))
net.add(nn.Dense(10))
net.initialize(init.Constant(0.01))
print(net(X).shape, r4(net(X)[0, :3]))
print(net)

class MLP(nn.Block):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Dense(256, activation='relu')
        self.out = nn.Dense(10)

    def forward(self, X):
        return self.out(self.hidden(X))

net = MLP()
net.initialize(init.Constant(0.01))
print(net(X).shape, net)

class MySequential(nn.Block):
    def add(self, block):
        self._children[block.name] = block

    def forward(self, X):
        for block in self._children.values():
            X = block(X)
        return X

net = MySequential()
net.add(nn.Dense(256, activation='relu'))
net.add(nn.Dense(10))
net.initialize(init.Constant(0.01))
print(net(X).shape, list(net._children.keys()))

class FixedHiddenMLP(nn.Block):
    def __init__(self):
        super().__init__()
        self.rand_weight = np.array(onp.linspace(-1, 1, 400).reshape(20, 20).astype('float32'))
        self.dense = nn.Dense(20, activation='relu')

    def forward(self, X):
        X = self.dense(X)
        X = npx.relu(np.dot(X, self.rand_weight) + 1)
        X = self.dense(X)
        while np.abs(X).sum() > 1:
            X /= 2
        return X.sum()

net = FixedHiddenMLP()
net.initialize(init.Constant(0.02))
print(r4(net(X)), net(X).shape)

print('== parameter management')
net = nn.Sequential()
net.add(nn.Dense(8, activation='relu'))
net.add(nn.Dense(1))
net.initialize()
Xp = np.array(onp.sin(onp.arange(8) * 0.5).reshape(2, 4).astype('float32'))
net(Xp)
print(net[0].params)
print(net[1].params)
print(type(net[1].bias).__name__)
print(net[1].bias)
print(net[1].bias.data())
print(net[0].weight.grad())
print(net.collect_params())
print(net.collect_params('.*weight'))
print(net.collect_params('dense0.*'))
print([(name, param.shape) for name, param in net.collect_params().items()])
print(type(net.collect_params()[net[1].bias.name].data()).__name__)
attempt(lambda: net.collect_params()['dense9_bias'])

print('== initialization')
net.initialize(init=init.Normal(sigma=0.01), force_reinit=True)
print(net[0].weight.data().shape)
net.initialize(init=init.Constant(1), force_reinit=True)
print(net[0].weight.data()[0])
net[0].weight.initialize(init=init.Xavier(), force_reinit=True)
net[1].initialize(init=init.Constant(42), force_reinit=True)
print(net[1].weight.data()[0])
net.initialize()  # already initialised: a warning, nothing else

class MyInit(init.Initializer):
    def _init_weight(self, name, data):
        print('Init', name, data.shape)
        data[:] = np.array(onp.linspace(-10, 10, data.size).reshape(data.shape).astype('float32'))
        data *= np.abs(data) >= 5

net.initialize(MyInit(), force_reinit=True)
print(r4(net[0].weight.data()[:2]))
net[0].weight.data()[:] += 1
net[0].weight.data()[0, 0] = 42
print(r4(net[0].weight.data()[0]))
net[0].weight.set_data(np.ones((8, 4)))
print(r4(net[0].weight.data()[1]))
attempt(lambda: net[0].weight.set_data(np.ones((4, 8))))

print('== tied parameters')
net = nn.Sequential()
shared = nn.Dense(8, activation='relu')
net.add(nn.Dense(8, activation='relu'),
        shared,
        nn.Dense(8, activation='relu', params=shared.params),
        nn.Dense(10))
net.initialize(init.Constant(0.05))
net(Xp)
print(net[1].weight.data()[0] == net[2].weight.data()[0])
net[1].weight.data()[0, 0] = 100
print(net[1].weight.data()[0] == net[2].weight.data()[0])
print(net[1].weight is net[2].weight, sorted(net.collect_params().keys()))
with autograd.record():
    y = net(Xp).sum()
y.backward()
print(r4(net[1].weight.grad()[0, :3]))

print('== lazy initialization')
net = nn.Sequential()
net.add(nn.Dense(256, activation='relu'))
net.add(nn.Dense(10))
print([net[i].weight.data for i in range(2)] and net.collect_params())
net.initialize()
print(net.collect_params())
attempt(lambda: net[0].weight.data())
net(np.zeros((2, 20)))
print(net.collect_params())
net = nn.Sequential()
net.add(nn.Dense(4, in_units=3))
print(net.collect_params())
attempt(lambda: net[0].weight.data())
net.initialize()
print(net[0].weight.data().shape)
attempt(lambda: net(np.zeros((2, 5))))

known = gluon.utils.shape_is_known
print(known((0, 3)), known((-1, 3)), known((2, 3)), known(None), net[0].weight.shape)
attempt(lambda: known((-2, 3)))
p = gluon.Parameter('lazy', shape=(-1, 3))
print(p, p.shape)
p.shape = (5, 3)
print(p.shape)
npx.reset_np()
print(known((0, 3)), known((2, 3)), nn.Dense(4).weight.shape)
attempt(lambda: known((-1, 3)))
npx.set_np()
print(nn.Dense(4).weight, nn.Dense(4, in_units=0).weight.shape)

print('== custom layers')
class CenteredLayer(nn.Block):
    def forward(self, X):
        return X - X.mean()

layer = CenteredLayer()
print(layer(np.array([1.0, 2, 3, 4, 5])))
net = nn.Sequential()
net.add(nn.Dense(128), CenteredLayer())
net.initialize()
Y = net(np.array(onp.sin(onp.arange(80)).reshape(4, 20).astype('float32')))
print(abs(float(Y.mean())) < 1e-6)
params = gluon.ParameterDict()
params.get('param2', shape=(2, 3))
print(params)

class MyDense(nn.Block):
    def __init__(self, units, in_units, **kwargs):
        super().__init__(**kwargs)
        self.weight = self.params.get('weight', shape=(in_units, units))
        self.bias = self.params.get('bias', shape=(units,))

    def forward(self, x):
        linear = np.dot(x, self.weight.data(ctx=x.ctx)) + self.bias.data(ctx=x.ctx)
        return npx.relu(linear)

dense = MyDense(units=3, in_units=5)
print(dense.params)
dense.initialize(init.Constant(0.1))
print(dense(np.ones((2, 5))))
net = nn.Sequential()
net.add(MyDense(8, in_units=64), MyDense(1, in_units=8))
net.initialize(init.Constant(0.01))
print(r4(net(np.ones((2, 64)))))
print(sorted(net.collect_params().keys()))

print('== file I/O')
tmp = tempfile.mkdtemp()
x = np.arange(4)
npx.save(os.path.join(tmp, 'x-file'), x)
x2 = npx.load(os.path.join(tmp, 'x-file'))
print(x2)
y = np.zeros(4)
npx.save(os.path.join(tmp, 'x-files'), [x, y])
x2, y2 = npx.load(os.path.join(tmp, 'x-files'))
print((x2, y2))
mydict = {'x': x, 'y': y}
npx.save(os.path.join(tmp, 'mydict'), mydict)
mydict2 = npx.load(os.path.join(tmp, 'mydict'))
print(mydict2)
print(sorted(os.listdir(tmp)))
attempt(lambda: npx.load(os.path.join(tmp, 'missing')))

class MLP2(nn.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = nn.Dense(16, activation='relu')
        self.output = nn.Dense(10)

    def forward(self, x):
        return self.output(self.hidden(x))

net = MLP2()
net.initialize(init.Constant(0.03))
X = np.array(onp.cos(onp.arange(2 * 20)).reshape(2, 20).astype('float32'))
Y = net(X)
net.save_parameters(os.path.join(tmp, 'mlp.params'))
clone = MLP2()
clone.load_parameters(os.path.join(tmp, 'mlp.params'))
print(clone(X) == Y)
print(sorted(npx.load(os.path.join(tmp, 'mlp.params')).keys()))
other = nn.Dense(3)
attempt(lambda: other.load_parameters(os.path.join(tmp, 'mlp.params')))

print('== devices')
print(npx.cpu(), npx.gpu(), npx.gpu(1), npx.num_gpus(), d2l.try_gpu(), d2l.try_all_gpus())
x = np.array([1, 2, 3])
print(x.ctx, x.copyto(npx.cpu(1)).ctx, x.as_in_ctx(npx.cpu(2)).ctx)
Z = x.as_in_ctx(npx.cpu(1))
print(Z.as_in_ctx(npx.cpu(1)) is Z, Z.copyto(npx.cpu(1)) is Z)
net = nn.Sequential()
net.add(nn.Dense(1))
net.initialize(ctx=[npx.cpu(1)])
print(net(np.ones((2, 3), ctx=npx.cpu(1))).ctx, net[0].weight.data().ctx)
attempt(lambda: net(np.ones((2, 3))))
