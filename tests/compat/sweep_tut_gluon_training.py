"""MXNet 1.9's Gluon tutorials, training/: trainer, learning_rate_schedules (basic and advanced),
learning_rate_finder, normalization (small fixed data)."""
import copy
import math
import os
import tempfile

import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn

tmp = tempfile.mkdtemp()
os.chdir(tmp)


def r(x, k=4):
    return (x.asnumpy().round(k) + 0).tolist()


def plot_schedule(schedule_fn, iterations=1500, every=125):
    """The tutorials plot lr against iteration: print every `every`-th value instead."""
    iters = [i + 1 for i in range(iterations)]
    lrs = [schedule_fn(i) for i in iters]
    print([round(float(v), 5) for v in lrs[::every]], round(float(lrs[-1]), 5))


# ---- trainer.md
net = nn.Dense(1, in_units=2, weight_initializer=init.Constant(0.5))
net.initialize()
X = nd.array([[1, 2], [3, 4], [-1, 0.5]])
y = nd.array([[1], [2], [0]])
trainer = gluon.Trainer(net.collect_params(), optimizer='sgd', optimizer_params={'learning_rate': 1})
print(trainer.learning_rate, type(trainer.optimizer).__name__)
loss_fn = gluon.loss.L2Loss()
with autograd.record():
    loss = loss_fn(net(X), y)
loss.backward()
print(r(net.weight.grad()), r(net.weight.data()))
trainer.step(batch_size=1)
print(r(net.weight.data()), r(net.bias.data()))
trainer.set_learning_rate(0.1)
print(trainer.learning_rate)
with autograd.record():
    loss = loss_fn(net(X), y)
loss.backward()
trainer.step(batch_size=3)
print(r(net.weight.data()), r(net.bias.data()))
net.weight.zero_grad()
print(r(net.weight.grad()))
optim = mx.optimizer.Adam(learning_rate=0.01)
trainer = gluon.Trainer(net.collect_params(), optim)
print(trainer.learning_rate, trainer.optimizer is optim)
try:
    gluon.Trainer(net.collect_params(), optim, {'learning_rate': 0.1})
except Exception as e:
    print(type(e).__name__)
try:
    gluon.Trainer(net.collect_params(), 'nosuchopt')
except Exception as e:
    print(type(e).__name__)
for i in range(2):
    with autograd.record():
        loss = loss_fn(net(X), y)
    loss.backward()
    trainer.step(3)
    print(i, r(net.weight.data()), r(net.bias.data()))
trainer.save_states('adam.states')
trainer.load_states('adam.states')
print(trainer.optimizer.num_update, trainer.learning_rate)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'wd': 0.01, 'momentum': 0.9,
                                                      'clip_gradient': 0.5, 'rescale_grad': 1.0})
print(trainer.optimizer.wd, trainer.optimizer.momentum, trainer.optimizer.clip_gradient)
with autograd.record():
    loss = loss_fn(net(X), y)
loss.backward()
trainer.step(1)
print(r(net.weight.data()), r(net.bias.data()))
with autograd.record():
    loss = loss_fn(net(X), y)
loss.backward()
trainer.allreduce_grads()
trainer.update(1)
print(r(net.weight.data()), r(net.bias.data()))

# ---- learning_rate_schedules.md
schedule = mx.lr_scheduler.FactorScheduler(step=250, factor=0.5)
schedule.base_lr = 1
plot_schedule(schedule)
schedule = mx.lr_scheduler.MultiFactorScheduler(step=[250, 750, 900], factor=0.5)
schedule.base_lr = 1
plot_schedule(schedule)
schedule = mx.lr_scheduler.PolyScheduler(max_update=1000, base_lr=1, pwr=2)
plot_schedule(schedule)
schedule = mx.lr_scheduler.CosineScheduler(max_update=1000, base_lr=1, final_lr=0.1)
plot_schedule(schedule)
schedule = mx.lr_scheduler.FactorScheduler(step=250, factor=0.5, base_lr=1, warmup_steps=100, warmup_begin_lr=0.1)
plot_schedule(schedule, every=50, iterations=400)
schedule = mx.lr_scheduler.CosineScheduler(max_update=1000, base_lr=1, final_lr=0.1, warmup_steps=250,
                                           warmup_mode='constant', warmup_begin_lr=0.2)
plot_schedule(schedule)
schedule = mx.lr_scheduler.PolyScheduler(max_update=1000, base_lr=1, final_lr=0.01, pwr=1,
                                         warmup_steps=100, warmup_begin_lr=0.0)
plot_schedule(schedule)
schedule = mx.lr_scheduler.FactorScheduler(step=1, factor=0.5, stop_factor_lr=0.1)
schedule.base_lr = 1
plot_schedule(schedule, iterations=10, every=1)
for bad in (lambda: mx.lr_scheduler.FactorScheduler(step=0),
            lambda: mx.lr_scheduler.FactorScheduler(step=2, factor=1.5),
            lambda: mx.lr_scheduler.MultiFactorScheduler(step=[5, 3]),
            lambda: mx.lr_scheduler.PolyScheduler(max_update=0),
            lambda: mx.lr_scheduler.CosineScheduler(max_update=10, warmup_mode='linearish')):
    try:
        bad()
        print('ok')
    except Exception as e:
        print(type(e).__name__)

# a schedule driving the Trainer: the learning rate per update
data = nd.array(np.linspace(-1, 1, 40).reshape(20, 2))
labels = nd.array((np.arange(20) % 3).reshape(20))
dataset = gluon.data.ArrayDataset(data, labels)
loader = gluon.data.DataLoader(dataset, batch_size=5, shuffle=False)
net = nn.HybridSequential()
net.add(nn.Dense(4, activation='relu', weight_initializer=init.Constant(0.3)),
        nn.Dense(3, weight_initializer=init.Constant(-0.2)))
net.initialize()
net.hybridize()
schedule = mx.lr_scheduler.MultiFactorScheduler(step=[3, 6], factor=0.1)
sgd_optimizer = mx.optimizer.SGD(learning_rate=0.03, lr_scheduler=schedule)
trainer = mx.gluon.Trainer(params=net.collect_params(), optimizer=sgd_optimizer)
print(schedule.base_lr, trainer.learning_rate)
ce = gluon.loss.SoftmaxCrossEntropyLoss()
for epoch in range(2):
    for d, l in loader:
        with autograd.record():
            out = ce(net(d), l)
        out.backward()
        trainer.step(d.shape[0])
        print(epoch, trainer.optimizer.num_update, round(trainer.learning_rate, 6), round(out.mean().asscalar(), 4))
trainer = gluon.Trainer(net.collect_params(), 'sgd',
                        {'learning_rate': 0.5, 'lr_scheduler': mx.lr_scheduler.FactorScheduler(step=2, factor=0.5)})
print(trainer.learning_rate, trainer.optimizer.lr_scheduler.base_lr)
for d, l in loader:
    with autograd.record():
        out = ce(net(d), l)
    out.backward()
    trainer.step(d.shape[0])
    print(trainer.optimizer.num_update, trainer.learning_rate)
try:
    trainer.set_learning_rate(0.1)
    print('set', trainer.learning_rate)
except Exception as e:
    print(type(e).__name__)


# setting the rate by hand from a schedule (the tutorial's "Gluon API only" variant), data from workers
schedule = mx.lr_scheduler.MultiFactorScheduler(step=[2, 5], factor=0.1)
schedule.base_lr = 0.03
trainer = mx.gluon.Trainer(params=net.collect_params(), optimizer=mx.optimizer.SGD())
print(trainer.learning_rate)
iteration_idx = 1
for epoch in range(1, 3):
    for batch_num, (d, l) in enumerate(gluon.data.DataLoader(dataset, batch_size=5, num_workers=2), start=1):
        d = d.as_in_context(mx.cpu())
        with autograd.record():
            out = ce(net(d), l)
        out.backward()
        trainer.set_learning_rate(schedule(iteration_idx))
        trainer.step(d.shape[0])
        if batch_num == 1:
            print("Epoch: %d; Batch %d; Loss %.4f; LR %f" % (epoch, batch_num, out.mean().asscalar(), trainer.learning_rate),
                  d.context, l.context)
        iteration_idx += 1

# ---- learning_rate_schedules_advanced.md
class TriangularSchedule():
    def __init__(self, min_lr, max_lr, cycle_length, inc_fraction=0.5):
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.cycle_length = cycle_length
        self.inc_fraction = inc_fraction

    def __call__(self, iteration):
        if iteration <= self.cycle_length * self.inc_fraction:
            unit_cycle = iteration * 1 / (self.cycle_length * self.inc_fraction)
        elif iteration <= self.cycle_length:
            unit_cycle = (self.cycle_length - iteration) * 1 / (self.cycle_length * (1 - self.inc_fraction))
        else:
            unit_cycle = 0
        return (unit_cycle * (self.max_lr - self.min_lr)) + self.min_lr


class CosineAnnealingSchedule():
    def __init__(self, min_lr, max_lr, cycle_length):
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.cycle_length = cycle_length

    def __call__(self, iteration):
        if iteration <= self.cycle_length:
            unit_cycle = (1 + math.cos(iteration * math.pi / self.cycle_length)) / 2
            return (unit_cycle * (self.max_lr - self.min_lr)) + self.min_lr
        return self.min_lr


class LinearWarmUp():
    def __init__(self, schedule, start_lr, length):
        self.schedule = schedule
        self.start_lr = start_lr
        self.finish_lr = copy.copy(schedule)(0)
        self.length = length

    def __call__(self, iteration):
        if iteration <= self.length:
            return iteration * (self.finish_lr - self.start_lr) / (self.length) + self.start_lr
        return self.schedule(iteration - self.length)


class LinearCoolDown():
    def __init__(self, schedule, finish_lr, start_idx, length):
        self.schedule = schedule
        self.start_lr = copy.copy(self.schedule)(start_idx)
        self.finish_lr = finish_lr
        self.start_idx = start_idx
        self.finish_idx = start_idx + length
        self.length = length

    def __call__(self, iteration):
        if iteration <= self.start_idx:
            return self.schedule(iteration)
        elif iteration <= self.finish_idx:
            return (iteration - self.start_idx) * (self.finish_lr - self.start_lr) / (self.length) + self.start_lr
        return self.finish_lr


class OneCycleSchedule():
    def __init__(self, start_lr, max_lr, cycle_length, cooldown_length=0, finish_lr=None):
        if (cooldown_length > 0) and (finish_lr is None):
            raise ValueError("Must specify finish_lr when using cooldown_length > 0.")
        finish_lr = finish_lr if (cooldown_length > 0) else start_lr
        schedule = TriangularSchedule(min_lr=start_lr, max_lr=max_lr, cycle_length=cycle_length)
        self.schedule = LinearCoolDown(schedule, finish_lr=finish_lr, start_idx=cycle_length, length=cooldown_length)

    def __call__(self, iteration):
        return self.schedule(iteration)


class CyclicalSchedule():
    def __init__(self, schedule_class, cycle_length, cycle_length_decay=1, cycle_magnitude_decay=1, **kwargs):
        self.schedule_class = schedule_class
        self.length = cycle_length
        self.length_decay = cycle_length_decay
        self.magnitude_decay = cycle_magnitude_decay
        self.kwargs = kwargs

    def __call__(self, iteration):
        cycle_idx = 0
        cycle_length = self.length
        idx = self.length
        while idx <= iteration:
            cycle_length = math.ceil(cycle_length * self.length_decay)
            cycle_idx += 1
            idx += cycle_length
        cycle_offset = iteration - idx + cycle_length
        schedule = self.schedule_class(cycle_length=cycle_length, **self.kwargs)
        return schedule(cycle_offset) * self.magnitude_decay ** cycle_idx


plot_schedule(TriangularSchedule(min_lr=1, max_lr=2, cycle_length=1000, inc_fraction=0.2))
plot_schedule(CosineAnnealingSchedule(min_lr=1, max_lr=2, cycle_length=1000))
schedule = mx.lr_scheduler.MultiFactorScheduler(step=[250, 750, 900], factor=0.5)
schedule.base_lr = 1
plot_schedule(LinearWarmUp(schedule, start_lr=0, length=250))
schedule = mx.lr_scheduler.MultiFactorScheduler(step=[250, 750, 900], factor=0.5)
schedule.base_lr = 1
plot_schedule(LinearCoolDown(schedule, finish_lr=0.001, start_idx=1000, length=500))
plot_schedule(OneCycleSchedule(start_lr=0.1, max_lr=0.5, cycle_length=500, cooldown_length=750, finish_lr=0.001))
plot_schedule(CyclicalSchedule(TriangularSchedule, min_lr=0.5, max_lr=2, cycle_length=500))
plot_schedule(CyclicalSchedule(CosineAnnealingSchedule, min_lr=0.01, max_lr=2, cycle_length=250,
                               cycle_length_decay=2, cycle_magnitude_decay=0.5))
# a custom schedule object handed to the Trainer
try:
    gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'lr_scheduler': TriangularSchedule(0.1, 0.5, 4)})
except Exception as e:
    print(type(e).__name__)
tri = TriangularSchedule(0.1, 0.5, 4)
tri.base_lr = 0.1
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'lr_scheduler': tri})
for d, l in loader:
    with autograd.record():
        out = ce(net(d), l)
    out.backward()
    trainer.step(d.shape[0])
    print(trainer.optimizer.num_update, round(trainer.learning_rate, 6))
print(getattr(trainer.optimizer.lr_scheduler, 'base_lr', None))


# ---- learning_rate_finder.md
class Learner():
    def __init__(self, net, data_loader, ctx):
        self.net = net
        self.data_loader = data_loader
        self.ctx = ctx
        self.data_loader_iter = iter(self.data_loader)
        self.net.initialize(mx.init.Xavier(), ctx=self.ctx)
        self.loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
        self.trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': .001})

    def iteration(self, lr=None, take_step=True):
        if lr:
            self.trainer.set_learning_rate(lr)
        data, label = next(self.data_loader_iter)
        data = data.as_in_context(self.ctx)
        label = label.as_in_context(self.ctx)
        with mx.autograd.record():
            output = self.net(data)
            loss = self.loss_fn(output, label)
        loss.backward()
        if take_step:
            self.trainer.step(data.shape[0])
        self.iteration_loss = mx.nd.mean(loss).asscalar()
        return self.iteration_loss


class LRFinderStoppingCriteria():
    def __init__(self, smoothing=0.3, min_iter=20):
        self.smoothing = smoothing
        self.min_iter = min_iter
        self.first_loss = None
        self.running_mean = None
        self.counter = 0

    def __call__(self, loss):
        self.counter += 1
        if self.first_loss is None:
            self.first_loss = loss
        if self.running_mean is None:
            self.running_mean = loss
        else:
            self.running_mean = ((1 - self.smoothing) * loss) + (self.smoothing * self.running_mean)
        return (self.running_mean > self.first_loss * 2) and (self.counter >= self.min_iter)


class LRFinder():
    def __init__(self, learner):
        self.learner = learner
        self.results = []

    def find(self, lr_start=1e-6, lr_multiplier=1.1, smoothing=0.3, max_iter=60):
        self.learner.iteration(take_step=False)
        if not self.learner.trainer._kv_initialized:
            self.learner.trainer._init_kvstore()
        self.learner.net.save_parameters("lr_finder.params")
        self.learner.trainer.save_states("lr_finder.state")
        lr = lr_start
        self.results = []
        stopping_criteria = LRFinderStoppingCriteria(smoothing)
        while len(self.results) < max_iter:
            loss = self.learner.iteration(lr)
            self.results.append((lr, loss))
            if stopping_criteria(loss):
                break
            lr = lr * lr_multiplier
        self.learner.net.load_parameters("lr_finder.params", ctx=self.learner.ctx)
        self.learner.trainer.load_states("lr_finder.state")
        return self.results


class Repeat(gluon.data.Dataset):
    def __init__(self, base, times):
        self.base, self.times = base, times

    def __getitem__(self, idx):
        return self.base[idx % len(self.base)]

    def __len__(self):
        return len(self.base) * self.times


net = nn.HybridSequential()
net.add(nn.Dense(8, activation='relu'), nn.Dense(3))
net.hybridize()
learner = Learner(net, gluon.data.DataLoader(Repeat(dataset, 40), batch_size=10), mx.cpu())
learner.iteration(take_step=False)
for k, (name, prm) in enumerate(sorted(net.collect_params().items())):
    prm.set_data(nd.array(np.cos(np.arange(prm.data().size) * 0.9 + k).reshape(prm.shape) * 0.5))
lr_finder = LRFinder(learner)
results = lr_finder.find(lr_start=1e-2, lr_multiplier=1.5)
print(len(results), [(round(lr, 5), round(float(l), 3)) for lr, l in results[::4]])
print(learner.trainer.learning_rate, learner.trainer._kv_initialized, learner.trainer.optimizer.num_update)
print(r(net[1].bias.data(), 3))

# ---- normalization/index.md
x = nd.array(np.arange(2 * 3 * 2 * 2).reshape(2, 3, 2, 2) * 0.5 - 3)
bn = nn.BatchNorm()
bn.initialize()
print(bn, r(bn(x)[0, :, 0, 0]))
print(bn.running_mean.data(), bn.running_var.data())
with autograd.record():
    out = bn(x)
print(r(out[:, 0, 0, 0]), r(bn.running_mean.data()), r(bn.running_var.data()))
print(sorted(bn.collect_params().keys()), bn.running_mean.grad_req, bn.gamma.grad_req)
bn2 = nn.BatchNorm(axis=1, momentum=0.5, epsilon=1e-3, center=False, scale=False, in_channels=3)
bn2.initialize()
print(bn2)
with autograd.record():
    bn2(x)
print(r(bn2.running_mean.data()), bn2.beta.grad_req, bn2.gamma.grad_req)
bn3 = nn.BatchNorm(use_global_stats=True, in_channels=3)
bn3.initialize()
with autograd.record():
    print(r(bn3(x)[1, :, 1, 1]))
seq = nn.HybridSequential()
seq.add(nn.Conv2D(4, 1, in_channels=3, weight_initializer=init.Constant(0.1)), nn.BatchNorm(), nn.Activation('relu'))
seq.initialize()
seq.hybridize()
with autograd.record():
    o = seq(x)
o.backward()
print(r(o.sum(axis=(0, 2, 3))), r(seq[1].running_mean.data()), r(seq[0].weight.grad().sum(axis=(1, 2, 3))))
xt = nd.array(np.arange(2 * 4 * 3).reshape(2, 4, 3) * 0.25)
ln = nn.LayerNorm()
ln.initialize()
print(ln, r(ln(xt)[0]))
ln = nn.LayerNorm(axis=1, in_channels=4)
ln.initialize()
print(ln, r(ln(xt)[1, :, 0]))
inorm = nn.InstanceNorm()
inorm.initialize()
print(inorm, r(inorm(xt)[0]))
inorm = nn.InstanceNorm(axis=2, in_channels=3, center=False)
inorm.initialize()
print(inorm, r(inorm(xt)[1]))
gn = nn.GroupNorm(num_groups=2)
gn.initialize()
print(gn, r(gn(xt)[0]))
print(r(nd.BatchNorm(x, nd.ones(3), nd.zeros(3), nd.zeros(3), nd.ones(3))[0, :, 0, 0]))
print(r(nd.LayerNorm(xt, nd.ones(3), nd.zeros(3))[0, 0]))
print(r(nd.InstanceNorm(xt, nd.ones(4), nd.zeros(4))[0, 0]))
trans = gluon.data.vision.transforms.Normalize(mean=(0.5, 0.25, 0.0), std=(0.5, 2.0, 1.0))
print(r(trans(nd.array(np.arange(12).reshape(3, 2, 2) / 8.0))))
try:
    trans(nd.array(np.arange(8).reshape(2, 2, 2) / 8.0))
except Exception as e:
    print(type(e).__name__)
