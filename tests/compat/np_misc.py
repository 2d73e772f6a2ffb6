import numpy as onp
import mxnet as mx
from mxnet import np, npx


def show(x):
    if isinstance(x, np.ndarray):
        print(type(x).__name__, x.dtype, x.shape, x.tolist())
    elif isinstance(x, mx.nd.NDArray):
        print(type(x).__name__, x.dtype, x.shape, x.asnumpy().tolist())
    elif isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x), [(type(v).__name__, v.dtype, v.shape) for v in x])
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


print(npx.is_np_array())
npx.set_np()
print(npx.is_np_array())
# array from python objects
attempt(lambda: np.array([1, 2.5, True]))
attempt(lambda: np.array([[1, 2], [3, 4]], dtype=np.int32))
attempt(lambda: np.array([[1, 2], [3]]))
attempt(lambda: np.array('abc'))
attempt(lambda: np.array([np.array([1., 2.]), np.array([3., 4.])]))
attempt(lambda: np.array(onp.float64(2.5)))
attempt(lambda: np.array(7))
attempt(lambda: np.array([1, 2], dtype='float16'))
attempt(lambda: mx.nd.ones((2,)).as_np_ndarray())
attempt(lambda: np.ones((2,)).as_nd_ndarray())
attempt(lambda: np.zeros((2, -1)))
attempt(lambda: np.arange(3, 0, -1))
attempt(lambda: np.arange(0, 3, 0))
attempt(lambda: np.ones((2, 3)).reshape(4, 2))
attempt(lambda: np.ones((2, 3)).reshape(-1, -1))
attempt(lambda: np.ones((2, 3)).sum(axis=3))
attempt(lambda: np.dot(np.ones((2, 3)), np.ones((2, 3))))
attempt(lambda: np.ones((2, 3))[5])
attempt(lambda: np.ones((2, 3))[0, 0, 0])
attempt(lambda: np.ones((2, 3)).transpose(0, 2))
# random: shapes and dtypes only
mx.random.seed(0)
npx.random.seed(0)
for r in (np.random.uniform(0, 1, (2, 3)), np.random.normal(size=(3,)), np.random.randint(0, 5, size=(2, 2)),
          np.random.rand(2), np.random.randn(3, 1), np.random.uniform(size=4), np.random.normal(0, 1)):
    print(type(r).__name__, r.dtype, r.shape)
v = np.random.uniform(np.zeros(3), np.ones(3))
print(v.dtype, v.shape)
s = np.arange(6)
np.random.shuffle(s)
print(sorted(s.tolist()))
print(np.random.choice(4, size=(2,), replace=False).shape)
print(np.random.multinomial(5, [0.5, 0.5]).dtype if hasattr(np.random, 'multinomial') else None)
# misc functions
attempt(lambda: np.exp(np.array([0., 1.])).round(3))
attempt(lambda: np.log(np.array([1, 4], dtype='int32')))
attempt(lambda: np.power(np.array([2, 3]), 2))
attempt(lambda: np.sqrt(np.array([4.])) * 2)
attempt(lambda: np.mean(np.array([1, 2], dtype='int32')))
attempt(lambda: np.sum(np.array([[1, 2]], dtype='int64'), axis=1))
attempt(lambda: np.abs(np.array([-1, 1], dtype='int8')))
attempt(lambda: np.sign(np.array([-2., 0., 3.])))
attempt(lambda: np.floor(np.array([1.5, -1.5])))
attempt(lambda: np.ceil(np.array([1.5, -1.5])))
attempt(lambda: np.round(np.array([0.5, 1.5, 2.5])))
attempt(lambda: np.pi)
attempt(lambda: np.ones((2, 2)).size)
attempt(lambda: np.zeros((2, 3)).ndim)
attempt(lambda: np.ones((3,)).shape)
attempt(lambda: np.tanh(np.zeros(2)))
attempt(lambda: np.ones(3).copy())
attempt(lambda: np.ones(3, dtype='int32').astype('float64'))
attempt(lambda: np.ones((2, 3)).mean(axis=-1, keepdims=True))
attempt(lambda: np.var(np.array([1., 2., 3., 4.])))
attempt(lambda: np.std(np.array([1., 2., 3., 4.]), ddof=1))
attempt(lambda: np.cumsum(np.array([1, 2, 3], dtype='int32')))
attempt(lambda: np.nonzero(np.array([0, 1, 0, 2])))
attempt(lambda: np.zeros((2, 2), dtype=bool))
attempt(lambda: np.ones((2,), dtype=np.int64) / 2)
attempt(lambda: np.full((2,), True))
attempt(lambda: np.full((2,), 3, dtype='int32'))
attempt(lambda: np.linspace(0, 10, 5, dtype='int32'))
attempt(lambda: np.arange(5)[::-1])
attempt(lambda: np.arange(5)[np.arange(5) > 2])
attempt(lambda: np.maximum(np.array([1, 5], dtype='int32'), np.array([3, 2], dtype='int32')))
attempt(lambda: np.hstack([np.ones(2), np.zeros(2)]))
attempt(lambda: np.vstack([np.ones(2), np.zeros(2)]))
npx.reset_np()
print(npx.is_np_array())
