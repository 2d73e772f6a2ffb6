# Block machinery corners: hooks, apply, parameter selection and sharing, grad_req='add',
# casting and reloading, hybridize options, infer_shape/infer_type, SymbolBlock from variables.
import os, tempfile
import mxnet as mx
from mxnet import gluon, nd, init, autograd
from mxnet.gluon import nn


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


tmp = tempfile.mkdtemp()
x = nd.array([[1, -2, 3]])

# forward hooks on a hybridized container and on its children
net = nn.HybridSequential(prefix='hk_')
with net.name_scope():
    net.add(nn.Dense(2, in_units=3), nn.Activation('relu'), nn.Dense(1, in_units=2))
net.initialize(init.Constant(0.5))
log = []
h_pre = net.register_forward_pre_hook(lambda b, i: log.append(('pre', b.name, len(i), i[0].shape)))
h_post = net.register_forward_hook(lambda b, i, o: log.append(('post', b.name, o.asnumpy().tolist())))
c_post = net[0].register_forward_hook(lambda b, i, o: log.append(('child', b.name)))
print(type(h_pre).__name__)
net(x)
print(log); log.clear()
net.hybridize()
net(x)
print(log); log.clear()
net.hybridize(active=False)
net(x)
print(log); log.clear()
c_post.detach(); c_post.detach()
with h_pre:
    pass
net(x)
print(log); log.clear()
h_post.detach()
net(x)
print(log)
# a hook that changes nothing but reads the inputs of a multi-input block
class Add(gluon.HybridBlock):
    def hybrid_forward(self, F, a, b):
        return a + b
ad = Add()
ad.register_forward_pre_hook(lambda b, i: print('pre-inputs', [v.asnumpy().tolist() for v in i]))
ad.register_forward_hook(lambda b, i, o: print('out', o.asnumpy().tolist()))
ad(nd.array([1, 2]), nd.array([3, 4]))
ad.hybridize()
ad(nd.array([1, 2]), nd.array([3, 4]))

# apply: order of visits, re-initialising by type
order = []
net.apply(lambda b: order.append(type(b).__name__))
print(order)
def reinit(b):
    if isinstance(b, nn.Dense):
        b.weight.set_data(nd.ones(b.weight.shape) * 0.25)
net.apply(reinit)
print(net[2].weight.data())
print(hasattr(net, 'share_parameters'))

# collect_params with regular expressions
deep = nn.HybridSequential(prefix='deep_')
with deep.name_scope():
    deep.add(nn.Dense(2, in_units=2), nn.BatchNorm(in_channels=2))
    inner = nn.HybridSequential()
    with inner.name_scope():
        inner.add(nn.Dense(2, in_units=2), nn.Dense(2, in_units=2, use_bias=False))
    deep.add(inner)
for sel in ['.*dense.*_weight', 'deep_hybridsequential0_.*', '.*(gamma|beta)$', '.*_bias|.*running_mean',
            'dense', '^deep_dense0_weight$', '.*DENSE.*']:
    print(sel, sorted(deep.collect_params(sel).keys()))
print(sorted(inner.collect_params('.*bias').keys()))
attempt(lambda: deep.collect_params('[').keys())

# setattr of a Parameter on a Block: used by forward (MXNet 1.9.1 leaves it out of collect_params(),
# gluonjax collects it: docs/MIGRATING.md)
class WithP(gluon.Block):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.scale = gluon.Parameter('scale', shape=(1,), init=init.Constant(3))
    def forward(self, x):
        return x * self.scale.data()
wp = WithP(prefix='wp_')
print(sorted(wp._reg_params.keys()))
wp.scale.initialize()
print(wp(nd.array([1, 2])))
attempt(lambda: setattr(wp, 'scale', gluon.Parameter('other', shape=(1,))))
attempt(lambda: setattr(wp, 'scale', 5))
class HP(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.w = gluon.Parameter('w', shape=(2,), init=init.Constant(2))
    def hybrid_forward(self, F, x, w):
        return x * w
hp = HP(prefix='hp_')
hp.w.initialize()
print(hp(nd.array([1, 2])))

# grad_req='add' over repeated backward passes, then zero_grad
d = nn.Dense(1, in_units=2)
d.initialize(init.Constant(1))
d.collect_params().setattr('grad_req', 'add')
for i in range(3):
    with autograd.record():
        y = d(nd.array([[1, 2]])) * (i + 1)
    y.backward()
    print(d.weight.grad().asnumpy().tolist(), d.bias.grad().asnumpy().tolist())
d.zero_grad() if hasattr(d, 'zero_grad') else d.collect_params().zero_grad()
print(d.weight.grad().asnumpy().tolist())
d.hybridize()
for i in range(2):
    with autograd.record():
        y = d(nd.array([[1, 2]]))
    y.backward()
print(d.weight.grad().asnumpy().tolist())
d.weight.grad_req = 'write'
with autograd.record():
    y = d(nd.array([[1, 2]]))
y.backward()
print(d.weight.grad().asnumpy().tolist(), d.bias.grad().asnumpy().tolist())
attempt(lambda: setattr(d.weight, 'grad_req', 'sum'))
d.weight.grad_req = 'null'
attempt(lambda: d.weight.grad())
print(d.weight.list_grad() if False else d.weight.grad_req)

# reset_ctx
r = nn.Dense(2, in_units=2); r.initialize(init.One())
r.collect_params().reset_ctx(mx.cpu(1))
print(r.weight.list_ctx(), r.weight.data().context)
print(r(nd.ones((1, 2), ctx=mx.cpu(1))).context)
r.collect_params().reset_ctx([mx.cpu(0), mx.cpu(2)])
print(r.weight.list_ctx(), len(r.weight.list_data()))
p = gluon.Parameter('lazy', shape=(2,))
attempt(lambda: p.reset_ctx(mx.cpu(1)))
attempt(lambda: p.list_ctx())

# cast to float16, forward, save and load back
c = nn.HybridSequential(prefix='c16_')
with c.name_scope():
    c.add(nn.Dense(2, in_units=2), nn.BatchNorm(in_channels=2))
c.initialize(init.Constant(0.5))
c.cast('float16')
print([(k, v.dtype.__name__ if hasattr(v.dtype, '__name__') else v.dtype) for k, v in c.collect_params().items()])
# (float16 FullyConnected runs on MXNet's GPUs only, docs/MIGRATING.md: forward the BatchNorm alone)
o = c[1](nd.ones((1, 2), dtype='float16'))
print(o, o.dtype)
c[1].hybridize()
print(c[1](nd.ones((1, 2), dtype='float16')).dtype)
f16 = os.path.join(tmp, 'c16.params')
c.save_parameters(f16)
print(sorted((k, v.dtype.__name__) for k, v in nd.load(f16).items()))
c32 = nn.HybridSequential(prefix='c16_')
with c32.name_scope():
    c32.add(nn.Dense(2, in_units=2), nn.BatchNorm(in_channels=2))
attempt(lambda: c32.load_parameters(f16))
c32.load_parameters(f16, cast_dtype=True)
print(c32[0].weight.data().dtype, c32[0].weight.dtype)
c32.load_parameters(f16, cast_dtype=True, dtype_source='saved')
print(c32[0].weight.data().dtype, c32[0].weight.dtype, c32[1].running_var.dtype)
attempt(lambda: c32.load_parameters(f16, cast_dtype=True, dtype_source='bogus'))
cmix = nn.HybridSequential(prefix='c16_')
with cmix.name_scope():
    cmix.add(nn.Dense(2, in_units=2, dtype='float16'), nn.BatchNorm(in_channels=2))
attempt(lambda: cmix.load_parameters(f16))

# load_parameters: allow_missing / ignore_extra with ctx
fm = os.path.join(tmp, 'm.params')
src = nn.HybridSequential(prefix='m_')
with src.name_scope():
    src.add(nn.Dense(2, in_units=2), nn.Dense(1, in_units=2))
src.initialize(init.Constant(0.3)); src.save_parameters(fm)
print(sorted(nd.load(fm).keys()))
more = nn.HybridSequential(prefix='m_')
with more.name_scope():
    more.add(nn.Dense(2, in_units=2), nn.Dense(1, in_units=2), nn.Dense(3, in_units=1))
attempt(lambda: more.load_parameters(fm))
more.load_parameters(fm, ctx=mx.cpu(1), allow_missing=True)
print(more[1].weight.data().context)
attempt(lambda: more[2].weight.data())
more.initialize(init.Zero())
print(more[2].weight.data().asnumpy().tolist(), more[0].weight.data().asnumpy().tolist())
less = nn.HybridSequential(prefix='m_')
with less.name_scope():
    less.add(nn.Dense(2, in_units=2))
attempt(lambda: less.load_parameters(fm))
less.load_parameters(fm, ignore_extra=True)
print(less[0].bias.data())
attempt(lambda: less.load_parameters(os.path.join(tmp, 'nofile.params')))

# save_parameters(deduplicate=True) with a tied weight
class Tie(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.a = nn.Dense(2, in_units=2)
            self.b = nn.Dense(2, in_units=2, params=self.a.params)
            self.c = self.a
    def hybrid_forward(self, F, x):
        return self.c(self.b(self.a(x)))
t = Tie(); t.initialize(init.Constant(0.1))
ft = os.path.join(tmp, 't.params')
t.save_parameters(ft)
print(sorted(nd.load(ft).keys()))
t.save_parameters(ft, deduplicate=True)
print(sorted(nd.load(ft).keys()))
t2 = Tie(); t2.load_parameters(ft)
print(t2.b.weight.data().asnumpy().tolist(), t2(nd.ones((1, 2))).asnumpy().round(4).tolist())

# hybridize flags, optimize_for without a backend
s = nn.HybridSequential()
s.add(nn.Dense(3, in_units=2), nn.Activation('tanh'))
s.initialize(init.Constant(0.2))
ref = s(nd.ones((2, 2)))
s.hybridize(static_alloc=True, static_shape=True)
print((s(nd.ones((2, 2))) - ref).abs().sum().asscalar(), s(nd.ones((5, 2))).shape)
s.hybridize(active=False)
print(s(nd.ones((1, 2))).shape)
attempt(lambda: s.export(os.path.join(tmp, 'inactive')))
attempt(lambda: s.optimize_for(nd.ones((2, 2))))
attempt(lambda: s.optimize_for(nd.ones((2, 2)), backend=None))
s.hybridize(static_alloc=True, inline_limit=0, forward_bulk_size=4, backward_bulk_size=4)
print(s(nd.ones((2, 2))).asnumpy().round(4).tolist())

# infer_shape / infer_type on blocks
blk = nn.HybridSequential()
blk.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Flatten(), nn.Dense(2))
blk.initialize()
blk.infer_shape(nd.ones((1, 2, 5, 5)))
print([(k.split('_', 1)[1], v.shape) for k, v in blk.collect_params().items()])
blk2 = nn.HybridSequential()
blk2.add(nn.Dense(3), nn.Dense(2))
attempt(lambda: blk2.infer_type(nd.ones((1, 4), dtype='float64')))
blk2.infer_type(nd.ones((1, 4)))
print([v.dtype for v in blk2.collect_params().values()])
blk2 = nn.HybridSequential()
blk2.add(nn.Dense(3, dtype='float64'), nn.Dense(2, dtype='float64'))
blk2.infer_type(nd.ones((1, 4), dtype='float64'))
print([v.dtype for v in blk2.collect_params().values()])
blk2.infer_shape(nd.ones((1, 4), dtype='float64'))
print([v.shape for v in blk2.collect_params().values()])
blk3 = nn.HybridSequential(); blk3.add(nn.Dense(3, in_units=5))
attempt(lambda: blk3.infer_shape(nd.ones((1, 4))))
class Two(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.d = nn.Dense(2)
    def hybrid_forward(self, F, a, b):
        return self.d(F.concat(a, b, dim=1))
tw = Two(); tw.initialize()
tw.infer_shape(nd.ones((1, 3)), nd.ones((1, 4)))
print(tw.d.weight.shape)

# SymbolBlock from variables sharing parameters with a Gluon block
src = nn.HybridSequential(prefix='sb_')
with src.name_scope():
    src.add(nn.Dense(2, in_units=2), nn.Dense(1, in_units=2))
src.initialize(init.Constant(0.5))
data = mx.sym.var('data')
sb = gluon.SymbolBlock(src(data), data, params=src.collect_params())
print(sorted(sb.collect_params().keys()), sb(nd.ones((1, 2))))
print(sb.collect_params()['sb_dense0_weight'] is src[0].weight)
src[0].weight.set_data(nd.zeros((2, 2)))
print(sb(nd.ones((1, 2))))
feat = gluon.SymbolBlock(src[0](data), data, params=src.collect_params())
print(sorted(feat.collect_params().keys()), feat(nd.ones((1, 2))))
internals = src(data).get_internals()
print([o for o in internals.list_outputs() if o.endswith('_output')])
mid = gluon.SymbolBlock([internals['sb_dense0_fwd_output'], src(data)], data, params=src.collect_params())
print([o.shape for o in mid(nd.ones((3, 2)))])
a, b = mx.sym.var('a'), mx.sym.var('b')
w = mx.sym.var('w')
two = gluon.SymbolBlock(mx.sym.broadcast_mul(a + b, w), [a, b])
print(sorted(two.collect_params().keys()))
attempt(lambda: two(nd.ones(2), nd.ones(2)))
two.collect_params().initialize(init.Constant(3))
attempt(lambda: two(nd.ones(2), nd.ones(2)).asnumpy().tolist())
two.hybridize()
attempt(lambda: two(nd.ones(2), nd.ones(2)).asnumpy().tolist())
attempt(lambda: gluon.SymbolBlock(a + b, [a + b]))
attempt(lambda: two(nd.ones(2)))

fcs = gluon.SymbolBlock(mx.sym.FullyConnected(data, num_hidden=3, name='fcs'), data)
fcs.infer_shape(nd.ones((2, 5)))
fcs.infer_type(nd.ones((2, 5)))
print([(k, v.shape, v.dtype) for k, v in sorted(fcs.collect_params().items())])
attempt(lambda: fcs.infer_shape(nd.ones((2, 4))))

# SymbolBlock.imports with ctx, allow_missing and ignore_extra
ex = nn.HybridSequential(prefix='ex_')
with ex.name_scope():
    ex.add(nn.Dense(2, in_units=2), nn.BatchNorm(in_channels=2), nn.Dense(1, in_units=2))
ex.initialize(init.Constant(0.25))
ex.hybridize()
ex(nd.ones((1, 2)))
ex.export(os.path.join(tmp, 'ex'))
sj, sp = os.path.join(tmp, 'ex-symbol.json'), os.path.join(tmp, 'ex-0000.params')
im = gluon.SymbolBlock.imports(sj, ['data'], sp, ctx=mx.cpu(1))
print(im.collect_params()['ex_dense0_weight'].list_ctx(), im(nd.ones((1, 2), ctx=mx.cpu(1))).context)
im = gluon.SymbolBlock.imports(sj, ['data'], sp, ctx=[mx.cpu(0), mx.cpu(1)])
print(im.collect_params()['ex_dense1_bias'].list_ctx())
saved = nd.load(sp)
part = {k: v for k, v in saved.items() if 'dense1' not in k}
nd.save(os.path.join(tmp, 'part.params'), part)
attempt(lambda: gluon.SymbolBlock.imports(sj, ['data'], os.path.join(tmp, 'part.params')))
im = gluon.SymbolBlock.imports(sj, ['data'], os.path.join(tmp, 'part.params'), allow_missing=True)
attempt(lambda: im(nd.ones((1, 2))))
im.collect_params('.*dense1.*').initialize(init.One())
print(im(nd.ones((1, 2))).asnumpy().round(4).tolist())
extra = dict(saved)
extra['arg:unused_weight'] = nd.ones((3,))
nd.save(os.path.join(tmp, 'extra.params'), extra)
attempt(lambda: gluon.SymbolBlock.imports(sj, ['data'], os.path.join(tmp, 'extra.params')))
im = gluon.SymbolBlock.imports(sj, ['data'], os.path.join(tmp, 'extra.params'), ignore_extra=True)
print(sorted(im.collect_params().keys()), im(nd.ones((1, 2))).asnumpy().round(4).tolist())
attempt(lambda: gluon.SymbolBlock.imports(sj, ['x'], sp))
attempt(lambda: gluon.SymbolBlock.imports(os.path.join(tmp, 'nosuch.json'), ['data'], sp))
im64 = gluon.SymbolBlock.imports(sj, 'data', sp)
im64.cast('float64')
print(im64.collect_params()['ex_dense0_weight'].dtype, im64(nd.ones((1, 2), dtype='float64')).dtype)

# Block.save / Block.load (the architecture's names and the parameters)
def build():
    b = nn.HybridSequential()
    with b.name_scope():
        b.add(nn.Dense(2, in_units=2), nn.Dense(1, in_units=2))
    return b
b1 = build(); b1.initialize(init.Constant(0.75)); b1.hybridize(); b1(nd.ones((1, 2)))
b1.save(os.path.join(tmp, 'blk'))
print(sorted(f for f in os.listdir(tmp) if f.startswith('blk')))
print(sorted(nd.load(os.path.join(tmp, 'blk-model.params')).keys()))
b2 = build()
b2.load(os.path.join(tmp, 'blk'))
print(list(b2._children.keys()))
print(b2(nd.ones((1, 2))).asnumpy().tolist())
attempt(lambda: build().load(os.path.join(tmp, 'none')))
