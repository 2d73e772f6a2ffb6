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
