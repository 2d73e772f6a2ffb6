"""mx.np behaviour added for MXNet's test_numpy_op.py (issue 15, session 10): np.delete,
npx.constraint_check, transpose's ValueError for a repeated axis, the gradient of an integer
mean of floats, and 0-d boolean masks in assignments; each against NumPy or MXNet 1.9.1's
recorded behaviour."""
import numpy as onp
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, np, npx
from gluonjax.base import MXNetError


pytestmark = pytest.mark.usefixtures('np_mode')  # tests/conftest.py


RNG = onp.random.default_rng(1510)


@pytest.mark.parametrize('obj, axis', [(1, 1), (-1, None), (slice(None, None, -2), 1), (slice(-5, 2), None),
                                       (slice(0, None, 2), 0)])
def test_delete_by_index_or_slice_matches_numpy(obj, axis):
    a = RNG.uniform(-1, 1, (2, 5)).astype('float32')
    onp.testing.assert_array_equal(np.delete(np.array(a), obj, axis=axis).asnumpy(), onp.delete(a, obj, axis=axis))


def test_delete_by_array_ignores_out_of_range_values_as_mxnet():
    a = onp.arange(10, dtype='float32').reshape(2, 5)
    # MXNet 1.9.1: -1 and 7 are ignored, 2 is deleted once; float indices are truncated
    out = np.delete(np.array(a), np.array([-1, 2, 7, 2], dtype='int32'), axis=1)
    onp.testing.assert_array_equal(out.asnumpy(), [[0, 1, 3, 4], [5, 6, 8, 9]])
    onp.testing.assert_array_equal(np.delete(np.array(a), np.array([1.0, 3.0]), axis=1).asnumpy(),
                                   [[0, 2, 4], [5, 7, 9]])
    assert np.delete(np.ones(()), slice(None, None, 2)).shape == (0,)


def test_delete_gradient_and_errors():
    x = np.array(RNG.uniform(size=(2, 1, 4, 3)))
    x.attach_grad()
    with autograd.record():
        y = np.delete(x, slice(0, None, 2), axis=-2)
    y.backward()
    assert y.shape == (2, 1, 2, 3)
    onp.testing.assert_array_equal(x.grad.asnumpy()[0, 0, :, 0], [0, 1, 0, 1])
    with pytest.raises(MXNetError, match='index 7 is out of bounds for axis 1 with size 5'):
        np.delete(np.ones((2, 5)), 7, axis=1)
    with pytest.raises(TypeError, match="'obj' must be"):
        np.delete(np.ones((2, 5)), [1, 2])


class _Checked(gluon.HybridBlock):
    def hybrid_forward(self, F, x, ok):
        return x * F.npx.constraint_check(ok, 'condition violated')


@pytest.mark.parametrize('hybridize', [False, True])
def test_constraint_check_passes_or_raises_value_error(hybridize):
    block = _Checked()
    if hybridize:
        block.hybridize()
    x = np.array(RNG.uniform(size=(2, 3)))
    onp.testing.assert_array_equal(block(x, np.ones((2, 3), dtype='bool')).asnumpy(), x.asnumpy())
    with pytest.raises(ValueError, match='condition violated'):
        block(x, np.array([[True, False, True]] * 2, dtype='bool')).asnumpy()
    out = npx.constraint_check(np.ones((4,), dtype='bool'))
    assert out.shape == () and out.dtype == onp.bool_ and bool(out)
    with pytest.raises(MXNetError, match='must be a bool array'):
        npx.constraint_check(np.ones((2,)))


def test_transpose_axes_errors_as_mxnet():
    a = np.ones((3, 4, 5))
    with pytest.raises(ValueError, match='repeated axis'):  # MXNet 1.9.1 raises ValueError here
        a.transpose((0, 0, 1))
    for axes in [(0, 1, 3), (0, 1)]:
        with pytest.raises(MXNetError, match='do not match an array of shape'):
            a.transpose(axes)


@pytest.mark.parametrize('itype', ['float16', 'float32', 'float64'])
@pytest.mark.parametrize('dtype', ['int8', 'int32', 'int64'])
def test_integer_mean_of_floats_passes_the_gradient_over_the_count(itype, dtype):
    x = np.array(onp.arange(24).reshape(2, 3, 4) / 7.0, dtype=itype)
    x.attach_grad()
    with autograd.record():
        y = x.mean(axis=1, dtype=dtype)
    y.backward()
    # MXNet 1.9.1's values: the mean in float32 (float16 data) or float64, truncated ([0, 3] is
    # 0.99999999 in float64 from float32 data, 1 from float64 data)
    want = [[0, 0, 0, 1 if itype == 'float64' else 0], [2, 2, 2, 2]]
    onp.testing.assert_array_equal(y.asnumpy(), want)
    onp.testing.assert_array_equal(x.grad.asnumpy(), onp.ones((2, 3, 4), itype) / 3)


@pytest.mark.parametrize('mask', [True, False])
def test_zero_d_boolean_mask_assignment(mask):
    a = np.array(3.0)
    a[np.array(mask, dtype='bool')] = 42.0
    want = onp.array(3.0, 'float32')
    want[onp.array(mask)] = 42.0
    assert a.shape == () and float(a) == float(want)
    b = np.array(3.0)
    b[np.array(mask, dtype='bool')] = np.array([42.0])
    assert float(b) == float(want)


@pytest.mark.parametrize('shape, obj, vshape, axis', [
    ((3, 2), -6, (2,), None), ((3, 2), 2, (2, 2), 0), ((3, 2), -3, (3, 1), 0), ((3, 2), 1, (2, 3), 1),
    ((3, 2), [2], (3, 2), 1), ((3, 2), [1], (2,), None), ((3, 2), [0, -1, 2], (3, 1), 1),
    ((3, 2), [2, 0, 2], (3, 1), 0), ((3, 2), slice(0, 3), (3, 1), 1), ((3, 2), slice(-5, None, -1), (3, 1), 1),
    ((2, 2, 3, 8), [1, 5, 0, 8, -2], (1,), 3)])
def test_insert_matches_numpy_with_gradients(shape, obj, vshape, axis):
    a, b = RNG.uniform(size=shape).astype('float32'), RNG.uniform(size=vshape).astype('float32')
    x, v = np.array(a), np.array(b)
    x.attach_grad()
    v.attach_grad()
    with autograd.record():
        out = np.insert(x, np.array(obj, dtype='int64') if isinstance(obj, list) else obj, v, axis=axis)
    out.backward()
    want = onp.insert(a, onp.array(obj) if isinstance(obj, list) else obj, b, axis=axis)
    onp.testing.assert_array_equal(out.asnumpy(), want)
    onp.testing.assert_array_equal(x.grad.asnumpy(), onp.ones(shape))  # every entry of arr appears once
    # the values' gradients: one per output entry they were broadcast into
    assert v.grad.asnumpy().sum() == want.size - a.size


def test_insert_errors():
    with pytest.raises(MXNetError, match='index 7 is out of bounds'):
        np.insert(np.ones((2, 5)), 7, np.ones((1,)), axis=1)
    s = mx.sym.var('a').as_np_ndarray()
    # an index array: gluonjax computes the output's order from its values, so a symbol's output
    # shape stays unknown until it runs, as for MXNet's value-dependent operators (MXNet's own
    # insert rule gives (8,) from obj's size: docs/MIGRATING.md)
    with pytest.warns(UserWarning):
        assert mx.sym.np.insert(s, mx.sym.var('o').as_np_ndarray(), mx.sym.var('v').as_np_ndarray()).infer_shape(
            a=(2, 3), o=(2,), v=(1,)) == (None, None, None)


class _PlusSample(gluon.HybridBlock):
    def __init__(self, sampler, size):
        super().__init__()
        self.sampler, self.size = sampler, size

    def hybrid_forward(self, F, x):
        return x + getattr(F.np.random, self.sampler)(size=self.size)


@pytest.mark.parametrize('sampler', ['uniform', 'normal'])
@pytest.mark.parametrize('size, shape', [(None, ()), ((2, 3), (2, 3)), (4, (4,))])
def test_samplers_without_array_parameters_build_nodes_in_hybridized_blocks(sampler, size, shape):
    block = _PlusSample(sampler, size)
    block.hybridize()
    out = block(np.ones(()))
    assert out.shape == shape and onp.isfinite(out.asnumpy()).all()
    assert isinstance(mx.sym.np.random.uniform(size=(2,)), mx.sym.Symbol)


@pytest.mark.parametrize('sampler', ['weibull', 'pareto', 'power'])
@pytest.mark.parametrize('a', [-1, 0])
def test_one_parameter_samplers_need_a_positive(sampler, a):
    with pytest.raises(ValueError, match='a must be > 0'):  # MXNet 1.9.1: 'expect a > 0' for all three
        getattr(np.random, sampler)(a=a)


@pytest.mark.parametrize('axis', [None, 0, 2])
def test_float16_cumsum_rounds_each_partial_sum_as_numpy(axis):
    x = RNG.uniform(-1, 1, (2, 3, 24)).astype('float16')
    a = np.array(x, dtype='float16')
    a.attach_grad()
    with autograd.record():
        out = np.cumsum(a, axis=axis)
    out.backward()
    onp.testing.assert_array_equal(out.asnumpy(), onp.cumsum(x, axis=axis))  # bit for bit
    want = onp.flip(onp.cumsum(onp.flip(onp.ones(out.shape), 0), 0), 0) if axis is None else \
        onp.flip(onp.cumsum(onp.flip(onp.ones(out.shape), axis), axis), axis)
    onp.testing.assert_array_equal(a.grad.asnumpy(), want.reshape(x.shape))
