"""gluon.contrib.nn layers, SyncBatchNorm's refusal to train across devices, and the error for
unused Parameters of a hybridized Block that still needs deferred initialisation."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.base import MXNetError
from gluonjax.gluon import nn
from gluonjax.gluon.contrib import nn as cnn


def _pixel_shuffle_ref(x, factors):
    """numpy: out[n, c, d*f + i, ...] = x[n, c*prod(f) + flat(i, ...), d, ...]."""
    n, cf = x.shape[:2]
    k = len(factors)
    c = cf // int(np.prod(factors))
    spatial = x.shape[2:]
    y = x.reshape((n, c) + tuple(factors) + spatial)
    order = [0, 1] + [a for i in range(k) for a in (2 + k + i, 2 + i)]
    y = y.transpose(order)
    return y.reshape((n, c) + tuple(s * f for s, f in zip(spatial, factors)))


@pytest.mark.parametrize('layer,factors,shape', [
    (cnn.PixelShuffle1D(3), (3,), (2, 6, 4)),
    (cnn.PixelShuffle2D((2, 3)), (2, 3), (2, 12, 2, 3)),
    (cnn.PixelShuffle3D((2, 1, 3)), (2, 1, 3), (1, 12, 2, 3, 2)),
])
@pytest.mark.parametrize('hybridize', [False, True])
def test_pixel_shuffle_matches_numpy(layer, factors, shape, hybridize):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    if hybridize:
        layer.hybridize()
    out = layer(nd.array(x))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.asnumpy(), _pixel_shuffle_ref(x, factors))


def test_pixel_shuffle_factor_length_checked():
    with pytest.raises(AssertionError, match='wrong length 3'):
        cnn.PixelShuffle2D((2, 2, 2))


def test_hybrid_concurrent_concatenates_children_on_axis():
    net = cnn.HybridConcurrent(axis=1)
    with net.name_scope():
        net.add(nn.Dense(3, in_units=4), cnn.Identity())
    net.initialize(mx.init.One())
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    expect = np.concatenate([x.sum(1, keepdims=True).repeat(3, 1), x], axis=1)
    np.testing.assert_allclose(net(nd.array(x)).asnumpy(), expect)
    net.hybridize()
    np.testing.assert_allclose(net(nd.array(x)).asnumpy(), expect)
    assert net.prefix.startswith('hybridconcurrent') and net[1].name == net.prefix + 'identity0'


def test_concurrent_imperative_default_last_axis():
    net = cnn.Concurrent()
    net.add(cnn.Identity(), nn.Lambda(lambda x: x * 2))
    x = nd.array([[1., 2.]])
    np.testing.assert_array_equal(net(x).asnumpy(), [[1, 2, 2, 4]])


def test_sparse_embedding_dense_semantics():
    emb = cnn.SparseEmbedding(5, 2)
    assert repr(emb) == 'SparseEmbedding(5 -> 2, float32)'
    emb.initialize()
    idx = np.array([[0, 4], [2, 2]])
    with pytest.raises(RuntimeError, match='no Trainer'):
        emb(nd.array(idx))
    trainer = mx.gluon.Trainer(emb.collect_params(), 'sgd', {'learning_rate': 1.0})
    w = emb.weight.row_sparse_data(nd.arange(5)).asnumpy()
    with autograd.record():
        out = emb(nd.array(idx))
    np.testing.assert_array_equal(out.asnumpy(), w[idx])
    out.backward()
    assert emb.weight.stype == 'row_sparse' and emb.weight.grad().stype == 'row_sparse'
    trainer.step(1)  # the rows looked up move by -1 per lookup
    counts = np.bincount(idx.ravel(), minlength=5)[:, None]
    np.testing.assert_allclose(emb.weight.row_sparse_data(nd.arange(5)).asnumpy(), w - counts,
                               rtol=1e-6)


def _ref_bn(x, gamma, beta, eps):
    mean = x.mean(axis=(0, 2, 3), keepdims=True)
    var = x.var(axis=(0, 2, 3), keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma.reshape(1, -1, 1, 1) + beta.reshape(1, -1, 1, 1)


@pytest.mark.parametrize('hybridize', [False, True])
def test_sync_batch_norm_one_device_is_batch_norm(hybridize):
    bn = cnn.SyncBatchNorm(num_devices=1, epsilon=1e-3)
    assert repr(bn).startswith('SyncBatchNorm(eps=0.001, momentum=0.9, fix_gamma=False, '
                               'use_global_stats=False, ndev=1, key=')
    bn.initialize()
    bn.beta.set_data(nd.array([0.5, -1.0]))
    if hybridize:
        bn.hybridize()
    x = np.random.RandomState(0).rand(3, 2, 2, 2).astype(np.float32)
    with autograd.record():
        y = bn(nd.array(x))
    y.backward()
    np.testing.assert_allclose(y.asnumpy(), _ref_bn(x, np.ones(2), np.array([0.5, -1.0]), 1e-3),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(bn.running_mean.data().asnumpy(),
                               0.1 * x.mean(axis=(0, 2, 3)), rtol=1e-5)
    assert sorted(p.split('_', 1)[1] for p in bn.collect_params()) == [
        'beta', 'gamma', 'running_mean', 'running_var']


@pytest.mark.parametrize('hybridize', [False, True])
def test_sync_batch_norm_refuses_to_train_across_devices(hybridize):
    bn = cnn.SyncBatchNorm(num_devices=2)
    bn.initialize()
    if hybridize:
        bn.hybridize()
    x = nd.ones((2, 3, 2, 2))
    assert bn(x).shape == (2, 3, 2, 2)  # inference needs no synchronisation
    with autograd.record():
        with pytest.raises(MXNetError, match='cross-device synchronised batch normalisation.*BatchNorm'):
            bn(x)


def test_sync_batch_norm_default_devices_warns():
    with pytest.warns(UserWarning, match='num_devices'):
        bn = cnn.SyncBatchNorm()
    assert bn._kwargs['ndev'] >= 1


class _WithUnused(mx.gluon.HybridBlock):
    def __init__(self, used_in_units=0, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.fc = nn.Dense(3, in_units=used_in_units)
            self.unused = nn.Dense(5)

    def hybrid_forward(self, F, x):
        return self.fc(x)


def test_hybridized_unused_parameter_fails_deferred_init():
    net = _WithUnused()
    net.initialize()
    net.hybridize()
    with pytest.warns(UserWarning, match='not used'):
        with pytest.raises(ValueError, match="shape cannot be inferred. '%sdense1_weight'" % net.prefix):
            net(nd.ones((2, 4)))


def test_hybridized_unused_parameter_without_deferred_only_warns():
    net = _WithUnused(used_in_units=4)
    net.initialize()
    net.hybridize()
    with pytest.warns(UserWarning, match='dense1_weight, .*dense1_bias is not used'):
        assert net(nd.ones((2, 4))).shape == (2, 3)


def test_interval_sampler_walks_every_interval_then_rolls_over():
    from gluonjax.gluon.contrib.data import IntervalSampler
    # Orders recorded from MXNet 1.9.1.
    assert list(IntervalSampler(10, 3)) == [0, 3, 6, 9, 1, 4, 7, 2, 5, 8]
    assert list(IntervalSampler(7, 2)) == [0, 2, 4, 6, 1, 3, 5]
    no_rollover = IntervalSampler(10, 3, rollover=False)
    assert list(no_rollover) == [0, 3, 6, 9] and len(no_rollover) == 4
    assert len(IntervalSampler(10, 3)) == 10
    with pytest.raises(AssertionError, match='Interval 5 must be smaller than or equal to length 3'):
        IntervalSampler(3, 5)


def test_sync_batch_norm_gives_the_batch_variance_as_its_third_output():
    """MXNet's SyncBatchNorm outputs (out, mean, variance), where BatchNorm's third is the inverse
    standard deviation (values from MXNet 1.9.1: the batch's biased variance in training)."""
    x = np.random.RandomState(0).rand(4, 3).astype('float32')
    with mx.autograd.record():
        _, mean, var = mx.nd.contrib.SyncBatchNorm(mx.nd.array(x), mx.nd.ones(3), mx.nd.zeros(3), mx.nd.zeros(3),
                                                   mx.nd.ones(3), output_mean_var=True, eps=1e-5,
                                                   fix_gamma=False, key='sync_test')
    np.testing.assert_allclose(mean.asnumpy(), x.mean(axis=0), rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), x.var(axis=0), rtol=1e-4)
    _, _, inv = mx.nd.BatchNorm(mx.nd.array(x), mx.nd.ones(3), mx.nd.zeros(3), mx.nd.zeros(3), mx.nd.ones(3),
                                output_mean_var=True, eps=1e-5, fix_gamma=False)
    np.testing.assert_allclose(inv.asnumpy(), [1 / np.sqrt(v + 1e-5) for v in [1.0] * 3], rtol=1e-5)
