"""Random operators: shapes and dtypes as MXNet gives them, loose moments, seeding, errors."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import nd
from gluonjax.base import MXNetError

N = 10000
GAMMA = dict(alpha=3.0, beta=2.0, shape=(N,))  # heavy kernels to compile: tests share these parameters
POISSON = dict(lam=4.0, shape=(N,))


def moments(x):
    a = x.asnumpy().astype(np.float64)
    return a.mean(), a.std()


@pytest.mark.parametrize('call,dtype,low,mean,std', [
    (lambda: nd.random.uniform(-1, 3, shape=(N,)), 'float32', -1, 1.0, 4 / np.sqrt(12)),
    (lambda: nd.random.normal(2, 0.5, shape=(N,)), 'float32', None, 2.0, 0.5),
    (lambda: nd.random.exponential(2.0, shape=(N,)), 'float32', 0, 2.0, 2.0),        # scale 2: mean 2
    (lambda: nd.random.gamma(**GAMMA), 'float32', 0, 6.0, np.sqrt(3) * 2),           # alpha 3, scale 2
    (lambda: nd.random.poisson(**POISSON), 'float32', 0, 4.0, 2.0),
    (lambda: nd.random.randint(-3, 7, shape=(N,)), 'int32', -3, 1.5, np.sqrt((10 ** 2 - 1) / 12)),
    (lambda: nd.random_negative_binomial(k=3, p=0.4, shape=(N,)), 'float32', 0, 3 * 0.6 / 0.4, np.sqrt(3 * 0.6) / 0.4),
    (lambda: nd.random_generalized_negative_binomial(mu=2.0, alpha=0.5, shape=(N,)), 'float32', 0, 2.0,
     np.sqrt(2 + 0.5 * 4)),
])
def test_scalar_distribution_moments(call, dtype, low, mean, std):
    x = call()
    assert x.shape == (N,) and x.dtype == np.dtype(dtype)
    if low is not None:
        assert x.asnumpy().min() >= low
    m, s = moments(x)
    assert abs(m - mean) < 0.05 * max(std, 1) + 4 * std / np.sqrt(N), (m, mean)
    assert abs(s - std) < 0.05 * std, (s, std)


def test_default_shapes_and_dtypes():
    assert nd.random.uniform().shape == (1,)
    assert nd.random.uniform().dtype == np.float32
    for f in (nd.random.uniform, nd.random.normal, nd.random.exponential):
        x = f(shape=(2, 3))
        assert x.shape == (2, 3) and x.dtype == np.float32, f
    assert nd.random.randint(0, 10, shape=(3,)).dtype == np.int32
    assert nd.random.randint(0, 10, shape=(3,), dtype='int64').dtype == np.int64
    assert nd.random.uniform(shape=(2,), dtype='float16').dtype == np.float16
    assert nd.random.normal(shape=(2,), dtype='float64').dtype == np.float64
    assert nd.random.normal(shape=5).shape == (5,)
    p = nd.random.poisson(**POISSON).asnumpy()
    assert np.all(p == np.round(p)) and np.all(p >= 0)


def test_ranges():
    u = nd.random.uniform(2, 3, shape=(1000,)).asnumpy()
    assert u.min() >= 2 and u.max() < 3
    r = nd.random.randint(-2, 3, shape=(1000,)).asnumpy()
    assert set(np.unique(r)) == {-2, -1, 0, 1, 2}
    assert nd.random.exponential(1, shape=(1000,)).asnumpy().min() > 0
    assert nd.random.gamma(**GAMMA).asnumpy().min() >= 0


def test_seed_reproducible():
    def draw():
        return [nd.random.uniform(shape=(3,)), nd.random.normal(shape=(2, 2), dtype='float64'),
                nd.random.randint(0, 100, shape=(4,)), nd.random.gamma(**GAMMA),
                nd.random.poisson(**POISSON), nd.random.exponential(shape=(3,)),
                nd.random.shuffle(nd.arange(10)), nd.random.multinomial(nd.array([0.2, 0.3, 0.5]), shape=5),
                nd.random.normal(nd.array([0, 10]), nd.array([1, 2]), shape=3)]
    mx.random.seed(42)
    a = draw()
    mx.random.seed(42)
    b = draw()
    for x, y in zip(a, b):
        assert x.dtype == y.dtype
        np.testing.assert_array_equal(x.asnumpy(), y.asnumpy())
    mx.random.seed(43)
    c = draw()
    assert not np.array_equal(a[0].asnumpy(), c[0].asnumpy())
    # consecutive draws differ
    assert not np.array_equal(a[0].asnumpy(), nd.random.uniform(shape=(3,)).asnumpy())
    # mx.random.* is the same generator
    mx.random.seed(7)
    u1 = mx.random.uniform(0, 1, shape=(4,))
    mx.random.seed(7)
    np.testing.assert_array_equal(u1.asnumpy(), nd.random.uniform(0, 1, shape=(4,)).asnumpy())


def test_seed_per_context():
    mx.random.seed(5, ctx=mx.cpu(0))
    a = nd.random.uniform(shape=(4,), ctx=mx.cpu(0))
    mx.random.seed(5, ctx=mx.cpu(0))
    b = nd.random.uniform(shape=(4,), ctx=mx.cpu(0))
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


@pytest.mark.parametrize('call,shape', [
    (lambda: nd.random.uniform(nd.array([0, 1]), nd.array([1, 2]), shape=(3,)), (2, 3)),
    (lambda: nd.random.uniform(nd.array([0, 1]), nd.array([1, 2])), (2,)),
    (lambda: nd.random.normal(nd.array([[0, 1]]), nd.array([[1, 2]]), shape=3), (1, 2, 3)),
    (lambda: nd.random.exponential(nd.array([1, 2]), shape=(3,)), (2, 3)),
])
def test_array_parameter_shapes(call, shape):
    x = call()
    assert x.shape == shape and x.dtype == np.float32


def test_array_parameters_per_element():
    mu = nd.array([-5.0, 0.0, 5.0])
    sigma = nd.array([0.1, 1.0, 2.0])
    x = nd.random.normal(mu, sigma, shape=(N,)).asnumpy()
    np.testing.assert_allclose(x.mean(axis=1), [-5, 0, 5], atol=0.1)
    np.testing.assert_allclose(x.std(axis=1), [0.1, 1, 2], rtol=0.05)
    u = nd.sample_uniform(nd.array([0.0, 10.0]), nd.array([1.0, 20.0]), shape=(N,)).asnumpy()
    assert u[0].min() >= 0 and u[0].max() < 1 and u[1].min() >= 10 and u[1].max() < 20
    lam = nd.random.poisson(nd.array([1.0, 8.0]), shape=(N,))
    assert lam.shape == (2, N) and lam.dtype == np.float32
    lam = lam.asnumpy()
    np.testing.assert_allclose(lam.mean(axis=1), [1, 8], rtol=0.05)
    g = nd.random.gamma(nd.array([2.0, 5.0]), nd.array([1.0, 0.5]), shape=(N,))
    assert g.shape == (2, N) and g.dtype == np.float32
    g = g.asnumpy()
    np.testing.assert_allclose(g.mean(axis=1), [2, 2.5], rtol=0.05)
    # float64 parameters still give float32 samples unless dtype is given (MXNet)
    p64 = nd.array([0, 1], dtype='float64')
    assert nd.random.uniform(p64, p64 + 1).dtype == np.float32
    assert nd.random.uniform(p64, p64 + 1, dtype='float64').dtype == np.float64


def test_sample_parameters_get_no_gradient():
    mu = nd.array([0.0, 1.0])
    sigma = nd.array([1.0, 2.0])
    mu.attach_grad()
    sigma.attach_grad()
    with mx.autograd.record():
        y = nd.random.normal(mu, sigma, shape=(3,))
    y.backward()
    np.testing.assert_array_equal(mu.grad.asnumpy(), [0, 0])     # as in MXNet 1.9.1
    np.testing.assert_array_equal(sigma.grad.asnumpy(), [0, 0])


def test_multinomial():
    probs = np.array([[0.2, 0.3, 0.5], [0.5, 0.5, 0.0]], 'float32')
    p = nd.array(probs)
    assert nd.random.multinomial(nd.array([0.2, 0.3, 0.5])).shape == (1,)
    s = nd.random.multinomial(p, shape=(4, 2))
    assert s.shape == (2, 4, 2) and s.dtype == np.int32
    draws = nd.random.multinomial(p, shape=N, dtype='float32')
    assert draws.shape == (2, N) and draws.dtype == np.float32
    draws = draws.asnumpy().astype(int)
    freq = np.stack([np.bincount(d, minlength=3) / N for d in draws])
    np.testing.assert_allclose(freq, probs, atol=0.02)
    assert (draws[1] != 2).all()
    out = nd.random.multinomial(p, shape=6, get_prob=True)
    assert isinstance(out, list) and len(out) == 2
    idx, logp = out
    assert logp.dtype == np.float32 and logp.shape == (2, 6)
    np.testing.assert_allclose(logp.asnumpy(), np.log(np.take_along_axis(probs, idx.asnumpy(), 1)), rtol=1e-6)


def test_multinomial_log_prob_gradient():
    p = nd.array([[0.2, 0.3, 0.5]])
    p.attach_grad()
    with mx.autograd.record():
        idx, logp = nd.random.multinomial(p, shape=8, get_prob=True)
    logp.backward()
    counts = np.bincount(idx.asnumpy()[0], minlength=3)
    np.testing.assert_allclose(p.grad.asnumpy()[0], counts / np.array([0.2, 0.3, 0.5]), rtol=1e-5)


def test_shuffle():
    a = np.arange(30, dtype='float32').reshape(10, 3)
    out = nd.random.shuffle(nd.array(a))
    assert out.shape == (10, 3) and out.dtype == np.float32
    o = out.asnumpy()
    # rows move intact
    np.testing.assert_array_equal(np.sort(o[:, 0]), a[:, 0])
    np.testing.assert_array_equal(o[:, 1:] - o[:, :1], a[:, 1:] - a[:, :1])
    seen = {tuple(nd.shuffle(nd.arange(6)).asnumpy()) for _ in range(5)}
    assert len(seen) > 1
    assert nd.random.shuffle(nd.arange(5, dtype='int32')).dtype == np.int32
    with pytest.raises(MXNetError, match='_shuffle: data must have at least one dimension'):
        nd.random.shuffle(nd.array(3.0))


def test_like_operators():
    x = nd.ones((3, 4), dtype='float64')
    u = nd._random_uniform_like(x, low=2, high=3)
    assert u.shape == (3, 4) and u.dtype == np.float64
    assert 2 <= u.asnumpy().min() and u.asnumpy().max() < 3
    assert nd._random_normal_like(nd.ones((5,))).shape == (5,)


def test_aliases_and_symbol():
    assert nd.uniform(shape=(2,)).shape == (2,)
    assert nd.random_normal(shape=(3,)).shape == (3,)
    assert nd.sample_normal(nd.array([0.0]), nd.array([1.0]), shape=(2,)).shape == (1, 2)
    s = mx.sym.random.uniform(0, 1, shape=(2, 3)) + mx.sym.var('x')
    assert s.infer_shape(x=(2, 3))[1] == [(2, 3)]
    out = s.eval(x=nd.zeros((2, 3)))[0].asnumpy()
    assert out.shape == (2, 3) and (out >= 0).all() and (out < 1).all()


@pytest.mark.parametrize('call,match', [
    (lambda: nd.random.uniform(1, 0, shape=(2,)), '_random_uniform: low must be less than or equal to high'),
    (lambda: nd.random.normal(0, -1, shape=(2,)), '_random_normal: parameter scale must be positive'),
    (lambda: nd.random.exponential(-1, shape=(2,)), '_random_exponential: parameter lam must be positive'),
    (lambda: nd.random.gamma(-1, 1, shape=(2,)), '_random_gamma: parameter alpha must be positive'),
    (lambda: nd.random.poisson(-1, shape=(2,)), '_random_poisson: lam must be non-negative'),
    (lambda: nd.random.randint(5, 2, shape=(3,)), '_random_randint: low must be less than or equal to high'),
    (lambda: nd.random.uniform(shape=(2,), dtype='int32'), '_random_uniform: dtype must be one of float16'),
    (lambda: nd.random.randint(0, 5, shape=(2,), dtype='float32'), '_random_randint: dtype must be one of int32'),
    (lambda: nd.random.uniform(nd.array([0, 1]), nd.array([1, 2, 3])),
     r'_sample_uniform: low \[2\] and high \[3\] must have the same shape'),
    (lambda: nd._random_uniform(low=0, high=1), '_random_uniform: shape must be given'),
])
def test_errors(call, match):
    with pytest.raises(MXNetError, match=match):
        call().wait_to_read()  # a sampler's parameters are checked when it runs (see below)


def test_invalid_sampler_parameters_raise_at_the_next_wait_as_in_mxnet():
    # MXNet checks them on its engine: the call returns, waiting on the result (or on any
    # array computed from it) raises, once
    bad = nd.random.normal(0, -1, shape=(2, 2))
    assert bad.shape == (2, 2)
    first, second = bad.copyto(mx.cpu())
    product = nd.dot(nd.ones((2, 2)), bad)
    with pytest.raises(MXNetError, match='_random_normal: parameter scale must be positive'):
        product.asnumpy()
    second.asnumpy()  # the same failure: raised once
    kept = [nd.random.exponential(-1, shape=(3,)), nd.random.exponential(-2, shape=(3,))]
    with pytest.raises(MXNetError, match='_random_exponential: parameter lam must be positive'):
        nd.waitall()
    nd.waitall()  # both reported by the first waitall
    assert [k.shape for k in kept] == [(3,), (3,)]
    like = nd.random.normal_like(nd.ones((4,)), scale=-2)
    with pytest.raises(MXNetError, match='scale must be positive'):
        like.wait_to_read()


def test_density_operators_match_mxnet():
    """random_pdf_*: values recorded from MXNet 1.9.1 (gamma's beta and exponential's lam are
    rates; the dirichlet simplex is the last axis; parameters lead the sample's shape)."""
    s = mx.nd.array([[1, 2, 3], [0.5, 0.2, 0.1]])
    np.testing.assert_allclose(mx.nd.random_pdf_normal(s, mx.nd.array([0, 1]), mx.nd.array([1, 2])).asnumpy(),
                               [[0.24197072, 0.05399097, 0.00443185], [0.19333406, 0.18413506, 0.18026349]], rtol=1e-5)
    alpha = mx.nd.array([[1, 2, 3], [2, 2, 2]])
    x = mx.nd.array([[[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], [[0.3, 0.3, 0.4], [0.2, 0.5, 0.3]]])
    np.testing.assert_allclose(mx.nd.random_pdf_dirichlet(x, alpha).asnumpy(), [[4.5, 3.84], [4.32, 3.6]], rtol=1e-5)
    counts, rates = mx.nd.array([[0, 1, 2]]), mx.nd.array([2])
    cases = [(mx.nd.random_pdf_poisson, (mx.nd.array([1.5]),), [0.22313017, 0.33469525, 0.25102144]),
             (mx.nd.random_pdf_negative_binomial, (rates, mx.nd.array([0.4])), [0.16, 0.192, 0.1728]),
             (mx.nd.random_pdf_generalized_negative_binomial, (rates, mx.nd.array([0.4])),
              [0.23004812, 0.25560904, 0.19880705])]
    for fn, params, want in cases:
        np.testing.assert_allclose(fn(counts, *params).asnumpy(), [want], rtol=1e-5)
    pos = mx.nd.array([[0.5, 1, 2]])
    np.testing.assert_allclose(mx.nd.random_pdf_gamma(pos, rates, mx.nd.array([0.4])).asnumpy(),
                               [[0.06549847, 0.10725122, 0.14378527]], rtol=1e-5)
    np.testing.assert_allclose(mx.nd.random_pdf_exponential(pos, rates, is_log=True).asnumpy(),
                               np.log([[0.7357589, 0.27067056, 0.03663128]]), rtol=1e-5)
    with pytest.raises(MXNetError, match='must share a shape that leads'):
        mx.nd.random_pdf_normal(s, mx.nd.array([0, 1, 2]), mx.nd.array([1, 2, 3]))


def test_zipfian_samplers():
    """_sample_unique_zipfian: distinct classes per row and the draws it took (int64, as MXNet);
    contrib.rand_zipfian: log-uniform draws and their expected counts, in nd and sym alike."""
    mx.random.seed(5)
    classes, trials = mx.nd._internal._sample_unique_zipfian(50, shape=(3, 20))
    assert classes.dtype == np.int64 and trials.dtype == np.int64 and trials.shape == (3,)
    for row, n in zip(classes.asnumpy(), trials.asnumpy()):
        assert len(set(row.tolist())) == 20 and row.min() >= 0 and row.max() < 50 and n >= 20
    mx.random.seed(5)
    np.testing.assert_array_equal(mx.nd._internal._sample_unique_zipfian(50, shape=(3, 20))[0].asnumpy(),
                                  classes.asnumpy())
    true_classes = mx.nd.array([0, 3, 7], dtype='int32')
    sampled, count_true, count_sampled = mx.nd.contrib.rand_zipfian(true_classes, 4000, 20)
    prob = lambda c: np.log((c + 2.0) / (c + 1.0)) / np.log(21)  # noqa: E731
    np.testing.assert_allclose(count_true.asnumpy(), prob(np.array([0, 3, 7])) * 4000, rtol=1e-6)
    np.testing.assert_allclose(count_sampled.asnumpy(), prob(sampled.asnumpy()) * 4000, rtol=1e-6)
    freq = np.bincount(sampled.asnumpy(), minlength=20) / 4000.0
    np.testing.assert_allclose(freq, prob(np.arange(20)), atol=0.03)
    outs = mx.sym.contrib.rand_zipfian(mx.sym.var('t'), 10, 20)
    exe = mx.sym.Group(list(outs)).bind(mx.cpu(), {'t': true_classes})
    assert [o.dtype for o in exe.forward()] == [np.int64, np.float64, np.float64]


def test_nd_random_has_the_like_samplers():
    x = mx.nd.ones((2, 3), dtype='float64')
    mx.random.seed(7)
    a = mx.nd.random.normal_like(x, loc=1, scale=2)
    mx.random.seed(7)
    b = mx.nd.random.normal_like(data=x, loc=1, scale=2)
    assert a.shape == (2, 3) and a.dtype == np.float64
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    assert mx.nd.random.uniform_like(x).asnumpy().max() < 1


@pytest.mark.parametrize('draw', [
    lambda **kw: mx.nd.random.uniform(-1, 3, **kw),
    lambda **kw: mx.nd.random.normal(2, 0.5, **kw),
    lambda **kw: mx.nd.random.exponential(2.0, **kw),
    lambda **kw: mx.nd.random.gamma(**dict(GAMMA, **kw)),
    lambda **kw: mx.nd.random.poisson(**dict(POISSON, **kw)),
])
def test_small_draws_cut_from_a_power_of_two_draw_are_the_direct_draw(draw):
    # A draw of shape s is compiled for a flat power-of-two length and cut to s; out= draws s
    # directly. Both must give the same numbers for the same key.
    for shape, dtype in [((3, 5, 2), 'float32'), ((7,), 'float16'), ((1,), 'float64')]:
        mx.random.seed(11)
        cut = draw(shape=shape, dtype=dtype)
        mx.random.seed(11)
        direct = draw(shape=shape, dtype=dtype, out=mx.nd.zeros(shape, dtype=dtype))
        assert cut.shape == shape and cut.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(cut.asnumpy(), direct.asnumpy())


def test_sampling_with_a_shape_of_numpy_integers():
    # MXNet's tests pass shapes made by NumPy (rand_shape_nd): np.int64 has no bit_length
    shape = tuple(np.array([2, 3]))
    for sample in (nd.random.normal(shape=shape), nd.random.uniform(shape=shape)):
        assert sample.shape == (2, 3) and np.isfinite(sample.asnumpy()).all()


def test_rejection_samplers_match_scipy():
    # gamma (Marsaglia-Tsang, boosted below alpha 1) and poisson (inversion below 10, PTRS above)
    from scipy import stats
    x = nd.random.gamma(0.5, 2.0, shape=(20000,)).asnumpy()
    assert stats.kstest(x, stats.gamma(0.5, scale=2.0).cdf).pvalue > 1e-3
    for lam in (3.5, 14.5):
        x = nd.random.poisson(lam, shape=(20000,)).asnumpy().astype(int)
        values = np.arange(int(lam * 3))
        observed = np.array([(x == v).sum() for v in values])
        expected = stats.poisson(lam).pmf(values) * len(x)
        keep = expected > 5
        chi2 = (((observed - expected) ** 2 / expected)[keep]).sum()
        assert stats.chi2(keep.sum() - 1).sf(chi2) > 1e-3


def test_rejection_samplers_give_nan_for_invalid_array_parameters():
    out = nd.random.gamma(nd.array([-1.0, np.nan, 2.0]), nd.array([1.0, 1.0, 1.0])).asnumpy()
    assert np.isnan(out[:2]).all() and out[2] > 0
    # both Poisson methods (the search below 10, PTRS above) in one draw, beside invalid rates
    out = nd.random.poisson(nd.array([-1.0, np.nan, np.inf, 0.0, 3.0, 40.0]), shape=(2000,)).asnumpy()
    assert np.isnan(out[:3]).all() and (out[3] == 0).all()
    np.testing.assert_allclose(out[4:].mean(axis=1), [3.0, 40.0], rtol=0.05)
    assert (out[4:] == np.round(out[4:])).all() and (out[4:] >= 0).all()


def test_poisson_log_factorial_matches_lgamma():
    import math
    from gluonjax._x64 import on, restore
    from gluonjax.ops.random_ops import _log_factorial
    prev = on()
    try:
        k = np.arange(3000.0)
        want = np.array([math.lgamma(v + 1) for v in k])
        got = np.asarray(_log_factorial(mx.nd.array(k, dtype='float64')._data))
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-9)
    finally:
        restore(prev)


def test_negative_binomial_front_ends():
    mx.random.seed(3)
    a = nd.random.negative_binomial(k=3, p=0.4, shape=(2, 2))
    assert a.shape == (2, 2) and a.dtype == np.float32
    b = nd.random.generalized_negative_binomial(mu=nd.array([1.0, 2.0]), alpha=nd.array([0.1, 0.3]), shape=4)
    assert b.shape == (2, 4)
    k, p = mx.sym.Variable('k'), mx.sym.Variable('p')
    assert '_sample_negative_binomial' in mx.sym.random.negative_binomial(k, p, shape=(3,)).tojson()
    assert '_random_generalized_negative_binomial' in mx.sym.random.generalized_negative_binomial(2, 0.3).tojson()


def test_symbol_sampler_without_shape_takes_its_consumers_shape():
    # MXNet: an empty shape is an unknown one, decided by shape inference (randn + X); a symbol
    # given as data to the input-free operator is dropped
    x = mx.sym.Variable('X')
    y = mx.sym.random.randn(loc=10.0, scale=0.5, data=mx.sym.ones((4, 5))) + x
    assert y.infer_shape(X=(4, 5))[1] == [(4, 5)]
    out = y.bind(mx.cpu(), {'X': nd.zeros((4, 5))}).forward()[0]
    assert out.shape == (4, 5) and abs(out.asnumpy().mean() - 10) < 1


def test_symbol_exponential_scale_is_a_rate_for_symbols_too():
    scale = mx.sym.Variable('scale')
    y = mx.sym.random.exponential(scale, shape=(2000,))
    out = y.bind(mx.cpu(), {'scale': nd.array([0.1, 10.0])}).forward()[0].asnumpy()
    np.testing.assert_allclose(out.mean(axis=1), [0.1, 10.0], rtol=0.15)


def test_shape_of_numpy_integers():
    assert nd.random.uniform(shape=(np.int64(3), np.int64(2))).shape == (3, 2)


def test_multinomial_refuses_more_categories_than_its_dtype_writes_exactly():
    many = nd.zeros(2 ** 11 + 2)  # indices up to 2049: past float16's exact integers, within float32's
    with pytest.raises(MXNetError, match=r'_sample_multinomial: 2050 categories .* float16'):
        nd.random.multinomial(many, dtype='float16')
    assert nd.random.multinomial(many, dtype='float32').dtype == np.float32
    with pytest.raises(MXNetError, match='uint8'):
        nd.random.multinomial(nd.zeros(257), dtype='uint8')


def test_np_uniform_is_nd_uniforms_bucketed_draw():
    # mx.np.random.uniform with number bounds cuts its samples from a length-bucket draw, as
    # mx.nd.random's (one sampler compile per bucket, not per shape): the same numbers for a seed
    import gluonjax as mx
    mx.random.seed(3)
    a = mx.np.random.uniform(-1, 2, size=(3, 5))
    mx.random.seed(3)
    b = mx.nd.random.uniform(-1, 2, shape=(3, 5))
    assert isinstance(a, mx.np.ndarray) and a.shape == (3, 5)
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    assert ((a.asnumpy() >= -1) & (a.asnumpy() < 2)).all()


def test_seed_leaves_numpys_generator_alone():
    """As in MXNet, mx.random.seed does not touch NumPy's global generator: a script seeding NumPy,
    drawing from it and then seeding mx.random draws on from NumPy's stream as it would under MXNet."""
    np.random.seed(5)
    np.random.rand()
    want = np.random.rand()
    np.random.seed(5)
    np.random.rand()
    mx.random.seed(1)
    assert np.random.rand() == want
