"""GluonCV 0.10.5 detectors on other bases (VGG16-atrous SSD, MobileNet SSD/YOLOv3), pretrained_base=False (no downloads), tiny inputs."""
import warnings
import numpy as np
import mxnet as mx
from mxnet import autograd
from gluoncv import model_zoo
from _gcv_zoo import attempt, shapes, describe

warnings.simplefilter('ignore')
mx.random.seed(0)


def build(name, **kwargs):
    net = model_zoo.get_model(name, pretrained=False, pretrained_base=False, **kwargs)
    net.initialize()
    return net


x = mx.nd.ones((1, 3, 128, 128)) * 0.5
net = build('ssd_300_vgg16_atrous_voc')
net.hybridize()
attempt(lambda: net(x))  # its last extra layers need more than 128 pixels
for name in ('ssd_512_mobilenet1.0_voc', 'yolo3_mobilenet1.0_coco'):
    net = build(name)
    net.hybridize()
    with autograd.train_mode():
        out = net(x)
    print(name, type(net).__name__, len(net.classes), 'train', shapes(out[:3]))
    describe(net)
    net.set_nms(post_nms=7)
    print('  infer', shapes(net(x)))
net = build('ssd_512_mobilenet1.0_custom', classes=['a', 'b'], transfer=None)
net.hybridize()
print('custom', net.classes, shapes(net(x)))
attempt(lambda: build('ssd_512_mobilenet1.0_custom'))

print('== box_nms keeps only the topk best rows (YOLOv3 on COCO: 80 x 1008 rows, topk 400)')
rows = mx.nd.array([[0, 0.9, 0, 0, 10, 10], [0, 0.8, 1, 1, 10, 10], [1, 0.7, 0, 0, 10, 10],
                    [1, 0.6, 20, 20, 30, 30], [0, 0.5, 40, 40, 50, 50], [2, 0.005, 0, 0, 5, 5],
                    [-1, 0.95, 0, 0, 3, 3], [2, 0.4, 60, 60, 70, 70]])
for topk in (3, 5, -1, 100):
    out = mx.nd.contrib.box_nms(rows, overlap_thresh=0.5, valid_thresh=0.01, topk=topk, id_index=0,
                                score_index=1, coord_start=2)
    print(topk, np.round(out.asnumpy().astype(np.float64), 3).tolist())
out = mx.nd.contrib.box_nms(rows.reshape((2, 4, 6)), topk=2, force_suppress=True, id_index=0)
print(np.round(out.asnumpy().astype(np.float64), 3).tolist())
