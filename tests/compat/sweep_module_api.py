# The Module API beyond fit: score/predict/iter_predict, parameters, bucketing, sequential and
# Python modules, Monitor lines.
import os


import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r


log_to_stdout()


X = (np.sin(np.arange(40) * 0.37).reshape(10, 4) * 2).astype('float32')
Y = (X[:, 0] + X[:, 1] > 0).astype('float32')
W0 = (np.cos(np.arange(8) * 0.9).reshape(2, 4) * 0.3).astype('float32')
B0 = np.array([0.05, -0.05], dtype='float32')


def net(prefix=''):
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=2, name=prefix + 'fc')
    return mx.sym.SoftmaxOutput(fc, name='softmax')


def params(prefix=''):
    return {prefix + 'fc_weight': mx.nd.array(W0), prefix + 'fc_bias': mx.nd.array(B0)}


def bound(for_training=False, batch_size=4):
    mod = mx.mod.Module(net(), context=mx.cpu())
    mod.bind(data_shapes=[('data', (batch_size, 4))], label_shapes=[('softmax_label', (batch_size,))],
             for_training=for_training)
    mod.init_params(arg_params=params())
    return mod


print('--- predict / iter_predict / score with a padded last batch')
it = mx.io.NDArrayIter(X, Y, batch_size=4)
mod = bound()
out = mod.predict(it)
print(type(out).__name__, out.shape, r(out.sum(axis=1)))
out = mod.predict(it, merge_batches=False)
print(len(out), [[o.shape for o in batch] for batch in out])
out = mod.predict(it, always_output_list=True)
print(type(out).__name__, [o.shape for o in out])
out = mod.predict(it, num_batch=1)
print(out.shape)
print(mod.predict(mx.nd.array(X[:4])).shape)
for outputs, nbatch, batch in mod.iter_predict(it):
    print(nbatch, [o.shape for o in outputs], batch.pad, r(outputs[0][:, 1], 3))
print(mod.score(it, 'acc'))
print([(n, round(v, 5)) for n, v in mod.score(it, ['acc', 'ce'], num_batch=2)])
print(mod.score(mx.io.NDArrayIter(X, Y, batch_size=4, last_batch_handle='discard'), mx.metric.Accuracy()))
calls = []
mod.score(it, 'acc', batch_end_callback=lambda p: calls.append(p.nbatch),
          score_end_callback=lambda p: calls.append(('end', p.nbatch)), epoch=3)
print(calls)
print(mod.output_shapes, mod.data_shapes, mod.label_shapes)
print(mod.data_names, mod.label_names, mod.output_names)

print('--- two outputs')
data = mx.sym.var('data')
two = mx.sym.Group([mx.sym.FullyConnected(data, num_hidden=3, name='a'),
                    mx.sym.FullyConnected(data, num_hidden=1, name='b')])
mod2 = mx.mod.Module(two, label_names=None, context=mx.cpu())
mod2.bind(data_shapes=[('data', (4, 4))], for_training=False)
mod2.init_params(mx.init.Constant(0.1))
out = mod2.predict(mx.io.NDArrayIter(X, batch_size=4))
print(type(out).__name__, [o.shape for o in out], [r(o.sum()) for o in out])
out = mod2.predict(mx.io.NDArrayIter(X, batch_size=4), merge_batches=False)
print([[o.shape for o in b] for b in out])
print(mod2.output_names, mod2.output_shapes, mod2.label_shapes)

print('--- get_params / set_params / init_params')
mod = bound()
arg, aux = mod.get_params()
print(sorted(arg), aux, r(arg['fc_bias']))
attempt(lambda: mod.set_params({'fc_weight': mx.nd.array(W0)}, {}))
mod.set_params({'fc_weight': mx.nd.array(W0 * 2)}, {}, allow_missing=True)
print(r(mod.get_params()[0]['fc_weight']), r(mod.get_params()[0]['fc_bias']))
extra = dict(params(), other=mx.nd.ones((2,)))
attempt(lambda: mod.set_params(extra, {}))
mod.set_params(extra, {}, allow_extra=True)
print(sorted(mod.get_params()[0]))
attempt(lambda: mod.init_params(arg_params={'fc_bias': mx.nd.zeros((2,))}, force_init=True))
attempt(lambda: mod.init_params(arg_params={'fc_weight': mx.nd.zeros((3, 4)),
                                            'fc_bias': mx.nd.zeros((2,))}, force_init=True))
mod.init_params(mx.init.One(), force_init=True)
print(r(mod.get_params()[0]['fc_weight']))
mod.init_params(mx.init.Zero())
print(r(mod.get_params()[0]['fc_weight']))
fresh = mx.mod.Module(net(), context=mx.cpu())
attempt(lambda: fresh.init_params())
attempt(lambda: fresh.get_params())
attempt(lambda: fresh.predict(mx.io.NDArrayIter(X, batch_size=4)))
attempt(lambda: fresh.forward(mx.io.DataBatch([mx.nd.array(X[:4])])))
print(fresh.binded, fresh.params_initialized, fresh.optimizer_initialized)
attempt(lambda: fresh.bind(data_shapes=[('wrong', (4, 4))]))
attempt(lambda: mx.mod.Module(net(), data_names=['x']))
fresh.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))])
attempt(lambda: fresh.init_optimizer())
attempt(lambda: fresh.update())
fresh.bind(data_shapes=[('data', (4, 4))])
print(fresh.binded)

print('--- forward / backward / update by hand')
mod = bound(for_training=True)
mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': 1.0})
batch = mx.io.DataBatch([mx.nd.array(X[:4])], [mx.nd.array(Y[:4])])
mod.forward(batch, is_train=True)
print(r(mod.get_outputs()[0]))
mod.backward()
mod.update()
print(r(mod.get_params()[0]['fc_weight']))
metric = mx.metric.create('acc')
mod.update_metric(metric, batch.label)
print(metric.get_name_value())
mod.forward(mx.io.DataBatch([mx.nd.array(X[:2])], [mx.nd.array(Y[:2])]), is_train=False)
print(mod.get_outputs()[0].shape, mod.data_shapes)
attempt(lambda: mod.get_input_grads())
mod.save_params('p.params')
print(sorted(mx.nd.load('p.params')))
mod.load_params('p.params')
mod.save_optimizer_states('o.states')
mod.load_optimizer_states('o.states')
print(sorted(os.listdir('.')))

print('--- Monitor')
mod = bound(for_training=True)
# (not fc_backward_*: MXNet 1.9.1 reports uninitialised memory for those)
mon = mx.monitor.Monitor(1, pattern='fc_(weight|bias|output)', sort=True)
mod.install_monitor(mon)
for i in range(2):
    mon.tic()
    mod.forward(batch, is_train=True)
    mod.backward()
    mon.toc_print()
mon2 = mx.monitor.Monitor(2, stat_func=lambda x: x.max(), pattern='.*weight', sort=True)
mod = bound(for_training=True)
mod.install_monitor(mon2)
for i in range(3):
    mon2.tic()
    mod.forward(batch, is_train=True)
    res = mon2.toc()
    print(i, [(n, k, v) for n, k, v in res])

print('--- BucketingModule')


def sym_gen(key):
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
    out = mx.sym.SoftmaxOutput(fc * (1.0 / key), name='softmax')
    return out, ('data',), ('softmax_label',)


bmod = mx.mod.BucketingModule(sym_gen, default_bucket_key=2, context=mx.cpu())
bmod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))])
bmod.init_params(arg_params=params())
bmod.init_optimizer(optimizer_params={'learning_rate': 0.5})
print(bmod._default_bucket_key, sorted(bmod._buckets), bmod.data_names, bmod.output_names)
for key in [2, 4, 2]:
    b = mx.io.DataBatch([mx.nd.array(X[:4])], [mx.nd.array(Y[:4])], bucket_key=key,
                        provide_data=[mx.io.DataDesc('data', (4, 4))],
                        provide_label=[mx.io.DataDesc('softmax_label', (4,))])
    bmod.forward(b, is_train=True)
    print(key, r(bmod.get_outputs()[0][:, 0], 3))
    bmod.backward()
    bmod.update()
print(sorted(bmod._buckets), r(bmod.get_params()[0]['fc_bias']))
bmod.save_checkpoint('bk', 1)
print(sorted(f for f in os.listdir('.') if f.startswith('bk')))
bmod.switch_bucket(4, [('data', (4, 4))], [('softmax_label', (4,))])
print(bmod._curr_bucket_key, bmod.symbol.list_outputs())
bmod2 = mx.mod.BucketingModule(sym_gen, default_bucket_key=3, context=mx.cpu())
attempt(lambda: bmod2.get_params())
attempt(lambda: bmod2.init_params())

print('--- SequentialModule with a PythonLossModule')
data = mx.sym.var('data')
feat = mx.mod.Module(mx.sym.FullyConnected(data, num_hidden=2, name='fc'), label_names=None,
                     context=mx.cpu())


def grad_func(scores, labels):
    probs = mx.nd.softmax(scores)
    onehot = mx.nd.one_hot(labels, 2)
    return (probs - onehot) / scores.shape[0]


loss = mx.mod.PythonLossModule(grad_func=grad_func)
print(loss.data_names, loss.output_names, loss.label_shapes, loss.get_params())
seq = mx.mod.SequentialModule()
seq.add(feat).add(loss, take_labels=True, auto_wiring=True)
train = mx.io.NDArrayIter(X, Y, batch_size=5)
seq.fit(train, num_epoch=2, arg_params=params(), optimizer_params={'learning_rate': 0.5},
        eval_metric=mx.metric.Accuracy())
arg, aux = seq.get_params()
print(sorted(arg), r(arg['fc_bias']))
print(seq.data_names, seq.output_names, seq.output_shapes)
print(seq.score(train, 'acc'))
print(seq.predict(train).shape)
print(loss.output_shapes, loss.data_shapes, loss.label_shapes)
attempt(lambda: loss.install_monitor(None))
attempt(lambda: mx.mod.PythonLossModule().backward())

print('--- SequentialModule of two Modules')
d = mx.sym.var('data')
m1 = mx.mod.Module(mx.sym.Activation(mx.sym.FullyConnected(d, num_hidden=4, name='fc1'), 'relu'),
                   label_names=None, context=mx.cpu())
m2 = mx.mod.Module(net('top_'), context=mx.cpu())
seq = mx.mod.SequentialModule()
seq.add(m1).add(m2, take_labels=True, auto_wiring=True)
seq.bind(data_shapes=[('data', (5, 4))], label_shapes=[('softmax_label', (5,))])
seq.init_params(mx.init.Constant(0.1))
seq.init_optimizer(optimizer_params={'learning_rate': 0.1})
print(seq.output_shapes, seq.label_shapes, seq.data_shapes)
print(sorted(seq.get_params()[0]))
print(r(seq.predict(train)))
attempt(lambda: mx.mod.SequentialModule().add(m1, bogus=True))
print(len(seq._modules), seq._metas)


print('--- a custom PythonModule')
class Doubler(mx.mod.PythonModule):
    def __init__(self):
        super(Doubler, self).__init__(['data'], None, ['double_output'])

    def _compute_output_shapes(self):
        return [('double_output', self._data_shapes[0][1])]

    def forward(self, data_batch, is_train=None):
        self._out = data_batch.data[0] * 2

    def get_outputs(self, merge_multi_context=True):
        return [self._out]


dm = Doubler()
print(dm.binded, dm.data_names, dm.output_names, dm.data_shapes)
dm.bind(data_shapes=[('data', (4, 4))])
print(dm.output_shapes, dm.label_shapes, dm.get_params())
dm.init_params()
dm.init_optimizer()
dm.update()
print(dm.params_initialized, dm.optimizer_initialized)
dm.bind(data_shapes=[('data', (4, 4))])
dm.forward(mx.io.DataBatch([mx.nd.array(X[:4])]))
print(r(dm.get_outputs()[0][0]))
m = mx.metric.create('mse')
dm.update_metric(m, [mx.nd.zeros((4, 4))])
print(m.get_name_value())
attempt(lambda: Doubler().bind(data_shapes=[('x', (4, 4))]))
attempt(lambda: Doubler().bind(data_shapes=[('data', (4, 4))], grad_req='add'))


class Bare(mx.mod.PythonModule):
    pass


attempt(lambda: Bare(['data'], None, ['o']).bind(data_shapes=[('data', (2,))]))
