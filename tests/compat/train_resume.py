import os
import tempfile
import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init, lr_scheduler
from mxnet.gluon import nn

rs = np.random.RandomState(11)
X = rs.randn(20, 3).astype('float32')
Y = (X @ np.array([[1.0], [-2.0], [0.5]], dtype='float32') + 0.3).astype('float32')
tmp = tempfile.mkdtemp()

def build():
    net = nn.HybridSequential()
    net.add(nn.Dense(4, activation='tanh', in_units=3), nn.Dense(1, in_units=4))
    net.initialize(init.Constant(0.0))
    for i, p in enumerate(net.collect_params().values()):
        p.set_data(nd.array((np.cos(np.arange(np.prod(p.shape)) + i) * 0.4).reshape(p.shape).astype('float32')))
    return net

loader = gluon.data.DataLoader(gluon.data.ArrayDataset(X, Y), batch_size=5)
l2 = gluon.loss.L2Loss()

def epoch(net, tr):
    tot = 0.0
    for data, label in loader:
        with autograd.record():
            loss = l2(net(data), label)
        loss.backward()
        tr.step(data.shape[0])
        tot += loss.sum().asscalar()
    return tot / len(X)

def run(opt, params, sched_fn, tag):
    net = build()
    params = dict(params, lr_scheduler=sched_fn())
    tr = gluon.Trainer(net.collect_params(), opt, params)
    for e in range(3):
        l = epoch(net, tr)
        print(tag, 'epoch %d loss %.5f lr %.6f num_update %d' % (e, l, tr.learning_rate, tr.optimizer.num_update))
    pf, sf = os.path.join(tmp, tag + '.params'), os.path.join(tmp, tag + '.states')
    net.save_parameters(pf)
    tr.save_states(sf)
    cont = [epoch(net, tr) for _ in range(2)]
    final = net[1].weight.data().asnumpy().round(4).tolist()
    print(tag, 'continued', ['%.5f' % c for c in cont], tr.learning_rate, final)
    # resume in fresh objects
    net2 = build()
    net2.load_parameters(pf)
    tr2 = gluon.Trainer(net2.collect_params(), opt, dict(params, lr_scheduler=sched_fn()))
    tr2.load_states(sf)
    print(tag, 'resumed num_update', tr2.optimizer.num_update, 'lr %.6f' % tr2.learning_rate)
    cont2 = [epoch(net2, tr2) for _ in range(2)]
    final2 = net2[1].weight.data().asnumpy().round(4).tolist()
    print(tag, 'resumed', ['%.5f' % c for c in cont2], tr2.learning_rate, final2, final2 == final)

run('sgd', {'learning_rate': 0.1, 'momentum': 0.9},
    lambda: lr_scheduler.FactorScheduler(step=4, factor=0.5, base_lr=0.1, warmup_steps=3, warmup_begin_lr=0.01), 'sgd_factor')
run('adam', {'learning_rate': 0.05},
    lambda: lr_scheduler.MultiFactorScheduler(step=[5, 9], factor=0.3, base_lr=0.05), 'adam_multi')
run('nag', {'learning_rate': 0.05, 'momentum': 0.8},
    lambda: lr_scheduler.CosineScheduler(max_update=20, base_lr=0.05, final_lr=0.001, warmup_steps=2), 'nag_cos')
run('rmsprop', {'learning_rate': 0.01},
    lambda: lr_scheduler.PolyScheduler(max_update=15, base_lr=0.01, pwr=2), 'rms_poly')

# set_learning_rate between epochs, no scheduler
net = build()
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.2})
for e in range(3):
    l = epoch(net, tr)
    tr.set_learning_rate(tr.learning_rate * 0.5)
    print('manual decay epoch %d loss %.5f next lr %s' % (e, l, tr.learning_rate))
# load_parameters with ctx / allow_missing / ignore_extra, and the saved keys
pf = os.path.join(tmp, 'm.params')
net.save_parameters(pf)
print(sorted(nd.load(pf).keys()))
small = nn.HybridSequential()
small.add(nn.Dense(4, activation='tanh', in_units=3))
small.load_parameters(pf, ctx=mx.cpu(), ignore_extra=True)
print(small[0].bias.data().asnumpy().round(4).tolist())
big = build()
big.add(nn.Dense(2, in_units=1))
try:
    big.load_parameters(pf)
except Exception as e:
    print(type(e).__name__)
big.load_parameters(pf, allow_missing=True)
print(big[1].bias.data().asnumpy().round(4).tolist())
