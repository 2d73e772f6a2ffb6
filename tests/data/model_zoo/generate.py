"""Generate the model-zoo reference data with MXNet 1.9.1 (run: /tmp/mxref/bin/python generate.py).

Writes, next to this script:
- ``structure.json.gz``: for every model of ``get_model``, the repr before and after the first
  forward pass, the ``collect_params()`` names and shapes in order, and the structural names
  ``save_parameters`` writes;
- ``outputs.npz``: outputs of a few models (classes=10) on a fixed input, with the weights of
  ``weights.make_weights`` set in MXNet (inference mode; one training-mode batch for resnet18_v1,
  with the gradients of its first and last weights);
- ``resnet18_v1-symbol.json``: MXNet's ``export`` of resnet18_v1 (classes=10, hybridized);
- ``mobilenetv2_0.25.params`` (``save_parameters``: structural names) and
  ``squeezenet1.1_prefixed.params`` (``collect_params().save``: full prefixed names), classes=10.
"""
import gzip
import json
import os

import mxnet as mx
import numpy as np
from mxnet.gluon.model_zoo import vision

from weights import make_input, make_weights

HERE = os.path.dirname(os.path.abspath(__file__))

ALL_MODELS = sorted(['resnet18_v1', 'resnet34_v1', 'resnet50_v1', 'resnet101_v1', 'resnet152_v1',
                     'resnet18_v2', 'resnet34_v2', 'resnet50_v2', 'resnet101_v2', 'resnet152_v2',
                     'vgg11', 'vgg13', 'vgg16', 'vgg19', 'vgg11_bn', 'vgg13_bn', 'vgg16_bn',
                     'vgg19_bn', 'alexnet', 'densenet121', 'densenet161', 'densenet169',
                     'densenet201', 'squeezenet1.0', 'squeezenet1.1', 'inceptionv3',
                     'mobilenet1.0', 'mobilenet0.75', 'mobilenet0.5', 'mobilenet0.25',
                     'mobilenetv2_1.0', 'mobilenetv2_0.75', 'mobilenetv2_0.5', 'mobilenetv2_0.25'])

# model -> input side of the forward checks (small where the architecture allows: fast tests)
FORWARD = {'resnet18_v1': 64, 'resnet50_v2': 64, 'vgg11_bn': 32, 'mobilenetv2_0.25': 224,
           'densenet121': 224, 'squeezenet1.1': 224, 'alexnet': 67, 'inceptionv3': 299}


def side(name):
    return 299 if name == 'inceptionv3' else 224


def fresh(name, **kwargs):
    """Build a model with fresh name counters, so its names do not depend on what ran before
    (``resnetv10_...``, as in a new program)."""
    with mx.name.NameManager():
        return vision.get_model(name, **kwargs)


def structure(name):
    net = fresh(name)
    before = repr(net)
    net.initialize()
    net(mx.nd.zeros((1, 3, side(name), side(name))))
    params = [[k, list(v.shape)] for k, v in net.collect_params().items()]
    structural = list(net._collect_params_with_prefix().keys())
    return {'repr': before, 'repr_after': repr(net), 'params': params, 'structural': structural}


def set_weights(net):
    params = net.collect_params()
    values = make_weights([(k, v.shape) for k, v in params.items()])
    for k, v in params.items():
        v.set_data(mx.nd.array(values[k]))


def forward_outputs():
    out = {}
    for name, s in FORWARD.items():
        net = fresh(name, classes=10)
        net.initialize()
        x = make_input((1, 3, s, s))
        net(mx.nd.array(x))
        set_weights(net)
        out[name] = net(mx.nd.array(x)).asnumpy()
        if name == 'mobilenetv2_0.25':
            net.save_parameters(os.path.join(HERE, 'mobilenetv2_0.25.params'))
        if name == 'squeezenet1.1':
            net.collect_params().save(os.path.join(HERE, 'squeezenet1.1_prefixed.params'))
        if name == 'resnet18_v1':  # training mode: batch statistics in BatchNorm
            xt = make_input((2, 3, 64, 64), seed=8)
            with mx.autograd.record():
                y = net(mx.nd.array(xt))
            y.backward()
            out['train_resnet18_v1'] = y.asnumpy()
            out['train_resnet18_v1_grad_conv0'] = net.features[0].weight.grad().asnumpy()
            out['train_resnet18_v1_grad_dense'] = net.output.weight.grad().asnumpy()
    return out


def export_graph():
    net = fresh('resnet18_v1', classes=10)
    net.initialize()
    net.hybridize()
    net(mx.nd.zeros((1, 3, 64, 64)))
    net.export(os.path.join(HERE, 'resnet18_v1'))
    os.remove(os.path.join(HERE, 'resnet18_v1-0000.params'))


def main():
    data = {name: structure(name) for name in ALL_MODELS}
    with gzip.open(os.path.join(HERE, 'structure.json.gz'), 'wt') as f:
        json.dump(data, f, indent=0, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, 'outputs.npz'), **forward_outputs())
    export_graph()


if __name__ == '__main__':
    main()
