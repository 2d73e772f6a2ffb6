"""Elementwise operators: unary math, binary broadcast, array-scalar, comparisons."""
import jax
import jax.numpy as jnp
import numpy
from jax import lax

from ..base import MXNetError, shape_str
from . import _input_shapes
from ._host import Fallback, cpu_arithmetic, flush_subnormals, int_exact, keep_dtypes, moves
from . import _onnx
from ._registry import ELEMENTWISE, Np, P, arith, register


# Operators whose XLA CPU code gives an element other bits depending on where it falls (the
# vectorised body of the loop or its scalar tail: log of a subnormal is -inf in one, -103.97 in
# the other): not pointwise for the size buckets of ops/_host.py, whose results must be the
# exact-shape program's. Found by comparing each transcendental operator's exact-shape programs
# for sizes 3, 17, 100, 1000 and 4097 (float32, float64, special values included) with its
# size-bucket programs; tests/test_ops_buckets.py checks every pointwise operator on fewer sizes.
_SIZE_DEPENDENT = {'arctan', 'log', 'arcsinh'}


def _unary(name, fn, aliases=(), method=False, np=(), npx=(), host=None, output_names=None):
    """An elementwise operator; ``method``: also NDArray/Symbol method ``name``; ``np``, ``npx``:
    the mx.np / mx.npx functions it serves; ``host``: its exact NumPy form (OpDef.host); its
    ONNX form is _ONNX_UNARY's (OpDef.onnx); ``output_names``: as OpDef's."""
    def op(data):
        return fn(data)
    op.__name__ = name
    op.__doc__ = 'Elementwise %s.' % name
    register(name, aliases=aliases, methods=(name,) if method else (), np=tuple(np), npx=tuple(npx),
             host=host, onnx=_ONNX_UNARY.get(name), same_shape_inputs=True, along=ELEMENTWISE,
             pointwise=name not in _SIZE_DEPENDENT, output_names=output_names)(op)


def _float_only(fn):
    """Math that MXNet computes in the input dtype; integers go through float32 and back."""
    def run(x):
        if jnp.issubdtype(x.dtype, jnp.floating):
            return fn(x)
        return fn(x.astype(jnp.float32)).astype(x.dtype)
    return run


def _onnx_input(g, node):
    """An identity in inference: the ONNX value is the input itself."""
    return node.inputs[0]


def _onnx_square(g, node):
    return g.add('Mul', [node.inputs[0], node.inputs[0]])


def _onnx_rsqrt(g, node):
    return g.add('Reciprocal', [g.add('Sqrt', node.inputs)])


# The ONNX forms of the unary operators (OpDef.onnx): one ONNX operator of the same inputs.
_ONNX_UNARY = {name: _onnx.same(op_type) for name, op_type in (
    ('exp', 'Exp'), ('log', 'Log'), ('sqrt', 'Sqrt'), ('sin', 'Sin'), ('cos', 'Cos'), ('tan', 'Tan'),
    ('arcsin', 'Asin'), ('arccos', 'Acos'), ('arctan', 'Atan'), ('sinh', 'Sinh'), ('cosh', 'Cosh'),
    ('tanh', 'Tanh'), ('arcsinh', 'Asinh'), ('arccosh', 'Acosh'), ('arctanh', 'Atanh'),
    ('sigmoid', 'Sigmoid'), ('softsign', 'Softsign'), ('erf', 'Erf'), ('reciprocal', 'Reciprocal'),
    ('sign', 'Sign'), ('ceil', 'Ceil'), ('floor', 'Floor'), ('relu', 'Relu'), ('abs', 'Abs'),
    ('negative', 'Neg'))}
_ONNX_UNARY.update({'_copy': _onnx_input, 'BlockGrad': _onnx_input, 'make_loss': _onnx_input,
                    'square': _onnx_square, 'rsqrt': _onnx_rsqrt})

# The NumPy forms of the float operators IEEE rounds exactly (the same bits as XLA's; OpDef.host).
_EXACT_FLOAT = {'sqrt': cpu_arithmetic(numpy.sqrt), 'reciprocal': cpu_arithmetic(lambda x: 1.0 / x)}
_EXACT = {'square': int_exact(cpu_arithmetic(numpy.square)), 'negative': int_exact(numpy.negative), 'ceil': cpu_arithmetic(numpy.ceil),
          'floor': cpu_arithmetic(numpy.floor), 'trunc': cpu_arithmetic(numpy.trunc),
          'fix': cpu_arithmetic(numpy.trunc)}

# (name, kernel, where): 'm' = also a method of NDArray and Symbol (x.exp()), 'n' = also mx.np.<name>,
# 'x' = also mx.npx.<name>.

@jax.custom_jvp
def _gamma(x):
    """Gamma(x), negative arguments included (exp(gammaln) loses the sign), differentiated as
    MXNet does: Gamma(x) psi(x), with psi = +inf at the poles 0, -1, -2, ..."""
    return jax.scipy.special.gamma(x)


def _mxnet_digamma(x):
    """psi(x) as MXNet's gamma gradients use it: +inf at the poles 0, -1, -2, ... (jax: nan)."""
    pole = (x <= 0) & (x == jnp.round(x))
    return jnp.where(pole, jnp.inf, jax.scipy.special.digamma(x))


@_gamma.defjvp
def _gamma_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    out = jax.scipy.special.gamma(x)
    return out, dx * out * _mxnet_digamma(x)


@jax.custom_jvp
def _gammaln(x):
    """log|Gamma(x)|, differentiated as MXNet does: psi(x), +inf at the poles."""
    return jax.scipy.special.gammaln(x)


_gammaln.defjvp(lambda primals, tangents: (_gammaln(primals[0]), tangents[0] * _mxnet_digamma(primals[0])))

@jax.custom_jvp
def _relu(x):
    """max(x, 0), NaN kept; its gradient is NaN at NaN too, as MXNet's relu_grad gives."""
    return jnp.maximum(x, 0).astype(x.dtype)


@_relu.defjvp
def _relu_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    slope = jnp.where(jnp.isnan(x), x, (x > 0).astype(x.dtype))
    return _relu(x), t * slope


for _name, _fn, _where in (
        ('exp', jnp.exp, 'mn'), ('expm1', jnp.expm1, 'mn'), ('log', jnp.log, 'mn'), ('log10', jnp.log10, 'mn'),
        ('log2', jnp.log2, 'mn'), ('log1p', jnp.log1p, 'mn'), ('sqrt', jnp.sqrt, 'mn'), ('rsqrt', lax.rsqrt, 'm'),
        ('cbrt', jnp.cbrt, 'mn'), ('rcbrt', lambda x: 1.0 / jnp.cbrt(x), 'm'), ('sin', jnp.sin, 'mn'),
        ('cos', jnp.cos, 'mn'), ('tan', jnp.tan, 'mn'), ('arcsin', jnp.arcsin, 'mn'), ('arccos', jnp.arccos, 'mn'),
        ('arctan', jnp.arctan, 'mn'), ('sinh', jnp.sinh, 'mn'), ('cosh', jnp.cosh, 'mn'), ('tanh', jnp.tanh, 'mn'),
        ('arcsinh', jnp.arcsinh, 'mn'), ('arccosh', jnp.arccosh, 'mn'), ('arctanh', jnp.arctanh, 'mn'),
        ('sigmoid', jax.nn.sigmoid, 'mx'), ('softsign', jax.nn.soft_sign, ''), ('erf', jax.scipy.special.erf, 'mx'),
        ('erfinv', jax.scipy.special.erfinv, 'x'), ('gamma', _gamma, 'mx'),
        ('gammaln', _gammaln, 'mx'), ('reciprocal', lambda x: 1.0 / x, 'mn')):
    _unary(_name, _float_only(_fn), method='m' in _where, np=(_name,) if 'n' in _where else (),
           npx=(_name,) if 'x' in _where else (), host=_EXACT_FLOAT.get(_name))


def _degrees(x):
    """x * (180 / pi) with the factor divided in x's dtype, as MXNet's kernel (float32: 57.295776,
    where jnp.degrees rounds the double 57.29577951 to 57.29578)."""
    return x * (jnp.asarray(180, x.dtype) / jnp.asarray(jnp.pi, x.dtype))


_unary('degrees', _float_only(_degrees), method=True, np=('degrees', 'rad2deg'))
_unary('radians', _float_only(jnp.radians), method=True, np=('radians', 'deg2rad'))


def _round_half_away(x):
    """Round to the nearest integer, halves away from zero (C's round, as MXNet; numpy rounds to even)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return x
    t = jnp.trunc(x)
    return jnp.where(jnp.abs(x - t) >= 0.5, t + jnp.sign(x), t)


def _sign(x):
    """MXNet's sign: 1 above zero, -1 below, else 0, so NaN and -0.0 give +0.0 (jnp.sign keeps them)."""
    if x.dtype == jnp.bool_:
        return x
    return jnp.where(x > 0, 1, jnp.where(x < 0, -1, 0)).astype(x.dtype)


def _rint_half_down(x):
    """MXNet's rint: the nearer of floor and ceil, the floor on a tie (2.5 -> 2, -0.5 -> -1)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return x
    lo, hi = jnp.floor(x), jnp.ceil(x)
    return jnp.where(x - lo <= hi - x, lo, hi)


for _name, _fn, _where in (
        ('sign', _sign, 'mn'), ('square', jnp.square, 'mn'), ('negative', jnp.negative, 'n'),
        ('round', _round_half_away, 'm'), ('rint', _rint_half_down, 'mn'), ('ceil', jnp.ceil, 'mn'),
        ('floor', jnp.floor, 'mn'), ('trunc', jnp.trunc, 'mn'), ('fix', jnp.trunc, 'mn'),
        ('relu', _relu, 'mx'),  # gradient 0 at 0 and NaN at NaN, as in MXNet
        ('logical_not', lambda x: (x == 0).astype(x.dtype), '')):
    _unary(_name, _fn, method='m' in _where, np=(_name,) if 'n' in _where else (),
           npx=(_name,) if 'x' in _where else (), host=_EXACT.get(_name))
@jax.custom_jvp
def _abs(x):
    """|x|, differentiated as MXNet does: sign(x), so 0 at 0 (jax's rule gives 1 there)."""
    return jnp.abs(x)


_abs.defjvp(lambda primals, tangents: (jnp.abs(primals[0]), tangents[0] * jnp.sign(primals[0])))
_unary('abs', _abs, method=True, np=('absolute', 'abs', 'fabs'), host=int_exact(numpy.abs))
_unary('_copy', lambda x: x, aliases=('identity',), host=moves(numpy.copy),  # MXNet's name for it is _copy (JSON)
       np=(Np('copy(a, out=None)'), Np("copy(a, order='C')", function=False, method=True, unsupported=('order',))))
_unary('BlockGrad', lax.stop_gradient, aliases=('stop_gradient',), npx=('stop_gradient',))


@jax.custom_vjp
def _make_loss(x):
    return x


# MXNet's make_loss ignores the head gradient: its input gets ones.
_make_loss.defvjp(lambda x: (x, x), lambda x, g: (jnp.ones_like(x),))
_unary('make_loss', _make_loss, output_names=('loss',))  # MXNet lists its output as 'loss'


@register('hard_sigmoid', onnx=lambda g, n: g.add('HardSigmoid', n.inputs, alpha=n.attrs['alpha'], beta=n.attrs['beta']),
          params=[P('alpha', 'float', 0.2), P('beta', 'float', 0.5)])
def hard_sigmoid(data, *, alpha, beta):
    return jnp.clip(alpha * data + beta, 0, 1).astype(data.dtype)


def _onnx_clip(g, node):
    bounds = [g.const(node.attrs[k], node.in_dtypes[0]) for k in ('a_min', 'a_max')]
    return g.add('Clip', [node.inputs[0]] + bounds)


@register('clip', methods=('clip',), onnx=_onnx_clip, params=[P('a_min', 'float'), P('a_max', 'float')], along=ELEMENTWISE,
          pointwise=True)
def clip(data, *, a_min, a_max):
    """Clip values into [a_min, a_max].

    As MXNet's kernel: values above a_max become a_max, else values below a_min become a_min
    (so a_min > a_max gives a_max above it, a_min below); the gradient is 1 on [a_min, a_max]."""
    return jnp.where(data > a_max, a_max, jnp.where(data < a_min, a_min, data)).astype(data.dtype)


# ---- binary operators with broadcasting -------------------------------------------------

def _check_broadcast(name, lhs, rhs):
    a, b = lhs.shape, rhs.shape
    for x, y in zip(a[::-1], b[::-1]):
        if x != y and x != 1 and y != 1:
            raise MXNetError('%s: operands could not be broadcast together with shapes %s %s'
                             % (name, shape_str(a), shape_str(b)))


def _binary(name, fn, aliases=(), elemwise=None, logical=False, backs=(), host=None, onnx=None, np=()):
    """A broadcasting binary operator and, when ``elemwise`` = (name, aliases, backs) is given,
    its equal-shapes twin; ``backs`` are the Arith entries each one implements; ``host``: the
    NumPy function giving ``fn``'s exact bits, for both operators' OpDef.host; ``onnx``: the ONNX
    operator both are (ONNX broadcasts as MXNet's broadcast_* do) or their OpDef.onnx."""
    onnx = _onnx.same(onnx) if isinstance(onnx, str) else onnx
    def broadcasting(fn):
        def op(lhs, rhs):
            _check_broadcast(name, lhs, rhs)
            out = fn(lhs, rhs)
            return out.astype(lhs.dtype) if logical else out
        op.__name__ = name
        return keep_dtypes(op, fn)
    register(name, inputs=('lhs', 'rhs'), aliases=aliases, arith=backs, onnx=onnx, np=np, along=ELEMENTWISE,
             pointwise=name not in _SIZE_DEPENDENT,
             host=host and broadcasting(host))(broadcasting(fn))
    if elemwise is not None:
        ename, ealiases, ebacks = elemwise

        def equal_shapes(fn):
            def eop(lhs, rhs):
                if lhs.shape != rhs.shape:
                    raise MXNetError('%s: shapes %s and %s must be equal (use broadcast_%s to broadcast)'
                                     % (ename, shape_str(lhs.shape), shape_str(rhs.shape), name[10:]))
                out = fn(lhs, rhs)
                return out.astype(lhs.dtype) if logical else out
            eop.__name__ = ename
            return keep_dtypes(eop, fn)
        register(ename, inputs=('lhs', 'rhs'), aliases=ealiases, arith=ebacks, same_shape_inputs=True, onnx=onnx, along=ELEMENTWISE,
                 pointwise=ename not in _SIZE_DEPENDENT, host=host and equal_shapes(host))(equal_shapes(fn))


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


@int_exact
def _host_div(a, b):
    """``_true_div`` in NumPy: floats exactly rounded; integers truncated as C divides, where
    that is defined (no division by zero, no overflow of the most negative value)."""
    a, b = numpy.asarray(a), numpy.asarray(b)
    if a.dtype.kind not in 'iu':
        return _host_float_div(a, b)
    if (b == 0).any() or (a.dtype.kind == 'i' and ((a == numpy.iinfo(a.dtype).min).any()
                                                    or (b == numpy.iinfo(b.dtype).min).any())):
        raise Fallback
    return (numpy.sign(a) * numpy.sign(b) * (numpy.abs(a) // numpy.abs(b))).astype(numpy.result_type(a, b))


_host_float_div = cpu_arithmetic(numpy.true_divide)


def _mod(a, b):
    """a mod b with the divisor's sign, as in MXNet. Where b is 0 MXNet gives 0 (not nan),
    still with gradient 1 for a: a - stop_gradient(a) is that value."""
    zero = b == 0
    out = jnp.mod(a, jnp.where(zero, jnp.ones_like(b), b))
    a = a.astype(out.dtype)  # (a bool dividend of a float divisor: no subtraction of booleans)
    return jnp.where(zero, a - lax.stop_gradient(a), out)


# The Python arithmetic of each front end (arith entries): nd and np broadcast; MXNet's symbols
# use the equal-shapes operators under their CamelCase names (``a + b`` is '_Plus', node _plus0);
# the symbol functions (sym.maximum, sym.pow) are a front end of their own ('symfunc').
_binary('broadcast_add', jnp.add, aliases=('broadcast_plus',), backs=arith('nd np', 'add'), host=int_exact(cpu_arithmetic(numpy.add)), onnx='Add',
        elemwise=('elemwise_add', ('_plus', '_add', '_Plus'), arith('sym', 'add', call_name='_Plus')))
_binary('broadcast_sub', jnp.subtract, aliases=('broadcast_minus',), backs=arith('nd', 'subtract') + arith('np', 'subtract'),
        host=int_exact(cpu_arithmetic(numpy.subtract)), onnx='Sub',
        elemwise=('elemwise_sub', ('_minus', '_sub', '_Minus'), arith('sym', 'subtract', call_name='_Minus')))
_binary('broadcast_mul', jnp.multiply, backs=arith('nd np', 'multiply'), host=int_exact(cpu_arithmetic(numpy.multiply)), onnx='Mul',
        elemwise=('elemwise_mul', ('_mul', '_Mul'), arith('sym', 'multiply', call_name='_Mul')))
_binary('broadcast_div', _true_div, backs=arith('nd', 'divide'), host=_host_div, onnx='Div',
        elemwise=('elemwise_div', ('_div', '_Div'), arith('sym', 'divide', call_name='_Div')))
_binary('broadcast_mod', _mod, backs=arith('nd', 'modulo') + arith('np', 'mod'),
        elemwise=('_mod', ('_Mod',), arith('sym', 'modulo', call_name='_Mod')))
def _power(a, b):
    """a ** b. An integer base to a negative integer power is MXNet's double result truncated:
    0, except 1 for a base of 1, +-1 for -1, and the type's minimum for 0 (1 / 0 = inf); jax's
    integer power is undefined there."""
    out = jnp.power(a, b)
    b = jnp.asarray(b)
    if not (jnp.issubdtype(out.dtype, jnp.integer) and jnp.issubdtype(b.dtype, jnp.signedinteger)):
        return out
    a = jnp.asarray(a).astype(out.dtype)
    odd = (b % 2) != 0
    inverse = jnp.where(a == 1, 1, jnp.where(a == -1, jnp.where(odd, -1, 1),
                                             jnp.where(a == 0, jnp.iinfo(out.dtype).min, 0)))
    return jnp.where(b < 0, inverse.astype(out.dtype), out)


_binary('broadcast_power', _power, backs=arith('nd np', 'power'), onnx='Pow',
        elemwise=('_power', ('_Power', 'elemwise_power'), arith('sym symfunc', 'power', call_name='_Power')))
@jax.custom_jvp
def _hypot(a, b):
    """sqrt(a^2 + b^2), differentiated as MXNet does: a / hypot(a, b) (NaN at the origin, where
    jax's own rule gives 0)."""
    return jnp.hypot(a, b)


@_hypot.defjvp
def _hypot_jvp(primals, tangents):
    (a, b), (da, db) = primals, tangents
    out = jnp.hypot(a, b)
    return out, da * (a / out) + db * (b / out)


def _mxnet_extremum(value, lhs_wins, rhs_wins):
    """maximum/minimum (NaN propagating) differentiated as MXNet does: the whole gradient to the
    lhs where ``lhs_wins`` (ties included), to the rhs where ``rhs_wins``, none where a NaN is
    compared (jax's rule splits ties in halves)."""
    @jax.custom_jvp
    def extremum(a, b):
        return value(a, b)

    @extremum.defjvp
    def _jvp(primals, tangents):
        (a, b), (da, db) = primals, tangents
        out = value(a, b)
        return out, (jnp.where(lhs_wins(a, b), da, 0) + jnp.where(rhs_wins(a, b), db, 0)).astype(out.dtype)
    return extremum


_PAIRWISE_FUNCTIONS = {'maximum': _mxnet_extremum(jnp.maximum, jnp.greater_equal, jnp.less),
                       'minimum': _mxnet_extremum(jnp.minimum, jnp.less_equal, jnp.greater),
                       'hypot': _hypot}
for _fname in ('maximum', 'minimum', 'hypot'):
    _call = '_' + _fname.capitalize()
    _binary('broadcast_' + _fname, _PAIRWISE_FUNCTIONS[_fname], backs=arith('nd np', _fname),
            onnx={'maximum': 'Max', 'minimum': 'Min'}.get(_fname),

            elemwise=('_' + _fname, (_call,), arith('symfunc', _fname, call_name=_call)))
_binary('arctan2', jnp.arctan2, aliases=('_arctan2',), np=(Np('arctan2(x1, x2, out=None, **kwargs)'),))
# MXNet's comparisons and logical operators: (jax function, NumPy function of the same bits).
_COMPARISONS = {
    'equal': (jnp.equal, numpy.equal), 'not_equal': (jnp.not_equal, numpy.not_equal),
    'greater': (jnp.greater, numpy.greater), 'greater_equal': (jnp.greater_equal, numpy.greater_equal),
    'lesser': (jnp.less, numpy.less), 'lesser_equal': (jnp.less_equal, numpy.less_equal),
    'logical_and': (lambda a, b: (a != 0) & (b != 0),) * 2,
    'logical_or': (lambda a, b: (a != 0) | (b != 0),) * 2,
    'logical_xor': (lambda a, b: (a != 0) ^ (b != 0),) * 2}
# The ONNX operator of each comparison (not_equal is Not(Equal), the logical ones work on x != 0).
_ONNX_COMPARE = {'equal': 'Equal', 'not_equal': 'Equal', 'greater': 'Greater', 'greater_equal': 'GreaterOrEqual',
                 'lesser': 'Less', 'lesser_equal': 'LessOrEqual', 'logical_and': 'And', 'logical_or': 'Or',
                 'logical_xor': 'Xor'}


def _onnx_comparison(cmp, with_scalar=False):
    """A comparison's ONNX form: a bool result cast to MXNet's 0/1 in the input dtype."""
    def convert(g, node):
        dtype = node.in_dtypes[0]
        lhs = node.inputs[0]
        rhs = g.const(node.attrs['scalar'], dtype) if with_scalar else node.inputs[1]
        if cmp.startswith('logical_'):
            lhs, rhs = (g.add('Not', [g.add('Equal', [v, g.const(0, d)])])
                        for v, d in ((lhs, dtype), (rhs, dtype if with_scalar else node.in_dtypes[1])))
        out = g.add(_ONNX_COMPARE[cmp], [lhs, rhs])
        if cmp == 'not_equal':
            out = g.add('Not', [out])
        return g.add('Cast', [out], to=_onnx.tensor_type(node.out_dtypes[0]))
    return convert


for _cmp, (_fn, _host_fn) in _COMPARISONS.items():
    _binary('broadcast_' + _cmp, _fn, elemwise=('_' + _cmp, (), arith('sym', _cmp)), logical=True,
            onnx=_onnx_comparison(_cmp),
            backs=arith('nd', _cmp), host=int_exact(cpu_arithmetic(_host_fn)))


# ---- array with a scalar: the scalar is a traced value, so new values do not recompile ----

def _host_scalar(scalar, dtype):
    """The scalar as the compiled operator sees it: converted to the array's dtype, a subnormal
    result read as zero (see ops/_host.py); into an integer dtype as XLA converts, truncated and
    saturated (NaN is 0), where NumPy's cast of an out-of-range float is undefined."""
    dtype = numpy.dtype(dtype)
    if dtype.kind in 'iub':
        value = float(scalar)
        if dtype.kind == 'b':
            return numpy.bool_(value != 0)
        info = numpy.iinfo(dtype)
        value = 0.0 if value != value else min(max(numpy.trunc(value), info.min), info.max)
        return dtype.type(int(value))
    return flush_subnormals(numpy.asarray(scalar).astype(dtype)[()])


def _scalar(name, fn, aliases=(), logical=False, backs=(), host=None, onnx=None):
    """An array-scalar operator; ``host``: the NumPy function giving ``fn``'s exact bits (OpDef.host);
    ``onnx``: its ONNX form (OpDef.onnx)."""
    def with_scalar(fn, convert):
        def op(data, *, scalar, is_int=True):
            out = fn(data, convert(scalar, data.dtype))
            return out.astype(data.dtype) if logical or out.dtype != data.dtype else out
        op.__name__ = name
        return keep_dtypes(op, fn)
    register(name, params=[P('scalar', 'float', 1.0), P('is_int', 'bool', True)], aliases=aliases,
             dynamic_params=('scalar',), arith=backs, onnx=onnx, pointwise=name not in _SIZE_DEPENDENT, along=ELEMENTWISE,
             host=host and with_scalar(host, _host_scalar))(
        with_scalar(fn, lax.convert_element_type))


def _scalar_backs(function, forms, call_name, np_function=None, fronts='sym'):
    """Arith entries of a scalar operator: nd (and np, under ``np_function`` when not None) by
    its own name, MXNet's symbols by ``call_name``."""
    backs = arith('nd', function, forms) + arith(fronts, function, forms, call_name)
    return backs + (arith('np', np_function, forms) if np_function else ())


_BOTH = 'scalar rscalar'
_scalar('_plus_scalar', jnp.add, aliases=('_PlusScalar',), onnx=_onnx.scalar('Add'), host=int_exact(cpu_arithmetic(numpy.add)), backs=_scalar_backs('add', _BOTH, '_PlusScalar', 'add'))
_scalar('_minus_scalar', jnp.subtract, aliases=('_MinusScalar',), onnx=_onnx.scalar('Sub'), host=int_exact(cpu_arithmetic(numpy.subtract)),
        backs=_scalar_backs('subtract', 'scalar', '_MinusScalar', 'subtract'))
_scalar('_rminus_scalar', lambda x, s: s - x, aliases=('_RMinusScalar',), onnx=_onnx.scalar('Sub', reverse=True), host=int_exact(cpu_arithmetic(lambda x, s: s - x)),
        backs=_scalar_backs('subtract', 'rscalar', '_RMinusScalar', 'subtract'))
_scalar('_mul_scalar', jnp.multiply, aliases=('_MulScalar',), onnx=_onnx.scalar('Mul'), host=int_exact(cpu_arithmetic(numpy.multiply)),
        backs=_scalar_backs('multiply', _BOTH, '_MulScalar', 'multiply'))
_scalar('_div_scalar', _true_div, aliases=('_DivScalar',), onnx=_onnx.scalar('Div'), host=_host_div, backs=_scalar_backs('divide', 'scalar', '_DivScalar'))
_scalar('_rdiv_scalar', lambda x, s: _true_div(s, x), aliases=('_RDivScalar',), onnx=_onnx.scalar('Div', reverse=True), host=int_exact(lambda x, s: _host_div(s, x)),
        backs=_scalar_backs('divide', 'rscalar', '_RDivScalar'))
_scalar('_mod_scalar', _mod, aliases=('_ModScalar',), backs=_scalar_backs('modulo', 'scalar', '_ModScalar', 'mod'))
_scalar('_rmod_scalar', lambda x, s: _mod(s, x), aliases=('_RModScalar',),
        backs=_scalar_backs('modulo', 'rscalar', '_RModScalar', 'mod'))
_scalar('_power_scalar', _power, aliases=('_PowerScalar',), onnx=_onnx.scalar('Pow'),
        backs=_scalar_backs('power', 'scalar', '_PowerScalar', 'power', fronts='sym symfunc'))
# MXNet's Symbol.__rpow__ calls this operator by its own name (node _rpower_scalar0), sym.pow by
# the CamelCase one (_rpowerscalar0).
_scalar('_rpower_scalar', lambda x, s: _power(s, x), aliases=('_RPowerScalar',), onnx=_onnx.scalar('Pow', reverse=True),
        backs=(_scalar_backs('power', 'rscalar', '_RPowerScalar', 'power', fronts='symfunc')
               + arith('sym', 'power', 'rscalar')))
for _fname in ('maximum', 'minimum', 'hypot'):
    _call = '_%sScalar' % _fname.capitalize()
    _scalar('_%s_scalar' % _fname, _PAIRWISE_FUNCTIONS[_fname], aliases=(_call,),
            onnx={'maximum': _onnx.scalar('Max'), 'minimum': _onnx.scalar('Min')}.get(_fname),
            backs=_scalar_backs(_fname, _BOTH, _call, _fname, fronts='symfunc'))
# A comparison with the number on the left is the mirrored one: 2 < x is x > 2.
_MIRROR = {'greater': 'lesser', 'lesser': 'greater', 'greater_equal': 'lesser_equal',
           'lesser_equal': 'greater_equal'}
for _cmp, (_fn, _host_fn) in _COMPARISONS.items():
    _scalar('_%s_scalar' % _cmp, _fn, logical=True, host=int_exact(cpu_arithmetic(_host_fn)), onnx=_onnx_comparison(_cmp, True),
            backs=arith('nd sym', _cmp, 'scalar') + arith('nd', _MIRROR.get(_cmp, _cmp), 'rscalar'))


@register('add_n', variadic=True, along=ELEMENTWISE, onnx=_onnx.same('Sum'), same_shape_inputs=True, params=[P('num_args', 'int', 1)], aliases=('ElementWiseSum', '_sum'))
def add_n(*args, num_args):
    """The sum of all inputs, which must have equal shapes."""
    out = args[0]
    for a in args[1:]:
        if a.shape != out.shape:
            raise MXNetError('add_n: all inputs must have the same shape, got %s and %s'
                             % (shape_str(out.shape), shape_str(a.shape)))
        out = out + a
    return out


def _onnx_where(g, node):
    """Where on condition != 0 (a 1-D condition picks whole rows: shaped (n, 1, ..., 1))."""
    cond, x, y = node.inputs
    c_shape, x_shape = node.in_shapes[0], node.in_shapes[1]
    if c_shape != x_shape:
        cond = _onnx.reshape_to(g, cond, c_shape + (1,) * (len(x_shape) - 1))
    picked = g.add('Not', [g.add('Equal', [cond, g.const(0, node.in_dtypes[0])])])
    return g.add('Where', [picked, x, y])


@register('where', inputs=('condition', 'x', 'y'), along=ELEMENTWISE, onnx=_onnx_where, input_shapes=_input_shapes.where, partial_shapes=False)
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
    if x.dtype != y.dtype:  # MXNet's type rule: one output type, that of both x and y (no promotion)
        raise MXNetError('where: x and y must have the same dtype, got %s and %s' % (x.dtype, y.dtype))
    return jnp.where(condition != 0, x, y)


# ---- small fused formulas of MXNet's contrib namespace and losses ---------------------------------

@register('_contrib_div_sqrt_dim')
def div_sqrt_dim(data):
    """data / sqrt(size of the last axis): the scaling of dot-product attention scores."""
    if jnp.issubdtype(data.dtype, jnp.integer):
        # MXNet takes the square root in the data's type: integers divide (truncating) by its integer part
        return lax.div(data, jnp.full(data.shape, int(data.shape[-1] ** 0.5), data.dtype))
    return exact_divide(data, jnp.sqrt(jnp.asarray(data.shape[-1], data.dtype)))


@register('_contrib_quadratic', params=[P('a', 'float', 0.0), P('b', 'float', 0.0), P('c', 'float', 0.0)])
def quadratic(data, *, a, b, c):
    """a * data**2 + b * data + c, elementwise."""
    return (a * data * data + b * data + c).astype(data.dtype)


@register('_identity_with_attr_like_rhs', inputs=('lhs', 'rhs'), same_shape_inputs=True)
def identity_with_attr_like_rhs(lhs, rhs):
    """lhs unchanged; rhs (no gradient) only says lhs has its shape, which shape inference uses
    backwards: a weight computed from parameters gets the shape the layer needs."""
    return lhs


def _with_scaled_gradient(forward, scale):
    """``forward`` whose derivative is ``scale`` times the identity: a straight-through estimator
    (scale 1) or a gradient multiplier. A jvp rule, so it differentiates again (to zero)."""
    @jax.custom_jvp
    def f(x):
        return forward(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        return f(primals[0]), tangents[0] * jnp.asarray(scale, tangents[0].dtype)
    return f


@register('_contrib_round_ste')
def round_ste(data):
    """round(data) (halves away from zero) forward; the gradient passes through unchanged."""
    return _with_scaled_gradient(_round_half_away, 1)(data)


@register('_contrib_sign_ste')
def sign_ste(data):
    """sign(data) forward; the gradient passes through unchanged."""
    return _with_scaled_gradient(jnp.sign, 1)(data)


@register('_contrib_gradientmultiplier', params=[P('scalar', 'float'), P('is_int', 'bool', True)])
def gradientmultiplier(data, *, scalar, is_int):  # is_int: MXNet's flag of scalar operators, changes nothing here
    """data unchanged forward; the gradient is multiplied by ``scalar`` (a negative one reverses it)."""
    return _with_scaled_gradient(lambda x: x, scalar)(data)


@register('smooth_l1', npx=('smooth_l1',), params=[P('scalar', 'float', 1.0)])  # MXNet's default sigma: 1
def smooth_l1(data, *, scalar):
    """Smooth L1 (Huber-like) loss of Fast R-CNN with sigma = ``scalar``:
    0.5 * (sigma * x)**2 where |x| < 1 / sigma**2, else |x| - 0.5 / sigma**2."""
    sigma2 = scalar * scalar
    return jnp.where(jnp.abs(data) < 1.0 / sigma2, 0.5 * sigma2 * data * data,
                     jnp.abs(data) - 0.5 / sigma2).astype(data.dtype)

