"""Graph partitioning by MXNet's subgraph API (symbol/_partition.py): chosen operators grouped
into _CachedOp nodes, the graph computing what it computed."""
import ctypes
import json

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError, SymbolHandle, _LIB, c_str, c_str_array, check_call, mx_uint
from gluonjax.gluon import nn
from gluonjax.symbol._partition import partition


def _ops(sym):
    return [n['op'] for n in json.loads(sym.tojson())['nodes'] if n['op'] != 'null']


def _same_outputs(original, partitioned, shapes):
    rng = np.random.RandomState(0)
    values = {}
    arg_shapes, _, aux_shapes = original.infer_shape(**shapes)
    for name, shape in zip(original.list_arguments() + original.list_auxiliary_states(), arg_shapes + aux_shapes):
        values[name] = mx.nd.array(rng.uniform(size=shape))
    outs = []
    for sym in (original, partitioned):
        args = {n: values[n] for n in sym.list_arguments()}
        aux = {n: values[n] for n in sym.list_auxiliary_states()}
        outs.append([o.asnumpy() for o in sym.bind(mx.cpu(), args, aux_states=aux, grad_req='null').forward()])
    assert len(outs[0]) == len(outs[1])
    for a, b in zip(*outs):
        np.testing.assert_array_equal(a, b)


def test_a_chain_of_chosen_operators_becomes_one_node():
    data = mx.sym.var('data')
    net = mx.sym.BatchNorm(mx.sym.cos(mx.sym.exp(data)) + mx.sym.sin(mx.sym.exp(data)), name='bn')
    part = partition(net, ['exp', 'sin', 'cos', 'elemwise_add', '_plus', 'BatchNorm'])
    assert _ops(part) == ['_CachedOp']
    assert part.list_inputs() == net.list_inputs()
    assert part.list_arguments() == net.list_arguments()
    assert part.list_auxiliary_states() == net.list_auxiliary_states() == ['bn_moving_mean', 'bn_moving_var']
    _same_outputs(net, part, {'data': (2, 3, 4, 4)})


def test_a_group_never_closes_a_cycle():
    # sin -> cos^6 -> plus, with sin and plus chosen: one group would both feed and read the cos chain
    data = mx.sym.var('data')
    first = mx.sym.sin(data)
    chain = first
    for _ in range(6):
        chain = mx.sym.cos(chain)
    net = first + chain
    part = partition(net, ['sin', 'elemwise_add', '_plus'])
    assert _ops(part).count('_CachedOp') == 2 and _ops(part).count('cos') == 6
    _same_outputs(net, part, {'data': (5,)})


def test_unchosen_and_unknown_names_leave_the_graph():
    data = mx.sym.var('data')
    net = mx.sym.exp(data)
    assert partition(net, []) is net
    assert partition(net, ['no_such_op']) is net


def test_outputs_read_twice_and_repeated_heads():
    data = mx.sym.var('data')
    plus = mx.sym.sin(data) + mx.sym.sin(data)
    net = mx.sym.Group([mx.sym.cos(plus) - mx.sym.cos(plus), plus, plus])
    part = partition(net, ['sin', 'elemwise_add', '_plus'])
    assert _ops(part).count('_CachedOp') == 1 and len(part.list_outputs()) == 3
    _same_outputs(net, part, {'data': (3,)})


def test_optimize_for_uses_the_names_set_through_the_c_api():
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(mx.sym.exp(data), num_hidden=3, name='fc')
    check_call(_LIB.MXSetSubgraphPropertyOpNamesV2(c_str('default'), mx_uint(1), c_str_array(['exp'])))
    try:
        part = net.optimize_for('default')
    finally:
        check_call(_LIB.MXRemoveSubgraphPropertyOpNamesV2(c_str('default')))
    assert _ops(part) == ['_CachedOp', 'FullyConnected']
    assert _ops(net.optimize_for('default')) == ['exp', 'FullyConnected']  # names removed: unchanged
    _same_outputs(net, part, {'data': (2, 5)})


def test_build_by_op_names_returns_a_symbol_handle():
    data = mx.sym.var('data')
    net = mx.sym.exp(mx.sym.sin(data))
    out = SymbolHandle()
    check_call(_LIB.MXBuildSubgraphByOpNames(net.handle, c_str('default'), mx_uint(2),
                                             c_str_array(['sin', 'exp']), ctypes.byref(out)))
    part = mx.sym.Symbol(out)
    assert _ops(part) == ['_CachedOp']
    _same_outputs(net, part, {'data': (4,)})


def test_binding_under_mxnet_subgraph_backend_partitions(monkeypatch):
    data = mx.sym.var('data')
    net = mx.sym.cos(mx.sym.sin(data))
    check_call(_LIB.MXSetSubgraphPropertyOpNames(c_str('default'), mx_uint(1), c_str_array(['sin'])))
    monkeypatch.setenv('MXNET_SUBGRAPH_BACKEND', 'default')
    try:
        exe = net.simple_bind(mx.cpu(), data=(3,), grad_req='null')
    finally:
        check_call(_LIB.MXRemoveSubgraphPropertyOpNames(c_str('default')))
    assert _ops(exe._symbol) == ['_CachedOp', 'cos']
    exe.arg_dict['data'][:] = mx.nd.array([0.1, 0.2, 0.3])
    np.testing.assert_allclose(exe.forward()[0].asnumpy(), np.cos(np.sin([0.1, 0.2, 0.3])), rtol=1e-6)


def test_hybridize_with_a_backend_gives_the_same_outputs():
    net = nn.HybridSequential()
    net.add(nn.Dense(8, activation='relu'), nn.Dense(2))
    net.initialize()
    x = mx.nd.array(np.random.RandomState(1).rand(3, 5))
    want = net(x).asnumpy()
    check_call(_LIB.MXSetSubgraphPropertyOpNamesV2(c_str('default'), mx_uint(1), c_str_array(['FullyConnected'])))
    try:
        net.hybridize(backend='default')
        got = net(x).asnumpy()
    finally:
        check_call(_LIB.MXRemoveSubgraphPropertyOpNamesV2(c_str('default')))
    np.testing.assert_array_equal(got, want)


def test_backends_by_name():
    net = mx.sym.exp(mx.sym.var('data'))
    assert net.optimize_for('MKLDNN') is net  # oneDNN's fusions: XLA fuses the graph itself
    with pytest.raises(MXNetError, match="backend 'TensorRT' is not registered"):
        net.optimize_for('TensorRT')
