"""MXNet 1.9's Gluon tutorials, loss/: loss, custom-loss (contrastive loss of a Siamese net),
kl_divergence (small fixed data)."""
import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn
from mxnet.gluon.loss import Loss


def r(x, k=4):
    return (x.asnumpy().round(k) + 0).tolist()


def attempt(f):
    try:
        print(r(f()))
    except Exception as e:
        print(type(e).__name__)


# ---- loss.md: curves of the regression and classification losses
x = nd.arange(-2, 2, 0.5)
zeros = nd.zeros_like(x)
ones = nd.ones_like(x)
for loss in (gluon.loss.L2Loss(), gluon.loss.L1Loss(), gluon.loss.HuberLoss(rho=1),
             gluon.loss.HingeLoss(), gluon.loss.SquaredHingeLoss(),
             gluon.loss.LogisticLoss(), gluon.loss.LogisticLoss(label_format='binary'),
             gluon.loss.SigmoidBinaryCrossEntropyLoss(),
             gluon.loss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=True, weight=2.0)):
    label = zeros if isinstance(loss, gluon.loss.L2Loss) or isinstance(loss, gluon.loss.L1Loss) else ones
    xs = nd.sigmoid(x) if getattr(loss, '_from_sigmoid', False) else x
    print(loss.__class__.__name__, loss, r(loss(xs, label)))
    print(r(loss(xs.reshape((2, 4)), label.reshape((2, 4)))))

pred = nd.array([[0.1, 0.9, 0.3], [2.0, -1.0, 0.5], [0.0, 0.0, 0.0], [1.5, 0.2, 3.0]])
lab = nd.array([1, 0, 2, 2])
ce = gluon.loss.SoftmaxCrossEntropyLoss()
print(ce, r(ce(pred, lab)))
print(r(ce(pred, lab, nd.array([1, 0.5, 0, 2]))))
print(r(ce(pred, lab, nd.array([[1], [0.5], [0], [2]]))))
dense = gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)
print(r(dense(pred, nd.one_hot(lab, 3))))
print(r(gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)(nd.log_softmax(pred), lab)))
print(r(gluon.loss.SoftmaxCrossEntropyLoss(axis=0)(pred.T, lab)))
print(r(gluon.loss.SoftmaxCELoss()(pred, lab)))
bce = gluon.loss.SigmoidBCELoss()
print(r(bce(pred, nd.array(np.eye(4, 3)), None, nd.array([1, 2, 3]))))

# the tutorial's "loss of a network" walk-through
net = nn.Dense(1, in_units=3, weight_initializer=init.Constant(0.2), bias_initializer=init.Constant(0.1))
net.initialize()
X = nd.array(np.linspace(-1, 1, 12).reshape(4, 3))
y = nd.array([[0.5], [-0.5], [1.0], [0.0]])
l2 = gluon.loss.L2Loss()
with autograd.record():
    out = l2(net(X), y)
print(r(out))
out.backward()
print(r(net.weight.grad()), r(net.bias.grad()))
print(r(gluon.loss.L2Loss(weight=0.5, batch_axis=1)(X, nd.zeros((4, 3)))))
print(r(gluon.loss.L1Loss()(X, nd.zeros((4, 3)), nd.array([1, 2, 3, 4]).reshape((4, 1)))))

# ranking and embedding losses
t = gluon.loss.TripletLoss(margin=1)
a = nd.array([[1, 0], [0, 1], [0.5, 0.5]])
p = nd.array([[1, 0.1], [0.2, 1], [0.5, 0.4]])
n = nd.array([[0, 1], [1, 0], [0.5, 0.6]])
print(t, r(t(a, p, n)))
cel = gluon.loss.CosineEmbeddingLoss()
print(r(cel(a, n, nd.array([1, -1, 1]))))
print(r(gluon.loss.CosineEmbeddingLoss(margin=0.2)(a, p, nd.array([-1, -1, 1]))))
pn = gluon.loss.PoissonNLLLoss()
print(r(pn(nd.array([[0.5, 1.0], [2.0, 0.2]]), nd.array([[1, 2], [3, 1]]))))
print(r(gluon.loss.PoissonNLLLoss(from_logits=False)(nd.array([[0.5, 1.0], [2.0, 0.2]]), nd.array([[1, 2], [3, 1]]))))
print(r(gluon.loss.PoissonNLLLoss(compute_full=True)(nd.array([[0.5, 1.0], [2.0, 0.2]]), nd.array([[2, 2], [3, 4]]))))
ctc = gluon.loss.CTCLoss()
logits = nd.array(np.sin(np.arange(2 * 5 * 4)).reshape(2, 5, 4))
print(ctc, r(ctc(logits, nd.array([[1, 2], [3, 3]]))))
print(r(gluon.loss.CTCLoss(layout='TNC')(logits.transpose((1, 0, 2)), nd.array([[1, 2], [3, 3]]))))
print(r(ctc(logits, nd.array([[1, 2, 0], [3, 0, 0]]), nd.array([5, 4]), nd.array([2, 1]))))
attempt(lambda: gluon.loss.L2Loss()(nd.ones((2, 3)), nd.ones((3, 2))))
attempt(lambda: gluon.loss.SoftmaxCrossEntropyLoss()(nd.ones((2, 3)), nd.ones((3,))))

# loss.md's own cells: 1-D predictions and labels, a (N, 1) output against (N,) labels, 1-D cosine pairs
from mxnet.gluon import loss as gloss
loss = gloss.L2Loss()
x = nd.ones((2,))
y = nd.ones((2,)) * 2
print(loss(x, y), .5 * (x - y) ** 2)
X = nd.array(np.linspace(0, 1, 8).reshape(2, 4))
net = nn.Dense(1, weight_initializer=mx.init.Constant(0.3))
net.initialize()
with autograd.record():
    l = loss(net(X), y)
print(r(l))
l.backward()
print(r(net.weight.grad()))
for L in (gloss.L1Loss(), gloss.L2Loss(), gloss.HuberLoss(rho=1)):
    xx = nd.arange(-5, 5, .5)
    print(r(L(xx, nd.zeros_like(xx))))
for L in (gloss.SigmoidBinaryCrossEntropyLoss(), gloss.HingeLoss(), gloss.LogisticLoss()):
    xx = nd.arange(-5, 5, .5)
    print(r(L(xx, nd.ones_like(xx))))
print(r(gloss.SoftmaxCrossEntropyLoss()(nd.array([[1, 10], [8, 2]]), nd.array([0, 1])), 3))
for a, b, lab in (([1, 0, 1, 0, 1, 0], [1, 0, 1, 0, 1, 0], 1), ([1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1], -1)):
    print(gloss.CosineEmbeddingLoss()(mx.nd.array(a), mx.nd.array(b), mx.nd.array(lab)))
print(loss(x, y, nd.array([1, 2])))

# ---- kl_divergence.md
output = nd.array([[0.39056206, 1.3068528, 0.39056206, -0.30258512]])
print(r(nd.softmax(output)))
target_dist = nd.array([[0.3, 0.4, 0.1, 0.2]])
loss_fn = gluon.loss.KLDivLoss()
print(loss_fn, r(loss_fn(nd.log_softmax(output), target_dist)))
print(r(gluon.loss.KLDivLoss(from_logits=False)(output, target_dist)))
print(r(gluon.loss.KLDivLoss(axis=0)(nd.log_softmax(output.T, axis=0), target_dist.T)))
log_q = nd.log_softmax(output)
p = target_dist
print(round((p * (nd.log(p) - log_q)).mean().asscalar(), 4))
kl = gluon.loss.KLDivLoss()
kl.hybridize()
print(r(kl(nd.log_softmax(output), target_dist)))


# ---- custom-loss.md: a contrastive loss and a Siamese network
class ContrastiveLoss(Loss):
    def __init__(self, margin=6., weight=None, batch_axis=0, **kwargs):
        super(ContrastiveLoss, self).__init__(weight, batch_axis, **kwargs)
        self.margin = margin

    def hybrid_forward(self, F, image1, image2, label):
        distances = image1 - image2
        distances_squared = F.sum(F.square(distances), 1, keepdims=True)
        euclidean_distances = F.sqrt(distances_squared + 0.0001)
        d = F.clip(self.margin - euclidean_distances, 0, self.margin)
        loss = (1 - label) * distances_squared + label * F.square(d)
        loss = 0.5 * loss
        return loss


loss = ContrastiveLoss(margin=6.0)
print(loss)
img1 = nd.array(np.linspace(0, 1, 8).reshape(2, 4))
img2 = nd.array(np.linspace(1, 0, 8).reshape(2, 4))
lbl = nd.array([[0], [1]])
print(r(loss(img1, img2, lbl)))
loss.hybridize()
print(r(loss(img1, img2, lbl)))


class Siamese(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(Siamese, self).__init__(**kwargs)
        with self.name_scope():
            self.cnn = gluon.nn.HybridSequential()
            with self.cnn.name_scope():
                self.cnn.add(gluon.nn.Conv2D(4, kernel_size=3, activation='relu'))
                self.cnn.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
                self.cnn.add(gluon.nn.Flatten())
                self.cnn.add(gluon.nn.Dense(6, activation='relu'))
                self.cnn.add(gluon.nn.Dense(2))

    def hybrid_forward(self, F, input0, input1):
        out0 = self.cnn(input0)
        out1 = self.cnn(input1)
        return out0, out1


model = Siamese()
print(model)
model.initialize(init=init.Xavier())
i0 = nd.array(np.cos(np.arange(2 * 64)).reshape(2, 1, 8, 8))
i1 = nd.array(np.sin(np.arange(2 * 64)).reshape(2, 1, 8, 8))
model(i0, i1)
for k, (name, prm) in enumerate(sorted(model.collect_params().items())):
    prm.set_data(nd.array(np.cos(np.arange(prm.data().size) * 0.3 + k).reshape(prm.shape) * 0.3))
print(sorted(model.collect_params().keys()))
model.hybridize()
trainer = gluon.Trainer(model.collect_params(), 'sgd', {'learning_rate': 0.01, 'momentum': 0.9})
loss_fn = ContrastiveLoss()
for epoch in range(3):
    with autograd.record():
        out0, out1 = model(i0, i1)
        lv = loss_fn(out0, out1, nd.array([[0], [1]]))
    lv.backward()
    trainer.step(2)
    print(epoch, r(lv, 3), r(out0, 3))
