"""GluonCV 0.10.5 data transforms: bbox flip/resize/crop/translate, image resizes and flips, and the
ssd/yolo/rcnn/center_net/segmentation/imagenet presets on a synthetic image."""
import random, warnings
import numpy as np
import mxnet as mx
from gluoncv.data.transforms import bbox as tbbox, image as timage, presets, experimental
from gluoncv.data.transforms.presets import ssd, yolo, rcnn, imagenet, segmentation, center_net

warnings.simplefilter('ignore')


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def seed(n=0):
    random.seed(n)
    np.random.seed(n)
    mx.random.seed(n)


def desc(x):
    kind = type(x).__name__
    if isinstance(x, mx.nd.NDArray):
        x = x.asnumpy()
    x = np.asarray(x)
    return '%s %s %s %s' % (kind, x.shape, x.dtype, round(float(x.astype(np.float64).mean()), 2))


def r3(x):
    return np.round(np.asarray(x, dtype=np.float64), 3).tolist()


h, w = 30, 40
img_np = ((np.arange(h * w * 3).reshape(h, w, 3) * 7) % 256).astype(np.uint8)
img = mx.nd.array(img_np, dtype='uint8')
boxes = np.array([[2, 3, 20, 25, 1], [10, 5, 39, 29, 0], [30, 20, 35, 28, 2]], 'float32')

print('== bbox')
print(r3(tbbox.flip(boxes, (w, h), flip_x=True)))
print(r3(tbbox.flip(boxes, (w, h), flip_y=True)))
print(r3(tbbox.flip(boxes, (w, h), flip_x=True, flip_y=True)))
print(r3(tbbox.resize(boxes, (w, h), (80, 45))))
print(r3(tbbox.translate(boxes, x_offset=5, y_offset=-2)))
print(r3(tbbox.crop(boxes, (5, 5, 20, 15))))
print(r3(tbbox.crop(boxes, (5, 5, 20, 15), allow_outside_center=False)))
print(r3(tbbox.crop(boxes, None)))
attempt(lambda: tbbox.crop(boxes, (5, 5, 20)))
attempt(lambda: tbbox.flip(boxes, (w,)))
attempt(lambda: tbbox.resize(boxes, (w, h), (80,)))
attempt(lambda: r3(tbbox.resize(boxes[:, :3], (w, h), (80, 45))))
print(r3(tbbox.get_affine_transform(np.array([20.0, 15.0]), 40, 0, [20, 16])))
print(r3(tbbox.affine_transform(np.array([4.0, 6.0]), tbbox.get_affine_transform(np.array([20.0, 15.0]), 40, 30, [20, 16]))))

print('== image')
print(desc(timage.imresize(img, 20, 10)))
print(desc(timage.imresize(img, 80, 60, interp=2)))
print(desc(timage.resize_long(img, 20)))
print(desc(timage.resize_short_within(img, 15, 100)))
print(desc(timage.resize_short_within(img, 15, 18, mult_base=4)))
print(desc(timage.resize_contain(img, (50, 50), fill=3)[0]), r3(timage.resize_contain(img, (50, 50))[1]))
for flips in ((1, 0), (0, 1), (1, 1)):
    out, f = timage.random_flip(img, px=flips[0], py=flips[1])
    print('flip', flips, f, desc(out), out[0, 0].asnumpy().tolist())
seed(3)
out, f = timage.random_flip(img, px=0.5)
print('random flip', desc(out))
out, f = timage.random_flip(img, px=0, py=0, copy=True)
print('noflip', f, desc(out), out is img)
seed(1)
out, (ox, oy, nw, nh) = timage.random_expand(img, max_ratio=1)
print('expand1', desc(out), (ox, oy, nw, nh))
crops = timage.ten_crop(img, (10, 10))
print('ten_crop', len(crops), desc(crops[0]), desc(crops[-1]))
attempt(lambda: timage.ten_crop(img, (50, 10)))

print('== presets')
x, orig = ssd.transform_test(img, short=24)
print('ssd', desc(x), desc(orig))
xs, origs = ssd.transform_test([img, img], short=20, max_size=22)
print('ssd list', [desc(a) for a in xs], len(origs))
x, orig = yolo.transform_test(img, short=24, stride=8)
print('yolo', desc(x), desc(orig))
x, orig = rcnn.transform_test(img, short=24, max_size=30)  # bicubic: uint8 within 1 grey level (MIGRATING)
print('rcnn', desc(x), orig.shape, orig.dtype)
x, orig = center_net.transform_test(img, short=24)
print('center_net', desc(x), desc(orig))
print('imagenet', desc(imagenet.transform_eval(img, resize_short=24, crop_size=20)))
print('imagenet list', [desc(a) for a in imagenet.transform_eval([img, img], resize_short=24, crop_size=20)])
print('segmentation', desc(segmentation.test_transform(img, mx.cpu())))
val = ssd.SSDDefaultValTransform(32, 32)
a, b = val(img, boxes)
print('ssd val', desc(a), r3(b))
val = yolo.YOLO3DefaultValTransform(32, 32)
a, b = val(img, boxes)
print('yolo val', desc(a), r3(b))
val = rcnn.FasterRCNNDefaultValTransform(short=24, max_size=40)
out = val(img, boxes)
print('rcnn val', [desc(o) for o in out])
val = center_net.CenterNetDefaultValTransform(32, 32)
a, b = val(img, boxes)
print('center_net val', desc(a), r3(b))

print('== train presets (shapes)')
seed(0)
a, b = ssd.SSDDefaultTrainTransform(32, 32)(img, boxes)
print('ssd train', a.shape, a.dtype, b.shape[1])
seed(0)
a, *rest = yolo.YOLO3DefaultTrainTransform(32, 32)(img, boxes)
print('yolo train', a.shape, a.dtype, [r.shape[1:] for r in rest])
seed(0)
out = rcnn.FasterRCNNDefaultTrainTransform(short=24, max_size=40)(img, boxes)
print('rcnn train', [tuple(o.shape[1:]) if o.ndim > 2 else o.shape[1] for o in out])
seed(0)
a = experimental.image.random_color_distort(img)
print('color distort', a.shape, a.dtype)
seed(0)
new, crop = experimental.bbox.random_crop_with_constraints(boxes, (w, h))
print('crop constraints', new.shape[1], len(crop))
