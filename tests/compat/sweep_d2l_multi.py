"""d2l 1.0.3's multi-device chapters on four CPU devices (the book's from-scratch data parallelism
with copyto/allreduce, split_batch, train_batch_ch13/train_ch13/evaluate_accuracy_gpus, resnet18
on several devices), hybridize with d2l.Benchmark, and the plotting helpers with Agg."""
import contextlib
import io
import os
import tempfile
import warnings

import matplotlib
matplotlib.use('Agg')
import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon, init, np, npx
from mxnet.gluon import nn
from d2l import mxnet as d2l
from _d2l_common import attempt, r4, pattern

warnings.simplefilter('ignore')
npx.set_np()
onp.random.seed(0)  # the DataLoader shuffles with NumPy's global RNG


def quiet(f, *args, **kwargs):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = f(*args, **kwargs)
    return out, buf.getvalue()


devices = [npx.cpu(i) for i in range(4)]

print('== data parallelism from scratch')
params = [pattern((6, 1, 3, 3), 0, 0.3), np.zeros(6), pattern((8, 6, 3, 3), 1, 0.1), np.zeros(8),
          pattern((8 * 2 * 2, 16), 2, 0.1), np.zeros(16), pattern((16, 10), 3, 0.1), np.zeros(10)]

def lenet(X, params):
    h1 = npx.relu(npx.convolution(data=X, weight=params[0], bias=params[1], kernel=(3, 3),
                                  num_filter=6))
    h1 = npx.pooling(data=h1, pool_type='avg', kernel=(2, 2), stride=(2, 2))
    h2 = npx.relu(npx.convolution(data=h1, weight=params[2], bias=params[3], kernel=(3, 3),
                                  num_filter=8))
    h2 = npx.pooling(data=h2, pool_type='avg', kernel=(2, 2), stride=(2, 2))
    h2 = h2.reshape(h2.shape[0], -1)
    h3 = npx.relu(np.dot(h2, params[4]) + params[5])
    return np.dot(h3, params[6]) + params[7]

loss = gluon.loss.SoftmaxCrossEntropyLoss()

def get_params(params, device):
    new_params = [p.copyto(device) for p in params]
    for p in new_params:
        p.attach_grad()
    return new_params

def allreduce(data):
    for i in range(1, len(data)):
        data[0][:] += data[i].copyto(data[0].ctx)
    for i in range(1, len(data)):
        data[0].copyto(data[i])

new_params = get_params(params, d2l.try_gpu(0))
print('b1 weight:', r4(new_params[1]), new_params[1].ctx)
print('b1 grad:', r4(new_params[1].grad), new_params[1].grad.ctx)
data = [np.ones((1, 2), ctx=d) * (i + 1) for i, d in enumerate(devices[:2])]
allreduce(data)
print('after allreduce:', [r4(d) for d in data], [d.ctx for d in data])
data = np.arange(20).reshape(4, 5)
split = gluon.utils.split_and_load(data, devices[:2])
print('load into', devices[:2], [r4(s) for s in split], [s.ctx for s in split])

def train_batch(X, y, device_params, devices, lr):
    X_shards, y_shards = d2l.split_batch(X, y, devices)
    with autograd.record():
        ls = [loss(lenet(X_shard, device_W), y_shard)
              for X_shard, y_shard, device_W in zip(X_shards, y_shards, device_params)]
    for l in ls:
        l.backward()
    with autograd.pause():
        for i in range(len(device_params[0])):
            allreduce([device_params[c][i].grad for c in range(len(devices))])
    for param in device_params:
        d2l.sgd(param, lr, X.shape[0])
    return sum(float(l.sum()) for l in ls)

Xi = np.array(onp.cos(onp.arange(20 * 196) * 0.013).reshape(20, 1, 14, 14).astype('float32'))
yi = np.array(onp.arange(20) % 10)
device_params = [get_params(params, d) for d in devices]
for step in range(3):
    print('step', step, round(train_batch(Xi, yi, device_params, devices, 0.5), 2))
print('replicas equal', all(onp.array_equal(device_params[0][k].asnumpy(), device_params[c][k].asnumpy())
                           for c in range(4) for k in range(8)))
print(r4(device_params[3][7]), device_params[3][7].ctx)
print(r4(lenet(Xi, [p.as_in_ctx(mx.cpu()) for p in device_params[2]]).sum(axis=1)))

print('== concise: Block on four devices, train_ch13, evaluate_accuracy_gpus')
def make_net():
    net = nn.Sequential()
    net.add(nn.Conv2D(4, kernel_size=3, padding=1, activation='relu'), nn.MaxPool2D(2),
            nn.Dense(10))
    net.initialize(init.Xavier(), ctx=devices)
    net(Xi[:2].as_in_ctx(devices[0]))
    for k, (name, p) in enumerate(sorted(net.collect_params().items())):
        p.set_data(pattern(p.shape, k, 0.2))
    return net

net = make_net()
print([p.list_ctx() for p in net.collect_params().values()][0])
train_iter = d2l.load_array((Xi, yi), 4, is_train=True)
test_iter = d2l.load_array((Xi, yi), 8, is_train=False)
print('acc before', d2l.evaluate_accuracy_gpus(net, test_iter))
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
l, acc = d2l.train_batch_ch13(net, Xi[:8], yi[:8], loss, trainer, devices)
print('train_batch_ch13', round(l, 4), acc)
_, text = quiet(d2l.train_ch13, net, train_iter, test_iter, loss, trainer, 2, devices)
lines = text.strip().splitlines()
print(lines[-2])
print(lines[-1].split(' on ')[1])
print('acc after', d2l.evaluate_accuracy_gpus(net, test_iter))
w = [net[2].weight.data(d).asnumpy() for d in devices]
print('replicas equal', all(onp.array_equal(w[0], x) for x in w[1:]))
attempt(lambda: d2l.train_batch_ch13(net, Xi[:6], yi[:6], loss, trainer, devices))

net = d2l.resnet18(10)
net.initialize(init=init.Normal(sigma=0.01), ctx=devices)
shards = gluon.utils.split_and_load(Xi[:8], devices)
outs = [net(s) for s in shards]
print([o.shape for o in outs], [o.ctx for o in outs])
print(net[0].weight.data(devices[3]).ctx, len(net[0].weight.list_data()))

print('== hybridize / Benchmark')
def get_net():
    net = nn.HybridSequential()
    net.add(nn.Dense(16, activation='relu'), nn.Dense(8, activation='relu'), nn.Dense(2))
    net.initialize()
    return net

x = np.array(onp.cos(onp.arange(2 * 512) * 0.1).reshape(2, 512).astype('float32'))
net = get_net()
net(x)
for k, (name, p) in enumerate(sorted(net.collect_params().items())):
    p.set_data(pattern(p.shape, k, 0.1))
before = net(x)
def bench(description):
    with d2l.Benchmark(description):
        for _ in range(3):
            net(x)
        npx.waitall()
_, text = quiet(bench, 'Without hybridization')
net.hybridize()
after = net(x)
_, text2 = quiet(bench, 'With hybridization')
print(text.split(':')[0], '|', text2.split(':')[0], text2.strip().endswith(' sec'))
print(r4(before), r4(after - before))
print(type(d2l.Benchmark().description), d2l.Benchmark().description)

class HybridNet(nn.HybridBlock):
    """The hybridize section's block, printing what hybrid_forward receives."""
    def __init__(self):
        super().__init__()
        self.hidden = nn.Dense(4)
        self.output = nn.Dense(2)

    def hybrid_forward(self, F, x):
        symbolic = isinstance(x, mx.sym.Symbol)
        print('value  x: ', x if symbolic else x.shape)
        h = self.hidden(x)
        x = F.npx.relu(h)
        print('value  h, x: ', h if symbolic else h.shape, x if symbolic else x.shape)
        if symbolic:
            print(F.np.exp(x) + 1, x * 2, F.np.concatenate([x, x], axis=1))
        return self.output(x)

net = HybridNet()
net.initialize()
net(np.ones((1, 3)))
net.hybridize()
net(np.ones((1, 3)))
net(np.ones((1, 3)))
tmp = tempfile.mkdtemp()
net.export(os.path.join(tmp, 'my_mlp'))
print(sorted(os.listdir(tmp)))
imported = gluon.SymbolBlock.imports(os.path.join(tmp, 'my_mlp-symbol.json'), ['data'],
                                     os.path.join(tmp, 'my_mlp-0000.params'))
print(imported)
x3 = pattern((1, 3), 4, 1.0)  # the traced shape: gluonjax traces a second shape once more (DESIGN.md)
print(type(imported(x3)).__name__, r4(imported(x3) - net(x3)))

print('== plotting helpers (Agg)')
d2l.set_figsize((4, 3))
print(list(d2l.plt.rcParams['figure.figsize']))
x = np.arange(0, 3, 0.5)
d2l.plot(x, [x ** 2, 2 * x - 3], 'x', 'f(x)', legend=['f(x)', 'Tangent line (x=1)'])
ax = d2l.plt.gca()
print(len(ax.get_lines()), r4(ax.get_lines()[1].get_ydata()), ax.get_xlabel(), ax.get_ylabel())
d2l.plot(x.asnumpy(), [x.asnumpy() ** 3], xlim=[0, 3], yscale='log')
print(d2l.plt.gca().get_yscale(), d2l.plt.gca().get_xlim())
d2l.plot(np.arange(4))
print(r4(d2l.plt.gca().get_lines()[0].get_ydata()))
axes = d2l.show_images(np.arange(2 * 3 * 4).reshape(2, 3, 4), 1, 2, titles=['a', 'b'])
print(len(axes), axes[1].get_title())
attention_weights = d2l.reshape(np.eye(4), (1, 1, 4, 4))
d2l.show_heatmaps(attention_weights, xlabel='Keys', ylabel='Queries')
print(len(d2l.plt.gcf().axes))
d2l.plt.close('all')
