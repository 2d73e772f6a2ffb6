"""gluon.Parameter, Constant, ParameterDict and MXNet's names (checked against real MXNet 1.9)."""
import json
import os
import warnings

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax import name as mxname
from gluonjax.gluon import nn

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'gluon')


def expected():
    with open(os.path.join(REF, 'expected.json')) as f:
        return json.load(f)


# ---- Parameter ------------------------------------------------------------------------------

def test_parameter_basics_and_repr():
    p = gluon.Parameter('fc_weight', shape=3, lr_mult=2.0, wd_mult=0.5)
    assert p.shape == (3,)
    assert repr(p) == "Parameter fc_weight (shape=(3,), dtype=<class 'numpy.float32'>)"
    assert p.lr_mult == 2.0 and p.wd_mult == 0.5 and p.grad_req == 'write'
    with pytest.raises(RuntimeError, match="Parameter 'fc_weight' has not been initialized"):
        p.data()
    p.initialize(mx.init.Constant(1.5))
    assert p.data().asnumpy().tolist() == [1.5, 1.5, 1.5]
    assert p.grad().asnumpy().tolist() == [0, 0, 0]
    assert p.list_ctx() == [mx.cpu()]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        p.initialize()
    assert 'already initialized' in str(w[0].message)
    p.initialize(mx.init.Zero(), force_reinit=True)
    assert p.data().asnumpy().tolist() == [0, 0, 0]


def test_deferred_initialisation_error_and_shape_rules():
    p = gluon.Parameter('w', shape=(4, 0), allow_deferred_init=True)
    p.initialize()
    with pytest.raises(gluon.DeferredInitializationError, match='deferred'):
        p.data()
    with pytest.raises(AssertionError, match='incompatible'):
        p.shape = (5, 3)
    p.shape = (4, 3)
    p._finish_deferred_init()
    assert p.data().shape == (4, 3)
    q = gluon.Parameter('q', shape=(0,))
    with pytest.raises(ValueError, match='invalid shape'):
        q.initialize()


def test_parameter_on_several_contexts():
    ctxs = [mx.cpu(0), mx.cpu(1)]
    p = gluon.Parameter('w', shape=(2, 2))
    p.initialize(mx.init.One(), ctx=ctxs)
    assert len(p.list_data()) == 2 and len(p.list_grad()) == 2
    assert p.data(mx.cpu(1)).context == mx.cpu(1)
    with pytest.raises(RuntimeError, match='was not initialized on context cpu\\(2\\)'):
        p.data(mx.cpu(2))
    p.set_data(nd.array([[1, 2], [3, 4]]))
    for arr in p.list_data():
        assert arr.asnumpy().tolist() == [[1, 2], [3, 4]]
    p.reset_ctx(mx.cpu(2))
    assert p.list_ctx() == [mx.cpu(2)] and p.data().asnumpy().tolist() == [[1, 2], [3, 4]]


def test_gradients_flow_into_parameter_grad_and_grad_req():
    p = gluon.Parameter('w', shape=(3,))
    p.initialize(mx.init.Constant(2.0))
    x = nd.array([1, 2, 3])
    with autograd.record():
        y = (p.data() * x).sum()
    y.backward()
    assert p.grad().asnumpy().tolist() == [1, 2, 3]
    p.grad_req = 'add'
    for _ in range(2):
        with autograd.record():
            y = (p.data() * x).sum()
        y.backward()
    assert p.grad().asnumpy().tolist() == [2, 4, 6]  # new buffers when grad_req changes, as MXNet
    p.zero_grad()
    assert p.grad().asnumpy().tolist() == [0, 0, 0]
    p.grad_req = 'null'
    with pytest.raises(RuntimeError, match="grad_req='null'"):
        p.grad()
    with autograd.record():
        y = p.data() * x
    assert y._ag is None  # detached: nothing recorded
    p.grad_req = 'write'
    assert p.grad().asnumpy().tolist() == [0, 0, 0]
    with pytest.raises(AssertionError, match="grad_req must be one of"):
        p.grad_req = 'bad'


def test_cast_and_not_differentiable():
    p = gluon.Parameter('w', shape=(2,))
    p.initialize(mx.init.One())
    p.cast('float16')
    assert p.data().dtype == np.float16 and p.grad().dtype == np.float16
    q = gluon.Parameter('running_mean', shape=(2,), differentiable=False, grad_req='write')
    assert q.grad_req == 'null'


def test_constant():
    c = gluon.Constant('const', [[1, 2], [3, 4]])
    assert repr(c) == "Constant const (shape=(2, 2), dtype=<class 'numpy.float32'>)"
    c.initialize()
    assert c.data().asnumpy().tolist() == [[1, 2], [3, 4]]
    assert c.grad_req == 'null'
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        c.grad_req = 'write'
    assert c.grad_req == 'null' and 'does not support' in str(w[0].message)


def test_tensor_types_is_exported_from_gluon():
    """MXNet's gluon star-imports gluon.parameter, so libraries test ``isinstance(x, mx.gluon.tensor_types)``."""
    assert gluon.tensor_types == gluon.parameter.tensor_types == (mx.sym.Symbol, nd.NDArray)
    assert 'tensor_types' in dir(gluon)


# ---- ParameterDict --------------------------------------------------------------------------

def test_parameter_dict_get_share_and_merge():
    pd = gluon.ParameterDict('net_')
    w = pd.get('weight', shape=(3, 0))
    assert w.name == 'net_weight' and pd.get('weight') is w
    assert pd.get('weight', shape=(3, 4)) is w and w.shape == (3, 4)
    with pytest.raises(AssertionError, match="desired attribute does not match"):
        pd.get('weight', lr_mult=3.0)
    shared = gluon.ParameterDict('net_', shared=pd)
    assert shared.get('weight') is w
    c = pd.get_constant('c', [1, 2])
    assert pd.get_constant('c') is c
    with pytest.raises(KeyError):
        pd.get_constant('missing')
    other = gluon.ParameterDict('net_')
    other.get('weight')
    with pytest.raises(AssertionError, match='different Parameters with the same name'):
        pd.update(other)
    assert repr(pd).startswith('net_ (\n  Parameter net_weight (shape=(3, 4)')
    assert list(pd.keys()) == ['net_weight', 'net_c'] and len(pd) == 2 and 'net_c' in pd


def test_collect_params_select_setattr_zero_grad():
    with mxname.NameManager():
        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Dense(3, in_units=2), nn.Dense(4, in_units=3))
    assert list(net.collect_params('.*weight').keys()) == [
        'hybridsequential0_dense0_weight', 'hybridsequential0_dense1_weight']
    assert list(net.collect_params('.*dense1.*').keys()) == [
        'hybridsequential0_dense1_weight', 'hybridsequential0_dense1_bias']
    params = net.collect_params()
    params.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    assert set(params.list_ctx()) == {mx.cpu(0), mx.cpu(1)}
    params.setattr('lr_mult', 0.5)
    assert all(p.lr_mult == 0.5 for p in params.values())
    params.setattr('grad_req', 'null')
    assert all(p.grad_req == 'null' for p in params.values())


# ---- names and printed forms, compared with MXNet 1.9 ---------------------------------------

def _lenet():
    net = nn.Sequential()
    with net.name_scope():
        net.add(nn.Conv2D(channels=20, kernel_size=5, activation='relu'),
                nn.MaxPool2D(pool_size=2, strides=2),
                nn.Conv2D(channels=50, kernel_size=5, activation='relu'),
                nn.MaxPool2D(pool_size=2, strides=2),
                nn.Flatten(),
                nn.Dense(500, activation='relu'),
                nn.Dense(10))
    return net


class Custom(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.body = nn.HybridSequential()
            self.body.add(nn.Dense(4), nn.Dense(2))
            self.scale = self.params.get('scale', shape=(2,))

    def hybrid_forward(self, F, x, scale):
        return F.broadcast_mul(self.body(x), scale)


def _names(net):
    return {'params': list(net.collect_params().keys()),
            'shapes': [list(p.shape) for p in net.collect_params().values()],
            'structural': list(net._collect_params_with_prefix().keys()),
            'repr': repr(net), 'prefix': net.prefix}


def test_names_and_repr_match_mxnet():
    exp = expected()
    with mxname.NameManager():
        assert _names(_lenet()) == exp['lenet']
    with mxname.NameManager():
        net = nn.HybridSequential()
        net.add(nn.Dense(3), nn.Dense(4, in_units=3), nn.BatchNorm(in_channels=4), nn.Dense(5))
        assert _names(net) == exp['noscope']
    with mxname.NameManager():
        assert _names(Custom()) == exp['custom']


def _layers():
    return [
        nn.Dense(10, activation='relu', in_units=4), nn.Dense(3, use_bias=False, flatten=False),
        nn.Conv1D(4, 3, padding=1, dilation=2, groups=2, use_bias=False, activation='tanh'),
        nn.Conv2D(8, (3, 2), strides=2, in_channels=4), nn.Conv3D(2, 1, layout='NDHWC'),
        nn.Conv1DTranspose(3, 2), nn.Conv2DTranspose(4, 3, strides=2, output_padding=1, in_channels=2),
        nn.Conv3DTranspose(2, 2, groups=2, in_channels=4),
        nn.MaxPool1D(), nn.MaxPool2D(3, 1, 1), nn.MaxPool3D(ceil_mode=True), nn.AvgPool1D(3),
        nn.AvgPool2D(), nn.AvgPool3D(count_include_pad=False), nn.GlobalMaxPool1D(),
        nn.GlobalMaxPool2D(), nn.GlobalMaxPool3D(), nn.GlobalAvgPool1D(), nn.GlobalAvgPool2D(),
        nn.GlobalAvgPool3D(), nn.BatchNorm(), nn.BatchNorm(axis=-1, momentum=0.5, scale=False,
                                                           in_channels=3),
        nn.LayerNorm(), nn.LayerNorm(axis=1, in_channels=5), nn.InstanceNorm(),
        nn.GroupNorm(num_groups=2), nn.Dropout(0.5), nn.Dropout(0.25, axes=(1,)),
        nn.Embedding(10, 4), nn.Flatten(), nn.Activation('sigmoid'), nn.LeakyReLU(0.1),
        nn.PReLU(), nn.ELU(), nn.SELU(), nn.Swish(), nn.GELU(), nn.Lambda('tanh'),
        nn.HybridLambda('relu'),
    ]


def test_every_layer_name_shape_and_repr_match_mxnet():
    with mxname.NameManager():
        ours = [[type(layer).__name__, layer.prefix, repr(layer), list(layer.collect_params().keys()),
                 [list(p.shape) for p in layer.collect_params().values()]] for layer in _layers()]
    for got, want in zip(ours, expected()['layers']):
        assert got == want


def test_unregistered_container_warns():
    class Bad(gluon.Block):
        def __init__(self):
            super().__init__()
            self.layers = [nn.Dense(2)]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        Bad().collect_params()
    assert any('unregistered container' in str(x.message) for x in w)


def test_hybrid_block_children_must_be_hybrid():
    with pytest.raises(ValueError, match='Children of HybridBlock must also be HybridBlock'):
        nn.HybridSequential().add(nn.Sequential())


def test_row_sparse_parameter_is_read_through_its_trainer_by_rows():
    p = gluon.Parameter('weight', shape=(4, 2), stype='row_sparse')
    p.initialize(init=mx.init.Constant(3.0), ctx=[mx.cpu(0), mx.cpu(1)])
    assert p._data[0].stype == 'row_sparse'
    with pytest.raises(RuntimeError, match='row_sparse_data'):
        p.data()
    with pytest.raises(RuntimeError, match='row_sparse_data'):
        p.list_data()
    row_id = mx.nd.array([0, 2], ctx=mx.cpu(1))
    with pytest.raises(RuntimeError, match='no Trainer'):
        p.row_sparse_data(row_id)
    gluon.Trainer([p], 'sgd')
    rows = p.row_sparse_data(row_id)
    assert rows.stype == 'row_sparse' and rows.context == mx.cpu(1)
    np.testing.assert_array_equal(rows.asnumpy(), [[3, 3], [0, 0], [3, 3], [0, 0]])
    assert [r.context for r in p.list_row_sparse_data(row_id)] == [mx.cpu(0), mx.cpu(1)]


def test_dense_parameter_refuses_row_sparse_reads_and_symbol_block_refuses_row_sparse_vars():
    p = gluon.Parameter('weight', shape=(3, 3))
    p.initialize()
    with pytest.raises(RuntimeError, match='data\\(\\) instead'):
        p.row_sparse_data(mx.nd.array([0]))
    data, weight = mx.sym.var('data'), mx.sym.var('weight', stype='row_sparse')
    with pytest.raises(AssertionError, match="Parameter 'weight' because its storage type is 'row_sparse'"):
        gluon.SymbolBlock(mx.sym.dot(data, weight), data)


def test_unknown_dimensions_read_minus_one_under_numpy_shapes():
    """MXNet stores 0 for an unknown dimension and shows it as -1 under npx.set_np() (where 0 is a
    size); gluon.utils.shape_is_known follows the same rule."""
    from gluonjax import np as mnp, npx
    known = gluon.utils.shape_is_known
    dense = nn.Dense(4)
    assert dense.weight.shape == (4, 0) and known((2, 3)) and not known((0, 3))
    with pytest.raises(AssertionError):
        known((-1, 3))
    npx.set_np()
    try:
        assert dense.weight.shape == (4, -1) and repr(dense) == 'Dense(-1 -> 4, linear)'
        assert known((0, 3)) and not known((-1, 3))
        p = gluon.Parameter('p', shape=(-1, 3))
        p.shape = (5, 3)  # an unknown dimension, given as -1, is filled in
        assert p.shape == (5, 3)
        dense.initialize()
        dense(mnp.ones((2, 7)))
        assert dense.weight.shape == (4, 7)
    finally:
        npx.reset_np()
