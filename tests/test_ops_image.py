"""mx.nd.image operators against MXNet 1.9.1's outputs (tests/data/mxnet_ref/image_ops_ref.npz,
made by tests/data/mxnet_ref/make_image_ops_data.py), and the transforms built on them."""
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError
from gluonjax.gluon.data.vision import transforms as T

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'image_ops_ref.npz')


@pytest.fixture(scope='module')
def ref():
    data = dict(np.load(REF))
    arrays = {k: mx.nd.array(data[k], dtype=data[k].dtype) for k in ('img', 'flt', 'batch')}
    return data, arrays


def _close(got, want, integer_tolerance=0, float_rtol=1e-5):
    got = got.asnumpy()
    assert got.shape == want.shape and got.dtype == want.dtype
    if np.issubdtype(want.dtype, np.integer):
        assert np.abs(got.astype(int) - want.astype(int)).max() <= integer_tolerance
    else:
        np.testing.assert_allclose(got, want, rtol=float_rtol, atol=1e-3)


@pytest.mark.parametrize('src', ['img', 'flt', 'batch'])
def test_crop_and_resize_match_mxnet(ref, src):
    data, nd = ref
    _close(mx.nd.image.crop(nd[src], x=1, y=2, width=3, height=2), data['crop_%s' % src])
    for interp in range(5):
        # OpenCV computes uint8 resizes in fixed point: within 1 of the float result
        _close(mx.nd.image.resize(nd[src], size=(5, 4), interp=interp), data['resize_%s_%d' % (src, interp)], 1)
        _close(mx.nd.image.resize(nd[src], size=(9, 11), interp=interp), data['resize_up_%s_%d' % (src, interp)], 1)
    _close(mx.nd.image.resize(nd[src], size=3, keep_ratio=True), data['resize_keep_%s' % src], 1)


def test_flips_lighting_and_colour_match_mxnet(ref):
    data, nd = ref
    # MXNet 1.9.1 zeroes the middle column of an odd-width image in flip_left_right; the others are exact
    got = mx.nd.image.flip_left_right(nd['flt']).asnumpy()
    np.testing.assert_array_equal(got[:, [0, 1, 2, 4, 5, 6]], data['flip_lr_flt'][:, [0, 1, 2, 4, 5, 6]])
    np.testing.assert_array_equal(got, nd['flt'].asnumpy()[:, ::-1])
    for src in ('img', 'flt'):
        _close(mx.nd.image.flip_top_bottom(nd[src]), data['flip_tb_%s' % src])
        _close(mx.nd.image.adjust_lighting(nd[src], alpha=(0.1, -0.2, 0.3)), data['lighting_%s' % src])
        for op in ('brightness', 'contrast', 'hue'):
            fn = getattr(mx.nd.image, 'random_' + op)
            _close(fn(nd[src], min_factor=0.7, max_factor=0.7), data['%s_%s' % (op, src)], 1)


def test_saturation_blends_with_the_luma_grey():
    """(MXNet 1.9.1's random_saturation takes 0.114 * B alone as the grey level; gluonjax the
    full ITU-R 601 luma.)"""
    img = np.random.RandomState(1).uniform(0, 255, (4, 5, 3)).astype(np.float32)
    grey = (img * np.float32([0.299, 0.587, 0.114])).sum(-1, keepdims=True)
    got = mx.nd.image.random_saturation(mx.nd.array(img), min_factor=0.6, max_factor=0.6).asnumpy()
    np.testing.assert_allclose(got, img * 0.6 + grey * 0.4, rtol=1e-5)


def test_random_operators_draw_from_their_range():
    img = mx.nd.array(np.random.RandomState(2).randint(0, 256, (8, 9, 3)), dtype='uint8')
    mx.random.seed(3)
    flips = {bool((mx.nd.image.random_flip_left_right(img) != img).sum().asscalar()) for _ in range(12)}
    assert flips == {True, False}
    bright = mx.nd.image.random_brightness(img.astype('float32'), min_factor=0.5, max_factor=0.6).asnumpy()
    ratio = bright / np.maximum(img.asnumpy(), 1)
    assert 0.5 - 1e-6 <= ratio[img.asnumpy() > 0].min() and ratio.max() <= 0.6 + 1e-6
    jitter = mx.nd.image.random_color_jitter(img, brightness=0.2, contrast=0.2, saturation=0.2, hue=0.1)
    assert jitter.shape == img.shape and jitter.dtype == np.uint8
    assert mx.nd.image.random_lighting(img, alpha_std=0.1).dtype == np.uint8


def test_image_operators_check_their_inputs():
    img = mx.nd.zeros((4, 5, 3))
    with pytest.raises(MXNetError, match='crop: the region x=3, y=0, width=4, height=2 is not inside'):
        mx.nd.image.crop(img, x=3, y=0, width=4, height=2)
    with pytest.raises(MXNetError, match='resize: size must be'):
        mx.nd.image.resize(img, size=(-2, 3))
    with pytest.raises(MXNetError, match='interpolation must be'):
        mx.nd.image.resize(img, size=3, interp=7)
    with pytest.raises(MXNetError, match=r'flip_left_right: input must be \(H, W, C\)'):
        mx.nd.image.flip_left_right(mx.nd.zeros((2, 4, 5, 3)))
    with pytest.raises(MXNetError, match='adjust_lighting: input must be RGB'):
        mx.nd.image.adjust_lighting(mx.nd.zeros((4, 5, 1)), alpha=(0.1, 0.1, 0.1))


def test_crop_symbol_backward_scatters_the_gradient():
    data = mx.sym.var('data')
    crop = mx.sym.image.crop(data, 1, 0, 2, 3)
    x = mx.nd.array(np.arange(60, dtype=np.float32).reshape(5, 4, 3))
    exe = crop.simple_bind(mx.cpu(), data=x.shape)
    exe.forward(is_train=True, data=x)
    head = exe.outputs[0]
    exe.backward(head)
    want = np.zeros((5, 4, 3), np.float32)
    want[0:3, 1:3] = x.asnumpy()[0:3, 1:3]
    np.testing.assert_array_equal(exe.grad_dict['data'].asnumpy(), want)


def test_transforms_resize_as_mx_image_and_print_as_mxnet(ref):
    data, nd = ref
    for interp in range(5):
        np.testing.assert_array_equal(T.Resize((5, 4), interpolation=interp)(nd['img']).asnumpy(),
                                      mx.image.imresize(nd['img'], 5, 4, interp).asnumpy())
    for name, t in {'resize': T.Resize(300, keep_ratio=True), 'crop_resize': T.CropResize(1, 2, 3, 4, (5, 6), 1),
                    'compose': T.Compose([T.Resize(300), T.CenterCrop(256), T.RandomResizedCrop(224),
                                          T.RandomFlipLeftRight(), T.RandomColorJitter(0.1, 0.2, 0.3, 0.4),
                                          T.RandomLighting(0.1), T.ToTensor(), T.Normalize((0, 1, 2), (3, 4, 5)),
                                          T.RandomHue(0.1), T.Rotate(10.), T.RandomRotation((-10., 10.)),
                                          T.Cast('float16')])}.items():
        assert repr(t) == str(data['repr_' + name])
    with pytest.raises(MXNetError, match='CropResize: the region'):
        T.CropResize(0, 0, -100, -50)(nd['img'])
    with pytest.raises(TypeError, match='only float32'):
        T.Rotate(10.)(nd['img'])
    with pytest.raises(ValueError, match='rotate_with_proba'):
        T.RandomRotation((-10, 10), rotate_with_proba=1.5)


def test_colour_transforms_draw_their_factor_in_the_operator():
    img = np.random.RandomState(4).randint(1, 120, (6, 5, 3)).astype(np.uint8)
    for make in (T.RandomBrightness, T.RandomContrast, T.RandomSaturation, T.RandomHue, T.RandomLighting):
        out = make(0.3)(mx.nd.array(img, dtype='uint8'))
        assert out.shape == img.shape and out.dtype == np.uint8
        host = make(0.3)(img)  # numpy in, numpy out
        assert isinstance(host, np.ndarray) and host.dtype == np.uint8
    ratio = T.RandomBrightness(0.5)(img.astype(np.float32)) / img
    assert np.allclose(ratio, ratio.flat[0]) and 0.5 <= ratio.flat[0] <= 1.5
