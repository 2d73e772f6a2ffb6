"""Random samplers, a quarter of a million to a million draws: the first call in a new process
(compiles included; a fresh compilation cache folder) and the steady call, for gluonjax, jax.random
(jitted by hand) and, with MXNET_PYTHON, real MXNet 1.9.1, each case in a process of its own.

    python bench/bench_random.py           # MXNET_PYTHON=/tmp/mxref/bin/python adds MXNet 1.9.1

The draws are MXNet's test_random sizes: (500, 500) with number parameters, and (2, 2) parameter
arrays with (500, 500) draws each ("multi"). jax.random has no negative binomial.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPE = (500, 500)
MULTI = {'gamma': ([[1, 2.5], [4.5, 9.75]], [[0.1, 1.2], [0.8, 3.1]]), 'poisson': ([[1, 8.5], [11.0, 0.5]],),
         'negative_binomial': ([[3, 4], [5, 6]], [[0.4, 0.77], [0.5, 0.84]])}
CASES = {  # name: (distribution, number parameters or None for MULTI's arrays)
    'normal': ('normal', (10.0, 0.5)), 'gamma': ('gamma', (9.0, 0.5)), 'poisson': ('poisson', (4.0,)),
    'negative_binomial': ('negative_binomial', (3, 0.4)),  # k: an int in MXNet
    'gamma multi': ('gamma', None), 'poisson multi': ('poisson', None), 'negative_binomial multi': ('negative_binomial', None),
}


def _mxnet_like(mx, dist, numbers):
    """A call drawing the case with ``mx`` (gluonjax or MXNet: the same API), waited for."""
    sample = getattr(mx.nd.random, dist)
    args = numbers if numbers is not None else [mx.nd.array(v) for v in MULTI[dist]]
    return lambda: sample(*args, shape=SHAPE).wait_to_read()


def _jax(dist, numbers):
    import jax
    import jax.numpy as jnp
    if dist == 'negative_binomial':
        return None
    shape = SHAPE if numbers is not None else (2, 2) + SHAPE
    params = [jnp.asarray(v, jnp.float32) for v in (numbers if numbers is not None else MULTI[dist])]
    if numbers is None:
        params = [p.reshape(2, 2, 1, 1) for p in params]
    draw = {'normal': lambda k, loc, scale: loc + scale * jax.random.normal(k, shape),
            'gamma': lambda k, a, b: jax.random.gamma(k, a, shape) * b,
            'poisson': lambda k, lam: jax.random.poisson(k, lam, shape)}[dist]
    fn = jax.jit(draw)
    keys = iter(jax.random.split(jax.random.PRNGKey(0), 64))
    return lambda: fn(next(keys), *params).block_until_ready()


def one(engine, case):
    """{first, steady}: ms of the first call and the median of the next five, in this process."""
    dist, numbers = CASES[case]
    if engine == 'jax':
        call = _jax(dist, numbers)
        if call is None:
            return None
    else:
        import mxnet as mx  # gluonjax resolves it for engine 'gluonjax' (see main)
        call = _mxnet_like(mx, dist, numbers)
    times = []
    for _ in range(6):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return {'first': times[0], 'steady': statistics.median(times[1:])}


def run(python, engine, case):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, GLUONJAX_CACHE_DIR=cache, JAX_COMPILATION_CACHE_DIR=cache)
        out = subprocess.run([python, __file__, '--one', engine, case], capture_output=True, text=True,
                             env=env, timeout=900)
    if out.returncode != 0:
        return 'failed: %s' % (out.stderr.strip().splitlines() or ['?'])[-1]
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    if sys.argv[1:2] == ['--one']:
        engine, case = sys.argv[2], sys.argv[3]
        if engine == 'gluonjax':
            sys.path.insert(0, os.path.dirname(HERE))
            from gluonjax import alias_as_mxnet
            alias_as_mxnet()
        print(json.dumps(one(engine, case)))
        return
    sys.path.insert(0, HERE)
    from _timing import machine
    print('machine: %s' % machine())
    engines = [('gluonjax', sys.executable), ('jax', sys.executable)]
    if os.environ.get('MXNET_PYTHON'):
        engines.append(('mxnet', os.environ['MXNET_PYTHON']))
    print('ms per call, first (new process, empty compilation cache) / steady (median of the next 5)')
    print('%-26s' % 'draw' + ''.join('%22s' % e for e, _ in engines))
    for case in CASES:
        cells = []
        for engine, python in engines:
            r = run(python, engine, case)
            cells.append('-' if r is None else r if isinstance(r, str) else '%.0f / %.1f' % (r['first'], r['steady']))
        print('%-26s' % case + ''.join('%22s' % c for c in cells), flush=True)


if __name__ == '__main__':
    main()
