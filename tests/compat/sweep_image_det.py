import os, random, tempfile, warnings
import numpy as np
import mxnet as mx
from mxnet import recordio

warnings.simplefilter('ignore')


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


def lab(x):
    return np.round(np.asarray(x, dtype=np.float64), 4).tolist()


tmp = tempfile.mkdtemp()


def image(i, h=20, w=24):
    return ((np.arange(h * w * 3).reshape(h, w, 3) * (i + 3) + 11 * i) % 256).astype(np.uint8)


objects = np.array([[0, 0.1, 0.2, 0.5, 0.6, 0],
                    [1, 0.4, 0.3, 0.9, 0.95, 1],
                    [2, 0.05, 0.05, 0.3, 0.25, 0]], dtype=np.float32)

# augmenters: dumps and effect on a fixed image and label
src = mx.nd.array(image(0), dtype='uint8')
det = mx.image.det
augs = [
    det.DetBorrowAug(mx.image.CastAug()),
    det.DetBorrowAug(mx.image.ForceResizeAug((12, 10), interp=0)),
    det.DetHorizontalFlipAug(1.0),
    det.DetHorizontalFlipAug(0.0),
    det.DetRandomCropAug(),
    det.DetRandomCropAug(min_object_covered=0.5, aspect_ratio_range=1.0, area_range=0.5, max_attempts=20),
    det.DetRandomPadAug(),
    det.DetRandomPadAug(aspect_ratio_range=1.0, area_range=(1.5, 2.0), pad_val=(5, 6, 7)),
    det.DetRandomSelectAug([det.DetHorizontalFlipAug(1.0), det.DetBorrowAug(mx.image.CastAug())]),
    det.DetRandomSelectAug([det.DetHorizontalFlipAug(1.0)], skip_prob=1.0),
    det.DetRandomSelectAug([]),
    det.DetRandomSelectAug(det.DetHorizontalFlipAug(1.0)),
    det.CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.3, 0.5], area_range=[(0.1, 1.0), (0.3, 1.0), (0.5, 1.0)]),
]
for aug in augs:
    print(type(aug).__name__, aug.dumps())
    for s in (1, 2):
        seed(s)
        label = objects.copy()
        out, new = aug(src, label)
        print('  ', desc(out), lab(new), (label == objects).all())
attempt(lambda: det.DetBorrowAug(det.DetHorizontalFlipAug(0.5)))
attempt(lambda: det.DetRandomSelectAug([mx.image.CastAug()]))
attempt(lambda: det.DetAugmenter()(src, objects))
print(det.DetAugmenter(a=np.array([1, 2]), b=mx.nd.array([3]), c='x').dumps())

# CreateDetAugmenter combinations
combos = [
    dict(),
    dict(resize=30),
    dict(rand_crop=0.5, rand_pad=0.5, rand_mirror=True),
    dict(rand_crop=1, min_object_covered=[0.3, 0.5, 0.9], area_range=(0.3, 3.0)),
    dict(mean=True, std=True, brightness=0.1, contrast=0.1, saturation=0.1, hue=0.1, pca_noise=0.05, rand_gray=0.1),
    dict(mean=np.array([1.0, 2.0, 3.0]), inter_method=0),
]
for kw in combos:
    augl = mx.image.CreateDetAugmenter((3, 16, 16), **kw)
    print(sorted(kw), [type(t).__name__ for t in augl])
    for t in augl:
        print('  ', t.dumps())
    seed(5)
    x, y = src, objects.copy()
    for t in augl:
        x, y = t(x, y)
    print('  ', x.shape, x.dtype, np.asarray(y).shape)
attempt(lambda: mx.image.CreateDetAugmenter((3, 16, 16), mean=[1, 2, 3]))
attempt(lambda: mx.image.CreateDetAugmenter((3, 16, 16), std=np.array([1, 2])))

# ImageDetIter over a .rec with variable object counts (header width 2, object width 6)
rec = os.path.join(tmp, 'det.rec')
idx = os.path.join(tmp, 'det.idx')
w = recordio.MXIndexedRecordIO(idx, rec, 'w')
for i in range(5):
    n = i % 3 + 1
    raw = np.concatenate([[2, 6], objects[:n].ravel()]).astype(np.float32)
    w.write_idx(i, recordio.pack_img(recordio.IRHeader(0, raw, i, 0), image(i), img_fmt='.png'))
w.close()


def show(it, epochs=1):
    for e in range(epochs):
        for b in it:
            d, l = b.data[0], b.label[0]
            print('  ', d.shape, int(d.asnumpy().astype(np.int64).sum()), l.shape, lab(l.asnumpy()[:, :, :2]), b.pad)
        it.reset()


plain = [det.DetBorrowAug(mx.image.ForceResizeAug((8, 6), interp=0))]
it = mx.image.ImageDetIter(2, (3, 6, 8), path_imgrec=rec, aug_list=plain)
print(it.label_shape, it.provide_data, it.provide_label)
show(it, 2)
it = mx.image.ImageDetIter(2, (3, 6, 8), path_imgrec=rec, path_imgidx=idx, aug_list=plain, last_batch_handle='discard')
show(it)
it = mx.image.ImageDetIter(2, (3, 6, 8), path_imgrec=rec, path_imgidx=idx, aug_list=plain, last_batch_handle='roll_over')
show(it, 2)
seed(7)
it = mx.image.ImageDetIter(2, (3, 6, 8), path_imgrec=rec, path_imgidx=idx, shuffle=True, aug_list=plain)
show(it)
seed(8)
it = mx.image.ImageDetIter(3, (3, 8, 8), path_imgrec=rec, rand_crop=0.5, rand_pad=0.5, rand_mirror=True,
                           mean=True, std=True, inter_method=0)
print(it.label_shape, [type(t).__name__ for t in it.auglist])
for b in it:
    print('  ', b.data[0].shape, b.label[0].shape, b.pad)
it = mx.image.ImageDetIter(2, (3, 6, 8), path_imgrec=rec, data_name='img', label_name='boxes', aug_list=plain)
print(it.provide_data, it.provide_label)

# reshape, sync_label_shape, check_label_shape
it.reshape(label_shape=(5, 6))
print(it.label_shape, it.provide_label)
b = it.next()
print(b.label[0].shape, lab(b.label[0].asnumpy()[1, :, 0]))
it.reshape(data_shape=(3, 4, 4))
print(it.provide_data)
attempt(lambda: it.next().data[0].shape)
attempt(lambda: it.reshape(label_shape=(2, 6)))
attempt(lambda: it.reshape(label_shape=(6, 5)))
attempt(lambda: it.reshape(label_shape=(6,)))
attempt(lambda: it.reshape(data_shape=(1, 4, 4)))
it2 = mx.image.ImageDetIter(2, (3, 6, 8), path_imgrec=rec, aug_list=plain)
other = it2.sync_label_shape(it)
print(other is it, it.label_shape, it2.label_shape)
attempt(lambda: it2.sync_label_shape(mx.image.ImageIter(2, (3, 6, 8), path_imgrec=rec)))

# imglist with header width 4 (w, h) and object width 5
names = []
for i in range(3):
    name = 'd%d.png' % i
    with open(os.path.join(tmp, name), 'wb') as f:
        f.write(recordio.unpack(recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), image(i), img_fmt='.png'))[1])
    names.append(name)
imglist = [[[4, 5, 24, 20] + objects[:i + 1, :5].ravel().tolist(), n] for i, n in enumerate(names)]
it = mx.image.ImageDetIter(2, (3, 6, 8), imglist=imglist, path_root=tmp, aug_list=plain)
print(it.label_shape, it.provide_label)
show(it)
lst = os.path.join(tmp, 'det.lst')
with open(lst, 'w') as f:
    for i, (labels, n) in enumerate(imglist):
        f.write('\t'.join([str(i)] + ['%g' % v for v in labels] + [n]) + '\n')
it = mx.image.ImageDetIter(2, (3, 6, 8), path_imglist=lst, path_root=tmp, aug_list=plain)
print(it.label_shape)
show(it)

# bad labels
attempt(lambda: mx.image.ImageDetIter(1, (3, 6, 8), imglist=[[[2, 5, 0, 0.1], names[0]]], path_root=tmp))
attempt(lambda: mx.image.ImageDetIter(1, (3, 6, 8), imglist=[[[2, 4, 0, 0.1, 0.1, 0.5, 0.5], names[0]]], path_root=tmp))
attempt(lambda: mx.image.ImageDetIter(1, (3, 6, 8), imglist=[[[2, 5, 0, 0.5, 0.5, 0.1, 0.1], names[0]]], path_root=tmp))
good = [[2, 5, 0, 0.1, 0.1, 0.5, 0.5], names[0]]
bad = [[2, 5, -1, 0.1, 0.1, 0.5, 0.5], names[1]]
it = mx.image.ImageDetIter(1, (3, 6, 8), imglist=[good, bad, good], path_root=tmp, aug_list=plain)
show(it)
print(it._parse_label(np.array([2, 6, 0, 0.1, 0.1, 0.5, 0.5, 0, 1, 0.5, 0.5, 0.4, 0.9, 0])).tolist())
attempt(lambda: it._parse_label(np.array([2, 5, 1, 2])))
attempt(lambda: it._check_valid_label(np.zeros((3, 4))))
attempt(lambda: it._check_valid_label(np.array([[-1, 0.1, 0.1, 0.5, 0.5]])))
