import mxnet as mx
from mxnet import gluon, nd, autograd
from mxnet.gluon import nn
from mxnet.gluon.contrib import nn as cnn

x = nd.arange(24).reshape((2, 12)) / 10

# HybridConcurrent: children see the same input, outputs concatenated on axis
net = cnn.HybridConcurrent(axis=1)
with net.name_scope():
    net.add(nn.Dense(3), nn.Dense(2, activation='relu'), cnn.Identity())
print(net.name, net.prefix, net.axis)
print(net)
net.initialize(mx.init.Constant(0.1))
print(net(x).shape, net(x).sum().asscalar().round(4))
print(sorted(net.collect_params().keys()))
net.hybridize()
print(net(x).shape, net(x)[:, :5].asnumpy().round(4).tolist())
print(len(net), type(net[1]).__name__, type(net[0:2]).__name__, net[0:2].axis)

# default axis -1 and Concurrent (imperative)
c = cnn.Concurrent()
c.add(nn.Dense(4, in_units=12), cnn.Identity())
c.initialize(mx.init.One())
print(c.name, c.axis)
print(c)
print(c(x).shape, c(x)[0, :6].asnumpy().round(4).tolist())

# nesting in a HybridSequential (Inception-like branch)
seq = nn.HybridSequential()
with seq.name_scope():
    br = cnn.HybridConcurrent(axis=1, prefix='branch_')
    with br.name_scope():
        br.add(nn.Conv2D(2, 1), nn.Conv2D(3, 3, padding=1))
    seq.add(br, nn.GlobalAvgPool2D())
print(seq)
seq.initialize(mx.init.Constant(0.05))
img = nd.ones((1, 2, 4, 4))
print(seq(img).shape, sorted(seq.collect_params().keys()))

# Identity
idn = cnn.Identity()
print(idn.name, idn(x).shape, (idn(x) == x).sum().asscalar())
print(cnn.Identity(prefix='skip_').name)

# PixelShuffle
for layer, shape in ((cnn.PixelShuffle1D(2), (1, 4, 3)), (cnn.PixelShuffle2D((2, 3)), (1, 12, 2, 2)),
                     (cnn.PixelShuffle2D(2), (2, 8, 2, 3)), (cnn.PixelShuffle3D((1, 2, 2)), (1, 8, 2, 1, 2)),
                     (cnn.PixelShuffle3D(2), (1, 16, 1, 2, 1))):
    data = nd.arange(int(nd.prod(nd.array(shape)).asscalar())).reshape(shape)
    out = layer(data)
    print(layer, layer.name, out.shape, out.reshape((-1,))[:12].asnumpy().tolist())
    layer.hybridize()
    print((layer(data) == out).min().asscalar())
try:
    cnn.PixelShuffle2D((2, 2, 2))
except Exception as e:
    print(type(e).__name__)

# SparseEmbedding (used densely)
emb = cnn.SparseEmbedding(10, 3)
print(emb, emb.name, emb.weight.name, emb.weight.shape)
emb.initialize(mx.init.Constant(0.5))
trainer = gluon.Trainer(emb.collect_params(), 'sgd', {'learning_rate': 1.0})
idx = nd.array([[1, 2], [3, 9]])
print(emb(idx).shape, emb(idx).sum().asscalar())
with autograd.record():
    loss = (emb(idx) * 2).sum()
loss.backward()
trainer.step(1)
print(emb(nd.array([1, 0])).asnumpy().tolist())
print(cnn.SparseEmbedding(5, 2, dtype='float16'))
