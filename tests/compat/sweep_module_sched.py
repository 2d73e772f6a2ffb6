# Module.fit log lines from learning-rate schedulers, several metrics and validation callbacks;
# batches of another size than the bound one; iterators that are not reset.
import warnings

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

warnings.simplefilter('ignore')
log_to_stdout()


X = (np.sin(np.arange(64) * 0.37).reshape(16, 4) * 2).astype('float32')
Y = (X[:, 0] + X[:, 1] > 0).astype('float32')
W0 = (np.cos(np.arange(8) * 0.9).reshape(2, 4) * 0.3).astype('float32')
B0 = np.array([0.05, -0.05], dtype='float32')


def net():
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
    return mx.sym.SoftmaxOutput(fc, name='softmax')


def params():
    return {'fc_weight': mx.nd.array(W0), 'fc_bias': mx.nd.array(B0)}


def fit(mod=None, **kw):
    mod = mod or mx.mod.Module(net(), context=mx.cpu())
    args = dict(num_epoch=2, arg_params=params(), optimizer_params={'learning_rate': 0.5})
    args.update(kw)
    mod.fit(mx.io.NDArrayIter(X, Y, batch_size=4), **args)
    return mod


print('--- learning-rate schedulers in fit')
mod = fit(optimizer_params={'learning_rate': 0.5,
                            'lr_scheduler': mx.lr_scheduler.FactorScheduler(step=3, factor=0.5)})
print(r(mod.get_params()[0]['fc_bias']), mod._optimizer.learning_rate)
mod = fit(optimizer_params={'learning_rate': 0.4,
                            'lr_scheduler': mx.lr_scheduler.MultiFactorScheduler(step=[2, 5], factor=0.1)})
print(mod._optimizer.learning_rate)
mod = fit(num_epoch=1, optimizer_params={
    'learning_rate': 0.4, 'lr_scheduler': mx.lr_scheduler.PolyScheduler(max_update=4, base_lr=0.4, pwr=2)})
print(round(mod._optimizer.learning_rate, 6))
mod = fit(num_epoch=1, optimizer_params={
    'learning_rate': 0.4,
    'lr_scheduler': mx.lr_scheduler.CosineScheduler(max_update=4, base_lr=0.4, final_lr=0.1,
                                                    warmup_steps=1)})
print(round(mod._optimizer.learning_rate, 6))

print('--- metrics in the logs')
fit(num_epoch=1, eval_metric=mx.metric.Perplexity(ignore_label=None))
fit(num_epoch=1, eval_metric=mx.metric.NegativeLogLikelihood())
fit(num_epoch=1, eval_metric=mx.metric.MCC())
attempt(lambda: fit(num_epoch=1, eval_metric=mx.metric.PearsonCorrelation()))
fit(num_epoch=1, eval_metric=mx.metric.CustomMetric(lambda l, p: float(p.shape[0]), name='rows'))
fit(num_epoch=1, eval_metric=mx.metric.create('acc', name='A'))
fit(num_epoch=1, eval_metric=mx.metric.np(lambda l, p: 0.5, name='half', allow_extra_outputs=True))

print('--- validation metrics and callbacks')
val = mx.io.NDArrayIter(X[:8], Y[:8], batch_size=4)
fit(num_epoch=1, eval_data=val, validation_metric=['acc', 'ce', 'nll_loss'],
    eval_end_callback=mx.callback.LogValidationMetricsCallback())
fit(num_epoch=1, eval_data=val, eval_metric='ce', validation_metric=mx.metric.TopKAccuracy(top_k=2))
attempt(lambda: mx.metric.TopKAccuracy(top_k=1))

print('--- another batch size than the bound one')
mod = mx.mod.Module(net(), context=mx.cpu())
mod.bind(data_shapes=[('data', (4, 4))], label_shapes=[('softmax_label', (4,))], for_training=False)
mod.init_params(arg_params=params())
print(mod.predict(mx.io.NDArrayIter(X, Y, batch_size=6)).shape, mod.data_shapes[0].shape)
print(mod.score(mx.io.NDArrayIter(X, Y, batch_size=8), 'acc'), mod.data_shapes[0].shape)
print([(nb, o[0].shape) for o, nb, _ in mod.iter_predict(mx.io.NDArrayIter(X, Y, batch_size=5),
                                                          num_batch=3)])
it = mx.io.NDArrayIter(X, Y, batch_size=4)
for _ in it:
    pass
print(mod.predict(it, reset=False), mod.score(it, 'acc', reset=False))
print(mod.predict(it, num_batch=0))
fit(mod=mx.mod.Module(net(), context=mx.cpu()), begin_epoch=3, num_epoch=2)
print('nothing trained')

print('--- an iterator with pad and roll_over in fit')
mod = mx.mod.Module(net(), context=mx.cpu())
mod.fit(mx.io.NDArrayIter(X[:14], Y[:14], batch_size=4, last_batch_handle='pad'), num_epoch=1,
        arg_params=params(), optimizer_params={'learning_rate': 0.5},
        batch_end_callback=lambda p: print('batch', p.nbatch, p.eval_metric.num_inst))
print(r(mod.get_params()[0]['fc_bias']))
mod.fit(mx.io.NDArrayIter(X[:14], Y[:14], batch_size=4, last_batch_handle='discard'), num_epoch=1,
        batch_end_callback=lambda p: print('batch', p.nbatch, p.eval_metric.num_inst))
print(r(mod.get_params()[0]['fc_bias']))
