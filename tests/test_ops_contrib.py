"""Contrib operators checked against MXNet 1.9.1's numbers: hawkesll, the straight-through
estimators and gradientmultiplier (reference values printed by MXNet 1.9.1 for the same inputs),
the SSD operators (MultiBoxDetection against tests/data/mxnet_ref/multibox_detection_ref.npz)."""
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.base import MXNetError


def _hawkes_inputs():
    rs = np.random.RandomState(0)
    n, t, k = 3, 6, 2
    lda = nd.array(rs.uniform(0.5, 2, (n, k)))
    alpha, beta = nd.array(rs.uniform(0.1, .5, k)), nd.array(rs.uniform(.5, 3, k))
    state, lags = nd.array(rs.uniform(0, 2, (n, k))), nd.array(rs.uniform(0.1, 2, (n, t)))
    marks = nd.array(rs.randint(0, k, (n, t))).astype('int32')
    return lda, alpha, beta, state, lags, marks, nd.array([6, 3, 0]), nd.array([20., 15, 5])


def test_hawkesll_matches_mxnet_values_and_gradients():
    inputs = _hawkes_inputs()
    lda, alpha, beta, state = inputs[:4]
    for a in (lda, alpha, beta, state):
        a.attach_grad()
    with autograd.record():
        loglik, memory = nd.contrib.hawkesll(*inputs)
    loglik.backward()
    np.testing.assert_allclose(loglik.asnumpy(), [-58.281097, -41.934288, -13.140223], rtol=1e-5)
    np.testing.assert_allclose(memory.asnumpy(), [[5.816248e-15, 4.235882e-10], [2.044258e-18, 3.490239e-08],
                                                  [6.844711e-08, 1.185431e-04]], rtol=1e-4)
    np.testing.assert_allclose(lda.grad.asnumpy(), [[-17.283108, -18.750729], [-14.313736, -13.686241],
                                                    [-5., -5.]], rtol=1e-5)
    np.testing.assert_allclose(alpha.grad.asnumpy(), [-6.256944, -6.416356], rtol=1e-5)
    np.testing.assert_allclose(beta.grad.asnumpy(), [0.037152, -0.02234], rtol=1e-4)
    assert not state.grad.asnumpy().any()  # MXNet gives the carried-in state no gradient


def test_straight_through_estimators_pass_the_gradient_unchanged():
    x = nd.array([-1.5, -0.4, 0.0, 0.5, 2.5])
    x.attach_grad()
    for op, expected in ((nd.contrib.round_ste, [-2, -0, 0, 1, 3]), (nd.contrib.sign_ste, [-1, -1, 0, 1, 1])):
        with autograd.record():
            y = op(x) * nd.array([1, 2, 3, 4, 5])
        y.backward()
        np.testing.assert_array_equal(y.asnumpy(), np.array(expected) * [1, 2, 3, 4, 5])
        np.testing.assert_array_equal(x.grad.asnumpy(), [1, 2, 3, 4, 5])


def test_gradientmultiplier_scales_only_the_gradient():
    x = nd.array([1.0, -2.0, 3.0])
    x.attach_grad()
    with autograd.record():
        y = nd.contrib.gradientmultiplier(x * x, scalar=-0.5)
    y.backward()
    np.testing.assert_array_equal(y.asnumpy(), [1, 4, 9])
    np.testing.assert_array_equal(x.grad.asnumpy(), -0.5 * 2 * x.asnumpy())
    sym = mx.sym.contrib.gradientmultiplier(mx.sym.var('x'), scalar=2.0)
    assert sym.list_arguments() == ['x']


def test_bipartite_matching_is_greedy_and_stops_after_topk_plus_one_matches():
    scores = nd.array([[0.417, 0.720, 0.0001], [0.302, 0.147, 0.092], [0.186, 0.346, 0.397], [0.539, 0.419, 0.685]])
    rows, cols = nd.contrib.bipartite_matching(scores, threshold=0.1)
    assert rows.asnumpy().tolist() == [1, 0, -1, 2] and cols.asnumpy().tolist() == [1, 0, 3]
    rows, cols = nd.contrib.bipartite_matching(scores, threshold=0.1, topk=1)  # MXNet 1.9.1: 2 matches
    assert rows.asnumpy().tolist() == [1, -1, -1, 2] and cols.asnumpy().tolist() == [-1, 0, 3]
    rows, _ = nd.contrib.bipartite_matching(scores, threshold=0.2, is_ascend=True)
    assert rows.asnumpy().tolist() == [2, 1, 0, -1]


def test_box_decode_inverts_box_encode():
    anchors = nd.array([[[0.1, 0.2, 0.4, 0.6], [0.3, 0.1, 0.9, 0.5]]])
    refs = nd.array([[[0.15, 0.25, 0.5, 0.5], [0.2, 0.2, 0.7, 0.9]]])
    stds = (0.1, 0.1, 0.2, 0.2)
    targets, mask = nd.contrib.box_encode(nd.array([[1, 1]]), nd.array([[1, 0]]), anchors, refs,
                                          nd.zeros((4,)), nd.array(stds))
    assert mask.asnumpy().all()
    decoded = nd.contrib.box_decode(targets, anchors, *stds, format='corner')
    np.testing.assert_allclose(decoded.asnumpy(), refs.asnumpy()[:, ::-1], rtol=1e-5, atol=1e-6)
    _, mask = nd.contrib.box_encode(nd.array([[0, -1]]), nd.array([[1, 0]]), anchors, refs,
                                    nd.zeros((4,)), nd.array(stds))
    assert not mask.asnumpy().any()


def test_multibox_prior_orders_sizes_then_ratios():
    boxes = nd.contrib.MultiBoxPrior(nd.zeros((1, 3, 2, 4)), sizes=[0.5, 0.2], ratios=[1, 4])
    assert boxes.shape == (1, 2 * 4 * 3, 4)
    cx, cy = 0.5 / 4, 0.5 / 2  # first position; half sizes: size * H / W * sqrt(r) / 2 and size / sqrt(r) / 2
    expected = [[cx - hw, cy - hh, cx + hw, cy + hh] for hw, hh in
                ((0.5 * 0.5 / 2, 0.5 / 2), (0.2 * 0.5 / 2, 0.2 / 2), (0.5 * 0.5 * 2 / 2, 0.5 / 2 / 2))]
    np.testing.assert_allclose(boxes.asnumpy()[0, :3], expected, rtol=1e-6)


def test_multibox_target_matches_mxnet_with_and_without_negative_mining():
    # anchors and labels from MXNet's test_multibox_target_op, plus a second ground truth and anchor
    anchors = nd.array([[[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.0, 0.0, 0.2, 0.2], [0.6, 0.1, 0.9, 0.3]]])
    labels = nd.array([[[1, 0.1, 0.1, 0.5, 0.6], [0, 0.55, 0.6, 0.8, 0.9], [-1, -1, -1, -1, -1]]])
    cls_pred = nd.array([[[0, 0, 2.0, 0.5], [1, 1, 0, 1], [0, 0, 1, 0]]])
    loc, mask, cls = nd.contrib.MultiBoxTarget(anchors, labels, cls_pred)
    np.testing.assert_allclose(loc.asnumpy()[0, :4], [5.0, 2.5000005, 3.4657357, 4.581454], rtol=1e-5)
    assert mask.asnumpy().reshape(4, 4)[:, 0].tolist() == [1, 1, 0, 0]
    assert cls.asnumpy().tolist() == [[2, 1, 0, 0]]
    # 2 positives, ratio 0.5: one negative, the candidate least likely background (anchor 3)
    _, _, cls = nd.contrib.MultiBoxTarget(anchors, labels, cls_pred, negative_mining_ratio=0.5,
                                          negative_mining_thresh=0.4, ignore_label=-2)
    assert cls.asnumpy().tolist() == [[2, 1, -2, 0]]


# the settings of tests/data/mxnet_ref/make_multibox_detection_data.py, in its order
MULTIBOX_DETECTION_SETTINGS = [{}, {'threshold': 0.3}, {'nms_threshold': 0.3, 'force_suppress': True},
                               {'nms_topk': 3, 'clip': False}, {'nms_threshold': 0}, {'nms_threshold': 0.1},
                               {'nms_topk': 5, 'nms_threshold': 0.2, 'threshold': 0.15},
                               {'variances': (0.2, 0.2, 0.1, 0.1)}]


def test_multibox_detection_matches_mxnet():
    """Sorting, NMS within and across classes, topk (the rows past it keep their unsorted values
    with class -1, as MXNet's kernel leaves them), thresholds, no NMS, clipping, variances."""
    ref = np.load(os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'multibox_detection_ref.npz'))
    for seed in (0, 1):
        inputs = [nd.array(ref['%s%d' % (k, seed)]) for k in ('prob', 'loc', 'anchor')]
        for k, kw in enumerate(MULTIBOX_DETECTION_SETTINGS):
            got = nd.contrib.MultiBoxDetection(*inputs, **kw).asnumpy()
            np.testing.assert_allclose(got, ref['out%d_%d' % (seed, k)], rtol=1e-5, atol=1e-6, err_msg=str(kw))
    assert (ref['out1_0'][:, :, 0] == -1).any()  # the duplicate anchor was suppressed: NMS ran


def test_multibox_detection_background_id_and_errors():
    prob = nd.array([[[0.1, 0.7], [0.6, 0.2], [0.3, 0.1]]])  # classes x anchors
    loc, anchor = nd.zeros((1, 8)), nd.array([[[0, 0, 0.2, 0.2], [0.5, 0.5, 0.9, 0.9]]])
    out = nd.contrib.MultiBoxDetection(prob, loc, anchor, background_id=1).asnumpy()
    # class 1 is the background: anchor 1's best other class is 0 (0.7, id 0), anchor 0's is 2
    # (0.3, id 2 - 1 = 1); sorted by score. (MXNet 1.9.1 ignores background_id: docs/MIGRATING.md)
    np.testing.assert_allclose(out[0, :, :2], [[0, 0.7], [1, 0.3]], rtol=1e-6)
    np.testing.assert_allclose(out[0, :, 2:], [[0.5, 0.5, 0.9, 0.9], [0, 0, 0.2, 0.2]], rtol=1e-6)
    with pytest.raises(MXNetError, match=r'MultiBoxDetection: expected cls_prob \(B, C, A\)'):
        nd.contrib.MultiBoxDetection(prob, nd.zeros((1, 4)), anchor)
    np_out = mx.npx.multibox_detection(prob.as_np_ndarray(), loc.as_np_ndarray(), anchor.as_np_ndarray())
    np.testing.assert_allclose(np_out.asnumpy(), nd.contrib.MultiBoxDetection(prob, loc, anchor).asnumpy())
