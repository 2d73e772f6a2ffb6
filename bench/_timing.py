"""Timing helpers shared by the benchmarks: best-of-repeats median, in microseconds."""
import contextlib
import os
import statistics
import time


# gluonjax runs a signature's first 8 calls by cheaper means (the host, size buckets, a program
# compiled at XLA's optimisation level 0) and compiles the optimised program at the 9th: steady
# speed needs at least this many warm-up calls.
WARMUP_CALLS = 10


def runs_us(fn, number=2000, repeat=7, warmup=200):
    """The mean time of one call in each of ``repeat`` runs of ``number`` calls, in microseconds."""
    for _ in range(warmup):
        fn()
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t) / number * 1e6)
    return runs


def per_call_us(fn, number=2000, repeat=7, warmup=200):
    """Median over ``repeat`` runs of the mean time of one call, in microseconds."""
    return statistics.median(runs_us(fn, number, repeat, warmup))


def machine():
    import os
    import platform

    import jax
    device = jax.devices()[0]
    return '%s, %d cores, jax %s, %s (%s)' % (platform.processor() or platform.machine(), os.cpu_count(),
                                              jax.__version__, device.platform, device.device_kind)


@contextlib.contextmanager
def bench_device():
    """Runs the benchmark on ``gpu(0)`` where jax sees a GPU, else on ``cpu(0)`` (``BENCH_CTX=cpu``
    or ``gpu`` chooses): gluonjax's default context and jax's default device both, so that the
    hand-written JAX reference runs where gluonjax does."""
    import jax

    import gluonjax as mx
    from gluonjax.context import _jax_device
    kind = os.environ.get('BENCH_CTX') or ('gpu' if mx.context.num_gpus() else 'cpu')
    ctx = mx.Context(kind, 0)
    with ctx, jax.default_device(_jax_device(kind, 0)):
        yield ctx


class MXNetWorker:
    """A reference script of ``bench/mxnet_ref`` run by real MXNet in a subprocess, timing on request.

    The script prints MXNet's version, then answers each line ``MODE NUMBER`` with the milliseconds
    per call of NUMBER waited calls; the caller alternates these with its own runs, so that load on
    the machine hits both alike.
    """

    def __init__(self, python, script, *args):
        import os
        import subprocess
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'mxnet_ref', script)
        self.proc = subprocess.Popen([python, path] + [str(a) for a in args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.version = self.proc.stdout.readline().strip()

    def time_ms(self, mode, number):
        self.proc.stdin.write('%s %d\n' % (mode, number))
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
