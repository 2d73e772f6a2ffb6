"""Datasets: indexable collections of samples (MXNet's ``gluon.data.dataset``).

Besides MXNet's interface, a dataset may offer a private *host batcher*: a
function from a list of indices to the whole batch as numpy arrays, exactly as
``default_batchify_fn`` would have stacked the samples. The DataLoader uses it
to build a batch with one numpy gather and one device transfer instead of one
small array per sample. Datasets over numpy arrays, NDArrays and lists have one,
and so do lazy transforms made of the ``vision.transforms`` classes; anything
else (user datasets, arbitrary transform functions) goes sample by sample.
"""
import os
import numbers
import struct
import threading

import numpy as np

from ...base import MXNetError
from ...context import current_context
from ...ndarray.ndarray import NDArray, array as _nd_array

__all__ = ['Dataset', 'SimpleDataset', 'ArrayDataset', 'RecordFileDataset']


class NoHostBatch(Exception):
    """Raised by a host batcher when a batch must be built sample by sample after all."""


class OnDevice:
    """A host batch of values read from NDArrays: stacking those samples would have left the
    batch on their context, so the DataLoader puts it there."""
    __slots__ = ('array', 'ctx')

    def __init__(self, array, ctx):
        self.array, self.ctx = array, ctx


def map_host(fn, batch):
    """``fn`` applied to a host batch array, keeping its OnDevice tag."""
    if isinstance(batch, OnDevice):
        return OnDevice(fn(batch.array), batch.ctx)
    return fn(batch)


# ---------------------------------------------------------------------------------------
# Host batchers
# ---------------------------------------------------------------------------------------

class _HostCopy:
    """The numpy copy of an NDArray, refreshed when the NDArray is written to."""
    __slots__ = ('_nd', '_src', '_host')

    def __init__(self, nd):
        self._nd, self._src, self._host = nd, None, None

    def get(self):
        if self._src is not self._nd._data:
            self._host = np.asarray(self._nd._data)
            self._src = self._nd._data
        return self._host


def _plain_sample(x):
    return isinstance(x, (numbers.Number, np.generic, np.ndarray))


def component_batcher(comp):
    """A host batcher for one dataset-like object (numpy array, NDArray, list, Dataset), or None."""
    if isinstance(comp, np.ndarray):
        if comp.dtype == object or comp.ndim == 0:
            return None
        return lambda idx: comp[np.asarray(idx, dtype=np.int64)]
    if isinstance(comp, NDArray):
        if comp.ndim == 0:
            return None
        if comp.context.device_type == 'gpu':
            return None  # gather on the device, sample by sample, rather than copy it all to the host
        copy = _HostCopy(comp)
        if comp.ndim == 1:
            # nd[i] of a 1-D NDArray has shape (1,) in MXNet 1.x, so the stacked batch is (N, 1)
            return lambda idx: OnDevice(copy.get()[np.asarray(idx, dtype=np.int64)].reshape(-1, 1), comp.context)
        return lambda idx: OnDevice(copy.get()[np.asarray(idx, dtype=np.int64)], comp.context)
    if isinstance(comp, (list, tuple)):
        def from_list(idx):
            items = [comp[i] for i in idx]
            if not all(_plain_sample(x) for x in items):
                raise NoHostBatch
            try:
                out = np.asarray(items)
            except ValueError:
                raise NoHostBatch from None
            if out.dtype == object:
                raise NoHostBatch
            return out
        return from_list
    if isinstance(comp, Dataset):
        return comp._host_batcher()
    return None


class Dataset:
    """Abstract dataset: subclasses define ``__getitem__`` (the i-th sample) and ``__len__``.

    A numpy array or an NDArray can be used directly as a dataset.
    """

    def __getitem__(self, idx):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def _host_batcher(self):
        """A function indices -> the batch as numpy arrays, or None (see the module docstring)."""
        return None

    def filter(self, fn):
        """A dataset of the samples for which ``fn(sample)`` is true."""
        from .sampler import FilterSampler
        return _SampledDataset(self, FilterSampler(fn, self))

    def shard(self, num_shards, index):
        """The ``index``-th of ``num_shards`` contiguous parts of this dataset (sizes differ by at most one)."""
        if num_shards <= 0:
            raise AssertionError('shard: number of shards must be greater than 0, got %d' % num_shards)
        if not 0 <= index < num_shards:
            raise AssertionError('shard: index %d is out of bounds for %d shards' % (index, num_shards))
        length = len(self)
        shard_len, rest = divmod(length, num_shards)
        start = shard_len * index + min(index, rest)
        from .sampler import SequentialSampler
        return _SampledDataset(self, SequentialSampler(shard_len + (index < rest), start))

    def take(self, count):
        """A dataset of the first ``count`` samples (all of them when ``count`` is None or too large)."""
        if count is None or count > len(self):
            count = len(self)
        from .sampler import SequentialSampler
        return _SampledDataset(self, SequentialSampler(count))

    def sample(self, sampler):
        """A dataset of the samples that ``sampler`` picks."""
        from .sampler import Sampler
        if not isinstance(sampler, Sampler):
            raise TypeError('Invalid sampler type: %s. Expected gluon.data.Sampler instead.' % type(sampler))
        return _SampledDataset(self, sampler)

    def transform(self, fn, lazy=True):
        """A dataset whose samples are ``fn(*sample)`` (tuples are unpacked) or ``fn(sample)``.

        With ``lazy=False`` every sample is transformed now (so a random ``fn`` is drawn once).
        """
        trans = _LazyTransformDataset(self, fn)
        if lazy:
            return trans
        return SimpleDataset([trans[i] for i in range(len(trans))])

    def transform_first(self, fn, lazy=True):
        """Like ``transform`` but only the first element of each sample (the data) is transformed."""
        return self.transform(_TransformFirstClosure(fn), lazy)


class SimpleDataset(Dataset):
    """A dataset over any object with ``len()`` and ``[]`` (a list, a numpy array, an NDArray)."""

    def __init__(self, data):
        self._data = data

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        return self._data[idx]

    def _host_batcher(self):
        return component_batcher(self._data)


class _LazyTransformDataset(Dataset):
    """Samples transformed on access."""

    def __init__(self, data, fn):
        self._data = data
        self._fn = fn

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        item = self._data[idx]
        if isinstance(item, tuple):
            return self._fn(*item)
        return self._fn(item)

    def _host_batcher(self):
        base = component_batcher(self._data)
        if base is None:
            return None
        fn = self._fn
        first_only = isinstance(fn, _TransformFirstClosure)
        batch_fn = getattr(fn._fn if first_only else fn, '_host_batch', None)
        if batch_fn is None:
            return None

        def batcher(idx):
            batch = base(idx)
            if isinstance(batch, list):
                if not first_only:
                    raise NoHostBatch
                return [map_host(batch_fn, batch[0])] + batch[1:]
            return map_host(batch_fn, batch)
        return batcher


class _TransformFirstClosure:
    """Applies ``fn`` to the first element of a sample (a class, so that it can be pickled)."""

    def __init__(self, fn):
        self._fn = fn

    def __call__(self, x, *args):
        if args:
            return (self._fn(x),) + args
        return self._fn(x)


class _FilteredDataset(Dataset):
    """The samples of ``dataset`` for which ``fn`` is true."""

    def __init__(self, dataset, fn):
        self._dataset = dataset
        self._indices = [i for i in range(len(dataset)) if fn(dataset[i])]

    def __len__(self):
        return len(self._indices)

    def __getitem__(self, idx):
        return self._dataset[self._indices[idx]]

    def _host_batcher(self):
        return _mapped_batcher(self._dataset, self._indices)


class _SampledDataset(Dataset):
    """The samples of ``dataset`` that ``sampler`` picks, in its order."""

    def __init__(self, dataset, sampler):
        self._dataset = dataset
        self._sampler = sampler
        self._indices = list(iter(sampler))

    def __len__(self):
        return len(self._sampler)

    def __getitem__(self, idx):
        return self._dataset[self._indices[idx]]

    def _host_batcher(self):
        return _mapped_batcher(self._dataset, self._indices)


def _mapped_batcher(dataset, indices):
    base = component_batcher(dataset)
    if base is None:
        return None
    table = np.asarray(indices, dtype=np.int64)
    return lambda idx: base(table[np.asarray(idx, dtype=np.int64)])


class ArrayDataset(Dataset):
    """A dataset combining dataset-like objects (arrays, lists, Datasets) of the same length.

    The i-th sample is ``(x1[i], x2[i], ...)``, or ``x1[i]`` with a single argument.
    One-dimensional NDArrays are kept as numpy arrays, as in MXNet, so that their
    samples are numpy scalars.
    """

    def __init__(self, *args):
        if not args:
            raise AssertionError('ArrayDataset: needs at least 1 array')
        self._length = len(args[0])
        self._data = []
        for i, data in enumerate(args):
            if len(data) != self._length:
                raise AssertionError('ArrayDataset: all arrays must have the same length; array[0] has length %d '
                                'while array[%d] has %d.' % (self._length, i, len(data)))
            if isinstance(data, NDArray) and data.ndim == 1:
                data = data.asnumpy()
            self._data.append(data)

    def __getitem__(self, idx):
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(data[idx] for data in self._data)

    def __len__(self):
        return self._length

    def _host_batcher(self):
        parts = [component_batcher(d) for d in self._data]
        if any(p is None for p in parts):
            return None
        if len(parts) == 1:
            return parts[0]
        return lambda idx: [p(idx) for p in parts]


# ---------------------------------------------------------------------------------------
# RecordIO files
# ---------------------------------------------------------------------------------------

_RECORD_MAGIC = 0xced7230a


class _IndexedRecordReader:
    """Reads records of an MXNet/dmlc RecordIO file by the keys of its ``.idx`` file."""

    def __init__(self, idx_path, rec_path):
        self.keys, self._offsets = [], {}
        try:
            with open(idx_path) as f:
                for line_no, line in enumerate(f, 1):
                    line = line.strip()
                    if not line:
                        continue
                    fields = line.split('\t')
                    if len(fields) != 2:
                        raise MXNetError('%s line %d: expected "key<TAB>offset", got %r' % (idx_path, line_no, line))
                    key = int(fields[0])
                    self.keys.append(key)
                    self._offsets[key] = int(fields[1])
            self._file = open(rec_path, 'rb')
        except OSError as err:
            raise MXNetError('RecordFileDataset: cannot open %s: %s' % (err.filename, err.strerror)) from None
        self._lock = threading.Lock()

    def _read_part(self):
        header = self._file.read(8)
        if len(header) < 8:
            raise MXNetError('RecordFileDataset: unexpected end of file %s' % self._file.name)
        magic, lrec = struct.unpack('<II', header)
        if magic != _RECORD_MAGIC:
            raise MXNetError('RecordFileDataset: %s is not a RecordIO file (bad magic number at offset %d)'
                             % (self._file.name, self._file.tell() - 8))
        cflag, length = lrec >> 29, lrec & ((1 << 29) - 1)
        data = self._file.read(length)
        self._file.read((4 - length % 4) % 4)
        return cflag, data

    def read_idx(self, key):
        """The bytes of the record with this key."""
        with self._lock:
            self._file.seek(self._offsets[key])
            cflag, data = self._read_part()
            if cflag == 0:
                return data
            # A record containing the magic number is split in parts (1 = first, 2 = middle,
            # 3 = last); the magic number goes back between them.
            parts = [data]
            while cflag != 3:
                cflag, data = self._read_part()
                parts.append(struct.pack('<I', _RECORD_MAGIC))
                parts.append(data)
            return b''.join(parts)

    def close(self):
        self._file.close()


class RecordFileDataset(Dataset):
    """The records of a RecordIO (``.rec``) file, as bytes, by the order of its ``.idx`` file.

    The index file is the ``.rec`` path with the extension ``.idx``.
    """

    def __init__(self, filename):
        self.idx_file = os.path.splitext(filename)[0] + '.idx'
        self.filename = filename
        self._record = _IndexedRecordReader(self.idx_file, self.filename)

    def __getitem__(self, idx):
        return self._record.read_idx(self._record.keys[idx])

    def __len__(self):
        return len(self._record.keys)


# ---------------------------------------------------------------------------------------
# Datasets read from files (MNIST, CIFAR, ...)
# ---------------------------------------------------------------------------------------

class _DownloadedDataset(Dataset):
    """Base of the vision datasets: images and labels held as numpy arrays on the host.

    ``_get_data`` fills ``_host_data`` (N, H, W, C) and ``_label`` (numpy). A sample is
    ``(NDArray image, numpy label)``; ``_data`` is the whole image array as an NDArray.
    """

    def __init__(self, root, transform):
        super().__init__()
        self._transform = transform
        self._host_data = None
        self._label = None
        self._nd_data = None
        self._root = os.path.expanduser(root) if root is not None else None
        self._ctx = current_context()
        self._get_data()

    @property
    def _data(self):
        if self._nd_data is None:
            self._nd_data = _nd_array(self._host_data, ctx=self._ctx, dtype=self._host_data.dtype)
        return self._nd_data

    @_data.setter
    def _data(self, value):
        self._nd_data = value if isinstance(value, NDArray) else None
        self._host_data = value.asnumpy() if isinstance(value, NDArray) else np.asarray(value)

    def __getitem__(self, idx):
        sample = self._host_data[idx]
        data = _nd_array(sample, ctx=self._ctx, dtype=sample.dtype)
        label = self._label[idx]
        if self._transform is not None:
            return self._transform(data, label)
        return data, label

    def __len__(self):
        return len(self._label)

    def _host_batcher(self):
        if self._transform is not None:
            return None

        def batcher(idx):
            idx = np.asarray(idx, dtype=np.int64)
            return [OnDevice(self._host_data[idx], self._ctx), np.asarray(self._label)[idx]]
        return batcher

    def _get_data(self):
        raise NotImplementedError
