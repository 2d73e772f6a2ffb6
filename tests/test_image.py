"""mx.image: decoding (Pillow), geometry, augmenters and ImageIter, against numpy references."""
import json
import random

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError

PIL = pytest.importorskip('PIL')


def rand_img(h, w, c=3, seed=0):
    return np.random.RandomState(seed).randint(0, 256, (h, w, c)).astype(np.uint8)


def png_bytes(rgb):
    import io
    from PIL import Image
    out = io.BytesIO()
    Image.fromarray(rgb if rgb.shape[2] == 3 else rgb[:, :, 0]).save(out, format='PNG')
    return out.getvalue()


def ref_bilinear(x, out_h, out_w):
    """OpenCV's INTER_LINEAR for one image, pixel by pixel (half-pixel centres, edge clamp)."""
    in_h, in_w = x.shape[:2]
    out = np.zeros((out_h, out_w, x.shape[2]))
    for i in range(out_h):
        fy = max((i + 0.5) * in_h / out_h - 0.5, 0.0)
        y0 = min(int(np.floor(fy)), in_h - 1)
        y1, wy = min(y0 + 1, in_h - 1), fy - np.floor(fy) if y0 < in_h - 1 else 0.0
        for j in range(out_w):
            fx = max((j + 0.5) * in_w / out_w - 0.5, 0.0)
            x0 = min(int(np.floor(fx)), in_w - 1)
            x1, wx = min(x0 + 1, in_w - 1), fx - np.floor(fx) if x0 < in_w - 1 else 0.0
            top = x[y0, x0] * (1 - wx) + x[y0, x1] * wx
            bot = x[y1, x0] * (1 - wx) + x[y1, x1] * wx
            out[i, j] = top * (1 - wy) + bot * wy
    return out


def test_imdecode_imread(tmp_path):
    rgb = rand_img(7, 9)
    buf = png_bytes(rgb)
    img = mx.image.imdecode(buf)
    assert isinstance(img, mx.nd.NDArray) and img.dtype == np.uint8 and img.shape == (7, 9, 3)
    np.testing.assert_array_equal(img.asnumpy(), rgb)
    np.testing.assert_array_equal(mx.image.imdecode(bytearray(buf), to_rgb=0).asnumpy(), rgb[:, :, ::-1])
    np.testing.assert_array_equal(mx.image.imdecode(np.frombuffer(buf, np.uint8)).asnumpy(), rgb)
    grey = mx.image.imdecode(buf, flag=0).asnumpy()
    ref = (rgb.astype(np.int64) @ [9798, 19235, 3735]) >> 15   # libpng's rgb_to_gray, truncated, as OpenCV
    assert grey.shape == (7, 9, 1) and (grey[:, :, 0] == ref).all()
    (tmp_path / 'a.png').write_bytes(buf)
    np.testing.assert_array_equal(mx.image.imread(str(tmp_path / 'a.png')).asnumpy(), rgb)
    np.testing.assert_array_equal(mx.img.image.imread(str(tmp_path / 'a.png'), to_rgb=False).asnumpy(), rgb[:, :, ::-1])
    with pytest.raises(MXNetError, match='cannot open .*missing.png'):
        mx.image.imread(str(tmp_path / 'missing.png'))
    with pytest.raises(MXNetError, match='empty'):
        mx.image.imdecode(b'')
    with pytest.raises(MXNetError, match='cannot decode the image'):
        mx.image.imdecode(b'clearly not an image')
    with pytest.raises(ValueError, match='buf must be bytes'):
        mx.image.imdecode(123)


@pytest.mark.parametrize('shape, size', [((7, 9), (13, 5)), ((10, 10), (4, 4)), ((5, 8), (20, 3))])
def test_imresize_matches_opencv_rules(shape, size):
    x = rand_img(*shape, seed=1)
    w, h = size
    lin = mx.image.imresize(mx.nd.array(x, dtype=np.uint8), w, h, interp=1)
    assert lin.dtype == np.uint8 and lin.shape == (h, w, 3)
    # OpenCV's 11-bit fixed point lands within one grey level of exact bilinear (its exact pixels:
    # tests/compat/sweep_gaps_imresize.py)
    assert np.abs(lin.asnumpy().astype(float) - ref_bilinear(x.astype(float), h, w)).max() < 1
    near = mx.image.imresize(x, w, h, interp=0)          # numpy in, numpy out
    rows = np.minimum((np.arange(h) * shape[0] / h).astype(int), shape[0] - 1)
    cols = np.minimum((np.arange(w) * shape[1] / w).astype(int), shape[1] - 1)
    np.testing.assert_array_equal(near, x[rows][:, cols])
    xf = x.astype(np.float32) / 7
    np.testing.assert_allclose(mx.image.imresize(xf, w, h, 1), ref_bilinear(xf.astype(float), h, w), rtol=1e-5, atol=1e-4)
    for interp in (2, 3, 4, 9, 10):
        assert mx.image.imresize(x, w, h, interp).shape == (h, w, 3)
    out = mx.nd.zeros((h, w, 3), dtype=np.uint8)
    mx.image.imresize(mx.nd.array(x, dtype=np.uint8), w, h, interp=1, out=out)
    np.testing.assert_array_equal(out.asnumpy(), lin.asnumpy())


def test_area_shrinks_by_covered_fractions():
    x = rand_img(8, 12, seed=2)
    got = mx.image.imresize(x, 6, 4, interp=3).astype(float)
    ref = x.reshape(4, 2, 6, 2, 3).astype(float).mean(axis=(1, 3))
    assert np.abs(got - ref).max() <= 0.5 + 1e-6
    # 3 pixels into 2: each output averages 1.5 pixels (the middle one shared by halves)
    row = np.array([[[0.], [30.], [90.]]], dtype=np.float32)
    np.testing.assert_allclose(mx.image.imresize(row, 2, 1, interp=3)[0, :, 0], [10., 70.], rtol=1e-6)


def test_resize_short_scale_down_and_crops():
    x = rand_img(30, 50, seed=3)
    assert mx.image.resize_short(x, 10).shape == (10, 16, 3)
    assert mx.image.resize_short(x.transpose(1, 0, 2), 10).shape == (16, 10, 3)
    assert mx.image.scale_down((640, 480), (720, 120)) == (640, 106)
    assert mx.image.scale_down((360, 1000), (480, 500)) == (360, 375)
    assert mx.image.scale_down((300, 400), (0, 0)) == (0, 0)
    out, box = mx.image.center_crop(mx.nd.array(x, dtype=np.uint8), (20, 10))
    assert box == (15, 10, 20, 10)
    np.testing.assert_array_equal(out.asnumpy(), x[10:20, 15:35])
    random.seed(5)
    out, (x0, y0, w, h) = mx.image.random_crop(x, (20, 10))
    random.seed(5)
    assert (x0, y0) == (random.randint(0, 30), random.randint(0, 20)) and (w, h) == (20, 10)
    np.testing.assert_array_equal(out, x[y0:y0 + 10, x0:x0 + 20])
    np.testing.assert_array_equal(mx.image.fixed_crop(x, 3, 4, 5, 6), x[4:10, 3:8])
    assert mx.image.fixed_crop(x, 3, 4, 5, 6, size=(10, 12)).shape == (12, 10, 3)
    out, (x0, y0, w, h) = mx.image.random_size_crop(x, (8, 8), 0.3, (0.75, 1.33))
    assert out.shape == (8, 8, 3) and w <= 50 and h <= 30
    with pytest.raises(MXNetError, match=r'region x0=45, y0=0, w=10, h=5 is not inside the image of shape \(30, 50, 3\)'):
        mx.image.fixed_crop(x, 45, 0, 10, 5)
    with pytest.raises(MXNetError, match='Unknown interp method 7'):  # MXNet: an MXNetError from its operator
        mx.image.imresize(x, 5, 5, interp=7)


def test_color_normalize_and_border():
    src = np.random.RandomState(4).rand(6, 5, 3).astype(np.float32) * 255
    mean, std = np.array([100., 110., 120.]), np.array([50., 60., 70.])
    ref = (src - mean) / std
    nd = mx.nd.array(src)
    out = mx.image.color_normalize(nd, mx.nd.array(mean), mx.nd.array(std))
    assert out is nd                                        # in place, as MXNet
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5)
    np.testing.assert_allclose(mx.image.color_normalize(src, mean, std), ref, rtol=1e-5)
    x = rand_img(4, 5, seed=6)
    b = mx.image.copyMakeBorder(mx.nd.array(x, dtype=np.uint8), 1, 2, 3, 0, type=0, values=[7, 8, 9]).asnumpy()
    assert b.shape == (7, 8, 3) and (b[0] == [7, 8, 9]).all() and (b[1:5, 3:] == x).all() and (b[5:, 0] == [7, 8, 9]).all()
    np.testing.assert_array_equal(mx.image.copyMakeBorder(x, 2, 0, 0, 0, type=1)[:2], np.stack([x[0], x[0]]))
    np.testing.assert_array_equal(mx.image.copyMakeBorder(x, 2, 0, 0, 0, type=4)[:2], np.stack([x[2], x[1]]))


def test_color_augmenters_follow_their_formulas():
    src = np.random.RandomState(7).rand(6, 5, 3).astype(np.float32) * 255
    coef = np.array([0.299, 0.587, 0.114])

    def alpha(bound, seed):
        random.seed(seed)
        return 1.0 + random.uniform(-bound, bound)

    random.seed(1)
    np.testing.assert_allclose(mx.image.BrightnessJitterAug(0.3)(mx.nd.array(src)).asnumpy(), src * alpha(0.3, 1),
                               rtol=1e-5)
    random.seed(2)
    a = alpha(0.4, 2)
    ref = src * a + 3.0 * (1 - a) / src.size * (src * coef).sum()
    random.seed(2)
    np.testing.assert_allclose(mx.image.ContrastJitterAug(0.4)(src), ref, rtol=1e-4, atol=1e-3)
    a = alpha(0.5, 3)
    ref = src * a + (1 - a) * (src * coef).sum(axis=2, keepdims=True)
    random.seed(3)
    np.testing.assert_allclose(mx.image.SaturationJitterAug(0.5)(src), ref, rtol=1e-4, atol=1e-3)
    random.seed(4)
    h = random.uniform(-0.2, 0.2)
    u, w = np.cos(h * np.pi), np.sin(h * np.pi)
    yiq = np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.321], [0.211, -0.523, 0.311]])
    rot = np.array([[1, 0, 0], [0, u, -w], [0, w, u]])
    ref = src @ (np.linalg.inv(yiq) @ rot @ yiq).T
    random.seed(4)
    np.testing.assert_allclose(mx.image.HueJitterAug(0.2)(src), ref, rtol=2e-3, atol=0.5)   # MXNet's rounded inverse
    eigval, eigvec = np.array([55.46, 4.794, 1.148]), np.random.RandomState(0).rand(3, 3)
    np.random.seed(8)
    rgb = eigvec @ (eigval * np.random.normal(0, 0.1, size=3))
    np.random.seed(8)
    np.testing.assert_allclose(mx.image.LightingAug(0.1, eigval, eigvec)(src), src + rgb, rtol=1e-5, atol=1e-4)
    grey = mx.image.RandomGrayAug(1.0)(src)
    np.testing.assert_allclose(grey, np.repeat((src @ [0.21, 0.72, 0.07])[:, :, None], 3, axis=2), rtol=1e-5)
    np.testing.assert_array_equal(mx.image.RandomGrayAug(0.0)(src), src)
    np.testing.assert_array_equal(mx.image.HorizontalFlipAug(1.0)(mx.nd.array(src)).asnumpy(), src[:, ::-1])
    cast = mx.image.CastAug()(mx.nd.array(src.astype(np.uint8), dtype=np.uint8))
    assert cast.dtype == np.float32
    norm = mx.image.ColorNormalizeAug(mx.nd.array([1., 2., 3.]), np.array([2., 2., 2.]))(mx.nd.array(src))
    np.testing.assert_allclose(norm.asnumpy(), (src - [1, 2, 3]) / 2, rtol=1e-5)
    assert mx.image.ForceResizeAug((7, 4))(src).shape == (4, 7, 3)
    assert mx.image.ResizeAug(3)(src).shape == (3, 3, 3) and mx.image.ResizeAug(2)(src).shape == (2, 2, 3)
    assert mx.image.RandomCropAug((2, 3))(src).shape == (3, 2, 3)
    assert mx.image.CenterCropAug((2, 3))(src).shape == (3, 2, 3)
    assert mx.image.RandomSizedCropAug((2, 3), 0.5, (0.8, 1.2))(src).shape == (3, 2, 3)
    jitter = mx.image.ColorJitterAug(0.1, 0.1, 0.1)
    assert [type(t).__name__ for t in jitter.ts] == ['BrightnessJitterAug', 'ContrastJitterAug', 'SaturationJitterAug']
    assert jitter(src).shape == src.shape
    assert mx.image.ResizeAug(3).dumps() == '["resizeaug", {"size": 3, "interp": 2}]'


def test_colour_augmenters_update_a_float_ndarray_in_place():
    """MXNet's brightness/contrast/saturation/lighting augmenters compute `src *= alpha` & co.: a
    float NDArray is changed and returned; an integer image (MXNet fails or truncates) gives a new
    float32 array and stays as it was; numpy input is never written."""
    src = np.random.RandomState(3).rand(4, 5, 3).astype(np.float32) * 255
    eigval, eigvec = np.array([55.46, 4.794, 1.148]), np.random.RandomState(0).rand(3, 3)
    coef = np.array([0.299, 0.587, 0.114], dtype=np.float32)
    for make, ref in (
            (lambda: mx.image.BrightnessJitterAug(0.3), lambda a: src * a),
            (lambda: mx.image.ContrastJitterAug(0.3), lambda a: src * a + 3.0 * (1 - a) / src.size * (src * coef).sum()),
            (lambda: mx.image.SaturationJitterAug(0.3), lambda a: src * a + (1 - a) * (src * coef).sum(axis=2, keepdims=True))):
        random.seed(11)
        alpha = 1.0 + random.uniform(-0.3, 0.3)
        x = mx.nd.array(src)
        random.seed(11)
        out = make()(x)
        assert out is x
        np.testing.assert_allclose(x.asnumpy(), ref(alpha), rtol=1e-4, atol=1e-3)
        ints = mx.nd.array(src.astype(np.uint8), dtype=np.uint8)
        out = make()(ints)
        assert out is not ints and out.dtype == np.float32
        np.testing.assert_array_equal(ints.asnumpy(), src.astype(np.uint8))
        host = src.copy()
        make()(host)
        np.testing.assert_array_equal(host, src)
    x = mx.nd.array(src)
    np.random.seed(5)
    rgb = eigvec @ (eigval * np.random.normal(0, 0.1, size=3))
    np.random.seed(5)
    assert mx.image.LightingAug(0.1, eigval, eigvec)(x) is x
    np.testing.assert_allclose(x.asnumpy(), src + rgb, rtol=1e-5, atol=1e-4)
    # a view of a larger image: the write reaches the base, as MXNet's shared memory does
    base = mx.nd.array(np.stack([src, src]))
    random.seed(2)
    alpha = 1.0 + random.uniform(-0.5, 0.5)
    random.seed(2)
    mx.image.BrightnessJitterAug(0.5)(base[1])
    np.testing.assert_allclose(base.asnumpy()[1], src * alpha, rtol=1e-5)
    np.testing.assert_array_equal(base.asnumpy()[0], src)
    # an augmenter that leaves the image alone this time returns the array it was given, as MXNet's
    x = mx.nd.array(src)
    assert mx.image.RandomGrayAug(0.0)(x) is x and mx.image.HorizontalFlipAug(0.0)(x) is x
    flipped = mx.image.HorizontalFlipAug(1.0)(x)
    assert flipped is not x
    np.testing.assert_array_equal(flipped.asnumpy(), src[:, ::-1])
    # hue and grey make new arrays in MXNet too
    x = mx.nd.array(src)
    assert mx.image.HueJitterAug(0.2)(x) is not x and mx.image.RandomGrayAug(1.0)(x) is not x
    np.testing.assert_array_equal(x.asnumpy(), src)


def test_create_augmenter():
    augs = mx.image.CreateAugmenter((3, 8, 8), resize=10, rand_crop=True, rand_resize=True, rand_mirror=True,
                                    mean=True, std=True, brightness=0.1, contrast=0.1, saturation=0.1, hue=0.1,
                                    pca_noise=0.1, rand_gray=0.1)
    assert [type(a).__name__ for a in augs] == [
        'ResizeAug', 'RandomSizedCropAug', 'HorizontalFlipAug', 'CastAug', 'ColorJitterAug', 'HueJitterAug',
        'LightingAug', 'RandomGrayAug', 'ColorNormalizeAug']
    img = mx.nd.array(rand_img(20, 30), dtype=np.uint8)
    for a in augs:
        img = a(img)
    assert isinstance(img, mx.nd.NDArray) and img.shape == (8, 8, 3) and img.dtype == np.float32
    plain = mx.image.CreateAugmenter((3, 8, 8))
    assert [type(a).__name__ for a in plain] == ['CenterCropAug', 'CastAug']
    with pytest.raises(AssertionError, match='mean must be True or an array'):
        mx.image.CreateAugmenter((3, 8, 8), mean=[1, 2, 3])


def test_imrotate():
    scipy_ndimage = pytest.importorskip('scipy.ndimage')
    img = (np.linspace(0, 0.5, 30)[:, None] + np.linspace(0, 0.5, 60)[None, :])[:, :, None]
    ref = scipy_ndimage.rotate(img, 6, axes=(1, 0), reshape=False, order=1, mode='constant', prefilter=False)
    got = mx.image.imrotate(mx.nd.array(img.transpose(2, 0, 1)), 6).asnumpy().transpose(1, 2, 0)
    np.testing.assert_allclose(got[10:20, 20:40], ref[10:20, 20:40], atol=1e-5)
    batch = mx.nd.array(np.stack([img.transpose(2, 0, 1)] * 2))
    assert mx.image.imrotate(batch, mx.nd.array([1, 2]), zoom_in=True).shape == (2, 1, 30, 60)
    assert mx.image.random_rotate(batch, (-5, 5)).shape == (2, 1, 30, 60)
    with pytest.raises(ValueError, match='cannot be both True'):
        mx.image.imrotate(batch, 3, zoom_in=True, zoom_out=True)
    with pytest.raises(TypeError, match='must be a scalar'):
        mx.image.imrotate(batch[0], mx.nd.array([1, 2]))


def write_images(tmp_path, n, size=(12, 16)):
    imgs = [rand_img(size[0], size[1], seed=100 + i) for i in range(n)]
    for i, im in enumerate(imgs):
        (tmp_path / ('%d.png' % i)).write_bytes(png_bytes(im))
    return imgs


def test_imageiter_from_list_last_batch(tmp_path):
    imgs = write_images(tmp_path, 5)
    imglist = [[float(i), '%d.png' % i] for i in range(5)]
    kw = dict(batch_size=2, data_shape=(3, 12, 16), imglist=imglist, path_root=str(tmp_path))
    batches = list(mx.image.ImageIter(**kw))
    assert [b.pad for b in batches] == [0, 0, 1]
    np.testing.assert_array_equal(batches[0].data[0].asnumpy()[1], imgs[1].transpose(2, 0, 1).astype(np.float32))
    assert batches[2].label[0].asnumpy().tolist() == [4, 0]            # padded from the start
    assert batches[0].data[0].dtype == np.float32 and batches[0].label[0].shape == (2,)
    assert len(list(mx.image.ImageIter(last_batch_handle='discard', **kw))) == 2
    it = mx.image.ImageIter(last_batch_handle='roll_over', **kw)
    assert [b.label[0].asnumpy().tolist() for b in it] == [[0, 1], [2, 3]]
    it.reset()
    first = it.next()
    assert first.label[0].asnumpy().tolist() == [4, 0] and first.pad == 1
    lst = tmp_path / 'images.lst'
    lst.write_text(''.join('%d\t%d\t%d\t%d.png\n' % (i, i, 10 + i, i) for i in range(5)))
    it = mx.image.ImageIter(2, (3, 12, 16), label_width=2, path_imglist=str(lst), path_root=str(tmp_path))
    b = it.next()
    assert b.label[0].shape == (2, 2) and b.label[0].asnumpy().tolist() == [[0, 10], [1, 11]]
    lst.write_text('0\tbad\n')
    with pytest.raises(MXNetError, match=r'images\.lst line 1: expected'):
        mx.image.ImageIter(2, (3, 12, 16), path_imglist=str(lst))
    bad = tmp_path / 'bad.png'
    bad.write_bytes(b'not a png')
    it = mx.image.ImageIter(1, (3, 12, 16), imglist=[[0, 'bad.png']], path_root=str(tmp_path))
    with pytest.raises(RuntimeError, match='Broken image filename: bad.png'):
        it.next()


class Scale(mx.image.Augmenter):
    """A user augmenter: gets NDArrays, as in MXNet."""

    def __call__(self, src):
        assert isinstance(src, mx.nd.NDArray)
        return src.astype('float32') * 2


def test_imageiter_from_record_file(tmp_path):
    imgs = write_images(tmp_path, 6)
    idx, rec = str(tmp_path / 'i.idx'), str(tmp_path / 'i.rec')
    with mx.recordio.MXIndexedRecordIO(idx, rec, 'w') as w:
        for i, im in enumerate(imgs):
            w.write_idx(i, mx.recordio.pack((0, float(i), i, 0), png_bytes(im)))
    seq = list(mx.image.ImageIter(3, (3, 12, 16), path_imgrec=rec))
    assert [b.label[0].asnumpy().tolist() for b in seq] == [[0, 1, 2], [3, 4, 5]]
    random.seed(0)
    shuffled = mx.image.ImageIter(3, (3, 12, 16), path_imgrec=rec, path_imgidx=idx, shuffle=True)
    labels = np.concatenate([b.label[0].asnumpy() for b in shuffled])
    assert sorted(labels.tolist()) == list(range(6))
    for b in mx.image.ImageIter(3, (3, 12, 16), path_imgrec=rec, path_imgidx=idx, shuffle=True):
        for d, lab in zip(b.data[0].asnumpy(), b.label[0].asnumpy()):
            np.testing.assert_array_equal(d, imgs[int(lab)].transpose(2, 0, 1))
    part = mx.image.ImageIter(3, (3, 12, 16), path_imgrec=rec, path_imgidx=idx, part_index=1, num_parts=2)
    assert [b.label[0].asnumpy().tolist() for b in part] == [[3, 4, 5]]
    user = mx.image.ImageIter(3, (3, 12, 16), path_imgrec=rec, aug_list=[Scale()])
    np.testing.assert_array_equal(user.next().data[0].asnumpy()[0], imgs[0].transpose(2, 0, 1) * 2.0)
    aug = mx.image.ImageIter(2, (3, 8, 8), path_imgrec=rec, rand_crop=True, rand_mirror=True, mean=True, std=True,
                             brightness=0.1, inter_method=10)
    assert all(b.data[0].shape == (2, 3, 8, 8) for b in aug)
    with pytest.raises(ValueError, match='expected .*data_shape'):
        mx.image.ImageIter(2, (3, 8, 8), path_imgrec=rec, aug_list=[]).next()
    with pytest.raises(ValueError, match='3 channels'):
        mx.image.ImageIter(2, (1, 8, 8), path_imgrec=rec)


def ref_cubic_1d(row, n_out):
    """OpenCV's interpolateCubic coefficients (A = -0.75) along one row, edge pixels repeated."""
    n_in, A = len(row), -0.75
    out = np.zeros(n_out)
    for j in range(n_out):
        fx = (j + 0.5) * n_in / n_out - 0.5
        sx = int(np.floor(fx))
        x = fx - sx
        c0 = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A
        c1 = ((A + 2) * x - (A + 3)) * x * x + 1
        c2 = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1
        coeffs = [c0, c1, c2, 1 - c0 - c1 - c2]
        out[j] = sum(c * row[min(max(sx - 1 + k, 0), n_in - 1)] for k, c in enumerate(coeffs))
    return out


@pytest.mark.parametrize('size', [(11, 7), (4, 3), (9, 14)])
def test_bicubic_is_opencvs_kernel(size):
    x = np.random.RandomState(9).rand(7, 9, 2).astype(np.float32) * 100
    w, h = size
    cols = np.stack([np.stack([ref_cubic_1d(x[i, :, c], w) for i in range(7)]) for c in range(2)], axis=2)
    ref = np.stack([np.stack([ref_cubic_1d(cols[:, j, c], h) for j in range(w)], axis=1) for c in range(2)], axis=2)
    np.testing.assert_allclose(mx.image.imresize(x, w, h, interp=2), ref, rtol=1e-5, atol=1e-3)
    u8 = mx.image.imresize(x.astype(np.uint8), w, h, interp=2)
    assert u8.dtype == np.uint8 and u8.shape == (h, w, 2)


def test_matches_opencv_when_installed():
    cv2 = pytest.importorskip('cv2')        # optional: opencv-python-headless
    rs = np.random.RandomState(11)
    x = rs.randint(0, 256, (37, 53, 3)).astype(np.uint8)
    for w, h in [(20, 15), (80, 70), (53, 10), (13, 9), (80, 20)]:
        for interp in range(5):
            ref = cv2.resize(x, (w, h), interpolation=interp)
            assert np.abs(mx.image.imresize(x, w, h, interp).astype(int) - ref).max() <= 1, (w, h, interp)
            xf = x.astype(np.float32)
            np.testing.assert_allclose(mx.image.imresize(xf, w, h, interp), cv2.resize(xf, (w, h), interpolation=interp),
                                       atol=2e-3)
    buf = cv2.imencode('.jpg', x, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes()
    np.testing.assert_array_equal(mx.image.imdecode(buf, to_rgb=0).asnumpy(), cv2.imdecode(np.frombuffer(buf, np.uint8), 1))
    np.testing.assert_array_equal(mx.image.imdecode(buf, flag=0).asnumpy()[:, :, 0],
                                  cv2.imdecode(np.frombuffer(buf, np.uint8), 0))
    for t in range(5):
        np.testing.assert_array_equal(mx.image.copyMakeBorder(x, 1, 2, 3, 4, type=t, values=[5, 6, 7]),
                                      cv2.copyMakeBorder(x, 1, 2, 3, 4, borderType=t, value=[5, 6, 7]))


def test_imageiter_steps_are_profiled_under_mxnets_operator_names(tmp_path, monkeypatch):
    # MXNet 1.9.1's trace of example/profiler/profiler_imageiter.py (rand_crop, rand_resize,
    # rand_mirror) holds per image Imdecode, slice, _cvimresize, transpose, _slice_assign and,
    # for the mirrored ones, reverse
    from gluonjax import profiler
    monkeypatch.setattr(profiler, '_recorder', profiler._Recorder())
    monkeypatch.chdir(tmp_path)
    rec = str(tmp_path / 'i.rec')
    writer = mx.recordio.MXRecordIO(rec, 'w')
    for i in range(4):
        writer.write(mx.recordio.pack((0, float(i), i, 0), png_bytes(rand_img(40, 50, seed=i))))
    writer.close()
    it = mx.image.ImageIter(4, (3, 32, 32), path_imgrec=rec, rand_crop=True, rand_resize=True, rand_mirror=True)
    profiler.set_config(profile_all=True, aggregate_stats=True, filename='trace.json')
    profiler.set_state('run')
    random.seed(1)
    it.next()
    profiler.set_state('stop')
    names = [e[2] for e in profiler._recorder.events]
    for name in ('Imdecode', 'slice', '_cvimresize', 'transpose', '_slice_assign'):
        assert names.count(name) == 4, (name, names)
    assert names.count('reverse') <= 4
    assert '_cvimresize' in profiler.dumps()
    mx.image.imresize(mx.nd.array(rand_img(8, 8)), 4, 4)   # not recording: no new events
    assert len(profiler._recorder.events) == len(names)
    profiler.dump()
    with open('trace.json') as f:
        assert any(e.get('name') == 'Imdecode' and e['ph'] == 'X' for e in json.load(f)['traceEvents'])


def test_copy_make_border_values_and_isolated_flag():
    x = np.zeros((2, 2, 3), np.uint8)
    top = lambda **kw: mx.image.copyMakeBorder(x, 1, 0, 0, 0, **kw)[0, 0].tolist()  # noqa: E731
    assert top(values=(7,)) == [7, 0, 0] and top(values=7) == [7, 0, 0]      # cv::Scalar: missing channels 0
    assert top(values=(7, 8, 9, 10)) == [7, 8, 9] and top(value=7) == [7, 7, 7]
    np.testing.assert_array_equal(mx.image.copyMakeBorder(rand_img(3, 4), 1, 2, 3, 4, type=16 | 1),
                                  mx.image.copyMakeBorder(rand_img(3, 4), 1, 2, 3, 4, type=1))


def write_det_record(tmp_path, n=4):
    """A .rec of n images whose labels are [2, 5, objects...] with i % 2 + 1 objects."""
    rec = str(tmp_path / 'd.rec')
    boxes = np.array([[0, 0.1, 0.2, 0.5, 0.6], [1, 0.4, 0.3, 0.9, 0.95]], np.float32)
    with mx.recordio.MXRecordIO(rec, 'w') as w:
        for i in range(n):
            raw = np.concatenate([[2, 5], boxes[:i % 2 + 1].ravel()])
            w.write(mx.recordio.pack(mx.recordio.IRHeader(0, raw, i, 0), png_bytes(rand_img(12, 16, seed=i))))
    return rec, boxes


def test_image_det_iter_labels_and_host_images(tmp_path):
    rec, boxes = write_det_record(tmp_path)
    it = mx.image.ImageDetIter(2, (3, 12, 16), path_imgrec=rec)
    assert it.label_shape == (2, 5) and it.provide_label == [('label', (2, 2, 5))]
    seen = []

    class Spy(mx.image.DetAugmenter):      # a user's augmenter gets NDArrays, as in MXNet
        def __call__(self, src, label):
            seen.append(type(src))
            return src, label
    batch = it.next()
    np.testing.assert_array_equal(batch.label[0].asnumpy()[0], np.concatenate([boxes[:1], -np.ones((1, 5))]))
    np.testing.assert_array_equal(batch.data[0].asnumpy()[1], rand_img(12, 16, seed=1).transpose(2, 0, 1))
    assert mx.image.image._numpy_safe(it.auglist)     # the built-in augmenters stay on the host
    it.auglist = it.auglist + [Spy()]
    it.reset()
    it.next()
    assert seen == [mx.nd.NDArray, mx.nd.NDArray]
    flipped, label = mx.image.DetHorizontalFlipAug(1)(rand_img(4, 6), boxes.copy())
    np.testing.assert_allclose(label[:, [1, 3]], 1 - boxes[:, [3, 1]])


def test_det_augmenters_with_bad_ranges_warn_and_do_nothing():
    img, boxes = rand_img(10, 10), np.array([[0, 0.1, 0.1, 0.5, 0.5]], np.float32)
    with pytest.warns(UserWarning, match='DetRandomCropAug is disabled: invalid area_range'):
        crop = mx.image.DetRandomCropAug(area_range=(0.5, 0.1))
    with pytest.warns(UserWarning, match='DetRandomPadAug is disabled: invalid area_range'):
        pad = mx.image.DetRandomPadAug(area_range=(1.0, 1.0))
    for aug in (crop, pad):
        out, label = aug(img, boxes)
        assert out is img and label is boxes
    with pytest.raises(AssertionError):
        mx.image.CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.2], area_range=[(0.1, 1), (0.2, 1), (0.3, 1)])


def test_draw_next_needs_opencv(tmp_path, monkeypatch):
    import sys
    import types
    rec, boxes = write_det_record(tmp_path, 1)
    it = mx.image.ImageDetIter(1, (3, 12, 16), path_imgrec=rec, aug_list=[])
    monkeypatch.setitem(sys.modules, 'cv2', None)
    with pytest.warns(UserWarning, match='Unable to import cv2'):
        assert list(it.draw_next()) == []
    drawn = []
    fake = types.SimpleNamespace(rectangle=lambda img, p1, p2, color, thickness: drawn.append((p1, p2, color)))
    monkeypatch.setitem(sys.modules, 'cv2', fake)
    it.reset()
    images = list(it.draw_next(color=(1, 2, 3)))
    assert len(images) == 1 and images[0].dtype == np.uint8 and images[0].shape == (12, 16, 3)
    np.testing.assert_array_equal(images[0], rand_img(12, 16, seed=0)[:, :, ::-1])      # BGR, as OpenCV draws
    assert drawn == [((1, 2), (8, 7), (3, 2, 1))]
