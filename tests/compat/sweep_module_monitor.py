# mx.monitor.Monitor on executors and modules (toc/toc_print lines, stat functions, patterns,
# monitor_all, fit(monitor=...)), and Module corners: states, label-less losses, regression
# outputs, metrics with output_names, misuse before bind.
import warnings

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

warnings.simplefilter('ignore')
log_to_stdout()


X = (np.sin(np.arange(48) * 0.37).reshape(12, 4) * 2).astype('float32')
Y = (X[:, 0] + X[:, 1] > 0).astype('float32')
W0 = (np.cos(np.arange(8) * 0.9).reshape(2, 4) * 0.25).astype('float32')
B0 = np.array([0.25, -0.5], dtype='float32')


def net():
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
    act = mx.sym.Activation(fc, act_type='relu', name='relu')
    return mx.sym.SoftmaxOutput(act, name='softmax')


def params():
    return {'fc_weight': mx.nd.array(W0), 'fc_bias': mx.nd.array(B0)}


def batch(n=4):
    return mx.io.DataBatch([mx.nd.array(X[:n])], [mx.nd.array(Y[:n])])


def stat_round(x):
    """A stat that prints the same under any float summation order."""
    return mx.nd.round(x.sum() * 100) / 100


print('--- Monitor on an executor')
exe = net().simple_bind(mx.cpu(), data=(4, 4), softmax_label=(4,))
exe.copy_params_from(params())
exe.arg_dict['data'][:] = X[:4]
exe.arg_dict['softmax_label'][:] = Y[:4]
mon = mx.monitor.Monitor(1, stat_func=stat_round, pattern='.*', sort=True)
mon.install(exe)
print(len(mon.exes), mon.step, mon.activated)
mon.tic()
exe.forward(is_train=False)
for n, k, v in mon.toc():
    print(n, k, repr(v))
mon.tic()
exe.forward(is_train=True)
mon.toc_print()
print(mon.toc(), mon.step)

print('--- monitor_all, unsorted, interval 2')
exe = net().simple_bind(mx.cpu(), data=(4, 4), softmax_label=(4,))
exe.copy_params_from(params())
exe.arg_dict['data'][:] = X[:4]
mon = mx.monitor.Monitor(2, stat_func=stat_round, pattern='relu.*|softmax_output', monitor_all=True,
                         sort=True)
mon.install(exe)
for i in range(3):
    mon.tic()
    exe.forward()
    print(i, mon.activated, [(n, k) for n, k, v in mon.toc()])

print('--- stats that are not one number')
exe = net().simple_bind(mx.cpu(), data=(4, 4), softmax_label=(4,))
exe.copy_params_from(params())
mon = mx.monitor.Monitor(1, stat_func=lambda x: mx.nd.round(x.reshape((-1,))[:2] * 10),
                         pattern='fc_bias|fc_weight', sort=True)
mon.install(exe)
mon.tic()
exe.forward()
mon.toc_print()
mon = mx.monitor.Monitor(1, stat_func=lambda x: [mx.nd.array([1.5]), mx.nd.array([2, 3])],
                         pattern='fc_bias')
mon.install(exe)
mon.tic()
exe.forward()
mon.toc_print()

print('--- Monitor in Module.fit')
mod = mx.mod.Module(net(), context=mx.cpu())
mon = mx.monitor.Monitor(2, stat_func=stat_round, pattern='fc_weight|softmax_output', sort=True)
mod.fit(mx.io.NDArrayIter(X, Y, batch_size=4), num_epoch=1, arg_params=params(), monitor=mon,
        optimizer_params={'learning_rate': 0.5})
attempt(lambda: mx.mod.Module(net()).install_monitor(mon))

print('--- a loss without labels (MakeLoss) and metric Loss')
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=1, name='fc')
loss = mx.sym.MakeLoss(mx.sym.mean(mx.sym.square(fc)), name='sq')
mod = mx.mod.Module(loss, label_names=None, context=mx.cpu())
mod.bind(data_shapes=[('data', (4, 4))])
mod.init_params(arg_params={'fc_weight': mx.nd.array(W0[:1]), 'fc_bias': mx.nd.array(B0[:1])})
mod.init_optimizer(optimizer_params={'learning_rate': 0.1})
metric = mx.metric.Loss()
for b in mx.io.NDArrayIter(X, batch_size=4):
    mod.forward_backward(b)
    mod.update()
    metric.update(None, mod.get_outputs())  # (MXNet's update_metric fails without labels)
print([(n, round(v, 4)) for n, v in metric.get_name_value()])
print(mod.output_names, mod.label_names, mod.label_shapes, r(mod.get_params()[0]['fc_weight']))
print(r(mod.predict(mx.io.NDArrayIter(X, batch_size=4))))

print('--- LinearRegressionOutput with mse/mae/rmse')
lab = mx.sym.var('lin_reg_label')
out = mx.sym.LinearRegressionOutput(mx.sym.FullyConnected(data, num_hidden=1, name='fc'), lab, name='lin_reg')
mod = mx.mod.Module(out, label_names=['lin_reg_label'], context=mx.cpu())
T = (X.sum(axis=1, keepdims=True) * 0.5).astype('float32')
train = mx.io.NDArrayIter(X, T, batch_size=4, label_name='lin_reg_label')
mod.fit(train, num_epoch=2, eval_metric=['mse', 'mae', 'rmse'],
        arg_params={'fc_weight': mx.nd.array(W0[:1]), 'fc_bias': mx.nd.array(B0[:1])},
        optimizer_params={'learning_rate': 0.05})
print([(n, round(v, 4)) for n, v in mod.score(train, mx.metric.MSE())])
print(mod.label_shapes)

print('--- metrics with output_names / label_names')
mod = mx.mod.Module(net(), context=mx.cpu())
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))], for_training=False)
mod.init_params(arg_params=params())
it = mx.io.NDArrayIter(X, Y, batch_size=4)
print(mod.score(it, mx.metric.Accuracy(output_names=['softmax_output'], label_names=['softmax_label'])))
attempt(lambda: mod.score(it, mx.metric.Accuracy(output_names=['other_output'])))
mod.forward(batch(), is_train=False)
m = mx.metric.create('acc')
mod.update_metric(m, [mx.nd.array(Y[:4])], pre_sliced=False)
print(m.get_name_value())
attempt(lambda: mod.update_metric(m, [mx.nd.array(Y[:4])], pre_sliced=True))

print('--- state_names, get_states/set_states')
s = mx.sym.var('state')
out = mx.sym.FullyConnected(data, num_hidden=2, name='fc') + s
mod = mx.mod.Module(out, label_names=None, state_names=['state'], context=mx.cpu())
mod.bind(data_shapes=[('data', (4, 4))], for_training=False)
mod.init_params(arg_params={'fc_weight': mx.nd.array(W0), 'fc_bias': mx.nd.array(B0)})
print(mod._state_names, [[st.shape for st in d] for d in mod.get_states(False)], r(mod.get_states(False)[0][0]))
mod.set_states(value=1.5)
print(r(mod.get_states(False)[0][0]))
mod.set_states(states=[[mx.nd.ones((4, 2)) * 2]])
mod.forward(mx.io.DataBatch([mx.nd.array(X[:4])]))
print(r(mod.get_outputs()[0]))
print([[a.shape for a in d] for d in mod.get_states(merge_multi_context=False)])
attempt(lambda: mod.set_states(states=[mx.nd.ones((4, 2))], value=1))
print(sorted(mod.get_params()[0]))

print('--- misuse before bind / init')
mod = mx.mod.Module(net(), context=mx.cpu())
for f in [lambda: mod.get_outputs(), lambda: mod.backward(), lambda: mod.update(),
          lambda: mod.data_shapes, lambda: mod.output_shapes, lambda: mod.label_shapes,
          lambda: mod.save_params('x.params'), lambda: mod.get_states(),
          lambda: mod.init_optimizer(), lambda: mod.save_optimizer_states('x.states'),
          lambda: mod.score(mx.io.NDArrayIter(X, Y, batch_size=4), 'acc')]:
    attempt(f)
print(mod.data_names, mod.output_names, mod.symbol.name)
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))], for_training=False)
mod.init_params(arg_params=params())
attempt(lambda: mod.backward())
attempt(lambda: mod.init_optimizer())
attempt(lambda: mod.get_input_grads())
mod.forward(batch(), is_train=False)
print(len(mod.get_outputs()), r(mod.get_outputs()[0][:, 0]))
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))], force_rebind=True)
print(mod.binded, mod.for_training, mod.params_initialized, r(mod.get_params()[0]['fc_bias']))
attempt(lambda: mx.mod.Module(net(), label_names=['nolabel']).bind(data_shapes=[('data', (4, 4))]))
attempt(lambda: mx.mod.Module(net()).bind(data_shapes=[('data', (4, 4))],
                                          label_shapes=[('other', (4,))]))
attempt(lambda: mx.mod.Module(net()).bind(data_shapes=[('data', (4, 5))],
                                          label_shapes=[('softmax_label', (4,))]))
