"""The ``npx`` operator functions, generated from the operator table.

Each public name is listed by an operator of the table (``npx=('fully_connected',)`` on
``FullyConnected``); the calling convention is MXNet's (array inputs first, parameters
positionally in declared order or by keyword), shared with ``mx.nd`` through
:func:`gluonjax.ops._frontend.split_call`.
"""
from ..base import MXNetError
from ..ops._frontend import function_doc, is_array, split_call
from ..ops._registry import named_by
from ..numpy._core import apply_op

def _make(public, op):
    def fn(*args, **kwargs):
        inputs, params, extras = split_call(op, args, dict(kwargs), is_array)
        for i, x in enumerate(inputs):
            if x is not None and not is_array(x):
                raise MXNetError('npx.%s: input %d must be an mx.np.ndarray, got %s'
                                 % (public, i, type(x).__name__))
        return apply_op(op.name, inputs, params, out=extras.get('out'), hint=public)
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = function_doc(op)
    return fn


# One function for each name the operator table lists under ``npx``.
_FUNCTIONS = {public: _make(public, op) for public, op in named_by('npx').items()}
globals().update(_FUNCTIONS)
__all__ = sorted(_FUNCTIONS)
