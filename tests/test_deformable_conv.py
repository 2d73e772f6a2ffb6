"""Deformable convolutions: the operators against MXNet 1.9.1's outputs (tests/data/
make_deformable_conv_ref.py) and the gluon.contrib.cnn layers."""
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.base import MXNetError
from gluonjax.gluon.contrib import cnn

REF = os.path.join(os.path.dirname(__file__), 'data', 'deformable_conv_ref.npz')
KW = dict(kernel=(3, 2), stride=(2, 1), dilate=(1, 2), pad=(1, 1), num_filter=6, num_group=2,
          num_deformable_group=2)


def test_deformable_convolutions_match_mxnet_with_offsets_outside_the_image():
    r = np.load(REF)
    x, offset, w, b = (nd.array(r[k]) for k in ('x', 'offset', 'w', 'b'))
    out = nd.contrib.DeformableConvolution(x, offset, w, b, **KW)
    np.testing.assert_allclose(out.asnumpy(), r['out'], rtol=1e-5, atol=1e-5)
    out = nd.contrib.ModulatedDeformableConvolution(x, offset, nd.array(r['mask']), w, b, **KW)
    np.testing.assert_allclose(out.asnumpy(), r['modulated'], rtol=1e-5, atol=1e-5)
    with pytest.raises(MXNetError, match='offset must have shape'):
        nd.contrib.DeformableConvolution(x, offset[:, :4], w, b, **KW)


@pytest.mark.parametrize('layer', [cnn.DeformableConvolution, cnn.ModulatedDeformableConvolution])
def test_deformable_layers_start_as_the_plain_convolution_and_train(layer):
    net = layer(4, kernel_size=(3, 2), padding=1, num_deformable_group=2)
    net.initialize(mx.init.Uniform(0.5))  # the offset convolution's own initializers: zeros
    net.hybridize()
    x = nd.array(np.random.RandomState(1).rand(2, 6, 5, 5))
    x.attach_grad()
    with autograd.record():
        y = net(x)
    y.backward()
    w, b = net.deformable_conv_weight.data(), net.deformable_conv_bias.data()
    ref = nd.Convolution(x, w, b, kernel=(3, 2), pad=(1, 1), num_filter=4)
    np.testing.assert_allclose(y.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-5)
    assert net.deformable_conv_weight.shape == (4, 6, 3, 2)
    assert np.abs(net.offset_weight.grad().asnumpy()).sum() > 0
    assert repr(net) == '%s(6 -> 4, kernel_size=(3, 2), stride=(1, 1), padding=(1, 1))' % layer.__name__
