"""The book's application chapters (MXNet edition) that need no download, on fixed data: SSD
pieces (npx.multibox_*), RoI pooling, FCN's transposed convolution with a bilinear kernel,
word2vec batches and skip-gram loss, TextCNN/BiRNN, NLI attention, GAN updates, recommender
losses, learning-rate schedulers and the optimisers of chapter 12 through train_concise_ch11."""
import contextlib
import io
import warnings

import matplotlib
matplotlib.use('Agg')
import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon, init, np, npx
from mxnet.gluon import nn, rnn
from mxnet import lr_scheduler
from d2l import mxnet as d2l
from _d2l_common import attempt, r4, pattern

warnings.simplefilter('ignore')
npx.set_np()
onp.random.seed(0)


def fill(net, scale=0.5):
    for k, (name, p) in enumerate(sorted(net.collect_params().items())):
        value = pattern(p.shape, k, scale)
        p.set_data(np.abs(value) + 0.5 if name.endswith(('gamma', 'running_var')) else value)


print('== SSD pieces')
def cls_predictor(num_anchors, num_classes):
    return nn.Conv2D(num_anchors * (num_classes + 1), kernel_size=3, padding=1)

def bbox_predictor(num_anchors):
    return nn.Conv2D(num_anchors * 4, kernel_size=3, padding=1)

def forward(x, block):
    block.initialize()
    return block(x)

Y1 = forward(np.zeros((2, 8, 20, 20)), cls_predictor(5, 10))
Y2 = forward(np.zeros((2, 16, 10, 10)), cls_predictor(3, 10))
print(Y1.shape, Y2.shape)

def flatten_pred(pred):
    return npx.batch_flatten(pred.transpose(0, 2, 3, 1))

def concat_preds(preds):
    return np.concatenate([flatten_pred(p) for p in preds], axis=1)

print(concat_preds([Y1, Y2]).shape)

def down_sample_blk(num_channels):
    blk = nn.Sequential()
    for _ in range(2):
        blk.add(nn.Conv2D(num_channels, kernel_size=3, padding=1), nn.BatchNorm(in_channels=num_channels),
                nn.Activation('relu'))
    blk.add(nn.MaxPool2D(2))
    return blk

print(forward(np.zeros((2, 3, 20, 20)), down_sample_blk(10)).shape)
X = np.array(onp.cos(onp.arange(1 * 3 * 8 * 8) * 0.1).reshape(1, 3, 8, 8).astype('float32'))
anchors = npx.multibox_prior(X, sizes=[0.2, 0.272], ratios=[1, 2, 0.5])
print(anchors.shape, r4(anchors[0, :4]))
print(r4(d2l.multibox_prior(X, sizes=[0.2, 0.272], ratios=[1, 2, 0.5])[0, :4] - anchors[0, :4]))
labels = np.array([[[0, 0.1, 0.08, 0.52, 0.92], [1, 0.55, 0.2, 0.9, 0.88], [-1, -1, -1, -1, -1]]])
bbox_labels, bbox_masks, cls_labels = npx.multibox_target(anchors, labels, np.zeros((1, 3, anchors.shape[1])))
print(bbox_labels.shape, bbox_masks.shape, cls_labels.shape, r4(cls_labels.sum()), r4(bbox_masks.sum()))
cls_probs = npx.softmax(pattern((1, 3, anchors.shape[1]), 0, 3.0), axis=1)
offsets = pattern((1, anchors.shape[1] * 4), 1, 0.1)
out = npx.multibox_detection(cls_probs, offsets, anchors, nms_threshold=0.5)
print(out.shape, r4(out[0, :3]))
cls_loss = gluon.loss.SoftmaxCrossEntropyLoss()
bbox_loss = gluon.loss.L1Loss()
cls_preds = pattern((1, anchors.shape[1], 3), 2, 1.0)
bbox_preds = pattern((1, anchors.shape[1] * 4), 3, 0.1)
cls = cls_loss(cls_preds, cls_labels)
bbox = bbox_loss(bbox_preds * bbox_masks, bbox_labels * bbox_masks)
print(r4(cls), r4(bbox))

print('== RoI pooling / FCN')
X = np.arange(16).reshape(1, 1, 4, 4)
rois = np.array([[0, 0, 0, 20, 20], [0, 0, 10, 30, 30]])
print(npx.roi_pooling(X, rois, pooled_size=(2, 2), spatial_scale=0.1))

def bilinear_kernel(in_channels, out_channels, kernel_size):
    factor = (kernel_size + 1) // 2
    if kernel_size % 2 == 1:
        center = factor - 1
    else:
        center = factor - 0.5
    og = (np.arange(kernel_size).reshape(-1, 1), np.arange(kernel_size).reshape(1, -1))
    filt = (1 - np.abs(og[0] - center) / factor) * (1 - np.abs(og[1] - center) / factor)
    weight = np.zeros((in_channels, out_channels, kernel_size, kernel_size))
    weight[range(in_channels), range(out_channels), :, :] = filt
    return np.array(weight)

conv_trans = nn.Conv2DTranspose(3, kernel_size=4, padding=1, strides=2)
conv_trans.initialize(init.Constant(bilinear_kernel(3, 3, 4)))
img = np.array(onp.arange(3 * 4 * 4, dtype='float32').reshape(1, 3, 4, 4) % 7)
Y = conv_trans(img)
print(Y.shape, r4(Y[0, 0, :3, :4]))
print(r4(bilinear_kernel(1, 1, 4)[0, 0]))
net = nn.HybridSequential()
net.add(nn.Conv2D(4, kernel_size=1), nn.Conv2DTranspose(4, kernel_size=8, padding=2, strides=4))
net[-1].initialize(init.Constant(bilinear_kernel(4, 4, 8)))
net[-2].initialize(init=init.Xavier())
print(net(np.zeros((1, 3, 8, 8))).shape)
attempt(lambda: nn.Conv2DTranspose(3, kernel_size=4).initialize(init.Constant(bilinear_kernel(2, 2, 4))) or
        conv_trans(np.zeros((1, 2, 4, 4))))

print('== word2vec')
x_1 = (1, [2, 2], [3, 3, 3, 3])
x_2 = (1, [2, 2, 2], [3, 3])
batch = d2l.batchify((x_1, x_2))
names = ['centers', 'contexts_negatives', 'masks', 'labels']
for name, data in zip(names, batch):
    print(name, '=', data)
tiny = [list(range(7)), list(range(7, 10))]
import random
random.seed(0)
centers, contexts = d2l.get_centers_and_contexts(tiny, 2)
print(len(centers), [len(c) > 0 for c in contexts][:3])
embed = nn.Embedding(input_dim=20, output_dim=4)
embed.initialize()
print(embed.weight)
x = np.array([[1, 2, 3], [4, 5, 6]])
print(embed(x).shape)

def skip_gram(center, contexts_and_negatives, embed_v, embed_u):
    v = embed_v(center)
    u = embed_u(contexts_and_negatives)
    return npx.batch_dot(v, u.swapaxes(1, 2))

embed_u = nn.Embedding(20, 4)
embed_u.initialize()
embed.weight.set_data(pattern((20, 4), 0))
embed_u.weight.set_data(pattern((20, 4), 1))
pred = skip_gram(np.ones((2, 1)), np.ones((2, 4)), embed, embed_u)
print(pred.shape)
loss = gluon.loss.SigmoidBCELoss()
pred = np.array([[1.1, -2.2, 3.3, -4.4]] * 2)
label = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
mask = np.array([[1, 1, 1, 1], [1, 1, 0, 0]])
print(r4(loss(pred, label, mask) * mask.shape[1] / mask.sum(axis=1)))
c, cn, m, l = batch
with autograd.record():
    p = skip_gram(c, cn, embed, embed_u)
    ls = loss(p.reshape(l.shape).astype('float32'), l, m) * m.shape[1] / m.sum(axis=1)
ls.backward()
print(r4(ls), r4(embed.weight.grad()[1]))

print('== TextCNN / BiRNN / NLI attention')
class TextCNN(nn.Block):
    def __init__(self, vocab_size, embed_size, kernel_sizes, num_channels, **kwargs):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.constant_embedding = nn.Embedding(vocab_size, embed_size)
        self.dropout = nn.Dropout(0.5)
        self.decoder = nn.Dense(2)
        self.pool = nn.GlobalMaxPool1D()
        self.convs = nn.Sequential()
        for c, k in zip(num_channels, kernel_sizes):
            self.convs.add(nn.Conv1D(c, k, activation='relu'))

    def forward(self, inputs):
        embeddings = np.concatenate((self.embedding(inputs), self.constant_embedding(inputs)), axis=2)
        embeddings = embeddings.transpose(0, 2, 1)
        encoding = np.concatenate([np.squeeze(self.pool(conv(embeddings)), axis=-1)
                                   for conv in self.convs], axis=1)
        return self.decoder(self.dropout(encoding))

net = TextCNN(30, 6, [3, 4, 5], [4, 4, 4])
net.initialize(init.Xavier())
toks = np.array(onp.arange(2 * 12).reshape(2, 12) % 30)
print(net(toks).shape)
fill(net, 0.3)
net.constant_embedding.weight.set_data(pattern((30, 6), 7))
net.constant_embedding.collect_params().setattr('grad_req', 'null')
print(r4(net(toks)), net.constant_embedding.weight.grad_req)

class BiRNN(nn.Block):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, **kwargs):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.encoder = rnn.LSTM(num_hiddens, num_layers=num_layers, bidirectional=True,
                                input_size=embed_size)
        self.decoder = nn.Dense(2)

    def forward(self, inputs):
        embeddings = self.embedding(inputs.T)
        outputs = self.encoder(embeddings)
        encoding = np.concatenate((outputs[0], outputs[-1]), axis=1)
        return self.decoder(encoding)

net = BiRNN(30, 6, 5, 2)
net.initialize(init.Xavier())
print(net(toks).shape, len(list(net.collect_params().keys())))
fill(net, 0.3)
print(r4(net(toks)))
trainer = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.01})
with autograd.record():
    l = gluon.loss.SoftmaxCrossEntropyLoss()(net(toks), np.array([0, 1]))
l.backward()
trainer.step(2)
print(r4(l))

def mlp(num_hiddens, flatten):
    net = nn.Sequential()
    net.add(nn.Dropout(0.2), nn.Dense(num_hiddens, activation='relu', flatten=flatten),
            nn.Dropout(0.2), nn.Dense(num_hiddens, activation='relu', flatten=flatten))
    return net

class Attend(nn.Block):
    def __init__(self, num_hiddens, **kwargs):
        super().__init__(**kwargs)
        self.f = mlp(num_hiddens=num_hiddens, flatten=False)

    def forward(self, A, B):
        f_A = self.f(A)
        f_B = self.f(B)
        e = npx.batch_dot(f_A, f_B, transpose_b=True)
        beta = npx.batch_dot(npx.softmax(e), B)
        alpha = npx.batch_dot(npx.softmax(e.transpose(0, 2, 1)), A)
        return beta, alpha

att = Attend(6)
att.initialize()
A, B = pattern((2, 3, 4), 0), pattern((2, 5, 4), 1)
beta, alpha = att(A, B)
print(beta.shape, alpha.shape)
fill(att)
beta, alpha = att(A, B)
print(r4(beta.sum(axis=-1)), r4(alpha.sum(axis=-1)))
Xs, ys = d2l.split_batch_multi_inputs([np.arange(12).reshape(6, 2), np.arange(6)], np.arange(6),
                                      [mx.cpu(0), mx.cpu(1), mx.cpu(2), mx.cpu(3)])
print(len(Xs), [len(x) for x in Xs], [x[0].shape for x in Xs], [y.shape for y in ys])

print('== GAN')
net_G = nn.Sequential()
net_G.add(nn.Dense(2))
net_D = nn.Sequential()
net_D.add(nn.Dense(5, activation='tanh'), nn.Dense(3, activation='tanh'), nn.Dense(1))
net_D.initialize(init=init.Normal(0.02))
net_G.initialize(init=init.Normal(0.02))
X = pattern((8, 2), 0, 1.0)
Z = pattern((8, 2), 1, 1.0)
net_D(X)
net_G(Z)
fill(net_D, 0.3)
fill(net_G, 0.3)
loss = gluon.loss.SigmoidBCELoss()
trainer_D = gluon.Trainer(net_D.collect_params(), 'adam', {'learning_rate': 0.05})
trainer_G = gluon.Trainer(net_G.collect_params(), 'adam', {'learning_rate': 0.005})
for _ in range(2):
    print(round(d2l.update_D(X, Z, net_D, net_G, loss, trainer_D), 4),
          round(d2l.update_G(Z, net_D, net_G, loss, trainer_G), 4))
G = nn.Sequential()
G.add(nn.Conv2DTranspose(8, kernel_size=4, strides=1, padding=0, use_bias=False), nn.BatchNorm(),
      nn.Activation('relu'), nn.Conv2DTranspose(3, 4, 2, 1), nn.Activation('tanh'))
G.initialize()
print(G(np.zeros((2, 16, 1, 1))).shape)
D = nn.Sequential()
D.add(nn.Conv2D(8, 4, 2, 1, use_bias=False), nn.BatchNorm(), nn.LeakyReLU(0.2), nn.Conv2D(1, 4))
D.initialize()
print(D(np.zeros((2, 3, 8, 8))).shape)
print(r4(nn.LeakyReLU(0.2)(np.array([-1.0, 0.0, 2.0]))))

print('== recommender losses')
pos, neg = pattern((4,), 0, 2.0), pattern((4,), 1, 2.0)
print(r4(d2l.BPRLoss()(pos, neg)), r4(d2l.HingeLossbRec()(pos, neg)), r4(d2l.HingeLossbRec()(pos, neg, 0.5)))
print(d2l.hit_and_auc([3, 1, 4, 5, 9, 2], [4, 7], 2), d2l.hit_and_auc([3, 1, 4, 5, 9, 2], [4, 7], 3),
      d2l.hit_and_auc([3, 1], [7], 1))

print('== learning-rate schedulers')
s = lr_scheduler.FactorScheduler(step=2, factor=0.9, stop_factor_lr=1e-2, base_lr=2.0)
print([round(s(t), 4) for t in range(8)])
s = lr_scheduler.MultiFactorScheduler(step=[15, 30], factor=0.5, base_lr=0.5)
print([round(s(t), 4) for t in (0, 14, 15, 16, 29, 30, 31, 40)])
s = lr_scheduler.CosineScheduler(max_update=20, base_lr=0.3, final_lr=0.01)
print([round(s(t), 4) for t in (0, 5, 10, 19, 20, 30)])
s = lr_scheduler.CosineScheduler(20, warmup_steps=5, base_lr=0.3, final_lr=0.01)
print([round(s(t), 4) for t in (0, 2, 5, 6, 20)])
net = nn.Dense(1)
net.initialize()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'lr_scheduler': s})
print(trainer.learning_rate)
attempt(lambda: trainer.set_learning_rate(0.1))
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.3})
trainer.set_learning_rate(0.1)
print(f'learning rate is now {trainer.learning_rate:.2f}')

print('== train_concise_ch11 optimisers')
feats = np.array(onp.cos(onp.arange(100 * 5) * 0.3).reshape(100, 5).astype('float32'))
labels = np.dot(feats, np.array([0.5, -1.0, 0.2, 0.0, 0.3])) + 0.1
it = d2l.load_array((feats, labels), 10, is_train=False)
for name, hp in [('sgd', {'learning_rate': 0.05, 'momentum': 0.9}), ('adagrad', {'learning_rate': 0.1}),
                 ('rmsprop', {'learning_rate': 0.01, 'gamma1': 0.9}), ('adadelta', {'rho': 0.9999}),
                 ('adam', {'learning_rate': 0.01})]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        d2l.train_concise_ch11(name, hp, it, num_epochs=2)
    print(name, buf.getvalue().strip().splitlines()[-1].startswith('loss: '))
d2l.plt.close('all')
