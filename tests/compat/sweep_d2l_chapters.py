"""More of the book's MXNet cells on fixed data: softmax regression from scratch (list indexing),
weight decay (collect_params regex, wd_mult), dropout and autograd.is_training, numerical
stability, batch normalisation from scratch beside nn.BatchNorm, Nadaraya-Watson regression,
and the Transformer decoder in training and prediction modes."""
import math
import warnings

import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon, init, np, npx
from mxnet.gluon import nn
from d2l import mxnet as d2l
from _d2l_common import attempt, pattern

warnings.simplefilter('ignore')
npx.set_np()
onp.random.seed(0)


def r4(x):
    if hasattr(x, 'asnumpy'):
        x = x.asnumpy()
    return (onp.round(onp.asarray(x, dtype=onp.float64), 4) + 0.0).tolist()  # -0.0 prints as 0.0


def fill(net, scale=0.5):
    for k, (name, p) in enumerate(sorted(net.collect_params().items())):
        value = pattern(p.shape, k, scale)
        p.set_data(np.abs(value) + 0.5 if name.endswith(('gamma', 'running_var')) else value)


print('== softmax regression from scratch')
X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdims=True), X.sum(1, keepdims=True))

def softmax(X):
    X_exp = np.exp(X)
    partition = X_exp.sum(1, keepdims=True)
    return X_exp / partition

X = pattern((2, 5), 0, 1.0)
X_prob = softmax(X)
print(r4(X_prob), r4(X_prob.sum(1)))
y = np.array([0, 2])
y_hat = np.array([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])
print(y_hat[list(range(len(y_hat))), y])

def cross_entropy(y_hat, y):
    return -np.log(y_hat[list(range(len(y_hat))), y])

print(r4(cross_entropy(y_hat, y)), r4(cross_entropy(y_hat, y).mean()))
print(y_hat.argmax(axis=1), (y_hat.argmax(axis=1).astype(y.dtype) == y).astype('float32').mean())
attempt(lambda: y_hat[[0, 1, 2], y])  # shapes (3,) and (2,): checked before the bounds
attempt(lambda: y_hat[[0, 2], y].asnumpy())  # MXNet reports it when the value is read
attempt(lambda: y_hat[np.array([[0], [1]]), np.array([0, 2, 1])].shape)
W = np.array(onp.linspace(-0.1, 0.1, 12).reshape(4, 3).astype('float32'))
b = np.zeros(3)
W.attach_grad()
b.attach_grad()
Xb = pattern((2, 4), 1, 1.0)
with autograd.record():
    l = cross_entropy(softmax(np.dot(Xb.reshape((-1, W.shape[0])), W) + b), y).mean()
l.backward()
print(r4(l), r4(W.grad), r4(b.grad))

print('== weight decay')
class WeightDecay(d2l.LinearRegression):
    def __init__(self, wd, lr):
        super().__init__(lr)
        self.save_hyperparameters()
        self.wd = wd

    def configure_optimizers(self):
        self.collect_params('.*bias').setattr('wd_mult', 0)
        return gluon.Trainer(self.collect_params(), 'sgd', {'learning_rate': self.lr, 'wd': self.wd})

m = WeightDecay(wd=3, lr=0.01)
Xw = pattern((20, 6), 2, 1.0)
yw = np.dot(Xw, np.ones((6, 1)) * 0.01) + 0.05
m(Xw)
fill(m, 0.2)
trainer = m.configure_optimizers()
print(sorted(k for k, p in m.collect_params().items() if p.wd_mult == 0), m.net.weight.wd_mult)
print(list(m.collect_params('.*bias').keys()), list(m.collect_params('.*(weight|bias)').keys()))
for _ in range(3):
    with autograd.record():
        l = m.loss(m(Xw), yw)
    l.backward()
    trainer.step(1)
print(r4(m.net.weight.data()), r4(m.net.bias.data()))
print(r4(m.loss(m(Xw), yw)), r4((m.net.weight.data() ** 2).sum() / 2))

print('== dropout / is_training')
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return np.zeros_like(X)
    mask = np.random.uniform(0, 1, X.shape) > dropout
    return mask.astype(np.float32) * X / (1.0 - dropout)

X = np.arange(16).reshape(2, 8)
print(dropout_layer(X, 0))
print(dropout_layer(X, 1))
d = dropout_layer(X, 0.5)
print(d.shape, d.dtype, bool(((d == 0) | (d == 2 * X)).all()))
attempt(lambda: dropout_layer(X, 1.5))
print(autograd.is_training(), autograd.is_recording())
with autograd.record():
    print(autograd.is_training(), autograd.is_recording())
    with autograd.predict_mode():
        print(autograd.is_training())
with autograd.record(train_mode=False):
    print(autograd.is_training(), autograd.is_recording())
with autograd.train_mode():
    print(autograd.is_training(), autograd.is_recording())
drop = nn.Dropout(0.5)
drop.initialize()
print(drop(X.astype('float32')))
with autograd.record(train_mode=False):
    print(drop(X.astype('float32')).sum())
with autograd.record():
    out = nn.Dropout(1.0)(X.astype('float32'))
print(out)

print('== numerical stability')
x = np.arange(-8.0, 8.0, 0.1)
x.attach_grad()
with autograd.record():
    y = npx.sigmoid(x)
y.backward()
print(x.shape, r4(y.sum()), r4(x.grad.sum()), r4(x.grad.max()), r4(x.grad[:2]))
M = np.array(onp.cos(onp.arange(16)).reshape(4, 4).astype('float32'))
for i in range(10):
    M = np.dot(M, np.array(onp.sin(onp.arange(16) + i).reshape(4, 4).astype('float32')))
print(r4(M.sum() / 1e3))

print('== batch normalisation from scratch')
def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not autograd.is_training():
        X_hat = (X - moving_mean) / np.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(axis=0)
            var = ((X - mean) ** 2).mean(axis=0)
        else:
            mean = X.mean(axis=(0, 2, 3), keepdims=True)
            var = ((X - mean) ** 2).mean(axis=(0, 2, 3), keepdims=True)
        X_hat = (X - mean) / np.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean, moving_var

class BatchNorm(nn.Block):
    def __init__(self, num_features, num_dims, **kwargs):
        super().__init__(**kwargs)
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = self.params.get('gamma', shape=shape, init=init.One())
        self.beta = self.params.get('beta', shape=shape, init=init.Zero())
        self.moving_mean = np.zeros(shape)
        self.moving_var = np.ones(shape)

    def forward(self, X):
        if self.moving_mean.ctx != X.ctx:
            self.moving_mean = self.moving_mean.copyto(X.ctx)
            self.moving_var = self.moving_var.copyto(X.ctx)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma.data(), self.beta.data(), self.moving_mean,
            self.moving_var, eps=1e-12, momentum=0.1)
        return Y

Xn = pattern((4, 3, 5, 5), 0, 2.0) + 1
bn = BatchNorm(3, num_dims=4)
bn.initialize()
ref = nn.BatchNorm(epsilon=1e-12, momentum=0.9)
ref.initialize()
with autograd.record():
    a, c = bn(Xn), ref(Xn)
print(r4(a.sum(axis=(0, 2, 3))), r4(np.abs(a - c).max() < 1e-4))
print(r4(bn.moving_mean.reshape(-1)), r4(ref.running_mean.data()))
print(r4(bn.moving_var.reshape(-1)), r4(ref.running_var.data()))
print(r4(bn(Xn).sum()), r4(np.abs(bn(Xn) - ref(Xn)).max() < 1e-3))
print(sorted(bn.collect_params().keys()), bn.gamma.shape)
attempt(lambda: bn(pattern((2, 3, 4), 0)))
bn1 = nn.BatchNorm()
bn1.initialize()
with autograd.record():
    out = bn1(pattern((6, 4), 3, 1.0))
print(r4(out.mean(axis=0)), r4(bn1.running_mean.data()))

print('== Nadaraya-Watson')
n_train = 20
x_train = np.sort(np.array(onp.linspace(0, 5, n_train).astype('float32')))
def f(x):
    return 2 * np.sin(x) + x ** 0.8
y_train = f(x_train) + np.array(onp.cos(onp.arange(n_train) * 3.0).astype('float32') * 0.5)
x_test = np.arange(0, 5, 0.5)
X_repeat = x_test.repeat(n_train).reshape((-1, n_train))
attention_weights = npx.softmax(-(X_repeat - x_train) ** 2 / 2)
y_hat = np.dot(attention_weights, y_train)
print(r4(y_hat), attention_weights.shape)
X_tile = np.tile(x_train, (n_train, 1))
Y_tile = np.tile(y_train, (n_train, 1))
keys = X_tile[(1 - np.eye(n_train)).astype('bool')].reshape((n_train, -1))
values = Y_tile[(1 - np.eye(n_train)).astype('bool')].reshape((n_train, -1))
print(keys.shape, values.shape, r4(keys[0, :3]))

class NWKernelRegression(nn.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = self.params.get('w', shape=(1,))

    def forward(self, queries, keys, values):
        queries = queries.repeat(keys.shape[1]).reshape((-1, keys.shape[1]))
        self.attention_weights = npx.softmax(-((queries - keys) * self.w.data()) ** 2 / 2)
        return npx.batch_dot(np.expand_dims(self.attention_weights, 1),
                             np.expand_dims(values, -1)).reshape(-1)

net = NWKernelRegression()
net.initialize(init.Constant(1.0))
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5})
loss = gluon.loss.L2Loss()
for epoch in range(3):
    with autograd.record():
        l = loss(net(x_train, keys, values), y_train)
    l.backward()
    trainer.step(1)
    print(f'epoch {epoch + 1}, loss {float(l.sum()):.4f}')
print(r4(net.w.data()))

print('== Transformer decoder (dropout 0)')
class TransformerDecoderBlock(nn.Block):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, i):
        super().__init__()
        self.i = i
        self.attention1 = d2l.MultiHeadAttention(num_hiddens, num_heads, dropout)
        self.addnorm1 = d2l.AddNorm(dropout)
        self.attention2 = d2l.MultiHeadAttention(num_hiddens, num_heads, dropout)
        self.addnorm2 = d2l.AddNorm(dropout)
        self.ffn = d2l.PositionWiseFFN(ffn_num_hiddens, num_hiddens)
        self.addnorm3 = d2l.AddNorm(dropout)

    def forward(self, X, state):
        enc_outputs, enc_valid_lens = state[0], state[1]
        if state[2][self.i] is None:
            key_values = X
        else:
            key_values = np.concatenate((state[2][self.i], X), axis=1)
        state[2][self.i] = key_values
        if autograd.is_training():
            batch_size, num_steps, _ = X.shape
            dec_valid_lens = np.tile(np.arange(1, num_steps + 1, ctx=X.ctx), (batch_size, 1))
        else:
            dec_valid_lens = None
        X2 = self.attention1(X, key_values, key_values, dec_valid_lens)
        Y = self.addnorm1(X, X2)
        Y2 = self.attention2(Y, enc_outputs, enc_outputs, enc_valid_lens)
        Z = self.addnorm2(Y, Y2)
        return self.addnorm3(Z, self.ffn(Z)), state

encoder = d2l.TransformerEncoder(20, 8, 16, 2, 1, 0.0)
blk = TransformerDecoderBlock(8, 16, 2, 0.0, 0)
blk.initialize()
X = np.array(onp.cos(onp.arange(2 * 4 * 8) * 0.2).reshape(2, 4, 8).astype('float32'))
valid_lens = np.array([3, 2])
state = [encoder(np.array([[1, 2, 3, 4], [5, 6, 0, 0]]), valid_lens), valid_lens, [None]]
print(blk(X, state)[0].shape)
fill(blk, 0.3)
fill(encoder, 0.3)
state = [encoder(np.array([[1, 2, 3, 4], [5, 6, 0, 0]]), valid_lens), valid_lens, [None]]
out_pred, state = blk(X, state)
print(r4(out_pred.sum(axis=-1)), state[2][0].shape)
out_pred2, state = blk(X[:, :1], state)
print(r4(out_pred2.sum(axis=-1)), state[2][0].shape)
state = [encoder(np.array([[1, 2, 3, 4], [5, 6, 0, 0]]), valid_lens), valid_lens, [None]]
with autograd.record():
    out_train, _ = blk(X, state)
print(r4(out_train.sum(axis=-1)))
