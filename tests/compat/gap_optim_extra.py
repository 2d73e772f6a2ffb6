# Optimizers registered by MXNet 1.9.1 beyond the common ones: sgld, lbsgd, groupadagrad, test.
import numpy as np
import mxnet as mx
from mxnet import gluon, autograd


def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)


def r(a, k=5):
    return np.round(a.asnumpy().astype('float64'), k).tolist()


def run(name, steps=4, shape=(2, 3), **kw):
    opt = mx.optimizer.create(name, **kw)
    upd = mx.optimizer.get_updater(opt)
    w = mx.nd.array(np.linspace(-1, 1, int(np.prod(shape))).reshape(shape))
    for t in range(steps):
        g = mx.nd.array(np.cos(np.arange(int(np.prod(shape))) + t).reshape(shape) * 2)
        upd(0, g, w)
    print(name, kw, w.dtype, r(w))
    return upd


print([n in mx.optimizer.Optimizer.opt_registry for n in ['sgld', 'lbsgd', 'groupadagrad', 'test', 'ccsgd']])

# LBSGD: warm-up strategies, momentum, gradient summation over batch_scale calls
run('lbsgd', learning_rate=0.1)
run('lbsgd', learning_rate=0.1, momentum=0.9, wd=0.01)
for strat in ['linear', 'power2', 'sqrt', 'lars', 'other']:
    run('lbsgd', steps=6, learning_rate=0.1, momentum=0.5, warmup_strategy=strat,
        batch_scale=2, warmup_epochs=1, updates_per_epoch=4)
run('lbsgd', steps=5, learning_rate=0.1, batch_scale=3, warmup_epochs=1, updates_per_epoch=2,
    begin_epoch=1, rescale_grad=0.5, clip_gradient=0.3)
o = mx.optimizer.create('lbsgd', batch_scale=4, begin_epoch=2)
print(o.init_updates, o.warmup_epochs, o.updates_per_epoch, o.num_epochs, o.momentum)

# GroupAdaGrad: one history value per row
u = run('groupadagrad', learning_rate=0.1)
print(u.states[0].shape, r(u.states[0]))
run('groupadagrad', learning_rate=0.5, eps=1e-3, rescale_grad=0.5, clip_gradient=0.4, shape=(3, 2))
print(mx.optimizer.contrib.GroupAdaGrad().float_stable_eps)
err(lambda: run('groupadagrad', wd=0.1))
err(lambda: run('groupadagrad', shape=(4,)))

# the test optimizer
u = run('test', steps=2, rescale_grad=0.5)
print(r(u.states[0]))

# SGLD: half an SGD step plus N(0, sqrt(lr)) noise
mx.random.seed(3)
n = 20000
w0 = np.linspace(-1, 1, n).astype('float32')
g0 = np.cos(np.arange(n)).astype('float32')
for kw in [dict(learning_rate=0.01), dict(learning_rate=0.04, wd=0.1, rescale_grad=2.0, clip_gradient=0.5)]:
    opt = mx.optimizer.create('sgld', **kw)
    w = mx.nd.array(w0)
    mx.optimizer.get_updater(opt)(0, mx.nd.array(g0), w)
    lr, wd = kw['learning_rate'], kw.get('wd', 0.0)
    g = g0 * kw.get('rescale_grad', 1.0)
    if 'clip_gradient' in kw:
        g = np.clip(g, -kw['clip_gradient'], kw['clip_gradient'])
    noise = w.asnumpy() - (w0 - lr / 2 * (g + wd * w0))
    print('sgld', w.shape, w.dtype, round(abs(float(noise.mean())), 1), round(float(noise.std()), 2),
          round(lr ** 0.5, 2))

# through a Trainer
net = gluon.nn.Dense(2, in_units=3)
net.initialize(mx.init.Constant(0.5))
x = mx.nd.array([[1, 2, 3], [4, 5, 6]])
for name, kw in [('lbsgd', {'learning_rate': 0.1, 'momentum': 0.9}), ('groupadagrad', {'learning_rate': 0.1}),
                 ('sgld', {'learning_rate': 0.01})]:
    net.initialize(mx.init.Constant(0.5), force_reinit=True)
    params = [net.weight] if name == 'groupadagrad' else net.collect_params()  # 2-D weights only
    tr = gluon.Trainer(params, name, kw)
    for _ in range(2):
        with autograd.record():
            loss = (net(x) ** 2).sum() / 100
        loss.backward()
        tr.step(2)
    if name == 'sgld':
        print(name, net.weight.data().shape, net.weight.data().dtype)
    else:
        print(name, r(net.weight.data(), 4), r(net.bias.data(), 4))
