import numpy as onp
import mxnet as mx
from mxnet import np, npx
npx.set_np()


def show(x):
    if isinstance(x, np.ndarray):
        print(type(x).__name__, x.dtype, x.shape, x.tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


# creation defaults
attempt(lambda: np.arange(5))
attempt(lambda: np.arange(2, 8, 2))
attempt(lambda: np.arange(0, 1, 0.25))
attempt(lambda: np.arange(5, dtype='int32'))
attempt(lambda: np.arange(5, dtype=onp.int64))
attempt(lambda: np.zeros((2, 3)))
attempt(lambda: np.zeros(3, dtype='int32'))
attempt(lambda: np.ones((2,)))
attempt(lambda: np.full((2, 2), 7))
attempt(lambda: np.full((2,), 2.5, dtype='int32'))
attempt(lambda: np.linspace(0, 1, 5))
attempt(lambda: np.linspace(0, 1, 4, endpoint=False))
attempt(lambda: np.eye(3))
attempt(lambda: np.eye(2, 3, k=1))
attempt(lambda: np.identity(2))
attempt(lambda: np.zeros_like(np.ones((2,), dtype='int32')))
attempt(lambda: np.ones_like(np.zeros((2,))))
attempt(lambda: np.full_like(np.zeros((2,)), 3))
attempt(lambda: np.empty((2, 3)).shape)
print(np.random.normal(0, 1, (2, 3)).shape, np.random.normal(0, 1, (2, 3)).dtype)
print(np.random.uniform(size=(4,)).shape, np.random.uniform(size=(4,)).dtype)
print(np.random.uniform().shape)
print(np.random.randint(0, 10, (3,)).dtype, np.random.randint(0, 10, (3,)).shape)
print(np.random.rand(2, 3).shape, np.random.randn(2, 3).dtype)
print(np.random.choice(5, 3).dtype)
# mixed dtype arithmetic
f = np.array([1, 2, 3])
i = np.array([1, 2, 3], dtype='int32')
l = np.array([1, 2, 3], dtype='int64')
d = np.array([1, 2, 3], dtype='float64')
h = np.array([1, 2, 3], dtype='float16')
b = np.array([True, False, True], dtype='bool')
for x, y in [(f, i), (i, f), (i, l), (f, d), (h, f), (i, d), (b, i), (b, f)]:
    attempt(lambda: x + y)
    attempt(lambda: x * y)
    if {x.dtype.kind, y.dtype.kind} in ({'i', 'f'}, {'b', 'f'}):  # MXNet divides int by float only
        attempt(lambda: x / y)
for s in [2, 2.5, -1, True, onp.float32(2.5), onp.int64(3)]:
    attempt(lambda: i * s)
    attempt(lambda: i + s)
    attempt(lambda: s - i)
    attempt(lambda: i / s)
    if not isinstance(s, onp.generic):  # MXNet: AttributeError for numpy scalars
        attempt(lambda: s / i)
    attempt(lambda: f * s)
attempt(lambda: i / 2)
attempt(lambda: i // 2)
attempt(lambda: f // 2)
attempt(lambda: i % 2)
attempt(lambda: -7 % np.array([3, -3, 5]))
attempt(lambda: i ** 2)
attempt(lambda: 2 ** f)
attempt(lambda: f ** 0.5)
attempt(lambda: -i)
attempt(lambda: abs(np.array([-1, 2], dtype='int32')))
attempt(lambda: b + b)
attempt(lambda: f + np.ones((2, 3)))
attempt(lambda: f + np.ones((3, 2)))
attempt(lambda: f + onp.ones(3))
attempt(lambda: f @ f)
attempt(lambda: np.ones((2, 3)) @ np.ones((3,)))
# comparisons
attempt(lambda: f > 2)
attempt(lambda: i == 2)
attempt(lambda: f != np.array([1, 5, 3]))
attempt(lambda: i != 2.5)
attempt(lambda: 2 < f)
attempt(lambda: f == 2.5)
attempt(lambda: (f > 1) & (f < 3))
attempt(lambda: (f > 1) | (f < 2))
attempt(lambda: ~(f > 1))
attempt(lambda: ~i)
attempt(lambda: i & 6)
attempt(lambda: i | i)
attempt(lambda: (f > 1) ^ (f > 2))
attempt(lambda: f & f)
attempt(lambda: f // 2)
attempt(lambda: onp.ones(3) * f)
attempt(lambda: f + [1, 2, 3])
attempt(lambda: i < 1.5)
attempt(lambda: 2.5 >= i)
attempt(lambda: (f > 1).sum())
attempt(lambda: (f > 1).astype('float32').mean())
attempt(lambda: np.maximum(f, 2))
attempt(lambda: np.minimum(i, 2))
attempt(lambda: np.maximum(f, np.array([[0], [5]])))
attempt(lambda: np.clip(f, 1.5, 2.5))
attempt(lambda: np.clip(i, 1, 2))
attempt(lambda: np.where(f > 1, f, 0))
attempt(lambda: np.where(f > 1, f, np.zeros(3)))
attempt(lambda: np.where(f > 1))
# in-place
c = f.copy()
c += 1
c *= 2
c /= 4
attempt(lambda: c)
c = i.copy()
c += 2
attempt(lambda: c)
attempt(lambda: f.__iadd__(np.ones((2, 3))))
attempt(lambda: np.exp(np.array([0, 1], dtype='int32')))
attempt(lambda: np.sqrt(i))
attempt(lambda: np.log(f))
attempt(lambda: np.sin(np.zeros(2, dtype='float16')))
attempt(lambda: np.exp(1.0))
attempt(lambda: np.abs(-2))
