"""The fixed-shape rows of issue 18, written once on MXNet's API for bench/bench_fixed_shapes.py (gluonjax)
and bench/mxnet_ref/fixed_shapes.py (real MXNet 1.9.1): ``WORK[name](mx)`` builds the work and returns a
function running it ``number`` times and waiting for the results."""
import numpy as np

NUMBER = {'add': 2000, 'record_backward': 1000, 'mlp_step': 100, 'lstm_step': 30, 'kvstore_100_keys': 50}


def add(mx):
    a, b = mx.nd.ones((3, 3)), mx.nd.ones((3, 3))

    def run(number):
        for _ in range(number):
            c = a + b
        c.wait_to_read()
    return run


def record_backward(mx):
    a, b, c = mx.nd.ones((3, 3)), mx.nd.ones((3, 3)), mx.nd.ones((3, 3))
    a.attach_grad()
    b.attach_grad()

    def run(number):
        for _ in range(number):
            with mx.autograd.record():
                y = (a * b + c).sum()
            y.backward()
        a.grad.wait_to_read()
    return run


def _train(mx, net, data, label, batch):
    """``number`` train steps of ``net`` (SGD, softmax cross-entropy), the seed's loop body."""
    net.initialize()
    net.hybridize()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.01})
    loss = mx.gluon.loss.SoftmaxCrossEntropyLoss()

    def run(number):
        for _ in range(number):
            with mx.autograd.record():
                out = loss(net(data), label)
            out.backward()
            trainer.step(batch)
        mx.nd.waitall()
    return run


def mlp_step(mx):
    """MLP 784-256-256-10, batch 64, hybridized."""
    net = mx.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(mx.gluon.nn.Dense(256, activation='relu'), mx.gluon.nn.Dense(256, activation='relu'),
                mx.gluon.nn.Dense(10))
    rng = np.random.RandomState(0)
    return _train(mx, net, mx.nd.array(rng.rand(64, 784)), mx.nd.array(rng.randint(0, 10, 64)), 64)


def lstm_step(mx):
    """A 2-layer LSTM(128) tagger (bench/bench_new_shapes.py's), batch 16, one length (20), hybridized."""
    class Tagger(mx.gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.lstm = mx.gluon.rnn.LSTM(128, num_layers=2, layout='NTC')
                self.out = mx.gluon.nn.Dense(10, flatten=False)

        def hybrid_forward(self, F, x):
            return self.out(self.lstm(x))
    rng = np.random.RandomState(0)
    return _train(mx, Tagger(), mx.nd.array(rng.rand(16, 20, 32)), mx.nd.array(rng.randint(0, 10, (16, 20))), 16)


def kvstore_100_keys(mx):
    """100 keys of (1000,) pushed from 4 CPU devices and pulled back onto them ('device')."""
    ctxs = [mx.cpu(i) for i in range(4)]
    kv = mx.kv.create('device')
    keys = list(range(100))
    kv.init(keys, [mx.nd.zeros((1000,), ctx=ctxs[0]) for _ in keys])
    vals = [[mx.nd.ones((1000,), ctx=c) for c in ctxs] for _ in keys]
    outs = [[mx.nd.zeros((1000,), ctx=c) for c in ctxs] for _ in keys]

    def run(number):
        for _ in range(number):
            kv.push(keys, vals)
            kv.pull(keys, out=outs)
            mx.nd.waitall()
    return run


WORK = {'add': add, 'record_backward': record_backward, 'mlp_step': mlp_step, 'lstm_step': lstm_step,
        'kvstore_100_keys': kvstore_100_keys}
