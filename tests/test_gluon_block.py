"""gluon.Block / HybridBlock: eager and hybridized execution, autograd, tracing, hooks, summary."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax import name as mxname
from gluonjax.base import MXNetError


class Affine(gluon.HybridBlock):
    """y = relu(x * w + b) * 2, written with table operators only."""

    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.traces = 0
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(units,))
            self.bias = self.params.get('bias', shape=(units,), init='zeros')

    def hybrid_forward(self, F, x, weight, bias):
        if F is mx.sym:
            self.traces += 1
        return F.broadcast_add(F.broadcast_mul(x, weight), bias).relu() * 2


class TwoHeads(gluon.HybridBlock):
    """Two inputs, two outputs (a nested list), a child block."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.inner = Affine(3)

    def hybrid_forward(self, F, a, b):
        h = self.inner(a)
        return [h * b, F.sigmoid(h) - b], h + 1


class Gluon2(gluon.HybridBlock):
    """Gluon-2 style: forward() reads Parameter.data() itself and calls mx.nd functions."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.scale = gluon.Parameter('scale', shape=(3,), init=mx.init.Constant(0.5))
        self.inner = Affine(3)

    def forward(self, x):
        return nd.broadcast_mul(self.inner(x), self.scale.data()) + x


def _x(shape=(2, 3), seed=0):
    return nd.array(np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32))


def _run(net, *inputs, record=True):
    """Outputs (numpy) and parameter/input gradients of sum(outputs)."""
    for x in inputs:
        x.attach_grad()
    with autograd.record():
        out = net(*inputs)
        flat = list(out) if isinstance(out, (list, tuple)) else [out]
        flat = [o for item in flat for o in (item if isinstance(item, (list, tuple)) else [item])]
        total = flat[0].sum()
        for o in flat[1:]:
            total = total + o.sum()
    total.backward()
    grads = {n: p.grad().asnumpy().copy() for n, p in net.collect_params().items() if p.grad_req != 'null'}
    grads.update({'input%d' % i: x.grad.asnumpy().copy() for i, x in enumerate(inputs)})
    return [o.asnumpy() for o in flat], grads


def _assert_same(a, b, rtol=1e-5, atol=1e-6):
    outs_a, grads_a = a
    outs_b, grads_b = b
    assert len(outs_a) == len(outs_b)
    for x, y in zip(outs_a, outs_b):
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol)
    assert grads_a.keys() == grads_b.keys()
    for k in grads_a:
        np.testing.assert_allclose(grads_a[k], grads_b[k], rtol=rtol, atol=atol, err_msg=k)


def test_eager_equals_hybridized_outputs_and_gradients():
    net = Affine()
    net.initialize(mx.init.Uniform(1.0))
    x = _x()
    eager = _run(net, x)
    w, b = net.weight.data().asnumpy(), net.bias.data().asnumpy()
    ref = np.maximum(x.asnumpy() * w + b, 0) * 2
    np.testing.assert_allclose(eager[0][0], ref, rtol=1e-6)
    np.testing.assert_allclose(eager[1]['input0'], 2 * w * (x.asnumpy() * w + b > 0) * np.ones_like(ref))
    net.hybridize()
    hybrid = _run(net, x)
    _assert_same(eager, hybrid)
    assert net.traces == 1
    net(x)
    assert net.traces == 1          # compiled once per signature
    net(_x((4, 3)))
    assert net.traces == 2          # a new shape traces again
    net.hybridize(False)
    _assert_same(eager, _run(net, x))


def test_hybridized_call_is_one_tape_node():
    net = Affine()
    net.initialize()
    net.hybridize()
    x = _x()
    x.attach_grad()
    with autograd.record():
        y = net(x)
    node, index = y._ag
    assert index == 0 and node.name == net.name
    # the node's inputs: the data, then the parameters (their leaves)
    leaves = [p for p in node.parents if isinstance(p, autograd.Leaf)]
    assert x._ag in leaves and net.weight.data()._ag in leaves and net.bias.data()._ag in leaves
    # nothing recorded when no input is tracked
    net.collect_params().setattr('grad_req', 'null')
    z = _x()
    with autograd.record():
        y = net(z)
    assert y._ag is None


def test_several_inputs_and_outputs_and_nesting():
    net = TwoHeads()
    net.initialize(mx.init.Uniform(1.0))
    a, b = _x((2, 3), 1), _x((2, 3), 2)
    eager = _run(net, a, b)
    net.hybridize()
    out = net(a, b)
    assert isinstance(out, tuple) or isinstance(out, list)
    assert isinstance(out[0], list) and len(out[0]) == 2
    _assert_same(eager, _run(net, a, b))
    assert net.inner.traces == 1    # traced once, as part of the parent's graph


def test_gluon2_forward_eager_and_hybridized():
    net = Gluon2()
    net.initialize(mx.init.Uniform(1.0))
    x = _x()
    eager = _run(net, x)
    inner = np.maximum(x.asnumpy() * net.inner.weight.data().asnumpy(), 0) * 2
    np.testing.assert_allclose(eager[0][0], inner * 0.5 + x.asnumpy(), rtol=1e-6)
    net.hybridize()
    _assert_same(eager, _run(net, x))
    assert isinstance(net(mx.sym.var('data')), mx.sym.Symbol)


def test_shapes_are_known_while_tracing():
    seen = []

    class UsesShape(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            seen.append((F.__name__, x.shape))
            return x.reshape((x.shape[0], -1)) * float(x.shape[1])
    net = UsesShape()
    net.hybridize()
    y = net(_x((2, 3, 4)))
    assert y.shape == (2, 12)
    assert seen == [('gluonjax.symbol', (2, 3, 4))]


def test_trace_failure_names_block_path_and_operator():
    class Bad(gluon.HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = self.params.get('weight', shape=(5,))

        def hybrid_forward(self, F, x, w):
            return F.broadcast_add(x, w)
    with mxname.NameManager():
        net = gluon.nn.HybridSequential()
        with net.name_scope():
            net.add(Affine(3), Bad())
    net.initialize()
    net.hybridize()
    with pytest.raises(MXNetError) as info:
        net(_x())
    message = str(info.value)
    assert 'hybridsequential0_bad0 (Bad)' in message
    assert 'broadcast_add' in message


def test_symbol_input_gives_symbol_with_mxnet_names():
    with mxname.NameManager():
        net = gluon.nn.HybridSequential()
        with net.name_scope():
            net.add(Affine(3), Affine(3))
    out = net(mx.sym.var('data'))
    assert isinstance(out, mx.sym.Symbol)
    assert out.list_arguments() == ['data', 'hybridsequential0_affine0_weight',
                                    'hybridsequential0_affine0_bias',
                                    'hybridsequential0_affine1_weight',
                                    'hybridsequential0_affine1_bias']


def test_hybridize_recurses_and_sequential_warns():
    seq = gluon.nn.Sequential()
    seq.add(Affine(3), Affine(3))
    seq.initialize()
    x = _x()
    eager = seq(x).asnumpy()
    with pytest.warns(UserWarning, match='Consider using HybridSequential'):
        seq.hybridize()
    assert all(c._active for c in seq._children.values())
    np.testing.assert_allclose(seq(x).asnumpy(), eager, rtol=1e-6)


def test_block_structure_helpers():
    net = gluon.nn.HybridSequential()
    net.add(Affine(3), Affine(3))
    assert len(net) == 2 and isinstance(net[1], Affine)
    sub = net[:1]
    assert isinstance(sub, gluon.nn.HybridSequential) and len(sub) == 1
    visited = []
    net.apply(lambda b: visited.append(type(b).__name__))
    assert visited == ['Affine', 'Affine', 'HybridSequential']
    net.initialize()
    net.cast('float64')
    assert net[0].weight.data().dtype == np.float64
    with pytest.raises(TypeError, match='Changing attribute type'):
        net[0].weight = 3
    calls = []
    handle = net.register_forward_hook(lambda blk, inp, out: calls.append(out.shape))
    pre = net.register_forward_pre_hook(lambda blk, inp: calls.append('pre'))
    net(_x().astype('float64'))
    handle.detach()
    pre.detach()
    net(_x().astype('float64'))
    assert calls == ['pre', (2, 3)]


def test_summary_prints_layers(capsys):
    with mxname.NameManager():
        net = gluon.nn.HybridSequential()
        net.add(Affine(3), Affine(3))
    net.initialize()
    net.summary(_x())
    text = capsys.readouterr().out
    assert 'Affine-1' in text and 'Affine-2' in text and '(2, 3)' in text
    assert 'Total params: 12' in text
    net.hybridize()
    with pytest.raises(AssertionError, match='must not be hybridized'):
        net.summary(_x())


def test_parameters_on_several_devices_run_where_the_input_is():
    net = Affine()
    net.initialize(mx.init.Uniform(1.0), ctx=[mx.cpu(0), mx.cpu(1)])
    net.hybridize()
    x0 = _x().as_in_context(mx.cpu(0))
    x1 = _x().as_in_context(mx.cpu(1))
    y0, y1 = net(x0), net(x1)
    assert y1.context == mx.cpu(1)
    np.testing.assert_allclose(y0.asnumpy(), y1.asnumpy())
    with pytest.raises(RuntimeError, match='not initialized on context'):
        net(_x().as_in_context(mx.cpu(2)))


def test_hybridized_call_keeps_overridden_forward_and_hooks():
    """A hybridized call on one NDArray goes straight to the compiled graph only when nothing
    else would run: an overridden ``forward`` around ``hybrid_forward`` and hooks still run."""
    from gluonjax import nd
    from gluonjax.gluon import nn

    class Doubler(nn.HybridBlock):
        def hybrid_forward(self, F, x):
            return x * 2

    class PlusOne(Doubler):
        def forward(self, x):
            return super().forward(x) + 1

    x = nd.array([[1., 2.]])
    for cls, want in ((Doubler, [[2., 4.]]), (PlusOne, [[3., 5.]])):
        net = cls()
        net.hybridize()
        for _ in range(2):  # the first call compiles, the second takes the compiled path
            np.testing.assert_array_equal(net(x).asnumpy(), want)
    net = Doubler()
    net.hybridize()
    seen = []
    net.register_forward_pre_hook(lambda block, args: seen.append(('pre', args[0].shape)))
    net.register_forward_hook(lambda block, args, out: seen.append(('post', out.asnumpy().tolist())))
    net(x)
    net(x)
    assert seen == [('pre', (1, 2)), ('post', [[2., 4.]])] * 2


class _WithFeatures(gluon.HybridBlock):
    """A head over a SymbolBlock cut from a deferred-shape network (GluonCV's FeatureExpander)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            base = gluon.nn.HybridSequential(prefix='base_')
            with base.name_scope():
                base.add(gluon.nn.Conv2D(4, 3), gluon.nn.BatchNorm(), gluon.nn.Dense(5))
            data = mx.sym.var('data')
            cut = base(data).get_internals()[base.prefix + 'batchnorm0_fwd_output']
            extra = mx.sym.Convolution(cut, num_filter=2, kernel=(1, 1), name='extra',
                                       attr={'__init__': mx.init.Xavier()})
            self.features = gluon.SymbolBlock([extra], [data], base.collect_params())
            self.head = gluon.nn.Conv2D(3, 1)

    def hybrid_forward(self, F, x):
        return self.head(self.features(x))


def test_symbol_block_inside_a_hybridized_parent_completes_deferred_shapes():
    x = mx.nd.random.uniform(shape=(2, 3, 8, 8))
    eager = _WithFeatures(prefix='outer_')
    eager.initialize()
    want = eager(x)
    net = _WithFeatures(prefix='outer_')
    net.initialize()
    net.hybridize()
    got = net(x)
    assert got.shape == want.shape == (2, 3, 6, 6)
    params = net.collect_params()
    assert params['outer_base_conv0_weight'].shape == (4, 3, 3, 3)
    extra = [p for name, p in params.items() if name.endswith('extra_weight')]
    assert [p.shape for p in extra] == [(2, 4, 1, 1)] and params['outer_conv0_weight'].shape == (3, 2, 1, 1)
    net.collect_params().load_dict({k: v.data() for k, v in eager.collect_params().items()})
    np.testing.assert_allclose(net(x).asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)


def test_operator_attr_values_are_stored_as_strings():
    """MXNet's creator stores str(value) for an operator's attr=; a variable's must be strings."""
    init = mx.init.Xavier(magnitude=2)
    sym = mx.sym.Convolution(mx.sym.var('data'), num_filter=2, kernel=(1, 1), name='c', attr={'__init__': init})
    assert sym.list_attr()['__init__'] == str(init)
    with pytest.raises(ValueError, match='Attributes need to be string'):
        mx.sym.var('v', attr={'__lr_mult__': 2})


def test_multi_worker_iter_collects_pool_batches_in_order():
    """gluon.data.dataloader._MultiWorkerIter, which GluonCV's RandomTransformDataLoader subclasses."""
    from multiprocessing.pool import ThreadPool
    from gluonjax.gluon.data.dataloader import _MultiWorkerIter, default_batchify_fn
    dataset = gluon.data.ArrayDataset(np.arange(10, dtype='float32'))
    sampler = gluon.data.BatchSampler(gluon.data.SequentialSampler(10), 4, 'keep')
    with ThreadPool(2) as pool:
        it = _MultiWorkerIter(pool, default_batchify_fn, sampler, prefetch=2, dataset=dataset)
        batches = [b.asnumpy().tolist() for b in it]
    assert len(it) == 3
    assert batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_unhybridized_block_passes_scalars_and_hybridized_refuses_them_and_mixed_inputs():
    class Add(gluon.HybridBlock):  # MXNet's test_hybrid_block_hybrid_no_hybrid
        def hybrid_forward(self, F, a, b):
            a = sum(a) if isinstance(a, list) else a
            return a + b
    block = Add()
    assert block([mx.nd.ones((2,)), mx.nd.ones((2,))], 3).asnumpy().tolist() == [5.0, 5.0]
    block.hybridize()
    with pytest.raises(ValueError, match='must be \\(nested\\) list of Symbol or NDArray'):
        block(mx.nd.ones((2,)), 1)
    with pytest.raises(ValueError, match='mixed NDArrays and Symbols'):
        Add()(mx.nd.ones((2,)), mx.sym.var('a'))
    assert block(mx.nd.ones((2,)), mx.nd.ones((2,))).asnumpy().tolist() == [2.0, 2.0]


def test_hybridized_block_keeps_its_argument_structure_but_takes_new_shapes():
    class AddOrPass(gluon.HybridBlock):
        def hybrid_forward(self, F, a, b=None):
            return a if b is None else a + b

    net = AddOrPass()
    net.hybridize()
    net(nd.ones((2,)), None)
    np.testing.assert_array_equal(net(nd.ones((3,))).asnumpy(), np.ones(3))  # trailing None: same
    with pytest.raises(ValueError, match='argument structure of HybridBlock does not match'):
        net(nd.ones((2,)), nd.ones((2,)))


def test_losses_take_an_optional_weight_in_any_call():
    # losses are compiled without being hybridized by the user: MXNet runs them eagerly, so
    # calls with and without sample_weight may follow each other
    loss = gluon.loss.L1Loss()
    out, label = nd.array([1, 2, 3, 4]), nd.array([1, 3, 5, 7])
    assert loss(out, label, nd.array([0.5, 1, 0.5, 1])).sum().asscalar() == 5
    assert loss(out, label).sum().asscalar() == 6


def test_blocks_of_equal_structure_share_one_compiled_graph(compiles):
    """A new Block whose graph equals one compiled before (a script or a test building a Block
    per call) reuses the compiled forward, its vjp form and its backward, although its
    parameters carry another prefix."""
    def train_step():
        net = gluon.nn.Dense(3, in_units=4)
        net.initialize(mx.init.Constant(0.5))
        net.hybridize()
        x = nd.array(np.arange(8).reshape(2, 4))
        x.attach_grad()
        with autograd.record():
            y = net(x)
        y.backward()
        return net, x, y
    train_step()
    before = compiles[0]
    net, x, y = train_step()
    assert compiles[0] == before
    assert np.allclose(y.asnumpy(), np.arange(8).reshape(2, 4).sum(1, keepdims=True) * 0.5 + np.zeros(3))
    assert np.allclose(net.weight.grad().asnumpy(), np.tile(np.arange(8).reshape(2, 4).sum(0), (3, 1)))
    assert np.allclose(x.grad.asnumpy(), 1.5)


def test_blocks_of_different_structure_do_not_share(compiles):
    class Scale(gluon.HybridBlock):
        def __init__(self, factor):
            super().__init__()
            self.factor = factor

        def hybrid_forward(self, F, x):
            return x * self.factor
    x = nd.array([1.0, 2.0])
    outs = []
    for factor in (2.0, 3.0):
        block = Scale(factor)
        block.hybridize()
        outs.append(block(x).asnumpy())
    assert np.array_equal(outs[0], [2, 4]) and np.array_equal(outs[1], [3, 6])


def test_a_block_of_one_operator_shares_the_operators_compiled_programs(compiles):
    """Recorded through a hybridized Block or called eagerly, one operator on one shape is
    compiled once: the Block runs the operator's own compiled forms (vjp form, backward)."""
    class Transpose(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.transpose(x, axes=(1, 0, 2))
    x = nd.array(np.arange(24).reshape(2, 3, 4))
    grads = []
    for hybridize in (True, False):
        block = Transpose()
        if hybridize:
            block.hybridize()
        x.attach_grad()
        with autograd.record():
            y = block(x) * nd.array(np.arange(24).reshape(3, 2, 4))
        y.backward()
        grads.append(x.grad.asnumpy())
        if hybridize:
            before = compiles[0]
    assert compiles[0] == before
    expected = np.arange(24).reshape(3, 2, 4).transpose(1, 0, 2)
    assert np.array_equal(grads[0], expected) and np.array_equal(grads[1], expected)


def test_a_block_of_one_operator_runs_a_new_shape_as_the_eager_operator(compiles):
    """Outside record(), a hybridized one-operator Block on a new shape is the eager call: an
    operator with a host form (ops/_host.py) compiles nothing."""
    class Flip(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.flip(x, axis=1)
    block = Flip()
    block.hybridize()
    before = compiles[0]
    for n in (3, 5, 6):
        x = np.arange(2 * n * 3, dtype=np.float32).reshape(2, n, 3)
        assert np.array_equal(block(nd.array(x)).asnumpy(), x[:, ::-1])
    assert compiles[0] == before
    with pytest.raises(MXNetError, match='reverse'):
        block(nd.ones((2,)))


def test_hybridized_graph_with_value_dependent_shapes_runs_node_by_node():
    # MXNet's CachedOp runs operators whose output shape depends on values (np.bincount,
    # boolean_mask) as it goes; so does gluonjax's graph, recorded by autograd node by node
    from gluonjax import np as mnp, npx

    class Counts(gluon.HybridBlock):
        def hybrid_forward(self, F, a, w):
            return F.np.bincount(a, w, 3) * 2

    class Masked(gluon.HybridBlock):
        def hybrid_forward(self, F, x, m):
            return F.broadcast_mul(F.contrib.boolean_mask(x, m), x.sum())

    counts = npx.use_np(Counts)()
    counts.hybridize()
    out = counts(mnp.array([0, 4, 4, 1], dtype='int32'), mnp.array([1., 2., 3., 4.], dtype='float16'))
    assert out.dtype == np.float16 and out.asnumpy().tolist() == [2., 8., 0., 0., 10.]
    assert counts(mnp.array([], dtype='int8'), mnp.array([], dtype='float32')).asnumpy().tolist() == [0.] * 3
    masked = Masked()
    masked.hybridize()
    x = mx.nd.array([1., 2., 3.])
    x.attach_grad()
    with autograd.record():
        y = masked(x, mx.nd.array([1, 0, 1]))
    y.backward()
    assert y.asnumpy().tolist() == [6., 18.] and x.grad.asnumpy().tolist() == [10., 4., 10.]


def test_blocks_differing_in_a_dynamic_parameter_share_the_operators_program():
    # np.trace's offset and a scalar factor are values of one program: each new Block gives its own
    # results (forward and gradient), hybridized or not
    from gluonjax import np as mnp, npx

    class Trace(gluon.HybridBlock):
        def __init__(self, offset):
            super().__init__()
            self._offset = offset

        def hybrid_forward(self, F, x):
            return F.np.trace(x, offset=self._offset, axis1=1, axis2=0)

    data = np.arange(12.).reshape(3, 4)
    for offset in (-2, 0, 1, 5):
        for hybridize in (False, True):
            block = npx.use_np(Trace)(offset)
            if hybridize:
                block.hybridize()
            x = mnp.array(data)
            x.attach_grad()
            with autograd.record():
                out = block(x)
            out.backward()
            assert out.item() == np.trace(data, offset, 1, 0)
            rows, cols = np.indices(data.shape)
            assert x.grad.asnumpy().tolist() == (rows == cols + offset).astype(float).tolist()


class _DenseOnUnknownWidth(gluon.HybridBlock):
    """A Dense layer fed ``zeros((2, 0))``: nothing in the graph says its input width."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.dense = gluon.nn.Dense(3, flatten=False)

    def hybrid_forward(self, F, x):
        return F.broadcast_add(x.sum(), self.dense(F.zeros(shape=(2, 0))).sum())


@pytest.mark.filterwarnings('ignore:Cannot decide shape')
def test_hybridized_deferred_shape_the_graph_cannot_infer_is_mxnets_value_error():
    net = _DenseOnUnknownWidth()
    net.initialize()
    net.hybridize()
    with pytest.raises(ValueError, match='Deferred initialization failed'):
        net(nd.ones((2, 4)))


def test_ndarray_only_call_in_hybrid_forward_keeps_mxnets_error_type():
    """x.asnumpy() on a traced input: NotImplementedForSymbol (an MXNetError), as MXNet raises,
    with the Block's path in the message; the same Block runs eagerly before hybridize()."""
    class ToHost(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.array(x.asnumpy() * 2) if F is nd else x.asnumpy()

    blk = ToHost()
    np.testing.assert_array_equal(blk(nd.array([1., 2.])).asnumpy(), [2., 4.])
    blk.hybridize()
    with pytest.raises(mx.base.NotImplementedForSymbol, match=r'while tracing tohost\d* \(ToHost\) for hybridize\(\): '
                       'Function asnumpy is not implemented for Symbol'):
        blk(nd.array([1., 2.]))


@pytest.mark.parametrize('hybridize', [False, True])
def test_float64_data_into_deferred_float32_parameters_is_the_forwards_dtype_error(hybridize, capsys):
    # MXNet infers shapes without dtypes: the Parameters get their shapes, then the forward raises
    # the operator's MXNetError about the dtypes (not the deferred-initialisation ValueError)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Conv2D(2, 3), gluon.nn.Dense(2))
    net.initialize()
    if hybridize:
        net.hybridize()
    with pytest.raises(MXNetError, match='dtype'):
        net(nd.ones((1, 1, 5, 5), dtype='float64'))
    assert capsys.readouterr().out == ''
    assert net[0].weight.shape == (2, 1, 3, 3)
    x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5) / 25
    out = net(nd.array(x))
    w, b = net[0].weight.data().asnumpy(), net[0].bias.data().asnumpy()
    conv = np.array([[(x[0, 0, i:i + 3, j:j + 3] * w[c, 0]).sum() + b[c] for j in range(3) for i in range(3)]
                     for c in range(2)])
    conv = conv.reshape(2, 3, 3).transpose(0, 2, 1).reshape(1, -1)
    dense = conv @ net[1].weight.data().asnumpy().T + net[1].bias.data().asnumpy()
    assert net[1].weight.shape == (2, 18)
    np.testing.assert_allclose(out.asnumpy(), dense, rtol=1e-5, atol=1e-6)


def test_a_real_shape_error_with_float64_data_stays_the_deferred_value_error():
    # MXNet 1.9.1: ValueError (its shape inference fails before any dtype is looked at)
    net2 = gluon.nn.HybridSequential()
    net2.add(gluon.nn.Dense(2), gluon.nn.Dense(3, in_units=5))
    net2.initialize()
    net2.hybridize()
    with pytest.raises(ValueError, match='Deferred initialization failed'):
        net2(nd.ones((1, 4), dtype='float64'))


@pytest.mark.parametrize('in_units, hybridize, error', [(0, False, ValueError), (0, True, TypeError),
                                                         (3, False, TypeError), (3, True, TypeError)])
def test_an_extra_input_is_mxnets_error(in_units, hybridize, error, capsys):
    # MXNet 1.9.1: a deferred eager Dense meets the extra input in its symbolic shape inference
    # (ValueError); otherwise hybrid_forward's own TypeError
    net = gluon.nn.Dense(2, in_units=in_units)
    net.initialize()
    if hybridize:
        net.hybridize()
    with pytest.raises(error) as info:
        net(nd.ones((1, 3)), nd.ones(2))
    assert type(info.value) is error
    assert capsys.readouterr().out == ''
    out = net(nd.array([[1., 2., 3.]]))
    w, b = net.weight.data().asnumpy(), net.bias.data().asnumpy()
    np.testing.assert_allclose(out.asnumpy(), np.array([[1., 2., 3.]]) @ w.T + b, rtol=1e-6)
