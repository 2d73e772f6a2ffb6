"""Programs whose cheap compile was costly stay in the cheap tier while that pays.

A signature's first ``_host.HOST_CALLS`` calls run the program compiled at XLA's backend
optimisation level 0 and later calls the fully optimised one (ops/_tiers.py). For a small
program the second compile costs milliseconds; for a large one (a hybridized graph unrolling a
loop: GluonTS's DeepState compiles a 48-step Kalman filter and its backward) it costs as much as
the first or more (tens of seconds), while its faster code saves milliseconds per call: a
20-step training run paid minutes for a tier it used for 12 steps.

So, as a JIT compiler weighs a recompile against the time the code runs (a ski rental: never
pay more than twice the best choice in hindsight), a signature whose first (cheap) call took
``COSTLY_S`` seconds or more stays in the cheap tier until its later cheap calls have together
run as long as that first call took; only then does it move to the optimised tier. Its cheap
calls are timed to completion (they wait for their results); other signatures are untouched.
"""
import time

import jax

from .. import _caches

__all__ = ['weighed', 'stays_cold', 'timed']

COSTLY_S = 2.0  # seconds: below this, a signature follows the usual count of first calls
_budget = _caches.lru_cache('costly.cold_budgets', 1024)  # signature -> [seconds left in the cheap tier]


def weighed(tiered, signature):
    """``signature`` where ``tiered`` (an ops._tiers.Tiered) has two tiers to choose between, else
    None (an accelerator, GLUONJAX_COLD_COMPILE=0: nothing to weigh, no call waits)."""
    return signature if tiered.cold is not tiered.hot else None


def stays_cold(signature):
    """Whether ``signature``, whose cheap compile was costly, still runs in the cheap tier."""
    if signature is None:
        return False
    left = _budget.get(signature)
    return left is not None and left[0] > 0


def timed(signature, cold, call):
    """``call()``'s result; where it ran a cheap tier (``cold``), its time counts: a first call
    taking ``COSTLY_S`` or more opens the signature's budget, later ones spend it."""
    if not cold or signature is None:
        return call()
    left = _budget.get(signature)
    start = time.perf_counter()
    out = call()
    if left is None and time.perf_counter() - start < COSTLY_S:
        return out  # the dispatch returned quickly: nothing compiled here worth weighing
    jax.block_until_ready(out)
    took = time.perf_counter() - start
    if left is None:
        if took >= COSTLY_S:
            _budget[signature] = [took]
    else:
        left[0] -= took
    return out
