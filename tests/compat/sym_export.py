import json
import os
import tempfile
import mxnet as mx
from mxnet import gluon, nd

net = gluon.nn.HybridSequential()
with net.name_scope():
    net.add(gluon.nn.Conv2D(4, kernel_size=3, padding=1, in_channels=2))
    net.add(gluon.nn.BatchNorm(in_channels=4))
    net.add(gluon.nn.Activation('relu'))
    net.add(gluon.nn.MaxPool2D())
    net.add(gluon.nn.Flatten())
    net.add(gluon.nn.Dense(3, in_units=16))
    net.add(gluon.nn.Dropout(0.5))
net.initialize(mx.init.Constant(0.1))
net.hybridize()
x = nd.arange(2 * 2 * 4 * 4).reshape((2, 2, 4, 4)) / 50.0
y = net(x)
print(y.asnumpy().round(4))
tmp = tempfile.mkdtemp()
prefix = os.path.join(tmp, 'model')
net.export(prefix, epoch=3)
print(sorted(os.listdir(tmp)))
with open(prefix + '-symbol.json') as f:
    text = f.read()
js = json.loads(text)
print(sorted(js.keys()))
print([(n['op'], n['name']) for n in js['nodes']])
print(js['arg_nodes'], js['heads'])
print(js['attrs'])
print([n.get('attrs') for n in js['nodes'] if n['op'] != 'null'])
print(text)
params = nd.load(prefix + '-0003.params')
print(sorted(params.keys()))
print({k: v.shape for k, v in sorted(params.items())})
sym = mx.sym.load(prefix + '-symbol.json')
print(sym.list_arguments())
print(sym.list_auxiliary_states())
print(sym.list_outputs())
imported = gluon.SymbolBlock.imports(prefix + '-symbol.json', ['data'], prefix + '-0003.params')
print(imported(x).asnumpy().round(4))
print(sorted(imported.collect_params().keys()))
# Symbol through a hybrid block
data = mx.sym.var('data')
out = net(data)
print(out, out.list_outputs())
print(out.list_arguments())
# a simple dense net
dnet = gluon.nn.HybridSequential()
dnet.add(gluon.nn.Dense(4, activation='relu', in_units=3), gluon.nn.Dense(2, in_units=4))
dnet.initialize(mx.init.Constant(0.2))
dnet.hybridize()
dnet(nd.ones((1, 3)))
dnet.export(os.path.join(tmp, 'dense'))
print(open(os.path.join(tmp, 'dense-symbol.json')).read())
print(sorted(nd.load(os.path.join(tmp, 'dense-0000.params')).keys()))
sb = gluon.SymbolBlock(outputs=mx.sym.load(os.path.join(tmp, 'dense-symbol.json')), inputs=mx.sym.var('data'))
sb.collect_params().load(os.path.join(tmp, 'dense-0000.params'), ctx=mx.cpu())
print(sb(nd.ones((2, 3))))
try:
    gluon.nn.Dense(2).export(os.path.join(tmp, 'nope'))
except Exception as e:
    print(type(e).__name__)
for f in os.listdir(tmp):
    os.remove(os.path.join(tmp, f))
os.rmdir(tmp)
