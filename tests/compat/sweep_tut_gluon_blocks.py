"""MXNet 1.9's Gluon tutorials, blocks/: naming, custom-layer, custom_layer_beginners, nn,
parameters, save_load_params (small fixed data, values set by hand where they are printed)."""
import os
import tempfile

import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn
from mxnet.gluon.nn import Dense

tmp = tempfile.mkdtemp()


def fixed(net):
    """Give every parameter fixed values (the tutorials' random init replaced)."""
    for i, (name, p) in enumerate(sorted(net.collect_params().items())):
        n = int(np.prod(p.shape))
        p.set_data(nd.array(np.sin(np.arange(n) + i).reshape(p.shape) * 0.5))


def r(x, k=4):
    return (x.asnumpy().round(k) + 0).tolist()


# ---- naming.md
mydense = gluon.nn.Dense(100, prefix='mydense_')
print(mydense.prefix, mydense.name)
dense0 = gluon.nn.Dense(100)
print(dense0.prefix)
dense1 = gluon.nn.Dense(100)
print(dense1.prefix)
print(dense0.collect_params())


class Model(gluon.Block):
    def __init__(self, **kwargs):
        super(Model, self).__init__(**kwargs)
        with self.name_scope():
            self.dense0 = gluon.nn.Dense(20)
            self.dense1 = gluon.nn.Dense(20)
            self.mydense = gluon.nn.Dense(20, prefix='mydense_')

    def forward(self, x):
        x = mx.nd.relu(self.dense0(x))
        x = mx.nd.relu(self.dense1(x))
        return mx.nd.relu(self.mydense(x))


model0 = Model()
model0.initialize()
model0(mx.nd.zeros((1, 20)))
print(model0.prefix, model0.dense0.prefix, model0.dense1.prefix, model0.mydense.prefix)
model1 = Model()
print(model1.prefix, model1.dense0.prefix, model1.dense1.prefix, model1.mydense.prefix)
net = gluon.nn.Sequential()
with net.name_scope():
    net.add(gluon.nn.Dense(20))
    net.add(gluon.nn.Dense(20))
print(net.prefix, net[0].prefix, net[1].prefix)
print(model0.collect_params(), '\n')
print(model1.collect_params())
path = os.path.join(tmp, 'model.params')
model0.collect_params().save(path)
try:
    model1.collect_params().load(path, mx.cpu())
except Exception as e:
    print(type(e).__name__)
model0.save_parameters(path)
model1.load_parameters(path)
print(sorted(mx.nd.load(path).keys()))
alexnet = gluon.model_zoo.vision.alexnet(classes=10)
print(alexnet.output, alexnet.output.prefix)
with alexnet.name_scope():
    alexnet.output = gluon.nn.Dense(100)
alexnet.output.initialize()
print(alexnet.output, alexnet.output.prefix)
m = Model(prefix='mymodel_')
print(m.prefix, m.dense0.name, [k for k in m.collect_params().keys()])

# ---- custom_layer_beginners / custom-layer.md


class NormalizationLayer(gluon.Block):
    def __init__(self):
        super(NormalizationLayer, self).__init__()

    def forward(self, x):
        return (x - nd.min(x)) / (nd.max(x) - nd.min(x))


class NormalizationHybridLayer0(gluon.HybridBlock):
    def __init__(self):
        super(NormalizationHybridLayer0, self).__init__()

    def hybrid_forward(self, F, x):
        return F.broadcast_div(F.broadcast_sub(x, F.min(x)), (F.broadcast_sub(F.max(x), F.min(x))))


print(NormalizationLayer()(nd.array([1, 2, 3])))
layer = NormalizationHybridLayer0()
print(layer(nd.array([1, 2, 3], ctx=mx.cpu())))
layer.hybridize()
print(layer(nd.array([[1, 2], [3, 5]])))
net = gluon.nn.HybridSequential()
with net.name_scope():
    net.add(Dense(5))
    net.add(NormalizationHybridLayer0())
    net.add(Dense(1))
net.initialize(mx.init.Xavier(magnitude=2.24))
net.hybridize()
inp = nd.array(np.linspace(-10, 10, 10).reshape(5, 2))
out = net(inp)
print(out.shape, [(k, v.shape) for k, v in net.collect_params().items()])
fixed(net)
print(r(net(inp)))
print(net)


class NormalizationHybridLayer(gluon.HybridBlock):
    def __init__(self, hidden_units, scales):
        super(NormalizationHybridLayer, self).__init__()
        with self.name_scope():
            self.weights = self.params.get('weights', shape=(hidden_units, 0),
                                           allow_deferred_init=True)
            self.scales = self.params.get('scales', shape=scales.shape,
                                          init=mx.init.Constant(scales),
                                          differentiable=False)

    def hybrid_forward(self, F, x, weights, scales):
        normalized_data = F.broadcast_div(F.broadcast_sub(x, F.min(x)), (F.broadcast_sub(F.max(x), F.min(x))))
        weighted_data = F.FullyConnected(normalized_data, weights, num_hidden=self.weights.shape[0], no_bias=True)
        scaled_data = F.broadcast_mul(scales, weighted_data)
        return scaled_data


def print_params(title, net):
    print(title)
    hybridlayer_params = {k: v for k, v in net.collect_params().items() if 'normalizationhybridlayer' in k}
    for key, value in sorted(hybridlayer_params.items()):
        print('{} = {}\n'.format(key, r(value.data())))


for hybrid in (False, True):
    net = gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(Dense(5))
        net.add(NormalizationHybridLayer(hidden_units=5, scales=nd.array([2])))
        net.add(Dense(1))
    net.initialize(mx.init.Xavier(magnitude=2.24))
    if hybrid:
        net.hybridize()
    inp = nd.array(np.linspace(-10, 10, 10).reshape(5, 2))
    label = nd.array(np.linspace(-1, 1, 5).reshape(5, 1))
    print(net.collect_params())
    net(inp)
    fixed(net)
    net[1].scales.set_data(nd.array([2]))
    mse_loss = gluon.loss.L2Loss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    with autograd.record():
        output = net(inp)
        print_params("=========== Parameters after forward pass ===========\n", net)
        loss = mse_loss(output, label)
    loss.backward()
    trainer.step(inp.shape[0])
    print_params("=========== Parameters after backward pass ===========\n", net)
    print(net[1].scales.grad_req, r(loss))

# ---- nn.md: Block and Sequential, MixMLP, FancyMLP with a constant


class MixMLP(nn.Block):
    def __init__(self, **kwargs):
        super(MixMLP, self).__init__(**kwargs)
        self.blk = nn.Sequential()
        self.blk.add(nn.Dense(3, activation='relu'),
                     nn.Dense(4, activation='relu'))
        self.dense = nn.Dense(5)

    def forward(self, x):
        y = nd.relu(self.blk(x))
        print(y.shape)
        return self.dense(y)


net = MixMLP()
print(net)
net.initialize()
x = nd.array(np.arange(4).reshape(2, 2) / 4.0)
net(x)
fixed(net)
print(r(net(x)))
print(net.blk[1].weight.data().shape, net.blk[1].weight.name)
net = nn.Sequential()
net.add(nn.Dense(256, activation='relu'), nn.Dense(10))
print(net)
net.initialize()
print(net(nd.ones((2, 20))).shape)
net = nn.HybridSequential()
net.add(nn.Conv2D(channels=6, kernel_size=5, activation='relu'),
        nn.MaxPool2D(pool_size=2, strides=2),
        nn.Conv2D(channels=16, kernel_size=3, activation='relu'),
        nn.MaxPool2D(pool_size=2, strides=2),
        nn.Dense(120, activation="relu"),
        nn.Dense(84, activation="relu"),
        nn.Dense(10))
print(net)
net.initialize()
x = nd.ones((2, 1, 28, 28))
print(net(x).shape)
print((net[0].weight.data().shape, net[5].bias.data().shape))
print(net[0].params.keys(), net[0].weight.grad().shape)
net.summary(x)

# ---- parameters.md
net = nn.Sequential()
net.add(nn.Dense(256, activation='relu'))
net.add(nn.Dense(10))
net.initialize()
x = nd.array(np.linspace(0, 1, 40).reshape(2, 20))
net(x)
print(net[0].params)
print(net[1].bias)
print(net[1].bias.data())
print(net[0].params['sequential5_dense0_weight'].data().shape if 'sequential5_dense0_weight' in net[0].params else sorted(net[0].params.keys()))
print(net[0].weight.grad().sum().asscalar())
print(net.collect_params())
print(net.collect_params('.*weight'))
print(net.collect_params('dense0.*'))
net.collect_params().initialize(init=init.Normal(sigma=0.01), force_reinit=True)
print(net[0].weight.data().shape)
net.collect_params().initialize(init=init.Constant(1), force_reinit=True)
print(net[0].weight.data()[0][:4])
net[0].weight.initialize(init=init.Xavier(), force_reinit=True)
print(net[0].weight.data().shape)


class MyInit(init.Initializer):
    def _init_weight(self, name, data):
        print('Init', name, data.shape)
        data[:] = nd.array(np.cos(np.arange(data.size)).reshape(data.shape))
        data *= nd.abs(data) >= 0.5


net.initialize(MyInit(), force_reinit=True)
print(r(net[0].weight.data()[0][:5]))
net[0].weight.set_data(net[0].weight.data() + 1)
print(r(net[0].weight.data()[0][:5]))
net = nn.Sequential()
shared = nn.Dense(8, activation='relu')
net.add(nn.Dense(8, activation='relu'), shared,
        nn.Dense(8, activation='relu', params=shared.params),
        nn.Dense(10))
net.initialize()
x = nd.array(np.linspace(-1, 1, 40).reshape(2, 20))
net(x)
print(r(net[1].weight.data()[0] == net[2].weight.data()[0]))
net[1].weight.data()[0, 0] = 100
print(r(net[1].weight.data()[0][:1]), r(net[2].weight.data()[0][:1]))
print(net.collect_params())
net = nn.Sequential()
net.add(nn.Dense(256, in_units=20, activation='relu'), nn.Dense(10, in_units=256))
net.initialize()
print(net.collect_params())
print(net[0].weight.data().shape)
p = gluon.Parameter('myparam', shape=(2, 3))
p.initialize(init=init.One())
print(p, p.data(), p.grad())
print(p.list_ctx(), p.list_data()[0].shape)
p.zero_grad()
try:
    gluon.Parameter('unused', shape=(2, 3)).data()
except Exception as e:
    print(type(e).__name__)
const = gluon.Constant('c', nd.array([[1, 2], [3, 4]]))
const.initialize()
print(const, const.grad_req, const.data())
print(mx.cpu(), mx.cpu(0) == mx.cpu())

# parameters.md: nested blocks and their parameter names


def block1():
    net = nn.Sequential()
    net.add(nn.Dense(4, activation='relu'))
    net.add(nn.Dense(3, activation='relu'))
    return net


def block2():
    net = nn.Sequential()
    for i in range(2):
        net.add(block1())
    return net


rgnet = nn.Sequential()
rgnet.add(block2())
rgnet.add(nn.Dense(2))
rgnet.initialize()
rgnet(nd.array(np.linspace(0, 1, 10).reshape(2, 5)))
print(rgnet.collect_params)
print(rgnet.collect_params())
print(rgnet[0][1][0].bias.data())
rg_path = os.path.join(tmp, 'rg_model.params')
rgnet.save_parameters(rg_path)
rgnet.load_parameters(rg_path)
print(sorted(nd.load(rg_path).keys()))
print(rgnet[1].weight, rgnet[1], rgnet[1].params)
print(rgnet.collect_params()[rgnet[1].bias.name].data())

# ---- save_load_params.md
num_inputs, num_outputs = 2, 3


def build_lenet(net):
    with net.name_scope():
        net.add(gluon.nn.Conv2D(channels=4, kernel_size=3, activation='relu'))
        net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
        net.add(gluon.nn.Flatten())
        net.add(gluon.nn.Dense(8, activation="relu"))
        net.add(gluon.nn.Dense(num_outputs))
    return net


net = build_lenet(gluon.nn.Sequential())
net.initialize()
data = nd.array(np.linspace(0, 1, 2 * 64).reshape(2, 1, 8, 8))
net(data)
fixed(net)
before = net(data)
file_name = os.path.join(tmp, "net.params")
net.save_parameters(file_name)
new_net = build_lenet(gluon.nn.Sequential())
new_net.load_parameters(file_name, ctx=mx.cpu())
print(r(before), r(new_net(data)))
print(sorted(nd.load(file_name).keys()))
net = build_lenet(gluon.nn.HybridSequential())
net.hybridize()
net.initialize()
net(data)
fixed(net)
before = net(data)
net.export(os.path.join(tmp, "lenet"), epoch=1)
print(sorted(os.listdir(tmp)))
import warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    deserialized_net = gluon.nn.SymbolBlock.imports(os.path.join(tmp, "lenet-symbol.json"), ['data'],
                                                    os.path.join(tmp, "lenet-0001.params"), ctx=mx.cpu())
print(r(deserialized_net(data)), r(before))
print(sorted(deserialized_net.collect_params().keys()))
sym = mx.sym.load(os.path.join(tmp, "lenet-symbol.json"))
print(sym.list_arguments())
print(sym.get_internals().list_outputs()[-3:])
