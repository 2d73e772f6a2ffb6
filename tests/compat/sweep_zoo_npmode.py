import json
import os
import tempfile

import numpy as onp

import mxnet as mx
from mxnet import gluon, np, npx
from mxnet.gluon.model_zoo import vision


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


npx.set_np()
tmp = tempfile.mkdtemp()
x = np.ones((2, 3, 32, 32))

# the zoo networks on mx.np arrays (MXNet's NumPy mode)
for name in ['resnet18_v1', 'resnet50_v2', 'mobilenet0.25', 'vgg11_bn']:
    net = vision.get_model(name, classes=5)
    net.initialize()
    y = net(x)
    print(name, type(y).__name__, y.shape, y.dtype)
    net.hybridize()
    y = net(x)
    print(name, type(y).__name__, y.shape)
    keys = sorted(net.collect_params().keys())
    print(len(keys), keys[:2], net.collect_params()[keys[0]].data().__class__.__name__)
net = vision.AlexNet(classes=3)
net.initialize()
attempt(lambda: net(np.ones((1, 3, 67, 67))).shape)
net = vision.mobilenet0_25(classes=3)
net.initialize()
net.summary(np.ones((1, 3, 32, 32)))

# export in NumPy mode: the operators the JSON names
net = vision.resnet18_v1(classes=5)
net.initialize()
net.hybridize()
net(x)
net.export(os.path.join(tmp, 'npres'))
print(sorted(os.listdir(tmp)))
with open(os.path.join(tmp, 'npres-symbol.json')) as f:
    graph = json.load(f)
print(len(graph['nodes']), sorted(n['name'] for n in graph['nodes'][:10]))
print(graph['attrs'])
back = gluon.SymbolBlock.imports(os.path.join(tmp, 'npres-symbol.json'), ['data'],
                                 os.path.join(tmp, 'npres-0000.params'))
print(type(back(x)).__name__, back(x).shape)

# a graph as MXNet's NumPy mode writes it (its mx.np operator names, _npi_*), loaded and run
def np_graph(ops):
    """MXNet symbol JSON of inputs data, data2 and ``ops``: (operator, input nodes, scalar)."""
    nodes = [{'op': 'null', 'name': 'data', 'inputs': []}, {'op': 'null', 'name': 'data2', 'inputs': []}]
    for i, (op, inputs, scalar) in enumerate(ops):
        node = {'op': op, 'name': 'n%d' % i, 'inputs': [[j, 0, 0] for j in inputs]}
        if scalar is not None:
            node['attrs'] = {'is_int': str(float(scalar).is_integer()), 'scalar': str(float(scalar))}
        nodes.append(node)
    return json.dumps({'nodes': nodes, 'arg_nodes': [0, 1], 'heads': [[len(nodes) - 1, 0, 0]],
                       'node_row_ptr': list(range(len(nodes) + 1)),
                       'attrs': {'is_np_shape': ['int', 1], 'mxnet_version': ['int', 10901]}})


ops = [('_npi_add', [0, 1], None), ('_npi_multiply_scalar', [2], 2), ('_npi_subtract_scalar', [3], 1),
       ('_npi_rsubtract_scalar', [4], 3), ('_npi_mod_scalar', [5], 4), ('_npi_add_scalar', [0], 1),
       ('_npi_rmod_scalar', [7], 5), ('_npi_add', [6, 8], None), ('_npi_multiply', [9, 0], None),
       ('_npi_power_scalar', [10], 2), ('_npi_subtract', [0, 1], None), ('_npi_rpower_scalar', [12], 2),
       ('_npi_add', [11, 13], None), ('_npi_subtract', [14, 1], None), ('_npi_mod', [15, 1], None)]
a, b = np.array([[1., 2.5, -3.], [4., 0.5, 6.]]), np.array([[2., 1., 1.5], [-1., 3., 2.]])
ia, ib = np.array([1, 2, -3], dtype='int32'), np.array([2, 1, 4], dtype='int32')
for name, graph in (('mxnp', ops), ('mxnp_half', [(op, ins, None if s is None else s + 0.5) for op, ins, s in ops])):
    with open(os.path.join(tmp, name + '-symbol.json'), 'w') as f:
        f.write(np_graph(graph))
    blk = gluon.SymbolBlock.imports(os.path.join(tmp, name + '-symbol.json'), ['data', 'data2'])
    out = blk(a, b)
    print(name, type(out).__name__, out.shape, out.dtype)
    print(onp.round(out.asnumpy().astype('float64'), 3))
    if name == 'mxnp':
        out = blk(ia, ib)
        print(out.dtype, out)
sym = mx.sym.load(os.path.join(tmp, 'mxnp-symbol.json'))
print(sym.list_arguments(), sym.infer_shape(data=(2, 3), data2=(1, 3))[1])
