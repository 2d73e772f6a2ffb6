"""mx.np behaviour pinned to MXNet 1.9.1 for its test_numpy_op.py: gradients of integer arrays
(ops/_int_grads.py) against what MXNet computed for the same calls (it runs the backward in the
integer type, truncating), reductions over ``axis=()``, integer ``around``, hybridized splits."""
import numpy as onp
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, np


pytestmark = pytest.mark.usefixtures('np_mode')  # tests/conftest.py


def _x():
    return np.array([[1, 2], [3, 4]], dtype='int32')


def _z():
    return np.array([[3, 5], [7, 2]], dtype='int32')


# name, function, inputs, MXNet 1.9.1's gradients of the inputs
CASES = [
    ('flip', lambda a: np.flip(a, 0), [_x], [[[1, 1], [1, 1]]]),
    ('roll', lambda a: np.roll(a, 1), [_x], [[[1, 1], [1, 1]]]),
    ('diag', lambda a: np.diag(a), [_x], [[[1, 0], [0, 1]]]),
    ('trace', lambda a: np.trace(a), [_x], [[[1, 0], [0, 1]]]),
    ('cumsum', lambda a: np.cumsum(a), [_x], [[[4, 3], [2, 1]]]),
    ('getitem', lambda a: a[1], [_x], [[[0, 0], [1, 1]]]),
    ('transpose', lambda a: a.T * 3, [_x], [[[3, 3], [3, 3]]]),
    ('sum to float', lambda a: np.sum(a, dtype='float32'), [_x], [[[1, 1], [1, 1]]]),
    ('mean truncates 1/4', lambda a: np.mean(a), [_x], [[[0, 0], [0, 0]]]),
    ('exp truncates', lambda a: np.exp(a), [_x], [[[2, 7], [20, 54]]]),
    ('cast passes through', lambda a: a.astype('float32') * 2, [_x], [[[2, 2], [2, 2]]]),
    ('multiply', lambda a, b: a * b, [_x, _z], [[[3, 5], [7, 2]], [[1, 2], [3, 4]]]),
    ('subtract', lambda a, b: a - b, [_x, _z], [[[1, 1], [1, 1]], [[-1, -1], [-1, -1]]]),
    ('maximum', lambda a, b: np.maximum(a, b), [_x, _z], [[[0, 0], [0, 1]], [[1, 1], [1, 0]]]),
    ('mod is zero', lambda a, b: np.mod(a, b), [_x, _z], [[[0, 0], [0, 0]], [[0, 0], [0, 0]]]),
    ('concatenate', lambda a, b: np.concatenate([a, b]), [_x, _z], [[[1, 1], [1, 1]], [[1, 1], [1, 1]]]),
]


@pytest.mark.parametrize('hybridize', [False, True])
@pytest.mark.parametrize('name, fn, makers, expected', CASES, ids=[c[0] for c in CASES])
def test_integer_gradients_match_mxnet(name, fn, makers, expected, hybridize):
    class Net(gluon.HybridBlock):
        def hybrid_forward(self, F, *args):
            return fn(*args)
    net = Net()
    if hybridize:
        net.hybridize()
    xs = [make() for make in makers]
    for x in xs:
        x.attach_grad()
    with autograd.record():
        y = net(*xs)
    y.backward()
    for x, want in zip(xs, expected):
        assert x.grad.dtype == onp.int32
        assert x.grad.asnumpy().tolist() == want


def test_float_to_integer_cast_passes_the_gradient():
    x = np.array([1.5, 2.5])
    x.attach_grad()
    with autograd.record():
        y = (x * 2).astype('int32')
    y.backward()
    assert x.grad.asnumpy().tolist() == [2.0, 2.0]  # MXNet's Cast backward


def test_int8_gradient_wraps_as_mxnet():
    x = np.array([100, 100], dtype='int8')
    x.attach_grad()
    with autograd.record():
        y = np.sum(x * x)
    y.backward()
    assert x.grad.asnumpy().tolist() == [-56, -56]  # 2 * 100 in int8


def test_backward_through_a_comparison_feeding_where():
    x = np.array([[1., 2.], [3., 4.]])
    x.attach_grad()
    with autograd.record():
        y = np.where(x > 2, x, x * 3)
    y.backward()
    assert x.grad.asnumpy().tolist() == [[3, 3], [1, 1]]


@pytest.mark.parametrize('fn', ['sum', 'prod', 'max', 'min', 'mean', 'std', 'var', 'all', 'any'])
def test_reduction_over_no_axes_keeps_the_array(fn):
    x = onp.arange(1, 7, dtype='float32').reshape(2, 3)
    for keepdims in (False, True):
        out = getattr(np, fn)(np.array(x), axis=(), keepdims=keepdims)
        onp.testing.assert_allclose(out.asnumpy(), getattr(onp, fn)(x, axis=(), keepdims=keepdims))


def test_arange_with_step_none():
    assert np.arange(0, 5, None).asnumpy().tolist() == [0, 1, 2, 3, 4]


def test_integer_around_with_negative_decimals_truncates_as_mxnet():
    x = np.array([15, 25, -15, -25, 14, 126, 5, -5, 123456], dtype='int32')
    assert np.around(x, -1).asnumpy().tolist() == [10, 20, -10, -20, 10, 120, 0, 0, 123450]
    assert np.around(x, -2).asnumpy().tolist() == [0, 0, 0, 0, 0, 100, 0, 0, 123400]
    assert np.around(np.array([126, 5], dtype='int8'), -3).asnumpy().tolist() == [0, 0]


def test_float_around_scales_by_ten_one_step_at_a_time_as_mxnet():
    # MXNet 1.9.1's values: x*10*10 rounded and divided by 10 twice in float32 (7.39 -> 7.3900003,
    # where one division by 100 gives 7.3899999), in eager and compiled code alike
    x = np.array([7.3890562, 0.125, 54.598148, 1234.5678], dtype='float32')
    expected = [[7.390000343322754, 0.12000000476837158, 54.599998474121094, 1234.570068359375],
                [7.389100551605225, 0.125, 54.59819793701172, 1234.5677490234375]]
    net = gluon.nn.HybridLambda(lambda F, v: F.np.round(v, 2))
    net.hybridize()
    for decimals, values in zip((2, 4), expected):
        assert np.round(x, decimals).asnumpy().tolist() == values
    assert net(x).asnumpy().tolist() == expected[0]
    assert np.round(x, -1).asnumpy().tolist() == [10.0, 0.0, 50.0, 1230.0]
    with pytest.raises(mx.base.MXNetError, match='float16'):  # MXNet's kernel has no float16 variant
        np.round(x.astype('float16'), 1)


def test_index_arrays_must_broadcast_before_their_bounds_are_checked():
    a = np.arange(6).reshape(2, 3)
    with pytest.raises(ValueError, match='do not broadcast'):  # MXNet's ValueError, checked first
        a[[0, 5, 1], np.array([0, 1])]
    with pytest.raises(ValueError, match='do not broadcast'):
        mx.nd.arange(6).reshape((2, 3))[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match='out of bounds'):
        a[[0, 5], [0, 1]]
    assert a[[0, 1], [[0], [1], [2]]].shape == (3, 2)


def test_hybridized_splits_give_one_array_per_piece():
    class Net(gluon.HybridBlock):
        def hybrid_forward(self, F, a):
            return F.np.hsplit(a, (3,)) + F.np.split(a, 2) + F.np.array_split(a, 3)
    for hybridize in (False, True):
        net = Net()
        if hybridize:
            net.hybridize()
        assert [p.shape for p in net(np.ones((10,)))] == [(3,), (7,), (5,), (5,), (4,), (3,), (3,)]


def test_full_like_eagerly_and_hybridized():
    class Net(gluon.HybridBlock):
        def hybrid_forward(self, F, a):
            return F.np.full_like(a, 2.5, dtype='int32') + F.np.full_like(a, True)
    a = np.ones((2, 3), dtype='float64')
    for hybridize in (False, True):
        net = Net()
        if hybridize:
            net.hybridize()
        out = net(a)
        assert out.dtype == onp.float64 and out.asnumpy().tolist() == [[3.0] * 3] * 2
    assert np.full_like(np.ones((2,), dtype='bool'), 2).asnumpy().tolist() == [True, True]


@pytest.mark.parametrize('order', [1, -1, 2, float('inf'), 'fro'])
def test_hybridized_matrix_norm_orders(order):
    class Net(gluon.HybridBlock):
        def hybrid_forward(self, F, a):
            return F.np.linalg.norm(a, ord=order, axis=(0, 1))
    x = onp.arange(-3, 3, dtype='float32').reshape(2, 3)
    net = Net()
    net.hybridize()
    onp.testing.assert_allclose(net(np.array(x)).asnumpy(), onp.linalg.norm(x, ord=order, axis=(0, 1)), rtol=1e-5)
