"""Generating ``mx.sym.*`` functions from the operator table (the same table as ``mx.nd``).

Each function maps MXNet's calling convention onto (inputs, parameters) with the
shared :func:`gluonjax.ops._frontend.split_call`, then adds a node named by the
current NameManager after the function's own name (``mx.sym.sum_axis`` makes
``sum_axis0``, an operator ``sum`` node, as MXNet does).
"""
from ..ops._frontend import split_call, named
from ..ops._registry import named_by
from .symbol import Symbol


def _is_symbol(x):
    return isinstance(x, Symbol)


def call(op, hint, args, kwargs):
    """Apply ``op`` to a front-end call's arguments, naming the node after ``hint``."""
    inputs, params, extras = split_call(op, args, dict(kwargs), _is_symbol)
    return Symbol._apply_op(op, hint, inputs, params, extras)


def make_function(op, public_name):
    hint = public_name.lower()

    def fn(*args, **kwargs):
        return call(op, hint, args, kwargs)
    return named(fn, op, public_name)


def _fluent(public, op):
    hint = 'cast' if public == 'astype' else public

    def method(self, *args, **kwargs):
        return call(op, hint, (self,) + args, kwargs)
    method.__name__ = public
    method.__doc__ = 'Fluent form of ``%s`` (see ``mx.sym.%s``).' % (op.name, op.name)
    return method


def add_fluent_methods():
    """Attach ``x.<method>(...)`` for every method the table names (its ``methods``)."""
    for public, op in named_by('methods').items():
        if public not in Symbol.__dict__:
            setattr(Symbol, public, _fluent(public, op))
