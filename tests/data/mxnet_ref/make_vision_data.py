"""Record MXNet 1.9.1's contrib vision operators for tests/test_ops_vision.py.

Run with the reference interpreter: /tmp/mxref/bin/python tests/data/mxnet_ref/make_vision_data.py
Writes vision_ref.npz beside this script: for each case its inputs (in0, in1, ...), its keyword
arguments (JSON in __meta__), the output and, where the operator is differentiable, the gradient
of sum(output * head) with respect to the first input.
"""
import json
import os

import mxnet as mx
import numpy as np


def boxes(rng, batch, n):
    """Rows (class id, score, xmin, ymin, xmax, ymax); some ids -1 (padding), a few overlaps."""
    rows = np.zeros((batch, n, 6), 'float32')
    rows[..., 0] = rng.randint(-1, 3, size=(batch, n))
    rows[..., 1] = rng.rand(batch, n)
    rows[..., 2:4] = rng.rand(batch, n, 2) * 5
    rows[..., 4:6] = rows[..., 2:4] + rng.rand(batch, n, 2) * 5 + 1
    return rows


def main():
    rng = np.random.RandomState(0)
    det = boxes(rng, 2, 12)
    maps = rng.rand(2, 3, 5, 7).astype('float32')
    cases = [
        ('nms_plain', 'box_nms', [det], dict(overlap_thresh=0.3)),
        ('nms_classes', 'box_nms', [det], dict(overlap_thresh=0.2, id_index=0, valid_thresh=0.3)),
        ('nms_force_topk_center_out', 'box_nms', [det],
         dict(overlap_thresh=0.1, id_index=0, force_suppress=True, topk=5, out_format='center')),
        ('nms_background_center_in', 'box_nms', [det], dict(overlap_thresh=0.3, id_index=0, background_id=0,
                                                             in_format='center')),
        ('nms_3d_batch', 'box_nms', [det.reshape(1, 2, 12, 6)], dict(overlap_thresh=0.5, score_index=1)),
        ('iou_corner', 'box_iou', [det[0, :, 2:], det[1, :5, 2:]], {}),
        ('iou_center_batched', 'box_iou', [det[:, :4, 2:], det[1, :3, 2:]], dict(format='center')),
        ('resize_size', 'BilinearResize2D', [maps], dict(height=9, width=4)),
        ('resize_no_align', 'BilinearResize2D', [maps], dict(height=9, width=13, align_corners=False)),
        ('resize_scale', 'BilinearResize2D', [maps], dict(scale_height=2.0, scale_width=0.5)),
        ('resize_like', 'BilinearResize2D', [maps, np.zeros((1, 1, 3, 3), 'float32')], dict(mode='like')),
        ('adaptive_3x4', 'AdaptiveAvgPooling2D', [maps], dict(output_size=(3, 4))),
        ('adaptive_default', 'AdaptiveAvgPooling2D', [maps], {}),
        ('adaptive_square', 'AdaptiveAvgPooling2D', [maps], dict(output_size=2)),
    ]
    arrays, meta = {}, []
    for name, op, ins, kwargs in cases:
        nd_ins = [mx.nd.array(a) for a in ins]
        differentiable = op in ('BilinearResize2D', 'AdaptiveAvgPooling2D')
        if differentiable:
            nd_ins[0].attach_grad()
        with mx.autograd.record():
            out = getattr(mx.nd.contrib, op)(*nd_ins, **kwargs)
        for k, a in enumerate(ins):
            arrays['%s/in%d' % (name, k)] = a
        arrays['%s/out' % name] = out.asnumpy()
        if differentiable:
            head = rng.rand(*out.shape).astype('float32')
            out.backward(mx.nd.array(head))
            arrays['%s/head' % name] = head
            arrays['%s/grad' % name] = nd_ins[0].grad.asnumpy()
        meta.append(dict(name=name, op=op, n_inputs=len(ins), kwargs=kwargs, grad=differentiable))
    arrays['__meta__'] = np.array(json.dumps(meta))
    np.savez_compressed(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vision_ref.npz'), **arrays)


if __name__ == '__main__':
    main()
