"""plot_network: a graphviz drawing of a Symbol, as MXNet draws it.

One box per operator, an oval per input variable, weights and biases left out
by default; an edge runs from each operator back to each of its inputs, labelled
with the tensor's shape (batch axis dropped) when input shapes are given.
"""
import warnings

from gluonjax.ops import find_op

from ._common import check_symbol, graph_nodes, internal_shapes, internal_types, numbers_of

__all__ = ['plot_network']

# MXNet's palette, by the colour group an operator names in the table (its ``plot``):
# inputs, conv/fc, activations, batch norm, pooling, shape ops, the rest. (MXNet 1.9 also has a
# colour for an operator named 'Softmax', which its own graphs never contain: they store SoftmaxOutput.)
PALETTE = {'input': '#8dd3c7', 'weighted': '#fb8072', 'activation': '#ffffb3', 'norm': '#bebada',
           'pool': '#80b1d3', 'shape': '#fdb462', 'other': '#fccde5'}
# Names of variables that hold parameters or statistics rather than data.
WEIGHT_SUFFIXES = ('_weight', '_bias', '_beta', '_gamma', '_moving_var', '_moving_mean',
                   '_running_var', '_running_mean')
DEFAULT_NODE_ATTRS = {'shape': 'box', 'fixedsize': 'true', 'width': '1.3', 'height': '0.8034',
                      'style': 'filled'}


def node_style(op, name, attrs):
    """(label, fill colour) of an operator node, or of a variable (op 'null')."""
    if op == 'null':
        return name, PALETTE['input']
    if op == 'Custom':  # a Python-defined operator is labelled by its registered type
        return attrs['op_type'], PALETTE['other']
    entry = find_op(op)
    plot = entry.plot if entry is not None else None
    if plot is None:
        return name, PALETTE['other']
    return (plot.label(attrs) if plot.label else name), PALETTE[plot.group]


def plot_network(symbol, title='plot', save_format='pdf', shape=None, dtype=None, node_attrs={},
                 hide_weights=True):
    """A ``graphviz.Digraph`` of the graph computing ``symbol``.

    Args:
        symbol: the Symbol to draw.
        title: the graph's name (and file name when rendered).
        save_format: the format ``render()`` writes ('pdf', 'png', 'svg', ...).
        shape: {input name: shape}; when given, edges carry the shapes (batch axis dropped).
        dtype: {input name: dtype}; when given, edges carry the dtype names.
        node_attrs: graphviz attributes for every node, over the defaults
            (``{"shape": "oval", "fixedsize": "false"}``).
        hide_weights: leave out variables named ``*_weight``, ``*_bias``, ``*_gamma``, ...

    Returns:
        graphviz.Digraph: call ``.render()`` or show it in a notebook (needs the ``dot`` program).

    Example::

        net = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=10, name='fc')
        mx.viz.plot_network(net, shape={'data': (1, 20)}).render('net')
    """
    try:
        from graphviz import Digraph
    except ImportError:
        raise ImportError('plot_network needs the graphviz Python package: pip install graphviz') from None
    check_symbol(symbol, 'plot_network')
    shape_dict = internal_shapes(symbol, shape) if shape is not None else None
    type_dict = internal_types(symbol, dtype) if dtype is not None else None
    nodes, _ = graph_nodes(symbol)
    names = [n['name'] for n in nodes]
    if len(names) != len(set(names)):
        repeated = sorted({n for n in names if names.count(n) > 1})
        warnings.warn('There are multiple variables with the same name in your graph, this may result in '
                      'cyclic graph. Repeated names: ' + ','.join(repeated), RuntimeWarning)
    base = dict(DEFAULT_NODE_ATTRS)
    base.update(node_attrs)
    dot = Digraph(name=title, format=save_format)
    hidden = set()
    for node in nodes:
        op, name = node['op'], node['name']
        if op == 'null' and name.endswith(WEIGHT_SUFFIXES):
            if hide_weights:
                hidden.add(name)
            continue  # shown weights are edge ends only (graphviz draws them as plain ovals)
        attr = dict(base)
        if op == 'null':
            attr['shape'] = 'oval'
        label, attr['fillcolor'] = node_style(op, name, node['attrs'])
        dot.node(name=name, label=label, **attr)
    for node in nodes:
        if node['op'] == 'null':
            continue
        inputs = node['inputs'][:1] if node['op'] == '_contrib_BilinearResize2D' else node['inputs']
        for src, index, _version in inputs:
            src_node = nodes[src]
            if src_node['name'] in hidden:
                continue
            attr = {'dir': 'back', 'arrowtail': 'open', 'label': ''}
            key = _output_key(src_node, index)
            if shape_dict is not None:
                attr['label'] = 'x'.join(str(d) for d in shape_dict[key][1:])
            if type_dict is not None:
                attr['label'] += '(%s)' % type_dict[key].__name__
            dot.edge(tail_name=node['name'], head_name=src_node['name'], **attr)
    return dot


def _output_key(node, index):
    """The internal output name of an edge's source (``conv0_output``, ``split0_output1``, ``data``)."""
    if node['op'] == 'null':
        return node['name']
    op = find_op(node['op'])
    if op is None:
        return node['name'] + '_output'
    parsed = op.parse_attrs({k: v for k, v in node['attrs'].items() if k in op._param_map})
    names = op.list_output_names(parsed)
    return '%s_%s' % (node['name'], names[index] if index < len(names) else 'output')
