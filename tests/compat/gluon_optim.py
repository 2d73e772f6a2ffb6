import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn

X = nd.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-1.0, 0.75, 0.3], [0.2, 0.1, -2.0]])
Y = nd.array([[1.0, -1.0], [0.5, 2.0], [0.0, 0.3], [-1.5, 1.0]])

def make():
    net = nn.Dense(2, in_units=3)
    net.initialize(init.Constant(0.1))
    net.weight.set_data(nd.array([[0.2, -0.3, 0.1], [0.05, 0.4, -0.2]]))
    return net

def run(opt, steps=3, batch=4, **kw):
    net = make()
    tr = gluon.Trainer(net.collect_params(), opt, kw)
    l2 = gluon.loss.L2Loss()
    for _ in range(steps):
        with autograd.record():
            loss = l2(net(X), Y)
        loss.backward()
        tr.step(batch)
    w = net.weight.data().asnumpy().round(5).tolist()
    b = net.bias.data().asnumpy().round(5).tolist()
    print(opt if isinstance(opt, str) else type(opt).__name__, sorted(kw.items()), w, b)
    return tr

run('sgd', learning_rate=0.1)
run('sgd', learning_rate=0.1, momentum=0.9)
run('sgd', learning_rate=0.1, momentum=0.9, wd=0.01)
run('sgd', learning_rate=0.1, clip_gradient=0.05)
run('sgd', learning_rate=0.1, rescale_grad=0.5)
run('sgd', batch=2, learning_rate=0.1)
run('nag', learning_rate=0.1, momentum=0.9)
run('nag', learning_rate=0.1, momentum=0.9, wd=0.01)
run('adam', learning_rate=0.01)
run('adam', learning_rate=0.01, beta1=0.8, beta2=0.9, epsilon=1e-6, wd=0.1)
run('rmsprop', learning_rate=0.01)
run('rmsprop', learning_rate=0.01, centered=True, gamma1=0.95, gamma2=0.8)
run('rmsprop', learning_rate=0.01, clip_weights=0.1)
run('adagrad', learning_rate=0.1)
run('adagrad', learning_rate=0.1, wd=0.1, eps=1e-5)
run('adadelta', rho=0.9)
run('adadelta', learning_rate=0.5, rho=0.8, epsilon=1e-4, wd=0.01)
run('ftrl', learning_rate=0.1)
run('ftrl', learning_rate=0.1, lamda1=0.05, beta=0.5)
run('signum', learning_rate=0.01)
run('signum', learning_rate=0.01, wd_lh=0.1)
run('signum', learning_rate=0.01, momentum=0.0)
run('adamax', learning_rate=0.01)
run('nadam', learning_rate=0.01)
run('lamb', learning_rate=0.01)
run('lamb', learning_rate=0.01, bias_correction=False, lower_bound=0.1, upper_bound=2.0)
run('ftml', learning_rate=0.01)
run('lars', learning_rate=0.1, momentum=0.9)
run('dcasgd', learning_rate=0.1)
run('dcasgd', learning_rate=0.1, lamda=0.5, wd=0.01)
run('ftml', learning_rate=0.01, beta1=0.5, wd=0.1, clip_gradient=0.2)
o = mx.optimizer.SGD(learning_rate=0.2, momentum=0.5)
run(o)
tr = run('adam', learning_rate=0.01)
print(tr.learning_rate, type(tr.optimizer).__name__)
tr.set_learning_rate(0.5)
print(tr.learning_rate, tr.optimizer.lr)
print(type(mx.optimizer.create('sgd')).__name__, type(mx.optimizer.Optimizer.create_optimizer('adam')).__name__)
for name in ['sgd', 'adam', 'rmsprop', 'adagrad', 'nag']:
    o = mx.optimizer.create(name)
    print(name, o.lr, o.wd, o.rescale_grad, o.clip_gradient, o.num_update, o.begin_num_update)
o = mx.optimizer.create('adam', learning_rate=0.1, wd=0.2)
print(o.beta1, o.beta2, o.epsilon, o.lr, o.wd)
# per-param lr_mult / wd_mult
net = make()
net.bias.lr_mult = 0.0
net.weight.wd_mult = 0.0
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'wd': 0.5})
with autograd.record():
    loss = gluon.loss.L2Loss()(net(X), Y)
loss.backward()
tr.step(4)
print(net.weight.data().asnumpy().round(5).tolist(), net.bias.data().asnumpy().round(5).tolist())
# updater directly
opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9)
upd = mx.optimizer.get_updater(opt)
w = nd.array([1.0, 2.0]); g = nd.array([0.5, -0.5])
for i in range(3):
    upd(0, g, w)
print(w.asnumpy().round(5).tolist())
opt = mx.optimizer.Adam(learning_rate=0.1)
st = opt.create_state(0, w)
opt.update(0, w, g, st)
print(w.asnumpy().round(5).tolist(), [s.asnumpy().round(5).tolist() for s in st])
