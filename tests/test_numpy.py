"""mx.np / mx.npx: operators against numpy on random inputs, gradients against jax.grad of
the jnp equivalent, MXNet's printed forms and dtype rules, and Gluon under npx.set_np()
(np and nd versions of the same models give the same numbers)."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd, np, npx
from gluonjax.base import MXNetError
from gluonjax.gluon import nn




def _grad_of(fn, *arrays):
    """Gradients of fn(*arrays).sum() recorded by gluonjax, as numpy arrays."""
    xs = [np.array(a, dtype=a.dtype) for a in arrays]
    for x in xs:
        x.attach_grad()
    with autograd.record():
        y = fn(*xs)
        total = y.sum()
    total.backward()
    return y, [x.grad.asnumpy() for x in xs]


def _jax_grad(fn, *arrays):
    return jax.grad(lambda *a: jnp.sum(fn(*a)), argnums=tuple(range(len(arrays))))(
        *[jnp.asarray(a) for a in arrays])


# ---- elementwise ------------------------------------------------------------------------

UNARY = [
    ('exp', onp.exp, jnp.exp, 'any'), ('log', onp.log, jnp.log, 'pos'), ('sqrt', onp.sqrt, jnp.sqrt, 'pos'),
    ('tanh', onp.tanh, jnp.tanh, 'any'), ('sin', onp.sin, jnp.sin, 'any'), ('abs', onp.abs, jnp.abs, 'any'),
    ('log1p', onp.log1p, jnp.log1p, 'pos'), ('reciprocal', onp.reciprocal, jnp.reciprocal, 'pos'),
]


@pytest.mark.parametrize('name,ref,jref,domain', UNARY, ids=[u[0] for u in UNARY])
def test_unary_values_and_gradients(rng, name, ref, jref, domain):
    a = rng.standard_normal((3, 4)).astype(onp.float32)
    if domain == 'pos':
        a = onp.abs(a) + 0.5
    fn = getattr(np, name)
    y, (g,) = _grad_of(fn, a)
    assert isinstance(y, np.ndarray) and y.dtype == onp.float32
    onp.testing.assert_allclose(y.asnumpy(), ref(a), rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose(g, _jax_grad(jref, a)[0], rtol=1e-5, atol=1e-6)


BINARY = [('add', onp.add, jnp.add), ('subtract', onp.subtract, jnp.subtract),
          ('multiply', onp.multiply, jnp.multiply), ('true_divide', onp.true_divide, jnp.true_divide),
          ('maximum', onp.maximum, jnp.maximum), ('power', onp.power, jnp.power)]


@pytest.mark.parametrize('name,ref,jref', BINARY, ids=[b[0] for b in BINARY])
def test_binary_broadcast_values_and_gradients(rng, name, ref, jref):
    a = (rng.uniform(0.5, 2.0, (2, 3))).astype(onp.float32)
    b = (rng.uniform(0.5, 2.0, (3,))).astype(onp.float32)
    y, (ga, gb) = _grad_of(getattr(np, name), a, b)
    assert y.shape == (2, 3)
    onp.testing.assert_allclose(y.asnumpy(), ref(a, b), rtol=1e-5)
    ja, jb = _jax_grad(jref, a, b)
    onp.testing.assert_allclose(ga, ja, rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose(gb, jb, rtol=1e-5, atol=1e-6)


def test_operators_and_scalars_follow_mxnet_dtype_rules():
    i = np.array([1, 2, 3], dtype='int32')
    assert (i / 2).dtype == onp.float32 and (i / 2).tolist() == [0.5, 1.0, 1.5]
    assert (2 / i).dtype == onp.float32
    # MXNet casts a scalar to the array's type: int32 + 1.5 adds 1 (and stays int32)
    assert (i + 1.5).dtype == onp.int32 and (i + 1.5).tolist() == [2, 3, 4]
    assert (i ** 2).tolist() == [1, 4, 9] and (i ** 2).dtype == onp.int32
    f = np.array([1., 2., 3.])
    assert (i + f).dtype == onp.float32
    assert (f.astype('float64') + f).dtype == onp.float64
    assert (10 - f).tolist() == [9., 8., 7.] and (1 / f).asnumpy()[1] == 0.5
    assert np.floor_divide(f, 2).tolist() == [0., 1., 1.] and (f % 2).tolist() == [1., 0., 1.]
    with pytest.raises(TypeError):  # MXNet 1.9 np arrays have no // operator
        f // 2
    assert (-f).tolist() == [-1., -2., -3.] and abs(-f).tolist() == [1., 2., 3.]
    cmp = f > 1.5
    assert cmp.dtype == onp.bool_ and cmp.tolist() == [False, True, True]
    # MXNet 1.9 casts the scalar to the integer type first: i < 1.5 compares with 1
    assert (i < 1.5).tolist() == [False, False, False] and (i >= 1.5).tolist() == [True, True, True]
    assert (f == np.array([1., 5., 3.])).tolist() == [True, False, True]
    assert (2 >= f).tolist() == [True, True, False]
    assert (~cmp).tolist() == [True, False, False]
    assert np.logical_and(f > 1, f < 3).tolist() == [False, True, False]


def test_in_place_operators_and_out():
    x = np.ones((2, 2))
    y = x
    x += 1
    x *= np.array([1., 2.])
    assert y is x and x.tolist() == [[2., 4.], [2., 4.]]
    out = np.zeros((2, 2))
    res = np.add(x, 1, out=out)
    assert res is out and out.tolist() == [[3., 5.], [3., 5.]]


def test_broadcast_error_names_operator_and_shapes():
    with pytest.raises(MXNetError, match=r'broadcast_add.*\[2,3\].*\[4\]'):
        np.ones((2, 3)) + np.ones((4,))
    with pytest.raises(MXNetError, match=r'_np_dot: shape mismatch \[2,3\] x \[2,3\]'):
        np.dot(np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(MXNetError, match='cannot reshape array of shape'):
        np.ones((2, 3)).reshape(4, -1)


# ---- reductions -------------------------------------------------------------------------

@pytest.mark.parametrize('name,ref', [('sum', onp.sum), ('mean', onp.mean), ('max', onp.max), ('min', onp.min),
                                      ('prod', onp.prod), ('std', onp.std), ('var', onp.var)])
@pytest.mark.parametrize('axis,keepdims', [(None, False), ((0, 2), True)])
def test_reductions_against_numpy(rng, name, ref, axis, keepdims):
    a = rng.uniform(0.5, 1.5, (2, 3, 4)).astype(onp.float32)
    got = getattr(np, name)(np.array(a), axis=axis, keepdims=keepdims)
    want = ref(a, axis=axis, keepdims=keepdims)
    assert got.shape == want.shape  # a full reduction is 0-d, not (1,)
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
    method = getattr(np.array(a), name)(axis=axis, keepdims=keepdims)
    onp.testing.assert_allclose(method.asnumpy(), want, rtol=1e-5)


@pytest.mark.parametrize('name,jref', [('mean', jnp.mean), ('max', jnp.max), ('std', jnp.std)])
def test_reduction_gradients(rng, name, jref):
    a = rng.uniform(0.5, 1.5, (3, 4)).astype(onp.float32)
    _, (g,) = _grad_of(lambda x: getattr(np, name)(x, axis=1), a)
    onp.testing.assert_allclose(g, _jax_grad(lambda x: jref(x, axis=1), a)[0], rtol=1e-5, atol=1e-6)


def test_reduction_dtypes_and_arg_reductions():
    i = np.array([[1, 5, 3], [4, 2, 6]], dtype='int32')
    assert i.sum().dtype == onp.int32 and i.sum().item() == 21 and i.sum().shape == ()
    assert i.mean().dtype == onp.float32 and i.mean().item() == 3.5
    assert (i > 2).sum().dtype == onp.int64 and (i > 2).sum().item() == 4
    am = i.argmax(axis=1)
    assert am.dtype == onp.int64 and am.tolist() == [1, 2]
    assert np.argmin(i).item() == 0 and np.argmax(i).shape == ()
    assert np.cumsum(np.arange(4)).tolist() == [0., 1., 3., 6.]
    assert np.any(i > 5).item() is True and np.all(i > 0, axis=0).tolist() == [True, True, True]
    assert np.sum(i, axis=0, dtype='float32').dtype == onp.float32


# ---- creation, dtypes, printing ------------------------------------------------------------

def test_creation_defaults_are_float32_as_mxnet():
    assert np.array([1, 2, 3]).dtype == onp.float32  # Python lists: float32, even integers
    assert np.array([True, False]).tolist() == [1., 0.]
    assert np.array(onp.array([1, 2], dtype=onp.int64)).dtype == onp.int64  # numpy arrays keep theirs
    assert np.array(onp.array([1.5], dtype=onp.float64)).dtype == onp.float64
    assert np.array(5).shape == () and np.array(5).item() == 5.0
    assert np.zeros((2, 3)).dtype == onp.float32 and np.zeros(3, dtype=int).dtype == onp.int64
    assert np.ones(2, dtype=np.float16).dtype == onp.float16
    assert np.arange(5).tolist() == [0., 1., 2., 3., 4.] and np.arange(2, 5, dtype='int32').dtype == onp.int32
    assert np.arange(1, 2, 0.25).tolist() == [1., 1.25, 1.5, 1.75]
    onp.testing.assert_allclose(np.linspace(0, 1, 5).asnumpy(), onp.linspace(0, 1, 5))
    assert np.eye(3, k=1).tolist() == onp.eye(3, k=1).tolist()
    assert np.full((2,), 3).tolist() == [3., 3.] and np.full((2, 2), 7, dtype='int32').dtype == onp.int32
    x = np.arange(6).reshape(2, 3)
    assert np.zeros_like(x).shape == (2, 3) and np.ones_like(x, dtype='int32').dtype == onp.int32
    assert np.full_like(x, 2.5).tolist() == [[2.5] * 3] * 2
    assert np.float32 is onp.float32 and np.int64 is onp.int64 and np.pi == onp.pi and np.newaxis is None
    assert x.dtype == np.float32 and isinstance(x.dtype, onp.dtype)
    assert np.asarray(x) is x


def test_printing_matches_mxnet():
    # strings printed by MXNet 1.9.1's mx.np
    assert repr(np.array([1, 2, 3])) == 'array([1., 2., 3.])'
    assert repr(np.ones((2, 3))) == 'array([[1., 1., 1.],\n       [1., 1., 1.]])'
    assert str(np.ones((2, 3))) == '[[1. 1. 1.]\n [1. 1. 1.]]'
    assert repr(np.array([1, 2, 3], dtype='int32')) == 'array([1, 2, 3], dtype=int32)'
    assert repr(np.array([1, 2], dtype='int64')) == 'array([1, 2], dtype=int64)'
    assert repr(np.array([1.5, 2], dtype='float64')) == 'array([1.5, 2. ], dtype=float64)'
    assert repr(np.array([1, 2, 3]).sum()) == 'array(6.)'
    assert repr(np.array([1, 2, 3], dtype='int32').sum()) == 'array(6, dtype=int32)'
    assert repr(np.array([[1., 2.], [3., 4.]]) > 2) == 'array([[False, False],\n       [ True,  True]])'
    assert repr(np.zeros((0, 3))) == 'array([], shape=(0, 3))'
    assert str(np.array(3.)) == '3.0'
    assert repr(np.ones((2, 2), dtype='float16')) == 'array([[1., 1.],\n       [1., 1.]], dtype=float16)'
    long = repr(np.ones((3, 30)))
    assert long.startswith('array([[1., 1.,') and long.endswith('1.]])') and 'dtype' not in long


def test_scalar_conversions_and_iteration():
    x = np.array([[1., 2.], [3., 4.]])
    assert float(x[1, 1]) == 4.0 and int(x[0, 1]) == 2 and x.sum().item() == 10.0
    assert isinstance(x.sum().item(), float)
    assert len(x) == 2 and [r.tolist() for r in x] == [[1., 2.], [3., 4.]]
    assert x.size == 4 and x.ndim == 2 and x.shape == (2, 2)
    assert onp.array_equal(onp.asarray(x), x.asnumpy())
    with pytest.raises(TypeError):
        len(np.array(1.))


# ---- indexing ---------------------------------------------------------------------------

def test_basic_indexing_gives_numpy_shapes(rng):
    a = rng.standard_normal((3, 4, 5)).astype(onp.float32)
    x = np.array(a)
    for key in [1, -1, (1, 2), (1, 2, 3), slice(1, 3), (slice(None), 2), (Ellipsis, 1), (None, 1),
                (slice(0, 3, 2), slice(None, None, -1)), (1, Ellipsis, None)]:
        got = x[key]
        assert isinstance(got, np.ndarray)
        onp.testing.assert_array_equal(got.asnumpy(), a[key])
    assert x[1, 2, 3].shape == ()
    with pytest.raises(IndexError):
        x[3]
    # the shared indexing plan: reversed slices running to the start (mx.nd too)
    assert nd.arange(5)[::-1].asnumpy().tolist() == [4., 3., 2., 1., 0.]


def test_advanced_and_boolean_indexing(rng):
    a = rng.standard_normal((4, 3)).astype(onp.float32)
    x = np.array(a)
    idx = np.array([2, 0], dtype='int32')
    onp.testing.assert_array_equal(x[idx].asnumpy(), a[[2, 0]])
    onp.testing.assert_array_equal(x[range(3), [0, 1, 2]].asnumpy(), a[range(3), [0, 1, 2]])
    onp.testing.assert_array_equal(x[[0, 1], [1, 0]].asnumpy(), a[[0, 1], [1, 0]])
    onp.testing.assert_array_equal(x[x > 0].asnumpy(), a[a > 0])
    onp.testing.assert_array_equal(x[:, idx].asnumpy(), a[:, [2, 0]])
    onp.testing.assert_array_equal(x[onp.array([True, False, True, False])].asnumpy(), a[[0, 2]])


def test_setitem(rng):
    x = np.zeros((3, 3))
    x[1] = 5
    x[:, 0] = np.array([1, 2, 3])
    x[2, 2] = -1
    want = onp.array([[1, 0, 0], [2, 5, 5], [3, 0, -1]], dtype=onp.float32)
    onp.testing.assert_array_equal(x.asnumpy(), want)
    x[x > 4] = 0
    want[want > 4] = 0
    onp.testing.assert_array_equal(x.asnumpy(), want)
    x[:] = 7
    assert x.sum().item() == 63


def test_gradient_through_advanced_indexing():
    # the d2l cross-entropy: -log(y_hat[range(n), y])
    probs = onp.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], dtype=onp.float32)
    y = np.array([1, 0, 0], dtype='int32')
    y_hat = np.array(probs)
    y_hat.attach_grad()
    with autograd.record():
        loss = -np.log(y_hat[range(3), y]).sum()
    loss.backward()
    want = onp.zeros_like(probs)
    want[[0, 1, 2], [1, 0, 0]] = -1 / probs[[0, 1, 2], [1, 0, 0]]
    onp.testing.assert_allclose(y_hat.grad.asnumpy(), want, rtol=1e-5)


# ---- shapes -----------------------------------------------------------------------------

def test_shape_functions_against_numpy(rng):
    a = rng.standard_normal((2, 3, 4)).astype(onp.float32)
    x = np.array(a)
    checks = [
        (np.reshape(x, (4, -1)), a.reshape(4, -1)), (x.reshape(-1), a.reshape(-1)),
        (x.reshape(6, 4), a.reshape(6, 4)), (x.T, a.T), (x.transpose(1, 0, 2), a.transpose(1, 0, 2)),
        (np.swapaxes(x, 0, 2), onp.swapaxes(a, 0, 2)), (np.expand_dims(x, 1), onp.expand_dims(a, 1)),
        (np.squeeze(x[:, :1]), onp.squeeze(a[:, :1])), (x.flatten(), a.flatten()),
        (np.concatenate([x, x], axis=1), onp.concatenate([a, a], axis=1)),
        (np.concatenate([x, x], axis=None), onp.concatenate([a, a], axis=None)),
        (np.stack([x, x], axis=-1), onp.stack([a, a], axis=-1)), (np.flip(x, 1), onp.flip(a, 1)),
        (np.flip(x), onp.flip(a)), (np.tile(x, (1, 2, 1)), onp.tile(a, (1, 2, 1))),
        (np.repeat(x, 2, axis=0), onp.repeat(a, 2, axis=0)), (np.repeat(x, 2), onp.repeat(a, 2)),
        (np.broadcast_to(x[:, :1], (2, 3, 4)), onp.broadcast_to(a[:, :1], (2, 3, 4))),
        (np.broadcast_to(x[0, 0], (3, 4)), onp.broadcast_to(a[0, 0], (3, 4))),
        (np.moveaxis(x, 0, -1), onp.moveaxis(a, 0, -1)), (np.clip(x, -0.5, 0.5), onp.clip(a, -0.5, 0.5)),
        (x.clip(None, 0.1), a.clip(None, 0.1)), (np.where(x > 0, x, 0), onp.where(a > 0, a, 0)),
        (np.where(x > 0, 1., -1.), onp.where(a > 0, 1., -1.)), (np.sort(x), onp.sort(a)),
        (np.take(x, np.array([1, 0], dtype='int64'), axis=1), onp.take(a, [1, 0], axis=1)),
        (np.vstack([x[0], x[1]]), onp.vstack([a[0], a[1]])), (np.hstack([x[0], x[1]]), onp.hstack([a[0], a[1]])),
    ]
    for got, want in checks:
        assert got.shape == want.shape
        onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    parts = np.split(x, 3, axis=1)
    assert len(parts) == 3 and all(p.shape == (2, 1, 4) for p in parts)
    parts = np.split(x, [1, 3], axis=2)
    assert [p.shape for p in parts] == [(2, 3, 1), (2, 3, 2), (2, 3, 1)]
    assert np.argsort(np.array([3., 1., 2.])).tolist() == [1, 2, 0]
    assert np.argsort(np.array([3., 1., 2.])).dtype == onp.int64
    with pytest.raises(MXNetError, match='_npi_concatenate'):
        np.concatenate([np.ones((2, 3)), np.ones((3, 2))], axis=0)


def test_shape_function_gradients(rng):
    a = rng.standard_normal((2, 3)).astype(onp.float32)
    b = rng.standard_normal((2, 3)).astype(onp.float32)
    fn = lambda x, y: np.concatenate([x * 2, y.T.reshape(2, 3)], axis=0).max(axis=0)  # noqa: E731
    jfn = lambda x, y: jnp.concatenate([x * 2, y.T.reshape(2, 3)], axis=0).max(axis=0)  # noqa: E731
    _, (ga, gb) = _grad_of(fn, a, b)
    ja, jb = _jax_grad(jfn, a, b)
    onp.testing.assert_allclose(ga, ja)
    onp.testing.assert_allclose(gb, jb)


# ---- linear algebra ----------------------------------------------------------------------

def test_products_against_numpy(rng):
    a = rng.standard_normal((2, 3, 4)).astype(onp.float32)
    m = rng.standard_normal((4, 5)).astype(onp.float32)
    v = rng.standard_normal(4).astype(onp.float32)
    for got, want in [(np.dot(np.array(v), np.array(v)), onp.dot(v, v)),
                      (np.dot(np.array(a), np.array(m)), onp.dot(a, m)),
                      (np.array(a) @ np.array(m), a @ m), (np.matmul(np.array(a), np.array(v)), a @ v),
                      (np.tensordot(np.array(a), np.array(m), axes=1), onp.tensordot(a, m, axes=1)),
                      (np.outer(np.array(v), np.array(v)), onp.outer(v, v)),
                      (np.inner(np.array(v), np.array(v)), onp.inner(v, v)),
                      (np.array(a).dot(np.array(m)), a.dot(m))]:
        assert got.shape == want.shape
        onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-5)
    _, (ga, gm) = _grad_of(np.matmul, a, m)
    ja, jm = _jax_grad(jnp.matmul, a, m)
    onp.testing.assert_allclose(ga, ja, rtol=1e-5)
    onp.testing.assert_allclose(gm, jm, rtol=1e-5)


def test_linalg_against_numpy(rng):
    a = rng.standard_normal((3, 3)).astype(onp.float32)
    spd = a @ a.T + 3 * onp.eye(3, dtype=onp.float32)
    b = rng.standard_normal((3, 2)).astype(onp.float32)
    x = np.array(spd)
    onp.testing.assert_allclose(np.linalg.norm(np.array(a)).asnumpy(), onp.linalg.norm(a), rtol=1e-5)
    onp.testing.assert_allclose(np.linalg.norm(np.array(a), axis=1).asnumpy(), onp.linalg.norm(a, axis=1),
                                rtol=1e-5)
    onp.testing.assert_allclose(np.linalg.norm(np.array(a), ord=1, axis=0).asnumpy(),
                                onp.linalg.norm(a, ord=1, axis=0), rtol=1e-5)
    onp.testing.assert_allclose(np.linalg.inv(x).asnumpy(), onp.linalg.inv(spd), rtol=1e-4, atol=1e-5)
    onp.testing.assert_allclose(np.linalg.det(x).asnumpy(), onp.linalg.det(spd), rtol=1e-4)
    onp.testing.assert_allclose(np.linalg.solve(x, np.array(b)).asnumpy(), onp.linalg.solve(spd, b),
                                rtol=1e-4, atol=1e-5)
    onp.testing.assert_allclose(np.linalg.cholesky(x).asnumpy(), onp.linalg.cholesky(spd), rtol=1e-4,
                                atol=1e-5)
    _, (g,) = _grad_of(lambda m: np.linalg.norm(m), a)
    onp.testing.assert_allclose(g, a / onp.linalg.norm(a), rtol=1e-5)
    with pytest.raises(MXNetError, match='square'):
        np.linalg.inv(np.ones((2, 3)))


# ---- random -----------------------------------------------------------------------------

def test_random_shapes_dtypes_and_seed():
    assert np.random.uniform().shape == ()
    u = np.random.uniform(2, 3, size=(1000,))
    assert u.dtype == onp.float32 and 2 <= u.asnumpy().min() and u.asnumpy().max() < 3
    n = np.random.normal(1, 2, (2000,)).asnumpy()
    assert abs(n.mean() - 1) < 0.2 and abs(n.std() - 2) < 0.2
    r = np.random.randint(0, 5, (100,))
    assert r.dtype == onp.int64 and set(r.tolist()) == set(range(5))
    mu = np.random.normal(np.array([0., 100.]), 1.0, size=(50, 2)).asnumpy().mean(0)
    assert abs(mu[0]) < 1 and abs(mu[1] - 100) < 1  # array parameters broadcast against size
    c = np.random.choice(4, size=4, replace=False)
    assert sorted(c.tolist()) == [0, 1, 2, 3]
    npx.random.seed(42)
    a = np.random.normal(size=(3,))
    npx.seed(42)
    b = np.random.normal(size=(3,))
    onp.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


# ---- npx -----------------------------------------------------------------------------------

def _softmax(a, axis=-1):
    e = onp.exp(a - a.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def test_npx_activations_against_numpy(rng):
    a = rng.standard_normal((3, 4)).astype(onp.float32)
    x = np.array(a)
    onp.testing.assert_allclose(npx.relu(x).asnumpy(), onp.maximum(a, 0))
    onp.testing.assert_allclose(npx.sigmoid(x).asnumpy(), 1 / (1 + onp.exp(-a)), rtol=1e-6)
    onp.testing.assert_allclose(npx.softmax(x).asnumpy(), _softmax(a), rtol=1e-5)
    onp.testing.assert_allclose(npx.softmax(x, axis=0).asnumpy(), _softmax(a, 0), rtol=1e-5)
    onp.testing.assert_allclose(npx.log_softmax(x).asnumpy(), onp.log(_softmax(a)), rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose(npx.activation(x, act_type='tanh').asnumpy(), onp.tanh(a), rtol=1e-6)
    onp.testing.assert_allclose(npx.leaky_relu(x, slope=0.1).asnumpy(), onp.where(a > 0, a, 0.1 * a), rtol=1e-6)
    _, (g,) = _grad_of(lambda t: npx.log_softmax(t) * np.arange(4), a)
    want = _jax_grad(lambda t: jax.nn.log_softmax(t) * jnp.arange(4.), a)[0]
    onp.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6)
    assert isinstance(npx.relu(x), np.ndarray)


def test_npx_indexing_and_sequence_ops():
    y_hat = np.array([[0.1, 0.9, 0.0], [0.8, 0.2, 0.0]])
    assert npx.pick(y_hat, np.array([1, 0])).tolist() == pytest.approx([0.9, 0.8])
    assert npx.one_hot(np.array([0, 2]), 3).tolist() == [[1., 0., 0.], [0., 0., 1.]]
    top = npx.topk(np.array([3., 1., 2.]), k=2)
    assert top.tolist() == [0., 2.]
    vals = npx.topk(np.array([3., 1., 2.]), k=2, ret_typ='value')
    assert vals.tolist() == [3., 2.]
    masked = npx.sequence_mask(np.ones((3, 2)), np.array([1., 2.]), use_sequence_length=True)
    assert masked.tolist() == [[1., 1.], [0., 1.], [0., 0.]]
    a = onp.arange(12, dtype=onp.float32).reshape(2, 2, 3)
    b = onp.arange(12, dtype=onp.float32).reshape(2, 3, 2)
    onp.testing.assert_allclose(npx.batch_dot(np.array(a), np.array(b)).asnumpy(), a @ b)


def test_npx_layers_against_numpy(rng):
    x = rng.standard_normal((2, 5)).astype(onp.float32)
    w = rng.standard_normal((3, 5)).astype(onp.float32)
    b = rng.standard_normal(3).astype(onp.float32)
    fc = npx.fully_connected(np.array(x), np.array(w), np.array(b), num_hidden=3)
    onp.testing.assert_allclose(fc.asnumpy(), x @ w.T + b, rtol=1e-5)
    img = np.array(rng.standard_normal((1, 2, 5, 5)).astype(onp.float32))
    k = np.array(rng.standard_normal((4, 2, 3, 3)).astype(onp.float32))
    conv = npx.convolution(img, k, no_bias=True, kernel=(3, 3), num_filter=4)
    assert conv.shape == (1, 4, 3, 3) and isinstance(conv, np.ndarray)
    ref = sum(img.asnumpy()[0, c, 0:3, 0:3] * k.asnumpy()[1, c] for c in range(2)).sum()
    assert conv[0, 1, 0, 0].item() == pytest.approx(ref, rel=1e-4)
    pool = npx.pooling(img, kernel=(2, 2), stride=(2, 2), pool_type='max')
    onp.testing.assert_allclose(pool.asnumpy(), img.asnumpy()[:, :, :4, :4].reshape(1, 2, 2, 2, 2, 2).max((3, 5)))
    emb = npx.embedding(np.array([2, 0]), np.array(w), input_dim=3, output_dim=5)
    onp.testing.assert_allclose(emb.asnumpy(), w[[2, 0]])
    ln = npx.layer_norm(np.array(x), np.ones(5), np.zeros(5), axis=-1, eps=1e-5)
    want = (x - x.mean(-1, keepdims=True)) / onp.sqrt(x.var(-1, keepdims=True) + 1e-5)
    onp.testing.assert_allclose(ln.asnumpy(), want, rtol=1e-4, atol=1e-5)
    bn = npx.batch_norm(np.array(x), np.ones(5), np.zeros(5), np.zeros(5), np.ones(5), fix_gamma=False,
                        use_global_stats=True, eps=1e-5)
    onp.testing.assert_allclose(bn.asnumpy(), x / onp.sqrt(1 + 1e-5), rtol=1e-5)
    ones = np.ones((100, 100))
    assert npx.dropout(ones, p=0.5).tolist() == ones.tolist()  # identity outside training
    with autograd.train_mode():
        kept = (npx.dropout(ones, p=0.5) > 0).mean().item()
    assert 0.4 < kept < 0.6


def test_npx_devices_and_modes():
    assert npx.cpu() == mx.cpu() and npx.num_gpus() == mx.context.num_gpus()
    npx.waitall()
    assert not npx.is_np_array()
    npx.set_np()
    try:
        assert npx.is_np_array() and npx.is_np_shape()
    finally:
        npx.reset_np()
    assert not npx.is_np_array()

    @npx.use_np
    def inside():
        return npx.is_np_array()
    assert inside() and not npx.is_np_array()
    with pytest.raises(ValueError):
        npx.set_np(shape=False, array=True)


def test_front_end_conversions_share_autograd():
    x = np.array([1., 2.])
    x.attach_grad()
    with autograd.record():
        legacy = x.as_nd_ndarray()
        assert type(legacy) is nd.NDArray
        back = nd.square(legacy).as_np_ndarray()
        assert isinstance(back, np.ndarray)
        y = back.sum()
    y.backward()
    assert x.grad.tolist() == [2., 4.] and isinstance(x.grad, np.ndarray)
    assert x.as_np_ndarray() is x


def test_np_functions_accept_symbols():
    data = mx.sym.var('data')
    out = np.sum(npx.relu(data) * 2, axis=1)
    res = out.eval(data=nd.array([[-1., 2.], [3., 4.]]))[0]
    assert res.asnumpy().tolist() == [4., 14.]


# ---- Gluon under npx.set_np() ----------------------------------------------------------------

def test_gluon_takes_and_returns_np_arrays(np_mode):
    net = nn.HybridSequential()
    net.add(nn.Dense(4, activation='relu'), nn.Dense(2))
    net.initialize()
    x = np.random.uniform(size=(3, 5))
    eager = net(x)
    assert isinstance(eager, np.ndarray)
    assert isinstance(net[0].weight.data(), np.ndarray)
    net.hybridize()
    compiled = net(x)
    assert isinstance(compiled, np.ndarray)
    onp.testing.assert_allclose(eager.asnumpy(), compiled.asnumpy(), rtol=1e-6)
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    with autograd.record():
        lv = loss(net(x), np.array([0, 1, 1]))
    lv.backward()
    trainer.step(3)
    assert isinstance(lv, np.ndarray) and lv.shape == (3,)
    assert isinstance(net[0].weight.grad(), np.ndarray)
    ds = gluon.data.ArrayDataset(onp.ones((4, 2), dtype=onp.float32), onp.arange(4, dtype=onp.int32))
    for xb, yb in gluon.data.DataLoader(ds, batch_size=2):
        assert isinstance(xb, np.ndarray) and isinstance(yb, np.ndarray) and yb.dtype == onp.int32
    metric = mx.metric.Accuracy()
    metric.update(np.array([1, 0]), np.array([[0.1, 0.9], [0.8, 0.2]]))
    assert metric.get() == ('accuracy', 1.0)


def test_hybridized_numpy_style_blocks_match_eager(np_mode):
    class Net(nn.HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.hidden = nn.Dense(4)
            self.scale = self.params.get('scale', shape=(1, 4), init=mx.init.Constant(0.5))

        def forward(self, x):
            h = npx.relu(self.hidden(x))
            # broadcasting arithmetic and 0-d reductions inside a traced block, as in MXNet's np
            return np.tanh(h) * self.scale.data() + h.sum(axis=1, keepdims=True) - x.mean()

    class Legacy(nn.HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = nn.Dense(3)

        def hybrid_forward(self, F, x):
            h = self.dense(x)
            return F.npx.relu(F.np.dot(h, h.T)) + 1

    x = np.random.uniform(size=(3, 5))
    for net in (Net(), Legacy()):
        net.initialize()
        eager = net(x)
        net.hybridize()
        compiled = net(x)
        assert isinstance(compiled, np.ndarray)
        onp.testing.assert_allclose(eager.asnumpy(), compiled.asnumpy(), rtol=1e-5, atol=1e-6)


def _mlp_params(rng):
    return [rng.normal(0, 0.3, s).astype(onp.float32) for s in [(5, 8), (8,), (8, 3), (3,)]]


def test_nd_and_np_from_scratch_models_agree(rng):
    xs = rng.standard_normal((6, 5)).astype(onp.float32)
    labels = onp.array([0, 1, 2, 0, 1, 2])
    host = _mlp_params(rng)

    def run(front, array_fn, relu, dot, log_softmax, pick):
        params = [array_fn(p) for p in host]
        for p in params:
            p.attach_grad()
        X, y = array_fn(xs), array_fn(labels.astype(onp.float32))
        with autograd.record():
            W1, b1, W2, b2 = params
            out = dot(relu(dot(X, W1) + b1), W2) + b2
            loss = -pick(log_softmax(out), y).mean()
        loss.backward()
        return float(loss.asnumpy().reshape(-1)[0]), [p.grad.asnumpy() for p in params]

    nd_loss, nd_grads = run('nd', nd.array, nd.relu, nd.dot, nd.log_softmax, nd.pick)
    np_loss, np_grads = run('np', np.array, npx.relu, np.dot, npx.log_softmax, npx.pick)
    assert np_loss == pytest.approx(nd_loss, rel=1e-6)
    for a, b in zip(nd_grads, np_grads):
        onp.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def test_nd_and_np_gluon_models_agree(rng):
    xs = rng.standard_normal((4, 1, 4, 4)).astype(onp.float32)
    labels = onp.array([0, 1, 2, 1], dtype=onp.float32)

    def build():
        net = nn.HybridSequential()
        net.add(nn.Dense(6, activation='relu'), nn.Dense(3))
        net.initialize(mx.init.Xavier())
        return net

    def step(net, arr):
        with autograd.record():
            loss = gluon.loss.SoftmaxCrossEntropyLoss()(net(arr(xs)), arr(labels))
        loss.backward()
        return loss, net[0].weight.grad()

    legacy = build()
    nd_loss, nd_grad = step(legacy, nd.array)
    assert type(nd_loss) is nd.NDArray
    npx.set_np()
    try:
        modern = build()
        modern(np.array(xs))
        for p_old, p_new in zip(legacy.collect_params().values(), modern.collect_params().values()):
            p_new.set_data(p_old.data().asnumpy())
        results = [step(modern, np.array)]
        modern.hybridize()
        results.append(step(modern, np.array))
    finally:
        npx.reset_np()
    for loss, grad in results:
        assert isinstance(loss, np.ndarray) and isinstance(grad, np.ndarray)
        onp.testing.assert_allclose(loss.asnumpy(), nd_loss.asnumpy(), rtol=1e-5)
        onp.testing.assert_allclose(grad.asnumpy(), nd_grad.asnumpy(), rtol=1e-4, atol=1e-6)


def test_autograd_grad_of_np_variables_gives_np_arrays():
    x = np.array([1., 2., 3.])
    x.attach_grad()
    with autograd.record():
        y = (x * x).sum()
    g, = autograd.grad(y, [x])
    assert isinstance(g, np.ndarray)
    onp.testing.assert_allclose(g.asnumpy(), [2., 4., 6.])


@pytest.mark.parametrize('subscripts, shapes', [('ij,jk->ik', [(2, 3), (3, 4)]), ('ii', [(3, 3)]),
                                                ('bij,bjk->bik', [(2, 2, 3), (2, 3, 2)]), ('i,i', [(4,), (4,)])])
def test_einsum_matches_numpy_with_gradients(subscripts, shapes):
    rng = onp.random.default_rng(0)
    xs = [rng.standard_normal(s) for s in shapes]
    arrays = [np.array(x, dtype='float64') for x in xs]
    for a in arrays:
        a.attach_grad()
    with autograd.record():
        y = np.einsum(subscripts, *arrays)
        loss = (y * y).sum()
    loss.backward()
    onp.testing.assert_allclose(y.asnumpy(), onp.einsum(subscripts, *xs), rtol=1e-12)
    with jax.enable_x64(True):  # the float64 reference (gluonjax leaves jax's x64 default off)
        ref = jax.grad(lambda *v: (jnp.einsum(subscripts, *v) ** 2).sum(), argnums=tuple(range(len(xs))))(*xs)
    for a, g in zip(arrays, ref):
        onp.testing.assert_allclose(a.grad.asnumpy(), g, rtol=1e-10)
    with pytest.raises(MXNetError, match='_npi_einsum'):
        np.einsum('ij,jk->ik', np.ones((2, 3)), np.ones((2, 3)))


@pytest.mark.parametrize('shape', [(2, 3), (4, 2), (2, 3, 3)])
def test_svd_reconstructs_and_matches_numpy_singular_values(shape):
    """MXNet 1.9.1 gives the same factors up to the sign of each singular vector pair (and
    accepts only rows <= columns); the product and the singular values are what is defined."""
    a = onp.random.default_rng(1).standard_normal(shape).astype(onp.float32)
    ut, l, v = np.linalg.svd(np.array(a))
    assert ut.shape == shape[:-1] + (min(shape[-2:]),) and v.shape == shape[:-2] + (min(shape[-2:]), shape[-1])
    onp.testing.assert_allclose(l.asnumpy(), onp.linalg.svd(a, compute_uv=False), rtol=1e-5)
    back = onp.matmul(ut.asnumpy() * l.asnumpy()[..., None, :], v.asnumpy())
    onp.testing.assert_allclose(back, a, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('mode', ['constant', 'edge', 'reflect', 'symmetric', 'maximum', 'minimum', 'mean'])
def test_pad_matches_numpy(mode):
    x = onp.arange(12, dtype=onp.float32).reshape(3, 4)
    for width in (1, (2, 1), ((1, 0), (0, 2))):
        kw = {'constant_values': 7} if mode == 'constant' else {}
        got = np.pad(np.array(x), width, mode=mode, **kw)
        onp.testing.assert_array_equal(got.asnumpy(), onp.pad(x, width, mode=mode, **kw), err_msg=str(width))
    with pytest.raises(MXNetError, match="_npi_pad: mode must be one of"):
        np.pad(np.array(x), 1, mode='wrapping')


def test_unique_as_mxnet():
    """MXNet 1.9.1: unique([3, 1, 3, 2], all returns) -> ([1, 2, 3], [1, 3, 0], [2, 0, 2, 1], [1, 1, 2])."""
    values, index, inverse, counts = np.unique(np.array([3., 1., 3., 2.]), return_index=True,
                                               return_inverse=True, return_counts=True)
    assert values.dtype == onp.float32 and index.dtype == inverse.dtype == counts.dtype == onp.int64
    onp.testing.assert_array_equal(values.asnumpy(), [1, 2, 3])
    onp.testing.assert_array_equal(index.asnumpy(), [1, 3, 0])
    onp.testing.assert_array_equal(inverse.asnumpy(), [2, 0, 2, 1])
    onp.testing.assert_array_equal(counts.asnumpy(), [1, 1, 2])
    only = np.unique(np.array([3, 1, 3, 2], dtype='int32'))
    assert isinstance(only, np.ndarray) and only.dtype == onp.int32
    onp.testing.assert_array_equal(only.asnumpy(), [1, 2, 3])


def test_division_and_means_are_correctly_rounded(rng):
    # XLA would multiply by the reciprocal (15.1 / 3 -> 5.033334); MXNet and NumPy divide
    x = rng.uniform(-30, 30, (5, 7)).astype('float32')
    a = np.array(x)
    assert (a / 3).asnumpy().tolist() == (x / onp.float32(3)).tolist()
    assert (a / np.array(x[:, :1])).asnumpy().tolist() == (x / x[:, :1]).tolist()
    assert a.mean(axis=1).asnumpy().tolist() == (x.sum(axis=1) / onp.float32(7)).tolist()
    assert np.round(np.array([22.494442]), 3).item() == onp.float32(22.494).item()
    assert float(np.std(np.array([1., 2., 3., 4.]), ddof=1)) == float(onp.sqrt(onp.float32(5) / onp.float32(3)))
    x.flat[0] = 2.
    g = jax.grad(lambda v: jnp.sum(v / 3.0))(jnp.asarray(x))
    b = np.array(x)
    b.attach_grad()
    with autograd.record():
        y = (b / 3).sum()
    y.backward()
    assert onp.allclose(b.grad.asnumpy(), g)


def test_bitwise_operators_on_integers_and_bools():
    i = np.array([1, 6, 3], dtype='int32')
    m = np.array([True, False, True], dtype='bool')
    assert (i & 6).tolist() == [0, 6, 2] and (i & 6).dtype == onp.int32
    assert (i | i).tolist() == [1, 6, 3] and (i ^ 5).tolist() == [4, 3, 6]
    assert (~i).tolist() == [-2, -7, -4] and np.invert(i).dtype == onp.int32
    assert (~m).tolist() == [False, True, False] and (m & (i > 2)).tolist() == [False, False, True]
    with pytest.raises(MXNetError, match='bitwise_and: only integer and bool'):
        np.array([1., 2.]) & np.array([1., 2.])
    with pytest.raises(TypeError):
        1 & i  # no reflected form in MXNet


def test_operators_reject_numpy_arrays_and_lists():
    f = np.array([1., 2., 3.])
    for other in (onp.ones(3), [1, 2, 3]):
        with pytest.raises(TypeError, match='not supported'):
            f + other
    with pytest.raises(TypeError):
        onp.ones(3) * f
    assert (onp.float32(2) * f).tolist() == [2., 4., 6.]
    with pytest.raises(TypeError, match='size-1'):
        float(f)


def test_in_place_keeps_shape_and_dtype():
    f = np.array([1., 2., 3.])
    with pytest.raises(MXNetError, match=r'shape inconsistent, provided \[3\], inferred \[2,3\]'):
        f += np.ones((2, 3))
    assert f.shape == (3,)
    i = np.array([1, 2, 3], dtype='int32')
    with pytest.raises(MXNetError, match='type inconsistent'):
        i += f
    with pytest.raises(MXNetError, match='type inconsistent'):
        i /= 2
    i *= 2.5  # the scalar takes the array's type first, as in MXNet
    assert i.tolist() == [2, 4, 6] and i.dtype == onp.int32
    f += i
    assert f.tolist() == [3., 6., 9.] and f.dtype == onp.float32


def test_setitem_with_index_arrays_selects_points_not_blocks():
    c = np.arange(12).reshape(3, 4)
    c[c > 6] = 0
    ref = onp.arange(12, dtype='float32').reshape(3, 4)
    ref[ref > 6] = 0
    assert c.asnumpy().tolist() == ref.tolist()
    c[[0, 1], [1, 2]] = -1
    ref[[0, 1], [1, 2]] = -1
    c[np.array([2], dtype='int32'), 1:3] = 5
    ref[[2], 1:3] = 5
    assert c.asnumpy().tolist() == ref.tolist()
    d = nd.zeros((3, 4))
    d[[0, 1], [1, 2]] = 1
    assert d.asnumpy().sum() == 2


def test_creation_edge_cases_raise_as_mxnet():
    with pytest.raises(ZeroDivisionError):
        np.arange(0, 3, 0)
    with pytest.raises(TypeError):
        np.array([[1, 2], [3]])
    with pytest.raises(ValueError, match='equal sections'):
        np.split(np.arange(6), 4)
    assert np.full((2,), True).dtype == onp.bool_ and np.full((2,), 3).dtype == onp.float32
    assert mx.util.is_np_array() == npx.is_np_array()


@pytest.mark.parametrize('indexing', ['xy', 'ij'])
def test_meshgrid_matches_numpy(indexing):
    vectors = [onp.arange(3, dtype='float32'), onp.array([1.5, -2.], dtype='float32'), onp.arange(4, dtype='float32')]
    for n in (1, 2, 3):
        got = np.meshgrid(*[np.array(v) for v in vectors[:n]], indexing=indexing)
        ref = onp.meshgrid(*vectors[:n], indexing=indexing)
        assert isinstance(got, list) and len(got) == n
        for g, r in zip(got, ref):
            assert isinstance(g, np.ndarray) and g.dtype == onp.float32
            onp.testing.assert_array_equal(g.asnumpy(), r)
    flat = np.meshgrid(np.ones((2, 2)), np.arange(3))  # inputs of more than one axis are flattened
    assert [g.shape for g in flat] == [(3, 4), (3, 4)]
    assert np.meshgrid() == []
    with pytest.raises(ValueError, match='indexing'):
        np.meshgrid(np.arange(2), indexing='yx')
    with pytest.raises(NotImplementedError, match='sparse'):
        np.meshgrid(np.arange(2), sparse=True)


# ---- issue 15: more mx.np functions (gluonjax/numpy/_functions.py, ops/numpy_more.py) ------

def _close(mx_out, ref):
    onp.testing.assert_allclose(mx_out.asnumpy(), ref, rtol=1e-5, atol=1e-6)


def test_triangles_diagonals_rolls_match_numpy():
    a = onp.random.uniform(size=(4, 5, 6)).astype('float32')
    x = np.array(a)
    _close(np.tril(x, 1), onp.tril(a, 1))
    _close(np.triu(x, -1), onp.triu(a, -1))
    _close(np.tril(x[0, 0], 2), onp.tril(a[0, 0], 2))  # 1-d: repeated into a square first
    _close(np.trace(x, 1, 1, 2), onp.trace(a, 1, 1, 2))
    _close(np.diagonal(x, -1, 0, 2), onp.diagonal(a, -1, 0, 2))
    _close(np.diag(x[0]), onp.diag(a[0]))
    _close(np.diag(x[0, 0], 2), onp.diag(a[0, 0], 2))
    _close(np.diagflat(x[0], 1), onp.diagflat(a[0], 1))
    _close(np.roll(x, 3), onp.roll(a, 3))
    _close(np.roll(x, (1, -2), (0, 2)), onp.roll(a, (1, -2), (0, 2)))
    _close(np.rot90(x, 3, (1, 2)), onp.rot90(a, 3, (1, 2)))
    _close(np.flipud(x), onp.flipud(a))
    _close(np.fliplr(x), onp.fliplr(a))
    with pytest.raises(MXNetError, match='_np_diag'):
        np.diag(x)


def test_differences_stacking_splitting_match_numpy():
    a = onp.random.uniform(size=(4, 5, 6)).astype('float32')
    x = np.array(a)
    _close(np.diff(x, 2, 1), onp.diff(a, 2, 1))
    _close(np.ediff1d(x, to_end=np.array([1., 2.]), to_begin=3.), onp.ediff1d(a, to_end=[1., 2.], to_begin=3.))
    _close(np.column_stack([x[0, 0], x[0, 1]]), onp.column_stack([a[0, 0], a[0, 1]]))
    _close(np.dstack([x[0], x[1]]), onp.dstack([a[0], a[1]]))
    _close(np.append(x, x[0:1], axis=0), onp.append(a, a[0:1], axis=0))
    for got, ref in zip(np.hsplit(x, 5), onp.hsplit(a, 5)):
        _close(got, ref)
    for got, ref in zip(np.dsplit(x, [1, 3]), onp.dsplit(a, [1, 3])):
        _close(got, ref)
    parts = np.array_split(x, 4, axis=2)
    assert [p.shape for p in parts] == [p.shape for p in onp.array_split(a, 4, axis=2)]
    assert np.atleast_3d(x[0, 0]).shape == (1, 6, 1)
    assert [t.shape for t in np.atleast_2d(x[0, 0], x)] == [(1, 6), (4, 5, 6)]
    _close(np.broadcast_arrays(x[0, 0:1], x[0])[0], onp.broadcast_arrays(a[0, 0:1], a[0])[0])


def test_values_and_creation_functions_match_numpy():
    b = onp.array([onp.nan, onp.inf, -onp.inf, 1.], 'float32')
    _close(np.nan_to_num(np.array(b), nan=2., posinf=5.), onp.nan_to_num(b, nan=2., posinf=5.))
    x = np.array(b)
    assert np.nan_to_num(x, copy=False) is x and onp.isfinite(x.asnumpy()).all()
    a = onp.random.uniform(size=(3, 4)).astype('float32')
    _close(np.polyval(np.array([1., 2., 3.]), np.array(a)), onp.polyval([1., 2., 3.], a))
    _close(np.logspace(1, 3, 7, base=2.), onp.logspace(1, 3, 7, base=2.).astype('float32'))
    assert np.indices((2, 3)).dtype == onp.int32
    _close(np.indices((2, 3)), onp.indices((2, 3)))
    idx = np.array([1, 7, 20], dtype='int64')
    coords = np.unravel_index(idx, (4, 6))  # a tuple of arrays, as MXNet's and NumPy's
    assert isinstance(coords, tuple) and len(coords) == 2
    for got, want in zip(coords, onp.unravel_index([1, 7, 20], (4, 6))):
        _close(got, want)
    _close(np.average(np.array(a), axis=1, weights=np.arange(4)), onp.average(a, axis=1, weights=onp.arange(4)))


def test_new_functions_differentiate_and_hybridize():
    a = onp.random.uniform(size=(3, 4)).astype('float32')
    y, (g,) = _grad_of(lambda x: np.tril(x, 0) + np.roll(x, 1, 1) * 2, a)
    onp.testing.assert_allclose(g, onp.tril(onp.ones((3, 4))) + 2, rtol=1e-6)

    class Net(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.trace(x) + F.np.diff(x, 1, 0).sum() + F.np.zeros((1,)) + F.np.tensordot(x, x.T, 1).sum()

    npx.set_np()
    try:
        net = Net()
        eager = net(np.array(a))
        net.hybridize()
        traced = net(np.array(a))
    finally:
        npx.reset_np()
    ref = onp.trace(a) + onp.diff(a, 1, 0).sum() + onp.tensordot(a, a.T, 1).sum()
    onp.testing.assert_allclose(eager.asnumpy(), [ref], rtol=1e-5)
    onp.testing.assert_allclose(traced.asnumpy(), [ref], rtol=1e-5)


def test_npx_reshape_special_codes_as_mxnet():
    cases = [((2, 3, 5, 4), (-1, -2, -2), False, (8, 3, 5)), ((2, 1, 4, 5), (-2, -3, -2, -2), False, (2, 4, 5)),
             ((2, 3, 5, 6), (6, 1, -4), False, (6, 1, 5, 6)), ((2, 3, 5, 6), (-5, -1), False, (6, 30)),
             ((64, 1, 2, 3), (-6, 16, -1, -4), False, (16, 4, 1, 2, 3)),
             ((8, 5, 4, 6), (-4, -1, 3, -6), True, (8, 5, 4, 2, 3))]
    for shape, newshape, reverse, expected in cases:
        a = onp.random.uniform(size=shape).astype('float32')
        _close(npx.reshape(np.array(a), newshape, reverse=reverse), a.reshape(expected))
    with pytest.raises(MXNetError, match='_npx_reshape'):
        npx.reshape(np.ones((2, 3)), (-3, -1))


def test_zero_d_boolean_index_and_c_order_only():
    a = np.arange(6).reshape(2, 3)
    t, f = np.array(True, dtype='bool'), np.array(False, dtype='bool')
    assert a[t].shape == (1, 2, 3) and a[f].shape == (0, 2, 3)
    with pytest.raises(NotImplementedError):
        np.empty((2,), order='F')
    with pytest.raises(NotImplementedError):
        a.copy(order='F')
    assert '{:0.3g}'.format(np.array(onp.pi)) == '3.14' and '{}'.format(a) == str(a.asnumpy())
    with pytest.raises(TypeError):
        '{:30}'.format(a)
    host = a.asnumpy()
    host[0, 0] = 7  # asnumpy is a writable copy, as MXNet's
    assert a[0, 0].item() == 0


def test_np_parameters_of_use_np_blocks_and_sym_np_creation():
    @npx.use_np
    class Net(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.w = self.params.get('w', shape=(3, 4), allow_deferred_init=True)

        def hybrid_forward(self, F, x, w):
            return F.np.dot(x, w) + F.np.ones((4,))

    for hybridize in (False, True):
        net = Net()
        net.initialize()
        if hybridize:
            net.hybridize()
        out = net(np.ones((2, 3)))
        assert type(net.w.data()) is np.ndarray and type(out) is np.ndarray
        onp.testing.assert_allclose(out.asnumpy(), onp.ones((2, 3)) @ net.w.data().asnumpy() + 1, rtol=1e-5)


def test_basic_indexing_of_traced_numpy_symbols():
    a = onp.random.uniform(size=(4, 6, 8, 5)).astype('float32')
    keys = [(1, slice(None, None, 2)), (Ellipsis, -1), (None, slice(3, 0, -1), 2, None), (), (0, 0, 0, 0)]

    def net_for(key):
        class Index(gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                return x[key]
        net = Index()
        net.hybridize()
        return net

    npx.set_np()
    try:
        for key in keys:
            onp.testing.assert_allclose(net_for(key)(np.array(a)).asnumpy(), a[key])
    finally:
        npx.reset_np()


def test_boolean_index_of_the_wrong_shape_raises_index_error():
    arr = np.ones((5, 4, 3))
    for mask in (np.array([True], dtype='bool'), np.zeros((4, 4), dtype='bool')):
        with pytest.raises(IndexError):
            arr[mask]
    assert arr[:, np.array([True, False, True, True], dtype='bool')].shape == (5, 3, 3)
    assert arr[..., onp.array([True, False, True])].shape == (5, 4, 2)


def test_multinomial_counts_and_empty_categories():
    counts = np.random.multinomial(1000, [0.2, 0.3, 0.5], size=(2,)).asnumpy()
    assert counts.shape == (2, 3) and counts.dtype == onp.int64 and (counts.sum(-1) == 1000).all()
    assert np.random.multinomial(10, []).shape == (0,)
    assert np.random.multinomial(10, [0.5, 0.5], size=(0, 2)).shape == (0, 2, 2)
    assert np.random.uniform(size=()).shape == ()


def test_inner_contracts_last_axes_without_known_ranks():
    a, b = onp.random.rand(2, 3, 4).astype('float32'), onp.random.rand(5, 4).astype('float32')
    _close(np.inner(np.array(a), np.array(b)), onp.inner(a, b))


@pytest.mark.parametrize('key', [(0, True, True, 'mask'), (False, 1), (True,), (0, True), (Ellipsis, True, 1),
                                 (True, Ellipsis, False)])
def test_scalar_booleans_in_an_index_add_axes_as_numpy(key):
    x = onp.arange(18, dtype='float32').reshape(3, 2, 3)
    mask = onp.array([[False, True, True], [False, True, False]])
    ref_key = tuple(mask if k == 'mask' else k for k in key)
    key = tuple(mx.np.array(mask) if k == 'mask' else k for k in key)
    onp.testing.assert_array_equal(mx.np.array(x)[key].asnumpy(), x[ref_key])
    ref, got = x.copy(), mx.np.array(x)
    ref[ref_key] = -1
    got[key] = -1
    onp.testing.assert_array_equal(got.asnumpy(), ref)


@pytest.mark.parametrize('hybridize', [False, True])
def test_use_np_block_mixing_np_and_classic_outputs_is_a_type_error(hybridize):
    # MXNet 1.9.1: a use_np Block returning an mx.np array beside a classic NDArray raises TypeError
    @npx.use_np
    class Mixed(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return x.as_nd_ndarray() + 1, F.np.multiply(x, x)

    @npx.use_np
    class Classic(gluon.HybridBlock):  # classic outputs alone become mx.np arrays (gluonjax's layers)
        def hybrid_forward(self, F, x):
            return x.as_nd_ndarray() + 1, x.as_nd_ndarray() * 2

    for block, ok in ((Mixed(), False), (Classic(), True)):
        if hybridize:
            block.hybridize()
        if ok:
            a, b = block(np.ones((2, 3)))
            assert isinstance(a, np.ndarray) and b.asnumpy().tolist() == [[2.] * 3] * 2
        else:
            with pytest.raises(TypeError, match='mxnet.numpy.ndarray'):
                block(np.ones((2, 3)))


@pytest.mark.parametrize('axis', [-1, 0, 1])
def test_ndarray_sort_method_sorts_in_place_as_numpy(np_mode, axis):
    values = onp.array([[3., 1., 2.], [0., 5., -1.]], dtype=onp.float32)
    a = np.array(values)
    before = id(a)
    assert a.sort(axis=axis) is None
    expected = values.copy()
    expected.sort(axis=axis)
    assert id(a) == before and a.shape == values.shape and a.dtype == onp.float32
    onp.testing.assert_array_equal(a.asnumpy(), expected)
    row = np.array(values)
    row[1].sort()  # a basic-index view writes through to its base, as NumPy's does
    onp.testing.assert_array_equal(row.asnumpy(), [values[0], onp.sort(values[1])])


def test_genfromtxt_reads_into_np_arrays(np_mode, tmp_path):
    path = tmp_path / 'data.csv'
    path.write_text('1,2,3\n4,5,6.5\n')
    a = np.genfromtxt(str(path), delimiter=',')
    assert isinstance(a, np.ndarray) and a.dtype == onp.float64 and a.context == mx.cpu()
    onp.testing.assert_array_equal(a.asnumpy(), onp.genfromtxt(str(path), delimiter=','))
    b = np.genfromtxt(str(path), delimiter=',', dtype='int32', ctx=mx.cpu(1))
    assert b.dtype == onp.int32 and b.context == mx.cpu(1)
    onp.testing.assert_array_equal(b.asnumpy(), [[1, 2, 3], [4, 5, 6]])
