"""GluonCV 0.10.5 detectors (SSD, YOLOv3): outputs in inference and training mode, anchors,
the training-target generators; pretrained_base=False (no downloads), tiny inputs."""
import warnings
import numpy as np
import mxnet as mx
from mxnet import autograd
from gluoncv import model_zoo
from gluoncv.model_zoo.yolo.yolo_target import YOLOV3PrefetchTargetGenerator
from gluoncv.nn.coder import MultiPerClassDecoder, NormalizedBoxCenterDecoder, NormalizedBoxCenterEncoder
from gluoncv.model_zoo.ssd.target import SSDTargetGenerator
from _gcv_zoo import attempt, shapes, describe

warnings.simplefilter('ignore')
mx.random.seed(0)


def s(x):
    return round(float(x.asnumpy().astype(np.float64).sum()), 2)


def build(name, **kwargs):
    net = model_zoo.get_model(name, pretrained=False, pretrained_base=False, **kwargs)
    net.initialize()
    return net


x = mx.nd.ones((1, 3, 128, 128)) * 0.5
print('== ssd')
net = build('ssd_512_resnet50_v1_voc')
print(len(net.classes), net.classes[:3], net.num_classes)
net.hybridize()
with autograd.train_mode():
    cls_preds, box_preds, anchors = net(x)
print('train', shapes([cls_preds, box_preds, anchors]))
print('anchors', s(anchors), np.round(anchors[0, :3].asnumpy().astype(np.float64), 4).tolist())
describe(net)
net.set_nms(nms_thresh=0.3, nms_topk=50, post_nms=20)
print('set_nms', shapes(net(x)))
net.reset_class(['a', 'b'])
print('reset_class', net.classes, shapes(net(x)))

print('== ssd target')
gen = SSDTargetGenerator(iou_thresh=0.5, stds=(0.1, 0.1, 0.2, 0.2))
anc = mx.nd.array([[[0.0, 0.0, 10, 10], [5, 5, 15, 15], [0, 0, 20, 20], [12, 12, 20, 20]]])
cls_p = mx.nd.zeros((1, 4, 3))
gt_b = mx.nd.array([[[1.0, 1, 11, 11], [11, 11, 19, 19]]])
gt_i = mx.nd.array([[[0], [1]]])
ct, bt, bm = gen(anc, cls_p, gt_b, gt_i)
print(ct.asnumpy().tolist(), np.round(bt.asnumpy().astype(np.float64), 3).tolist(), bm.asnumpy().sum())
enc = NormalizedBoxCenterEncoder(stds=(0.1, 0.1, 0.2, 0.2))
dec = NormalizedBoxCenterDecoder(stds=(0.1, 0.1, 0.2, 0.2))
print('decode', np.round(dec(bt, anc).asnumpy().astype(np.float64), 3).tolist())
mdec = MultiPerClassDecoder(num_class=3, thresh=0.1)
cid, score = mdec(mx.nd.array([[[0.2, 0.5, 0.3], [0.9, 0.05, 0.05]]]))
print('mdec', cid.asnumpy().tolist(), np.round(score.asnumpy().astype(np.float64), 3).tolist())

print('== yolo')
net = build('yolo3_darknet53_voc')
net.hybridize()
with autograd.train_mode():
    out = net(x)
print('train', shapes(out))
describe(net)
print('anchors', [a.asnumpy().reshape(-1).tolist() for a in out[1]])
print('offsets', [o.shape for o in out[2]], s(out[2][0]))
tg = YOLOV3PrefetchTargetGenerator(num_class=20)
gt = mx.nd.array([[[10.0, 20, 60, 90], [70, 30, 120, 100]]])
targets = tg(x, out[3], out[1], out[2], gt, mx.nd.array([[[3], [7]]]), None)
print('targets', [(t.shape, s(t)) for t in targets])
with autograd.record():  # the cached graph took one input: a call with targets does not fit it
    attempt(lambda: [l.shape for l in net(x, gt, *targets)])
net.set_nms(post_nms=10)
print('set_nms', shapes(net(x)))
net.reset_class(['a', 'b', 'c'], reuse_weights={'a': 'cat'})
print('reset_class', net.classes, shapes(net(x)))

attempt(lambda: build('ssd_300_nope_voc'))
