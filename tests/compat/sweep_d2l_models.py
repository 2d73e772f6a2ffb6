"""d2l 1.0.3's chapter classes (Module/Trainer/DataModule/Classifier and the CNNs the book builds on
them): constructors, parameter names, layer_summary shapes and one fit epoch on fixed tiny data."""
import contextlib
import io
import warnings

import matplotlib
matplotlib.use('Agg')
import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon, init, np, npx
from mxnet.gluon import nn
from d2l import mxnet as d2l
from _d2l_common import attempt, r4, pattern

warnings.simplefilter('ignore')
npx.set_np()
onp.random.seed(0)  # the DataLoader shuffles with NumPy's global RNG


def fill(net, scale=0.5):
    """Deterministic weights (BatchNorm's running variance stays positive)."""
    for k, (name, p) in enumerate(sorted(net.collect_params().items())):
        value = pattern(p.shape, k, scale)
        p.set_data(np.abs(value) + 0.5 if name.endswith(('running_var', 'gamma')) else value)


class Fixed(d2l.DataModule):
    """A DataModule over fixed arrays, as the book's chapters subclass it."""
    def __init__(self, X, y, num_train, batch_size=4):
        super().__init__()
        self.save_hyperparameters()

    def get_dataloader(self, train):
        i = slice(0, self.num_train) if train else slice(self.num_train, None)
        return self.get_tensorloader((self.X, self.y), train, i)


def fit_one(model, data, **kw):
    model.board.display = False
    trainer = d2l.Trainer(max_epochs=1, **kw)
    trainer.fit(model, data)
    return trainer


print('== HyperParameters / DataModule / Trainer')
class B(d2l.HyperParameters):
    def __init__(self, a, b, _c=3, d=4):
        self.save_hyperparameters(ignore=['d'])
h = B(1, 2)
print(sorted(h.hparams.items()), h.a, h.b, hasattr(h, '_c'), hasattr(h, 'd'))
data = d2l.SyntheticRegressionData(w=np.array([2, -3.4]), b=4.2, num_train=20, num_val=12,
                                   batch_size=8)
print(data.X.shape, data.y.shape, data.num_train, data.batch_size, data.root, data.num_workers)
print(len(data.train_dataloader()), len(data.val_dataloader()))
X, y = next(iter(data.val_dataloader()))
print(X.shape, y.shape, type(X).__name__)
tr = d2l.Trainer(max_epochs=2, gradient_clip_val=1)
print(tr.max_epochs, tr.gpus, tr.gradient_clip_val, sorted(tr.hparams))
attempt(lambda: d2l.DataModule().train_dataloader())
attempt(lambda: d2l.Module().loss(1, 2))

print('== LinearRegressionScratch / LinearRegression')
Xl = np.array(onp.cos(onp.arange(48) * 0.7).reshape(24, 2).astype('float32'))
yl = np.dot(Xl, np.array([[2.0], [-3.4]])) + 4.2
lin = Fixed(Xl, yl, num_train=16)
m = d2l.LinearRegressionScratch(2, lr=0.03)
m.w = pattern((2, 1))
m.w.attach_grad()
print(len(m.get_scratch_params()), type(m.parameters()).__name__, len(m.parameters()))
fit_one(m, lin)
print('scratch', r4(m.w), r4(m.b))
m = d2l.LinearRegression(lr=0.03)
m(Xl)
fill(m)
t = fit_one(m, lin)
w, b = m.get_w_b()
print('concise', r4(w), r4(b), t.num_train_batches, t.num_val_batches, t.train_batch_idx, t.val_batch_idx)
print(sorted(m.collect_params().keys()), type(m.parameters()).__name__)
print(sorted(m.board.data.keys()), [(round(p.x, 4), round(float(p.y), 4)) for p in m.board.data['val_loss']])
print(r4(m.loss(m(Xl), yl)))

print('== SoftmaxRegression / Classifier')
Xc = np.array(onp.sin(onp.arange(24 * 6) * 0.3).reshape(24, 6).astype('float32'))
yc = np.array(onp.arange(24) % 3)
cls = Fixed(Xc, yc, num_train=16)
m = d2l.SoftmaxRegression(num_outputs=3, lr=0.5)
m(Xc)
fill(m)
fit_one(m, cls)
print(r4(m.loss(m(Xc), yc)), r4(m.accuracy(m(Xc), yc)), r4(m.accuracy(m(Xc), yc, averaged=False)))
print(r4(m.loss(m(Xc), yc, averaged=False)[:4]))
print(sorted(m.board.data.keys()), [round(float(p.y), 4) for p in m.board.data['val_acc']])
print(r4(m.accuracy(np.ones((2, 3, 4)), np.zeros((2, 3)))))

print('== MLP (book) with dropout, grad clipping')
class MLP(d2l.Classifier):
    def __init__(self, num_outputs, num_hiddens, lr, dropout=0.0):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential()
        self.net.add(nn.Dense(num_hiddens, activation='relu'), nn.Dropout(dropout),
                     nn.Dense(num_outputs))
        self.net.initialize()
m = MLP(num_outputs=3, num_hiddens=8, lr=0.1)
m(Xc)
fill(m)
fit_one(m, cls, gradient_clip_val=0.5)
print(r4(m.loss(m(Xc), yc)), sorted(m.collect_params().keys()))

print('== LeNet')
m = d2l.LeNet(lr=0.1)
m.layer_summary((1, 1, 28, 28))
print(sorted(m.collect_params().keys())[:4])
Xi = np.array(onp.cos(onp.arange(12 * 784) * 0.01).reshape(12, 1, 28, 28).astype('float32'))
yi = np.array(onp.arange(12) % 10)
imgs = Fixed(Xi, yi, num_train=8)
fill(m, 0.1)
fit_one(m, imgs)
print(r4(m.loss(m(Xi), yi)))

print('== AlexNet / VGG / NiN / GoogLeNet / ResNet / DenseNet (book) shapes')
def vgg_block(num_convs, num_channels):
    blk = nn.Sequential()
    for _ in range(num_convs):
        blk.add(nn.Conv2D(num_channels, kernel_size=3, padding=1, activation='relu'))
    blk.add(nn.MaxPool2D(pool_size=2, strides=2))
    return blk

class VGG(d2l.Classifier):
    def __init__(self, arch, lr=0.1, num_classes=10):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential()
        for (num_convs, num_channels) in arch:
            self.net.add(vgg_block(num_convs, num_channels))
        self.net.add(nn.Dense(32, activation='relu'), nn.Dropout(0.5),
                     nn.Dense(num_classes))
        self.net.initialize(init.Xavier())

class AlexNet(d2l.Classifier):
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential()
        self.net.add(
            nn.Conv2D(16, kernel_size=11, strides=4, activation='relu'),
            nn.MaxPool2D(pool_size=3, strides=2),
            nn.Conv2D(32, kernel_size=5, padding=2, activation='relu'),
            nn.MaxPool2D(pool_size=3, strides=2),
            nn.Conv2D(32, kernel_size=3, padding=1, activation='relu'),
            nn.MaxPool2D(pool_size=3, strides=2),
            nn.Dense(64, activation='relu'), nn.Dropout(0.5),
            nn.Dense(num_classes))
        self.net.initialize(init.Xavier())

def nin_block(num_channels, kernel_size, strides, padding):
    blk = nn.Sequential()
    blk.add(nn.Conv2D(num_channels, kernel_size, strides, padding, activation='relu'),
            nn.Conv2D(num_channels, kernel_size=1, activation='relu'),
            nn.Conv2D(num_channels, kernel_size=1, activation='relu'))
    return blk

class NiN(d2l.Classifier):
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential()
        self.net.add(nin_block(8, kernel_size=5, strides=2, padding=0),
                     nn.MaxPool2D(pool_size=3, strides=2),
                     nin_block(num_classes, kernel_size=3, strides=1, padding=1),
                     nn.GlobalAvgPool2D(), nn.Flatten())
        self.net.initialize(init.Xavier())

class Inception(nn.Block):
    def __init__(self, c1, c2, c3, c4, **kwargs):
        super().__init__(**kwargs)
        self.b1_1 = nn.Conv2D(c1, kernel_size=1, activation='relu')
        self.b2_1 = nn.Conv2D(c2[0], kernel_size=1, activation='relu')
        self.b2_2 = nn.Conv2D(c2[1], kernel_size=3, padding=1, activation='relu')
        self.b3_1 = nn.Conv2D(c3[0], kernel_size=1, activation='relu')
        self.b3_2 = nn.Conv2D(c3[1], kernel_size=5, padding=2, activation='relu')
        self.b4_1 = nn.MaxPool2D(pool_size=3, strides=1, padding=1)
        self.b4_2 = nn.Conv2D(c4, kernel_size=1, activation='relu')

    def forward(self, x):
        b1 = self.b1_1(x)
        b2 = self.b2_2(self.b2_1(x))
        b3 = self.b3_2(self.b3_1(x))
        b4 = self.b4_2(self.b4_1(x))
        return np.concatenate((b1, b2, b3, b4), axis=1)

class GoogleNet(d2l.Classifier):
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential()
        self.net.add(nn.Conv2D(8, kernel_size=7, strides=2, padding=3, activation='relu'),
                     nn.MaxPool2D(pool_size=3, strides=2, padding=1),
                     Inception(4, (4, 8), (2, 4), 4), Inception(8, (8, 12), (4, 6), 6),
                     nn.MaxPool2D(pool_size=3, strides=2, padding=1),
                     nn.GlobalAvgPool2D(), nn.Dense(num_classes))
        self.net.initialize(init.Xavier())

class ResNet(d2l.Classifier):
    def block(self, num_residuals, num_channels, first_block=False):
        blk = nn.Sequential()
        for i in range(num_residuals):
            if i == 0 and not first_block:
                blk.add(d2l.Residual(num_channels, use_1x1conv=True, strides=2))
            else:
                blk.add(d2l.Residual(num_channels))
        return blk

    def __init__(self, arch, lr=0.1, num_classes=10):
        super(ResNet, self).__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential()
        self.net.add(nn.Conv2D(8, kernel_size=7, strides=2, padding=3), nn.BatchNorm(),
                     nn.Activation('relu'), nn.MaxPool2D(pool_size=3, strides=2, padding=1))
        for i, b in enumerate(arch):
            self.net.add(self.block(*b, first_block=(i == 0)))
        self.net.add(nn.GlobalAvgPool2D(), nn.Dense(num_classes))
        self.net.initialize(init.Xavier())

def conv_block(num_channels):
    blk = nn.Sequential()
    blk.add(nn.BatchNorm(), nn.Activation('relu'), nn.Conv2D(num_channels, kernel_size=3, padding=1))
    return blk

class DenseBlock(nn.Block):
    def __init__(self, num_convs, num_channels):
        super().__init__()
        self.net = nn.Sequential()
        for _ in range(num_convs):
            self.net.add(conv_block(num_channels))

    def forward(self, X):
        for blk in self.net:
            Y = blk(X)
            X = np.concatenate((X, Y), axis=1)
        return X

def transition_block(num_channels):
    blk = nn.Sequential()
    blk.add(nn.BatchNorm(), nn.Activation('relu'), nn.Conv2D(num_channels, kernel_size=1),
            nn.AvgPool2D(pool_size=2, strides=2))
    return blk

class DenseNet(d2l.Classifier):
    def __init__(self, num_channels=8, growth_rate=4, arch=(2, 2), lr=0.1, num_classes=10):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential()
        self.net.add(nn.Conv2D(num_channels, kernel_size=7, strides=2, padding=3),
                     nn.BatchNorm(), nn.Activation('relu'),
                     nn.MaxPool2D(pool_size=3, strides=2, padding=1))
        for i, num_convs in enumerate(arch):
            self.net.add(DenseBlock(num_convs, growth_rate))
            num_channels += num_convs * growth_rate
            if i != len(arch) - 1:
                num_channels //= 2
                self.net.add(transition_block(num_channels))
        self.net.add(nn.BatchNorm(), nn.Activation('relu'), nn.GlobalAvgPool2D(),
                     nn.Dense(num_classes))
        self.net.initialize(init.Xavier())

models = [('AlexNet', AlexNet(), (1, 1, 96, 96)),
          ('VGG', VGG(arch=((1, 4), (1, 8), (2, 8))), (1, 1, 32, 32)),
          ('NiN', NiN(), (1, 1, 40, 40)),
          ('GoogleNet', GoogleNet(), (1, 1, 32, 32)),
          ('ResNet', ResNet(((1, 8), (1, 16))), (1, 1, 32, 32)),
          ('DenseNet', DenseNet(), (1, 1, 32, 32))]
for name, m, shape in models:
    print('--', name)
    m.layer_summary(shape)
    print(len(list(m.collect_params().keys())), sum(int(onp.prod(p.shape)) for p in m.collect_params().values()))

print('== one fit epoch of a BatchNorm net; resnet18')
Xr = np.array(onp.cos(onp.arange(12 * 256) * 0.05).reshape(12, 1, 16, 16).astype('float32'))
attempt(lambda: ResNet(((1, 4), (1, 8)))(Xr[:2]).shape)  # first stage narrower than the stem
res = ResNet(((1, 8), (1, 16)), lr=0.05)
res(Xr[:2])
fill(res, 0.2)
fit_one(res, Fixed(Xr, yi, num_train=8))
print(r4(res.loss(res(Xr), yi)))
bn = [p for n, p in sorted(res.collect_params().items()) if n.endswith('running_mean')][0]
print(r4(bn.data()[:3]))
net = d2l.resnet18(10)
net.initialize()
print(net(Xr[:2]).shape, len(list(net.collect_params().keys())), sorted(net.collect_params().keys())[:3])
attempt(lambda: d2l.Trainer(max_epochs=1, num_gpus=1).gpus)
