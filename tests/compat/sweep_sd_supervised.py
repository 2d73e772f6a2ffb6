"""The Straight Dope, chapter 2 (supervised learning): linear regression from scratch and with
Gluon, binary classification with a logistic model, softmax regression from scratch and with
Gluon, L2 regularisation both ways, the perceptron, losses; on tiny fixed data."""
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon
from _sd_common import pat, r, show, attempt

np.random.seed(0)
mx.random.seed(0)
data_ctx = model_ctx = mx.cpu()

print('== linear regression from scratch')
num_inputs, num_outputs, num_examples = 2, 1, 40


def real_fn(X):
    return 2 * X[:, 0] - 3.4 * X[:, 1] + 4.2


X = pat((num_examples, num_inputs), 1, 1.0)
noise = .01 * pat((num_examples,), 3)
y = real_fn(X) + noise
print(X[0], y[0])
batch_size = 4
train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(X, y), batch_size=batch_size, shuffle=False)
for i, (data, label) in enumerate(train_data):
    print(data, label)
    break
counter = 0
for i, (data, label) in enumerate(train_data):
    pass
print(i + 1)
w = pat((num_inputs, num_outputs), 5, 1.0)
b = nd.random_normal(shape=num_outputs, ctx=model_ctx) * 0
params = [w, b]
for param in params:
    param.attach_grad()


def net(X):
    return mx.nd.dot(X, w) + b


def square_loss(yhat, y):
    return nd.mean((yhat - y) ** 2)


def SGD(params, lr):
    for param in params:
        param[:] = param - lr * param.grad


epochs = 3
learning_rate = .05
num_batches = num_examples / batch_size
for e in range(epochs):
    cumulative_loss = 0
    for i, (data, label) in enumerate(train_data):
        data = data.as_in_context(model_ctx)
        label = label.as_in_context(model_ctx).reshape((-1, 1))
        with autograd.record():
            output = net(data)
            loss = square_loss(output, label)
        loss.backward()
        SGD(params, learning_rate)
        cumulative_loss += loss.asscalar()
    print('Epoch %s, loss: %.4f' % (e, cumulative_loss / num_batches))
print(r(w), r(b))

print('== linear regression with gluon')
net = gluon.nn.Dense(1, in_units=2)
print(net)
print(net.weight)
print(net.bias)
print(net.collect_params())
print(type(net.collect_params()).__name__)
net.collect_params().initialize(mx.init.Normal(sigma=1.), ctx=model_ctx)
net = gluon.nn.Dense(1)
net.collect_params().initialize(mx.init.Normal(sigma=1.), ctx=model_ctx)
print(net.weight)
example_data = nd.array([[4, 7]])
out = net(example_data)
print(out.shape, net.weight, net.weight.data().shape, net.bias.data())
net.weight.set_data(nd.array([[0.5, -0.5]]))
print(net(example_data))
square_loss = gluon.loss.L2Loss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.05})
loss_sequence = []
for e in range(epochs):
    cumulative_loss = 0
    for i, (data, label) in enumerate(train_data):
        with autograd.record():
            output = net(data)
            loss = square_loss(output, label)
        loss.backward()
        trainer.step(batch_size)
        cumulative_loss += nd.mean(loss).asscalar()
    print('Epoch %s, loss: %.4f' % (e, cumulative_loss / num_examples))
    loss_sequence.append(cumulative_loss)
params = net.collect_params()
for param in params.values():
    print(param.name, r(param.data()))
print(sorted(params.keys()), r(params['dense1_weight'].data()))

print('== binary classification (logistic regression)')
Xb = pat((24, 5), 2, 1.0)
yb = nd.array((np.sin(np.arange(24) * 1.3) > 0).astype('float32'))
train = gluon.data.DataLoader(gluon.data.ArrayDataset(Xb, yb), batch_size=8, shuffle=False)
net = gluon.nn.Dense(1)
net.collect_params().initialize(mx.init.Constant(0.1), ctx=model_ctx)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5})


def logistic(z):
    return 1. / (1. + nd.exp(-z))


def log_loss(output, y):
    yhat = logistic(output)
    return - nd.nansum(y * nd.log(yhat) + (1 - y) * nd.log(1 - yhat))


print(r(logistic(nd.arange(-3, 4))))
for e in range(3):
    cumulative_loss = 0
    for i, (data, label) in enumerate(train):
        with autograd.record():
            output = net(data)
            loss = log_loss(output, label)
        loss.backward()
        trainer.step(data.shape[0])
        cumulative_loss += nd.sum(loss).asscalar()
    print('Epoch %s, loss: %.4f' % (e, cumulative_loss))
num_correct = 0.0
num_total = len(Xb)
for i, (data, label) in enumerate(train):
    output = net(data)
    prediction = (nd.sign(output) + 1) / 2
    num_correct += nd.sum(prediction == label.reshape((-1, 1)))
print('Accuracy: %0.3f (%s/%s)' % (num_correct.asscalar() / num_total, num_correct.asscalar(), num_total))
loss2 = gluon.loss.SigmoidBinaryCrossEntropyLoss()
print(r(loss2(net(Xb[:4]), yb[:4])), r(log_loss(net(Xb[:1]), yb[:1])))

print('== softmax regression from scratch')
num_inputs, num_outputs = 12, 3
Xs = nd.array((np.arange(24 * 12).reshape(24, 12) * 37 % 255).astype('uint8'))


def transform(data, label):
    return data.astype(np.float32) / 255, label.astype(np.float32)


ys = nd.array(np.arange(24) % 3, dtype='int32')
dataset = gluon.data.ArrayDataset(Xs, ys).transform(transform)
image, label = dataset[0]
print(image.shape, label, type(label).__name__)
train_data = gluon.data.DataLoader(dataset, 6, shuffle=False)
W = pat((num_inputs, num_outputs), 1, 0.1)
b = nd.zeros(num_outputs)
params = [W, b]
for param in params:
    param.attach_grad()


def softmax(y_linear):
    exp = nd.exp(y_linear - nd.max(y_linear, axis=1).reshape((-1, 1)))
    norms = nd.sum(exp, axis=1).reshape((-1, 1))
    return exp / norms


sample_y_linear = pat((2, 10), 4, 1.0)
sample_yhat = softmax(sample_y_linear)
print(r(sample_yhat), r(nd.sum(sample_yhat, axis=1)))


def net(X):
    y_linear = nd.dot(X, W) + b
    yhat = softmax(y_linear)
    return yhat


def cross_entropy(yhat, y):
    return - nd.sum(y * nd.log(yhat + 1e-6))


def evaluate_accuracy(data_iterator, net):
    numerator = 0.
    denominator = 0.
    for i, (data, label) in enumerate(data_iterator):
        data = data.as_in_context(model_ctx).reshape((-1, num_inputs))
        label = label.as_in_context(model_ctx)
        label_one_hot = nd.one_hot(label, 10)
        output = net(data)
        predictions = nd.argmax(output, axis=1)
        numerator += nd.sum(predictions == label)
        denominator += data.shape[0]
    return (numerator / denominator).asscalar()


print(evaluate_accuracy(train_data, net))
for e in range(3):
    cumulative_loss = 0
    for i, (data, label) in enumerate(train_data):
        data = data.as_in_context(model_ctx).reshape((-1, num_inputs))
        label = label.as_in_context(model_ctx)
        label_one_hot = nd.one_hot(label, num_outputs)
        with autograd.record():
            output = net(data)
            loss = cross_entropy(output, label_one_hot)
        loss.backward()
        SGD(params, 0.05)
        cumulative_loss += nd.sum(loss).asscalar()
    acc = evaluate_accuracy(train_data, net)
    print('Epoch %s. Loss: %.4f, Train_acc %.4f' % (e, cumulative_loss / 24, acc))
print(nd.one_hot(nd.array([0, 2]), 3), nd.one_hot(ys[:2], 3).dtype.__name__)
print(r(nd.argmax(net(Xs[:4].astype('float32') / 255), axis=1)))

print('== softmax regression with gluon')
net = gluon.nn.Dense(num_outputs)
net.collect_params().initialize(mx.init.Normal(sigma=1.), ctx=model_ctx)
net(Xs[:1].astype('float32'))
net.weight.set_data(pat((num_outputs, num_inputs), 7, 0.1))
softmax_cross_entropy = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})


def evaluate_accuracy(data_iterator, net):
    acc = mx.metric.Accuracy()
    for i, (data, label) in enumerate(data_iterator):
        output = net(data)
        predictions = nd.argmax(output, axis=1)
        acc.update(preds=predictions, labels=label)
    return acc.get()[1]


print(evaluate_accuracy(train_data, net))
for e in range(3):
    cumulative_loss = 0
    for i, (data, label) in enumerate(train_data):
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label)
        loss.backward()
        trainer.step(data.shape[0])
        cumulative_loss += nd.sum(loss).asscalar()
    print('Epoch %s. Loss: %.4f, Train_acc %.4f' % (e, cumulative_loss / 24, evaluate_accuracy(train_data, net)))
acc = mx.metric.Accuracy()
acc.update(preds=[nd.array([[0.1, 0.9], [0.8, 0.2]])], labels=[nd.array([1, 1])])
print(acc.get(), acc)

print('== regularization from scratch and with gluon')
W = pat((num_inputs, num_outputs), 2, 0.1)
b = nd.zeros(num_outputs)
params = [W, b]
for param in params:
    param.attach_grad()


def l2_penalty(params):
    penalty = nd.zeros(shape=1)
    for param in params:
        penalty = penalty + nd.sum(param ** 2)
    return penalty


l2_strength = .1
for e in range(2):
    for i, (data, label) in enumerate(train_data):
        label_one_hot = nd.one_hot(label, num_outputs)
        with autograd.record():
            output = net(data) if False else softmax(nd.dot(data, W) + b)
            loss = nd.sum(cross_entropy(output, label_one_hot)) + l2_strength * l2_penalty(params)
        loss.backward()
        SGD(params, .01)
    print('epoch', e, r(loss), r(l2_penalty(params)))
net = gluon.nn.Sequential()
with net.name_scope():
    net.add(gluon.nn.Dense(1))
net.collect_params().initialize(mx.init.Normal(sigma=1.))
net(Xb[:1])
for wd in (0.0, 0.5):
    net.collect_params().initialize(mx.init.Constant(0.2), force_reinit=True)
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.05, 'wd': wd})
    for e in range(2):
        for data, label in train:
            with autograd.record():
                loss = gluon.loss.L2Loss()(net(data), label)
            loss.backward()
            trainer.step(8)
    print('wd', wd, r(net[0].weight.data()), r(net[0].bias.data()))
print(net)

print('== perceptron')
w = nd.zeros(shape=(2))
b = nd.zeros(shape=(1))
points = nd.array([[1, 2], [2, 3], [-1, -1], [-2, 0.5], [3, -1], [0.5, 2.5]])
labels = nd.array([1, 1, -1, -1, 1, 1])


def perceptron(w, b, x, y):
    if (y * (nd.dot(w, x) + b)).asscalar() <= 0:
        w += y * x
        b += y
        return 1
    else:
        return 0


for epoch in range(3):
    updates = sum(perceptron(w, b, x, y) for x, y in zip(points, labels))
    print(epoch, updates, r(w), r(b))

print('== losses')
pred = nd.array([[0.3, -1.0, 2.0], [1.5, 0.2, -0.4]])
lab = nd.array([[0.0, -1.0, 1.0], [1.0, 1.0, 0.0]])
for loss in (gluon.loss.L1Loss(), gluon.loss.L2Loss(), gluon.loss.HuberLoss(rho=0.5),
             gluon.loss.HingeLoss(), gluon.loss.SquaredHingeLoss(), gluon.loss.LogisticLoss(),
             gluon.loss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=False)):
    print(loss.__class__.__name__, r(loss(pred, lab)))
print(r(gluon.loss.SoftmaxCrossEntropyLoss()(pred, nd.array([2, 0]))))
print(r(gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)(pred, nd.softmax(lab))))
print(r(gluon.loss.KLDivLoss()(nd.log_softmax(pred), nd.softmax(lab))))
attempt(lambda: gluon.loss.L2Loss()(pred, nd.ones((3, 2))))
