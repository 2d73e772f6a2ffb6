"""mx.init: the initializers, MXNet's name rules, and reproducibility with mx.random.seed."""
import json

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import gluon, nd
from gluonjax.initializer import InitDesc


def _filled(init, shape, name='fc_weight', dtype='float32'):
    arr = nd.zeros(shape, dtype=dtype)
    init(InitDesc(name), arr)
    return arr.asnumpy()


def test_uniform_range_and_spread():
    a = _filled(mx.init.Uniform(0.5), (200, 50))
    assert a.dtype == np.float32
    assert np.abs(a).max() <= 0.5
    assert abs(a.mean()) < 0.02
    np.testing.assert_allclose(a.std(), 0.5 / np.sqrt(3), rtol=0.05)


def test_normal_sigma():
    a = _filled(mx.init.Normal(0.3), (200, 50))
    assert abs(a.mean()) < 0.02
    np.testing.assert_allclose(a.std(), 0.3, rtol=0.05)


@pytest.mark.parametrize('factor_type,fan', [('avg', (40 * 9 + 20 * 9) / 2.0), ('in', 40 * 9),
                                             ('out', 20 * 9)])
def test_xavier_uniform_scale(factor_type, fan):
    a = _filled(mx.init.Xavier(factor_type=factor_type, magnitude=2.5), (20, 40, 3, 3))
    scale = np.sqrt(2.5 / fan)
    assert np.abs(a).max() <= scale + 1e-7
    np.testing.assert_allclose(a.std(), scale / np.sqrt(3), rtol=0.05)


def test_xavier_gaussian_and_msraprelu():
    a = _filled(mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2), (300, 100))
    np.testing.assert_allclose(a.std(), np.sqrt(2 / 100.0), rtol=0.05)
    b = _filled(mx.init.MSRAPrelu(slope=0.5), (300, 100))
    np.testing.assert_allclose(b.std(), np.sqrt(2 / 1.25 / 200.0), rtol=0.05)


def test_xavier_rejects_vectors_and_bad_options():
    with pytest.raises(ValueError, match='requires at least 2D'):
        _filled(mx.init.Xavier(), (5,))
    with pytest.raises(ValueError, match='factor_type'):
        _filled(mx.init.Xavier(factor_type='bad'), (5, 5))
    with pytest.raises(ValueError, match='rnd_type'):
        _filled(mx.init.Xavier(rnd_type='bad'), (5, 5))


@pytest.mark.parametrize('rand_type', ['uniform', 'normal'])
def test_orthogonal(rand_type):
    a = _filled(mx.init.Orthogonal(scale=2.0, rand_type=rand_type), (6, 10))
    np.testing.assert_allclose(a @ a.T, 4.0 * np.eye(6), atol=1e-4)
    b = _filled(mx.init.Orthogonal(scale=1.0), (10, 2, 3))
    flat = b.reshape(10, 6)
    np.testing.assert_allclose(flat.T @ flat, np.eye(6), atol=1e-4)


def test_constant_zero_one_and_names():
    assert (_filled(mx.init.Constant(2.5), (2, 3)) == 2.5).all()
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(_filled(mx.init.Constant(value), (2, 3)), value)
    assert (_filled(mx.init.Zero(), (2, 2)) == 0).all()
    assert (_filled(mx.init.One(), (2, 2)) == 1).all()
    assert (_filled(mx.init.create('ones'), (2,)) == 1).all()
    assert isinstance(mx.init.create('zeros'), mx.init.Zero)
    assert isinstance(mx.init.create('xavier'), mx.init.Xavier)


def test_name_rules_of_initializer_call():
    init = mx.init.Uniform(1.0)
    assert (_filled(init, (4,), 'fc_bias') == 0).all()
    assert (_filled(init, (4,), 'bn_gamma') == 1).all()
    assert (_filled(init, (4,), 'bn_beta') == 0).all()
    # as in MXNet, moving statistics have no InitDesc rule (their operator attaches one) ...
    for name in ['bn_moving_mean', 'bn_moving_var', 'bn_running_var']:
        with pytest.raises(ValueError, match='Unknown initialization pattern'):
            _filled(init, (4,), name)
    w = _filled(init, (50,), 'fc_weight')
    assert np.abs(w).max() <= 1.0 and w.std() > 0.3
    with pytest.raises(ValueError, match='Unknown initialization pattern for foo'):
        _filled(init, (4,), 'foo')
    # ... but the deprecated init(str, NDArray) form still knows them
    for name, value in [('bn_moving_mean', 0), ('bn_moving_var', 1), ('stn_loc_weight', 0)]:
        arr = nd.full((4,), 7.0)
        with pytest.warns(DeprecationWarning):
            init(name, arr)
        assert (arr.asnumpy() == value).all()
    arr = nd.zeros((6,))
    with pytest.warns(DeprecationWarning):
        init('stn_loc_bias', arr)
    assert arr.asnumpy().tolist() == [1, 0, 0, 0, 1, 0]
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError):
        init('bn_running_var', nd.zeros((4,)))
    # an initializer attached to the name wins over the rules
    arr = nd.zeros((3,))
    init(InitDesc('fc_bias', {'__init__': mx.init.Constant(7)}), arr)
    assert (arr.asnumpy() == 7).all()


def test_dumps_and_create_round_trip():
    init = mx.init.Xavier(rnd_type='gaussian', factor_type='out', magnitude=2)
    text = init.dumps()
    assert json.loads(text) == ['xavier', {'rnd_type': 'gaussian', 'factor_type': 'out', 'magnitude': 2}]
    again = mx.init.create(text)
    assert again == init and isinstance(again, mx.init.Xavier)
    assert mx.init.create(mx.init.Constant(3).dumps()).value == 3
    with pytest.raises(AssertionError, match='unknown initializer'):
        mx.init.create('no_such_init')


def test_mixed_and_load():
    mixed = mx.init.Mixed(['conv.*', '.*'], [mx.init.Constant(1), mx.init.Constant(2)])
    assert (_filled(mixed, (2,), 'conv0_weight') == 1).all()
    assert (_filled(mixed, (2,), 'fc0_weight') == 2).all()
    assert (_filled(mixed, (2,), 'fc0_bias') == 0).all()  # the name rules still apply
    with pytest.raises(ValueError, match='did not match any pattern'):
        mx.init.Mixed(['a.*'], [mx.init.One()])(InitDesc('b'), nd.zeros((1,)))
    load = mx.init.Load({'arg:w': nd.array([1, 2]), 'aux:m': nd.array([3.0])}, default_init=mx.init.One())
    assert _filled(load, (2,), 'w').tolist() == [1, 2]
    assert _filled(load, (1,), 'm').tolist() == [3]
    assert _filled(load, (2,), 'other_weight').tolist() == [1, 1]
    with pytest.raises(AssertionError, match='Shape mismatch'):
        _filled(load, (3,), 'w')


def test_bilinear_and_lstm_bias():
    k = _filled(mx.init.Bilinear(), (1, 1, 4, 4))
    line = np.array([0.25, 0.75, 0.75, 0.25])
    np.testing.assert_allclose(k[0, 0], np.outer(line, line))
    arr = nd.zeros((12,))
    mx.init.Uniform()(InitDesc('l0_i2h_bias', {'__init__': mx.init.LSTMBias(forget_bias=2.0)}), arr)
    np.testing.assert_array_equal(arr.asnumpy(), [0] * 3 + [2] * 3 + [0] * 6)


def test_seed_makes_gluon_initialisation_reproducible():
    def make():
        net = gluon.nn.Dense(4, in_units=3)
        net.initialize(mx.init.Xavier())
        return net.weight.data().asnumpy()
    mx.random.seed(42)
    a = make()
    mx.random.seed(42)
    b = make()
    mx.random.seed(43)
    c = make()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_gluon_parameters_use_the_initializer_rule_for_every_name():
    # As in MXNet, Gluon attaches the global initializer to a Parameter without its own, so
    # even a Parameter called '..._bias' is drawn by the initializer; layers pass 'zeros'.
    p = gluon.Parameter('custom_bias', shape=(200,))
    p.initialize(init=None, default_init=mx.init.Uniform(1.0))
    assert p.data().asnumpy().std() > 0.3
    d = gluon.nn.Dense(3, in_units=2)
    d.initialize(mx.init.Uniform(1.0))
    assert (d.bias.data().asnumpy() == 0).all()


def test_float16_parameter_initialises_in_its_dtype():
    p = gluon.Parameter('w_weight', shape=(3, 4), dtype='float16')
    p.initialize(mx.init.Normal(1.0))
    assert p.data().dtype == np.float16
