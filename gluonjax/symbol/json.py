"""MXNet's symbol JSON format: writing it byte for byte as MXNet 1.9 does, and reading any version.

The format: ``nodes`` in topological order (``op`` is ``"null"`` for variables;
``attrs`` holds parameters and hidden attributes as strings and is written only
when non-empty; ``inputs`` are ``[node, output, version]`` entries),
``arg_nodes`` (indices of the variables), ``node_row_ptr`` (prefix sums of the
nodes' output counts), ``heads`` (the outputs) and
``attrs: {"mxnet_version": ["int", 10901]}``. MXNet < 1.0 files have ``param``
(parameters) and ``attr`` (other attributes) instead of ``attrs``, and
two-element entries; very old ones (< 0.9) omit auxiliary-state variables.

Layout follows MXNet's JSON writer: objects and arrays open on new lines
indented two spaces per level, items are separated by ``", "``; an array is
written on one line when it has at most 10 plain items (numbers, entries), a
map when it has at most one key.
"""
import json as _std_json

from .._files import atomic_write
from ..base import MXNetError
from ..ops import find_op
from ._infer import np_shape_semantics
from .symbol import _UNSET, Symbol, _Node, HIDDEN_KEYS, copy_graph, topo_order

__all__ = ['dumps', 'loads', 'MXNET_VERSION']

MXNET_VERSION = 10901


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

class _Arr(list):
    """A JSON array and whether it is written over several lines."""
    multi_line = True


class _Obj(dict):
    multi_line = True


def _plain_array(items):
    a = _Arr(items)
    a.multi_line = len(items) > 10
    return a


def _inline(items):
    a = _Arr(items)
    a.multi_line = False
    return a


def _map(d):
    o = _Obj(sorted(d.items()))
    o.multi_line = len(d) > 1
    return o


def _escape(s):
    out = ['"']
    for ch in s:
        out.append({'\r': '\\r', '\n': '\\n', '\\': '\\\\', '\t': '\\t', '"': '\\"'}.get(ch, ch))
    out.append('"')
    return ''.join(out)


class _Writer:
    """Mirrors the scope rules of MXNet's (dmlc's) JSON writer."""

    def __init__(self):
        self.parts = []
        self.scopes = []  # [multi_line, count]

    def sep(self):
        if not self.scopes or self.scopes[-1][0]:
            self.parts.append('\n' + ' ' * (2 * len(self.scopes)))

    def value(self, v):
        if isinstance(v, _Obj):
            self.parts.append('{')
            self.scopes.append([v.multi_line, 0])
            for key, item in v.items():
                if self.scopes[-1][1]:
                    self.parts.append(', ')
                self.sep()
                self.parts.append(_escape(key) + ': ')
                self.scopes[-1][1] += 1
                self.value(item)
            self.close('}')
        elif isinstance(v, _Arr):
            self.parts.append('[')
            self.scopes.append([v.multi_line, 0])
            for item in v:
                if self.scopes[-1][1]:
                    self.parts.append(', ')
                self.scopes[-1][1] += 1
                self.sep()
                self.value(item)
            self.close(']')
        elif isinstance(v, str):
            self.parts.append(_escape(v))
        elif isinstance(v, bool) or v is None:
            raise TypeError('unexpected JSON value %r' % (v,))
        else:
            self.parts.append(str(int(v)))

    def close(self, bracket):
        multi, count = self.scopes.pop()
        if multi and count:
            self.sep()
        self.parts.append(bracket)


def _row_count(node):
    n = node.num_outputs()
    if node.op is not None:
        rule = node.op.mxnet_outputs
        if rule is not None:
            n = max(n, rule(node.attrs) if callable(rule) else rule)
    return n


def graph_dict(symbol, top_level=True):
    """The JSON structure of ``symbol`` (nodes in MXNet's DFS order); a control-flow node's
    subgraphs are nested in it as MXNet writes them (``subgraphs``, without ``attrs``)."""
    order = topo_order([n for n, _ in symbol._outputs])
    index = {id(n): i for i, n in enumerate(order)}
    nodes, arg_nodes, row_ptr = _Arr(), [], [0]
    for i, node in enumerate(order):
        item = _Obj()
        item['op'] = node.op_name
        item['name'] = node.name
        if node.attrs:
            item['attrs'] = _map(node.attrs)
        item['inputs'] = _plain_array([_inline([index[id(n)], j, v]) for n, j, v in node.inputs])
        if node.subgraphs:
            item['subgraphs'] = _Arr(graph_dict(g, top_level=False) for g in node.subgraphs)
        nodes.append(item)
        if node.is_variable:
            arg_nodes.append(i)
        row_ptr.append(row_ptr[-1] + _row_count(node))
    top = _Obj()
    top['nodes'] = nodes
    top['arg_nodes'] = _plain_array(arg_nodes)
    top['node_row_ptr'] = _plain_array(row_ptr)
    top['heads'] = _plain_array([_inline([index[id(n)], j, n.version if n.is_variable else 0])
                                 for n, j in symbol._outputs])
    if top_level:
        attrs = {'mxnet_version': _inline(['int', MXNET_VERSION])}
        if np_shape_semantics():  # tells readers that 0 is a zero-size dimension, not an unknown one
            attrs['is_np_shape'] = _inline(['int', 1])
        top['attrs'] = _map(attrs)
    return top


def dumps(symbol):
    w = _Writer()
    w.value(graph_dict(symbol))
    return ''.join(w.parts)


# ---------------------------------------------------------------------------------------------
# Reading, validated: every problem is an MXNetError naming the node; nothing is built
# until the whole graph has been checked.
# ---------------------------------------------------------------------------------------------

def _fail(source, msg):
    where = ' (%s)' % source if source else ''
    return MXNetError('symbol JSON%s: %s' % (where, msg))


def _node_label(i, raw):
    name = raw.get('name') if isinstance(raw, dict) else None
    return 'node %d%s' % (i, ' (%r)' % name if name is not None else '')


def _attrs_of(raw, i, source, old_format):
    """A node's attributes: 1.x ``attrs``, or 0.x ``param`` plus ``attr`` with hidden keys renamed."""
    attrs = {}
    for key in ('param', 'attr', 'attrs'):
        part = raw.get(key)
        if part is None:
            continue
        if not isinstance(part, dict) or not all(isinstance(v, str) for v in part.values()):
            raise _fail(source, '%s: "%s" must map names to strings' % (_node_label(i, raw), key))
        for k, v in part.items():
            if old_format and k in HIDDEN_KEYS:
                k = '__%s__' % k
            attrs[k] = v
    return attrs


def _is_entry(e):
    """Whether ``e`` is a [node, output] or [node, output, version] entry of integers."""
    return (isinstance(e, list) and len(e) in (2, 3)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in e))


def _entry(raw_entry, i, raw, source, n_nodes):
    if not _is_entry(raw_entry):
        raise _fail(source, '%s: input entry %r must be [node, output, version]' % (_node_label(i, raw), raw_entry))
    src, index = raw_entry[0], raw_entry[1]
    version = raw_entry[2] if len(raw_entry) == 3 else 0
    if src < 0 or src >= n_nodes:
        raise _fail(source, '%s: input refers to node %d, which does not exist' % (_node_label(i, raw), src))
    if src >= i:
        raise _fail(source, '%s: input refers to node %d, which does not come before it: the graph has a cycle '
                            'or is not in topological order' % (_node_label(i, raw), src))
    return src, index, version


def loads(text, source=None):
    """A Symbol from MXNet's symbol JSON text (validated first)."""
    if not isinstance(text, str):
        raise TypeError('fromjson expects a string, got %s' % type(text).__name__)
    try:
        data = _std_json.loads(text)
    except ValueError as err:
        raise _fail(source, 'not valid JSON: %s' % err) from None
    if not isinstance(data, dict) or 'nodes' not in data or 'heads' not in data:
        raise _fail(source, 'not a symbol graph: expected an object with "nodes" and "heads"')
    legacy_shapes = not _file_np_shape(data) and np_shape_semantics()
    return Symbol(_graph_outputs(data, source, _version(data) < 10000, legacy_shapes))


def _file_np_shape(data):
    """Whether the file was written under np_shape semantics (its attrs say is_np_shape)."""
    attrs = data.get('attrs')
    flag = attrs.get('is_np_shape') if isinstance(attrs, dict) else None
    return isinstance(flag, list) and len(flag) == 2 and str(flag[1]) not in ('0', 'False')


def _np_shape_attr(text):
    """A legacy ``__shape__`` (0: unknown dimension) in np_shape's spelling (-1), as MXNet converts it."""
    try:
        dims = [int(d) for d in text.strip('()[] ').replace(' ', '').split(',') if d]
    except ValueError:
        return text
    return '[%s]' % ','.join(str(-1 if d == 0 else d) for d in dims)


def _graph_outputs(data, source, old_format, legacy_shapes=False):
    """The heads of the graph described by ``data`` (the top level or a node's subgraph)."""
    if not isinstance(data, dict) or 'nodes' not in data or 'heads' not in data:
        raise _fail(source, 'a subgraph must be an object with "nodes" and "heads"')
    raw_nodes, heads = data['nodes'], data['heads']
    if not isinstance(raw_nodes, list) or not raw_nodes:
        raise _fail(source, '"nodes" must be a non-empty list')
    nodes = []
    for i, raw in enumerate(raw_nodes):
        nodes.append(_read_node(raw, i, nodes, source, old_format, len(raw_nodes)))
    if not isinstance(heads, list) or not heads:
        raise _fail(source, '"heads" must be a non-empty list of [node, output, version]')
    outputs = []
    for h in heads:
        if not _is_entry(h):
            raise _fail(source, 'head %r must be [node, output, version]' % (h,))
        if not 0 <= h[0] < len(nodes):
            raise _fail(source, 'head %r refers to node %d, which does not exist' % (h, h[0]))
        node = nodes[h[0]]
        if not 0 <= h[1] < node.num_visible_outputs():
            raise _fail(source, 'head %r: node %d (%r) has %d outputs' % (h, h[0], node.name,
                                                                        node.num_visible_outputs()))
        outputs.append((node, h[1]))
    arg_nodes = data.get('arg_nodes')
    if arg_nodes is not None:
        if not isinstance(arg_nodes, list) or any(not isinstance(a, int) or not 0 <= a < len(nodes)
                                                  or not nodes[a].is_variable for a in arg_nodes):
            raise _fail(source, '"arg_nodes" must list the indices of variable nodes')
    if legacy_shapes:  # a file from before np_shape read under np_shape: its 0 dims are unknown ones
        for node in nodes:
            if node.is_variable and '__shape__' in node.attrs:
                node.attrs['__shape__'] = _np_shape_attr(node.attrs['__shape__'])
    for node in nodes:  # shapes known from __shape__ attributes, computed inputs first
        try:
            node.avals()
        except MXNetError:
            node._avals = None  # inconsistent declared shapes surface when the graph runs
    return outputs


def _version(data):
    attrs = data.get('attrs')
    if isinstance(attrs, dict):
        v = attrs.get('mxnet_version')
        if isinstance(v, list) and len(v) == 2 and isinstance(v[1], int):
            return v[1]
    return 0


def _read_node(raw, i, built, source, old_format, n_nodes):
    if not isinstance(raw, dict):
        raise _fail(source, 'node %d must be an object, got %s' % (i, type(raw).__name__))
    for field in ('op', 'name'):
        if not isinstance(raw.get(field), str):
            raise _fail(source, '%s: missing or invalid field "%s"' % (_node_label(i, raw), field))
    raw_inputs = raw.get('inputs', [])
    if not isinstance(raw_inputs, list):
        raise _fail(source, '%s: "inputs" must be a list' % _node_label(i, raw))
    attrs = _attrs_of(raw, i, source, old_format)
    op_name = raw['op']
    if op_name == 'null':
        if raw_inputs:
            raise _fail(source, '%s: a variable cannot have inputs' % _node_label(i, raw))
        return _Node(None, raw['name'], attrs)
    op = find_op(op_name)
    if op is None:
        raise _fail(source, '%s: unknown operator %r: gluonjax has no operator by that name'
                    % (_node_label(i, raw), op_name))
    entries = [_entry(e, i, raw, source, n_nodes) for e in raw_inputs]
    if op.variadic and op.num_args_param in op._param_map and op.num_args_param not in attrs:
        attrs[op.num_args_param] = str(len(entries))
    if op.params and not op.open_params:  # MXNet's parser rejects unknown names (hidden __x__ aside)
        for key in attrs:
            if key not in op._param_map and not (key.startswith('__') and key.endswith('__')):
                raise _fail(source, '%s: %s: unknown parameter %r; it takes %s'
                            % (_node_label(i, raw), op_name, key, ', '.join(sorted(op._param_map))))
    raw_subgraphs = raw.get('subgraphs', [])
    if not isinstance(raw_subgraphs, list):
        raise _fail(source, '%s: "subgraphs" must be a list' % _node_label(i, raw))
    subgraphs = [Symbol(_graph_outputs(g, source, old_format)) for g in raw_subgraphs]
    node = _Node(op, raw['name'], attrs, subgraphs=subgraphs)
    try:
        node.parsed()
        names = op.input_names(node._parsed, len(entries))
    except MXNetError as err:
        raise _fail(source, '%s: %s' % (_node_label(i, raw), err)) from None
    inputs = []
    for (src, index, version) in entries:
        src_node = built[src]
        if not 0 <= index < src_node.num_outputs():
            raise _fail(source, '%s: input refers to output %d of node %d (%r), which has %d outputs'
                        % (_node_label(i, raw), index, src, src_node.name, src_node.num_outputs()))
        inputs.append((src_node, index, version))
    if len(inputs) < len(names):
        # MXNet < 0.9 left auxiliary states out of the file; they are variables named <node>_<aux>.
        missing = names[len(inputs):]
        if all(n in op.aux_names(node._parsed) for n in missing):
            for n in missing:
                inputs.append((_Node(None, '%s_%s' % (raw['name'], n), {}), 0, 1))
        else:
            raise _fail(source, '%s: operator %s takes inputs %s but the file gives %d'
                        % (_node_label(i, raw), op_name, ', '.join(names), len(inputs)))
    elif len(inputs) > len(names):
        raise _fail(source, '%s: operator %s takes %d inputs (%s) but the file gives %d'
                    % (_node_label(i, raw), op_name, len(names), ', '.join(names), len(inputs)))
    node.inputs = inputs
    return node


# ---------------------------------------------------------------------------------------------
# Symbol's file methods and the loading functions (Symbol is below this module: installed here)
# ---------------------------------------------------------------------------------------------

_AMP_CASTS = ('amp_cast', 'amp_multicast')


def without_amp_casts(sym):
    """``sym`` with the casts mx.contrib.amp inserted bypassed, as MXNet saves a converted
    model by default (``remove_amp_cast=True``): the file holds the float32 network."""
    nodes = topo_order([n for n, _ in sym._outputs])
    if not any(n.op is not None and n.op.name in _AMP_CASTS for n in nodes):
        return sym
    outputs = copy_graph(sym._outputs)

    def source(node, index, version):
        while node.op is not None and node.op.name in _AMP_CASTS:  # amp_multicast: output k is input k
            node, index, version = node.inputs[0 if node.op.name == 'amp_cast' else index]
        return node, index, version
    for node in topo_order([n for n, _ in outputs]):
        node.inputs = [source(*entry) for entry in node.inputs]
        node._avals = _UNSET  # dtypes change without the casts
    return Symbol([source(node, index, 0)[:2] for node, index in outputs])


def _tojson(self, remove_amp_cast=True):
    """The graph in MXNet's symbol JSON format (byte for byte as MXNet 1.9 writes it)."""
    return dumps(without_amp_casts(self) if remove_amp_cast else self)


def _save(self, fname, remove_amp_cast=True):
    """Write the graph's JSON to ``fname`` (atomically: a reader never sees half a file)."""
    if not isinstance(fname, str):
        raise TypeError('fname must be a string')
    atomic_write(fname, self.tojson() if remove_amp_cast else self.tojson(remove_amp_cast=False))


def _getstate(self):
    return {'handle': self.tojson()}


def _setstate(self, state):
    self._outputs = loads(state['handle'])._outputs


Symbol.tojson, Symbol.save = _tojson, _save
Symbol.__getstate__, Symbol.__setstate__ = _getstate, _setstate


def fromjson(json_str):
    """A Symbol from MXNet's symbol JSON text (any MXNet 0.x or 1.x version)."""
    return loads(json_str)


load_json = fromjson


def load(fname):
    """A Symbol from a ``-symbol.json`` file."""
    if not isinstance(fname, str):
        raise TypeError('fname needs to be string')
    try:
        with open(fname, 'r') as f:
            text = f.read()
    except OSError as err:
        raise MXNetError('load: cannot read symbol file %r: %s' % (fname, err)) from None
    return loads(text, source=fname)
