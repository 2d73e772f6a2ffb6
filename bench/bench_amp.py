"""Mixed precision (mx.contrib.amp) against float32: the hybridized ResNet-18 (model zoo, 10
classes) train step, SGD with momentum, on the GPU where jax sees one, else the CPU. Issue 16
asks AMP to be faster on a GPU; on a CPU it must only train correctly (tests/test_amp.py), and
float16 is usually slower there.

    python bench/bench_amp.py [--batch 64] [--size 64] [--steps 20] [--target float16]

Each precision runs in its own process (amp.init is once per process, as in MXNet); the
script prints each one's median step and the ratio.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def step_times(target, batch, size, steps):
    """Seconds of each train step after warm-up, in ``target`` precision ('float32': no AMP)."""
    import numpy as np

    import gluonjax as mx
    from gluonjax import autograd, gluon
    from gluonjax.contrib import amp
    from _timing import WARMUP_CALLS, bench_device
    if target != 'float32':
        amp.init(target)
    with bench_device() as ctx:
        net = gluon.model_zoo.vision.resnet18_v1(classes=10)
        net.initialize(mx.init.Xavier(), ctx=ctx)
        net.hybridize()
        trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.01, 'momentum': 0.9})
        if target != 'float32':
            amp.init_trainer(trainer)
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        rng = np.random.RandomState(0)
        x = mx.nd.array(rng.rand(batch, 3, size, size), ctx=ctx)
        y = mx.nd.array(rng.randint(0, 10, batch), ctx=ctx)
        times = []
        for i in range(WARMUP_CALLS + steps):
            t = time.perf_counter()
            with autograd.record():
                loss = loss_fn(net(x), y)
                if target != 'float32':
                    with amp.scale_loss(loss, trainer) as scaled:
                        autograd.backward(scaled)
                else:
                    loss.backward()
            trainer.step(batch)
            loss.wait_to_read()
            if i >= WARMUP_CALLS:
                times.append(time.perf_counter() - t)
        return times, float(loss.mean().asscalar())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--batch', type=int, default=64)
    parser.add_argument('--size', type=int, default=64)
    parser.add_argument('--steps', type=int, default=20)
    parser.add_argument('--target', default='float16', choices=('float16', 'bfloat16'))
    parser.add_argument('--one', help=argparse.SUPPRESS)  # internal: run one precision, print JSON
    args = parser.parse_args()
    sys.path.insert(0, HERE)
    if args.one:
        times, loss = step_times(args.one, args.batch, args.size, args.steps)
        print(json.dumps({'median_ms': 1e3 * statistics.median(times), 'loss': loss}))
        return
    from _timing import machine
    print('machine: %s' % machine())
    found = {}
    for target in ('float32', args.target):
        out = subprocess.run([sys.executable, __file__, '--one', target, '--batch', str(args.batch),
                              '--size', str(args.size), '--steps', str(args.steps)],
                             capture_output=True, text=True, timeout=1800)
        if out.returncode != 0:
            print('%s failed: %s' % (target, out.stderr.strip().splitlines()[-1:]))
            return
        found[target] = json.loads(out.stdout.strip().splitlines()[-1])
        print('ResNet-18 train step, batch %d, %dx%d, %s: median %.1f ms (last loss %.3f)'
              % (args.batch, args.size, args.size, target, found[target]['median_ms'], found[target]['loss']))
    print('AMP %s / float32: %.2f' % (args.target, found[args.target]['median_ms'] / found['float32']['median_ms']))


if __name__ == '__main__':
    main()
