"""dot, batch_dot, khatri_rao and the _linalg_* operators against numpy, with gradients and errors.

MXNet's dot contracts the last axis of lhs (the first with transpose_a) with the
first axis of rhs (the last with transpose_b), whatever the number of dimensions.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import nd
from gluonjax.base import MXNetError


def rand(shape, dtype='float32', seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def check(out, expected, dtype='float32', rtol=1e-5, atol=1e-5):
    expected = np.asarray(expected)
    assert out.shape == expected.shape, (out.shape, expected.shape)
    assert out.dtype == np.dtype(dtype), out.dtype
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=rtol, atol=atol)


def np_dot(a, b, ta=False, tb=False):
    """MXNet's dot written with numpy: 2-D views, then the free axes restored."""
    if a.ndim == 1 and b.ndim == 1:
        return np.array([np.dot(a, b)])
    a2 = a.reshape(a.shape[0], -1).T if ta else a.reshape(-1, a.shape[-1])
    b2 = b.reshape(-1, b.shape[-1]).T if tb else b.reshape(b.shape[0], -1)
    free_a = a.shape[1:] if ta else a.shape[:-1]
    free_b = b.shape[:-1] if tb else b.shape[1:]
    return (a2 @ b2).reshape(free_a + free_b)


def grads_match(fn, jnp_ref, *arrays, seed=3):
    """Gradients through gluonjax autograd equal jax.vjp of an independent jnp reference."""
    xs = [nd.array(a, dtype='float64') for a in arrays]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        y = fn(*xs)
    head = np.random.default_rng(seed).standard_normal(y.shape)
    y.backward(nd.array(head, dtype='float64'))
    with jax.enable_x64(True):  # a float64 reference (gluonjax leaves jax's x64 default off)
        out, vjp = jax.vjp(jnp_ref, *[jnp.asarray(a, jnp.float64) for a in arrays])
        ref_grads = vjp(jnp.asarray(head))
    np.testing.assert_allclose(y.asnumpy(), np.asarray(out), rtol=1e-10, atol=1e-10)
    for x, g in zip(xs, ref_grads):
        np.testing.assert_allclose(x.grad.asnumpy(), np.asarray(g), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize('sa,sb,ta,tb', [
    ((3, 4), (4, 5), False, False),
    ((4, 3), (4, 5), True, False),
    ((3, 4), (5, 4), False, True),
    ((4, 3), (5, 4), True, True),
    ((2, 3, 4), (4, 5), False, False),
    ((2, 3, 4), (4, 5, 6), False, False),
    ((2, 3, 4), (2, 5), True, False),
    ((2, 3, 4), (5, 6, 4), False, True),
    ((2, 3, 4), (5, 2), True, True),
    ((3,), (3,), False, False),
    ((3,), (3, 2), False, False),
    ((2, 3), (3,), False, False),
    ((3, 2), (3,), True, False),
    ((3,), (2, 3), False, True),
])
@pytest.mark.parametrize('dtype', ['float32', 'float64'])
def test_dot(sa, sb, ta, tb, dtype):
    a, b = rand(sa, dtype, 1), rand(sb, dtype, 2)
    out = nd.dot(nd.array(a, dtype=dtype), nd.array(b, dtype=dtype), transpose_a=ta, transpose_b=tb)
    check(out, np_dot(a, b, ta, tb), dtype)


def test_dot_matches_mxnet_values():
    x = nd.arange(24).reshape((2, 3, 4))
    # MXNet 1.9.1 values
    check(nd.dot(x, nd.arange(10).reshape((2, 5)), transpose_a=True)[0, 0], [60, 72, 84, 96, 108])
    check(nd.dot(x, nd.arange(20).reshape((5, 4)), transpose_b=True)[1, 2], [134, 478, 822, 1166, 1510])
    check(nd.dot(nd.arange(3), nd.arange(3)), [5])
    check(x.dot(nd.ones((4, 2))), np.arange(24, dtype='float32').reshape(2, 3, 4).sum(-1)[..., None].repeat(2, -1))
    check(nd.dot(nd.ones((2, 3), dtype='int32'), nd.ones((3, 2), dtype='int32')), np.full((2, 2), 3), 'int32')


@pytest.mark.parametrize('sa,sb,kw,match', [
    ((2, 3), (2, 3), {}, r'dot: shape mismatch \[2,3\] X \[2,3\]'),
    ((2, 3, 4), (4, 5), dict(transpose_a=True), r'dot: shape mismatch \[2,3,4\] X \[4,5\] \(transpose_a=True'),
    ((2, 3, 4), (6, 4, 5), dict(transpose_b=True), r'dot: shape mismatch \[2,3,4\] X \[6,4,5\]'),
    ((3,), (3,), dict(transpose_a=True), 'dot: .*vectors cannot be transposed'),
    ((3,), (4,), {}, r'dot: shape mismatch \[3\] X \[4\]'),
])
def test_dot_errors(sa, sb, kw, match):
    with pytest.raises(MXNetError, match=match):
        nd.dot(nd.ones(sa), nd.ones(sb), **kw)


def test_dot_dtype_mismatch():
    with pytest.raises(MXNetError, match='dot: inputs must have the same dtype, got float32 and float64'):
        nd.dot(nd.ones((2, 3)), nd.ones((3, 2), dtype='float64'))


@pytest.mark.parametrize('sa,sb,ta,tb', [
    ((3, 4), (4, 5), False, False), ((2, 3, 4), (5, 2), True, True), ((3,), (3, 2), False, False),
    ((3,), (3,), False, False),
])
def test_dot_grad(sa, sb, ta, tb):
    def ref(a, b):
        if a.ndim == 1 and b.ndim == 1:
            return jnp.dot(a, b).reshape(1)
        a2 = a.reshape(a.shape[0], -1).T if ta else a.reshape(-1, a.shape[-1])
        b2 = b.reshape(-1, b.shape[-1]).T if tb else b.reshape(b.shape[0], -1)
        free = (a.shape[1:] if ta else a.shape[:-1]) + (b.shape[:-1] if tb else b.shape[1:])
        return (a2 @ b2).reshape(free)
    grads_match(lambda a, b: nd.dot(a, b, transpose_a=ta, transpose_b=tb), ref, rand(sa, seed=4), rand(sb, seed=5))


@pytest.mark.parametrize('sa,sb,ta,tb', [
    ((2, 3, 4), (2, 4, 5), False, False), ((2, 4, 3), (2, 4, 5), True, False),
    ((2, 3, 4), (2, 5, 4), False, True), ((2, 2, 3, 4), (2, 2, 4, 5), False, False),
])
def test_batch_dot(sa, sb, ta, tb):
    a, b = rand(sa, seed=1), rand(sb, seed=2)
    a2 = np.swapaxes(a, -1, -2) if ta else a
    b2 = np.swapaxes(b, -1, -2) if tb else b
    check(nd.batch_dot(nd.array(a), nd.array(b), transpose_a=ta, transpose_b=tb), a2 @ b2)
    grads_match(lambda x, y: nd.batch_dot(x, y, transpose_a=ta, transpose_b=tb),
                lambda x, y: jnp.matmul(jnp.swapaxes(x, -1, -2) if ta else x, jnp.swapaxes(y, -1, -2) if tb else y),
                a, b)


@pytest.mark.parametrize('sa,sb,match', [
    ((2, 3, 4), (3, 4, 5), 'the leading batch dimensions must be equal'),
    ((2, 3, 4), (2, 5, 5), 'contracted axes have sizes 4 and 5'),
    ((3, 4), (4, 5), r'same number \(>= 3\) of dimensions'),
])
def test_batch_dot_errors(sa, sb, match):
    with pytest.raises(MXNetError, match=r'batch_dot: shape mismatch .*' + match):
        nd.batch_dot(nd.ones(sa), nd.ones(sb))


def test_khatri_rao():
    a, b, c = rand((2, 3), seed=1), rand((4, 3), seed=2), rand((1, 3), seed=3)
    expected = np.stack([np.kron(a[:, j], b[:, j]) for j in range(3)], axis=1)
    check(nd.khatri_rao(nd.array(a), nd.array(b)), expected)
    expected3 = np.stack([np.kron(np.kron(a[:, j], b[:, j]), c[:, j]) for j in range(3)], axis=1)
    check(nd.khatri_rao(nd.array(a), nd.array(b), nd.array(c)), expected3)
    with pytest.raises(MXNetError, match='khatri_rao: inputs must be matrices with the same number of columns'):
        nd.khatri_rao(nd.ones((2, 3)), nd.ones((4, 2)))
    grads_match(lambda x, y: nd.khatri_rao(x, y),
                lambda x, y: jnp.einsum('ik,jk->ijk', x, y).reshape(-1, x.shape[1]), a, b)


# ---- _linalg_* ---------------------------------------------------------------------------------

def spd(n, batch=(), seed=0):
    a = rand(batch + (n, n), 'float64', seed)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype('float32')


@pytest.mark.parametrize('sa,sb,ta,tb,axis', [
    ((3, 4), (4, 5), False, False, -2), ((2, 4, 3), (2, 4, 5), True, False, -2),
    ((2, 3, 4), (2, 5, 4), False, True, -2), ((3, 2, 4), (4, 2, 5), False, False, 0),
])
def test_gemm2_gemm(sa, sb, ta, tb, axis):
    a, b = rand(sa, seed=1), rand(sb, seed=2)

    def ref(x, y, xp=np):
        x, y = xp.moveaxis(x, axis, -2), xp.moveaxis(y, axis, -2)
        x = xp.swapaxes(x, -1, -2) if ta else x
        y = xp.swapaxes(y, -1, -2) if tb else y
        return xp.moveaxis(2.0 * xp.matmul(x, y), -2, axis)
    expected = ref(a, b)
    check(nd.linalg.gemm2(nd.array(a), nd.array(b), transpose_a=ta, transpose_b=tb, alpha=2.0, axis=axis), expected)
    check(nd.linalg_gemm2(nd.array(a), nd.array(b), ta, tb, 2.0, axis), expected)
    c = rand(expected.shape, seed=3)
    check(nd.linalg.gemm(nd.array(a), nd.array(b), nd.array(c), transpose_a=ta, transpose_b=tb, alpha=2.0,
                         beta=-0.5, axis=axis), expected - 0.5 * c)
    grads_match(lambda x, y: nd.linalg.gemm2(x, y, transpose_a=ta, transpose_b=tb, alpha=2.0, axis=axis),
                lambda x, y: ref(x, y, jnp), a, b)


def test_gemm_errors():
    with pytest.raises(MXNetError, match=r'linalg_gemm2: incompatible matrix shapes A \[3,4\] and B \[5,5\]'):
        nd.linalg.gemm2(nd.ones((3, 4)), nd.ones((5, 5)))
    with pytest.raises(MXNetError, match='linalg_gemm2: A .* and B .* must have the same number of dimensions'):
        nd.linalg.gemm2(nd.ones((2, 3, 4)), nd.ones((4, 5)))
    with pytest.raises(MXNetError, match='linalg_gemm2: only float32 and float64 inputs'):
        nd.linalg.gemm2(nd.ones((3, 4), dtype='int32'), nd.ones((4, 5), dtype='int32'))
    with pytest.raises(MXNetError, match=r'linalg_gemm: C has shape \[3,6\]'):
        nd.linalg.gemm(nd.ones((3, 4)), nd.ones((4, 5)), nd.ones((3, 6)))


def test_cholesky_family():
    a = spd(3, (2,))
    low = np.linalg.cholesky(a.astype('float64'))
    check(nd.linalg.potrf(nd.array(a)), low, rtol=1e-4)
    check(nd.linalg.potri(nd.array(low)), np.linalg.inv(a.astype('float64')), rtol=1e-4, atol=1e-5)
    check(nd.linalg.sumlogdiag(nd.array(low)), np.log(np.diagonal(low, axis1=-2, axis2=-1)).sum(-1), rtol=1e-5)
    # MXNet 1.9.1 values for [[4, 2], [2, 3]]
    m = nd.array([[4.0, 2.0], [2.0, 3.0]])
    check(nd.linalg.potrf(m), [[2, 0], [1, np.sqrt(2)]])
    check(nd.linalg.sumlogdiag(m), [np.log(12)])
    check(nd.linalg.det(m), [8])
    sign, logdet = nd.linalg.slogdet(m)
    check(sign, [1])
    check(logdet, [np.log(8)])
    check(nd.linalg.inverse(m), [[0.375, -0.25], [-0.25, 0.5]])
    grads_match(nd.linalg.potrf, jnp.linalg.cholesky, spd(3, seed=2))
    grads_match(nd.linalg.inverse, jnp.linalg.inv, spd(3, seed=4))
    grads_match(nd.linalg.det, lambda x: jnp.linalg.det(x), spd(3, (2,), seed=5))


def test_triangular():
    t = np.tril(rand((3, 3), seed=1)) + 3 * np.eye(3, dtype='float32')
    full = t + np.triu(rand((3, 3), seed=9), 1)  # only the lower triangle may be read
    b = rand((3, 4), seed=2)
    check(nd.linalg.trmm(nd.array(full), nd.array(b), alpha=2.0), 2 * t @ b)
    check(nd.linalg.trmm(nd.array(full), nd.array(b), transpose=True), t.T @ b)
    check(nd.linalg.trmm(nd.array(full), nd.array(b.T), rightside=True), b.T @ t)
    check(nd.linalg.trmm(nd.array(full.T), nd.array(b), lower=False), t.T @ b)
    check(nd.linalg.trsm(nd.array(full), nd.array(b)), np.linalg.solve(t, b), rtol=1e-4)
    check(nd.linalg.trsm(nd.array(full), nd.array(b), transpose=True, alpha=3.0), np.linalg.solve(t.T, 3 * b),
          rtol=1e-4)
    check(nd.linalg.trsm(nd.array(full), nd.array(b.T), rightside=True), b.T @ np.linalg.inv(t), rtol=1e-4)
    check(nd.linalg.trsm(nd.array(full), nd.array(b.T), rightside=True, transpose=True), b.T @ np.linalg.inv(t.T),
          rtol=1e-4)
    a = rand((2, 3, 4), seed=3)
    check(nd.linalg.syrk(nd.array(a), alpha=0.5), 0.5 * a @ np.swapaxes(a, -1, -2))
    check(nd.linalg.syrk(nd.array(a), transpose=True), np.swapaxes(a, -1, -2) @ a)
    grads_match(lambda x, y: nd.linalg.trsm(x, y), lambda x, y: jnp.linalg.solve(jnp.tril(x), y),
                t.astype('float64'), b)


def test_diag_helpers_and_errors():
    m = rand((2, 3, 3))
    check(nd.linalg.extractdiag(nd.array(m), offset=1), np.diagonal(m, 1, -2, -1))
    v = rand((2, 3))
    expected = np.stack([np.diag(r, -1) for r in v])
    check(nd.linalg.makediag(nd.array(v), offset=-1), expected)
    check(nd.linalg.det(nd.ones((2, 3, 3))), [0, 0])
    with pytest.raises(MXNetError, match=r'linalg_potrf: inputs must have at least 2 dimensions, got shape \[3\]'):
        nd.linalg.potrf(nd.ones((3,)))
    with pytest.raises(MXNetError, match=r'linalg_inverse: input must be square matrices in the last two axes, got '
                                         r'shape \[2,3\]'):
        nd.linalg.inverse(nd.ones((2, 3)))
    grads_match(lambda x: nd.linalg.makediag(x, offset=1),
                lambda x: jnp.stack([jnp.diag(r, 1) for r in x]), rand((2, 3)))


def test_symbol_namespace():
    a, b = mx.sym.var('a'), mx.sym.var('b')
    s = mx.sym.linalg.gemm2(a, b, alpha=3.0)
    x, y = rand((2, 3)), rand((3, 4))
    check(s.eval(a=nd.array(x), b=nd.array(y))[0], 3 * x @ y)
    d = mx.sym.dot(a, b, transpose_b=True)
    assert d.infer_shape(a=(2, 3, 4), b=(5, 4))[1] == [(2, 3, 5)]


def test_interleaved_attention_products_match_mxnet():
    """contrib.interleaved_matmul_* against outputs recorded from MXNet 1.9.1
    (tests/data/mxnet_ref/make_attention_data.py), and the gradient of the scores."""
    import os
    ref = np.load(os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'attention_ref.npz'))
    c = nd.contrib
    qkv = nd.array(ref['qkv'])
    check(c.interleaved_matmul_selfatt_qk(qkv, heads=2), ref['selfatt_qk'])
    check(c.interleaved_matmul_selfatt_valatt(qkv, nd.array(ref['self_scores']), heads=2), ref['selfatt_valatt'])
    check(c.interleaved_matmul_encdec_qk(nd.array(ref['queries']), nd.array(ref['keys_values']), heads=2),
          ref['encdec_qk'])
    check(c.interleaved_matmul_encdec_valatt(nd.array(ref['keys_values']), nd.array(ref['encdec_scores']), heads=2),
          ref['encdec_valatt'])
    qkv.attach_grad()
    with mx.autograd.record():
        scores = c.interleaved_matmul_selfatt_qk(qkv, heads=2)
    scores.backward()
    q, k = ref['qkv'].reshape(3, 2, 2, 3, 4)[:, :, :, 0], ref['qkv'].reshape(3, 2, 2, 3, 4)[:, :, :, 1]
    want = np.zeros((3, 2, 2, 3, 4), 'float32')
    want[:, :, :, 0] = k.sum(0, keepdims=True) / 2  # d(sum q.k / sqrt(4))/dq = sum over keys / 2
    want[:, :, :, 1] = q.sum(0, keepdims=True) / 2
    check(qkv.grad, want.reshape(3, 2, 24))
    with pytest.raises(MXNetError, match='interleaved_matmul_selfatt_qk: queries_keys_values must be'):
        c.interleaved_matmul_selfatt_qk(nd.ones((3, 2, 10)), heads=2)


@pytest.mark.parametrize('offset, lower, want', [
    (0, True, [0, 4, 5, 8, 9, 10, 12, 13, 14, 15]), (0, False, [0, 1, 5, 2, 6, 10, 3, 7, 11, 15]),
    (1, True, [1, 2, 6, 3, 7, 11]), (-1, True, [4, 8, 9, 12, 13, 14]), (2, False, [2, 3, 7]), (-2, False, [8, 12, 13])])
def test_extracttrian_packs_as_mxnet_and_maketrian_inverts_it(offset, lower, want):
    """Packing orders printed by MXNet 1.9.1 for arange(16).reshape(4, 4)."""
    a = np.arange(16, dtype='float32').reshape(4, 4)
    packed = nd.linalg.extracttrian(nd.array(a), offset=offset, lower=lower)
    assert packed.asnumpy().tolist() == want
    keep = np.tril(a, offset) if offset < 0 or (offset == 0 and lower) else np.triu(a, offset)
    np.testing.assert_array_equal(nd.linalg.maketrian(packed, offset=offset, lower=lower).asnumpy(), keep)


def test_gelqf_and_syevd_match_mxnet():
    """Factors printed by MXNet 1.9.1 (LAPACK's signs for L; eigenvector rows with a positive largest entry)."""
    q, l_ = nd.linalg.gelqf(nd.array([[1., 2, 3], [4, 5, 7]]))
    check(q, [[-0.26726115, -0.53452247, -0.80178368], [0.94868326, 0, -0.31622779]], atol=1e-6)
    check(l_, [[-3.7416575, 0], [-9.354143, 1.5811391]], atol=1e-5)
    u, lam = nd.linalg.syevd(nd.array([[2., 1, 0], [1, 3, 1], [0, 1, 4]]))
    check(u, [[0.78867507, -0.5773504, 0.21132495], [0.57735026, 0.5773502, -0.57735026],
              [0.21132487, 0.5773503, 0.7886751]], atol=1e-6)
    check(lam, [1.267949, 3, 4.732051])
    a = rand((3, 5, 5), 'float64')
    a = a + np.swapaxes(a, -1, -2)
    u, lam = nd.linalg.syevd(nd.array(a, dtype='float64'))
    u = u.asnumpy()
    np.testing.assert_allclose(np.swapaxes(u, -1, -2) @ (lam.asnumpy()[..., None] * u), a, atol=1e-10)
    with pytest.raises(MXNetError, match='linalg_gelqf: the matrices must not have more rows'):
        nd.linalg.gelqf(nd.ones((3, 2)))


def test_potrf_and_potri_take_the_upper_factor_with_lower_false():
    """MXNet 1.9.1 prints [[2, 1], [0, 1.4142135]] and inverse [[0.375, -0.25], [-0.25, 0.5]]."""
    a = nd.array([[4., 2], [2, 3]])
    upper = nd.linalg.potrf(a, lower=False)
    check(upper, [[2, 1], [0, 1.4142135]])
    check(nd.linalg.potri(upper, lower=False), [[0.375, -0.25], [-0.25, 0.5]])
    check(nd.linalg.potri(nd.linalg.potrf(a)), [[0.375, -0.25], [-0.25, 0.5]])


def test_potrf_of_a_matrix_not_positive_definite_fails_as_it_runs():
    """MXNet's CPU potrf reports LAPACK's failure at the next wait on the output; a write of the
    failed value into another array carries the error along, as MXNet's engine does."""
    out = mx.nd.linalg.potrf(mx.nd.zeros((2, 2)))
    with pytest.raises(MXNetError, match='not symmetric or not positive definite'):
        out.wait_to_read()
    dst = mx.nd.ones((2, 2))
    dst[:] = mx.nd.linalg.potrf(mx.nd.array([[1., 2.], [2., 1.]]))
    with pytest.raises(MXNetError, match='potrf'):
        dst.asnumpy()
    np.testing.assert_allclose(mx.nd.linalg.potrf(mx.nd.array([[4., 2.], [2., 3.]])).asnumpy(),
                               [[2, 0], [1, np.sqrt(2)]], rtol=1e-6)
