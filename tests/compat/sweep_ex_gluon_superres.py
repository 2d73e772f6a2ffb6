"""MXNet 1.9's example/gluon super_resolution (super_resolution.py, ../data.py ImagePairIter) on
tiny synthetic images: the sub-pixel rearrangement, the augmenters, a DataIter subclass behind
PrefetchingIter, split_and_load, Orthogonal initialisation, L2Loss with Adam, MSE and PSNR."""
import math
import os
import tempfile

import numpy as onp
import mxnet as mx
from mxnet import gluon, autograd as ag, nd
from mxnet.gluon import nn
from mxnet.image import CenterCropAug, ResizeAug
from mxnet.io import PrefetchingIter
from _ex_gluon import fill, r, show, attempt, params_of

upscale_factor = 2
crop_size = 8
input_crop_size = crop_size // upscale_factor

print('== augmenters')
input_transform = [CenterCropAug((crop_size, crop_size)), ResizeAug(input_crop_size)]
target_transform = [CenterCropAug((crop_size, crop_size))]
im = nd.array((onp.arange(10 * 12).reshape(10, 12, 1) * 2) % 256, dtype='uint8')
x = im
for aug in input_transform:
    x = aug(x)
    print(type(aug).__name__, x.shape, x.dtype.__name__)
show('input', x[:, :, 0])
t = im
for aug in target_transform:
    t = aug(t)
print('target', t.shape, int(t.asnumpy().sum()))
print(CenterCropAug((4, 4)).dumps(), ResizeAug(3).dumps())


class ImagePairIter(mx.io.DataIter):
    """The example's iterator, over arrays instead of image files."""
    def __init__(self, images, data_shape, label_shape, batch_size=2, input_aug=None, target_aug=None):
        super(ImagePairIter, self).__init__(batch_size)
        self.data_shape = (batch_size,) + data_shape
        self.label_shape = (batch_size,) + label_shape
        self.input_aug = input_aug
        self.target_aug = target_aug
        self.provide_data = [('data', self.data_shape)]
        self.provide_label = [('label', self.label_shape)]
        self.images = images
        self.count = 0

    def next(self):
        if self.count + self.batch_size <= len(self.images):
            data = []
            label = []
            for i in range(self.batch_size):
                image = self.images[self.count]
                self.count += 1
                image = nd.expand_dims(nd.array(image, dtype='uint8'), axis=2)
                target = image.copy()
                for aug in self.input_aug:
                    image = aug(image)
                for aug in self.target_aug:
                    target = aug(target)
                data.append(image)
                label.append(target)
            data = nd.concat(*[nd.expand_dims(d, axis=0) for d in data], dim=0)
            label = nd.concat(*[nd.expand_dims(d, axis=0) for d in label], dim=0)
            data = [nd.transpose(data, axes=(0, 3, 1, 2)).astype('float32') / 255]
            label = [nd.transpose(label, axes=(0, 3, 1, 2)).astype('float32') / 255]
            return mx.io.DataBatch(data=data, label=label)
        else:
            raise StopIteration

    def reset(self):
        self.count = 0


rs = onp.random.RandomState(3)
images = [rs.randint(0, 256, size=(10, 9)) for _ in range(4)]
train_data = ImagePairIter(images, (1, input_crop_size, input_crop_size), (1, crop_size, crop_size), 2,
                           input_transform, target_transform)
print('provide', train_data.provide_data, train_data.provide_label)
batches = list(train_data)
print('batches', len(batches), batches[0].data[0].shape, batches[0].label[0].shape,
      r(batches[0].data[0].sum(), 3), r(batches[1].label[0].mean(), 4))
train_data.reset()
pre = PrefetchingIter(train_data)
print('prefetch provide', pre.provide_data, pre.provide_label)
n = 0
for batch in pre:
    n += 1
    last = batch
print('prefetched', n, r(last.data[0].sum(), 3))
pre.reset()
print('after reset', r(next(pre).label[0].sum(), 3))


def _rearrange(raw, F, upscale_factor):
    # (N, C * r^2, H, W) -> (N, C, r^2, H, W)
    splitted = F.reshape(raw, shape=(0, -4, -1, upscale_factor ** 2, 0, 0))
    # (N, C, r^2, H, W) -> (N, C, r, r, H, W)
    unflatten = F.reshape(splitted, shape=(0, 0, -4, upscale_factor, upscale_factor, 0, 0))
    # (N, C, r, r, H, W) -> (N, C, H, r, W, r)
    swapped = F.transpose(unflatten, axes=(0, 1, 4, 2, 5, 3))
    # (N, C, H, r, W, r) -> (N, C, H*r, W*r)
    return F.reshape(swapped, shape=(0, 0, -3, -3))


print('== rearrange')
raw = nd.arange(2 * 8 * 2 * 3).reshape((2, 8, 2, 3))
out = _rearrange(raw, nd, 2)
show('nd', out[0, 1])
sym = _rearrange(mx.sym.var('x'), mx.sym, 2)
print(sym.infer_shape(x=(2, 8, 2, 3))[1])
print([a['op'] for a in __import__('json').loads(sym.tojson())['nodes']])


class SuperResolutionNet(gluon.HybridBlock):
    def __init__(self, upscale_factor):
        super(SuperResolutionNet, self).__init__()
        with self.name_scope():
            self.conv1 = nn.Conv2D(8, (5, 5), strides=(1, 1), padding=(2, 2))
            self.conv2 = nn.Conv2D(8, (3, 3), strides=(1, 1), padding=(1, 1))
            self.conv3 = nn.Conv2D(4, (3, 3), strides=(1, 1), padding=(1, 1))
            self.conv4 = nn.Conv2D(upscale_factor ** 2, (3, 3), strides=(1, 1), padding=(1, 1))
        self.upscale_factor = upscale_factor

    def hybrid_forward(self, F, x):
        x = F.Activation(self.conv1(x), act_type='relu')
        x = F.Activation(self.conv2(x), act_type='relu')
        x = F.Activation(self.conv3(x), act_type='relu')
        return _rearrange(self.conv4(x), F, self.upscale_factor)


print('== net and Orthogonal init')
ctx = [mx.cpu(0)]
net = SuperResolutionNet(upscale_factor)
print(net)
net.initialize(mx.init.Orthogonal(), ctx=ctx)
net.conv4.initialize(mx.init.Orthogonal(scale=1), force_reinit=True, ctx=ctx)
net(batches[0].data[0])
params_of(net)
w = net.conv4.weight.data().reshape((4, -1))
print('conv4 rows orthonormal', r(nd.dot(w, w.T), 3))
w1 = net.conv1.weight.data().reshape((8, -1))
print('conv1 rows scaled', r((nd.dot(w1, w1.T) / 1.414 ** 2), 2))
fill(net, 0.2)

print('== training')
metric = mx.metric.MSE()
trainer = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.01})
loss = gluon.loss.L2Loss()
for i in range(2):
    train_data.reset()
    for batch in train_data:
        data = gluon.utils.split_and_load(batch.data[0], ctx_list=ctx, batch_axis=0)
        label = gluon.utils.split_and_load(batch.label[0], ctx_list=ctx, batch_axis=0)
        outputs = []
        with ag.record():
            for x, y in zip(data, label):
                z = net(x)
                L = loss(z, y)
                L.backward()
                outputs.append(z)
        trainer.step(batch.data[0].shape[0])
        metric.update(label, outputs)
        print('  loss', r(L))
    name, acc = metric.get()
    metric.reset()
    print('training mse at epoch %d: %s=%.5f' % (i, name, acc))

train_data.reset()
avg_psnr = 0
batches = 0
for batch in train_data:
    batches += 1
    data = gluon.utils.split_and_load(batch.data[0], ctx_list=ctx, batch_axis=0)
    label = gluon.utils.split_and_load(batch.label[0], ctx_list=ctx, batch_axis=0)
    outputs = [net(x) for x in data]
    metric.update(label, outputs)
    avg_psnr += 10 * math.log10(1 / metric.get()[1])
    metric.reset()
print('validation avg psnr: %.3f' % (avg_psnr / batches))

print('== hybridized, save, resolve')
net.hybridize()
train_data.reset()
h = net(next(iter(train_data)).data[0])
print('hybrid', h.shape, r(h.sum(), 3))
with tempfile.TemporaryDirectory() as tmp:
    f = os.path.join(tmp, 'superres.params')
    net.save_parameters(f)
    net2 = SuperResolutionNet(upscale_factor)
    net2.load_parameters(f, ctx=ctx)
    y = nd.array(images[0][:4, :4])
    data = mx.nd.expand_dims(mx.nd.expand_dims(y, axis=0), axis=0)
    out_img_y = mx.nd.reshape(net2(data), shape=(-3, -2)).asnumpy()
    out_img_y = out_img_y.clip(0, 255)
    print('resolved', out_img_y.shape, onp.uint8(out_img_y[0]).tolist()[0])
attempt('split_and_load uneven strict', lambda: gluon.utils.split_and_load(
    nd.ones((3, 2)), [mx.cpu(0), mx.cpu(1)], even_split=True))
print([a.shape for a in gluon.utils.split_and_load(nd.ones((3, 2)), [mx.cpu(0), mx.cpu(1)],
                                                  even_split=False)])
