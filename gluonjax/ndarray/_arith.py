"""MXNet's Python-level arithmetic functions (nd.add, nd.maximum, ...): arrays or scalars on either side."""
import numbers

import numpy as np

from .ndarray import NDArray, check_same_dtype, invoke


def _scalar(x):
    return isinstance(x, (numbers.Number, np.generic))


def _dispatch(array_op, scalar_op, rscalar_op, pyop):
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
    fn.__name__ = array_op.replace('broadcast_', '')
    return fn


def _rev(cmp):
    # a < x  is  x > a
    return {'greater': 'lesser', 'lesser': 'greater', 'greater_equal': 'lesser_equal',
            'lesser_equal': 'greater_equal'}.get(cmp, cmp)


import operator as _op  # noqa: E402

add = _dispatch('broadcast_add', '_plus_scalar', '_plus_scalar', _op.add)
subtract = _dispatch('broadcast_sub', '_minus_scalar', '_rminus_scalar', _op.sub)
multiply = _dispatch('broadcast_mul', '_mul_scalar', '_mul_scalar', _op.mul)
divide = _dispatch('broadcast_div', '_div_scalar', '_rdiv_scalar', _op.truediv)
true_divide = divide
modulo = _dispatch('broadcast_mod', '_mod_scalar', '_rmod_scalar', _op.mod)
power = _dispatch('broadcast_power', '_power_scalar', '_rpower_scalar', _op.pow)
maximum = _dispatch('broadcast_maximum', '_maximum_scalar', '_maximum_scalar', max)
minimum = _dispatch('broadcast_minimum', '_minimum_scalar', '_minimum_scalar', min)
hypot = _dispatch('broadcast_hypot', '_hypot_scalar', '_hypot_scalar', np.hypot)
_cmp_py = {'equal': _op.eq, 'not_equal': _op.ne, 'greater': _op.gt, 'greater_equal': _op.ge,
           'lesser': _op.lt, 'lesser_equal': _op.le, 'logical_and': lambda a, b: float(bool(a) and bool(b)),
           'logical_or': lambda a, b: float(bool(a) or bool(b)), 'logical_xor': lambda a, b: float(bool(a) != bool(b))}
equal, not_equal, greater, greater_equal, lesser, lesser_equal, logical_and, logical_or, logical_xor = [
    _dispatch('broadcast_' + c, '_%s_scalar' % c, '_%s_scalar' % _rev(c), lambda a, b, f=f: float(f(a, b)))
    for c, f in _cmp_py.items()]


def negative(data, out=None):
    return invoke('negative', [data], {}, out=out)
