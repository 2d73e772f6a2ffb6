"""Hybridized graphs on new lengths run on a padded size bucket (gluon/_bucketed_call.py,
symbol/_buckets.py): the same outputs and gradients as the exact-shape program, and padding
only along the axes the graph keeps positions along."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax.gluon import _bucketed_call
from gluonjax.ops import _host

pytestmark = pytest.mark.skipif(_host.HOST_CALLS == 0, reason='first calls compile at once')


class Tagger(gluon.HybridBlock):
    def __init__(self, bidirectional=False, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.emb = gluon.nn.Embedding(30, 8)
            self.lstm = gluon.rnn.LSTM(12, num_layers=2, layout='NTC', bidirectional=bidirectional)
            self.out = gluon.nn.Dense(5, flatten=False)

    def hybrid_forward(self, F, x):
        return F.log_softmax(self.out(self.lstm(self.emb(x))))


class Pooled(gluon.HybridBlock):
    """A classifier of an RNN's outputs summed over time: the sum runs over the real steps."""
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.rnn = gluon.rnn.GRU(6, layout='NTC')
            self.out = gluon.nn.Dense(3)

    def hybrid_forward(self, F, x):
        return self.out(F.sum(self.rnn(x), axis=1))


class Reversed(gluon.HybridBlock):
    """Time reversed: the padded steps would come first."""
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.out = gluon.nn.Dense(3, flatten=False)

    def hybrid_forward(self, F, x):
        return self.out(F.reverse(x, axis=1))


class PerStep(gluon.HybridBlock):
    """A Dense layer on each time step."""
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.out = gluon.nn.Dense(3, flatten=False)

    def hybrid_forward(self, F, x):
        return self.out(x)


class Merged(gluon.HybridBlock):
    """(N, T, C) -> (N * T, C) -> Dense: the time positions interleave with the batch's."""
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.out = gluon.nn.Dense(4)

    def hybrid_forward(self, F, x):
        return self.out(F.reshape(x, (-3, 0)))


@pytest.fixture
def spy(monkeypatch):
    """The (data position, axis, padded size) lists of the padded calls made."""
    pads = []
    real = _bucketed_call.run

    def run(entry, plan, *args):
        pads.append(plan[0])
        return real(entry, plan, *args)
    monkeypatch.setattr(_bucketed_call, 'run', run)
    _host.forget()
    yield pads
    _host.forget()


def _train_step(net, x, y):
    loss = gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)
    with autograd.record():
        out = net(x)
        value = loss(out, y)
    value.backward()
    grads = {k: p.grad().asnumpy().copy() for k, p in net.collect_params().items()}
    return out.asnumpy(), value.asnumpy(), grads


def _exact(monkeypatch, fn):
    """``fn()`` with every signature compiled for its own shape at once."""
    with monkeypatch.context() as m:
        m.setattr(_host, 'HOST_CALLS', 0)
        m.setattr(_bucketed_call.Usage, 'exact', lambda self, n: True)  # however few its calls
        return fn()


def _forward_matches_exact(monkeypatch, net, x, *init):
    """``net``'s first (padded) forward on ``x``, checked against the exact-shape program's."""
    net.initialize(*init)
    net.hybridize()
    got = net(x).asnumpy()
    np.testing.assert_allclose(got, _exact(monkeypatch, lambda: net(x).asnumpy()), rtol=1e-5, atol=1e-6)
    return got


def test_tagger_pads_time_and_matches_exact_gradients(spy, monkeypatch):
    mx.random.seed(3)
    net = Tagger(prefix='tagger_')
    net.initialize(mx.init.Xavier())
    net.hybridize()
    rng = np.random.RandomState(0)
    for length in (11, 13, 40):  # the net's one program (length 64) serves all three
        x = nd.array(rng.randint(0, 30, (4, length)))
        y = nd.array(rng.randint(0, 5, (4, length)))
        got = _train_step(net, x, y)
        want = _exact(monkeypatch, lambda: _train_step(net, x, y))
        assert got[0].shape == (4, length, 5)
        np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
        for k in want[2]:
            np.testing.assert_allclose(got[2][k], want[2][k], rtol=1e-4, atol=1e-7, err_msg=k)
    # both pad time to the shared bucket: the net's LSTM runs the real steps only; the loss pads
    # its prediction and labels together and masks its mean
    assert spy == [[(0, 1, 64, 0)], [(0, 1, 64, 0), (1, 1, 64, 0)]] * 3


def test_a_length_that_is_its_buckets_size_shares_the_buckets_program(spy, monkeypatch):
    """Length 16 after length 11 (padded to 16) runs the padded program, padded by nothing, and
    gives the exact program's numbers; a graph only ever met at length 16 keeps its exact one."""
    net = Tagger(prefix='own_bucket_')
    net.initialize(mx.init.Xavier())
    net.hybridize()
    rng = np.random.RandomState(6)
    for length in (11, 16):
        x = nd.array(rng.randint(0, 30, (4, length)))
        y = nd.array(rng.randint(0, 5, (4, length)))
        got = _train_step(net, x, y)
        want = _exact(monkeypatch, lambda: _train_step(net, x, y))
        np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)
        for k in want[2]:
            np.testing.assert_allclose(got[2][k], want[2][k], rtol=1e-4, atol=1e-7, err_msg=k)
    assert spy == [[(0, 1, 64, 0)], [(0, 1, 64, 0), (1, 1, 64, 0)]] * 2
    del spy[:]
    fresh = Tagger(prefix='one_length_')
    fresh.initialize()
    fresh.hybridize()
    _train_step(fresh, nd.array(rng.randint(0, 30, (4, 16))), nd.array(rng.randint(0, 5, (4, 16))))
    assert spy == []


def test_bidirectional_rnn_is_not_padded_along_time(spy, monkeypatch):
    x = nd.array(np.random.RandomState(1).randint(0, 30, (4, 11)))
    _forward_matches_exact(monkeypatch, Tagger(bidirectional=True, prefix='bi_'), x, mx.init.Xavier())
    assert spy == []  # its backward direction reads the padded steps first


def test_a_sum_over_the_padded_axis_runs_over_the_real_positions(spy, monkeypatch):
    x = nd.array(np.random.RandomState(2).rand(4, 7, 5))
    _forward_matches_exact(monkeypatch, Pooled(prefix='pooled_'), x)
    assert spy == [[(0, 1, 64, 0)]]  # the GRU runs the real steps, the sum sums them


class Wide(gluon.HybridBlock):
    """A mean over time of a wide layer: 4 x 20000 elements per time step."""
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.out = gluon.nn.Dense(20000, flatten=False)

    def hybrid_forward(self, F, x):
        return F.mean(self.out(x), axis=1)


def test_a_heavy_sequence_pads_to_the_next_power_of_two(spy, monkeypatch):
    """The shared bucket (64 positions) is for graphs whose positions cost little; a wide layer
    computed for 57 padded steps would cost more than the compiles it saves."""
    assert 4 * 20000 > _bucketed_call.LIGHT
    _forward_matches_exact(monkeypatch, Wide(prefix='wide_'), nd.array(np.random.RandomState(2).rand(4, 7, 5)))
    assert spy == [[(0, 1, 8, 0)]]


def test_shared_bucket_programs_compile_optimised_at_once(monkeypatch):
    """A program padded to the shared bucket will serve every length below it: its vjp form and
    pullback skip the cheap tier (ops/_tiers.py), whose second compile would come a few calls on."""
    from gluonjax import _tape
    settled, real = [], _tape.record_call

    def record_call(*args, **kw):
        settled.append(kw.get('settled', False))
        return real(*args, **kw)
    monkeypatch.setattr(_tape, 'record_call', record_call)
    _host.forget()
    net = Tagger(prefix='settled_')
    net.initialize()
    net.hybridize()
    _train_step(net, nd.array(np.zeros((4, 9))), nd.array(np.zeros((4, 9))))
    assert settled == [True, True]  # the net and the loss
    with autograd.record():
        out = net(nd.array(np.zeros((4, 10))))
    node = out._ag[0]  # the cut node, whose parent is the padded call's
    assert node.parents[0][0].settled


def test_operators_moving_positions_along_the_axis_are_not_padded(spy, monkeypatch):
    x = nd.array(np.random.RandomState(2).rand(4, 7, 5))
    _forward_matches_exact(monkeypatch, Reversed(prefix='reversed_'), x)
    assert spy == []  # batch 4 is a bucket size; reverse keeps no position along time


def test_reshape_merging_time_into_rows_pads_the_batch_only(spy, monkeypatch):
    got = _forward_matches_exact(monkeypatch, Merged(prefix='merged_'), nd.array(np.random.RandomState(3).rand(3, 5, 2)))
    assert got.shape == (15, 4)
    assert spy == [[(0, 0, 4, 0)]]  # (N, T) rows: padding N adds whole rows at the end, padding T would not


def test_gradient_of_a_tracked_input_is_cut_back(spy, monkeypatch):
    net = gluon.nn.Dense(3, flatten=False, prefix='dense_')
    net.initialize()
    net.hybridize()
    data = np.random.RandomState(4).rand(3, 5, 2).astype(np.float32)

    def input_grad():
        x = nd.array(data)
        x.attach_grad()
        with autograd.record():
            y = (net(x) * net(x)).sum()
        y.backward()
        return x.grad.asnumpy()
    got = input_grad()
    np.testing.assert_allclose(got, _exact(monkeypatch, input_grad), rtol=1e-5, atol=1e-6)
    assert got.shape == (3, 5, 2)
    assert spy and all(p == [(0, 0, 4, 0), (0, 1, 8, 1)] for p in spy)


def _count_traces(monkeypatch, net):
    traces = []
    real = net._get_graph

    def get_graph(*args):
        traces.append(args[0].shape)
        return real(*args)
    monkeypatch.setattr(net, '_get_graph', get_graph)
    return traces


def test_a_graph_seen_equal_at_two_sizes_is_not_traced_again(monkeypatch):
    net = Tagger(prefix='retrace_')
    net.initialize()
    net.hybridize()
    traces = _count_traces(monkeypatch, net)
    rng = np.random.RandomState(5)
    outs = [net(nd.array(rng.randint(0, 30, (4, n)))) for n in (5, 6, 7, 9)]
    assert [o.shape for o in outs] == [(4, 5, 5), (4, 6, 5), (4, 7, 5), (4, 9, 5)]
    assert traces == [(4, 5), (4, 6)]  # lengths 7 and 9 reuse the graph of 5 and 6


def test_a_graph_depending_on_a_size_is_traced_for_each(monkeypatch):
    net = Tagger(bidirectional=True, prefix='sized_')  # its begin state holds the batch size
    net.initialize()
    net.hybridize()
    traces = _count_traces(monkeypatch, net)
    rng = np.random.RandomState(6)
    for n in (3, 5, 6):
        x = nd.array(rng.randint(0, 30, (n, 4)))
        assert net(x).shape == (n, 4, 5)
    assert traces == [(3, 4), (5, 4), (6, 4)]


def test_get_symbol_of_a_padded_call_is_the_exact_calls(spy, monkeypatch):
    import json
    net = Tagger(prefix='sym_')
    net.initialize()
    net.hybridize()
    data = np.random.RandomState(7).randint(0, 30, (4, 11)).astype(np.float32)

    def recorded_graph():
        x = nd.array(data)
        x.attach_grad()
        with autograd.record():
            y = net(x)
        return [(n['op'], n['name']) for n in json.loads(autograd.get_symbol(y).tojson())['nodes']]
    got = recorded_graph()
    assert spy == [[(0, 1, 64, 0)]]
    assert got == _exact(monkeypatch, recorded_graph)
    assert ('_CachedOp', 'node_0') in got


def _padded_calls(spy, net, lengths, passes):
    """How many of ``passes`` rounds of forwards over ``lengths`` ran padded, per pass."""
    rng = np.random.RandomState(1)
    counts = []
    for _ in range(passes):
        before = len(spy)
        for length in lengths:
            x = nd.array(rng.rand(2, length, 3))
            got = net(x).asnumpy()
            np.testing.assert_allclose(got, _exact_dense(net, x), rtol=1e-5, atol=1e-6)
        counts.append(len(spy) - before)
    return counts


def _exact_dense(net, x):
    w, b = net.out.weight.data().asnumpy(), net.out.bias.data().asnumpy()
    return x.asnumpy() @ w.T + b


def test_one_shape_among_many_keeps_its_padded_program(spy):
    """Lengths 5, 6, 7 in turn: each a third of the calls, so past their first calls they keep
    running the bucket's program instead of compiling one each (gluon/_bucketed_call.Usage)."""
    net = PerStep(prefix='many_')
    net.initialize()
    net.hybridize()
    assert _padded_calls(spy, net, (5, 6, 7), 11) == [3] * 11


def test_a_shape_making_most_calls_gets_its_exact_program(spy, monkeypatch):
    net = PerStep(prefix='one_')
    net.initialize()
    net.hybridize()
    assert _padded_calls(spy, net, (5,), 10) == [1] * _host.HOST_CALLS + [0] * (10 - _host.HOST_CALLS)
    monkeypatch.setattr(_bucketed_call, 'EXACT_AT', 10)  # ... as one of many that keeps coming back
    assert _padded_calls(spy, net, (9, 10, 11), 11) == [3] * 9 + [0] * 2
