"""Image transforms of ``gluon.data.vision.transforms`` (ToTensor, Normalize, Resize, ...).

Each transform is a callable taking an image NDArray (H x W x C, or a batch
N x H x W x C; tensors C x H x W after ToTensor) and returning an NDArray; it
also accepts a numpy array and then returns one. The arithmetic is written once
over an array module (numpy or jax.numpy), so that:

* on NDArrays it runs as one compiled call on the array's device, and
* inside ``dataset.transform_first(...)`` the DataLoader applies it to a whole
  batch on the host with numpy (``_host_batch``) before a single transfer,
  giving the same result as transforming each sample and stacking them.

Unlike MXNet, these transforms are plain callables, not Blocks: ``hybridize``
is accepted and does nothing.
"""
import math
import numbers

import jax.numpy as jnp
import numpy as np

from ....base import MXNetError, shape_str
from ....image import image as _mx_image
from ....ndarray import image as nd_image
from ....ndarray.ndarray import NDArray, apply_fn, array as nd_array
from ....ops import image as _image_ops
from ....ops.elemwise import exact_divide
from ..dataset import NoHostBatch

__all__ = ['Compose', 'Cast', 'ToTensor', 'Normalize', 'Resize', 'CenterCrop', 'RandomResizedCrop',
           'CropResize', 'RandomFlipLeftRight', 'RandomFlipTopBottom', 'RandomApply',
           'RandomBrightness', 'RandomContrast', 'RandomSaturation', 'RandomHue', 'RandomColorJitter',
           'RandomLighting', 'Rotate', 'RandomRotation']


class _Transform:
    """Base: ``__call__`` dispatches NDArrays to a compiled function and numpy arrays to numpy."""

    def __call__(self, x):
        return self.forward(x)

    def forward(self, x):
        if isinstance(x, NDArray):
            return self._on_nd(x)
        if isinstance(x, (np.ndarray, np.generic)):
            x = np.asarray(x)
            self._check(x.shape, x.dtype)
            return self._compute(np, x, batched=None)
        raise TypeError('%s: expected an NDArray image, got %s' % (type(self).__name__, type(x).__name__))

    def _on_nd(self, x):
        self._check(x.shape, x.dtype)
        fn = self._jax_fn()
        return apply_fn(fn, (type(self).__name__,) + self._key(), [x], name=type(self).__name__)[0]

    def _jax_fn(self):
        def fn(x):
            return (self._compute(jnp, x, batched=None),)
        return fn

    def _check(self, shape, dtype):
        """Raise MXNetError for an input the transform cannot take."""

    def _key(self):
        """What the compiled function depends on besides the input's shape and dtype."""
        return ()

    def _compute(self, xp, x, batched):
        raise NotImplementedError

    #: whether MXNet 1.9 makes this transform a HybridBlock (only changes Compose's repr)
    _mx_hybrid = False

    def hybridize(self, active=True, **kwargs):
        """Accepted for compatibility with MXNet's HybridBlock transforms; does nothing."""

    def _extra_repr(self):
        return ''

    def __repr__(self):
        return '%s(\n%s\n)' % (type(self).__name__, self._extra_repr())


class _BatchableTransform(_Transform):
    """A transform that can also be applied to a whole host batch of samples."""

    #: number of dimensions of one sample (3: H x W x C, or C x H x W)
    sample_ndim = 3

    def _host_batch(self, batch):
        """The stacked results of the transform applied to each sample of a numpy batch."""
        if not isinstance(batch, np.ndarray) or batch.ndim != self.sample_ndim + 1:
            raise NoHostBatch
        try:
            self._check(batch.shape[1:], batch.dtype)
        except MXNetError:
            raise NoHostBatch from None  # the per-sample path raises the error
        return self._compute(np, batch, batched=True)


# ---------------------------------------------------------------------------------------
# Composition
# ---------------------------------------------------------------------------------------

class Compose(_Transform):
    """Apply a list of transforms in order.

    >>> transformer = transforms.Compose([transforms.Resize(300), transforms.CenterCrop(256),
    ...                                   transforms.ToTensor()])
    """

    def __init__(self, transforms):
        self._transforms = list(transforms)
        for t in self._transforms:
            if not callable(t):
                raise TypeError('Compose: %r is not callable' % (t,))
        if all(hasattr(t, '_host_batch') for t in self._transforms):
            self._host_batch = self._host_batch_all

    def forward(self, x):
        for t in self._transforms:
            x = t(x)
        return x

    def _host_batch_all(self, batch):
        for t in self._transforms:
            batch = t._host_batch(batch)
        return batch

    def _children(self):
        """MXNet's children: its Compose gathers each run of two or more HybridBlock transforms
        into one HybridSequential child, which `len`, indexing and the printed form see."""
        children, run = [], []
        for t in self._transforms + [None]:
            if t is not None and _is_hybrid(t):
                run.append(t)
                continue
            if len(run) == 1:
                children.append(run[0])
            elif run:
                children.append(_HybridRun(run))
            run = []
            if t is not None:
                children.append(t)
        return children

    def __len__(self):
        return len(self._children())

    def __getitem__(self, i):
        return self._children()[i]

    def __repr__(self):
        return 'Compose(\n%s\n)' % _indexed_lines(self._children())


class _HybridRun(Compose):
    """A run of HybridBlock transforms inside a Compose (MXNet's HybridSequential child)."""

    _mx_hybrid = True

    def _children(self):
        return list(self._transforms)

    def __repr__(self):
        return 'HybridSequential(\n%s\n)' % _indexed_lines(self._transforms)


_HybridRun.__name__ = _HybridRun.__qualname__ = 'HybridSequential'  # the type MXNet's Compose holds there


def _is_hybrid(t):
    """Whether MXNet makes ``t`` a HybridBlock (its transforms of that kind say so)."""
    from ...block import HybridBlock
    return getattr(t, '_mx_hybrid', False) or isinstance(t, HybridBlock)


def _indexed_lines(items, reprs=False):
    """``  (i): item`` lines, nested reprs indented as in a Block's repr."""
    return '\n'.join('  (%d): %s' % (i, (t if reprs else repr(t)).replace('\n', '\n  '))
                     for i, t in enumerate(items))


class RandomApply(_Transform):
    """Apply ``transforms`` (a transform or a list) with probability ``p``."""

    def __init__(self, transforms, p=0.5):
        self._transforms = Compose(transforms if isinstance(transforms, (list, tuple)) else [transforms])
        self.p = p

    def forward(self, x):
        if self.p < np.random.random():
            return x
        return self._transforms(x)


# ---------------------------------------------------------------------------------------
# Type and layout
# ---------------------------------------------------------------------------------------

class Cast(_BatchableTransform):
    """Cast the input to ``dtype`` (default float32)."""
    _mx_hybrid = True

    def __init__(self, dtype='float32'):
        self._dtype = np.dtype(dtype)

    def _key(self):
        return (self._dtype.name,)

    def _compute(self, xp, x, batched):
        return x.astype(self._dtype)

    def _host_batch(self, batch):
        if not isinstance(batch, np.ndarray):
            raise NoHostBatch
        return batch.astype(self._dtype)


def _divide(xp, x, divisor):
    """``x / divisor`` correctly rounded, as MXNet divides: the same bits from host batches (numpy)
    and device samples (``exact_divide`` keeps XLA from multiplying by the inexact reciprocal)."""
    return x / divisor if xp is np else exact_divide(x, divisor)


def _image_shape_error(shape):
    return MXNetError('ToTensor: input image must have shape (height, width, channels), or '
                      '(N, height, width, channels) but got %s' % shape_str(shape))


class ToTensor(_BatchableTransform):
    """Convert an image H x W x C (or a batch N x H x W x C) with values in [0, 255] to a float32
    tensor C x H x W (N x C x H x W) with values in [0, 1]."""
    _mx_hybrid = True

    def _check(self, shape, dtype):
        if len(shape) not in (3, 4):
            raise _image_shape_error(shape)

    def _compute(self, xp, x, batched):
        if x.ndim not in (3, 4):
            raise _image_shape_error(x.shape)
        axes = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
        return xp.transpose(_divide(xp, x.astype(np.float32), np.float32(255)), axes)


class Normalize(_BatchableTransform):
    """Normalize a tensor C x H x W (or N x C x H x W) per channel: ``(x - mean[c]) / std[c]``.

    ``mean`` and ``std`` are numbers (the same for every channel) or one value per channel.
    """
    _mx_hybrid = True

    def __init__(self, mean=0.0, std=1.0):
        self._mean = mean
        self._std = std

    @staticmethod
    def _values(v):
        return tuple(float(x) for x in (v if isinstance(v, (list, tuple, np.ndarray)) else [v]))

    def _key(self):
        return (self._values(self._mean), self._values(self._std))

    def _check(self, shape, dtype):
        if len(shape) not in (3, 4):
            raise MXNetError('Normalize: input must have shape (C, H, W) or (N, C, H, W) but got %s'
                             % shape_str(shape))
        channels = shape[0] if len(shape) == 3 else shape[1]
        if channels not in (1, 3):
            raise MXNetError('Normalize: the channel dimension of the input must have 1 or 3 elements, but got '
                             'input with shape %s. Apply ToTensor first to turn H x W x C images into '
                             'C x H x W tensors.' % shape_str(shape))
        for what, vals in (('mean', self._values(self._mean)), ('std', self._values(self._std))):
            if len(vals) not in (1, channels):
                raise MXNetError('Normalize: invalid %s for input with shape %s: %s must have either 1 or %d '
                                 'elements, but got %s' % (what, shape_str(shape), what, channels, list(vals)))

    def _compute(self, xp, x, batched):
        mean = np.asarray(self._values(self._mean), dtype=np.float32)
        std = np.asarray(self._values(self._std), dtype=np.float32)
        channel_axis = 0 if x.ndim == 3 else 1
        shape = [1] * x.ndim
        shape[channel_axis] = -1
        out = _divide(xp, x.astype(np.float32) - mean.reshape(shape), std.reshape(shape))
        return out.astype(x.dtype) if x.dtype != np.float32 else out



# ---------------------------------------------------------------------------------------
# Resizing and cropping (images H x W x C or N x H x W x C)
# ---------------------------------------------------------------------------------------

def _size_hw(size, what):
    """(height, width) from MXNet's size: an int (square) or a (width, height) pair."""
    if isinstance(size, numbers.Integral):
        size = (int(size), int(size))
    if len(size) == 1:
        size = (size[0], size[0])
    if len(size) != 2 or any(int(s) <= 0 for s in size):
        raise MXNetError('%s: size must be a positive int or a (width, height) pair, got %r' % (what, size))
    return int(size[1]), int(size[0])


def _check_image(shape, what):
    if len(shape) not in (3, 4):
        raise MXNetError('%s: input image must have shape (height, width, channels) or (N, height, width, '
                         'channels), but got %s' % (what, shape_str(shape)))


class Resize(_BatchableTransform):
    """Resize an image H x W x C (or a batch) to ``size``: an int (a square, or with
    ``keep_ratio=True`` the short edge) or a ``(width, height)`` pair.

    ``interpolation``: 0 nearest, 1 bilinear (default; OpenCV's pixel-centre convention,
    integer images rounded to nearest), 2 cubic, 3 area, 4 lanczos.
    """
    _mx_hybrid = True

    def __init__(self, size, keep_ratio=False, interpolation=1):
        _image_ops.check_interp(interpolation, 'Resize')
        self._size = size
        self._keep = keep_ratio
        self._interpolation = interpolation
        
    def _key(self):
        size = tuple(self._size) if isinstance(self._size, (list, tuple)) else self._size
        return (size, self._keep, self._interpolation)

    def _check(self, shape, dtype):
        _check_image(shape, 'Resize')
        if np.dtype(dtype) == np.float16 and self._interpolation != 1:
            raise MXNetError('Resize: float16 images are not supported')

    def _compute(self, xp, x, batched):
        _check_image(x.shape, 'Resize')
        h_axis = x.ndim - 3
        out_h, out_w = _image_ops.resize_shape(x.shape[h_axis], x.shape[h_axis + 1], self._size, self._keep, 'Resize')
        return _image_ops.resize(xp, x, out_h, out_w, self._interpolation)


def _crop(xp, x, y0, x0, h, w):
    h_axis = x.ndim - 3
    index = [slice(None)] * x.ndim
    index[h_axis] = slice(y0, y0 + h)
    index[h_axis + 1] = slice(x0, x0 + w)
    return x[tuple(index)]


class CropResize(_BatchableTransform):
    """Crop the region at ``(x, y)`` of ``width`` x ``height``, then resize it to ``size`` when given."""
    _mx_hybrid = True

    def __init__(self, x, y, width, height, size=None, interpolation=None):
        self._x, self._y, self._width, self._height = int(x), int(y), int(width), int(height)
        self._size = size
        self._interpolation = 1 if interpolation is None else interpolation
        _image_ops.check_interp(self._interpolation, 'CropResize')

    def _key(self):
        size = self._size if self._size is None or isinstance(self._size, numbers.Integral) else tuple(self._size)
        return (self._x, self._y, self._width, self._height, size, self._interpolation)

    def _check(self, shape, dtype):
        _check_image(shape, 'CropResize')
        if self._size is not None:
            _size_hw(self._size, 'CropResize')
        h, w = shape[-3], shape[-2]
        if (self._width <= 0 or self._height <= 0 or self._x < 0 or self._y < 0
                or self._x + self._width > w or self._y + self._height > h):
            raise MXNetError('CropResize: the region x=%d, y=%d, width=%d, height=%d does not fit in an image of '
                             'shape %s' % (self._x, self._y, self._width, self._height, shape_str(shape)))

    def _compute(self, xp, x, batched):
        out = _crop(xp, x, self._y, self._x, self._height, self._width)
        if self._size is not None:
            out_h, out_w = _size_hw(self._size, 'CropResize')
            out = _image_ops.resize(xp, out, out_h, out_w, self._interpolation)
        return out


class CenterCrop(_BatchableTransform):
    """Crop the centre of an image to ``size`` (an int for a square, or ``(width, height)``).

    As ``mx.image.center_crop``: a crop larger than the image is first shrunk to fit (keeping
    its aspect ratio), and the region is then resized to ``size`` with ``interpolation``.
    """

    def __init__(self, size, interpolation=1):
        self._h, self._w = _size_hw(size, 'CenterCrop')
        self._interpolation = interpolation

    def _key(self):
        return (self._h, self._w, self._interpolation)

    def _crop_hw(self, shape):
        crop_w, crop_h = _mx_image.scale_down((shape[-2], shape[-3]), (self._w, self._h))
        return crop_h, crop_w

    def _check(self, shape, dtype):
        _check_image(shape, 'CenterCrop')
        if self._crop_hw(shape) != (self._h, self._w):  # interpolation matters only for a resize
            _image_ops.check_interp(self._interpolation, 'CenterCrop')

    def _compute(self, xp, x, batched):
        h, w = x.shape[-3], x.shape[-2]
        crop_h, crop_w = self._crop_hw(x.shape)
        out = _crop(xp, x, int((h - crop_h) / 2), int((w - crop_w) / 2), crop_h, crop_w)
        if (crop_h, crop_w) != (self._h, self._w):
            out = _image_ops.resize(xp, out, self._h, self._w, self._interpolation)
        return out


class RandomResizedCrop(_Transform):
    """Crop a random region (area fraction in ``scale``, aspect ratio in ``ratio``) and resize it
    to ``size``; falls back to a centre crop when no region fits in 10 draws."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=1):
        self._h, self._w = _size_hw(size, 'RandomResizedCrop')
        self._scale, self._ratio = scale, ratio
        self._interpolation = interpolation

    def _region(self, h, w):
        area = h * w
        for _ in range(10):
            target = np.random.uniform(*self._scale) * area
            aspect = math.exp(np.random.uniform(math.log(self._ratio[0]), math.log(self._ratio[1])))
            cw = int(round(math.sqrt(target * aspect)))
            ch = int(round(math.sqrt(target / aspect)))
            if 0 < cw <= w and 0 < ch <= h:
                return np.random.randint(0, h - ch + 1), np.random.randint(0, w - cw + 1), ch, cw
        side = min(h, w)
        return (h - side) // 2, (w - side) // 2, side, side

    def forward(self, x):
        shape = x.shape
        _check_image(shape, 'RandomResizedCrop')
        y0, x0, ch, cw = self._region(shape[-3], shape[-2])
        crop = CropResize(x0, y0, cw, ch, (self._w, self._h), self._interpolation)
        if isinstance(x, NDArray):
            # every draw is a new input shape for the resize, which XLA would compile anew:
            # crop and resize on the host, as MXNet does this one with OpenCV
            out = crop(x.asnumpy())
            return nd_array(out, ctx=x.context, dtype=out.dtype)
        return crop(x)


# ---------------------------------------------------------------------------------------
# Random flips and colour changes
# ---------------------------------------------------------------------------------------

class _RandomFlip(_BatchableTransform):
    """Flip each image along one axis with probability 0.5."""
    _mx_hybrid = True
    _axis_from_end = None  # -2: width (left-right), -3: height (top-bottom)

    def _check(self, shape, dtype):
        _check_image(shape, type(self).__name__)

    def _compute(self, xp, x, batched):
        axis = x.ndim + self._axis_from_end
        if batched:
            flip = np.random.random(x.shape[0]) < 0.5
            out = x.copy()
            out[flip] = np.flip(x[flip], axis=axis)
            return out
        return xp.flip(x, axis=axis)

    def forward(self, x):
        if np.random.random() >= 0.5:
            return x
        return super().forward(x)


class RandomFlipLeftRight(_RandomFlip):
    """Flip the image left to right (along the width) with probability 0.5."""
    _axis_from_end = -2


class RandomFlipTopBottom(_RandomFlip):
    """Flip the image top to bottom (along the height) with probability 0.5."""
    _axis_from_end = -3


class _ImageOp(_Transform):
    """A transform that is one call of an ``nd.image`` operator (numpy arrays go through it too)."""
    _mx_hybrid = True

    def _call_op(self, x):
        raise NotImplementedError

    def forward(self, x):
        if isinstance(x, NDArray):
            return self._call_op(x)
        x = np.asarray(x)
        return self._call_op(nd_array(x, dtype=x.dtype)).asnumpy()


class _RandomColor(_ImageOp):
    """A colour jitter: ``nd.image.random_<op>`` with a factor drawn from [1 - amount, 1 + amount]
    (inside the compiled operator, so a new factor compiles nothing)."""
    _op = None

    def __init__(self, amount):
        self._args = (max(0.0, 1.0 - float(amount)), 1.0 + float(amount))

    def _call_op(self, x):
        return getattr(nd_image, self._op)(x, *self._args)


class RandomBrightness(_RandomColor):
    """Multiply the image by a factor drawn from [1 - brightness, 1 + brightness]."""
    _op = 'random_brightness'


class RandomContrast(_RandomColor):
    """Blend the image with its mean grey level, by a factor drawn from [1 - contrast, 1 + contrast]."""
    _op = 'random_contrast'


class RandomSaturation(_RandomColor):
    """Blend the image with its grey version, by a factor drawn from [1 - saturation, 1 + saturation]."""
    _op = 'random_saturation'


class RandomHue(_ImageOp):
    """Turn the hue of every pixel by a fraction of a turn drawn from [-hue, hue]."""

    def __init__(self, hue):
        self._args = (-float(hue), float(hue))

    def _call_op(self, x):
        return nd_image.random_hue(x, *self._args)


class RandomLighting(_ImageOp):
    """AlexNet's PCA lighting noise, with alphas drawn from N(0, alpha)."""

    def __init__(self, alpha):
        self._alpha = float(alpha)

    def _call_op(self, x):
        return nd_image.random_lighting(x, self._alpha)


class RandomColorJitter(_Transform):
    """Random brightness, contrast, saturation and hue changes, in a random order."""
    _mx_hybrid = True

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        self._ts = [cls(v) for cls, v in ((RandomBrightness, brightness), (RandomContrast, contrast),
                                          (RandomSaturation, saturation), (RandomHue, hue)) if v]

    def forward(self, x):
        for i in np.random.permutation(len(self._ts)):
            x = self._ts[i](x)
        return x


# ---------------------------------------------------------------------------------------
# Rotations (float32 tensors C x H x W or N x C x H x W, as mx.image.imrotate takes them)
# ---------------------------------------------------------------------------------------

def _check_float32(x, what):
    if np.dtype(x.dtype) != np.float32:
        raise TypeError('%s: only float32 tensors can be rotated, got %s' % (what, np.dtype(x.dtype).name))


class Rotate(_Transform):
    """Rotate a tensor by ``rotation_degrees`` counter-clockwise (``mx.image.imrotate``)."""

    def __init__(self, rotation_degrees, zoom_in=False, zoom_out=False):
        self._args = (rotation_degrees, zoom_in, zoom_out)

    def forward(self, x):
        _check_float32(x, 'Rotate')
        return _mx_image.imrotate(x, *self._args)


class RandomRotation(_Transform):
    """With probability ``rotate_with_proba``, rotate a tensor by an angle drawn from
    ``angle_limits`` (one per image of a batch; ``mx.image.random_rotate``)."""

    def __init__(self, angle_limits, zoom_in=False, zoom_out=False, rotate_with_proba=1.0):
        if not 0 <= rotate_with_proba <= 1:
            raise ValueError('RandomRotation: rotate_with_proba must be in [0, 1], got %r' % (rotate_with_proba,))
        self._args = (angle_limits, zoom_in, zoom_out)
        self._proba = rotate_with_proba

    def forward(self, x):
        if np.random.random() > self._proba:
            return x
        _check_float32(x, 'RandomRotation')
        return _mx_image.random_rotate(x, *self._args)
