"""Samplers: which sample indices a DataLoader reads, and in which batches.

As in MXNet, RandomSampler draws from numpy's global generator, so ``np.random.seed``
(not ``mx.random.seed``, which leaves numpy alone as MXNet's does) makes the order reproducible.
"""
import numbers

import numpy as np


__all__ = ['Sampler', 'SequentialSampler', 'RandomSampler', 'FilterSampler', 'BatchSampler']

_LAST_BATCH = ('keep', 'discard', 'rollover')


def check_count(value, what, allow_zero=True):
    """``value`` as an int, or a ValueError saying what was expected."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError('%s must be an integer, got %r (%s)' % (what, value, type(value).__name__))
    value = int(value)
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError('%s must be %s, got %d' % (what, 'non-negative' if allow_zero else 'positive', value))
    return value


def check_last_batch(last_batch, owner):
    if last_batch not in _LAST_BATCH:
        raise ValueError("%s: last_batch must be one of 'keep', 'discard', or 'rollover', but got %r"
                         % (owner, last_batch))
    return last_batch


class Sampler:
    """Base class for samplers: subclasses define ``__iter__`` and ``__len__``."""

    def __iter__(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """Indices ``start, start+1, ..., start+length-1`` in order."""

    def __init__(self, length, start=0):
        self._length = check_count(length, 'SequentialSampler: length')
        self._start = check_count(start, 'SequentialSampler: start')

    def __iter__(self):
        return iter(range(self._start, self._start + self._length))

    def __len__(self):
        return self._length


class RandomSampler(Sampler):
    """Indices ``0 .. length-1`` in a new random order each epoch (without replacement)."""

    def __init__(self, length):
        self._length = check_count(length, 'RandomSampler: length')

    def __iter__(self):
        indices = np.arange(self._length)
        np.random.shuffle(indices)
        return iter(indices.tolist())

    def __len__(self):
        return self._length


class FilterSampler(Sampler):
    """Indices of the samples of ``dataset`` for which ``fn(sample)`` is true."""

    def __init__(self, fn, dataset):
        self._fn = fn
        self._dataset = dataset
        self._indices = [i for i in range(len(dataset)) if fn(dataset[i])]

    def __iter__(self):
        return iter(self._indices)

    def __len__(self):
        return len(self._indices)


class BatchSampler(Sampler):
    """Groups the indices of another sampler into lists of ``batch_size``.

    ``last_batch`` says what happens to a last batch that is not full: ``'keep'``
    yields it, ``'discard'`` drops it, ``'rollover'`` puts its indices at the start
    of the next epoch.

    >>> list(BatchSampler(SequentialSampler(10), 3, 'keep'))
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    """

    def __init__(self, sampler, batch_size, last_batch='keep'):
        self._sampler = sampler
        self._batch_size = check_count(batch_size, 'BatchSampler: batch_size', allow_zero=False)
        self._last_batch = check_last_batch(last_batch, 'BatchSampler')
        self._prev = []

    def __iter__(self):
        batch, self._prev = self._prev, []
        size = self._batch_size
        for i in self._sampler:
            batch.append(int(i))
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            if self._last_batch == 'keep':
                yield batch
            elif self._last_batch == 'rollover':
                self._prev = batch

    def __len__(self):
        n = len(self._sampler)
        if self._last_batch == 'keep':
            return (n + self._batch_size - 1) // self._batch_size
        if self._last_batch == 'discard':
            return n // self._batch_size
        return (len(self._prev) + n) // self._batch_size
