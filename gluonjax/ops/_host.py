"""First calls on the host: an eager operator on a shape it has not met runs in NumPy.

XLA compiles a program for every new shape: 30-100 ms for one elementwise operator on this
machine's CPU, where MXNet runs a precompiled kernel in microseconds. Code that meets many
shapes (data-dependent sizes, notebooks, shape-changing preprocessing) paid a compile per
operator per shape. Operators whose table entry has a ``host`` form (NumPy code giving the
same bits as the compiled one: exactly rounded arithmetic and data movement) instead run on
the host the first ``HOST_CALLS`` times a signature is seen, and only a signature that keeps
coming back is compiled, as before.

Equal bits need care: XLA's CPU code reads and writes subnormal floats as zero in arithmetic
(not in moves: negation, abs and copies keep them), so arithmetic host forms are wrapped in
:func:`cpu_arithmetic`; maximum and minimum are left out (XLA's choice between 0.0 and -0.0).

Only where it is exact and cheap: jax on the CPU alone (on an accelerator the data is not on
the host), concrete arrays of one dtype, at most ``MAX_SIZE`` elements, not while autograd
records (the tape keeps the compiled operator's pullback). Which dtypes a host form serves is
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
import os

import jax
import numpy as np

from .. import _caches
from ..base import MXNetError

__all__ = ['run', 'cpu_arithmetic', 'flush_subnormals', 'moves', 'int_exact', 'keep_dtypes', 'Fallback']

# A compile costs 30-100 ms and saves about 10 us per later call against the host form, so a
# signature met a few times is cheaper on the host; only one that keeps coming back compiles.
HOST_CALLS = int(os.environ.get('GLUONJAX_HOST_FIRST_CALLS', '8'))
MAX_SIZE = 1 << 20
_FLUSHED = (np.dtype(np.float32), np.dtype(np.float64))
# XLA's CPU code computes float16 in float32, where float16's subnormals are normal numbers
_DTYPES = _FLUSHED + (np.dtype(np.float16),)
_INTS = tuple(np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                                    np.uint64))
_seen = _caches.lru_cache('ops.host_signatures', 8192)  # signature -> calls run on the host
_state = {}  # 'concrete': the type of a concrete jax array; 'cpu': jax runs on the CPU alone


def _setup():
    _state['cpu'] = HOST_CALLS > 0 and all(d.platform == 'cpu' for d in jax.devices())
    _state['concrete'] = type(jax.device_put(np.zeros((), np.float32)))


class Fallback(Exception):
    """Raised by a host form for data it cannot compute exactly: the compiled kernel runs."""


def _declared(fn, dtypes):
    def form(*args, **kwargs):
        return fn(*args, **kwargs)
    form.__name__ = getattr(fn, '__name__', 'host')
    form.host_dtypes = dtypes
    return form


def moves(fn):
    """``fn`` declared as data movement (reshape, transpose, slices): exact for every dtype."""
    return _declared(fn, 'all')


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


def run(kernel, args):
    """``kernel``'s outputs computed on the host, or None where the compiled kernel must run."""
    if not _state:
        _setup()
    if not _state['cpu']:
        return None
    n_arrays = len(args) - len(kernel.dynamic)
    arrays = args[:n_arrays]
    concrete = _state['concrete']
    dtype = arrays[0].dtype if arrays else None
    for a in arrays:
        if type(a) is not concrete or a.dtype != dtype or a.size > MAX_SIZE:
            return None
    if arrays and not _serves(kernel.op.host, dtype):
        return None
    signature = (kernel.key, tuple([a.shape for a in arrays]), dtype)
    calls = _seen.get(signature, 0)
    if calls >= HOST_CALLS:
        return None
    _seen[signature] = calls + 1
    host_args = [np.asarray(a) for a in arrays]
    host_args.extend(args[n_arrays:])
    try:
        with np.errstate(all='ignore'):  # XLA does not warn about 1/0 either
            outs = kernel.host(*host_args)
    except MXNetError:  # the operator's own check (shapes that do not broadcast)
        raise
    except Exception:  # Fallback, or anything else: the compiled kernel runs and reports it in its words
        return None
    placement = arrays[0].sharding if arrays else (kernel.key[2] or jax.devices()[0])
    return tuple([jax.device_put(np.asarray(o), placement) for o in outs])
