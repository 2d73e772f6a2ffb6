"""gluon.loss: every loss against a numpy version of MXNet's formula (weight, sample_weight,
batch_axis), against MXNet 1.9.1's outputs and gradients (eager and hybridized), and bad input."""
import itertools
import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.base import MXNetError
from gluonjax.gluon import loss as gloss

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'optim')
DATA = np.load(os.path.join(REF, 'losses.npz'))
META = json.load(open(os.path.join(REF, 'losses.json')))


def run(block, *inputs, hybridize=True):
    """(output, gradient of sum(output) w.r.t. the first input) as numpy arrays."""
    block.hybridize(hybridize)  # losses start hybridized; False runs them operator by operator
    arrays = [None if x is None else nd.array(x) for x in inputs]
    arrays[0].attach_grad()
    with autograd.record():
        out = block(*arrays)
    out.backward()
    return out.asnumpy(), arrays[0].grad.asnumpy()


# CTC compiles slowly: ctc_lengths alone covers the hybridized CTCLoss
CASES = [(key, hybrid) for key in sorted(META) for hybrid in (False, True)
         if not (hybrid and key in ('ctc', 'ctc_tn'))]


@pytest.mark.parametrize('key,hybridize', CASES, ids=['%s-%s' % (k, 'hybrid' if h else 'eager') for k, h in CASES])
def test_matches_mxnet(key, hybridize):
    m = META[key]
    block = getattr(gloss, m['class'])(**m['kwargs'])
    inputs = [None if i in m['none_inputs'] else DATA['%s:in%d' % (key, i)] for i in range(m['n_inputs'])]
    out, grad = run(block, *inputs, hybridize=hybridize)
    ref = DATA[key + ':out']
    assert out.shape == ref.shape and out.dtype == np.float32
    np.testing.assert_allclose(out, ref, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(grad, DATA[key + ':grad'], rtol=2e-5, atol=1e-6)


# ---------------------------------------------------------------------------------------
# numpy formulas
# ---------------------------------------------------------------------------------------

def _log_softmax(x, axis):
    x = x - x.max(axis=axis, keepdims=True)
    return x - np.log(np.exp(x).sum(axis=axis, keepdims=True))


def _softrelu(x):
    return np.log1p(np.exp(x))


def _finish(loss, weight, sample_weight, batch_axis, reduce='mean'):
    if sample_weight is not None:
        loss = loss * sample_weight
    if weight is not None:
        loss = loss * weight
    axes = tuple(i for i in range(loss.ndim) if i != batch_axis % loss.ndim)
    return loss.mean(axis=axes) if reduce == 'mean' else loss.sum(axis=axes)


RNG = np.random.default_rng(11)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _signs(*shape):
    return np.where(RNG.random(shape) > 0.5, 1.0, -1.0).astype(np.float32)


def _probs(*shape):
    p = RNG.random(shape).astype(np.float32) + 0.1
    return p / p.sum(-1, keepdims=True)


# the last case also runs hybridized (the others run operator by operator: fewer compilations)
WEIGHTINGS = [dict(), dict(weight=0.5), dict(sample=True), dict(weight=2.0, sample=True, batch_axis=1, hybridize=True)]


def _weighting_args(case, pred_shape):
    weight = case.get('weight')
    batch_axis = case.get('batch_axis', 0)
    sample = None
    if case.get('sample'):
        shape = [1] * len(pred_shape)
        shape[batch_axis] = pred_shape[batch_axis]
        sample = RNG.random(shape).astype(np.float32)
    kwargs = {'batch_axis': batch_axis}
    if weight is not None:
        kwargs['weight'] = weight
    return kwargs, weight, sample, batch_axis


@pytest.mark.parametrize('case', WEIGHTINGS)
def test_elementwise_losses_formula(case):
    pred, label = _x(4, 3, 2), _x(4, 3, 2)
    kwargs, weight, sample, axis = _weighting_args(case, pred.shape)
    d = label - pred
    sign = _signs(4, 3, 2)
    binary = (RNG.random((4, 3, 2)) > 0.5).astype(np.float32)
    prob = RNG.uniform(0.05, 0.95, (4, 3, 2)).astype(np.float32)
    pos_weight = RNG.uniform(0.5, 2.0, (2,)).astype(np.float32)
    rho, margin = 0.7, 1.5
    cases = [
        (gloss.L2Loss, {}, (pred, label), 0.5 * d ** 2, 1.0),
        (gloss.L1Loss, {}, (pred, label), np.abs(d), None),
        (gloss.HuberLoss, {'rho': rho}, (pred, label),
         np.where(np.abs(d) > rho, np.abs(d) - rho / 2, 0.5 / rho * d ** 2), None),
        (gloss.HingeLoss, {'margin': margin}, (pred, sign), np.maximum(0, margin - pred * sign), None),
        (gloss.SquaredHingeLoss, {'margin': margin}, (pred, sign), np.maximum(0, margin - pred * sign) ** 2, None),
        (gloss.LogisticLoss, {}, (pred, sign), np.log1p(np.exp(-pred * sign)), None),
        (gloss.LogisticLoss, {'label_format': 'binary'}, (pred, binary), np.log1p(np.exp(-pred * (2 * binary - 1))),
         None),
        (gloss.SigmoidBCELoss, {}, (pred, binary),
         -(binary * np.log(1 / (1 + np.exp(-pred))) + (1 - binary) * np.log(1 - 1 / (1 + np.exp(-pred)))), None),
        (gloss.SigmoidBCELoss, {}, (pred, binary, None, pos_weight),
         -(binary * np.log(1 / (1 + np.exp(-pred))) * pos_weight
           + (1 - binary) * np.log(1 - 1 / (1 + np.exp(-pred)))), None),
        (gloss.SigmoidBCELoss, {'from_sigmoid': True}, (prob, binary),
         -(binary * np.log(prob + 1e-12) + (1 - binary) * np.log(1 - prob + 1e-12)), None),
    ]
    for klass, extra, inputs, elementwise, default_weight in cases:
        w = weight if weight is not None else default_weight
        expected = _finish(elementwise.astype(np.float64), w, sample, axis)
        args = list(inputs)
        if sample is not None:
            if len(args) > 2:
                args[2] = sample
            else:
                args.append(sample)
        out, _ = run(klass(**dict(kwargs, **extra)), *args, hybridize=case.get('hybridize', False))
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6, err_msg=klass.__name__)


@pytest.mark.parametrize('case', WEIGHTINGS)
def test_softmax_cross_entropy_formula(case):
    pred = _x(4, 5)
    kwargs, weight, sample, axis = _weighting_args(case, pred.shape)
    class_axis = 1 - axis  # classes along the other axis
    n_classes, n_batch = pred.shape[class_axis], pred.shape[axis]
    label = RNG.integers(0, n_classes, n_batch).astype(np.float32)
    logp = _log_softmax(pred.astype(np.float64), class_axis)
    picked = np.take_along_axis(logp, np.expand_dims(label.astype(int), class_axis), axis=class_axis)
    expected = _finish(-picked, weight, sample, axis)
    args = [pred, label] + ([sample] if sample is not None else [])
    out, grad = run(gloss.SoftmaxCrossEntropyLoss(axis=class_axis, **kwargs), *args)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)

    def ref(p):  # the same formula in jax, for the gradient
        lp = jax.nn.log_softmax(p, axis=class_axis)
        loss = -jnp.take_along_axis(lp, jnp.expand_dims(jnp.asarray(label, jnp.int32), class_axis),
                                    axis=class_axis)
        loss = loss * (sample if sample is not None else 1) * (weight if weight is not None else 1)
        return jnp.sum(jnp.mean(loss, axis=class_axis))
    np.testing.assert_allclose(grad, jax.grad(ref)(jnp.asarray(pred)), rtol=1e-5, atol=1e-6)
    # dense labels: the same number with one-hot distributions
    onehot = np.moveaxis(np.eye(n_classes, dtype=np.float32)[label.astype(int)], -1, class_axis)
    args[1] = onehot
    dense, _ = run(gloss.SoftmaxCrossEntropyLoss(axis=class_axis, sparse_label=False, **kwargs), *args)
    np.testing.assert_allclose(dense, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('case', WEIGHTINGS)
def test_kl_triplet_poisson_cosine_formula(case):
    pred = _x(4, 5)
    kwargs, weight, sample, axis = _weighting_args(case, pred.shape)
    label = _probs(4, 5)
    args = [pred, label] + ([sample] if sample is not None else [])
    out, _ = run(gloss.KLDivLoss(from_logits=False, axis=1 - axis, **kwargs), *args)
    lp = _log_softmax(pred.astype(np.float64), 1 - axis)
    np.testing.assert_allclose(out, _finish(label * (np.log(label + 1e-12) - lp), weight, sample, axis,
                                            'sum'), rtol=1e-5, atol=1e-6)

    pos, neg = _x(4, 5), _x(4, 5)
    out, _ = run(gloss.TripletLoss(margin=0.3, **kwargs), pred, pos, neg)
    other = tuple(i for i in range(2) if i != axis)
    tri = np.maximum(((pos - pred) ** 2 - (neg - pred) ** 2).sum(axis=other) + 0.3, 0)
    np.testing.assert_allclose(out, tri * (weight if weight is not None else 1), rtol=1e-5, atol=1e-5)

    target = RNG.poisson(2.0, (4, 5)).astype(np.float32)
    rate = RNG.uniform(0.5, 3.0, (4, 5)).astype(np.float32)
    for from_logits, full in itertools.product([True, False], [False, True]):
        p = pred if from_logits else rate
        elem = np.exp(p) - target * p if from_logits else p - target * np.log(p + 1e-8)
        if full:  # Stirling's term for targets above 1; finite for a target of 0
            t = np.maximum(target, 1)
            elem = elem + np.where(target > 1, t * np.log(t) - t + 0.5 * np.log(2 * np.pi * t), 0)
        e = elem * (sample if sample is not None else 1) * (weight if weight is not None else 1)
        args = [p, target] + ([sample] if sample is not None else [])
        out, _ = run(gloss.PoissonNLLLoss(from_logits=from_logits, compute_full=full, **kwargs), *args)
        assert out.shape == (1,) and np.isfinite(out).all()
        np.testing.assert_allclose(out, [e.mean()], rtol=1e-5, atol=1e-6)

    a, b, lab = _x(4, 5), _x(4, 5), _signs(4)
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    elem = np.where(lab == 1, 1 - cos, np.maximum(0, cos - 0.2))[:, None]
    sw = None if sample is None else sample.reshape(4, 1) if axis == 0 else None
    args = [a, b, lab] + ([sw] if sw is not None else [])
    out, _ = run(gloss.CosineEmbeddingLoss(margin=0.2, weight=weight), *args)
    expected = elem * (sw if sw is not None else 1) * (weight if weight is not None else 1)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def _ctc_brute_force(logits, label, blank):
    """-log P(label | logits) by summing every alignment (tiny sizes only)."""
    T, C = logits.shape
    logp = _log_softmax(logits.astype(np.float64), 1)
    total = -np.inf
    for path in itertools.product(range(C), repeat=T):
        collapsed = [k for i, k in enumerate(path) if (i == 0 or k != path[i - 1])]
        collapsed = [k for k in collapsed if k != blank]
        if collapsed == list(label):
            total = np.logaddexp(total, sum(logp[t, k] for t, k in enumerate(path)))
    return -total


def test_ctc_against_brute_force():
    logits = _x(2, 6, 4)  # NTC: batch 2, 6 steps, 3 letters + blank (last)
    labels = np.array([[0, 2, 2], [1, -1, -1]], np.float32)
    out, grad = run(gloss.CTCLoss(), logits, labels)
    expected = [_ctc_brute_force(logits[0], [0, 2, 2], 3), _ctc_brute_force(logits[1], [1], 3)]
    np.testing.assert_allclose(out, expected, rtol=1e-5)
    assert np.isfinite(grad).all()
    # lengths: the second sequence only has 4 valid steps and its label 2 letters
    out, _ = run(gloss.CTCLoss(layout='TNC'), logits.swapaxes(0, 1), np.array([[0, 2, 2], [1, 0, 0]], np.float32),
                 np.array([6, 4], np.float32), np.array([3, 2], np.float32))
    np.testing.assert_allclose(out, [expected[0], _ctc_brute_force(logits[1, :4], [1, 0], 3)], rtol=1e-5)
    # steps past a sequence's length are never read: NaN there changes neither loss nor gradient
    padded = logits.swapaxes(0, 1).copy()
    padded[4:, 1] = np.nan
    data = nd.array(padded)
    data.attach_grad()
    with autograd.record():
        loss = nd.CTCLoss(data, nd.array([[0, 2, 2], [1, 0, 0]]), nd.array([6, 4]), nd.array([3, 2]),
                          use_data_lengths=True, use_label_lengths=True, blank_label='last')
    loss.backward()
    np.testing.assert_allclose(loss.asnumpy(), out, rtol=1e-5)
    assert np.isfinite(data.grad.asnumpy()).all() and (data.grad.asnumpy()[4:, 1] == 0).all()


def test_ctc_optional_input_passed_as_none_is_skipped():
    # MXNet's nd functions leave a None array out: label_lengths moves into data_lengths' place
    logits = _x(2, 4, 4)  # NTC
    tnc = nd.array(logits.swapaxes(0, 1))
    labels = nd.array([[1, 2], [3, 1]])
    out = nd.contrib.ctc_loss(tnc, labels, None, nd.array([1, 2]), use_label_lengths=True).asnumpy()
    expected = [_ctc_brute_force(logits[0], [1], 0), _ctc_brute_force(logits[1], [3, 1], 0)]
    np.testing.assert_allclose(out, expected, rtol=1e-5)
    # FullyConnected without a bias: the None bias is left out
    x, w = _x(3, 4), _x(2, 4)
    fc = nd.FullyConnected(nd.array(x), nd.array(w), None, num_hidden=2, no_bias=True).asnumpy()
    np.testing.assert_allclose(fc, x @ w.T, rtol=1e-5, atol=1e-6)


def test_ctc_label_no_alignment_fits_costs_zero_with_zero_gradient():
    """MXNet 1.9: a label needing more steps than the sequence has (its length plus one blank
    per repeated letter) costs 0 and passes no gradient; a feasible one beside it is unchanged."""
    logits = _x(4, 2, 5)  # TNC: 4 steps, batch 2, blank first
    cases = [  # (labels, data_lengths, which sequences cannot be aligned)
        ([[1, 1, 1], [1, 1, 0]], None, [True, False]),        # 1 _ 1 _ 1 needs 5 steps
        ([[1, 2, 1], [2, 2, 2]], None, [False, True]),
        ([[1, 2, 3], [1, 1, 0]], [2, 4], [True, False]),      # 3 letters in 2 valid steps
        ([[2, 2, 0], [3, 0, 0]], [3, 1], [False, False]),     # 2 _ 2 fits 3 steps exactly
    ]
    for labels, data_lengths, infeasible in cases:
        data = nd.array(logits)
        data.attach_grad()
        args = [data, nd.array(labels)]
        kwargs = {}
        if data_lengths is not None:
            args.append(nd.array(data_lengths))
            kwargs['use_data_lengths'] = True
        with autograd.record():
            loss = nd.contrib.ctc_loss(*args, **kwargs)
        loss.backward()
        out, grad = loss.asnumpy(), data.grad.asnumpy()
        for b in range(2):
            steps = 4 if data_lengths is None else data_lengths[b]
            label = [k for k in labels[b] if k != 0]
            if infeasible[b]:
                assert out[b] == 0 and (grad[:, b] == 0).all()
            else:
                np.testing.assert_allclose(out[b], _ctc_brute_force(logits[:steps, b], label, 0), rtol=1e-5)
                assert np.abs(grad[:steps, b]).sum() > 0


def test_ctc_label_wider_than_the_sequence_is_rejected():
    # MXNet checks the label's width against the steps even where label_lengths are shorter
    data = nd.array(_x(3, 2, 5))
    with pytest.raises(MXNetError, match=r'label \[2,4\].*cannot exceed the sequence length'):
        nd.contrib.ctc_loss(data, nd.array([[1, 2, 3, 4], [1, 0, 0, 0]]))
    with pytest.raises(MXNetError, match='cannot exceed the sequence length'):
        nd.contrib.ctc_loss(data, nd.array([[1, 2, 3, 4], [1, 0, 0, 0]]), nd.array([2, 1]),
                            use_label_lengths=True)
    with pytest.raises(MXNetError, match='cannot exceed the sequence length'):
        gloss.CTCLoss()(nd.array(_x(2, 3, 5)), nd.array([[1, 2, 3, 4], [1, 2, 0, 0]]))


# ---------------------------------------------------------------------------------------
# Bad input and printing
# ---------------------------------------------------------------------------------------

def test_sparse_labels_out_of_range():
    loss = gloss.SoftmaxCrossEntropyLoss()
    with pytest.raises(MXNetError, match=r'labels must be class indices in \[0, 5\).*\[7\.0\]'):
        loss(nd.array(_x(3, 5)), nd.array([1, 7, 0]))
    with pytest.raises(MXNetError, match='class indices'):
        loss(nd.array(_x(3, 5)), nd.array([1, -1, 0]))
    with pytest.raises(MXNetError, match='class indices'):
        loss(nd.array(_x(3, 5)), nd.array([1, 0.5, 0]))
    assert loss(nd.array(_x(3, 5)), nd.array([1, 4, 0])).shape == (3,)


def test_mismatched_batch_sizes():
    with pytest.raises(MXNetError, match='label of shape \\(2,\\) does not match prediction of shape \\(3, 5\\)'):
        gloss.SoftmaxCrossEntropyLoss()(nd.array(_x(3, 5)), nd.array([1, 2]))
    with pytest.raises(MXNetError, match='^in l2loss.* \\(L2Loss\\): L2Loss: label of shape \\(2, 5\\) does not fit the '
                                         'prediction'):  # not "while tracing": the user did not hybridize
        gloss.L2Loss()(nd.array(_x(3, 5)), nd.array(_x(2, 5)))
    with pytest.raises(MXNetError, match='HingeLoss'):
        gloss.HingeLoss()(nd.array(_x(3, 5)), nd.array(_x(3, 4)))
    with pytest.raises(MXNetError, match='TripletLoss: negative'):
        gloss.TripletLoss()(nd.array(_x(3, 5)), nd.array(_x(3, 5)), nd.array(_x(2, 5)))


def test_bad_arguments():
    with pytest.raises(ValueError, match='label_format can only be signed or binary'):
        gloss.LogisticLoss(label_format='onehot')
    with pytest.raises(MXNetError, match="Only 'NTC' and 'TNC'"):
        gloss.CTCLoss(layout='NCT')
    with pytest.raises(MXNetError, match="Only 'NT' and 'TN'"):
        gloss.CTCLoss(label_layout='TT')
    with pytest.raises(MXNetError, match='weight must be a number'):
        gloss.L1Loss(weight='2')
    with pytest.raises(MXNetError, match='batch_axis must be an integer'):
        gloss.L1Loss(batch_axis=None)


def test_repr_and_aliases():
    assert repr(gloss.L2Loss()) == 'L2Loss(batch_axis=0, w=1.0)'
    assert repr(gloss.SoftmaxCELoss(batch_axis=1)) == 'SoftmaxCrossEntropyLoss(batch_axis=1, w=None)'
    assert gloss.SigmoidBCELoss is gloss.SigmoidBinaryCrossEntropyLoss
    assert mx.gluon.loss.SoftmaxCrossEntropyLoss is gloss.SoftmaxCrossEntropyLoss


def test_float64_inputs_keep_their_dtype():
    pred = nd.array(_x(3, 4), dtype='float64')
    out = gloss.L2Loss()(pred, nd.array(_x(3, 4), dtype='float64'))
    assert out.dtype == np.float64


def test_sdml_loss_formula_and_shapes():
    """SDMLLoss: KL between softmax(-squared distances) rows and the smoothed identity."""
    x1, x2 = _x(4, 3), _x(4, 3)
    for smoothing, hybridize in ((0.3, True), (0.1, False)):
        out, _ = run(gloss.SDMLLoss(smoothing_parameter=smoothing), x1, x2, hybridize=hybridize)
        dist = ((x1[:, None, :].astype(np.float64) - x2[None, :, :]) ** 2).sum(-1)
        logp = _log_softmax(-dist, 1)
        labels = np.where(np.eye(4) > 0, 1 - smoothing, smoothing / 3)
        expected = (labels * (np.log(labels + 1e-12) - logp)).sum(1)
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(MXNetError, match='SDMLLoss: x1 and x2 must have the same shape'):
        gloss.SDMLLoss()(mx.nd.ones((4, 3)), mx.nd.ones((3, 3)))


def test_user_written_loss_runs_eagerly_with_parameters_lists_and_branches():
    """A Loss subclass with its own hybrid_forward runs operator by operator, as in MXNet (the
    margin loss of MXNet's embedding_learning example takes a Parameter, indexes it with an
    NDArray and branches on a value); built-in losses and subclasses that only change their
    arguments start hybridized."""
    class MarginLike(gloss.Loss):
        def __init__(self, margin=0.2, **kwargs):
            super().__init__(None, 0, **kwargs)
            self._margin = margin

        def hybrid_forward(self, F, anchors, negatives, beta_in, classes=None):
            beta = beta_in.data()[classes]
            d = F.sqrt(F.sum(F.square(negatives - anchors), axis=1))
            hinge = F.maximum(beta - d + self._margin, 0.0)
            count = F.sum(hinge > 0.0)
            if count == 0.0:
                return F.sum(hinge)
            return F.sum(hinge) / count

    class HalfL2(gloss.L2Loss):
        def __init__(self):
            super().__init__(weight=0.5)

    loss = MarginLike()
    assert not loss._active
    assert gloss.L2Loss()._active and HalfL2()._active and gloss.CTCLoss()._active
    a = np.array([[0., 0.], [1., 0.], [0., 2.]], np.float32)
    n = np.array([[0., 1.], [1., 3.], [0., 2.5]], np.float32)
    beta_values = np.array([1.5, 0.1], np.float32)
    beta = mx.gluon.Parameter('beta', shape=(2,))
    beta.initialize(mx.init.Constant(0.0))
    beta.set_data(nd.array(beta_values))
    classes = np.array([0, 1, 0])
    anchors = nd.array(a)
    anchors.attach_grad()
    with autograd.record():
        out = loss(anchors, nd.array(n), beta, nd.array(classes, dtype='float32'))
    out.backward()
    d = np.sqrt(((n - a) ** 2).sum(1))
    hinge = np.maximum(beta_values[classes] - d + 0.2, 0)
    np.testing.assert_allclose(out.asnumpy(), [hinge.sum() / (hinge > 0).sum()], rtol=1e-6)
    active = (hinge > 0).astype(np.float32)[:, None]
    np.testing.assert_allclose(anchors.grad.asnumpy(), active * (n - a) / d[:, None] / (hinge > 0).sum(), rtol=1e-5)
    # the other branch: no pair inside the margin
    far = loss(anchors, nd.array(n + 10.0), beta, nd.array(classes, dtype='float32'))
    assert far.asnumpy().tolist() == [0.0]
