"""DataLoader: mini-batches from a Dataset (MXNet's ``gluon.data.DataLoader``).

Workers are threads, never forked processes: a forked child cannot use the
parent's jax runtime. ``num_workers > 0`` reads and batchifies batches ahead
of the training loop in a thread pool (``thread_pool`` is accepted and always
true in effect).

A batch is stacked on the host with numpy and moved to its device in one
transfer whenever the dataset has a host batcher (see ``dataset.py``) and the
default ``batchify_fn`` is used; otherwise samples are read one by one and
batchified as in MXNet.
"""
import collections
import concurrent.futures
import numbers
import pickle
# MXNet's name for the pickler of worker batches (libraries such as GluonNLP import it from here).
# NDArrays pickle by value: workers are threads or plain processes, with no shared-memory handles.
from multiprocessing.reduction import ForkingPickler  # noqa: F401

import jax
import numpy as np

from ...base import MXNetError
from ...context import Context, current_context, cpu_pinned
from ...ndarray.ndarray import NDArray, apply_fn, array as _nd_array
from . import sampler as _sampler
from .dataset import NoHostBatch, OnDevice, component_batcher
from .sampler import check_count, check_last_batch
from ...numpy._state import to_np as _to_np

__all__ = ['DataLoader']


def _stack_nd(arrays, ctx=None):
    """Stack NDArrays along a new first axis in one compiled call."""
    shapes = {a.shape for a in arrays}
    if len(shapes) > 1:
        raise MXNetError('batchify: cannot stack samples of different shapes %s; pass a batchify_fn that pads '
                         'them' % sorted(shapes))

    def stack(*xs):
        return (jax.numpy.stack(xs),)
    return apply_fn(stack, ('_batchify_stack', len(arrays)), list(arrays), name='stack')[0]


def _host_to_nd(batch, override, default):
    """Numpy arrays (nested in lists) to NDArrays, one transfer each: on ``override`` when given,
    else on the context of the NDArrays they were read from, else on ``default``."""
    if isinstance(batch, list):
        return [_host_to_nd(b, override, default) for b in batch]
    ctx = override or default
    if isinstance(batch, OnDevice):
        batch, ctx = batch.array, override or batch.ctx
    return _nd_array(batch, ctx=ctx, dtype=batch.dtype)


def _batchify(data, ctx):
    if isinstance(data[0], NDArray):
        out = _stack_nd(data)
        return out if ctx is None else out.as_in_context(ctx)
    if isinstance(data[0], tuple):
        return [_batchify(list(field), ctx) for field in zip(*data)]
    host = np.asarray(data)
    return _nd_array(host, ctx=ctx, dtype=host.dtype)


def default_batchify_fn(data):
    """Stack a list of samples into a batch: NDArrays with ``nd.stack``, numbers and numpy
    arrays through numpy (keeping their dtype, as MXNet does); tuples field by field (a list)."""
    return _batchify(data, None)


def default_mp_batchify_fn(data):
    """The batchify of worker threads: as ``default_batchify_fn``, the result in ``cpu_shared(0)``."""
    return _batchify(data, Context('cpu_shared', 0))


def _as_in_context(data, ctx):
    if isinstance(data, NDArray):
        return data.as_in_context(ctx)
    if isinstance(data, (list, tuple)):
        return [_as_in_context(d, ctx) for d in data]
    return data


def _worker_fn(samples, batchify_fn, dataset):
    """One batch of ``dataset`` read by a pool worker (the default ``worker_fn`` of ``_MultiWorkerIter``)."""
    return batchify_fn([dataset[i] for i in samples])


class _MultiWorkerIter:
    """Iterates over batches that a pool (anything with ``apply_async``) prepares ahead.

    MXNet's internal iterator, kept because libraries subclass it (GluonCV's
    ``RandomTransformDataLoader``): ``_push_next`` submits the next batch of indices, ``__next__``
    collects them in order. A worker that returns bytes sent them pickled (MXNet's process workers
    do, with ``dataset=None``); they are unpickled here.
    """

    def __init__(self, worker_pool, batchify_fn, batch_sampler, pin_memory=False, pin_device_id=0,
                 worker_fn=_worker_fn, prefetch=0, dataset=None, data_loader=None, timeout=120):
        self._worker_pool = worker_pool
        self._batchify_fn = batchify_fn
        self._batch_sampler = batch_sampler
        self._data_buffer = {}
        self._rcvd_idx = 0
        self._sent_idx = 0
        self._iter = iter(batch_sampler)
        self._worker_fn = worker_fn
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._dataset = dataset
        self._data_loader = data_loader
        self._timeout = timeout
        for _ in range(prefetch):
            self._push_next()

    def __len__(self):
        return len(self._batch_sampler)

    def _push_next(self):
        indices = next(self._iter, None)
        if indices is None:
            return
        self._data_buffer[self._sent_idx] = self._worker_pool.apply_async(
            self._worker_fn, (indices, self._batchify_fn, self._dataset))
        self._sent_idx += 1

    def __next__(self):
        self._push_next()
        if self._rcvd_idx == self._sent_idx:
            raise StopIteration
        batch = self._data_buffer.pop(self._rcvd_idx).get(self._timeout)
        if isinstance(batch, bytes):
            batch = pickle.loads(batch)
        if self._pin_memory:
            batch = _as_in_context(batch, cpu_pinned(self._pin_device_id))
        self._rcvd_idx += 1
        return batch

    next = __next__

    def __iter__(self):
        return self


class DataLoader:
    """Loads data from a dataset and returns mini-batches of data.

    Parameters
    ----------
    dataset : Dataset
        Source dataset. A numpy array or an NDArray can be used directly.
    batch_size : int
        Size of mini-batch (a positive integer).
    shuffle : bool
        Whether to shuffle the samples each epoch.
    sampler : Sampler
        The sampler to use. Either specify sampler or shuffle, not both.
    last_batch : {'keep', 'discard', 'rollover'}
        How the last batch is handled when batch_size does not divide the number of
        samples: kept smaller, discarded, or rolled over into the next epoch.
    batch_sampler : Sampler
        A sampler that returns mini-batches of indices. Do not specify batch_size,
        shuffle, sampler or last_batch with it.
    batchify_fn : callable
        How a list of samples becomes a batch (default: stack them).
    num_workers : int, default 0
        Number of worker threads that prepare batches ahead; 0 reads in the caller.
    pin_memory : bool
        Put batches in ``cpu_pinned`` memory.
    pin_device_id : int
    prefetch : int, default ``2 * num_workers``
        Number of batches prepared ahead when num_workers > 0.
    thread_pool : bool
        Accepted for compatibility: workers are always threads in gluonjax.
    timeout : int, default 120
        Seconds to wait for a worker's batch.
    auto_reload : bool
        Accepted for compatibility (each ``iter()`` starts a fresh epoch).
    """

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None,
                 last_batch=None, batch_sampler=None, batchify_fn=None,
                 num_workers=0, pin_memory=False, pin_device_id=0,
                 prefetch=None, thread_pool=False, timeout=120, auto_reload=False):
        self._dataset = dataset
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._thread_pool = thread_pool
        if not isinstance(timeout, numbers.Real) or timeout <= 0:
            raise AssertionError('DataLoader: timeout must be positive, given %r' % (timeout,))
        self._timeout = timeout
        try:
            length = len(dataset)
        except TypeError:
            raise TypeError('DataLoader: dataset must have a length (a Dataset, a numpy array, an NDArray or '
                            'a list), got %s' % type(dataset).__name__) from None

        if batch_sampler is None:
            if batch_size is None:
                raise ValueError('DataLoader: batch_size must be specified unless batch_sampler is specified')
            batch_size = check_count(batch_size, 'DataLoader: batch_size', allow_zero=False)
            if sampler is None:
                sampler = (_sampler.RandomSampler if shuffle else _sampler.SequentialSampler)(length)
            elif shuffle:
                raise ValueError('DataLoader: shuffle must not be specified if sampler is specified')
            last_batch = check_last_batch('keep' if last_batch is None else last_batch, 'DataLoader')
            batch_sampler = _sampler.BatchSampler(sampler, batch_size, last_batch)
        elif batch_size is not None or shuffle or sampler is not None or last_batch is not None:
            raise ValueError('DataLoader: batch_size, shuffle, sampler and last_batch must not be specified '
                            'if batch_sampler is specified.')
        self._batch_sampler = batch_sampler
        if isinstance(num_workers, bool) or not isinstance(num_workers, numbers.Integral):
            # TypeError, as MXNet's worker pool raises for a count that is not an int
            raise TypeError('DataLoader: num_workers must be an integer, got %r' % (num_workers,))
        self._num_workers = max(0, int(num_workers))  # MXNet treats a negative count as 0
        self._prefetch = max(0, int(prefetch) if prefetch is not None else 2 * self._num_workers)
        self._pool = None
        if batchify_fn is None:
            self._default_batchify = True
            self._batchify_fn = default_mp_batchify_fn if self._num_workers > 0 else default_batchify_fn
        else:
            self._default_batchify = batchify_fn in (default_batchify_fn, default_mp_batchify_fn)
            self._batchify_fn = batchify_fn
        self._host_batcher = None
        self._host_checked = False
        self.auto_reload = auto_reload

    # ---- one batch ---------------------------------------------------------------------
    def _output_ctx(self):
        if self._pin_memory:
            return cpu_pinned(self._pin_device_id)
        if self._batchify_fn is default_mp_batchify_fn:
            return Context('cpu_shared', 0)
        return None

    def _fast_batcher(self):
        if not self._host_checked:
            self._host_checked = True
            if self._default_batchify:
                self._host_batcher = component_batcher(self._dataset)
        return self._host_batcher

    def _load(self, indices, default_ctx):
        """The batch of these sample indices (``default_ctx``: the caller's context)."""
        batcher = self._fast_batcher()
        if batcher is not None:
            try:
                return _to_np(_host_to_nd(batcher(indices), self._output_ctx(), default_ctx))
            except NoHostBatch:
                pass
        ret = self._batchify_fn([self._dataset[i] for i in indices])
        if self._pin_memory:
            ret = _as_in_context(ret, cpu_pinned(self._pin_device_id))
        return _to_np(ret)  # npx.set_np(): batches are mx.np arrays

    # ---- iteration ---------------------------------------------------------------------
    def __iter__(self):
        ctx = current_context()  # where batches built from numpy samples go, as nd.array puts them
        self._fast_batcher()
        if self._num_workers == 0:
            for indices in self._batch_sampler:
                yield self._load(indices, ctx)
            return
        yield from self._threaded_iter(ctx)

    def _threaded_iter(self, ctx):
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(self._num_workers,
                                                               thread_name_prefix='gluonjax-dataloader')
        batches = iter(self._batch_sampler)
        pending = collections.deque()

        def push():
            indices = next(batches, None)
            if indices is not None:
                pending.append(self._pool.submit(self._load, indices, ctx))

        for _ in range(max(1, self._prefetch)):
            push()
        try:
            while pending:
                future = pending.popleft()
                push()
                try:
                    batch = future.result(timeout=self._timeout)
                except concurrent.futures.TimeoutError:
                    raise MXNetError('DataLoader: a worker took more than timeout=%s seconds to load a batch; '
                                     'raise timeout= if loading is slow on purpose' % self._timeout) from None
                yield batch
        finally:
            for future in pending:
                future.cancel()

    def __len__(self):
        return len(self._batch_sampler)

    def refresh(self):
        """Kept for MXNet compatibility: every ``iter()`` already starts a fresh epoch."""

    def clean(self):
        """Kept for MXNet compatibility: nothing is prefetched before ``iter()``."""

    def __del__(self):
        pool = getattr(self, '_pool', None)
        if pool is not None:
            pool.shutdown(wait=False)
