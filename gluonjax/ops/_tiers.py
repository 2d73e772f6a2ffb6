"""First calls compiled cheaply: a program in two tiers, as a JIT compiler keeps its code.

Most of the time XLA's CPU backend spends on a small program goes to LLVM's optimisations. At
XLA's backend optimisation level 0 the programs gluonjax makes compile 1.3-3.4x faster (on this
project's 2-core CPU: an LSTM's gradient 561 -> 283 ms, a batched matmul's vjp 51 -> 21 ms, three
fused transcendental functions 158 -> 46 ms) and run 1.2-4.6x slower. Most signatures a program
meets are called a few times (a shape of a data-dependent size, one executor per configuration
of a test, a notebook cell); a training loop calls one signature thousands of times. So a
signature's first ``HOST_CALLS`` calls (the count of ``_host.first_call``, which also decides
when an operator stops running on the host) run the program compiled at level 0, and a signature
that keeps coming back is compiled with XLA's full optimisation, as before.

The two programs compute the same operations, but LLVM fuses a multiply and an add into one
rounding (FMA) only when it optimises: a first call's result may differ in its last bit from a
later call's (docs/MIGRATING.md), as the padded first calls of ``_host`` may. Only the CPU has
two tiers: on a GPU the option's costs and gains were not measured. ``GLUONJAX_COLD_COMPILE=0``
compiles every signature fully at once.
"""
import os

import jax

from . import _host

__all__ = ['Tiered', 'COLD_OPTIONS', 'signature_of']

COLD_OPTIONS = {'xla_backend_optimization_level': 0}
_ENABLED = os.environ.get('GLUONJAX_COLD_COMPILE', '1').strip().lower() not in ('0', 'false', 'off', 'no')
_state = {}


def _two_tiers():
    on = _state.get('on')
    if on is None:
        on = _state['on'] = _ENABLED and _host.HOST_CALLS > 0 and all(
            d.platform == 'cpu' for d in jax.devices())
    return on


class Tiered:
    """``fn`` compiled by ``jax.jit(fn, **jit_kwargs)`` in two tiers; :meth:`pick` chooses the one
    for a call's signature (a hashable description of its arguments' shapes and dtypes, and of
    everything else the compiled program depends on; callers put the Tiered's ``id()`` in it,
    which a later Tiered may reuse once this one is evicted from its cache: that only starts the
    newcomer's count where this one's ended)."""
    __slots__ = ('hot', '_cold', '_fn', '_jit_kwargs', '__weakref__')

    def __init__(self, fn, **jit_kwargs):
        self.hot = jax.jit(fn, **jit_kwargs)
        self._cold, self._fn, self._jit_kwargs = None, fn, jit_kwargs

    @property
    def cold(self):
        """The cheaply compiled function (the optimised one where there are no two tiers)."""
        if self._cold is None:
            self._cold = jax.jit(self._fn, compiler_options=COLD_OPTIONS, **self._jit_kwargs) \
                if _two_tiers() else self.hot
        return self._cold

    def pick(self, signature):
        """The compiled function for this call: the cheap one for a signature's first calls."""
        if _host.first_call(signature):
            return self.cold
        return self.hot

    def __call__(self, *args):  # the optimised program, for callers that count no signature
        return self.hot(*args)


def signature_of(arrays):
    """The shapes and dtypes of ``arrays`` (jax arrays, or anything with neither: None)."""
    return tuple([(getattr(a, 'shape', None), getattr(a, 'dtype', None)) for a in arrays])
