"""Symbols: construction, MXNet's automatic names, structure queries, attributes, composition,
arithmetic, and shape/type inference (every operator of the table is checked against mx.nd)."""
import copy
import json
import os
import pickle
import sys

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError
from gluonjax.symbol.graph import GraphFunction


REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref')
sys.path.insert(0, REF)
from symbol_nets import NETS  # noqa: E402


# ---- names and structure -------------------------------------------------------------------

def test_variable_and_auto_names():
    with mx.name.NameManager():
        x = mx.sym.var('x')
        a = x + 2
        b = a * x
        c = -b
        d = mx.sym.exp(c)
        e = mx.sym.exp(d)
    assert x.name == 'x' and isinstance(x, mx.sym.Symbol)
    assert [a.name, b.name, c.name, d.name, e.name] == ['_plusscalar0', '_mul0', '_mulscalar0', 'exp0', 'exp1']
    assert e.list_outputs() == ['exp1_output']
    assert e.list_arguments() == ['x'] and e.list_inputs() == ['x'] and e.list_auxiliary_states() == []
    assert c.attr('scalar') == '-1.0' and a.attr('scalar') == '2'
    assert repr(e) == '<Symbol exp1>'


def test_name_override_prefix_and_fresh_counters():
    x = mx.sym.var('x')
    with mx.name.NameManager():
        assert mx.sym.exp(x).name == 'exp0'
        assert mx.sym.exp(x, name='mine').name == 'mine'
        assert mx.sym.exp(x).name == 'exp1'
        with mx.name.Prefix('net_'):
            assert mx.sym.exp(x).name == 'net_exp0'
            assert mx.sym.exp(x, name='given').name == 'net_given'
        assert mx.sym.exp(x).name == 'exp2'


def test_alias_names_node_after_the_function_used():
    # mx.sym.sum_axis is an alias of sum: the node is a 'sum' operator named sum_axis0, as in MXNet
    with mx.name.NameManager():
        s = mx.sym.sum_axis(mx.sym.var('x'), axis=1)
    assert s.name == 'sum_axis0'
    assert '"op": "sum"' in s.tojson()


def test_missing_inputs_become_variables_with_the_ops_attributes():
    # binary ops take lhs/rhs: leaving them out makes <name>_lhs and <name>_rhs as MXNet does
    with mx.name.NameManager():
        s = mx.sym.broadcast_add(name='add')
    assert s.list_arguments() == ['add_lhs', 'add_rhs']
    with mx.name.NameManager():
        c = mx.sym.clip(a_min=0, a_max=1)
    assert c.list_arguments() == ['clip0_data']
    assert c.attr_dict()['clip0_data'] == {'a_max': '1', 'a_min': '0'}


def test_fc_and_batchnorm_variables_and_aux_states():
    with mx.name.NameManager():
        data = mx.sym.var('data')
        fc = mx.sym.FullyConnected(data, num_hidden=10, attr={'__lr_mult__': '2'})
        bn = mx.sym.BatchNorm(fc, fix_gamma=False)
    assert bn.list_arguments() == ['data', 'fullyconnected0_weight', 'fullyconnected0_bias',
                                   'batchnorm0_gamma', 'batchnorm0_beta']
    assert bn.list_auxiliary_states() == ['batchnorm0_moving_mean', 'batchnorm0_moving_var']
    assert bn.list_inputs() == bn.list_arguments() + bn.list_auxiliary_states()
    attrs = bn.attr_dict()
    assert attrs['fullyconnected0_weight'] == {'num_hidden': '10', '__lr_mult__': '2', 'lr_mult': '2'}
    assert attrs['batchnorm0_moving_var'] == {'fix_gamma': 'False', '__init__': '["one", {}]'}
    assert attrs['batchnorm0_moving_mean']['__init__'] == '["zero", {}]'
    assert bn.list_outputs() == ['batchnorm0_output'] and len(bn) == 1
    with mx.name.NameManager():
        no_bias = mx.sym.FullyConnected(data, num_hidden=3, no_bias=True)
    assert no_bias.list_arguments() == ['data', 'fullyconnected0_weight']


def test_dunder_keywords_are_node_attributes():
    # MXNet's Module tests pass layouts this way; MXNet 1.9.1 lists them as the node's attributes
    act = mx.sym.Activation(mx.sym.var('x'), act_type='relu', __layout__='NC', name='a')
    assert act.list_attr() == {'act_type': 'relu', '__layout__': 'NC'}
    assert act.attr('__layout__') == 'NC'
    with pytest.raises(mx.base.MXNetError, match='layout'):
        mx.sym.Activation(mx.sym.var('x'), act_type='relu', layout='NC')


def test_regression_output_takes_any_label_of_the_datas_batch_and_size():
    # MXNet 1.9.1: a (N, 1) label for (N, 1) outputs is as good as the (N,) it infers by itself
    out = mx.sym.LinearRegressionOutput(mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=1),
                                        mx.sym.var('label'), name='out')
    assert out.infer_shape(data=(8, 5), label=(8, 1))[0][-1] == (8, 1)
    assert out.infer_shape(data=(8, 5))[0][-1] == (8,)
    with pytest.raises(mx.base.MXNetError, match='Shape inconsistent'):
        out.infer_shape(data=(8, 5), label=(4, 2))


def test_group_indexing_iteration_and_internals():
    x, y = mx.sym.var('x'), mx.sym.var('y')
    with mx.name.NameManager():
        s = x + y
        t = x * 2
        g = mx.sym.Group([s, t])
    assert len(g) == 2 and g.name is None
    assert repr(g) == '<Symbol group [_plus0, _mulscalar0]>'
    assert g.list_outputs() == ['_plus0_output', '_mulscalar0_output']
    assert g[1].name == '_mulscalar0' and g['_plus0_output'].name == '_plus0' and g[-1].name == '_mulscalar0'
    assert [o.name for o in g] == ['_plus0', '_mulscalar0']
    assert g[0:2].list_outputs() == g.list_outputs()
    assert g.list_arguments() == ['x', 'y']
    internals = g.get_internals()
    assert internals.list_outputs() == ['x', 'y', '_plus0_output', '_mulscalar0_output']
    assert s.get_children().list_outputs() == ['x', 'y'] and x.get_children() is None
    with pytest.raises(ValueError, match='Cannot find output that matches name "nope"'):
        g['nope']
    with pytest.raises(IndexError):
        g[2]
    with pytest.raises(TypeError, match='list of symbols'):
        mx.sym.Group([s, 3])


def test_multi_output_op_outputs():
    x = mx.sym.var('x')
    with mx.name.NameManager():
        parts = mx.sym.split(x, num_outputs=3, axis=1)
    assert len(parts) == 3 and parts.name == 'split0' and repr(parts) == '<Symbol split0>'
    assert parts.list_outputs() == ['split0_output0', 'split0_output1', 'split0_output2']
    assert parts[1].list_outputs() == ['split0_output1']
    with pytest.raises(MXNetError, match='single output'):
        mx.sym.exp(parts)


def test_attributes():
    w = mx.sym.var('w', shape=(2, 3), dtype='float16', lr_mult=2.0, wd_mult=0.5, init='zeros', __extra__='1')
    assert w.attr('__shape__') == '(2, 3)' and w.attr('__dtype__') == '2'
    assert w.attr('lr_mult') == '2.0' and w.attr('__lr_mult__') == '2.0'
    assert w.list_attr() == {'__shape__': '(2, 3)', '__dtype__': '2', '__lr_mult__': '2.0', '__wd_mult__': '0.5',
                             '__init__': 'zeros', '__extra__': '1', 'lr_mult': '2.0', 'wd_mult': '0.5'}
    assert w.attr('missing') is None
    with pytest.raises(ValueError, match='double underscores'):
        mx.sym.var('v', foo='bar')
    y = mx.sym.exp(w, name='e')
    y._set_attr(foo='bar', ctx_group='dev2')
    assert y.attr('foo') == 'bar' and y.list_attr()['__ctx_group__'] == 'dev2'
    with pytest.raises(DeprecationWarning, match='attr_dict'):
        y.list_attr(recursive=True)
    assert y.attr_dict()['w']['__shape__'] == '(2, 3)'
    with pytest.raises(ValueError, match='string'):
        y._set_attr(foo=1)
    with mx.sym.AttrScope(ctx_group='dev1'):
        with mx.sym.AttrScope(lr_mult='3'):
            z = mx.sym.exp(w, name='z', attr={'mine': 'x'})
    assert z.list_attr() == {'__ctx_group__': 'dev1', '__lr_mult__': '3', 'mine': 'x', 'ctx_group': 'dev1',
                             'lr_mult': '3'}
    with pytest.raises(ValueError, match='string'):
        mx.sym.AttrScope(lr_mult=3)


def test_init_object_stored_with_dumps():
    class Init:
        def dumps(self):
            return '["xavier", {"magnitude": 3}]'
    assert mx.sym.var('w', init=Init()).attr('__init__') == '["xavier", {"magnitude": 3}]'


def test_compose_by_name_copies_and_keeps_original():
    x, y = mx.sym.var('x'), mx.sym.var('y')
    net = mx.sym.exp(x, name='e') + y
    data = mx.sym.var('data')
    composed = net(x=mx.sym.sqrt(data, name='s'))
    assert composed.list_arguments() == ['data', 'y']
    assert net.list_arguments() == ['x', 'y']  # the original graph is unchanged
    both = net(x=y)  # the copy's own y and the given y are two variables, as in MXNet
    assert both.list_arguments() == ['y', 'y']
    with pytest.raises(MXNetError, match='keyword argument name q not found'):
        net(q=y)
    with pytest.raises(MXNetError, match='kwargs|by name'):
        net(y)
    with pytest.raises(TypeError):
        net(x=3)
    renamed = mx.sym.exp(x)(x=y, name='renamed')
    assert renamed.name == 'renamed'
    out = composed.eval(data=mx.nd.array([4.0]), y=mx.nd.array([1.0]))[0]
    np.testing.assert_allclose(out.asnumpy(), np.exp(2.0) + 1, rtol=1e-6)


def test_copy_deepcopy_and_pickle_keep_the_graph():
    x = mx.sym.var('x', shape=(2,))
    s = mx.sym.Group([mx.sym.exp(x) * 3, x + 1])
    for other in (copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert other.tojson() == s.tojson()
    c = copy.deepcopy(s)
    c[0]._set_attr(__foo__='bar')  # a plain name is refused by _mul_scalar's parameters, as in MXNet
    assert s[0].attr('__foo__') is None


def test_bool_and_unsupported_operands():
    x = mx.sym.var('x')
    with pytest.raises(mx.base.NotImplementedForSymbol, match='__bool__ .namely operator "bool". is not implemented'):
        bool(x)
    with pytest.raises(TypeError):
        x + 'a'


@pytest.mark.parametrize('method', ['asnumpy', 'asscalar', 'wait_to_read', 'detach', 'backward', 'as_in_context'])
def test_ndarray_only_methods_raise_not_implemented_for_symbol(method):
    x = mx.sym.var('x')
    args = (mx.cpu(),) if method == 'as_in_context' else ()
    with pytest.raises(mx.base.NotImplementedForSymbol, match='Function %s is not implemented for Symbol' % method):
        getattr(x, method)(*args)
    assert isinstance(mx.base.NotImplementedForSymbol(x.asnumpy, None), mx.base.MXNetError)


@pytest.mark.parametrize('build, op, name, scalar', [
    (lambda F, x, y: x + y, 'elemwise_add', '_plus0', None),
    (lambda F, x, y: x - y, 'elemwise_sub', '_minus0', None),
    (lambda F, x, y: x * y, 'elemwise_mul', '_mul0', None),
    (lambda F, x, y: x / y, 'elemwise_div', '_div0', None),
    (lambda F, x, y: x % y, '_mod', '_mod0', None),
    (lambda F, x, y: x ** y, '_power', '_power0', None),
    (lambda F, x, y: x + 2, '_plus_scalar', '_plusscalar0', '2'),
    (lambda F, x, y: 2 + x, '_plus_scalar', '_plusscalar0', '2'),
    (lambda F, x, y: x - 1.5, '_minus_scalar', '_minusscalar0', '1.5'),
    (lambda F, x, y: 1 - x, '_rminus_scalar', '_rminusscalar0', '1'),
    (lambda F, x, y: x * 3, '_mul_scalar', '_mulscalar0', '3'),
    (lambda F, x, y: x / 4, '_div_scalar', '_divscalar0', '4'),
    (lambda F, x, y: 4 / x, '_rdiv_scalar', '_rdivscalar0', '4'),
    (lambda F, x, y: x % 2, '_mod_scalar', '_modscalar0', '2'),
    (lambda F, x, y: 2 % x, '_rmod_scalar', '_rmodscalar0', '2'),
    (lambda F, x, y: x ** 2, '_power_scalar', '_powerscalar0', '2'),
    (lambda F, x, y: 2 ** x, '_rpower_scalar', '_rpower_scalar0', '2'),
    (lambda F, x, y: -x, '_mul_scalar', '_mulscalar0', '-1.0'),
    (lambda F, x, y: abs(x), 'abs', 'abs0', None),
    (lambda F, x, y: x == y, '_equal', '_equal0', None),
    (lambda F, x, y: x != 1, '_not_equal_scalar', '_not_equal_scalar0', '1'),
    (lambda F, x, y: x > y, '_greater', '_greater0', None),
    (lambda F, x, y: x >= 1, '_greater_equal_scalar', '_greater_equal_scalar0', '1'),
    (lambda F, x, y: 2 < x, '_greater_scalar', '_greater_scalar0', '2'),
    (lambda F, x, y: x <= y, '_lesser_equal', '_lesser_equal0', None),
    (lambda F, x, y: F.maximum(x, 0.5), '_maximum_scalar', '_maximumscalar0', '0.5'),
    (lambda F, x, y: F.minimum(x, y), '_minimum', '_minimum0', None),
    (lambda F, x, y: F.power(2, x), '_rpower_scalar', '_rpowerscalar0', '2'),
])
def test_arithmetic_operator_names_and_values(build, op, name, scalar):
    x, y = mx.sym.var('x'), mx.sym.var('y')
    with mx.name.NameManager():
        s = build(mx.sym, x, y)
    node = [n for n in __import__('json').loads(s.tojson())['nodes'] if n['op'] != 'null'][0]
    assert (node['op'], node['name']) == (op, name)
    assert node.get('attrs', {}).get('scalar') == scalar
    a = np.array([[0.5, 1.0, 2.0]], dtype=np.float32)
    b = np.array([[1.0, 1.0, 3.0]], dtype=np.float32)
    got = s.eval(x=mx.nd.array(a), **({'y': mx.nd.array(b)} if 'y' in s.list_arguments() else {}))[0]
    want = build(mx.nd, mx.nd.array(a), mx.nd.array(b))
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)


def test_fluent_methods_mirror_ndarray():
    x = mx.sym.var('x')
    with mx.name.NameManager():
        s = x.exp().sum(axis=1, keepdims=True)
        m = x.max(axis=0)
    assert s.name == 'sum0' and s.get_children().name == 'exp0' and m.name == 'max0'
    a = np.arange(6, dtype=np.float32).reshape(2, 3) / 5
    np.testing.assert_allclose(s.eval(x=mx.nd.array(a))[0].asnumpy(), np.exp(a).sum(1, keepdims=True), rtol=1e-6)
    from gluonjax.ops._registry import named_by
    methods = named_by('methods')
    assert {'sum', 'exp', 'reshape', 'astype', 'flatten', 'split'} <= set(methods)
    for public in methods:
        assert callable(getattr(mx.sym.Symbol, public)), public
        assert callable(getattr(mx.nd.NDArray, public)), public


def test_fluent_reshape_flatten_astype_names():
    x = mx.sym.var('x')
    with mx.name.NameManager():
        r = x.reshape((2, 3))
        f = x.flatten()
        c = x.astype('float16')
    assert (r.name, f.name, c.name) == ('reshape0', 'flatten0', 'cast0')
    assert r.attr('shape') == '(2, 3)' and c.attr('dtype') == 'float16'


# ---- known shapes while building --------------------------------------------------------------

def test_shape_and_dtype_known_while_building():
    x = mx.sym.var('x', shape=(2, 3), dtype='float16')
    assert x.shape == (2, 3) and x.dtype == np.float16 and x.ndim == 2
    y = (x * 2).sum(axis=1)
    assert y.shape == (2,) and y.dtype == np.float16
    assert mx.sym.var('u').shape is None and mx.sym.var('u').dtype is None
    assert (mx.sym.var('u') + x).shape is None
    assert mx.sym.var('p', shape=(0, 3)).shape is None  # 0 means an unknown dimension in MXNet
    assert mx.sym.var('d', shape=(2,)).dtype is None
    assert (mx.sym.var('d', shape=(2,)) + 1).dtype == np.float32
    assert mx.sym.zeros((4, 5), dtype='int32').shape == (4, 5)
    assert mx.sym.zeros((4, 5), dtype='int32').dtype == np.int32


def test_shape_error_at_construction_names_the_node():
    a = mx.sym.var('a', shape=(2, 3))
    b = mx.sym.var('b', shape=(4, 3))
    with pytest.raises(MXNetError, match=r'Error in operator bad: .*\[2,3\].*\[4,3\]'):
        mx.sym.broadcast_add(a, b, name='bad')
    with pytest.raises(MXNetError, match='unknown parameter'):
        mx.sym.sum(a, foo=1)
    with pytest.raises(MXNetError, match="required parameter 'a_min'"):
        mx.sym.clip(a, a_max=1)


def test_extra_keywords_of_an_operator_without_parameters_are_kept_not_parsed():
    # MXNet parses nothing for exp or broadcast_maximum: the keyword stays a node attribute and
    # eager calls ignore it (test_loss's broadcast_maximum(a, b, axis=1))
    s = mx.sym.exp(mx.sym.var('x'), foo=1, name='e')
    assert s.attr_dict() == {'e': {'foo': '1'}}
    out = mx.nd.broadcast_maximum(mx.nd.array([0]), mx.nd.array([[-1.], [2.]]), axis=1)
    assert out.asnumpy().tolist() == [[0.], [2.]]


def test_hidden_keys_given_to_an_operator_are_node_attributes():
    conv = mx.sym.Convolution(mx.sym.var('data'), name='conv', kernel=(1, 1), num_filter=1, lr_mult=2)
    assert conv.attr_dict()['conv'] == {'num_filter': '1', 'kernel': '(1, 1)', '__lr_mult__': '2', 'lr_mult': '2'}
    assert '"__lr_mult__": "2"' in conv.tojson() and '"lr_mult"' not in conv.tojson()


# ---- inference -------------------------------------------------------------------------------

def test_infer_shape_full_partial_and_incomplete():
    a, b = mx.sym.var('a'), mx.sym.var('b')
    c = mx.sym.exp(a) + b
    assert c.infer_shape(a=(2, 3)) == ([(2, 3), (2, 3)], [(2, 3)], [])  # b follows a (same shape op)
    assert c.infer_shape((2, 3)) == ([(2, 3), (2, 3)], [(2, 3)], [])  # positional: argument order
    s = mx.sym.broadcast_add(a, b)
    with pytest.warns(UserWarning, match='b: \\(\\)'):
        assert s.infer_shape(a=(2, 3)) == (None, None, None)
    assert s.infer_shape_partial(a=(2, 3)) == ([(2, 3), ()], [()], [])
    assert s.infer_shape_partial(a=(2, 0)) == ([(2, 0), ()], [()], [])
    assert mx.sym.var('x', shape=(3, 4)).infer_shape() == ([(3, 4)], [(3, 4)], [])
    with pytest.raises(MXNetError, match='keyword argument name foo not found'):
        s.infer_shape(foo=(1,))
    with pytest.raises(MXNetError, match='Error in operator'):
        s.infer_shape(a=(2, 3), b=(4, 3))


def test_infer_shape_partial_with_unknown_dimensions():
    # values printed by MXNet 1.9.1: 0 marks an unknown dimension, -1 under mx.np_shape
    x = mx.sym.var('x', shape=(0, 6))
    y = mx.sym.FullyConnected(x, num_hidden=4, name='fc') + mx.sym.var('c', shape=(3, 0))
    # forwards (4 = num_hidden), merged with c, and backwards to the data's batch
    assert y.infer_shape_partial() == ([(3, 6), (4, 6), (4,), (3, 4)], [(3, 4)], [])
    assert y.infer_shape() == ([(3, 6), (4, 6), (4,), (3, 4)], [(3, 4)], [])
    r = mx.sym.reshape(mx.sym.var('r'), shape=(-1, 2))
    assert r.infer_shape_partial(r=(0, 4)) == ([(0, 4)], [(0, 2)], [])
    conv = mx.sym.Convolution(mx.sym.var('a', shape=(0, 10, 0, 0)), num_filter=21, kernel=(3, 3), pad=(1, 1))
    args, _, _ = (conv + mx.sym.var('c', shape=(5, 21, 32, 32))).infer_shape()
    assert args[0] == (5, 10, 32, 32)
    cat = mx.sym.Concat(mx.sym.var('a', shape=(0, 10)), mx.sym.var('b', shape=(0, 5)), dim=1)
    assert (mx.sym.var('d', shape=(2, 0)) + cat).infer_shape()[0] == [(2, 15), (2, 10), (2, 5)]
    bd = mx.sym.batch_dot(mx.sym.var('x'), mx.sym.var('y'))
    assert bd.infer_shape_partial(x=(0, 3, 4), y=(0, 4, 5))[1] == [(0, 3, 5)]
    assert bd.infer_shape_partial(x=(0, 3, 4), y=(0, 0, 5))[1] == [()]
    where = mx.sym.where(mx.sym.var('c'), mx.sym.var('x'), mx.sym.var('y'))  # MXNet needs all of cond
    assert where.infer_shape_partial(c=(0, 2), x=(0, 2), y=(0, 2))[1] == [()]
    with mx.np_shape(True):
        d = mx.sym.dot(mx.sym.var('m'), mx.sym.var('n'))
        assert d.infer_shape_partial(m=(-1, 3), n=(3, 5)) == ([(-1, 3), (3, 5)], [(-1, 5)], [])
        assert mx.sym.sin(mx.sym.var('m')).infer_shape_partial() == ([None], [None], [])
    with pytest.raises(MXNetError, match='Shape inconsistent'):
        (mx.sym.var('a', shape=(0, 10)) + mx.sym.var('b', shape=(0, 11))).infer_shape_partial()


def test_infer_type():
    a, b = mx.sym.var('a'), mx.sym.var('b')
    c = (a + b) * 2
    assert c.infer_type(a='float16') == ([np.float16, np.float16], [np.float16], [])
    assert c.infer_type(a=np.float64, b=np.float64) == ([np.float64, np.float64], [np.float64], [])
    assert c.infer_type() == (None, None, None)
    assert c.infer_type_partial() == ([None, None], [None], [])
    z = mx.sym.zeros((2,), dtype='int32') + 1
    assert z.infer_type() == ([], [np.int32], [])
    e = mx.sym.Embedding(mx.sym.var('data'), input_dim=5, output_dim=3)  # the weight keeps its own dtype
    assert e.infer_type(data='int32') == ([np.int32, np.float32], [np.float32], [])
    t = mx.sym.take(mx.sym.var('a'), mx.sym.var('i'))
    assert t.infer_type(a='float16', i='int32') == ([np.float16, np.int32], [np.float16], [])
    assert t.infer_type_partial(i='int32') == ([None, np.int32], [None], [])


def test_infer_shape_parameters_from_data():
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=10, name='fc')
    out = mx.sym.SoftmaxOutput(fc, name='sm')
    assert out.list_arguments() == ['data', 'fc_weight', 'fc_bias', 'sm_label']
    assert out.infer_shape(data=(4, 5)) == ([(4, 5), (10, 5), (10,), (4,)], [(4, 10)], [])
    assert out.infer_shape_partial(fc_weight=(10, 5)) == ([(), (10, 5), (), ()], [()], [])
    with pytest.raises(MXNetError, match='Error in operator fc: Shape inconsistent, Provided = \\[3,3\\]'):
        out.infer_shape(data=(4, 5), fc_weight=(3, 3))
    assert out.infer_type(data='float16')[0] == [np.float16] * 4


@pytest.mark.parametrize('name, shapes', [
    ('mf', {'user': (32,), 'item': (32,), 'score': (32,)}), ('lenet', {'data': (64, 1, 28, 28)}),
    ('bnnet', {'data': (2, 3, 6, 6)}), ('mlp', {'data': (3, 5)})])
def test_infer_shape_of_every_internal_output_matches_mxnet(name, shapes):
    with open(os.path.join(REF, 'symbol', 'infer_shape.json')) as f:
        expected = json.load(f)[name]
    internals = NETS[name](mx).get_internals()
    _, outs, _ = internals.infer_shape(**shapes)
    assert dict(zip(internals.list_outputs(), [list(s) for s in outs])) == expected


# Cases for operators whose inputs and parameters need more than "one (2, 3) array".
# name: (input shapes, parameters); inputs are float32 uniform in (0.1, 0.9) unless in INT_INPUTS.
class _Identity(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0])


@mx.operator.register('test_symbol_identity')
class _IdentityProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _Identity()


SHAPE_CASES = {
    '_contrib_edge_id': ([(4, 4), (3,), (3,)], {}),
    '_contrib_dgl_subgraph': ([(4, 4), (2,)], {'num_args': 2, 'return_mapping': True}),
    '_contrib_dgl_graph_compact': ([(3, 4), (4,)], {'num_args': 2, 'graph_sizes': (2,), 'return_mapping': True}),
    '_contrib_dgl_csr_neighbor_uniform_sample': ([(4, 4), (2,)], {'num_args': 2, 'max_num_vertices': 3}),
    '_contrib_dgl_csr_neighbor_non_uniform_sample': ([(4, 4), (4,), (2,)], {'num_args': 3, 'max_num_vertices': 3}),
    'Custom': ([(2, 3)], {'op_type': 'test_symbol_identity'}),
    '_CachedOp': ([(2, 3)], {'subgraph': mx.sym.relu(mx.sym.var('x') * 2, name='r').tojson()}),  # a subgraph as JSON
    'FullyConnected': ([(2, 3, 4), (5, 12), (5,)], {'num_hidden': 5}),
    'Convolution': ([(2, 3, 8, 8), (4, 3, 3, 3), (4,)], {'kernel': (3, 3), 'num_filter': 4, 'stride': (2, 2)}),
    '_contrib_DeformableConvolution': ([(2, 4, 6, 6), (2, 18, 4, 4), (3, 4, 3, 3), (3,)],
                                       {'kernel': (3, 3), 'num_filter': 3}),
    '_contrib_ModulatedDeformableConvolution': ([(2, 4, 6, 6), (2, 36, 4, 4), (2, 18, 4, 4), (3, 4, 3, 3), (3,)],
                                                {'kernel': (3, 3), 'num_filter': 3, 'num_deformable_group': 2}),
    'Deconvolution': ([(2, 3, 4, 4), (3, 2, 3, 3)], {'kernel': (3, 3), 'num_filter': 2}),
    'Pooling': ([(2, 3, 8, 8)], {'kernel': (2, 2), 'pool_type': 'max', 'stride': (2, 2)}),
    'Pooling_v1': ([(2, 3, 8, 8)], {'kernel': (3, 3), 'pool_type': 'avg', 'stride': (2, 2), 'pad': (1, 1)}),
    'Convolution_v1': ([(2, 3, 8, 8), (4, 3, 3, 3), (4,)], {'kernel': (3, 3), 'num_filter': 4, 'stride': (2, 2)}),
    '_contrib_BatchNormWithReLU': ([(2, 3, 4, 4), (3,), (3,), (3,), (3,)], {}),
    'IdentityAttachKLSparseReg': ([(2, 3, 4), (3,)], {'penalty': 0.01}),
    'multi_lars': ([(4,), (4,), (4,), (4,)], {'eta': 0.5, 'eps': 1e-3}),
    'BatchNorm': ([(2, 3, 4, 4), (3,), (3,), (3,), (3,)], {}),
    '_contrib_SyncBatchNorm': ([(2, 3, 4, 4), (3,), (3,), (3,), (3,)], {'ndev': 1, 'key': 'bn'}),
    'InstanceNorm': ([(2, 3, 4), (3,), (3,)], {}),
    'LayerNorm': ([(2, 3, 4), (4,), (4,)], {}),
    'GroupNorm': ([(2, 4, 3), (2,), (2,)], {'num_groups': 2}),
    'Embedding': ([(2, 3), (10, 4)], {'input_dim': 10, 'output_dim': 4}),
    '_contrib_SparseEmbedding': ([(2, 3), (10, 4)], {'input_dim': 10, 'output_dim': 4}),
    'cast_storage': ([(2, 3)], {'stype': 'default'}),
    '_scatter_plus_scalar': ([(2, 3)], {'scalar': 2.0}),
    '_scatter_minus_scalar': ([(2, 3)], {'scalar': 2.0}),
    'Activation': ([(2, 3)], {'act_type': 'relu'}),
    'LeakyReLU': ([(2, 3)], {}),
    'Dropout': ([(2, 3)], {'p': 0.5}),
    'SoftmaxOutput': ([(2, 3), (2,)], {}),
    'LinearRegressionOutput': ([(2, 3), (2, 3)], {}),
    'LogisticRegressionOutput': ([(2, 3), (2, 3)], {}),
    'MAERegressionOutput': ([(2, 3), (2, 3)], {}),
    'Reshape': ([(2, 3, 4)], {'shape': (-1, 4)}),
    'reshape_like': ([(2, 3), (3, 2)], {}),
    'Flatten': ([(2, 3, 4)], {}),
    'transpose': ([(2, 3, 4)], {'axes': (2, 0, 1)}),
    'expand_dims': ([(2, 3)], {'axis': 1}),
    'squeeze': ([(2, 1, 3)], {}),
    'Concat': ([(2, 3), (2, 4)], {'dim': 1}),
    'stack': ([(2, 3), (2, 3)], {'axis': 1}),
    'SliceChannel': ([(2, 6)], {'num_outputs': 3}),
    '_split_v2': ([(2, 6)], {'indices': (2,), 'axis': 1}),
    'slice': ([(4, 5)], {'begin': (1, 0), 'end': (3, 4)}),
    'slice_axis': ([(4, 5)], {'axis': 1, 'begin': 1, 'end': 3}),
    'slice_like': ([(4, 5), (2, 3)], {}),
    'tile': ([(2, 3)], {'reps': (2, 2)}),
    'repeat': ([(2, 3)], {'repeats': 2, 'axis': 1}),
    'Pad': ([(1, 2, 3, 3)], {'mode': 'constant', 'pad_width': (0, 0, 0, 0, 1, 1, 2, 2)}),
    'reverse': ([(2, 3)], {'axis': 1}),
    'batch_take': ([(2, 3), (2,)], {}),
    'CTCLoss': ([(5, 2, 4), (2, 3)], {}),  # shapes only: compiling CTC twice is slow
    '_random_randint': ([], {'low': 0, 'high': 5, 'shape': (2, 3)}),
    '_sample_unique_zipfian': ([], {'range_max': 10, 'shape': (2, 3)}),
    '_full': ([], {'shape': (2, 3), 'value': 2.0}),
    '_npi_full_like': ([(2, 3)], {'fill_value': 2.5}),
    '_npi_boolean_mask_assign_scalar': ([(2, 3), (2, 3)], {'value': 2.5}),
    '_npi_boolean_mask_assign_tensor': ([(2, 3), (2, 3), (1,)], {}),
    '_arange': ([], {'start': 2, 'stop': 8, 'step': 1.5}),
    '_eye': ([], {'N': 3, 'k': 1}),
    '_npi_eye': ([], {'N': 3, 'M': 0, 'k': 1}),
    '_npi_arange': ([], {'start': 2, 'stop': 8, 'step': 1.5}),
    '_npi_identity': ([], {'shape': (3, 3)}),
    '_np_moveaxis': ([(2, 3, 4)], {'source': (0, 1), 'destination': (2, 0)}),
    '_npi_hanning': ([], {'M': 5}),
    '_npi_hamming': ([], {'M': 5}),
    '_npi_blackman': ([], {'M': 5}),
    'amp_cast': ([(2, 3)], {'dtype': 'float16'}),
    'amp_multicast': ([(2, 3), (2, 3)], {'num_outputs': 2}),
    '_linspace': ([], {'start': 0, 'stop': 1, 'num': 5}),
    '_linalg_det': ([(3, 3)], {}),
    '_linalg_slogdet': ([(3, 3)], {}),
    '_linalg_inverse': ([(3, 3)], {}),
    '_linalg_potrf': ([(3, 3)], {}),
    '_linalg_potri': ([(3, 3)], {}),
    '_linalg_sumlogdiag': ([(3, 3)], {}),
    '_linalg_extractdiag': ([(3, 3)], {'offset': 1}),
    '_linalg_gemm': ([(2, 3), (3, 4), (2, 4)], {'alpha': 2.0}),
    '_linalg_gemm2': ([(2, 3), (3, 4)], {}),
    '_linalg_trmm': ([(3, 3), (3, 4)], {}),
    '_linalg_trsm': ([(3, 3), (3, 4)], {}),
    'broadcast_to': ([(1, 3)], {'shape': (4, 3)}),
    'broadcast_axis': ([(1, 3)], {'axis': 0, 'size': 4}),
    'broadcast_like': ([(1, 3), (4, 3)], {}),
    'SwapAxis': ([(2, 3, 4)], {'dim1': 0, 'dim2': 2}),
    'take': ([(5, 3), (2, 4)], {}),
    'pick': ([(5, 3), (5,)], {'axis': 1}),
    'one_hot': ([(4,)], {'depth': 5}),
    'gather_nd': ([(3, 4), (2, 2)], {}),
    'scatter_nd': ([(2,), (2, 2)], {'shape': (3, 4)}),
    'dot': ([(2, 3), (3, 4)], {}),
    'batch_dot': ([(2, 3, 4), (2, 4, 5)], {}),
    'where': ([(2, 3), (2, 3), (2, 3)], {}),
    'clip': ([(2, 3)], {'a_min': 0.2, 'a_max': 0.6}),
    'topk': ([(2, 5)], {'k': 2}),
    'sort': ([(2, 5)], {}),
    'argsort': ([(2, 5)], {}),
    'diag': ([(3, 3)], {}),
    'depth_to_space': ([(1, 4, 2, 3)], {'block_size': 2}),
    'space_to_depth': ([(1, 1, 4, 6)], {'block_size': 2}),
    'softmax_cross_entropy': ([(2, 3), (2,)], {}),
    'SequenceMask': ([(3, 2, 4)], {}),
    'RNN': ([(3, 2, 4), (55,), (1, 2, 5)], {'state_size': 5, 'num_layers': 1, 'mode': 'rnn_tanh'}),
    'UpSampling': ([(1, 2, 3, 3)], {'scale': 2, 'sample_type': 'nearest', 'num_args': 1}),
    'Cast': ([(2, 3)], {'dtype': 'float16'}),
    'L2Normalization': ([(2, 3)], {}),
    'ROIPooling': ([(1, 2, 8, 8), (2, 5)], {'pooled_size': (2, 2), 'spatial_scale': 1.0}),
    'SVMOutput': ([(2, 3), (2,)], {}),
    'LRN': ([(1, 4, 3, 3)], {'nsize': 3}),
    '_contrib_AdaptiveAvgPooling2D': ([(1, 2, 5, 4)], {'output_size': (2, 3)}),
    '_contrib_BilinearResize2D': ([(1, 2, 3, 3)], {'height': 5, 'width': 4}),
    '_contrib_box_nms': ([(1, 4, 6)], {'overlap_thresh': 0.4}),
    '_contrib_box_iou': ([(3, 4), (2, 4)], {}),
    '_contrib_hawkesll': ([(2, 3), (3,), (3,), (2, 3), (2, 4), (2, 4), (2,), (2,)], {}),
    '_contrib_gradientmultiplier': ([(2, 3)], {'scalar': 2.0}),
    '_contrib_box_encode': ([(1, 3), (1, 3), (1, 3, 4), (1, 2, 4), (4,), (4,)], {}),
    '_contrib_box_decode': ([(1, 3, 4), (1, 3, 4)], {}),
    '_contrib_bipartite_matching': ([(2, 4, 3)], {'threshold': 0.1}),
    '_contrib_Proposal': ([(1, 6, 3, 4), (1, 12, 3, 4), (1, 3)], {'scales': (8,), 'rpn_post_nms_top_n': 5}),
    '_contrib_MultiProposal': ([(2, 6, 3, 4), (2, 12, 3, 4), (2, 3)], {'scales': (8,), 'rpn_post_nms_top_n': 5}),
    '_contrib_MultiBoxPrior': ([(1, 2, 3, 4)], {'sizes': (0.5, 0.2), 'ratios': (1, 2)}),
    '_contrib_MultiBoxTarget': ([(1, 4, 4), (2, 3, 5), (2, 3, 4)], {}),
    '_image_to_tensor': ([(4, 5, 3)], {}),
    '_image_normalize': ([(3, 4, 5)], {'mean': (0.1, 0.2, 0.3), 'std': (0.5, 0.6, 0.7)}),
    '_image_crop': ([(5, 6, 3)], {'x': 1, 'y': 2, 'width': 3, 'height': 2}),
    '_image_resize': ([(2, 5, 6, 3)], {'size': (4, 3)}),
    '_image_flip_left_right': ([(4, 5, 3)], {}),
    '_image_flip_top_bottom': ([(4, 5, 3)], {}),
    '_image_random_flip_left_right': ([(4, 5, 3)], {}),
    '_image_random_flip_top_bottom': ([(4, 5, 3)], {}),
    '_image_random_brightness': ([(4, 5, 3)], {'min_factor': 0.5, 'max_factor': 1.5}),
    '_image_random_contrast': ([(4, 5, 3)], {'min_factor': 0.5, 'max_factor': 1.5}),
    '_image_random_saturation': ([(4, 5, 3)], {'min_factor': 0.5, 'max_factor': 1.5}),
    '_image_random_hue': ([(4, 5, 3)], {'min_factor': 0.5, 'max_factor': 1.5}),
    '_image_random_color_jitter': ([(4, 5, 3)], {'brightness': 0.1, 'contrast': 0.1, 'saturation': 0.1, 'hue': 0.1}),
    '_image_adjust_lighting': ([(4, 5, 3)], {'alpha': (0.1, 0.2, 0.3)}),
    '_image_random_lighting': ([(4, 5, 3)], {}),
    # mx.np's operators (registered when gluonjax.numpy is imported)
    '_np_dot': ([(2, 3), (3, 4)], {}),
    '_npi_matmul': ([(2, 2, 3), (3, 4)], {}),
    '_npi_tensordot': ([(2, 3), (3, 4)], {'a_axes_summed': (1,), 'b_axes_summed': (0,)}),
    '_npi_einsum': ([(2, 3), (3, 4)], {'subscripts': 'ij,jk->ik', 'num_args': 2}),
    '_npi_pad': ([(2, 3)], {'pad_width': ((1, 0), (2, 1)), 'mode': 'edge'}),
    '_np_reshape': ([(2, 3, 4)], {'newshape': (4, -1)}),
    '_npi_clip': ([(2, 3)], {'a_min': 0.2, 'a_max': 0.6}),
    '_npi_inv': ([(3, 3)], {}),
    '_npi_det': ([(3, 3)], {}),
    '_npi_slogdet': ([(3, 3)], {}),
    '_npi_cholesky': ([(3, 3)], {}),
    '_npi_eigh': ([(3, 3)], {}),
    '_npi_eigvalsh': ([(3, 3)], {'UPLO': 'U'}),
    '_npi_eig': ([(3, 3)], {}),
    '_npi_eigvals': ([(2, 3, 3)], {}),
    '_npi_pinv': ([(2, 4, 3), (2,)], {}),
    '_npi_pinv_scalar_rcond': ([(4, 3)], {'rcond': 0.01}),
    '_npi_tensorinv': ([(6, 2, 3)], {'ind': 1}),
    '_npi_tensorsolve': ([(2, 3, 6), (2, 3)], {}),
    '_npi_resize_fallback': ([(2, 3)], {'new_shape': (4, 2)}),
    '_npi_diag_indices_from': ([(3, 3)], {}),
    '_npi_percentile': ([(2, 3, 4), (3,)], {'axis': 1, 'interpolation': 'lower'}),
    '_npi_histogram': ([(2, 3), (4,)], {}),
    '_npi_delete': ([(2, 3)], {'int_ind': 1, 'axis': 1}),
    '_npi_insert': ([(3, 2), (2,)], {'start': 0, 'stop': 2, 'step': 1, 'axis': 0}),
    '_npi_insert_scalar': ([(3, 2), (2,)], {'int_ind': 1, 'axis': 0}),
    '_npi_insert_slice': ([(3, 2), (2,)], {'start': 0, 'stop': 2, 'step': 1, 'axis': 0}),
    '_npi_multivariate_normal': ([(3,), (3, 3)], {}),
    '_npi_choice': ([(6,), (6,)], {'size': (2, 3), 'weighted': True}),
    '_npi_solve': ([(3, 3), (3, 2)], {}),
    '_np_roll': ([(2, 3)], {'shift': (1,)}),
    '_backward_gather_nd': ([(2,), (2, 2)], {'shape': (3, 3)}),
    '_npi_broadcast_to': ([(1, 3)], {'shape': (2, 3)}),
    '_npi_indices': ([], {'dimensions': (2, 3)}),
    '_npi_logspace': ([], {'start': 0, 'stop': 2, 'num': 5}),
    '_npi_tensordot_int_axes': ([(2, 3), (3, 4)], {'axes': 1}),
    '_npi_tile': ([(2, 3)], {'reps': (2, 1)}),
    '_npi_unravel_index': ([(4,)], {'shape': (2, 3)}),
    '_unravel_index': ([(4,)], {'shape': (2, 3)}),
    '_ravel_multi_index': ([(2, 4)], {'shape': (2, 3)}),
    '_npx_reshape': ([(2, 3, 4)], {'newshape': (6, -1)}),
    '_slice_assign': ([(3, 4), (2, 2)], {'begin': (0, 1), 'end': (2, 3)}),
    '_slice_assign_scalar': ([(3, 4)], {'begin': (0, 1), 'end': (2, 3), 'scalar': 1.0}),
    '_npi_polyval': ([(3,), (2, 3)], {}),
    'fill_element_0index': ([(2, 3), (2,), (2,)], {}),
    'BatchNorm_v1': ([(2, 3, 4, 4), (3,), (3,), (3,), (3,)], {}),
    'BilinearSampler': ([(2, 3, 4, 4), (2, 2, 3, 3)], {}),
    'GridGenerator': ([(2, 6)], {'transform_type': 'affine', 'target_shape': (3, 4)}),
    'SpatialTransformer': ([(2, 3, 4, 4), (2, 6)], {'target_shape': (3, 3), 'transform_type': 'affine',
                                                    'sampler_type': 'bilinear'}),
    'Correlation': ([(1, 2, 6, 6), (1, 2, 6, 6)], {'kernel_size': 1, 'max_displacement': 1, 'pad_size': 1}),
    '_contrib_quantize': ([(2, 3), (1,), (1,)], {}),
    '_contrib_index_copy': ([(4, 3), (2,), (2, 3)], {}),
    '_histogram': ([(6,), (4,)], {}),
    '_linalg_extracttrian': ([(3, 3)], {}),
    '_linalg_syevd': ([(3, 3)], {}),
    '_contrib_PSROIPooling': ([(1, 8, 6, 6), (2, 5)], {'spatial_scale': 1.0, 'output_dim': 2, 'pooled_size': 2}),
    '_contrib_ROIAlign': ([(1, 2, 6, 6), (2, 5)], {'pooled_size': (2, 2), 'spatial_scale': 1.0}),
    '_contrib_RROIAlign': ([(1, 2, 6, 6), (2, 6)], {'pooled_size': (2, 2), 'spatial_scale': 1.0}),
    '_contrib_interleaved_matmul_selfatt_qk': ([(4, 2, 12)], {'heads': 2}),
    '_contrib_interleaved_matmul_selfatt_valatt': ([(4, 2, 12), (4, 4, 4)], {'heads': 2}),
    '_contrib_interleaved_matmul_encdec_qk': ([(4, 2, 4), (5, 2, 8)], {'heads': 2}),
    '_contrib_interleaved_matmul_encdec_valatt': ([(5, 2, 8), (4, 4, 5)], {'heads': 2}),
    'im2col': ([(2, 3, 4, 4)], {'kernel': (2, 2)}),
    'col2im': ([(2, 12, 9)], {'output_size': (4, 4), 'kernel': (2, 2)}),
    'smooth_l1': ([(2, 3)], {'scalar': 1.0}),
    'sgd_update': ([(2, 3), (2, 3)], {'lr': 0.1}),
    'signsgd_update': ([(2, 3), (2, 3)], {'lr': 0.1}),
    'lamb_update_phase2': ([(2, 3), (2, 3), (1,), (1,)], {'lr': 0.1}),
    'Crop': ([(2, 3, 6, 6), (2, 3, 4, 5)], {'num_args': 2}),
    '_contrib_MultiBoxDetection': ([(2, 3, 4), (2, 16), (1, 4, 4)], {}),
}
# infer_shape traces a graph's kernels with float32 variables; these kernels refuse float32 data
WITHOUT_SHAPE_CASE = {'_contrib_dequantize': 'takes uint8/int8 data only',
                      '_contrib_requantize': 'takes int32 data only',
                      '_contrib_quantized_act': 'takes int8 data only',
                      '_contrib_quantized_fully_connected': 'takes int8 data only',
                      '_contrib_quantized_pooling': 'takes int8/uint8 data only',
                      '_contrib_quantized_elemwise_add': 'takes int8 data only',
                      '_contrib_quantized_embedding': 'takes int8 weights only',
                      '_sparse_retain': 'takes row_sparse data only (MXNet has no dense kernel)',
                      '_contrib_getnnz': 'takes csr data only (MXNet has no dense kernel)',
                      '_contrib_boolean_mask': 'its output shape depends on the index values: eager only',
                      '_npi_bincount': 'its output length depends on the data values: eager only',
                      '_npx_nonzero': 'its output length depends on the data values: eager only',
                      '_npi_insert_tensor': 'its output order depends on the obj values: eager only',
                      '_npi_unique': 'its output length depends on the data values: eager only',
                      '_npx_constraint_check': 'takes bool data only'}
INT_INPUTS = {'Embedding': (0,), 'take': (1,), 'batch_take': (1,), 'CTCLoss': (1,), 'pick': (1,),
              'one_hot': (0,), 'gather_nd': (1,), 'scatter_nd': (1,), 'SoftmaxOutput': (1,),
              'softmax_cross_entropy': (1,), 'SVMOutput': (1,), '_backward_gather_nd': (1,),
              '_npi_unravel_index': (0,), '_unravel_index': (0,), '_ravel_multi_index': (0,),
              'fill_element_0index': (2,), '_contrib_SparseEmbedding': (0,), '_sparse_retain': (1,),
              '_contrib_index_copy': (1,), '_contrib_hawkesll': (5,), '_contrib_edge_id': (1, 2),
              '_contrib_dgl_subgraph': (1,), '_contrib_dgl_graph_compact': (1,),
              '_contrib_dgl_csr_neighbor_uniform_sample': (1,), '_contrib_dgl_csr_neighbor_non_uniform_sample': (2,)}


def _generic_case(op):
    """(input shapes, params) for an operator needing nothing special, or None."""
    if op.mutate_inputs:  # writes its inputs in place: no symbol form (test_ops_optimizer.py)
        return None
    if op.creation:
        if 'shape' in op._param_map and all(not p.required for p in op.params):
            return [], {'shape': (2, 3)}
        return None
    if any(p.required for p in op.params if p.name != 'num_args'):
        return None
    if op.variadic:
        return [(2, 3), (2, 3)], {}
    names = op.inputs(op.parse_attrs({})) if callable(op.inputs) else op.inputs
    return [(2, 3)] * len(names), {}


def _case(name, op):
    if name in WITHOUT_SHAPE_CASE:
        return None
    if name in SHAPE_CASES:
        return SHAPE_CASES[name]
    return _generic_case(op)


def _input_value(name, i, shape, rng):
    if i in INT_INPUTS.get(name, ()):
        dtype = np.int32 if name == 'batch_take' else np.float32  # MXNet's batch_take takes int32 only
        return mx.nd.array(rng.integers(0, 2, size=shape).astype(dtype), dtype=dtype)
    return mx.nd.array(rng.uniform(0.1, 0.9, size=shape).astype(np.float32))


def _shape_cases():
    cases = []
    for name, op in sorted(mx.ops.canonical_ops().items()):
        case = _case(name, op)
        if case is not None:
            cases.append(name)
    return cases


def _random_shapes(name, shapes, params):
    """Output shapes of a random operator, from MXNet's rules (values are random by design)."""
    if name.endswith('_like') or name == '_shuffle':
        return [shapes[0]]
    if name == '_sample_multinomial':
        return [tuple(shapes[0][:-1]) + tuple(params.get('shape', ()))]
    if name == '_npi_choice':  # indices into the population, of shape size
        return [tuple(params['size'])]
    if name == '_sample_unique_zipfian':  # the classes, and the draws per row
        return [tuple(params['shape']), tuple(params['shape'][:1])]
    if name.startswith('_sample_'):
        return [tuple(shapes[0]) + tuple(params.get('shape', ()))]
    if name.startswith('_random_'):
        return [tuple(params['shape'])]
    if name.startswith('_contrib_dgl_csr_neighbor'):  # per seed array: ids + count, subgraph, (probs,) hops
        most = params['max_num_vertices']
        seeds = shapes[1 if 'non_uniform' not in name else 2:]
        groups = [(most + 1,), (most, shapes[0][1])] + [(most,)] * (2 if 'non_uniform' in name else 1)
        return [g for g in groups for _ in seeds]
    if name == 'RNN':  # (sequence, batch, state_size x directions)
        return [tuple(shapes[0][:2]) + (params['state_size'] * (2 if params.get('bidirectional') else 1),)]
    return [tuple(shapes[0])]  # Dropout


@pytest.mark.parametrize('name', _shape_cases())
def test_infer_shape_matches_nd_for_operator(name):
    """For every operator with a test case: infer_shape and the shape known while building equal the
    shapes mx.nd computes; operators with parameters (read back from MXNet's strings) also give
    mx.nd's values when the graph runs."""
    op = mx.ops.canonical_ops()[name]
    shapes, params = _case(name, op)
    rng = np.random.default_rng(0)
    names = ['in%d' % i for i in range(len(shapes))]
    sym = getattr(mx.sym, name)(*[mx.sym.var(n) for n in names], **params)
    known = getattr(mx.sym, name)(*[mx.sym.var(n, shape=s) for n, s in zip(names, shapes)], **params)
    _, outs, _ = sym.infer_shape(**dict(zip(names, shapes)))
    if op.random:
        expected = _random_shapes(name, shapes, params)
        assert outs == expected and [known[i].shape for i in range(len(known))] == expected
        return
    arrays = [_input_value(name, i, s, rng) for i, s in enumerate(shapes)]
    want = getattr(mx.nd, name)(*arrays, **params)
    want = want if isinstance(want, list) else [want]
    assert outs == [w.shape for w in want]
    assert [known[i].shape for i in range(len(known))] == [w.shape for w in want]
    assert [known[i].dtype for i in range(len(known))] == [w.dtype for w in want]
    if not params:
        return
    feed = {n: a for n, a in zip(sym.list_arguments(), arrays)}
    if op.aux:
        aux = sym.list_auxiliary_states()
        feed.update(zip(aux, arrays[len(arrays) - len(aux):]))
    # run the graph function directly (no jit: op by op)
    got, _ = GraphFunction(sym)({k: v._data for k, v in feed.items()})
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(np.asarray(g), w.asnumpy(), rtol=1e-5, atol=1e-6)


def test_operator_table_is_covered_by_shape_cases():
    """Every operator of the table has an infer_shape case (generic or in SHAPE_CASES); control
    flow, whose nodes carry subgraphs, is tested in test_control_flow.py, and the optimizer
    updates that write their inputs (no symbol form) in test_ops_optimizer.py."""
    missing = [n for n, op in sorted(mx.ops.canonical_ops().items())
               if _case(n, op) is None and not op.subgraphs and not op.mutate_inputs
               and n not in WITHOUT_SHAPE_CASE]
    assert missing == []


def test_creation_symbols():
    with mx.name.NameManager():
        z = mx.sym.zeros((2, 3))
        o = mx.sym.ones((2,), dtype='int32')
        f = mx.sym.full((2,), 3.0)
        r = mx.sym.arange(5)
    assert (z.name, o.name, f.name, r.name) == ('_zeros0', '_ones0', '_full0', '_arange0')
    assert z.list_attr() == {'dtype': 'float32', 'shape': '(2, 3)'}
    assert r.list_attr() == {'dtype': 'float32', 'infer_range': 'False', 'repeat': '1', 'start': '5',
                             'step': '1.0', 'stop': 'None'}
    assert o.eval()[0].asnumpy().tolist() == [1, 1] and o.eval()[0].dtype == np.int32
    assert f.eval()[0].asnumpy().tolist() == [3.0, 3.0]
    assert r.eval()[0].asnumpy().tolist() == [0, 1, 2, 3, 4]
    assert mx.sym.eye(3).infer_shape()[1] == [(3, 3)]
    np.testing.assert_allclose(mx.sym.linspace(0, 1, 5).eval()[0].asnumpy(), np.linspace(0, 1, 5))


def test_random_namespace():
    with mx.name.NameManager():
        u = mx.sym.random.uniform(shape=(2,))
        s = mx.sym.random.uniform(mx.sym.var('a'), mx.sym.var('b'))
    assert u.name == '_random_uniform0' and u.list_attr() == {'high': '1', 'low': '0', 'shape': '(2,)'}
    assert s.name == '_sample_uniform0' and s.list_arguments() == ['a', 'b']


def test_generated_functions_cover_the_table():
    for name in mx.ops.all_ops():
        if not name.isidentifier() or name in ('lambda',):
            continue
        assert callable(getattr(mx.sym, name)), name
    with pytest.raises(TypeError, match='must be a Symbol'):
        mx.sym.exp(data=mx.nd.ones((2,)))
    with pytest.raises(MXNetError, match='too many'):
        mx.sym.exp(mx.sym.var('a'), mx.sym.var('b'))


@pytest.mark.parametrize('proj, want_args, want_outs', [
    (None, [(3, 2, 4), (1120,), (4, 2, 5), (4, 2, 5)], [(3, 2, 10), (4, 2, 5), (4, 2, 5)]),
    (3, [(3, 2, 4), (860,), (4, 2, 3), (4, 2, 5)], [(3, 2, 6), (4, 2, 3), (4, 2, 5)]),
])
def test_rnn_infer_shape_with_projection_as_mxnet(proj, want_args, want_outs):
    """Bidirectional 2-layer LSTM, with and without projection: MXNet 1.9.1's infer_shape figures."""
    kw = dict(state_size=5, num_layers=2, mode='lstm', bidirectional=True, state_outputs=True)
    if proj:
        kw['projection_size'] = proj
    s = mx.sym.RNN(*[mx.sym.var(n) for n in ('data', 'p', 's', 'c')], **kw)
    args, outs, _ = s.infer_shape(data=(3, 2, 4))
    assert args == want_args and outs == want_outs


def test_debug_str_as_mxnet_prints_it():
    f = mx.sym.FullyConnected(mx.sym.var('d'), num_hidden=2, name='f')
    assert f.debug_str() == ('Symbol Outputs:\n\toutput[0]=f(0)\nVariable:d\nVariable:f_weight\nVariable:f_bias\n'
                             + '-' * 20 + '\nOp:FullyConnected, Name=f\nInputs:\n\targ[0]=d(0) version=0\n'
                             '\targ[1]=f_weight(0) version=0\n\targ[2]=f_bias(0) version=0\nAttrs:\n\tnum_hidden=2\n')
    assert mx.sym.var('v').debug_str() == 'Variable:v\n'


def test_infer_errors_print_the_given_arguments(capsys):
    s = mx.sym.var('x') + mx.sym.var('y')
    with pytest.raises(MXNetError):
        s.infer_shape(x=(2, 3), y=(3, 3))
    assert capsys.readouterr().out == 'infer_shape error. Arguments:\n  x: (2, 3)\n  y: (3, 3)\n'
    with pytest.raises(MXNetError):
        s.infer_shape((2, 3), (4, 3))
    assert capsys.readouterr().out == 'infer_shape error. Arguments:\n  #0: (2, 3)\n  #1: (4, 3)\n'


def test_batchnorm_keeps_float32_parameters_for_half_data():
    arg, out, aux = mx.sym.BatchNorm(mx.sym.var('data')).infer_type(data='float16')
    assert arg == [np.float16, np.float32, np.float32] and out == [np.float16]
    assert aux == [np.float32, np.float32]
    arg, _, aux = mx.sym.BatchNorm(mx.sym.var('data')).infer_type(data='float64')
    assert arg == [np.float64] * 3 and aux == [np.float64] * 2
    arg, _, _ = mx.sym.LayerNorm(mx.sym.var('data')).infer_type(data='float16')
    assert arg == [np.float16] * 3


def test_var_shape_written_as_given_and_partial_shapes_reported():
    assert mx.sym.var('q', shape=5).attr('__shape__') == '5'
    assert mx.sym.var('q', shape=[2, 3]).attr('__shape__') == '[2, 3]'
    assert mx.sym.var('q', shape=(2, 3)).infer_shape() == ([(2, 3)], [(2, 3)], [])
    assert mx.sym.var('q', shape=(0, 3)).infer_shape_partial() == ([(0, 3)], [(0, 3)], [])


def test_attributes_listed_in_mxnet_order():
    # MXNet lists attributes in its C++ hash map's order; these orders were printed by MXNet 1.9.1.
    from gluonjax.symbol._attr_order import mxnet_order, string_hash
    assert string_hash('mood') == 0xc3181c573fd4e14a  # libstdc++ std::hash<std::string>
    w = mx.sym.var('w', shape=(3, 4), dtype='float32', lr_mult=2.0, wd_mult=0.5, init='zeros', attr={'mood': 'g'})
    assert list(w.list_attr()) == ['__init__', '__dtype__', '__wd_mult__', 'wd_mult', '__lr_mult__', 'lr_mult',
                                   '__shape__', 'mood']
    conv = mx.sym.Convolution(mx.sym.var('d'), no_bias=True, stride=(2, 2), pad=(1, 1), num_filter=8,
                              kernel=(3, 3), name='c', attr={'__a__': '1', 'lr_mult': '2'})
    assert list(conv.list_attr()) == ['num_filter', 'pad', 'stride', 'no_bias', 'kernel', '__lr_mult__', 'lr_mult',
                                      '__a__']
    assert list(conv.attr_dict()) == ['c_weight', 'c']
    # past 11 keys the map grows to 23 buckets and is re-threaded
    assert mxnet_order(tuple('a%d' % i for i in range(14))) == (
        'a12', 'a11', 'a0', 'a2', 'a13', 'a3', 'a4', 'a5', 'a7', 'a8', 'a9', 'a1', 'a6', 'a10')


def test_get_children_counts_a_multi_output_node_once_and_cast_leaves_its_input_type_open():
    a, b = mx.sym.var('a'), mx.sym.var('b')
    s = mx.sym.SliceChannel(a, num_outputs=2, name='s')
    assert mx.sym.Group([s[0], s[1]]).get_children().list_outputs() == ['a']
    assert mx.sym.Group([s[0], a + b, s[1]]).get_children().list_outputs() == ['a', 'a', 'b']
    net = mx.sym.FullyConnected(mx.sym.Cast(mx.sym.var('data'), dtype='float32'), num_hidden=4)
    assert net.infer_type_partial()[0] == [None, np.float32, np.float32]
    assert net.infer_type(data=np.float16)[0] == [np.float16, np.float32, np.float32]


def test_get_optimized_symbol_merges_common_expressions_as_mxnet(monkeypatch):
    # internals as MXNet 1.9.1 lists them for these graphs (its CSE pass, on by default)
    a, b = mx.sym.Variable('a'), mx.sym.Variable('b')
    with mx.name.NameManager():
        both = (a + b) + (a + b)
        d = a + 1
        group = mx.sym.Group([a * d + b, a * d + b])
    shapes = dict(a=(2, 2), b=(2, 2))
    assert both.simple_bind(mx.cpu(), **shapes).get_optimized_symbol().get_internals().list_outputs() == \
        ['a', 'b', '_plus0_output', '_plus2_output']
    optimized = group.simple_bind(mx.cpu(), **shapes).get_optimized_symbol()
    assert optimized.get_internals().list_outputs() == \
        ['a', '_plusscalar0_output', '_mul0_output', 'b', '_plus3_output', '_plus3_0_copy_output']
    dropout = mx.sym.Dropout(a) + mx.sym.Dropout(a)
    assert len(dropout.simple_bind(mx.cpu(), a=(2, 2)).get_optimized_symbol().get_internals()) == 4
    monkeypatch.setenv('MXNET_ELIMINATE_COMMON_EXPR', '0')
    assert len(group.simple_bind(mx.cpu(), **shapes).get_optimized_symbol().get_internals()) == 7


def test_numpy_symbols_print_as_mxnets_np_symbol_class(tmp_path):
    """MXNet's ``mx.sym.np._Symbol`` names its class in its repr and lists a group's (and a
    multi-output node's) members by their reprs; SymbolBlock.imports under set_np loads it."""
    a, b = mx.sym.var('a'), mx.sym.var('b')
    assert repr(a.as_np_ndarray()) == '<_Symbol a>' and repr(a) == '<Symbol a>'
    assert repr(mx.sym.Group([a, b]).as_np_ndarray()) == '<_Symbol group [<_Symbol a>, <_Symbol b>]>'
    split = mx.sym.split(a, num_outputs=2, name='sp')
    assert repr(split.as_np_ndarray()) == '<_Symbol group [<_Symbol sp>, <_Symbol sp>]>'
    assert repr(split) == '<Symbol sp>'
    net = mx.gluon.nn.Dense(3, in_units=2, prefix='fc_')
    net.initialize()
    net.hybridize()
    mx.npx.set_np()
    try:
        net(mx.np.ones((1, 2)))
        net.export(str(tmp_path / 'm'))
        block = mx.gluon.SymbolBlock.imports(str(tmp_path / 'm-symbol.json'), ['data'],
                                             str(tmp_path / 'm-0000.params'))
        assert repr(block) == 'SymbolBlock(\n<_Symbol fc_fwd> : 1 -> 1\n)'
        assert isinstance(block(mx.np.ones((1, 2))), mx.np.ndarray)
    finally:
        mx.npx.reset_np()
