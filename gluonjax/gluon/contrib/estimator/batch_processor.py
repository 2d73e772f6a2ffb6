"""How the Estimator trains and evaluates one batch (replaceable by the user)."""
from .... import autograd
from ...utils import split_and_load

__all__ = ['BatchProcessor']


class BatchProcessor(object):
    """The per-batch step of :class:`Estimator`: ``fit_batch`` runs forward, loss and backward
    on each device's slice of the batch, ``evaluate_batch`` runs the validation net and loss.
    Subclass it and pass ``batch_processor=`` to the Estimator for a custom step.
    """

    def __init__(self):
        pass

    def _get_data_and_label(self, batch, ctx, batch_axis=0):
        """The batch's data and label, each split along ``batch_axis`` across ``ctx``."""
        data = split_and_load(batch[0], ctx_list=ctx, batch_axis=batch_axis)
        label = split_and_load(batch[1], ctx_list=ctx, batch_axis=batch_axis)
        return data, label

    def evaluate_batch(self, estimator, val_batch, batch_axis=0):
        """Returns (data, label, pred, loss), lists with one entry per device."""
        data, label = self._get_data_and_label(val_batch, estimator.context, batch_axis)
        pred = [estimator.val_net(x) for x in data]
        loss = [estimator.val_loss(y_hat, y) for y_hat, y in zip(pred, label)]
        return data, label, pred, loss

    def fit_batch(self, estimator, train_batch, batch_axis=0):
        """Forward and backward on one batch; returns (data, label, pred, loss), lists with one
        entry per device. The weights are updated later, by GradientUpdateHandler."""
        data, label = self._get_data_and_label(train_batch, estimator.context, batch_axis)
        with autograd.record():
            pred = [estimator.net(x) for x in data]
            loss = [estimator.loss(y_hat, y) for y_hat, y in zip(pred, label)]
        for device_loss in loss:
            device_loss.backward()
        return data, label, pred, loss
