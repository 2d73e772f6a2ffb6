"""``mx.np.linalg``: norms, inverses, determinants and solvers over the operator table."""
import numbers

from ._core import apply_op, to_array

__all__ = ['norm', 'inv', 'det', 'slogdet', 'cholesky', 'solve', 'eigh', 'svd']


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (NumPy's names)
    """Vector or matrix norm (Frobenius / 2-norm by default; a 0-d array over all axes)."""
    if isinstance(axis, list):
        axis = tuple(axis)
    if isinstance(ord, numbers.Number) and float(ord).is_integer():
        ord = int(ord)
    return apply_op('_npi_norm', [to_array(x, 'norm')], {'ord': ord, 'axis': axis, 'keepdims': bool(keepdims)})


def inv(a):
    """The inverse of each square matrix in the last two axes."""
    return apply_op('_npi_inv', [to_array(a, 'inv', 'a')])


def det(a):
    return apply_op('_npi_det', [to_array(a, 'det', 'a')])


def slogdet(a):
    """(sign, log|det|) of each square matrix."""
    return tuple(apply_op('_npi_slogdet', [to_array(a, 'slogdet', 'a')]))


def cholesky(a):
    """The lower Cholesky factor of each symmetric positive-definite matrix."""
    return apply_op('_npi_cholesky', [to_array(a, 'cholesky', 'a')])


def solve(a, b):
    """x with a @ x = b."""
    return apply_op('_npi_solve', [to_array(a, 'solve', 'a'), to_array(b, 'solve', 'b')])


def eigh(a, UPLO='L'):
    """Eigenvalues (ascending) and eigenvectors of symmetric matrices."""
    return tuple(apply_op('_npi_eigh', [to_array(a, 'eigh', 'a')]))


def svd(a):
    """(ut, l, v) with a = ut @ diag(l) @ v over the last two axes, as MXNet's np.linalg.svd
    (reduced matrices; MXNet accepts only rows <= columns, any shape works here)."""
    return tuple(apply_op('_npi_svd', [to_array(a, 'svd', 'a')]))
