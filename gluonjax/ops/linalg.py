"""Matrix products and MXNet's ``linalg`` operators (``_linalg_*``, also ``mx.nd.linalg.*``).

``dot`` follows MXNet, not numpy: for N-D inputs it contracts the last axis of
lhs (the first with ``transpose_a``) with the first axis of rhs (the last with
``transpose_b``); two vectors give an array of shape (1,).
"""
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.scipy.linalg import solve_triangular

from ..base import DeferredError, MXNetError, shape_str
from . import _onnx
from ._registry import P, register
from .shape import norm_axis


def _check_same_dtype(name, *arrays):
    for a in arrays[1:]:
        if a.dtype != arrays[0].dtype:
            raise MXNetError('%s: inputs must have the same dtype, got %s and %s (cast one with astype)'
                             % (name, arrays[0].dtype, a.dtype))


def _dot_error(lhs, rhs, transpose_a, transpose_b, why):
    return MXNetError('dot: shape mismatch %s X %s (transpose_a=%s, transpose_b=%s): %s'
                      % (shape_str(lhs.shape), shape_str(rhs.shape), transpose_a, transpose_b, why))


_TRANSPOSE = [P('transpose_a', 'bool', False), P('transpose_b', 'bool', False)]


def _onnx_matmul(g, node, batched):
    """MatMul with MXNet's transpose_a / transpose_b on the last two axes (dot: 1-D and 2-D only)."""
    a = node.attrs
    lhs, rhs = node.inputs
    if not batched and max(len(s) for s in node.in_shapes) > 2:
        raise g.unsupported(node, 'dot of arrays over 2-D (only 1-D and 2-D operands have an ONNX MatMul form)')

    def swap_last(x, ndim):
        if ndim < 2:
            return x
        return g.add('Transpose', [x], perm=list(range(ndim - 2)) + [ndim - 1, ndim - 2])
    if a['transpose_a']:
        lhs = swap_last(lhs, len(node.in_shapes[0]))
    if a['transpose_b']:
        rhs = swap_last(rhs, len(node.in_shapes[1]))
    out = g.add('MatMul', [lhs, rhs])
    both_vectors = len(node.in_shapes[0]) == len(node.in_shapes[1]) == 1
    return _onnx.reshape_to(g, out, (1,)) if both_vectors else out  # MXNet's (1,) for a scalar


@register('dot', methods=('dot',), inputs=('lhs', 'rhs'), onnx=lambda g, node: _onnx_matmul(g, node, False),
          params=_TRANSPOSE + [P('forward_stype', 'str', None, optional=True)])
def dot(lhs, rhs, *, transpose_a, transpose_b, forward_stype):
    """MXNet's dot product (see the module docstring for N-D inputs)."""
    _check_same_dtype('dot', lhs, rhs)
    if lhs.ndim == 0 or rhs.ndim == 0:
        raise _dot_error(lhs, rhs, transpose_a, transpose_b, 'inputs must have at least one dimension')
    if lhs.ndim == 1 and rhs.ndim == 1:
        if transpose_a or transpose_b:
            raise _dot_error(lhs, rhs, transpose_a, transpose_b, 'vectors cannot be transposed')
        if lhs.shape != rhs.shape:
            raise _dot_error(lhs, rhs, transpose_a, transpose_b, 'vectors must have the same length')
        return jnp.dot(lhs, rhs).reshape((1,))
    ca = 0 if (transpose_a and lhs.ndim > 1) else lhs.ndim - 1
    cb = rhs.ndim - 1 if (transpose_b and rhs.ndim > 1) else 0
    if lhs.shape[ca] != rhs.shape[cb]:
        raise _dot_error(lhs, rhs, transpose_a, transpose_b, 'contracted axes have sizes %d and %d'
                         % (lhs.shape[ca], rhs.shape[cb]))
    out = jnp.tensordot(lhs, rhs, axes=([ca], [cb]))
    return out.reshape((1,)) if out.ndim == 0 else out


@register('batch_dot', npx=('batch_dot',), methods=('batch_dot',), inputs=('lhs', 'rhs'),
          onnx=lambda g, node: _onnx_matmul(g, node, True),
          params=_TRANSPOSE + [P('forward_stype', 'str', None, optional=True)])
def batch_dot(lhs, rhs, *, transpose_a, transpose_b, forward_stype):
    """Matrix products of the last two axes, batched over the leading axes (N >= 3, equal batch shapes)."""
    _check_same_dtype('batch_dot', lhs, rhs)

    def fail(why):
        return MXNetError('batch_dot: shape mismatch %s X %s (transpose_a=%s, transpose_b=%s): %s'
                          % (shape_str(lhs.shape), shape_str(rhs.shape), transpose_a, transpose_b, why))
    if lhs.ndim < 3 or rhs.ndim != lhs.ndim:
        raise fail('both inputs must have the same number (>= 3) of dimensions')
    if lhs.shape[:-2] != rhs.shape[:-2]:
        raise fail('the leading batch dimensions must be equal')
    a = jnp.swapaxes(lhs, -1, -2) if transpose_a else lhs
    b = jnp.swapaxes(rhs, -1, -2) if transpose_b else rhs
    if a.shape[-1] != b.shape[-2]:
        raise fail('contracted axes have sizes %d and %d' % (a.shape[-1], b.shape[-2]))
    return jnp.matmul(a, b)


@register('khatri_rao', variadic=True, params=[P('num_args', 'int')])
def khatri_rao(*args, num_args):
    """Column-wise Kronecker product of matrices with equal column counts: (prod M_i, N)."""
    for a in args:
        if a.ndim != 2 or a.shape[1] != args[0].shape[1]:
            raise MXNetError('khatri_rao: inputs must be matrices with the same number of columns, got %s'
                             % ', '.join(shape_str(x.shape) for x in args))
    out = args[0]
    for a in args[1:]:
        out = (out[:, None, :] * a[None, :, :]).reshape(-1, out.shape[1])
    return out


# ---- _linalg_* ----------------------------------------------------------------------------

def _check_float(name, a):
    # MXNet's linalg kernels are instantiated for float32 and float64 only (float16 fails too)
    if a.dtype not in (jnp.float32, jnp.float64):
        raise MXNetError('%s: only float32 and float64 inputs are supported, got %s' % (name, a.dtype))


def _float_matrices(name, *arrays, square=False):
    for a in arrays:
        _check_float(name, a)
        if a.ndim < 2:
            raise MXNetError('%s: inputs must have at least 2 dimensions, got shape %s' % (name, shape_str(a.shape)))
        if square and a.shape[-1] != a.shape[-2]:
            raise MXNetError('%s: input must be square matrices in the last two axes, got shape %s'
                             % (name, shape_str(a.shape)))
    _check_same_dtype(name, *arrays)


def _t(x, flag):
    return jnp.swapaxes(x, -1, -2) if flag else x


def _gemm_product(name, A, B, transpose_a, transpose_b, alpha, axis):
    _float_matrices(name, A, B)
    if A.ndim != B.ndim:
        raise MXNetError('%s: A %s and B %s must have the same number of dimensions'
                         % (name, shape_str(A.shape), shape_str(B.shape)))
    ax = norm_axis(name, axis, A.ndim)
    if ax == A.ndim - 1:
        raise MXNetError('%s: axis must not be the last axis' % name)
    a, b = jnp.moveaxis(A, ax, -2), jnp.moveaxis(B, ax, -2)
    a, b = _t(a, transpose_a), _t(b, transpose_b)
    if a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]:
        raise MXNetError('%s: incompatible matrix shapes A %s and B %s (transpose_a=%s, transpose_b=%s, axis=%d)'
                         % (name, shape_str(A.shape), shape_str(B.shape), transpose_a, transpose_b, axis))
    return jnp.matmul(a, b) * jnp.asarray(alpha, A.dtype), ax


_GEMM = _TRANSPOSE + [P('alpha', 'float', 1.0)]


@register('_linalg_gemm2', inputs=('A', 'B'), aliases=('linalg_gemm2',),
          params=_GEMM + [P('axis', 'int', -2)])
def linalg_gemm2(A, B, *, transpose_a, transpose_b, alpha, axis):
    """alpha * op(A) @ op(B) over the matrices whose rows lie on ``axis`` and columns on the last axis."""
    out, ax = _gemm_product('linalg_gemm2', A, B, transpose_a, transpose_b, alpha, axis)
    return jnp.moveaxis(out, -2, ax)


@register('_linalg_gemm', inputs=('A', 'B', 'C'), aliases=('linalg_gemm',),
          params=_GEMM + [P('beta', 'float', 1.0), P('axis', 'int', -2)])
def linalg_gemm(A, B, C, *, transpose_a, transpose_b, alpha, beta, axis):
    """alpha * op(A) @ op(B) + beta * C."""
    out, ax = _gemm_product('linalg_gemm', A, B, transpose_a, transpose_b, alpha, axis)
    out = jnp.moveaxis(out, -2, ax)
    if C.shape != out.shape:
        raise MXNetError('linalg_gemm: C has shape %s but op(A) @ op(B) has shape %s'
                         % (shape_str(C.shape), shape_str(out.shape)))
    return out + jnp.asarray(beta, A.dtype) * C


def _failure_report(message):
    """A host callback raising ``message`` when its flag is set: a LAPACK factorization that failed
    is an error as the operator runs (at the next wait), as MXNet's CPU kernels report it."""
    def report(failed):
        if failed:
            raise DeferredError(message, [])
    return report


_CHOLESKY_FAILED = _failure_report('linalg_potrf: the Cholesky factorization failed: the input matrix is '
                                   'either not symmetric or not positive definite')
_SINGULAR = _failure_report('linalg_inverse: the matrix is singular (its LU factorization has a zero pivot)')


@register('_linalg_potrf', inputs=('A',), aliases=('linalg_potrf',), params=[P('lower', 'bool', True)])
def linalg_potrf(A, *, lower):
    """The Cholesky factor of symmetric positive definite A: lower L with A = L L^T, or with
    ``lower=False`` upper U = L^T (A = U^T U). A matrix that is not positive definite is an
    error as the operator runs, as MXNet's LAPACK call on the CPU reports it."""
    _float_matrices('linalg_potrf', A, square=True)
    factor = jnp.linalg.cholesky(A)
    # The factorization fails into NaNs; a NaN of A itself is passed through, not reported.
    jax.debug.callback(_CHOLESKY_FAILED, jnp.any(jnp.isnan(factor)) & ~jnp.any(jnp.isnan(A)))
    return factor if lower else jnp.swapaxes(factor, -1, -2)


@register('_linalg_potri', inputs=('A',), aliases=('linalg_potri',), params=[P('lower', 'bool', True)])
def linalg_potri(A, *, lower):
    """The inverse of L L^T from its lower Cholesky factor L (of U^T U from the upper U with
    ``lower=False``)."""
    _float_matrices('linalg_potri', A, square=True)
    if not lower:
        A = jnp.swapaxes(A, -1, -2)
    eye = jnp.broadcast_to(jnp.eye(A.shape[-1], dtype=A.dtype), A.shape)
    linv = solve_triangular(A, eye, lower=True)
    return jnp.matmul(jnp.swapaxes(linv, -1, -2), linv)


_TRIANGULAR = [P('transpose', 'bool', False), P('rightside', 'bool', False), P('lower', 'bool', True),
               P('alpha', 'float', 1.0)]


def _triangle(A, lower):
    return jnp.tril(A) if lower else jnp.triu(A)


@register('_linalg_trmm', inputs=('A', 'B'), aliases=('linalg_trmm',), params=_TRIANGULAR)
def linalg_trmm(A, B, *, transpose, rightside, lower, alpha):
    """alpha * op(A) @ B (or B @ op(A) with rightside) for triangular A (its lower or upper part)."""
    _float_matrices('linalg_trmm', A, square=True)
    _float_matrices('linalg_trmm', A, B)
    a = _t(_triangle(A, lower), transpose)
    out = jnp.matmul(B, a) if rightside else jnp.matmul(a, B)
    return out * jnp.asarray(alpha, A.dtype)


@register('_linalg_trsm', inputs=('A', 'B'), aliases=('linalg_trsm',), params=_TRIANGULAR)
def linalg_trsm(A, B, *, transpose, rightside, lower, alpha):
    """X solving op(A) @ X = alpha * B (or X @ op(A) = alpha * B with rightside) for triangular A."""
    _float_matrices('linalg_trsm', A, square=True)
    _float_matrices('linalg_trsm', A, B)
    rhs = B * jnp.asarray(alpha, A.dtype)
    tri = _triangle(A, lower)
    if rightside:  # X op(A) = R  <=>  op(A)^T X^T = R^T
        xt = solve_triangular(tri, _t(rhs, True), lower=lower, trans=0 if transpose else 1)
        return _t(xt, True)
    return solve_triangular(tri, rhs, lower=lower, trans=1 if transpose else 0)


@register('_linalg_syrk', inputs=('A',), aliases=('linalg_syrk',),
          params=[P('transpose', 'bool', False), P('alpha', 'float', 1.0)])
def linalg_syrk(A, *, transpose, alpha):
    """alpha * A @ A^T (alpha * A^T @ A with transpose)."""
    _float_matrices('linalg_syrk', A)
    a = _t(A, transpose)
    return jnp.matmul(a, _t(a, True)) * jnp.asarray(alpha, A.dtype)


def _batch_scalar(x):
    """Per-matrix results: shape (batch...), or (1,) for a single matrix, as in MXNet."""
    return x.reshape((1,)) if x.ndim == 0 else x


@register('_linalg_sumlogdiag', inputs=('A',), aliases=('linalg_sumlogdiag',))
def linalg_sumlogdiag(A):
    """The sum of the logarithms of the diagonal of each matrix."""
    _float_matrices('linalg_sumlogdiag', A, square=True)
    return _batch_scalar(jnp.sum(jnp.log(jnp.diagonal(A, axis1=-2, axis2=-1)), axis=-1))


@register('_linalg_inverse', inputs=('A',), aliases=('linalg_inverse',))
def linalg_inverse(A):
    """The inverse of each square matrix."""
    _float_matrices('linalg_inverse', A, square=True)
    # an exactly zero pivot fails MXNet's getrf (a nearly singular matrix is inverted, as there)
    pivots = jnp.diagonal(lax.stop_gradient(lax.linalg.lu(A)[0]), axis1=-2, axis2=-1)
    jax.debug.callback(_SINGULAR, jnp.any(pivots == 0))
    return jnp.linalg.inv(A)


@register('_linalg_det', mxnet_outputs=3, output_names=('output0',), inputs=('A',), aliases=('linalg_det',))
def linalg_det(A):
    """The determinant of each square matrix."""
    _float_matrices('linalg_det', A, square=True)
    return _batch_scalar(jnp.linalg.det(A))


@register('_linalg_slogdet', mxnet_outputs=4, inputs=('A',), aliases=('linalg_slogdet',), num_outputs=2)
def linalg_slogdet(A):
    """[sign, log|det|] of each square matrix."""
    _float_matrices('linalg_slogdet', A, square=True)
    sign, logdet = jnp.linalg.slogdet(A)
    return _batch_scalar(sign.astype(A.dtype)), _batch_scalar(logdet)


@register('_linalg_extractdiag', inputs=('A',), aliases=('linalg_extractdiag',),
          params=[P('offset', 'int', 0)])
def linalg_extractdiag(A, *, offset):
    """Diagonal ``offset`` of each square matrix, as the last axis."""
    _float_matrices('linalg_extractdiag', A, square=True)
    n = A.shape[-1]
    if not -n < offset < n:
        raise MXNetError('linalg_extractdiag: offset %d is out of range for %dx%d matrices' % (offset, n, n))
    return jnp.diagonal(A, offset=offset, axis1=-2, axis2=-1)


@register('_linalg_makediag', inputs=('A',), aliases=('linalg_makediag',),
          params=[P('offset', 'int', 0)])
def linalg_makediag(A, *, offset):
    """Square matrices with the last axis of A on diagonal ``offset`` (zero elsewhere)."""
    if A.ndim < 1:
        raise MXNetError('linalg_makediag: the input must have at least one dimension')
    _check_float('linalg_makediag', A)
    n = A.shape[-1] + abs(offset)
    rows = jnp.arange(A.shape[-1]) + max(-offset, 0)
    cols = jnp.arange(A.shape[-1]) + max(offset, 0)
    out = jnp.zeros(A.shape[:-1] + (n, n), A.dtype)
    return out.at[..., rows, cols].set(A)



@register('_linalg_gelqf', inputs=('A',), aliases=('linalg_gelqf',), num_outputs=2)
def linalg_gelqf(A):
    """LQ factorisation A = L Q of each (m, n) matrix with m <= n: Q (m, n) with orthonormal rows,
    L (m, m) lower triangular (Householder signs, as LAPACK's gelqf), from the QR of A's transpose."""
    _float_matrices('linalg_gelqf', A)
    if A.shape[-2] > A.shape[-1]:
        raise MXNetError('linalg_gelqf: the matrices must not have more rows than columns, got shape %s'
                         % shape_str(A.shape))
    q, r = jnp.linalg.qr(jnp.swapaxes(A, -1, -2), mode='reduced')
    return jnp.swapaxes(q, -1, -2), jnp.swapaxes(r, -1, -2)


@register('_linalg_syevd', inputs=('A',), num_outputs=2)
def linalg_syevd(A):
    """Eigendecomposition A = U^T diag(L) U of each symmetric matrix: eigenvalues L ascending,
    eigenvectors as the rows of U, each signed so that its largest-magnitude entry is positive."""
    _float_matrices('linalg_syevd', A, square=True)
    values, vectors = jnp.linalg.eigh(A)
    rows = jnp.swapaxes(vectors, -1, -2)
    largest = jnp.take_along_axis(rows, jnp.argmax(jnp.abs(rows), axis=-1)[..., None], axis=-1)
    return rows * lax.stop_gradient(jnp.where(largest < 0, -1, 1).astype(rows.dtype)), values


def _packed_triangle(n, offset, lower):
    """(rows, cols) of the entries extracttrian packs from an (n, n) matrix, in its order: the lower
    triangle (offset < 0, or 0 with ``lower``) row by row, else the upper one column by column."""
    if offset < 0 or (offset == 0 and lower):
        rows, cols = np.tril_indices(n, offset)
        return rows, cols
    cols, rows = np.tril_indices(n, -offset)
    return rows, cols


@register('_linalg_extracttrian', inputs=('A',), aliases=('linalg_extracttrian',),
          params=[P('offset', 'int', 0), P('lower', 'bool', True)])
def linalg_extracttrian(A, *, offset, lower):
    """The triangle of each square matrix bounded by diagonal ``offset`` (below it for offset < 0,
    above for offset > 0, ``lower`` choosing for 0), packed into the last axis."""
    _float_matrices('linalg_extracttrian', A, square=True)
    n = A.shape[-1]
    if not -n < offset < n:
        raise MXNetError('linalg_extracttrian: offset %d is out of range for %dx%d matrices' % (offset, n, n))
    rows, cols = _packed_triangle(n, offset, lower)
    return A[..., rows, cols]


@register('_linalg_maketrian', inputs=('A',), aliases=('linalg_maketrian',),
          params=[P('offset', 'int', 0), P('lower', 'bool', True)])
def linalg_maketrian(A, *, offset, lower):
    """The square matrices whose triangle (as extracttrian takes it) is the last axis of A, zero elsewhere."""
    if A.ndim < 1:
        raise MXNetError('linalg_maketrian: the input must have at least one dimension')
    _check_float('linalg_maketrian', A)
    size = A.shape[-1]
    m = int(round((math.sqrt(8 * size + 1) - 1) / 2))
    if m * (m + 1) // 2 != size:
        raise MXNetError('linalg_maketrian: the last axis (%d) must hold a triangle, m * (m + 1) / 2 values'
                         % size)
    n = m + abs(offset)
    rows, cols = _packed_triangle(n, offset, lower)
    return jnp.zeros(A.shape[:-1] + (n, n), A.dtype).at[..., rows, cols].set(A)

# ---- multi-head attention on interleaved projections (GluonNLP's BERT / Transformer) ---------------
# The projections of a (length, batch, units) sequence hold, per head, its query, key and value
# next to each other: units = heads * 3 * head_dim (self-attention) or heads * 2 * head_dim (the
# keys and values of encoder-decoder attention). Scores are (batch * heads, query length, key length).

def _split_heads(op, name, x, heads, parts):
    """(length, batch, heads*parts*D) -> parts arrays of (batch*heads, length, D)."""
    if x.ndim != 3 or heads < 1 or x.shape[2] % (heads * parts):
        raise MXNetError('%s: %s must be (length, batch, heads * %d * head_dim) with heads=%d, got %s'
                         % (op, name, parts, heads, shape_str(x.shape)))
    length, batch, units = x.shape
    x = x.reshape(length, batch, heads, parts, units // (heads * parts))
    x = jnp.transpose(x, (3, 1, 2, 0, 4))  # (parts, batch, heads, length, D)
    return [p.reshape(batch * heads, length, -1) for p in x]


def _merge_heads(x, heads):
    """(batch*heads, length, D) -> (length, batch, heads*D)."""
    bh, length, d = x.shape
    x = x.reshape(bh // heads, heads, length, d)
    return jnp.transpose(x, (2, 0, 1, 3)).reshape(length, bh // heads, heads * d)


def _scaled(q):
    return q / jnp.sqrt(jnp.asarray(q.shape[-1], q.dtype))


def _check_scores(op, attention, rows, cols):
    if attention.shape != (rows[0], rows[1], cols):
        raise MXNetError('%s: attention must be (batch * heads, query length, key length) = %s, got %s'
                         % (op, shape_str((rows[0], rows[1], cols)), shape_str(attention.shape)))


@register('_contrib_interleaved_matmul_selfatt_qk', inputs=('queries_keys_values',), params=[P('heads', 'int')])
def interleaved_matmul_selfatt_qk(queries_keys_values, *, heads):
    """Self-attention scores q . k / sqrt(head_dim): (batch * heads, length, length)."""
    q, k, _ = _split_heads('interleaved_matmul_selfatt_qk', 'queries_keys_values', queries_keys_values, heads, 3)
    return jnp.matmul(_scaled(q), jnp.swapaxes(k, 1, 2))


@register('_contrib_interleaved_matmul_selfatt_valatt', inputs=('queries_keys_values', 'attention'),
          params=[P('heads', 'int')])
def interleaved_matmul_selfatt_valatt(queries_keys_values, attention, *, heads):
    """The values weighted by ``attention`` (batch * heads, length, length): (length, batch, heads * head_dim)."""
    op = 'interleaved_matmul_selfatt_valatt'
    _, _, v = _split_heads(op, 'queries_keys_values', queries_keys_values, heads, 3)
    _check_scores(op, attention, v.shape[:2], v.shape[1])
    return _merge_heads(jnp.matmul(attention, v), heads)


@register('_contrib_interleaved_matmul_encdec_qk', inputs=('queries', 'keys_values'), params=[P('heads', 'int')])
def interleaved_matmul_encdec_qk(queries, keys_values, *, heads):
    """Encoder-decoder attention scores: (batch * heads, query length, key length)."""
    op = 'interleaved_matmul_encdec_qk'
    q, = _split_heads(op, 'queries', queries, heads, 1)
    k, _ = _split_heads(op, 'keys_values', keys_values, heads, 2)
    if q.shape[0] != k.shape[0] or q.shape[2] != k.shape[2]:
        raise MXNetError('%s: queries %s and keys_values %s disagree on batch or head size (heads=%d)'
                         % (op, shape_str(queries.shape), shape_str(keys_values.shape), heads))
    return jnp.matmul(_scaled(q), jnp.swapaxes(k, 1, 2))


@register('_contrib_interleaved_matmul_encdec_valatt', inputs=('keys_values', 'attention'),
          params=[P('heads', 'int')])
def interleaved_matmul_encdec_valatt(keys_values, attention, *, heads):
    """The encoder's values weighted by ``attention`` (batch * heads, query length, key length):
    (query length, batch, heads * head_dim)."""
    op = 'interleaved_matmul_encdec_valatt'
    _, v = _split_heads(op, 'keys_values', keys_values, heads, 2)
    if attention.ndim != 3:
        raise MXNetError('%s: attention must be (batch * heads, query length, key length), got %s'
                         % (op, shape_str(attention.shape)))
    _check_scores(op, attention, (v.shape[0], attention.shape[1]), v.shape[1])
    return _merge_heads(jnp.matmul(attention, v), heads)
