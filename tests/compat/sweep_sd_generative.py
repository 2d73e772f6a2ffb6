"""The Straight Dope, chapters 13-14 (generative models): the GAN on 2-D data (Dense generator and
discriminator, two Trainers, detach, CustomMetric), DCGAN's Conv2DTranspose/LeakyReLU/BatchNorm
networks with SigmoidBinaryCrossEntropyLoss, pix2pix's U-Net skip unit with per-name parameter
initialisation, and the VAE as a HybridBlock (split, exp, log, sums, random_normal)."""
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon
from mxnet.gluon import nn
from _sd_common import pat, fill, r, show, attempt

ctx = mx.cpu()
print('== gan on 2-d data')
X = nd.dot(pat((16, 2), 0, 1.0), nd.array([[1, 2], [-0.1, 0.5]])) + nd.array([1, 2])
batch_size = 4
train_data = mx.io.NDArrayIter(X, nd.zeros((16,)), batch_size, shuffle=False)
print(train_data.provide_data)
netG = nn.Sequential()
with netG.name_scope():
    netG.add(nn.Dense(2))
netD = nn.Sequential()
with netD.name_scope():
    netD.add(nn.Dense(5, activation='tanh'))
    netD.add(nn.Dense(3, activation='tanh'))
    netD.add(nn.Dense(2))
loss = gluon.loss.SoftmaxCrossEntropyLoss()
netG.initialize(mx.init.Normal(0.02), ctx=ctx)
netD.initialize(mx.init.Normal(0.02), ctx=ctx)
netG(nd.zeros((1, 2)))
netD(nd.zeros((1, 2)))
fill(netG.collect_params(), 0.5)
fill(netD.collect_params(), 0.5)
trainerG = gluon.Trainer(netG.collect_params(), 'adam', {'learning_rate': 0.01, 'beta1': 0.5})
trainerD = gluon.Trainer(netD.collect_params(), 'adam', {'learning_rate': 0.01, 'beta1': 0.5})
real_label = mx.nd.ones((batch_size,), ctx=ctx)
fake_label = mx.nd.zeros((batch_size,), ctx=ctx)
metric = mx.metric.Accuracy()
for epoch in range(2):
    train_data.reset()
    i = 0
    for batch in train_data:
        data = batch.data[0].as_in_context(ctx)
        noise = pat((batch_size, 2), epoch * 10 + i, 1.0)
        with autograd.record():
            real_output = netD(data)
            errD_real = loss(real_output, real_label)
            fake = netG(noise)
            fake_output = netD(fake.detach())
            errD_fake = loss(fake_output, fake_label)
            errD = errD_real + errD_fake
            errD.backward()
        trainerD.step(batch_size)
        metric.update([real_label, ], [real_output, ])
        metric.update([fake_label, ], [fake_output, ])
        with autograd.record():
            output = netD(fake)
            errG = loss(output, real_label)
            errG.backward()
        trainerG.step(batch_size)
        i += 1
    name, acc = metric.get()
    metric.reset()
    print('epoch %d: %s=%.4f errD %.4f errG %.4f' % (epoch, name, acc, nd.mean(errD).asscalar(),
                                                     nd.mean(errG).asscalar()))
print(r(netG[0].weight.data()), r(netG(pat((2, 2), 3))))


def facc(label, pred):
    pred = pred.ravel()
    label = label.ravel()
    return ((pred > 0.5) == label).mean()


cm = mx.metric.CustomMetric(facc)
cm.update([nd.array([1, 0, 1])], [nd.array([0.9, 0.7, 0.2])])
print(cm.get(), cm.name)

print('== dcgan')
nc, ngf, ndf = 1, 4, 4
netG = nn.Sequential()
with netG.name_scope():
    netG.add(nn.Conv2DTranspose(ngf * 2, 4, 1, 0, use_bias=False))
    netG.add(nn.BatchNorm())
    netG.add(nn.Activation('relu'))
    netG.add(nn.Conv2DTranspose(ngf, 4, 2, 1, use_bias=False))
    netG.add(nn.BatchNorm())
    netG.add(nn.Activation('relu'))
    netG.add(nn.Conv2DTranspose(nc, 4, 2, 1, use_bias=False))
    netG.add(nn.Activation('tanh'))
netD = nn.Sequential()
with netD.name_scope():
    netD.add(nn.Conv2D(ndf, 4, 2, 1, use_bias=False))
    netD.add(nn.LeakyReLU(0.2))
    netD.add(nn.Conv2D(ndf * 2, 4, 2, 1, use_bias=False))
    netD.add(nn.BatchNorm())
    netD.add(nn.LeakyReLU(0.2))
    netD.add(nn.Conv2D(1, 4, 1, 0, use_bias=False))
loss = gluon.loss.SigmoidBinaryCrossEntropyLoss()
netG.initialize(mx.init.Normal(0.02), ctx=ctx)
netD.initialize(mx.init.Normal(0.02), ctx=ctx)
latent_z_size = 3
latent_z = pat((2, latent_z_size, 1, 1), 1, 1.0)
fake = netG(latent_z)
print(fake.shape, netD(fake).shape)
fill(netG.collect_params(), 0.3)
fill(netD.collect_params(), 0.3)
print(netG)
print(netD)
trainerG = gluon.Trainer(netG.collect_params(), 'adam', {'learning_rate': 0.0002, 'beta1': 0.5})
trainerD = gluon.Trainer(netD.collect_params(), 'adam', {'learning_rate': 0.0002, 'beta1': 0.5})
real_label = nd.ones((2,), ctx=ctx)
fake_label = nd.zeros((2,), ctx=ctx)
real = nd.tanh(pat((2, 1, 16, 16), 2, 2.0))


def facc(label, pred):
    pred = pred.ravel()
    label = label.ravel()
    return ((pred > 0.5) == label).mean()


metric = mx.metric.CustomMetric(facc)
for step in range(2):
    with autograd.record():
        output = netD(real).reshape((-1, 1))
        errD_real = loss(output, real_label)
        metric.update([real_label, ], [output, ])
        fake = netG(latent_z)
        output = netD(fake.detach()).reshape((-1, 1))
        errD_fake = loss(output, fake_label)
        errD = errD_real + errD_fake
        errD.backward()
        metric.update([fake_label, ], [output, ])
    trainerD.step(2)
    with autograd.record():
        fake = netG(latent_z)
        output = netD(fake).reshape((-1, 1))
        errG = loss(output, real_label)
        errG.backward()
    trainerG.step(2)
    print('step %d errD %.4f errG %.4f %s' % (step, nd.mean(errD).asscalar(), nd.mean(errG).asscalar(), metric.get()))
print(r(netG[1].running_mean.data()), r(netD[3].running_var.data()))
show('fake', netG(latent_z))

print('== pix2pix skip unit')


class UnetSkipUnit(nn.HybridBlock):
    def __init__(self, inner_channels, outer_channels, inner_block=None, innermost=False, outermost=False,
                 use_dropout=False, use_bias=False):
        super(UnetSkipUnit, self).__init__()
        with self.name_scope():
            self.outermost = outermost
            en_conv = nn.Conv2D(channels=inner_channels, kernel_size=4, strides=2, padding=1,
                                in_channels=outer_channels, use_bias=use_bias)
            en_relu = nn.LeakyReLU(alpha=0.2)
            en_norm = nn.BatchNorm(momentum=0.1, in_channels=inner_channels)
            de_relu = nn.Activation(activation='relu')
            de_norm = nn.BatchNorm(momentum=0.1, in_channels=outer_channels)
            if innermost:
                de_conv = nn.Conv2DTranspose(channels=outer_channels, kernel_size=4, strides=2, padding=1,
                                             in_channels=inner_channels, use_bias=use_bias)
                encoder = [en_relu, en_conv]
                decoder = [de_relu, de_conv, de_norm]
                model = encoder + decoder
            elif outermost:
                de_conv = nn.Conv2DTranspose(channels=outer_channels, kernel_size=4, strides=2, padding=1,
                                             in_channels=inner_channels * 2)
                encoder = [en_conv]
                decoder = [de_relu, de_conv, nn.Activation(activation='tanh')]
                model = encoder + [inner_block] + decoder
            else:
                de_conv = nn.Conv2DTranspose(channels=outer_channels, kernel_size=4, strides=2, padding=1,
                                             in_channels=inner_channels * 2, use_bias=use_bias)
                encoder = [en_relu, en_conv, en_norm]
                decoder = [de_relu, de_conv, de_norm]
                model = encoder + [inner_block] + decoder
            if use_dropout:
                model += [nn.Dropout(rate=0.5)]
            self.model = nn.HybridSequential()
            with self.model.name_scope():
                for block in model:
                    self.model.add(block)

    def hybrid_forward(self, F, x):
        if self.outermost:
            return self.model(x)
        else:
            return F.concat(self.model(x), x, dim=1)


class UnetGenerator(nn.HybridBlock):
    def __init__(self, in_channels, num_downs, ngf=4, use_dropout=True):
        super(UnetGenerator, self).__init__()
        unet = UnetSkipUnit(ngf * 2, ngf * 2, innermost=True)
        for _ in range(num_downs - 3):
            unet = UnetSkipUnit(ngf * 2, ngf * 2, unet, use_dropout=use_dropout)
        unet = UnetSkipUnit(ngf * 2, ngf, unet)
        unet = UnetSkipUnit(ngf, in_channels, unet, outermost=True)
        with self.name_scope():
            self.model = unet

    def hybrid_forward(self, F, x):
        return self.model(x)


def param_init(param, ctx):
    if param.name.find('conv') != -1:
        if param.name.find('weight') != -1:
            param.initialize(init=mx.init.Normal(0.02), ctx=ctx)
        else:
            param.initialize(init=mx.init.Zero(), ctx=ctx)
    elif param.name.find('batchnorm') != -1:
        param.initialize(init=mx.init.Zero(), ctx=ctx)
        if param.name.find('gamma') != -1:
            param.set_data(nd.ones(param.data().shape) * 1.02)


netG = UnetGenerator(in_channels=3, num_downs=4, use_dropout=False)
for param in netG.collect_params():
    param_init(netG.collect_params()[param], ctx)
print(sorted(netG.collect_params().keys())[:8])
print([(k, r(v.data())[:2]) for k, v in sorted(netG.collect_params().items()) if 'gamma' in k or 'bias' in k][:4])
fill(netG.collect_params(), 0.2)
img = pat((1, 3, 32, 32), 4, 1.0)
out = netG(img)
show('unet', out)
netG.hybridize()
show('unet hybridized', netG(img))
print(r(gluon.loss.L1Loss()(netG(img), img)))  # (MXNet 1.9.1 with oneDNN dies of SIGFPE in this net's backward)
print(r(nd.concat(nd.ones((1, 2, 2, 2)), nd.zeros((1, 1, 2, 2)), dim=1).sum(axis=(0, 2, 3))))

print('== vae')
model_ctx = ctx


class VAE(gluon.HybridBlock):
    def __init__(self, n_hidden=8, n_latent=2, n_layers=1, n_output=12, batch_size=4, act_type='relu', **kwargs):
        self.soft_zero = 1e-10
        self.n_latent = n_latent
        self.batch_size = batch_size
        self.output = None
        self.mu = None
        super(VAE, self).__init__(**kwargs)
        with self.name_scope():
            self.encoder = nn.HybridSequential(prefix='encoder')
            for i in range(n_layers):
                self.encoder.add(nn.Dense(n_hidden, activation=act_type))
            self.encoder.add(nn.Dense(n_latent * 2, activation=None))
            self.decoder = nn.HybridSequential(prefix='decoder')
            for i in range(n_layers):
                self.decoder.add(nn.Dense(n_hidden, activation=act_type))
            self.decoder.add(nn.Dense(n_output, activation='sigmoid'))

    def hybrid_forward(self, F, x):
        h = self.encoder(x)
        mu_lv = F.split(h, axis=1, num_outputs=2)
        mu = mu_lv[0]
        lv = mu_lv[1]
        self.mu = mu
        eps = F.random_normal(loc=0, scale=1, shape=(self.batch_size, self.n_latent), ctx=model_ctx)
        z = mu + F.exp(0.5 * lv) * eps
        y = self.decoder(z)
        self.output = y
        KL = 0.5 * F.sum(1 + lv - mu * mu - F.exp(lv), axis=1)
        logloss = F.sum(x * F.log(y + self.soft_zero) + (1 - x) * F.log(1 - y + self.soft_zero), axis=1)
        loss = -logloss - KL
        return loss


net = VAE()
net.collect_params().initialize(mx.init.Xavier(), ctx=model_ctx)
data = nd.sigmoid(pat((4, 12), 5, 2.0))
loss = net(data)
print(loss.shape, sorted(net.collect_params().keys()))
fill(net.collect_params(), 0.3)
loss = net(data)
print(type(net.mu).__name__, r(net.mu), net.output.shape, bool(nd.min(loss).asscalar() > 0))
trainer = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': .001})
with autograd.record():
    loss = net(data)
loss.backward()
trainer.step(data.shape[0])
print(loss.shape, net.encoder[0].weight.grad().shape, bool(np.isfinite(net.encoder[0].weight.grad().asnumpy()).all()))
net.hybridize()
loss = net(data)
print(loss.shape, type(net.mu).__name__, net.mu.name if hasattr(net.mu, 'name') else None)
print(net)
print(r(nd.split(nd.arange(8).reshape((2, 4)), axis=1, num_outputs=2)[1]))
