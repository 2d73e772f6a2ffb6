import numpy as onp
import mxnet as mx
from mxnet import np, npx
npx.set_np()


def show(x):
    if isinstance(x, np.ndarray):
        print(type(x).__name__, x.dtype, x.shape, x.tolist())
    elif isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x), [show_one(v) for v in x])
    elif isinstance(x, onp.dtype):
        print('dtype', x)
    else:
        print(type(x).__name__, x)


def show_one(v):
    if isinstance(v, np.ndarray):
        return (str(v.dtype), v.shape, v.tolist())
    return (type(v).__name__, v)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


# arange / linspace
attempt(lambda: np.arange(0.5, 3))
attempt(lambda: np.arange(0, 2, 0.5))
attempt(lambda: np.arange(1, 0, -0.25))
attempt(lambda: np.arange(3.0))
attempt(lambda: np.arange(0, 10, 3))
attempt(lambda: np.arange(5, 2))
attempt(lambda: np.arange(2, 5, dtype='float64'))
attempt(lambda: np.arange(-3, 3, 1.5))
attempt(lambda: np.linspace(0, 1, 5, endpoint=True))
attempt(lambda: np.linspace(2, 3, 5, retstep=True))
# (MXNet's retstep with endpoint=False, std/var of ints and np.triu differ from NumPy: left out)
attempt(lambda: np.linspace(0, 10, 1))
attempt(lambda: np.linspace(0, 10, 0))
attempt(lambda: np.linspace(1, 0, 3))
attempt(lambda: np.linspace(0, 4, 5, dtype='int64'))
attempt(lambda: np.logspace(0, 2, 3))
# eye, identity, tri
attempt(lambda: np.eye(2, dtype='int32'))
attempt(lambda: np.eye(3, k=-1))
attempt(lambda: np.eye(3, 2))
attempt(lambda: np.identity(3, dtype='int64'))
attempt(lambda: np.tril(np.arange(9).reshape(3, 3)))
attempt(lambda: np.tril(np.arange(9).reshape(3, 3), k=-1))
attempt(lambda: np.tri(3))
# meshgrid / indices
attempt(lambda: np.meshgrid(np.arange(3), np.arange(2)))
attempt(lambda: np.meshgrid(np.arange(3), np.arange(2), indexing='ij'))
attempt(lambda: np.indices((2, 3)))
# *_like and full/empty
z = np.zeros((2, 3), dtype='int32')
attempt(lambda: np.empty_like(z).shape)
attempt(lambda: np.empty_like(z).dtype)
attempt(lambda: np.full_like(z, 2.7))
attempt(lambda: np.full_like(z, 2, dtype='float32'))
attempt(lambda: np.zeros_like(z, dtype='float64'))
attempt(lambda: np.ones_like(np.array([True, False])))
attempt(lambda: np.full((2, 2), 1.5))
attempt(lambda: np.full((2,), np.array(3.0)))
attempt(lambda: np.full(3, -1, dtype='int64'))
attempt(lambda: np.zeros(()))
attempt(lambda: np.ones((0, 2)))
attempt(lambda: np.zeros([2, 1]))
attempt(lambda: np.empty(3, dtype='int32').dtype)
attempt(lambda: np.zeros((2,), dtype=onp.float64))
attempt(lambda: np.zeros((2,), dtype=np.int8))
attempt(lambda: np.ones((2,), dtype=bool))
attempt(lambda: np.ones((2,), dtype='uint8'))
# dtypes of results of int inputs
ii = np.array([1, 2, 3, 4], dtype='int32')
ll = np.array([1, 2, 3, 4], dtype='int64')
attempt(lambda: ii.sum())
attempt(lambda: ll.sum())
attempt(lambda: np.sum(ii, axis=0))
attempt(lambda: ii / ii)
attempt(lambda: ll / 2)
attempt(lambda: np.true_divide(ii, 3))
attempt(lambda: np.divide(ll, ll))
attempt(lambda: ii.mean())
attempt(lambda: ll.mean())
attempt(lambda: np.mean(ll, dtype='float64'))
attempt(lambda: np.array([True, True, False]).sum())
attempt(lambda: np.array([True, False]).mean())
attempt(lambda: ii.prod())
attempt(lambda: np.cumsum(ll))
attempt(lambda: np.cumsum(np.array([True, True])))
attempt(lambda: ii.max())
attempt(lambda: (ii * 1.5))
attempt(lambda: ii ** 2)
attempt(lambda: ii ** 0.5)
attempt(lambda: np.sqrt(ll))
attempt(lambda: np.exp(ll).dtype)
attempt(lambda: np.array([1, 2]).dtype)
attempt(lambda: np.array([1, 2], dtype=None).dtype)
attempt(lambda: np.array(onp.arange(3)).dtype)
attempt(lambda: np.array(onp.arange(3.0)).dtype)
attempt(lambda: np.array(onp.array([1, 2], dtype='int32')).dtype)
attempt(lambda: np.array([1.7, -1.7]).astype('int32'))
attempt(lambda: np.array([0, 1, 2]).astype(bool))
attempt(lambda: np.array([300.0]).astype('uint8').dtype)
# item / tolist / scalars
s = np.array(2.5)
print(s.item(), type(s.item()).__name__, s.ndim, s.shape, s.size)
print(np.array([7], dtype='int64').item(), type(np.array([7], dtype='int64').item()).__name__)
print(np.array([True]).item(), type(np.array([True]).item()).__name__)
print(np.arange(6).reshape(2, 3).item(4))
print(np.array(3, dtype='int32').tolist(), np.array(2.0).tolist(), np.array([True, False]).tolist())
print(np.array([[1, 2]], dtype='int32').tolist())
try:
    np.arange(3).item()
except Exception as e:
    print(type(e).__name__)
print(int(np.array([5.9])), float(np.array([2], dtype='int32')))
print(np.arange(3)[1].item(), np.arange(3)[1].shape)
# printed forms
print(np.arange(6).reshape(2, 3))
print(repr(np.arange(6, dtype='int32').reshape(2, 3)))
print(np.array([[True, False], [False, True]]))
print(repr(np.array(True)))
print(np.array(False))
print(repr(np.array(-0.5)))
print(repr(np.array([-1.5, 2.0, 1e-3])))
print(np.array([1e10, 2.0]))
print(repr(np.array([0.1, 123.456], dtype='float64')))
print(repr(np.array([1.5, 2.25], dtype='float16')))
print(np.arange(1200).reshape(40, 30))
print(repr(np.ones((1001,), dtype='int32')))
print(repr(np.zeros((3, 1, 2))))
print(repr(np.arange(3)[1]))
print(str(np.array(7, dtype='int64')), repr(np.array(7, dtype='int64')))
print(repr(np.array([onp.nan, 1.0])))
print('%s|%r' % (np.array([1., 2.]), np.array([3], dtype='int32')))
print('{}'.format(np.array([1.25, 2.5])))
print(f'{np.array(3.5).item():.2f}')
print(np.array([[1.123456789, 2.0]]))
print(np.array([-0.0, 0.0]))
print(repr(np.eye(2) == 1))
print(repr(np.array([1, 2], dtype='int8')), repr(np.array([1, 2], dtype='uint8')))
print(np.arange(1001))
print(repr(np.arange(100.).reshape(4, 25) / 7))
print(np.array([True] * 1200))
print(np.ones((2, 2), dtype='int64') * 123456789012)
print([np.array(1.5), np.array([1, 2], dtype='int32')], (np.array([1., 2.]),), {'a': np.array([1.])})
np.set_printoptions(precision=2)
print(np.array([1.23456, 2.0]), repr(np.array([[1 / 3]])))
np.set_printoptions(threshold=5)
print(np.arange(10))
np.set_printoptions(precision=8, threshold=1000)
print(np.array([1.23456, 2.0]), np.arange(10))
try:
    np.set_printoptions(linewidth=100)
except Exception as e:
    print(type(e).__name__)
