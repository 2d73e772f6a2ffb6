"""MXNet's unknown (0) dimensions of symbol creation ops: ``F.zeros(shape=(0, n))`` (an RNN begin
state of any batch size, as GluonTS's DeepAR makes it) takes its shape from its consumers."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError

COND = np.array([[1, 0, 1], [0, 1, 0]], dtype=np.float32)


def test_infer_shape_and_executor_decide_the_zero_dimensions():
    z = mx.sym.zeros(shape=(0, 3))
    out = mx.sym.where(mx.sym.var('c'), z, mx.sym.var('x')) + 1
    assert out.infer_shape(c=(2, 3), x=(2, 3)) == ([(2, 3), (2, 3)], [(2, 3)], [])
    ex = out.bind(mx.cpu(), {'c': mx.nd.array(COND), 'x': mx.nd.ones((2, 3)) * 5})
    np.testing.assert_array_equal(ex.forward()[0].asnumpy(), np.where(COND, 0, 5) + 1)
    assert '"shape": "(0, 3)"' in z.tojson()  # the graph keeps MXNet's attribute


def test_hybridized_block_with_zero_dim_begin_state_follows_the_batch():
    class Reset(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, cond, x):
            return F.where(cond, F.zeros(shape=(0, 3)), x) * 2
    block = Reset()
    block.hybridize()
    np.testing.assert_array_equal(block(mx.nd.array(COND), mx.nd.ones((2, 3))).asnumpy(), np.where(COND, 0, 2))
    np.testing.assert_array_equal(block(mx.nd.array(COND[:1]), mx.nd.ones((1, 3))).asnumpy(),
                                  np.where(COND[:1], 0, 2))


def test_known_dimensions_of_the_creation_shape_must_agree():
    out = mx.sym.where(mx.sym.var('c'), mx.sym.zeros(shape=(0, 4)), mx.sym.var('x'))
    with pytest.raises(MXNetError, match='inconsistent'):
        out.infer_shape(c=(2, 3), x=(2, 3))


def test_an_undecided_zero_dimension_is_a_clear_error():
    out = mx.sym.var('x') + mx.sym.sum(mx.sym.zeros(shape=(0, 3)))
    ex = out.bind(mx.cpu(), {'x': mx.nd.ones((1,))})
    with pytest.raises(MXNetError, match='cannot decide the unknown'):
        ex.forward()


def test_a_shape_known_for_an_elementwise_output_gives_its_inputs_theirs():
    # MXNet's test_backward_infer: the weight FullyConnected needs decides a computed weight's inputs
    w, shift = mx.sym.var('weight'), mx.sym.var('wshift', shape=(1,))
    like_w = mx.sym._internal._identity_with_attr_like_rhs(mx.sym.broadcast_add(w, shift), w)
    net = mx.sym.FullyConnected(data=mx.sym.var('data'), weight=like_w, num_hidden=11, no_bias=True)
    arg_shapes, out_shapes, _ = net.infer_shape(data=(7, 100))
    assert dict(zip(net.list_arguments(), arg_shapes))['weight'] == (11, 100) and out_shapes == [(7, 11)]
    assert (mx.sym.var('a') + mx.sym.var('b')).infer_shape_partial()[0] == [(), ()]


def test_slice_of_an_unknown_axis_stays_unknown_as_in_mxnet():
    """MXNet's slice leaves an axis unknown when the data's is, even with begin and end given;
    slice_axis on another axis keeps it."""
    data = mx.sym.var('data', shape=(0, 20))
    assert mx.sym.slice(data, begin=(None, 3), end=(5, 10)).infer_shape_partial()[1][0] == (0, 7)
    assert mx.sym.slice(data, begin=(2, 3), end=(None, 10), step=(3, 3)).infer_shape_partial()[1][0] == (0, 3)
    tall = mx.sym.var('data', shape=(10, 0))
    assert mx.sym.slice_axis(tall, axis=0, begin=0, end=5).infer_shape_partial()[1][0] == (5, 0)
    assert mx.sym.slice_axis(tall, axis=1, begin=0, end=5).infer_shape_partial()[1][0] == (10, 0)


def test_unknown_dimensions_flow_back_through_elementwise_operators():
    # the weight's partial shape reaches the variable through cast (MXNet's ElemwiseShape)
    data = mx.sym.var('data', shape=(1, 0, 0, 0))
    weight = mx.sym.var('weight')
    conv = mx.sym.Convolution(mx.sym.cast(data, dtype='float16'), mx.sym.cast(weight, dtype='float16'),
                              num_filter=64, kernel=(7, 7), no_bias=True)
    args = dict(zip(conv.list_arguments(), conv.infer_shape_partial()[0]))
    assert args == {'data': (1, 0, 0, 0), 'weight': (64, 0, 7, 7)}
    assert mx.sym.relu(weight).infer_shape_partial()[0] == [()]


def test_reshape_output_fixes_the_unknown_data_dimension_by_size():
    # the output's shape is known from elemwise_add's other input: the data's one unknown
    # dimension is what gives the output as many elements, whatever the reshape codes say
    for src, codes, reverse, dst in [((2, 3, 5, 6), (6, 1, -2), False, (6, 1, 5, 6)),
                                     ((2, 4, 5, 3), (-1, 2, 2, 1), False, (30, 2, 2, 1)),
                                     ((64,), (16, -1, -4), True, (16, 4))]:
        for i in range(len(src)):
            held = tuple(0 if k == i else d for k, d in enumerate(src))
            net = mx.sym.elemwise_add(mx.sym.Variable('data').reshape(codes, reverse=reverse), mx.sym.ones(shape=dst))
            ins, outs, _ = net.infer_shape(data=held)
            assert ins[0] == src and outs[0] == dst
