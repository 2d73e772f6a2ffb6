"""Writes deformable_conv_ref.npz: MXNet 1.9.1's (Modulated)DeformableConvolution on random inputs
with offsets that reach outside the image. Run with MXNet 1.9.1's Python (/tmp/mxref/bin/python)."""
import os

import mxnet as mx
import numpy as np

rng = np.random.RandomState(0)
x = rng.uniform(-1, 1, (2, 4, 7, 8)).astype(np.float32)
w = rng.uniform(-1, 1, (6, 2, 3, 2)).astype(np.float32)   # num_group=2
b = rng.uniform(-1, 1, (6,)).astype(np.float32)
kw = dict(kernel=(3, 2), stride=(2, 1), dilate=(1, 2), pad=(1, 1), num_filter=6, num_group=2,
          num_deformable_group=2)
ho, wo = (7 + 2 - 2 - 1) // 2 + 1, (8 + 2 - 2 - 1) // 1 + 1
offset = rng.uniform(-3, 3, (2, 2 * 2 * 6, ho, wo)).astype(np.float32)
mask = rng.uniform(0, 1, (2, 2 * 6, ho, wo)).astype(np.float32)
nd = mx.nd
out = nd.contrib.DeformableConvolution(nd.array(x), nd.array(offset), nd.array(w), nd.array(b), **kw)
mod = nd.contrib.ModulatedDeformableConvolution(nd.array(x), nd.array(offset), nd.array(mask), nd.array(w),
                                                nd.array(b), **kw)
np.savez(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'deformable_conv_ref.npz'),
         x=x, w=w, b=b, offset=offset, mask=mask, out=out.asnumpy(), modulated=mod.asnumpy())
