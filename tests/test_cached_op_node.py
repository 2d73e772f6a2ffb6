"""mx.sym._internal._CachedOp: a node running a subgraph given as JSON (MXNet's test_subgraph)."""
import numpy as np

import gluonjax as mx


def _subgraph_node():
    a, b = mx.sym.Variable('a'), mx.sym.Variable('b')
    inner = mx.sym.BatchNorm(a * b, name='bn', fix_gamma=False)
    outer = [mx.sym.Variable(n) for n in ('a', 'b', 'g', 'be', 'mm', 'mv')]
    return inner, mx.sym._internal._CachedOp(*outer, subgraph=inner.tojson(), name='sg')


def test_lists_and_infers_as_mxnet():
    _inner, node = _subgraph_node()
    # MXNet 1.9.1 prints these
    assert node.list_arguments() == ['a', 'b', 'g', 'be']
    assert node.list_auxiliary_states() == ['mm', 'mv']
    assert node.list_outputs() == ['sg_bn_output']
    assert node.infer_shape(a=(2, 3), b=(2, 3)) == ([(2, 3), (2, 3), (3,), (3,)], [(2, 3)], [(3,), (3,)])


def _run(sym, names):
    args = {names[0]: mx.nd.array(np.arange(6).reshape(2, 3)), names[1]: mx.nd.ones((2, 3)),
            names[2]: mx.nd.ones(3), names[3]: mx.nd.zeros(3)}
    aux = {names[4]: mx.nd.zeros(3), names[5]: mx.nd.ones(3)}
    grads = {k: mx.nd.zeros(v.shape) for k, v in args.items()}
    exe = sym.bind(mx.cpu(), args, args_grad=grads, aux_states=aux)
    exe.forward(is_train=True)
    exe.backward(mx.nd.array(np.arange(6).reshape(2, 3)))
    return exe.outputs[0].asnumpy(), [g.asnumpy() for g in grads.values()], [x.asnumpy() for x in aux.values()]


def test_forward_backward_and_running_statistics_match_the_graph_itself():
    inner, node = _subgraph_node()
    got = _run(node, ['a', 'b', 'g', 'be', 'mm', 'mv'])
    want = _run(inner, inner.list_inputs())
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    for g, w in zip(got[1] + got[2], want[1] + want[2]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-7)
    # MXNet 1.9.1: moving mean 0.9 * 0 + 0.1 * mean(a * b), moving var 0.9 + 0.1 * var
    np.testing.assert_allclose(got[2][0], [0.15, 0.25, 0.35], rtol=1e-6)
    np.testing.assert_allclose(got[2][1], [1.125] * 3, rtol=1e-6)
