import os, random, tempfile, warnings
import numpy as np
import mxnet as mx
from mxnet import recordio

warnings.simplefilter('ignore')


def seed(n=0):
    random.seed(n)
    np.random.seed(n)
    mx.random.seed(n)


tmp = tempfile.mkdtemp()


def image(i, h=18, w=22):
    return ((np.arange(h * w * 3).reshape(h, w, 3) * (i + 5) + 13 * i) % 256).astype(np.uint8)


rec, idx = os.path.join(tmp, 'c.rec'), os.path.join(tmp, 'c.idx')
w = recordio.MXIndexedRecordIO(idx, rec, 'w')
for i in range(7):
    w.write_idx(i, recordio.pack_img(recordio.IRHeader(0, float(i % 3), i, 0), image(i, 18 + i, 22 - i), img_fmt='.png'))
w.close()

# classification: seeded random crops, resizes and mirrors (nearest neighbour: exact pixels)
seed(11)
it = mx.image.ImageIter(3, (3, 10, 12), path_imgrec=rec, path_imgidx=idx, shuffle=True, resize=14,
                        rand_crop=True, rand_mirror=True, inter_method=0)
for epoch in range(2):
    for b in it:
        print(epoch, int(b.data[0].asnumpy().astype(np.int64).sum()), b.label[0].asnumpy().tolist(), b.pad)
    it.reset()
seed(12)
it = mx.image.ImageIter(2, (3, 10, 10), path_imgrec=rec, rand_crop=True, rand_resize=True, inter_method=0)
for b in it:
    print(int(b.data[0].asnumpy().astype(np.int64).sum()), b.label[0].asnumpy().tolist())
seed(13)
it = mx.image.ImageIter(4, (3, 8, 8), path_imgrec=rec, inter_method=10, rand_crop=True)
print([b.data[0].shape for b in it])

# imglist with labels spread over the item
names = []
for i in range(3):
    n = 'c%d.png' % i
    with open(os.path.join(tmp, n), 'wb') as f:
        f.write(recordio.unpack(recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), image(i), img_fmt='.png'))[1])
    names.append(n)
it = mx.image.ImageIter(3, (3, 18, 22), label_width=2, imglist=[[float(i), 7.0, n] for i, n in enumerate(names)],
                        path_root=tmp)
b = it.next()
print(b.label[0].asnumpy().tolist(), int(b.data[0].asnumpy().sum()))

# detection: seeded crops, pads and flips
drec = os.path.join(tmp, 'd.rec')
w = recordio.MXRecordIO(drec, 'w')
objs = np.array([[0, 0.1, 0.2, 0.5, 0.6], [1, 0.4, 0.3, 0.9, 0.95], [2, 0.05, 0.05, 0.3, 0.25]], dtype=np.float32)
for i in range(6):
    raw = np.concatenate([[2, 5], objs[:i % 3 + 1].ravel()])
    w.write(recordio.pack_img(recordio.IRHeader(0, raw, i, 0), image(i, 24, 30), img_fmt='.png'))
w.close()
seed(21)
it = mx.image.ImageDetIter(2, (3, 16, 16), path_imgrec=drec, rand_crop=0.7, rand_pad=0.5, rand_mirror=True,
                           inter_method=0, area_range=(0.2, 2.0), pad_val=(10, 20, 30))
for epoch in range(2):
    for b in it:
        lab = b.label[0].asnumpy()
        print(epoch, int(b.data[0].asnumpy().astype(np.int64).sum()), np.round(lab, 3).tolist(), b.pad)
    it.reset()
