import numpy as np
import mxnet as mx
from mxnet import autograd

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


x = ramp((2, 3, 2, 2), 0.5, 0.5)
# ---- LRN ----
show(nd.LRN(x, nsize=3))
show(nd.LRN(x, nsize=3, alpha=0.01, beta=0.5, knorm=1.0))
show(nd.LRN(ramp((1, 5, 1, 2), 1.0), nsize=5, alpha=0.1, beta=0.75, knorm=2.0))
attempt(lambda: nd.LRN(x, nsize=2))
attempt(lambda: nd.LRN(ramp((1, 6, 1, 2), 1.0), nsize=4, alpha=0.5, beta=1.0, knorm=1.0))
attempt(lambda: nd.LRN(ramp((2, 5), 1.0), nsize=3, alpha=0.5, beta=1.0, knorm=1.0))
attempt(lambda: nd.LRN(x.astype('float64'), nsize=3))
attempt(lambda: nd.LRN(ramp((1, 5, 2), 1.0), nsize=3))

# ---- L2Normalization ----
for mode in ['instance', 'channel', 'spatial']:
    show(nd.L2Normalization(x, mode=mode))
show(nd.L2Normalization(ramp((2, 4), 1.0), eps=1e-3))
show(nd.L2Normalization(ramp((2, 3, 2), 1.0), mode='channel'))
show(nd.L2Normalization(nd.zeros((1, 3))))
show(nd.L2Normalization(nd.array([3.0, -4.0, 0.0])))
show(nd.L2Normalization(nd.array([3.0, -4.0, 0.0]), eps=1.0))
attempt(lambda: nd.L2Normalization(nd.array([3.0, -4.0, 0.0]), mode='channel'))
attempt(lambda: nd.L2Normalization(x, mode='bogus'))

# ---- InstanceNorm ----
gamma = nd.array([1.0, 0.5, 2.0])
beta = nd.array([0.0, 0.1, -0.1])
show(nd.InstanceNorm(x, gamma, beta))
show(nd.InstanceNorm(x, gamma, beta, eps=0.1))
show(nd.InstanceNorm(ramp((2, 3, 5), 1.0), gamma, beta))
attempt(lambda: nd.InstanceNorm(x, nd.ones((2,)), beta))

# ---- LayerNorm ----
show(nd.LayerNorm(x, nd.ones((2,)), nd.zeros((2,))))
show(nd.LayerNorm(x, gamma, beta, axis=1))
show(nd.LayerNorm(ramp((2, 5), 1.0), nd.array([1, 2, 3, 4, 5]), nd.array([0, 0, 1, 1, 0]), eps=0.01))
show(nd.LayerNorm(ramp((2, 4), 1.0), nd.ones((4,)), nd.zeros((4,)), output_mean_var=True))
show(nd.LayerNorm(ramp((2, 3), 1.0), nd.ones((2,)), nd.zeros((2,)), axis=0))
attempt(lambda: nd.LayerNorm(x, gamma, beta))
attempt(lambda: nd.LayerNorm(x, nd.ones((2,)), nd.zeros((2,)), axis=4))

# ---- GroupNorm ----
xg = ramp((2, 4, 3), 1.0)
show(nd.GroupNorm(xg, nd.array([1, 2]), nd.array([0, 0.5]), num_groups=2))
attempt(lambda: nd.GroupNorm(xg, nd.ones((4,)), nd.zeros((4,)), num_groups=2))
show(nd.GroupNorm(xg, nd.array([1, 2, 3, 4]), nd.array([0, 1, 0, 1]), num_groups=4, eps=0.1))
show(nd.GroupNorm(xg, nd.ones((1,)), nd.zeros((1,)), num_groups=1, output_mean_var=True))
show(nd.GroupNorm(ramp((1, 4, 2, 2), 1.0), nd.ones((2,)), nd.zeros((2,)), num_groups=2))
attempt(lambda: nd.GroupNorm(xg, nd.ones((3,)), nd.zeros((3,)), num_groups=3))

# ---- BatchNorm (inference) ----
g = nd.array([1.0, 2.0, 0.5])
b = nd.array([0.1, 0.0, -0.1])
mm = nd.array([0.2, -0.1, 0.0])
mv = nd.array([1.0, 0.5, 2.0])
# fix_gamma=True (the default) makes MXNet write ones into gamma, so those calls get their own
show(nd.BatchNorm(x, nd.array([1.0, 2.0, 0.5]), b, mm, mv))
show(nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False))
show(nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False, use_global_stats=True))
show(nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False, eps=0.1))
show(nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False, output_mean_var=True))
show(nd.BatchNorm(ramp((2, 2, 3), 1.0), g, b, mm, mv, fix_gamma=False, axis=-1))
show(nd.BatchNorm(ramp((4, 3), 1.0), g, b, mm, mv, fix_gamma=False))
show(nd.BatchNorm(ramp((2, 3, 4), 1.0), g, b, mm, mv, fix_gamma=False, axis=1))
show(nd.BatchNorm(data=x, gamma=nd.array([3.0, 2.0, 0.5]), beta=b, moving_mean=mm, moving_var=mv, fix_gamma=True, use_global_stats=True))
attempt(lambda: nd.BatchNorm(x, g, b, mm, mv, axis=4, fix_gamma=False))
# training-mode BatchNorm: batch statistics and moving-stat updates
rm = mm.copy()
rv = mv.copy()
with autograd.record():
    y = nd.BatchNorm(x, g, b, rm, rv, fix_gamma=False, momentum=0.5)
show(y)
show([rm, rv])
xx = x.copy()
xx.attach_grad()
with autograd.record():
    y = nd.BatchNorm(xx, g, b, mm.copy(), mv.copy(), fix_gamma=False)
    loss = (y * ramp(y.shape, 1.0)).sum()
loss.backward()
show(xx.grad)

# ---- dtypes ----
show(nd.LayerNorm(ramp((2, 5), 1.0).astype('float64'), nd.ones((5,), dtype='float64'), nd.zeros((5,), dtype='float64')))
attempt(lambda: nd.InstanceNorm(x.astype('float64'), gamma.astype('float64'), beta.astype('float64')))
show(nd.L2Normalization(x.astype('float64'), mode='channel'))
show(nd.BatchNorm(x.astype('float64'), g.astype('float64'), b.astype('float64'), mm.astype('float64'),
                  mv.astype('float64'), fix_gamma=False))
attempt(lambda: nd.LayerNorm(ramp((2, 5), 1.0).astype('float64'), nd.ones((5,)), nd.zeros((5,))))


# ---- gradients ----
def grads(f, *arrays):
    arrays = [a.copy() for a in arrays]
    for a in arrays:
        a.attach_grad()
    with autograd.record():
        out = f(*arrays)
        loss = (out * ramp(out.shape, 1.0, 0.5)).sum()
    loss.backward()
    return [a.grad for a in arrays]


show(grads(lambda a: nd.LRN(a, nsize=3, alpha=0.1, beta=0.75, knorm=2.0), x))
for mode in ['instance', 'channel', 'spatial']:
    show(grads(lambda a: nd.L2Normalization(a, mode=mode), x))
show(grads(lambda a, gm, bt: nd.InstanceNorm(a, gm, bt), x, gamma, beta))
show(grads(lambda a, gm, bt: nd.LayerNorm(a, gm, bt), ramp((2, 5), 1.0), nd.array([1, 2, 3, 4, 5]), nd.zeros((5,))))
show(grads(lambda a, gm, bt: nd.LayerNorm(a, gm, bt, axis=1), x, gamma, beta))
show(grads(lambda a, gm, bt: nd.GroupNorm(a, gm, bt, num_groups=2), xg, nd.array([1, 2]), nd.array([0, 0.5])))
show(grads(lambda a, gm, bt: nd.BatchNorm(a, gm, bt, mm.copy(), mv.copy(), fix_gamma=False), x, g, b))
show(grads(lambda a, gm, bt: nd.BatchNorm(a, gm, bt, mm.copy(), mv.copy(), fix_gamma=False, use_global_stats=True), x, g, b))
show(grads(lambda a, gm, bt: nd.BatchNorm(a, gm, bt, mm.copy(), mv.copy(), fix_gamma=True), x, nd.ones((3,)), b))
