"""Reductions over axes, with MXNet's axis / keepdims / exclude parameters."""
import jax.numpy as jnp
import numpy as np

from ..base import MXNetError, shape_str
from . import _onnx
from ._host import Fallback, Rows, int_exact
from ._registry import P, along_axes, register
from .elemwise import exact_divide


def reduce_axes(name, shape, axis, exclude):
    """The axes to reduce, normalised, validated against ``shape``."""
    ndim = len(shape)
    if axis is None or axis == ():
        axes = tuple(range(ndim))
        return () if exclude and axis is not None else axes
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    norm = []
    for a in axes:
        if not -ndim <= a < max(ndim, 1):
            raise MXNetError('%s: axis %d is out of range for an array of shape %s' % (name, a, shape_str(shape)))
        norm.append(a % max(ndim, 1))
    if exclude:
        return tuple(i for i in range(ndim) if i not in norm)
    return tuple(sorted(set(norm)))


def _finish(out, keepdims):
    # MXNet's nd reductions over every axis return shape (1,), never a 0-d array.
    return out.reshape((1,)) if out.ndim == 0 and not keepdims else out


_REDUCE_PARAMS = [P('axis', 'axis', None, optional=True), P('keepdims', 'bool', False), P('exclude', 'bool', False)]


def _onnx_reduce(op_type):
    """ReduceX over MXNet's axes; a full reduction without keepdims is (1,), as MXNet's."""
    def convert(g, node):
        a, shape = node.attrs, node.in_shapes[0]
        axes = list(reduce_axes(op_type, shape, a['axis'], a['exclude']))
        if not axes:
            return node.inputs[0]
        out = _onnx.reduce(g, op_type, node.inputs[0], axes, a['keepdims'])
        if not a['keepdims'] and len(axes) == len(shape):
            out = _onnx.reshape_to(g, out, (1,))
        return out
    convert.__name__ = 'onnx_' + op_type
    return convert


def _reduction(name, fn, int_result):
    def op(data, *, axis, keepdims, exclude):
        axes = reduce_axes(name, data.shape, axis, exclude)
        out = fn(data, axis=axes, keepdims=keepdims)
        if not int_result and out.dtype != data.dtype and jnp.issubdtype(data.dtype, jnp.floating):
            out = out.astype(data.dtype)
        return _finish(out, keepdims)
    op.__name__ = name
    op.__doc__ = 'The %s of elements over the given axes.' % name
    return op


def _out_shape(shape, axes, keepdims):
    """The shape of a reduction's result (MXNet's (1,) for a full reduction without keepdims)."""
    if keepdims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in axes) or (1,)


def _as_rows(name, neutral, row_op=None, per_count=False, row_attrs=(), host=None):
    """``OpDef.rows`` of a reduction (see ops/_host.py: ``Rows``): padding with ``neutral`` leaves
    each row's result unchanged; ``row_op`` (default: the operator itself) reduces the padded
    rows; ``row_attrs``: the call's attributes it keeps; ``host``: the rows' NumPy form."""
    def rows(attrs, shape):
        axes = reduce_axes(name, shape, attrs['axis'], attrs.get('exclude', False))
        kept = {a: attrs[a] for a in row_attrs}
        return Rows(axes, _out_shape(shape, axes, attrs['keepdims']), neutral, row_op or name,
                    dict(kept, keepdims=False), per_count, host)
    return rows


def sum_rows(rows, attrs):
    """The rows' sums (``Rows.host`` of the sums and means)."""
    return None if attrs.get('initial') is not None else rows.sum(axis=1)


def _nansum_rows(rows, attrs):
    return np.nansum(rows, axis=1)


def _norm_rows(rows, attrs):
    if attrs['ord'] not in (1, 2):
        return None  # the compiled row program raises the operator's error
    return np.abs(rows).sum(axis=1) if attrs['ord'] == 1 else np.sqrt((rows * rows).sum(axis=1))


def _kept_axes(name):
    """The axes a reduction keeps (``OpDef.along``: each result depends on its own position there)."""
    def kept(attrs, ndim):
        reduced = reduce_axes(name, (2,) * ndim, attrs['axis'], attrs.get('exclude', False))
        return [a for a in range(ndim) if a not in reduced]
    return kept


def _reducer(name, fn, aliases=(), int_result=False, onnx=None, host=None, rows=None):
    """A reduction with MXNet's parameters; ``host``: ``fn``'s exact NumPy form, ``rows`` its
    padded-rows form (see ops/_host.py)."""
    host = host and int_exact(_reduction(name, host, int_result))
    register(name, params=_REDUCE_PARAMS, aliases=aliases, methods=(name,), onnx=onnx and _onnx_reduce(onnx),
             host=host, rows=rows, along=along_axes(_kept_axes(name)))(_reduction(name, fn, int_result))


def nan_propagating(extreme):
    """``extreme`` (jnp.max or jnp.min) returning NaN where a reduced slice holds one, as MXNet and
    NumPy do: XLA's CPU reduction drops NaNs in larger arrays (jax 0.10: jnp.max of a (6, 3, 6, 8, 8)
    array with one NaN gives the largest number)."""
    def reduce(x, axis=None, keepdims=False):
        out = extreme(x, axis=axis, keepdims=keepdims)
        if not jnp.issubdtype(x.dtype, jnp.inexact):
            return out
        return jnp.where(jnp.isnan(x).any(axis=axis, keepdims=keepdims), jnp.asarray(jnp.nan, out.dtype), out)
    reduce.__name__ = extreme.__name__
    return reduce


amax, amin = nan_propagating(jnp.max), nan_propagating(jnp.min)


def _host_extreme(np_fn):
    """max or min on the host, where its answer is the compiled one's (NaN where a slice has one):
    not for floats with zeros (which sign XLA keeps) or subnormals (which XLA's CPU code reads as zero)."""
    def host(x, axis, keepdims):
        if x.dtype.kind == 'f' and (np.abs(x) < np.finfo(x.dtype).tiny).any():
            raise Fallback
        return np_fn(x, axis=axis, keepdims=keepdims)
    return host


def _host_int_sum(x, axis, keepdims):
    """Integer sums wrap the same in any order; float sums round by XLA's order, which NumPy's is not."""
    if x.dtype.kind not in 'iu':
        raise Fallback
    return _sum(x, axis, keepdims, xp=np)


def _sum(x, axis, keepdims, xp=jnp):
    # Integer sums keep the input's dtype, as in MXNet (numpy would widen to int64).
    return xp.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype if x.dtype != np.bool_ else np.int64)


def _mean(x, axis, keepdims):
    """The sum divided by the count, correctly rounded as MXNet's is (see ``exact_divide``)."""
    values = x.astype(jnp.float32) if jnp.issubdtype(x.dtype, jnp.integer) else x
    total = jnp.sum(values, axis=axis, keepdims=keepdims)
    count = values.size // max(total.size, 1) if values.size else 0
    return exact_divide(total, jnp.asarray(count, total.dtype)).astype(x.dtype)


def _prod(x, axis, keepdims):
    return jnp.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


_reducer('sum', _sum, aliases=('sum_axis',), onnx='ReduceSum', host=_host_int_sum,
         rows=_as_rows('sum', 0, host=sum_rows))
_reducer('mean', _mean, onnx='ReduceMean', rows=_as_rows('mean', 0, 'sum', per_count=True, host=sum_rows))
_reducer('prod', _prod, onnx='ReduceProd', rows=_as_rows('prod', 1))
_reducer('nansum', lambda x, axis, keepdims: jnp.nansum(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
         rows=_as_rows('nansum', 0, host=_nansum_rows))
_reducer('nanprod', lambda x, axis, keepdims: jnp.nanprod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
         rows=_as_rows('nanprod', 1))
_reducer('max', amax, aliases=('max_axis',), onnx='ReduceMax', host=_host_extreme(np.max),
         rows=_as_rows('max', -np.inf))
_reducer('min', amin, aliases=('min_axis',), onnx='ReduceMin', host=_host_extreme(np.min),
         rows=_as_rows('min', np.inf))


@register('norm', methods=('norm',), params=[P('ord', 'int', 2), P('axis', 'axis', None, optional=True),
                          P('out_dtype', 'dtype', None, optional=True), P('keepdims', 'bool', False)],
          rows=_as_rows('norm', 0, row_attrs=('ord', 'out_dtype'), host=_norm_rows))
def norm(data, *, ord, axis, out_dtype, keepdims):
    """The L1 or L2 norm over the given axes (all elements by default)."""
    if ord not in (1, 2):
        raise MXNetError('norm: ord must be 1 or 2, got %d' % ord)
    axes = reduce_axes('norm', data.shape, axis, False)
    a = jnp.abs(data)
    out = jnp.sum(a, axis=axes, keepdims=keepdims) if ord == 1 else jnp.sqrt(
        jnp.sum(a * a, axis=axes, keepdims=keepdims))
    return _finish(out.astype(out_dtype or data.dtype), keepdims)


def arg_indices(name, fn, data, axis, keepdims):
    """Integer indices of ``fn`` (argmax or argmin) along ``axis``, or over the flattened array."""
    if axis is None:
        out = fn(data.reshape(-1), axis=0)
        return out.reshape((1,) * data.ndim) if keepdims else out
    if not -data.ndim <= axis < max(data.ndim, 1):
        raise MXNetError('%s: axis %d is out of range for an array of shape %s'
                         % (name, axis, shape_str(data.shape)))
    return fn(data, axis=axis, keepdims=keepdims)


def _onnx_arg(op_type):
    """ArgMax / ArgMin (the first extreme, as jnp's), the indices in the input dtype as MXNet's;
    without an axis over the flattened array."""
    def convert(g, node):
        a, x, shape = node.attrs, node.inputs[0], node.in_shapes[0]
        if a['axis'] is None:
            out = g.add(op_type, [_onnx.reshape_to(g, x, (-1,))], axis=0, keepdims=1)
            out = _onnx.reshape_to(g, out, (1,) * len(shape) if a['keepdims'] else (1,))
        else:
            out = g.add(op_type, [x], axis=a['axis'] % len(shape), keepdims=int(a['keepdims']))
            if node.out_shapes[0] == (1,) and len(shape) == 1:  # MXNet's (1,), never 0-d
                out = _onnx.reshape_to(g, out, (1,))
        return _onnx.cast(g, out, 'int64', node.out_dtypes[0])
    return convert


def _arg_op(name, fn):
    def op(data, *, axis, keepdims):
        out = arg_indices(name, fn, data, axis, keepdims)
        # MXNet returns the indices in the input's dtype (float32 for float32 data, int32 for int32).
        return _finish(out.astype(data.dtype), keepdims)
    op.__name__ = name
    op.__doc__ = 'Indices of the %s values along an axis (in the input dtype, as in MXNet).' % name[3:]
    return op


def _host_arg(np_fn):
    """argmax or argmin on the host: NumPy's picks the same index as jnp's (the first extreme, the
    first NaN), except among subnormals, which XLA's CPU code compares as zeros."""
    def host(x, axis, keepdims=False):
        if x.dtype.kind == 'f' and ((x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny)).any():
            raise Fallback
        return np_fn(x, axis=axis, keepdims=keepdims)
    return host


def _arg(name, fn, np_fn, onnx):
    register(name, params=[P('axis', 'int', None, optional=True), P('keepdims', 'bool', False)], methods=(name,),
             onnx=_onnx_arg(onnx), host=int_exact(_arg_op(name, _host_arg(np_fn))))(_arg_op(name, fn))


_arg('argmax', jnp.argmax, np.argmax, 'ArgMax')
_arg('argmin', jnp.argmin, np.argmin, 'ArgMin')


@register('argmax_channel', methods=('argmax_channel',), gradient=False)
def argmax_channel(data):
    return jnp.argmax(data, axis=-1).astype(data.dtype)


@register('moments', num_outputs=2, output_names=('mean', 'var'),
          params=[P('axes', 'axis', None, optional=True), P('keepdims', 'bool', False)])
def moments(data, *, axes, keepdims):
    """The mean and the (biased) variance of ``data`` over ``axes`` (all axes when None)."""
    red = reduce_axes('moments', data.shape, axes, False)
    mean = jnp.mean(data, axis=red, keepdims=True)
    var = jnp.mean(jnp.square(data - mean), axis=red, keepdims=keepdims)
    mean = mean if keepdims else jnp.squeeze(mean, red)
    return _finish(mean.astype(data.dtype), keepdims), _finish(var.astype(data.dtype), keepdims)


# ---- whole-array tests --------------------------------------------------------------------------

@register('_contrib_allclose', inputs=('a', 'b'), out_dtypes=lambda attrs, dtypes: ('uint8',),
          params=[P('rtol', 'float', 1e-5), P('atol', 'float', 1e-8), P('equal_nan', 'bool', True)])
def allclose(a, b, *, rtol, atol, equal_nan):
    """1 (uint8, 0-d) when |a - b| <= atol + rtol * |b| everywhere (NaNs equal with ``equal_nan``), else 0."""
    if a.shape != b.shape:
        raise MXNetError('allclose: a %s and b %s must have the same shape' % (shape_str(a.shape), shape_str(b.shape)))
    if a.dtype != b.dtype:
        raise MXNetError('allclose: a (%s) and b (%s) must have the same dtype' % (a.dtype, b.dtype))
    return jnp.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan).astype(jnp.uint8)


def _all_finite(arrays):
    ok = jnp.asarray(True)
    for x in arrays:
        ok &= jnp.all(jnp.isfinite(x))
    return ok.astype(jnp.float32).reshape(1)


# init_output=False tells MXNet to leave an ``out=`` buffer as it is unless something is not
# finite; a result here is always a new array, so both values give the same answer.
@register('all_finite', params=[P('init_output', 'bool', True)])
def all_finite(data, *, init_output):
    """[1.] (float32) when every element of ``data`` is finite, else [0.]."""
    return _all_finite([data])


@register('multi_all_finite', variadic=True, num_args_param='num_arrays', params=[P('num_arrays', 'int', 1), P('init_output', 'bool', True)])
def multi_all_finite(*data, num_arrays, init_output):
    """[1.] (float32) when every element of all ``num_arrays`` inputs is finite, else [0.]."""
    if num_arrays != len(data):
        raise MXNetError('multi_all_finite: num_arrays=%d but %d arrays were given' % (num_arrays, len(data)))
    return _all_finite(data)


# ---- histogram ----------------------------------------------------------------------------------

def _histogram_inputs(attrs):
    if attrs is not None and attrs.get('bin_cnt') is not None:
        return ('data',)
    return ('data', 'bins')


@register('_histogram', inputs=_histogram_inputs, num_outputs=2,
          params=[P('bin_cnt', 'int', None, optional=True), P('range', 'floats', None, optional=True)])
def histogram(data, bins=None, *, bin_cnt, range):  # noqa: A002 (MXNet's parameter name)
    """Counts (int64) of the flattened data in each bin, and the bin edges.

    The bins are ``bin_cnt`` equal parts of ``range``, or the intervals between the sorted
    edges ``bins``; each bin holds its left edge, the last one its right edge too (NumPy's
    rule), and values outside every bin are not counted."""
    if (bin_cnt is None) != (range is None):
        raise MXNetError('histogram: bin_cnt and range must both be given or neither (got bin_cnt=%r, range=%r)'
                         % (bin_cnt, range))
    if bin_cnt is not None:
        if bin_cnt < 1 or len(range) != 2 or not range[0] <= range[1]:
            raise MXNetError('histogram: needs bin_cnt >= 1 and range (low, high) with low <= high, got %r, %r'
                             % (bin_cnt, range))
        edges = jnp.linspace(range[0], range[1], bin_cnt + 1).astype(data.dtype)
    elif bins is None or bins.ndim != 1 or bins.shape[0] < 2:
        raise MXNetError('histogram: bins must be a 1-D array of at least 2 edges, got %s'
                         % (None if bins is None else shape_str(bins.shape)))
    else:
        edges = bins
    values = data.reshape(-1).astype(edges.dtype)
    n_bins = edges.shape[0] - 1
    index = jnp.searchsorted(edges, values, side='right') - 1
    index = jnp.where(values == edges[-1], n_bins - 1, index)  # the last bin is closed
    inside = (values >= edges[0]) & (values <= edges[-1])
    counts = jnp.zeros(n_bins, jnp.int64).at[jnp.where(inside, index, n_bins)].add(1, mode='drop')
    return counts, edges
