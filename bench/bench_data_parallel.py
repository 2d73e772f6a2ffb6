"""Data-parallel ResNet-18 training step on 4 devices: gluonjax's ``Trainer(kvstore='device')``
against a hand-written ``shard_map`` + ``psum`` step with optax, in one run.

    python bench/bench_data_parallel.py [--steps 5]

The work (issue 18's last row): model-zoo ``resnet18_v1`` with 10 classes at CIFAR size
(3x32x32), batch 32 per device on 4 devices (128 in all), SGD with momentum 0.9, lr 0.1.

- gluonjax: MXNet's multi-device loop as MXNet scripts write it: ``split_and_load`` the batch,
  ``record()`` the forward and loss on each device, ``autograd.backward`` of the four losses,
  ``trainer.step(128)`` (the KVStore sums the gradients across devices), hybridized network.
- the limit: the same network written in plain JAX (``lax.conv_general_dilated``, batch
  statistics per device as in MXNet), one ``jax.jit`` of ``shard_map`` whose body computes
  the local gradient, ``psum``s it over the mesh and applies ``optax.sgd``.

Both start from the same weights and one step of each is compared before timing, so they do
the same work. On a CPU the four devices are XLA's host-platform devices sharing its cores;
the script sets ``--xla_force_host_platform_device_count=4`` itself.
"""
import argparse
import os
import statistics
import sys
import time

os.environ['XLA_FLAGS'] = (os.environ.get('XLA_FLAGS', '') + ' --xla_force_host_platform_device_count=4').strip()
sys.path.insert(0, os.path.dirname(__file__))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402

import gluonjax as mx  # noqa: E402
from gluonjax import autograd, gluon  # noqa: E402
from _timing import machine  # noqa: E402

DEVICES = 4
PER_DEVICE = 32
LR, MOMENTUM = 0.1, 0.9
STAGES = [(64, 1), (128, 2), (256, 2), (512, 2)]  # resnet18_v1: channels, first stride; 2 blocks each


def gluon_net(ctxs):
    mx.random.seed(0)
    net = gluon.model_zoo.vision.resnet18_v1(classes=10)
    net.initialize(mx.init.Xavier(), ctx=ctxs)
    net.hybridize()
    return net


def gluon_step(net, ctxs, x, y):
    """MXNet's multi-device loop body; returns a function running one step and waiting for the weights."""
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': LR, 'momentum': MOMENTUM},
                            kvstore='device')
    data = gluon.utils.split_and_load(x, ctxs)
    label = gluon.utils.split_and_load(y, ctxs)
    params = list(net.collect_params().values())

    def step():
        with autograd.record():
            losses = [loss(net(d), l) for d, l in zip(data, label)]
        autograd.backward(losses)
        trainer.step(x.shape[0])
        for p in params:
            for arr in p.list_data():
                arr.wait_to_read()
    return step


# ---------------------------------------------------------------------------------------------
# The same network and step, written by hand in JAX
# ---------------------------------------------------------------------------------------------

def _conv(x, w, stride, pad):
    return lax.conv_general_dilated(x, w, (stride, stride), [(pad, pad), (pad, pad)],
                                    dimension_numbers=('NCHW', 'OIHW', 'NCHW'))


def _bn(x, gamma, beta):
    mean = x.mean((0, 2, 3), keepdims=True)
    var = x.var((0, 2, 3), keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma[None, :, None, None] + beta[None, :, None, None]


def plain_resnet18(params, x):
    """``params``: the trainable weights in the model zoo's order (conv weight, or gamma, beta)."""
    it = iter(params)

    def conv_bn(h, stride, pad):
        w = next(it)
        return _bn(_conv(h, w, stride, pad), next(it), next(it))

    h = jax.nn.relu(conv_bn(x, 2, 3))
    h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 1, 3, 3), (1, 1, 2, 2), [(0, 0), (0, 0), (1, 1), (1, 1)])
    for stage, (_, stride) in enumerate(STAGES):
        for block in range(2):
            s = stride if block == 0 else 1
            body = jax.nn.relu(conv_bn(h, s, 1))
            body = conv_bn(body, 1, 1)
            shortcut = conv_bn(h, s, 0) if (block == 0 and stage > 0) else h
            h = jax.nn.relu(body + shortcut)
    h = h.mean((2, 3))
    w, b = next(it), next(it)
    return h @ w.T + b


def jax_step(params, x, y, devices):
    """One jitted shard_map step: local gradient, psum over the mesh, optax SGD with momentum."""
    mesh = Mesh(np.array(devices), ('d',))
    opt = optax.sgd(LR, momentum=MOMENTUM)
    batch = x.shape[0]

    def local(params, state, x, y):
        def loss_fn(params):
            logp = jax.nn.log_softmax(plain_resnet18(params, x))
            return -jnp.sum(jnp.take_along_axis(logp, y[:, None], axis=1))
        grads = lax.psum(jax.grad(loss_fn)(params), 'd')
        grads = jax.tree.map(lambda g: g / batch, grads)  # Trainer.step(batch) rescales the same way
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    spec = (P(), P(), P('d'), P('d'))
    # check_vma=False: the gradient inside is each device's own, summed by the explicit psum (with
    # the check on, jax's transpose of the replicated parameters would already sum it)
    update = jax.jit(jax.shard_map(local, mesh=mesh, in_specs=spec, out_specs=(P(), P()), check_vma=False),
                     donate_argnums=(0, 1))
    replicated = jax.sharding.NamedSharding(mesh, P())
    split = jax.sharding.NamedSharding(mesh, P('d'))
    params = jax.device_put(params, replicated)
    box = [params, jax.device_put(opt.init(params), replicated)]
    x, y = jax.device_put(x, split), jax.device_put(y, split)

    def step():
        box[0], box[1] = update(box[0], box[1], x, y)
        jax.block_until_ready(box[0])
    return step, box


def trainable(net):
    return [p for p in net.collect_params().values() if p.grad_req != 'null']


def check_same_step(net, ours, ref_step, box):
    """The first step of each, from the same weights, moves them alike. Compared as whole updates per
    parameter (norm of the difference against the norm of the update): at 32x32 the last stage
    is 1x1, and BatchNorm over a channel whose inputs are all equal amplifies rounding (any two
    correct implementations differ there by a few percent in single elements)."""
    before = [p.data(mx.cpu(0)).asnumpy() for p in trainable(net)]
    ours()
    ref_step()
    for p, b, want in zip(trainable(net), before, box[0]):
        mine, theirs = p.data(mx.cpu(0)).asnumpy() - b, np.asarray(want) - b
        gap = np.linalg.norm(mine - theirs) / max(np.linalg.norm(theirs), 1e-12)
        assert gap < 0.05, '%s: the updates differ by %.3f of their norm' % (p.name, gap)


def timed(step, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        step()
        times.append(time.perf_counter() - t)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--steps', type=int, default=5, help='timed steps of each, interleaved in rounds')
    args = ap.parse_args()
    devices = jax.devices()[:DEVICES]
    ctxs = [mx.cpu(i) for i in range(DEVICES)]
    rng = np.random.RandomState(0)
    x = rng.rand(DEVICES * PER_DEVICE, 3, 32, 32).astype(np.float32)
    y = rng.randint(0, 10, DEVICES * PER_DEVICE)

    net = gluon_net(ctxs)
    net(mx.nd.array(x[:PER_DEVICE], ctx=ctxs[0]))  # shapes known, weights set
    weights = [jnp.asarray(p.data(ctxs[0]).asnumpy()) for p in trainable(net)]
    ref_step, box = jax_step(weights, jnp.asarray(x), jnp.asarray(y.astype(np.int32)), devices)
    ours = gluon_step(net, ctxs, mx.nd.array(x), mx.nd.array(y))
    check_same_step(net, ours, ref_step, box)  # also the compiles

    mine, ref = [], []
    for _ in range(args.steps):  # interleaved, so machine noise hits both
        mine += timed(ours, 1)
        ref += timed(ref_step, 1)
    m, r = statistics.median(mine), statistics.median(ref)
    print('machine: %s, %d devices' % (machine(), len(devices)))
    print('ResNet-18 (CIFAR 32x32), batch %d per device x %d: gluonjax Trainer(kvstore=device) '
          'median %.1f ms (min %.1f), shard_map + psum + optax median %.1f ms (min %.1f): ratio %.2f'
          % (PER_DEVICE, DEVICES, m * 1e3, min(mine) * 1e3, r * 1e3, min(ref) * 1e3, m / r))


if __name__ == '__main__':
    main()
