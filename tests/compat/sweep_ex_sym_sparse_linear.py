# MXNet 1.9's example/sparse/linear_classification on a tiny LibSVM file: a csr data variable
# and a row_sparse weight variable (shape and init declared on the variable) through
# sym.sparse.dot, a weighted softmax cross-entropy CustomOp under MakeLoss, a Module trained by
# hand with FTRL/SGD/Adam and a local kvstore (row_sparse_pull of the rows a batch uses),
# nll_loss metric, score, save_checkpoint with optimizer states.
import os

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

log_to_stdout()

NUM_FEATURES = 7
LINES = ['1 0:1.5 3:0.5', '0 1:2 4:-1', '1 2:0.5 3:1 6:2', '0 5:1', '1 0:-0.5 6:1.5',
         '0 1:1 2:1', '1 3:2', '0 4:0.5 5:0.5', '1 2:1 6:-1']
with open('train.libsvm', 'w') as f:
    f.write('\n'.join(LINES) + '\n')
with open('val.libsvm', 'w') as f:
    f.write('\n'.join(LINES[::-1][:6]) + '\n')


class WeightedSoftmaxCE(mx.operator.CustomOp):
    def __init__(self, positive_cls_weight):
        self.positive_cls_weight = float(positive_cls_weight)

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], mx.nd.SoftmaxOutput(in_data[0], in_data[1]))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        label, pred = in_data[1], out_data[0]
        dx = pred - mx.nd.one_hot(label, 2)
        w = self.positive_cls_weight
        scale = ((1 + label * w) / w).reshape((pred.shape[0], 1))
        self.assign(in_grad[0], req[0], scale * dx)


@mx.operator.register('weighted_softmax_ce_loss')
class WeightedSoftmaxCEProp(mx.operator.CustomOpProp):
    def __init__(self, positive_cls_weight):
        super(WeightedSoftmaxCEProp, self).__init__(True)
        self.positive_cls_weight = positive_cls_weight
        assert float(positive_cls_weight) > 0

    def list_arguments(self):
        return ['data', 'label']

    def list_outputs(self):
        return ['output']

    def infer_shape(self, in_shapes):
        return in_shapes, (in_shapes[0],), ()

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return WeightedSoftmaxCE(self.positive_cls_weight)


def linear_model(num_features, positive_cls_weight):
    x = mx.symbol.Variable('data', stype='csr')
    weight = mx.symbol.Variable('weight', shape=(num_features, 2), init=mx.init.Constant(0.05),
                                stype='row_sparse')
    bias = mx.symbol.Variable('bias', shape=(2,))
    pred = mx.symbol.broadcast_add(mx.symbol.sparse.dot(x, weight), bias)
    y = mx.symbol.Variable('softmax_label')
    out = mx.sym.Custom(pred, y, op_type='weighted_softmax_ce_loss',
                        positive_cls_weight=positive_cls_weight, name='out')
    return mx.sym.MakeLoss(out)


W0 = (np.cos(np.arange(NUM_FEATURES * 2) * 0.6) * 0.1).reshape(NUM_FEATURES, 2).astype('float32')

print('--- the iterator')
train = mx.io.LibSVMIter(data_libsvm='train.libsvm', data_shape=(NUM_FEATURES,), batch_size=3)
print(train.provide_data, train.provide_label)
for batch in train:
    d = batch.data[0]
    print(d.stype, d.shape, d.indices.asnumpy().tolist(), r(d.data), batch.label[0].asnumpy().tolist(), batch.pad)
train.reset()
attempt(lambda: mx.io.LibSVMIter(data_libsvm='nothing.libsvm', data_shape=(NUM_FEATURES,), batch_size=3))

print('--- the model')
model = linear_model(NUM_FEATURES, 2)
print(model.list_arguments(), model.list_outputs())
print(sorted(model.attr_dict().items()))
print(model.infer_shape(data=(3, NUM_FEATURES), softmax_label=(3,)))
print(model.infer_storage_type(data='csr') if hasattr(model, 'infer_storage_type') else 'n/a')

for opt_name, kv_type in (('ftrl', None), ('sgd', 'local'), ('adam', None)):
    print('--- training with %s, kvstore %s' % (opt_name, kv_type))
    kv = mx.kvstore.create(kv_type) if kv_type else None
    train = mx.io.LibSVMIter(data_libsvm='train.libsvm', data_shape=(NUM_FEATURES,), batch_size=3)
    val = mx.io.LibSVMIter(data_libsvm='val.libsvm', data_shape=(NUM_FEATURES,), batch_size=3)
    mod = mx.mod.Module(symbol=model, data_names=['data'], label_names=['softmax_label'])
    mod.bind(data_shapes=train.provide_data, label_shapes=train.provide_label)
    mod.init_params(arg_params={'weight': mx.nd.array(W0).tostype('row_sparse'), 'bias': mx.nd.zeros((2,))})
    optim = mx.optimizer.create(opt_name, learning_rate=0.1, rescale_grad=1.0 / 3)
    mod.init_optimizer(optimizer=optim, kvstore=kv)
    metric = mx.metric.create(['nll_loss'])
    weight_index = mod._exec_group.param_names.index('weight')
    weight_param = mod._exec_group.param_arrays[weight_index]
    print(mod._exec_group.param_names, weight_param[0].stype, mod._update_on_kvstore if kv else None)
    for epoch in range(2):
        nbatch = 0
        metric.reset()
        for batch in train:
            nbatch += 1
            if kv:
                kv.row_sparse_pull('weight', weight_param, row_ids=[batch.data[0].indices], priority=-weight_index)
            mod.forward_backward(batch)
            if epoch == 0 and nbatch == 1:
                grads = dict(zip(mod._exec_group.param_names, mod._exec_group.grad_arrays))
                g = grads['weight'][0]
                print(g.stype, g.indices.asnumpy().tolist() if g.stype == 'row_sparse' else None, r(g))
                print(r(mod.get_outputs()[0]))
            mod.update()
            mod.update_metric(metric, batch.label)
        if kv:
            kv.row_sparse_pull('weight', weight_param, row_ids=[mx.nd.arange(0, NUM_FEATURES, dtype='int64')],
                               priority=-weight_index)
        score = mod.score(val, ['nll_loss'])
        print('epoch %d, train %s, eval nll = %.4f' % (epoch, [(k, round(v, 4)) for k, v in metric.get_name_value()],
                                                        score[0][1]))
        mod.save_checkpoint('checkpoint_%s' % opt_name, epoch, save_optimizer_states=True)
        train.reset()
        val.reset()
    arg, aux = mod.get_params()
    print(arg['weight'].stype, r(arg['weight']), r(arg['bias']))
print(sorted(os.listdir('.')))

print('--- loading the checkpoint')
sym, arg, aux = mx.model.load_checkpoint('checkpoint_ftrl', 1)
print(sym.list_arguments(), sorted((k, v.stype, v.shape) for k, v in arg.items()), aux)
mod = mx.mod.Module.load('checkpoint_sgd', 1, load_optimizer_states=True, data_names=['data'],
                         label_names=['softmax_label'])
train = mx.io.LibSVMIter(data_libsvm='train.libsvm', data_shape=(NUM_FEATURES,), batch_size=3)
mod.bind(data_shapes=train.provide_data, label_shapes=train.provide_label)
mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': 0.1, 'rescale_grad': 1.0 / 3})
print(round(mod.score(train, 'nll_loss')[0][1], 4))
out = mod.predict(mx.io.LibSVMIter(data_libsvm='val.libsvm', data_shape=(NUM_FEATURES,), batch_size=3))
print(out.shape, r(out))
