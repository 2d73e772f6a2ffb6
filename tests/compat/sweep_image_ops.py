import os, random, tempfile
import numpy as np
import mxnet as mx


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def desc(x):
    """shape, dtype and exact sum of an image (NDArray or numpy)."""
    if isinstance(x, mx.nd.NDArray):
        kind, x = 'nd', x.asnumpy()
    else:
        kind = 'np'
    s = x.astype(np.float64).sum()
    return '%s %s %s %s' % (kind, x.shape, x.dtype, round(float(s), 1))


def seed(n=0):
    random.seed(n)
    np.random.seed(n)
    mx.random.seed(n)


tmp = tempfile.mkdtemp()
img = (np.arange(12 * 16 * 3).reshape(12, 16, 3) * 7 % 256).astype(np.uint8)
hdr = mx.recordio.IRHeader(0, 1.0, 0, 0)
png = mx.recordio.unpack(mx.recordio.pack_img(hdr, img, img_fmt='.png'))[1]
print(type(png).__name__, png[:4])

# imdecode: flags, to_rgb, inputs
a = mx.image.imdecode(png)
print(desc(a), (a.asnumpy() == img[:, :, ::-1]).all())
b = mx.image.imdecode(png, to_rgb=0)
print(desc(b), (b.asnumpy() == img).all())
g = mx.image.imdecode(png, flag=0)
print(desc(g))
g2 = mx.image.imdecode(png, flag=0, to_rgb=0)
print(desc(g2), (g.asnumpy() == g2.asnumpy()).all())
print(desc(mx.image.imdecode(bytearray(png))))
print(desc(mx.image.imdecode(np.frombuffer(png, dtype=np.uint8))))
out = mx.nd.zeros((12, 16, 3), dtype='uint8')
r = mx.image.imdecode(png, out=out)
print(desc(out))
attempt(lambda: mx.image.imdecode(b''))
attempt(lambda: mx.image.imdecode(b'not an image at all'))
attempt(lambda: mx.image.imdecode(123))

# imread
path = os.path.join(tmp, 'a.png')
with open(path, 'wb') as f:
    f.write(png)
print(desc(mx.image.imread(path)))
print(desc(mx.image.imread(path, flag=0)))
print((mx.image.imread(path, to_rgb=False).asnumpy() == img).all())
attempt(lambda: mx.image.imread(os.path.join(tmp, 'missing.png')))

# imresize: nearest is exact; other interpolations by shape
src = mx.nd.array(img, dtype='uint8')
print(desc(mx.image.imresize(src, 8, 6, interp=0)))
print(desc(mx.image.imresize(src, 32, 24, interp=0)))
print(desc(mx.image.imresize(src, 16, 12, interp=0)))
for interp in (1, 2, 3, 4, 9):
    print(interp, mx.image.imresize(src, 8, 6, interp=interp).shape, mx.image.imresize(src, 20, 30, interp=interp).shape)
seed()
print(mx.image.imresize(src, 5, 7, interp=10).shape)
attempt(lambda: mx.image.imresize(src, 0, 6).asnumpy().shape)
fsrc = mx.nd.array(img, dtype='float32')
print(desc(mx.image.imresize(fsrc, 8, 6, interp=0)))
print(mx.image.imresize(fsrc, 8, 6, interp=1).dtype)

# scale_down, resize_short
print(mx.image.scale_down((640, 480), (720, 120)))
print(mx.image.scale_down((360, 1000), (480, 500)))
print(mx.image.scale_down((300, 400), (0, 0)))
print(desc(mx.image.resize_short(src, 6, interp=0)))
print(mx.image.resize_short(src, 24).shape, mx.image.resize_short(src.transpose((1, 0, 2)), 5).shape)

# crops
print(desc(mx.image.fixed_crop(src, 2, 3, 5, 4)))
print(desc(mx.image.fixed_crop(src, 0, 0, 16, 12)))
print(desc(mx.image.fixed_crop(src, 2, 3, 5, 4, size=(10, 8), interp=0)))
print(desc(mx.image.fixed_crop(src, 2, 3, 5, 4, size=(5, 4))))
r, box = mx.image.center_crop(src, (6, 4), interp=0)
print(desc(r), box)
r, box = mx.image.center_crop(src, (20, 10), interp=0)
print(desc(r), box)
seed()
r, box = mx.image.random_crop(src, (6, 4), interp=0)
print(desc(r), box)
r, box = mx.image.random_crop(src, (6, 4), interp=0)
print(desc(r), box)
seed(3)
for _ in range(3):
    r, box = mx.image.random_size_crop(src, (8, 8), 0.3, (0.75, 1.33), interp=0)
    print(desc(r), box)
r, box = mx.image.random_size_crop(src, (8, 8), (0.9, 1.0), (3.0, 4.0), interp=0)
print(desc(r), box)

attempt(lambda: mx.image.fixed_crop(src, 0, 0, 4, 4, size=(5, 5), interp=5))
attempt(lambda: mx.image.resize_short(src, 6, interp=5))
attempt(lambda: mx.image.center_crop(src, (6, 4), interp=7)[1])
attempt(lambda: mx.image.imresize(src.reshape((12, 48)), 8, 6).asnumpy().shape)
seed(9)
print([mx.image.random_crop(src, (20, 20), interp=0)[1] for _ in range(2)])
print(mx.image.random_size_crop(src, (4, 4), (0.1, 0.2), (1.0, 1.0), interp=0)[1])

# color_normalize
f = mx.nd.array(img[:2, :2], dtype='float32')
print(mx.image.color_normalize(f, mx.nd.array([10, 20, 30]), mx.nd.array([2, 4, 5])).asnumpy().tolist())
f = mx.nd.array(img[:2, :2], dtype='float32')
print(mx.image.color_normalize(f, mx.nd.array([10, 20, 30])).asnumpy().tolist())
f = mx.nd.array(img[:2, :2], dtype='float32')
r = mx.image.color_normalize(f, mx.nd.array([1, 1, 1]), mx.nd.array([2, 2, 2]))
print(f.asnumpy().sum(), r.asnumpy().sum())

# copyMakeBorder
cb = mx.image.copyMakeBorder(src, 1, 2, 3, 0, type=0, value=5)
print(desc(cb))
print(desc(mx.image.copyMakeBorder(src, 1, 1, 1, 1, type=1)))
print(desc(mx.image.copyMakeBorder(src, 2, 1, 0, 2, type=2)))
print(desc(mx.image.copyMakeBorder(src, 1, 1, 2, 2, type=0, values=(1, 2, 3))))
print(desc(mx.image.copyMakeBorder(src, 1, 2, 3, 4, type=16, values=(7, 8, 9))))
for kw in [dict(value=7), dict(values=(7, 8, 9)), dict(values=(7, 8, 9, 10))]:
    print(kw, mx.image.copyMakeBorder(mx.nd.zeros((2, 2, 3), dtype='uint8'), 1, 0, 0, 0, **kw).asnumpy()[0].tolist())

# augmenters: dumps and output on a fixed image
augs = [
    mx.image.ResizeAug(6, interp=0),
    mx.image.ForceResizeAug((7, 5), interp=0),
    mx.image.RandomCropAug((6, 4), interp=0),
    mx.image.RandomSizedCropAug((8, 8), 0.3, (0.75, 1.33), interp=0),
    mx.image.CenterCropAug((6, 4), interp=0),
    mx.image.BrightnessJitterAug(0.25),
    mx.image.ContrastJitterAug(0.25),
    mx.image.SaturationJitterAug(0.25),
    mx.image.HueJitterAug(0.25),
    mx.image.ColorJitterAug(0.1, 0.2, 0.3),
    mx.image.LightingAug(0.1, np.array([55.46, 4.794, 1.148]), np.eye(3)),
    mx.image.ColorNormalizeAug(mx.nd.array([1, 2, 3]), mx.nd.array([2, 2, 2])),
    mx.image.RandomGrayAug(1.0),
    mx.image.RandomGrayAug(0.0),
    mx.image.HorizontalFlipAug(1.0),
    mx.image.HorizontalFlipAug(0.0),
    mx.image.CastAug(),
    mx.image.CastAug('float16'),
    mx.image.SequentialAug([mx.image.CastAug(), mx.image.HorizontalFlipAug(1.0)]),
    mx.image.RandomOrderAug([mx.image.CastAug(), mx.image.HorizontalFlipAug(1.0)]),
]
for aug in augs:
    print(type(aug).__name__, aug.dumps())
    seed(1)
    x = mx.nd.array(img, dtype='uint8')
    if isinstance(aug, (mx.image.ColorNormalizeAug, mx.image.HueJitterAug, mx.image.LightingAug,
                        mx.image.BrightnessJitterAug, mx.image.ContrastJitterAug,
                        mx.image.SaturationJitterAug, mx.image.ColorJitterAug, mx.image.RandomGrayAug)):
        x = x.astype('float32')
    y = aug(x)
    print('  ', desc(y))
print(mx.image.RandomSizedCropAug((8, 8), 0.3, (0.75, 1.33)).dumps())
attempt(lambda: mx.image.Augmenter()(src))
print(mx.image.Augmenter(a=1, b=np.array([1, 2]), c=mx.nd.array([3])).dumps())

# CreateAugmenter argument combinations
combos = [
    dict(),
    dict(resize=10),
    dict(rand_crop=True),
    dict(rand_crop=True, rand_resize=True),
    dict(rand_mirror=True, mean=True, std=True),
    dict(brightness=0.1, contrast=0.1, saturation=0.1, hue=0.1, pca_noise=0.1, rand_gray=0.2),
    dict(mean=np.array([1, 2, 3]), std=np.array([2.0])),
    dict(resize=8, rand_crop=True, inter_method=0),
]
for kw in combos:
    augl = mx.image.CreateAugmenter((3, 8, 8), **kw)
    print(sorted(kw), [type(t).__name__ for t in augl])
    for t in augl:
        print('  ', t.dumps())
    seed(2)
    x = mx.nd.array(img, dtype='uint8')
    for t in augl:
        x = t(x)
    print('  ', x.shape, x.dtype)
attempt(lambda: mx.image.CreateAugmenter((3, 8, 8), rand_resize=True))
attempt(lambda: mx.image.CreateAugmenter((3, 8, 8), mean=[1, 2, 3]))
attempt(lambda: mx.image.CreateAugmenter((3, 8, 8), std=np.array([1, 2])))
