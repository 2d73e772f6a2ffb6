# mx.optimizer: deterministic updates on fixed arrays, states, multipliers, float16, Trainer lr.
import numpy as np
import mxnet as mx
from mxnet import nd, gluon, autograd


def r(a, k=5):
    return np.round(a.asnumpy().astype('float64'), k).tolist()


def attempt(f):
    try:
        v = f()
        print(v if isinstance(v, (str, int, float, list, type(None))) else type(v).__name__)
    except Exception as e:
        print(type(e).__name__)


W0 = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype='float32')


def grad(t):
    return nd.array(np.cos(np.arange(6) * 1.3 + t).reshape(2, 3) * 3)


def run(name, steps=3, dtype='float32', **kw):
    opt = mx.optimizer.create(name, **kw)
    upd = mx.optimizer.get_updater(opt)
    w = nd.array(W0, dtype=dtype)
    for t in range(steps):
        upd(0, grad(t).astype(dtype), w)
    print(name, sorted(kw.items()), w.dtype.__name__, r(w, 3 if dtype == 'float16' else 5))
    return opt, upd


base = dict(learning_rate=0.1)
for name, extra in [('sgd', {}), ('sgd', dict(momentum=0.9)), ('sgd', dict(momentum=0.9, wd=0.1, clip_gradient=1.0)),
                    ('sgd', dict(rescale_grad=0.25, wd=0.05)), ('nag', dict(momentum=0.8)),
                    ('nag', dict(momentum=0.8, wd=0.02, clip_gradient=2.0, rescale_grad=0.5)),
                    ('adam', {}), ('adam', dict(beta1=0.5, beta2=0.99, epsilon=1e-4, wd=0.01, clip_gradient=1.5)),
                    ('adagrad', {}), ('adagrad', dict(eps=1e-3, wd=0.1, rescale_grad=2.0)),
                    ('adadelta', dict(rho=0.5, epsilon=1e-3)), ('adadelta', dict(wd=0.1, clip_gradient=0.5)),
                    ('rmsprop', {}), ('rmsprop', dict(centered=True)),
                    ('rmsprop', dict(centered=True, gamma1=0.7, gamma2=0.5, epsilon=1e-3, clip_weights=1.0)),
                    ('adamax', {}), ('adamax', dict(beta1=0.5, wd=0.1)), ('nadam', {}),
                    ('nadam', dict(schedule_decay=0.01, wd=0.05)), ('ftml', {}), ('ftml', dict(beta1=0.3, beta2=0.8)),
                    ('signum', {}), ('signum', dict(momentum=0.5, wd_lh=0.05, wd=0.01)), ('signum', dict(momentum=0.0)),
                    ('lamb', {}), ('lamb', dict(wd=0.1, bias_correction=False)), ('lamb', dict(lower_bound=0.5, upper_bound=1.0)),
                    ('lars', dict(momentum=0.9)), ('lars', dict(momentum=0.5, eta=0.01, wd=0.01)),
                    ('dcasgd', {}), ('dcasgd', dict(lamda=0.1, wd=0.01)),
                    ('ftrl', {}), ('ftrl', dict(lamda1=0.1, beta=2.0, wd=0.05))]:
    kw = dict(base)
    kw.update(extra)
    run(name, **kw)

# float16 with and without multi_precision
for name, extra in [('sgd', dict(momentum=0.9)), ('sgd', {}), ('nag', dict(momentum=0.9)), ('adam', {}),
                    ('lamb', {}), ('lars', dict(momentum=0.9)), ('signum', dict(momentum=0.9))]:
    for mp in [False, True]:
        kw = dict(learning_rate=0.1, multi_precision=mp)
        kw.update(extra)
        opt, upd = run(name, dtype='float16', **kw)
        st = upd.states[0]
        if isinstance(st, (list, tuple)):
            print(' states', [type(s).__name__ if not hasattr(s, 'dtype') else s.dtype.__name__ for s in st])
        else:
            print(' state', None if st is None else st.dtype.__name__)

# create_state + update by hand
opt = mx.optimizer.Adam(learning_rate=0.05)
w = nd.array(W0)
st = opt.create_state(3, w)
print(type(st).__name__, len(st), [s.shape for s in st])
for t in range(2):
    opt.update(3, w, grad(t), st)
print(r(w), [r(s) for s in st], opt.num_update, opt._index_update_count)
opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.0)
print(opt.create_state(0, w))
opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.5, multi_precision=True)
w16 = nd.array(W0, dtype='float16')
st = opt.create_state_multi_precision(0, w16)
print(type(st).__name__, [s.dtype.__name__ if s is not None else None for s in st])
opt.update_multi_precision(0, w16, grad(0).astype('float16'), st)
print(r(w16, 3), r(st[1], 4))
opt = mx.optimizer.RMSProp(learning_rate=0.1, centered=True)
print(len(opt.create_state(0, w)))
opt = mx.optimizer.AdaDelta()
print([s.shape for s in opt.create_state(0, w)])

# multipliers, per-index learning rates
opt = mx.optimizer.SGD(learning_rate=0.1, wd=0.1, param_idx2name={0: 'fc_weight', 1: 'fc_bias', 2: 'bn_gamma'})
print(sorted(opt.lr_mult.items()), sorted(opt.wd_mult.items()))
opt.set_lr_mult({'fc_weight': 2.0, 'fc_bias': 0.5})
opt.set_wd_mult({'fc_weight': 0.0})
print(sorted(opt.lr_mult.items()), sorted(opt.wd_mult.items()))
print([round(opt._get_lr(i), 5) for i in range(3)], [round(opt._get_wd(i), 5) for i in range(3)])
upd = mx.optimizer.get_updater(opt)
ws = [nd.array(W0) for _ in range(3)]
for i in range(3):
    upd(i, grad(i), ws[i])
print([r(x) for x in ws])
opt.set_learning_rate(0.01)
print(opt.learning_rate, opt.lr, [round(opt._get_lr(i), 5) for i in range(3)])
opt = mx.optimizer.SGD(learning_rate=0.1, wd=0.1, param_idx2name={0: 'a_weight', 1: 'a_bias'})
opt.set_wd_mult({})
print(sorted(opt.wd_mult.items()))
attempt(lambda: mx.optimizer.SGD(param_idx2name=[1, 2]))

# creation and registry
print(type(mx.optimizer.Optimizer.create_optimizer('sgd', learning_rate=0.3)).__name__,
      mx.optimizer.Optimizer.create_optimizer('nag', learning_rate=0.3).lr)
for name in ['SGD', 'Adam', 'ftml', 'LAMB', 'Lars', 'DCASGD', 'adaDelta', 'signum', 'Nadam', 'Ftrl']:
    o = mx.optimizer.create(name)
    print(name, type(o).__name__, o.lr, o.wd, o.rescale_grad, o.clip_gradient, o.multi_precision)
attempt(lambda: mx.optimizer.create('nosuchopt'))
attempt(lambda: mx.optimizer.create('sgd', nosucharg=1))
o = mx.optimizer.create('rmsprop', learning_rate=0.5, gamma1=0.8)
print(o.gamma1, o.gamma2, o.epsilon, o.centered, o.clip_weights)
o = mx.optimizer.create('sgd', learning_rate=0.5, momentum=0.9, lazy_update=False)
print(o.momentum, o.lazy_update, o.begin_num_update, o.num_update)
o = mx.optimizer.create('adagrad')
print(o.float_stable_eps, o.lr)
o = mx.optimizer.create('signum')
print(o.momentum, o.wd_lh, o.lr)
o = mx.optimizer.create('ftrl')
print(o.lamda1, o.beta, o.lr)
o = mx.optimizer.create('lamb')
print(o.beta1, o.beta2, o.epsilon, o.lower_bound, o.upper_bound, o.bias_correction, o.lr)
o = mx.optimizer.create('lars')
print(o.momentum, o.eta, o.eps, o.lr)
o = mx.optimizer.create('nag')
print(o.momentum, o.lr)
o = mx.optimizer.create('dcasgd')
print(o.momentum, o.lamda, o.lr)

# optimizers with an lr_scheduler count updates
sched = mx.lr_scheduler.MultiFactorScheduler(step=[2, 4], factor=0.1)
o = mx.optimizer.create('sgd', learning_rate=1.0, lr_scheduler=sched)
upd = mx.optimizer.get_updater(o)
w = nd.array([1.0, 1.0])
for t in range(6):
    upd(0, nd.array([1.0, -1.0]), w)
    upd(1, nd.array([1.0, -1.0]), w)
    print(t, o.num_update, round(o.learning_rate, 6), r(w))

# updater state save/load
o = mx.optimizer.create('adam', learning_rate=0.1)
upd = mx.optimizer.get_updater(o)
w = nd.array(W0)
upd(0, grad(0), w)
blob = upd.get_states()
upd2 = mx.optimizer.get_updater(mx.optimizer.create('adam', learning_rate=0.1))
upd2.set_states(blob)
w2 = w.copy()
upd(0, grad(1), w)
upd2(0, grad(1), w2)
print(r(w), r(w2), sorted(upd2.states.keys()))

# gluon.Trainer learning rate
net = gluon.nn.Dense(2, in_units=3)
net.initialize(mx.init.One())
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.2, 'momentum': 0.5, 'wd': 0.01})
print(tr.learning_rate, type(tr.optimizer).__name__, tr.optimizer.momentum, tr.optimizer.wd)
x = nd.array([[1.0, -2.0, 0.5], [0.3, 0.1, -1.0]])
for lr in [0.2, 0.05]:
    tr.set_learning_rate(lr)
    with autograd.record():
        loss = (net(x) ** 2).sum()
    loss.backward()
    tr.step(2)
    print(tr.learning_rate, r(net.weight.data(), 4), r(net.bias.data(), 4))
net.bias.lr_mult = 0.0
net.weight.wd_mult = 2.0
with autograd.record():
    loss = (net(x) ** 2).sum()
loss.backward()
tr.step(2)
print(r(net.weight.data(), 4), r(net.bias.data(), 4))
sched = mx.lr_scheduler.CosineScheduler(max_update=4, base_lr=0.1, final_lr=0.01, warmup_steps=1)
net.initialize(mx.init.One(), force_reinit=True)
tr = gluon.Trainer(net.collect_params(), 'adam', {'lr_scheduler': sched})
out = []
for _ in range(5):
    with autograd.record():
        loss = (net(x) ** 2).sum()
    loss.backward()
    tr.step(2)
    out.append(round(tr.learning_rate, 5))
print(out, r(net.bias.data()))
attempt(lambda: tr.set_learning_rate(0.3))
opt = mx.optimizer.Adam(learning_rate=0.01)
tr = gluon.Trainer(net.collect_params(), opt)
print(tr.learning_rate, tr.optimizer is opt)
tr.set_learning_rate(0.02)
print(opt.lr, opt.learning_rate)
