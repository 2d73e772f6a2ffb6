"""GluonCV 0.10.5, unmodified, on gluonjax (``import mxnet`` resolved to gluonjax).

Its model zoo builds, initialises, hybridizes and runs each classification family, the SSD and
YOLOv3 detectors (decoded boxes), FCN and DeepLabV3 segmentation and SimplePose; weights saved by
real MXNet load and give MXNet's outputs; the transform presets, plot_bbox and a short training
run with its LR schedulers work. Inputs are small so that compilation dominates the run time.
"""
import os

import numpy as np
import pytest

from client_import import import_client  # tests/clients/client_import.py (pytest puts this folder on sys.path)

gluoncv = import_client('gluoncv')
import mxnet as mx  # noqa: E402  (gluonjax, after import_client's alias)
from gluoncv import model_zoo  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), 'data')


def _run(net, shape):
    net.initialize()
    net.hybridize()
    return net(mx.nd.random.uniform(shape=shape))


def test_import_finds_mxnet():
    assert gluoncv._found_mxnet
    assert 'cifar_resnet20_v1' in model_zoo.get_model_list()


CLASSIFIERS = [  # (name, input side, classes): one network per family
    ('resnet18_v1', 32, 1000),
    ('resnet18_v1b', 32, 1000),
    ('resnet18_v2', 32, 1000),
    ('resnext50_32x4d', 32, 1000),
    ('se_resnet18_v1', 32, 1000),
    ('mobilenet0.25', 32, 1000),
    ('mobilenetv2_0.25', 32, 1000),
    ('mobilenetv3_small', 32, 1000),
    ('vgg11', 32, 1000),
    ('squeezenet1.1', 224, 1000),  # its last pooling is a fixed 13 x 13 window
    ('densenet121', 224, 1000),    # a fixed 7 x 7 window
    ('inceptionv3', 299, 1000),    # a fixed 8 x 8 window
    ('cifar_resnet20_v1', 32, 10),
    ('cifar_wideresnet16_10', 32, 10),
]


@pytest.mark.parametrize('name,side,classes', CLASSIFIERS, ids=[c[0] for c in CLASSIFIERS])
def test_classifier_builds_and_runs_hybridized(name, side, classes):
    out = _run(model_zoo.get_model(name, pretrained=False), (2, 3, side, side))
    assert out.shape == (2, classes)
    assert np.isfinite(out.asnumpy()).all()


def test_mxnet_saved_weights_give_mxnet_outputs():
    """tests/clients/data/make_gluoncv_ref.py saved cifar_resnet20_v1 with real MXNet."""
    ref = np.load(os.path.join(DATA, 'cifar_resnet20_v1.npz'))
    net = model_zoo.get_model('cifar_resnet20_v1', pretrained=False)
    net.load_parameters(os.path.join(DATA, 'cifar_resnet20_v1.params'))
    net.hybridize()  # one compiled graph: op-by-op compiles ~70 kernels for the same numbers
    np.testing.assert_allclose(net(mx.nd.array(ref['data'])).asnumpy(), ref['out'], rtol=1e-4, atol=1e-4)


DETECTORS = [('ssd_512_resnet50_v1_voc', 256), ('yolo3_darknet53_voc', 128)]


@pytest.mark.parametrize('name,side', DETECTORS, ids=[d[0] for d in DETECTORS])
def test_detector_decodes_boxes(name, side):
    net = model_zoo.get_model(name, pretrained=False, pretrained_base=False)
    ids, scores, boxes = [o.asnumpy() for o in _run(net, (1, 3, side, side))]
    assert ids.shape == scores.shape == (1, 100, 1) and boxes.shape == (1, 100, 4)
    kept = ids[..., 0] >= 0
    assert kept.any()
    # NMS output: survivors first, by decreasing score, the rest -1
    assert (ids[~kept] == -1).all() and (scores[~kept] == -1).all() and (boxes[~kept] == -1).all()
    assert np.isin(ids[kept], np.arange(len(net.classes))).all()
    assert ((scores[kept] >= 0) & (scores[kept] <= 1)).all()
    assert (np.diff(scores[kept]) <= 0).all()
    assert (boxes[kept][:, 2:] >= boxes[kept][:, :2]).all()


def test_faster_rcnn_decodes_boxes_with_numpy_aliases_restored():
    """GluonCV's RPN anchors are made with ``np.float`` (gone since NumPy 1.24): the MXNet
    environment (``alias_as_mxnet()``) gives it back."""
    import gluonjax
    gluonjax.alias_as_mxnet()
    try:
        net = model_zoo.get_model('faster_rcnn_resnet50_v1b_voc', pretrained=False, pretrained_base=False)
        ids, scores, boxes = [o.asnumpy() for o in _run(net, (1, 3, 128, 128))]
    finally:
        gluonjax._alias.remove_numpy_aliases()
    per_class = 300  # rcnn_test_post_nms boxes for each of the 20 classes
    assert ids.shape == scores.shape == (1, 20 * per_class, 1) and boxes.shape == (1, 20 * per_class, 4)
    kept = ids[0, :, 0] >= 0
    assert kept.any() and (ids[0][~kept] == -1).all()
    assert np.isin(ids[0][kept], np.arange(20)).all()
    assert ((scores[0][kept] >= 0) & (scores[0][kept] <= 1)).all()
    blocks = zip(ids[0, :, 0].reshape(20, per_class), scores[0, :, 0].reshape(20, per_class), kept.reshape(20, per_class))
    for c, (block_ids, block_scores, block_kept) in enumerate(blocks):  # NMS ran per class, in class order
        assert (block_ids[block_kept] == c).all() and (np.diff(block_scores[block_kept]) <= 0).all()
    assert (boxes[0][kept][:, 2:] >= boxes[0][kept][:, :2]).all()


@pytest.mark.parametrize('name', ['fcn_resnet50_voc', 'deeplab_resnet50_ade'])
def test_segmentation_keeps_the_input_size(name):
    net = model_zoo.get_model(name, pretrained=False, pretrained_base=False, crop_size=64)
    out = _run(net, (1, 3, 64, 64))
    assert [o.shape for o in out] == [(1, net.nclass, 64, 64)] * 2


def test_simple_pose_heatmaps():
    out = _run(model_zoo.get_model('simple_pose_resnet18_v1b', pretrained=False, pretrained_base=False),
               (1, 3, 64, 64))
    assert out.shape == (1, 17, 16, 16)  # three stride-2 deconvolutions on the stride-32 features


def test_transform_presets_match_mxnet():
    """To one grey level of the resized uint8 image (0.0175 after normalisation by std 0.224)."""
    from gluoncv.data.transforms import presets
    ref = np.load(os.path.join(DATA, 'cifar_resnet20_v1.npz'))
    img = mx.nd.array(ref['image'], dtype='uint8')
    got = {'preset_imagenet': presets.imagenet.transform_eval(img, resize_short=40, crop_size=32),
           'preset_ssd': presets.ssd.transform_test(img, short=64)[0],
           'preset_yolo': presets.yolo.transform_test(img, short=64)[0]}
    for key, value in got.items():
        np.testing.assert_allclose(value.asnumpy(), ref[key], atol=0.018, err_msg=key)


def test_plot_bbox_draws_with_agg():
    import matplotlib
    matplotlib.use('Agg')
    from gluoncv.utils import viz
    img = np.zeros((40, 60, 3), 'uint8')
    ax = viz.plot_bbox(img, np.array([[5, 5, 30, 35], [1, 2, 3, 4]]), scores=np.array([0.9, 0.1]),
                       labels=np.array([1, 0]), class_names=['cat', 'dog'], thresh=0.5)
    assert len(ax.patches) == 1 and ax.texts[0].get_text() == 'dog 0.900'


def test_cifar_resnet_trains_with_gluoncv_lr_schedulers():
    from gluoncv.utils import LRScheduler, LRSequential
    schedule = LRSequential([LRScheduler('linear', base_lr=0.0, target_lr=0.1, nepochs=1, iters_per_epoch=2),
                             LRScheduler('cosine', base_lr=0.1, target_lr=0.01, nepochs=2, iters_per_epoch=2)])
    mx.random.seed(0)
    net = model_zoo.get_model('cifar_resnet20_v1', classes=10)
    net.initialize(mx.init.Xavier())
    net.hybridize()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'lr_scheduler': schedule, 'momentum': 0.9})
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    rng = np.random.RandomState(0)
    x, y = mx.nd.array(rng.uniform(-1, 1, (8, 3, 32, 32))), mx.nd.array(rng.randint(0, 10, 8))
    losses, rates = [], []
    for _ in range(6):
        with mx.autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(8)
        losses.append(loss.mean().asscalar())
        rates.append(trainer.learning_rate)
    np.testing.assert_allclose(rates, [0.1, 0.1, 0.0775, 0.0325, 0.01, 0.01], atol=1e-6)
    assert losses[-1] < 0.5 * losses[0]
