"""``mx.test_utils``: the helpers MXNet scripts and tests use (get_mnist, assert_almost_equal, ...).

Nothing here downloads: ``get_mnist`` reads the copy of MNIST shipped with
gluonjax, and ``download`` explains that gluonjax is offline.
"""
# MXNet's test_utils has no __all__: `from mxnet.test_utils import *` hands out its public functions
# *and* the modules and names it imports (tests rely on getting np, mx, sys, os... that way), so
# the imports below are MXNet's list; helpers of our own are imported under private names.
import time
import gzip
import struct
import traceback
import numbers
import sys
import os
import platform
import errno
import logging
import bz2
import zipfile
import json
from contextlib import contextmanager
from collections import OrderedDict
import functools as _functools
import shutil as _shutil

import numpy as np
import numpy.testing as npt
import numpy.random as rnd
try:
    import scipy.stats as ss
except ImportError:
    ss = None

from ._files import atomic_open as _atomic_open
import gluonjax as mx
from .base import MXNetError as _MXNetError, NotSupportedError as _NotSupportedError
from .context import Context, current_context, num_gpus as _num_gpus
from .ndarray.ndarray import _STORAGE_TYPE_STR_TO_ID, NDArray as _NDArray, array
from .symbol import Symbol
from .util import use_np, getenv, setenv  # noqa: F401  (MXNet re-exports them here)
from .runtime import Features



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
        raise _MXNetError('random_sample: k=%d is out of range for a population of %d' % (k, len(population)))
    population_copy = population[:]
    np.random.shuffle(population_copy)
    return population_copy[0:k]


def get_identity_mat(size):
    """A (size, size) float32 identity NDArray."""
    return array(np.eye(size, dtype=np.float32))


def get_identity_mat_batch(size):
    """Two (size, size) identity matrices stacked: (2, size, size), as MXNet's linalg tests use them."""
    return array(np.stack([np.eye(size, dtype=np.float32)] * 2))


def rand_ndarray(shape, stype='default', density=None, dtype=None, modifier_func=None,
                 shuffle_csr_indices=False, distribution=None, ctx=None):
    """A standard-normal NDArray (float32 unless ``dtype``), or a random sparse one of ``stype``."""
    ctx = ctx if ctx else default_context()
    if stype != 'default':
        return rand_sparse_ndarray(shape, stype, density=density, dtype=dtype, modifier_func=modifier_func,
                                   shuffle_csr_indices=shuffle_csr_indices, distribution=distribution, ctx=ctx)[0]
    return array(random_arrays(shape), dtype=dtype, ctx=ctx)


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
    """Sum the numpy array ``a`` down to ``shape``, which must broadcast to ``a.shape``: the leading
    axes ``shape`` lacks and the axes where it has 1 are summed (undoing a broadcast)."""
    shape = tuple(shape)
    assert len(a.shape) >= len(shape)
    if a.size == 0 or int(np.prod(shape)) == 0:
        return np.zeros(shape, dtype=a.dtype)
    lead = len(a.shape) - len(shape)
    axes = list(range(lead))
    for i, s in enumerate(shape):
        if s != a.shape[lead + i]:
            assert s == 1, 'collapse_sum_like: shape %s does not broadcast to %s' % (shape, a.shape)
            axes.append(lead + i)
    return np.sum(a, axis=tuple(axes)).reshape(shape)


# ---------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------

def _as_np(x):
    if isinstance(x, _NDArray):
        return x.asnumpy()
    if hasattr(x, 'asnumpy'):
        return x.asnumpy()
    return x


def same(a, b):
    """True when the two arrays have the same shape and elements."""
    return np.array_equal(_as_np(a), _as_np(b))


def same_array(array1, array2):
    """True when the two NDArrays share memory: adding 1 to ``array1`` shows in ``array2``
    (both are left as they were)."""
    array1[:] += 1
    if not same(array1.asnumpy(), array2.asnumpy()):
        array1[:] -= 1
        return False
    array1[:] -= 1
    return same(array1.asnumpy(), array2.asnumpy())


def checkShapes(a, b):
    if a.shape != b.shape:
        raise AssertionError('a.shape = {} and b.shape = {} are not equal'.format(a.shape, b.shape))


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """True when ``|a - b| <= atol + rtol * |b|`` everywhere."""
    a, b = _as_np(a), _as_np(b)
    if not use_broadcast:
        checkShapes(a, b)
    return np.allclose(a, b, rtol=get_rtol(rtol), atol=get_atol(atol), equal_nan=equal_nan)


def find_max_violation(a, b, rtol=None, atol=None):
    """(index, ratio) of the element of ``a`` furthest outside ``atol + rtol * |b|`` of ``b``."""
    return _find_max_violation(np.asarray(_as_np(a)), np.asarray(_as_np(b)), get_rtol(rtol), get_atol(atol))


def locationError(a, b, index, names, maxError=False):
    """The line naming the element ``index`` of two compared arrays, as MXNet prints it."""
    return 'Location of %serror: %s, %s=%.8f, %s=%.8f' % ('maximum ' if maxError else '', str(index), names[0],
                                                          a[index], names[1], b[index])


def _find_max_violation(a, b, rtol, atol):
    absdiff = np.where(np.equal(a, b), 0, np.abs(a - b))
    tol = atol + rtol * np.abs(b)
    violation = absdiff / (tol + 1e-20)
    loc = np.argmax(violation)
    return np.unravel_index(loc, violation.shape), np.max(violation)


def assert_almost_equal(a, b, rtol=None, atol=None, names=('a', 'b'), equal_nan=False,
                        use_broadcast=True, mismatches=(10, 10)):
    """Raise AssertionError unless ``a`` and ``b`` (NDArrays, numpy arrays or numbers) are
    element-wise close; the default tolerances depend on the dtypes. Before raising it prints
    the worst elements (``mismatches``, see :func:`_print_mismatches`), as MXNet's does; the
    message gives the worst element and the fraction of elements out of tolerance."""
    if not use_broadcast:
        checkShapes(_as_np(a), _as_np(b))
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.asarray(_as_np(a)), np.asarray(_as_np(b))
    if a.dtype == np.bool_ and b.dtype == np.bool_:
        np.testing.assert_equal(a, b)
        return
    if np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan):  # ValueError for shapes that do not broadcast
        return
    ab, bb = np.broadcast_arrays(a, b)
    if ab.ndim:  # MXNet reports elements of arrays, not of two numbers
        _print_mismatches(ab, bb, rtol, atol, names, equal_nan, mismatches)
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


def _print_mismatches(a, b, rtol, atol, names, equal_nan, mismatches):
    """Print the elements of ``a`` and ``b`` (same shape) out of tolerance, worst first, on stdout
    as MXNet's assert_almost_equal does: at most ``mismatches[0]`` lines; the search stops after
    ``mismatches[1]`` elements (0: after all of them). Errors are computed in the arrays' own
    dtypes, as MXNet computes them."""
    print('\n*** Maximum errors for vector of size {}:  rtol={}, atol={}\n'.format(a.size, rtol, atol))
    rest_a, rest_b = a.copy(), b.copy()
    for count in range(1, a.size + 1):
        index, rel = _find_max_violation(rest_a, rest_b, rtol, atol)
        index = tuple(int(i) for i in index)
        if count <= mismatches[0]:
            print('%3d: Error %f  %s' % (count, rel, locationError(a, b, index, names)))
        rest_a[index] = rest_b[index] = 0   # set aside, then look for the next worst
        if 0 < mismatches[1] <= count or np.allclose(rest_a, rest_b, rtol=rtol, atol=atol, equal_nan=equal_nan):
            return


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
        @_functools.wraps(f)
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
    """The ids of the GPUs jax can see (a range, as MXNet returns them)."""
    return range(_num_gpus())


@contextmanager
def environment(*args):
    """Set environment variables for a ``with`` block: ``environment('NAME', 'value')`` or
    ``environment({'NAME': 'value'})``; None unsets a variable."""
    if len(args) == 2:
        settings = {args[0]: args[1]}
    elif len(args) == 1 and isinstance(args[0], dict):
        settings = args[0]
    else:
        raise _MXNetError('environment: expected (name, value) or a dict, got %r' % (args,))
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
    raise _MXNetError('download: gluonjax does not download files (%s). Put the file at %s yourself; '
                     'MNIST is shipped with gluonjax (mx.test_utils.get_mnist()).' % (url, os.path.abspath(fname)))


def _mnist_arrays(train):
    from .gluon.data.vision import _idx
    paths = _idx.find_files(_idx.split_names(train), [_idx.PACKAGE_MNIST_DIR])
    if paths is None:
        raise _MXNetError('get_mnist: the copy of MNIST shipped with gluonjax is missing from %s; reinstall gluonjax'
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
                    _atomic_open(target, 'wb') as dst:
                _shutil.copyfileobj(src, dst)


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
    raise _NotSupportedError('get_mnist_pkl: gluonjax does not download mnist.pkl.gz; use get_mnist()')


def get_cifar10():
    raise _NotSupportedError('get_cifar10: gluonjax does not download CIFAR-10; put the binary files in a folder '
                            'and use gluon.data.vision.CIFAR10(root=...)')


class DummyIter(mx.io.DataIter):
    """An iterator that returns the first batch of ``real_iter`` forever (for speed tests)."""

    def __init__(self, real_iter):
        super().__init__(real_iter.batch_size)
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


# ---------------------------------------------------------------------------------------
# More comparisons
# ---------------------------------------------------------------------------------------

def _mismatch_message(a, b, rtol, atol, names):
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    index, rel = _find_max_violation(a, b, rtol, atol)
    bad = ~np.isclose(a, b, rtol=rtol, atol=atol)
    return 'Error %f exceeds tolerance rtol=%e, atol=%e (mismatch %f%%).\n%s' % (
        rel, rtol, atol, 100.0 * np.count_nonzero(bad) / max(bad.size, 1),
        locationError(a, b, tuple(int(i) for i in index), names, maxError=True))


def assert_almost_equal_with_err(a, b, rtol=None, atol=None, etol=None, names=('a', 'b'), equal_nan=False,
                                 mismatches=(10, 10)):
    """As assert_almost_equal, but with ``etol`` > 0 a fraction of up to ``etol`` of the elements
    may be out of tolerance."""
    etol = get_etol(etol)
    if etol <= 0:
        assert_almost_equal(a, b, rtol=rtol, atol=atol, names=names, equal_nan=equal_nan)
        return
    rtol, atol = get_rtol(rtol), get_atol(atol)
    a, b = np.asarray(_as_np(a)), np.asarray(_as_np(b))
    close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if 1 - np.count_nonzero(close) / close.size > etol:
        raise AssertionError(_mismatch_message(a, b, rtol, atol, names))


def almost_equal_ignore_nan(a, b, rtol=None, atol=None):
    """almost_equal on the elements where neither array is NaN."""
    a, b = np.copy(_as_np(a)), np.copy(_as_np(b))
    nan_mask = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan_mask] = 0
    b[nan_mask] = 0
    return almost_equal(a, b, rtol, atol)


def compare_ndarray_tuple(t1, t2, rtol=None, atol=None):
    """assert_almost_equal on two (nested) tuples of arrays; None on either side is skipped."""
    if t1 is None or t2 is None:
        return
    if isinstance(t1, tuple):
        for s1, s2 in zip(t1, t2):
            compare_ndarray_tuple(s1, s2, rtol, atol)
    else:
        assert_almost_equal(t1, t2, rtol=rtol, atol=atol)


def same_symbol_structure(sym1, sym2):
    """True when the two symbols' graphs have the same operator at every node position."""
    nodes1 = json.loads(sym1.tojson())['nodes']
    nodes2 = json.loads(sym2.tojson())['nodes']
    return all(n1['op'] == n2['op'] for n1, n2 in zip(nodes1, nodes2))


# ---------------------------------------------------------------------------------------
# Arrays for tests
# ---------------------------------------------------------------------------------------

def _sorted_items(d):
    return sorted(d.items(), key=lambda t: t[0])


def _sorted_dict(d):
    return OrderedDict(_sorted_items(d))


def assign_each(the_input, function):
    """A float numpy array of ``function`` applied to each element of ``the_input``
    (a copy of it when ``function`` is None)."""
    if function is None:
        return np.array(the_input)
    the_input = np.asarray(the_input)
    return np.array([function(v) for v in the_input.ravel()], dtype=np.float64).reshape(the_input.shape)


def assign_each2(input1, input2, function):
    """A float numpy array of ``function(x, y)`` over the elements of two arrays of one shape."""
    if function is None:
        return np.array(input1)
    input1, input2 = np.asarray(input1), np.asarray(input2)
    assert input1.shape == input2.shape
    return np.array([function(x, y) for x, y in zip(input1.ravel(), input2.ravel())],
                    dtype=np.float64).reshape(input1.shape)


def create_2d_tensor(rows, columns, dtype=np.int64, ctx=None):
    """An NDArray (rows, columns) whose row i holds i (for large-tensor tests)."""
    a = mx.nd.arange(0, rows, dtype=dtype, ctx=ctx).reshape(rows, 1)
    return mx.nd.broadcast_to(a, shape=(a.shape[0], columns))


def create_vector(size, dtype=np.int64):
    """``arange(size)`` as an NDArray."""
    return mx.nd.arange(0, size, dtype=dtype)


def shuffle_csr_column_indices(csr):
    """Shuffle the column indices within each row of a CSRNDArray, in place, for operators that must
    not assume sorted columns; the values stay where they are, so they change columns, as with
    MXNet's helper."""
    ptr, cols = csr.indptr.asnumpy(), csr.indices.asnumpy()
    for lo, hi in zip(ptr[:-1], ptr[1:]):
        np.random.shuffle(cols[lo:hi])
    value = csr._storage
    csr._set_storage(type(value)(value.data, mx.nd.array(cols, dtype=np.int64)._data, value.indptr, value.shape))


def _uniform_csr(shape, density, dtype, data_init):
    """A dense matrix with round(density * size) non-zeros at random positions."""
    rows, cols = shape
    nnz = int(round(rows * cols * density))
    out = np.zeros(rows * cols, dtype=dtype)
    where = np.random.choice(rows * cols, nnz, replace=False) if rows * cols else np.zeros(0, int)
    out[where] = data_init if data_init is not None else np.random.uniform(0.001, 1, nnz)
    return out.reshape(shape)


def _powerlaw_csr(shape, density, dtype):
    """A dense matrix whose row i has about twice the non-zeros of row i - 1 (each row at least
    one), density * size in all."""
    rows, cols = shape
    left = int(rows * cols * density)
    out = np.zeros(shape, dtype=dtype)
    per_row = 1
    for r in range(rows):
        take = max(1, min(cols, per_row, left))
        out[r, :take] = 1 + np.random.uniform(0.001, 2, take)
        left -= take
        per_row *= 2
        if left <= 0:
            break
    if left > 0:
        raise ValueError('not supported for this density: %s for this shape %s' % (density, shape))
    return out


def rand_sparse_ndarray(shape, stype, density=None, dtype=None, distribution=None, data_init=None,
                        rsp_indices=None, modifier_func=None, shuffle_csr_indices=False, ctx=None):
    """A random row_sparse or csr NDArray and its parts: (array, (values, indices)) for
    row_sparse, (array, (indptr, indices, data)) for csr."""
    ctx = ctx if ctx else default_context()
    density = np.random.rand() if density is None else density
    dtype = default_dtype() if dtype is None else dtype
    distribution = 'uniform' if distribution is None else distribution
    if stype == 'row_sparse':
        assert distribution == 'uniform', 'Distribution %s not supported for row_sparse' % distribution
        indices = np.asarray(rsp_indices if rsp_indices is not None
                             else np.flatnonzero(np.random.rand(shape[0]) < density))
        if indices.shape[0] == 0:
            return mx.nd.sparse.zeros('row_sparse', shape, ctx=ctx, dtype=dtype), (np.array([], dtype=dtype),
                                                                                  np.array([]))
        values = np.random.rand(indices.shape[0], *shape[1:]).astype(dtype)
        if data_init is not None:
            values.fill(data_init)
        if modifier_func is not None:
            values = assign_each(values, modifier_func)
        arr = mx.nd.sparse.row_sparse_array((values, indices), shape=shape, dtype=dtype, ctx=ctx)
        return arr, (values, indices)
    if stype == 'csr':
        assert len(shape) == 2
        if distribution == 'uniform':
            dense = _uniform_csr(shape, density, dtype, data_init)
        elif distribution == 'powerlaw':
            dense = _powerlaw_csr(shape, density, dtype)
        else:
            raise AssertionError('Distribution not supported: %s' % distribution)
        if modifier_func is not None:
            dense = np.where(dense != 0, assign_each(dense, modifier_func), 0).astype(dtype)
        csr = mx.nd.array(dense, dtype=dtype, ctx=ctx).tostype('csr')
        if shuffle_csr_indices:
            shuffle_csr_column_indices(csr)
        return csr, (csr.indptr, csr.indices, csr.data)
    raise AssertionError('unknown storage type')


def create_sparse_array(shape, stype, data_init=None, rsp_indices=None, dtype=None, modifier_func=None,
                        density=.5, shuffle_csr_indices=False):
    """A random sparse NDArray (row_sparse: the rows ``rsp_indices`` when given)."""
    if stype not in ('row_sparse', 'csr'):
        raise AssertionError('Unknown storage type: ' + str(stype))
    if stype == 'row_sparse' and rsp_indices is not None:
        density = None
    return rand_sparse_ndarray(shape, stype, density=density, dtype=dtype, data_init=data_init,
                               rsp_indices=rsp_indices, modifier_func=modifier_func,
                               shuffle_csr_indices=shuffle_csr_indices)[0]


def create_sparse_array_zd(shape, stype, density, data_init=None, rsp_indices=None, dtype=None,
                           modifier_func=None, shuffle_csr_indices=False):
    """create_sparse_array with the density set by ``rsp_indices``: needs sparse storage."""
    return create_sparse_array(shape, stype, data_init=data_init, rsp_indices=rsp_indices, dtype=dtype,
                               modifier_func=modifier_func, density=density,
                               shuffle_csr_indices=shuffle_csr_indices)


def new_matrix_with_real_eigvals_2d(n):
    """A random (n, n) matrix with real eigenvalues in [-10, 10], similar to a diagonal one by a
    well-conditioned change of basis (so inverses and eigen-solvers are stable on it)."""
    while True:
        v = np.random.uniform(-1.0, 1.0, (n, 1))
        v /= np.linalg.norm(v)
        basis = (np.eye(n) - 2 * v @ v.T) @ np.diag(np.random.uniform(-1.0, 1.0, n))
        if np.linalg.cond(basis, 2) < 3:
            break
    return np.linalg.inv(basis) @ np.diag(np.random.uniform(-10.0, 10.0, n)) @ basis


def new_matrix_with_real_eigvals_nd(shape):
    """A stack of new_matrix_with_real_eigvals_2d matrices of ``shape`` (..., n, n)."""
    count = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_matrix_with_real_eigvals_2d(shape[-1]) for _ in range(count)]).reshape(shape)


def new_orthonormal_matrix_2d(n):
    """A random (n, n) orthonormal matrix."""
    x = np.random.randn(n, n)
    return np.linalg.qr(x.T @ x)[0]


def new_sym_matrix_with_real_eigvals_2d(n):
    """A random symmetric (n, n) matrix with eigenvalues in [-10, 10]."""
    q = new_orthonormal_matrix_2d(n)
    return q.T @ np.diag(np.random.uniform(-10.0, 10.0, n)) @ q


def new_sym_matrix_with_real_eigvals_nd(shape):
    """A stack of new_sym_matrix_with_real_eigvals_2d matrices of ``shape`` (..., n, n)."""
    count = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_sym_matrix_with_real_eigvals_2d(shape[-1]) for _ in range(count)]).reshape(shape)


# ---------------------------------------------------------------------------------------
# Symbols: forward, backward and numeric gradients
# ---------------------------------------------------------------------------------------

def simple_forward(sym, ctx=None, is_train=False, **inputs):
    """Run ``sym`` on numpy inputs given by name; numpy output (a list when several)."""
    ctx = ctx or default_context()
    exe = sym.bind(ctx, args={k: array(v) for k, v in inputs.items()})
    exe.forward(is_train=is_train)
    outputs = [x.asnumpy() for x in exe.outputs]
    return outputs[0] if len(outputs) == 1 else outputs


def _to_nd(v, ctx, dtype):
    if isinstance(v, np.ndarray):
        return array(v, ctx=ctx, dtype=v.dtype if dtype == 'asnumpy' else dtype)
    return v


def _parse_location(sym, location, ctx, dtype=np.float32):
    """{argument name: NDArray} (sorted by name) from a list in list_arguments() order or a dict."""
    assert isinstance(location, (dict, list, tuple))
    assert dtype == 'asnumpy' or dtype in (np.float16, np.float32, np.float64)
    names = sym.list_arguments()
    if isinstance(location, dict):
        if set(location) != set(names):
            raise ValueError('Symbol arguments and keys of the given location do not match.'
                             'symbol args:%s, location.keys():%s' % (set(names), set(location)))
    else:
        location = dict(zip(names, location))
    return _sorted_dict({k: _to_nd(v, ctx, dtype) for k, v in location.items()})


def _parse_aux_states(sym, aux_states, ctx, dtype=np.float32):
    """{auxiliary state name: NDArray} from a list in list_auxiliary_states() order or a dict (or None)."""
    assert dtype == 'asnumpy' or dtype in (np.float16, np.float32, np.float64)
    if aux_states is None:
        return None
    names = sym.list_auxiliary_states()
    if isinstance(aux_states, dict):
        if set(aux_states) != set(names):
            raise ValueError('Symbol aux_states names and given aux_states do not match.'
                             'symbol aux_names:%s, aux_states.keys:%s' % (set(names), set(aux_states)))
    else:
        aux_states = dict(zip(names, aux_states))
    return {k: array(v, ctx=ctx, dtype=np.asarray(_as_np(v)).dtype if dtype == 'asnumpy' else dtype)
            for k, v in aux_states.items()}


# Perturbed copies of an argument evaluated in one batched forward: at most this many elements
# (copies x the larger of the argument's and the output's size) per batch.
_NUMERIC_GRAD_BATCH_ELEMENTS = 1 << 21


def _batched_central_differences(executor, name, value, eps, train, dtype):
    """(f(x + eps/2 e_i) - f(x - eps/2 e_i)) / eps for every element i of argument ``name``, f
    the sum of the first output, from batched forwards of fixed size (one compile); None where
    the executor cannot batch its graph (numeric_grad then runs one forward per perturbation)."""
    n = value.size
    width = max(n, int(np.prod(executor.outputs[0].shape)), 1)
    batch = int(min(2 * n, max(2, _NUMERIC_GRAD_BATCH_ELEMENTS // width)))
    batch += batch % 2
    base = value.astype(np.float64).reshape(-1)
    diffs = np.empty(n, dtype=np.float64)
    for start in range(0, n, batch // 2):
        idx = np.arange(start, start + batch // 2)
        idx = np.minimum(idx, n - 1)  # the last batch is padded by repeating an element: same shape
        stack = np.repeat(base[None, :], batch, axis=0)
        rows = np.arange(batch // 2)
        stack[2 * rows, idx] += eps / 2.0
        stack[2 * rows + 1, idx] -= eps / 2.0
        stack = stack.astype(dtype).reshape((batch,) + value.shape)
        sums = executor._first_output_sums(name, stack, train)
        if sums is None:
            return None
        count = min(batch // 2, n - start)
        diffs[start:start + count] = ((sums[0::2] - sums[1::2]) / eps)[:count]
    return diffs


def numeric_grad(executor, location, aux_states=None, eps=1e-4, use_forward_train=True, dtype=np.float32,
                 names=None):
    """Central finite differences of the sum of ``executor``'s first output with respect to each
    float argument in ``location`` ({name: numpy array}), or those in ``names``: {name: numpy
    gradient} (zeros for the others)."""
    assert dtype in (np.float16, np.float32, np.float64)
    grads = {k: np.zeros(np.shape(v), dtype=dtype) for k, v in location.items()}
    location = {k: np.array(v, order='C') for k, v in location.items()}

    def run(name, value):
        executor.arg_dict[name][:] = array(value, dtype=dtype)
        if aux_states is not None:
            for key, val in aux_states.items():
                executor.aux_dict[key][:] = array(_as_np(val), dtype=dtype)
        executor.forward(is_train=use_forward_train)
        return executor.outputs[0].asnumpy().astype(np.float64).sum()

    for k, v in location.items():
        executor.arg_dict[k][:] = array(v, dtype=dtype)
    if aux_states is not None:
        for key, val in aux_states.items():
            executor.aux_dict[key][:] = array(_as_np(val), dtype=dtype)
    for k, v in location.items():
        if v.dtype.kind != 'f' or (names is not None and k not in names):
            continue
        batched = _batched_central_differences(executor, k, v, eps, use_forward_train, dtype)
        if batched is not None:
            grads[k] = batched.reshape(v.shape).astype(dtype)
            continue
        flat = v.reshape(-1)
        for i in range(flat.size):
            old = flat[i]
            flat[i] = old + eps / 2.0
            f_plus = run(k, v)
            flat[i] = old - eps / 2.0
            f_minus = run(k, v)
            grads[k].reshape(-1)[i] = (f_plus - f_minus) / eps
            flat[i] = old
        executor.arg_dict[k][:] = array(v, dtype=dtype)
    return grads


def check_numeric_gradient(sym, location, aux_states=None, numeric_eps=None, rtol=None, atol=None,
                           grad_nodes=None, use_forward_train=True, ctx=None, grad_stype_dict=None,
                           dtype=np.float32):
    """Check ``sym``'s backward pass against finite differences.

    The symbol's output is multiplied by a fixed random projection (so every output element
    matters), the executor's gradients are compared with central differences of that projected
    sum (``numeric_eps``; ``rtol``/``atol`` default to the dtype's), for the arguments in
    ``grad_nodes`` (all by default; a dict gives each one's grad_req: 'write', 'add' or 'null').
    Raises AssertionError naming NUMERICAL_<arg> and BACKWARD_<arg> when they differ."""
    assert dtype in (np.float16, np.float32, np.float64)
    if ctx is None:
        ctx = default_context()
    if numeric_eps is None:
        numeric_eps = default_numeric_eps()[np.dtype(dtype)]
    if dtype in (np.float32, np.float16):
        assert numeric_eps >= 1e-5
    # grad_stype_dict: symbolic gradients are dense in gluonjax; their values are what is compared

    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    location_npy = {k: v.asnumpy() for k, v in location.items()}
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    aux_states_npy = None if aux_states is None else {k: v.asnumpy() for k, v in aux_states.items()}
    if grad_nodes is None:
        grad_nodes = sym.list_arguments()
        grad_req = {k: 'write' for k in grad_nodes}
    elif isinstance(grad_nodes, (list, tuple)):
        grad_nodes = list(grad_nodes)
        grad_req = {k: 'write' for k in grad_nodes}
    elif isinstance(grad_nodes, dict):
        grad_req = dict(grad_nodes)
        grad_nodes = list(grad_nodes.keys())
    else:
        raise ValueError('grad_nodes must be None, a list or a dict, got %r' % (grad_nodes,))

    _, out_shapes, _ = sym.infer_shape(**{k: v.shape for k, v in location.items()})
    proj = mx.sym.Variable('__random_proj')
    out = mx.sym.make_loss(sym * proj)
    # elements not too close to 0, or the finite differences lose their precision
    projection = np.asarray(np.random.rand(*out_shapes[0]) + 0.1)  # an array for 0-d outputs too
    location = dict(location)
    location['__random_proj'] = array(projection, ctx=ctx, dtype=dtype)
    args_grad_npy = {k: np.random.normal(0, 0.01, size=location[k].shape) for k in grad_nodes}
    args_grad_npy['__random_proj'] = np.random.normal(0, 0.01, size=out_shapes[0])
    args_grad = {k: array(v, ctx=ctx, dtype=dtype) for k, v in args_grad_npy.items()}
    full_req = {k: grad_req.get(k, 'null') for k in out.list_arguments()}
    full_req['__random_proj'] = 'write'
    executor = out.bind(ctx, grad_req=full_req, args=location, args_grad=args_grad, aux_states=aux_states)
    if len(executor.arg_arrays) != len(location):
        raise ValueError('Executor arg_arrays and and location len do not match.'
                         'Got %d inputs and %d locations' % (len(executor.arg_arrays), len(location)))
    assert len(executor.outputs) == 1
    executor.forward(is_train=True)
    executor.backward()
    symbolic = {k: args_grad[k].asnumpy() for k in grad_nodes}

    location_npy['__random_proj'] = projection.astype(dtype)
    # only the gradients compared below: each other argument would cost a compile and its forwards
    numeric = numeric_grad(executor, location_npy, aux_states_npy, eps=numeric_eps,
                           use_forward_train=use_forward_train, dtype=dtype,
                           names=[n for n in grad_nodes if grad_req[n] != 'null'])
    for name in grad_nodes:
        names = ('NUMERICAL_%s' % name, 'BACKWARD_%s' % name)
        req = grad_req[name]
        if req == 'write':
            assert_almost_equal(numeric[name], symbolic[name], rtol, atol, names)
        elif req == 'add':
            assert_almost_equal(numeric[name], symbolic[name] - args_grad_npy[name], rtol, atol, names)
        elif req == 'null':
            assert_almost_equal(args_grad_npy[name].astype(dtype), symbolic[name], rtol, atol, names)
        else:
            raise ValueError('Invalid grad_req %s for argument %s' % (req, name))


def check_symbolic_forward(sym, location, expected, rtol=None, atol=None, aux_states=None, ctx=None,
                           equal_nan=False, dtype=np.float32):
    """Run ``sym`` forward (is_train=False) at ``location`` and compare its outputs with
    ``expected`` (a list in output order, or a dict by output name); returns the outputs."""
    assert dtype == 'asnumpy' or dtype in (np.float16, np.float32, np.float64)
    if ctx is None:
        ctx = default_context()
    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    if isinstance(expected, dict):
        expected = [expected[k] for k in sym.list_outputs()]
    args_grad = {k: mx.nd.zeros(v.shape, ctx=ctx, dtype=v.dtype) for k, v in location.items()}
    executor = sym.bind(ctx=ctx, args=location, args_grad=args_grad, aux_states=aux_states)
    executor.forward(is_train=False)
    outputs = [x.asnumpy() for x in executor.outputs]
    for name, expect, output in zip(sym.list_outputs(), expected, outputs):
        assert_almost_equal(expect, output, rtol, atol, ('EXPECTED_%s' % name, 'FORWARD_%s' % name),
                            equal_nan=equal_nan)
    return executor.outputs


def check_symbolic_backward(sym, location, out_grads, expected, rtol=None, atol=None, aux_states=None,
                            grad_req='write', ctx=None, grad_stypes=None, equal_nan=False, dtype=np.float32):
    """Run ``sym`` forward and backward with head gradients ``out_grads`` and compare the argument
    gradients with ``expected`` (a list in list_arguments() order or a dict); 'add' and 'null'
    grad_reqs are checked against the random values the gradient buffers start with.
    Returns the gradient NDArrays by name."""
    assert dtype == 'asnumpy' or dtype in (np.float16, np.float32, np.float64)
    if ctx is None:
        ctx = default_context()
    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    if isinstance(expected, (list, tuple)):
        expected = dict(zip(sym.list_arguments(), expected))
    expected = {k: np.asarray(_as_np(v)) for k, v in expected.items()}
    # the buffers start dirty (seeded by the caller's numpy state), so 'add' and 'null' are tested
    args_grad_npy = {k: np.random.normal(size=v.shape) for k, v in _sorted_items(expected)}
    args_grad = {k: array(v, ctx=ctx, dtype=expected[k].dtype if dtype == 'asnumpy' else dtype)
                 for k, v in args_grad_npy.items()}
    for k, stype in (grad_stypes or {}).items():  # gradient buffers in the storage asked for
        if stype not in (None, 'default') and k in args_grad:
            args_grad[k] = args_grad[k].tostype(stype)
    if isinstance(grad_req, str):
        grad_req = {k: grad_req for k in sym.list_arguments()}
    elif isinstance(grad_req, (list, tuple)):
        grad_req = dict(zip(sym.list_arguments(), grad_req))
    executor = sym.bind(ctx=ctx, args=location, args_grad=args_grad, aux_states=aux_states, grad_req=grad_req)
    executor.forward(is_train=True)
    if isinstance(out_grads, (tuple, list)):
        out_grads = [_to_nd(g, ctx, dtype) for g in out_grads]
    elif isinstance(out_grads, dict):
        out_grads = {k: _to_nd(g, ctx, dtype) for k, g in out_grads.items()}
    else:
        assert out_grads is None
    executor.backward(out_grads)
    grads = {k: v.asnumpy() for k, v in args_grad.items()}
    for name in expected:
        names = ('EXPECTED_%s' % name, 'BACKWARD_%s' % name)
        req = grad_req[name]
        if req == 'write':
            assert_almost_equal(expected[name], grads[name], rtol, atol, names, equal_nan=equal_nan)
        elif req == 'add':
            assert_almost_equal(expected[name], grads[name] - args_grad_npy[name], rtol, atol, names,
                                equal_nan=equal_nan)
        elif req == 'null':
            assert_almost_equal(args_grad_npy[name], grads[name], rtol, atol, names, equal_nan=equal_nan)
        else:
            raise ValueError('Invalid grad_req %s for argument %s' % (req, name))
    return args_grad


def check_speed(sym, location=None, ctx=None, N=20, grad_req=None, typ='whole', **kwargs):
    """Seconds per run of ``sym``: forward and backward (``typ='whole'``) or forward only."""
    if ctx is None:
        ctx = default_context()
    grad_req = grad_req or 'write'
    if location is None:
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx, **kwargs)
        location = {k: np.random.normal(size=arr.shape, scale=1.0) for k, arr in exe.arg_dict.items()}
    else:
        assert isinstance(location, dict), 'Expect dict, get "location"=%s' % str(location)
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx, **{k: v.shape for k, v in location.items()})
    for name, value in location.items():
        exe.arg_dict[name][:] = value.astype(exe.arg_dict[name].dtype)
    if typ not in ('whole', 'forward'):
        raise ValueError('typ can only be "whole" or "forward".')

    def step():
        exe.forward(is_train=typ == 'whole')
        if typ == 'whole':
            exe.backward(out_grads=exe.outputs)

    step()   # warm up (and compile)
    mx.nd.waitall()
    tic = time.time()
    for _ in range(N):
        step()
    mx.nd.waitall()
    return (time.time() - tic) / N


def _ctx_atol(rtol, ctx_spec):
    if 'atol' in ctx_spec:
        return ctx_spec['atol']
    if 'atol_mult' in ctx_spec:
        return ctx_spec['atol_mult'] * rtol
    return rtol


def check_consistency(sym, ctx_list, scale=1.0, grad_req='write', arg_params=None, aux_params=None, tol=None,
                      raise_on_err=True, ground_truth=None, equal_nan=False, use_uniform=False,
                      rand_type=np.float64):
    """Check that ``sym`` gives the same outputs (and gradients) under each entry of ``ctx_list``
    (dicts of simple_bind arguments: ``ctx``, input shapes, ``type_dict``); the entry with the
    widest output dtype is the reference. Returns the reference arrays by name."""
    if tol is None:
        tol = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3, np.dtype(np.float64): 1e-5,
               np.dtype(np.uint8): 0, np.dtype(np.int32): 0, np.dtype(np.int64): 0}
    elif isinstance(tol, numbers.Number):
        tol = {np.dtype(t): tol for t in (np.float16, np.float32, np.float64, np.uint8, np.int32, np.int64)}
    assert len(ctx_list) > 1
    syms = [sym] * len(ctx_list) if isinstance(sym, Symbol) else list(sym)
    assert len(syms) == len(ctx_list)
    output_names = syms[0].list_outputs()
    arg_names = syms[0].list_arguments()
    exe_list = []
    for s, spec in zip(syms, ctx_list):
        assert s.list_arguments() == arg_names
        assert s.list_outputs() == output_names
        exe_list.append(s.simple_bind(grad_req=grad_req, **spec))
    arg_params = {} if arg_params is None else arg_params
    aux_params = {} if aux_params is None else aux_params
    for n, arr in exe_list[0].arg_dict.items():
        if n not in arg_params:
            if use_uniform:
                arg_params[n] = np.random.uniform(low=-0.92, high=0.92, size=arr.shape).astype(rand_type)
            else:
                arg_params[n] = np.random.normal(size=arr.shape, scale=scale).astype(rand_type)
    for n in exe_list[0].aux_dict:
        aux_params.setdefault(n, 0)
    for exe in exe_list:
        for name, arr in exe.arg_dict.items():
            arr[:] = arg_params[name]
        for name, arr in exe.aux_dict.items():
            arr[:] = aux_params[name]
        if grad_req == 'add':
            for arr in exe.grad_arrays:
                if arr is not None:
                    arr[:] = 0
    for exe in exe_list:
        exe.forward(is_train=False)
    dtypes = [np.dtype(exe.outputs[0].dtype) for exe in exe_list]
    max_idx = int(np.argmax([d.itemsize if d.kind == 'f' else 0 for d in dtypes]))
    gt = ground_truth
    if gt is None:
        gt = {k: v.copy() for k, v in exe_list[max_idx].output_dict.items()}

    def compare(pairs, i, what):
        rtol = tol[dtypes[i]]
        atol = _ctx_atol(rtol, ctx_list[i])
        for name, arr in pairs:
            if gt.get(name) is None:
                assert arr is None
                continue
            try:
                assert_almost_equal(arr, gt[name].astype(arr.dtype), rtol=rtol, atol=atol, equal_nan=equal_nan)
            except AssertionError as e:
                print('%s Err: ctx %d vs ctx %d at %s' % (what, i, max_idx, name))
                traceback.print_exc()
                if raise_on_err:
                    raise e
                print(str(e))

    for i, exe in enumerate(exe_list):
        if i != max_idx:
            compare(zip(output_names, exe.outputs), i, 'Predict')
    if grad_req != 'null':
        for exe in exe_list:
            exe.forward(is_train=True)
            exe.backward(exe.outputs)
        if ground_truth is None:
            ref = exe_list[max_idx]
            gt.update({k: v.copy() for k, v in ref.output_dict.items()})
            gt.update({k: (None if v is None else v.copy()) for k, v in zip(arg_names, ref.grad_arrays)})
        for i, exe in enumerate(exe_list):
            if i != max_idx:
                compare(zip(output_names + arg_names, exe.outputs + exe.grad_arrays), i, 'Train')
    return gt


@use_np
def check_gluon_hybridize_consistency(net_builder, data_l, numpy_func=None, test_grad=True, rtol=1E-4, atol=1E-4):
    """Check that the HybridBlock ``net_builder(prefix=...)`` builds gives the same outputs (and
    input gradients) hybridized and not, with the same parameters; and ``numpy_func``'s result
    when given."""
    class _FromNumpy(mx.init.Initializer):
        def __init__(self, values):
            super().__init__()
            self._values = values

        def _init_weight(self, name, arr):
            arr[()] = self._values[name]

    saved_out, saved_grads, init = None, None, None
    for hybridize in (False, True):
        for use_autograd in ([False, True] if test_grad else [False]):
            net = net_builder(prefix='net_')
            net.initialize(init) if init is not None else net.initialize()
            if hybridize:
                net.hybridize()
            inputs = [x.copy() for x in data_l]
            if use_autograd:
                for x in inputs:
                    x.attach_grad()
                with mx.autograd.record():
                    out = net(*inputs)
                out.backward(out)
            else:
                out = net(*inputs)
            if init is None:
                init = _FromNumpy({k: v.data().asnumpy() for k, v in net.collect_params().items()})
            if saved_out is None:
                saved_out = out.asnumpy()
            else:
                assert_almost_equal(out.asnumpy(), saved_out, rtol=rtol, atol=atol)
            if use_autograd:
                if saved_grads is None:
                    saved_grads = [x.grad.asnumpy() for x in inputs]
                else:
                    for x, g in zip(inputs, saved_grads):
                        assert_almost_equal(x.grad.asnumpy(), g, rtol=rtol, atol=atol)
    if numpy_func is not None:
        assert_almost_equal(saved_out, numpy_func(*[x.asnumpy() for x in data_l]), rtol=rtol, atol=atol)


def compare_optimizer(opt1, opt2, shape, dtype, w_stype='default', g_stype='default', rtol=1e-4, atol=1e-5,
                      compare_states=True, ntensors=1):
    """Apply one multi-precision update (index 0) of ``opt1`` and ``opt2`` to the same random
    weight and gradient of ``shape``; assert their states and the new weights agree. ``shape`` a
    list of ``ntensors`` shapes: ``opt2`` updates them all in one call, ``opt1`` one by one."""
    if isinstance(shape, list):
        _compare_multi_tensor(opt1, opt2, shape, dtype, rtol, atol, compare_states, ntensors)
        return
    assert ntensors == 1, 'compare_optimizer: ntensors > 1 needs a list of shapes'
    _compare_optimizers(opt1, opt2, shape, dtype, w_stype, g_stype, rtol, atol, compare_states, None)


def _compare_multi_tensor(opt1, opt2, shapes, dtype, rtol, atol, compare_states, ntensors):
    ctx = default_context()
    w1 = [mx.random.uniform(shape=s, ctx=ctx, dtype=dtype) for s in shapes]
    g1 = [mx.random.uniform(shape=s, ctx=ctx, dtype=dtype) for s in shapes]
    w2, g2 = [w.copy() for w in w1], [g.copy() for g in g1]
    state2 = [opt2.create_state_multi_precision(0, w2[i]) for i in range(ntensors)]
    opt2.update_multi_precision(list(range(ntensors)), w2, g2, state2)
    for i in range(ntensors):
        state1 = opt1.create_state_multi_precision(i, w1[i])
        opt1.update_multi_precision(i, w1[i], g1[i], state1)
        if compare_states:
            compare_ndarray_tuple(state1, state2[i], rtol, atol)
        compare_ndarray_tuple(w1[i], w2[i], rtol, atol)


def compare_optimizer_noise_seeded(opt1, opt2, shape, dtype, noise_seed, w_stype='default', g_stype='default',
                                   rtol=1e-4, atol=1e-5, compare_states=True):
    """compare_optimizer, with ``mx.random.seed(noise_seed)`` before each update (for optimizers
    that add noise, such as SGLD)."""
    _compare_optimizers(opt1, opt2, shape, dtype, w_stype, g_stype, rtol, atol, compare_states, noise_seed)


def _compare_optimizers(opt1, opt2, shape, dtype, w_stype, g_stype, rtol, atol, compare_states, seed):
    for stype in (w_stype, g_stype):
        if stype not in ('default', 'row_sparse', 'csr'):
            raise Exception('type not supported yet')
    ctx = default_context()
    # opt1 gets dense arrays, opt2 the same values in the storage asked for
    if w_stype == 'default':
        w2 = mx.random.uniform(shape=shape, ctx=ctx, dtype=dtype)
    else:
        w2 = rand_ndarray(shape, w_stype, density=1, dtype=dtype)
    w1 = w2.copyto(ctx).tostype('default')
    if g_stype == 'default':
        g2 = mx.random.uniform(shape=shape, ctx=ctx, dtype=dtype)
    else:
        g2 = rand_ndarray(shape, g_stype, dtype=dtype)
    g1 = g2.copyto(ctx).tostype('default')
    s1 = opt1.create_state_multi_precision(0, w1)
    s2 = opt2.create_state_multi_precision(0, w2)
    if compare_states:
        compare_ndarray_tuple(s1, s2)
    if seed is not None:
        mx.random.seed(seed)
    opt1.update_multi_precision(0, w1, g1, s1)
    if seed is not None:
        mx.random.seed(seed)
    opt2.update_multi_precision(0, w2, g2, s2)
    if compare_states:
        compare_ndarray_tuple(s1, s2, rtol=rtol, atol=atol)
    assert_almost_equal(w1.asnumpy(), w2.asnumpy(), rtol=rtol, atol=atol)


# ---------------------------------------------------------------------------------------
# Random generators: statistical checks
# ---------------------------------------------------------------------------------------

def gen_buckets_probs_with_ppf(ppf, nbuckets):
    """``nbuckets`` equally likely buckets [(low, high), ...] from a quantile function ``ppf``,
    and their probabilities (1/nbuckets each), for chi_square_check."""
    assert nbuckets > 0
    probs = [1.0 / nbuckets] * nbuckets
    buckets = [(ppf(i / float(nbuckets)), ppf((i + 1) / float(nbuckets))) for i in range(nbuckets)]
    return buckets, probs


def mean_check(generator, mu, sigma, nsamples=1000000):
    """True when the mean of ``generator(nsamples)`` is within 3 standard errors of ``mu``."""
    mean = np.array(generator(nsamples)).mean()
    bound = 3 * sigma / np.sqrt(nsamples)
    return bool(mu - bound < mean < mu + bound)


def var_check(generator, sigma, nsamples=1000000):
    """True when the sample variance of ``generator(nsamples)`` is within 3 standard errors of
    ``sigma ** 2``."""
    var = np.array(generator(nsamples)).var(ddof=1)
    bound = 3 * np.sqrt(2 * sigma ** 4 / (nsamples - 1))
    return bool(sigma ** 2 - bound < var < sigma ** 2 + bound)


def chi_square_check(generator, buckets, probs, nsamples=1000000):
    """Pearson's chi-square test of ``generator(nsamples)`` against ``probs`` over ``buckets``
    (ascending, disjoint (low, high) ranges for a continuous distribution, or the values of a
    discrete one). Returns (p value, observed counts, expected counts)."""
    if not ss:
        raise ImportError('scipy is not available. Please check if the scipy python bindings are installed.')
    assert isinstance(buckets, list)
    assert len(probs) == len(buckets)
    samples = np.asarray(_as_np(generator(nsamples))).reshape(-1)
    expected = (nsamples * np.array(probs, dtype=np.float32)).astype(np.int32)
    observed = np.zeros(len(buckets), dtype=np.int64)
    if isinstance(buckets[0], (list, tuple)):
        edges = np.zeros(len(buckets) * 2, dtype=np.float32)
        for i, (low, high) in enumerate(buckets):
            assert low <= high
            if i < len(buckets) - 1:
                assert high <= buckets[i + 1][0]
            edges[2 * i], edges[2 * i + 1] = low, high
        ids = np.searchsorted(edges, samples, side='right') // 2
        for i in range(len(buckets)):
            observed[i] = (ids == i).sum()
    else:
        for i, value in enumerate(buckets):
            observed[i] = (samples == value).sum()
    _, p = ss.chisquare(f_obs=observed, f_exp=expected * (observed.sum() / max(expected.sum(), 1)))
    return p, observed, expected


def verify_generator(generator, buckets, probs, nsamples=1000000, nrepeat=5, success_rate=0.2, alpha=0.05):
    """Run chi_square_check ``nrepeat`` times; AssertionError unless at least ``success_rate`` of
    the runs have p > ``alpha``. Returns the p values."""
    results = [chi_square_check(generator=generator, buckets=buckets, probs=probs, nsamples=nsamples)
               for _ in range(nrepeat)]
    ps = [r[0] for r in results]
    if (np.array(ps) > alpha).sum() < nrepeat * success_rate:
        raise AssertionError('Generator test fails, Chi-square p=%s, obs_freq=%s, expected_freq=%s.'
                             '\nbuckets=%s, probs=%s' % (ps, [r[1] for r in results], [r[2] for r in results],
                                                         buckets, probs))
    return ps


# ---------------------------------------------------------------------------------------
# Environment, files and the build
# ---------------------------------------------------------------------------------------

def set_env_var(key, val, default_val=''):
    """Set environment variable ``key`` to ``val``; returns its previous value (``default_val`` if unset)."""
    previous = os.environ.get(key, default_val)
    os.environ[key] = val
    return previous


class EnvManager:
    """``with EnvManager(key, value):`` sets an environment variable for the block."""

    def __init__(self, key, val):
        self._key = key
        self._next_val = val
        self._prev_val = None

    def __enter__(self):
        self._prev_val = os.environ.get(self._key)
        os.environ[self._key] = self._next_val

    def __exit__(self, ptype, value, trace):
        if self._prev_val:
            os.environ[self._key] = self._prev_val
        else:
            del os.environ[self._key]


@contextmanager
def discard_stderr():
    """``with discard_stderr():`` sends what the block writes to stderr (file descriptor 2, where
    native libraries log, and sys.stderr's own descriptor if it has another) to /dev/null."""
    fds = {2}
    try:
        fds.add(sys.stderr.fileno())
    except (AttributeError, ValueError, OSError):
        pass   # sys.stderr is not a file (a captured stream)

    def flush():
        try:
            sys.stderr.flush()
        except (AttributeError, ValueError, OSError):
            pass

    with open(os.devnull, 'w') as bit_bucket:
        flush()
        saved = {fd: os.dup(fd) for fd in fds}
        try:
            for fd in fds:
                os.dup2(bit_bucket.fileno(), fd)
            yield
        finally:
            flush()
            for fd, copy in saved.items():
                os.dup2(copy, fd)
                os.close(copy)


def download_model(model_name, dst_dir='./', meta_info=None):
    """MXNet downloads a model's symbol and params files here; gluonjax does not download.
    Returns (path prefix, 0) when both files are already in ``dst_dir``, (None, 0) for a model
    ``meta_info`` does not name."""
    if meta_info is not None and model_name not in meta_info:
        return None, 0
    prefix = os.path.join(dst_dir, model_name)
    for suffix in ('-symbol.json', '-0000.params'):
        download('http://data.mxnet.io/models/' + model_name + suffix, prefix + suffix)
    return prefix, 0


def get_zip_data(data_dir, url, data_origin_name):
    """Extract ``data_dir/data_origin_name`` (a zip file, which must be there: no download) into ``data_dir``."""
    path = os.path.join(data_dir, data_origin_name)
    if not os.path.exists(path):
        download(url, dirname=data_dir)
    with zipfile.ZipFile(path) as zf:
        zf.extractall(path=data_dir)


def get_bz2_data(data_dir, data_name, url, data_origin_name):
    """Decompress ``data_dir/data_origin_name`` (bz2, which must be there) to ``data_dir/data_name``."""
    target = os.path.join(data_dir, data_name)
    origin = os.path.join(data_dir, data_origin_name)
    if not os.path.exists(target):
        download(url, fname=origin)
        with bz2.BZ2File(origin, 'rb') as src, open(target, 'wb') as dst:
            _shutil.copyfileobj(src, dst)
        os.remove(origin)


def get_im2rec_path(home_env='MXNET_HOME'):
    """Path of MXNet's tools/im2rec.py; gluonjax ships no such tool, so IOError unless ``home_env``
    names an MXNet tree that has it."""
    root = os.environ.get(home_env, os.path.dirname(mx.__file__))
    for path in (os.path.join(root, 'tools', 'im2rec.py'), os.path.join(root, '..', '..', 'tools', 'im2rec.py')):
        if os.path.isfile(path):
            return path
    raise IOError('Could not find path to tools/im2rec.py')


def is_cd_run():
    """True inside a continuous-delivery run (environment CD_JOB=1)."""
    return os.environ.get('CD_JOB', 0) == '1'


def _compute_capability(ctx):
    import jax
    dev = ctx.jax_device if hasattr(ctx, 'jax_device') else jax.devices('gpu')[ctx.device_id]
    return int(str(getattr(dev, 'compute_capability', '0')).replace('.', ''))


def has_tvm_ops():
    """Whether the TVM-generated operators are built in: never in gluonjax (Features: TVM_OP)."""
    return Features().is_enabled('TVM_OP')


def is_op_runnable():
    """True on CPU; on a GPU, True unless the operators are TVM-built and need compute capability >= 5.3."""
    ctx = current_context()
    if ctx.device_type == 'gpu' and Features().is_enabled('TVM_OP'):
        try:
            return _compute_capability(ctx) >= 53
        except Exception:   # noqa: BLE001  (no capability to read: MXNet answers False too)
            return False
    return True


def is_aarch64_run():
    """True on an aarch64 machine (MXNet's suite skips tests known to fail there)."""
    return platform.machine() == 'aarch64'
