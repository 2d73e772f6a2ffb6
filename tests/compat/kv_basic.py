# KVStore on several CPU contexts: init/push/pull/pushpull/broadcast, updaters, optimizers, errors.
import numpy as np
import mxnet as mx

ctxs = [mx.cpu(i) for i in range(4)]
shape = (2, 3)

for name in ('local', 'device'):
    kv = mx.kv.create(name)
    print(kv.type, kv.rank, kv.num_workers)
    kv.init(3, mx.nd.ones(shape) * 2)
    a = mx.nd.zeros(shape)
    kv.pull(3, out=a)
    print(a)
    kv.push(3, [mx.nd.ones(shape, ctx=c) * (i + 1) for i, c in enumerate(ctxs)])
    outs = [mx.nd.zeros(shape, ctx=c) for c in ctxs]
    kv.pull(3, out=outs)
    print(outs[2])

    # lists of keys, several values per key
    keys = [5, 7, 9]
    kv.init(keys, [mx.nd.ones(shape) * k for k in keys])
    kv.push(keys, [[mx.nd.ones(shape, ctx=c) for c in ctxs]] * 3)
    b = [[mx.nd.zeros(shape, ctx=c) for c in ctxs] for _ in keys]
    kv.pull(keys, out=b)
    print([x.asnumpy().sum() for x in b[1]])

    # updater
    def update(key, inp, stored):
        print('update on key: %d' % key)
        stored += inp * 2
    kv._set_updater(update)
    kv.pull(3, out=a)
    print(a)
    kv.push(3, mx.nd.ones(shape))
    kv.pull(3, out=a)
    print(a)

    # pushpull into separate outputs and in place
    kv2 = mx.kv.create(name)
    kv2.init('w', mx.nd.zeros(shape))
    vals = [mx.nd.ones(shape, ctx=c) * (i + 1) for i, c in enumerate(ctxs)]
    res = [mx.nd.zeros(shape, ctx=c) for c in ctxs]
    kv2.pushpull('w', vals, out=res)
    print(res[0])
    kv2.pushpull('w', vals)
    print(vals[3])

    # broadcast
    kv2.broadcast('b', mx.nd.arange(6).reshape(shape), out=[mx.nd.zeros(shape, ctx=c) for c in ctxs])
    o = mx.nd.zeros(shape)
    kv2.pull('b', out=o)
    print(o)

    # string keys with a list
    kv3 = mx.kv.create(name)
    kv3.init(['x', 'y'], [mx.nd.ones((2,)), mx.nd.zeros((2,))])
    kv3.push(['x', 'y'], [mx.nd.ones((2,)) * 5, mx.nd.ones((2,)) * 7])
    got = [mx.nd.zeros((2,)), mx.nd.zeros((2,))]
    kv3.pull(['x', 'y'], out=got)
    print(got[0], got[1])

# the optimizer path
kv = mx.kv.create('local')
kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9))
kv.init(0, mx.nd.ones((3,)))
for step in range(3):
    kv.push(0, [mx.nd.ones((3,), ctx=c) * 0.5 for c in ctxs[:2]])
w = mx.nd.zeros((3,))
kv.pull(0, out=w)
print(w.asnumpy().round(5))
kv.save_optimizer_states('kv_states.tmp')
kv.load_optimizer_states('kv_states.tmp')
kv.push(0, mx.nd.ones((3,)))
kv.pull(0, out=w)
print(w.asnumpy().round(5))
import os
os.remove('kv_states.tmp')
