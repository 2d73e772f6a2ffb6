# .grad of a variable attached with grad_req='null': zeros until a backward pass reaches it, None after.
import mxnet as mx
from mxnet import autograd
z = mx.nd.array([1., 2.]); z.attach_grad()
w = mx.nd.array([3., 4.]); w.attach_grad(grad_req='null')
with autograd.record():
    y = (z * w).sum()
print('rec', w.grad)
y.backward()
print('bw', w.grad, z.grad)
with autograd.record():
    y = (z * w).sum()
print('rec2', w.grad)
y.backward()
print('bw2', w.grad)
w.attach_grad()
print('re', w.grad)
# unused null var
u = mx.nd.array([1.]); u.attach_grad(grad_req='null')
with autograd.record():
    y = (z * 2).sum()
y.backward()
print('unused', u.grad)
# autograd.grad
v = mx.nd.array([1., 2.]); v.attach_grad(grad_req='null')
with autograd.record():
    y = (z * v).sum()
g = autograd.grad(y, [z])
print('ag', v.grad, g[0])
# add req
a = mx.nd.array([1., 2.]); a.attach_grad(grad_req='add')
with autograd.record():
    y = (a * w).sum()
y.backward()
print('add', a.grad, w.grad)
# a graph whose only variable is 'null': backward raises, .grad stays zeros
x = mx.nd.array([1., 2.])
x.attach_grad(grad_req='null')
with autograd.record():
    y = (x * x).sum()
try:
    y.backward()
    print('no error')
except Exception as e:
    print(type(e).__name__)
print('only-null', x.grad)
