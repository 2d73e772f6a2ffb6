"""Every gluon.nn layer: eager and hybridized outputs and gradients equal each other and equal
real MXNet 1.9's (tests/data/mxnet_ref/gluon/layers.params), plus numpy/JAX references."""
import ast
import os

import jax
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.gluon import nn  # noqa: F401  (used by the evaluated constructors)

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref')


def _layer_cases():
    """LAYER_CASES of make_gluon_data.py, read without importing MXNet."""
    tree = ast.parse(open(os.path.join(REF, 'make_gluon_data.py')).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == 'LAYER_CASES':
            return ast.literal_eval(node.value)
    raise AssertionError('LAYER_CASES not found')


CASES = _layer_cases()
_DATA = {}


def data():
    if not _DATA:
        _DATA.update(nd.load(os.path.join(REF, 'gluon', 'layers.params')))
    return _DATA


def _build(case):
    source, _, _ = CASES[case]
    layer = eval(source)  # noqa: S307 - the constant table above
    ref = data()
    for name, p in layer._collect_params_with_prefix().items():
        p._load_init(ref['%s:param:%s' % (case, name)], mx.cpu())
    return layer


def _run(layer, case):
    ref = data()
    x = ref[case + ':x'].copy()
    integer = CASES[case][2]
    if not integer:
        x.attach_grad()
    with autograd.record():
        y = layer(x)
    y.backward(ref[case + ':dy'])
    result = {'y': y.asnumpy()}
    if not integer:
        result['dx'] = x.grad.asnumpy()
    for name, p in layer._collect_params_with_prefix().items():
        if p.grad_req != 'null':
            result['grad:' + name] = p.grad().asnumpy()
        else:
            result['after:' + name] = p.data().asnumpy()
    result['y_pred'] = layer(x).asnumpy()
    return result


def _expected(case, keys):
    ref = data()
    want = {}
    for k in keys:
        want[k] = ref['%s:%s' % (case, k)].asnumpy()
    return want


@pytest.mark.parametrize('case', sorted(CASES))
def test_layer_eager_hybridized_and_mxnet_agree(case):
    eager = _run(_build(case), case)
    layer = _build(case)
    layer.hybridize()
    hybrid = _run(layer, case)
    want = _expected(case, eager.keys())
    assert eager.keys() == hybrid.keys()
    for k in eager:
        np.testing.assert_allclose(eager[k], hybrid[k], rtol=1e-5, atol=1e-6,
                                   err_msg='%s: eager vs hybridized %s' % (case, k))
        np.testing.assert_allclose(eager[k], want[k], rtol=2e-4, atol=2e-5,
                                   err_msg='%s: gluonjax vs MXNet %s' % (case, k))


# ---- independent references ------------------------------------------------------------------

def test_dense_against_numpy():
    layer = _build('dense_relu')
    x = data()['dense_relu:x'].asnumpy()
    w = layer.weight.data().asnumpy()
    b = layer.bias.data().asnumpy()
    want = np.maximum(x.reshape(x.shape[0], -1) @ w.T + b, 0)
    np.testing.assert_allclose(layer(nd.array(x)).asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_conv2d_against_plain_jax():
    layer = _build('conv2d')
    x = data()['conv2d:x'].asnumpy()
    w = layer.weight.data().asnumpy()
    b = layer.bias.data().asnumpy()
    out = jax.lax.conv_general_dilated(x, w, window_strides=(2, 1), padding=[(1, 1), (0, 0)],
                                       rhs_dilation=(1, 2), dimension_numbers=('NCHW', 'OIHW', 'NCHW'))
    want = np.tanh(np.asarray(out) + b.reshape(1, -1, 1, 1))
    np.testing.assert_allclose(layer(nd.array(x)).asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_batchnorm_against_numpy():
    layer = _build('batchnorm')
    x = data()['batchnorm:x'].asnumpy()
    gamma, beta = layer.gamma.data().asnumpy(), layer.beta.data().asnumpy()
    mean0, var0 = layer.running_mean.data().asnumpy(), layer.running_var.data().asnumpy()
    with autograd.record():
        y = layer(nd.array(x))
    y.backward()  # MXNet updates the running statistics in backward
    mean = x.mean(axis=(0, 2, 3))
    var = x.var(axis=(0, 2, 3))
    shape = (1, -1, 1, 1)
    want = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + 1e-5) * gamma.reshape(shape) \
        + beta.reshape(shape)
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(layer.running_mean.data().asnumpy(), 0.9 * mean0 + 0.1 * mean, rtol=1e-5)
    # MXNet 1.x moves the running variance towards the biased batch variance
    np.testing.assert_allclose(layer.running_var.data().asnumpy(), 0.9 * var0 + 0.1 * var, rtol=1e-4)


def test_deferred_shapes_are_inferred_eager_and_hybridized():
    for hybrid in (False, True):
        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Conv2D(4, 3), nn.BatchNorm(), nn.Flatten(), nn.Dense(3), nn.LayerNorm())
        net.initialize()
        if hybrid:
            net.hybridize()
        assert net[0].weight.shape == (4, 0, 3, 3)
        y = net(nd.ones((2, 5, 6, 6)))
        assert y.shape == (2, 3)
        assert net[0].weight.shape == (4, 5, 3, 3)
        assert net[1].gamma.shape == (4,)
        assert net[3].weight.shape == (3, 4 * 4 * 4)
        assert net[4].gamma.shape == (3,)
        assert repr(net[3]) == 'Dense(64 -> 3, linear)'


def test_dropout_training_and_prediction():
    x = nd.ones((200, 50))
    for hybrid in (False, True):
        layer = nn.Dropout(0.4)
        if hybrid:
            layer.hybridize()
        assert (layer(x).asnumpy() == 1).all()              # prediction mode: identity
        with autograd.record():
            y = layer(x).asnumpy()
        kept = y != 0
        np.testing.assert_allclose(y[kept], 1 / 0.6, rtol=1e-6)
        assert abs(kept.mean() - 0.6) < 0.03
        shared = nn.Dropout(0.5, axes=(1,))
        if hybrid:
            shared.hybridize()
        with autograd.record():
            z = shared(x).asnumpy()
        assert all(len(set(row)) == 1 for row in z)          # one mask value per row
    assert (nn.Dropout(0)(x).asnumpy() == 1).all()


def test_embedding_gradient_rows():
    layer = _build('embedding')
    idx = nd.array([[1, 1, 3]])
    with autograd.record():
        y = layer(idx)
    y.backward()
    g = layer.weight.grad().asnumpy()
    assert (g[1] == 2).all() and (g[3] == 1).all() and (g[0] == 0).all()


def test_lambda_blocks():
    x = nd.array([[-1.0, 2.0]])
    np.testing.assert_allclose(nn.Lambda('tanh')(x).asnumpy(), np.tanh([[-1.0, 2.0]]), rtol=1e-6)
    np.testing.assert_allclose(nn.Lambda(lambda v: v * 2)(x).asnumpy(), [[-2, 4]])
    hl = nn.HybridLambda(lambda F, v: F.relu(v) + 1)
    hl.hybridize()
    np.testing.assert_allclose(hl(x).asnumpy(), [[1, 3]])
    with pytest.raises(AssertionError, match='not found'):  # MXNet's exception type
        nn.Lambda('no_such_function')


def test_identity_and_concurrent():
    with mx.name.NameManager():
        block = nn.HybridConcurrent(axis=1)
        with block.name_scope():
            block.add(nn.Identity(), nn.HybridLambda('negative'))
    block.hybridize()
    x = nd.array([[1.0, 2.0]])
    np.testing.assert_allclose(block(x).asnumpy(), [[1, 2, -1, -2]])


def test_cast_to_float16_keeps_batchnorm_float32():
    layer = nn.BatchNorm(in_channels=3)
    layer.initialize()
    layer.cast('float16')
    assert layer.gamma.data().dtype == np.float32
    dense = nn.Dense(2, in_units=3)
    dense.initialize()
    dense.cast('float16')
    assert dense.weight.data().dtype == np.float16
    assert dense(nd.ones((1, 3), dtype='float16')).dtype == np.float16


def test_layer_argument_errors():
    with pytest.raises(AssertionError, match='layout'):  # MXNet's exception types
        nn.Conv2D(3, 3, layout='NCW')
    with pytest.raises(AssertionError, match='kernel_size must be'):
        nn.Conv2D(3, (3, 3, 3))
    with pytest.raises(AssertionError, match='no less than 0'):
        nn.LeakyReLU(-1)
    conv = nn.Conv2D(4, 3, groups=2)
    conv.initialize()
    with pytest.raises(ValueError, match='divisible by groups'):
        conv(nd.ones((1, 3, 5, 5)))
