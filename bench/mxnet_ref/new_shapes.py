"""bench/bench_new_shapes.py's work on real MXNet 1.9.1 (run by it when MXNET_PYTHON names a
python with MXNet, e.g. /tmp/mxref/bin/python; never part of the project). Prints one JSON line."""
import json
import os
import sys

import mxnet as mx
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench_new_shapes import EXPRESSIONS, eager, lstm  # noqa: E402  (the same workload, on MXNet's modules)

if __name__ == '__main__':
    rng = np.random.RandomState(0)
    times = {name: eager(mx.nd, rng, expression) for name, expression in EXPRESSIONS.items()}
    passes, _ = lstm(mx, rng)
    print(json.dumps({'version': mx.__version__, 'eager': times, 'lstm': passes}))
