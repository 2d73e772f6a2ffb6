"""MXNet 1.9's Gluon tutorials, data/: datasets, data_augmentation, and image/image-augmentation
(tiny synthetic images written as PNG files in place of the downloads; random augmenters print
shapes only)."""
import os
import struct
import tempfile
import zlib

import numpy as np
import mxnet as mx
from mxnet import gluon, nd, image
from mxnet.gluon.data.vision import transforms

tmp = tempfile.mkdtemp()
mx.random.seed(42)
np.random.seed(42)


def r(x, k=4):
    return (x.asnumpy().round(k) + 0).tolist()


def write_png(path, arr):
    """An H x W x 3 uint8 array as an RGB PNG (no image library needed)."""
    h, w, _ = arr.shape
    raw = b''.join(b'\x00' + arr[i].astype(np.uint8).tobytes() for i in range(h))

    def chunk(kind, data):
        c = struct.pack('>I', len(data)) + kind + data
        return c + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
    png += chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
    with open(path, 'wb') as f:
        f.write(png)
    return png


# ---- datasets.md: Dataset, ArrayDataset, DataLoader
X = nd.array(np.arange(20).reshape(10, 2))
y = nd.array(np.arange(10) % 3)
dataset = mx.gluon.data.dataset.ArrayDataset(X, y)
sample_idx = 4
sample = dataset[sample_idx]
print(len(sample), r(sample[0]), sample[1])
print(type(sample[0]).__name__, type(sample[1]).__name__, len(dataset))
data_loader = mx.gluon.data.DataLoader(dataset, batch_size=5)
for X_batch, y_batch in data_loader:
    print("X_batch has shape {}, and y_batch has shape {}".format(X_batch.shape, y_batch.shape))
    print(r(X_batch[:, 0]), r(y_batch), X_batch.dtype, y_batch.dtype)
loader = gluon.data.DataLoader(dataset, batch_size=4, last_batch='discard')
print(len(loader), [b[0].shape for b in loader])
loader = gluon.data.DataLoader(dataset, batch_size=4, last_batch='rollover')
print(len(loader), [b[0].shape for b in loader], [b[0].shape for b in loader])
loader = gluon.data.DataLoader(dataset, batch_size=4, last_batch='keep', num_workers=2)
print(len(loader), [r(b[1]) for b in loader])
npds = gluon.data.ArrayDataset(np.arange(6).reshape(3, 2).astype('float32'), [10, 11, 12])
print([type(v).__name__ for v in npds[1]], [b[0].dtype for b in gluon.data.DataLoader(npds, batch_size=2)])
print([r(b[1]) for b in gluon.data.DataLoader(npds, batch_size=2)])
sampler = gluon.data.SequentialSampler(5)
print(list(sampler), list(gluon.data.BatchSampler(sampler, 2, 'keep')), list(gluon.data.BatchSampler(sampler, 2, 'discard')))
print(sorted(gluon.data.RandomSampler(6)))
loader = gluon.data.DataLoader(dataset, batch_sampler=gluon.data.BatchSampler(gluon.data.SequentialSampler(10), 3, 'keep'))
print([r(b[1]) for b in loader])


def batchify(samples):
    data = nd.stack(*[s[0] for s in samples])
    label = nd.array([s[1] for s in samples])
    return data * 10, label


print([(r(d[:, 1]), r(l)) for d, l in gluon.data.DataLoader(dataset, batch_size=4, batchify_fn=batchify)])
simple = gluon.data.SimpleDataset([1, 2, 3, 4, 5])
print(len(simple), simple[2], list(simple.transform(lambda v: v * 2)), list(simple.filter(lambda v: v % 2)))
print(list(simple.take(2)), list(simple.shard(2, 1)), [s for s in simple.sample(gluon.data.SequentialSampler(3))])
lazy = dataset.transform_first(lambda d: d * 2)
print(r(lazy[3][0]), lazy[3][1])
both = dataset.transform(lambda d, l: (d + 1, l * 10), lazy=False)
print(r(both[3][0]), both[3][1])
try:
    gluon.data.ArrayDataset(X, nd.ones((3,)))
except Exception as e:
    print(type(e).__name__)

# MNIST stand-in: the tutorial's Fashion-MNIST pipeline on synthetic 28 x 28 x 1 uint8 images
imgs = nd.array((np.arange(6 * 28 * 28) % 251).reshape(6, 28, 28, 1), dtype='uint8')
labels = np.arange(6) % 10
train = gluon.data.ArrayDataset(imgs, labels)
print(train[0][0].shape, train[0][0].dtype, train[0][1])
transform_fn = transforms.Compose([transforms.ToTensor(), transforms.Normalize(0.13, 0.31)])
train_t = train.transform_first(transform_fn)
print(train_t[0][0].shape, train_t[0][0].dtype, r(train_t[0][0][0, 0, :4]))
loader = gluon.data.DataLoader(train_t, batch_size=4, shuffle=False)
for data, label in loader:
    print(data.shape, label.shape, label.dtype, round(data.mean().asscalar(), 4))

# image folder and record files (PNG bytes written by hand)
root = os.path.join(tmp, 'images')
pngs = {}
for cls, n in (('cat', 2), ('dog', 3)):
    os.makedirs(os.path.join(root, cls))
    for i in range(n):
        arr = (np.arange(4 * 6 * 3).reshape(4, 6, 3) * (i + 1) + (50 if cls == 'dog' else 0)) % 256
        pngs[(cls, i)] = write_png(os.path.join(root, cls, '%d.png' % i), arr)
with open(os.path.join(root, 'notes.txt'), 'w') as f:
    f.write('not an image')
folder = gluon.data.vision.ImageFolderDataset(root)
print(folder.synsets, len(folder), [os.path.basename(p) for p, _ in folder.items])
img, label = folder[3]
print(img.shape, img.dtype, label, r(img[0, :2, 0]))
gray = gluon.data.vision.ImageFolderDataset(root, flag=0)
print(gray[0][0].shape)
tf = gluon.data.vision.ImageFolderDataset(root, transform=lambda d, l: (d.astype('float32') / 255, l + 100))
print(r(tf[0][0][0, 0]), tf[0][1])
loader = gluon.data.DataLoader(folder.transform_first(transforms.ToTensor()), batch_size=2)
print([(d.shape, r(l)) for d, l in loader])
rec_path = os.path.join(tmp, 'data.rec')
idx_path = os.path.join(tmp, 'data.idx')
writer = mx.recordio.MXIndexedRecordIO(idx_path, rec_path, 'w')
for k, ((cls, i), png) in enumerate(sorted(pngs.items())):
    header = mx.recordio.IRHeader(0, float(cls == 'dog'), k, 0)
    writer.write_idx(k, mx.recordio.pack(header, png))
writer.close()
recs = gluon.data.RecordFileDataset(rec_path)
print(len(recs), len(recs[0]))
header, payload = mx.recordio.unpack(recs[4])
print(header.label, header.id, payload[:4] == b'\x89PNG')
imgrec = gluon.data.vision.ImageRecordDataset(rec_path)
print(len(imgrec), imgrec[4][0].shape, imgrec[4][1], r(imgrec[4][0][1, 1]))
print(r(imgrec.transform_first(transforms.ToTensor())[0][0][:, 0, 0]))

# ---- data_augmentation.md: deterministic transforms with values, random ones with shapes
example_image = image.imread(os.path.join(root, 'dog', '2.png'))
print(example_image.shape, example_image.dtype, r(example_image[0, :3, 0]))
print(r(image.imread(os.path.join(root, 'dog', '2.png'), flag=0)[:, :, 0]))
print(r(image.imread(os.path.join(root, 'dog', '2.png'), to_rgb=False)[0, 0]))
img = nd.array(np.arange(8 * 10 * 3).reshape(8, 10, 3) % 256, dtype='uint8')
print(r(transforms.Resize(size=(5, 4))(img)[:, :, 0]))
print(transforms.Resize(6, keep_ratio=True)(img).shape, transforms.Resize(6)(img).shape)
print(r(transforms.CenterCrop(size=(4, 2))(img)[:, :, 1]))
print(transforms.CenterCrop(4)(img).shape)
print(r(transforms.CropResize(1, 2, 6, 4)(img)[:, :, 2]))
print(r(transforms.CropResize(0, 0, 6, 4, size=(3, 2), interpolation=1)(img)[:, :, 0]))
print(r(transforms.ToTensor()(img)[:, 0, :3]))
print(r(transforms.Cast('float16')(img)[0, 0]), transforms.Cast('float16')(img).dtype)
for t in (transforms.RandomResizedCrop(size=(4, 5), scale=(0.3, 1.0)),
          transforms.RandomFlipLeftRight(), transforms.RandomFlipTopBottom(),
          transforms.RandomBrightness(0.5), transforms.RandomContrast(0.5),
          transforms.RandomSaturation(0.5), transforms.RandomHue(0.3),
          transforms.RandomColorJitter(0.3, 0.3, 0.3, 0.1), transforms.RandomLighting(0.5)):
    out = t(img)
    print(t.__class__.__name__, out.shape, out.dtype)
flip = transforms.RandomFlipLeftRight()
outs = [flip(img) for _ in range(20)]
print(sorted(set(int((o == img).min().asscalar()) for o in outs)), all(
    int(((o == img).min() + (o == img[:, ::-1]).min()).asscalar()) >= 1 for o in outs))
pipe = transforms.Compose([transforms.Resize(6), transforms.CenterCrop(4), transforms.ToTensor(),
                           transforms.Normalize(mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25))])
print(pipe(img).shape, r(pipe(img)[:, 0, 0]))
hyb = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.2, 0.2, 0.2))])
hyb.hybridize()
print(r(hyb(img)[:, 1, 1]))
try:
    transforms.Normalize((0.5, 0.5), (0.2, 0.2))(transforms.ToTensor()(img))
except Exception as e:
    print(type(e).__name__)

# printed transforms, and Compose's children (runs of hybrid transforms gathered), with user Blocks
for t in (transforms.Resize(6), transforms.Resize((4, 5), keep_ratio=True, interpolation=2), transforms.CenterCrop(4),
          transforms.CropResize(0, 0, 3, 3, size=2, interpolation=1), transforms.ToTensor(),
          transforms.Normalize(0.5, 0.2), transforms.Normalize((0.1, 0.2, 0.3), (1, 2, 3)), transforms.Cast('float16'),
          transforms.RandomResizedCrop(8), transforms.RandomFlipLeftRight(), transforms.RandomBrightness(0.1),
          transforms.RandomColorJitter(0.1, 0.2, 0.3, 0.4), transforms.RandomLighting(0.1)):
    print(t)
c = transforms.Compose([transforms.Resize(6), transforms.CenterCrop(4), transforms.ToTensor(), transforms.Normalize(0.5, 0.2)])
print(c, len(c), c[0])
print(transforms.RandomApply([transforms.RandomBrightness(0.1), transforms.RandomContrast(0.1)], p=0.3))


class AddOne(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return x + 1


class Twice(gluon.Block):
    def forward(self, x):
        return x * 2


c = transforms.Compose([transforms.ToTensor(), AddOne(), transforms.Normalize(0.5, 0.5), Twice()])
print(c, len(c), type(c[0]).__name__, len(c[0]), c[0][1], c[1])
print(r(c(img[:3, :3])))
ds = gluon.data.ArrayDataset(nd.stack(img[:3, :3], img[:3, :3]), nd.array([1, 2])).transform_first(c)
print([(d.shape, round(d.sum().asscalar(), 3)) for d, l in gluon.data.DataLoader(ds, batch_size=2)])

# ---- image/image-augmentation.md: mx.image augmenters
src = img.astype('float32')
aug = image.ResizeAug(4)
print(aug(src).shape)
print(r(image.ForceResizeAug((5, 4))(src)[:, :, 0]))
print(image.CenterCropAug((4, 4))(src).shape, r(image.CenterCropAug((4, 2))(src)[:, :, 0]))
print(r(image.HorizontalFlipAug(1)(src)[0, :, 0]), r(image.HorizontalFlipAug(0)(src)[0, :, 0]))
print(r(image.CastAug()(img)[0, 0]), image.CastAug()(img).dtype)
print(r(image.ColorNormalizeAug(nd.array([10, 20, 30]), nd.array([2, 4, 8]))(src)[0, 0]))
for a in (image.RandomCropAug((4, 3)), image.RandomSizedCropAug((4, 4), 0.5, (0.75, 1.333)),
          image.BrightnessJitterAug(0.3), image.ContrastJitterAug(0.3), image.SaturationJitterAug(0.3),
          image.HueJitterAug(0.3), image.ColorJitterAug(0.3, 0.3, 0.3),
          image.LightingAug(0.1, np.array([55.46, 4.794, 1.148]), np.array([[-0.5675, 0.7192, 0.4009],
                                                                           [-0.5808, -0.0045, -0.8140],
                                                                           [-0.5836, -0.6948, 0.4203]])),
          image.RandomGrayAug(0.0), image.RandomGrayAug(1.0), image.HorizontalFlipAug(0), image.HorizontalFlipAug(1), image.RandomOrderAug([image.BrightnessJitterAug(0.1)])):
    s2 = src.copy()
    out = a(s2)
    print(a.__class__.__name__, out.shape, out.dtype, out is s2)
augs = image.CreateAugmenter(data_shape=(3, 4, 4), resize=6, rand_crop=True, rand_mirror=True,
                             mean=True, std=True, brightness=0.1)
print([a.__class__.__name__ for a in augs])
out = src
for a in augs:
    out = a(out)
print(out.shape, out.dtype)
print(image.RandomCropAug((4, 3)).dumps(), image.HorizontalFlipAug(0.5).dumps())
cropped, rect = image.random_crop(src, (4, 3))
print(cropped.shape, len(rect), rect[2:])
cropped, rect = image.center_crop(src, (4, 4))
print(cropped.shape, rect)
print(r(image.fixed_crop(src, 1, 2, 3, 2)[:, :, 0]))
print(image.resize_short(src, 4).shape, image.imresize(src, 3, 7).shape)
print(r(image.color_normalize(src[:1, :1], nd.array([1, 2, 3]), nd.array([2, 2, 2]))))
