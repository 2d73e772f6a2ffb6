"""Record a GluonCV network run by real MXNet, for tests/clients/test_gluoncv.py.

Run with MXNet 1.9.1 and gluoncv 0.10.5 (a copy of the reference environment):
    /tmp/mxref-gluoncv/bin/python tests/clients/data/make_gluoncv_ref.py
Writes beside this script cifar_resnet20_v1.params (the network's parameters, BatchNorm running
statistics set to random values so that inference depends on them) and cifar_resnet20_v1.npz
(an input batch and MXNet's output for it, in inference mode; and the tensors GluonCV's
imagenet, ssd and yolo test presets make of a synthetic 60 x 80 image).
"""
import os

import mxnet as mx
import numpy as np
from gluoncv import model_zoo
from gluoncv.data.transforms import presets

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    mx.random.seed(0)
    rng = np.random.RandomState(0)
    net = model_zoo.get_model('cifar_resnet20_v1', pretrained=False)
    net.initialize(mx.init.Xavier())
    data = rng.uniform(-1, 1, (2, 3, 32, 32)).astype('float32')
    net(mx.nd.array(data))  # completes the deferred initialisation
    for name, param in net.collect_params().items():
        if name.endswith('running_mean'):
            param.set_data(mx.nd.array(rng.uniform(-0.2, 0.2, param.shape)))
        elif name.endswith('running_var'):
            param.set_data(mx.nd.array(rng.uniform(0.5, 1.5, param.shape)))
    out = net(mx.nd.array(data)).asnumpy()
    net.save_parameters(os.path.join(HERE, 'cifar_resnet20_v1.params'))
    image = rng.randint(0, 256, (60, 80, 3)).astype('uint8')
    img = mx.nd.array(image, dtype='uint8')
    preset_imagenet = presets.imagenet.transform_eval(img, resize_short=40, crop_size=32).asnumpy()
    preset_ssd = presets.ssd.transform_test(img, short=64)[0].asnumpy()
    preset_yolo = presets.yolo.transform_test(img, short=64)[0].asnumpy()
    np.savez_compressed(os.path.join(HERE, 'cifar_resnet20_v1.npz'), data=data, out=out, image=image,
                        preset_imagenet=preset_imagenet, preset_ssd=preset_ssd, preset_yolo=preset_yolo)
    print('output', out.shape, 'mean %.4f std %.4f' % (out.mean(), out.std()))


if __name__ == '__main__':
    main()
