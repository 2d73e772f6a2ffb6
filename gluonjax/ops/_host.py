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
the host), concrete float32/float64 arrays of one dtype, at most ``MAX_SIZE`` elements, not
while autograd records (the tape keeps the compiled operator's pullback).
Set ``GLUONJAX_HOST_FIRST_CALLS=0`` to compile every signature at once.
"""
import os

import jax
import numpy as np

from .. import _caches
from ..base import MXNetError

__all__ = ['run', 'cpu_arithmetic', 'flush_subnormals']

HOST_CALLS = int(os.environ.get('GLUONJAX_HOST_FIRST_CALLS', '2'))
MAX_SIZE = 1 << 20
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_seen = _caches.lru_cache('ops.host_signatures', 8192)  # signature -> calls run on the host
_state = {}  # 'concrete': the type of a concrete jax array; 'cpu': jax runs on the CPU alone


def _setup():
    _state['cpu'] = HOST_CALLS > 0 and all(d.platform == 'cpu' for d in jax.devices())
    _state['concrete'] = type(jax.device_put(np.zeros((), np.float32)))


def flush_subnormals(x):
    """``x`` (a NumPy array or scalar) with subnormal floats replaced by zeros of their sign."""
    if not isinstance(x, (np.ndarray, np.floating)) or x.dtype not in _DTYPES:
        return x
    return x * (np.abs(x) >= np.finfo(x.dtype).tiny)


def cpu_arithmetic(fn):
    """``fn`` (NumPy arithmetic) computed as XLA's CPU code computes: subnormal inputs and
    results read as zero."""
    def exact(*args, **kwargs):
        out = fn(*[flush_subnormals(a) for a in args], **kwargs)
        return tuple(flush_subnormals(o) for o in out) if isinstance(out, tuple) else flush_subnormals(out)
    exact.__name__ = getattr(fn, '__name__', 'host')
    return exact


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
    if arrays and dtype not in _DTYPES:
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
    except Exception:  # anything else: the compiled kernel runs and reports it in its words
        return None
    placement = arrays[0].sharding if arrays else (kernel.key[2] or jax.devices()[0])
    return tuple([jax.device_put(np.asarray(o), placement) for o in outs])
