"""The Straight Dope, chapter 1 (crash course): NDArray basics, linear algebra, probability (naive
Bayes on tiny fixed data) and autograd, as the book's notebooks write them."""
import numpy as np
import mxnet as mx
from mxnet import nd, autograd
from _sd_common import pat, r, show, attempt

mx.random.seed(1)
print('== ndarray')
x = nd.empty((3, 4))
print(x.shape, x.dtype.__name__, x.context)
x = nd.zeros((3, 5))
print(x)
x = nd.ones((3, 4))
print(x)
y = nd.random_normal(0, 1, shape=(3, 4))
print(y.shape, y.size, y.dtype.__name__)
y = pat((3, 4))
print(x * y)
print(r(nd.exp(y)))
print(r(nd.dot(x, y.T)))
print('id same', id(y) == id(y + x))
before = id(y)
y[:] = x + y
print('in place', id(y) == before, r(y))
z = nd.zeros_like(x)
nd.elemwise_add(x, y, out=z)
print(r(z))
before = id(x)
x += y
print(id(x) == before, r(x))
x = pat((3, 4), 2)
print(r(x[1:3]))
x[1, 2] = 9.0
x[1:2, 1:3] = 5.0
print(r(x))
x = nd.ones(shape=(3, 3))
y = nd.arange(3)
print('x + y', x + y)
y = y.reshape((3, 1))
print('x + y', x + y)
a = x.asnumpy()
print(type(a).__name__, a.dtype)
y = nd.array(a)
print(y)
z = nd.ones(shape=(3, 3), ctx=mx.cpu(0))
print(z.context, x.copyto(mx.cpu(0)).context, x.as_in_context(mx.cpu(0)) is x)
print(nd.arange(6).reshape((2, 3)).T)
print(nd.array([[1, 2], [3, 4]], dtype='int32') * 2)

print('== linear algebra')
x = nd.array([3.0])
y = nd.array([2.0])
print('x + y = ', x + y)
print('x * y = ', x * y)
print('x / y = ', x / y)
print('x ** y = ', nd.power(x, y))
print(x.asscalar(), type(x.asscalar()).__name__)
u = nd.arange(4)
print('u = ', u, u[3], len(u), u.shape)
A = nd.zeros((5, 4))
A = nd.arange(20).reshape((5, 4))
print(A, A.T)
X = nd.arange(24).reshape((2, 3, 4))
print(X.shape, X)
u = nd.array([1, 2, 4, 8])
v = nd.ones_like(u) * 2
print('v =', v, 'u + v', u + v, 'u - v', u - v, 'u * v', u * v, 'u / v', u / v)
B = nd.ones_like(A) * 3
print(A + B, A * B)
a = 2
print(a + X, a * X)
print(nd.sum(u), nd.sum(A), nd.mean(A), nd.sum(A) / A.size)
print(nd.dot(u, v), nd.sum(u * v))
print(nd.dot(A, u))
B = nd.ones(shape=(4, 3))
print(nd.dot(A, B))
print(nd.norm(u), nd.sum(nd.abs(u)))
print(nd.sum(A, axis=0), nd.mean(A, axis=1), nd.sum(A, axis=(0, 1)))

print('== probability')
probabilities = nd.ones(6) / 6
s = nd.sample_multinomial(probabilities)
print(s.shape, s.dtype.__name__, 0 <= s.asscalar() < 6)
s = nd.sample_multinomial(probabilities, shape=(10))
print(s.shape, s.dtype.__name__)
s = nd.sample_multinomial(probabilities, shape=(5, 10))
print(s.shape, s.dtype.__name__, int(s.max().asscalar()) < 6)
rolls = nd.array([0, 1, 2, 1, 5, 3, 3, 3, 4, 0], dtype='int32')
counts = nd.zeros((6, 10))
totals = nd.zeros(6)
for i, roll in enumerate(rolls):
    totals[int(roll.asscalar())] += 1
    counts[:, i] = totals
print(totals / 10, r(counts[:, -1]))
x = nd.arange(10).reshape((1, 10)) + 1
print(r(counts / x)[0])
# naive Bayes, as the chapter trains it on MNIST, on 8 binary 6-pixel images of 3 classes
images = nd.array((np.arange(48).reshape(8, 6) * 7 % 5 > 1).astype('float32'))
labels = nd.array([0, 1, 2, 0, 1, 2, 0, 1])
ycount = nd.ones(shape=(3))
xcount = nd.ones(shape=(6, 3))
for data, label in zip(images, labels):
    x = data.reshape((6,))
    y = int(label.asscalar())
    ycount[y] += 1
    xcount[:, y] += x
for i in range(3):
    xcount[:, i] = xcount[:, i] / ycount[i]
py = ycount / nd.sum(ycount)
print('py', r(py), 'xcount', r(xcount))
logxcount = nd.log(xcount)
logxcountneg = nd.log(1 - xcount)
logpy = nd.log(py)
for data, label in zip(images[:3], labels[:3]):
    x = data.reshape((6, 1))
    logpx = logpy.copy()
    logpx += nd.sum(logxcount * x + logxcountneg * (1 - x), axis=0)
    logpx -= nd.max(logpx)
    px = nd.exp(logpx).asnumpy()
    px /= np.sum(px)
    print(int(label.asscalar()), np.round(px, 4).tolist(), int(nd.argmax(logpx, axis=0).asscalar()))

print('== autograd')
x = nd.array([[1, 2], [3, 4]])
x.attach_grad()
with autograd.record():
    y = x * 2
    z = y * x
z.backward()
print(x.grad)
print(x.grad == 4 * x)
with autograd.record():
    y = x * 2
    z = y * x
head_gradient = nd.array([[10, 1.], [.1, .01]])
z.backward(head_gradient)
print(x.grad)


def f(a):
    b = a * 2
    while nd.norm(b).asscalar() < 1000:
        b = b * 2
    if nd.sum(b).asscalar() > 0:
        c = b
    else:
        c = 100 * b
    return c


for a in (nd.array([0.3, -1.2, 0.5]), nd.array([-0.3, -1.2, 0.5])):
    a.attach_grad()
    with autograd.record():
        c = f(a)
    c.backward()
    print(r(a.grad), r(c / a), r(a.grad == c / a))
print(autograd.is_recording(), autograd.is_training())
with autograd.record():
    print(autograd.is_recording(), autograd.is_training())
with autograd.record(train_mode=False):
    print(autograd.is_recording(), autograd.is_training())
with autograd.pause():
    print(autograd.is_recording())
# gradient of a reduced output, and of an output that is not a scalar
w = nd.array([1., 2., 3.])
w.attach_grad()
with autograd.record():
    loss = nd.sum(nd.sigmoid(w) * w)
loss.backward()
show('sigmoid grad', w.grad)
with autograd.record():
    out = nd.softmax(w)
out.backward()
show('softmax grad', w.grad, 6)
attempt(lambda: nd.array([1., 2.]).backward())
