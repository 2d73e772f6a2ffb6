"""Reference outputs and gradients of MXNet 1.9.1's neural-network operators -> nn_ref.npz.

Run with the reference MXNet (CPU):  /tmp/mxref/bin/python tests/data/mxnet_ref/make_nn_data.py
Each case runs ``mx.nd.<op>(*inputs, **kwargs)`` under ``autograd.record()`` (training mode
when ``train``), backward with fixed random head gradients, and stores the inputs, the
visible outputs, the gradients of the inputs listed in ``grad`` and, for BatchNorm, the
moving statistics after backward (MXNet updates them there). tests/test_ops_nn_ref.py
replays every case on gluonjax.
"""
import json
import os
import subprocess
import sys

import mxnet as mx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.RandomState(1234)


def randn(*shape, dtype='float32', scale=1.0):
    return (rng.randn(*shape) * scale).astype(dtype)


def labels(n_class, *shape):
    return rng.randint(0, n_class, size=shape).astype('float32')


CASES = []


def case(name, op, inputs, kwargs=None, grad=None, train=True, aux=(), rtol=1e-4, atol=1e-5, skip_outputs=()):
    """``grad``: indices of the inputs whose gradients are compared (default: all inputs but aux);
    ``skip_outputs``: outputs whose values MXNet leaves undefined."""
    if grad is None:
        grad = [i for i in range(len(inputs)) if i not in aux]
    CASES.append(dict(name=name, op=op, inputs=inputs, kwargs=kwargs or {}, grad=list(grad), train=train,
                      aux=list(aux), rtol=rtol, atol=atol, skip_outputs=list(skip_outputs)))


# ---- FullyConnected ----------------------------------------------------------------------------
case('fc', 'FullyConnected', [randn(3, 2, 4), randn(5, 8), randn(5)], dict(num_hidden=5))
case('fc_noflatten', 'FullyConnected', [randn(3, 2, 4), randn(5, 4)], dict(num_hidden=5, no_bias=True,
                                                                              flatten=False))
# ---- Convolution ---------------------------------------------------------------------------------
case('conv1d', 'Convolution', [randn(2, 3, 9), randn(4, 3, 3), randn(4)],
     dict(kernel=(3,), num_filter=4, stride=(2,), pad=(1,)))
case('conv2d', 'Convolution', [randn(2, 3, 7, 6), randn(4, 3, 3, 2), randn(4)],
     dict(kernel=(3, 2), num_filter=4, pad=(1, 0)))
case('conv2d_group_dilate', 'Convolution', [randn(2, 4, 9, 8), randn(6, 2, 3, 3)],
     dict(kernel=(3, 3), num_filter=6, num_group=2, dilate=(2, 1), stride=(1, 2), pad=(2, 1), no_bias=True))
case('conv2d_f64', 'Convolution', [randn(1, 2, 5, 5, dtype='float64'), randn(3, 2, 3, 3, dtype='float64'),
                                   randn(3, dtype='float64')], dict(kernel=(3, 3), num_filter=3), rtol=1e-10)
case('conv3d', 'Convolution', [randn(1, 2, 5, 4, 5), randn(3, 2, 2, 2, 3), randn(3)],
     dict(kernel=(2, 2, 3), num_filter=3, stride=(2, 1, 1), pad=(0, 1, 1)))
# ---- Deconvolution -------------------------------------------------------------------------------
case('deconv2d', 'Deconvolution', [randn(2, 3, 4, 5), randn(3, 2, 3, 3)],
     dict(kernel=(3, 3), num_filter=2, stride=(2, 2), pad=(1, 1), adj=(1, 0)))
case('deconv2d_bias_group', 'Deconvolution', [randn(1, 4, 3, 3), randn(4, 3, 2, 3), randn(6)],
     dict(kernel=(2, 3), num_filter=6, num_group=2, stride=(2, 1), no_bias=False))
# Dilated deconvolution: oneDNN refuses it and MXNet's plain kernel disagrees with the gradient of
# a dilated convolution, so tests/test_ops_nn.py checks it against jax.vjp instead.
case('deconv2d_target', 'Deconvolution', [randn(1, 2, 4, 4), randn(2, 3, 3, 3)],
     dict(kernel=(3, 3), num_filter=3, stride=(2, 2), target_shape=(8, 9)))
case('deconv1d', 'Deconvolution', [randn(2, 2, 5), randn(2, 3, 4)], dict(kernel=(4,), num_filter=3, stride=(3,)))
# ---- Pooling -------------------------------------------------------------------------------------
X = randn(2, 2, 7, 6)
case('pool_max', 'Pooling', [X], dict(kernel=(2, 2), stride=(2, 2)))
case('pool_max_full_pad', 'Pooling', [X], dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                               pooling_convention='full'))
case('pool_avg_full', 'Pooling', [X], dict(kernel=(3, 2), stride=(2, 2), pad=(1, 1), pool_type='avg',
                                           pooling_convention='full'))
case('pool_avg_nopad', 'Pooling', [X], dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='avg',
                                            count_include_pad=False))
case('pool_sum', 'Pooling', [X], dict(kernel=(2, 3), stride=(1, 2), pool_type='sum'))
case('pool_lp2', 'Pooling', [X], dict(kernel=(2, 2), stride=(2, 2), pool_type='lp', p_value=2))
case('pool_lp3', 'Pooling', [X], dict(kernel=(2, 2), stride=(2, 2), pool_type='lp', p_value=3), grad=[])
case('pool_global_avg', 'Pooling', [X], dict(kernel=(1, 1), global_pool=True, pool_type='avg'))
case('pool_global_max', 'Pooling', [X], dict(kernel=(1, 1), global_pool=True))
case('pool1d_avg', 'Pooling', [randn(2, 3, 9)], dict(kernel=(3,), stride=(2,), pool_type='avg'))
case('pool3d_max', 'Pooling', [randn(1, 2, 4, 5, 4)], dict(kernel=(2, 2, 2), stride=(2, 2, 2),
                                                           pooling_convention='full'))
# ---- normalisation -------------------------------------------------------------------------------
C = 3
bn_in = [randn(4, C, 3, 2), randn(C) + 1, randn(C), randn(C, scale=0.1), (rng.rand(C) + 0.5).astype('float32')]
case('bn_train', 'BatchNorm', [a.copy() for a in bn_in], dict(fix_gamma=False, output_mean_var=True),
     aux=(3, 4))
case('bn_train_fixgamma', 'BatchNorm', [a.copy() for a in bn_in], dict(momentum=0.8), aux=(3, 4))
case('bn_predict', 'BatchNorm', [a.copy() for a in bn_in], dict(fix_gamma=False, output_mean_var=True),
     aux=(3, 4), train=False)
case('bn_global_stats', 'BatchNorm', [a.copy() for a in bn_in], dict(fix_gamma=False, use_global_stats=True),
     aux=(3, 4))
case('bn_axis_last', 'BatchNorm', [randn(5, 2, C), randn(C), randn(C), np.zeros(C, 'float32'),
                                   np.ones(C, 'float32')], dict(axis=-1, fix_gamma=False, eps=1e-4), aux=(3, 4))
case('layernorm', 'LayerNorm', [randn(2, 3, 5), randn(5), randn(5)], dict(output_mean_var=True))
case('layernorm_axis1', 'LayerNorm', [randn(2, 3, 5), randn(3), randn(3)], dict(axis=1, eps=1e-3))
case('instancenorm', 'InstanceNorm', [randn(2, 3, 4, 2), randn(3), randn(3)], dict(eps=1e-3))
case('groupnorm', 'GroupNorm', [randn(2, 4, 3, 2), randn(2), randn(2)], dict(num_groups=2,
                                                                              output_mean_var=True))
for mode in ('instance', 'channel', 'spatial'):
    case('l2norm_' + mode, 'L2Normalization', [randn(2, 3, 4)], dict(mode=mode))
case('lrn', 'LRN', [randn(2, 5, 3, 2)], dict(nsize=3, alpha=0.01, beta=0.6, knorm=1.5))
# ---- activations ---------------------------------------------------------------------------------
A = randn(3, 4, 2)
for act in ('relu', 'sigmoid', 'tanh', 'softrelu', 'softsign'):
    case('act_' + act, 'Activation', [A], dict(act_type=act))
for act in ('leaky', 'elu', 'selu', 'gelu'):
    case('leaky_' + act, 'LeakyReLU', [A], dict(act_type=act, slope=0.3))
case('leaky_prelu', 'LeakyReLU', [A, randn(4)], dict(act_type='prelu'))
case('leaky_rrelu_predict', 'LeakyReLU', [A], dict(act_type='rrelu'), train=False, grad=[], skip_outputs=[1])
S = randn(3, 5)
case('softmax', 'softmax', [S], dict(axis=0, temperature=2.0))
case('softmax_len', 'softmax', [S, np.array([2, 5, 1], 'int32')], dict(use_length=True), grad=[0])
case('log_softmax', 'log_softmax', [S], dict(temperature=0.5))
case('softmin', 'softmin', [S], {})
case('softmax_act_channel', 'SoftmaxActivation', [randn(2, 3, 2)], dict(mode='channel'))
case('softmax_act_instance', 'SoftmaxActivation', [randn(3, 4)], {})
case('softmax_act_instance_3d', 'SoftmaxActivation', [randn(2, 3, 2)], {})
# ---- embedding -----------------------------------------------------------------------------------
case('embedding', 'Embedding', [np.array([[0, 2.7, 4], [-1, 1, 9]], 'float32'), randn(5, 3)],
     dict(input_dim=5, output_dim=3), grad=[1])
# ---- output layers -------------------------------------------------------------------------------
L = labels(4, 3)
L[1] = 2
for nm, kw in [('default', {}), ('batch', dict(normalization='batch')), ('scale', dict(grad_scale=2.5)),
               ('ignore_valid', dict(use_ignore=True, ignore_label=2, normalization='valid')),
               ('ignore_null', dict(use_ignore=True, ignore_label=2)),
               ('smooth', dict(smooth_alpha=0.2)), ('smooth_batch', dict(smooth_alpha=0.1, normalization='batch'))]:
    case('softmax_output_' + nm, 'SoftmaxOutput', [randn(3, 4), L.copy()], kw, grad=[0])
case('softmax_output_multi', 'SoftmaxOutput', [randn(2, 3, 5), labels(3, 2, 5)], dict(multi_output=True),
     grad=[0])
case('softmax_output_multi_4d', 'SoftmaxOutput', [randn(2, 3, 2, 3), labels(3, 2, 2, 3)],
     dict(multi_output=True, normalization='batch'), grad=[0])
ML = labels(3, 2, 5)
ML[0, :2] = 0
case('softmax_output_multi_valid', 'SoftmaxOutput', [randn(2, 3, 5), ML],
     dict(multi_output=True, use_ignore=True, ignore_label=0, normalization='valid'), grad=[0])
case('softmax_output_preserve', 'SoftmaxOutput', [randn(2, 3, 4), labels(4, 2, 3)],
     dict(preserve_shape=True, normalization='batch'), grad=[0])
for op in ('LinearRegressionOutput', 'LogisticRegressionOutput', 'MAERegressionOutput'):
    case(op, op, [randn(3, 2), rng.rand(3, 2).astype('float32')], dict(grad_scale=3.0), grad=[0])
    case(op + '_col', op, [randn(4, 1), rng.rand(4).astype('float32')], {}, grad=[0])
case('svm_l2', 'SVMOutput', [randn(3, 4), labels(4, 3)], dict(margin=0.5, regularization_coefficient=1.5),
     grad=[0])
case('svm_l1', 'SVMOutput', [randn(3, 4), labels(4, 3)], dict(use_linear=True), grad=[0])
case('softmax_cross_entropy', 'softmax_cross_entropy', [randn(3, 4), labels(4, 3)], {}, grad=[0])


# ---- RNN -----------------------------------------------------------------------------------------
def rnn_size(mode, ni, h, layers, dirs):
    g = {'rnn_relu': 1, 'rnn_tanh': 1, 'lstm': 4, 'gru': 3}[mode]
    size = 0
    for _ in range(layers):
        size += dirs * (g * h * (ni + h) + 2 * g * h)
        ni = h * dirs
    return size


T, N, I, H = 4, 2, 3, 5
for mode, layers, dirs in (('rnn_relu', 1, 1), ('rnn_tanh', 2, 2), ('lstm', 1, 1), ('lstm', 2, 2), ('gru', 2, 2)):
    ins = [randn(T, N, I), randn(rnn_size(mode, I, H, layers, dirs), scale=0.4), randn(layers * dirs, N, H, scale=0.5)]
    if mode == 'lstm':
        ins.append(randn(layers * dirs, N, H, scale=0.5))
    case('rnn_%s_%dx%d' % (mode, layers, dirs), 'RNN', ins,
         dict(state_size=H, num_layers=layers, bidirectional=dirs == 2, mode=mode, state_outputs=True))


def run(c):
    arrays = [mx.nd.array(a, dtype=a.dtype) for a in c['inputs']]
    for i in c['grad']:
        arrays[i].attach_grad()
    with mx.autograd.record(train_mode=c['train']):
        out = getattr(mx.nd, c['op'])(*arrays, **c['kwargs'])
        outs = out if isinstance(out, (list, tuple)) else [out]
        heads = [mx.nd.array(rng.randn(*o.shape), dtype=o.dtype) for o in outs]
    if c['grad']:
        mx.autograd.backward(outs, heads)
    res = {'out%d' % k: o.asnumpy() for k, o in enumerate(outs)}
    res.update({'head%d' % k: h.asnumpy() for k, h in enumerate(heads)})
    res.update({'grad%d' % i: arrays[i].grad.asnumpy() for i in c['grad']})
    res.update({'aux%d' % i: arrays[i].asnumpy() for i in c['aux']})
    return res


def collect(cases):
    data, meta = {}, []
    for c in cases:
        res = run(c)
        for k, a in enumerate(c['inputs']):
            data['%s/in%d' % (c['name'], k)] = a
        for k, v in res.items():
            data['%s/%s' % (c['name'], k)] = v
        meta.append({k: c[k] for k in ('name', 'op', 'kwargs', 'grad', 'train', 'aux', 'rtol', 'atol',
                                          'skip_outputs')})
        meta[-1]['n_inputs'] = len(c['inputs'])
        meta[-1]['n_outputs'] = sum(1 for k in res if k.startswith('out'))
    return data, meta


PART = os.path.join(HERE, 'nn_ref_part.npz')


def main():
    """oneDNN (MXNet's default CPU kernels) lacks some deconvolutions and the plain kernels'
    RNN is broken, so every case but RNN runs in a child process with oneDNN off."""
    if os.environ.get('MXNET_MKLDNN_ENABLED') == '0':
        data, meta = collect([c for c in CASES if c['op'] != 'RNN'])
        data['__meta__'] = np.array(json.dumps(meta))
        np.savez(PART, **data)
        return
    subprocess.run([sys.executable, os.path.abspath(__file__)], check=True,
                   env=dict(os.environ, MXNET_MKLDNN_ENABLED='0'))
    with np.load(PART) as part:
        data = {k: part[k] for k in part.files}
    os.remove(PART)
    meta = json.loads(str(data.pop('__meta__')))
    more, more_meta = collect([c for c in CASES if c['op'] == 'RNN'])
    data.update(more)
    meta += more_meta
    data['__meta__'] = np.array(json.dumps(meta))
    np.savez_compressed(os.path.join(HERE, 'nn_ref.npz'), **data)
    print('wrote %d cases' % len(meta))


if __name__ == '__main__':
    main()
