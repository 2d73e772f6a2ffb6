"""A program whose cheap compile was costly (a hybridized graph unrolling a loop of small
operations: GluonTS's DeepState Kalman filter) stays in the cheap tier while that pays, instead
of being compiled a second time after its first few calls (ops/_costly.py)."""
import time

import jax
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import _tape, autograd, gluon, nd
from gluonjax.ops import _costly, _host, _tiers

STEPS = 40


class _Unrolled(gluon.HybridBlock):
    """A recurrence of small matrix products, unrolled as GluonTS unrolls its Kalman filter."""

    def __init__(self, steps=STEPS):
        super().__init__()
        self.steps = steps
        with self.name_scope():
            self.dense = gluon.nn.Dense(8, in_units=8)

    def hybrid_forward(self, F, x):
        c = x
        for _ in range(self.steps):
            square = F.linalg_gemm2(c.expand_dims(1), c.expand_dims(2)).reshape((-1, 1))
            c = F.broadcast_add(F.tanh(self.dense(c)) * 0.5, square * 0.01)
        return c.sum()


def _net(hybridize, steps=STEPS):
    mx.random.seed(0)
    net = _Unrolled(steps)
    net.initialize(mx.init.Xavier())
    if hybridize:
        net.hybridize()
    return net


def _loss_and_grad(net, x):
    with autograd.record():
        loss = net(x)
    loss.backward()
    return loss, net.dense.weight.grad().asnumpy().copy()


def test_a_costly_first_call_keeps_its_signature_in_the_cheap_tier_until_it_has_paid(monkeypatch):
    monkeypatch.setattr(_costly, 'COSTLY_S', 0.05)
    sig = ('test_costly', object())
    assert _costly.timed(sig, True, lambda: time.sleep(0.01) or 1) == 1  # quick: no budget
    assert not _costly.stays_cold(sig)
    _costly.timed(sig, True, lambda: time.sleep(0.1))  # costly: 0.1 s to spend in the cheap tier
    assert _costly.stays_cold(sig)
    _costly.timed(sig, False, lambda: time.sleep(0.1))  # an optimised call spends nothing
    assert _costly.stays_cold(sig)
    _costly.timed(sig, True, lambda: time.sleep(0.04))
    assert _costly.stays_cold(sig)
    _costly.timed(sig, True, lambda: time.sleep(0.07))
    assert not _costly.stays_cold(sig)


@pytest.mark.skipif(jax.devices()[0].platform != 'cpu' or _host.HOST_CALLS == 0 or not _tiers._ENABLED,
                    reason='two tiers on the CPU only')
def test_a_costly_hybridized_training_step_is_not_compiled_twice(monkeypatch):
    monkeypatch.setattr(_costly, 'COSTLY_S', 0.0)  # every first call counts as costly here
    x = nd.array(np.random.RandomState(1).rand(3, 8))
    net = _net(True, steps=STEPS - 1)  # a graph no other test compiled
    forms_before, fused_before = set(_tape._fwd_cache._data), set(_tape._fused_cache)
    grads = [_loss_and_grad(net, x)[1] for _ in range(_host.HOST_CALLS + 3)]
    forms = [f for k, f in list(_tape._fwd_cache._data.items()) if k not in forms_before and isinstance(f, _tiers.Tiered)]
    fused = [f for k, f in list(_tape._fused_cache.items()) if k not in fused_before]
    assert forms and fused
    for tiered in forms + fused:  # the cheap programs ran every step, the optimised ones never compiled
        assert tiered.cold._cache_size() == 1 and tiered.hot._cache_size() == 0
    for g in grads[1:]:
        np.testing.assert_allclose(g, grads[0], rtol=1e-6)


@pytest.mark.skipif(jax.devices()[0].platform != 'cpu' or _host.HOST_CALLS == 0 or not _tiers._ENABLED,
                    reason='two tiers on the CPU only')
def test_a_costly_hybridized_inference_call_is_not_compiled_twice(monkeypatch):
    monkeypatch.setattr(_costly, 'COSTLY_S', 0.0)
    x = nd.array(np.random.RandomState(2).rand(5, 8))
    net = _net(True, steps=STEPS - 2)
    outs = [net(x).asnumpy() for _ in range(_host.HOST_CALLS + 3)]
    runner = next(iter(net._cached.values()))
    run = runner._compiled[False].run
    assert run.cold._cache_size() == 1 and run.hot._cache_size() == 0
    for out in outs[1:]:
        np.testing.assert_array_equal(out, outs[0])
