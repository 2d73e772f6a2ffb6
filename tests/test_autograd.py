"""Autograd: record / backward with MXNet's semantics, checked against analytic gradients."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.base import MXNetError


def _var(values, req='write'):
    x = nd.array(values)
    x.attach_grad(req)
    return x


def test_modes():
    assert not autograd.is_recording() and not autograd.is_training()
    with autograd.record():
        assert autograd.is_recording() and autograd.is_training()
        with autograd.pause():
            assert not autograd.is_recording() and not autograd.is_training()
        with autograd.predict_mode():
            assert not autograd.is_training()
    with autograd.record(train_mode=False):
        assert autograd.is_recording() and not autograd.is_training()
    with autograd.train_mode():
        assert autograd.is_training() and not autograd.is_recording()
    assert not autograd.is_recording()
    prev = autograd.set_training(True)
    assert prev is False and autograd.is_training()
    autograd.set_training(False)


def test_simple_chain_gradients():
    a, b = _var([[1., 2.], [3., 4.]]), _var([[5., 6.], [7., 8.]])
    c = nd.ones((2, 2))
    for _ in range(3):  # the first call walks nodes, later ones run the fused compiled backward
        with autograd.record():
            y = (a * b + c).sum()
        y.backward()
        np.testing.assert_array_equal(a.grad.asnumpy(), b.asnumpy())
        np.testing.assert_array_equal(b.grad.asnumpy(), a.asnumpy())


def test_math_gradients_match_analytic(rng):
    x0 = rng.uniform(0.5, 2.0, (3, 4)).astype(np.float32)
    cases = [
        (lambda x: nd.exp(x), np.exp),
        (lambda x: nd.log(x), lambda v: 1 / v),
        (lambda x: nd.sqrt(x), lambda v: 0.5 / np.sqrt(v)),
        (lambda x: nd.tanh(x), lambda v: 1 - np.tanh(v) ** 2),
        (lambda x: nd.sigmoid(x), lambda v: (1 / (1 + np.exp(-v))) * (1 - 1 / (1 + np.exp(-v)))),
        (lambda x: x ** 3, lambda v: 3 * v ** 2),
        (lambda x: 1 / x, lambda v: -1 / v ** 2),
        (lambda x: nd.square(x) * 2 - x, lambda v: 4 * v - 1),
    ]
    for f, df in cases:
        x = _var(x0)
        with autograd.record():
            y = f(x)
        y.backward()
        np.testing.assert_allclose(x.grad.asnumpy(), df(x0), rtol=1e-4, atol=1e-5)


def test_head_gradient_and_broadcast():
    x = _var([1., 2., 3.])
    w = _var([[1.], [2.]])
    with autograd.record():
        y = x * w  # (2, 3)
    y.backward(nd.array([[1, 1, 1], [2, 2, 2]]))
    np.testing.assert_allclose(x.grad.asnumpy(), [5, 5, 5])
    np.testing.assert_allclose(w.grad.asnumpy(), [[6], [12]])


def test_grad_req_add_and_null():
    x = _var([1., 2.], 'add')
    for _ in range(3):
        with autograd.record():
            y = (x * x).sum()
        y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * 2 * np.array([1., 2.]))
    z = _var([1., 2.], 'null')
    with autograd.record():
        y = (z * 3).sum()
    with pytest.raises(MXNetError, match='no inputs .* require gradients'):
        y.backward()  # as MXNet: nothing reached needs a gradient
    assert z.grad.asnumpy().sum() == 0
    with autograd.record():
        y = (z * 3 + x).sum()
    y.backward()
    assert z.grad is None  # as MXNet 1.9.1: a backward pass reaching a 'null' variable drops its buffer
    z.attach_grad()
    assert z.grad.asnumpy().tolist() == [0., 0.]


def test_grad_buffer_identity_kept():
    x = _var([1., 2.])
    g = x.grad
    with autograd.record():
        y = (x * 2).sum()
    y.backward()
    assert x.grad is g
    np.testing.assert_allclose(g.asnumpy(), [2, 2])


def test_backward_errors():
    x = nd.array([1., 2.])
    with pytest.raises(MXNetError, match='not in a computational graph'):
        (x * 2).backward()
    v = _var([1., 2.])
    y = v * 2  # computed outside record()
    with pytest.raises(MXNetError, match='record'):
        y.backward()


def test_retain_graph():
    x = _var([1., 2.])
    with autograd.record():
        y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [2, 4])
    with pytest.raises(MXNetError, match='retain_graph'):
        y.backward()


def test_gradient_through_slices_and_inplace_writes():
    x = _var([1., 2., 3., 4.])
    with autograd.record():
        y = x * 2
        y[1:3] = x[0:2] * 10   # an in-place write under record is differentiated
        z = y.sum() + x[3] * 5
    z.backward()
    # y = [2x0, 10x0, 10x1, 2x3]; z = 2x0 + 10x0 + 10x1 + 2x3 + 5x3
    np.testing.assert_allclose(x.grad.asnumpy(), [12, 10, 0, 7])


def test_inplace_add_under_record():
    x = _var([1., 2.])
    with autograd.record():
        y = x * 1
        y += x * x
        s = y.sum()
    s.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 1 + 2 * np.array([1., 2.]))


def test_outside_record_update_keeps_variable():
    # The classic "w -= lr * w.grad" loop of MXNet tutorials
    w = _var([1., 1.])
    for _ in range(2):
        with autograd.record():
            loss = ((w * nd.array([1., 2.])) ** 2).sum()
        loss.backward()
        w[:] = w - 0.1 * w.grad
    assert w.grad is not None
    # grad = [2 w0, 8 w1]: w0 1 -> 0.8 -> 0.64, w1 1 -> 0.2 -> 0.04
    np.testing.assert_allclose(w.asnumpy(), [0.64, 0.04], rtol=1e-5)


def test_autograd_grad_and_create_graph():
    x = _var([1., 2., 3.])
    with autograd.record():
        y = x ** 3
        dy = autograd.grad(y, [x], create_graph=True)[0]
    np.testing.assert_allclose(dy.asnumpy(), 3 * np.array([1., 4., 9.]))
    dy.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 6 * np.array([1., 2., 3.]))


def test_autograd_grad_does_not_write_grad():
    x = _var([1., 2.])
    with autograd.record():
        y = (x * x).sum()
    g = autograd.grad(y, x)
    np.testing.assert_allclose(g[0].asnumpy(), [2, 4])
    assert x.grad.asnumpy().sum() == 0


def test_detach_and_blockgrad():
    x = _var([1., 2.])
    with autograd.record():
        y = x * x
        z = (y.detach() * x).sum() + nd.BlockGrad(x * 3).sum()
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [1, 4])


def test_mark_variables():
    x = nd.array([1., 2.])
    g = nd.zeros((2,))
    autograd.mark_variables([x], [g])
    with autograd.record():
        y = (x * 5).sum()
    y.backward()
    np.testing.assert_allclose(g.asnumpy(), [5, 5])
    with pytest.raises(MXNetError, match='grad_req'):
        autograd.mark_variables([x], [g], 'bad')


def test_custom_function():
    class Sigmoid(autograd.Function):
        def forward(self, x):
            y = 1 / (1 + nd.exp(-x))
            self.save_for_backward(y)
            return y

        def backward(self, dy):
            y, = self.saved_tensors
            return dy * y * (1 - y) * 2  # deliberately twice the true gradient

    x = _var([0., 1.])
    with autograd.record():
        out = Sigmoid()(x)
        s = (out * 3).sum()
    s.backward()
    sig = 1 / (1 + np.exp(-np.array([0., 1.])))
    np.testing.assert_allclose(out.asnumpy(), sig, rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * 2 * sig * (1 - sig), rtol=1e-5)


def test_multiple_heads():
    x = _var([1., 2.])
    with autograd.record():
        a = (x * 2).sum()
        b = (x * x).sum()
    autograd.backward([a, b])
    np.testing.assert_allclose(x.grad.asnumpy(), [4, 6])


def test_shared_subexpression_accumulates():
    x = _var([3.])
    with autograd.record():
        y = x * x
        z = y * y + y  # x^4 + x^2
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [4 * 27 + 6])
