"""``mx.viz``: drawing a Symbol's graph (``plot_network``) and printing its layer table (``print_summary``).

Both follow MXNet 1.9's ``mxnet.visualization``: the same nodes, labels,
colours and edges, and the same summary table, so pictures and printed
summaries in existing notebooks come out the same.
"""
from ._plot import plot_network  # noqa: F401
from ._summary import print_summary  # noqa: F401

__all__ = ['plot_network', 'print_summary']
