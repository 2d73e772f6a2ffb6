"""The seed's training step against hand-written JAX: LeNet, batch 64, SGD lr 0.1.

    python bench/bench_train.py        # MXNET_PYTHON=/tmp/mxref/bin/python adds MXNet 1.9.1
    python bench/bench_train.py --phases   # also times the hybridized step's phases one by one

One step is the seed's loop body: ``autograd.record()`` around the forward pass and
SoftmaxCrossEntropyLoss, ``backward()``, ``trainer.step(64)``, then waiting for the updated
weights. It is timed three ways in the same run, on the same batch:

- gluonjax, hybridized HybridSequential (target: at most 1.15x the hand-written step);
- gluonjax, imperative Sequential (target: at most 2x);
- the limit: the same model written in plain JAX, ``jax.jit`` of loss, ``jax.grad`` and an
  ``optax.sgd`` update, parameters donated.

Before timing, one step of each is compared: the gluonjax steps must produce the hand-written
step's weights, so the three do the same work. With MXNET_PYTHON, real MXNet's same step
(``bench/mxnet_ref/train_step.py --serve``, a worker subprocess) is timed in each round too,
imperative and hybridized, and gluonjax's steps are also given as a ratio to MXNet's.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

from gluonjax import autograd, gluon, nd  # noqa: E402
from _timing import WARMUP_CALLS, bench_device, MXNetWorker, per_call_us, machine  # noqa: E402
from bench_gluon import lenet as seed_lenet, plain_lenet  # noqa: E402

BATCH = 64
LR = 0.1


def gluon_step(net, data, label):
    """The seed's loop body; returns a function running one step and waiting for the weights."""
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': LR})
    params = list(net.collect_params().values())

    def step():
        with autograd.record():
            cross_entropy = loss(net(data), label)
        cross_entropy.backward()
        trainer.step(data.shape[0])
        for p in params:
            p.data().wait_to_read()
    return step


def phase_times(net, data, label, number=50):
    """Where the hybridized step's time goes: each phase waited for before the next (``--phases``)."""
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': LR})
    params = list(net.collect_params().values())
    box = {}

    def forward():
        with autograd.record():
            box['loss'] = loss(net(data), label)
        box['loss'].wait_to_read()

    def backward():
        box['loss'].backward()
        for p in params:
            p.grad().wait_to_read()

    def update():
        trainer.step(data.shape[0])
        for p in params:
            p.data().wait_to_read()
    phases = {'forward + loss (recorded)': forward, 'backward': backward, 'trainer.step': update}
    totals = dict.fromkeys(phases, 0.0)
    for i in range(number + WARMUP_CALLS):
        for name, fn in phases.items():
            t = time.perf_counter()
            fn()
            if i >= WARMUP_CALLS:
                totals[name] += time.perf_counter() - t
    return {name: total / number * 1e6 for name, total in totals.items()}


def jax_step(params, x, y):
    """The limit: one jitted loss + grad + optax SGD update, parameters donated."""
    opt = optax.sgd(LR)

    def loss_fn(params):
        logits = plain_lenet(params, x)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    def update(params, state):
        grads = jax.grad(loss_fn)(params)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    update = jax.jit(update, donate_argnums=(0, 1))
    box = [params, opt.init(params)]

    def step():
        box[0], box[1] = update(box[0], box[1])
        jax.block_until_ready(box[0])
    return step, box


def check_same_step(net, jax_params, data, label):
    """One gluonjax step and one hand-written step from the same weights agree."""
    step, box = jax_step([jnp.array(p) for p in jax_params], data._data, label._data.astype(jnp.int32))
    step()
    gluon_step(net, data, label)()
    for got, want in zip(net.collect_params().values(), box[0]):
        np.testing.assert_allclose(got.data().asnumpy(), np.asarray(want), rtol=2e-3, atol=2e-5)


def main():
    print('machine: %s' % machine())
    rng = np.random.RandomState(0)
    data = nd.array(rng.uniform(0, 1, (BATCH, 1, 28, 28)))
    label = nd.array(rng.randint(0, 10, BATCH))
    hybrid, imperative = seed_lenet(True), seed_lenet(False)
    hybrid(data), imperative(data)
    start = [p.data().asnumpy() for p in hybrid.collect_params().values()]
    for p, value in zip(imperative.collect_params().values(), start):
        p.set_data(nd.array(value))
    check_same_step(hybrid, start, data, label)
    check_same_step(imperative, start, data, label)
    print('one step from the same weights: hybridized and imperative gluonjax match hand-written JAX')

    run_jax, _ = jax_step([jnp.array(p) for p in start], data._data, label._data.astype(jnp.int32))
    run_hybrid, run_imperative = gluon_step(hybrid, data, label), gluon_step(imperative, data, label)
    python = os.environ.get('MXNET_PYTHON')
    worker = MXNetWorker(python, 'train_step.py', '--serve') if python else None
    rows, mx_rows = [], []
    for _ in range(3):
        t_jax = per_call_us(run_jax, number=30, repeat=5, warmup=WARMUP_CALLS)
        t_hyb = per_call_us(run_hybrid, number=30, repeat=5, warmup=WARMUP_CALLS)
        t_imp = per_call_us(run_imperative, number=30, repeat=5, warmup=WARMUP_CALLS)
        rows.append((t_jax, t_hyb, t_imp))
        if worker:
            mx_rows.append(tuple(statistics.median(worker.time_ms(mode, 30) for _ in range(5)) * 1e3
                                 for mode in ('hybridized', 'imperative')))
    t_jax, t_hyb, t_imp = sorted(rows, key=lambda r: r[1] / r[0])[1]
    print('LeNet training step, batch %d (median of 3 rounds):' % BATCH)
    print('  hand-written jax.jit + optax  %8.2f ms' % (t_jax / 1e3))
    print('  gluonjax hybridized           %8.2f ms   ratio %.3f (target <= 1.15)' % (t_hyb / 1e3, t_hyb / t_jax))
    print('  gluonjax imperative           %8.2f ms   ratio %.3f (target <= 2)' % (t_imp / 1e3, t_imp / t_jax))
    if worker:
        worker.close()
        mx_hyb, mx_imp = (statistics.median(col) for col in zip(*mx_rows))
        print('  MXNet %s hybridized        %8.2f ms   gluonjax hybridized / MXNet %.3f (target <= 1.0)'
              % (worker.version, mx_hyb / 1e3, statistics.median(r[1] for r in rows) / mx_hyb))
        print('  MXNet %s imperative        %8.2f ms   gluonjax imperative / MXNet %.3f'
              % (worker.version, mx_imp / 1e3, statistics.median(r[2] for r in rows) / mx_imp))
    if '--phases' in sys.argv:
        for name, us in phase_times(hybrid, data, label).items():
            print('  hybridized phase %-26s %8.2f ms (waited for)' % (name, us / 1e3))


if __name__ == '__main__':
    with bench_device():
        main()
