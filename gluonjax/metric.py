"""``mx.metric``: online evaluation metrics (Accuracy, F1, MSE, CrossEntropy, ...).

Names, values and the ``update`` / ``get`` protocol follow MXNet 1.9: ``get()``
returns ``(name, value)`` with the value a Python float (NaN before any update).

Accuracy and Loss count on the device: ``update`` queues a small device
computation and returns without waiting for it, so a training loop that updates
them every batch is not synchronised with the device each time; the counts are
fetched when read (``get``, ``sum_metric``). The other metrics work on numpy
copies of their inputs, as MXNet's do.
"""
import json
import math
import warnings
from collections import OrderedDict

import jax
import jax.numpy as jnp
import numpy

from ._caches import lru_cache
from . import _x64
from .base import MXNetError, numeric_types, string_types
from .ndarray.ndarray import NDArray
from . import ndarray  # MXNet's metric module has mx.nd as metric.ndarray; GluonTS imports it from there

_AxisError = getattr(numpy, 'exceptions', numpy).AxisError  # numpy.exceptions is numpy >= 1.25

__all__ = ['EvalMetric', 'CompositeEvalMetric', 'Accuracy', 'TopKAccuracy', 'F1', 'MCC', 'Perplexity', 'MAE',
           'MSE', 'RMSE', 'CrossEntropy', 'NegativeLogLikelihood', 'PearsonCorrelation', 'PCC', 'Loss', 'Torch',
           'Caffe', 'CustomMetric', 'create', 'register', 'alias', 'np', 'check_label_shapes']


def _host(x):
    """A numpy copy of an NDArray (numpy arrays and numbers pass through as arrays)."""
    if isinstance(x, NDArray):
        return x.asnumpy()
    return numpy.asarray(x)


def _shape(x):
    return tuple(x.shape) if hasattr(x, 'shape') else numpy.shape(x)


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """Check that labels and predictions have the same length (or shape, with ``shape=True``);
    with ``wrap``, put single arrays in lists."""
    if not shape:
        label_shape, pred_shape = len(labels), len(preds)
    else:
        label_shape, pred_shape = _shape(labels), _shape(preds)
    if label_shape != pred_shape:
        raise ValueError('Shape of labels {} does not match shape of predictions {}'.format(label_shape, pred_shape))
    if wrap:
        if isinstance(labels, (NDArray, numpy.ndarray)):
            labels = [labels]
        if isinstance(preds, (NDArray, numpy.ndarray)):
            preds = [preds]
    return labels, preds


# ---------------------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------------------

_REGISTRY = {}


def register(klass):
    """Register a metric class under its lower-case name (for ``create``)."""
    if not (isinstance(klass, type) and issubclass(klass, EvalMetric)):
        raise AssertionError('register: can only register subclasses of EvalMetric, got %r' % (klass,))
    name = klass.__name__.lower()
    if name in _REGISTRY and _REGISTRY[name] is not klass:
        warnings.warn('New metric %s.%s is overriding existing metric %s.%s'
                      % (klass.__module__, klass.__name__, _REGISTRY[name].__module__, _REGISTRY[name].__name__),
                      UserWarning, stacklevel=2)
    _REGISTRY[name] = klass
    return klass


def alias(*aliases):
    """Decorator registering a metric class under additional names."""
    def reg(klass):
        for a in aliases:
            _REGISTRY[a.lower()] = klass
        return klass
    return reg


def _create_one(*args, **kwargs):
    if args:
        name, args = args[0], args[1:]
    else:
        name = kwargs.pop('metric')
    if isinstance(name, EvalMetric):
        if args or kwargs:
            raise AssertionError('metric is already an instance. Additional arguments are invalid')
        return name
    if isinstance(name, dict):
        return _create_one(**name)
    if not isinstance(name, string_types):
        raise AssertionError('metric must be a name, an EvalMetric, a list or a function, got %r' % (name,))
    if name.startswith('['):
        name, kwargs = json.loads(name)
        return _create_one(name, **kwargs)
    if name.startswith('{'):
        return _create_one(**json.loads(name))
    key = name.lower()
    if key not in _REGISTRY:
        raise AssertionError('%s is not registered. Please register with metric.register first (known metrics: %s)'
                             % (name, ', '.join(sorted(_REGISTRY))))
    return _REGISTRY[key](*args, **kwargs)


def create(metric, *args, **kwargs):
    """Create a metric from a name (``'acc'``, ``'ce'``, ...), an EvalMetric, a list of them
    (a CompositeEvalMetric) or a function ``feval(label, pred)`` (a CustomMetric).

    >>> mx.metric.create([mx.metric.Accuracy(), 'rmse', lambda label, pred: 0.0])
    """
    if callable(metric) and not isinstance(metric, EvalMetric):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite = CompositeEvalMetric()
        for child in metric:
            composite.add(create(child, *args, **kwargs))
        return composite
    return _create_one(metric, *args, **kwargs)


# ---------------------------------------------------------------------------------------
# Base classes
# ---------------------------------------------------------------------------------------

class EvalMetric:
    """Base class of evaluation metrics.

    ``update(labels, preds)`` adds a batch; ``get()`` returns ``(name, value)``; ``reset()``
    starts again. ``sum_metric / num_inst`` is the value of most metrics; the ``global_``
    counts survive ``reset_local()``.
    """

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop('has_global_stats', False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return 'EvalMetric: {}'.format(dict(self.get_name_value()))

    def get_config(self):
        """The arguments that recreate this metric with ``create(**config)``."""
        config = self._kwargs.copy()
        config.update({'metric': type(self).__name__, 'name': self.name,
                       'output_names': self.output_names, 'label_names': self.label_names})
        return config

    def update_dict(self, label, pred):
        """Update with dicts name -> array (filtered by ``label_names`` / ``output_names``)."""
        pred = [pred[n] for n in self.output_names] if self.output_names is not None else list(pred.values())
        label = [label[n] for n in self.label_names] if self.label_names is not None else list(label.values())
        self.update(label, pred)

    def update(self, labels, preds):
        """Add a batch: ``labels`` and ``preds`` are lists of NDArrays."""
        raise NotImplementedError()

    def reset(self):
        """Forget everything."""
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self):
        """Forget the local counts, keep the global ones."""
        self.num_inst = 0
        self.sum_metric = 0.0

    def get(self):
        """``(name, value)``; the value is NaN before any update."""
        if self.num_inst == 0:
            return (self.name, float('nan'))
        return (self.name, float(self.sum_metric / self.num_inst))

    def get_global(self):
        """``(name, value)`` over everything since ``reset()`` (ignoring ``reset_local``)."""
        if self._has_global_stats:
            if self.global_num_inst == 0:
                return (self.name, float('nan'))
            return (self.name, float(self.global_sum_metric / self.global_num_inst))
        return self.get()

    @staticmethod
    def _pairs(name, value):
        if not isinstance(name, list):
            name = [name]
        if not isinstance(value, list):
            value = [value]
        return list(zip(name, value))

    def get_name_value(self):
        """``[(name, value)]``."""
        return self._pairs(*self.get())

    def get_global_name_value(self):
        """``[(name, value)]`` of the global values."""
        if self._has_global_stats:
            return self._pairs(*self.get_global())
        return self.get_name_value()


class _DeviceSums:
    """Mixin: ``sum_metric`` / ``global_sum_metric`` that also hold sums still on the device.

    ``_queue(x)`` adds a device scalar to both sums without waiting for it; reading or
    assigning either sum first fetches what is queued.
    """

    def _fold(self):
        pending = self.__dict__.get('_pending')
        if pending:
            self._pending = []
            total = numpy.sum(numpy.asarray(jax.device_get(pending), dtype=numpy.float64))
            total = int(total) if self._integral else float(total)
            self._local_sum += total
            self._global_sum += total

    def _queue(self, value):
        self._pending.append(value)
        if len(self._pending) >= 1024:
            self._fold()

    @property
    def sum_metric(self):
        self._fold()
        return self._local_sum

    @sum_metric.setter
    def sum_metric(self, value):
        self._fold()
        self._local_sum = value

    @property
    def global_sum_metric(self):
        self._fold()
        return self._global_sum

    @global_sum_metric.setter
    def global_sum_metric(self, value):
        self._fold()
        self._global_sum = value


@register
@alias('composite')
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; ``get()`` returns lists of names and values.

    >>> m = mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), mx.metric.F1()])
    >>> m.update([mx.nd.array([0, 1, 1])], [mx.nd.array([[0.3, 0.7], [0, 1.], [0.4, 0.6]])])
    >>> m.get()
    (['accuracy', 'f1'], [0.6666666666666666, 0.8])
    """

    def __init__(self, metrics=None, name='composite', output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.metrics = [create(i) for i in (metrics or [])]

    def add(self, metric):
        """Add a child metric (anything ``create`` accepts)."""
        self.metrics.append(create(metric))

    def get_metric(self, index):
        """The ``index``-th child metric."""
        try:
            return self.metrics[index]
        except IndexError:
            return ValueError('Metric index {} is out of range 0 and {}'.format(index, len(self.metrics)))

    def update_dict(self, labels, preds):
        if self.label_names is not None:
            labels = OrderedDict([i for i in labels.items() if i[0] in self.label_names])
        if self.output_names is not None:
            preds = OrderedDict([i for i in preds.items() if i[0] in self.output_names])
        for metric in self.metrics:
            metric.update_dict(labels, preds)

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        for metric in getattr(self, 'metrics', []):
            metric.reset()

    def reset_local(self):
        for metric in getattr(self, 'metrics', []):
            metric.reset_local()

    def _collect(self, getter):
        names, values = [], []
        for metric in self.metrics:
            name, value = getter(metric)
            if isinstance(name, string_types):
                name = [name]
            if isinstance(value, numeric_types):
                value = [value]
            names.extend(name)
            values.extend(value)
        return (names, values)

    def get(self):
        return self._collect(lambda m: m.get())

    def get_global(self):
        return self._collect(lambda m: m.get_global())

    def get_config(self):
        config = super().get_config()
        config.update({'metrics': [i.get_config() for i in self.metrics]})
        return config


# ---------------------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------------------

_count_cache = lru_cache('metric.count_correct', 64)  # argmax axis -> jitted count


def _count_correct_fn(argmax_axis):
    fn = _count_cache.get(argmax_axis)
    if fn is None:
        def count(pred, label):
            if argmax_axis is not None:
                pred = jnp.argmax(pred, axis=argmax_axis)
            return jnp.sum(pred.astype(jnp.int32).ravel() == label.astype(jnp.int32).ravel(), dtype=jnp.int32)
        fn = _count_cache[argmax_axis] = _x64.jit(count)
    return fn


@register
@alias('acc')
class Accuracy(_DeviceSums, EvalMetric):
    """The fraction of samples whose predicted class (argmax over ``axis`` of the prediction,
    or the prediction itself when it has the label's shape) equals the label.

    >>> acc = mx.metric.Accuracy()
    >>> acc.update(preds=[mx.nd.array([[0.3, 0.7], [0, 1.], [0.4, 0.6]])], labels=[mx.nd.array([0, 1, 1])])
    >>> acc.get()
    ('accuracy', 0.6666666666666666)
    """
    _integral = True

    def __init__(self, axis=1, name='accuracy', output_names=None, label_names=None):
        self._pending, self._local_sum, self._global_sum = [], 0, 0
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            pred_shape, label_shape = _shape(pred), _shape(label)
            argmax_axis = None
            if pred_shape != label_shape:
                ndim = len(pred_shape)
                if not -ndim <= self.axis < ndim:
                    raise MXNetError('Accuracy: axis %d is out of range for predictions of shape %s'
                                     % (self.axis, pred_shape))
                argmax_axis = self.axis % ndim
                pred_shape = pred_shape[:argmax_axis] + pred_shape[argmax_axis + 1:]
            n_pred, n_label = int(numpy.prod(pred_shape)), int(numpy.prod(label_shape))
            check_label_shapes(range(n_label), range(n_pred))
            if isinstance(pred, NDArray) and isinstance(label, NDArray):
                label_data = label._data
                if label.context != pred.context:
                    label_data = jax.device_put(label_data, next(iter(pred._data.devices())))
                self._queue(_count_correct_fn(argmax_axis)(pred._data, label_data))
            else:
                p = _host(pred)
                if argmax_axis is not None:
                    p = numpy.argmax(p, axis=argmax_axis)
                correct = int((p.astype('int32').ravel() == _host(label).astype('int32').ravel()).sum())
                self.sum_metric += correct
                self.global_sum_metric += correct
            self.num_inst += n_pred
            self.global_num_inst += n_pred


@register
@alias('top_k_accuracy', 'top_k_acc')
class TopKAccuracy(EvalMetric):
    """The fraction of samples whose label is among the ``top_k`` highest predictions.
    Its name is ``top_k_accuracy_<k>``."""

    def __init__(self, top_k=1, name='top_k_accuracy', output_names=None, label_names=None):
        super().__init__(name, top_k=top_k, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.top_k = top_k
        if not self.top_k > 1:
            raise AssertionError('TopKAccuracy: please use Accuracy if top_k is no more than 1 (got top_k=%r)' % top_k)
        self.name += '_%d' % self.top_k

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            if len(_shape(pred)) > 2:
                raise AssertionError('TopKAccuracy: predictions should be no more than 2 dims, got shape %s'
                                     % (_shape(pred),))
            pred = _host(pred).astype('float32')
            label = _host(label).astype('int32')
            check_label_shapes(label, pred)
            num_samples = pred.shape[0]
            if pred.ndim == 1:
                # MXNet's rule for 1-D predictions: compare the argpartition indices with the labels
                # (a top_k above the size fails in argpartition, as in MXNet)
                correct = int((numpy.argpartition(pred, -self.top_k) == label.ravel()).sum())
                self.sum_metric += correct
                self.global_sum_metric += correct
            else:
                num_classes = pred.shape[1]
                top_k = min(num_classes, self.top_k)
                # MXNet partitions at -self.top_k: more than num_classes fails there
                top = numpy.argpartition(pred, -self.top_k, axis=1)[:, num_classes - top_k:]
                correct = int((top == label.reshape(-1, 1)).any(axis=1).sum())
                self.sum_metric += correct
                self.global_sum_metric += correct
            self.num_inst += num_samples
            self.global_num_inst += num_samples


class _BinaryClassificationMetrics:
    """True/false positive/negative counts of a binary classifier, local and global."""

    def __init__(self):
        self.reset_stats()

    def update_binary_stats(self, label, pred, owner):
        pred = _host(pred)
        label = _host(label).astype('int32')
        if pred.ndim < 2:  # MXNet's argmax over axis 1 fails first
            raise _AxisError('%s: predictions must have shape (batch, 2), got %s' % (owner, pred.shape))
        check_label_shapes(label, pred)
        if pred.ndim != 2:
            raise ValueError('%s: predictions must have shape (batch, 2), got %s' % (owner, pred.shape))
        pred_label = numpy.argmax(pred, axis=1)
        if len(numpy.unique(label)) > 2:
            raise ValueError('%s currently only supports binary classification.' % owner)
        pred_true, label_true = pred_label == 1, label.ravel() == 1
        counts = {'true_positives': int((pred_true & label_true).sum()),
                  'false_positives': int((pred_true & ~label_true).sum()),
                  'false_negatives': int((~pred_true & label_true).sum()),
                  'true_negatives': int((~pred_true & ~label_true).sum())}
        for key, value in counts.items():
            setattr(self, key, getattr(self, key) + value)
            setattr(self, 'global_' + key, getattr(self, 'global_' + key) + value)

    @staticmethod
    def _ratio(num, den):
        return float(num) / den if den > 0 else 0.

    @property
    def precision(self):
        return self._ratio(self.true_positives, self.true_positives + self.false_positives)

    @property
    def global_precision(self):
        return self._ratio(self.global_true_positives, self.global_true_positives + self.global_false_positives)

    @property
    def recall(self):
        return self._ratio(self.true_positives, self.true_positives + self.false_negatives)

    @property
    def global_recall(self):
        return self._ratio(self.global_true_positives, self.global_true_positives + self.global_false_negatives)

    @staticmethod
    def _f(p, r):
        return 2 * p * r / (p + r) if p + r > 0 else 0.

    @property
    def fscore(self):
        return self._f(self.precision, self.recall)

    @property
    def global_fscore(self):
        return self._f(self.global_precision, self.global_recall)

    def matthewscc(self, use_global=False):
        """Matthews correlation coefficient; zero factors of the denominator count as 1."""
        prefix = 'global_' if use_global else ''
        tp, fp, fn, tn = (float(getattr(self, prefix + k)) for k in
                          ('true_positives', 'false_positives', 'false_negatives', 'true_negatives'))
        if tp + fp + fn + tn == 0:
            return 0.
        denom = 1.
        for t in (tp + fp, tp + fn, tn + fp, tn + fn):
            if t != 0.:
                denom *= t
        return (tp * tn - fp * fn) / math.sqrt(denom)

    @property
    def total_examples(self):
        return self.false_negatives + self.false_positives + self.true_negatives + self.true_positives

    @property
    def global_total_examples(self):
        return (self.global_false_negatives + self.global_false_positives + self.global_true_negatives
                + self.global_true_positives)

    def local_reset_stats(self):
        self.false_positives = self.false_negatives = self.true_positives = self.true_negatives = 0

    def reset_stats(self):
        self.local_reset_stats()
        self.global_false_positives = self.global_false_negatives = 0
        self.global_true_positives = self.global_true_negatives = 0


class _BinaryMetric(EvalMetric):
    """Base of F1 and MCC: ``average='macro'`` averages per-batch scores, ``'micro'`` scores all samples."""

    def __init__(self, name, output_names, label_names, average):
        if average not in ('macro', 'micro'):
            raise ValueError("%s: average must be 'macro' or 'micro', got %r" % (type(self).__name__, average))
        self.average = average
        self.metrics = _BinaryClassificationMetrics()
        EvalMetric.__init__(self, name=name, output_names=output_names, label_names=label_names,
                            has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self.metrics.update_binary_stats(label, pred, type(self).__name__)
        local, glob = self._score(False), self._score(True)
        if self.average == 'macro':
            self.sum_metric += local
            self.global_sum_metric += glob
            self.num_inst += 1
            self.global_num_inst += 1
            self.metrics.reset_stats()
        else:
            self.sum_metric = local * self.metrics.total_examples
            self.global_sum_metric = glob * self.metrics.global_total_examples
            self.num_inst = self.metrics.total_examples
            self.global_num_inst = self.metrics.global_total_examples

    def reset(self):
        self.sum_metric = 0.
        self.num_inst = 0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0
        self.metrics.reset_stats()

    def reset_local(self):
        self.sum_metric = 0.
        self.num_inst = 0
        self.metrics.local_reset_stats()


@register
class F1(_BinaryMetric):
    """F1 score of a binary classifier: ``2 * precision * recall / (precision + recall)``;
    predictions have shape (batch, 2), the class is their argmax."""

    def __init__(self, name='f1', output_names=None, label_names=None, average='macro'):
        super().__init__(name, output_names, label_names, average)

    def _score(self, use_global):
        return self.metrics.global_fscore if use_global else self.metrics.fscore


@register
class MCC(_BinaryMetric):
    """Matthews correlation coefficient of a binary classifier (predictions of shape (batch, 2))."""

    def __init__(self, name='mcc', output_names=None, label_names=None, average='macro'):
        super().__init__(name, output_names, label_names, average)

    def _score(self, use_global):
        return self.metrics.matthewscc(use_global)

    # MXNet's MCC counts instances in floats (num_inst prints as 2.0), unlike F1
    def reset(self):
        super().reset()
        self.num_inst = self.global_num_inst = 0.

    def reset_local(self):
        super().reset_local()
        self.num_inst = 0.


@register
class Perplexity(EvalMetric):
    """Perplexity: ``exp(-mean(log p[label]))``, skipping labels equal to ``ignore_label``.

    ``axis`` is the class axis of the predictions (probabilities, e.g. a softmax output).
    """

    def __init__(self, ignore_label, axis=-1, name='perplexity', output_names=None, label_names=None):
        super().__init__(name, ignore_label=ignore_label, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        if len(labels) != len(preds):
            raise AssertionError('Perplexity: %d labels but %d predictions' % (len(labels), len(preds)))
        loss, num = 0., 0
        for label, pred in zip(labels, preds):
            pred = _host(pred)
            label = _host(label).reshape(-1)
            classes = pred.shape[self.axis]
            if label.size * pred.shape[-1] != pred.size:  # MXNet checks against the last axis, whatever axis is
                raise AssertionError('Perplexity: shape mismatch: labels %s vs. predictions %s'
                                     % (_shape(label), pred.shape))
            axis = self.axis % pred.ndim
            rest = pred.shape[:axis] + pred.shape[axis + 1:] or (1,)
            if rest != (label.size,):  # MXNet picks with the flattened labels: 3-D predictions fail
                raise MXNetError('Perplexity: predictions of shape %s less axis %d must have the shape %s '
                                 'of the flattened labels' % (pred.shape, self.axis, (label.size,)))
            probs = numpy.moveaxis(pred, self.axis, -1).reshape(-1, classes)
            index = numpy.clip(label.astype(numpy.int64), 0, classes - 1)  # MXNet's pick clips
            picked = probs[numpy.arange(label.size), index]
            if self.ignore_label is not None:
                ignore = (label == self.ignore_label).astype(picked.dtype)
                num -= float(ignore.sum())  # MXNet counts with a float sum: num_inst turns float
                picked = picked * (1 - ignore) + ignore
            loss -= float(numpy.sum(numpy.log(numpy.maximum(picked.dtype.type(1e-10), picked))))
            num += picked.size
        self.sum_metric += loss
        self.global_sum_metric += loss
        self.num_inst += num
        self.global_num_inst += num

    def get(self):
        if self.num_inst == 0:
            return (self.name, float('nan'))
        return (self.name, math.exp(self.sum_metric / self.num_inst))

    def get_global(self):
        if self.global_num_inst == 0:
            return (self.name, float('nan'))
        return (self.name, math.exp(self.global_sum_metric / self.global_num_inst))


# ---------------------------------------------------------------------------------------
# Regression
# ---------------------------------------------------------------------------------------

class _Regression(EvalMetric):
    """Base of MAE, MSE, RMSE: one value per batch, averaged over batches (as MXNet does)."""

    def __init__(self, name, output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label, pred = _host(label), _host(pred)
            if label.ndim == 1:
                label = label.reshape(label.shape[0], 1)
            if pred.ndim == 1:
                pred = pred.reshape(pred.shape[0], 1)
            try:
                diff = label - pred
            except ValueError:
                raise ValueError('%s: labels of shape %s and predictions of shape %s do not match'
                                 % (type(self).__name__, label.shape, pred.shape)) from None
            value = float(self._batch_value(diff))
            self.sum_metric += value
            self.global_sum_metric += value
            self.num_inst += 1
            self.global_num_inst += 1


@register
class MAE(_Regression):
    """Mean absolute error ``mean(|label - pred|)`` (per batch, averaged over batches)."""

    def __init__(self, name='mae', output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _batch_value(diff):
        return numpy.abs(diff).mean()


@register
class MSE(_Regression):
    """Mean squared error ``mean((label - pred)**2)`` (per batch, averaged over batches)."""

    def __init__(self, name='mse', output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _batch_value(diff):
        return (diff ** 2.0).mean()


@register
class RMSE(_Regression):
    """Root mean squared error ``sqrt(mean((label - pred)**2))`` (per batch, averaged over batches)."""

    def __init__(self, name='rmse', output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _batch_value(diff):
        return numpy.sqrt((diff ** 2.0).mean())


class _LogLoss(EvalMetric):
    """Base of CrossEntropy and NegativeLogLikelihood: ``-sum(log(p[label] + eps))`` per sample."""

    def __init__(self, eps, name, output_names, label_names):
        super().__init__(name, eps=eps, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.eps = eps

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label, pred = _host(label).ravel(), _host(pred)
            if pred.ndim != 2 or label.shape[0] != pred.shape[0]:
                raise AssertionError('%s: expected predictions of shape (batch, classes) and one label per sample, '
                                     'got labels %s and predictions %s' % (type(self).__name__, label.shape, pred.shape))
            index = label.astype(numpy.int64)
            bad = (index < 0) | (index >= pred.shape[1])
            if bad.any():
                raise IndexError('%s: label %s is out of range for predictions with %d classes'
                                 % (type(self).__name__, label[bad][0], pred.shape[1]))
            prob = pred[numpy.arange(label.shape[0]), index]
            value = float((-numpy.log(prob + self.eps)).sum())
            self.sum_metric += value
            self.global_sum_metric += value
            self.num_inst += label.shape[0]
            self.global_num_inst += label.shape[0]


@register
@alias('ce')
class CrossEntropy(_LogLoss):
    """Cross entropy of predicted probabilities: mean of ``-log(p[label] + eps)``."""

    def __init__(self, eps=1e-12, name='cross-entropy', output_names=None, label_names=None):
        super().__init__(eps, name, output_names, label_names)


@register
@alias('nll_loss')
class NegativeLogLikelihood(_LogLoss):
    """Negative log-likelihood of predicted probabilities: mean of ``-log(p[label] + eps)``."""

    def __init__(self, eps=1e-12, name='nll-loss', output_names=None, label_names=None):
        super().__init__(eps, name, output_names, label_names)


@register
@alias('pearsonr')
class PearsonCorrelation(EvalMetric):
    """Pearson correlation of labels and predictions: per batch averaged (``'macro'``) or over
    all samples (``'micro'``)."""

    def __init__(self, name='pearsonr', output_names=None, label_names=None, average='macro'):
        if average not in ('macro', 'micro'):
            raise ValueError("PearsonCorrelation: average must be 'macro' or 'micro', got %r" % (average,))
        self.average = average
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def reset(self):
        super().reset()
        # running count, means, sums of squared deviations and co-deviation (for 'micro')
        self._n, self._mean_l, self._mean_p, self._m2_l, self._m2_p, self._co = 0, 0., 0., 0., 0., 0.

    def _merge(self, label, pred):
        """Fold a batch into the running moments (Chan et al.'s pairwise update, exact and stable)."""
        nb = label.size
        mean_lb, mean_pb = label.mean(), pred.mean()
        dl, dp = label - mean_lb, pred - mean_pb
        n = self._n + nb
        delta_l, delta_p = mean_lb - self._mean_l, mean_pb - self._mean_p
        weight = self._n * nb / n
        self._m2_l += float((dl * dl).sum()) + delta_l * delta_l * weight
        self._m2_p += float((dp * dp).sum()) + delta_p * delta_p * weight
        self._co += float((dl * dp).sum()) + delta_l * delta_p * weight
        self._mean_l += delta_l * nb / n
        self._mean_p += delta_p * nb / n
        self._n = n

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_label_shapes(label, pred, False, True)
            label = _host(label).ravel().astype(numpy.float64)
            pred = _host(pred).ravel().astype(numpy.float64)
            self.num_inst += 1
            self.global_num_inst += 1
            if self.average == 'macro':
                corr = float(numpy.corrcoef(pred, label)[0, 1])
                self.sum_metric += corr
                self.global_sum_metric += corr
            else:
                self._merge(label, pred)

    def get(self):
        if self.num_inst == 0:
            return (self.name, float('nan'))
        if self.average == 'macro':
            return (self.name, self.sum_metric / self.num_inst)
        denom = math.sqrt(self._m2_l * self._m2_p)
        return (self.name, self._co / denom if denom > 0 else float('nan'))


@register
class PCC(EvalMetric):
    """Multiclass Matthews correlation coefficient from the confusion matrix (``pcc``)."""

    def __init__(self, name='pcc', output_names=None, label_names=None, has_global_stats=True):
        self.k = 2
        super().__init__(name=name, output_names=output_names, label_names=label_names,
                         has_global_stats=has_global_stats)

    def _grow(self, inc):
        self.lcm = numpy.pad(self.lcm, ((0, inc), (0, inc)), 'constant')
        self.gcm = numpy.pad(self.gcm, ((0, inc), (0, inc)), 'constant')
        self.k += inc

    @staticmethod
    def _calc_mcc(cmat):
        n = cmat.sum()
        x, y = cmat.sum(axis=1), cmat.sum(axis=0)
        cov_xx, cov_yy = numpy.sum(x * (n - x)), numpy.sum(y * (n - y))
        if cov_xx == 0 or cov_yy == 0:
            return float('nan')
        cov_xy = numpy.sum(cmat.diagonal() * n - x * y)
        return float(cov_xy / (cov_xx * cov_yy) ** 0.5)

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = _host(label).astype('int32').ravel()
            pred = _host(pred)
            pred = pred.argmax(axis=1) if pred.shape != label.shape and pred.ndim > 1 else pred.astype('int32')
            pred = pred.ravel()
            n = max(int(pred.max()), int(label.max()))
            if n >= self.k:
                self._grow(n + 1 - self.k)
            bcm = numpy.zeros((self.k, self.k))
            numpy.add.at(bcm, (pred, label), 1)
            self.lcm += bcm
            self.gcm += bcm
        self.num_inst += 1
        self.global_num_inst += 1

    @property
    def sum_metric(self):
        return self._calc_mcc(self.lcm) * self.num_inst

    @sum_metric.setter
    def sum_metric(self, value):
        pass  # derived from the confusion matrix

    @property
    def global_sum_metric(self):
        return self._calc_mcc(self.gcm) * self.global_num_inst

    @global_sum_metric.setter
    def global_sum_metric(self, value):
        pass

    def reset(self):
        self.global_num_inst = 0.
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self):
        self.num_inst = 0.
        self.lcm = numpy.zeros((self.k, self.k))


_sum_fn = _x64.jit(lambda x: jnp.sum(x))  # a float64 loss is summed in float64


@register
class Loss(_DeviceSums, EvalMetric):
    """The mean of the values given as predictions (labels are ignored): for printing a loss."""
    _integral = False

    def __init__(self, name='loss', output_names=None, label_names=None):
        self._pending, self._local_sum, self._global_sum = [], 0.0, 0.0
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, _, preds):
        if isinstance(preds, (NDArray, numpy.ndarray)):
            preds = [preds]
        for pred in preds:
            if isinstance(pred, NDArray):
                self._queue(_sum_fn(pred._data))
                size = pred.size
            else:
                pred = numpy.asarray(pred)
                value = float(pred.sum())
                self.sum_metric += value
                self.global_sum_metric += value
                size = pred.size
            self.num_inst += size
            self.global_num_inst += size


@register
class Torch(Loss):
    """Dummy metric for torch criterions (same as Loss)."""

    def __init__(self, name='torch', output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class Caffe(Loss):
    """Dummy metric for caffe criterions (same as Loss)."""

    def __init__(self, name='caffe', output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class CustomMetric(EvalMetric):
    """A metric computed by ``feval(label, pred)`` on numpy arrays, returning a value (averaged
    over calls) or a ``(sum_metric, num_inst)`` pair. Its name is ``feval``'s, or
    ``custom(<lambda>)`` for a lambda."""

    def __init__(self, feval, name=None, allow_extra_outputs=False, output_names=None, label_names=None):
        if name is None:
            name = feval.__name__
            if name.find('<') != -1:
                name = 'custom(%s)' % name
        super().__init__(name, feval=feval, allow_extra_outputs=allow_extra_outputs,
                         output_names=output_names, label_names=label_names, has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds, True)
        else:  # extra outputs (RNN states) are allowed: zip stops at the shorter list
            labels = [labels] if isinstance(labels, (NDArray, numpy.ndarray)) else labels
            preds = [preds] if isinstance(preds, (NDArray, numpy.ndarray)) else preds
        for pred, label in zip(preds, labels):
            reval = self._feval(_host(label), _host(pred))
            if isinstance(reval, tuple):
                sum_metric, num_inst = reval
            else:
                sum_metric, num_inst = reval, 1
            self.sum_metric += sum_metric
            self.global_sum_metric += sum_metric
            self.num_inst += num_inst
            self.global_num_inst += num_inst

    def get_config(self):
        raise NotImplementedError('CustomMetric cannot be serialized')


# pylint: disable=invalid-name
def np(numpy_feval, name=None, allow_extra_outputs=False):
    """A CustomMetric from a function of numpy arrays ``(label, pred) -> float``."""
    def feval(label, pred):
        return numpy_feval(label, pred)
    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)
