import numpy as np
import mxnet as mx

nd = mx.nd


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    elif isinstance(x, nd.NDArray):
        print(x.dtype.__name__, x.shape, x.asnumpy().round(4).tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


# (time, batch, feature)
x = nd.arange(24).reshape((4, 3, 2))
L = nd.array([2, 4, 1])
Li = nd.array([3, 1, 2], dtype='int32')
attempt(lambda: nd.SequenceMask(x))
attempt(lambda: nd.SequenceMask(x, sequence_length=L))
attempt(lambda: nd.SequenceMask(x, sequence_length=L, use_sequence_length=True))
attempt(lambda: nd.SequenceMask(x, sequence_length=L, use_sequence_length=True, value=-1))
attempt(lambda: nd.SequenceMask(x, sequence_length=Li, use_sequence_length=True, value=0.5))
attempt(lambda: nd.SequenceMask(x.transpose((1, 0, 2)), sequence_length=L, use_sequence_length=True, axis=1))
attempt(lambda: nd.SequenceMask(x[:, :, 0], sequence_length=L, use_sequence_length=True))
attempt(lambda: nd.SequenceMask(x.astype('int32'), sequence_length=L, use_sequence_length=True, value=-7))
attempt(lambda: nd.SequenceMask(x, sequence_length=nd.array([0, 5, 2]), use_sequence_length=True))
attempt(lambda: nd.SequenceMask(x, sequence_length=nd.array([1, 2]), use_sequence_length=True))
attempt(lambda: nd.SequenceMask(x, sequence_length=L, use_sequence_length=True, axis=2))
attempt(lambda: nd.SequenceMask(x, use_sequence_length=True))
attempt(lambda: nd.SequenceLast(x))
attempt(lambda: nd.SequenceLast(x, sequence_length=L, use_sequence_length=True))
attempt(lambda: nd.SequenceLast(x, sequence_length=Li, use_sequence_length=True))
attempt(lambda: nd.SequenceLast(x, sequence_length=L))
attempt(lambda: nd.SequenceLast(x.transpose((1, 0, 2)), sequence_length=L, use_sequence_length=True, axis=1))
attempt(lambda: nd.SequenceLast(x[:, :, 0], sequence_length=L, use_sequence_length=True))
attempt(lambda: nd.SequenceLast(x.astype('int32'), sequence_length=L, use_sequence_length=True))
attempt(lambda: nd.SequenceLast(x, sequence_length=nd.array([1, 2]), use_sequence_length=True))
attempt(lambda: nd.SequenceReverse(x))
attempt(lambda: nd.SequenceReverse(x, sequence_length=L, use_sequence_length=True))
attempt(lambda: nd.SequenceReverse(x, sequence_length=Li, use_sequence_length=True))
attempt(lambda: nd.SequenceReverse(x[:, :, 0], sequence_length=L, use_sequence_length=True))
attempt(lambda: nd.SequenceReverse(x.astype('int32'), sequence_length=L, use_sequence_length=True))
attempt(lambda: nd.SequenceReverse(x, sequence_length=nd.array([1, 2]), use_sequence_length=True))
attempt(lambda: nd.SequenceReverse(x, sequence_length=L))
attempt(lambda: nd.SequenceMask(x, L))
# slicing
a = nd.arange(24).reshape((2, 3, 4))
attempt(lambda: nd.slice(a, begin=(1,), end=(2,)))
attempt(lambda: nd.slice(a, begin=(None, 2), end=(None, 0), step=(None, -1)))
attempt(lambda: nd.slice(a, begin=(-1, -2, -3), end=(None, None, None)))
attempt(lambda: nd.slice(a, begin=(0, 0, 3), end=(2, 3, None), step=(1, 1, -2)))
attempt(lambda: nd.slice(a, begin=(None, None, None), end=(None, None, None), step=(-1, -1, -1)))
attempt(lambda: nd.slice(a, begin=(0, 0, 0), end=(2, 3, 4), step=(2, 2, 3)))
attempt(lambda: nd.slice(a, begin=(1, 1), end=(1, 2)))
attempt(lambda: nd.slice(a, begin=(0, 0), end=(3, 2)))
attempt(lambda: nd.slice(a, begin=(0, 2), end=(2, 1)))
attempt(lambda: nd.slice(a, begin=(0, 0, 0, 0), end=(1, 1, 1, 1)))
attempt(lambda: nd.slice(a, begin=(0,), end=(2,), step=(0,)))
attempt(lambda: a.slice(begin=(1, 0), end=(2, 2)))
attempt(lambda: nd.slice(a, begin=(), end=()))
attempt(lambda: nd.slice_axis(a, axis=-1, begin=-3, end=None))
attempt(lambda: nd.slice_axis(a, axis=0, begin=1, end=2))
attempt(lambda: nd.slice_axis(a, axis=1, begin=-2, end=-1))
attempt(lambda: nd.slice_axis(a, axis=1, begin=2, end=1))
attempt(lambda: nd.slice_axis(a, axis=3, begin=0, end=1))
attempt(lambda: nd.slice_axis(a, axis=2, begin=0, end=9))
attempt(lambda: a.slice_axis(axis=2, begin=1, end=3))
attempt(lambda: nd.slice_like(a, nd.ones((1, 2, 3))))
attempt(lambda: nd.slice_like(a, nd.ones((1, 2, 3)), axes=(0, 2)))
attempt(lambda: nd.slice_like(a, nd.ones((1, 2)), axes=(-1,)))
attempt(lambda: nd.slice_like(a, nd.ones((1, 2))))
attempt(lambda: nd.slice_like(a, nd.ones((3, 3, 3))))
attempt(lambda: nd.slice_like(a, nd.ones((1, 2, 5)), axes=(2,)))
attempt(lambda: a.slice_like(nd.ones((2, 2, 2)), axes=(1,)))
# reshape
for shape in [(0, 0, -1), (-1, 2, 2), (-2, 1), (2, -2), (-3, -1), (0, -3), (-4, 1, 2, -2),
              (0, -4, -1, 1, 0), (-4, -1, 1, -2), (1, -1, 1, 4), (-1,), (24,), (2, -1, 0),
              (-3, -3), (0, 0, 0, 1), (3, 0), (-4, 2, 2, 0, 0), (-4, 3, -1, -2)]:
    attempt(lambda: a.reshape(shape))
for shape in [(0, -1), (-1, 0), (-1, 3, 0), (2, 0, -1), (0, 0, -1), (-3, 0), (0, -3)]:
    attempt(lambda: nd.reshape(a, shape=shape, reverse=True))
attempt(lambda: a.reshape(-1))
attempt(lambda: a.reshape(6, 4))
attempt(lambda: a.reshape((6, 4), reverse=True))
attempt(lambda: a.reshape(shape=(-1, 6)))
attempt(lambda: nd.Reshape(a, shape=(4, 6)))
attempt(lambda: nd.reshape(a, (0, 0, 0, 0)))
attempt(lambda: nd.reshape(a, shape=(-4, 2, 2, 0, 0)))
attempt(lambda: nd.reshape(a, shape=(-4, -1, -1, 0, 0)))
attempt(lambda: nd.reshape(a, shape=(-2, -2)))
attempt(lambda: nd.reshape(a, shape=(0, 0, 0, 0, 0)))
attempt(lambda: nd.reshape_like(a, nd.ones((4, 6))))
attempt(lambda: nd.reshape_like(a, nd.ones((4, 6)), lhs_begin=0, lhs_end=2, rhs_begin=0, rhs_end=1))
attempt(lambda: nd.reshape_like(a, nd.ones((3, 2, 5)), lhs_begin=0, lhs_end=2, rhs_begin=0, rhs_end=2))
attempt(lambda: nd.reshape_like(a, nd.ones((7, 12)), lhs_begin=1, lhs_end=None, rhs_begin=1, rhs_end=None))
attempt(lambda: nd.reshape_like(a, nd.ones((5, 5))))
attempt(lambda: a.reshape_like(nd.ones((6, 2, 2))))
attempt(lambda: nd.reshape_like(a, nd.ones((2, 12)), lhs_begin=-2, rhs_begin=-1))
