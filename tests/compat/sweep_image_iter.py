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


tmp = tempfile.mkdtemp()


def image(i, h=10, w=12):
    return ((np.arange(h * w * 3).reshape(h, w, 3) * (i + 3) + 11 * i) % 256).astype(np.uint8)


# pack / unpack headers
h = recordio.IRHeader(0, 3.5, 7, 0)
s = recordio.pack(h, b'payload')
print(len(s), recordio.unpack(s))
h = recordio.IRHeader(0, [1.0, 2.0, 3.5], 8, 0)
s = recordio.pack(h, b'xy')
hh, body = recordio.unpack(s)
print(len(s), hh.flag, hh.label, hh.label.dtype, hh.id, hh.id2, body)
s = recordio.pack(recordio.IRHeader(0, np.array([4, 5], dtype=np.float32), 9, 2), b'')
print(recordio.unpack(s))
s = recordio.pack(recordio.IRHeader(5, 1.0, 1, 0), b'abc')
print(recordio.unpack(s))
print(recordio.IRHeader(0, 1.0, 2, 3), recordio.IRHeader._fields)
attempt(lambda: recordio.unpack(b'abc'))

# pack_img / unpack_img round trips (PNG keeps pixels)
for i, shape in enumerate([(10, 12, 3), (7, 5, 3)]):
    img = image(i, *shape[:2])
    s = recordio.pack_img(recordio.IRHeader(0, [float(i), 2.0], i, 0), img, img_fmt='.png')
    hh, dec = recordio.unpack_img(s)
    print(hh.label, hh.id, dec.shape, dec.dtype, (dec == img).all())
    hh, dec = recordio.unpack_img(s, iscolor=0)
    print(dec.shape, dec.dtype, int(dec.astype(np.int64).sum()))
    hh, dec = recordio.unpack_img(s, iscolor=-1)
    print(dec.shape)
s = recordio.pack_img(recordio.IRHeader(0, 1.0, 0, 0), image(2), quality=9, img_fmt='.png')
print(recordio.unpack_img(s)[1].shape)
s = recordio.pack_img(recordio.IRHeader(0, 1.0, 0, 0), image(2), quality=80, img_fmt='.jpg')
hh, dec = recordio.unpack_img(s)
print(dec.shape, dec.dtype, recordio.unpack(s)[1][:2])
gray = image(3)[:, :, 0]
s = recordio.pack_img(recordio.IRHeader(0, 1.0, 0, 0), gray, img_fmt='.png')
print(recordio.unpack_img(s, -1)[1].shape, (recordio.unpack_img(s, -1)[1] == gray).all())
print(recordio.unpack_img(s)[1].shape)

# MXRecordIO / MXIndexedRecordIO
rec = os.path.join(tmp, 'a.rec')
idx = os.path.join(tmp, 'a.idx')
w = recordio.MXIndexedRecordIO(idx, rec, 'w')
labels = [0.0, 1.0, 2.0, 1.0, 0.0, 2.0, 1.0]
for i, lab in enumerate(labels):
    w.write_idx(i * 10, recordio.pack_img(recordio.IRHeader(0, lab, i, 0), image(i), img_fmt='.png'))
w.close()
print([line.split('\t')[0] for line in open(idx).read().split('\n')])
r = recordio.MXIndexedRecordIO(idx, rec, 'r')
print(r.keys, sorted(r.idx)[:3])
print(recordio.unpack(r.read_idx(30))[0])
print(recordio.unpack(r.read())[0].id)
r.seek(50)
print(recordio.unpack(r.read())[0].id)
attempt(lambda: r.tell())
attempt(lambda: r.read_idx(11))
attempt(lambda: r.write(b'x'))
r.close()
plain = recordio.MXRecordIO(rec, 'r')
n = 0
while True:
    item = plain.read()
    if item is None:
        break
    n += 1
print('records', n)
plain.reset()
print(recordio.unpack(plain.read())[0].id)
plain.close()
attempt(lambda: recordio.MXRecordIO(rec, 'x'))
attempt(lambda: recordio.MXRecordIO(os.path.join(tmp, 'missing', 'b.rec'), 'r'))
mr = os.path.join(tmp, 'multi.rec')
w = recordio.MXRecordIO(mr, 'w')
for i in range(5):
    w.write(recordio.pack_img(recordio.IRHeader(0, [float(i), float(i) + 0.5, 1.0], i, 0), image(i), img_fmt='.png'))
w.close()


def show(it, epochs=1):
    for e in range(epochs):
        for b in it:
            d, l = b.data[0], b.label[0]
            print('  ', d.shape, d.dtype, int(d.asnumpy().astype(np.int64).sum()), l.asnumpy().tolist(), b.pad)
        it.reset()


augs = [mx.image.CenterCropAug((8, 6), interp=0)]
print('rec sequential')
it = mx.image.ImageIter(3, (3, 6, 8), path_imgrec=rec, aug_list=augs)
print(it.provide_data, it.provide_label)
show(it, 2)
print('rec idx shuffle')
seed(1)
it = mx.image.ImageIter(3, (3, 6, 8), path_imgrec=rec, path_imgidx=idx, shuffle=True, aug_list=augs)
show(it)
print('rec parts')
for part in range(2):
    it = mx.image.ImageIter(2, (3, 6, 8), path_imgrec=rec, path_imgidx=idx, num_parts=2, part_index=part, aug_list=augs)
    show(it)
for handle in ('discard', 'roll_over'):
    print('rec', handle)
    it = mx.image.ImageIter(3, (3, 6, 8), path_imgrec=rec, path_imgidx=idx, aug_list=augs, last_batch_handle=handle)
    show(it, 2)
print('rec multilabel')
it = mx.image.ImageIter(2, (3, 6, 8), label_width=3, path_imgrec=mr, aug_list=augs)
print(it.provide_label)
show(it)
print('rec default augs')
it = mx.image.ImageIter(4, (3, 8, 8), path_imgrec=rec, resize=9, inter_method=0)
b = it.next()
print(b.data[0].shape, b.label[0].shape)
print([type(a).__name__ for a in it.auglist])

# imglist and path_imglist over PNG files
names = []
for i in range(5):
    name = 'img%d.png' % i
    with open(os.path.join(tmp, name), 'wb') as f:
        f.write(recordio.unpack(recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), image(i), img_fmt='.png'))[1])
    names.append(name)
print('imglist')
it = mx.image.ImageIter(2, (3, 6, 8), imglist=[[float(i), n] for i, n in enumerate(names)], path_root=tmp, aug_list=augs)
show(it)
print('imglist multilabel')
it = mx.image.ImageIter(2, (3, 6, 8), label_width=2, imglist=[[[float(i), 9.0], n] for i, n in enumerate(names)],
                        path_root=tmp, aug_list=augs, dtype='int32')
show(it)
lst = os.path.join(tmp, 'a.lst')
with open(lst, 'w') as f:
    for i, n in enumerate(names):
        f.write('%d\t%d\t%s\n' % (i, i % 3, n))
print('path_imglist')
it = mx.image.ImageIter(2, (3, 6, 8), path_imglist=lst, path_root=tmp, aug_list=augs)
show(it)
seed(4)
it = mx.image.ImageIter(2, (3, 6, 8), path_imglist=lst, path_root=tmp, aug_list=augs, shuffle=True)
show(it)
print('rec + imglist labels')
it = mx.image.ImageIter(2, (3, 6, 8), path_imglist=lst, path_imgrec=rec, path_imgidx=idx, aug_list=augs)
attempt(lambda: it.next())

# bad arguments
attempt(lambda: mx.image.ImageIter(2, (3, 6, 8)))
attempt(lambda: mx.image.ImageIter(2, (6, 8), path_imgrec=rec))
attempt(lambda: mx.image.ImageIter(2, (1, 6, 8), path_imgrec=rec))
attempt(lambda: mx.image.ImageIter(2, (3, 6, 8), path_imgrec=rec, dtype='float16'))
attempt(lambda: mx.image.ImageIter(2, (3, 6, 8), path_imgrec=rec, shuffle=True))
it = mx.image.ImageIter(2, (3, 6, 8), path_imgrec=rec, aug_list=[])
attempt(lambda: it.next())
