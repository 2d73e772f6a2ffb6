"""How ``mx.np`` and ``mx.npx`` functions run an operator of the table.

One entry point, :func:`apply_op`: on ``mx.np`` / ``mx.nd`` arrays the operator runs
eagerly through :func:`gluonjax.ndarray.ndarray.invoke` (compiled kernels, autograd,
contexts, exactly as ``mx.nd``) and the results come back as ``mx.np.ndarray``; on
Symbols (a HybridBlock being traced by ``hybridize()``) the same operator becomes a
graph node. So every ``np``/``npx`` function also works inside hybridized code.
"""
import contextlib
import numbers
import sys
import threading

import numpy as onp

from ..base import MXNetError
from ..ndarray.ndarray import NDArray, _write_out, invoke
from ..ops import get_op
from ..ops._frontend import owner_of

_NP_CLASS = []  # mx.np.ndarray, set by multiarray (which imports this module)

# Functions of modules that import this one (so they cannot be imported here), set by
# gluonjax/numpy/__init__.py once they exist: 'array' (multiarray), 'as_np_symbol' (_symbol).
_HOOKS = {}


def set_hooks(**functions):
    _HOOKS.update(functions)


def np_class():
    return _NP_CLASS[0]


def is_symbol(x):
    """Whether ``x`` is a Symbol (without importing the symbol package when it is not loaded)."""
    mod = sys.modules.get('gluonjax.symbol.symbol')
    return mod is not None and isinstance(x, mod.Symbol)


def is_scalar(x):
    return isinstance(x, (numbers.Number, onp.generic)) and not isinstance(x, NDArray)


def output_list(result):
    """An operator's outputs as a list: its arrays, or one Symbol per output of a traced node
    (a hybridized ``split`` returns as many outputs as NumPy's)."""
    if isinstance(result, (list, tuple)):
        return list(result)
    if is_symbol(result):
        return [as_np(out) for out in result]
    return [result]


def as_np(result):
    """Make operator results ``mx.np.ndarray``\\ s, or NumPy-style Symbols while tracing.

    The class changes in place: results are fresh handles, so nothing is copied and the
    autograd history stays with them."""
    if isinstance(result, (list, tuple)):
        for r in result:
            as_np(r)
        return result
    if type(result) is NDArray:
        result.__class__ = _NP_CLASS[0]
    elif is_symbol(result):
        _HOOKS['as_np_symbol'](result)
    return result


def to_array(x, name, what='x'):
    """An operator input: NDArrays as they are, numpy arrays and nested lists copied to the device."""
    if isinstance(x, NDArray) or is_symbol(x):
        return x
    if isinstance(x, (onp.ndarray, list, tuple)) or is_scalar(x):
        return _HOOKS['array'](x, dtype=x.dtype if isinstance(x, onp.ndarray) else None)
    raise TypeError('%s: %s must be an mx.np.ndarray, got %s' % (name, what, type(x).__name__))


_creation_front = threading.local()


def building_symbols():
    """Whether operators without array inputs build graph nodes now (see ``creating_symbols``)."""
    return getattr(_creation_front, 'symbols', False)


@contextlib.contextmanager
def creating_symbols():
    """Meanwhile operators without array inputs (zeros, arange, ...) build graph nodes instead of
    arrays: the creation functions of ``mx.sym.np`` (``F.np`` in a traced ``hybrid_forward``)."""
    before = getattr(_creation_front, 'symbols', False)
    _creation_front.symbols = True
    try:
        yield
    finally:
        _creation_front.symbols = before


_NP_PREFIXES = ('_npi_', '_np_', '_npx_')


def _graph_node(op, params):
    """(operator, parameters) of the node a traced mx.np/npx call builds, as MXNet's NumPy front end
    builds it: its own operator where it has one (OpDef.np_graph), no ``dtype`` attribute when
    none was asked for, and a number operand as a float with its kind (``is_int``) where that
    operator takes one."""
    if op.np_graph is not None:
        op = get_op(op.np_graph)
    if 'dtype' in params and params['dtype'] is None:
        del params['dtype']
    if 'is_int' in op._param_map and 'is_int' not in params and isinstance(params.get('scalar'), numbers.Number):
        scalar = params['scalar']
        params.update(scalar=float(scalar), is_int=isinstance(scalar, numbers.Integral))
    return op, params


def _graph_hint(op):
    """The name MXNet gives a traced mx.np call's node: the NumPy-mode name it calls without its
    prefix (``_npi_add_scalar`` makes ``add_scalar0``), else the operator's own name."""
    for name in (op.name,) + op.aliases:
        for prefix in _NP_PREFIXES:
            if name.startswith(prefix):
                return name[len(prefix):].lower()
    return op.name.lower()


def apply_op(op_name, inputs, params=None, out=None, ctx=None, hint=None):
    """Run table operator ``op_name`` on ``inputs`` (np/nd arrays, or Symbols while tracing)."""
    params = params or {}
    owner = owner_of(inputs)
    if owner is None and building_symbols():
        owner = sys.modules['gluonjax.symbol.symbol'].Symbol
    if owner is not None and not issubclass(owner, NDArray):  # a Symbol: a graph node
        if out is not None:
            raise MXNetError('%s: out= is not supported inside a hybridized block' % op_name)
        op, params = _graph_node(get_op(op_name), dict(params))
        return as_np(owner._apply_op(op, hint or _graph_hint(op), list(inputs), params, {}))
    if isinstance(out, NDArray):
        result = invoke(op_name, list(inputs), params, ctx=ctx)
        if isinstance(result, NDArray) and result.dtype == onp.bool_ and out.dtype != onp.bool_:
            # NumPy's same_kind casting: a bool result is not written into numbers (MXNet's TypeError)
            raise TypeError('%s: the `out` parameter should be a boolean array, got %s' % (op_name, out.dtype))
        return as_np(_write_out(out, [result] if isinstance(result, NDArray) else result))
    return as_np(invoke(op_name, list(inputs), params, out=out, ctx=ctx))


def basic_index(x, key):
    """``x[key]`` for a basic NumPy index (ints, slices, None, Ellipsis; a tuple) as table
    operators on an array or a Symbol of known rank: one ``slice``, then ``_np_squeeze`` of the
    integer-indexed axes and ``expand_dims`` for each None. ``x`` itself where the index selects
    everything as it is."""
    ndim = x.ndim
    used = sum(1 for k in key if k is not None and k is not Ellipsis)
    if used > ndim or sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError('too many indices for an array of %d dimensions: %r' % (ndim, key))
    full = []
    for k in key:
        full.extend([slice(None)] * (ndim - used) if k is Ellipsis else [k])
    if Ellipsis not in key:
        full.extend([slice(None)] * (ndim - used))
    begin, end, step, squeezed, new_axes, in_axis, out_axis = [], [], [], [], [], 0, 0
    for k in full:
        if k is None:
            new_axes.append(out_axis)
            out_axis += 1
            continue
        if isinstance(k, numbers.Integral):  # a one-element slice, squeezed afterwards
            k = int(k)
            k = slice(k, k + 1 if k != -1 else None, 1)
            squeezed.append(in_axis)
        else:
            out_axis += 1
        begin.append(k.start)
        end.append(k.stop)
        step.append(k.step)
        in_axis += 1
    res = x
    if any(b is not None or e is not None or s not in (None, 1) for b, e, s in zip(begin, end, step)):
        res = apply_op('slice', [res], {'begin': tuple(begin), 'end': tuple(end), 'step': tuple(step)})
    if squeezed:
        res = apply_op('_np_squeeze', [res], {'axis': tuple(squeezed)})
    for axis in new_axes:
        res = apply_op('expand_dims', [res], {'axis': axis})
    return res
