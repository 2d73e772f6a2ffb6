import numpy as np
import mxnet as mx
from mxnet import autograd

nd = mx.nd


def show2(x):
    # float16 softmax: MXNet's CPU kernel rounds its running sum to float16 after every term,
    # gluonjax sums in float32 (docs/MIGRATING.md): they agree to 2 decimals
    print(x.dtype.__name__, x.shape, (x.asnumpy().astype('float64').round(2) + 0).tolist())


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


x = ramp((2, 5), 0.5)
# ---- Activation ----
for t in ['relu', 'sigmoid', 'tanh', 'softrelu', 'softsign', 'log_sigmoid', 'mish']:
    attempt(lambda: nd.Activation(x, act_type=t))
attempt(lambda: nd.Activation(x, act_type='bogus'))
attempt(lambda: nd.Activation(x))
show(nd.Activation(data=x.astype('float64'), act_type='sigmoid'))
show(nd.relu(x))
show(nd.sigmoid(x))
show(nd.hard_sigmoid(x))
show(nd.hard_sigmoid(x, alpha=0.3, beta=0.4))
show(nd.softsign(x))
# ---- LeakyReLU ----
show(nd.LeakyReLU(x))
show(nd.LeakyReLU(x, act_type='leaky', slope=0.1))
show(nd.LeakyReLU(x, act_type='elu', slope=0.5))
show(nd.LeakyReLU(x, act_type='selu'))
show(nd.LeakyReLU(x, act_type='gelu'))
g = nd.array([0.1, 0.2])
xc = ramp((2, 2, 3), 0.5)
show(nd.LeakyReLU(xc, gamma=g, act_type='prelu'))
show(nd.LeakyReLU(x, gamma=nd.array([0.25]), act_type='prelu'))
show(nd.LeakyReLU(x, act_type='rrelu', lower_bound=0.2, upper_bound=0.2)[0])
attempt(lambda: nd.LeakyReLU(x, act_type='bogus'))
attempt(lambda: nd.LeakyReLU(xc, gamma=nd.array([0.1, 0.2, 0.3]), act_type='prelu'))

# ---- softmax family ----
s = ramp((2, 3, 4), 0.5)
show(nd.softmax(s))
show(nd.softmax(s, axis=1))
show(nd.softmax(s, axis=0))
show(nd.softmax(s, temperature=2.0))
show(nd.softmax(s, axis=-1, dtype='float64'))
show(nd.log_softmax(s))
show(nd.log_softmax(s, axis=1, temperature=0.5))
show(nd.softmin(s))
show(nd.softmin(s, axis=0))
sl = ramp((2, 5), 0.5)
show(nd.softmax(sl, length=nd.array([2, 4], dtype='int32'), use_length=True))
attempt(lambda: nd.softmax(sl, length=nd.array([2, 4]), use_length=True))
attempt(lambda: nd.log_softmax(sl, length=nd.array([3, 5], dtype='int64'), use_length=True))
show(nd.softmax(ramp((3, 2), 0.5), length=nd.array([1, 3], dtype='int32'), use_length=True, axis=0))
show2(nd.softmax(s.astype('float16')))
show2(nd.softmax(s.astype('float16'), dtype='float32'))
show2(nd.log_softmax(s.astype('float16'), axis=1, temperature=0.7))
show2(nd.softmin(s.astype('float16'), axis=0))
attempt(lambda: nd.softmax(s, axis=3))
attempt(lambda: nd.softmax(s.astype('float64'), dtype='float16'))
show(nd.SoftmaxActivation(ramp((2, 4), 0.5)))
show(nd.SoftmaxActivation(s, mode='channel'))
show(nd.SoftmaxActivation(s, mode='instance'))

# ---- SoftmaxOutput ----
d = ramp((3, 4), 0.5)
lab = nd.array([1, 0, 3])
show(nd.SoftmaxOutput(d, lab))
show(nd.SoftmaxOutput(data=d, label=lab, name='sm'))


def so_grad(data, label, **kw):
    data = data.copy()
    data.attach_grad()
    with autograd.record():
        out = nd.SoftmaxOutput(data, label, **kw)
    out.backward()
    return [out, data.grad]


show(so_grad(d, lab))
show(so_grad(d, lab, grad_scale=2.0))
show(so_grad(d, lab, normalization='batch'))
show(so_grad(d, lab, normalization='valid', use_ignore=True, ignore_label=0))
show(so_grad(d, lab, use_ignore=True, ignore_label=3))
show(so_grad(d, nd.array([1, -1, 2]), use_ignore=True, ignore_label=-1, normalization='valid'))
show(so_grad(d, nd.one_hot(lab, 4) * 0.5 + 0.125))
show(so_grad(d, lab, smooth_alpha=0.1))
s3 = ramp((2, 3, 2), 0.5)
l3 = nd.array([[0, 2], [1, 1]])
show(so_grad(s3, l3, multi_output=True))
show(so_grad(s3, l3, multi_output=True, normalization='valid', use_ignore=True, ignore_label=1))
show(so_grad(s3, l3, preserve_shape=True) if False else nd.SoftmaxOutput(s3, nd.array([[0, 1, 0], [1, 0, 1]]), preserve_shape=True))
attempt(lambda: nd.SoftmaxOutput(d, nd.array([1, 2])))

# ---- MakeLoss / BlockGrad / stop_gradient ----
v = nd.array([1.0, 2.0, 3.0])
v.attach_grad()
with autograd.record():
    y = nd.MakeLoss(v * v)
y.backward()
show([y, v.grad])
with autograd.record():
    y = nd.MakeLoss(v * v, grad_scale=0.5)
y.backward()
show(v.grad)
with autograd.record():
    y = nd.MakeLoss(v * v, normalization='batch')
y.backward()
show(v.grad)
with autograd.record():
    y = nd.MakeLoss(v - 2, normalization='valid', valid_thresh=0.5)
y.backward()
show(v.grad)
with autograd.record():
    y = (nd.BlockGrad(v * 2) * v).sum()
y.backward()
show(v.grad)
with autograd.record():
    y = (nd.stop_gradient(v) + v * v).sum()
y.backward()
show(v.grad)

# ---- Dropout (predict mode and p=0) ----
show(nd.Dropout(x, p=0.5))
show(nd.Dropout(x, p=0.0, mode='always'))
show(nd.Dropout(x, p=0.3, mode='training'))
show(nd.Dropout(xc, p=0.5, axes=(2,)))
with autograd.predict_mode():
    show(nd.Dropout(x, p=0.7))

# ---- smooth_l1 ----
show(nd.smooth_l1(ramp((2, 4), 0.5)))
show(nd.smooth_l1(ramp((2, 4), 0.5), scalar=2.0))
show(nd.smooth_l1(ramp((2, 4), 0.5), scalar=0.5))

# ---- Embedding ----
W = ramp((5, 3), 0.1)
idx = nd.array([[0, 4], [2, 2]])
show(nd.Embedding(idx, W, input_dim=5, output_dim=3))
show(nd.Embedding(data=nd.array([1, 3]), weight=W, input_dim=5, output_dim=3, dtype='float32'))
show(nd.Embedding(nd.array([0, 9, -1]), W, input_dim=5, output_dim=3))
show(nd.Embedding(nd.array([1.7, 2.2]), W, input_dim=5, output_dim=3))
show(nd.Embedding(nd.array([1, 2], dtype='int32'), W, input_dim=5, output_dim=3))
attempt(lambda: nd.Embedding(idx, W, input_dim=4, output_dim=3))
attempt(lambda: nd.Embedding(idx, W, input_dim=5, output_dim=2))
W.attach_grad()
with autograd.record():
    e = nd.Embedding(nd.array([0, 2, 2]), W, input_dim=5, output_dim=3)
e.backward()
show(W.grad)

# ---- more forms ----
show(nd.Activation(x.astype('float16'), act_type='tanh'))
show(nd.Activation(x.astype('float64'), act_type='softrelu'))
show(nd.LeakyReLU(x.astype('float16'), act_type='elu'))
show(nd.LeakyReLU(x.astype('float64'), act_type='gelu'))
show(nd.LeakyReLU(x.astype('float16'), act_type='selu'))
show(nd.Activation(x.astype('float16'), act_type='sigmoid'))
show(nd.Activation(x.astype('float16'), act_type='softrelu'))
show(nd.Activation(x.astype('float16'), act_type='softsign'))
show(nd.softmax(nd.array([1.0, 2.0, 3.0])))
show(nd.softmax(nd.array([[1.0, 2.0], [3.0, 5.0]]), axis=0, temperature=0.5))
show(nd.log_softmax(nd.array([1.0, 2.0, 3.0]).astype('float64')))
show(nd.softmax(nd.array([[-1e4, 0.0, 1e4]])))
show(nd.log_softmax(nd.array([[-1e4, 0.0, 1e4]])))
show(nd.SoftmaxOutput(d.astype('float64'), lab.astype('float64')))
show2(nd.SoftmaxOutput(ramp((4, 5), 0.7).astype('float16'), nd.array([0, 1, 2, 3], dtype='float16')))
attempt(lambda: nd.SoftmaxOutput(ramp((2, 2, 3), 0.5), nd.array([0, 1])))
show(nd.SoftmaxOutput(ramp((2, 2, 3), 0.5), nd.array([[0, 1], [1, 1]])))
show(nd.Embedding(idx, W.astype('float64'), input_dim=5, output_dim=3))
show(nd.Embedding(idx, W, input_dim=5, output_dim=3, sparse_grad=True))
show(nd.smooth_l1(ramp((3,), 0.5).astype('float64'), scalar=1.5))


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


xz = nd.array([[-1.0, -0.5, 0.0, 0.5, 1.0]])
for t in ['relu', 'sigmoid', 'tanh', 'softrelu', 'softsign']:
    show(grads(lambda a: nd.Activation(a, act_type=t), xz))
for t in ['leaky', 'elu', 'selu', 'gelu']:
    show(grads(lambda a: nd.LeakyReLU(a, act_type=t, slope=0.3), xz))
show(grads(lambda a, gm: nd.LeakyReLU(a, gm, act_type='prelu'), xc, g))
show(grads(lambda a: nd.hard_sigmoid(a), xz))
show(grads(lambda a: nd.softmax(a, axis=1), s))
show(grads(lambda a: nd.softmax(a, temperature=2.0), s))
show(grads(lambda a: nd.log_softmax(a, axis=-1), s))
show(grads(lambda a: nd.softmin(a, axis=0), s))
show(grads(lambda a: nd.softmax(a, nd.array([2, 4], dtype='int32'), use_length=True), sl))
show(grads(lambda a: nd.SoftmaxActivation(a), ramp((2, 4), 0.5)))
show(grads(lambda a: nd.SoftmaxActivation(a, mode='channel'), s))
show(grads(lambda a: nd.smooth_l1(a, scalar=2.0), ramp((2, 4), 0.5)))
show(grads(lambda a: nd.Embedding(nd.array([[0, 4], [2, 2]]), a, input_dim=5, output_dim=3), W))

# ---- make_loss ignores the head gradient; MakeLoss in a bound symbol ----
v = nd.array([[1.0, 2.0, 3.0], [0.5, -1, 2]])
v.attach_grad()
with autograd.record():
    y = nd.make_loss(v * v)
y.backward(nd.ones((2, 3)) * 7)
show(v.grad)
with autograd.record():
    y = nd.MakeLoss(v * v, normalization='batch')
y.backward(nd.ones((2, 3)) * 7)
show(v.grad)
xs = mx.sym.var('x')
ex = mx.sym.MakeLoss(mx.sym.square(xs), normalization='batch', grad_scale=2.0).simple_bind(mx.cpu(), x=(2, 3))
ex.arg_dict['x'][:] = v
ex.forward(is_train=True)
ex.backward()
show([ex.outputs[0], ex.grad_dict['x']])
ex = mx.sym.Group([mx.sym.MakeLoss(mx.sym.sum(xs * xs)), mx.sym.BlockGrad(xs * 2)]).simple_bind(mx.cpu(), x=(2, 3))
ex.arg_dict['x'][:] = v
ex.forward(is_train=True)
ex.backward()
show(ex.grad_dict['x'])
print(mx.sym.MakeLoss(xs, name='ml').list_outputs(), mx.sym.make_loss(xs, name='ml').list_outputs())
