"""Control-flow operators: ``_foreach``, ``_while_loop`` and ``_cond`` (MXNet 1.x's contrib.

A control-flow node carries subgraphs (the loop body, the condition, the branches) besides its
array inputs. The symbol layer binds each subgraph as a pure function
``subgraph(arrays, train, key) -> list of arrays`` and hands the tuple to the kernel as
``_subgraphs``; everything here is then plain jax: ``lax.scan`` for foreach, a ``lax.scan`` over
``max_iterations`` steps that stops computing once the condition fails for while_loop (so that
it can be differentiated, which ``lax.while_loop`` cannot, and its outputs are padded to
``max_iterations`` as MXNet's are), and ``lax.cond`` for cond.

The attributes are MXNet's (the same strings in symbol JSON): ``*_locs`` say where each
subgraph input comes from among the node's inputs. The nested-list helpers ``flatten`` and
``regroup`` are the calling convention the front ends share.
"""
import jax
import jax.numpy as jnp
from jax import lax

from ..base import MXNetError, shape_str
from ._registry import P, register

__all__ = ['flatten', 'regroup']


# ---- nested lists of arrays, as the front ends take and return them ---------------------------

def flatten(args, what, array_type):
    """(flat list, format) of an array or a nested list of arrays; ``regroup`` undoes it.

    The format is 0 for a lone array and a list of formats for a list, as MXNet's contrib
    functions record it, so that the outputs come back in the structure the user wrote.
    """
    if isinstance(args, array_type):
        return [args], 0
    if not isinstance(args, (list, tuple)):
        raise TypeError('%s must be an array or a (nested) list of arrays, but got %r of type %s'
                        % (what, args, type(args).__name__))
    flat, fmts = [], []
    for item in args:
        sub, fmt = flatten(item, what, array_type)
        flat.extend(sub)
        fmts.append(fmt)
    return flat, fmts


def regroup(flat, fmt):
    """The nested structure ``fmt`` (from ``flatten``) filled with the arrays of ``flat``."""
    out, rest = _regroup(list(flat), fmt)
    if rest:
        raise ValueError('regroup: %d arrays left over' % len(rest))
    return out


def _regroup(flat, fmt):
    if isinstance(fmt, int):
        return flat[0], flat[1:]
    out = []
    for item in fmt:
        value, flat = _regroup(flat, item)
        out.append(value)
    return out, flat


# ---- the kernels ---------------------------------------------------------------------------

def _subgraphs_of(name, subgraphs, count):
    if subgraphs is None or len(subgraphs) != count:
        raise MXNetError('%s: a control-flow operator runs only as a node of a symbol graph, which '
                         'carries its subgraphs; use mx.nd.contrib / mx.sym.contrib.%s'
                         % (name, name.strip('_')))
    return subgraphs


def _place(n, pairs):
    """A list of ``n`` subgraph inputs from (location, value) pairs."""
    ins = [None] * n
    for loc, value in pairs:
        ins[loc] = value
    return ins


def _same_type(name, what, new, old):
    """``new`` as the loop state ``old`` was: a body must keep each state's shape and dtype."""
    if tuple(new.shape) != tuple(old.shape):
        raise MXNetError('%s: the %s changes shape in the loop body: %s becomes %s'
                         % (name, what, shape_str(old.shape), shape_str(new.shape)))
    return new.astype(old.dtype)


def _counts(attrs):
    return attrs['num_outputs']


def _foreach_inputs(attrs):
    if attrs is None:
        return ()
    return tuple('arg%d' % i for i in range(attrs['num_args'] - 1))


_FOREACH_PARAMS = [P('num_args', 'int'), P('num_outputs', 'int'), P('num_out_data', 'int'),
                   P('in_state_locs', 'shape'), P('in_data_locs', 'shape'), P('remain_locs', 'shape')]


@register('_foreach', params=_FOREACH_PARAMS, inputs=_foreach_inputs, num_outputs=_counts,
          mode_dependent=True, random=True, subgraphs=1)
def foreach(*arrays, num_args, num_outputs, num_out_data, in_state_locs, in_data_locs, remain_locs,
            _subgraphs=None, _train=False, _key=None):
    """Run the body subgraph on each slice of the data along axis 0, carrying the states.

    Inputs: the data arrays, the initial states, then the body's other inputs (``remain``).
    Outputs: the body's data outputs stacked along a new axis 0, then the final states.
    """
    (body,) = _subgraphs_of('_foreach', _subgraphs, 1)
    n_data, n_state = len(in_data_locs), len(in_state_locs)
    n_in = n_data + n_state + len(remain_locs)
    data, states, remain = arrays[:n_data], arrays[n_data:n_data + n_state], arrays[n_data + n_state:]
    lengths = {int(d.shape[0]) for d in data if d.ndim}
    if len(lengths) != 1 or any(d.ndim == 0 for d in data):
        raise MXNetError('_foreach: the data arrays must share their first dimension, got %s'
                         % ', '.join(shape_str(d.shape) for d in data))
    fixed = list(zip(remain_locs, remain))

    def step(carry, slices):
        states, key = carry
        key, sub = jax.random.split(key)
        ins = _place(n_in, list(zip(in_data_locs, slices)) + list(zip(in_state_locs, states)) + fixed)
        outs = body(ins, _train, sub)
        new = [_same_type('_foreach', 'state %d' % i, s, old)
               for i, (s, old) in enumerate(zip(outs[num_out_data:], states))]
        return (new, key), list(outs[:num_out_data])

    # A slice of a 1-d array is an array of one element, as MXNet has no 0-d arrays.
    data = [d.reshape(-1, 1) if d.ndim == 1 else d for d in data]
    (final, _), stacked = lax.scan(step, (list(states), _key), data)
    return tuple(stacked) + tuple(final)


def _while_inputs(attrs):
    if attrs is None:
        return ()
    return tuple('arg%d' % i for i in range(attrs['num_args'] - 2))


_WHILE_PARAMS = [P('num_args', 'int'), P('num_outputs', 'int'), P('num_out_data', 'int'),
                 P('max_iterations', 'int'), P('cond_input_locs', 'shape'), P('func_input_locs', 'shape'),
                 P('func_var_locs', 'shape')]


def _as_predicate(name, value):
    """A one-element array as the boolean MXNet's ``asscalar()`` reads."""
    if value.size != 1:
        raise MXNetError('%s: the condition must have exactly one element, got shape %s'
                         % (name, shape_str(value.shape)))
    return value.reshape(()) != 0


@register('_while_loop', params=_WHILE_PARAMS, inputs=_while_inputs, num_outputs=_counts,
          mode_dependent=True, random=True, subgraphs=2)
def while_loop(*arrays, num_args, num_outputs, num_out_data, max_iterations, cond_input_locs,
               func_input_locs, func_var_locs, _subgraphs=None, _train=False, _key=None):
    """Run the func subgraph while the cond subgraph holds, at most ``max_iterations`` times.

    Outputs: each step output stacked along axis 0 and padded with zeros to ``max_iterations``
    rows, then the final loop variables. Loop variable ``k`` is node input
    ``func_input_locs[func_var_locs[k]]``; the steps after the condition fails run neither
    subgraph (``lax.cond``), so they cost one predicate test each.
    """
    cond_g, func_g = _subgraphs_of('_while_loop', _subgraphs, 2)
    var_inputs = [func_input_locs[loc] for loc in func_var_locs]
    init = [arrays[i] for i in var_inputs]

    def values(loop_vars):
        vals = list(arrays)
        for i, v in zip(var_inputs, loop_vars):
            vals[i] = v
        return vals

    def run_cond(loop_vars, key):
        vals = values(loop_vars)
        (pred,) = cond_g([vals[i] for i in cond_input_locs], _train, key)
        return _as_predicate('_while_loop', pred)

    def run_func(loop_vars, key):
        vals = values(loop_vars)
        outs = func_g([vals[i] for i in func_input_locs], _train, key)
        new = [_same_type('_while_loop', 'loop variable %d' % i, v, old)
               for i, (v, old) in enumerate(zip(outs[num_out_data:], loop_vars))]
        return list(outs[:num_out_data]), new

    out_avals = jax.eval_shape(lambda v, k: run_func(v, k)[0], init, _key)

    def step(carry, _):
        loop_vars, running, key = carry
        key, k_cond, k_func = jax.random.split(key, 3)
        running = jnp.logical_and(running, run_cond(loop_vars, k_cond))

        def skip(loop_vars):
            return [jnp.zeros(a.shape, a.dtype) for a in out_avals], list(loop_vars)

        outs, loop_vars = lax.cond(running, lambda v: run_func(v, k_func), skip, loop_vars)
        return (loop_vars, running, key), outs

    (final, _, _), stacked = lax.scan(step, (init, jnp.bool_(True), _key), None, length=max_iterations)
    return tuple(stacked) + tuple(final)


def _cond_inputs(attrs):
    if attrs is None:
        return ()
    return tuple('arg%d' % i for i in range(attrs['num_args'] - 3))


_COND_PARAMS = [P('num_args', 'int'), P('num_outputs', 'int'), P('cond_input_locs', 'shape'),
                P('then_input_locs', 'shape'), P('else_input_locs', 'shape')]


@register('_cond', params=_COND_PARAMS, inputs=_cond_inputs, num_outputs=_counts,
          mode_dependent=True, random=True, subgraphs=3)
def cond(*arrays, num_args, num_outputs, cond_input_locs, then_input_locs, else_input_locs,
         _subgraphs=None, _train=False, _key=None):
    """The then subgraph's outputs where the pred subgraph's one element is non-zero, else the
    else subgraph's: one ``lax.cond``, so only the branch taken runs and only it has gradients."""
    pred_g, then_g, else_g = _subgraphs_of('_cond', _subgraphs, 3)
    k_pred, k_branch = jax.random.split(_key)
    (pred,) = pred_g([arrays[i] for i in cond_input_locs], _train, k_pred)
    then_avals = jax.eval_shape(lambda: then_g([arrays[i] for i in then_input_locs], _train, k_branch))
    else_avals = jax.eval_shape(lambda: else_g([arrays[i] for i in else_input_locs], _train, k_branch))
    for i, (t, e) in enumerate(zip(then_avals, else_avals)):
        if t.shape != e.shape:
            raise MXNetError('_cond: output %d has shape %s in the then branch but %s in the else branch'
                             % (i, shape_str(t.shape), shape_str(e.shape)))

    def branch(graph, locs):
        def run(arrays):
            outs = graph([arrays[i] for i in locs], _train, k_branch)
            return [o.astype(a.dtype) for o, a in zip(outs, then_avals)]
        return run

    return tuple(lax.cond(_as_predicate('_cond', pred), branch(then_g, then_input_locs),
                          branch(else_g, else_input_locs), list(arrays)))

