"""GluonCV 0.10.5 classification zoo (ResNet v1b/c/d, ResNeXt, SE-ResNet), no downloads, tiny inputs."""
import warnings
import mxnet as mx
from gluoncv import model_zoo
from _gcv_zoo import attempt, run, describe

warnings.simplefilter('ignore')
mx.random.seed(0)

run('resnet18_v1b', (1, 3, 32, 32))
run('resnet50_v1c', (1, 3, 32, 32), classes=10)
run('resnet50_v1d', (2, 3, 32, 32), classes=7, hybridize=False)
net, _ = run('resnext50_32x4d', (1, 3, 32, 32), classes=5)
run('se_resnet18_v1', (1, 3, 32, 32), classes=4)
run('se_resnext50_32x4d', (1, 3, 32, 32), classes=3)
run('resnet18_v1b', (1, 3, 40, 48), classes=6, last_gamma=True, use_global_stats=True)
run('resnet50_v1s', (1, 3, 32, 32), classes=2)
net = model_zoo.get_model('resnet18_v1b', pretrained=False)
print(net.fc, net.conv1, net.layer1[0].downsample)
print(net.fc.weight.shape, net.conv1.weight.shape)

print('== errors')
attempt(lambda: model_zoo.get_model('resnet_nope'))
attempt(lambda: model_zoo.get_model('resnet18_v1b', pretrained=False, no_such_arg=1))
attempt(lambda: model_zoo.get_model('resnet19_v1b'))
print('resnet50_v1d' in model_zoo.get_model_list(), 'darknet53' in model_zoo.pretrained_model_list())
