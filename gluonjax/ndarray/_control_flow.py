"""``mx.nd.contrib.foreach``, ``while_loop`` and ``cond``: control flow as Python loops.

Imperatively, control flow is the user's Python function called step by step on NDArrays, as
in MXNet: under ``autograd.record()`` each operator inside is recorded, so gradients flow
through every step taken. (Symbols and hybridized blocks compile the same functions to one
``lax.scan`` / ``lax.cond``: ``symbol/_control_flow.py``.)
"""
import numpy as np

from ..base import upper_layer
from ..ops._frontend import ArrayType
from ..ops.control_flow import flatten, regroup
from ._creation import concatenate, zeros
from .ndarray import NDArray, invoke

__all__ = ['foreach', 'while_loop', 'cond']


def _flat_arrays(value, what):
    return flatten(value, what, NDArray)


def _python_scalar(value, type_, what):
    """``value`` (an NDArray of one element or a Python number) as ``type_``."""
    if hasattr(value, 'asscalar'):
        value = value.asscalar()
    try:
        return type_(value)
    except (TypeError, ValueError):
        raise ValueError('Cannot convert %s to python %s' % (what, type_.__name__)) from None


def _stack(items):
    return invoke('stack', list(items), {'axis': 0, 'num_args': len(items)})


def _symbolic(*values):
    """The symbol front end's control flow when the arrays are traced Symbols (Gluon 2
    ``forward`` code that hybridize traces calls mx.nd.contrib.* on them), else None."""
    for value in values:
        try:
            flat, _ = flatten(value, 'control flow input', ArrayType)
        except TypeError:  # not arrays: the imperative function says what it needs
            continue
        if any(not isinstance(a, NDArray) for a in flat):
            return upper_layer('symbol_control_flow')
    return None


def foreach(body, data, init_states):
    """Run ``body(data_slice, states) -> (outputs, new_states)`` for each slice of ``data``
    along axis 0; returns ``(outputs stacked along axis 0, final states)``."""
    symbolic = _symbolic(data, init_states)
    if symbolic is not None:
        return symbolic.foreach(body, data, init_states)
    flat_data, _ = _flat_arrays(data, 'foreach data')
    _flat_arrays(init_states, 'foreach init_states')
    n_steps = flat_data[0].shape[0]
    states = init_states
    steps, out_fmt = [], []
    for i in range(n_steps):
        slices = data[i] if isinstance(data, NDArray) else [d[i] for d in data]
        outs, states = body(slices, states)
        flat_out, out_fmt = _flat_arrays(outs, 'foreach output')
        steps.append(flat_out)
    stacked = [_stack(items) for items in zip(*steps)]
    return regroup(stacked, out_fmt), states


def while_loop(cond, func, loop_vars, max_iterations=None):
    """``while cond(*vars): outputs, vars = func(*vars)``, at most ``max_iterations`` times.

    Returns ``(outputs, final loop_vars)``: each step output stacked along axis 0 and padded
    with zeros to ``max_iterations`` rows (MXNet leaves those rows unset).
    """
    symbolic = _symbolic(loop_vars)
    if symbolic is not None:
        return symbolic.while_loop(cond, func, loop_vars, max_iterations)
    if max_iterations is None:
        raise ValueError('max_iterations should be specified')
    max_iterations = _python_scalar(max_iterations, int, 'max_iteration')
    single = isinstance(loop_vars, NDArray)
    loop_vars = [loop_vars] if single else list(loop_vars)
    if not loop_vars:
        raise ValueError('loop_vars should contain at least one element')
    steps, out_fmt = [], None
    while len(steps) < max_iterations and _python_scalar(cond(*loop_vars), bool, 'Return value of cond'):
        outs, new_vars = func(*loop_vars)
        outs = [] if outs is None else list(outs) if isinstance(outs, tuple) else outs
        new_vars = [] if new_vars is None else new_vars
        new_vars = list(new_vars) if isinstance(new_vars, (list, tuple)) else [new_vars]
        if len(new_vars) != len(loop_vars):
            raise ValueError('The length of loop_vars should be consistent during the loop')
        flat_out, out_fmt = _flat_arrays(outs, 'while output')
        if steps and len(flat_out) != len(steps[0]):
            raise ValueError('Number of elements in step_output should be the same in each step')
        steps.append(flat_out)
        loop_vars = new_vars
    stacked = [_padded(items, max_iterations, i) for i, items in enumerate(zip(*steps), 1)]
    outputs = regroup(stacked, out_fmt) if out_fmt is not None else []
    return outputs, (loop_vars[0] if single else loop_vars)


def _padded(items, rows, index):
    """The step outputs ``items`` stacked, with zero rows up to ``rows``."""
    shapes = {tuple(x.shape) for x in items}
    if len(shapes) != 1:
        raise ValueError('\n'.join(['Shapes of %d-th elements in step_outputs are inconsistent, which are:' % index]
                                   + ['  Step %d, shape is %s' % (i, x.shape) for i, x in enumerate(items)]))
    stacked = _stack(items)
    if len(items) == rows:
        return stacked
    pad = zeros((rows - len(items),) + tuple(items[0].shape), ctx=items[0].context,
                dtype=np.dtype(items[0].dtype).name)
    return concatenate([stacked, pad])


def cond(pred, then_func, else_func):
    """``then_func()`` if the one-element ``pred`` is non-zero, else ``else_func()``."""
    symbolic = _symbolic(pred)
    if symbolic is not None:
        return symbolic.cond(pred, then_func, else_func)
    if _python_scalar(pred, bool, 'pred'):
        return then_func()
    return else_func()
