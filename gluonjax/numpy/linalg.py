"""``mx.np.linalg``: norms, inverses, determinants and solvers over the operator table."""
import numbers

from ._core import apply_op, to_array
from . import _gen

__all__ = ['norm', 'inv', 'det', 'slogdet', 'cholesky', 'solve', 'eigh', 'svd']


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (NumPy's names)
    """Vector or matrix norm (Frobenius / 2-norm by default; a 0-d array over all axes)."""
    if isinstance(axis, list):
        axis = tuple(axis)
    if isinstance(ord, numbers.Number) and float(ord).is_integer():
        ord = int(ord)
    return apply_op('_npi_norm', [to_array(x, 'norm')], {'ord': ord, 'axis': axis, 'keepdims': bool(keepdims)})


# inv, det, slogdet, cholesky, solve, eigh, svd: the operator table's Np entries named 'linalg.*'
globals().update(_gen.functions('linalg'))
