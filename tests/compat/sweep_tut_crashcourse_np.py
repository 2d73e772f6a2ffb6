"""MXNet 1.9's crash course steps 2-6 in their NumPy-front-end form (npx.set_np(): create a network,
autograd, train, predict, use several devices), with tiny synthetic FashionMNIST-shaped data, fixed
weights in place of random initialisation and cpu(0)/cpu(1) in place of the GPUs."""
import os
import tempfile
import numpy as onp
import mxnet as mx
from mxnet import np, npx, autograd, gluon, init
from mxnet.gluon import nn
from mxnet.gluon.data.vision import transforms
npx.set_np()


def fix(net):
    for name, p in sorted(net.collect_params().items()):
        n = int(onp.prod(p.shape))
        scale = 0.01 if name.endswith('bias') else 0.1
        p.set_data(np.array(onp.sin(onp.arange(n) * 0.7 + 0.3).reshape(p.shape) * scale))


def r(x, d=4):
    return onp.round(x.asnumpy(), d).tolist()


def lenet():
    net = nn.Sequential()
    net.add(nn.Conv2D(channels=6, kernel_size=5, activation='relu'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=3, activation='relu'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Dense(120, activation="relu"),
            nn.Dense(84, activation="relu"),
            nn.Dense(10))
    return net


print('== step 2: create a network')
layer = nn.Dense(2)
print(layer)
layer.initialize()
x = np.random.uniform(-1, 1, (3, 4))
out = layer(x)
print(type(out).__name__, out.shape, layer)
print(type(layer.weight.data()).__name__, layer.weight.data().shape)
fix(layer)
print(repr(layer(np.array([[0.1, -0.2, 0.3, -0.4], [0.5, 0.6, -0.7, 0.8], [0, 1, 0, -1]])).round(4)))
net = lenet()
print(net)
net.initialize()
y = net(np.random.uniform(size=(4, 1, 28, 28)))
print(y.shape)
print((net[0].weight.data().shape, net[5].bias.data().shape))
print(net)


class MixMLP(nn.Block):
    def __init__(self, **kwargs):
        super(MixMLP, self).__init__(**kwargs)
        self.blk = nn.Sequential()
        self.blk.add(nn.Dense(3, activation='relu'),
                     nn.Dense(4, activation='relu'))
        self.dense = nn.Dense(5)

    def forward(self, x):
        y = npx.relu(self.blk(x))
        print(type(y).__name__, y.shape)
        return self.dense(y)


net = MixMLP()
print(net)
net.initialize()
net(np.random.uniform(size=(2, 2)))
print(net.blk[1].weight.data().shape)
fix(net)
print(repr(net(np.array([[1, 2], [-1, 0.5]])).round(4)))

print('== step 3: autograd')
x = np.array([[1, 2], [3, 4]])
print(repr(x))
x.attach_grad()
with autograd.record():
    y = 2 * x * x
y.backward()
print(repr(x.grad))


def f(a):
    b = a * 2
    while np.abs(b).sum() < 1000:
        b = b * 2
    if b.sum() >= 0:
        c = b[0]
    else:
        c = b[1]
    return c


for vals in ([0.3, 0.8], [-0.5, 0.25]):
    a = np.array(vals)
    a.attach_grad()
    with autograd.record():
        c = f(a)
    c.backward()
    print(repr(c), repr(a.grad), repr(a.grad == c / a))

print('== step 4: train')
rng = onp.random.RandomState(0)
images = rng.randint(0, 256, size=(40, 28, 28, 1)).astype('uint8')
labels = (images.reshape(40, -1).mean(axis=1) > 127).astype('int32') + (images[:, 0, 0, 0] > 127) * 2
mnist_train = gluon.data.ArrayDataset(np.array(images, dtype='uint8'), np.array(labels, dtype='int32'))
X, y = mnist_train[0]
print('X shape: ', X.shape, 'X dtype', X.dtype, 'y:', y, type(X).__name__)
transformer = transforms.Compose([transforms.ToTensor(), transforms.Normalize(0.13, 0.31)])
batch_size = 8
train_data = gluon.data.DataLoader(mnist_train.transform_first(transformer), batch_size=batch_size,
                                   shuffle=False, num_workers=0)
for data, label in train_data:
    print(type(data).__name__, data.shape, data.dtype, label.shape, label.dtype)
    print(round(float(data.mean()), 4), repr(label))
    break
mnist_valid = gluon.data.ArrayDataset(np.array(images[:16], dtype='uint8'), np.array(labels[:16], dtype='int32'))
valid_data = gluon.data.DataLoader(mnist_valid.transform_first(transformer), batch_size=batch_size, num_workers=0)
net = lenet()
net.initialize(init=init.Xavier())
net(np.zeros((1, 1, 28, 28)))
fix(net)
softmax_cross_entropy = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})


def acc(output, label):
    return (output.argmax(axis=1).astype('float32') == label.astype('float32')).mean()


print(repr(acc(np.array([[0.1, 0.9], [0.8, 0.2]]), np.array([1, 1]))))
for epoch in range(2):
    train_loss, train_acc, valid_acc = 0., 0., 0.
    for data, label in train_data:
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label)
        loss.backward()
        trainer.step(batch_size)
        train_loss += loss.mean()
        train_acc += acc(output, label)
    for data, label in valid_data:
        valid_acc += acc(net(data), label)
    print("Epoch %d: loss %.3f, train acc %.3f, test acc %.3f" % (
        epoch, train_loss / len(train_data), train_acc / len(train_data), valid_acc / len(valid_data)))
    print(type(train_loss).__name__, train_loss.shape)
tmp = tempfile.mkdtemp()
net.save_parameters(os.path.join(tmp, 'net.params'))

print('== step 5: predict')
net2 = lenet()
net2.load_parameters(os.path.join(tmp, 'net.params'))
X, y = mnist_valid[0:6]
preds = []
for x in X:
    x = np.expand_dims(transformer(x), axis=0)
    pred = net2(x).argmax(axis=1)
    preds.append(int(pred.astype('int32').item()))
print(preds, repr(y))
print(repr(net2(transformer(X[0]).reshape(1, 1, 28, 28)).round(3)))

print('== step 6: use GPUs (two cpu devices)')
print(npx.num_gpus())
devices = [npx.cpu(0), npx.cpu(1)]
x = np.ones((3, 4), ctx=devices[1])
print(repr(x), x.context)
net = lenet()
net.load_parameters(os.path.join(tmp, 'net.params'), ctx=devices[1])
x = np.array(images[:2].transpose(0, 3, 1, 2) / 255.0, ctx=devices[1])
print(x.dtype)
try:
    net(x)
except Exception as err:
    print('float64 data', type(err).__name__)
for hybridize in (False, True):
    fresh = lenet()
    fresh.initialize()
    if hybridize:
        fresh.hybridize()
    try:
        fresh(x)
    except Exception as err:
        print('float64 data, deferred init', hybridize, type(err).__name__)
    print([p.shape for p in fresh.collect_params().values()][-2:])
x = x.astype('float32')
out = net(x)
print(out.context, out.shape, repr(out.round(3)))
net.collect_params().initialize(force_reinit=True, ctx=devices)
net(np.zeros((1, 1, 28, 28), ctx=devices[0]))
fix(net)
data = np.array(images[:8].transpose(0, 3, 1, 2) / 255.0, dtype='float32')
label = np.array(labels[:8])
data_list = gluon.utils.split_and_load(data, devices)
label_list = gluon.utils.split_and_load(label, devices)
print([type(d).__name__ for d in data_list], [d.context for d in data_list], [d.shape for d in data_list])
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
for step in range(2):
    with autograd.record():
        losses = [softmax_cross_entropy(net(X), Y) for X, Y in zip(data_list, label_list)]
    for l in losses:
        l.backward()
    trainer.step(batch_size)
    print(step, [round(float(l.mean()), 4) for l in losses])
w0 = net[0].weight.data(devices[0])
w1 = net[0].weight.data(devices[1])
print(w0.context, w1.context, float(np.abs(w0 - w1.as_in_ctx(devices[0])).max()))
