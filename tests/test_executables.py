"""The bound on loaded programs (gluonjax/_executables.py): past the limit, the programs jax keeps
are released, so a process meeting ever new shapes does not run out of memory maps."""
import jax
import numpy as np
import pytest

from gluonjax import _executables, nd
from gluonjax.ops._kernel import kernel_for


def _maps():
    with open('/proc/self/maps') as f:
        return sum(1 for _ in f)


def _dot_on_new_shapes(n, check):
    rng = np.random.RandomState(0)
    b = rng.rand(3, 2).astype('float32')
    for rows in range(1, n + 1):  # a matrix product compiles a program per new shape
        a = rng.rand(rows, 3).astype('float32')
        np.testing.assert_allclose(nd.dot(nd.array(a), nd.array(b)).asnumpy(), a @ b, rtol=1e-5)
        check()


@pytest.mark.skipif(_executables.MAP_LIMIT is None, reason='reads the memory maps of the process')
def test_programs_are_released_when_the_maps_run_high(monkeypatch):
    _executables.sweep()
    limit = _executables.maps_in_use() + 150
    monkeypatch.setattr(_executables, 'MAP_LIMIT', limit)
    monkeypatch.setattr(_executables, 'CHECK_EVERY', 5)
    # 240 programs or more hold 700 maps or more without the sweeps
    _dot_on_new_shapes(240, lambda: None)
    assert _executables.maps_in_use() < limit + 100


def test_without_the_maps_programs_are_released_by_count(monkeypatch):
    monkeypatch.setattr(_executables, 'MAP_LIMIT', None)
    monkeypatch.setattr(_executables, 'LIMIT', 40)
    _executables.sweep()

    def check():
        assert _executables.loaded() <= 40 + 2
    _dot_on_new_shapes(120, check)


def test_no_sweep_inside_a_trace(monkeypatch):
    kernel = kernel_for('exp', {})
    monkeypatch.setattr(_executables, 'due', True)
    out = jax.jit(lambda x: kernel(x)[0])(np.float32([0.0, 1.0]))
    assert _executables.due  # the trace was in progress: the sweep waits
    np.testing.assert_allclose(np.asarray(out), np.exp([0.0, 1.0]), rtol=1e-6)
    nd.exp(nd.array([2.0])).asnumpy()
    assert not _executables.due and _executables.loaded() <= 2
