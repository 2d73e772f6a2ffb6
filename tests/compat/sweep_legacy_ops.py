"""Legacy operator names old scripts and JSON files still use: Convolution_v1, Pooling_v1,
contrib.BatchNormWithReLU, IdentityAttachKLSparseReg and the aggregated SGD updates."""
import json

import mxnet as mx

nd, sym = mx.nd, mx.sym


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    elif isinstance(x, nd.NDArray):
        print(x.dtype.__name__, x.shape, x.asnumpy().round(3).tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


x = nd.arange(2 * 2 * 5 * 5).reshape((2, 2, 5, 5)) / 10
w = nd.arange(3 * 2 * 3 * 3).reshape((3, 2, 3, 3)) / 50
b = nd.array([1, 2, 3])
# Convolution_v1
attempt(lambda: nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=3).sum(axis=(2, 3)))
attempt(lambda: nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=3, pad=(1, 1), stride=(2, 2)).sum(axis=(2, 3)))
attempt(lambda: nd.Convolution_v1(x, w, kernel=(3, 3), num_filter=3, no_bias=True).sum(axis=(2, 3)))
attempt(lambda: nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=3, dilate=(2, 2)).sum(axis=(2, 3)))
attempt(lambda: nd.Convolution_v1(x, nd.ones((4, 1, 3, 3)), nd.ones(4), kernel=(3, 3), num_filter=4, num_group=2).sum(axis=(2, 3)))
attempt(lambda: nd.Convolution_v1(x.astype('float64'), w.astype('float64'), b.astype('float64'), kernel=(3, 3), num_filter=3).sum())
attempt(lambda: nd.Convolution_v1(x[:, :, 0], w[:, :, 0], b, kernel=(3,), num_filter=3))
attempt(lambda: nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=4))
attempt(lambda: nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=3, layout='NHWC'))
# Pooling_v1: zero padding, averages over the whole kernel
neg = -nd.arange(1, 26).reshape((1, 1, 5, 5))
for data in (x, neg):
    for pt in ('max', 'avg', 'sum'):
        for conv in ('valid', 'full'):
            attempt(lambda: nd.Pooling_v1(data, kernel=(2, 2), stride=(2, 2), pool_type=pt, pooling_convention=conv))
            attempt(lambda: nd.Pooling_v1(data, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type=pt,
                                          pooling_convention=conv))
        attempt(lambda: nd.Pooling_v1(data, kernel=(2, 2), global_pool=True, pool_type=pt))
        attempt(lambda: nd.Pooling_v1(data, global_pool=True, pool_type=pt))
attempt(lambda: nd.Pooling_v1(neg, kernel=(3, 3), stride=(1, 1), pad=(3, 3), pool_type='max'))
attempt(lambda: nd.Pooling_v1(neg, kernel=(3, 2), stride=(1, 2), pad=(0, 1), pool_type='avg'))
attempt(lambda: nd.Pooling_v1(x[:, :, 0], kernel=(2,), pool_type='max'))
attempt(lambda: nd.Pooling_v1(x, kernel=(2, 2), pool_type='lp'))
attempt(lambda: nd.Pooling_v1(x, kernel=(7, 7), pool_type='max'))
attempt(lambda: nd.Pooling_v1(x.reshape((2, 2, 1, 5, 5)), kernel=(1, 2, 2), pool_type='avg'))
attempt(lambda: nd.Pooling_v1(x, kernel=(2, 2), pool_type='max', p_value=2))
attempt(lambda: nd.Pooling_v1(x, kernel=(2, 2), pool_type='max', pooling_convention='same'))
# as symbols and JSON
conv = sym.Convolution_v1(sym.var('data'), kernel=(3, 3), num_filter=4, name='c')
pool = sym.Pooling_v1(conv, kernel=(2, 2), stride=(2, 2), pool_type='avg', name='p')
print(pool.list_arguments(), pool.list_outputs(), pool.infer_shape(data=(1, 2, 9, 9)))
print(pool.infer_type(data='float64'))
print(sorted((k, sorted(v.items())) for k, v in pool.attr_dict().items()))
js = json.loads(pool.tojson())
print([(n['op'], n['name'], n.get('attrs')) for n in js['nodes']], js['node_row_ptr'])
back = sym.load_json(pool.tojson())
ex = back.bind(mx.cpu(), {'data': nd.ones((1, 2, 9, 9)), 'c_weight': nd.ones((4, 2, 3, 3)) / 10,
                          'c_bias': nd.array([0, 1, 2, 3])})
show(ex.forward()[0])
# BatchNormWithReLU (MXNet's CPU build takes 4-D data)
bn = sym.contrib.BatchNormWithReLU(sym.var('data'), name='bn')
print(bn.list_arguments(), bn.list_auxiliary_states(), bn.list_outputs(), bn.infer_shape(data=(3, 4, 2, 2)))
print(bn.infer_type(data='float16'))
print(sym.contrib.BatchNormWithReLU(sym.var('data'), output_mean_var=True, name='bn2').list_outputs())
print(json.loads(bn.tojson())['node_row_ptr'])
print(sorted((k, sorted(v.items())) for k, v in bn.attr_dict().items()))
g, be = nd.array([1, 2, 3]), nd.array([0.1, -0.2, 0.3])
mm, vv = nd.array([0.5, 0, 1]), nd.array([1, 2, 0.5])
# (fix_gamma=False only: MXNet's oneDNN build keeps the first call's fix_gamma for later calls)
x4 = (nd.arange(24).reshape((1, 3, 2, 4)) - 10) / 5
attempt(lambda: nd.contrib.BatchNormWithReLU(x4, g, be, mm, vv, fix_gamma=False))
attempt(lambda: nd.contrib.BatchNormWithReLU(x4, g, be, mm, vv, fix_gamma=False, use_global_stats=True))
attempt(lambda: nd.contrib.BatchNormWithReLU(x4, g, be, mm, vv, fix_gamma=False, output_mean_var=True))
x4.attach_grad()
with mx.autograd.record():
    y = nd.contrib.BatchNormWithReLU(x4, g, be, mm, vv, fix_gamma=False)
y.backward()
show([y, x4.grad, mm, vv])
# IdentityAttachKLSparseReg: identity forward, KL sparseness penalty in the gradient
kl = sym.IdentityAttachKLSparseReg(sym.var('data'), name='k', penalty=0.5, sparseness_target=0.2, momentum=0.5)
print(kl.list_arguments(), kl.list_auxiliary_states(), kl.list_outputs(), kl.infer_shape(data=(2, 5, 4)))
print(sorted((k, sorted(v.items())) for k, v in kl.attr_dict().items()))
data = nd.array([[0.1, 0.5, 0.9], [0.3, 0.2, 0.6]])
ex = kl.bind(mx.cpu(), {'data': data}, args_grad={'data': nd.zeros((2, 3))},
             aux_states={'k_moving_avg': nd.array([0.5, 0.5, 0.5])})
show(ex.forward(is_train=True))
ex.backward(nd.ones((2, 3)))
show([ex.grad_dict['data'], ex.aux_dict['k_moving_avg']])
ex.forward(is_train=True)
ex.backward(nd.zeros((2, 3)))
show([ex.grad_dict['data'], ex.aux_dict['k_moving_avg']])
show(ex.forward(is_train=False))
show(ex.aux_dict['k_moving_avg'])
attempt(lambda: nd.IdentityAttachKLSparseReg(data))
# aggregated SGD updates (Optimizer.aggregate_num), weights written through out=
w0, g0, w1, g1 = nd.array([1., 2.]), nd.array([0.5, -1]), nd.array([[3.]]), nd.array([[2.]])
m0, m1 = nd.array([0.1, 0.1]), nd.array([[0.2]])
attempt(lambda: nd.multi_sgd_update(w0, g0, w1, g1, lrs=(0.1, 0.2), wds=(0.0, 0.5), num_weights=2, out=[w0, w1]))
attempt(lambda: nd.multi_sgd_mom_update(w0, g0, m0, w1, g1, m1, lrs=(0.1, 0.2), wds=(0.0, 0.5), momentum=0.9,
                                        num_weights=2, out=[w0, w1]))
show([w0, w1, m0, m1])
attempt(lambda: nd.preloaded_multi_sgd_update(w0, g0, w1, g1, nd.array([0.1, 0.2]), nd.array([0., 0.5]),
                                              num_weights=2, out=[w0, w1]))
attempt(lambda: nd.preloaded_multi_sgd_mom_update(w0, g0, m0, nd.array([0.1]), nd.array([0.01]), momentum=0.5,
                                                  num_weights=1, out=w0))
show([w0, m0])
h0, h1 = w0.astype('float16'), w1.astype('float16')
w32_0, w32_1 = w0.copy(), w1.copy()
attempt(lambda: nd.multi_mp_sgd_mom_update(h0, g0.astype('float16'), m0, w32_0, h1, g1.astype('float16'), m1, w32_1,
                                           lrs=(0.1, 0.2), wds=(0.0, 0.5), momentum=0.9, num_weights=2, out=[h0, h1]))
show([h0, h1, m0, m1, w32_0, w32_1])
attempt(lambda: nd.multi_mp_sgd_update(h0, g0.astype('float16'), w32_0, lrs=(0.3,), wds=(0.1,), num_weights=1,
                                       rescale_grad=0.5, out=h0))
attempt(lambda: nd.preloaded_multi_mp_sgd_update(h0, g0.astype('float16'), w32_0, nd.array([0.5]), nd.array([0.1]),
                                                 num_weights=1, out=h0))
attempt(lambda: nd.preloaded_multi_mp_sgd_mom_update(h0, g0.astype('float16'), m0, w32_0, nd.array([0.5]),
                                                     nd.array([0.1]), momentum=0.9, num_weights=1, out=h0))
show([h0, m0, w32_0])
attempt(lambda: nd.multi_sgd_update(w0, g0, lrs=(0.1,), wds=(0.0,), clip_gradient=0.2, rescale_grad=2, out=w0))
attempt(lambda: nd.multi_sgd_update(w0, g0, w1, lrs=(0.1, 0.2), wds=(0.0, 0.5), num_weights=2, out=[w0, w1]))
attempt(lambda: nd.multi_sgd_update(w0, g0, lrs=(0.1, 0.2), wds=(0.0, 0.5), num_weights=1, out=w0))
print(sym.multi_sgd_update(sym.var('a'), sym.var('b'), lrs=(0.1,), wds=(0.,), num_weights=1, name='m').list_outputs())
# output names of operators with hidden outputs, attributes MXNet parses as parameters
d, e = sym.var('d'), sym.var('e')
print(sym.sort(d, name='s').list_outputs(), sym.CTCLoss(d, e, name='ctc').list_outputs(),
      sym.ctc_loss(d, e, name='ctc2').list_outputs())
attempt(lambda: sym.FullyConnected(d, num_hidden=2, attr={'note': 'x'}).list_attr())
attempt(lambda: sym.relu(d, attr={'note': 'x'}).list_attr())
attempt(lambda: sym.elemwise_add(d, e, attr={'note': 'x'}).list_attr())
with mx.AttrScope(group='g'):
    attempt(lambda: sym.var('z').list_attr())
    attempt(lambda: sym.Activation(d, act_type='relu').list_attr())
    attempt(lambda: sym.exp(d).list_attr())
fcs = sym.FullyConnected(d, num_hidden=2, name='fcs')
attempt(lambda: fcs._set_attr(extra='1'))
attempt(lambda: fcs._set_attr(__extra__='1'))
attempt(lambda: sym.exp(d, name='ex')._set_attr(extra='1'))
attempt(lambda: (d * 3)._set_attr(foo='bar'))
# LARS learning rates from squared norms
lrs, wsq, gsq = nd.array([0.1, 0.2, 0.3, 0.4]), nd.array([4., 0., 9., 1.]), nd.array([1., 1., 0., 16.])
wds = nd.array([0.01, 0.0, 0.1, 0.5])
attempt(lambda: nd.multi_lars(lrs, wsq, gsq, wds, eta=0.5, eps=1e-3))
attempt(lambda: nd.multi_lars(lrs, wsq, gsq, wds, eta=0.5, eps=1e-3, rescale_grad=0.5))
attempt(lambda: nd.multi_lars(lrs, wsq, gsq, wds, eta=0.5))
attempt(lambda: nd.multi_lars(lrs, wsq, gsq[:2], wds, eta=0.5, eps=0.0))
attempt(lambda: nd.multi_lars(lrs, nd.multi_sum_sq(nd.ones((2, 2)), nd.ones(3), nd.zeros(1), nd.ones(1), num_arrays=4),
                              nd.multi_sum_sq(nd.ones((2, 2)), nd.ones(3), nd.ones(1), nd.zeros(1), num_arrays=4) * 4,
                              wds, eta=1.0, eps=0.0))
