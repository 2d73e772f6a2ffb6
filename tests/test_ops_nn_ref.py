"""The neural-network operators against outputs and gradients recorded from MXNet 1.9.1.

tests/data/mxnet_ref/make_nn_data.py wrote nn_ref.npz with the reference MXNet: for
each case the inputs, the operator's keyword arguments, its visible outputs, the head
gradients used for backward, the gradients of the inputs, and (BatchNorm) the moving
statistics afterwards. Every case is replayed here through mx.nd and autograd.
"""
import json
import os

import numpy as np
import pytest

import gluonjax as mx

_PATH = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'nn_ref.npz')
_DATA = np.load(_PATH)
_CASES = json.loads(str(_DATA['__meta__']))


def _kwargs(kw):
    return {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}


@pytest.mark.parametrize('case', _CASES, ids=[c['name'] for c in _CASES])
def test_matches_mxnet(case):
    name = case['name']
    ins = [_DATA['%s/in%d' % (name, k)] for k in range(case['n_inputs'])]
    arrays = [mx.nd.array(a, dtype=a.dtype) for a in ins]
    for i in case['grad']:
        arrays[i].attach_grad()
    with mx.autograd.record(train_mode=case['train']):
        out = getattr(mx.nd, case['op'])(*arrays, **_kwargs(case['kwargs']))
    outs = out if isinstance(out, (list, tuple)) else [out]
    assert len(outs) == case['n_outputs'], name
    tol = dict(rtol=case['rtol'], atol=case['atol'])
    for k, o in enumerate(outs):
        if k in case['skip_outputs']:
            continue
        expected = _DATA['%s/out%d' % (name, k)]
        assert o.dtype == expected.dtype, (name, k)
        np.testing.assert_allclose(o.asnumpy(), expected, err_msg='%s output %d' % (name, k), **tol)
    if case['grad']:
        heads = [_DATA['%s/head%d' % (name, k)] for k in range(len(outs))]
        heads = [mx.nd.array(h, dtype=h.dtype) for h in heads]
        mx.autograd.backward(outs, heads)
        for i in case['grad']:
            np.testing.assert_allclose(arrays[i].grad.asnumpy(), _DATA['%s/grad%d' % (name, i)],
                                       err_msg='%s gradient of input %d' % (name, i), **tol)
    for i in case['aux']:
        np.testing.assert_allclose(arrays[i].asnumpy(), _DATA['%s/aux%d' % (name, i)],
                                   err_msg='%s auxiliary state %d' % (name, i), **tol)
