"""Official NumPy functions on ``mx.np.ndarray``: NumPy's dispatch protocols (NEP 18's
``__array_function__``, NEP 13's ``__array_ufunc__``), as in MXNet 1.9.1.

``onp.mean(x)`` of an mx array runs ``mx.np.mean(x)`` (on x's device, recorded by autograd) for the
functions and ufuncs listed here, MXNet's lists less the names today's NumPy no longer has
(``round_``, ``product``, ``sometrue``) or gluonjax's ``mx.np`` lacks (``insert``, ``delete``,
``bincount``). Any other NumPy function runs NumPy's own code on a host copy and returns mx
arrays on the input's context, outside autograd only (a host copy has no gradient); ufuncs
called by another method than ``__call__`` (``onp.add.reduce``) are refused.
"""
import numpy as onp

from .._tape import state as _ag_state
from .multiarray import ndarray

# MXNet 1.9.1's numpy_dispatch_protocol lists: the functions dispatched to mx.np.
_ARRAY_FUNCTIONS = (
    'all', 'any', 'sometrue', 'argmin', 'argmax', 'around', 'round', 'round_', 'argsort', 'sort', 'append',
    'broadcast_arrays', 'broadcast_to', 'clip', 'concatenate', 'copy', 'cumsum', 'diag', 'diagonal', 'diagflat',
    'dot', 'expand_dims', 'fix', 'flip', 'flipud', 'fliplr', 'inner', 'insert', 'max', 'amax', 'mean', 'min',
    'amin', 'nonzero', 'ones_like', 'atleast_1d', 'atleast_2d', 'atleast_3d', 'prod', 'product', 'ravel',
    'repeat', 'reshape', 'roll', 'split', 'array_split', 'hsplit', 'vsplit', 'dsplit', 'squeeze', 'stack',
    'std', 'sum', 'swapaxes', 'take', 'tensordot', 'tile', 'transpose', 'unique', 'unravel_index',
    'diag_indices_from', 'delete', 'var', 'vdot', 'vstack', 'column_stack', 'hstack', 'dstack', 'zeros_like',
    'linalg.norm', 'linalg.cholesky', 'linalg.inv', 'linalg.solve', 'linalg.tensorinv', 'linalg.tensorsolve',
    'linalg.pinv', 'linalg.eigvals', 'linalg.eig', 'linalg.eigvalsh', 'linalg.eigh', 'shape', 'trace', 'tril',
    'meshgrid', 'outer', 'einsum', 'polyval', 'shares_memory', 'may_share_memory', 'quantile', 'percentile',
    'diff', 'ediff1d', 'resize', 'where', 'full_like', 'bincount', 'empty_like', 'nan_to_num', 'isnan',
    'isfinite', 'isposinf', 'isneginf', 'isinf', 'pad')
_ARRAY_UFUNCS = (
    'abs', 'fabs', 'add', 'arctan2', 'copysign', 'degrees', 'hypot', 'lcm', 'subtract', 'multiply', 'true_divide',
    'negative', 'power', 'mod', 'matmul', 'absolute', 'rint', 'sign', 'exp', 'log', 'log2', 'log10', 'expm1',
    'sqrt', 'square', 'cbrt', 'reciprocal', 'invert', 'bitwise_not', 'remainder', 'sin', 'cos', 'tan', 'sinh',
    'cosh', 'tanh', 'arcsin', 'arccos', 'arctan', 'arcsinh', 'arccosh', 'arctanh', 'maximum', 'minimum', 'ceil',
    'trunc', 'floor', 'bitwise_and', 'bitwise_xor', 'bitwise_or', 'logical_not', 'equal', 'not_equal', 'less',
    'less_equal', 'greater', 'greater_equal')


def _lookup(module, dotted):
    for part in dotted.split('.'):
        module = getattr(module, part, None)
    return module


def _pairs(names, mx_np):
    """(name, NumPy's function, mx.np's function) for the names both modules have."""
    found = ((name, _lookup(onp, name), _lookup(mx_np, name)) for name in names)
    # (mx.np's fallbacks are NumPy's own functions: dispatching one to itself would recurse)
    return [(name, np_fn, mx_fn) for name, np_fn, mx_fn in found
            if np_fn is not None and mx_fn is not None and mx_fn is not np_fn]


FUNCTION_NAMES, UFUNC_NAMES, _FUNCTIONS, _UFUNCS = [], [], {}, {}


def register(mx_np):
    """Fill the dispatch tables from the ``mx.np`` module (once its functions all exist)."""
    for name, np_fn, mx_fn in _pairs(_ARRAY_FUNCTIONS, mx_np):
        FUNCTION_NAMES.append(name)
        _FUNCTIONS[np_fn] = mx_fn
    for name, _, mx_fn in _pairs(_ARRAY_UFUNCS, mx_np):
        UFUNC_NAMES.append(name)
        _UFUNCS[name] = mx_fn


def _context_of(values):
    for v in values:
        if isinstance(v, ndarray):
            return v.context
        if isinstance(v, (list, tuple)):
            ctx = _context_of(v)
            if ctx is not None:
                return ctx
    return None


def _to_host(value):
    if isinstance(value, ndarray):
        return value.asnumpy()
    if isinstance(value, (list, tuple)):
        return type(value)(_to_host(v) for v in value)
    return value


def _to_device(value, ctx):
    from .multiarray import array
    if isinstance(value, onp.ndarray):
        return array(value, dtype=value.dtype, ctx=ctx)
    if isinstance(value, tuple) and hasattr(value, '_fields'):  # NumPy 2's named results (QRResult): a
        return tuple(_to_device(v, ctx) for v in value)          # plain tuple, as NumPy 1.x's and MXNet's
    if isinstance(value, (list, tuple)):
        return type(value)(_to_device(v, ctx) for v in value)
    return value


def _numpy_fallback(fn, name, args, kwargs):
    """NumPy's own ``fn`` on host copies, its arrays back on the inputs' context."""
    if _ag_state.recording:
        raise ValueError('Falling back to NumPy operator %s with autograd active is not supported; '
                         'move the call outside the autograd scope.' % name)
    ctx = _context_of(list(args) + list(kwargs.values()))
    out = fn(*_to_host(args), **{k: _to_host(v) for k, v in kwargs.items()})
    return _to_device(out, ctx)


def array_function(self, func, types, args, kwargs):
    mx_fn = _FUNCTIONS.get(func)
    if mx_fn is None:
        return _numpy_fallback(func, func.__name__, args, kwargs)
    if not all(issubclass(t, ndarray) for t in types):
        return NotImplemented  # another array type takes part: let it (or NumPy's TypeError) answer
    return mx_fn(*args, **kwargs)


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    if method != '__call__':
        return NotImplemented
    if 'out' in kwargs:  # NumPy hands out= as a tuple
        out = kwargs['out']
        if len(out) != 1:
            raise ValueError('%s: out= must be one ndarray, got %d' % (ufunc.__name__, len(out)))
        kwargs['out'] = out[0]
    # NumPy hands a scalar operand (``onp.float64(1) == x``) over as a 0-d array: a scalar again
    inputs = tuple(v[()] if isinstance(v, onp.ndarray) and v.ndim == 0 else v for v in inputs)
    mx_fn = _UFUNCS.get(ufunc.__name__)
    if mx_fn is None:
        return _numpy_fallback(ufunc, ufunc.__name__, inputs, kwargs)
    return mx_fn(*inputs, **kwargs)


ndarray.__array_function__ = array_function
ndarray.__array_ufunc__ = array_ufunc
