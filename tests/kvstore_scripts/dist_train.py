"""Linear regression trained with a KVStore: ``dist`` (each worker takes its share of the batch,
gradients summed with dist_sync) or ``single`` (one process, the whole batch, 'local' store).
The two must end with the same weights. Half the steps update on the store (an updater), half
pushpull the gradients and update locally. Prints ``RESULT <json>`` on rank 0.
"""
import json
import os
import sys

os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=1'
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))

import numpy as np  # noqa: E402

import gluonjax as mx  # noqa: E402
from gluonjax import autograd, nd  # noqa: E402

mode = sys.argv[1]
rng = np.random.default_rng(0)
X = rng.standard_normal((32, 5)).astype(np.float32)
y = (X @ rng.standard_normal((5, 1)) + 0.3).astype(np.float32)
if mode == 'dist':
    kv = mx.kv.create('dist_sync')
else:
    kv = mx.kv.create('local')
rank, n = kv.rank, kv.num_workers
share = len(X) // n
Xl, yl = nd.array(X[rank * share:(rank + 1) * share]), nd.array(y[rank * share:(rank + 1) * share])
w, b = nd.zeros((5, 1)), nd.zeros((1,))
for p in (w, b):
    p.attach_grad()
kv.init([0, 1], [w, b])
lr = 0.05


def sgd(key, grad, stored):
    stored -= (lr / len(X)) * grad


def grads():
    with autograd.record():
        loss = ((nd.dot(Xl, w) + b - yl) ** 2).sum()
    loss.backward()
    return [w.grad, b.grad]


kv.set_updater(sgd)
for _ in range(10):  # update on the store
    kv.push([0, 1], grads())
    kv.pull([0, 1], out=[w, b])
kv.set_updater(None)
kv2 = mx.kv.create('dist_sync' if mode == 'dist' else 'local')
kv2.init([0, 1], [w.zeros_like(), b.zeros_like()])
for _ in range(10):  # sum the gradients, update locally
    g = grads()
    kv2.pushpull([0, 1], g)
    w -= (lr / len(X)) * g[0]
    b -= (lr / len(X)) * g[1]
if rank == 0:
    print('RESULT ' + json.dumps({'w': w.asnumpy().ravel().tolist(), 'b': b.asnumpy().tolist(),
                                  'workers': n}))
