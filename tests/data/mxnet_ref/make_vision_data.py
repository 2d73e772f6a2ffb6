"""Record MXNet 1.9.1's vision operators for tests/test_ops_vision.py (contrib box/resize/ROIAlign/PSROIPooling,
ROIPooling, UpSampling, im2col/col2im).

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


def operator(name):
    """mx.nd.<name> for the operators outside contrib, else mx.nd.contrib.<name>."""
    return getattr(mx.nd, name) if name in OUTSIDE_CONTRIB else getattr(mx.nd.contrib, name)


OUTSIDE_CONTRIB = ('ROIPooling', 'UpSampling', 'im2col', 'col2im', 'GridGenerator', 'BilinearSampler',
                   'SpatialTransformer', 'Correlation')


def more_cases(rng):
    image = rng.rand(2, 3, 7, 6).astype('float32')
    rois = np.array([[0, 0.5, 0.6, 3.2, 4.1], [1, 1.1, 2.3, 4.9, 5.7], [0, -3, -2, 9, 12],
                     [1, 2, 2, 2.5, 2.5], [1, 30, 1, 40, 3]], 'float32')
    ps_image = rng.rand(2, 8, 5, 6).astype('float32')
    small = rng.rand(2, 2, 3, 3).astype('float32')
    filters = rng.rand(2, 1, 4, 4).astype('float32')
    patches = rng.rand(2, 3 * 4, 10).astype('float32')
    return [
        ('roipool', 'ROIPooling', [image, rois], dict(pooled_size=(2, 3), spatial_scale=0.9)),
        ('roipool_3x3', 'ROIPooling', [image, rois], dict(pooled_size=(3, 3), spatial_scale=1.0)),
        ('roialign_adaptive', 'ROIAlign', [image, rois], dict(pooled_size=(2, 3), spatial_scale=0.9)),
        ('roialign_ratio2', 'ROIAlign', [image, rois], dict(pooled_size=(3, 2), spatial_scale=1.0, sample_ratio=2)),
        ('roialign_aligned', 'ROIAlign', [image, rois[:3]], dict(pooled_size=(2, 2), spatial_scale=0.5, aligned=True)),
        ('roialign_position_sensitive', 'ROIAlign', [ps_image, rois],
         dict(pooled_size=(2, 2), spatial_scale=0.7, position_sensitive=True)),
        ('upsample_nearest', 'UpSampling', [small], dict(scale=2, sample_type='nearest')),
        ('upsample_nearest_concat', 'UpSampling', [small, image[:, :1, :6, :6]],
         dict(scale=2, sample_type='nearest', num_args=2)),
        ('upsample_bilinear', 'UpSampling', [small, filters],
         dict(scale=2, sample_type='bilinear', num_filter=2, num_args=2)),
        ('im2col', 'im2col', [image], dict(kernel=(2, 3), stride=(2, 1), dilate=(1, 2), pad=(1, 0))),
        ('col2im', 'col2im', [patches], dict(output_size=(4, 5), kernel=(2, 2), stride=(1, 2), pad=(1, 0))),
    ] + transformer_cases(rng)


def transformer_cases(rng):
    image = rng.rand(2, 2, 4, 5).astype('float32')
    affine = np.array([[0.9, 0.1, 0.05, -0.2, 1.1, 0.1], [1.3, 0, -0.2, 0.1, 0.7, 0.3]], 'float32')
    flow = rng.rand(2, 2, 3, 4).astype('float32') * 2 - 1
    grid = rng.rand(2, 2, 3, 6).astype('float32') * 2.4 - 1.2  # some points off the map
    return [
        ('grid_affine', 'GridGenerator', [affine], dict(transform_type='affine', target_shape=(3, 4))),
        ('grid_warp', 'GridGenerator', [flow], dict(transform_type='warp')),
        ('bilinear_sampler', 'BilinearSampler', [image, grid], {}),
        ('spatial_transformer', 'SpatialTransformer', [image, affine],
         dict(target_shape=(3, 4), transform_type='affine', sampler_type='bilinear')),
        ('correlation', 'Correlation', [image, image[::-1]],
         dict(kernel_size=3, max_displacement=1, stride1=2, stride2=1, pad_size=2)),
        ('correlation_abs', 'Correlation', [image, image[:, ::-1]],
         dict(kernel_size=1, max_displacement=2, stride2=2, pad_size=1, is_multiply=False)),
        ('psroipool', 'PSROIPooling', [rng.rand(2, 18, 6, 7).astype('float32'), PS_ROIS],
         dict(spatial_scale=0.0625, output_dim=2, pooled_size=3)),
        ('psroipool_group2', 'PSROIPooling', [rng.rand(2, 8, 6, 7).astype('float32'), PS_ROIS],
         dict(spatial_scale=0.1, output_dim=2, pooled_size=3, group_size=2)),
    ]


PS_ROIS = np.array([[0, 10, 22, 61, 73], [1, 20, 15, 54, 60], [0, 0, 0, 3, 3], [1, -10, 30, 200, 40]], 'float32')


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
    ] + more_cases(np.random.RandomState(1))
    arrays, meta = {}, []
    for name, op, ins, kwargs in cases:
        nd_ins = [mx.nd.array(a) for a in ins]
        differentiable = op not in ('box_nms', 'box_iou')
        if differentiable:
            nd_ins[0].attach_grad()
        with mx.autograd.record():
            out = operator(op)(*nd_ins, **kwargs)
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
