"""Generate the Gluon reference files under tests/data/mxnet_ref/gluon/ with real MXNet 1.9.

Run with the reference interpreter (never from the tests):

    /tmp/mxref/bin/python tests/data/mxnet_ref/make_gluon_data.py

It writes, all small:

* ``convnet-symbol.json`` / ``convnet-0000.params``: a hybridized Conv/BatchNorm/Pool/Dense
  net exported by MXNet, ``convnet-structural.params`` (save_parameters) and
  ``convnet-prefixed.params`` (collect_params().save) of the same values, and
  ``convnet_io.params``: its input ``x``, the prediction-mode output ``y_pred``, the
  training-mode output ``y_train``, the gradients ``grad:<param>`` of ``sum(y_train)`` and
  the running statistics ``after:<param>`` after that training-mode call.
* ``twoin-symbol.json`` / ``twoin-0000.params`` / ``twoin_io.params``: a block with two
  inputs and two outputs.
* ``rnn.params``: LSTM/GRU/RNN layers (and an LSTMCell unrolled) with their parameters,
  inputs, states and outputs.
* ``expected.json``: parameter names, structural names and repr strings of several nets.
"""
import json
import os

import mxnet as mx
import numpy as np
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn, rnn

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gluon')


def path(name):
    return os.path.join(HERE, name)


def convnet():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, padding=1),
                nn.BatchNorm(),
                nn.Activation('relu'),
                nn.MaxPool2D(2),
                nn.Conv2D(6, 3, groups=2, activation='tanh'),
                nn.AvgPool2D(2, ceil_mode=True),
                nn.Flatten(),
                nn.Dense(8, activation='sigmoid'),
                nn.Dense(3))
    return net


def make_convnet():
    mx.random.seed(0)
    np.random.seed(0)
    with mx.name.NameManager():
        net = convnet()
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = nd.array(np.random.RandomState(1).uniform(-1, 1, (2, 3, 8, 8)).astype('float32'))
    for _ in range(2):  # move the running statistics away from 0 and 1
        with autograd.record():
            net(x * 2 + 0.5)
    net.export(path('convnet'))
    net.save_parameters(path('convnet-structural.params'))
    net.collect_params().save(path('convnet-prefixed.params'))
    io = {'x': x, 'y_pred': net(x)}
    with autograd.record():
        y = net(x)
    y.backward()
    io['y_train'] = y
    for name, p in net.collect_params().items():
        if p.grad_req != 'null':
            io['grad:' + name] = p.grad()
        else:
            io['after:' + name] = p.data()
    nd.save(path('convnet_io.params'), io)


class TwoIn(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.fa = nn.Dense(4)
            self.fb = nn.Dense(4, flatten=False)

    def hybrid_forward(self, F, a, b):
        ya = self.fa(a)
        yb = self.fb(b)
        return ya * F.sigmoid(yb), F.relu(ya)


def make_twoin():
    mx.random.seed(0)
    with mx.name.NameManager():
        net = TwoIn()
    net.initialize(mx.init.Normal(0.5))
    net.hybridize()
    rs = np.random.RandomState(2)
    a = nd.array(rs.uniform(-1, 1, (3, 5)).astype('float32'))
    b = nd.array(rs.uniform(-1, 1, (3, 2)).astype('float32'))
    y1, y2 = net(a, b)
    net.export(path('twoin'))
    nd.save(path('twoin_io.params'), {'a': a, 'b': b, 'y1': y1, 'y2': y2})


def make_rnn():
    mx.random.seed(0)
    rs = np.random.RandomState(3)
    out = {}
    layers = {
        'lstm': rnn.LSTM(5, num_layers=2, bidirectional=True, input_size=3, prefix='lstm_'),
        'gru': rnn.GRU(4, num_layers=1, layout='NTC', input_size=3, prefix='gru_'),
        'rnn': rnn.RNN(4, num_layers=2, activation='tanh', input_size=3, prefix='rnn_'),
    }
    for key, layer in layers.items():
        layer.initialize(mx.init.Uniform(0.5))
        layout_ntc = key == 'gru'
        x = nd.array(rs.uniform(-1, 1, (2, 4, 3) if layout_ntc else (4, 2, 3)).astype('float32'))
        states = layer.begin_state(batch_size=2)
        states = [nd.array(rs.uniform(-1, 1, s.shape).astype('float32')) for s in states]
        y, new_states = layer(x, states)
        out[key + ':x'] = x
        out[key + ':y'] = y
        for i, s in enumerate(states):
            out['%s:state%d' % (key, i)] = s
        for i, s in enumerate(new_states):
            out['%s:new_state%d' % (key, i)] = s
        for name, p in layer.collect_params().items():
            out['%s:param:%s' % (key, name)] = p.data()
    cell = rnn.LSTMCell(4, input_size=3, prefix='cell_')
    cell.initialize(mx.init.Uniform(0.5))
    x = nd.array(rs.uniform(-1, 1, (2, 3, 3)).astype('float32'))
    outputs, states = cell.unroll(3, x, layout='NTC', merge_outputs=True)
    out['cell:x'] = x
    out['cell:y'] = outputs
    out['cell:h'] = states[0]
    out['cell:c'] = states[1]
    for name, p in cell.collect_params().items():
        out['cell:param:%s' % name] = p.data()
    nd.save(path('rnn.params'), out)


LAYER_CASES = {
    # name: (constructor source, input shape, integer input)
    'dense_relu': ('nn.Dense(5, activation="relu")', (3, 2, 4), False),
    'dense_noflat': ('nn.Dense(4, flatten=False, use_bias=False)', (2, 3, 5), False),
    'conv1d': ('nn.Conv1D(4, 3, strides=2, padding=1, groups=2)', (2, 4, 9), False),
    'conv2d': ('nn.Conv2D(6, (3, 2), strides=(2, 1), padding=(1, 0), dilation=(1, 2), '
               'activation="tanh")', (2, 3, 7, 8), False),
    'conv3d': ('nn.Conv3D(2, 2, padding=1)', (1, 2, 4, 4, 3), False),
    'conv1d_t': ('nn.Conv1DTranspose(3, 3, strides=2, padding=1, output_padding=1)', (2, 2, 5), False),
    'conv2d_t': ('nn.Conv2DTranspose(4, 3, strides=2, padding=1, output_padding=1, groups=2, in_channels=4)',
                 (2, 4, 4, 5), False),
    'conv3d_t': ('nn.Conv3DTranspose(2, 2, strides=2)', (1, 2, 3, 2, 2), False),
    'maxpool1d': ('nn.MaxPool1D(3, 2, 1)', (2, 3, 9), False),
    'maxpool2d': ('nn.MaxPool2D(3, 2, 1, ceil_mode=True)', (2, 2, 7, 7), False),
    'maxpool3d': ('nn.MaxPool3D(2)', (1, 2, 4, 4, 4), False),
    'avgpool1d': ('nn.AvgPool1D(2)', (2, 3, 8), False),
    'avgpool2d': ('nn.AvgPool2D(3, 2, 1, count_include_pad=False)', (2, 2, 6, 7), False),
    'avgpool3d': ('nn.AvgPool3D(2, ceil_mode=True)', (1, 2, 5, 4, 4), False),
    'gmaxpool1d': ('nn.GlobalMaxPool1D()', (2, 3, 5), False),
    'gmaxpool2d': ('nn.GlobalMaxPool2D()', (2, 3, 4, 5), False),
    'gmaxpool3d': ('nn.GlobalMaxPool3D()', (1, 2, 3, 4, 2), False),
    'gavgpool1d': ('nn.GlobalAvgPool1D()', (2, 3, 5), False),
    'gavgpool2d': ('nn.GlobalAvgPool2D()', (2, 3, 4, 5), False),
    'gavgpool3d': ('nn.GlobalAvgPool3D()', (1, 2, 3, 4, 2), False),
    'batchnorm': ('nn.BatchNorm()', (4, 3, 2, 2), False),
    'batchnorm_last': ('nn.BatchNorm(axis=-1, scale=False, momentum=0.7)', (4, 2, 3), False),
    'layernorm': ('nn.LayerNorm()', (3, 5), False),
    'layernorm_axis1': ('nn.LayerNorm(axis=1)', (2, 4, 3), False),
    'instancenorm': ('nn.InstanceNorm(scale=True)', (2, 3, 5), False),
    'groupnorm': ('nn.GroupNorm(num_groups=2)', (2, 4, 3, 2), False),
    'embedding': ('nn.Embedding(10, 4)', (2, 3), True),
    'flatten': ('nn.Flatten()', (2, 3, 4), False),
    'act_relu': ('nn.Activation("relu")', (2, 5), False),
    'act_sigmoid': ('nn.Activation("sigmoid")', (2, 5), False),
    'act_tanh': ('nn.Activation("tanh")', (2, 5), False),
    'act_softrelu': ('nn.Activation("softrelu")', (2, 5), False),
    'act_softsign': ('nn.Activation("softsign")', (2, 5), False),
    'leakyrelu': ('nn.LeakyReLU(0.1)', (2, 5), False),
    'prelu': ('nn.PReLU(in_channels=3)', (2, 3, 4), False),
    'elu': ('nn.ELU(0.5)', (2, 5), False),
    'selu': ('nn.SELU()', (2, 5), False),
    'gelu': ('nn.GELU()', (2, 5), False),
    'swish': ('nn.Swish(1.5)', (2, 5), False),
    'hybridlambda': ('nn.HybridLambda("tanh")', (2, 5), False),
}


def make_layers():
    """Every layer: parameters, input, training-mode output and gradients, prediction output."""
    out = {}
    rs = np.random.RandomState(7)
    for case, (source, shape, integer) in sorted(LAYER_CASES.items()):
        mx.random.seed(11)
        layer = eval(source)  # noqa: S307 - our own constant table
        layer.initialize(mx.init.Uniform(0.5))
        if integer:
            x = nd.array(rs.randint(0, 10, shape).astype('float32'))
        else:
            x = nd.array(rs.uniform(-1.5, 1.5, shape).astype('float32'))
        if not integer:
            x.attach_grad()
        layer(x)  # deferred initialisation happens here (prediction mode: no statistics change)
        params = layer._collect_params_with_prefix()
        for name, p in params.items():
            out['%s:param:%s' % (case, name)] = p.data().copy()
        with autograd.record():
            y = layer(x)
        dy = nd.array(rs.uniform(-1, 1, y.shape).astype('float32'))
        y.backward(dy)
        out[case + ':x'] = x
        out[case + ':y'] = y
        out[case + ':dy'] = dy
        if not integer:
            out[case + ':dx'] = x.grad
        for name, p in params.items():
            if p.grad_req != 'null':
                out['%s:grad:%s' % (case, name)] = p.grad()
            else:
                out['%s:after:%s' % (case, name)] = p.data()
        out[case + ':y_pred'] = layer(x)
    nd.save(path('layers.params'), out)


class Custom(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.body = nn.HybridSequential()
            self.body.add(nn.Dense(4), nn.Dense(2))
            self.scale = self.params.get('scale', shape=(2,))

    def hybrid_forward(self, F, x, scale):
        return F.broadcast_mul(self.body(x), scale)


def names(net):
    return {
        'params': list(net.collect_params().keys()),
        'shapes': [list(p.shape) for p in net.collect_params().values()],
        'structural': list(net._collect_params_with_prefix().keys()),
        'repr': repr(net),
        'prefix': net.prefix,
    }


def make_expected():
    expected = {}
    with mx.name.NameManager():
        net = nn.Sequential()
        with net.name_scope():
            net.add(nn.Conv2D(channels=20, kernel_size=5, activation='relu'),
                    nn.MaxPool2D(pool_size=2, strides=2),
                    nn.Conv2D(channels=50, kernel_size=5, activation='relu'),
                    nn.MaxPool2D(pool_size=2, strides=2),
                    nn.Flatten(),
                    nn.Dense(500, activation='relu'),
                    nn.Dense(10))
        expected['lenet'] = names(net)
    with mx.name.NameManager():
        net = nn.HybridSequential()  # children outside the name scope: global names
        net.add(nn.Dense(3), nn.Dense(4, in_units=3), nn.BatchNorm(in_channels=4), nn.Dense(5))
        expected['noscope'] = names(net)
    with mx.name.NameManager():
        net = Custom()
        expected['custom'] = names(net)
    with mx.name.NameManager():
        layers = [
            nn.Dense(10, activation='relu', in_units=4), nn.Dense(3, use_bias=False, flatten=False),
            nn.Conv1D(4, 3, padding=1, dilation=2, groups=2, use_bias=False, activation='tanh'),
            nn.Conv2D(8, (3, 2), strides=2, in_channels=4), nn.Conv3D(2, 1, layout='NDHWC'),
            nn.Conv1DTranspose(3, 2), nn.Conv2DTranspose(4, 3, strides=2, output_padding=1, in_channels=2),
            nn.Conv3DTranspose(2, 2, groups=2, in_channels=4),
            nn.MaxPool1D(), nn.MaxPool2D(3, 1, 1), nn.MaxPool3D(ceil_mode=True), nn.AvgPool1D(3),
            nn.AvgPool2D(), nn.AvgPool3D(count_include_pad=False), nn.GlobalMaxPool1D(),
            nn.GlobalMaxPool2D(), nn.GlobalMaxPool3D(), nn.GlobalAvgPool1D(), nn.GlobalAvgPool2D(),
            nn.GlobalAvgPool3D(), nn.BatchNorm(), nn.BatchNorm(axis=-1, momentum=0.5, scale=False,
                                                               in_channels=3),
            nn.LayerNorm(), nn.LayerNorm(axis=1, in_channels=5), nn.InstanceNorm(),
            nn.GroupNorm(num_groups=2), nn.Dropout(0.5), nn.Dropout(0.25, axes=(1,)),
            nn.Embedding(10, 4), nn.Flatten(), nn.Activation('sigmoid'), nn.LeakyReLU(0.1),
            nn.PReLU(), nn.ELU(), nn.SELU(), nn.Swish(), nn.GELU(), nn.Lambda('tanh'),
            nn.HybridLambda('relu'),
        ]
        expected['layers'] = [[type(layer).__name__, layer.prefix, repr(layer),
                               list(layer.collect_params().keys()),
                               [list(p.shape) for p in layer.collect_params().values()]]
                              for layer in layers]
    with mx.name.NameManager():
        cells = {
            'lstm': rnn.LSTM(6, num_layers=2, bidirectional=True),
            'gru': rnn.GRU(6, layout='NTC', input_size=3),
            'rnn': rnn.RNN(6, activation='relu', dropout=0.5),
            'lstmcell': rnn.LSTMCell(5, input_size=3),
            'grucell': rnn.GRUCell(5),
            'rnncell': rnn.RNNCell(5, activation='tanh', input_size=2),
        }
        seq = rnn.SequentialRNNCell()
        with seq.name_scope():
            seq.add(rnn.LSTMCell(4, input_size=3))
            seq.add(rnn.GRUCell(4, input_size=4))
        cells['sequential'] = seq
        bi = rnn.BidirectionalCell(rnn.LSTMCell(3, input_size=2, prefix='l_'),
                                   rnn.LSTMCell(3, input_size=2, prefix='r_'))
        cells['bidirectional'] = bi
        expected['rnn'] = {k: [v.prefix, repr(v), list(v.collect_params().keys()),
                               [list(p.shape) for p in v.collect_params().values()]]
                           for k, v in cells.items()}
    with open(path('expected.json'), 'w') as f:
        json.dump(expected, f, indent=1, sort_keys=True)


def main():
    os.makedirs(HERE, exist_ok=True)
    make_convnet()
    make_twoin()
    make_rnn()
    make_layers()
    make_expected()
    print('wrote', sorted(os.listdir(HERE)))


if __name__ == '__main__':
    main()
