"""mx.onnx.export_model: the ONNX files it writes run in onnxruntime with gluonjax's outputs.

Small layers always run; the model-zoo networks run at small input sizes, a few by default and
all of them with GLUONJAX_ONNX_ZOO=all, compared also with MXNet 1.9.1's recorded outputs
(tests/data/model_zoo). The export needs the optional onnx and onnxruntime
packages (the ``onnx`` extra); without them those tests skip and the missing-package error is
still checked.
"""
import importlib.util
import os
import sys

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError
from gluonjax.gluon import nn, rnn

# The optional 'onnx' extra: the tests skip only when a package is not installed at all; an
# installed package that fails to import is an error.
_MISSING = [name for name in ('onnx', 'onnxruntime') if importlib.util.find_spec(name) is None]
if not _MISSING:
    import onnx
    import onnxruntime

needs_onnx = pytest.mark.skipif(bool(_MISSING), reason='not installed: %s (the onnx extra)' % ', '.join(_MISSING))
ATOL = 1e-4


def _run_onnx(path, inputs):
    sess = onnxruntime.InferenceSession(path, providers=['CPUExecutionProvider'])
    feeds = {i.name: x for i, x in zip(sess.get_inputs(), inputs)}
    return sess.run(None, feeds)


def _check_block(net, shapes, tmp_path, dtype=np.float32, low=-1.0, high=1.0, inputs=None):
    """Export a hybridized block, run the file in onnxruntime, compare with gluonjax; returns the
    outputs (onnxruntime's). ``inputs`` (arrays) replace random ones of ``shapes``."""
    if inputs is None:
        rng = np.random.default_rng(0)
        inputs = [rng.uniform(low, high, size=s).astype(dtype) for s in shapes]
    net.hybridize()
    want = net(*[mx.nd.array(x, dtype=dtype) for x in inputs])
    want = [w.asnumpy() for w in (want if isinstance(want, (list, tuple)) else [want])]
    path = str(tmp_path / 'model.onnx')
    assert mx.onnx.export_model(net, None, onnx_file_path=path) == path
    onnx.checker.check_model(onnx.load(path))
    got = _run_onnx(path, inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=ATOL, atol=ATOL)
    return got


class _Lambda(nn.HybridBlock):
    """A block of a few F operators (the elementwise, broadcast and shape operators)."""

    def __init__(self, fn, **kwargs):
        super().__init__(**kwargs)
        self._fn = fn

    def hybrid_forward(self, F, *args):
        return self._fn(F, *args)


def _seq(*layers):
    net = nn.HybridSequential()
    net.add(*layers)
    net.initialize(mx.init.Xavier())
    return net


def _with_stats(layer):
    """A BatchNorm with moving statistics away from 0 and 1, so that inference uses them."""
    net = _seq(layer)
    for name, p in net.collect_params().items():
        if 'running' in name or 'moving' in name or 'gamma' in name or 'beta' in name:
            p.set_data(mx.nd.array(np.random.default_rng(1).uniform(0.5, 1.5, p.shape)))
    return net


LAYERS = {
    'dense': (lambda: _seq(nn.Dense(5), nn.Dense(3, flatten=False)), [(2, 3, 4)]),
    'dense_no_bias_flatten': (lambda: _seq(nn.Dense(4, use_bias=False)), [(2, 3, 2)]),
    'conv1d': (lambda: _seq(nn.Conv1D(4, 3, padding=1, strides=2)), [(2, 3, 9)]),
    'conv2d_grouped_dilated': (lambda: _seq(nn.Conv2D(4, 3, padding=2, dilation=2, groups=2)), [(1, 4, 8, 8)]),
    'conv2d_transpose': (lambda: _seq(nn.Conv2DTranspose(3, 3, strides=2, padding=1, output_padding=1)),
                         [(1, 2, 5, 5)]),
    'batchnorm': (lambda: _with_stats(nn.BatchNorm(in_channels=3)), [(2, 3, 4, 4)]),
    'batchnorm_fix_gamma': (lambda: _with_stats(nn.BatchNorm(scale=False, in_channels=3)), [(2, 3, 4)]),
    'layernorm': (lambda: _seq(nn.LayerNorm()), [(2, 3, 5)]),
    'layernorm_axis1': (lambda: _seq(nn.LayerNorm(axis=1, in_channels=3)), [(2, 3, 5)]),
    'pooling': (lambda: _seq(nn.MaxPool2D(3, 2, 1), nn.AvgPool2D(2, 1, 1), nn.AvgPool2D(2, count_include_pad=False),
                             nn.MaxPool2D(3, 2, ceil_mode=True)), [(1, 2, 11, 11)]),
    'global_pooling': (lambda: _seq(nn.Conv2D(4, 1), nn.GlobalAvgPool2D(), nn.GlobalMaxPool2D()), [(2, 3, 5, 5)]),
    'pool1d': (lambda: _seq(nn.MaxPool1D(2), nn.AvgPool1D(2)), [(2, 3, 8)]),
    'activations': (lambda: _seq(nn.Activation('relu'), nn.Dense(6), nn.Activation('sigmoid'), nn.Activation('tanh'),
                                 nn.Activation('softrelu'), nn.Activation('softsign')), [(2, 5)]),
    'leaky_family': (lambda: _seq(nn.LeakyReLU(0.1), nn.Dense(6), nn.ELU(0.7), nn.Dense(6), nn.SELU(), nn.Dense(6),
                                  nn.GELU(), nn.Dense(6), nn.Swish()), [(2, 5)]),
    'prelu': (lambda: _seq(nn.Conv2D(3, 1), nn.PReLU(mx.init.Uniform(0.5), in_channels=3), nn.PReLU()),
              [(2, 3, 4, 4)]),
    'dropout_flatten': (lambda: _seq(nn.Conv2D(2, 3), nn.Dropout(0.5), nn.Flatten(), nn.Dense(3)), [(2, 1, 6, 6)]),
}


@needs_onnx
@pytest.mark.parametrize('name', sorted(LAYERS))
def test_layer(name, tmp_path):
    make, shapes = LAYERS[name]
    _check_block(make(), shapes, tmp_path)


@needs_onnx
def test_embedding_takes_float_indices(tmp_path):
    net = _seq(nn.Embedding(10, 4))
    _check_block(net, [(2, 3)], tmp_path, low=0, high=9.9)


OPS = {
    'elementwise': (lambda F, x, y: F.relu(x * y + x / (F.abs(y) + 1) - F.exp(-F.square(x)) + F.sqrt(F.abs(x)))
                    + F.maximum(x, y) + F.minimum(x, 0.2) + (3 - x) * 2 + 1 / (F.abs(x) + 1) + x ** 2,
                    [(2, 3), (2, 3)]),
    'broadcast': (lambda F, x, y: F.broadcast_add(x, y) * F.broadcast_mul(x, y) - F.broadcast_div(x, F.abs(y) + 1)
                  + F.broadcast_maximum(x, y) - F.broadcast_sub(y, x), [(2, 3, 4), (1, 3, 1)]),
    'shape_ops': (lambda F, x, y: F.concat(F.transpose(F.reshape(x, shape=(0, -1, 2)), axes=(0, 2, 1)),
                                           F.swapaxes(F.reshape(y, shape=(-3, -2)), 0, 1).reshape((1, 2, -1)), dim=2),
                  [(1, 3, 4), (2, 2, 2)]),
    'reshape_codes': (lambda F, x: F.reshape(F.reshape(x, shape=(-4, 1, -1, 0, -2)), shape=(-1,), reverse=True),
                      [(2, 3, 4)]),
    'slices': (lambda F, x: F.concat(F.slice(x, begin=(None, 1), end=(None, None), step=(1, 2)),
                                     F.slice_axis(x, axis=1, begin=-2, end=None),
                                     F.slice(x, begin=(None, None), end=(None, None), step=(-1, -2)), dim=1),
               [(3, 5)]),
    'softmax': (lambda F, x: F.softmax(x) + F.log_softmax(x, axis=0) + F.softmax(x, axis=1, temperature=2.0),
                [(3, 4)]),
    'reductions': (lambda F, x: F.broadcast_add(
        F.concat(F.sum(x, axis=1), F.mean(x, axis=2, keepdims=True).reshape((2, -1)),
                 F.max(x, axis=(0, 1), exclude=True), F.min(x, axis=1), F.prod(x, axis=-1), dim=1), F.sum(x)),
        [(2, 3, 4)]),
    'expand_squeeze_stack_split': (lambda F, x: F.concat(*F.split(F.stack(x, x + 1, axis=1), num_outputs=2, axis=1,
                                                                  squeeze_axis=True), dim=0).expand_dims(0).squeeze(),
                                   [(2, 3)]),
    'comparisons': (lambda F, x, y: (x > 0.1) + (x < y) + (x >= y) * 2 + (x == x) - (x != y) + (x <= 0.3),
                    [(2, 3), (2, 3)]),
    'arg_and_like': (lambda F, x: F.broadcast_add(
        F.concat(F.argmax(x, axis=1, keepdims=True), F.argmin(x, axis=0).reshape((-1, 1)), dim=1), F.argmax(x))
        + F.broadcast_to(F.slice_axis(x, axis=1, begin=0, end=1), shape=(3, 2))
        + F.broadcast_like(F.sum(x, axis=1, keepdims=True), F.slice_axis(x, axis=1, begin=0, end=2))
        + F.ones_like(F.slice_axis(x, axis=1, begin=1, end=3)) * 2 - F.zeros_like(F.slice_axis(x, axis=1, begin=0, end=2)),
        [(3, 3)]),
    'depth_space': (lambda F, x: (F.depth_to_space(x, 2), F.space_to_depth(x, 2)), [(1, 8, 4, 6)]),
    'several_outputs': (lambda F, x: (x, F.relu(x), F.relu(x), x + 1), [(2, 3)]),
    'dot': (lambda F, x, y: F.dot(x, y, transpose_b=True) + F.batch_dot(x.expand_dims(0), y.expand_dims(0),
                                                                         transpose_b=True).squeeze(axis=0),
            [(2, 3), (2, 3)]),
    'clip_tile_cast_where': (lambda F, x: F.where(x > 0, F.clip(x, -0.5, 0.5), F.tile(F.slice_axis(x, axis=0, begin=0, end=1), reps=(2, 1)))
                             .astype('float64').astype('float32'), [(2, 3)]),
}


@needs_onnx
@pytest.mark.parametrize('name', sorted(OPS))
def test_operators(name, tmp_path):
    fn, shapes = OPS[name]
    net = _Lambda(fn)
    _check_block(net, shapes, tmp_path)


def _check_symbol(sym, params, inputs, tmp_path):
    """Export ``sym`` with ``params`` for ``inputs`` {name: array}; compare onnxruntime with the executor."""
    args = {k: mx.nd.array(v, dtype=v.dtype) for k, v in {**params, **inputs}.items()}
    known = {k: v.shape for k, v in {**params, **inputs}.items()}
    arg_shapes = dict(zip(sym.list_arguments(), sym.infer_shape(**known)[0]))
    args.update({k: mx.nd.zeros(s) for k, s in arg_shapes.items() if k not in args})  # a loss's label
    want = sym.bind(mx.cpu(), args).forward()[0].asnumpy()
    path = mx.onnx.export_model(sym, {k: args[k] for k in params}, [v.shape for v in inputs.values()],
                                [v.dtype for v in inputs.values()], str(tmp_path / 'sym.onnx'))
    np.testing.assert_allclose(_run_onnx(path, list(inputs.values()))[0], want, rtol=ATOL, atol=ATOL)


def _uniform(*shape, dtype=np.float32):
    return np.random.default_rng(sum(shape)).uniform(-1, 1, shape).astype(dtype)


SYMBOLS = {
    'deconvolution_target_shape': lambda d: (
        mx.sym.Deconvolution(d, mx.sym.var('w'), kernel=(3, 3), stride=(2, 2), num_filter=2, target_shape=(8, 9)),
        {'w': _uniform(3, 2, 3, 3)}, {'data': _uniform(1, 3, 4, 4)}),
    'pad_modes': lambda d: (
        mx.sym.Pad(d, mode='constant', pad_width=(0, 0, 0, 0, 1, 2, 2, 1), constant_value=0.5)
        + mx.sym.Pad(d, mode='edge', pad_width=(0, 0, 0, 0, 1, 2, 2, 1))
        + mx.sym.Pad(d, mode='reflect', pad_width=(0, 0, 0, 0, 1, 2, 2, 1)),
        {}, {'data': _uniform(1, 2, 4, 4)}),
    'instance_norm': lambda d: (
        mx.sym.InstanceNorm(d, mx.sym.var('g'), mx.sym.var('b'), eps=1e-3),
        {'g': _uniform(3), 'b': _uniform(3)}, {'data': _uniform(2, 3, 5)}),
    'embedding_int_indices': lambda d: (
        mx.sym.Embedding(d, mx.sym.var('w'), input_dim=6, output_dim=3),
        {'w': _uniform(6, 3)}, {'data': np.array([[0, 5, 2], [1, 1, 4]], dtype=np.int32)}),
    'take_clip_wrap_one_hot': lambda d: (mx.sym.concat(
        mx.sym.take(mx.sym.var('w'), d, mode='clip'), mx.sym.take(mx.sym.var('w'), d, mode='wrap'),
        mx.sym.one_hot(d, depth=4, on_value=2.0, off_value=-1.0), dim=2),
        {'w': _uniform(4, 3)}, {'data': np.array([[0, 3, -1], [5, 2, -6]], dtype=np.float32)}),
    'l2_normalization_lrn': lambda d: (
        mx.sym.L2Normalization(d, mode='instance') + mx.sym.L2Normalization(d, mode='channel')
        + mx.sym.L2Normalization(d, mode='spatial') + mx.sym.LRN(d, nsize=3, alpha=0.1, beta=0.6, knorm=1.5),
        {}, {'data': _uniform(2, 5, 3, 3)}),
    'logistic_regression_output': lambda d: (mx.sym.LogisticRegressionOutput(d, name='lro'), {},
                                             {'data': _uniform(2, 3)}),
    'linear_regression_output': lambda d: (mx.sym.LinearRegressionOutput(mx.sym.relu(d), name='lin'), {},
                                           {'data': _uniform(2, 3)}),
    'sum_pooling_and_lp': lambda d: (mx.sym.broadcast_add(
        mx.sym.Pooling(d, kernel=(2, 2), stride=(1, 1), pool_type='sum')
        + mx.sym.Pooling(d, kernel=(2, 2), stride=(1, 1), pool_type='lp', p_value=2),
        mx.sym.broadcast_mul(mx.sym.Pooling(d, kernel=(1, 1), global_pool=True, pool_type='sum'),
                               mx.sym.Pooling(d, kernel=(1, 1), global_pool=True, pool_type='lp', p_value=2))),
        {}, {'data': _uniform(1, 2, 4, 4)}),
}


@needs_onnx
@pytest.mark.parametrize('name', sorted(SYMBOLS))
def test_symbol_operators(name, tmp_path):
    sym, params, inputs = SYMBOLS[name](mx.sym.var('data'))
    _check_symbol(sym, params, inputs, tmp_path)


def _dense_relu():
    net = _seq(nn.Dense(4), nn.Activation('relu'))
    net.hybridize()
    net(mx.nd.ones((2, 3)))
    return net


@needs_onnx
def test_symbol_and_params_from_files_and_objects(tmp_path):
    """MXNet's ways of giving the model: file paths, a Symbol with a dict, a Symbol with
    [arg_params, aux_params]; input_shape / input_type are in_shapes / in_types' old names."""
    net = _with_stats(nn.BatchNorm(in_channels=3))
    net.hybridize()
    x = np.random.default_rng(0).uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    want = net(mx.nd.array(x)).asnumpy()
    prefix = str(tmp_path / 'net')
    net.export(prefix)
    sym = mx.sym.load(prefix + '-symbol.json')
    loaded = mx.nd.load(prefix + '-0000.params')
    arg = {k[4:]: v for k, v in loaded.items() if k.startswith('arg:')}
    aux = {k[4:]: v for k, v in loaded.items() if k.startswith('aux:')}
    ways = [(prefix + '-symbol.json', prefix + '-0000.params'), (sym, {**arg, **aux}), (sym, [arg, aux]),
            (sym, loaded)]
    for i, (s, p) in enumerate(ways):
        path = str(tmp_path / ('m%d.onnx' % i))
        out = mx.onnx.export_model(s, p, [(2, 3, 4)], np.float32, path)
        assert out == path
        np.testing.assert_allclose(_run_onnx(path, [x])[0], want, rtol=ATOL, atol=ATOL)
    path = mx.onnx.export_model(sym, loaded, input_shape=[(2, 3, 4)], input_type=np.float32,
                                onnx_file_path=str(tmp_path / 'old_names.onnx'))
    np.testing.assert_allclose(_run_onnx(path, [x])[0], want, rtol=ATOL, atol=ATOL)


@needs_onnx
@pytest.mark.parametrize('shape,extra', [((2, 5), {}), ((2, 3, 4), {}), ((2, 3, 4), {'multi_output': True}),
                                         ((2, 3, 4), {'preserve_shape': True})])
def test_training_graph_with_softmax_output(shape, extra, tmp_path):
    """A Module-style graph: its forward is the softmax, and its label (softmax_label, which MXNet
    leaves out of the graph inputs) needs no shape."""
    data = mx.sym.var('data')
    out = mx.sym.SoftmaxOutput(mx.sym.Activation(data, act_type='tanh'), name='softmax', **extra)
    x = np.random.default_rng(0).uniform(-2, 2, shape).astype(np.float32)
    path = mx.onnx.export_model(out, {}, [shape], np.float32, str(tmp_path / 'm.onnx'))
    model = onnx.load(path)
    assert [i.name for i in model.graph.input] == ['data']
    assert [o.name for o in model.graph.output] == ['softmax']
    exe = out.bind(mx.cpu(), {'data': mx.nd.array(x), 'softmax_label': mx.nd.zeros(out.infer_shape(data=shape)[0][1])})
    want = exe.forward()[0].asnumpy()
    np.testing.assert_allclose(_run_onnx(path, [x])[0], want, rtol=ATOL, atol=ATOL)


@needs_onnx
def test_model_layout_follows_mxnet(tmp_path):
    """MXNet's names: the graph, its outputs (the node names); parameters are initializers,
    the graph inputs are the other variables; opset 13."""
    net = _dense_relu()
    path = mx.onnx.export_model(net, None, onnx_file_path=str(tmp_path / 'm.onnx'))
    model = onnx.load(path)
    assert model.graph.name == 'mxnet_converted_model'
    assert [i.name for i in model.graph.input] == ['data']
    assert [o.name for o in model.graph.output] == [net._cached_graph[1].name]
    assert sorted(i.name for i in model.graph.initializer) == sorted(net.collect_params().keys())
    assert [(o.domain, o.version) for o in model.opset_import] == [('', mx.onnx.OPSET)] == [('', 13)]
    assert [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim] == [2, 3]


@needs_onnx
def test_dynamic_batch(tmp_path):
    net = _seq(nn.Conv2D(4, 3), nn.BatchNorm(), nn.Activation('relu'), nn.GlobalAvgPool2D(), nn.Flatten(),
               nn.Dense(3))
    net.hybridize()
    net(mx.nd.ones((1, 2, 6, 6)))
    path = mx.onnx.export_model(net, None, [(1, 2, 6, 6)], onnx_file_path=str(tmp_path / 'dyn.onnx'), dynamic=True,
                                dynamic_input_shapes=[(None, 2, 6, 6)], run_shape_inference=True)
    x = np.random.default_rng(0).uniform(size=(5, 2, 6, 6)).astype(np.float32)
    np.testing.assert_allclose(_run_onnx(path, [x])[0], net(mx.nd.array(x)).asnumpy(), rtol=ATOL, atol=ATOL)


@needs_onnx
def test_unsupported_operator_names_op_and_node(tmp_path):
    data = mx.sym.var('data')
    sym = mx.sym.topk(mx.sym.relu(data, name='act'), k=2, name='best')
    with pytest.raises(MXNetError, match=r'operator topk \(node best\) has no ONNX conversion'):
        mx.onnx.export_model(sym, {}, [(2, 5)], onnx_file_path=str(tmp_path / 'x.onnx'))
    assert not (tmp_path / 'x.onnx').exists()
    pooled = mx.sym.Pooling(data, kernel=(2,), pool_type='max', pooling_convention='same', name='pool')
    with pytest.raises(MXNetError, match=r"operator Pooling \(node pool\) cannot be written as ONNX: .*'same'"):
        mx.onnx.export_model(pooled, {}, [(1, 1, 4)], onnx_file_path=str(tmp_path / 'y.onnx'))


@needs_onnx
def test_bad_arguments(tmp_path):
    net = _dense_relu()
    sym = net._cached_graph[1]
    params = {k: v.data() for k, v in net.collect_params().items()}
    with pytest.raises(ValueError, match='2 in_shapes given for the 1 graph inputs'):
        mx.onnx.export_model(sym, params, [(2, 3), (2, 3)], onnx_file_path=str(tmp_path / 'a.onnx'))
    with pytest.raises(ValueError, match='sym must be a Symbol'):
        mx.onnx.export_model(42, params, [(2, 3)], onnx_file_path=str(tmp_path / 'a.onnx'))
    fresh = _seq(nn.Dense(2))
    with pytest.raises(ValueError, match='hybridize'):
        mx.onnx.export_model(fresh, None, onnx_file_path=str(tmp_path / 'a.onnx'))


def test_operator_support_lists_table_entries():
    names = mx.onnx.get_operator_support()
    for op in ('Convolution', 'FullyConnected', 'BatchNorm', 'Pooling', 'Activation', 'LeakyReLU', 'Concat',
               'elemwise_add', 'broadcast_mul', '_plus_scalar', 'softmax', 'Reshape', 'Flatten', 'Embedding'):
        assert op in names
    assert 'topk' not in names


def test_missing_onnx_package_is_named(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, 'onnx', None)  # import onnx now raises ImportError
    with pytest.raises(ImportError, match='needs the onnx package'):
        mx.onnx.export_model(mx.sym.relu(mx.sym.var('data')), {}, [(2,)], onnx_file_path=str(tmp_path / 'm.onnx'))


ZOO_DATA = os.path.join(os.path.dirname(__file__), 'data', 'model_zoo')


def _zoo_weights_module():
    """tests/data/model_zoo/weights.py: the deterministic weights MXNet 1.9.1's outputs were recorded with."""
    spec = importlib.util.spec_from_file_location('model_zoo_weights', os.path.join(ZOO_DATA, 'weights.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# (name, input side): where tests/data/model_zoo/outputs.npz has MXNet 1.9.1's output, its input
# side; else the smallest input the architecture takes. The default set (residual blocks, relu6
# clip, ceil-mode pooling and concat) takes ~45 s on two CPU cores with an empty compilation cache;
# GLUONJAX_ONNX_ZOO=all runs every family (~4 min).
ZOO = [('resnet18_v1', 64), ('mobilenetv2_0.25', 224), ('squeezenet1.1', 224), ('resnet50_v2', 64),
       ('vgg11_bn', 32), ('alexnet', 67), ('densenet121', 224), ('inceptionv3', 299), ('resnet18_v2', 32),
       ('mobilenet0.25', 32), ('squeezenet1.0', 224)]
ZOO_DEFAULT = {'resnet18_v1', 'mobilenetv2_0.25', 'squeezenet1.1'}


@needs_onnx
@pytest.mark.parametrize('name,size', ZOO)
def test_model_zoo(name, size, tmp_path, monkeypatch):
    """The exported network in onnxruntime gives gluonjax's output and, on the recorded weights,
    MXNet 1.9.1's."""
    if name not in ZOO_DEFAULT and os.environ.get('GLUONJAX_ONNX_ZOO') != 'all':
        pytest.skip('set GLUONJAX_ONNX_ZOO=all to export every model-zoo family')
    from gluonjax.gluon.model_zoo import vision
    from gluonjax.ops import nn_conv
    monkeypatch.setattr(nn_conv, 'CONV_IMPL', 'lax')  # the same numbers; whole networks compile faster
    weights = _zoo_weights_module()
    x = weights.make_input((1, 3, size, size))
    net = vision.get_model(name, classes=10)
    net.initialize()
    net.infer_shape(mx.nd.array(x))
    params = net.collect_params()
    values = weights.make_weights([(k, v.shape) for k, v in params.items()])
    for k, v in params.items():
        v.set_data(mx.nd.array(values[k]))
    got = _check_block(net, None, tmp_path, inputs=[x])[0]
    recorded = np.load(os.path.join(ZOO_DATA, 'outputs.npz'))
    if name in recorded.files:
        want = recorded[name]
        np.testing.assert_allclose(got, want, rtol=ATOL, atol=ATOL * max(1.0, float(np.abs(want).max())))
    assert np.ptp(got) > 1e-2  # the activations kept a scale through the net: a comparison that can fail


class _NumpyNet(nn.HybridBlock):
    """Gluon 2 code on mx.np arrays: its graph has the NumPy-mode operators."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.conv = nn.Conv2D(3, 3)
        self.dense = nn.Dense(4)

    def forward(self, x):
        from gluonjax import np as mnp, npx
        y = npx.relu(self.conv(x)) + 1
        y = y.reshape(y.shape[0], -1) * 2
        z = mnp.tanh(self.dense(y))
        parts = mnp.concatenate([z.sum(axis=1, keepdims=True), z.max(axis=1, keepdims=True), z / 3,
                                 1 / (mnp.abs(z) + 1)], axis=1)
        return mnp.stack([parts, parts.transpose().transpose()], axis=0).squeeze() + y.mean()


@needs_onnx
def test_numpy_mode_block(tmp_path):
    from gluonjax import npx
    npx.set_np()
    try:
        net = _NumpyNet()
        net.initialize(mx.init.Xavier())
        rng = np.random.default_rng(0)
        x = rng.uniform(-1, 1, (2, 3, 5, 5)).astype(np.float32)
        net.hybridize()
        want = net(mx.np.array(x)).asnumpy()
        path = mx.onnx.export_model(net, None, onnx_file_path=str(tmp_path / 'np.onnx'))
        np.testing.assert_allclose(_run_onnx(path, [x])[0], want, rtol=ATOL, atol=ATOL)
    finally:
        npx.reset_np()


@needs_onnx
def test_contrib_path_is_the_same_export(tmp_path, capsys):
    net = _dense_relu()
    path = mx.contrib.onnx.export_model(net, None, onnx_file_path=str(tmp_path / 'c.onnx'))
    assert 'deprecated' in capsys.readouterr().out
    x = np.ones((2, 3), np.float32)
    np.testing.assert_allclose(_run_onnx(path, [x])[0], net(mx.nd.array(x)).asnumpy(), rtol=ATOL, atol=ATOL)
    sym, arg_params, _ = mx.contrib.onnx.import_model(path)  # and back (tests/test_onnx_import.py)
    assert 'Calling mxnet.contrib.onnx.import_model...' in capsys.readouterr().out
    assert sorted(arg_params) == sorted(net.collect_params().keys())


RNNS = {
    'lstm': lambda: rnn.LSTM(5, input_size=3),
    'lstm_2_layers_bidirectional': lambda: rnn.LSTM(4, num_layers=2, bidirectional=True, input_size=3),
    'gru_2_layers': lambda: rnn.GRU(4, num_layers=2, input_size=3),
    'rnn_relu_bidirectional': lambda: rnn.RNN(4, activation='relu', bidirectional=True, input_size=3),
    'rnn_tanh': lambda: rnn.RNN(4, input_size=3),
}


@needs_onnx
@pytest.mark.parametrize('name', sorted(RNNS))
def test_recurrent_layers(name, tmp_path):
    """Gluon's recurrent layers (the fused RNN operator, gates reordered for ONNX), with the
    begin states as inputs and the final states as outputs."""
    layer = RNNS[name]()
    layer.initialize(mx.init.Uniform(0.5))
    layer.hybridize()
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (6, 2, 3)).astype(np.float32)
    states = [rng.uniform(-1, 1, s.shape).astype(np.float32) for s in layer.begin_state(batch_size=2)]
    out, final = layer(mx.nd.array(x), [mx.nd.array(s) for s in states])
    path = mx.onnx.export_model(layer, None, onnx_file_path=str(tmp_path / 'rnn.onnx'))
    got = _run_onnx(path, [x] + states)
    assert len(got) == 1 + len(final)
    for g, w in zip(got, [out] + list(final)):
        np.testing.assert_allclose(g, w.asnumpy(), rtol=ATOL, atol=ATOL)
