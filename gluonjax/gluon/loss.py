"""Losses of ``gluon.loss``: HybridBlocks computing one loss value per sample.

Every loss follows MXNet 1.9: ``weight`` (a number) scales the loss, ``sample_weight``
(an array broadcastable to the element-wise loss) weights it element by element, and the
result is averaged over every axis except ``batch_axis``, so ``loss(pred, label)`` has
shape ``(batch_size,)``. Losses are written with ``F`` (``mx.nd`` eagerly, ``mx.sym`` when
hybridized), so they run either way and differentiate through autograd. They start
hybridized (one compiled function per input signature); ``hybridize(False)`` makes one
run operator by operator, as MXNet's unhybridized losses do, with the same numbers.

    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    with autograd.record():
        loss = loss_fn(net(data), label)      # shape (batch_size,)
    loss.backward()
"""
import numbers

import numpy as np

from ..base import MXNetError
from .block import HybridBlock

__all__ = ['Loss', 'L2Loss', 'L1Loss', 'SigmoidBinaryCrossEntropyLoss', 'SigmoidBCELoss',
           'SoftmaxCrossEntropyLoss', 'SoftmaxCELoss', 'KLDivLoss', 'CTCLoss', 'HuberLoss',
           'HingeLoss', 'SquaredHingeLoss', 'LogisticLoss', 'TripletLoss', 'PoissonNLLLoss',
           'CosineEmbeddingLoss', 'SDMLLoss']


def _is_nd(F):
    from .. import ndarray
    return F is ndarray


def _builtin_computation(cls):
    """Whether ``cls`` computes with gluonjax's own code: its ``hybrid_forward`` and
    ``forward`` (and ``__call__``) are those of a class in this package, as they are for the
    built-in losses and for subclasses that only change their arguments."""
    package = __name__.split('.')[0] + '.'
    for name in ('hybrid_forward', 'forward', '__call__'):
        owner = next(k for k in cls.__mro__ if name in vars(k))
        if not owner.__module__.startswith(package):
            return False
    return True


def _shape(x):
    """The shape of an NDArray, or of a Symbol that fully knows it; else None."""
    shape = getattr(x, 'shape', None)
    if shape is None or callable(shape):
        return None
    try:
        shape = tuple(shape)
    except TypeError:
        return None
    from ..ndarray import NDArray
    if not isinstance(x, NDArray) and any(not d for d in shape):
        return None  # a Symbol with unknown dimensions
    return shape


def _apply_weighting(F, loss, weight=None, sample_weight=None):
    """``loss * sample_weight`` (broadcast) and ``* weight`` (a number)."""
    if sample_weight is not None:
        loss = F.broadcast_mul(loss, sample_weight)
    if weight is not None:
        if isinstance(weight, bool) or not isinstance(weight, numbers.Number):
            raise MXNetError('weight must be a number, got %r' % (weight,))
        loss = loss * weight
    return loss


def _reshape_like(F, x, y, who='loss', what='label'):
    """``x`` reshaped to ``y``'s shape; a clear error when their sizes differ.

    ``who`` (the loss named in the error) is optional because client libraries' own losses
    (GluonCV's MaskedL1Loss) call MXNet's ``_reshape_like(F, x, y)``.
    """
    xs, ys = _shape(x), _shape(y)
    if xs is not None and ys is not None and xs != ys:
        if int(np.prod(xs)) != int(np.prod(ys)):
            raise MXNetError('%s: %s of shape %s does not fit the prediction of shape %s (they must '
                             'have the same number of elements; is the batch size the same?)'
                             % (who, what, xs, ys))
        if _is_nd(F):
            return x.reshape(ys)
    if xs is not None and xs == ys:
        return x
    if _is_nd(F):
        return x.reshape(ys)
    return F.reshape_like(x, y)


def _softrelu(F, x):
    """``log(1 + exp(x))``, MXNet's 'softrelu' activation."""
    if hasattr(F, 'Activation'):
        return F.Activation(x, act_type='softrelu')
    return F.log1p(F.exp(x))


def _log_softmax(F, x, axis):
    if hasattr(F, 'log_softmax'):
        return F.log_softmax(x, axis=axis)
    shifted = F.broadcast_sub(x, F.max(x, axis=axis, keepdims=True))
    return F.broadcast_sub(shifted, F.log(F.sum(F.exp(shifted), axis=axis, keepdims=True)))


class Loss(HybridBlock):
    """Base class of losses.

    Parameters
    ----------
    weight : float or None
        Global scalar weight of the loss.
    batch_axis : int, default 0
        The axis of the batch: the loss is averaged over all the other axes.
    """

    def __init__(self, weight, batch_axis, **kwargs):
        super().__init__(**kwargs)
        if weight is not None and (isinstance(weight, bool) or not isinstance(weight, numbers.Number)):
            raise MXNetError('%s: weight must be a number or None, got %r' % (type(self).__name__, weight))
        if isinstance(batch_axis, bool) or not isinstance(batch_axis, numbers.Integral):
            raise MXNetError('%s: batch_axis must be an integer, got %r' % (type(self).__name__, batch_axis))
        self._weight = weight
        self._batch_axis = batch_axis
        # Built-in losses run as one compiled function even when the user does not
        # hybridize them: the same numbers as MXNet's eager loss, one dispatch instead of
        # several. ``hybridize(False)`` turns it off. Errors then name the loss, not a trace.
        # A loss whose computation the user wrote (a subclass with its own hybrid_forward or
        # forward) runs eagerly as in MXNet: its code may take Parameters or lists, index
        # with them or branch on values, none of which a trace can do.
        if _builtin_computation(type(self)):
            self.hybridize()
            self._implicitly_hybridized = True

    def __repr__(self):
        return '{name}(batch_axis={axis}, w={w})'.format(name=type(self).__name__, axis=self._batch_axis,
                                                          w=self._weight)

    def _batch_mean(self, F, loss):
        """The mean over every axis but ``batch_axis``."""
        return F.mean(loss, axis=self._batch_axis, exclude=True)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


class L2Loss(Loss):
    r"""Half the squared error: :math:`L = \frac{1}{2} \sum_i \vert {label}_i - {pred}_i \vert^2`.

    Inputs: ``pred`` (any shape), ``label`` (same number of elements),
    ``sample_weight`` (optional, broadcastable to pred). Output: ``(batch_size,)``.
    """

    def __init__(self, weight=1., batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred, 'L2Loss')
        loss = F.square(label - pred)
        loss = _apply_weighting(F, loss, None if self._weight is None else self._weight / 2, sample_weight)
        return self._batch_mean(F, loss)


class L1Loss(Loss):
    r"""Absolute error: :math:`L = \sum_i \vert {label}_i - {pred}_i \vert`.

    Inputs: ``pred``, ``label`` (same number of elements), ``sample_weight`` (optional).
    Output: ``(batch_size,)``.
    """

    def __init__(self, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred, 'L1Loss')
        loss = F.abs(label - pred)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


class SigmoidBinaryCrossEntropyLoss(Loss):
    r"""Binary cross-entropy on logits (or on probabilities with ``from_sigmoid=True``).

    .. math::
        L = - \sum_i {label}_i \log(p_i) \cdot pos\_weight + (1 - {label}_i) \log(1 - p_i)

    with ``p = sigmoid(pred)``, computed in the stable form
    ``max(x, 0) - x * z + log(1 + exp(-|x|))``.

    Parameters
    ----------
    from_sigmoid : bool, default False
        Whether ``pred`` is already a probability.

    Inputs: ``pred``, ``label`` (in [0, 1], same number of elements), ``sample_weight``
    (optional), ``pos_weight`` (optional, broadcastable to pred: weight of positives).
    Output: ``(batch_size,)``.
    """

    def __init__(self, from_sigmoid=False, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_sigmoid = from_sigmoid

    def hybrid_forward(self, F, pred, label, sample_weight=None, pos_weight=None):
        label = _reshape_like(F, label, pred, type(self).__name__)
        if not self._from_sigmoid:
            if pos_weight is None:
                loss = F.relu(pred) - pred * label + _softrelu(F, -F.abs(pred))
            else:
                log_weight = 1 + F.broadcast_mul(pos_weight - 1, label)
                loss = pred - pred * label + log_weight * (_softrelu(F, -F.abs(pred)) + F.relu(-pred))
        else:
            eps = 1e-12
            if pos_weight is None:
                loss = -(F.log(pred + eps) * label + F.log(1. - pred + eps) * (1. - label))
            else:
                loss = -(F.broadcast_mul(F.log(pred + eps) * label, pos_weight)
                         + F.log(1. - pred + eps) * (1. - label))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


SigmoidBCELoss = SigmoidBinaryCrossEntropyLoss


class SoftmaxCrossEntropyLoss(Loss):
    r"""Softmax cross-entropy: :math:`L = -\sum_i \log \mathrm{softmax}({pred})_{i, {label}_i}`.

    Parameters
    ----------
    axis : int, default -1
        The class axis.
    sparse_label : bool, default True
        Labels are class indices (``pred``'s shape without ``axis``); otherwise
        probability distributions of ``pred``'s shape.
    from_logits : bool, default False
        ``pred`` already holds log-probabilities (log_softmax is not applied).
    weight : float or None
    batch_axis : int, default 0

    Inputs: ``pred``, ``label``, ``sample_weight`` (optional, broadcastable to the loss of
    shape ``pred`` with ``axis`` of size 1). Output: ``(batch_size,)``.

    Sparse labels outside ``[0, num_classes)`` are reported with an MXNetError the first
    time a block sees a label of a given shape (checking every batch would wait for the
    device each step); MXNet itself silently clips them.
    """

    def __init__(self, axis=-1, sparse_label=True, from_logits=False, weight=None,
                 batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._axis = axis
        self._sparse_label = sparse_label
        self._from_logits = from_logits
        self._checked_labels = set()

    def forward(self, pred, label, *args):
        if self._sparse_label:
            self._check_sparse_label(pred, label)
        return super().forward(pred, label, *args)

    def _check_sparse_label(self, pred, label):
        """Shapes and values of sparse labels, once per (label shape, prediction shape)."""
        from ..ndarray import NDArray
        if not isinstance(pred, NDArray) or not isinstance(label, NDArray):
            return
        ps, ls = pred._data.shape, label._data.shape
        if (ls, ps) in self._checked_labels:
            return
        axis = self._axis % len(ps) if ps else 0
        expected = ps[:axis] + ps[axis + 1:]
        if ls != expected and int(np.prod(ls)) != int(np.prod(expected)):
            raise MXNetError('SoftmaxCrossEntropyLoss: label of shape %s does not match prediction of '
                             'shape %s: sparse labels need shape %s (the prediction without axis %d). '
                             'Is the batch size the same?' % (ls, ps, expected, self._axis))
        values = label.asnumpy()
        num_classes = ps[axis]
        bad = (values < 0) | (values >= num_classes) | (values != np.floor(values))
        if bad.any():
            raise MXNetError('SoftmaxCrossEntropyLoss: labels must be class indices in [0, %d) for a '
                             'prediction with %d classes along axis %d, got %s'
                             % (num_classes, num_classes, self._axis, values[bad][:5].tolist()))
        self._checked_labels.add((ls, ps))

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = _log_softmax(F, pred, self._axis)
        if self._sparse_label:
            loss = -F.pick(pred, label, axis=self._axis, keepdims=True)
        else:
            label = _reshape_like(F, label, pred, 'SoftmaxCrossEntropyLoss')
            loss = -F.sum(pred * label, axis=self._axis, keepdims=True)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


SoftmaxCELoss = SoftmaxCrossEntropyLoss


class KLDivLoss(Loss):
    r"""Kullback-Leibler divergence: :math:`L = \sum_i {label}_i (\log {label}_i - {pred}_i)`.

    Parameters
    ----------
    from_logits : bool, default True
        ``pred`` holds log-probabilities; otherwise log_softmax along ``axis`` is applied.
    axis : int, default -1

    Inputs: ``pred``, ``label`` (probabilities, same shape), ``sample_weight`` (optional).
    Output: ``(batch_size,)``: the *sum* over the other axes, as in MXNet.
    """

    def __init__(self, from_logits=True, axis=-1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._axis = axis

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = _log_softmax(F, pred, self._axis)
        loss = label * (F.log(label + 1e-12) - pred)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return F.sum(loss, axis=self._batch_axis, exclude=True)


class CTCLoss(Loss):
    r"""Connectionist Temporal Classification loss (optax's ``ctc_loss`` underneath).

    Parameters
    ----------
    layout : {'NTC', 'TNC'}, default 'NTC'
        Layout of ``pred``: batch, time, classes.
    label_layout : {'NT', 'TN'}, default 'NT'
        Layout of ``label``.
    weight : float or None

    Inputs: ``pred`` (activations before softmax; the last class, ``alphabet_size - 1``,
    is the blank), ``label`` (class indices padded with -1), ``pred_lengths`` and
    ``label_lengths`` (optional, one length per sequence), ``sample_weight`` (optional).
    Output: ``(batch_size,)``.
    """

    def __init__(self, layout='NTC', label_layout='NT', weight=None, **kwargs):
        if layout not in ('NTC', 'TNC'):
            raise MXNetError("Only 'NTC' and 'TNC' layouts for pred are supported. Got: %s" % layout)
        if label_layout not in ('NT', 'TN'):
            raise MXNetError("Only 'NT' and 'TN' layouts for label are supported. Got: %s" % label_layout)
        self._layout = layout
        self._label_layout = label_layout
        super().__init__(weight, label_layout.find('N'), **kwargs)

    def hybrid_forward(self, F, pred, label, pred_lengths=None, label_lengths=None, sample_weight=None):
        if self._layout == 'NTC':
            pred = F.swapaxes(pred, 0, 1)
        if self._batch_axis == 1:
            label = F.swapaxes(label, 0, 1)
        lengths = [x for x in (pred_lengths, label_lengths) if x is not None]
        loss = F.CTCLoss(pred, label, *lengths, use_data_lengths=pred_lengths is not None,
                         use_label_lengths=label_lengths is not None, blank_label='last')
        return _apply_weighting(F, loss, self._weight, sample_weight)


class HuberLoss(Loss):
    r"""Smoothed L1: :math:`\frac{1}{2\rho}(label - pred)^2` when the error is below ``rho``,
    :math:`|label - pred| - \frac{\rho}{2}` above.

    Parameters
    ----------
    rho : float, default 1

    Inputs: ``pred``, ``label``, ``sample_weight`` (optional). Output: ``(batch_size,)``.
    """

    def __init__(self, rho=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._rho = rho

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred, 'HuberLoss')
        loss = F.abs(label - pred)
        loss = F.where(loss > self._rho, loss - 0.5 * self._rho, (0.5 / self._rho) * F.square(loss))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


class HingeLoss(Loss):
    r"""Hinge loss of SVMs: :math:`L = \sum_i \max(0, {margin} - {pred}_i \cdot {label}_i)`.

    Parameters
    ----------
    margin : float, default 1

    Inputs: ``pred``, ``label`` (-1 or 1), ``sample_weight`` (optional). Output: ``(batch_size,)``.
    """

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    _squared = False

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred, type(self).__name__)
        loss = F.relu(self._margin - pred * label)
        if self._squared:
            loss = F.square(loss)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


class SquaredHingeLoss(HingeLoss):
    r"""Squared hinge: :math:`L = \sum_i \max(0, {margin} - {pred}_i \cdot {label}_i)^2`.

    Parameters
    ----------
    margin : float, default 1

    Inputs: ``pred``, ``label`` (-1 or 1), ``sample_weight`` (optional). Output: ``(batch_size,)``.
    """

    _squared = True


class LogisticLoss(Loss):
    r"""Logistic loss: :math:`L = \sum_i \log(1 + \exp(-{pred}_i \cdot {label}_i))`.

    Parameters
    ----------
    label_format : {'signed', 'binary'}, default 'signed'
        Labels are -1/1 ('signed') or 0/1 ('binary').

    Inputs: ``pred``, ``label``, ``sample_weight`` (optional). Output: ``(batch_size,)``.
    """

    def __init__(self, weight=None, batch_axis=0, label_format='signed', **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._label_format = label_format
        if self._label_format not in ('signed', 'binary'):
            raise ValueError('label_format can only be signed or binary, recieved %s.' % label_format)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred, 'LogisticLoss')
        if self._label_format == 'signed':
            label = (label + 1.0) / 2.0  # -1/1 -> 0/1
        loss = F.relu(pred) - pred * label + _softrelu(F, -F.abs(pred))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


class TripletLoss(Loss):
    r"""Triplet loss: :math:`\max(\Vert pos - pred \Vert^2 - \Vert neg - pred \Vert^2 + margin, 0)`.

    Parameters
    ----------
    margin : float, default 1

    Inputs: ``pred``, ``positive``, ``negative`` (same number of elements). Output: ``(batch_size,)``.
    """

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, positive, negative):
        positive = _reshape_like(F, positive, pred, 'TripletLoss', 'positive')
        negative = _reshape_like(F, negative, pred, 'TripletLoss', 'negative')
        loss = F.sum(F.square(positive - pred) - F.square(negative - pred), axis=self._batch_axis, exclude=True)
        loss = F.relu(loss + self._margin)
        return _apply_weighting(F, loss, self._weight, None)


class PoissonNLLLoss(Loss):
    r"""Negative log-likelihood of a Poisson target: :math:`\exp(pred) - target \cdot pred`
    (``from_logits=True``) or :math:`pred - target \cdot \log(pred + \epsilon)`.

    Parameters
    ----------
    from_logits : bool, default True
        ``pred`` is the log of the rate.
    compute_full : bool, default False
        Add Stirling's approximation of ``log(target!)`` for targets above 1.

    Inputs: ``pred``, ``target``, ``sample_weight`` (optional), ``epsilon`` (default 1e-8).
    Output: shape ``(1,)``: the mean over all elements, as in MXNet (except that a target
    of 0 with ``compute_full`` gives a number, where MXNet gives nan).
    """

    def __init__(self, weight=None, from_logits=True, batch_axis=0, compute_full=False, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._compute_full = compute_full

    def hybrid_forward(self, F, pred, target, sample_weight=None, epsilon=1e-08):
        target = _reshape_like(F, target, pred, 'PoissonNLLLoss', 'target')
        if self._from_logits:
            loss = F.exp(pred) - target * pred
        else:
            loss = pred - target * F.log(pred + epsilon)
        if self._compute_full:
            # Stirling's approximation of log(target!), for targets above 1 only (MXNet multiplies
            # by (target > 1) instead, which turns 0 * log(0) into nan for zero targets)
            stirling = target * F.log(target) - target + 0.5 * F.log(2 * target * np.pi)
            loss = loss + F.where(target > 1, stirling, F.zeros_like(stirling))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return F.mean(loss)


class CosineEmbeddingLoss(Loss):
    r"""Cosine embedding loss: ``1 - cos_sim(a, b)`` for label 1, ``max(0, cos_sim(a, b) - margin)``
    for label -1.

    Parameters
    ----------
    margin : float, default 0

    Inputs: ``input1``, ``input2`` (same number of elements), ``label`` (1 or -1 per
    sample), ``sample_weight`` (optional). Output: ``(batch_size, 1)``, as in MXNet.
    """

    def __init__(self, weight=None, batch_axis=0, margin=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, input1, input2, label, sample_weight=None):
        input1 = _reshape_like(F, input1, input2, 'CosineEmbeddingLoss', 'input1')
        label = label.reshape((-1, 1))
        cos_sim = self._cosine_similarity(F, input1, input2)
        loss = (1 - cos_sim) * (label == 1) + F.relu((label == -1) * (cos_sim - self._margin))
        return _apply_weighting(F, loss, self._weight, sample_weight)

    @staticmethod
    def _cosine_similarity(F, x, y, axis=-1):
        x_norm = F.norm(x, axis=axis).reshape((-1, 1))
        y_norm = F.norm(y, axis=axis).reshape((-1, 1))
        x_dot_y = F.sum(x * y, axis=axis).reshape((-1, 1))
        return x_dot_y / F.maximum(x_norm * y_norm, 1e-12)


class SDMLLoss(Loss):
    r"""Smoothed Deep Metric Learning loss over a batch of aligned pairs.

    Row ``i`` of ``x1`` should be closest to row ``i`` of ``x2``: the negative squared
    Euclidean distances between every pair of rows, softmaxed along each row, are compared
    (KL divergence) with the identity matrix smoothed by ``smoothing_parameter`` (the
    off-diagonal entries share that mass).

    Parameters
    ----------
    smoothing_parameter : float, default 0.3
        Probability mass moved from the diagonal to the other entries of each row.

    Inputs: ``x1``, ``x2`` of the same shape ``(batch_size, dim)``. Output: ``(batch_size,)``.
    """

    def __init__(self, smoothing_parameter=0.3, weight=1., batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self.kl_loss = KLDivLoss(from_logits=True)
        self.smoothing_parameter = smoothing_parameter

    def hybrid_forward(self, F, x1, x2):
        s1, s2 = _shape(x1), _shape(x2)
        if s1 is None or s2 is None or len(s1) != 2 or s1 != s2:
            raise MXNetError('SDMLLoss: x1 and x2 must have the same shape (batch_size, dim), '
                             'got %s and %s' % (s1, s2))
        batch_size = s1[0]
        diffs = F.broadcast_sub(F.expand_dims(x1, axis=1), F.expand_dims(x2, axis=0))
        distances = F.sum(F.square(diffs), axis=2)
        log_probabilities = _log_softmax(F, -distances, 1)
        gold = F.eye(batch_size)
        smoothing = self.smoothing_parameter
        labels = gold * (1 - smoothing) + (1 - gold) * (smoothing / (batch_size - 1))
        return self.kl_loss(log_probabilities, labels)
