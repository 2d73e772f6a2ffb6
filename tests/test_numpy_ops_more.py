"""mx.np behaviour fixed for MXNet's test_numpy_op.py (issue 15, session 9): reductions' dtypes,
lcm/copysign/ldexp, np.eye, broadcast_to's -2, hsplit at indices, random.choice as an operator,
views of basic indexing, average(returned=True) and zero-size inputs in hybridized blocks. Expected
values are NumPy's or MXNet 1.9.1's (noted where they differ from NumPy)."""
import numpy as onp
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, np, npx


pytestmark = pytest.mark.usefixtures('np_mode')  # tests/conftest.py


class _Fn(gluon.HybridBlock):
    """A hybridizable block calling ``fn(F, *inputs)``."""

    def __init__(self, fn):
        super().__init__()
        self._fn = fn

    def hybrid_forward(self, F, *args):
        return self._fn(F, *args)


def _both(fn, *inputs):
    """fn's outputs eagerly and hybridized."""
    eager = _Fn(fn)(*inputs)
    block = _Fn(fn)
    block.hybridize()
    return eager, block(*inputs)


def test_sum_accumulates_integers_wide_and_casts_to_dtype():
    x = np.array([100, 100, -50, 80], dtype='int8')
    assert np.sum(x).item() == -26 and np.sum(x).dtype == onp.int8  # MXNet keeps int8 (wrapping)
    assert np.sum(x, dtype='int32').item() == 230
    assert np.sum(x, dtype='float32').item() == 230.0
    f = np.array([1.5, 1.5, -1.7], dtype='float32')
    assert np.sum(f, dtype='int8').item() == 1  # the float sum 1.3, cast: MXNet's result
    assert np.prod(f, dtype='int32').item() == -3  # -3.825 cast (1 * 1 * -1 would be -1)
    onp.testing.assert_allclose(np.sum(np.ones((2, 3)), axis=1, initial=2.0).asnumpy(), [5, 5])


def test_mean_with_integer_dtype_wraps_then_truncates_as_mxnet():
    x = np.array([100, 100, 101], dtype='int8')
    assert np.mean(x, dtype='int8').item() == 15  # 301 wraps to 45 in int8, 45 / 3
    assert np.mean(x, dtype='int32').item() == 100
    assert np.mean(np.array([-7, -8, 0], dtype='int8'), dtype='int32').item() == -5  # towards zero
    onp.testing.assert_allclose(np.mean(x).asnumpy(), 100.333336, rtol=1e-6)
    assert np.mean(x).dtype == onp.float32
    assert np.mean(np.array([1.5, 3.3], dtype='float32'), dtype='int8').item() == 2


def test_average_returned_works_hybridized():
    a = onp.random.uniform(-1, 1, (2, 3, 4)).astype('float32')
    for axis in (None, 1):
        ref, ref_sum = onp.average(a, axis=axis, returned=True)
        for avg, wsum in _both(lambda F, x: F.np.average(x, axis=axis, returned=True), np.array(a)):
            onp.testing.assert_allclose(avg.asnumpy(), ref, rtol=1e-5)
            onp.testing.assert_allclose(wsum.asnumpy(), ref_sum)


def test_lcm_copysign_ldexp():
    a = np.array([-12, 18, 0, 7], dtype='int32')
    b = np.array([8, -12, 5, 0], dtype='int32')
    for out in _both(lambda F, x, y: F.np.lcm(x, y), a, b):
        assert out.asnumpy().tolist() == onp.lcm(a.asnumpy(), b.asnumpy()).tolist() == [24, 36, 0, 0]
    assert np.lcm(a, 4).asnumpy().tolist() == [12, 36, 0, 28]
    with pytest.raises(mx.MXNetError, match='lcm'):
        np.lcm(a.astype('float32'), b)
    x = np.array([1.5, -2., 0., 3.])
    y = np.array([-1., 2., -0., -3.])
    # MXNet reads -0.0 as positive (NumPy would give -0.0 and -2 below)
    assert np.copysign(x, y).asnumpy().tolist() == [-1.5, 2.0, 0.0, -3.0]
    assert np.copysign(2, y).asnumpy().tolist() == [-2.0, 2.0, 2.0, -2.0]
    assert np.copysign(a, b).asnumpy().tolist() == [12, -18, 0, 7]
    x.attach_grad()
    with autograd.record():
        z = np.copysign(x, y)
    z.backward()
    assert x.grad.asnumpy().tolist() == [-1, -1, 1, -1]
    onp.testing.assert_allclose(np.ldexp(x, y).asnumpy(), onp.ldexp(x.asnumpy(), y.asnumpy().astype(int)))
    i = np.array([1, 2, -3], dtype='int32')
    # integer ldexp truncates -3 * 2**-2 to 0; the number is cast to int first (x * 2**1)
    assert np.ldexp(i, np.array([3, 0, -2], dtype='int32')).asnumpy().tolist() == [8, 2, 0]
    assert np.ldexp(i, 1.5).asnumpy().tolist() == [2, 4, -6]


def test_eye_m_zero_is_empty_and_negative_sizes_fail():
    assert np.eye(4, 0).shape == (4, 0)
    onp.testing.assert_array_equal(np.eye(4, None, 1).asnumpy(), onp.eye(4, None, 1))
    onp.testing.assert_array_equal(np.eye(7, 3, -3, dtype='int32').asnumpy(), onp.eye(7, 3, -3, dtype='int32'))
    for args in ((-1,), (1, -1)):
        with pytest.raises(mx.MXNetError, match='negative'):
            np.eye(*args)
    assert mx.nd.eye(3, 0).shape == (3, 3)  # nd.eye keeps MXNet's M=0 meaning M=N


def test_broadcast_to_minus_two_keeps_the_input_size():
    a = onp.random.uniform(size=(1, 0)).astype('float32')
    for out in _both(lambda F, x: F.np.broadcast_to(x, (2, -2, -2)), np.array(a)):
        assert out.shape == (2, 1, 0)
    src = onp.arange(12.).reshape(3, 4)
    onp.testing.assert_array_equal(np.broadcast_to(np.array(src), (1, 2, 3, -2)).asnumpy(),
                                   onp.broadcast_to(src, (1, 2, 3, 4)))
    with pytest.raises(mx.MXNetError, match='-2'):
        np.broadcast_to(np.ones((3,)), (-2, 3))


def test_hsplit_at_indices_past_the_end():
    a = onp.arange(20.).reshape(2, 10)
    ref = onp.hsplit(a, [3, 12, 5])
    for parts in _both(lambda F, x: F.np.hsplit(x, [3, 12, 5]), np.array(a)):
        assert [p.shape for p in parts] == [r.shape for r in ref]
        for p, r in zip(parts, ref):
            onp.testing.assert_array_equal(p.asnumpy(), r)


def test_moveaxis_of_a_zero_size_input_hybridized():
    for out in _both(lambda F, x: F.np.moveaxis(x, [0], [2]), np.ones((2, 0, 3))):
        assert out.shape == (0, 3, 2)


def test_random_choice_is_one_operator_traced_too():
    mx.random.seed(7)
    a = np.arange(10)
    p = np.array(onp.full(10, 0.1), dtype='float32')
    for replace in (True, False):
        for out in _both(lambda F, x, w: F.np.random.choice(x, 5, replace, w), a, p):
            assert out.shape == (5,)
            assert replace or len(onp.unique(out.asnumpy())) == 5
    draws = np.random.choice(4, size=(20000,), p=[0.1, 0.2, 0.3, 0.4]).asnumpy()
    onp.testing.assert_allclose(onp.bincount(draws, minlength=4) / 20000., [0.1, 0.2, 0.3, 0.4], atol=0.02)
    assert np.random.choice(np.array([1.5, 2.5]), size=()).shape == ()
    with pytest.raises(mx.MXNetError, match='without replacement'):
        np.random.choice(3, size=5, replace=False)


def test_contiguous_basic_indexing_shares_memory():
    x = np.zeros((13, 21, 23, 22), dtype='int8')
    assert np.shares_memory(x[0, 0, 0, 2:5], x[0, 0, 0, 3:4])
    assert not np.shares_memory(x[0, 5, 0, 2:5], x[0, 6, 0, 4:7])
    assert not np.shares_memory(x[2:5, 0, 0, 0], x[3:4, 0, 0, 0])  # a strided index copies
    y = np.zeros((3, 4))
    row, col = y[1], y[:, 1]
    y[...] = 7
    assert row.asnumpy().tolist() == [7] * 4  # a view, as in MXNet
    assert col.asnumpy().tolist() == [0] * 3  # a copy


# inspect.signature of MXNet 1.9.1's mx._numpy_op_doc records (the mx.np functions' signatures)
MXNET_SIGNATURES = {
    'all': '(a, axis=None, keepdims=False, out=None)', 'any': '(a, axis=None, keepdims=False, out=None)',
    'amax': '(a, axis=None, keepdims=False, out=None)', 'amin': '(a, axis=None, keepdims=False, out=None)',
    'max': '(a, axis=None, keepdims=False, out=None)', 'min': '(a, axis=None, keepdims=False, out=None)',
    'sometrue': '(a, axis=None, keepdims=False, out=None)', 'copy': '(a, out=None)',
    'cumsum': '(a, axis=None, dtype=None, out=None)', 'diag': '(array, k=0)', 'diagflat': '(array, k=0)',
    'diagonal': '(a, offset=0, axis1=0, axis2=1)', 'dot': '(a, b, out=None)',
    'prod': '(a, axis=None, dtype=None, out=None, keepdims=False)',
    'product': '(a, axis=None, dtype=None, out=None, keepdims=False)', 'repeat': '(a, repeats, axis=None)',
    'reshape': "(a, newshape, order='C', out=None)", 'roll': '(a, shift, axis=None)',
    'squeeze': '(a, axis=None, out=None)', 'sum': '(a, axis=None, dtype=None, keepdims=False, initial=None, out=None)',
    'trace': '(a, offset=0, axis1=0, axis2=1, out=None)', 'transpose': '(a, axes=None)',
    'atleast_1d': '(*arys)', 'moveaxis': '(a, source, destination)',
}


def test_builtin_operator_functions_have_mxnets_signatures():
    """mx.np functions take MXNet's positional order, which is not always NumPy's (methods keep
    NumPy's); mx._numpy_op_doc records them for every _np_* operator, as MXNet's test reads it."""
    import inspect
    from gluonjax import _numpy_op_doc
    from gluonjax.numpy_op_signature import _get_builtin_op
    for public, signature in MXNET_SIGNATURES.items():
        assert str(inspect.signature(getattr(np, public))) == signature, public
    names = [n for n in mx.operator.get_all_registered_operators() if n.startswith('_np_')]
    assert 'Activation' in mx.operator.get_all_registered_operators() and '_np_sum' in names
    for name in names:
        assert str(_get_builtin_op(name).__signature__) == str(inspect.signature(getattr(_numpy_op_doc, name)))
    x = np.arange(6).reshape(2, 3)
    assert np.sum(x, 0, None, True).shape == (1, 3)  # the 4th positional argument is keepdims
    assert np.max(x, 1, True).asnumpy().tolist() == [[2], [5]]
    assert x.sum(0, None, None, True).shape == (1, 3)  # x.sum(axis, dtype, out, keepdims)
    assert np.product(x).item() == 0 and np.sometrue(x).item()
    with pytest.raises(TypeError, match='mx.np.sum'):
        _numpy_op_doc._np_sum(x)


def test_arctan2_checks_ufunc_keywords_as_mxnet():
    a, b = np.array([1., 2.]), np.array([2., -1.])
    onp.testing.assert_allclose(np.arctan2(a, b).asnumpy(), onp.arctan2([1., 2.], [2., -1.]), rtol=1e-6)
    with pytest.raises(NotImplementedError):
        np.arctan2(a, b, where=False)
    with pytest.raises(TypeError):
        np.arctan2(a, b, casting='mxnet')
