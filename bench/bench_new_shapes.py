"""What a never-seen shape costs, and what a hybridized call costs over the raw ``jax.jit`` call.

    python bench/bench_new_shapes.py            # MXNET_PYTHON=/path/to/python-with-mxnet adds MXNet

1. ``a * b + c`` and ``tanh(a) + exp(b) * sigmoid(c)`` eagerly on 40 shapes never seen before
   (each result read back with ``asnumpy``): gluonjax, the same ``jnp`` operations, and MXNet 1.9.1.
2. A hybridized 2-layer LSTM(128) tagger's train step (record, backward, ``Trainer.step``) on
   10 sequence lengths never seen before, three passes over them: the first pass compiles, the
   later ones should run at steady speed. With the number of XLA compiles per pass.
3. A hybridized MLP (32-64-10, batch 8) forward call against the same ``jax.jit`` function.

The persistent compilation cache is off here (GLUONJAX_COMPILATION_CACHE=0 is set before
gluonjax is imported): a first call must compile. The MXNet figures come from
``bench/mxnet_ref/new_shapes.py`` run in a subprocess of this run, on the same machine: the same
workload functions, given MXNet's modules.
"""
import json
import os
import statistics
import subprocess
import sys
import time

EAGER_SHAPES = [(5 + 3 * i, 7 + 5 * (i % 9)) for i in range(40)]
LSTM_LENGTHS = [11 + 3 * i for i in range(10)]
LSTM_PASSES = 3

HERE = os.path.dirname(os.path.abspath(__file__))


def _compile_counter():
    from jax._src import monitoring
    count = [0]

    def listener(event, duration, **kwargs):
        if event == '/jax/core/compile/backend_compile_duration':
            count[0] += 1
    monitoring.register_event_duration_secs_listener(listener)
    return count


def arithmetic(m, a, b, c):
    return a * b + c


def transcendental(m, a, b, c):
    return m.tanh(a) + m.exp(b) * m.sigmoid(c)


EXPRESSIONS = {'a*b+c': arithmetic, 'tanh(a)+exp(b)*sigmoid(c)': transcendental}


def eager(nd, rng, expression=arithmetic):
    """Seconds per new shape of ``expression`` read back, on MXNet's ``nd`` API (gluonjax's or MXNet's)."""
    times = []
    for shape in EAGER_SHAPES:
        a, b, c = (nd.array(rng.rand(*shape)) for _ in range(3))
        nd.waitall()
        t = time.perf_counter()
        expression(nd, a, b, c).asnumpy()
        times.append(time.perf_counter() - t)
    return times


def eager_jax(rng, expression=arithmetic):
    import types

    import jax
    import jax.numpy as jnp
    import numpy as np
    math = types.SimpleNamespace(tanh=jnp.tanh, exp=jnp.exp, sigmoid=jax.nn.sigmoid)
    times = []
    for shape in EAGER_SHAPES:
        a, b, c = (jnp.asarray(rng.rand(*shape).astype(np.float32)) for _ in range(3))
        c.block_until_ready()
        t = time.perf_counter()
        np.asarray(expression(math, a, b, c))
        times.append(time.perf_counter() - t)
    return times


def lstm(mx, rng, compiles=None):
    """Per pass, the seconds of each new length's train step, on MXNet's API ``mx`` (gluonjax or
    MXNet), and the XLA compiles per pass when ``compiles`` counts them."""
    autograd, gluon, nd = mx.autograd, mx.gluon, mx.nd

    class Tagger(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.lstm = gluon.rnn.LSTM(128, num_layers=2, layout='NTC')
                self.out = gluon.nn.Dense(10, flatten=False)

        def hybrid_forward(self, F, x):
            return self.out(self.lstm(x))

    net = Tagger()
    net.initialize()
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.01})
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    passes, counts = [], []
    for _ in range(LSTM_PASSES):
        times, before = [], compiles[0] if compiles else 0
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
        counts.append(compiles[0] - before if compiles else None)
    return passes, counts


def hybrid_call_overhead():
    import jax
    import numpy as np
    from gluonjax import gluon, nd
    from _timing import per_call_us
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(64, activation='relu'), gluon.nn.Dense(10))
    net.initialize()
    net.hybridize()
    x = nd.array(np.random.RandomState(0).rand(8, 32))
    want = net(x).asnumpy()
    (w1, b1), (w2, b2) = [(d.weight.data()._data, d.bias.data()._data) for d in net]

    @jax.jit
    def mlp_args(x, w1, b1, w2, b2):  # as hand-written JAX trains: the weights are arguments
        return jax.nn.relu(x @ w1.T + b1) @ w2.T + b2

    @jax.jit
    def mlp_const(x):  # weights baked in as constants: cheaper to call, but cannot be trained
        return jax.nn.relu(x @ w1.T + b1) @ w2.T + b2
    for f in (mlp_args(x._data, w1, b1, w2, b2), mlp_const(x._data)):
        np.testing.assert_allclose(np.asarray(f), want, rtol=1e-5, atol=1e-6)
    block, args, const = [], [], []
    for _ in range(5):  # interleaved, so machine noise hits all three
        block.append(per_call_us(lambda: net(x), number=2000, repeat=3))
        args.append(per_call_us(lambda: mlp_args(x._data, w1, b1, w2, b2), number=2000, repeat=3))
        const.append(per_call_us(lambda: mlp_const(x._data), number=2000, repeat=3))
    return min(block), min(args), min(const)


def mxnet_figures():
    python = os.environ.get('MXNET_PYTHON')
    if not python:
        return None
    out = subprocess.run([python, os.path.join(HERE, 'mxnet_ref', 'new_shapes.py')], capture_output=True,
                         text=True, timeout=1800)
    if out.returncode != 0:
        print('MXNet reference failed: %s' % out.stderr.strip().splitlines()[-1:])
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ms(seconds):
    return statistics.median(seconds) * 1e3


def main():
    os.environ['GLUONJAX_COMPILATION_CACHE'] = '0'
    sys.path.insert(0, HERE)
    import numpy as np
    from _timing import machine
    compiles = _compile_counter()
    print('machine: %s' % machine())
    mx_fig = mxnet_figures()
    import gluonjax
    rng = np.random.RandomState(0)
    for name, expression in EXPRESSIONS.items():
        ours, jax_eager = eager(gluonjax.nd, rng, expression), eager_jax(rng, expression)
        line = ('%s eagerly on %d new shapes (median per shape): gluonjax %.1f ms   jax eager %.1f ms   '
                'ratio %.2f' % (name, len(EAGER_SHAPES), _ms(ours), _ms(jax_eager), _ms(ours) / _ms(jax_eager)))
        if mx_fig:
            line += '   MXNet %s %.2f ms' % (mx_fig['version'], _ms(mx_fig['eager'][name]))
        print(line)
    passes, counts = lstm(gluonjax, rng, compiles)
    for i, (times, n) in enumerate(zip(passes, counts)):
        line = ('LSTM train step, %d new lengths, pass %d: gluonjax median %.1f ms, mean %.1f ms (%d compiles)'
                % (len(LSTM_LENGTHS), i + 1, _ms(times), 1e3 * sum(times) / len(times), n))
        if mx_fig:
            line += '   MXNet median %.1f ms, mean %.1f ms' % (_ms(mx_fig['lstm'][i]), 1e3 * sum(mx_fig['lstm'][i]) / len(mx_fig['lstm'][i]))
        print(line)
    block, args, const = hybrid_call_overhead()
    print('hybridized MLP forward call: gluonjax %.1f us   jax.jit(x, *weights) %.1f us   overhead %.1f us '
          '(target <= 10)   [jax.jit with the weights as constants %.1f us]' % (block, args, block - args, const))

if __name__ == '__main__':
    os.environ['GLUONJAX_COMPILATION_CACHE'] = '0'  # before gluonjax is imported
    sys.path.insert(0, HERE)
    from _timing import bench_device
    with bench_device():
        main()
