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


# views: slicing a basic index shares memory in MXNet
base = nd.zeros((2, 3))
row = base[1]
row[:] = 7
show(base)
sl = base[0:1]
sl += 1
show(base)
base[:] = 3
show(row)
show(sl)
m = nd.arange(24).reshape((2, 3, 4))
v1 = m[1, 1:3]
v2 = m[:, 1]
v1[:] = -1
v2[:] = 100
show(m)
r = m.reshape((6, 4))
r[0] = 42
show(m[0, 0])
m[1] = 0
show(v1)
show(r[3:])
c = m[0][2]
c *= 2
show(m[0])
w = nd.arange(6).reshape((2, 3))
w[0] += 10
w[1, 1:] -= 1
show(w)
z = nd.zeros((4,))
part = z[1:3]
nd.ones((2,)).copyto(part)
show(z)
nd.elemwise_add(part, part, out=part)
show(z)
q = nd.arange(4)
q2 = q[::2]
q2[:] = 9
show(q)
print(len([x for x in nd.arange(6).reshape((3, 2))]))
