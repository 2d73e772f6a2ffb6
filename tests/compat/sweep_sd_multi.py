"""The Straight Dope, chapter 7 (distributed learning): training on several devices from scratch
(copyto, as_in_context, allreduce by hand, split_and_load), with Gluon (parameters on a list of
contexts, gluon.utils.split_and_load, Trainer over devices), hybridize (HybridSequential,
HybridBlock with F, printing inside hybrid_forward, symbols and JSON) and the local KVStore."""
import json
import os
import tempfile
import mxnet as mx
from mxnet import nd, autograd, gluon, init, sym
from mxnet.gluon import nn
from _sd_common import pat, fill, r, show, attempt

ctx = [mx.cpu(0), mx.cpu(1)]  # the chapter's [mx.gpu(0), mx.gpu(1)]
X = pat((4, 1, 12, 12), 0, 1.0)
Y = nd.array([0, 1, 2, 1])

print('== multiple devices from scratch')
scale = .1
params = [pat((4, 1, 3, 3), 1, scale), nd.zeros(4), pat((6, 4, 3, 3), 2, scale), nd.zeros(6),
          pat((6, 8), 3, scale), nd.zeros(8), pat((8, 3), 4, scale), nd.zeros(3)]


def lenet(X, params):
    h1_conv = nd.Convolution(data=X, weight=params[0], bias=params[1], kernel=(3, 3), num_filter=4)
    h1_activation = nd.relu(h1_conv)
    h1 = nd.Pooling(data=h1_activation, pool_type='avg', kernel=(2, 2), stride=(2, 2))
    h2_conv = nd.Convolution(data=h1, weight=params[2], bias=params[3], kernel=(3, 3), num_filter=6)
    h2_activation = nd.relu(h2_conv)
    h2 = nd.Pooling(data=h2_activation, pool_type='avg', kernel=(2, 2), stride=(2, 2))
    h2 = nd.flatten(h2)
    h3_linear = nd.dot(h2, params[4]) + params[5]
    h3 = nd.relu(h3_linear)
    yhat = nd.dot(h3, params[6]) + params[7]
    return yhat


loss = gluon.loss.SoftmaxCrossEntropyLoss()


def SGD(params, lr):
    for p in params:
        p[:] = p - lr * p.grad


def get_params(params, ctx):
    new_params = [p.copyto(ctx) for p in params]
    for p in new_params:
        p.attach_grad()
    return new_params


new_params = get_params(params, ctx[1])
print('b1 weight = ', new_params[1])
print('b1 grad = ', new_params[1].grad)


def allreduce(data):
    for i in range(1, len(data)):
        data[0][:] += data[i].copyto(data[0].context)
    for i in range(1, len(data)):
        data[0].copyto(data[i])


data = [nd.ones((1, 2), ctx=c) * (i + 1) for i, c in enumerate(ctx)]
print('Before:', data)
allreduce(data)
print('After:', data)


def split_and_load(data, ctx):
    n, k = data.shape[0], len(ctx)
    assert (n // k) * k == n, '# examples is not divided by # devices'
    idx = list(range(0, n + 1, n // k))
    return [data[idx[i]:idx[i + 1]].as_in_context(ctx[i]) for i in range(k)]


batch = nd.arange(16).reshape((4, 4))
print('Input: ', batch)
print('Load into', ctx)
splitted = split_and_load(batch, ctx)
print('Output:', splitted)
attempt(lambda: split_and_load(nd.arange(6).reshape((3, 2)), ctx))


def train_batch(data, label, params, ctx, lr):
    data_list = split_and_load(data, ctx)
    label_list = split_and_load(label, ctx)
    with autograd.record():
        losses = [loss(lenet(X, W), Y) for X, Y, W in zip(data_list, label_list, params)]
    for l in losses:
        l.backward()
    for i in range(len(params[0])):
        allreduce([params[c][i].grad for c in range(len(ctx))])
    for p in params:
        SGD(p, lr / data.shape[0])
    return losses


dev_params = [get_params(params, c) for c in ctx]
for step in range(3):
    losses = train_batch(X, Y, dev_params, ctx, 0.5)
    print(step, [r(l) for l in losses], [l.context for l in losses])
print(r(dev_params[0][0][0, 0]), r(dev_params[1][0][0, 0]), dev_params[1][0].context)
print(r(nd.argmax(lenet(X, dev_params[0]), axis=1)))

print('== multiple devices with gluon')
net = nn.Sequential(prefix='cnn_')
with net.name_scope():
    net.add(nn.Conv2D(channels=4, kernel_size=3, activation='relu'))
    net.add(nn.MaxPool2D(pool_size=2, strides=2))
    net.add(nn.Flatten())
    net.add(nn.Dense(8, activation='relu'))
    net.add(nn.Dense(3))
net.initialize(init=init.Normal(sigma=0.01), ctx=ctx)
x_list = gluon.utils.split_and_load(X, ctx)
print([x.context for x in x_list], [x.shape for x in x_list])
print(net(x_list[0]).shape, net(x_list[1]).context)
fill(net.collect_params(), 0.2)
weight = net.collect_params()['cnn_conv0_weight']
for c in ctx:
    print('=== channel 0 of the first conv on {} ==={}'.format(c, weight.data(ctx=c)[0]))
print(weight.list_ctx())


def forward_backward(net, data, label):
    with autograd.record():
        losses = [loss(net(X), Y) for X, Y in zip(data, label)]
    for l in losses:
        l.backward()


label = gluon.utils.split_and_load(Y, ctx)
forward_backward(net, x_list, label)
for c in ctx:
    print('=== grad of channel 0 of the first conv2d on {} ==={}'.format(c, r(weight.grad(ctx=c)[0])))
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.2})
for step in range(2):
    forward_backward(net, x_list, label)
    trainer.step(X.shape[0])
    print(step, r(weight.data(ctx[0])[0, 0, 0]), r(weight.data(ctx[1])[0, 0, 0]))
print(r(nd.argmax(net(X.as_in_context(ctx[0])), axis=1)))
print(len(gluon.utils.split_and_load(nd.arange(5), ctx, even_split=False)))
attempt(lambda: gluon.utils.split_and_load(nd.arange(5), ctx))
print([a.shape for a in gluon.utils.split_data(nd.arange(10), 3, even_split=False)])
net.collect_params().reset_ctx(mx.cpu(0))
print(weight.list_ctx(), r(weight.data()[0, 0, 0]))

print('== hybridize')


def get_net():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(16, activation='relu'), nn.Dense(8, activation='relu'), nn.Dense(2))
    net.initialize()
    return net


x = pat((1, 12))
net = get_net()
net(x)
fill(net.collect_params())
before = net(x)
net.hybridize()
print(r(before), r(net(x)), r(net(x)))


class HybridNet(nn.HybridBlock):
    def __init__(self, **kwargs):
        super(HybridNet, self).__init__(**kwargs)
        with self.name_scope():
            self.fc1 = nn.Dense(10)
            self.fc2 = nn.Dense(2)

    def hybrid_forward(self, F, x):
        print(F is mx.nd, F is mx.sym)  # the chapter prints F: <module 'mxnet.ndarray' from ...>
        print(x if isinstance(x, sym.Symbol) else r(x))
        x = F.relu(self.fc1(x))
        print(x if isinstance(x, sym.Symbol) else r(x))
        return self.fc2(x)


net = HybridNet()
net.initialize(init.Constant(0.1))
x = pat((1, 4))
y = net(x)
fill(net.collect_params())
print('=== 1st forward ===')
y = net(x)
print('=== hybridized ===')
net.hybridize()
print('=== 1st forward ===')
y = net(x)
print('=== 2nd forward ===')
y = net(x)
print(r(y))
x = sym.var('data')
print('=== input data holder ===')
print(x)
y = net(x)
print('=== the symbolic program of net===')
print(y)
print(y.list_arguments(), y.list_outputs())
print(y.infer_shape(data=(3, 4))[1])
print('=== the according json definition===')
graph = json.loads(y.tojson())  # (MXNet writes a deferred weight's '__shape__' as first traced: '(10, 0)')
print([(node['op'], node['name'], sorted(k for k in node.get('attrs', {}) if k != '__shape__'))
       for node in graph['nodes']])
print(graph['arg_nodes'], graph['heads'], sorted(graph['attrs']))
tmp = tempfile.mkdtemp()
y.save(os.path.join(tmp, 'model.json'))
y2 = sym.load(os.path.join(tmp, 'model.json'))
print(y2.list_arguments() == y.list_arguments(), y2.tojson() == y.tojson())
net.export(os.path.join(tmp, 'hnet'), epoch=3)
print(sorted(os.listdir(tmp)))
net2 = gluon.SymbolBlock.imports(os.path.join(tmp, 'hnet-symbol.json'), ['data'],
                                 os.path.join(tmp, 'hnet-0003.params'))
print(r(net2(pat((1, 4)))), r(net(pat((1, 4)))))

print('== local kvstore')
kv = mx.kv.create('local')
print(kv.type, kv.rank, kv.num_workers)
shape = (2, 3)
kv.init(3, nd.ones(shape) * 2)
a = nd.zeros(shape)
kv.pull(3, out=a)
print(a)
kv.push(3, nd.ones(shape) * 8)
kv.pull(3, out=a)
print(a)
kv.push(3, [nd.ones(shape, c) for c in ctx])
kv.pull(3, out=a)
print(a)
b = [nd.ones(shape, c) for c in ctx]
kv.pull(3, out=b)
print(b[1], b[1].context)


def update(key, input, stored):
    print('update on key: %d' % key)
    stored += input * 2


kv._set_updater(update)
kv.pull(3, out=a)
print(a)
kv.push(3, nd.ones(shape))
kv.pull(3, out=a)
print(a)
keys = [5, 7, 9]
kv.init(keys, [nd.ones(shape)] * len(keys))
kv.push(keys, [nd.ones(shape)] * len(keys))
b = [nd.zeros(shape)] * len(keys)
kv.pull(keys, out=b)
print(b[1])
