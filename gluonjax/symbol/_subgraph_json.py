"""Installs the symbol layer's JSON reader for the ``_CachedOp`` operator (ops/cached_op.py):
a subgraph's JSON text becomes its GraphFunction, read once per text."""
import functools
import warnings

from .. import _caches
from ..ops import cached_op as _cached_op
from .graph import GraphFunction
from .json import fromjson


@functools.lru_cache(maxsize=64)
def _symbol(text):
    return fromjson(text)


@functools.lru_cache(maxsize=64)
def _graph(text):
    return GraphFunction(_symbol(text))


def _shapes(text, known):
    """{input name: shape} of the subgraph's inputs that its shape inference decides from ``known``."""
    sym = _symbol(text)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # a partial answer is expected: the caller asks again later
        arg_shapes, _out, aux_shapes = sym.infer_shape_partial(**known)
    if arg_shapes is None:
        return {}
    names = sym.list_arguments() + sym.list_auxiliary_states()
    return {n: tuple(s) for n, s in zip(names, list(arg_shapes) + list(aux_shapes or []))
            if s and all(d is not None and d > 0 for d in s)}


_caches.register_function('symbol.cached_op_symbols', _symbol)
_caches.register_function('symbol.cached_op_graphs', _graph)
_cached_op.GRAPHS.update(load=_graph, shapes=_shapes)
