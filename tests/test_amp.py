"""mx.contrib.amp: casts per MXNet's lists, training in float16/bfloat16 against float32,
dynamic loss scaling (skip and halve on overflow, grow after clean steps), converted blocks."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax.contrib import amp
from gluonjax.contrib.amp import amp as amp_module
from gluonjax.ndarray import ndarray as nd_module
from gluonjax.symbol import symbol as sym_module


@pytest.fixture(autouse=True)
def amp_off_after(monkeypatch):
    """amp.init() is once per process in MXNet: each test gets a fresh state and leaves AMP off."""
    monkeypatch.setattr(nd_module, 'amp_hook', None)
    monkeypatch.setattr(sym_module, 'amp_hook', None)
    monkeypatch.setattr(amp_module, '_state', {'policy': None, 'loss_scaler': None, 'scaler_taken': False})
    monkeypatch.setattr(amp_module, '_amp_initialized', False)


def data():
    rng = np.random.RandomState(0)
    x = rng.randn(120, 10).astype('float32')
    y = (x @ rng.randn(10, 3)).argmax(1).astype('float32')
    return x, y


def train(target, hybridize, steps=40):
    if target != 'float32':
        amp.init(target)
    mx.random.seed(3)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(32, activation='relu', in_units=10), gluon.nn.Dense(3, in_units=32))
    net.initialize(mx.init.Xavier())
    if hybridize:
        net.hybridize()
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5})
    if target != 'float32':
        amp.init_trainer(trainer)
    x_np, y_np = data()
    x, y = nd.array(x_np), nd.array(y_np)
    for _ in range(steps):
        with autograd.record():
            loss = loss_fn(net(x), y)
            if target == 'float32':
                loss.backward()
            else:
                with amp.scale_loss(loss, trainer) as scaled:
                    autograd.backward(scaled)
        trainer.step(len(x_np))
    out = net(x)
    accuracy = (out.argmax(axis=1).asnumpy() == y_np).mean()
    return net, trainer, float(loss.mean().asscalar()), accuracy, out


@pytest.mark.parametrize('target,hybridize', [('float16', False), ('bfloat16', True)])
def test_training_matches_float32(target, hybridize):
    _, _, loss32, acc32, out32 = train('float32', hybridize)
    assert out32.dtype == np.float32
    nd_module.amp_hook = sym_module.amp_hook = None
    net, trainer, loss, acc, out = train(target, hybridize)
    assert out.dtype == np.dtype(target) if target == 'float16' else str(np.dtype(out.dtype)) == 'bfloat16'
    assert acc >= acc32 - 0.03 and acc > 0.9
    assert abs(loss - loss32) < 0.06, (loss, loss32)
    for param in net.collect_params().values():  # float32 master weights and gradients
        assert param.data().dtype == np.float32 and param.grad().dtype == np.float32
    scale = trainer._amp_loss_scaler.loss_scale
    if target == 'float16':  # the first steps overflow in float16 and are skipped
        assert scale < 2.0 ** 16
    else:  # bfloat16 has float32's range: nothing overflows
        assert scale == 2.0 ** 16


def test_operator_lists_decide_the_dtype():
    amp.init('float16')
    x = nd.array(np.linspace(-1, 1, 12).reshape(3, 4))
    w, b = nd.ones((2, 4)), nd.zeros((2,))
    hidden = nd.FullyConnected(x, w, b, num_hidden=2)
    assert hidden.dtype == np.float16
    np.testing.assert_allclose(hidden.asnumpy(), x.asnumpy().sum(1, keepdims=True).repeat(2, 1), rtol=2e-3)
    assert nd.relu(hidden).dtype == np.float16          # runs in either dtype
    assert nd.softmax(hidden).dtype == np.float32       # float32 list
    assert nd.Activation(hidden, act_type='softrelu').dtype == np.float32  # conditional list
    assert nd.Activation(hidden, act_type='tanh').dtype == np.float16
    assert (hidden + nd.ones((3, 2))).dtype == np.float32  # widest of float16 and float32
    assert (hidden + hidden).dtype == np.float16
    ints = nd.array([1, 2], dtype='int32')
    assert nd.amp_cast(ints, dtype='float16').dtype == np.int32  # amp_cast leaves non-floats alone


def test_amp_cast_ops():
    x = nd.array([1.5, 70000.0])
    half = nd.amp_cast(x, dtype='float16')
    assert half.dtype == np.float16 and np.isinf(half.asnumpy()[1])
    a, b = nd.amp_multicast(half, x, num_outputs=2)
    assert a.dtype == b.dtype == np.float32
    a, b = nd.amp_multicast(half, x, num_outputs=2, cast_narrow=True)
    assert a.dtype == b.dtype == np.float16
    x.attach_grad()
    with autograd.record():
        y = nd.amp_cast(x, dtype='bfloat16') * 3
    y.backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad.asnumpy(), [3, 3])


def one_layer_trainer():
    amp.init('float16')
    net = gluon.nn.Dense(2, in_units=3, use_bias=False)  # a bias gradient of 2**16 overflows float16
    net.initialize(mx.init.One())
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 1.0})
    amp.init_trainer(trainer)
    return net, trainer


def backward_step(net, trainer, inject_inf=False):
    x = nd.full((1, 3), 0.01)  # small: times the 2**16 scale its float16 gradient stays finite
    with autograd.record():
        # mean of 2 outputs: each float16 output's gradient, 2**16 / 2, stays finite
        loss = net(x).mean()
        with amp.scale_loss(loss, trainer) as scaled:
            scaled.backward()
    if inject_inf:
        net.weight.grad()[0, 0] = np.inf
    trainer.step(1)


def test_overflow_skips_the_step_and_halves_the_scale():
    net, trainer = one_layer_trainer()
    scaler = trainer._amp_loss_scaler
    assert scaler.loss_scale == 2.0 ** 16 and trainer._amp_original_scale == 1.0
    backward_step(net, trainer, inject_inf=True)
    np.testing.assert_array_equal(net.weight.data().asnumpy(), np.ones((2, 3)))  # skipped
    # MXNet's order: the check sets the scale for the next scale_loss, one step later
    assert scaler.loss_scale == 2.0 ** 16 and scaler._next_loss_scale == 2.0 ** 15
    backward_step(net, trainer)
    assert scaler.loss_scale == 2.0 ** 15 and scaler._next_loss_scale == 2.0 ** 15
    # the gradient was divided by the scale it was multiplied by: one plain SGD step
    np.testing.assert_allclose(net.weight.data().asnumpy(), np.full((2, 3), 0.995), rtol=1e-3)


def test_scale_grows_after_clean_steps_up_to_the_maximum():
    net, trainer = one_layer_trainer()
    scaler = trainer._amp_loss_scaler
    assert (scaler._scale_seq_len, scaler._max_loss_scale) == (2000, 2.0 ** 24)  # MXNet's defaults
    scaler._scale_seq_len = 3
    for _ in range(3):
        backward_step(net, trainer)
    assert scaler._next_loss_scale == 2.0 ** 17
    backward_step(net, trainer)
    assert scaler.loss_scale == 2.0 ** 17
    scaler._next_loss_scale = scaler._loss_scale = 2.0 ** 24
    net.weight.grad()[:] = 0  # clean gradients (a real float16 step would overflow at 2**24)
    assert not any(scaler.has_overflow(trainer._params) for _ in range(3))
    assert scaler._next_loss_scale == 2.0 ** 24  # doubling stops at the maximum


def test_unscale_divides_the_gradients_once():
    net, trainer = one_layer_trainer()
    x = nd.full((1, 3), 0.01)
    with autograd.record():
        with amp.scale_loss(net(x).mean(), trainer) as scaled:
            scaled.backward()
    np.testing.assert_allclose(net.weight.grad().asnumpy(), np.full((2, 3), 0.005 * 2.0 ** 16), rtol=1e-3)
    amp.unscale(trainer)
    np.testing.assert_allclose(net.weight.grad().asnumpy(), np.full((2, 3), 0.005), rtol=1e-3)
    assert trainer._scale == 1.0


def test_api_checks():
    net = gluon.nn.Dense(2, in_units=3)
    net.initialize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd')
    with pytest.raises(mx.base.MXNetError, match='amp.init'):
        amp.init_trainer(trainer)
    with pytest.raises(ValueError, match='target_dtype'):
        amp.init('int8')
    amp.init('bfloat16')
    with pytest.raises(TypeError, match='Trainer'):
        amp.init_trainer(mx.optimizer.SGD())
    with pytest.raises(mx.base.MXNetError, match='init_trainer'):
        with amp.scale_loss(nd.ones((1,)), trainer):
            pass


def test_convert_hybrid_block_inserts_casts_and_shares_parameters():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(4, activation='relu', in_units=3), gluon.nn.Dense(2, in_units=4))
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = nd.array(np.arange(6).reshape(2, 3) / 6.0)
    expected = net(x).asnumpy()
    converted = amp.convert_hybrid_block(net, target_dtype='float16')
    out = converted(x)
    assert out.dtype == np.float16
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=2e-2, atol=2e-3)
    graph = converted._cached_graph[1]
    casts = [n for n in graph.get_internals().list_outputs() if 'amp_cast' in n]
    assert 'data_amp_cast_float16_output' in casts
    assert set(converted.collect_params()) == set(net.collect_params())
    with mx.name.NameManager():  # automatic names count from 0 in a fresh scope
        softmax = amp.convert_symbol(mx.sym.softmax(mx.sym.var('data')), target_dtype='float16')
    assert softmax.get_internals().list_outputs() == ['data', 'data_amp_cast_float32_output', 'softmax0_output']
    with pytest.raises(RuntimeError, match='hybridize'):
        amp.convert_hybrid_block(gluon.nn.Dense(2, in_units=2))


def test_saved_json_drops_the_casts_unless_asked_to_keep_them():
    data = mx.sym.var('data')
    net = mx.sym.softmax(mx.sym.FullyConnected(data, num_hidden=2, name='fc'), name='out')
    converted = amp.convert_symbol(net, target_dtype='bfloat16')
    kept = mx.sym.load_json(converted.tojson(remove_amp_cast=False))
    assert [n for n in kept.get_internals().list_outputs() if 'amp_cast' in n] == [
        'data_amp_cast_bfloat16_output', 'fc_weight_amp_cast_bfloat16_output',
        'fc_bias_amp_cast_bfloat16_output', 'fc_output_amp_cast_float32_output']
    assert converted.tojson() == net.tojson()
    args = {'data': nd.ones((1, 3)), 'fc_weight': nd.ones((2, 3)), 'fc_bias': nd.zeros((2,))}
    out = kept.bind(mx.cpu(), args).forward()[0]
    assert out.dtype == np.float32
    np.testing.assert_allclose(out.asnumpy(), [[0.5, 0.5]])


def test_inputs_already_in_the_dtype_are_not_cast(monkeypatch):
    amp.init('bfloat16')
    calls = []
    real_invoke = nd_module.invoke

    def counting_invoke(op_name, inputs, kwargs, out=None, ctx=None):
        calls.append(op_name)
        return real_invoke(op_name, inputs, kwargs, out=out, ctx=ctx)
    monkeypatch.setattr(nd_module, 'invoke', counting_invoke)
    x = nd.ones((2, 2))
    (x * 2).wait_to_read()   # float32 list (everything not bfloat16-capable): x is float32 already
    assert 'amp_cast' not in calls
    nd.FullyConnected(x, nd.ones((3, 2)), no_bias=True, num_hidden=3).wait_to_read()
    assert calls.count('amp_cast') == 2  # data and weight to bfloat16


def test_amp_initialized_flag():
    """MXNet's module flag, which GluonNLP reads to mask attention scores with -1e4."""
    assert amp_module._amp_initialized is False
    amp.init('float16')
    assert amp_module._amp_initialized is True
