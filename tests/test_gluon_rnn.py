"""gluon.rnn: layers and cells against MXNet 1.9 (names, gate order, outputs), eager vs hybridized."""
import json
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax import name as mxname
from gluonjax.gluon import rnn

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'gluon')
_DATA = {}


def data():
    if not _DATA:
        _DATA.update(nd.load(os.path.join(REF, 'rnn.params')))
    return _DATA


LAYERS = {
    'lstm': lambda: rnn.LSTM(5, num_layers=2, bidirectional=True, input_size=3, prefix='lstm_'),
    'gru': lambda: rnn.GRU(4, num_layers=1, layout='NTC', input_size=3, prefix='gru_'),
    'rnn': lambda: rnn.RNN(4, num_layers=2, activation='tanh', input_size=3, prefix='rnn_'),
}


def _load(block, key):
    ref = data()
    for name, p in block.collect_params().items():
        p._load_init(ref['%s:param:%s' % (key, name)], mx.cpu())


def _run_layer(key, hybrid):
    layer = LAYERS[key]()
    _load(layer, key)
    if hybrid:
        layer.hybridize()
    ref = data()
    n_states = 2 if key == 'lstm' else 1
    states = [ref['%s:state%d' % (key, i)] for i in range(n_states)]
    x = ref[key + ':x'].copy()
    x.attach_grad()
    with autograd.record():
        y, new_states = layer(x, states)
        loss = y.sum() + sum(s.sum() for s in new_states)
    loss.backward()
    grads = {n: p.grad().asnumpy() for n, p in layer.collect_params().items()}
    return y.asnumpy(), [s.asnumpy() for s in new_states], grads, x.grad.asnumpy()


@pytest.mark.parametrize('key', sorted(LAYERS))
def test_rnn_layers_match_mxnet_eager_and_hybridized(key):
    ref = data()
    y, states, grads, dx = _run_layer(key, False)
    np.testing.assert_allclose(y, ref[key + ':y'].asnumpy(), rtol=1e-4, atol=1e-5)
    for i, s in enumerate(states):
        np.testing.assert_allclose(s, ref['%s:new_state%d' % (key, i)].asnumpy(), rtol=1e-4, atol=1e-5)
    hy, hstates, hgrads, hdx = _run_layer(key, True)
    np.testing.assert_allclose(hy, y, rtol=1e-5, atol=1e-6)
    for a, b in zip(hstates, states):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    for n in grads:
        np.testing.assert_allclose(hgrads[n], grads[n], rtol=1e-4, atol=1e-5, err_msg=n)
    np.testing.assert_allclose(hdx, dx, rtol=1e-4, atol=1e-5)


def test_layer_without_states_returns_output_only():
    layer = rnn.LSTM(3, input_size=2)
    layer.initialize()
    out = layer(nd.ones((4, 2, 2)))
    assert isinstance(out, nd.NDArray) and out.shape == (4, 2, 3)
    states = layer.begin_state(batch_size=2)
    assert [s.shape for s in states] == [(1, 2, 3), (1, 2, 3)]
    with pytest.raises(ValueError, match='Invalid recurrent state shape'):
        layer(nd.ones((4, 2, 2)), [nd.zeros((1, 3, 3)), nd.zeros((1, 3, 3))])


def test_input_size_is_inferred():
    layer = rnn.GRU(3, bidirectional=True)
    layer.initialize()
    assert layer(nd.ones((5, 2, 7))).shape == (5, 2, 6)
    assert layer.l0_i2h_weight.shape == (9, 7) and layer.r0_i2h_weight.shape == (9, 7)



class _UnrollFromZeroState(mx.gluon.HybridBlock):
    """A cell unrolled from ``begin_state(batch_size=0, func=F.zeros)`` when hybridized, as
    GluonTS's LSTNet does: the state's batch is unknown while the cell is traced."""

    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.cell = cell

    def hybrid_forward(self, F, x):
        batch = x.shape[1] if F is nd else 0
        states = self.cell.begin_state(batch_size=batch, func=F.zeros)
        return self.cell.unroll(3, x, begin_state=states, layout='TNC', merge_outputs=True)[0]


@pytest.mark.parametrize('cell', [lambda: rnn.GRUCell(5), lambda: rnn.ZoneoutCell(rnn.LSTMCell(5), zoneout_states=0.2)])
def test_deferred_input_size_with_zero_batch_begin_state(cell):
    """The cell's input size follows from the whole graph (MXNet's deferred shape inference),
    though the state it was traced with had no batch size."""
    net = _UnrollFromZeroState(cell())
    net.initialize()
    net.hybridize()
    assert net(nd.ones((3, 2, 4))).shape == (3, 2, 5)
    i2h = [p for name, p in net.collect_params().items() if name.endswith('i2h_weight')]
    assert [p.shape[1] for p in i2h] == [4]

def test_lstm_cell_unroll_matches_mxnet_and_hybridized():
    ref = data()
    for hybrid in (False, True):
        cell = rnn.LSTMCell(4, input_size=3, prefix='cell_')
        _load(cell, 'cell')
        if hybrid:
            cell.hybridize()
        outputs, states = cell.unroll(3, ref['cell:x'], layout='NTC', merge_outputs=True)
        np.testing.assert_allclose(outputs.asnumpy(), ref['cell:y'].asnumpy(), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(states[0].asnumpy(), ref['cell:h'].asnumpy(), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(states[1].asnumpy(), ref['cell:c'].asnumpy(), rtol=1e-4, atol=1e-5)


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def test_gru_and_rnn_cells_against_numpy():
    x = np.random.RandomState(0).uniform(-1, 1, (2, 3)).astype(np.float32)
    h = np.random.RandomState(1).uniform(-1, 1, (2, 4)).astype(np.float32)
    gru = rnn.GRUCell(4, input_size=3)
    gru.initialize(mx.init.Uniform(0.5))
    out, (new_h,) = gru(nd.array(x), [nd.array(h)])
    wi, wh = gru.i2h_weight.data().asnumpy(), gru.h2h_weight.data().asnumpy()
    gi, gh = x @ wi.T, h @ wh.T
    r = _sigmoid(gi[:, :4] + gh[:, :4])
    z = _sigmoid(gi[:, 4:8] + gh[:, 4:8])
    n = np.tanh(gi[:, 8:] + r * gh[:, 8:])
    np.testing.assert_allclose(new_h.asnumpy(), (1 - z) * n + z * h, rtol=1e-5, atol=1e-6)
    cell = rnn.RNNCell(4, activation='relu', input_size=3)
    cell.initialize(mx.init.Uniform(0.5))
    out, _ = cell(nd.array(x), [nd.array(h)])
    want = np.maximum(x @ cell.i2h_weight.data().asnumpy().T + h @ cell.h2h_weight.data().asnumpy().T, 0)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_sequential_bidirectional_and_modifier_cells():
    x = nd.array(np.random.RandomState(2).uniform(-1, 1, (2, 5, 3)).astype(np.float32))
    seq = rnn.SequentialRNNCell()
    with seq.name_scope():
        seq.add(rnn.LSTMCell(4, input_size=3))
        seq.add(rnn.DropoutCell(0.5))
        seq.add(rnn.ResidualCell(rnn.GRUCell(4, input_size=4)))
    seq.initialize()
    outputs, states = seq.unroll(5, x, layout='NTC', merge_outputs=True)
    assert outputs.shape == (2, 5, 4) and len(states) == 3
    # the bidirectional cell = forward cell on x, backward cell on reversed x
    left = rnn.LSTMCell(3, input_size=3, prefix='l_')
    right = rnn.LSTMCell(3, input_size=3, prefix='r_')
    bi = rnn.BidirectionalCell(left, right)
    bi.initialize()
    out, _ = bi.unroll(5, x, layout='NTC', merge_outputs=True)
    lo, _ = left.unroll(5, x, layout='NTC', merge_outputs=True)
    ro, _ = right.unroll(5, nd.array(x.asnumpy()[:, ::-1].copy()), layout='NTC', merge_outputs=True)
    np.testing.assert_allclose(out.asnumpy()[:, :, :3], lo.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.asnumpy()[:, :, 3:], ro.asnumpy()[:, ::-1], rtol=1e-5, atol=1e-6)
    zone = rnn.ZoneoutCell(rnn.RNNCell(3, input_size=3), zoneout_outputs=0.5, zoneout_states=0.5)
    zone.initialize()
    outputs, _ = zone.unroll(5, x, layout='NTC', merge_outputs=False)
    assert len(outputs) == 5 and outputs[0].shape == (2, 3)


def test_rnn_names_and_repr_match_mxnet():
    with open(os.path.join(REF, 'expected.json')) as f:
        exp = json.load(f)['rnn']
    with mxname.NameManager():
        cells = {
            'lstm': rnn.LSTM(6, num_layers=2, bidirectional=True),
            'gru': rnn.GRU(6, layout='NTC', input_size=3),
            'rnn': rnn.RNN(6, activation='relu', dropout=0.5),
            'lstmcell': rnn.LSTMCell(5, input_size=3),
            'grucell': rnn.GRUCell(5),
            'rnncell': rnn.RNNCell(5, activation='tanh', input_size=2),
        }
        seq = rnn.SequentialRNNCell()
        with seq.name_scope():
            seq.add(rnn.LSTMCell(4, input_size=3))
            seq.add(rnn.GRUCell(4, input_size=4))
        cells['sequential'] = seq
        cells['bidirectional'] = rnn.BidirectionalCell(rnn.LSTMCell(3, input_size=2, prefix='l_'),
                                                       rnn.LSTMCell(3, input_size=2, prefix='r_'))
    for k, v in cells.items():
        got = [v.prefix, repr(v), list(v.collect_params().keys()),
               [list(p.shape) for p in v.collect_params().values()]]
        assert got == exp[k], k


def test_fused_layer_structural_names_load_unfused_files(tmp_path):
    layer = rnn.LSTM(3, num_layers=2, bidirectional=True, input_size=2)
    layer.initialize()
    names = sorted(layer._collect_params_with_prefix())
    assert names[0] == '_unfused.0.l_cell.h2h_bias'
    f = str(tmp_path / 'lstm.params')
    layer.save_parameters(f)
    other = rnn.LSTM(3, num_layers=2, bidirectional=True, input_size=2)
    other.load_parameters(f)
    np.testing.assert_array_equal(other.r1_h2h_weight.data().asnumpy(), layer.r1_h2h_weight.data().asnumpy())


@pytest.mark.parametrize('mode', ['LSTM', 'GRU'])
def test_unfused_layer_shares_parameters_and_outputs(mode):
    layer = getattr(rnn, mode)(3, num_layers=2, bidirectional=True, input_size=4)
    layer.initialize(mx.init.Uniform(0.5))
    stack = layer._unfuse()
    assert sorted(stack.collect_params().keys()) == sorted(layer.collect_params().keys())
    assert all(stack.collect_params()[k] is p for k, p in layer.collect_params().items())
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (5, 2, 4)))
    fused = layer(x)
    unfused, _ = stack.unroll(5, x, layout='TNC', merge_outputs=True)
    np.testing.assert_allclose(unfused.asnumpy(), fused.asnumpy(), rtol=1e-5, atol=1e-6)


def _while_loops(num_layers, bidirectional):
    import jax
    from gluonjax.ops.nn_rnn import rnn, rnn_param_size
    dirs = 2 if bidirectional else 1
    args = (jax.ShapeDtypeStruct((5, 2, 3), 'float32'),
            jax.ShapeDtypeStruct((rnn_param_size('lstm', 3, 4, num_layers, bidirectional),), 'float32'),
            jax.ShapeDtypeStruct((num_layers * dirs, 2, 4), 'float32'),
            jax.ShapeDtypeStruct((num_layers * dirs, 2, 4), 'float32'))

    def run(*a):
        return rnn(*a, state_size=4, num_layers=num_layers, bidirectional=bidirectional, mode='lstm', p=0.0,
                   state_outputs=True, projection_size=None, lstm_state_clip_min=None, lstm_state_clip_max=None,
                   lstm_state_clip_nan=False, use_sequence_length=False)
    return jax.jit(run).lower(*args).as_text().count('stablehlo.while')


def test_fused_rnn_program_does_not_grow_with_layers_or_directions():
    # The later layers of a stack are one scan over layers and the directions a vmapped axis of one
    # time scan: a deep bidirectional stack compiles as two layers (it compiled one scan per layer
    # and direction, 3.5 s against 1.2 s for one layer under load, and its backward as much again)
    assert _while_loops(1, False) == _while_loops(1, True) == 1
    assert _while_loops(2, False) == _while_loops(4, True) == 3


def test_legacy_fused_cell_unpack_and_pack_weights_round_trip():
    """mx.rnn.FusedRNNCell cuts the flat vector into MXNet's per-gate pieces (layer, direction,
    i2h/h2h, gate order i, f, c, o) and packs them back unchanged; LSTMCell stacks its gates."""
    from gluonjax.ops.nn_rnn import rnn_param_size
    n = rnn_param_size('lstm', 3, 4, 2, True)
    flat = np.arange(n, dtype=np.float32)
    cell = mx.rnn.FusedRNNCell(4, num_layers=2, mode='lstm', bidirectional=True, prefix='')
    pieces = cell.unpack_weights({'parameters': mx.nd.array(flat)})
    assert len(pieces) == 64
    # the first weight block: layer 0, left to right, i2h, its 4 gates of (4, 3) in order i, f, c, o
    np.testing.assert_array_equal(pieces['l0_i2h_f_weight'].asnumpy(), flat[12:24].reshape(4, 3))
    assert pieces['l0_i2h_f_weight'].dtype == np.float32
    np.testing.assert_array_equal(cell.pack_weights(pieces)['parameters'].asnumpy(), flat)
    lstm = mx.rnn.LSTMCell(4, prefix='l0_')
    stacked = np.arange(48, dtype=np.float32).reshape(16, 3)
    gates = lstm.unpack_weights({'l0_i2h_weight': mx.nd.array(stacked), 'l0_h2h_weight': mx.nd.ones((16, 4)),
                                 'l0_i2h_bias': mx.nd.zeros(16), 'l0_h2h_bias': mx.nd.zeros(16)})
    np.testing.assert_array_equal(gates['l0_i2h_c_weight'].asnumpy(), stacked[8:12])
    np.testing.assert_array_equal(lstm.pack_weights(gates)['l0_i2h_weight'].asnumpy(), stacked)
