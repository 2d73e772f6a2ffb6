"""The Straight Dope, chapter 4 (convolutional networks): a CNN from scratch with nd.Convolution and
nd.Pooling, the Gluon CNN, batch norm from scratch in a CNN and with Gluon, AlexNet- and VGG-style
stacks; tiny images, fixed weights, a few training steps."""
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon
from mxnet.gluon import nn
from _sd_common import pat, fill, r, show, attempt

ctx = mx.cpu()
X = pat((6, 1, 12, 12), 0, 1.0)
Y = nd.array([0, 1, 2, 0, 1, 2])
train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(X, Y), 3, shuffle=False)

print('== cnn from scratch')
weight_scale = .1
W1 = pat((4, 1, 3, 3), 1, weight_scale)
b1 = pat(4, 2, weight_scale)
W2 = pat((6, 4, 3, 3), 3, weight_scale)
b2 = pat(6, 4, weight_scale)
W3 = pat((6, 16), 5, weight_scale)
b3 = pat(16, 6, weight_scale)
W4 = pat((16, 3), 7, weight_scale)
b4 = pat(3, 8, weight_scale)
params = [W1, b1, W2, b2, W3, b3, W4, b4]
for param in params:
    param.attach_grad()
for data, _ in train_data:
    data = data.as_in_context(ctx)
    break
conv = nd.Convolution(data=data, weight=W1, bias=b1, kernel=(3, 3), num_filter=4)
print(conv.shape)
pool = nd.Pooling(data=conv, pool_type='max', kernel=(2, 2), stride=(2, 2))
print(pool.shape)
show('pool', pool)


def relu(X):
    return nd.maximum(X, 0)


def softmax(y_linear):
    exp = nd.exp(y_linear - nd.max(y_linear))
    partition = nd.nansum(exp, axis=0, exclude=True).reshape((-1, 1))
    return exp / partition


def softmax_cross_entropy(yhat_linear, y):
    return - nd.nansum(y * nd.log_softmax(yhat_linear), axis=0, exclude=True)


def net(X, debug=False):
    h1_conv = nd.Convolution(data=X, weight=W1, bias=b1, kernel=(3, 3), num_filter=4)
    h1_activation = relu(h1_conv)
    if debug:
        print('h1 shape: %s' % (np.array(h1_activation.shape)))
    h1 = nd.Pooling(data=h1_activation, pool_type='avg', kernel=(2, 2), stride=(2, 2))
    h2_conv = nd.Convolution(data=h1, weight=W2, bias=b2, kernel=(3, 3), num_filter=6)
    h2_activation = relu(h2_conv)
    h2 = nd.Pooling(data=h2_activation, pool_type='avg', kernel=(2, 2), stride=(2, 2))
    if debug:
        print('h2 shape: %s' % (np.array(h2.shape)))
    h2 = nd.flatten(h2)
    if debug:
        print('Flat h2 shape: %s' % (np.array(h2.shape)))
    h3_linear = nd.dot(h2, W3) + b3
    h3 = relu(h3_linear)
    yhat_linear = nd.dot(h3, W4) + b4
    if debug:
        print('yhat_linear shape: %s' % (np.array(yhat_linear.shape)))
    return yhat_linear


output = net(data, debug=True)
show('output', output)


def SGD(params, lr):
    for param in params:
        param[:] = param - lr * param.grad


def evaluate_accuracy(data_iterator, net):
    numerator = 0.
    denominator = 0.
    for i, (data, label) in enumerate(data_iterator):
        output = net(data)
        predictions = nd.argmax(output, axis=1)
        numerator += nd.sum(predictions == label)
        denominator += data.shape[0]
    return (numerator / denominator).asscalar()


for e in range(2):
    for i, (data, label) in enumerate(train_data):
        label_one_hot = nd.one_hot(label, 3)
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label_one_hot)
        loss.backward()
        SGD(params, .1)
    print('Epoch %s. Loss: %.4f, Train_acc %.4f' % (e, nd.mean(loss).asscalar(), evaluate_accuracy(train_data, net)))
show('W1.grad', W1.grad, 4, 6)
show('W2', W2, 4, 6)
# the same layers with the arguments the chapter's variants use
show('conv stride pad', nd.Convolution(X[:1], W1, b1, kernel=(3, 3), num_filter=4, stride=(2, 2), pad=(1, 1)))
show('conv no_bias', nd.Convolution(X[:1], W1, kernel=(3, 3), num_filter=4, no_bias=True))
show('pool global', nd.Pooling(conv, global_pool=True, pool_type='max', kernel=(1, 1)))
show('pool full', nd.Pooling(conv, pool_type='avg', kernel=(3, 3), stride=(2, 2), pooling_convention='full'))
attempt(lambda: nd.Convolution(X[:1], W1, b1, kernel=(3, 3), num_filter=5))
attempt(lambda: nd.Convolution(X[:1], W2, b2, kernel=(3, 3), num_filter=6))

print('== cnn with gluon')
num_fc = 16
net = gluon.nn.Sequential()
with net.name_scope():
    net.add(gluon.nn.Conv2D(channels=4, kernel_size=3, activation='relu'))
    net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
    net.add(gluon.nn.Conv2D(channels=6, kernel_size=3, activation='relu'))
    net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
    net.add(gluon.nn.Flatten())
    net.add(gluon.nn.Dense(num_fc, activation='relu'))
    net.add(gluon.nn.Dense(3))
net.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
print(net)
net(X[:1])
print(net)
fill(net.collect_params(), 0.2)
for name, p in net.collect_params().items():
    print(name, p.shape)
softmax_cross_entropy = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': .1})
for e in range(2):
    for i, (data, label) in enumerate(train_data):
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label)
        loss.backward()
        trainer.step(data.shape[0])
        curr_loss = nd.mean(loss).asscalar()
    print('Epoch %s. Loss: %.4f, Train_acc %.4f' % (e, curr_loss, evaluate_accuracy(train_data, net)))
net.hybridize()
print('hybridized', r(net(X[:2])))

print('== batch norm from scratch in a CNN')
W1 = pat((4, 1, 3, 3), 1, weight_scale)
b1 = pat(4, 2, weight_scale)
gamma1 = nd.ones(4)
beta1 = nd.zeros(4)
W4 = pat((4 * 5 * 5, 3), 3, weight_scale)
b4 = nd.zeros(3)
params = [W1, b1, gamma1, beta1, W4, b4]
for param in params:
    param.attach_grad()
_BN_MOVING_MEANS, _BN_MOVING_VARS = {}, {}


def batch_norm(X, gamma, beta, momentum=0.9, eps=1e-5, scope_name='', is_training=True, debug=False):
    N, C, H, W = X.shape
    mean = nd.mean(X, axis=(0, 2, 3))
    variance = nd.mean((X - mean.reshape((1, C, 1, 1))) ** 2, axis=(0, 2, 3))
    if not is_training:
        mean = _BN_MOVING_MEANS[scope_name]
        variance = _BN_MOVING_VARS[scope_name]
    X_hat = (X - mean.reshape((1, C, 1, 1))) * 1.0 / nd.sqrt(variance.reshape((1, C, 1, 1)) + eps)
    out = gamma.reshape((1, C, 1, 1)) * X_hat + beta.reshape((1, C, 1, 1))
    if is_training:
        if scope_name not in _BN_MOVING_MEANS:
            _BN_MOVING_MEANS[scope_name] = mean
            _BN_MOVING_VARS[scope_name] = variance
        else:
            _BN_MOVING_MEANS[scope_name] = momentum * _BN_MOVING_MEANS[scope_name] + (1.0 - momentum) * mean
            _BN_MOVING_VARS[scope_name] = momentum * _BN_MOVING_VARS[scope_name] + (1.0 - momentum) * variance
    if debug:
        print('BN input mean %s' % r(nd.mean(X)))
    return out


def bn_net(X, is_training=True, debug=False):
    h1_conv = nd.Convolution(data=X, weight=W1, bias=b1, kernel=(3, 3), num_filter=4)
    h1_normed = batch_norm(h1_conv, gamma1, beta1, scope_name='bn1', is_training=is_training, debug=debug)
    h1_activation = relu(h1_normed)
    h1 = nd.Pooling(data=h1_activation, pool_type='avg', kernel=(2, 2), stride=(2, 2))
    h1 = nd.flatten(h1)
    return nd.dot(h1, W4) + b4


print(bn_net(X[:3], debug=True).shape)
for e in range(2):
    for i, (data, label) in enumerate(train_data):
        with autograd.record():
            output = bn_net(data)
            loss = softmax_cross_entropy(output, label)
        loss.backward()
        SGD(params, .1)
    print('Epoch %d loss %.4f' % (e, nd.mean(loss).asscalar()))
print(r(_BN_MOVING_MEANS['bn1']), r(_BN_MOVING_VARS['bn1']), r(gamma1), r(beta1))
show('eval', bn_net(X[:2], is_training=False))

print('== batch norm with gluon')
net = gluon.nn.Sequential()
with net.name_scope():
    net.add(gluon.nn.Conv2D(channels=4, kernel_size=3))
    net.add(gluon.nn.BatchNorm(axis=1, center=True, scale=True))
    net.add(gluon.nn.Activation(activation='relu'))
    net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
    net.add(gluon.nn.Flatten())
    net.add(gluon.nn.Dense(8))
    net.add(gluon.nn.BatchNorm(axis=1, center=True, scale=True))
    net.add(gluon.nn.Activation(activation='relu'))
    net.add(gluon.nn.Dense(3))
net.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
net(X[:1])
print(net)
print(net.collect_params())
fill(net.collect_params(), 0.2)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': .1})
for e in range(2):
    for i, (data, label) in enumerate(train_data):
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label)
        loss.backward()
        trainer.step(data.shape[0])
    print('Epoch %d loss %.4f acc %.4f' % (e, nd.mean(loss).asscalar(), evaluate_accuracy(train_data, net)))
print(r(net[1].running_mean.data()), r(net[1].running_var.data()), r(net[6].running_mean.data())[:4])

print('== alexnet and vgg stacks')
alex_net = gluon.nn.Sequential()
with alex_net.name_scope():
    alex_net.add(gluon.nn.Conv2D(channels=8, kernel_size=5, strides=2, activation='relu'))
    alex_net.add(gluon.nn.MaxPool2D(pool_size=3, strides=2))
    alex_net.add(gluon.nn.Conv2D(channels=8, kernel_size=3, padding=1, activation='relu'))
    alex_net.add(gluon.nn.Conv2D(channels=8, kernel_size=3, padding=1, activation='relu'))
    alex_net.add(gluon.nn.MaxPool2D(pool_size=3, strides=2))
    alex_net.add(gluon.nn.Flatten())
    alex_net.add(gluon.nn.Dense(16, activation='relu'))
    alex_net.add(gluon.nn.Dropout(.5))
    alex_net.add(gluon.nn.Dense(10))
alex_net.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
img = pat((2, 3, 24, 24), 3, 1.0)
alex_net(img)
fill(alex_net.collect_params(), 0.1)
print(alex_net)
show('alexnet', alex_net(img))


def vgg_block(num_convs, channels):
    out = nn.Sequential()
    for _ in range(num_convs):
        out.add(nn.Conv2D(channels=channels, kernel_size=3, padding=1, activation='relu'))
    out.add(nn.MaxPool2D(pool_size=2, strides=2))
    return out


def vgg_stack(architecture):
    out = nn.Sequential()
    for (num_convs, channels) in architecture:
        out.add(vgg_block(num_convs, channels))
    return out


num_outputs = 10
architecture = ((1, 4), (1, 8), (2, 8))
net = nn.Sequential()
with net.name_scope():
    net.add(vgg_stack(architecture))
    net.add(nn.Flatten())
    net.add(nn.Dense(16, activation='relu'))
    net.add(nn.Dropout(.5))
    net.add(nn.Dense(num_outputs))
net.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
net(img)
fill(net.collect_params(), 0.1)
print(net)
print(sorted(net.collect_params().keys())[:4])
show('vgg', net(img))
net[3]._rate = 0.0  # instead of predict mode: MXNet's max pooling differentiates wrongly there (docs/MIGRATING.md)
with autograd.record():
    out = net(img)
    loss = softmax_cross_entropy(out, nd.array([1, 7]))
loss.backward()
show('vgg grad', net[0][0][0].weight.grad(), 4, 6)
