"""MXNet 1.9's packages/autograd tutorial and the NDArray "gotchas using NumPy" tutorial: recording a
network and loss, parameter gradients, training/inference modes, grad_req='null', gradients of
non-parameters, Python control flow, custom head gradients; NumPy stand-ins (full_like, pad of a
1-d array), a delayed-loss training loop; fixed data and weights in place of random draws."""
import math
import numpy as np
import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon.nn import HybridSequential, Dense
from mxnet.gluon.loss import L2Loss


def fix(net):
    for name, p in sorted(net.collect_params().items()):
        n = int(np.prod(p.shape))
        p.set_data(nd.array(np.sin(np.arange(n) * 0.9 + 0.2).reshape(p.shape) * 0.5))


print('== record and backward')
net = HybridSequential()
net.add(Dense(units=3))
net.add(Dense(units=1))
net.initialize()
loss_fn = L2Loss()
x = mx.nd.array([[0.3, 0.5]])
y = mx.nd.array([[1.5]])
net(x)
fix(net)
with autograd.record():
    y_hat = net(x)
    loss = loss_fn(y_hat, y)
print(autograd.is_recording(), autograd.is_training())
print(loss.shape, np.round(loss.asnumpy(), 4))
loss.backward()
print(np.round(net[0].weight.grad().asnumpy(), 4))
print(np.round(net[1].bias.grad().asnumpy(), 4))
print(net[0].weight.grad().context, net[0].weight.grad_req)

print('== training vs inference')
dropout = mx.gluon.nn.Dropout(rate=0.5)
data = mx.nd.ones(shape=(3, 3))
output = dropout(data)
is_training = autograd.is_training()
print('is_training:', is_training, output)
with autograd.record():
    output = dropout(data)
    inside = autograd.is_training()
vals = set(np.unique(output.asnumpy()).tolist())
print('is_training:', inside, vals <= {0.0, 2.0}, output.shape)
with autograd.record(train_mode=False):
    output = dropout(data)
print(autograd.is_training(), output)
with autograd.train_mode():
    print(autograd.is_training(), autograd.is_recording())
    with autograd.predict_mode():
        print(autograd.is_training())
out = mx.nd.Dropout(data, p=0.5, mode='always')
print(set(np.unique(out.asnumpy()).tolist()) <= {0.0, 2.0})
print(autograd.set_training(True), autograd.set_training(False))
print(autograd.set_recording(True), autograd.set_recording(False))

print('== grad_req null')
net[0].weight.grad_req = 'null'
print(net[0].weight.grad_req)
with autograd.record():
    loss = loss_fn(net(x), y)
loss.backward()
try:
    net[0].weight.grad()
except Exception as err:
    print('grad of null', type(err).__name__)
print(np.round(net[0].bias.grad().asnumpy(), 4))
net.collect_params().setattr('grad_req', 'add')
print(sorted(set(p.grad_req for p in net.collect_params().values())))
net.collect_params().zero_grad()
for i in range(2):
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
print(np.round(net[1].bias.grad().asnumpy(), 4))

print('== non-parameter gradients')
x = mx.nd.array([1, 2, 3])
x.attach_grad()
with autograd.record():
    y = 2 * x ** 2
y.backward()
print(x.grad)
x = mx.nd.array([1, 2, 3])
try:
    with autograd.record():
        y = 2 * x ** 2
    y.backward()
except Exception as err:
    print('no attach_grad', type(err).__name__)
print(x.grad)


def f(x):
    y = x
    if x < 0.75:
        num_loops = math.floor(1 / (1 - x.asscalar()))
        for i in range(num_loops):
            y = y * x
    else:
        y = y * 0
    return y


def get_grad(f, x):
    x.attach_grad()
    with autograd.record():
        y = f(x)
    y.backward()
    return x.grad


xs = mx.nd.arange(0.0, 1.0, step=0.1)
grads = [round(float(get_grad(f, x).asscalar()), 4) for x in xs]
print(grads)
print(xs[3], type(xs[3]).__name__, xs[3].shape)

print('== custom head gradients')
x = mx.nd.array([2, ])
x.attach_grad()
with autograd.record():
    y = x ** 3
y_np = y.asnumpy()
z_np = y_np ** 2
dzdy_np = 2 * y_np
dzdy = mx.nd.array(dzdy_np)
y.backward(dzdy)
print(x.grad)
x = mx.nd.array([[1, 2], [3, 4]])
x.attach_grad()
with autograd.record():
    y = x * x
    z = y.sum()
g = autograd.grad(z, [x], create_graph=False)
print(type(g).__name__, g[0])
with autograd.record():
    y = x * x
autograd.backward([y], [mx.nd.array([[1, 0], [0, 1]])])
print(x.grad)

print('== gotchas: NumPy stand-ins')
np_y = np.full_like(a=np.arange(6, dtype=int), fill_value=10)
nd_y = nd.ones(shape=(6,)) * 10
print(np.array_equal(np_y, nd_y.asnumpy()), nd_y.dtype)
print(nd.full_like(nd.arange(6), 10) if hasattr(nd, 'full_like') else 'no full_like')


def pad_array(data, max_length):
    data_expanded = data.reshape(1, 1, 1, data.shape[0])
    data_padded = nd.pad(data_expanded, mode='constant',
                         pad_width=[0, 0, 0, 0, 0, 0, 0, max_length - data.shape[0]],
                         constant_value=0)
    return data_padded.reshape(max_length)


print(pad_array(nd.array([1, 2, 3]), max_length=10))
for bad in (lambda: nd.pad(nd.array([1, 2, 3]), mode='constant', pad_width=(0, 2)),
            lambda: nd.pad(nd.ones((1, 1, 2, 2)), mode='constant', pad_width=(1, 1, 0, 0, 0, 0, 0, 0))):
    try:
        print(bad().shape)
    except Exception as err:
        print('pad', type(err).__name__)
print(nd.pad(nd.arange(4).reshape((1, 1, 2, 2)), mode='edge', pad_width=(0, 0, 0, 0, 1, 1, 1, 1)))
print(nd.ravel_multi_index(nd.array([[1, 2], [0, 1]]), shape=(3, 4)))
print(nd.unravel_index(nd.array([4, 9]), shape=(3, 4)))
try:
    nd.split(nd.arange(6), num_outputs=3)
except Exception as err:
    print('split of 1-d on axis 1', type(err).__name__)
print(nd.split(nd.arange(6), num_outputs=3, axis=0))
print(nd.diag(nd.array([[1, 2], [3, 4]])))

print('== gotchas: delayed loss')


class LossBuffer(object):
    def __init__(self):
        self._loss = None

    def new_loss(self, loss):
        ret = self._loss
        self._loss = loss
        return ret

    @property
    def loss(self):
        return self._loss


net = gluon.nn.Dense(10)
ce = gluon.loss.SoftmaxCELoss()
net.initialize()
data = nd.array(np.cos(np.arange(64 * 20)).reshape(64, 20))
label = nd.array(np.arange(64) % 10, dtype='int32')
net(data[:1])
fix(net)
train_dataset = gluon.data.ArrayDataset(data, label)
train_data = gluon.data.DataLoader(train_dataset, batch_size=16, shuffle=False, num_workers=0)
trainer = gluon.Trainer(net.collect_params(), optimizer='sgd')
loss_buffer = LossBuffer()
for data, label in train_data:
    with autograd.record():
        out = net(data)
        prev_loss = loss_buffer.new_loss(ce(out, label))
    loss_buffer.loss.backward()
    trainer.step(data.shape[0])
    if prev_loss is not None:
        print("Loss: {:.4f}".format(np.mean(prev_loss.asnumpy())))
print(trainer.learning_rate, type(trainer._optimizer).__name__)
a = nd.ones((2, 2))
b = a * 3
b.wait_to_read()
nd.waitall()
print(b.asscalar() if b.size == 1 else b.sum().asscalar())
try:
    b.asscalar()
except Exception as err:
    print('asscalar of 4 values', type(err).__name__)
