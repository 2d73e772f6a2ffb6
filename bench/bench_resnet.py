"""Model-zoo ResNet-18 v1 inference, 224 x 224, batch 2, on the CPU: gluonjax against jax and MXNet.

    MXNET_PYTHON=/tmp/mxref/bin/python python bench/bench_resnet.py [--rounds 5] [--number 5]

Timed in one run, every call waited for:

- gluonjax imperative (``resnet18_v1()`` called operator by operator) and hybridized;
- hand-written ``jax.jit``: the same network and weights as plain jax, written the way a jax user
  would (NHWC activations, HWIO weights; inputs transposed once at entry);
- real MXNet 1.9.1 (oneDNN), imperative and hybridized (``static_alloc``), when MXNET_PYTHON names a
  python with MXNet: a worker subprocess that times on request (``bench/mxnet_ref/resnet.py``).

The five are timed in turns, one run of ``number`` calls each per round, so load on the machine
hits all of them alike; each figure is the median over the rounds. The ratios are gluonjax over
MXNet's same mode. Before timing, the jax function's output is checked against gluonjax's.
"""
import argparse
import functools
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH, SIZE = 2, 224


def time_calls(fn, number):
    """Milliseconds per call over ``number`` waited calls."""
    t = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t) / number * 1e3


def plain_resnet18(params, x, strides):
    """ResNet-18 v1 inference in plain jax, NHWC; ``params`` and ``strides`` from ``jax_params``."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    def conv(x, w, stride, pad):
        return lax.conv_general_dilated(x, w, (stride, stride), [(pad, pad)] * 2,
                                        dimension_numbers=('NHWC', 'HWIO', 'NHWC'))

    def bn(x, p):
        gamma, beta, mean, var = p
        return (x - mean) * (gamma * lax.rsqrt(var + 1e-5)) + beta

    x = jnp.transpose(x, (0, 2, 3, 1))
    x = jax.nn.relu(bn(conv(x, params['stem'], 2, 3), params['stem_bn']))
    x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), [(0, 0), (1, 1), (1, 1), (0, 0)])
    for unit, stride in zip(params['units'], strides):
        y = jax.nn.relu(bn(conv(x, unit['w1'], stride, 1), unit['bn1']))
        y = bn(conv(y, unit['w2'], 1, 1), unit['bn2'])
        if 'wd' in unit:
            x = bn(conv(x, unit['wd'], stride, 0), unit['bnd'])
        x = jax.nn.relu(x + y)
    x = jnp.mean(x, axis=(1, 2))
    return x @ params['fc'].T + params['fc_bias']


def jax_params(net):
    """The gluonjax network's weights as plain jax arrays for ``plain_resnet18`` (HWIO weights), and
    the first stride of each residual unit."""
    import jax.numpy as jnp

    def w(conv):
        return jnp.transpose(conv.weight.data()._data, (2, 3, 1, 0))

    def bn(layer):
        return tuple(p.data()._data for p in (layer.gamma, layer.beta, layer.running_mean, layer.running_var))

    feats = net.features
    units, strides = [], []
    for stage in list(feats)[4:8]:
        for unit in stage:
            body = list(unit.body)
            strides.append(body[0]._kwargs['stride'][0])
            u = {'w1': w(body[0]), 'bn1': bn(body[1]), 'w2': w(body[3]), 'bn2': bn(body[4])}
            if unit.downsample is not None:
                u['wd'], u['bnd'] = w(unit.downsample[0]), bn(unit.downsample[1])
            units.append(u)
    return {'stem': w(feats[0]), 'stem_bn': bn(feats[1]), 'units': units,
            'fc': net.output.weight.data()._data, 'fc_bias': net.output.bias.data()._data}, tuple(strides)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--number', type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, HERE)
    import jax
    import numpy as np
    from _timing import WARMUP_CALLS, MXNetWorker, machine
    from gluonjax import nd
    from gluonjax.gluon.model_zoo import vision
    print('machine: %s; load average %s' % (machine(), ' '.join('%.1f' % v for v in os.getloadavg())))

    x = nd.array(np.random.RandomState(0).uniform(0, 1, (BATCH, 3, SIZE, SIZE)))
    imperative = vision.resnet18_v1()
    imperative.initialize()
    hybrid = vision.resnet18_v1()
    hybrid.initialize()
    hybrid.hybridize(static_alloc=True, static_shape=True)
    want = imperative(x).asnumpy()  # also ends the deferred initialisation
    params, strides = jax_params(imperative)
    plain = jax.jit(functools.partial(plain_resnet18, strides=strides))
    np.testing.assert_allclose(np.asarray(plain(params, x._data)), want, rtol=1e-3, atol=1e-4)
    hybrid(x).wait_to_read()

    runs = {
        'gluonjax imperative': lambda: imperative(x).wait_to_read(),
        'gluonjax hybridized': lambda: hybrid(x).wait_to_read(),
        'jax.jit (NHWC)': lambda: plain(params, x._data).block_until_ready(),
    }
    python = os.environ.get('MXNET_PYTHON')
    worker = MXNetWorker(python, 'resnet.py', BATCH, SIZE) if python else None
    if worker:
        runs['MXNet %s imperative' % worker.version] = lambda: worker.time_ms('imperative', args.number)
        runs['MXNet %s hybridized' % worker.version] = lambda: worker.time_ms('hybridized', args.number)
    times = {name: [] for name in runs}
    for name, fn in runs.items():  # warm-up
        for _ in range(1 if name.startswith('MXNet') else WARMUP_CALLS):
            fn()
    for _ in range(args.rounds):
        for name, fn in runs.items():
            if name.startswith('MXNet'):
                times[name].append(fn())
            else:
                times[name].append(time_calls(fn, args.number))
    if worker:
        worker.close()
    med = {name: statistics.median(t) for name, t in times.items()}
    print('ResNet-18 v1 forward, batch %d, %dx%d, median of %d rounds of %d calls (ms per call):'
          % (BATCH, SIZE, SIZE, args.rounds, args.number))
    for name, ms in med.items():
        print('  %-28s %8.1f   (runs %s)' % (name, ms, ' '.join('%.0f' % t for t in times[name])))
    print('  ratio hybridized / jax.jit: %.2f' % (med['gluonjax hybridized'] / med['jax.jit (NHWC)']))
    if worker:
        v = worker.version
        print('  ratio imperative / MXNet imperative: %.2f' % (med['gluonjax imperative'] / med['MXNet %s imperative' % v]))
        print('  ratio hybridized / MXNet hybridized: %.2f' % (med['gluonjax hybridized'] / med['MXNet %s hybridized' % v]))
    print('load average after: %s' % ' '.join('%.1f' % v for v in os.getloadavg()))


if __name__ == '__main__':
    sys.path.insert(0, HERE)
    from _timing import bench_device
    with bench_device():
        main()
