"""``mx.nd.sparse``: row_sparse and csr NDArrays, their creation functions, and the table's
``_sparse_*`` operators under their short names.

A sparse NDArray holds MXNet's components (``ops.sparse.RowSparse`` / ``CSR``: data, indices,
indptr as jax arrays). Operators with a sparse form in the table (``OpDef.sparse``) work on the
components and return arrays in MXNet's output storage; any other operator sees the dense value
(``_data``, computed when first asked for and kept until the array changes) and returns a dense
array, as MXNet's storage fallback does.
"""
import numbers

import jax
import numpy as np

from .._x64 import x64
from ..base import MXNetError, shape_str
from ..context import Context, current_context, context_of_device
from ..ops import sparse as _sp
from ..ops._frontend import populate as _populate
from . import ndarray as _nd
from ._gen import make_function as _make_function
from .ndarray import (NDArray, invoke, _STORAGE_TYPE_CSR, _STORAGE_TYPE_DEFAULT,  # noqa: F401
                      _STORAGE_TYPE_ROW_SPARSE, _STORAGE_TYPE_STR_TO_ID, _STORAGE_TYPE_UNDEFINED)

__all__ = ['BaseSparseNDArray', 'RowSparseNDArray', 'CSRNDArray', 'csr_matrix', 'row_sparse_array',
           'zeros', 'empty', 'array', 'NotSupportedForSparseNDArray']

py_slice = slice  # the module's ``slice`` is the operator (MXNet's name for the builtin)
_STORAGE_AUX_TYPES = {'row_sparse': [np.int64], 'csr': [np.int64, np.int64]}


class NotSupportedForSparseNDArray(MXNetError):
    def __init__(self, function, alias, *args):
        super().__init__('Function %s%s is not supported for SparseNDArray.'
                         % (getattr(function, '__name__', function), ' (%s)' % alias if alias else ''))


class BaseSparseNDArray(NDArray):
    """An NDArray kept in sparse storage (row_sparse or csr)."""
    __slots__ = ('_value', '_dense')
    _sparse = True

    # -- storage ---------------------------------------------------------------------------
    def _get_dense(self):
        dense = self._dense
        if dense is None:
            dense = self._dense = _sp.to_dense(self._value)
        return dense

    def _put_dense(self, dense):
        """A dense write (``x[:] = v``, an optimizer update, a gradient): stored in this
        array's storage type (the dense value is kept for readers)."""
        self._value = _sp.from_dense(dense, self.stype)
        self._dense = dense if dense.dtype == self._value.dtype else None

    _data = property(_get_dense, _put_dense)

    def _set_storage(self, value):
        """Write new components (an ``ops.sparse`` value of this array's storage type and shape)."""
        if value.stype != self.stype or value.shape != self.shape:
            raise MXNetError('cannot store a %s %s value in a %s %s array' % (
                value.stype, shape_str(value.shape), self.stype, shape_str(self.shape)))
        self._value, self._dense = value, None

    @classmethod
    def _from_value(cls, value, ctx=None, dense=None):
        """A sparse NDArray of ``value``; ``dense``, when the caller has it, is its dense value."""
        obj = _SPARSE_CLASS[type(value)].__new__(_SPARSE_CLASS[type(value)])
        obj._value, obj._dense, obj._ctx, obj._ag = value, dense, ctx, None
        obj._view = obj._views = None
        return obj

    @classmethod
    def _from_jax(cls, data, ctx=None):
        # Operators without a sparse form compute on the dense value and give dense arrays.
        return NDArray._from_jax(data, ctx)

    @property
    def _storage(self):
        return self._value

    # -- properties --------------------------------------------------------------------------
    @property
    def stype(self):
        return self._value.stype

    @property
    def shape(self):
        return self._value.shape

    @property
    def dtype(self):
        return self._value.dtype.type

    @property
    def ndim(self):
        return len(self._value.shape)

    @property
    def size(self):
        raise NotImplementedError('size is not defined for a sparse NDArray (MXNet neither)')

    @property
    def context(self):
        ctx = self._ctx
        if ctx is None:
            ctx = self._ctx = context_of_device(next(iter(self._value.data.devices())))
        return ctx

    ctx = context

    @property
    def data(self):
        """The stored values, a dense NDArray."""
        return NDArray._from_jax(self._value.data, self._ctx)

    @property
    def indices(self):
        return NDArray._from_jax(self._value.indices, self._ctx)

    @property
    def _num_aux(self):
        return len(_STORAGE_AUX_TYPES[self.stype])

    @property
    def _aux_types(self):
        return list(_STORAGE_AUX_TYPES[self.stype])

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return '\n<%s %s @%s>' % (type(self).__name__, 'x'.join('%d' % d for d in self.shape), self.context)

    __str__ = __repr__

    # -- conversion -----------------------------------------------------------------------------
    def asnumpy(self):
        return np.array(self._get_dense())

    def todense(self):
        return self.tostype('default')

    def tostype(self, stype):
        return invoke('cast_storage', [self], {'stype': stype})

    def astype(self, dtype, copy=True):
        if not copy and np.dtype(dtype) == self._value.dtype:
            return self
        return invoke('Cast', [self], {'dtype': np.dtype(dtype).name})

    def check_format(self, full_check=True):
        _sp.check_format(self._value, full_check)

    def copy(self):
        return self._from_value(self._value, self._ctx)

    def _copy_to_context(self, ctx):
        return self._from_value(_moved(self._value, ctx.jax_device), ctx)

    def _copy_into(self, other):
        if isinstance(other, BaseSparseNDArray) and other.stype == self.stype:
            other._set_storage(_moved(self._value, next(iter(other._value.data.devices()))))
        else:
            other._set_data(_nd._cast(self._get_dense(), np.dtype(other.dtype)))

    def as_in_context(self, context):
        return self if self.context == context else self.copyto(context)

    as_in_ctx = as_in_context

    def wait_to_read(self):
        self._value.data.block_until_ready()

    wait_to_write = wait_to_read

    def detach(self):
        return self._from_value(self._value, self._ctx)

    # -- Python arithmetic: elemwise operators for arrays of one shape, as MXNet's sparse module
    def __add__(self, other):
        return add(self, other)

    def __sub__(self, other):
        return subtract(self, other)

    def __mul__(self, other):
        return multiply(self, other)

    def __truediv__(self, other):
        return divide(self, other)

    __div__ = __truediv__

    # -- what sparse arrays do not do -----------------------------------------------------------
    def reshape(self, *shape, **kwargs):
        raise NotSupportedForSparseNDArray('reshape', None)

    def _at(self, idx):
        raise NotSupportedForSparseNDArray('_at', '[idx]')

    def _slice(self, start, stop):
        raise NotSupportedForSparseNDArray('_slice', None)

    def __getstate__(self):
        """The components as NumPy arrays (gluonjax's pickled form of a sparse array)."""
        value = self._value
        parts = {name: np.asarray(getattr(value, name)) for name in value.__slots__ if name != 'shape'}
        return {'stype': self.stype, 'shape': self.shape, 'parts': parts}

    def __setstate__(self, state):
        ctx = current_context()
        parts = {k: jax.device_put(v, ctx.jax_device) for k, v in state['parts'].items()}
        kind = _sp.RowSparse if state['stype'] == 'row_sparse' else _sp.CSR
        self._value, self._dense, self._ctx, self._ag = kind(shape=state['shape'], **parts), None, ctx, None
        self._view = self._views = None

    def __setitem__(self, key, value):
        """``x[:] = value``: the whole array, from an NDArray, a NumPy array or a scalar."""
        if not (isinstance(key, py_slice) and key == py_slice(None)):
            raise NotImplementedError('%s supports assignment to [:] only, got %r' % (type(self).__name__, key))
        if isinstance(value, NDArray):
            if value is self:
                return
            value.copyto(self)
            return
        if isinstance(value, (numbers.Number, np.generic, np.ndarray, list, tuple)):
            dense = np.broadcast_to(np.asarray(value, dtype=self._value.dtype), self.shape)
            self._set_data(jax.device_put(dense, self.context.jax_device))
            return
        raise TypeError('%s: cannot assign a %s' % (type(self).__name__, type(value).__name__))


class RowSparseNDArray(BaseSparseNDArray):
    """A row_sparse NDArray: ``data`` holds the rows ``indices`` of the array, the rest are zero."""
    __slots__ = ()

    def __getitem__(self, key):
        if isinstance(key, py_slice) and key == py_slice(None):
            return self
        raise Exception('__getitem__ with %s key is not implemented for RowSparseNDArray yet'
                        % ('int' if isinstance(key, numbers.Integral) else type(key).__name__))

    def retain(self, indices):
        return invoke('_sparse_retain', [self, indices], {})


class CSRNDArray(BaseSparseNDArray):
    """A 2-d NDArray in compressed sparse row storage (``data``, ``indices``, ``indptr``)."""
    __slots__ = ()

    @property
    def indptr(self):
        return NDArray._from_jax(self._value.indptr, self._ctx)

    def __getitem__(self, key):
        """Rows of the matrix: ``x[i]`` (shape (1, n)) or ``x[a:b]``, as csr."""
        n = self.shape[0]
        if isinstance(key, numbers.Integral):
            if not -n <= key < n:
                raise IndexError('index %d is out of bounds for axis 0 with size %d' % (key, n))
            key = py_slice(key % n, key % n + 1)
        if isinstance(key, py_slice) and key.step in (None, 1):
            start, stop, _ = key.indices(n)
            return self._from_value(_sp.csr_rows(self._value, start, max(start, stop)), self._ctx)
        raise ValueError('CSRNDArray only supports integer indices and continuous slices on axis 0, got %r'
                         % (key,))

    def asscipy(self):
        import scipy.sparse as spsp
        return spsp.csr_matrix((np.asarray(self._value.data), np.asarray(self._value.indices),
                                np.asarray(self._value.indptr)), shape=self.shape)


_SPARSE_CLASS = {_sp.RowSparse: RowSparseNDArray, _sp.CSR: CSRNDArray}
_nd.install_sparse(BaseSparseNDArray._from_value)


def _moved(value, device):
    parts = [jax.device_put(getattr(value, name), device) for name in value.__slots__ if name != 'shape']
    return type(value)(*parts, value.shape)


# ---- arithmetic of MXNet's sparse module: elemwise for one shape, broadcast otherwise ------------

def _arith(elemwise, broadcast, scalar):
    def fn(lhs, rhs):
        if isinstance(lhs, NDArray) and isinstance(rhs, NDArray):
            return invoke(elemwise if lhs.shape == rhs.shape else broadcast, [lhs, rhs], {})
        if isinstance(rhs, (numbers.Number, np.generic)):
            return invoke(scalar, [lhs], {'scalar': rhs})
        return NotImplemented
    fn.__name__ = elemwise.replace('elemwise_', '')
    return fn


add = _arith('elemwise_add', 'broadcast_add', '_plus_scalar')
subtract = _arith('elemwise_sub', 'broadcast_sub', '_minus_scalar')
multiply = _arith('elemwise_mul', 'broadcast_mul', '_mul_scalar')
divide = _arith('elemwise_div', 'broadcast_div', '_div_scalar')


# ---- creation ----------------------------------------------------------------------------------------

def _context(ctx):
    return Context(ctx) if ctx is not None and not isinstance(ctx, Context) else (ctx or current_context())


def _dtype(dtype, *sources):
    """The requested dtype, else the dtype of the first NDArray / NumPy source, else float32."""
    if dtype is not None:
        return np.dtype(dtype)
    for s in sources:
        if isinstance(s, (NDArray, np.ndarray)):
            return np.dtype(s.dtype)
    return np.dtype(np.float32)


def _values(source, dtype, ctx):
    """User values (NDArray, NumPy, lists) as a jax array of ``dtype`` on ``ctx``."""
    host = source.asnumpy() if isinstance(source, NDArray) else np.asarray(source)
    return jax.device_put(host.astype(dtype), ctx.jax_device)


def _is_shape(arg):
    return isinstance(arg, tuple) and all(isinstance(d, numbers.Integral) for d in arg)


@x64
def csr_matrix(arg1, shape=None, ctx=None, dtype=None):
    """A CSRNDArray from ``(data, indices, indptr)``, ``(data, (row, col))``, a shape (all zeros),
    a dense array (NDArray, NumPy, lists), another CSRNDArray or a scipy csr matrix."""
    ctx = _context(ctx)
    if _is_shape(arg1):
        _check_same_shape(arg1, shape)
        return zeros('csr', arg1, ctx, dtype)
    if isinstance(arg1, CSRNDArray):
        return arg1.astype(_dtype(dtype, arg1)).copyto(ctx)
    if isinstance(arg1, BaseSparseNDArray):
        raise ValueError('Unexpected input type: RowSparseNDArray')
    if _sp.is_scipy_csr(arg1):
        _check_same_shape(arg1.shape, shape)
        return BaseSparseNDArray._from_value(_sp.csr_from_scipy(arg1, dtype, ctx.jax_device), ctx)
    if isinstance(arg1, tuple) and len(arg1) == 3:
        data, indices, indptr = arg1
        dt = _dtype(dtype, data)
        if shape is None:
            cols = _host(indices)
            if not cols.size:
                raise ValueError('csr_matrix: the number of columns cannot be inferred without indices')
            shape = (len(_host(indptr)) - 1, int(cols.max()) + 1)
        value = _sp.csr_from_parts(_values(data, dt, ctx).reshape(-1), _host(indices), _host(indptr), tuple(shape))
        return BaseSparseNDArray._from_value(value, ctx)
    if isinstance(arg1, tuple) and len(arg1) == 2:  # (data, (row, col)): coordinates
        data, (row, col) = arg1
        dense = np.zeros(shape if shape is not None else (int(np.max(row)) + 1, int(np.max(col)) + 1),
                         dtype=_dtype(dtype, data))
        np.add.at(dense, (np.asarray(row, dtype=np.int64), np.asarray(col, dtype=np.int64)), np.asarray(data))
        return _nd.array(dense, ctx=ctx, dtype=dense.dtype).tostype('csr')
    dense = _dense_source(arg1, dtype, ctx, shape)
    return dense.tostype('csr')


@x64
def row_sparse_array(arg1, shape=None, ctx=None, dtype=None):
    """A RowSparseNDArray from ``(data, indices)``, a shape (all zeros), a dense array or another
    RowSparseNDArray."""
    ctx = _context(ctx)
    if _is_shape(arg1):
        _check_same_shape(arg1, shape)
        return zeros('row_sparse', arg1, ctx, dtype)
    if isinstance(arg1, RowSparseNDArray):
        return arg1.astype(_dtype(dtype, arg1)).copyto(ctx)
    if isinstance(arg1, BaseSparseNDArray):
        raise ValueError('Unexpected input type: CSRNDArray')
    if isinstance(arg1, tuple) and len(arg1) == 2:
        data, indices = arg1
        dt = _dtype(dtype, data)
        values = _values(data, dt, ctx)
        idx = _host(indices).reshape(-1)
        if shape is None:
            if not idx.size:
                raise ValueError('row_sparse_array: the shape cannot be inferred without indices')
            shape = (int(idx.max()) + 1,) + tuple(values.shape[1:])
        if values.ndim == 1 and len(shape) > 1:
            values = values.reshape((-1,) + tuple(shape[1:]))
        return BaseSparseNDArray._from_value(_sp.rsp_from_parts(values, idx, tuple(shape)), ctx)
    dense = _dense_source(arg1, dtype, ctx, shape)
    return dense.tostype('row_sparse')


def _check_same_shape(given, shape):
    if shape is not None and tuple(int(d) for d in shape) != tuple(int(d) for d in given):
        raise ValueError('the shape %s and the shape argument %s differ' % (tuple(given), tuple(shape)))


def _host(x):
    return x.asnumpy() if isinstance(x, NDArray) else np.asarray(x)


def _dense_source(source, dtype, ctx, shape):
    dense = _nd.array(source.asnumpy() if isinstance(source, NDArray) else source, ctx=ctx,
                      dtype=_dtype(dtype, source))
    if shape is not None and tuple(shape) != dense.shape:
        raise ValueError('the dense source has shape %s, not %s' % (shape_str(dense.shape), shape_str(shape)))
    return dense


@x64
def zeros(stype, shape, ctx=None, dtype=None, **kwargs):
    """An all-zero array of storage ``stype`` (nothing stored)."""
    ctx = _context(ctx)
    shape = (int(shape),) if isinstance(shape, numbers.Integral) else tuple(int(d) for d in shape)
    dtype = np.dtype(np.float32 if dtype is None else dtype)
    if stype not in _sp.STYPES:
        raise ValueError('zeros: unknown storage type %r (one of %s)' % (stype, ', '.join(_sp.STYPES)))
    if stype == 'default':
        return _nd.NDArray._from_jax(jax.device_put(np.zeros(shape, dtype), ctx.jax_device), ctx)
    value = _sp.empty(stype, shape, dtype)
    return BaseSparseNDArray._from_value(_moved(value, ctx.jax_device), ctx)


def _from_dense(value, stype, ctx):
    """A sparse NDArray of storage ``stype`` holding the jax array ``value`` (on ``ctx``)."""
    return BaseSparseNDArray._from_value(_sp.from_dense(value, stype), ctx, dense=value)


def empty(stype, shape, ctx=None, dtype=None):
    """MXNet leaves an empty array uninitialised; here it is all zeros."""
    return zeros(stype, shape, ctx, dtype)


def array(source_array, ctx=None, dtype=None):
    """A sparse NDArray from a sparse NDArray or a scipy csr matrix (dense sources: ``mx.nd.array``)."""
    if isinstance(source_array, RowSparseNDArray):
        return row_sparse_array(source_array, ctx=ctx, dtype=dtype)
    if isinstance(source_array, CSRNDArray) or _sp.is_scipy_csr(source_array):
        return csr_matrix(source_array, ctx=ctx, dtype=dtype)
    raise ValueError('Please use mx.nd.array to create an NDArray with source_array of type %s'
                     % type(source_array))


_populate(globals(), _make_function, ('_sparse_',))
