# MXNet 1.9's example/recommenders and example/sparse/matrix_factorization on tiny ratings:
# Embedding (dense) and contrib.SparseEmbedding (row_sparse weights) factorization nets, a
# Module trained by hand (forward_backward, update, update_metric, BatchEndParam into a
# Speedometer, score), FeedForward with a metric function, and the binary recommender whose
# output layer is a CustomOp (CrossEntropyLoss) fed by a negative-sampling DataIter.
import math

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

log_to_stdout()
np.random.seed(7)

MAX_USER, MAX_ITEM, K = 6, 5, 3
USERS = np.array([i % MAX_USER for i in range(12)], dtype='float32')
ITEMS = np.array([(i * 3 + 1) % MAX_ITEM for i in range(12)], dtype='float32')
SCORES = (1 + (USERS * 2 + ITEMS) % 5).astype('float32')


class Wave(mx.init.Initializer):
    """Deterministic values: a scaled sine over each array; biases zero."""

    def _init_weight(self, name, arr):
        n = int(np.prod(arr.shape))
        arr[:] = (np.sin(np.arange(n) * 0.83 + len(name)) * 0.4).reshape(arr.shape)

    def _init_bias(self, name, arr):
        arr[:] = 0.0


def matrix_fact_net(factor_size, num_hidden, dense):
    user = mx.symbol.Variable('user')
    item = mx.symbol.Variable('item')
    score = mx.symbol.Variable('score')
    stype = 'default' if dense else 'row_sparse'
    user_weight = mx.symbol.Variable('user_weight', stype=stype)
    item_weight = mx.symbol.Variable('item_weight', stype=stype)
    if dense:
        user = mx.symbol.Embedding(data=user, weight=user_weight, input_dim=MAX_USER, output_dim=factor_size)
        item = mx.symbol.Embedding(data=item, weight=item_weight, input_dim=MAX_ITEM, output_dim=factor_size)
    else:
        embed = mx.symbol.contrib.SparseEmbedding
        user = embed(data=user, weight=user_weight, input_dim=MAX_USER, output_dim=factor_size, deterministic=True)
        item = embed(data=item, weight=item_weight, input_dim=MAX_ITEM, output_dim=factor_size, deterministic=True)
    user_act = mx.symbol.FullyConnected(data=mx.symbol.Activation(data=user, act_type='relu'), num_hidden=num_hidden)
    item_act = mx.symbol.FullyConnected(data=mx.symbol.Activation(data=item, act_type='relu'), num_hidden=num_hidden)
    pred = mx.symbol.Flatten(data=mx.symbol.sum(data=user_act * item_act, axis=1))
    return mx.symbol.LinearRegressionOutput(data=pred, label=score)


def ratings(batch_size=4):
    return mx.io.NDArrayIter(data={'user': USERS, 'item': ITEMS}, label={'score': SCORES},
                             batch_size=batch_size)


for dense in (True, False):
    print('--- matrix factorization, dense=%s' % dense)
    net = matrix_fact_net(K, K, dense)
    print(net.list_arguments())
    print([n.attr('__storage_type__') for n in net.get_internals() if n.name.endswith('_weight')])
    print(net.infer_shape(user=(4,), item=(4,))[1])
    it = ratings()
    print(it.provide_data, it.provide_label)
    mod = mx.module.Module(symbol=net, context=mx.cpu(), data_names=['user', 'item'], label_names=['score'])
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params(initializer=Wave())
    optim = mx.optimizer.create('sgd', learning_rate=0.05, momentum=0.9, wd=1e-4, rescale_grad=1.0 / 4)
    mod.init_optimizer(optimizer=optim)
    metric = mx.metric.create(['MSE'])
    speedometer = mx.callback.Speedometer(4, 2)
    for epoch in range(2):
        nbatch = 0
        metric.reset()
        for batch in it:
            nbatch += 1
            mod.forward_backward(batch)
            if epoch == 0 and nbatch == 1:
                grads = dict(zip(mod._exec_group.param_names, mod._exec_group.grad_arrays))
                print(sorted((k, g[0].stype) for k, g in grads.items()))
                print(r(grads['user_weight'][0]), r(mod.get_outputs()[0]))
            mod.update()
            mod.update_metric(metric, batch.label)
            speedometer(mx.model.BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=metric, locals=locals()))
        score = mod.score(ratings(), ['MSE'])
        print('epoch %d, eval MSE = %.4f' % (epoch, score[0][1]))
        it.reset()
    arg, aux = mod.get_params()
    print(sorted((k, v.stype, v.shape) for k, v in arg.items()))
    print(r(arg['user_weight']), r(arg[sorted(arg)[0]]))

print('--- FeedForward with a metric function')


def RMSE(label, pred):
    ret, n = 0.0, 0.0
    pred = pred.flatten()
    for i in range(len(label)):
        ret += (label[i] - pred[i]) * (label[i] - pred[i])
        n += 1.0
    return math.sqrt(ret / n)


def plain_net(k):
    user = mx.symbol.Embedding(data=mx.symbol.Variable('user'), input_dim=MAX_USER, output_dim=k)
    item = mx.symbol.Embedding(data=mx.symbol.Variable('item'), input_dim=MAX_ITEM, output_dim=k)
    pred = mx.symbol.Flatten(data=mx.symbol.sum_axis(data=user * item, axis=1))
    return mx.symbol.LinearRegressionOutput(data=pred, label=mx.symbol.Variable('score'))


net = plain_net(K)
print(net.list_arguments(), net.list_outputs())
model = mx.model.FeedForward(ctx=[mx.cpu()], symbol=net, num_epoch=2, optimizer='sgd', learning_rate=0.1,
                             wd=1e-4, momentum=0.9, initializer=Wave())
model.fit(X=ratings(), eval_data=ratings(), eval_metric=RMSE)
print(sorted(model.arg_params), r(model.arg_params[sorted(model.arg_params)[-1]][:2]))
print(np.round(model.predict(ratings())[:5].astype('float64'), 4).tolist())

print('--- the binary recommender: CrossEntropyLoss CustomOp and negative sampling')


class CrossEntropyLoss(mx.operator.CustomOp):
    eps = 1e-6

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        p, y = in_data[0], in_data[1]
        self.assign(in_grad[0], req[0], -1. / (p - (1. - self.eps) + y))


@mx.operator.register('CrossEntropyLoss')
class CrossEntropyProp(mx.operator.CustomOpProp):
    def __init__(self):
        super(CrossEntropyProp, self).__init__(need_top_grad=False)

    def list_arguments(self):
        return ['data', 'label']

    def list_outputs(self):
        return ['preds']

    def create_operator(self, ctx, shapes, dtypes):
        return CrossEntropyLoss()

    def infer_shape(self, in_shape):
        if in_shape[0] != in_shape[1]:
            raise ValueError('Input shapes differ. data:%s. label:%s. must be same'
                             % (str(in_shape[0]), str(in_shape[1])))
        return in_shape, [in_shape[0]], []


class NegativeSampling(mx.io.DataIter):
    """Each source batch, then the same batch with users shuffled and the label 0."""

    def __init__(self, source, shuffle_idx=1):
        super(NegativeSampling, self).__init__()
        self.source, self.shuffle_idx = source, shuffle_idx
        self.provide_data = source.provide_data
        self.provide_label = [('label', (source.batch_size,))]
        self.batch_size = source.batch_size
        self.queue = []

    def reset(self):
        self.source.reset()
        self.queue = []

    def next(self):
        if not self.queue:
            data = self.source.next().data
            n = data[0].shape[0]
            si = np.arange(n)
            np.random.shuffle(si)
            si -= (si == np.arange(n))
            neg = [d.asnumpy() for d in data]
            neg[self.shuffle_idx] = np.take(neg[self.shuffle_idx], si, 0)
            self.queue = [mx.io.DataBatch([mx.nd.array(d) for d in neg], [mx.nd.zeros((n,))]),
                          mx.io.DataBatch(data, [mx.nd.ones((n,))])]
        return self.queue.pop()


data = mx.symbol.Variable('data')
labs = mx.symbol.Variable('labs')
ce = mx.symbol.Custom(data=data, label=labs, name='ce', op_type='CrossEntropyLoss')
print(ce.list_arguments(), ce.list_outputs(), ce.infer_shape(data=(6, 4), labs=(6, 4)))
rand = np.random.RandomState(seed=123)
d = mx.nd.array(rand.uniform(0.01, 0.99, (3, 2)))
l = mx.nd.array(rand.randint(0, 2, (3, 2)))
e = ce.bind(ctx=mx.cpu(), args={'data': d, 'labs': l}, args_grad={'data': mx.nd.zeros((3, 2))})
e.forward(is_train=True)
e.backward()
print(r(e.outputs[0]), r(e.grad_dict['data']))


def binary_net(k):
    user = mx.symbol.Embedding(data=mx.symbol.Variable('user'), input_dim=MAX_USER, output_dim=k, name='user_embed')
    item = mx.symbol.Embedding(data=mx.symbol.Variable('item'), input_dim=MAX_ITEM, output_dim=k, name='item_embed')
    pred = mx.symbol.sum_axis(data=user * item, axis=1)
    pred = mx.symbol.Activation(data=mx.symbol.Flatten(data=pred), act_type='sigmoid')
    pred = mx.symbol.Reshape(pred, shape=(-1,))
    return mx.symbol.Custom(data=pred, label=mx.symbol.Variable('label'), name='ce', op_type='CrossEntropyLoss')


src = mx.io.NDArrayIter(data={'item': ITEMS, 'user': USERS}, batch_size=4)
train = NegativeSampling(src)
print(train.provide_data, train.provide_label)
mod = mx.mod.Module(binary_net(K), data_names=['item', 'user'], label_names=['label'], context=mx.cpu())
mod.fit(train, num_epoch=2, initializer=Wave(), eval_metric=mx.metric.create(['acc', 'mse']),
        optimizer='adam', optimizer_params={'learning_rate': 0.05},
        batch_end_callback=mx.callback.Speedometer(4, 3))
arg, _ = mod.get_params()
print(r(arg['user_embed_weight'][:2]))
print(mod.output_shapes, r(mod.predict(mx.io.NDArrayIter(data={'item': ITEMS, 'user': USERS}, batch_size=4))[:6]))
