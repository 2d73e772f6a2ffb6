import os, tempfile
import mxnet as mx
from mxnet import gluon, nd, init
from mxnet.gluon import nn

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)

def make(extra=False):
    net = nn.HybridSequential(prefix='model_')
    with net.name_scope():
        net.add(nn.Dense(4, in_units=3), nn.Dense(2, in_units=4))
        if extra:
            net.add(nn.Dense(1, in_units=2))
    return net

tmp = tempfile.mkdtemp()
f = os.path.join(tmp, 'net.params')
a = make()
a.initialize(init.Constant(0.25))
a[1].bias.set_data(nd.array([1, 2]))
a.save_parameters(f)
b = make()
b.load_parameters(f)
print(b[1].bias.data(), b[0].weight.data().sum().asscalar())
print(sorted(nd.load(f).keys()))
c = make(extra=True)
err(lambda: c.load_parameters(f))
c.load_parameters(f, allow_missing=True)
print(c[1].bias.data())
err(lambda: c[2].weight.data())
d = nn.HybridSequential()
d.add(nn.Dense(4, in_units=3))
err(lambda: d.load_parameters(f))
d.load_parameters(f, ignore_extra=True)
print(d[0].weight.data()[0])
e = make()
err(lambda: e.load_parameters(os.path.join(tmp, 'missing.params')))
# wrong shape
g = nn.HybridSequential()
g.add(nn.Dense(5, in_units=3), nn.Dense(2, in_units=5))
err(lambda: g.load_parameters(f))
# deferred shapes get filled by load
h = nn.HybridSequential()
h.add(nn.Dense(4), nn.Dense(2))
h.load_parameters(f)
print(h[0].weight.shape, h[1].weight.shape)
print(h(nd.ones((1, 3))))
# collect_params save/load
f2 = os.path.join(tmp, 'pd.params')
a.collect_params().save(f2)
print(sorted(nd.load(f2).keys()))
k = make()
k.collect_params().load(f2, ctx=mx.cpu())
print(k[1].bias.data())
a.collect_params().save(f2, strip_prefix=a.prefix)
print(sorted(nd.load(f2).keys()))
# dtype on load
f3 = os.path.join(tmp, 'h.params')
m = nn.Dense(2, in_units=2, dtype='float16'); m.initialize(); m.save_parameters(f3)
m2 = nn.Dense(2, in_units=2)
err(lambda: m2.load_parameters(f3))
m2.load_parameters(f3, cast_dtype=True)
print(m2.weight.data().dtype)
m3 = nn.Dense(2, in_units=2); m3.load_parameters(f3, cast_dtype=True, dtype_source='saved')
print(m3.weight.data().dtype)
# nd.save / nd.load list and dict
nd.save(f3, [nd.ones((2,)), nd.zeros((1, 2), dtype='int32')])
print(nd.load(f3))
nd.save(f3, {'x': nd.arange(3)})
print(nd.load(f3))

# summary
net = nn.HybridSequential()
net.add(nn.Conv2D(4, 3, in_channels=1, activation='relu'), nn.BatchNorm(in_channels=4), nn.MaxPool2D(),
        nn.Flatten(), nn.Dense(10, in_units=36, activation='relu'), nn.Dropout(0.5), nn.Dense(2))
net.initialize()
net.summary(nd.ones((2, 1, 8, 8)))
class Two(gluon.HybridBlock):
    def __init__(self):
        super().__init__()
        with self.name_scope():
            self.a = nn.Dense(3, in_units=4)
            self.b = nn.Dense(3, in_units=4, params=self.a.params)
    def hybrid_forward(self, F, x):
        return self.a(x) + self.b(x), x
t = Two(); t.initialize()
t.summary(nd.ones((1, 4)))
net.hybridize()
err(lambda: net.summary(nd.ones((2, 1, 8, 8))))
