"""Module step against Gluon step: the same MLP and LeNet, batch 64, SGD lr 0.1.

    python bench/bench_module.py [--devices N]

One Module step is ``mod.forward_backward(batch); mod.update()`` then waiting for the
updated weights (one compiled forward+backward program per device, one compiled SGD
update). One Gluon step is the hybridized net under ``autograd.record()`` with
SoftmaxCrossEntropyLoss, ``backward()``, ``trainer.step(64)`` and the same wait; with
``--devices N`` both split the batch over N devices (Gluon: ``split_and_load`` and a
Trainer on kvstore 'device', the Module on the same store). Both
start from the same weights and their weights after one step are compared first, so
they do the same work. Prints both times (best of 7 interleaved repeats, ms) and the ratio.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import numpy as np  # noqa: E402

import gluonjax as mx  # noqa: E402
from gluonjax import autograd, gluon  # noqa: E402
from gluonjax.gluon import nn  # noqa: E402
from _timing import WARMUP_CALLS, runs_us, machine  # noqa: E402

BATCH = 64


def mlp():
    net = nn.HybridSequential()
    net.add(nn.Dense(256, activation='relu'), nn.Dense(256, activation='relu'), nn.Dense(10))
    return net, (BATCH, 784)


def lenet():
    net = nn.HybridSequential()
    net.add(nn.Conv2D(20, kernel_size=5, activation='relu'), nn.MaxPool2D(2, 2),
            nn.Conv2D(50, kernel_size=5, activation='relu'), nn.MaxPool2D(2, 2),
            nn.Flatten(), nn.Dense(500, activation='relu'), nn.Dense(10))
    return net, (BATCH, 1, 28, 28)


def bench(name, make, contexts, number):
    rs = np.random.RandomState(0)
    net, shape = make()
    net.initialize(mx.init.Xavier(), ctx=contexts)
    x = mx.nd.array(rs.rand(*shape))
    y = mx.nd.array(rs.randint(0, 10, BATCH))
    net(x.as_in_context(contexts[0]))
    # the Module: the hybridized net's graph with SoftmaxOutput on top, the same weights
    net.hybridize()
    net(x.as_in_context(contexts[0]))
    sym = net(mx.sym.var('data'))
    sym = mx.sym.SoftmaxOutput(sym, name='softmax')
    params = {p.name: p.data(contexts[0]).copy() for p in net.collect_params().values()}
    mod = mx.mod.Module(sym, context=contexts)
    mod.bind(data_shapes=[('data', shape)], label_shapes=[('softmax_label', (BATCH,))])
    mod.set_params(params, {})
    mod.init_optimizer(kvstore='device', optimizer='sgd', optimizer_params={'learning_rate': 0.1})
    batch = mx.io.DataBatch([x], [y])
    first = net.collect_params().values().__iter__().__next__().name

    def mod_step():
        mod.forward_backward(batch)
        mod.update()
        mod._exec_group.param_arrays[0][0].wait_to_read()

    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1},
                            kvstore='device' if len(contexts) > 1 else None)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    weight = list(net.collect_params().values())[0]
    xs = gluon.utils.split_and_load(x, contexts)
    ys = gluon.utils.split_and_load(y, contexts)

    def gluon_step():
        with autograd.record():
            losses = [loss_fn(net(xi), yi) for xi, yi in zip(xs, ys)]
        for loss in losses:   # one backward per device (autograd.backward over devices: one program, not here)
            loss.backward()
        trainer.step(BATCH)
        weight.data(contexts[0]).wait_to_read()

    mod_step()
    gluon_step()
    np.testing.assert_allclose(mod.get_params()[0][first].asnumpy(), weight.data(contexts[0]).asnumpy(),
                               rtol=1e-4, atol=1e-5)
    # interleaved repeats, best of each: the machine is shared, so load hits both alike
    t_mod, t_gluon = float('inf'), float('inf')
    for _ in range(7):
        t_mod = min(t_mod, runs_us(mod_step, number=number, repeat=1, warmup=WARMUP_CALLS)[0] / 1e3)
        t_gluon = min(t_gluon, runs_us(gluon_step, number=number, repeat=1, warmup=WARMUP_CALLS)[0] / 1e3)
    print('%-6s %d device(s): Module step %7.3f ms   Gluon (hybridized) step %7.3f ms   '
          'Module/Gluon %.2fx' % (name, len(contexts), t_mod, t_gluon, t_mod / t_gluon))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--devices', type=int, default=1)
    parser.add_argument('--number', type=int, default=30)
    args = parser.parse_args()
    print(machine())
    contexts = [mx.cpu(i) for i in range(args.devices)]
    bench('mlp', mlp, contexts, args.number)
    bench('lenet', lenet, contexts, max(5, args.number // 3))


if __name__ == '__main__':
    main()
