"""The Estimator: MXNet 1.x's fit/evaluate loop over Gluon DataLoaders."""
import copy
import logging
import sys
import warnings

from ....context import Context, cpu, gpu, num_gpus
from ....metric import Loss as metric_loss
from ...data import DataLoader
from ...loss import Loss as gluon_loss
from ...trainer import Trainer
from .batch_processor import BatchProcessor
from .event_handler import (BatchBegin, BatchEnd, EpochBegin, EpochEnd, GradientUpdateHandler,
                            LoggingHandler, MetricHandler, StoppingHandler, TrainBegin, TrainEnd,
                            ValidationHandler, _check_event_handlers)
from .utils import _check_handler_metric_ref, _check_metrics, _suggest_metric_for_loss

__all__ = ['Estimator']

_EVENTS = (TrainBegin, EpochBegin, BatchBegin, BatchEnd, EpochEnd, TrainEnd)


def _check_data_loader(data):
    if not isinstance(data, DataLoader):
        raise ValueError("Estimator only support input as Gluon DataLoader. Alternatively, you "
                         "can transform your DataIter or any NDArray into Gluon DataLoader. "
                         "Refer to gluon.data.DataLoader")


class Estimator(object):
    """Trains ``net`` with ``loss`` and ``trainer`` on ``context`` (a Context or a list).

    ``fit(train_data, val_data=None, epochs=None, event_handlers=None, batches=None,
    batch_axis=0)`` runs exactly one of ``epochs`` or ``batches``; ``evaluate(val_data)``
    runs ``val_net`` (default ``net``, it may share its parameters) with ``val_loss``
    (default ``loss``). ``train_metrics`` gain a ``'training '`` name prefix and a
    ``metric.Loss`` of the loss when none are given (plus Accuracy for
    SoftmaxCrossEntropyLoss); ``val_metrics`` default to copies named ``'validation ...'``.
    Each batch goes through ``batch_processor`` (a :class:`BatchProcessor`). Logs go to
    ``self.logger`` (INFO and above to ``sys.stdout``).
    """

    logger = None

    def __init__(self, net, loss, train_metrics=None, val_metrics=None, initializer=None,
                 trainer=None, context=None, val_net=None, val_loss=None, batch_processor=None):
        self.net = net
        self.loss = self._check_loss(loss)
        self._train_metrics = _check_metrics(train_metrics)
        self._val_metrics = _check_metrics(val_metrics)
        self._add_default_training_metrics()
        self._add_validation_metrics()
        self.val_loss = self.loss if val_loss is None else self._check_loss(val_loss)
        self.val_net = self.net if val_net is None else val_net
        self.logger = logging.Logger(name='Estimator', level=logging.INFO)
        self.logger.addHandler(logging.StreamHandler(sys.stdout))
        self.context = self._check_context(context)
        self._initialize(initializer)
        self.trainer = self._check_trainer(trainer)
        self.batch_processor = self._check_batch_processor(batch_processor)
        self.max_epoch = self.max_batch = None
        self.batch_axis = 0

    @property
    def train_metrics(self):
        return self._train_metrics

    @property
    def val_metrics(self):
        return self._val_metrics

    # ---- construction checks -------------------------------------------------------------

    @staticmethod
    def _check_loss(loss):
        if not isinstance(loss, gluon_loss):
            raise ValueError("loss must be a Loss, refer to gluon.loss.Loss:{}".format(loss))
        return loss

    @staticmethod
    def _check_context(context):
        available_gpus = [gpu(i) for i in range(num_gpus())]
        if not context:
            if len(available_gpus) > 1:
                warnings.warn("You have multiple GPUs, gpu(0) will be used by default. To utilize "
                              "all your GPUs, specify context as a list of gpus, e.g. "
                              "context=[mx.gpu(0), mx.gpu(1)] ")
            return available_gpus[:1] or [cpu()]
        if isinstance(context, Context):
            context = [context]
        elif not (isinstance(context, list) and all(isinstance(c, Context) for c in context)):
            raise ValueError("context must be a Context or a list of Context, for example "
                             "mx.cpu() or [mx.gpu(0), mx.gpu(1)], refer to mxnet.Context:{}"
                             .format(context))
        for ctx in context:
            assert ctx in available_gpus or str(ctx).startswith('cpu'), \
                "%s is not available, please make sure your context is in one of: mx.cpu(), %s" % (
                    ctx, ", ".join(str(c) for c in available_gpus))
        return context

    @staticmethod
    def _check_batch_processor(batch_processor):
        if batch_processor is None:
            return BatchProcessor()
        if not (callable(getattr(batch_processor, 'fit_batch', None)) and
                callable(getattr(batch_processor, 'evaluate_batch', None))):
            raise ValueError('Customized Batch Processor must contain fit_batch() and '
                             'evaluate_batch() methods')
        return batch_processor

    def _is_initialized(self):
        """Whether every parameter of net is initialized (or waits for deferred init)."""
        try:
            for param in self.net.collect_params().values():
                param.list_ctx()
        except RuntimeError:
            return False
        return True

    def _initialize(self, initializer):
        if not self._is_initialized():
            # Parameters already initialized are kept (a pretrained body with a new head).
            if initializer:
                self.net.initialize(init=initializer, ctx=self.context)
            else:
                self.net.initialize(ctx=self.context)
        elif initializer:
            warnings.warn("Network already fully initialized, skipping initialization. You don't "
                          "need to pass initializer if you already initialized your net. You can "
                          "use net.initialize(init=your_initializer, force_reinit=True) to force "
                          "re-initialize.")

    def _check_trainer(self, trainer):
        if not trainer:
            warnings.warn("No trainer specified, default SGD optimizer with learning rate 0.001 "
                          "is used.")
            return Trainer(self.net.collect_params(), 'sgd', {'learning_rate': 0.001})
        if not isinstance(trainer, Trainer):
            raise ValueError("Trainer must be a Gluon Trainer instance, refer to gluon.Trainer:{}"
                             .format(trainer))
        return trainer

    def _add_default_training_metrics(self):
        if not self._train_metrics:
            suggested = _suggest_metric_for_loss(self.loss)
            if suggested:
                self._train_metrics = [suggested]
            # the metric is named after the loss block without its counter ('l2loss')
            self._train_metrics.append(metric_loss(self.loss.name.rstrip('0123456789')))
        for metric in self._train_metrics:
            metric.name = 'training ' + metric.name

    def _add_validation_metrics(self):
        if not self._val_metrics:
            self._val_metrics = [copy.deepcopy(metric) for metric in self._train_metrics]
        for metric in self._val_metrics:
            if 'training' in metric.name:
                metric.name = metric.name.replace('training', 'validation')
            else:
                metric.name = 'validation ' + metric.name

    def _get_data_and_label(self, batch, ctx, batch_axis=0):
        return self.batch_processor._get_data_and_label(batch, ctx, batch_axis)

    # ---- the loops ----------------------------------------------------------------------

    def evaluate(self, val_data, batch_axis=0, event_handlers=None):
        """Runs ``val_net`` over ``val_data`` (a DataLoader) and updates ``val_metrics``; a
        MetricHandler and a LoggingHandler of the validation metrics are added unless given."""
        _check_data_loader(val_data)
        for metric in self.val_metrics:
            metric.reset()
        handlers = self._prepare_default_validation_handlers(event_handlers)
        _, epoch_begin, batch_begin, batch_end, epoch_end, _ = self._categorize_handlers(handlers)
        for handler in epoch_begin:
            handler.epoch_begin(self)
        for batch in val_data:
            for handler in batch_begin:
                handler.batch_begin(self, batch=batch)
            _, label, pred, loss = self.batch_processor.evaluate_batch(self, batch, batch_axis)
            for handler in batch_end:
                handler.batch_end(self, batch=batch, pred=pred, label=label, loss=loss)
        for handler in epoch_end:
            handler.epoch_end(self)

    def fit(self, train_data, val_data=None, epochs=None, event_handlers=None, batches=None,
            batch_axis=0):
        """Trains on ``train_data`` (a DataLoader) for ``epochs`` epochs or ``batches`` batches
        (exactly one of them). StoppingHandler, GradientUpdateHandler, MetricHandler,
        LoggingHandler and, with ``val_data``, ValidationHandler are added unless given."""
        _check_data_loader(train_data)
        if (not epochs) == (not batches):
            raise ValueError("Fit only support exactly one type of iteration, train by number of "
                             "epochs or number of batches. Please specify one and only one of: "
                             "epochs or batches.")
        self.max_epoch = epochs
        self.max_batch = batches
        self.batch_axis = batch_axis
        handlers = self._prepare_default_handlers(val_data, event_handlers)
        train_begin, epoch_begin, batch_begin, batch_end, epoch_end, train_end = \
            self._categorize_handlers(handlers)
        for handler in train_begin:
            handler.train_begin(self)
        stop = False
        while not stop:
            for handler in epoch_begin:
                handler.epoch_begin(self)
            for batch in train_data:
                for handler in batch_begin:
                    handler.batch_begin(self, batch=batch)
                _, label, pred, loss = self.batch_processor.fit_batch(self, batch, batch_axis)
                # every handler sees the batch end, even after one asked to stop
                results = [handler.batch_end(self, batch=batch, pred=pred, label=label, loss=loss)
                           for handler in batch_end]
                if any(results):
                    break
            stop = any([handler.epoch_end(self) for handler in epoch_end])
        for handler in train_end:
            handler.train_end(self)

    # ---- handlers -----------------------------------------------------------------------

    def _prepare_default_handlers(self, val_data, event_handlers):
        handlers = _check_event_handlers(event_handlers)
        given = lambda kind: any(isinstance(h, kind) for h in handlers)  # noqa: E731
        defaults = [StoppingHandler(self.max_epoch, self.max_batch)]
        if not given(GradientUpdateHandler):
            defaults.append(GradientUpdateHandler())
        if not given(MetricHandler):
            defaults.append(MetricHandler(metrics=self.train_metrics))
        if not given(ValidationHandler) and val_data:
            defaults.append(ValidationHandler(val_data=val_data, eval_fn=self.evaluate))
        if not given(LoggingHandler):
            defaults.append(LoggingHandler(metrics=self.train_metrics))
        return self._merge_handlers(handlers, defaults, self.train_metrics + self.val_metrics)

    def _prepare_default_validation_handlers(self, event_handlers):
        handlers = _check_event_handlers(event_handlers)
        defaults = []
        if not any(isinstance(h, MetricHandler) for h in handlers):
            defaults.append(MetricHandler(metrics=self.val_metrics))
        if not any(isinstance(h, LoggingHandler) for h in handlers):
            defaults.append(LoggingHandler(metrics=self.val_metrics))
        return self._merge_handlers(handlers, defaults, self.val_metrics)

    @staticmethod
    def _merge_handlers(handlers, defaults, known_metrics):
        """The user's handlers then the defaults, sorted by priority (stable).

        When both are present, a user handler's metrics must be the estimator's own: the
        default MetricHandler updates only those, so another metric would never change."""
        mixing = handlers and defaults
        handlers = handlers + defaults
        if mixing:
            known = set(known_metrics)
            for handler in handlers:
                _check_handler_metric_ref(handler, known)
        handlers.sort(key=lambda handler: getattr(handler, 'priority', 0))
        return handlers

    @staticmethod
    def _categorize_handlers(event_handlers):
        """(train_begin, epoch_begin, batch_begin, batch_end, epoch_end, train_end) lists: the
        handlers deriving from each event's mixin, so a handler is called only for its events."""
        return tuple([h for h in event_handlers if isinstance(h, event)] for event in _EVENTS)
