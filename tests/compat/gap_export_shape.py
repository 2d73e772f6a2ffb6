# HybridBlock.export: the __shape__ written for each parameter variable (unknown dims as 0),
# and SymbolBlock.imports of the exported files.
import json, os, tempfile
import mxnet as mx
from mxnet import gluon
from mxnet.gluon import nn

tmp = tempfile.mkdtemp()


def var_attrs(prefix):
    js = json.load(open(prefix + '-symbol.json'))
    for n in js['nodes']:
        if n['op'] == 'null':
            a = n.get('attrs', {})
            print(n['name'], a.get('__shape__'), a.get('__dtype__'), a.get('__init__'))


class Net(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.c1 = nn.Conv2D(4, 3)
            self.c2 = nn.Conv2D(4, 3, in_channels=4, use_bias=False)
            self.b1 = nn.BatchNorm()
            self.b2 = nn.BatchNorm(in_channels=4)
            self.d1 = nn.Dense(5)
            self.d2 = nn.Dense(3, in_units=5)
            self.d3 = nn.Dense(3, flatten=False)

    def hybrid_forward(self, F, x):
        y = self.b2(self.c2(self.b1(self.c1(x))))
        return self.d2(self.d1(y)), self.d3(y)


x = mx.nd.arange(2 * 2 * 6 * 6).reshape((2, 2, 6, 6)) / 100
net = Net(prefix='net_')
net.initialize(mx.init.Xavier())
net.hybridize()
out = net(x)
p = os.path.join(tmp, 'net')
net.export(p)
var_attrs(p)

# imports of the file written above
sb = gluon.SymbolBlock.imports(p + '-symbol.json', ['data'], p + '-0000.params')
o2 = sb(x)
print([o.shape for o in o2], [round(float((a - b).abs().max().asscalar()), 5) for a, b in zip(out, o2)])
sb.hybridize()
sb(x)
sb.export(os.path.join(tmp, 'again'))
var_attrs(os.path.join(tmp, 'again'))

# forward before hybridize: the variables are still made before the shapes are completed
seq = nn.HybridSequential(prefix='s_')
with seq.name_scope():
    seq.add(nn.Conv2D(3, 3, padding=1), nn.BatchNorm(), nn.Dense(2, in_units=108))
seq.initialize()
seq(x)
seq.hybridize()
seq(x)
seq.export(os.path.join(tmp, 's'), epoch=3)
var_attrs(os.path.join(tmp, 's'))

# every shape known at construction
full = nn.HybridSequential(prefix='f_')
with full.name_scope():
    full.add(nn.Dense(4, in_units=3, activation='relu'), nn.Dense(2, in_units=4))
full.initialize()
full.hybridize()
full(mx.nd.ones((1, 3)))
full.export(os.path.join(tmp, 'f'))
var_attrs(os.path.join(tmp, 'f'))
fb = gluon.SymbolBlock.imports(os.path.join(tmp, 'f-symbol.json'), ['data'], os.path.join(tmp, 'f-0000.params'))
print(fb(mx.nd.ones((2, 3))).shape)
