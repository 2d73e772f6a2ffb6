import numpy as np
import mxnet as mx
from _nd_show import attempt, show

nd = mx.nd
C = nd.contrib


def grads(f, *xs, head=None):
    xs = [x.copy() for x in xs]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        y = f(*xs)
        if head is not None:
            y = y * head
    y.backward()
    return [x.grad for x in xs]


ramp = lambda shape, s=1.0: (nd.arange(int(np.prod(shape))) * s).reshape(shape)

print('== BilinearResize2D more')
img = ramp((2, 1, 3, 3), 0.5)
for mode in ('size', 'odd_scale', 'to_even_down', 'to_even_up', 'to_odd_down', 'to_odd_up'):
    attempt(lambda: C.BilinearResize2D(img, height=4, width=5, scale_height=1.5, scale_width=0.7, mode=mode))
    attempt(lambda: C.BilinearResize2D(img, height=4, width=5, scale_height=1.5, scale_width=0.7, mode=mode,
                                       align_corners=False))
attempt(lambda: C.BilinearResize2D(img, scale_height=3, scale_width=3))
attempt(lambda: C.BilinearResize2D(img, height=0, width=3))
attempt(lambda: C.BilinearResize2D(img, nd.zeros((1, 1, 5, 2)), mode='like', align_corners=False))
attempt(lambda: C.BilinearResize2D(img.astype('float16'), height=2, width=2))
attempt(lambda: C.BilinearResize2D(img.astype('int32'), height=2, width=2))
attempt(lambda: grads(lambda v: C.BilinearResize2D(v, height=5, width=4, align_corners=False), img[:1],
                      head=ramp((1, 1, 5, 4))))
attempt(lambda: grads(lambda v: C.BilinearResize2D(v, scale_height=2, scale_width=2, mode='odd_scale'), img[:1],
                      head=ramp((1, 1, 5, 5))))
attempt(lambda: grads(lambda v, w: C.BilinearResize2D(v, w, mode='like'), img[:1], nd.zeros((1, 1, 2, 2)),
                      head=ramp((1, 1, 2, 2))))

print('== AdaptiveAvgPooling2D more')
p = ramp((1, 1, 5, 7))
attempt(lambda: C.AdaptiveAvgPooling2D(p, output_size=(3, 4)))
attempt(lambda: C.AdaptiveAvgPooling2D(p, output_size=(1, 7)))
attempt(lambda: C.AdaptiveAvgPooling2D(p, output_size=(2,)))
attempt(lambda: C.AdaptiveAvgPooling2D(p, output_size=(0, 2)))
attempt(lambda: C.AdaptiveAvgPooling2D(p.astype('float16'), output_size=(2, 2)))
attempt(lambda: C.AdaptiveAvgPooling2D(p.astype('int32'), output_size=(2, 2)))
attempt(lambda: C.AdaptiveAvgPooling2D(ramp((1, 1, 1, 1)), output_size=3))
attempt(lambda: grads(lambda v: C.AdaptiveAvgPooling2D(v, output_size=(2, 3)), p, head=ramp((1, 1, 2, 3))))

print('== index_array boolean_mask arange_like index_copy more')
attempt(lambda: C.index_array(nd.zeros((2, 0))))
attempt(lambda: C.index_array(nd.zeros((1, 2, 1)), axes=(1,)))
attempt(lambda: C.index_array(nd.zeros((2, 2)), axes=()))
attempt(lambda: grads(lambda v: C.boolean_mask(v, nd.array([1, 0, 1])), ramp((3, 2)), head=nd.array([[1, 2], [3, 4]])))
attempt(lambda: C.boolean_mask(ramp((3, 2)), nd.array([0, 0, 0])))
attempt(lambda: C.boolean_mask(ramp((3, 2)), nd.array([1, 1]), axis=1))
attempt(lambda: C.boolean_mask(ramp((3, 2)), nd.array([1, 0, 1]), axis=1))
attempt(lambda: C.arange_like(ramp((2, 3)), start=1.5, step=0.25))
attempt(lambda: C.arange_like(ramp((2, 3)).astype('float64'), axis=0, repeat=2))
attempt(lambda: C.arange_like(ramp((4,)), axis=0, repeat=2))
attempt(lambda: C.index_copy(nd.zeros((3, 2)), nd.array([[1]]), nd.ones((1, 2))))
attempt(lambda: C.index_copy(nd.zeros((3, 2)), nd.array([1, 1]), ramp((2, 2))))

print('== quadratic allclose div_sqrt_dim more')
attempt(lambda: C.quadratic(nd.array([1, 2], dtype='float16'), a=0.5, b=0.25, c=1))
attempt(lambda: C.allclose(nd.array([1, 2]), nd.array([1, 2]).astype('float64')))
attempt(lambda: C.allclose(nd.array([1, 2], dtype='int32'), nd.array([1, 3], dtype='int32'), rtol=0.4))
attempt(lambda: C.allclose(nd.array([1e10]), nd.array([1.00001e10])))
attempt(lambda: C.allclose(nd.array([0.0]), nd.array([1e-9])))
attempt(lambda: C.div_sqrt_dim(nd.array([[4, 8]], dtype='float16')))
attempt(lambda: C.div_sqrt_dim(nd.array([[4, 8]], dtype='int32')))
attempt(lambda: C.div_sqrt_dim(nd.array([3.0])))
attempt(lambda: C.gradientmultiplier(nd.array([1, 2], dtype='int32'), scalar=2))
attempt(lambda: grads(lambda v: C.gradientmultiplier(v, scalar=2.5, is_int=False), nd.array([1.0, 2.0])))

print('== box_decode more')
anchors = nd.array([[[0, 0, 2, 2], [1, 1, 3, 4]]])
deltas = nd.array([[[0.1, -0.2, 0.3, 0.1], [1, 2, 3, 4]], [[0, 0, 0, 0], [0.5, 0.5, -0.5, -0.5]]])
attempt(lambda: C.box_decode(deltas, anchors, clip=1.0, format='corner'))
attempt(lambda: C.box_decode(deltas, anchors.astype('float64')))
attempt(lambda: C.box_decode(deltas.astype('float64'), anchors.astype('float64'), std0=2, format='corner'))
attempt(lambda: C.box_decode(deltas, nd.concat(anchors, anchors, dim=0)))
attempt(lambda: C.box_decode(deltas, anchors.reshape((2, 4))))
attempt(lambda: grads(lambda v: C.box_decode(v, anchors, format='corner'), deltas, head=ramp((2, 2, 4), 0.1)))
