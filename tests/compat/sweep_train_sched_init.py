# mx.lr_scheduler at many update counts, and mx.initializer printed forms / deterministic ones.
import os
import tempfile

import numpy as np
import mxnet as mx
from mxnet import nd, init, gluon, lr_scheduler


def attempt(f):
    try:
        v = f()
        print(round(v, 5) if isinstance(v, float) else v if isinstance(v, (str, list, type(None))) else type(v).__name__)
    except Exception as e:
        print(type(e).__name__)


def curve(s, ts):
    print(type(s).__name__, [round(float(s(t)), 5) for t in ts])


ts = [0, 1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 99, 100, 101, 150, 1000]
curve(lr_scheduler.FactorScheduler(step=10, factor=0.9), ts)
curve(lr_scheduler.FactorScheduler(step=10, factor=0.5, base_lr=0.1, stop_factor_lr=0.01), ts)
curve(lr_scheduler.FactorScheduler(step=5, factor=0.5, base_lr=0.1, warmup_steps=4, warmup_begin_lr=0.02), ts)
curve(lr_scheduler.FactorScheduler(step=5, factor=0.5, base_lr=0.1, warmup_steps=4, warmup_mode='constant', warmup_begin_lr=0.02), ts)
curve(lr_scheduler.FactorScheduler(step=1, factor=1.0, base_lr=0.3), ts)
curve(lr_scheduler.MultiFactorScheduler(step=[5, 20, 100], factor=0.5, base_lr=0.4), ts)
curve(lr_scheduler.MultiFactorScheduler(step=[10, 50], factor=0.1, base_lr=1.0, warmup_steps=5, warmup_begin_lr=0.5), ts)
curve(lr_scheduler.MultiFactorScheduler(step=[10], factor=0.3, base_lr=1.0, warmup_steps=5, warmup_mode='constant'), ts)
curve(lr_scheduler.PolyScheduler(max_update=100, base_lr=0.1, pwr=2), ts)
curve(lr_scheduler.PolyScheduler(max_update=100, base_lr=0.1, pwr=0.5, final_lr=0.01), ts)
curve(lr_scheduler.PolyScheduler(max_update=100, base_lr=0.1, pwr=1, warmup_steps=10, warmup_begin_lr=0.05), ts)
curve(lr_scheduler.PolyScheduler(max_update=50, base_lr=0.1, warmup_steps=10, warmup_mode='constant', warmup_begin_lr=0.001), ts)
curve(lr_scheduler.CosineScheduler(max_update=100, base_lr=0.1), ts)
curve(lr_scheduler.CosineScheduler(max_update=100, base_lr=0.1, final_lr=0.001, warmup_steps=20), ts)
curve(lr_scheduler.CosineScheduler(max_update=30, base_lr=2.0, final_lr=0.5, warmup_steps=5, warmup_begin_lr=1.0, warmup_mode='constant'), ts)

# schedulers are stateful: calling backwards
s = lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0)
print([round(s(t), 5) for t in [10, 5, 3, 0, 12]], s.count, round(s.base_lr, 5))
s = lr_scheduler.MultiFactorScheduler(step=[2, 4], factor=0.5, base_lr=1.0)
print([round(s(t), 5) for t in [5, 1, 3, 10]], s.cur_step_ind, s.count)
s = lr_scheduler.PolyScheduler(max_update=10, base_lr=1.0)
print([round(s(t), 5) for t in [8, 2]], s.max_update, s.max_steps, s.power)
s = lr_scheduler.CosineScheduler(max_update=10, base_lr=1.0, warmup_steps=2)
print(s.base_lr_orig, s.final_lr, s.max_steps, s.warmup_steps, s.warmup_begin_lr, s.warmup_final_lr, s.warmup_mode)
s.base_lr = 4.0
print(round(s(5), 5), round(s(1), 5))

# construction errors
attempt(lambda: lr_scheduler.FactorScheduler(step=0.5))
attempt(lambda: lr_scheduler.FactorScheduler(step=2, factor=2.0))
attempt(lambda: lr_scheduler.FactorScheduler(step=2, warmup_steps=-1))
attempt(lambda: lr_scheduler.FactorScheduler(step=2, base_lr=0.1, warmup_begin_lr=0.5))
attempt(lambda: lr_scheduler.MultiFactorScheduler(step=[2, 2]))
attempt(lambda: lr_scheduler.MultiFactorScheduler(step=[2, 4], factor=1.5))
attempt(lambda: lr_scheduler.MultiFactorScheduler(step=5))
attempt(lambda: lr_scheduler.PolyScheduler(max_update=10, warmup_steps=20))
attempt(lambda: lr_scheduler.CosineScheduler(max_update=-1))
attempt(lambda: lr_scheduler.CosineScheduler(max_update=10, warmup_steps=10))
attempt(lambda: lr_scheduler.FactorScheduler(step=2, warmup_steps=2, warmup_mode='exp')(1))
attempt(lambda: lr_scheduler.LRScheduler()(3))
s = lr_scheduler.LRScheduler(base_lr=0.5, warmup_steps=4, warmup_begin_lr=0.1)
print([round(s.get_warmup_lr(t), 5) for t in range(4)])
attempt(lambda: s.get_warmup_lr(4))


class Halving(lr_scheduler.LRScheduler):
    def __call__(self, num_update):
        return self.base_lr / (2 ** (num_update // 3))


curve(Halving(base_lr=0.8), ts[:10])

# optimizer-driven schedule
opt = mx.optimizer.SGD(learning_rate=0.5, lr_scheduler=lr_scheduler.FactorScheduler(step=2, factor=0.5))
print(opt.lr_scheduler.base_lr, opt.learning_rate)
upd = mx.optimizer.get_updater(opt)
w = nd.array([1.0, -1.0])
lrs = []
for i in range(6):
    upd(0, nd.array([0.1, 0.2]), w)
    lrs.append(round(opt.learning_rate, 5))
print(lrs, opt.num_update, w.asnumpy().round(5).tolist())
attempt(lambda: opt.set_learning_rate(0.1))

# initializer printed forms
for i in [init.Uniform(), init.Uniform(0.5), init.Normal(), init.Normal(2), init.Xavier(), init.Xavier('uniform', 'out', 1.5),
          init.MSRAPrelu('in', 0.1), init.Orthogonal(scale=2.0, rand_type='normal'), init.Constant(3),
          init.One(), init.Zero(), init.Bilinear(), init.LSTMBias(), init.FusedRNN(init.One(), 4, 1, 'lstm'),
          mx.init.Initializer(), mx.initializer.Normal(sigma=0.1)]:
    try:
        print(i.dumps(), repr(type(i).__name__))
    except Exception as e:
        print(type(i).__name__, type(e).__name__)
print(init.Xavier().rnd_type, init.Xavier().factor_type, init.Xavier().magnitude)
print(init.Uniform(0.3).scale, init.Normal(0.4).sigma, init.Constant(5).value, init.MSRAPrelu().magnitude)

# initializing NDArrays by name through InitDesc
for name in ['fc_weight', 'fc_bias', 'bn_gamma', 'bn_beta', 'bn_moving_mean', 'bn_moving_var', 'x_running_var', 'lstm_parameters']:
    arr = nd.full((2, 3), 7.0)
    try:
        init.Zero()(init.InitDesc(name), arr)
        print(name, arr.asnumpy().tolist())
    except Exception as e:
        print(name, type(e).__name__)
for name in ['fc_weight', 'fc_bias', 'bn_gamma', 'bn_beta', 'bn_moving_mean', 'bn_moving_var', 'stn_loc_weight', 'stn_loc_bias', 'foo']:
    arr = nd.full((2, 3), 7.0)
    try:
        init.Uniform()(name, arr)
        print('str', name, arr.asnumpy().round(3).tolist() if 'weight' not in name else arr.shape)
    except Exception as e:
        print('str', name, type(e).__name__)
arr = nd.zeros((2, 2))
attempt(lambda: init.Constant(2.5)(init.InitDesc('anything'), arr))
init.Constant(2.5)(init.InitDesc('c_weight'), arr)
print(arr.asnumpy().tolist())
arr = nd.zeros((1, 1, 4, 4))
init.Bilinear()(init.InitDesc('up_weight'), arr)
print(arr.asnumpy().round(5).tolist())
arr = nd.zeros((8,))
init.LSTMBias(forget_bias=3.0)(init.InitDesc('l_bias'), arr)
print(arr.asnumpy().tolist())
d = init.InitDesc('z_weight', attrs={'__init__': init.Constant(4.0).dumps()})
print(d, d.attrs, d.global_init)
arr = nd.zeros((2,))
init.Uniform()(d, arr)
print(arr.asnumpy().tolist())

# Mixed
mixed = init.Mixed(['.*bias', '.*gamma', '.*'], [init.Constant(0.5), init.One(), init.Constant(-1)])
for name in ['d_bias', 'bn_gamma', 'd_weight', 'bn_beta']:
    arr = nd.zeros((3,))
    mixed(name, arr)
    print('mixed', name, arr.asnumpy().tolist())
attempt(lambda: init.Mixed(['.*weight'], [init.One()])('d_bias', nd.zeros((2,))))
attempt(lambda: init.Mixed(['a', 'b'], [init.One()]))

# Load
tmp = tempfile.mkdtemp()
fname = os.path.join(tmp, 'p.params')
nd.save(fname, {'arg:fc_weight': nd.array([[1.0, 2.0], [3.0, 4.0]]), 'aux:bn_moving_mean': nd.array([0.5, 0.25]), 'fc_bias': nd.array([9.0, 8.0])})
ld = init.Load(fname, default_init=init.Constant(6.0))
print(sorted(ld.param.keys()))
for name, shape in [('fc_weight', (2, 2)), ('bn_moving_mean', (2,)), ('fc_bias', (2,)), ('other_weight', (3,))]:
    arr = nd.zeros(shape)
    ld(name, arr)
    print('load', name, arr.asnumpy().tolist())
attempt(lambda: ld('fc_weight', nd.zeros((3, 3))))
ld2 = init.Load({'w': nd.array([1.0, 2.0])})
attempt(lambda: ld2('missing', nd.zeros((2,))))
arr = nd.zeros((2,)); ld2('w', arr); print(arr.asnumpy().tolist())

# initializers applied to gluon parameters
net = gluon.nn.HybridSequential()
net.add(gluon.nn.Dense(3, in_units=2), gluon.nn.BatchNorm(in_channels=3), gluon.nn.Dense(1, in_units=3))
net.initialize(init.Constant(0.2))
for k, v in net.collect_params().items():
    print(k, v.data().asnumpy().round(5).tolist())
p = gluon.Parameter('pp_weight', shape=(2, 2), init=init.Constant([[1, 2], [3, 4]]))
p.initialize()
print(p.data().asnumpy().tolist(), type(p.init).__name__)
p = gluon.Parameter('q_weight', shape=(2,))
p.initialize(init='ones')
print(p.data().asnumpy().tolist())
attempt(lambda: gluon.Parameter('r_weight', shape=(2,)).initialize(init='nosuchinit'))
print(type(init.create('xavier')).__name__, type(mx.initializer.create('zeros')).__name__, type(init.create('one')).__name__)
attempt(lambda: init.create(init.Normal()).dumps())


@init.register
class MyConst(init.Initializer):
    def __init__(self, v=1.5):
        super().__init__(v=v)
        self.v = v

    def _init_weight(self, _, arr):
        arr[:] = self.v


print(MyConst(2.0).dumps(), type(init.create('myconst')).__name__)
p = gluon.Parameter('m_weight', shape=(3,), init=MyConst(2.5))
p.initialize()
print(p.data().asnumpy().tolist())

# argument types as given, odd values MXNet accepts
L = lr_scheduler
s = L.FactorScheduler(step=2.5, factor=0.5, base_lr=1)
print([s(t) for t in range(8)])
s = L.MultiFactorScheduler(step=[2.5, 5], factor=0.5, base_lr=1)
print([s(t) for t in range(8)])
attempt(lambda: L.PolyScheduler(max_update=np.int64(5)))
attempt(lambda: L.PolyScheduler(max_update=5, warmup_steps=np.int64(1)))
attempt(lambda: L.PolyScheduler(max_update=True).max_update)
s = L.PolyScheduler(max_update=4, base_lr=1, pwr=0.5)
print([round(s(t), 5) for t in range(6)])
s = L.FactorScheduler(step=1, factor=0, base_lr=1)
print([s(t) for t in range(4)])
s = L.FactorScheduler(step=1, factor=-0.5, base_lr=1, stop_factor_lr=-1)
print([s(t) for t in range(4)])
s = L.MultiFactorScheduler(step=[1, 2], base_lr=1)
print([s(t) for t in range(4)])
attempt(lambda: L.MultiFactorScheduler(step=[]))
attempt(lambda: L.MultiFactorScheduler(step=(1, 2)))
attempt(lambda: L.MultiFactorScheduler(step=[1, 2.0]).step)
attempt(lambda: L.CosineScheduler(max_update=5, base_lr=0.1, final_lr=0.5)(2))
attempt(lambda: L.PolyScheduler(max_update=5, warmup_steps=5)(5))
attempt(lambda: L.FactorScheduler(step=1, base_lr=None))
attempt(lambda: L.LRScheduler(warmup_steps=2, warmup_mode='constant', warmup_begin_lr=0.005).get_warmup_lr(1))
for s in [L.FactorScheduler(step=3), L.MultiFactorScheduler(step=[3]), L.PolyScheduler(max_update=3),
          L.CosineScheduler(max_update=3)]:
    print(sorted(vars(s).items()))
for kw in [{}, {'learning_rate': 0.3}]:
    o = mx.optimizer.SGD(lr_scheduler=L.FactorScheduler(step=1, factor=0.5, base_lr=0.8), **kw)
    print(o.lr, o.learning_rate, o.lr_scheduler.base_lr)
o = mx.optimizer.Adam(lr_scheduler=L.FactorScheduler(step=1, factor=0.5, base_lr=0.8))
print(o.lr, o.learning_rate, o.lr_scheduler.base_lr)

# dtypes, create() forms, InitDesc attributes, name rules through gluon
for dt in ['float16', 'float64', 'int32', 'uint8']:
    a = nd.zeros((2, 2), dtype=dt)
    init.Constant(2.7)(init.InitDesc('x_weight'), a); print(dt, a.dtype.__name__, a.asnumpy().tolist())
    a = nd.zeros((2,), dtype=dt)
    init.One()(init.InitDesc('x_weight'), a); print(dt, a.asnumpy().tolist())
    b = nd.zeros((1, 1, 2, 2), dtype=dt)
    attempt(lambda: init.Bilinear()(init.InitDesc('x_weight'), b) or b.asnumpy().tolist())
attempt(lambda: init.create('["constant", {"value": 1.5}]').value)
attempt(lambda: init.create('["xavier", {"magnitude": 2}]').magnitude)
attempt(lambda: init.create('Xavier').magnitude)
attempt(lambda: init.create('XAVIER', magnitude=4).magnitude)
attempt(lambda: init.create(init.One) )
attempt(lambda: init.Xavier() == init.Xavier())
attempt(lambda: init.Xavier() == init.Xavier(magnitude=2))
attempt(lambda: init.Xavier(magnitude=2).dumps())
attempt(lambda: init.Uniform(1).dumps())
attempt(lambda: init.Constant(np.array([1.0, 2.0])).dumps())
attempt(lambda: init.Constant(nd.array([1.0, 2.0])).dumps())
attempt(lambda: init.LSTMBias(2).dumps())
attempt(lambda: init.Orthogonal().dumps())
attempt(lambda: init.Initializer().set_verbosity(True) is not None)
attempt(lambda: init.Xavier()(init.InitDesc('v_weight'), nd.zeros((3,))))
attempt(lambda: init.Xavier(factor_type='bad')(init.InitDesc('v_weight'), nd.zeros((3, 3))))
attempt(lambda: init.Xavier(rnd_type='bad')(init.InitDesc('v_weight'), nd.zeros((3, 3))))
attempt(lambda: init.Uniform()(init.InitDesc('v_weight'), np.zeros(3)))
attempt(lambda: init.Uniform()('v_weight', np.zeros(3)))
attempt(lambda: init.Uniform()(3, nd.zeros(3)))
attempt(lambda: init.Initializer()(init.InitDesc('v_weight'), nd.zeros(3)))
d = init.InitDesc('abc', attrs={'k': 'v'}, global_init=init.One())
print(d, type(d).__name__, isinstance(d, str), d.attrs, type(d.global_init).__name__)
a = nd.zeros((2,))
init.Zero()(init.InitDesc('z_weight', attrs={'__init__': '["one", {}]'}), a); print(a.asnumpy().tolist())
a = nd.zeros((2,))
init.Zero()(init.InitDesc('z_bias', attrs={'__init__': '["constant", {"value": 3}]'}), a); print(a.asnumpy().tolist())
a = nd.zeros((2,))
init.Zero()(init.InitDesc('z_bias', attrs={'__init__': init.Constant(5)}), a); print(a.asnumpy().tolist())
a = nd.full((3,), 5.0)
init.Uniform()(init.InitDesc('q_min'), a); print(a.asnumpy().tolist())
init.Uniform()(init.InitDesc('q_max'), a); print(a.asnumpy().tolist())
a = nd.full((1, 1, 2, 2), 5.0)
init.Uniform()('upsampling_weight', a); print(a.asnumpy().tolist())
attempt(lambda: init.Uniform()('x_moving_inv_var', nd.ones(2)) or 'ok')
attempt(lambda: init.Uniform()(init.InitDesc('x_moving_inv_var'), nd.ones(2)) or 'ok')
p = gluon.Parameter('w', shape=(2, 3), init='zeros'); p.initialize(); print(p.data().asnumpy().tolist())
p = gluon.Parameter('w', shape=(2, 3)); p.initialize(init=init.Constant(1.5)); print(p.data().asnumpy().tolist())
p = gluon.Parameter('w', shape=(2, 3), dtype='float16', init=init.Constant(1.1)); p.initialize(); print(p.data().dtype.__name__, p.data().asnumpy().tolist())
p = gluon.Parameter('w_bias', shape=(2,)); p.initialize(init='one'); print(p.data().asnumpy().tolist())
p = gluon.Parameter('w_gamma', shape=(2,)); p.initialize(default_init=init.Zero()); print(p.data().asnumpy().tolist())
p = gluon.Parameter('foo', shape=(2,)); attempt(lambda: p.initialize(default_init=init.Zero()) or p.data().asnumpy().tolist())
p = gluon.Parameter('foo', shape=(2,)); attempt(lambda: p.initialize(init=init.Uniform(), default_init=init.Zero()) or p.data().shape)
