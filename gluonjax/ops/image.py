"""Image operators of ``mx.nd.image`` / ``mx.sym.image`` / ``F.image`` (MXNet's ``_image_*``).

Images are H x W x C (or a batch N x H x W x C), tensors after ``to_tensor`` C x H x W. The
resampling arithmetic (:func:`resize`) is written over an array module, NumPy or jax.numpy,
so that the operator, ``gluon.data.vision.transforms`` on host batches and ``mx.image`` (which
works on the host, as MXNet's OpenCV calls do) compute the same numbers.

Integer images leave the colour operators truncated and saturated (MXNet's casts:
``random_brightness`` at 0.7 makes 172 into 120), and the resampling ones rounded to nearest
(OpenCV's ``saturate_cast``).
"""
import jax
import jax.numpy as jnp
import numpy as np

from ..base import MXNetError, shape_str
from ._registry import P, register
from .elemwise import exact_divide


def _check_image(op, data, layouts, ndims=(3, 4)):
    if data.ndim not in ndims:
        raise MXNetError('%s: input must be %s, got %s' % (op, layouts, shape_str(data.shape)))


_HWC = '(H, W, C) or (N, H, W, C)'


# ---- layout and scaling ----------------------------------------------------------------------------

@register('_image_to_tensor')
def image_to_tensor(data):
    """An image H x W x C (or a batch N x H x W x C) with values in [0, 255] as a float32 tensor
    C x H x W (N x C x H x W) with values in [0, 1]."""
    _check_image('to_tensor', data, _HWC)
    axes = (2, 0, 1) if data.ndim == 3 else (0, 3, 1, 2)
    return jnp.transpose(exact_divide(data.astype(jnp.float32), np.float32(255)), axes)


@register('_image_normalize', params=[P('mean', 'floats', (0.0, 0.0, 0.0, 0.0)),
                                      P('std', 'floats', (1.0, 1.0, 1.0, 1.0))])
def image_normalize(data, *, mean, std):
    """(x - mean[c]) / std[c] per channel of a C x H x W (or N x C x H x W) tensor; one value
    serves every channel."""
    _check_image('normalize', data, '(C, H, W) or (N, C, H, W)')
    channels = data.shape[-3]
    if channels not in (1, 3):
        raise MXNetError('normalize: the channel axis must have 1 or 3 elements, got input %s'
                         % shape_str(data.shape))
    per_channel = []
    for name, values in (('mean', mean), ('std', std)):
        if len(values) != 1 and len(values) < channels:
            raise MXNetError('normalize: %s has %d values for %d channels (input %s)'
                             % (name, len(values), channels, shape_str(data.shape)))
        values = values * channels if len(values) == 1 else values[:channels]
        per_channel.append(jnp.asarray(values, data.dtype).reshape(channels, 1, 1))
    return exact_divide(data - per_channel[0], per_channel[1])


# ---- crops and flips -------------------------------------------------------------------------------

@register('_image_crop', params=[P('x', 'int'), P('y', 'int'), P('width', 'int'), P('height', 'int')])
def image_crop(data, *, x, y, width, height):
    """The ``width`` x ``height`` region of an image (or of each image of a batch) whose top left
    corner is column ``x``, row ``y``."""
    _check_image('crop', data, _HWC)
    h, w = data.shape[-3], data.shape[-2]
    if width <= 0 or height <= 0 or x < 0 or y < 0 or x + width > w or y + height > h:
        raise MXNetError('crop: the region x=%d, y=%d, width=%d, height=%d is not inside the image %s'
                         % (x, y, width, height, shape_str(data.shape)))
    return data[..., y:y + height, x:x + width, :]


@register('_image_flip_left_right')
def image_flip_left_right(data):
    """The image H x W x C mirrored along its width."""
    _check_image('flip_left_right', data, '(H, W, C)', ndims=(3,))
    return jnp.flip(data, axis=1)


@register('_image_flip_top_bottom')
def image_flip_top_bottom(data):
    """The image H x W x C mirrored along its height."""
    _check_image('flip_top_bottom', data, '(H, W, C)', ndims=(3,))
    return jnp.flip(data, axis=0)


@register('_image_random_flip_left_right', random=True)
def image_random_flip_left_right(data, *, _key):
    """The image H x W x C mirrored along its width with probability 1/2."""
    _check_image('random_flip_left_right', data, '(H, W, C)', ndims=(3,))
    return jnp.where(jax.random.bernoulli(_key), jnp.flip(data, axis=1), data)


@register('_image_random_flip_top_bottom', random=True)
def image_random_flip_top_bottom(data, *, _key):
    """The image H x W x C mirrored along its height with probability 1/2."""
    _check_image('random_flip_top_bottom', data, '(H, W, C)', ndims=(3,))
    return jnp.where(jax.random.bernoulli(_key), jnp.flip(data, axis=0), data)


# ---- resampling (OpenCV's interpolations) -------------------------------------------------------

INTERPOLATIONS = {0: 'nearest', 1: 'bilinear', 2: 'bicubic', 3: 'area', 4: 'lanczos'}


def check_interp(interp, what):
    if interp not in INTERPOLATIONS:
        raise MXNetError('%s: interpolation must be 0 (nearest), 1 (bilinear), 2 (bicubic), 3 (area) or '
                         '4 (lanczos), got %r' % (what, interp))


def _nearest_taps(in_size, out_size):
    return np.minimum(np.floor(np.arange(out_size) * (in_size / out_size)).astype(np.int64), in_size - 1)


def _linear_taps(in_size, out_size):
    """Source indices and weights of OpenCV's bilinear resize (pixel centres aligned)."""
    f = (np.arange(out_size, dtype=np.float64) + 0.5) * (in_size / out_size) - 0.5
    i0 = np.floor(f).astype(np.int64)
    w = f - i0
    low = i0 < 0
    i0[low], w[low] = 0, 0.0
    high = i0 >= in_size - 1
    i0[high], w[high] = in_size - 1, 0.0
    return i0, np.minimum(i0 + 1, in_size - 1), w.astype(np.float32)


def _opencv_linear_coefs(n_in, n_out, clamp):
    """OpenCV's 8-bit bilinear taps along one axis: (first index, second index, weights in
    1/2048ths). The position and fraction are float32 from the double ratio, each weight rounded
    (half to even) on its own, so a pair may sum to 2047 or 2049. Along the width (``clamp``) a
    position off the image takes the edge pixel with weight 2048; along the height only the row
    indices are clipped and the weights stay as computed."""
    scale = 1.0 / (n_out / n_in)
    f = ((np.arange(n_out) + 0.5) * scale - 0.5).astype(np.float32)
    i0 = np.floor(f).astype(np.int64)
    f = f - i0.astype(np.float32)
    if clamp:
        off = (i0 < 0) | (i0 >= n_in - 1)
        f[off] = 0
        i0 = np.clip(i0, 0, n_in - 1)
    c0 = np.rint((np.float32(1) - f) * np.float32(2048)).astype(np.int32)
    c1 = np.rint(f * np.float32(2048)).astype(np.int32)
    return np.clip(i0, 0, n_in - 1), np.clip(i0 + 1, 0, n_in - 1), c0, c1


def _bilinear_uint8(xp, x, axes):
    """OpenCV's bilinear resize of uint8 images, bit for bit: the width pass keeps integer sums of
    pixels times 11-bit weights, the height pass scales each row sum down by 16, multiplies by its
    weight keeping the high 16 bits, and rounds the total by 4 (its SIMD kernel's arithmetic)."""
    (h_axis, in_h, out_h), (w_axis, in_w, out_w) = axes

    def along(arr, axis, idx, coef):
        shape = [1] * arr.ndim
        shape[axis] = -1
        return xp.take(arr, idx, axis=axis), coef.reshape(shape)

    x0, x1, a0, a1 = _opencv_linear_coefs(in_w, out_w, clamp=True)
    pixels = x.astype(np.int32)
    (p0, w0), (p1, w1) = along(pixels, w_axis, x0, a0), along(pixels, w_axis, x1, a1)
    rows = p0 * w0 + p1 * w1
    y0, y1, b0, b1 = _opencv_linear_coefs(in_h, out_h, clamp=False)
    (r0, v0), (r1, v1) = along(rows >> 4, h_axis, y0, b0), along(rows >> 4, h_axis, y1, b1)
    out = (((r0 * v0) >> 16) + ((r1 * v1) >> 16) + 2) >> 2
    return xp.clip(out, 0, 255).astype(np.uint8)


def _opencv_cubic_coefs(n_in, n_out):
    """OpenCV's 8-bit bicubic taps along one axis: (4 index arrays, 4 weight arrays in 1/2048ths).
    The fraction is float32 as for bilinear, the kernel (a = -0.75) evaluated in float32 with the
    last weight making the sum one, each rounded on its own; taps off the image repeat the edge."""
    f32 = np.float32
    scale = 1.0 / (n_out / n_in)
    f = ((np.arange(n_out) + 0.5) * scale - 0.5).astype(f32)
    i0 = np.floor(f).astype(np.int64)
    x = f - i0.astype(f32)
    a, one = f32(-0.75), f32(1)
    w0 = ((a * (x + one) - f32(5) * a) * (x + one) + f32(8) * a) * (x + one) - f32(4) * a
    w1 = ((a + f32(2)) * x - (a + f32(3))) * x * x + one
    w2 = ((a + f32(2)) * (one - x) - (a + f32(3))) * (one - x) * (one - x) + one
    w3 = one - w0 - w1 - w2
    idx = [np.clip(i0 + k, 0, n_in - 1) for k in (-1, 0, 1, 2)]
    return idx, [np.rint(w * f32(2048)).astype(np.int64) for w in (w0, w1, w2, w3)]


_CUBIC_LANES = 8  # pixel values OpenCV's SIMD height pass computes per step; the rest of a row is scalar


def _bicubic_uint8(xp, x, axes):
    """OpenCV's bicubic resize of uint8 images, bit for bit: the width pass keeps integer sums of
    pixels times 11-bit weights; the height pass computes each output in float32 as
    (S0*b0 + S1*b1) + (S2*b2 + S3*b3) with b = weight / 2048^2, rounded half to even, except the
    last values of each row (past a multiple of 8 along width x channels), which its scalar code
    rounds in fixed point. Each float32 step is rounded explicitly (no fused multiply-add)."""
    (h_axis, in_h, out_h), (w_axis, in_w, out_w) = axes

    def weighted(arr, axis, idx, coef):
        shape = [1] * arr.ndim
        shape[axis] = -1
        return xp.take(arr, idx, axis=axis) * coef.reshape(shape)

    xi, xw = _opencv_cubic_coefs(in_w, out_w)
    pixels = x.astype(np.int64)
    rows = sum(weighted(pixels, w_axis, i, c) for i, c in zip(xi, xw))
    yi, yw = _opencv_cubic_coefs(in_h, out_h)
    fixed = (sum(weighted(rows, h_axis, i, c) for i, c in zip(yi, yw)) + (1 << 21)) >> 22
    beta = [(c.astype(np.float32) * np.float32(1.0 / (2048 * 2048))).astype(np.float64) for c in yw]
    f32 = lambda v: v.astype(np.float32).astype(np.float64)  # noqa: E731 (one float32 rounding)
    terms = [f32(weighted(rows.astype(np.float64), h_axis, i, b)) for i, b in zip(yi, beta)]
    floats = f32(f32(terms[0] + terms[1]) + f32(terms[2] + terms[3]))
    channels = x.shape[-1]
    scalar_tail = (np.arange(out_w * channels) >= (out_w * channels) // _CUBIC_LANES * _CUBIC_LANES)
    out = xp.where(scalar_tail.reshape(out_w, channels), fixed, xp.rint(floats).astype(np.int64))
    return xp.clip(out, 0, 255).astype(np.uint8)


_COEF_BITS = 16  # bilinear weights of other integer images in 1/65536ths


def _bilinear_fixed_point(xp, x, axes):
    """Bilinear resize of an integer image other than uint8 in integer arithmetic (finer weights
    than OpenCV's, the width pass first, the sum of both passes rounded once). Integer sums are
    exact, so NumPy and XLA give the same pixels, where float sums may round to either side of a half."""
    out = x.astype(np.int64)
    for axis, n_in, n_out in reversed(axes):
        i0, i1, w = _linear_taps(n_in, n_out)
        c0 = np.rint((1 - w.astype(np.float64)) * (1 << _COEF_BITS)).astype(np.int64)
        shape = [1] * out.ndim
        shape[axis] = -1
        out = (xp.take(out, i0, axis=axis) * c0.reshape(shape)
               + xp.take(out, i1, axis=axis) * ((1 << _COEF_BITS) - c0).reshape(shape))
    out = (out + (1 << (2 * _COEF_BITS - 1))) >> (2 * _COEF_BITS)
    info = np.iinfo(x.dtype)
    return xp.clip(out, info.min, info.max).astype(x.dtype)


def _cubic(t):
    """OpenCV's bicubic kernel (Keys, a = -0.75)."""
    a, t = -0.75, np.abs(t)
    return np.where(t <= 1, ((a + 2) * t - (a + 3)) * t * t + 1,
                    np.where(t < 2, ((a * t - 5 * a) * t + 8 * a) * t - 4 * a, 0.0))


def _lanczos4(t):
    """OpenCV's Lanczos kernel over 8 taps (a = 4)."""
    safe = np.where(t == 0, 1.0, t)
    val = 4 * np.sin(np.pi * safe) * np.sin(np.pi * safe / 4) / (np.pi * np.pi * safe * safe)
    return np.where(t == 0, 1.0, val)


def _kernel_taps(n_in, n_out, interp):
    """(indices n_out x taps, weights n_out x taps) of OpenCV's cubic (2) or Lanczos4 (4) resize:
    half-pixel centres, no smoothing when shrinking, edge pixels repeated."""
    radius, kernel = (2, _cubic) if interp == 2 else (4, _lanczos4)
    f = (np.arange(n_out, dtype=np.float64) + 0.5) * (n_in / n_out) - 0.5
    idx = np.floor(f).astype(np.int64)[:, None] + np.arange(-radius + 1, radius + 1)[None, :]
    wgt = kernel(f[:, None] - idx)
    return np.clip(idx, 0, n_in - 1), wgt / wgt.sum(axis=1, keepdims=True)


def _area_matrix(n_in, n_out, shrink):
    """(n_out x n_in) weights of OpenCV's INTER_AREA along one axis: shrinking (on both axes),
    each output pixel averages the source pixels its cell covers, partly covered ones by the
    covered fraction; otherwise OpenCV interpolates linearly with its own area coefficients."""
    m = np.zeros((n_out, n_in))
    scale = n_in / n_out
    for d in range(n_out):
        if shrink:
            lo, hi = d * scale, min((d + 1) * scale, n_in)
            for sx in range(int(np.floor(lo)), min(int(np.ceil(hi)), n_in)):
                m[d, sx] = (min(hi, sx + 1) - max(lo, sx)) / (hi - lo)
        else:
            sx = int(np.floor(d * scale))
            fx = (d + 1) - (sx + 1) / scale
            fx = 0.0 if fx <= 0 else fx - np.floor(fx)
            if sx >= n_in - 1:
                m[d, n_in - 1] = 1.0
            else:
                m[d, sx], m[d, sx + 1] = 1.0 - fx, fx
    return m


def _round_to(xp, out, dtype, half_up):
    """A float result back in an image dtype: integers rounded to nearest (halves up, or to
    even) and saturated."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        out = xp.clip(xp.floor(out + 0.5) if half_up else xp.rint(out), info.min, info.max)
    return out.astype(dtype)


def _along(xp, x, axis, matrix):
    """``matrix`` (n_out x n_in) applied along ``axis`` of ``x``."""
    return xp.moveaxis(xp.tensordot(matrix, x, axes=([1], [axis])), 0, axis)


def resize(xp, x, out_h, out_w, interp=1):
    """Images H x W x C (or N x H x W x C) resized to ``out_h`` x ``out_w`` as OpenCV resizes them
    (``interp`` 0-4, see INTERPOLATIONS), with ``xp`` NumPy or jax.numpy. Bilinear and bicubic
    work in OpenCV's fixed point on uint8 images (its exact pixels); bilinear in finer fixed point
    on other integer images and in float32 on float ones; the other kernels in float64 (within 1
    of OpenCV's fixed point on uint8)."""
    h_axis = x.ndim - 3
    in_h, in_w = x.shape[h_axis], x.shape[h_axis + 1]
    if (in_h, in_w) == (out_h, out_w):
        return x
    if interp == 0:
        x = xp.take(x, _nearest_taps(in_h, out_h), axis=h_axis)
        return xp.take(x, _nearest_taps(in_w, out_w), axis=h_axis + 1)
    axes = ((h_axis, in_h, out_h), (h_axis + 1, in_w, out_w))
    if interp == 1 and x.dtype == np.uint8:
        return _bilinear_uint8(xp, x, axes)
    if interp == 2 and x.dtype == np.uint8:
        return _bicubic_uint8(xp, x, axes)
    if interp == 1 and np.issubdtype(x.dtype, np.integer):
        return _bilinear_fixed_point(xp, x, axes)
    if interp == 1:
        out = x.astype(np.float32)
        for axis, n_in, n_out in axes:
            i0, i1, w = _linear_taps(n_in, n_out)
            shape = [1] * out.ndim
            shape[axis] = -1
            a, b = xp.take(out, i0, axis=axis), xp.take(out, i1, axis=axis)
            out = a + (b - a) * w.reshape(shape)
        return _round_to(xp, out, x.dtype, half_up=True)
    out = x.astype(np.float64)
    if interp == 3:
        shrink = in_h >= out_h and in_w >= out_w
        for axis, n_in, n_out in axes:
            out = _along(xp, out, axis, _area_matrix(n_in, n_out, shrink))
    else:
        for axis, n_in, n_out in axes:
            idx, wgt = _kernel_taps(n_in, n_out, interp)
            taken = xp.take(out, idx, axis=axis)  # the axis becomes (n_out, taps)
            shape = [1] * taken.ndim
            shape[axis], shape[axis + 1] = wgt.shape
            out = (taken * wgt.reshape(shape)).sum(axis=axis + 1)
    return _round_to(xp, out, x.dtype, half_up=False)


def resize_shape(h, w, size, keep_ratio, what='resize'):
    """MXNet's output (height, width) for ``size``: one int (a square, or with ``keep_ratio`` the
    short edge) or (width, height)."""
    size = tuple(size) if isinstance(size, (tuple, list)) else (size,)
    if len(size) not in (1, 2) or any(s != int(s) or s <= 0 for s in size):  # MXNet parses a shape: 5.5 fails
        raise MXNetError('%s: size must be one positive int or a positive (width, height), got %s'
                         % (what, size if len(size) != 1 else size[0]))
    size = tuple(int(s) for s in size)
    if len(size) == 2:
        return size[1], size[0]
    s = size[0]
    if not keep_ratio:
        return s, s
    return (h * s // w, s) if h > w else (s, w * s // h)


@register('_image_resize', params=[P('size', 'shape', ()), P('keep_ratio', 'bool', False), P('interp', 'int', 1)])
def image_resize(data, *, size, keep_ratio, interp):
    """An image H x W x C (or a batch) resized to ``size`` with OpenCV's interpolation ``interp``."""
    _check_image('resize', data, _HWC)
    check_interp(interp, 'resize')
    out_h, out_w = resize_shape(data.shape[-3], data.shape[-2], size, keep_ratio)
    return resize(jnp, data, out_h, out_w, interp)


# ---- colour ------------------------------------------------------------------------------------------

# ITU-R 601 luma weights of R, G, B: the grey level contrast and saturation blend towards
_LUMA = np.asarray([0.299, 0.587, 0.114], dtype=np.float32)
# AlexNet's PCA of ImageNet's RGB pixels: eigenvector columns scaled by their eigenvalues
_PCA = (np.asarray([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
        * np.asarray([55.46, 4.794, 1.148])).astype(np.float32)


def _check_rgb(op, data):
    if data.ndim not in (3, 4) or data.shape[-1] != 3:
        raise MXNetError('%s: input must be RGB images (H, W, 3) or (N, H, W, 3), got %s'
                         % (op, shape_str(data.shape)))


def _saturate(out, dtype):
    """A float result in an image dtype: integers truncated and saturated, as MXNet casts them."""
    if jnp.issubdtype(dtype, jnp.integer):
        info = jnp.iinfo(dtype)
        out = jnp.clip(out, info.min, info.max)
    return out.astype(dtype)


def _gray(x):
    return jnp.sum(x * _LUMA, axis=-1, keepdims=True)


def adjust_brightness(x, alpha):
    return x * alpha


def adjust_contrast(x, alpha):
    mean = jnp.mean(_gray(x), axis=(-3, -2, -1), keepdims=True)
    return x * alpha + mean * (1 - alpha)


def adjust_saturation(x, alpha):
    return x * alpha + _gray(x) * (1 - alpha)


def _rgb_to_hls(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    hi, lo = jnp.max(rgb, axis=-1), jnp.min(rgb, axis=-1)
    light, span = (hi + lo) / 2, hi - lo
    grey = span == 0
    safe = jnp.where(grey, 1, span)
    sat = jnp.where(grey, 0, span / jnp.where(light <= 0.5, hi + lo, jnp.where(grey, 1, 2 - hi - lo)))
    hue = jnp.where(hi == r, (g - b) / safe, jnp.where(hi == g, 2 + (b - r) / safe, 4 + (r - g) / safe))
    return jnp.where(grey, 0, (hue / 6) % 1), light, sat


def _hls_to_rgb(hue, light, sat):
    hi = jnp.where(light <= 0.5, light * (1 + sat), light + sat - light * sat)
    lo = 2 * light - hi

    def channel(h):
        h = h % 1
        return jnp.where(h < 1 / 6, lo + (hi - lo) * h * 6,
                         jnp.where(h < 0.5, hi, jnp.where(h < 2 / 3, lo + (hi - lo) * (2 / 3 - h) * 6, lo)))
    rgb = jnp.stack([channel(hue + 1 / 3), channel(hue), channel(hue - 1 / 3)], axis=-1)
    return jnp.where((sat == 0)[..., None], light[..., None], rgb)


def adjust_hue(x, alpha):
    """Each pixel's hue (HLS) turned by ``alpha`` of a full turn."""
    hue, light, sat = _rgb_to_hls(x / 255)
    return _hls_to_rgb(hue + alpha, light, sat) * 255


def _random_factor(key, min_factor, max_factor):
    return jax.random.uniform(key, (), jnp.float32, min_factor, max_factor)


def _colour_op(name, adjust, doc):
    @register('_image_random_' + name, random=True, params=[P('min_factor', 'float'), P('max_factor', 'float')])
    def op(data, *, min_factor, max_factor, _key):
        _check_rgb('random_' + name, data)
        alpha = _random_factor(_key, min_factor, max_factor)
        return _saturate(adjust(data.astype(jnp.float32), alpha), data.dtype)
    op.__name__ = 'image_random_' + name
    op.__doc__ = doc
    return op


_colour_op('brightness', adjust_brightness, 'The image times a factor drawn from [min_factor, max_factor].')
_colour_op('contrast', adjust_contrast,
           'The image blended with its mean grey level by a factor drawn from [min_factor, max_factor].')
_colour_op('saturation', adjust_saturation,
           'The image blended with its grey version by a factor drawn from [min_factor, max_factor].')
_colour_op('hue', adjust_hue, 'The hue of every pixel turned by a fraction drawn from [min_factor, max_factor].')


@register('_image_random_color_jitter', random=True,
          params=[P('brightness', 'float'), P('contrast', 'float'), P('saturation', 'float'), P('hue', 'float')])
def image_random_color_jitter(data, *, brightness, contrast, saturation, hue, _key):
    """Brightness, contrast, saturation and hue changes (each by a factor 1 +- its amount, the hue
    by +- its amount of a turn) applied in a random order; an amount of 0 leaves that one out."""
    _check_rgb('random_color_jitter', data)
    if not any(a > 0 for a in (brightness, contrast, saturation, hue)):
        return data
    steps = [(adjust, amount, offset) for adjust, amount, offset in (
        (adjust_brightness, brightness, 1.0), (adjust_contrast, contrast, 1.0),
        (adjust_saturation, saturation, 1.0), (adjust_hue, hue, 0.0)) if amount > 0]
    order_key, *factor_keys = jax.random.split(_key, len(steps) + 1)
    factors = [offset + _random_factor(k, -amount, amount) for k, (_, amount, offset) in zip(factor_keys, steps)]
    branches = [lambda v, adjust=adjust, factor=factor: adjust(v, factor)
                for (adjust, _, _), factor in zip(steps, factors)]
    order = jax.random.permutation(order_key, len(steps))
    x = data.astype(jnp.float32)
    for position in range(len(steps)):
        # the step drawn for this position (lax.switch keeps the program the same for every order)
        x = jax.lax.switch(order[position], branches, x)
    return _saturate(x, data.dtype)


def _lighting(data, alpha):
    return _saturate(data.astype(jnp.float32) + _PCA @ alpha, data.dtype)


@register('_image_adjust_lighting', params=[P('alpha', 'floats')])
def image_adjust_lighting(data, *, alpha):
    """AlexNet's PCA lighting: the image plus the RGB offset eigvec . (alpha * eigval)."""
    _check_rgb('adjust_lighting', data)
    if len(alpha) != 3:
        raise MXNetError('adjust_lighting: alpha must have 3 values (R, G, B), got %s' % (alpha,))
    return _lighting(data, jnp.asarray(alpha, jnp.float32))


@register('_image_random_lighting', random=True, params=[P('alpha_std', 'float', 0.05)])
def image_random_lighting(data, *, alpha_std, _key):
    """``adjust_lighting`` with alphas drawn from N(0, alpha_std)."""
    _check_rgb('random_lighting', data)
    return _lighting(data, jax.random.normal(_key, (3,), jnp.float32) * alpha_std)
