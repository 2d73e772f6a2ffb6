"""A dist_sync worker: rank/num_workers, init from rank 0, pushes summed over workers and devices.

Each worker has two CPU devices and pushes from both, so with two workers a key
sums four values. Prints lines the test checks; exits non-zero on a wrong value.
"""
import os
import sys

os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=2'
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))

import numpy as np  # noqa: E402

import gluonjax as mx  # noqa: E402

kv = mx.kv.create('dist_sync')
rank, n = kv.rank, kv.num_workers
print('rank %d of %d type %s' % (rank, n, kv.type))
ctxs = [mx.cpu(0), mx.cpu(1)]
shape = (2, 3)

# init: every worker offers its own value; rank 0's is kept everywhere
kv.init(3, mx.nd.ones(shape) * (rank + 10))
a = mx.nd.zeros(shape)
kv.pull(3, out=a)
assert (a.asnumpy() == 10).all(), a.asnumpy()

# push from both devices of every worker: sum of (rank + 1) over workers, twice
kv.push(3, [mx.nd.ones(shape, ctx=c) * (rank + 1) for c in ctxs])
outs = [mx.nd.zeros(shape, ctx=c) for c in ctxs]
kv.pull(3, out=outs)
expected = 2 * sum(r + 1 for r in range(n))
for o, c in zip(outs, ctxs):
    assert o.context == c and (o.asnumpy() == expected).all(), (o.context, o.asnumpy())
print('rank %d push sum %g' % (rank, outs[1].asnumpy()[0, 0]))

# several str keys at once, with an updater applied on every worker
keys = ['w', 'b']
kv2 = mx.kv.create('dist_device_sync')
kv2.init(keys, [mx.nd.zeros((4,)), mx.nd.zeros((1,))])


def update(key, grad, stored):
    stored -= 0.5 * grad


kv2.set_updater(update)
kv2.push(keys, [mx.nd.ones((4,)) * (rank + 1), mx.nd.ones((1,))])
w, b = mx.nd.zeros((4,)), mx.nd.zeros((1,))
kv2.pull(keys, out=[w, b])
assert np.allclose(w.asnumpy(), -0.5 * sum(r + 1 for r in range(n))), w.asnumpy()
assert np.allclose(b.asnumpy(), -0.5 * n), b.asnumpy()

# pushpull in place, then a barrier
g = [mx.nd.ones((5,), ctx=c) for c in ctxs]
kv.init(9, mx.nd.zeros((5,)))
kv.pushpull(9, g)
assert all((x.asnumpy() == 2 * n).all() for x in g)
kv.barrier()
print('rank %d done' % rank)
