"""mx.np functions added for MXNet's test_numpy_op.py (issue 15): linalg eigen-decompositions,
pseudo-inverses and tensor solvers, resize, diag_indices_from, percentile/quantile, and NumPy's
errors for bad ufunc keywords; each against NumPy on random inputs."""
import numpy as onp
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, np, npx


pytestmark = pytest.mark.usefixtures('np_mode')  # tests/conftest.py


RNG = onp.random.default_rng(15)


@pytest.mark.parametrize('uplo', ['L', 'U'])
def test_eigvalsh_and_eigh_read_one_triangle(uplo):
    sym = RNG.uniform(-1, 1, (2, 4, 4))
    sym = sym + sym.transpose(0, 2, 1)
    half = onp.tril(sym) if uplo == 'L' else onp.triu(sym)  # the other triangle is zero: only UPLO's is read
    onp.testing.assert_allclose(np.linalg.eigvalsh(np.array(half, dtype='float64'), UPLO=uplo).asnumpy(),
                                onp.linalg.eigvalsh(sym), rtol=1e-6)
    w, v = np.linalg.eigh(np.array(half, dtype='float64'), UPLO=uplo)
    onp.testing.assert_allclose(w.asnumpy(), onp.linalg.eigh(sym)[0], rtol=1e-6)
    onp.testing.assert_allclose((v.asnumpy() * w.asnumpy()[:, None, :]) @ v.asnumpy().transpose(0, 2, 1), sym, atol=1e-6)


def test_eig_and_eigvals_of_real_spectra():
    q, _ = onp.linalg.qr(RNG.uniform(-1, 1, (3, 3)))
    a = q @ onp.diag([3., -1., 2.]) @ onp.linalg.inv(q)
    onp.testing.assert_allclose(onp.sort(np.linalg.eigvals(np.array(a, dtype='float64')).asnumpy()), [-1, 2, 3], atol=1e-6)
    w, v = np.linalg.eig(np.array(a, dtype='float64'))
    onp.testing.assert_allclose(a @ v.asnumpy(), v.asnumpy() * w.asnumpy(), atol=1e-6)
    # integer matrices give float64, as in MXNet; empty stacks keep their shape
    ints = np.linalg.eigvals(np.array(onp.diag([3, 1, 2]), dtype='int32'))
    assert ints.dtype == onp.float64 and sorted(ints.asnumpy()) == [1, 2, 3]
    assert np.linalg.eigvals(np.ones((0, 4, 4))).shape == (0, 4)


def test_pinv_with_scalar_and_array_cutoffs():
    a = RNG.uniform(-1, 1, (2, 2, 4, 3))
    onp.testing.assert_allclose(np.linalg.pinv(np.array(a, dtype='float64')).asnumpy(), onp.linalg.pinv(a), atol=1e-8)
    rcond = onp.array([[0.5], [0.01]])
    onp.testing.assert_allclose(np.linalg.pinv(np.array(a, dtype='float64'), np.array(rcond, dtype='float64')).asnumpy(),
                                onp.linalg.pinv(a, rcond), atol=1e-8)
    h = a[0, 0] @ a[0, 0].T - 0.3 * onp.eye(4)  # symmetric, indefinite
    onp.testing.assert_allclose(np.linalg.pinv(np.array(h, dtype='float64'), hermitian=True).asnumpy(),
                                onp.linalg.pinv(h), atol=1e-8)


def test_tensorinv_tensorsolve_and_gradient():
    a = RNG.uniform(-1, 1, (6, 2, 3))
    onp.testing.assert_allclose(np.linalg.tensorinv(np.array(a, dtype='float64'), ind=1).asnumpy(),
                                onp.linalg.tensorinv(a, ind=1), rtol=1e-8)
    b = RNG.uniform(-1, 1, (2, 3))
    onp.testing.assert_allclose(np.linalg.tensorsolve(np.array(a, dtype='float64'), np.array(b, dtype='float64'),
                                                      axes=(0,)).asnumpy(), onp.linalg.tensorsolve(a, b, axes=(0,)), rtol=1e-8)
    # MXNet's (and NumPy's) shape rule: x takes a's trailing axes whatever b's shape
    for a_shape, b_shape in [((), (1, 1, 1)), ((1, 1, 1), ()), ((1, 12, 4, 1, 3), (1, 2, 1, 2, 1, 3, 1))]:
        a_np = onp.eye(int(onp.sqrt(onp.prod(a_shape)))).reshape(a_shape) * 2
        b_np = onp.arange(1, onp.prod(b_shape) + 1.).reshape(b_shape)
        got = np.linalg.tensorsolve(np.array(a_np, dtype='float64'), np.array(b_np, dtype='float64'))
        want = onp.linalg.tensorsolve(a_np, b_np)
        assert got.shape == want.shape
        onp.testing.assert_allclose(got.asnumpy(), want)
    x = np.array(onp.eye(6).reshape(6, 2, 3) * 2)
    x.attach_grad()
    with autograd.record():
        y = np.linalg.tensorinv(x, ind=1)
    y.backward()  # d sum(inv(A)) / dA = -(inv(A)^T 1 inv(A)^T)
    inv = onp.eye(6) / 2
    onp.testing.assert_allclose(x.grad.asnumpy(), (-inv.T @ onp.ones((6, 6)) @ inv.T).reshape(6, 2, 3), rtol=1e-6)
    with pytest.raises(mx.base.MXNetError, match='not square'):
        np.linalg.tensorinv(np.ones((2, 3)), ind=1)


@pytest.mark.parametrize('shape, new_shape', [((2, 3), (4, 2)), ((2, 3), 2), ((), (2, 3)), ((2, 0), (2, 2)), ((1,), ())])
def test_resize_repeats_the_flat_array(shape, new_shape):
    a = onp.arange(int(onp.prod(shape)), dtype='int32').reshape(shape) + 1
    got = np.resize(np.array(a, dtype='int32'), new_shape)
    assert got.dtype == onp.int32
    onp.testing.assert_array_equal(got.asnumpy(), onp.resize(a, new_shape))


def test_diag_indices_from_eagerly_and_hybridized():
    class Net(gluon.HybridBlock):
        def hybrid_forward(self, F, a):
            return F.np.diag_indices_from(a)
    x = np.ones((4, 4, 4))
    got = np.diag_indices_from(x)
    assert isinstance(got, tuple) and len(got) == 3 and got[0].dtype == onp.int64
    net = Net()
    net.hybridize()
    for g, want in zip(net(x), onp.diag_indices_from(onp.ones((4, 4, 4)))):
        onp.testing.assert_array_equal(g.asnumpy(), want)


@pytest.mark.parametrize('method', ['linear', 'lower', 'higher', 'nearest', 'midpoint'])
def test_percentile_and_quantile(method):
    a = RNG.uniform(-10, 10, (2, 3, 4)).astype('float32')
    q = onp.array([10., 50., 90.])
    got = np.percentile(np.array(a), np.array(q, dtype='float64'), axis=(0, 2), interpolation=method, keepdims=True)
    want = onp.percentile(a, q, axis=(0, 2), method=method, keepdims=True)
    assert got.shape == want.shape
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
    ints = (a * 10).astype('int32')
    got = np.quantile(np.array(ints, dtype='int32'), 0.3, axis=1, interpolation=method)
    assert got.dtype == onp.float64
    onp.testing.assert_allclose(got.asnumpy(), onp.quantile(ints, 0.3, axis=1, method=method), rtol=1e-6)


def test_bad_ufunc_keywords_raise_numpy_errors():
    x = np.ones((2,))
    with pytest.raises(TypeError):
        np.exp(x, dtype='abcdefg')
    with pytest.raises(TypeError):
        np.exp(x, casting='mxnet')
    with pytest.raises(NotImplementedError):
        np.exp(x, casting='safe')
    with pytest.raises(NotImplementedError):
        np.exp(x, order='mxnet')


@pytest.mark.parametrize('dist, formula', [
    ('rayleigh', lambda o: o),                              # d(scale * r)/d scale at scale = 1
    ('weibull', lambda o: -o * np.log(o)),                  # d(e ** (1 / a))/da at a = 1
    ('pareto', lambda o: -(o + 1) * np.log(o + 1))])        # d(exp(e / a) - 1)/da at a = 1
def test_samplers_have_pathwise_gradients(dist, formula):
    class Net(gluon.HybridBlock):
        def hybrid_forward(self, F, a):
            return getattr(F.np.random, dist)(a, (3, 4))
    for hybridize in (False, True):
        net = Net()
        if hybridize:
            net.hybridize()
        a = np.ones((3, 4))
        a.attach_grad()
        with autograd.record():
            out = net(a)
        out.backward()
        onp.testing.assert_allclose(a.grad.asnumpy(), formula(out).asnumpy(), rtol=1e-4, atol=1e-5)


def test_normal_lognormal_beta_chisquare():
    mean, sigma = np.zeros((3, 2, 2)), np.ones((3, 2, 2))
    mean.attach_grad()
    with autograd.record():
        out = np.random.lognormal(mean, sigma, (4, 3, 2, 2))
    out.backward()  # d exp(mean + sigma z)/d mean summed over the broadcast axis
    onp.testing.assert_allclose(mean.grad.asnumpy(), out.asnumpy().sum(0), rtol=1e-5)
    assert np.random.normal().shape == () and np.random.normal(np.zeros((2, 1)), np.ones(3)).shape == (2, 3)
    with pytest.raises(ValueError):
        np.random.lognormal(sigma=-1)
    with pytest.raises(ValueError):
        np.random.rayleigh(scale=-1)
    b = np.random.beta(2.0, 3.0, size=20000).asnumpy()
    assert ((b > 0) & (b < 1)).all() and abs(b.mean() - 0.4) < 0.01
    c = np.random.chisquare(np.array([3.0]), size=20000, dtype='float64')
    assert c.dtype == onp.float64 and abs(c.asnumpy().mean() - 3) < 0.1


def test_deferred_weight_shape_from_numpy_dot():
    """A Parameter of unknown (0) input width gets it from ``x.dot(w)`` under npx.set_np() (where 0
    is a size, so the unknown dimension is written -1), as in MXNet's test_numpy_gluon."""
    class Linear(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.w = self.params.get('w', shape=(0, 3), allow_deferred_init=True)

        def hybrid_forward(self, F, x, w):
            return x.dot(w)
    net = Linear()
    net.initialize(mx.init.One())
    net.hybridize()
    out = net(np.ones((2, 5)))
    assert net.w.shape == (5, 3)
    onp.testing.assert_array_equal(out.asnumpy(), onp.full((2, 3), 5.0))


@pytest.mark.parametrize('shape', [(), (3, 4), (3, 0)])
def test_histogram_counts_and_edges(shape):
    a = np.random.uniform(0.0, 10.0, size=shape)
    for bins, span in [(20, (0.0, 10.0)), (np.array([0., 1., 2.5, 10.]), None), (5, None)]:
        counts, edges = np.histogram(a, bins=bins, range=span)
        want_counts, want_edges = onp.histogram(a.asnumpy(), bins=bins if isinstance(bins, int) else bins.asnumpy(),
                                                range=span)
        onp.testing.assert_array_equal(counts.asnumpy(), want_counts)
        onp.testing.assert_allclose(edges.asnumpy(), want_edges, rtol=1e-6)


def test_multivariate_normal_shapes_and_moments():
    mean, cov = np.array([0.5, 10.]), np.array([[1., 0.5], [0.5, 2.]])
    assert np.random.multivariate_normal(mean, cov).shape == (2,)
    assert np.random.multivariate_normal(np.zeros((3, 2)), np.ones((4, 1, 2, 2)), (2, 0)).shape == (2, 0, 4, 3, 2)
    s = np.random.multivariate_normal(mean, cov, 20000).asnumpy()
    onp.testing.assert_allclose(s.mean(0), [0.5, 10.], atol=0.05)
    onp.testing.assert_allclose(onp.cov(s.T), cov.asnumpy(), atol=0.1)


def test_backward_writes_zero_gradients_where_no_path_is_differentiable():
    """An input reached only through argmax has no differentiable path: backward writes zeros
    there, as MXNet does, instead of failing (integer inputs get MXNet's integer gradients:
    tests/test_int_grads.py)."""
    f = np.array([1., 5., 3.])
    f.attach_grad()
    f.grad[:] = 7
    with autograd.record():
        y = np.argmax(f)
    y.backward()
    assert f.grad.asnumpy().tolist() == [0, 0, 0]


def test_gamma_and_exponential_parameters():
    for shape, scale in [(1, 0), (np.array(1), np.array(-1.0)), (0, 1), (np.array(0), np.array(1))]:
        with pytest.raises(ValueError):  # MXNet requires both > 0, numbers and arrays alike
            np.random.gamma(shape, scale)
    assert abs(np.random.gamma(2.0, 3.0, size=20000).asnumpy().mean() - 6) < 0.2
    scale = np.ones((3, 2))
    scale.attach_grad()
    with autograd.record():
        out = np.random.exponential(scale, (3, 2))
    out.backward()  # d(scale * e)/d scale = e
    onp.testing.assert_allclose(scale.grad.asnumpy(), out.asnumpy(), rtol=1e-6)


@pytest.mark.parametrize('args', [(1, -10, 4), (0,), (5, 5), (1, -10, -4)])
def test_arange_of_an_empty_or_negative_range(args):
    got = np.arange(*args, dtype='int32')
    onp.testing.assert_array_equal(got.asnumpy(), onp.arange(*args, dtype='int32'))
    assert got.dtype == onp.int32


def test_linspace_rejects_negative_and_fractional_counts():
    for args in [(0, 10, -1), (0, 1, 2.5)]:
        with pytest.raises(mx.base.MXNetError):
            np.linspace(*args)
    onp.testing.assert_allclose(np.linspace(0, 10, 3.0).asnumpy(), [0, 5, 10])


@pytest.mark.parametrize('shape, axis, raises', [((), 0, False), ((), -1, False), ((), 1, True), ((5, 0, 3), 0, False),
                                                 ((5, 0, 3), None, True), ((5, 0, 3), 1, True)])
def test_argmax_of_0d_and_empty_arrays(shape, axis, raises):
    a = np.random.uniform(size=shape)
    if raises:
        with pytest.raises(mx.base.MXNetError):
            np.argmax(a, axis)
        return
    got, want = np.argmin(a, axis), onp.argmin(a.asnumpy(), axis)
    assert got.dtype == want.dtype and got.shape == want.shape


def test_sym_np_symbol_class_name():
    a, b = mx.sym.Variable('a'), mx.sym.Variable('b')
    assert type(mx.sym.np.stack([a.as_np_ndarray(), b.as_np_ndarray()])) is mx.sym.np._Symbol


def test_hybridized_np_creation_with_empty_dimensions():
    """Under NumPy semantics a 0 in F.np.zeros' shape is an empty dimension, not one shape
    inference must decide (MXNet's test_np_zeros / test_np_ones)."""
    class Empty(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.zeros((0,)), F.np.ones((2, 0)), x + 1

    net = Empty()
    net.hybridize()
    zeros, ones, y = net(np.ones((3,)))
    assert zeros.shape == (0,) and ones.shape == (2, 0)
    onp.testing.assert_array_equal(y.asnumpy(), [2, 2, 2])
