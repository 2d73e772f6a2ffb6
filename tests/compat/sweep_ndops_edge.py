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


# printed forms and symbols
a = nd.arange(12).reshape((3, 4))
print(nd.topk(nd.array([2, 1, 2, 1, 2, 3]), k=2))
print(nd.argmax(a, axis=1))
print(nd.SequenceMask(nd.ones((2, 2)), sequence_length=nd.array([1, 2]), use_sequence_length=True))
print(nd.split(a, 2, axis=1))
print(nd.pick(a, nd.array([0, 1, 2]), keepdims=True))
s = mx.sym.var('data')
for sym in (mx.sym.topk(s, k=2, ret_typ='both'), mx.sym.argsort(s), mx.sym.argmax(s, axis=1),
            mx.sym.split(s, num_outputs=2, axis=1), mx.sym.SequenceLast(s), mx.sym.transpose(s),
            mx.sym.one_hot(s, depth=5), mx.sym.topk(s, k=2, ret_typ='mask')):
    print(sym.list_outputs())
    print(sym.infer_shape(data=(3, 4)))
    print(sym.infer_type(data='float32'))
nan = float('nan')
t = nd.array([2, 1, 2, 1, 2, 3])
f = nd.array([[1, nan, 3], [nan, 0, -1]])
# ties and NaN in sorting
attempt(lambda: nd.argsort(t))
attempt(lambda: nd.argsort(t, is_ascend=False))
attempt(lambda: nd.topk(t, k=3))
attempt(lambda: nd.topk(t, k=3, is_ascend=True))
attempt(lambda: nd.topk(t, k=4, ret_typ='mask'))
attempt(lambda: nd.sort(t, is_ascend=False))
attempt(lambda: nd.argmax(t))
attempt(lambda: nd.argmin(t))
attempt(lambda: nd.argmax(nd.array([[1, 1], [2, 2]]), axis=1))
attempt(lambda: nd.argmax(f, axis=1))
attempt(lambda: nd.argmin(f, axis=0))
# other dtypes
u = nd.array([[3, 200, 7], [9, 1, 255]], dtype='uint8')
h = nd.array([[0.5, -2, 3.25], [1, 8, -0.125]], dtype='float16')
l = nd.array([[5, -3, 9], [0, 2, 2]], dtype='int64')
d = nd.array([[0.5, -2, 3.25], [1, 8, -0.125]], dtype='float64')
for arr in (u, h, l, d, nd.array([[1, -1, 0], [-7, 3, 4]], dtype='int8')):
    attempt(lambda: nd.argmax(arr, axis=1))
    attempt(lambda: nd.argmin(arr, axis=0, keepdims=True))
    attempt(lambda: nd.sort(arr, axis=1))
    attempt(lambda: nd.argsort(arr, axis=0))
    attempt(lambda: nd.topk(arr, k=2, ret_typ='both'))
    attempt(lambda: nd.topk(arr, k=1, ret_typ='mask', axis=0))
    attempt(lambda: nd.pick(arr, nd.array([2, 0])))
    attempt(lambda: nd.take(arr, nd.array([1])))
    attempt(lambda: nd.flip(arr, axis=1))
    attempt(lambda: nd.tile(arr, reps=(1, 2)))
    attempt(lambda: nd.repeat(arr, repeats=2, axis=0))
    attempt(lambda: nd.transpose(arr))
    attempt(lambda: nd.reshape(arr, shape=(-1,)))
    attempt(lambda: nd.slice(arr, begin=(None, 2), end=(None, None), step=(None, -1)))
    attempt(lambda: nd.clip(arr, 0, 5))
    attempt(lambda: nd.expand_dims(arr, 0))
    attempt(lambda: nd.concat(arr, arr, dim=0))
    attempt(lambda: nd.stack(arr, arr, axis=1))
    attempt(lambda: nd.split(arr, 3, axis=1))
    attempt(lambda: nd.SequenceMask(arr, sequence_length=nd.array([1, 2, 0]), use_sequence_length=True))
    attempt(lambda: nd.SequenceLast(arr))
    attempt(lambda: nd.diag(arr))
    attempt(lambda: nd.where(nd.array([[1, 0, 1], [0, 1, 0]]), arr, arr * 0))
    attempt(lambda: nd.gather_nd(arr, nd.array([[1, 0], [2, 0]])))
    attempt(lambda: nd.broadcast_to(arr[:1], shape=(3, 3)))
    attempt(lambda: nd.one_hot(nd.array([0, 2]), 3, dtype=arr.dtype))
# more argument forms
a = nd.arange(12).reshape((3, 4))
attempt(lambda: nd.take(a, nd.array([0, 5]), mode='raise'))
attempt(lambda: nd.take(a, nd.array([0, 2]), mode='raise'))
attempt(lambda: nd.take(a, nd.array([1]), mode='bad'))
attempt(lambda: nd.pick(a, nd.array([0, 1, 2]), mode='raise'))
attempt(lambda: nd.pick(a, nd.array([0, 1, 2, 3]), axis=None))
attempt(lambda: nd.pick(a, nd.array([4]), axis=None, keepdims=True))
attempt(lambda: nd.one_hot(nd.array([1]), depth=-1))
attempt(lambda: nd.one_hot(nd.array([1, 2]), 3, on_value=-1, off_value=1, dtype='int8'))
attempt(lambda: nd.batch_take(a, nd.array([5, -1, 1])))
attempt(lambda: nd.batch_take(a, nd.array([5, -1, 1], dtype='int32')))
attempt(lambda: nd.ravel_multi_index(nd.array([[0, 1, 2], [3, 0, 1]]), shape=(3, 4)))
attempt(lambda: nd.unravel_index(nd.array([0, 5, 11]), shape=(3, 4)))
attempt(lambda: nd.space_to_depth(nd.arange(8).reshape((1, 2, 2, 2)), block_size=1))
attempt(lambda: nd.depth_to_space(nd.arange(8).reshape((1, 8, 1, 1)), block_size=2))
attempt(lambda: nd.space_to_depth(nd.arange(32).reshape((2, 1, 4, 4)), block_size=2))
attempt(lambda: nd.depth_to_space(nd.ones((1, 4, 2, 2)), block_size=0))
attempt(lambda: nd.diag(nd.arange(24).reshape((2, 3, 4)), k=-1, axis1=2, axis2=1))
attempt(lambda: nd.diag(nd.arange(24).reshape((2, 3, 4)), k=2))
attempt(lambda: nd.tile(a, reps=(2, 1, 1, 1)))
attempt(lambda: nd.concat(a, nd.zeros((0, 4)), dim=0))
attempt(lambda: nd.stack(a, a, num_args=3))
attempt(lambda: nd.concat(a, a, a, num_args=2))
attempt(lambda: nd.add_n(a, a, num_args=1))
attempt(lambda: nd.split(a, num_outputs=0))
attempt(lambda: nd.split(a, num_outputs=3, axis=0, squeeze_axis=True))
attempt(lambda: nd.broadcast_to(a, shape=(2, 3, 4)))
attempt(lambda: nd.broadcast_to(a, shape=(3,)))
attempt(lambda: nd.slice_axis(a, axis=0, begin=-10, end=2))
attempt(lambda: nd.slice_axis(a, axis=0, begin=None, end=2))
attempt(lambda: nd.slice(a, begin=(5,), end=(None,)))
attempt(lambda: nd.slice(a, begin=(2, 3), end=(None, None), step=(-1, -2)))
attempt(lambda: nd.slice(a, begin=(0, 0), end=(2,)))
attempt(lambda: nd.flip(a, axis=(0, 0)))
attempt(lambda: nd.flip(a, axis=(1, 0, 1)))
attempt(lambda: nd.transpose(a, axes=(1,)))
attempt(lambda: nd.expand_dims(a, axis=3))
attempt(lambda: nd.squeeze(a))
attempt(lambda: nd.contrib.index_copy(nd.zeros((3, 4)), nd.array([1]), nd.ones((1, 4))))
attempt(lambda: nd.contrib.index_copy(nd.zeros((3, 2), dtype='int32'), nd.array([2, 0]), nd.ones((2, 2), dtype='int32')))
attempt(lambda: nd.contrib.boolean_mask(nd.arange(6).reshape((3, 2)).astype('int64'), nd.array([0, 1, 1])))
attempt(lambda: nd.contrib.boolean_mask(nd.ones((3, 2)), nd.array([[1, 0, 1]])))
attempt(lambda: nd.contrib.arange_like(nd.ones((2, 3)), axis=2))
attempt(lambda: nd.contrib.arange_like(nd.ones((2, 3), dtype='int32'), start=1))
