import os, random, tempfile
import numpy as np
import mxnet as mx
from mxnet import recordio


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def seed(n=0):
    random.seed(n)
    np.random.seed(n)
    mx.random.seed(n)


def desc(x):
    if isinstance(x, mx.nd.NDArray):
        kind, x = 'nd', x.asnumpy()
    else:
        kind = 'np'
    return '%s %s %s %s' % (kind, x.shape, x.dtype, round(float(x.astype(np.float64).sum()), 1))


def encoded(img, fmt='.png'):
    return recordio.unpack(recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), img, img_fmt=fmt))[1]


tmp = tempfile.mkdtemp()
rgb = (np.arange(9 * 11 * 3).reshape(9, 11, 3) * 5 % 256).astype(np.uint8)
rgba = np.concatenate([rgb, (np.arange(9 * 11).reshape(9, 11, 1) * 3 % 256).astype(np.uint8)], axis=2)
gray = rgb[:, :, 1].copy()

# channel counts through imdecode and unpack_img
for name, img in (('rgb', rgb), ('rgba', rgba), ('gray', gray)):
    buf = encoded(img)
    for flag in (1, 0):
        print(name, flag, desc(mx.image.imdecode(buf, flag=flag)))
    for iscolor in (1, 0, -1):
        print(name, 'unpack', iscolor, desc(recordio.unpack_img(recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), img, img_fmt='.png'), iscolor)[1]))
print((mx.image.imdecode(encoded(gray)).asnumpy() == gray[:, :, None]).all())
attempt(lambda: mx.image.imdecode(encoded(rgba), flag=-1).shape)
print(mx.image.imdecode(mx.nd.array(np.frombuffer(encoded(rgb), dtype=np.uint8), dtype='uint8')).shape)
attempt(lambda: mx.image.imdecode(mx.nd.array(np.frombuffer(encoded(rgb), dtype=np.uint8))).shape)
print((mx.image.imdecode(encoded(rgba), to_rgb=0).asnumpy() == rgba[:, :, :3]).all())
# JPEG: shapes only (encoders differ)
jpg = encoded(rgb, '.jpg')
print(jpg[:2], mx.image.imdecode(jpg).shape, mx.image.imdecode(jpg, flag=0).shape)
print(recordio.unpack_img(recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), gray, img_fmt='.jpg'))[1].shape)

# imrotate / random_rotate (float32 C x H x W)
chw = mx.nd.array(rgb.transpose(2, 0, 1), dtype='float32')
for deg, zi, zo in ((0, False, False), (90, False, False), (30, False, False), (30, True, False), (30, False, True)):
    r = mx.image.imrotate(chw, deg, zoom_in=zi, zoom_out=zo)
    print(deg, zi, zo, r.shape, r.dtype, round(float(r.asnumpy().sum()), 0))
batch = mx.nd.stack(chw, chw * 0.5)
r = mx.image.imrotate(batch, mx.nd.array([10, -20]))
print(r.shape, round(float(r.asnumpy().sum()), 0))
attempt(lambda: mx.image.imrotate(chw, 10, zoom_in=True, zoom_out=True))
attempt(lambda: mx.image.imrotate(chw.astype('uint8'), 10))
attempt(lambda: mx.image.imrotate(chw, mx.nd.array([1, 2])))
attempt(lambda: mx.image.imrotate(batch, mx.nd.array([1, 2, 3])).shape)
seed(3)
print(mx.image.random_rotate(chw, (-10, 10)).shape, mx.image.random_rotate(batch, (-10, 10)).shape)

# augmenters on float NDArrays and chains
x = mx.nd.array(rgb, dtype='float32')
seed(4)
for aug in (mx.image.ResizeAug(5, interp=0), mx.image.HorizontalFlipAug(1), mx.image.CenterCropAug((4, 4), interp=0),
            mx.image.ForceResizeAug((22, 18), interp=0), mx.image.RandomCropAug((3, 5), interp=0)):
    print(type(aug).__name__, desc(aug(x)))
seq = mx.image.SequentialAug([mx.image.RandomCropAug((6, 6), interp=0), mx.image.CastAug(), mx.image.HorizontalFlipAug(0.5),
                              mx.image.ColorNormalizeAug(mx.nd.array([100.0, 90, 80]), None)])
seed(5)
print([desc(seq(mx.nd.array(rgb, dtype='uint8'))) for _ in range(3)])
print(seq.dumps())

# ImageIter details
names = []
for i in range(4):
    name = 'g%d.png' % i
    with open(os.path.join(tmp, name), 'wb') as f:
        f.write(encoded(gray if i % 2 else rgb))
    names.append(name)
lst = os.path.join(tmp, 'm.lst')
with open(lst, 'w') as f:
    for i, n in enumerate(names):
        f.write('%d\t%d\t%g\t%s\n' % (i, i, i * 0.5, n))
aug = [mx.image.ForceResizeAug((6, 5), interp=0)]
it = mx.image.ImageIter(3, (3, 5, 6), label_width=2, path_imglist=lst, path_root=tmp, aug_list=aug,
                        last_batch_handle='roll_over', data_name='x', label_name='y')
print(it.provide_data, it.provide_label, it.num_image, it.seq)
for epoch in range(3):
    for b in it:
        print('  ', epoch, desc(b.data[0]), b.label[0].asnumpy().tolist(), b.pad)
    it.reset()
it.hard_reset()
lab, s = it.next_sample()
print(lab, type(lab).__name__, len(s) > 0)
print(desc(it.imdecode(s)))
print(desc(it.postprocess_data(mx.nd.array(rgb))))
print(desc(it.augmentation_transform(mx.nd.array(rgb))))
attempt(lambda: it.check_valid_image(mx.nd.zeros((0, 3, 3))))
attempt(lambda: it.check_data_shape((3, 4)))
attempt(lambda: it.imdecode(b'broken'))
it = mx.image.ImageIter(2, (3, 5, 6), imglist=[[1.0, names[0]], [2.0, 'missing.png']], path_root=tmp, aug_list=aug)
attempt(lambda: it.next())
