"""The random state on jax PRNG keys: ``mx.random.seed`` makes runs reproducible.

It lives with the operators (below NDArray), since every random operator call takes
its key here; ``gluonjax/random.py`` is the user-facing ``mx.random`` above it.

Each context has its own key; every random operator takes the next key from a
split, so eager random calls are reproducible after ``seed``.
"""
import jax
import numpy as np

from .._x64 import x64
from ..context import Context, current_context

__all__ = ['seed', 'next_key']

_keys = {}
_seed_value = [np.random.SeedSequence().entropy % (2 ** 31)]


@jax.jit
def _split(key):
    k1, k2 = jax.random.split(key)
    return k1, k2


@x64  # keys from seeds as before x64 became gluonjax's own (PRNGKey reads a 64-bit seed)
def seed(seed_state, ctx='all'):
    """Seed the random number generators (all contexts, or one context)."""
    if ctx == 'all':
        _keys.clear()
        _seed_value[0] = int(seed_state)
    else:
        ctx = Context(ctx)
        _keys[ctx] = jax.device_put(jax.random.PRNGKey(int(seed_state)), ctx.jax_device)
    # NumPy's global generator is left alone, as MXNet leaves it


@x64
def next_key(ctx=None):
    """A fresh PRNG key on ``ctx``'s device."""
    ctx = ctx or current_context()
    key = _keys.get(ctx)
    if key is None:
        key = jax.device_put(jax.random.PRNGKey(_seed_value[0] + 7919 * ctx.device_id
                                                + (104729 if ctx.device_type == 'gpu' else 0)),
                             ctx.jax_device)
    key, sub = _split(key)
    _keys[ctx] = key
    return sub
