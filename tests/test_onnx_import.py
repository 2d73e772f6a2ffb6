"""mx.contrib.onnx.import_model / get_model_metadata / import_to_gluon: ONNX files in, MXNet graphs out.

Three checks: files MXNet 1.9.1 exported give the graph MXNet's own importer gives (operators,
node names, arguments, parameters: tests/data/onnx_import, made by its script) and the exported
network's outputs; gluonjax's exports come back as the networks they were; single ONNX operators,
built here, give onnxruntime's outputs. Needs the optional onnx and onnxruntime packages.
"""
import contextlib
import importlib.util
import io
import json
import os
import sys

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError
from gluonjax.gluon import nn

_MISSING = [name for name in ('onnx', 'onnxruntime') if importlib.util.find_spec(name) is None]
if not _MISSING:
    import onnx
    import onnxruntime
    from onnx import TensorProto, helper, numpy_helper

needs_onnx = pytest.mark.skipif(bool(_MISSING), reason='not installed: %s (the onnx extra)' % ', '.join(_MISSING))
DATA = os.path.join(os.path.dirname(__file__), 'data', 'onnx_import')


def _quiet(fn, *args):
    """``fn(*args)`` and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args)
    return result, out.getvalue()


def _run(sym, arg_params, aux_params, inputs):
    exe = sym.bind(mx.cpu(), {**{k: mx.nd.array(v) for k, v in inputs.items()}, **arg_params},
                   aux_states=aux_params)
    return [o.asnumpy() for o in exe.forward()]


@needs_onnx
def test_files_mxnet_exported_give_mxnet_importers_graph():
    expected = json.load(open(os.path.join(DATA, 'expected.json')))
    with mx.name.NameManager():  # automatic names counted from 0, in the order MXNet imported them
        for name in ('small_cnn', 'mlp'):
            path = os.path.join(DATA, name + '.onnx')
            (sym, arg_params, aux_params), printed = _quiet(mx.contrib.onnx.import_model, path)
            assert printed.startswith('Calling mxnet.contrib.onnx.import_model...\n')
            want = expected[name]
            nodes = [[n['op'], n['name']] for n in json.loads(sym.tojson())['nodes'] if n['op'] != 'null']
            assert nodes == want['nodes']
            assert sym.list_outputs() == want['outputs']
            assert sym.list_arguments() == want['arguments']
            assert sym.list_auxiliary_states() == want['auxiliary_states']
            assert sorted(arg_params) == want['arg_params'] and sorted(aux_params) == want['aux_params']
            meta, _ = _quiet(mx.contrib.onnx.get_model_metadata, path)
            assert {k: [[e[0], list(e[1])] + list(e[2:]) for e in v] for k, v in meta.items()} == want['metadata']
            x = np.load(os.path.join(DATA, name + '-input.npy'))
            got = _run(sym, arg_params, aux_params, {'data': x})[0]
            # the exported network's own output: MXNet's importer drops small_cnn's
            # count_include_pad=0 (its output is off by 0.056 there), gluonjax keeps it
            np.testing.assert_allclose(got, np.array(want['network_output']), rtol=1e-5, atol=1e-5)
    assert np.abs(np.array(expected['small_cnn']['output']) - np.array(expected['small_cnn']['network_output'])).max() > 1e-2


def _net(*layers):
    net = nn.HybridSequential()
    net.add(*layers)
    net.initialize(mx.init.Xavier())
    return net


ROUND_TRIP = {
    'cnn': (lambda: _net(nn.Conv2D(4, 3, padding=1, strides=2), nn.BatchNorm(), nn.Activation('relu'),
                         nn.MaxPool2D(3, 2, 1), nn.Conv2D(6, 1, groups=2), nn.AvgPool2D(2, count_include_pad=False),
                         nn.Conv2DTranspose(3, 3, strides=2, padding=1, output_padding=1), nn.GlobalMaxPool2D(),
                         nn.Flatten(), nn.Dense(5), nn.LeakyReLU(0.2)), (2, 3, 12, 12)),
    'mlp': (lambda: _net(nn.Dense(7, activation='tanh'), nn.Dropout(0.3), nn.Dense(4, activation='sigmoid'),
                         nn.ELU(0.5), nn.Dense(3, flatten=False)), (3, 5)),
}


@needs_onnx
@pytest.mark.parametrize('name', sorted(ROUND_TRIP))
def test_gluonjax_export_imports_back(name, tmp_path):
    make, shape = ROUND_TRIP[name]
    net = make()
    x = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
    net.hybridize()
    want = net(mx.nd.array(x)).asnumpy()
    path = mx.onnx.export_model(net, None, onnx_file_path=str(tmp_path / 'm.onnx'))
    (block, printed) = _quiet(mx.contrib.onnx.import_to_gluon, path, mx.cpu())
    assert 'import_to_gluon' in printed
    assert isinstance(block, mx.gluon.SymbolBlock)
    assert sorted(block.collect_params().keys()) == sorted(net.collect_params().keys())
    np.testing.assert_allclose(block(mx.nd.array(x)).asnumpy(), want, rtol=1e-5, atol=1e-5)


@needs_onnx
def test_model_zoo_resnet_round_trip(tmp_path):
    from gluonjax.gluon.model_zoo import vision
    net = vision.resnet18_v1(classes=10)
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = np.random.default_rng(1).uniform(-1, 1, (1, 3, 32, 32)).astype(np.float32)
    want = net(mx.nd.array(x)).asnumpy()
    path = mx.onnx.export_model(net, None, onnx_file_path=str(tmp_path / 'r.onnx'))
    (sym, arg_params, aux_params), _ = _quiet(mx.contrib.onnx.import_model, path)
    assert len(aux_params) == 40 and net.prefix + 'batchnorm0_running_mean' in aux_params
    got = _run(sym, arg_params, aux_params, {'data': x})[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert np.ptp(want) > 1e-3


def _model(nodes, inputs, outputs, inits=(), opset=13):
    """An ONNX model of ``nodes``: ``inputs`` [(name, shape)] float32, ``inits`` [(name, array)]."""
    graph = helper.make_graph(nodes, 'g', [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs],
                              [numpy_helper.from_array(v, k) for k, v in inits])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', opset)], ir_version=7)


def _ints(*v):
    return np.array(v, np.int64)


R = np.random.default_rng(2)
W = R.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float32)
V4 = R.uniform(0.5, 1.5, 4).astype(np.float32)
N = helper.make_node if not _MISSING else None
OPERATORS = {} if _MISSING else {
    'conv_bias_stride_dilation': ([N('Conv', ['x', 'w', 'b'], ['y'], pads=[1, 1, 1, 1], strides=[2, 1], dilations=[1, 2])],
                                  [('x', (2, 3, 7, 8))], [('w', W), ('b', V4)]),
    'conv_grouped': ([N('Conv', ['x', 'w'], ['y'], group=2, kernel_shape=[1, 1])], [('x', (1, 4, 3, 3))],
                     [('w', R.uniform(-1, 1, (6, 2, 1, 1)).astype(np.float32))]),
    'conv_transpose': ([N('ConvTranspose', ['x', 'w', 'b'], ['y'], strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1])],
                       [('x', (1, 4, 3, 3))], [('w', R.uniform(-1, 1, (4, 2, 3, 3)).astype(np.float32)),
                                               ('b', V4[:2].copy())]),
    'batchnorm': ([N('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y'], epsilon=1e-3)], [('x', (2, 4, 3))],
                  [('s', V4), ('b', V4 - 1), ('m', V4 - 0.5), ('v', V4)]),
    'instancenorm': ([N('InstanceNormalization', ['x', 's', 'b'], ['y'], epsilon=1e-3)], [('x', (2, 4, 5))],
                     [('s', V4), ('b', V4 - 1)]),
    'pools': ([N('MaxPool', ['x'], ['a'], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
               N('AveragePool', ['a'], ['b'], kernel_shape=[2, 2], pads=[1, 1, 1, 1]),
               N('AveragePool', ['b'], ['c'], kernel_shape=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1),
               N('MaxPool', ['c'], ['d'], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
               N('MaxPool', ['d'], ['y'], kernel_shape=[2, 2], pads=[0, 0, 1, 1])], [('x', (1, 2, 13, 13))], []),
    'global_pools': ([N('GlobalAveragePool', ['x'], ['a']), N('GlobalMaxPool', ['x'], ['b']), N('Sub', ['a', 'b'], ['y'])],
                     [('x', (2, 3, 4, 5))], []),
    'gemm': ([N('Gemm', ['x', 'w', 'c'], ['y'], alpha=0.5, beta=2.0, transB=1)], [('x', (3, 4))],
             [('w', R.uniform(-1, 1, (5, 4)).astype(np.float32)), ('c', R.uniform(-1, 1, 5).astype(np.float32))]),
    'gemm_transA_no_c': ([N('Gemm', ['x', 'w'], ['y'], transA=1)], [('x', (4, 3))],
                         [('w', R.uniform(-1, 1, (4, 5)).astype(np.float32))]),
    'matmul_batched': ([N('MatMul', ['x', 'z'], ['y'])], [('x', (2, 3, 4)), ('z', (2, 4, 5))], []),
    'activations': ([N('Relu', ['x'], ['a']), N('Sigmoid', ['x'], ['b']), N('Tanh', ['x'], ['c']),
                     N('LeakyRelu', ['x'], ['d'], alpha=0.3), N('Elu', ['x'], ['e'], alpha=0.7), N('Selu', ['x'], ['f']),
                     N('Softplus', ['x'], ['g']), N('HardSigmoid', ['x'], ['h'], alpha=0.3, beta=0.4),
                     N('Sum', ['a', 'b', 'c', 'd'], ['s']), N('Max', ['e', 'f'], ['m']), N('Min', ['g', 'h'], ['n']),
                     N('Add', ['s', 'm'], ['t']), N('Mul', ['t', 'n'], ['y'])], [('x', (3, 4))], []),
    'variadic_max_min_and_trig': ([N('Max', ['x', 'z', 'w'], ['a']), N('Min', ['a'], ['b']), N('Sin', ['b'], ['c']),
                                   N('Atan', ['c'], ['y'])], [('x', (2, 3)), ('z', (2, 3)), ('w', (1, 3))], []),
    'more_unary_and_reductions': ([N('Sigmoid', ['x'], ['s']), N('Acos', ['s'], ['a']), N('Asin', ['s'], ['b']),
                                   N('Cos', ['x'], ['c']), N('Cosh', ['x'], ['d']), N('Sinh', ['x'], ['e']), N('Tan', ['s'], ['f']),
                                   N('Softsign', ['x'], ['g']), N('Sign', ['x'], ['h']), N('Reciprocal', ['d'], ['i']),
                                   N('Asinh', ['x'], ['j']), N('Atanh', ['g'], ['k']), N('Acosh', ['d'], ['l']),
                                   N('Sum', ['a', 'b', 'c', 'e', 'f', 'h', 'i', 'j', 'k', 'l'], ['m']),
                                   N('ReduceMin', ['m'], ['n'], axes=[1]), N('ReduceProd', ['m'], ['o'], axes=[1]),
                                   N('Add', ['n', 'o'], ['y'])], [('x', (2, 3))], []),
    'lp_pool': ([N('LpPool', ['x'], ['y'], kernel_shape=[2, 2], p=2)], [('x', (1, 2, 4, 4))], []),
    'prelu_broadcast_consts': ([N('PRelu', ['x', 'slope'], ['a']), N('Div', ['a', 'k'], ['b']), N('Pow', ['b', 'two'], ['y'])],
                               [('x', (2, 4, 3, 3))], [('slope', V4.reshape(4, 1, 1) - 1),
                                                       ('k', np.array([3.0], np.float32)), ('two', np.array(2.0, np.float32))]),
    'unary_math': ([N('Abs', ['x'], ['a']), N('Sqrt', ['a'], ['b']), N('Exp', ['b'], ['c']), N('Log', ['c'], ['d']),
                    N('Neg', ['d'], ['e']), N('Floor', ['e'], ['f']), N('Ceil', ['x'], ['g']), N('Erf', ['x'], ['h']),
                    N('Sum', ['f', 'g', 'h'], ['y'])], [('x', (3, 4))], []),
    'softmax13': ([N('Softmax', ['x'], ['a'], axis=1), N('LogSoftmax', ['x'], ['b']), N('Add', ['a', 'b'], ['y'])],
                  [('x', (2, 3, 4))], []),
    'clip_reduce13': ([N('Clip', ['x', 'lo', 'hi'], ['a']), N('ReduceMean', ['a'], ['b'], axes=[1]),
                       N('ReduceSum', ['a', 'ax'], ['c'], keepdims=0), N('ReduceMax', ['x'], ['d'], keepdims=0),
                       N('Add', ['c', 'd'], ['e']), N('Squeeze', ['b', 'ax'], ['f']), N('Add', ['e', 'f'], ['y'])],
                      [('x', (2, 3, 4))], [('lo', np.array(-0.5, np.float32)), ('hi', np.array(0.6, np.float32)),
                                           ('ax', _ints(1))]),
    'shapes': ([N('Reshape', ['x', 's'], ['a']), N('Transpose', ['a'], ['b'], perm=[1, 0, 2]), N('Unsqueeze', ['b', 'u'], ['c']),
                N('Flatten', ['c'], ['d'], axis=1), N('Concat', ['d', 'd'], ['y'], axis=0)],
               [('x', (2, 3, 4))], [('s', _ints(0, -1, 2)), ('u', _ints(0, 3))]),
    'slice_split_gather_tile': ([N('Slice', ['x', 'st', 'en', 'ax', 'sp'], ['a']), N('Split', ['a', 'parts'], ['b', 'c'], axis=1),
                                 N('Gather', ['x', 'idx'], ['d'], axis=2), N('Tile', ['c', 'reps'], ['e']),
                                 N('Mul', ['b', 'e'], ['f']), N('Flatten', ['d'], ['g'], axis=0), N('Flatten', ['f'], ['h'], axis=0),
                                 N('Concat', ['g', 'h'], ['y'], axis=1)],
                                [('x', (4, 6, 5))], [('st', _ints(1, 0)), ('en', _ints(2 ** 63 - 1, 4)), ('ax', _ints(0, 1)),
                                                     ('sp', _ints(1, 1)), ('parts', _ints(2, 2)), ('idx', _ints(4, 0, 2)),
                                                     ('reps', _ints(1, 1, 1))]),
    'pad_lrn_depth': ([N('Pad', ['x', 'p', 'v'], ['a'], mode='constant'), N('LRN', ['a'], ['b'], size=3, alpha=1e-2, beta=0.7, bias=2.0),
                       N('DepthToSpace', ['b'], ['c'], blocksize=2), N('SpaceToDepth', ['c'], ['y'], blocksize=2)],
                      [('x', (1, 4, 3, 3))], [('p', _ints(0, 0, 1, 0, 0, 0, 1, 2)), ('v', np.array(0.5, np.float32))]),
    'resize_nearest_cast': ([N('Resize', ['x', '', 'sc'], ['a'], mode='nearest'), N('Cast', ['a'], ['b'], to=TensorProto.INT32),
                             N('Cast', ['b'], ['y'], to=TensorProto.FLOAT)],
                            [('x', (1, 2, 3, 3))], [('sc', np.array([1, 1, 2, 2], np.float32))]),
    'constant_node_identity_dropout': ([N('Constant', [], ['k'], value=numpy_helper.from_array(np.array([[2.0]], np.float32))),
                                        N('Mul', ['x', 'k'], ['a']), N('Identity', ['a'], ['b']), N('Dropout', ['b'], ['y'])],
                                       [('x', (2, 3))], []),
}
OPSET11 = {} if _MISSING else {
    'upsample9': ([N('Upsample', ['x', 'sc'], ['y'], mode='nearest')], [('x', (1, 2, 2, 3))],
                  [('sc', np.array([1, 1, 2, 2], np.float32))]),
    'softmax11_clip11_pad11': ([N('Softmax', ['x'], ['a']), N('Clip', ['a', 'lo'], ['b']), N('Pad', ['b', 'p'], ['y'], mode='edge')],
                               [('x', (2, 3, 4))], [('lo', np.array(0.2, np.float32)), ('p', _ints(0, 1, 0, 0, 2, 0))]),
    'reduce11_unsqueeze11_slice11': ([N('ReduceSum', ['x'], ['a'], axes=[2], keepdims=0), N('Unsqueeze', ['a'], ['b'], axes=[1]),
                                      N('Slice', ['b', 'st', 'en'], ['y'])],
                                     [('x', (3, 4, 5))], [('st', _ints(1)), ('en', _ints(3))]),
}


@needs_onnx
@pytest.mark.parametrize('name,opset', [(n, 13) for n in sorted(OPERATORS)] + [(n, 11 if n != 'upsample9' else 9)
                                                                                 for n in sorted(OPSET11)])
def test_operators_match_onnxruntime(name, opset, tmp_path):
    nodes, inputs, inits = (OPERATORS if opset == 13 else OPSET11)[name]
    model = _model(nodes, inputs, [nodes[-1].output[0]], inits, opset)
    path = str(tmp_path / 'op.onnx')
    onnx.save(model, path)
    feeds = {n: np.random.default_rng(3).uniform(-1, 1, s).astype(np.float32) for n, s in inputs}
    want = onnxruntime.InferenceSession(path, providers=['CPUExecutionProvider']).run(None, feeds)[0]
    (sym, arg_params, aux_params), _ = _quiet(mx.contrib.onnx.import_model, path)
    got = _run(sym, arg_params, aux_params, feeds)[0]
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@needs_onnx
def test_bad_files_and_operators_name_the_problem(tmp_path):
    junk = tmp_path / 'junk.onnx'
    junk.write_bytes(b'not a protobuf at all \xff\xfe')
    with pytest.raises(MXNetError, match='junk.onnx is not a readable ONNX model'):
        _quiet(mx.contrib.onnx.import_model, str(junk))
    with pytest.raises(FileNotFoundError):
        _quiet(mx.contrib.onnx.import_model, str(tmp_path / 'missing.onnx'))
    cases = [
        (_model([helper.make_node('NonMaxSuppression', ['x'], ['y'], name='nms')], [('x', (1, 2))], ['y']),
         'ONNX operator NonMaxSuppression \\(node \'nms\'\\) is not supported'),
        (_model([helper.make_node('Shape', ['x'], ['s']), helper.make_node('Reshape', ['x', 's'], ['y'], name='rs')],
                [('x', (2, 3))], ['y']), "Shape \\(node"),
        (_model([helper.make_node('Relu', ['x'], ['a']), helper.make_node('Reshape', ['x', 'a'], ['y'], name='rs')],
                [('x', (2, 3))], ['y']), "Reshape node 'rs': its shape \\(input 'a'\\) must be a constant"),
        (_model([helper.make_node('Conv', ['x', 'w'], ['y'], name='c', pads=[0, 0, 1, 1])], [('x', (1, 3, 4, 4))], ['y'],
                [('w', W)]), "Conv node 'c': asymmetric pads"),
    ]
    for i, (model, message) in enumerate(cases):
        path = str(tmp_path / ('bad%d.onnx' % i))
        onnx.save(model, path)
        with pytest.raises(MXNetError, match=message):
            _quiet(mx.contrib.onnx.import_model, path)


def test_missing_onnx_package_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, 'onnx', None)
    with pytest.raises(ImportError, match='needs the onnx package'):
        _quiet(mx.contrib.onnx.import_model, 'model.onnx')
