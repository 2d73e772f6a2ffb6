"""The Kernel that runs one node of a graph.

A control-flow node (``_foreach``, ``_while_loop``, ``_cond``) runs its subgraphs, so its
kernel binds them as functions: ``graph.SubgraphFunction``. Shape inference needs these kernels
and ``graph.GraphFunction`` needs shape inference (creation nodes whose dimensions their
consumers decide), so this module cannot import ``graph``: ``graph`` puts SubgraphFunction in
``subgraph_function`` when it is imported (the symbol package imports it at once).
"""
from .._caches import lru_cache
from ..ops._kernel import Kernel, kernel_for

__all__ = ['node_kernel']

subgraph_function = []  # [graph.SubgraphFunction], filled by graph.py

# id(node.subgraphs) -> (the subgraphs, their SubgraphFunctions, {(params, train): Kernel}):
# copies of a control-flow node share its subgraphs, and so their functions and kernels.
_subgraph_kernels = lru_cache('symbol.subgraph_kernels', 1024)


def node_kernel(node, train=False):
    """The Kernel that runs operator ``node``: the table's, and for a control-flow node the
    table's with its subgraphs bound as functions (the ``_subgraphs`` its function takes)."""
    if not node.subgraphs:
        return kernel_for(node.op.name, node.params(), train)
    cached = _subgraph_kernels.get(id(node.subgraphs))
    if cached is None or cached[0] is not node.subgraphs:
        make = subgraph_function[0]
        cached = (node.subgraphs, tuple(make(g) for g in node.subgraphs), {})
        _subgraph_kernels[id(node.subgraphs)] = cached
    _, functions, kernels = cached
    key = (tuple(sorted(node.params().items())), train)
    kernel = kernels.get(key)
    if kernel is None:
        attrs = dict(node.op.parse_attrs(node.params()), _subgraphs=functions)
        kernel = kernels[key] = Kernel(node.op, attrs, train and node.op.mode_dependent)
    return kernel
