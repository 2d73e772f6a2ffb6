"""How an operator is written as ONNX nodes: the protocol of ``OpDef.onnx`` and its common forms.

An operator's table entry may carry ``onnx=convert``, a function ``convert(g, node)`` that
``mx.onnx.export_model`` calls once per graph node of that operator. It lives beside the
kernel because it is a fact about the operator, like its parameters or its plot label. It
never imports the ``onnx`` package: it describes nodes through ``g`` and the exporter
(``gluonjax/onnx``) turns them into protobuf.

``node`` (an exporter's view of the graph node):
    ``name``         the MXNet node name (ONNX node names derive from it)
    ``attrs``        the parsed parameters (``attrs['kernel'] == (3, 3)``)
    ``inputs``       the ONNX value names of the node's array inputs, in ``OpDef.inputs`` order
    ``in_shapes``, ``in_dtypes``, ``out_shapes``, ``out_dtypes``
                     static shapes (tuples) and dtype names, from shape inference on the
                     exported input shapes
``g`` (the ONNX graph being written):
    ``g.add(op_type, inputs, n_out=1, **attrs)`` appends a node, returns its output name (a
                     list when ``n_out`` > 1); '' in ``inputs`` is an omitted optional input
    ``g.const(value, dtype)`` a constant tensor (an initializer), returns its name
    ``g.unsupported(node, why)`` the MXNetError to raise for a case with no ONNX form

``convert`` returns the ONNX value name of each visible output (a name, or a list of names).
Returning an input's name writes no node (Dropout in inference is its input).
"""
import numpy as np

__all__ = ['same', 'scalar', 'ints', 'axes_const', 'reshape_to', 'reduce', 'cast', 'stack', 'tensor_type', 'INT64']

INT64 = 'int64'

# ONNX's TensorProto.DataType numbers (fixed by the ONNX specification), for Cast's ``to``.
_TENSOR_TYPES = {'float32': 1, 'uint8': 2, 'int8': 3, 'uint16': 4, 'int16': 5, 'int32': 6, 'int64': 7,
                 'bool': 9, 'float16': 10, 'float64': 11, 'uint32': 12, 'uint64': 13, 'bfloat16': 16}


def tensor_type(dtype):
    """ONNX's number for a dtype name ('float32' -> 1)."""
    return _TENSOR_TYPES[np.dtype(dtype).name if dtype != 'bfloat16' else dtype]


def same(op_type, **attrs):
    """The operator is one ONNX node ``op_type`` on the same inputs (Relu, Add, ...). Without
    ``attrs`` the converse holds too, and the ONNX import reads it off the table
    (``onnx_op_type``, gluonjax/onnx/_import.py)."""
    def convert(g, node):
        return g.add(op_type, node.inputs, **attrs)
    convert.__name__ = 'onnx_' + op_type
    if not attrs:
        convert.onnx_op_type = op_type
    return convert


def scalar(op_type, reverse=False):
    """``x op scalar`` (``scalar op x`` with ``reverse``): the scalar a constant in x's dtype."""
    def convert(g, node):
        value = g.const(np.asarray(node.attrs['scalar']), node.in_dtypes[0])
        x = node.inputs[0]
        return g.add(op_type, [value, x] if reverse else [x, value])
    convert.__name__ = 'onnx_scalar_' + op_type
    return convert


def ints(g, values):
    """A 1-D int64 constant (shapes, axes, Slice bounds, Gather indices)."""
    return g.const(np.asarray(values, dtype=np.int64), INT64)


def axes_const(g, axes):
    """A 1-D int64 tensor of axes (opset 13 takes Unsqueeze/Squeeze/ReduceSum axes as inputs)."""
    return ints(g, axes)


def reduce(g, op_type, x, axes, keepdims):
    """ReduceX over ``axes``: opset 13 takes ReduceSum's axes as an input, the others' as an attribute."""
    if op_type == 'ReduceSum':
        return g.add(op_type, [x, axes_const(g, axes)], keepdims=int(keepdims))
    return g.add(op_type, [x], axes=list(axes), keepdims=int(keepdims))


def cast(g, x, dtype, to):
    """x (of ``dtype``) as ``to``; no node when they are the same."""
    return x if np.dtype(dtype) == np.dtype(to) else g.add('Cast', [x], to=tensor_type(to))


def stack(g, inputs, axis):
    """The inputs joined along a new axis ``axis`` (non-negative)."""
    axes = axes_const(g, [axis])
    return g.add('Concat', [g.add('Unsqueeze', [x, axes]) for x in inputs], axis=axis)


def reshape_to(g, x, shape):
    """x reshaped to a static ``shape``."""
    return g.add('Reshape', [x, ints(g, shape)])
