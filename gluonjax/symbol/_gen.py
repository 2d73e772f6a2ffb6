"""Generating ``mx.sym.*`` functions from the operator table (the same table as ``mx.nd``).

Each function maps MXNet's calling convention onto (inputs, parameters) with the
shared :func:`gluonjax.ops._frontend.split_call`, then adds a node named by the
current NameManager after the function's own name (``mx.sym.sum_axis`` makes
``sum_axis0``, an operator ``sum`` node, as MXNet does).
"""
import keyword

from ..base import MXNetError
from ..ops import all_ops
from ..ops._frontend import split_call, function_doc
from .symbol import Symbol, create

# Operator name prefixes that MXNet also exposes in sub-namespaces (mx.sym.linalg.gemm2).
NAMESPACES = {'_contrib_': 'contrib', '_linalg_': 'linalg', '_image_': 'image', '_sparse_': 'sparse',
              '_random_': 'random', '_sample_': 'random', '_np_': None, '_npi_': None, '_npx_': None}


def _is_symbol(x):
    return isinstance(x, Symbol)


def call(op, hint, args, kwargs):
    """Apply ``op`` to a front-end call's arguments, naming the node after ``hint``."""
    inputs, params, extras = split_call(op, args, dict(kwargs), _is_symbol)
    if extras.get('out') is not None:
        raise MXNetError('%s: out= is not supported for symbols' % op.name)
    if op.creation and 'ctx' in extras and 'ctx' in op._param_map:
        params['ctx'] = str(extras['ctx'])
    return create(op, inputs, params, name=extras.get('name'), attr=extras.get('attr'), hint=hint)


def make_function(op, public_name):
    hint = public_name.lower()

    def fn(*args, **kwargs):
        return call(op, hint, args, kwargs)
    fn.__name__ = public_name
    fn.__qualname__ = public_name
    fn.__doc__ = function_doc(op)
    return fn


def populate(namespace):
    """Add a function for every operator name and alias not already defined in ``namespace``."""
    for name, op in all_ops().items():
        if name not in namespace and not keyword.iskeyword(name):
            namespace[name] = make_function(op, name)


def populate_namespace(module, prefixes):
    """Add ``module.<short>`` for every operator named ``<prefix><short>`` (mx.sym.linalg.gemm2)."""
    for name, op in all_ops().items():
        for prefix in prefixes:
            if name.startswith(prefix):
                short = name[len(prefix):]
                if short and not hasattr(module, short) and not keyword.iskeyword(short):
                    setattr(module, short, make_function(op, short))
