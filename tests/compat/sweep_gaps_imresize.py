"""mx.image.imresize and resize_short of uint8 images, bilinear and bicubic: OpenCV's exact 8-bit
pixels at uneven ratios (its 11-bit fixed-point weights), enlarging and shrinking, 1-3 channels."""
import numpy as np

import mxnet as mx

rs = np.random.RandomState(0)
sizes = [((2, 5), (4, 40)), ((8, 23), (32, 14)), ((7, 30), (44, 20)), ((27, 11), (33, 22)), ((33, 25), (44, 22)),
         ((3, 22), (13, 11)), ((2, 32), (29, 19)), ((12, 9), (15, 17)), ((15, 11), (54, 6)), ((28, 21), (41, 8)),
         ((31, 17), (51, 30)), ((40, 60), (20, 30)), ((40, 60), (13, 7)), ((5, 5), (1, 1)), ((1, 7), (3, 5)),
         ((64, 48), (224, 224)), ((100, 75), (37, 29)), ((9, 9), (9, 4))]
for i, ((ih, iw), (oh, ow)) in enumerate(sizes):
    img = mx.nd.array(rs.randint(0, 256, (ih, iw, 1 + 2 * (i % 2))), dtype='uint8')
    for interp in (1, 2):
        out = mx.image.imresize(img, ow, oh, interp=interp).asnumpy().astype(np.int64)
        print((ih, iw), '->', out.shape, interp, int(out.sum()), int((out * out).sum()), out.ravel()[:10].tolist())
# a smooth gradient shows every rounding
grad = mx.nd.array(np.add.outer(np.arange(0, 250, 10), np.arange(0, 50, 2))[:, :, None].repeat(3, 2), dtype='uint8')
for ow, oh in [(7, 9), (40, 33), (13, 50)]:
    print(mx.image.imresize(grad, ow, oh).asnumpy()[:, :, 0].tolist())
    print(mx.image.imresize(grad, ow, oh, interp=2).asnumpy()[:, :, 2].tolist())
print(mx.image.resize_short(grad, 11, interp=1).asnumpy()[:, :, 1].tolist())
print(mx.image.resize_short(grad, 11).asnumpy()[:, :, 1].tolist())  # bicubic by default
two = mx.nd.array(rs.randint(0, 256, (11, 13, 2)), dtype='uint8')
print(mx.image.imresize(two, 9, 17, interp=2).asnumpy().astype(np.int64).sum(axis=(0, 1)).tolist())
# batches and the operator itself
batch = mx.nd.array(rs.randint(0, 256, (2, 10, 13, 3)), dtype='uint8')
print(mx.nd.image.resize(batch, size=(7, 5)).asnumpy().astype(np.int64).sum(axis=(1, 2, 3)).tolist())
print(mx.nd.image.resize(batch[0], size=(29, 23)).asnumpy().astype(np.int64).sum())
print(mx.nd.image.resize(batch, size=(7, 5), interp=2).asnumpy().astype(np.int64).sum(axis=(1, 2, 3)).tolist())
print(mx.nd.image.resize(batch[0], size=(29, 23), interp=2).asnumpy().astype(np.int64).sum())
