"""The vision operators (contrib box_nms, box_iou, BilinearResize2D, AdaptiveAvgPooling2D, ROIAlign, PSROIPooling;
ROIPooling, UpSampling, im2col, col2im, GridGenerator, BilinearSampler, SpatialTransformer) against outputs and gradients recorded from MXNet 1.9.1 by
tests/data/mxnet_ref/make_vision_data.py."""
import itertools
import json
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError

_PATH = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'vision_ref.npz')
_DATA = np.load(_PATH)
_CASES = json.loads(str(_DATA['__meta__']))


def _kwargs(kw):
    return {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}


@pytest.mark.parametrize('case', _CASES, ids=[c['name'] for c in _CASES])
def test_matches_mxnet(case):
    name = case['name']
    ins = [mx.nd.array(_DATA['%s/in%d' % (name, k)]) for k in range(case['n_inputs'])]
    fn = getattr(mx.nd, case['op'], None) or getattr(mx.nd.contrib, case['op'])
    if case['grad']:
        ins[0].attach_grad()
        with mx.autograd.record():
            out = fn(*ins, **_kwargs(case['kwargs']))
        out.backward(mx.nd.array(_DATA['%s/head' % name]))
        np.testing.assert_allclose(ins[0].grad.asnumpy(), _DATA['%s/grad' % name], rtol=1e-5, atol=1e-6)
    else:
        out = fn(*ins, **_kwargs(case['kwargs']))
    np.testing.assert_allclose(out.asnumpy(), _DATA['%s/out' % name], rtol=1e-5, atol=1e-6)


def test_box_nms_hybridized_equals_eager():
    """F.contrib.box_nms in a hybridized block (GluonCV's detectors) gives the eager result."""
    class Detect(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.contrib.box_nms(x, overlap_thresh=0.2, id_index=0, topk=6)
    data = mx.nd.array(_DATA['nms_plain/in0'])
    block = Detect()
    eager = block(data).asnumpy()
    block.hybridize()
    np.testing.assert_array_equal(block(data).asnumpy(), eager)
    sym = mx.sym.contrib.box_nms(mx.sym.var('d'))
    assert sym.list_outputs() == ['box_nms0_output0']  # MXNet numbers it among its two outputs


def test_box_nms_keeps_survivors_in_score_order_and_fills_minus_one():
    rows = np.array([[[0, 0.5, 0, 0, 2, 2], [0, 0.9, 0, 0, 2, 2.1], [0, 0.7, 5, 5, 6, 6]]], 'float32')
    out = mx.nd.contrib.box_nms(mx.nd.array(rows), overlap_thresh=0.5).asnumpy()
    np.testing.assert_array_equal(out[0, :2], rows[0, [1, 2]])
    np.testing.assert_array_equal(out[0, 2], -np.ones(6))


def test_bad_inputs_name_the_operator():
    with pytest.raises(MXNetError, match='box_nms: coord_start=4'):
        mx.nd.contrib.box_nms(mx.nd.zeros((1, 3, 6)), coord_start=4)
    with pytest.raises(MXNetError, match='box_iou: boxes need 4 coordinates'):
        mx.nd.contrib.box_iou(mx.nd.zeros((2, 3)), mx.nd.zeros((2, 4)))
    with pytest.raises(MXNetError, match='in_format'):
        mx.nd.contrib.box_nms(mx.nd.zeros((1, 3, 6)), in_format='xywh')
    with pytest.raises(MXNetError, match='BilinearResize2D: data must be NCHW'):
        mx.nd.contrib.BilinearResize2D(mx.nd.zeros((2, 3)), height=2, width=2)
    with pytest.raises(MXNetError, match="mode='odd_scale' needs scale_height and scale_width"):
        mx.nd.contrib.BilinearResize2D(mx.nd.zeros((1, 1, 2, 2)), mode='odd_scale')


def test_image_to_tensor_and_normalize_match_numpy():
    """mx.nd.image.to_tensor / normalize (GluonCV's presets): HWC uint8 -> CHW float32 in [0, 1],
    then (x - mean[c]) / std[c]; one value serves every channel; batches too."""
    rng = np.random.RandomState(0)
    img = rng.randint(0, 256, (2, 4, 5, 3)).astype('uint8')
    want = img.transpose(0, 3, 1, 2).astype('float32') / 255
    tensor = mx.nd.image.to_tensor(mx.nd.array(img[0], dtype='uint8'))
    assert tensor.dtype == np.float32
    np.testing.assert_allclose(tensor.asnumpy(), want[0], rtol=1e-6)
    batch = mx.nd.image.to_tensor(mx.nd.array(img, dtype='uint8'))
    np.testing.assert_allclose(batch.asnumpy(), want, rtol=1e-6)
    mean, std = np.array([0.485, 0.456, 0.406], 'float32'), np.array([0.229, 0.224, 0.225], 'float32')
    got = mx.nd.image.normalize(batch, mean=tuple(mean), std=tuple(std)).asnumpy()
    np.testing.assert_allclose(got, (want - mean[:, None, None]) / std[:, None, None], rtol=1e-5)
    np.testing.assert_allclose(mx.nd.image.normalize(tensor, mean=0.5, std=2.0).asnumpy(), (want[0] - 0.5) / 2,
                               rtol=1e-5, atol=1e-7)
    with pytest.raises(MXNetError, match='normalize: mean has 2 values for 3 channels'):
        mx.nd.image.normalize(tensor, mean=(0.1, 0.2))
    with pytest.raises(MXNetError, match='to_tensor: input must be'):
        mx.nd.image.to_tensor(mx.nd.zeros((4, 5)))


def test_upsampling_roi_and_patch_symbols_infer_shapes_and_check_inputs():
    near = mx.sym.UpSampling(mx.sym.var('a'), mx.sym.var('b'), sample_type='nearest', scale=2)
    assert near.list_arguments() == ['a', 'b']
    assert near.infer_shape(a=(1, 3, 4, 4), b=(1, 2, 2, 2))[1] == [(1, 5, 8, 8)]
    bilinear = mx.sym.UpSampling(mx.sym.var('data'), sample_type='bilinear', scale=3, num_filter=2, name='up')
    assert bilinear.list_arguments() == ['data', 'up_weight']
    assert bilinear.infer_shape(data=(1, 2, 5, 5))[:2] == ([(1, 2, 5, 5), (2, 1, 5, 5)], [(1, 2, 15, 15)])
    pool = mx.sym.ROIPooling(mx.sym.var('data'), mx.sym.var('rois'), pooled_size=(2, 3), spatial_scale=0.5)
    assert pool.infer_shape(data=(2, 4, 8, 8), rois=(5, 5))[1] == [(5, 4, 2, 3)]
    cols = mx.sym.im2col(mx.sym.var('d'), kernel=(3, 3))
    assert cols.infer_shape(d=(1, 2, 5, 5))[1] == [(1, 18, 9)]
    with pytest.raises(MXNetError, match='UpSampling: input 1 \\[1,2,3,3\\] cannot be enlarged'):
        mx.nd.UpSampling(mx.nd.ones((1, 2, 2, 2)), mx.nd.ones((1, 2, 3, 3)), scale=2, sample_type='nearest')
    with pytest.raises(MXNetError, match='col2im: data \\[1,18,8\\] has 8 positions'):
        mx.nd.col2im(mx.nd.ones((1, 18, 8)), output_size=(5, 5), kernel=(3, 3))
    with pytest.raises(MXNetError, match='ROIAlign: rois must be'):
        mx.nd.contrib.ROIAlign(mx.nd.ones((1, 1, 4, 4)), mx.nd.ones((2, 4)), pooled_size=(2, 2), spatial_scale=1)


def _rroi_align_reference(data, rois, pooled, scale, ratio):
    """Rotated ROIAlign written out sample by sample (the region's frame turned by its angle)."""
    _, c, h, w = data.shape
    ph, pw = pooled
    out = np.zeros((len(rois), c, ph, pw))

    def sample(img, y, x):
        if y < -1 or y > h or x < -1 or x > w:
            return 0.0
        y, x = max(y, 0.0), max(x, 0.0)
        y = h - 1.0 if int(y) >= h - 1 else y
        x = w - 1.0 if int(x) >= w - 1 else x
        y0, x0 = int(y), int(x)
        y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
        ly, lx = y - y0, x - x0
        return ((1 - ly) * (1 - lx) * img[y0, x0] + (1 - ly) * lx * img[y0, x1]
                + ly * (1 - lx) * img[y1, x0] + ly * lx * img[y1, x1])
    for r, (b, cx, cy, rw, rh, angle) in enumerate(rois):
        cx, cy, rw, rh = cx * scale, cy * scale, max(rw * scale, 1.0), max(rh * scale, 1.0)
        t = np.deg2rad(angle)
        gh = ratio if ratio > 0 else int(np.ceil(rh / ph))
        gw = ratio if ratio > 0 else int(np.ceil(rw / pw))
        for ch, i, j in itertools.product(range(c), range(ph), range(pw)):
            total = 0.0
            for iy, ix in itertools.product(range(gh), range(gw)):
                yy = -rh / 2 + (i + (iy + 0.5) / gh) * rh / ph
                xx = -rw / 2 + (j + (ix + 0.5) / gw) * rw / pw
                total += sample(data[int(b), ch], yy * np.cos(t) - xx * np.sin(t) + cy,
                                xx * np.cos(t) + yy * np.sin(t) + cx)
            out[r, ch, i, j] = total / (gh * gw)
    return out


@pytest.mark.parametrize('ratio', [-1, 2])
def test_rroi_align_matches_a_per_sample_reference(ratio):
    data = np.random.default_rng(3).random((2, 3, 9, 11)).astype(np.float32)
    # turned regions, one partly outside the image and one long and thin (its bins differ in samples)
    rois = np.array([[0, 4, 4, 3, 6, 30], [1, 5, 3, 12, 9, -100], [1, 0, 0, 0.5, 40, 170]], np.float32)
    out = mx.nd.contrib.RROIAlign(mx.nd.array(data), mx.nd.array(rois), pooled_size=(2, 3), spatial_scale=0.8,
                                  sampling_ratio=ratio)
    np.testing.assert_allclose(out.asnumpy(), _rroi_align_reference(data, rois, (2, 3), 0.8, ratio),
                               rtol=1e-5, atol=1e-5)
    with pytest.raises(MXNetError, match=r'RROIAlign: rois must be \(num_rois, 6\)'):
        mx.nd.contrib.RROIAlign(mx.nd.array(data), mx.nd.array(rois[:, :5]), pooled_size=(2, 3), spatial_scale=1.0)


_PROPOSAL = np.load(os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'proposal_ref.npz'))
_PROPOSAL_CASES = json.loads(str(_PROPOSAL['cases']))


@pytest.mark.parametrize('case', _PROPOSAL_CASES, ids=[c['name'] for c in _PROPOSAL_CASES])
def test_proposal_matches_mxnet(case):
    """Proposal / MultiProposal rois and scores equal MXNet's (recorded by make_proposal_data.py)."""
    name = case['name']
    inputs = [mx.nd.array(_PROPOSAL['%s/%s' % (name, k)]) for k in ('cls_prob', 'bbox_pred', 'im_info')]
    rois, scores = getattr(mx.nd.contrib, case['op'])(*inputs, **_kwargs(case['kwargs']))
    np.testing.assert_allclose(rois.asnumpy(), _PROPOSAL['%s/rois' % name], rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(scores.asnumpy(), _PROPOSAL['%s/scores' % name], rtol=1e-6)


def test_proposal_is_not_differentiable_and_checks_shapes():
    """MXNet's gradient of the proposals is zero for every input; shapes that disagree name the operator."""
    name = _PROPOSAL_CASES[0]['name']
    inputs = [mx.nd.array(_PROPOSAL['%s/%s' % (name, k)]) for k in ('cls_prob', 'bbox_pred', 'im_info')]
    for x in inputs:
        x.attach_grad()
    with mx.autograd.record():
        rois = mx.nd.contrib.MultiProposal(*inputs, **_kwargs(dict(_PROPOSAL_CASES[0]['kwargs'], output_score=False)))
    rois.backward(mx.nd.ones(rois.shape))
    assert all(not x.grad.asnumpy().any() for x in inputs)
    sym = mx.sym.contrib.Proposal(mx.sym.var('c'), mx.sym.var('b'), mx.sym.var('i'), output_score=True)
    assert sym.list_outputs() == ['proposal0_output', 'proposal0_score']
    with pytest.raises(MXNetError, match='Proposal: takes one image'):
        mx.nd.contrib.Proposal(*inputs, **_kwargs(_PROPOSAL_CASES[0]['kwargs']))
    with pytest.raises(MXNetError, match='MultiProposal: bbox_pred must be'):
        mx.nd.contrib.MultiProposal(inputs[0], inputs[1][:, 1:], inputs[2])


def test_executor_backward_takes_unread_head_gradients_of_any_shape():
    """MXNet's executor takes head gradients as given: MXNet's test_multi_proposal_op passes one of
    (post_nms, 5) for MultiProposal's (batch * post_nms, 5) output, which its backward never reads.
    A head gradient that backward does read must have its output's shape."""
    c, b, i = (mx.sym.var(n) for n in 'cbi')
    sym = mx.sym.contrib.MultiProposal(c, b, i, rpn_pre_nms_top_n=20, rpn_post_nms_top_n=5, scales=(2,), ratios=(1,))
    rng = np.random.RandomState(0)
    args = {'c': mx.nd.array(rng.rand(2, 2, 3, 3)), 'b': mx.nd.array(rng.rand(2, 4, 3, 3)),
            'i': mx.nd.array([[48, 48, 1], [40, 40, 1]])}
    grads = {k: mx.nd.ones(v.shape) for k, v in args.items()}
    ex = sym.bind(mx.cpu(), args, args_grad=grads)
    ex.forward(is_train=True)
    assert ex.outputs[0].shape == (10, 5)
    ex.backward([mx.nd.ones((5, 5))])
    assert all(not g.asnumpy().any() for g in grads.values())
    ex = mx.sym.FullyConnected(mx.sym.var('x'), num_hidden=3).simple_bind(mx.cpu(), x=(2, 4))
    ex.forward(is_train=True)
    with pytest.raises(MXNetError, match='head gradient of output 0 has shape'):
        ex.backward([mx.nd.ones((3, 3))])
