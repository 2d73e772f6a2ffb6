"""``mx.npx.random``: seeding (sampling functions are in ``mx.np.random``)."""


def seed(seed, ctx='all'):  # noqa: A002 (MXNet's name)
    """Seed the random number generators (as ``mx.random.seed``)."""
    from .. import random as _random
    _random.seed(seed, ctx=ctx)
