# More optimizer/metric/trainer corners: float16 rules, registration, updater states, attributes.
import numpy as np
import mxnet as mx
from mxnet import nd, gluon, autograd


def r(a, k=5):
    return np.round(a.asnumpy().astype('float64'), k).tolist()


def attempt(f):
    try:
        v = f()
        print(v if isinstance(v, (str, int, float, list, tuple, type(None))) else type(v).__name__)
    except Exception as e:
        print(type(e).__name__)


W0 = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype='float32')


def grad(t):
    return nd.array(np.sin(np.arange(6) * 0.7 + t + 0.3).reshape(2, 3) * 2)


def run(name, steps=3, dtype='float32', k=5, **kw):
    opt = mx.optimizer.create(name, **kw)
    upd = mx.optimizer.get_updater(opt)
    w = nd.array(W0, dtype=dtype)
    for t in range(steps):
        upd(0, grad(t).astype(dtype), w)
    print(name, sorted(kw.items()), w.dtype.__name__, r(w, k))
    return opt, upd


# float16 weights with multi_precision for the rest of the optimizers
for name, extra in [('rmsprop', {}), ('rmsprop', dict(centered=True)), ('adagrad', {}), ('adadelta', {}),
                    ('ftml', {}), ('adamax', {}), ('nadam', {}), ('dcasgd', {}), ('ftrl', {})]:
    run(name, dtype='float16', k=2, learning_rate=0.1, multi_precision=True, **extra)
# float64 weights
for name in ['sgd', 'adam', 'nag', 'ftml', 'lamb', 'adamax', 'nadam', 'dcasgd', 'lars']:
    run(name, dtype='float64', learning_rate=0.05)

# a custom registered optimizer
@mx.optimizer.register
class HalfSGD(mx.optimizer.Optimizer):
    def __init__(self, factor=0.5, **kwargs):
        super(HalfSGD, self).__init__(**kwargs)
        self.factor = factor

    def create_state(self, index, weight):
        return nd.zeros(weight.shape, weight.context, dtype=weight.dtype)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        state[:] = state + grad
        weight[:] = weight - self.factor * lr * (grad * self.rescale_grad + wd * weight)


o = mx.optimizer.create('halfsgd', learning_rate=0.2, factor=0.25, wd=0.1)
print(type(o).__name__, o.factor, o.lr, 'halfsgd' in mx.optimizer.Optimizer.opt_registry)
upd = mx.optimizer.get_updater(o)
w = nd.array(W0)
for t in range(2):
    upd(0, grad(t), w)
print(r(w), r(upd.states[0]), o.num_update)
net = gluon.nn.Dense(2, in_units=3)
net.initialize(mx.init.Constant(0.5))
tr = gluon.Trainer(net.collect_params(), 'halfsgd', {'learning_rate': 0.1})
x = nd.array([[1.0, 2.0, -1.0], [0.5, -0.5, 1.5]])
with autograd.record():
    loss = net(x).sum()
loss.backward()
tr.step(2)
print(r(net.weight.data()), r(net.bias.data()))

# optimizer attributes
o = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=1e-4, rescale_grad=1 / 32.0, clip_gradient=5,
                     begin_num_update=10, param_idx2name={0: 'w'})
print(o.lr, o.wd, round(o.rescale_grad, 6), o.clip_gradient, o.begin_num_update, o.num_update, o.idx2name,
      o.momentum, o.multi_precision, o.lr_scheduler, o.aggregate_num)
upd = mx.optimizer.get_updater(o)
w = nd.array([1.0, 2.0])
upd(0, nd.array([3.0, -4.0]), w)
print(o.num_update, o._index_update_count, r(w))
o = mx.optimizer.Adam()
print(o.learning_rate)
attempt(lambda: setattr(o, 'learning_rate', 0.5))
o.set_learning_rate(0.25)
print(o.lr, o.learning_rate)
o.rescale_grad = 0.5
print(o.rescale_grad)

# updater states round trip, with the optimizer
o = mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9)
upd = mx.optimizer.get_updater(o)
w = nd.array(W0)
upd(0, grad(0), w)
upd(1, grad(1), w)
blob = upd.get_states(dump_optimizer=True)
upd2 = mx.optimizer.get_updater(mx.optimizer.create('adam'))
upd2.set_states(blob)
print(type(upd2.optimizer).__name__, upd2.optimizer.lr, upd2.optimizer.momentum, sorted(upd2.states.keys()),
      upd2.optimizer.num_update)
w2 = w.copy()
upd(0, grad(2), w)
upd2(0, grad(2), w2)
print(r(w), r(w2))

# metric registration and create with kwargs
@mx.metric.register
@mx.metric.alias('absmax')
class AbsMax(mx.metric.EvalMetric):
    def __init__(self, name='absmax', **kwargs):
        super(AbsMax, self).__init__(name, **kwargs)

    def update(self, labels, preds):
        for l, p in zip(labels, preds):
            self.sum_metric += float(nd.abs(l - p).max().asscalar())
            self.num_inst += 1


m = mx.metric.create('absmax')
m.update([nd.array([1.0, 2.0])], [nd.array([1.5, 0.0])])
print(type(m).__name__, m.get(), m)
m = mx.metric.create('AbsMax')
print(m.name)
m = mx.metric.create('acc', axis=0, name='acc0')
print(m.name, m.axis)
m = mx.metric.create('top_k_accuracy', top_k=3, name='t3')
print(m.name, m.top_k)
m = mx.metric.create(['acc', 'ce'], output_names=['o'])
print(type(m).__name__, [x.name for x in m.metrics])
m = mx.metric.create('f1', average='micro')
print(m.average)
m = mx.metric.create('loss', name='L')
m.update(None, [nd.array([1.0, 3.0])])
print(m.get())

# trainer: states keep the schedule; optimizer learning rate vs trainer
net = gluon.nn.Dense(1, in_units=2)
net.initialize(mx.init.Constant(0.1))
sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=0.4)
tr = gluon.Trainer(net.collect_params(), 'sgd', {'lr_scheduler': sched, 'momentum': 0.5})
xx = nd.array([[1.0, -1.0], [2.0, 0.5]])
lrs = []
for i in range(5):
    with autograd.record():
        l = (net(xx) ** 2).mean()
    l.backward()
    tr.step(1)
    lrs.append(round(tr.learning_rate, 5))
print(lrs, tr.optimizer.num_update, r(net.weight.data()), sched.count, sched.base_lr)
import os, tempfile
f = os.path.join(tempfile.mkdtemp(), 's.states')
tr.save_states(f)
tr2 = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.9})
tr2.load_states(f)
print(tr2.learning_rate, tr2.optimizer.num_update, type(tr2.optimizer.lr_scheduler).__name__, tr2.optimizer.momentum)
tr3 = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1}, kvstore=None)
print(tr3.learning_rate)
attempt(lambda: gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1}, compression_params={'type': 'bogus'}))
attempt(lambda: gluon.Trainer(net.collect_params(), 'sgd', 'lr'))
tr4 = gluon.Trainer(net.collect_params(), 'sgd', None)
print(tr4.learning_rate)
attempt(lambda: gluon.Trainer(net.collect_params(), 'sgd', [('learning_rate', 0.1)]))
attempt(lambda: gluon.Trainer(net.collect_params(), 'sgd', '').learning_rate)
attempt(lambda: gluon.Trainer(net.collect_params(), 3))
attempt(lambda: gluon.Trainer(net.collect_params(), mx.optimizer.SGD(), 'lr'))
attempt(lambda: gluon.Trainer(net.collect_params(), 'sgd', {'nosuch': 1}))
attempt(lambda: gluon.Trainer(net.collect_params(), 'SGD', {'learning_rate': 1}).learning_rate)
attempt(lambda: mx.optimizer.create('adam', learning_rate=2).lr)


# argument corners: negative / zero clipping, odd values MXNet accepts, integer weights
def upd1(o, dtype='float32'):
    u = mx.optimizer.get_updater(o)
    w = nd.array([1.0, -2.0], dtype=dtype)
    u(0, nd.array([0.5, 0.5], dtype=dtype), w)
    return r(w)


attempt(lambda: upd1(mx.optimizer.SGD(learning_rate=-0.1)))
attempt(lambda: upd1(mx.optimizer.SGD(momentum=1.5)))
attempt(lambda: upd1(mx.optimizer.SGD(clip_gradient=-1)))
attempt(lambda: upd1(mx.optimizer.SGD(clip_gradient=0)))
attempt(lambda: upd1(mx.optimizer.Adam(clip_gradient=-2)))
attempt(lambda: upd1(mx.optimizer.Adam(clip_gradient=0.1, learning_rate=np.float32(0.1))))
attempt(lambda: upd1(mx.optimizer.SGD(wd=-0.5)))
attempt(lambda: upd1(mx.optimizer.SGD(learning_rate=None)))
attempt(lambda: mx.optimizer.SGD(learning_rate=None).lr)
attempt(lambda: upd1(mx.optimizer.SGD(rescale_grad=0)))
attempt(lambda: upd1(mx.optimizer.SGD(), 'int32'))
attempt(lambda: upd1(mx.optimizer.Adam(), 'int64'))
attempt(lambda: upd1(mx.optimizer.SGD(multi_precision=True)))
attempt(lambda: upd1(mx.optimizer.Signum(momentum=0.9, multi_precision=True)))
attempt(lambda: mx.optimizer.SGD(lr_mult={0: 2}))
attempt(lambda: mx.optimizer.create('sgd', 0.1))
attempt(lambda: mx.optimizer.Optimizer().update(0, nd.ones(2), nd.ones(2), None))
attempt(lambda: mx.optimizer.Optimizer().create_state(0, nd.ones(2)))
o = mx.optimizer.SGD(learning_rate=0.1)
attempt(lambda: o.set_lr_mult({'x': 2}) or sorted(o.lr_mult.items()))
print(o.sym_info, o._get_lr(5), o._get_wd(5))
o = mx.optimizer.SGD(learning_rate=0.1, wd=0.1, param_idx2name={0: 'a_weight', 1: 'a_bias', 2: 'a_gamma', 3: 'x'})
print(sorted(o.wd_mult.items()), [o._get_wd(i) for i in range(4)])
u = mx.optimizer.get_updater(o)
print(type(u).__name__, u.aggregate_updates, u.states_synced)
ws = [nd.ones(2) for _ in range(3)]
u([0, 1, 2], [nd.ones(2) for _ in range(3)], ws)
print([r(x) for x in ws], u.states_synced)
print(mx.optimizer.SGD().aggregate_num, mx.optimizer.Adam().aggregate_num, mx.optimizer.LAMB().aggregate_num,
      mx.optimizer.NAG().aggregate_num)
