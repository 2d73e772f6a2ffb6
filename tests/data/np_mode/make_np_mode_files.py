"""Make the NumPy-mode test files: run with MXNet 1.9.1 (never needed by the tests).

    /tmp/mxref/bin/python tests/data/np_mode/make_np_mode_files.py

After ``npx.set_np()`` MXNet builds graphs from its NumPy operators (``_npi_*``, ``_npx_*``,
``_np_*``). Each network here is hybridized, run once on a fixed input and exported: it writes
``<name>-symbol.json``, ``<name>-0000.params``, ``<name>-input.npy`` and ``<name>-output<i>.npy``
(MXNet's outputs on that input) next to this script. tests/test_np_mode_import.py loads them.
"""
import os

import numpy as onp
import mxnet as mx
from mxnet import gluon, npx
from mxnet.gluon import nn

HERE = os.path.dirname(os.path.abspath(__file__))


class MLP(nn.HybridBlock):
    """Dense layers, activations and a log-softmax head."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fc1 = nn.Dense(8, activation='relu')
        self.fc2 = nn.Dense(6, activation='tanh')
        self.out = nn.Dense(4)
        self.act = nn.LeakyReLU(0.1)

    def hybrid_forward(self, F, x):
        h = self.act(self.fc2(self.fc1(x)))
        return F.npx.log_softmax(self.out(h), axis=-1), F.npx.softmax(h, axis=1)


class CNN(nn.HybridBlock):
    """Convolution, batch norm, pooling, dropout and flattening."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.conv1 = nn.Conv2D(4, 3, padding=1)
        self.bn = nn.BatchNorm()
        self.pool = nn.MaxPool2D(2)
        self.conv2 = nn.Conv2D(6, 3, activation='sigmoid')
        self.avg = nn.AvgPool2D(2, strides=1)
        self.gap = nn.GlobalAvgPool2D()
        self.drop = nn.Dropout(0.5)
        self.flat = nn.Flatten()
        self.fc = nn.Dense(3)

    def hybrid_forward(self, F, x):
        h = self.pool(F.npx.relu(self.bn(self.conv1(x))))
        h = self.avg(self.conv2(h))
        return self.fc(self.drop(self.flat(h))), self.gap(h).reshape(-1, 6)


class Maths(nn.HybridBlock):
    """Elementwise maths, comparisons, where and scalars of the mx.np front end."""

    def hybrid_forward(self, F, x):
        np = F.np
        a = np.exp(x * 0.5) + np.log(np.abs(x) + 1) - np.sqrt(np.square(x) + 2) / 3
        b = np.sin(x) * np.cos(x) + np.tanh(x) - np.arctan(x) + np.floor(x) + np.ceil(x * 2) / 4
        c = np.where(x > 0, x, -x * 0.1) + np.maximum(x, 0.2) - np.minimum(x, -0.1)
        d = np.clip(x, -0.5, 0.5) + np.sign(x) + np.negative(x) ** 2 + 1 / (np.abs(x) + 1)
        e = np.log1p(np.abs(x)) + np.expm1(x * 0.1) + np.arcsinh(x) + np.cbrt(x) + np.trunc(x * 3)
        f = np.sinh(x * 0.3) + np.cosh(x * 0.3) + np.degrees(x) / 100 + np.radians(x) + np.log2(np.abs(x) + 2)
        g = np.where(x < 0, 1.5, x) + np.where(x > 0.3, x, 2.0) + np.arctan2(x, 2.0) + np.hypot(x, x)
        h = npx_sigmoid(F, x) + np.reciprocal(np.abs(x) + 1) + np.log10(np.abs(x) + 1) + np.rint(x * 2) + np.fix(x * 3)
        h = h + (np.abs(x) + 1) ** x - np.mod(x, np.abs(x) * 0.3 + 0.5)
        return a, b, c, d, e, f, g, h


def npx_sigmoid(F, x):
    return F.npx.sigmoid(x)


class Shapes(nn.HybridBlock):
    """Reshape, transpose, concatenation, slicing, reductions and splitting."""

    def hybrid_forward(self, F, x):
        np = F.np
        y = np.reshape(x, (2, 3, 4))
        t = np.transpose(y, (1, 0, 2))
        cat = np.concatenate([t, t * 2], axis=2)
        s = cat[:, 1:2, 2:7]
        m = np.mean(y, axis=2) + np.sum(y, axis=(0, 2), keepdims=True).reshape(1, 3)
        st = np.stack([np.max(y, axis=0), np.min(y, axis=0)], axis=0)
        parts = np.split(y, 2, axis=2)
        sw = np.swapaxes(y, 0, 2)
        ex = np.expand_dims(np.squeeze(np.sum(y, axis=1, keepdims=True), axis=1), 0)
        mv = np.moveaxis(y, 0, 2)
        return (s, m, st, parts[0] - parts[1], sw, ex, mv, np.var(y, axis=1), np.std(y, axis=2),
                np.prod(y[0], axis=1), np.argmax(y, axis=2), np.cumsum(y, axis=1), np.flip(y, axis=1),
                np.tile(y[0], (1, 2)), npx_softmax(F, y), np.dot(y[0], np.transpose(y[1])))


def npx_softmax(F, y):
    return F.npx.log_softmax(y, axis=1) + F.npx.softmax(y, axis=2)


def export(name, net, x):
    """Hybridize, run once on ``x``, export and write the input and outputs as .npy files."""
    net.initialize(mx.init.Xavier(rnd_type='gaussian', magnitude=2))
    net.hybridize()
    outs = net(x)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    net.export(os.path.join(HERE, name))
    onp.save(os.path.join(HERE, '%s-input.npy' % name), x.asnumpy())
    for i, out in enumerate(outs):
        onp.save(os.path.join(HERE, '%s-output%d.npy' % (name, i)), out.asnumpy())


def main():
    npx.set_np()
    mx.random.seed(7)
    rng = onp.random.RandomState(7)
    export('mlp', MLP(), mx.np.array(rng.uniform(-1, 1, (3, 10)).astype('float32')))
    export('cnn', CNN(), mx.np.array(rng.uniform(-1, 1, (2, 3, 8, 8)).astype('float32')))
    export('maths', Maths(), mx.np.array(rng.uniform(-1.5, 1.5, (4, 5)).astype('float32')))
    export('shapes', Shapes(), mx.np.array(rng.uniform(-1, 1, (6, 4)).astype('float32')))


if __name__ == '__main__':
    main()
