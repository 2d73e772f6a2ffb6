"""Symbol graph -> ONNX model: walks the graph once and asks each operator's table entry
(``OpDef.onnx``, see ``gluonjax/ops/_onnx.py``) for its nodes.

Static shapes and dtypes of every entry come from gluonjax's own shape inference on the given
input shapes, so a converter can read them (MXNet's Reshape codes -2/-3/-4, ``slice`` with None
bounds). Parameters become initializers; the remaining variables are the graph inputs, in graph
order (the order of ``in_shapes``).
"""
import numpy as np

from .._files import atomic_open
from .._x64 import x64
from ..base import MXNetError
from ..symbol import Symbol
from ..symbol import _infer

__all__ = ['OPSET', 'export_model', 'get_operator_support', 'to_model']

# The opset the converters are written for (MXNet 1.9.1's converters cover opsets 12 and 13).
OPSET = 13
# The IR version that goes with opset 13: readable by every runtime that reads opset 13.
IR_VERSION = 7
GRAPH_NAME = 'mxnet_converted_model'  # the name MXNet 1.9.1 gives the graph


def _onnx(api='mx.onnx.export_model'):
    """The ``onnx`` package, or an ImportError that says ``api`` needs it and how to get it."""
    try:
        import onnx
    except ImportError as err:
        raise ImportError('%s needs the onnx package (pip install onnx, or '
                          "pip install 'gluonjax[onnx]' for onnx and onnxruntime)" % api) from err
    return onnx


class _NodeView:
    """What a converter sees of one graph node (the attributes ops/_onnx.py lists)."""

    def __init__(self, node, inputs, in_avals, out_avals):
        self.name = node.name
        self.op = node.op
        self.attrs = node.parsed()
        self.inputs = inputs
        self.in_shapes = tuple(s for s, _ in in_avals)
        self.in_dtypes = tuple(d for _, d in in_avals)
        self.out_shapes = tuple(s for s, _ in out_avals)
        self.out_dtypes = tuple(d for _, d in out_avals)


class OnnxGraph:
    """The nodes and initializers of the graph being written, kept as plain Python values
    until ``to_model`` builds the protobuf (so converters never touch the onnx package)."""

    def __init__(self):
        self.nodes = []          # [op_type, inputs, outputs, name, attrs]
        self.initializers = {}   # name -> numpy array
        self._taken = set()
        self._hint = 'node'  # the MXNet node being converted: new values are named after it

    def begin(self, node_name):
        """Start the nodes of MXNet node ``node_name``; returns the index of its first ONNX node."""
        self._hint = node_name
        return len(self.nodes)

    def fresh(self, hint):
        """A value name not used yet, ``hint`` itself when free."""
        name, k = hint, 0
        while name in self._taken:
            k += 1
            name = '%s_%d' % (hint, k)
        self._taken.add(name)
        return name

    def add(self, op_type, inputs, n_out=1, **attrs):
        outputs = [self.fresh('%s_%s' % (self._hint, op_type.lower())) for _ in range(n_out)]
        name = self.fresh('%s_%s_node' % (self._hint, op_type.lower()))
        self.nodes.append([op_type, list(inputs), outputs, name, attrs])
        return outputs[0] if n_out == 1 else outputs

    def const(self, value, dtype):
        name = self.fresh('%s_const' % self._hint)
        self.initializers[name] = np.asarray(value, dtype=dtype)
        return name

    def unsupported(self, node, why):
        return MXNetError('export_model: operator %s (node %s) cannot be written as ONNX: %s'
                          % (node.op.name, node.name, why))

    def name_output(self, value, name, since):
        """Call ``value`` ``name`` when a node appended since index ``since`` made it and the name is
        free (a converter's result takes the MXNet node's name); returns the value's name."""
        made_here = any(value in entry[2] for entry in self.nodes[since:])
        if not made_here or name in self._taken:
            return value
        for entry in self.nodes[since:]:
            entry[1] = [name if v == value else v for v in entry[1]]
            entry[2] = [name if v == value else v for v in entry[2]]
        self._taken.add(name)
        return name


def _strip_prefix(name):
    """Parameter names from a .params file carry MXNet's 'arg:' / 'aux:' prefixes."""
    return name.split(':', 1)[1] if name.startswith(('arg:', 'aux:')) else name


def _as_numpy(value):
    return value.asnumpy() if hasattr(value, 'asnumpy') else np.asarray(value)


def _load(sym, params):
    """(Symbol, {name: numpy array}) from objects or file paths, as MXNet accepts them."""
    from ..ndarray import load as nd_load
    from ..symbol import load as sym_load
    if isinstance(sym, str):
        sym = sym_load(sym)
    if isinstance(params, str):
        params = nd_load(params)
    if isinstance(params, (list, tuple)) and len(params) == 2 and all(isinstance(p, dict) for p in params):
        params = {**params[0], **params[1]}  # (arg_params, aux_params)
    if not isinstance(sym, Symbol) or not isinstance(params, dict):
        raise ValueError('export_model: sym must be a Symbol or a path to a -symbol.json file and params '
                         'a dict, an (arg_params, aux_params) pair or a path to a .params file; got %s and %s'
                         % (type(sym).__name__, type(params).__name__))
    return sym, {_strip_prefix(k): _as_numpy(v) for k, v in params.items()}


def _output_label(sym):
    """The label variable a training graph ends with (``softmax_label`` of SoftmaxOutput 'softmax'):
    as in MXNet it is no graph input (the loss operators' ONNX forms do not read it)."""
    return sym._topo()[-1].name + '_label'


def _input_specs(sym, params, in_shapes, in_types):
    """[(name, shape, dtype name)] of the graph inputs: the variables without a parameter, the
    output label aside. Without ``in_shapes`` the variables' own shapes serve, and their dtypes
    where they have one (a traced HybridBlock's variables have both)."""
    label = _output_label(sym)
    variables, seen = [], {label}
    for n in sym._topo():  # variables of one name are one input
        if n.is_variable and n.name not in params and n.name not in seen:
            seen.add(n.name)
            variables.append(n)
    names = [n.name for n in variables]
    if in_shapes is None:
        in_shapes = [_infer.var_shape(n) for n in variables]
        if any(s is None for s in in_shapes):
            raise ValueError('export_model: in_shapes is required: one shape for each of the inputs %s' % names)
        if not isinstance(in_types, (list, tuple)):
            in_types = [_infer.var_dtype(n) or in_types for n in variables]
    in_shapes = [tuple(int(d) for d in s) for s in in_shapes]
    if not isinstance(in_types, (list, tuple)):
        in_types = [in_types] * len(in_shapes)
    if len(in_types) != len(in_shapes):
        raise ValueError('export_model: %d in_types for %d in_shapes' % (len(in_types), len(in_shapes)))
    if len(in_shapes) != len(names):
        raise ValueError('export_model: %d in_shapes given for the %d graph inputs %s (variables '
                         'without a value in params)' % (len(in_shapes), len(names), names))
    return [(n, s, np.dtype(t).name) for n, s, t in zip(names, in_shapes, in_types)]


def _output_names(sym):
    """MXNet's names for the graph outputs: the node's name (its list_outputs name when the node
    shows several outputs)."""
    names = []
    for node, index in sym._outputs:
        one = node.is_variable or node.num_visible_outputs() == 1
        names.append(node.name if one else node.output_name(index))
    return names


@x64
def to_graph(sym, params, inputs, verbose=False):
    """Convert: (OnnxGraph, {entry key: ONNX value name}, entry avals) for a loaded symbol."""
    shapes = {n: s for n, s, _ in inputs}
    dtypes = {n: d for n, _, d in inputs}
    for name, value in params.items():
        shapes[name], dtypes[name] = value.shape, value.dtype.name
    order, ent_shape, ent_dtype = _infer.entry_avals(sym, shapes, dtypes)
    g = OnnxGraph()
    values, variables = {}, {}
    for node in order:
        key = (id(node), 0)
        if node.is_variable:  # variables of one name are one input (one parameter)
            if node.name not in variables:
                variables[node.name] = g.fresh(node.name)
                if node.name in params:
                    g.initializers[node.name] = params[node.name]
            values[key] = variables[node.name]
            continue
        _convert_node(g, node, values, ent_shape, ent_dtype, verbose)
    return g, values, ent_shape, ent_dtype


def _convert_node(g, node, values, ent_shape, ent_dtype, verbose):
    op = node.op
    if op.onnx is None:
        raise MXNetError('export_model: operator %s (node %s) has no ONNX conversion; supported '
                         'operators: mx.onnx.get_operator_support()' % (op.name, node.name))
    in_keys = [(id(n), i) for n, i, _v in node.inputs]
    n_out = node.num_visible_outputs()
    out_keys = [(id(node), i) for i in range(n_out)]
    avals = [(ent_shape.get(k), ent_dtype.get(k)) for k in in_keys + out_keys]
    if any(s is None or None in s for s, _ in avals):
        raise MXNetError('export_model: the shapes around node %s (%s) are unknown; give in_shapes that '
                         'determine every shape' % (node.name, op.name))
    view = _NodeView(node, [values[k] for k in in_keys], avals[:len(in_keys)], avals[len(in_keys):])
    start = g.begin(node.name)
    produced = op.onnx(g, view)
    produced = [produced] if isinstance(produced, str) else list(produced)
    if len(produced) != n_out:
        raise MXNetError('export_model: the ONNX form of %s gave %d outputs for the %d of node %s'
                         % (op.name, len(produced), n_out, node.name))
    for i, (key, value) in enumerate(zip(out_keys, produced)):
        values[key] = g.name_output(value, node.name if i == 0 else '%s_output%d' % (node.name, i), start)
    if verbose:
        print('%s (%s) -> %s' % (node.name, op.name, ', '.join(e[0] for e in g.nodes[start:]) or 'no node'))


def _value_info(onnx, name, dtype, shape):
    return onnx.helper.make_tensor_value_info(
        name, onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype)), shape)


def to_model(sym, params, inputs, verbose=False, dynamic=False, dynamic_input_shapes=None):
    """The ONNX ModelProto of a loaded symbol for ``inputs`` [(name, shape, dtype)]."""
    onnx = _onnx()
    g, values, ent_shape, ent_dtype = to_graph(sym, params, inputs, verbose)
    nodes = [onnx.helper.make_node(op_type, ins, outs, name=name, **attrs)
             for op_type, ins, outs, name, attrs in g.nodes]
    outputs, written = [], set()
    for (node, index), name in zip(sym._outputs, _output_names(sym)):
        key = (id(node), index)
        if node.is_variable or values[key] != name or name in written:
            # a graph input or parameter, or an output listed twice: a copy under a name of its own
            name = g.fresh(name)
            nodes.append(onnx.helper.make_node('Identity', [values[key]], [name], name=name + '_identity'))
        written.add(name)
        shape = None if dynamic else ent_shape[key]
        outputs.append(_value_info(onnx, name, ent_dtype[key], shape))
    graph_inputs = []
    for i, (name, shape, dtype) in enumerate(inputs):
        if dynamic:
            given = dynamic_input_shapes[i] if dynamic_input_shapes is not None else [None] * len(shape)
            shape = [None if d is None else int(d) for d in given]
        graph_inputs.append(_value_info(onnx, name, dtype, shape))
    used = {v for entry in nodes for v in entry.input}
    # parameters no node reads (BatchNorm's gamma under fix_gamma) are left out
    initializers = [onnx.numpy_helper.from_array(np.ascontiguousarray(v), k)
                    for k, v in g.initializers.items() if k in used]
    graph = onnx.helper.make_graph(nodes, GRAPH_NAME, graph_inputs, outputs, initializers)
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid('', OPSET)],
                                   producer_name='gluonjax')
    model.ir_version = IR_VERSION
    return model


def export_model(sym, params, in_shapes=None, in_types=np.float32, onnx_file_path='model.onnx', verbose=False,
                 dynamic=False, dynamic_input_shapes=None, run_shape_inference=False, input_type=None,
                 input_shape=None):
    """Write the ONNX model of a symbol and its parameters to ``onnx_file_path``; returns the path.

    ``sym``: a Symbol or the path of a ``-symbol.json`` file, or a hybridized HybridBlock that has
    run once (``params`` is then ignored and may be None). ``params``: {name: NDArray} (arg and aux
    parameters, 'arg:'/'aux:' prefixes allowed), an (arg_params, aux_params) pair, or the path of a
    ``.params`` file. ``in_shapes`` / ``in_types``: shape and dtype of each graph input (the
    variables without a parameter, in graph order); ``input_shape`` / ``input_type`` are their
    older names. ``dynamic``: declare the input dimensions unknown (``dynamic_input_shapes``
    gives each input's shape with None where it varies). ``run_shape_inference``: annotate the
    intermediate values with ONNX's shape inference. The model uses opset ``OPSET`` (13).
    """
    onnx = _onnx()
    if input_type is not None:
        in_types = input_type
    if input_shape is not None:
        in_shapes = input_shape
    sym, params = _block_graph(sym, params)
    sym, params = _load(sym, params)
    inputs = _input_specs(sym, params, in_shapes, in_types)
    model = to_model(sym, params, inputs, verbose, dynamic, dynamic_input_shapes)
    if run_shape_inference:
        model = onnx.shape_inference.infer_shapes(model)
    with atomic_open(onnx_file_path, 'wb') as f:
        f.write(model.SerializeToString())
    return onnx_file_path


def _block_graph(block, params):
    """A hybridized HybridBlock's traced symbol and its parameter values; anything else as given."""
    from ..gluon.block import HybridBlock
    if not isinstance(block, HybridBlock):
        return block, params
    graph = getattr(block, '_cached_graph', ())
    if not graph:
        raise ValueError('export_model: call hybridize() on the block and run it once before exporting it '
                         '(as for HybridBlock.export)')
    _inputs, out = graph
    values = {p.name: p.data() for p in block.collect_params().values()}
    used = set(out.list_inputs())
    return out, {k: v for k, v in values.items() if k in used}


def get_operator_support(opset_version=None):
    """Names of the operators (MXNet's names and aliases) that export_model can write; none for an
    ``opset_version`` below OPSET, since the converters write opset-13 nodes."""
    from ..ops import all_ops
    if opset_version is not None and opset_version < OPSET:
        return []
    return sorted(name for name, op in all_ops().items() if op.onnx is not None)
