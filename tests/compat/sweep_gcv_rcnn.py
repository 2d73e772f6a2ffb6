"""GluonCV 0.10.5 Faster R-CNN (ResNet50-v1b, VOC): training-mode outputs with ground truth, the
RCNN target generator, inference outputs after set_nms; pretrained_base=False, tiny inputs."""
import warnings
import numpy as np
import mxnet as mx
from mxnet import autograd
from gluoncv import model_zoo
from _gcv_zoo import attempt, shapes, describe

warnings.simplefilter('ignore')
mx.random.seed(0)

net = model_zoo.get_model('faster_rcnn_resnet50_v1b_voc', pretrained=False, pretrained_base=False)
net.initialize()
print(type(net).__name__, net.num_class, net.classes[:2], net.short, net.max_size)
x = mx.nd.ones((1, 3, 192, 192)) * 0.5  # 12 x 12 x 15 anchors: at least rpn_train_post_nms (2000)
gt_box = mx.nd.array([[[8.0, 10, 60, 70], [40, 30, 120, 90]]])
gt_label = mx.nd.array([[[4], [11]]])
net.hybridize()
with autograd.train_mode():  # too few anchors for 2000 proposals
    attempt(lambda: net(mx.nd.ones((1, 3, 96, 128)), gt_box, gt_label)[0].shape)
with autograd.train_mode():
    out = net(x, gt_box, gt_label)
print('train', len(out), shapes(out[:8]))
cls_pred, box_pred, rpn_box, samples, matches, raw_rpn_score, raw_rpn_box, anchors = out[:8]
print('anchors', round(float(anchors.asnumpy().astype(np.float64).sum()), 1),
      np.round(anchors[0, :2].asnumpy().astype(np.float64), 3).tolist())
print('samples', sorted(set(samples.asnumpy().reshape(-1).tolist())))
targets = net.target_generator(rpn_box, samples, matches, gt_label, gt_box)
print('targets', shapes(list(targets)))
print('cls_targets', sorted(set(targets[0].asnumpy().reshape(-1).tolist()))[:3])
describe(net)
net.set_nms(nms_thresh=0.5, nms_topk=10, post_nms=5)
ids, scores, boxes = net(x)
print('infer', shapes([ids, scores, boxes]))
kept = ids.asnumpy()[0, :, 0] >= 0
print('kept ids valid', bool(np.isin(ids.asnumpy()[0, kept, 0], np.arange(20)).all()))
attempt(lambda: net.reset_class(['p', 'q'], reuse_weights={'p': 'person'}))  # GluonCV sets a lambda over a Block
attempt(lambda: model_zoo.get_model('faster_rcnn_resnet50_v1b_nope'))

print('== a shape error while tracing, with Parameters deferred or not')


class Slicer(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.slice_axis(x, axis=1, begin=0, end=20)


for layers in ([mx.gluon.nn.Dense(3), mx.gluon.nn.Dense(4, in_units=5)], [mx.gluon.nn.Dense(3), Slicer()],
               [mx.gluon.nn.Dense(3, in_units=7), Slicer()]):
    seq = mx.gluon.nn.HybridSequential()
    seq.add(*layers)
    seq.initialize()
    seq.hybridize()
    attempt(lambda: seq(mx.nd.ones((2, 7))))
