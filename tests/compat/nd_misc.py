import os
import tempfile

import numpy as np
import mxnet as mx

nd = mx.nd


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    else:
        print(x.dtype.__name__, x.shape, x.asnumpy().round(4).tolist())


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = nd.array([[1, 2, 3], [4, 5, 6]])
b = nd.array([[1, 0], [0, 1], [1, 1]])
show(nd.dot(a, b))
show(nd.dot(a, a, transpose_b=True))
show(nd.dot(a, a, transpose_a=True))
show(nd.dot(nd.array([1, 2, 3]), nd.array([1, 1, 1])))
show(nd.dot(a, nd.array([1, 1, 1])))
show(nd.dot(nd.ones((2, 3, 4)), nd.ones((4, 5))))
attempt(lambda: nd.dot(a, a))
x = nd.arange(12).reshape((2, 2, 3))
show(nd.batch_dot(x, x, transpose_b=True))
show(nd.batch_dot(x, x, transpose_a=True))
attempt(lambda: nd.batch_dot(x, x))
attempt(lambda: nd.batch_dot(a, a))
show(nd.linalg.gemm2(a, b))
# creation
show(nd.zeros((2, 3)))
show(nd.zeros(3, dtype='int32'))
show(nd.ones((2,), dtype=np.int64))
show(nd.full((2, 2), 3.5))
show(nd.full((2,), 7, dtype='int32'))
show(nd.empty((2, 2)).shape and nd.zeros((1,)))
show(nd.arange(5))
show(nd.arange(2, 8, 2))
show(nd.arange(0, 1, 0.25))
show(nd.arange(3, repeat=2))
show(nd.arange(5, dtype='int32'))
show(nd.arange(4, 0, -1.5))
show(nd.linspace(0, 1, 5))
show(nd.linspace(0, 1, 4, endpoint=False))
show(nd.eye(3))
show(nd.eye(2, 3, k=1))
show(nd.eye(3, dtype='int32'))
show(nd.zeros_like(a))
show(nd.ones_like(a))
show(nd.array(range(4)))
show(nd.array(np.arange(6).reshape((2, 3))))
show(nd.array([1, 2], dtype='float16'))
show(nd.array(nd.array([1, 2], dtype='int32')))
print(nd.zeros((2, 3), ctx=mx.cpu()).context, nd.array([1], ctx=mx.cpu(0)).context)
# save / load
d = tempfile.mkdtemp()
f = os.path.join(d, 'arrays')
nd.save(f, [a, b.astype('int32')])
for v in nd.load(f):
    print(v)
nd.save(f, {'w': a, 'b': nd.array([1])})
loaded = nd.load(f)
print(sorted(loaded.keys()), type(loaded).__name__)
print(loaded['w'])
nd.save(f, a)
print(type(nd.load(f)).__name__, len(nd.load(f)))
try:
    nd.save(f, [1, 2])
except Exception as e:
    print(type(e).__name__)
try:
    nd.load(os.path.join(d, 'missing'))
except Exception as e:
    print(type(e).__name__)
# random: shapes and dtypes only
mx.random.seed(0)
for r in [nd.random.uniform(shape=(2, 3)), nd.random.normal(0, 1, shape=(4,)), nd.random_uniform(shape=(2,)),
          nd.random.randint(0, 5, shape=(3,)), nd.random.uniform(-1, 1, (2, 2), dtype='float64'),
          nd.random.normal(shape=5), nd.random.uniform(), nd.random.exponential(shape=(2,)),
          nd.random.poisson(shape=(2,)), nd.random.gamma(shape=(2,)), nd.random.randn(2, 3),
          nd.random.shuffle(nd.arange(5)), nd.random.multinomial(nd.array([0.5, 0.5]), shape=3),
          nd.random.uniform(nd.array([0, 1]), nd.array([1, 2]), shape=(3,)), nd.sample_normal(
              nd.array([0, 1]), nd.array([1, 1]))]:
    print(r.dtype.__name__, r.shape)
u = nd.random.uniform(2, 3, shape=(100,))
print(bool((u >= 2).min().asscalar()), bool((u < 3).min().asscalar()))
print(sorted(nd.random.shuffle(nd.arange(5)).asnumpy().tolist()))
