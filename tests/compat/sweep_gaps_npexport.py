"""HybridBlocks exported after npx.set_np(): the NumPy-mode operator names, node names and
attributes of the -symbol.json, and the files loading back."""
import json
import os
import tempfile

import mxnet as mx
from mxnet import gluon, np, npx


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def show_graph(path):
    with open(path) as f:
        graph = json.load(f)
    for n in graph['nodes']:
        # (gluonjax also writes the defaults of parameters MXNet's sum/max leave unset)
        attrs = {k: v for k, v in sorted(n.get('attrs', {}).items())
                 if not (n['op'] in ('_np_sum', '_np_max') and k in ('initial', 'keepdims'))}
        print(' ', n['op'], n['name'], attrs, n['inputs'])
    print(' ', graph['attrs'], graph['heads'], graph['arg_nodes'])


class DenseNet(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fc = gluon.nn.Dense(4, activation='relu')
        self.out = gluon.nn.Dense(3)

    def hybrid_forward(self, F, x):
        return F.npx.relu(self.out(self.fc(x)))


class ConvNet(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.conv = gluon.nn.Conv2D(2, 3)
        self.bn = gluon.nn.BatchNorm()
        self.pool = gluon.nn.MaxPool2D()
        self.gp = gluon.nn.GlobalAvgPool2D()

    def hybrid_forward(self, F, x):
        return F.np.sum(self.gp(self.pool(F.npx.sigmoid(self.bn(self.conv(x))))), axis=1)


class Arith(gluon.HybridBlock):
    def hybrid_forward(self, F, x, y):
        a = x + 1.0
        a = a * y - a / 2 + x * 3 - 2.5 ** x
        a = (a % 3) ** 2 + F.np.exp(y) * F.np.tanh(x) - F.np.absolute(y) - (-x)
        b = F.np.maximum(a, 0.5) + F.np.minimum(x, y) + F.np.sqrt(F.np.absolute(y))
        c = F.np.concatenate([a, b], axis=1).reshape(2, -1)
        return a.mean(axis=0), c.T, F.np.dot(a, b.T), x.sum(), a ** y, 5.5 % x


npx.set_np()
tmp = tempfile.mkdtemp()
x, y = np.array([[0.5, 1., 2.], [1.5, -1., 3.]]), np.array([[2., -0.5, 1.], [1., 2., 0.25]])
cases = [('dense', DenseNet(), (np.ones((2, 5)),)),
         ('conv', ConvNet(), (np.ones((2, 3, 8, 8)),)),
         ('arith', Arith(), (x, y))]
for name, net, inputs in cases:
    net.initialize()
    net.hybridize()
    out = net(*inputs)
    net.export(os.path.join(tmp, name))
    print(name)
    show_graph(os.path.join(tmp, name + '-symbol.json'))
    names = ['data'] if len(inputs) == 1 else ['data0', 'data1']
    params = os.path.join(tmp, name + '-0000.params') if net.collect_params() else None
    back = gluon.SymbolBlock.imports(os.path.join(tmp, name + '-symbol.json'), names, params)
    again = back(*inputs)
    outs = out if isinstance(out, (list, tuple)) else [out]
    agains = again if isinstance(again, (list, tuple)) else [again]
    print(' ', [(type(o).__name__, o.shape) for o in agains])
    if name == 'arith':
        print(' ', [round(float(o.sum()), 3) for o in agains])
    print(' ', all(bool(np.allclose(o, a, atol=1e-5)) for o, a in zip(outs, agains)))
    sym = mx.sym.load(os.path.join(tmp, name + '-symbol.json'))
    print(' ', sym.list_arguments(), sym.list_outputs())

# integer arrays in a NumPy-mode graph: the number's kind decides the result type
class IntArith(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return x + 1, x * 2, x - 1.5, x ** 2, x / 2

net = IntArith()
net.hybridize()
for o in net(np.array([1, 2, 3], dtype='int32')):
    print(o.dtype, o.tolist())
net.export(os.path.join(tmp, 'int'))
show_graph(os.path.join(tmp, 'int-symbol.json'))

# legacy mode: the same arithmetic writes the legacy operator names
npx.reset_np()
class Legacy(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.relu(F.exp(x) + 1) * x - x


net = Legacy()
net.hybridize()
net(mx.nd.ones((2, 3)))
net.export(os.path.join(tmp, 'legacy'))
show_graph(os.path.join(tmp, 'legacy-symbol.json'))

# model-zoo networks exported in NumPy mode: every node's operator, name and attributes
import hashlib

from mxnet.gluon.model_zoo import vision

npx.set_np()
for name in ['resnet18_v1', 'resnet18_v2', 'mobilenet0.25', 'vgg11_bn', 'alexnet']:
    net = vision.get_model(name, classes=5)
    net.initialize()
    net.hybridize()
    net(np.ones((1, 3, 224, 224)) if name == 'alexnet' else np.ones((1, 3, 64, 64)))
    net.export(os.path.join(tmp, name))
    with open(os.path.join(tmp, name + '-symbol.json')) as f:
        graph = json.load(f)
    lines = ['%s %s %s' % (n['op'], n['name'], sorted((n.get('attrs') or {}).items())) for n in graph['nodes']]
    print(name, len(lines), sorted(set(n['op'] for n in graph['nodes'])), graph['attrs'])
    print(' ', hashlib.sha1('\n'.join(lines).encode()).hexdigest())
    if name == 'resnet18_v2':
        print('\n'.join(lines[-12:]))
