"""Control flow (mx.nd/sym.contrib.foreach, while_loop, cond): imperative, symbolic, hybridized.

Symbolic graphs are checked against what MXNet 1.9.1 computed and wrote
(data/mxnet_ref/control_flow.json, made by make_control_flow_data.py); the rest against numpy
and against each other (imperative gradients = symbolic gradients = analytic ones).
"""
import json
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import gluon
from gluonjax.base import MXNetError

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'control_flow.json')
with open(REF) as _f:
    RECORDED = json.load(_f)


def _bind_and_run(sym, inputs):
    args = {k: mx.nd.array(v) for k, v in inputs.items()}
    grads = {k: mx.nd.zeros(np.shape(v)) for k, v in inputs.items()}
    exe = sym.bind(mx.cpu(), args=args, args_grad=grads)
    outs = exe.forward(is_train=True)
    exe.backward([mx.nd.ones(o.shape) for o in outs])
    return [o.asnumpy() for o in outs], {k: g.asnumpy() for k, g in grads.items()}


@pytest.mark.parametrize('name', ['foreach', 'while_loop', 'cond'])
def test_recorded_mxnet_graphs_load_run_and_differentiate(name):
    rec = RECORDED[name]
    sym = mx.sym.load_json(rec['json'])
    assert sym.tojson() == rec['json']  # subgraphs nested as MXNet writes them
    outs, grads = _bind_and_run(sym, rec['inputs'])
    for i, (got, want) in enumerate(zip(outs, rec['outputs'])):
        want = np.array(want)
        if name == 'while_loop' and i == 0:  # MXNet leaves the rows after the last step unset
            got, want = got[:3], want[:3]
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    for key, want in rec['grads'].items():
        np.testing.assert_allclose(grads[key], want, rtol=1e-5, atol=1e-6)


def test_symbolic_construction_writes_mxnet_json():
    """The same Python functions build node for node the graph MXNet builds."""
    mx.attribute.AttrScope._subgraph_names.clear()
    with mx.name.NameManager():
        i, s, w = mx.sym.var('i'), mx.sym.var('s'), mx.sym.var('w')
        outs, final = mx.sym.contrib.while_loop(
            cond=lambda i, s: i < 3, func=lambda i, s: ([s * w], [i + 1, mx.sym.broadcast_add(s * w, i)]),
            loop_vars=[i, s], max_iterations=5)
        sym = mx.sym.Group(outs + final)
    assert sym.tojson() == RECORDED['while_loop']['json']


def test_foreach_matches_numpy_and_its_gradients():
    data = np.random.RandomState(0).uniform(-1, 1, (5, 3)).astype(np.float32)
    init = np.array([0.1, 0.2, 0.3], np.float32)
    x, h = mx.sym.var('x'), mx.sym.var('h')
    outs, states = mx.sym.contrib.foreach(lambda d, s: (d * s[0], [s[0] + d]), x, [h])
    got, grads = _bind_and_run(mx.sym.Group([outs] + states), {'x': data, 'h': init})
    hs = init + np.concatenate([[0 * init], np.cumsum(data, axis=0)[:-1]])  # the state before each step
    np.testing.assert_allclose(got[0], data * hs, rtol=1e-6)
    np.testing.assert_allclose(got[1], init + data.sum(0), rtol=1e-6)
    # d/dh sum(outs) = sum(data); d/dh final = 5 rows of ones... summed: 1
    np.testing.assert_allclose(grads['h'], data.sum(0) + 1, rtol=1e-5)
    # d/dx_t: the output x_t * h_t gives h_t, and x_t enters every later h and the final state
    later = data[::-1].cumsum(0)[::-1] - data  # sum of x_u for u > t
    np.testing.assert_allclose(grads['x'], hs + later + 1, rtol=1e-5)


def test_foreach_imperative_and_symbolic_agree_on_gradients():
    rng = np.random.RandomState(1)
    data, init, free = (rng.uniform(-1, 1, s).astype(np.float32) for s in ((4, 2), (2,), (2,)))

    def step(d, s, f):
        out = mx.nd.tanh(d * f + s[0]) if isinstance(d, mx.nd.NDArray) else mx.sym.tanh(d * f + s[0])
        return out, [out * 0.5]

    x, h, f = (mx.nd.array(a) for a in (data, init, free))
    for a in (x, h, f):
        a.attach_grad()
    with mx.autograd.record():
        outs, states = mx.nd.contrib.foreach(lambda d, s: step(d, s, f), x, [h])
        loss = (outs * 2).sum() + states[0].sum()
    loss.backward()
    xs, hs, fs = mx.sym.var('x'), mx.sym.var('h'), mx.sym.var('f')
    souts, sstates = mx.sym.contrib.foreach(lambda d, s: step(d, s, fs), xs, [hs])
    sym = mx.sym.Group([souts * 2, sstates[0]])
    got, grads = _bind_and_run(sym, {'x': data, 'h': init, 'f': free})
    np.testing.assert_allclose(got[0], (outs * 2).asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(got[1], states[0].asnumpy(), rtol=1e-5)
    for name, arr in (('x', x), ('h', h), ('f', f)):
        np.testing.assert_allclose(grads[name], arr.grad.asnumpy(), rtol=1e-4, atol=1e-6)


def test_while_loop_pads_outputs_and_differentiates():
    """sum of s * w^k while k < n: outputs padded to max_iterations with zeros."""
    def run(w_value, n):
        i, s, w = mx.sym.var('i'), mx.sym.var('s'), mx.sym.var('w')
        outs, final = mx.sym.contrib.while_loop(lambda i, s: i < n, lambda i, s: (s, (i + 1, s * w)),
                                                [i, s], max_iterations=6)
        return _bind_and_run(mx.sym.Group([outs] + final), {'i': [0.0], 's': [2.0], 'w': [w_value]})

    (outs, i_final, s_final), grads = run(1.5, 4)
    np.testing.assert_allclose(outs[:, 0], [2, 3, 4.5, 6.75, 0, 0])
    assert i_final[0] == 4 and s_final[0] == pytest.approx(2 * 1.5 ** 4)
    # d/dw [sum_k<4 2 w^k + 2 w^4] = 2 (1 + 2w + 3w^2) + 8 w^3
    assert grads['w'][0] == pytest.approx(2 * (1 + 3 + 3 * 2.25) + 8 * 3.375, rel=1e-5)
    eps = 1e-2
    (o_hi, _, s_hi), _ = run(1.5 + eps, 4)
    (o_lo, _, s_lo), _ = run(1.5 - eps, 4)
    numeric = (o_hi.sum() + s_hi.sum() - o_lo.sum() - s_lo.sum()) / (2 * eps)
    assert grads['w'][0] == pytest.approx(numeric, rel=1e-3)


def test_while_loop_imperative():
    outs, (i, s) = mx.nd.contrib.while_loop(lambda i, s: i <= 5, lambda i, s: (i * 10, (i + 1, s + i)),
                                            [mx.nd.array([1]), mx.nd.array([0])], max_iterations=8)
    np.testing.assert_array_equal(outs.asnumpy()[:, 0], [10, 20, 30, 40, 50, 0, 0, 0])
    assert i.asscalar() == 6 and s.asscalar() == 15
    with pytest.raises(ValueError, match='max_iterations'):
        mx.nd.contrib.while_loop(lambda i: i < 1, lambda i: (None, [i]), [mx.nd.array([0])])


@pytest.mark.parametrize('a_value', [1.0, -1.0])
def test_cond_takes_one_branch_with_its_gradient(a_value):
    a = mx.nd.array([a_value, 2.0])
    a.attach_grad()
    with mx.autograd.record():
        out = mx.nd.contrib.cond(a[0] > 0, lambda: a * a, lambda: a * 3)
    out.backward()
    xs = mx.sym.var('a')
    sym = mx.sym.contrib.cond(mx.sym.slice_axis(xs, axis=0, begin=0, end=1) > 0,
                              lambda: xs * xs, lambda: xs * 3)
    got, grads = _bind_and_run(sym, {'a': [a_value, 2.0]})
    want = np.array([a_value, 2.0]) ** 2 if a_value > 0 else np.array([a_value, 2.0]) * 3
    np.testing.assert_allclose(got[0], want)
    np.testing.assert_allclose(out.asnumpy(), want)
    want_grad = 2 * np.array([a_value, 2.0]) if a_value > 0 else [3, 3]
    np.testing.assert_allclose(grads['a'], want_grad)
    np.testing.assert_allclose(a.grad.asnumpy(), want_grad)


class _ForeachRNN(gluon.HybridBlock):
    """A Dense recurrence over the sequence with F.contrib.foreach."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.cell = gluon.nn.Dense(3, flatten=False)

    def hybrid_forward(self, F, seq, state):
        def step(x, states):
            h = F.tanh(self.cell(F.concat(x, states[0], dim=-1)))
            return h, [h]
        outs, states = F.contrib.foreach(step, seq, [state])
        return outs, states[0]


def test_hybridized_foreach_block_matches_eager_and_trains_alike():
    rng = np.random.RandomState(2)
    seq, state = mx.nd.array(rng.uniform(-1, 1, (5, 2, 4))), mx.nd.array(rng.uniform(-1, 1, (2, 3)))
    results = []
    for hybridize in (False, True):
        mx.random.seed(0)
        net = _ForeachRNN()
        net.initialize(mx.init.Xavier())
        if hybridize:
            net.hybridize()
        with mx.autograd.record():
            outs, last = net(seq, state)
            loss = outs.sum() + (last * last).sum()
        loss.backward()
        results.append((outs.asnumpy(), last.asnumpy(),
                        {k[len(net.prefix):]: p.grad().asnumpy() for k, p in net.collect_params().items()}))
    (o1, l1, g1), (o2, l2, g2) = results
    np.testing.assert_allclose(o1, o2, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(l1, l2, rtol=1e-5, atol=1e-6)
    assert g1.keys() == g2.keys() and g1
    for k in g1:
        np.testing.assert_allclose(g1[k], g2[k], rtol=1e-4, atol=1e-6)


def test_hybridized_foreach_block_exports_and_imports(tmp_path):
    net = _ForeachRNN()
    net.initialize()
    net.hybridize()
    seq, state = mx.nd.ones((3, 2, 4)), mx.nd.zeros((2, 3))
    outs, last = net(seq, state)
    net.export(str(tmp_path / 'rnn'))
    loaded = gluon.SymbolBlock.imports(str(tmp_path / 'rnn-symbol.json'), ['data0', 'data1'],
                                       str(tmp_path / 'rnn-0000.params'))
    outs2, last2 = loaded(seq, state)
    np.testing.assert_allclose(outs2.asnumpy(), outs.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(last2.asnumpy(), last.asnumpy(), rtol=1e-6)


class _Gluon2Loop(gluon.HybridBlock):
    """Gluon 2 style: forward() calls mx.nd.contrib.* (Symbols while hybridize traces it)."""

    def forward(self, x):
        outs, (_, total) = mx.nd.contrib.while_loop(
            lambda i, s: i < 3, lambda i, s: (s * x, (i + 1, s + x)),
            [mx.nd.zeros((1,)), mx.nd.zeros_like(x)] if isinstance(x, mx.nd.NDArray)
            else [mx.sym.zeros((1,)), mx.sym.zeros_like(x)], max_iterations=4)
        return mx.nd.contrib.cond(total.sum() > 0, lambda: outs * 2, lambda: outs)


def test_gluon2_forward_with_nd_contrib_hybridizes():
    x = mx.nd.array([1.0, 2.0])
    eager = _Gluon2Loop()(x).asnumpy()
    net = _Gluon2Loop()
    net.hybridize()
    hybrid = net(x).asnumpy()
    want = np.array([[0, 0], [1, 4], [2, 8], [0, 0]]) * 2  # s*x with s = 0, x, 2x; then padding
    np.testing.assert_allclose(eager, want)
    np.testing.assert_allclose(hybrid, want)


def test_nested_foreach_and_shape_inference():
    def inner(x, s):
        return x * 2 + s[0], [x * 2 + s[0]]

    def outer(x, s):
        out, _ = mx.sym.contrib.foreach(inner, x, s)
        return out, [s[0] + 1]

    data, state = mx.sym.var('data'), mx.sym.var('state')
    outs, states = mx.sym.contrib.foreach(outer, data, [state])
    sym = mx.sym.load_json(mx.sym.Group([outs] + states).tojson())
    _, out_shapes, _ = sym.infer_shape(data=(2, 3, 4), state=(4,))
    assert out_shapes == [(2, 3, 4), (4,)]
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    got, _ = _bind_and_run(sym, {'data': x, 'state': np.zeros(4)})
    want = np.stack([np.cumsum(x[t] * 2, axis=0) + t for t in range(2)])
    np.testing.assert_allclose(got[0], want)


def test_errors_are_clear():
    x = mx.sym.var('x')
    with pytest.raises(AssertionError, match='state arrays have to be used'):
        mx.sym.contrib.foreach(lambda d, s: (d, [d]), x, [mx.sym.var('s')])
    with pytest.raises(ValueError, match='max_iterations should be specified'):
        mx.sym.contrib.while_loop(lambda i: i < 1, lambda i: (None, [i + 1]), [x])
    sym = mx.sym.contrib.cond(x.sum() > 0, lambda: x, lambda: mx.sym.concat(x, x, dim=0))
    with pytest.raises(MXNetError, match='then branch'):
        sym.eval(x=mx.nd.ones(2))
    graph = json.loads(RECORDED['foreach']['json'])
    del graph['nodes'][-1]['subgraphs']  # a control-flow node that lost its subgraphs
    broken = mx.sym.load_json(json.dumps(graph))
    with pytest.raises(MXNetError, match='subgraphs'):
        broken.eval(**{k: mx.nd.array(v) for k, v in RECORDED['foreach']['inputs'].items()})


def test_foreach_shape_inference_reaches_into_the_body():
    # MXNet 1.9.1's answers: the body infers the cell state and the weights from the data and the
    # hidden state; a data length left unknown (0) stays unknown in the stacked output
    params = mx.rnn.RNNParams()
    out, states = mx.sym.contrib.foreach(lambda x, s: mx.rnn.LSTMCell(4, prefix='', params=params)(x, s),
                                         mx.sym.var('data'), [mx.sym.var('h'), mx.sym.var('c')])
    group = mx.sym.Group([out] + states)
    assert group.list_inputs() == ['data', 'h', 'c', 'i2h_weight', 'i2h_bias', 'h2h_weight', 'h2h_bias']
    assert group.infer_shape(data=(2, 2, 5), h=(2, 4)) == (
        [(2, 2, 5), (2, 4), (2, 4), (16, 5), (16,), (16, 4), (16,)], [(2, 2, 4), (2, 4), (2, 4)], [])
    outs, _ = mx.sym.contrib.foreach(lambda x, s: (x + s[0], [s[0] * 2]),
                                     mx.sym.var('data', shape=(0, 3, 32, 32)), [mx.sym.var('state')])
    assert outs.infer_shape_partial() == ([(0, 3, 32, 32), (3, 32, 32)], [(0, 3, 32, 32)], [])
