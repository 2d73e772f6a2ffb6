"""``mx.np._internal``: the table's ``_npi_*`` operators under their names without the prefix
(``_internal.boolean_mask_assign_scalar`` is ``_npi_boolean_mask_assign_scalar``), called as
MXNet calls them (array inputs first, then parameters; ``out=`` writes the result)."""
from ..base import MXNetError
from ..ops import get_op
from ..ops._frontend import is_array, split_call
from ._core import apply_op


def _function(name, op):
    def fn(*args, **kwargs):
        inputs, params, extras = split_call(op, args, dict(kwargs), is_array)
        return apply_op(op.name, inputs, params, out=extras.get('out'))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = op.fn.__doc__
    return fn


def __getattr__(name):
    try:
        op = get_op('_npi_' + name)
    except MXNetError:
        raise AttributeError("module 'mxnet.numpy._internal' has no attribute %r" % name) from None
    fn = globals()[name] = _function(name, op)
    return fn
