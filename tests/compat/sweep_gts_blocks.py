"""GluonTS 0.16.2's MXNet building blocks on fixed inputs and weights, eager and hybridized: scalers, feature
embedders and assemblers, MLP, causal convolutions, the RNN block and encoders, quantile loss and output,
activation regularisation, GP kernels, and the helpers of gluonts.mx.util and linalg_util."""
import warnings

import numpy as np
import mxnet as mx
from gluonts.mx import linalg_util, util
from gluonts.mx.block import cnn, encoder, feature, mlp, quantile_output, regularization, rnn, scaler
from gluonts.mx.kernels import PeriodicKernel, RBFKernel

warnings.simplefilter('ignore')


def ramp(shape):
    n = int(np.prod(shape))
    fan = shape[-1] if len(shape) > 1 else n
    return (((np.arange(n) * 5 % 11) - 5) / (5.0 * np.sqrt(fan))).reshape(shape)


def r(x, n=4):
    if isinstance(x, (list, tuple)):
        return [r(v, n) for v in x]
    if isinstance(x, mx.nd.NDArray):
        x = x.asnumpy()
    return (np.round(np.asarray(x, dtype=np.float64), n) + 0.0).tolist()


def attempt(label, f):
    try:
        print(label, r(f()))
    except Exception as e:
        print(label, type(e).__name__)


def fixed(block, *inputs):
    """Initializes ``block``, runs it once, sets every parameter to fixed values, returns (eager, hybridized)."""
    block.initialize()
    block(*inputs)
    for name, p in sorted(block.collect_params().items()):
        if p.grad_req != 'null':
            p.set_data(mx.nd.zeros(p.shape) if name.endswith(('bias', 'beta')) else mx.nd.array(ramp(p.shape)))
    eager = block(*inputs)
    block.hybridize()
    hybrid = block(*inputs)
    return eager, hybrid


def same(a, b):
    if isinstance(a, (list, tuple)):
        return all(same(x, y) for x, y in zip(a, b))
    return bool(np.allclose(a.asnumpy(), b.asnumpy(), atol=1e-5))


def shapes(x):
    return [shapes(v) for v in x] if isinstance(x, (list, tuple)) else x.shape


X = mx.nd.array(np.abs(np.sin(np.arange(2 * 6 * 3) * 0.7)).reshape(2, 6, 3) * 4)
OBS = mx.nd.array((np.arange(2 * 6 * 3).reshape(2, 6, 3) % 5 != 0).astype('float32'))

print('== scalers')
for name, block in [('MeanScaler', scaler.MeanScaler()), ('MeanScaler keepdims', scaler.MeanScaler(keepdims=True)),
                    ('MeanScaler default_scale', scaler.MeanScaler(default_scale=2.0)),
                    ('MinMax', scaler.MinMax()), ('NOPScaler', scaler.NOPScaler())]:
    if name != 'MinMax':  # its compute_scale calls nd.prod: not hybridizable
        block.hybridize()
    scaled, scale = block(X, OBS)
    print(name, scaled.shape, scale.shape, r(scale), r(scaled[0, :2]))
zeros = mx.nd.zeros((2, 4, 1))
print(r(scaler.MeanScaler()(zeros, mx.nd.ones_like(zeros))[1]), r(scaler.MeanScaler(minimum_scale=0.5)(zeros, zeros)[1]))

print('== FeatureEmbedder / FeatureAssembler')
emb = feature.FeatureEmbedder(cardinalities=[3, 5], embedding_dims=[2, 3])
cats = mx.nd.array([[0, 4], [2, 1]])
e, h = fixed(emb, cats)
print(e.shape, same(e, h), r(e))
print(sorted(k.split('_', 1)[1] for k in emb.collect_params()))
emb3 = feature.FeatureEmbedder(cardinalities=[3], embedding_dims=[2])
e, h = fixed(emb3, mx.nd.array([[[0], [2], [1]]]))
print(e.shape, r(e))
asm = feature.FeatureAssembler(T=6, use_static_cat=True, use_dynamic_real=True,
                               embed_static=feature.FeatureEmbedder(cardinalities=[3, 5], embedding_dims=[2, 3]))
args = (cats, mx.nd.zeros((2, 1)), mx.nd.zeros((2, 6, 1)), mx.nd.array(ramp((2, 6, 2))))  # unused inputs: any shape
e, h = fixed(asm, *args)
print(e.shape, same(e, h), r(e[0, :2]))

print('== MLP')
net = mlp.MLP(layer_sizes=[5, 3], flatten=False)
e, h = fixed(net, X)
print(e.shape, same(e, h), r(e[0]))

print('== causal convolutions')
x = mx.nd.array(ramp((2, 3, 8)) * 3)
for name, block in [('CausalConv1D', cnn.CausalConv1D(channels=4, kernel_size=3, dilation=2, activation='relu')),
                    ('CausalConv1D k1', cnn.CausalConv1D(channels=2, kernel_size=1)),
                    ('DilatedCausalGated', cnn.DilatedCausalGated(inner_channels=3, out_channels=4, kernel_size=2,
                                                                  dilation=2))]:
    e, h = fixed(block, x)
    print(name, e.shape, same(e, h), r(e[0, :, -3:]))
res = cnn.ResidualSequential()
res.add(cnn.CausalConv1D(channels=3, kernel_size=2))
res.add(cnn.CausalConv1D(channels=3, kernel_size=2, dilation=2))
e, h = fixed(res, x)
print('ResidualSequential', e.shape, same(e, h), r(e[1, :, :3]))

print('== RNN and encoders')
for mode in ('lstm', 'gru'):
    block = rnn.RNN(mode=mode, num_hidden=4, num_layers=2, bidirectional=mode == 'gru')
    e, h = fixed(block, X)
    print(mode, e.shape, same(e, h), r(e[0, -1]))
    print(sorted(k.split('_', 1)[1] for k in block.collect_params())[:4])
static, dynamic = mx.nd.array([[1., 0.], [0., 1.]]), mx.nd.array(ramp((2, 6, 2)))
target = X.slice_axis(axis=2, begin=0, end=1)  # (batch, time, 1)
enc = encoder.HierarchicalCausalConv1DEncoder(dilation_seq=[1, 2], kernel_size_seq=[2, 2], channels_seq=[3, 3],
                                              use_residual=True, use_static_feat=True, use_dynamic_feat=True)
e, h = fixed(enc, target, static, dynamic)
print('HierarchicalCausalConv1DEncoder', shapes(e), same(e, h), r(e[1][0, -1]))
enc = encoder.RNNEncoder(mode='gru', hidden_size=3, num_layers=1, bidirectional=False, use_static_feat=True,
                         use_dynamic_feat=True)
e, h = fixed(enc, target, static, dynamic)
print('RNNEncoder', shapes(e), same(e, h), r(e[1][0, -1]))
enc = encoder.MLPEncoder(layer_sizes=[4])
e, h = fixed(enc, target, static, dynamic)
print('MLPEncoder', shapes(e), same(e, h), r(e[0][0]))

print('== quantile loss and outputs')
levels = [0.1, 0.5, 0.9]
y = mx.nd.array([[1., 2., 3.], [0., -1., 4.]])
pred = mx.nd.array(np.stack([np.array([[0.5, 2.5, 2.], [0., 0., 3.]]) + d for d in (-1, 0, 1)], axis=-1))
for kw in ({}, {'quantile_weights': [0.2, 0.6, 0.2]}):
    loss = quantile_output.QuantileLoss(quantiles=levels, **kw)
    print(r(loss(y, pred)), r(loss(y, pred, mx.nd.array([[1., 0., 1.], [1., 1., 0.]]))))
    loss.hybridize()
    print(r(loss(y, pred)))
print(r(quantile_output.uniform_weights([1, 2, 3, 4])), r(quantile_output.crps_weights_pwl(levels)))
out = quantile_output.QuantileOutput(quantiles=levels)
proj = out.get_quantile_proj()
e, h = fixed(proj, X)
print(type(proj).__name__, e.shape, same(e, h), r(e[0, 0]))
print(type(out.get_loss()).__name__)
iqo = quantile_output.IncrementalQuantileOutput(quantiles=levels)
proj = iqo.get_quantile_proj()
e, h = fixed(proj, X.reshape((2, 6, 1, 3)))  # (batch, time, forks, units), as MQCNN's decoder gives
print(type(proj).__name__, e.shape, same(e, h), r(e[0, 0]))
print(type(iqo.get_loss()).__name__, r(iqo.get_loss()(y, pred)))

print('== activation regularisation')
states = mx.nd.array(ramp((4, 2, 3)))  # time, batch, units
for loss in (regularization.ActivationRegularizationLoss(alpha=0.5),
             regularization.TemporalActivationRegularizationLoss(beta=0.5)):
    print(type(loss).__name__, r(loss(states)), r(loss(states, states * 2)))

print('== kernels')
x1 = mx.nd.array([[[0.], [1.], [2.]]])
x2 = mx.nd.array([[[0.5], [3.]]])
rbf = RBFKernel(amplitude=mx.nd.array([[[2.]]]), length_scale=mx.nd.array([[[1.5]]]), F=mx.nd)
print(r(rbf.kernel_matrix(x1, x2)), r(rbf.kernel_matrix(x1, x1)))
per = PeriodicKernel(amplitude=mx.nd.array([[[1.]]]), length_scale=mx.nd.array([[[0.8]]]),
                     frequency=mx.nd.array([[[0.3]]]), F=mx.nd)
print(r(per.kernel_matrix(x1, x2)))

print('== util and linalg_util')
a = mx.nd.array([[1., 2., 3.], [4., 5., 6.]])
for kw in ({}, {'exclusive': True}, {'reverse': True}, {'exclusive': True, 'reverse': True}):
    print(kw, r(util.cumsum(mx.nd, a, **kw)))
w = mx.nd.array([[1., 0., 1.], [0., 0., 0.]])
print(r(util.weighted_average(mx.nd, a, w, axis=1)), r(util.weighted_average(mx.nd, a, None, axis=1)))
print(r(util.weighted_average(mx.nd, a, w, axis=1, include_zeros_in_denominator=True)))
print(r(util.make_nd_diag(mx.nd, mx.nd.array([[1., 2.]]), 2)))
print(r(util.mx_switch(mx.nd, (mx.nd.array([1., 0., 0.]), mx.nd.array([1., 1., 1.])),
                       (mx.nd.array([0., 1., 0.]), mx.nd.array([2., 2., 2.])), mx.nd.array([3., 3., 3.]))))
print(r(linalg_util.lower_triangular_ones(mx.nd, 3)), r(linalg_util.lower_triangular_ones(mx.nd, 3, offset=1)))
m = mx.nd.array([[[4., 2.], [2., 3.]], [[1., 0.5], [0.5, 1.]]])
print(r(linalg_util.batch_diagonal(mx.nd, m, num_data_points=2)))
print(r(linalg_util.jitter_cholesky(mx.nd, m, num_data_points=2, float_type=np.float32)))
singular = mx.nd.array([[[1., 1.], [1., 1.]]])
chol = linalg_util.jitter_cholesky(mx.nd, singular, num_data_points=2, float_type=np.float32)
print(chol.shape, bool(np.isfinite(chol.asnumpy()).all()), r(chol, 2))
attempt('assert_shape', lambda: util.assert_shape(a, (2, 3)))
attempt('assert_shape bad', lambda: util.assert_shape(a, (3, 2)))
