"""The event handlers of :class:`Estimator`: what happens at train, epoch and batch begin/end.

A handler derives from the mixins of the events it reacts to (``TrainBegin`` ... ``BatchEnd``);
the Estimator calls ``handler.<event>(estimator, **kwargs)`` on every handler of that kind,
in ascending ``priority`` (0 when a handler has none). ``batch_end`` and ``epoch_end``
returning True stop the loop.
"""
import os
import time
import warnings

import numpy as np

from ....metric import CompositeEvalMetric, EvalMetric
from ....metric import Loss as metric_loss
from .utils import _check_metrics

__all__ = ['TrainBegin', 'TrainEnd', 'EpochBegin', 'EpochEnd', 'BatchBegin', 'BatchEnd',
           'StoppingHandler', 'MetricHandler', 'ValidationHandler',
           'LoggingHandler', 'CheckpointHandler', 'EarlyStoppingHandler', 'GradientUpdateHandler']


class EventHandler(object):
    pass


def _check_event_handlers(handlers):
    """``handlers`` as a new list of EventHandlers."""
    if isinstance(handlers, EventHandler):
        return [handlers]
    handlers = list(handlers or [])
    if not all(isinstance(handler, EventHandler) for handler in handlers):
        raise ValueError("handlers must be an EventHandler or a list of EventHandler, "
                         "got: {}".format(handlers))
    return handlers


class TrainBegin(EventHandler):
    def train_begin(self, estimator, *args, **kwargs):
        pass


class TrainEnd(EventHandler):
    def train_end(self, estimator, *args, **kwargs):
        pass


class EpochBegin(EventHandler):
    def epoch_begin(self, estimator, *args, **kwargs):
        pass


class EpochEnd(EventHandler):
    def epoch_end(self, estimator, *args, **kwargs):
        return False


class BatchBegin(EventHandler):
    def batch_begin(self, estimator, *args, **kwargs):
        pass


class BatchEnd(EventHandler):
    def batch_end(self, estimator, *args, **kwargs):
        return False


class StoppingHandler(TrainBegin, BatchEnd, EpochEnd):
    """Stops training once ``max_epoch`` epochs or ``max_batch`` batches have run (both are
    read from the estimator when training begins)."""

    def __init__(self, max_epoch=None, max_batch=None):
        self.max_epoch = max_epoch
        self.max_batch = max_batch
        self.current_batch = 0
        self.current_epoch = 0
        self.stop_training = False

    def train_begin(self, estimator, *args, **kwargs):
        self.max_epoch = estimator.max_epoch
        self.max_batch = estimator.max_batch
        self.current_batch = 0
        self.current_epoch = 0

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.current_batch == self.max_batch:
            self.stop_training = True
        return self.stop_training

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.current_epoch == self.max_epoch:
            self.stop_training = True
        return self.stop_training


class MetricHandler(EpochBegin, BatchEnd):
    """Resets ``metrics`` at each epoch and updates them after each batch: a ``metric.Loss``
    with the batch's losses, any other metric with (label, pred)."""

    def __init__(self, metrics, priority=-1000):
        self.metrics = _check_metrics(metrics)
        self.priority = priority

    def epoch_begin(self, estimator, *args, **kwargs):
        for metric in self.metrics:
            metric.reset()

    def batch_end(self, estimator, *args, **kwargs):
        for metric in self.metrics:
            if isinstance(metric, metric_loss):
                metric.update(0, kwargs['loss'])
            else:
                metric.update(kwargs['label'], kwargs['pred'])


class ValidationHandler(TrainBegin, BatchEnd, EpochEnd):
    """Calls ``eval_fn(val_data=, batch_axis=, event_handlers=)`` every ``epoch_period``
    epochs and, if given, every ``batch_period`` batches."""

    def __init__(self, val_data, eval_fn, epoch_period=1, batch_period=None, priority=-1000,
                 event_handlers=None):
        self.val_data = val_data
        self.eval_fn = eval_fn
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.current_batch = 0
        self.current_epoch = 0
        self.priority = priority
        self.event_handlers = event_handlers

    def train_begin(self, estimator, *args, **kwargs):
        self.current_batch = 0
        self.current_epoch = 0

    def _validate(self, estimator):
        self.eval_fn(val_data=self.val_data, batch_axis=estimator.batch_axis,
                     event_handlers=self.event_handlers)

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.batch_period and self.current_batch % self.batch_period == 0:
            self._validate(estimator)

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.epoch_period and self.current_epoch % self.epoch_period == 0:
            self._validate(estimator)


def _metric_text(metrics):
    """'name: value, name: value' as MXNet's log lines write metrics."""
    return ', '.join('%s: %.4f' % metric.get() for metric in metrics)


def _log_line(estimator, head, metrics):
    text = _metric_text(metrics)
    estimator.logger.info((head + text) if text else head.rstrip(', '))


class LoggingHandler(TrainBegin, TrainEnd, EpochBegin, EpochEnd, BatchBegin, BatchEnd):
    """Writes MXNet's training log lines to ``estimator.logger``: the optimizer and learning
    rate at train begin, each epoch's begin and end (time and ``metrics``), every
    ``log_interval`` batches when it is an integer, and a summary at train end."""

    def __init__(self, log_interval='epoch', metrics=None, priority=np.inf):
        super(LoggingHandler, self).__init__()
        if not isinstance(log_interval, int) and log_interval != 'epoch':
            raise ValueError("log_interval must be either an integer or string 'epoch'")
        self.metrics = _check_metrics(metrics)
        self.batch_index = 0
        self.current_epoch = 0
        self.processed_samples = 0
        self.priority = priority
        self.log_interval = log_interval
        self.log_interval_time = 0

    def train_begin(self, estimator, *args, **kwargs):
        self.train_start = time.time()
        trainer = estimator.trainer
        estimator.logger.info("Training begin: using optimizer %s with current learning rate %.4f ",
                              type(trainer.optimizer).__name__, trainer.learning_rate)
        if estimator.max_epoch:
            estimator.logger.info("Train for %d epochs.", estimator.max_epoch)
        else:
            estimator.logger.info("Train for %d batches.", estimator.max_batch)
        self.current_epoch = 0
        self.batch_index = 0
        self.processed_samples = 0
        self.log_interval_time = 0

    def train_end(self, estimator, *args, **kwargs):
        train_time = time.time() - self.train_start
        _log_line(estimator, 'Train finished using total %ds with %d epochs. '
                  % (train_time, self.current_epoch), self.metrics)

    def batch_begin(self, estimator, *args, **kwargs):
        if isinstance(self.log_interval, int):
            self.batch_start = time.time()

    def batch_end(self, estimator, *args, **kwargs):
        if isinstance(self.log_interval, int):
            self.log_interval_time += time.time() - self.batch_start
            self.processed_samples += kwargs['batch'][0].shape[0]
            if self.batch_index % self.log_interval == 0:
                head = '[Epoch %d][Batch %d][Samples %s] time/interval: %.3fs ' % (
                    self.current_epoch, self.batch_index, self.processed_samples,
                    self.log_interval_time)
                self.log_interval_time = 0
                _log_line(estimator, head, self.metrics)
        self.batch_index += 1

    def epoch_begin(self, estimator, *args, **kwargs):
        self.epoch_start = time.time()
        # Training metrics carry the 'training' prefix the Estimator gives them; a handler
        # logging none of them is the one of a validation run.
        if any('training' in metric.name for metric in self.metrics):
            estimator.logger.info("[Epoch %d] Begin, current learning rate: %.4f",
                                  self.current_epoch, estimator.trainer.learning_rate)
        else:
            estimator.logger.info("Validation Begin")

    def epoch_end(self, estimator, *args, **kwargs):
        epoch_time = time.time() - self.epoch_start
        _log_line(estimator, '[Epoch %d] Finished in %.3fs, ' % (self.current_epoch, epoch_time),
                  self.metrics)
        self.current_epoch += 1
        self.batch_index = 0


def _comparison(mode, monitor, handler_name):
    """np.less or np.greater: how ``handler_name`` decides that ``monitor`` improved.

    MXNet 1.9.1's 'auto' mode always picks 'greater' (its test of the metric name is always
    true), whatever the metric; gluonjax keeps that, with MXNet's warning."""
    if mode not in ('auto', 'min', 'max'):
        warnings.warn('%s mode %s is unknown, fallback to auto mode.' % (handler_name, mode),
                      RuntimeWarning)
        mode = 'auto'
    if mode == 'min':
        return np.less
    if mode == 'auto':
        warnings.warn("`greater` operator will be used to determine if {} has improved. Please "
                      "specify `mode='min'` to use the `less` operator. Specify `mode='max'` to "
                      "disable this warning.".format(monitor.get()[0]))
    return np.greater


def _worst(monitor_op):
    return np.inf if monitor_op is np.less else -np.inf


class CheckpointHandler(TrainBegin, BatchEnd, EpochEnd):
    """Saves the parameters and trainer states as ``<model_prefix>-epoch<E>batch<B>.params`` /
    ``.states`` in ``model_dir`` every ``epoch_period`` epochs and/or ``batch_period`` batches,
    keeping the last ``max_checkpoints``; the hybridized graph as ``<model_prefix>-symbol.json``
    after the first batch; with ``save_best``, the best by ``monitor`` as ``<model_prefix>-best``.
    ``resume_from_checkpoint`` loads the latest checkpoint in ``model_dir`` and trains only the
    epochs (or batches) left.
    """

    def __init__(self, model_dir, model_prefix='model', monitor=None, verbose=0, save_best=False,
                 mode='auto', epoch_period=1, batch_period=None, max_checkpoints=5,
                 resume_from_checkpoint=False):
        self.monitor = monitor
        self.verbose = verbose
        os.makedirs(model_dir, exist_ok=True)
        self.model_dir = model_dir
        self.model_prefix = model_prefix
        self.save_best = save_best
        if save_best and not isinstance(monitor, EvalMetric):
            raise ValueError("To save best model only, please provide one of the metric objects "
                             "from estimator.train_metrics and estimator.val_metrics as monitor.")
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.current_batch = 0
        self.current_epoch = 0
        self.max_checkpoints = max_checkpoints
        self.resume_from_checkpoint = resume_from_checkpoint
        self.saved_checkpoints = []
        self.trained_epoch = self.trained_batch = -1
        if save_best:
            self.monitor_op = _comparison(mode, monitor, 'CheckpointHandler')
            self.best = _worst(self.monitor_op)

    def train_begin(self, estimator, *args, **kwargs):
        self.current_epoch = 0
        self.current_batch = 0
        if self.save_best:
            self.best = _worst(self.monitor_op)
        if self.resume_from_checkpoint:
            # The checkpoint names count epochs or batches: resuming needs the same kind.
            msg = ("To use resume from checkpoint, you must only specify the same type of period "
                   "you used for training. For example, if you are training based on number of "
                   "epochs, you must save only based on epochs, and set batch_period to None.")
            if estimator.max_batch:
                assert self.batch_period and not self.epoch_period, msg
            if estimator.max_epoch:
                assert self.epoch_period and not self.batch_period, msg
            self._resume_from_checkpoint(estimator)

    def batch_end(self, estimator, *args, **kwargs):
        if self.current_batch == 0:
            self._save_symbol(estimator)
        if self.batch_period and (self.current_batch + 1) % self.batch_period == 0:
            self._save_checkpoint(estimator)
        self.current_batch += 1

    def epoch_end(self, estimator, *args, **kwargs):
        if self.epoch_period and (self.current_epoch + 1) % self.epoch_period == 0:
            self._save_checkpoint(estimator)
        self.current_epoch += 1

    def _checkpoint_numbers(self, estimator):
        """(epoch, batch) in the name of the checkpoint saved now, counting resumed training."""
        if not self.resume_from_checkpoint:
            return self.current_epoch, self.current_batch
        batch = self.current_batch + self.trained_batch
        if not estimator.max_epoch:
            batch += 1
        return self.current_epoch + self.trained_epoch + 1, batch

    def _save_checkpoint(self, estimator):
        prefix = "%s-epoch%dbatch%d" % ((self.model_prefix,) + self._checkpoint_numbers(estimator))
        self._save_params_and_trainer(estimator, prefix)
        if self.verbose > 0:
            estimator.logger.info('[Epoch %d] CheckpointHandler: trained total %d batches, '
                                  'saving model at %s with prefix: %s', self.current_epoch,
                                  self.current_batch + 1, self.model_dir, prefix)
        if self.save_best:
            self._save_if_best(estimator)

    def _save_if_best(self, estimator):
        name, value = self.monitor.get()
        if np.isnan(value):
            warnings.warn(RuntimeWarning(
                'Skipping save best because %s is not updated, make sure you pass one of the '
                'metric objects estimator.train_metrics and estimator.val_metrics as monitor'
                % name))
        elif self.monitor_op(value, self.best):
            prefix = self.model_prefix + '-best'
            self._save_params_and_trainer(estimator, prefix)
            if self.verbose > 0:
                estimator.logger.info('[Epoch %d] CheckpointHandler: %s improved from %0.5f to '
                                      '%0.5f, updating best model at %s with prefix: %s',
                                      self.current_epoch, name, self.best, value,
                                      self.model_dir, prefix)
            self.best = value
        elif self.verbose > 0:
            estimator.logger.info('[Epoch %d] CheckpointHandler: %s did not improve from %0.5f, '
                                  'skipping updating best model',
                                  self.current_epoch, name, self.best)

    def _save_symbol(self, estimator):
        symbol_file = os.path.join(self.model_dir, self.model_prefix + '-symbol.json')
        graph = getattr(estimator.net, '_cached_graph', None)
        if graph:
            graph[1].save(symbol_file)
        else:
            estimator.logger.info(
                "Model architecture(symbol file) is not saved, please use HybridBlock to "
                "construct your model, and call net.hybridize() before passing to Estimator in "
                "order to save model architecture as %s.", symbol_file)

    def _save_params_and_trainer(self, estimator, file_prefix):
        path = os.path.join(self.model_dir, file_prefix)
        estimator.net.save_parameters(path + '.params')
        estimator.trainer.save_states(path + '.states')
        if file_prefix == self.model_prefix + '-best':
            return          # the best checkpoint is not counted in max_checkpoints
        self.saved_checkpoints.append(file_prefix)
        while len(self.saved_checkpoints) > self.max_checkpoints:
            oldest = os.path.join(self.model_dir, self.saved_checkpoints.pop(0))
            for ext in ('.params', '.states'):
                if os.path.exists(oldest + ext):
                    os.remove(oldest + ext)

    def _existing_checkpoints(self):
        """[(epoch, batch)] of the ``<prefix>-epoch<E>batch<B>.params`` files in model_dir."""
        head = self.model_prefix + '-epoch'
        found = []
        for fname in os.listdir(self.model_dir):
            if not (fname.startswith(head) and fname.endswith('.params')):
                continue
            epoch, sep, batch = fname[len(head):-len('.params')].partition('batch')
            if not (sep and epoch.isdigit() and batch.isdigit()):
                raise ValueError("Error parsing checkpoint file %s, please check your checkpoints "
                                 "have the format: {model_name}-epoch{epoch_number}batch"
                                 "{batch_number}.params, there should also be a .states file for "
                                 "each .params file" % fname)
            found.append((int(epoch), int(batch)))
        return sorted(found)

    def _resume_from_checkpoint(self, estimator):
        found = self._existing_checkpoints()
        if not found:
            self.trained_epoch = self.trained_batch = -1
            estimator.logger.info("CheckpointHandler: No checkpoint found, training from scratch "
                                  "for " + ("%d batches" % estimator.max_batch if estimator.max_batch
                                            else "%d epochs" % estimator.max_epoch))
            return
        # As in MXNet 1.9.1, the checkpoints found are kept: only those this run saves count
        # towards max_checkpoints (a resumed run never deletes files it did not write).
        self.trained_epoch, self.trained_batch = found[-1]
        msg = "CheckpointHandler: Checkpoint resumed from epoch %d batch %d, continue to train for " \
              % (self.trained_epoch, self.trained_batch)
        if estimator.max_epoch:
            if self.trained_epoch >= estimator.max_epoch - 1:
                raise ValueError("Found checkpoint with maximum number of epoch %d reached, please "
                                 "specify resume_from_checkpoint=False (default value) if you want "
                                 "to train from scratch." % estimator.max_epoch)
            estimator.max_epoch -= self.trained_epoch + 1
            msg += "%d epochs " % estimator.max_epoch
        if estimator.max_batch:
            if self.trained_batch >= estimator.max_batch - 1:
                raise ValueError("Found checkpoint with maximum number of batch %d reached, please "
                                 "specify resume_from_checkpoint=False (default value) if you want "
                                 "to train from scratch." % self.trained_batch)
            estimator.max_batch -= self.trained_batch + 1
            msg += "%d batches " % estimator.max_batch
        path = os.path.join(self.model_dir, '%s-epoch%dbatch%d' % (
            self.model_prefix, self.trained_epoch, self.trained_batch))
        for ext in ('.params', '.states'):
            assert os.path.exists(path + ext), \
                "Failed to load checkpoint, %s does not exist" % (path + ext)
        estimator.net.load_parameters(path + '.params', ctx=estimator.context)
        estimator.trainer.load_states(path + '.states')
        estimator.logger.warning(msg)


class EarlyStoppingHandler(TrainBegin, EpochEnd, TrainEnd):
    """Stops training when ``monitor`` has not improved by ``min_delta`` for ``patience``
    epochs (compared with ``baseline`` at first, if given)."""

    def __init__(self, monitor, min_delta=0, patience=0, mode='auto', baseline=None):
        super(EarlyStoppingHandler, self).__init__()
        if not isinstance(monitor, EvalMetric):
            raise ValueError("Please provide one of the metric objects from estimator.train_metrics "
                             "and estimator.val_metrics as monitor.")
        if isinstance(monitor, CompositeEvalMetric):
            raise ValueError("CompositeEvalMetric is not supported for EarlyStoppingHandler, "
                             "please specify a simple metric instead.")
        self.monitor = monitor
        self.baseline = baseline
        self.patience = patience
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        self.monitor_op = _comparison(mode, monitor, 'EarlyStopping')
        # an improvement is a change of at least |min_delta| in the direction of monitor_op
        self.min_delta = min_delta if self.monitor_op is np.greater else -min_delta

    def train_begin(self, estimator, *args, **kwargs):
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        self.best = self.baseline if self.baseline is not None else _worst(self.monitor_op)

    def epoch_end(self, estimator, *args, **kwargs):
        name, value = self.monitor.get()
        if np.isnan(value):
            warnings.warn(RuntimeWarning(
                '%s is not updated, make sure you pass one of the metric objects from '
                'estimator.train_metrics and estimator.val_metrics as monitor.' % name))
        elif self.monitor_op(value - self.min_delta, self.best):
            self.best = value
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = self.current_epoch
                self.stop_training = True
        self.current_epoch += 1
        return self.stop_training

    def train_end(self, estimator, *args, **kwargs):
        if self.stopped_epoch > 0:
            estimator.logger.info('[Epoch %d] EarlyStoppingHanlder: early stopping due to %s not '
                                  'improving', self.stopped_epoch, self.monitor.get()[0])


class GradientUpdateHandler(BatchEnd):
    """Applies the gradients after each batch: ``trainer.step`` with the number of samples
    (the first dimension of the losses of all devices together)."""

    def __init__(self, priority=-2000):
        self.priority = priority

    def batch_end(self, estimator, *args, **kwargs):
        loss = kwargs['loss']
        losses = loss if isinstance(loss, list) else [loss]
        estimator.trainer.step(sum(device_loss.shape[0] for device_loss in losses))
