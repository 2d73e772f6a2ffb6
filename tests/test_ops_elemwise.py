"""Elementwise and reduction operators of the table against numpy, over several shapes and dtypes,
with gradients against central finite differences (float64 inputs).

MXNet-specific values (mod by zero, comparison dtypes) are MXNet 1.9.1's, noted where used.
"""
import numpy as np
import pytest

from gluonjax import autograd, nd
from gluonjax.base import MXNetError

SHAPES = [(5,), (2, 3, 4)]


def finite_difference(f, x, eps=1e-6):
    """d sum(f(x) * w) / dx by central differences, for a fixed random weighting w."""
    w = np.random.default_rng(9).uniform(0.5, 1.5, np.shape(f(x)))
    grad = np.zeros_like(x)
    flat, g = x.reshape(-1), grad.reshape(-1)
    for i in range(flat.size):
        old = flat[i]
        flat[i] = old + eps
        up = (f(x) * w).sum()
        flat[i] = old - eps
        down = (f(x) * w).sum()
        flat[i] = old
        g[i] = (up - down) / (2 * eps)
    return grad, w


def autograd_grads(fn, arrays, w):
    for a in arrays:
        a.attach_grad()
    with autograd.record():
        y = fn(*arrays)
        loss = (y * nd.array(w, dtype=y.dtype)).sum()
    loss.backward()
    return [a.grad.asnumpy() for a in arrays]


# name: (numpy reference, input range, differentiable)
UNARY = {
    'exp': (np.exp, (-2, 2), True), 'expm1': (np.expm1, (-2, 2), True), 'log': (np.log, (0.2, 3), True),
    'log10': (np.log10, (0.2, 3), True), 'log2': (np.log2, (0.2, 3), True), 'log1p': (np.log1p, (0, 3), True),
    'sqrt': (np.sqrt, (0.2, 3), True), 'rsqrt': (lambda x: 1 / np.sqrt(x), (0.2, 3), True),
    'cbrt': (np.cbrt, (0.2, 3), True), 'rcbrt': (lambda x: 1 / np.cbrt(x), (0.2, 3), True),
    'square': (np.square, (-2, 2), True), 'reciprocal': (lambda x: 1 / x, (0.5, 2), True),
    'abs': (np.abs, (-2, 2), True), 'sign': (np.sign, (-2, 2), False), 'negative': (np.negative, (-2, 2), True),
    'sin': (np.sin, (-2, 2), True), 'cos': (np.cos, (-2, 2), True), 'tan': (np.tan, (-1, 1), True),
    'arcsin': (np.arcsin, (-0.9, 0.9), True), 'arccos': (np.arccos, (-0.9, 0.9), True),
    'arctan': (np.arctan, (-2, 2), True), 'sinh': (np.sinh, (-2, 2), True), 'cosh': (np.cosh, (-2, 2), True),
    'tanh': (np.tanh, (-2, 2), True), 'arcsinh': (np.arcsinh, (-2, 2), True),
    'arccosh': (np.arccosh, (1.2, 3), True), 'arctanh': (np.arctanh, (-0.9, 0.9), True),
    'degrees': (np.degrees, (-2, 2), True), 'radians': (np.radians, (-90, 90), True),
    'sigmoid': (lambda x: 1 / (1 + np.exp(-x)), (-3, 3), True),
    'softsign': (lambda x: x / (1 + np.abs(x)), (-3, 3), True),
    'relu': (lambda x: np.maximum(x, 0), (-2, 2), True),
    'round': (np.round, (-3, 3), False), 'rint': (np.rint, (-3, 3), False), 'ceil': (np.ceil, (-3, 3), False),
    'floor': (np.floor, (-3, 3), False), 'trunc': (np.trunc, (-3, 3), False), 'fix': (np.fix, (-3, 3), False),
}


def _input(shape, lo, hi, dtype, seed=0):
    x = np.random.default_rng(seed).uniform(lo, hi, shape)
    if np.issubdtype(np.dtype(dtype), np.integer):
        x = np.round(x)
    return x.astype(dtype)


@pytest.mark.parametrize('dtype', ['float32', 'float64'])
@pytest.mark.parametrize('name', sorted(UNARY))
def test_unary_matches_numpy(name, dtype):
    ref, (lo, hi), _ = UNARY[name]
    for shape in SHAPES:
        x = _input(shape, lo, hi, dtype)
        if name in ('round', 'rint'):  # keep off .5, where rounding rules differ by library
            x = np.where(np.abs(x - np.trunc(x)) == 0.5, x + 0.1, x).astype(dtype)
        got = getattr(nd, name)(nd.array(x, dtype=dtype))
        assert got.dtype == np.dtype(dtype) and got.shape == shape, name
        np.testing.assert_allclose(got.asnumpy(), ref(x), rtol=1e-5 if dtype == 'float32' else 1e-12,
                                   atol=1e-6 if dtype == 'float32' else 1e-12, err_msg=name)


@pytest.mark.parametrize('name', sorted(n for n, (_, _, d) in UNARY.items() if d))
def test_unary_gradient_matches_finite_differences(name):
    ref, (lo, hi), _ = UNARY[name]
    x = _input((2, 3), lo, hi, 'float64', seed=1)
    if name in ('abs', 'relu'):  # away from the kink at 0
        x = np.where(np.abs(x) < 0.1, 0.5, x)
    want, w = finite_difference(ref, x.copy())
    got, = autograd_grads(getattr(nd, name), [nd.array(x, dtype='float64')], w)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7, err_msg=name)


@pytest.mark.parametrize('name', ['round', 'floor', 'ceil', 'sign', 'trunc'])
def test_piecewise_constant_unary_have_zero_gradient(name):
    got, = autograd_grads(getattr(nd, name), [nd.array([[-1.3, 0.7, 2.2]])], np.ones((1, 3)))
    np.testing.assert_array_equal(got, np.zeros((1, 3), np.float32))


BINARY = {
    'broadcast_add': (np.add, (-2, 2), True), 'broadcast_sub': (np.subtract, (-2, 2), True),
    'broadcast_mul': (np.multiply, (-2, 2), True), 'broadcast_div': (np.divide, (0.5, 2), True),
    'broadcast_mod': (np.mod, (0.5, 4), True), 'broadcast_power': (np.power, (0.5, 2), True),
    'broadcast_maximum': (np.maximum, (-2, 2), True), 'broadcast_minimum': (np.minimum, (-2, 2), True),
    'broadcast_hypot': (np.hypot, (0.5, 2), True), 'arctan2': (np.arctan2, (0.5, 2), True),
    'broadcast_equal': (np.equal, (-2, 2), False), 'broadcast_not_equal': (np.not_equal, (-2, 2), False),
    'broadcast_greater': (np.greater, (-2, 2), False),
    'broadcast_greater_equal': (np.greater_equal, (-2, 2), False),
    'broadcast_lesser': (np.less, (-2, 2), False), 'broadcast_lesser_equal': (np.less_equal, (-2, 2), False),
    'broadcast_logical_and': (np.logical_and, (-1, 1), False),
    'broadcast_logical_or': (np.logical_or, (-1, 1), False),
    'broadcast_logical_xor': (np.logical_xor, (-1, 1), False),
}
BROADCAST_PAIRS = [((2, 3), (2, 3)), ((2, 1, 4), (3, 1)), ((1,), (2, 3)), ((4, 1), (1, 5))]
INT_SAFE = {'broadcast_add', 'broadcast_sub', 'broadcast_mul', 'broadcast_maximum', 'broadcast_minimum',
            'broadcast_equal', 'broadcast_not_equal', 'broadcast_greater', 'broadcast_greater_equal',
            'broadcast_lesser', 'broadcast_lesser_equal', 'broadcast_logical_and', 'broadcast_logical_or',
            'broadcast_logical_xor', 'broadcast_mod'}


@pytest.mark.parametrize('dtype', ['float32', 'float64', 'int32'])
@pytest.mark.parametrize('name', sorted(BINARY))
def test_binary_broadcast_matches_numpy(name, dtype):
    if dtype == 'int32' and name not in INT_SAFE:
        pytest.skip('float-only operator')
    ref, (lo, hi), _ = BINARY[name]
    for i, (sa, sb) in enumerate(BROADCAST_PAIRS):
        a, b = _input(sa, lo, hi, dtype, seed=i), _input(sb, lo, hi, dtype, seed=i + 10)
        if name == 'broadcast_equal':  # make some entries equal
            b = np.broadcast_to(a[..., :1] if a.ndim == len(sb) else b, sb).copy() if sa == sb else b
        got = getattr(nd, name)(nd.array(a, dtype=dtype), nd.array(b, dtype=dtype))
        want = ref(a, b)
        # MXNet: comparisons and logical operators give 0/1 in the input dtype
        assert got.dtype == np.dtype(dtype) and got.shape == want.shape, (name, sa, sb)
        np.testing.assert_allclose(got.asnumpy(), want.astype(dtype), rtol=1e-6, atol=1e-6,
                                   err_msg='%s %s %s' % (name, sa, sb))


@pytest.mark.parametrize('name', sorted(n for n, (_, _, d) in BINARY.items() if d))
def test_binary_gradient_matches_finite_differences_with_broadcast(name):
    ref, (lo, hi), _ = BINARY[name]
    a, b = _input((2, 1, 3), lo, hi, 'float64', seed=3), _input((4, 1), lo, hi, 'float64', seed=4)
    if name in ('broadcast_maximum', 'broadcast_minimum'):
        b = b + 0.05  # no ties
    want_a, w = finite_difference(lambda v: ref(v, b), a.copy())
    want_b, _ = finite_difference(lambda v: ref(a, v), b.copy())
    got_a, got_b = autograd_grads(getattr(nd, name), [nd.array(a, dtype='float64'),
                                                     nd.array(b, dtype='float64')], w)
    np.testing.assert_allclose(got_a, want_a, rtol=1e-5, atol=1e-7, err_msg=name)
    if name != 'broadcast_mod':  # MXNet's mod gradient for the divisor is -floor(a/b), as numpy's
        np.testing.assert_allclose(got_b, want_b, rtol=1e-5, atol=1e-7, err_msg=name)


def test_mod_by_zero_is_zero_as_in_mxnet():
    """MXNet 1.9.1: [-5.5, 5.5, -3, 2] % [3, -3, 2, 0] -> [0.5, -0.5, 1, 0]; int32 5 % 0 -> 0;
    the gradient for a stays 1 where b is 0."""
    a = nd.array([-5.5, 5.5, -3, 2])
    np.testing.assert_array_equal((a % nd.array([3, -3, 2, 0])).asnumpy(), [0.5, -0.5, 1, 0])
    np.testing.assert_array_equal((nd.array([-5, 5, 0], dtype='int32') % nd.array([3, 0, 0], dtype='int32'))
                                  .asnumpy(), [1, 0, 0])
    np.testing.assert_array_equal((a % 0).asnumpy(), [0, 0, 0, 0])
    got, = autograd_grads(lambda x: x % nd.array([3, 0]), [nd.array([-5.5, 5.5])], np.ones(2))
    np.testing.assert_array_equal(got, [1, 1])


SCALAR_CASES = [
    (lambda x: x + 2.5, lambda x: x + 2.5), (lambda x: 2.5 - x, lambda x: 2.5 - x),
    (lambda x: x * -1.5, lambda x: x * -1.5), (lambda x: x / 4, lambda x: x / 4),
    (lambda x: 3 / x, lambda x: 3 / x), (lambda x: x % 0.7, lambda x: np.mod(x, 0.7)),
    (lambda x: 5 % x, lambda x: np.mod(5, x)), (lambda x: x ** 3, lambda x: x ** 3),
    (lambda x: 2 ** x, lambda x: 2.0 ** x), (lambda x: nd.maximum(x, 1.2), lambda x: np.maximum(x, 1.2)),
    (lambda x: nd.minimum(x, 1.2), lambda x: np.minimum(x, 1.2)),
    (lambda x: x > 1.1, lambda x: (x > 1.1).astype(float)), (lambda x: x <= 1.1, lambda x: (x <= 1.1).astype(float)),
    (lambda x: x == 1.1, lambda x: (x == 1.1).astype(float)), (lambda x: x != 1.1, lambda x: (x != 1.1).astype(float)),
]


@pytest.mark.parametrize('case', range(len(SCALAR_CASES)))
def test_scalar_operators_match_numpy_and_keep_dtype(case):
    fn, ref = SCALAR_CASES[case]
    x = np.array([[0.6, 1.1, 1.7], [2.2, 2.6, 3.3]])  # away from the jumps of mod
    for dtype in ('float32', 'float64'):
        got = fn(nd.array(x, dtype=dtype))
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got.asnumpy(), ref(x.astype(dtype)), rtol=1e-6)
    if case < 11:  # the differentiable ones
        want, w = finite_difference(ref, x.copy())
        got, = autograd_grads(fn, [nd.array(x, dtype='float64')], w)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


REDUCE = {'sum': np.sum, 'mean': np.mean, 'max': np.max, 'min': np.min, 'prod': np.prod,
          'nansum': np.nansum, 'nanprod': np.nanprod}
AXES = [None, 0, -1, (0, 2)]


@pytest.mark.parametrize('dtype', ['float32', 'float64'])
@pytest.mark.parametrize('name', sorted(REDUCE))
def test_reductions_match_numpy(name, dtype):
    x = _input((2, 3, 4), 0.5, 1.5, dtype)
    for axis in AXES:
        for keepdims in (False, True):
            got = getattr(nd, name)(nd.array(x, dtype=dtype), axis=axis, keepdims=keepdims)
            want = np.asarray(REDUCE[name](x, axis=axis, keepdims=keepdims))
            if want.ndim == 0:  # MXNet: a full reduction gives shape (1,)
                want = want.reshape(1)
            assert got.dtype == np.dtype(dtype) and got.shape == want.shape, (name, axis, keepdims)
            np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, err_msg='%s %s' % (name, axis))
        # exclude=True reduces every axis but the given ones
        if axis is not None:
            keep = {a % 3 for a in np.atleast_1d(axis)}
            other = tuple(a for a in range(3) if a not in keep)
            got = getattr(nd, name)(nd.array(x, dtype=dtype), axis=axis, exclude=True)
            np.testing.assert_allclose(got.asnumpy(), REDUCE[name](x, axis=other), rtol=1e-5)


@pytest.mark.parametrize('name', ['sum', 'mean', 'max', 'min', 'prod'])
@pytest.mark.parametrize('axis', [None, 1, (0, 2)])
def test_reduction_gradients_match_finite_differences(name, axis):
    x = _input((2, 3, 4), 0.5, 1.5, 'float64', seed=5)
    ref = REDUCE[name]
    want, w = finite_difference(lambda v: np.asarray(ref(v, axis=axis)).reshape(np.shape(ref(x, axis=axis)) or (1,)),
                                x.copy())
    got, = autograd_grads(lambda a: getattr(nd, name)(a, axis=axis), [nd.array(x, dtype='float64')], w)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize('ord_, axis', [(2, None), (2, 1), (1, 1), (2, (0, 2))])
def test_norm_values_and_gradient(ord_, axis):
    x = _input((2, 3, 4), -1.5, 1.5, 'float64', seed=6)
    x = np.where(np.abs(x) < 0.1, 0.3, x)

    def ref(v):
        r = np.linalg.norm(v.reshape(-1)) if axis is None and ord_ == 2 else (
            np.sqrt((v ** 2).sum(axis=axis)) if ord_ == 2 else np.abs(v).sum(axis=axis))
        return np.asarray(r).reshape(-1) if np.ndim(r) == 0 else r
    got = nd.norm(nd.array(x, dtype='float64'), ord=ord_, axis=axis)
    np.testing.assert_allclose(got.asnumpy(), ref(x), rtol=1e-10)
    want, w = finite_difference(ref, x.copy())
    g, = autograd_grads(lambda a: nd.norm(a, ord=ord_, axis=axis), [nd.array(x, dtype='float64')], w)
    np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize('name', ['argmax', 'argmin'])
def test_arg_reductions_give_float_indices(name):
    x = _input((2, 3, 4), -1, 1, 'float32', seed=7)
    for axis in (0, 1, 2):
        for keepdims in (False, True):
            got = getattr(nd, name)(nd.array(x), axis=axis, keepdims=keepdims)
            want = getattr(np, name)(x, axis=axis)
            if keepdims:
                want = np.expand_dims(want, axis)
            assert got.dtype == np.float32  # MXNet returns indices as float32
            np.testing.assert_array_equal(got.asnumpy(), want)


def test_binary_shape_mismatch_names_operator_and_shapes():
    with pytest.raises(MXNetError, match=r'broadcast_mul.*\[2,3\].*\[4\]'):
        nd.broadcast_mul(nd.ones((2, 3)), nd.ones((4,)))
    with pytest.raises(MXNetError, match=r'elemwise_add.*\[2,3\].*\[3,2\]'):
        nd.elemwise_add(nd.ones((2, 3)), nd.ones((3, 2)))


def test_round_and_rint_follow_mxnet():
    """round: halves away from zero (C round); rint: the floor on a tie (MXNet's kernel)."""
    x = nd.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.49999997, -2.7])
    np.testing.assert_array_equal(nd.round(x).asnumpy(), [1, 2, 3, -1, -2, 0, -3])
    np.testing.assert_array_equal(nd.rint(x).asnumpy(), [0, 1, 2, -1, -2, 0, -3])
    np.testing.assert_array_equal(nd.round(nd.array([3, -3], dtype='int32')).asnumpy(), [3, -3])


def test_nd_arithmetic_needs_equal_dtypes():
    a, i = nd.ones((2,)), nd.ones((2,), dtype='int32')
    with pytest.raises(MXNetError, match=r'broadcast_add: the inputs must have the same dtype.*float32.*int32'):
        a + i
    with pytest.raises(MXNetError, match='broadcast_mul: the inputs must have the same dtype'):
        nd.multiply(a, i)
    with pytest.raises(MXNetError, match='broadcast_greater'):
        a > i


def test_argmax_returns_input_dtype():
    x = nd.array([[3, 1, 2], [6, 5, 9]], dtype='int32')
    y = nd.argmax(x, axis=1)
    assert y.dtype == np.int32 and y.asnumpy().tolist() == [0, 2]
    assert nd.argmin(x.astype('float16'), axis=0).dtype == np.float16


def test_contrib_formulas_match_numpy():
    """div_sqrt_dim, quadratic and smooth_l1 (values printed by MXNet 1.9.1 for this input)."""
    x = np.array([[0.5, -1, 2.2], [3, 0.1, -2.6]], 'float32')
    np.testing.assert_array_equal(nd.contrib.div_sqrt_dim(nd.array(x)).asnumpy(), x / np.sqrt(np.float32(3)))
    np.testing.assert_allclose(nd.contrib.quadratic(nd.array(x), a=1, b=2, c=3).asnumpy(),
                               [[4.25, 2, 12.24], [18, 3.21, 4.56]], rtol=1e-6)
    np.testing.assert_allclose(nd.smooth_l1(nd.array(x), scalar=1.5).asnumpy(),
                               [[0.2777778, 0.7777778, 1.9777778], [2.7777777, 0.01125, 2.3777776]], rtol=1e-6)
    np.testing.assert_allclose(nd.smooth_l1(nd.array([0.3, 2.0])).asnumpy(), [0.045, 1.5], rtol=1e-6)  # sigma 1
    g = nd.array(x)
    g.attach_grad()
    with autograd.record():
        y = nd.contrib.quadratic(g, a=0.5, b=-1.0, c=7.0)
    y.backward()
    np.testing.assert_allclose(g.grad.asnumpy(), x - 1, rtol=1e-6)


def test_allclose_and_all_finite():
    x = nd.array([[0.5, -1, 2.2], [3, 0.1, -2.6]])
    close = nd.contrib.allclose(x, x + 1e-9)
    assert close.dtype == np.uint8 and close.shape == () and close.asscalar() == 1
    assert nd.contrib.allclose(x, x + 1).asscalar() == 0
    assert nd.contrib.allclose(x, x + 0.5, atol=0.6).asscalar() == 1
    assert nd.all_finite(x).asnumpy().tolist() == [1.0]
    assert nd.all_finite(x / 0).asnumpy().tolist() == [0.0]
    assert nd.multi_all_finite(x, x, num_arrays=2).asnumpy().tolist() == [1.0]
    assert nd.multi_all_finite(x, x / 0).asnumpy().tolist() == [0.0]
    with pytest.raises(MXNetError, match='allclose: a \\[2,3\\] and b \\[3\\]'):
        nd.contrib.allclose(x, nd.ones(3))


def test_histogram_matches_numpy():
    rng = np.random.RandomState(0)
    data = rng.randn(4, 5) * 2
    counts, edges = nd.histogram(nd.array(data, dtype='float64'), bins=6, range=(-2.5, 2.5))
    want_counts, want_edges = np.histogram(data, bins=6, range=(-2.5, 2.5))
    assert counts.dtype == np.int64
    np.testing.assert_array_equal(counts.asnumpy(), want_counts)
    np.testing.assert_allclose(edges.asnumpy(), want_edges)
    bins = np.array([-1.0, 0.5, 2.0, 4.5, 50.0])
    counts, edges = nd.histogram(nd.array(data, dtype='float64'), bins=nd.array(bins, dtype='float64'))
    np.testing.assert_array_equal(counts.asnumpy(), np.histogram(data, bins=bins)[0])
    np.testing.assert_array_equal(edges.asnumpy(), bins)
    with pytest.raises(MXNetError, match='bin_cnt and range must both be given'):
        nd._histogram(nd.array(data), bin_cnt=3)


def test_quantize_and_dequantize_match_mxnet():
    """Values printed by MXNet 1.9.1: half-to-even rounding, int8 down to -128, R / 255.5 back."""
    x = nd.array([0.1, 0.25, 0.5, 0.7, 0.9, 1.0, 1.3, -2])
    q, low, high = nd.contrib.quantize(x, nd.array([0.2]), nd.array([1.0]), out_type='uint8')
    assert q.dtype == np.uint8 and q.asnumpy().tolist() == [26, 64, 128, 178, 230, 255, 255, 0]
    assert (low.asnumpy().tolist(), high.asnumpy().tolist()) == ([np.float32(0.2)], [1.0])
    np.testing.assert_allclose(nd.contrib.dequantize(q, low, high).asnumpy(),
                               [0.10176, 0.25049, 0.50098, 0.69667, 0.9002, 0.99804, 0.99804, 0], atol=1e-5)
    q, low, high = nd.contrib.quantize(x, nd.array([0.2]), nd.array([1.0]), out_type='int8')
    assert q.dtype == np.int8 and q.asnumpy().tolist() == [13, 32, 64, 89, 114, 127, 127, -128]
    assert (low.asnumpy().tolist(), high.asnumpy().tolist()) == ([-1.0], [1.0])
    np.testing.assert_allclose(nd.contrib.dequantize(q, low, high).asnumpy(),
                               [0.10196, 0.25098, 0.50196, 0.69804, 0.89412, 0.99608, 0.99608, -1.00392], atol=1e-5)
    with pytest.raises(MXNetError, match="out_type.*valid values are: {'int8', 'uint8'}"):
        nd.contrib.quantize(x, nd.array([0.0]), nd.array([1.0]), out_type='int4')


def test_maximum_minimum_hypot_gradients_follow_mxnet():
    """Recorded from MXNet 1.9.1: ties give the whole gradient to the lhs, a NaN comparison none,
    and hypot's gradient a / hypot(a, b) is NaN at the origin."""
    a, b = nd.array([np.nan, 1, 2, 0]), nd.array([1, np.nan, 2, 0])
    a.attach_grad()
    b.attach_grad()
    for fn, lhs, rhs in ((nd.broadcast_minimum, [0, 0, 1, 1], [0, 0, 0, 0]),
                         (nd.broadcast_maximum, [0, 0, 1, 1], [0, 0, 0, 0])):
        with autograd.record():
            y = fn(a, b)
        y.backward()
        np.testing.assert_array_equal(a.grad.asnumpy(), lhs)
        np.testing.assert_array_equal(b.grad.asnumpy(), rhs)
    x, y = nd.array([0.0, 3.0]), nd.array([0.0, 4.0])
    x.attach_grad()
    with autograd.record():
        out = nd.broadcast_hypot(x, y)
    out.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [np.nan, 0.6], rtol=1e-6)
    r = nd.array([-1.0, 0.0, 2.0])
    r.attach_grad()
    with autograd.record():
        out = nd.relu(r)
    out.backward()
    np.testing.assert_array_equal(r.grad.asnumpy(), [0, 0, 1])  # no gradient at 0
    with autograd.record():
        out = nd.abs(r)
    out.backward()
    np.testing.assert_array_equal(r.grad.asnumpy(), [-1, 0, 1])  # sign(x)


def test_maximum_of_row_sparse_arrays_stays_row_sparse():
    a = nd.array([[1, 0], [0, 0], [0, -2]]).tostype('row_sparse')
    b = nd.array([[0, 0], [3, 0], [0, 0]]).tostype('row_sparse')
    out = nd._internal._maximum(a, b)
    assert out.stype == 'row_sparse' and out.indices.asnumpy().tolist() == [0, 1, 2]
    np.testing.assert_array_equal(out.asnumpy(), [[1, 0], [3, 0], [0, 0]])
    assert nd._internal._hypot(a, nd.ones((3, 2))).stype == 'default'


def test_gamma_and_gammaln_follow_mxnet_with_negative_arguments_and_poles():
    """Recorded from MXNet 1.9.1: gamma keeps its sign for negative x; the gradients are
    gamma * psi and psi, +inf at the pole 0."""
    x = nd.array([0.0, 1.5, -0.5])
    x.attach_grad()
    with autograd.record():
        y = nd.gamma(x)
    y.backward()
    np.testing.assert_allclose(y.asnumpy(), [np.inf, 0.88622695, -3.544908], rtol=1e-5)
    np.testing.assert_allclose(x.grad.asnumpy(), [np.inf, 0.03233835, -0.12935339], rtol=1e-4)
    with autograd.record():
        y = nd.gammaln(x)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [np.inf, 0.03648992, 0.03648992], rtol=1e-4)


def test_relu_keeps_nan_and_so_does_its_gradient():
    # MXNet's relu_grad is NaN at NaN inputs (test_ndarray_nan_comparison relies on it)
    x = nd.array([np.nan, -1, 0, 2])
    x.attach_grad()
    with autograd.record():
        y = nd.relu(x)
    y.backward()
    np.testing.assert_array_equal(y.asnumpy(), [np.nan, 0, 0, 2])
    np.testing.assert_array_equal(x.grad.asnumpy(), [np.nan, 0, 0, 1])


def test_scalar_zeros_of_either_sign_and_nan_keep_their_own_kernels():
    # the scalar of `x * s` is the cached kernel's: -0.0 == 0.0 must not share one, nor NaN miss it
    from gluonjax.ops import _kernel
    x = nd.array([1.0, -2.0])
    for first, second in ((-0.0, 0.0), (0.0, -0.0)):
        np.testing.assert_array_equal(np.signbit((x * first).asnumpy()), np.signbit(np.array([1.0, -2.0]) * first))
        np.testing.assert_array_equal(np.signbit((x * second).asnumpy()), np.signbit(np.array([1.0, -2.0]) * second))
    np.testing.assert_array_equal(np.signbit((x * np.float32(-0.0)).asnumpy()), [True, False])
    before = len(_kernel._cache)
    for _ in range(5):
        assert np.isnan((x * float('nan')).asnumpy()).all()
    assert len(_kernel._cache) - before <= 1
