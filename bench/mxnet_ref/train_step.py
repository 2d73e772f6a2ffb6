"""The same LeNet training step as bench/bench_train.py, on real MXNet 1.9.1, for the MXNet column
of docs/BENCHMARKS.md. Not part of the project: run it with an MXNet install, e.g.

    python3 -m venv /tmp/mxref && /tmp/mxref/bin/pip install mxnet==1.9.1 'numpy<1.24'
    /tmp/mxref/bin/python bench/mxnet_ref/train_step.py

With ``--serve`` it is bench/bench_train.py's worker (MXNET_PYTHON): it prints MXNet's version, then
answers each line ``MODE NUMBER`` (imperative or hybridized) with the milliseconds per step.
"""
import sys
import time

import mxnet as mx
import numpy as np
from mxnet import autograd, gluon, nd


def lenet(hybrid):
    net = gluon.nn.HybridSequential() if hybrid else gluon.nn.Sequential()
    with net.name_scope():
        net.add(gluon.nn.Conv2D(channels=20, kernel_size=5, activation='relu'),
                gluon.nn.MaxPool2D(pool_size=2, strides=2),
                gluon.nn.Conv2D(channels=50, kernel_size=5, activation='relu'),
                gluon.nn.MaxPool2D(pool_size=2, strides=2),
                gluon.nn.Flatten(), gluon.nn.Dense(500, activation='relu'), gluon.nn.Dense(10))
    net.initialize(mx.init.Xavier(magnitude=2.24))
    if hybrid:
        net.hybridize()
    return net


def step_fn(net, data, label):
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})

    def step():
        with autograd.record():
            cross_entropy = loss(net(data), label)
        cross_entropy.backward()
        trainer.step(data.shape[0])
        nd.waitall()
    return step


def serve(data, label):
    steps = {name: step_fn(lenet(hybrid), data, label) for name, hybrid in (('imperative', False),
                                                                               ('hybridized', True))}
    for step in steps.values():
        for _ in range(5):
            step()
    print(mx.__version__, flush=True)
    for line in sys.stdin:
        mode, number = line.split()
        t = time.perf_counter()
        for _ in range(int(number)):
            steps[mode]()
        print((time.perf_counter() - t) / int(number) * 1e3, flush=True)


def main():
    rng = np.random.RandomState(0)
    data = nd.array(rng.uniform(0, 1, (64, 1, 28, 28)))
    label = nd.array(rng.randint(0, 10, 64))
    if '--serve' in sys.argv:
        return serve(data, label)
    for name, hybrid in (('imperative', False), ('hybridized', True)):
        step = step_fn(lenet(hybrid), data, label)
        for _ in range(5):
            step()
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(30):
                step()
            runs.append((time.perf_counter() - t) / 30 * 1e3)
        print('MXNet %s %s LeNet step, batch 64: best %.2f ms, median %.2f ms'
              % (mx.__version__, name, min(runs), sorted(runs)[2]))


if __name__ == '__main__':
    main()
