"""GluonCV 0.10.5 segmentation (FCN, PSPNet, DeepLabV3), pose (SimplePose) and CenterNet nets with small inputs,
pretrained_base=False (no downloads); pose post-processing helpers on fixed heatmaps."""
import warnings
import numpy as np
import mxnet as mx
from mxnet import autograd
from gluoncv import model_zoo
from gluoncv.data.transforms import pose
from gluoncv.utils.metrics import SegmentationMetric
from _gcv_zoo import attempt, shapes, describe

warnings.simplefilter('ignore')
mx.random.seed(0)


def r3(x):
    x = x.asnumpy() if isinstance(x, mx.nd.NDArray) else np.asarray(x)
    return np.round(x.astype(np.float64), 3).tolist()


def build(name, **kwargs):
    net = model_zoo.get_model(name, pretrained=False, pretrained_base=False, **kwargs)
    net.initialize()
    return net


x = mx.nd.ones((1, 3, 64, 64)) * 0.5
x128 = mx.nd.ones((1, 3, 128, 128)) * 0.5
net = build('psp_resnet50_ade', crop_size=64)
net.hybridize()
print('psp', type(net).__name__, net.nclass, net.aux, shapes(net(x)))
describe(net)
net = build('fcn_resnet50_voc', crop_size=48, aux=False)
net.hybridize()
print('fcn', shapes(net(x[:, :, :48, :48])))
print('evaluate', shapes(net.evaluate(x[:, :, :48, :48])))
describe(net)
net = build('deeplab_resnet50_ade', crop_size=64, aux=False)
pred = net.predict(x)
print('deeplab predict', shapes(pred), net.base_size, net.crop_size)
metric = SegmentationMetric(net.nclass)
metric.update(mx.nd.argmax(pred, axis=1), pred)  # predictions scored against themselves
print('pixAcc', round(metric.get()[0], 3))  # mIoU depends on the classes the random net predicts

print('== pose')
net = build('simple_pose_resnet18_v1b')
net.hybridize()
print('simple_pose', shapes(net(x)))
describe(net)
hm = np.zeros((2, 3, 8, 6), 'float32')
for b in range(2):
    for j in range(3):
        hm[b, j, (b + 2 * j) % 8, (3 * j + b) % 6] = 0.5 + 0.1 * j
        hm[b, j, (b + 2 * j + 1) % 8, (3 * j + b) % 6] = 0.2
hm[1, 2] = 0
heat = mx.nd.array(hm)
preds, maxvals = pose.get_max_pred(heat)
print('max_pred', type(preds).__name__, r3(preds), r3(maxvals))
coords, conf = pose.heatmap_to_coord(heat, np.array([[10, 20, 34, 52], [0, 0, 12, 16]], 'float32'))
print('coords', type(coords).__name__, r3(coords), r3(conf))
center = np.array([[22, 36], [6, 8]], 'float32')
scale = np.array([[24, 32], [12, 16]], 'float32')
coords, conf = pose.get_final_preds(heat, center, scale)
print('final', type(coords).__name__, r3(coords), r3(conf))
flipped = pose.flip_heatmap(heat.asnumpy(), [(0, 2)], shift=True)
print('flip', flipped.shape, round(float(flipped.sum()), 3), np.argwhere(flipped[0, 0] > 0).tolist())
img = mx.nd.array(np.arange(40 * 30 * 3).reshape(40, 30, 3) % 255)
crops, boxes = pose.detector_to_simple_pose(
    img, mx.nd.array([[[0], [1], [0]]]), mx.nd.array([[[0.9], [0.8], [0.2]]]),
    mx.nd.array([[[2, 3, 20, 30], [0, 0, 5, 5], [1, 1, 9, 9]]]), output_shape=(16, 12))
print('crops', shapes(crops), type(boxes).__name__, r3(boxes))
print('== center_net')
net = build('center_net_resnet18_v1b_voc')
net.hybridize()
with autograd.train_mode():
    out = net(x128)
print('train', shapes(out))
describe(net)
net2 = build('center_net_resnet18_v1b_voc')
print('infer', shapes(net2(x128)))  # imperative
attempt(lambda: build('psp_resnet50_nope'))
