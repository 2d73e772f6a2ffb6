import numpy as np
import mxnet as mx

nd = mx.nd
R = nd.random
mx.random.seed(7)


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    elif isinstance(x, nd.NDArray):
        print(x.dtype.__name__, x.shape, x.context.device_type)
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


def values(f):
    try:
        x = f()
        print(x.dtype.__name__, x.shape, (x.asnumpy().round(4) + 0).tolist())
    except Exception as e:
        print(type(e).__name__)


def stats(x):
    v = x.asnumpy().astype('float64')
    print(x.dtype.__name__, x.shape, round(float(v.mean()), 1) + 0, round(float(v.std()), 1) + 0)


N = 100000
print('== statistics')
stats(R.normal(2, 3, shape=N))
stats(R.uniform(1, 4, shape=(N,)))
stats(R.exponential(2, shape=N))
stats(R.gamma(4, 0.5, shape=N))
stats(R.poisson(3, shape=N))
stats(R.negative_binomial(4, 0.5, shape=N))
stats(R.generalized_negative_binomial(2, 0.5, shape=N))
stats(R.randint(0, 10, shape=N))
stats(R.randn(N, loc=1, scale=2))
stats(R.normal(nd.array([0, 10]), nd.array([1, 2]), shape=N)[1])
stats(R.uniform(nd.array([0, 10]), nd.array([1, 20]), shape=N)[1])
stats(R.gamma(nd.array([2, 9]), nd.array([1, 0.5]), shape=N)[1])
stats(R.exponential(nd.array([1, 4]), shape=N)[1])
stats(R.poisson(nd.array([1, 5]), shape=N)[1])
stats(R.negative_binomial(nd.array([2, 4]), nd.array([0.3, 0.5]), shape=N)[1])
stats(R.generalized_negative_binomial(nd.array([1, 2]), nd.array([0.1, 0.5]), shape=N)[1])
stats(nd.sample_normal(nd.array([5]), nd.array([0.5]), shape=N))
stats(nd.sample_uniform(nd.array([-1]), nd.array([1]), shape=N))
stats(R.normal_like(nd.zeros((N,)), loc=3, scale=1))
stats(R.uniform_like(nd.zeros((N,)), low=2, high=4))
stats(R.exponential_like(nd.zeros((N,)), lam=0.5))
stats(R.gamma_like(nd.zeros((N,)), alpha=4, beta=0.5))
stats(R.poisson_like(nd.zeros((N,)), lam=3))
m = R.multinomial(nd.array([0.2, 0.3, 0.5]), shape=N)
print(m.dtype.__name__, m.shape, [round(float((m.asnumpy() == k).mean()), 1) for k in range(3)])
m = R.multinomial(nd.array([[1.0, 0, 0], [0, 0, 1.0]]), shape=4)
print(m.dtype.__name__, m.asnumpy().tolist())
s, p = R.multinomial(nd.array([[0, 1.0], [1.0, 0]]), shape=2, get_prob=True)
print(s.dtype.__name__, s.asnumpy().tolist(), p.dtype.__name__, p.shape, (p.asnumpy().round(4) + 0).tolist())
print(round(float(R.shuffle(nd.arange(N)).sum().asscalar()) / N, 1))

print('== shapes and dtypes')
attempt(lambda: R.normal())
attempt(lambda: R.normal(shape=(2, 3), dtype='float64'))
attempt(lambda: R.normal(shape=(2, 3), dtype='float16'))
attempt(lambda: R.normal(shape=(2, 3), dtype='int32'))
attempt(lambda: R.uniform(shape=[2, 2]))
attempt(lambda: R.uniform(0, 1, 4, dtype='float64'))
attempt(lambda: R.randn(2, 3))
attempt(lambda: R.randn(2, 3, dtype='float64'))
attempt(lambda: R.randn())
attempt(lambda: R.exponential(shape=(2,), dtype='float16'))
attempt(lambda: R.gamma(shape=(3,), dtype='float64'))
attempt(lambda: R.poisson(shape=(3,), dtype='int32'))
attempt(lambda: R.negative_binomial(shape=(3,)))
attempt(lambda: R.generalized_negative_binomial(shape=(3,)))
attempt(lambda: R.randint(0, 5, shape=(2, 2)))
attempt(lambda: R.randint(0, 5, shape=(2, 2), dtype='int64'))
attempt(lambda: R.randint(0, 5, shape=(2, 2), dtype='float32'))
attempt(lambda: R.randint(0, 1, shape=3))
values(lambda: R.randint(4, 5, shape=3))
values(lambda: R.uniform(2, 2, shape=2))
values(lambda: R.normal(1, 0, shape=2))
values(lambda: R.poisson(0, shape=2))
attempt(lambda: R.multinomial(nd.array([0.5, 0.5])))
attempt(lambda: R.multinomial(nd.array([0.5, 0.5]), dtype='int64'))
attempt(lambda: R.multinomial(nd.array([0.5, 0.5]), dtype='float32'))
attempt(lambda: R.multinomial(nd.array([[0.5, 0.5], [0.1, 0.9]]), shape=(2, 3)))
attempt(lambda: R.multinomial(nd.array([[0.5, 0.5], [0.1, 0.9]]), get_prob=True))
attempt(lambda: R.shuffle(nd.arange(12).reshape((4, 3))))
values(lambda: nd.sort(R.shuffle(nd.arange(12).reshape((4, 3))), axis=0))
values(lambda: R.shuffle(nd.array([7])))

print('== parameter arrays')
mu, sig = nd.array([0, 1]), nd.array([1, 2])
attempt(lambda: R.normal(mu, sig))
attempt(lambda: R.normal(mu, sig, shape=3))
attempt(lambda: R.normal(mu, sig, shape=(3, 2)))
attempt(lambda: R.normal(mu.reshape((2, 1)), sig.reshape((2, 1)), shape=2))
attempt(lambda: R.normal(mu, sig, shape=3, dtype='float64'))
attempt(lambda: R.normal(mu.astype('float64'), sig.astype('float64'), shape=3))
attempt(lambda: R.normal(mu, 1.0, shape=3))
attempt(lambda: R.normal(0.0, sig, shape=3))
attempt(lambda: R.normal(mu, nd.array([1, 2, 3]), shape=3))
attempt(lambda: R.uniform(mu, sig + 1, shape=(2,)))
attempt(lambda: R.gamma(sig, sig, shape=2))
attempt(lambda: R.exponential(sig, shape=2))
attempt(lambda: R.poisson(sig, shape=(2, 2)))
attempt(lambda: R.negative_binomial(sig, nd.array([0.5, 0.5]), shape=2))
attempt(lambda: R.generalized_negative_binomial(sig, sig, shape=2))
attempt(lambda: R.randint(nd.array([0]), nd.array([3]), shape=2))
attempt(lambda: nd.sample_normal(mu, sig))
attempt(lambda: nd.sample_normal(mu, sig, shape=(2, 3)))
attempt(lambda: nd.sample_normal(mu, sig, shape=(2, 3), dtype='float64'))
attempt(lambda: nd.sample_normal(mu, nd.array([1, 2, 3])))
attempt(lambda: nd.sample_uniform(mu, sig + 1, shape=4))
attempt(lambda: nd.sample_gamma(sig, sig, shape=4))
attempt(lambda: nd.sample_exponential(sig, shape=4))
attempt(lambda: nd.sample_poisson(sig, shape=4))
attempt(lambda: nd.sample_negative_binomial(sig, nd.array([0.5, 0.5]), shape=4))
attempt(lambda: nd.sample_generalized_negative_binomial(sig, sig, shape=4))
attempt(lambda: nd.sample_multinomial(nd.array([[0.5, 0.5]]), shape=3))
attempt(lambda: nd.sample_multinomial(nd.array([0.5, 0.5]), shape=(2, 3), dtype='int64'))
attempt(lambda: nd.sample_multinomial(nd.array([0.5, 0.5]), get_prob=True))
attempt(lambda: nd.random_normal(shape=(2, 2), loc=1))
attempt(lambda: nd.random_uniform(low=0, high=1, shape=3, dtype='float64'))
attempt(lambda: nd.random_randint(low=0, high=3, shape=3))

print('== out= and like')
o = nd.zeros((2, 3))
r = R.normal(shape=(2, 3), out=o)
print(r is o, o.shape, float((o != 0).sum().asscalar()))
o = nd.zeros((2, 3), dtype='float64')
R.uniform(1, 2, shape=(2, 3), out=o)
print(o.dtype.__name__, float(o.min().asscalar()) >= 1)
o = nd.zeros((2, 4))
R.normal(mu, sig, shape=4, out=o)
print(o.shape, float((o != 0).sum().asscalar()))
o = nd.zeros((5,))
R.randn(5, out=o)
print(float((o != 0).sum().asscalar()))
attempt(lambda: R.normal_like(nd.zeros((2, 3), dtype='float64')))
attempt(lambda: R.uniform_like(nd.zeros((2, 3), dtype='float16')))
attempt(lambda: R.poisson_like(nd.zeros((4,)), lam=2))
attempt(lambda: R.negative_binomial_like(nd.zeros((4,)), k=2, p=0.5))
attempt(lambda: R.generalized_negative_binomial_like(nd.zeros((4,)), mu=2, alpha=0.5))
attempt(lambda: nd.random_normal_like(nd.zeros((1, 2))) if hasattr(nd, 'random_normal_like') else nd.zeros((1, 2)))

print('== pdf')
smp = nd.array([[0.5, 1.0, 2.0], [0.1, 0.2, 3.0]])
values(lambda: nd.random_pdf_normal(smp, nd.array([0, 1]), nd.array([1, 2])))
values(lambda: nd.random_pdf_normal(smp, nd.array([0, 1]), nd.array([1, 2]), is_log=True))
values(lambda: nd.random_pdf_uniform(smp, nd.array([0, 0]), nd.array([1, 2.5])))
values(lambda: nd.random_pdf_gamma(smp, nd.array([2, 1]), nd.array([1, 0.5])))
values(lambda: nd.random_pdf_exponential(smp, nd.array([1, 2])))
values(lambda: nd.random_pdf_poisson(nd.array([[0, 1, 2], [3, 4, 5]]), nd.array([1, 2])))
values(lambda: nd.random_pdf_negative_binomial(nd.array([[0, 1, 2], [3, 4, 5]]), nd.array([2, 3]), nd.array([0.5, 0.3])))
values(lambda: nd.random_pdf_generalized_negative_binomial(nd.array([[0, 1, 2]]), nd.array([2]), nd.array([0.5])))
values(lambda: nd.random_pdf_dirichlet(nd.array([[[0.2, 0.8], [0.5, 0.5]]]), nd.array([[1, 2]])))
values(lambda: nd.random_pdf_normal(smp, nd.array([0, 1, 2]), nd.array([1, 2, 3])))
values(lambda: nd.random_pdf_normal(nd.array([[0.5, 1.0]]).astype('float64'), nd.array([0]).astype('float64'), nd.array([1]).astype('float64')))

print('== errors')
attempt(lambda: R.normal(0, -1, shape=2).asnumpy())
attempt(lambda: R.uniform(1, 0, shape=2).asnumpy())
attempt(lambda: R.exponential(-1, shape=2).asnumpy())
attempt(lambda: R.gamma(-1, 1, shape=2).asnumpy())
attempt(lambda: R.poisson(-1, shape=2).asnumpy())
attempt(lambda: R.normal(shape=(-1, 2)))
attempt(lambda: R.normal(mu, sig, shape=2, dtype='int32'))
attempt(lambda: R.randint(0.5, 3, shape=2))
attempt(lambda: R.multinomial(nd.array([0.5, 0.5]), shape=2, dtype='float64'))
attempt(lambda: R.normal(nd.array([1]), 1.0, shape=2, ctx=mx.cpu()))
attempt(lambda: R.shuffle(nd.array(3)))
attempt(lambda: nd.sample_normal(mu, sig.astype('float64')))
attempt(lambda: nd.sample_gamma(mu, sig, shape=2, dtype='int32'))

print('== seed')
mx.random.seed(42)
a = R.uniform(shape=5).asnumpy()
mx.random.seed(42)
b = R.uniform(shape=5).asnumpy()
print((a == b).all())
mx.random.seed(42)
a = R.normal(mu, sig, shape=3).asnumpy()
mx.random.seed(42)
b = R.normal(mu, sig, shape=3).asnumpy()
print((a == b).all())

print('== symbols')
d, e = mx.sym.var('mu'), mx.sym.var('sigma')
for sym, shapes in ((mx.sym.random.normal(shape=(2, 3)), {}),
                    (mx.sym.random.uniform(0, 1, shape=4, dtype='float64'), {}),
                    (mx.sym.random.randint(0, 5, shape=(3,)), {}),
                    (mx.sym.random.normal(d, e, shape=3), dict(mu=(2,), sigma=(2,))),
                    (mx.sym.sample_gamma(d, e, shape=(2, 2)), dict(mu=(3,), sigma=(3,))),
                    (mx.sym.random.multinomial(d, shape=4), dict(mu=(2, 5))),
                    (mx.sym.random.multinomial(d, get_prob=True), dict(mu=(5,))),
                    (mx.sym.random.poisson_like(d, lam=2), dict(mu=(2, 3))),
                    (mx.sym.random_pdf_normal(d, e, e), dict(mu=(2, 3), sigma=(2,))),
                    (mx.sym.random.shuffle(d), dict(mu=(4, 2)))):
    print(sym.list_arguments(), sym.list_outputs())
    print(sym.infer_shape(**shapes))
    print(sym.infer_type(**{k: 'float32' for k in shapes}))
ex = mx.sym.random.uniform(2, 2, shape=(2, 2)).bind(mx.cpu(), {})
print(ex.forward()[0].asnumpy().tolist())
ex = mx.sym.random.normal(d, e, shape=2).bind(mx.cpu(), {'mu': nd.array([1, 2]), 'sigma': nd.array([0, 0])})
print(ex.forward()[0].asnumpy().tolist())
print(mx.sym.random.normal(d, e, shape=2).tojson().count('_sample_normal'))
print(mx.sym.random.normal(shape=2).tojson().count('_random_normal'))
