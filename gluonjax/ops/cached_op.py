"""_CachedOp: a node that runs a whole graph, given as symbol JSON (MXNet's subgraph operator,
``mx.sym._internal._CachedOp(*inputs, subgraph=sym.tojson())``).

The node's inputs are the subgraph's inputs (``list_inputs`` order), its auxiliary states the
subgraph's, its outputs the subgraph's. The kernel runs the subgraph's pure graph function, so
the node is traced, compiled and differentiated as one operator. Reading JSON into a graph is
the symbol layer's work: it installs the reader in :data:`GRAPHS` (this layer never imports
it), as gluonjax.operator installs Custom's host functions.
"""
from ..base import MXNetError
from ._registry import P, register

# 'load': fn(json text) -> a graph function with input_names, aux_names, output_names,
#          __call__(inputs by name, train, key) -> (outputs, new aux by name);
# 'shapes': fn(json text, {input name: shape}) -> {input name: shape} the subgraph infers.
GRAPHS = {}


def _graph(attrs):
    text = attrs.get('subgraph') if attrs else None
    if not text:
        raise MXNetError('_CachedOp: the subgraph parameter (a symbol\'s JSON) is required')
    return GRAPHS['load'](text)


def _inputs(attrs):
    if attrs is None:  # any number of arrays may be given positionally
        return tuple('data%d' % i for i in range(256))
    return tuple(_graph(attrs).input_names)


def _call_inputs(kwargs):
    text = kwargs.get('subgraph')
    return _inputs({'subgraph': text} if isinstance(text, str) else None)


def _aux(attrs):
    return tuple(_graph(attrs).aux_names) if attrs else ()


def _outputs(attrs):
    return len(_graph(attrs).output_names)


def _output_names(attrs):
    return tuple(_graph(attrs).output_names)


def _input_shapes(attrs, known):
    return GRAPHS['shapes'](attrs['subgraph'], known)


@register('_CachedOp', inputs=_inputs, call_inputs=_call_inputs, aux=_aux, num_outputs=_outputs,
          output_names=_output_names, updates_aux=True, mode_dependent=True, random=True,
          input_shapes=_input_shapes, params=[P('subgraph', 'str')])
def cached_op(*arrays, subgraph, _train=False, _key=None):
    """The outputs of the subgraph on the node's inputs, then its auxiliary states as its
    operators left them (BatchNorm's running statistics in training)."""
    graph = GRAPHS['load'](subgraph)
    names = graph.input_names
    if len(arrays) != len(names):
        raise MXNetError('_CachedOp: the subgraph takes %d inputs (%s), got %d'
                         % (len(names), ', '.join(names), len(arrays)))
    outputs, new_aux = graph(dict(zip(names, arrays)), _train, _key)
    aux = set(graph.aux_names)
    return tuple(outputs) + tuple(new_aux[n] for n in names if n in aux)
