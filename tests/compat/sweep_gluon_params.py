import os, tempfile
import mxnet as mx
from mxnet import gluon, nd, init, autograd
from mxnet.gluon import nn, rnn
from mxnet.gluon.contrib import nn as cnn


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


tmp = tempfile.mkdtemp()

# collect_params printing and selection
net = nn.HybridSequential(prefix='m_')
with net.name_scope():
    net.add(nn.Conv2D(4, 3, in_channels=2), nn.BatchNorm(in_channels=4), nn.Dense(3), nn.PReLU())
    net.add(nn.Embedding(5, 2), nn.LayerNorm(in_channels=3))
pd = net.collect_params()
print(pd)
print(len(list(pd.keys())), type(pd).__name__, pd.prefix)
for sel in ['.*weight', 'm_conv0_.*', '.*running_.*|.*gamma', 'm_dense0_bias', 'nomatch', '.*alpha']:
    print(sel, sorted(net.collect_params(sel).keys()))
print(net[2].collect_params())
print([(k, v.shape) for k, v in pd.items()][:3])
print([p.name for p in pd.values()][-2:])
print('m_dense0_weight' in pd, 'dense0_weight' in pd)
print(pd.get('conv0_weight').name)
attempt(lambda: pd['m_nosuch'])
print(pd['m_batchnorm0_running_mean'].grad_req, pd['m_batchnorm0_gamma'].grad_req)

# deferred init: names and shapes before and after forward
print([(p.name, p.shape) for p in pd.values()])
net.initialize(init.One())
attempt(lambda: net[2].weight.data())
attempt(lambda: net[0].weight.data().shape)
class Two(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.c = nn.Conv2D(3, 2)
            self.b = nn.BatchNorm()
            self.d = nn.Dense(2)
            self.g = nn.GroupNorm(num_groups=1)
            self.i = nn.InstanceNorm()
    def hybrid_forward(self, F, x):
        y = self.i(self.g(self.b(self.c(x))))
        return self.d(y)
t = Two()
t.initialize(init.Constant(0.5))
print([(p.name, p.shape) for p in t.collect_params().values()])
y = t(nd.ones((2, 2, 4, 4)))
print([(p.name, p.shape) for p in t.collect_params().values()])
print(y)
print(t.collect_params())

# initialize / force_reinit
d = nn.Dense(2, in_units=3)
d.initialize(init.Constant(1.0))
d.initialize(init.Constant(2.0))
print(d.weight.data())
d.initialize(init.Constant(3.0), force_reinit=True)
print(d.weight.data(), d.bias.data())
d.collect_params().initialize(init.Zero(), force_reinit=True)
print(d.weight.data())
d.weight.initialize(init=init.One(), force_reinit=True)
print(d.weight.data())
d2 = nn.Dense(2, in_units=2, weight_initializer=init.Constant(0.7), bias_initializer=init.Constant(-1))
d2.initialize(init.One())
print(d2.weight.data(), d2.bias.data())
d2.initialize(init.Zero(), force_reinit=True)
print(d2.weight.data(), d2.bias.data())
bn = nn.BatchNorm(in_channels=2, gamma_initializer='zeros', running_variance_initializer=init.Constant(4))
bn.initialize()
print(bn.gamma.data(), bn.running_var.data())
emb = nn.Embedding(3, 2, weight_initializer=init.Constant(0.3)); emb.initialize()
print(emb(nd.array([[0, 2]])))

# zero_grad
d3 = nn.Dense(2, in_units=2); d3.initialize(init.One())
with autograd.record():
    out = d3(nd.array([[1, 2]])).sum()
out.backward()
print(d3.weight.grad(), d3.bias.grad())
d3.collect_params().zero_grad()
print(d3.weight.grad(), d3.bias.grad())
d3.weight.grad_req = 'null'
attempt(lambda: d3.weight.grad())
d3.collect_params().zero_grad()

# register_child
class R(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.layers = []
        for i in range(2):
            l = nn.Dense(2, in_units=2, prefix='l%d_' % i)
            self.register_child(l)
            self.layers.append(l)
        self.register_child(nn.Activation('relu'), name='act')
    def hybrid_forward(self, F, x):
        for l in self.layers:
            x = l(x)
        return x
r = R()
print(r)
print(sorted(r.collect_params().keys()))
r.initialize(init.One())
print(r(nd.array([[1, -3]])))
r.hybridize()
print(r(nd.array([[1, -3]])))

# params= sharing
a = nn.Dense(3, in_units=2, prefix='a_')
b = nn.Dense(3, in_units=2, params=a.collect_params())
print(b.prefix, b.weight.name, b.weight is a.weight)
a.initialize(init.Constant(0.5))
print(b(nd.ones((1, 2))))
seq = nn.Sequential()
seq.add(a, b)
print(sorted(seq.collect_params().keys()), len(list(seq.collect_params().keys())))
c = nn.Dense(3, prefix='c_', params=a.params)
print(c.prefix, sorted(c.collect_params().keys()))
class Tied(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.e = nn.Embedding(4, 3, weight_initializer=init.Constant(0.25))
            self.o = nn.Dense(4, in_units=3, flatten=False, params=self.e.params)
    def hybrid_forward(self, F, x):
        return self.o(self.e(x))
tt = Tied()
print(sorted(tt.collect_params().keys()))
tt.initialize()
print(tt(nd.array([1, 3])))

# save / load with shared params, allow_missing, ignore_extra, wrong shapes
f = os.path.join(tmp, 's.params')
seq2 = nn.HybridSequential()
with seq2.name_scope():
    x1 = nn.Dense(2, in_units=2)
    seq2.add(x1, nn.Dense(2, in_units=2, params=x1.params))
seq2.initialize(init.Constant(0.1))
seq2.save_parameters(f)
print(sorted(nd.load(f).keys()))
seq3 = nn.HybridSequential()
with seq3.name_scope():
    y1 = nn.Dense(2, in_units=2)
    seq3.add(y1, nn.Dense(2, in_units=2, params=y1.params))
seq3.load_parameters(f)
print(seq3[1].weight.data())
seq4 = nn.HybridSequential()
seq4.add(nn.Dense(2, in_units=2), nn.Dense(2, in_units=2))
attempt(lambda: seq4.load_parameters(f))
seq4.load_parameters(f, allow_missing=True)
attempt(lambda: seq4[1].weight.data())
seq5 = nn.HybridSequential()
seq5.add(nn.Dense(2, in_units=2))
attempt(lambda: seq5.load_parameters(f))
seq5.load_parameters(f, ignore_extra=True)
print(seq5[0].bias.data())
bad = nn.HybridSequential(); bad.add(nn.Dense(3, in_units=2))
attempt(lambda: bad.load_parameters(f))
bad2 = nn.HybridSequential(); bad2.add(nn.Dense(2, in_units=2, use_bias=False), nn.Dense(2, in_units=2))
attempt(lambda: bad2.load_parameters(f))
bad2.load_parameters(f, ignore_extra=True, allow_missing=True)
print(bad2[0].weight.data())
# saved from a different block structure with same names
f2 = os.path.join(tmp, 'bn.params')
b1 = nn.BatchNorm(in_channels=2); b1.initialize(); b1.running_mean.set_data(nd.array([1, 2])); b1.save_parameters(f2)
print(sorted(nd.load(f2).keys()))
b2 = nn.BatchNorm(); b2.load_parameters(f2)
print(b2.running_mean.data(), b2.gamma.shape)
b3 = nn.BatchNorm(in_channels=3)
attempt(lambda: b3.load_parameters(f2))
# collect_params().save / load with prefix, and restore_prefix
f3 = os.path.join(tmp, 'pd.params')
seq2.collect_params().save(f3, strip_prefix='hybridsequential')
print(sorted(nd.load(f3).keys()))
attempt(lambda: seq2.collect_params().save(f3, strip_prefix='zzz'))
# the file export writes, then load_parameters on it
ex = nn.HybridSequential(prefix='ex_')
with ex.name_scope():
    ex.add(nn.Dense(2, in_units=2), nn.BatchNorm(in_channels=2))
ex.initialize(init.One())
ex.hybridize()
ex(nd.ones((1, 2)))
ex.export(os.path.join(tmp, 'ex'))
ex.export(os.path.join(tmp, 'ex'), epoch=12)
print(sorted(os.listdir(tmp)))
print(sorted(nd.load(os.path.join(tmp, 'ex-0012.params')).keys()))
ex2 = nn.HybridSequential(prefix='ex_')
with ex2.name_scope():
    ex2.add(nn.Dense(2, in_units=2), nn.BatchNorm(in_channels=2))
ex2.collect_params().load(os.path.join(tmp, 'ex-0000.params'))
print(ex2[0].weight.data())
nh = nn.Dense(2, in_units=2); nh.initialize()
attempt(lambda: nh.export(os.path.join(tmp, 'nh')))
sy = gluon.SymbolBlock.imports(os.path.join(tmp, 'ex-symbol.json'), ['data'], os.path.join(tmp, 'ex-0012.params'))
print(sorted(sy.collect_params().keys()))
print(sy(nd.ones((1, 2))))

# cast to float16
h = nn.HybridSequential()
h.add(nn.Dense(3, in_units=2), nn.BatchNorm(in_channels=3), nn.Dense(1, in_units=3))
h.initialize(init.Constant(0.5))
h.cast('float16')
print([(p.name[-6:], p.dtype) for p in h.collect_params().values()])
print(h[2].weight.dtype, h[2].weight.data().dtype)
h.cast('float32')
print(h(nd.ones((1, 2))).dtype)
f4 = os.path.join(tmp, 'h.params')
h.cast('float16'); h.save_parameters(f4)
print(sorted((k, str(v.dtype)) for k, v in nd.load(f4).items()))
# a Block shared inside one container, deduplicate, several contexts
shared = nn.Dense(2, in_units=2)
net = nn.HybridSequential(); net.add(shared, nn.Activation('relu'), shared)
net.initialize(init.One())
print(net)
print(sorted(net.collect_params().keys()), sorted(net._collect_params_with_prefix().keys()))
f = os.path.join(tmp, 'a.params')
net.save_parameters(f); print(sorted(nd.load(f).keys()))
net.save_parameters(f, deduplicate=True); print(sorted(nd.load(f).keys()))
n2 = nn.HybridSequential(); s2 = nn.Dense(2, in_units=2); n2.add(s2, nn.Activation('relu'), s2)
n2.load_parameters(f); print(n2[0].weight.data())
net.summary(nd.ones((1, 2)))
net.hybridize(); net(nd.ones((1, 2)))
print(net)
m = nn.Dense(2, in_units=2); m.initialize(init.One(), ctx=[mx.cpu(0), mx.cpu(1)])
print(m.weight.list_ctx(), len(m.weight.list_data()))
attempt(lambda: m.weight.data())
print(m.weight.data(mx.cpu(1)).context)
xs = gluon.utils.split_and_load(nd.arange(8).reshape((4, 2)), [mx.cpu(0), mx.cpu(1)])
print([x.context for x in xs], [m(x).context for x in xs])
m.save_parameters(f)
m2 = nn.Dense(2, in_units=2); m2.load_parameters(f, ctx=[mx.cpu(0), mx.cpu(1)]); print(m2.weight.list_ctx())
m2.collect_params().reset_ctx(mx.cpu(0)); print(m2.weight.list_ctx())
print(m.weight)
g = nn.Dense(2, in_units=2); g.initialize(ctx=mx.cpu(1)); print(g.weight.list_ctx(), g.weight.data().context)
attempt(lambda: g(nd.ones((1, 2))))
# cast of single layers: reprs, dtypes of parameters and outputs
e = nn.Embedding(4, 2); e.initialize(); e.cast('float16'); print(e, e.weight.dtype)
print(e(nd.array([1, 2])).dtype)
l = rnn.LSTM(2, input_size=2); l.initialize(); l.cast('float64'); print(l, l.l0_i2h_weight.dtype)
print(l(nd.ones((1, 1, 2), dtype='float64')).dtype)
d = nn.Dense(2, dtype='float16'); print(d.weight.dtype, d)
b = nn.BatchNorm(in_channels=2); b.cast('float16'); print(b.gamma.dtype, b.running_mean.dtype)
c = nn.Conv2D(2, 1, in_channels=1); c.initialize(); c.cast('float64'); print(c.weight.dtype)
s = nn.HybridSequential(); s.add(nn.Dense(2, in_units=2)); s.initialize(); s.cast('float16'); print(s[0].weight.data().dtype)
p = gluon.Parameter('p', shape=(2,), dtype='float16'); p.initialize(); p.cast('float32'); print(p.data().dtype, p.dtype)
g = nn.GroupNorm(); g.initialize(); g.cast('float16'); print(g.gamma.dtype)
