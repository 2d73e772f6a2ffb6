"""MXNet 1.9.1's MultiBoxDetection on small random inputs, for tests/test_ops_contrib.py.

    /tmp/mxref/bin/python tests/data/mxnet_ref/make_multibox_detection_data.py

Writes multibox_detection_ref.npz: for two random cases (class probabilities (2, 4, 12), offsets,
anchors; the second with two anchors and their predictions equal, so that ties and full overlaps
occur), the inputs and the output under each setting of SETTINGS (background_id left out: MXNet
1.9.1's kernel ignores it).
"""
import os

import mxnet as mx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SETTINGS = [{}, {'threshold': 0.3}, {'nms_threshold': 0.3, 'force_suppress': True}, {'nms_topk': 3, 'clip': False},
            {'nms_threshold': 0}, {'nms_threshold': 0.1}, {'nms_topk': 5, 'nms_threshold': 0.2, 'threshold': 0.15},
            {'variances': (0.2, 0.2, 0.1, 0.1)}]


def case(seed, batch=2, classes=4, anchors=12):
    rng = np.random.RandomState(seed)
    logits = rng.randn(batch, classes, anchors).astype('f4') * 2
    e = np.exp(logits - logits.max(1, keepdims=True))
    prob = (e / e.sum(1, keepdims=True)).astype('f4')
    loc = (rng.randn(batch, anchors * 4) * 0.5).astype('f4')
    centers = rng.rand(1, anchors, 2) * 0.8 + 0.1
    anchor = np.concatenate([centers - 0.1, centers + 0.15], axis=-1).astype('f4')
    if seed % 2:  # a duplicate anchor with the same predictions: equal scores, IoU 1
        anchor[0, 3] = anchor[0, 2]
        prob[:, :, 3] = prob[:, :, 2]
        loc[:, 12:16] = loc[:, 8:12]
    return prob, loc, anchor


def main():
    out = {}
    for seed in (0, 1):
        prob, loc, anchor = case(seed)
        out.update({'prob%d' % seed: prob, 'loc%d' % seed: loc, 'anchor%d' % seed: anchor})
        for k, kw in enumerate(SETTINGS):
            det = mx.nd.contrib.MultiBoxDetection(mx.nd.array(prob), mx.nd.array(loc), mx.nd.array(anchor), **kw)
            out['out%d_%d' % (seed, k)] = det.asnumpy()
    np.savez_compressed(os.path.join(HERE, 'multibox_detection_ref.npz'), **out)


if __name__ == '__main__':
    main()
