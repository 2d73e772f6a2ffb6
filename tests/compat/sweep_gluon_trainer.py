# Gluon corners a training script reaches: Sequential containers, Lambda/Identity/Embedding
# blocks, hybrid_forward with default arguments, split_and_load, clip_global_norm, check_sha1,
# and Trainer options, learning rates and saved states.
import os, tempfile, hashlib, warnings
import numpy as np
import mxnet as mx
from mxnet import gluon, nd, init, autograd
from mxnet.gluon import nn
from mxnet.gluon.contrib import nn as cnn


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


tmp = tempfile.mkdtemp()

# nested containers: indexing, slicing, len, insertion order
outer = nn.HybridSequential(prefix='o_')
with outer.name_scope():
    inner = nn.HybridSequential()
    with inner.name_scope():
        inner.add(nn.Dense(4, in_units=2), nn.Activation('relu'))
    outer.add(inner, nn.Dense(3, in_units=4), nn.Dense(1, in_units=3))
print(len(outer), len(outer[0]), outer[0][1].name, outer[-1].name, outer[0][-1].name)
print([b.name for b in outer[1:]], type(outer[:2]).__name__, type(outer[0][:1]).__name__)
print(outer[::-1][0].name, len(outer[5:]), outer[-2:][0].name)
print(outer[:0])
attempt(lambda: outer[3])
attempt(lambda: outer[-4])
attempt(lambda: outer[1.0])
print(hasattr(outer, 'insert'), list(outer._children.keys()), list(inner._children.keys()))
outer.initialize(init.Constant(0.1))
print(outer(nd.ones((2, 2))).asnumpy().round(5).tolist())
sub = outer[1:]
print(sub(nd.ones((1, 4))).asnumpy().round(5).tolist(), sorted(sub.collect_params().keys()))
seq = nn.Sequential()
seq.add(nn.Dense(2, in_units=2))
seq.add(nn.Lambda(lambda x: x * 2), nn.Lambda('tanh'))
seq.initialize(init.One())
print(seq, len(seq))
print(seq(nd.array([[0.1, 0.2]])).asnumpy().round(5).tolist())
seq.hybridize()
print(seq(nd.array([[0.1, 0.2]])).asnumpy().round(5).tolist())
print([type(b).__name__ for b in seq], [type(b).__name__ for b in reversed(list(seq._children.values()))])

# Lambda / HybridLambda with names and functions
for lam in [nn.Lambda('relu'), nn.Lambda(lambda x: x.sum(axis=1)), nn.HybridLambda('softsign'),
            nn.HybridLambda(lambda F, x: F.clip(x, -0.5, 0.5)), nn.HybridLambda(lambda F, x, y: x * y)]:
    print(lam.name, lam)
hl = nn.HybridLambda(lambda F, x, y: F.broadcast_add(x, y))
print(hl(nd.array([[1, 2]]), nd.array([10])).asnumpy().tolist())
hl.hybridize()
print(hl(nd.array([[1, 2]]), nd.array([10])).asnumpy().tolist())
ml = nn.HybridLambda(lambda F, x: [x + 1, x * 2])
ml.hybridize()
print([o.asnumpy().tolist() for o in ml(nd.array([1, 2]))])
attempt(lambda: nn.Lambda(5))
attempt(lambda: nn.HybridLambda('exp')(nd.array([0])).asnumpy().tolist())
attempt(lambda: nn.HybridLambda('arange'))
attempt(lambda: nn.Lambda('abs')(nd.array([-1])).asnumpy().tolist())
print(nn.Lambda('exp').hybrid_forward if hasattr(nn.Lambda('exp'), 'hybrid_forward') else 'no hybrid_forward')

# Identity
idn = cnn.Identity()
print(idn, idn(nd.array([1, 2])).asnumpy().tolist(), sorted(idn.collect_params().keys()))
res = nn.HybridSequential()
res.add(cnn.Identity(), nn.Dense(2, in_units=2))
res.initialize(init.One()); res.hybridize()
print(res(nd.array([[1, 2]])).asnumpy().tolist())

# Embedding with sparse_grad
emb = nn.Embedding(5, 2, sparse_grad=True)
emb.initialize(init.Constant(0.5))
print(emb)
with autograd.record():
    y = emb(nd.array([[1, 3], [1, 1]])).sum()
y.backward()
g = emb.weight.grad()
print(type(g).__name__, g.stype, g.indices.asnumpy().tolist(), g.data.asnumpy().tolist())
tr = gluon.Trainer(emb.collect_params(), 'sgd', {'learning_rate': 1.0})
tr.step(1)
print(emb.weight.data().asnumpy().tolist())
attempt(lambda: emb.hybridize() or emb(nd.array([1])).shape)
dense_emb = nn.Embedding(5, 2)
print(dense_emb)

# hybrid_forward with default keyword arguments and None arguments
class Opt(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.d = nn.Dense(2, in_units=2)
    def hybrid_forward(self, F, x, mask=None, scale=2.0):
        y = self.d(x) * scale
        if mask is not None:
            y = F.broadcast_mul(y, mask)
        return y
op = Opt(); op.initialize(init.One())
# (hybridize() again before each argument structure: a second structure on one cached graph is
# MXNet's ValueError, docs/MIGRATING.md)
calls = [(nd.array([[1, 2]]),), (nd.array([[1, 2]]), nd.array([[1, 0]])), (nd.array([[1, 2]]), None),
         (nd.array([[1, 2]]), None, 3.0), (None,), (nd.array([[1, 2]]), nd.array([[1, 0]]), 0.5)]
for active in (False, True):
    for args in calls:
        op.hybridize(active)
        attempt(lambda: op(*args).asnumpy().tolist())
op.hybridize()
print(op(nd.array([[1, 2]]), None).asnumpy().tolist(), op(nd.array([[3, 4]])).asnumpy().tolist())

# split_and_load with uneven batches
ctxs = [mx.cpu(0), mx.cpu(1), mx.cpu(2)]
parts = gluon.utils.split_and_load(nd.arange(14).reshape((7, 2)), ctxs, even_split=False)
print([(p.shape, str(p.context)) for p in parts], parts[-1].asnumpy().tolist())
attempt(lambda: gluon.utils.split_and_load(nd.arange(14).reshape((7, 2)), ctxs))
parts = gluon.utils.split_and_load(nd.arange(12).reshape((2, 6)), ctxs[:2], batch_axis=1, even_split=False)
print([p.shape for p in parts])
parts = gluon.utils.split_and_load(np.arange(6).reshape((3, 2)), ctxs[:2], even_split=False)
print([(type(p).__name__, p.shape, p.dtype.__name__) for p in parts])
# (more devices than rows: MXNet cannot copy the empty slices, docs/MIGRATING.md)
attempt(lambda: gluon.utils.split_data(nd.arange(4), 0))
print([p.asnumpy().tolist() for p in gluon.utils.split_data(nd.arange(5), 2, even_split=False)])

# clip_global_norm with NaN and inf
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    a = [nd.array([3.0, 4.0]), nd.array([float('nan')])]
    n = gluon.utils.clip_global_norm(a, 1.0)
    print(np.isnan(n), type(n).__name__, [str(x.asnumpy().tolist()) for x in a], [type(x.message).__name__ for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    a = [nd.array([float('inf'), 1.0])]
    n = gluon.utils.clip_global_norm(a, 1.0)
    print(n, a[0].asnumpy().tolist(), len(w))
a = [nd.array([float('inf')])]
n = gluon.utils.clip_global_norm(a, 1.0, check_isfinite=False)
print(type(n).__name__, n.asnumpy().tolist(), a[0].asnumpy().tolist())
a = [nd.array([0.6, 0.8]), nd.array([[0.0]])]
n = gluon.utils.clip_global_norm(a, 0.5)
print(round(float(n), 5), [x.asnumpy().round(5).tolist() for x in a])
attempt(lambda: gluon.utils.clip_global_norm([], 1.0))

# check_sha1
fn = os.path.join(tmp, 'blob.bin')
with open(fn, 'wb') as f:
    f.write(b'gluon' * 1000)
good = hashlib.sha1(b'gluon' * 1000).hexdigest()
print(gluon.utils.check_sha1(fn, good), gluon.utils.check_sha1(fn, good[:8]), gluon.utils.check_sha1(fn, good.upper()))
attempt(lambda: gluon.utils.check_sha1(os.path.join(tmp, 'none.bin'), good))

# Trainer: update_on_kvstore, allreduce_grads / update, learning rates, saved states
X = nd.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -1.5], [2.0, 0.0]])
def model(ctx=mx.cpu()):
    m = nn.Dense(1, in_units=2)
    m.initialize(init.Constant(0.2), ctx=ctx)
    return m
def backward(m):
    ctxs = m.weight.list_ctx()
    for x in gluon.utils.split_and_load(X, ctxs):
        with autograd.record():
            l = ((m(x) - 1) ** 2).sum()
        l.backward()
two = [mx.cpu(0), mx.cpu(1)]
for ctx, kv, upd in [(two, 'device', None), (two, 'device', True), (two, 'device', False), (two, 'local', True),
                     (two, 'local', False), (mx.cpu(), 'device', None), (mx.cpu(), 'device', False),
                     (mx.cpu(), None, None), (mx.cpu(), None, False)]:
    m = model(ctx)
    tr = gluon.Trainer(m.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.5}, kvstore=kv,
                       update_on_kvstore=upd)
    for _ in range(2):
        backward(m)
        tr.step(4)
    print(kv, upd, tr._update_on_kvstore, type(tr._kvstore).__name__,
          [w.asnumpy().round(5).tolist() for w in m.weight.list_data()])
m = model(two)
tr = gluon.Trainer(m.collect_params(), 'sgd', {'learning_rate': 0.1}, update_on_kvstore=False)
backward(m)
tr.allreduce_grads()
print([g.asnumpy().round(5).tolist() for g in m.weight.list_grad()])
tr.update(4)
print([w.asnumpy().round(5).tolist() for w in m.weight.list_data()])
backward(m)
tr.allreduce_grads()
tr.update(4)
print(m.weight.data().asnumpy().round(5).tolist())
attempt(lambda: tr.update(4))
tr.update(4, ignore_stale_grad=True)
print(m.weight.data().asnumpy().round(5).tolist())
m = model(two)
tr = gluon.Trainer(m.collect_params(), 'sgd', {'learning_rate': 0.1}, update_on_kvstore=True)
backward(m)
attempt(lambda: tr.allreduce_grads())
attempt(lambda: tr.update(4))
tr.step(4)
print(m.weight.data().asnumpy().round(5).tolist())
m = model()
tr = gluon.Trainer(m.collect_params(), 'sgd', {'learning_rate': 0.1})
backward(m)
tr.allreduce_grads()
tr.update(4)
print(m.weight.data().asnumpy().round(5).tolist(), tr._kvstore, tr._update_on_kvstore)

# learning_rate and set_learning_rate
tr = gluon.Trainer(m.collect_params(), 'adam', {'learning_rate': 0.01, 'wd': 0.1})
print(tr.learning_rate, tr.optimizer.wd)
tr.set_learning_rate(0.5)
print(tr.learning_rate, tr.optimizer.lr)
attempt(lambda: setattr(tr, 'learning_rate', 0.3))
tr2 = gluon.Trainer(m.collect_params(), mx.optimizer.Adam(learning_rate=0.02))
print(tr2.learning_rate, type(tr2.optimizer).__name__)
sched = mx.lr_scheduler.FactorScheduler(step=1, factor=0.5, base_lr=0.4)
tr3 = gluon.Trainer(m.collect_params(), 'sgd', {'lr_scheduler': sched})
print(tr3.learning_rate)
attempt(lambda: tr3.set_learning_rate(0.1))
attempt(lambda: gluon.Trainer(m.collect_params(), 'sgd', {'learning_rate': 0.1}, kvstore='nosuchkv')._init_kvstore())

# save_states / load_states round trips with momentum and Adam
def trained(opt, args, steps=2):
    m = model()
    tr = gluon.Trainer(m.collect_params(), opt, args)
    for _ in range(steps):
        backward(m)
        tr.step(3)
    return m, tr
for opt, args in [('sgd', {'learning_rate': 0.1, 'momentum': 0.9}), ('adam', {'learning_rate': 0.05}),
                  ('rmsprop', {'learning_rate': 0.01})]:
    m, tr = trained(opt, args)
    f = os.path.join(tmp, opt + '.states')
    tr.save_states(f)
    m2 = model()
    m2.weight.set_data(m.weight.data()); m2.bias.set_data(m.bias.data())
    tr2 = gluon.Trainer(m2.collect_params(), opt, args)
    tr2.load_states(f)
    backward(m); tr.step(3)
    backward(m2); tr2.step(3)
    print(opt, tr2.optimizer.num_update, (m.weight.data() - m2.weight.data()).abs().sum().asscalar(),
          m2.weight.data().asnumpy().round(5).tolist())
m, tr = trained('sgd', {'learning_rate': 0.1, 'momentum': 0.9})
f = os.path.join(tmp, 'sgd.states')
tr.save_states(f)
tr4 = gluon.Trainer(model().collect_params(), 'adam', {'learning_rate': 0.7})
tr4.load_states(f)
print(type(tr4.optimizer).__name__, tr4.learning_rate, tr4.optimizer.momentum)
attempt(lambda: tr4.load_states(os.path.join(tmp, 'none.states')))
m, tr = trained('sgd', {'learning_rate': 0.1}, steps=0)
f = os.path.join(tmp, 'fresh.states')
tr.save_states(f)
tr5 = gluon.Trainer(model().collect_params(), 'sgd', {'learning_rate': 0.1})
tr5.load_states(f)
print(tr5.optimizer.num_update, tr5.learning_rate)
