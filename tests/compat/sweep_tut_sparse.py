"""MXNet 1.9's sparse NDArray tutorials (packages/ndarray/sparse/csr.md and row_sparse.md): creation
from lists, NumPy and SciPy, components, storage conversion, copies, slicing, sparse operators and
their output storage, storage fallback, NDArrayIter and LibSVMIter over csr data, lazy SGD; fixed data
in place of the tutorials' random draws, cpu in place of gpu."""
import os
import tempfile
import numpy as np
import mxnet as mx

print('== csr: creation')
shape = (3, 4)
data_list = [7, 8, 9]
indices_list = [0, 2, 1]
indptr_list = [0, 2, 2, 3]
a = mx.nd.sparse.csr_matrix((data_list, indices_list, indptr_list), shape=shape)
print(repr(a.asnumpy()))
print(a.dtype, a.stype, a.shape, type(a).__name__)
data_np = np.array([7, 8, 9])
indptr_np = np.array([0, 2, 2, 3])
indices_np = np.array([0, 2, 1])
b = mx.nd.sparse.csr_matrix((data_np, indices_np, indptr_np), shape=shape)
print(repr(b.asnumpy()), b.dtype)
print({'a': a.asnumpy(), 'b': b.asnumpy()})
import scipy.sparse as spsp
c = spsp.csr_matrix((data_np, indices_np, indptr_np), shape=shape)
d = mx.nd.sparse.array(c)
print('d:{}'.format(d.asnumpy()), d.dtype, d.stype)
big = mx.nd.array((np.arange(60).reshape(6, 10) % 3 == 0).astype('float32'))
big_csr = big.tostype('csr')
print(big_csr.indices, big_csr.indptr, big_csr.data)
print(big_csr.data.size + big_csr.indices.size + big_csr.indptr.size, big.size)
e = mx.nd.sparse.array(a)
f = mx.nd.array(a, dtype=np.float16)
print((e.dtype, f.dtype), e.stype, f.stype)

print('== csr: inspect, convert, copy')
print(repr(a.asnumpy()))
data = a.data
indices = a.indices
indptr = a.indptr
print({'a.stype': a.stype, 'data': data, 'indices': indices, 'indptr': indptr})
print(indices.dtype, indptr.dtype)
ones = mx.nd.ones((2, 2))
csr = ones.tostype('csr')
dense = csr.tostype('default')
print({'csr': csr, 'dense': dense})
csr = mx.nd.sparse.cast_storage(ones, 'csr')
dense = mx.nd.sparse.cast_storage(csr, 'default')
print({'csr': csr, 'dense': dense})
a2 = mx.nd.ones((2, 2)).tostype('csr')
b2 = a2.copy()
c2 = mx.nd.sparse.zeros('csr', (2, 2))
c2[:] = a2
d2 = mx.nd.sparse.zeros('csr', (2, 2))
a2.copyto(d2)
print({'b is a': b2 is a2, 'b.asnumpy()': b2.asnumpy(), 'c.asnumpy()': c2.asnumpy(), 'd.asnumpy()': d2.asnumpy()})
e = mx.nd.sparse.zeros('csr', (2, 2))
f = mx.nd.sparse.zeros('csr', (2, 2))
g = mx.nd.ones(e.shape)
e[:] = g
g.copyto(f)
print({'e.stype': e.stype, 'f.stype': f.stype, 'g.stype': g.stype})
print(e.asnumpy(), f.asnumpy(), f.indptr)

print('== csr: slicing, operators')
a3 = mx.nd.array(np.arange(6).reshape(3, 2)).tostype('csr')
b3 = a3[1:2].asnumpy()
c3 = a3[:].asnumpy()
print({'a': a3, 'b': b3, 'c': c3})
print(type(a3[1:2]).__name__, a3[1:3].indptr)
try:
    a3[1]
    print('int index ok', a3[1].shape)
except Exception as err:
    print('int index', type(err).__name__)
out = mx.nd.sparse.dot(a, mx.nd.ones((4, 1)))
print({'out': out})
b4 = a * 2
c4 = a + mx.nd.ones(shape=(3, 4))
print({'b.stype': b4.stype, 'c.stype': c4.stype})
print(b4.data, c4)
e = mx.nd.sparse.zeros('csr', a.shape)
d = mx.nd.log(a)
e = mx.nd.log(a, out=e)
print({'a.stype': a.stype, 'd.stype': d.stype, 'e.stype': e.stype})
print(d.asnumpy().round(3))

print('== csr: data loading')
data = mx.nd.array(np.arange(36).reshape((9, 4))).tostype('csr')
labels = np.ones([9, 1])
dataiter = mx.io.NDArrayIter(data, labels, 3, last_batch_handle='discard')
batches = [batch.data[0] for batch in dataiter]
print(len(batches), [bt.shape for bt in batches])
print([bt.asnumpy()[:, 0].tolist() for bt in batches])
tmp = tempfile.mkdtemp()
data_path = os.path.join(tmp, 'data.t')
with open(data_path, 'w') as fout:
    fout.write('1.0 0:1 2:2\n')
    fout.write('1.0 0:3 5:4\n')
    fout.write('1.0 2:5 8:6 9:7\n')
    fout.write('1.0 3:8\n')
    fout.write('-1 0:0.5 9:1.5\n')
    fout.write('-2.0\n')
    fout.write('-3.0 0:-0.6 1:2.25 2:1.25\n')
    fout.write('-3.0 1:2 2:-1.25\n')
    fout.write('4 2:-1.2\n')
data_train = mx.io.LibSVMIter(data_libsvm=data_path, data_shape=(10,), label_shape=(1,), batch_size=3)
for batch in data_train:
    print(data_train.getdata())
    print(data_train.getlabel())
    print(data_train.getdata().asnumpy().tolist())
a = mx.nd.sparse.zeros('csr', (100, 100), ctx=mx.cpu())
print(a, a.context, a.data.shape, a.indptr.shape)

print('== row_sparse: motivation')
X = mx.nd.array([[1, 0]])
W = mx.nd.array([[3, 4, 5], [6, 7, 8]])
Y = mx.nd.dot(X, W)
print({'X': X, 'W': W, 'Y': Y})
grad_W = mx.nd.dot(X, mx.nd.ones_like(Y), transpose_a=True)
print(repr(grad_W))

print('== row_sparse: creation and inspection')
shape = (6, 2)
a = mx.nd.sparse.row_sparse_array(([[1, 2], [3, 4]], [1, 4]), shape=shape)
b = mx.nd.sparse.row_sparse_array((np.array([[1, 2], [3, 4]]), np.array([1, 4])), shape=shape)
print({'a': a, 'b': b})
print(b.dtype, b.indices.dtype)
c = mx.nd.sparse.array(a)
d = mx.nd.array(a, dtype=np.float16)
print((c.dtype, d.dtype), c.stype, d.stype)
print(repr(a.asnumpy()))
print({'a.stype': a.stype, 'data': a.data, 'indices': a.indices})
ones = mx.nd.ones((2, 2))
rsp = ones.tostype('row_sparse')
dense = rsp.tostype('default')
print({'rsp': rsp, 'dense': dense})
rsp = mx.nd.sparse.cast_storage(ones, 'row_sparse')
dense = mx.nd.sparse.cast_storage(rsp, 'default')
print({'rsp': rsp, 'dense': dense})
a2 = mx.nd.ones((2, 2)).tostype('row_sparse')
b2 = a2.copy()
c2 = mx.nd.sparse.zeros('row_sparse', (2, 2))
c2[:] = a2
d2 = mx.nd.sparse.zeros('row_sparse', (2, 2))
a2.copyto(d2)
print({'b is a': b2 is a2, 'b.asnumpy()': b2.asnumpy(), 'c.asnumpy()': c2.asnumpy(), 'd.asnumpy()': d2.asnumpy()})
e = mx.nd.sparse.zeros('row_sparse', (2, 2))
f = mx.nd.sparse.zeros('row_sparse', (2, 2))
g = mx.nd.ones(e.shape)
e[:] = g
g.copyto(f)
print({'e.stype': e.stype, 'f.stype': f.stype, 'g.stype': g.stype})
print(e.indices, f.data)

print('== row_sparse: retain, operators')
rsp = mx.nd.sparse.row_sparse_array(([[1, 2], [3, 4], [5, 6]], [0, 2, 3]), shape=(5, 2))
rsp_retained = mx.nd.sparse.retain(rsp, mx.nd.array([0, 1]))
print({'rsp.asnumpy()': rsp.asnumpy(), 'rsp_retained': rsp_retained, 'rsp_retained.asnumpy()': rsp_retained.asnumpy()})
print(rsp_retained.indices)
lhs = mx.nd.sparse.csr_matrix(([7, 8, 9], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 5))
rhs = mx.nd.ones((3, 2))
transpose_dot = mx.nd.sparse.dot(lhs, rhs, transpose_a=True)
print({'transpose_dot': transpose_dot, 'transpose_dot.asnumpy()': transpose_dot.asnumpy()})
print(transpose_dot.indices)
a = transpose_dot.copy()
b = a * 2
c = a + mx.nd.ones((5, 2))
print({'b.stype': b.stype, 'c.stype': c.stype})
e = mx.nd.sparse.zeros('row_sparse', a.shape)
d = mx.nd.log(a)
e = mx.nd.log(a, out=e)
print({'a.stype': a.stype, 'd.stype': d.stype, 'e.stype': e.stype})

print('== row_sparse: lazy SGD')
shape = (4, 2)
weight = mx.nd.ones(shape).tostype('row_sparse')
grad = mx.nd.sparse.row_sparse_array(([[1, 2], [4, 5]], [1, 2]), shape=shape)
sgd = mx.optimizer.SGD(learning_rate=0.01, momentum=0.01)
momentum = sgd.create_state(0, weight)
print(type(momentum).__name__, momentum.stype)
print({"grad.asnumpy()": grad.asnumpy(), "weight.asnumpy()": weight.asnumpy(), "momentum.asnumpy()": momentum.asnumpy()})
sgd.update(0, weight, grad, momentum)
print({"weight.asnumpy()": weight.asnumpy().round(4), "momentum.asnumpy()": momentum.asnumpy().round(4)})
print(weight.stype, momentum.stype)
a = mx.nd.sparse.zeros('row_sparse', (100, 100), ctx=mx.cpu())
print(a, a.data.shape, a.indices.shape)

print('== row_sparse: the other optimizers with sparse updates')
for opt in (mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01),
            mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, lazy_update=False),
            mx.optimizer.Adam(learning_rate=0.1), mx.optimizer.Adam(learning_rate=0.1, lazy_update=False),
            mx.optimizer.AdaGrad(learning_rate=0.1), mx.optimizer.Ftrl(learning_rate=0.1)):
    weight = mx.nd.array([[1, 2], [3, 4], [5, 6], [7, 8]]).tostype('row_sparse')
    state = opt.create_state(0, weight)
    states = state if isinstance(state, tuple) else (state,)
    print(type(opt).__name__, [(type(t).__name__, t.stype) for t in states])
    for step in range(2):
        opt.update(0, weight, grad, state)
    print(weight.stype, weight.asnumpy().round(4).tolist())
    print([t.asnumpy().round(4).tolist() for t in states])
