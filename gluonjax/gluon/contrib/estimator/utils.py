"""Checks shared by the Estimator and its event handlers."""
from ....metric import Accuracy, CompositeEvalMetric, EvalMetric
from ...loss import SoftmaxCrossEntropyLoss


def _check_metrics(metrics):
    """``metrics`` as a flat list of EvalMetrics (a CompositeEvalMetric is opened up)."""
    if isinstance(metrics, CompositeEvalMetric):
        return [leaf for metric in metrics.metrics for leaf in _check_metrics(metric)]
    if isinstance(metrics, EvalMetric):
        return [metrics]
    metrics = list(metrics or [])
    if not all(isinstance(metric, EvalMetric) for metric in metrics):
        raise ValueError("metrics must be a Metric or a list of Metric, "
                         "refer to mxnet.metric.EvalMetric: {}".format(metrics))
    return metrics


def _check_handler_metric_ref(handler, known_metrics):
    """Raise if ``handler`` holds a metric the estimator does not update.

    As in MXNet 1.9.1 the attributes looked at are those whose name contains 'metric'
    (a handler's ``monitor`` is not checked)."""
    for attribute in dir(handler):
        if 'metric' not in attribute:
            continue
        reference = getattr(handler, attribute)
        if not reference:
            continue
        for metric in reference if isinstance(reference, list) else [reference]:
            if metric not in known_metrics:
                raise ValueError(
                    'Event handler {} refers to a metric instance {} outside of the known '
                    'training and validation metrics. Please use the metrics from '
                    'estimator.train_metrics and estimator.val_metrics instead.'.format(
                        type(handler).__name__, metric))


def _suggest_metric_for_loss(loss):
    """The metric MXNet adds when none is given: accuracy for softmax cross-entropy."""
    if isinstance(loss, SoftmaxCrossEntropyLoss):
        return Accuracy()
    return None
