import numpy as np
import mxnet as mx

nd = mx.nd
sym = mx.sym


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


spd = nd.array([[4, 2, 0.4], [2, 5, 1], [0.4, 1, 3]])
a = nd.array([[1, 2, 3], [4, 5, 6]])
A, B = sym.var('A'), sym.var('B')

print('== executor forward and backward')
for s, args in ((sym.linalg.gemm2(A, B, transpose_b=True, alpha=2), {'A': a, 'B': a}),
                (sym.linalg.sumlogdiag(sym.linalg.potrf(A)), {'A': spd}),
                (sym.linalg.syrk(A, alpha=0.5), {'A': a}),
                (sym.linalg.inverse(A), {'A': spd}),
                (sym.linalg.det(A), {'A': spd}),
                (sym.linalg.slogdet(A)[1], {'A': spd}),
                (sym.linalg.trsm(sym.linalg.potrf(A), B, transpose=True), {'A': spd, 'B': a.T}),
                (sym.linalg.maketrian(sym.linalg.extracttrian(A, offset=-1), offset=-1), {'A': spd}),
                (sym.linalg.makediag(sym.linalg.extractdiag(A)), {'A': spd})):
    grads = {k: nd.zeros(v.shape) for k, v in args.items()}
    ex = s.bind(mx.cpu(), args, args_grad=grads)
    out = ex.forward(is_train=True)
    show(out)
    ex.backward([nd.ones(o.shape) for o in out])
    for k in sorted(grads):
        show(grads[k])

print('== gluon blocks')


class Net(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x, y):
        q, l = F.linalg.gelqf(x)
        g = F.linalg.gemm2(x, y)
        return F.linalg.sumlogdiag(F.linalg.potrf(F.linalg.syrk(x) + 3 * F.eye(2))), F.abs(l), g


net = Net()
show(net(a, a.T))
net.hybridize()
show(net(a, a.T))
show(net(a * 2, a.T))
x = a.copy()
x.attach_grad()
with mx.autograd.record():
    y = net(x, a.T)[0].sum()
y.backward()
show(x.grad)


class Rand(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.random.uniform(shape=(2, 3)) * 0 + F.contrib.div_sqrt_dim(x), F.random.normal_like(x) * 0


r = Rand()
r.hybridize()
show(r(nd.ones((2, 3)) * 3))
print('== export and json')
s = sym.linalg.slogdet(A)
print(s.tojson().count('"op": "_linalg_slogdet"'), s.list_outputs())
s = sym.linalg.det(A)
print([n['op'] for n in __import__('json').loads(s.tojson())['nodes']], s.list_outputs())
s = sym.contrib.allclose(A, B)
print(s.infer_type(A='float64', B='float64'))
s2 = sym.load_json(sym.linalg.gemm(A, B, B, transpose_a=True, alpha=0.5).tojson())
print(s2.list_arguments(), s2.attr_dict())
