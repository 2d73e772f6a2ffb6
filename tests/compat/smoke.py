import mxnet as mx
a = mx.nd.array([[1, 2], [3, 4]])
print(a)
print(a.dtype, a.shape, a.context)
print((a * 2 + 1).sum().asscalar())
net = mx.gluon.nn.Dense(3, in_units=2)
print(net)
print(sorted(net.collect_params().keys()))
try:
    mx.nd.dot(a, mx.nd.ones((3, 3)))
except Exception as e:
    print(type(e).__name__)
