"""``mx.image.det`` (also ``mx.image.detection``): augmenters and ``ImageDetIter`` for object
detection, as MXNet's SSD and YOLO example scripts use them.

A detection label is a float array of objects, one row each: ``[class id, xmin, ymin, xmax,
ymax, extra...]`` with coordinates as fractions of the image's width and height. A record or
list entry stores it flattened after a header: ``[header width A, object width B, (A - 2
more header values), objects...]``; ``ImageDetIter._parse_label`` turns that into rows.

A detection augmenter is called as ``aug(image, label)`` and returns ``(image, label)``; the
label is a numpy array, which ``DetHorizontalFlipAug`` flips in place as MXNet does. Images
are NDArrays or numpy arrays, as for the classification augmenters of ``mx.image``; random
choices use Python's ``random`` module in the order MXNet 1.9.1 makes them, so seeding it
gives MXNet's crops, pads and flips.
"""
import logging
import math
import numbers
import random
import warnings

import numpy as np

from ..ndarray.ndarray import NDArray
from .image import (Augmenter, CastAug, ColorJitterAug, ColorNormalizeAug, ForceResizeAug, HueJitterAug,
                    ImageIter, LightingAug, RandomGrayAug, ResizeAug, _back, _Described, _np,
                    copyMakeBorder, fixed_crop)

__all__ = ['DetAugmenter', 'DetBorrowAug', 'DetRandomSelectAug', 'DetHorizontalFlipAug', 'DetRandomCropAug',
           'DetRandomPadAug', 'CreateMultiRandCropAugmenter', 'CreateDetAugmenter', 'ImageDetIter']


class DetAugmenter(_Described):
    """Base of the detection augmenters: ``aug(src, label)`` returns ``(src, label)``.
    ``dumps()`` describes it as JSON. See ``Augmenter`` for ``_takes_numpy``/``_children``."""

    def __call__(self, src, label):
        raise NotImplementedError('%s must implement __call__(src, label)' % type(self).__name__)


def _valid_ranges(name, area_range, aspect_ratio_range, least_area):
    """Whether a random crop or pad augmenter's ranges make sense; where they do not it warns and
    stays disabled (MXNet means to warn here, but its malformed call raises TypeError)."""
    if area_range[1] <= least_area or area_range[0] > area_range[1]:
        warnings.warn('%s is disabled: invalid area_range %s' % (name, area_range))
        return False
    if aspect_ratio_range[0] <= 0 or aspect_ratio_range[0] > aspect_ratio_range[1]:
        warnings.warn('%s is disabled: invalid aspect_ratio_range %s' % (name, aspect_ratio_range))
        return False
    return True


class DetBorrowAug(DetAugmenter):
    """A classification ``Augmenter`` that leaves the boxes where they are (a colour change,
    a cast, a resize of the whole image)."""

    _takes_numpy = True

    def __init__(self, augmenter):
        if not isinstance(augmenter, Augmenter):
            raise TypeError('DetBorrowAug: expected an mx.image.Augmenter, got %s' % type(augmenter).__name__)
        super().__init__(augmenter=augmenter.dumps())
        self.augmenter = augmenter

    def _children(self):
        return (self.augmenter,)

    def dumps(self):
        return [self.__class__.__name__.lower(), self.augmenter.dumps()]

    def __call__(self, src, label):
        return self.augmenter(src), label


class DetRandomSelectAug(DetAugmenter):
    """Apply one of ``aug_list`` chosen at random, or none with probability ``skip_prob``
    (always none when the list is empty)."""

    _takes_numpy = True

    def __init__(self, aug_list, skip_prob=0):
        super().__init__(skip_prob=skip_prob)
        if not isinstance(aug_list, (list, tuple)):
            aug_list = [aug_list]
        for aug in aug_list:
            if not isinstance(aug, DetAugmenter):
                raise ValueError('DetRandomSelectAug: aug_list takes DetAugmenters only, got %s'
                                 % type(aug).__name__)
        self.aug_list = aug_list
        self.skip_prob = skip_prob if aug_list else 1

    def _children(self):
        return self.aug_list

    def dumps(self):
        return [self.__class__.__name__.lower(), [x.dumps() for x in self.aug_list]]

    def __call__(self, src, label):
        if random.random() < self.skip_prob:
            return src, label
        random.shuffle(self.aug_list)  # MXNet draws its choice this way: the same seed, the same choice
        return self.aug_list[0](src, label)


class DetHorizontalFlipAug(DetAugmenter):
    """With probability ``p``, flip the image left-right and the boxes with it (in place)."""

    _takes_numpy = True

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p

    def __call__(self, src, label):
        if random.random() < self.p:
            x, ctx = _np(src)
            src = _back(x[:, ::-1].copy(), ctx)
            xmin = 1.0 - label[:, 3]
            label[:, 3] = 1.0 - label[:, 1]
            label[:, 1] = xmin
        return src, label


# ---------------------------------------------------------------------------------------
# Random crops and pads: proposals in pixels, labels in fractions
# ---------------------------------------------------------------------------------------

def _range_arg(value, name, aug):
    """A (low, high) range; a number means (number, number)."""
    if isinstance(value, (tuple, list)):
        return value
    if not isinstance(value, numbers.Number):
        raise AssertionError('%s: %s must be a number or a (low, high) pair, got %r' % (aug, name, value))
    logging.info('Using fixed %s: %s in %s', name, value, aug)
    return (value, value)


def _box_areas(boxes):
    """Areas of boxes given as columns xmin, ymin, xmax, ymax (empty boxes have area 0)."""
    return np.maximum(0, boxes[:, 3] - boxes[:, 1]) * np.maximum(0, boxes[:, 2] - boxes[:, 0])


def _clip_boxes(boxes, xmin, ymin, xmax, ymax):
    """``boxes`` (columns xmin, ymin, xmax, ymax) cut to the window; rows left empty become 0."""
    out = boxes.copy()
    out[:, 0] = np.maximum(boxes[:, 0], xmin)
    out[:, 1] = np.maximum(boxes[:, 1], ymin)
    out[:, 2] = np.minimum(boxes[:, 2], xmax)
    out[:, 3] = np.minimum(boxes[:, 3], ymax)
    out[(out[:, 0] >= out[:, 2]) | (out[:, 1] >= out[:, 3]), :] = 0
    return out


def _window_height(h, max_h, ratio):
    """The height of a proposal: uniform in [h, max_h] once h <= max_h; MXNet's steps."""
    if h > max_h:
        h = max_h
    if h < max_h:
        h = random.randint(h, max_h)
    return h, int(round(h * ratio))


class DetRandomCropAug(DetAugmenter):
    """Crop a random window (``area_range`` of the image's area, width/height in
    ``aspect_ratio_range``) that covers more than ``min_object_covered`` of every object it
    touches; objects left with less than ``min_eject_coverage`` of their area are dropped.
    After ``max_attempts`` proposals that fail, the image is left as it is."""

    _takes_numpy = True

    def __init__(self, min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0),
                 min_eject_coverage=0.3, max_attempts=50):
        aspect_ratio_range = _range_arg(aspect_ratio_range, 'aspect ratio', 'DetRandomCropAug')
        area_range = _range_arg(area_range, 'area range', 'DetRandomCropAug')
        super().__init__(min_object_covered=min_object_covered, aspect_ratio_range=aspect_ratio_range,
                         area_range=area_range, min_eject_coverage=min_eject_coverage, max_attempts=max_attempts)
        self.min_object_covered = min_object_covered
        self.min_eject_coverage = min_eject_coverage
        self.max_attempts = max_attempts
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.enabled = _valid_ranges('DetRandomCropAug', area_range, aspect_ratio_range, 0)

    def __call__(self, src, label):
        crop = self._random_crop_proposal(label, src.shape[0], src.shape[1])
        if crop:
            x, y, w, h, label = crop
            src = fixed_crop(src, x, y, w, h, None)
        return src, label

    def _covers_objects(self, label, xmin, ymin, xmax, ymax, width, height):
        """Whether the window (pixels) keeps more than min_object_covered of each object it touches."""
        if (xmax - xmin) * (ymax - ymin) < 2:
            return False
        areas = _box_areas(label[:, 1:])
        valid = np.where(areas * width * height > 2)[0]
        if valid.size < 1:
            return False
        inside = _clip_boxes(label[valid, 1:], float(xmin) / width, float(ymin) / height,
                             float(xmax) / width, float(ymax) / height)
        coverages = _box_areas(inside) / areas[valid]
        coverages = coverages[coverages > 0]
        return coverages.size > 0 and np.amin(coverages) > self.min_object_covered

    def _update_labels(self, label, crop_box, height, width):
        """The objects in the coordinates of the crop (x, y, w, h in pixels), or None if none stays."""
        x0, y0 = float(crop_box[0]) / width, float(crop_box[1]) / height
        w, h = float(crop_box[2]) / width, float(crop_box[3]) / height
        out = label.copy()
        out[:, (1, 3)] = (out[:, (1, 3)] - x0) / w
        out[:, (2, 4)] = (out[:, (2, 4)] - y0) / h
        out[:, 1:5] = np.clip(out[:, 1:5], 0, 1)
        coverage = _box_areas(out[:, 1:]) * w * h / _box_areas(label[:, 1:])
        keep = (out[:, 3] > out[:, 1]) & (out[:, 4] > out[:, 2]) & (coverage > self.min_eject_coverage)
        if not keep.any():
            return None
        return out[keep, :]

    def _random_crop_proposal(self, label, height, width):
        """(x, y, w, h, new label) of an acceptable crop, or () after max_attempts failures."""
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            max_h = int(round(math.sqrt(max_area / ratio)))
            if round(max_h * ratio) > width:
                max_h = int((width + 0.4999999) / ratio)   # the widest window that fits
            max_h = min(max_h, height)
            h, w = _window_height(int(round(math.sqrt(min_area / ratio))), max_h, ratio)
            if w * h < min_area:
                h += 1
                w = int(round(h * ratio))
            if w * h > max_area:
                h -= 1
                w = int(round(h * ratio))
            if not (min_area <= w * h <= max_area and 0 <= w <= width and 0 <= h <= height):
                continue
            y = random.randint(0, max(0, height - h))
            x = random.randint(0, max(0, width - w))
            if self._covers_objects(label, x, y, x + w, y + h, width, height):
                new_label = self._update_labels(label, (x, y, w, h), height, width)
                if new_label is not None:
                    return (x, y, w, h, new_label)
        return ()


class DetRandomPadAug(DetAugmenter):
    """Place the image at a random spot of a larger canvas (``area_range`` times its area,
    width/height in ``aspect_ratio_range``) filled with ``pad_val``."""

    _takes_numpy = True

    def __init__(self, aspect_ratio_range=(0.75, 1.33), area_range=(1.0, 3.0), max_attempts=50,
                 pad_val=(128, 128, 128)):
        if not isinstance(pad_val, (list, tuple)) and not isinstance(pad_val, numbers.Number):
            raise AssertionError('DetRandomPadAug: pad_val must be a number or one per channel, got %r' % (pad_val,))
        aspect_ratio_range = _range_arg(aspect_ratio_range, 'aspect ratio', 'DetRandomPadAug')
        area_range = _range_arg(area_range, 'area range', 'DetRandomPadAug')
        super().__init__(aspect_ratio_range=aspect_ratio_range, area_range=area_range, max_attempts=max_attempts,
                         pad_val=pad_val)
        self.pad_val = pad_val
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.max_attempts = max_attempts
        self.enabled = _valid_ranges('DetRandomPadAug', area_range, aspect_ratio_range, 1.0)

    def __call__(self, src, label):
        height, width = src.shape[0], src.shape[1]
        pad = self._random_pad_proposal(label, height, width)
        if pad:
            x, y, w, h, label = pad
            # a number pads the first channel only: MXNet passes it to OpenCV as one value
            src = copyMakeBorder(src, y, h - y - height, x, w - x - width, 16, values=self.pad_val)
        return src, label

    def _update_labels(self, label, pad_box, height, width):
        """The objects in the coordinates of the canvas (x, y, w, h in pixels)."""
        out = label.copy()
        out[:, (1, 3)] = (out[:, (1, 3)] * width + pad_box[0]) / pad_box[2]
        out[:, (2, 4)] = (out[:, (2, 4)] * height + pad_box[1]) / pad_box[3]
        return out

    def _random_pad_proposal(self, label, height, width):
        """(x, y, w, h, new label) of a canvas at least 2 pixels larger each way, or ()."""
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h = int(round(math.sqrt(min_area / ratio)))
            max_h = int(round(math.sqrt(max_area / ratio)))
            if round(h * ratio) < width:
                h = int((width + 0.499999) / ratio)   # the narrowest canvas that holds the image
            h, w = _window_height(max(h, height), max_h, ratio)
            if h - height < 2 or w - width < 2:
                continue
            y = random.randint(0, max(0, h - height))
            x = random.randint(0, max(0, w - width))
            return (x, y, w, h, self._update_labels(label, (x, y, w, h), height, width))
        return ()


def _aligned(params):
    """Each parameter as a list (a list stays, anything else is one value), repeated to the
    longest list's length."""
    lists = [p if isinstance(p, list) else [p] for p in params]
    num = max(len(p) for p in lists)
    for p in lists:
        if len(p) not in (1, num):
            raise AssertionError('CreateMultiRandCropAugmenter: parameter lists of lengths %s do not align'
                                 % [len(q) for q in lists])
    return [p * num if len(p) == 1 else p for p in lists]


def CreateMultiRandCropAugmenter(min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33),  # noqa: N802
                                 area_range=(0.05, 1.0), min_eject_coverage=0.3, max_attempts=50, skip_prob=0):
    """A ``DetRandomSelectAug`` over ``DetRandomCropAug``s, one per value of the parameters
    given as lists (the others are shared)."""
    params = _aligned([min_object_covered, aspect_ratio_range, area_range, min_eject_coverage, max_attempts])
    augs = [DetRandomCropAug(min_object_covered=moc, aspect_ratio_range=arr, area_range=ar,
                             min_eject_coverage=mec, max_attempts=ma)
            for moc, arr, ar, mec, ma in zip(*params)]
    return DetRandomSelectAug(augs, skip_prob=skip_prob)


_PCA_EIGVAL = np.array([55.46, 4.794, 1.148])
_PCA_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])


def _check_channel_stat(value, name, default):
    """``mean``/``std`` of CreateDetAugmenter: True means ImageNet's, else a numpy array of 1 or 3."""
    if value is True:
        return np.array(default)
    if value is not None and not (isinstance(value, np.ndarray) and value.shape[0] in (1, 3)):
        raise AssertionError('CreateDetAugmenter: %s must be True or a numpy array of 1 or 3 values, got %r'
                             % (name, value))
    return value


def CreateDetAugmenter(data_shape, resize=0, rand_crop=0, rand_pad=0, rand_gray=0, rand_mirror=False,  # noqa: N802
                       mean=None, std=None, brightness=0, contrast=0, saturation=0, pca_noise=0, hue=0,
                       inter_method=2, min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33),
                       area_range=(0.05, 3.0), min_eject_coverage=0.3, max_attempts=50, pad_val=(127, 127, 127)):
    """MXNet's default detection augmenter list for ``data_shape`` (C, H, W): ``rand_crop``
    and ``rand_pad`` are probabilities; list-valued crop parameters give one crop augmenter
    per value. Bad arguments raise AssertionError, as MXNet's asserts do."""
    auglist = []
    if resize > 0:
        auglist.append(DetBorrowAug(ResizeAug(resize, inter_method)))
    if rand_crop > 0:
        auglist.append(CreateMultiRandCropAugmenter(min_object_covered, aspect_ratio_range, area_range,
                                                    min_eject_coverage, max_attempts, skip_prob=1 - rand_crop))
    if rand_mirror > 0:
        auglist.append(DetHorizontalFlipAug(0.5))
    if rand_pad > 0:
        pad = DetRandomPadAug(aspect_ratio_range, (1.0, area_range[1]), max_attempts, pad_val)
        auglist.append(DetRandomSelectAug([pad], 1 - rand_pad))
    auglist.append(DetBorrowAug(ForceResizeAug((data_shape[2], data_shape[1]), inter_method)))
    auglist.append(DetBorrowAug(CastAug()))
    if brightness or contrast or saturation:
        auglist.append(DetBorrowAug(ColorJitterAug(brightness, contrast, saturation)))
    if hue:
        auglist.append(DetBorrowAug(HueJitterAug(hue)))
    if pca_noise > 0:
        auglist.append(DetBorrowAug(LightingAug(pca_noise, _PCA_EIGVAL, _PCA_EIGVEC)))
    if rand_gray > 0:
        auglist.append(DetBorrowAug(RandomGrayAug(rand_gray)))
    mean = _check_channel_stat(mean, 'mean', [123.68, 116.28, 103.53])
    std = _check_channel_stat(std, 'std', [58.395, 57.12, 57.375])
    if mean is not None or std is not None:
        auglist.append(DetBorrowAug(ColorNormalizeAug(mean, std)))
    return auglist


# ---------------------------------------------------------------------------------------
# ImageDetIter
# ---------------------------------------------------------------------------------------

def _draw_boxes(cv2, image, label, color, thickness, id2labels):
    """Draw the objects of ``label`` on ``image`` (uint8 BGR) in place; a random colour per box
    when ``color`` is None, the class name of ``id2labels`` at each box's corner."""
    height, width = image.shape[:2]
    for obj in label:
        x1 = int(obj[1] * width)
        if x1 < 0:
            continue
        y1, x2, y2 = int(obj[2] * height), int(obj[3] * width), int(obj[4] * height)
        cv2.rectangle(image, (x1, y1), (x2, y2), color or np.random.rand(3) * 255, thickness)
        if id2labels is not None and int(obj[0]) in id2labels:
            text = '%s' % id2labels[int(obj[0])]
            text_height = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 2)[0][1]
            cv2.putText(image, text, (x1 + 5, y1 + text_height + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                        (255, 255, 255), 2)


class ImageDetIter(ImageIter):
    """``ImageIter`` for detection: the labels are ``[header width, object width, ...header,
    objects...]`` arrays (see the module's docstring), augmenters are ``DetAugmenter``s (by
    default ``CreateDetAugmenter(data_shape, **kwargs)``), and a batch's label is (batch,
    objects, object width) float32, the rows past an image's objects being -1.

    ``label_shape`` (objects, object width) is the most objects of any image, found by reading
    the labels once at construction; ``reshape`` and ``sync_label_shape`` widen it.
    """

    _label_init = -1.0

    def __init__(self, batch_size, data_shape, path_imgrec=None, path_imglist=None, path_root=None,
                 path_imgidx=None, shuffle=False, part_index=0, num_parts=1, aug_list=None, imglist=None,
                 data_name='data', label_name='label', last_batch_handle='pad', **kwargs):
        super().__init__(batch_size=batch_size, data_shape=data_shape, path_imgrec=path_imgrec,
                         path_imglist=path_imglist, path_root=path_root, path_imgidx=path_imgidx,
                         shuffle=shuffle, part_index=part_index, num_parts=num_parts, aug_list=[],
                         imglist=imglist, data_name=data_name, label_name=label_name,
                         last_batch_handle=last_batch_handle)
        self.auglist = CreateDetAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.label_shape = self._estimate_label_shape()
        self.provide_label = [(label_name, (self.batch_size,) + self.label_shape)]

    def _check_valid_label(self, label):
        """RuntimeError unless ``label`` is (objects >= 1, width >= 5) with a valid object."""
        if len(label.shape) != 2 or label.shape[1] < 5:
            raise RuntimeError('ImageDetIter: a label of shape (objects, 5 or more) is required, got %s'
                               % (label.shape,))
        valid = (label[:, 0] >= 0) & (label[:, 3] > label[:, 1]) & (label[:, 4] > label[:, 2])
        if not valid.any():
            raise RuntimeError('ImageDetIter: the label has no valid object (class id >= 0, xmax > xmin, '
                               'ymax > ymin): %s' % (label.tolist(),))

    def _estimate_label_shape(self):
        """(most objects of an image, object width), reading every label once."""
        max_count, width = 0, None
        self.reset()
        try:
            while True:
                label = self._parse_label(self.next_sample()[0])
                max_count, width = max(max_count, label.shape[0]), label.shape[1]
        except StopIteration:
            pass
        self.reset()
        if width is None:
            raise RuntimeError('ImageDetIter: there are no images to read labels from')
        return (max_count, width)

    def _parse_label(self, label):
        """The objects (rows) of a raw label, keeping those with xmax > xmin and ymax > ymin."""
        raw = np.asarray(label.asnumpy() if isinstance(label, NDArray) else label).ravel()
        if raw.size < 7:
            raise RuntimeError('ImageDetIter: a raw label needs a header and an object (7 values or more), '
                               'got shape %s' % (raw.shape,))
        header_width, obj_width = int(raw[0]), int(raw[1])
        if (raw.size - header_width) % obj_width != 0:
            raise RuntimeError('ImageDetIter: a raw label of shape %s does not split into objects of width %d '
                               'after a header of %d' % (raw.shape, obj_width, header_width))
        out = np.reshape(raw[header_width:], (-1, obj_width))
        valid = (out[:, 3] > out[:, 1]) & (out[:, 4] > out[:, 2])
        if not valid.any():
            raise RuntimeError('ImageDetIter: a sample has no valid object: %s' % (raw.tolist(),))
        return out[valid, :]

    def reshape(self, data_shape=None, label_shape=None):
        """Set a new ``data_shape`` (C, H, W) and/or ``label_shape`` (objects, width)."""
        if data_shape is not None:
            self.check_data_shape(data_shape)
            self.provide_data = [(self.provide_data[0][0], (self.batch_size,) + tuple(data_shape))]
            self.data_shape = data_shape
        if label_shape is not None:
            self.check_label_shape(label_shape)
            self.provide_label = [(self.provide_label[0][0], (self.batch_size,) + tuple(label_shape))]
            self.label_shape = label_shape

    def _sample(self, label, img):
        try:
            self.check_valid_image(img)
            img, label = self.augmentation_transform(img, self._parse_label(label))
            self._check_valid_label(label)
        except RuntimeError as err:
            logging.debug('Invalid image, skipping: %s', err)
            return None
        return img, label

    def _store_label(self, label, i, objects):
        if objects.shape[0] > label.shape[1]:
            raise ValueError('ImageDetIter: an image has %d objects, more than label_shape %s holds'
                             % (objects.shape[0], tuple(label.shape[1:])))
        label[i, :objects.shape[0]] = objects
        label[i, objects.shape[0]:] = -1

    def augmentation_transform(self, data, label):  # pylint: disable=arguments-differ
        """Apply the detection augmenters in order."""
        for aug in self.auglist:
            data, label = aug(data, label)
        return data, label

    def check_label_shape(self, label_shape):
        """ValueError unless ``label_shape`` is (objects, width) with no fewer objects and the same width."""
        if not len(label_shape) == 2:
            raise ValueError('label_shape should have length 2')
        if label_shape[0] < self.label_shape[0]:
            raise ValueError('Attempts to reduce label count from %d to %d, not allowed.'
                             % (self.label_shape[0], label_shape[0]))
        if label_shape[1] != self.provide_label[0][1][2]:
            raise ValueError('label_shape object width inconsistent: %d vs %d.'
                             % (self.provide_label[0][1][2], label_shape[1]))

    def draw_next(self, color=None, thickness=2, mean=None, std=None, clip=True, waitKey=None,  # noqa: N803
                  window_name='draw_next', id2labels=None):
        """Yield the next images (uint8 BGR, H x W x 3) with their boxes drawn, after the
        augmenters; ``mean``/``std`` (True: ImageNet's) undo a normalisation, ``waitKey`` also
        shows each in an OpenCV window. Needs OpenCV (``cv2``): without it, warns and yields
        nothing, as MXNet does."""
        try:
            import cv2
        except ImportError as err:
            warnings.warn('Unable to import cv2, skip drawing: %s' % err)
            return
        std = _check_channel_stat(std, 'std', [58.395, 57.12, 57.375])
        mean = _check_channel_stat(mean, 'mean', [123.68, 116.28, 103.53])
        bgr_color = tuple(color[::-1]) if color else None
        while True:
            try:
                label, s = self.next_sample()
            except StopIteration:
                return
            data = self._decoded(s)
            try:
                self.check_valid_image(data)
                label = self._parse_label(label)
            except RuntimeError as err:
                logging.debug('Invalid image, skipping: %s', err)
                continue
            data, label = self.augmentation_transform(data, label)
            image = _np(data)[0].astype(np.float64)
            if std is not None:
                image *= std
            if mean is not None:
                image += mean
            image = image[:, :, (2, 1, 0)]
            if clip:
                image = np.clip(image, 0, 255)
            image = np.ascontiguousarray(image.astype(np.uint8))
            _draw_boxes(cv2, image, label, bgr_color, thickness, id2labels)
            if waitKey is not None:
                cv2.imshow(window_name, image)
                cv2.waitKey(waitKey)
            yield image

    def sync_label_shape(self, it, verbose=False):
        """Give this iterator and ``it`` (another ImageDetIter) the larger of their label
        shapes (train and validation iterators must agree); returns ``it``."""
        if not isinstance(it, ImageDetIter):
            raise AssertionError('sync_label_shape: expected an ImageDetIter, got %s' % type(it).__name__)
        mine, theirs = self.label_shape, it.label_shape
        if mine[1] != theirs[1]:
            raise AssertionError('sync_label_shape: object widths differ: %d vs %d' % (mine[1], theirs[1]))
        max_count = max(mine[0], theirs[0])
        if max_count > mine[0]:
            self.reshape(None, (max_count, mine[1]))
        if max_count > theirs[0]:
            it.reshape(None, (max_count, theirs[1]))
        if verbose and max_count > min(mine[0], theirs[0]):
            logging.info('Resized label_shape to (%d, %d).', max_count, mine[1])
        return it
