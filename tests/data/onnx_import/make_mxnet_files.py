"""Write the ONNX files MXNet 1.9.1 exports and what MXNet's own importer makes of them.

Run with MXNet 1.9.1 and onnx 1.13 (never needed by the tests):

    python3 -m venv /tmp/mxref && /tmp/mxref/bin/pip install mxnet==1.9.1 'numpy<1.24' onnx==1.13.1 'protobuf<4'
    /tmp/mxref/bin/python tests/data/onnx_import/make_mxnet_files.py

Writes, for each small network below, ``<name>.onnx`` (``mx.onnx.export_model``'s file) and
``expected.json``: per network, MXNet's ``import_model`` result (arguments, auxiliary states,
outputs, the operators and names of the graph's nodes, the parameter names), ``get_model_metadata``,
the imported graph's output on a fixed input (stored in ``<name>-input.npy``) and the exported
network's own output on it (they differ where MXNet's importer drops an average pooling's
``count_include_pad=0``).
"""
import contextlib
import io
import json
import os

import mxnet as mx
import numpy as np
from mxnet.gluon import nn

HERE = os.path.dirname(os.path.abspath(__file__))


def small_cnn():
    net = nn.HybridSequential(prefix='cnn_')
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation('relu'), nn.MaxPool2D(2),
                nn.Conv2D(6, 3, strides=2, use_bias=False), nn.AvgPool2D(2, 1, 1, count_include_pad=False),
                nn.LeakyReLU(0.1), nn.GlobalAvgPool2D(), nn.Flatten(), nn.Dense(5), nn.Activation('tanh'))
    return net


def mlp():
    net = nn.HybridSequential(prefix='mlp_')
    with net.name_scope():
        net.add(nn.Dense(8, activation='sigmoid'), nn.Dropout(0.5), nn.Dense(3))
    return net


NETS = {'small_cnn': (small_cnn, (2, 3, 8, 8)), 'mlp': (mlp, (2, 6))}


def main():
    rng = np.random.RandomState(0)
    expected = {}
    for name, (make, shape) in NETS.items():
        mx.random.seed(0)
        net = make()
        net.initialize(mx.init.Xavier())
        net.hybridize()
        x = rng.uniform(-1, 1, shape).astype('float32')
        net(mx.nd.array(x))
        for p in net.collect_params().values():  # moving statistics away from 0 and 1
            if 'running' in p.name:
                p.set_data(mx.nd.array(rng.uniform(0.5, 1.5, p.shape)))
        network_output = net(mx.nd.array(x)).asnumpy()
        prefix = os.path.join(HERE, name)
        net.export(prefix)
        path = mx.onnx.export_model(prefix + '-symbol.json', prefix + '-0000.params', [shape], np.float32,
                                    prefix + '.onnx')
        os.remove(prefix + '-symbol.json')
        os.remove(prefix + '-0000.params')
        with contextlib.redirect_stdout(io.StringIO()):
            sym, arg, aux = mx.contrib.onnx.import_model(path)
            meta = mx.contrib.onnx.get_model_metadata(path)
        nodes = json.loads(sym.tojson())['nodes']
        exe = sym.bind(mx.cpu(), {'data': mx.nd.array(x), **arg}, aux_states=aux)
        out = exe.forward()[0].asnumpy()
        np.save(prefix + '-input.npy', x)
        expected[name] = {
            'arguments': sym.list_arguments(), 'auxiliary_states': sym.list_auxiliary_states(),
            'outputs': sym.list_outputs(), 'nodes': [[n['op'], n['name']] for n in nodes if n['op'] != 'null'],
            'arg_params': sorted(arg), 'aux_params': sorted(aux),
            'metadata': {k: [[e[0], list(e[1])] + list(e[2:]) for e in v] for k, v in meta.items()},
            'output': out.round(6).tolist(), 'network_output': network_output.round(6).tolist()}
    with open(os.path.join(HERE, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1)


if __name__ == '__main__':
    main()
