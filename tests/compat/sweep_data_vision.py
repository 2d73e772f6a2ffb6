import os, random, tempfile, warnings
import numpy as np
import mxnet as mx
from mxnet import gluon, nd, recordio
from mxnet.gluon.data import DataLoader, ArrayDataset, RecordFileDataset
from mxnet.gluon.data.vision import transforms as T, datasets

warnings.simplefilter('ignore')


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def seed(n):
    random.seed(n)
    np.random.seed(n)
    mx.random.seed(n)


def desc(x):
    return (x.shape, np.dtype(x.dtype).name)


def desc2(x):
    return (type(x).__name__, x.shape, np.dtype(x.dtype).name)


img = nd.array((np.arange(5 * 6 * 3).reshape(5, 6, 3) * 7) % 256, dtype='uint8')
batch = nd.stack(img, img[::-1])

# ToTensor / Normalize / Cast
tt = T.ToTensor()
print(desc(tt(img)), tt(img)[1].asnumpy().round(4).tolist())
print(desc(tt(batch)), float(tt(batch).sum().asscalar().round(2)))
print(desc(tt(img.astype('float32'))), tt(img.astype('float32'))[0, 0].asnumpy().round(4).tolist())
attempt(lambda: desc(tt(nd.ones((4, 4), dtype='uint8'))))
attempt(lambda: desc(tt(nd.ones((1, 2, 4, 4, 3), dtype='uint8'))))
x = tt(img)
for mean, std in ((0.5, 0.5), ((0.1, 0.2, 0.3), (0.5, 1.0, 2.0)), ((0.4,), (0.2,))):
    print(T.Normalize(mean, std)(x)[:, 0].asnumpy().round(4).tolist())
print(desc(T.Normalize(0.5, 0.25)(tt(batch))), float(T.Normalize(0.5, 0.25)(tt(batch)).sum().asscalar().round(2)))
attempt(lambda: T.Normalize((0.1, 0.2), (1.0, 1.0))(x).asnumpy())
attempt(lambda: T.Normalize(0.5, 0.5)(img).asnumpy())
for d in ('float16', 'float64', 'int32', np.float32):
    print(desc(T.Cast(d)(img)), T.Cast(d)(img)[0, 0].asnumpy().tolist())
print(desc(T.Cast()(img)))

# Resize, CenterCrop, CropResize
big = nd.array((np.arange(8 * 12 * 3).reshape(8, 12, 3) * 5) % 256, dtype='uint8')
for args in ((4,), ((6, 4),), (4, True), ((6, 4), True), (3, False, 0), (5, True, 0), (16, True, 0)):
    out = T.Resize(*args)(big)
    print(args, desc(out), int(out.asnumpy().astype(np.int64).sum()))
print(T.Resize(4, interpolation=0)(big)[:, :, 0].asnumpy().tolist())
print(desc(T.Resize((5, 3), interpolation=0)(nd.stack(big, big))))
print(T.Resize(4, interpolation=0)(big.astype('float32'))[0, :, 1].asnumpy().tolist())
attempt(lambda: desc(T.Resize(4)(nd.ones((4, 4), dtype='uint8'))))
attempt(lambda: desc(T.Resize((0, 4))(big)))
print(T.CenterCrop(3)(big)[:, :, 0].asnumpy().tolist())
print(T.CenterCrop((5, 2))(big)[:, :, 1].asnumpy().tolist())
print(desc(T.CenterCrop((20, 20), interpolation=0)(big)), int(T.CenterCrop((20, 20), interpolation=0)(big).asnumpy().astype(np.int64).sum()))
print(T.CropResize(1, 2, 4, 3)(big)[:, :, 0].asnumpy().tolist())
print(T.CropResize(1, 2, 4, 3, size=(2, 2), interpolation=0)(big)[:, :, 2].asnumpy().tolist())
print(desc(T.CropResize(0, 0, 3, 3)(nd.stack(big, big))))
attempt(lambda: desc(T.CropResize(10, 0, 4, 4)(big)))

# random transforms: shapes and dtypes (values come from each framework's own generator)
seed(3)
flipped = big[:, ::-1]
for t in (T.RandomFlipLeftRight(), T.RandomFlipTopBottom()):
    outs = set()
    for _ in range(12):
        o = t(big).asnumpy()
        outs.add('same' if (o == big.asnumpy()).all() else 'lr' if (o == big.asnumpy()[:, ::-1]).all()
                 else 'tb' if (o == big.asnumpy()[::-1]).all() else 'other')
    print(type(t).__name__, sorted(outs))
for size, kw in ((4, {}), ((5, 3), {}), (6, dict(scale=(0.5, 1.0), ratio=(1.0, 1.0))), (2, dict(interpolation=0))):
    print(size, desc(T.RandomResizedCrop(size, **kw)(big)))
for t in (T.RandomBrightness(0.3), T.RandomContrast(0.3), T.RandomSaturation(0.3), T.RandomHue(0.1),
          T.RandomColorJitter(0.1, 0.1, 0.1, 0.1), T.RandomLighting(0.1)):
    o = t(big.astype('float32'))
    print(type(t).__name__, desc(o))
print(desc(T.RandomBrightness(0)(big.astype('float32'))), (T.RandomBrightness(0)(big.astype('float32')) == big.astype('float32')).asnumpy().all())
print(desc(T.RandomApply(T.RandomFlipLeftRight(), p=0.0)(big)), (T.RandomApply(T.Cast('float16'), p=1.0)(big)).dtype)

# Compose, hybridize, blocks
comp = T.Compose([T.Resize(4, interpolation=0), T.CenterCrop(3), T.ToTensor(), T.Normalize(0.5, 0.5)])
out = comp(big)
print(desc(out), out.asnumpy().round(4)[0].tolist())
comp2 = T.Compose([T.Cast('float32'), T.ToTensor(), T.Normalize(0.2, 0.5)])
comp2.hybridize()
print(desc(comp2(img)), comp2(img)[2, 1].asnumpy().round(4).tolist())
print(T.Compose([])(img).shape, type(T.Compose([T.Cast('float32')])(img)).__name__)
tn = T.ToTensor()
tn.hybridize()
print(desc(tn(img)), tn(img)[0, 0].asnumpy().round(4).tolist())
print(T.Normalize(mean=(1, 2, 3), std=(4, 5, 6)))
print(T.Cast('float16'), T.ToTensor())
print(comp)

# transforms in a DataLoader
labels = nd.array([0, 1, 2, 3])
imgs = nd.stack(big, big[::-1], big[:, ::-1], big * 0)
ds = ArrayDataset(imgs, labels).transform_first(comp)
xb, yb = next(iter(DataLoader(ds, batch_size=3)))
print(desc(xb), desc(yb), xb.asnumpy().round(4)[:, 0, 0].tolist())
ds2 = ArrayDataset(imgs, labels).transform_first(comp, lazy=False)
print(type(ds2).__name__, desc(ds2[0][0]), ds2[0][1])
xb2, _ = next(iter(DataLoader(ds2, batch_size=3, num_workers=2, thread_pool=True)))
print(desc(xb2), float(abs(xb2 - xb).sum().asscalar()), xb2.context)
ds3 = ArrayDataset(imgs, labels).transform(lambda x, y: (T.ToTensor()(x), y + y))
print([desc(a) for a in next(iter(DataLoader(ds3, batch_size=4)))])

# image datasets: a record file and a folder of PNGs
tmp = tempfile.mkdtemp()
rec, idx = os.path.join(tmp, 'v.rec'), os.path.join(tmp, 'v.idx')
w = recordio.MXIndexedRecordIO(idx, rec, 'w')
pics = [((np.arange(6 * 7 * 3).reshape(6, 7, 3) * (i + 3)) % 256).astype(np.uint8) for i in range(4)]
for i, p in enumerate(pics):
    w.write_idx(i, recordio.pack_img(recordio.IRHeader(0, float(i % 2), i, 0), p, img_fmt='.png'))
w.close()
ird = datasets.ImageRecordDataset(rec)
x0, y0 = ird[1]
print(len(ird), desc(x0), type(y0).__name__, y0, (x0.asnumpy() == pics[1][:, :, ::-1]).all())
print(desc(datasets.ImageRecordDataset(rec, flag=0)[2][0]))
ird_t = datasets.ImageRecordDataset(rec, transform=lambda x, y: (x.astype('float32') / 255, y + 1))
print(desc(ird_t[3][0]), ird_t[3][1])
xb, yb = next(iter(DataLoader(ird.transform_first(T.ToTensor()), batch_size=4)))
print(desc(xb), desc(yb), yb.asnumpy().tolist())

root = os.path.join(tmp, 'folder')
for cls, n in (('cat', 2), ('dog', 3), ('bird', 1)):
    os.makedirs(os.path.join(root, cls))
    for i in range(n):
        packed = recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), pics[(i + len(cls)) % 4], img_fmt='.png')
        with open(os.path.join(root, cls, 'im%d.png' % i), 'wb') as f:
            f.write(recordio.unpack(packed)[1])
with open(os.path.join(root, 'dog', 'notes.txt'), 'w') as f:
    f.write('not an image')
os.makedirs(os.path.join(root, 'empty'))
with open(os.path.join(root, 'stray.png'), 'wb') as f:
    f.write(b'')
ifd = datasets.ImageFolderDataset(root)
print(len(ifd), ifd.synsets, [(os.path.relpath(p, root), l) for p, l in ifd.items])
x, y = ifd[3]
print(desc(x), type(y).__name__, y, (x.asnumpy() == pics[(1 + 3) % 4][:, :, ::-1]).all())
print(desc(datasets.ImageFolderDataset(root, flag=0)[0][0]))
tfd = datasets.ImageFolderDataset(root, transform=lambda x, y: (x.shape, y))
print([tfd[i] for i in range(len(tfd))])
xb, yb = next(iter(DataLoader(ifd.transform_first(T.ToTensor()), batch_size=6)))
print(desc(xb), desc(yb), yb.asnumpy().tolist())
attempt(lambda: len(datasets.ImageFolderDataset(os.path.join(tmp, 'nowhere'))))
attempt(lambda: len(datasets.ImageFolderDataset(rec)))

# rotations, multi-label image records, a corrupt record file
big = nd.array((np.arange(8 * 12 * 3).reshape(8, 12, 3) * 5) % 256, dtype='uint8')
f = big.astype('float32')
print(T.Rotate(90)(T.ToTensor()(big))[0, :2].asnumpy().round(4).tolist())
attempt(lambda: desc2(T.Rotate(30)(big)))
attempt(lambda: desc2(T.RandomRotation((-10, 10))(T.ToTensor()(big))))
attempt(lambda: desc2(T.Rotate(45, zoom_in=True)(T.ToTensor()(big))))
print(T.Rotate(45, zoom_out=True)(T.ToTensor()(big))[1, 3].asnumpy().round(3).tolist())
attempt(lambda: T.Resize(4, keep_ratio=True)(big).shape)
attempt(lambda: T.RandomResizedCrop((3, 5), scale=(1.0, 1.0), ratio=(1.5, 1.5))(big).shape)
attempt(lambda: T.RandomResizedCrop(3, scale=(2.0, 3.0))(big).shape)
rec, idx = os.path.join(tmp, 'm.rec'), os.path.join(tmp, 'm.idx')
w = recordio.MXIndexedRecordIO(idx, rec, 'w')
p = (np.arange(5 * 4 * 3).reshape(5, 4, 3) % 256).astype(np.uint8)
for i in range(3):
    w.write_idx(i, recordio.pack_img(recordio.IRHeader(0, np.array([i, i + 0.5, 2.0], dtype=np.float32), i, 0), p, img_fmt='.png'))
w.close()
ird = datasets.ImageRecordDataset(rec)
x, y = ird[2]
print(desc2(x), type(y).__name__, y.tolist(), y.dtype)
xb, yb = next(iter(DataLoader(ird, batch_size=3)))
print(desc2(xb), desc2(yb), yb.asnumpy().tolist())
attempt(lambda: datasets.ImageRecordDataset(rec, flag=0)[0][0].shape)
print(RecordFileDataset(rec).filename == rec, os.path.basename(RecordFileDataset(rec).idx_file))
with open(os.path.join(tmp, 'bad.rec'), 'wb') as fh:
    fh.write(b'x' * 40)
with open(os.path.join(tmp, 'bad.idx'), 'w') as fh:
    fh.write('0\t0\n')
attempt(lambda: RecordFileDataset(os.path.join(tmp, 'bad.rec'))[0])

# size and argument checks; nearest-neighbour resizes at uneven ratios (exact pixels)
odd = nd.array((np.arange(9 * 13 * 3).reshape(9, 13, 3) * 5) % 256, dtype='uint8')
for size in (5, (7, 4), (20, 11)):
    for kr in (False, True):
        o = T.Resize(size, keep_ratio=kr, interpolation=0)(odd)
        print(size, kr, o.shape, int(o.asnumpy().astype(np.int64).sum()))
print(T.CenterCrop((14, 10), interpolation=0)(odd)[:, :, 0].asnumpy().sum(axis=0).tolist())
print(T.Resize(5, keep_ratio=True)(nd.stack(odd, odd)).shape)
attempt(lambda: T.Resize(5.5)(odd).shape)
attempt(lambda: T.Resize((5, 5, 5))(odd).shape)
attempt(lambda: T.CenterCrop(3, interpolation=7)(odd).shape)
attempt(lambda: T.Normalize(0.0, 0.0)(nd.ones((1, 2, 2))).asnumpy().tolist())
attempt(lambda: T.Normalize((0.1, 0.2, 0.3, 0.4), 1.0)(nd.ones((3, 2, 2))).shape)
attempt(lambda: T.Normalize(0.1, 1.0)(nd.ones((2, 2, 2))).shape)
attempt(lambda: T.Normalize(0.1, 1.0)(nd.ones((4, 2, 2))).shape)
attempt(lambda: T.ToTensor()(nd.ones((2, 2, 5), dtype='uint8')).shape)
attempt(lambda: np.dtype(T.ToTensor()(nd.ones((2, 2, 3), dtype='float16')).dtype).name)
