# SequentialModule and Python modules in training (validation, input gradients, duplicate names),
# checkpoint helpers of mx.model, and callbacks across epochs.
import os
import warnings

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

warnings.simplefilter('ignore')
log_to_stdout()


X = (np.sin(np.arange(60) * 0.37).reshape(15, 4) * 2).astype('float32')
Y = (X[:, 0] + X[:, 1] > 0).astype('float32')
W1 = (np.cos(np.arange(12) * 0.7).reshape(3, 4) * 0.4).astype('float32')
W2 = (np.sin(np.arange(6) * 1.3).reshape(2, 3) * 0.5).astype('float32')


def first():
    d = mx.sym.var('data')
    return mx.sym.Activation(mx.sym.FullyConnected(d, num_hidden=3, name='fc1'), 'tanh', name='t1')


def second(name='fc2'):
    d = mx.sym.var('data')
    return mx.sym.SoftmaxOutput(mx.sym.FullyConnected(d, num_hidden=2, name=name), name='softmax')


def params():
    return {'fc1_weight': mx.nd.array(W1), 'fc1_bias': mx.nd.zeros((3,)),
            'fc2_weight': mx.nd.array(W2), 'fc2_bias': mx.nd.array([0.1, -0.1])}


def seq_of(*mods):
    seq = mx.mod.SequentialModule()
    seq.add(mods[0])
    for m in mods[1:]:
        seq.add(m, take_labels=True, auto_wiring=True)
    return seq


print('--- fit with validation, callbacks and a checkpoint per module')
m1 = mx.mod.Module(first(), label_names=None, context=mx.cpu())
m2 = mx.mod.Module(second(), context=mx.cpu())
seq = seq_of(m1, m2)
train = mx.io.NDArrayIter(X, Y, batch_size=5)
val = mx.io.NDArrayIter(X[:10], Y[:10], batch_size=5)
seq.fit(train, eval_data=val, num_epoch=2, arg_params=params(), eval_metric=['acc', 'ce'],
        optimizer_params={'learning_rate': 0.5},
        batch_end_callback=mx.callback.Speedometer(5, frequent=2),
        epoch_end_callback=mx.callback.do_checkpoint('seq'))
arg, aux = seq.get_params()
print(sorted(arg), r(arg['fc2_bias']), r(arg['fc1_weight'][0]))
print(sorted(f for f in os.listdir('.') if f.startswith('seq')))
print(seq.symbol)  # (so do_checkpoint writes no symbol file)
a, _ = mx.model.load_params('seq', 2)
print(sorted(a))
print([(n, round(v, 4)) for n, v in seq.score(val, ['acc', 'ce'])])
out = seq.predict(val, merge_batches=False)
print(len(out), [[o.shape for o in b] for b in out])

print('--- input gradients through the chain')
m1 = mx.mod.Module(first(), label_names=None, context=mx.cpu())
m2 = mx.mod.Module(second(), context=mx.cpu())
seq = seq_of(m1, m2)
seq.bind(data_shapes=[('data', (5, 4))], label_shapes=[('softmax_label', (5,))], inputs_need_grad=True)
seq.init_params(arg_params=params())
seq.forward(mx.io.DataBatch([mx.nd.array(X[:5])], [mx.nd.array(Y[:5])]), is_train=True)
seq.backward()
print(r(m1.get_input_grads()[0][0]), r(m2.get_input_grads()[0][0]))
print(m1.inputs_need_grad, m2.inputs_need_grad, m1.label_shapes, m2.label_shapes)
attempt(lambda: seq_of(mx.mod.Module(first(), label_names=None), mx.mod.Module(second())).bind(
    data_shapes=[('data', (5, 4))], for_training=False, inputs_need_grad=True))

print('--- duplicate parameter names, empty sequence')
dup = seq_of(mx.mod.Module(first(), label_names=None), mx.mod.Module(
    mx.sym.Activation(mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3, name='fc1'), 'relu'),
    label_names=None))
dup.bind(data_shapes=[('data', (5, 4))])
attempt(lambda: dup.init_params())
attempt(lambda: mx.mod.SequentialModule().bind(data_shapes=[('data', (5, 4))]))
empty = mx.mod.SequentialModule()
print(empty.data_names, empty.output_names, empty.binded)

print('--- a PythonLossModule with validation and its own gradient')


class Hinge(mx.mod.PythonLossModule):
    def _backward_impl(self):
        y = self._labels.asnumpy().astype('int64')
        s = self._scores.asnumpy()
        g = np.zeros_like(s)
        g[np.arange(len(y)), y] = -1.0
        g[np.arange(len(y)), 1 - y] = 1.0
        self._scores_grad = mx.nd.array(g * 0.1)


fc = mx.mod.Module(mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc2'),
                   label_names=None, context=mx.cpu())
seq = seq_of(fc, Hinge(name='hinge', data_names=['scores']))
seq.fit(mx.io.NDArrayIter(X, Y, batch_size=5), eval_data=mx.io.NDArrayIter(X[:10], Y[:10], batch_size=5),
        num_epoch=2, arg_params={'fc2_weight': mx.nd.array(W1[:2]),
                                 'fc2_bias': mx.nd.zeros((2,))},
        optimizer_params={'learning_rate': 0.3})
print(r(seq.get_params()[0]['fc2_weight']))
print(seq.output_names, seq.output_shapes)

print('--- save/load helpers of mx.model')
arg = {'w': mx.nd.array([[1, 2], [3, 4]]), 'b': mx.nd.array([0.5, -0.5])}
aux = {'mean': mx.nd.array([0.25])}
sym = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
mx.model.save_checkpoint('mp', 3, sym, arg, aux)
mx.model.save_checkpoint('mp', 12, sym, arg, aux, remove_amp_cast=False)
print(sorted(f for f in os.listdir('.') if f.startswith('mp')))
print(sorted(mx.nd.load('mp-0003.params')))
a, x = mx.model.load_params('mp', 3)
print(sorted(a), sorted(x), r(a['w']))
s, a, x = mx.model.load_checkpoint('mp', 12)
print(s.list_outputs(), sorted(a), sorted(x))
mx.nd.save('bad-0001.params', {'weird:x': mx.nd.ones((1,))})
attempt(lambda: mx.model.load_params('bad', 1))
attempt(lambda: mx.model.load_params('mp', 4))
mx.nd.save('nokind-0001.params', {'x': mx.nd.ones((1,))})
attempt(lambda: mx.model.load_params('nokind', 1))
mx.nd.save('empty-0001.params', {})
print(mx.model.load_params('empty', 1))
mod = mx.mod.Module(sym, label_names=None, context=mx.cpu())
mod.bind(data_shapes=[('data', (1, 2))])
attempt(lambda: mod.load_params('bad-0001.params'))

print('--- Speedometer and log_train_metric across epochs')
m = mx.metric.Accuracy()
sp = mx.callback.Speedometer(10, frequent=2, auto_reset=False)
lt = mx.callback.log_train_metric(3, auto_reset=False)
for epoch in range(2):
    m.reset()
    for nbatch in range(5):
        m.update([mx.nd.array([1, 0, nbatch % 2])], [mx.nd.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]])])
        p = mx.model.BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=m, locals=None)
        sp(p)
        lt(p)
print(sp.last_count, sp.init, sp.frequent, sp.batch_size)
print(m.get_name_value(), m.get_global_name_value())
