import numpy as np
import mxnet as mx

nd = mx.nd
la = nd.linalg


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    elif isinstance(x, nd.NDArray):
        print(x.dtype.__name__, x.shape, (x.asnumpy().round(3) + 0).tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


def grads(f, *xs, head=None):
    xs = [x.copy() for x in xs]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        y = f(*xs)
        if isinstance(y, (list, tuple)):
            y = sum((o * (i + 1)).sum() for i, o in enumerate(y))
        elif head is not None:
            y = y * head
    y.backward()
    return [x.grad for x in xs]


a = nd.array([[1, 2, 3], [4, 5, 6]])
b = nd.array([[1, 0], [2, 1], [0, 3]])
c = nd.array([[1, 1], [2, 2]])
spd = nd.array([[4, 2, 0.4], [2, 5, 1], [0.4, 1, 3]])
low = nd.array([[2, 0, 0], [1, 3, 0], [0.5, 1, 4]])
m3 = nd.array([[1, 2], [3, 4], [5, 6]])
h2 = nd.array([[1, -1], [0.5, 2]])
h3 = nd.array([[1, -1, 2], [0.5, 2, 1], [0, 1, -1]])

print('== gradients')
attempt(lambda: grads(lambda x, y, z: la.gemm(x, y, z, alpha=2, beta=3), a, b, c, head=h2))
attempt(lambda: grads(lambda x, y, z: la.gemm(x, y, z, transpose_a=True, transpose_b=True), b, a, nd.ones((2, 2)), head=h2))
attempt(lambda: grads(lambda x, y: la.gemm2(x, y, alpha=0.5), a, b, head=h2))
attempt(lambda: grads(lambda x, y: la.gemm2(x, y, transpose_b=True), a, a, head=h2))
attempt(lambda: grads(lambda x: la.potrf(x), spd, head=h3))
attempt(lambda: grads(lambda x: la.potri(x), low, head=h3))
attempt(lambda: grads(lambda x, y: la.trmm(x, y, alpha=2), low, m3, head=m3))
attempt(lambda: grads(lambda x, y: la.trmm(x, y.T, rightside=True, transpose=True), low, m3, head=m3.T))
attempt(lambda: grads(lambda x, y: la.trsm(x, y, transpose=True), low, m3, head=m3))
attempt(lambda: grads(lambda x, y: la.trsm(x.T, y, lower=False, alpha=0.5), low, m3, head=m3))
attempt(lambda: grads(lambda x: la.syrk(x, transpose=True, alpha=2), a, head=h3))
attempt(lambda: grads(lambda x: la.sumlogdiag(x), spd))
attempt(lambda: grads(lambda x: la.extractdiag(x, offset=1), spd, head=nd.array([1, 2])))
attempt(lambda: grads(lambda x: la.makediag(x, offset=-1), nd.array([1, 2]), head=h3))
attempt(lambda: grads(lambda x: la.extracttrian(x, offset=1), spd, head=nd.array([1, 2, 3])))
attempt(lambda: grads(lambda x: la.maketrian(x, lower=False), nd.array([1, 2, 3]), head=h2))
attempt(lambda: grads(lambda x: la.inverse(x), spd, head=h3))
attempt(lambda: grads(lambda x: la.det(x), h3))
attempt(lambda: grads(lambda x: la.slogdet(x), h3))
attempt(lambda: grads(lambda x: la.gelqf(x), a))
attempt(lambda: grads(lambda x: la.syevd(x)[1], spd, head=nd.array([1, 2, 3])))

print('== batches')
B = nd.stack(spd, spd + nd.eye(3), spd * 2, spd + 2 * nd.eye(3)).reshape((2, 2, 3, 3))
attempt(lambda: la.potrf(B))
attempt(lambda: la.sumlogdiag(B))
attempt(lambda: la.det(B))
attempt(lambda: la.slogdet(B))
attempt(lambda: la.inverse(B).shape)
attempt(lambda: la.extractdiag(B))
attempt(lambda: la.extracttrian(B, offset=-1))
attempt(lambda: la.maketrian(la.extracttrian(B)).shape)
attempt(lambda: la.makediag(la.extractdiag(B)).shape)
attempt(lambda: la.syrk(B.reshape((2, 2, 9))[:, :, :6].reshape((2, 2, 2, 3))))
attempt(lambda: la.gemm2(B, B, transpose_a=True).shape)
attempt(lambda: la.trsm(la.potrf(B), B))
attempt(lambda: la.syevd(B)[1])
attempt(lambda: la.gelqf(B[:, :, :2, :])[1].shape)
attempt(lambda: la.gemm(B, B, B, axis=1).shape)
attempt(lambda: la.gemm2(B, B, axis=-3).shape)
attempt(lambda: la.gemm2(B, B, axis=-1))
attempt(lambda: la.gemm2(B, B, axis=3))
attempt(lambda: la.gemm2(B, B.astype('float64')))
attempt(lambda: la.trsm(low, m3.astype('float64')))

print('== empty and edge')
attempt(lambda: la.gemm2(nd.ones((2, 0)), nd.ones((0, 3))))
attempt(lambda: la.det(nd.ones((1, 1)) * 5))
attempt(lambda: la.inverse(nd.ones((1, 1)) * 4))
attempt(lambda: la.potrf(nd.array([[-1.0]])))
attempt(lambda: la.potrf(nd.array([[1, 2], [2, 1]])))
attempt(lambda: la.inverse(nd.array([[1, 2], [2, 4]])))
attempt(lambda: la.slogdet(nd.zeros((2, 2))))
attempt(lambda: la.sumlogdiag(nd.array([[-1, 0], [0, 1]])))
attempt(lambda: la.trsm(nd.array([[0, 0], [1, 1]]), nd.ones((2, 1))))

print('== NDArray forms')
print(la.gemm2(a, b))
print(la.slogdet(spd))
print(la.gelqf(nd.array([[3, 4]])))
