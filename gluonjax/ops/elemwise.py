"""Elementwise operators: unary math, binary broadcast, array-scalar, comparisons."""
import jax
import jax.numpy as jnp
from jax import lax

from ..base import MXNetError, shape_str
from ._registry import P, register


def _unary(name, fn, aliases=(), category='elemwise'):
    def op(data):
        return fn(data)
    op.__name__ = name
    op.__doc__ = 'Elementwise %s.' % name
    register(name, aliases=aliases, category=category)(op)


def _float_only(fn):
    """Math that MXNet computes in the input dtype; integers go through float32 and back."""
    def run(x):
        if jnp.issubdtype(x.dtype, jnp.floating):
            return fn(x)
        return fn(x.astype(jnp.float32)).astype(x.dtype)
    return run


for _name, _fn in {
    'exp': jnp.exp, 'expm1': jnp.expm1, 'log': jnp.log, 'log10': jnp.log10, 'log2': jnp.log2,
    'log1p': jnp.log1p, 'sqrt': jnp.sqrt, 'rsqrt': lax.rsqrt, 'cbrt': jnp.cbrt,
    'rcbrt': lambda x: 1.0 / jnp.cbrt(x), 'sin': jnp.sin, 'cos': jnp.cos, 'tan': jnp.tan,
    'arcsin': jnp.arcsin, 'arccos': jnp.arccos, 'arctan': jnp.arctan, 'sinh': jnp.sinh,
    'cosh': jnp.cosh, 'tanh': jnp.tanh, 'arcsinh': jnp.arcsinh, 'arccosh': jnp.arccosh,
    'arctanh': jnp.arctanh, 'degrees': jnp.degrees, 'radians': jnp.radians,
    'sigmoid': jax.nn.sigmoid, 'softsign': jax.nn.soft_sign, 'erf': jax.scipy.special.erf,
    'erfinv': jax.scipy.special.erfinv, 'gamma': lambda x: jnp.exp(jax.scipy.special.gammaln(x)),
    'gammaln': jax.scipy.special.gammaln, 'reciprocal': lambda x: 1.0 / x,
}.items():
    _unary(_name, _float_only(_fn))

def _round_half_away(x):
    """Round to the nearest integer, halves away from zero (C's round, as MXNet; numpy rounds to even)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return x
    t = jnp.trunc(x)
    return jnp.where(jnp.abs(x - t) >= 0.5, t + jnp.sign(x), t)


def _rint_half_down(x):
    """MXNet's rint: the nearer of floor and ceil, the floor on a tie (2.5 -> 2, -0.5 -> -1)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return x
    lo, hi = jnp.floor(x), jnp.ceil(x)
    return jnp.where(x - lo <= hi - x, lo, hi)


for _name, _fn in {
    'abs': jnp.abs, 'sign': jnp.sign, 'square': jnp.square, 'negative': jnp.negative,
    'round': _round_half_away, 'rint': _rint_half_down, 'ceil': jnp.ceil, 'floor': jnp.floor, 'trunc': jnp.trunc,
    'fix': jnp.trunc, 'relu': lambda x: jnp.maximum(x, 0).astype(x.dtype),
    'logical_not': lambda x: (x == 0).astype(x.dtype),
}.items():
    _unary(_name, _fn)

_unary('identity', lambda x: x, aliases=('_copy',))
_unary('BlockGrad', lax.stop_gradient, aliases=('stop_gradient',))
_unary('make_loss', lambda x: x)


@register('hard_sigmoid', params=[P('alpha', 'float', 0.2), P('beta', 'float', 0.5)])
def hard_sigmoid(data, *, alpha, beta):
    return jnp.clip(alpha * data + beta, 0, 1).astype(data.dtype)


@register('clip', params=[P('a_min', 'float'), P('a_max', 'float')])
def clip(data, *, a_min, a_max):
    """Clip values into [a_min, a_max]."""
    return jnp.clip(data, a_min, a_max).astype(data.dtype)


# ---- binary operators with broadcasting -------------------------------------------------

def _check_broadcast(name, lhs, rhs):
    a, b = lhs.shape, rhs.shape
    for x, y in zip(a[::-1], b[::-1]):
        if x != y and x != 1 and y != 1:
            raise MXNetError('%s: operands could not be broadcast together with shapes %s %s'
                             % (name, shape_str(a), shape_str(b)))


def _binary(name, fn, aliases=(), elemwise=None, logical=False):
    def op(lhs, rhs):
        _check_broadcast(name, lhs, rhs)
        out = fn(lhs, rhs)
        return out.astype(lhs.dtype) if logical else out
    op.__name__ = name
    register(name, inputs=('lhs', 'rhs'), aliases=aliases, category='elemwise')(op)
    if elemwise is not None:
        ename, ealiases = elemwise

        def eop(lhs, rhs):
            if lhs.shape != rhs.shape:
                raise MXNetError('%s: shapes %s and %s must be equal (use broadcast_%s to broadcast)'
                                 % (ename, shape_str(lhs.shape), shape_str(rhs.shape), name[10:]))
            out = fn(lhs, rhs)
            return out.astype(lhs.dtype) if logical else out
        eop.__name__ = ename
        register(ename, inputs=('lhs', 'rhs'), aliases=ealiases, category='elemwise')(eop)


def exact_divide(a, b):
    """``a / b`` correctly rounded, as MXNet and NumPy divide.

    XLA rewrites a division by a broadcast value (a scalar, or an array with axes of size 1)
    into a multiplication by its reciprocal, which is one float step off for many values
    (15.1 / 3 gives 5.033334 instead of 5.0333333). Broadcasting the divisor behind an
    optimization barrier keeps XLA from seeing the broadcast, so the true division runs."""
    b = jnp.asarray(b, a.dtype) if not hasattr(b, 'dtype') else b
    shape = jnp.broadcast_shapes(jnp.shape(a), jnp.shape(b))
    if jnp.issubdtype(jnp.result_type(a, b), jnp.floating):  # (a constant divisor too)
        b = jax.lax.optimization_barrier(jnp.broadcast_to(b, shape))
    return a / b



def _true_div(a, b):
    if jnp.issubdtype(jnp.result_type(a, b), jnp.integer):
        # Integer division truncates toward zero, as C does in MXNet's kernels.
        return (jnp.sign(a) * jnp.sign(b) * (jnp.abs(a) // jnp.abs(b))).astype(jnp.result_type(a, b))
    return exact_divide(a, b)


def _mod(a, b):
    """a mod b with the divisor's sign, as in MXNet. Where b is 0 MXNet gives 0 (not nan),
    still with gradient 1 for a: a - stop_gradient(a) is that value."""
    zero = b == 0
    out = jnp.mod(a, jnp.where(zero, jnp.ones_like(b), b))
    return jnp.where(zero, (a - lax.stop_gradient(a)).astype(out.dtype), out)


_binary('broadcast_add', jnp.add, aliases=('broadcast_plus',), elemwise=('elemwise_add', ('_plus', '_add', '_Plus')))
_binary('broadcast_sub', jnp.subtract, aliases=('broadcast_minus',),
        elemwise=('elemwise_sub', ('_minus', '_sub', '_Minus')))
_binary('broadcast_mul', jnp.multiply, elemwise=('elemwise_mul', ('_mul', '_Mul')))
_binary('broadcast_div', _true_div, elemwise=('elemwise_div', ('_div', '_Div')))
_binary('broadcast_mod', _mod, elemwise=('_mod', ('_Mod',)))
_binary('broadcast_power', jnp.power, elemwise=('_power', ('_Power', 'elemwise_power')))
_binary('broadcast_maximum', jnp.maximum, elemwise=('_maximum', ('_Maximum',)))
_binary('broadcast_minimum', jnp.minimum, elemwise=('_minimum', ('_Minimum',)))
_binary('broadcast_hypot', jnp.hypot, elemwise=('_hypot', ('_Hypot',)))
_binary('arctan2', jnp.arctan2, aliases=('_arctan2',))
for _cmp, _fn in {'equal': jnp.equal, 'not_equal': jnp.not_equal, 'greater': jnp.greater,
                  'greater_equal': jnp.greater_equal, 'lesser': jnp.less, 'lesser_equal': jnp.less_equal,
                  'logical_and': lambda a, b: (a != 0) & (b != 0),
                  'logical_or': lambda a, b: (a != 0) | (b != 0),
                  'logical_xor': lambda a, b: (a != 0) ^ (b != 0)}.items():
    _binary('broadcast_' + _cmp, _fn, elemwise=('_' + _cmp, ()), logical=True)


# ---- array with a scalar: the scalar is a traced value, so new values do not recompile ----

def _scalar(name, fn, aliases=(), logical=False):
    def op(data, *, scalar, is_int=True):
        s = lax.convert_element_type(scalar, data.dtype)
        out = fn(data, s)
        return out.astype(data.dtype) if logical or out.dtype != data.dtype else out
    op.__name__ = name
    register(name, params=[P('scalar', 'float', 1.0), P('is_int', 'bool', True)], aliases=aliases,
             dynamic_params=('scalar',), category='elemwise')(op)


_scalar('_plus_scalar', jnp.add, aliases=('_PlusScalar',))
_scalar('_minus_scalar', jnp.subtract, aliases=('_MinusScalar',))
_scalar('_rminus_scalar', lambda x, s: s - x, aliases=('_RMinusScalar',))
_scalar('_mul_scalar', jnp.multiply, aliases=('_MulScalar',))
_scalar('_div_scalar', _true_div, aliases=('_DivScalar',))
_scalar('_rdiv_scalar', lambda x, s: _true_div(s, x), aliases=('_RDivScalar',))
_scalar('_mod_scalar', _mod, aliases=('_ModScalar',))
_scalar('_rmod_scalar', lambda x, s: _mod(s, x), aliases=('_RModScalar',))
_scalar('_power_scalar', jnp.power, aliases=('_PowerScalar',))
_scalar('_rpower_scalar', lambda x, s: jnp.power(s, x), aliases=('_RPowerScalar',))
_scalar('_maximum_scalar', jnp.maximum, aliases=('_MaximumScalar',))
_scalar('_minimum_scalar', jnp.minimum, aliases=('_MinimumScalar',))
_scalar('_hypot_scalar', jnp.hypot, aliases=('_HypotScalar',))
for _cmp, _fn in {'equal': jnp.equal, 'not_equal': jnp.not_equal, 'greater': jnp.greater,
                  'greater_equal': jnp.greater_equal, 'lesser': jnp.less, 'lesser_equal': jnp.less_equal,
                  'logical_and': lambda a, b: (a != 0) & (b != 0),
                  'logical_or': lambda a, b: (a != 0) | (b != 0),
                  'logical_xor': lambda a, b: (a != 0) ^ (b != 0)}.items():
    _scalar('_%s_scalar' % _cmp, _fn, logical=True)


@register('add_n', variadic=True, params=[P('num_args', 'int', 1)], aliases=('ElementWiseSum', '_sum'),
          category='elemwise')
def add_n(*args, num_args):
    """The sum of all inputs, which must have equal shapes."""
    out = args[0]
    for a in args[1:]:
        if a.shape != out.shape:
            raise MXNetError('add_n: all inputs must have the same shape, got %s and %s'
                             % (shape_str(out.shape), shape_str(a.shape)))
        out = out + a
    return out


@register('where', inputs=('condition', 'x', 'y'))
def where(condition, x, y):
    """Elements of x where condition is non-zero, else of y (condition may be 1-D over the first axis)."""
    if condition.shape != x.shape:
        if condition.ndim == 1 and condition.shape[0] == x.shape[0]:
            condition = condition.reshape((-1,) + (1,) * (x.ndim - 1))
        else:
            raise MXNetError('where: condition shape %s must equal x shape %s or be 1-D of length %d'
                             % (shape_str(condition.shape), shape_str(x.shape), x.shape[0]))
    if x.shape != y.shape:
        raise MXNetError('where: x shape %s and y shape %s must be equal' % (shape_str(x.shape), shape_str(y.shape)))
    return jnp.where(condition != 0, x, y)
