"""More operators of the NumPy front end: triangles and diagonals, rolls and rotations,
differences, stacking and splitting helpers, ``nan_to_num``, ``polyval``, ``logspace``,
``indices`` and ``unravel_index``.

MXNet's own names (``_np_*`` / ``_npi_*``) and parameters; ``mx.np``'s functions with NumPy's
signatures are thin wrappers in :mod:`gluonjax.numpy._functions`. Shapes are read inside the
kernels, so every operator also works on Symbols whose shapes are not known yet.
"""
import jax.numpy as jnp
import numpy as np

from ..base import MXNetError, shape_str
from ._registry import Np, P, register


# ---- triangles and diagonals -------------------------------------------------------------

@register('_npi_tril', inputs=('data',), params=[P('k', 'int', 0)], np=(Np('tril(m, k=0)'),))
def np_tril(data, *, k):
    """The lower triangle of the last two axes (zeros above the k-th diagonal); a 1-d array is
    first repeated into a square, as numpy.tril does."""
    if data.ndim == 1:
        data = jnp.broadcast_to(data, data.shape * 2)
    return jnp.tril(data, k)


@register('_npi_triu', inputs=('data',), params=[P('k', 'int', 0)], np=(Np('triu(m, k=0)'),))
def np_triu(data, *, k):
    """The upper triangle of the last two axes (a 1-d array first repeated into a square)."""
    if data.ndim == 1:
        data = jnp.broadcast_to(data, data.shape * 2)
    return jnp.triu(data, k)


def _check_axes(name, a, *axes):
    for ax in axes:
        if not -a.ndim <= ax < a.ndim:
            raise MXNetError('%s: axis %d is out of bounds for an array of shape %s' % (name, ax, shape_str(a.shape)))
    if len({ax % a.ndim for ax in axes}) < len(axes):
        raise MXNetError('%s: the axes must differ, got %s' % (name, axes))


@register('_np_diagonal', inputs=('data',), np=(Np('diagonal(a, offset=0, axis1=0, axis2=1)'),),
          params=[P('offset', 'int', 0), P('axis1', 'int', 0), P('axis2', 'int', 1)])
def np_diagonal(data, *, offset, axis1, axis2):
    """The ``offset`` diagonal of the (axis1, axis2) planes, as a new last axis."""
    _check_axes('_np_diagonal', data, axis1, axis2)
    return jnp.diagonal(data, offset, axis1, axis2)


@register('_np_trace', inputs=('data',), np=(Np('trace(a, offset=0, axis1=0, axis2=1, out=None)'),),
          params=[P('offset', 'int', 0), P('axis1', 'int', 0), P('axis2', 'int', 1)])
def np_trace(data, *, offset, axis1, axis2):
    """Sums along the ``offset`` diagonal of the (axis1, axis2) planes."""
    _check_axes('_np_trace', data, axis1, axis2)
    return jnp.trace(data, offset, axis1, axis2).astype(data.dtype)


@register('_np_diag', inputs=('data',), params=[P('k', 'int', 0)], np=(Np('diag(v, k=0)'),))
def np_diag(data, *, k):
    """A vector's k-th diagonal matrix, or a matrix's k-th diagonal."""
    if data.ndim not in (1, 2):
        raise MXNetError('_np_diag: the input must be 1-d or 2-d, got shape %s' % shape_str(data.shape))
    return jnp.diag(data, k)


@register('_np_diagflat', inputs=('data',), params=[P('k', 'int', 0)], np=(Np('diagflat(v, k=0)'),))
def np_diagflat(data, *, k):
    """The flattened input on the k-th diagonal of a square matrix."""
    return jnp.diagflat(data, k)


# ---- moving elements ----------------------------------------------------------------------

@register('_np_roll', inputs=('data',), np=(Np('roll(a, shift, axis=None)'),),
          params=[P('shift', 'shape', None, optional=True), P('axis', 'shape', None, optional=True)])
def np_roll(data, *, shift, axis):
    """Elements shifted along the axes (of the flattened array when axis is None), wrapping around."""
    if axis is None:
        if shift is None or len(shift) != 1:
            raise MXNetError('_np_roll: one shift is needed when axis is None, got %s' % (shift,))
        return jnp.roll(data, shift[0])
    _check_axes('_np_roll', data, *axis)
    if len(shift) not in (1, len(axis)):
        raise MXNetError('_np_roll: shift %s and axis %s do not match' % (shift, axis))
    return jnp.roll(data, shift * len(axis) if len(shift) == 1 else shift, axis)


@register('_npi_rot90', inputs=('data',), params=[P('k', 'int', 1), P('axes', 'shape', (0, 1))],
          np=(Np('rot90(m, k=1, axes=(0, 1))'),))
def np_rot90(data, *, k, axes):
    """Rotation by 90 degrees, k times, in the plane of ``axes`` (from the first towards the second)."""
    if len(axes) != 2:
        raise MXNetError('_npi_rot90: axes must name 2 axes, got %s' % (axes,))
    _check_axes('_npi_rot90', data, *axes)
    return jnp.rot90(data, k, axes)


# ---- differences ----------------------------------------------------------------------------

@register('_npi_diff', inputs=('a',), params=[P('n', 'int', 1), P('axis', 'int', -1)],
          np=(Np('diff(a, n=1, axis=-1, prepend=None, append=None)', unsupported=('prepend', 'append')),))
def np_diff(a, *, n, axis):
    """The n-th discrete difference along ``axis``."""
    if n < 0:
        raise MXNetError('_npi_diff: order n must be non-negative, got %d' % n)
    _check_axes('_npi_diff', a, axis)
    return jnp.diff(a, n, axis)


@register('_npi_ediff1d', inputs=('ary', 'to_end', 'to_begin'),
          params=[P('to_begin_arr_given', 'bool', False), P('to_end_arr_given', 'bool', False),
                  P('to_begin_scalar', 'float', None, optional=True),
                  P('to_end_scalar', 'float', None, optional=True)])
def np_ediff1d(ary, to_end, to_begin, *, to_begin_arr_given, to_end_arr_given, to_begin_scalar,
               to_end_scalar):
    """Differences of the flattened array, with values put before and after."""
    flat = ary.reshape(-1)
    parts = [flat[1:] - flat[:-1]]
    if to_begin_arr_given:
        parts.insert(0, to_begin.reshape(-1).astype(ary.dtype))
    elif to_begin_scalar is not None:
        parts.insert(0, jnp.full((1,), to_begin_scalar, ary.dtype))
    if to_end_arr_given:
        parts.append(to_end.reshape(-1).astype(ary.dtype))
    elif to_end_scalar is not None:
        parts.append(jnp.full((1,), to_end_scalar, ary.dtype))
    return jnp.concatenate(parts)


# ---- stacking and splitting ---------------------------------------------------------------

def _check_stack(name, arrays, axis):
    shapes = [a.shape[:axis] + a.shape[axis + 1:] for a in arrays]
    if len(set(shapes)) > 1:
        raise MXNetError('%s: all the input array dimensions except for the concatenation axis must '
                         'match exactly, got %s' % (name, ', '.join(shape_str(a.shape) for a in arrays)))


@register('_npi_column_stack', variadic=True, params=[P('num_args', 'int', 1)], np=(Np('column_stack(tup)'),))
def np_column_stack(*arrays, num_args):
    """1-d arrays as columns, 2-d arrays as they are, joined along the second axis."""
    arrays = [a.reshape(-1, 1) if a.ndim < 2 else a for a in arrays]
    _check_stack('_npi_column_stack', arrays, 1)
    return jnp.concatenate(arrays, axis=1)


@register('_npi_dstack', variadic=True, params=[P('num_args', 'int', 1), P('dim', 'int', 2)], np=(Np('dstack(arrays)'),))
def np_dstack(*arrays, num_args, dim):
    """Arrays made at least 3-d, joined along the third axis."""
    arrays = [jnp.atleast_3d(a) for a in arrays]
    _check_stack('_npi_dstack', arrays, 2)
    return jnp.concatenate(arrays, axis=2)


def _split_count(attrs):
    return attrs['sections'] if attrs['sections'] > 0 else len(attrs['indices']) + 1


@register('_npi_hsplit', inputs=('data',), num_outputs=_split_count,
          params=[P('indices', 'shape', ()), P('axis', 'int', 1), P('squeeze_axis', 'bool', False),
                  P('sections', 'int', 0)])
def np_hsplit(data, *, indices, axis, squeeze_axis, sections):
    """Split along the second axis (the first of a 1-d array)."""
    if data.ndim == 0:
        raise MXNetError('_npi_hsplit: hsplit only works on arrays of 1 or more dimensions')
    axis = 1 if data.ndim > 1 else 0
    if sections > 0:
        if data.shape[axis] % sections:
            raise MXNetError('_npi_hsplit: array split does not result in an equal division '
                             '(axis %d of shape %s into %d)' % (axis, shape_str(data.shape), sections))
        return tuple(jnp.split(data, sections, axis=axis))
    return tuple(jnp.split(data, list(indices), axis=axis))


def _register_atleast(n):
    name = '_np_atleast_%dd' % n
    widen = {1: jnp.atleast_1d, 2: jnp.atleast_2d, 3: jnp.atleast_3d}[n]

    def op(*arrays, num_args):
        out = [widen(a) for a in arrays]
        return tuple(out) if len(out) > 1 else out[0]
    op.__name__ = name
    op.__doc__ = 'Each input viewed with at least %d dimensions.' % n
    register(name, variadic=True, params=[P('num_args', 'int', 1)], np=(Np('atleast_%dd(*arys)' % n),),
             num_outputs=lambda attrs: attrs['num_args'])(op)


for _n in (1, 2, 3):
    _register_atleast(_n)


# ---- values -------------------------------------------------------------------------------

@register('_npi_nan_to_num', inputs=('data',),
          params=[P('copy', 'bool', True), P('nan', 'float', 0.0), P('posinf', 'float', None, optional=True),
                  P('neginf', 'float', None, optional=True)])
def np_nan_to_num(data, *, copy, nan, posinf, neginf):
    """NaN replaced by ``nan``, infinities by ``posinf``/``neginf`` (the dtype's extremes by default)."""
    if not jnp.issubdtype(data.dtype, jnp.floating):
        return data
    return jnp.nan_to_num(data, nan=nan, posinf=posinf, neginf=neginf)


@register('_npi_polyval', inputs=('p', 'x'))
def np_polyval(p, x):
    """The polynomial with coefficients ``p`` (highest power first) at ``x`` (Horner's scheme)."""
    if p.ndim != 1:
        raise MXNetError('_npi_polyval: p must be 1-d, got shape %s' % shape_str(p.shape))
    dtype = jnp.result_type(p.dtype, x.dtype)
    out = jnp.zeros(x.shape, dtype)
    for i in range(p.shape[0]):
        out = out * x + p[i]
    return out


# ---- creation -----------------------------------------------------------------------------

_DT = [P('ctx', 'str', ''), P('dtype', 'dtype', 'float32')]


@register('_npi_logspace', inputs=(), creation=True,
          np=(Np('logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None)',
                 unsupported=('axis',)),),
          params=[P('start', 'float'), P('stop', 'float'), P('num', 'int'), P('endpoint', 'bool', True),
                  P('base', 'float', 10.0)] + _DT)
def np_logspace(*, start, stop, num, endpoint, base, ctx, dtype):
    """``base ** linspace(start, stop, num)``, computed in float64 and cast, as numpy does."""
    if num < 0:
        raise MXNetError('_npi_logspace: number of samples, %d, must be non-negative' % num)
    return jnp.asarray(np.logspace(start, stop, num, endpoint, base).astype(dtype))


@register('_npi_indices', inputs=(), creation=True, np=(Np("indices(dimensions, dtype='int32', ctx=None)"),),
          params=[P('dimensions', 'shape')] + [P('ctx', 'str', ''), P('dtype', 'dtype', 'int32')])
def np_indices(*, dimensions, ctx, dtype):
    """The index grid of a shape: one (len(dimensions), *dimensions) array of coordinates."""
    return jnp.asarray(np.indices(dimensions, dtype=dtype))


@register('_npi_unravel_index', inputs=('data',), params=[P('shape', 'shape')],
          np=(Np("unravel_index(indices, shape, order='C')", unsupported=('order',)),))
def np_unravel_index(data, *, shape):
    """Flat indices as coordinates in ``shape``: one row per axis, in the input's dtype."""
    flat = data.astype(jnp.int64)
    rows = []
    for dim in reversed(shape):
        rows.append(flat % dim)
        flat = flat // dim
    out = jnp.stack(rows[::-1]) if rows else jnp.zeros((0,) + data.shape, jnp.int64)
    return out.astype(data.dtype)


# ---- npx.reshape --------------------------------------------------------------------------

def npx_reshape_shape(shape, newshape, reverse=False):
    """The output shape of ``npx.reshape``: besides sizes (each standing for one input axis),
    -1 infers one size, -2 copies an input axis, -3 drops an input axis of size 1, -4 copies all
    the remaining axes, -5 merges two input axes, -6 splits one into the next two values (one of
    them may be -1); with ``reverse`` the codes are matched from the right."""
    shape, codes = (tuple(shape)[::-1], tuple(newshape)[::-1]) if reverse else (tuple(shape), tuple(newshape))
    out, infer, i, j = [], None, 0, 0

    def bad(why):
        return MXNetError('_npx_reshape: cannot reshape %s with newshape %s%s: %s'
                          % (shape_str(shape[::-1] if reverse else shape), newshape,
                             ' (reverse)' if reverse else '', why))
    while j < len(codes):
        code = codes[j]
        if code >= 0 or code == -1:
            if code == -1:
                if infer is not None:
                    raise bad('only one -1 is allowed')
                infer = len(out)
            out.append(code)
            i += 1
        elif code == -2 or code == -3:
            if i >= len(shape):
                raise bad('no input axis left for %d' % code)
            if code == -2:
                out.append(shape[i])
            elif shape[i] != 1:
                raise bad('-3 applies to axes of size 1 only, got %d' % shape[i])
            i += 1
        elif code == -4:
            out.extend(shape[i:])
            i = len(shape)
        elif code == -5:
            if i + 1 >= len(shape):
                raise bad('-5 needs two input axes')
            out.append(shape[i] * shape[i + 1])
            i += 2
        elif code == -6:
            if j + 2 >= len(codes) or i >= len(shape):
                raise bad('-6 needs an input axis and two sizes after it')
            size, (a, b) = shape[i], codes[j + 1:j + 3]
            a, b = (size // b if a == -1 else a), (size // a if b == -1 else b)
            if a * b != size:
                raise bad('%d does not split into %d x %d' % (size, a, b))
            out.extend((a, b))
            i, j = i + 1, j + 2
        else:
            raise bad('unknown code %d' % code)
        j += 1
    total = int(np.prod(shape))
    if infer is not None:
        known = int(np.prod([d for k, d in enumerate(out) if k != infer]))
        if known == 0 or total % known:
            raise bad('the size %d cannot be inferred' % total)
        out[infer] = total // known
    if int(np.prod(out)) != total:
        raise bad('the sizes do not match (%d elements into %s)' % (total, tuple(out)))
    return tuple(out[::-1]) if reverse else tuple(out)


@register('_npx_reshape', inputs=('a',), npx=('reshape',),
          params=[P('newshape', 'shape'), P('reverse', 'bool', False), P('order', 'str', 'C')])
def npx_reshape(a, *, newshape, reverse, order):
    """``a`` in a new shape given with MXNet's special codes (see :func:`npx_reshape_shape`)."""
    if order != 'C':
        raise MXNetError("_npx_reshape: only order='C' is supported, got %r" % order)
    return a.reshape(npx_reshape_shape(a.shape, newshape, reverse))


# ---- NumPy's broadcasting and tiling rules --------------------------------------------------

@register('_npi_broadcast_to', inputs=('array',), params=[P('shape', 'shape')], np=(Np('broadcast_to(array, shape)'),))
def np_broadcast_to(array, *, shape):
    """``array`` broadcast to ``shape`` by NumPy's rules (missing leading axes are added)."""
    if len(shape) < array.ndim or any(d != s and d != 1 for d, s in zip(array.shape[::-1], shape[::-1])):
        raise MXNetError('_npi_broadcast_to: operands could not be broadcast together with remapped shapes '
                         '%s and requested shape %s' % (shape_str(array.shape), shape_str(shape)))
    return jnp.broadcast_to(array, shape)


@register('_npi_tile', inputs=('A',), params=[P('reps', 'shape')], np=(Np('tile(A, reps)'),))
def np_tile(A, *, reps):
    """The array repeated ``reps`` times per axis (numpy.tile: a repetition may be 0)."""
    if any(r < 0 for r in reps):
        raise MXNetError('_npi_tile: reps %s cannot be negative (input of shape %s)' % (reps, shape_str(A.shape)))
    return jnp.tile(A, reps)
