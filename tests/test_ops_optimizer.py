"""The optimizer update operators (mx.nd.sgd_update, adam_update, ...) against MXNet 1.9.1's results
recorded by tests/data/mxnet_ref/make_update_ops_data.py: the weight written through out= and the
state arrays updated in place."""
import json
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError

_DATA = np.load(os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'update_ops_ref.npz'))
_CASES = json.loads(str(_DATA['__cases__']))
# MXNet's nag_mom_update computes the new momentum from the weight it has just overwritten when
# out is the weight (an aliasing effect of its kernel); gluonjax uses the weight it was given.
_STATE_ATOL = {'nag_mom_update': 2e-3}


@pytest.mark.parametrize('name', sorted(_CASES))
def test_update_matches_mxnet_in_place(name):
    n, kwargs = _CASES[name]
    arrays = [mx.nd.array(_DATA['%s/in%d' % (name, i)]) for i in range(n)]
    grad_before = arrays[1].asnumpy()
    result = getattr(mx.nd, name)(*arrays, out=arrays[0], **kwargs)
    assert result is arrays[0]
    np.testing.assert_allclose(arrays[0].asnumpy(), _DATA['%s/out0' % name], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(arrays[1].asnumpy(), grad_before)
    for i in range(2, n):
        np.testing.assert_allclose(arrays[i].asnumpy(), _DATA['%s/out%d' % (name, i)], rtol=1e-5,
                                   atol=_STATE_ATOL.get(name, 1e-6))


def test_update_without_out_returns_the_new_weight_and_keeps_the_weight():
    weight, grad, mom = mx.nd.ones((2,)), mx.nd.array([1.0, -2.0]), mx.nd.zeros((2,))
    new = mx.nd.sgd_mom_update(weight, grad, mom, lr=0.5, momentum=0.9)
    np.testing.assert_allclose(new.asnumpy(), [0.5, 2.0])
    np.testing.assert_allclose(weight.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(mom.asnumpy(), [-0.5, 1.0])  # the state is updated in place
    with pytest.raises(MXNetError, match='sgd_update: grad has shape \\[3\\], the weight \\[2\\]'):
        mx.nd.sgd_update(weight, mx.nd.ones((3,)), lr=0.1)
    with pytest.raises(NotImplementedError, match='imperatively only'):
        sym = mx.sym.sgd_mom_update(mx.sym.var('w'), mx.sym.var('g'), mx.sym.var('m'), lr=0.1)
        sym.bind(mx.cpu(), {'w': weight, 'g': grad, 'm': mom}).forward()


def _mp_inputs():
    rng = np.random.RandomState(1)
    w32 = rng.rand(2, 3).astype('float32') * 2 - 1
    g = (rng.rand(2, 3).astype('float32') * 2 - 1).astype('float16')
    return w32, g, rng.rand(2, 3).astype('float32'), rng.rand(2, 3).astype('float32'), rng.rand(2, 3).astype('float32')


# (operator, inputs by index into _mp_inputs() + extras, keywords, first 3 outputs, first 2 of each state)
# as MXNet 1.9.1 printed them
_MP_CASES = [
    ('mp_sgd_update', dict(lr=0.1, wd=0.01, rescale_grad=0.5), [-0.1343994140625, 0.45556640625, -0.98828125],
     [[-0.13441799581050873, 0.455650269985199]]),
    ('mp_sgd_mom_update', dict(lr=0.1, momentum=0.9, wd=0.01), [0.0809326171875, 1.26171875, -0.95361328125],
     [[0.24691711366176605, 0.8207488059997559], [0.08096109330654144, 1.2613978385925293]]),
    ('lamb_update_phase1', dict(t=3, wd=0.01, clip_gradient=0.4), [0.016980832, 0.035903566, 0.47503817],
     [[0.08634823560714722, 0.14740753173828125], [0.8756727576255798, 0.8938074111938477]]),
    ('lamb_update_phase1', dict(t=3, wd=0.01, bias_correction=False), [0.066300809, 0.16032484, 2.3910453],
     [[0.06360408663749695, 0.14740753173828125], [0.8759064674377441, 0.8938074111938477]]),
]


@pytest.mark.parametrize('name, kwargs, want, states', _MP_CASES)
def test_multi_precision_and_lamb_updates_match_mxnet(name, kwargs, want, states):
    w32, g, mom, mean, var = _mp_inputs()
    if name == 'mp_sgd_update':
        ins = [w32.astype('float16'), g, w32]
    elif name == 'mp_sgd_mom_update':
        ins = [w32.astype('float16'), g, mom, w32]
    else:
        ins = [w32, g.astype('float32'), mean, var]
    arrays = [mx.nd.array(a, dtype=a.dtype) for a in ins]
    out = getattr(mx.nd, name)(*arrays, **kwargs)
    assert out.dtype == ins[0].dtype
    np.testing.assert_allclose(out.asnumpy().ravel()[:3], want, rtol=1e-5)
    for array, state in zip(arrays[2:], states):
        np.testing.assert_allclose(array.asnumpy().ravel()[:2], state, rtol=1e-5)


def test_lamb_phase2_scales_by_the_trust_ratio():
    w32, g, _, _, _ = _mp_inputs()
    weight, direction = mx.nd.array(w32), mx.nd.array(g.astype('float32'))
    out = mx.nd.lamb_update_phase2(weight, direction, mx.nd.array([0.7]), mx.nd.array([1.3]), lr=0.1, lower_bound=0.8)
    np.testing.assert_allclose(out.asnumpy(), w32 - 0.1 * (0.8 / 1.3) * g.astype('float32'), rtol=1e-6)
    out = mx.nd.lamb_update_phase2(weight, direction, mx.nd.array([0.0]), mx.nd.array([1.3]), lr=0.1)
    np.testing.assert_allclose(out.asnumpy().ravel()[:3], [-0.10321188, 0.47153282, -0.97912914], rtol=1e-6)


def _adamw_arrays(rs, shape, count):
    return [[mx.nd.array(rs.uniform(lo, 1, shape)) for lo in (0, -1, 0, 0)] for _ in range(count)]


def test_adamw_update_decouples_weight_decay_and_skips_bad_rescale_factors():
    rs = np.random.RandomState(3)
    (weight, grad, mean, var), = _adamw_arrays(rs, (3, 4), 1)
    w, g, m, v = (a.asnumpy() for a in (weight, grad, mean, var))
    for bad in (0.0, float('nan'), float('inf')):  # an overflowed loss scale: nothing changes
        mx.nd.contrib.adamw_update(weight, grad, mean, var, bad, lr=0.1, eta=0.5, wd=0.1, out=weight)
        np.testing.assert_array_equal(weight.asnumpy(), w)
        np.testing.assert_array_equal(mean.asnumpy(), m)
    mx.nd.contrib.adamw_update(weight, grad, mean, var, mx.nd.array([2.0]), lr=0.1, eta=0.5, wd=0.1,
                               clip_gradient=1.5, out=weight)
    g = np.clip(2 * g, -1.5, 1.5)
    m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
    np.testing.assert_allclose(mean.asnumpy(), m, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), v, rtol=1e-6)
    np.testing.assert_allclose(weight.asnumpy(), w - 0.5 * (0.1 * m / (np.sqrt(v) + 1e-8) + 0.1 * w), rtol=1e-5)


def test_multi_mp_adamw_update_is_mp_adamw_update_per_weight():
    rs = np.random.RandomState(4)
    groups = _adamw_arrays(rs, (2, 3), 2)
    copies = [[a.copy() for a in group] for group in groups]
    halves = [group[0].astype('float16') for group in groups]
    half_copies = [h.copy() for h in halves]
    mx.nd.contrib.multi_mp_adamw_update(halves, [gr[1].astype('float16') for gr in groups],
                                        [gr[2] for gr in groups], [gr[3] for gr in groups],
                                        [gr[0] for gr in groups], 1.0, lrs=[0.1, 0.2], wds=[0.0, 0.1],
                                        etas=[1.0, 0.5], out=halves)
    for (w32, g, m, v), half, lr, wd, eta in zip(copies, half_copies, (0.1, 0.2), (0.0, 0.1), (1.0, 0.5)):
        mx.nd.contrib.mp_adamw_update(half, g.astype('float16'), m, v, w32, 1.0, lr=lr, eta=eta, wd=wd, out=half)
    for group, copy, half, half_copy in zip(groups, copies, halves, half_copies):
        assert half.dtype == np.float16
        np.testing.assert_array_equal(half.asnumpy(), half_copy.asnumpy())
        for a, b in zip(group, copy):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_reset_arrays_zeroes_every_input_in_place_and_returns_nothing():
    a, b = mx.nd.ones((2, 3)), mx.nd.ones((4,), dtype='float16')
    assert mx.nd.reset_arrays(a, b, num_arrays=2) == []
    assert a.asnumpy().tolist() == [[0] * 3] * 2 and b.asnumpy().tolist() == [0] * 4
    assert b.dtype == np.float16
    with pytest.raises(MXNetError, match='reset_arrays: expects num_arrays=3 inputs, but got 2'):
        mx.nd.reset_arrays(a, b, num_arrays=3)


def test_multi_sum_sq_gives_each_arrays_sum_of_squares_in_float32():
    a, b, c = mx.nd.array([1, 2, 3]), mx.nd.array([[1, 1], [2, 2]]), mx.nd.array([5])
    out = mx.nd.multi_sum_sq(a, b, c, num_arrays=3)
    assert out.dtype == np.float32 and out.asnumpy().tolist() == [14, 10, 25]  # MXNet 1.9.1's values
    half = mx.nd.multi_sum_sq(mx.nd.array([300, 400], dtype='float16'), num_arrays=1)
    assert half.dtype == np.float32 and half.asnumpy().tolist() == [250000]  # past float16's range
    with pytest.raises(MXNetError, match='share one dtype'):
        mx.nd.multi_sum_sq(a, b.astype('float16'), num_arrays=2)
    with pytest.raises(MXNetError, match='multi_sum_sq'):
        mx.nd.multi_sum_sq(a, b, num_arrays=3)
