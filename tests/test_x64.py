"""64-bit dtypes are gluonjax's own: jax's defaults stay the user's (float32, int32), while
float64/int64 NDArrays keep their dtypes and values everywhere gluonjax runs jax; and writes
through optimizers, the Trainer, Parameters, initializers and the kvstore reach earlier views."""
import os
import subprocess
import sys
import textwrap
import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax.gluon import nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TINY = 1e-12  # 1 + TINY is 1 in float32, not in float64


def test_jax_defaults_are_the_users_after_gluonjax_runs():
    """In a fresh process: gluonjax is imported and used on float64 and int64 arrays (eager,
    autograd, hybridized, an operator error); afterwards the user's jax code is as without it."""
    script = textwrap.dedent('''
        import jax, jax.numpy as jnp, numpy as np
        import gluonjax as mx
        from gluonjax import autograd, nd
        from gluonjax.gluon import nn
        assert not jax.config.jax_enable_x64
        x = nd.array([1, 2, 3], dtype='float64')
        x.attach_grad()
        with autograd.record():
            y = (x * x).sum()
        y.backward()
        net = nn.Dense(2, in_units=3)
        net.initialize()
        net.cast('float64')
        net.hybridize()
        out = net(x.reshape((1, 3)))
        i = mx.np.arange(3, dtype='int64') + 1
        try:
            nd.ones((2, 3)) + nd.ones((4, 3))
        except mx.MXNetError:
            pass
        assert (x.grad.dtype, out.dtype, i.dtype) == (np.float64, np.float64, np.int64)
        print(jnp.zeros(2).dtype, jnp.arange(3).dtype, jnp.asarray(np.zeros(2)).dtype,
              jax.jit(lambda v: v * 2.0 + 1)(1.5).dtype, jax.config.jax_enable_x64)
    ''')
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    env.pop('JAX_ENABLE_X64', None)
    proc = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ['float32', 'int32', 'float32', 'float32', 'False']


def test_x64_state_is_restored_after_gluonjax_calls_and_errors():
    assert not jax.config.jax_enable_x64
    nd.array([1.0], dtype='float64') * 2
    with pytest.raises(mx.MXNetError):
        nd.ones((2, 3), dtype='float64') + nd.ones((4, 3), dtype='float64')
    assert not jax.config.jax_enable_x64
    with jax.enable_x64(True):  # a user's own x64 scope stays on through gluonjax's calls
        nd.ones((2,), dtype='float64').sum()
        assert jax.config.jax_enable_x64
    assert jnp.zeros(2).dtype == jnp.float32


def test_switch_falls_back_to_the_public_context_manager(monkeypatch):
    """Without the state's swap_local/set_local (a later jax), the switch uses jax.enable_x64(True)."""
    from gluonjax import _x64
    state = jax.enable_x64

    class PublicOnly:  # only what jax documents: calling the state gives a context manager
        def __call__(self, value):
            return state(value)
    monkeypatch.setattr(jax, 'enable_x64', PublicOnly())
    on, restore = _x64._switch()
    monkeypatch.undo()
    prev = on()
    assert jax.config.jax_enable_x64 and jnp.zeros(1).dtype == jnp.float64
    restore(prev)
    assert not jax.config.jax_enable_x64 and jnp.zeros(1).dtype == jnp.float32


def test_float64_creation_arithmetic_and_reductions():
    host = np.array([1.0, 1.0 + TINY, 3.0])
    a = nd.array(host, dtype='float64')
    assert a.dtype == np.float64 and a.asnumpy()[1] == host[1]
    for arr in (nd.zeros((2,), dtype='float64'), nd.ones((2,), dtype='float64'),
                nd.full((2,), 0.5, dtype='float64'), nd.array([1, 2]).astype('float64')):
        assert arr.dtype == np.float64
    np.testing.assert_array_equal(((a - 1) * 1e12).asnumpy(), (host - 1) * 1e12)
    b = a + nd.array(host, dtype='float64')
    assert b.dtype == np.float64
    np.testing.assert_array_equal(b.asnumpy(), host + host)
    assert a.sum().dtype == np.float64 and a.sum().asscalar() == host.sum()
    np.testing.assert_allclose(nd.exp(a).asnumpy(), np.exp(host), rtol=1e-15)  # XLA: within 1 ulp
    big = nd.arange(3, dtype='int64') + 2 ** 40
    assert big.dtype == np.int64
    np.testing.assert_array_equal(big.asnumpy(), np.arange(3) + 2 ** 40)
    a[1] = 2.0 + TINY  # setitem keeps the dtype and the value
    assert a.dtype == np.float64 and a.asnumpy()[1] == 2.0 + TINY
    a += 1
    assert a.dtype == np.float64 and a.asnumpy()[1] == 3.0 + TINY


def test_float64_array_handed_to_the_user():
    a = nd.array([1.0 + TINY], dtype='float64')
    assert a._data.dtype == jnp.float64 and np.asarray(a._data)[0] == 1.0 + TINY
    assert np.asarray(a).dtype == np.float64


def test_float64_autograd():
    host = np.array([1.0 + TINY, 2.0, -3.0])
    x = nd.array(host, dtype='float64')
    x.attach_grad()
    with autograd.record():
        y = (x * x * x).sum()
    y.backward()
    assert x.grad.dtype == np.float64
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * host ** 2, rtol=1e-15)
    with autograd.record():
        z = (nd.sin(x) * 2).sum()
    g, = autograd.grad(z, [x])
    assert g.dtype == np.float64
    np.testing.assert_allclose(g.asnumpy(), 2 * np.cos(host), rtol=1e-15)


def test_float64_hybridized_block_forward_and_backward():
    rng = np.random.default_rng(0)
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=4))
    net.initialize()
    net.cast('float64')
    w = rng.standard_normal((3, 4))
    net[0].weight.set_data(nd.array(w, dtype='float64'))
    net.hybridize()
    host = rng.standard_normal((2, 4)) + TINY
    x = nd.array(host, dtype='float64')
    with autograd.record():
        out = net(x)
        loss = (out * out).sum()
    loss.backward()
    assert out.dtype == np.float64 and net[0].weight.grad().dtype == np.float64
    ref = host @ w.T
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-13)
    np.testing.assert_allclose(net[0].weight.grad().asnumpy(), 2 * ref.T @ host, rtol=1e-12)


def test_float64_save_load_round_trip(tmp_path):
    host = np.array([[1.0 + TINY, np.pi], [np.e, -1e-300]])
    fname = str(tmp_path / 'a.params')
    nd.save(fname, {'w': nd.array(host, dtype='float64'), 'i': nd.array([2 ** 40], dtype='int64')})
    loaded = nd.load(fname)
    assert loaded['w'].dtype == np.float64 and loaded['i'].dtype == np.int64
    np.testing.assert_array_equal(loaded['w'].asnumpy(), host)
    assert loaded['i'].asnumpy()[0] == 2 ** 40

    net = nn.Dense(2, in_units=2)
    net.initialize()
    net.cast('float64')
    net.weight.set_data(nd.array(host, dtype='float64'))
    net.save_parameters(str(tmp_path / 'net.params'))
    net2 = nn.Dense(2, in_units=2)
    net2.cast('float64')
    net2.load_parameters(str(tmp_path / 'net.params'))
    assert net2.weight.data().dtype == np.float64
    np.testing.assert_array_equal(net2.weight.data().asnumpy(), host)


def test_numpy_front_end_int64_and_float64():
    i = mx.np.arange(5, dtype='int64')
    assert i.dtype == np.int64
    big = mx.np.array([2 ** 40, 3], dtype='int64') * 2
    assert big.dtype == np.int64 and big.asnumpy().tolist() == [2 ** 41, 6]
    nz = mx.np.nonzero(mx.np.array([0, 1, 0, 1]))[0]
    assert nz.dtype == np.int64 and nz.asnumpy().tolist() == [1, 3]
    f = mx.np.array(np.array([1.0 + TINY]))  # numpy float64 input keeps its dtype (mx.np)
    assert f.dtype == np.float64 and f.asnumpy()[0] == 1.0 + TINY
    x = mx.np.array([[1.0, 2.0], [3.0, 4.0]], dtype='float64')
    assert x[mx.np.array([1, 0], dtype='int64')].asnumpy().tolist() == [[3.0, 4.0], [1.0, 2.0]]


def test_float64_optimizer_trainer_and_kvstore():
    p = gluon.Parameter('w', shape=(2,), dtype='float64')
    p.initialize(ctx=mx.cpu())
    start = np.array([1.0, 1.0 + TINY])
    p.set_data(nd.array(start, dtype='float64'))
    trainer = gluon.Trainer([p], 'sgd', {'learning_rate': 1e-3})
    with autograd.record():
        loss = (p.data() * nd.array([1.0, 2.0], dtype='float64')).sum()
    loss.backward()
    trainer.step(1)
    assert p.data().dtype == np.float64
    np.testing.assert_array_equal(p.data().asnumpy(), start - 1e-3 * np.array([1.0, 2.0]))

    kv = mx.kv.create('device')
    kv.init(0, nd.zeros((2,), dtype='float64'))
    kv.push(0, [nd.array(start, dtype='float64'), nd.array(start, dtype='float64', ctx=mx.cpu(1))])
    out = nd.zeros((2,), dtype='float64')
    kv.pull(0, out=out)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out.asnumpy(), 2 * start)


def test_float64_in_threads_and_dataloader_workers():
    results = []

    def work():
        a = nd.array(np.array([1.0 + TINY]), dtype='float64')
        results.append(((a + 0).dtype, (a * 1).asnumpy()[0], jnp.zeros(1).dtype))
    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert results == [(np.float64, 1.0 + TINY, jnp.float32)]

    host = np.arange(12, dtype=np.float64).reshape(6, 2) + TINY
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(host, np.arange(6, dtype=np.int64)),
                                   batch_size=3, num_workers=2)
    batches = list(loader)
    assert [(d.dtype, l.dtype) for d, l in batches] == [(np.float64, np.int64)] * 2
    np.testing.assert_array_equal(np.concatenate([d.asnumpy() for d, _ in batches]), host)


# ---- writes through optimizers, Trainer, Parameters, initializers and the kvstore reach views ----

def _views(arr):
    """A basic slice and a reshape: MXNet returns both sharing the array's memory."""
    return arr[1], arr.reshape((-1,))


def _check_views(arr, row, flat):
    np.testing.assert_array_equal(row.asnumpy(), arr.asnumpy()[1])
    np.testing.assert_array_equal(flat.asnumpy(), arr.asnumpy().reshape(-1))


def test_view_sees_trainer_step():
    net = nn.Dense(2, in_units=3)
    net.initialize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5, 'momentum': 0.9})
    w = net.weight.data()
    row, flat = _views(w)
    before = w.asnumpy().copy()
    with autograd.record():
        loss = net(nd.ones((4, 3))).sum()
    loss.backward()
    trainer.step(4)
    assert not np.array_equal(w.asnumpy(), before)
    _check_views(w, row, flat)


def test_view_sees_optimizer_update():
    opt = mx.optimizer.Adam(learning_rate=0.1)
    w = nd.ones((3, 2))
    state = opt.create_state(0, w)
    row, flat = _views(w)
    opt.update(0, w, nd.ones((3, 2)), state)
    assert not np.array_equal(w.asnumpy(), np.ones((3, 2)))
    _check_views(w, row, flat)


def test_view_sees_kvstore_pull_and_push():
    kv = mx.kv.create('local')
    kv.init('k', nd.ones((3, 2)))
    out = nd.zeros((3, 2))
    row, flat = _views(out)
    kv.push('k', nd.ones((3, 2)) * 5)
    kv.pull('k', out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.full((3, 2), 5.0))
    _check_views(out, row, flat)
    # with an optimizer on the store, the update writes the stored value itself
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=1.0))
    kv.push('k', nd.ones((3, 2)))
    kv.pull('k', out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.full((3, 2), 4.0))
    _check_views(out, row, flat)


def test_view_sees_parameter_set_data_zero_grad_and_initializer():
    p = gluon.Parameter('fc_weight', shape=(3, 2))
    p.initialize()
    w = p.data()
    row, flat = _views(w)
    p.set_data(nd.arange(6).reshape((3, 2)))
    np.testing.assert_array_equal(w.asnumpy(), np.arange(6).reshape(3, 2))
    _check_views(w, row, flat)
    mx.init.Constant(7)(mx.init.InitDesc('fc_weight'), w)
    np.testing.assert_array_equal(w.asnumpy(), np.full((3, 2), 7.0))
    _check_views(w, row, flat)
    g = p.grad()
    g[:] = 3
    g_row, g_flat = _views(g)
    p.zero_grad()
    np.testing.assert_array_equal(g.asnumpy(), np.zeros((3, 2)))
    _check_views(g, g_row, g_flat)


def test_writing_a_view_reaches_the_optimizer_weight():
    """The other direction: a kvstore pull into a view writes the base array (MXNet: same memory)."""
    kv = mx.kv.create('local')
    kv.init(0, nd.full((2,), 9.0))
    base = nd.zeros((3, 2))
    kv.pull(0, out=base[1])
    np.testing.assert_array_equal(base.asnumpy(), [[0, 0], [9, 9], [0, 0]])
