# More Block corners: float16 export and import, hybridize on plain Block containers, grad_req='add'
# across devices, Trainer states through the kvstore, reset_ctx of a hybridized Block.
import os, tempfile, json
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

# float16 parameters: export writes them as float16, imports keeps the saved dtype
h = nn.HybridSequential(prefix='h_')
with h.name_scope():
    h.add(nn.BatchNorm(in_channels=2), nn.Activation('relu'))
h.initialize(init.Constant(0.5))
h.cast('float16')
h.hybridize()
print(h(nd.array([[1, -2]], dtype='float16')))
h.export(os.path.join(tmp, 'h16'))
print(sorted((k, v.dtype.__name__) for k, v in nd.load(os.path.join(tmp, 'h16-0000.params')).items()))
sj = json.load(open(os.path.join(tmp, 'h16-symbol.json')))
print([n['op'] for n in sj['nodes'] if n['op'] != 'null'])
im = gluon.SymbolBlock.imports(os.path.join(tmp, 'h16-symbol.json'), ['data'], os.path.join(tmp, 'h16-0000.params'))
print([(k, p.dtype) for k, p in sorted(im.collect_params().items())])
print(im(nd.array([[1, -2]], dtype='float16')).dtype)
im2 = gluon.SymbolBlock.imports(os.path.join(tmp, 'h16-symbol.json'), ['data'])
print([(k, p.dtype) for k, p in sorted(im2.collect_params().items())])
im2.cast('float16')
print([(k, p.dtype) for k, p in sorted(im2.collect_params().items())])

# hybridize() on a plain Block reaches its HybridBlock children only
class Plain(gluon.Block):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.a = nn.Dense(2, in_units=2)
            self.b = nn.HybridSequential()
            self.b.add(nn.Dense(1, in_units=2))
    def forward(self, x):
        return self.b(self.a(x))
pl = Plain(); pl.initialize(init.One())
pl.hybridize()
print(pl.a._active, pl.b._active, pl.b[0]._active)
print(pl(nd.ones((1, 2))))
pl.hybridize(False)
print(pl.a._active, pl.b[0]._active)
pl.b.hybridize(); pl.a.hybridize(active=False)
print(pl.a._active, pl.b._active, pl.b[0]._active)

# grad_req='add' on two devices, then zero_grad
ctxs = [mx.cpu(0), mx.cpu(1)]
d = nn.Dense(1, in_units=2)
d.initialize(init.One(), ctx=ctxs)
d.collect_params().setattr('grad_req', 'add')
for _ in range(2):
    for c in ctxs:
        with autograd.record():
            y = d(nd.array([[1, 2]], ctx=c))
        y.backward()
print([g.asnumpy().tolist() for g in d.weight.list_grad()])
tr = gluon.Trainer(d.collect_params(), 'sgd', {'learning_rate': 0.1})
tr.step(1)
print([w.asnumpy().round(5).tolist() for w in d.weight.list_data()], d.weight.grad(mx.cpu(1)).asnumpy().tolist())
d.collect_params().zero_grad()
print([g.asnumpy().tolist() for g in d.weight.list_grad()])
attempt(lambda: d.weight.grad(mx.cpu(2)))

# reset_ctx of a hybridized Block, then a call on the new device
r = nn.HybridSequential(); r.add(nn.Dense(2, in_units=2)); r.initialize(init.One()); r.hybridize()
print(r(nd.ones((1, 2))).context)
r.collect_params().reset_ctx(mx.cpu(1))
print(r(nd.ones((1, 2), ctx=mx.cpu(1))).context, r[0].weight.list_ctx())
attempt(lambda: r(nd.ones((1, 2))))

# Trainer states saved with update_on_kvstore=True, loaded into a Trainer that updates locally
def net(ctx):
    n = nn.Dense(1, in_units=2)
    n.initialize(init.Constant(0.3), ctx=ctx)
    return n
def step(n, tr):
    for c in n.weight.list_ctx():
        with autograd.record():
            l = (n(nd.array([[1, -1], [2, 0.5]], ctx=c)) ** 2).sum()
        l.backward()
    tr.step(2)
n1 = net(ctxs)
t1 = gluon.Trainer(n1.collect_params(), 'sgd', {'learning_rate': 0.05, 'momentum': 0.9}, update_on_kvstore=True)
step(n1, t1); step(n1, t1)
f = os.path.join(tmp, 'kv.states')
t1.save_states(f)
n2 = net(ctxs)
for p1, p2 in zip(n1.collect_params().values(), n2.collect_params().values()):
    p2.set_data(p1.data())
t2 = gluon.Trainer(n2.collect_params(), 'sgd', {'learning_rate': 0.05, 'momentum': 0.9}, update_on_kvstore=True)
t2.load_states(f)
step(n1, t1); step(n2, t2)
print(t2.optimizer.num_update, n1.weight.data().asnumpy().round(5).tolist(), n2.weight.data().asnumpy().round(5).tolist())
print(t1.learning_rate, t2.learning_rate)
t1.set_learning_rate(0.01)
print(t1.learning_rate, t1._kvstore._updater.optimizer.lr if t1._kvstore._updater else None)
step(n1, t1)
print(n1.weight.data().asnumpy().round(5).tolist())

# hooks of children of a hybridized Block: they run while the graph is traced
seq = nn.HybridSequential()
seq.add(nn.Dense(2, in_units=2), nn.Dense(1, in_units=2))
seq.initialize(init.One())
calls = []
seq[0].register_forward_pre_hook(lambda b, i: calls.append(('pre', type(i[0]).__name__)))
seq[1].register_forward_hook(lambda b, i, o: calls.append(('post', type(o).__name__)))
seq(nd.ones((1, 2)))
print(calls); calls.clear()
seq.hybridize()
for shape in [(1, 2), (1, 2), (3, 2), (5, 2)]:
    seq(nd.ones(shape))
    print(shape, calls); calls.clear()
with autograd.record():
    seq(nd.ones((1, 2)))
print(calls); calls.clear()
seq.hybridize(False)
seq(nd.ones((1, 2)))
print(calls); calls.clear()
# a pre-hook's return value is ignored; a hook that raises stops the call
top = nn.Dense(1, in_units=2); top.initialize(init.One())
top.register_forward_pre_hook(lambda b, i: (nd.zeros((1, 2)),))
print(top(nd.ones((1, 2))).asnumpy().tolist())
def boom(b, i, o):
    raise KeyError('hook')
hb = top.register_forward_hook(boom)
attempt(lambda: top(nd.ones((1, 2))))
hb.detach()
print(top(nd.ones((1, 2))).asnumpy().tolist())

# lr_mult / wd_mult of Parameters in the Trainer's updates
lm = nn.Dense(1, in_units=2)
lm.initialize(init.One())
lm.weight.lr_mult = 0.0
lm.bias.wd_mult = 0.0
t = gluon.Trainer(lm.collect_params(), 'sgd', {'learning_rate': 0.1, 'wd': 0.5})
with autograd.record():
    l = lm(nd.array([[1, 2]])).sum()
l.backward()
t.step(1)
print(lm.weight.data().asnumpy().tolist(), lm.bias.data().asnumpy().round(5).tolist())
lm.collect_params().setattr('lr_mult', 2.0)
with autograd.record():
    l = lm(nd.array([[1, 2]])).sum()
l.backward()
t.step(1)
print(lm.weight.data().asnumpy().round(5).tolist(), lm.bias.data().asnumpy().round(5).tolist())
# a KVStore object given to the Trainer
kv = mx.kv.create('local')
kn = nn.Dense(1, in_units=2); kn.initialize(init.One(), ctx=ctxs)
kt = gluon.Trainer(kn.collect_params(), 'sgd', {'learning_rate': 0.1}, kvstore=kv)
for c in ctxs:
    with autograd.record():
        l = kn(nd.array([[1, 2]], ctx=c)).sum()
    l.backward()
kt.step(2)
print(kt._kvstore is kv, kt._update_on_kvstore, [w.asnumpy().round(5).tolist() for w in kn.weight.list_data()])

# Parameter corners: variables, Constants in a Trainer, set_data on several devices, grad_req changes
p = gluon.Parameter('pw', shape=(2, 3), lr_mult=0.5, wd_mult=2.0, init=init.One())
v = p.var()
print(v.name, sorted(v.list_attr().items()), p.var() is v)
p.initialize(ctx=ctxs)
p.set_data(nd.full((2, 3), 4))
print([x.asnumpy().sum() for x in p.list_data()], [x.context for x in p.list_data()])
attempt(lambda: p.set_data(nd.ones((3, 2))))
print(p.list_grad()[1].context, p.grad_req)
p.grad_req = 'null'
attempt(lambda: p.list_grad())
p.grad_req = 'write'
print([g.shape for g in p.list_grad()])
c = gluon.Constant('cst', nd.array([1.0, 2.0]))
c.initialize()
w = gluon.Parameter('w', shape=(2,), init=init.One())
w.initialize()
ct = gluon.Trainer([c, w], 'sgd', {'learning_rate': 1.0})
with autograd.record():
    l = (c.data() * w.data()).sum()
l.backward()
ct.step(1)
print(c.data().asnumpy().tolist(), w.data().asnumpy().tolist(), c.grad_req)
attempt(lambda: setattr(c, 'grad_req', 'write'))
print(c.grad_req)
nd_p = gluon.Parameter('nd', shape=(2,), differentiable=False)
print(nd_p.grad_req)
nd_p.initialize()
attempt(lambda: nd_p.grad())
# ParameterDict.save / load with strip and restore prefixes
pd = gluon.ParameterDict('pre_')
pd.get('a', shape=(2,), init=init.Constant(7)); pd.get('b', shape=(1,), init=init.Constant(3))
pd.initialize()
fp = os.path.join(tmp, 'pd.params')
pd.save(fp, strip_prefix='pre_')
print(sorted(nd.load(fp).keys()))
pd2 = gluon.ParameterDict('pre_')
pd2.get('a', shape=(2,)); pd2.get('b', shape=(1,))
pd2.load(fp, restore_prefix='pre_')
print(pd2['pre_a'].data().asnumpy().tolist(), pd2['pre_b'].data().asnumpy().tolist())
attempt(lambda: pd2.load(fp))
pd3 = gluon.ParameterDict('x_')
pd3.get('a', shape=(2,))
attempt(lambda: pd3.load(fp, restore_prefix='x_'))
pd3.load(fp, restore_prefix='x_', ignore_extra=True)
print(pd3['x_a'].data().asnumpy().tolist())
attempt(lambda: pd3.load(fp, restore_prefix='x_', ignore_extra=True, ctx=mx.cpu(1)) or pd3['x_a'].list_ctx())

# inputs that are not NDArrays
dn = nn.Dense(2, in_units=2); dn.initialize()
import numpy as np
for active in (False, True):
    dn.hybridize(active)
    attempt(lambda: dn(np.ones((1, 2), dtype='float32')))
    if not active:  # (hybridized: MXNet's sym front end asserts on a list, gluonjax's not yet)
        attempt(lambda: dn([nd.ones((1, 2))]))
    attempt(lambda: dn('x'))

# containers: outputs of several arrays flow into the next child, empty containers, slices' names
two = nn.HybridLambda(lambda F, x: (x + 1, x * 10))
add = nn.HybridLambda(lambda F, a, b: a + b)
for cls in (nn.Sequential, nn.HybridSequential):
    s = cls()
    s.add(two, add)
    attempt(lambda: s(nd.array([1, 2])).asnumpy().tolist())
    s2 = cls()
    s2.add(two)
    o = s2(nd.array([1, 2]))
    print(type(o).__name__, len(o), [a.asnumpy().tolist() for a in o])
    s3 = cls()
    s3.add(add)
    attempt(lambda: s3(nd.array([1]), nd.array([2])).asnumpy().tolist())
    e = cls()
    print(e(nd.array([3])).asnumpy().tolist(), len(e))
hs = nn.HybridSequential()
hs.add(two, add)
hs.hybridize()
attempt(lambda: hs(nd.array([1, 2])).asnumpy().tolist())
he = nn.HybridSequential(); he.hybridize()
attempt(lambda: he(nd.array([3])).asnumpy().tolist())
named = nn.HybridSequential(prefix='nm_')
with named.name_scope():
    named.add(nn.Dense(1, in_units=1), nn.Dense(1, in_units=1), nn.Dense(1, in_units=1))
part = named[1:]
print(part.prefix, part.name, [b.name for b in part], sorted(part.collect_params().keys()))
print(named[0:1][0] is named[0], len(named[::2]))
attempt(lambda: named['0'])
print(named.add(nn.Dense(1, in_units=1)), len(named))
