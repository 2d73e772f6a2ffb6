import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import loss as gloss

def show(name, l):
    print(name, l.shape, l.dtype, [round(float(v), 4) for v in l.asnumpy().ravel()])

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)

pred = nd.array([[0.2, -1.0, 0.5], [1.5, 0.3, -0.7]])
label = nd.array([[0.0, -0.5, 1.0], [1.0, 0.0, 0.0]])
sw = nd.array([[0.5], [2.0]])
for cls in [gloss.L2Loss, gloss.L1Loss, gloss.HuberLoss, gloss.HingeLoss, gloss.SquaredHingeLoss,
            gloss.LogisticLoss]:
    l = cls()
    print(l)
    show(cls.__name__, l(pred, label))
    show(cls.__name__ + '-sw', l(pred, label, sw))
show('L2w', gloss.L2Loss(weight=3.0)(pred, label))
show('Huber-rho', gloss.HuberLoss(rho=0.3)(pred, label))
show('Hinge-m', gloss.HingeLoss(margin=2)(pred, label))
bl = nd.array([[0, 1, 1], [1, 0, 0]])
show('Logistic-binary', gloss.LogisticLoss(label_format='binary')(pred, bl))
show('SBCE', gloss.SigmoidBinaryCrossEntropyLoss()(pred, bl))
show('SBCE-logits', gloss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=True)(nd.sigmoid(pred), bl))
show('SBCE-pw', gloss.SigmoidBCELoss()(pred, bl, None, nd.array([2.0, 1.0, 0.5])))
show('SBCE-sw', gloss.SigmoidBCELoss()(pred, bl, sw))
sl = nd.array([2, 0])
show('SCE', gloss.SoftmaxCrossEntropyLoss()(pred, sl))
show('SCE-sw', gloss.SoftmaxCELoss()(pred, sl, sw))
show('SCE-dense', gloss.SoftmaxCrossEntropyLoss(sparse_label=False)(pred, nd.softmax(label)))
show('SCE-logits', gloss.SoftmaxCrossEntropyLoss(from_logits=True)(nd.log_softmax(pred), sl))
show('SCE-axis0', gloss.SoftmaxCrossEntropyLoss(axis=0)(pred, nd.array([1, 0, 1])))
p3 = nd.array([[[0.1, 0.2], [0.3, -0.4]], [[1.0, 0.0], [0.5, 0.5]]])
show('SCE-3d', gloss.SoftmaxCrossEntropyLoss()(p3, nd.array([[1, 0], [0, 1]])))
show('SCE-batch1', gloss.SoftmaxCrossEntropyLoss(batch_axis=1)(p3, nd.array([[1, 0], [0, 1]])))
kl_label = nd.softmax(label)
show('KL', gloss.KLDivLoss()(nd.log_softmax(pred), kl_label))
show('KL-nologits', gloss.KLDivLoss(from_logits=False)(pred, kl_label))
show('Poisson', gloss.PoissonNLLLoss()(pred, nd.abs(label)))
show('Poisson-nolog', gloss.PoissonNLLLoss(from_logits=False)(nd.abs(pred) + 0.1, nd.abs(label)))
show('Poisson-full', gloss.PoissonNLLLoss(compute_full=True)(pred, nd.abs(label) * 3 + 0.5))
show('Cosine', gloss.CosineEmbeddingLoss()(pred, label, nd.array([1, -1])))
show('Cosine-m', gloss.CosineEmbeddingLoss(margin=0.2)(pred, label, nd.array([-1, -1])))
a = nd.array([[1.0, 2.0], [0.0, 1.0]]); b = nd.array([[1.5, 2.0], [1.0, 1.0]]); c = nd.array([[0.0, 0.0], [0.0, 3.0]])
show('Triplet', gloss.TripletLoss()(a, b, c))
show('Triplet-m', gloss.TripletLoss(margin=3)(a, b, c))
show('SDML', gloss.SDMLLoss()(a, b))
show('SDML-s', gloss.SDMLLoss(smoothing_parameter=0.1)(nd.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), nd.array([[0.9, 0.1], [0.2, 0.8], [1.0, 0.5]])))
print(gloss.SDMLLoss())
# CTC
ctc_pred = nd.array([[[0.1, 0.6, 0.3], [0.5, 0.2, 0.3], [0.2, 0.2, 0.6], [0.3, 0.4, 0.3]]]).log()
ctc_pred = nd.concat(ctc_pred, ctc_pred[:, ::-1] if False else ctc_pred, dim=0)
show('CTC', gloss.CTCLoss(layout='NTC')(ctc_pred, nd.array([[1, 0], [1, -1]])))
show('CTC-len', gloss.CTCLoss(layout='NTC')(ctc_pred, nd.array([[1, 0], [0, 0]]), nd.array([4, 3]), nd.array([2, 1])))
show('CTC-TNC', gloss.CTCLoss(layout='TNC')(ctc_pred.transpose((1, 0, 2)), nd.array([[1, 1], [0, 1]])))
print(gloss.CTCLoss())
# shapes and errors
show('L2-1d', gloss.L2Loss()(nd.array([1, 2, 3]), nd.array([1, 1, 1])))
show('L2-reshape', gloss.L2Loss()(pred, label.reshape((6,))))
err(lambda: gloss.L2Loss()(pred, nd.ones((3, 2, 1))))
err(lambda: gloss.SoftmaxCrossEntropyLoss()(pred, nd.array([1, 2, 0])))
# autograd
x = nd.array([[0.5, -0.2]])
x.attach_grad()
with mx.autograd.record():
    l = gloss.SoftmaxCrossEntropyLoss()(x, nd.array([1]))
l.backward()
print(x.grad.asnumpy().round(5))
with mx.autograd.record():
    l = gloss.HuberLoss()(x, nd.array([[0.0, 2.0]]))
l.backward()
print(x.grad.asnumpy().round(5))
h = gloss.L1Loss(); h.hybridize()
show('L1-hyb', h(pred, label))
