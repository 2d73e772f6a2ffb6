"""mx.operator: Python-defined operators, eagerly, under autograd, in symbols and hybridized blocks."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.base import MXNetError


class _Sqr(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.seen = in_data[0].asnumpy().copy()          # state kept for backward, as in MXNet
        self.assign(out_data[0], req[0], in_data[0] * in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        np.testing.assert_array_equal(self.seen, in_data[0].asnumpy())
        self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])


@mx.operator.register('test_sqr')
class _SqrProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _Sqr()


class _RowSums(mx.operator.CustomOp):
    """Two inputs, two outputs of other shapes: a+b and the row sums of a*b, scaled by a keyword."""

    def __init__(self, scale):
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        a, b = in_data
        self.assign(out_data[0], req[0], a + b)
        self.assign(out_data[1], req[1], (a * b).sum(axis=1) * self.scale)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        a, b = in_data
        g0, g1 = out_grad
        g1 = g1.reshape((-1, 1)) * self.scale
        self.assign(in_grad[0], req[0], g0 + g1 * b)
        self.assign(in_grad[1], req[1], g0 + g1 * a)


@mx.operator.register('test_rowsums')
class _RowSumsProp(mx.operator.CustomOpProp):
    def __init__(self, scale='1.0'):
        super().__init__(need_top_grad=True)
        self.scale = float(scale)                   # keywords arrive as strings, as in MXNet

    def list_arguments(self):
        return ['a', 'b']

    def list_outputs(self):
        return ['sum', 'rows']

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0], [in_shape[0][0]]], []

    def create_operator(self, ctx, in_shapes, in_dtypes):
        assert in_shapes == [[2, 3], [2, 3]]
        return _RowSums(self.scale)


def test_forward_and_gradient_eagerly():
    x = nd.array([1.0, -2.0, 3.0])
    np.testing.assert_array_equal(nd.Custom(x, op_type='test_sqr').asnumpy(), [1.0, 4.0, 9.0])
    x.attach_grad()
    with autograd.record():
        z = (nd.Custom(x, op_type='test_sqr') * 3).sum()
    z.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [6.0, -12.0, 18.0])


def test_several_inputs_and_outputs_with_declared_shapes():
    a = nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = nd.array(np.ones((2, 3), np.float32) * 2)
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        s, rows = nd.Custom(a, b, op_type='test_rowsums', scale=0.5)
        loss = s.sum() + (rows * nd.array([1.0, 10.0])).sum()
    loss.backward()
    np.testing.assert_array_equal(s.asnumpy(), a.asnumpy() + 2)
    np.testing.assert_array_equal(rows.asnumpy(), [3.0, 12.0])   # (0+1+2)*2*0.5, (3+4+5)*2*0.5
    w = np.array([[0.5], [5.0]], np.float32)
    np.testing.assert_allclose(a.grad.asnumpy(), np.broadcast_to(1 + w * 2, (2, 3)))
    np.testing.assert_allclose(b.grad.asnumpy(), 1 + w * a.asnumpy())


def test_symbol_graph_json_and_executor():
    a, b = mx.sym.var('a'), mx.sym.var('b')
    s = mx.sym.Custom(a, b, op_type='test_rowsums', scale=2, name='rs')
    assert s.list_outputs() == ['rs_sum', 'rs_rows']
    _, out_shapes, _ = s.infer_shape(a=(2, 3), b=(2, 3))
    assert out_shapes == [(2, 3), (2,)]
    loaded = mx.sym.load_json(s.tojson())
    assert loaded.attr_dict()['rs'] == {'op_type': 'test_rowsums', 'scale': '2'}
    av = nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    outs = loaded.bind(mx.cpu(), {'a': av, 'b': nd.ones((2, 3))}).forward()
    np.testing.assert_array_equal(outs[1].asnumpy(), [6.0, 24.0])


def test_custom_node_lists_its_keywords_in_mxnets_order():
    # MXNet's sym.Custom takes **kwargs and inserts them in the caller's order into the node's
    # hash map, whose iteration order MXNet 1.9.1 prints (observed there for both call orders)
    a, b = mx.sym.var('a'), mx.sym.var('b')
    first = mx.sym.Custom(a, b, op_type='test_rowsums', scale=2, name='rs')
    assert list(first.list_attr()) == ['scale', 'op_type']
    assert list(first.attr_dict()['rs']) == ['scale', 'op_type']
    second = mx.sym.Custom(a, b, scale=2, op_type='test_rowsums', name='rs')
    assert list(second.list_attr()) == ['op_type', 'scale']
    assert [k for k in second.tojson().split('"attrs"')[1].split('}')[0].split('"')[1::2]][::2] == ['op_type', 'scale']


def test_prop_infer_shape_gives_an_unknown_label_the_datas_shape():
    # MXNet calls the prop's infer_shape once the data's shape is known, an unknown one as [];
    # a two-list answer (no auxiliary list) is accepted (example/numpy-ops' weighted logistic
    # regression, bayesian-methods' NumpyOp LogSoftmax bound with only the data's shape)
    class Halve(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * 0.5 + in_data[1])

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], out_grad[0] * 0.5)

    @mx.operator.register('test_halve_label_like_data')
    class HalveProp(mx.operator.CustomOpProp):
        def list_arguments(self):
            return ['data', 'label']

        def infer_shape(self, in_shape):
            return [in_shape[0], in_shape[0]], [in_shape[0]]

        def create_operator(self, ctx, shapes, dtypes):
            return Halve()

    s = mx.sym.Custom(mx.sym.var('data'), name='h', op_type='test_halve_label_like_data')
    assert s.list_arguments() == ['data', 'h_label']
    assert s.infer_shape(data=(2, 3)) == ([(2, 3), (2, 3)], [(2, 3)], [])
    exe = s.simple_bind(mx.cpu(), data=(2, 3))
    exe.arg_dict['data'][:] = nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    exe.arg_dict['h_label'][:] = 1
    exe.forward(is_train=True)
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), np.arange(6).reshape(2, 3) * 0.5 + 1)

    class LogSoftmax(mx.operator.NumpyOp):
        def __init__(self):
            super().__init__(False)

        def list_arguments(self):
            return ['data', 'label']

        def infer_shape(self, in_shape):
            return [in_shape[0], in_shape[0]], [in_shape[0]]

        def forward(self, in_data, out_data):
            x = in_data[0]
            y = x - x.max(axis=1, keepdims=True)
            out_data[0][:] = y - np.log(np.exp(y).sum(axis=1, keepdims=True))

        def backward(self, out_grad, in_data, out_data, in_grad):
            in_grad[0][:] = np.exp(out_data[0]) - in_data[1]

    net = LogSoftmax()(data=mx.sym.var('data'), name='softmax')
    exe = net.simple_bind(mx.cpu(), data=(2, 3))
    assert exe.arg_dict['softmax_label'].shape == (2, 3)
    xv = np.array([[1., 2., 3.], [0., 0., 1.]], np.float32)
    exe.arg_dict['data'][:] = nd.array(xv)
    exe.arg_dict['softmax_label'][:] = nd.array(np.eye(3, dtype=np.float32)[[2, 0]])
    exe.forward(is_train=True)
    exe.backward()
    logp = xv - np.log(np.exp(xv).sum(1, keepdims=True))
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), logp, rtol=1e-5)
    np.testing.assert_allclose(exe.grad_dict['data'].asnumpy(), np.exp(logp) - np.eye(3)[[2, 0]], rtol=1e-5, atol=1e-6)

    # a prop refusing the unknown label (example/recommenders' CrossEntropyLoss) stops inference
    # with MXNet's error type, naming the operator
    @mx.operator.register('test_same_shapes_only')
    class SameProp(HalveProp):
        def infer_shape(self, in_shape):
            if in_shape[0] != in_shape[1]:
                raise ValueError('Input shapes differ. data:%s. label:%s.' % (in_shape[0], in_shape[1]))
            return in_shape, [in_shape[0]], []

    s = mx.sym.Custom(mx.sym.var('data'), mx.sym.var('labs'), op_type='test_same_shapes_only')
    with pytest.raises(MXNetError, match=r"test_same_shapes_only.*ValueError: Input shapes differ. data:\[6, 4\]. label:\[\]"):
        s.infer_shape(data=(6, 4))
    assert s.infer_shape(data=(6, 4), labs=(6, 4))[1] == [(6, 4)]


def test_hybridized_block_matches_imperative():
    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, v):
            return F.Custom(v, op_type='test_sqr') + 1
    x = nd.array([0.5, 2.0])
    x.attach_grad()
    for hybrid in (False, True):
        net = Net()
        if hybrid:
            net.hybridize()
        with autograd.record():
            y = net(x)
        y.backward()
        np.testing.assert_allclose(y.asnumpy(), [1.25, 5.0])
        np.testing.assert_allclose(x.grad.asnumpy(), [1.0, 4.0])


class _BadGrad(_Sqr):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], nd.ones((7,)))


@mx.operator.register('test_bad_grad')
class _BadGradProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _BadGrad()


def test_errors_name_the_operator():
    with pytest.raises(MXNetError, match="no operator registered as op_type='no_such_op'"):
        nd.Custom(nd.ones(2), op_type='no_such_op')
    x = nd.ones(3)
    x.attach_grad()
    with autograd.record():
        y = nd.Custom(x, op_type='test_bad_grad').sum()
    with pytest.raises(MXNetError, match="Custom 'test_bad_grad': backward"):
        y.backward()
    with pytest.raises(MXNetError, match=r"Custom 'test_rowsums': takes 2 inputs \(a, b\), got 1"):
        nd.Custom(nd.ones((2, 3)), op_type='test_rowsums')
    with pytest.raises(TypeError, match='expects a CustomOpProp subclass'):
        mx.operator.register('x')(object)
    assert {'test_sqr', 'test_rowsums'} <= set(mx.operator.get_all_registered_operators())


def test_numpy_op_runs_its_numpy_forward_and_backward_in_a_symbol():
    """MXNet's older mx.operator.NumpyOp: the identity by default, or the user's NumPy methods."""
    class Square(mx.operator.NumpyOp):
        def forward(self, in_data, out_data):
            out_data[0][:] = in_data[0] ** 2

        def backward(self, out_grad, in_data, out_data, in_grad):
            in_grad[0][:] = 2 * in_data[0] * out_grad[0]

    x = mx.sym.Variable('X')
    for op, value, grad in [(mx.operator.NumpyOp(), [1., 2., 3.], [1., 1., 1.]),
                            (Square(), [1., 4., 9.], [2., 4., 6.])]:
        dx = mx.nd.zeros(3)
        ex = op.get_symbol(x, name='np_op').bind(mx.cpu(), args=[mx.nd.array([1, 2, 3])], args_grad={'X': dx})
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones(3))
        np.testing.assert_array_equal(ex.outputs[0].asnumpy(), value)
        np.testing.assert_array_equal(dx.asnumpy(), grad)


def test_get_operator_arguments_describes_inputs_and_parameters_as_mxnet():
    """MXNet 1.9.1's descriptions (recorded from mx.operator.get_operator_arguments)."""
    args = mx.operator.get_operator_arguments('Activation')
    assert isinstance(args, mx.operator.OperatorArguments) and args.narg == 2
    assert args.names == ['data', 'act_type']
    assert args.types == ['NDArray-or-Symbol', "{'relu', 'sigmoid', 'softrelu', 'softsign', 'tanh'}, required"]
    conv = dict(zip(*mx.operator.get_operator_arguments('Convolution')[1:]))
    assert conv['weight'] == 'NDArray-or-Symbol' and conv['kernel'] == 'Shape(tuple), required'
    assert conv['stride'] == 'Shape(tuple), optional, default=[]'
    assert conv['no_bias'] == 'boolean, optional, default=0'
    with pytest.raises(mx.base.MXNetError, match="valid values are: {'relu', 'sigmoid'"):
        mx.nd.Activation(mx.nd.ones(2), act_type='mish')


class _Counted(mx.operator.CustomOp):
    """Writes its auxiliary state in forward and checks it in backward (MXNet's test_custom_op)."""

    def forward(self, is_train, req, in_data, out_data, aux):
        aux[0][:] = aux[0] + 1
        self.assign(out_data[0], req[0], in_data[0] * 3)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        assert (aux[0].asnumpy() == 1).all(), aux[0].asnumpy()  # the state forward left
        self.assign(in_grad[0], req[0], out_grad[0] * 3)


@mx.operator.register('test_counted')
class _CountedProp(mx.operator.CustomOpProp):
    def list_auxiliary_states(self):
        return ['count']

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], [in_shape[0][:1]]

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _Counted()


def test_auxiliary_states_are_listed_inferred_and_written_in_training():
    op = mx.sym.Custom(data=mx.sym.Variable('data'), count=mx.sym.Variable('count'), op_type='test_counted')
    assert op.list_arguments() == ['data'] and op.list_auxiliary_states() == ['count']
    assert op.infer_shape(data=(2, 3)) == ([(2, 3)], [(2, 3)], [(2,)])
    x = nd.array(np.arange(6).reshape(2, 3))
    exe = op.bind(mx.cpu(), {'data': x}, args_grad={'data': nd.zeros((2, 3))}, aux_states={'count': nd.zeros(2)})
    exe.forward()  # inference: MXNet 1.9.1 leaves the executor's state as it was
    assert exe.aux_dict['count'].asnumpy().tolist() == [0, 0]
    exe.forward(is_train=True)
    assert exe.aux_dict['count'].asnumpy().tolist() == [1, 1]
    np.testing.assert_array_equal(exe.outputs[0].asnumpy(), x.asnumpy() * 3)
    exe.backward(nd.ones((2, 3)))
    np.testing.assert_array_equal(exe.grad_dict['data'].asnumpy(), np.full((2, 3), 3.0))
