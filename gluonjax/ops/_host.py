"""First calls without a compile: an eager operator on a shape it has not met runs in NumPy, or,
if pointwise, by a program compiled for the shape's size bucket.

XLA compiles a program for every new shape: 30-100 ms for one elementwise operator on this
machine's CPU (90-130 ms for three on a GPU), where MXNet runs a precompiled kernel in
microseconds. Code that meets many shapes (data-dependent sizes, notebooks, shape-changing
preprocessing) paid a compile per operator per shape. The first ``HOST_CALLS`` calls of a
signature are served without compiling it, and only a signature that keeps coming back is
compiled, as before. Three ways serve them, the first two with the compiled program's exact bits
on the CPU:

- Operators whose table entry has a ``host`` form (NumPy code giving the same bits as the
  compiled one: exactly rounded arithmetic and data movement) run it on the host.
- Pointwise operators (``OpDef.pointwise``: exp, tanh, add, comparisons...) whose inputs share
  one shape run the program compiled for a padded 1-D array of the next power-of-two size
  (:func:`bucket_size`): 11 programs per operator and dtype serve every size up to ``MAX_SIZE``.
  Each element is computed by the same code wherever it sits, so the bits are the exact-shape
  program's on the CPU (tests/test_ops_buckets.py checks every pointwise operator). On a GPU
  the inputs and outputs make a round trip through the host, and the transcendental functions
  are not position-independent to the bit there (XLA's GPU exp gave one element in 65 another
  last bit in a 64-element bucket than in the exact shape): a first call's result may differ in
  its last bit from a later compiled call's, as for reductions below; compiling each new shape
  cost 90-180 ms on an H100.

Reductions (sum, mean, prod, norm, and max/min where their host form declines: ``OpDef.rows``)
run as rows: the reduced axes moved last, the array seen as (M, K) and padded with the
reduction's neutral element to power-of-two sizes, reduced along its rows by the program for
that (M, K) bucket. XLA adds a row in an order that depends on its length (vector lanes from 16
elements on), so these results may differ from the exact-shape program's in the last bits, as
two reduction orders do; the values are the same sums. Without this, every new shape of a
reduction compiled (180 of the 210 compiles left in MXNet's NDArray profiler example).

Equal bits need care: XLA's CPU code reads and writes subnormal floats as zero in arithmetic
(not in moves: negation, abs and copies keep them), so arithmetic host forms are wrapped in
:func:`cpu_arithmetic`; maximum and minimum are left out (XLA's choice between 0.0 and -0.0).

Only where it is exact and cheap: concrete arrays, at most ``MAX_SIZE`` elements, not while
autograd records (the tape keeps the compiled operator's pullback); host forms with jax on the
CPU alone (on an accelerator the data is not on the host: there only data movement, whose bits
are the data's, makes the round trip) and inputs of one dtype. Which
dtypes a host form serves is
its own declaration: float16/32/64 by default (XLA computes float16 in float32, as NumPy
does), every integer dtype too for :func:`int_exact` forms (wrapping integer arithmetic),
every dtype for :func:`moves` (data movement copies bits). A host form may raise
:class:`Fallback` for data it cannot give the compiled bits for (a max over zeros of both
signs, an integer division by zero). Host forms check their input as the operator does, most
by being the operator's own function run with NumPy (``xp=np``); tracing the operator to
check it would cost a tenth of a compile. tests/test_ops_host.py compares every host form's
bits and dtypes with the compiled operator's, for every dtype it serves.
Set ``GLUONJAX_HOST_FIRST_CALLS=0`` to compile every signature at once.
"""
import collections
import os
import threading
import time
import weakref

import jax
import numpy as np

from .. import _caches
from .._transfer import put
from ..base import MXNetError

__all__ = ['run', 'COLD', 'first_call', 'on_cpu', 'hostable', 'cpu_arithmetic', 'flush_subnormals', 'moves', 'int_exact',
           'keep_dtypes', 'Fallback', 'Rows']

# A compile costs 30-100 ms and saves about 10 us per later call against the host form, so a
# signature met a few times is cheaper on the host; only one that keeps coming back compiles.
HOST_CALLS = int(os.environ.get('GLUONJAX_HOST_FIRST_CALLS', '8'))
# A signature its host form served keeps running there, past its first calls, until the host
# time its calls took reaches about what the compile would cost (a compiled call saves 10-20 us
# of a small host call, and a compile costs 10-100 ms; a large array's host call costs more and
# so compiles sooner). The first calls also warm the tiers' counts: the compile, when it comes,
# is of the optimised program.
HOST_BUDGET_S = 0.01
MAX_SIZE = 1 << 20
_FLUSHED = (np.dtype(np.float32), np.dtype(np.float64))
# XLA's CPU code computes float16 in float32, where float16's subnormals are normal numbers
_DTYPES = _FLUSHED + (np.dtype(np.float16),)
_INTS = tuple(np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                                    np.uint64))
_seen = _caches.lru_cache('ops.host_signatures', 8192)  # signature -> calls run on the host
_HOT_MAX = 8192
_hosted = _caches.register('ops.hosted_signatures', {}, _HOT_MAX)  # signature -> host seconds of its calls
_hot = _caches.register('ops.hot_signatures', set(), _HOT_MAX)  # signatures past their first calls
_state = {}  # 'concrete': the type of a concrete jax array; 'cpu': jax runs on the CPU alone


class _Steady:
    """What kernels (and compiled vjp forms, ``_tiers.Tiered``) remember of their signatures past the
    first calls, by the inputs' avals, so that a call met many times costs one dict lookup instead
    of a signature counted here (``(shape, dtype)`` pairs hashed twice cost ~10 us of the ~50 an
    eager ``a + b`` took on a 2 GHz core). ``owner.steady`` maps the avals to True where eager calls
    run the optimised program, False where they are past their first calls only (a host form may
    still serve them while cheap). Emptied with the counts (:func:`forget`); an owner keeps at most
    STEADY_MAX entries (ever new shapes: it starts again)."""
    STEADY_MAX = 256

    def __init__(self):
        self._owners = weakref.WeakSet()
        self._lock = threading.Lock()  # DataLoader worker threads run operators too

    def note(self, owner, avals, compiled):
        steady = owner.steady
        if steady is None or len(steady) >= self.STEADY_MAX:
            steady = owner.steady = {}
            with self._lock:
                self._owners.add(owner)
        if compiled:
            steady[avals] = True
        else:
            steady.setdefault(avals, False)

    def clear(self):
        with self._lock:
            for owner in list(self._owners):
                owner.steady = None
            self._owners.clear()

    def __len__(self):
        return len(self._owners)


steady = _caches.register('ops.steady_signatures', _Steady(), _HOT_MAX)


def _setup():
    cpu = HOST_CALLS > 0 and all(d.platform == 'cpu' for d in jax.devices())
    concrete = type(jax.device_put(np.zeros((), np.float32)))
    # one update, so that another thread (DataLoader workers) never sees half of the state
    _state.update(cpu=cpu, concrete=concrete)


class Fallback(Exception):
    """Raised by a host form for data it cannot compute exactly: the compiled kernel runs."""


def _declared(fn, dtypes):
    def form(*args, **kwargs):
        return fn(*args, **kwargs)
    form.__name__ = getattr(fn, '__name__', 'host')
    form.host_dtypes = dtypes
    return form


def moves(fn, mixed_dtypes=False, moved=None):
    """``fn`` declared as data movement (reshape, transpose, slices): exact for every dtype.
    ``mixed_dtypes``: its inputs may each have a dtype of their own (take's float data at int32
    indices, where's condition), the form declining the mixes it cannot serve exactly; ``moved``
    then names the positions of the inputs whose elements it moves (take's data, where's x and
    y), the others steering it (ops/_first_records.py differentiates those moves on the host)."""
    form = _declared(fn, 'all')
    form.mixed_dtypes = mixed_dtypes
    form.moved = moved
    return form


def int_exact(fn):
    """``fn`` declared exact on integer dtypes too (wrapping arithmetic, comparisons)."""
    return _declared(fn, 'ints')


def keep_dtypes(wrapper, fn):
    """``wrapper`` (a host form calling ``fn``) serving the dtypes ``fn`` serves."""
    if hasattr(fn, 'host_dtypes'):
        wrapper.host_dtypes = fn.host_dtypes
    return wrapper


def _serves(host_form, dtype):
    if dtype in _DTYPES:
        return True
    kind = getattr(host_form, 'host_dtypes', None)
    return kind == 'all' or (kind == 'ints' and dtype in _INTS)  # bool: only moves


def flush_subnormals(x):
    """``x`` (a NumPy array or scalar) with subnormal floats replaced by zeros of their sign."""
    if not isinstance(x, (np.ndarray, np.floating)) or x.dtype not in _FLUSHED:
        return x
    return x * (np.abs(x) >= np.finfo(x.dtype).tiny)


def cpu_arithmetic(fn):
    """``fn`` (NumPy arithmetic) computed as XLA's CPU code computes: subnormal inputs and
    results read as zero."""
    def exact(*args, **kwargs):
        out = fn(*[flush_subnormals(a) for a in args], **kwargs)
        return tuple(flush_subnormals(o) for o in out) if isinstance(out, tuple) else flush_subnormals(out)
    exact.__name__ = getattr(fn, '__name__', 'host')
    return keep_dtypes(exact, fn)


# what run returns for a first call that no form serves: the cheaply compiled program runs it
COLD = 'cold'


def run(kernel, args, while_cheap=True):
    """``kernel``'s outputs for one of the first ``HOST_CALLS`` calls of its signature, computed
    without compiling the program for these shapes where a form serves them: on the host (the
    table's NumPy form), for a pointwise operator by the program compiled for the shapes' size
    bucket, for a reduction as padded rows. None where the compiled kernel must run: a signature
    met more often (or arrays being traced), or one no form serves (the kernel's cheaply compiled
    tier runs it then: ``_tiers``). ``while_cheap``: a signature its host form served keeps
    being served there past its first calls while that stays cheaper than a compile (recorded
    calls do not: past their first calls the tape keeps the compiled operator's pullback)."""
    if not _state:
        _setup()
    n_arrays = len(args) - len(kernel.dynamic)
    arrays, dynamic = args[:n_arrays], args[n_arrays:]
    concrete = _state['concrete']
    for a in arrays:
        if type(a) is not concrete:
            return None
    signature = (kernel.key, tuple([(a.shape, a.dtype) for a in arrays]))
    if not first_call(signature):
        if not while_cheap:
            steady.note(kernel, tuple([a.aval for a in arrays]), False)
            return None
        outs = _on_host_while_cheap(kernel, arrays, dynamic, signature)
        steady.note(kernel, tuple([a.aval for a in arrays]), outs is None)
        return outs
    if not kernel.first_calls:
        return COLD
    for a in arrays:
        if a.size > MAX_SIZE:
            return COLD
    # off the CPU only data movement runs on the host (a round trip; its bits are the data's)
    on_host = kernel.host is not None and (_state['cpu'] or moves_data(kernel.op.host)) \
        and _host_serves(kernel.op.host, arrays)
    outs = _timed_on_host(kernel, arrays, dynamic, signature) if on_host else None
    if outs is None and kernel.op.pointwise:
        shape = broadcast_shape(kernel, arrays, dynamic)
        if shape is not None:  # (also where the host form fell back: an integer division by 0)
            outs = _in_bucket(kernel, arrays, dynamic, shape)
    if outs is None and kernel.op.rows is not None and row_reducible(arrays, dynamic):
        outs = _in_rows(kernel, arrays[0])  # (also where it fell back: a float sum, a max over zeros)
    return COLD if outs is None else outs



def hostable(array):
    """Whether ``array`` is a concrete jax array small enough to be served on the host."""
    if not _state:
        _setup()
    return type(array) is _state['concrete'] and array.size <= MAX_SIZE


def on_cpu():
    """Whether jax computes on the CPU alone (host forms then give the compiled bits)."""
    if not _state:
        _setup()
    return _state['cpu']


def first_call(signature):
    """Whether ``signature`` (a hashable description of a call) is met for one of its first
    ``HOST_CALLS`` times, counting this one: such calls are served without compiling it."""
    if signature in _hot:  # the common case, a signature met many times: one set lookup
        return False
    calls = _seen.get(signature, 0)
    if calls >= HOST_CALLS:
        if len(_hot) >= _HOT_MAX:  # a process meeting ever new shapes: forget, count again
            _hot.clear()
        _hot.add(signature)
        return False
    _seen[signature] = calls + 1
    return True


def calls(signature):
    """How many of ``signature``'s first calls ``first_call`` has counted."""
    return _seen.get(signature, 0)


def forget():
    """Forget every signature's count: each is met for the first time again."""
    _seen.clear()
    _hot.clear()
    _hosted.clear()
    steady.clear()


def _host_serves(host_form, arrays):
    if getattr(host_form, 'mixed_dtypes', False):  # each input of its own dtype
        return True
    dtype = arrays[0].dtype if arrays else None
    return all(a.dtype == dtype for a in arrays) and (not arrays or _serves(host_form, dtype))


def _timed_on_host(kernel, arrays, dynamic, signature):
    start = time.perf_counter()
    outs = _on_host(kernel, arrays, dynamic)
    if outs is not None:
        if len(_hosted) >= _HOT_MAX and signature not in _hosted:
            _hosted.clear()  # ever new shapes: forget, as first_call does
        _hosted[signature] = _hosted.get(signature, 0.0) + (time.perf_counter() - start)
    return outs


def _on_host_while_cheap(kernel, arrays, dynamic, signature):
    """A call past a signature's first calls, still on the host while the host time all its calls
    took stays under ``HOST_BUDGET_S``; None when the compiled kernel should run."""
    spent = _hosted.get(signature)
    if spent is None:
        return None
    outs = _timed_on_host(kernel, arrays, dynamic, signature) if spent < HOST_BUDGET_S else None
    if outs is None:
        _hosted.pop(signature, None)
    return outs


def _on_host(kernel, arrays, dynamic):
    host_args = [np.asarray(a) for a in arrays]
    host_args.extend(dynamic)
    try:
        with np.errstate(all='ignore'):  # XLA does not warn about 1/0 either
            outs = kernel.host(*host_args)
    except MXNetError:  # the operator's own check (shapes that do not broadcast)
        raise
    except Exception:  # Fallback, or anything else: the compiled kernel runs and reports it in its words
        return None
    placement = arrays[0].sharding if arrays else (kernel.key[2] or jax.devices()[0])
    return tuple([put(np.asarray(o), placement) for o in outs])


# ---- size buckets for pointwise operators ----------------------------------------------------

# Below a thousand elements a pointwise program's run time is its dispatch; one program for all
# of them saves compiles (40 new shapes of 3 operators: mean 390 ms per shape with 64, 140-160 ms
# with 1024, at load 10).
MIN_BUCKET = 1024


def bucket_size(n):
    """The size of the program that serves ``n`` elements: the next power of two, at least
    MIN_BUCKET, so that 11 programs serve every size up to MAX_SIZE."""
    return max(MIN_BUCKET, pow2(n))


def _bucketable(arrays):
    if not arrays or arrays[0].size == 0:
        return False
    shape, sharding = arrays[0].shape, arrays[0].sharding
    # a weakly typed input (from a Python scalar) would promote differently once made a buffer
    return all(a.shape == shape and a.sharding == sharding and not a.weak_type for a in arrays)


def broadcast_shape(kernel, arrays, dynamic):
    """The one shape a pointwise ``kernel``'s inputs and outputs have once broadcast, where its
    first call may run in a size bucket (the inputs broadcast on the host: a move), else None.
    Inputs of different shapes are checked by the operator itself (an elemwise operator refuses
    them): the shapes of its outputs, traced without compiling."""
    if _bucketable(arrays):
        return arrays[0].shape
    if not arrays or any(a.weak_type or a.sharding != arrays[0].sharding for a in arrays):
        return None
    try:
        shape = np.broadcast_shapes(*[a.shape for a in arrays])
        outs = jax.eval_shape(kernel.fn, *arrays, *dynamic)
    except Exception:  # the compiled kernel reports it in its words
        return None
    if not shape or 0 in shape or np.prod(shape, dtype=np.int64) > MAX_SIZE or any(o.shape != shape for o in outs):
        return None
    return shape


def moves_data(host_form):
    """Whether ``host_form`` is declared data movement (:func:`moves`)."""
    return getattr(host_form, 'host_dtypes', None) == 'all'


def _in_bucket(kernel, arrays, dynamic, shape=None):
    """The pointwise ``kernel`` on ``arrays`` (broadcast to ``shape``) by its program for the size
    bucket: the inputs broadcast, flattened and padded with ones on the host, the outputs cut back
    to the shape."""
    placement = arrays[0].sharding
    shape = arrays[0].shape if shape is None else shape
    n = int(np.prod(shape, dtype=np.int64))
    size = bucket_size(n)
    padded = []
    for a in arrays:
        buf = np.ones(size, a.dtype)
        buf[:n] = np.broadcast_to(np.asarray(a), shape).reshape(-1)
        padded.append(put(buf, placement))
    outs = kernel.jitted(*padded, *dynamic)
    return tuple([put(np.asarray(o)[:n].reshape(shape), placement) for o in outs])


# ---- reductions as padded rows --------------------------------------------------------------

# How a reduction runs as rows (``OpDef.rows`` gives it for the call's attributes and shape):
# ``axes`` reduced (moved last), ``out_shape`` the call's result shape, ``neutral`` the padding
# that leaves a row's result unchanged, ``op``/``attrs`` the operator and attributes reducing
# axis 1 of the padded (M, K) array, ``per_count``: divide each row's result by K (a mean).
# ``host``, for a sum-like reduction: ``host(rows, attrs)`` reduces axis 1 of the (M, K) rows
# in float64 with NumPy (None to decline); on the CPU it serves the call with no program at all,
# rounded once to the result's dtype (``attrs``' out_dtype or dtype, else the input's): again
# another summation order than the compiled one, and a more accurate one.
Rows = collections.namedtuple('Rows', 'axes out_shape neutral op attrs per_count host', defaults=(None,))
# Small arrays are padded with rows up to this many elements, so that one program per row length
# serves them all (100 sums of random small shapes compiled 47 programs, and 17 with this).
MIN_ROWS_SIZE = 4096


def row_reducible(arrays, dynamic):
    """Whether a reduction's call on ``arrays`` may run as rows: one float array, not empty."""
    return (len(arrays) == 1 and not dynamic and arrays[0].dtype.kind == 'f' and arrays[0].size > 0
            and not arrays[0].weak_type)


def _in_rows(kernel, array):
    """The reduction ``kernel`` of ``array`` by the program reducing the rows of its (M, K)
    bucket (see ``Rows``)."""
    rows, order, m, k = rows_of(kernel, array)
    matrix = np.asarray(array).transpose(order).reshape(m, k)
    placement = array.sharding
    out = _rows_on_host(rows, matrix) if rows.host is not None and on_cpu() else None
    if out is None:
        row_kernel = kernel.sibling(rows.op, dict(rows.attrs, axis=1))
        out = np.asarray(row_kernel.jitted(put(padded_rows(rows, matrix), placement))[0])[:m]
    if rows.per_count:  # correctly rounded, as the operator's own division
        out = (out.astype(np.float64) / k).astype(out.dtype)
    return (put(out.reshape(rows.out_shape), placement),)


def rows_of(kernel, array):
    """``(rows, order, m, k)``: the reduction ``kernel``'s ``Rows`` for ``array``, the axes in the
    order that lays the array out as its (m, k) rows (the kept axes, then the reduced ones)."""
    rows = kernel.op.rows(kernel.attrs, array.shape)
    kept = [i for i in range(array.ndim) if i not in rows.axes]
    m = int(np.prod([array.shape[i] for i in kept], dtype=np.int64))
    return rows, kept + list(rows.axes), m, array.size // m


def padded_rows(rows, matrix):
    """The (m, k) ``matrix`` padded with the reduction's neutral element to its (M, K) bucket."""
    m, k = matrix.shape
    cols = pow2(k)
    buf = np.full((max(pow2(m), MIN_ROWS_SIZE // cols, 1), cols), rows.neutral, matrix.dtype)
    buf[:m, :k] = matrix
    return buf


def _rows_on_host(rows, matrix):
    """The sum-like reduction of each row of ``matrix`` in float64 (subnormal inputs read as
    zero, as XLA's CPU arithmetic reads them), rounded once to the result's dtype; None where
    the NumPy form declines."""
    with np.errstate(all='ignore'):
        out = rows.host(flush_subnormals(matrix).astype(np.float64), rows.attrs)
        if out is None:
            return None
        dtype = np.dtype(rows.attrs.get('out_dtype') or rows.attrs.get('dtype') or matrix.dtype)
        return flush_subnormals(np.asarray(out).astype(dtype))


def pow2(n):
    """The next power of two at least ``n`` (n >= 1)."""
    return 1 << (n - 1).bit_length()
