"""Two compile tiers (gluonjax/ops/_tiers.py): a signature's first calls run a program compiled
at XLA's optimisation level 0, a signature that keeps coming back the optimised one."""
import jax
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.ops import _host, _tiers
from gluonjax.ops._kernel import kernel_for

pytestmark = pytest.mark.skipif(jax.devices()[0].platform != 'cpu' or _host.HOST_CALLS == 0
                                or not _tiers._ENABLED, reason='two tiers on the CPU only')


def _sizes(tiered):
    """How many signatures each tier has compiled."""
    return tiered.cold._cache_size(), tiered.hot._cache_size()


def test_an_operator_runs_the_cheap_tier_first_then_the_optimised_one():
    rng = np.random.RandomState(0)
    a, b = rng.randn(7, 13).astype(np.float32), rng.randn(13, 5).astype(np.float32)
    kernel = kernel_for('dot', {})
    _host.forget()
    before = _sizes(kernel.tiered)
    x, y = nd.array(a), nd.array(b)
    outs = [nd.dot(x, y).asnumpy() for _ in range(_host.HOST_CALLS)]
    assert _sizes(kernel.tiered) == (before[0] + 1, before[1])  # one cheap compile, no optimised one
    outs.append(nd.dot(x, y).asnumpy())
    assert _sizes(kernel.tiered) == (before[0] + 1, before[1] + 1)
    for out in outs:
        np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


def test_gradients_through_both_tiers_match():
    rng = np.random.RandomState(1)
    a = rng.randn(6, 11).astype(np.float32)
    w = rng.randn(11, 3).astype(np.float32)
    x, weight = nd.array(a), nd.array(w)
    weight.attach_grad()
    _host.forget()
    grads = []
    for _ in range(_host.HOST_CALLS + 2):
        with autograd.record():
            y = nd.tanh(nd.dot(x, weight)).sum()
        y.backward()
        grads.append(weight.grad.asnumpy().copy())
    t = np.tanh(a @ w)
    want = a.T @ (1 - t ** 2)
    for g in grads:
        np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-5)


def test_an_executor_runs_the_cheap_tier_for_its_first_calls():
    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(mx.sym.Activation(data, act_type='tanh'), num_hidden=4, name='fc')
    rng = np.random.RandomState(2)
    shapes = {'data': (3, 5), 'fc_weight': (4, 5), 'fc_bias': (4,)}
    values = {k: rng.randn(*s).astype(np.float32) for k, s in shapes.items()}
    exe = net.simple_bind(mx.cpu(), **{k: v for k, v in shapes.items()})
    for k, v in values.items():
        exe.arg_dict[k][:] = v
    _host.forget()
    want = np.tanh(values['data']) @ values['fc_weight'].T + values['fc_bias']
    for _ in range(_host.HOST_CALLS + 2):
        out = exe.forward(is_train=True)[0].asnumpy()
        exe.backward(nd.ones((3, 4)))
        np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(exe.grad_dict['fc_bias'].asnumpy(), np.full(4, 3.0), rtol=1e-6)
        np.testing.assert_allclose(exe.grad_dict['fc_weight'].asnumpy(), np.ones((4, 3)) @ np.tanh(values['data']),
                                   rtol=1e-5, atol=1e-5)
    backward = exe._compiled('backward', True)
    assert isinstance(backward, _tiers.Tiered)
    assert backward.cold._cache_size() >= 1 and backward.hot._cache_size() >= 1


def test_the_tiers_differ_at_most_in_the_last_bit():
    # a*b + c: LLVM contracts it to one FMA when it optimises, not at level 0
    rng = np.random.RandomState(3)
    a, b, c = (rng.randn(4097).astype(np.float32) for _ in range(3))
    tiered = _tiers.Tiered(lambda a, b, c: a * b + c)
    cold, hot = np.asarray(tiered.cold(a, b, c)), np.asarray(tiered.hot(a, b, c))
    exact = a.astype(np.float64) * b + c
    # one rounding of the product apart: FMA skips it
    bound = np.spacing(np.abs(a * b)) + np.spacing(np.abs(exact).astype(np.float32))
    for got in (cold, hot):
        assert (np.abs(got - exact) <= bound).all()
    assert (np.abs(cold.astype(np.float64) - hot) <= bound).all()


def _compiles_by_thread(monkeypatch, program):
    """A list that gets the thread's name of each XLA compile of ``program`` from now on."""
    import threading
    from jax._src import compiler
    threads, compile_ = [], compiler.compile_or_get_cached

    def counted(backend, computation, *args, **kwargs):
        if program in str(computation.operation.attributes['sym_name']):
            threads.append(threading.current_thread().name)
        return compile_(backend, computation, *args, **kwargs)
    monkeypatch.setattr(compiler, 'compile_or_get_cached', counted)
    return threads


def test_the_optimised_program_compiles_in_the_background_from_the_second_call(monkeypatch):
    monkeypatch.setattr(_tiers, '_WARM', True)  # GLUONJAX_BACKGROUND_COMPILE=1
    rng = np.random.RandomState(4)
    a = rng.randn(5, 9).astype(np.float32)
    def warmed(x):
        return (jax.numpy.tanh(x) * 3.0 + x).sum(axis=1)
    tiered = _tiers.Tiered(warmed)
    signature = ('test-warm', a.shape)
    _host.forget()
    threads = _compiles_by_thread(monkeypatch, 'warmed')
    x = jax.numpy.asarray(a)
    outs = [np.asarray(tiered.pick(signature)(x)) for _ in range(_host.HOST_CALLS)]
    assert threads.count('MainThread') == 1, threads  # the cheap program only
    assert signature in _tiers._warming  # the optimised one queued at the second call
    outs.append(np.asarray(tiered.pick(signature)(x)))  # the switch waits for it, compiles nothing
    assert threads.count('MainThread') == 1 and len(threads) == 2, threads
    assert threads[1].startswith('gluonjax-compile')
    assert tiered.hot._cache_size() == 1 and signature not in _tiers._warming
    for out in outs:
        np.testing.assert_allclose(out, (np.tanh(a) * 3 + a).sum(axis=1), rtol=1e-5)


def test_a_full_queue_leaves_the_compile_to_the_switch(monkeypatch):
    monkeypatch.setattr(_tiers, '_WARM', True)
    monkeypatch.setattr(_tiers, 'WARM_QUEUE', 0)
    def queued(x):
        return x * 2.0 + 1.0
    tiered = _tiers.Tiered(queued)
    signature = ('test-warm-full', 3)
    _host.forget()
    threads = _compiles_by_thread(monkeypatch, 'queued')
    x = jax.numpy.arange(3.0)
    for _ in range(_host.HOST_CALLS + 1):
        out = tiered.pick(signature)(x)
    np.testing.assert_allclose(np.asarray(out), [1, 3, 5])
    assert threads == ['MainThread', 'MainThread'], threads  # cheap, then optimised at the switch


def _ynnpack_convolutions(compiled):
    return [line for line in compiled.as_text().splitlines()
            if '__ynn_fusion' in line and 'conv_general_dilated' in line]


def test_both_tiers_give_convolutions_to_eigen_and_leave_the_users_jit_alone():
    """XLA:CPU's YNNPACK ran convolutions on one thread (ops/_tiers.py's CPU_OPTIONS): gluonjax's
    programs keep them out of it, in both tiers; the user's own jax.jit keeps XLA's default."""
    if not _tiers.program_options():
        pytest.skip("this jaxlib's XLA has no YNNPACK fusion types to choose")

    def conv(x, w):
        return jax.lax.conv_general_dilated(x, w, (1, 1), [(1, 1)] * 2, dimension_numbers=('NHWC', 'HWIO', 'NHWC'))
    args = (np.ones((2, 16, 16, 32), np.float32), np.ones((3, 3, 32, 32), np.float32))
    tiered = _tiers.Tiered(conv)
    assert _ynnpack_convolutions(jax.jit(conv).lower(*args).compile())  # XLA's default
    for tier in (tiered.hot, tiered.cold):
        compiled = tier.lower(*args).compile()
        assert not _ynnpack_convolutions(compiled)
        np.testing.assert_allclose(np.asarray(compiled(*args))[0, 1:-1, 1:-1], 288.0)  # 3 x 3 x 32 ones


def test_a_program_with_options_runs_inside_another_trace():
    """jax refuses compile options on a jit nested in another trace: there the plain jit runs."""
    f = _tiers.jit(lambda x: jax.numpy.sin(x) * 2)
    x = np.float32(0.5)
    outer = jax.jit(lambda x: f(x) + 1)
    np.testing.assert_allclose(outer(x), 2 * np.sin(0.5) + 1, rtol=1e-6)
    np.testing.assert_allclose(jax.grad(lambda x: f(x))(x), 2 * np.cos(0.5), rtol=1e-6)
    assert jax.eval_shape(f, x).shape == ()
    np.testing.assert_allclose(f(x), 2 * np.sin(0.5), rtol=1e-6)


def test_samplers_compile_the_optimised_program_from_their_first_call():
    """One program, the optimised one, serves a sampler's first calls (OpDef.optimised_at_once),
    so its draws repeat after a seed whichever call makes them: the cheap tier's code rounds the
    multiply-add of low + (high - low) * u apart, the optimised code fuses it."""
    gamma = kernel_for('_sample_gamma', {'shape': (70,)})
    assert gamma.tiered.cold is gamma.tiered.hot
    before = gamma.tiered.hot._cache_size()
    alpha, beta = nd.array([0.5, 2.0, 9.0]), nd.array([1.0, 1.0, 3.0])
    mx.random.seed(11)
    first = nd.random.gamma(alpha, beta, shape=(70,)).asnumpy()
    assert gamma.tiered.hot._cache_size() == before + 1
    assert first.shape == (3, 70) and (first > 0).all()
    draws = []
    for _ in range(_host.HOST_CALLS + 2):  # across the call that would have switched tiers
        mx.random.seed(11)
        draws.append(nd.random.uniform(-1.5, 3.0, shape=(200, 200)).asnumpy())
    for d in draws[1:]:
        np.testing.assert_array_equal(d, draws[0])
    assert kernel_for('Dropout', {'p': 0.5}, True).tiered.cold is not kernel_for('Dropout', {'p': 0.5}, True).tiered.hot
