import numpy as np
import mxnet as mx

nd = mx.nd


def show(x):
    if isinstance(x, nd.NDArray):
        print(x.dtype.__name__, x.shape, x.asnumpy().tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = nd.arange(24).reshape((2, 3, 4))
show(a[1])
show(a[-1])
show(a[1, 2])
show(a[1, 2, 3])
show(a[0, :, 1])
show(a[:, 1:3])
show(a[:, ::2])
show(a[..., 1])
show(a[:, None, 0])
show(a[1:, -2:, ::-1])
show(a[::-1])
show(a[0][1][2])
show(a[(0, 1)])
show(a[[0, 1]])
show(a[[1, 0, 1]])
show(a[nd.array([1, 0])])
show(a[nd.array([1, 0], dtype='int32')])
show(a[0, [0, 2]])
show(a[[0, 1], [1, 2]])
show(a[:, [0, 2], 1])
show(a[np.array([1, 0])])
show(a[1:1])
attempt(lambda: a[2])
attempt(lambda: a[0, 0, 0, 0])
attempt(lambda: a[-3])
attempt(lambda: a['x'])
attempt(lambda: a[1.0])
# setitem
b = nd.zeros((3, 4))
b[0] = 1
b[1, 2] = 5
b[2, :] = nd.array([1, 2, 3, 4])
b[:, 0] = nd.array([7, 8, 9])
show(b)
b[:] = 2
b[1:, 1:3] = nd.array([[3], [4]])
show(b)
b[:, 3] = 9.5
show(b)
b[[0, 2]] = 0
show(b)
b[nd.array([1])] = -1
show(b)
b[0, [1, 3]] = nd.array([5, 6])
show(b)
b[:] = np.arange(12).reshape((3, 4))
show(b)
b[:] = nd.arange(4)
show(b)
b[1] = [4, 3, 2, 1]
show(b)
b[::2, ::2] = 0
show(b)
c = nd.zeros((2, 3), dtype='int32')
c[:] = 2.9
c[0, 0] = -1.9
show(c)
try:
    b[:] = nd.ones((2, 4))
except Exception as e:
    print(type(e).__name__)
try:
    b[5] = 1
except Exception as e:
    print(type(e).__name__)
# iteration, len
for r in nd.array([[1, 2], [3, 4]]):
    show(r)
print(len(nd.zeros((5, 2))))
x = nd.array([1, 2, 3])
show(x[1])
show(x[-1])
print(x[1].asscalar())
