"""More ``mx.np`` functions with NumPy's signatures that are more than one operator call (the
functions that are one call, ``tril``, ``roll``, ``diff``, ..., come from the operator table's
``np`` entries): they run eagerly, under autograd and on Symbols in hybridized blocks alike.
"""
import numbers

import numpy as onp

from ..base import MXNetError
from ..ndarray.ndarray import NDArray
from ._core import apply_op, is_scalar, output_list, to_array
from .multiarray import (array, concatenate, flip, mean, ravel, reshape, split, broadcast_to, multiply, ones_like,
                         sum as _sum)

__all__ = ['flipud', 'fliplr', 'ediff1d', 'hsplit', 'vsplit', 'dsplit', 'array_split', 'append', 'nan_to_num',
           'polyval', 'broadcast_arrays', 'average', 'shares_memory', 'may_share_memory', 'diag_indices_from',
           'percentile', 'quantile', 'histogram', 'delete', 'insert', 'bincount', 'set_printoptions']


def flipud(m):
    return flip(m, 0)


def fliplr(m):
    return flip(m, 1)


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened array, with optional ends."""
    ary = to_array(ary, 'ediff1d', 'ary')
    params = {}
    inputs = [ary]
    for name, value in (('to_end', to_end), ('to_begin', to_begin)):
        given = value is not None and not is_scalar(value)
        params['%s_arr_given' % name] = given
        params['%s_scalar' % name] = float(value) if is_scalar(value) else None
        inputs.append(to_array(value, 'ediff1d', name) if given else ary)  # unused when not given
    return apply_op('_npi_ediff1d', inputs, params)


def _split_params(indices_or_sections):
    if isinstance(indices_or_sections, (numbers.Integral, onp.integer)):
        return {'sections': int(indices_or_sections)}
    return {'indices': tuple(int(i) for i in indices_or_sections)}


def hsplit(ary, indices_or_sections):
    """Split along the second axis (the first of 1-d arrays)."""
    res = apply_op('_npi_hsplit', [to_array(ary, 'hsplit', 'ary')], _split_params(indices_or_sections))
    return output_list(res)


def vsplit(ary, indices_or_sections):
    if isinstance(ary, NDArray) and ary.ndim < 2:
        raise ValueError('vsplit only works on arrays of 2 or more dimensions')
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    if isinstance(ary, NDArray) and ary.ndim < 3:
        raise ValueError('dsplit only works on arrays of 3 or more dimensions')
    return split(ary, indices_or_sections, 2)


def array_split(ary, indices_or_sections, axis=0):
    """Split into sections that may differ in size by one (the first ones larger), or at indices."""
    ary = to_array(ary, 'array_split', 'ary')
    if isinstance(indices_or_sections, (numbers.Integral, onp.integer)):
        n, length = int(indices_or_sections), ary.shape[axis]
        if n <= 0:
            raise ValueError('array_split: number of sections must be larger than 0, got %d' % n)
        size, extra = divmod(length, n)
        indices_or_sections = list(onp.cumsum([size + 1] * extra + [size] * (n - extra - 1)))
    return split(ary, [int(i) for i in indices_or_sections], axis)


def append(arr, values, axis=None):  # noqa: A001 (NumPy's name)
    """``values`` joined after ``arr`` along ``axis`` (both flattened when axis is None)."""
    arr, values = to_array(arr, 'append', 'arr'), to_array(values, 'append', 'values')
    if axis is None:
        arr, values, axis = ravel(arr), ravel(values), 0
    return concatenate([arr, values], axis=axis)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced by numbers; with copy=False ``x`` itself is overwritten."""
    if is_scalar(x):
        return onp.nan_to_num(x, copy=copy, nan=nan, posinf=posinf, neginf=neginf)
    res = apply_op('_npi_nan_to_num', [to_array(x, 'nan_to_num', 'x')],
                   {'copy': True, 'nan': float(nan), 'posinf': None if posinf is None else float(posinf),
                    'neginf': None if neginf is None else float(neginf)})
    if not copy and isinstance(x, NDArray):
        x[...] = res
        return x
    return res


def polyval(p, x):
    """The polynomial with coefficients ``p`` (highest power first) evaluated at ``x``."""
    if is_scalar(x):
        x = array(x, dtype=p.dtype if isinstance(p, NDArray) else None)
    return apply_op('_npi_polyval', [to_array(p, 'polyval', 'p'), to_array(x, 'polyval', 'x')])


def broadcast_arrays(*args):
    """The arrays broadcast to their common shape."""
    arrays = [to_array(a, 'broadcast_arrays', 'args') for a in args]
    shape = onp.broadcast_shapes(*(a.shape for a in arrays))
    return [broadcast_to(a, shape) for a in arrays]


def average(a, axis=None, weights=None, returned=False, out=None):
    """The (weighted) mean over ``axis``; with returned=True also the sum of the weights."""
    a = to_array(a, 'average', 'a')
    if weights is None:
        avg = mean(a, axis=axis, out=out)
        # the count of averaged elements, in avg's shape: a sum of ones works on traced Symbols too
        return (avg, _sum(ones_like(a), axis=axis)) if returned else avg
    weights = to_array(weights, 'average', 'weights')
    if weights.shape != a.shape:
        if axis is None or weights.ndim != 1 or weights.shape[0] != a.shape[axis]:
            raise MXNetError('average: weights of shape %s do not fit an array of shape %s along axis %s'
                             % (weights.shape, a.shape, axis))
        weights = reshape(weights, tuple(-1 if i == axis % a.ndim else 1 for i in range(a.ndim)))
    wsum = _sum(broadcast_to(weights, a.shape), axis=axis)
    avg = _sum(multiply(a, weights), axis=axis) / wsum
    if out is not None:
        out[...] = avg
        avg = out
    return (avg, wsum) if returned else avg


def _memory_of(a):
    """(base array, flat begin, flat end) of an array's memory: views know their base."""
    view = getattr(a, '_view', None)
    if view is not None:
        base, begin, end = view
        return id(base), begin, end
    return id(a), 0, a.size


def shares_memory(a, b, max_work=None):
    """Whether ``a`` and ``b`` overlap in memory (basic-slice views share their array's)."""
    base_a, begin_a, end_a = _memory_of(a)
    base_b, begin_b, end_b = _memory_of(b)
    return base_a == base_b and begin_a < end_b and begin_b < end_a and a.size > 0 and b.size > 0


may_share_memory = shares_memory


def diag_indices_from(arr):
    """The indices of the main diagonal of ``arr``, one int64 array per axis (on a Symbol, the
    operator's (ndim, n) array)."""
    res = apply_op('_npi_diag_indices_from', [to_array(arr, 'diag_indices_from', 'arr')])
    return tuple(res) if isinstance(res, NDArray) else res


def _percentile(public, a, q, axis, out, overwrite_input, interpolation, keepdims):
    if overwrite_input is not None:
        raise NotImplementedError('%s: overwrite_input is not supported (as in MXNet)' % public)
    params = {'axis': axis, 'interpolation': interpolation, 'keepdims': bool(keepdims), 'q_scalar': None}
    inputs = [to_array(a, public, 'a')]
    if is_scalar(q):
        params['q_scalar'] = float(q)
    else:
        inputs.append(to_array(q, public, 'q'))
    return apply_op('_npi_percentile', inputs, params, out=out)


def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation='linear', keepdims=False):
    """The q-th percentiles (q in [0, 100], a number or an array) of ``a`` over ``axis``."""
    return _percentile('percentile', a, q, axis, out, overwrite_input, interpolation, keepdims)


def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation='linear', keepdims=False):
    """The q-th quantiles (q in [0, 1], a number or an array) of ``a`` over ``axis``."""
    q = q * 100 if is_scalar(q) else multiply(to_array(q, 'quantile', 'q'), 100)
    return _percentile('quantile', a, q, axis, out, overwrite_input, interpolation, keepdims)


def histogram(a, bins=10, range=None, normed=None, weights=None, density=None):  # noqa: A002 (NumPy's names)
    """(counts, bin edges) of ``a``: ``bins`` equal bins over ``range`` (the data's span by
    default), or an array of increasing edges."""
    for name, value in (('normed', normed), ('weights', weights), ('density', density)):
        if value is not None:
            raise NotImplementedError('histogram: %s is not supported (as in MXNet)' % name)
    a = to_array(a, 'histogram', 'a')
    if isinstance(bins, (numbers.Integral, onp.integer)):
        return tuple(apply_op('_npi_histogram', [a], {'bin_cnt': int(bins), 'range': range}))
    return tuple(apply_op('_npi_histogram', [a, to_array(bins, 'histogram', 'bins')], {'bin_cnt': None, 'range': range}))


def delete(arr, obj, axis=None):
    """``arr`` without the entries at ``obj`` (an int, a slice or an integer array; an array's
    out-of-range values are ignored, as in MXNet) along ``axis`` (of the flattened array when
    None)."""
    params = {'axis': None if axis is None else int(axis)}
    inputs = [to_array(arr, 'delete', 'arr')]
    if isinstance(obj, slice):
        params.update(start=obj.start, stop=obj.stop, step=1 if obj.step is None else obj.step)
    elif isinstance(obj, (numbers.Integral, onp.integer)):
        params['int_ind'] = int(obj)
    elif isinstance(obj, NDArray) or getattr(obj, 'shape', None) is not None:
        inputs.append(to_array(obj, 'delete', 'obj'))
    else:
        raise TypeError("delete: 'obj' must be an int, a slice or an array, got %s" % type(obj).__name__)
    return apply_op('_npi_delete', inputs, params)


def insert(arr, obj, values, axis=None):
    """``arr`` with ``values`` inserted before ``obj`` (an int, a slice or an integer array) along
    ``axis`` (of the flattened array when None), as NumPy's insert."""
    params = {'axis': None if axis is None else int(axis)}
    arr = to_array(arr, 'insert', 'arr')
    on_arrays = isinstance(arr, NDArray)
    if on_arrays and not isinstance(values, NDArray):  # numbers or lists, in arr's dtype
        values = array(values, dtype=arr.dtype, ctx=arr.context)
    elif on_arrays and values.dtype != arr.dtype:  # cast first: one insertion program per dtype
        values = values.astype(arr.dtype)
    inputs = [arr, to_array(values, 'insert', 'values')]
    if isinstance(obj, slice):
        params.update(start=obj.start, stop=obj.stop, step=1 if obj.step is None else obj.step)
    elif isinstance(obj, (numbers.Integral, onp.integer)):
        params['int_ind'] = int(obj)
    else:
        if on_arrays and not isinstance(obj, NDArray):
            obj = array(onp.asarray(obj, dtype=onp.int64), ctx=arr.context)
        inputs.append(to_array(obj, 'insert', 'obj'))
    return apply_op('_npi_insert', inputs, params)


def bincount(x, weights=None, minlength=0):
    """The count of each value of the nonnegative integer array ``x`` (the sum of its
    ``weights``): max(x) + 1 or ``minlength`` entries, in the weights' dtype (x's without
    weights, as MXNet's)."""
    if minlength < 0:
        raise ValueError('bincount: minlength must be non-negative, got %d' % minlength)
    inputs = [to_array(x, 'bincount', 'x')]
    if weights is not None:
        inputs.append(to_array(weights, 'bincount', 'weights'))
    return apply_op('_npi_bincount', inputs, {'minlength': int(minlength), 'has_weights': weights is not None})


def set_printoptions(precision=None, threshold=None, **kwarg):
    """NumPy's print options ``precision`` and ``threshold`` (arrays print through NumPy's
    formatting, as in MXNet); MXNet supports no other option."""
    if kwarg:
        raise NotImplementedError('mxnet.numpy.set_printoptions only supports parameters precision and threshold '
                                  'for now.')
    onp.set_printoptions(precision=precision, threshold=threshold)

