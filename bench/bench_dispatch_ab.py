"""Eager dispatch cost of two gluonjax trees, side by side: ``a + b`` on 4x4 arrays.

    git archive <old commit> gluonjax | tar -x -C /tmp/old_pkg
    python bench/bench_dispatch_ab.py /tmp/old_pkg .  [--rounds 6]

Each tree runs in its own processes, alternating, and each process reports its best process
CPU time per call (less disturbed than wall time on a shared machine); printed: min and median
over the rounds. Used to check that a hook in ``ndarray.invoke`` (the profiler's, AMP's) costs
nothing measurable while it is off.
"""
import argparse
import os
import statistics
import subprocess
import sys

_CHILD = '''
import time, gluonjax as mx
a, b = mx.nd.ones((4, 4)), mx.nd.ones((4, 4))
for _ in range(300):
    a + b
(a + b).wait_to_read()
best = float('inf')
for _ in range(15):
    start = time.process_time()
    for _ in range(2000):
        a + b
    best = min(best, (time.process_time() - start) / 2000)
print(best * 1e6)
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('trees', nargs=2, help='folders holding a gluonjax package')
    parser.add_argument('--rounds', type=int, default=6)
    args = parser.parse_args()
    times = {tree: [] for tree in args.trees}
    for _ in range(args.rounds):
        for tree in args.trees:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
            out = subprocess.run([sys.executable, '-c', _CHILD], env=env, check=True,
                                 capture_output=True, text=True).stdout
            times[tree].append(float(out.split()[-1]))
    for tree, values in times.items():
        print('%-30s a + b: min %.2f us, median %.2f us (process CPU time per call)'
              % (tree, min(values), statistics.median(values)))


if __name__ == '__main__':
    main()
