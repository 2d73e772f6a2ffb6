"""Contrib operators checked against MXNet 1.9.1's numbers: hawkesll, the straight-through
estimators and gradientmultiplier (reference values printed by MXNet 1.9.1 for the same inputs)."""
import numpy as np

import gluonjax as mx
from gluonjax import autograd, nd


def _hawkes_inputs():
    rs = np.random.RandomState(0)
    n, t, k = 3, 6, 2
    lda = nd.array(rs.uniform(0.5, 2, (n, k)))
    alpha, beta = nd.array(rs.uniform(0.1, .5, k)), nd.array(rs.uniform(.5, 3, k))
    state, lags = nd.array(rs.uniform(0, 2, (n, k))), nd.array(rs.uniform(0.1, 2, (n, t)))
    marks = nd.array(rs.randint(0, k, (n, t))).astype('int32')
    return lda, alpha, beta, state, lags, marks, nd.array([6, 3, 0]), nd.array([20., 15, 5])


def test_hawkesll_matches_mxnet_values_and_gradients():
    inputs = _hawkes_inputs()
    lda, alpha, beta, state = inputs[:4]
    for a in (lda, alpha, beta, state):
        a.attach_grad()
    with autograd.record():
        loglik, memory = nd.contrib.hawkesll(*inputs)
    loglik.backward()
    np.testing.assert_allclose(loglik.asnumpy(), [-58.281097, -41.934288, -13.140223], rtol=1e-5)
    np.testing.assert_allclose(memory.asnumpy(), [[5.816248e-15, 4.235882e-10], [2.044258e-18, 3.490239e-08],
                                                  [6.844711e-08, 1.185431e-04]], rtol=1e-4)
    np.testing.assert_allclose(lda.grad.asnumpy(), [[-17.283108, -18.750729], [-14.313736, -13.686241],
                                                    [-5., -5.]], rtol=1e-5)
    np.testing.assert_allclose(alpha.grad.asnumpy(), [-6.256944, -6.416356], rtol=1e-5)
    np.testing.assert_allclose(beta.grad.asnumpy(), [0.037152, -0.02234], rtol=1e-4)
    assert not state.grad.asnumpy().any()  # MXNet gives the carried-in state no gradient


def test_straight_through_estimators_pass_the_gradient_unchanged():
    x = nd.array([-1.5, -0.4, 0.0, 0.5, 2.5])
    x.attach_grad()
    for op, expected in ((nd.contrib.round_ste, [-2, -0, 0, 1, 3]), (nd.contrib.sign_ste, [-1, -1, 0, 1, 1])):
        with autograd.record():
            y = op(x) * nd.array([1, 2, 3, 4, 5])
        y.backward()
        np.testing.assert_array_equal(y.asnumpy(), np.array(expected) * [1, 2, 3, 4, 5])
        np.testing.assert_array_equal(x.grad.asnumpy(), [1, 2, 3, 4, 5])


def test_gradientmultiplier_scales_only_the_gradient():
    x = nd.array([1.0, -2.0, 3.0])
    x.attach_grad()
    with autograd.record():
        y = nd.contrib.gradientmultiplier(x * x, scalar=-0.5)
    y.backward()
    np.testing.assert_array_equal(y.asnumpy(), [1, 4, 9])
    np.testing.assert_array_equal(x.grad.asnumpy(), -0.5 * 2 * x.asnumpy())
    sym = mx.sym.contrib.gradientmultiplier(mx.sym.var('x'), scalar=2.0)
    assert sym.list_arguments() == ['x']
