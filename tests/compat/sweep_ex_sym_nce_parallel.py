# MXNet 1.9's example/nce-loss (toy NCE and word2vec nets: one embedding weight shared by the data
# lookup and the label lookup, LogisticRegressionOutput over label weights, NceAccuracy/NceAuc
# metrics, a DataIter with two labels), example/model-parallel/matrix_factorization (AttrScope
# ctx_group and group2ctxs on CPU devices) and example/profiler (profiler config, states and a
# dumped file around Module training), on tiny deterministic data.
import json
import os
from operator import itemgetter

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

log_to_stdout()

VOCAB, HIDDEN, NUM_LABEL, FEAT, BATCH = 9, 4, 3, 6, 4


class Wave(mx.init.Initializer):
    def _init_weight(self, name, arr):
        n = int(np.prod(arr.shape))
        arr[:] = (np.sin(np.arange(n) * 0.57 + len(name)) * 0.4).reshape(arr.shape)

    def _init_bias(self, name, arr):
        arr[:] = 0.0


def nce_loss(data, label, label_weight, embed_weight, vocab_size, num_hidden):
    label_embed = mx.sym.Embedding(data=label, input_dim=vocab_size, weight=embed_weight,
                                   output_dim=num_hidden, name='label_embed')
    data = mx.sym.Reshape(data=data, shape=(-1, 1, num_hidden))
    pred = mx.sym.sum(data=mx.sym.broadcast_mul(data, label_embed), axis=2)
    return mx.sym.LogisticRegressionOutput(data=pred, label=label_weight)


class NceAccuracy(mx.metric.EvalMetric):
    def __init__(self):
        super(NceAccuracy, self).__init__('nce-accuracy')

    def update(self, labels, preds):
        label_weight = labels[1].asnumpy()
        preds = preds[0].asnumpy()
        for i in range(preds.shape[0]):
            if np.argmax(label_weight[i]) == np.argmax(preds[i]):
                self.sum_metric += 1
            self.num_inst += 1


class NceAuc(mx.metric.EvalMetric):
    def __init__(self):
        super(NceAuc, self).__init__('nce-auc')

    def update(self, labels, preds):
        label_weight = labels[1].asnumpy()
        preds = preds[0].asnumpy()
        tmp = sorted([(label_weight[i][j], preds[i][j]) for i in range(preds.shape[0])
                      for j in range(preds.shape[1])], key=itemgetter(1), reverse=True)
        m = n = z = 0.0
        for k, (a, _) in enumerate(tmp):
            if a > 0.5:
                m += 1.0
                z += len(tmp) - k
            else:
                n += 1.0
        self.sum_metric += (z - m * (m + 1.0) / 2.0) / m / n
        self.num_inst += 1


class NceIter(mx.io.DataIter):
    """Data of FEAT features (one hot at three places); labels: the true word then noise words."""

    def __init__(self, count, word_data=False):
        super(NceIter, self).__init__()
        self.count, self.word_data = count, word_data
        self.batch_size = BATCH
        self.provide_data = [('data', (BATCH, 2 if word_data else FEAT))]
        self.provide_label = [('label', (BATCH, NUM_LABEL)), ('label_weight', (BATCH, NUM_LABEL))]

    def __iter__(self):
        for b in range(self.count):
            data, label = [], []
            for i in range(BATCH):
                k = b * BATCH + i
                if self.word_data:
                    data.append([k % VOCAB, (k * 2 + 1) % VOCAB])
                else:
                    row = np.zeros(FEAT)
                    row[[k % FEAT, (k + 2) % FEAT, (k * 5 + 1) % FEAT]] = 1.0
                    data.append(row)
                label.append([k * 7 % VOCAB] + [(k * 3 + j + 1) % VOCAB for j in range(NUM_LABEL - 1)])
            weight = [[1.0] + [0.0] * (NUM_LABEL - 1)] * BATCH
            yield mx.io.DataBatch([mx.nd.array(data)], [mx.nd.array(label), mx.nd.array(weight)],
                                  provide_data=self.provide_data, provide_label=self.provide_label)

    def reset(self):
        pass


print('--- toy NCE')
data = mx.sym.Variable('data')
pred = mx.sym.FullyConnected(data=data, num_hidden=HIDDEN)
net = nce_loss(pred, mx.sym.Variable('label'), mx.sym.Variable('label_weight'), mx.sym.Variable('embed_weight'),
               VOCAB, HIDDEN)
print(net.list_arguments(), net.list_outputs())
print(net.infer_shape(data=(BATCH, FEAT), label=(BATCH, NUM_LABEL), label_weight=(BATCH, NUM_LABEL)))
mod = mx.mod.Module(net, data_names=['data'], label_names=['label', 'label_weight'], context=mx.cpu())
mod.fit(NceIter(3), eval_data=NceIter(2), eval_metric=mx.metric.CompositeEvalMetric([NceAccuracy(), NceAuc()]),
        initializer=Wave(), optimizer='sgd',
        optimizer_params={'learning_rate': 0.3, 'momentum': 0.9, 'wd': 0.00001}, num_epoch=2)
arg, _ = mod.get_params()
print(sorted(arg), r(arg['embed_weight'][:2]))

print('--- word2vec: the embedding weight shared by data and labels')
data = mx.sym.Variable('data')
embed_weight = mx.sym.Variable('embed_weight')
data_embed = mx.sym.Embedding(data=data, input_dim=VOCAB, weight=embed_weight, output_dim=HIDDEN, name='data_embed')
datavec = mx.sym.SliceChannel(data=data_embed, num_outputs=2, squeeze_axis=1, name='data_slice')
wnet = nce_loss(datavec[0] + datavec[1], mx.sym.Variable('label'), mx.sym.Variable('label_weight'), embed_weight,
                VOCAB, HIDDEN)
print(wnet.list_arguments())
nodes = json.loads(wnet.tojson())['nodes']
print([(n['op'], n['name'], [nodes[i[0]]['name'] for i in n['inputs']]) for n in nodes if n['op'] == 'Embedding'])
mod = mx.mod.Module(wnet, data_names=['data'], label_names=['label', 'label_weight'], context=mx.cpu())
it = NceIter(3, word_data=True)
mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
mod.init_params(initializer=Wave())
mod.init_optimizer(optimizer='adagrad', optimizer_params={'learning_rate': 0.2})
metric = NceAuc()
for batch in it:
    mod.forward_backward(batch)
    mod.update()
    mod.update_metric(metric, batch.label)
print(metric.get(), r(mod.get_params()[0]['embed_weight'][:3]))

print('--- model parallel matrix factorization')
with mx.AttrScope(ctx_group='dev1'):
    user = mx.symbol.Embedding(data=mx.symbol.Variable('user'), weight=mx.symbol.Variable('user_weight'),
                               input_dim=6, output_dim=3)
    item = mx.symbol.Embedding(data=mx.symbol.Variable('item'), weight=mx.symbol.Variable('item_weight'),
                               input_dim=5, output_dim=3)
with mx.AttrScope(ctx_group='dev2'):
    user = mx.symbol.FullyConnected(data=mx.symbol.Activation(data=user, act_type='relu'),
                                    weight=mx.symbol.Variable('fc_user_weight'),
                                    bias=mx.symbol.Variable('fc_user_bias'), num_hidden=3)
    item = mx.symbol.FullyConnected(data=mx.symbol.Activation(data=item, act_type='relu'),
                                    weight=mx.symbol.Variable('fc_item_weight'),
                                    bias=mx.symbol.Variable('fc_item_bias'), num_hidden=3)
    pred = mx.symbol.Flatten(data=mx.symbol.sum(data=user * item, axis=1))
    mf = mx.symbol.LinearRegressionOutput(data=pred, label=mx.symbol.Variable('score'))
print(sorted((k, v.get('__ctx_group__')) for k, v in mf.attr_dict().items()))
users = np.array([i % 6 for i in range(8)], 'float32')
items = np.array([(i * 2 + 1) % 5 for i in range(8)], 'float32')
scores = (1 + (users + items) % 4).astype('float32')
train = mx.io.NDArrayIter({'user': users, 'item': items}, {'score': scores}, batch_size=4)
group2ctxs = {'dev1': [mx.cpu(1)], 'dev2': [mx.cpu(2)]}
mod = mx.module.Module(symbol=mf, context=[mx.cpu(0)], data_names=['user', 'item'], label_names=['score'],
                       group2ctxs=group2ctxs)
mod.fit(train, eval_data=train, eval_metric=mx.metric.create(['MSE']), num_epoch=2, optimizer='sgd',
        optimizer_params={'learning_rate': 0.05, 'wd': 1e-4, 'momentum': 0.9, 'rescale_grad': 1.0 / 4},
        initializer=Wave(), batch_end_callback=mx.callback.Speedometer(4, 1))
arg, _ = mod.get_params()
print(r(arg['fc_user_bias']), r(arg['item_weight'][1]))
exe = mod._exec_group.execs[0]
print(sorted((k, str(v.context)) for k, v in exe.arg_dict.items()))

print('--- the profiler around Module training')
mx.profiler.set_config(profile_symbolic=True, filename='profile_executor.json')
data = mx.symbol.Variable('data')
fc = mx.symbol.FullyConnected(data=data, name='fc1', num_hidden=5)
fc = mx.symbol.FullyConnected(data=mx.symbol.Activation(data=fc, name='relu1', act_type='relu'), name='fc2',
                              num_hidden=3)
net = mx.symbol.SoftmaxOutput(data=fc, name='softmax')
mod = mx.mod.Module(symbol=net, data_names=['data'], label_names=['softmax_label'], context=[mx.cpu(0)])
mod.bind(data_shapes=[('data', (4, 6))], label_shapes=[('softmax_label', (4,))], for_training=True,
         inputs_need_grad=False)
mod.init_params(initializer=Wave())
attempt(lambda: mod.init_optimizer(optimizer='ccsgd', optimizer_params={'learning_rate': 0.1}))
mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': 0.1, 'momentum': 0.0, 'wd': 0.0},
                   force_init=True)
batch = mx.io.DataBatch([mx.nd.array(np.cos(np.arange(24)).reshape(4, 6))], [mx.nd.array([0, 1, 2, 1])])
mx.profiler.set_state('run')
for i in range(3):
    mod.forward(batch, is_train=True)
    mod.backward()
    mod.update()
    for output in mod.get_outputs(merge_multi_context=False)[0]:
        output.wait_to_read()
mx.profiler.set_state('stop')
mx.profiler.dump()
print(os.path.exists('profile_executor.json'), 'traceEvents' in json.load(open('profile_executor.json')))
print(r(mod.get_outputs()[0], 3), r(mod.get_params()[0]['fc2_bias']))
attempt(lambda: mx.profiler.set_state('paused'))
