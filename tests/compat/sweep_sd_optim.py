"""The Straight Dope, chapter 6 (optimization): gradient descent, SGD, momentum, Adagrad, RMSProp,
Adadelta and Adam written from scratch on NDArrays (in-place `param[:] -= ...` updates), then the
same with gluon.Trainer, with learning-rate decay; linear regression on fixed data."""
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon
from _sd_common import pat, r

ctx = mx.cpu()
num_inputs, num_examples = 2, 32
true_w = [2, -3.4]
true_b = 4.2
X = pat((num_examples, num_inputs), 0, 1.0)
y = true_w[0] * X[:, 0] + true_w[1] * X[:, 1] + true_b
y += .01 * pat(y.shape, 5)
dataset = gluon.data.ArrayDataset(X, y)


def net(X, w, b):
    return nd.dot(X, w) + b


def square_loss(yhat, y):
    return (yhat - y.reshape(yhat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    for param in params:
        param[:] = param - lr * param.grad / batch_size


def sgd_momentum(params, vs, lr, mom, batch_size):
    for param, v in zip(params, vs):
        v[:] = mom * v + lr * param.grad / batch_size
        param[:] -= v


def adagrad(params, sqrs, lr, batch_size):
    eps_stable = 1e-7
    for param, sqr in zip(params, sqrs):
        g = param.grad / batch_size
        sqr[:] += nd.square(g)
        div = lr * g / nd.sqrt(sqr + eps_stable)
        param[:] -= div


def rmsprop(params, sqrs, lr, gamma, batch_size):
    eps_stable = 1e-8
    for param, sqr in zip(params, sqrs):
        g = param.grad / batch_size
        sqr[:] = gamma * sqr + (1. - gamma) * nd.square(g)
        div = lr * g / nd.sqrt(sqr + eps_stable)
        param[:] -= div


def adadelta(params, sqrs, deltas, rho, batch_size):
    eps_stable = 1e-5
    for param, sqr, delta in zip(params, sqrs, deltas):
        g = param.grad / batch_size
        sqr[:] = rho * sqr + (1. - rho) * nd.square(g)
        cur_delta = nd.sqrt(delta + eps_stable) / nd.sqrt(sqr + eps_stable) * g
        delta[:] = rho * delta + (1. - rho) * cur_delta * cur_delta
        param[:] -= cur_delta


def adam(params, vs, sqrs, lr, batch_size, t):
    beta1 = 0.9
    beta2 = 0.999
    eps_stable = 1e-8
    for param, v, sqr in zip(params, vs, sqrs):
        g = param.grad / batch_size
        v[:] = beta1 * v + (1. - beta1) * g
        sqr[:] = beta2 * sqr + (1. - beta2) * nd.square(g)
        v_bias_corr = v / (1. - beta1 ** t)
        sqr_bias_corr = sqr / (1. - beta2 ** t)
        div = lr * v_bias_corr / (nd.sqrt(sqr_bias_corr) + eps_stable)
        param[:] = param - div


def init_params():
    w = pat((num_inputs, 1), 3, 1.0)
    b = nd.zeros(shape=(1,))
    params = [w, b]
    for param in params:
        param.attach_grad()
    return params


def train_scratch(name, update, batch_size, lr, epochs, period, state=0, decay_epoch=None):
    [w, b] = init_params()
    states = [[nd.zeros(p.shape) for p in (w, b)] for _ in range(state)]
    data_iter = gluon.data.DataLoader(dataset, batch_size, shuffle=False)
    total_loss = [np.mean(square_loss(net(X, w, b), y).asnumpy())]
    t = 0
    for epoch in range(1, epochs + 1):
        if decay_epoch and epoch > decay_epoch:
            lr *= 0.1
        for batch_i, (data, label) in enumerate(data_iter):
            with autograd.record():
                output = net(data, w, b)
                loss = square_loss(output, label)
            loss.backward()
            t += 1
            update([w, b], states, lr, batch_size, t)
            if batch_i * batch_size % period == 0:
                total_loss.append(np.mean(square_loss(net(X, w, b), y).asnumpy()))
    print(name, 'w:', r(w.reshape((1, -1))), 'b:', r(b), 'losses', [round(float(v), 4) for v in total_loss[-3:]])


print('== from scratch')
train_scratch('gd', lambda p, s, lr, bs, t: sgd(p, lr, bs), num_examples, 0.2, 3, num_examples)
train_scratch('sgd', lambda p, s, lr, bs, t: sgd(p, lr, bs), 1, 0.2, 2, 8, decay_epoch=1)
train_scratch('minibatch sgd', lambda p, s, lr, bs, t: sgd(p, lr, bs), 8, 0.2, 3, 8, decay_epoch=2)
train_scratch('momentum', lambda p, s, lr, bs, t: sgd_momentum(p, s[0], lr, 0.9, bs), 8, 0.05, 3, 8, 1, 2)
train_scratch('adagrad', lambda p, s, lr, bs, t: adagrad(p, s[0], lr, bs), 8, 0.5, 3, 8, 1)
train_scratch('rmsprop', lambda p, s, lr, bs, t: rmsprop(p, s[0], lr, 0.9, bs), 8, 0.03, 3, 8, 1)
train_scratch('adadelta', lambda p, s, lr, bs, t: adadelta(p, s[0], s[1], 0.9999, bs), 8, None, 3, 8, 2)
train_scratch('adam', lambda p, s, lr, bs, t: adam(p, s[0], s[1], lr, bs, t), 8, 0.1, 3, 8, 2)

print('== with gluon')
net = gluon.nn.Sequential()
net.add(gluon.nn.Dense(1))
square_loss = gluon.loss.L2Loss()


def train_gluon(optimizer, hyper, batch_size, epochs, period, decay_epoch=None):
    net.collect_params().initialize(mx.init.Normal(sigma=1), force_reinit=True)
    net(X[:1])
    net[0].weight.set_data(pat((1, num_inputs), 3, 1.0))
    net[0].bias.set_data(nd.zeros(1))
    trainer = gluon.Trainer(net.collect_params(), optimizer, hyper)
    data_iter = gluon.data.DataLoader(dataset, batch_size, shuffle=False)
    total_loss = [np.mean(square_loss(net(X), y).asnumpy())]
    for epoch in range(1, epochs + 1):
        if decay_epoch and epoch > decay_epoch:
            trainer.set_learning_rate(trainer.learning_rate * 0.1)
        for batch_i, (data, label) in enumerate(data_iter):
            with autograd.record():
                output = net(data)
                loss = square_loss(output, label)
            loss.backward()
            trainer.step(batch_size)
            if batch_i * batch_size % period == 0:
                total_loss.append(np.mean(square_loss(net(X), y).asnumpy()))
    print(optimizer, sorted(hyper.items()), 'lr %.5f' % trainer.learning_rate, 'w:', r(net[0].weight.data()),
          'b:', r(net[0].bias.data()), 'losses', [round(float(v), 4) for v in total_loss[-3:]])


train_gluon('sgd', {'learning_rate': 0.2}, 8, 3, 8, decay_epoch=2)
train_gluon('sgd', {'learning_rate': 0.05, 'momentum': 0.9}, 8, 3, 8, decay_epoch=2)
train_gluon('adagrad', {'learning_rate': 0.5}, 8, 3, 8)
train_gluon('rmsprop', {'learning_rate': 0.03, 'gamma1': 0.9}, 8, 3, 8)
train_gluon('adadelta', {'rho': 0.9999}, 8, 3, 8)
train_gluon('adam', {'learning_rate': 0.1}, 8, 3, 8)
train_gluon('nag', {'learning_rate': 0.05, 'momentum': 0.9}, 8, 2, 8)
train_gluon('ftrl', {'learning_rate': 0.5}, 8, 2, 8)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'wd': 0.01})
print(type(trainer._optimizer).__name__, trainer.learning_rate, trainer._optimizer.wd)
opt = mx.optimizer.Adam(learning_rate=0.01)
trainer = gluon.Trainer(net.collect_params(), opt)
print(trainer.learning_rate, opt.beta1, opt.beta2, opt.epsilon)
