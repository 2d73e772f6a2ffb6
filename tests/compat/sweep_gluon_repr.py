import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import nn, rnn
from mxnet.gluon.contrib import nn as cnn


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


# layers with less common arguments
layers = [
    nn.Dense(4, activation='sigmoid', use_bias=False, in_units=2),
    nn.Dense(2, dtype='float16'), nn.Dense(3, flatten=False, in_units=7),
    nn.Conv1D(8, 5, groups=2, activation='relu'),
    nn.Conv2D(4, 3, layout='NHWC'), nn.Conv2D(4, (1, 3), dilation=(2, 1), activation='tanh'),
    nn.Conv2D(1, 1, strides=3, padding=0, in_channels=5, use_bias=False),
    nn.Conv3D(2, (1, 2, 3), strides=(1, 1, 2), padding=(0, 1, 1), in_channels=3),
    nn.Conv3D(2, 3, layout='NDHWC', dilation=2),
    nn.Conv1DTranspose(4, 3, strides=2, output_padding=1, in_channels=2),
    nn.Conv2DTranspose(6, (2, 3), strides=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2, in_channels=4),
    nn.Conv2DTranspose(3, 3, layout='NHWC', activation='relu'),
    nn.Conv3DTranspose(2, 2, strides=2, use_bias=False),
    nn.MaxPool1D(3, 1, 1, ceil_mode=True), nn.MaxPool1D(pool_size=4, layout='NWC'),
    nn.MaxPool2D((2, 3), (1, 2), (0, 1)), nn.MaxPool2D(layout='NHWC'),
    nn.MaxPool3D(pool_size=(1, 2, 2), strides=1, ceil_mode=True),
    nn.AvgPool1D(3, padding=1, count_include_pad=False), nn.AvgPool2D(3, 2, ceil_mode=True),
    nn.AvgPool2D((2, 2), layout='NHWC'), nn.AvgPool3D(2, 1, 1, count_include_pad=False, ceil_mode=True),
    nn.GlobalMaxPool1D(), nn.GlobalMaxPool3D(), nn.GlobalAvgPool2D(layout='NHWC'), nn.GlobalMaxPool1D(layout='NWC'),
    nn.BatchNorm(scale=False), nn.BatchNorm(use_global_stats=True, in_channels=2),
    nn.BatchNorm(momentum=0.1, epsilon=0.01, axis=-1),
    nn.InstanceNorm(axis=2, epsilon=1e-3, center=False, scale=True),
    nn.LayerNorm(axis=1, epsilon=1e-6, center=False), nn.LayerNorm(scale=False, in_channels=3),
    nn.GroupNorm(num_groups=4, epsilon=1e-3, center=False),
    nn.Embedding(100, 16, dtype='float16'), nn.Embedding(7, 3, sparse_grad=True),
    nn.Dropout(0.0), nn.Dropout(rate=0.75, axes=(0, 2)),
    nn.Activation('tanh'), nn.Activation('softrelu'), nn.Activation('softsign'),
    nn.LeakyReLU(0), nn.LeakyReLU(alpha=1.5), nn.PReLU(alpha_initializer=mx.init.Constant(0.1)),
    nn.PReLU(in_channels=3), nn.ELU(alpha=2), nn.Swish(beta=0.5),
    nn.HybridLambda(lambda F, x: F.relu(x)), nn.Lambda(nd.tanh), nn.HybridLambda('sigmoid'),
    cnn.Identity(), nn.Flatten(),
]
for l in layers:
    print(l)

# repr after deferred shapes have been filled in by a forward
net = nn.HybridSequential()
net.add(nn.Conv1D(3, 2), nn.Conv2DTranspose(2, 3) if False else nn.Activation('relu'))
net.initialize()
net(nd.ones((1, 2, 5)))
print(net)
ct = nn.Conv2DTranspose(2, 3, strides=2); ct.initialize(); ct(nd.ones((1, 5, 3, 3)))
print(ct)
c3 = nn.Conv3D(2, 2); c3.initialize(); c3(nd.ones((1, 4, 3, 3, 3)))
print(c3)
ln = nn.LayerNorm(); ln.initialize(); ln(nd.ones((2, 6)))
print(ln)
inorm = nn.InstanceNorm(); inorm.initialize(); inorm(nd.ones((2, 3, 4)))
print(inorm)
gn = nn.GroupNorm(num_groups=2); gn.initialize(); gn(nd.ones((2, 4, 3)))
print(gn)
pr = nn.PReLU(); pr.initialize(); pr(nd.ones((2, 3)))
print(pr)
dfl = nn.Dense(5, flatten=False); dfl.initialize(); dfl(nd.ones((2, 3, 4)))
print(dfl)

# nested containers of all kinds
outer = nn.Sequential()
with outer.name_scope():
    hs = nn.HybridSequential()
    with hs.name_scope():
        hs.add(nn.Dense(4), nn.Dropout(0.1))
    outer.add(hs)
    conc = cnn.Concurrent()
    with conc.name_scope():
        conc.add(nn.Dense(2), cnn.Identity(), nn.Lambda(lambda x: x + 1))
    outer.add(conc)
    hc = cnn.HybridConcurrent(axis=2)
    hc.add(nn.HybridSequential())
    outer.add(hc)
print(outer)
print([b.name for b in outer], [b.name for b in outer[1]])
print(nn.Sequential(), nn.HybridSequential())
e = nn.HybridSequential(); e.add(nn.HybridSequential())
print(e)

# a user block with non-child attributes and a list of blocks
class Res(gluon.HybridBlock):
    def __init__(self, ch, **kw):
        super(Res, self).__init__(**kw)
        self.ch = ch
        self.act = 'relu'
        with self.name_scope():
            self.conv = nn.Conv2D(ch, 3, padding=1)
            self.bn = nn.BatchNorm()
            self.extra = [nn.Dense(2)]
    def hybrid_forward(self, F, x):
        return F.relu(self.bn(self.conv(x)) + x)
r = Res(4)
print(r)
print(sorted(r.collect_params().keys()))
print(r.name, r.conv.name, r.bn.name, r.extra[0].name)

class Plain(gluon.Block):
    def forward(self, x):
        return x
print(Plain(), Plain().name, repr(Plain(prefix='pp_')))

# rnn layers and cells with extra arguments
rl = [rnn.LSTM(3, 3, layout='NTC', dropout=0.5, bidirectional=True),
      rnn.GRU(2, num_layers=2, input_size=5, bidirectional=True),
      rnn.RNN(4, activation='relu', layout='NTC', input_size=2),
      rnn.LSTM(5, projection_size=3),
      rnn.GRUCell(4, input_size=2), rnn.RNNCell(5, activation='tanh', input_size=1),
      rnn.LSTMCell(2, activation='relu', recurrent_activation='tanh'),
      rnn.DropoutCell(0.3), rnn.DropoutCell(0.1, axes=(1,)),
      rnn.ZoneoutCell(rnn.LSTMCell(2), zoneout_outputs=0.2, zoneout_states=0.3),
      rnn.ResidualCell(rnn.LSTMCell(4, input_size=4))]
for l in rl:
    print(l)
hseq = rnn.HybridSequentialRNNCell()
hseq.add(rnn.GRUCell(3)); hseq.add(rnn.LSTMCell(3))
print(hseq)
bi = rnn.BidirectionalCell(rnn.GRUCell(2, input_size=3), rnn.GRUCell(2, input_size=3))
print(bi)
g = rnn.GRU(3, input_size=2); g.initialize(); print(g)
gc = rnn.GRUCell(3); gc.initialize(); gc(nd.ones((1, 4)), gc.begin_state(1)); print(gc)

# names: automatic counters
print(nn.Dense(1).name, nn.Dense(1).name, nn.Conv2D(1, 1).name, nn.Conv2D(1, 1).name)
print(nn.BatchNorm().name, nn.Activation('relu').name, nn.Dropout(0.1).name, nn.MaxPool2D().name)
print(nn.HybridSequential().name, nn.Sequential().name, rnn.LSTM(2).name, rnn.LSTMCell(2).name)
print(nn.Embedding(2, 2).name, nn.LayerNorm().name, nn.Flatten().name, nn.GlobalAvgPool2D().name)
print(nn.Conv2DTranspose(1, 1).name, nn.AvgPool1D().name, nn.LeakyReLU(0.1).name, nn.PReLU().name)
print(nn.HybridLambda('tanh').name, nn.Lambda('tanh').name, cnn.HybridConcurrent().name, nn.GELU().name)
with mx.name.Prefix('blk_'):
    d0 = nn.Dense(1)
print(d0.name, d0.prefix)
class Named(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.d = nn.Dense(1)
            self.d2 = nn.Dense(1)
            self.s = nn.HybridSequential()
            with self.s.name_scope():
                self.s.add(nn.Dense(1), nn.Conv1D(1, 1))
    def hybrid_forward(self, F, x):
        return x
nm = Named(); nm2 = Named(prefix='top_')
print(nm.name, nm.d.name, nm.d2.name, nm.s.name, [b.name for b in nm.s])
print(nm2.name, nm2.d.prefix, nm2.s.prefix, [b.prefix for b in nm2.s])
print(sorted(nm2.collect_params().keys()))
print(nn.Dense(1, prefix='').name, nn.Dense(2, prefix='a').prefix)
