import numpy as np
import mxnet as mx
from mxnet import autograd, nd, gluon, init
from mxnet.gluon import nn, loss as gloss, data as gdata

rs = np.random.RandomState(1)
num_inputs, num_examples = 2, 200
true_w, true_b = [2, -3.4], 4.2
features = nd.array(rs.normal(scale=1, size=(num_examples, num_inputs)))
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
labels += nd.array(rs.normal(scale=0.01, size=labels.shape))
print(features.dtype, labels.shape, labels.dtype)

batch_size = 10
dataset = gdata.ArrayDataset(features, labels)
data_iter = gdata.DataLoader(dataset, batch_size, shuffle=False)
for X, y in data_iter:
    print(X.shape, y.shape, X.dtype)
    break

net = nn.Sequential()
net.add(nn.Dense(1))
net.initialize(init.Constant(0.0))
loss = gloss.L2Loss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.03})
num_epochs = 3
for epoch in range(1, num_epochs + 1):
    for X, y in data_iter:
        with autograd.record():
            l = loss(net(X), y)
        l.backward()
        trainer.step(batch_size)
    l = loss(net(features), labels)
    print('epoch %d, loss: %f' % (epoch, round(l.mean().asnumpy().item(), 5)))
dense = net[0]
print(true_w, dense.weight.data().asnumpy().round(4).tolist())
print(true_b, dense.bias.data().asnumpy().round(4).tolist())
print(dense.weight.grad().asnumpy().round(4).tolist())

# from scratch (d2l 3.2)
def linreg(X, w, b):
    return nd.dot(X, w) + b

def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

def sgd(params, lr, batch_size):
    for param in params:
        param[:] = param - lr * param.grad / batch_size

w = nd.array(rs.normal(scale=0.01, size=(num_inputs, 1)))
b = nd.zeros(shape=(1,))
w.attach_grad()
b.attach_grad()
lr = 0.03
for epoch in range(3):
    for i in range(0, num_examples, batch_size):
        X = features[i:i + batch_size]
        y = labels[i:i + batch_size]
        with autograd.record():
            l = squared_loss(linreg(X, w, b), y)
        l.backward()
        sgd([w, b], lr, batch_size)
    train_l = squared_loss(linreg(features, w, b), labels)
    print('epoch %d, loss %f' % (epoch + 1, round(train_l.mean().asscalar(), 5)))
print(w.asnumpy().round(4).tolist(), b.asnumpy().round(4).tolist(), w.dtype, l.shape)

# Huber / L1 with Dense(in_units), sample weights
net = nn.Dense(1, in_units=2)
net.initialize(init.Constant(0.5))
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.05, 'momentum': 0.5})
for lf in [gloss.L1Loss(), gloss.HuberLoss(rho=0.5)]:
    for epoch in range(2):
        tot = 0.0
        for X, y in data_iter:
            with autograd.record():
                l = lf(net(X), y.reshape((-1, 1)), nd.ones((X.shape[0], 1)) * 0.5)
            l.backward()
            tr.step(batch_size)
            tot += l.sum().asscalar()
        print(type(lf).__name__, epoch, round(tot / num_examples, 4))
print(net.weight.data().asnumpy().round(4).tolist(), net.bias.data().asnumpy().round(4).tolist())
