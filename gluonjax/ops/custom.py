"""Custom: operators written in Python (MXNet's ``mx.operator.CustomOp``).

The table holds one entry, ``Custom``; its ``op_type`` names a ``CustomOpProp`` class that
:mod:`gluonjax.operator` (the user API, above the ndarray layer) registers in :data:`PROPS`.
The user's forward and backward run on the host through ``jax.pure_callback`` inside a
``jax.custom_vjp``, so a Custom node runs eagerly, under autograd, in hybridized blocks and in
symbol graphs, with the output shapes and dtypes its prop's ``infer_shape``/``infer_type`` give.
The host side (NDArrays in, NDArrays out) is :data:`HOST`, also filled by gluonjax.operator, so
this layer never imports the ndarray layer.
"""
import functools

import jax
import numpy as np

from ..base import MXNetError
from ._registry import P, register

PROPS = {}  # op_type -> CustomOpProp subclass
HOST = {}   # 'forward' / 'backward': the host functions that call the user's CustomOp


def make_prop(attrs):
    """The user's CustomOpProp for a node's attributes (MXNet passes every keyword as a string)."""
    if attrs is None:
        return None
    op_type = attrs.get('op_type')
    cls = PROPS.get(op_type)
    if cls is None:
        raise MXNetError('Custom: no operator registered as op_type=%r (registered: %s); define it with '
                         '@mx.operator.register(%r)' % (op_type, ', '.join(sorted(PROPS)) or 'none', op_type))
    return cls(**{k: v for k, v in attrs.items() if k not in ('op_type', '_train')})


def _inputs(attrs):
    prop = make_prop(attrs)
    if prop is None:  # any number of arrays may be given positionally
        return tuple('arg%d' % i for i in range(64))
    return tuple(prop.list_arguments()) + tuple(prop.list_auxiliary_states())


def _call_inputs(kwargs):
    """Input names of a front-end call: its keywords that are values (not arrays) make the prop."""
    values = {k: v for k, v in kwargs.items() if v is None or isinstance(v, (str, int, float, bool, tuple, list))}
    return _inputs(values) if 'op_type' in values else _inputs(None)


def _aux(attrs):
    prop = make_prop(attrs)
    return () if prop is None else tuple(prop.list_auxiliary_states())


def _input_shapes(attrs, known):
    """The shapes the prop's infer_shape gives the arguments and auxiliary states, once an
    argument's shape is known. MXNet calls it with the argument shapes alone, an unknown one as
    ``[]``, so that a prop can give a label the data's shape; an empty shape back stays unknown."""
    prop = make_prop(attrs)
    args = prop.list_arguments()
    if not any(n in known for n in args):
        return {}
    try:
        shapes = prop.infer_shape([list(known[n]) if n in known else [] for n in args])
    except MXNetError:
        raise
    except Exception as err:  # MXNet reports the prop's error as its own (shape inference stops)
        raise MXNetError('Custom %r: infer_shape raised %s: %s' % (attrs.get('op_type'), type(err).__name__, err)) from err
    aux = shapes[2] if len(shapes) > 2 else []
    names = list(args) + list(prop.list_auxiliary_states())
    return {n: tuple(int(d) for d in s) for n, s in zip(names, list(shapes[0]) + list(aux))
            if n in known or len(s)}


def _outputs(attrs):
    return len(make_prop(attrs).list_outputs())


def _output_names(attrs):
    return tuple(make_prop(attrs).list_outputs())


def signature(prop, op_type, arrays):
    """(input shapes, input dtypes, output shapes, output dtypes) as the prop declares them."""
    n_args = len(prop.list_arguments())
    n_aux = len(prop.list_auxiliary_states())
    if len(arrays) != n_args + n_aux:
        raise MXNetError('Custom %r: takes %d inputs (%s), got %d' % (
            op_type, n_args + n_aux, ', '.join(prop.list_arguments() + prop.list_auxiliary_states()), len(arrays)))
    in_shapes = [list(a.shape) for a in arrays]
    in_types = [np.dtype(a.dtype) for a in arrays]
    shapes = prop.infer_shape(in_shapes[:n_args])
    types = prop.infer_type(in_types[:n_args])
    out_shapes, out_types = shapes[1], types[1]
    n_out = len(prop.list_outputs())
    if len(out_shapes) != n_out or len(out_types) != n_out:
        raise MXNetError('Custom %r: infer_shape/infer_type gave %d/%d outputs, list_outputs names %d'
                         % (op_type, len(out_shapes), len(out_types), n_out))
    return (tuple(tuple(s) for s in in_shapes), tuple(t.name for t in in_types),
            tuple(tuple(int(d) for d in s) for s in out_shapes), tuple(np.dtype(t).name for t in out_types))


@register('Custom', inputs=_inputs, call_inputs=_call_inputs, num_outputs=_outputs, output_names=_output_names, open_params=True,
          aux=_aux, updates_aux=True, input_shapes=_input_shapes, mode_dependent=True, params=[P('op_type', 'str')])
def custom(*arrays, op_type, _train=False, **kwargs):
    """An operator whose forward and backward are the Python methods of a registered CustomOp.

    Returns the outputs, then the auxiliary states as the user's forward left them (it writes
    them in place in MXNet), which the executor stores and the backward is given."""
    attrs = dict(kwargs, op_type=op_type)
    prop = make_prop(attrs)
    sig = signature(prop, op_type, arrays)
    spec = (tuple(sorted(attrs.items())), sig)
    n_out, n_args = len(sig[2]), len(prop.list_arguments())
    in_specs = tuple(jax.ShapeDtypeStruct(s, t) for s, t in zip(sig[0], sig[1]))
    out_specs = tuple(jax.ShapeDtypeStruct(s, t) for s, t in zip(sig[2], sig[3])) + in_specs[n_args:]

    @jax.custom_vjp
    def run(*xs):
        return jax.pure_callback(functools.partial(HOST['forward'], spec, bool(_train)), out_specs, *xs)

    def run_fwd(*xs):
        outs = run(*xs)
        return outs, (xs, outs)

    def run_bwd(saved, grads):
        xs, outs = saved
        ins = tuple(xs[:n_args]) + tuple(outs[n_out:])  # the states the forward wrote
        return tuple(jax.pure_callback(functools.partial(HOST['backward'], spec, len(xs)), in_specs,
                                       *grads[:n_out], *ins, *outs[:n_out]))

    run.defvjp(run_fwd, run_bwd)
    outs = run(*arrays)
    return tuple(outs)
