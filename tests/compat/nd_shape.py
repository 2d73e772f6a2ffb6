import mxnet as mx

nd = mx.nd


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    else:
        print(x.dtype.__name__, x.shape, x.asnumpy().tolist())


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = nd.arange(24).reshape((2, 3, 4))
for shape in [(4, 6), (0, -1), (-1,), (-2,), (-3, 4), (2, -4, 3, 1, 4), (0, 0, 2, 2), (-1, 0),
              (2, -4, -1, 3, 4), (6, 0), (-3, -2), (1, -2), (0, -3)]:
    attempt(lambda: a.reshape(shape))
attempt(lambda: a.reshape(4, -1))
attempt(lambda: a.reshape((-1, 0), reverse=True))
attempt(lambda: a.reshape((0, -1), reverse=True))
attempt(lambda: nd.reshape(a, shape=(3, -1)))
attempt(lambda: a.reshape((5, 5)))
attempt(lambda: a.reshape((-1, -1)))
attempt(lambda: a.reshape(shape=(8, 3)))
show(a.T)
show(a.transpose((1, 0, 2)))
show(nd.transpose(a, axes=(2, 0, 1)))
show(a.swapaxes(0, 2))
show(nd.swapaxes(a, 1, 2))
show(a.expand_dims(1))
show(nd.expand_dims(a, axis=-1))
show(nd.ones((1, 3, 1)).squeeze())
show(nd.ones((1, 3, 1)).squeeze(axis=0))
show(nd.ones((1,)).squeeze())
attempt(lambda: nd.ones((2, 3)).squeeze(axis=0))
show(a.flatten())
show(nd.flatten(nd.arange(3)))
attempt(lambda: a.expand_dims(4))
attempt(lambda: a.transpose((0, 1)))
attempt(lambda: a.sum(axis=3))
# joining / splitting
x = nd.array([[1, 2], [3, 4]])
y = nd.array([[5, 6], [7, 8]])
show(nd.concat(x, y))
show(nd.concat(x, y, dim=0))
show(nd.concatenate([x, y]))
show(nd.stack(x, y))
show(nd.stack(x, y, axis=2))
attempt(lambda: nd.concat(x, nd.ones((3, 3)), dim=0))
attempt(lambda: nd.stack(x, nd.ones((3, 2))))
show(nd.split(a, num_outputs=3, axis=1))
show(a.split(2, axis=0, squeeze_axis=True))
show(nd.split(nd.arange(4), 1, axis=0))
show(nd.split(nd.ones((2, 1)), num_outputs=1, axis=1, squeeze_axis=True))
attempt(lambda: nd.split(a, num_outputs=5, axis=2))
show(nd.tile(x, reps=(2, 1)))
show(nd.tile(x, reps=(2,)))
show(x.tile((1, 2, 2)))
show(nd.repeat(x, repeats=2))
show(x.repeat(2, axis=0))
show(nd.repeat(x, repeats=3, axis=-1))
show(nd.flip(x, axis=0))
show(x.flip(axis=1))
show(nd.reverse(x, axis=(0, 1)))
attempt(lambda: nd.broadcast_to(nd.array([1, 2, 3]), shape=(2, 3)))
show(nd.array([[1], [2]]).broadcast_to((2, 4)))
show(nd.broadcast_to(nd.ones((2, 1)), shape=(0, 3)))
show(nd.broadcast_like(nd.array([[1, 2]]), nd.ones((3, 2))))
show(nd.broadcast_axis(nd.ones((1, 2, 1)), axis=(0, 2), size=(2, 3)))
attempt(lambda: nd.broadcast_to(nd.ones((2, 3)), shape=(4, 3)))
show(nd.slice(a, begin=(0, 1), end=(2, 3)))
show(nd.slice(a, begin=(None, None, 1), end=(None, None, None), step=(1, -1, 2)))
show(nd.slice_axis(a, axis=2, begin=1, end=-1))
show(nd.slice_axis(a, axis=1, begin=0, end=None))
show(nd.slice_like(nd.ones((4, 5)), nd.ones((2, 3))))
show(nd.pad(nd.ones((1, 1, 2, 2)), mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 1, 1), constant_value=5))
show(nd.moveaxis(a, 0, 2))
show(nd.diag(x))
show(nd.diag(nd.array([1, 2])))
show(nd.zeros_like(x))
show(nd.ones_like(nd.ones((2,), dtype='int32')))
show(nd.reshape_like(nd.arange(6), nd.ones((2, 3))))
show(a.shape_array())
show(nd.size_array(a))
