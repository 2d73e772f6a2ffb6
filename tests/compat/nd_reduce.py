import mxnet as mx

nd = mx.nd


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    else:
        print(x.dtype.__name__, x.shape, x.asnumpy().round(4).tolist())


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = nd.array([[3, 1, 2], [6, 5, 4]])
i = nd.array([[3, 1, 2], [6, 5, 4]], dtype='int32')
show(a.sum())
show(nd.sum(a, axis=0))
show(a.sum(axis=1, keepdims=True))
show(a.sum(axis=(0, 1)))
show(a.sum(axis=0, exclude=True))
show(a.mean())
show(a.mean(axis=1))
show(i.mean(axis=1))
show(i.sum())
show(a.max(axis=0))
show(a.min())
show(i.max(axis=1))
show(a.prod(axis=1))
show(nd.nansum(nd.array([1, float('nan'), 2])))
show(a.norm())
show(nd.norm(a, axis=1))
show(nd.norm(a, ord=1, axis=0, keepdims=True))
show(a.argmax(axis=1))
show(a.argmin(axis=0))
show(i.argmax(axis=1))
show(nd.argmax(a))
show(nd.argmax(a, axis=0, keepdims=True))
show(a.argmax_channel())
attempt(lambda: a.sum(axis=2))
attempt(lambda: a.argmax(axis=-3))
print(a.sum().asscalar(), a.mean().asscalar())
# sorting
s = nd.array([[3, 1, 2, 1], [0, 5, 4, 5]])
show(s.sort())
show(nd.sort(s, axis=0, is_ascend=False))
show(s.argsort())
show(nd.argsort(s, is_ascend=False))
show(nd.argsort(s, axis=None))
show(nd.argsort(s, dtype='int32'))
show(s.topk())
show(s.topk(k=2))
show(nd.topk(s, k=2, ret_typ='value'))
show(nd.topk(s, k=2, ret_typ='both'))
show(nd.topk(s, k=2, ret_typ='mask'))
show(nd.topk(s, k=2, is_ascend=True, ret_typ='both'))
show(nd.topk(s, axis=0, k=1))
show(nd.topk(s, k=2, dtype='int32'))
show(nd.topk(nd.array([[3, 1, 2]], dtype='int32'), k=2, ret_typ='both'))
# picking, taking
show(nd.one_hot(nd.array([1, 0, 2]), 3))
show(nd.one_hot(nd.array([1, 0, 5]), depth=4, on_value=2, off_value=-1, dtype='int32'))
show(nd.pick(a, nd.array([0, 2])))
show(nd.pick(a, nd.array([1, 0, 1]), axis=0))
show(nd.pick(a, nd.array([0, 2]), keepdims=True))
show(nd.pick(a, nd.array([3, -1])))
show(a.pick(nd.array([5, 1]), mode='wrap'))
show(nd.take(a, nd.array([1, 0, 1])))
show(nd.take(a, nd.array([[0, 2]]), axis=1))
show(nd.take(a, nd.array([5, -3])))
show(nd.take(a, nd.array([3]), mode='wrap'))
show(nd.where(nd.array([[1, 0, 1], [0, 0, 1]]), a, nd.zeros((2, 3))))
show(nd.where(nd.array([1, 0]), a, -a))
show(nd.cast(a, 'int32'))
show(a.astype('uint8'))
show(nd.cast(nd.array([-1.7, 1.7, 2.5]), dtype='int32'))
show(nd.array([300, -1]).astype('uint8'))
show(nd.clip(a, a_min=2, a_max=5))
show(nd.batch_take(a, nd.array([2, 0], dtype='int32')))
show(nd.gather_nd(a, nd.array([[0, 1], [2, 0]])))
show(nd.scatter_nd(nd.array([9, 8]), nd.array([[0, 1], [2, 0]]), shape=(2, 3)))
show(nd.add_n(a, a, a))
show(nd.ElementWiseSum(a, a))
