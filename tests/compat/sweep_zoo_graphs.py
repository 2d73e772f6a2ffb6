import json

import mxnet as mx
from mxnet.gluon.model_zoo import vision

# every model of get_model called on a Symbol: the graph MXNet's export writes, without running it
names = ['alexnet', 'densenet121', 'densenet161', 'densenet169', 'densenet201', 'inceptionv3',
         'mobilenet0.25', 'mobilenet0.5', 'mobilenet0.75', 'mobilenet1.0', 'mobilenetv2_0.25',
         'mobilenetv2_0.5', 'mobilenetv2_0.75', 'mobilenetv2_1.0', 'resnet101_v1', 'resnet101_v2',
         'resnet152_v1', 'resnet152_v2', 'resnet18_v1', 'resnet18_v2', 'resnet34_v1', 'resnet34_v2',
         'resnet50_v1', 'resnet50_v2', 'squeezenet1.0', 'squeezenet1.1', 'vgg11', 'vgg11_bn', 'vgg13',
         'vgg13_bn', 'vgg16', 'vgg16_bn', 'vgg19', 'vgg19_bn']
for name in names:
    net = vision.get_model(name, classes=7)
    s = net(mx.sym.var('data'))
    graph = json.loads(s.tojson())
    nodes = graph['nodes']
    ops = {}
    for n in nodes:
        ops[n['op']] = ops.get(n['op'], 0) + 1
    print(name, len(nodes), len(graph['arg_nodes']), graph['heads'], sorted(ops.items()))
    print(' ', sorted(n['name'] for n in nodes[:30]))
    print(' ', [n['name'] for n in nodes[-4:]])
    print(' ', [(n['name'], sorted(n.get('attrs', {}).items())) for n in nodes if n['op'] != 'null'][:3])
    print(' ', len(s.list_arguments()), len(s.list_auxiliary_states()), s.list_outputs())
