"""Test set-up: four CPU devices for multi-device tests, set before anything imports jax."""
import os

os.environ.setdefault('XLA_FLAGS', '--xla_force_host_platform_device_count=4')

import jax  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

# gluonjax's default context is cpu(0), as MXNet's; where a GPU is present, the references the
# tests compute with plain jax run on the host too (a GPU's float32 products are TF32 by default).
# tests/test_devices.py places its work on the GPU explicitly.
if any(d.platform != 'cpu' for d in jax.devices()):
    jax.config.update('jax_default_device', jax.devices('cpu')[0])


@pytest.fixture
def rng():
    return np.random.default_rng(0)


_compiles = []  # [count, names]: XLA compiles in this process, once the listener is registered


@pytest.fixture
def compiles():
    """A list holding the number of XLA compiles this process has run so far on the main thread,
    the ones a caller waits for (read ``compiles[0]`` before and after the work to count; the
    optimised programs compiled in the background, ops/_tiers.py, are not counted), then the
    compiled functions' names in order (``compiles[1]``, e.g. 'jit(elemwise_add)'); the listener
    is registered once per process."""
    if not _compiles:
        import threading
        from jax._src import monitoring
        _compiles.extend([0, []])

        def listener(event, duration, fun_name='', **kwargs):
            if (event == '/jax/core/compile/backend_compile_duration'
                    and threading.current_thread() is threading.main_thread()):
                _compiles[0] += 1
                _compiles[1].append(fun_name)
        monitoring.register_event_duration_secs_listener(listener)
    return _compiles


@pytest.fixture
def np_mode():
    """mx.np semantics (npx.set_np) for the test, reset after it."""
    from gluonjax import npx
    npx.set_np()
    yield
    npx.reset_np()
