"""The Straight Dope, chapter 8 (object detection): the toy SSD built from MultiBoxPrior anchors,
class and box predictors, down-sampling blocks, MultiBoxTarget training targets, focal and smooth-L1
losses, metrics and MultiBoxDetection; a 16x16 image, fixed weights, one training step."""
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon
from mxnet.gluon import nn
from mxnet.contrib.ndarray import MultiBoxPrior, MultiBoxTarget, MultiBoxDetection
from _sd_common import pat, fill, r, show, attempt

n = 8
x = pat((1, 3, n, n), 0, 1.0)
y = MultiBoxPrior(x, sizes=[.5, .25, .1], ratios=[1, 2, .5])
print(y.shape)
boxes = y.reshape((n, n, -1, 4))
print('The first anchor box at row 5, column 5:', r(boxes[4, 4, 0, :]))
print(r(boxes[4, 4, :, :]))
print(r(MultiBoxPrior(x, sizes=[.3], ratios=[1], steps=(0.25, 0.25), offsets=(0.2, 0.2), clip=True)[0, :3]))


def class_predictor(num_anchors, num_classes):
    return nn.Conv2D(num_anchors * (num_classes + 1), 3, padding=1)


cls_pred = class_predictor(5, 10)
cls_pred.initialize()
x = nd.zeros((2, 3, 20, 20))
print('Class prediction', cls_pred(x).shape)


def box_predictor(num_anchors):
    return nn.Conv2D(num_anchors * 4, 3, padding=1)


box_pred = box_predictor(10)
box_pred.initialize()
x = nd.zeros((2, 3, 20, 20))
print('Box prediction', box_pred(x).shape)


def down_sample(num_filters):
    out = nn.HybridSequential()
    for _ in range(2):
        out.add(nn.Conv2D(num_filters, 3, strides=1, padding=1))
        out.add(nn.BatchNorm(in_channels=num_filters))
        out.add(nn.Activation('relu'))
    out.add(nn.MaxPool2D(2))
    return out


blk = down_sample(10)
blk.initialize()
x = nd.zeros((2, 3, 20, 20))
print('Before', x.shape, 'after', blk(x).shape)
x = nd.zeros((2, 8, 20, 20))
print('x', x.shape)
cls_pred1 = class_predictor(5, 10)
cls_pred1.initialize()
y1 = cls_pred1(x)
print('Class prediction for scale 1', y1.shape)
ds = down_sample(16)
ds.initialize()
x = ds(x)
print('x', x.shape)
cls_pred2 = class_predictor(3, 10)
cls_pred2.initialize()
y2 = cls_pred2(x)
print('Class prediction for scale 2', y2.shape)


def flatten_prediction(pred):
    return pred.transpose(axes=(0, 2, 3, 1)).flatten()


def concat_predictions(preds):
    return nd.concat(*preds, dim=1)


flat_y1 = flatten_prediction(y1)
print('Flatten class prediction 1', flat_y1.shape)
flat_y2 = flatten_prediction(y2)
print('Flatten class prediction 2', flat_y2.shape)
print('Concat class predictions', concat_predictions([flat_y1, flat_y2]).shape)


def body():
    out = nn.HybridSequential()
    for nfilters in [8]:  # the chapter's [16, 32, 64], on a 16x16 image
        out.add(down_sample(nfilters))
    return out


bnet = body()
bnet.initialize()
x = nd.zeros((2, 3, 16, 16))
print('Body network', [y.shape for y in bnet(x)])


def toy_ssd_model(num_anchors, num_classes):
    downsamplers = nn.Sequential()
    for _ in range(3):
        downsamplers.add(down_sample(8))
    class_predictors = nn.Sequential()
    box_predictors = nn.Sequential()
    for _ in range(5):
        class_predictors.add(class_predictor(num_anchors, num_classes))
        box_predictors.add(box_predictor(num_anchors))
    model = nn.Sequential()
    model.add(body(), downsamplers, class_predictors, box_predictors)
    return model


def toy_ssd_forward(x, model, sizes, ratios, verbose=False):
    body, downsamplers, class_predictors, box_predictors = model
    anchors, class_preds, box_preds = [], [], []
    x = body(x)
    for i in range(5):
        anchors.append(MultiBoxPrior(x, sizes=sizes[i], ratios=ratios[i]))
        class_preds.append(flatten_prediction(class_predictors[i](x)))
        box_preds.append(flatten_prediction(box_predictors[i](x)))
        if verbose:
            print('Predict scale', i, x.shape, 'with', anchors[-1].shape[1], 'anchors')
        if i < 3:
            x = downsamplers[i](x)
        elif i == 3:
            x = nd.Pooling(x, global_pool=True, pool_type='max', kernel=(x.shape[2], x.shape[3]))
    return anchors, class_preds, box_preds


class ToySSD(gluon.Block):
    def __init__(self, num_classes, verbose=False, **kwargs):
        super(ToySSD, self).__init__(**kwargs)
        self.anchor_sizes = [[.2, .272], [.37, .447], [.54, .619], [.71, .79], [.88, .961]]
        self.anchor_ratios = [[1, 2, .5]] * 5
        self.num_classes = num_classes
        self.verbose = verbose
        with self.name_scope():
            self.model = toy_ssd_model(4, num_classes)

    def forward(self, x):
        anchors, class_preds, box_preds = toy_ssd_forward(x, self.model, self.anchor_sizes,
                                                          self.anchor_ratios, verbose=self.verbose)
        anchors = concat_predictions(anchors)
        class_preds = concat_predictions(class_preds)
        box_preds = concat_predictions(box_preds)
        class_preds = class_preds.reshape(shape=(0, -1, self.num_classes + 1))
        return anchors, class_preds, box_preds


net = ToySSD(2, verbose=True)
net.initialize()
x = pat((2, 3, 16, 16), 1, 1.0)
default_anchors, class_predictions, box_predictions = net(x)
print('Outputs:', 'anchors', default_anchors.shape, 'class prediction', class_predictions.shape,
      'box prediction', box_predictions.shape)
net.verbose = False
params = net.collect_params()
print(len(list(params.keys())), sorted(params.keys())[:6])
fill(params, 0.2)
print(net.model[0])


def training_targets(default_anchors, class_predicts, labels):
    class_predicts = nd.transpose(class_predicts, axes=(0, 2, 1))
    z = MultiBoxTarget(*[default_anchors, labels, class_predicts])
    box_target = z[0]
    box_mask = z[1]
    cls_target = z[2]
    return box_target, box_mask, cls_target


class FocalLoss(gluon.loss.Loss):
    def __init__(self, axis=-1, alpha=0.25, gamma=2, batch_axis=0, **kwargs):
        super(FocalLoss, self).__init__(None, batch_axis, **kwargs)
        self._axis = axis
        self._alpha = alpha
        self._gamma = gamma

    def hybrid_forward(self, F, output, label):
        output = F.softmax(output)
        pj = output.pick(label, axis=self._axis, keepdims=True)
        loss = - self._alpha * ((1 - pj) ** self._gamma) * pj.log()
        return loss.mean(axis=self._batch_axis, exclude=True)


class SmoothL1Loss(gluon.loss.Loss):
    def __init__(self, batch_axis=0, **kwargs):
        super(SmoothL1Loss, self).__init__(None, batch_axis, **kwargs)

    def hybrid_forward(self, F, output, label, mask):
        loss = F.smooth_l1((output - label) * mask, scalar=1.0)
        return loss.mean(self._batch_axis, exclude=True)


cls_loss = FocalLoss()
box_loss = SmoothL1Loss()
print(cls_loss, box_loss)
label = nd.array([[[0, .1, .1, .5, .45], [1, .55, .5, .9, .85], [-1, -1, -1, -1, -1]],
                  [[1, .3, .2, .7, .6], [-1, -1, -1, -1, -1], [-1, -1, -1, -1, -1]]])
box_target, box_mask, cls_target = training_targets(default_anchors, class_predictions, label)
print(box_target.shape, box_mask.shape, cls_target.shape)
print('positives', r(nd.sum(box_mask, axis=1) / 4), 'classes', r(nd.sum(cls_target > 0, axis=1)))
pos = np.nonzero(cls_target[0].asnumpy())[0]
print(pos.tolist(), r(cls_target[0])[int(pos[0])])
print(r(box_target[0].reshape((-1, 4))[int(pos[0])]))
anchors, cls_preds, box_preds = net(x[:1])
cls_probs = nd.SoftmaxActivation(nd.transpose(cls_preds, (0, 2, 1)), mode='channel')
print(cls_probs.shape, r(nd.sum(cls_probs, axis=1))[0][:4])
output = MultiBoxDetection(*[cls_probs, box_preds, anchors], force_suppress=True, clip=False)
print(output.shape)
rows = output[0].asnumpy()
kept = rows[rows[:, 0] >= 0]
print(len(kept), np.round(kept[:3], 3).tolist())
out2 = MultiBoxDetection(cls_probs, box_preds, anchors, nms_threshold=0.3, threshold=0.2, nms_topk=20)
rows = out2[0].asnumpy()
print(out2.shape, int((rows[:, 0] >= 0).sum()), np.round(rows[rows[:, 0] >= 0][:2], 3).tolist())
cls_metric = mx.metric.Accuracy()
box_metric = mx.metric.MAE()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'wd': 5e-4})
for step in range(1):  # later steps drift apart in the 4th decimal (BatchNorm over 1x1 and 2x2 maps)
    cls_metric.reset()
    box_metric.reset()
    with autograd.record():
        default_anchors, class_predictions, box_predictions = net(x)
        box_target, box_mask, cls_target = training_targets(default_anchors, class_predictions, label)
        loss1 = cls_loss(class_predictions, cls_target)
        loss2 = box_loss(box_predictions, box_target, box_mask)
        loss = loss1 + loss2
    loss.backward()
    trainer.step(x.shape[0])
    cls_metric.update([cls_target], [nd.transpose(class_predictions, (0, 2, 1))])
    box_metric.update([box_target], [box_predictions * box_mask])
    print(step, r(loss1), r(loss2), cls_metric.get(), [box_metric.get()[0], round(box_metric.get()[1], 4)])

# the box decoding and NMS the chapter's display code relies on
b = nd.array([[[0, .9, .1, .1, .5, .5], [0, .8, .12, .1, .5, .52], [1, .7, .5, .5, .9, .9], [1, .1, .6, .6, .7, .7]]])
print(r(nd.contrib.box_nms(b, overlap_thresh=.5, topk=-1, coord_start=2, score_index=1, id_index=0)))
print(r(nd.contrib.box_iou(nd.array([[.1, .1, .5, .5]]), nd.array([[.1, .1, .5, .52], [.5, .5, .9, .9]]))))
