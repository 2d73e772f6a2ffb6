"""MXNet 1.9's smaller example/gluon programs on tiny data: actor_critic (a policy/value net,
sample_multinomial with get_prob, autograd.backward over a list of heads, L1Loss), house_prices
(k-fold cross validation with Dense, L2Loss, Adam with weight decay, clipped log RMSE), mnist
(an MLP with SGD momentum, Accuracy) and image_classification (a model-zoo net, TopKAccuracy,
split_and_load, float16 cast, export, and the symbolic Module path with DummyIter)."""
import os
import tempfile

import numpy as onp
import mxnet as mx
import mxnet.ndarray as F
from mxnet import gluon, autograd, nd
from mxnet.gluon import nn
from _ex_gluon import fill, r, show, attempt, params_of

print('== actor_critic')


class Policy(gluon.Block):
    def __init__(self, **kwargs):
        super(Policy, self).__init__(**kwargs)
        with self.name_scope():
            self.dense = nn.Dense(16, in_units=4, activation='relu')
            self.action_pred = nn.Dense(2, in_units=16)
            self.value_pred = nn.Dense(1, in_units=16)

    def forward(self, x):
        x = self.dense(x)
        probs = self.action_pred(x)
        values = self.value_pred(x)
        return F.softmax(probs), values


net = Policy()
print(net)
net.initialize(mx.init.Uniform(0.02))
params_of(net)
fill(net, 0.5)
# a policy that always picks action 1: the sampled actions are the same on every RNG
net.action_pred.bias.set_data(nd.array([-200.0, 200.0]))
trainer = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 3e-2})
loss = gluon.loss.L1Loss()
gamma = 0.99
states = onp.cos(onp.arange(5 * 4).reshape(5, 4)).astype('float32')
running_reward = 10
for epoch in range(2):
    rewards, values, heads, actions = [], [], [], []
    with autograd.record():
        for t in range(4):
            step = t
            state = mx.nd.array(onp.expand_dims(states[t + epoch], 0))
            prob, value = net(state)
            action, logp = mx.nd.sample_multinomial(prob, get_prob=True)
            rewards.append(1.0 + 0.5 * t)
            values.append(value)
            actions.append(action.asnumpy()[0])
            heads.append(logp)
        running_reward = running_reward * 0.99 + step * 0.01
        R = 0
        for i in range(len(rewards) - 1, -1, -1):
            R = rewards[i] + gamma * R
            rewards[i] = R
        rewards = onp.array(rewards)
        rewards -= rewards.mean()
        rewards /= rewards.std() + onp.finfo(rewards.dtype).eps
        L = sum([loss(value, mx.nd.array([r_])) for r_, value in zip(rewards, values)])
        final_nodes = [L]
        for logp, r_, v in zip(heads, rewards, values):
            reward = r_ - v.asnumpy()[0, 0]
            final_nodes.append(logp * (-reward))
        autograd.backward(final_nodes)
    trainer.step(step)
    print('episode', epoch, 'actions', actions, 'dtype', action.dtype.__name__, 'logp', r(heads[0]),
          'L', r(L), 'running', r(running_reward))
    print('  value grad', r(net.value_pred.weight.grad().sum()), 'dense bias', r(net.dense.bias.data()[:4]))
a, p = mx.nd.sample_multinomial(mx.nd.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), shape=2, get_prob=True)
print('multinomial', a.shape, r(a), r(p))

print('== house_prices')
rs = onp.random.RandomState(7)
raw = rs.uniform(0, 10, size=(20, 3))
X = (raw - raw.mean(axis=0)) / raw.std(axis=0, ddof=1)
y = onp.exp(raw @ onp.array([0.1, 0.05, -0.02]) + 4.0)
X_train, y_train = nd.array(X), nd.array(y)
y_train.reshape((20, 1))
square_loss = gluon.loss.L2Loss()


def get_rmse_log(net, X_train, y_train):
    num_train = X_train.shape[0]
    clipped_preds = nd.clip(net(X_train), 1, float('inf'))
    return onp.sqrt(2 * nd.sum(square_loss(nd.log(clipped_preds), nd.log(y_train))).asscalar() / num_train)


def get_net():
    net = gluon.nn.Sequential()
    with net.name_scope():
        net.add(gluon.nn.Dense(5, activation='relu'))
        net.add(gluon.nn.Dense(1))
    net.initialize()
    return net


def train(net, X_train, y_train, epochs, learning_rate, weight_decay, batch_size):
    dataset_train = gluon.data.ArrayDataset(X_train, y_train)
    data_iter_train = gluon.data.DataLoader(dataset_train, batch_size, shuffle=False)
    trainer = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': learning_rate,
                                                           'wd': weight_decay})
    net.initialize(force_reinit=True)
    net(X_train)
    fill(net, 0.4)
    net[1].bias.set_data(nd.array([60.0]))
    for epoch in range(epochs):
        for data, label in data_iter_train:
            with autograd.record():
                output = net(data)
                loss = square_loss(output, label)
            loss.backward()
            trainer.step(batch_size)
            avg_loss = get_rmse_log(net, X_train, y_train)
        print('Epoch %d, train loss: %.5f' % (epoch, avg_loss))
    return avg_loss


def k_fold_cross_valid(k, epochs, X_train, y_train, learning_rate, weight_decay, batch_size):
    assert k > 1
    fold_size = X_train.shape[0] // k
    train_loss_sum = 0.0
    test_loss_sum = 0.0
    for test_idx in range(k):
        X_val_test = X_train[test_idx * fold_size: (test_idx + 1) * fold_size, :]
        y_val_test = y_train[test_idx * fold_size: (test_idx + 1) * fold_size]
        val_train_defined = False
        for i in range(k):
            if i != test_idx:
                X_cur_fold = X_train[i * fold_size: (i + 1) * fold_size, :]
                y_cur_fold = y_train[i * fold_size: (i + 1) * fold_size]
                if not val_train_defined:
                    X_val_train, y_val_train = X_cur_fold, y_cur_fold
                    val_train_defined = True
                else:
                    X_val_train = nd.concat(X_val_train, X_cur_fold, dim=0)
                    y_val_train = nd.concat(y_val_train, y_cur_fold, dim=0)
        net = get_net()
        train_loss = train(net, X_val_train, y_val_train, epochs, learning_rate, weight_decay,
                           batch_size)
        train_loss_sum += train_loss
        test_loss = get_rmse_log(net, X_val_test, y_val_test)
        print('Test loss: %.5f' % test_loss)
        test_loss_sum += test_loss
    return train_loss_sum / k, test_loss_sum / k


train_loss, test_loss = k_fold_cross_valid(2, 2, X_train, y_train, 0.3, 5.0, 4)
print('2-fold validation: Avg train loss: %.5f, Avg test loss: %.5f' % (train_loss, test_loss))

print('== mnist')
mlp = nn.Sequential()
with mlp.name_scope():
    mlp.add(nn.Dense(8, activation='relu'))
    mlp.add(nn.Dense(6, activation='relu'))
    mlp.add(nn.Dense(3))
print(mlp)


def transformer(data, label):
    data = data.reshape((-1,)).astype(onp.float32) / 255
    return data, label


images = nd.array((onp.arange(6 * 4 * 4).reshape(6, 4, 4, 1) * 37) % 256, dtype='uint8')
labels = nd.array([0, 1, 2, 0, 1, 2], dtype='int32')
train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(images, labels).transform(transformer),
                                   batch_size=4, shuffle=False, last_batch='keep')
mlp.collect_params().initialize(mx.init.Xavier(magnitude=2.24))
mlp(nd.zeros((1, 16)))
fill(mlp, 0.5)
trainer = gluon.Trainer(mlp.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
metric = mx.metric.Accuracy()
sce = gluon.loss.SoftmaxCrossEntropyLoss()
for epoch in range(2):
    metric.reset()
    for i, (data, label) in enumerate(train_data):
        with autograd.record():
            output = mlp(data)
            L = sce(output, label)
            L.backward()
        trainer.step(data.shape[0])
        metric.update([label], [output])
    name, acc = metric.get()
    print('[Epoch %d] Training: %s=%.4f' % (epoch, name, acc), 'loss', r(L), data.shape, label.dtype.__name__)
with tempfile.TemporaryDirectory() as tmp:
    f = os.path.join(tmp, 'mnist.params')
    mlp.save_parameters(f)
    mlp.load_parameters(f)
    print('saved', sorted(nd.load(f)))

print('== image_classification')
from mxnet.gluon.model_zoo.vision import get_model
ctx = [mx.cpu(0), mx.cpu(1)]
inet = get_model('mobilenet0.25', classes=5)
print(inet.prefix, len(inet.features), type(inet.output).__name__)
inet.initialize(mx.init.Xavier(magnitude=2), ctx=ctx)
data = nd.array(onp.sin(onp.arange(2 * 3 * 32 * 32).reshape(2, 3, 32, 32) * 0.01))
label = nd.array([1, 3])
inet(data.as_in_context(ctx[0]))
fill(inet, 0.1)
metric = mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), mx.metric.TopKAccuracy(2)])
trainer = gluon.Trainer(inet.collect_params(), 'sgd', {'learning_rate': 0.01, 'wd': 1e-4,
                                                       'momentum': 0.9, 'multi_precision': True},
                        kvstore='device')
xs = gluon.utils.split_and_load(data, ctx_list=ctx, batch_axis=0)
ys = gluon.utils.split_and_load(label, ctx_list=ctx, batch_axis=0)
outputs, Ls = [], []
with autograd.record():
    for x, y_ in zip(xs, ys):
        z = inet(x)
        Ls.append(sce(z, y_))
        outputs.append(z)
autograd.backward(Ls)
trainer.step(data.shape[0])
metric.update(ys, outputs)
print(metric.get(), [r(o, 3) for o in outputs])
small_net = nn.HybridSequential()
with small_net.name_scope():
    small_net.add(nn.Conv2D(3, 3), nn.GlobalAvgPool2D(), nn.Dense(5))
small_net.initialize(ctx=ctx[0])
small_net(xs[0])
fill(small_net, 0.2)
small_net.hybridize()
print('hybrid', r(small_net(xs[0]), 3))
with tempfile.TemporaryDirectory() as tmp:
    prefix = os.path.join(tmp, 'image-classifier-small')
    small_net.export(prefix, epoch=1)
    print(sorted(os.listdir(tmp)))
    sb = gluon.SymbolBlock.imports(prefix + '-symbol.json', ['data'], prefix + '-0001.params', ctx=ctx[0])
    print('imported', r(sb(xs[0]), 3))
half = get_model('mobilenetv2_0.25', classes=3)
half.initialize(mx.init.Xavier(), ctx=ctx[0])
half.cast('float16')
print('float16', half.features[0].weight.dtype, sorted(set(str(p.dtype) for p in half.collect_params().values())))


class DummyIter(mx.io.DataIter):
    def __init__(self, batch_size, data_shape, batches=3):
        super(DummyIter, self).__init__(batch_size)
        self.data_shape = (batch_size,) + data_shape
        self.label_shape = (batch_size,)
        self.provide_data = [('data', self.data_shape)]
        self.provide_label = [('softmax_label', self.label_shape)]
        self.batch = mx.io.DataBatch(data=[mx.nd.array(onp.cos(onp.arange(onp.prod(self.data_shape))).reshape(self.data_shape))],
                                     label=[mx.nd.array(onp.arange(batch_size) % 3)])
        self._batches = 0
        self.batches = batches

    def next(self):
        if self._batches < self.batches:
            self._batches += 1
            return self.batch
        self._batches = 0
        raise StopIteration


small = nn.HybridSequential()
with small.name_scope():
    small.add(nn.Conv2D(4, 3), nn.Activation('relu'), nn.GlobalAvgPool2D(), nn.Dense(3))
sym_data = mx.sym.var('data')
sym_data = mx.sym.Cast(data=sym_data, dtype=onp.float32)
out = small(sym_data)
softmax = mx.sym.SoftmaxOutput(out, name='softmax')
print(softmax.list_arguments())
mod = mx.mod.Module(softmax, context=[mx.cpu(0)])
it = DummyIter(4, (1, 6, 6))
arg_shapes, _, _ = softmax.infer_shape(data=(4, 1, 6, 6))
arg_params = {n: mx.nd.array(onp.sin(onp.arange(int(onp.prod(shp))) + k).reshape(shp) * 0.3)
              for k, (n, shp) in enumerate(zip(softmax.list_arguments(), arg_shapes))
              if n not in ('data', 'softmax_label')}
with tempfile.TemporaryDirectory() as tmp:
    prefix = os.path.join(tmp, 'image-classifier-small')
    mod.fit(it, eval_data=it, num_epoch=2, arg_params=arg_params, kvstore='device',
            optimizer='sgd', optimizer_params={'learning_rate': 0.1, 'momentum': 0.9, 'wd': 1e-4},
            initializer=mx.init.Xavier(magnitude=2),
            batch_end_callback=mx.callback.Speedometer(4, 1),
            epoch_end_callback=mx.callback.do_checkpoint(prefix))
    print(sorted(os.listdir(tmp)))
print('score', [(n, r(v)) for n, v in mod.score(it, ['acc', 'ce'])])
print('fitted', r(mod.get_params()[0][softmax.list_arguments()[1]].asnumpy().ravel()[:4]))
