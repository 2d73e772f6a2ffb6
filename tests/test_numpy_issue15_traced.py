"""mx.np behaviour fixed for MXNet's test_numpy_op.py (issue 15, second half): NumPy's axis=()
reductions, integer rounding, the isnan family, split past the end, the stacking functions and
full/full_like/where inside hybridized blocks, npx.random.bernoulli; each against NumPy."""
import numpy as onp
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, np, npx


pytestmark = pytest.mark.usefixtures('np_mode')  # tests/conftest.py


RNG = onp.random.default_rng(151)


class _Fn(gluon.HybridBlock):
    """A hybridized block calling ``fn(F, *inputs)``."""
    def __init__(self, fn):
        super().__init__()
        self._fn = fn

    def hybrid_forward(self, F, *inputs):
        return self._fn(F, *inputs)


def _traced(fn, *inputs):
    block = _Fn(fn)
    block.hybridize()
    return block(*inputs)


@pytest.mark.parametrize('name', ['max', 'min', 'sum', 'prod', 'mean', 'std', 'var', 'any', 'all'])
def test_reduction_over_no_axes_is_the_array(name):
    x = RNG.uniform(-1, 1, (2, 3))
    out = getattr(np, name)(np.array(x), axis=())
    assert out.shape == (2, 3)
    onp.testing.assert_allclose(out.asnumpy(), getattr(onp, name)(x.astype('float32'), axis=()), rtol=1e-6)


def test_max_over_no_axes_passes_the_gradient():
    x = np.array(RNG.uniform(-1, 1, (2, 3)))
    x.attach_grad()
    with autograd.record():
        y = np.max(x, axis=())
    y.backward()
    onp.testing.assert_array_equal(x.grad.asnumpy(), onp.ones((2, 3)))


def test_round_integers_drops_digits_towards_zero():
    x = onp.array([16, 19, -16, -19, 5, 35, 45], dtype='int32')
    onp.testing.assert_array_equal(np.round(np.array(x), -1).asnumpy(), [10, 10, -10, -10, 0, 30, 40])  # MXNet 1.9.1
    onp.testing.assert_array_equal(np.round(np.array(x), 2).asnumpy(), x)
    assert np.round(np.array(x, dtype='int64'), -25).asnumpy().tolist() == [0] * 7


@pytest.mark.parametrize('name', ['isnan', 'isinf', 'isposinf', 'isneginf', 'isfinite'])
def test_float_tests_match_numpy(name):
    x = onp.array([onp.nan, onp.inf, -onp.inf, 0.0, -3.5], dtype='float32')
    onp.testing.assert_array_equal(getattr(np, name)(np.array(x)).asnumpy(), getattr(onp, name)(x))
    traced = _traced(lambda F, a: getattr(F.np, name)(a), np.array(x))
    onp.testing.assert_array_equal(traced.asnumpy(), getattr(onp, name)(x))
    ints = onp.array([1, -2], dtype='int32')  # integers are finite, never NaN or infinite (NumPy's, MXNet's)
    assert getattr(np, name)(np.array(ints)).asnumpy().tolist() == getattr(onp, name)(ints).tolist()
    with pytest.raises(TypeError):
        getattr(np, name)(np.array(x), out=np.zeros(5))


def test_split_at_indices_past_the_end_gives_empty_parts():
    x = onp.arange(10.0)
    for indices in [(3, 2, 7, 12), (1, 2, 3)]:
        got = [p.asnumpy() for p in np.split(np.array(x), indices)]
        want = onp.split(x, indices)
        assert [g.tolist() for g in got] == [w.tolist() for w in want]
    assert [p.shape for p in np.split(np.zeros((0, 3)), (1, 2, 3))] == [(0, 3)] * 4


def test_traced_split_returns_one_array_per_part():
    x = RNG.uniform(-1, 1, (4, 3)).astype('float32')
    parts = _traced(lambda F, a: F.np.vsplit(a, (1, 3)), np.array(x))
    assert [p.asnumpy().tolist() for p in parts] == [p.tolist() for p in onp.vsplit(x, (1, 3))]


def test_stacking_functions_match_numpy_eagerly_and_traced():
    a, b = onp.arange(3.0, dtype='float32'), onp.arange(6.0, dtype='float32').reshape(2, 3)
    onp.testing.assert_array_equal(np.vstack([np.array(a), np.array(b)]).asnumpy(), onp.vstack([a, b]))
    onp.testing.assert_array_equal(_traced(lambda F, x, y: F.np.vstack([x, y]), np.array(a), np.array(b)).asnumpy(),
                                   onp.vstack([a, b]))
    onp.testing.assert_array_equal(np.hstack([np.array(a), np.array(a)]).asnumpy(), onp.hstack([a, a]))
    onp.testing.assert_array_equal(np.hstack([np.array(b), np.array(b)]).asnumpy(), onp.hstack([b, b]))


def test_traced_full_where_and_full_like():
    cond = onp.array([[1, 0, 1]], dtype='float32')
    x, y = RNG.uniform(-1, 1, (2, 3)).astype('float32'), RNG.uniform(-1, 1, (2, 1)).astype('float32')
    got = _traced(lambda F, c, a, b: (F.np.where(c, a, b), F.np.where(c, 1, b), F.np.full_like(a, 2.5),
                                      F.np.full((2, 3), F.np.max(a))),
                  np.array(cond), np.array(x), np.array(y))
    want = (onp.where(cond, x, y), onp.where(cond, 1, y), onp.full_like(x, 2.5), onp.full((2, 3), x.max()))
    for g, w in zip(got, want):
        onp.testing.assert_allclose(g.asnumpy(), w, rtol=1e-6)


def test_bernoulli_shapes_values_and_checks():
    prob = np.array(RNG.uniform(0, 1, (2, 3)))
    assert npx.random.bernoulli(prob=prob, dtype='bool').dtype == onp.bool_
    assert npx.random.bernoulli(logit=prob, size=(4, 2, 3)).shape == (4, 2, 3)
    assert npx.random.bernoulli(prob=0.5).shape == ()
    mean = npx.random.bernoulli(prob=0.3, size=(20000,)).asnumpy().mean()
    assert abs(mean - 0.3) < 0.02
    with pytest.raises(ValueError):
        npx.random.bernoulli(prob=prob + 2.0)
    with pytest.raises(ValueError):
        npx.random.bernoulli(prob=prob, logit=prob)


@pytest.mark.parametrize('start_axis, mshape', [(0, (2, 3)), (1, (3, 4)), (2, (4, 5))])
def test_internal_boolean_mask_assign_matches_numpy(start_axis, mshape):
    data = RNG.uniform(size=(2, 3, 4, 5))
    mask = RNG.uniform(size=mshape) > 0.5
    lead = (slice(None),) * start_axis
    count = int(mask.sum())
    value_shapes = [data.shape[:start_axis] + (count,) + data.shape[start_axis + mask.ndim:],
                    data.shape[:start_axis] + (1,) + data.shape[start_axis + mask.ndim:]]
    for value in [42.0, onp.array([42.0])] + [RNG.uniform(size=s) for s in value_shapes]:
        want = data.copy()
        want[lead + (mask,)] = value
        a = np.array(data, dtype='float64')
        if isinstance(value, float):
            np._internal.boolean_mask_assign_scalar(a, np.array(mask), value, start_axis=start_axis, out=a)
        else:
            np._internal.boolean_mask_assign_tensor(a, np.array(mask), np.array(value), start_axis=start_axis, out=a)
        onp.testing.assert_allclose(a.asnumpy(), want, rtol=1e-6)


def test_power_samples_and_batches_of_samples():
    out = np.random.power(3.0, size=(20000,)).asnumpy()
    assert out.min() >= 0 and out.max() <= 1 and abs(out.mean() - 0.75) < 0.01  # E[X] = a / (a + 1)
    ones = np.ones((2, 2))
    assert npx.random.uniform_n(ones, ones * 2, batch_shape=(5,)).shape == (5, 2, 2)
    assert _traced(lambda F, lo, hi: F.npx.random.normal_n(lo, hi, batch_shape=3), ones, ones).shape == (3, 2, 2)
    assert _traced(lambda F, a: F.np.random.power(a, size=(2, 3)), np.array(1.0)).shape == (2, 3)
    low = np.zeros(3)
    low.attach_grad()
    with autograd.record():
        u = np.random.uniform(low, 1.0)
    u.backward()
    onp.testing.assert_allclose(low.grad.asnumpy(), 1 - u.asnumpy(), rtol=1e-5)  # d/dlow of low + (1 - low) U
