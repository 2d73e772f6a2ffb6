"""mx.gluon.contrib.rnn (VariationalDropoutCell, LSTMPCell, the convolutional cells,
dynamic_unroll) and the MXNet names GluonTS imports (mx.metric.ndarray, cumsum, broadcast_axes),
checked against numpy and MXNet 1.9.1's outputs."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax.gluon import rnn
from gluonjax.gluon.contrib.rnn import LSTMPCell, VariationalDropoutCell


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_lstmp_cell_names_shapes_and_repr_follow_mxnet():
    cell = LSTMPCell(6, 3, input_size=4, prefix='lstmp0_')
    cell.initialize()
    params = cell.collect_params()
    assert sorted(params.keys()) == ['lstmp0_h2h_bias', 'lstmp0_h2h_weight', 'lstmp0_h2r_weight',
                                     'lstmp0_i2h_bias', 'lstmp0_i2h_weight']
    assert [params['lstmp0_' + n].shape for n in ('i2h_weight', 'h2h_weight', 'h2r_weight')] == \
        [(24, 4), (24, 3), (3, 6)]
    assert cell.state_info(2) == [{'shape': (2, 3), '__layout__': 'NC'}, {'shape': (2, 6), '__layout__': 'NC'}]
    assert repr(cell) == 'LSTMPCell(4 -> 24 -> 3)'  # MXNet 1.9.1's text


@pytest.mark.parametrize('hybridize', [False, True])
def test_lstmp_cell_step_matches_numpy(hybridize):
    rng = np.random.RandomState(0)
    cell = LSTMPCell(5, 2, input_size=3)
    cell.initialize(mx.init.Normal(0.5))
    if hybridize:
        cell.hybridize()
    x, r, c = rng.randn(4, 3), rng.randn(4, 2), rng.randn(4, 5)
    out, (r1, c1) = cell(mx.nd.array(x), [mx.nd.array(r), mx.nd.array(c)])
    p = {k.split('_', 1)[1]: v.data().asnumpy() for k, v in cell.collect_params().items()}
    gates = x @ p['i2h_weight'].T + p['i2h_bias'] + r @ p['h2h_weight'].T + p['h2h_bias']
    i, f, g, o = np.split(gates, 4, axis=1)
    c_ref = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
    r_ref = (_sigmoid(o) * np.tanh(c_ref)) @ p['h2r_weight'].T
    np.testing.assert_allclose(c1.asnumpy(), c_ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out.asnumpy(), r_ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(r1.asnumpy(), r_ref, rtol=1e-5, atol=1e-5)


def test_variational_dropout_cell_wraps_like_mxnet():
    cell = VariationalDropoutCell(rnn.LSTMCell(5, prefix='lstm0_'), drop_inputs=0.5, drop_states=0.5,
                                  drop_outputs=0.5)
    assert cell.prefix == 'lstm0_vardrop'
    assert repr(cell) == 'VariationalDropoutCell(p_out = 0.5, p_state = 0.5)'
    assert cell.state_info(2) == rnn.LSTMCell(5).state_info(2)
    with pytest.raises(AssertionError):  # a modified cell is not called directly
        cell.base_cell.begin_state()
    with pytest.raises(AssertionError):
        VariationalDropoutCell(rnn.BidirectionalCell(rnn.GRUCell(2), rnn.GRUCell(2)), drop_states=0.5)


@pytest.mark.parametrize('drop_states', [0., 0.5])
def test_variational_dropout_mask_is_shared_across_time_steps(drop_states):
    base = rnn.GRUCell(64, input_size=3)
    cell = VariationalDropoutCell(base, drop_outputs=0.5, drop_states=drop_states)
    cell.initialize(mx.init.Normal(0.2))  # small weights: no gate saturates to an exact 0 output
    x = mx.nd.array(np.random.RandomState(1).rand(4, 6, 3) + 0.1)
    with mx.autograd.train_mode():
        out, states = cell.unroll(6, x, layout='NTC', merge_outputs=True)
    dropped = out.asnumpy() == 0
    assert out.shape == (4, 6, 64) and len(states) == 1
    assert 0.25 < dropped.mean() < 0.75
    assert (dropped == dropped[:, :1, :]).all()  # one mask per sequence, as MXNet draws it
    with mx.autograd.train_mode():  # a new unroll draws a new mask
        again, _ = cell.unroll(6, x, layout='NTC', merge_outputs=True)
    assert ((again.asnumpy() == 0) != dropped).any()


def test_variational_dropout_scales_in_training_and_is_identity_in_inference():
    base = rnn.GRUCell(32, input_size=2)
    cell = VariationalDropoutCell(base, drop_inputs=0.25, drop_outputs=0.25)
    cell.initialize(mx.init.Normal(1.0))
    x = mx.nd.array(np.random.RandomState(2).rand(3, 5, 2))
    cell.base_cell._modified = False
    plain, _ = base.unroll(5, x, layout='NTC', merge_outputs=True)
    cell.base_cell._modified = True
    inferred, _ = cell.unroll(5, x, layout='NTC', merge_outputs=True)
    # the same operators, but later calls of their signatures: a first call's program may differ
    # from a later one's in the last bit (docs/MIGRATING.md), carried through 5 recurrent steps
    np.testing.assert_allclose(inferred.asnumpy(), plain.asnumpy(), rtol=1e-5, atol=1e-6)
    out_cell = VariationalDropoutCell(rnn.GRUCell(32, input_size=2, params=base.collect_params()),
                                      drop_outputs=0.25)
    with mx.autograd.train_mode():
        dropped, _ = out_cell.unroll(5, x, layout='NTC', merge_outputs=True)
    kept = dropped.asnumpy() != 0
    np.testing.assert_allclose(dropped.asnumpy()[kept], plain.asnumpy()[kept] / 0.75, rtol=1e-5, atol=1e-6)


def test_variational_dropout_step_by_step_under_hybridize():
    cell = VariationalDropoutCell(rnn.LSTMCell(8, input_size=3), drop_inputs=0.3, drop_states=0.3)
    cell.initialize()
    cell.hybridize()
    states = cell.begin_state(batch_size=2)
    x = mx.nd.ones((2, 3))
    cell.reset()
    with mx.autograd.record():
        out, states = cell(x, states)
        out, states = cell(x, states)
    out.backward()
    assert out.shape == (2, 8) and [s.shape for s in states] == [(2, 8), (2, 8)]
    assert np.isfinite(cell.base_cell.i2h_weight.grad().asnumpy()).all()


def test_metric_module_exposes_ndarray_as_mxnet_does():
    from gluonjax.metric import ndarray
    assert ndarray is mx.nd


def test_cumsum_and_broadcast_axes_method_follow_mxnet():
    x = mx.nd.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(mx.nd.cumsum(x, axis=1).asnumpy(), [[1, 3], [3, 7]])
    np.testing.assert_array_equal(mx.nd.cumsum(x).asnumpy(), [1, 3, 6, 10])
    assert mx.nd.cumsum(mx.nd.array([1, 2], dtype='int8')).dtype == np.int8  # MXNet keeps the type
    assert '"op": "_np_cumsum"' in mx.sym.cumsum(mx.sym.var('x'), axis=1).tojson()
    np.testing.assert_array_equal(mx.nd.ones((2, 1)).broadcast_axes(axis=1, size=3).asnumpy(), np.ones((2, 3)))
    assert mx.sym.var('x').broadcast_axes(axis=1, size=3).infer_shape(x=(2, 1))[1] == [(2, 3)]


def _conv1d_same(x, w, b, pad):
    """numpy Conv1D, NCW, stride 1: x (N, C, W), w (O, C, K)."""
    k = w.shape[2]
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad)))
    cols = np.stack([xp[:, :, i:i + k] for i in range(xp.shape[2] - k + 1)], axis=2)  # N C W K
    return np.einsum('ncwk,ock->now', cols, w) + b[None, :, None]


@pytest.mark.parametrize('hybridize', [False, True])
def test_conv1d_gru_cell_step_matches_numpy(hybridize):
    from gluonjax.gluon.contrib.rnn import Conv1DGRUCell
    rng = np.random.RandomState(1)
    cell = Conv1DGRUCell((2, 6), 3, i2h_kernel=3, h2h_kernel=3, i2h_pad=1, prefix='g_')
    cell.initialize(mx.init.Uniform(0.5))
    if hybridize:
        cell.hybridize()
    x = rng.uniform(-1, 1, (2, 2, 6)).astype(np.float32)
    h = rng.uniform(-1, 1, (2, 3, 6)).astype(np.float32)
    out, states = cell(mx.nd.array(x), [mx.nd.array(h)])
    p = {k.split('_', 1)[1]: v.data().asnumpy() for k, v in cell.collect_params().items()}
    i2h = _conv1d_same(x, p['i2h_weight'], p['i2h_bias'], 1)
    h2h = _conv1d_same(h, p['h2h_weight'], p['h2h_bias'], 1)
    r = _sigmoid(i2h[:, :3] + h2h[:, :3])
    z = _sigmoid(i2h[:, 3:6] + h2h[:, 3:6])
    n = np.tanh(i2h[:, 6:] + r * h2h[:, 6:])   # the reset gate scales h2h with its bias
    expected = (1 - z) * n + z * h
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(states[0].asnumpy(), expected, rtol=1e-5, atol=1e-6)
    assert cell.state_info(2) == [{'shape': (2, 3, 6), '__layout__': 'NCW'}]


@pytest.mark.parametrize('layout', ['TNC', 'NTC'])
def test_dynamic_unroll_equals_unroll_with_valid_length(layout):
    from gluonjax.gluon.contrib.rnn.rnn_cell import dynamic_unroll
    rng = np.random.RandomState(2)
    cell = rnn.LSTMCell(4, input_size=3)
    cell.initialize(mx.init.Uniform(0.5))
    shape = (5, 2, 3) if layout == 'TNC' else (2, 5, 3)
    x = mx.nd.array(rng.uniform(-1, 1, shape))
    states = [mx.nd.array(rng.uniform(-1, 1, (2, 4))) for _ in range(2)]
    valid = mx.nd.array([2, 5])
    ref, ref_states = cell.unroll(5, x, states, layout=layout, merge_outputs=True,
                                  valid_length=valid)
    out, out_states = dynamic_unroll(cell, x, states, layout=layout, valid_length=valid)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(out_states, ref_states):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    plain, _ = dynamic_unroll(cell, x, states, layout=layout)
    full, _ = cell.unroll(5, x, states, layout=layout, merge_outputs=True)
    np.testing.assert_allclose(plain.asnumpy(), full.asnumpy(), rtol=1e-5, atol=1e-6)
