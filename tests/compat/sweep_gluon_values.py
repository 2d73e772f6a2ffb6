import mxnet as mx
from mxnet import gluon, nd, init, autograd
from mxnet.gluon import nn, rnn
from mxnet.gluon.contrib import nn as cnn


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def show(name, y):
    print(name, y.shape, y.dtype.__name__ if hasattr(y.dtype, '__name__') else y.dtype,
          y.asnumpy().astype('float64').round(4).ravel().tolist()[:12])


def run(layer, x, ini=init.One(), name=None):
    layer.initialize(ini)
    show(name or layer.__class__.__name__, layer(x))
    return layer


x1 = nd.arange(12).reshape((1, 2, 6)) / 10
x2 = nd.arange(32).reshape((1, 2, 4, 4)) / 10
x3 = nd.arange(54).reshape((1, 2, 3, 3, 3)) / 10

# convolutions with constant weights
run(nn.Conv1D(3, 3), x1)
run(nn.Conv1D(2, 2, strides=2, padding=1, dilation=1), x1, init.Constant(0.5))
run(nn.Conv1D(4, 3, groups=2, use_bias=False), x1)
run(nn.Conv2D(2, 3, padding=1), x2)
run(nn.Conv2D(3, (2, 3), strides=(2, 1), dilation=(2, 1), activation='relu'), x2, init.Constant(-0.1))
run(nn.Conv2D(2, 1, groups=2, in_channels=2), x2, init.Constant(2))
run(nn.Conv3D(2, 2), x3)
run(nn.Conv3D(1, (1, 2, 2), strides=2, padding=1), x3, init.Constant(0.25))
run(nn.Conv1DTranspose(2, 3, strides=2), x1)
run(nn.Conv1DTranspose(2, 2, strides=2, padding=1, output_padding=1), x1)
run(nn.Conv2DTranspose(1, 3, strides=2, padding=1, output_padding=1), x2)
run(nn.Conv2DTranspose(4, 2, groups=2, use_bias=False, in_channels=2), x2, init.Constant(0.5))
run(nn.Conv3DTranspose(1, 2, strides=2), x3)
# pooling
for p in [nn.MaxPool1D(2), nn.MaxPool1D(4, 2, ceil_mode=True), nn.AvgPool1D(3, 2, 1),
          nn.AvgPool1D(3, 2, 1, count_include_pad=False), nn.GlobalAvgPool1D(), nn.GlobalMaxPool1D()]:
    run(p, x1)
for p in [nn.MaxPool2D(), nn.MaxPool2D(3, 2, ceil_mode=True), nn.MaxPool2D(3, 2, 1),
          nn.AvgPool2D(3, 2, 1), nn.AvgPool2D(3, 2, 1, count_include_pad=False), nn.AvgPool2D(3, 2, ceil_mode=True),
          nn.GlobalAvgPool2D(), nn.GlobalMaxPool2D()]:
    run(p, x2)
for p in [nn.MaxPool3D(2), nn.AvgPool3D(2, 1), nn.MaxPool3D(2, 2, ceil_mode=True), nn.GlobalAvgPool3D(),
          nn.GlobalMaxPool3D()]:
    run(p, x3)
run(nn.MaxPool2D(2, layout='NHWC'), x2.transpose((0, 2, 3, 1)))
run(nn.GlobalAvgPool2D(layout='NHWC'), x2.transpose((0, 2, 3, 1)))
# normalisation in predict and train mode
bn = run(nn.BatchNorm(), x2)
with autograd.record():
    y = bn(x2)
show('bn_train', y)
print(bn.running_mean.data().asnumpy().round(4).tolist(), bn.running_var.data().asnumpy().round(4).tolist())
bn2 = nn.BatchNorm(axis=-1, center=False, scale=False, momentum=0.5); bn2.initialize()
with autograd.train_mode():
    show('bn_last', bn2(x1))
print(bn2.running_mean.data().asnumpy().round(4).tolist(), bn2.running_var.data().asnumpy().round(4).tolist())
bn3 = nn.BatchNorm(use_global_stats=True); bn3.initialize()
with autograd.record():
    show('bn_global', bn3(x1))
run(nn.InstanceNorm(), x1)
run(nn.InstanceNorm(center=False, scale=True), x2, init.Constant(2))
run(nn.LayerNorm(), x1)
run(nn.LayerNorm(axis=1, epsilon=1e-3), x2, init.Constant(0.5))
run(nn.GroupNorm(num_groups=2), nd.arange(24).reshape((2, 4, 3)))
run(nn.GroupNorm(num_groups=1, center=False), x2)
# embedding, dense, flatten, dropout
run(nn.Embedding(4, 3), nd.array([[0, 3], [1, 1]]), init.Constant(0.5))
run(nn.Embedding(3, 2, dtype='float64'), nd.array([2, 0]))
run(nn.Dense(3), x2)
run(nn.Dense(3, flatten=False), x2, init.Constant(0.1))
run(nn.Dense(2, use_bias=False, activation='tanh'), x1)
run(nn.Dense(2, dtype='float64'), nd.ones((1, 2), dtype='float64'))
run(nn.Flatten(), x3)
run(nn.Dropout(0.5), x1)
d = nn.Dropout(0.0)
with autograd.record():
    show('drop0', d(x1))
# activations
xa = nd.array([[-3, -1, -0.5, 0, 0.5, 1, 3]])
for a in [nn.Activation('relu'), nn.Activation('sigmoid'), nn.Activation('tanh'), nn.Activation('softrelu'),
          nn.Activation('softsign'), nn.LeakyReLU(0.1), nn.ELU(), nn.ELU(0.5), nn.SELU(), nn.Swish(),
          nn.Swish(2.0), nn.PReLU(), nn.PReLU(alpha_initializer=init.Constant(0.5)),
          nn.HybridLambda(lambda F, x: F.square(x)), nn.Lambda(lambda x: x + 1), nn.HybridLambda('exp'),
          cnn.Identity()]:
    a.initialize()
    show(a.name.rstrip('0123456789'), a(xa))
print('gelu', nn.GELU()(xa).asnumpy().round(3))
pr = nn.PReLU(in_channels=3, alpha_initializer=init.Constant(0.2)); pr.initialize()
show('prelu3', pr(nd.array([[-1, -2, 3]])))
# hybridized equals imperative
net = nn.HybridSequential()
net.add(nn.Conv2D(3, 3, padding=1), nn.BatchNorm(), nn.Activation('relu'), nn.MaxPool2D(),
        nn.Flatten(), nn.Dense(4), nn.Dropout(0.5), nn.Dense(2))
net.initialize(init.Constant(0.05))
show('imp', net(x2))
net.hybridize()
show('hyb', net(x2))
show('hyb2', net(nd.concat(x2, x2, dim=0)))
# rnn layers with constant init
lstm = rnn.LSTM(3, num_layers=2, layout='NTC')
run(lstm, nd.ones((2, 3, 2)), init.Constant(0.1))
run(rnn.GRU(2, bidirectional=True), nd.ones((3, 1, 2)), init.Constant(0.2))
run(rnn.RNN(2, activation='relu'), nd.ones((2, 1, 3)), init.Constant(0.3))
cell = rnn.RNNCell(2, input_size=3); cell.initialize(init.Constant(0.1))
o, st = cell(nd.ones((1, 3)), cell.begin_state(1))
show('rnncell', o)
outs, sts = cell.unroll(2, nd.ones((1, 2, 3)), layout='NTC', merge_outputs=False)
print(len(outs), [s.shape for s in sts])
# summary
sn = nn.Sequential()
sn.add(nn.Dense(4, in_units=3, activation='relu'), nn.Dropout(0.1), nn.Dense(2, in_units=4))
sn.initialize()
sn.summary(nd.ones((2, 3)))
class Br(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.c = cnn.HybridConcurrent(axis=1)
            self.c.add(nn.Conv2D(2, 1, in_channels=2), nn.Conv2D(3, 3, padding=1, in_channels=2), cnn.Identity())
            self.p = nn.GlobalAvgPool2D()
            self.e = nn.Embedding(10, 2)
    def hybrid_forward(self, F, x, idx):
        return self.p(self.c(x)).flatten(), self.e(idx)
br = Br(); br.initialize()
br.summary(x2, nd.array([1, 2]))
rn = nn.Sequential()
rn.add(rnn.LSTM(4, input_size=2), nn.Dense(1, flatten=False, in_units=4))
rn.initialize()
rn.summary(nd.ones((5, 2, 2)))
nz = nn.HybridSequential(); nz.add(nn.BatchNorm(in_channels=2), nn.LayerNorm(in_channels=2), nn.PReLU())
nz.initialize()
nz.summary(nd.ones((1, 2)))
# errors
attempt(lambda: nn.Dense(2)(nd.ones((1, 2))))
attempt(lambda: nn.Conv2D(2, 3, in_channels=2)(x2))
attempt(lambda: nn.BatchNorm(in_channels=2)(x2))
e1 = nn.Dense(3, in_units=4); e1.initialize()
attempt(lambda: e1(nd.ones((2, 5))))
attempt(lambda: e1(nd.ones((2, 2, 2))).shape)
e1f = nn.Dense(3, in_units=4, flatten=False); e1f.initialize()
attempt(lambda: e1f(nd.ones((2, 2, 2))))
c2 = nn.Conv2D(2, 3, in_channels=3); c2.initialize()
attempt(lambda: c2(x2))
attempt(lambda: c2(nd.ones((1, 3, 2, 2))))
c1 = nn.Conv1D(2, 3); c1.initialize()
attempt(lambda: c1(x2))
gn = nn.GroupNorm(num_groups=3); gn.initialize()
attempt(lambda: gn(x2))
ln4 = nn.LayerNorm(in_channels=4); ln4.initialize()
attempt(lambda: ln4(x1))
attempt(lambda: nn.Conv2D(2, 3, layout='NCHW', strides=(1, 1, 1)))
attempt(lambda: nn.Conv1D(2, 3, padding=(1, 1), in_channels=2))
attempt(lambda: nn.Conv2DTranspose(2, 3, dilation=(1,)))
attempt(lambda: nn.Conv2D(2, (3, 3, 3)))
attempt(lambda: nn.Conv2DTranspose(2, 3, output_padding=(1, 1, 1)))
mp = nn.MaxPool2D(2, strides=(1,), padding=(0, 0))
print(mp)
attempt(lambda: mp(x2))
print(nn.AvgPool1D(2, 1, (1, 1)))
attempt(lambda: nn.MaxPool3D((2, 2)))
attempt(lambda: nn.Conv3D(2, 3, layout='NHWC'))
attempt(lambda: nn.MaxPool2D(layout='NCW'))
attempt(lambda: nn.Conv1DTranspose(2, 3, layout='NWC'))
attempt(lambda: type(nn.Activation(lambda x: x)).__name__)
attempt(lambda: nn.HybridLambda(5))
attempt(lambda: nn.Lambda('no_such_function'))
attempt(lambda: nn.HybridLambda('no_such_function'))
attempt(lambda: nn.Embedding(3, 2)(nd.array([1])))
attempt(lambda: rnn.LSTM(2, layout='CTN'))
attempt(lambda: rnn.RNN(2, activation='sigmoid'))
r1 = rnn.GRU(2, input_size=3); r1.initialize()
attempt(lambda: r1(nd.ones((2, 1, 4))))
attempt(lambda: r1(nd.ones((2, 1, 3)), [nd.ones((1, 2, 2))]))
# dtype of the input against the layer's parameters
dd = nn.Dense(2, in_units=2); dd.initialize(init.One())
attempt(lambda: dd(nd.ones((1, 2), dtype='float64')))
attempt(lambda: dd(nd.ones((1, 2), dtype='int32')))
dd.cast('float64')
attempt(lambda: dd(nd.ones((1, 2), dtype='float64')).dtype)
cc = nn.Conv2D(1, 1, in_channels=2); cc.initialize(init.One())
attempt(lambda: cc(x2.astype('float64')))
cc.hybridize()
attempt(lambda: cc(x2.astype('float64')))
for blk in [nn.BatchNorm(in_channels=2), nn.LayerNorm(in_channels=2), nn.GroupNorm(num_groups=1),
            nn.PReLU(), nn.Conv1DTranspose(2, 1, in_channels=2)]:
    blk.initialize()
    attempt(lambda: blk(nd.ones((1, 2, 3), dtype='float64')).dtype)
bnh = nn.BatchNorm(in_channels=2); bnh.initialize()
attempt(lambda: bnh(nd.ones((1, 2, 3), dtype='float16')).dtype)
bnh.cast('float16')
print(bnh.gamma.dtype, bnh.running_mean.dtype)
attempt(lambda: bnh(nd.ones((1, 2, 3), dtype='float16')).dtype)
bn64 = nn.BatchNorm(in_channels=2); bn64.initialize(); bn64.cast('float64')
attempt(lambda: bn64(nd.ones((1, 2, 3), dtype='float64')).dtype)
rl = rnn.LSTM(2, input_size=2); rl.initialize()
attempt(lambda: rl(nd.ones((3, 1, 2), dtype='float64')))
rl.cast('float64')
attempt(lambda: rl(nd.ones((3, 1, 2), dtype='float64')).dtype)
ee = nn.Embedding(4, 2); ee.initialize(init.One())
attempt(lambda: ee(nd.array([1, 2], dtype='int32')).dtype)
# symbols: unknown weight dtypes follow the data's
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
print(fc.infer_type(data='float64'))
ex = fc.simple_bind(mx.cpu(), data=(1, 3), type_dict={'data': 'float64'})
print(ex.forward()[0].dtype)
# recurrent cells: wrong states, valid_length, modifier cells
c = rnn.LSTMCell(2, input_size=3); c.initialize(init.Constant(0.1))
attempt(lambda: c(nd.ones((1, 3)), [nd.zeros((1, 2))]))
attempt(lambda: c(nd.ones((1, 3)), [nd.zeros((1, 3)), nd.zeros((1, 2))]))
attempt(lambda: c(nd.ones((1, 4)), c.begin_state(1)))
st = c.begin_state(2, func=nd.ones)
print(st)
o, s = c.unroll(3, nd.ones((2, 3, 3)), layout='NTC', merge_outputs=True, valid_length=nd.array([1, 3]))
print(o.asnumpy().round(4).tolist(), [x.asnumpy().round(4).tolist() for x in s])
attempt(lambda: c.unroll(2, nd.ones((2, 3, 3)), layout='NTC'))
l = rnn.LSTM(2, input_size=3, layout='NTC'); l.initialize(init.Constant(0.1))
attempt(lambda: l(nd.ones((2, 4, 3)), [nd.zeros((1, 2, 2))]))
attempt(lambda: l(nd.ones((2, 4, 3)), [nd.zeros((1, 3, 2)), nd.zeros((1, 3, 2))]))
o, s = l(nd.ones((2, 4, 3)), l.begin_state(2))
print(o.shape, [x.shape for x in s], o.asnumpy().round(4)[0, -1].tolist())
l.hybridize()
o2, s2 = l(nd.ones((2, 4, 3)), l.begin_state(2))
print((o - o2).abs().sum().asscalar())
g = rnn.GRU(2, num_layers=2, input_size=3); g.initialize(init.Constant(0.1))
print(sorted(g.collect_params().keys()))
print([p.shape for p in g.collect_params().values()])
print(g.state_info(3))
attempt(lambda: g(nd.ones((4, 2, 5))))
b = rnn.BidirectionalCell(rnn.LSTMCell(2, input_size=3), rnn.LSTMCell(2, input_size=3)); b.initialize(init.Constant(0.1))
o, s = b.unroll(2, nd.ones((1, 2, 3)), layout='NTC', merge_outputs=True)
print(o.shape, len(s), o.asnumpy().round(4).tolist())
attempt(lambda: b(nd.ones((1, 3)), b.begin_state(1)))
z = rnn.ZoneoutCell(rnn.GRUCell(2, input_size=3), zoneout_outputs=0.0, zoneout_states=0.0); z.initialize(init.Constant(0.1))
print(z(nd.ones((1, 3)), z.begin_state(batch_size=1, func=nd.zeros))[0].asnumpy().round(4).tolist())
r = rnn.ResidualCell(rnn.GRUCell(3, input_size=3)); r.initialize(init.Constant(0.1))
# (a modifier cell's default begin_state(): Symbols in MXNet, NDArrays here, docs/MIGRATING.md)
print(r(nd.ones((1, 3)), r.begin_state(batch_size=1, func=nd.zeros))[0].asnumpy().round(4).tolist())
# bad layer arguments: at construction or at the first forward
def fwd(blk, shape):
    blk.initialize()
    return blk(nd.ones(shape)).shape
attempt(lambda: nn.LeakyReLU(-1))
attempt(lambda: nn.Dropout(-0.1))
attempt(lambda: fwd(nn.Dropout(1.0), (2, 2)))
attempt(lambda: fwd(nn.Dense(-1), (2, 2)))
attempt(lambda: fwd(nn.Conv2D(0, 3), (1, 1, 4, 4)))
attempt(lambda: fwd(nn.Conv2D(2, 0), (1, 1, 4, 4)))
attempt(lambda: fwd(nn.Conv2D(2, 3, strides=0), (1, 1, 4, 4)))
attempt(lambda: fwd(nn.Conv2D(2, 5), (1, 1, 4, 4)))
attempt(lambda: fwd(nn.Conv2D(3, 1, groups=2), (1, 2, 4, 4)))
attempt(lambda: fwd(nn.Conv2D(2, 1, groups=2), (1, 3, 4, 4)))
attempt(lambda: fwd(nn.MaxPool2D(0), (1, 1, 4, 4)))
attempt(lambda: fwd(nn.MaxPool2D(5), (1, 1, 4, 4)))
attempt(lambda: fwd(nn.MaxPool2D(3, padding=2), (1, 1, 4, 4)))
attempt(lambda: fwd(nn.AvgPool1D(2), (1, 4)))
attempt(lambda: fwd(nn.GlobalAvgPool2D(), (1, 4)))
attempt(lambda: fwd(nn.BatchNorm(momentum=2), (2, 2)))
attempt(lambda: fwd(nn.BatchNorm(axis=3), (2, 2)))
attempt(lambda: fwd(nn.LayerNorm(axis=3), (2, 2)))
attempt(lambda: fwd(nn.Flatten(), (2,)))
attempt(lambda: fwd(nn.Dense(3, flatten=False), (2,)))
attempt(lambda: fwd(nn.Dense(3), (2,)))
attempt(lambda: fwd(nn.Conv1DTranspose(2, 3, strides=2, output_padding=2), (1, 1, 4)))
attempt(lambda: fwd(nn.Embedding(4, 2), (2, 3)))
attempt(lambda: fwd(rnn.LSTM(2, num_layers=0), (1, 1, 2)))
attempt(lambda: fwd(rnn.RNN(0), (1, 1, 2)))
attempt(lambda: fwd(nn.Activation('softmax'), (1, 2)))
attempt(lambda: fwd(nn.Activation('gelu'), (1, 2)))
attempt(lambda: fwd(nn.Swish(beta=0), (1, 2)))
attempt(lambda: fwd(nn.ReflectionPad2D(3), (1, 1, 2, 2)))
attempt(lambda: fwd(nn.ReflectionPad2D(1), (1, 2, 2)))
attempt(lambda: type(nn.Conv2D(0, 3)).__name__)
attempt(lambda: type(nn.Conv2D(2, 0)).__name__)
attempt(lambda: type(nn.Conv2D(2, 3, strides=0)).__name__)
attempt(lambda: type(nn.Conv2D(3, 1, groups=2)).__name__)
attempt(lambda: type(nn.Conv1DTranspose(2, 3, strides=2, output_padding=2)).__name__)
attempt(lambda: type(nn.Conv2D(2, 3, dilation=0)).__name__)
attempt(lambda: type(nn.Conv2D(2, 3, padding=-1)).__name__)
