"""MXNet's profiler example, on gluonjax: thousands of small eager operators under ``mx.profiler``.

    python examples/profile_eager.py [--iterations 1000] [--out profile_eager.json]

Runs the same loop of small NDArray operators (elementwise arithmetic, dot, reductions) with the
profiler off and then on, prints both times, MXNet's aggregate table (``profiler.dumps()``) and
writes the Chrome trace (open it in https://ui.perfetto.dev or chrome://tracing).
"""
import argparse
import time

import gluonjax as mx
from gluonjax import nd, profiler


def small_ops(iterations):
    """Eight small operators per iteration, in a Domain frame per iteration; their count."""
    a, b = nd.ones((16, 16)), nd.full((16, 16), 0.5)
    domain = profiler.Domain('example')
    counter = profiler.Counter(domain, 'iterations', 0)
    for _ in range(iterations):
        frame = profiler.Frame(domain, 'iteration')
        frame.start()
        c = a * b + 1
        d = nd.dot(c, b)
        a = nd.relu(d - c).sum(axis=1, keepdims=True) * 0.001 + a
        frame.stop()
        counter += 1
    a.wait_to_read()
    return 8 * iterations


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--iterations', type=int, default=1000)
    parser.add_argument('--out', default='profile_eager.json')
    args = parser.parse_args()
    for _ in range(3):  # a new shape runs on the host twice, then compiles: time the steady state
        small_ops(5)
    start = time.perf_counter()
    count = small_ops(args.iterations)
    off = time.perf_counter() - start
    profiler.set_config(profile_all=True, aggregate_stats=True, filename=args.out)
    profiler.set_state('run')
    start = time.perf_counter()
    small_ops(args.iterations)
    on = time.perf_counter() - start
    profiler.set_state('stop')
    print(profiler.dumps(sort_by='count'))
    start = time.perf_counter()
    profiler.dump()
    print('%d operator calls: %.1f us each with the profiler off, %.1f us on; trace written to %s in %.2f s'
          % (count, off / count * 1e6, on / count * 1e6, args.out, time.perf_counter() - start))


if __name__ == '__main__':
    main()
