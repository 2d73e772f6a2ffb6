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

# summary() of networks built of HybridConcurrent, Identity, RELU6, Dropout, Flatten
net = vision.DenseNet(4, 4, [2, 2], bn_size=2, dropout=0.5, classes=3)
net.initialize()
net.summary(nd.ones((1, 3, 56, 56)))
# (layers with an activation run first: with deferred shapes MXNet prints a spurious <Symbol> row)
net = vision.alexnet(classes=4)
net.initialize()
net(nd.ones((1, 3, 67, 67)))
net.summary(nd.ones((1, 3, 67, 67)))
net = vision.MobileNetV2(multiplier=0.1, classes=2)
net.initialize()
net.summary(nd.ones((2, 3, 32, 32)))
net = vision.resnet50_v2(classes=3)
net.initialize()
net.summary(nd.ones((1, 3, 32, 32)))
net = vision.VGG([1, 1], [4, 8], batch_norm=True, classes=3)
net.initialize()
net(nd.ones((1, 3, 16, 16)))
net.summary(nd.ones((1, 3, 16, 16)))
net.features.summary(nd.ones((1, 3, 16, 16)))
blk = vision.BottleneckV1(16, 2, downsample=True, in_channels=8)
blk.initialize()
blk.summary(nd.ones((1, 8, 6, 6)))
attempt(lambda: blk.summary())
attempt(lambda: blk.summary(nd.ones((1, 8, 6, 6)), nd.ones((1, 8, 6, 6))))

# networks called on Symbols: arguments, shapes, the viz summary
for name, side in [('densenet121', 224), ('inceptionv3', 299), ('squeezenet1.0', 224),
                   ('vgg16_bn', 224), ('mobilenetv2_1.0', 224), ('resnet101_v1', 224)]:
    net = vision.get_model(name, classes=11)
    s = net(mx.sym.var('data'))
    args, auxs = s.list_arguments(), s.list_auxiliary_states()
    print(name, s.name, len(args), len(auxs), args[:3], args[-2:], auxs[:2])
    a, o, x = s.infer_shape(data=(1, 3, side, side))
    print(o, a[1], x[:1], sum(1 for _ in s.get_internals().list_outputs()))
    ops = {}
    for node in json.loads(s.tojson())['nodes']:
        ops[node['op']] = ops.get(node['op'], 0) + 1
    print(sorted(ops.items()))
net = vision.DenseNet(4, 4, [2, 2], bn_size=2, dropout=0.5, classes=3)
s = net(mx.sym.var('data'))
mx.viz.print_summary(s, shape={'data': (1, 3, 56, 56)})
net = vision.inception_v3(classes=3)
s = net(mx.sym.var('data'))
mx.viz.print_summary(s, shape={'data': (1, 3, 299, 299)}, line_length=140)
attempt(lambda: mx.viz.print_summary(s, shape={'data': (1, 3, 64, 64)}))
attempt(lambda: mx.viz.print_summary(s, shape=[1, 3, 299, 299]))

# exporting a DenseNet and an Inception block graph
net = vision.DenseNet(4, 4, [2, 2], bn_size=2, dropout=0.5, classes=3)
net.initialize()
net.hybridize()
net(nd.ones((1, 3, 56, 56)))
net.export(os.path.join(tmp, 'dn'), epoch=12)
print(sorted(os.listdir(tmp)))
with open(os.path.join(tmp, 'dn-symbol.json')) as f:
    graph = json.load(f)
print(len(graph['nodes']), sorted(n['name'] for n in graph['nodes'][:30]))
print([(n['name'], n.get('attrs')) for n in graph['nodes'] if n['op'] in ('Concat', 'Dropout', 'Pooling')][:6])
print(sorted(nd.load(os.path.join(tmp, 'dn-0012.params')).keys())[:5])
blk = vision.BottleneckV2(16, 2, downsample=True, in_channels=8)
blk.initialize()
blk.hybridize()
blk(nd.ones((1, 8, 6, 6)))
blk.export(os.path.join(tmp, 'blk'))
with open(os.path.join(tmp, 'blk-symbol.json')) as f:
    graph = json.load(f)
print([(n['op'], n['name'], n['inputs']) for n in graph['nodes']])
print(graph['heads'], graph['arg_nodes'], graph.get('node_row_ptr'), graph['attrs'])
