"""d2l 1.0.3's MXNet helpers (``from d2l import mxnet as d2l``) as the book's chapters call them,
on fixed data: linear-regression helpers, Accumulator/Animator, attention, corr2d, bleu, Vocab,
devices, split_batch, positional encoding, anchor boxes, the optimisation chapter's train_2d."""
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
from _d2l_common import attempt, r4

warnings.simplefilter('ignore')
npx.set_np()


def pattern(shape, k=0):
    """Deterministic weights, so printed outputs do not depend on either framework's RNG."""
    n = int(onp.prod(shape)) if shape else 1
    return np.array((onp.sin(onp.arange(n) * 0.37 + k) * 0.5).reshape(shape), dtype='float32')


def fill(net):
    for k, (name, p) in enumerate(sorted(net.collect_params().items())):
        p.set_data(pattern(p.shape, k))


print('== linear regression helpers')
X = np.array([[1., 2.], [3., 4.], [5., 6.]])
w = np.array([[0.5], [-1.0]])
b = np.array([0.25])
y_hat = d2l.linreg(X, w, b)
print(type(y_hat).__name__, y_hat.shape, r4(y_hat))
y = np.array([1., -2., 0.])
print(r4(d2l.squared_loss(y_hat, y)))
attempt(lambda: d2l.squared_loss(y_hat, np.array([1., 2.])).shape)
w.attach_grad()
b.attach_grad()
with autograd.record():
    l = d2l.squared_loss(d2l.linreg(X, w, b), y)
l.backward()
print('grads', r4(w.grad), r4(b.grad))
d2l.sgd([w, b], 0.1, 3)
print('after sgd', r4(w), r4(b))
feats, labels = d2l.synthetic_data(np.array([2, -3.4]), 4.2, 7)
print('synthetic', feats.shape, labels.shape, feats.dtype, labels.dtype, type(labels).__name__)
it = d2l.load_array((np.arange(10).reshape(5, 2), np.arange(5)), 2, is_train=False)
print('load_array', type(it).__name__, len(it), [(r4(a), r4(c)) for a, c in it])

print('== Accumulator / accuracy / evaluate')
acc = d2l.Accumulator(3)
acc.add(np.array(2.5), 1, np.array([4.0]).sum())
acc.add(1, 2, 3)
print(acc.data, acc[1])
attempt(lambda: acc.add(np.array([1.0, 2.0]), 1, 1))
y_hat = np.array([[0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
print(d2l.accuracy(y_hat, np.array([1, 0, 0, 0])), d2l.accuracy(y_hat, np.array([1., 0., 2., 1.])))
print(d2l.accuracy(np.array([1, 2, 0]), np.array([1, 2, 2])))
print(d2l.size(y_hat), r4(d2l.transpose(y_hat)[0]), d2l.argmax(y_hat, axis=1).dtype)
net = nn.Dense(3)
net.initialize(init.Constant(0.1))
feat = np.array(onp.arange(24, dtype='float32').reshape(8, 3) % 5)
lab = np.array([0, 1, 2, 0, 1, 2, 0, 1])
net(feat)
fill(net)
data_iter = d2l.load_array((feat, lab), 3, is_train=False)
print('evaluate_accuracy', d2l.evaluate_accuracy(net, data_iter))
print('evaluate_accuracy_gpu', d2l.evaluate_accuracy_gpu(net, data_iter))
print('evaluate_loss', round(d2l.evaluate_loss(net, data_iter, gluon.loss.SoftmaxCrossEntropyLoss()), 4))
print(d2l.get_fashion_mnist_labels(np.array([0, 9, 3])))

print('== Animator / ProgressBoard')
with contextlib.redirect_stdout(io.StringIO()):  # IPython's display prints the figure's repr
    an = d2l.Animator(xlabel='epoch', ylabel='loss', xlim=[1, 3], legend=['a', 'b', 'c'])
    for e in range(1, 4):
        an.add(e, (np.array(1.0 / e).item(), None if e == 1 else 0.1 * e, 0.5))
print([r4(v) for v in an.X], [r4(v) for v in an.Y])
print(len(an.axes[0].get_lines()), an.axes[0].get_xlim(), an.axes[0].get_ylabel())
board = d2l.ProgressBoard(display=False)
for i in range(4):
    board.draw(i, float(np.array(i * 2.0)), 'loss', every_n=2)
print(board.data['loss'])
t = d2l.Timer()
t.stop()
print(len(t.times), type(t.cumsum()).__name__, len(t.cumsum()))

print('== corr2d')
X = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = np.array([[0.0, 1.0], [2.0, 3.0]])
print(d2l.corr2d(X, K))
Xe = np.ones((6, 8))
Xe[:, 2:6] = 0
print(d2l.corr2d(Xe, np.array([[1.0, -1.0]])))
print(d2l.corr2d(Xe.T, np.array([[1.0, -1.0]])).shape)

print('== masked_softmax')
S = np.array(onp.sin(onp.arange(16)).reshape(2, 2, 4).astype('float32'))
print(r4(d2l.masked_softmax(S, np.array([2, 3]))))
print(r4(d2l.masked_softmax(S, np.array([[1, 3], [2, 4]]))))
print(r4(d2l.masked_softmax(S, None)))
print(r4(d2l.masked_softmax(S, np.array([0, 4]))))
print(r4(d2l.masked_softmax(S, np.array([2.0, 3.0]))))

print('== DotProductAttention / AdditiveAttention')
queries = np.array(onp.cos(onp.arange(2 * 1 * 2)).reshape(2, 1, 2).astype('float32'))
keys = np.ones((2, 10, 2))
values = np.arange(40).reshape(1, 10, 4).repeat(2, axis=0)
valid_lens = np.array([2, 6])
att = d2l.DotProductAttention(dropout=0.5)
att.initialize()
out = att(queries, keys, values, valid_lens)
print(out.shape, r4(out), r4(att.attention_weights.sum(axis=-1)))
add = d2l.AdditiveAttention(num_hiddens=8, dropout=0.1)
add.initialize()
q2 = np.array(onp.cos(onp.arange(2 * 1 * 20)).reshape(2, 1, 20).astype('float32'))
add(q2, keys, values, valid_lens)
fill(add)
out = add(q2, keys, values, valid_lens)
print(out.shape, r4(out), r4(add.attention_weights))
print(sorted(add.collect_params().keys()))

print('== MultiHeadAttention / PositionalEncoding / TransformerEncoder')
mha = d2l.MultiHeadAttention(num_hiddens=8, num_heads=2, dropout=0.5)
mha.initialize()
Xq = np.array(onp.cos(onp.arange(2 * 4 * 8) * 0.3).reshape(2, 4, 8).astype('float32'))
Yk = np.array(onp.sin(onp.arange(2 * 6 * 8) * 0.2).reshape(2, 6, 8).astype('float32'))
print(mha(Xq, Yk, Yk, np.array([3, 2])).shape)
fill(mha)
print(r4(mha(Xq, Yk, Yk, np.array([3, 2])).sum(axis=-1)))
print(r4(mha(Xq, Yk, Yk, None)[0, 0]))
print(mha.transpose_qkv(Xq).shape, mha.transpose_output(mha.transpose_qkv(Xq)).shape)
pe = d2l.PositionalEncoding(num_hiddens=8, dropout=0.5, max_len=60)
pe.initialize()
print(pe.P.shape, r4(pe.P[0, :3, :4]), r4(pe.P[0, 59, 6:]))
print(r4(pe(np.zeros((1, 3, 8)))[0, 2]))
enc = d2l.TransformerEncoder(vocab_size=20, num_hiddens=8, ffn_num_hiddens=16, num_heads=2,
                             num_blks=2, dropout=0.5)
tokens = np.array([[1, 2, 3, 4, 0], [5, 6, 7, 0, 0]])
print(enc(tokens, np.array([4, 3])).shape)
fill(enc)
out = enc(tokens, np.array([4, 3]))
print(r4(out.sum(axis=-1)), len(enc.attention_weights), enc.attention_weights[0].shape)
ffn = d2l.PositionWiseFFN(4, 8)
ffn.initialize()
print(ffn(np.ones((2, 3, 4))).shape)
an_ = d2l.AddNorm(0.5)
an_.initialize()
print(r4(an_(np.ones((2, 3)), np.array([[1., 2., 3.], [0., 0., 1.]]))))

print('== bleu / Vocab / tokenize')
for pred, label in [('il est calme .', 'il est calme .'), ('il est calme', 'il est calme .'),
                    ('je suis chez moi .', "je suis chez moi ."), ('va !', 'va le !'),
                    ('a b c d', 'a b x d e f')]:
    print(pred, '|', round(d2l.bleu(pred, label, k=2), 4), round(d2l.bleu(pred, label, k=4), 4))
lines = ['the time machine by h g wells', 'the time traveller for so it will be',
         'the time machine', '']
tokens = d2l.tokenize(lines)
print(tokens[:2], d2l.tokenize(lines[2:3], 'char'))
attempt(lambda: d2l.tokenize(lines, 'byte'))
vocab = d2l.Vocab(tokens, min_freq=2, reserved_tokens=['<pad>'])
print(len(vocab), vocab.idx_to_token, vocab.token_freqs[:3])
print(vocab['time'], vocab[['the', 'zebra']], vocab.to_tokens([1, 2]), vocab.to_tokens(3), vocab.unk)
print(d2l.truncate_pad([1, 2], 4, 0), d2l.truncate_pad([1, 2, 3, 4, 5], 4, 0))
src, tgt = d2l.tokenize_nmt(d2l.preprocess_nmt('Go.\tVa !\nHi.\tSalut !\nRun!\tCours\u202f!'))
print(src, tgt)
v2 = d2l.Vocab(src, reserved_tokens=['<pad>', '<bos>', '<eos>'])
arr, vl = d2l.build_array_nmt(src, v2, 4)
print(arr, vl, arr.dtype, vl.dtype)

print('== devices / split_batch')
print(d2l.cpu(), d2l.try_gpu(), d2l.try_gpu(2), d2l.try_all_gpus(), d2l.num_gpus())
devices = [mx.cpu(i) for i in range(4)]
Xs, ys = d2l.split_batch(np.arange(24).reshape(8, 3), np.arange(8), devices)
print([x.shape for x in Xs], [x.ctx for x in Xs], [r4(v) for v in ys])
attempt(lambda: d2l.split_batch(np.arange(30).reshape(10, 3), np.arange(10), devices))
Xs, ys = d2l.split_batch(np.arange(30).reshape(10, 3), np.arange(10), devices[:2])
print([x.shape for x in Xs], [r4(v) for v in ys])
attempt(lambda: d2l.split_batch(np.arange(6).reshape(2, 3), np.arange(2), devices))
attempt(lambda: d2l.split_batch(np.arange(6).reshape(3, 2), np.arange(2), devices))

print('== train_2d / show_trace_2d')
eta = 0.4
def f_2d(x1, x2):
    return x1 ** 2 + 2 * x2 ** 2
def gd_2d(x1, x2, s1, s2):
    return (x1 - eta * 2 * x1, x2 - eta * 4 * x2, 0, 0)
res = d2l.train_2d(gd_2d)
d2l.show_trace_2d(f_2d, res)
print(len(res), [round(v, 4) for v in res[-1]])
def momentum_2d(x1, x2, v1, v2):
    v1 = 0.5 * v1 + 0.2 * x1
    v2 = 0.5 * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2
d2l.show_trace_2d(f_2d, d2l.train_2d(momentum_2d))
x1, x2 = d2l.meshgrid(d2l.arange(-2, 1, 1), d2l.arange(-1, 1, 1))
print(x1.shape, r4(x1), r4(x2))
d2l.plt.close('all')

print('== anchor boxes')
boxes = np.array([[60.0, 45.0, 378.0, 516.0], [400.0, 112.0, 655.0, 493.0]])
print(r4(d2l.box_center_to_corner(d2l.box_corner_to_center(boxes)) == boxes))
print(r4(d2l.box_corner_to_center(boxes)))
Y = d2l.multibox_prior(np.zeros((1, 3, 4, 5)), sizes=[0.75, 0.5, 0.25], ratios=[1, 2, 0.5])
print(Y.shape, r4(Y.reshape(4, 5, 5, 4)[1, 1, 0, :]), r4(Y.sum()))
gt = np.array([[0, 0.1, 0.08, 0.52, 0.92], [1, 0.55, 0.2, 0.9, 0.88]])
anchors = np.array([[0, 0.1, 0.2, 0.3], [0.15, 0.2, 0.4, 0.4], [0.63, 0.05, 0.88, 0.98],
                    [0.66, 0.45, 0.8, 0.8], [0.57, 0.3, 0.92, 0.9]])
print(r4(d2l.box_iou(anchors, gt[:, 1:])))
labels = d2l.multibox_target(np.expand_dims(anchors, axis=0), np.expand_dims(gt, axis=0))
print(labels[2], r4(labels[1]), r4(labels[0]))
anchors = np.array([[0.1, 0.08, 0.52, 0.92], [0.08, 0.2, 0.56, 0.95],
                    [0.15, 0.3, 0.62, 0.91], [0.55, 0.2, 0.9, 0.88]])
offset_preds = np.array([0] * d2l.size(anchors))
cls_probs = np.array([[0] * 4, [0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.9]])
print(d2l.nms(anchors, cls_probs[1], 0.5))
output = d2l.multibox_detection(np.expand_dims(cls_probs, axis=0),
                                np.expand_dims(offset_preds, axis=0),
                                np.expand_dims(anchors, axis=0), nms_threshold=0.5)
print(output.shape, r4(output))
