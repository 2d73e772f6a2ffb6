import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn, rnn

rs = np.random.RandomState(7)
T, N, C, H = 5, 6, 2, 4
X = rs.randn(N, T, C).astype('float32')
Y = X.sum(axis=(1, 2)).reshape(N, 1).astype('float32') * 0.3

class Model(gluon.Block):
    def __init__(self, cell, **kw):
        super(Model, self).__init__(**kw)
        with self.name_scope():
            self.rnn = cell
            self.out = nn.Dense(1, in_units=H)

    def forward(self, x):
        h = self.rnn(x)
        return self.out(h[:, -1, :])

def build(kind):
    layer = {'lstm': rnn.LSTM, 'gru': rnn.GRU, 'rnn': rnn.RNN}[kind](H, layout='NTC', input_size=C)
    net = Model(layer)
    net.initialize(init.Constant(0.0))
    for name, p in sorted(net.collect_params().items()):
        vals = np.sin(np.arange(np.prod(p.shape)) * 0.37 + len(name)).reshape(p.shape) * 0.3
        p.set_data(nd.array(vals.astype('float32')))
    return net

def train(kind, opt, params, epochs=4):
    net = build(kind)
    print(kind, sorted((k, v.shape) for k, v in net.collect_params().items()))
    tr = gluon.Trainer(net.collect_params(), opt, params)
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(X, Y), batch_size=3)
    l2 = gluon.loss.L2Loss()
    for epoch in range(epochs):
        tot = 0.0
        for data, label in loader:
            with autograd.record():
                loss = l2(net(data), label)
            loss.backward()
            grads = [p.grad() for p in net.collect_params().values() if p.grad_req != 'null']
            norm = gluon.utils.clip_global_norm(grads, 0.5)
            tr.step(data.shape[0])
            tot += loss.sum().asscalar()
        print('%s %s epoch %d loss %.4f norm %.3f' % (kind, opt, epoch, tot / N, norm))
    p = net.out.weight.data().asnumpy().round(3).tolist()
    print(kind, 'out.weight', p)
    return net

train('lstm', 'rmsprop', {'learning_rate': 0.01})
train('lstm', 'adagrad', {'learning_rate': 0.1})
train('gru', 'adam', {'learning_rate': 0.01, 'wd': 1e-4})
train('rnn', 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})

# LSTMCell unrolled with explicit states
cell = rnn.LSTMCell(3, input_size=2, prefix='cell_')
cell.initialize(init.Constant(0.1))
x = nd.array(X[:2])
outs, states = cell.unroll(T, x, layout='NTC', merge_outputs=True)
print(outs.shape, [s.shape for s in states], outs[0, -1].asnumpy().round(4).tolist())
print(cell.begin_state(batch_size=2)[0].shape, sorted(cell.collect_params().keys()))
# LSTM with begin_state and returned states
lstm = rnn.LSTM(3, num_layers=2, input_size=2)
lstm.initialize(init.Constant(0.05))
st = lstm.begin_state(batch_size=2)
out, new_st = lstm(nd.array(X[:2].transpose(1, 0, 2)), st)
print(out.shape, [s.shape for s in new_st], new_st[1][1].asnumpy().round(4).tolist())
