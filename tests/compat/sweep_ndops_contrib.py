import numpy as np
import mxnet as mx
from _nd_show import attempt, show

nd = mx.nd
C = nd.contrib


def grad(f, *xs):
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        y = f(*xs)
    y.backward()
    return [x.grad for x in xs]


ramp = lambda shape, s=1.0: (nd.arange(int(np.prod(shape))) * s).reshape(shape)

print('== quadratic div_sqrt_dim gradientmultiplier allclose')
x = nd.array([[1, -2], [3, 0.5]])
attempt(lambda: C.quadratic(x))
attempt(lambda: C.quadratic(x, a=1, b=2, c=3))
attempt(lambda: C.quadratic(x.astype('float64'), a=0.5, c=-1))
attempt(lambda: C.quadratic(x.astype('int32'), a=2, b=1))
attempt(lambda: grad(lambda v: C.quadratic(v, a=2, b=1, c=5), x.copy()))
attempt(lambda: C.div_sqrt_dim(ramp((2, 4))))
attempt(lambda: C.div_sqrt_dim(ramp((2, 3, 9), 0.5)))
attempt(lambda: C.div_sqrt_dim(ramp((2, 4)).astype('float64')))
attempt(lambda: grad(lambda v: C.div_sqrt_dim(v), ramp((2, 4))))
attempt(lambda: C.gradientmultiplier(x, scalar=3.0))
attempt(lambda: grad(lambda v: C.gradientmultiplier(v, scalar=-0.5) * 2, x.copy()))
attempt(lambda: grad(lambda v: C.gradientmultiplier(v, scalar=0), x.copy()))
attempt(lambda: C.allclose(x, x + 1e-9))
attempt(lambda: C.allclose(x, x + 1e-3))
attempt(lambda: C.allclose(x, x + 1e-3, rtol=0, atol=1e-2))
attempt(lambda: C.allclose(nd.array([np.nan]), nd.array([np.nan])))
attempt(lambda: C.allclose(nd.array([np.nan]), nd.array([np.nan]), equal_nan=False))
attempt(lambda: C.allclose(nd.array([1, 2]), nd.array([[1, 2], [1, 2]])))
attempt(lambda: C.allclose(nd.array([1, 2]), nd.array([1, 2, 3])))
attempt(lambda: C.allclose(nd.array([np.inf]), nd.array([np.inf])))

print('== index_copy')
old = nd.zeros((4, 3))
attempt(lambda: C.index_copy(old, nd.array([3, 1]), ramp((2, 3))))
attempt(lambda: C.index_copy(old.astype('float64'), nd.array([0], dtype='int64'), ramp((1, 3)).astype('float64')))
attempt(lambda: C.index_copy(nd.zeros((4,)), nd.array([2, 0]), nd.array([5, 6])))
attempt(lambda: C.index_copy(nd.zeros((3, 2, 2)), nd.array([1]), ramp((1, 2, 2))))
attempt(lambda: C.index_copy(old, nd.array([3, 1]), ramp((2, 2))))
attempt(lambda: C.index_copy(old, nd.array([3, 1, 0]), ramp((2, 3))))
attempt(lambda: grad(lambda o, n: C.index_copy(o, nd.array([2, 0]), n) * ramp((4, 3)), nd.ones((4, 3)), nd.ones((2, 3))))

print('== BilinearResize2D')
img = ramp((1, 2, 3, 4))
attempt(lambda: C.BilinearResize2D(img, height=5, width=6))
attempt(lambda: C.BilinearResize2D(img, height=6, width=8, align_corners=False))
attempt(lambda: C.BilinearResize2D(img, scale_height=2, scale_width=0.5, mode='odd_scale'))
attempt(lambda: C.BilinearResize2D(img, scale_height=2.0, scale_width=2.0, mode='odd_scale'))
attempt(lambda: C.BilinearResize2D(img, nd.zeros((1, 1, 2, 2)), mode='like'))
attempt(lambda: C.BilinearResize2D(img, height=3, width=5, mode='to_even_down'))
attempt(lambda: C.BilinearResize2D(img, height=3, width=5, mode='to_even_up'))
attempt(lambda: C.BilinearResize2D(img, height=3, width=5, mode='to_odd_down'))
attempt(lambda: C.BilinearResize2D(img, height=3, width=5, mode='to_odd_up'))
attempt(lambda: C.BilinearResize2D(img, height=1, width=1))
attempt(lambda: C.BilinearResize2D(img.astype('float64'), height=2, width=2))
attempt(lambda: C.BilinearResize2D(img, mode='like'))
attempt(lambda: C.BilinearResize2D(ramp((2, 3, 4)), height=2, width=2))
attempt(lambda: C.BilinearResize2D(img, height=2, width=2, mode='bogus'))
attempt(lambda: grad(lambda v: C.BilinearResize2D(v, height=3, width=3) * ramp((1, 2, 3, 3)), ramp((1, 2, 2, 2))))

print('== AdaptiveAvgPooling2D')
p = ramp((1, 2, 4, 5))
attempt(lambda: C.AdaptiveAvgPooling2D(p))
attempt(lambda: C.AdaptiveAvgPooling2D(p, output_size=2))
attempt(lambda: C.AdaptiveAvgPooling2D(p, output_size=(3, 2)))
attempt(lambda: C.AdaptiveAvgPooling2D(p, output_size=(4, 5)))
attempt(lambda: C.AdaptiveAvgPooling2D(p, output_size=(6, 7)))
attempt(lambda: C.AdaptiveAvgPooling2D(p.astype('float64'), output_size=(2, 3)))
attempt(lambda: C.AdaptiveAvgPooling2D(ramp((2, 4, 5)), output_size=2))
attempt(lambda: grad(lambda v: C.AdaptiveAvgPooling2D(v, output_size=(2, 2)) * ramp((1, 1, 2, 2)), ramp((1, 1, 3, 3))))

print('== ROIAlign position_sensitive')
feat = ramp((1, 8, 4, 4), 0.25)
rois = nd.array([[0, 0, 0, 3, 3], [0, 1, 0.5, 2.5, 3]])
attempt(lambda: C.ROIAlign(feat, rois, pooled_size=(2, 2), spatial_scale=1.0, position_sensitive=True))
attempt(lambda: C.ROIAlign(feat, rois, pooled_size=(2, 1), spatial_scale=1.0, sample_ratio=2, position_sensitive=True))
attempt(lambda: C.ROIAlign(feat, rois, pooled_size=(3, 3), spatial_scale=1.0, position_sensitive=True))

print('== box_encode box_decode')
samples = nd.array([[1, -1, 0, 1]])
matches = nd.array([[0, 1, 0, 1]])
anchors = nd.array([[[0, 0, 2, 2], [1, 1, 3, 4], [0, 1, 1, 2], [2, 2, 4, 4]]])
refs = nd.array([[[0.5, 0, 2, 3], [1, 1.5, 4, 4]]])
means = nd.array([0, 0, 0, 0])
stds = nd.array([0.1, 0.1, 0.2, 0.2])
attempt(lambda: C.box_encode(samples, matches, anchors, refs, means, stds))
attempt(lambda: C.box_encode(samples, matches, anchors, refs, nd.array([0.1, 0, -0.1, 0]), nd.ones((4,))))
attempt(lambda: C.box_encode(samples, matches, anchors.astype('float64'), refs.astype('float64'),
                             means.astype('float64'), stds.astype('float64')))
attempt(lambda: C.box_encode(samples.astype('float64'), matches.astype('float64'), anchors.astype('float64'),
                             refs.astype('float64'), means.astype('float64'), stds.astype('float64')))
attempt(lambda: C.box_encode(samples, matches, anchors, refs, means, nd.ones((3,))))
deltas = nd.array([[[0.1, -0.2, 0.3, 0.1], [0, 0, 0, 0], [-0.5, 0.5, -1, 1], [1, 1, 2, 2]]])
attempt(lambda: C.box_decode(deltas, anchors))
attempt(lambda: C.box_decode(deltas, anchors, format='corner'))
attempt(lambda: C.box_decode(deltas, anchors, std0=0.1, std1=0.1, std2=0.2, std3=0.2))
attempt(lambda: C.box_decode(deltas, anchors, std2=0.2, std3=0.2, clip=0.5))
attempt(lambda: C.box_decode(deltas, nd.array([[[1, 1, 2, 2], [2, 2, 2, 2], [0, 0, 1, 1], [3, 3, 1, 2]]]), format='center'))
attempt(lambda: C.box_decode(nd.concat(deltas, deltas, dim=0), anchors))
attempt(lambda: C.box_decode(deltas, anchors[:, :2]))
attempt(lambda: C.box_decode(deltas, anchors, format='bogus'))
enc = C.box_encode(samples, matches, anchors, refs, means, nd.ones((4,)))[0]
attempt(lambda: C.box_decode(enc, anchors, format='corner'))

print('== interleaved_matmul')
L, B, H, D = 3, 2, 2, 2
qkv = ramp((L, B, H * 3 * D), 0.05)
att = C.interleaved_matmul_selfatt_qk(qkv, heads=H)
show(att)
show(C.interleaved_matmul_selfatt_valatt(qkv, nd.softmax(att, axis=-1), heads=H))
q = ramp((L, B, H * D), 0.1)
kv = ramp((4, B, H * 2 * D), -0.05)
att2 = C.interleaved_matmul_encdec_qk(q, kv, heads=H)
show(att2)
show(C.interleaved_matmul_encdec_valatt(kv, nd.softmax(att2, axis=-1), heads=H))
attempt(lambda: C.interleaved_matmul_selfatt_valatt(qkv, nd.ones((B * H, L, 5)), heads=H))
attempt(lambda: C.interleaved_matmul_encdec_qk(q, ramp((4, B, 6)), heads=H))
attempt(lambda: C.interleaved_matmul_selfatt_qk(qkv.astype('float64'), heads=H).dtype.__name__)
attempt(lambda: grad(lambda v: C.interleaved_matmul_selfatt_qk(v, heads=H), ramp((2, 1, 6), 0.1)))

print('== edge_id dgl_adjacency')
csr = nd.array([[1, 0, 0], [0, 2, 0], [0, 0, 3]]).tostype('csr')
attempt(lambda: C.edge_id(csr, nd.array([0, 0, 1, 1, 2, 2]), nd.array([0, 1, 1, 2, 0, 2])))
attempt(lambda: C.edge_id(nd.array([[0, 5], [6, 0]]).tostype('csr'), nd.array([0, 1]), nd.array([1, 0])))
attempt(lambda: C.dgl_adjacency(csr).tostype('default'))
attempt(lambda: C.dgl_adjacency(csr).stype)
attempt(lambda: C.dgl_adjacency(csr.astype('int64')).tostype('default'))
attempt(lambda: C.dgl_adjacency(csr.astype('int64')).stype)

print('== symbols')
d, e, f = mx.sym.var('a'), mx.sym.var('b'), mx.sym.var('c')
for sym, shapes in ((mx.sym.contrib.quadratic(d, a=1), dict(a=(2, 3))),
                    (mx.sym.contrib.div_sqrt_dim(d), dict(a=(2, 4))),
                    (mx.sym.contrib.gradientmultiplier(d, scalar=2), dict(a=(2, 3))),
                    (mx.sym.contrib.allclose(d, e), dict(a=(2, 3), b=(2, 3))),
                    (mx.sym.contrib.index_copy(d, e, f), dict(a=(4, 3), b=(2,), c=(2, 3))),
                    (mx.sym.contrib.BilinearResize2D(d, height=5, width=7), dict(a=(1, 2, 3, 4))),
                    (mx.sym.contrib.BilinearResize2D(d, scale_height=2, scale_width=3, mode='odd_scale'), dict(a=(1, 2, 3, 4))),
                    (mx.sym.contrib.BilinearResize2D(d, e, mode='like'), dict(a=(1, 2, 3, 4), b=(1, 1, 6, 2))),
                    (mx.sym.contrib.AdaptiveAvgPooling2D(d, output_size=(2, 3)), dict(a=(1, 2, 5, 5))),
                    (mx.sym.contrib.box_decode(d, e), dict(a=(2, 5, 4), b=(1, 5, 4))),
                    (mx.sym.contrib.box_encode(d, e, f, mx.sym.var('r'), mx.sym.var('m'), mx.sym.var('s')),
                     dict(a=(2, 5), b=(2, 5), c=(2, 5, 4), r=(2, 3, 4), m=(4,), s=(4,))),
                    (mx.sym.contrib.interleaved_matmul_selfatt_qk(d, heads=2), dict(a=(3, 2, 12))),
                    (mx.sym.contrib.interleaved_matmul_selfatt_valatt(d, e, heads=2), dict(a=(3, 2, 12), b=(4, 3, 3))),
                    (mx.sym.contrib.interleaved_matmul_encdec_qk(d, e, heads=2), dict(a=(3, 2, 4), b=(5, 2, 8))),
                    (mx.sym.contrib.interleaved_matmul_encdec_valatt(d, e, heads=2), dict(a=(5, 2, 8), b=(4, 3, 5))),
                    (mx.sym.contrib.ROIAlign(d, e, pooled_size=(2, 2), spatial_scale=1.0, position_sensitive=True),
                     dict(a=(1, 8, 4, 4), b=(3, 5)))):
    print(sym.list_arguments(), sym.list_outputs())
    print(sym.infer_shape(**shapes))
    print(sym.infer_type(**{k: 'float32' for k in shapes}))
ex = mx.sym.contrib.quadratic(d, a=1, b=-1, c=2).bind(mx.cpu(), {'a': x})
show(ex.forward()[0])
ex = mx.sym.contrib.box_decode(d, e, format='corner').bind(mx.cpu(), {'a': deltas, 'b': anchors})
show(ex.forward()[0])
ex = mx.sym.contrib.AdaptiveAvgPooling2D(d, output_size=1).bind(mx.cpu(), {'a': p})
show(ex.forward()[0])
