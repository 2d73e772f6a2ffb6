"""Real MXNet 1.9.1's side of bench/bench_fixed_shapes.py, a worker subprocess (MXNET_PYTHON): prints MXNet's
version, then answers each line ``NAME NUMBER`` with the milliseconds per call of NUMBER calls of the work
``NAME`` of bench/_fixed_work.py. Not part of the project: it needs an MXNet install."""
import os
import sys
import time

import mxnet as mx

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _fixed_work import WORK, NUMBER  # noqa: E402


def main():
    runs = {name: make(mx) for name, make in WORK.items()}
    for name, run in runs.items():
        run(max(1, NUMBER[name] // 10))
    print(mx.__version__, flush=True)
    for line in sys.stdin:
        name, number = line.split()
        t = time.perf_counter()
        runs[name](int(number))
        print((time.perf_counter() - t) / int(number) * 1e3, flush=True)


if __name__ == '__main__':
    main()
