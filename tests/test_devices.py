"""Work placed on a device other than the default one stays there, and gives the host's numbers.

The device is ``gpu(0)`` where jax sees a GPU, else ``cpu(1)`` (one of the four CPU devices the
tests make), so that CI checks the same placement rules without a GPU. Arrays, gradients, Gluon
parameters, Trainer states, KVStore values and exported-then-imported blocks must all live on it.
"""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax.context import _jax_device

ON_GPU = mx.context.num_gpus() > 0
DEV = mx.gpu(0) if ON_GPU else mx.cpu(1)
HOST = mx.cpu(0)
# XLA may run float32 matrix products and convolutions on a GPU's TF32 tensor cores.
TOL = dict(rtol=2e-2, atol=2e-3) if ON_GPU else dict(rtol=1e-5, atol=1e-6)


def on_dev(x):
    """The array's context is DEV and its jax buffer really is on DEV's jax device."""
    return x.context == DEV and x._data.devices() == {_jax_device(DEV.device_type, DEV.device_id)}


def test_created_arrays_and_op_results_live_on_the_device():
    rng = np.random.RandomState(0)
    a_np, b_np = rng.rand(3, 4).astype('f4'), rng.rand(4, 5).astype('f4')
    a, b = nd.array(a_np, ctx=DEV), nd.array(b_np, ctx=DEV)
    made = [a, nd.zeros((2, 3), ctx=DEV), nd.ones((2,), ctx=DEV), nd.arange(5, ctx=DEV),
            nd.full((2, 2), 7, ctx=DEV), nd.random.uniform(shape=(3,), ctx=DEV),
            nd.random.normal(shape=(2, 2), ctx=DEV)]
    with DEV:
        made.append(nd.zeros((2,)))
    results = {'dot': nd.dot(a, b), 'add': a + 1, 'sum': a.sum(axis=1), 'relu': nd.relu(a - 0.5),
               'softmax': nd.softmax(a), 'slice': a[1:, :2], 'transpose': a.T}
    assert all(on_dev(x) for x in made), [x.context for x in made]
    assert all(on_dev(x) for x in results.values()), {k: x.context for k, x in results.items()}
    np.testing.assert_allclose(results['dot'].asnumpy(), a_np @ b_np, **TOL)
    np.testing.assert_allclose(results['sum'].asnumpy(), a_np.sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(results['slice'].asnumpy(), a_np[1:, :2])


def test_copies_between_host_and_device():
    host = nd.array([[1., 2.], [3., 4.]], ctx=HOST)
    dev = host.as_in_context(DEV)
    assert on_dev(dev) and dev.as_in_context(DEV) is dev
    back = dev.copyto(HOST)
    assert back.context == HOST and back.asnumpy().tolist() == [[1., 2.], [3., 4.]]
    target = nd.zeros((2, 2), ctx=DEV)
    host.copyto(target)
    assert on_dev(target) and target.asnumpy().tolist() == [[1., 2.], [3., 4.]]


def test_autograd_gradients_live_on_the_device():
    x = nd.array([1., 2., 3.], ctx=DEV)
    x.attach_grad()
    with autograd.record():
        y = (x * x * 2).sum()
    y.backward()
    assert on_dev(x.grad) and x.grad.asnumpy().tolist() == [4., 8., 12.]


def lenet():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Conv2D(8, kernel_size=5, activation='relu'), gluon.nn.MaxPool2D(2, 2),
            gluon.nn.Flatten(), gluon.nn.Dense(32, activation='relu'), gluon.nn.Dense(10))
    return net


def train(ctx, weights, data, label, steps=3):
    """``steps`` SGD-with-momentum steps of a small LeNet on ``ctx``; returns the net and losses."""
    net = lenet()
    net.initialize(ctx=ctx)
    net(data.as_in_context(ctx))
    for p, w in zip(net.collect_params().values(), weights):
        p.set_data(nd.array(w, ctx=ctx))
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    losses = []
    x, y = data.as_in_context(ctx), label.as_in_context(ctx)
    for _ in range(steps):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(x.shape[0])
        losses.append(float(loss.mean().asscalar()))
    return net, trainer, losses


def test_gluon_training_on_the_device_matches_the_host():
    rng = np.random.RandomState(1)
    data = nd.array(rng.rand(16, 1, 16, 16))
    label = nd.array(rng.randint(0, 10, 16))
    probe = lenet()
    probe.initialize(mx.init.Xavier())
    probe(data)
    weights = [p.data().asnumpy() for p in probe.collect_params().values()]
    dev_net, trainer, dev_losses = train(DEV, weights, data, label)
    _, _, host_losses = train(HOST, weights, data, label)
    assert dev_losses[-1] < dev_losses[0], dev_losses
    np.testing.assert_allclose(dev_losses, host_losses, **TOL)
    params = list(dev_net.collect_params().values())
    assert all(on_dev(p.data()) and on_dev(p.grad()) for p in params)
    states = [s for s in trainer._updaters[0].states.values() if s is not None]
    assert states and all(on_dev(s) for s in states)


def test_export_then_import_on_the_device(tmp_path):
    net = lenet()
    net.initialize(mx.init.Xavier(), ctx=DEV)
    net.hybridize()
    x = nd.array(np.random.RandomState(2).rand(2, 1, 16, 16), ctx=DEV)
    want = net(x).asnumpy()
    net.export(str(tmp_path / 'lenet'))
    loaded = gluon.SymbolBlock.imports(str(tmp_path / 'lenet-symbol.json'), ['data'],
                                       str(tmp_path / 'lenet-0000.params'), ctx=DEV)
    got = loaded(x)
    assert on_dev(got) and all(on_dev(p.data()) for p in loaded.collect_params().values())
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_saved_device_arrays_load_on_the_host_as_in_mxnet(tmp_path):
    path = str(tmp_path / 'arrays.nd')
    nd.save(path, {'w': nd.array([1., 2.], ctx=DEV)})
    loaded = nd.load(path)['w']
    assert loaded.context == HOST and loaded.asnumpy().tolist() == [1., 2.]


def test_kvstore_values_stay_on_the_device():
    kv = mx.kv.create('device')
    kv.init('w', nd.zeros((2, 3), ctx=DEV))
    kv.push('w', [nd.ones((2, 3), ctx=DEV) * 2])
    out = nd.zeros((2, 3), ctx=DEV)
    kv.pull('w', out=out)
    assert on_dev(out) and out.asnumpy().tolist() == [[2.] * 3] * 2


def test_numpy_front_end_on_the_device(np_mode):
    a = mx.np.ones((2, 3), ctx=DEV)
    b = mx.np.arange(3, ctx=DEV)
    c = a * b
    assert on_dev(a) and on_dev(c) and c.asnumpy().tolist() == [[0., 1., 2.]] * 2


@pytest.mark.skipif(not ON_GPU, reason='needs a GPU')
def test_gpu_memory_info_reports_free_and_total_bytes():
    free, total = mx.context.gpu_memory_info(0)
    assert 0 < free <= total and total > 1 << 30
