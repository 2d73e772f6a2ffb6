"""``mx.test_utils``: the helpers MXNet scripts and tests use (get_mnist, assert_almost_equal, ...).

Nothing here downloads: ``get_mnist`` reads the copy of MNIST shipped with
gluonjax, and ``download`` explains that gluonjax is offline.
"""
import contextlib
import functools
import gzip
import numbers
import os
import shutil
import sys

import numpy as np

from .base import MXNetError, NotSupportedError
from .context import Context, current_context, num_gpus
from .ndarray.ndarray import NDArray, array as _nd_array

__all__ = ['default_context', 'set_default_context', 'default_dtype', 'default_rtols', 'default_atols',
           'default_numeric_eps', 'effective_dtype', 'get_tolerance', 'get_tols', 'get_atol', 'get_rtol', 'get_etol',
           'random_arrays', 'random_uniform_arrays', 'random_sample', 'rand_ndarray', 'rand_shape_2d',
           'rand_shape_3d', 'rand_shape_nd', 'rand_coord_2d', 'np_reduce', 'same', 'checkShapes', 'almost_equal',
           'assert_almost_equal', 'assert_allclose', 'assert_almost_equal_ignore_nan', 'assert_exception', 'retry',
           'same_array', 'list_gpus', 'download', 'get_mnist', 'get_mnist_ubyte', 'get_mnist_iterator',
           'get_mnist_pkl', 'get_cifar10', 'DummyIter', 'environment', 'collapse_sum_like',
           # modules MXNet's test_utils hands to `from mxnet.test_utils import *` (it has no __all__)
           'np', 'os', 'sys']


# ---------------------------------------------------------------------------------------
# Contexts and tolerances
# ---------------------------------------------------------------------------------------

def default_context():
    """The context tests run on: the current default context."""
    return current_context()


def set_default_context(ctx):
    """Make ``ctx`` the default context (of this thread), as ``with ctx:`` does for a block."""
    Context._default_ctx.ctx = Context(ctx) if not isinstance(ctx, Context) else ctx


def default_dtype():
    return np.float32


_RTOLS = {np.float16: 1e-2, np.float32: 1e-4, np.float64: 1e-5}
_ATOLS = {np.float16: 1e-1, np.float32: 1e-3, np.float64: 1e-20}
_EXACT = (np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64)


def default_rtols():
    """Default relative tolerance of each dtype (0 for integers and booleans)."""
    tols = {np.dtype(k): v for k, v in _RTOLS.items()}
    tols.update({np.dtype(k): 0 for k in _EXACT})
    return tols


def default_atols():
    """Default absolute tolerance of each dtype (0 for integers and booleans)."""
    tols = {np.dtype(k): v for k, v in _ATOLS.items()}
    tols.update({np.dtype(k): 0 for k in _EXACT})
    return tols


def default_numeric_eps():
    """Finite-difference step of each float dtype (a power of two)."""
    return {np.dtype(np.float16): 1.0 / 2 ** 6, np.dtype(np.float32): 1.0 / 2 ** 9,
            np.dtype(np.float64): 1.0 / 2 ** 14}


def effective_dtype(dat):
    """The dtype that decides the tolerance for ``dat``."""
    return np.dtype(dat.dtype)


def get_tolerance(dat, tol, default_tol):
    """``tol`` if it is a number, else its entry (or the default) for ``dat``'s dtype."""
    if isinstance(tol, numbers.Number):
        return tol
    dtype = effective_dtype(dat)
    tol = {} if tol is None else tol
    return tol.get(dtype, default_tol.get(dtype, 0))


def get_tols(x, y, rtol, atol):
    """The (rtol, atol) to compare ``x`` and ``y``: the larger default of their dtypes unless given."""
    if isinstance(x, numbers.Number):
        x = np.array(x)
    if isinstance(y, numbers.Number):
        y = np.array(y)
    rtol = max(get_tolerance(x, rtol, default_rtols()), get_tolerance(y, rtol, default_rtols()))
    atol = max(get_tolerance(x, atol, default_atols()), get_tolerance(y, atol, default_atols()))
    return rtol, atol


def get_atol(atol=None, dtype=np.dtype(np.float64)):
    return default_atols()[np.dtype(dtype)] if atol is None else atol


def get_rtol(rtol=None, dtype=np.dtype(np.float64)):
    return default_rtols()[np.dtype(dtype)] if rtol is None else rtol


def get_etol(etol=None):
    return 0 if etol is None else etol


# ---------------------------------------------------------------------------------------
# Random data
# ---------------------------------------------------------------------------------------

def random_arrays(*shapes):
    """Standard-normal float32 numpy arrays of the given shapes (one array for one shape)."""
    arrays = [np.array(np.random.randn(), dtype=default_dtype()) if len(s) == 0
              else np.random.randn(*s).astype(default_dtype()) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def random_uniform_arrays(*shapes, **kwargs):
    """Uniform numpy arrays (``low``, ``high``, ``dtype`` keywords)."""
    low = kwargs.pop('low', 0.0)
    high = kwargs.pop('high', 1.0)
    dtype = kwargs.pop('dtype', default_dtype())
    if kwargs:
        raise TypeError('Got unexpected argument/s : ' + str(list(kwargs.keys())))
    return [np.random.uniform(low, high, size=s).astype(dtype) for s in shapes]


def random_sample(population, k):
    """``k`` elements of ``population`` in random order."""
    if not 0 <= k <= len(population):
        raise MXNetError('random_sample: k=%d is out of range for a population of %d' % (k, len(population)))
    population_copy = population[:]
    np.random.shuffle(population_copy)
    return population_copy[0:k]


def rand_ndarray(shape, stype='default', density=None, dtype=None, modifier_func=None,
                 shuffle_csr_indices=False, distribution=None, ctx=None):
    """A standard-normal NDArray (float32 unless ``dtype``); only dense storage is supported."""
    if stype != 'default':
        raise NotSupportedError("rand_ndarray: storage type %r is not supported; gluonjax arrays are dense "
                                "(use stype='default')" % (stype,))
    ctx = ctx if ctx else default_context()
    return _nd_array(random_arrays(shape), dtype=dtype, ctx=ctx)


def rand_shape_2d(dim0=10, dim1=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return np.random.randint(low, dim0 + 1), np.random.randint(low, dim1 + 1)


def rand_shape_3d(dim0=10, dim1=10, dim2=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return np.random.randint(low, dim0 + 1), np.random.randint(low, dim1 + 1), np.random.randint(low, dim2 + 1)


def rand_shape_nd(num_dim, dim=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return tuple(np.random.randint(low, dim + 1, size=num_dim))


def rand_coord_2d(x_low, x_high, y_low, y_high):
    return np.random.randint(x_low, x_high, dtype=np.int64), np.random.randint(y_low, y_high, dtype=np.int64)


def np_reduce(dat, axis, keepdims, numpy_reduce_func):
    """Reduce ``dat`` over ``axis`` (an int, a list or None) one axis at a time."""
    if isinstance(axis, int):
        axis = [axis]
    else:
        axis = list(axis) if axis is not None else range(len(dat.shape))
    ret = dat
    for i in reversed(sorted(axis)):
        ret = numpy_reduce_func(ret, axis=i)
    if keepdims:
        keepdims_shape = list(dat.shape)
        for i in axis:
            keepdims_shape[i] = 1
        ret = ret.reshape(tuple(keepdims_shape))
    return ret


def collapse_sum_like(a, shape):
    """Sum ``a`` down to ``shape`` (undoing a broadcast)."""
    assert len(a.shape) == len(shape)
    if np.all(np.array(a.shape) == np.array(shape)):
        return a
    axes = tuple(i for i, (x, y) in enumerate(zip(a.shape, shape)) if x != y)
    return a.sum(axis=axes, keepdims=True).reshape(shape)


# ---------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------

def _as_np(x):
    if isinstance(x, NDArray):
        return x.asnumpy()
    if hasattr(x, 'asnumpy'):
        return x.asnumpy()
    return x


def same(a, b):
    """True when the two arrays have the same shape and elements."""
    return np.array_equal(_as_np(a), _as_np(b))


def same_array(array1, array2):
    """True when the two NDArrays are the same array (writing one changes the other)."""
    if array1 is array2:
        return True
    return isinstance(array1, NDArray) and isinstance(array2, NDArray) and array1._data is array2._data


def checkShapes(a, b):
    if a.shape != b.shape:
        raise AssertionError('a.shape = {} and b.shape = {} are not equal'.format(a.shape, b.shape))


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """True when ``|a - b| <= atol + rtol * |b|`` everywhere."""
    a, b = _as_np(a), _as_np(b)
    if not use_broadcast:
        checkShapes(a, b)
    return np.allclose(a, b, rtol=get_rtol(rtol), atol=get_atol(atol), equal_nan=equal_nan)


def _find_max_violation(a, b, rtol, atol):
    absdiff = np.where(np.equal(a, b), 0, np.abs(a - b))
    tol = atol + rtol * np.abs(b)
    violation = absdiff / (tol + 1e-20)
    loc = np.argmax(violation)
    return np.unravel_index(loc, violation.shape), np.max(violation)


def assert_almost_equal(a, b, rtol=None, atol=None, names=('a', 'b'), equal_nan=False,
                        use_broadcast=True, mismatches=(10, 10)):
    """Raise AssertionError unless ``a`` and ``b`` (NDArrays, numpy arrays or numbers) are
    element-wise close; the default tolerances depend on the dtypes. The message gives the
    worst element and the fraction of elements out of tolerance."""
    if not use_broadcast:
        checkShapes(_as_np(a), _as_np(b))
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.asarray(_as_np(a)), np.asarray(_as_np(b))
    if a.dtype == np.bool_ and b.dtype == np.bool_:
        np.testing.assert_equal(a, b)
        return
    if np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan):
        return
    try:
        ab, bb = np.broadcast_arrays(a, b)
    except ValueError:
        raise AssertionError('%s of shape %s and %s of shape %s cannot be compared'
                             % (names[0], a.shape, names[1], b.shape)) from None
    ab, bb = ab.astype(np.float64), bb.astype(np.float64)
    index, rel = _find_max_violation(ab, bb, rtol, atol)
    close = np.isclose(ab, bb, rtol=rtol, atol=atol, equal_nan=equal_nan)
    percent = 100.0 * np.count_nonzero(~close) / max(close.size, 1)
    location = ''
    if index != ():
        location = '\nLocation of maximum error: %s, %s=%.8f, %s=%.8f' % (
            str(tuple(int(i) for i in index)), names[0], ab[index], names[1], bb[index])
    else:
        location = '\n%s=%.8f, %s=%.8f' % (names[0], ab, names[1], bb)
    raise AssertionError('Error %f exceeds tolerance rtol=%e, atol=%e (mismatch %f%%).%s'
                         % (rel, rtol, atol, percent, location))


def assert_allclose(a, b, rtol=1e-07, atol=0, equal_nan=True):
    assert_almost_equal(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def assert_almost_equal_ignore_nan(a, b, rtol=None, atol=None, names=('a', 'b')):
    """assert_almost_equal on the elements where neither array is NaN."""
    a = np.copy(_as_np(a))
    b = np.copy(_as_np(b))
    nan_mask = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan_mask] = 0
    b[nan_mask] = 0
    assert_almost_equal(a, b, rtol, atol, names)


def assert_exception(f, exception_type, *args, **kwargs):
    """Check that ``f(*args, **kwargs)`` raises ``exception_type``."""
    try:
        f(*args, **kwargs)
    except exception_type:
        return
    raise AssertionError('%s did not raise %s' % (getattr(f, '__name__', f), exception_type.__name__))


def retry(n):
    """Decorator: run a flaky test up to ``n`` times until it passes."""
    assert n > 0

    def decorate(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            for i in range(n):
                try:
                    return f(*args, **kwargs)
                except AssertionError:
                    if i == n - 1:
                        raise
        return wrapper
    return decorate


def list_gpus():
    """The ids of the GPUs jax can see."""
    return list(range(num_gpus()))


@contextlib.contextmanager
def environment(*args):
    """Set environment variables for a ``with`` block: ``environment('NAME', 'value')`` or
    ``environment({'NAME': 'value'})``; None unsets a variable."""
    if len(args) == 2:
        settings = {args[0]: args[1]}
    elif len(args) == 1 and isinstance(args[0], dict):
        settings = args[0]
    else:
        raise MXNetError('environment: expected (name, value) or a dict, got %r' % (args,))
    saved = {k: os.environ.get(k) for k in settings}
    try:
        for k, v in settings.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = str(v)
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# ---------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------

def download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """gluonjax works offline: returns the path when the file is already there, else raises."""
    if fname is None:
        fname = url.split('/')[-1]
    if dirname is not None:
        fname = os.path.join(dirname, fname)
    if not overwrite and os.path.exists(fname):
        return fname
    raise MXNetError('download: gluonjax does not download files (%s). Put the file at %s yourself; '
                     'MNIST is shipped with gluonjax (mx.test_utils.get_mnist()).' % (url, os.path.abspath(fname)))


def _mnist_arrays(train):
    from .gluon.data.vision import _idx
    paths = _idx.find_files(_idx.split_names(train), [_idx.PACKAGE_MNIST_DIR])
    if paths is None:
        raise MXNetError('get_mnist: the copy of MNIST shipped with gluonjax is missing from %s; reinstall gluonjax'
                         % _idx.PACKAGE_MNIST_DIR)
    return _idx.load_split(paths, train, _idx.MNIST_MD5)


def get_mnist():
    """MNIST as numpy arrays, from the copy shipped with gluonjax (never downloaded).

    Returns a dict with ``train_data`` (60000, 1, 28, 28) and ``test_data`` (10000, 1, 28, 28),
    float32 in [0, 1], and ``train_label`` / ``test_label``, int8 digit labels, as MXNet's.
    """
    out = {}
    for split, train in (('train', True), ('test', False)):
        images, labels = _mnist_arrays(train)
        data = np.empty((images.shape[0], 1, 28, 28), dtype=np.float32)
        # the same values as images.astype(np.float32) / 255, in one pass
        np.divide(images.reshape(data.shape), np.float32(255), out=data, dtype=np.float32)
        out[split + '_data'] = data
        out[split + '_label'] = labels.astype(np.int8)
    return {k: out[k] for k in ('train_data', 'train_label', 'test_data', 'test_label')}


def get_mnist_ubyte():
    """Write the four uncompressed MNIST IDX files into ``data/`` (as MXNet does after downloading)."""
    from .gluon.data.vision import _idx
    os.makedirs('data', exist_ok=True)
    for name in _idx.MNIST_MD5:
        target = os.path.join('data', name)
        if not os.path.exists(target):
            with gzip.open(os.path.join(_idx.PACKAGE_MNIST_DIR, name + '.gz'), 'rb') as src, \
                    open(target, 'wb') as dst:
                shutil.copyfileobj(src, dst)


def get_mnist_iterator(batch_size, input_shape, num_parts=1, part_index=0):
    """(train, validation) MNISTIters; ``input_shape`` (784,) gives flat images."""
    from .io import MNISTIter
    flat = len(input_shape) != 3
    from .gluon.data.vision import _idx
    root = _idx.PACKAGE_MNIST_DIR
    train = MNISTIter(image=os.path.join(root, 'train-images-idx3-ubyte.gz'),
                      label=os.path.join(root, 'train-labels-idx1-ubyte.gz'), batch_size=batch_size,
                      shuffle=True, flat=flat, num_parts=num_parts, part_index=part_index)
    val = MNISTIter(image=os.path.join(root, 't10k-images-idx3-ubyte.gz'),
                    label=os.path.join(root, 't10k-labels-idx1-ubyte.gz'), batch_size=batch_size,
                    shuffle=False, flat=flat, num_parts=num_parts, part_index=part_index)
    return train, val


def get_mnist_pkl():
    raise NotSupportedError('get_mnist_pkl: gluonjax does not download mnist.pkl.gz; use get_mnist()')


def get_cifar10():
    raise NotSupportedError('get_cifar10: gluonjax does not download CIFAR-10; put the binary files in a folder '
                            'and use gluon.data.vision.CIFAR10(root=...)')


class DummyIter:
    """An iterator that returns the first batch of ``real_iter`` forever (for speed tests)."""

    def __init__(self, real_iter):
        self.real_iter = real_iter
        self.provide_data = real_iter.provide_data
        self.provide_label = real_iter.provide_label
        self.batch_size = real_iter.batch_size
        self.the_batch = next(iter(real_iter))

    def __iter__(self):
        return self

    def next(self):
        return self.the_batch

    __next__ = next
