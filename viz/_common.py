"""What plot_network and print_summary share: the graph as MXNet's JSON lists it, and shapes."""
import re

from gluonjax.symbol import Symbol
from gluonjax.symbol.json import graph_dict


def check_symbol(symbol, what):
    if not isinstance(symbol, Symbol):
        raise TypeError('%s: symbol must be a Symbol, got %s' % (what, type(symbol).__name__))


def graph_nodes(symbol):
    """(nodes, heads) as in the symbol's JSON: dicts with op, name, attrs, inputs."""
    g = graph_dict(symbol)
    nodes = [{'op': n['op'], 'name': n['name'], 'attrs': dict(n.get('attrs', {})),
              'inputs': [list(e) for e in n['inputs']]} for n in g['nodes']]
    return nodes, [list(h) for h in g['heads']]


def internal_shapes(symbol, shape):
    """{output name: shape} for every internal output, from the input shapes ``shape``."""
    internals = symbol.get_internals()
    _, out_shapes, _ = internals.infer_shape(**shape)
    if out_shapes is None:
        raise ValueError('Input shape is incomplete')
    return dict(zip(internals.list_outputs(), out_shapes))


def internal_types(symbol, dtype):
    internals = symbol.get_internals()
    _, out_types, _ = internals.infer_type(**dtype)
    if out_types is None:
        raise ValueError('Input type is incomplete')
    return dict(zip(internals.list_outputs(), out_types))


def numbers_of(text):
    """The integers written in an attribute such as '(5, 5)' -> ['5', '5']."""
    return re.findall(r'\d+', text)
