"""MXNet 1.9's crash course steps 2-6 in their nd form (create a network, autograd, train, predict,
use several devices) with tiny synthetic FashionMNIST-shaped data in place of the download, fixed
weights in place of random initialisation, and cpu(0)/cpu(1) in place of the GPUs."""
import math
import os
import tempfile
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon, init
from mxnet.gluon import nn
from mxnet.gluon.data.vision import transforms


def fix(net):
    """Deterministic weights: each parameter gets sin(arange) * 0.1 (biases 0.01 * arange)."""
    for name, p in sorted(net.collect_params().items()):
        n = int(np.prod(p.shape))
        scale = 0.01 if name.endswith('bias') else 0.1
        p.set_data(nd.array(np.sin(np.arange(n) * 0.7 + 0.3).reshape(p.shape) * scale))


def r(x, d=4):
    return np.round(x.asnumpy(), d).tolist()


print('== step 2: create a network')
layer = nn.Dense(2)
print(layer)
layer.initialize()
x = nd.random.uniform(-1, 1, (3, 4))
print(layer(x).shape)
print(layer, layer.weight.shape, layer.weight.data().shape)
w = layer.weight.data()
print(float(w.abs().max().asscalar()) <= 0.07)
fix(layer)
x = nd.array([[0.1, -0.2, 0.3, -0.4], [0.5, 0.6, -0.7, 0.8], [0, 1, 0, -1]])
print(r(layer(x)))
for in_units in (0, 4):
    for hybridize in (False, True):
        dense = nn.Dense(2, in_units=in_units)
        dense.initialize()
        if hybridize:
            dense.hybridize()
        try:
            dense(nd.ones((1, 4)), nd.ones(2))
        except Exception as err:
            print('extra input', in_units, hybridize, type(err).__name__)
        print(dense(nd.ones((1, 4))).shape)

net = nn.Sequential()
with net.name_scope():
    net.add(nn.Conv2D(channels=6, kernel_size=5, activation='relu'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=3, activation='relu'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Flatten(),
            nn.Dense(120, activation="relu"),
            nn.Dense(84, activation="relu"),
            nn.Dense(10))
print(net)
net.initialize()
x = nd.random.uniform(shape=(4, 1, 28, 28))
y = net(x)
print(y.shape)
print(net)
print((net[0].weight.data().shape, net[5].bias.data().shape))
print(sorted(net.collect_params().keys()))
fix(net)
x = nd.array(np.cos(np.arange(2 * 28 * 28)).reshape(2, 1, 28, 28))
print(r(net(x), 3))


class MixMLP(nn.Block):
    def __init__(self, **kwargs):
        super(MixMLP, self).__init__(**kwargs)
        with self.name_scope():
            self.blk = nn.Sequential()
            self.blk.add(nn.Dense(3, activation='relu'),
                         nn.Dense(4, activation='relu'))
            self.dense = nn.Dense(5)

    def forward(self, x):
        y = nd.relu(self.blk(x))
        print(y.shape, y.context)
        return self.dense(y)


net = MixMLP()
print(net)
net.initialize()
x = nd.random.uniform(shape=(2, 2))
print(net(x).shape)
print(net.blk[1].weight.data().shape)
print(sorted(net.collect_params().keys()))
fix(net)
print(r(net(nd.array([[1, 2], [-1, 0.5]]))))

print('== step 3: autograd')
x = nd.array([[1, 2], [3, 4]])
x.attach_grad()
with autograd.record():
    y = 2 * x * x
y.backward()
print(x.grad)
print(x.grad == 4 * x)


def f(a):
    b = a * 2
    while b.norm().asscalar() < 1000:
        b = b * 2
    if b.sum().asscalar() >= 0:
        c = b[0]
    else:
        c = b[1]
    return c


for vals in ([0.3, 0.8], [-0.5, 0.25]):
    a = nd.array(vals)
    a.attach_grad()
    with autograd.record():
        c = f(a)
    c.backward()
    print(c, a.grad, a.grad == c / a)

print('== step 4: train')
rng = np.random.RandomState(0)
images = rng.randint(0, 256, size=(40, 28, 28, 1)).astype('uint8')
labels = (images.reshape(40, -1).mean(axis=1) > 127).astype('int32') + (images[:, 0, 0, 0] > 127) * 2
mnist_train = gluon.data.ArrayDataset(nd.array(images, dtype='uint8'), nd.array(labels, dtype='int32'))
X, y = mnist_train[0]
print('X shape: ', X.shape, 'X dtype', X.dtype, 'y:', y)
text_labels = ['t-shirt', 'trouser', 'pullover', 'dress', 'coat',
               'sandal', 'shirt', 'sneaker', 'bag', 'ankle boot']
X, y = mnist_train[0:4]
print(X.shape, y, [text_labels[int(i)] for i in y])
transformer = transforms.Compose([transforms.ToTensor(), transforms.Normalize(0.13, 0.31)])
mnist_train = mnist_train.transform_first(transformer)
batch_size = 8
train_data = gluon.data.DataLoader(mnist_train, batch_size=batch_size, shuffle=False, num_workers=0)
for data, label in train_data:
    print(data.shape, data.dtype, label.shape, label.dtype)
    print(round(float(data.mean().asscalar()), 4), label)
    break
mnist_valid = gluon.data.ArrayDataset(nd.array(images[:16], dtype='uint8'), nd.array(labels[:16], dtype='int32'))
valid_data = gluon.data.DataLoader(mnist_valid.transform_first(transformer), batch_size=batch_size, num_workers=0)
net = nn.Sequential()
net.add(nn.Conv2D(channels=6, kernel_size=5, activation='relu'),
        nn.MaxPool2D(pool_size=2, strides=2),
        nn.Conv2D(channels=16, kernel_size=3, activation='relu'),
        nn.MaxPool2D(pool_size=2, strides=2),
        nn.Flatten(),
        nn.Dense(120, activation="relu"),
        nn.Dense(84, activation="relu"),
        nn.Dense(10))
net.initialize(init=init.Xavier())
net(nd.zeros((1, 1, 28, 28)))
fix(net)
softmax_cross_entropy = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})


def acc(output, label):
    return (output.argmax(axis=1) == label.astype('float32')).mean().asscalar()


for epoch in range(2):
    train_loss, train_acc, valid_acc = 0., 0., 0.
    for data, label in train_data:
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label)
        loss.backward()
        trainer.step(batch_size)
        train_loss += loss.mean().asscalar()
        train_acc += acc(output, label)
    for data, label in valid_data:
        valid_acc += acc(net(data), label)
    print("Epoch %d: loss %.3f, train acc %.3f, test acc %.3f" % (
        epoch, train_loss / len(train_data), train_acc / len(train_data), valid_acc / len(valid_data)))
tmp = tempfile.mkdtemp()
net.save_parameters(os.path.join(tmp, 'net.params'))
print(sorted(os.listdir(tmp)))

print('== step 5: predict')
net2 = nn.Sequential()
net2.add(nn.Conv2D(channels=6, kernel_size=5, activation='relu'),
         nn.MaxPool2D(pool_size=2, strides=2),
         nn.Conv2D(channels=16, kernel_size=3, activation='relu'),
         nn.MaxPool2D(pool_size=2, strides=2),
         nn.Flatten(),
         nn.Dense(120, activation="relu"),
         nn.Dense(84, activation="relu"),
         nn.Dense(10))
net2.load_parameters(os.path.join(tmp, 'net.params'))
X, y = mnist_valid[0:6]
preds = []
for x in X:
    x = transformer(x).expand_dims(axis=0)
    pred = net2(x).argmax(axis=1)
    preds.append(pred.astype('int32').asscalar())
print(preds, y)
print([text_labels[i] for i in preds])
same = [int(net(transformer(x).expand_dims(axis=0)).argmax(axis=1).asscalar()) for x in X]
print(same == preds)
try:
    net2.load_parameters(os.path.join(tmp, 'missing.params'))
except Exception as err:
    print('missing file', type(err).__name__)
net3 = nn.Sequential()
net3.add(nn.Dense(10))
try:
    net3.load_parameters(os.path.join(tmp, 'net.params'))
except Exception as err:
    print('wrong network', type(err).__name__)

print('== step 6: use GPUs (two cpu devices)')
print(mx.context.num_gpus())
devices = [mx.cpu(0), mx.cpu(1)]
x = nd.ones((3, 4), ctx=devices[1])
print(x)
print(x.copyto(mx.cpu(0)).context, x.as_in_context(mx.cpu(1)) is x)
net = nn.Sequential()
net.add(nn.Conv2D(channels=6, kernel_size=5, activation='relu'),
        nn.MaxPool2D(pool_size=2, strides=2),
        nn.Conv2D(channels=16, kernel_size=3, activation='relu'),
        nn.MaxPool2D(pool_size=2, strides=2),
        nn.Flatten(),
        nn.Dense(120, activation="relu"),
        nn.Dense(84, activation="relu"),
        nn.Dense(10))
net.load_parameters(os.path.join(tmp, 'net.params'), ctx=devices[1])
x = nd.array(images[:2].transpose(0, 3, 1, 2) / 255.0, ctx=devices[1])
out = net(x)
print(out.context, out.shape, net[0].weight.list_ctx())
net.collect_params().initialize(force_reinit=True, ctx=devices)
print(net[0].weight.list_ctx(), net[7].weight.shape)
net(nd.zeros((1, 1, 28, 28), ctx=devices[0]))
fix(net)
print([p.list_ctx() for p in list(net.collect_params().values())[:2]])
data = nd.array(images[:8].transpose(0, 3, 1, 2) / 255.0)
label = nd.array(labels[:8])
data_list = gluon.utils.split_and_load(data, devices)
label_list = gluon.utils.split_and_load(label, devices)
print([d.context for d in data_list], [d.shape for d in data_list])
print(gluon.utils.split_data(data, 2)[1].shape)
try:
    gluon.utils.split_data(nd.ones((3, 2)), 2)
except Exception as err:
    print('uneven split', type(err).__name__)
print([d.shape for d in gluon.utils.split_data(nd.ones((3, 2)), 2, even_split=False)])
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
for step in range(2):
    with autograd.record():
        losses = [softmax_cross_entropy(net(X), Y) for X, Y in zip(data_list, label_list)]
    for l in losses:
        l.backward()
    trainer.step(batch_size)
    print(step, [round(float(l.mean().asscalar()), 4) for l in losses])
w0 = net[0].weight.data(devices[0])
w1 = net[0].weight.data(devices[1])
print(w0.context, w1.context, float((w0 - w1.as_in_context(devices[0])).abs().max().asscalar()))
print(round(float(net[7].bias.data(devices[1]).sum().asscalar()), 4))
