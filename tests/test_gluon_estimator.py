"""mx.gluon.contrib.estimator: the training loop, its handlers and checkpoint files, checked
against a numpy SGD loop and MXNet 1.9.1's rules (tests/compat/contrib_estimator.py compares the
printed log lines and numbers with MXNet's)."""
import logging
import os
import re

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import gluon, nd
from gluonjax.gluon import nn
from gluonjax.gluon.contrib.estimator import (BatchEnd, CheckpointHandler, EarlyStoppingHandler,
                                              EpochEnd, Estimator, LoggingHandler, MetricHandler,
                                              StoppingHandler, TrainBegin)

X = np.arange(30, dtype=np.float32).reshape(10, 3) / 30
Y = (np.arange(10, dtype=np.float32) % 4).reshape(10, 1) / 4
# The Estimator's default context, as MXNet's: gpu(0) where there is a GPU, else cpu(0).
CTX = mx.gpu(0) if mx.context.num_gpus() else mx.cpu()


def _loader(batch_size=4):
    return gluon.data.DataLoader(gluon.data.ArrayDataset(nd.array(X), nd.array(Y)),
                                 batch_size=batch_size)


def _estimator(lr=0.2, **kwargs):
    net = nn.Dense(1, in_units=3)
    net.initialize(mx.init.Constant(0.1), ctx=CTX)
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': lr})
    est = Estimator(net, loss=gluon.loss.L2Loss(), trainer=trainer, **kwargs)
    est.logger.setLevel(logging.WARNING)      # keep the test output short
    return est


def _numpy_sgd(epochs, lr=0.2, batch_size=4):
    """The same training by hand: L2Loss = (pred - y)^2 / 2, gradients averaged over the batch
    (the Dense bias starts at zero: its own initializer wins over Constant(0.1))."""
    w, b = np.full((1, 3), 0.1), np.zeros(1)
    for _ in range(epochs):
        for i in range(0, len(X), batch_size):
            x, y = X[i:i + batch_size], Y[i:i + batch_size]
            err = x @ w.T + b - y
            w -= lr * (err.T @ x) / len(x)
            b -= lr * err.sum(0) / len(x)
    return w, b


def test_fit_trains_as_a_plain_sgd_loop():
    est = _estimator()
    est.fit(_loader(), epochs=3)
    w, b = _numpy_sgd(3)
    np.testing.assert_allclose(est.net.weight.data().asnumpy(), w, rtol=1e-5)
    np.testing.assert_allclose(est.net.bias.data().asnumpy(), b, rtol=1e-5)
    assert est.train_metrics[0].name == 'training l2loss'


def test_fit_by_batches_stops_mid_epoch():
    est = _estimator()
    stop = StoppingHandler()
    est.fit(_loader(), batches=5, event_handlers=[stop])
    assert (stop.current_batch, stop.current_epoch) == (5, 2)   # 3 batches per epoch
    with pytest.raises(ValueError):
        est.fit(_loader(), epochs=1, batches=1)
    with pytest.raises(ValueError):
        est.fit([nd.array(X)], epochs=1)


def test_default_metrics_names_and_validation_copies():
    net = nn.Dense(3, in_units=3)
    net.initialize(ctx=CTX)
    est = Estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss(), trainer=gluon.Trainer(
        net.collect_params(), 'sgd'))
    assert [type(m).__name__ for m in est.train_metrics] == ['Accuracy', 'Loss']
    assert [m.name for m in est.val_metrics] == ['validation accuracy',
                                                 'validation softmaxcrossentropyloss']
    assert est.val_metrics[0] is not est.train_metrics[0]
    assert est.context == [CTX]


def test_evaluate_uses_val_net_and_val_loss():
    est = _estimator(val_loss=gluon.loss.L1Loss())
    est.evaluate(_loader())
    pred = X @ np.full((3, 1), 0.1)
    name, value = est.val_metrics[0].get()
    assert name == 'validation l2loss'    # the metric keeps the training loss's name
    np.testing.assert_allclose(value, np.abs(pred - Y).mean(), rtol=1e-5)


def test_batch_axis_splits_the_batch_on_that_axis():
    class Transposed(gluon.data.Dataset):
        def __getitem__(self, i):
            return nd.array(X[i]).reshape((3, 1)), nd.array(Y[i])

        def __len__(self):
            return len(X)

    class Net(nn.HybridBlock):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(1, in_units=3)

        def hybrid_forward(self, F, x):
            return self.dense(F.transpose(x))

    def batchify(samples):
        return (nd.concat(*[s[0] for s in samples], dim=1),
                nd.concat(*[s[1] for s in samples], dim=0).reshape((1, -1)))

    net = Net()
    net.initialize(mx.init.Constant(0.1), ctx=CTX)
    est = Estimator(net, loss=gluon.loss.L2Loss(),
                    trainer=gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.2}))
    est.logger.setLevel(logging.WARNING)
    loader = gluon.data.DataLoader(Transposed(), batch_size=4, batchify_fn=batchify)
    est.fit(loader, epochs=2, batch_axis=1)
    # the label arrives as (1, batch) and the prediction as (batch, 1): L2Loss broadcasts them
    # the same way in both, so compare with the batch-axis-0 run on the same data
    ref = _estimator()
    ref.fit(gluon.data.DataLoader(gluon.data.ArrayDataset(nd.array(X), nd.array(Y[:, 0])),
                                  batch_size=4), epochs=2)
    assert est.batch_axis == 1
    np.testing.assert_allclose(net.dense.weight.data().asnumpy(),
                               ref.net.weight.data().asnumpy(), rtol=1e-5)


def test_checkpoint_names_max_checkpoints_and_resume(tmp_path):
    est = _estimator()
    ckpt = CheckpointHandler(str(tmp_path), model_prefix='m', max_checkpoints=2)
    est.fit(_loader(), epochs=3, event_handlers=[ckpt])
    assert sorted(os.listdir(tmp_path)) == ['m-epoch1batch6.params', 'm-epoch1batch6.states',
                                            'm-epoch2batch9.params', 'm-epoch2batch9.states']
    weights_after_3 = est.net.weight.data().asnumpy()

    est2 = _estimator()
    resume = CheckpointHandler(str(tmp_path), model_prefix='m', max_checkpoints=2,
                               resume_from_checkpoint=True)
    est2.fit(_loader(), epochs=5, event_handlers=[resume])
    assert est2.max_epoch == 2                  # 5 asked, 3 already trained
    assert 'm-epoch4batch15.params' in os.listdir(tmp_path)
    w, _ = _numpy_sgd(5)
    np.testing.assert_allclose(est2.net.weight.data().asnumpy(), w, rtol=1e-5)
    assert not np.allclose(weights_after_3, w)
    with pytest.raises(ValueError, match='maximum number of epoch'):
        est2.fit(_loader(), epochs=5, event_handlers=[CheckpointHandler(
            str(tmp_path), model_prefix='m', resume_from_checkpoint=True)])


def test_checkpoint_by_batches_and_best(tmp_path):
    net = nn.HybridSequential()
    net.add(nn.Dense(1, in_units=3))
    net.initialize(ctx=CTX)
    net.hybridize()
    est = Estimator(net, loss=gluon.loss.L2Loss(), train_metrics=mx.metric.MSE(),
                    trainer=gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.2}))
    est.logger.setLevel(logging.WARNING)
    ckpt = CheckpointHandler(str(tmp_path), model_prefix='b', epoch_period=None, batch_period=2,
                             monitor=est.train_metrics[0], save_best=True, mode='min')
    est.fit(_loader(), batches=5, event_handlers=[ckpt])
    files = sorted(os.listdir(tmp_path))
    assert files == ['b-best.params', 'b-best.states', 'b-epoch0batch1.params',
                     'b-epoch0batch1.states', 'b-epoch1batch3.params', 'b-epoch1batch3.states',
                     'b-symbol.json']
    assert 0 < ckpt.best < np.inf      # the lowest MSE seen at a checkpoint
    with pytest.raises(ValueError):
        CheckpointHandler(str(tmp_path), save_best=True)


def test_early_stopping_waits_for_patience():
    est = _estimator(lr=0.0)          # nothing changes: the loss never improves after epoch 0
    stop = EarlyStoppingHandler(monitor=est.train_metrics[0], patience=2, mode='min')
    est.fit(_loader(), epochs=10, event_handlers=[stop])
    assert (stop.current_epoch, stop.stopped_epoch) == (3, 2)


def test_a_handler_returning_true_stops_the_loop():
    class StopAfter(TrainBegin, BatchEnd, EpochEnd):
        def train_begin(self, estimator, *args, **kwargs):
            self.batches = self.epochs = 0

        def batch_end(self, estimator, *args, **kwargs):
            self.batches += 1
            return self.batches == 4

        def epoch_end(self, estimator, *args, **kwargs):
            self.epochs += 1
            return self.epochs == 2

    handler = StopAfter()
    _estimator().fit(_loader(), epochs=10, event_handlers=[handler])
    assert (handler.batches, handler.epochs) == (4, 2)   # batch 4 ends epoch 1 early


def test_logging_handler_lines(capsys):
    est = _estimator()
    est.logger.setLevel(logging.INFO)
    est.fit(_loader(), epochs=1, event_handlers=[LoggingHandler(log_interval=2,
                                                                metrics=est.train_metrics)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == 'Training begin: using optimizer SGD with current learning rate 0.2000 '
    assert lines[1:3] == ['Train for 1 epochs.', '[Epoch 0] Begin, current learning rate: 0.2000']
    assert re.fullmatch(r'\[Epoch 0\]\[Batch 0\]\[Samples 4\] time/interval: \d+\.\d{3}s '
                        r'training l2loss: \d\.\d{4}', lines[3])
    assert re.fullmatch(r'\[Epoch 0\]\[Batch 2\]\[Samples 10\] .*', lines[4])
    assert re.fullmatch(r'Train finished using total \d+s with 1 epochs\. training l2loss: '
                        r'\d\.\d{4}', lines[-1])
    with pytest.raises(ValueError):
        LoggingHandler(log_interval='batch')


def test_handlers_order_and_foreign_metrics():
    est = _estimator()
    est.max_epoch = 1
    stop = EarlyStoppingHandler(monitor=est.train_metrics[0])
    names = [type(h).__name__ for h in est._prepare_default_handlers(None, [stop])]
    assert names == ['GradientUpdateHandler', 'MetricHandler', 'EarlyStoppingHandler',
                     'StoppingHandler', 'LoggingHandler']
    with pytest.raises(ValueError, match='outside of the known'):
        est.fit(_loader(), epochs=1, event_handlers=[LoggingHandler(metrics=[mx.metric.MAE()])])
    # beside the default handlers, a handler's metrics must be the estimator's own
    with pytest.raises(ValueError, match='outside of the known'):
        est.fit(_loader(), epochs=1, event_handlers=[MetricHandler([mx.metric.MAE()])])
    est.fit(_loader(), epochs=1, event_handlers=[MetricHandler(est.train_metrics)])
    assert est.train_metrics[0].num_inst == 10


def test_construction_errors():
    net = nn.Dense(1, in_units=3)
    with pytest.raises(ValueError):
        Estimator(net, loss='l2')
    with pytest.raises(ValueError):
        Estimator(net, loss=gluon.loss.L2Loss(), train_metrics='acc')
    with pytest.raises(ValueError):
        Estimator(net, loss=gluon.loss.L2Loss(), context='cpu')
    with pytest.raises(AssertionError):
        Estimator(net, loss=gluon.loss.L2Loss(), context=[mx.gpu(100)])
    with pytest.warns(UserWarning, match='No trainer specified'):
        est = Estimator(net, loss=gluon.loss.L2Loss())
    with pytest.raises(ValueError):
        Estimator(net, loss=gluon.loss.L2Loss(), trainer='sgd')
    with pytest.warns(UserWarning, match='already fully initialized'):
        Estimator(net, loss=gluon.loss.L2Loss(), initializer=mx.init.One(), trainer=est.trainer)
