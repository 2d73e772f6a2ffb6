import mxnet as mx
from mxnet import gluon, nd, autograd
from mxnet.gluon import rnn
from mxnet.gluon.contrib import rnn as crnn


def fill(cell):
    """Deterministic weights: a slow ramp through each parameter, names sorted."""
    for i, (name, p) in enumerate(sorted(cell.collect_params().items())):
        n = 1
        for d in p.shape:
            n *= d
        p.set_data((nd.arange(n).reshape(p.shape) % 7 - 3) / (10.0 + i))


def show(name, arrays):
    print(name, [a.shape for a in arrays], [round(float(a.sum().asscalar()), 3) for a in arrays])


x1 = (nd.arange(2 * 3 * 4 * 6).reshape((2, 3, 4, 6)) % 5 - 2) / 4        # N T C W
for cls in [crnn.Conv1DRNNCell, crnn.Conv1DLSTMCell, crnn.Conv1DGRUCell]:
    cell = cls((4, 6), 5, 3, 3, i2h_pad=1, prefix='c_')
    cell.initialize()
    fill(cell)
    print(cell, sorted((k, v.shape) for k, v in cell.collect_params().items()))
    print(cell.state_info(2))
    out, states = cell.unroll(3, x1, layout='NTC', merge_outputs=True)
    show(cls.__name__, [out] + states)
    print(out[1, 2, :, :3].asnumpy().round(4).tolist())
    x = x1.copy()
    x.attach_grad()
    with autograd.record():
        out, _ = cell.unroll(3, x, layout='NTC', merge_outputs=True)
    out.backward()
    print('grad', round(float(x.grad.sum().asscalar()), 3), round(float(cell.i2h_weight.grad().abs().sum().asscalar()), 3))

x2 = (nd.arange(2 * 2 * 3 * 5 * 5).reshape((2, 2, 3, 5, 5)) % 9 - 4) / 8  # N T C H W
for cls in [crnn.Conv2DLSTMCell, crnn.Conv2DGRUCell]:
    cell = cls((3, 5, 5), 4, (3, 1), 5, i2h_dilate=(1, 2), h2h_dilate=1,
               prefix='d_')
    cell.initialize()
    fill(cell)
    cell.hybridize()
    print(cell, cell.i2h_weight.shape, cell.h2h_weight.shape, cell.state_info(2)[0]['shape'])
    out, states = cell.unroll(2, x2, layout='NTC', merge_outputs=False)
    show(cls.__name__, out + states)

cell = crnn.Conv3DRNNCell((2, 3, 4, 4), 3, 1, (1, 3, 3), activation='softsign', prefix='e_')
cell.initialize()
fill(cell)
x3 = (nd.arange(2 * 2 * 2 * 3 * 4 * 4).reshape((2, 2, 2, 3, 4, 4)) % 7 - 3) / 6
out, states = cell.unroll(2, x3, layout='NTC', merge_outputs=True)
show('Conv3DRNNCell', [out] + states)

# deferred input channels
cell = crnn.Conv1DLSTMCell((0, 6), 2, (3,), (3,))
cell.initialize()
cell(x1[:, 0], cell.begin_state(2))
print(cell.i2h_weight.shape)

for bad in [dict(h2h_kernel=2), dict(i2h_kernel=(3, 3))]:
    args = dict(input_shape=(4, 6), hidden_channels=5, i2h_kernel=3, h2h_kernel=3)
    args.update(bad)
    try:
        crnn.Conv1DRNNCell(**args)
    except AssertionError:
        print('AssertionError')

# unroll with valid_length: outputs past each length are zero, states taken at the length
seq = (nd.arange(3 * 5 * 4).reshape((3, 5, 4)) % 11 - 5) / 7                 # N T C
valid = nd.array([2, 5, 3])
for cell in [rnn.RNNCell(3, prefix='r_'), rnn.LSTMCell(3, prefix='l_'), rnn.GRUCell(3, prefix='g_'),
             rnn.BidirectionalCell(rnn.LSTMCell(2, prefix='bl_'), rnn.GRUCell(2, prefix='br_'))]:
    cell.initialize()
    cell(seq[:, 0], cell.begin_state(3)) if not isinstance(cell, rnn.BidirectionalCell) else \
        cell.unroll(5, seq)
    fill(cell)
    out, states = cell.unroll(5, seq, layout='NTC', merge_outputs=True, valid_length=valid)
    print(type(cell).__name__, out.shape, [s.shape for s in states])
    print(out[:, :, 0].asnumpy().round(4).tolist())
    print([s[:, 0].asnumpy().round(4).tolist() for s in states])
    outs, _ = cell.unroll(5, seq.swapaxes(0, 1), layout='TNC', merge_outputs=False, valid_length=valid)
    print(len(outs), outs[4].shape, outs[2][:, 0].asnumpy().round(4).tolist())


class BiLSTM(gluon.nn.HybridBlock):
    """MXNet's test_bidirectional_unroll_valid_length network."""
    def __init__(self, rnn_size, time_step, **kwargs):
        super(BiLSTM, self).__init__(**kwargs)
        self.time_step = time_step
        with self.name_scope():
            self.bi_lstm = gluon.rnn.BidirectionalCell(gluon.rnn.LSTMCell(rnn_size, prefix='rnn_l0_'),
                                                       gluon.rnn.LSTMCell(rnn_size, prefix='rnn_r0_'),
                                                       output_prefix='lstm_bi_')

    def hybrid_forward(self, F, inputs, valid_len):
        return self.bi_lstm.unroll(self.time_step, inputs, valid_length=valid_len, layout='NTC',
                                   merge_outputs=True)


# a hybridized BidirectionalCell unrolled with valid_length (one step and three)
for length in (1, 3):
    net = BiLSTM(4, length)
    net.initialize(mx.init.Constant(0.05))
    x = mx.nd.arange(2 * length * 5).reshape((2, length, 5)) / 10
    vl = mx.nd.array([length, 1])
    ref, rs = net(x, vl)
    net.hybridize()
    out, st = net(x, vl)
    print(out.shape, [float(abs(a - b).max().asscalar()) < 1e-6 for a, b in zip([out] + st, [ref] + rs)])
    print(out[:, :, ::3].asnumpy().round(4).tolist())
