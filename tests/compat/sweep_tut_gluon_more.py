"""MXNet 1.9's Gluon tutorials: blocks/customop, multi_gpu (on CPU contexts),
gluon_from_experiment_to_deployment (fine-tuning a model-zoo network, export, import) and
gotchas_numpy_in_mxnet, on tiny fixed data."""
import os
import tempfile
import warnings

import numpy as np
import mxnet as mx
from mxnet import gluon, nd, autograd, init
from mxnet.gluon import nn

warnings.simplefilter('ignore')
tmp = tempfile.mkdtemp()


def r(x, k=4):
    return (x.asnumpy().round(k) + 0).tolist()


# ---- blocks/customop.md
class Sigmoid(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        y = 1.0 / (1.0 + np.exp(-x))
        self.assign(out_data[0], req[0], mx.nd.array(y))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        y = out_data[0].asnumpy()
        dy = out_grad[0].asnumpy()
        dx = dy * (1.0 - y) * y
        self.assign(in_grad[0], req[0], mx.nd.array(dx))


@mx.operator.register("tut_sigmoid")
class SigmoidProp(mx.operator.CustomOpProp):
    def __init__(self):
        super(SigmoidProp, self).__init__(True)

    def list_arguments(self):
        return ['data']

    def list_outputs(self):
        return ['output']

    def infer_shape(self, in_shapes):
        data_shape = in_shapes[0]
        return (data_shape,), (data_shape,), ()

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return Sigmoid()


x = mx.nd.array([0, 1, 2, 3])
x.attach_grad()
with autograd.record():
    y = mx.nd.Custom(x, op_type='tut_sigmoid')
print(r(y))
y.backward()
print(r(x.grad))
with autograd.record():
    y = mx.nd.Custom(x, op_type='tut_sigmoid')
y.backward(mx.nd.array([1, 2, 3, 4]))
print(r(x.grad))


class DenseOp(mx.operator.CustomOp):
    def __init__(self, bias):
        self._bias = bias

    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        weight = in_data[1].asnumpy()
        y = x.dot(weight.T) + self._bias
        self.assign(out_data[0], req[0], mx.nd.array(y))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        x = in_data[0].asnumpy()
        w = in_data[1].asnumpy()
        dy = out_grad[0].asnumpy()
        self.assign(in_grad[0], req[0], mx.nd.array(dy.dot(w)))
        self.assign(in_grad[1], req[1], mx.nd.array(dy.T.dot(x)))


@mx.operator.register("tut_dense")
class DenseProp(mx.operator.CustomOpProp):
    def __init__(self, bias):
        super(DenseProp, self).__init__(True)
        self._bias = float(bias)

    def list_arguments(self):
        return ['data', 'weight']

    def list_outputs(self):
        return ['output']

    def infer_shape(self, in_shapes):
        data_shape = in_shapes[0]
        weight_shape = in_shapes[1]
        output_shape = (data_shape[0], weight_shape[0])
        return (data_shape, weight_shape), (output_shape,), ()

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return DenseOp(self._bias)


class DenseBlock(mx.gluon.Block):
    def __init__(self, in_channels, channels, bias, **kwargs):
        super(DenseBlock, self).__init__(**kwargs)
        self._bias = bias
        self.weight = self.params.get('weight', shape=(channels, in_channels))

    def forward(self, x):
        ctx = x.context
        return mx.nd.Custom(x, self.weight.data(ctx), bias=self._bias, op_type='tut_dense')


dense = DenseBlock(3, 5, 0.1)
dense.initialize(init.Constant(0.5))
x = mx.nd.array(np.linspace(0, 1, 12).reshape(4, 3))
y = dense(x)
print(r(y))
print(dense.collect_params())
x.attach_grad()
with autograd.record():
    y = dense(x)
y.backward()
print(r(x.grad), r(dense.weight.grad()))


class HybridCustom(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(HybridCustom, self).__init__(**kwargs)
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(2, 3), init=init.Constant(0.25))

    def hybrid_forward(self, F, x, weight):
        return F.Custom(F.Custom(x, weight, bias=0.5, op_type='tut_dense'), op_type='tut_sigmoid')


hc = HybridCustom()
hc.initialize()
print(r(hc(x)))
hc.hybridize()
print(r(hc(x)))
with autograd.record():
    out = hc(x)
out.backward()
print(r(hc.weight.grad()))
s = mx.sym.Custom(mx.sym.var('data'), op_type='tut_sigmoid', name='sig')
print(s.list_arguments(), s.list_outputs(), s.infer_shape(data=(2, 3))[1])
exe = s.simple_bind(mx.cpu(), data=(2, 2))
exe.forward(is_train=True, data=nd.array([[0, 1], [-1, 2]]))
exe.backward(nd.ones((2, 2)))
print(r(exe.outputs[0]), r(exe.grad_dict['data']))

# ---- multi_gpu.md on CPU contexts: split_and_load, one forward per context, summed gradients
ctx = [mx.cpu(0), mx.cpu(1)]
net = nn.HybridSequential()
net.add(nn.Dense(4, activation='relu'), nn.Dense(2))
net.initialize(init.Xavier(), ctx=ctx)
net(nd.ones((1, 3), ctx=ctx[0]))
for k, (name, p) in enumerate(sorted(net.collect_params().items())):
    p.set_data(nd.array(np.cos(np.arange(int(np.prod(p.shape))) + k).reshape(p.shape) * 0.4))
print([str(c) for c in net[0].weight.list_ctx()])
data = nd.array(np.linspace(-1, 1, 18).reshape(6, 3))
label = nd.array([0, 1, 1, 0, 1, 0])
parts = gluon.utils.split_and_load(data, ctx_list=ctx, batch_axis=0)
lparts = gluon.utils.split_and_load(label, ctx_list=ctx)
print([(p.shape, str(p.context)) for p in parts])
print([p.shape for p in gluon.utils.split_data(data, 4, even_split=False)])
try:
    gluon.utils.split_data(data, 4)
except Exception as e:
    print(type(e).__name__)
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
with autograd.record():
    losses = [loss_fn(net(X), Y) for X, Y in zip(parts, lparts)]
for l in losses:
    l.backward()
print([r(l, 3) for l in losses])
print(r(net[1].bias.grad(ctx[0]) + net[1].bias.grad(ctx[1]).as_in_context(ctx[0]), 4))
trainer.step(6)
print(r(net[1].bias.data(ctx[0])), r(net[1].bias.data(ctx[1])))
print(r(net[0].weight.data(ctx[1])[0]))
print(gluon.utils.clip_global_norm([nd.array([3.0, 4.0]), nd.array([12.0])], 6.5) == 13.0)

# ---- gluon_from_experiment_to_deployment.md: fine-tune a model-zoo network, export, import
classes = 3
finetune_net = gluon.model_zoo.vision.mobilenet0_25(classes=10)
finetune_net.initialize(init.Xavier())
with finetune_net.name_scope():
    finetune_net.output = nn.Dense(classes)
finetune_net.output.initialize(init.Xavier())
finetune_net.output.collect_params().setattr('lr_mult', 10)
print(finetune_net.output, finetune_net.output.prefix)
print([p.lr_mult for p in finetune_net.output.collect_params().values()])
print(len(finetune_net.features), finetune_net.features[0])
imgs = nd.array(np.cos(np.arange(2 * 3 * 32 * 32) * 0.01).reshape(2, 3, 32, 32))
finetune_net.hybridize()
out = finetune_net(imgs)
print(out.shape)
# train the new output layer on the frozen features
finetune_net.features.collect_params().setattr('grad_req', 'null')
feats = finetune_net.features(imgs)
print(feats.shape)
trainer = gluon.Trainer(finetune_net.output.collect_params(), 'sgd',
                        {'learning_rate': 0.001, 'momentum': 0.9, 'wd': 0.0001})
for p in finetune_net.output.collect_params().values():
    p.set_data(nd.array(np.sin(np.arange(p.data().size)).reshape(p.shape) * 0.1))
before = finetune_net.output.bias.data().copy()
with autograd.record():
    l = loss_fn(finetune_net.output(feats), nd.array([0, 2]))
l.backward()
trainer.step(2)
print(l.shape, trainer._optimizer.lr_mult.get(0), trainer._optimizer._get_lr(0) if hasattr(trainer._optimizer, '_get_lr') else '',
      np.abs((finetune_net.output.bias.data() - before).asnumpy()).max() > 0)
finetune_net.export(os.path.join(tmp, 'flower-recognition'), epoch=2)
print(sorted(os.listdir(tmp)))
deployed = gluon.nn.SymbolBlock.imports(os.path.join(tmp, 'flower-recognition-symbol.json'), ['data'],
                                        os.path.join(tmp, 'flower-recognition-0002.params'))
print(np.abs((deployed(imgs) - finetune_net(imgs)).asnumpy()).max() < 1e-4, deployed(imgs).shape)
sym, arg_params, aux_params = mx.model.load_checkpoint(os.path.join(tmp, 'flower-recognition'), 2)
print(len(arg_params), len(aux_params), sym.list_outputs())

# ---- gotchas_numpy_in_mxnet.md
a = mx.nd.array([1, 2, 3])
print(a.dtype, mx.nd.array(np.array([1, 2, 3])).dtype, mx.nd.array(np.array([1.5], dtype='float64')).dtype)
print(mx.nd.array([1, 2], dtype='int32').dtype, mx.nd.array([1, 2]).asnumpy().dtype)
b = mx.nd.array(np.arange(6).reshape(2, 3))
print(b.sum(), b.sum().shape, b[1, 2], b[1, 2].shape)
print(b.asnumpy().sum(), type(b.asscalar() if b.size == 1 else b.sum().asscalar()).__name__)
try:
    mx.nd.array([1, 2]).asscalar()
except Exception as e:
    print(type(e).__name__)
c = b.reshape((3, 2))
c[0, 0] = 100
print(r(b))
d = b.copy()
d[:] = 7
print(r(b[0]), r(d[0]))
print(r(mx.nd.pad(nd.ones((1, 1, 2, 2)), mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 1, 1), constant_value=0)[0, 0]))
try:
    mx.nd.pad(nd.ones((2, 2)), mode='constant', pad_width=(1, 1, 1, 1))
except Exception as e:
    print(type(e).__name__)
e = nd.ones((2, 3))
e += 1
e *= nd.array([1, 2, 3])
print(r(e), (e > 2).dtype, r(e > 2))
print(r(nd.dot(e, e.T)), r(nd.batch_dot(e.reshape((1, 2, 3)), e.reshape((1, 3, 2)))))
mx.nd.waitall()
print(e.context, e.stype, e.handle is not None)
np_y = np.full_like(a=np.arange(6, dtype=int), fill_value=10)
nd_y = nd.ones(shape=(6,)) * 10
print(np.array_equal(np_y, nd_y.asnumpy()))


def pad_array(data, max_length):
    data_expanded = data.reshape(1, 1, 1, data.shape[0])
    data_padded = nd.pad(data_expanded, mode='constant',
                         pad_width=[0, 0, 0, 0, 0, 0, 0, max_length - data.shape[0]], constant_value=0)
    return data_padded.reshape(max_length)


print(pad_array(nd.array([1, 2, 3]), max_length=10))
print(nd.split(nd.arange(6).reshape((2, 3)), num_outputs=3, axis=1)[2], nd.ravel_multi_index(nd.array([[1, 0], [2, 1]]), shape=(3, 4)))


class LossBuffer(object):
    def __init__(self):
        self._loss = None

    def new_loss(self, loss):
        ret = self._loss
        self._loss = loss
        return ret

    @property
    def loss(self):
        return self._loss


net = gluon.nn.Dense(10, weight_initializer=init.Constant(0.01))
ce = gluon.loss.SoftmaxCELoss()
net.initialize()
data = nd.array(np.cos(np.arange(64 * 5)).reshape(64, 5))
label = nd.array(np.arange(64) % 10, dtype='int32')
train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(data, label), batch_size=16, shuffle=False, num_workers=2)
trainer = gluon.Trainer(net.collect_params(), optimizer='sgd')
print(trainer.learning_rate)
loss_buffer = LossBuffer()
for data, label in train_data:
    with autograd.record():
        out = net(data)
        prev_loss = loss_buffer.new_loss(ce(out, label))
    loss_buffer.loss.backward()
    trainer.step(data.shape[0])
    if prev_loss is not None:
        print("Loss: {:.4f}".format(np.mean(prev_loss.asnumpy())), label.dtype)
