import mxnet as mx
from mxnet import gluon, nd, init
from mxnet.gluon import nn

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)

net = nn.HybridSequential()
with net.name_scope():
    net.add(nn.Dense(4, activation='relu'), nn.Conv2D(2, 3), nn.BatchNorm())
params = net.collect_params()
print(params)
print(sorted(params.keys()))
print(net.collect_params('.*weight'))
print(sorted(net.collect_params('.*gamma|.*beta').keys()))
print(net[0].weight)
print(net[0].weight.shape, net[0].bias.shape)
print(net.prefix, net[0].prefix, net[0].name, net[1].name)

d = nn.Dense(3)
print(d.weight.name, d.weight.shape)
err(lambda: d.weight.data())
d.initialize()
err(lambda: d.weight.data())
d(nd.ones((2, 5)))
print(d.weight.shape, d.weight.data().shape, d.weight.grad().shape)
print(d.weight.dtype, d.weight.grad_req, d.weight.lr_mult, d.weight.wd_mult)

d2 = nn.Dense(3, prefix='myfc_')
print(d2.prefix, sorted(d2.collect_params().keys()))
d3 = nn.Dense(3, in_units=5, params=d.collect_params())
print(d3.weight is d.weight, d3.prefix)
shared = nn.Dense(3, in_units=5, prefix='shr_')
d4 = nn.Dense(3, in_units=5, params=shared.params)
print(sorted(d4.collect_params().keys()))

class Net(gluon.Block):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.a = nn.Dense(2, in_units=2)
            self.b = nn.Dense(2, in_units=2)
            self.c = self.params.get('scale', shape=(1, 2), init=init.One())
    def forward(self, x):
        return self.b(self.a(x)) * self.c.data()
n = Net()
print(sorted(n.collect_params().keys()))
n.initialize(init.Constant(0.5))
print(n(nd.ones((1, 2))))
print(n.c.data())
n.initialize()
n.initialize(init.Zero(), force_reinit=True)
print(n.a.weight.data())
print(n(nd.ones((1, 2))))

p = gluon.Parameter('foo', shape=(2, 0))
print(p)
p2 = gluon.Parameter('bar', shape=(2, 3), init=init.Normal(0.01))
p2.initialize()
print(p2, p2.data().shape, p2.data().dtype)
p2.set_data(nd.ones((2, 3)))
print(p2.data())
err(lambda: p2.set_data(nd.ones((3, 3))))
print(p2.list_ctx())
p2.zero_grad()
print(p2.grad())
c = gluon.Constant('const', nd.array([1, 2]))
print(c, c.grad_req)
c.initialize()
print(c.data())

for ini in [init.Constant(3), init.One(), init.Zero(), init.Constant(nd.array([[1, 2, 3]]))]:
    q = gluon.Parameter('q', shape=(1, 3), init=ini)
    q.initialize()
    print(q.data())
net2 = nn.Dense(2, in_units=3, weight_initializer=init.Constant(0.1), bias_initializer='ones')
net2.initialize()
print(net2.weight.data(), net2.bias.data())
net3 = nn.Dense(2, in_units=3, dtype='float16')
net3.initialize()
print(net3.weight.data().dtype)
net3.cast('float32')
print(net3.weight.dtype, net3.weight.data().dtype)
d.weight.grad_req = 'null'
print(d.weight.grad_req)
net.collect_params().setattr('lr_mult', 0.1)
print(net[0].weight.lr_mult)
net.collect_params('.*bias').setattr('grad_req', 'add')
print(net[0].bias.grad_req, net[0].weight.grad_req)
