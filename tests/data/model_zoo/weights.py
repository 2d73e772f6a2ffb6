"""Deterministic weights for the model-zoo checks, shared by generate.py (MXNet) and the tests.

Pure numpy: the i-th parameter of ``collect_params()`` gets values from ``RandomState(1000 + i)``,
scaled so that activations stay of order one through deep networks (He-scaled weights,
batch-norm statistics near the identity). Both frameworks set these same values, so their
outputs can be compared.
"""
import numpy as np


def make_weights(names_shapes):
    """Return ``{name: float32 array}`` for a list of ``(name, shape)`` in collect_params order."""
    out = {}
    for i, (name, shape) in enumerate(names_shapes):
        rs = np.random.RandomState(1000 + i)
        shape = tuple(shape)
        if name.endswith('weight') and len(shape) >= 2:
            fan_in = int(np.prod(shape[1:]))
            value = rs.standard_normal(shape) * np.sqrt(2.0 / fan_in)
        elif name.endswith('gamma') or name.endswith('running_var'):
            value = rs.uniform(0.8, 1.2, shape)
        else:  # bias, beta, running_mean
            value = rs.uniform(-0.1, 0.1, shape)
        out[name] = value.astype(np.float32)
    return out


def make_input(shape, seed=7):
    """A fixed input batch, values in [0, 1) like a normalised-ish image."""
    return np.random.RandomState(seed).uniform(0, 1, shape).astype(np.float32)
