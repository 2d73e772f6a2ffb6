# mx.io beyond io_ndarrayiter.py/io_csv.py: NDArrayIter corner cases, CSVIter, MNISTIter over IDX files
# written here, ResizeIter, PrefetchingIter, DataBatch/DataDesc printing and DataIter subclasses.
import gzip
import os
import struct
import tempfile

import numpy as np
import mxnet as mx

os.chdir(tempfile.mkdtemp())


def attempt(f):
    try:
        v = f()
        print(v if isinstance(v, (str, int, float, list, tuple, bool, type(None))) else type(v).__name__)
    except Exception as e:
        print(type(e).__name__)


def col0(b):
    return b.data[0].asnumpy()[:, 0].tolist()


data = np.arange(14, dtype='float32').reshape(7, 2)
label = np.arange(7, dtype='float32')

print('--- NDArrayIter corners')
# batch larger than the data, pad mode: the pad wraps around the data several times
it = mx.io.NDArrayIter(data, label, batch_size=16)
b = it.next()
print(col0(b), b.label[0].asnumpy().tolist(), b.pad)
attempt(it.next)
# roll_over with a batch larger than the data
it = mx.io.NDArrayIter(data, label, batch_size=10, last_batch_handle='roll_over')
print(len(list(it)))
# getpad/getindex/iter_next protocol, pad mode, 7 samples by 3
it = mx.io.NDArrayIter(data, label, batch_size=3)
while it.iter_next():
    print(it.getdata()[0].asnumpy()[:, 0].tolist(), it.getlabel()[0].asnumpy().tolist(), it.getpad())
print(it.iter_next())
it.reset()
print(it.iter_next(), it.getpad())
# hard_reset in roll_over mode drops the rolled samples
it = mx.io.NDArrayIter(data, label, batch_size=3, last_batch_handle='roll_over')
print([col0(b) for b in it])
it.hard_reset()
print([col0(b) for b in it])
it.reset()
print([(col0(b), b.pad) for b in it])
# discard: nothing when batch_size > samples
it = mx.io.NDArrayIter(data, label, batch_size=8, last_batch_handle='discard')
print(len(list(it)))
# 3-D data, a layout with the batch axis first
it = mx.io.NDArrayIter(np.arange(24, dtype='float32').reshape(4, 3, 2), batch_size=2, layout='NTC')
print(it.provide_data, it.provide_data[0].layout)
# label as dict / as list of two
it = mx.io.NDArrayIter({'b': data, 'a': data}, [label, label * 2], batch_size=4)
print([d.name for d in it.provide_data], [d.name for d in it.provide_label])
b = it.next()
print([l.asnumpy().tolist() for l in b.label])
# data property (name, NDArray) pairs
it = mx.io.NDArrayIter(data, label, batch_size=4)
print([(n, a.shape) for n, a in it.data], [(n, a.shape) for n, a in it.label])
print(it.num_data, it.batch_size, it.cursor, it.last_batch_handle, it.num_source)
# NDArray input keeps its dtype
it = mx.io.NDArrayIter(mx.nd.array(data, dtype='float64'), mx.nd.array(label, dtype='int32'), batch_size=4)
print(it.provide_data, it.provide_label)
b = it.next()
print(b.data[0].dtype, b.label[0].dtype)
# shuffle with a seed: membership only
mx.random.seed(3)
np.random.seed(3)
it = mx.io.NDArrayIter(data, label, batch_size=7, shuffle=True)
b = it.next()
print(sorted(b.label[0].asnumpy().tolist()), (b.data[0].asnumpy()[:, 0] / 2 == b.label[0].asnumpy()).all())
# bad inputs (an unknown last_batch_handle and short labels: docs/MIGRATING.md)
attempt(lambda: mx.io.NDArrayIter('abc', batch_size=2))
attempt(lambda: mx.io.NDArrayIter(None, batch_size=2))
attempt(lambda: mx.io.NDArrayIter(5, batch_size=2))

print('--- DataDesc / DataBatch')
d = mx.io.DataDesc('data', (4, 3), 'float16', 'NC')
print(d, d == ('data', (4, 3)), d[0], d[1], len(d), d.dtype, d.layout)
print(mx.io.DataDesc.get_batch_axis('CN'), mx.io.DataDesc.get_batch_axis('TC'))
print(mx.io.DataDesc.get_list([('a', (1, 2)), ('b', (3,))], None))
print(mx.io.DataDesc('x', (2,)) == mx.io.DataDesc('x', (2,), 'int32'))
db = mx.io.DataBatch(data=[mx.nd.ones((2, 3))], label=None, pad=1, index=np.array([4, 5]), bucket_key=7)
print(db, db.pad, db.index.tolist(), db.bucket_key, db.label)
db = mx.io.DataBatch([mx.nd.ones((2, 3))], [mx.nd.ones((2,)), mx.nd.ones((2, 1))],
                     provide_data=[('data', (2, 3))])
print(db, db.provide_data, db.provide_label)
attempt(lambda: mx.io.DataBatch(mx.nd.ones((2, 3))))
attempt(lambda: mx.io.DataBatch([mx.nd.ones((2, 3))], mx.nd.ones((2,))))


print('--- DataIter subclass')
class Counter(mx.io.DataIter):
    def __init__(self, n):
        super(Counter, self).__init__(batch_size=2)
        self.n, self.i = n, 0

    @property
    def provide_data(self):
        return [mx.io.DataDesc('data', (2, 1))]

    @property
    def provide_label(self):
        return []

    def reset(self):
        self.i = 0

    def iter_next(self):
        self.i += 1
        return self.i <= self.n

    def getdata(self):
        return [mx.nd.full((2, 1), self.i)]

    def getlabel(self):
        return []

    def getpad(self):
        return 0


c = Counter(3)
print(c.batch_size, [b.data[0].asnumpy().ravel().tolist() for b in c], [b.pad for b in c])
c.reset()
b = next(c)
print(b.label, b.index, b.pad)
base = mx.io.DataIter()
print(base.batch_size, base.getindex(), base.getpad(), base.iter_next(), base.getdata(), base.getlabel())
attempt(base.next)
print(mx.io.DataIter.__name__, mx.io.io.DataIter is mx.io.DataIter, mx.io.io.NDArrayIter is mx.io.NDArrayIter)

print('--- ResizeIter')
base = mx.io.NDArrayIter(data, label, batch_size=3)
r = mx.io.ResizeIter(base, 5)
print(r.provide_data, r.provide_label, r.batch_size)
print([(col0(b), b.pad) for b in r])
r.reset()
print([col0(b) for b in r])
r = mx.io.ResizeIter(mx.io.NDArrayIter(data, label, batch_size=3), 2, reset_internal=False)
print([col0(b) for b in r])
r.reset()
print([col0(b) for b in r])
r.reset()
while r.iter_next():
    print(r.getdata()[0].shape, r.getlabel()[0].shape, r.getpad(), r.getindex())

print('--- PrefetchingIter')
i1 = mx.io.NDArrayIter(data, label, batch_size=3)
i2 = mx.io.NDArrayIter(data * 10, label * 10, batch_size=3)
p = mx.io.PrefetchingIter([i1, i2], rename_data=[{'data': 'd1'}, {'data': 'd2'}],
                          rename_label=[{'softmax_label': 'l1'}, {'softmax_label': 'l2'}])
print(p.provide_data)
print(p.provide_label, p.batch_size)
for b in p:
    print([d.asnumpy()[:, 0].tolist() for d in b.data], [l.asnumpy().tolist() for l in b.label], b.pad)
p.reset()
print(len(list(p)))
p = mx.io.PrefetchingIter(mx.io.NDArrayIter(data, label, batch_size=4))
print(p.provide_data, p.provide_label)
print(p.iter_next(), p.getdata()[0].shape, p.getlabel()[0].shape, p.getpad())
print(p.iter_next(), p.getpad())
print(p.iter_next())

print('--- CSVIter')
np.savetxt('d.csv', np.arange(30, dtype='float32').reshape(5, 6), delimiter=',')
np.savetxt('l.csv', np.arange(10, dtype='float32').reshape(5, 2), delimiter=',')
it = mx.io.CSVIter(data_csv='d.csv', data_shape=(2, 3), label_csv='l.csv', label_shape=(2,), batch_size=2)
print(it.provide_data, it.provide_label, it.batch_size)
for epoch in range(3):
    print(epoch, [(b.data[0].asnumpy()[:, 0, 0].tolist(), b.label[0].asnumpy().tolist(), b.pad,
                   b.index.tolist(), b.index.dtype) for b in it])
    it.reset()
it = mx.io.CSVIter(data_csv='d.csv', data_shape=(6,), batch_size=5)
b = it.next()
print(b.data[0].shape, b.label[0].shape, b.label[0].asnumpy().tolist(), b.pad)
attempt(it.next)
it = mx.io.CSVIter(data_csv='d.csv', data_shape=(6,), batch_size=7)
b = it.next()
print(b.data[0].asnumpy()[:, 0].tolist(), b.pad, b.index.tolist())
it = mx.io.CSVIter(data_csv='d.csv', data_shape=(6,), batch_size=2, round_batch=False)
for epoch in range(2):
    print([(b.data[0].asnumpy()[:, 0].tolist(), b.index.tolist(), b.pad) for b in it])
    it.reset()
np.savetxt('i.csv', np.arange(12).reshape(2, 6) * 3, fmt='%d', delimiter=',')
it = mx.io.CSVIter(data_csv='i.csv', data_shape=(6,), batch_size=2, dtype='int32')
b = it.next()
print(b.data[0].dtype, b.data[0].asnumpy().tolist(), it.provide_data)
it = mx.io.CSVIter(data_csv='d.csv', data_shape=(6,), batch_size=2)
print(it.iter_next(), it.getdata().shape, it.getlabel().shape, it.getpad(), it.getindex())
attempt(lambda: mx.io.CSVIter(data_csv='nope.csv', data_shape=(6,), batch_size=2).next())

print('--- MNISTIter')
def write_idx(name, arr, gz=False):
    opener = gzip.open if gz else open
    with opener(name, 'wb') as f:
        f.write(struct.pack('>BBBB', 0, 0, 0x08, arr.ndim))
        f.write(struct.pack('>' + 'I' * arr.ndim, *arr.shape))
        f.write(arr.astype(np.uint8).tobytes())


imgs = (np.arange(10 * 28 * 28) % 251).astype(np.uint8).reshape(10, 28, 28)
labs = np.arange(10, dtype=np.uint8) % 7
write_idx('img-idx3', imgs)
write_idx('lab-idx1', labs)
it = mx.io.MNISTIter(image='img-idx3', label='lab-idx1', batch_size=4, shuffle=False, silent=True)
print(it.provide_data, it.provide_label)
for b in it:
    print(b.data[0].shape, b.label[0].asnumpy().tolist(), b.pad, round(float(b.data[0].sum().asscalar()), 2))
it.reset()
print(len(list(it)))
it = mx.io.MNISTIter(image='img-idx3', label='lab-idx1', batch_size=5, shuffle=False, flat=True, silent=True)
b = it.next()
print(it.provide_data, b.data[0].shape, b.data[0].dtype, b.label[0].dtype,
      round(float(b.data[0].asnumpy()[1, 100]), 5))
it = mx.io.MNISTIter(image='img-idx3', label='lab-idx1', batch_size=10, shuffle=True, seed=5, silent=True)
b = it.next()
print(sorted(b.label[0].asnumpy().tolist()))
attempt(lambda: mx.io.MNISTIter(image='missing-idx3', label='lab-idx1', batch_size=2, silent=True))

print('--- LibSVMIter')
with open('d.libsvm', 'w') as f:
    f.write('1 0:1.5 2:3\n0 1:2\n2 0:-1 3:4.25\n1\n3 2:7 3:1\n')
with open('l.libsvm', 'w') as f:
    f.write('0 0:1 1:2\n0 1:3\n0 0:5\n0\n0 1:1\n')
it = mx.io.LibSVMIter(data_libsvm='d.libsvm', data_shape=(4,), batch_size=2)
print(it.provide_data, it.provide_label)
for epoch in range(2):
    for b in it:
        print(epoch, type(b.data[0]).__name__, b.data[0].stype, b.data[0].asnumpy().tolist(),
              b.label[0].asnumpy().tolist(), b.pad, b.index.tolist())
    it.reset()
it = mx.io.LibSVMIter(data_libsvm='d.libsvm', data_shape=(4,), label_libsvm='l.libsvm', label_shape=(2,),
                      batch_size=3)
print(it.provide_data, it.provide_label)
for b in it:
    print(b.data[0].stype, b.label[0].stype, b.label[0].asnumpy().tolist(), b.pad)
d = mx.io.LibSVMIter(data_libsvm='d.libsvm', data_shape=(4,), batch_size=5).next().data[0]
print(d.indptr.asnumpy().tolist(), d.indices.asnumpy().tolist(), d.data.asnumpy().tolist(), d.dtype, d.shape)
it = mx.io.LibSVMIter(data_libsvm='d.libsvm', data_shape=(4,), batch_size=7)
b = it.next()
print(b.pad, b.data[0].shape, b.label[0].asnumpy().tolist(), bool(it.iter_next()))
it = mx.io.LibSVMIter(data_libsvm='d.libsvm', data_shape=(4,), batch_size=2, data_name='x', label_name='y')
print(it.provide_data, it.provide_label, bool(it.iter_next()), it.getdata().stype, it.getlabel().shape)
attempt(lambda: mx.io.LibSVMIter(data_libsvm='d.libsvm', data_shape=(4,), batch_size=2, round_batch=False))
attempt(lambda: mx.io.LibSVMIter(data_libsvm='missing.libsvm', data_shape=(4,), batch_size=2))

print('--- more NDArrayIter')
np.random.seed(11)
it = mx.io.NDArrayIter(data, label, batch_size=3, shuffle=True, last_batch_handle='roll_over')
for epoch in range(2):
    print(epoch, [(b.label[0].asnumpy().tolist(), b.pad) for b in it])
    it.reset()
np.random.seed(5)
it = mx.io.NDArrayIter(data, label, batch_size=4, shuffle=True, last_batch_handle='discard')
print([b.label[0].asnumpy().tolist() for b in it])
it.reset()
print([b.label[0].asnumpy().tolist() for b in it])
csr = mx.nd.array(np.eye(6, 4, dtype='float32') * 3).tostype('csr')
it = mx.io.NDArrayIter(csr, np.arange(6), batch_size=4, last_batch_handle='discard')
print(it.provide_data)
b = it.next()
# batches' values only: MXNet's come out dense, gluonjax's csr (docs/MIGRATING.md)
print(b.data[0].asnumpy().tolist(), b.label[0].asnumpy().tolist())
attempt(lambda: mx.io.NDArrayIter(csr, np.arange(6), batch_size=4))
it = mx.io.NDArrayIter(data, label, batch_size=3, last_batch_handle='discard')
print(it.next().pad, it.getpad(), it.next().pad, bool(it.iter_next()))
p = mx.io.PrefetchingIter([mx.io.NDArrayIter(data, batch_size=2)])
print(p.provide_data, p.provide_label, [b.pad for b in p])
r = mx.io.ResizeIter(mx.io.NDArrayIter(data, label, batch_size=2), 9)
print([b.pad for b in r])

print('--- more errors')
print(mx.io.DataDesc('a', (1,), np.dtype('float32')), mx.io.DataDesc('a', [1, 2]))
attempt(lambda: str(mx.io.DataBatch(None)))
print(mx.io.DataBatch([]))
it = mx.io.NDArrayIter({'x': np.ones((4, 2))}, None, batch_size=2)
print(it.provide_label, it.next().label)
it = mx.io.NDArrayIter(np.ones((4, 2)), batch_size=2)
print(len(list(it)))
attempt(lambda: it.getdata())
attempt(lambda: it.next())
p = mx.io.PrefetchingIter([mx.io.NDArrayIter(np.ones((4, 2)), batch_size=2),
                           mx.io.NDArrayIter(np.ones((6, 2)), batch_size=2)])
attempt(lambda: len(list(p)))
attempt(lambda: mx.io.NDArrayIter([], batch_size=2))
attempt(lambda: mx.io.NDArrayIter({}, batch_size=2))
attempt(lambda: mx.io.NDArrayIter(np.float32(3), batch_size=2))
print(mx.io.NDArrayIter([[1, 2], [3, 4]], batch_size=1).provide_data)
print(mx.io.NDArrayIter(np.ones((4, 2)), batch_size=2, layout='CN').provide_data)
attempt(lambda: mx.io.CSVIter(data_csv='x', data_shape=(3,)))
attempt(lambda: mx.io.MNISTIter(image='x'))
attempt(lambda: mx.io.PrefetchingIter([]))

print('--- MNISTIter parts')
for parts, index in [(2, 0), (2, 1), (3, 1), (3, 2)]:
    it = mx.io.MNISTIter(image='img-idx3', label='lab-idx1', batch_size=2, shuffle=False, silent=True,
                         num_parts=parts, part_index=index)
    print(parts, index, [b.label[0].asnumpy().tolist() for b in it])
it = mx.io.MNISTIter(image='img-idx3', label='lab-idx1', batch_size=1, shuffle=True, seed=3, silent=True,
                     num_parts=3, part_index=2)
print(sorted(b.label[0].asnumpy()[0] for b in it))
