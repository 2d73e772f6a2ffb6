"""GluonCV's ResNet-50 v1 inference, batch 1, 224 x 224, hybridized: gluonjax against real MXNet.

    python bench/bench_gluoncv.py [--mxnet-python /tmp/mxref-gluoncv/bin/python]

The same code runs twice: here on gluonjax (``import mxnet`` resolved to it), and in a subprocess
on the given interpreter with MXNet 1.9.1 and gluoncv 0.10.5 installed (skipped, with a note, when
it does not exist). Each side builds ``resnet50_v1`` from ``gluoncv.model_zoo``, hybridizes it, runs
warm-up calls and reports the median of the per-call times of several runs, every call waited for.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

DEFAULT_MXNET_PYTHON = '/tmp/mxref-gluoncv/bin/python'


def forward_ms(runs=5, number=10, warmup=10):
    """Median per-call milliseconds of a hybridized ResNet-50 v1 forward on the mxnet in use."""
    import mxnet as mx
    import numpy as np
    from gluoncv import model_zoo
    net = model_zoo.get_model('resnet50_v1', pretrained=False)
    net.initialize(mx.init.Xavier())
    net.hybridize(static_alloc=True, static_shape=True)
    x = mx.nd.array(np.random.RandomState(0).uniform(0, 1, (1, 3, 224, 224)))
    for _ in range(warmup):
        net(x).wait_to_read()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(number):
            net(x).wait_to_read()
        times.append((time.perf_counter() - t) / number * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--mxnet-python', default=DEFAULT_MXNET_PYTHON)
    parser.add_argument('--child', action='store_true', help='time real MXNet (run by the parent)')
    args = parser.parse_args()
    if args.child:
        print('%.3f' % forward_ms())
        return
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    import gluonjax
    gluonjax.alias_as_mxnet()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _timing import machine
    print('machine: %s' % machine())
    ours = forward_ms()
    print('gluonjax   resnet50_v1 forward, batch 1, 224: %8.2f ms' % ours)
    if not os.path.exists(args.mxnet_python):
        print('MXNet: %s not found (an MXNet 1.9.1 + gluoncv 0.10.5 interpreter); no ratio' % args.mxnet_python)
        return
    res = subprocess.run([args.mxnet_python, os.path.abspath(__file__), '--child'], capture_output=True,
                         text=True, check=True)
    theirs = float(res.stdout.strip().splitlines()[-1])
    print('MXNet 1.9.1 resnet50_v1 forward, batch 1, 224: %8.2f ms' % theirs)
    print('ratio gluonjax / MXNet: %.2f' % (ours / theirs))


if __name__ == '__main__':
    main()
