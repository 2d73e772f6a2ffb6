import mxnet as mx
import numpy as np

data = np.arange(20, dtype='float32').reshape(10, 2)
label = np.arange(10, dtype='float32')
it = mx.io.NDArrayIter(data, label, batch_size=4)
print(it.provide_data)
print(it.provide_label)
print(it.batch_size, it.num_data if hasattr(it, 'num_data') else '')
for batch in it:
    print(batch.data[0].asnumpy().tolist(), batch.label[0].asnumpy().tolist(), batch.pad, batch.index)
it.reset()
print(len(list(it)))
for mode in ['pad', 'discard', 'roll_over']:
    it = mx.io.NDArrayIter(data, label, batch_size=4, last_batch_handle=mode)
    for epoch in range(2):
        for batch in it:
            print(mode, epoch, batch.data[0].asnumpy()[:, 0].tolist(), batch.label[0].asnumpy().tolist(), batch.pad)
        it.reset()
b = next(iter(mx.io.NDArrayIter(data, label, batch_size=3)))
print(b)
print(type(b.data), len(b.data), b.data[0].shape, b.data[0].dtype, b.label[0].dtype)
print(b.provide_data, b.provide_label)
# dict data
it = mx.io.NDArrayIter({'img': data, 'aux': data * 2}, {'lbl': label}, batch_size=5)
print(it.provide_data)
print(it.provide_label)
for batch in it:
    print([d.asnumpy()[0].tolist() for d in batch.data], batch.label[0].asnumpy().tolist())
it = mx.io.NDArrayIter(data, label, batch_size=5, data_name='x', label_name='y')
print(it.provide_data, it.provide_label)
it = mx.io.NDArrayIter(data, batch_size=5)
print(it.provide_label)
batch = it.next()
print(batch.label)
it = mx.io.NDArrayIter(mx.nd.array(data), mx.nd.array(label), batch_size=10)
print(it.iter_next(), it.getdata()[0].shape, it.getlabel()[0].shape, it.getpad(), it.getindex())
print(it.iter_next())
try:
    it.next()
except StopIteration:
    print('StopIteration')
d = mx.io.DataDesc('data', (2, 3))
print(d, repr(d))
print(d.name, d.shape, d.dtype, d.layout)
print(mx.io.DataDesc('x', (4, 5), dtype='int32', layout='NT'))
print(mx.io.DataDesc.get_batch_axis('NT'), mx.io.DataDesc.get_batch_axis('TNC'), mx.io.DataDesc.get_batch_axis(None))
print(mx.io.DataDesc.get_list([('a', (1, 2))], [('a', np.float16)]))
db = mx.io.DataBatch(data=[mx.nd.ones((2, 3))], label=[mx.nd.zeros((2,))], pad=0)
print(db)
print(db.pad, db.index, db.bucket_key, db.provide_data)
db2 = mx.io.DataBatch([mx.nd.ones((2, 3)), mx.nd.ones((2, 1))])
print(db2)
# shuffle only checks membership
it = mx.io.NDArrayIter(data, label, batch_size=10, shuffle=True)
b = next(iter(it))
print(sorted(b.label[0].asnumpy().tolist()))
# int data keeps dtype
it = mx.io.NDArrayIter(np.arange(6).reshape(3, 2), np.array([0, 1, 2]), batch_size=2)
print(it.provide_data, it.provide_label)
b = it.next()
print(b.data[0].dtype, b.label[0].dtype)
