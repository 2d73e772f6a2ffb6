"""MXNet 1.9's example/gluon style_transfer (net.py, utils.py, main.py) at toy sizes: the
user-written InstanceNorm, reflectance padding, nearest upsampling, pre-activation bottlenecks,
the Gram matrix and Inspiration layer of MSG-Net, the ImageNet mean helpers, a small VGG-like
feature extractor loaded through ParameterDict.load, and both training loops (the network's and
the optimisation of an image Parameter)."""
import os
import tempfile

import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn, Block, HybridBlock, Parameter
import mxnet.ndarray as F
from _ex_gluon import fill, r, show, attempt, params_of


class InstanceNorm(HybridBlock):
    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=False,
                 beta_initializer='zeros', gamma_initializer='ones', in_channels=0, **kwargs):
        super(InstanceNorm, self).__init__(**kwargs)
        self._kwargs = {'eps': epsilon}
        if in_channels != 0:
            self.in_channels = in_channels
        self.gamma = self.params.get('gamma', grad_req='write' if scale else 'null',
                                     shape=(in_channels,), init=gamma_initializer,
                                     allow_deferred_init=True)
        self.beta = self.params.get('beta', grad_req='write' if center else 'null',
                                    shape=(in_channels,), init=beta_initializer,
                                    allow_deferred_init=True)

    def hybrid_forward(self, f, x, gamma, beta):
        return f.InstanceNorm(x, gamma, beta, name='fwd', **self._kwargs)

    def __repr__(self):
        s = '{name}({content}'
        if hasattr(self, 'in_channels'):
            s += ', in_channels={0}'.format(self.in_channels)
        s += ')'
        return s.format(name=self.__class__.__name__,
                        content=', '.join(['='.join([k, v.__repr__()]) for k, v in self._kwargs.items()]))


class ReflectancePadding(HybridBlock):
    def __init__(self, pad_width=None, **kwargs):
        super(ReflectancePadding, self).__init__(**kwargs)
        self.pad_width = pad_width

    def hybrid_forward(self, F, x):
        return F.pad(x, mode='reflect', pad_width=self.pad_width)


class ConvLayer(Block):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        padding = int(onp.floor(kernel_size / 2))
        self.pad = ReflectancePadding(pad_width=(0, 0, 0, 0, padding, padding, padding, padding))
        self.conv2d = nn.Conv2D(in_channels=in_channels, channels=out_channels,
                                kernel_size=kernel_size, strides=(stride, stride), padding=0)

    def forward(self, x):
        return self.conv2d(self.pad(x))


class UpsampleConvLayer(Block):
    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = upsample
        self.reflection_padding = int(onp.floor(kernel_size / 2))
        self.conv2d = nn.Conv2D(in_channels=in_channels, channels=out_channels,
                                kernel_size=kernel_size, strides=(stride, stride),
                                padding=self.reflection_padding)

    def forward(self, x):
        if self.upsample:
            x = F.UpSampling(x, scale=self.upsample, sample_type='nearest')
        return self.conv2d(x)


class Bottleneck(Block):
    def __init__(self, inplanes, planes, stride=1, downsample=None, norm_layer=InstanceNorm):
        super(Bottleneck, self).__init__()
        self.expansion = 4
        self.downsample = downsample
        if self.downsample is not None:
            self.residual_layer = nn.Conv2D(in_channels=inplanes, channels=planes * self.expansion,
                                            kernel_size=1, strides=(stride, stride))
        self.conv_block = nn.Sequential()
        with self.conv_block.name_scope():
            self.conv_block.add(norm_layer(in_channels=inplanes))
            self.conv_block.add(nn.Activation('relu'))
            self.conv_block.add(nn.Conv2D(in_channels=inplanes, channels=planes, kernel_size=1))
            self.conv_block.add(norm_layer(in_channels=planes))
            self.conv_block.add(nn.Activation('relu'))
            self.conv_block.add(ConvLayer(planes, planes, kernel_size=3, stride=stride))
            self.conv_block.add(norm_layer(in_channels=planes))
            self.conv_block.add(nn.Activation('relu'))
            self.conv_block.add(nn.Conv2D(in_channels=planes, channels=planes * self.expansion,
                                          kernel_size=1))

    def forward(self, x):
        residual = self.residual_layer(x) if self.downsample is not None else x
        return residual + self.conv_block(x)


class UpBottleneck(Block):
    def __init__(self, inplanes, planes, stride=2, norm_layer=InstanceNorm):
        super(UpBottleneck, self).__init__()
        self.expansion = 4
        self.residual_layer = UpsampleConvLayer(inplanes, planes * self.expansion, kernel_size=1,
                                                stride=1, upsample=stride)
        self.conv_block = nn.Sequential()
        with self.conv_block.name_scope():
            self.conv_block.add(norm_layer(in_channels=inplanes))
            self.conv_block.add(nn.Activation('relu'))
            self.conv_block.add(nn.Conv2D(in_channels=inplanes, channels=planes, kernel_size=1))
            self.conv_block.add(norm_layer(in_channels=planes))
            self.conv_block.add(nn.Activation('relu'))
            self.conv_block.add(UpsampleConvLayer(planes, planes, kernel_size=3, stride=1, upsample=stride))
            self.conv_block.add(norm_layer(in_channels=planes))
            self.conv_block.add(nn.Activation('relu'))
            self.conv_block.add(nn.Conv2D(in_channels=planes, channels=planes * self.expansion,
                                          kernel_size=1))

    def forward(self, x):
        return self.residual_layer(x) + self.conv_block(x)


def gram_matrix(y):
    (b, ch, h, w) = y.shape
    features = y.reshape((b, ch, w * h))
    gram = F.batch_dot(features, features, transpose_b=True) / (ch * h * w)
    return gram


class GramMatrix(Block):
    def forward(self, x):
        return gram_matrix(x)


class Inspiration(Block):
    def __init__(self, C, B=1):
        super(Inspiration, self).__init__()
        self.C = C
        self.weight = self.params.get('weight', shape=(1, C, C), init=mx.initializer.Uniform(),
                                      allow_deferred_init=True)
        self.gram = F.random.uniform(shape=(B, C, C))

    def set_target(self, target):
        self.gram = target

    def forward(self, X):
        self.P = F.batch_dot(F.broadcast_to(self.weight.data(), shape=self.gram.shape), self.gram)
        return F.batch_dot(F.SwapAxis(self.P, 1, 2).broadcast_to((X.shape[0], self.C, self.C)),
                           X.reshape((0, 0, X.shape[2] * X.shape[3]))).reshape(X.shape)

    def __repr__(self):
        return self.__class__.__name__ + '(' + 'N x ' + str(self.C) + ')'


class Net(Block):
    def __init__(self, input_nc=3, output_nc=3, ngf=4, norm_layer=InstanceNorm, n_blocks=1):
        super(Net, self).__init__()
        self.gram = GramMatrix()
        block = Bottleneck
        upblock = UpBottleneck
        expansion = 4
        with self.name_scope():
            self.model1 = nn.Sequential()
            self.ins = Inspiration(ngf * expansion)
            self.model = nn.Sequential()
            self.model1.add(ConvLayer(input_nc, 8, kernel_size=7, stride=1))
            self.model1.add(norm_layer(in_channels=8))
            self.model1.add(nn.Activation('relu'))
            self.model1.add(block(8, 2, 2, 1, norm_layer))
            self.model1.add(block(2 * expansion, ngf, 2, 1, norm_layer))
            self.model.add(self.model1)
            self.model.add(self.ins)
            for i in range(n_blocks):
                self.model.add(block(ngf * expansion, ngf, 1, None, norm_layer))
            self.model.add(upblock(ngf * expansion, 2, 2, norm_layer))
            self.model.add(upblock(2 * expansion, 2, 2, norm_layer))
            self.model.add(norm_layer(in_channels=2 * expansion))
            self.model.add(nn.Activation('relu'))
            self.model.add(ConvLayer(2 * expansion, output_nc, kernel_size=7, stride=1))

    def set_target(self, Xs):
        f = self.model1(Xs)
        G = self.gram(f)
        self.ins.set_target(G)

    def forward(self, input):
        return self.model(input)


class Vgg(Block):
    """Vgg16's pattern at toy width: relu1_2, relu2_2, relu3_3 and relu4_3 outputs."""
    def __init__(self):
        super(Vgg, self).__init__()
        self.conv1_1 = nn.Conv2D(in_channels=3, channels=4, kernel_size=3, strides=1, padding=1)
        self.conv1_2 = nn.Conv2D(in_channels=4, channels=4, kernel_size=3, strides=1, padding=1)
        self.conv2_1 = nn.Conv2D(in_channels=4, channels=6, kernel_size=3, strides=1, padding=1)
        self.conv3_1 = nn.Conv2D(in_channels=6, channels=6, kernel_size=3, strides=1, padding=1)
        self.conv4_1 = nn.Conv2D(in_channels=6, channels=8, kernel_size=3, strides=1, padding=1)

    def forward(self, X):
        h = F.Activation(self.conv1_1(X), act_type='relu')
        h = F.Activation(self.conv1_2(h), act_type='relu')
        relu1_2 = h
        h = F.Pooling(h, pool_type='max', kernel=(2, 2), stride=(2, 2))
        h = F.Activation(self.conv2_1(h), act_type='relu')
        relu2_2 = h
        h = F.Pooling(h, pool_type='max', kernel=(2, 2), stride=(2, 2))
        h = F.Activation(self.conv3_1(h), act_type='relu')
        relu3_3 = h
        h = F.Activation(self.conv4_1(h), act_type='relu')
        return [relu1_2, relu2_2, relu3_3, h]


def subtract_imagenet_mean_batch(batch):
    batch = F.swapaxes(batch, 0, 1)
    (r_, g, b) = F.split(batch, num_outputs=3, axis=0)
    batch = F.concat(r_ - 123.680, g - 116.779, b - 103.939, dim=0)
    return F.swapaxes(batch, 0, 1)


def subtract_imagenet_mean_preprocess_batch(batch):
    batch = F.swapaxes(batch, 0, 1)
    (r_, g, b) = F.split(batch, num_outputs=3, axis=0)
    batch = F.concat(b - 103.939, g - 116.779, r_ - 123.680, dim=0)
    return F.swapaxes(batch, 0, 1)


def add_imagenet_mean_batch(batch):
    batch = F.swapaxes(batch, 0, 1)
    (b, g, r_) = F.split(batch, num_outputs=3, axis=0)
    batch = F.concat(b + 103.939, g + 116.779, r_ + 123.680, dim=0)
    return F.swapaxes(batch, 0, 1)


def imagenet_clamp_batch(batch, low, high):
    F.clip(batch[:, 0, :, :], low - 123.680, high - 123.680)
    F.clip(batch[:, 1, :, :], low - 116.779, high - 116.779)
    F.clip(batch[:, 2, :, :], low - 103.939, high - 103.939)


def preprocess_batch(batch):
    batch = F.swapaxes(batch, 0, 1)
    (r_, g, b) = F.split(batch, num_outputs=3, axis=0)
    batch = F.concat(b, g, r_, dim=0)
    return F.swapaxes(batch, 0, 1)


ctx = mx.cpu(0)
img = onp.arange(2 * 3 * 8 * 8).reshape(2, 3, 8, 8) % 255
x = mx.nd.array(img, ctx=ctx)

print('== layers')
inorm = InstanceNorm(in_channels=3)
print(inorm, InstanceNorm())
inorm.initialize()
params_of(inorm)
show('instancenorm', inorm(x[:1, :, :2, :3]).sum(axis=(2, 3)))
pad = ReflectancePadding(pad_width=(0, 0, 0, 0, 1, 1, 2, 2))
show('reflect', pad(mx.nd.arange(6).reshape((1, 1, 2, 3))))
pad.hybridize()
print('reflect hybrid', pad(x).shape)
attempt('reflect too wide', lambda: ReflectancePadding(pad_width=(0, 0, 0, 0, 9, 9, 9, 9))(x))
show('upsample', F.UpSampling(mx.nd.arange(4).reshape((1, 1, 2, 2)), scale=2, sample_type='nearest'))
show('gram', gram_matrix(mx.nd.arange(12).reshape((1, 2, 2, 3)) / 10))
show('swapaxis', F.SwapAxis(mx.nd.arange(6).reshape((1, 2, 3)), 1, 2))

print('== utils')
show('sub mean', subtract_imagenet_mean_batch(x)[:, :, 0, 0])
show('sub mean pre', subtract_imagenet_mean_preprocess_batch(x)[:, :, 0, 0])
show('add mean', add_imagenet_mean_batch(subtract_imagenet_mean_preprocess_batch(x))[:, :, 0, 0])
show('preprocess', preprocess_batch(x)[:, :, 0, 1])
imagenet_clamp_batch(x, 0, 255)
(b, g, rr) = F.split(x[0], num_outputs=3, axis=0)
print('bgr', b.shape, r(F.concat(rr, g, b, dim=0)[:, 0, 0]))
show('clip save', F.clip(x[0] * 2, 0, 255).asnumpy().transpose(1, 2, 0).astype('uint8')[0, :2])

print('== MSG-Net')
style_model = Net(ngf=2)
print(style_model)
style_model.initialize(init=mx.initializer.MSRAPrelu(), ctx=ctx)
style = mx.nd.array(img[:1, :, ::-1, :], ctx=ctx)
style_model.set_target(preprocess_batch(style))
style_model(x)
params_of(style_model)
fill(style_model, 0.3)
style_model.set_target(preprocess_batch(style))
y = style_model(x)
show('styled', y[:, 0, 0, :4], 2)
print('P', style_model.ins.P.shape, style_model.ins.gram.shape)

print('== training')
vgg = Vgg()
vgg.initialize(ctx=ctx)
vgg(x)
fill(vgg, 0.2, seed=3)
with tempfile.TemporaryDirectory() as tmp:
    f = os.path.join(tmp, 'mxvgg.params')
    vgg.collect_params().save(f)
    vgg.collect_params().load(f, ctx=ctx)
    attempt('load into new names', lambda: Vgg().collect_params().load(f, ctx=ctx))
    print(sorted(mx.nd.load(f))[:3])
for param in vgg.collect_params().values():
    param.grad_req = 'null'
trainer = gluon.Trainer(style_model.collect_params(), 'adam', {'learning_rate': 0.01})
mse_loss = gluon.loss.L2Loss()
content_weight, style_weight, batch_size = 1.0, 5.0, 2
agg_content_loss = 0.
agg_style_loss = 0.
train = gluon.data.DataLoader(gluon.data.ArrayDataset(x, mx.nd.zeros(2)), batch_size=batch_size,
                              last_batch='discard')
for batch_id, (xb, _) in enumerate(list(train) * 2):
    n_batch = len(xb)
    style_image = style + batch_id
    style_v = subtract_imagenet_mean_preprocess_batch(style_image.copy())
    style_image = preprocess_batch(style_image)
    features_style = vgg(style_v)
    gram_style = [gram_matrix(yy) for yy in features_style]
    xc = subtract_imagenet_mean_preprocess_batch(xb.copy())
    f_xc_c = vgg(xc)[1]
    with autograd.record():
        style_model.set_target(style_image)
        yb = style_model(xb)
        yb = subtract_imagenet_mean_batch(yb)
        features_y = vgg(yb)
        content_loss = 2 * content_weight * mse_loss(features_y[1], f_xc_c)
        style_loss = 0.
        for i in range(len(features_y)):
            gram_y = gram_matrix(features_y[i])
            _, C, _ = gram_style[i].shape
            gram_s = F.expand_dims(gram_style[i], 0).broadcast_to((batch_size, 1, C, C))
            style_loss = style_loss + 2 * style_weight * mse_loss(gram_y, gram_s[:n_batch, :, :])
        total_loss = content_loss + style_loss
        total_loss.backward()
    trainer.step(batch_size)
    mx.nd.waitall()
    agg_content_loss += content_loss[0]
    agg_style_loss += style_loss[0]
    # after the first Adam step the numbers depend on last bits (instance norms over 2x2 maps)
    if batch_id == 0:
        print('content: {:.3f}\tstyle: {:.4g}\ttotal: {:.4g}'.format(
            agg_content_loss.asnumpy()[0] / (batch_id + 1), agg_style_loss.asnumpy()[0] / (batch_id + 1),
            (agg_content_loss + agg_style_loss).asnumpy()[0] / (batch_id + 1)))
print('steps', batch_id + 1, type(agg_content_loss).__name__, agg_content_loss.shape,
      'gamma grad_req', style_model.model1[1].gamma.grad_req)

print('== optimize an image')
content_image = subtract_imagenet_mean_preprocess_batch(x[:1])
f_xc_c = vgg(content_image)[1]
gram_style = [gram_matrix(yy) for yy in vgg(subtract_imagenet_mean_preprocess_batch(style))]
output = Parameter('output', shape=content_image.shape)
output.initialize(ctx=ctx)
output.set_data(content_image)
trainer = gluon.Trainer([output], 'adam', {'learning_rate': 2.0})
for e in range(3):
    imagenet_clamp_batch(output.data(), 0, 255)
    with autograd.record():
        features_y = vgg(output.data())
        content_loss = 2 * content_weight * mse_loss(features_y[1], f_xc_c)
        style_loss = 0.
        for i, element in enumerate(features_y):
            style_loss = style_loss + 2 * style_weight * mse_loss(gram_matrix(element), gram_style[i])
        total_loss = content_loss + style_loss
        total_loss.backward()
    trainer.step(1)
    print('loss:{:.2f}'.format(total_loss.asnumpy()[0]))
out = add_imagenet_mean_batch(output.data())
print('image', out.shape, r(out[0, :, 0, 0], 2))
