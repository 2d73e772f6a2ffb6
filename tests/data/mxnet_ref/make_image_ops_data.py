"""Reference outputs of MXNet 1.9.1's ``mx.nd.image`` operators for tests/test_ops_image.py.

    /tmp/mxref/bin/python tests/data/mxnet_ref/make_image_ops_data.py

Writes image_ops_ref.npz: small random images and what each deterministic image operator (and
each random one with its range pinned to one factor) returns on them, plus the printed forms
of some transforms (key ``repr_<name>``).
"""
import os

import mxnet as mx
import numpy as np
from mxnet.gluon.data.vision import transforms as T

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rs = np.random.RandomState(0)
    out = {'img': rs.randint(0, 256, (6, 7, 3)).astype(np.uint8),
           'flt': rs.uniform(0, 255, (6, 7, 3)).astype(np.float32),
           'batch': rs.randint(0, 256, (2, 5, 4, 3)).astype(np.uint8)}
    nd = {k: mx.nd.array(v, dtype=v.dtype) for k, v in out.items()}
    im = mx.nd.image
    for src in ('img', 'flt', 'batch'):
        out['crop_%s' % src] = im.crop(nd[src], x=1, y=2, width=3, height=2).asnumpy()
        if src != 'batch':  # MXNet flips one image H x W x C only
            out['flip_lr_%s' % src] = im.flip_left_right(nd[src]).asnumpy()
            out['flip_tb_%s' % src] = im.flip_top_bottom(nd[src]).asnumpy()
        for interp in range(5):
            out['resize_%s_%d' % (src, interp)] = im.resize(nd[src], size=(5, 4), interp=interp).asnumpy()
            out['resize_up_%s_%d' % (src, interp)] = im.resize(nd[src], size=(9, 11), interp=interp).asnumpy()
        out['resize_keep_%s' % src] = im.resize(nd[src], size=3, keep_ratio=True).asnumpy()
    for src in ('img', 'flt'):
        out['lighting_%s' % src] = im.adjust_lighting(nd[src], alpha=(0.1, -0.2, 0.3)).asnumpy()
        for op in ('brightness', 'contrast', 'saturation', 'hue'):
            fn = getattr(im, 'random_' + op)
            out['%s_%s' % (op, src)] = fn(nd[src], min_factor=0.7, max_factor=0.7).asnumpy()
    tensor = mx.nd.array(rs.uniform(0, 1, (3, 4, 5)).astype(np.float32))
    out['tensor'] = tensor.asnumpy()
    out['normalize'] = im.normalize(tensor, mean=(0.1, 0.2, 0.3), std=(0.5, 0.6, 0.7)).asnumpy()
    reprs = {'resize': T.Resize(300, keep_ratio=True),
             'crop_resize': T.CropResize(1, 2, 3, 4, (5, 6), 1),
             'compose': T.Compose([T.Resize(300), T.CenterCrop(256), T.RandomResizedCrop(224),
                                   T.RandomFlipLeftRight(), T.RandomColorJitter(0.1, 0.2, 0.3, 0.4),
                                   T.RandomLighting(0.1), T.ToTensor(), T.Normalize((0, 1, 2), (3, 4, 5)),
                                   T.RandomHue(0.1), T.Rotate(10.), T.RandomRotation((-10., 10.)), T.Cast('float16')])}
    for name, t in reprs.items():
        out['repr_' + name] = np.array(repr(t))
    np.savez_compressed(os.path.join(HERE, 'image_ops_ref.npz'), **out)


if __name__ == '__main__':
    main()
