"""Running symbols: GraphFunction (pure, jit-able, named scopes, errors), executors (bind,
simple_bind, forward, backward, grad_req, compile once per signature) against nd results and
numeric gradients, and MXNet-written networks giving MXNet's numbers."""
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd
from gluonjax.base import MXNetError
from gluonjax.symbol.graph import GraphFunction

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref')
SYM = os.path.join(REF, 'symbol')
sys.path.insert(0, REF)
from symbol_nets import NETS  # noqa: E402



def _net():
    """y = exp(a * b) + sqrt(b) * 2, and sum(a) over axis 1: two outputs, two inputs."""
    a, b = mx.sym.var('a'), mx.sym.var('b')
    with mx.name.NameManager():
        y = mx.sym.exp(a * b, name='ex') + mx.sym.sqrt(b) * 2
        s = mx.sym.sum(a, axis=1, name='total')
    return mx.sym.Group([y, s])


def _values(rng):
    return (rng.uniform(0.2, 0.9, (2, 3)).astype(np.float32), rng.uniform(0.2, 0.9, (2, 3)).astype(np.float32))


# ---- GraphFunction ------------------------------------------------------------------------------

def test_graph_function_is_pure_and_jittable(rng):
    f = GraphFunction(_net())
    assert f.arg_names == ['a', 'b'] and f.aux_names == [] and f.input_names == ['a', 'b']
    assert f.output_names == ['_plus0_output', 'total_output']
    a, b = _values(rng)
    outs, aux = jax.jit(f, static_argnums=1)({'a': a, 'b': b}, False, None)
    assert aux == {}
    np.testing.assert_allclose(outs[0], np.exp(a * b) + np.sqrt(b) * 2, rtol=1e-6)
    np.testing.assert_allclose(outs[1], a.sum(1), rtol=1e-6)
    # differentiable with jax directly
    g = jax.grad(lambda b_: f({'a': a, 'b': b_})[0][0].sum())(jnp.asarray(b))
    np.testing.assert_allclose(g, a * np.exp(a * b) + 1 / np.sqrt(b), rtol=1e-5)


def test_graph_function_names_layers_in_compiled_code(rng):
    f = GraphFunction(_net())
    a, b = _values(rng)
    text = jax.jit(lambda x: f(x)[0]).lower({'a': a, 'b': b}).as_text(debug_info=True)
    assert '/ex/exp"' in text and '/total/' in text and '/_plus0/' in text


def test_graph_function_errors_name_the_input_and_the_node():
    f = GraphFunction(_net())
    with pytest.raises(MXNetError, match="input 'b' is missing"):
        f({'a': jnp.ones((2, 3))})
    bad = GraphFunction(mx.sym.broadcast_add(mx.sym.var('x'), mx.sym.var('y'), name='adder'))
    with pytest.raises(MXNetError, match=r'Error in operator adder: broadcast_add.*\[2,3\] \[4,3\]'):
        bad({'x': jnp.ones((2, 3)), 'y': jnp.ones((4, 3))})
    with pytest.raises(TypeError):
        GraphFunction('not a symbol')


def test_graph_function_random_ops_use_the_key():
    d = mx.sym.Dropout(mx.sym.var('x'), p=0.5)
    f = GraphFunction(d)
    x = {'x': jnp.ones((50, 40))}
    k1, k2 = jax.random.PRNGKey(1), jax.random.PRNGKey(2)
    a = f(x, True, k1)[0][0]
    assert not np.array_equal(a, f(x, True, k2)[0][0])
    np.testing.assert_array_equal(a, f(x, True, k1)[0][0])
    np.testing.assert_array_equal(f(x, False, k1)[0][0], np.ones((50, 40)))


def test_graph_function_returns_updated_aux_states(rng):
    bn = mx.sym.BatchNorm(mx.sym.var('x'), name='bn', momentum=0.5)
    f = GraphFunction(bn)
    assert f.aux_names == ['bn_moving_mean', 'bn_moving_var']
    x = rng.normal(size=(8, 3)).astype(np.float32)
    inputs = {'x': x, 'bn_gamma': np.ones(3, np.float32), 'bn_beta': np.zeros(3, np.float32),
              'bn_moving_mean': np.zeros(3, np.float32), 'bn_moving_var': np.ones(3, np.float32)}
    _, aux = f(inputs, True, None)
    np.testing.assert_allclose(aux['bn_moving_mean'], 0.5 * x.mean(0), rtol=1e-5, atol=1e-6)
    _, aux = f(inputs, False, None)
    np.testing.assert_array_equal(aux['bn_moving_mean'], np.zeros(3))


# ---- executors --------------------------------------------------------------------------------------

def test_bind_forward_backward_against_nd_autograd(rng):
    sym = _net()
    a, b = _values(rng)
    args = {'a': mx.nd.array(a), 'b': mx.nd.array(b)}
    grads = {'a': mx.nd.zeros((2, 3)), 'b': mx.nd.zeros((2, 3))}
    exe = sym.bind(mx.cpu(), args, args_grad=grads)
    assert exe.arg_dict['a'] is args['a'] and exe.grad_dict['b'] is grads['b']
    outs = exe.forward(is_train=True)
    heads = [mx.nd.array(rng.uniform(-1, 1, (2, 3))), mx.nd.array(rng.uniform(-1, 1, (2,)))]
    exe.backward(heads)
    # the same computation with nd and autograd
    xa, xb = mx.nd.array(a), mx.nd.array(b)
    xa.attach_grad()
    xb.attach_grad()
    with autograd.record():
        y = mx.nd.exp(xa * xb) + mx.nd.sqrt(xb) * 2
        s = mx.nd.sum(xa, axis=1)
    autograd.backward([y, s], heads)
    np.testing.assert_allclose(outs[0].asnumpy(), y.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(exe.outputs[1].asnumpy(), s.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(grads['a'].asnumpy(), xa.grad.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(grads['b'].asnumpy(), xb.grad.asnumpy(), rtol=1e-5)
    assert exe.output_dict['total_output'] is exe.outputs[1]


def test_backward_matches_numeric_gradient(rng):
    x = mx.sym.var('x')
    sym = mx.sym.sum(mx.sym.tanh(x * x) * mx.sym.sin(x), axis=(0, 1))
    v = rng.uniform(-1, 1, (3, 2))
    exe = sym.bind(mx.cpu(), {'x': mx.nd.array(v, dtype='float64')},
                   args_grad={'x': mx.nd.zeros((3, 2), dtype='float64')})
    exe.forward(is_train=True)
    exe.backward()  # head gradient: ones

    def f(u):
        return float(np.sum(np.tanh(u * u) * np.sin(u)))
    eps, num = 1e-6, np.zeros_like(v)
    for i in np.ndindex(v.shape):
        d = np.zeros_like(v)
        d[i] = eps
        num[i] = (f(v + d) - f(v - d)) / (2 * eps)
    np.testing.assert_allclose(exe.grad_dict['x'].asnumpy(), num, rtol=1e-6, atol=1e-8)


def test_grad_req_add_null_and_lists(rng):
    a, b = _values(rng)
    sym = _net()
    ga, gb = mx.nd.ones((2, 3)), mx.nd.ones((2, 3))
    exe = sym.bind(mx.cpu(), [mx.nd.array(a), mx.nd.array(b)], args_grad=[ga, gb], grad_req=['add', 'null'])
    assert exe._grad_req['b'] == 'null' and list(exe.grad_dict) == ['a', 'b']
    exe.forward(is_train=True)
    exe.backward([mx.nd.zeros((2, 3)), mx.nd.ones((2,))])
    exe.backward([mx.nd.zeros((2, 3)), mx.nd.ones((2,))])
    np.testing.assert_allclose(ga.asnumpy(), 3.0)  # 1 + two accumulated gradients of sum
    np.testing.assert_allclose(gb.asnumpy(), 1.0)  # untouched
    exe2 = sym.bind(mx.cpu(), {'a': mx.nd.array(a), 'b': mx.nd.array(b)},
                    args_grad={'b': mx.nd.zeros((2, 3))}, grad_req={'a': 'null', 'b': 'write'})
    exe2.forward(is_train=True)
    exe2.backward([mx.nd.ones((2, 3)), mx.nd.zeros((2,))])
    np.testing.assert_allclose(exe2.grad_dict['b'].asnumpy(), a * np.exp(a * b) + 1 / np.sqrt(b), rtol=1e-5)


def test_bind_errors(rng):
    # MXNet's exception types: ValueError for missing or miscounted arrays and a bad grad_req,
    # TypeError for a non-NDArray container or value and an unknown forward() argument.
    sym = _net()
    with pytest.raises(ValueError, match='key `b` is missing'):
        sym.bind(mx.cpu(), {'a': mx.nd.ones((2, 3))})
    with pytest.raises(ValueError, match='1 arguments given, the symbol has 2'):
        sym.bind(mx.cpu(), [mx.nd.ones((2, 3))])
    with pytest.raises(TypeError, match='list of NDArrays'):
        sym.bind(mx.cpu(), (mx.nd.ones((2, 3)), mx.nd.ones((2, 3))))
    extra = sym.bind(mx.cpu(), {'a': mx.nd.ones((2, 3)), 'b': mx.nd.ones((2, 3)), 'c': mx.nd.ones(1)})
    assert sorted(extra.arg_dict) == ['a', 'b']  # extra names are ignored, as in MXNet
    with pytest.raises(ValueError, match='grad_req'):
        sym.bind(mx.cpu(), {'a': mx.nd.ones((2, 3)), 'b': mx.nd.ones((2, 3))},
                 args_grad={'a': mx.nd.ones((2, 3))}, grad_req='sometimes')
    with pytest.raises(TypeError, match='NDArray'):
        sym.bind(mx.cpu(), {'a': np.ones((2, 3)), 'b': mx.nd.ones((2, 3))})
    exe = sym.bind(mx.cpu(), {'a': mx.nd.ones((2, 3)), 'b': mx.nd.ones((2, 3))})
    exe.backward()  # no gradient arrays: nothing to do
    assert exe.grad_dict == {'a': None, 'b': None}
    exe = sym.bind(mx.cpu(), {'a': mx.nd.ones((2, 3)), 'b': mx.nd.ones((2, 3))},
                   args_grad={'a': mx.nd.ones((2, 3))})
    with pytest.raises(TypeError, match="unknown argument 'c'"):
        exe.forward(c=mx.nd.ones(1))


def test_bind_checks_the_bound_shapes_against_the_graph():
    # MXNet infers shapes when it binds: a weight for 6 inputs bound with data of 5 features is
    # bind's MXNetError, once per graph and set of shapes (a bind per batch costs a lookup)
    net = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=4, name='fc')
    w, b = mx.nd.ones((4, 6)), mx.nd.zeros((4,))
    with pytest.raises(MXNetError, match=r'fc.*Shape inconsistent.*\[4,6\].*\(4, 5\)'):
        net.bind(mx.cpu(), {'data': mx.nd.ones((2, 5)), 'fc_weight': w, 'fc_bias': b})
    for _ in range(2):
        exe = net.bind(mx.cpu(), {'data': mx.nd.ones((2, 6)), 'fc_weight': w, 'fc_bias': b})
        np.testing.assert_array_equal(exe.forward()[0].asnumpy(), np.full((2, 4), 6.0))
    with pytest.raises(MXNetError, match='Shape inconsistent'):
        net.bind(mx.cpu(), {'data': mx.nd.ones((2, 6)), 'fc_weight': w, 'fc_bias': mx.nd.zeros((3,))})


@pytest.mark.parametrize('weight_stype', ['default', 'row_sparse'])
def test_dot_of_a_csr_variable_gives_a_row_sparse_weight_gradient(weight_stype):
    # MXNet (checked with 1.9.1): dot(csr, w) stores w's gradient row_sparse, its rows the columns
    # the csr holds (a zero gradient row among them); transpose_a=True gives a dense gradient
    x = mx.sym.var('x', stype='csr')
    w = mx.sym.var('w', stype=weight_stype)
    exe = mx.sym.sparse.dot(x, w).simple_bind(mx.cpu(), x=(2, 5), w=(5, 2))
    assert exe.arg_dict['w'].stype == weight_stype and exe.grad_dict['w'].stype == 'row_sparse'
    assert exe.grad_dict['x'].stype == 'default'
    xv = np.array([[1., 0., 2., 0., 0.], [0., 0., 3., 0., 4.]], np.float32)
    wv = np.arange(10, dtype=np.float32).reshape(5, 2) / 10
    exe.arg_dict['x'][:] = mx.nd.array(xv).tostype('csr')
    exe.arg_dict['w'][:] = mx.nd.array(wv)
    exe.forward(is_train=True)
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), xv @ wv, rtol=1e-6)
    head = np.array([[1., -1.], [0., 0.]], np.float32)  # the second row's rows get a zero gradient
    exe.backward(mx.nd.array(head))
    grad = exe.grad_dict['w']
    assert grad.indices.asnumpy().tolist() == [0, 2, 4]
    np.testing.assert_allclose(grad.asnumpy(), xv.T @ head, rtol=1e-6)
    assert not (xv.T @ head)[4].any()
    exe = mx.sym.sparse.dot(x, w, transpose_a=True).simple_bind(mx.cpu(), x=(5, 2), w=(5, 2))
    assert exe.grad_dict['w'].stype == 'default'


def test_simple_bind_forward_kwargs_and_compile_once(rng):
    sym = _net()
    exe = sym.simple_bind(mx.cpu(), a=(2, 3), b=(2, 3))
    assert [x.shape for x in exe.arg_arrays] == [(2, 3), (2, 3)]
    assert [g.shape for g in exe.grad_arrays] == [(2, 3), (2, 3)]
    assert [o.shape for o in exe.outputs] == [(2, 3), (2,)]  # before any forward
    a, b = _values(rng)
    for _ in range(3):
        out = exe.forward(a=a, b=mx.nd.array(b))
    np.testing.assert_allclose(out[1].asnumpy(), a.sum(1), rtol=1e-6)
    np.testing.assert_allclose(exe.arg_dict['a'].asnumpy(), a)
    forward = exe._jit[('forward', False)]
    programs = {id(f): f._cache_size() for f in (forward.cold, forward.hot)}  # one tier on a GPU
    assert sum(programs.values()) == 1  # compiled once for this signature
    bigger = exe.reshape(allow_up_sizing=True, a=(4, 3), b=(4, 3))
    assert bigger.arg_dict['a'].shape == (4, 3)
    nulls = sym.simple_bind(mx.cpu(), grad_req='null', a=(2, 3), b=(2, 3))
    assert nulls.grad_arrays == [None, None] and nulls.grad_dict == {'a': None, 'b': None}
    typed = sym.simple_bind(mx.cpu(), type_dict={'a': 'float64', 'b': 'float64'}, a=(2, 3), b=(2, 3))
    assert typed.arg_dict['a'].dtype == np.float64 and typed.forward()[0].dtype == np.float64
    with pytest.raises(RuntimeError, match='simple_bind error. Arguments:\na: \\(2, 3\\)\n.*cannot infer the shapes of b'):
        mx.sym.broadcast_add(mx.sym.var('a'), mx.sym.var('b')).simple_bind(mx.cpu(), a=(2, 3))


def test_copy_params_from_and_eval(rng):
    sym = _net()
    exe = sym.simple_bind(mx.cpu(), a=(2, 3), b=(2, 3))
    a, b = _values(rng)
    exe.copy_params_from({'a': mx.nd.array(a), 'b': mx.nd.array(b)})
    np.testing.assert_allclose(exe.forward()[1].asnumpy(), a.sum(1), rtol=1e-6)
    with pytest.raises(ValueError, match='Find name "zz"'):
        exe.copy_params_from({'zz': mx.nd.ones(1)})
    exe.copy_params_from({'zz': mx.nd.ones(1)}, allow_extra_params=True)
    outs = sym.eval(mx.cpu(), a=mx.nd.array(a), b=mx.nd.array(b))
    np.testing.assert_allclose(outs[0].asnumpy(), np.exp(a * b) + np.sqrt(b) * 2, rtol=1e-6)


def test_loss_output_backward_without_head_gradients(rng):
    sym = NETS['mlp'](mx)
    exe = sym.simple_bind(mx.cpu(), data=(3, 5), grad_req={'data': 'null', 'fc1_weight': 'write',
                                                           'fc1_bias': 'write', 'fc2_weight': 'write',
                                                           'out_label': 'null'})
    for n, arr in exe.arg_dict.items():
        arr[:] = rng.uniform(-1, 1, arr.shape).astype(np.float32)
    exe.arg_dict['out_label'][:] = np.array([0, 3, 1], dtype=np.float32)
    out = exe.forward(is_train=True)[0].asnumpy()
    exe.backward()
    # SoftmaxOutput's gradient is softmax - onehot(label), whatever the head gradient
    h = np.maximum(exe.arg_dict['data'].asnumpy() @ exe.arg_dict['fc1_weight'].asnumpy().T
                   + exe.arg_dict['fc1_bias'].asnumpy(), 0)
    onehot = np.eye(4)[[0, 3, 1]]
    np.testing.assert_allclose(exe.grad_dict['fc2_weight'].asnumpy(), (out - onehot).T @ h, rtol=1e-4, atol=1e-6)


# ---- networks written by MXNet, with MXNet's numbers -------------------------------------------------

@pytest.mark.parametrize('name', ['mf', 'mlp', 'lenet', 'bnnet', 'multi', 'arith'])
def test_mxnet_network_runs_with_mxnet_numbers(name):
    path = os.path.join(SYM, '%s_small-symbol.json' % name)
    if not os.path.exists(path):
        path = os.path.join(SYM, '%s-symbol.json' % name)
    ref = np.load(os.path.join(SYM, '%s_io.npz' % name))
    sym = mx.sym.load(path)
    args = {k[4:]: mx.nd.array(v) for k, v in ref.items() if k.startswith('arg:')}
    aux = {k[4:]: mx.nd.array(v) for k, v in ref.items() if k.startswith('aux:')}
    grads = {k[5:]: mx.nd.zeros(v.shape) for k, v in ref.items() if k.startswith('grad:')}
    exe = sym.bind(mx.cpu(), args, args_grad=grads, aux_states=aux,
                   grad_req={n: 'write' if n in grads else 'null' for n in args})
    n_out = len(sym.list_outputs())
    for i, o in enumerate(exe.forward(is_train=False)):
        np.testing.assert_allclose(o.asnumpy(), ref['pred:%d' % i], rtol=1e-4, atol=1e-5)
    for i, o in enumerate(exe.forward(is_train=True)):
        np.testing.assert_allclose(o.asnumpy(), ref['train:%d' % i], rtol=1e-4, atol=1e-5)
    for n, a in aux.items():
        np.testing.assert_allclose(a.asnumpy(), ref['aux_after:' + n], rtol=1e-4, atol=1e-5)
    exe.backward([mx.nd.array(ref['head:%d' % i]) for i in range(n_out)])
    for n, g in grads.items():
        np.testing.assert_allclose(g.asnumpy(), ref['grad:' + n], rtol=1e-4, atol=1e-5, err_msg=n)


def test_set_monitor_callback_reports_operator_outputs():
    data = mx.sym.Variable('data')
    net = mx.sym.relu(mx.sym.FullyConnected(data, num_hidden=3, name='fc'), name='act')
    exe = net.simple_bind(mx.cpu(), data=(2, 4), grad_req='null')
    exe.arg_dict['data'][:] = np.arange(8).reshape(2, 4) - 4
    exe.arg_dict['fc_weight'][:] = 1
    seen = {}
    exe.set_monitor_callback(lambda name, arr: seen.__setitem__(name, arr.asnumpy()))
    exe.forward()
    assert list(seen) == ['fc_output', 'act_output']
    fc = (np.arange(8).reshape(2, 4) - 4).sum(axis=1, keepdims=True) * np.ones((1, 3))
    np.testing.assert_allclose(seen['fc_output'], fc)
    np.testing.assert_allclose(seen['act_output'], np.maximum(fc, 0))
    seen.clear()
    exe.set_monitor_callback(lambda name, arr: seen.__setitem__(name, arr), monitor_all=True)
    exe.forward()
    assert list(seen) == ['data', 'fc_data', 'fc_weight', 'fc_bias', 'fc_output', 'act_input0', 'act_output']


def test_monitor_all_names_inputs_as_mxnet_and_passes_arrays_as_handles():
    """MXNet 1.9.1's names: variadic inputs arg<i>, named inputs (softmax's data), input<i> for
    operators that name none (Activation); the array converts to an NDArrayHandle and back."""
    import ctypes
    from gluonjax.operator import NDArray, NDArrayHandle
    data = mx.sym.Variable('data')
    net = mx.sym.softmax(mx.sym.Activation(mx.sym.concat(data, data, dim=0, name='cc'), act_type='relu',
                                           name='act'), name='sm')
    exe = net.simple_bind(mx.cpu(), data=(1, 2), grad_req='null')
    exe.arg_dict['data'][:] = np.array([[1., -1.]])
    seen = []
    exe.set_monitor_callback(lambda name, arr: seen.append(
        (name, NDArray(ctypes.cast(arr, NDArrayHandle), writable=False).asnumpy())), monitor_all=True)
    exe.forward()
    assert [n for n, _ in seen] == ['data', 'cc_arg0', 'data', 'cc_arg1', 'cc_output', 'act_input0',
                                    'act_output', 'sm_data', 'sm_output']
    np.testing.assert_allclose(seen[6][1], [[1, 0], [1, 0]])


def test_simple_bind_ignores_keywords_that_are_not_shapes():
    """MXNet reads only tuple keywords as shapes (GluonNLP's tests pass force_rebind=True)."""
    import gluonjax as mx
    exe = (mx.sym.var('x') * 2).simple_bind(mx.cpu(), x=(2, 3), force_rebind=True)
    assert exe.arg_dict['x'].shape == (2, 3)


def test_executor_reshape_shares_memory_and_outputs_stay_the_same_arrays():
    """MXNet's reshape: a smaller argument (and output) is a view of the first elements of the
    original executor's array, an unchanged one the same array, a larger one new (if allowed)."""
    y = mx.sym.FullyConnected(mx.sym.Variable('x'), num_hidden=4)
    exe = y.simple_bind(mx.cpu(), x=(5, 4), grad_req='null')
    exe.arg_arrays[0][:] = 1
    exe.arg_arrays[1][:] = 1
    exe.arg_arrays[2][:] = 0
    small = exe.reshape(x=(3, 4))
    assert small.arg_arrays[1] is exe.arg_arrays[1]
    small.forward()
    assert exe.outputs[0].asnumpy()[:3].tolist() == [[4.0] * 4] * 3
    out = exe.forward()[0]
    exe.arg_arrays[0][:] = 2
    exe.forward()
    assert out.asnumpy()[0, 0] == 8.0  # the array returned earlier holds the latest forward
    big = exe.reshape(allow_up_sizing=True, x=(6, 4))
    big.arg_arrays[0][:] = 0
    assert exe.arg_arrays[0].asnumpy()[0, 0] == 2.0
    with pytest.raises(MXNetError, match='larger than the original'):
        exe.reshape(x=(6, 4))


def test_executors_of_the_same_graph_share_compiled_code():
    """A bind per iteration (new node names each time, as mx.sym.random.uniform makes) reuses the
    first executor's compiled forward; a different graph gets its own."""
    def bound(op):
        y = op(mx.sym.random.uniform(shape=(2, 3)), mx.sym.Variable('X'))
        return y.bind(mx.cpu(), {'X': mx.nd.zeros((2, 3))})
    first, second = bound(mx.sym.broadcast_add), bound(mx.sym.broadcast_add)
    for exe in (first, second):  # a small graph's first forward runs node by node; the second compiles
        exe.forward()
        exe.forward()
    assert first._jit[('forward', False)] is second._jit[('forward', False)]
    other = bound(mx.sym.broadcast_mul)
    other.forward()
    other.forward()
    assert other._jit[('forward', False)] is not first._jit[('forward', False)]
    mx.random.seed(3)
    a = first.forward()[0].asnumpy()
    mx.random.seed(3)
    np.testing.assert_array_equal(second.forward()[0].asnumpy(), a)  # same seed, same numbers


def _two_stage_net():
    with mx.AttrScope(ctx_group='stage1'):
        data = mx.sym.var('data')
        hidden = mx.sym.relu(mx.sym.FullyConnected(data, num_hidden=4, name='fc1'))
    with mx.AttrScope(ctx_group='stage2'):
        out = mx.sym.FullyConnected(hidden, num_hidden=2, name='fc2')
    return out


def test_group2ctx_places_each_ctx_group_on_its_context():
    net = _two_stage_net()
    group2ctx = {'stage1': mx.cpu(1), 'stage2': mx.cpu(2)}
    exe = net.simple_bind(mx.cpu(0), group2ctx=group2ctx, data=(3, 5))
    where = {n: a.context for n, a in exe.arg_dict.items()}
    assert where == {'data': mx.cpu(1), 'fc1_weight': mx.cpu(1), 'fc1_bias': mx.cpu(1),
                     'fc2_weight': mx.cpu(2), 'fc2_bias': mx.cpu(2)}
    assert all(exe.grad_dict[n].context == c for n, c in where.items())
    rs = np.random.RandomState(0)
    values = {n: rs.randn(*a.shape).astype('float32') for n, a in exe.arg_dict.items()}
    for n, v in values.items():
        exe.arg_dict[n][:] = v
    out = exe.forward(is_train=True)[0]
    assert out.context == mx.cpu(2)  # the last node ran on stage2's device
    ref = net.simple_bind(mx.cpu(0), data=(3, 5))
    for n, v in values.items():
        ref.arg_dict[n][:] = v
    np.testing.assert_allclose(out.asnumpy(), ref.forward(is_train=True)[0].asnumpy(), rtol=1e-5)
    head = mx.nd.array(rs.randn(3, 2))
    exe.backward([head.copyto(mx.cpu(2))])
    ref.backward([head])
    for n in where:
        assert exe.grad_dict[n].context == where[n]
        np.testing.assert_allclose(exe.grad_dict[n].asnumpy(), ref.grad_dict[n].asnumpy(), rtol=1e-5, atol=1e-6)


def test_group2ctx_bind_copies_between_devices():
    with mx.AttrScope(ctx_group='dev1'):
        net = (mx.sym.var('a') + mx.sym.var('b')) * 3
    with mx.AttrScope(ctx_group='dev2'):
        net = net + mx.sym.var('c')
    args = [mx.nd.ones((2, 2), ctx=mx.cpu(0)), mx.nd.ones((2, 2), ctx=mx.cpu(0)) * 2,
            mx.nd.ones((2, 2), ctx=mx.cpu(1)) * 3]
    grads = [mx.nd.zeros((2, 2), ctx=a.context) for a in args]
    exe = net.bind(mx.cpu(0), args=args, args_grad=grads, group2ctx={'dev1': mx.cpu(0), 'dev2': mx.cpu(1)})
    np.testing.assert_allclose(exe.forward(is_train=True)[0].asnumpy(), np.full((2, 2), 12.0))
    exe.backward([mx.nd.ones((2, 2), ctx=mx.cpu(1))])
    assert [g.asnumpy()[0, 0] for g in grads] == [3.0, 3.0, 1.0]
    assert [g.context for g in grads] == [mx.cpu(0), mx.cpu(0), mx.cpu(1)]
    with pytest.raises(TypeError, match='group2ctx'):
        net.bind(mx.cpu(0), args=args, group2ctx={'dev1': 'cpu'})


def test_binding_a_gradient_through_an_operator_without_one_fails_as_in_mxnet():
    x, idx = mx.sym.var('x'), mx.sym.var('idx')
    taken = mx.sym.batch_take(x, idx)
    shapes = dict(x=(4, 3), idx=(4,), type_dict={'x': np.float32, 'idx': np.int32})
    with pytest.raises(MXNetError, match='batch_take .* non-differentiable'):
        taken.simple_bind(mx.cpu(), **shapes)
    exe = mx.sym.stop_gradient(taken).simple_bind(mx.cpu(), **shapes)  # no gradient needed through it
    exe.arg_dict['x'][:] = np.arange(12.).reshape(4, 3)
    exe.arg_dict['idx'][:] = [2, 0, 1, 2]
    np.testing.assert_array_equal(exe.forward(is_train=True)[0].asnumpy(), [2, 3, 7, 11])
    exe.backward()
    np.testing.assert_array_equal(exe.grad_dict['x'].asnumpy(), np.zeros((4, 3)))
    taken.simple_bind(mx.cpu(), grad_req='null', **shapes)


def test_an_atomic_symbol_is_the_operator_alone_and_composes_again():
    fc = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3, name='fc')
    atomic = fc._gen_atomic_symbol()
    assert (atomic.list_arguments(), atomic.list_outputs(), atomic.name) == ([], ['output'], '')
    again = atomic(data=mx.sym.var('x'), name='q')
    assert again.list_arguments() == ['x', 'q_weight', 'q_bias']
    assert again.infer_shape(x=(2, 5))[1] == [(2, 3)]
    rnn = mx.sym.RNN(mx.sym.var('data'), mx.sym.var('p'), mx.sym.var('h0'), mx.sym.var('h1'), state_size=4,
                     num_layers=1, state_outputs=True, mode='lstm')
    assert rnn._gen_atomic_symbol().list_outputs() == ['output', 'state_output', 'statecell_output']


def test_cached_op_runs_a_symbol_on_ndarrays_and_records_one_node():
    sym = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc') * 2
    op = mx.nd.CachedOp(sym)
    data = mx.nd.array(np.arange(6.).reshape(2, 3))
    weight, bias = mx.nd.ones((2, 3)), mx.nd.array([1., -1.])
    expected = 2 * (data.asnumpy() @ weight.asnumpy().T + bias.asnumpy())
    np.testing.assert_allclose(op(data, weight, bias).asnumpy(), expected)
    out = mx.nd.zeros((2, 2))
    assert op(data, weight, bias, out=out) is out
    np.testing.assert_allclose(out.asnumpy(), expected)
    weight.attach_grad()
    with autograd.record():
        op(data, weight, bias).sum().backward()
    np.testing.assert_allclose(weight.grad.asnumpy(), 2 * np.tile(data.asnumpy().sum(0), (2, 1)))
    with pytest.raises(MXNetError, match='CachedOp: 2 inputs given, the graph takes 3'):
        op(data, weight)


def test_an_array_whose_graph_was_freed_is_a_constant_in_a_new_recording():
    x = mx.nd.ones((2,))
    x.attach_grad()
    with autograd.record():
        y = x + 1
        z = y * 3
    z.backward()
    with autograd.record():
        w = y * 2 + x  # y's graph is gone: only x's own path gives a gradient, as in MXNet
    w.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [1, 1])
    with pytest.raises(MXNetError, match='already freed'):
        z.backward()


def test_backward_without_forward_runs_the_forward_first():
    # MXNet's own tests of linear operators call backward alone (test_repeat, test_tile)
    data = mx.sym.Variable('data')
    arr, grad = mx.nd.array(np.arange(12).reshape(3, 4)), mx.nd.empty((3, 4))
    exe = mx.sym.repeat(data, repeats=2, axis=0).bind(ctx=mx.cpu(), args=[arr], args_grad=[grad])
    head = np.arange(24, dtype=np.float32).reshape(6, 4)
    exe.backward(mx.nd.array(head))
    np.testing.assert_array_equal(grad.asnumpy(), head.reshape(3, 2, 4).sum(1))
    np.testing.assert_array_equal(exe.outputs[0].asnumpy(), np.repeat(np.arange(12).reshape(3, 4), 2, axis=0))


@pytest.mark.parametrize('src,dst', [('int32', 'float32'), ('float32', 'int32'), ('int32', 'int32')])
def test_cast_passes_gradients_through_integer_types_as_mxnet(src, dst):
    """MXNet 1.9.1 (test_operator's test_cast): the head gradient, cast to the output's type, is
    cast back to the argument's (int32 -> float32 gives [0, 4, -2] for heads [0.97, 4.3, -2.05])."""
    y = mx.sym.Cast(mx.sym.Variable('x', dtype=src), dtype=dst)
    exe = y.simple_bind(mx.cpu(), x=(3,))
    x = np.array([0.97627008, 4.30378733, -2.05526752])
    exe.arg_arrays[0][:] = x
    exe.forward(is_train=True)
    exe.backward(mx.nd.array(x, dtype=dst))
    assert exe.grad_arrays[0].dtype == np.dtype(src)
    np.testing.assert_allclose(exe.grad_arrays[0].asnumpy(), x.astype(dst).astype(src), rtol=1e-6)


def test_debug_str_reports_the_memory_xla_plans():
    """Executor.debug_str ends with MXNet's 'Total N MB allocated': XLA's account of the compiled
    programs' temporaries and outputs; training keeps each layer's input for the backward."""
    import re
    net = mx.sym.var('data')
    for i in range(4):
        net = mx.sym.FullyConnected(net, num_hidden=1024, name='fc%d' % i)
    sizes = {}
    for req in ('write', 'null'):
        text = net.simple_bind(mx.cpu(), data=(512, 1024), grad_req=req).debug_str()
        assert text.startswith(net.debug_str())
        sizes[req] = int(re.search(r'Total (\d+) MB allocated\n$', text).group(1))
    assert sizes['null'] >= 2  # the (512, 1024) float32 output: 2 MB
    assert sizes['write'] > sizes['null']


@pytest.mark.skipif(mx.context.num_gpus() > 0, reason='a GPU is present: exp has no size buckets there')
def test_executors_bound_per_new_shape_compile_no_backward_each(compiles):
    """An executor's first backward through operators whose first calls compile nothing runs
    node by node on the tape (pointwise operators in size buckets), where the compiled backward
    was a program per bound shape; the gradients are the same."""
    rng = np.random.RandomState(5)
    a, b = mx.sym.Variable('a'), mx.sym.Variable('b')
    sym = mx.sym.broadcast_sub(mx.sym.broadcast_mul(mx.sym.exp(a), b), a)
    shapes = [((2, 1, k), (1, 3, k)) for k in range(3, 15)]  # 12 shapes never seen before
    before = compiles[0]
    for sa, sb in shapes:
        x, y = rng.rand(*sa).astype('float32'), rng.rand(*sb).astype('float32')
        head = rng.rand(*np.broadcast_shapes(sa, sb)).astype('float32')
        ga, gb = mx.nd.zeros(sa), mx.nd.zeros(sb)
        exe = sym.bind(mx.cpu(), args={'a': mx.nd.array(x), 'b': mx.nd.array(y)}, args_grad=[ga, gb])
        exe.forward(is_train=True)
        exe.backward([mx.nd.array(head)])
        np.testing.assert_allclose(ga.asnumpy(), (head * np.exp(x) * y).sum(axis=1, keepdims=True)
                                   - head.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gb.asnumpy(), (head * np.exp(x)).sum(axis=0, keepdims=True), rtol=1e-5)
    assert compiles[0] - before <= 6  # size-bucket programs, shared by all the shapes (was 12+)
    exe.backward([mx.nd.array(head)])  # a second backward of the same executor: its compiled program
    np.testing.assert_allclose(gb.asnumpy(), (head * np.exp(x)).sum(axis=0, keepdims=True), rtol=1e-5)


def test_a_head_gradient_the_backward_never_reads_may_have_any_shape():
    """shape_array's gradient is zero whatever its head (MXNet's test_shape_array passes the
    input's shape as the head's); a head the backward reads must fit its output."""
    x = mx.sym.var('x')
    xg = mx.nd.ones((9,))
    exe = mx.sym.shape_array(x).bind(mx.cpu(), args={'x': mx.nd.ones((9,))}, args_grad={'x': xg})
    exe.forward(is_train=True)
    exe.backward([mx.nd.ones((9,))])
    np.testing.assert_array_equal(exe.outputs[0].asnumpy(), [9])
    np.testing.assert_array_equal(xg.asnumpy(), np.zeros(9))
    exe = mx.sym.Cast(x, dtype='int32').bind(mx.cpu(), args={'x': mx.nd.ones((3,))}, args_grad={'x': mx.nd.ones((3,))})
    exe.forward(is_train=True)
    with pytest.raises(MXNetError, match='head gradient of output 0 has shape'):
        exe.backward([mx.nd.ones((4,), dtype='int32')])
