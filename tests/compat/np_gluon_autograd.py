import numpy as onp
import mxnet as mx
from mxnet import np, npx, autograd, gluon, init
from mxnet.gluon import nn
npx.set_np()


def show(x):
    if isinstance(x, np.ndarray):
        print(type(x).__name__, x.dtype, x.shape, (onp.round(x.asnumpy().astype('float64'), 4) + 0.0).tolist())
    else:
        print(type(x).__name__, x)


# autograd
x = np.arange(4.0)
print(repr(x))
x.attach_grad()
with autograd.record():
    y = 2 * np.dot(x, x)
print(repr(y))
y.backward()
show(x.grad)
print(x.grad == 4 * x)
with autograd.record():
    y = x.sum()
y.backward()
show(x.grad)
with autograd.record():
    y = x * x
y.backward()
show(x.grad)
with autograd.record():
    y = x * x
    u = y.detach()
    z = u * x
z.backward()
show(x.grad)
a = np.array([[1., 2.], [3., 4.]])
a.attach_grad()
with autograd.record():
    b = (a ** 2).mean()
b.backward()
show(a.grad)
with autograd.record():
    c = npx.softmax(a).max(axis=1).sum()
c.backward()
show(a.grad)
with autograd.record():
    m = a[a > 2].sum()
m.backward()
show(a.grad)
# gluon under set_np
net = nn.Sequential()
net.add(nn.Dense(4, activation='relu'), nn.Dense(2))
net.initialize(init.Constant(0.1))
X = np.arange(6).reshape(2, 3)
out = net(X)
show(out)
print(type(net[0].weight.data()).__name__, net[0].weight.data().shape)
print(type(net.collect_params()['dense0_weight'].data()).__name__ if 'dense0_weight' in net.collect_params() else sorted(net.collect_params().keys()))
loss = gluon.loss.SoftmaxCrossEntropyLoss()
yl = np.array([0, 1])
l = loss(out, yl)
show(l)
show(l.mean())
l2 = gluon.loss.L2Loss()(out, np.ones((2, 2)))
show(l2)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
with autograd.record():
    l = loss(net(X), yl)
l.backward()
trainer.step(2)
show(net[1].bias.data() + 0)
show(net[0].weight.grad())
net.hybridize()
show(net(X))
ds = gluon.data.ArrayDataset(np.arange(8).reshape(4, 2), np.array([0, 1, 0, 1]))
for xb, yb in gluon.data.DataLoader(ds, batch_size=2):
    show(xb)
    show(yb)
print(type(ds[0][0]).__name__, ds[0][0].shape)
acc = mx.metric.Accuracy()
acc.update(np.array([0, 1]).as_nd_ndarray(), np.array([[0.9, 0.1], [0.2, 0.8]]).as_nd_ndarray())
print(acc.get())
print((out.argmax(axis=1) == yl.astype('int64')).sum().item())
print(float((out.argmax(axis=1).astype('float32') == yl).mean()))
