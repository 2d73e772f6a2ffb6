"""MXNet 1.x NDArray binary files (``mx.nd.save`` / ``mx.nd.load``, ``.params``), in pure numpy.

Layout, all integers little-endian (as written by MXNet 1.9.1 on x86/ARM):

File::

    uint64  0x112                 list magic
    uint64  0                     reserved (ignored on load)
    uint64  N                     number of arrays
    N x     array record
    uint64  K                     number of names: 0 (a list) or N (a dict)
    K x     uint64 length + that many UTF-8 bytes

Array record (version 2, what MXNet writes outside np-shape mode; version 3 is the same
record with another magic, written under ``npx.set_np()`` / ``np_shape(True)``)::

    uint32  0xF993FAC9 (v2) / 0xF993FACA (v3)
    int32   storage type          0 dense, 1 row_sparse, 2 csr
    [shape  storage shape]        sparse only
    shape   shape                 int32 ndim, then ndim x int64
    int32   device type, int32 device id   (1 = cpu, 2 = gpu, 3 = cpu_pinned, 5 = cpu_shared)
    int32   dtype flag            see _FLAG_TO_DTYPE
    [int32 aux dtype flag, shape aux shape] x num_aux   sparse only (1 row_sparse, 2 csr)
    bytes   data                  C order, prod(shape) (sparse: prod(storage shape)) elements
    [bytes  aux data] x num_aux   sparse only

Older records, still read: version 1 (magic 0xF993FAC8: no storage type, shape as above) and
the original one, whose first uint32 is ndim itself, followed by ndim x uint32 dims.

Shape semantics.  In v3 records ndim 0 is a 0-d array and a -1 anywhere means "unknown"
(a placeholder array with no data).  In v2 records MXNet's reader treats ndim 0 as such a
placeholder with no data after it, yet MXNet 1.9.1's writer stores a 0-d array
(``mx.nd.array(3.0)``) as a v2 record with ndim 0 *followed by* its device, dtype and data,
so MXNet cannot read back its own file.  ``load_arrays`` reads such a record as the 0-d
array it is.  ``save_arrays`` writes v2 records (byte-identical to ``mx.nd.save``) unless
an array is 0-d, in which case the whole file is written with v3 records, byte-identical to
``mx.npx.save`` (readable by MXNet under ``mx.util.np_shape(True)`` / ``npx.load``); see
the ``np_shape`` argument.

This module never pickles or evaluates anything read from a file: it parses fixed-size
integers and copies raw array bytes, checking every size against what the input holds.
"""
import io
import math
import os

import numpy as np

from .._files import atomic_open
from ..base import MXNetError

__all__ = ['save_arrays', 'load_arrays', 'save_arrays_to_bytes', 'load_arrays_from_bytes',
           'NDArrayFileNotFoundError', 'SUPPORTED_DTYPES', 'SparseArrays']

LIST_MAGIC = 0x112
ND_MAGIC_V1 = 0xF993FAC8
ND_MAGIC_V2 = 0xF993FAC9
ND_MAGIC_V3 = 0xF993FACA

_DEV_CPU = 1
_DEV_TYPES = {1: 'cpu', 2: 'gpu', 3: 'cpu_pinned', 5: 'cpu_shared'}
_STYPES = {0: 'default', 1: 'row_sparse', 2: 'csr'}
_NUM_AUX = {0: 0, 1: 1, 2: 2}
_MAX_NDIM = 32          # numpy 1.x's limit; MXNet never writes more in practice
_MIN_RECORD_BYTES = 12  # no array record is shorter (magic + storage type + ndim)

# mshadow type flags -> little-endian numpy dtypes of the stored bytes.
_FLAG_TO_DTYPE = {
    0: np.dtype('<f4'), 1: np.dtype('<f8'), 2: np.dtype('<f2'), 3: np.dtype('u1'),
    4: np.dtype('<i4'), 5: np.dtype('i1'), 6: np.dtype('<i8'), 7: np.dtype('u1'),  # bool: 1 byte
    8: np.dtype('<i2'), 9: np.dtype('<u2'), 10: np.dtype('<u4'), 11: np.dtype('<u8'),
    12: np.dtype('<u2'),  # bfloat16, bit pattern
}
_FLAG_NAMES = {0: 'float32', 1: 'float64', 2: 'float16', 3: 'uint8', 4: 'int32', 5: 'int8',
               6: 'int64', 7: 'bool', 8: 'int16', 9: 'uint16', 10: 'uint32', 11: 'uint64',
               12: 'bfloat16'}
# What MXNet 1.9.1's Python front end can hold (and so what we write).
_DTYPE_NAME_TO_FLAG = {'float32': 0, 'float64': 1, 'float16': 2, 'uint8': 3, 'int32': 4,
                       'int8': 5, 'int64': 6, 'bool': 7, 'bfloat16': 12}
SUPPORTED_DTYPES = tuple(_DTYPE_NAME_TO_FLAG)


class NDArrayFileNotFoundError(MXNetError, FileNotFoundError):
    """``load_arrays`` on a path that does not exist (both an MXNetError and a FileNotFoundError)."""


# Its type prints as MXNet's does (``type(e).__name__ == 'MXNetError'``), as user code reports it.
NDArrayFileNotFoundError.__name__ = NDArrayFileNotFoundError.__qualname__ = 'MXNetError'


def _bfloat16():
    try:
        import ml_dtypes
    except ImportError:  # pragma: no cover - ml_dtypes ships with jax
        return None
    return np.dtype(ml_dtypes.bfloat16)


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------

class _Reader:
    """Bounds-checked little-endian reads from a binary stream of known size."""

    def __init__(self, stream, size, src):
        self.stream = stream
        self.size = size
        self.pos = 0
        self.src = src      # 'file /x/y.params' or 'buffer', for messages
        self.where = 'the file header'
        self.np_records = set()  # whether each record read was written under np-shape (v3)

    def fail(self, msg):
        raise MXNetError('%s: %s' % (self.src, msg))

    @property
    def left(self):
        return self.size - self.pos

    def read(self, n, what):
        if n > self.left:
            self.fail('truncated at %s (reading %s: needs %d bytes, %d left at offset %d)'
                      % (self.where, what, n, self.left, self.pos))
        buf = self.stream.read(n)
        if len(buf) != n:  # the file shrank under us
            self.fail('truncated at %s (reading %s at offset %d)' % (self.where, what, self.pos))
        self.pos += n
        return buf

    def u32(self, what):
        return int.from_bytes(self.read(4, what), 'little')

    def i32(self, what):
        return int.from_bytes(self.read(4, what), 'little', signed=True)

    def u64(self, what):
        return int.from_bytes(self.read(8, what), 'little')

    def into(self, arr, what):
        """Fill the contiguous array ``arr`` with the next ``arr.nbytes`` bytes."""
        n = arr.nbytes
        if n > self.left:
            self.fail('truncated at %s (%s needs %d bytes, %d left at offset %d)'
                      % (self.where, what, n, self.left, self.pos))
        if n:
            got = self.stream.readinto(memoryview(arr.reshape(-1).view(np.uint8)))
            if got != n:
                self.fail('truncated at %s (reading %s at offset %d)' % (self.where, what, self.pos))
        self.pos += n


def _read_shape(r, what):
    """An mxnet::TShape: int32 ndim, then ndim int64 dims."""
    return _read_dims(r, r.i32(what + ' ndim'), what, 8)


def _read_dims(r, ndim, what, dim_bytes):
    if ndim < -1 or ndim > _MAX_NDIM:
        r.fail('%s: %s has an impossible ndim %d (corrupt file)' % (r.where, what, ndim))
    if ndim <= 0:
        return ndim, ()
    raw = r.read(ndim * dim_bytes, what)
    dims = np.frombuffer(raw, dtype='<i8' if dim_bytes == 8 else '<u4')
    return ndim, tuple(int(d) for d in dims)


def _read_ctx_dtype(r):
    dev_type = r.i32('the device type')
    r.i32('the device id')
    if dev_type not in _DEV_TYPES:
        r.fail('%s: unknown device type %d (corrupt file)' % (r.where, dev_type))
    flag = r.i32('the dtype flag')
    if flag not in _FLAG_TO_DTYPE:
        r.fail('%s: unknown dtype flag %d (MXNet knows 0-12: %s)'
               % (r.where, flag, ', '.join('%d=%s' % kv for kv in sorted(_FLAG_NAMES.items()))))
    return flag


def _check_dims(r, shape, what):
    if any(d < 0 for d in shape):
        r.fail('%s: %s %s has a negative dimension (corrupt file)' % (r.where, what, list(shape)))


def _read_data(r, flag, shape, what='its data'):
    stored = _FLAG_TO_DTYPE[flag]
    count = math.prod(shape)
    need = count * stored.itemsize
    if need > r.left:
        r.fail('truncated at %s (shape %s of %s needs %d bytes of data, only %d left)'
               % (r.where, list(shape), _FLAG_NAMES[flag], need, r.left))
    arr = np.empty(count, dtype=stored)
    r.into(arr, what)
    if flag == 7:
        arr = arr != 0
    elif flag == 12:
        bf16 = _bfloat16()
        if bf16 is None:  # pragma: no cover
            r.fail('%s is bfloat16, which needs the ml_dtypes package' % r.where)
        arr = arr.astype(np.uint16, copy=False).view(bf16)
    elif arr.dtype.byteorder not in ('=', '|'):
        arr = arr.astype(arr.dtype.newbyteorder('='), copy=False)
    return arr.reshape(shape)


class SparseArrays:
    """A sparse record's parts as numpy arrays: ``data`` (the stored values, its storage shape)
    and ``aux`` in MXNet's order (row_sparse: [indices]; csr: [indptr, indices]) of a ``shape``
    array of storage ``stype``."""
    __slots__ = ('stype', 'shape', 'data', 'aux')

    def __init__(self, stype, shape, data, aux):
        self.stype, self.shape, self.data, self.aux = stype, tuple(shape), data, list(aux)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def dtype(self):
        return self.data.dtype


def _read_sparse(r, stype, nad):
    """A sparse record (after its magic and storage type) as SparseArrays."""
    _, sshape = _read_shape(r, 'the storage shape')
    _check_dims(r, sshape, 'storage shape')
    ndim, shape = _read_shape(r, 'the shape')
    if ndim <= 0:  # placeholder: nothing follows (MXNet's reader stops here too)
        r.fail('%s is a %s placeholder with an unknown shape; it holds no data' % (r.where, _STYPES[stype]))
    _check_dims(r, shape, 'shape')
    flag = _read_ctx_dtype(r)
    aux = []
    for k in range(nad):
        aflag = r.i32('aux dtype flag %d' % k)
        if aflag not in _FLAG_TO_DTYPE:
            r.fail('%s: unknown aux dtype flag %d (corrupt file)' % (r.where, aflag))
        _, ashape = _read_shape(r, 'aux shape %d' % k)
        _check_dims(r, ashape, 'aux shape')
        aux.append((aflag, ashape))
    if math.prod(sshape) == 0 and aux:
        # MXNet 1.9.1 writes the storage shape before the array is computed, so an array saved
        # right after it was made (x.tostype('csr')) may say (0,); its reader then takes the
        # storage shape from the aux shapes, and so does this one
        nnz = aux[0][1][0] if stype == 1 else aux[1][1][0]
        sshape = (nnz,) + tuple(shape[1:]) if stype == 1 else (nnz,)
    if len(sshape) != (len(shape) if stype == 1 else 1) or (stype == 1 and sshape[1:] != shape[1:]):
        r.fail('%s: storage shape %s does not fit a %s array of shape %s (corrupt file)'
               % (r.where, list(sshape), _STYPES[stype], list(shape)))
    data = _read_data(r, flag, sshape, 'its stored values')
    aux_data = [_read_data(r, f, s, 'its aux data %d' % k) for k, (f, s) in enumerate(aux)]
    return SparseArrays(_STYPES[stype], shape, data, aux_data)


def _read_record(r, i):
    """One array record; returns a numpy array, or SparseArrays for a sparse record."""
    r.where = 'array %d' % i
    magic = r.u32('the array magic')
    r.np_records.add(magic == ND_MAGIC_V3)
    if magic in (ND_MAGIC_V2, ND_MAGIC_V3):
        stype = r.i32('the storage type')
        if stype not in _STYPES:
            r.fail('array %d: unknown storage type %d (corrupt file)' % (i, stype))
        if stype != 0:
            return _read_sparse(r, stype, _NUM_AUX[stype])
        ndim, shape = _read_shape(r, 'the shape')
        if ndim == -1 or any(d == -1 for d in shape):
            r.fail('array %d has an unknown shape (an uninitialized placeholder array); '
                   'it holds no data' % i)
    elif magic == ND_MAGIC_V1:
        ndim, shape = _read_shape(r, 'the shape')
        if ndim == -1 or any(d == -1 for d in shape):
            r.fail('array %d has an unknown shape (an uninitialized placeholder array); '
                   'it holds no data' % i)
    elif magic <= _MAX_NDIM:
        # The original record: the first word is ndim, dims are uint32.
        ndim, shape = _read_dims(r, magic, 'the shape', 4)
    else:
        r.fail('array %d: bad array magic 0x%08X (expected 0x%08X; corrupt or not an MXNet '
               'NDArray file)' % (i, magic, ND_MAGIC_V2))
    _check_dims(r, shape, 'shape')
    flag = _read_ctx_dtype(r)
    return _read_data(r, flag, shape)


_FOREIGN_HINTS = [
    (b'\x93NUMPY', 'a numpy .npy file'),
    (b'PK\x03\x04', 'a zip archive (numpy .npz, as MXNet 2.x / mx.np save writes?)'),
    (b'\x89HDF', 'an HDF5 file (Keras?)'),
    (b'\x80', 'a Python pickle (torch.save / pickle.dump?); pickles are never loaded'),
    (b'{', 'a JSON file (an MXNet -symbol.json?)'),
    (b'[', 'a JSON file'),
]


def _foreign_hint(head):
    for prefix, what in _FOREIGN_HINTS:
        if prefix == b'\x80' and head[1:2] not in (b'\2', b'\3', b'\4', b'\5'):
            continue  # pickle protocols 2-5 start with 0x80 <protocol>
        if head.startswith(prefix):
            return '; it looks like %s' % what
    return ''


def _check_semantics(r, np_shape):
    """MXNet's rule: np-shape (v3) records load only with NumPy shape semantics on, older ones
    only with them off. ``np_shape``: whether they are on; None checks nothing."""
    if np_shape is None:
        return
    if True in r.np_records and not np_shape:
        r.fail('the arrays were saved with NumPy shape semantics and must be loaded with them on '
               '(load inside `with mx.np_shape(True)`, or use mx.npx.load)')
    if False in r.np_records and np_shape:
        r.fail('the arrays were saved without NumPy shape semantics but are loaded with them on; '
               'load them outside `with mx.np_shape(True)`')


def _load(stream, size, src, np_shape=None):
    r = _Reader(stream, size, src)
    if size < 16:
        head = stream.read(16)
        if size == 0:
            raise MXNetError('%s is empty, not an MXNet NDArray file' % src)
        raise MXNetError('%s is not an MXNet NDArray file (only %d bytes%s)'
                         % (src, size, _foreign_hint(head)))
    head = r.read(8, 'the list magic')
    magic = int.from_bytes(head, 'little')
    if magic != LIST_MAGIC:
        raise MXNetError('%s is not an MXNet NDArray file (bad magic 0x%016X, expected 0x%X%s)'
                         % (src, magic, LIST_MAGIC, _foreign_hint(head)))
    r.u64('the reserved word')
    count = r.u64('the array count')
    if count > r.left // _MIN_RECORD_BYTES:
        r.fail('the header claims %d arrays but only %d bytes follow (corrupt file)'
               % (count, r.left))
    arrays = [_read_record(r, i) for i in range(count)]
    r.where = 'the name list (after array %d)' % (count - 1) if count else 'the name list'
    nnames = r.u64('the name count')
    if nnames not in (0, count):
        r.fail('%d names for %d arrays (corrupt file)' % (nnames, count))
    names = []
    for k in range(nnames):
        r.where = 'name %d' % k
        length = r.u64('the name length')
        if length > r.left:
            r.fail('truncated at name %d (length %d, only %d bytes left)' % (k, length, r.left))
        raw = r.read(length, 'the name')
        try:
            names.append(raw.decode('utf-8'))
        except UnicodeDecodeError:
            r.fail('name %d is not valid UTF-8 (corrupt file)' % k)
    if r.left:
        r.fail('%d unexpected bytes after the end of the data (corrupt file?)' % r.left)
    _check_semantics(r, np_shape)
    if names:
        return dict(zip(names, arrays))
    return arrays


def load_arrays(fname, np_shape=None):
    """Read an MXNet 1.x NDArray file (``mx.nd.save``, ``.params``).

    Returns a dict name -> numpy array (SparseArrays for a row_sparse or csr array) when the
    file stores names, else a list.  Raises MXNetError naming the file and the problem when it
    is not a valid NDArray file,
    or, given ``np_shape`` (see ``_check_semantics``), when its records need the other semantics.
    """
    path = os.fspath(fname)
    src = 'file %r' % (path,)
    try:
        f = open(path, 'rb')
    except FileNotFoundError as e:
        raise NDArrayFileNotFoundError('%s does not exist' % src) from e
    except OSError as e:
        raise MXNetError('%s cannot be read: %s' % (src, e.strerror or e)) from e
    with f:
        try:
            size = os.fstat(f.fileno()).st_size
        except OSError as e:  # pragma: no cover
            raise MXNetError('%s cannot be read: %s' % (src, e.strerror or e)) from e
        return _load(f, size, src, np_shape)


def load_arrays_from_bytes(buf):
    """``load_arrays`` for the contents of a file held in memory (``mx.nd.load_frombuffer``)."""
    if isinstance(buf, str):
        raise MXNetError('load_arrays_from_bytes needs bytes, not str')
    view = memoryview(buf).cast('B')
    return _load(io.BytesIO(view), view.nbytes, 'buffer')


# ----------------------------------------------------------------------------------------------
# Saving
# ----------------------------------------------------------------------------------------------

def _as_array(v, label):
    if isinstance(v, SparseArrays):
        if v.stype not in ('row_sparse', 'csr') or len(v.aux) != (1 if v.stype == 'row_sparse' else 2):
            raise MXNetError('save_arrays: %s is a %s value with %d aux arrays' % (label, v.stype, len(v.aux)))
        data = _as_array(v.data, label)
        return SparseArrays(v.stype, v.shape, data, [_as_array(a, label + ' (aux)') for a in v.aux])
    if v is None or isinstance(v, (str, bytes, dict)):
        raise MXNetError('save_arrays: %s is %s, not an array' % (label, type(v).__name__))
    try:
        a = np.asarray(v)
    except Exception as e:  # noqa: BLE001 - anything that refuses to become an array
        raise MXNetError('save_arrays: %s (%s) cannot be converted to an array: %s'
                         % (label, type(v).__name__, e)) from e
    if a.dtype.name not in _DTYPE_NAME_TO_FLAG:
        raise MXNetError('save_arrays: %s has dtype %s, which MXNet 1.x NDArray files cannot '
                         'hold (supported: %s); cast it first'
                         % (label, a.dtype, ', '.join(SUPPORTED_DTYPES)))
    if a.ndim > _MAX_NDIM:  # pragma: no cover - numpy 2 allows 64
        raise MXNetError('save_arrays: %s has %d dimensions, more than %d'
                         % (label, a.ndim, _MAX_NDIM))
    return a


def _normalize(data):
    if isinstance(data, dict):
        names, arrays = [], []
        for k, v in data.items():
            if not isinstance(k, str):
                raise MXNetError('save_arrays: dict keys must be str, got %r (%s)'
                                 % (k, type(k).__name__))
            names.append(k)
            arrays.append(_as_array(v, 'array %r' % k))
        return arrays, names
    if isinstance(data, (list, tuple)):
        return [_as_array(v, 'array %d' % i) for i, v in enumerate(data)], []
    if isinstance(data, (np.ndarray, np.generic)) or hasattr(data, '__array__'):
        return [_as_array(data, 'array 0')], []
    raise MXNetError('save_arrays: data must be a list or a dict str -> array, not %s'
                     % type(data).__name__)


def _shape_bytes(shape):
    return len(shape).to_bytes(4, 'little', signed=True) + np.asarray(shape, dtype='<i8').tobytes()


def _write(out, arrays, names, np_shape):
    if np_shape is None:
        np_shape = any(a.ndim == 0 for a in arrays)
    elif not np_shape:
        for i, a in enumerate(arrays):
            if a.ndim == 0:
                raise MXNetError(
                    'save_arrays: %s is 0-d; MXNet 1.x stores 0-d arrays only in np-shape '
                    'files (np_shape=True, read by mx.npx.load); mx.nd.load cannot read them. '
                    'Reshape it to (1,) for mx.nd.load.' % ('array %r' % names[i] if names
                                                             else 'array %d' % i))
    out.write(LIST_MAGIC.to_bytes(8, 'little') + bytes(8) + len(arrays).to_bytes(8, 'little'))
    for a in arrays:
        _write_record(out, a, np_shape)
    out.write(len(names).to_bytes(8, 'little'))
    for name in names:
        b = name.encode('utf-8')
        out.write(len(b).to_bytes(8, 'little') + b)


def _write_record(out, a, np_shape):
    """One array record: what MXNet's NDArray::Save writes for one dense or sparse array."""
    magic = (ND_MAGIC_V3 if np_shape else ND_MAGIC_V2).to_bytes(4, 'little')
    flag = _DTYPE_NAME_TO_FLAG[a.dtype.name]
    if isinstance(a, SparseArrays):
        stype = {'row_sparse': 1, 'csr': 2}[a.stype]
        out.write(magic + stype.to_bytes(4, 'little') + _shape_bytes(a.data.shape) + _shape_bytes(a.shape)
                  + _DEV_CPU.to_bytes(4, 'little') + bytes(4) + flag.to_bytes(4, 'little'))
        for aux in a.aux:
            out.write(_DTYPE_NAME_TO_FLAG[aux.dtype.name].to_bytes(4, 'little') + _shape_bytes(aux.shape))
        for part in [a.data] + a.aux:
            _write_values(out, part, _DTYPE_NAME_TO_FLAG[part.dtype.name])
        return
    out.write(magic + bytes(4) + _shape_bytes(a.shape)
              + _DEV_CPU.to_bytes(4, 'little') + bytes(4) + flag.to_bytes(4, 'little'))
    _write_values(out, a, flag)


def _write_values(out, a, flag):
    """The raw little-endian bytes of ``a`` (bool as bytes, bfloat16 as its bit pattern)."""
    if flag == 7:
        raw = np.ascontiguousarray(a).view(np.uint8)
    elif flag == 12:
        raw = np.ascontiguousarray(a).view(np.uint16).astype('<u2', copy=False)
    else:
        raw = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder('<'))
    if raw.size:
        out.write(memoryview(raw.reshape(-1).view(np.uint8)))


def array_to_record_bytes(a):
    """One array as a bare record (no list header): the state MXNet pickles an NDArray as."""
    a = _as_array(a, 'the array')
    out = io.BytesIO()
    _write_record(out, a, a.ndim == 0)
    return out.getvalue()


def array_from_record_bytes(buf):
    """The numpy array of one bare record (``array_to_record_bytes``, or MXNet's pickled state,
    whatever device it was saved from)."""
    view = memoryview(buf).cast('B')
    r = _Reader(io.BytesIO(view), view.nbytes, 'pickled NDArray')
    arr = _read_record(r, 0)
    if isinstance(arr, SparseArrays):
        r.fail('a %s array; sparse storage is not supported here' % arr.stype)
    if r.left:
        r.fail('%d bytes left after the array record (corrupt state)' % r.left)
    return arr


def save_arrays_to_bytes(data, np_shape=None):
    """The bytes ``save_arrays`` would write."""
    arrays, names = _normalize(data)
    out = io.BytesIO()
    _write(out, arrays, names, np_shape)
    return out.getvalue()


def save_arrays(fname, data, np_shape=None):
    """Write ``data`` (a list of arrays, or a dict str -> array) as an MXNet 1.x NDArray file.

    dtypes: float32, float64, float16, uint8, int8, int32, int64, bool (and ml_dtypes
    bfloat16).  ``np_shape``: None (default) writes what ``mx.nd.save`` writes, switching the
    whole file to np-shape (v3) records only when an array is 0-d, as ``mx.npx.save`` does;
    True always writes v3 records; False refuses 0-d arrays.  The file is replaced atomically
    (written to a temporary file in the same directory, then renamed).
    """
    arrays, names = _normalize(data)
    with atomic_open(fname, 'wb') as f:
        _write(f, arrays, names, np_shape)
