# mx.callback with unusual arguments: periods of 0 or more than the epochs, float periods,
# metrics given as None, BatchEndParam's fields. (A period or total of 0 for log_train_metric,
# Speedometer and ProgressBar: see docs/MIGRATING.md.)
import os
import warnings

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout

warnings.simplefilter('ignore')
log_to_stdout()


m = mx.metric.Accuracy()
m.update([mx.nd.array([1, 0])], [mx.nd.array([[0.2, 0.8], [0.3, 0.7]])])


def param(epoch=0, nbatch=0, metric=m):
    return mx.model.BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=metric, locals=None)


p = param(1, 2)
print(p.epoch, p.nbatch, p.eval_metric is m, p.locals, type(p).__name__, p._fields)

print('--- periods')
sym = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
arg = {'fc_weight': mx.nd.ones((2, 3)), 'fc_bias': mx.nd.zeros((2,))}
for period in [0, 2, 2.5, 7]:
    cb = mx.callback.do_checkpoint('p%s' % period, period=period)
    for epoch in range(5):
        cb(epoch, sym, arg, {})
print(sorted(os.listdir('.')))
mx.callback.log_train_metric(2)(param(nbatch=4))
mx.callback.log_train_metric(2)(param(nbatch=3))
attempt(lambda: mx.callback.log_train_metric(2)(param(nbatch=2, metric=None)))
print(m.get_name_value())

print('--- Speedometer')
sp = mx.callback.Speedometer(4, frequent=3)
for nbatch in [0, 1, 2, 3, 4, 5, 6]:
    sp(param(nbatch=nbatch))
print(sp.last_count, m.get_name_value())
sp = mx.callback.Speedometer(4, frequent=2, auto_reset=False)
for nbatch in [0, 1, 2, 0, 1, 2]:  # a new epoch starts the count again
    sp(param(nbatch=nbatch, metric=None))
print(sp.last_count, sp.init)

print('--- ProgressBar')
for total, nbatch in [(3, 0), (3, 3), (3, 5), (7, 2)]:
    mx.callback.ProgressBar(total, length=14)(param(nbatch=nbatch))

print('--- LogValidationMetricsCallback')
mx.callback.LogValidationMetricsCallback()(param(epoch=4))
c = mx.metric.create(['acc', 'f1'])
c.update([mx.nd.array([1, 0, 1])], [mx.nd.array([[0.2, 0.8], [0.3, 0.7], [0.9, 0.1]])])
mx.callback.LogValidationMetricsCallback()(param(epoch=5, metric=c))
