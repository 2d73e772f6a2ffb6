import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import nn, rnn

net = nn.Sequential()
net.add(nn.Dense(10, activation='relu'), nn.Dense(5, in_units=10), nn.Dropout(0.5))
print(net)
hnet = nn.HybridSequential()
with hnet.name_scope():
    hnet.add(nn.Conv2D(8, kernel_size=3, padding=1, activation='relu'))
    hnet.add(nn.MaxPool2D(pool_size=2, strides=2))
    inner = nn.HybridSequential()
    inner.add(nn.Conv2D(16, 3, strides=2, groups=1, in_channels=8), nn.BatchNorm(), nn.Activation('relu'))
    hnet.add(inner)
    hnet.add(nn.GlobalAvgPool2D(), nn.Flatten(), nn.Dense(3))
print(hnet)

class MyBlock(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.fc = nn.Dense(4)
            self.body = nn.HybridSequential()
            self.body.add(nn.Dense(2), nn.LeakyReLU(0.1))
    def hybrid_forward(self, F, x):
        return self.body(self.fc(x))
print(MyBlock())

layers = [
    nn.Dense(3), nn.Dense(3, in_units=4, activation='tanh'), nn.Dense(3, use_bias=False, flatten=False),
    nn.Conv1D(4, 3), nn.Conv1D(4, 3, strides=2, padding=1, dilation=2, in_channels=2),
    nn.Conv2D(6, (3, 5), strides=(1, 2), padding=(1, 2), groups=2, in_channels=4, use_bias=False),
    nn.Conv3D(2, 3), nn.Conv2DTranspose(3, 4, strides=2, padding=1, output_padding=1),
    nn.Conv1DTranspose(3, 2), nn.Conv3DTranspose(3, 2),
    nn.MaxPool1D(), nn.MaxPool2D(3, 2, 1), nn.MaxPool2D(ceil_mode=True), nn.MaxPool3D(),
    nn.AvgPool1D(), nn.AvgPool2D(count_include_pad=False), nn.AvgPool3D(),
    nn.GlobalAvgPool1D(), nn.GlobalAvgPool2D(), nn.GlobalMaxPool2D(), nn.GlobalAvgPool3D(),
    nn.BatchNorm(), nn.BatchNorm(axis=2, momentum=0.8, epsilon=1e-3, in_channels=5, center=False),
    nn.LayerNorm(), nn.LayerNorm(in_channels=6), nn.InstanceNorm(), nn.InstanceNorm(in_channels=3),
    nn.GroupNorm(), nn.GroupNorm(num_groups=2),
    nn.Dropout(0.3), nn.Dropout(0.2, axes=(1,)), nn.Embedding(10, 4), nn.Flatten(),
    nn.Activation('relu'), nn.Activation('sigmoid'), nn.LeakyReLU(0.2), nn.PReLU(), nn.ELU(), nn.ELU(0.5),
    nn.SELU(), nn.Swish(), nn.Swish(2.0), nn.GELU(),
    nn.Lambda(lambda x: x * 2), nn.HybridLambda('tanh'), nn.Lambda('relu'),
    nn.ReflectionPad2D(2),
]
for l in layers:
    print(l)

rlayers = [rnn.LSTM(8), rnn.LSTM(8, num_layers=2, bidirectional=True, input_size=4, dropout=0.2),
           rnn.GRU(5, layout='NTC'), rnn.RNN(6, activation='tanh'), rnn.RNN(6, 2, 'relu', input_size=3),
           rnn.LSTMCell(4), rnn.LSTMCell(4, input_size=3), rnn.GRUCell(3), rnn.RNNCell(3, activation='relu'),
           rnn.RNNCell(2, input_size=5)]
for l in rlayers:
    print(l)
seq = rnn.SequentialRNNCell()
seq.add(rnn.LSTMCell(4)); seq.add(rnn.DropoutCell(0.5)); seq.add(rnn.GRUCell(2))
print(seq)
print(rnn.BidirectionalCell(rnn.LSTMCell(3), rnn.LSTMCell(3)))
print(rnn.ResidualCell(rnn.GRUCell(3)))
print(rnn.ZoneoutCell(rnn.RNNCell(3), zoneout_outputs=0.1))

# after shape inference
hnet.initialize()
hnet(nd.ones((1, 3, 8, 8)))
print(hnet)
d = nn.Dense(3, activation='relu'); d.initialize(); d(nd.ones((2, 7)))
print(d)
bn = nn.BatchNorm(); bn.initialize(); bn(nd.ones((2, 3, 4)))
print(bn)
emb = nn.Embedding(10, 4); print(emb.weight)
lstm = rnn.LSTM(4); lstm.initialize(); lstm(nd.ones((2, 1, 3)))
print(lstm)
