"""Gradients of integer arrays, computed as MXNet computes them.

MXNet runs an operator's backward in its arrays' own types (booleans too): an int32 input of ``flip`` gets ones
of int32, of ``x * y`` gets ``y``, of ``exp(x)`` gets ``exp(x)`` truncated, and a cast passes the
gradient through. jax gives integers no tangents (float0), so through jax alone every integer
gradient would be zero.

A node with integer inputs to differentiate, or integer outputs, is differentiated here through a
*real-valued shadow*: the operator's jaxpr is evaluated again, and beside every integer value that
depends on a differentiated input runs a float64 copy of it (the shadow) through the primitives
that mean the same on reals: sums, products, moves, gathers (their index operands stay integers).
Integer-only arithmetic (remainder, integer division, bit operations), comparisons and anything
else stop the shadow, as MXNet's integer backward gives zeros there (``mod``). The shadow's values
equal the integers' (wrapped as the integers wrap); only its tangents matter. The pullback takes
the outputs' cotangents in their own types and returns the inputs' gradients truncated to theirs.
"""
import jax
import jax.numpy as jnp
from jax.extend.core import Literal

__all__ = ['involved', 'vjp']

_SHADOW = jnp.float64

# Primitives that compute the same on reals as on integers, every operand being data.
_ALL_DATA = frozenset([
    'add', 'sub', 'mul', 'neg', 'max', 'min', 'abs', 'sign', 'square', 'integer_pow', 'clamp',
    'reduce_sum', 'reduce_max', 'reduce_min', 'reduce_prod', 'cumsum', 'cumprod', 'cummax', 'cummin',
    'reshape', 'squeeze', 'expand_dims', 'broadcast_in_dim', 'transpose', 'rev', 'slice',
    'concatenate', 'pad', 'copy', 'copy_p', 'dot_general', 'split'])
# Primitives with index operands: the positions of their data operands.
_SOME_DATA = {'gather': (0,), 'dynamic_slice': (0,), 'dynamic_update_slice': (0, 1),
              'scatter-add': (0, 2), 'scatter_add': (0, 2), 'scatter': (0, 2)}
# Parameters naming an integer type or value, which the float64 shadow replaces.
_FLOAT_PARAMS = {'preferred_element_type': _SHADOW}


def _is_int(dtype):
    """Integers and booleans: MXNet differentiates both (a bool input of expand_dims gets True)."""
    return jnp.issubdtype(dtype, jnp.integer) or dtype == jnp.bool_


def involved(fn, args, need):
    """Whether ``fn``'s gradient at ``args`` needs the shadow: an integer input to differentiate,
    or an integer output."""
    if any(_is_int(args[i].dtype) for i in need):
        return True
    return any(_is_int(o.dtype) for o in jax.tree_util.tree_leaves(jax.eval_shape(fn, *args)))


def _data_positions(name, n):
    if name in _ALL_DATA:
        return range(n)
    if name == 'select_n':  # the predicate, then the cases
        return range(1, n)
    return _SOME_DATA.get(name)


def _inner(eqn):
    """The ClosedJaxpr a call-like primitive runs (jit, custom_jvp/vjp calls), else None (a
    scan's body runs once per step: the scan is not a call)."""
    if eqn.primitive.name == 'scan':
        return None
    for key in ('jaxpr', 'call_jaxpr', 'fun_jaxpr'):
        sub = eqn.params.get(key)
        if sub is not None and hasattr(sub, 'jaxpr') and hasattr(sub, 'consts'):
            return sub
    return None


def _bind(eqn, args, params=None):
    bind_params = eqn.primitive.get_bind_params(eqn.params if params is None else params)
    with eqn.ctx.manager:
        out = eqn.primitive.bind(*args, **bind_params)
    return list(out) if eqn.primitive.multiple_results else [out]


def _carry(value, carrier):
    """``value`` with ``carrier``'s tangent (the shadow keeps the real values exactly)."""
    carrier = carrier.astype(_SHADOW if _is_int(value.dtype) else value.dtype)
    base = value.astype(carrier.dtype)
    return base + (carrier - jax.lax.stop_gradient(carrier))


def _shadowed(eqn, ins, shadows):
    """The eqn's real outputs, with their tangent-carrying versions (a float64 shadow for
    integer outputs, the value itself carrying the tangent for float ones; None: no gradient)."""
    name = eqn.primitive.name
    sub = _inner(eqn)
    if sub is not None:
        return _eval(sub.jaxpr, sub.consts, ins, shadows)
    if name == 'cond':
        return _cond(eqn, ins, shadows)
    real = _bind(eqn, ins)
    if name == 'convert_element_type':  # MXNet's Cast passes the gradient through
        src = shadows[0] if shadows[0] is not None else ins[0]
        return real, [_carry(real[0], src)] if jnp.issubdtype(src.dtype, jnp.inexact) else [None]
    data = _data_positions(name, len(ins))
    if data is None or not any(shadows[i] is not None for i in data):
        return real, [None] * len(real)
    args = list(ins)
    for i in data:
        if _is_int(ins[i].dtype):
            args[i] = shadows[i] if shadows[i] is not None else ins[i].astype(_SHADOW)
    params = dict(eqn.params)
    for key, value in _FLOAT_PARAMS.items():
        if params.get(key) is not None and _is_int(params[key]):
            params[key] = value
    if 'fill_value' in params and params['fill_value'] is not None:
        params['fill_value'] = float(params['fill_value'])
    carried = _bind(eqn, args, params)
    return real, [_carry(r, c) for r, c in zip(real, carried)]


def _cond(eqn, ins, shadows):
    """``lax.cond``/``switch`` (jnp.diagonal picks its code per platform with one) with the
    shadows passed through the branch taken."""
    has = [s is not None for s in shadows[1:]]

    def branch(closed):
        def run(ops, given):
            it = iter(given)
            outs, out_shadows = _eval(closed.jaxpr, closed.consts, list(ops), [next(it) if h else None for h in has])
            return outs, [s if s is not None or not _is_int(o.dtype) else o.astype(_SHADOW)
                          for o, s in zip(outs, out_shadows)]
        return run

    given = [s for s in shadows[1:] if s is not None]
    return jax.lax.switch(ins[0], [branch(b) for b in eqn.params['branches']], ins[1:], given)


def _eval(jaxpr, consts, ins, shadows):
    """Evaluate ``jaxpr``; ``shadows`` holds the tangent-carrying versions of integer inputs
    (None where an input carries no gradient). Returns (outputs, their shadows)."""
    real, shadow = {}, {}

    def read(v):
        return v.val if isinstance(v, Literal) else real[v]

    def read_shadow(v):
        return None if isinstance(v, Literal) else shadow.get(v)

    real.update(zip(jaxpr.constvars, consts))
    for v, x, s in zip(jaxpr.invars, ins, shadows):
        real[v] = x
        if s is not None:
            shadow[v] = s
    for eqn in jaxpr.eqns:
        args = [read(v) for v in eqn.invars]
        arg_shadows = [read_shadow(v) for v in eqn.invars]
        makes = eqn.primitive.name == 'convert_element_type' and _is_int(eqn.params['new_dtype']) \
            and jnp.issubdtype(args[0].dtype, jnp.inexact)
        sub = _inner(eqn)
        if sub is not None and 'custom' not in eqn.primitive.name:  # a jit: inlined, it may convert
            outs, out_shadows = _eval(sub.jaxpr, sub.consts, args, arg_shadows)
        elif makes or any(s is not None for s in arg_shadows):
            outs, out_shadows = _shadowed(eqn, args, arg_shadows)
        else:
            outs, out_shadows = _bind(eqn, args), ()
        for v, o, s in zip(eqn.outvars, outs, list(out_shadows) + [None] * len(outs)):
            if type(v).__name__ == 'DropVar':
                continue
            if s is not None and not _is_int(o.dtype):
                o, s = s, None  # a float output: the value itself carries the tangent
            real[v] = o
            if s is not None:
                shadow[v] = s
    return [read(v) for v in jaxpr.outvars], [read_shadow(v) for v in jaxpr.outvars]


class _Pullback:
    """Calls the shadow's pullback with the outputs' cotangents in their own types and gives the
    inputs' gradients in theirs (integers truncated, as MXNet's integer backward computes)."""

    def __init__(self, out_avals, in_dtypes):
        self.out_avals, self.in_dtypes = out_avals, in_dtypes

    def __eq__(self, other):
        return type(other) is _Pullback and (self.out_avals, self.in_dtypes) == (other.out_avals, other.in_dtypes)

    def __hash__(self):
        return hash((self.out_avals, self.in_dtypes))

    def __call__(self, pull, cts):
        shadow_cts = []
        for c, (shape, dtype) in zip(cts, self.out_avals):
            if _is_int(dtype):
                c = jnp.zeros(shape, _SHADOW) if c.dtype == jax.dtypes.float0 else c.astype(_SHADOW)
            elif c.dtype != dtype and c.dtype != jax.dtypes.float0:
                c = c.astype(dtype)
            shadow_cts.append(c)
        grads = pull(tuple(shadow_cts))
        return tuple(g.astype(d) if _is_int(d) else g for g, d in zip(grads, self.in_dtypes))


def vjp(fn, args, need):
    """``(outputs, pullback)`` of ``fn(*args)`` w.r.t. the inputs ``need`` (see the module doc);
    ``pullback`` is a pytree taking a tuple of the outputs' cotangents."""
    closed = jax.make_jaxpr(fn)(*args)
    is_int = [_is_int(args[i].dtype) for i in need]

    def shadow_fn(*diff):
        ins, shadows = list(args), [None] * len(args)
        for i, d, integer in zip(need, diff, is_int):
            if integer:
                shadows[i] = d
            else:
                ins[i] = d
        outs, out_shadows = _eval(closed.jaxpr, closed.consts, ins, shadows)
        carried = tuple(s if s is not None else (o.astype(_SHADOW) if _is_int(o.dtype) else o)
                        for o, s in zip(outs, out_shadows))
        return carried, tuple(jax.lax.stop_gradient(o) for o in outs)

    primals = [args[i].astype(_SHADOW) if integer else args[i] for i, integer in zip(need, is_int)]
    _, pull, outs = jax.vjp(shadow_fn, *primals, has_aux=True)
    avals = tuple((o.shape, o.dtype) for o in outs)
    pullback = jax.tree_util.Partial(_Pullback(avals, tuple(args[i].dtype for i in need)), pull)
    return outs, pullback
