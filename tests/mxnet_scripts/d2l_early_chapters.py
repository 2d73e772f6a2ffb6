"""The workflows of the d2l.ai book's early chapters (MXNet edition), written as a user would,
against ``import mxnet``: run it with ``python -m gluonjax.run d2l_early_chapters.py OUT.json``.

Our own code for the same workflows (the book's code is not copied): linear regression from
scratch and concise, softmax regression from scratch and concise, an MLP, and LeNet's shapes,
on a FashionMNIST subset (or MNIST when FashionMNIST is not installed). Results go to OUT.json.
"""
import json
import os
import sys
import time

import mxnet as mx
from mxnet import autograd, gluon, init, np, npx
from mxnet.gluon import nn

npx.set_np()
results = {'mxnet_is': mx.__name__, 'argv': sys.argv[1:], 'main': __name__}
start = time.time()


# ---- linear regression from scratch (np + autograd) ------------------------------------
def synthetic_data(w, b, n):
    X = np.random.normal(0, 1, (n, len(w)))
    y = np.dot(X, w) + b
    y += np.random.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


def data_iter(batch_size, features, labels):
    n = len(features)
    order = np.random.permutation(n).asnumpy().tolist()
    for i in range(0, n, batch_size):
        idx = np.array(order[i:min(i + batch_size, n)], dtype='int64')
        yield features[idx], labels[idx]


def sgd(params, lr, batch_size):
    for param in params:
        param[:] = param - lr * param.grad / batch_size


mx.random.seed(0)  # seeds the samplers' numpy generator too
true_w, true_b = np.array([2, -3.4]), 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
w = np.random.normal(0, 0.01, (2, 1))
b = np.zeros(1)
w.attach_grad()
b.attach_grad()
for epoch in range(3):
    for X, y in data_iter(20, features, labels):
        with autograd.record():
            l = ((np.dot(X, w) + b - y) ** 2 / 2)
        l.backward()
        sgd([w, b], 0.03, 20)
results['linreg_scratch'] = {'w': w.reshape(-1).tolist(), 'b': float(b[0]),
                             'loss': float((((np.dot(features, w) + b - labels) ** 2) / 2).mean())}

# ---- linear regression, concise ----------------------------------------------------------
loader = gluon.data.DataLoader(gluon.data.ArrayDataset(features, labels), batch_size=20, shuffle=True)
net = nn.Sequential()
net.add(nn.Dense(1))
net.initialize(init.Normal(sigma=0.01))
loss = gluon.loss.L2Loss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.03})
for epoch in range(3):
    for X, y in loader:
        with autograd.record():
            l = loss(net(X), y)
        l.backward()
        trainer.step(20)
results['linreg_concise'] = {'w': net[0].weight.data().reshape(-1).tolist(),
                             'b': float(net[0].bias.data()[0]),
                             'types': [type(X).__name__, type(l).__name__, type(net[0].weight.data()).__name__]}

# ---- image classification data -----------------------------------------------------------
# a subset by default (the test suite's time budget); D2L_FULL=1 trains on the whole dataset, as the book
N_TRAIN, N_TEST, BATCH = (60000, 10000, 256) if os.environ.get('D2L_FULL') == '1' else (5120, 1024, 256)
try:
    train_full = gluon.data.vision.FashionMNIST(train=True)
    test_full = gluon.data.vision.FashionMNIST(train=False)
    results['dataset'] = 'FashionMNIST'
except Exception:  # not installed: MNIST ships with gluonjax
    train_full = gluon.data.vision.MNIST(train=True)
    test_full = gluon.data.vision.MNIST(train=False)
    results['dataset'] = 'MNIST'
to_tensor = gluon.data.vision.transforms.ToTensor()  # (N, 28, 28, 1) uint8 -> (N, 1, 28, 28) float32 in [0, 1]


def subset(dataset, n):
    images, labels = dataset[:n]  # a slice of a dataset: its first n images and labels
    return gluon.data.ArrayDataset(to_tensor(np.array(images)), np.array(labels))


train_iter = gluon.data.DataLoader(subset(train_full, N_TRAIN), BATCH, shuffle=True)
test_iter = gluon.data.DataLoader(subset(test_full, N_TEST), BATCH, shuffle=False)
results['timing'] = {'linreg': time.time() - start}


def accuracy(y_hat, y):
    """Correct predictions in a batch, as the book counts them."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.astype(y.dtype) == y
    return float(cmp.astype(y.dtype).sum())


def evaluate_accuracy(net, data_iter):
    right, total = 0.0, 0
    for X, y in data_iter:
        right += accuracy(net(X), y)
        total += y.size
    return right / total


# ---- softmax regression from scratch -------------------------------------------------------
num_inputs, num_outputs = 784, 10
W = np.random.normal(0, 0.01, (num_inputs, num_outputs))
b = np.zeros(num_outputs)
W.attach_grad()
b.attach_grad()


def softmax(X):
    X_exp = np.exp(X)
    return X_exp / X_exp.sum(1, keepdims=True)


def scratch_net(X):
    return softmax(np.dot(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return -np.log(y_hat[range(len(y_hat)), y])


for epoch in range(10):
    for X, y in train_iter:
        with autograd.record():
            l = cross_entropy(scratch_net(X), y)
        l.backward()
        sgd([W, b], 0.1, X.shape[0])
results['softmax_scratch'] = {'test_acc': evaluate_accuracy(scratch_net, test_iter)}
results['timing']['softmax_scratch'] = time.time() - start


# ---- softmax regression and MLP, concise -------------------------------------------------
def train_concise(net, lr, epochs):
    net.initialize(init.Normal(sigma=0.01))
    return train_concise_initialized(net, lr, epochs)


def train_concise_initialized(net, lr, epochs):
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': lr})
    for epoch in range(epochs):
        metric_loss, n = 0.0, 0
        for X, y in train_iter:
            with autograd.record():
                l = loss(net(X), y)
            l.backward()
            trainer.step(X.shape[0])
            metric_loss += float(l.sum())
            n += y.size
    return {'train_loss': metric_loss / n, 'test_acc': evaluate_accuracy(net, test_iter)}


net = nn.Sequential()
net.add(nn.Dense(10))
results['softmax_concise'] = train_concise(net, 0.1, 10)
results['timing']['softmax_concise'] = time.time() - start

net = nn.HybridSequential()
net.add(nn.Dense(256, activation='relu'), nn.Dense(10))
net.hybridize()
results['mlp_concise'] = train_concise(net, 0.5, 10)
results['timing']['mlp_concise'] = time.time() - start

# ---- LeNet: the layer-by-layer shapes the book prints -----------------------------------------
net = nn.Sequential()
net.add(nn.Conv2D(channels=6, kernel_size=5, padding=2, activation='sigmoid'),
        nn.AvgPool2D(pool_size=2, strides=2),
        nn.Conv2D(channels=16, kernel_size=5, activation='sigmoid'),
        nn.AvgPool2D(pool_size=2, strides=2),
        nn.Dense(120, activation='sigmoid'), nn.Dense(84, activation='sigmoid'), nn.Dense(10))
X = np.random.uniform(size=(1, 1, 28, 28))
net.initialize()
shapes = []
for layer in net:
    X = layer(X)
    shapes.append(list(X.shape))
results['lenet_shapes'] = shapes
results['lenet_out_type'] = type(X).__name__

# ---- LeNet trained as the book's train_ch6 does (Xavier, lr 0.9, 10 epochs): full data only, since
# the sigmoid network needs a few thousand steps before it starts to learn
if os.environ.get('D2L_FULL') == '1':
    net.initialize(init.Xavier(), force_reinit=True)
    net.hybridize()
    results['lenet'] = train_concise_initialized(net, 0.9, 10)
results['seconds'] = time.time() - start

with open(sys.argv[1], 'w') as f:
    json.dump(results, f)
print(json.dumps(results))
