"""``mx.np.ndarray`` and the NumPy-style functions of ``mx.np``.

``ndarray`` is an :class:`~gluonjax.ndarray.NDArray` (same handle, same kernels, same
autograd and contexts) with NumPy's semantics where MXNet's ``np`` differs from ``nd``:
full reductions and integer indexing give 0-d arrays, comparisons give ``bool``, integer
true division gives float32, indexing takes boolean masks, ``dtype`` is a ``numpy.dtype``,
and arrays print as ``array([1., 2.])``. Arrays and functions default to float32, as MXNet.

Functions (and ``ndarray`` methods) that are one operator call come from the operator table's
``np`` entries (:mod:`._gen`: ``sum``, ``exp``, ``swapaxes``, ...); the ones written here compose
operators through :func:`._core.apply_op`. Operators with NumPy-only semantics live in
:mod:`gluonjax.ops.numpy_ops`.
"""
import builtins as _builtins
import inspect
import numbers
import re

import jax
import numpy as onp

from .. import _caches
from .._transfer import put
from ..base import MXNetError
from ..context import Context, current_context
from ..ndarray.ndarray import NDArray, apply_fn, make_view, _carry_failure, _inplace
from ..ndarray import _indexing
from ..ops._frontend import COMPARISONS, python_operators
from ..ops._registry import arith_table
from .._tape import state as _ag_state
from ..ops import _host
from ._core import apply_op, as_np, basic_index, is_scalar, is_symbol, output_list, to_array, _NP_CLASS
from . import _gen

__all__ = ['ndarray', 'array', 'asarray', 'zeros', 'ones', 'full', 'empty', 'arange', 'linspace', 'eye',
           'identity', 'zeros_like', 'ones_like', 'full_like', 'empty_like']

_DEFAULT_DTYPE = onp.dtype(onp.float32)


def _dtype_name(dtype, default=_DEFAULT_DTYPE):
    return (onp.dtype(dtype) if dtype is not None else default).name


def _shape(shape):
    if isinstance(shape, (numbers.Integral, onp.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _scalar_value(x):
    return x.item() if isinstance(x, onp.generic) else x


class _NumpyMethods:
    """NumPy's operators and methods, shared by ``mx.np.ndarray`` and the Symbols that stand for
    them while a Block is traced under ``npx.set_np()`` (every method calls an ``mx.np``
    function, and those accept both)."""
    __slots__ = ()

    @property
    def T(self):
        return transpose(self)

    # ---- arithmetic: +, -, ==, &, ... are set from the table's 'np' entries below the functions
    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    def __neg__(self):
        return negative(self)

    def __abs__(self):
        return absolute(self)

    def __invert__(self):
        return invert(self)

    # ---- methods with NumPy's signatures -----------------------------------------------------
    def reshape(self, *shape, order='C', **kwargs):
        if 'newshape' in kwargs or 'shape' in kwargs:
            shape = kwargs.pop('newshape', kwargs.pop('shape', None))
        elif len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = shape[0]
        if kwargs:
            raise TypeError('reshape: unexpected keyword argument(s) %s' % ', '.join(kwargs))
        return reshape(self, shape, order=order)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (list, tuple))):
            axes = axes[0]
        return transpose(self, axes or None)

    def dot(self, b, out=None):
        return dot(self, b, out=out)

    def take(self, indices, axis=None, mode='raise'):
        return take(self, indices, axis, mode)

    def astype(self, dtype, order='K', casting='unsafe', subok=True, copy=True):
        dtype = onp.dtype(dtype)
        if not copy and dtype == self.dtype:
            return self
        return apply_op('Cast', [self], {'dtype': dtype.name})


def _np_inplace(fn):
    """``x op= y``: the result is written into ``x``, which keeps its shape and dtype (MXNet
    raises when either would change; a scalar takes the type of an integer ``x`` first)."""
    def method(self, other):
        if is_scalar(other) and self.dtype.kind in 'iub':
            other = self.dtype.type(other)
        result = fn(self, other)
        if result.dtype != self.dtype:
            raise MXNetError('in-place operation: type inconsistent, provided %s, inferred %s'
                             % (self.dtype, result.dtype))
        return result
    return _inplace(method)


class ndarray(_NumpyMethods, NDArray):
    """An n-dimensional array with NumPy's semantics, on a device (``mx.np.ndarray``)."""
    __slots__ = ()
    __hash__ = NDArray.__hash__

    @property
    def dtype(self):
        return self._data.dtype

    # numpy must not run its ufuncs on these arrays: ``numpy_array + x`` comes to x.__radd__
    __array_ufunc__ = None
    # a value that does not broadcast to the region written: MXNet's np raises MXNetError (nd: ValueError)
    _ASSIGN_ERROR = MXNetError

    # ---- in-place arithmetic -----------------------------------------------------------

    # ---- conversion --------------------------------------------------------------------
    def as_nd_ndarray(self):
        """The same data as a legacy ``mx.nd.NDArray`` (shares the value and autograd history)."""
        out = NDArray._from_jax(self._data, self._ctx)
        out._ag = self._ag
        return out

    def as_np_ndarray(self):
        return self

    def sort(self, axis=-1, kind=None, order=None):
        """Sort this array in place along ``axis`` and return None, as NumPy's ``ndarray.sort``
        (MXNet 1.9.1's method raises TypeError; ``np.sort(a)`` gives a sorted copy)."""
        self[...] = sort(self, axis=axis, kind=kind, order=order)

    def item(self, *args):
        return self.asnumpy().item(*args)

    def _size_one(self):
        if self.size != 1:  # NumPy's rule (and exception type)
            raise TypeError('only size-1 arrays can be converted to Python scalars')
        return self.asnumpy().reshape(-1)[0]

    def __float__(self):
        return float(self._size_one())

    def __int__(self):
        return int(self._size_one())

    # round() and math.floor/ceil/trunc give arrays, as in MXNet (round halves to even, as np.round)
    def __round__(self, ndigits=None):
        return around(self, 0 if ndigits is None else ndigits)  # noqa: F821 (an operator-table function)

    def __floor__(self):
        return floor(self)  # noqa: F821

    def __ceil__(self):
        return ceil(self)  # noqa: F821

    def __trunc__(self):
        return trunc(self)  # noqa: F821

    @property
    def writable(self):
        return True

    def reshape_view(self, *shape, **kwargs):
        """reshape (whose result already shares memory with this array)."""
        return self.reshape(*shape, **kwargs)

    def slice_assign(self, rhs, begin, end, step):
        """self[begin:end:step] = rhs along the leading axes, in place; returns self."""
        self[_slice_key(begin, end, step)] = rhs
        return self

    def slice_assign_scalar(self, value, begin, end, step):
        self[_slice_key(begin, end, step)] = value
        return self

    # ---- printing ----------------------------------------------------------------------
    def __repr__(self):
        text = onp.array_repr(self.asnumpy())
        dtype = self._data.dtype
        if dtype == _DEFAULT_DTYPE:  # float32 is the default: MXNet does not print it
            text = re.sub(r',\s*dtype=float32\)$', ')', text)
        elif 'dtype=' not in text and dtype != onp.bool_:
            text = text[:-1] + ', dtype=%s)' % dtype.name
        ctx = self.context
        if ctx.device_type != 'cpu':
            text = text[:-1] + ', ctx=%s)' % ctx
        return text

    def __str__(self):
        return str(self.asnumpy())

    def __format__(self, spec):
        """A 0-d array formats as its value; others only without a format spec, as MXNet."""
        if self.ndim == 0 and spec:
            return self.item().__format__(spec)
        if spec:
            raise TypeError('unsupported format string passed to mx.np.ndarray.__format__: %r' % spec)
        return str(self)

    # ---- indexing ----------------------------------------------------------------------
    def __getitem__(self, key):
        if isinstance(key, NDArray) and key.ndim == 0 and key.dtype == onp.bool_:
            # NumPy: a 0-d boolean index adds an axis of length 1 (True) or 0 (False)
            expanded = self[None]
            return expanded if key.item() else expanded[0:0]
        expanded = _expand_scalar_bools(self, _zero_d_masks_as_bools(key))
        if expanded is not None:
            shape, key = expanded
            return self.reshape(shape)[key]
        key = _normalize_key(self, key)
        if key is Ellipsis or (isinstance(key, tuple) and not key):
            return self
        plan, dyn = _indexing._plan(self, key)
        region = _indexing._flat_region(self.shape, plan, dyn)
        on_host = _indexing.host_basic_index(self, key, plan)
        recorded = None if on_host is not None else _recorded_basic_index(self, key)
        if on_host is not None:
            out = _carry_failure([self], ndarray._from_jax(on_host, self._ctx))
        elif recorded is not None:
            out = recorded
        else:
            fn = _getitem_fn(plan)
            inputs = [self] + [d if isinstance(d, NDArray) else NDArray._from_jax(d, self._ctx) for d in dyn]
            out = as_np(apply_fn(fn, ('np_getitem', plan), inputs, name='__getitem__')[0])
        if region is not None:  # a contiguous basic index is a view sharing memory, as in MXNet
            make_view(self, out, *region)
        return out

    def __setitem__(self, key, value):
        if is_scalar(value) or isinstance(value, NDArray):
            pass
        else:
            value = onp.asarray(value)
        expanded = _expand_scalar_bools(self, _zero_d_masks_as_bools(key))
        if expanded is not None:
            shape, key = expanded
            target = self.reshape(shape)
            _indexing.setitem(target, _normalize_key(target, key), value)
            self._set_data(target._data.reshape(self.shape))
            return
        _indexing.setitem(self, _normalize_key(self, key), value)

    def tolist(self):
        return self.asnumpy().tolist()

    def nonzero(self):
        return nonzero(self)


_NP_CLASS.append(ndarray)


def _slice_key(begin, end, step):
    return tuple(slice(b, e, s) for b, e, s in zip(begin, end, step or (None,) * len(begin)))


def _zero_d_masks_as_bools(key):
    """``key`` with its 0-d boolean arrays as the scalar booleans they stand for in NumPy (a
    bare one as a one-entry tuple, the form :func:`_expand_scalar_bools` reads)."""
    entries = key if isinstance(key, tuple) else (key,)
    if not _builtins.any(isinstance(k, (NDArray, onp.ndarray)) and k.ndim == 0 and k.dtype == onp.bool_
                         for k in entries):
        return key
    return tuple(bool(k) if isinstance(k, (NDArray, onp.ndarray)) and k.ndim == 0 and k.dtype == onp.bool_ else k
                 for k in entries)


def _expand_scalar_bools(x, key):
    """NumPy's scalar booleans in a tuple index (``x[0, True, mask]``, ``x[False, 1]``): each is a
    new axis of length one, indexed by [0] (True) or [] (False), so it joins the other advanced
    indices. Returns (x's shape with those axes, the key with index arrays), or None."""
    if not isinstance(key, tuple) or not _builtins.any(isinstance(k, (bool, onp.bool_)) for k in key):
        return None
    n_real = _builtins.sum(_axes_taken(k) for k in key)
    shape, new_key, axis = list(x.shape), [], 0
    for k in key:
        if isinstance(k, (bool, onp.bool_)):
            shape.insert(axis + len(shape) - x.ndim, 1)
            new_key.append(onp.zeros(1 if k else 0, dtype=onp.int64))
            continue
        axis += x.ndim - n_real if k is Ellipsis else _axes_taken(k)
        new_key.append(k)
    return tuple(shape), tuple(new_key)


def _axes_taken(k):
    """How many axes of the indexed array an index entry stands for."""
    if k is None or k is Ellipsis or isinstance(k, (bool, onp.bool_)):
        return 0
    if isinstance(k, NDArray):
        return k.ndim if k.dtype == onp.bool_ else 1
    if isinstance(k, (onp.ndarray, list)) and onp.asarray(k).dtype == onp.bool_:
        return onp.ndim(k)
    return 1


def _normalize_key(x, key):
    """An index with NumPy-only parts rewritten for the shared indexing plan: boolean masks
    become integer index arrays (computed on the host), ``range``\\ s become lists."""
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if not _builtins.any(o is Ellipsis for o in out):  # a mask's first axis is known until an Ellipsis
            # axes consumed so far: None and scalar booleans add axes instead
            _check_mask(x, k, _builtins.sum(1 for o in out if o is not None and not isinstance(o, (bool, onp.bool_))))
        if isinstance(k, range):
            k = onp.arange(k.start, k.stop, k.step)
        elif isinstance(k, list) and k and _builtins.any(isinstance(e, (NDArray, list, range)) for e in k):
            k = onp.asarray([e.asnumpy() if isinstance(e, NDArray) else e for e in k])
        if isinstance(k, NDArray) and k._data.dtype == onp.bool_:
            out.extend(onp.nonzero(k.asnumpy()))
            continue
        if isinstance(k, (onp.ndarray, list)) and onp.asarray(k).dtype == onp.bool_:
            out.extend(onp.nonzero(onp.asarray(k)))
            continue
        out.append(k)
    return tuple(out) if len(out) != 1 else out[0]


def _check_mask(x, k, axis):
    """NumPy's rule: a boolean index covers the axes it stands for with exactly their sizes."""
    if isinstance(k, NDArray) and k._data.dtype == onp.bool_ and k.ndim > 0:
        mask_shape = tuple(k.shape)
    elif isinstance(k, (onp.ndarray, list)) and onp.asarray(k).dtype == onp.bool_ and onp.ndim(k) > 0:
        mask_shape = onp.shape(k)
    else:
        return
    covered = tuple(x.shape[axis:axis + len(mask_shape)])
    if covered != mask_shape:
        raise IndexError('boolean index of shape %s does not match the indexed array of shape %s at axis %d'
                         % (mask_shape, tuple(x.shape), axis))


_getitem_fns = _caches.lru_cache('numpy.getitem_fns', 4096)  # by indexing plan


def _recorded_basic_index(x, key):
    """``x[key]`` for a basic index of a recorded array, as the operators a hybridized graph
    traces it to (``slice``, ``_np_squeeze``, ``expand_dims``): their recorded first calls
    compile nothing (ops/_first_records.py), where the indexing program would compile its vjp
    form and pullback for this one index, and a backward over it would compile the whole graph's
    (an integer index is a value of the indexing program, so a loop over ever new indices met
    it often). Calls met often run these operators' compiled kernels. None otherwise."""
    if not (_ag_state.recording and x._ag is not None and _indexing.is_basic(key) and _host.on_cpu()):
        return None
    out = basic_index(x, key if isinstance(key, tuple) else (key,))
    if out is x:  # everything selected: a copy on the tape all the same, as the program's is
        out = apply_op('_copy', [x])
    return out


def _getitem_fn(plan):
    fn = _getitem_fns.get(plan)
    if fn is None:
        base = _indexing._index_fn(plan)

        def fn(x, *dyn):
            return (base(x, *dyn),)
        _getitem_fns[plan] = fn
    return fn


# ---------------------------------------------------------------------------------------
# Creating arrays
# ---------------------------------------------------------------------------------------

def _ctx(ctx):
    if ctx is None:
        return current_context()
    return ctx if isinstance(ctx, Context) else Context(ctx)


def array(object, dtype=None, ctx=None, copy=True):  # noqa: A002 (NumPy's name)
    """An array from a nested list, a numpy array, a scalar or another array.

    As in MXNet, Python lists and scalars give float32 unless ``dtype`` says otherwise;
    numpy arrays and ``mx`` arrays keep their dtype.
    """
    ctx = _ctx(ctx)
    if isinstance(object, NDArray):
        data = object._data if dtype is None else object._data.astype(onp.dtype(dtype))
        return ndarray._from_jax(jax.device_put(data, ctx.jax_device), ctx)
    if dtype is None:
        dtype = object.dtype if isinstance(object, (onp.ndarray, onp.generic)) else _DEFAULT_DTYPE
    try:
        host = _host_array(object, dtype)
    except (TypeError, ValueError) as err:
        raise TypeError('array: cannot make an array from %s: %s' % (type(object).__name__, err)) from None
    if host is object or host.base is not None:  # the caller's memory: the array owns a copy
        host = host.copy()
    return ndarray._from_jax(put(host, ctx.jax_device), ctx)


def _host_array(object, dtype):  # noqa: A002
    try:
        return onp.asarray(object, dtype=dtype)
    except OverflowError:
        # Python ints out of an integer dtype's range wrap, as in MXNet 1.9.1 (NumPy 1.x's cast;
        # NumPy 2 refuses them): array([1621], dtype=uint8) is [85].
        if onp.dtype(dtype).kind not in 'iu':
            raise
        return onp.asarray(object, dtype=onp.int64).astype(dtype)


def asarray(a, dtype=None, ctx=None):
    """``a`` itself when it is already an ``mx.np.ndarray`` of that dtype, else ``array(a)``."""
    if isinstance(a, ndarray) and (dtype is None or onp.dtype(dtype) == a.dtype) and ctx is None:
        return a
    return array(a, dtype, ctx)


def full(shape, fill_value, dtype=None, order='C', ctx=None, out=None):
    """An array filled with ``fill_value`` (an array value is broadcast to ``shape``)."""
    if isinstance(fill_value, NDArray) or is_symbol(fill_value):
        res = broadcast_to(fill_value.astype(dtype or fill_value.dtype), _shape(shape))
    else:
        if dtype is None and isinstance(fill_value, bool):  # as MXNet: full(shape, True) is bool
            dtype = onp.bool_
        res = apply_op('_full', [], {'shape': _shape(shape), 'dtype': _dtype_name(dtype),
                                     'value': float(fill_value)}, ctx=_ctx(ctx))
    if out is not None:
        out[...] = res
        return out
    return res


def arange(start, stop=None, step=1, dtype=None, ctx=None):
    """Evenly spaced values in [start, stop) (float32 unless ``dtype`` says otherwise)."""
    if stop is None:
        start, stop = 0, start
    if step is None:  # NumPy's default step
        step = 1
    if step == 0:  # the error MXNet's Python front end raises
        raise ZeroDivisionError('arange: step must not be zero')
    if stop is not None and (stop - start) / step <= 0:  # an empty range is an empty array in NumPy (mx.nd.arange raises)
        return zeros((0,), dtype=dtype, ctx=ctx)
    return apply_op('_arange', [], {'start': float(start), 'stop': float(stop), 'step': float(step),
                                    'dtype': _dtype_name(dtype)}, ctx=_ctx(ctx))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, ctx=None):
    """``num`` evenly spaced values from start to stop."""
    if axis != 0:
        raise MXNetError('linspace: only axis=0 is supported, got %r' % axis)
    res = apply_op('_linspace', [], {'start': float(start), 'stop': float(stop), 'num': num,  # 2.5 is an error
                                     'endpoint': bool(endpoint), 'dtype': _dtype_name(dtype)}, ctx=_ctx(ctx))
    if retstep:
        return res, (stop - start) / _builtins.max(num - 1 if endpoint else num, 1)
    return res


def identity(n, dtype=None, ctx=None):
    return eye(n, dtype=dtype, ctx=ctx)


def _like(op_name, a, dtype):
    res = apply_op(op_name, [to_array(a, op_name, 'a')])
    return res if dtype is None else res.astype(dtype)


def zeros_like(a, dtype=None, order='C', ctx=None, out=None):
    return _like('zeros_like', a, dtype)


def ones_like(a, dtype=None, order='C', ctx=None, out=None):
    return _like('ones_like', a, dtype)


def empty_like(prototype, dtype=None, order='C', subok=False, shape=None):
    return _like('zeros_like', prototype, dtype)


# ---------------------------------------------------------------------------------------
# Elementwise functions
# ---------------------------------------------------------------------------------------

# mx.np.exp, mx.np.sum, mx.np.tril, ...: one function for each Np entry of the operator table (its
# NumPy signature; mx.np.linalg's are in linalg.py), and the np.ndarray methods (x.sum()) beside.
_table_functions = _gen.functions()
globals().update(_table_functions)
for _name, _method in _gen.methods().items():
    setattr(_NumpyMethods, _name, _method)


def _operand(x, name):
    """An array operand of a binary function: as in MXNet, only ``mx.np`` arrays (and Symbols
    while tracing); numpy arrays and lists raise TypeError instead of being copied silently."""
    if isinstance(x, NDArray) or is_symbol(x):
        return x
    raise TypeError('%s: type %s not supported' % (name, type(x)))


def _binary(name, slots):
    """A NumPy binary function: arrays broadcast (``array_op``), scalars use the scalar operators."""
    array_op, scalar_op, rscalar_op = slots['array'], slots['scalar'], slots['rscalar']

    def fn(x1, x2, out=None, **kwargs):
        _gen.check_ufunc_keywords(name, kwargs)
        s1, s2 = is_scalar(x1), is_scalar(x2)
        if s1 and s2:  # numbers: numpy's own function
            return getattr(onp, name)(x1, x2)
        if s2:
            return apply_op(scalar_op, [_operand(x1, name)], {'scalar': _scalar_value(x2)}, out=out)
        if s1:
            return apply_op(rscalar_op, [_operand(x2, name)], {'scalar': _scalar_value(x1)}, out=out)
        return apply_op(array_op, [_operand(x1, name), _operand(x2, name)], out=out)
    if name in _INTEGERS_ONLY:
        fn = _integers_only(name, fn)
    fn.__name__ = name
    fn.__doc__ = 'Elementwise %s with broadcasting (operator %r of the table).' % (name, array_op)
    return fn


# MXNet has no bitwise kernels for floats: its np functions reject float arrays.
_INTEGERS_ONLY = ('bitwise_and', 'bitwise_or', 'bitwise_xor', 'lcm')


def _integers_only(name, fn):
    def checked(x1, x2, out=None, **kwargs):
        _gen.check_integers(name, (x1, x2))
        return fn(x1, x2, out, **kwargs)
    return checked


# mx.np.add, mx.np.less, ...: one function for each 'np' arith entry of the operator table.
_BINARY = {function: _binary(function, slots) for function, slots in arith_table('np').items()}
globals().update(_BINARY)
divide, remainder, fmax, fmin = true_divide, mod, maximum, minimum  # noqa: F821 (NumPy's other names)

# Python's operators on np arrays (and NumPy-mode Symbols); MXNet has no reflected bitwise
# operators (1 & x raises) and no //.
for _n, _function, _slots in python_operators('np', ('add', 'sub', 'mul', 'truediv', 'mod', 'pow', 'eq', 'ne',
                                                    'gt', 'ge', 'lt', 'le', 'and', 'or', 'xor')):
    _fn = _BINARY[_function]
    setattr(_NumpyMethods, '__%s__' % _n, lambda self, other, fn=_fn: fn(self, other))
    if _n not in COMPARISONS:
        setattr(ndarray, '__i%s__' % _n, _np_inplace(_fn))
    if _n not in COMPARISONS and _n not in ('and', 'or', 'xor'):
        setattr(_NumpyMethods, '__r%s__' % _n, lambda self, other, fn=_fn: fn(other, self))


def where(condition, x=None, y=None):
    """Elements of x where condition holds, else of y (broadcast); with one argument, nonzero()."""
    if x is None and y is None:
        return nonzero(condition)
    cond = to_array(condition, 'where', 'condition')
    ref = next((to_array(v, 'where') for v in (x, y) if not is_scalar(v)), None)
    if is_scalar(x) or is_scalar(y):
        # a scalar takes the array's dtype (float32 beside a condition alone), as MXNet's where
        like, dtype = (ref, None) if ref is not None else (cond, _DEFAULT_DTYPE)
        x, y = (full_like(like, v, dtype=dtype) if is_scalar(v) else v for v in (x, y))
    return apply_op('_npi_where', [cond, to_array(x, 'where', 'x'), to_array(y, 'where', 'y')])


def nonzero(a):
    """Indices of the non-zero elements, one int64 array per axis (computed on the host)."""
    host = onp.nonzero(onp.asarray(a))
    ctx = a.context if isinstance(a, NDArray) else None
    return tuple(array(h, dtype='int64', ctx=ctx) for h in host)


# ---------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------

def split(ary, indices_or_sections, axis=0):
    """Split into equal sections or at the given indices; a list of arrays."""
    if isinstance(indices_or_sections, (numbers.Integral, onp.integer)):
        n = int(indices_or_sections)
        if isinstance(ary, NDArray) and (n <= 0 or ary.shape[axis] % n):
            raise ValueError('split: array of size %d along axis %d does not split into %d equal sections'
                             % (ary.shape[axis], axis, n))
        params = {'sections': n, 'axis': int(axis)}
    else:
        params = {'indices': tuple(int(i) for i in indices_or_sections), 'axis': int(axis)}
    res = apply_op('_npi_split', [to_array(ary, 'split', 'ary')], params)
    return output_list(res)


# ---------------------------------------------------------------------------------------
# Products, sorting, selection
# ---------------------------------------------------------------------------------------

def dot(a, b, out=None):
    """NumPy's dot (a 0-d array for two vectors)."""
    if is_scalar(a) or is_scalar(b):
        return multiply(a, b, out=out)
    return apply_op('_np_dot', [to_array(a, 'dot', 'a'), to_array(b, 'dot', 'b')], out=out)


# the function of MXNet's built-in operator _np_dot states its signature, as the generated ones do
# (checked against mx._numpy_op_doc)
dot.__signature__ = inspect.signature(dot)


def tensordot(a, b, axes=2):
    a, b = to_array(a, 'tensordot', 'a'), to_array(b, 'tensordot', 'b')
    if isinstance(axes, (numbers.Integral, onp.integer)):
        return apply_op('_npi_tensordot_int_axes', [a, b], {'axes': int(axes)})
    a_axes, b_axes = ([x] if isinstance(x, int) else list(x) for x in axes)
    return apply_op('_npi_tensordot', [a, b], {'a_axes_summed': tuple(a_axes), 'b_axes_summed': tuple(b_axes)})


def pad(array, pad_width, mode='constant', **kwargs):  # noqa: A002 (NumPy's names)
    """NumPy's pad; ``pad_width`` an int, one (before, after) pair, or one pair per axis."""
    a = to_array(array, 'pad', 'array')
    width = onp.broadcast_to(onp.asarray(pad_width, dtype=onp.int64), (a.ndim, 2))
    params = {'pad_width': tuple(tuple(int(v) for v in row) for row in width), 'mode': mode}
    unknown = set(kwargs) - {'constant_values', 'reflect_type'}
    if unknown:
        raise TypeError('pad: unexpected keyword argument(s) %s' % ', '.join(sorted(unknown)))
    params.update(kwargs)
    return apply_op('_npi_pad', [a], params)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """The sorted unique values (and, when asked, first indices, inverse and counts as int64).

    The result's size depends on the values, so it is computed on the host, as MXNet does."""
    a = to_array(ar, 'unique', 'ar')
    res = onp.unique(a.asnumpy(), return_index=return_index, return_inverse=return_inverse,
                     return_counts=return_counts, axis=axis)
    if not isinstance(res, tuple):
        return _np_array(res, a.dtype, a.context)
    res = list(res)
    if return_inverse:  # numpy 2 gives the inverse the input's shape; MXNet's is flat
        at = 1 + bool(return_index)
        res[at] = res[at].reshape(-1)
    return (_np_array(res[0], a.dtype, a.context),) + tuple(
        _np_array(r, onp.int64, a.context) for r in res[1:])


def _np_array(host, dtype, ctx):
    return array(host.astype(dtype), dtype=dtype, ctx=ctx)


def inner(a, b):
    return tensordot(a, b, ([-1], [-1]))  # the last axes: no ranks needed (Symbols)


def outer(a, b):
    return multiply(ravel(a).reshape((-1, 1)), ravel(b).reshape((1, -1)))


def vdot(a, b):
    return dot(ravel(a), ravel(b))


def take(a, indices, axis=None, mode='raise', out=None):
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened array when None)."""
    a = to_array(a, 'take', 'a')
    if axis is None:
        a, axis = ravel(a), 0
    indices = to_array(indices, 'take', 'indices') if not is_scalar(indices) else array(indices, dtype='int64')
    # mode 'raise' (the default): an index outside [0, size) raises MXNetError at the next wait, as MXNet's
    return apply_op('take', [a, indices], {'axis': int(axis), 'mode': mode}, out=out)


# ---------------------------------------------------------------------------------------
# Host-side helpers
# ---------------------------------------------------------------------------------------

def shape(a):
    return tuple(a.shape)


def size(a):
    return a.size


def ndim(a):
    return a.ndim


# ---------------------------------------------------------------------------------------
# Coordinate grids
# ---------------------------------------------------------------------------------------

def meshgrid(*xi, indexing='xy', sparse=False, copy=True):
    """Coordinate arrays from 1-D coordinate vectors (other inputs are flattened, as NumPy does).

    ``indexing='xy'`` (Cartesian) swaps the first two output axes, ``'ij'`` (matrix) keeps the
    input order; a list of arrays of one shape. MXNet 1.9.1 has only dense grids: ``sparse=True``
    raises NotImplementedError there too."""
    if indexing not in ('xy', 'ij'):
        raise ValueError("meshgrid: valid values for `indexing` are 'xy' and 'ij', got %r" % (indexing,))
    if sparse:
        raise NotImplementedError('meshgrid: sparse=True is not implemented (MXNet has dense grids only)')
    vectors = [ravel(to_array(x, 'meshgrid', 'xi')) for x in xi]
    lengths = [v.shape[0] for v in vectors]
    if indexing == 'xy' and len(vectors) > 1:
        lengths[0], lengths[1] = lengths[1], lengths[0]
    grids = []
    for i, v in enumerate(vectors):
        axis = 1 - i if indexing == 'xy' and i < 2 and len(vectors) > 1 else i
        along = [1] * len(vectors)
        along[axis] = -1
        grids.append(broadcast_to(reshape(v, tuple(along)), tuple(lengths)))
    return grids
