"""The bound on loaded programs (gluonjax/_executables.py): past the limit, the programs jax keeps
are released, so a process meeting ever new shapes does not run out of memory maps."""
import os
import sys

import jax
import numpy as np
import pytest

from gluonjax import _executables, nd
from gluonjax.ops._kernel import kernel_for


def _maps():
    with open('/proc/self/maps') as f:
        return sum(1 for _ in f)


@pytest.mark.skipif(not sys.platform.startswith('linux') or not os.path.exists('/proc/self/maps'),
                    reason='counts the memory maps of the process')
def test_programs_past_the_limit_are_released(monkeypatch):
    monkeypatch.setattr(_executables, 'LIMIT', 40)
    _executables.sweep()
    rng = np.random.RandomState(0)
    b = rng.rand(3, 2).astype('float32')
    before = _maps()
    for rows in range(1, 241):  # a matrix product compiles a program per new shape
        a = rng.rand(rows, 3).astype('float32')
        np.testing.assert_allclose(nd.dot(nd.array(a), nd.array(b)).asnumpy(), a @ b, rtol=1e-5)
        assert _executables.loaded() <= 40 + 2
    # without the sweeps: 240 programs or more, three maps each
    assert _maps() - before < 3 * 120


def test_no_sweep_inside_a_trace(monkeypatch):
    kernel = kernel_for('exp', {})
    monkeypatch.setattr(_executables, 'due', True)
    out = jax.jit(lambda x: kernel(x)[0])(np.float32([0.0, 1.0]))
    assert _executables.due  # the trace was in progress: the sweep waits
    np.testing.assert_allclose(np.asarray(out), np.exp([0.0, 1.0]), rtol=1e-6)
    nd.exp(nd.array([2.0])).asnumpy()
    assert not _executables.due and _executables.loaded() <= 2
