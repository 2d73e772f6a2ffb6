"""Contributed samplers."""
from ...data.sampler import Sampler, check_count

__all__ = ['IntervalSampler']


class IntervalSampler(Sampler):
    """Indices taken every ``interval`` steps: ``0, interval, 2*interval, ...``; with ``rollover``
    the walk starts again at 1, 2, ... ``interval - 1``, so every index of ``range(length)`` comes
    once (``IntervalSampler(7, 2)`` gives 0 2 4 6 1 3 5). Without it only the first walk is made."""

    def __init__(self, length, interval, rollover=True):
        self._length = check_count(length, 'IntervalSampler: length')
        self._interval = check_count(interval, 'IntervalSampler: interval', allow_zero=False)
        if self._interval > self._length:
            raise AssertionError('Interval %d must be smaller than or equal to length %d'
                                 % (self._interval, self._length))
        self._rollover = rollover

    def _starts(self):
        return range(self._interval) if self._rollover else range(1)

    def __iter__(self):
        for start in self._starts():
            yield from range(start, self._length, self._interval)

    def __len__(self):
        # The number of indices iterated (MXNet 1.9.1 says ``length`` even without rollover).
        return sum(len(range(start, self._length, self._interval)) for start in self._starts())
