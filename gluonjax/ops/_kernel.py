"""Compiled kernels: an operator of the table with its attributes bound.

A Kernel is what eager calls (``mx.nd.*``), the autograd tape and symbol
execution share: a pure function of jax arrays and its ``jax.jit``-compiled
form, cached by (operator, attributes, training mode, device). Calling a cached
compiled function costs a few microseconds; tracing again would cost hundreds.
"""
import collections
import functools

import jax
import numpy as np

from .. import _caches, _executables
from .._x64 import on as _x64_on, restore as _x64_restore
from ..base import DeferredError, MXNetError, MXNetValueError, shape_str
from . import _host
from ._tiers import Tiered
from ._registry import get_op

__all__ = ['Kernel', 'kernel_for', 'freeze', 'with_values']


def freeze(value):
    """A hashable version of an attribute value (lists become tuples)."""
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, np.ndarray):
        return tuple(value.tolist())
    if isinstance(value, np.dtype):
        return value.name
    if isinstance(value, type) and issubclass(value, np.generic):
        return np.dtype(value).name
    return value


class Kernel:
    """An operator with bound attributes, ready to run.

    ``fn(*arrays)`` is pure and returns a tuple of arrays; with a random
    operator the PRNG key comes last, and with ``dynamic`` parameters (the
    scalar of ``_mul_scalar``) their values come after the arrays, so that a
    new scalar does not compile a new kernel.
    """
    __slots__ = ('op', 'attrs', 'key', 'fn', 'tiered', 'n_out', 'n_visible', 'dynamic', 'train',
                 'host', 'first_calls', 'steady', '__weakref__')

    def __init__(self, op, attrs, train, device=None):
        self.op, self.attrs, self.train = op, attrs, train
        self.dynamic = tuple(n for n in op.dynamic_params if n in attrs) if op.dynamic_params else ()
        static = {k: v for k, v in attrs.items() if k not in self.dynamic}
        if op.mode_dependent:
            static['_train'] = train
        # an optional dynamic parameter left out makes a function of another arity
        arity = {} if self.dynamic == op.dynamic_params else {'_dynamic': self.dynamic}
        self.key = (op.name, freeze(dict(static, **arity)), device)
        self.n_out = op.n_outputs(attrs)
        self.n_visible = op.n_visible_outputs(attrs)
        # Kernels differing only in dynamic parameters (a new scalar) share one compiled function.
        shared = _compiled.get(self.key)
        if shared is None:
            fn = _as_tuple_fn(op.fn, static, self.dynamic, self.n_out, op.random)
            if device is None:
                tiered = Tiered(fn, op.optimised_at_once)
            else:
                tiered = Tiered(fn, op.optimised_at_once, out_shardings=jax.sharding.SingleDeviceSharding(device))
            shared = _compiled[self.key] = (fn, tiered)
        self.fn, self.tiered = shared
        self.host = None if op.host is None else _as_tuple_fn(op.host, static, self.dynamic, self.n_out, False)
        # a signature's first calls may run without compiling it (ops/_host.py)
        self.first_calls = self.host is not None or op.pointwise or op.rows is not None
        self.steady = None  # {input avals: whether eager calls run the optimised program} (_host._Steady)

    @property
    def jitted(self):
        """``fn`` compiled with XLA's full optimisation."""
        return self.tiered.hot

    def __call__(self, *arrays):
        # Kernels are traced and run with 64-bit dtypes on (float64/int64 NDArrays), whatever the
        # user's jax setting: the eager path's share of gluonjax's x64 boundary (see _x64.py).
        if _executables.due:  # between operators: release the programs jax keeps (see _executables)
            _executables.sweep()
        prev = _x64_on()
        try:
            steady = self.steady
            if steady is not None and steady.get(tuple([getattr(a, 'aval', None) for a in (
                    arrays[:-len(self.dynamic)] if self.dynamic else arrays)])):
                return self.tiered.hot(*arrays)
            # a signature's first calls: on the host, in a size bucket, or by a cheaply compiled program
            outs = _host.run(self, arrays)
            if outs is None:
                return self.jitted(*arrays)
            if outs is _host.COLD:
                return self.tiered.cold(*arrays)
            return outs
        except MXNetError:
            raise
        except Exception as err:  # a jax or XLA failure: name the operator and the shapes
            raise self.error(arrays, err) from None
        finally:
            _x64_restore(prev)

    def sibling(self, op_name, kwargs):
        """The Kernel of ``op_name`` with ``kwargs`` on this kernel's device."""
        return kernel_for(op_name, kwargs, self.train, self.key[2])

    def error(self, arrays, err):
        """The MXNetError for ``err``, raised by this kernel on ``arrays``."""
        if _raised_in_callback(err, DeferredError):  # a check of the values as MXNet's kernel runs:
            outs = jax.eval_shape(self.fn, *arrays)  # its own words, as the host form raises them
            return DeferredError(error_cause(err), [(o.shape, o.dtype) for o in outs])
        return operator_error(self.op.name, self.op.input_names(self.attrs, len(arrays)), arrays, err)


def _as_tuple_fn(fn, static, dynamic, n_out, random):
    bound = functools.partial(fn, **static)
    n_dyn = len(dynamic)

    def run(*args, **extra):  # extra: keywords of one traced call (OpDef.steps' _steps)
        if random:
            args, key = args[:-1], args[-1]
            kw = {'_key': key}
        else:
            kw = {}
        kw.update(extra)
        if n_dyn:
            kw.update(zip(dynamic, args[-n_dyn:]))
            args = args[:-n_dyn]
        out = bound(*args, **kw)
        return out if isinstance(out, tuple) else (out,)
    run.__name__ = getattr(fn, '__name__', 'op')
    return run


def error_cause(err):
    """The one line that says what went wrong in a jax or XLA failure."""
    lines = [ln.strip() for ln in str(err).strip().splitlines() if ln.strip()]
    if len(lines) > 1 and 'callback' in lines[0].lower():
        # a check inside a host callback: jax wraps its traceback; the exception is the last line
        lines = [lines[-1].split(': ', 1)[-1]]
    return lines[0] if lines else type(err).__name__


def operator_error(op_name, input_names, arrays, err):
    """An MXNetError naming the operator, its inputs with their shapes, and the cause."""
    parts = []
    for name, a in zip(list(input_names) + ['arg%d' % i for i in range(len(arrays))], arrays):
        shape = getattr(a, 'shape', None)
        parts.append('%s%s' % (name, shape_str(shape) if shape is not None else '=%r' % (a,)))
    msg = error_cause(err)
    if msg.startswith(op_name + ': '):
        msg = msg[len(op_name) + 2:]
    text = '%s: %s (inputs: %s)' % (op_name, msg, ', '.join(parts))
    # an index check in a host callback raises IndexError, which MXNet raises as itself
    return IndexError(text) if _raised_in_callback(err, IndexError) else same_kind(err, text)


def same_kind(err, text):
    """An MXNetError saying ``text`` about ``err``, a ValueError too where ``err`` is one (raised
    by an operator, or by a check in a host callback inside a compiled program), as MXNet raises
    some of its operators' checks as ValueError (``npx.constraint_check``)."""
    if isinstance(err, ValueError) and isinstance(err, MXNetError) or _raised_in_callback(err, ValueError):
        return MXNetValueError(text)
    return MXNetError(text)


def _raised_in_callback(err, kind):
    """Whether the last line of a jax failure is an exception of ``kind`` from a host callback."""
    lines = [ln.strip() for ln in str(err).strip().splitlines() if ln.strip()]
    return len(lines) > 1 and 'callback' in lines[0].lower() and lines[-1].startswith(kind.__name__ + ':')


_CACHE_SIZE = 4096
# (op, user's attributes, training, device) -> Kernel; attributes come from user code.
_cache = _caches.lru_cache('ops.kernels', _CACHE_SIZE)
# Kernel.key -> (pure fn, jitted fn), shared by Kernels of equal parsed attributes.
_compiled = _caches.lru_cache('ops.compiled', _CACHE_SIZE)


def kernel_for(op_name, kwargs, train=False, device=None):
    """The cached Kernel of ``op_name`` with the user's keyword arguments."""
    if not kwargs:
        key = (op_name, (), train, device)
    else:
        try:
            items = tuple(sorted(kwargs.items()))
            key = (op_name, items, train, device)
            hash(key)
        except TypeError:
            items = freeze(kwargs)
            key = (op_name, items, train, device)
        for _, value in items:
            if isinstance(value, (float, np.floating)) and (value == 0 or value != value):
                key = (op_name, tuple([(k, _float_bits(v)) for k, v in items]), train, device)
                break
    k = _cache.get(key)
    if k is None:
        op = get_op(op_name)
        attrs = op.parse_attrs(kwargs)
        k = _cache[key] = Kernel(op, attrs, train and op.mode_dependent, device)
    return k


def _float_bits(value):
    """``value`` as a cache key tells it: a float zero by its sign (``-0.0 == 0.0``, and the
    kernel's scalar is the first call's) and NaN equal to itself (a new key per ``x * nan`` call
    otherwise); other values as they are."""
    if isinstance(value, (float, np.floating)) and (value == 0 or value != value):
        return (type(value).__name__, float(value).hex())
    return value


def with_values(kernel, host_inputs):
    """The kernel for inputs whose values decide the output's shape (``OpDef.value_attrs``):
    ``kernel``'s attributes plus the static keywords read off ``host_inputs`` (numpy arrays),
    cached like any kernel, so a count seen before compiles nothing."""
    extra = kernel.op.value_attrs(kernel.attrs, *host_inputs)
    attrs = dict(kernel.attrs, **extra)
    key = ('values', kernel.key, freeze(extra), kernel.train)
    k = _cache.get(key)
    if k is None:
        k = _cache[key] = Kernel(kernel.op, attrs, kernel.train, kernel.key[2])
    return k
