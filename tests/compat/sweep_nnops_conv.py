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


# ---- Convolution ----
x = ramp((1, 2, 5, 5))
w = ramp((3, 2, 3, 3), 0.05)
b = nd.array([0.1, -0.2, 0.3])
show(nd.Convolution(x, w, b, kernel=(3, 3), num_filter=3))
show(nd.Convolution(x, w, b, kernel=(3, 3), num_filter=3, stride=(2, 2)))
show(nd.Convolution(x, w, b, kernel=(3, 3), num_filter=3, pad=(1, 1)))
show(nd.Convolution(x, w, b, kernel=(3, 3), num_filter=3, dilate=(2, 2)))
show(nd.Convolution(x, w, kernel=(3, 3), num_filter=3, no_bias=True, stride=(2, 1), pad=(1, 0)))
show(nd.Convolution(data=x, weight=w, bias=b, kernel=(3, 3), num_filter=3, pad=(2, 2), dilate=(2, 2), stride=(3, 3)))
# grouped
xg = ramp((1, 4, 4, 4))
wg = ramp((4, 2, 2, 2), 0.1)
show(nd.Convolution(xg, wg, kernel=(2, 2), num_filter=4, num_group=2, no_bias=True))
wdw = ramp((4, 1, 3, 3), 0.1)
show(nd.Convolution(xg, wdw, kernel=(3, 3), num_filter=4, num_group=4, no_bias=True, pad=(1, 1)))
# 1-D and 3-D
x1 = ramp((2, 2, 7))
w1 = ramp((3, 2, 3), 0.1)
show(nd.Convolution(x1, w1, kernel=(3,), num_filter=3, no_bias=True))
show(nd.Convolution(x1, w1, nd.array([1, 2, 3]), kernel=(3,), num_filter=3, stride=(2,), pad=(1,)))
x3 = ramp((1, 1, 3, 4, 4))
w3 = ramp((2, 1, 2, 2, 2), 0.1)
show(nd.Convolution(x3, w3, kernel=(2, 2, 2), num_filter=2, no_bias=True))
# NHWC layout
xh = ramp((1, 4, 4, 2))
wh = ramp((3, 2, 2, 2), 0.1)
# integer-type argument forms
show(nd.Convolution(x, w, b, kernel=[3, 3], num_filter=3, stride=[1, 1]))
# bad shapes
attempt(lambda: nd.Convolution(x, ramp((3, 3, 3, 3)), b, kernel=(3, 3), num_filter=3))
attempt(lambda: nd.Convolution(x, w, b, kernel=(3, 3), num_filter=4))
attempt(lambda: nd.Convolution(ramp((1, 2, 2, 2)), w, b, kernel=(3, 3), num_filter=3))
attempt(lambda: nd.Convolution(x, w, nd.array([1, 2]), kernel=(3, 3), num_filter=3))
attempt(lambda: nd.Convolution(ramp((1, 3, 4, 4)), ramp((2, 1, 2, 2)), kernel=(2, 2), num_filter=2, num_group=2, no_bias=True))

# ---- Deconvolution ----
xd = ramp((1, 2, 3, 3))
wd = ramp((2, 3, 3, 3), 0.05)
show(nd.Deconvolution(xd, wd, kernel=(3, 3), num_filter=3, no_bias=True))
show(nd.Deconvolution(xd, wd, kernel=(3, 3), num_filter=3, stride=(2, 2), no_bias=True))
show(nd.Deconvolution(xd, wd, kernel=(3, 3), num_filter=3, stride=(2, 2), pad=(1, 1), no_bias=True))
show(nd.Deconvolution(xd, wd, kernel=(3, 3), num_filter=3, stride=(2, 2), pad=(1, 1), adj=(1, 1), no_bias=True))
show(nd.Deconvolution(xd, wd, nd.array([1, 0, -1]), kernel=(3, 3), num_filter=3, no_bias=False))
wdg = ramp((2, 2, 2, 2), 0.1)
show(nd.Deconvolution(xd, wdg, kernel=(2, 2), num_filter=4, num_group=2, no_bias=True))
show(nd.Deconvolution(ramp((1, 2, 4)), ramp((2, 1, 3), 0.1), kernel=(3,), num_filter=1, stride=(2,), no_bias=True))
attempt(lambda: nd.Deconvolution(xd, ramp((3, 3, 3, 3)), kernel=(3, 3), num_filter=3, no_bias=True))

# ---- Pooling ----
p = ramp((1, 2, 5, 5), 1.0)
for pt in ['max', 'avg', 'sum']:
    show(nd.Pooling(p, kernel=(2, 2), pool_type=pt))
    show(nd.Pooling(p, kernel=(2, 2), pool_type=pt, stride=(2, 2)))
    show(nd.Pooling(p, kernel=(2, 2), pool_type=pt, stride=(2, 2), pooling_convention='full'))
    show(nd.Pooling(p, kernel=(3, 3), pool_type=pt, stride=(2, 2), pad=(1, 1)))
    show(nd.Pooling(p, kernel=(3, 3), pool_type=pt, global_pool=True))
show(nd.Pooling(p, kernel=(3, 3), pool_type='avg', stride=(2, 2), pad=(1, 1), count_include_pad=False))
show(nd.Pooling(p, kernel=(3, 3), pool_type='avg', stride=(2, 2), pad=(1, 1), count_include_pad=True))
show(nd.Pooling(p, kernel=(2, 2), pool_type='avg', stride=(2, 2), pooling_convention='full', count_include_pad=False))
show(nd.Pooling(nd.abs(p), kernel=(2, 2), pool_type='lp', p_value=2, stride=(2, 2)))
show(nd.Pooling(nd.abs(p), kernel=(2, 2), pool_type='lp', p_value=1, stride=(1, 1)))
show(nd.Pooling(nd.abs(p), pool_type='lp', p_value=2, global_pool=True, kernel=(1, 1)))
show(nd.Pooling(p, pool_type='max', global_pool=True))
show(nd.Pooling(p, pool_type='avg', global_pool=True))
attempt(lambda: nd.Pooling(p))
# 1-D / 3-D
p1 = ramp((2, 2, 7), 1.0)
show(nd.Pooling(p1, kernel=(3,), pool_type='max', stride=(2,)))
show(nd.Pooling(p1, kernel=(3,), pool_type='avg', stride=(2,), pad=(1,)))
show(nd.Pooling(p1, kernel=(2,), pool_type='max', stride=(2,), pooling_convention='full'))
show(nd.Pooling(p1, kernel=(1,), pool_type='avg', global_pool=True))
p3 = ramp((1, 1, 4, 4, 4), 1.0)
show(nd.Pooling(p3, kernel=(2, 2, 2), pool_type='max', stride=(2, 2, 2)))
show(nd.Pooling(p3, kernel=(2, 2, 2), pool_type='avg', stride=(1, 2, 2)))
show(nd.Pooling(p3, kernel=(3, 3, 3), pool_type='max', global_pool=True))
# NHWC pooling
attempt(lambda: nd.Pooling(ramp((1, 4, 4, 2), 1.0), kernel=(2, 2), stride=(2, 2), pool_type='max', layout='NHWC'))
# bad
attempt(lambda: nd.Pooling(p, kernel=(7, 7), pool_type='max'))
attempt(lambda: nd.Pooling(p, kernel=(2, 2), pool_type='bogus'))
attempt(lambda: nd.Pooling(ramp((5,), 1.0), kernel=(2,), pool_type='max'))

# ---- FullyConnected ----
fx = ramp((2, 3, 4))
fw = ramp((5, 12), 0.1)
fb = nd.array([0.5, 0, -0.5, 1, -1])
show(nd.FullyConnected(fx, fw, fb, num_hidden=5))
show(nd.FullyConnected(fx, ramp((5, 4), 0.1), fb, num_hidden=5, flatten=False))
show(nd.FullyConnected(fx, ramp((5, 4), 0.1), num_hidden=5, flatten=False, no_bias=True))
show(nd.FullyConnected(ramp((3, 4)), ramp((2, 4)), num_hidden=2, no_bias=True))
attempt(lambda: nd.FullyConnected(data=ramp((4,)), weight=ramp((2, 4)), bias=nd.array([1, 2]), num_hidden=2))
attempt(lambda: nd.FullyConnected(fx, fw, fb, num_hidden=4))
attempt(lambda: nd.FullyConnected(fx, ramp((5, 10)), fb, num_hidden=5))
attempt(lambda: nd.FullyConnected(fx, fw, nd.array([1, 2]), num_hidden=5))
attempt(lambda: nd.FullyConnected(fx, fw, num_hidden=5))

# ---- UpSampling ----
u = ramp((1, 2, 2, 3), 1.0)
show(nd.UpSampling(u, scale=2, sample_type='nearest'))
show(nd.UpSampling(u, scale=3, sample_type='nearest', num_args=1))
show(nd.UpSampling(u, ramp((1, 3, 2, 3), 0.5), scale=2, sample_type='nearest', num_args=2, multi_input_mode='concat'))
show(nd.UpSampling(u, u, scale=2, sample_type='nearest', num_args=2, multi_input_mode='sum'))
uw = nd.ones((2, 1, 4, 4)) * 0.25
show(nd.UpSampling(u, uw, scale=2, sample_type='bilinear', num_filter=2))
attempt(lambda: nd.UpSampling(u, scale=2, sample_type='bilinear', num_filter=2))

# ---- more argument forms and dtypes ----
show(nd.Convolution(x.astype('float64'), w.astype('float64'), b.astype('float64'), kernel=(3, 3), num_filter=3))
show(nd.Convolution(x, w, b, kernel=(3, 3), num_filter=3, workspace=512, cudnn_tune='off', cudnn_off=True))
show(nd.Pooling(p, kernel=(2, 2), pool_type='max', stride=(3, 3)))
attempt(lambda: nd.Pooling(p, kernel=(3, 3), pool_type='max', stride=(2, 2), pooling_convention='same'))
attempt(lambda: nd.Pooling(p, kernel=(2, 2), pool_type='avg', stride=(2, 2), pooling_convention='same'))
show(nd.Pooling(nd.abs(p), kernel=(2, 2), pool_type='lp', p_value=3, stride=(2, 2)))
show(nd.Pooling(p.astype('float16'), kernel=(2, 2), pool_type='avg', stride=(2, 2)))
show(nd.Pooling(p.astype('float64'), kernel=(3, 3), pool_type='max', stride=(2, 2), pad=(1, 1)))
show(nd.Pooling(p1, kernel=(3,), pool_type='sum', stride=(2,), pooling_convention='full'))
show(nd.FullyConnected(fx.astype('float64'), ramp((5, 4), 0.1).astype('float64'), num_hidden=5, no_bias=True, flatten=False))
attempt(lambda: nd.Convolution(x, w.astype('float64'), b, kernel=(3, 3), num_filter=3))
attempt(lambda: nd.Convolution(x, w, b, kernel=(3, 3)))
attempt(lambda: nd.Convolution(x, w, b, num_filter=3))
attempt(lambda: nd.Convolution(x, w, b, kernel=(3, 3), num_filter=3, stride=(0, 1)))
attempt(lambda: nd.Convolution(x, w, b, kernel=(3, 3, 3), num_filter=3))
attempt(lambda: nd.Convolution(x, w, b, kernel=(3, 3), num_filter=3, no_bias=True))
attempt(lambda: nd.Convolution(x, w, bias=b, kernel=(3, 3), num_filter=3, no_bias=True))
attempt(lambda: nd.Convolution(x, w, None, kernel=(3, 3), num_filter=3, no_bias=True))
attempt(lambda: nd.Deconvolution(xd, wd, nd.array([1, 0, -1]), kernel=(3, 3), num_filter=3))
attempt(lambda: nd.FullyConnected(fx, fw, fb, num_hidden=5, no_bias=True))

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


show(grads(lambda a, k, c: nd.Convolution(a, k, c, kernel=(3, 3), num_filter=3, stride=(2, 2), pad=(1, 1)), x, w, b))
show(grads(lambda a, k: nd.Convolution(a, k, kernel=(2, 2), num_filter=4, num_group=2, no_bias=True), xg, wg))
show(grads(lambda a, k: nd.Deconvolution(a, k, kernel=(3, 3), num_filter=3, stride=(2, 2), no_bias=True), xd, wd))
ties = nd.array([[[[1, 1, 0], [1, 1, 2], [0, 2, 2]]]])
show(grads(lambda a: nd.Pooling(a, kernel=(2, 2), pool_type='max', stride=(1, 1)), ties))
show(grads(lambda a: nd.Pooling(a, kernel=(3, 3), pool_type='avg', stride=(2, 2), pad=(1, 1), count_include_pad=False), p))
show(grads(lambda a: nd.Pooling(a, kernel=(2, 2), pool_type='max', stride=(2, 2), pooling_convention='full'), p))
show(grads(lambda a: nd.Pooling(a, pool_type='avg', global_pool=True, kernel=(1, 1)), p))
show(grads(lambda a: nd.Pooling(nd.abs(a) + 1, kernel=(2, 2), pool_type='lp', p_value=2, stride=(2, 2)), p))
show(grads(lambda a, k, c: nd.FullyConnected(a, k, c, num_hidden=5), fx, fw, fb))
show(grads(lambda a, k: nd.FullyConnected(a, k, num_hidden=5, flatten=False, no_bias=True), fx, ramp((5, 4), 0.1)))
show(grads(lambda a: nd.UpSampling(a, scale=2, sample_type='nearest'), u))


# ---- the same operators as symbols: arguments, outputs, inferred shapes ----
sym = mx.sym
d = sym.var('data')


def info(s, **shapes):
    try:
        a, o, x = s.infer_shape(**shapes)
        print(s.list_arguments(), s.list_outputs(), s.list_auxiliary_states())
        print(a, o, x)
    except Exception as e:
        print(type(e).__name__)


info(sym.Convolution(d, kernel=(3, 3), num_filter=4, name='c'), data=(2, 3, 8, 8))
info(sym.Convolution(d, kernel=(3, 3), num_filter=4, no_bias=True, num_group=1, stride=(2, 2), name='c'), data=(2, 3, 8, 8))
info(sym.Convolution(d, kernel=(3,), num_filter=4, pad=(1,), name='c1'), data=(2, 3, 8))
info(sym.Convolution(d, kernel=(2, 2, 2), num_filter=4, name='c3'), data=(1, 2, 4, 4, 4))
info(sym.Convolution(d, kernel=(3, 3), num_filter=4, num_group=3, name='cg'), data=(2, 6, 8, 8))
info(sym.Deconvolution(d, kernel=(3, 3), num_filter=4, stride=(2, 2), pad=(1, 1), adj=(1, 1), name='dc'), data=(2, 3, 5, 5))
info(sym.Deconvolution(d, kernel=(3, 3), num_filter=4, no_bias=False, name='dc'), data=(2, 3, 5, 5))
info(sym.Deconvolution(d, kernel=(4, 4), num_filter=4, stride=(2, 2), target_shape=(10, 10), name='dc'), data=(2, 3, 5, 5))
info(sym.Deconvolution(d, kernel=(3, 3), num_filter=4, num_group=3, name='dg'), data=(2, 6, 5, 5))
info(sym.FullyConnected(d, num_hidden=5, name='fc'), data=(2, 3, 4))
info(sym.FullyConnected(d, num_hidden=5, flatten=False, name='fc'), data=(2, 3, 4))
info(sym.FullyConnected(d, num_hidden=5, no_bias=True, name='fc'), data=(2, 3))
info(sym.Pooling(d, kernel=(3, 3), stride=(2, 2), pooling_convention='full', name='p'), data=(1, 2, 8, 8))
info(sym.Pooling(d, kernel=(3, 3), global_pool=True, pool_type='avg', name='p'), data=(1, 2, 8, 8))
info(sym.Pooling(d, kernel=(2,), stride=(2,), name='p'), data=(1, 2, 9))
info(sym.BatchNorm(d, name='bn'), data=(2, 3, 4, 4))
info(sym.BatchNorm(d, axis=-1, name='bn'), data=(2, 4, 3))
info(sym.BatchNorm(d, output_mean_var=True, name='bn'), data=(2, 3, 4, 4))
info(sym.InstanceNorm(d, name='in'), data=(2, 3, 4, 4))
info(sym.LayerNorm(d, name='ln'), data=(2, 3, 4))
info(sym.LayerNorm(d, axis=1, name='ln'), data=(2, 3, 4))
info(sym.LayerNorm(d, output_mean_var=True, name='ln'), data=(2, 3, 4))
info(sym.GroupNorm(d, num_groups=2, name='gn'), data=(2, 4, 3))
info(sym.GroupNorm(d, num_groups=2, output_mean_var=True, name='gn'), data=(2, 4, 3))
info(sym.L2Normalization(d, mode='channel', name='l2'), data=(2, 3, 4))
info(sym.LRN(d, nsize=3, name='lrn'), data=(2, 3, 4, 4))
info(sym.LeakyReLU(d, act_type='prelu', name='pr'), data=(2, 3, 4))
info(sym.LeakyReLU(d, act_type='rrelu', name='rr'), data=(2, 3, 4))
info(sym.LeakyReLU(d, act_type='elu', name='el'), data=(2, 3, 4))
info(sym.Activation(d, act_type='relu', name='r'), data=(2, 3))
info(sym.softmax(d, axis=1, name='sm'), data=(2, 3))
info(sym.softmax(d, sym.var('len'), use_length=True, name='sm'), data=(2, 3))
info(sym.log_softmax(d, name='lsm'), data=(2, 3))
info(sym.SoftmaxActivation(d, name='sa'), data=(2, 3))
info(sym.SoftmaxOutput(d, name='so'), data=(2, 3))
info(sym.SoftmaxOutput(d, multi_output=True, name='so'), data=(2, 3, 4))
info(sym.SoftmaxOutput(d, preserve_shape=True, name='so'), data=(2, 3, 4))
info(sym.MakeLoss(d, name='ml'), data=(2, 3))
info(sym.make_loss(d, name='ml'), data=(2, 3))
info(sym.BlockGrad(d, name='bg'), data=(2, 3))
info(sym.Dropout(d, p=0.5, name='do'), data=(2, 3))
info(sym.Embedding(d, input_dim=10, output_dim=4, name='emb'), data=(2, 3))
info(sym.UpSampling(d, scale=2, sample_type='nearest', name='up'), data=(1, 2, 3, 3))
info(sym.UpSampling(d, scale=2, sample_type='bilinear', num_filter=2, name='up'), data=(1, 2, 3, 3))
info(sym.UpSampling(d, sym.var('d2'), scale=2, sample_type='nearest', num_args=2, name='up'), data=(1, 2, 3, 3), d2=(1, 1, 6, 6))
info(sym.ROIPooling(d, sym.var('rois'), pooled_size=(2, 2), spatial_scale=1.0, name='roi'), data=(1, 2, 6, 6), rois=(3, 5))
info(sym.contrib.ROIAlign(d, sym.var('rois'), pooled_size=(2, 2), spatial_scale=1.0, name='ra'), data=(1, 2, 6, 6), rois=(3, 5))
info(sym.Correlation(d, sym.var('d2'), kernel_size=1, max_displacement=1, pad_size=1, name='cor'), data=(1, 2, 5, 5), d2=(1, 2, 5, 5))
info(sym.GridGenerator(d, transform_type='affine', target_shape=(3, 4), name='gg'), data=(2, 6))
info(sym.GridGenerator(d, transform_type='warp', name='gg'), data=(2, 2, 3, 4))
info(sym.BilinearSampler(d, sym.var('grid'), name='bs'), data=(1, 2, 4, 4), grid=(1, 2, 3, 3))
info(sym.SpatialTransformer(d, sym.var('loc'), target_shape=(3, 3), transform_type='affine', sampler_type='bilinear', name='st'), data=(1, 2, 4, 4), loc=(1, 6))
info(sym.contrib.box_nms(d, name='nms'), data=(4, 6))
info(sym.contrib.box_iou(d, sym.var('b'), name='iou'), data=(3, 4), b=(2, 4))
info(sym.contrib.bipartite_matching(d, threshold=0.1, name='bm'), data=(3, 4))
info(sym.smooth_l1(d, scalar=1.0, name='sl'), data=(3, 4))
info(sym.Convolution(d, kernel=(3, 3), num_filter=4, name='c'), data=(2, 3, 2, 2))
info(sym.FullyConnected(d, sym.var('w'), num_hidden=5, name='fc'), data=(2, 3), w=(4, 3))
info(sym.Convolution(d, kernel=(3, 3), num_filter=4, name='c'))
print(sym.Convolution(d, kernel=(3, 3), num_filter=4).list_arguments())
print(sym.FullyConnected(d, num_hidden=4).name, sym.Pooling(d, kernel=(2, 2)).name, sym.BatchNorm(d).list_auxiliary_states())
print(sym.MakeLoss(d).name, sym.SoftmaxOutput(d).list_arguments(), sym.LeakyReLU(d, act_type='prelu').list_arguments())

# ---- max/avg pooling with a pad not below the kernel: the shape comes, the values fail ----
for pt, k, pd in [('max', (2, 2), (2, 2)), ('avg', (3, 3), (3, 1)), ('sum', (2, 2), (2, 2))]:
    y = nd.Pooling(p, kernel=k, pad=pd, pool_type=pt)
    print(pt, y.shape)
    attempt(lambda: y)
print(sym.Pooling(d, kernel=(2, 2), pad=(2, 2)).infer_shape(data=(1, 2, 5, 5)))
attempt(lambda: nd.Pooling(p.astype('float64'), kernel=(2, 2), pad=(1, 1), pool_type='max'))
