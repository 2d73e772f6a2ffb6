import logging
import os
import re
import shutil
import tempfile
import warnings

import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import nn
from mxnet.gluon.contrib.estimator import (Estimator, CheckpointHandler, EarlyStoppingHandler,
                                           LoggingHandler)

warnings.simplefilter('ignore')
times = re.compile(r'\d+\.\d+s|total \d+s')
tmp = tempfile.mkdtemp()


values = re.compile(r': (\d+\.\d{4})\b')


class TimeFreeStdout(logging.Handler):
    """Prints the estimator's log lines with the durations replaced (they vary per run) and the
    metric values to 3 decimals (MXNet's softmax cross-entropy differs in the 6th digit)."""
    def emit(self, record):
        line = times.sub('<t>', record.getMessage()).replace(tmp, '<dir>')
        print(values.sub(lambda m: ': %.3f' % float(m.group(1)), line))


def make_estimator(net, **kwargs):
    est = Estimator(net, **kwargs)
    est.logger.handlers = [TimeFreeStdout()]
    return est


x = nd.arange(48).reshape((16, 3)) / 50
y = (nd.arange(16) % 3)
loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=5)

# default metrics and names
net = nn.Dense(3, in_units=3, prefix='dense_')
net.initialize(mx.init.Constant(0.1))
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.3})
est = make_estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss(), trainer=trainer)
print([type(m).__name__ for m in est.train_metrics], [m.name for m in est.train_metrics])
print([m.name for m in est.val_metrics], est.context, est.val_net is net)

# fit by epochs with validation; the weights after SGD
est.fit(loader, val_data=loader, epochs=2)
print(net.weight.data().asnumpy().round(4).tolist())
print(net.bias.data().asnumpy().round(4).tolist())
print([(n, round(v, 4)) for n, v in (m.get() for m in est.train_metrics + est.val_metrics)])

# fit by batches, logging every 2 batches
est.fit(loader, batches=5, event_handlers=[LoggingHandler(log_interval=2, metrics=est.train_metrics)])
print(net.weight.data().asnumpy().round(4).tolist())

# evaluate alone
est.evaluate(loader)
print([(n, round(v, 4)) for n, v in (m.get() for m in est.val_metrics)])

# a regression loss: the loss metric named after the loss block
net2 = nn.Dense(1, in_units=3, prefix='reg_')
net2.initialize(mx.init.One())
est2 = make_estimator(net2, loss=gluon.loss.L2Loss(), train_metrics=mx.metric.MAE(),
                      trainer=gluon.Trainer(net2.collect_params(), 'sgd', {'learning_rate': 0.1}))
print([m.name for m in est2.train_metrics], [m.name for m in est2.val_metrics])
est2.fit(loader, epochs=1)
print(net2.weight.data().asnumpy().round(4).tolist(), round(est2.train_metrics[0].get()[1], 4))

# checkpoints: names, max_checkpoints, best, resume
try:
    acc = est.train_metrics[0]
    ckpt = CheckpointHandler(tmp, model_prefix='m', monitor=acc, save_best=True, max_checkpoints=2)
    est.fit(loader, epochs=3, event_handlers=[ckpt])
    print(sorted(os.listdir(tmp)))
    resume = CheckpointHandler(tmp, model_prefix='m', max_checkpoints=2, resume_from_checkpoint=True)
    est.fit(loader, epochs=5, event_handlers=[resume])
    print(est.max_epoch, sorted(os.listdir(tmp)))
    batch_ckpt = CheckpointHandler(tmp, model_prefix='b', epoch_period=None, batch_period=3)
    est.fit(loader, batches=7, event_handlers=[batch_ckpt])
    print(sorted(f for f in os.listdir(tmp) if f.startswith('b')))
finally:
    shutil.rmtree(tmp)

# early stopping and the stopping counters
stop = EarlyStoppingHandler(monitor=est.train_metrics[0], patience=1, mode='min')
est.fit(loader, epochs=6, event_handlers=[stop])
print(stop.current_epoch, stop.stopped_epoch)
handlers = est._prepare_default_handlers(None, [stop])
print([type(h).__name__ for h in handlers])

# errors
for bad in [dict(loss='l2'), dict(loss=gluon.loss.L2Loss(), train_metrics='acc'),
            dict(loss=gluon.loss.L2Loss(), trainer='sgd'), dict(loss=gluon.loss.L2Loss(), context='cpu')]:
    try:
        Estimator(net, **bad)
    except Exception as err:
        print(type(err).__name__)
for bad in [dict(train_data=[x]), dict(train_data=loader), dict(train_data=loader, epochs=1, batches=2)]:
    try:
        est.fit(**bad)
    except Exception as err:
        print(type(err).__name__)
try:
    est.fit(loader, epochs=1, event_handlers=[LoggingHandler(metrics=[mx.metric.RMSE()])])
except ValueError as err:
    print('ValueError')
