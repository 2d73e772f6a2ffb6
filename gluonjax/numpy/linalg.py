"""``mx.np.linalg``: norms, inverses, determinants and solvers over the operator table."""
import numbers

from ._core import apply_op, to_array
from . import _gen

__all__ = ['norm', 'inv', 'det', 'slogdet', 'cholesky', 'solve', 'eigh', 'svd', 'pinv', 'eig', 'eigvals', 'eigvalsh',
           'tensorinv', 'tensorsolve']


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (NumPy's names)
    """Vector or matrix norm (Frobenius / 2-norm by default; a 0-d array over all axes)."""
    if isinstance(axis, list):
        axis = tuple(axis)
    if isinstance(ord, numbers.Number) and float(ord).is_integer():
        ord = int(ord)
    return apply_op('_npi_norm', [to_array(x, 'norm')], {'ord': ord, 'axis': axis, 'keepdims': bool(keepdims)})


def pinv(a, rcond=1e-15, hermitian=False):
    """The pseudo-inverse of each matrix: one cutoff ``rcond`` (a number), or an array of them
    broadcast over the stacked matrices (two operators, as in MXNet)."""
    a = to_array(a, 'pinv', 'a')
    if isinstance(rcond, numbers.Number):
        return apply_op('_npi_pinv_scalar_rcond', [a], {'rcond': float(rcond), 'hermitian': bool(hermitian)})
    return apply_op('_npi_pinv', [a, to_array(rcond, 'pinv', 'rcond')], {'hermitian': bool(hermitian)})


# inv, det, slogdet, cholesky, solve, eigh, eigvalsh, eig, eigvals, svd, tensorinv, tensorsolve: the operator table's Np entries named 'linalg.*'
globals().update(_gen.functions('linalg'))


# NumPy's own, as MXNet's mx.np.linalg fallbacks: mx.np arrays dispatch to NumPy's code on host
# copies (numpy/_dispatch.py); qr's result is a plain tuple, as in NumPy 1.x
from numpy.linalg import cond, lstsq, matrix_power, matrix_rank, multi_dot, qr  # noqa: E402,F401
__all__ += ['cond', 'lstsq', 'matrix_power', 'matrix_rank', 'multi_dot', 'qr']
