"""A hybridized Block whose graph has an output shape that follows input values (boolean_mask)
runs operator by operator, as MXNet's CachedOp runs dynamic-shape graphs (test_dynamic_shape)."""
import numpy as np

import gluonjax as mx
from gluonjax import autograd, gluon


class _Masked(gluon.HybridBlock):
    def hybrid_forward(self, F, data, index):
        return F.contrib.boolean_mask(data, index) * 2


def test_boolean_mask_in_a_hybridized_block_gives_values_and_gradients():
    block = _Masked()
    block.hybridize()
    data = mx.nd.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    data.attach_grad()
    for index, rows in (([0, 1, 1], [1, 2]), ([1, 0, 0], [0])):  # a second signature, another count
        with autograd.record():
            out = block(data, mx.nd.array(index))
        out.backward()
        np.testing.assert_array_equal(out.asnumpy(), data.asnumpy()[rows] * 2)
        want = np.zeros((3, 3))
        want[rows] = 2
        np.testing.assert_array_equal(data.grad.asnumpy(), want)


def test_symbol_shape_of_boolean_mask_is_unknown_until_it_runs():
    out = mx.sym.contrib.boolean_mask(mx.sym.var('d', shape=(3, 2)), mx.sym.var('i', shape=(3,)))
    # MXNet 1.9.1: ([(3, 2), (3,)], [()], [])
    assert out.infer_shape_partial() == ([(3, 2), (3,)], [()], [])
