# KVStore inputs MXNet refuses: the exception type, and the stored value afterwards.
import mxnet as mx

def attempt(what, fn):
    try:
        fn()
        print(what, 'ok')
    except Exception as e:
        print(what, type(e).__name__)

kv = mx.kv.create('local')
kv.init(1, mx.nd.ones((2, 2)))
out = mx.nd.zeros((2, 2))
attempt('pull missing', lambda: kv.pull(2, out=out))
attempt('push missing', lambda: kv.push(2, mx.nd.ones((2, 2))))
attempt('init twice', lambda: kv.init(1, mx.nd.ones((2, 2))))
attempt('str key on int store', lambda: kv.init('a', mx.nd.ones((2, 2))))
attempt('lists of different lengths', lambda: kv.push([1, 1], [mx.nd.ones((2, 2))]))
kv.pull(1, out=out)
print(out)
attempt('unknown type', lambda: mx.kv.create('no_such_store'))
print(mx.kv.create('Device').type, mx.kv.create('local_allreduce_cpu').type)
