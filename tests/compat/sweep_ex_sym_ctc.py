# MXNet 1.9's example/ctc (LSTM OCR on captchas) on tiny synthetic sequences: a hand-unrolled
# two-layer LSTM whose initial states are data inputs, SliceChannel over time, ctc_loss and
# MakeLoss/BlockGrad heads in a Group, a Module with five data names fitted with a numpy metric
# (allow_extra_outputs), a custom DataIter, a deterministic Initializer subclass, predict/score.
import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

log_to_stdout()

SEQ, FEAT, HID, LAYERS, CLASSES, NLABEL, BATCH = 4, 3, 5, 2, 4, 2, 2


def cell(x, state, p, t, layer):
    """One LSTM step from four FullyConnected/SliceChannel/Activation pieces."""
    i2h = mx.sym.FullyConnected(data=x, weight=p['i2h_weight'], bias=p['i2h_bias'],
                                num_hidden=HID * 4, name='t%d_l%d_i2h' % (t, layer))
    h2h = mx.sym.FullyConnected(data=state[1], weight=p['h2h_weight'], bias=p['h2h_bias'],
                                num_hidden=HID * 4, name='t%d_l%d_h2h' % (t, layer))
    gates = mx.sym.SliceChannel(i2h + h2h, num_outputs=4, name='t%d_l%d_slice' % (t, layer))
    i = mx.sym.Activation(gates[0], act_type='sigmoid')
    g = mx.sym.Activation(gates[1], act_type='tanh')
    f = mx.sym.Activation(gates[2], act_type='sigmoid')
    o = mx.sym.Activation(gates[3], act_type='sigmoid')
    c = f * state[0] + i * g
    return c, o * mx.sym.Activation(c, act_type='tanh')


def unroll():
    params, states = [], []
    for layer in range(LAYERS):
        params.append({k: mx.sym.Variable('l%d_%s' % (layer, k))
                       for k in ('i2h_weight', 'i2h_bias', 'h2h_weight', 'h2h_bias')})
        states.append((mx.sym.Variable('l%d_init_c' % layer), mx.sym.Variable('l%d_init_h' % layer)))
    data = mx.sym.Variable('data')
    label = mx.sym.Variable('label')
    steps = mx.sym.SliceChannel(data=data, num_outputs=SEQ, squeeze_axis=1)
    hidden_all = []
    for t in range(SEQ):
        h = steps[t]
        for layer in range(LAYERS):
            states[layer] = cell(h, states[layer], params[layer], t, layer)
            h = states[layer][1]
        hidden_all.append(h)
    pred_fc = mx.sym.FullyConnected(data=mx.sym.Concat(*hidden_all, dim=0), num_hidden=CLASSES)
    pred_ctc = mx.sym.Reshape(data=pred_fc, shape=(-4, SEQ, -1, 0))
    ctc = mx.sym.MakeLoss(mx.sym.contrib.ctc_loss(data=pred_ctc, label=label))
    probs = mx.sym.BlockGrad(mx.sym.MakeLoss(mx.sym.SoftmaxActivation(data=pred_fc)))
    return mx.sym.Group([probs, ctc])


STATE_NAMES = ['l%d_init_%s' % (layer, k) for layer in range(LAYERS) for k in 'ch']


class Batch(object):
    def __init__(self, data_names, data, label_names, label):
        self.data, self.label = data, label
        self.data_names, self.label_names = data_names, label_names
        self.pad, self.index, self.bucket_key = 0, None, None

    @property
    def provide_data(self):
        return [(n, x.shape) for n, x in zip(self.data_names, self.data)]

    @property
    def provide_label(self):
        return [(n, x.shape) for n, x in zip(self.label_names, self.label)]


class SeqIter(mx.io.DataIter):
    """Sequences whose label is the class of the largest feature at a few steps."""

    def __init__(self, count, offset=0):
        super(SeqIter, self).__init__()
        self.count, self.offset = count, offset
        self.init_states = [(n, (BATCH, HID)) for n in STATE_NAMES]
        self.init_arrays = [mx.nd.zeros(s) for _, s in self.init_states]
        self.provide_data = [('data', (BATCH, SEQ, FEAT))] + self.init_states
        self.provide_label = [('label', (BATCH, NLABEL))]

    def __iter__(self):
        for k in range(self.count):
            seed = self.offset + k
            data = np.cos(np.arange(BATCH * SEQ * FEAT) * (0.31 + 0.07 * seed)).reshape(BATCH, SEQ, FEAT)
            label = 1 + (np.abs(data[:, :NLABEL, :]).argmax(axis=2) % (CLASSES - 1))
            yield Batch(['data'] + STATE_NAMES, [mx.nd.array(data)] + self.init_arrays,
                        ['label'], [mx.nd.array(label)])

    def reset(self):
        pass


class Wave(mx.init.Initializer):
    """Deterministic weights: a cosine wave scaled by the fan-in; biases zero."""

    def _init_weight(self, name, arr):
        n = int(np.prod(arr.shape))
        arr[:] = (np.cos(np.arange(n) * 0.7 + len(name)) / np.sqrt(arr.shape[1])).reshape(arr.shape)

    def _init_bias(self, name, arr):
        arr[:] = 0.0


def remove_blank(row):
    out = []
    for v in row:
        if v == 0:
            break
        out.append(int(v))
    return out


def ctc_label(p):
    out, prev = [], 0
    for c in p:
        if c != 0 and c != prev:
            out.append(c)
        prev = c
    return out


def accuracy(label, pred):
    hit = 0.0
    for i in range(label.shape[0]):
        p = ctc_label([int(np.argmax(pred[k * label.shape[0] + i])) for k in range(SEQ)])
        hit += p == remove_blank(label[i])
    return hit / label.shape[0]


print('--- the symbol')
net = unroll()
print(net.list_arguments())
print(net.list_outputs())
print(net.list_auxiliary_states())
shapes = dict([('data', (BATCH, SEQ, FEAT)), ('label', (BATCH, NLABEL))] + [(n, (BATCH, HID)) for n in STATE_NAMES])
arg_shapes, out_shapes, aux_shapes = net.infer_shape(**shapes)
print(out_shapes, aux_shapes)
print(sorted(zip(net.list_arguments(), arg_shapes))[:6])
internals = net.get_internals().list_outputs()
print(len(internals), [n for n in internals if n.startswith('t0_l0')])
import json
nodes = json.loads(net.tojson())['nodes']
ops = sorted(set(n['op'] for n in nodes))
print(ops)
print([n['attrs'] for n in nodes if n['op'] in ('Reshape', 'SliceChannel')][:2])
part = net.get_internals()['t3_l1_slice_output3']
attempt(lambda: part.infer_shape(**shapes))
print(part.infer_shape(**{k: v for k, v in shapes.items() if k != 'label'})[1])

print('--- Module with the states as data')
mod = mx.mod.Module(net, data_names=['data'] + STATE_NAMES, label_names=['label'], context=mx.cpu())
train = SeqIter(3)
mod.bind(data_shapes=train.provide_data, label_shapes=train.provide_label)
mod.init_params(initializer=Wave())
print(mod.data_names, mod.label_names, mod.output_names)
print(mod.output_shapes)
arg, aux = mod.get_params()
print(sorted((k, v.shape) for k, v in arg.items()))
batch = next(iter(train))
mod.forward(batch, is_train=True)
probs, loss = mod.get_outputs()
print(probs.shape, r(probs[:3], 4), loss.shape, r(loss, 4))
mod.backward()
grads = dict(zip(mod._exec_group.param_names, mod._exec_group.grad_arrays))
print(r(grads['l0_h2h_bias'][0][:6], 4), r(grads['fullyconnected0_bias'][0], 4))
print(accuracy(batch.label[0].asnumpy(), probs.asnumpy()))

print('--- fit with a numpy metric over the extra outputs')
mod = mx.mod.Module(net, data_names=['data'] + STATE_NAMES, label_names=['label'], context=mx.cpu())
mod.fit(train_data=SeqIter(3), eval_data=SeqIter(2, offset=5),
        eval_metric=mx.metric.np(accuracy, allow_extra_outputs=True),
        optimizer='sgd', optimizer_params={'learning_rate': 0.05, 'momentum': 0.9, 'wd': 0.00001},
        initializer=Wave(), num_epoch=2,
        batch_end_callback=mx.callback.Speedometer(BATCH, 2))
arg, _ = mod.get_params()
print(r(arg['fullyconnected0_bias'], 4))
print(r(arg['l1_i2h_bias'][:5], 4))

print('--- score and predict')
print(mod.score(SeqIter(2, offset=5), mx.metric.np(accuracy, allow_extra_outputs=True)))
out = mod.predict(SeqIter(2, offset=5))
print(type(out).__name__, [o.shape for o in out], r(out[1], 3))
metric = mx.metric.np(accuracy)
attempt(lambda: mod.score(SeqIter(1), metric))

print('--- the loss alone under the ndarray front end')
x = mx.nd.array(np.sin(np.arange(SEQ * BATCH * CLASSES) * 0.5).reshape(SEQ, BATCH, CLASSES))
lab = mx.nd.array([[1, 2], [3, 0]])
print(r(mx.nd.contrib.ctc_loss(x, lab), 4), r(mx.nd.contrib.CTCLoss(x, lab, blank_label='first'), 4))
print(r(mx.nd.contrib.ctc_loss(x, lab - 1, blank_label='last'), 4))
print(r(mx.nd.contrib.ctc_loss(x, lab, mx.nd.array([4, 3]), use_data_lengths=True), 4))
print(r(mx.nd.contrib.ctc_loss(x, lab, None, mx.nd.array([1, 1]), use_label_lengths=True), 4))
