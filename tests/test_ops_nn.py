"""Neural-network operators: implementations against plain references, modes, randomness, errors.

Outputs and gradients against MXNet itself are in test_ops_nn_ref.py; this file checks
what that cannot: the im2col and XLA convolutions agree (with their gradients) over
layouts, groups, strides and dilations, BatchNorm's training and prediction modes
through autograd, Dropout's statistics, RNN sequence lengths and projections, dtypes,
and the errors users see.
"""
import itertools
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import gluonjax as mx
from gluonjax.base import MXNetError
from gluonjax.ops import get_op, nn_conv, nn_rnn
from gluonjax.ops.nn_util import Layout


def nd(a, dtype='float32'):
    return mx.nd.array(np.asarray(a), dtype=dtype)


# ---------------------------------------------------------------------------------------------
# FullyConnected
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ['float32', 'float64', 'float16'])
def test_fully_connected_matches_numpy(rng, dtype):
    x, w, b = rng.standard_normal((4, 2, 3)), rng.standard_normal((5, 6)), rng.standard_normal(5)
    out = mx.nd.FullyConnected(nd(x, dtype), nd(w, dtype), nd(b, dtype), num_hidden=5)
    assert out.dtype == np.dtype(dtype) and out.shape == (4, 5)
    tol = 1e-2 if dtype == 'float16' else 1e-5
    np.testing.assert_allclose(out.asnumpy(), x.reshape(4, 6) @ w.T + b, rtol=tol, atol=tol)


def test_fully_connected_positional_params_and_no_bias(rng):
    x, w = rng.standard_normal((3, 4)), rng.standard_normal((2, 4))
    out = mx.nd.FullyConnected(nd(x), nd(w), None, 2, True)  # num_hidden, no_bias by position
    np.testing.assert_allclose(out.asnumpy(), x @ w.T, rtol=1e-5)
    op = get_op('FullyConnected')
    assert op.input_names({'no_bias': True}) == ('data', 'weight')
    assert op.input_names({'no_bias': False}) == ('data', 'weight', 'bias')
    assert op.inputs(None) == ('data', 'weight', 'bias')


def test_fully_connected_gradients(rng):
    x, w, b = (nd(rng.standard_normal(s)) for s in [(3, 4), (2, 4), (2,)])
    for a in (x, w, b):
        a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.FullyConnected(x, w, b, num_hidden=2, flatten=False)
    y.backward(nd(np.ones((3, 2))))
    np.testing.assert_allclose(x.grad.asnumpy(), np.ones((3, 2)) @ w.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(w.grad.asnumpy(), np.ones((2, 3)) @ x.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(b.grad.asnumpy(), [3, 3])


def test_fully_connected_errors():
    with pytest.raises(MXNetError, match=r'FullyConnected: .*weight, provided \[3,5\], inferred \[3,4\]'):
        mx.nd.FullyConnected(mx.nd.ones((2, 4)), mx.nd.ones((3, 5)), mx.nd.ones(3), num_hidden=3)
    with pytest.raises(MXNetError, match=r'FullyConnected: .*bias, provided \[4\], inferred \[3\]'):
        mx.nd.FullyConnected(mx.nd.ones((2, 4)), mx.nd.ones((3, 4)), mx.nd.ones(4), num_hidden=3)
    with pytest.raises(MXNetError, match="FullyConnected: required parameter 'num_hidden'"):
        mx.nd.FullyConnected(mx.nd.ones((2, 4)), mx.nd.ones((3, 4)), no_bias=True)


# ---------------------------------------------------------------------------------------------
# Convolution: im2col and XLA implementations agree, forward and backward
# ---------------------------------------------------------------------------------------------

_CONV_CASES = [
    # (data shape NC..., num_filter, kernel, stride, dilate, pad, groups)
    ((2, 1, 9, 8), 4, (3, 3), (1, 1), (1, 1), (0, 0), 1),
    ((2, 4, 7, 9), 6, (3, 2), (2, 1), (1, 2), (1, 2), 2),
    ((1, 6, 6, 6), 6, (1, 1), (1, 1), (1, 1), (0, 0), 6),
    ((2, 3, 11), 4, (4,), (3,), (2,), (2,), 1),
    ((1, 2, 5, 4, 6), 4, (2, 3, 2), (1, 2, 1), (2, 1, 1), (1, 0, 1), 2),
    # kernels with more offsets than output positions: the patches are cut per position
    ((2, 3, 9, 8), 4, (8, 7), (1, 1), (1, 1), (0, 0), 1),
    ((2, 4, 10, 9), 4, (4, 3), (2, 2), (2, 3), (1, 0), 2),
    ((2, 3, 11), 4, (10,), (1,), (1,), (0,), 1),
]


def _conv_inputs(rng, shape, f, kernel, groups, dtype=np.float32):
    x = jnp.asarray(rng.standard_normal(shape), dtype)
    w = jnp.asarray(rng.standard_normal((f, shape[1] // groups) + kernel), dtype)
    return x, w


@pytest.mark.parametrize('shape,f,kernel,stride,dilate,pad,groups', _CONV_CASES)
def test_conv_im2col_matches_lax_with_gradients(rng, shape, f, kernel, stride, dilate, pad, groups):
    x, w = _conv_inputs(rng, shape, f, kernel, groups)
    lay = Layout({3: 'NCW', 4: 'NCHW', 5: 'NCDHW'}[len(shape)])

    @jax.jit
    def run(x, w, head):
        impls = [lambda x, w: nn_conv.conv_lax(x, w, stride, dilate, pad, groups, lay)]
        impls += [lambda x, w, rows=rows: nn_conv.conv_im2col(x, w, stride, dilate, pad, groups, lay, rows=rows)
                  for rows in (False, True)]
        results = []
        for fn in impls:
            out, pullback = jax.vjp(fn, x, w)
            results.append((out,) + pullback(head))
        return results
    n_out = lambda n, k, s, d, p: (n + 2 * p - d * (k - 1) - 1) // s + 1  # noqa: E731
    out_shape = (shape[0], f) + tuple(map(n_out, shape[2:], kernel, stride, dilate, pad))
    head = jnp.asarray(rng.standard_normal(out_shape), jnp.float32)
    ref, *others = run(x, w, head)
    assert ref[0].shape == out_shape
    for got in others:
        for a, b in zip(got, ref):  # output, gradient of data, gradient of weight
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize('axis', [2, -1, -2])
def test_patches_cut_per_position_equal_those_cut_per_kernel_offset(rng, axis):
    """A kernel as large as the image (MXNet's test_conv2d_16c: 224x224 on 224x224) has its
    patches cut once per output position; the patches are the same array either way."""
    xp = jnp.asarray(rng.standard_normal((2, 9, 8, 3)))  # channel-last: spatial axes 1, 2
    kernel, stride, dilate = (4, 3), (2, 1), (2, 3)
    out = tuple(nn_conv.conv_out_size(n, k, s, d, 0) for n, k, s, d in zip((9, 8), kernel, stride, dilate))
    assert np.prod(out) < np.prod(kernel)
    want = jnp.stack(nn_conv._windows(xp, (1, 2), kernel, stride, dilate, out), axis=axis)
    np.testing.assert_array_equal(nn_conv._stacked_windows(xp, (1, 2), kernel, stride, dilate, out, axis), want)


def test_conv_channel_last_layout_matches_channel_first(rng):
    x, w = _conv_inputs(rng, (2, 4, 7, 6), 6, (3, 2), 2)
    b = rng.standard_normal(6)
    kw = dict(kernel=(3, 2), num_filter=6, num_group=2, stride=(2, 1), pad=(1, 1))
    ref = mx.nd.Convolution(nd(x), nd(w), nd(b), **kw).asnumpy()
    out = mx.nd.Convolution(nd(np.transpose(x, (0, 2, 3, 1))), nd(np.transpose(w, (0, 2, 3, 1))), nd(b),
                            layout='NHWC', **kw).asnumpy()
    np.testing.assert_allclose(np.transpose(out, (0, 3, 1, 2)), ref, rtol=1e-4, atol=1e-4)
    # the channel-last patches directly (no transposes) agree too
    lay = Layout('NHWC')
    xl, wl = jnp.transpose(x, (0, 2, 3, 1)), jnp.transpose(w, (0, 2, 3, 1))
    got = nn_conv.conv_im2col(xl, wl, (2, 1), (1, 1), (1, 1), 2, lay)
    np.testing.assert_allclose(got, nn_conv.conv_lax(xl, wl, (2, 1), (1, 1), (1, 1), 2, lay), rtol=1e-4, atol=1e-4)


def test_conv_float64_and_float16(rng):
    with jax.enable_x64(True):  # a float64 reference (gluonjax leaves jax's x64 default off)
        x, w = _conv_inputs(rng, (1, 2, 6, 6), 3, (3, 3), 1, np.float64)
        ref = lax.conv_general_dilated(x, w, (1, 1), 'VALID', dimension_numbers=('NCHW', 'OIHW', 'NCHW'))
    out = mx.nd.Convolution(nd(x, 'float64'), nd(w, 'float64'), kernel=(3, 3), num_filter=3, no_bias=True)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-12)
    out16 = mx.nd.Convolution(nd(x, 'float16'), nd(w, 'float16'), kernel=(3, 3), num_filter=3, no_bias=True)
    assert out16.dtype == np.float16
    np.testing.assert_allclose(out16.asnumpy(), ref, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize('groups', [1, 2])
def test_conv_weight_dominated_matches_lax_with_gradients(rng, monkeypatch, groups):
    """A small map with many filters takes the untransposed-weight patch rows on CPU; the
    operator's output and gradients equal XLA's convolution."""
    x, w = _conv_inputs(rng, (1, 8, 5, 5), 32, (3, 3), groups)
    b = rng.standard_normal(32)
    kw = dict(kernel=(3, 3), num_filter=32, num_group=groups, stride=(2, 2), pad=(1, 1))
    if jax.default_backend() == 'cpu':
        assert nn_conv._choose_impl(x, Layout('NCHW'), (3, 3), (2, 2), (3, 3), groups, 32) == 'weight_rows'
    head = rng.standard_normal((1, 32, 3, 3))
    got = _conv_with_grads([x, w, b], kw, head)
    monkeypatch.setattr(nn_conv, 'CONV_IMPL', 'lax')
    for a, want in zip(got, _conv_with_grads([x, w, b], kw, head)):
        np.testing.assert_allclose(a, want, rtol=1e-4, atol=1e-4)


def _assert_matches_lax(rng, monkeypatch, impl, x, w, kw):
    """Convolution ``kw`` on ``x``, ``w`` by ``impl`` gives XLA's output and gradients."""
    head = rng.standard_normal(mx.nd.Convolution(nd(x), nd(w), **kw).shape)
    monkeypatch.setattr(nn_conv, 'CONV_IMPL', 'lax')
    want = _conv_with_grads([x, w], kw, head)
    monkeypatch.setattr(nn_conv, 'CONV_IMPL', impl)
    for a, b in zip(_conv_with_grads([x, w], kw, head), want):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


def _conv_with_grads(arrays, kw, head):
    """Convolution's output on ``arrays`` and their gradients for the head gradient ``head``."""
    args = [nd(a) for a in arrays]
    for a in args:
        a.attach_grad()
    with mx.autograd.record():
        out = mx.nd.Convolution(*args, **kw)
    out.backward(nd(head))
    return [out.asnumpy()] + [a.grad.asnumpy() for a in args]


def test_conv_implementation_choice(monkeypatch):
    choose = nn_conv._choose_impl
    shaped = lambda *s: jax.ShapeDtypeStruct(s, jnp.float32)  # noqa: E731
    nchw, one, two = Layout('NCHW'), (1, 1), (2, 2)
    x = shaped(64, 1, 28, 28)
    if jax.default_backend() == 'cpu':
        # the seed's LeNet: one input channel, then a 5x5 kernel on a 12x12 map (patch rows)
        assert choose(x, nchw, (5, 5), one, (24, 24), 1, 20) == 'im2col_rows'
        assert choose(shaped(64, 20, 12, 12), nchw, (5, 5), one, (8, 8), 1, 50) == 'im2col_rows'
        # ... past the cache's size XLA's convolution (batch 128)
        assert choose(shaped(128, 20, 12, 12), nchw, (5, 5), one, (8, 8), 1, 50) == 'lax'
        # 'same' 3x3 convolutions of CIFAR-sized maps: XLA's
        assert choose(shaped(32, 16, 32, 32), nchw, (3, 3), one, (32, 32), 1, 16) == 'lax'
        assert choose(shaped(64, 256, 8, 8), nchw, (3, 3), one, (8, 8), 1, 256) == 'lax'
        assert choose(shaped(512, 32, 64, 64), nchw, (7, 7), one, (58, 58), 1, 64) == 'lax'  # patches too large
        assert choose(shaped(32, 64, 16, 16), nchw, (1, 1), two, (8, 8), 1, 128) == 'im2col_rows'  # a matmul
        # ResNet-18 at batch 2: XLA's convolution on 28x28 maps, the weight used as it is on 7x7 ones
        assert choose(shaped(2, 128, 28, 28), nchw, (3, 3), one, (28, 28), 1, 128) == 'lax'
        assert choose(shaped(2, 512, 7, 7), nchw, (3, 3), one, (7, 7), 1, 512) == 'weight_rows'
        # depthwise: channel-first patches, XLA's forward and patch rows' data gradient past their size
        assert choose(shaped(2, 512, 7, 7), nchw, (3, 3), one, (7, 7), 512, 512) == 'im2col'
        assert choose(shaped(64, 64, 128, 128), nchw, (3, 3), one, (128, 128), 64, 64) == 'split'
        # few input channels at stride 1 (an RGB image): patch rows, past ROWS_MAX_ELEMENTS too
        assert choose(shaped(128, 3, 32, 32), nchw, (3, 3), one, (32, 32), 1, 64) == 'im2col_rows'
        assert choose(shaped(32, 16, 32, 32), nchw, (3, 3), one, (32, 32), 1, 64) == 'lax'
        assert choose(shaped(2, 3, 224, 224), nchw, (7, 7), two, (112, 112), 1, 64) == 'lax'  # stride 2
        assert choose(shaped(32, 128, 16, 16), nchw, (3, 3), one, (16, 16), 32, 128) == 'im2col'  # 4 per group
    monkeypatch.setattr(nn_conv, 'CONV_IMPL', 'lax')
    assert choose(x, nchw, (5, 5), one, (24, 24), 1, 20) == 'lax'


@pytest.mark.parametrize('impl,layout', [(impl, lay) for impl in ('split', 'im2col', 'im2col_rows', 'weight_rows')
                                         for lay in ('NCHW', 'NHWC') if (impl, lay) != ('im2col', 'NHWC')])
def test_conv_implementations_agree_with_gradients(rng, monkeypatch, impl, layout):
    """Every other implementation gives XLA's convolution's output and gradients (grouped, strided,
    dilated, padded), channel-first and channel-last (channel-first patches: channel-first data)."""
    x, w = _conv_inputs(rng, (2, 4, 9, 8), 6, (3, 2), 2)
    to_last = (0, 2, 3, 1)
    if layout == 'NHWC':
        x, w = np.transpose(x, to_last), np.transpose(w, to_last)
    kw = dict(kernel=(3, 2), num_filter=6, num_group=2, stride=(2, 1), dilate=(1, 2), pad=(1, 1), layout=layout,
              no_bias=True)
    _assert_matches_lax(rng, monkeypatch, impl, x, w, kw)


@pytest.mark.parametrize('impl', ['split', 'im2col', 'im2col_rows', 'weight_rows'])
@pytest.mark.parametrize('shape,kernel,stride,pad', [((2, 3, 11), (4,), (2,), (1,)),
                                                     ((2, 2, 5, 6, 4), (2, 3, 2), (1, 2, 1), (1, 0, 1))])
def test_conv_implementations_agree_in_1d_and_3d(rng, monkeypatch, impl, shape, kernel, stride, pad):
    x, w = _conv_inputs(rng, shape, 4, kernel, 1)
    kw = dict(kernel=kernel, num_filter=4, stride=stride, pad=pad, no_bias=True)
    _assert_matches_lax(rng, monkeypatch, impl, x, w, kw)


def test_conv_errors():
    x = mx.nd.ones((2, 3, 8, 8))
    with pytest.raises(MXNetError, match=r'Convolution: .*weight, provided \[4,2,3,3\], inferred \[4,3,3,3\] '
                                         r'from data \[2,3,8,8\]'):
        mx.nd.Convolution(x, mx.nd.ones((4, 2, 3, 3)), kernel=(3, 3), num_filter=4, no_bias=True)
    with pytest.raises(MXNetError, match=r'Convolution: input channels 3 \(data \[2,3,8,8\]\) are not divisible '
                                         r'by num_group 2'):
        mx.nd.Convolution(x, mx.nd.ones((4, 1, 3, 3)), kernel=(3, 3), num_filter=4, num_group=2, no_bias=True)
    with pytest.raises(MXNetError, match=r'Convolution: data must be 4-D .* got 3-D'):
        mx.nd.Convolution(mx.nd.ones((3, 8, 8)), mx.nd.ones((4, 3, 3, 3)), kernel=(3, 3), num_filter=4,
                          no_bias=True)
    with pytest.raises(MXNetError, match=r'Convolution: kernel \(9, 9\) .* larger than the padded input'):
        mx.nd.Convolution(x, mx.nd.ones((4, 3, 9, 9)), kernel=(9, 9), num_filter=4, no_bias=True)
    with pytest.raises(MXNetError, match=r'Convolution: stride \(1, 1, 1\) must have 2 values'):
        mx.nd.Convolution(x, mx.nd.ones((4, 3, 3, 3)), kernel=(3, 3), stride=(1, 1, 1), num_filter=4,
                          no_bias=True)


# ---------------------------------------------------------------------------------------------
# Deconvolution
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize('stride,dilate,pad,adj,groups', [
    ((2, 2), (1, 1), (1, 0), (1, 0), 1), ((1, 2), (2, 2), (1, 1), (0, 1), 1), ((2, 1), (2, 1), (0, 0), (1, 0), 2)])
def test_deconv_is_the_gradient_of_conv(rng, stride, dilate, pad, adj, groups):
    """Deconvolution(y, w) equals the vjp of Convolution with weight w w.r.t. its data."""
    c_in, f, kernel = 4, 2 * groups, (3, 2)
    y = jnp.asarray(rng.standard_normal((2, c_in, 4, 5)), jnp.float32)
    w = jnp.asarray(rng.standard_normal((c_in, f // groups) + kernel), jnp.float32)
    out = mx.nd.Deconvolution(nd(y), nd(w), kernel=kernel, stride=stride, dilate=dilate, pad=pad, adj=adj,
                              num_filter=f, num_group=groups).asnumpy()
    expect_hw = tuple(s * (n - 1) + d * (k - 1) + 1 - 2 * p + a
                      for n, k, s, d, p, a in zip((4, 5), kernel, stride, dilate, pad, adj))
    assert out.shape == (2, f) + expect_hw
    # Convolution from f channels to c_in channels has weight (c_in, f/groups, *kernel): w itself.
    conv = lambda x: lax.conv_general_dilated(  # noqa: E731
        x, w, stride, [(p, p) for p in pad], rhs_dilation=dilate, dimension_numbers=('NCHW', 'OIHW', 'NCHW'),
        feature_group_count=groups)
    _, pullback = jax.vjp(conv, jnp.zeros((2, f) + expect_hw, jnp.float32))
    np.testing.assert_allclose(out, pullback(y)[0], rtol=1e-4, atol=1e-4)


def test_deconv_target_shape_and_channel_last(rng):
    y, w = rng.standard_normal((1, 2, 4, 4)), rng.standard_normal((2, 3, 3, 3))
    for target in [(8, 8), (8, 9), (9, 9)]:
        out = mx.nd.Deconvolution(nd(y), nd(w), kernel=(3, 3), stride=(2, 2), num_filter=3, target_shape=target)
        assert out.shape == (1, 3) + target
    ref = mx.nd.Deconvolution(nd(y), nd(w), kernel=(3, 3), stride=(2, 2), num_filter=3, pad=(1, 1)).asnumpy()
    out = mx.nd.Deconvolution(nd(np.transpose(y, (0, 2, 3, 1))), nd(np.transpose(w, (0, 2, 3, 1))),
                              kernel=(3, 3), stride=(2, 2), num_filter=3, pad=(1, 1), layout='NHWC').asnumpy()
    np.testing.assert_allclose(np.transpose(out, (0, 3, 1, 2)), ref, rtol=1e-4, atol=1e-4)
    with pytest.raises(MXNetError, match=r'Deconvolution: .*weight, provided \[3,3,3,3\], inferred \[2,3,3,3\]'):
        mx.nd.Deconvolution(nd(y), nd(np.ones((3, 3, 3, 3))), kernel=(3, 3), num_filter=3)


# ---------------------------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------------------------

def _np_pool(x, k, s, p, kind, full=False, include_pad=True):
    """A direct numpy 2-D pooling (NCHW), windows clipped as MXNet clips them."""
    n, c, h, w = x.shape
    out_size = [(1 + int(np.ceil((d + 2 * pp - kk) / ss))) if full else 1 + (d + 2 * pp - kk) // ss
                for d, kk, ss, pp in zip((h, w), k, s, p)]
    out = np.zeros((n, c) + tuple(out_size))
    for i, j in itertools.product(*map(range, out_size)):
        h0, w0 = i * s[0] - p[0], j * s[1] - p[1]
        win = x[:, :, max(h0, 0):min(h0 + k[0], h), max(w0, 0):min(w0 + k[1], w)]
        if kind == 'max':
            out[:, :, i, j] = win.max((2, 3))
        elif kind == 'sum':
            out[:, :, i, j] = win.sum((2, 3))
        else:
            if include_pad:
                cnt = ((min(h0 + k[0], h + p[0]) - max(h0, -p[0])) * (min(w0 + k[1], w + p[1]) - max(w0, -p[1])))
            else:
                cnt = win.shape[2] * win.shape[3]
            out[:, :, i, j] = win.sum((2, 3)) / cnt
    return out


@pytest.mark.parametrize('k,s,p,full', [((2, 2), (2, 2), (0, 0), False), ((3, 3), (2, 2), (1, 1), True),
                                        ((3, 2), (1, 3), (1, 0), True), ((2, 3), (3, 2), (0, 1), False)])
@pytest.mark.parametrize('kind', ['max', 'avg', 'sum'])
def test_pooling_matches_numpy(rng, k, s, p, full, kind):
    x = rng.standard_normal((2, 3, 7, 8))
    out = mx.nd.Pooling(nd(x, 'float64'), kernel=k, stride=s, pad=p, pool_type=kind,
                        pooling_convention='full' if full else 'valid')
    np.testing.assert_allclose(out.asnumpy(), _np_pool(x, k, s, p, kind, full), rtol=1e-12)
    if kind == 'avg':
        out = mx.nd.Pooling(nd(x, 'float64'), kernel=k, stride=s, pad=p, pool_type='avg', count_include_pad=False,
                            pooling_convention='full' if full else 'valid')
        np.testing.assert_allclose(out.asnumpy(), _np_pool(x, k, s, p, 'avg', full, False), rtol=1e-12)


def test_pooling_max_gradient_goes_to_the_maximum():
    x = nd(np.array([[[[1., 5, 2, 0], [3, 4, 8, 1]]]]))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Pooling(x, kernel=(2, 2), stride=(2, 2))
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [[[[0, 1, 0, 0], [0, 0, 1, 0]]]])


@pytest.mark.parametrize('train_mode', [True, False])
def test_pooling_max_gradient_over_relu_ties_in_both_modes(rng, train_mode):
    """Windows of a ReLU's zeros tie; the gradient goes to each window's first largest element in
    training and prediction mode alike (MXNet 1.9.1's oneDNN kernel gets prediction mode wrong)."""
    data = rng.standard_normal((2, 3, 6, 6)).astype(np.float32) - 0.5
    head = rng.standard_normal((2, 3, 3, 3)).astype(np.float32)
    x = nd(data)
    x.attach_grad()
    with mx.autograd.record(train_mode=train_mode):
        y = mx.nd.Pooling(mx.nd.relu(x), kernel=(2, 2), stride=(2, 2), pool_type='max')
    y.backward(nd(head))
    relu = np.maximum(data, 0)
    expected = np.zeros_like(data)
    for n, c, i, j in itertools.product(range(2), range(3), range(3), range(3)):
        window = relu[n, c, 2 * i:2 * i + 2, 2 * j:2 * j + 2].ravel()
        k = int(np.argmax(window))  # the first largest
        a, b = 2 * i + k // 2, 2 * j + k % 2
        expected[n, c, a, b] = head[n, c, i, j] * (data[n, c, a, b] > 0)
    np.testing.assert_allclose(x.grad.asnumpy(), expected, rtol=1e-6)
    assert abs(x.grad.asnumpy().sum() - (head * (y.asnumpy() > 0)).sum()) < 1e-4


@pytest.mark.parametrize('shape,kernel,layout', [
    ((2, 3, 8, 8), (2, 2), 'NCHW'), ((2, 3, 9, 7), (2, 2), 'NCHW'), ((2, 8, 8, 3), (2, 2), 'NHWC'),
    ((2, 3, 10), (3,), 'NCW'), ((2, 2, 4, 6, 6), (2, 3, 3), 'NCDHW'), ((2, 3, 6, 6), (3, 2), 'NCHW')])
def test_pooling_max_of_tiling_windows_matches_reduce_window(rng, shape, kernel, layout):
    """Windows that tile the input (stride = kernel, no padding) pool by a reshape; output and
    gradient equal XLA's reduce-window and its select-and-scatter, ties going to the first
    largest element in row-major order as in MXNet (rounded inputs: many ties)."""
    x = np.round(rng.standard_normal(shape)).astype(np.float32)
    spatial = range(2, len(shape)) if layout[1] == 'C' else range(1, len(shape) - 1)
    window = [1] * len(shape)
    for ax, k in zip(spatial, kernel):
        window[ax] = k
    want, pullback = jax.vjp(lambda a: lax.reduce_window(a, -jnp.inf, lax.max, window, window, 'VALID'),
                             jnp.asarray(x))
    head = rng.standard_normal(want.shape).astype(np.float32)
    a = nd(x)
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Pooling(a, kernel=kernel, stride=kernel, pool_type='max', layout=layout)
    y.backward(nd(head))
    np.testing.assert_array_equal(y.asnumpy(), want)
    np.testing.assert_array_equal(a.grad.asnumpy(), pullback(jnp.asarray(head))[0])


@pytest.mark.parametrize('dtype', ['float16', 'bfloat16'])
def test_pooling_max_of_tiling_windows_in_half_precision(rng, dtype):
    x = rng.standard_normal((2, 3, 6, 4)).astype(np.float32)
    a = mx.nd.array(x, dtype=dtype)
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Pooling(a, kernel=(2, 2), stride=(2, 2), pool_type='max')
    y.backward()
    assert y.dtype == a.grad.dtype == np.dtype(jnp.dtype(dtype))
    windows = x.astype(jnp.dtype(dtype)).astype(np.float32).reshape(2, 3, 3, 2, 2, 2)
    np.testing.assert_array_equal(y.asnumpy().astype(np.float32), windows.max(axis=(3, 5)))
    assert a.grad.asnumpy().astype(np.float32).sum() == y.size  # one element per window gets the 1


def test_pooling_layouts_global_and_same(rng):
    x = rng.standard_normal((2, 3, 6, 5)).astype(np.float32)
    ref = mx.nd.Pooling(nd(x), kernel=(2, 2), stride=(2, 1), pool_type='avg').asnumpy()
    out = mx.nd.Pooling(nd(np.transpose(x, (0, 2, 3, 1))), kernel=(2, 2), stride=(2, 1), pool_type='avg',
                        layout='NHWC').asnumpy()
    np.testing.assert_allclose(np.transpose(out, (0, 3, 1, 2)), ref, rtol=1e-6)
    g = mx.nd.Pooling(nd(x), kernel=(1, 1), global_pool=True, pool_type='avg')
    assert g.shape == (2, 3, 1, 1)
    np.testing.assert_allclose(g.asnumpy()[..., 0, 0], x.mean((2, 3)), rtol=1e-5)
    assert mx.nd.Pooling(nd(x), kernel=(2, 2)).shape == (2, 3, 5, 4)  # default stride 1
    x1 = np.arange(7.).reshape(1, 1, 7)
    same = mx.nd.Pooling(nd(x1), kernel=(3,), stride=(2,), pooling_convention='same')
    assert same.shape == (1, 1, 4)
    np.testing.assert_allclose(same.asnumpy().ravel(), [1, 3, 5, 6])


def test_pooling_errors():
    with pytest.raises(MXNetError, match=r'Pooling: kernel \(5, 5\) exceeds data \[1,1,4,4\] padded by \(0, 0\)'):
        mx.nd.Pooling(mx.nd.ones((1, 1, 4, 4)), kernel=(5, 5))
    with pytest.raises(MXNetError, match="Pooling: pool_type must be one of"):
        mx.nd.Pooling(mx.nd.ones((1, 1, 4, 4)), kernel=(2, 2), pool_type='median')
    with pytest.raises(MXNetError, match="Pooling: pooling_convention 'same' supports only 1-D max pooling"):
        mx.nd.Pooling(mx.nd.ones((1, 1, 4, 4)), kernel=(2, 2), pooling_convention='same')
    with pytest.raises(MXNetError, match='Pooling: pool_type lp needs p_value'):
        mx.nd.Pooling(mx.nd.ones((1, 1, 4, 4)), kernel=(2, 2), pool_type='lp')


# ---------------------------------------------------------------------------------------------
# BatchNorm: training and prediction modes, moving statistics
# ---------------------------------------------------------------------------------------------

def _bn_arrays(rng, c=3):
    return (nd(rng.standard_normal((4, c, 2, 3)) * 2 + 1), nd(rng.standard_normal(c) + 1), nd(rng.standard_normal(c)),
            nd(np.zeros(c)), nd(np.ones(c)))


def test_batchnorm_training_uses_batch_stats_and_updates_moving_stats(rng):
    x, g, b, mm, mv = _bn_arrays(rng)
    xn = x.asnumpy()
    mean, var = xn.mean((0, 2, 3)), xn.var((0, 2, 3))
    g.attach_grad()
    with mx.autograd.record():
        out = mx.nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False, momentum=0.8)
    np.testing.assert_array_equal(mm.asnumpy(), 0)  # MXNet updates them in backward
    out.backward()
    expect = (xn - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-3) * g.asnumpy()[:, None, None] \
        + b.asnumpy()[:, None, None]
    np.testing.assert_allclose(out.asnumpy(), expect, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mm.asnumpy(), 0.2 * mean, rtol=1e-5)
    np.testing.assert_allclose(mv.asnumpy(), 0.8 + 0.2 * var, rtol=1e-5)  # biased variance
    # prediction mode (outside record) uses the moving statistics and leaves them alone
    before = mm.asnumpy().copy()
    out = mx.nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False)
    expect = (xn - before[:, None, None]) / np.sqrt(mv.asnumpy()[:, None, None] + 1e-3) \
        * g.asnumpy()[:, None, None] + b.asnumpy()[:, None, None]
    np.testing.assert_allclose(out.asnumpy(), expect, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(mm.asnumpy(), before)


@pytest.mark.parametrize('hybridize', [False, True])
def test_batchnorm_moving_stats_change_only_in_recorded_training(rng, hybridize):
    """As in MXNet (which updates them in backward): train_mode() alone normalises with the
    batch statistics but leaves the moving ones; record(train_mode=False) uses and keeps them."""
    from gluonjax.gluon import nn as gnn
    net = gnn.BatchNorm(in_channels=3, center=False, scale=False)
    net.initialize()
    if hybridize:
        net.hybridize()
    x = nd(rng.standard_normal((4, 3, 2, 3)) * 2 + 1)
    with mx.autograd.train_mode():
        out = net(x)
    np.testing.assert_allclose(out.asnumpy().mean((0, 2, 3)), 0, atol=1e-5)
    np.testing.assert_array_equal(net.running_mean.data().asnumpy(), 0)
    with mx.autograd.record(train_mode=False):
        out = net(x)
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() / np.sqrt(1 + 1e-5), rtol=1e-5)
    np.testing.assert_array_equal(net.running_mean.data().asnumpy(), 0)
    x.attach_grad()
    with mx.autograd.record():
        out = net(x)
    np.testing.assert_array_equal(net.running_mean.data().asnumpy(), 0)  # until backward
    out.backward()
    np.testing.assert_allclose(net.running_mean.data().asnumpy(), 0.1 * x.asnumpy().mean((0, 2, 3)), rtol=1e-5)


@pytest.mark.parametrize('hybridize', [False, True])
def test_batchnorm_moving_stats_change_only_where_backward_passes(rng, hybridize):
    """A BatchNorm on the data learning neither gamma nor beta (ResNet V2's first) is passed by
    no backward: MXNet keeps its moving statistics, eagerly and hybridized, while those of a
    BatchNorm after a learned layer change (MXNet 1.9.1's numbers)."""
    from gluonjax.gluon import nn as gnn
    net = gnn.HybridSequential()
    net.add(gnn.BatchNorm(scale=False, center=False, in_channels=2), gnn.Conv2D(2, 1, in_channels=2),
            gnn.BatchNorm(in_channels=2))
    net.initialize(mx.init.Constant(0.5))
    if hybridize:
        net.hybridize()
    x = nd(np.array([[[[1.]], [[2.]]], [[[3.]], [[5.]]]]))
    for attach, first, second in (
            (False, ([0, 0], [1, 1]), [0.9999992847442627] * 2),
            (True, ([0.2, 0.35], [1, 1.125]), [0.9999986290931702] * 2)):
        if attach:  # a recorded input: the backward now passes the first BatchNorm too
            x.attach_grad()
        with mx.autograd.record():
            out = net(x)
        out.backward()
        np.testing.assert_allclose(net[0].running_mean.data().asnumpy(), first[0], rtol=1e-6)
        np.testing.assert_allclose(net[0].running_var.data().asnumpy(), first[1], rtol=1e-6)
        np.testing.assert_allclose(net[2].running_var.data().asnumpy(), second, rtol=1e-7, atol=0)


@pytest.mark.parametrize('hybridize', [False, True])
def test_batchnorm_two_recorded_passes_update_in_backward_order(rng, hybridize):
    """Two passes recorded before one backward (a GAN discriminator on real and fake data):
    MXNet applies both updates when backward reaches each pass, the later pass first."""
    from gluonjax.gluon import nn as gnn
    net = gnn.BatchNorm(in_channels=3, momentum=0.5)
    net.initialize()
    if hybridize:
        net.hybridize()
    a, b = nd(rng.standard_normal((4, 3, 2)) + 1), nd(rng.standard_normal((4, 3, 2)) - 2)
    with mx.autograd.record():
        loss = net(a).sum() + (net(b) * 2).sum()
    np.testing.assert_array_equal(net.running_mean.data().asnumpy(), 0)
    loss.backward()
    ma, mb = a.asnumpy().mean((0, 2)), b.asnumpy().mean((0, 2))
    expect = (0 * 0.5 + mb * 0.5) * 0.5 + ma * 0.5
    np.testing.assert_allclose(net.running_mean.data().asnumpy(), expect, rtol=1e-5, atol=1e-6)
    va, vb = a.asnumpy().var((0, 2)), b.asnumpy().var((0, 2))
    np.testing.assert_allclose(net.running_var.data().asnumpy(), (0.5 + vb * 0.5) * 0.5 + va * 0.5,
                               rtol=1e-4)


def test_batchnorm_fix_gamma_and_outputs(rng):
    x, g, b, mm, mv = _bn_arrays(rng)
    g.attach_grad()
    b.attach_grad()
    with mx.autograd.record():
        out = mx.nd.BatchNorm(x, g, b, mm, mv)  # fix_gamma=True by default
    out.backward()
    np.testing.assert_array_equal(g.grad.asnumpy(), 0)
    np.testing.assert_allclose(b.grad.asnumpy(), [24, 24, 24])
    np.testing.assert_allclose(out.asnumpy().std((0, 2, 3)), 1, atol=2e-3)  # gamma treated as 1
    outs = mx.nd.BatchNorm(x, g, b, mm, mv, output_mean_var=True)
    assert len(outs) == 3
    np.testing.assert_allclose(outs[1].asnumpy(), mm.asnumpy())
    np.testing.assert_allclose(outs[2].asnumpy(), 1 / np.sqrt(mv.asnumpy() + 1e-3), rtol=1e-6)


def test_batchnorm_float16_data_float32_stats(rng):
    x, g, b, mm, mv = _bn_arrays(rng)
    with mx.autograd.record():
        out = mx.nd.BatchNorm(x.astype('float16'), g, b, mm, mv, fix_gamma=False)
    assert out.dtype == np.float16 and mm.dtype == np.float32
    ref = mx.nd.BatchNorm(x, g, b, mx.nd.zeros(3), mx.nd.ones(3), fix_gamma=False, use_global_stats=False)
    assert np.isfinite(out.asnumpy()).all() and ref.shape == out.shape


def test_batchnorm_errors():
    with pytest.raises(MXNetError, match=r'BatchNorm: shape inconsistent for gamma, provided \[4\], inferred \[3\] '
                                         r'from data \[2,3,5\]'):
        mx.nd.BatchNorm(mx.nd.ones((2, 3, 5)), mx.nd.ones(4), mx.nd.ones(3), mx.nd.ones(3), mx.nd.ones(3))
    with pytest.raises(MXNetError, match='BatchNorm: axis 3 is out of range for 3-D data'):
        mx.nd.BatchNorm(mx.nd.ones((2, 3, 5)), mx.nd.ones(3), mx.nd.ones(3), mx.nd.ones(3), mx.nd.ones(3), axis=3)


def test_norm_gradients_match_jax_reference(rng):
    """LayerNorm / GroupNorm / InstanceNorm gradients against jax.grad of a plain jnp formula."""
    x = rng.standard_normal((2, 4, 3))
    g2, b2 = rng.standard_normal(2), rng.standard_normal(2)

    def ref(x):
        xg = x.reshape(2, 2, 6)
        xh = (xg - xg.mean(-1, keepdims=True)) / jnp.sqrt(xg.var(-1, keepdims=True) + 1e-5)
        return jnp.sum(jnp.sin(xh * g2[None, :, None] + b2[None, :, None]))
    xa = nd(x, 'float64')
    xa.attach_grad()
    with mx.autograd.record():
        y = mx.nd.sin(mx.nd.GroupNorm(xa, nd(g2, 'float64'), nd(b2, 'float64'), num_groups=2)).sum()
    y.backward()
    with jax.enable_x64(True):  # a float64 reference (gluonjax leaves jax's x64 default off)
        value, grad = jax.jit(jax.value_and_grad(ref))(jnp.asarray(x))
    np.testing.assert_allclose(y.asnumpy(), value, rtol=1e-10)
    np.testing.assert_allclose(xa.grad.asnumpy(), grad, rtol=1e-8, atol=1e-10)


def test_norm_errors():
    with pytest.raises(MXNetError, match=r'GroupNorm: 4 channels of data \[2,4,3\] cannot be split into '
                                         r'num_groups=3'):
        mx.nd.GroupNorm(mx.nd.ones((2, 4, 3)), mx.nd.ones(3), mx.nd.ones(3), num_groups=3)
    with pytest.raises(MXNetError, match=r'LayerNorm: shape inconsistent for gamma, provided \[3\], inferred \[4\]'):
        mx.nd.LayerNorm(mx.nd.ones((2, 4)), mx.nd.ones(3), mx.nd.ones(4))
    with pytest.raises(MXNetError, match="L2Normalization: mode 'channel' needs at least 3-D data"):
        mx.nd.L2Normalization(mx.nd.ones((2, 4)), mode='channel')


# ---------------------------------------------------------------------------------------------
# Dropout and rrelu: randomness and modes
# ---------------------------------------------------------------------------------------------

def test_dropout_statistics_and_scaling():
    mx.random.seed(7)
    x = mx.nd.ones((200, 100))
    with mx.autograd.record():
        y = mx.nd.Dropout(x, p=0.3)
    a = y.asnumpy()
    assert set(np.unique(a)) <= {0.0, np.float32(1 / 0.7)}
    assert abs((a == 0).mean() - 0.3) < 0.02
    with mx.autograd.record():
        y2 = mx.nd.Dropout(x, p=0.3)
    assert (y2.asnumpy() != a).any()  # a new mask per call


def test_dropout_identity_in_predict_mode_and_always_mode():
    x = mx.nd.ones((4, 5))
    np.testing.assert_array_equal(mx.nd.Dropout(x, p=0.5).asnumpy(), 1)
    with mx.autograd.record(train_mode=False):
        np.testing.assert_array_equal(mx.nd.Dropout(x, p=0.5).asnumpy(), 1)
    a = mx.nd.Dropout(mx.nd.ones((50, 40)), p=0.5, mode='always').asnumpy()
    assert 0.4 < (a == 0).mean() < 0.6
    with mx.autograd.train_mode():
        assert (mx.nd.Dropout(mx.nd.ones((50, 40)), p=0.5).asnumpy() == 0).any()


def test_dropout_axes_share_the_mask_and_gradient_is_the_mask():
    x = mx.nd.ones((3, 40, 5))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Dropout(x, p=0.5, axes=(0, 2))
    y.backward()
    a = y.asnumpy()
    assert (a == a[:1, :, :1]).all()  # constant along the shared axes
    assert 0 < (a[0, :, 0] == 0).sum() < 40
    np.testing.assert_array_equal(x.grad.asnumpy(), a)


def test_dropout_errors():
    with pytest.raises(MXNetError, match="Dropout: mode must be 'training' or 'always'"):
        mx.nd.Dropout(mx.nd.ones(3), mode='sometimes')


def test_rrelu_training_draws_slopes_in_bounds():
    x = nd(-np.ones((50, 20)))
    with mx.autograd.record():
        out, mask = mx.nd.LeakyReLU(x, act_type='rrelu', lower_bound=0.1, upper_bound=0.3)
    slopes = -out.asnumpy()
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and slopes.std() > 0.03
    np.testing.assert_allclose(mask.asnumpy(), slopes, rtol=1e-6)
    out, _ = mx.nd.LeakyReLU(x, act_type='rrelu', lower_bound=0.1, upper_bound=0.3)
    np.testing.assert_allclose(out.asnumpy(), -0.2, rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# Activations, softmax, Embedding
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ['float16', 'float32', 'float64'])
def test_softmax_family_dtypes(rng, dtype):
    x = rng.standard_normal((3, 4))
    e = np.exp(x - x.max(1, keepdims=True))
    sm = e / e.sum(1, keepdims=True)
    tol = 2e-3 if dtype == 'float16' else 1e-6
    for op, ref in (('softmax', sm), ('log_softmax', np.log(sm))):
        out = getattr(mx.nd, op)(nd(x, dtype))
        assert out.dtype == np.dtype(dtype)
        np.testing.assert_allclose(out.asnumpy(), ref, rtol=tol, atol=tol)
    out = mx.nd.softmax(nd(x, dtype), dtype='float64')
    assert out.dtype == np.float64
    with pytest.raises(MXNetError, match='softmax: axis 2 is out of range for data'):
        mx.nd.softmax(nd(x), axis=2)


def test_softmax_length_errors():
    with pytest.raises(MXNetError, match='softmax: length must be an integer array'):
        mx.nd.softmax(mx.nd.ones((2, 3)), mx.nd.ones(2), use_length=True)
    with pytest.raises(MXNetError, match=r'softmax: length \[3\] must have the shape of data \[2,3\] without'):
        mx.nd.softmax(mx.nd.ones((2, 3)), mx.nd.ones(3, dtype='int32'), use_length=True)


def test_embedding_indices_and_gradient():
    w = nd(np.arange(12.).reshape(4, 3))
    w.attach_grad()
    idx = nd([[0, 3.9], [-2, 7]])
    with mx.autograd.record():
        y = mx.nd.Embedding(idx, w, input_dim=4, output_dim=3)
    y.backward()
    np.testing.assert_array_equal(y.asnumpy(), w.asnumpy()[[[0, 3], [0, 3]]])
    np.testing.assert_array_equal(w.grad.asnumpy()[:, 0], [2, 0, 0, 2])
    y = mx.nd.Embedding(nd([1, 2], 'int32'), w, input_dim=4, output_dim=3)
    np.testing.assert_array_equal(y.asnumpy(), w.asnumpy()[[1, 2]])
    with pytest.raises(MXNetError, match=r'Embedding: shape inconsistent for weight, provided \[4,3\], '
                                         r'inferred \[5,3\]'):
        mx.nd.Embedding(idx, w, input_dim=5, output_dim=3)


def test_mxnet_gradient_quirks_are_reproduced(rng):
    """selu, SoftmaxActivation('instance') on 3-D data and BatchNorm outside training: MXNet 1.9's
    backward is not the derivative of its forward there; gluonjax reproduces MXNet's
    (test_ops_nn_ref.py compares with MXNet itself). Written out here so the formulas are explicit."""
    def grad_of(fn, x):
        a = nd(x, 'float64')
        a.attach_grad()
        with mx.autograd.record(train_mode=False):
            y = fn(a)
        y.backward(nd(head, 'float64'))
        return y.asnumpy(), a.grad.asnumpy()
    x = rng.standard_normal((2, 3, 4))
    head = rng.standard_normal((2, 3, 4))
    lam, alpha = 1.0507009873554805, 1.6732632423543772
    y, dx = grad_of(lambda a: mx.nd.LeakyReLU(a, act_type='selu'), x)
    np.testing.assert_allclose(dx, head * np.where(x > 0, lam, lam * (y + alpha)), rtol=1e-10)
    y, dx = grad_of(mx.nd.SoftmaxActivation, x)
    np.testing.assert_allclose(y.sum(-1), 1, rtol=1e-10)
    np.testing.assert_allclose(dx, y * (head - (head * y).sum(1, keepdims=True)), rtol=1e-10)
    g, mv = rng.standard_normal(3), rng.random(3) + 0.5
    bn = lambda a: mx.nd.BatchNorm(a, nd(g, 'float64'), mx.nd.zeros(3, dtype='float64'),  # noqa: E731
                                   mx.nd.zeros(3, dtype='float64'), nd(mv, 'float64'), fix_gamma=False)
    _, dx = grad_of(bn, x)
    invstd = (1 / np.sqrt(mv + 1e-3))[:, None]
    xhat = x * invstd
    expect = invstd * g[:, None] * (head - head.mean((0, 2), keepdims=True)
                                    - xhat * (head * xhat).mean((0, 2), keepdims=True))
    np.testing.assert_allclose(dx, expect, rtol=1e-8, atol=1e-12)


def test_selu_scales_by_lambda_alpha_as_one_constant():
    # float32, as MXNet's test_gluon::test_activations compares exactly: 1.7580993 * expm1(x)
    x = mx.nd.array([-0.1, 0.1, -2.0, 0.0])
    expect = np.where(x.asnumpy() < 0, np.float32(1.0507009873554805 * 1.6732632423543772) * mx.nd.expm1(x).asnumpy(),
                      np.float32(1.0507009873554805) * x.asnumpy())
    assert mx.nd.LeakyReLU(x, act_type='selu').asnumpy().tolist() == expect.tolist()


def test_activation_and_leaky_errors():
    with pytest.raises(MXNetError, match="Activation: invalid value .swish. for parameter .act_type., valid values are: {.relu., .sigmoid., .softrelu., .softsign., .tanh.}"):
        mx.nd.Activation(mx.nd.ones(3), act_type='swish')
    with pytest.raises(MXNetError, match=r'LeakyReLU: prelu gamma \[3\] cannot be broadcast to data \[2,4\]'):
        mx.nd.LeakyReLU(mx.nd.ones((2, 4)), mx.nd.ones(3), act_type='prelu')


def test_prelu_gamma_aligns_with_batch_and_channel_axes_as_mxnet():
    x = np.array([[-1., 2.], [-3., -4.]], np.float32).reshape(2, 2, 1, 1) * np.ones((1, 1, 2, 1), np.float32)
    per_sample = np.array([[0.1, 0.2], [0.3, 0.4]], np.float32)  # (N, C): one slope per sample and channel
    out = mx.nd.LeakyReLU(nd(x), nd(per_sample), act_type='prelu').asnumpy()
    np.testing.assert_allclose(out, np.where(x < 0, x * per_sample[:, :, None, None], x), rtol=1e-6)
    per_channel = np.array([0.5, 0.25], np.float32)
    out = mx.nd.LeakyReLU(nd(x), nd(per_channel), act_type='prelu').asnumpy()
    np.testing.assert_allclose(out, np.where(x < 0, x * per_channel[None, :, None, None], x), rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# Output layers: MXNet's gradients whatever the head gradient
# ---------------------------------------------------------------------------------------------

def test_softmax_output_gradient_ignores_head_and_label_gets_none(rng):
    x, lab = nd(rng.standard_normal((3, 4))), nd([0, 3, 1])
    x.attach_grad()
    lab.attach_grad()
    with mx.autograd.record():
        y = mx.nd.SoftmaxOutput(x, lab)
    y.backward(nd(rng.standard_normal((3, 4)) * 10))
    sm = y.asnumpy()
    np.testing.assert_allclose(x.grad.asnumpy(), sm - np.eye(4)[[0, 3, 1]], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(lab.grad.asnumpy(), 0)
    # integer labels are accepted (no gradient can flow to them)
    with mx.autograd.record():
        y = mx.nd.Softmax(x, nd([0, 3, 1], 'int32'), grad_scale=2.0)  # the alias
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * (sm - np.eye(4)[[0, 3, 1]]), rtol=1e-5, atol=1e-6)


def test_softmax_output_out_grad_multiplies_by_head(rng):
    x, lab = nd(rng.standard_normal((2, 3))), nd([2, 0])
    x.attach_grad()
    head = rng.standard_normal((2, 3))
    with mx.autograd.record():
        y = mx.nd.SoftmaxOutput(x, lab, out_grad=True)
    y.backward(nd(head))
    np.testing.assert_allclose(x.grad.asnumpy(), (y.asnumpy() - np.eye(3)[[2, 0]]) * head, rtol=1e-5, atol=1e-6)


def test_output_layer_errors():
    with pytest.raises(MXNetError, match=r'SoftmaxOutput: shape inconsistent for label, provided \[3\], '
                                         r'inferred \[2\] from data \[2,4\]'):
        mx.nd.SoftmaxOutput(mx.nd.ones((2, 4)), mx.nd.ones(3))
    with pytest.raises(MXNetError, match=r'LinearRegressionOutput: label \[4\] does not match data \[2,3\]'):
        mx.nd.LinearRegressionOutput(mx.nd.ones((2, 3)), mx.nd.ones(4))
    with pytest.raises(MXNetError, match="SoftmaxOutput: normalization must be 'null', 'batch' or 'valid'"):
        mx.nd.SoftmaxOutput(mx.nd.ones((2, 4)), mx.nd.ones(2), normalization='mean')


def _flat_softmax(x):
    e = np.exp(x.reshape(x.shape[0], -1))
    return (e / e.sum(1, keepdims=True)).reshape(x.shape)


def test_softmax_output_label_shapes_and_gradients_as_mxnet():
    """MXNet 1.9.1: labels are the data's shape without its last axis (or, with multi_output,
    (N, positions), (N, *spatial), (N, 1, *spatial)); a label of the data's shape is a distribution."""
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    lab = np.array([[1, 3, 0], [2, 2, 1]], np.float32)
    data = nd(x)
    data.attach_grad()
    with mx.autograd.record():
        y = mx.nd.SoftmaxOutput(data, nd(lab), normalization='batch')
    y.backward()
    # the forward is one softmax per sample; the gradient reads the first N labels as flat classes
    # and divides by all 6 labels (MXNet 1.9.1 gives -0.158317 at [0, 0, 1])
    expected = _flat_softmax(x)
    expected[0, 0, 1] -= 1
    expected[1, 0, 3] -= 1
    np.testing.assert_allclose(y.asnumpy(), _flat_softmax(x), rtol=1e-5)
    np.testing.assert_allclose(data.grad.asnumpy(), expected / 6, rtol=1e-4, atol=1e-6)
    assert abs(data.grad.asnumpy()[0, 0, 1] - -0.158317) < 1e-5
    probs = np.full((2, 3, 4), 1 / 12, np.float32)
    with mx.autograd.record():
        y = mx.nd.SoftmaxOutput(data, nd(probs), grad_scale=2.0, normalization='valid')
    y.backward()
    np.testing.assert_allclose(data.grad.asnumpy(), (_flat_softmax(x) - probs) * 2, rtol=1e-4, atol=1e-6)
    with pytest.raises(MXNetError, match=r'provided \[2\], inferred \[2,3\] from data \[2,3,4\]'):
        mx.nd.SoftmaxOutput(data, mx.nd.ones(2))
    with pytest.raises(MXNetError, match=r'provided \[8\], inferred \[2,4\] or \[2,4\] or \[2,1,4\]'):
        mx.nd.SoftmaxOutput(data, mx.nd.ones(8), multi_output=True)
    net = mx.sym.SoftmaxOutput(mx.sym.var('d'), mx.sym.var('l'), multi_output=True)
    assert net.infer_shape(d=(2, 3, 4, 5))[0] == [(2, 3, 4, 5), (2, 20)]
    assert net.infer_shape(d=(2, 3, 4, 5), l=(2, 1, 4, 5))[0] == [(2, 3, 4, 5), (2, 1, 4, 5)]


def test_dropout_of_probability_one_gives_nan_as_mxnet():
    x = mx.nd.ones((2, 3))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Dropout(x, p=1.0)
    y.backward()
    assert np.isnan(y.asnumpy()).all() and np.isnan(x.grad.asnumpy()).all()
    np.testing.assert_array_equal(mx.nd.Dropout(x, p=1.0).asnumpy(), np.ones((2, 3)))  # not training


def test_output_layers_in_symbol_executor(rng):
    """The custom gradients hold through a bound symbol (the Module-era path)."""
    data, label = mx.sym.var('data'), mx.sym.var('label')
    net = mx.sym.LinearRegressionOutput(data, label, grad_scale=2.0, name='lro')
    x, y = rng.standard_normal((4, 2)), rng.standard_normal((4, 2))
    ex = net.simple_bind(mx.cpu(), data=(4, 2), label=(4, 2))
    ex.forward(is_train=True, data=nd(x), label=nd(y))
    ex.backward()
    np.testing.assert_allclose(ex.grad_dict['data'].asnumpy(), (x - y) * 2.0 / 2, rtol=1e-5)


# ---------------------------------------------------------------------------------------------
# RNN
# ---------------------------------------------------------------------------------------------

def _np_lstm(x, params, h, c, hidden, proj=None):
    """One unidirectional LSTM layer in numpy with MXNet's flat layout (i, f, g, o gates)."""
    ni, g4 = x.shape[2], 4 * hidden
    rec = proj or hidden
    pos = 0

    def take(n, shape):
        nonlocal pos
        out = params[pos:pos + n].reshape(shape)
        pos += n
        return out
    w_i = take(g4 * ni, (g4, ni))
    w_h = take(g4 * rec, (g4, rec))
    w_r = take(rec * hidden, (rec, hidden)) if proj else None
    b_i, b_h = take(g4, (g4,)), take(g4, (g4,))
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    outs = []
    for t in range(x.shape[0]):
        z = x[t] @ w_i.T + b_i + h @ w_h.T + b_h
        i, f, gg, o = np.split(z, 4, axis=1)
        c = sig(f) * c + sig(i) * np.tanh(gg)
        h = sig(o) * np.tanh(c)
        if proj:
            h = h @ w_r.T
        outs.append(h)
    return np.stack(outs), h, c


def test_rnn_lstm_projection_matches_numpy(rng):
    t, n, ni, hidden, proj = 4, 2, 3, 5, 2
    size = nn_rnn.rnn_param_size('lstm', ni, hidden, 1, projection_size=proj)
    assert size == 4 * hidden * (ni + proj) + proj * hidden + 8 * hidden
    x, p = rng.standard_normal((t, n, ni)), rng.standard_normal(size) * 0.5
    h0, c0 = rng.standard_normal((1, n, proj)), rng.standard_normal((1, n, hidden))
    out, hy, cy = mx.nd.RNN(nd(x, 'float64'), nd(p, 'float64'), nd(h0, 'float64'), nd(c0, 'float64'),
                            state_size=hidden, num_layers=1, mode='lstm', projection_size=proj, state_outputs=True)
    ref_out, ref_h, ref_c = _np_lstm(x, p, h0[0], c0[0], hidden, proj)
    np.testing.assert_allclose(out.asnumpy(), ref_out, rtol=1e-10)
    np.testing.assert_allclose(hy.asnumpy()[0], ref_h, rtol=1e-10)
    np.testing.assert_allclose(cy.asnumpy()[0], ref_c, rtol=1e-10)


@pytest.mark.parametrize('mode', ['lstm', 'gru'])
def test_rnn_sequence_length_equals_truncated_runs(rng, mode):
    """Each sequence behaves as if run alone up to its length; later outputs are 0."""
    t, n, ni, hidden = 5, 3, 2, 3
    size = nn_rnn.rnn_param_size(mode, ni, hidden, 1, bidirectional=True)
    x, p = rng.standard_normal((t, n, ni)), rng.standard_normal(size) * 0.5
    h0 = rng.standard_normal((2, n, hidden))
    states = [nd(h0)] + ([nd(rng.standard_normal((2, n, hidden)))] if mode == 'lstm' else [])
    lengths = [5, 2, 3]
    kw = dict(state_size=hidden, num_layers=1, mode=mode, bidirectional=True, state_outputs=True)
    out = mx.nd.RNN(nd(x), nd(p), *states, nd(lengths, 'int32'), use_sequence_length=True, **kw)
    for b, length in enumerate(lengths):
        single = mx.nd.RNN(nd(x[:length, b:b + 1]), nd(p), *[s[:, b:b + 1] for s in states], **kw)
        np.testing.assert_allclose(out[0].asnumpy()[:length, b], single[0].asnumpy()[:, 0], rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(out[0].asnumpy()[length:, b], 0)
        for got, want in zip(out[1:], single[1:]):
            np.testing.assert_allclose(got.asnumpy()[:, b], want.asnumpy()[:, 0], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('mode, layers, proj', [('lstm', 2, None), ('gru', 3, None), ('rnn_tanh', 1, None),
                                               ('lstm', 2, 2), ('rnn_relu', 2, None)])
def test_rnn_stepped_over_a_padded_length_equals_the_exact_run(rng, mode, layers, proj):
    """OpDef.steps: given ``_steps``, RNN runs only that many steps of longer (padded) data, with
    the exact run's outputs, final states and gradients; later outputs repeat the last real one
    and pass no gradient back."""
    t, real, n, ni, hidden = 9, 5, 3, 4, 6
    size = nn_rnn.rnn_param_size(mode, ni, hidden, layers, projection_size=proj)
    p = jnp.asarray(rng.standard_normal(size) * 0.4, jnp.float32)
    x = jnp.asarray(rng.standard_normal((t, n, ni)), jnp.float32)
    states = [jnp.asarray(rng.standard_normal((layers, n, proj or hidden)), jnp.float32)]
    if mode == 'lstm':
        states.append(jnp.asarray(rng.standard_normal((layers, n, hidden)), jnp.float32))
    op = get_op('RNN')
    attrs = op.parse_attrs(dict(state_size=hidden, num_layers=layers, mode=mode, state_outputs=True,
                                projection_size=proj))
    assert op.steps(attrs) == (0, 0)

    def loss(run, p, x, *states):
        outs = run(p, x, *states)
        return (outs[0][:real] ** 2).sum() + outs[0][:real].sum() + sum(o.sum() for o in outs[1:]), outs
    exact = lambda p, x, *states: op.fn(x[:real], p, *states, **attrs)
    stepped = lambda p, x, *states: op.fn(x, p, *states, **attrs, _steps=jnp.int32(real))
    argnums = tuple(range(2 + len(states)))
    (want, want_outs), want_grads = jax.value_and_grad(partial(loss, exact), argnums, has_aux=True)(p, x, *states)
    (got, got_outs), got_grads = jax.jit(jax.value_and_grad(partial(loss, stepped), argnums, has_aux=True))(
        p, x, *states)
    np.testing.assert_allclose(got_outs[0][:real], want_outs[0], rtol=1e-5, atol=1e-6)
    padded = got_outs[0][real:]
    np.testing.assert_array_equal(padded, np.broadcast_to(got_outs[0][real - 1], padded.shape))
    for g, w in zip(got_outs[1:], want_outs[1:]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    for g, w in zip(got_grads, want_grads):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(got_grads[1][real:], 0)
    assert get_op('RNN').steps(dict(attrs, bidirectional=True)) is None


def test_rnn_dropout_only_in_training(rng):
    size = nn_rnn.rnn_param_size('rnn_tanh', 3, 4, 2)
    args = [nd(rng.standard_normal((3, 2, 3))), nd(rng.standard_normal(size)), mx.nd.zeros((2, 2, 4))]
    kw = dict(state_size=4, num_layers=2, mode='rnn_tanh', p=0.5)
    a, b = mx.nd.RNN(*args, **kw).asnumpy(), mx.nd.RNN(*args, **kw).asnumpy()
    np.testing.assert_array_equal(a, b)
    mx.random.seed(1)
    with mx.autograd.record():
        c = mx.nd.RNN(*args, **kw).asnumpy()
    assert np.abs(c - a).max() > 1e-3


def test_rnn_errors():
    with pytest.raises(MXNetError, match=r'RNN: shape inconsistent for parameters, provided \[10\], inferred \[144\]'):
        mx.nd.RNN(mx.nd.ones((5, 2, 3)), mx.nd.ones(10), mx.nd.zeros((1, 2, 4)), mx.nd.zeros((1, 2, 4)),
                  state_size=4, num_layers=1, mode='lstm')
    with pytest.raises(MXNetError, match=r'RNN: shape inconsistent for state, provided \[2,2,4\], inferred \[1,2,4\]'):
        mx.nd.RNN(mx.nd.ones((5, 2, 3)), mx.nd.ones(108), mx.nd.zeros((2, 2, 4)), state_size=4, num_layers=1,
                  mode='gru')


def test_rnn_param_concat():
    out = mx.nd._rnn_param_concat(mx.nd.ones(2), mx.nd.zeros(3), dim=0)
    np.testing.assert_array_equal(out.asnumpy(), [1, 1, 0, 0, 0])


def test_batchnorm_v1_outputs_the_variance():
    """BatchNorm_v1 is BatchNorm over axis 1 whose third output is the variance (values printed
    by MXNet 1.9.1 for this input in training mode)."""
    rng = np.random.RandomState(0)
    x, gamma, beta = rng.rand(2, 3, 2, 2), rng.rand(3), rng.rand(3)
    moving_mean, moving_var = rng.rand(3), rng.rand(3) + 0.5
    sym = mx.sym.BatchNorm_v1(mx.sym.var('data'), fix_gamma=False, output_mean_var=True, name='bn')
    assert sym.list_arguments() == ['data', 'bn_gamma', 'bn_beta']
    assert sym.list_auxiliary_states() == ['bn_moving_mean', 'bn_moving_var']
    assert sym.list_outputs() == ['bn_output', 'bn_mean', 'bn_var']
    exe = sym.bind(mx.cpu(), args={'data': mx.nd.array(x), 'bn_gamma': mx.nd.array(gamma), 'bn_beta': mx.nd.array(beta)},
                   aux_states={'bn_moving_mean': mx.nd.array(moving_mean), 'bn_moving_var': mx.nd.array(moving_var)})
    out, mean, var = exe.forward(is_train=True)
    np.testing.assert_allclose(out.asnumpy().ravel()[:4], [0.9621938, 1.0335151, 0.9853208, 0.96050894], rtol=1e-5)
    np.testing.assert_allclose(mean.asnumpy(), [0.507932, 0.6124895, 0.7109387], rtol=1e-5)
    np.testing.assert_allclose(var.asnumpy(), x.transpose(1, 0, 2, 3).reshape(3, -1).var(axis=1), rtol=1e-4)


def test_fully_connected_takes_a_column_bias_as_mxnet_does():
    # MXNet's shape rule accepts a (num_hidden, 1) bias as well as (num_hidden,)
    data, weight = mx.nd.array(np.arange(6.).reshape(2, 3)), mx.nd.ones((4, 3))
    bias = mx.nd.array(np.arange(1., 5.).reshape(4, 1))
    out = mx.nd.FullyConnected(data, weight, bias, num_hidden=4).asnumpy()
    np.testing.assert_array_equal(out, data.asnumpy() @ weight.asnumpy().T + np.arange(1., 5.))
    fc = mx.sym.FullyConnected(mx.sym.var('d'), num_hidden=4, name='fc')
    assert fc.infer_shape(d=(2, 3), fc_bias=(4, 1)) == ([(2, 3), (4, 3), (4, 1)], [(2, 4)], [])


def _deformable_conv_reference(data, offset, weight, bias, stride, pad, dilate, num_group, deformable_groups):
    """MXNet's deformable convolution written out per output element: each kernel tap samples
    the input at its moved position, bilinearly, 0 outside [0, H) x [0, W), the last row and
    column taking their own values."""
    n, c, h, w = data.shape
    f, _, kh, kw = weight.shape
    out_h, out_w = offset.shape[2:]
    cols = np.zeros((n, c, kh, kw, out_h, out_w))
    for b, ch, i, j, oy, ox in itertools.product(range(n), range(c), range(kh), range(kw), range(out_h), range(out_w)):
        g = ch // (c // deformable_groups)
        k = 2 * (i * kw + j) + g * 2 * kh * kw
        y = oy * stride[0] - pad[0] + i * dilate[0] + offset[b, k, oy, ox]
        x = ox * stride[1] - pad[1] + j * dilate[1] + offset[b, k + 1, oy, ox]
        if not (0 <= y < h and 0 <= x < w):
            continue
        y, x = (h - 1 if np.floor(y) >= h - 1 else y), (w - 1 if np.floor(x) >= w - 1 else x)
        y0, x0 = int(np.floor(y)), int(np.floor(x))
        y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
        ly, lx = y - y0, x - x0
        img = data[b, ch]
        cols[b, ch, i, j, oy, ox] = ((1 - ly) * (1 - lx) * img[y0, x0] + (1 - ly) * lx * img[y0, x1]
                                     + ly * (1 - lx) * img[y1, x0] + ly * lx * img[y1, x1])
    cg, fg = c // num_group, f // num_group
    out = np.zeros((n, f, out_h, out_w))
    for g in range(num_group):
        out[:, g * fg:(g + 1) * fg] = np.einsum('nckluv,fckl->nfuv', cols[:, g * cg:(g + 1) * cg],
                                                 weight[g * fg:(g + 1) * fg])
    return out + bias.reshape(1, -1, 1, 1)


def test_deformable_convolution_matches_a_per_element_reference(rng):
    data = rng.random((2, 4, 5, 6)).astype(np.float32)
    weight = rng.random((6, 2, 3, 3)).astype(np.float32)
    bias = rng.random(6).astype(np.float32)
    offset = ((rng.random((2, 36, 5, 3)) - 0.5) * 6).astype(np.float32)   # some taps leave the image
    attrs = dict(kernel=(3, 3), pad=(2, 1), dilate=(2, 1), stride=(1, 2), num_filter=6, num_group=2,
                 num_deformable_group=2)
    out = mx.nd.contrib.DeformableConvolution(mx.nd.array(data), mx.nd.array(offset), mx.nd.array(weight),
                                              mx.nd.array(bias), **attrs)
    expect = _deformable_conv_reference(data, offset, weight, bias, (1, 2), (2, 1), (2, 1), 2, 2)
    np.testing.assert_allclose(out.asnumpy(), expect, rtol=1e-5, atol=1e-5)
    # zero offsets: an ordinary convolution; and its weight gradient is the convolution's
    args = [mx.nd.array(a) for a in (data, np.zeros((2, 18, 5, 6), np.float32), weight[:, :, :, :], bias)]
    conv_args = [args[0], args[2], args[3]]
    for a in args + conv_args:
        a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.contrib.DeformableConvolution(*args, kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=2)
    y.backward()
    w_grad = args[2].grad.asnumpy()
    with mx.autograd.record():
        z = mx.nd.Convolution(*conv_args, kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=2)
    z.backward()
    np.testing.assert_allclose(y.asnumpy(), z.asnumpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(w_grad, conv_args[1].grad.asnumpy(), rtol=1e-4, atol=1e-4)
    with pytest.raises(MXNetError, match=r'DeformableConvolution: offset must have shape \[2,18,5,6\], got \[2,9,5,6\]'):
        mx.nd.contrib.DeformableConvolution(args[0], args[1][:, :9], args[2], args[3], kernel=(3, 3), pad=(1, 1),
                                            num_filter=6, num_group=2)
