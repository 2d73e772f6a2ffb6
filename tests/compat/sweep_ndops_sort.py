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


s = nd.array([[3, 1, 2, 7], [0, 5, 4, 6], [9, 8, 2, 1]])
v = nd.array([4, 2, 9, 1, 7])
i = nd.array([[4, 2, 9], [1, 7, 3]], dtype='int32')
# topk
for rt in ['indices', 'value', 'both', 'mask']:
    attempt(lambda: nd.topk(s, k=2, ret_typ=rt))
    attempt(lambda: nd.topk(s, k=2, ret_typ=rt, is_ascend=True, axis=0))
    attempt(lambda: nd.topk(s, k=3, ret_typ=rt, axis=None))
    attempt(lambda: nd.topk(i, k=1, ret_typ=rt))
attempt(lambda: nd.topk(v, k=5))
attempt(lambda: nd.topk(v, k=0))
attempt(lambda: nd.topk(v, k=-1))
attempt(lambda: nd.topk(s, k=2, axis=-2))
attempt(lambda: nd.topk(s, k=2, axis=2))
attempt(lambda: nd.topk(v, k=6))
attempt(lambda: nd.topk(v, k=2, dtype='int64', ret_typ='both'))
attempt(lambda: nd.topk(v, k=2, dtype='float16'))
attempt(lambda: nd.topk(v, k=2, ret_typ='bogus'))
attempt(lambda: nd.topk(s.astype('float64'), k=1, ret_typ='both'))
attempt(lambda: s.topk(k=2, ret_typ='value', axis=0))
# sort / argsort
attempt(lambda: nd.sort(s, axis=None))
attempt(lambda: nd.sort(s, axis=-1, is_ascend=False))
attempt(lambda: nd.sort(i))
attempt(lambda: nd.sort(i, is_ascend=0))
attempt(lambda: nd.argsort(i))
attempt(lambda: nd.argsort(s, axis=0))
attempt(lambda: nd.argsort(s, axis=None, is_ascend=False))
attempt(lambda: nd.argsort(v, dtype='int64'))
attempt(lambda: nd.argsort(v, dtype='float16'))
attempt(lambda: nd.sort(s, axis=3))
attempt(lambda: s.argsort(axis=1, is_ascend=False))
attempt(lambda: s.sort(axis=0))
# argmax / argmin
attempt(lambda: nd.argmax(s, axis=1, keepdims=True))
attempt(lambda: nd.argmin(s, axis=0, keepdims=True))
attempt(lambda: nd.argmin(s))
attempt(lambda: nd.argmin(s, keepdims=True))
attempt(lambda: nd.argmax(s, axis=-1))
attempt(lambda: nd.argmax(i, axis=0))
attempt(lambda: nd.argmin(i, axis=1, keepdims=True))
attempt(lambda: nd.argmax(v))
attempt(lambda: nd.argmax(nd.array([1, 3, 3, 2])))
attempt(lambda: nd.argmin(nd.array([2, 1, 1, 2])))
attempt(lambda: nd.argmax(s, axis=2))
attempt(lambda: s.argmin(axis=1))
attempt(lambda: nd.argmax_channel(s))
attempt(lambda: nd.argmax(s.astype('float64'), axis=1))
# pick
attempt(lambda: nd.pick(s, nd.array([0, 3, 1])))
attempt(lambda: nd.pick(s, nd.array([0, 3, 1]), axis=-1, keepdims=True))
attempt(lambda: nd.pick(s, nd.array([0, 1, 2, 0]), axis=0))
attempt(lambda: nd.pick(s, nd.array([5, -1, 4]), mode='clip'))
attempt(lambda: nd.pick(s, nd.array([5, -1, 4]), mode='wrap'))
attempt(lambda: nd.pick(s, nd.array([[1], [2], [3]])))
attempt(lambda: nd.pick(s, nd.array([0, 1, 2], dtype='int32')))
attempt(lambda: nd.pick(i, nd.array([0, 2])))
attempt(lambda: nd.pick(s, nd.array([0, 1])))
attempt(lambda: nd.pick(s, nd.array([1.7, 0.2, 2.9])))
attempt(lambda: s.pick(nd.array([1, 1, 1]), axis=1, keepdims=True))
# take
attempt(lambda: nd.take(s, nd.array([2, 0])))
attempt(lambda: nd.take(s, nd.array([3, 0]), axis=1))
attempt(lambda: nd.take(s, nd.array([[0, 1], [2, 2]]), axis=0))
attempt(lambda: nd.take(s, nd.array([4, -1, -5]), mode='clip'))
attempt(lambda: nd.take(s, nd.array([4, -1, -5]), mode='wrap'))
attempt(lambda: nd.take(s, nd.array([5, -2]), axis=1, mode='wrap'))
attempt(lambda: nd.take(s, nd.array([1]), axis=-1))
attempt(lambda: nd.take(i, nd.array([1, 0])))
attempt(lambda: nd.take(s, nd.array([1, 0], dtype='int32'), axis=1))
attempt(lambda: nd.take(s, nd.array([1.6, 0.4])))
attempt(lambda: nd.take(s, nd.array([0]), axis=2))
attempt(lambda: s.take(nd.array([0, 0])))
# one_hot
attempt(lambda: nd.one_hot(nd.array([0, 2, 1]), 4))
attempt(lambda: nd.one_hot(nd.array([[0, 2], [1, 3]]), 3))
attempt(lambda: nd.one_hot(nd.array([0, -1, 3]), depth=3))
attempt(lambda: nd.one_hot(nd.array([0, 1]), depth=2, on_value=5.5, off_value=0.5))
attempt(lambda: nd.one_hot(nd.array([0, 1]), depth=2, dtype='int64'))
attempt(lambda: nd.one_hot(nd.array([0, 1]), depth=3, dtype='uint8', on_value=7))
attempt(lambda: nd.one_hot(nd.array([0, 1]), depth=2, dtype='float16'))
attempt(lambda: nd.one_hot(nd.array([1, 2], dtype='int32'), depth=3))
attempt(lambda: nd.one_hot(nd.array([1.7, 0.3]), depth=3))
attempt(lambda: nd.one_hot(nd.array([0, 1]), depth=0))
# where
c = nd.array([[1, 0, 2, 0], [0, 0, 1, 1], [1, 1, 1, 0]])
attempt(lambda: nd.where(c, s, -s))
attempt(lambda: nd.where(nd.array([1, 0, 1]), s, nd.zeros((3, 4))))
attempt(lambda: nd.where(c, i.astype('float32')[:, :1].broadcast_to((2, 4)), s[:2]))
attempt(lambda: nd.where(nd.array([1, 0]), s, s))
attempt(lambda: nd.where(c, s, nd.zeros((3, 3))))
attempt(lambda: nd.where(c.astype('int32'), s, s * 0))
attempt(lambda: nd.where(nd.array([1, 0, 1], dtype='int32'), i[0], i[1]))
attempt(lambda: nd.where(c, s, s.astype('int32')))
# gather_nd / scatter_nd
g = nd.arange(24).reshape((2, 3, 4))
attempt(lambda: nd.gather_nd(g, nd.array([[1, 0], [2, 1]])))
attempt(lambda: nd.gather_nd(g, nd.array([[1, 0], [2, 1], [3, 0]])))
attempt(lambda: nd.gather_nd(g, nd.array([[1], [2]])))
attempt(lambda: nd.gather_nd(g, nd.array([[0, 1]], dtype='int32')))
attempt(lambda: nd.gather_nd(g, nd.array([[[0, 1], [1, 1]], [[2, 0], [1, 3]]])))
attempt(lambda: nd.gather_nd(g, nd.array([[-1], [2]])))
attempt(lambda: nd.gather_nd(i, nd.array([[1], [2]])))
attempt(lambda: nd.gather_nd(g, nd.array([[0], [1], [1], [0]])))
attempt(lambda: nd.scatter_nd(nd.array([1, 2, 3]), nd.array([[0, 1, 1], [1, 0, 2]]), shape=(2, 3)))
attempt(lambda: nd.scatter_nd(nd.array([[1, 2], [3, 4]]), nd.array([[1, 0]]), shape=(3, 2)))
attempt(lambda: nd.scatter_nd(nd.array([1, 2], dtype='int32'), nd.array([[0, 2]]), shape=(4,)))
attempt(lambda: nd.scatter_nd(nd.array([1, 2, 3]), nd.array([[0, 1, 1]]), shape=(2, 3)))
attempt(lambda: nd.scatter_nd(nd.array([1, 2]), nd.array([[0, 1]]), shape=(2, 3, 4)))
# boolean_mask
bm = nd.contrib.boolean_mask
attempt(lambda: bm(s, nd.array([1, 0, 1])))
attempt(lambda: bm(s, nd.array([0, 0, 0])))
attempt(lambda: bm(v, nd.array([1, 1, 0, 0, 1])))
attempt(lambda: bm(s, nd.array([1, 0, 1, 1]), axis=1))
attempt(lambda: bm(i, nd.array([0, 1], dtype='int32')))
attempt(lambda: bm(s, nd.array([1, 0])))
attempt(lambda: bm(s, nd.array([2, 0, -1])))
# index_copy
ic = nd.contrib.index_copy
attempt(lambda: ic(nd.zeros((4, 2)), nd.array([3, 0]), nd.array([[1, 2], [3, 4]])))
attempt(lambda: ic(nd.zeros(5), nd.array([1, 4], dtype='int32'), nd.array([7, 8])))
attempt(lambda: ic(nd.zeros((4, 2)), nd.array([3, 0]), nd.array([[1, 2]])))
attempt(lambda: ic(nd.zeros((4, 2)), nd.array([3, 0]), nd.array([[1, 2, 3], [3, 4, 5]])))
# arange_like / index_array
attempt(lambda: nd.contrib.arange_like(s))
attempt(lambda: nd.contrib.arange_like(s, axis=1))
attempt(lambda: nd.contrib.arange_like(s, start=2, step=0.5, axis=0))
attempt(lambda: nd.contrib.arange_like(i))
attempt(lambda: nd.contrib.arange_like(s, repeat=2))
attempt(lambda: nd.contrib.arange_like(s, axis=-1, start=10, step=-1))
attempt(lambda: nd.contrib.index_array(nd.zeros((2, 3))))
attempt(lambda: nd.contrib.index_array(nd.zeros((2, 3, 2)), axes=(0, 2)))
attempt(lambda: nd.contrib.index_array(nd.zeros((2, 3)), axes=(-1,)))
attempt(lambda: nd.contrib.index_array(nd.zeros((3,), dtype='int32')))
print(nd.topk(s, k=1, ret_typ='both'))
print(nd.argsort(v))
print(nd.one_hot(nd.array([1, 0]), 2, dtype='int32'))
print(nd.contrib.index_array(nd.zeros((2, 2))))
