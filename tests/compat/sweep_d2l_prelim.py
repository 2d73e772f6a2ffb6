"""The book's preliminaries (MXNet edition) cell by cell, with the printed forms it shows: ndarray
basics, indexing, broadcasting, memory, conversion, pandas preprocessing, linear algebra,
calculus/autograd and probability (shapes and sums only where values are random)."""
import os
import tempfile
import warnings

import numpy as onp
import pandas as pd
import mxnet as mx
from mxnet import autograd, np, npx
from d2l import mxnet as d2l
from _d2l_common import attempt

warnings.simplefilter('ignore')
npx.set_np()


print('== data manipulation')
x = np.arange(12)
print(x)
print(x.size, x.shape, x.dtype)
X = x.reshape(3, 4)
print(X)
print(x.reshape(-1, 4).shape, x.reshape(3, -1).shape)
attempt(lambda: x.reshape(5, -1))
print(np.zeros((2, 3, 4)))
print(np.ones((2, 3, 4)).sum())
print(np.random.normal(0, 1, size=(3, 4)).shape)
print(np.array([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))
print(X[-1], X[1:3])
X[1, 2] = 17
print(X)
X[:2, :] = 12
print(X)
x = np.array([1, 2, 4, 8])
y = np.array([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)
print(np.round(np.exp(x), 4))  # float32 exp: XLA and MXNet may differ by one ulp
X = np.arange(12, dtype=np.float32).reshape((3, 4))
Y = np.array([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(np.concatenate([X, Y], axis=0))
print(np.concatenate([X, Y], axis=1))
print(X == Y)
print(X.sum())
a = np.arange(3).reshape((3, 1))
b = np.arange(2).reshape((1, 2))
print(a, b)
print(a + b)
attempt(lambda: np.arange(3) + np.arange(2))
before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = np.zeros_like(Y)
print('id(Z):', id(Z) == id(Z))
before = id(Z)
Z[:] = X + Y
print(id(Z) == before)
before = id(X)
X += Y
print(id(X) == before)
A = X.asnumpy()
B = np.array(A)
print(type(A).__name__, type(B).__name__)
a = np.array([3.5])
print(a, a.item(), float(a), int(a))
attempt(lambda: float(np.array([1.0, 2.0])))
print(np.array(3.5), np.array(3.5).shape, np.array(3.5) + 1)

print('== data preprocessing (pandas)')
tmp = tempfile.mkdtemp()
data_file = os.path.join(tmp, 'house_tiny.csv')
with open(data_file, 'w') as f:
    f.write('''NumRooms,RoofType,Price
NA,NA,127500
2,NA,106000
4,Slate,178100
NA,NA,140000''')
data = pd.read_csv(data_file)
inputs, targets = data.iloc[:, 0:2], data.iloc[:, 2]
inputs = pd.get_dummies(inputs, dummy_na=True)
inputs = inputs.fillna(inputs.mean())
X, y = np.array(inputs.to_numpy(dtype=float)), np.array(targets.to_numpy(dtype=float))
print(X)
print(y)
print(X.dtype, y.dtype)

print('== linear algebra')
x = np.array(3.0)
y = np.array(2.0)
print(x + y, x * y, x / y, x ** y)
x = np.arange(3)
print(x, x[2], len(x), x.shape)
A = np.arange(6).reshape(3, 2)
print(A)
print(A.T)
A = np.array([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
print(A == A.T)
print(np.arange(24).reshape(2, 3, 4))
A = np.arange(6).reshape(2, 3)
B = A.copy()
print(A, A + B)
a = 2
X = np.arange(24).reshape(2, 3, 4)
print(a + X, (a * X).shape)
x = np.arange(3)
print(x, x.sum())
print(A.shape, A.sum())
print(A.shape, A.sum(axis=0).shape, A.sum(axis=1).shape)
print(A.sum(axis=[0, 1]) == A.sum())
print(A.mean(), A.sum() / A.size)
print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])
sum_A = A.sum(axis=1, keepdims=True)
print(sum_A, sum_A.shape)
print(A / sum_A)
print(A.cumsum(axis=0))
y = np.ones(3)
print(x, y, np.dot(x, y))
print(np.sum(x * y))
print(A.shape, x.shape, np.dot(A, x))
B = np.ones(shape=(3, 4))
print(np.dot(A, B))
u = np.array([3, -4])
print(np.linalg.norm(u))
print(np.abs(u).sum())
print(np.linalg.norm(np.ones((4, 9))))
attempt(lambda: np.dot(np.ones((2, 3)), np.ones((2, 3))))

print('== calculus / autograd')
def f(x):
    return 3 * x ** 2 - 4 * x
for h in 10.0 ** np.arange(-1, -6, -1):
    print(f'h={h:.5f}, numerical limit={(f(1 + h) - f(1)) / h:.5f}')
x = np.arange(4.0)
print(x)
x.attach_grad()
print(x.grad)
with autograd.record():
    y = 2 * np.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)
with autograd.record():
    y = x.sum()
y.backward()
print(x.grad)
with autograd.record():
    y = x * x
y.backward()
print(x.grad)
with autograd.record():
    y = x * x
    u = y.detach()
    z = u * x
z.backward()
print(x.grad == u)
y.backward()
print(x.grad == 2 * x)

def g(a):
    b = a * 2
    while np.linalg.norm(b) < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = np.array(onp.array([0.3, -0.2]).astype('float32'))
a.attach_grad()
with autograd.record():
    d = g(a)
d.backward()
print(a.grad == d / a)
attempt(lambda: np.ones(3).backward())
xx = np.ones(2)
xx.attach_grad()
with autograd.record():
    yy = (xx * 3).sum()
yy.backward()
attempt(lambda: yy.backward())
print(xx.grad)

print('== probability')
fair_probs = [1.0 / 6] * 6
s = np.random.multinomial(1, fair_probs)
print(s.shape, s.dtype, int(s.sum()))
counts = np.random.multinomial(1000, fair_probs)
print(counts.shape, int(counts.sum()))
counts = np.random.multinomial(10, fair_probs, size=500)
print(counts.shape, int(counts.sum()))
cum_counts = counts.astype(np.float32).cumsum(axis=0)
estimates = cum_counts / cum_counts.sum(axis=1, keepdims=True)
print(estimates.shape, np.round(estimates.sum(axis=1)[:3], 4))
print(np.random.randint(0, 10, (3,)).dtype, np.random.uniform(size=(2, 2)).dtype)
print(np.random.binomial(10, 0.5, size=(3,)).shape if hasattr(np.random, 'binomial') else 'none')

print('== d2l aliases')
x = np.arange(6).reshape(2, 3)
print(d2l.reduce_sum(x), d2l.reduce_mean(x.astype('float32')), d2l.argmax(x, axis=1))
print(d2l.astype(x, d2l.float32).dtype, d2l.size(x), d2l.numpy(x).dtype, d2l.transpose(x).shape)
print(d2l.concat((x, x), 0).shape, d2l.stack((x, x), 1).shape, d2l.swapaxes(x, 0, 1).shape)
print(d2l.tensor([[1, 2], [3, 4]]), d2l.eye(2), d2l.linspace(0, 1, 3), d2l.ones_like(x).dtype)
print(d2l.expand_dims(x, 0).shape, d2l.repeat(x, 2, axis=0).shape, d2l.batch_matmul(np.ones((2, 1, 3)), np.ones((2, 3, 1))))
print(d2l.sigmoid(np.array([0.0])), d2l.abs(np.array([-1, 2])), d2l.int32, d2l.int64, d2l.float32)
print(d2l.to(x, d2l.cpu()).ctx, d2l.reshape(x, (3, 2)).shape, d2l.reshape(x, -1).shape)

print('== rounding (printing helpers round before they print)')
v = np.array([2.7182817, 7.3890562, 54.598148, 2980.958, 0.125, 0.135, -1.2345678, 1234.5678])
for d in (-2, -1, 0, 1, 2, 4):
    print(d, np.round(v, d).asnumpy().tolist())
print(np.round(v.astype('float64'), 3).asnumpy().tolist(), v.round(1).asnumpy().tolist())
print(np.around(np.array([15, 25, -15], dtype='int32'), -1))
attempt(lambda: np.round(v.astype('float16'), 1))
