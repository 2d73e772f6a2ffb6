"""Timing helpers shared by the benchmarks: best-of-repeats median, in microseconds."""
import statistics
import time


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
    return '%s, %d cores, jax %s, %s' % (platform.processor() or platform.machine(), os.cpu_count(),
                                         jax.__version__, jax.devices()[0].platform)


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
