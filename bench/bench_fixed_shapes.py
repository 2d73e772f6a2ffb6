"""Issue 18's fixed-shape rows, gluonjax against real MXNet 1.9.1 in one run.

    MXNET_PYTHON=/tmp/mxref/bin/python python bench/bench_fixed_shapes.py [--rounds 5]

The work (bench/_fixed_work.py, written once on MXNet's API and run by both): eager ``a + b`` on
(3, 3); ``(a*b+c).sum()`` recorded and ``backward()``; an MLP 784-256-256-10 train step (batch 64)
and a 2-layer LSTM(128) tagger's train step at one length (batch 16, length 20), both hybridized
with SGD; a KVStore push and pull of 100 keys of (1000,) over 4 CPU devices ('device'). Each
round times every work on gluonjax, then on MXNet (a worker subprocess, bench/mxnet_ref), so
load on the machine hits both alike; the medians over rounds are printed with their ratio. The
script sets ``--xla_force_host_platform_device_count=4`` itself (MXNet's cpu(0..3) are one CPU).
"""
import argparse
import os
import statistics
import sys
import time

os.environ['XLA_FLAGS'] = (os.environ.get('XLA_FLAGS', '') + ' --xla_force_host_platform_device_count=4').strip()
sys.path.insert(0, os.path.dirname(__file__))
import gluonjax as mx  # noqa: E402
from _fixed_work import NUMBER, WORK  # noqa: E402
from _timing import MXNetWorker, machine  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--rounds', type=int, default=5)
    args = ap.parse_args()
    runs = {name: make(mx) for name, make in WORK.items()}
    for name, run in runs.items():  # past the first calls: compiled, optimised programs
        run(max(20, NUMBER[name] // 5))
    python = os.environ.get('MXNET_PYTHON')
    worker = MXNetWorker(python, 'fixed_shapes.py') if python else None
    ours, theirs = {n: [] for n in runs}, {n: [] for n in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            t = time.perf_counter()
            run(NUMBER[name])
            ours[name].append((time.perf_counter() - t) / NUMBER[name] * 1e3)
            if worker:
                theirs[name].append(worker.time_ms(name, NUMBER[name]))
    print('machine: %s' % machine())
    against = ' (MXNet %s)' % worker.version if worker else ''
    print('fixed shapes, median of %d rounds, per call%s:' % (args.rounds, against))
    for name in runs:
        mine = statistics.median(ours[name])
        unit, scale = ('us', 1e3) if mine < 1 else ('ms', 1)
        line = '  %-18s gluonjax %9.2f %s' % (name, mine * scale, unit)
        if worker:
            ref = statistics.median(theirs[name])
            line += '   MXNet %9.2f %s   ratio %.2f' % (ref * scale, unit, mine / ref)
        print(line)
    if worker:
        worker.close()


if __name__ == '__main__':
    main()
