import numpy as np
import mxnet as mx
from _nd_show import attempt, show

nd = mx.nd
C = nd.contrib


def grads(f, x, head):
    x = x.copy()
    x.attach_grad()
    with mx.autograd.record():
        y = f(x) * head
    y.backward()
    return x.grad


ramp = lambda shape, s=1.0: (nd.arange(int(np.prod(shape))) * s).reshape(shape)
v = nd.array([-1.5, -0.5, 0.2, 0.5, 2.5, 0])

print('== round_ste sign_ste')
attempt(lambda: C.round_ste(v))
attempt(lambda: C.sign_ste(v))
attempt(lambda: grads(C.round_ste, v, ramp((6,))))
attempt(lambda: grads(C.sign_ste, v, ramp((6,))))
attempt(lambda: C.round_ste(v.astype('float64')))

print('== quantize dequantize requantize')
x = nd.array([[-1.0, -0.3, 0], [0.25, 0.7, 1.0]])
attempt(lambda: C.quantize(x, nd.array([-1.0]), nd.array([1.0])))
attempt(lambda: C.quantize(x, nd.array([-1.0]), nd.array([1.0]), out_type='int8'))
attempt(lambda: C.quantize(x, nd.array([0.0]), nd.array([2.0]), out_type='uint8'))
q, lo, hi = C.quantize(x, nd.array([-1.0]), nd.array([1.0]), out_type='int8')
attempt(lambda: C.dequantize(q, lo, hi))
attempt(lambda: C.dequantize(q, lo, hi, out_type='float32'))
attempt(lambda: C.quantize(x, nd.array([-1.0]), nd.array([1.0]), out_type='int32'))
attempt(lambda: C.dequantize(x, lo, hi))

print('== MultiBoxPrior')
feat = nd.zeros((1, 3, 2, 3))
attempt(lambda: C.MultiBoxPrior(feat, sizes=[0.5]))
attempt(lambda: C.MultiBoxPrior(feat, sizes=[0.5, 0.25], ratios=[1, 2]))
attempt(lambda: C.MultiBoxPrior(feat, sizes=[0.9], ratios=[1], clip=True))
attempt(lambda: C.MultiBoxPrior(feat, sizes=[0.5], steps=[0.4, 0.3], offsets=[0.25, 0.25]))
attempt(lambda: C.MultiBoxPrior(feat, sizes=[0.5], ratios=[0.5, 1, 2]).shape)
attempt(lambda: C.MultiBoxPrior(nd.zeros((2, 3)), sizes=[0.5]))

print('== MultiBoxTarget')
anchors = nd.array([[[0, 0, 0.5, 0.5], [0.5, 0.5, 1, 1], [0.2, 0.2, 0.7, 0.7], [0, 0.5, 0.5, 1]]])
labels = nd.array([[[0, 0.05, 0.05, 0.5, 0.45], [1, 0.55, 0.5, 0.95, 1.0], [-1, -1, -1, -1, -1]]])
cls_pred = nd.array([[[0.5, 0.1, 0.4, 0.9], [0.3, 0.8, 0.1, 0.05], [0.2, 0.1, 0.5, 0.05]]])
attempt(lambda: C.MultiBoxTarget(anchors, labels, cls_pred))
attempt(lambda: C.MultiBoxTarget(anchors, labels, cls_pred, overlap_threshold=0.3, variances=(0.1, 0.1, 0.2, 0.2)))
attempt(lambda: C.MultiBoxTarget(anchors, labels, cls_pred, negative_mining_ratio=1, negative_mining_thresh=0.3))
attempt(lambda: C.MultiBoxTarget(anchors, labels, cls_pred, ignore_label=-1, minimum_negative_samples=1,
                                 negative_mining_ratio=3))

print('== MultiBoxDetection')
cls_prob = nd.array([[[0.1, 0.2, 0.8, 0.3], [0.8, 0.1, 0.1, 0.6], [0.1, 0.7, 0.1, 0.1]]])
loc = nd.array([[0.1, 0, 0, 0.1, 0, 0, 0, 0, 0.2, -0.1, 0.1, 0, 0, 0, 0, 0]])
attempt(lambda: C.MultiBoxDetection(cls_prob, loc, anchors))
attempt(lambda: C.MultiBoxDetection(cls_prob, loc, anchors, threshold=0.5, clip=False))
attempt(lambda: C.MultiBoxDetection(cls_prob, loc, anchors, nms_threshold=0.1, force_suppress=True))
attempt(lambda: C.MultiBoxDetection(cls_prob, loc, anchors, variances=(0.2, 0.2, 0.4, 0.4), nms_topk=2))

print('== PSROIPooling')
f = ramp((1, 8, 4, 4), 0.1)
rois = nd.array([[0, 0, 0, 3, 3], [0, 1, 1, 2, 3]])
attempt(lambda: C.PSROIPooling(f, rois, spatial_scale=1.0, output_dim=2, pooled_size=2))
attempt(lambda: C.PSROIPooling(f, rois, spatial_scale=0.5, output_dim=2, pooled_size=2, group_size=2))
attempt(lambda: C.PSROIPooling(f, rois, spatial_scale=1.0, output_dim=1, pooled_size=2))
attempt(lambda: C.PSROIPooling(f, rois, spatial_scale=1.0, output_dim=1, pooled_size=3, group_size=2))

print('== symbols')
d = mx.sym.var('d')
for s, shapes in ((mx.sym.contrib.MultiBoxPrior(d, sizes=[0.5, 0.2], ratios=[1, 2, 0.5]), dict(d=(1, 3, 4, 5))),
                  (mx.sym.contrib.round_ste(d), dict(d=(2, 3))),
                  (mx.sym.contrib.PSROIPooling(d, mx.sym.var('r'), spatial_scale=1.0, output_dim=2, pooled_size=2),
                   dict(d=(1, 8, 4, 4), r=(3, 5))),
                  (mx.sym.contrib.MultiBoxDetection(d, mx.sym.var('l'), mx.sym.var('a')),
                   dict(d=(1, 3, 4), l=(1, 16), a=(1, 4, 4))),
                  (mx.sym.contrib.MultiBoxTarget(mx.sym.var('a'), mx.sym.var('l'), d),
                   dict(a=(1, 4, 4), l=(1, 3, 5), d=(1, 3, 4)))):
    print(s.list_arguments(), s.list_outputs())
    print(s.infer_shape(**shapes))
