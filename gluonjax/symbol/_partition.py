"""Graph partitioning as MXNet's subgraph API does it: the operators a backend names are grouped
into ``_CachedOp`` nodes, each running its part of the graph as one subgraph.

MXNet 1.9 ships two such backends for testing and for custom passes, ``default`` and
``default_v2``, whose operator names are set through its C API
(``MXSetSubgraphPropertyOpNames[V2]``, ``MXRemoveSubgraphPropertyOpNames[V2]``,
``MXBuildSubgraphByOpNames``, installed on ``mx.base._LIB`` here). A partitioned symbol
computes what the original computes: ``Symbol.optimize_for(backend)``, binding under the
``MXNET_SUBGRAPH_BACKEND`` environment variable and ``HybridBlock.hybridize(backend=...)`` use it.
XLA compiles the whole graph either way, so partitioning changes the graph's form, not its speed.
MXNet's oneDNN backends (``MKLDNN``, ``MKLDNN_QUANTIZE``, ``ONEDNN``) fuse operators for its
CPU kernels: here they leave the graph as it is, since XLA fuses it anyway; others are refused.

A group is grown from each chosen operator over its chosen neighbours, keeping it convex: no
path may leave the group and come back into it, or the contracted graph would have a cycle.
"""
import os

from .. import base
from ..base import MXNetError
from ..ops import find_op
from .symbol import Symbol, _Node, create

__all__ = ['BACKENDS', 'partition', 'partition_for', 'from_environment']

BACKENDS = ('default', 'default_v2')
FUSING_BACKENDS = ('MKLDNN', 'MKLDNN_QUANTIZE', 'ONEDNN')  # XLA's own fusion stands in for them
# backend -> operator names, per API version: the V1 set serves MXNET_SUBGRAPH_BACKEND at bind
# time, the V2 set optimize_for and hybridize(backend=), as in MXNet.
_OP_NAMES = {1: {}, 2: {}}


def partition(symbol, op_names):
    """``symbol`` with each convex connected group of the operators named in ``op_names``
    (names or aliases) replaced by one ``_CachedOp`` node; inputs, arguments, auxiliary states
    and outputs unchanged."""
    chosen_ops = {id(op) for op in map(find_op, op_names) if op is not None}
    order = symbol._topo()
    chosen = [n for n in order if n.op is not None and id(n.op) in chosen_ops and not n.subgraphs]
    if not chosen:
        return symbol
    users = _users(order)
    group_of = {}
    for node in chosen:
        if id(node) not in group_of:
            group = _grow(node, chosen_ops, users, group_of)
            for member in group:
                group_of[id(member)] = group
    return _contract(symbol, order, group_of)


def partition_for(symbol, backend, version=2):
    """``symbol`` partitioned by ``backend``'s operator names (set through ``mx.base._LIB``)."""
    if backend in FUSING_BACKENDS:
        return symbol
    if backend not in BACKENDS:
        raise MXNetError('optimize_for: backend %r is not registered; gluonjax has the subgraph '
                         'backends %s and takes %s as no-ops (XLA compiles and fuses the whole graph)'
                         % (backend, ', '.join(BACKENDS), ', '.join(FUSING_BACKENDS)))
    return partition(symbol, _OP_NAMES[version].get(backend, ()))


def from_environment(symbol):
    """``symbol`` partitioned by the backend ``MXNET_SUBGRAPH_BACKEND`` names, as MXNet binds."""
    backend = os.environ.get('MXNET_SUBGRAPH_BACKEND', '')
    names = _OP_NAMES[1].get(backend)
    return partition(symbol, names) if names else symbol


def _users(order):
    found = {id(n): [] for n in order}
    for node in order:
        for src, _i, _v in node.inputs:
            found[id(src)].append(node)
    return found


def _grow(seed, chosen_ops, users, group_of):
    """The largest convex group reachable from ``seed`` over chosen, ungrouped neighbours."""
    members, frontier = {id(seed): seed}, [seed]
    while frontier:
        node = frontier.pop()
        for nb in [src for src, _i, _v in node.inputs] + users[id(node)]:
            if (id(nb) in members or id(nb) in group_of or nb.op is None or nb.subgraphs
                    or id(nb.op) not in chosen_ops):
                continue
            members[id(nb)] = nb
            if _convex(members, users):
                frontier.append(nb)
            else:
                del members[id(nb)]
    return list(members.values())


def _convex(members, users):
    """Whether no path leaves the group ``members`` ({id: node}) and enters it again."""
    below = _outside_reach(members, users, downstream=True)
    if not below:
        return True
    return not (below & _outside_reach(members, users, downstream=False))


def _outside_reach(members, users, downstream):
    """Ids of the outside nodes reachable from the group, moving only through outside nodes."""
    stack = [m for node in members.values() for m in _steps(node, users, downstream) if id(m) not in members]
    seen = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(m for m in _steps(node, users, downstream) if id(m) not in members)
    return seen


def _steps(node, users, downstream):
    return users[id(node)] if downstream else [src for src, _i, _v in node.inputs]


def _contract(symbol, order, group_of):
    """The symbol with every group replaced by its ``_CachedOp`` node."""
    built, groups = {}, 0  # built: (id(old node), index) -> (new node, index)
    for unit in _unit_order(order, group_of):
        if isinstance(unit, list):
            _build_group(unit, groups, built, order, symbol._outputs)
            groups += 1
        elif unit.op is None:
            built[(id(unit), 0)] = (unit, 0)
        else:
            copy = _Node(unit.op, unit.name, unit.attrs,
                         [_entry(built, src, i) for src, i, _v in unit.inputs], unit.subgraphs)
            for i in range(unit.num_outputs()):
                built[(id(unit), i)] = (copy, i)
    return Symbol([built[(id(n), i)] for n, i in symbol._outputs])


def _entry(built, node, index):
    new, i = built[(id(node), index)]
    return (new, i, new.version)


def _unit_order(order, group_of):
    """Plain nodes and groups (lists of nodes), each after everything it reads: the contracted
    graph's topological order (convex groups make it a DAG)."""
    def inputs_of(unit):
        nodes = unit if isinstance(unit, list) else [unit]
        found = []
        for node in nodes:
            for src, _i, _v in node.inputs:
                owner = group_of.get(id(src), src)
                if owner is not unit and all(owner is not f for f in found):
                    found.append(owner)
        return found
    units, seen = [], set()
    for node in order:
        unit = group_of.get(id(node), node)
        if id(unit) in seen:
            continue
        stack = [(unit, iter(inputs_of(unit)))]
        seen.add(id(unit))
        while stack:
            current, pending = stack[-1]
            nxt = next((u for u in pending if id(u) not in seen), None)
            if nxt is None:
                units.append(current)
                stack.pop()
                continue
            seen.add(id(nxt))
            stack.append((nxt, iter(inputs_of(nxt))))
    return units


def _build_group(group, number, built, order, graph_outputs):
    """One ``_CachedOp`` node for ``group``: its subgraph reads the group's outside inputs as
    variables and gives every output that is read outside the group or is a graph output."""
    members = {id(n) for n in group}
    position = {id(n): p for p, n in enumerate(order)}
    group = sorted(group, key=lambda n: position[id(n)])
    inner, sources = {}, {}  # (id(old), index) -> inner entry; outside entry -> its inner variable
    for node in group:
        inputs = []
        for src, i, _v in node.inputs:
            if id(src) in members:
                new, j = inner[(id(src), i)]
            else:
                key = (id(src), i)
                if key not in sources:
                    name = src.name if src.op is None else '%s_output%d' % (src.name, i)
                    sources[key] = (_Node(None, name, src.attrs if src.op is None else {}), (src, i))
                new, j = sources[key][0], 0
            inputs.append((new, j, new.version))
        copy = _Node(node.op, node.name, node.attrs, inputs, node.subgraphs)
        for i in range(node.num_outputs()):
            inner[(id(node), i)] = (copy, i)
    heads = _group_outputs(members, order, graph_outputs)
    sub = Symbol([inner[(id(n), i)] for n, i in heads])
    by_name = {var.name: outer for var, outer in sources.values()}
    outer_inputs = [Symbol([_entry(built, *by_name[name])[:2]]) for name in sub.list_inputs()]
    node_sym = create(find_op('_CachedOp'), outer_inputs, {'subgraph': sub.tojson()},
                      name='_CachedOp%d' % number)
    cached = node_sym._outputs[0][0]
    for k, (n, i) in enumerate(heads):
        built[(id(n), i)] = (cached, k)


def _group_outputs(members, order, graph_outputs):
    """(node, index) of the group's outputs read outside it or given by the graph, in graph order."""
    read = [(src, i) for node in order if id(node) not in members for src, i, _v in node.inputs]
    wanted = []
    for src, i in read + list(graph_outputs):
        if id(src) in members and all(src is not n or i != j for n, j in wanted):
            wanted.append((src, i))
    return wanted


# ---- MXNet's C functions of the subgraph API (``mx.base._LIB``) ------------------------------

def _text(value):
    value = getattr(value, 'value', value)
    return value.decode('utf-8') if isinstance(value, bytes) else str(value)


def _names(num, array):
    return tuple(_text(array[i]) for i in range(int(getattr(num, 'value', num))))


def _set_op_names(version):
    def set_op_names(backend, num, names):
        _OP_NAMES[version][_text(backend)] = _names(num, names)
        return 0
    return set_op_names


def _remove_op_names(version):
    def remove_op_names(backend):
        _OP_NAMES[version].pop(_text(backend), None)
        return 0
    return remove_op_names


def _build_by_op_names(handle, backend, num, names, out):
    """MXBuildSubgraphByOpNames: the partitioned symbol's handle, written through ``out``."""
    if _text(backend) not in BACKENDS:
        raise MXNetError('MXBuildSubgraphByOpNames: backend %r is not registered (gluonjax has %s)'
                         % (_text(backend), ', '.join(BACKENDS)))
    result = partition(Symbol.from_handle(handle), _names(num, names))
    target = out._obj if hasattr(out, '_obj') else out.contents  # ctypes.byref(h) or ctypes.pointer(h)
    target.value = result.handle.value
    Symbol.keep_for_handle(result)
    return 0


for _version, _suffix in ((1, ''), (2, 'V2')):
    setattr(base._LIB, 'MXSetSubgraphPropertyOpNames' + _suffix, _set_op_names(_version))
    setattr(base._LIB, 'MXRemoveSubgraphPropertyOpNames' + _suffix, _remove_op_names(_version))
base._LIB.MXBuildSubgraphByOpNames = _build_by_op_names


def _optimize_for(self, backend, args=None, aux=None, ctx=None, shape_dict=None, type_dict=None,
                  stype_dict=None, skip_infer=False, **kwargs):
    """This symbol partitioned for ``backend`` (MXNet's ``Symbol.optimize_for``). The arrays and
    shapes MXNet's backends may read are accepted; the backends here need none of them."""
    return partition_for(self, backend)


Symbol.optimize_for = _optimize_for
