"""gluon.Trainer: steps against MXNet 1.9.1's numbers, stale gradients, learning rates,
saved states, several devices, bad input."""
import json
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, lr_scheduler, nd
from gluonjax.base import MXNetError

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'optim')
DATA = np.load(os.path.join(REF, 'trainer.npz'))
META = json.load(open(os.path.join(REF, 'trainer.json')))


def params(shapes=((3, 4), (4,)), ctx=None, seed=0, names=('fc_weight', 'fc_bias')):
    rng = np.random.default_rng(seed)
    out = []
    for name, shape in zip(names, shapes):
        p = gluon.Parameter(name, shape=shape)
        p.initialize(ctx=ctx or mx.cpu())
        p.set_data(nd.array(rng.standard_normal(shape)))
        out.append(p)
    return out


def backward(ps, grads, ctx=None):
    """Gradients ``grads`` for ``ps`` through a recorded backward (sum(w * g))."""
    with autograd.record():
        loss = None
        for p, g in zip(ps, grads):
            term = (p.data(ctx) * nd.array(g, ctx=ctx)).sum()
            loss = term if loss is None else loss + term
    loss.backward()


@pytest.mark.parametrize('key', sorted(META))
def test_step_matches_mxnet(key):
    m = META[key]
    w = gluon.Parameter('fc_weight', shape=(3, 4))
    b = gluon.Parameter('fc_bias', shape=(4,), lr_mult=2.0, wd_mult=0.0)
    ps = [w, b]
    for i, p in enumerate(ps):
        p.initialize(ctx=mx.cpu())
        p.set_data(nd.array(DATA['%s:p%d:w0' % (key, i)]))
    kwargs = dict(m['kwargs'])
    if 'lr_scheduler' in kwargs:
        cls, kw = kwargs.pop('lr_scheduler')
        kwargs['lr_scheduler'] = getattr(lr_scheduler, cls)(**kw)
    trainer = gluon.Trainer(ps, m['optimizer'], kwargs)
    for t, step in enumerate(m['steps'], 1):
        gs = [DATA['%s:p%d:g%d' % (key, i, t)] for i in range(2)]
        backward(ps[:1] if step['stale_bias'] else ps, gs)
        trainer.step(step['batch_size'], ignore_stale_grad=step['stale_bias'])
        assert trainer.optimizer.rescale_grad == 1.0 / step['batch_size']
        assert trainer.learning_rate == pytest.approx(step['lr'])
        for i, p in enumerate(ps):
            np.testing.assert_allclose(p.data().asnumpy(), DATA['%s:p%d:w%d' % (key, i, t)],
                                       rtol=1e-5, atol=1e-6, err_msg='step %d param %d' % (t, i))


def test_step_is_sgd_formula_with_rescale():
    ps = params()
    before = [p.data().asnumpy() for p in ps]
    gs = [np.full(p.shape, 2.0) for p in ps]
    trainer = gluon.Trainer(ps, 'sgd', {'learning_rate': 0.5, 'wd': 0.1})
    backward(ps, gs)
    trainer.step(4)
    for p, w0, g in zip(ps, before, gs):
        np.testing.assert_allclose(p.data().asnumpy(), (1 - 0.5 * 0.1) * w0 - 0.5 * g / 4, rtol=1e-6)


def test_one_compiled_call_per_step(monkeypatch):
    from gluonjax.optimizer import optimizer as impl
    calls = []
    real = impl._compiled_step

    def counting(rule, cfg):
        fn = real(rule, cfg)

        def wrapped(*args):
            calls.append(len(args[0]))
            return fn(*args)
        return wrapped
    monkeypatch.setattr(impl, '_compiled_step', counting)
    ps = params(shapes=[(2, 2)] * 6, names=['p%d_weight' % i for i in range(6)])
    trainer = gluon.Trainer(ps, 'adam')
    for _ in range(3):
        backward(ps, [np.ones((2, 2))] * 6)
        trainer.step(1)
    assert calls == [6, 6, 6]


# ---------------------------------------------------------------------------------------
# Stale gradients
# ---------------------------------------------------------------------------------------

def test_stale_gradient_error_names_the_parameter():
    ps = params()
    trainer = gluon.Trainer(ps, 'sgd')
    with pytest.raises(UserWarning, match=r'Gradient of Parameter `fc_weight` on context cpu\(0\) has '
                                          r'not been updated by backward since last `step`'):
        trainer.step(1)  # no backward at all yet
    backward(ps[:1], [np.ones((3, 4))])
    with pytest.raises(UserWarning, match='Parameter `fc_bias` on context cpu'):  # MXNet raises UserWarning
        trainer.step(1)
    backward(ps, [np.ones((3, 4)), np.ones(4)])
    trainer.step(1)
    with pytest.raises(UserWarning, match='fc_weight'):  # the step used the gradients up
        trainer.step(1)


def test_ignore_stale_grad_skips_stale_parameters():
    ps = params()
    trainer = gluon.Trainer(ps, 'sgd', {'learning_rate': 1.0})
    bias_before = ps[1].data().asnumpy()
    weight_before = ps[0].data().asnumpy()
    backward(ps[:1], [np.ones((3, 4))])
    trainer.step(1, ignore_stale_grad=True)
    np.testing.assert_array_equal(ps[1].data().asnumpy(), bias_before)
    np.testing.assert_allclose(ps[0].data().asnumpy(), weight_before - 1.0)
    assert trainer.optimizer._index_update_count == {0: 1}


def test_zero_grad_does_not_make_a_gradient_fresh():
    ps = params()
    trainer = gluon.Trainer(ps, 'sgd')
    backward(ps, [np.ones((3, 4)), np.ones(4)])
    trainer.step(1)
    for p in ps:
        p.zero_grad()
    with pytest.raises(UserWarning):
        trainer.step(1)


def test_grad_req_null_and_add():
    ps = params()
    ps[1].grad_req = 'null'
    ps[0].grad_req = 'add'
    trainer = gluon.Trainer(ps, 'sgd', {'learning_rate': 1.0})
    w0, b0 = ps[0].data().asnumpy(), ps[1].data().asnumpy()
    backward(ps[:1], [np.ones((3, 4))])
    backward(ps[:1], [np.ones((3, 4))])  # accumulates: gradient 2
    trainer.step(1)
    np.testing.assert_allclose(ps[0].data().asnumpy(), w0 - 2.0)
    np.testing.assert_array_equal(ps[1].data().asnumpy(), b0)


# ---------------------------------------------------------------------------------------
# Learning rate, allreduce/update, bad input
# ---------------------------------------------------------------------------------------

def test_learning_rate_api():
    ps = params()
    trainer = gluon.Trainer(ps, 'sgd', {'learning_rate': 0.1})
    assert trainer.learning_rate == 0.1
    trainer.set_learning_rate(0.02)
    assert trainer.learning_rate == 0.02 and trainer.optimizer.lr == 0.02
    with pytest.raises(MXNetError, match='learning_rate must be a number'):
        trainer.set_learning_rate('fast')
    with pytest.raises(MXNetError, match='learning_rate must be a number'):
        gluon.Trainer(ps, 'sgd', {'learning_rate': 'fast'})
    sched = lr_scheduler.FactorScheduler(step=1, factor=0.5, base_lr=1.0)
    trainer = gluon.Trainer(ps, 'sgd', {'lr_scheduler': sched})
    with pytest.raises(UserWarning, match='LRScheduler'):
        trainer.set_learning_rate(0.1)
    lrs = []
    for _ in range(3):
        backward(ps, [np.ones((3, 4)), np.ones(4)])
        trainer.step(1)
        lrs.append(trainer.learning_rate)
    assert lrs == [1.0, 0.5, 0.25]


def test_allreduce_then_update_equals_step():
    a, b = params(seed=3), params(seed=3)
    ta = gluon.Trainer(a, 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    tb = gluon.Trainer(b, 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    for t in range(2):
        gs = [np.full((3, 4), t + 1.0), np.full(4, -1.0)]
        backward(a, gs)
        backward(b, gs)
        ta.step(2)
        tb.allreduce_grads()
        tb.update(2)
    for p, q in zip(a, b):
        np.testing.assert_array_equal(p.data().asnumpy(), q.data().asnumpy())


def test_optimizer_instance_and_dict_of_params():
    ps = params()
    o = mx.optimizer.create('adam', learning_rate=0.01)
    trainer = gluon.Trainer({'b': ps[1], 'a': ps[0]}, o)
    assert trainer.optimizer is o
    assert o.param_dict[0] is ps[0] and o.param_dict[1] is ps[1]  # sorted by key, as MXNet
    with pytest.raises(AssertionError, match='optimizer_params must be None'):
        gluon.Trainer(ps, o, {'learning_rate': 0.1})


def test_bad_inputs():
    ps = params()
    with pytest.raises(ValueError, match='First argument must be a list or dict of Parameters'):
        gluon.Trainer(ps[0], 'sgd')
    with pytest.raises(ValueError, match='got list of'):
        gluon.Trainer([ps[0], 'fc_bias'], 'sgd')
    with pytest.raises(ValueError, match='Cannot find optimizer'):
        gluon.Trainer(ps, 'sgdd')
    with pytest.raises(TypeError, match='optimizer_params must be a dict'):
        gluon.Trainer(ps, 'sgd', [('learning_rate', 0.1)])
    with pytest.raises(AttributeError, match='optimizer must be a name'):
        gluon.Trainer(ps, 3)
    with pytest.raises(MXNetError, match='given twice'):
        gluon.Trainer([ps[0], ps[0]], 'sgd')
    trainer = gluon.Trainer(ps, 'sgd')
    backward(ps, [np.ones((3, 4)), np.ones(4)])
    # MXNet's types: its scale / batch_size divides by zero or by a string
    for bad, kind in ((0, ZeroDivisionError), (0.0, ZeroDivisionError), ('64', TypeError), (None, TypeError),
                      ([2], TypeError), (-2, MXNetError)):
        with pytest.raises(kind, match='batch_size'):
            trainer.step(bad)
    other = gluon.Parameter('other_weight', shape=(2,))
    other.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    with pytest.raises(MXNetError, match='same set of contexts'):
        gluon.Trainer(ps + [other], 'sgd')


def test_uninitialized_parameter():
    p = gluon.Parameter('w', shape=(2,))
    with pytest.raises(RuntimeError, match='has not been initialized'):
        gluon.Trainer([p], 'sgd')


# ---------------------------------------------------------------------------------------
# save_states / load_states
# ---------------------------------------------------------------------------------------

def _train(trainer, ps, steps, seed):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        backward(ps, [rng.standard_normal(p.shape) for p in ps])
        trainer.step(2)


@pytest.mark.parametrize('name,kwargs', [('sgd', {'momentum': 0.9, 'learning_rate': 0.1}),
                                         ('adam', {'learning_rate': 0.05, 'wd': 0.01}),
                                         ('rmsprop', {'centered': True})])
def test_save_load_states_round_trip(tmp_path, name, kwargs):
    fname = str(tmp_path / 'trainer.states')
    ref = params(seed=4)
    tref = gluon.Trainer(ref, name, dict(kwargs))
    _train(tref, ref, 2, seed=0)
    tref.save_states(fname)
    _train(tref, ref, 2, seed=1)

    ps = params(seed=4)
    trainer = gluon.Trainer(ps, name, dict(kwargs))
    _train(trainer, ps, 2, seed=0)
    fresh = gluon.Trainer(ps, 'sgd', {'learning_rate': 123.0})  # everything comes from the file
    fresh.load_states(fname)
    assert type(fresh.optimizer).__name__.lower() == name
    assert fresh.optimizer.num_update == 2 and fresh.optimizer.param_dict[0] is ps[0]
    _train(fresh, ps, 2, seed=1)
    for p, q in zip(ps, ref):
        np.testing.assert_array_equal(p.data().asnumpy(), q.data().asnumpy())
    with open(fname, 'rb') as f:
        assert not f.read(2).startswith(b'\x80')  # not a pickle


def test_load_states_checks_the_file(tmp_path):
    ps = params()
    trainer = gluon.Trainer(ps, 'adam')
    _train(trainer, ps, 1, seed=0)
    fname = str(tmp_path / 'a.states')
    trainer.save_states(fname)
    small = params(shapes=((2, 2), (4,)), seed=1)
    with pytest.raises(MXNetError, match="state of Parameter 'fc_weight'.*has shape"):
        gluon.Trainer(small, 'adam').load_states(fname)
    one = params(shapes=((3, 4),), names=('fc_weight',))
    with pytest.raises(MXNetError, match='parameter index 1'):
        gluon.Trainer(one, 'adam').load_states(fname)
    bad = tmp_path / 'bad.states'
    bad.write_bytes(b'not a state file')
    with pytest.raises(MXNetError, match='not a gluonjax optimizer-state file'):
        trainer.load_states(str(bad))
    with pytest.raises(FileNotFoundError):  # MXNet's exception
        trainer.load_states(str(tmp_path / 'missing.states'))


# ---------------------------------------------------------------------------------------
# Several devices
# ---------------------------------------------------------------------------------------

CTXS = [mx.cpu(0), mx.cpu(1)]


def _two_device_run(kvstore, update_on_kvstore=None, steps=2):
    ps = params(ctx=CTXS, seed=7)
    trainer = gluon.Trainer(ps, 'sgd', {'learning_rate': 0.1, 'momentum': 0.9}, kvstore=kvstore,
                            update_on_kvstore=update_on_kvstore)
    rng = np.random.default_rng(2)
    grads = []
    for _ in range(steps):
        gs = [[rng.standard_normal(p.shape) for p in ps] for _ in CTXS]
        for ctx, g in zip(CTXS, gs):
            backward(ps, g, ctx=ctx)
        trainer.step(4)
        grads.append(gs)
    return ps, trainer, grads


def _single_device_reference(grads, summed=True, device=0):
    ps = params(seed=7)
    trainer = gluon.Trainer(ps, 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    for gs in grads:
        g = [a + b for a, b in zip(*gs)] if summed else gs[device]
        backward(ps, g)
        trainer.step(4)
    return [p.data().asnumpy() for p in ps]


@pytest.mark.parametrize('update_on_kvstore', [None, True, False])
def test_two_devices_sum_gradients_and_stay_equal(update_on_kvstore):
    ps, trainer, grads = _two_device_run('device', update_on_kvstore)
    expected = _single_device_reference(grads)
    for p, e in zip(ps, expected):
        copies = [d.asnumpy() for d in p.list_data()]
        np.testing.assert_allclose(copies[0], copies[1], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(copies[0], e, rtol=1e-5, atol=1e-6)
        assert [d.context for d in p.list_data()] == CTXS
    # MXNet's default (None) updates in the store when there is one
    assert trainer._update_on_kvstore is (update_on_kvstore is not False)
    if update_on_kvstore is not False:
        assert trainer._kvstore._updater.optimizer is trainer._optimizer
        with pytest.raises(AssertionError, match='update_on_kvstore'):
            trainer.allreduce_grads()


def test_two_devices_without_the_kvstore_package_sum_directly(monkeypatch):
    from gluonjax.gluon import trainer as trainer_module
    monkeypatch.setattr(trainer_module, '_kvstore_package', lambda: None)
    ps, trainer, grads = _two_device_run('device')
    assert trainer._kvstore is None
    for p, e in zip(ps, _single_device_reference(grads)):
        for d in p.list_data():
            np.testing.assert_allclose(d.asnumpy(), e, rtol=1e-5, atol=1e-6)


def test_two_devices_without_kvstore_update_each_copy_with_its_gradient():
    ps, _, grads = _two_device_run(None)  # MXNet: kvstore=None means no reduction
    for device in range(2):
        expected = _single_device_reference(grads, summed=False, device=device)
        for p, e in zip(ps, expected):
            np.testing.assert_allclose(p.list_data()[device].asnumpy(), e, rtol=1e-5, atol=1e-6)


def test_two_devices_save_load(tmp_path):
    ps, trainer, _ = _two_device_run('device', steps=1)
    fname = str(tmp_path / 'multi.states')
    trainer.save_states(fname)
    trainer.load_states(fname)
    backward(ps, [np.ones(p.shape) for p in ps], ctx=CTXS[0])
    backward(ps, [np.ones(p.shape) for p in ps], ctx=CTXS[1])
    trainer.step(4)
    for p in ps:
        a, b = (d.asnumpy() for d in p.list_data())
        np.testing.assert_allclose(a, b, rtol=1e-6)


# ---------------------------------------------------------------------------------------
# A training loop, as the seed writes it
# ---------------------------------------------------------------------------------------

class _Linear(gluon.HybridBlock):
    """Softmax regression written with F, so that it needs no layer of gluon.nn."""

    def __init__(self, classes, features, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(features, classes))
            self.bias = self.params.get('bias', shape=(classes,), init='zeros')

    def hybrid_forward(self, F, x, weight, bias):
        return F.broadcast_add(F.dot(x, weight), bias)


@pytest.mark.parametrize('hybridize', [False, True])
def test_training_loop_learns(hybridize):
    rng = np.random.default_rng(0)
    centers = rng.standard_normal((3, 5)) * 3
    labels = rng.integers(0, 3, 300)
    data = (centers[labels] + rng.standard_normal((300, 5))).astype(np.float32)
    net = _Linear(3, 5)
    net.initialize(mx.init.Xavier())
    if hybridize:
        net.hybridize()
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    for _ in range(3):
        for i in range(0, 300, 50):
            x, y = nd.array(data[i:i + 50]), nd.array(labels[i:i + 50])
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(x.shape[0])
    accuracy = (net(nd.array(data)).asnumpy().argmax(1) == labels).mean()
    assert accuracy > 0.95


def _seed_lenet():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Conv2D(channels=20, kernel_size=5, activation='relu'),
            gluon.nn.MaxPool2D(pool_size=2, strides=2),
            gluon.nn.Conv2D(channels=50, kernel_size=5, activation='relu'),
            gluon.nn.MaxPool2D(pool_size=2, strides=2),
            gluon.nn.Flatten(), gluon.nn.Dense(500, activation='relu'), gluon.nn.Dense(10))
    return net


def _lenet_run(ctxs, kvstore, update_on_kvstore=None, steps=3):
    """The seed's loop on ``ctxs``: split_and_load, record, backward per device, trainer.step."""
    mx.random.seed(3)
    net = _seed_lenet()
    net.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctxs)
    net.hybridize()
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9},
                            kvstore=kvstore, update_on_kvstore=update_on_kvstore)
    rng = np.random.default_rng(5)
    for _ in range(steps):
        data = nd.array(rng.uniform(0, 1, (16, 1, 28, 28)))
        label = nd.array(rng.integers(0, 10, 16))
        xs = gluon.utils.split_and_load(data, ctxs)
        ys = gluon.utils.split_and_load(label, ctxs)
        with autograd.record():
            losses = [loss(net(x), y) for x, y in zip(xs, ys)]
        for l in losses:
            l.backward()
        trainer.step(data.shape[0])
    return net


@pytest.mark.parametrize('kvstore, update_on_kvstore', [('device', None), ('local', True)])
def test_data_parallel_lenet_on_four_devices_matches_one_device(kvstore, update_on_kvstore):
    """Issue 6: the same global batch split over four CPU devices trains LeNet to the
    single-device weights, and every device holds the same copy."""
    ctxs = [mx.cpu(i) for i in range(4)]
    multi = _lenet_run(ctxs, kvstore, update_on_kvstore)
    single = _lenet_run([mx.cpu(0)], kvstore, update_on_kvstore)
    for (name, p), q in zip(multi.collect_params().items(), single.collect_params().values()):
        copies = [d.asnumpy() for d in p.list_data()]
        assert [d.context for d in p.list_data()] == ctxs, name
        for c in copies[1:]:
            np.testing.assert_allclose(c, copies[0], rtol=1e-6, atol=1e-7, err_msg=name)
        np.testing.assert_allclose(copies[0], q.data().asnumpy(), rtol=2e-4, atol=2e-5, err_msg=name)


def test_step_by_a_0d_numpy_array():
    """MXNet accepts a 0-d mx.np array as batch_size (d2l's train_seq2seq steps by
    ``Y_valid_len.sum()``); a 1-element 1-d array, as a legacy NDArray, is refused."""
    from gluonjax import np as mnp, npx
    npx.set_np()
    try:
        net = gluon.nn.Dense(1, in_units=2)
        net.initialize(mx.init.One())
        trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 1.0})
        for batch_size in (mnp.array(4), mnp.array([4.0]), nd.array([4.0])):
            with autograd.record():
                loss = net(mnp.ones((4, 2))).sum()
            loss.backward()
            if batch_size.ndim == 0:
                trainer.step(batch_size)
            else:
                with pytest.raises(MXNetError, match='batch_size must be'):
                    trainer.step(batch_size)
        np.testing.assert_array_equal(net.weight.data().asnumpy(), [[0.0, 0.0]])
    finally:
        npx.reset_np()
