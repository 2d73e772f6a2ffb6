"""bench/bench_new_shapes.py's work on real MXNet 1.9.1 (run by it when MXNET_PYTHON names a
python with MXNet, e.g. /tmp/mxref/bin/python; never part of the project). Prints one JSON line."""
import json
import sys
import time

import mxnet as mx
import numpy as np
from mxnet import autograd, gluon, nd

sys.path.insert(0, __file__.rsplit('/', 2)[0])
from bench_new_shapes import EAGER_SHAPES, LSTM_LENGTHS, LSTM_PASSES  # noqa: E402


def eager():
    rng = np.random.RandomState(0)
    times = []
    for shape in EAGER_SHAPES:
        a, b, c = (nd.array(rng.rand(*shape)) for _ in range(3))
        nd.waitall()
        t = time.perf_counter()
        (a * b + c).asnumpy()
        times.append(time.perf_counter() - t)
    return times


class Tagger(gluon.HybridBlock):
    def __init__(self):
        super().__init__()
        with self.name_scope():
            self.lstm = gluon.rnn.LSTM(128, num_layers=2, layout='NTC')
            self.out = gluon.nn.Dense(10, flatten=False)

    def hybrid_forward(self, F, x):
        return self.out(self.lstm(x))


def lstm():
    rng = np.random.RandomState(0)
    net = Tagger()
    net.initialize()
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.01})
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    passes = []
    for _ in range(LSTM_PASSES):
        times = []
        for length in LSTM_LENGTHS:
            x = nd.array(rng.rand(16, length, 32))
            y = nd.array(rng.randint(0, 10, (16, length)))
            t = time.perf_counter()
            with autograd.record():
                out = loss(net(x), y)
            out.backward()
            trainer.step(16)
            nd.waitall()
            times.append(time.perf_counter() - t)
        passes.append(times)
    return passes


if __name__ == '__main__':
    print(json.dumps({'version': mx.__version__, 'eager': eager(), 'lstm': lstm()}))
