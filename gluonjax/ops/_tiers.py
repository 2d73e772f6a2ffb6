"""First calls compiled cheaply: a program in two tiers, as a JIT compiler keeps its code.

Most of the time XLA's CPU backend spends on a small program goes to LLVM's optimisations. At
XLA's backend optimisation level 0 the programs gluonjax makes compile 1.3-3.4x faster (on this
project's 2-core CPU: an LSTM's gradient 561 -> 283 ms, a batched matmul's vjp 51 -> 21 ms, three
fused transcendental functions 158 -> 46 ms) and run 1.2-4.6x slower. XLA's older loop emitters
for fusions (instead of its MLIR fusion emitters) cut the cheap compile again: a 2-layer LSTM
tagger's first train steps on three new lengths 4.8 -> 1.8 s of compile CPU. Most signatures a program
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

With ``GLUONJAX_BACKGROUND_COMPILE=1``, a signature met a second time has its optimised program
compiled then, on a background thread (XLA releases the GIL while it compiles), while the cheap
one keeps serving calls; the switch still happens at the same call, waiting for that compile if
it has not finished, so which calls get which tier never depends on timing. One background
compile at a time, at most ``WARM_QUEUE`` waiting: a signature met when the queue is full is
compiled at its switch, on the caller's thread. It is off by default: on this project's 2-core
machine the background compile takes the core XLA's own computations use, and the LSTM tagger of
bench_new_shapes.py ran its first pass slower with it (mean 341 -> 495 ms per new length, quiet).
"""
import atexit
import concurrent.futures
import functools
import os
import threading

import jax

from .. import _executables
from . import _host

__all__ = ['Tiered', 'CPU_OPTIONS', 'COLD_OPTIONS', 'program_options', 'jit', 'signature_of']

# XLA:CPU options of every program gluonjax compiles, in both tiers. XLA:CPU hands convolutions,
# dots and reductions to YNNPACK by default, which ran the convolutions on one thread here: a
# (2, 56, 56, 64) 3x3 convolution took 4.6 ms on one core and on two alike, where XLA's Eigen
# convolution, which splits the work over XLA's intra-op threads, took 2.7 ms on two. So
# convolutions go to Eigen and the rest of XLA's default list stays. Measured whole (2 cores,
# bench/bench_resnet.py and bench_train.py, the default first): ResNet-18 forward at 224 px,
# batch 2, 71-78 -> 56-57 ms imperative and 58.6 -> 47-48 ms hybridized; the seed's LeNet train
# step 16-25 -> 13.3-14.9 ms (with the convolution choice measured again). Per program,
# so the user's own jax code keeps XLA's defaults; left out on accelerators and by jaxlibs that
# do not know it (the list is XLA's default of 2026 less convolutions: a later default's new
# entries are not in it).
CPU_OPTIONS = {'xla_cpu_experimental_ynn_fusion_type':
               'LIBRARY_FUSION_TYPE_REDUCE,LIBRARY_FUSION_TYPE_INDIVIDUAL_DOT'}
COLD_OPTIONS = {'xla_backend_optimization_level': 0, 'xla_cpu_use_fusion_emitters': False}
_state = {}
_OFF = ('0', 'false', 'off', 'no')
_ENABLED = os.environ.get('GLUONJAX_COLD_COMPILE', '1').strip().lower() not in _OFF
_WARM = os.environ.get('GLUONJAX_BACKGROUND_COMPILE', '0').strip().lower() not in _OFF
WARM_AT = 2  # the call of a signature that starts its optimised program's background compile
_warming = {}  # signature -> Future of its optimised program's compile
_WARMING_MAX = 1024  # signatures never called again keep their entry: forget them all past this
WARM_QUEUE = 4  # compiles queued for the background thread at most (a training step makes 2-4)
_compiler = []  # the background thread's executor, made on first use


def _cpu_only():
    cpu = _state.get('cpu')
    if cpu is None:
        cpu = all(d.platform == 'cpu' for d in jax.devices())
        if cpu:
            _keep_known_options(CPU_OPTIONS)
            _keep_known_options(COLD_OPTIONS, keep='xla_backend_optimization_level')
        _state['cpu'] = cpu
    return cpu


def _two_tiers():
    on = _state.get('on')
    if on is None:
        on = _state['on'] = _ENABLED and _host.HOST_CALLS > 0 and _cpu_only()
    return on


def program_options():
    """The XLA options gluonjax compiles its (optimised) programs with: CPU_OPTIONS on a CPU."""
    return CPU_OPTIONS if _cpu_only() else {}


def jit(fn, **jit_kwargs):
    """``jax.jit(fn, **jit_kwargs)`` compiled with :func:`program_options`."""
    options = program_options()
    if not options:
        return jax.jit(fn, **jit_kwargs)
    return _WithOptions(jax.jit(fn, compiler_options=options, **jit_kwargs), fn, jit_kwargs)


class _WithOptions:
    """A jitted function compiled with options where it is called at the top level. Called
    inside another trace (a create_graph backward traces the pullbacks it calls), where jax
    refuses compile options, it is the plain ``jax.jit`` (made then: a jit costs ~0.2 ms), whose
    program joins the outer one (compiled with the outer program's options)."""
    __slots__ = ('_top', '_nested', '_fn', '_jit_kwargs', '__weakref__')  # jax.jit of it keeps a weak reference

    def __init__(self, top, fn, jit_kwargs):
        self._top, self._nested, self._fn, self._jit_kwargs = top, None, fn, jit_kwargs

    def __call__(self, *args, **kwargs):
        try:
            return self._top(*args, **kwargs)
        except ValueError as err:  # raised while staging into the outer trace, before any work
            if 'compiler_options' not in str(err):
                raise
        if self._nested is None:
            self._nested = jax.jit(self._fn, **self._jit_kwargs)
        return self._nested(*args, **kwargs)

    def lower(self, *args, **kwargs):
        return self._top.lower(*args, **kwargs)

    def _cache_size(self):
        return self._top._cache_size()


def _keep_known_options(options, keep=None):
    """Drop the ``options`` this jaxlib's XLA does not know (the fusion emitters' switch is from
    2025, YNNPACK's fusion types from 2026): one tiny compile each tells."""
    for name in [n for n in options if n != keep]:
        try:
            jax.jit(lambda x: x + 1, compiler_options={name: options[name]}).lower(1.0).compile()
        except Exception:  # an unknown option or value: XLA's default
            options.pop(name, None)


class Tiered:
    """``fn`` compiled by ``jax.jit(fn, **jit_kwargs)`` in two tiers; :meth:`pick` chooses the one
    for a call's signature (a hashable description of its arguments' shapes and dtypes, and of
    everything else the compiled program depends on; callers put the Tiered's ``id()`` in it,
    which a later Tiered may reuse once this one is evicted from its cache: that only starts the
    newcomer's count where this one's ended)."""
    __slots__ = ('_hot', '_cold', '_fn', '_jit_kwargs', '_at_once', 'steady', '__weakref__')

    def __init__(self, fn, at_once=False, **jit_kwargs):
        self._hot = self._cold = self.steady = None
        self._fn, self._jit_kwargs = fn, jit_kwargs
        self._at_once = at_once  # no cheap tier: OpDef.optimised_at_once

    @property
    def hot(self):
        """The optimised function. Made on first use: ``jax.jit`` itself costs about 0.2 ms (it
        reads the function's signature), and most of the kernels an eager session makes (one per
        new ``broadcast_to`` target, reduction axes...) are served on the host and never compiled."""
        if self._hot is None:
            self._hot = jit(self._fn, **self._jit_kwargs)
        return self._hot

    @property
    def cold(self):
        """The cheaply compiled function (the optimised one where there are no two tiers)."""
        if self._cold is None:
            self._cold = jax.jit(self._fn, compiler_options={**CPU_OPTIONS, **COLD_OPTIONS}, **self._jit_kwargs) \
                if _two_tiers() and not self._at_once else self.hot
        return self._cold

    def pick(self, signature):
        """The compiled function for this call: the cheap one for a signature's first calls."""
        return self.choose(signature, _host.first_call(signature))

    def pick_for(self, values):
        """:meth:`pick` for a call on ``values``, whose signature is ``(id(self), signature_of(values))``:
        one lookup of the values' avals where they were given the optimised program before
        (``_host._Steady``, emptied with the counts)."""
        avals = tuple([getattr(v, 'aval', None) for v in values])
        hot = self.steady_hot(avals)
        if hot is not None:
            return hot
        signature = (id(self), signature_of(values))
        first = _host.first_call(signature)
        tier = self.choose(signature, first)
        if not first:
            _host.steady.note(self, avals, True)
        return tier

    def steady_hot(self, avals):
        """The optimised function where a call on inputs of these avals was given it before
        (noted in ``steady``, see ``_host._Steady``), else None."""
        steady = self.steady
        if steady is None or avals not in steady:
            return None
        if _executables.due:  # before a call: release the programs jax keeps (see _executables)
            _executables.sweep()
        return self._hot

    def choose(self, signature, first):
        """:meth:`pick` for a call its caller has counted: ``first``, what ``_host.first_call``
        said of ``signature``."""
        if _executables.due:  # before a call: release the programs jax keeps (see _executables)
            _executables.sweep()
        if first:
            if _WARM and _host.calls(signature) == WARM_AT and _two_tiers():
                return functools.partial(self._cold_then_warm, signature)
            return self.cold
        pending = _warming.pop(signature, None)
        if pending is not None:
            concurrent.futures.wait([pending])  # a failed compile fails again, in the caller's call
        return self.hot

    def _cold_then_warm(self, signature, *args):
        outs = self.cold(*args)
        _warm(signature, self.hot, args)
        return outs

    def __call__(self, *args):  # the optimised program, for callers that count no signature
        return self.hot(*args)


def _warm(signature, hot, args):
    """Queue ``hot``'s compile for ``args`` on the background thread, unless the queue is full."""
    if not _compiler:
        _compiler.append(concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix='gluonjax-compile'))
        # at exit the executor runs what is queued before joining its thread: only the compile
        # already running should delay the exit (callbacks run last-registered first)
        getattr(threading, '_register_atexit', atexit.register)(_drop_queued)
    queued = _state['queued'] = [f for f in _state.get('queued', ()) if not f.done()]
    if len(queued) >= WARM_QUEUE:
        return
    if len(_warming) >= _WARMING_MAX:
        _warming.clear()
    try:  # traced here: tracing reads this thread's state (autograd, x64, default device)
        lowered = hot.lower(*args)
    except Exception:  # the switch will compile, and raise, on the caller's thread
        return
    _warming[signature] = future = _compiler[0].submit(lowered.compile)
    queued.append(future)


def _drop_queued():
    for future in _state.get('queued', ()):
        future.cancel()  # a no-op for the one running


def signature_of(arrays):
    """The shapes and dtypes of ``arrays`` (jax arrays, or anything with neither: None)."""
    return tuple([(getattr(a, 'shape', None), getattr(a, 'dtype', None)) for a in arrays])
