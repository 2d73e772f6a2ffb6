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
