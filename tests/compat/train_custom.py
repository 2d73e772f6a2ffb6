import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn

rs = np.random.RandomState(5)
X = nd.array(rs.randn(12, 3).astype('float32'))
Y = nd.array((rs.randn(12, 2) * 0.5).astype('float32'))
W0 = rs.randn(3, 2).astype('float32') * 0.2

class Affine(nn.Block):
    def __init__(self, **kw):
        super(Affine, self).__init__(**kw)
        with self.name_scope():
            self.w = self.params.get('w', shape=(3, 2))
            self.b = self.params.get('b', shape=(2,), init=init.Constant(0.1))
            self.scale = self.params.get_constant('scale', nd.array([2.0]))

    def forward(self, x):
        return nd.dot(x, self.w.data()) * self.scale.data() + self.b.data()

def make():
    net = Affine(prefix='aff_')
    net.initialize(init.Zero())
    net.w.set_data(nd.array(W0))
    return net

net = make()
print(net, sorted(net.collect_params().keys()))
print(net.w, net.b.data().asnumpy().tolist(), net.scale.grad_req)
l2 = gluon.loss.L2Loss()
# manual update
lr = 0.05
for epoch in range(3):
    with autograd.record():
        loss = l2(net(X), Y).mean()
    loss.backward()
    for p in [net.w, net.b]:
        p.data()[:] -= lr * p.grad()
    print('manual epoch %d loss %.5f' % (epoch, loss.asscalar()))
print(net.w.data().asnumpy().round(4).tolist(), net.b.data().asnumpy().round(4).tolist())

# same with trainer.step(1): must give the same numbers
net = make()
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': lr})
for epoch in range(3):
    with autograd.record():
        loss = l2(net(X), Y).mean()
    loss.backward()
    tr.step(1)
    print('trainer epoch %d loss %.5f' % (epoch, loss.asscalar()))
print(net.w.data().asnumpy().round(4).tolist(), net.b.data().asnumpy().round(4).tolist())

# gradient accumulation with grad_req='add' over 3 mini-batches of 4
net = make()
net.collect_params().setattr('grad_req', 'add')
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': lr, 'momentum': 0.5})
for epoch in range(3):
    tot = 0.0
    for i in range(0, 12, 4):
        with autograd.record():
            loss = l2(net(X[i:i + 4]), Y[i:i + 4])
        loss.backward()
        tot += loss.sum().asscalar()
    tr.step(12)
    print('accum epoch %d loss %.5f grad %s' % (epoch, tot / 12, net.b.grad().asnumpy().round(4).tolist()))
    net.collect_params().zero_grad()
print(net.w.data().asnumpy().round(4).tolist(), net.b.data().asnumpy().round(4).tolist(),
      net.w.grad().asnumpy().tolist()[0])

# frozen parameter (grad_req null) and a param with lr_mult
net = make()
net.w.grad_req = 'null'
net.b.lr_mult = 2.0
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': lr})
for epoch in range(2):
    with autograd.record():
        loss = l2(net(X), Y)
    loss.backward()
    tr.step(X.shape[0])
print(net.w.data().asnumpy().round(4).tolist(), net.b.data().asnumpy().round(4).tolist())

# Sequential + custom loss with autograd.grad style training and a HybridBlock with F
class Scale(nn.HybridBlock):
    def __init__(self, **kw):
        super(Scale, self).__init__(**kw)
        self.alpha = self.params.get('alpha', shape=(1,), init=init.Constant(0.5))

    def hybrid_forward(self, F, x, alpha):
        return F.broadcast_mul(x, alpha)

seq = nn.HybridSequential(prefix='seq_')
with seq.name_scope():
    seq.add(nn.Dense(2, in_units=3, weight_initializer=init.Constant(0.1)), Scale())
seq.initialize()
seq.hybridize()
print(sorted(seq.collect_params().keys()))
tr = gluon.Trainer(seq.collect_params(), 'adagrad', {'learning_rate': 0.1})
for epoch in range(3):
    with autograd.record():
        loss = ((seq(X) - Y) ** 2).mean(axis=1)
    loss.backward()
    tr.step(12)
    print('seq epoch %d loss %.5f' % (epoch, loss.mean().asscalar()))
print(seq[1].alpha.data().asnumpy().round(4).tolist(), seq[0].bias.data().asnumpy().round(4).tolist())
