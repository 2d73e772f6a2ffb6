import numpy as np
import mxnet as mx

nd = mx.nd


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    else:
        print(x.dtype.__name__, x.shape, (x.asnumpy().round(4) + 0).tolist())


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


def ramp(shape, scale=0.1, shift=0.0):
    n = int(np.prod(shape))
    return nd.array((np.arange(n) % 7 - 3 + shift).reshape(shape) * scale)


img = nd.arange(32).reshape((1, 2, 4, 4))
# ---- GridGenerator ----
aff = nd.array([[1, 0, 0, 0, 1, 0], [0.5, 0.1, 0.2, -0.1, 0.8, -0.3]])
show(nd.GridGenerator(aff, transform_type='affine', target_shape=(2, 3)))
flow = ramp((1, 2, 3, 3), 0.5)
show(nd.GridGenerator(flow, transform_type='warp'))
attempt(lambda: nd.GridGenerator(nd.ones((1, 5)), transform_type='affine', target_shape=(2, 2)))
attempt(lambda: nd.GridGenerator(aff, transform_type='bogus', target_shape=(2, 2)))

# ---- BilinearSampler ----
grid = nd.GridGenerator(nd.array([[0.9, 0.1, 0.05, -0.2, 0.7, 0.1]]), transform_type='affine', target_shape=(3, 3))
show(nd.BilinearSampler(img, grid))
ident = nd.GridGenerator(nd.array([[1, 0, 0, 0, 1, 0]]), transform_type='affine', target_shape=(4, 4))
show(nd.BilinearSampler(img, ident))
outside = nd.array([[[[-1.5, 0.0], [1.2, 0.5]], [[0.0, -1.0], [0.3, 2.0]]]])
show(nd.BilinearSampler(img, outside))
show(nd.BilinearSampler(data=img, grid=outside, cudnn_off=True))
attempt(lambda: nd.BilinearSampler(img, nd.ones((1, 3, 2, 2))))
attempt(lambda: nd.BilinearSampler(img, nd.ones((2, 2, 2, 2))))

# ---- SpatialTransformer ----
loc = nd.array([[0.8, 0.0, 0.1, 0.0, 0.8, -0.1]])
show(nd.SpatialTransformer(img, loc, target_shape=(3, 3), transform_type='affine', sampler_type='bilinear'))
show(nd.SpatialTransformer(img, nd.array([[1, 0, 0, 0, 1, 0]]), target_shape=(4, 4),
                           transform_type='affine', sampler_type='bilinear'))
attempt(lambda: nd.SpatialTransformer(img, nd.ones((1, 4)), target_shape=(3, 3), transform_type='affine',
                                      sampler_type='bilinear'))

# ---- ROIPooling ----
feat = nd.arange(2 * 1 * 6 * 6).reshape((2, 1, 6, 6))
rois = nd.array([[0, 0, 0, 3, 3], [1, 1, 1, 5, 4], [0, 2, 0, 5, 5]])
show(nd.ROIPooling(feat, rois, pooled_size=(2, 2), spatial_scale=1.0))
show(nd.ROIPooling(feat, rois, pooled_size=(3, 2), spatial_scale=1.0))
show(nd.ROIPooling(feat, rois * nd.array([1, 2, 2, 2, 2]), pooled_size=(2, 2), spatial_scale=0.5))
show(nd.ROIPooling(data=feat, rois=rois, pooled_size=(1, 1), spatial_scale=1.0))
attempt(lambda: nd.ROIPooling(feat, nd.array([[0, 0, 0, 3]]), pooled_size=(2, 2), spatial_scale=1.0))

# ---- ROIAlign ----
f2 = ramp((1, 2, 5, 5), 0.37) + nd.arange(50).reshape((1, 2, 5, 5)) * 0.113
r2 = nd.array([[0, 0.3, 0.6, 3.1, 3.7], [0, 1.2, 0.1, 3.9, 2.3]])
show(nd.contrib.ROIAlign(f2, r2, pooled_size=(2, 2), spatial_scale=1.0))
show(nd.contrib.ROIAlign(f2, r2, pooled_size=(2, 3), spatial_scale=1.0, sample_ratio=2))
show(nd.contrib.ROIAlign(f2, r2, pooled_size=(2, 2), spatial_scale=0.5, sample_ratio=1))
show(nd.contrib.ROIAlign(f2, r2, pooled_size=(2, 2), spatial_scale=1.0, sample_ratio=2, aligned=True))
show(nd.contrib.ROIAlign(f2, r2, pooled_size=(1, 1), spatial_scale=1.0, position_sensitive=False))
attempt(lambda: nd.contrib.ROIAlign(f2, nd.array([[0, 1, 1]]), pooled_size=(2, 2), spatial_scale=1.0))

# ---- Correlation ----
c1 = ramp((1, 2, 5, 5), 0.5)
c2 = ramp((1, 2, 5, 5), 0.5, 1.0)
show(nd.Correlation(c1, c2, kernel_size=1, max_displacement=1, stride1=1, stride2=1, pad_size=1))
show(nd.Correlation(c1, c2, kernel_size=1, max_displacement=2, stride1=1, stride2=2, pad_size=2))
show(nd.Correlation(c1, c2, kernel_size=3, max_displacement=1, stride1=1, stride2=1, pad_size=2))
show(nd.Correlation(c1, c2, kernel_size=1, max_displacement=1, stride1=1, stride2=1, pad_size=1, is_multiply=False))
show(nd.Correlation(c1, c2, kernel_size=1, max_displacement=1, stride1=2, stride2=1, pad_size=1))

# ---- box_iou ----
ba = nd.array([[0, 0, 2, 2], [1, 1, 3, 3], [0, 0, 1, 4]])
bb = nd.array([[1, 0, 2, 2], [0, 0, 2, 2]])
show(nd.contrib.box_iou(ba, bb))
show(nd.contrib.box_iou(ba, bb, format='corner'))
show(nd.contrib.box_iou(nd.array([[1, 1, 2, 2], [2, 2, 2, 4]]), nd.array([[1, 1, 2, 2]]), format='center'))
show(nd.contrib.box_iou(ba.reshape((1, 3, 4)), bb))
attempt(lambda: nd.contrib.box_iou(nd.ones((2, 3)), bb))

# ---- box_nms ----
dets = nd.array([[0, 0.9, 0, 0, 2, 2],
                 [0, 0.8, 0.1, 0.1, 2.1, 2.1],
                 [1, 0.7, 0, 0, 2, 2],
                 [0, 0.6, 3, 3, 4, 4],
                 [0, 0.05, 5, 5, 6, 6],
                 [-1, 0.95, 0, 0, 1, 1]])
show(nd.contrib.box_nms(dets, overlap_thresh=0.5, coord_start=2, score_index=1, id_index=0))
show(nd.contrib.box_nms(dets, overlap_thresh=0.5, coord_start=2, score_index=1, id_index=0, force_suppress=True))
show(nd.contrib.box_nms(dets, overlap_thresh=0.5, valid_thresh=0.1, coord_start=2, score_index=1, id_index=-1))
show(nd.contrib.box_nms(dets, overlap_thresh=0.5, topk=2, coord_start=2, score_index=1, id_index=0))
show(nd.contrib.box_nms(dets, overlap_thresh=0.5, coord_start=2, score_index=1, id_index=0, background_id=1))
show(nd.contrib.box_nms(dets, overlap_thresh=0.5, coord_start=2, score_index=1, id_index=0, out_format='center'))
show(nd.contrib.box_nms(dets.reshape((2, 3, 6)), overlap_thresh=0.5, coord_start=2, score_index=1, id_index=0))
show(nd.contrib.box_nms(dets[:, 1:], overlap_thresh=0.3, coord_start=1, score_index=0))
show(nd.contrib.box_non_maximum_suppression(dets[:, 1:], overlap_thresh=0.3, coord_start=1, score_index=0, id_index=-1))
attempt(lambda: nd.contrib.box_nms(dets, coord_start=4))

# ---- bipartite_matching ----
sc = nd.array([[0.5, 0.6, 0.1], [0.1, 0.7, 0.2], [0.3, 0.2, 0.9], [0.05, 0.01, 0.02]])
show(nd.contrib.bipartite_matching(sc, threshold=0.1))
show(nd.contrib.bipartite_matching(sc, threshold=0.25))
show(nd.contrib.bipartite_matching(sc, threshold=0.1, is_ascend=True))
show(nd.contrib.bipartite_matching(sc, threshold=0.1, topk=2))
show(nd.contrib.bipartite_matching(sc.reshape((1, 4, 3)), threshold=0.1))

# ---- more forms ----
show(nd.contrib.box_nms(dets, overlap_thresh=0.5, coord_start=2, score_index=1, id_index=0, in_format='center'))
show(nd.contrib.box_nms(dets, overlap_thresh=0.5, coord_start=2, score_index=1, id_index=0, in_format='center',
                        out_format='corner'))
show(nd.contrib.box_nms(dets[:1]))
show(nd.contrib.box_iou(ba.astype('float64'), bb.astype('float64')))
show(nd.contrib.bipartite_matching(nd.array([[0.5, 0.5], [0.5, 0.5]]), threshold=0.1))
show(nd.contrib.bipartite_matching(nd.array([[0.3, 0.9], [0.9, 0.3]]), threshold=0.9))
show(nd.GridGenerator(ramp((2, 6), 0.3), transform_type='affine', target_shape=(3, 2)))
show(nd.BilinearSampler(img.astype('float64'), outside.astype('float64')))
show(nd.ROIPooling(feat, nd.array([[0, -1, -1, 1, 1], [1, 4, 4, 9, 9]]), pooled_size=(2, 2), spatial_scale=1.0))
show(nd.contrib.ROIAlign(f2, nd.array([[0, -1.0, -1.0, 1.5, 1.5], [0, 3.2, 3.1, 6.5, 7.0]]), pooled_size=(2, 2),
                         spatial_scale=1.0, sample_ratio=2))
u = ramp((1, 2, 2, 3), 1.0)
uw = ramp((2, 1, 4, 4), 0.1)
show(nd.UpSampling(u.astype('float64'), scale=2, sample_type='nearest'))
show(nd.UpSampling(u, uw, scale=2, sample_type='bilinear', num_filter=2))

# ---- gradients ----
from mxnet import autograd


def grads(f, *arrays):
    arrays = [a.copy() for a in arrays]
    for a in arrays:
        a.attach_grad()
    with autograd.record():
        out = f(*arrays)
        loss = (out * ramp(out.shape, 1.0, 0.5)).sum()
    loss.backward()
    return [a.grad for a in arrays]


show(grads(lambda a, gr: nd.BilinearSampler(a, gr), img, grid))
show(grads(lambda a, gr: nd.BilinearSampler(a, gr), img, outside))
show(grads(lambda t: nd.GridGenerator(t, transform_type='affine', target_shape=(2, 3)), aff))
show(grads(lambda fl: nd.GridGenerator(fl, transform_type='warp'), flow))
show(grads(lambda a, t: nd.SpatialTransformer(a, t, target_shape=(3, 3), transform_type='affine',
                                              sampler_type='bilinear'), img, loc))
show(grads(lambda a: nd.ROIPooling(a, rois, pooled_size=(2, 2), spatial_scale=1.0), feat))
show(grads(lambda a: nd.contrib.ROIAlign(a, r2, pooled_size=(2, 2), spatial_scale=1.0, sample_ratio=2), f2))
show(grads(lambda a, c: nd.Correlation(a, c, kernel_size=1, max_displacement=1, stride1=1, stride2=1, pad_size=1), c1, c2))
show(grads(lambda a, c: nd.Correlation(a, c, kernel_size=3, max_displacement=1, stride1=1, stride2=1, pad_size=2,
                                       is_multiply=False), c1, c2))
show(grads(lambda a, k: nd.UpSampling(a, k, scale=2, sample_type='bilinear', num_filter=2), u, uw))
show(grads(lambda a, c: nd.contrib.box_iou(a, c), ba, bb))
show(grads(lambda a: nd.contrib.box_nms(a, overlap_thresh=0.5, coord_start=2, score_index=1, id_index=0), dets))
show(grads(lambda a: nd.contrib.box_nms(a, overlap_thresh=0.5, topk=2, coord_start=2, score_index=1, id_index=0), dets))
show(grads(lambda a: nd.contrib.bipartite_matching(a, threshold=0.1)[0], sc))

# ---- which dtypes each operator takes ----
base = np.arange(32).reshape(1, 2, 4, 4) % 5


def A(dt, shape=None):
    return nd.array(base if shape is None else np.resize(base, shape), dtype=dt)


ops = {
    'Convolution': lambda dt: nd.Convolution(A(dt), A(dt, (3, 2, 2, 2)), kernel=(2, 2), num_filter=3, no_bias=True),
    'Deconvolution': lambda dt: nd.Deconvolution(A(dt), A(dt, (2, 3, 2, 2)), kernel=(2, 2), num_filter=3, no_bias=True),
    'FullyConnected': lambda dt: nd.FullyConnected(A(dt), A(dt, (3, 32)), num_hidden=3, no_bias=True),
    'Pooling': lambda dt: nd.Pooling(A(dt), kernel=(2, 2), pool_type='max'),
    'Pooling_avg': lambda dt: nd.Pooling(A(dt), kernel=(2, 2), pool_type='avg'),
    'Activation': lambda dt: nd.Activation(A(dt), act_type='relu'),
    'LeakyReLU': lambda dt: nd.LeakyReLU(A(dt)),
    'softmax': lambda dt: nd.softmax(A(dt)),
    'log_softmax': lambda dt: nd.log_softmax(A(dt)),
    'SoftmaxOutput': lambda dt: nd.SoftmaxOutput(A(dt, (2, 3)), A(dt, (2,))),
    'LRN': lambda dt: nd.LRN(A(dt), nsize=3),
    'L2Normalization': lambda dt: nd.L2Normalization(A(dt)),
    'InstanceNorm': lambda dt: nd.InstanceNorm(A(dt), A(dt, (2,)), A(dt, (2,))),
    'LayerNorm': lambda dt: nd.LayerNorm(A(dt), A(dt, (4,)), A(dt, (4,))),
    'GroupNorm': lambda dt: nd.GroupNorm(A(dt), A(dt, (1,)), A(dt, (1,))),
    'BatchNorm': lambda dt: nd.BatchNorm(A(dt), nd.ones(2), nd.zeros(2), nd.zeros(2), nd.ones(2)),
    'Dropout': lambda dt: nd.Dropout(A(dt), p=0.5),
    'UpSampling': lambda dt: nd.UpSampling(A(dt), scale=2, sample_type='nearest'),
    'BilinearSampler': lambda dt: nd.BilinearSampler(A(dt), nd.zeros((1, 2, 2, 2), dtype=dt)),
    'GridGenerator': lambda dt: nd.GridGenerator(A(dt, (1, 6)), transform_type='affine', target_shape=(2, 2)),
    'SpatialTransformer': lambda dt: nd.SpatialTransformer(A(dt), A(dt, (1, 6)), target_shape=(2, 2),
                                                           transform_type='affine', sampler_type='bilinear'),
    'ROIPooling': lambda dt: nd.ROIPooling(A(dt), nd.array([[0, 0, 0, 2, 2]], dtype=dt), pooled_size=(1, 1),
                                           spatial_scale=1.0),
    'ROIAlign': lambda dt: nd.contrib.ROIAlign(A(dt), nd.array([[0, 0, 0, 2, 2]], dtype=dt), pooled_size=(1, 1),
                                               spatial_scale=1.0),
    'smooth_l1': lambda dt: nd.smooth_l1(A(dt)),
    'Embedding': lambda dt: nd.Embedding(nd.array([0, 1]), A(dt, (3, 2)), input_dim=3, output_dim=2),
    'Correlation': lambda dt: nd.Correlation(A(dt), A(dt)),
    'box_nms': lambda dt: nd.contrib.box_nms(A(dt, (3, 6))),
    'box_iou': lambda dt: nd.contrib.box_iou(A(dt, (3, 4)), A(dt, (2, 4))),
    'bipartite_matching': lambda dt: nd.contrib.bipartite_matching(A(dt, (3, 4)), threshold=0.1),
    'MakeLoss': lambda dt: nd.MakeLoss(A(dt)),
    'BlockGrad': lambda dt: nd.BlockGrad(A(dt)),
}
# float16 convolutions have no CPU kernel in MXNet (a gemm error), int8 convolution a quantized one
skip = {('Convolution', 'float16'), ('Deconvolution', 'float16'), ('FullyConnected', 'float16'),
        ('SpatialTransformer', 'float16'), ('Convolution', 'int8')}
for name, f in ops.items():
    row = []
    for dt in ('float16', 'float64', 'int32', 'uint8', 'int8', 'int64'):
        if (name, dt) in skip:
            continue
        try:
            o = f(dt)
            o = o[0] if isinstance(o, (list, tuple)) else o
            o.asnumpy()
            row.append(np.dtype(o.dtype).name)
        except Exception as e:
            row.append(type(e).__name__)
    print(name, ' '.join(row))
