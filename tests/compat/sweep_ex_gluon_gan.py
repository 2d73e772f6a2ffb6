"""MXNet 1.9's example/gluon dc_gan/dcgan.py and sn_gan (model.py, train.py) on tiny data: the
generator and discriminator stacks, the image transformer, two Adam trainers, detach(), the
accuracy metrics, the spectral-normalised convolution block and checkpoints."""
import os
import tempfile

import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn
from _ex_gluon import fill, r, show, attempt, params_of

ctx = mx.cpu()
nz, ngf, ndf, nc, B = 3, 2, 2, 3, 4

print('== dcgan transformer')


def transformer(data, label):
    data = mx.image.imresize(data, 8, 8)
    data = mx.nd.transpose(data, (2, 0, 1))
    data = data.astype(onp.float32) / 128 - 1
    if data.shape[0] == 1:
        data = mx.nd.tile(data, (3, 1, 1))
    return data, label


img = nd.array(onp.arange(4 * 4 * 1).reshape(4, 4, 1) * 15, dtype='uint8')
d, l = transformer(img, 7)
show('grey', d)
img3 = nd.array((onp.arange(6 * 4 * 3).reshape(6, 4, 3) * 3) % 256, dtype='uint8')
d, l = transformer(img3, 1)
print('rgb', d.shape, d.dtype.__name__, r(d.sum(), 3), l)
ds = gluon.data.ArrayDataset(nd.array(onp.arange(2 * 4 * 4 * 1).reshape(2, 4, 4, 1) * 7, dtype='uint8'),
                             nd.array([0, 1]))
loader = gluon.data.DataLoader(ds.transform(transformer), 2, shuffle=False, last_batch='discard')
for data, label in loader:
    print('batch', data.shape, label.shape, r(data.mean(), 4), r(label))


def get_netG():
    netG = nn.Sequential()
    with netG.name_scope():
        netG.add(nn.Conv2DTranspose(ngf * 4, 4, 1, 0, use_bias=False))
        netG.add(nn.BatchNorm())
        netG.add(nn.Activation('relu'))
        netG.add(nn.Conv2DTranspose(ngf * 2, 4, 2, 1, use_bias=False))
        netG.add(nn.BatchNorm())
        netG.add(nn.Activation('relu'))
        netG.add(nn.Conv2DTranspose(nc, 4, 2, 1, use_bias=False))
        netG.add(nn.Activation('tanh'))
    return netG


def get_netD():
    netD = nn.Sequential()
    with netD.name_scope():
        netD.add(nn.Conv2D(ndf, 4, 2, 1, use_bias=False))
        netD.add(nn.LeakyReLU(0.2))
        netD.add(nn.Conv2D(ndf * 2, 4, 2, 1, use_bias=False))
        netD.add(nn.BatchNorm())
        netD.add(nn.LeakyReLU(0.2))
        netD.add(nn.Conv2D(2, 4, 1, 0, use_bias=False))
    return netD


print('== dcgan nets')
netG = get_netG()
netD = get_netD()
print(netG)
print(netD)
netG.initialize(mx.init.Normal(0.02), ctx=ctx)
netD.initialize(mx.init.Normal(0.02), ctx=ctx)
rs = onp.random.RandomState(0)
noise0 = nd.array(rs.normal(0, 1, size=(B, nz, 1, 1)))
real0 = nd.array(rs.uniform(-1, 1, size=(B, nc, 16, 16)))
netD(netG(noise0))  # finish the deferred shapes
fill(netG, 0.3)
fill(netD, 0.3, seed=5)
params_of(netG)
params_of(netD)

loss = gluon.loss.SoftmaxCrossEntropyLoss()
trainerG = gluon.Trainer(netG.collect_params(), 'adam', {'learning_rate': 0.01, 'beta1': 0.5})
trainerD = gluon.Trainer(netD.collect_params(), 'adam', {'learning_rate': 0.01, 'beta1': 0.5})
real_label = mx.nd.ones((B,), ctx=ctx)
fake_label = mx.nd.zeros((B,), ctx=ctx)
metric = mx.metric.Accuracy()

print('== dcgan training')
for it in range(3):
    data = real0 * (1 - 0.1 * it)
    noise = noise0 + 0.1 * it
    with autograd.record():
        output = netD(data)
        output = output.reshape((B, 2))
        errD_real = loss(output, real_label)
    metric.update([real_label, ], [output, ])
    with autograd.record():
        fake = netG(noise)
        output = netD(fake.detach())
        output = output.reshape((B, 2))
        errD_fake = loss(output, fake_label)
        errD = errD_real + errD_fake
    errD.backward()
    metric.update([fake_label, ], [output, ])
    trainerD.step(B)
    with autograd.record():
        output = netD(fake)
        output = output.reshape((-1, 2))
        errG = loss(output, real_label)
    errG.backward()
    trainerG.step(B)
    name, acc = metric.get()
    print(it, 'errD', r(mx.nd.mean(errD).asscalar()), 'errG', r(mx.nd.mean(errG).asscalar()),
          name, r(acc))
    print('  fake', fake.shape, r(fake[0, 0, :2, :4]))
    print('  G grad', r(netG[0].weight.grad().sum(), 3), 'D grad', r(netD[0].weight.grad().sum(), 3))
print('running', r(netG[1].running_mean.data()), r(netD[3].running_var.data()))
name, acc = metric.get()
metric.reset()
print('epoch acc', name, r(acc), metric.get())

print('== checkpoints')
with tempfile.TemporaryDirectory() as tmp:
    fG = os.path.join(tmp, 'generator_epoch_0.params')
    netG.save_parameters(fG)
    g2 = get_netG()
    g2.load_parameters(fG, ctx=ctx)
    print('reload', r((g2(noise0) - netG(noise0)).abs().max()))
    print(sorted(nd.load(fG).keys()))
with autograd.predict_mode():
    print('predict', r(netD(netG(noise0)).reshape((-1, 2))))

print('== visual helper (numpy)')
X = netG(noise0).asnumpy().transpose((0, 2, 3, 1))
X = onp.clip((X - onp.min(X)) * (255.0 / (onp.max(X) - onp.min(X))), 0, 255).astype(onp.uint8)
n = onp.ceil(onp.sqrt(X.shape[0]))
print('grid', int(n * X.shape[1]), int(n * X.shape[2]), X.dtype, int(X[0].sum()))

print('== sn_gan SNConv2D')
EPSILON = 1e-08


class SNConv2D(gluon.Block):
    def __init__(self, num_filter, kernel_size, strides, padding, in_channels, ctx=mx.cpu(),
                 iterations=1):
        super(SNConv2D, self).__init__()
        self.num_filter = num_filter
        self.kernel_size = kernel_size
        self.strides = strides
        self.padding = padding
        self.in_channels = in_channels
        self.iterations = iterations
        self.ctx = ctx
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(
                num_filter, in_channels, kernel_size, kernel_size))
            self.u = self.params.get('u', init=mx.init.Normal(), shape=(1, num_filter))

    def _spectral_norm(self):
        w = self.params.get('weight').data(self.ctx)
        w_mat = nd.reshape(w, [w.shape[0], -1])
        _u = self.u.data(self.ctx)
        _v = None
        for _ in range(self.iterations):
            _v = nd.L2Normalization(nd.dot(_u, w_mat))
            _u = nd.L2Normalization(nd.dot(_v, w_mat.T))
        sigma = nd.sum(nd.dot(_u, w_mat) * _v)
        if sigma == 0.:
            sigma = EPSILON
        self.params.setattr('u', _u)
        return w / sigma

    def forward(self, x):
        return nd.Convolution(data=x, weight=self._spectral_norm(),
                              kernel=(self.kernel_size, self.kernel_size),
                              pad=(self.padding, self.padding),
                              stride=(self.strides, self.strides),
                              num_filter=self.num_filter, no_bias=True)


def get_descriptor(ctx):
    d_net = gluon.nn.Sequential()
    with d_net.name_scope():
        d_net.add(SNConv2D(num_filter=4, kernel_size=4, strides=2, padding=1, in_channels=3, ctx=ctx))
        d_net.add(gluon.nn.LeakyReLU(0.2))
        d_net.add(SNConv2D(num_filter=1, kernel_size=4, strides=1, padding=0, in_channels=4, ctx=ctx))
    return d_net


d_net = get_descriptor(ctx)
print(d_net)
d_net.collect_params().initialize(mx.init.Xavier(), ctx=ctx)
params_of(d_net)
fill(d_net, 0.4)
print('u attr', hasattr(d_net[0].weight, 'u'))
out = d_net(real0[:, :, :8, :8])
print('u attr after', hasattr(d_net[0].weight, 'u'), r(d_net[0].weight.u))
show('d_net out', out)
w = d_net[0].weight.data()
print('sigma-normalised', r(nd.norm(d_net[0]._spectral_norm()), 4))
zero = SNConv2D(num_filter=2, kernel_size=1, strides=1, padding=0, in_channels=1)
zero.initialize(mx.init.Zero())
print('zero sigma', r(zero._spectral_norm().sum()))

print('== sn_gan training')


def facc(label, pred):
    pred = pred.ravel()
    label = label.ravel()
    return ((pred > 0.5) == label).mean()


g_net = gluon.nn.Sequential()
with g_net.name_scope():
    g_net.add(gluon.nn.Conv2DTranspose(channels=4, kernel_size=4, strides=1, padding=0, use_bias=False))
    g_net.add(gluon.nn.BatchNorm())
    g_net.add(gluon.nn.LeakyReLU(0.2))
    g_net.add(gluon.nn.Conv2DTranspose(channels=3, kernel_size=4, strides=2, padding=1, use_bias=False))
    g_net.add(gluon.nn.Activation('tanh'))
g_net.collect_params().initialize(mx.init.Xavier(), ctx=ctx)
g_net(noise0)
fill(g_net, 0.3, seed=2)
sloss = gluon.loss.SigmoidBinaryCrossEntropyLoss()
g_trainer = gluon.Trainer(g_net.collect_params(), 'Adam',
                          {'learning_rate': 0.001, 'beta1': 0.5, 'clip_gradient': 10.0})
d_trainer = gluon.Trainer(d_net.collect_params(), 'Adam',
                          {'learning_rate': 0.001, 'beta1': 0.5, 'clip_gradient': 10.0})
g_net.collect_params().zero_grad()
d_net.collect_params().zero_grad()
metric = mx.metric.CustomMetric(facc)
print('metric', metric.name)
real_label = nd.ones(B, ctx)
fake_label = nd.zeros(B, ctx)
data = real0[:, :, 4:12, 4:12]
for i in range(2):
    with autograd.record():
        output = d_net(data).reshape((-1, 1))
        errD_real = sloss(output, real_label)
        metric.update([real_label, ], [output, ])
        fake_image = g_net(noise0)
        output = d_net(fake_image.detach()).reshape((-1, 1))
        errD_fake = sloss(output, fake_label)
        errD = errD_real + errD_fake
        errD.backward()
        metric.update([fake_label, ], [output, ])
    d_trainer.step(B)
    with autograd.record():
        fake_image = g_net(noise0)
        output = d_net(fake_image).reshape(-1, 1)
        errG = sloss(output, real_label)
        errG.backward()
    g_trainer.step(B)
    name, acc = metric.get()
    print(i, r(nd.mean(errD).asscalar()), r(nd.mean(errG).asscalar()), name, r(acc))
    print('  u', r(d_net[0].u.data()), 'u grad', r(d_net[0].u.grad()))
metric.reset()
attempt('facc metric after reset', lambda: metric.get())
