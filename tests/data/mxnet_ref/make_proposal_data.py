"""Reference outputs of MXNet 1.9.1's contrib Proposal and MultiProposal -> proposal_ref.npz.

Run with the reference MXNet (CPU):  /tmp/mxref/bin/python tests/data/mxnet_ref/make_proposal_data.py
Each case stores its inputs (random scores and box deltas, images of different sizes), its
keywords (JSON) and MXNet's (rois, scores). The scores are distinct and the cases keep boxes
scoring -1 (too small or past the image) out of the outputs: MXNet orders equal scores with an
unstable sort. tests/test_ops_vision.py replays them on gluonjax.
"""
import json
import os

import mxnet as mx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.RandomState(7)


def inputs(batch, anchors, height, width, stride, delta_scale, padded=True):
    cls_prob = rng.rand(batch, 2 * anchors, height, width).astype('float32')
    bbox_pred = ((rng.rand(batch, 4 * anchors, height, width) - 0.5) * delta_scale).astype('float32')
    sizes = rng.randint(height * stride // 2 if padded else height * stride, height * stride + 1, size=(batch, 2))
    im_info = np.concatenate([sizes, rng.randint(70, 100, size=(batch, 1)) / 100.0], axis=1).astype('float32')
    return cls_prob, bbox_pred, im_info


CASES = [
    ('multi_default_anchors', 'MultiProposal', inputs(2, 12, 6, 7, 16, 0.4),
     dict(rpn_pre_nms_top_n=60, rpn_post_nms_top_n=20, threshold=0.7, rpn_min_size=8, output_score=True)),
    ('multi_few_survivors', 'MultiProposal', inputs(3, 4, 5, 5, 8, 0.2, padded=False),
     dict(rpn_pre_nms_top_n=40, rpn_post_nms_top_n=30, threshold=0.3, rpn_min_size=1, scales=(2, 4),
          ratios=(0.5, 2), feature_stride=8, output_score=True)),
    ('single_iou_loss', 'Proposal', inputs(1, 3, 6, 6, 16, 3.0, padded=False),
     dict(rpn_pre_nms_top_n=50, rpn_post_nms_top_n=16, threshold=0.5, rpn_min_size=1, scales=(4, 8, 16),
          ratios=(1,), iou_loss=True, output_score=True)),
]


def main():
    arrays, meta = {}, []
    for name, op, (cls_prob, bbox_pred, im_info), kwargs in CASES:
        rois, scores = getattr(mx.nd.contrib, op)(mx.nd.array(cls_prob), mx.nd.array(bbox_pred),
                                                  mx.nd.array(im_info), **kwargs)
        for key, value in (('cls_prob', cls_prob), ('bbox_pred', bbox_pred), ('im_info', im_info),
                           ('rois', rois.asnumpy()), ('scores', scores.asnumpy())):
            arrays['%s/%s' % (name, key)] = value
        meta.append(dict(name=name, op=op, kwargs=kwargs))
    arrays['cases'] = np.array(json.dumps(meta))
    np.savez_compressed(os.path.join(HERE, 'proposal_ref.npz'), **arrays)


if __name__ == '__main__':
    main()
