# More Module corners: fixed parameters, input gradients, reshape, several devices, optimizer
# objects, callback periods, BucketingModule checkpoints, mx.model.FeedForward.
import os
import warnings

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

warnings.simplefilter('ignore')
log_to_stdout()


X = (np.sin(np.arange(48) * 0.37).reshape(12, 4) * 2).astype('float32')
Y = (X[:, 0] + X[:, 1] > 0).astype('float32')
W0 = (np.cos(np.arange(8) * 0.9).reshape(2, 4) * 0.3).astype('float32')
B0 = np.array([0.05, -0.05], dtype='float32')


def net():
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
    return mx.sym.SoftmaxOutput(fc, name='softmax')


def params():
    return {'fc_weight': mx.nd.array(W0), 'fc_bias': mx.nd.array(B0)}


def batch(n=4):
    return mx.io.DataBatch([mx.nd.array(X[:n])], [mx.nd.array(Y[:n])])


print('--- fixed_param_names')
mod = mx.mod.Module(net(), fixed_param_names=['fc_bias'], context=mx.cpu())
mod.fit(mx.io.NDArrayIter(X, Y, batch_size=4), num_epoch=1, arg_params=params(),
        optimizer_params={'learning_rate': 0.5})
arg, _ = mod.get_params()
print(r(arg['fc_bias']), r(arg['fc_weight']))

print('--- inputs_need_grad / get_input_grads')
mod = mx.mod.Module(net(), context=mx.cpu())
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))], inputs_need_grad=True)
mod.init_params(arg_params=params())
mod.forward(batch(), is_train=True)
mod.backward()
g = mod.get_input_grads()
print(len(g), g[0].shape, r(g[0]))
attempt(lambda: mx.mod.Module(net()).bind(data_shapes=[('data', (4, 4))], for_training=False,
                                          inputs_need_grad=True))

print('--- grad_req add / null')
mod = mx.mod.Module(net(), context=mx.cpu())
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))], grad_req='add')
mod.init_params(arg_params=params())
for _ in range(2):
    mod.forward(batch(), is_train=True)
    mod.backward()
print(r(mod._exec_group.grad_arrays[0][0]))

print('--- reshape and a smaller last batch')
mod = mx.mod.Module(net(), context=mx.cpu())
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))])
mod.init_params(arg_params=params())
mod.init_optimizer(optimizer_params={'learning_rate': 0.5})
mod.reshape(data_shapes=[('data', (6, 4))], label_shapes=[('softmax_label', (6,))])
print(mod.data_shapes[0].shape, mod.label_shapes[0].shape, mod.output_shapes)
mod.forward(batch(6), is_train=True)
mod.backward()
mod.update()
print(r(mod.get_params()[0]['fc_bias']))
mod.forward(batch(3), is_train=False)
print(mod.get_outputs()[0].shape, mod.data_shapes[0].shape)

print('--- several devices')
mod = mx.mod.Module(net(), context=[mx.cpu(0), mx.cpu(1)])
mod.fit(mx.io.NDArrayIter(X, Y, batch_size=4), num_epoch=2, arg_params=params(),
        optimizer_params={'learning_rate': 0.5})
print(r(mod.get_params()[0]['fc_weight']))
print([o.shape for o in mod.get_outputs()], [[o.shape for o in d] for d in mod.get_outputs(False)])
print(mod.predict(mx.io.NDArrayIter(X, Y, batch_size=4)).shape)
mod = mx.mod.Module(net(), context=[mx.cpu(0), mx.cpu(1)], work_load_list=[1, 3])
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))])
mod.init_params(arg_params=params())
mod.forward(batch(), is_train=False)
print([[o.shape for o in d] for d in mod.get_outputs(merge_multi_context=False)])
attempt(lambda: mx.mod.Module(net(), context=[mx.cpu(0), mx.cpu(1)], work_load_list=[1]))

print('--- optimizer objects and init_optimizer')
mod = mx.mod.Module(net(), context=mx.cpu())
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))])
mod.init_params(arg_params=params())
opt = mx.optimizer.SGD(learning_rate=0.3, momentum=0.5, rescale_grad=0.25)
mod.init_optimizer(optimizer=opt)
print(mod._optimizer is opt, mod.optimizer_initialized)
mod.init_optimizer(optimizer='adam')
mod.init_optimizer(optimizer='adam', optimizer_params={'learning_rate': 0.01}, force_init=True)
print(type(mod._optimizer).__name__, mod._optimizer.lr, mod._optimizer.rescale_grad)
mod.forward(batch(), is_train=True)
mod.backward()
mod.update()
print(r(mod.get_params()[0]['fc_bias']))
mod = mx.mod.Module(net(), context=mx.cpu())
mod.fit(mx.io.NDArrayIter(X, Y, batch_size=4), num_epoch=1, arg_params=params(), kvstore=None,
        optimizer='adagrad', optimizer_params=(('learning_rate', 0.1), ('wd', 0.01)))
print(r(mod.get_params()[0]['fc_bias']), mod._optimizer.rescale_grad, mod._optimizer.wd)
mod2 = mx.mod.Module(net(), context=mx.cpu())
mod2.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))], shared_module=mod)
mod2.borrow_optimizer(mod)
print(mod2.optimizer_initialized, mod2._optimizer is mod._optimizer, mod2.params_initialized)

print('--- callback periods')
saved = []
mod = mx.mod.Module(net(), context=mx.cpu())
mod.fit(mx.io.NDArrayIter(X, Y, batch_size=4), num_epoch=4, arg_params=params(),
        optimizer_params={'learning_rate': 0.1},
        batch_end_callback=[mx.callback.Speedometer(4, frequent=2),
                            lambda p: saved.append((p.epoch, p.nbatch, sorted(p.locals)[:0]))],
        epoch_end_callback=[mx.callback.do_checkpoint('per3', period=3),
                            lambda e, s, a, x: saved.append(('end', e, sorted(a)))])
print(saved[:4], saved[-2:])
print(sorted(f for f in os.listdir('.') if f.startswith('per3')))
attempt(lambda: mx.callback.do_checkpoint('p', period=0))
cb = mx.callback.LogValidationMetricsCallback()
m = mx.metric.create(['acc', 'mse'])
m.update([mx.nd.array([1, 0])], [mx.nd.array([[0.2, 0.8], [0.6, 0.4]])])
cb(mx.model.BatchEndParam(epoch=5, nbatch=0, eval_metric=m, locals=None))
cb(mx.model.BatchEndParam(epoch=5, nbatch=0, eval_metric=None, locals=None))
sp = mx.callback.Speedometer(2, frequent=1)
sp(mx.model.BatchEndParam(epoch=0, nbatch=0, eval_metric=None, locals=None))
sp(mx.model.BatchEndParam(epoch=0, nbatch=1, eval_metric=None, locals=None))
sp(mx.model.BatchEndParam(epoch=0, nbatch=2, eval_metric=m, locals=None))
print(m.get_name_value())
log = mx.callback.log_train_metric(1, auto_reset=True)
log(mx.model.BatchEndParam(epoch=0, nbatch=1, eval_metric=m, locals=None))
print(m.get_name_value())
bar = mx.callback.ProgressBar(4)
bar(mx.model.BatchEndParam(epoch=0, nbatch=2, eval_metric=None, locals=None))

print('--- BucketingModule checkpoints and fit')


def sym_gen(key):
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
    return mx.sym.SoftmaxOutput(fc * (1.0 / key), name='softmax'), ('data',), ('softmax_label',)


class KeyIter(mx.io.NDArrayIter):
    """NDArrayIter whose batches alternate between bucket keys 1 and 2."""
    default_bucket_key = 2

    def next(self):
        b = super(KeyIter, self).next()
        b.bucket_key = 1 + self.cursor // 4 % 2
        b.provide_data, b.provide_label = self.provide_data, self.provide_label
        return b


bmod = mx.mod.BucketingModule(sym_gen, default_bucket_key=2, context=mx.cpu())
bmod.fit(KeyIter(X, Y, batch_size=4), num_epoch=2, arg_params=params(),
         optimizer_params={'learning_rate': 0.5}, eval_metric='acc',
         epoch_end_callback=mx.callback.module_checkpoint(bmod, 'bfit'))
print(sorted(bmod._buckets), r(bmod.get_params()[0]['fc_weight']))
print(sorted(f for f in os.listdir('.') if f.startswith('bfit')))
print(bmod.score(KeyIter(X, Y, batch_size=4), 'acc'))
print(bmod.predict(KeyIter(X, Y, batch_size=4)).shape)
loaded = mx.mod.BucketingModule.load('bfit', 2, sym_gen=sym_gen, default_bucket_key=2, context=mx.cpu())
print(loaded.binded, loaded.params_initialized, sorted(loaded._buckets))
attempt(lambda: mx.mod.BucketingModule.load('bfit', 2))
loaded.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))], for_training=False)
print(r(loaded.predict(KeyIter(X[:4], Y[:4], batch_size=4))[:, 0], 3))
print(loaded.symbol.list_arguments(), loaded.output_shapes)
attempt(lambda: mx.mod.BucketingModule(sym_gen, default_bucket_key=2).save_checkpoint('e', 1))
bm = mx.mod.BucketingModule(sym_gen, default_bucket_key=2, context=mx.cpu())
attempt(lambda: bm.forward(batch()))
attempt(lambda: bm.data_shapes)
print(bm.data_names, bm.output_names, bm.binded)

print('--- FeedForward')
model = mx.model.FeedForward(net(), ctx=mx.cpu(), num_epoch=2, numpy_batch_size=4,
                             arg_params=params(), learning_rate=0.5)
model.fit(mx.io.NDArrayIter(X, Y, batch_size=4))  # (numpy X would be shuffled)
print(sorted(model.arg_params), r(model.arg_params['fc_bias']))
out = model.predict(X)
print(type(out).__name__, out.shape, np.round(out[:2].astype('float64'), 3).tolist())
print(model.score(mx.io.NDArrayIter(X, Y, batch_size=4)))
model.save('ff')
print(sorted(f for f in os.listdir('.') if f.startswith('ff')))
ff2 = mx.model.FeedForward.load('ff', 2, ctx=mx.cpu())
print(sorted(ff2.arg_params), ff2.begin_epoch, ff2.num_epoch)
print(np.round(ff2.predict(mx.io.NDArrayIter(X, batch_size=6))[:2].astype('float64'), 3).tolist())
ff3 = mx.model.FeedForward.create(net(), mx.io.NDArrayIter(X, Y, batch_size=6), ctx=mx.cpu(),
                                  num_epoch=1, initializer=mx.init.Constant(0.1), learning_rate=0.1)
print(r(ff3.arg_params['fc_weight']))
ff4 = mx.model.FeedForward(net(), ctx=[mx.cpu(0), mx.cpu(1)], num_epoch=1, arg_params=params(),
                           learning_rate=0.5, momentum=0.9)
ff4.fit(mx.io.NDArrayIter(X, Y, batch_size=4), kvstore=None)  # each device steps on its own
print(r(ff4.arg_params['fc_weight']))
ff5 = mx.model.FeedForward(net(), ctx=[mx.cpu(0), mx.cpu(1)], num_epoch=1, arg_params=params(),
                           learning_rate=0.5, momentum=0.9, wd=0.1)
ff5.fit(mx.io.NDArrayIter(X, Y, batch_size=4), kvstore='local')
print(r(ff5.arg_params['fc_weight']), r(ff5.arg_params['fc_bias']))
