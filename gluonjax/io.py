"""``mx.io``: data iterators (DataIter, NDArrayIter, ...), DataBatch and DataDesc.

NDArrayIter keeps its sources as numpy arrays on the host and an index order;
each batch is one numpy gather per source and one transfer to the source's
device. Its batches follow MXNet's exactly, shuffling included: it draws from
numpy's global generator the same way (which ``np.random.seed`` seeds, as in MXNet;
``mx.random.seed`` does not), so a run seeded like an MXNet run sees the same batches.
"""
import numbers
import sys
import threading
from collections import OrderedDict, namedtuple

import numpy as np

from .base import MXNetError, NotSupportedError, upper_layer
from .context import current_context
from .ndarray.ndarray import NDArray, array as _nd_array

# MXNet's mx.io is a package keeping these names in its submodule mx.io.io (scripts subclass
# mx.io.io.DataIter, import from mxnet.io.io): here that submodule is this module itself, and
# an empty __path__ lets the import system look for submodules of this module at all.
__path__ = []
io = sys.modules[__name__]
sys.modules[__name__ + '.io'] = io

__all__ = ['DataDesc', 'DataBatch', 'DataIter', 'ResizeIter', 'PrefetchingIter', 'NDArrayIter',
           'MNISTIter', 'CSVIter', 'ImageRecordIter', 'ImageRecordUInt8Iter', 'ImageRecordIter_v1',
           'ImageRecordUInt8Iter_v1', 'ImageDetRecordIter',
           'LibSVMIter', 'MXDataIter']


class DataIterError(MXNetError, ValueError):
    """A bad argument of a data iterator (an MXNetError that is also a ValueError)."""


class DataDesc(namedtuple('DataDesc', ['name', 'shape'])):
    """Name, shape, type and layout of one data or label input.

    ``layout`` tells which axis is the batch (``N``): ``NCHW`` for images,
    ``NTC`` for sequences.
    """

    def __new__(cls, name, shape, dtype=np.float32, layout='NCHW'):
        ret = super().__new__(cls, name, shape)
        ret.dtype = dtype
        ret.layout = layout
        return ret

    def __repr__(self):
        return 'DataDesc[%s,%s,%s,%s]' % (self.name, self.shape, self.dtype, self.layout)

    @staticmethod
    def get_batch_axis(layout):
        """The axis of the batch in ``layout`` (0 when layout is None, -1 when it has no N)."""
        if layout is None:
            return 0
        return layout.find('N')

    @staticmethod
    def get_list(shapes, types):
        """DataDescs from ``[(name, shape)]`` and optional ``[(name, dtype)]``."""
        if types is not None:
            type_dict = dict(types)
            return [DataDesc(x[0], x[1], type_dict[x[0]]) for x in shapes]
        return [DataDesc(x[0], x[1]) for x in shapes]


class DataBatch:
    """One batch from a data iterator: ``data`` and ``label`` (lists of NDArrays), ``pad`` (the
    number of padding samples at the end), ``index``, ``bucket_key``, ``provide_data``,
    ``provide_label``."""

    def __init__(self, data, label=None, pad=None, index=None,
                 bucket_key=None, provide_data=None, provide_label=None):
        # AssertionError, as MXNet's argument checks raise here
        if data is not None and not isinstance(data, (list, tuple)):
            raise AssertionError('DataBatch: data must be a list of NDArrays, got %s' % type(data).__name__)
        if label is not None and not isinstance(label, (list, tuple)):
            raise AssertionError('DataBatch: label must be a list of NDArrays, got %s' % type(label).__name__)
        self.data = data
        self.label = label
        self.pad = pad
        self.index = index
        self.bucket_key = bucket_key
        self.provide_data = provide_data
        self.provide_label = provide_label

    def __str__(self):
        data_shapes = [d.shape for d in self.data]
        label_shapes = [l.shape for l in self.label] if self.label else None
        return '{}: data shapes: {} label shapes: {}'.format(type(self).__name__, data_shapes, label_shapes)


class DataIter:
    """Base class of data iterators: ``next()`` returns a DataBatch until StopIteration;
    ``reset()`` starts again."""

    def __init__(self, batch_size=0):
        self.batch_size = batch_size

    def __iter__(self):
        return self

    def reset(self):
        """Go back to the beginning of the data."""

    def next(self):
        """The next DataBatch (StopIteration at the end of the data)."""
        if self.iter_next():
            return DataBatch(data=self.getdata(), label=self.getlabel(), pad=self.getpad(), index=self.getindex())
        raise StopIteration

    def __next__(self):
        return self.next()

    def iter_next(self):
        """Move to the next batch; False at the end."""

    def getdata(self):
        """The data of the current batch (a list of NDArrays)."""

    def getlabel(self):
        """The label of the current batch (a list of NDArrays)."""

    def getindex(self):
        """The indices of the samples of the current batch, or None."""
        return None

    def getpad(self):
        """The number of padding samples in the current batch."""


class _WrappingIter(DataIter):
    """An iterator over other iterators' batches: the accessors read ``current_batch``."""
    current_batch = None

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


class ResizeIter(_WrappingIter):
    """Make ``data_iter`` yield ``size`` batches per epoch, restarting it when it runs out."""

    def __init__(self, data_iter, size, reset_internal=True):
        super().__init__()
        self.data_iter = data_iter
        self.size = size
        self.reset_internal = reset_internal
        self.cur = 0
        self.current_batch = None
        self.provide_data = data_iter.provide_data
        self.provide_label = data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, 'default_bucket_key'):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self):
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self):
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True



class PrefetchingIter(_WrappingIter):
    """Read the next batches of one or several iterators in background threads.

    With several iterators, a batch joins their data and labels (renamed by
    ``rename_data`` / ``rename_label``, one dict per iterator).
    """

    def __init__(self, iters, rename_data=None, rename_label=None):
        super().__init__()
        if not isinstance(iters, list):
            iters = [iters]
        if not iters:
            raise AssertionError('PrefetchingIter: needs at least one iterator')  # MXNet asserts it
        self.n_iter = len(iters)
        self.iters = iters
        self.rename_data = rename_data
        self.rename_label = rename_label
        self.batch_size = self.provide_data[0][1][0]
        self.data_ready = [threading.Event() for _ in range(self.n_iter)]
        self.data_taken = [threading.Event() for _ in range(self.n_iter)]
        for e in self.data_taken:
            e.set()
        self.started = True
        self.current_batch = None
        self.next_batch = [None] * self.n_iter
        self._errors = [None] * self.n_iter
        self.prefetch_threads = [threading.Thread(target=self._prefetch, args=(i,), daemon=True)
                                 for i in range(self.n_iter)]
        for t in self.prefetch_threads:
            t.start()

    def _prefetch(self, i):
        while True:
            self.data_taken[i].wait()
            if not self.started:
                break
            try:
                self.next_batch[i] = self.iters[i].next()
            except StopIteration:
                self.next_batch[i] = None
            except Exception as err:  # handed to the consumer thread
                self.next_batch[i], self._errors[i] = None, err
            self.data_taken[i].clear()
            self.data_ready[i].set()

    def __del__(self):
        self.started = False
        for e in getattr(self, 'data_taken', []):
            e.set()

    def _renamed(self, descs_of, renames):
        if renames is None:
            return sum([descs_of(it) for it in self.iters], [])
        return sum([[DataDesc(r[x.name], x.shape, x.dtype) if isinstance(x, DataDesc) else DataDesc(*x)
                     for x in descs_of(it)] for r, it in zip(renames, self.iters)], [])

    @property
    def provide_data(self):
        return self._renamed(lambda it: it.provide_data, self.rename_data)

    @property
    def provide_label(self):
        return self._renamed(lambda it: it.provide_label, self.rename_label)

    def reset(self):
        for e in self.data_ready:
            e.wait()
        for it in self.iters:
            it.reset()
        for e in self.data_ready:
            e.clear()
        for e in self.data_taken:
            e.set()

    def iter_next(self):
        for e in self.data_ready:
            e.wait()
        for err in self._errors:
            if err is not None:
                self._errors = [None] * self.n_iter
                raise err
        if self.next_batch[0] is None:
            if any(b is not None for b in self.next_batch):
                raise AssertionError('PrefetchingIter: the iterators yield different numbers of batches')
            return False
        if any(b.pad != self.next_batch[0].pad for b in self.next_batch):
            raise AssertionError('PrefetchingIter: the iterators yield batches with different padding')
        self.current_batch = DataBatch(sum([b.data for b in self.next_batch], []),
                                       sum([b.label for b in self.next_batch], []),
                                       self.next_batch[0].pad, self.next_batch[0].index,
                                       provide_data=self.provide_data, provide_label=self.provide_label)
        for e in self.data_ready:
            e.clear()
        for e in self.data_taken:
            e.set()
        return True

    def next(self):
        if self.iter_next():
            return self.current_batch
        raise StopIteration


# ---------------------------------------------------------------------------------------
# NDArrayIter
# ---------------------------------------------------------------------------------------

class _CsrRows:
    """The rows of a csr matrix on the host (values, column indices, row pointers): a source whose
    batches are CSRNDArrays built from their rows' nonzeros, never from a dense copy."""
    ndim = 2

    def __init__(self, values, indices, indptr, num_cols):
        self.values, self.indices, self.indptr = values, indices, indptr
        self.shape = (len(indptr) - 1, num_cols)

    def take(self, idx, ctx):
        """The rows ``idx`` as a CSRNDArray on ``ctx``."""
        from .ndarray.sparse import csr_matrix
        starts, ends = self.indptr[idx], self.indptr[idx + 1]
        picked = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends)] + [np.zeros(0, np.int64)])
        indptr = np.concatenate([[0], np.cumsum(ends - starts)]).astype(np.int64)
        return csr_matrix((self.values[picked], self.indices[picked], indptr), shape=(len(idx), self.shape[1]),
                          ctx=ctx, dtype=self.values.dtype)


class _Source:
    """One named input of NDArrayIter: its values on the host, dtype, device and the storage
    type of its batches ('csr' for a CSRNDArray or scipy csr matrix, whose host copy is dense,
    and for the _CsrRows of a LibSVM file, kept sparse)."""
    __slots__ = ('name', 'host', 'dtype', 'ctx', 'stype')

    def __init__(self, name, host, dtype, ctx, stype='default'):
        self.name, self.host, self.dtype, self.ctx, self.stype = name, host, dtype, ctx, stype


def _is_scipy_csr(value):
    return type(value).__module__.startswith('scipy.sparse') and getattr(value, 'format', None) == 'csr'


def _init_data(data, allow_empty, default_name, what):
    """MXNet's canonical form of NDArrayIter's data or label: sorted (name, _Source) pairs.

    numpy arrays (and anything else array-like) become float32, as ``mx.nd.array`` makes
    them in MXNet; NDArrays keep their dtype and device.
    """
    if data is None:
        if not allow_empty:  # AssertionError, as MXNet's check of it raises
            raise AssertionError('NDArrayIter: %s must be given' % what)
        data = []
    if isinstance(data, (np.ndarray, NDArray, _CsrRows)) or _is_scipy_csr(data):
        data = [data]
    if isinstance(data, list):
        if not data and not allow_empty:
            raise AssertionError('NDArrayIter: %s is an empty list' % what)
        if len(data) == 1:
            data = OrderedDict([(default_name, data[0])])
        else:
            data = OrderedDict([('_%d_%s' % (i, default_name), d) for i, d in enumerate(data)])
    if not isinstance(data, dict):
        raise TypeError('Input must be NDArray, numpy.ndarray, a list of them or dict with them as values')
    sources = []
    for name, value in data.items():
        if isinstance(value, _CsrRows):
            src = _Source(name, value, value.values.dtype, current_context(), 'csr')
        elif isinstance(value, NDArray):
            src = _Source(name, value.asnumpy(), np.dtype(value.dtype), value.context, value.stype)
        elif _is_scipy_csr(value):
            src = _Source(name, value.toarray().astype(np.float32), np.dtype(np.float32), current_context(), 'csr')
        else:
            try:
                host = np.array(value, dtype=np.float32)  # a copy, as mx.nd.array makes
            except (TypeError, ValueError):
                raise TypeError("Invalid type '%s' for %s, should be NDArray, numpy.ndarray or h5py.Dataset"
                                % (type(value), name)) from None
            src = _Source(name, host, np.dtype(np.float32), current_context())
        if src.host.ndim == 0:
            raise DataIterError('NDArrayIter: %s %r is a scalar; it needs a batch axis' % (what, name))
        sources.append((name, src))
    return sorted(sources, key=lambda item: item[0])


def _is_range(idx):
    return idx.size > 0 and int(idx[-1]) - int(idx[0]) == idx.size - 1 and \
        (idx.size == 1 or bool(np.all(np.diff(idx) == 1)))


class NDArrayIter(DataIter):
    """Iterate over NDArrays or numpy arrays in batches.

    Parameters
    ----------
    data : array, list of arrays or dict of str to array
        The input data (NDArray or numpy array; numpy arrays become float32).
    label : array, list of arrays or dict of str to array, optional
        The input labels.
    batch_size : int
        Batch size (a positive integer).
    shuffle : bool
        Shuffle the samples at every ``reset()`` (and at creation).
    last_batch_handle : {'pad', 'discard', 'roll_over'}
        The last batch when batch_size does not divide the number of samples: padded
        with samples from the beginning (``batch.pad`` says how many), discarded, or
        rolled over into the first batch of the next epoch.
    data_name, label_name : str
        Names of a single data / label input.
    layout : str
        The data layout; ``N`` marks the batch axis.

    Examples
    --------
    >>> it = mx.io.NDArrayIter(np.arange(40).reshape((10, 2, 2)), np.ones([10, 1]), 3,
    ...                        last_batch_handle='discard')
    >>> [batch.data[0].shape for batch in it]
    [(3, 2, 2), (3, 2, 2), (3, 2, 2)]
    """

    def __init__(self, data, label=None, batch_size=1, shuffle=False,
                 last_batch_handle='pad', data_name='data', label_name='softmax_label', layout='NCHW'):
        super().__init__(batch_size)
        if isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral) or batch_size <= 0:
            raise DataIterError('NDArrayIter: batch_size must be a positive integer, got %r' % (batch_size,))
        if last_batch_handle not in ('pad', 'discard', 'roll_over'):
            raise DataIterError("NDArrayIter: last_batch_handle must be 'pad', 'discard' or 'roll_over', got %r"
                                % (last_batch_handle,))
        self.layout = layout
        self._axis = DataDesc.get_batch_axis(layout)
        if self._axis < 0:
            raise DataIterError('NDArrayIter: layout %r has no batch axis N' % (layout,))
        self._data = _init_data(data, False, data_name, 'data')
        self._label = _init_data(label, True, label_name, 'label')
        self.num_data = self._check_lengths()
        self._check_sparse(last_batch_handle)
        self.batch_size = int(batch_size)
        self.shuffle = shuffle
        self.last_batch_handle = last_batch_handle
        if shuffle:
            # MXNet rebuilds shuffled sources with mx.nd.array, which makes them float32
            for _, src in self._data + self._label:
                src.dtype = np.dtype(np.float32)
        self.idx = np.arange(self.num_data)
        self._order = np.arange(self.num_data)
        self.cursor = -self.batch_size
        self._cache_idx = None
        self.num_source = len(self._data) + len(self._label)
        self.reset()

    def _check_sparse(self, last_batch_handle):
        """MXNet's NDArrayIter batches sparse inputs only when it discards the last partial batch."""
        sparse = [name for name, src in self._data + self._label if src.stype != 'default']
        if sparse and last_batch_handle != 'discard':
            raise NotImplementedError("NDArrayIter: sparse inputs (%s) are batched with last_batch_handle='discard' "
                                      "only, got %r" % (', '.join(sparse), last_batch_handle))

    def _check_lengths(self):
        sources = self._data + self._label
        for name, src in sources:
            if src.host.ndim <= self._axis:
                raise DataIterError('NDArrayIter: %r of shape %s has no batch axis %d (layout %r)'
                                    % (name, src.host.shape, self._axis, self.layout))
        # The first data array sets the number of samples. Longer inputs are read only up to it, as
        # MXNet's iterator reads them (scripts score part of the data against the full labels).
        first_name, first = sources[0]
        n = first.host.shape[self._axis]
        for name, src in sources[1:]:
            if src.host.shape[self._axis] < n:
                raise DataIterError('NDArrayIter: every input needs as many samples as the data, but %r has %d '
                                    'and %r has %d' % (first_name, n, name, src.host.shape[self._axis]))
        if n == 0:
            raise DataIterError('NDArrayIter: the data has no samples')
        return n

    # ---- descriptions ------------------------------------------------------------------
    def _descs(self, sources):
        out = []
        for name, src in sources:
            shape = list(src.host.shape)
            shape[self._axis] = self.batch_size
            out.append(DataDesc(name, tuple(shape), src.dtype.type, layout=self.layout))
        return out

    @property
    def provide_data(self):
        """The name, shape and dtype of each data input of a batch."""
        return self._descs(self._data)

    @property
    def provide_label(self):
        """The name, shape and dtype of each label input of a batch."""
        return self._descs(self._label)

    def _whole(self, sources):
        return [(name, self._gather(src, self._order)) for name, src in sources]

    @property
    def data(self):
        """``[(name, NDArray)]``: every data input, in the current (shuffled) order."""
        return self._whole(self._data)

    @property
    def label(self):
        """``[(name, NDArray)]``: every label input, in the current (shuffled) order."""
        return self._whole(self._label)

    # ---- position ----------------------------------------------------------------------
    def hard_reset(self):
        """Start again from the beginning, dropping any rolled-over samples."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_idx = None

    def reset(self):
        """Start a new epoch (shuffling first when ``shuffle``)."""
        if self.shuffle:
            self._shuffle_data()
        if self.last_batch_handle == 'roll_over' and \
                self.num_data - self.batch_size < self.cursor < self.num_data:
            # the samples left at the end of the epoch open the next one
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def iter_next(self):
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self):
        if not self.iter_next():
            raise StopIteration
        idx = self._batch_indices()
        if idx.size != self.batch_size:
            # an incomplete last batch ends the epoch; roll_over reuses it in the next one
            self._cache_idx = idx
            raise StopIteration
        return DataBatch(data=self._batch(self._data, idx), label=self._batch(self._label, idx),
                         pad=self.getpad(), index=self._batch_index(idx))

    @staticmethod
    def _batch_index(idx):
        """``DataBatch.index`` of the batch of samples ``idx``: NDArrayIter gives none."""
        return None

    def _batch_indices(self):
        """The sample indices of the batch at the cursor."""
        c, bs, n = self.cursor, self.batch_size, self.num_data
        if c >= n:
            raise AssertionError('NDArrayIter: no batch left; call reset()')  # MXNet asserts it
        if self.last_batch_handle == 'roll_over' and -bs < c < 0:
            if self._cache_idx is None:
                raise DataIterError('NDArrayIter: no rolled-over samples to start this epoch with')
            return np.concatenate([self._cache_idx, self._order[:c + bs]])
        if self.last_batch_handle == 'pad' and c + bs > n:
            # pad with samples from the beginning, repeating them when the batch is larger than the data
            return np.concatenate([self._order[c:], np.resize(self._order, c + bs - n)])
        return self._order[c:min(c + bs, n)]

    def _gather(self, src, idx):
        if isinstance(src.host, _CsrRows):
            return src.host.take(idx, src.ctx)
        axis = self._axis
        if _is_range(idx):
            index = [slice(None)] * src.host.ndim
            index[axis] = slice(int(idx[0]), int(idx[-1]) + 1)
            host = src.host[tuple(index)]
        else:
            host = np.take(src.host, idx, axis=axis)
        out = _nd_array(host, ctx=src.ctx, dtype=src.dtype)
        return out if src.stype == 'default' else out.tostype(src.stype)

    def _batch(self, sources, idx):
        return [self._gather(src, idx) for _, src in sources]

    def getdata(self):
        return self._batch(self._data, self._batch_indices())

    def getlabel(self):
        return self._batch(self._label, self._batch_indices())

    def getpad(self):
        if self.last_batch_handle == 'pad' and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == 'roll_over' and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    def _shuffle_data(self):
        np.random.shuffle(self.idx)
        self._order = self._order[self.idx]


# ---------------------------------------------------------------------------------------
# File iterators
# ---------------------------------------------------------------------------------------

class _NativeGetters:
    """``getdata()``/``getlabel()`` of MXNet's C++ iterators (MXDataIter): the current batch's
    one data array and one label array, where the Python iterators return lists; the batch's
    index is its samples' positions (uint64), where NDArrayIter gives None. Their errors are
    MXNetErrors, as the C++ library raises them."""

    def getindex(self):
        return self._batch_index(self._batch_indices())

    @staticmethod
    def _batch_index(idx):
        return idx.astype(np.uint64)

    def getdata(self):
        return self._batch(self._data, self._batch_indices())[0]

    def getlabel(self):
        return self._batch(self._label, self._batch_indices())[0]


class MNISTIter(_NativeGetters, NDArrayIter):
    """MNIST from IDX files (``image``, ``label``; ``.gz`` or plain), as MXNet's MNISTIter.

    Data is float32 in [0, 1) (the bytes divided by 256, as MXNet divides them), shaped
    (batch, 1, 28, 28), or (batch, 784) with ``flat=True``; labels are float32. Every batch is
    full: samples after the last full batch are skipped. When the files are not found, the copy
    of MNIST shipped with gluonjax is used for the file names it knows (``train-*`` / ``t10k-*``).
    """

    def __init__(self, image='./train-images-idx3-ubyte', label='./train-labels-idx1-ubyte', batch_size=128,
                 shuffle=True, flat=False, seed=0, silent=False, num_parts=1, part_index=0,
                 data_name='data', label_name='softmax_label', **kwargs):
        from .gluon.data.vision import _idx
        images = _idx.read_idx(_mnist_path(image, _idx))
        labels = _idx.read_idx(_mnist_path(label, _idx))
        if images.shape[0] != labels.shape[0]:
            raise MXNetError('MNISTIter: %s has %d images but %s has %d labels'
                                % (image, images.shape[0], label, labels.shape[0]))
        if num_parts > 1:
            # part k holds images n*k//parts up to n*(k+1)//parts, as in MXNet; it shuffles within the part
            n = images.shape[0]
            part = slice(n * part_index // num_parts, n * (part_index + 1) // num_parts)
            images, labels = images[part], labels[part]
        if shuffle:
            order = np.random.RandomState(seed).permutation(images.shape[0])
            images, labels = images[order], labels[order]
        data = images.reshape(images.shape[0], -1) if flat else images.reshape(images.shape[0], 1, 28, 28)
        data = data.astype(np.float32) * np.float32(1.0 / 256)  # MXNet's scale: 255 reads 0.996
        if not silent:  # MXNet's C++ iterator says what it loaded (its two lines print the shape apart)
            from ._logs import native_log
            dims = ','.join(map(str, (batch_size,) + data.shape[1:]))
            native_log('../src/io/iter_mnist.cc:%d' % (109 if flat else 112), 'MNISTIter: load %d images, shuffle=%d, '
                       'shape=%s' % (data.shape[0], int(bool(shuffle)), ('(%s)' if flat else '[%s]') % dims))
        # MXNet's C++ iterator yields only full batches: the samples after the last one are skipped
        super().__init__(data, labels.astype(np.float32), batch_size, False, 'discard', data_name, label_name)


def _mnist_path(path, _idx):
    import os
    for candidate in (path, path + '.gz'):
        if os.path.isfile(candidate):
            return candidate
    shipped = os.path.join(_idx.PACKAGE_MNIST_DIR, os.path.basename(path).replace('.gz', '') + '.gz')
    if os.path.basename(path).replace('.gz', '') in _idx.MNIST_MD5 and os.path.isfile(shipped):
        return shipped
    raise MXNetError('MNISTIter: file %s not found' % path)


class _RowFileIter(_NativeGetters, NDArrayIter):
    """The batching of MXNet's C++ row iterators (CSVIter, LibSVMIter).

    The last batch of an epoch is always full size, as MXNet's C++ iterator makes it:
    ``round_batch=True`` fills it with rows from the beginning (``batch.pad`` of them)
    and the next epoch starts after those rows; ``round_batch=False`` leaves the
    previous batch's rows in the unfilled places (``batch.pad`` says how many).
    """

    def __init__(self, data, label, batch_size, round_batch, data_name, label_name):
        self._round = bool(round_batch)
        self._overflow = 0      # rows wrapped into the last batch: where the next epoch starts
        self._prev_idx = None   # the previous batch's rows (what an unfilled place still holds)
        super().__init__(data, label, batch_size, False, 'pad' if round_batch else 'discard', data_name, label_name)

    def _check_sparse(self, last_batch_handle):
        """Sparse rows are fine here: the last batch is filled by this class, not NDArrayIter's padding."""

    def reset(self):
        start, self._overflow = (self._overflow, 0) if self._round else (0, 0)
        self.cursor = start - self.batch_size

    def next(self):
        if not self.iter_next():
            raise StopIteration
        idx = self._batch_indices()
        self._prev_idx = idx
        return DataBatch(data=self._batch(self._data, idx), label=self._batch(self._label, idx),
                         pad=self.getpad(), index=self._batch_index(idx))

    def _batch_indices(self):
        c, bs, n = self.cursor, self.batch_size, self.num_data
        if c >= n:
            raise MXNetError('%s: no batch left; call reset()' % type(self).__name__)
        missing = c + bs - n
        if missing <= 0:
            return self._order[c:c + bs]
        if self._round:
            self._overflow = missing % n
            return np.concatenate([self._order[c:], np.resize(self._order, missing)])
        stale = self._prev_idx[bs - missing:] if self._prev_idx is not None else np.resize(self._order, missing)
        return np.concatenate([self._order[c:], stale])

    def getpad(self):
        return max(0, self.cursor + self.batch_size - self.num_data)


class CSVIter(_RowFileIter):
    """Rows of a CSV file as data (reshaped to ``data_shape``), with labels from ``label_csv``
    (zeros without it); batches as :class:`_RowFileIter` describes."""

    def __init__(self, data_csv, data_shape, label_csv=None, label_shape=(1,), batch_size=1,
                 round_batch=True, dtype='float32', data_name='data', label_name='softmax_label', **kwargs):
        data = self._read(data_csv, data_shape, dtype)
        if label_csv is not None:
            label = self._read(label_csv, label_shape, dtype)
        else:
            label = np.zeros((data.shape[0],) + tuple(label_shape), dtype=dtype)
        if label.ndim == 2 and label.shape[1] == 1:
            label = label.reshape(-1)
        super().__init__(_nd_array(data, dtype=data.dtype), _nd_array(label, dtype=label.dtype), batch_size,
                         round_batch, data_name, label_name)

    @staticmethod
    def _read(path, shape, dtype):
        try:
            values = np.loadtxt(path, delimiter=',', dtype=np.dtype(dtype), ndmin=2)
        except (OSError, ValueError) as err:
            raise MXNetError('CSVIter: cannot read %s: %s' % (path, err)) from None
        shape = tuple(shape)
        if int(np.prod(shape)) != values.shape[1]:
            raise MXNetError('CSVIter: rows of %s have %d values, which cannot be shaped %s'
                             % (path, values.shape[1], shape))
        return values.reshape((values.shape[0],) + shape)


class LibSVMIter(_RowFileIter):
    """Rows of a LibSVM file (``label index:value ...``, 0-based column indices) as csr data of
    ``data_shape`` columns; labels are each line's first number, or the rows of ``label_libsvm``
    (csr, ``label_shape`` columns). Batches as :class:`_RowFileIter` describes, with
    ``round_batch=True`` only, as in MXNet."""

    def __init__(self, data_libsvm, data_shape, label_libsvm=None, label_shape=(1,), batch_size=1,
                 round_batch=True, data_name='data', label_name='softmax_label', **kwargs):
        if not round_batch:
            raise MXNetError('LibSVMIter: round_batch=False is not supported (nor is it by MXNet)')
        label, data = _read_libsvm(data_libsvm, data_shape)
        if label_libsvm is not None:
            label = _read_libsvm(label_libsvm, label_shape)[1]
            if label.shape[0] != data.shape[0]:
                raise MXNetError('LibSVMIter: %s has %d rows but %s has %d'
                                 % (data_libsvm, data.shape[0], label_libsvm, label.shape[0]))
        super().__init__(data, label, batch_size, round_batch, data_name, label_name)


def _read_libsvm(path, shape):
    """(first numbers, _CsrRows of the index:value pairs) of the LibSVM file ``path``; ``shape`` is
    the 1-D row shape the column indices must fall in."""
    if len(tuple(shape)) != 1:
        raise MXNetError('LibSVMIter: the row shape of %s must have one axis, got %s' % (path, tuple(shape)))
    firsts, values, indices, indptr = [], [], [], [0]
    try:
        with open(path) as f:
            for line in f:
                fields = line.split()
                if not fields:
                    continue
                firsts.append(float(fields[0]))
                for pair in fields[1:]:
                    column, _, value = pair.partition(':')
                    indices.append(int(column))
                    values.append(float(value))
                indptr.append(len(indices))
    except (OSError, ValueError) as err:
        raise MXNetError('LibSVMIter: cannot read %s: %s' % (path, err)) from None
    indices = np.array(indices, dtype=np.int64)
    num_cols = int(tuple(shape)[0])
    if indices.size and not 0 <= indices.min() <= indices.max() < num_cols:
        raise MXNetError('LibSVMIter: %s has column indices %d..%d, outside a row shape of %d'
                         % (path, indices.min(), indices.max(), num_cols))
    rows = _CsrRows(np.array(values, dtype=np.float32), indices, np.array(indptr, dtype=np.int64), num_cols)
    return np.array(firsts, dtype=np.float32), rows


def _unsupported(name, advice):
    def make(*args, **kwargs):
        raise NotSupportedError('mx.io.%s is not supported by gluonjax: %s' % (name, advice))
    make.__name__ = name
    return make


ImageDetRecordIter = _unsupported('ImageDetRecordIter', 'use gluon.data.vision.ImageRecordDataset')
MXDataIter = _unsupported('MXDataIter', 'it wraps a C++ iterator; use NDArrayIter or a DataLoader')


# MXNet 1.x's older implementations of the record iterators, with the same arguments
_V1 = {'ImageRecordIter_v1': 'ImageRecordIter', 'ImageRecordUInt8Iter_v1': 'ImageRecordUInt8Iter'}


def __getattr__(name):  # ImageRecordIter & ImageRecordUInt8Iter: gluonjax/io_image.py, loaded on first use
    if name in ('ImageRecordIter', 'ImageRecordUInt8Iter') or name in _V1:
        return getattr(upper_layer('io_image'), _V1.get(name, name))  # built on this module's DataIter
    raise AttributeError('module %r has no attribute %r' % (__name__, name))
