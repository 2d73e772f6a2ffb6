"""Hybridized Gluon against hand-written JAX: the seed's LeNet, inference, batch 64.

    python bench/bench_gluon.py

1. LeNet (Conv 20x5 relu, max pool 2, Conv 50x5 relu, max pool 2, Flatten, Dense 500 relu,
   Dense 10) as a hybridized HybridSequential, against ``jax.jit`` of the same model written in
   plain JAX (lax.conv_general_dilated, reduce_window, matmul) on the same parameter arrays,
   every call waited for. Target (issue 4): ratio at most 1.1.
2. The per-call overhead of a hybridized block on a tiny Dense(2 -> 2), against a jitted
   ``x @ w.T + b``: the Python cost of one compiled call.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import gluonjax as mx  # noqa: E402
from gluonjax import gluon, nd  # noqa: E402
from _timing import bench_device, per_call_us, machine  # noqa: E402


def lenet(hybrid=True, ctx=None):
    """The seed's LeNet, initialised as the seed does; a HybridSequential, hybridized, unless
    ``hybrid`` is False (the seed's own Sequential)."""
    net = gluon.nn.HybridSequential() if hybrid else gluon.nn.Sequential()
    with net.name_scope():
        net.add(gluon.nn.Conv2D(channels=20, kernel_size=5, activation='relu'),
                gluon.nn.MaxPool2D(pool_size=2, strides=2),
                gluon.nn.Conv2D(channels=50, kernel_size=5, activation='relu'),
                gluon.nn.MaxPool2D(pool_size=2, strides=2),
                gluon.nn.Flatten(),
                gluon.nn.Dense(500, activation='relu'),
                gluon.nn.Dense(10))
    net.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
    if hybrid:
        net.hybridize()
    return net


def plain_lenet(params, x):
    """The same model in plain JAX."""
    w1, b1, w2, b2, w3, b3, w4, b4 = params
    dn = ('NCHW', 'OIHW', 'NCHW')
    y = jax.lax.conv_general_dilated(x, w1, (1, 1), 'VALID', dimension_numbers=dn)
    y = jax.nn.relu(y + b1[None, :, None, None])
    y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), 'VALID')
    y = jax.lax.conv_general_dilated(y, w2, (1, 1), 'VALID', dimension_numbers=dn)
    y = jax.nn.relu(y + b2[None, :, None, None])
    y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), 'VALID')
    y = y.reshape(y.shape[0], -1)
    y = jax.nn.relu(y @ w3.T + b3)
    return y @ w4.T + b4


def main():
    print('machine: %s' % machine())
    net = lenet()
    x = nd.array(np.random.RandomState(0).uniform(0, 1, (64, 1, 28, 28)))
    want = net(x).asnumpy()
    params = [p.data()._data for p in net.collect_params().values()]
    jitted = jax.jit(plain_lenet)
    np.testing.assert_allclose(np.asarray(jitted(params, x._data)), want, rtol=1e-4, atol=1e-4)
    ratios = []
    for _ in range(3):
        t_gluon = per_call_us(lambda: net(x).wait_to_read(), number=100, repeat=5, warmup=10)
        t_jax = per_call_us(lambda: jitted(params, x._data).block_until_ready(), number=100,
                            repeat=5, warmup=10)
        ratios.append(t_gluon / t_jax)
    print('LeNet inference, batch 64: gluonjax hybridized %8.1f us   jax.jit %8.1f us   ratio %.3f '
          '(median of 3: %.3f, target <= 1.1)' % (t_gluon, t_jax, ratios[-1], sorted(ratios)[1]))

    dense = gluon.nn.Dense(2, in_units=2)
    dense.initialize()
    dense.hybridize()
    small = nd.ones((1, 2))
    dense(small)
    w, b = dense.weight.data()._data, dense.bias.data()._data
    tiny = jax.jit(lambda w, b, x: x @ w.T + b)
    t_block = per_call_us(lambda: dense(small).wait_to_read())
    t_tiny = per_call_us(lambda: tiny(w, b, small._data).block_until_ready())
    print('Dense(2 -> 2) call:        gluonjax hybridized %8.1f us   jax.jit %8.1f us   overhead %.1f us'
          % (t_block, t_tiny, t_block - t_tiny))


if __name__ == '__main__':
    with bench_device():
        main()
