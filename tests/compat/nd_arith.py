import numpy as np
import mxnet as mx

nd = mx.nd


def show(x):
    print(x.dtype.__name__ if hasattr(x.dtype, '__name__') else x.dtype, x.shape, x.asnumpy().tolist())


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = nd.array([[1, 2, 3], [4, 5, 6]])
i = nd.array([[1, 2, 3], [4, 5, 6]], dtype='int32')
h = nd.array([1, 2, 3], dtype='float16')
d = nd.array([1, 2, 3], dtype='float64')
u = nd.array([1, 2, 250], dtype='uint8')
# scalars of several python / numpy types
for s in [2, 2.5, -1, np.float32(2.5), np.float64(2.5), np.int64(3), True]:
    attempt(lambda: a * s)
    attempt(lambda: i * s)
    attempt(lambda: i + s)
    attempt(lambda: s - i)
    attempt(lambda: i / s)
    attempt(lambda: s / a)
show(i / 2)
show(i // 2 if hasattr(i, '__floordiv__') else i)
show(i % 4)
show(-7 % nd.array([3, -3, 5]))
show(nd.array([-7, 7, -7]) % 3)
show(i ** 2)
show(2 ** a)
show(h * 2.5)
show(h + h)
show(d / 3)
show(u + 10)
show(u * 2)
show(-a)
show(abs(nd.array([-1.5, 2])))
# comparisons return 0/1 in the input dtype
show(a > 2)
show(i >= 3)
show(a == a)
show(a != 2)
show(2 < a)
show(i == 2.5)
show(nd.array([1, 2]) == nd.array([[1], [2]]))
print((a > 2).sum().asscalar())
# broadcasting between arrays
show(a + nd.array([10, 20, 30]))
show(a * nd.array([[2], [3]]))
show(nd.broadcast_add(a, nd.ones((1, 3))))
attempt(lambda: a + nd.ones((3, 2)))
attempt(lambda: nd.elemwise_add(a, nd.ones((1, 3))))
attempt(lambda: a + i)
attempt(lambda: nd.add(a, 1))
attempt(lambda: nd.maximum(a, 3))
attempt(lambda: nd.minimum(2, a))
attempt(lambda: nd.power(a, 2))
attempt(lambda: nd.equal(a, 2))
attempt(lambda: a + np.ones((2, 3)))
attempt(lambda: np.float32(1.5) * a)
try:
    print(type(np.ones((2, 3)) + a).__name__)
except Exception as ex:
    print(type(ex).__name__)
# in-place
b = a.copy()
b += 1
b *= 2
b -= a
b /= 2
show(b)
c = i.copy()
c += 2.7
show(c)
c *= 1.5
show(c)
c /= 2
show(c)
e = a.copy()
e += nd.array([1, 1, 1])
show(e)
try:
    e += nd.ones((3, 3))
except Exception as ex:
    print(type(ex).__name__)
show(e)
# unary math and dtypes
show(nd.sqrt(i))
show(nd.exp(nd.array([0, 1], dtype='float16')))
show(nd.round(nd.array([0.5, 1.5, 2.5, -0.5, -1.5])))
show(nd.rint(nd.array([0.5, 1.5, 2.5, -0.5])))
show(nd.fix(nd.array([-1.7, 1.7])))
show(nd.sign(nd.array([-2, 0, 3])))
show(nd.relu(nd.array([-1, 0, 2], dtype='int32')))
show(nd.sigmoid(nd.array([0])))
show(nd.clip(a, 2, 4.5))
show(nd.clip(i, 2, 4.5))
show(nd.reciprocal(nd.array([2, 4])))
show(nd.square(i))
show(nd.logical_not(nd.array([0, 2])))
