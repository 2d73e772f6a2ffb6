"""MXNet 1.9.1 reference for bench/bench_kvstore.py parts 1 and 2 (run with the reference interpreter:
/tmp/mxref/bin/python bench/mxnet_ref/kvstore.py). Same work: push from cpu(0..3) and pull back onto
them, waiting for the results; best and median of 11 repeats of 20 rounds, in microseconds."""
import os
import sys

import mxnet as mx

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _timing import runs_us  # noqa: E402


def timed(fn, number, repeat=11, warmup=5):
    runs = sorted(runs_us(fn, number, repeat, warmup))
    return runs[0], runs[len(runs) // 2]


def main():
    ctxs = [mx.cpu(i) for i in range(4)]
    for kind in ('local', 'device'):
        kv = mx.kv.create(kind)
        kv.init(0, mx.nd.zeros((1000, 1000)))
        vals = [mx.nd.ones((1000, 1000), ctx=c) for c in ctxs]
        outs = [mx.nd.zeros((1000, 1000), ctx=c) for c in ctxs]

        def big():
            kv.push(0, vals)
            kv.pull(0, out=outs)
            mx.nd.waitall()
        keys = list(range(1, 101))
        kv.init(keys, [mx.nd.zeros((1000,)) for _ in keys])
        kvals = [[mx.nd.ones((1000,), ctx=c) for c in ctxs] for _ in keys]
        kouts = [[mx.nd.zeros((1000,), ctx=c) for c in ctxs] for _ in keys]

        def hundred():
            kv.push(keys, kvals)
            kv.pull(keys, out=kouts)
            mx.nd.waitall()
        print('MXNet %s %r store: one (1000,1000) key push+pull  best %6.0f us  median %6.0f us'
              % ((mx.__version__, kind) + timed(big, 20)))
        print('MXNet %s %r store: 100 keys of (1000,) push+pull   best %6.0f us  median %6.0f us'
              % ((mx.__version__, kind) + timed(hundred, 20)))


if __name__ == '__main__':
    main()
