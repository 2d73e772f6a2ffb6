"""``mx.image``: decoding, resizing, cropping and augmenting images; ``ImageIter``.

Images are H x W x C arrays (RGB unless ``to_rgb=0``). Every function takes an NDArray or
a numpy array and returns the same kind; the work is done with numpy on the host (one
image at a time, as MXNet's OpenCV calls do), so an augmentation chain over numpy arrays
never touches a device. Decoding and encoding use Pillow (``pip install pillow``).

Random choices use Python's ``random`` module (crops, flips, jitters, ``RandomOrderAug``)
and numpy's global generator (``LightingAug``) exactly where MXNet 1.9.1 does, so seeding
both gives the same crops and flips as MXNet.

Interpolation codes are OpenCV's: 0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 lanczos,
9 chosen by the sizes (cubic when enlarging, area when shrinking, bilinear otherwise) and
10 random among 0-4. Nearest, bilinear, bicubic (a = -0.75) and Lanczos4 follow OpenCV's
kernels and pixel-centre rules, and so does area (the covered-fraction average when
shrinking, OpenCV's own linear coefficients when enlarging); all are computed in floating
point, so uint8 results are within 1 of OpenCV's fixed-point ones.
"""
import io as _io
import json
import logging
import numbers
import os
import random

import numpy as np

from ..base import MXNetError
from ..io import DataBatch, DataIter
from ..ndarray import ndarray as _ndarray_module
from ..ndarray.ndarray import NDArray, array as _nd_array
from .. import recordio
from ..ops import image as _image_ops

__all__ = ['imread', 'imdecode', 'imresize', 'resize_short', 'scale_down', 'copyMakeBorder',
           'fixed_crop', 'random_crop', 'imrotate', 'random_rotate', 'center_crop', 'random_size_crop', 'color_normalize',
           'Augmenter', 'SequentialAug', 'RandomOrderAug', 'ResizeAug', 'ForceResizeAug',
           'RandomCropAug', 'RandomSizedCropAug', 'CenterCropAug', 'BrightnessJitterAug',
           'ContrastJitterAug', 'SaturationJitterAug', 'HueJitterAug', 'ColorJitterAug',
           'LightingAug', 'ColorNormalizeAug', 'RandomGrayAug', 'HorizontalFlipAug', 'CastAug',
           'CreateAugmenter', 'ImageIter']


# ---------------------------------------------------------------------------------------
# numpy <-> NDArray
# ---------------------------------------------------------------------------------------

def _np(src):
    """(numpy array, context or None): the host copy of an NDArray, or the array itself."""
    if isinstance(src, NDArray):
        return src.asnumpy(), src.context
    return np.asarray(src), None


def _back(x, ctx):
    """``x`` as an NDArray on ``ctx`` when the input was one, else as numpy."""
    if ctx is None:
        return x
    return _nd_array(x, ctx=ctx, dtype=x.dtype)


def _check_hwc(x, what):
    if x.ndim != 3:
        raise MXNetError('%s: expected an image of shape (height, width, channels), got shape %s'
                         % (what, tuple(x.shape)))


# ---------------------------------------------------------------------------------------
# Decoding and encoding (Pillow)
# ---------------------------------------------------------------------------------------

def _pil():
    try:
        from PIL import Image
    except ImportError:
        raise MXNetError('mx.image: decoding and encoding images needs Pillow (pip install pillow)') from None
    return Image


_FORMATS = {b'\xff\xd8': ['JPEG'], b'BM': ['BMP'], b'GI': ['GIF']}


def _profiled(name, fn, *args):
    """``fn(*args)``, a host step of the image pipeline. While the profiler records operators
    it is an event under the name of the operator MXNet 1.9.1 runs for it (``Imdecode``,
    ``_cvimresize``, ``slice``, ``reverse``, ``transpose``, ``_slice_assign``), so that an
    image pipeline shows in the trace and the aggregate table as it does in MXNet's."""
    hook = _ndarray_module.profiler_hook
    if hook is None:
        return fn(*args)
    started = hook.start()
    out = fn(*args)
    hook.operator(name, started, ())
    return out


def _decode_numpy(buf, flag=1, bgr=False, what='imdecode', squeeze=False):
    """Decode encoded image bytes to a uint8 numpy array H x W x C.

    ``flag`` 1: 3 channels, 0: 1 channel (greyscale), -1: as stored (1, 3 or 4 channels).
    RGB(A) order unless ``bgr``; ``squeeze`` drops the channel axis of greyscale images
    (as ``cv2.imdecode`` returns them).
    """
    if isinstance(buf, np.ndarray):
        buf = buf.tobytes()
    buf = bytes(buf)
    if not buf:
        raise MXNetError('%s: the image buffer is empty' % what)
    Image = _pil()
    try:
        # naming the format skips Pillow's probing of every plugin (most of a small image's cost)
        formats = _FORMATS.get(buf[:2]) if buf[:2] != b'\x89P' else ['PNG']
        img = Image.open(_io.BytesIO(buf), formats=formats)
        if flag == 0 and img.mode != 'L':
            if img.format == 'PNG':
                return _png_grey(img, squeeze)
            if img.format == 'JPEG':
                img.draft('L', img.size)    # the luma plane, as libjpeg decodes greyscale for OpenCV
            img = img.convert('L')
        elif flag > 0 and img.mode != 'RGB':
            img = img.convert('RGB')
        elif img.mode not in ('L', 'RGB', 'RGBA'):
            img = img.convert('RGBA' if 'A' in img.mode or 'transparency' in img.info else 'RGB')
        arr = np.asarray(img, dtype=np.uint8)
    except Exception as err:  # Pillow raises several unrelated types for bad data
        raise MXNetError('%s: cannot decode the image (%d bytes): %s' % (what, len(buf), err)) from None
    if arr.ndim == 2:
        if not squeeze:
            arr = arr[:, :, None]
    elif bgr:
        arr = arr[:, :, [2, 1, 0, 3][:arr.shape[2]]]
    return np.ascontiguousarray(arr)


def _png_grey(img, squeeze):
    """A colour PNG as grey levels the way OpenCV gets them from libpng (png_set_rgb_to_gray):
    15-bit coefficients of 0.299 and 0.587 with the rest for blue, truncated, where Pillow's
    ``convert('L')`` rounds (one grey level apart on about half the pixels)."""
    rgb = np.asarray(img.convert('RGB'), dtype=np.uint32)
    grey = (9798 * rgb[:, :, 0] + 19235 * rgb[:, :, 1] + 3735 * rgb[:, :, 2]) >> 15
    grey = grey.astype(np.uint8)
    return np.ascontiguousarray(grey if squeeze else grey[:, :, None])


def _encode_numpy(img, quality=95, img_fmt='.jpg', bgr=False):
    """Encode a uint8 image (H x W, H x W x 1/3/4; BGR(A) when ``bgr``) as JPEG or PNG bytes."""
    Image = _pil()
    img = np.asarray(img)
    if img.dtype != np.uint8:
        raise MXNetError('pack_img: images are encoded from uint8 arrays, got dtype %s' % img.dtype)
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[:, :, 0]
    if img.ndim == 3:
        if img.shape[2] not in (3, 4):
            raise MXNetError('pack_img: expected 1, 3 or 4 channels, got image shape %s' % (img.shape,))
        if bgr:
            img = img[:, :, [2, 1, 0, 3][:img.shape[2]]]
    elif img.ndim != 2:
        raise MXNetError('pack_img: expected an image H x W or H x W x C, got shape %s' % (img.shape,))
    fmt = img_fmt.lower().lstrip('.')
    out = _io.BytesIO()
    pil = Image.fromarray(np.ascontiguousarray(img))
    if fmt in ('jpg', 'jpeg'):
        if pil.mode == 'RGBA':
            raise MXNetError('pack_img: JPEG cannot store 4 channels; use img_fmt=".png"')
        pil.save(out, format='JPEG', quality=int(quality))
    elif fmt == 'png':
        pil.save(out, format='PNG', compress_level=min(max(int(quality), 0), 9))  # OpenCV clamps too
    else:
        raise MXNetError('pack_img: img_fmt must be ".jpg" or ".png", got %r' % img_fmt)
    return out.getvalue()


def imdecode(buf, flag=1, to_rgb=1, out=None, **kwargs):
    """Decode an image (bytes, bytearray, numpy uint8 or NDArray of the file's bytes) to an
    NDArray H x W x C uint8: C is 3 when ``flag`` is 1 (RGB, or BGR with ``to_rgb=0``) and 1
    when ``flag`` is 0."""
    if flag < 0:   # MXNet's operator parameter takes 0 or more; -1 is not OpenCV's "as stored" here
        raise MXNetError('imdecode: flag must be 1 (colour) or 0 (greyscale), got %d' % flag)
    if isinstance(buf, NDArray):
        if buf.dtype != np.uint8:
            raise MXNetError('imdecode: an NDArray buffer must be uint8, got %s' % np.dtype(buf.dtype).name)
        buf = buf.asnumpy()
    if not isinstance(buf, (bytes, bytearray, memoryview, np.ndarray)):
        raise ValueError('imdecode: buf must be bytes, bytearray, a numpy array or an NDArray, got %s'
                         % type(buf).__name__)
    arr = _profiled('Imdecode', lambda: _decode_numpy(buf, 1 if flag else 0, bgr=not to_rgb, what='imdecode'))
    res = _nd_array(arr, dtype=np.uint8)
    if out is not None:
        out[:] = res
        return out
    return res


def imread(filename, flag=1, to_rgb=True, out=None, **kwargs):
    """Read and decode the image file ``filename`` (see ``imdecode``)."""
    try:
        with open(filename, 'rb') as f:
            buf = f.read()
    except OSError as err:
        raise MXNetError('imread: cannot open %s: %s' % (filename, err.strerror)) from None
    try:
        return imdecode(buf, flag, to_rgb, out)
    except MXNetError as err:
        raise MXNetError('imread: %s: %s' % (filename, err)) from None


# ---------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------

def _interp_method(interp, sizes=()):
    """An interpolation code 0-4 from MXNet's codes (9: by the sizes, 10: random)."""
    if interp == 9:
        if sizes:
            assert len(sizes) == 4
            oh, ow, nh, nw = sizes
            if nh > oh and nw > ow:
                return 2
            if nh < oh and nw < ow:
                return 3
            return 1
        return 2
    if interp == 10:
        return random.randint(0, 4)
    if interp not in (0, 1, 2, 3, 4):
        raise ValueError('Unknown interp method %d' % interp)
    return interp


_get_interp_method = _interp_method  # MXNet's name, imported by GluonCV's resize_short_within


def _resize_np(x, w, h, interp):
    """Resize a numpy image H x W x C to h x w (interp 0-4; see the module's docstring)."""
    w, h = int(w), int(h)
    if w <= 0 or h <= 0:
        raise MXNetError('imresize: the output size must be positive, got width %d, height %d' % (w, h))
    if (x.shape[0], x.shape[1]) == (h, w):
        return x.copy()
    return _profiled('_cvimresize', lambda: np.asarray(_image_ops.resize(np, x, h, w, interp)))


def imresize(src, w, h, interp=1, out=None):
    """Resize an image H x W x C to ``h`` x ``w`` (OpenCV's interpolation codes)."""
    x, ctx = _np(src)
    _check_hwc(x, 'imresize')
    try:
        method = _interp_method(interp, (x.shape[0], x.shape[1], h, w))
    except ValueError as err:  # MXNet's imresize is an operator (_cvimresize): its errors are MXNetErrors
        raise MXNetError('imresize: %s (interp must be 0-4, 9 or 10)' % err) from None
    res = _resize_np(x, w, h, method)
    if out is not None:
        out[:] = res
        return out
    return _back(res, ctx)


def scale_down(src_size, size):
    """Shrink ``size`` (w, h) to fit inside ``src_size`` (w, h), keeping its aspect ratio."""
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def resize_short(src, size, interp=2):
    """Resize so that the shorter edge is ``size``, keeping the aspect ratio."""
    x, ctx = _np(src)
    _check_hwc(x, 'resize_short')
    h, w = x.shape[0], x.shape[1]
    if h > w:
        new_h, new_w = size * h // w, size
    else:
        new_h, new_w = size, size * w // h
    res = _resize_np(x, new_w, new_h, _interp_method(interp, (h, w, new_h, new_w)))
    return _back(res, ctx)


_BORDER_MODES = {1: 'edge', 2: 'symmetric', 3: 'wrap', 4: 'reflect'}
# OpenCV's BORDER_ISOLATED flag, or-ed into a border type (MXNet's DetRandomPadAug pads with
# type 16): it only matters for a view into a larger image, which an array here never is
_BORDER_ISOLATED = 16


def _border_fill(value, values, channels):
    """The constant border's pixel: ``value`` in every channel, or ``values`` per channel
    with the channels it does not name 0 (OpenCV's cv::Scalar; a number is one channel)."""
    if values is None:
        return np.full(channels, value, dtype=np.float64)
    given = np.asarray(values, dtype=np.float64).ravel()[:channels]
    return np.concatenate([given, np.zeros(channels - given.size)])


def copyMakeBorder(src, top, bot, left, right, type=0, value=0, values=None, out=None):  # noqa: N802,A002
    """Pad an image with a border like ``cv2.copyMakeBorder``: ``type`` 0 constant (``value``,
    or per-channel ``values`` with missing channels 0), 1 replicate, 2 reflect, 3 wrap,
    4 reflect-101, any of them or-ed with 16 (BORDER_ISOLATED)."""
    x, ctx = _np(src)
    _check_hwc(x, 'copyMakeBorder')
    type &= ~_BORDER_ISOLATED  # noqa: A001
    pads = ((int(top), int(bot)), (int(left), int(right)), (0, 0))
    if type == 0:
        res = np.empty((x.shape[0] + pads[0][0] + pads[0][1], x.shape[1] + pads[1][0] + pads[1][1], x.shape[2]),
                       dtype=x.dtype)
        res[:] = _border_fill(value, values, x.shape[2]).astype(x.dtype)
        res[pads[0][0]:pads[0][0] + x.shape[0], pads[1][0]:pads[1][0] + x.shape[1]] = x
    elif type in _BORDER_MODES:
        res = np.pad(x, pads, mode=_BORDER_MODES[type])
    else:
        raise MXNetError('copyMakeBorder: type must be 0-4, got %r' % (type,))
    if out is not None:
        out[:] = res
        return out
    return _back(res, ctx)


def fixed_crop(src, x0, y0, w, h, size=None, interp=2):
    """Crop the ``w`` x ``h`` region at (``x0``, ``y0``), then resize to ``size`` (w, h) if given."""
    x, ctx = _np(src)
    _check_hwc(x, 'fixed_crop')
    x0, y0, w, h = int(x0), int(y0), int(w), int(h)
    if x0 < 0 or y0 < 0 or w <= 0 or h <= 0 or x0 + w > x.shape[1] or y0 + h > x.shape[0]:
        raise MXNetError('fixed_crop: the region x0=%d, y0=%d, w=%d, h=%d is not inside the image of shape %s'
                         % (x0, y0, w, h, tuple(x.shape)))
    res = _profiled('slice', lambda: x[y0:y0 + h, x0:x0 + w])
    if size is not None and (w, h) != tuple(size):
        res = _resize_np(res, size[0], size[1], _interp_method(interp, (h, w, size[1], size[0])))
    else:
        res = res.copy()
    return _back(res, ctx)


def random_crop(src, size, interp=2):
    """Crop a random region of ``size`` (w, h) (shrunk to fit, then resized back to ``size``).

    Returns (image, (x0, y0, w, h)).
    """
    h, w = src.shape[0], src.shape[1]
    new_w, new_h = scale_down((w, h), size)
    x0 = random.randint(0, w - new_w)
    y0 = random.randint(0, h - new_h)
    return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def center_crop(src, size, interp=2):
    """Crop the centre region of ``size`` (w, h) (shrunk to fit, then resized back to ``size``).

    Returns (image, (x0, y0, w, h)).
    """
    h, w = src.shape[0], src.shape[1]
    new_w, new_h = scale_down((w, h), size)
    x0 = int((w - new_w) / 2)
    y0 = int((h - new_h) / 2)
    return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def random_size_crop(src, size, area, ratio, interp=2, **kwargs):
    """Crop a random region with an area fraction in ``area`` (a number means (area, 1)) and an
    aspect ratio in ``ratio``, resized to ``size``; falls back to ``center_crop`` after 10 tries.

    Returns (image, (x0, y0, w, h)).
    """
    h, w = src.shape[0], src.shape[1]
    src_area = h * w
    if 'min_area' in kwargs:
        area = kwargs.pop('min_area')
    if kwargs:
        raise TypeError('random_size_crop: unexpected arguments %s' % sorted(kwargs))
    if isinstance(area, numbers.Number):
        area = (area, 1.0)
    for _ in range(10):
        target_area = random.uniform(area[0], area[1]) * src_area
        log_ratio = (np.log(ratio[0]), np.log(ratio[1]))
        new_ratio = np.exp(random.uniform(*log_ratio))
        new_w = int(round(np.sqrt(target_area * new_ratio)))
        new_h = int(round(np.sqrt(target_area / new_ratio)))
        if new_w <= w and new_h <= h:
            x0 = random.randint(0, w - new_w)
            y0 = random.randint(0, h - new_h)
            return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)
    return center_crop(src, size, interp)


def color_normalize(src, mean, std=None):
    """``(src - mean) / std`` per channel. An NDArray ``src`` is updated in place, as in MXNet."""
    if isinstance(src, NDArray):
        if mean is not None:
            src -= mean if isinstance(mean, NDArray) else _nd_array(np.asarray(mean), ctx=src.context)
        if std is not None:
            src /= std if isinstance(std, NDArray) else _nd_array(np.asarray(std), ctx=src.context)
        return src
    x = np.asarray(src)
    dtype = x.dtype if np.issubdtype(x.dtype, np.floating) else np.float32
    if mean is not None:
        x = x - (mean.asnumpy() if isinstance(mean, NDArray) else np.asarray(mean)).astype(dtype)
    if std is not None:
        x = x / (std.asnumpy() if isinstance(std, NDArray) else np.asarray(std)).astype(dtype)
    return x


def _bilinear_sample(img, gx, gy):
    """Sample C x H x W ``img`` at normalised coordinates (-1..1, as BilinearSampler), zero outside."""
    c, h, w = img.shape
    x = (gx + 1.0) * (w - 1) / 2.0
    y = (gy + 1.0) * (h - 1) / 2.0
    x0, y0 = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    out = np.zeros((c,) + gx.shape, dtype=np.float32)
    for dy in (0, 1):
        for dx in (0, 1):
            xi, yi = x0 + dx, y0 + dy
            wgt = (1.0 - np.abs(x - xi)) * (1.0 - np.abs(y - yi))
            ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
            vals = img[:, np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)]
            out += np.where(ok, wgt, 0.0).astype(np.float32) * vals
    return out


def imrotate(src, rotation_degrees, zoom_in=False, zoom_out=False):
    """Rotate float32 images C x H x W (or a batch N x C x H x W, with one angle or one per
    image) by ``rotation_degrees`` counter-clockwise about the centre, bilinearly, with zeros
    outside; ``zoom_in`` scales up to leave no zeros, ``zoom_out`` down to keep every pixel."""
    if zoom_in and zoom_out:
        raise ValueError('`zoom_in` and `zoom_out` cannot be both True')
    x, ctx = _np(src)
    if x.dtype != np.float32:
        raise TypeError('imrotate: only float32 images are supported, got %s' % x.dtype)
    single = x.ndim == 3
    if single:
        if not isinstance(rotation_degrees, numbers.Number):
            raise TypeError('imrotate: when a single image is passed the rotation angle must be a scalar, got %s'
                            % type(rotation_degrees).__name__)
        x = x[None]
    elif x.ndim != 4:
        raise ValueError('imrotate: expected C x H x W or N x C x H x W images, got shape %s' % (x.shape,))
    if isinstance(rotation_degrees, numbers.Number):
        angles = np.full(len(x), float(rotation_degrees))
    else:
        angles = np.asarray(rotation_degrees.asnumpy() if isinstance(rotation_degrees, NDArray) else rotation_degrees,
                            dtype=np.float64).ravel()
    if len(angles) != len(x):
        raise ValueError('imrotate: %d images but %d rotation angles' % (len(x), len(angles)))
    _, _, h, w = x.shape
    hs, ws = (h - 1) / 2.0, (w - 1) / 2.0
    hm, wm = np.meshgrid(np.arange(h) - hs, np.arange(w) - ws, indexing='ij')
    out = np.empty_like(x)
    for i, deg in enumerate(angles):
        rad = np.pi * deg / 180.0
        ca, sa = np.cos(rad), np.sin(rad)
        gx = (wm * ca - hm * sa) / ws
        gy = (wm * sa + hm * ca) / hs
        scale = 1.0
        if zoom_in or zoom_out:
            rho, ang = np.sqrt(h * h + w * w), np.arctan(h / w)
            mx_x = max(abs(rho * np.cos(ang + abs(rad))), abs(rho * np.cos(ang - abs(rad))))
            mx_y = max(abs(rho * np.sin(ang + abs(rad))), abs(rho * np.sin(ang - abs(rad))))
            scale = max(mx_x / w, mx_y / h) if zoom_out else min(w / mx_x, h / mx_y)
        out[i] = _bilinear_sample(x[i], gx * scale, gy * scale)
    return _back(out[0] if single else out, ctx)


def random_rotate(src, angle_limits, zoom_in=False, zoom_out=False):
    """``imrotate`` by angles drawn uniformly from ``angle_limits`` (numpy's global generator)."""
    if len(src.shape) == 3:
        return imrotate(src, np.random.uniform(*angle_limits), zoom_in, zoom_out)
    return imrotate(src, np.random.uniform(*angle_limits, size=src.shape[0]), zoom_in, zoom_out)


# ---------------------------------------------------------------------------------------
# Augmenters
# ---------------------------------------------------------------------------------------

class _Described:
    """What classification and detection augmenters share: the arguments ``dumps`` writes
    (arrays as lists), and ``_children()``, the augmenters one applies in turn."""

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, NDArray):
                v = v.asnumpy()
            if isinstance(v, np.ndarray):
                kwargs[k] = v.tolist()
        self._kwargs = kwargs

    def _children(self):
        return ()

    def dumps(self):
        """``[class name in lower case, arguments]`` as a JSON string."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])


class Augmenter(_Described):
    """Base of the image augmenters: ``aug(src)`` returns the augmented image (NDArray in,
    NDArray out; numpy in, numpy out). ``dumps()`` describes it as JSON.

    A class whose ``__call__`` accepts numpy images too says so with ``_takes_numpy = True``
    in its own body (the built-in augmenters; a user's subclass that overrides ``__call__``
    does not inherit the promise), and ``_children()`` lists the augmenters it applies in
    turn; ``ImageIter`` keeps an image on the host while every augmenter takes numpy."""

    _takes_numpy = False

    def __call__(self, src):
        raise NotImplementedError('%s must implement __call__' % type(self).__name__)


class _NumpyAug(Augmenter):
    """An augmenter computed on numpy: ``_apply(x)`` on the host copy of the image."""

    _takes_numpy = True
    # MXNet's colour augmenters compute `src *= alpha` & co.: a float NDArray handed to them is
    # updated in place and returned (an integer image gives a new float32 array here)
    _in_place = False

    def __call__(self, src):
        x, ctx = _np(src)
        out = self._apply(x)
        if out is x:  # not applied this time (RandomGrayAug, HorizontalFlipAug): MXNet returns src
            return src
        if (self._in_place and isinstance(src, NDArray) and out.dtype == x.dtype
                and out.shape == x.shape):
            src[:] = out
            return src
        return _back(out, ctx)

    def _apply(self, x):
        raise NotImplementedError


class SequentialAug(Augmenter):
    """Apply the augmenters ``ts`` in order."""

    _takes_numpy = True

    def __init__(self, ts):
        super().__init__()
        self.ts = ts

    def _children(self):
        return self.ts

    def dumps(self):
        return [self.__class__.__name__.lower(), [x.dumps() for x in self.ts]]

    def __call__(self, src):
        for aug in self.ts:
            src = aug(src)
        return src


class RandomOrderAug(SequentialAug):
    """Apply the augmenters ``ts`` in a random order (``random.shuffle``)."""

    _takes_numpy = True

    def __call__(self, src):
        random.shuffle(self.ts)
        for aug in self.ts:
            src = aug(src)
        return src


class ResizeAug(_NumpyAug):
    """Resize the shorter edge to ``size``."""

    def __init__(self, size, interp=2):
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def _apply(self, x):
        return resize_short(x, self.size, self.interp)


class ForceResizeAug(_NumpyAug):
    """Resize to ``size`` (w, h), ignoring the aspect ratio."""

    def __init__(self, size, interp=2):
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def _apply(self, x):
        _check_hwc(x, 'ForceResizeAug')
        sizes = (x.shape[0], x.shape[1], self.size[1], self.size[0])
        return _resize_np(x, self.size[0], self.size[1], _interp_method(self.interp, sizes))


class RandomCropAug(_NumpyAug):
    """Crop a random region of ``size`` (w, h)."""

    def __init__(self, size, interp=2):
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def _apply(self, x):
        return random_crop(x, self.size, self.interp)[0]


class RandomSizedCropAug(_NumpyAug):
    """Crop a random region (area fraction ``area``, aspect ratio in ``ratio``) resized to ``size``."""

    def __init__(self, size, area, ratio, interp=2, **kwargs):
        super().__init__(size=size, area=area, ratio=ratio, interp=interp)
        self.size = size
        if 'min_area' in kwargs:
            area = kwargs.pop('min_area')
        self.area = area
        self.ratio = ratio
        self.interp = interp
        if kwargs:
            raise TypeError('RandomSizedCropAug: unexpected arguments %s' % sorted(kwargs))

    def _apply(self, x):
        return random_size_crop(x, self.size, self.area, self.ratio, self.interp)[0]


class CenterCropAug(_NumpyAug):
    """Crop the centre region of ``size`` (w, h)."""

    def __init__(self, size, interp=2):
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def _apply(self, x):
        return center_crop(x, self.size, self.interp)[0]


def _float(x):
    return x if np.issubdtype(x.dtype, np.floating) else x.astype(np.float32)


class BrightnessJitterAug(_NumpyAug):
    """Multiply by ``1 + uniform(-brightness, brightness)``."""

    _in_place = True

    def __init__(self, brightness):
        super().__init__(brightness=brightness)
        self.brightness = brightness

    def _apply(self, x):
        alpha = 1.0 + random.uniform(-self.brightness, self.brightness)
        return _float(x) * np.float32(alpha)


_GRAY_COEF = np.array([[[0.299, 0.587, 0.114]]], dtype=np.float32)


class ContrastJitterAug(_NumpyAug):
    """Blend with the image's mean grey level by ``1 + uniform(-contrast, contrast)``."""

    _in_place = True

    def __init__(self, contrast):
        super().__init__(contrast=contrast)
        self.contrast = contrast

    def _apply(self, x):
        x = _float(x)
        alpha = 1.0 + random.uniform(-self.contrast, self.contrast)
        gray = x * _GRAY_COEF
        gray = np.float32(3.0 * (1.0 - alpha) / gray.size) * np.sum(gray, dtype=np.float32)
        return x * np.float32(alpha) + gray


class SaturationJitterAug(_NumpyAug):
    """Blend with each pixel's grey level by ``1 + uniform(-saturation, saturation)``."""

    _in_place = True

    def __init__(self, saturation):
        super().__init__(saturation=saturation)
        self.saturation = saturation

    def _apply(self, x):
        x = _float(x)
        alpha = 1.0 + random.uniform(-self.saturation, self.saturation)
        gray = np.sum(x * _GRAY_COEF, axis=2, keepdims=True, dtype=np.float32)
        gray = gray * np.float32(1.0 - alpha)
        return x * np.float32(alpha) + gray


class HueJitterAug(_NumpyAug):
    """Rotate the hue by ``uniform(-hue, hue)`` half-turns in YIQ space."""

    def __init__(self, hue):
        super().__init__(hue=hue)
        self.hue = hue
        self.tyiq = np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.321], [0.211, -0.523, 0.311]])
        self.ityiq = np.array([[1.0, 0.956, 0.621], [1.0, -0.272, -0.647], [1.0, -1.107, 1.705]])

    def _apply(self, x):
        alpha = random.uniform(-self.hue, self.hue)
        u, w = np.cos(alpha * np.pi), np.sin(alpha * np.pi)
        bt = np.array([[1.0, 0.0, 0.0], [0.0, u, -w], [0.0, w, u]])
        t = np.dot(np.dot(self.ityiq, bt), self.tyiq).T
        return np.dot(_float(x), t.astype(np.float32))


class ColorJitterAug(RandomOrderAug):
    """Brightness, contrast and saturation jitter in a random order."""

    def __init__(self, brightness, contrast, saturation):
        ts = []
        if brightness > 0:
            ts.append(BrightnessJitterAug(brightness))
        if contrast > 0:
            ts.append(ContrastJitterAug(contrast))
        if saturation > 0:
            ts.append(SaturationJitterAug(saturation))
        super().__init__(ts)


class LightingAug(_NumpyAug):
    """AlexNet-style PCA lighting noise: add ``eigvec @ (eigval * normal(0, alphastd))``."""

    _in_place = True

    def __init__(self, alphastd, eigval, eigvec):
        super().__init__(alphastd=alphastd, eigval=eigval, eigvec=eigvec)
        self.alphastd = alphastd
        self.eigval = np.asarray(eigval)
        self.eigvec = np.asarray(eigvec)

    def _apply(self, x):
        alpha = np.random.normal(0, self.alphastd, size=(3,))
        rgb = np.dot(self.eigvec * alpha, self.eigval)
        return _float(x) + rgb.astype(np.float32)


class ColorNormalizeAug(Augmenter):
    """Subtract ``mean`` and divide by ``std`` (per channel)."""

    _takes_numpy = True

    def __init__(self, mean, std):
        super().__init__(mean=mean, std=std)
        self.mean = mean if mean is None or isinstance(mean, NDArray) else _nd_array(np.asarray(mean))
        self.std = std if std is None or isinstance(std, NDArray) else _nd_array(np.asarray(std))

    def __call__(self, src):
        if isinstance(src, NDArray):
            return color_normalize(src, self.mean, self.std)
        return color_normalize(_float(np.asarray(src)), self.mean, self.std)


class RandomGrayAug(_NumpyAug):
    """With probability ``p``, replace the image by its grey level (in all 3 channels)."""

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p
        self.mat = np.array([[0.21, 0.21, 0.21], [0.72, 0.72, 0.72], [0.07, 0.07, 0.07]], dtype=np.float32)

    def _apply(self, x):
        if random.random() < self.p:
            x = np.dot(_float(x), self.mat)
        return x


class HorizontalFlipAug(_NumpyAug):
    """With probability ``p``, flip left-right."""

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p

    def _apply(self, x):
        if random.random() < self.p:
            x = _profiled('reverse', lambda: x[:, ::-1].copy())
        return x


class CastAug(_NumpyAug):
    """Cast to ``typ`` (float32 by default)."""

    def __init__(self, typ='float32'):
        super().__init__(type=typ)
        self.typ = typ

    def _apply(self, x):
        return x.astype(self.typ)


def CreateAugmenter(data_shape, resize=0, rand_crop=False, rand_resize=False, rand_mirror=False,  # noqa: N802
                    mean=None, std=None, brightness=0, contrast=0, saturation=0, hue=0,
                    pca_noise=0, rand_gray=0, inter_method=2):
    """MXNet's default augmenter list for ``data_shape`` (C, H, W); ``mean``/``std`` True
    means ImageNet's. Bad arguments raise AssertionError, as MXNet's asserts do."""
    auglist = []
    if resize > 0:
        auglist.append(ResizeAug(resize, inter_method))
    crop_size = (data_shape[2], data_shape[1])
    if rand_resize:
        assert rand_crop, 'CreateAugmenter: rand_resize needs rand_crop'
        auglist.append(RandomSizedCropAug(crop_size, 0.08, (3.0 / 4.0, 4.0 / 3.0), inter_method))
    elif rand_crop:
        auglist.append(RandomCropAug(crop_size, inter_method))
    else:
        auglist.append(CenterCropAug(crop_size, inter_method))
    if rand_mirror:
        auglist.append(HorizontalFlipAug(0.5))
    auglist.append(CastAug())
    if brightness or contrast or saturation:
        auglist.append(ColorJitterAug(brightness, contrast, saturation))
    if hue:
        auglist.append(HueJitterAug(hue))
    if pca_noise > 0:
        eigval = np.array([55.46, 4.794, 1.148])
        eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
        auglist.append(LightingAug(pca_noise, eigval, eigvec))
    if rand_gray > 0:
        auglist.append(RandomGrayAug(rand_gray))
    if mean is True:
        mean = _nd_array([123.68, 116.28, 103.53])
    elif mean is not None:
        if not (isinstance(mean, (np.ndarray, NDArray)) and mean.shape[0] in (1, 3)):
            raise AssertionError('CreateAugmenter: mean must be True or an array of 1 or 3 values, got %r' % (mean,))
    if std is True:
        std = _nd_array([58.395, 57.12, 57.375])
    elif std is not None:
        if not (isinstance(std, (np.ndarray, NDArray)) and std.shape[0] in (1, 3)):
            raise AssertionError('CreateAugmenter: std must be True or an array of 1 or 3 values, got %r' % (std,))
    if mean is not None or std is not None:
        auglist.append(ColorNormalizeAug(mean, std))
    return auglist


def _takes_numpy(aug):
    """Whether the class that defines ``aug.__call__`` declares that it accepts numpy images."""
    for cls in type(aug).__mro__:
        if '__call__' in vars(cls):
            return vars(cls).get('_takes_numpy', False)
    return False


def _numpy_safe(augs):
    """Whether every augmenter in ``augs`` takes numpy arrays (ours do; a user's may not)."""
    return all(_takes_numpy(aug) and _numpy_safe(aug._children()) for aug in augs)


# ---------------------------------------------------------------------------------------
# ImageIter
# ---------------------------------------------------------------------------------------

class ImageIter(DataIter):
    """Batches of augmented images from a RecordIO file (``path_imgrec``, with
    ``path_imgidx`` for shuffling and partitions) or from image files listed in
    ``path_imglist`` (``index<TAB>label(s)<TAB>path`` lines) or ``imglist`` (``[label(s),
    path]`` items), relative to ``path_root``.

    Batches are ``DataBatch([data (batch, C, H, W) float32], [label (batch,) or (batch,
    label_width) float32], pad)``. ``last_batch_handle``: ``'pad'`` fills the last batch
    from the start of the data, ``'discard'`` drops it, ``'roll_over'`` carries its images
    over to the next epoch. Other keyword arguments go to ``CreateAugmenter``.
    """

    def __init__(self, batch_size, data_shape, label_width=1, path_imgrec=None, path_imglist=None,
                 path_root=None, path_imgidx=None, shuffle=False, part_index=0, num_parts=1,
                 aug_list=None, imglist=None, data_name='data', label_name='softmax_label',
                 dtype='float32', last_batch_handle='pad', **kwargs):
        super().__init__(batch_size)
        # bad arguments raise AssertionError, as MXNet's asserts do
        if not (path_imgrec or path_imglist or isinstance(imglist, list)):
            raise AssertionError('ImageIter: give path_imgrec, path_imglist or imglist (a list)')
        if dtype not in ('int32', 'float32', 'int64', 'float64'):
            raise AssertionError('ImageIter: dtype %r label not supported (int32, float32, int64, float64)' % (dtype,))
        if last_batch_handle not in ('pad', 'discard', 'roll_over'):
            raise MXNetError("ImageIter: last_batch_handle must be 'pad', 'discard' or 'roll_over', got %r"
                             % (last_batch_handle,))
        if path_imgrec:
            if path_imgidx:
                self.imgrec = recordio.MXIndexedRecordIO(path_imgidx, path_imgrec, 'r')
                self.imgidx = list(self.imgrec.keys)
            else:
                self.imgrec = recordio.MXRecordIO(path_imgrec, 'r')
                self.imgidx = None
        else:
            self.imgrec = None

        imgkeys = None
        if path_imglist:
            self.imglist, imgkeys = self._read_list(path_imglist, dtype)
        elif isinstance(imglist, list):
            self.imglist, imgkeys = {}, []
            for index, item in enumerate(imglist, 1):
                if not isinstance(item, (list, tuple)) or len(item) < 2:
                    raise MXNetError('ImageIter: imglist item %d must be [label(s), path], got %r' % (index - 1, item))
                if len(item) > 2:
                    label = np.asarray(item[:-1], dtype=dtype)
                elif isinstance(item[0], numbers.Number):
                    label = np.asarray([item[0]], dtype=dtype)
                else:
                    label = np.asarray(item[0], dtype=dtype)
                self.imglist[str(index)] = (label, item[-1])
                imgkeys.append(str(index))
        else:
            self.imglist = None
        self.path_root = path_root

        self.check_data_shape(data_shape)
        data_shape = tuple(data_shape)
        # (name, shape) pairs, not DataDesc: MXNet's ImageIter prints them so
        self.provide_data = [(data_name, (batch_size,) + data_shape)]
        label_shape = (batch_size, label_width) if label_width > 1 else (batch_size,)
        self.provide_label = [(label_name, label_shape)]
        self.batch_size = batch_size
        self.data_shape = data_shape
        self.label_width = label_width
        self.shuffle = shuffle
        if self.imgrec is None:
            self.seq = imgkeys
        elif shuffle or num_parts > 1 or path_imgidx:
            if self.imgidx is None:
                raise AssertionError('ImageIter: shuffle and num_parts > 1 with path_imgrec need path_imgidx')
            self.seq = self.imgidx
        else:
            self.seq = None
        if num_parts > 1:
            if not 0 <= part_index < num_parts:
                raise AssertionError('ImageIter: part_index %d must be in [0, num_parts=%d)' % (part_index, num_parts))
            per = len(self.seq) // num_parts
            self.seq = self.seq[part_index * per:(part_index + 1) * per]
        self.auglist = CreateAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.cur = 0
        self._allow_read = True
        self.last_batch_handle = last_batch_handle
        self.num_image = len(self.seq) if self.seq is not None else None
        self._cache = None          # (data, label, count) of a rolled-over last batch
        self.reset()

    @staticmethod
    def _read_list(path, dtype):
        imglist, keys = {}, []
        for key, labels, image in recordio.read_lst(path, 'ImageIter'):
            imglist[key] = (np.asarray(labels, dtype=dtype), image)
            keys.append(key)
        return imglist, keys

    def reset(self):
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.last_batch_handle != 'roll_over' or self._cache is None:
            if self.imgrec is not None:
                self.imgrec.reset()
            self.cur = 0
            self._allow_read = True

    def hard_reset(self):
        """Reset, dropping the images a roll-over batch carried."""
        self._cache = None
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.imgrec is not None:
            self.imgrec.reset()
        self.cur = 0
        self._allow_read = True

    def next_sample(self):
        """(label, encoded image bytes) of the next image; StopIteration at the end. The label
        is the record header's, or an NDArray where it comes from the image list (as in MXNet)."""
        if not self._allow_read:
            raise StopIteration
        if self.seq is not None:
            if self.cur >= self.num_image:
                if self.last_batch_handle != 'discard':
                    self.cur = 0
                raise StopIteration
            idx = self.seq[self.cur]
            self.cur += 1
            if self.imgrec is not None:
                header, img = recordio.unpack(self.imgrec.read_idx(idx))
                if self.imglist is None:
                    return header.label, img
                return _nd_array(self.imglist[idx][0]), img
            label, fname = self.imglist[idx]
            return _nd_array(label), self.read_image(fname)
        s = self.imgrec.read()
        if s is None:
            if self.last_batch_handle != 'discard':
                self.imgrec.reset()
            raise StopIteration
        header, img = recordio.unpack(s)
        return header.label, img

    _label_init = 0.0   # the label rows' value before an image fills them

    def _fill(self, data, label, start):
        """Decode, augment and write images into rows ``start``.. of ``data`` and ``label``
        (numpy); returns the number of rows filled, raising StopIteration when none could be."""
        i = start
        try:
            while i < self.batch_size:
                lab, s = self.next_sample()
                sample = self._sample(lab, self._decoded(s))
                if sample is None:
                    continue
                img, lab = sample
                datum = self.postprocess_data(img)
                datum = datum.asnumpy() if isinstance(datum, NDArray) else np.asarray(datum)
                if datum.shape != data.shape[1:]:
                    raise ValueError('%s: an augmented image has shape %s, expected %s (data_shape); add a crop '
                                     'or resize augmenter' % (type(self).__name__, datum.shape, data.shape[1:]))
                _profiled('_slice_assign', data.__setitem__, i, datum)
                self._store_label(label, i, np.asarray(lab.asnumpy() if isinstance(lab, NDArray) else lab))
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def _sample(self, label, img):
        """(augmented image, label) of one decoded image, or None to skip an invalid image."""
        try:
            self.check_valid_image(img)
        except RuntimeError as err:
            logging.debug('Invalid image, skipping: %s', err)
            return None
        return self.augmentation_transform(img), label

    def _store_label(self, label, i, lab):
        label[i] = lab.reshape(label.shape[1:])

    def next(self):
        if self._cache is not None:
            data, label, i = self._cache
        else:
            data = np.zeros((self.batch_size,) + tuple(self.data_shape), dtype=np.float32)
            label = np.full(self.provide_label[0][1], self._label_init, dtype=np.float32)
            i = self._fill(data, label, 0)
        pad = self.batch_size - i
        if pad:
            if self.last_batch_handle == 'discard':
                raise StopIteration
            if self.last_batch_handle == 'roll_over' and self._cache is None:
                self._cache = (data, label, i)
                raise StopIteration
            self._fill(data, label, i)
            if self.last_batch_handle == 'pad':
                self._allow_read = False
            else:
                self._cache = None
        return DataBatch([_nd_array(data)], [_nd_array(label)], pad=pad)

    def check_data_shape(self, data_shape):
        """data_shape must be (3, height, width)."""
        if not len(data_shape) == 3:
            raise ValueError('data_shape should have length 3, with dimensions CxHxW')
        if not data_shape[0] == 3:
            raise ValueError('This iterator expects inputs to have 3 channels.')

    def check_valid_image(self, data):
        """Raise RuntimeError for an image with no pixels."""
        if len(data.shape) == 0 or min(data.shape) == 0:
            raise RuntimeError('Data shape is wrong')

    def _where(self):
        if self.seq is not None and self.num_image:
            idx = self.seq[(self.cur % self.num_image) - 1]
        else:
            idx = self.cur - 1
        if self.imglist is not None and idx in self.imglist:
            return 'filename: %s' % self.imglist[idx][1]
        return 'index: %s' % (idx,)

    def imdecode(self, s):
        """Decode image bytes to an NDArray (RGB, H x W x 3 uint8); RuntimeError names the broken image."""
        return _nd_array(self._decode_host(s), dtype=np.uint8)

    def _decode_host(self, s):
        try:
            return _profiled('Imdecode', _decode_numpy, s, 1, False, 'ImageIter')
        except Exception as err:
            raise RuntimeError('Broken image %s, %s' % (self._where(), err)) from None

    def _decoded(self, s):
        """``imdecode(s)``, left a numpy array on the host when every augmenter takes numpy and
        ``imdecode`` is not a subclass's. Checked per image: ImageDetIter and users replace or
        extend ``auglist`` after ``__init__``."""
        if type(self).imdecode is ImageIter.imdecode and _numpy_safe(self.auglist):
            return self._decode_host(s)
        return self.imdecode(s)

    def read_image(self, fname):
        """The bytes of the image file ``fname`` under ``path_root``."""
        path = os.path.join(self.path_root, fname) if self.path_root is not None else fname
        with open(path, 'rb') as fin:   # OSError (FileNotFoundError...) names the path, as in MXNet
            return fin.read()

    def augmentation_transform(self, data):
        """Apply the augmenters in order."""
        for aug in self.auglist:
            data = aug(data)
        return data

    def postprocess_data(self, datum):
        """H x W x C to C x H x W."""
        if isinstance(datum, NDArray):
            return datum.transpose((2, 0, 1))
        return _profiled('transpose', lambda: np.ascontiguousarray(np.asarray(datum).transpose(2, 0, 1)))
