"""gluon.model_zoo.vision against MXNet 1.9.1: for every model the printed net, the parameter
names, shapes and order (collect_params and save_parameters); for a few models the output on
the same weights; weight files written by MXNet; pretrained files found locally, never downloaded.

The reference data come from tests/data/model_zoo/generate.py (run with MXNet 1.9.1).
"""
import gzip
import hashlib
import importlib.util
import json
import os
import shutil

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax.gluon.model_zoo import model_store, vision
from gluonjax.ops import nn_conv

DATA = os.path.join(os.path.dirname(__file__), 'data', 'model_zoo')


def _load_weights_module():
    """tests/data/model_zoo/weights.py (shared with generate.py), under a name of its own."""
    spec = importlib.util.spec_from_file_location('model_zoo_weights',
                                                  os.path.join(DATA, 'weights.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_weights = _load_weights_module()
make_input, make_weights = _weights.make_input, _weights.make_weights

with gzip.open(os.path.join(DATA, 'structure.json.gz'), 'rt') as _f:
    STRUCTURE = json.load(_f)
OUTPUTS = np.load(os.path.join(DATA, 'outputs.npz'))

# model -> input side of the forward checks (as in generate.py). densenet121 and inceptionv3
# take ~10 s each on 2 CPU cores (XLA compilation): they run with GLUONJAX_TEST_ALL_MODELS=1;
# resnet18_v1, mobilenetv2_0.25 and squeezenet1.1 are checked by the tests further down.
FORWARD = {'alexnet': 67, 'vgg11_bn': 32, 'resnet50_v2': 64, 'densenet121': 224, 'inceptionv3': 299}
SLOW = {'densenet121', 'inceptionv3'}
ALL_MODELS = os.environ.get('GLUONJAX_TEST_ALL_MODELS') == '1'


@pytest.fixture(autouse=True)
def xla_convolution(monkeypatch):
    """XLA's own convolution instead of the CPU default im2col: same results (see
    test_ops_nn), but whole networks compile 2-5 times faster, which keeps this file fast."""
    monkeypatch.setattr(nn_conv, 'CONV_IMPL', 'lax')


def fresh(name, **kwargs):
    """The model with fresh name counters (``resnetv10_...``), as in a new program."""
    with mx.name.NameManager():
        return vision.get_model(name, **kwargs)


def set_weights(net):
    """Give ``net`` the weights generate.py gave the MXNet net."""
    params = net.collect_params()
    values = make_weights([(k, v.shape) for k, v in params.items()])
    for k, v in params.items():
        v.set_data(nd.array(values[k]))


def ready(name, x, grad=False, **kwargs):
    """The model with classes=10, shapes inferred from ``x``, generate.py's weights, hybridized."""
    net = fresh(name, classes=10, **kwargs)
    if not grad:
        net.collect_params().setattr('grad_req', 'null')
    net.initialize()
    net.infer_shape(x)
    set_weights(net)
    net.hybridize()
    return net


def image(side, batch=1, seed=7):
    return nd.array(make_input((batch, 3, side, side), seed=seed))


def graph_nodes(symbol_file):
    """An exported graph's nodes: name, operator, inputs, attributes. The variables' declared
    shapes are left out: MXNet writes them before deferred shape inference (0 for unknown)."""
    nodes = []
    for node in json.load(open(symbol_file))['nodes']:
        attrs = {k: v for k, v in node.get('attrs', {}).items() if k != '__shape__'}
        nodes.append((node['name'], node['op'], [i[0] for i in node['inputs']], attrs))
    return nodes


def assert_close(got, want, rtol=1e-4):
    """Equal up to float32 rounding, relative to the output's scale."""
    scale = float(np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * scale)


@pytest.mark.parametrize('name', sorted(STRUCTURE))
def test_structure_matches_mxnet(name):
    """repr, collect_params() names/shapes/order and save_parameters names, as MXNet 1.9.1."""
    ref = STRUCTURE[name]
    net = fresh(name)
    assert repr(net) == ref['repr']
    side = 299 if name == 'inceptionv3' else 224
    net.infer_shape(nd.zeros((1, 3, side, side)))
    assert [[k, list(p.shape)] for k, p in net.collect_params().items()] == ref['params']
    assert list(net._collect_params_with_prefix()) == ref['structural']
    assert repr(net) == ref['repr_after']


@pytest.mark.parametrize('name', sorted(FORWARD))
def test_forward_matches_mxnet(name):
    """Inference output on the same weights and input as MXNet (classes=10), hybridized."""
    if name in SLOW and not ALL_MODELS:
        pytest.skip('slow on CPU (XLA compilation): set GLUONJAX_TEST_ALL_MODELS=1')
    x = image(FORWARD[name])
    assert_close(ready(name, x)(x).asnumpy(), OUTPUTS[name])


def test_resnet18_v1_inference_training_gradients_export(tmp_path):
    """resnet18_v1 hybridized: inference output, training-mode output (batch statistics) and
    gradients as MXNet's; export writes MXNet's graph, and SymbolBlock.imports of it gives the
    same output."""
    x = image(64)
    net = ready('resnet18_v1', x, grad=True)
    want = net(x).asnumpy()
    assert_close(want, OUTPUTS['resnet18_v1'])

    xt = image(64, batch=2, seed=8)
    with autograd.record():
        out = net(xt)
    out.backward()
    assert_close(out.asnumpy(), OUTPUTS['train_resnet18_v1'])
    assert_close(net.features[0].weight.grad().asnumpy(), OUTPUTS['train_resnet18_v1_grad_conv0'],
                 rtol=1e-3)
    assert_close(net.output.weight.grad().asnumpy(), OUTPUTS['train_resnet18_v1_grad_dense'],
                 rtol=1e-3)

    prefix = str(tmp_path / 'resnet18_v1')
    net.export(prefix)  # returns None, as in MXNet 1.x
    sym_file, param_file = prefix + '-symbol.json', prefix + '-0000.params'
    assert param_file.endswith('resnet18_v1-0000.params')
    keys = set(nd.load(param_file))
    assert 'arg:resnetv10_conv0_weight' in keys and 'aux:resnetv10_batchnorm0_running_mean' in keys
    assert len(keys) == len(STRUCTURE['resnet18_v1']['params'])
    assert graph_nodes(sym_file) == graph_nodes(os.path.join(DATA, 'resnet18_v1-symbol.json'))
    block = gluon.SymbolBlock.imports(sym_file, ['data'], param_file)
    # the training-mode pass updated the running statistics: compare with the net, not MXNet
    assert_close(block(x).asnumpy(), net(x).asnumpy(), rtol=1e-5)


def test_load_mxnet_save_parameters_file():
    """A file from MXNet's save_parameters (structural names, 'features.0.weight')."""
    net = fresh('mobilenetv2_0.25', classes=10)
    net.load_parameters(os.path.join(DATA, 'mobilenetv2_0.25.params'))
    net.hybridize()
    assert_close(net(image(224)).asnumpy(), OUTPUTS['mobilenetv2_0.25'])


def test_load_mxnet_prefixed_file_whatever_the_counters():
    """A file from MXNet's collect_params().save (full names, 'squeezenet0_conv0_weight') loads,
    also into a net whose prefix differs (squeezenet1_ after another model was built)."""
    with mx.name.NameManager():
        vision.squeezenet1_1(classes=10)
        net = vision.squeezenet1_1(classes=10)
    assert net.prefix == 'squeezenet1_'
    net.load_parameters(os.path.join(DATA, 'squeezenet1.1_prefixed.params'))
    net.hybridize()
    assert_close(net(image(224)).asnumpy(), OUTPUTS['squeezenet1.1'])


def test_get_model_names_and_errors():
    assert mx.gluon.model_zoo.vision.get_model is vision.get_model
    assert isinstance(vision.get_model('ResNet18_V1'), vision.ResNetV1)
    assert isinstance(vision.get_model('mobilenetv2_0.5'), vision.MobileNetV2)
    with pytest.raises(ValueError, match=r'Model resnet19_v1 is not supported\. Available options'
                                         r' are\n\talexnet\n\tdensenet121'):
        vision.get_model('resnet19_v1')
    net = vision.resnet18_v1(classes=7, thumbnail=True)
    assert repr(net.features[0]) == 'Conv2D(None -> 64, kernel_size=(3, 3), stride=(1, 1), ' \
                                    'padding=(1, 1), bias=False)'
    net.infer_shape(nd.zeros((1, 3, 32, 32)))
    assert net.output.weight.shape == (7, 512)
    assert len(vision.vgg11(batch_norm=True).features) == len(vision.vgg11_bn().features)


def test_model_file_names_follow_mxnet():
    """``<name>-<8 hex digits of the sha1>.params``, MXNet's names for its published files."""
    assert model_store.short_hash('resnet18_v1') == 'a0666292'
    assert model_store.short_hash('mobilenetv2_0.25') == 'ae8f9392'
    # (a subset: GluonNLP adds its own models to this table when imported, as it does with MXNet's)
    assert set(STRUCTURE) <= set(model_store._model_sha1)
    with pytest.raises(ValueError, match='Pretrained model for resnet19_v1 is not available'):
        model_store.short_hash('resnet19_v1')
    assert model_store.DEFAULT_ROOT.endswith(os.path.join('.mxnet', 'models'))


def test_pretrained_missing_file_says_where_to_put_it(tmp_path):
    with pytest.raises(ValueError, match=r"resnet18_v1-a0666292\.params'.*never downloads"):
        vision.resnet18_v1(pretrained=True, root=str(tmp_path))
    assert os.listdir(tmp_path) == []  # nothing written, nothing fetched


def test_pretrained_checks_sha1_then_loads(tmp_path, monkeypatch):
    """A file under MXNet's name with other content is refused; with the right sha1 it loads."""
    src = os.path.join(DATA, 'mobilenetv2_0.25.params')
    shutil.copy(src, tmp_path / 'mobilenetv2_0.25-ae8f9392.params')
    with pytest.raises(ValueError, match=r"is not MXNet's pretrained 'mobilenetv2_0.25'"):
        vision.mobilenet_v2_0_25(pretrained=True, root=str(tmp_path), classes=10)
    sha1 = hashlib.sha1(open(src, 'rb').read()).hexdigest()
    monkeypatch.setitem(model_store._model_sha1, 'mobilenetv2_0.25', sha1)
    shutil.copy(src, tmp_path / ('mobilenetv2_0.25-%s.params' % sha1[:8]))
    with mx.name.NameManager():
        net = vision.get_model('mobilenetv2_0.25', pretrained=True, root=str(tmp_path),
                               classes=10, ctx=mx.cpu())
    saved = nd.load(src)
    for key, param in net._collect_params_with_prefix().items():
        np.testing.assert_array_equal(param.data().asnumpy(), saved[key].asnumpy())
    model_store.purge(str(tmp_path))
    assert os.listdir(tmp_path) == []
