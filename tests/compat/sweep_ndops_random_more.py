import numpy as np
import mxnet as mx

nd = mx.nd
R = nd.random
mx.random.seed(11)


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    elif isinstance(x, nd.NDArray):
        print(x.dtype.__name__, x.shape)
    elif isinstance(x, mx.sym.Symbol):
        print('Symbol', x.list_outputs())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


def stats(x):
    v = x.asnumpy().astype('float64')
    print(x.dtype.__name__, x.shape, round(float(v.mean()), 1) + 0, round(float(v.std()), 1) + 0)


N = 100000
print('== module level')
attempt(lambda: mx.random.uniform(0, 1, shape=(2, 2)))
attempt(lambda: mx.random.normal(0, 1, shape=3, dtype='float64'))
attempt(lambda: mx.random.randint(0, 4, shape=(2,)))
attempt(lambda: mx.random.multinomial(nd.array([0.1, 0.9]), shape=2))
attempt(lambda: mx.random.shuffle(nd.arange(4)))
stats(mx.random.uniform(-2, 1, shape=N))
stats(mx.random.normal(-3, 0.5, shape=(N,)))

print('== float16 and float64 parameters')
attempt(lambda: R.normal(nd.array([0, 1], dtype='float16'), nd.array([1, 1], dtype='float16'), shape=2))
attempt(lambda: R.uniform(nd.array([0, 1], dtype='float64'), nd.array([1, 2], dtype='float64'), shape=2, dtype='float64'))
attempt(lambda: R.gamma(nd.array([1, 2], dtype='float64'), nd.array([1, 1], dtype='float64'), shape=(2, 2)))
attempt(lambda: R.exponential(nd.array([1, 2], dtype='float16'), shape=3))
attempt(lambda: R.poisson(nd.array([1, 2], dtype='float64'), shape=3, dtype='float64'))
stats(R.normal(nd.array([4.0], dtype='float64'), nd.array([2.0], dtype='float64'), shape=N))
stats(R.uniform(0, 1, shape=N, dtype='float16'))
stats(R.gamma(2, 2, shape=N, dtype='float64'))
stats(R.exponential(0.5, shape=N, dtype='float64'))

print('== multinomial')
p = nd.array([[0.2, 0.8], [0.6, 0.4]])
s = R.multinomial(p, shape=N)
print(s.shape, [round(float(s[i].asnumpy().mean()), 1) for i in range(2)])
s = R.multinomial(nd.array([0.1, 0.2, 0.3, 0.4]), shape=(N,), dtype='float32')
print(s.dtype.__name__, round(float(s.asnumpy().mean()), 1))
s = R.multinomial(nd.array([0.5, 0.5]), shape=(2, 3), dtype='uint8')
print(s.dtype.__name__, s.shape)
attempt(lambda: R.multinomial(nd.array([0.5, 0.5]), dtype='int64'))
attempt(lambda: R.multinomial(nd.array([0.5, 0.5]), dtype='float16'))
x = nd.array([[0.25, 0.75]])
x.attach_grad()
with mx.autograd.record():
    smp, lp = R.multinomial(x, shape=3, get_prob=True)
    loss = lp.sum()
loss.backward()
print(smp.shape, lp.shape, x.grad.shape, x.grad.dtype.__name__)
o = nd.zeros((4,), dtype='int32')
R.multinomial(nd.array([0.0, 1.0]), shape=4, out=o)
print(o.asnumpy().tolist())

print('== shuffle')
s = R.shuffle(nd.arange(20).reshape((10, 2)))
print(s.shape, sorted(s[:, 0].asnumpy().tolist()) == list(range(0, 20, 2)), (s[:, 1] - s[:, 0]).asnumpy().tolist())
s = R.shuffle(nd.arange(6).astype('int64'))
print(s.dtype.__name__, sorted(s.asnumpy().tolist()))
o = nd.zeros((6,))
R.shuffle(nd.arange(6), out=o)
print(sorted(o.asnumpy().tolist()))

print('== sample_ dtypes and shapes')
k = nd.array([[1, 2], [3, 4]])
for f in (nd.sample_uniform, nd.sample_normal, nd.sample_gamma, nd.sample_negative_binomial,
          nd.sample_generalized_negative_binomial):
    attempt(lambda: f(k, k / 10, shape=3))
    attempt(lambda: f(k, k / 10, shape=(1, 2), dtype='float64'))
    attempt(lambda: f(k, k[0] / 10, shape=3))
for f in (nd.sample_exponential, nd.sample_poisson):
    attempt(lambda: f(k))
    attempt(lambda: f(k, shape=(2,), dtype='float16'))
stats(nd.sample_gamma(nd.array([4.0]), nd.array([1.5]), shape=N))
stats(nd.sample_poisson(nd.array([8.0]), shape=N))
stats(nd.sample_exponential(nd.array([0.5]), shape=N))
stats(nd.sample_negative_binomial(nd.array([3.0]), nd.array([0.6]), shape=N))

print('== symbols')
d, e = mx.sym.var('d'), mx.sym.var('e')
attempt(lambda: mx.sym.random.normal(d, 1.0))
attempt(lambda: mx.sym.random.uniform(0, e))
attempt(lambda: mx.sym.random.randn(2, 3))
attempt(lambda: mx.sym.random.multinomial(d))
attempt(lambda: mx.sym.random.multinomial(d, get_prob=False))
attempt(lambda: mx.sym.random.exponential(d, shape=2).infer_shape(d=(3,)))
attempt(lambda: mx.sym.random.gamma(d, e, shape=(2, 2)).infer_shape(d=(3,), e=(3,)))
attempt(lambda: mx.sym.random.negative_binomial(d, e).infer_shape(d=(3,), e=(3,)))
attempt(lambda: mx.sym.random.generalized_negative_binomial(mu=2, alpha=0.5, shape=(2, 5)).infer_shape())
attempt(lambda: mx.sym.random.randint(0, 3, shape=(2, 5), dtype='int64').infer_type())
attempt(lambda: mx.sym.random.normal(shape=(2, 5), dtype='float16').infer_type())
attempt(lambda: mx.sym.sample_normal(d, e, dtype='float64').infer_type(d='float32', e='float32'))
attempt(lambda: mx.sym.random.multinomial(d, shape=3, dtype='float32').infer_type(d='float64'))
attempt(lambda: mx.sym.random.multinomial(d, shape=3).infer_shape(d=(2, 4)))
ex = mx.sym.random.multinomial(d, shape=3).bind(mx.cpu(), {'d': nd.array([[0.0, 1.0]])})
show(ex.forward())
print([o.asnumpy().tolist() for o in ex.outputs][0])

print('== argument errors')
attempt(lambda: R.uniform(shape=(2, 2), out=nd.zeros((3,))))
attempt(lambda: R.normal(nd.array([0, 1]), nd.array([1, 1]), out=nd.zeros((3,))))
attempt(lambda: R.normal([0, 1], [1, 1], shape=2))
attempt(lambda: R.normal('a', 1, shape=2))
attempt(lambda: R.uniform(0, 1, shape=2.5))
attempt(lambda: R.uniform(0, 1, shape=(2, -1)))
attempt(lambda: R.randint(0, 2 ** 40, shape=2, dtype='int64'))
attempt(lambda: R.randint(-5, -1, shape=2, dtype='int64'))
attempt(lambda: R.multinomial(nd.array([[0.5, 0.5]]), shape=(0,)))
attempt(lambda: R.exponential(0, shape=2).asnumpy())
attempt(lambda: R.gamma(1, 0, shape=2).asnumpy())
attempt(lambda: R.generalized_negative_binomial(-1, 1, shape=2).asnumpy())
attempt(lambda: R.generalized_negative_binomial(1, -1, shape=2).asnumpy())
attempt(lambda: R.normal_like(nd.zeros((2,)), scale=-1).asnumpy())
attempt(lambda: R.randn(2, 2, loc=nd.array([1.0])))
attempt(lambda: R.randn(2, loc=nd.array([1.0]), scale=nd.array([2.0])))
