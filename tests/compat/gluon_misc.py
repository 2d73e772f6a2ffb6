import mxnet as mx
from mxnet import gluon, nd, init, autograd
from mxnet.gluon import nn, rnn

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)

# initializers: printable forms and deterministic ones
for i in [init.Uniform(), init.Normal(0.5), init.Xavier(), init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2),
          init.MSRAPrelu(), init.Orthogonal(), init.Constant(2.5), init.One(), init.Zero(), init.Bilinear(), init.LSTMBias(1.0)]:
    print(type(i).__name__, i.dumps())
print(init.Mixed(['.*bias', '.*'], [init.Zero(), init.One()]).__class__.__name__)
w = gluon.Parameter('bil_weight', shape=(1, 1, 4, 4), init=init.Bilinear()); w.initialize()
print(w.data()[0, 0])
l = gluon.Parameter('x_bias', shape=(8,), init=init.LSTMBias(2.0)); l.initialize()
print(l.data())
mx.random.seed(1)
u = gluon.Parameter('u_weight', shape=(100, 50)); u.initialize(init.Uniform(0.1))
d = u.data().asnumpy()
print(d.dtype, bool(d.min() >= -0.1), bool(d.max() <= 0.1), bool(abs(d.mean()) < 0.01))
x = gluon.Parameter('x_weight', shape=(64, 32)); x.initialize(init.Xavier(magnitude=3))
xd = x.data().asnumpy(); import math
print(bool(abs(xd).max() <= math.sqrt(3 / 48.0) + 1e-6))
class MyInit(init.Initializer):
    def _init_weight(self, name, arr):
        arr[:] = 3.0
    def _init_bias(self, name, arr):
        arr[:] = -1.0
n2 = nn.Dense(2, in_units=2); n2.initialize(MyInit())
print(n2.weight.data(), n2.bias.data())
bn = nn.BatchNorm(in_channels=2); bn.initialize()
print(bn.gamma.data(), bn.beta.data(), bn.running_mean.data(), bn.running_var.data())
print(bn.running_mean.grad_req, bn.gamma.grad_req)
print(sorted(bn.collect_params().keys()))

# RNN layers: begin_state, shapes, outputs with states
lstm = rnn.LSTM(4, num_layers=2, input_size=3)
lstm.initialize(init.Constant(0.1))
xs = nd.ones((5, 2, 3))
st = lstm.begin_state(batch_size=2)
print([s.shape for s in st])
out, new_st = lstm(xs, st)
print(out.shape, [s.shape for s in new_st], out[-1].asnumpy().round(5).tolist())
out = lstm(xs)
print(out.shape)
gru = rnn.GRU(3, layout='NTC', bidirectional=True, input_size=2)
gru.initialize(init.Constant(0.05))
o = gru(nd.ones((2, 4, 2)))
print(o.shape, o[0, -1].asnumpy().round(5).tolist())
print(sorted(gru.collect_params().keys()))
cell = rnn.LSTMCell(3, input_size=2)
cell.initialize(init.Constant(0.1))
s = cell.begin_state(batch_size=1)
o, s2 = cell(nd.ones((1, 2)), s)
print(o.asnumpy().round(5).tolist(), len(s2))
outs, states = cell.unroll(3, nd.ones((1, 3, 2)), layout='NTC', merge_outputs=True)
print(outs.shape, outs.asnumpy().round(5)[0, -1].tolist())
print(sorted(cell.collect_params().keys()))
print(cell.state_info(2))
err(lambda: rnn.LSTM(4)(nd.ones((5, 2, 3)), lstm.begin_state(batch_size=3)))

# block API
net = nn.HybridSequential()
net.add(nn.Dense(3, in_units=2), nn.Dense(1, in_units=3))
print(len(net), type(net[0]).__name__, [type(b).__name__ for b in net[0:2]])
print(net[-1].name)
err(lambda: net[5])
print(list(net._children.keys()))
net.initialize(init.One())
net.hybridize()
print(net(nd.ones((2, 2))))
print(net(nd.ones((1, 2))))
net.hybridize(False)
with autograd.record():
    y = net(nd.ones((1, 2)))
y.backward()
print(net[0].weight.grad())
class Bad(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return x
b = Bad()
err(lambda: b.register_child(nn.Dense(2)) if False else b(nd.ones(2), nd.ones(2)))
seq = nn.Sequential()
err(lambda: nn.HybridSequential().add(nn.Sequential()))
class WithParam(gluon.Block):
    def __init__(self):
        super().__init__()
        self.w = self.params.get('w', shape=(2,))
wp = WithParam(); print(wp.w, wp.name, wp.prefix)
d = nn.Dense(2)
print(d.name, d.prefix, d.params.prefix)
with d.name_scope():
    inner = nn.Dense(1)
print(inner.name, inner.prefix)
print(nn.Dense(2, prefix='x_').name)
