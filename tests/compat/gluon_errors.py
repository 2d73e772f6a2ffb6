import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)

net = nn.Dense(3)
err(lambda: net(nd.ones((2, 4))))
net2 = nn.Dense(3, in_units=5); net2.initialize()
err(lambda: net2(nd.ones((2, 4))))
net3 = nn.HybridSequential(); net3.add(nn.Dense(3)); net3.hybridize()
err(lambda: net3(nd.ones((2, 4))))
err(lambda: gluon.Trainer(nn.Dense(3).collect_params(), 'sgd'))
c = nn.Conv2D(4, 3); c.initialize()
err(lambda: c(nd.ones((2, 3, 5))))
err(lambda: nn.Conv2D(4, 3, layout='NCW'))
err(lambda: nn.Activation('nosuch')(nd.ones(2)))
b = nn.BatchNorm(); b.initialize()
print(b(nd.ones((2, 3))).shape)
p = nn.MaxPool2D(); err(lambda: p(nd.ones((1, 1, 1, 1))))
d = nn.Dense(2, in_units=2); d.initialize()
err(lambda: d.weight.grad_req == 'x' or setattr(d.weight, 'grad_req', 'x'))
err(lambda: d.collect_params()['nosuch'])
err(lambda: setattr(d, 'weight', gluon.Parameter('other', shape=(2, 2))))
err(lambda: d.initialize(init='nosuch', force_reinit=True))
err(lambda: nn.Sequential().add(1))
x = nd.ones((1, 2))
d = nn.Dense(2, in_units=2); d.initialize(init.One())
with autograd.record():
    y = d(x)
err(lambda: d.weight.grad().asnumpy() if True else None)
y.backward()
print(d.weight.grad())
e = nn.Embedding(5, 2); e.initialize(init.One())
print(e(nd.array([0, 4, 7])).shape)
err(lambda: nn.Dropout(1.5))
lstm = gluon.rnn.LSTM(3); lstm.initialize()
err(lambda: lstm(nd.ones((2, 3))))
err(lambda: gluon.loss.SoftmaxCrossEntropyLoss()(nd.ones((2, 3)), nd.ones((4,))))
err(lambda: gluon.nn.Dense(2).cast('float16') or gluon.nn.Dense(2, dtype='nosuch'))
