"""Networks MXNet 1.9.1 exported in NumPy mode load and give MXNet's outputs.

After ``npx.set_np()`` MXNet writes its NumPy operators (``_npi_exp``, ``_npx_relu``, ``_np_moveaxis``,
...) into -symbol.json. tests/data/np_mode holds four such networks (a multilayer perceptron, a
CNN, elementwise maths, shape operations) with MXNet's outputs on a fixed input, made by
tests/data/np_mode/make_np_mode_files.py.
"""
import json
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import npx
from gluonjax.ops import find_op

DATA = os.path.join(os.path.dirname(__file__), 'data', 'np_mode')
NETWORKS = ('mlp', 'cnn', 'maths', 'shapes')


def _path(name, suffix):
    return os.path.join(DATA, name + suffix)


def _expected(name):
    count = len([f for f in os.listdir(DATA) if f.startswith(name + '-output')])
    return [np.load(_path(name, '-output%d.npy' % i)) for i in range(count)]


@pytest.fixture
def np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _check(outs, name):
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    expected = _expected(name)
    assert len(outs) == len(expected)
    for i, (out, want) in enumerate(zip(outs, expected)):
        got = out.asnumpy()
        assert got.shape == want.shape, (name, i)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg='%s output %d' % (name, i))


@pytest.mark.parametrize('name', NETWORKS)
def test_symbol_block_imports_gives_mxnets_outputs(name, np_mode):
    net = mx.gluon.SymbolBlock.imports(_path(name, '-symbol.json'), ['data'], _path(name, '-0000.params'))
    _check(net(mx.np.array(np.load(_path(name, '-input.npy')))), name)


@pytest.mark.parametrize('name', NETWORKS)
def test_symbol_load_and_bind_gives_mxnets_outputs(name, np_mode):
    sym = mx.sym.load(_path(name, '-symbol.json'))
    params = mx.nd.load(_path(name, '-0000.params')) or {}  # a network without parameters saves a list
    args = {k[4:]: v.as_np_ndarray() for k, v in params.items() if k.startswith('arg:')}
    aux = {k[4:]: v.as_np_ndarray() for k, v in params.items() if k.startswith('aux:')}
    args['data'] = mx.np.array(np.load(_path(name, '-input.npy')))
    executor = sym.bind(mx.cpu(), args, aux_states=aux)
    _check(executor.forward(is_train=False), name)


def test_the_files_use_numpy_mode_operators():
    """The files hold what they are meant to test: MXNet's NumPy-mode names (the layers keep their
    legacy names, Convolution & co.), each in the table and written back under its own name."""
    numpy_mode = set()
    for name in NETWORKS:
        with open(_path(name, '-symbol.json')) as f:
            ops = {node['op'] for node in json.load(f)['nodes']} - {'null'}
        assert all(find_op(op) is not None for op in ops), name
        round_trip = json.loads(mx.sym.load(_path(name, '-symbol.json')).tojson())
        assert {node['op'] for node in round_trip['nodes']} - {'null'} == ops, name
        numpy_mode |= {op for op in ops if op.startswith(('_npi_', '_npx_', '_np_'))}
    assert len(numpy_mode) >= 50, sorted(numpy_mode)
