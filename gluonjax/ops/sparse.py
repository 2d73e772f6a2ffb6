"""Sparse storage (MXNet's row_sparse and csr) and the operators' sparse forms.

A sparse array is kept as MXNet keeps it, as its components, each a jax array:

* ``RowSparse(data, indices, shape)``: the rows ``indices`` (int64, increasing) of a
  ``shape`` array are ``data`` (``len(indices)`` rows), every other row is zero;
* ``CSR(data, indices, indptr, shape)``: a 2-d array whose row ``i`` holds ``data[k]`` at column
  ``indices[k]`` for ``indptr[i] <= k < indptr[i + 1]`` (int64 indices and indptr).

How many rows or elements are stored depends on the values, so these forms run eagerly: the
index bookkeeping (small int arrays) is done on the host with NumPy, the values stay jax arrays
on their device. An operator's sparse form (``OpDef.sparse``, set here with ``set_sparse_form``)
gets the compiled dense kernel and its inputs (jax arrays or RowSparse/CSR) and returns outputs in
the storage MXNet gives them (its FInferStorageType rules), or None where MXNet falls back to
dense storage (the caller then runs the dense kernel on dense copies and returns dense arrays).
"""
import jax
import jax.numpy as jnp
import numpy as np

from .._x64 import x64
from ..base import MXNetError, shape_str
from . import _input_shapes
from ._registry import P, add_sparse_alias, get_op, register, set_sparse_form

__all__ = ['RowSparse', 'CSR', 'STYPES', 'stype_of', 'to_dense', 'from_dense', 'cast', 'rsp_rows', 'rsp_from_parts', 'is_scipy_csr', 'csr_from_scipy',
           'csr_from_parts', 'empty']

STYPES = ('default', 'row_sparse', 'csr')
INDEX_DTYPE = np.int64  # MXNet's aux type for indices and indptr


class RowSparse:
    """A row_sparse value: rows ``indices`` of a ``shape`` array are ``data``, the rest zero."""
    __slots__ = ('data', 'indices', 'shape')
    stype = 'row_sparse'

    def __init__(self, data, indices, shape):
        self.data, self.indices, self.shape = data, indices, tuple(int(d) for d in shape)

    @property
    def dtype(self):
        return self.data.dtype

    def with_data(self, data):
        return RowSparse(data, self.indices, self.shape)


class CSR:
    """A csr value: row i holds data[k] at column indices[k], indptr[i] <= k < indptr[i + 1]."""
    __slots__ = ('data', 'indices', 'indptr', 'shape')
    stype = 'csr'

    def __init__(self, data, indices, indptr, shape):
        self.data, self.indices, self.indptr = data, indices, indptr
        self.shape = tuple(int(d) for d in shape)

    @property
    def dtype(self):
        return self.data.dtype

    def with_data(self, data):
        return CSR(data, self.indices, self.indptr, self.shape)

    def row_ids(self):
        """The row of each stored element (host int64)."""
        return np.repeat(np.arange(self.shape[0], dtype=INDEX_DTYPE), np.diff(_host(self.indptr)))


def stype_of(value):
    return getattr(value, 'stype', 'default')


def _host(x):
    return np.asarray(x)


def _index(values):
    return jnp.asarray(np.asarray(values, dtype=INDEX_DTYPE))


# ---- conversions ---------------------------------------------------------------------------

@x64
def empty(stype, shape, dtype):
    """An all-zero sparse value (nothing stored)."""
    shape = tuple(int(d) for d in shape)
    if stype == 'row_sparse':
        return RowSparse(jnp.zeros((0,) + shape[1:], dtype), _index([]), shape)
    if stype == 'csr':
        _check_csr_shape(shape)
        return CSR(jnp.zeros((0,), dtype), _index([]), _index(np.zeros(shape[0] + 1)), shape)
    raise ValueError('unknown storage type %r (one of %s)' % (stype, ', '.join(STYPES)))


def _check_csr_shape(shape):
    if len(shape) != 2:
        raise ValueError('csr storage is for 2-d arrays, got shape %s' % shape_str(shape))


def _put(host, like):
    """A host array onto the device of the jax array ``like``."""
    return jax.device_put(host, next(iter(like.devices())))


def _put_all(like, *hosts):
    """Host arrays onto the device of ``like`` in one transfer call (each call costs ~0.5 ms)."""
    return jax.device_put(hosts, next(iter(like.devices())))


@x64
def to_dense(value):
    """The dense jax array of a sparse value (a jax array is returned as it is). Built on the
    host: no compile per shape, and sparse arrays are small enough to pass through it."""
    if isinstance(value, RowSparse):
        out = np.zeros(value.shape, value.dtype)
        out[_host(value.indices)] = _host(value.data)
        return _put(out, value.data)
    if isinstance(value, CSR):
        out = np.zeros(value.shape, value.dtype)
        out[value.row_ids(), _host(value.indices)] = _host(value.data)
        return _put(out, value.data)
    return value


@x64
def from_dense(dense, stype):
    """``dense`` in storage ``stype``, storing the rows (row_sparse) or elements (csr) that are not zero."""
    if stype == 'default':
        return dense
    host = _host(dense)
    if stype == 'row_sparse':
        if host.ndim == 0:
            raise ValueError('cast_storage: row_sparse storage needs at least 1 dimension')
        rows = np.flatnonzero(np.any(host.reshape(host.shape[0], -1) != 0, axis=1))
        return RowSparse(*_put_all(dense, host[rows], rows.astype(INDEX_DTYPE)), host.shape)
    if stype == 'csr':
        _check_csr_shape(host.shape)
        rows, cols = np.nonzero(host)
        indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=host.shape[0]))]).astype(INDEX_DTYPE)
        return CSR(*_put_all(dense, host[rows, cols], cols.astype(INDEX_DTYPE), indptr), host.shape)
    raise ValueError('cast_storage: unknown storage type %r (one of %s)' % (stype, ', '.join(STYPES)))


@x64
def rsp_rows(dense, rows):
    """The rows ``rows`` (host ints, increasing, no repeats) of a dense array, as row_sparse."""
    rows = np.asarray(rows, dtype=INDEX_DTYPE)
    return RowSparse(dense[_put(rows, dense)], _put(rows, dense), dense.shape)


def is_scipy_csr(obj):
    return type(obj).__module__.startswith('scipy.sparse') and getattr(obj, 'format', None) == 'csr'


def csr_from_scipy(matrix, dtype, device):
    """A CSR from a scipy csr matrix, made canonical as MXNet makes it (duplicates summed,
    column indices sorted); ``dtype`` None keeps the matrix's."""
    matrix = matrix.copy()
    matrix.sum_duplicates()
    matrix.sort_indices()
    data = np.asarray(matrix.data, dtype=dtype if dtype is not None else matrix.dtype)
    parts = [jax.device_put(a, device) for a in (data, matrix.indices.astype(INDEX_DTYPE),
                                                 matrix.indptr.astype(INDEX_DTYPE))]
    return CSR(*parts, matrix.shape)


def cast(value, stype):
    """``value`` (dense or sparse) in storage ``stype``; row_sparse <-> csr is refused, as by MXNet."""
    have = stype_of(value)
    if have == stype:
        return value
    if have != 'default' and stype != 'default':
        raise ValueError('cast_storage from %s to %s is not supported' % (have, stype))
    return from_dense(to_dense(value), stype)


@x64
def rsp_from_parts(data, indices, shape):
    """A RowSparse from user components (their order and bounds are for check_format to judge)."""
    idx = _host(indices).astype(INDEX_DTYPE).reshape(-1)
    if data.shape[0] != idx.shape[0] or tuple(data.shape[1:]) != tuple(shape[1:]):
        raise ValueError('row_sparse_array: data of shape %s does not fit %d indices and shape %s'
                         % (shape_str(data.shape), idx.shape[0], shape_str(shape)))
    return RowSparse(data, _put(idx, data), shape)


@x64
def csr_from_parts(data, indices, indptr, shape):
    """A CSR from user components (their consistency is for check_format to judge)."""
    _check_csr_shape(shape)
    idx = _host(indices).astype(INDEX_DTYPE).reshape(-1)
    ptr = _host(indptr).astype(INDEX_DTYPE).reshape(-1)
    if ptr.shape[0] != shape[0] + 1 or data.shape != idx.shape:
        raise ValueError('csr_matrix: %d values, %d indices and %d indptr entries do not fit shape %s'
                         % (data.shape[0], idx.shape[0], ptr.shape[0], shape_str(shape)))
    return CSR(data, _put(idx, data), _put(ptr, data), shape)


def check_format(value, full_check=True):
    """MXNet's check_format: raise MXNetError where the components do not form a valid array."""
    if isinstance(value, RowSparse):
        idx = _host(value.indices)
        if full_check and (np.any(np.diff(idx) <= 0) or (idx.size and (idx[0] < 0 or idx[-1] >= value.shape[0]))):
            raise MXNetError('check_format: row_sparse indices must be increasing and inside [0, %d)'
                             % value.shape[0])
    elif isinstance(value, CSR):
        ptr, idx = _host(value.indptr), _host(value.indices)
        if ptr.shape[0] != value.shape[0] + 1 or ptr[0] != 0 or ptr[-1] != idx.shape[0] or np.any(np.diff(ptr) < 0):
            raise MXNetError('check_format: csr indptr must start at 0, not decrease and end at nnz')
        if full_check and idx.size:
            rows = value.row_ids()  # valid now that indptr is
            bad = (idx < 0) | (idx >= value.shape[1])
            bad[1:] |= (rows[1:] == rows[:-1]) & (idx[1:] <= idx[:-1])
            if np.any(bad):
                raise MXNetError('check_format: csr column indices must be increasing in each row '
                                 'and inside [0, %d)' % value.shape[1])


# ---- operators of sparse storage -----------------------------------------------------------

@register('cast_storage', params=[P('stype', 'str', choices=STYPES)])
def cast_storage(data, *, stype):
    """Storage type conversion; on dense values (symbols, the dense fallback) the identity."""
    return data


def _cast_storage_sparse(kernel, data):
    return (cast(data, kernel.attrs['stype']),)


@register('_sparse_retain', inputs=('data', 'indices'))
def sparse_retain(data, indices):
    """The rows ``indices`` of ``data``, the other rows zero (dense form of retain)."""
    keep = jnp.zeros(data.shape[0], bool).at[indices.astype(jnp.int64)].set(True)
    return jnp.where(keep.reshape((-1,) + (1,) * (data.ndim - 1)), data, jnp.zeros((), data.dtype))


def _retain_sparse(kernel, data, indices):
    if not isinstance(data, RowSparse) or stype_of(indices) != 'default':
        raise MXNetError('_sparse_retain: data must be row_sparse and indices dense, got %s and %s'
                         % (stype_of(data), stype_of(indices)))
    # MXNet's result stores exactly the requested rows (zeros where data holds none), sorted and
    # without repeats here (MXNet copies the request as given, unordered or repeated); nothing
    # when data stores no row.
    have = _host(data.indices)
    want = np.unique(_host(indices).astype(INDEX_DTYPE))
    if want.size and (want[0] < 0 or want[-1] >= data.shape[0]):
        raise MXNetError('_sparse_retain: row indices must lie in [0, %d), got %d..%d'
                         % (data.shape[0], want[0], want[-1]))
    if not have.size:
        want = want[:0]
    pos = np.minimum(np.searchsorted(have, want), max(have.size - 1, 0))
    found = have[pos] == want if have.size else np.zeros(0, bool)
    rows = data.data[_index(pos)]
    mask = jnp.asarray(found).reshape((-1,) + (1,) * (rows.ndim - 1))
    rows = jnp.where(mask, rows, jnp.zeros((), rows.dtype))
    return (RowSparse(rows, _put(want, data.indices), data.shape),)


@register('_contrib_getnnz', params=[P('axis', 'int', None, optional=True, choices=(None, 1))])
def getnnz(data, *, axis):
    """The number of stored (non-zero) values of a csr matrix: in all (axis None) or per row (axis 1)."""
    nonzero = (data != 0).astype(jnp.int64)
    return nonzero.sum(axis=axis).reshape(-1)


def _batch_norm_sparse(kernel, *inputs):
    """BatchNorm computes on dense copies of sparse inputs, but MXNet refuses fix_gamma=True
    on them (its storage rule for BatchNorm)."""
    if kernel.attrs['fix_gamma']:
        raise MXNetError('BatchNorm: fix_gamma=True is not supported for sparse ndarrays (input storage %s)'
                         % ', '.join(stype_of(a) for a in inputs))
    return None


def _getnnz_sparse(kernel, data):
    if not isinstance(data, CSR):
        raise MXNetError('getnnz: the input must be csr, got %s' % stype_of(data))
    ptr = _host(data.indptr)
    counts = np.diff(ptr) if kernel.attrs['axis'] == 1 else np.asarray([ptr[-1]])
    return (_put(counts.astype(INDEX_DTYPE), data.data),)


@register('_square_sum', params=[P('axis', 'axis', None), P('keepdims', 'bool', False)])
def square_sum(data, *, axis, keepdims):
    """sum(data * data) over ``axis`` (MXNet's fused form for row_sparse arrays)."""
    return jnp.sum(jnp.square(data), axis=axis, keepdims=keepdims)


def _square_sum_sparse(kernel, data):
    """Per-row sums of a row_sparse array, kept as a column (axis 1, keepdims), stay row_sparse."""
    axis, keepdims = kernel.attrs['axis'], kernel.attrs['keepdims']
    if isinstance(data, RowSparse) and axis in (1, -1) and keepdims and len(data.shape) == 2:
        return (RowSparse(kernel(data.data)[0], data.indices, (data.shape[0], 1)),)
    return None


@register('_contrib_SparseEmbedding', inputs=('data', 'weight'), input_shapes=_input_shapes.embedding,
          params=[P('input_dim', 'int'), P('output_dim', 'int'), P('dtype', 'dtype', 'float32'),
                  P('sparse_grad', 'bool', False), P('deterministic', 'bool', False)])
def sparse_embedding(data, weight, *, input_dim, output_dim, dtype, sparse_grad, deterministic):
    """MXNet's deprecated Embedding with a row_sparse gradient (``deterministic`` changes nothing
    here: the gradient is always the same)."""
    return get_op('Embedding').fn(data, weight, input_dim=input_dim, output_dim=output_dim, dtype=dtype,
                                  sparse_grad=True)


def row_sparse_gradients(op_name, attrs):
    """The inputs whose gradient MXNet stores row_sparse (its backward storage rule)."""
    if op_name == '_contrib_SparseEmbedding' or (op_name == 'Embedding' and attrs.get('sparse_grad')):
        return ('weight',)
    return ()


# MXNet's "scatter" operators: on a sparse lhs they compute only where lhs stores a value and keep
# its structure (a divide by an absent rhs entry is not a division by zero anywhere else).
@register('_scatter_elemwise_div', inputs=('lhs', 'rhs'))
def scatter_elemwise_div(lhs, rhs):
    """lhs / rhs (on a sparse lhs: at its stored positions only)."""
    return lhs / rhs


@register('_scatter_plus_scalar', params=[P('scalar', 'float', 1.0), P('is_int', 'bool', True)])
def scatter_plus_scalar(data, *, scalar, is_int):
    """data + scalar (on a sparse array: its stored values only)."""
    return (data + scalar).astype(data.dtype)


@register('_scatter_minus_scalar', params=[P('scalar', 'float', 1.0), P('is_int', 'bool', True)])
def scatter_minus_scalar(data, *, scalar, is_int):
    """data - scalar (on a sparse array: its stored values only)."""
    return (data - scalar).astype(data.dtype)


def _scatter_div(kernel, lhs, rhs):
    if stype_of(lhs) == 'default':
        return None
    if isinstance(lhs, RowSparse):
        other = _gather_rows(rhs, _host(lhs.indices)) if isinstance(rhs, RowSparse) else to_dense(rhs)[lhs.indices]
    else:
        other = _csr_values_at(to_dense(rhs), lhs)
    return (lhs.with_data(kernel(lhs.data, other)[0]),)


def _on_stored_values(kernel, data):
    if stype_of(data) == 'default':
        return None
    return (data.with_data(kernel(data.data)[0]),)


# ---- sparse forms of dense operators ---------------------------------------------------------

def _zero_preserving(kernel, x, *extra):
    """The kernel applied to the stored values when it maps 0 to 0 (sqrt, x * 2, x + 0): the
    result keeps the input's storage and structure; otherwise MXNet falls back to dense."""
    if stype_of(x) == 'default':
        return None
    if np.any(_host(kernel(jnp.zeros((1,), x.dtype), *extra)[0]) != 0):
        return None
    return (x.with_data(kernel(x.data, *extra)[0]),)


def _unary(kernel, x):
    return _zero_preserving(kernel, x)


def _scalar(kernel, x):
    return _zero_preserving(kernel, x, *[kernel.attrs[n] for n in kernel.dynamic])


def _same_structure(kernel, x):
    """zeros_like, Cast, _copy: the same stored positions, values from the kernel."""
    if stype_of(x) == 'default':
        return None
    return (x.with_data(kernel(x.data)[0]),)


def _rsp_union(a, b):
    """Two row_sparse values gathered onto the union of their rows: (rows, a rows, b rows)."""
    rows = np.union1d(_host(a.indices), _host(b.indices)).astype(INDEX_DTYPE)
    return rows, _gather_rows(a, rows), _gather_rows(b, rows)


def _gather_rows(value, rows):
    """The rows ``rows`` (host, increasing) of a RowSparse or dense array, as a dense block."""
    if not isinstance(value, RowSparse):
        return value[_index(rows)]
    have = _host(value.indices)
    block = jnp.zeros((rows.shape[0],) + value.shape[1:], value.dtype)
    if not have.size:
        return block
    where = np.searchsorted(have, rows)
    found = (where < have.shape[0]) & (have[np.minimum(where, have.shape[0] - 1)] == rows)
    if not found.any():
        return block
    return block.at[_index(np.flatnonzero(found))].set(value.data[_index(where[found])])


def _csr_values_at(dense, csr):
    """The values of a dense 2-d array at a csr value's stored positions."""
    return dense[_index(csr.row_ids()), csr.indices]


def _binary_rule(keep_sparse_with_dense):
    """elemwise_add/sub (keep_sparse_with_dense False) and elemwise_mul (True): row_sparse op
    row_sparse and csr op csr stay sparse; with a dense operand add/sub are dense, mul keeps the
    sparse operand's storage (a zero times anything is zero)."""
    def form(kernel, lhs, rhs):
        ls, rs = stype_of(lhs), stype_of(rhs)
        if ls == rs == 'row_sparse' and lhs.shape == rhs.shape:
            rows, a, b = _rsp_union(lhs, rhs)
            return (RowSparse(kernel(a, b)[0], _index(rows), lhs.shape),)
        if ls == rs == 'csr' and lhs.shape == rhs.shape:
            return (from_dense(kernel(to_dense(lhs), to_dense(rhs))[0], 'csr'),)
        if keep_sparse_with_dense and {ls, rs} in ({'row_sparse', 'default'}, {'csr', 'default'}):
            sparse, dense = (lhs, rhs) if ls != 'default' else (rhs, lhs)
            if sparse.shape != dense.shape:
                return None
            if isinstance(sparse, RowSparse):
                other = dense[sparse.indices]
            else:
                other = _csr_values_at(dense, sparse)
            args = (sparse.data, other) if sparse is lhs else (other, sparse.data)
            return (sparse.with_data(kernel(*args)[0]),)
        return None
    return form


def _broadcast_scale(kernel, lhs, rhs):
    """broadcast_mul/div of a csr matrix by a dense array: csr, with its structure."""
    if not isinstance(lhs, CSR) or stype_of(rhs) != 'default':
        return None
    other = jnp.broadcast_to(rhs, lhs.shape)
    return (lhs.with_data(kernel(lhs.data, _csr_values_at(other, lhs))[0]),)


def _add_n(kernel, *values):
    if not all(isinstance(v, RowSparse) for v in values):
        return None
    rows = np.unique(np.concatenate([_host(v.indices) for v in values])).astype(INDEX_DTYPE)
    blocks = [_gather_rows(v, rows) for v in values]
    return (RowSparse(kernel(*blocks)[0], _index(rows), values[0].shape),)


def _csr_rows_times(csr, dense):
    """csr @ dense without densifying csr: each stored value scales a row of ``dense``."""
    contrib = csr.data[:, None] * dense[csr.indices]
    return jax.ops.segment_sum(contrib, _index(csr.row_ids()), num_segments=csr.shape[0])


def _csr_t_times(csr, dense):
    """csr.T @ dense as row_sparse: the rows are the columns csr stores something in."""
    cols = np.unique(_host(csr.indices)).astype(INDEX_DTYPE)
    slot = np.searchsorted(cols, _host(csr.indices))
    contrib = csr.data[:, None] * dense[_index(csr.row_ids())]
    block = jax.ops.segment_sum(contrib, _index(slot), num_segments=cols.shape[0])
    return RowSparse(block, _index(cols), (csr.shape[1],) + dense.shape[1:])


def _dot(kernel, lhs, rhs):
    """dot with MXNet's storage rules (``forward_stype`` overrides the output's)."""
    out = _dot_by_storage(kernel, lhs, rhs)
    wanted = kernel.attrs.get('forward_stype')
    if wanted in (None, stype_of(out[0]) if out is not None else 'default'):
        return out
    dense = to_dense(out[0]) if out is not None else kernel(to_dense(lhs), to_dense(rhs))[0]
    return (from_dense(dense, wanted),)


def _dot_by_storage(kernel, lhs, rhs):
    """csr x dense -> dense, csr.T x dense|row_sparse -> row_sparse, dense x csr -> csr; other
    combinations fall back to dense (None)."""
    ta, tb = kernel.attrs.get('transpose_a', False), kernel.attrs.get('transpose_b', False)
    ls, rs = stype_of(lhs), stype_of(rhs)
    if ls == 'csr' and rs in ('default', 'row_sparse') and not tb:
        dense = to_dense(rhs)
        if dense.ndim != 2 or dense.shape[0] != lhs.shape[1 if not ta else 0]:
            raise MXNetError('dot: shapes %s (csr%s) and %s do not match'
                             % (shape_str(lhs.shape), '.T' if ta else '', shape_str(dense.shape)))
        dense = dense.astype(lhs.dtype)
        return (_csr_t_times(lhs, dense) if ta else _csr_rows_times(lhs, dense),)
    if ls == 'default' and rs == 'csr' and not ta and not tb:
        return (from_dense(kernel(lhs, to_dense(rhs))[0], 'csr'),)
    return None


def _slice(kernel, data):
    """slice of a csr matrix (step 1) stays csr: its rows by their pointers, its columns cut from
    those rows' dense values."""
    if not isinstance(data, CSR):
        return None
    begin, end, step = (kernel.attrs.get(k) or () for k in ('begin', 'end', 'step'))
    if any(s not in (None, 1) for s in step):
        return None
    start, stop, _ = slice(begin[0] if begin else None, end[0] if end else None).indices(data.shape[0])
    out = csr_rows(data, start, max(stop, start))
    if len(begin) > 1 and (begin[1] not in (None, 0) or end[1] not in (None, data.shape[1])):
        lo, hi, _ = slice(begin[1], end[1]).indices(data.shape[1])
        out = from_dense(to_dense(out)[:, lo:max(hi, lo)], 'csr')
    return (out,)


def _concat(kernel, *values):
    """csr matrices stacked along their rows stay csr; other storages compute on dense values."""
    if kernel.attrs['dim'] != 0 or not all(isinstance(v, CSR) for v in values):
        return None
    return (from_dense(jnp.concatenate([to_dense(v) for v in values], axis=0), 'csr'),)


def _take(kernel, a, indices):
    """take along axis 0 of a csr matrix: the rows ``indices`` (clipped or wrapped), as csr."""
    if not isinstance(a, CSR) or kernel.attrs['axis'] != 0 or stype_of(indices) != 'default':
        return None
    n = a.shape[0]
    rows = _host(indices).astype(INDEX_DTYPE).reshape(-1)
    rows = np.mod(rows, n) if kernel.attrs['mode'] == 'wrap' else np.clip(rows, 0, n - 1)
    ptr = _host(a.indptr)
    picks = [np.arange(ptr[r], ptr[r + 1], dtype=INDEX_DTYPE) for r in rows]
    where = np.concatenate(picks) if picks else np.zeros(0, INDEX_DTYPE)
    counts = np.asarray([len(p) for p in picks], dtype=INDEX_DTYPE)
    new_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(INDEX_DTYPE)
    pos = _put(where, a.data)
    return (CSR(a.data[pos], a.indices[pos], _put(new_ptr, a.data), (rows.shape[0], a.shape[1])),)


def _fully_connected(kernel, data, weight, bias=None):
    """FullyConnected of csr data: csr @ weight.T + bias without densifying the data."""
    if not isinstance(data, CSR):
        return None
    out = _csr_rows_times(data, to_dense(weight).T.astype(data.dtype))
    if bias is not None:
        out = out + to_dense(bias).reshape(1, -1)
    return (out,)


def csr_rows(value, start, stop):
    """Rows [start, stop) of a CSR value."""
    ptr = _host(value.indptr)
    lo, hi = int(ptr[start]), int(ptr[stop])
    return CSR(value.data[lo:hi], value.indices[lo:hi], _index(ptr[start:stop + 1] - lo),
               (stop - start, value.shape[1]))


_ZERO_PRESERVING_UNARY = ('abs', 'arcsin', 'arcsinh', 'arctan', 'arctanh', 'cbrt', 'ceil', 'degrees', 'expm1',
                          'fix', 'floor', 'log1p', 'negative', 'radians', 'relu', 'rint', 'round', 'sign', 'sin',
                          'sinh', 'sqrt', 'square', 'tan', 'tanh', 'trunc', 'clip', 'stop_gradient', 'make_loss')
_SCALAR_OPS = ('_plus_scalar', '_minus_scalar', '_mul_scalar', '_div_scalar', '_power_scalar',
               '_maximum_scalar', '_minimum_scalar', '_greater_scalar', '_greater_equal_scalar',
               '_lesser_scalar', '_lesser_equal_scalar', '_equal_scalar', '_not_equal_scalar')


# In MXNet's nd.sparse, computed on dense storage (as MXNet does for these storage types, or
# without its sparse kernels: division, Embedding's forward).
_DENSE_IN_MXNET_SPARSE = ('elemwise_div', 'broadcast_sub', 'broadcast_add', 'broadcast_plus', 'broadcast_minus',
                          'Embedding', 'exp', 'log', 'log10', 'log2', 'cos', 'cosh', 'arccos', 'arccosh',
                          'sigmoid', 'rsqrt', 'gamma', 'gammaln', 'sum', 'mean', 'norm', 'where', 'concat',
                          'LinearRegressionOutput', 'LogisticRegressionOutput', 'MAERegressionOutput')


def _install():
    set_sparse_form('cast_storage', _cast_storage_sparse)
    set_sparse_form('_sparse_retain', _retain_sparse, sparse_only=True)
    for name in _ZERO_PRESERVING_UNARY:
        set_sparse_form(name, _unary)
    for name in _SCALAR_OPS:
        set_sparse_form(name, _scalar)
    for name in ('zeros_like', 'Cast', '_copy'):
        set_sparse_form(name, _same_structure)
    set_sparse_form('elemwise_add', _binary_rule(False))
    set_sparse_form('elemwise_sub', _binary_rule(False))
    set_sparse_form('elemwise_mul', _binary_rule(True))
    for name in ('_maximum', '_minimum', '_hypot'):  # f(0, 0) = 0: sparse op sparse stays sparse
        set_sparse_form(name, _binary_rule(False))
    set_sparse_form('broadcast_mul', _broadcast_scale)
    set_sparse_form('broadcast_div', _broadcast_scale)
    set_sparse_form('add_n', _add_n)
    set_sparse_form('dot', _dot)
    set_sparse_form('slice', _slice)
    set_sparse_form('take', _take)
    set_sparse_form('FullyConnected', _fully_connected)
    set_sparse_form('_contrib_getnnz', _getnnz_sparse, sparse_only=True)
    set_sparse_form('Concat', _concat, sparse_aliases=False)
    set_sparse_form('_square_sum', _square_sum_sparse)
    set_sparse_form('_scatter_elemwise_div', _scatter_div)
    set_sparse_form('_scatter_plus_scalar', _on_stored_values)
    set_sparse_form('_scatter_minus_scalar', _on_stored_values)
    set_sparse_form('_contrib_quadratic', _unary)
    set_sparse_form('BatchNorm', _batch_norm_sparse, sparse_aliases=False)
    for name in _DENSE_IN_MXNET_SPARSE:
        add_sparse_alias(name)


_install()
