import os
import mxnet as mx
import numpy as np

np.savetxt('tmp_io_data.csv', np.arange(24, dtype='float32').reshape(8, 3), delimiter=',')
np.savetxt('tmp_io_label.csv', np.arange(8, dtype='float32'), delimiter=',')
it = mx.io.CSVIter(data_csv='tmp_io_data.csv', data_shape=(3,), label_csv='tmp_io_label.csv', label_shape=(1,),
                   batch_size=3)
print(it.provide_data, it.provide_label)
for epoch in range(2):
    for b in it:
        print(b.data[0].asnumpy().tolist(), b.label[0].asnumpy().tolist(), b.pad)
    it.reset()
it = mx.io.CSVIter(data_csv='tmp_io_data.csv', data_shape=(3,), batch_size=4, round_batch=False)
for b in it:
    print(b.data[0].shape, b.pad, b.label[0].asnumpy().tolist())
it = mx.io.CSVIter(data_csv='tmp_io_data.csv', data_shape=(3,), batch_size=3, round_batch=False)
for b in it:
    print(b.data[0].asnumpy().tolist(), b.pad)
os.remove('tmp_io_data.csv')
os.remove('tmp_io_label.csv')

# ResizeIter and PrefetchingIter
base = mx.io.NDArrayIter(np.arange(10, dtype='float32').reshape(5, 2), np.arange(5), batch_size=2)
r = mx.io.ResizeIter(base, 4)
print([b.data[0].asnumpy()[:, 0].tolist() for b in r])
r.reset()
print(len(list(r)))
p = mx.io.PrefetchingIter(mx.io.NDArrayIter(np.arange(8, dtype='float32').reshape(4, 2), batch_size=2))
print(p.provide_data)
print([b.data[0].asnumpy().tolist() for b in p])
p.reset()
print(len(list(p)))
# NDArrayIter with last_batch_handle='discard' and len/labels as list
it = mx.io.NDArrayIter(data=[np.ones((7, 2)), np.zeros((7, 1))], label=[np.arange(7)], batch_size=3,
                       last_batch_handle='discard')
print(it.provide_data)
print(sum(1 for _ in it))
it = mx.io.NDArrayIter(np.ones((3, 2)), batch_size=5)
b = it.next()
print(b.data[0].shape, b.pad)
it = mx.io.NDArrayIter(np.ones((3, 2)), batch_size=5, last_batch_handle='discard')
print(len(list(it)))
