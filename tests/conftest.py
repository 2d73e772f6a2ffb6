"""Test set-up: four CPU devices for multi-device tests, set before anything imports jax."""
import os

os.environ.setdefault('XLA_FLAGS', '--xla_force_host_platform_device_count=4')

import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture
def rng():
    return np.random.default_rng(0)
