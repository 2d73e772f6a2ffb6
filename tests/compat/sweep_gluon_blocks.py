import os, tempfile, json
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

# ParameterDict API
pd = gluon.ParameterDict('blk_')
w = pd.get('weight', shape=(2, 3), init=init.One())
print(w.name, pd.get('weight') is w, sorted(pd.keys()))
attempt(lambda: pd.get('weight', shape=(3, 3)))
print(pd.get('weight', shape=(2, 3)) is w)
attempt(lambda: pd.get('weight', dtype='float16'))
b = pd.get('bias', shape=(0,), allow_deferred_init=True)
print(b.shape, pd.get('bias', shape=(4,)).shape)
c = pd.get_constant('const', nd.array([1, 2, 3]))
print(c, c.grad_req, sorted(pd.keys()))
attempt(lambda: pd.get_constant('missing'))
print(pd)
pd.initialize()
print(pd['blk_weight'].data().sum().asscalar(), pd.list_ctx())
pd.setattr('grad_req', 'null')
print([p.grad_req for p in pd.values()])
pd2 = gluon.ParameterDict('other_')
pd2.update(pd)
print(sorted(pd2.keys()), pd2.prefix)
pd3 = gluon.ParameterDict()
pd3.get('blk_weight', shape=(1,))
attempt(lambda: pd3.update(pd))
shared = gluon.ParameterDict('s_', shared=pd)
print(shared.get('weight').name if 'weight' in shared._shared.keys() else 'not shared', shared.prefix)
print(gluon.ParameterDict('z_', shared=pd2).get('x', shape=(1,)).name)

# hooks and apply
net = nn.HybridSequential()
with net.name_scope():
    net.add(nn.Dense(3, in_units=2), nn.Activation('relu'), nn.Dense(1, in_units=3))
net.initialize(init.One())
seen = []
h1 = net[0].register_forward_pre_hook(lambda blk, inp: seen.append(('pre', blk.name, inp[0].shape)))
h2 = net[0].register_forward_hook(lambda blk, inp, out: seen.append(('post', blk.name, out.shape)))
print(net(nd.ones((4, 2))))
print(seen)
h1.detach(); h2.detach()
net(nd.ones((1, 2)))
print(len(seen))
names = []
net.apply(lambda blk: names.append(blk.name))
print(names)
print(net.apply(lambda blk: None) is net)

# Sequential indexing and API
seq = nn.HybridSequential()
seq.add(nn.Dense(1), nn.Dense(2), nn.Dense(3), nn.Dense(4))
print(len(seq), type(seq[1:3]).__name__, len(seq[1:3]), [b._units for b in seq[::2]], seq[-1]._units)
print(seq[1:3])
s2 = nn.Sequential(); s2.add(nn.Dense(2), nn.Dense(3))
print(type(s2[:1]).__name__, s2[:1])
attempt(lambda: seq['a'])
attempt(lambda: seq[10])
print(list(seq._children.keys()))
attempt(lambda: seq.add(nn.Lambda('tanh')))
attempt(lambda: nn.Sequential().add(nn.Dense(1), 'x'))

# register_child with names, repeated child, overwriting attributes
class Reg(gluon.Block):
    def __init__(self):
        super().__init__()
        self.a = nn.Dense(1, in_units=1)
        self.register_child(nn.Dense(2, in_units=1), 'b')
        self.register_child(self.a)
    def forward(self, x):
        return x
r = Reg()
print(r)
print(list(r._children.keys()), sorted(r._collect_params_with_prefix().keys()))
attempt(lambda: setattr(r, 'a', 5))
attempt(lambda: setattr(r, 'a', nn.Dense(5)))
print(r.a._units, list(r._children.keys()))

# hybridize, export file names, imports
hb = nn.HybridSequential(prefix='hb_')
with hb.name_scope():
    hb.add(nn.Conv2D(2, 3, padding=1, in_channels=1), nn.BatchNorm(in_channels=2), nn.Activation('relu'),
           nn.GlobalAvgPool2D(), nn.Dense(3, in_units=2))
hb.initialize(init.Constant(0.2))
attempt(lambda: hb.export(os.path.join(tmp, 'before')))
hb.hybridize()
attempt(lambda: hb.export(os.path.join(tmp, 'before')))
x = nd.arange(16).reshape((1, 1, 4, 4)) / 16
y = hb(x)
print(y.asnumpy().round(5))
print(hb.export(os.path.join(tmp, 'model')))
print(hb.export(os.path.join(tmp, 'model'), epoch=7))
print(sorted(f for f in os.listdir(tmp)))
js = json.load(open(os.path.join(tmp, 'model-symbol.json')))
print([n['name'] for n in js['nodes'] if n['op'] == 'null'])
print([n['op'] for n in js['nodes'] if n['op'] != 'null'])
print(js['heads'], len(js['arg_nodes']))
sb = gluon.SymbolBlock.imports(os.path.join(tmp, 'model-symbol.json'), ['data'],
                               os.path.join(tmp, 'model-0007.params'))
print(type(sb).__name__, sorted(sb.collect_params().keys()))
print(sb(x).asnumpy().round(5))
print(sb.collect_params()['hb_batchnorm0_running_var'].grad_req)
sb2 = gluon.SymbolBlock.imports(os.path.join(tmp, 'model-symbol.json'), 'data')
print(sorted(sb2.collect_params().keys())[:2])
attempt(lambda: sb2(x))
sb2.collect_params().load(os.path.join(tmp, 'model-0000.params'))
print(sb2(x).shape)
data = mx.sym.var('data')
sym_out = hb(data)
print(type(sym_out).__name__, sym_out.list_outputs(), sym_out.list_arguments()[:3])
sym_block = gluon.SymbolBlock(sym_out, data, params=hb.collect_params())
print(sym_block(x).asnumpy().round(5))
# hybridized and imperative give the same output; infer_shape
hb.hybridize(False)
print((hb(x) - y).abs().sum().asscalar())
d = nn.HybridSequential(); d.add(nn.Dense(5), nn.Dense(2)); d.initialize()
d.infer_shape(nd.ones((3, 7)))
print([(k, v.shape) for k, v in d.collect_params().items()])
# multi-input / multi-output hybrid block
class MIMO(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.d = nn.Dense(2, in_units=3)
    def hybrid_forward(self, F, a, b):
        h = self.d(a)
        return h + b, F.relu(h - b), [h * 2]
m = MIMO(); m.initialize(init.Constant(0.5))
o1 = m(nd.ones((1, 3)), nd.array([[1, 2]]))
m.hybridize()
o2 = m(nd.ones((1, 3)), nd.array([[1, 2]]))
print(type(o2).__name__, len(o2), type(o2[2]).__name__, o2[0], o2[2][0])
print(all((a - b).abs().sum().asscalar() == 0 for a, b in zip(o1[:2], o2[:2])))
m.export(os.path.join(tmp, 'mimo'))
mj = json.load(open(os.path.join(tmp, 'mimo-symbol.json')))
print([n['name'] for n in mj['nodes'] if n['op'] == 'null'], len(mj['heads']))
ms = gluon.SymbolBlock.imports(os.path.join(tmp, 'mimo-symbol.json'), ['data0', 'data1'],
                               os.path.join(tmp, 'mimo-0000.params'))
print([o.shape for o in ms(nd.ones((1, 3)), nd.array([[1, 2]]))])
attempt(lambda: m(nd.ones((1, 3))))
# zero_grad and grads after hybridized training step
net.hybridize()
with autograd.record():
    l = net(nd.ones((2, 2))).sum()
l.backward()
print(net[0].weight.grad(), net[2].bias.grad())
net.collect_params().zero_grad()
print(net[0].weight.grad().sum().asscalar())
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
with autograd.record():
    l = net(nd.ones((2, 2))).sum()
l.backward()
tr.step(2)
print(net[0].weight.data(), net[2].bias.data())
# Block with params accessed in forward directly (1.x style)
class Scale(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.s = self.params.get('s', shape=(1, 3), init=init.Constant(2))
            self.k = self.params.get_constant('k', nd.array([[1, 0, -1]]))
    def hybrid_forward(self, F, x, s, k):
        return F.broadcast_add(F.broadcast_mul(x, s), k)
sc = Scale(); sc.initialize()
print(sc(nd.ones((2, 3))))
sc.hybridize()
print(sc(nd.ones((2, 3))), sorted(sc.collect_params().keys()))
print(sc.k.grad_req, sc.s.grad_req)
sc.export(os.path.join(tmp, 'sc'))
print(sorted(nd.load(os.path.join(tmp, 'sc-0000.params')).keys()))
# cast of a whole network then forward in float64
f64 = nn.HybridSequential(); f64.add(nn.Dense(2, in_units=2), nn.Dense(1, in_units=2))
f64.initialize(init.Constant(0.5)); f64.cast('float64')
o = f64(nd.ones((1, 2), dtype='float64'))
print(o, o.dtype)
attempt(lambda: f64(nd.ones((1, 2))))
f64.hybridize()
print(f64(nd.ones((1, 2), dtype='float64')).dtype)
# rnn cells: hybridized unroll, begin_state
cell = rnn.GRUCell(2, input_size=2, prefix='g_')
cell.initialize(init.Constant(0.1))
print([s.shape for s in cell.begin_state(batch_size=3)], cell.state_info(3))
outs, st = cell.unroll(3, nd.ones((3, 2, 2)), layout='TNC', merge_outputs=True)
print(outs.shape, [s.shape for s in st], outs.asnumpy().round(4)[-1].tolist())
cell.hybridize()
outs2, st2 = cell.unroll(3, nd.ones((3, 2, 2)), layout='TNC', merge_outputs=True)
print((outs - outs2).abs().sum().asscalar())
cell.reset()
sc2 = rnn.SequentialRNNCell()
with sc2.name_scope():
    sc2.add(rnn.LSTMCell(3, input_size=2)); sc2.add(rnn.LSTMCell(2, input_size=3))
sc2.initialize(init.Constant(0.1))
print(sorted(sc2.collect_params().keys()))
print([s.shape for s in sc2.begin_state(batch_size=2)])
o, s = sc2.unroll(2, nd.ones((2, 2, 2)), layout='NTC', merge_outputs=False)
print(len(o), o[-1].asnumpy().round(4).tolist(), len(s))
# wrong calls: the user's own exception comes through, hybridized or not
class TwoIn(gluon.HybridBlock):
    def hybrid_forward(self, F, a, b):
        return a + b
for active in (False, True):
    ti = TwoIn()
    ti.hybridize(active)
    attempt(lambda: ti(nd.ones(2)))
    attempt(lambda: ti(nd.ones(2), nd.ones(2), nd.ones(2)))
    attempt(lambda: ti(nd.ones(2), 3))
    attempt(lambda: ti(nd.ones(2), nd.ones(2)).shape)
    dd = nn.Dense(2, in_units=2); dd.initialize(); dd.hybridize(active)
    attempt(lambda: dd(nd.ones((1, 2)), nd.ones((1, 2))))
    attempt(lambda: dd(nd.ones((1, 2)), None).shape)
    attempt(lambda: dd(x=nd.ones((1, 2))))
    attempt(lambda: dd(5))
# ParameterDict and Parameter attributes
pn = nn.HybridSequential(prefix='pn_')
with pn.name_scope():
    pn.add(nn.Dense(2, in_units=2))
print(pn.params)
print(pn[0].params)
print(gluon.ParameterDict())
print(repr(gluon.ParameterDict('x_')))
pdd = pn.collect_params()
print(list(pdd.keys()) == list(pn.collect_params().keys()), pdd['pn_dense0_weight'] is pn[0].weight)
attempt(lambda: pdd['dense0_weight'])
w0 = pn[0].weight
print(str(w0), w0.name, w0.shape, w0.grad_req, w0.init, pn[0].bias.init)
bnp = nn.BatchNorm()
print(bnp.running_mean.init, bnp.running_var.init, bnp.gamma.init, bnp.beta.init)
print(nn.Embedding(2, 2).weight.init, nn.Conv2D(2, 1).weight.init, nn.LayerNorm().gamma.init)
