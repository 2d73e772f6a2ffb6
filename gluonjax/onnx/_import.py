"""ONNX model -> MXNet symbol and parameters (``mx.contrib.onnx.import_model`` and its two companions).

Each ONNX operator this reads is one entry of :data:`CONVERTERS`: a function ``convert(imp, node)``
that returns the Symbol (or Symbols) of the node's outputs, built with ``mx.sym`` operators. The
graph's inputs that have no initializer become the data variables; initializers read as tensors
become parameters under their ONNX names (a BatchNormalization's mean and variance auxiliary
states, as in MXNet); initializers and ``Constant`` outputs that give an operator a static
argument (Reshape's shape, Pad's pads, opset 13's axes) are read as numbers and are no parameters.

MXNet 1.9.1 is followed in what the imported graph is: its operators, the names of its nodes
(an ONNX node's name for most operators, an automatic name, ``convolution0``, for Conv,
ConvTranspose, pooling and Gemm, with the zero-width Pad node MXNet puts before the last two
kinds), and so the names of its outputs. Where MXNet's importer fails it is not followed (see
docs/MIGRATING.md): it reads files whose initializers are not also graph inputs (ONNX IR 4 and
later, the default of every exporter since 2019) and opset 13's inputs in place of attributes,
and it keeps an average pooling's ``count_include_pad`` and a transposed convolution's ``pads``.
"""
import numpy as np

from .. import ndarray as nd
from .. import symbol as S
from ..base import MXNetError
from ._export import _onnx
from ..ops import all_ops, get_op

__all__ = ['import_model', 'get_model_metadata', 'import_to_gluon', 'CONVERTERS']

CONVERTERS = {}
_INT64_MAX = 2 ** 63 - 1


def _converts(*op_types):
    def register(fn):
        for op_type in op_types:
            CONVERTERS[op_type] = fn
        return fn
    return register


class _Node:
    """One ONNX node as a converter reads it."""

    def __init__(self, proto, onnx):
        self.op_type = proto.op_type
        self.label = proto.name or proto.output[0]  # for messages
        self.named = {'name': proto.name} if proto.name else {}  # the name MXNet gives its node
        self.inputs = list(proto.input)
        self.outputs = list(proto.output)
        self.attrs = {}
        for a in proto.attribute:
            value = onnx.helper.get_attribute_value(a)
            self.attrs[a.name] = value.decode() if isinstance(value, bytes) else value

    def attr(self, name, default=None):
        return self.attrs.get(name, default)

    def has(self, i):
        """Whether optional input ``i`` is given."""
        return len(self.inputs) > i and self.inputs[i] != ''


class _Importer:
    def __init__(self, model, onnx):
        self.onnx = onnx
        self.opset = next((o.version for o in model.opset_import if o.domain in ('', 'ai.onnx')), 1)
        graph = model.graph
        self.consts = {t.name: onnx.numpy_helper.to_array(t) for t in graph.initializer}
        self.values = {}
        self.params = {}
        for inp in graph.input:
            if inp.name not in self.consts:
                self.values[inp.name] = S.var(inp.name)
        self.data_names = [i.name for i in graph.input if i.name not in self.consts]
        for proto in graph.node:
            self._convert(_Node(proto, onnx))
        missing = [o.name for o in graph.output if o.name not in self.values and o.name not in self.consts]
        if missing:
            raise MXNetError('import_model: the graph outputs %s are produced by no node' % missing)
        outs = [self.x_named(o.name) for o in graph.output]
        self.sym = outs[0] if len(outs) == 1 else S.Group(outs)

    def _convert(self, node):
        if node.op_type == 'Constant':
            self.consts[node.outputs[0]] = self._constant_value(node)
            return
        convert = CONVERTERS.get(node.op_type)
        if convert is None:
            raise MXNetError('import_model: ONNX operator %s (node %r) is not supported; supported: %s'
                             % (node.op_type, node.label, ', '.join(sorted(CONVERTERS) + ['Constant'])))
        outs = convert(self, node)
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        for name, out in zip(node.outputs, outs):
            if name:
                self.values[name] = out

    def _constant_value(self, node):
        if 'value' in node.attrs:
            return self.onnx.numpy_helper.to_array(node.attrs['value'])
        for key, dtype in (('value_float', np.float32), ('value_floats', np.float32),
                           ('value_int', np.int64), ('value_ints', np.int64)):
            if key in node.attrs:
                return np.asarray(node.attrs[key], dtype)
        raise MXNetError('import_model: Constant node %r: only value, value_float(s) and value_int(s) '
                         'are supported, got %s' % (node.label, sorted(node.attrs)))

    def x(self, node, i):
        """The Symbol of input ``i`` of ``node``."""
        return self.x_named(node.inputs[i])

    def x_named(self, name):
        sym = self.values.get(name)
        if sym is None:
            if name not in self.consts:
                raise MXNetError('import_model: value %r is used before any node produces it' % name)
            # an initializer (or a Constant) read as a tensor: a parameter, with its shape (which
            # shape inference may not reach backwards, as through Gemm), as MXNet makes it
            value = self.params[name] = self.consts[name]
            sym = self.values[name] = S.var(name, shape=value.shape)
        return sym

    def const(self, node, i, what):
        """The static value of input ``i`` (an initializer or a Constant's output)."""
        name = node.inputs[i]
        if name not in self.consts:
            raise MXNetError('import_model: %s node %r: its %s (input %r) must be a constant (an '
                             'initializer or a Constant node), not computed in the graph'
                             % (node.op_type, node.label, what, name))
        return self.consts[name]

    def ints_of(self, node, i, attr, what):
        """An integer list given as attribute ``attr`` (older opsets) or as constant input ``i``."""
        if attr in node.attrs:
            return [int(v) for v in node.attrs[attr]]
        if node.has(i):
            return [int(v) for v in np.ravel(self.const(node, i, what))]
        return None


def _unsupported(node, why):
    return MXNetError('import_model: %s node %r: %s' % (node.op_type, node.label, why))


# ---- activations and elementwise -----------------------------------------------------------
def _one_to_one():
    """{ONNX operator: MXNet operator} for the operators whose export form is that one ONNX node
    (``_onnx.same``): the converse of their table entries. Where several MXNet operators export
    as one ONNX operator (Add: ``broadcast_add``, ``elemwise_add``, ``_plus``), the broadcasting
    one, as ONNX broadcasts and MXNet's importer chooses."""
    pairs = {}
    for name, op in sorted(all_ops().items()):
        op_type = getattr(op.onnx, 'onnx_op_type', None)
        if op_type is None or name != op.name:  # aliases are their operator
            continue
        if name.startswith(('_np_', '_npi_', '_npx_')):  # MXNet's importer builds legacy graphs: not the
            continue  # NumPy-mode twins (ops/numpy_names.py) of the legacy operators
        if op_type not in pairs or (name.startswith('broadcast_') and not pairs[op_type].startswith('broadcast_')):
            pairs[op_type] = name
    return pairs


def _same_converter(mxnet_op):
    pairwise = get_op(mxnet_op).inputs == ('lhs', 'rhs')

    def convert(imp, node):
        inputs = [imp.x(node, i) for i in range(len(node.inputs))]
        if pairwise and len(inputs) != 2:  # ONNX's variadic Max and Min
            return _fold(node, getattr(S, mxnet_op), inputs)
        return getattr(S, mxnet_op)(*inputs, **node.named)
    convert.__name__ = 'onnx_to_' + mxnet_op
    return convert


def _register_one_to_one():
    for op_type, mxnet_op in _one_to_one().items():
        CONVERTERS.setdefault(op_type, _same_converter(mxnet_op))


@_converts('Identity')
def _identity(imp, node):
    return S.identity(imp.x(node, 0), **node.named)


def _fold(node, op, inputs):
    """``op`` applied pairwise left to right; the last node takes the ONNX node's name."""
    if len(inputs) == 1:
        return S.identity(inputs[0], **node.named)
    out = inputs[0]
    for k, x in enumerate(inputs[1:], 2):
        out = op(out, x, **(node.named if k == len(inputs) else {}))
    return out


@_converts('LeakyRelu', 'Elu', 'Selu', 'PRelu')
def _leaky(imp, node):
    x = imp.x(node, 0)
    if node.op_type == 'LeakyRelu':
        return S.LeakyReLU(x, act_type='leaky', slope=node.attr('alpha', 0.01), **node.named)
    if node.op_type == 'Elu':
        return S.LeakyReLU(x, act_type='elu', slope=node.attr('alpha', 1.0), **node.named)
    if node.op_type == 'Selu':
        return S.LeakyReLU(x, act_type='selu', **node.named)
    slope = node.inputs[1]
    if slope in imp.consts and imp.consts[slope].squeeze().ndim <= 1:
        # MXNet's gamma is one value per channel (axis 1), ONNX's slope any shape that broadcasts
        # to the data ((C, 1, 1) from most exporters): the parameter is stored as MXNet's
        imp.consts[slope] = imp.consts[slope].reshape(-1)
        return S.LeakyReLU(x, imp.x(node, 1), act_type='prelu', **node.named)
    return S.broadcast_add(S.relu(x), S.broadcast_mul(imp.x(node, 1), S.negative(S.relu(S.negative(x)))),
                           **node.named)


@_converts('Softplus')
def _softplus(imp, node):
    return S.Activation(imp.x(node, 0), act_type='softrelu', **node.named)


@_converts('HardSigmoid')
def _hard_sigmoid(imp, node):
    return S.hard_sigmoid(imp.x(node, 0), alpha=node.attr('alpha', 0.2), beta=node.attr('beta', 0.5), **node.named)


@_converts('Softmax', 'LogSoftmax')
def _softmax(imp, node):
    op = S.softmax if node.op_type == 'Softmax' else S.log_softmax
    x = imp.x(node, 0)
    if imp.opset >= 13:
        return op(x, axis=node.attr('axis', -1), **node.named)
    # before opset 13 the input is seen as 2-D, axes from ``axis`` on flattened into one
    axis = node.attr('axis', 1)
    if axis == -1:
        return op(x, axis=-1, **node.named)
    if axis != 1:
        raise _unsupported(node, 'axis %d before opset 13 (the input flattened from it) is not supported' % axis)
    return S.reshape_like(op(S.Flatten(x), axis=-1), x, **node.named)


@_converts('Clip')
def _clip(imp, node):
    if imp.opset < 11:
        low, high = node.attr('min', -np.inf), node.attr('max', np.inf)
    else:
        low = float(imp.const(node, 1, 'min')) if node.has(1) else -np.inf
        high = float(imp.const(node, 2, 'max')) if node.has(2) else np.inf
    return S.clip(imp.x(node, 0), a_min=float(low), a_max=float(high), **node.named)


@_converts('Cast')
def _cast(imp, node):
    dtype = imp.onnx.helper.tensor_dtype_to_np_dtype(node.attr('to'))
    return S.Cast(imp.x(node, 0), dtype=np.dtype(dtype).name, **node.named)


# ---- layers ---------------------------------------------------------------------------------
def _spatial(node, kernel):
    """(stride, dilate, symmetric pad) of a Conv, ConvTranspose or pooling node."""
    n = len(kernel)
    stride = tuple(node.attr('strides', [1] * n))
    dilate = tuple(node.attr('dilations', [1] * n))
    auto_pad = node.attr('auto_pad', 'NOTSET')
    if auto_pad not in ('NOTSET', 'VALID'):
        raise _unsupported(node, 'auto_pad %s is not supported (give explicit pads)' % auto_pad)
    pads = node.attr('pads', [0] * 2 * n)
    begin, end = pads[:n], pads[n:]
    return stride, dilate, tuple(begin), tuple(end)


@_converts('Conv')
def _conv(imp, node):
    weight = imp.const(node, 1, 'weight') if node.inputs[1] in imp.consts else None
    kernel = tuple(node.attr('kernel_shape') or (weight.shape[2:] if weight is not None else ()))
    if not kernel:
        raise _unsupported(node, 'kernel_shape is needed when the weight is not an initializer')
    stride, dilate, begin, end = _spatial(node, kernel)
    if begin != end:
        raise _unsupported(node, 'asymmetric pads %s are not supported' % (list(begin + end),))
    group = node.attr('group', 1)
    num_filter = weight.shape[0] if weight is not None else None
    if num_filter is None:
        raise _unsupported(node, 'the weight must be an initializer (its shape gives num_filter)')
    bias = imp.x(node, 2) if node.has(2) else None
    return S.Convolution(imp.x(node, 0), imp.x(node, 1), bias, kernel=kernel, stride=stride, dilate=dilate,
                         pad=begin, num_filter=num_filter, num_group=group, no_bias=bias is None)


@_converts('ConvTranspose')
def _conv_transpose(imp, node):
    weight = imp.const(node, 1, 'weight')
    kernel = tuple(node.attr('kernel_shape') or weight.shape[2:])
    stride, dilate, begin, end = _spatial(node, kernel)
    if begin != end:
        raise _unsupported(node, 'asymmetric pads %s are not supported' % (list(begin + end),))
    if node.attr('output_shape') is not None:
        raise _unsupported(node, 'output_shape is not supported (give pads and output_padding)')
    group = node.attr('group', 1)
    adj = tuple(node.attr('output_padding', [0] * len(kernel)))
    bias = imp.x(node, 2) if node.has(2) else None
    x = S.Pad(imp.x(node, 0), mode='constant', pad_width=(0,) * (2 * len(kernel) + 4))  # MXNet's node
    return S.Deconvolution(x, imp.x(node, 1), bias, kernel=kernel, stride=stride, dilate=dilate, pad=begin,
                           adj=adj, num_filter=weight.shape[1] * group, num_group=group, no_bias=bias is None)


@_converts('BatchNormalization')
def _batch_norm(imp, node):
    if len(node.outputs) > 1 and any(node.outputs[1:]):
        raise _unsupported(node, 'training mode (running statistics as outputs) is not supported')
    gamma, beta, mean, var = (imp.x(node, i) for i in range(1, 5))
    return S.BatchNorm(imp.x(node, 0), gamma, beta, mean, var, eps=node.attr('epsilon', 1e-5),
                       momentum=node.attr('momentum', 0.9), fix_gamma=False, **node.named)


@_converts('InstanceNormalization')
def _instance_norm(imp, node):
    return S.InstanceNorm(imp.x(node, 0), imp.x(node, 1), imp.x(node, 2), eps=node.attr('epsilon', 1e-5),
                          **node.named)


@_converts('MaxPool', 'AveragePool', 'LpPool')
def _pool(imp, node):
    kernel = tuple(node.attr('kernel_shape'))
    stride, dilate, begin, end = _spatial(node, kernel)
    if any(d != 1 for d in dilate):
        raise _unsupported(node, 'dilations %s are not supported' % (list(dilate),))
    if len(node.outputs) > 1 and node.outputs[1]:
        raise _unsupported(node, 'the Indices output is not supported')
    pool_type = {'MaxPool': 'max', 'AveragePool': 'avg', 'LpPool': 'lp'}[node.op_type]
    include_pad = bool(node.attr('count_include_pad', 0))
    x = imp.x(node, 0)
    pad_width = (0, 0, 0, 0) + sum(zip(begin, end), ())
    if begin == end:
        # MXNet's importer writes a Pad node before the pooling; a zero one keeps its names
        x, pad = S.Pad(x, mode='edge' if pool_type == 'max' else 'constant', pad_width=(0,) * len(pad_width)), begin
    elif pool_type == 'max' or include_pad:
        x, pad = S.Pad(x, mode='edge' if pool_type == 'max' else 'constant', pad_width=pad_width), (0,) * len(kernel)
    else:
        raise _unsupported(node, 'asymmetric pads %s without count_include_pad' % (list(begin + end),))
    extra = {'p_value': node.attr('p', 2)} if pool_type == 'lp' else {}
    if pool_type == 'avg':
        extra['count_include_pad'] = include_pad
    return S.Pooling(x, kernel=kernel, stride=stride, pad=pad, pool_type=pool_type,
                     pooling_convention='full' if node.attr('ceil_mode', 0) else 'valid', **extra)


@_converts('GlobalAveragePool', 'GlobalMaxPool')
def _global_pool(imp, node):
    pool_type = 'avg' if node.op_type == 'GlobalAveragePool' else 'max'
    return S.Pooling(imp.x(node, 0), global_pool=True, kernel=(1, 1), pool_type=pool_type, **node.named)


@_converts('Gemm')
def _gemm(imp, node):
    a, b = imp.x(node, 0), imp.x(node, 1)
    alpha, beta = node.attr('alpha', 1.0), node.attr('beta', 1.0)
    out = S.linalg_gemm2(S.Flatten(a), b, transpose_a=bool(node.attr('transA', 0)),
                         transpose_b=bool(node.attr('transB', 0)), alpha=alpha)
    if not node.has(2):
        return out
    return S.broadcast_add(out, imp.x(node, 2) * beta)  # named _mulscalar0, as MXNet's


@_converts('MatMul')
def _matmul(imp, node):
    return S.linalg_gemm2(imp.x(node, 0), imp.x(node, 1), **node.named)


@_converts('Dropout')
def _dropout(imp, node):
    ratio = node.attr('ratio', 0.5)
    if imp.opset >= 12 and node.has(1):
        ratio = float(imp.const(node, 1, 'ratio'))
    return S.Dropout(imp.x(node, 0), p=ratio, **node.named)


@_converts('LRN')
def _lrn(imp, node):
    return S.LRN(imp.x(node, 0), nsize=node.attr('size'), alpha=node.attr('alpha', 1e-4),
                 beta=node.attr('beta', 0.75), knorm=node.attr('bias', 1.0), **node.named)


# ---- shapes ---------------------------------------------------------------------------------
@_converts('Flatten')
def _flatten(imp, node):
    axis = node.attr('axis', 1)
    if axis == 1:
        return S.Flatten(imp.x(node, 0), **node.named)
    if axis == 0:
        return S.Reshape(imp.x(node, 0), shape=(1, -1), **node.named)
    raise _unsupported(node, 'axis %d is not supported (0 and 1 are)' % axis)


@_converts('Reshape')
def _reshape(imp, node):
    shape = imp.ints_of(node, 1, 'shape', 'shape')
    if node.attr('allowzero', 0) and 0 in shape:
        raise _unsupported(node, 'allowzero with a 0 in the shape is not supported')
    return S.Reshape(imp.x(node, 0), shape=tuple(shape), **node.named)


@_converts('Transpose')
def _transpose(imp, node):
    perm = node.attr('perm')
    return S.transpose(imp.x(node, 0), axes=tuple(perm) if perm is not None else (), **node.named)


@_converts('Concat')
def _concat(imp, node):
    inputs = [imp.x(node, i) for i in range(len(node.inputs))]
    return S.Concat(*inputs, dim=node.attr('axis'), num_args=len(inputs), **node.named)


@_converts('Squeeze')
def _squeeze(imp, node):
    axes = imp.ints_of(node, 1, 'axes', 'axes')
    return S.squeeze(imp.x(node, 0), axis=tuple(axes) if axes else None, **node.named)


@_converts('Unsqueeze')
def _unsqueeze(imp, node):
    out = imp.x(node, 0)
    axes = sorted(imp.ints_of(node, 1, 'axes', 'axes'))
    if any(a < 0 for a in axes):
        raise _unsupported(node, 'negative axes %s are not supported' % axes)
    for k, axis in enumerate(axes):
        out = S.expand_dims(out, axis=axis, **(node.named if k == len(axes) - 1 else {}))
    return out


@_converts('Pad')
def _pad(imp, node):
    if imp.opset < 11:
        pads, value = node.attr('pads'), node.attr('value', 0.0)
    else:
        pads = imp.ints_of(node, 1, None, 'pads')
        value = float(np.ravel(imp.const(node, 2, 'constant_value'))[0]) if node.has(2) else 0.0
        if node.has(3):
            raise _unsupported(node, 'the axes input is not supported')
    n = len(pads) // 2
    pairs = tuple(zip(pads[:n], pads[n:]))
    mode = node.attr('mode', 'constant')
    if mode not in ('constant', 'edge', 'reflect'):
        raise _unsupported(node, 'mode %s is not supported (constant, edge and reflect are)' % mode)
    if n in (4, 5) and not any(pairs[0] + pairs[1]):
        return S.Pad(imp.x(node, 0), mode=mode, pad_width=sum(pairs, ()), constant_value=value, **node.named)
    # other ranks, or the batch and channel axes padded: NumPy's pad, which MXNet's Pad is not
    return S._npi_pad(imp.x(node, 0), pad_width=pairs, mode=mode, constant_values=value, **node.named)


@_converts('Slice')
def _slice(imp, node):
    if imp.opset < 10:
        starts, ends, axes, steps = node.attr('starts'), node.attr('ends'), node.attr('axes'), None
    else:
        starts, ends = imp.ints_of(node, 1, None, 'starts'), imp.ints_of(node, 2, None, 'ends')
        axes, steps = imp.ints_of(node, 3, None, 'axes'), imp.ints_of(node, 4, None, 'steps')
    axes = axes if axes is not None else list(range(len(starts)))
    steps = steps if steps is not None else [1] * len(starts)
    if any(a < 0 for a in axes):
        raise _unsupported(node, 'negative axes %s are not supported' % axes)
    rank = max(axes) + 1
    begin, end, step = [None] * rank, [None] * rank, [None] * rank
    for a, s, e, k in zip(axes, starts, ends, steps):
        begin[a] = s
        end[a] = None if abs(e) >= _INT64_MAX // 2 else e  # "to the end" in either direction
        step[a] = k
    return S.slice(imp.x(node, 0), begin=tuple(begin), end=tuple(end), step=tuple(step), **node.named)


@_converts('Split')
def _split(imp, node):
    axis = node.attr('axis', 0)
    sizes = imp.ints_of(node, 1, 'split', 'split')
    x = imp.x(node, 0)
    if sizes is None or len(set(sizes)) == 1:
        return list(S.split(x, num_outputs=len(node.outputs), axis=axis, **node.named))
    outs, start = [], 0
    for size in sizes:
        outs.append(S.slice_axis(x, axis=axis, begin=start, end=start + size))
        start += size
    return outs


def _reduce(op):
    def convert(imp, node):
        axes = imp.ints_of(node, 1, 'axes', 'axes')
        kwargs = {'keepdims': bool(node.attr('keepdims', 1))}
        if axes:
            kwargs['axis'] = tuple(axes)
        elif node.attr('noop_with_empty_axes', 0):
            return S.identity(imp.x(node, 0), **node.named)
        return op(imp.x(node, 0), **kwargs, **node.named)
    return convert


CONVERTERS.update({'ReduceMean': _reduce(S.mean), 'ReduceSum': _reduce(S.sum), 'ReduceMax': _reduce(S.max),
                   'ReduceMin': _reduce(S.min), 'ReduceProd': _reduce(S.prod)})


@_converts('Gather')
def _gather(imp, node):
    return S.take(imp.x(node, 0), imp.x(node, 1), axis=node.attr('axis', 0), **node.named)


@_converts('Tile')
def _tile(imp, node):
    return S.tile(imp.x(node, 0), reps=tuple(imp.ints_of(node, 1, None, 'repeats')), **node.named)


@_converts('DepthToSpace', 'SpaceToDepth')
def _depth_space(imp, node):
    if node.attr('mode', 'DCR') != 'DCR':
        raise _unsupported(node, "mode %s is not supported (MXNet's operator is DCR)" % node.attr('mode'))
    op = S.depth_to_space if node.op_type == 'DepthToSpace' else S.space_to_depth
    return op(imp.x(node, 0), block_size=node.attr('blocksize'), **node.named)


@_converts('Upsample', 'Resize')
def _upsample(imp, node):
    mode = node.attr('mode', 'nearest')
    if mode != 'nearest':
        raise _unsupported(node, 'mode %s is not supported (nearest with whole scales is)' % mode)
    if node.op_type == 'Upsample' and 'scales' in node.attrs:
        scales = node.attrs['scales']
    else:
        index = 1 if node.op_type == 'Upsample' else 2
        scales = imp.const(node, index, 'scales') if node.has(index) else None
    if scales is None or len(scales) < 3 or list(scales[:2]) != [1, 1] or len(set(scales[2:])) != 1 \
            or float(scales[2]) != int(scales[2]):
        raise _unsupported(node, 'only one whole scale for every spatial axis is supported, got %s'
                           % (None if scales is None else list(scales)))
    return S.UpSampling(imp.x(node, 0), scale=int(scales[2]), sample_type='nearest', num_args=1, **node.named)


_register_one_to_one()


# ---- the API --------------------------------------------------------------------------------
def _load(model_file):
    onnx = _onnx('mx.contrib.onnx.import_model')
    try:
        return onnx, onnx.load(model_file)
    except FileNotFoundError:
        raise
    except Exception as err:  # protobuf's DecodeError & co: the file is no ONNX model
        raise MXNetError('import_model: %s is not a readable ONNX model (%s: %s)'
                         % (model_file, type(err).__name__, err)) from None


def _notice(api):
    print('Calling mxnet.contrib.onnx.%s...' % api)
    print('Please note: the ONNX import (mxnet.contrib.onnx.import_model/get_model_metadata/'
          'import_to_gluon) was to be removed in MXNet 1.10.')


def _import(model_file):
    onnx, model = _load(model_file)
    imp = _Importer(model, onnx)
    aux_names = set(imp.sym.list_auxiliary_states())
    arg_params, aux_params = {}, {}
    for name, value in imp.params.items():
        (aux_params if name in aux_names else arg_params)[name] = nd.array(value, dtype=value.dtype)
    return imp, arg_params, aux_params


def import_model(model_file):
    """The MXNet symbol and parameters of an ONNX model file: ``(sym, arg_params, aux_params)``."""
    _notice('import_model')
    imp, arg_params, aux_params = _import(model_file)
    return imp.sym, arg_params, aux_params


def get_model_metadata(model_file):
    """``{'input_tensor_data': [(name, shape, elem_type)], 'output_tensor_data': [(name, shape)]}``
    of the model's data inputs (initializers left out) and outputs, as the file declares them
    (MXNet 1.9.1 gives the inputs' ONNX element type, not the outputs')."""
    _notice('get_model_metadata')
    _, model = _load(model_file)
    graph = model.graph
    params = {t.name for t in graph.initializer}

    def describe(info):
        tensor = info.type.tensor_type
        shape = tuple(d.dim_value if d.HasField('dim_value') else d.dim_param for d in tensor.shape.dim)
        return info.name, shape, tensor.elem_type
    return {'input_tensor_data': [describe(i) for i in graph.input if i.name not in params],
            'output_tensor_data': [describe(o)[:2] for o in graph.output]}


def import_to_gluon(model_file, ctx):
    """The ONNX model as a ``gluon.SymbolBlock`` with its parameters on ``ctx`` (a Context or a list)."""
    from ..gluon import SymbolBlock
    _notice('import_to_gluon')
    imp, arg_params, aux_params = _import(model_file)
    net = SymbolBlock(imp.sym, [S.var(n) for n in imp.data_names])
    values = {**arg_params, **aux_params}
    ctx = ctx if isinstance(ctx, (list, tuple)) else [ctx]
    for name, param in net.collect_params().items():
        param._load_init(values[name], ctx, cast_dtype=True, dtype_source='saved')
    return net
