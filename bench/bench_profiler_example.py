"""Thousands of small eager operators on ever-new shapes, as in MXNet's NDArray profiler example.

    python bench/bench_profiler_example.py     # MXNET_PYTHON=/tmp/mxref/bin/python adds MXNet 1.9.1
    python bench/bench_profiler_example.py --no-jax   # without the (slow) jax eager column

MXNet's ``example/profiler/profiler_ndarray.py`` exercises NDArray the way test scripts and
notebooks do: elementwise arithmetic in five dtypes on random shapes, ``sqrt``/``square``/``norm``,
``broadcast_to`` on 1000 random shapes, ``sum``/``max``/``min`` over random axes on 200 random
shapes each, slicing, ``clip``, ``dot``, each result read back. Nearly every call meets a shape
it has not seen, so what it measures is the cost of a first call. This file writes that kind of
work itself (the same operator mix and shape ranges, its own code) and runs it three ways in one
run: gluonjax, jax eager (``jax.numpy`` calls, the same operators, results read back), and, with
MXNET_PYTHON, real MXNet 1.9.1 in a subprocess (``python bench/bench_profiler_example.py
--worker``). Each part prints its seconds; the target of issue 18 is the total at most MXNet's.
The persistent compilation cache is off, as in a first run.
"""
import json
import os
import subprocess
import sys
import time

import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = ('float32', 'float64', 'float16', 'uint8', 'int32')


class JaxNd:
    """The few ``mx.nd`` calls of the workload, written with ``jax.numpy`` (the jax eager column)."""

    def __init__(self):
        import jax.numpy as jnp
        self.jnp = jnp

    def array(self, a, dtype=None):
        return self.jnp.asarray(a, dtype=dtype or np.float32)

    def sqrt(self, x):
        return self.jnp.sqrt(x)

    def square(self, x):
        return self.jnp.square(x)

    def norm(self, x):
        return self.jnp.linalg.norm(x.ravel())

    def broadcast_to(self, x, shape):
        return self.jnp.broadcast_to(x, shape)

    def reduce(self, name, x, axis, keepdims):
        return getattr(self.jnp, name)(x, axis=axis, keepdims=keepdims)

    def clip(self, x, lo, hi):
        return self.jnp.clip(x, lo, hi)

    def dot(self, a, b):
        return self.jnp.dot(a, b)

    @staticmethod
    def host(x):
        return np.asarray(x)


class MxNd:
    """The same calls on an ``mx.nd`` module (gluonjax's or MXNet's)."""

    def __init__(self, nd):
        self.nd = nd

    def array(self, a, dtype=None):
        return self.nd.array(a, dtype=dtype or np.float32)

    def sqrt(self, x):
        return self.nd.sqrt(x)

    def square(self, x):
        return self.nd.square(x)

    def norm(self, x):
        return self.nd.norm(x)

    def broadcast_to(self, x, shape):
        return x.broadcast_to(shape=shape)

    def reduce(self, name, x, axis, keepdims):
        return getattr(self.nd, name)(x, axis=axis, keepdims=keepdims)

    def clip(self, x, lo, hi):
        return self.nd.clip(x, lo, hi)

    def dot(self, a, b):
        return self.nd.dot(a, b)

    @staticmethod
    def host(x):
        return x.asnumpy()


def random_shape(rng, ndim, high):
    return tuple(int(s) for s in rng.randint(1, high, size=ndim))


def elementwise(nd, rng, repeats=10):
    """+ - * / in five dtypes, sqrt, square and norm on random shapes of 1-3 dimensions."""
    for _ in range(repeats):
        for ndim in (1, 2, 3):
            shape = random_shape(rng, ndim, int(1000 ** (1.0 / ndim)))
            for dtype in DTYPES:
                a = rng.uniform(1, 10, shape).astype(dtype)
                b = rng.uniform(1, 10, shape).astype(dtype)
                x, y = nd.array(a, dtype), nd.array(b, dtype)
                for out in (x + y, x - y, x * y, x / y):
                    nd.host(out)
            x = nd.array(rng.uniform(0, 10, shape))
            nd.host(nd.sqrt(x)), nd.host(nd.square(x)), nd.host(nd.norm(x)).reshape(-1)[0]


def broadcasts(nd, rng, samples=1000):
    """broadcast_to from a shape with random axes of length 1, 1-5 dimensions of length 1-10."""
    for _ in range(samples):
        target = random_shape(rng, rng.randint(1, 6), 11)
        shape = tuple(1 if flag else s for s, flag in zip(target, rng.randint(0, 2, len(target))))
        nd.host(nd.broadcast_to(nd.array(rng.rand(*shape) - 0.5), target))


def reductions(nd, rng, samples=200):
    """sum, max and min over random axes (keepdims or not) of random 1-5 dimensional shapes."""
    for name in ('sum', 'max', 'min'):
        for _ in range(samples):
            shape = random_shape(rng, rng.randint(1, 6), 11)
            axes = tuple(i for i, flag in enumerate(rng.randint(0, 2, len(shape))) if flag)
            x = nd.array(rng.rand(*shape) - 0.5)
            nd.host(nd.reduce(name, x, axes or None, bool(rng.randint(0, 2))))


def the_rest(nd, rng):
    """Slices, clip and dot, a few calls each."""
    x = nd.array(rng.uniform(-10, 10, (3, 4, 2, 3)))
    nd.host(x[:, 1:3]), nd.host(x[1])
    nd.host(nd.clip(nd.array(rng.uniform(-10, 10, (10,))), -2, 2))
    nd.host(nd.dot(nd.array(rng.rand(3, 4)), nd.array(rng.rand(4, 5))))


PARTS = (('elementwise', elementwise), ('broadcast_to', broadcasts), ('reductions', reductions),
         ('slices/clip/dot', the_rest))


def run_parts(nd):
    rng = np.random.RandomState(0)
    seconds = {}
    for name, part in PARTS:
        start = time.perf_counter()
        part(nd, rng)
        seconds[name] = time.perf_counter() - start
    return seconds


def mxnet_seconds():
    python = os.environ.get('MXNET_PYTHON')
    if not python:
        return None
    out = subprocess.run([python, os.path.abspath(__file__), '--worker'], capture_output=True, text=True,
                         timeout=3600)
    if out.returncode != 0:
        print('MXNet reference failed: %s' % out.stderr.strip().splitlines()[-1:])
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    if '--worker' in sys.argv:  # real MXNet's run, in MXNET_PYTHON's process
        import mxnet as mx
        seconds = run_parts(MxNd(mx.nd))
        print(json.dumps({'version': mx.__version__, 'seconds': seconds}))
        return
    os.environ['GLUONJAX_COMPILATION_CACHE'] = '0'
    sys.path.insert(0, HERE)
    from _timing import machine
    print('machine: %s' % machine())
    reference = mxnet_seconds()
    import gluonjax
    ours = run_parts(MxNd(gluonjax.nd))
    print('gluonjax: %s (total %.2f s)' % (', '.join('%s %.2f' % kv for kv in ours.items()), sum(ours.values())),
          flush=True)
    if '--no-jax' in sys.argv:  # jax eager compiles every shape: minutes, more on a GPU
        jax_eager = {name: float('nan') for name, _ in PARTS}
    else:
        with warnings.catch_warnings():  # jax without x64 warns on every float64 request
            warnings.simplefilter('ignore')
            jax_eager = run_parts(JaxNd())
    print('%-16s %10s %10s %10s %12s' % ('part (seconds)', 'gluonjax', 'jax eager', 'MXNet', 'vs MXNet'))
    for name, _ in PARTS + (('total', None),):
        pick = (lambda s: sum(s.values())) if name == 'total' else (lambda s, n=name: s[n])
        mx_s = pick(reference['seconds']) if reference else float('nan')
        print('%-16s %10.2f %10.2f %10.2f %12.2f' % (name, pick(ours), pick(jax_eager), mx_s, pick(ours) / mx_s))
    if reference:
        print('MXNet %s; target: gluonjax total at most MXNet\'s' % reference['version'])


if __name__ == '__main__':
    if '--worker' in sys.argv:  # real MXNet's process: no gluonjax there
        main()
        sys.exit()
    os.environ['GLUONJAX_COMPILATION_CACHE'] = '0'  # before gluonjax is imported
    sys.path.insert(0, HERE)
    from _timing import bench_device
    with bench_device():
        main()
