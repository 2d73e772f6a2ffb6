import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn

rs = np.random.RandomState(0)
N = 64
X = rs.randn(N, 4).astype('float32')
y = ((X[:, 0] + 0.5 * X[:, 1] - X[:, 2]) > 0).astype('float32')
W1 = (rs.randn(8, 4) * 0.3).astype('float32')
W2 = (rs.randn(2, 8) * 0.3).astype('float32')

def build():
    net = nn.HybridSequential()
    net.add(nn.Dense(8, activation='relu'))
    net.add(nn.Dense(2))
    net.initialize(init.Constant(0.01))
    net(nd.zeros((1, 4)))
    net[0].weight.set_data(nd.array(W1))
    net[1].weight.set_data(nd.array(W2))
    return net

def train(net, tag, epochs=3):
    ds = gluon.data.ArrayDataset(nd.array(X), nd.array(y))
    loader = gluon.data.DataLoader(ds, batch_size=16, shuffle=False)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    tr = gluon.Trainer(net.collect_params(), 'sgd',
                       {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 1e-3})
    acc = mx.metric.Accuracy()
    for epoch in range(epochs):
        acc.reset()
        total = 0.0
        for data, label in loader:
            with autograd.record():
                out = net(data)
                loss = loss_fn(out, label)
            loss.backward()
            tr.step(data.shape[0])
            total += loss.sum().asscalar()
            acc.update(label, out)
        name, val = acc.get()
        print('%s epoch %d, loss %.4f, %s %.4f' % (tag, epoch, total / N, name, val))
    print(tag, 'w0', net[0].weight.data()[0].asnumpy().round(4).tolist())
    print(tag, 'b1', net[1].bias.data().asnumpy().round(4).tolist())

net = build()
train(net, 'imperative')
net = build()
net.hybridize()
train(net, 'hybrid')
out = net(nd.array(X[:4]))
print(out.shape, out.dtype, out.asnumpy().round(3).tolist())
pred = out.argmax(axis=1)
print(pred, pred.dtype)
# evaluation with a metric across a loader
m = mx.metric.create(['acc', 'ce'])
for data, label in gluon.data.DataLoader(gluon.data.ArrayDataset(X, y), batch_size=32):
    m.update([label], [nd.softmax(net(data))])
print([(n, round(v, 4)) for n, v in m.get_name_value()])
print(net[0].weight.grad().shape, net[1].bias.grad().asnumpy().round(3).tolist())
