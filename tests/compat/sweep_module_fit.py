# Module.fit as training scripts use it: its log lines, the callbacks of mx.callback, metrics in
# the logs, checkpoint files and what load_checkpoint gives back.
import os

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout


log_to_stdout()


X = (np.sin(np.arange(48) * 0.37).reshape(12, 4) * 2).astype('float32')
Y = (X[:, 0] + X[:, 1] > 0).astype('float32')
W0 = (np.cos(np.arange(8) * 0.9).reshape(2, 4) * 0.3).astype('float32')
B0 = np.array([0.05, -0.05], dtype='float32')


def net():
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
    return mx.sym.SoftmaxOutput(fc, name='softmax')


def fresh_params():
    return {'fc_weight': mx.nd.array(W0), 'fc_bias': mx.nd.array(B0)}


def iters(batch_size=4):
    return (mx.io.NDArrayIter(X, Y, batch_size=batch_size),
            mx.io.NDArrayIter(X[:8], Y[:8], batch_size=batch_size))


def show_params(mod):
    arg, aux = mod.get_params()
    for k in sorted(arg):
        print(k, arg[k].shape, np.round(arg[k].asnumpy().astype('float64'), 4).tolist())
    print('aux', sorted(aux))


print('--- fit with Speedometer, do_checkpoint, validation')
train, val = iters()
mod = mx.mod.Module(net(), context=mx.cpu())
mod.fit(train, eval_data=val, num_epoch=2, arg_params=fresh_params(),
        optimizer='sgd', optimizer_params={'learning_rate': 0.5},
        batch_end_callback=mx.callback.Speedometer(4, frequent=1),
        epoch_end_callback=mx.callback.do_checkpoint('ckpt'))
show_params(mod)
print(sorted(os.listdir('.')))

print('--- load_checkpoint')
sym, arg, aux = mx.model.load_checkpoint('ckpt', 2)
print(sym.list_arguments(), sym.list_outputs())
print(sorted(arg), sorted(aux), type(arg['fc_weight']).__name__)
print(np.round(arg['fc_bias'].asnumpy().astype('float64'), 4).tolist())
attempt(lambda: mx.model.load_checkpoint('ckpt', 7))
attempt(lambda: mx.model.load_checkpoint('nothing', 1))

print('--- composite metric, log_train_metric, Speedometer without auto_reset')
train, val = iters()
mod = mx.mod.Module(net(), context=mx.cpu())
mod.fit(train, eval_data=val, num_epoch=1, arg_params=fresh_params(),
        eval_metric=['acc', 'mse'], validation_metric='ce',
        optimizer_params=(('learning_rate', 0.2),),
        batch_end_callback=[mx.callback.log_train_metric(2),
                            mx.callback.Speedometer(4, frequent=2, auto_reset=False)])

print('--- metric objects in the logs')
for metric in [mx.metric.Accuracy(name='my_acc'), mx.metric.TopKAccuracy(top_k=2),
               mx.metric.CrossEntropy(), mx.metric.F1(), mx.metric.Loss(),
               mx.metric.np(lambda label, pred: float(np.abs(label - pred.argmax(1)).mean())),
               mx.metric.create(['acc', mx.metric.MAE()])]:
    train, _ = iters(6)
    mod = mx.mod.Module(net(), context=mx.cpu())
    mod.fit(train, num_epoch=1, arg_params=fresh_params(), eval_metric=metric,
            optimizer_params={'learning_rate': 0.1})
    print([(n, round(v, 6)) for n, v in metric.get_name_value()])  # float32 sums: XLA and MXNet differ in the last bits

print('--- eval callbacks, begin_epoch, ProgressBar, module_checkpoint')
train, val = iters()
mod = mx.mod.Module(net(), context=mx.cpu())
seen = []
mod.fit(train, eval_data=val, begin_epoch=2, num_epoch=4, arg_params=fresh_params(),
        optimizer_params={'learning_rate': 0.1, 'momentum': 0.9},
        batch_end_callback=mx.callback.ProgressBar(3, length=10),
        eval_batch_end_callback=lambda p: seen.append(('eval_batch', p.epoch, p.nbatch)),
        eval_end_callback=lambda p: seen.append(('eval_end', p.epoch, p.nbatch,
                                                 p.eval_metric.get_name_value()[0][0])),
        epoch_end_callback=mx.callback.module_checkpoint(mod, 'modck', period=2,
                                                         save_optimizer_states=True))
print(seen)
print(sorted(f for f in os.listdir('.') if f.startswith('modck')))
show_params(mod)

print('--- Module.load and resuming')
mod2 = mx.mod.Module.load('modck', 4, load_optimizer_states=True, context=mx.cpu())
print(mod2.binded, mod2.params_initialized, mod2.data_names, mod2.label_names)
train, _ = iters()
mod2.fit(train, num_epoch=5, begin_epoch=4, optimizer_params={'learning_rate': 0.1, 'momentum': 0.9})
show_params(mod2)
mod2.save_checkpoint('again', 5, save_optimizer_states=True)
print(sorted(f for f in os.listdir('.') if f.startswith('again')))
attempt(lambda: mx.mod.Module.load('missing', 1))

print('--- fit errors and misuse')
train, _ = iters()
mod = mx.mod.Module(net(), context=mx.cpu())
attempt(lambda: mod.fit(train))
attempt(lambda: mod.fit(train, num_epoch=1, arg_params={'fc_weight': mx.nd.array(W0)}))
mod = mx.mod.Module(net(), context=mx.cpu())
mod.fit(train, num_epoch=1, arg_params={'fc_weight': mx.nd.array(W0)}, allow_missing=True,
        initializer=mx.init.Constant(0.25), optimizer_params={'learning_rate': 0.1})
show_params(mod)
mod.fit(train, num_epoch=1, arg_params=fresh_params(), force_init=True, force_rebind=True,
        optimizer_params={'learning_rate': 0.1})
show_params(mod)
