"""MXNet 1.9's "Sparse NDArrays with Gluon" tutorial (packages/ndarray/sparse/train_gluon.md) at toy
size: csr data written as LibSVM and read back with LibSVMIter, memory accounting of the sparse
components, Dense against a sparse.dot block with dense and row_sparse weight gradients, and the
row_sparse-weight variant (contrib.nn.SparseEmbedding) trained with SGD and Adam; fixed data and
weights in place of rand_ndarray and random initialisation."""
import os
import tempfile
import numpy as np
import mxnet as mx

num_samples, num_features = 20, 50
rows, cols, vals = [], [], []
for i in range(num_samples):
    for k in range(2):
        rows.append(i)
        cols.append((i * 7 + k * 13) % num_features)
        vals.append(round(0.05 + ((i * 3 + k * 5) % 17) / 17.0, 4))
dense = np.zeros((num_samples, num_features), np.float32)
dense[rows, cols] = vals
data = mx.nd.array(dense).tostype('csr')
label = data.sum(axis=1) > data.sum(axis=1).mean()
print(type(data).__name__, data.stype, label.stype, label.dtype, label.shape)
print(data[:3].asnumpy().sum(axis=1).round(4))
print('{:,.0f} elements'.format(np.prod(data.shape)))
print('{:,.0f} non-zero elements'.format(data.data.size))


def get_nbytes(array):
    fn = lambda a: a.size * np.dtype(a).itemsize
    if isinstance(array, mx.ndarray.sparse.CSRNDArray):
        return fn(array.data) + fn(array.indices) + fn(array.indptr)
    elif isinstance(array, mx.ndarray.sparse.RowSparseNDArray):
        return fn(array.data) + fn(array.indices)
    elif isinstance(array, mx.ndarray.NDArray):
        return fn(array)
    else:
        TypeError('{} not supported'.format(type(array)))


print(np.dtype(data), np.dtype(data.tostype('default')), np.dtype(mx.nd.ones(2, dtype='int8')))
print('NDarray:', get_nbytes(data.tostype('default')) / 1000000, 'MBs')
print('CSRNDArray', get_nbytes(data) / 1000000, 'MBs')


def save_as_libsvm(filepath, data, label):
    with open(filepath, 'w') as openfile:
        for row_idx in range(data.shape[0]):
            data_sample = data[row_idx:row_idx + 1]
            label_sample = label[row_idx]
            col_idxs = data_sample.indices.asnumpy().tolist()
            values = data_sample.data.asnumpy().tolist()
            label_str = str(label_sample.asscalar())
            value_strs = ['{}:{:.4f}'.format(idx, value) for idx, value in zip(col_idxs, values)]
            openfile.write('{} {}\n'.format(label_str, " ".join(value_strs)))


tmp = tempfile.mkdtemp()
filepath = os.path.join(tmp, 'dataset.libsvm')
save_as_libsvm(filepath, data, label)
with open(filepath, 'r') as openfile:
    lines = [openfile.readline() for _ in range(4)]
for line in lines:
    print(line.strip())
data_iter = mx.io.LibSVMIter(data_libsvm=filepath, data_shape=(num_features,), label_shape=(1,), batch_size=10)
for batch in data_iter:
    d = batch.data[0]
    print('data.stype: {}'.format(d.stype), d.shape, type(batch).__name__)
    print('label.stype: {}'.format(batch.label[0].stype), batch.label[0].shape)
    print('sparse batch: {} MBs'.format(get_nbytes(d) / 1000000))
    print('dense batch: {} MBs'.format(get_nbytes(d.tostype('default')) / 1000000))
    np.testing.assert_allclose(d.asnumpy(), dense[:10], atol=1e-4)
    break
ctx = mx.gpu() if mx.test_utils.list_gpus() else mx.cpu()
print(ctx, d.as_in_context(ctx).stype)


class FullyConnected(mx.gluon.HybridBlock):
    def __init__(self, in_units, units):
        super(FullyConnected, self).__init__()
        with self.name_scope():
            self._units = units
            self.weight = self.params.get('weight', shape=(units, in_units), init=None,
                                          allow_deferred_init=True, dtype='float32',
                                          stype='default', grad_stype='default')
            self.bias = self.params.get('bias', shape=(units), init='zeros', allow_deferred_init=True,
                                        dtype='float32', stype='default', grad_stype='default')

    def hybrid_forward(self, F, x, weight, bias):
        return F.FullyConnected(x, weight, bias, num_hidden=self._units)


class FullyConnectedSparse(mx.gluon.HybridBlock):
    def __init__(self, in_units, units, weight_grad_stype='default'):
        super(FullyConnectedSparse, self).__init__()
        with self.name_scope():
            self._units = units
            self.weight = self.params.get('weight', shape=(in_units, units), init=None,
                                          allow_deferred_init=True, dtype='float32',
                                          stype='default', grad_stype=weight_grad_stype)
            self.bias = self.params.get('bias', shape=(units), init='zeros', allow_deferred_init=True,
                                        dtype='float32', stype='default', grad_stype='default')

    def hybrid_forward(self, F, x, weight, bias):
        return F.sparse.dot(x, weight) + bias


def fix(net):
    for name, p in sorted(net.collect_params().items()):
        n = int(np.prod(p.shape))
        p.set_data(mx.nd.array(np.sin(np.arange(n) * 0.37 + 0.1).reshape(p.shape) * 0.3))


def print_memory_allocation(net, block_idxs):
    blocks = [net[block_idx] for block_idx in block_idxs]
    weight_nbytes = [get_nbytes(b.weight.data()) for b in blocks]
    weight_grad_nbytes = [get_nbytes(b.weight.grad()) for b in blocks]
    print("Memory Allocation for Weight:")
    for i in range(len(block_idxs)):
        print('{:7.4f} MBs ({:7.3f}%) for {:<40}'.format(weight_nbytes[i] / 1000000,
                                                         100 * weight_nbytes[i] / sum(weight_nbytes), blocks[i].name))
    print("Memory Allocation for Weight Gradient:")
    for i in range(len(block_idxs)):
        print('{:7.4f} MBs ({:7.3f}%) for {:<40}'.format(weight_grad_nbytes[i] / 1000000,
                                                         100 * weight_grad_nbytes[i] / sum(weight_grad_nbytes),
                                                         blocks[i].name))


def train(net, optimizer='sgd', params=None):
    net.initialize(ctx=ctx)
    net(mx.nd.zeros((1, num_features)).tostype('csr'))
    fix(net)
    trainer = mx.gluon.Trainer(net.collect_params(), optimizer, params)
    loss_fn = mx.gluon.loss.SigmoidBinaryCrossEntropyLoss()
    data_iter.reset()
    for batch in data_iter:
        data = batch.data[0].as_in_context(ctx)
        label = batch.label[0].as_in_context(ctx)
        with mx.autograd.record():
            pred = net(data)
            loss = loss_fn(pred, label)
        loss.backward()
        trainer.step(data.shape[0])
        loss.wait_to_read()
        print(pred.shape, pred.stype, np.round(loss.asnumpy(), 4).tolist()[:4])
    print([(b.name, b.weight.grad().stype) for b in (net[0], net[2])])
    return trainer


net = mx.gluon.nn.Sequential()
net.add(mx.gluon.nn.Dense(in_units=num_features, units=8), mx.gluon.nn.Activation('sigmoid'),
        mx.gluon.nn.Dense(in_units=8, units=4), mx.gluon.nn.Activation('sigmoid'),
        mx.gluon.nn.Dense(in_units=4, units=1), mx.gluon.nn.Activation('sigmoid'))
train(net)
print_memory_allocation(net, block_idxs=[0, 2, 4])
for grad_stype in ('default', 'row_sparse'):
    net = mx.gluon.nn.Sequential()
    net.add(FullyConnectedSparse(in_units=num_features, units=8, weight_grad_stype=grad_stype),
            mx.gluon.nn.Activation('sigmoid'),
            FullyConnected(in_units=8, units=4), mx.gluon.nn.Activation('sigmoid'),
            FullyConnected(in_units=4, units=1), mx.gluon.nn.Activation('sigmoid'))
    trainer = train(net, 'sgd', {'learning_rate': 0.5, 'momentum': 0.9})
    print_memory_allocation(net, block_idxs=[0, 2, 4])
    print(net[0].weight.grad().stype, net[0].weight.grad().indices.shape if grad_stype != 'default' else '')
    print(np.round(net[0].weight.data().asnumpy()[:3], 4).tolist())

print('== row_sparse weight: contrib.nn.SparseEmbedding')
for optimizer, params in (('sgd', {'learning_rate': 0.5, 'momentum': 0.9}), ('adam', {'learning_rate': 0.1}),
                          ('adagrad', {'learning_rate': 0.1})):
    emb = mx.gluon.contrib.nn.SparseEmbedding(10, 3)
    emb.initialize(mx.init.Constant(0.5))
    print(emb, emb.weight._stype, emb.weight._grad_stype)
    trainer = mx.gluon.Trainer(emb.collect_params(), optimizer, params)
    for step, ids in enumerate(([1, 3, 3], [3, 7])):
        x = mx.nd.array(ids)
        with mx.autograd.record():
            out = emb(x)
            loss = (out * out).sum()
        loss.backward()
        trainer.step(1)
        print(optimizer, step, out.shape, emb.weight.grad().stype, emb.weight.grad().indices)
    w = emb.weight.row_sparse_data(mx.nd.arange(10))
    print(w.stype, np.round(w.asnumpy(), 4).tolist())
    kept = emb.weight.row_sparse_data(mx.nd.array([3, 5]))
    print(kept.stype, kept.indices, np.round(kept.data.asnumpy(), 4).tolist())
