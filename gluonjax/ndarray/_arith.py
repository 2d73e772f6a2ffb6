"""MXNet's Python-level arithmetic functions (nd.add, nd.maximum, ...): arrays or scalars on either side."""
import numbers
import operator as _op

import numpy as np

from ..ops._registry import arith_table
from .ndarray import NDArray, check_same_dtype, invoke


def _scalar(x):
    return isinstance(x, (numbers.Number, np.generic))


def _dispatch(function, slots, pyop):
    array_op, scalar_op, rscalar_op = slots['array'], slots['scalar'], slots['rscalar']

    def fn(lhs, rhs, out=None):
        if isinstance(lhs, NDArray) and isinstance(rhs, NDArray):
            check_same_dtype(array_op, lhs, rhs)
            return invoke(array_op, [lhs, rhs], {}, out=out)
        if isinstance(lhs, NDArray) and _scalar(rhs):
            return invoke(scalar_op, [lhs], {'scalar': rhs}, out=out)
        if _scalar(lhs) and isinstance(rhs, NDArray):
            return invoke(rscalar_op, [rhs], {'scalar': lhs}, out=out)
        if _scalar(lhs) and _scalar(rhs):
            return pyop(lhs, rhs)
        raise TypeError('%s: unsupported operand types %s and %s'
                        % (array_op, type(lhs).__name__, type(rhs).__name__))
    fn.__name__ = fn.__qualname__ = function
    return fn


# Numbers on both sides: Python computes; comparisons and logic give 0.0/1.0, as MXNet's do.
_NUMBERS = {'add': _op.add, 'subtract': _op.sub, 'multiply': _op.mul, 'divide': _op.truediv,
            'modulo': _op.mod, 'power': _op.pow, 'maximum': max, 'minimum': min, 'hypot': np.hypot}
_TRUTHS = {'equal': _op.eq, 'not_equal': _op.ne, 'greater': _op.gt, 'greater_equal': _op.ge,
           'lesser': _op.lt, 'lesser_equal': _op.le, 'logical_and': lambda a, b: bool(a) and bool(b),
           'logical_or': lambda a, b: bool(a) or bool(b), 'logical_xor': lambda a, b: bool(a) != bool(b)}


def _numbers(function):
    if function in _NUMBERS:
        return _NUMBERS[function]
    truth = _TRUTHS[function]
    return lambda a, b: float(truth(a, b))


# nd.add, nd.maximum, ...: one function for each 'nd' arith entry of the operator table.
_FUNCTIONS = {function: _dispatch(function, slots, _numbers(function))
              for function, slots in arith_table('nd').items()}
globals().update(_FUNCTIONS)
true_divide = divide  # noqa: F821 (made just above)


def negative(data, out=None):
    return invoke('negative', [data], {}, out=out)
