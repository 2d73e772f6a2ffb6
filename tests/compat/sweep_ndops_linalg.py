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
        print(x.dtype.__name__, x.shape, (x.asnumpy().round(4) + 0).tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = nd.array([[1, 2, 3], [4, 5, 6]])
b = nd.array([[1, 0], [2, 1], [0, 3]])
c = nd.array([[1, 1], [2, 2]])
spd = nd.array([[4, 2, 0.4], [2, 5, 1], [0.4, 1, 3]])
spd64 = spd.astype('float64')
bspd = nd.stack(spd, spd * 2 + nd.eye(3))
low = nd.array([[2, 0, 0], [1, 3, 0], [0.5, 1, 4]])
m3 = nd.array([[1, 2], [3, 4], [5, 6]])

print('== gemm')
attempt(lambda: la.gemm(a, b, c))
attempt(lambda: la.gemm(a, b, c, alpha=2.0, beta=0.5))
attempt(lambda: la.gemm(a, a, c, transpose_b=True))
attempt(lambda: la.gemm(b, b, nd.ones((3, 3)), transpose_a=True, transpose_b=True, beta=0))
attempt(lambda: la.gemm(a, a, nd.ones((3, 3)), transpose_a=True, alpha=-1))
attempt(lambda: la.gemm(nd.stack(a, a * 2), nd.stack(b, b), nd.stack(c, c)))
attempt(lambda: la.gemm(nd.stack(a, a, axis=1), nd.stack(b, b * 2, axis=1), nd.stack(c, c, axis=1), axis=0))
attempt(lambda: la.gemm(a.astype('float64'), b.astype('float64'), c.astype('float64')))
attempt(lambda: la.gemm(a, a, c))
attempt(lambda: la.gemm(a, b, nd.ones((3, 3))))
print('== gemm2')
attempt(lambda: la.gemm2(a, b, alpha=0.5))
attempt(lambda: la.gemm2(a, a, transpose_b=True))
attempt(lambda: la.gemm2(a, a, transpose_a=True))
attempt(lambda: la.gemm2(b, a, transpose_a=True, transpose_b=True))
attempt(lambda: la.gemm2(nd.stack(a, a), nd.stack(b, b * 2)))
attempt(lambda: la.gemm2(nd.ones((2, 2, 3)), nd.ones((2, 3, 4))).shape)
attempt(lambda: la.gemm2(nd.stack(a, a, axis=1), nd.stack(b, b * 2, axis=1), axis=0))
attempt(lambda: la.gemm2(nd.ones((2, 3, 4, 5)), nd.ones((2, 3, 5, 4)), axis=1).shape)
attempt(lambda: la.gemm2(nd.ones((2, 2, 3)), nd.ones((3, 3, 4))))
attempt(lambda: la.gemm2(a, a))
attempt(lambda: la.gemm2(nd.ones((3,)), nd.ones((3,))))
attempt(lambda: la.gemm2(a.astype('float64'), b.astype('float64')))
attempt(lambda: la.gemm2(a.astype('float16'), b.astype('float16')))
print('== potrf potri')
attempt(lambda: la.potrf(spd))
attempt(lambda: la.potrf(spd64))
attempt(lambda: la.potrf(bspd))
attempt(lambda: la.potri(la.potrf(spd)))
attempt(lambda: la.potri(la.potrf(bspd)))
attempt(lambda: la.potrf(nd.ones((2, 3))))
attempt(lambda: la.potrf(nd.ones((3,))))
print('== trmm trsm')
attempt(lambda: la.trmm(low, m3.T if hasattr(m3, 'T') else m3))
attempt(lambda: la.trmm(low, m3))
attempt(lambda: la.trmm(low, m3, alpha=2.0))
attempt(lambda: la.trmm(low, m3, transpose=True))
attempt(lambda: la.trmm(low, m3.T, rightside=True))
attempt(lambda: la.trmm(low.T, m3, lower=False))
attempt(lambda: la.trmm(low.T, m3.T, lower=False, rightside=True, transpose=True))
attempt(lambda: la.trmm(nd.stack(low, low), nd.stack(m3, m3)))
attempt(lambda: la.trmm(low, nd.ones((2, 3))))
attempt(lambda: la.trsm(low, m3))
attempt(lambda: la.trsm(low, m3, alpha=2.0))
attempt(lambda: la.trsm(low, m3, transpose=True))
attempt(lambda: la.trsm(low, m3.T, rightside=True))
attempt(lambda: la.trsm(low.T, m3, lower=False))
attempt(lambda: la.trsm(low.T, m3.T, lower=False, rightside=True, transpose=True))
attempt(lambda: la.trsm(low.astype('float64'), m3.astype('float64')))
attempt(lambda: la.trsm(nd.stack(low, low * 2), nd.stack(m3, m3)))
attempt(lambda: la.trsm(low, nd.ones((2, 3))))
print('== syrk')
attempt(lambda: la.syrk(a))
attempt(lambda: la.syrk(a, transpose=True))
attempt(lambda: la.syrk(a, alpha=0.5))
attempt(lambda: la.syrk(nd.stack(a, a * 2)))
attempt(lambda: la.syrk(nd.ones((3,))))
print('== gelqf')
q, l = la.gelqf(a)
show(nd.abs(l))
show(nd.abs(q))
show(nd.dot(l, q))
show(la.gemm2(q, q, transpose_b=True))
q, l = la.gelqf(nd.stack(a, a * 2))
print(q.shape, l.shape)
attempt(lambda: la.gelqf(m3))
attempt(lambda: [x.shape for x in la.gelqf(a.astype('float64'))])
attempt(lambda: [x.dtype.__name__ for x in la.gelqf(a.astype('float64'))])
print('== syevd')
u, lam = la.syevd(spd)
show(lam)
show(nd.abs(u))
show(la.gemm2(u, u, transpose_b=True))
u, lam = la.syevd(bspd)
show(lam)
attempt(lambda: la.syevd(a))
print('== sumlogdiag extractdiag makediag')
attempt(lambda: la.sumlogdiag(spd))
attempt(lambda: la.sumlogdiag(bspd))
attempt(lambda: la.sumlogdiag(spd64))
attempt(lambda: la.sumlogdiag(a))
attempt(lambda: la.extractdiag(spd))
attempt(lambda: la.extractdiag(spd, offset=1))
attempt(lambda: la.extractdiag(spd, offset=-2))
attempt(lambda: la.extractdiag(bspd, offset=-1))
attempt(lambda: la.extractdiag(a))
attempt(lambda: la.extractdiag(spd, offset=3))
attempt(lambda: la.extractdiag(nd.ones((3,))))
attempt(lambda: la.makediag(nd.array([1, 2, 3])))
attempt(lambda: la.makediag(nd.array([1, 2]), offset=1))
attempt(lambda: la.makediag(nd.array([1, 2]), offset=-1))
attempt(lambda: la.makediag(nd.array([[1, 2], [3, 4]])))
attempt(lambda: la.makediag(nd.array([1, 2], dtype='int32')))
attempt(lambda: la.extractdiag(spd.astype('float16')))
attempt(lambda: la.extractdiag(spd, offset=-3))
print('== extracttrian maketrian')
attempt(lambda: la.extracttrian(spd))
attempt(lambda: la.extracttrian(spd, lower=False))
attempt(lambda: la.extracttrian(spd, offset=1))
attempt(lambda: la.extracttrian(spd, offset=-1))
attempt(lambda: la.extracttrian(bspd))
attempt(lambda: la.extracttrian(a))
attempt(lambda: la.maketrian(nd.array([1, 2, 3, 4, 5, 6])))
attempt(lambda: la.maketrian(nd.array([1, 2, 3, 4, 5, 6]), lower=False))
attempt(lambda: la.maketrian(nd.array([1, 2, 3]), offset=1))
attempt(lambda: la.maketrian(nd.array([1, 2, 3]), offset=-1))
attempt(lambda: la.maketrian(nd.array([[1, 2, 3], [4, 5, 6]])))
attempt(lambda: la.maketrian(nd.array([1, 2, 3, 4])))
attempt(lambda: la.maketrian(nd.array([1, 2, 3], dtype='float16')))
attempt(lambda: la.potrf(spd.astype('int32')))
print('== inverse det slogdet')
attempt(lambda: la.inverse(spd))
attempt(lambda: la.inverse(bspd))
attempt(lambda: la.inverse(spd64))
attempt(lambda: la.inverse(a))
attempt(lambda: la.det(spd))
attempt(lambda: la.det(bspd.astype('float64')))
attempt(lambda: la.det(nd.array([[1, 2], [2, 4]])))
attempt(lambda: la.det(nd.array([[0, 1], [1, 0]])))
attempt(lambda: la.det(a))
attempt(lambda: la.slogdet(spd))
attempt(lambda: la.slogdet(nd.array([[0, 1], [1, 0]])))
attempt(lambda: la.slogdet(nd.array([[1, 2], [2, 4]])))
attempt(lambda: la.slogdet(bspd))
attempt(lambda: la.slogdet(spd64))
attempt(lambda: la.slogdet(a))
print('== aliases')
for name in ('linalg_gemm', 'linalg_gemm2', 'linalg_potrf', 'linalg_potri', 'linalg_trmm', 'linalg_trsm',
             'linalg_syrk', 'linalg_gelqf', 'linalg_syevd', 'linalg_sumlogdiag', 'linalg_extractdiag',
             'linalg_makediag', 'linalg_extracttrian', 'linalg_maketrian', 'linalg_inverse', 'linalg_det',
             'linalg_slogdet'):
    print(name, hasattr(nd, name), hasattr(mx.sym, name), hasattr(mx.sym.linalg, name[7:]))
show(nd.linalg_gemm2(a, b))
print('== grads')
x = spd.copy()
x.attach_grad()
with mx.autograd.record():
    y = la.sumlogdiag(la.potrf(x))
y.backward()
show(x.grad)
x = spd.copy()
x.attach_grad()
with mx.autograd.record():
    y = la.det(x)
y.backward()
show(x.grad)
x = a.copy()
x.attach_grad()
with mx.autograd.record():
    y = la.syrk(x).sum()
y.backward()
show(x.grad)
x = low.copy()
x.attach_grad()
with mx.autograd.record():
    y = la.trsm(x, m3).sum()
y.backward()
show(x.grad)
print('== symbols')
s, t, u = mx.sym.var('a'), mx.sym.var('b'), mx.sym.var('c')
for sym, shapes in ((mx.sym.linalg.gemm(s, t, u, transpose_a=True), dict(a=(4, 2, 3), b=(4, 2, 5), c=(4, 3, 5))),
                    (mx.sym.linalg.gemm2(s, t, transpose_b=True), dict(a=(2, 3), b=(4, 3))),
                    (mx.sym.linalg.gemm2(s, t, axis=0), dict(a=(2, 3, 5), b=(5, 3, 4))),
                    (mx.sym.linalg.potrf(s), dict(a=(2, 3, 3))),
                    (mx.sym.linalg.syrk(s, transpose=True), dict(a=(2, 3))),
                    (mx.sym.linalg.gelqf(s), dict(a=(2, 3))),
                    (mx.sym.linalg.syevd(s), dict(a=(3, 3))),
                    (mx.sym.linalg.sumlogdiag(s), dict(a=(2, 3, 3))),
                    (mx.sym.linalg.extractdiag(s, offset=1), dict(a=(3, 3))),
                    (mx.sym.linalg.makediag(s, offset=-1), dict(a=(2, 3))),
                    (mx.sym.linalg.extracttrian(s), dict(a=(4, 4))),
                    (mx.sym.linalg.maketrian(s), dict(a=(10,))),
                    (mx.sym.linalg.maketrian(s, offset=1), dict(a=(2, 3))),
                    (mx.sym.linalg.inverse(s), dict(a=(3, 3))),
                    (mx.sym.linalg.det(s), dict(a=(2, 3, 3))),
                    (mx.sym.linalg.slogdet(s), dict(a=(3, 3))),
                    (mx.sym.linalg.trsm(s, t, rightside=True), dict(a=(3, 3), b=(2, 3)))):
    print(sym.list_arguments(), sym.list_outputs())
    print(sym.infer_shape(**shapes))
    print(sym.infer_type(**{k: 'float64' for k in shapes}))
attempt(lambda: mx.sym.linalg.gemm2(s, t).infer_shape(a=(2, 3), b=(2, 3)))
attempt(lambda: mx.sym.linalg.maketrian(s).infer_shape(a=(4,)))
ex = mx.sym.linalg.gemm2(s, t, alpha=2.0).bind(mx.cpu(), {'a': a, 'b': b})
show(ex.forward()[0])
ex = mx.sym.linalg.slogdet(s).bind(mx.cpu(), {'a': spd})
show(ex.forward())
