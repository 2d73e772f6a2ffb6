import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn

rs = np.random.RandomState(3)
N = 24
X = rs.rand(N, 1, 8, 8).astype('float32')
y = (X[:, 0, :4, :].mean(axis=(1, 2)) > X[:, 0, 4:, :].mean(axis=(1, 2))).astype('float32')
Wc = (rs.randn(4, 1, 3, 3) * 0.3).astype('float32')
Wd = (rs.randn(2, 36) * 0.1).astype('float32')

class Net(nn.HybridBlock):
    def __init__(self, **kw):
        super(Net, self).__init__(**kw)
        with self.name_scope():
            self.conv = nn.Conv2D(4, kernel_size=3, in_channels=1, use_bias=False)
            self.bn = nn.BatchNorm(in_channels=4)
            self.pool = nn.MaxPool2D(pool_size=2)
            self.fc = nn.Dense(2, in_units=36)

    def hybrid_forward(self, F, x):
        x = self.pool(F.relu(self.bn(self.conv(x))))
        return self.fc(x.flatten())

def build():
    net = Net()
    net.initialize(init.Zero())
    net.conv.weight.set_data(nd.array(Wc))
    net.fc.weight.set_data(nd.array(Wd))
    return net

net = build()
print(net)
print(sorted(net.collect_params().keys()))
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()

def run(net, tag):
    tr = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.01})
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(X, y), batch_size=8)
    acc = mx.metric.Accuracy()
    for epoch in range(3):
        acc.reset()
        tot = 0.0
        for data, label in loader:
            with autograd.record():
                out = net(data)
                l = loss_fn(out, label)
            l.backward()
            tr.step(data.shape[0])
            tot += l.mean().asscalar()
            acc.update(label, out)
        print(tag, 'epoch %d loss %.4f %s=%.4f' % (epoch, tot / 3, *acc.get()))
    print(tag, 'running_mean', net.bn.running_mean.data().asnumpy().round(4).tolist())
    print(tag, 'running_var', net.bn.running_var.data().asnumpy().round(4).tolist())
    print(tag, 'gamma', net.bn.gamma.data().asnumpy().round(4).tolist())
    print(tag, 'beta', net.bn.beta.data().asnumpy().round(4).tolist())
    out = net(nd.array(X[:3]))
    print(tag, 'predict', out.asnumpy().round(3).tolist())
    with autograd.predict_mode():
        print(tag, 'predict_mode', net(nd.array(X[:3])).asnumpy().round(3).tolist())
    with autograd.train_mode():
        out2 = net(nd.array(X[:3]))
    # two decimals: after training, float rounding of a different gradient order moves the third
    print(tag, 'train_mode', out2.asnumpy().round(2).tolist())
    print(tag, 'running_mean after train_mode', net.bn.running_mean.data().asnumpy().round(4).tolist())
    acc = mx.metric.Accuracy()
    acc.update(nd.array(y), net(nd.array(X)))
    print(tag, acc.get())

run(net, 'imp')
net = build()
net.hybridize()
run(net, 'hyb')

# BatchNorm options
bn = nn.BatchNorm(momentum=0.5, epsilon=1e-3, center=False, scale=False, in_channels=3)
bn.initialize()
x = nd.array(rs.randn(4, 3, 2, 2).astype('float32'))
for _ in range(2):
    with autograd.record():
        o = bn(x)
print(bn.running_mean.data().asnumpy().round(4).tolist(), bn.running_var.data().asnumpy().round(4).tolist())
print(o[0, 0].asnumpy().round(4).tolist(), bn(x)[0, 0].asnumpy().round(4).tolist())
bn2 = nn.BatchNorm(use_global_stats=True, in_channels=3)
bn2.initialize()
with autograd.record():
    o = bn2(x)
print(o[0, 0].asnumpy().round(4).tolist(), bn2.running_mean.data().asnumpy().tolist())
bn3 = nn.BatchNorm(axis=-1, in_channels=2)
bn3.initialize()
with autograd.record():
    o = bn3(nd.array(rs.randn(3, 2).astype('float32')))
print(o.asnumpy().round(4).tolist(), bn3.running_var.data().asnumpy().round(4).tolist())
# two recorded passes through one BatchNorm, one backward (a GAN discriminator on real and fake)
for hyb in [False, True]:
    d = nn.HybridSequential()
    d.add(nn.Dense(3, in_units=2), nn.BatchNorm(momentum=0.8, in_channels=3), nn.Dense(1, in_units=3))
    d.initialize(init.Constant(0.3))
    if hyb:
        d.hybridize()
    real = nd.array(rs.randn(5, 2).astype('float32'))
    fake = nd.array(rs.randn(5, 2).astype('float32') + 2)
    with autograd.record():
        l = d(real).mean() + d(fake).mean()
    l.backward()
    print(hyb, d[1].running_mean.data().asnumpy().round(4).tolist(), d[1].running_var.data().asnumpy().round(4).tolist())
