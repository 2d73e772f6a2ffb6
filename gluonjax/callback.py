"""Training callbacks for ``Module.fit`` (MXNet's ``mx.callback``).

Batch-end callbacks are called with a ``BatchEndParam`` (epoch, nbatch,
eval_metric, locals); epoch-end callbacks with ``(epoch, symbol, arg_params,
aux_params)``. They log through ``logging`` as MXNet's do, with MXNet's text.
"""
import logging
import math
import time

__all__ = ['module_checkpoint', 'do_checkpoint', 'log_train_metric', 'Speedometer',
           'ProgressBar', 'LogValidationMetricsCallback']


def _check_period(who, period):
    if not isinstance(period, int) or isinstance(period, bool) or period < 1:
        raise ValueError('%s: period must be a positive int, got %r' % (who, period))
    return period


def module_checkpoint(mod, prefix, period=1, save_optimizer_states=False):
    """An epoch-end callback that saves ``mod``'s checkpoint every ``period`` epochs."""
    period = _check_period('module_checkpoint', int(max(1, period)))

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            mod.save_checkpoint(prefix, iter_no + 1, save_optimizer_states)
    return _callback


def do_checkpoint(prefix, period=1):
    """An epoch-end callback writing ``prefix-symbol.json`` and ``prefix-%04d.params``
    (numbered from 1) every ``period`` epochs."""
    from .model import save_checkpoint
    period = _check_period('do_checkpoint', int(max(1, period)))

    def _callback(iter_no, sym, arg, aux):
        if (iter_no + 1) % period == 0:
            save_checkpoint(prefix, iter_no + 1, sym, arg, aux)
    return _callback


def log_train_metric(period, auto_reset=False):
    """A batch-end callback logging the training metric every ``period`` batches."""
    period = _check_period('log_train_metric', period)

    def _callback(param):
        if param.nbatch % period == 0 and param.eval_metric is not None:
            for name, value in param.eval_metric.get_name_value():
                logging.info('Iter[%d] Batch[%d] Train-%s=%f', param.epoch, param.nbatch, name, value)
            if auto_reset:
                param.eval_metric.reset_local()
    return _callback


class Speedometer:
    """Logs the training speed (samples/sec) and the metric every ``frequent`` batches.

    Its line reads as MXNet's:
    ``Epoch[0] Batch [20-40]\\tSpeed: 1234.56 samples/sec\\taccuracy=0.500000``
    (``Batch [20]`` when ``auto_reset`` is False).
    """

    def __init__(self, batch_size, frequent=50, auto_reset=True):
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError('Speedometer: batch_size must be a positive int, got %r' % (batch_size,))
        self.batch_size = batch_size
        self.frequent = _check_period('Speedometer', frequent)
        self.init = False
        self.tic = 0
        self.last_count = 0
        self.auto_reset = auto_reset

    def __call__(self, param):
        count = param.nbatch
        if self.last_count > count:
            self.init = False
        self.last_count = count
        if not self.init:
            self.init = True
            self.tic = time.time()
            return
        if count % self.frequent != 0:
            return
        elapsed = time.time() - self.tic
        speed = self.frequent * self.batch_size / elapsed if elapsed > 0 else float('inf')
        if param.eval_metric is not None:
            name_value = param.eval_metric.get_name_value()
            if self.auto_reset:
                param.eval_metric.reset_local()
                msg = 'Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec'
                msg += '\t%s=%f' * len(name_value)
                logging.info(msg, param.epoch, count - self.frequent, count, speed, *sum(name_value, ()))
            else:
                msg = 'Epoch[%d] Batch [0-%d]\tSpeed: %.2f samples/sec'
                msg += '\t%s=%f' * len(name_value)
                logging.info(msg, param.epoch, count, speed, *sum(name_value, ()))
        else:
            logging.info('Iter[%d] Batch [%d]\tSpeed: %.2f samples/sec', param.epoch, count, speed)
        self.tic = time.time()


class ProgressBar:
    """Draws ``[=====.....] 50.0%`` for the batches of an epoch of ``total`` batches."""

    def __init__(self, total, length=80):
        if not isinstance(total, int) or total < 1:
            raise ValueError('ProgressBar: total must be a positive int, got %r' % (total,))
        self.bar_len = length
        self.total = total

    def __call__(self, param):
        count = param.nbatch
        filled = int(round(self.bar_len * count / float(self.total)))
        percents = math.ceil(100.0 * count / float(self.total))
        prog_bar = '=' * filled + '-' * (self.bar_len - filled)
        logging.info('[%s] %s%s\r', prog_bar, percents, '%')


class LogValidationMetricsCallback:
    """An eval-end callback logging each validation metric: ``Epoch[0] Validation-accuracy=0.9``."""

    def __call__(self, param):
        if not param.eval_metric:
            return
        for name, value in param.eval_metric.get_name_value():
            logging.info('Epoch[%d] Validation-%s=%f', param.epoch, name, value)
