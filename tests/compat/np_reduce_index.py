import numpy as onp
import mxnet as mx
from mxnet import np, npx
npx.set_np()


def show(x):
    if isinstance(x, np.ndarray):
        print(x.dtype, x.shape, x.tolist())
    elif isinstance(x, (list, tuple)):
        print(type(x).__name__, [(v.dtype, v.shape, v.tolist()) for v in x])
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = np.arange(12).reshape(3, 4)
i = np.arange(12, dtype='int32').reshape(3, 4)
l = np.arange(6, dtype='int64')
b = a > 5
# reductions
for x in (a, i, l, b):
    attempt(lambda: x.sum())
    attempt(lambda: x.mean())
    attempt(lambda: x.max())
    attempt(lambda: np.prod(x[:1, :3] if x.ndim == 2 else x[:3]))
    if x.dtype != onp.bool_:  # MXNet has no bool argmax
        attempt(lambda: x.argmax())
        attempt(lambda: x.argmin())
attempt(lambda: a.sum(axis=0))
attempt(lambda: a.sum(axis=1, keepdims=True))
attempt(lambda: a.sum(axis=(0, 1)))
attempt(lambda: np.sum(a, axis=-1))
attempt(lambda: a.mean(axis=0))
attempt(lambda: i.mean(axis=1))
attempt(lambda: a.max(axis=1))
attempt(lambda: np.max(a, axis=0, keepdims=True))
attempt(lambda: a.min(0))
attempt(lambda: a.argmax(axis=1))
attempt(lambda: np.argmax(a, axis=0))
attempt(lambda: a.std())
attempt(lambda: a.var(axis=0))
attempt(lambda: np.cumsum(i, axis=1))
attempt(lambda: np.cumsum(a))
attempt(lambda: a.sum(axis=2))
attempt(lambda: a.sum(dtype='int32'))
attempt(lambda: i.sum(dtype='float32'))
attempt(lambda: np.round(np.linalg.norm(a), 3))
attempt(lambda: np.linalg.norm(np.array([3., 4.])))
attempt(lambda: np.round(np.linalg.norm(a, axis=1), 3))
attempt(lambda: np.linalg.norm(np.ones((4, 9))))
attempt(lambda: np.abs(np.array([-1., 2.])).sum())
attempt(lambda: np.any(b))
attempt(lambda: np.all(b, axis=0))
attempt(lambda: b.any())
# indexing
attempt(lambda: a[1])
attempt(lambda: a[1, 2])
attempt(lambda: a[-1])
attempt(lambda: a[:, 1])
attempt(lambda: a[1:3, ::2])
attempt(lambda: a[..., -1])
attempt(lambda: a[None].shape)
attempt(lambda: a[:, None, 1])
attempt(lambda: a[[0, 2]])
attempt(lambda: a[np.array([0, 2], dtype='int32')])
attempt(lambda: a[np.array([0, 2])])
attempt(lambda: a[[0, 1], [1, 2]])
attempt(lambda: a[np.array([0, 1], dtype='int64'), np.array([3, 0], dtype='int64')])
attempt(lambda: a[a > 5])
attempt(lambda: a[np.array([True, False, True])])
attempt(lambda: l[l % 2 == 0])
attempt(lambda: a[3])
attempt(lambda: a[0, 4])
attempt(lambda: a[1.5])
c = a.copy()
c[0] = 0
c[1, 1] = -1
c[:, 3] = np.array([7, 8, 9])
c[2, :2] = 5.5
show(c)
c[c > 6] = 0
show(c)
c[np.array([0, 1], dtype='int32')] = 100
show(c)
c[:] = 1
show(c)
c[...] = np.arange(4)
show(c)
d = i.copy()
d[0, 0] = 2.7
show(d)
y = np.array([0, 2, 1], dtype='int32')
attempt(lambda: a[np.arange(3), y])
attempt(lambda: a[np.arange(3, dtype='int32'), y])
attempt(lambda: a[range(3), y])
# iteration, len, bool
print(len(a), [r.shape for r in a], [v.tolist() for v in l])
for v in np.array([1, 2], dtype='int32'):
    print(type(v).__name__, v.shape, v.dtype, int(v))
