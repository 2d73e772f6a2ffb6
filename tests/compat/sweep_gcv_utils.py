"""GluonCV 0.10.5 utilities as its users call them: bbox helpers, metrics, LR schedules, export, losses."""
import os, tempfile, warnings
import numpy as np
import mxnet as mx
import gluoncv
from gluoncv import utils, loss as gloss
from gluoncv.utils import bbox as ubbox, metrics

warnings.simplefilter('ignore')


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def r4(x):
    if isinstance(x, mx.nd.NDArray):
        x = x.asnumpy()
    return np.round(np.asarray(x, dtype=np.float64), 4).tolist()


print('== bbox')
a = np.array([[0, 0, 10, 10], [5, 5, 15, 15], [0, 0, 4, 4]], 'float32')
b = np.array([[0, 0, 10, 10], [2, 2, 6, 6]], 'float32')
print(r4(utils.bbox_iou(a, b)))
print(r4(utils.bbox_iou(a, b, offset=1)))
attempt(lambda: utils.bbox_iou(a[:, :3], b))
print(r4(ubbox.bbox_xywh_to_xyxy(np.array([[1, 2, 3, 4], [0, 0, 1, 1]], 'float32'))))
print(r4(ubbox.bbox_xywh_to_xyxy([1, 2, 3, 4])))
print(r4(ubbox.bbox_xyxy_to_xywh(np.array([[1, 2, 3, 4]], 'float32'))))
print(r4(ubbox.bbox_xyxy_to_xywh((1, 2, 5, 9))))
print(r4(ubbox.bbox_clip_xyxy(np.array([[-3, 2, 30, 40]], 'float32'), 20, 25)))
attempt(lambda: ubbox.bbox_xywh_to_xyxy('abcd'))

print('== VOCMApMetric')
def voc_inputs():
    pred_bboxes = mx.nd.array([[[0, 0, 10, 10], [5, 5, 15, 15], [20, 20, 30, 30], [0, 0, 9, 9], [-1, -1, -1, -1]]])
    pred_labels = mx.nd.array([[0, 1, 0, 0, 1]])
    pred_scores = mx.nd.array([[0.5, 0.8, 0.7, 0.6, -1]])
    gt_bboxes = mx.nd.array([[[0, 0, 10, 10], [5, 5, 15, 15], [40, 40, 50, 50]]])
    gt_labels = mx.nd.array([[0, 1, 2]])
    gt_difficult = mx.nd.array([[0, 0, 1]])
    return pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_difficult

for cls in (metrics.VOCMApMetric, metrics.VOC07MApMetric):
    m = cls(iou_thresh=0.5, class_names=['cat', 'dog', 'cow'])
    m.update(*voc_inputs())
    names, values = m.get()
    print(cls.__name__, names, r4(values))
    m.reset()
    m.update(*voc_inputs()[:5])  # no difficult flags
    print(r4(m.get()[1]))
    m2 = cls(iou_thresh=0.7)
    m2.update(*voc_inputs())
    print(m2.get()[0], r4(m2.get()[1]))
attempt(lambda: metrics.VOCMApMetric().get())

print('== SegmentationMetric')
sm = metrics.SegmentationMetric(3)
pred = mx.nd.array(np.eye(3)[[0, 1, 2, 2, 1, 0, 0, 1]].T.reshape(1, 3, 2, 4))
label = mx.nd.array([[[0, 1, 2, 1], [1, 0, 2, 1]]])
sm.update(label, pred)
print(sm.get()[0] if isinstance(sm.get()[0], str) else sm.get()[0], r4(sm.get()))
sm.update([label], [pred])
print(r4(sm.get()))
sm.reset()
print(r4(sm.get()))
hm = metrics.HeatmapAccuracy()
print(hm.name)

print('== lr_scheduler')
def lrs(s, n):
    return [round(s(i), 6) for i in range(n)]
for mode in ('constant', 'step', 'linear', 'poly', 'cosine'):
    s = utils.LRScheduler(mode, base_lr=0.1, target_lr=0.01, nepochs=4, iters_per_epoch=2,
                          step_epoch=[1, 3], step_factor=0.5, power=2)
    print(mode, lrs(s, 9))
s = utils.LRScheduler('step', base_lr=0.1, nepochs=4, iters_per_epoch=2, step_epoch=[2], step_factor=0.1,
                      offset=1)
print('offset', lrs(s, 9))
s = utils.LRScheduler('step', base_lr=0.1, nepochs=4, iters_per_epoch=2, step_iter=[3, 5], step_factor=0.1)
print('step iters', lrs(s, 8))
attempt(lambda: utils.LRScheduler('exp', base_lr=0.1, nepochs=1, iters_per_epoch=1))
seq = utils.LRSequential([utils.LRScheduler('linear', base_lr=0.0, target_lr=0.1, nepochs=1, iters_per_epoch=3),
                          utils.LRScheduler('cosine', base_lr=0.1, target_lr=0.0, nepochs=2, iters_per_epoch=3)])
print('seq', lrs(seq, 10), round(seq.base_lr, 6), round(seq.learning_rate, 6))
attempt(lambda: utils.LRSequential([]))
s = utils.LRScheduler('linear', base_lr=1.0, target_lr=0.0, nepochs=1, iters_per_epoch=4)
opt = mx.optimizer.SGD(learning_rate=1.0, lr_scheduler=s)
print('opt', [round(opt._get_lr(0), 4) for _ in range(1)], opt.learning_rate)

print('== export_block')
tmp = tempfile.mkdtemp()
net = mx.gluon.nn.HybridSequential()
with net.name_scope():
    net.add(mx.gluon.nn.Conv2D(2, 3, in_channels=3), mx.gluon.nn.GlobalAvgPool2D(), mx.gluon.nn.Flatten())
net.initialize(mx.init.Constant(0.01))
utils.export_block(os.path.join(tmp, 'm'), net, data_shape=(8, 8, 3), preprocess=True, layout='HWC')
print(sorted(os.listdir(tmp)))
sym = mx.sym.load(os.path.join(tmp, 'm-symbol.json'))
print(sym.list_arguments())
print(sorted(mx.nd.load(os.path.join(tmp, 'm-0000.params')).keys()))
tmp2 = tempfile.mkdtemp()
net2 = mx.gluon.nn.HybridSequential()
net2.add(mx.gluon.nn.Dense(3, in_units=4))
net2.initialize()
utils.export_block(os.path.join(tmp2, 'd'), net2, data_shape=(1, 2, 2), preprocess=False, layout='CHW', epoch=7)
attempt(lambda: utils.export_block(os.path.join(tmp2, 'f'), net2, preprocess=False))
print(sorted(os.listdir(tmp2)))
attempt(lambda: utils.export_block(os.path.join(tmp2, 'e'), net2, data_shape=(4,), layout='HWC'))

print('== losses')
pred = mx.nd.array([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0]])
lab = mx.nd.array([0, 2, 1])
fl = gloss.FocalLoss(num_class=3)
print('focal', r4(fl(pred, lab)))
fl2 = gloss.FocalLoss(num_class=3, sparse_label=False, from_logits=True, alpha=0.5, gamma=1)
print('focal2', r4(fl2(mx.nd.softmax(pred), mx.nd.one_hot(lab, 3))))
fl3 = gloss.FocalLoss(num_class=3, size_average=False)
print('focal3', r4(fl3(pred, lab)))
ce = gloss.SoftmaxCrossEntropyLoss()
print('ce', r4(ce(pred, lab)))
seg_pred = mx.nd.array(np.arange(24).reshape(1, 3, 2, 4) % 5 * 0.3)
seg_lab = mx.nd.array([[[0, 1, 2, -1], [2, 1, 0, 1]]])
mix = gloss.MixSoftmaxCrossEntropyLoss(aux=True, aux_weight=0.4)
print('mix', r4(mix(seg_pred, seg_pred * 0.5, seg_lab)))
mix2 = gloss.MixSoftmaxCrossEntropyLoss(aux=False)
print('mix2', r4(mix2(seg_pred, seg_lab)))
hm = gloss.HeatmapFocalLoss(from_logits=True)
hp = mx.nd.array(np.linspace(0.05, 0.95, 16).reshape(1, 1, 4, 4))
hl = mx.nd.array(np.array([[[[1, 0.5, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0.2], [0, 0, 0, 0]]]]))
print('heatmap', r4(hm(hp, hl)))
ml = gloss.MaskedL1Loss()
print('maskedl1', r4(ml(mx.nd.array([[1.0, 2.0], [3.0, 4.0]]), mx.nd.array([[1.5, 0.0], [3.0, 6.0]]),
                        mx.nd.array([[1, 0], [1, 1]]))))
dl = gloss.DistillationSoftmaxCrossEntropyLoss(temperature=2.0, hard_weight=0.3)
print('distill', r4(dl(pred, lab, pred * 0.5)))
ssd_loss = gloss.SSDMultiBoxLoss()
cls_pred = mx.nd.array(np.arange(2 * 4 * 3).reshape(2, 4, 3) % 7 * 0.2)
box_pred = mx.nd.array(np.arange(2 * 4 * 4).reshape(2, 4, 4) % 5 * 0.1)
cls_t = mx.nd.array([[1, 0, 0, 2], [0, 0, 1, -1]])
box_t = mx.nd.array(np.arange(2 * 4 * 4).reshape(2, 4, 4) % 3 * 0.1)
out = ssd_loss(cls_pred, box_pred, cls_t, box_t)
print('ssd', [r4(o) for o in out[0]] if isinstance(out[0], list) else r4(out[0]), [r4(o) for o in out[1]], [r4(o) for o in out[2]])
out = ssd_loss([cls_pred], [box_pred], [cls_t * 0], [box_t])
print('ssd0', [r4(o) for o in out[0]])

print('== viz and helpers')
from gluoncv.utils import viz
print([callable(getattr(viz, n, None)) for n in ('plot_bbox', 'plot_image', 'cv_plot_bbox', 'plot_mask')])
blk = mx.gluon.nn.HybridSequential()
blk.add(mx.gluon.nn.Conv2D(2, 3, in_channels=1), mx.gluon.nn.BatchNorm(in_channels=2), mx.gluon.nn.Dense(2, in_units=2))
utils.set_lr_mult(blk, '.*conv.*', 0.1)
print(sorted((k, v.lr_mult) for k, v in blk.collect_params().items()))
utils.freeze_bn(blk, use_global_stats=True)
print(blk[1]._kwargs.get('use_global_stats'))
data = utils.split_and_load(mx.nd.arange(8).reshape((4, 2)), [mx.cpu(0), mx.cpu(1)])
print([d.shape for d in data])
