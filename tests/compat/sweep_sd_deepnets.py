"""The Straight Dope, chapter 3 (deep neural networks): MLPs from scratch and with Gluon, dropout
from scratch and with Gluon, batch norm from scratch, the plumbing of Blocks and Parameters, custom
layers and Parameters on several devices, serialization with nd.save and save_params/load_params."""
import os
import tempfile
import warnings
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon
from mxnet.gluon import nn, Block
from _sd_common import pat, fill, r, show, attempt

warnings.simplefilter('ignore')
np.random.seed(0)
ctx = model_ctx = mx.cpu()
num_inputs, num_hidden, num_outputs = 12, 8, 3
Xs = pat((24, num_inputs), 0, 1.0)
ys = nd.array(np.arange(24) % 3)
train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(Xs, ys), 8, shuffle=False)

print('== mlp from scratch')
W1 = pat((num_inputs, num_hidden), 1, 0.3)
b1 = nd.zeros(num_hidden)
W2 = pat((num_hidden, num_hidden), 2, 0.3)
b2 = nd.zeros(num_hidden)
W3 = pat((num_hidden, num_outputs), 3, 0.3)
b3 = nd.zeros(num_outputs)
params = [W1, b1, W2, b2, W3, b3]
for param in params:
    param.attach_grad()


def relu(X):
    return nd.maximum(X, nd.zeros_like(X))


def softmax(y_linear):
    exp = nd.exp(y_linear - nd.max(y_linear))
    partition = nd.nansum(exp, axis=0, exclude=True).reshape((-1, 1))
    return exp / partition


def softmax_cross_entropy(yhat_linear, y):
    return - nd.nansum(y * nd.log_softmax(yhat_linear), axis=0, exclude=True)


def net(X):
    h1 = relu(nd.dot(X, W1) + b1)
    h2 = relu(nd.dot(h1, W2) + b2)
    yhat_linear = nd.dot(h2, W3) + b3
    return yhat_linear


def SGD(params, lr):
    for param in params:
        param[:] = param - lr * param.grad


def evaluate_accuracy(data_iterator, net):
    numerator = 0.
    denominator = 0.
    for i, (data, label) in enumerate(data_iterator):
        output = net(data.reshape((-1, num_inputs)))
        predictions = nd.argmax(output, axis=1)
        numerator += nd.sum(predictions == label)
        denominator += data.shape[0]
    return (numerator / denominator).asscalar()


print(r(softmax(pat((2, 4)))), r(relu(nd.array([-1, 0, 2]))))
for e in range(3):
    cumulative_loss = 0
    for i, (data, label) in enumerate(train_data):
        label_one_hot = nd.one_hot(label, num_outputs)
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label_one_hot)
        loss.backward()
        SGD(params, 0.05)
        cumulative_loss += nd.sum(loss).asscalar()
    print('Epoch %s. Loss: %.4f, Train_acc %.4f' % (e, cumulative_loss / 24, evaluate_accuracy(train_data, net)))

print('== mlp with gluon')


class MLP(gluon.Block):
    def __init__(self, **kwargs):
        super(MLP, self).__init__(**kwargs)
        with self.name_scope():
            self.dense0 = gluon.nn.Dense(16)
            self.dense1 = gluon.nn.Dense(8)
            self.dense2 = gluon.nn.Dense(3)

    def forward(self, x):
        x = nd.relu(self.dense0(x))
        print('Hidden Representation 1: %s' % r(x[0, :4]))
        x = nd.relu(self.dense1(x))
        x = self.dense2(x)
        print('Network output: %s' % r(x[0]))
        return x


net = MLP()
net.collect_params().initialize(mx.init.Normal(sigma=.01), ctx=model_ctx)
print(net)
with autograd.pause():
    net.dense0(Xs[:2])
    net.dense2(net.dense1(net.dense0(Xs[:2])))
fill(net.collect_params())
out = net(Xs[:2])
print(sorted(net.collect_params().keys()))
net = gluon.nn.Sequential()
with net.name_scope():
    net.add(gluon.nn.Dense(num_hidden, activation='relu'))
    net.add(gluon.nn.Dense(num_hidden, activation='relu'))
    net.add(gluon.nn.Dense(num_outputs))
net.collect_params().initialize(mx.init.Normal(sigma=.1), ctx=model_ctx)
net(Xs[:1])
fill(net.collect_params())
print(net)
softmax_cross_entropy = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': .05})
smoothing_constant = .01
for e in range(3):
    cumulative_loss = 0
    for i, (data, label) in enumerate(train_data):
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label)
        loss.backward()
        trainer.step(data.shape[0])
        cumulative_loss += nd.sum(loss).asscalar()
        curr_loss = nd.mean(loss).asscalar()
        moving_loss = (curr_loss if ((i == 0) and (e == 0))
                       else (1 - smoothing_constant) * moving_loss + smoothing_constant * curr_loss)
    print('Epoch %s. Loss: %.4f, moving %.4f, Train_acc %.4f' % (e, cumulative_loss / 24, moving_loss,
                                                                 evaluate_accuracy(train_data, net)))

print('== dropout from scratch')


def dropout(X, drop_probability):
    keep_probability = 1 - drop_probability
    mask = nd.random_uniform(0, 1.0, X.shape, ctx=X.context) < keep_probability
    if keep_probability > 0.0:
        scale = (1 / keep_probability)
    else:
        scale = 0.0
    return mask * X * scale


A = nd.arange(20).reshape((5, 4))
print(dropout(A, 0.0))
print(dropout(A, 1.0))
d = dropout(nd.ones((100, 100)), 0.5)
print(d.shape, d.dtype.__name__, sorted(set(np.unique(d.asnumpy()).tolist())))
mask = nd.random_uniform(0, 1.0, (3, 3)) < 0.5
print(mask.dtype.__name__)

print('== dropout with gluon')
net = gluon.nn.Sequential()
with net.name_scope():
    net.add(gluon.nn.Dense(num_hidden, activation='relu'))
    net.add(gluon.nn.Dropout(.5))
    net.add(gluon.nn.Dense(num_outputs))
net.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=model_ctx)
print(net)
net(Xs[:1])
fill(net.collect_params())
x = Xs[:2]
print('predict', r(net(x)))
with autograd.predict_mode():
    print('predict_mode', r(net(x)))
with autograd.record(train_mode=False):
    print('record predict', r(net(x)))
with autograd.train_mode():
    y = net(x)
    print('train_mode', y.shape)
drop = gluon.nn.Dropout(1.0)
print(drop)
with autograd.record():
    print(r(drop(nd.ones((2, 3)))))
drop0 = gluon.nn.Dropout(0.0)
with autograd.record():
    print(r(drop0(nd.ones((2, 3)))))
print(r(nd.Dropout(nd.ones((2, 2)), p=0.5)))

print('== batch norm from scratch')


def pure_batch_norm(X, gamma, beta, eps=1e-5):
    if len(X.shape) not in (2, 4):
        raise ValueError('only supports dense or 2dconv')
    if len(X.shape) == 2:
        mean = nd.mean(X, axis=0)
        variance = nd.mean((X - mean) ** 2, axis=0)
        X_hat = (X - mean) * 1.0 / nd.sqrt(variance + eps)
        out = gamma * X_hat + beta
    elif len(X.shape) == 4:
        N, C, H, W = X.shape
        mean = nd.mean(X, axis=(0, 2, 3))
        variance = nd.mean((X - mean.reshape((1, C, 1, 1))) ** 2, axis=(0, 2, 3))
        X_hat = (X - mean.reshape((1, C, 1, 1))) * 1.0 / nd.sqrt(variance.reshape((1, C, 1, 1)) + eps)
        out = gamma.reshape((1, C, 1, 1)) * X_hat + beta.reshape((1, C, 1, 1))
    return out


A = nd.array([1, 7, 5, 4, 6, 10], ctx=ctx).reshape((3, 2))
print(r(pure_batch_norm(A, gamma=nd.array([1, 1], ctx=ctx), beta=nd.array([0, 0], ctx=ctx))))
B = nd.array([1, 6, 5, 7, 4, 3, 2, 5, 6, 3, 2, 4, 5, 3, 2, 5], ctx=ctx).reshape((2, 2, 2, 2))
print(r(pure_batch_norm(B, gamma=nd.array([1, 1], ctx=ctx), beta=nd.array([0, 0], ctx=ctx))))
attempt(lambda: pure_batch_norm(nd.ones(3), nd.ones(1), nd.ones(1)))
# the moving statistics kept in global dicts by scope name, as the chapter does
_BN_MOVING_MEANS, _BN_MOVING_VARS = {}, {}


def batch_norm(X, gamma, beta, momentum=0.9, eps=1e-5, scope_name='', is_training=True):
    if len(X.shape) == 2:
        mean = nd.mean(X, axis=0)
        variance = nd.mean((X - mean) ** 2, axis=0)
        if is_training:
            X_hat = (X - mean) * 1.0 / nd.sqrt(variance + eps)
        else:
            X_hat = (X - _BN_MOVING_MEANS[scope_name]) * 1.0 / nd.sqrt(_BN_MOVING_VARS[scope_name] + eps)
        out = gamma * X_hat + beta
    else:
        N, C, H, W = X.shape
        mean = nd.mean(X, axis=(0, 2, 3))
        variance = nd.mean((X - mean.reshape((1, C, 1, 1))) ** 2, axis=(0, 2, 3))
        if is_training:
            X_hat = (X - mean.reshape((1, C, 1, 1))) * 1.0 / nd.sqrt(variance.reshape((1, C, 1, 1)) + eps)
        else:
            X_hat = (X - _BN_MOVING_MEANS[scope_name].reshape((1, C, 1, 1))) * 1.0 / \
                nd.sqrt(_BN_MOVING_VARS[scope_name].reshape((1, C, 1, 1)) + eps)
        out = gamma.reshape((1, C, 1, 1)) * X_hat + beta.reshape((1, C, 1, 1))
    if scope_name not in _BN_MOVING_MEANS:
        _BN_MOVING_MEANS[scope_name] = mean
    else:
        _BN_MOVING_MEANS[scope_name] = momentum * _BN_MOVING_MEANS[scope_name] + (1.0 - momentum) * mean
    if scope_name not in _BN_MOVING_VARS:
        _BN_MOVING_VARS[scope_name] = variance
    else:
        _BN_MOVING_VARS[scope_name] = momentum * _BN_MOVING_VARS[scope_name] + (1.0 - momentum) * variance
    return out


gamma, beta = nd.ones(2), nd.zeros(2)
gamma.attach_grad()
beta.attach_grad()
for step in range(3):
    with autograd.record():
        out = batch_norm(B * (step + 1), gamma, beta, scope_name='bn1')
        loss = nd.sum(out * pat(out.shape))
    loss.backward()
print(r(_BN_MOVING_MEANS['bn1']), r(_BN_MOVING_VARS['bn1']), r(gamma.grad), r(beta.grad))
print(r(batch_norm(B, gamma, beta, scope_name='bn1', is_training=False))[0])
bn = nn.BatchNorm(in_channels=2)
bn.initialize()
with autograd.record():
    y = bn(B)
print(r(y)[0], r(bn.running_mean.data()), r(bn.running_var.data()))

print('== plumbing')


class MLP(Block):
    def __init__(self, **kwargs):
        super(MLP, self).__init__(**kwargs)
        with self.name_scope():
            self.dense0 = nn.Dense(16)
            self.dense1 = nn.Dense(8)
            self.dense2 = nn.Dense(3)

    def forward(self, x):
        x = nd.relu(self.dense0(x))
        x = nd.relu(self.dense1(x))
        return self.dense2(x)


net1 = MLP()
net1.initialize(ctx=ctx)
data = nd.ones((1, 12))
print(net1(data.as_in_context(ctx)).shape)
print(net1.dense0.weight.name, net1.dense0.prefix, net1.prefix, net1.name)
print(net1.collect_params())
net2 = nn.Sequential()
with net2.name_scope():
    net2.add(nn.Dense(16))
    net2.add(nn.Dense(8))
    net2.add(nn.Dense(3))
net2.initialize(ctx=ctx)
net2(data)
print(net2.prefix, [b.name for b in net2], net2[1].weight.name)
print(net2.collect_params('.*weight'))
net3 = MLP(prefix='model_')
print(net3.dense0.prefix, net3.dense0.weight.name)
net3.initialize()
net3(data)
print(net3.dense0.weight.data().shape, net3.dense0.weight.grad().shape, net3.dense0.weight.grad_req)
print(net3.params, net3.dense0.params)
print(net1.dense0.weight.data().context, net1.dense0.weight.list_ctx())
attempt(lambda: MLP().dense0.weight.data())
net4 = MLP()
net4.collect_params().initialize(mx.init.Xavier())
attempt(lambda: net4.dense0.weight.data())
net4(data)
print(net4.dense0.weight.shape, net4.dense2.bias.shape)

print('== custom layers')


class CenteredLayer(Block):
    def __init__(self, **kwargs):
        super(CenteredLayer, self).__init__(**kwargs)

    def forward(self, x):
        return x - nd.mean(x)


net = CenteredLayer()
print(net(nd.array([1, 2, 3, 4, 5])))
net2 = nn.Sequential()
net2.add(nn.Dense(16))
net2.add(nn.Dense(4))
net2.add(CenteredLayer())
net2.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
output = net2(Xs[0:1])
fill(net2.collect_params())
output = net2(Xs[0:1])
print(r(output), abs(nd.mean(output).asscalar()) < 1e-6)
print(net2)
my_param = gluon.Parameter('exciting_parameter_yay', grad_req='write', shape=(5, 5))
print(my_param)
my_param.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
print(my_param.data().shape, my_param.grad().shape)
my_param.initialize(mx.init.Constant(0.5), ctx=[mx.cpu(0), mx.cpu(1)], force_reinit=True)
print(my_param.data(mx.cpu(0))[0], my_param.data(mx.cpu(1)).context, my_param.list_ctx())
print(len(my_param.list_data()), len(my_param.list_grad()))
attempt(lambda: my_param.data(mx.cpu(2)))
pd = gluon.ParameterDict(prefix='block1_')
pd.get('exciting_parameter_yay', grad_req='write', shape=(5, 5))
print(pd)
print(pd['block1_exciting_parameter_yay'])
attempt(lambda: pd['exciting_parameter_yay'])


class MyDense(Block):
    def __init__(self, units, in_units=0, **kwargs):
        super(MyDense, self).__init__(**kwargs)
        with self.name_scope():
            self.units = units
            self._in_units = in_units
            self.weight = self.params.get('weight', init=mx.init.Xavier(magnitude=2.24), shape=(in_units, units))
            self.bias = self.params.get('bias', shape=(units,))

    def forward(self, x):
        with x.context:
            linear = nd.dot(x, self.weight.data()) + self.bias.data()
            activation = nd.relu(linear)
            return activation


dense = MyDense(20, in_units=10)
dense.collect_params().initialize(ctx=ctx)
print(dense.params)
print(dense(nd.ones(shape=(2, 10))).shape)
print(dense.bias.data().shape)
net = gluon.nn.Sequential()
with net.name_scope():
    net.add(MyDense(8, in_units=num_inputs))
    net.add(MyDense(8, in_units=8))
    net.add(MyDense(num_outputs, in_units=8))
net.collect_params().initialize(ctx=ctx)
fill(net.collect_params())
print(sorted(net.collect_params().keys()))
print(net)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': .1})
for e in range(2):
    for data, label in train_data:
        with autograd.record():
            loss = gluon.loss.SoftmaxCrossEntropyLoss()(net(data), label)
        loss.backward()
        trainer.step(data.shape[0])
    print('Epoch %d, loss %.4f' % (e, nd.mean(loss).asscalar()))

print('== serialization')
tmp = tempfile.mkdtemp()
X = nd.ones((10, 10))
Y = nd.zeros((10, 10))
os.makedirs(os.path.join(tmp, 'checkpoints'), exist_ok=True)
filename = os.path.join(tmp, 'checkpoints/test1.params')
nd.save(filename, [X, Y])
A, B = nd.load(filename)
print(A.shape, B.shape, r(nd.sum(A)), r(nd.sum(B)))
mydict = {'X': X, 'Y': Y}
filename = os.path.join(tmp, 'checkpoints/test2.params')
nd.save(filename, mydict)
C = nd.load(filename)
print(type(C).__name__, sorted(C.keys()), C['X'].shape)
nd.save(filename, X)
print(type(nd.load(filename)).__name__, len(nd.load(filename)))
net = gluon.nn.Sequential()
with net.name_scope():
    net.add(gluon.nn.Dense(16, activation='relu'))
    net.add(gluon.nn.Dense(16, activation='relu'))
    net.add(gluon.nn.Dense(1))
net.collect_params().initialize(mx.init.Normal(sigma=1.), ctx=ctx)
net(nd.ones((1, 10), ctx=ctx))
fill(net.collect_params())
print(r(net(nd.ones((1, 10), ctx=ctx))))
filename = os.path.join(tmp, 'checkpoints/testnet.params')
net.save_params(filename)
print(sorted(nd.load(filename).keys()))
net2 = gluon.nn.Sequential()
with net2.name_scope():
    net2.add(gluon.nn.Dense(16, activation='relu'))
    net2.add(gluon.nn.Dense(16, activation='relu'))
    net2.add(gluon.nn.Dense(1))
net2.load_params(filename, ctx=ctx)
print(r(net2(nd.ones((1, 10), ctx=ctx))))
net.save_parameters(filename)
print(sorted(nd.load(filename).keys()))
net3 = gluon.nn.Sequential()
net3.add(gluon.nn.Dense(16, activation='relu'), gluon.nn.Dense(16, activation='relu'), gluon.nn.Dense(1))
net3.load_parameters(filename, ctx=ctx)
print(r(net3(nd.ones((1, 10), ctx=ctx))))
net.collect_params().save(filename)
print(sorted(nd.load(filename).keys()))
attempt(lambda: net2.collect_params().load(filename, ctx=ctx))
net.collect_params().load(filename, ctx=ctx)
attempt(lambda: net2.collect_params().load(filename, ctx=ctx, restore_prefix=net2.prefix))
attempt(lambda: net2.collect_params().load(filename, ctx=ctx, allow_missing=True, ignore_extra=True))
net4 = gluon.nn.Sequential()
net4.add(gluon.nn.Dense(16), gluon.nn.Dense(1))
attempt(lambda: net4.load_parameters(filename))
