import json
import os
import tempfile

import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon.model_zoo import vision


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


tmp = tempfile.mkdtemp()

# get_model: every name, case, unknown names and bad arguments
names = ['resnet18_v1', 'resnet34_v2', 'resnet152_v1', 'vgg11', 'vgg19_bn', 'alexnet',
         'densenet121', 'densenet201', 'squeezenet1.0', 'squeezenet1.1', 'inceptionv3',
         'mobilenet1.0', 'mobilenet0.25', 'mobilenetv2_1.0', 'mobilenetv2_0.5']
for n in names:
    net = vision.get_model(n, classes=3)
    print(n, type(net).__name__, net.name)
print(vision.get_model('ResNet18_V1').name, vision.get_model('MobileNetV2_0.25').name)
attempt(lambda: vision.get_model('resnet19_v1'))
attempt(lambda: vision.get_model('inception_v3'))
attempt(lambda: vision.get_model('mobilenet_v2_1_0'))
attempt(lambda: vision.get_model(''))
attempt(lambda: vision.get_model(18))
attempt(lambda: vision.get_model('alexnet', foo=1))
attempt(lambda: vision.get_model('resnet18_v1', classes=3, thumbnail=True).features[0])
attempt(lambda: vision.get_model('vgg11', batch_norm=True))
attempt(lambda: type(mx.gluon.model_zoo.get_model('squeezenet1.1')).__name__)
net = vision.get_model('resnet18_v1', pretrained=False, ctx=mx.cpu(), root=tmp)
print(net.name)

# summary of a whole network
net = vision.resnet18_v1(classes=10)
net.initialize()
x = nd.ones((1, 3, 32, 32))
net.summary(x)
net = vision.mobilenet_v2_0_25(classes=4)
attempt(lambda: net.summary(x))
net.initialize()
net.summary(x)
net.hybridize()
net(x)
attempt(lambda: net.summary(x))
net = vision.squeezenet1_1(classes=3)
net.initialize()
net.summary(nd.ones((1, 3, 224, 224)))

# hybridize + export: file names, the JSON's nodes, the parameter file, loading back
net = vision.resnet18_v1(classes=10)
net.initialize()
attempt(lambda: net.export(os.path.join(tmp, 'early')))
net.hybridize()
y = net(x)
out = net.export(os.path.join(tmp, 'res18'), epoch=3)
print([os.path.basename(p) for p in out] if out else out)
print(sorted(f for f in os.listdir(tmp) if f.startswith('res18')))
with open(os.path.join(tmp, 'res18-symbol.json')) as f:
    graph = json.load(f)
print(sorted(graph.keys()), len(graph['nodes']), len(graph['arg_nodes']), graph['heads'])
print(sorted(n['name'] for n in graph['nodes'][:30]))
print([n['op'] for n in graph['nodes'][:30]])
print(graph['nodes'][1], graph['nodes'][3])
print(graph['nodes'][-1]['name'], graph['nodes'][-1]['op'])
saved = nd.load(os.path.join(tmp, 'res18-0003.params'))
keys = sorted(saved.keys())
print(len(keys), keys[:4], keys[-4:])
print(sorted({k.split(':')[0] for k in keys}))
back = gluon.SymbolBlock.imports(os.path.join(tmp, 'res18-symbol.json'), ['data'],
                                 os.path.join(tmp, 'res18-0003.params'))
print(back(x).shape, float(abs(back(x) - y).max().asscalar()) < 1e-4)
sym = mx.sym.load(os.path.join(tmp, 'res18-symbol.json'))
print(sym.list_outputs(), len(sym.list_arguments()), len(sym.list_auxiliary_states()))
print(sym.list_arguments()[:5], sym.list_auxiliary_states()[:3])
mx.viz.print_summary(sym, shape={'data': (1, 3, 32, 32)})

net = vision.mobilenet0_25(classes=5)
net.initialize()
net.hybridize()
net(x)
net.export(os.path.join(tmp, 'mob'))
print(sorted(f for f in os.listdir(tmp) if f.startswith('mob')))
with open(os.path.join(tmp, 'mob-symbol.json')) as f:
    graph = json.load(f)
print(len(graph['nodes']), sorted(n['name'] for n in graph['nodes'][:30]))
sym = mx.sym.load(os.path.join(tmp, 'mob-symbol.json'))
mx.viz.print_summary(sym, shape={'data': (1, 3, 32, 32)}, line_length=100, positions=[.4, .7, .8, 1.])

# the symbol of a network called on a Symbol
net = vision.squeezenet1_1(classes=3)
net.initialize()
s = net(mx.sym.var('data'))
print(type(s).__name__, s.name, s.list_outputs())
print(len(s.get_internals().list_outputs()), s.get_internals().list_outputs()[:8])
args, outs, auxs = s.infer_shape(data=(2, 3, 224, 224))
print(outs, len(args), len(auxs))
print(mx.viz.print_summary(s, shape={'data': (2, 3, 224, 224)}))
