"""HybridBlock.export and SymbolBlock: round trips with one and several inputs, files written by
MXNet 1.9, and our files loaded by real MXNet (when /tmp/mxref exists)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax import name as mxname
from gluonjax.base import MXNetError

sys.path.insert(0, os.path.dirname(__file__))
from test_gluon_block import Affine, TwoHeads, _x  # noqa: E402

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'gluon')
MXREF = '/tmp/mxref/bin/python'


def _export(net, path, epoch=0):
    """net.export returns None, as in MXNet 1.x: the names of the files it wrote."""
    assert net.export(path, epoch=epoch) is None
    return path + '-symbol.json', '%s-%04d.params' % (path, epoch)


def _flat(out):
    if isinstance(out, (list, tuple)):
        return [o for item in out for o in _flat(item)]
    return [out]


def test_export_before_running_raises(tmp_path):
    net = Affine()
    net.initialize()
    with pytest.raises(RuntimeError, match='hybridize.*at least once'):
        net.export(str(tmp_path / 'x'))


def test_export_imports_one_input(tmp_path):
    net = Affine()
    net.initialize(mx.init.Uniform(1.0))
    net.hybridize()
    x = _x()
    y = net(x)
    sym_file, param_file = _export(net, str(tmp_path / 'affine'), 3)
    assert param_file.endswith('affine-0003.params')
    graph = json.load(open(sym_file))
    data = [n for n in graph['nodes'] if n['name'] == 'data'][0]
    assert 'attrs' not in data          # no batch size baked into the input
    assert sorted(nd.load(param_file)) == ['arg:%s' % n for n in sorted(net.collect_params().keys())]
    block = gluon.SymbolBlock.imports(sym_file, ['data'], param_file)
    np.testing.assert_allclose(block(x).asnumpy(), y.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(block(_x((5, 3))).asnumpy(), net(_x((5, 3))).asnumpy(), rtol=1e-6)
    assert repr(block).startswith('SymbolBlock(\n<Symbol')


def test_export_imports_several_inputs_and_outputs(tmp_path):
    net = TwoHeads()
    net.initialize(mx.init.Uniform(1.0))
    net.hybridize()
    a, b = _x((2, 3), 1), _x((2, 3), 2)
    want = [o.asnumpy() for o in _flat(net(a, b))]
    sym_file, param_file = _export(net, str(tmp_path / 'two'))
    block = gluon.SymbolBlock.imports(sym_file, ['data0', 'data1'], param_file)
    got = [o.asnumpy() for o in _flat(block(a, b))]
    assert len(got) == 3
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)
    # gradients flow into the imported Parameters
    with autograd.record():
        out = block(a, b)
        total = out[0].sum() + out[1].sum() + out[2].sum()
    total.backward()
    grads = {k.split('_', 1)[1]: p.grad().asnumpy() for k, p in block.collect_params().items()}
    with autograd.record():
        out = _flat(net(a, b))
        total = out[0].sum() + out[1].sum() + out[2].sum()
    total.backward()
    for k, p in net.collect_params().items():
        np.testing.assert_allclose(grads[k.split('_', 1)[1]], p.grad().asnumpy(), rtol=1e-5)


def test_symbol_block_from_symbols_shares_parameters():
    net = Affine()
    net.initialize(mx.init.Uniform(1.0))
    data = mx.sym.var('data')
    block = gluon.SymbolBlock(net(data), data, params=net.collect_params())
    x = _x()
    np.testing.assert_allclose(block(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
    assert block.collect_params()[net.weight.name] is net.weight
    # a SymbolBlock called on a Symbol composes its graph
    out = block(mx.sym.var('other'))
    assert 'other' in out.list_arguments()
    with pytest.raises(AssertionError):
        gluon.SymbolBlock(net(data), [net(data)])  # inputs must be variables


def test_imports_without_parameter_file_infers_shapes():
    with mxname.NameManager():
        net = Affine()
    net.initialize()
    net.hybridize()
    net(_x())
    data = mx.sym.var('data')
    block = gluon.SymbolBlock(net(data), data)
    block.initialize(mx.init.One())
    assert block(_x()).shape == (2, 3)


# ---- files written by MXNet 1.9 ------------------------------------------------------------

def test_mxnet_exported_convnet_runs_and_matches():
    io = nd.load(os.path.join(REF, 'convnet_io.params'))
    block = gluon.SymbolBlock.imports(os.path.join(REF, 'convnet-symbol.json'), ['data'],
                                      os.path.join(REF, 'convnet-0000.params'))
    np.testing.assert_allclose(block(io['x']).asnumpy(), io['y_pred'].asnumpy(), rtol=1e-4, atol=1e-5)
    block.hybridize()
    np.testing.assert_allclose(block(io['x']).asnumpy(), io['y_pred'].asnumpy(), rtol=1e-4, atol=1e-5)


def test_mxnet_exported_two_input_block_matches():
    io = nd.load(os.path.join(REF, 'twoin_io.params'))
    block = gluon.SymbolBlock.imports(os.path.join(REF, 'twoin-symbol.json'), ['data0', 'data1'],
                                      os.path.join(REF, 'twoin-0000.params'))
    y1, y2 = block(io['a'], io['b'])
    np.testing.assert_allclose(y1.asnumpy(), io['y1'].asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y2.asnumpy(), io['y2'].asnumpy(), rtol=1e-5, atol=1e-6)


# ---- our files in real MXNet ---------------------------------------------------------------

_MX_SCRIPT = r'''
import sys, numpy as np, mxnet as mx
sym_file, param_file, n_in, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
names = ['data'] if n_in == 1 else ['data%d' % i for i in range(n_in)]
block = mx.gluon.SymbolBlock.imports(sym_file, names, param_file)
inputs = [mx.nd.array(np.load(out + '_in%d.npy' % i)) for i in range(n_in)]
res = block(*inputs)
res = res if isinstance(res, (list, tuple)) else [res]
for i, r in enumerate(res):
    np.save(out + '_out%d.npy' % i, r.asnumpy())
'''


def _convnet_from_mxnet_params():
    from test_gluon_save_load import convnet
    net = convnet()
    net.load_parameters(os.path.join(REF, 'convnet-structural.params'))
    net.hybridize()
    return net


def test_convnet_built_here_matches_mxnet_and_exports_aux_states(tmp_path):
    io = nd.load(os.path.join(REF, 'convnet_io.params'))
    net = _convnet_from_mxnet_params()
    np.testing.assert_allclose(net(io['x']).asnumpy(), io['y_pred'].asnumpy(), rtol=1e-4, atol=1e-5)
    sym_file, param_file = _export(net, str(tmp_path / 'convnet'))
    names = sorted(nd.load(param_file))
    assert 'aux:%sbatchnorm0_running_mean' % net.prefix in names
    assert 'arg:%sbatchnorm0_gamma' % net.prefix in names
    block = gluon.SymbolBlock.imports(sym_file, ['data'], param_file)
    np.testing.assert_allclose(block(io['x']).asnumpy(), io['y_pred'].asnumpy(), rtol=1e-4, atol=1e-5)
    # training mode: batch statistics, gradients and running statistics as MXNet computed them
    with autograd.record():
        y = net(io['x'])
    y.backward()
    np.testing.assert_allclose(y.asnumpy(), io['y_train'].asnumpy(), rtol=1e-4, atol=1e-5)
    for name, p in net.collect_params().items():
        key = name[len(net.prefix):]
        if p.grad_req != 'null':
            want = io['grad:hybridsequential0_' + key].asnumpy()
            np.testing.assert_allclose(p.grad().asnumpy(), want, rtol=1e-3, atol=1e-5, err_msg=name)
        else:
            want = io['after:hybridsequential0_' + key].asnumpy()
            np.testing.assert_allclose(p.data().asnumpy(), want, rtol=1e-4, atol=1e-6, err_msg=name)


@pytest.mark.skipif(not os.path.exists(MXREF), reason='reference MXNet not installed')
def test_our_convnet_export_loads_in_real_mxnet(tmp_path):
    io = nd.load(os.path.join(REF, 'convnet_io.params'))
    net = _convnet_from_mxnet_params()
    net(io['x'])
    sym_file, param_file = _export(net, str(tmp_path / 'net'))
    prefix = str(tmp_path / 'io')
    np.save(prefix + '_in0.npy', io['x'].asnumpy())
    script = tmp_path / 'run.py'
    script.write_text(_MX_SCRIPT)
    proc = subprocess.run([MXREF, str(script), sym_file, param_file, '1', prefix],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    np.testing.assert_allclose(np.load(prefix + '_out0.npy'), io['y_pred'].asnumpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(not os.path.exists(MXREF), reason='reference MXNet not installed')
@pytest.mark.parametrize('two', [False, True])
def test_our_export_loads_in_real_mxnet(tmp_path, two):
    net = TwoHeads() if two else Affine()
    net.initialize(mx.init.Uniform(1.0))
    net.hybridize()
    inputs = [_x((2, 3), 1), _x((2, 3), 2)] if two else [_x()]
    want = [o.asnumpy() for o in _flat(net(*inputs))]
    sym_file, param_file = _export(net, str(tmp_path / 'net'))
    prefix = str(tmp_path / 'io')
    for i, x in enumerate(inputs):
        np.save(prefix + '_in%d.npy' % i, x.asnumpy())
    script = tmp_path / 'run.py'
    script.write_text(_MX_SCRIPT)
    proc = subprocess.run([MXREF, str(script), sym_file, param_file, str(len(inputs)), prefix],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for i, w in enumerate(want):
        np.testing.assert_allclose(np.load(prefix + '_out%d.npy' % i), w, rtol=1e-5, atol=1e-6)
