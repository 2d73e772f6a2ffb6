import mxnet as mx
from mxnet import autograd, nd

print(autograd.is_recording(), autograd.is_training())
with autograd.record():
    print(autograd.is_recording(), autograd.is_training())
    with autograd.pause():
        print(autograd.is_recording(), autograd.is_training())
    with autograd.predict_mode():
        print(autograd.is_recording(), autograd.is_training())
with autograd.record(train_mode=False):
    print(autograd.is_recording(), autograd.is_training())
with autograd.train_mode():
    print(autograd.is_recording(), autograd.is_training())
print(autograd.set_recording(True), autograd.set_training(True))
print(autograd.set_recording(False), autograd.set_training(False))

x = nd.array([1., 2., 3.])
x.attach_grad()
print(x.grad)
with autograd.record():
    y = x * x + 2 * x
y.backward()
print(x.grad)
with autograd.record():
    y = (x ** 3).sum()
y.backward()
print(x.grad)
# head grad
with autograd.record():
    y = x * 2
y.backward(nd.array([1., 10., 100.]))
print(x.grad)
# grad_req add
z = nd.array([1., 2.])
z.attach_grad(grad_req='add')
for _ in range(2):
    with autograd.record():
        w = (z * z).sum()
    w.backward()
print(z.grad)
z.grad[:] = 0
print(z.grad)
# backward twice
with autograd.record():
    y = x * x
y.backward(retain_graph=True)
y.backward()
print(x.grad)
try:
    y.backward()
except Exception as e:
    print(type(e).__name__)
# autograd.grad with create_graph
x = nd.array([1., 2., 3.])
x.attach_grad()
with autograd.record():
    y = nd.sin(x)
    dy = autograd.grad(y, [x], create_graph=True, retain_graph=True)[0]
print(dy)
dy.backward()
print(x.grad)
with autograd.record():
    y = nd.exp(x)
    g = autograd.grad(y, x, head_grads=nd.ones(3), create_graph=True)
print(type(g).__name__, len(g), g[0].asnumpy().round(5))
# no recording -> backward error
a = nd.ones(2)
a.attach_grad()
b = a * 2
try:
    b.backward()
except Exception as e:
    print(type(e).__name__)
# mark_variables
u = nd.array([3., 4.])
gu = nd.zeros(2)
autograd.mark_variables([u], [gu])
with autograd.record():
    v = (u * u).sum()
v.backward()
print(gu, u.grad)
# detach and BlockGrad
x = nd.array([1., 2.])
x.attach_grad()
with autograd.record():
    y = x * x
    s = y.detach() * x + nd.BlockGrad(y) + nd.stop_gradient(x) * x
s.backward()
print(x.grad)
# Dropout under record vs predict
d = nd.ones((2, 4))
with autograd.record():
    print(nd.Dropout(d, p=0.0))
with autograd.record(train_mode=False):
    print(nd.Dropout(d, p=0.5))
print(nd.Dropout(d, p=0.5))
# backward on multiple heads
x = nd.array([1., 2.])
x.attach_grad()
with autograd.record():
    y1 = x * 2
    y2 = x * x
autograd.backward([y1, y2])
print(x.grad)
with autograd.record():
    y1 = x * 2
    y2 = x * x
autograd.backward([y1, y2], head_grads=[nd.ones(2), nd.array([0.5, 0.5])])
print(x.grad)
print(x.grad.dtype, x.grad.context)
# grad of non-attached
q = nd.array([1.0])
with autograd.record():
    r = q * 2
try:
    r.backward()
except Exception as e:
    print(type(e).__name__)
print(q.grad)
