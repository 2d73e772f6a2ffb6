import math

import numpy as onp
import mxnet as mx
from mxnet import np, npx
npx.set_np()


def show(x):
    if isinstance(x, np.ndarray):
        print(x.dtype, x.shape, onp.round(x.asnumpy().astype('float64'), 4).tolist())
    elif isinstance(x, mx.nd.NDArray):
        print(type(x).__name__, x.dtype, x.shape, x.asnumpy().tolist())
    elif isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x), [(str(v.dtype), v.shape, v.asnumpy().tolist())
                                         if isinstance(v, np.ndarray) else v for v in x])
    elif isinstance(x, onp.dtype):
        print('dtype', x)
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = np.arange(24).reshape(2, 3, 4)
b = np.arange(6).reshape(2, 3)
# reshape / transpose / axes
attempt(lambda: a.reshape(-1, 4).shape)
attempt(lambda: a.reshape((4, -1)).shape)
attempt(lambda: a.reshape(2, -1, 2).shape)
attempt(lambda: a.reshape(5, -1))
attempt(lambda: a.reshape(()))
attempt(lambda: np.array([5.]).reshape(()))
attempt(lambda: b.reshape(3, 2, order='C'))
attempt(lambda: a.transpose().shape)
attempt(lambda: a.transpose((1, 0, 2)).shape)
attempt(lambda: a.transpose(2, 0, 1).shape)
attempt(lambda: np.transpose(a, (0, 2, 1))[1])
attempt(lambda: a.transpose(0, 1))
attempt(lambda: np.moveaxis(a, 0, -1).shape)
attempt(lambda: np.moveaxis(a, [0, 1], [-1, -2]).shape)
attempt(lambda: np.swapaxes(a, 0, 2).shape)
attempt(lambda: a.swapaxes(1, 2)[0])
attempt(lambda: np.rollaxis(a, 2).shape if hasattr(np, 'rollaxis') else None)
attempt(lambda: a.flatten().shape)
attempt(lambda: np.ravel(b))
# joining
c = np.ones((2, 3))
attempt(lambda: np.concatenate([b, c], axis=0))
attempt(lambda: np.concatenate([b, c], axis=-1).shape)
attempt(lambda: np.concatenate([b, np.ones((2, 2))]))
attempt(lambda: np.stack([b, c], axis=1).shape)
attempt(lambda: np.stack([b, c], axis=-1).shape)
attempt(lambda: np.stack([b, np.ones((2, 2))]))
attempt(lambda: np.vstack([np.array([1., 2.]), np.array([3., 4.])]))
attempt(lambda: np.vstack([b, np.array([9., 9., 9.])]))
attempt(lambda: np.hstack([b, c]).shape)
attempt(lambda: np.hstack([np.array([1., 2.]), np.array([3.])]))
attempt(lambda: np.dstack([b, c]).shape)
attempt(lambda: np.dstack([np.array([1., 2.]), np.array([3., 4.])]))
attempt(lambda: np.column_stack([np.array([1., 2.]), np.array([3., 4.])]))
attempt(lambda: np.column_stack([b, c]).shape)
attempt(lambda: np.append(b, c, axis=0).shape)
attempt(lambda: np.atleast_2d(np.array([1., 2.])).shape)
# splitting
attempt(lambda: np.split(b, 3, axis=1))
attempt(lambda: np.split(np.arange(7), [2, 5]))
attempt(lambda: np.split(np.arange(7), 2))
attempt(lambda: np.array_split(np.arange(7), 3))
attempt(lambda: np.array_split(b, 2, axis=1))
attempt(lambda: np.hsplit(b, 3))
attempt(lambda: np.hsplit(np.arange(6), [1, 4]))
attempt(lambda: np.vsplit(np.arange(8).reshape(4, 2), 2))
attempt(lambda: np.dsplit(a.reshape(2, 2, 6), 2))
# squeeze / expand / broadcast
attempt(lambda: np.squeeze(np.ones((1, 2, 1)), axis=0).shape)
attempt(lambda: np.squeeze(np.ones((1, 2, 1)), axis=(0, 2)).shape)
attempt(lambda: np.squeeze(np.ones((1, 2, 1)), axis=1))
attempt(lambda: np.ones((1, 1)).squeeze().shape)
attempt(lambda: np.expand_dims(b, -1).shape)
attempt(lambda: np.expand_dims(b, 2).shape)
attempt(lambda: np.expand_dims(b, 5))
attempt(lambda: np.broadcast_to(np.array([[1.], [2.]]), (2, 3)))
attempt(lambda: np.broadcast_to(np.ones(3), (4, 3)).shape)
attempt(lambda: np.broadcast_to(np.ones(3), (3, 2)))
attempt(lambda: [x.shape for x in np.broadcast_arrays(np.ones((2, 1)), np.ones(3))])
# flip / roll / rot90 / tile / repeat
attempt(lambda: np.flip(b))
attempt(lambda: np.flip(b, axis=0))
attempt(lambda: np.flip(a, axis=(0, 2))[0, 0])
attempt(lambda: np.flipud(b))
attempt(lambda: np.fliplr(b))
attempt(lambda: np.roll(np.arange(5), 2))
attempt(lambda: np.roll(np.arange(5), -1))
attempt(lambda: np.roll(b, 1, axis=1))
attempt(lambda: np.roll(b, 1))
attempt(lambda: np.roll(b, (1, 1), axis=(0, 1)))
attempt(lambda: np.rot90(b))
attempt(lambda: np.rot90(b, k=2))
attempt(lambda: np.rot90(b, k=-1))
attempt(lambda: np.rot90(a, axes=(1, 2)).shape)
attempt(lambda: np.tile(b, (2, 1)))
attempt(lambda: np.tile(np.array([1., 2.]), (2, 2)))
attempt(lambda: np.tile(b, 2).shape)
attempt(lambda: np.repeat(b, 2))
attempt(lambda: np.repeat(b, 2, axis=0))
attempt(lambda: np.repeat(b, 3, axis=1).shape)
attempt(lambda: b.repeat(2, axis=1))
attempt(lambda: np.repeat(b, [1, 2], axis=0))
# indexing
x = np.arange(12.).reshape(3, 4)
attempt(lambda: x[::2])
attempt(lambda: x[::-1, ::2])
attempt(lambda: x[1:, -2:])
attempt(lambda: x[:, ::-1])
attempt(lambda: x[-1, ::-2])
attempt(lambda: x[x % 2 == 0])
attempt(lambda: x[(x > 2) & (x < 8)])
attempt(lambda: x[np.array([True, False, True])][:, 1])
attempt(lambda: x[:, np.array([True, False, True, False])])
attempt(lambda: x[[2, 0]])
attempt(lambda: x[[[0, 1], [2, 2]]])
attempt(lambda: x[np.array([[0], [2]], dtype='int32'), np.array([1, 3], dtype='int32')])
attempt(lambda: x[np.array([-1, 0], dtype='int64')])
attempt(lambda: x[1, [0, 2]])
attempt(lambda: x[1:, [0, 2]])
attempt(lambda: x[..., 1:3].shape)
attempt(lambda: x[None, :, None].shape)
attempt(lambda: x[np.array([3], dtype='int32')])
attempt(lambda: x[:, 4])
attempt(lambda: x[[0, 3]])
attempt(lambda: x[1, np.array([-5], dtype='int32')])
attempt(lambda: x[np.array([-3, 2], dtype='int64')])
attempt(lambda: x[0][np.array([1, 2], dtype='int32')])
y = np.zeros((3, 4))
y[1] = np.array([1., 2., 3., 4.])
y[:, 0] = 5
y[2, 1:3] = np.array([7., 8.])
y[0] += 1
show(y)
y[y > 4] = -1
show(y)
y[:, [1, 3]] = 0
show(y)
y[np.array([0, 2], dtype='int32'), np.array([1, 2], dtype='int32')] = 9
show(y)
y[...] = np.array([[1.], [2.], [3.]])
show(y)
y[1:] = np.arange(4)
show(y)
y[::2, ::2] = 6
show(y)
try:
    y[0] = np.ones(3)
except Exception as e:
    print(type(e).__name__)
try:
    y[:2] = np.ones((3, 4))
except Exception as e:
    print(type(e).__name__)
z = np.arange(5, dtype='int32')
z[z > 2] = 0
z[1] = 7.9
show(z)
# Python's round / math functions and the ndarray's slice methods
r0, rv = np.array(2.567), np.array([1.5, -2.5, 0.25])
for f in (lambda: round(r0), lambda: round(r0, 1), lambda: round(rv), lambda: round(rv, 1), lambda: math.floor(r0),
          lambda: math.ceil(r0), lambda: math.trunc(np.array(-2.5)), lambda: math.floor(rv)):
    attempt(f)
attempt(lambda: np.zeros((2, 3)).slice_assign(np.ones((1, 2)), (0, 0), (1, 2), (None, None)))
attempt(lambda: np.zeros((2, 3)).slice_assign_scalar(5, (0, 1), (2, 3), (None, None)))
attempt(lambda: np.arange(6).reshape_view(2, 3))
print(np.ones(2).writable)
# unique / sort / argsort
u = np.array([3., 1., 2., 3., 1., 5.])
attempt(lambda: np.unique(u))
attempt(lambda: np.unique(u, return_counts=True))
attempt(lambda: np.unique(u, return_index=True))
attempt(lambda: np.unique(u, return_inverse=True))
attempt(lambda: np.unique(np.array([[1., 2.], [1., 2.], [3., 4.]]), axis=0))
attempt(lambda: np.unique(np.array([2, 2, 1], dtype='int32')))
s = np.array([[3., 1., 2.], [0., 5., 4.]])
attempt(lambda: np.sort(s))
attempt(lambda: np.sort(s, axis=0))
attempt(lambda: np.sort(s, axis=None))
attempt(lambda: np.sort(s)[:, ::-1])
attempt(lambda: np.argsort(s))
attempt(lambda: np.argsort(s, axis=0))
attempt(lambda: np.argsort(-u))
attempt(lambda: np.argsort(np.array([2, 1, 2, 1], dtype='int32')))
attempt(lambda: s.argsort())
attempt(lambda: np.nonzero(s > 2))
attempt(lambda: np.unravel_index(np.array([5, 1], dtype='int64'), (2, 3)))
attempt(lambda: np.unravel_index(np.array([[7]], dtype='int32'), (2, 2, 2)))
print(np.unravel_index(4, (2, 3)))
attempt(lambda: np.argmax(s, axis=1))
attempt(lambda: np.take(s, np.array([0, 2], dtype='int32'), axis=1))
attempt(lambda: np.take(s, np.array([1, 5], dtype='int32')))
attempt(lambda: np.take(s, np.array([1, 6], dtype='int32')))
attempt(lambda: np.take(s, np.array([-1], dtype='int32'), mode='wrap'))
attempt(lambda: np.take(s, np.array([0, 9], dtype='int32'), axis=1, mode='clip'))
# as_nd_ndarray / as_np_ndarray
nd = b.as_nd_ndarray()
attempt(lambda: nd)
print(type(nd).__name__, type(nd.as_np_ndarray()).__name__, nd.as_np_ndarray().dtype)
attempt(lambda: nd.as_np_ndarray() + 1)
attempt(lambda: mx.nd.array([[1, 2]]).as_np_ndarray().dtype)
attempt(lambda: mx.nd.array([1, 2], dtype='int64').as_np_ndarray())
attempt(lambda: np.array([True, False]).as_nd_ndarray())
print(repr(np.zeros((1, 2)).as_nd_ndarray()))
attempt(lambda: mx.nd.ones((2,)).as_np_ndarray().sum())
attempt(lambda: b.asnumpy().dtype)
attempt(lambda: np.array(b.asnumpy()) + b)
# random: shapes and dtypes only
npx.random.seed(42)
mx.random.seed(42)
for r in (np.random.uniform(-1, 1, size=(2, 3)), np.random.normal(5, 2, (4,)), np.random.randint(3, size=(2,)),
          np.random.randint(0, 10, size=(2, 2), dtype='int64'), np.random.uniform(size=(2,), dtype='float64'),
          np.random.normal(size=(1, 2), dtype='float16'), np.random.rand(3), np.random.randn(2, 2),
          np.random.choice(np.arange(5.), 2), np.random.choice(5, (2, 2), replace=True),
          np.random.exponential(1.0, size=(3,)), np.random.gamma(2.0, 1.0, size=(2,)),
          np.random.beta(2.0, 3.0, size=(2,)),
          np.random.multinomial(3, [0.2, 0.8], size=2),
          np.random.uniform(np.zeros((2, 1)), np.ones(3)), np.random.normal(np.zeros(3), 1)):
    print(type(r).__name__, r.dtype, r.shape)
print(np.random.uniform(size=()).shape, np.random.randint(5).shape if hasattr(np.random.randint(5), 'shape') else None)
print(np.random.uniform(0, 1).shape, type(np.random.uniform(0, 1)).__name__)
v = np.random.uniform(2, 3, (100,))
print(bool((v >= 2).all()), bool((v < 3).all()))
