"""MXNet 1.9's Gluon tutorials, image/ (mnist, info_gan) and training/fit_api_tutorial, on tiny
synthetic data with fixed weights (no downloads)."""
import logging
import os
import warnings

# MXNet 1.9.1's oneDNN build fails the hybridized generator's backward (`Check failed: !is_view`,
# docs/MIGRATING.md): the reference output is made with oneDNN off; gluonjax ignores the variable
os.environ.setdefault('MXNET_MKLDNN_ENABLED', '0')

import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn
from mxnet.gluon.contrib.estimator import Estimator, TrainBegin, TrainEnd, EpochEnd, BatchEnd, \
    CheckpointHandler, EarlyStoppingHandler
import tempfile

warnings.simplefilter('ignore')
logging.getLogger().setLevel(logging.ERROR)


def r(x, k=4):
    return (x.asnumpy().round(k) + 0).tolist()


def fixed(net, scale=0.2):
    for k, (name, prm) in enumerate(sorted(net.collect_params().items())):
        if prm.grad_req == 'null' and ('running' in name or 'moving' in name):
            continue
        n = prm.data().size
        prm.set_data(nd.array(np.cos(np.arange(n) * 0.37 + k).reshape(prm.shape) * scale))


# ---- image/mnist.md: MLP and LeNet on 28 x 28 digits (synthetic stand-ins)
rng = np.random.RandomState(0)
n = 32
train_label = np.arange(n) % 10
train_data = np.zeros((n, 1, 28, 28), dtype='float32')
for i in range(n):
    d = train_label[i]
    train_data[i, 0, 2 * d:2 * d + 8, 4:24] = 1.0
    train_data[i, 0, :, 3 * (i % 5)] += 0.3
mnist = {'train_data': train_data, 'train_label': train_label.astype('float32'),
         'test_data': train_data[:16], 'test_label': train_label[:16].astype('float32')}
batch_size = 8
train_iter = mx.io.NDArrayIter(mnist['train_data'], mnist['train_label'], batch_size, shuffle=False)
val_iter = mx.io.NDArrayIter(mnist['test_data'], mnist['test_label'], batch_size)
print(train_iter.provide_data, train_iter.provide_label)
net = nn.Sequential()
with net.name_scope():
    net.add(nn.Dense(128, activation='relu'))
    net.add(nn.Dense(64, activation='relu'))
    net.add(nn.Dense(10))
gpus = mx.test_utils.list_gpus()
ctx = [mx.gpu()] if gpus else [mx.cpu(0), mx.cpu(1)]
print(len(ctx))
ctx = [mx.cpu(0)]
net.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
net(nd.array(train_data[:1]))
fixed(net, 0.05)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.02})
epoch = 3
softmax_cross_entropy_loss = gluon.loss.SoftmaxCrossEntropyLoss()
metric = mx.metric.Accuracy()
for i in range(epoch):
    train_iter.reset()
    for batch in train_iter:
        data = gluon.utils.split_and_load(batch.data[0], ctx_list=ctx, batch_axis=0)
        label = gluon.utils.split_and_load(batch.label[0], ctx_list=ctx, batch_axis=0)
        outputs = []
        with autograd.record():
            for x, y in zip(data, label):
                z = net(x)
                loss = softmax_cross_entropy_loss(z, y)
                loss.backward()
                outputs.append(z)
        metric.update(label, outputs)
        trainer.step(batch.data[0].shape[0])
    name, acc = metric.get()
    metric.reset()
    print('training acc at epoch %d: %s=%.3f' % (i, name, acc), round(loss.mean().asscalar(), 3))
metric = mx.metric.Accuracy()
val_iter.reset()
for batch in val_iter:
    data = gluon.utils.split_and_load(batch.data[0], ctx_list=ctx, batch_axis=0)
    label = gluon.utils.split_and_load(batch.label[0], ctx_list=ctx, batch_axis=0)
    outputs = [net(x) for x in data]
    metric.update(label, outputs)
print('validation acc: %s=%.3f' % metric.get())

net = nn.Sequential()
with net.name_scope():
    net.add(nn.Conv2D(channels=4, kernel_size=5, activation='tanh'))
    net.add(nn.MaxPool2D(pool_size=2, strides=2))
    net.add(nn.Conv2D(channels=6, kernel_size=5, activation='tanh'))
    net.add(nn.MaxPool2D(pool_size=2, strides=2))
    net.add(nn.Flatten())
    net.add(nn.Dense(20, activation="tanh"))
    net.add(nn.Dense(10))
print(net)
net.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
net(nd.array(train_data[:1]))
fixed(net, 0.1)
print([(k, v.shape) for k, v in net.collect_params().items()])
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.03})
metric = mx.metric.Accuracy()
for i in range(2):
    train_iter.reset()
    for batch in train_iter:
        x, y = batch.data[0], batch.label[0]
        with autograd.record():
            z = net(x)
            loss = softmax_cross_entropy_loss(z, y)
        loss.backward()
        metric.update([y], [z])
        trainer.step(x.shape[0])
    print('training acc at epoch %d: %s=%.3f' % ((i,) + metric.get()), round(loss.mean().asscalar(), 3))
    metric.reset()
print(r(net(nd.array(train_data[:2])), 2))

# ---- image/info_gan.md: generator, discriminator with Q heads, one training step each
latent_z_size, n_continuous, n_categories = 6, 2, 3


class Generator(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(Generator, self).__init__(**kwargs)
        with self.name_scope():
            self.prev = nn.HybridSequential()
            self.prev.add(nn.Dense(32, use_bias=False), nn.BatchNorm(), nn.Activation('relu'))
            self.G = nn.HybridSequential()
            self.G.add(nn.Conv2DTranspose(8, 4, 1, 0, use_bias=False))
            self.G.add(nn.BatchNorm())
            self.G.add(nn.Activation('relu'))
            self.G.add(nn.Conv2DTranspose(4, 4, 2, 1, use_bias=False))
            self.G.add(nn.BatchNorm())
            self.G.add(nn.Activation('relu'))
            self.G.add(nn.Conv2DTranspose(1, 4, 2, 1, use_bias=False))
            self.G.add(nn.Activation('tanh'))

    def hybrid_forward(self, F, x):
        x = self.prev(x)
        x = F.reshape(x, (-2, 1, 1))
        return self.G(x)


class Discriminator(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(Discriminator, self).__init__(**kwargs)
        with self.name_scope():
            self.D = nn.HybridSequential()
            self.D.add(nn.Conv2D(4, 4, 2, 1, use_bias=False))
            self.D.add(nn.LeakyReLU(0.2))
            self.D.add(nn.Conv2D(8, 4, 2, 1, use_bias=False))
            self.D.add(nn.BatchNorm())
            self.D.add(nn.LeakyReLU(0.2))
            self.D.add(nn.Conv2D(8, 4, 1, 0, use_bias=False))
            self.D.add(nn.BatchNorm())
            self.D.add(nn.LeakyReLU(0.2))
            self.prob = nn.Dense(1)
            self.feat = nn.HybridSequential()
            self.feat.add(nn.Dense(16, use_bias=False), nn.BatchNorm(), nn.LeakyReLU(0.2))
            self.category_prob = nn.Dense(n_categories)
            self.continuous_mean = nn.Dense(n_continuous)
            self.Q = nn.HybridSequential()
            self.Q.add(self.feat, self.category_prob, self.continuous_mean)

    def hybrid_forward(self, F, x):
        x = self.D(x)
        prob = self.prob(x)
        feat = self.feat(x)
        category_prob = self.category_prob(feat)
        continuous_mean = self.continuous_mean(feat)
        return prob, category_prob, continuous_mean


generator = Generator()
discriminator = Discriminator()
generator.initialize(mx.init.Normal(0.02))
discriminator.initialize(mx.init.Normal(0.02))
z = nd.array(np.sin(np.arange(2 * (latent_z_size + n_continuous + n_categories))).reshape(2, -1))
fake = generator(z)
print(fake.shape, [o.shape for o in discriminator(fake)])
fixed(generator, 0.1)
fixed(discriminator, 0.1)
print(sorted(generator.collect_params().keys())[:4], len(list(discriminator.collect_params().keys())))
print(discriminator.Q)
generator.hybridize()
discriminator.hybridize()
lr, beta1 = 0.002, 0.5
g_trainer = gluon.Trainer(generator.collect_params(), 'adam', {'learning_rate': lr, 'beta1': beta1})
d_trainer = gluon.Trainer(discriminator.D.collect_params(), 'adam', {'learning_rate': lr, 'beta1': beta1})
q_trainer = gluon.Trainer(discriminator.Q.collect_params(), 'adam', {'learning_rate': lr, 'beta1': beta1})
loss1 = gluon.loss.SigmoidBinaryCrossEntropyLoss()
loss2 = gluon.loss.L2Loss()
loss3 = gluon.loss.SoftmaxCrossEntropyLoss()
real = nd.array(np.cos(np.arange(2 * 16 * 16) * 0.1).reshape(2, 1, 16, 16))
real_label = nd.ones((2,))
fake_label = nd.zeros((2,))
categories = nd.array([0, 2])
c_cont = nd.array([[0.5, -0.5], [0.1, 0.3]])
noise = nd.concat(z[:, :latent_z_size], nd.one_hot(categories, n_categories), c_cont, dim=1)
for step in range(2):
    with autograd.record():
        output = discriminator(real)[0]
        errD_real = loss1(output, real_label)
        fake_image = generator(noise)
        output, _, _ = discriminator(fake_image.detach())
        errD_fake = loss1(output, fake_label)
        errD = errD_real + errD_fake
        errD.backward()
    d_trainer.step(2)
    with autograd.record():
        fake_image = generator(noise)
        output, category_prob, continuous_mean = discriminator(fake_image)
        errG = loss1(output, real_label) + loss3(category_prob, categories) + loss2(c_cont, continuous_mean)
        errG.backward()
    g_trainer.step(2)
    q_trainer.step(2)
    print(step, round(errD.mean().asscalar(), 3), round(errG.mean().asscalar(), 3), fake_image.shape)

# ---- training/fit_api_tutorial.md: Estimator with handlers on the small data
loader = gluon.data.DataLoader(gluon.data.ArrayDataset(nd.array(train_data), nd.array(train_label)), batch_size=8)
net = nn.HybridSequential()
net.add(nn.Flatten(), nn.Dense(10))
net.initialize()
net(nd.array(train_data[:1]))
fixed(net, 0.01)
net.hybridize()
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.05})
train_acc = mx.metric.Accuracy()


class PrintingHandler(TrainBegin, TrainEnd, EpochEnd, BatchEnd):
    def __init__(self):
        self.batches = 0

    def train_begin(self, estimator, *args, **kwargs):
        print('train_begin', estimator.max_epoch, estimator.max_batch)

    def batch_end(self, estimator, *args, **kwargs):
        self.batches += 1
        if self.batches % 4 == 0:
            print('batch', self.batches, round(kwargs['loss'][0].mean().asscalar(), 3), kwargs['label'][0].shape)

    def epoch_end(self, estimator, *args, **kwargs):
        print('epoch_end', [(m.get()[0], round(m.get()[1], 3)) for m in estimator.train_metrics])

    def train_end(self, estimator, *args, **kwargs):
        print('train_end', self.batches)


est = Estimator(net=net, loss=loss_fn, train_metrics=train_acc, trainer=trainer, context=mx.cpu())
est.logger.setLevel(logging.ERROR)
est.fit(train_data=loader, epochs=2, event_handlers=[PrintingHandler()])
print(r(net[1].bias.data(), 3))
est.fit(train_data=loader, batches=3, event_handlers=[PrintingHandler()])


# the tutorial's LossRecordHandler and a CheckpointHandler saving the best model
class LossRecordHandler(TrainBegin, TrainEnd, EpochEnd):
    def __init__(self):
        super(LossRecordHandler, self).__init__()
        self.loss_history = {}

    def train_begin(self, estimator, *args, **kwargs):
        print("Training begin")

    def train_end(self, estimator, *args, **kwargs):
        print("Training ended")
        for loss_name in self.loss_history:
            for i, loss_val in enumerate(self.loss_history[loss_name]):
                print("Epoch: {}, Loss name: {}, Loss value: {:.3f}".format(i, loss_name, loss_val))

    def epoch_end(self, estimator, *args, **kwargs):
        for metric in estimator.train_metrics:
            if isinstance(metric, mx.metric.Loss):
                loss_name, loss_val = metric.get()
                self.loss_history.setdefault(loss_name, []).append(loss_val)


try:
    Estimator(net=net, loss=loss_fn, metrics=train_acc, trainer=trainer, context=mx.cpu())
except Exception as e:
    print(type(e).__name__)
net.initialize(force_reinit=True, init=mx.init.Xavier())
fixed(net, 0.01)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.05})
train_acc = mx.metric.Accuracy()
est = Estimator(net=net, loss=loss_fn, train_metrics=train_acc, trainer=trainer, context=mx.cpu())
est.logger.setLevel(logging.ERROR)
model_dir = tempfile.mkdtemp()
checkpoint_handler = CheckpointHandler(model_dir=model_dir, model_prefix='my_model', monitor=train_acc, save_best=True)
est.fit(train_data=loader, val_data=loader, epochs=2, event_handlers=[checkpoint_handler, LossRecordHandler()])
print(sorted(os.listdir(model_dir)))
print([m.name for m in est.train_metrics], [m.name for m in est.val_metrics])
print([(m.get()[0], round(m.get()[1], 3)) for m in est.val_metrics])
net2 = nn.HybridSequential()
net2.add(nn.Flatten(), nn.Dense(10))
net2.load_parameters(os.path.join(model_dir, 'my_model-best.params'), ctx=mx.cpu())
print(r(net2[1].bias.data(), 3) == r(net[1].bias.data(), 3))
print([(m.get()[0], round(m.get()[1], 3)) for m in est.evaluate(loader, batch_axis=0) or est.val_metrics])
