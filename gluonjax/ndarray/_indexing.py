"""NDArray indexing and assignment with MXNet's rules.

An index is split into a static *plan* (which compiled function to use) and
dynamic values (integer positions, slice starts, index arrays). Integers and
contiguous slice starts are traced, so ``x[i]`` or ``x[i:i+n]`` in a loop
compiles once per result shape, not once per ``i``. Bounds are checked here,
on the host, since jax would clamp silently.
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._caches import lru_cache
from .._transfer import put
from .._x64 import x64
from ..ops import _host
from ..base import MXNetError, shape_str
from . import _pending
from .ndarray import NDArray, PassThrough, _carry_failure, apply_fn, array, check_recorded_write, make_view
from .._tape import state as _ag_state


def _plan(x, key):
    """(plan, dynamic values) for indexing array ``x`` with ``key``."""
    if not isinstance(key, tuple):
        key = (key,)
    shape = x.shape
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_real > len(shape):
        raise IndexError('too many indices (%d) for an array of shape %s' % (n_real, shape_str(shape)))
    plan, dyn, axis = [], [], 0
    arrays = []  # (index array or None when not read back, axis, dim): checked after the loop
    for k in key:
        if k is Ellipsis:
            skip = len(shape) - n_real
            plan.extend([('all',)] * skip)
            axis += skip
            n_real = len(shape)  # only one Ellipsis is allowed
            continue
        if k is None:
            plan.append(('new',))
            continue
        dim = shape[axis]
        if isinstance(k, (numbers.Integral, np.integer)) and not isinstance(k, bool):
            i = int(k)
            if not -dim <= i < dim:
                raise IndexError('index %d is out of bounds for axis %d with size %d' % (i, axis, dim))
            plan.append(('int',))
            dyn.append(np.int64(i % dim))
        elif isinstance(k, slice):
            start, stop, step = k.indices(dim)
            if step == 1:
                plan.append(('dslice', max(stop - start, 0)))
                dyn.append(np.int64(start if stop > start else 0))
            else:
                # slice.indices gives stop=-1 for a reversed slice running to the start; as a
                # Python slice bound -1 would mean the last element
                plan.append(('slice', start, stop if stop >= 0 else None, step))
        elif isinstance(k, NDArray):
            plan.append(('array',))
            dyn.append(k._data)
            readable = not isinstance(k._data, jax.core.Tracer) and _on_cpu(k._data)
            arrays.append((k._data, np.asarray(k._data) if readable else None, axis, dim))
        elif isinstance(k, (list, tuple, np.ndarray)):  # a tuple inside the key: a sequence, as in NumPy
            a = np.asarray(k)
            if a.dtype == np.bool_:
                raise IndexError('boolean mask indexing is not supported by mx.nd; use mx.np arrays')
            plan.append(('array',))
            dyn.append(a.astype(np.int64))
            arrays.append((a, dyn[-1], axis, dim))
        else:
            raise ValueError('NDArray does not support slicing with key %r of type %s' % (k, type(k)))
        axis += 1
    _check_index_arrays(arrays)
    plan.extend([('all',)] * (len(shape) - axis))
    return tuple(plan), dyn


def _check_index_arrays(arrays):
    """MXNet's checks of the index arrays, in its order: their shapes broadcast together
    (ValueError), then every entry read back is within its axis (IndexError)."""
    shapes = [tuple(a.shape) for a, _, _, _ in arrays]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError('index arrays of shapes %s do not broadcast together'
                         % ', '.join(shape_str(s) for s in shapes)) from None
    for _, host, axis, dim in arrays:
        if host is not None:
            _check_array_bounds(host, axis, dim)


def _on_cpu(array):
    return next(iter(array.devices())).platform == 'cpu'


def _check_array_bounds(a, axis, dim):
    """MXNet's IndexError for an index array entry outside [-dim, dim): jax's gather would clamp
    it. (Read on the host: the index arrays of user code are small. An index NDArray on an
    accelerator is not read back, which would wait for it: there jax clamps.)"""
    if a.size and (a.min() <= -dim - 1 or a.max() >= dim):  # (float indices count truncated, as _int_index)
        a = a.astype(np.int64)
        bad = a[(a < -dim) | (a >= dim)]
        raise IndexError('index %d is out of bounds for axis %d with size %d' % (bad.flat[0], axis, dim))


def _int_index(a):
    """An index array as integers (MXNet's index arrays are usually float32)."""
    return a if jnp.issubdtype(a.dtype, jnp.integer) else a.astype(jnp.int64)


def _index_fn(plan):
    """A function (x, *dynamic) -> x[index] for one plan."""
    def fn(x, *dyn):
        it = iter(dyn)
        idx, axis = [], 0
        # Contiguous slices first, with lax.dynamic_slice, so traced starts keep static sizes.
        starts, sizes = [], []
        for p in plan:
            if p[0] == 'new':
                continue
            if p[0] == 'dslice':
                starts.append(next(it))
                sizes.append(p[1])
            else:
                if p[0] in ('int', 'array'):
                    next(it)
                starts.append(0)
                sizes.append(x.shape[len(starts) - 1])
        x = lax.dynamic_slice(x, [jnp.asarray(s, jnp.int64) for s in starts], sizes) if starts else x
        it = iter(dyn)
        for p in plan:
            kind = p[0]
            if kind == 'new':
                idx.append(None)
                continue
            if kind == 'int':
                idx.append(next(it))
            elif kind == 'array':
                idx.append(_int_index(next(it)))
            elif kind == 'slice':
                idx.append(slice(p[1], p[2], p[3]))
            else:
                if kind == 'dslice':
                    next(it)
                idx.append(slice(None))
            axis += 1
        return x[tuple(idx)] if idx else x
    return fn


_fn_cache = lru_cache('ndarray.index_fns', 4096)  # (kind, index plan): grows with user code


def _cached(kind, plan):
    fn = _fn_cache.get((kind, plan))
    if fn is None:
        base = _index_fn(plan)
        if kind == 'get':
            def fn(x, *dyn):
                out = base(x, *dyn)
                # MXNet never returns a 0-d array from nd indexing: a full integer index gives shape (1,)
                return (out.reshape((1,)) if out.ndim == 0 else out,)
        else:
            def fn(x, v, *dyn):
                return (_set(x, v, plan, dyn),)
        _fn_cache[(kind, plan)] = fn
    return fn


class _AssignError(ValueError, PassThrough):
    """A value that does not broadcast to the assigned region (ValueError, as in MXNet)."""


def _set(x, v, plan, dyn):
    """x with x[index] = v, v broadcast to the indexed region and cast to x's dtype."""
    if any(p[0] == 'array' for p in plan):
        return _set_advanced(x, v, plan, dyn)
    it = iter(dyn)
    idx, new_dims, dims = [], [], 0
    for p in plan:
        kind = p[0]
        if kind == 'new':  # selects nothing: the value only has a size-1 axis there
            new_dims.append(dims)
            dims += 1
            continue
        dims += kind != 'int'
        if kind == 'int':
            idx.append(next(it))
        elif kind == 'dslice':
            s = next(it)
            idx.append(s + jnp.arange(p[1]))
        elif kind == 'slice':
            idx.append(slice(p[1], p[2], p[3]))
        else:
            idx.append(slice(None))
    idx = _open_mesh(idx)
    region = jnp.zeros(x.shape, x.dtype)[idx].shape
    if not new_dims:
        return x.at[idx].set(_fit_value(v, x.dtype, region))
    shown = list(region)  # the region as x[index] reads it, new axes included
    for d in new_dims:
        shown.insert(d, 1)
    return x.at[idx].set(_fit_value(v, x.dtype, tuple(shown)).reshape(region))


def _set_advanced(x, v, plan, dyn):
    """x[index] = v for an index with arrays: the positions written are those that reading
    x[index] selects (numpy's rules for combining arrays, slices and integers)."""
    flat = _index_fn(plan)(jnp.arange(x.size).reshape(x.shape), *dyn)
    v = _fit_value(v, x.dtype, flat.shape)
    return x.reshape(-1).at[flat.reshape(-1)].set(v.reshape(-1)).reshape(x.shape)


def _fit_value(v, dtype, region):
    """The assigned value cast to ``dtype`` and broadcast to the region's shape."""
    v = jnp.asarray(v, dtype)
    if v.shape != region:
        shape = v.shape
        while len(shape) > len(region) and shape[0] == 1:  # leading axes of size 1 may be dropped
            shape = shape[1:]
        try:
            v = jnp.broadcast_to(v.reshape(shape), region)
        except ValueError:
            # ValueError, as MXNet's (numpy's) broadcasting of the assigned value raises
            raise _AssignError('__setitem__: cannot assign a value of shape %s to a region of shape %s'
                             % (shape_str(v.shape), shape_str(region))) from None
    return v


def _open_mesh(idx):
    """Turn contiguous-slice index vectors into an open mesh so they select a block, not a diagonal."""
    vec = [i for i, k in enumerate(idx) if hasattr(k, 'ndim') and k.ndim == 1 and not isinstance(k, slice)]
    if len(vec) <= 1:
        return tuple(idx)
    out = list(idx)
    n = len(vec)
    for j, i in enumerate(vec):
        shape = [1] * n
        shape[j] = -1
        out[i] = idx[i].reshape(shape)
    return tuple(out)


def getitem(x, key):
    on_host = None
    if isinstance(key, NDArray) or (isinstance(key, (list, np.ndarray)) and not isinstance(key, tuple)):
        plan, dyn = _plan(x, key)
    elif isinstance(key, tuple) and any(isinstance(k, NDArray) for k in key):
        plan, dyn = _plan(x, key)
    else:
        if key == slice(None) or key is Ellipsis:
            return x
        plan, dyn = _plan(x, key)
        on_host = host_basic_index(x, key, plan)
    if on_host is not None:
        if on_host.ndim == 0:  # MXNet's nd indexing never gives a 0-d array: (1,) instead
            on_host = _put(np.asarray(on_host).reshape((1,)), on_host.sharding)
        out = _carry_failure([x], NDArray._from_jax(on_host, x.context))
    else:
        fn = _cached('get', plan)
        out = apply_fn(fn, ('getitem', plan), [x] + [_wrap_dyn(d, x) for d in dyn], name='__getitem__')[0]
    region = _flat_region(x.shape, plan, dyn)
    if region is not None:
        make_view(x, out, *region)
    return out


def is_basic(key):
    """Whether ``key`` is a basic index: ints, slices of ints, None and ``...`` (a tuple of them)."""
    for k in key if isinstance(key, tuple) else (key,):
        basic = k is None or k is Ellipsis or isinstance(k, (numbers.Integral, np.integer)) or (
            isinstance(k, slice) and all(v is None or isinstance(v, (numbers.Integral, np.integer))
                                         for v in (k.start, k.stop, k.step)))
        if not basic or isinstance(k, bool):
            return False
    return True


def host_basic_index(x, key, plan):
    """``x[key]`` for a basic index (ints, slices, None, ``...``) copied on the host, as a host
    form serves an operator's first calls on a shape (ops/_host.py), or None where the compiled
    program must run: a recorded array, a traced one, or a shape met often. (Iterating over
    arrays of many shapes compiled an indexing program per shape.)"""
    if not is_basic(key):
        return None
    data = x._data
    if (_ag_state.recording and x._ag is not None) or not _host.hostable(data):
        return None
    if not _host.first_call(('getitem', plan, data.shape, data.dtype)):
        return None
    return _put(np.array(np.asarray(data)[key]), data.sharding)


@x64  # an int64 array stays int64
def _put(values, sharding):
    return put(values, sharding)


def _flat_region(shape, plan, dyn):
    """(begin, end) in the flattened array when a basic index selects one contiguous block
    (MXNet then returns a view sharing memory), else None."""
    starts, lengths = [], []
    it = iter(dyn)
    for p in plan:
        kind = p[0]
        if kind == 'new':
            continue
        d = shape[len(starts)]
        if kind == 'int':
            starts.append(int(next(it)))
            lengths.append(1)
        elif kind == 'dslice':
            starts.append(int(next(it)))
            lengths.append(p[1])
        elif kind == 'all':
            starts.append(0)
            lengths.append(d)
        elif kind == 'slice' and len(range(p[1], -1 if p[2] is None else p[2], p[3])) <= 1:
            # a stepped slice taking at most one element (x[::20] of 6 rows) is x[start:start + 1]
            starts.append(p[1])
            lengths.append(len(range(p[1], -1 if p[2] is None else p[2], p[3])))
        else:  # other stepped slices and index arrays copy
            return None
    first = next((i for i, n in enumerate(lengths) if n != 1), len(lengths))
    if any(lengths[j] != shape[j] for j in range(first + 1, len(shape))):
        return None
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    begin = sum(s * st for s, st in zip(starts, strides))
    return begin, begin + int(np.prod(lengths, dtype=np.int64))


def _wrap_dyn(d, x):
    return d if isinstance(d, NDArray) else NDArray._from_jax(d, x._ctx)


def _same_kind(x, v):
    """Whether ``v`` is a dense array of x's shape and dtype."""
    return (isinstance(v._data, jax.Array) and isinstance(x._data, jax.Array) and v._data.shape == x._data.shape
            and v._data.dtype == x._data.dtype and v.stype == 'default' == x.stype)


def _whole(key):
    """Whether ``key`` selects the whole array: ``:``, ``...`` or the empty tuple."""
    if isinstance(key, tuple):
        return key == ()
    return False if isinstance(key, (NDArray, list, np.ndarray)) else key == slice(None) or key is Ellipsis


def setitem(x, key, value):
    if isinstance(value, NDArray):
        v = value
    elif isinstance(value, (numbers.Number, np.generic)):
        v = NDArray._from_jax(np.asarray(value, dtype=x._data.dtype), x._ctx)
    else:
        v = array(np.asarray(value), ctx=x.context, dtype=x._data.dtype)
    whole = _whole(key)
    check_recorded_write(x, (x, v), not whole)  # x[:] = v copies v, the others read x
    if whole:
        if _same_kind(x, v) and not (_ag_state.recording and (x._ag is not None or v._ag is not None)):
            # ``x[:] = v`` (or ``x[()] = v``) of an array like x: a copy of v's buffer (x's own:
            # optimizer states are donated) with no program compiled for the shape (MXNet's tests
            # fill every bound argument and gradient buffer this way)
            x._set_data(jax.device_put(v._data, x._data.sharding, may_alias=False))
            if _pending.entries:  # a value whose operator failed: so does the write (MXNet's engine)
                _carry_failure([v], x)
            return
        plan, dyn = tuple([('all',)] * x.ndim), []
    else:
        plan, dyn = _plan(x, key)
    fn = _cached('set', plan)
    inputs = [x, v] + [_wrap_dyn(d, x) for d in dyn]
    try:
        out = apply_fn(fn, ('setitem', plan), inputs, name='__setitem__')[0]
    except _AssignError as err:  # numpy's ValueError for mx.nd; mx.np's broadcast raises MXNetError
        raise getattr(type(x), '_ASSIGN_ERROR', ValueError)(str(err)) from None
    x._set_data(out._data)
    if _pending.entries:
        _carry_failure([out], x)
    if _ag_state.recording and out._ag is not None:
        x._ag = out._ag


# NDArray's indexing methods live here, above ndarray.py (this module needs NDArray);
# ndarray/__init__.py imports this module, so every NDArray has them.
def basic_slice_is_contiguous(key, shape):
    """Whether the basic index ``key`` (ints and slices) selects one C-contiguous block of an
    array of ``shape`` (MXNet's NDArray._basic_indexing_slice_is_contiguous; numpy's flag)."""
    key = key if isinstance(key, tuple) else (key,)
    lengths, steps = [], []
    for i, d in enumerate(shape):
        k = key[i] if i < len(key) else slice(None)
        if isinstance(k, slice):
            start, stop, step = k.indices(d)
            lengths.append(len(range(start, stop, step)))
            steps.append(step)
        else:
            lengths.append(1)
            steps.append(1)
    if 0 in lengths:  # an empty block is contiguous
        return True
    # Axes of length 1 never break contiguity; after the first longer axis, every axis is whole.
    first = next((i for i, n in enumerate(lengths) if n != 1), len(lengths))
    if first < len(lengths) and steps[first] != 1:
        return False
    return all(lengths[j] == shape[j] and (steps[j] == 1 or lengths[j] == 1)
               for j in range(first + 1, len(shape)))


NDArray.__getitem__ = getitem
NDArray.__setitem__ = setitem
NDArray._basic_indexing_slice_is_contiguous = staticmethod(basic_slice_is_contiguous)
