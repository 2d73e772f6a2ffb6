import mxnet as mx
from mxnet import autograd, nd, gluon


class Sigmoid(autograd.Function):
    def forward(self, x):
        y = 1 / (1 + nd.exp(-x))
        self.save_for_backward(y)
        return y

    def backward(self, dy):
        y, = self.saved_tensors
        return dy * y * (1 - y)


class Scale2(autograd.Function):
    def forward(self, x, w):
        self.save_for_backward(x, w)
        return x * w, x + w

    def backward(self, d1, d2):
        x, w = self.saved_tensors
        return d1 * w + d2, d1 * x + d2


x = nd.array([-1., 0., 2.])
x.attach_grad()
with autograd.record():
    f = Sigmoid()
    y = f(x)
    z = (y * 3).sum()
z.backward()
print(y.asnumpy().round(5))
print(x.grad.asnumpy().round(5))
a = nd.array([1., 2.])
b = nd.array([3., 4.])
a.attach_grad()
b.attach_grad()
with autograd.record():
    p, q = Scale2()(a, b)
    loss = (p + 2 * q).sum()
loss.backward()
print(p, q)
print(a.grad, b.grad)
print(Sigmoid()(nd.array([0.])))

# gluon under record / training flags
class Probe(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        print('train', autograd.is_training(), 'rec', autograd.is_recording())
        return x * 2

net = Probe()
net(nd.ones(1))
with autograd.record():
    net(nd.ones(1))
with autograd.record(train_mode=False):
    net(nd.ones(1))
net.hybridize()
with autograd.record():
    out = net(nd.ones(1))
with autograd.predict_mode():
    pass

dense = gluon.nn.Dense(2, in_units=3)
dense.initialize(mx.init.Constant(0.5))
dense.hybridize()
data = nd.array([[1., 2., 3.], [4., 5., 6.]])
data.attach_grad()
with autograd.record():
    out = dense(data)
    loss = (out * out).sum()
loss.backward()
print(out)
print(dense.weight.grad(), dense.bias.grad())
print(data.grad)
# second backward on hybridized graph with retain
with autograd.record():
    out = dense(data).sum()
out.backward(retain_graph=True)
out.backward()
print(dense.weight.grad())
# grad wrt two variables
u = nd.array([1., 2.])
v = nd.array([3., 5.])
u.attach_grad(); v.attach_grad()
with autograd.record():
    w = u * v
gu, gv = autograd.grad(w, [u, v])
print(gu, gv)
# attach_grad null
n = nd.array([1.])
n.attach_grad(grad_req='null')
with autograd.record():
    m = n * 3
try:
    m.backward()
except Exception as e:
    print(type(e).__name__)
print(n.grad)
# grads written inside pause are not recorded
k = nd.array([2.])
k.attach_grad()
with autograd.record():
    r = k * k
    with autograd.pause():
        s = r * 100
    t = r + s
t.backward()
print(k.grad)
