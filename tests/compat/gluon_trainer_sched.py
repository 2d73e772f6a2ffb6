import mxnet as mx
from mxnet import gluon, nd, autograd, init, lr_scheduler
from mxnet.gluon import nn

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)

def r(x):
    return round(x, 6)

scheds = [
    lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0),
    lr_scheduler.FactorScheduler(step=3, factor=0.1, stop_factor_lr=1e-3, base_lr=0.5),
    lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0, warmup_steps=3, warmup_begin_lr=0.1),
    lr_scheduler.MultiFactorScheduler(step=[2, 5, 7], factor=0.1, base_lr=1.0),
    lr_scheduler.MultiFactorScheduler(step=[3, 6], factor=0.5, base_lr=0.2, warmup_steps=2, warmup_mode='constant', warmup_begin_lr=0.01),
    lr_scheduler.PolyScheduler(max_update=8, base_lr=1.0, pwr=2),
    lr_scheduler.PolyScheduler(max_update=8, base_lr=1.0, pwr=1, final_lr=0.1, warmup_steps=2),
    lr_scheduler.CosineScheduler(max_update=8, base_lr=1.0),
    lr_scheduler.CosineScheduler(max_update=10, base_lr=0.5, final_lr=0.05, warmup_steps=3, warmup_begin_lr=0.0),
]
for s in scheds:
    print(type(s).__name__, [r(s(t)) for t in range(0, 12)])
err(lambda: lr_scheduler.FactorScheduler(step=0))
err(lambda: lr_scheduler.FactorScheduler(step=2, factor=1.5))
err(lambda: lr_scheduler.MultiFactorScheduler(step=[3, 2]))
err(lambda: lr_scheduler.MultiFactorScheduler(step=[0, 2]))
err(lambda: lr_scheduler.PolyScheduler(max_update=0))
err(lambda: lr_scheduler.CosineScheduler(max_update=5, warmup_steps=2, warmup_mode='bad'))

X = nd.array([[0.5, -1.0], [1.5, 0.25], [-1.0, 0.75]])
Y = nd.array([1.0, -1.0, 0.5])
def make():
    net = nn.Dense(1, in_units=2)
    net.initialize(init.Constant(0.1))
    return net
net = make()
sched = lr_scheduler.FactorScheduler(step=1, factor=0.5, base_lr=0.2)
tr = gluon.Trainer(net.collect_params(), 'sgd', {'lr_scheduler': sched})
lrs = []
for i in range(4):
    with autograd.record():
        l = gluon.loss.L2Loss()(net(X), Y)
    l.backward()
    tr.step(3)
    lrs.append(r(tr.learning_rate))
print(lrs, net.weight.data().asnumpy().round(5).tolist())
err(lambda: tr.set_learning_rate(0.1))
net = make()
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'lr_scheduler': lr_scheduler.FactorScheduler(step=1, factor=0.5, base_lr=1.0)})
print(tr.learning_rate)
# step without backward
net = make()
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
err(lambda: tr.step(1))
tr.step(1, ignore_stale_grad=True)
print(net.weight.data().asnumpy().tolist())
with autograd.record():
    l = gluon.loss.L2Loss()(net(X), Y)
l.backward()
tr.step(3)
err(lambda: tr.step(3))
# update / allreduce_grads
with autograd.record():
    l = gluon.loss.L2Loss()(net(X), Y)
l.backward()
tr.allreduce_grads()
tr.update(3)
print(net.weight.data().asnumpy().round(5).tolist())
# grad_req add
net = make()
net.collect_params().setattr('grad_req', 'add')
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
for _ in range(2):
    with autograd.record():
        l = gluon.loss.L2Loss()(net(X), Y)
    l.backward()
print(net.weight.grad().asnumpy().round(5).tolist())
tr.step(3)
print(net.weight.data().asnumpy().round(5).tolist(), net.weight.grad().asnumpy().round(5).tolist())
net.collect_params().zero_grad()
print(net.weight.grad().asnumpy().tolist())
# trainer errors / options
err(lambda: gluon.Trainer(net.collect_params(), 'nosuchopt'))
err(lambda: gluon.Trainer([1, 2], 'sgd'))
err(lambda: gluon.Trainer(net.collect_params(), mx.optimizer.SGD(), {'learning_rate': 0.1}))
tr = gluon.Trainer(net.collect_params(), 'adam')
print(tr.learning_rate, tr.optimizer.lr)
err(lambda: gluon.Trainer(net.collect_params().values(), 'sgd'))
tr = gluon.Trainer(list(net.collect_params().values()), 'sgd', {'learning_rate': 0.3})
print(tr.learning_rate)
# deferred init param & trainer
d = nn.Dense(2); d.initialize(init.One())
tr = gluon.Trainer(d.collect_params(), 'sgd', {'learning_rate': 0.5})
with autograd.record():
    out = d(X).sum()
out.backward()
tr.step(1)
print(d.weight.data().asnumpy().tolist(), d.bias.data().asnumpy().tolist())
# save/load states
import tempfile, os
f = os.path.join(tempfile.mkdtemp(), 'tr.states')
net = make()
tr = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.1})
with autograd.record():
    l = gluon.loss.L2Loss()(net(X), Y)
l.backward(); tr.step(3)
tr.save_states(f)
tr2 = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.1})
tr2.load_states(f)
print(tr2.optimizer.num_update, tr2.learning_rate)
