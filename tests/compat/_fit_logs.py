"""What the sweep_module_* scripts share (a module they import, not a script of its own:
names starting with '_' are skipped): Module.fit's log lines on stdout with the numbers that
depend on the clock replaced, a temporary working folder for the checkpoint files they write,
and the helpers that print a result or the type of the exception it raised."""
import logging
import os
import re
import sys
import tempfile

import numpy as np


class Steady(logging.Filter):
    """Replace the numbers that depend on the clock (speed, time cost) with 'N'."""

    def steady(self, msg):
        msg = re.sub(r'Speed: [0-9.]+', 'Speed: N', msg)
        return re.sub(r'Time cost=[0-9.]+', 'Time cost=N', msg)

    def filter(self, record):
        record.msg, record.args = self.steady(record.getMessage()), None
        return True


def log_to_stdout(steady=Steady):
    """INFO logs as bare lines on stdout through ``steady``, and a fresh working folder."""
    logging.basicConfig(level=logging.INFO, format='%(message)s', stream=sys.stdout)
    logging.getLogger().handlers[0].addFilter(steady())
    os.chdir(tempfile.mkdtemp())


def attempt(f):
    try:
        v = f()
        print(v if isinstance(v, (str, int, float, list, tuple, type(None))) else type(v).__name__)
    except Exception as e:
        print(type(e).__name__)


def r(a, k=4):
    return np.round(a.asnumpy().astype('float64'), k).tolist()
