"""NDArray: MXNet's mutable array, as a small handle around an immutable jax.Array.

In-place operations (``x[:] = v``, ``x += y``, ``out=``) compute a new jax array
and rebind the handle, so every other reference to the same NDArray sees the
change, as in MXNet. Operators run through compiled kernels of the operator
table (``gluonjax.ops``) and are recorded on the autograd tape when needed.
"""
import ctypes
import numbers
import operator
import weakref

import jax
import jax.numpy as jnp
import numpy as np

from .. import _tape, _x64
from .._caches import lru_cache
from .._tape import state as _ag_state
from .._transfer import put
from .._x64 import x64, on as _x64_on, restore as _x64_restore
from ..base import DeferredError, MXNetError, shape_str, upper_layer
from . import _pending
from ..context import Context, current_context, context_of_device, on_host_cpu
from ..ops import _first_records, _host, _tiers, sparse as _sparse_storage
from ..ops._kernel import kernel_for, operator_error, with_values
from ..ops._frontend import COMPARISONS, ArrayType, python_operators

__all__ = ['NDArray', 'invoke', 'apply_fn', 'array', 'waitall', 'backward_heads', 'head_entries']

_DEFAULT_DTYPE = np.float32

# The operator recorder of mx.profiler while it runs, else None: invoke and apply_fn test it
# once per call, so profiling costs nothing when it is off (gluonjax.profiler installs it).
profiler_hook = None
# mx.contrib.amp's cast policy once amp.init() ran: (op_name, inputs, params) -> inputs.
amp_hook = None


def _to_dtype(dtype):
    if dtype is None:
        return None
    return np.dtype(dtype)


class NDArray(ArrayType):
    """An n-dimensional array on a device, with MXNet's semantics."""
    # _view: (base, begin, end) when this array shares base's flat elements [begin, end), as
    # MXNet's basic slices and reshapes do; _views: weak references to the views of this array.
    __slots__ = ('_data', '_ctx', '_ag', '_view', '_views', '__weakref__')
    __array_priority__ = 1000.0
    _sparse = False  # row_sparse/csr arrays (ndarray/sparse.py) say True

    def __init__(self, data=None, ctx=None, writable=True, handle=None):
        # ``writable`` is MXNet's flag for arrays made from a C handle; gluonjax arrays are
        # always writable. ``handle`` is MXNet's name for the first argument.
        if handle is not None:
            data = handle
        base = None
        if isinstance(data, ctypes.c_void_p):  # MXNet's NDArray(handle): the array it stands for
            owned = c_handles.pop(data.value, None)  # made by a C function: this NDArray takes it over
            if owned is not None:
                data, ctx = owned._data, owned._ctx
            else:
                base = _by_handle.get(data.value)
                if base is None:
                    raise MXNetError('NDArray: %r is not the handle of a live NDArray' % (data,))
                data, ctx = base._data, base._ctx
        self._data = data
        self._ctx = ctx
        self._ag = None
        self._view = self._views = None
        if base is not None:  # the same memory, as in MXNet
            make_view(base, self, 0, base.size)

    @property
    def _as_parameter_(self):
        """The array as a ctypes handle (``ctypes.cast(arr, NDArrayHandle)``, MXNet monitor
        callbacks): ``NDArray(handle)`` gives it back while it lives."""
        _by_handle[id(self)] = self
        return ctypes.c_void_p(id(self))

    @classmethod
    def _apply_op(cls, op, hint, inputs, params, extras):
        return invoke(op.name, inputs, params, out=extras.get('out'), ctx=extras.get('ctx'))

    @classmethod
    def _from_jax(cls, data, ctx=None):
        obj = cls.__new__(cls)
        obj._data, obj._ctx, obj._ag = data, ctx, None
        obj._view = obj._views = None
        return obj

    def _set_data(self, data):
        """Write the jax array ``data`` (this array's shape) into this array: the one way code
        outside NDArray (an optimizer's update, a kvstore pull, an initializer) stores a new value
        in an existing array, so that the arrays sharing its memory (basic slices, reshapes)
        see it, as they do in MXNet. No views: one attribute test more than ``_data = data``."""
        self._data = data
        if self._view is not None or self._views is not None:
            after_write(self)

    # ---- properties --------------------------------------------------------------------
    @property
    def shape(self):
        return tuple(self._data.shape)

    @property
    def dtype(self):
        return self._data.dtype.type

    @property
    def __numpy_dtype__(self):
        """``numpy.dtype(arr)``: NumPy 2 no longer reads a type class from ``.dtype`` (MXNet's
        ``float32`` class), which NumPy 1.x did; this protocol gives it the dtype."""
        return np.dtype(self.dtype)

    @property
    def size(self):
        return int(np.prod(self._data.shape, dtype=np.int64))

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def context(self):
        ctx = self._ctx
        if ctx is None:
            ctx = self._ctx = context_of_device(next(iter(self._data.devices())))
        return ctx

    ctx = context

    @property
    def stype(self):
        return 'default'

    @property
    def _storage(self):
        """The value an operator's sparse form takes: the jax array (sparse arrays: their parts)."""
        return self._data

    @property
    def handle(self):
        return self._data

    @property
    def T(self):
        return invoke('transpose', [self], {})

    @property
    def grad(self):
        ag = self._ag
        return ag.grad if ag.__class__ is _tape.Leaf else None

    @property
    def grad_req(self):
        ag = self._ag
        return ag.req if ag.__class__ is _tape.Leaf else 'null'

    @property
    def _fresh_grad(self):
        """Whether backward wrote this variable's gradient since the flag was last cleared
        (MXNet's name; gluon.Trainer finds stale gradients with it)."""
        ag = self._ag
        return ag.fresh if ag.__class__ is _tape.Leaf else False

    @_fresh_grad.setter
    def _fresh_grad(self, value):
        ag = self._ag
        if ag.__class__ is not _tape.Leaf:
            raise MXNetError('_fresh_grad: the array is not a variable (call attach_grad() first)')
        ag.fresh = bool(value)

    # ---- conversion --------------------------------------------------------------------
    def asnumpy(self):
        """A numpy copy of the data: writable and independent of the array, as MXNet's."""
        if _pending.entries:
            _pending.raise_for(self)
        return np.array(self._data)

    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self._data)
        return a.astype(dtype) if dtype is not None else a

    def asscalar(self):
        """The single element as a numpy scalar; as in MXNet, an array of more than one
        dimension (shape (1, 1)) comes back as that numpy array."""
        if self.size != 1:
            raise ValueError('The current array is not a scalar')
        host = self.asnumpy()
        return host[0] if host.ndim == 1 else host[()]

    def _element(self):
        """The single element as a numpy scalar, whatever the number of dimensions."""
        if self.size != 1:
            raise ValueError('The current array is not a scalar')
        return self.asnumpy().reshape(-1)[0]

    def item(self):
        return self._element().item()

    def __float__(self):
        return float(self._element())

    def __int__(self):
        return int(self._element())

    def __index__(self):
        if not np.issubdtype(self._data.dtype, np.integer):
            raise TypeError('only integer arrays can be used as an index')
        return int(self._element())

    def __bool__(self):
        if self.size == 1:
            return bool(self._element())
        if self.size == 0:
            return False
        raise ValueError('The truth value of an NDArray with multiple elements is ambiguous.')

    def __len__(self):
        if not self.shape:
            raise TypeError('len() of a 0-d NDArray')
        return self.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __hash__(self):
        return id(self)

    def astype(self, dtype, copy=True):
        dtype = np.dtype(dtype)
        if not copy and dtype == self._data.dtype:
            return self
        out = invoke('Cast', [self], {'dtype': dtype.name})
        if self._ctx is not None and on_host_cpu(self._ctx) is not self._ctx:
            out._ctx = self._ctx  # MXNet's astype copies into an array on the same context
        return out

    def copy(self):
        return self.copyto(self.context)

    def copyto(self, other):
        """A copy on the Context ``other``, or the values written into the NDArray ``other``."""
        if isinstance(other, Context):
            return self._copy_to_context(other)
        if not isinstance(other, NDArray):
            raise TypeError('copyto does not support type ' + str(type(other)))
        if other is self:
            return self
        if other.shape != self.shape:
            raise MXNetError('copyto: shape mismatch, source %s vs destination %s'
                             % (shape_str(self.shape), shape_str(other.shape)))
        self._copy_into(other)
        return other

    def _copy_to_context(self, ctx):
        # jax arrays are immutable, so sharing the buffer on the same device is a safe copy
        return _carry_failure([self], type(self)._from_jax(jax.device_put(self._data, ctx.jax_device), ctx))

    def _copy_into(self, other):
        other._set_data(jax.device_put(_cast(self._data, other._data.dtype), other.context.jax_device))

    def as_in_context(self, context):
        if self.context == context:
            return self
        return self.as_in_ctx(context)

    def as_in_ctx(self, ctx):
        if self.context == ctx:
            return self
        out = _carry_failure([self], type(self)._from_jax(jax.device_put(self._data, ctx.jax_device), ctx))
        if _ag_state.recording and self._ag is not None:
            _record_copy(self, out)
        return out

    def wait_to_read(self):
        if _pending.entries:
            _pending.raise_for(self)
        self._data.block_until_ready()

    def wait_to_write(self):
        self._data.block_until_ready()

    def tostype(self, stype):
        """This array in storage ``stype`` ('default', 'row_sparse', 'csr'): a new array, as in MXNet."""
        return invoke('cast_storage', [self], {'stype': stype})

    def as_nd_ndarray(self):
        return self

    def as_np_ndarray(self):
        """The same data as an ``mx.np.ndarray`` (shares the value and the autograd history)."""
        _np_front = upper_layer('numpy')[0]  # mx.np is a layer above
        out = _np_front.ndarray._from_jax(self._data, self._ctx)
        out._ag = self._ag
        return out

    # ---- autograd ----------------------------------------------------------------------
    def attach_grad(self, grad_req='write', stype=None):
        if grad_req not in ('write', 'add', 'null'):
            raise MXNetError("attach_grad: grad_req must be 'write', 'add' or 'null', not %r" % (grad_req,))
        stype = self.stype if stype is None else stype  # MXNet: a sparse array's gradient is sparse too
        ctx = self._ctx if self._ctx is None else on_host_cpu(self._ctx)  # MXNet: a cpu_shared array's gradient is on cpu
        g = type(self)._from_jax(_zeros_like(self._data), ctx)
        if stype != 'default':  # a sparse gradient buffer
            g = invoke('cast_storage', [g], {'stype': stype})
        self._ag = _tape.Leaf(g, grad_req)

    def detach(self):
        return type(self)._from_jax(self._data, self._ctx)

    def backward(self, out_grad=None, retain_graph=False, train_mode=True):
        backward_heads([self], None if out_grad is None else [out_grad], retain_graph, train_mode)

    # ---- printing ----------------------------------------------------------------------
    def __repr__(self):
        shape_info = 'x'.join('%d' % d for d in self.shape)
        return '\n%s\n<%s %s @%s>' % (str(self.asnumpy()), type(self).__name__, shape_info, self.context)

    __str__ = __repr__

    # ---- indexing: __getitem__ and __setitem__ are set by _indexing.py (which imports this module)

    # ---- arithmetic --------------------------------------------------------------------
    def __neg__(self):
        return invoke('negative', [self], {})

    def __pos__(self):
        return self

    def __abs__(self):
        return invoke('abs', [self], {})

    def __invert__(self):
        return invoke('logical_not', [self], {})

    def __getstate__(self):
        """MXNet's pickled state: {'handle': the array as one NDArray file record}."""
        from ._serialization import array_to_record_bytes
        return {'handle': bytearray(array_to_record_bytes(self.asnumpy()))}

    def __setstate__(self, state):
        """Load MXNet's pickled state (read by the validating NDArray file reader; a record
        saved from a GPU loads on the current device)."""
        from ._serialization import array_from_record_bytes
        handle = state.get('handle') if isinstance(state, dict) else None
        if handle is None:
            raise MXNetError('NDArray.__setstate__: expected {"handle": bytes}, got %r'
                             % type(state).__name__)
        host = array_from_record_bytes(handle)
        fresh = array(host, dtype=host.dtype)
        NDArray.__init__(self, fresh._data, fresh._ctx)

    def __copy__(self):
        """copy.copy and copy.deepcopy give an independent array, as in MXNet (no pickling needed)."""
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    # reshape follows MXNet: reshape(shape), reshape(*shape), reshape(shape, reverse=True)
    def reshape(self, *shape, **kwargs):
        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = shape[0]
        if 'shape' in kwargs:
            shape = kwargs.pop('shape')
        try:
            out = invoke('Reshape', [self], dict(kwargs, shape=tuple(shape)))
        except MXNetError:
            # MXNet's method makes a smaller view, then raises ValueError (a larger one: MXNetError)
            from ..ops.shape import reshape_shape
            target = reshape_shape(self.shape, shape, kwargs.get('reverse', False), check_size=False)
            if np.prod(target) < self.size:
                raise ValueError('Cannot reshape array of size %d into shape %s'
                                 % (self.size, tuple(shape))) from None
            raise
        make_view(self, out, 0, self.size)  # MXNet's reshape shares memory with the array
        return out

    def squeeze(self, axis=None, inplace=False):
        """The array without its size-1 axes (those in ``axis``); ``inplace=True`` gives a view
        that shares this array's data, as MXNet's method does."""
        out = invoke('squeeze', [self], {'axis': axis})
        if inplace:
            make_view(self, out, 0, self.size)
        return out

    # flatten, expand_dims and squeeze take MXNet's `inplace`: True gives a reshaped view that
    # shares this array's memory (as `reshape` does) instead of a new array.
    def flatten(self, inplace=False):
        out = invoke('Flatten', [self], {})
        return self.reshape(out.shape) if inplace else out

    def expand_dims(self, axis, inplace=False):
        out = invoke('expand_dims', [self], {'axis': axis})
        return self.reshape(out.shape) if inplace else out

    def squeeze(self, axis=None, inplace=False):
        out = invoke('squeeze', [self], {'axis': axis})
        return self.reshape(out.shape) if inplace else out

    # MXNet's methods, unlike the operators (equal ranks), first give the array leading axes of
    # size 1 (NumPy's rule), so GluonTS's `prob.broadcast_like(x)` of (1,) to (3, 1) works; a
    # shape they cannot reach is a ValueError raised before the operator
    def broadcast_to(self, shape):
        shape = tuple(shape)
        padded = (1,) * (len(shape) - self.ndim) + self.shape
        if len(shape) < self.ndim or any(d != t and d != 1 for d, t in zip(padded, shape)):
            raise ValueError('operands could not be broadcast together with remapped shapes '
                             '[original->remapped]: %s and requested shape %s' % (self.shape, shape))
        data = self.reshape(padded) if padded != self.shape else self
        return invoke('broadcast_to', [data], {'shape': shape})

    def broadcast_like(self, other):
        return self.broadcast_to(other.shape)

    def zeros_like(self):
        return invoke('zeros_like', [self], {})

    def ones_like(self):
        return invoke('ones_like', [self], {})

    def transpose(self, *axes, **kwargs):
        if len(axes) > 1:  # MXNet's method takes one `axes` tuple; x.transpose(1, 0) is numpy's form
            raise TypeError('transpose: axes must be one tuple, as in x.transpose((1, 0)); got %d '
                            'positional arguments' % len(axes))
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = tuple(axes[0])
        if axes:
            kwargs['axes'] = axes
        return invoke('transpose', [self], kwargs)

    def split(self, num_outputs, axis=1, squeeze_axis=False):
        return invoke('split', [self], {'num_outputs': num_outputs, 'axis': axis, 'squeeze_axis': squeeze_axis})

    def tolist(self):
        return self.asnumpy().tolist()


# ---------------------------------------------------------------------------------------
# Views: arrays sharing memory, as MXNet's basic slices (x[1], x[2:4]) and reshapes do
# ---------------------------------------------------------------------------------------

_by_handle = weakref.WeakValueDictionary()  # id -> NDArray, for the handles of _as_parameter_
# id -> NDArray: handles made by the C functions of mx.base._LIB (MXNDArrayFromDLPack), which own
# their array until an NDArray(handle) takes it over, as a handle from MXNet's C library does.
c_handles = {}


def make_view(base, out, begin, end):
    """Make ``out`` (just computed from ``base``) a view of base's flat elements [begin, end):
    a write to either is seen by the other, as MXNet arrays sharing memory."""
    if end <= begin:
        return
    out._view = (base, begin, end)
    if base._ctx is not None and on_host_cpu(base._ctx) is not base._ctx:
        out._ctx = base._ctx  # a view keeps the memory, and the context, of its base
    refs = base._views
    if refs is None:
        base._views = [weakref.ref(out)]
        return
    refs.append(weakref.ref(out))
    if len(refs) & (len(refs) - 1) == 0:  # drop dead views at powers of two: O(1) per view made
        refs[:] = [r for r in refs if r() is not None]


def after_write(arr):
    """Propagate a write to ``arr`` (setitem, ``+=``, ``out=``, copyto) to the arrays sharing its memory."""
    if arr._view is None and arr._views is None:
        return
    _write_through(arr)


@x64
def _write_through(arr):
    node = arr
    while node._view is not None:
        base, begin, end = node._view
        base._data = _with_part(base._data, node._data, begin, end)
        node = base
    _refresh_views(node, arr)


# Arrays small enough are written and cut on the host: jax's eager scatter and slice cost
# 1-2 ms of dispatch each, and an optimizer updating rows of a weight writes through thousands.
def _with_part(whole, part, begin, end):
    """``whole`` with its flat elements [begin, end) replaced by ``part``'s (cast to its dtype)."""
    if _host.hostable(whole) and _host.hostable(part):
        flat = np.array(whole).reshape(-1)  # a writable copy
        flat[begin:end] = np.asarray(part).reshape(-1)
        return put(flat.reshape(whole.shape), whole.sharding)
    flat = whole.reshape(-1)
    return flat.at[begin:end].set(part.reshape(-1).astype(flat.dtype)).reshape(whole.shape)


def _refresh_views(base, writer):
    refs = base._views
    if not refs:
        return
    live, host = [], None
    for ref in refs:
        view = ref()
        if view is None:
            continue
        live.append(ref)
        if isinstance(view, np.ndarray):  # from_numpy's buffer, which MXNet shares with the array
            _write_host_buffer(view, base._data)
            continue
        if view is not writer:
            _, begin, end = view._view
            if host is None and _host.hostable(base._data):
                host = np.asarray(base._data).reshape(-1)
            if host is not None:
                view._data = put(host[begin:end].reshape(view._data.shape), base._data.sharding)
            else:
                view._data = base._data.reshape(-1)[begin:end].reshape(view._data.shape)
        _refresh_views(view, writer)
    base._views = live


def share_host_buffer(arr, buffer):
    """Make the read-only numpy ``buffer`` (``from_numpy(..., zero_copy=True)``) see every later
    write to ``arr``, as MXNet's zero-copy array owns the numpy memory."""
    refs = arr._views
    if refs is None:
        arr._views = refs = []
    refs.append(weakref.ref(buffer))


def _write_host_buffer(buffer, data):
    buffer.flags.writeable = True
    try:
        buffer[...] = np.asarray(data).reshape(buffer.shape)
    finally:
        buffer.flags.writeable = False


def _record_copy(src, out):
    """Record a copy between devices; its gradient moves back to the source device."""
    device = next(iter(src._data.devices()))

    def backward_fn(out_cts, need, create_graph):
        ct = out_cts[0]
        if create_graph:
            return [ct.as_in_ctx(src.context)]
        return [jax.device_put(ct, device)]
    node = _tape.custom_node(('_copyto', id(src)), (src._ag,), (src._data,), 1, backward_fn,
                             name='_copyto')
    out._ag = (node, 0)


def _zeros_like(x):
    return _tape.zeros_like(x)  # made on the host: a new shape compiles nothing


def _cast(data, dtype):
    """``data`` as ``dtype`` (float64 and int64 included, whatever the caller's x64 state)."""
    return data if data.dtype == dtype else _astype(data, dtype)


@x64
def _astype(data, dtype):
    return data.astype(dtype)


# ---------------------------------------------------------------------------------------
# Running operators
# ---------------------------------------------------------------------------------------

def _ctx_of(arrays):
    """The context of an operator's outputs: its first input's, the host's aliases read as cpu."""
    for a in arrays:
        if a._ctx is not None:
            return on_host_cpu(a._ctx)
    return on_host_cpu(arrays[0].context if arrays else current_context())


def invoke(op_name, inputs, kwargs, out=None, ctx=None):
    """Run operator ``op_name`` eagerly on NDArrays; record it when autograd is recording.

    ``inputs`` are NDArrays; ``kwargs`` the operator's parameters. Returns one NDArray,
    or a list when the operator has several visible outputs.
    """
    if amp_hook is not None:
        inputs = amp_hook(op_name, inputs, kwargs)
    if out is not None and _ag_state.recording:
        for target in (out if isinstance(out, (list, tuple)) else (out,)):
            check_recorded_write(target, inputs, any(target is x for x in inputs))
    training = _ag_state.training
    if ctx is not None or not inputs:
        ctx = Context(ctx) if ctx is not None and not isinstance(ctx, Context) else (ctx or current_context())
        kernel = kernel_for(op_name, kwargs, training, ctx.jax_device)
    else:
        kernel = kernel_for(op_name, kwargs, training)
        ctx = _ctx_of(inputs)
    if kernel.op.value_attrs is not None:  # output shape read off the input values (boolean_mask)
        kernel = with_values(kernel, [x.asnumpy() for x in inputs])
    if kernel.op.sparse is not None and _sparse_call(kernel, inputs):
        outs = _run_sparse(kernel, inputs)
        if outs is not None:
            results = [_wrap_sparse(o, ctx) if hasattr(o, 'stype') else NDArray._from_jax(o, ctx) for o in outs]
            return _write_out(out, results) if out is not None else results[0] if len(results) == 1 else results
    args = [x._data for x in inputs]
    if kernel.dynamic:
        args.extend(kernel.attrs[n] for n in kernel.dynamic)
    if kernel.op.random:
        from ..ops import _rng
        args.append(_rng.next_key(ctx))
    node = None
    hook = profiler_hook
    if hook is not None:
        started = hook.start()
    try:
        if _ag_state.recording and inputs:
            outs, node = _record(kernel, inputs, args)
        else:
            outs = kernel(*args)
    except DeferredError as err:
        return _failed_call(err, ctx, kernel, out)
    if hook is not None:
        hook.operator(op_name, started, outs)
    if kernel.op.mutate_inputs:
        outs = _store_mutated(kernel, inputs, outs)
    cls = type(inputs[0]) if inputs else NDArray  # mx.np arrays stay mx.np arrays
    results = [cls._from_jax(o, ctx) for o in outs]
    new_aux = None
    if kernel.op.updates_aux and len(outs) > kernel.n_out:
        new_aux = outs[kernel.n_out:]
        results = results[:kernel.n_out]
    if node is not None:
        for i, r in enumerate(results):
            r._ag = (node, i)
        if new_aux is not None:
            # MXNet updates running statistics in backward: recorded passes count once backward runs
            node.on_backward = _aux_writer(kernel.op, kernel.attrs,
                                           inputs[len(inputs) - len(kernel.op.aux_names(kernel.attrs)):], new_aux)
    visible = results[:kernel.n_visible]
    if _pending.entries:
        _carry_failure(inputs, *visible)
    if out is not None:
        return _write_out(out, visible)
    return visible[0] if len(visible) == 1 else visible


def _carry_failure(inputs, *outputs):
    """Outputs computed from an array whose operator failed carry its error (see _pending.py)."""
    if _pending.entries:
        failure = _pending.failure_of(inputs)
        if failure is not None:
            _pending.mark(outputs, failure)
    return outputs[0] if len(outputs) == 1 else outputs


def _failed_call(err, ctx, kernel, out):
    """The outputs of a call whose operator failed as MXNet's do when run: placeholders of the
    right shapes that raise ``err`` at the next wait on them."""
    results = [NDArray._from_jax(jax.device_put(np.zeros(shape, dtype), ctx.jax_device), ctx)
               for shape, dtype in err.avals]
    _pending.mark(results, _pending.Failure(MXNetError(str(err))))
    visible = results[:kernel.n_visible]
    if out is not None:
        _write_out(out, visible)
        _pending.mark([out] if isinstance(out, NDArray) else out, _pending.failure_of(results))
        return out
    return visible[0] if len(visible) == 1 else visible


_wrap_sparse = None  # (sparse value, ctx) -> sparse NDArray, installed by ndarray/sparse.py


def install_sparse(wrap):
    global _wrap_sparse
    _wrap_sparse = wrap


def _sparse_call(kernel, inputs):
    """Whether an operator with a sparse form runs it: a sparse input, or a sparse output asked
    for (cast_storage's stype, dot's forward_stype). Under record() with a tracked input the dense
    kernel runs instead, so that the call is differentiated (its outputs are then dense)."""
    attrs = kernel.attrs
    wanted = (kernel.op.sparse_only or any(x.__class__._sparse for x in inputs)
              or attrs.get('stype', 'default') != 'default' or attrs.get('forward_stype') not in (None, 'default'))
    return wanted and not (_ag_state.recording and _tape.tracked([x._ag for x in inputs]))


@x64
def _run_sparse(kernel, inputs):
    try:
        return kernel.op.sparse(kernel, *[x._storage for x in inputs])
    except (MXNetError, ValueError):  # ValueError: a storage MXNet refuses (csr of 1-d data)
        raise
    except Exception as err:
        raise kernel.error([x._data for x in inputs], err) from None


def _store_mutated(kernel, inputs, outs):
    """Write the new values of the inputs an operator updates in place (sgd_mom_update's mom,
    returned after its outputs) into those NDArrays; the outputs proper."""
    names = kernel.op.input_names(kernel.attrs)
    for name, value in zip(kernel.op.mutated_inputs(kernel.attrs), outs[kernel.n_out:]):
        inputs[names.index(name)]._set_data(value)
    return outs[:kernel.n_out]


@x64  # the vjp form is traced and run with 64-bit dtypes, as the kernel
def _record(kernel, inputs, args):
    """Run a kernel under record(): ``(outputs, node)``, the node None when no input is tracked.

    The node's function returns every output, updated auxiliary states included; scalars
    and PRNG keys after the arrays are constant inputs of the node.
    """
    parents = [x._ag for x in inputs]
    if not _tape.tracked(parents):
        return kernel(*args), None
    parents.extend([None] * (len(args) - len(inputs)))
    try:
        return _first_records.record_kernel(kernel, parents, args)
    except MXNetError:
        raise
    except Exception as err:  # a jax or XLA failure: name the operator and the shapes
        raise kernel.error(args, err) from None


def _aux_writer(op, attrs, arrays, after):
    """A function storing the auxiliary states (BatchNorm's running statistics) a recorded
    forward computed into ``arrays``, for autograd to call when backward passes the node.

    Where another backward changed the arrays since this forward read them, ``op.rebase_aux``
    applies this pass's update to their current values instead.
    """
    before = tuple(a._data for a in arrays)

    def write():
        now = tuple(a._data for a in arrays)
        if all(n is b for n, b in zip(now, before)) or op.rebase_aux is None:
            values = after
        else:
            values = op.rebase_aux(attrs, before, after, now)
        for arr, value in zip(arrays, values):
            arr._set_data(value)
    return write


def _write_out(out, results):
    outs = out if isinstance(out, (list, tuple)) else [out]
    if len(outs) != len(results):
        raise MXNetError('out= has %d arrays but the operator has %d outputs' % (len(outs), len(results)))
    for o, r in zip(outs, results):
        if o.shape != r.shape:
            raise MXNetError('out= array has shape %s but the result has shape %s'
                             % (shape_str(o.shape), shape_str(r.shape)))
        o._set_data(_cast(r._data, o._data.dtype))
        if _ag_state.recording:
            o._ag = r._ag
    return out


_fn_cache = lru_cache('ndarray.apply_fn', 4096)  # keys name index plans, shapes: user input


class PassThrough(Exception):
    """Mixin for errors raised while tracing that must reach the user with their own type
    (a ValueError of ``x[:] = v``, as MXNet raises), not wrapped into an MXNetError."""


def apply_fn(fn, key, inputs, name=''):
    """Run a pure function of jax arrays on NDArrays, compiled and cached by ``key``; record it.

    This is how things that are not table operators (indexing, the backward of a node
    under create_graph, image transforms, batch stacking) join eager execution and the tape.
    """
    jitted = _fn_cache.get(key)
    if jitted is None:
        jitted = _fn_cache[key] = _tiers.jit(fn)
    values = [x._data for x in inputs]
    parents = [x._ag for x in inputs] if _ag_state.recording else ()
    node = None
    hook = profiler_hook
    if hook is not None:
        started = hook.start()
    prev = _x64_on()  # traced and run with 64-bit dtypes, as the kernels (see _x64.py)
    try:
        if _tape.tracked(parents):
            outs, node = _tape.record_call(fn, key, parents, values, jitted, name, None)
        else:
            outs = jitted(*values)
    except (MXNetError, PassThrough):
        raise
    except Exception as err:
        raise operator_error(name or str(key[0]), ['arg%d' % i for i in range(len(inputs))],
                             values, err) from None
    finally:
        _x64_restore(prev)
    if hook is not None:
        hook.operator(name or str(key[0]), started, outs)
    ctx = _ctx_of(inputs) if inputs else current_context()
    cls = type(inputs[0]) if inputs else NDArray  # mx.np arrays stay mx.np arrays
    results = [cls._from_jax(o, ctx) for o in outs]
    if node is not None:
        for i, r in enumerate(results):
            r._ag = (node, i)
    if _pending.entries and results:
        _carry_failure(inputs, *results)
    return results


# ---------------------------------------------------------------------------------------
# Backward from NDArray heads (autograd.backward and NDArray.backward)
# ---------------------------------------------------------------------------------------

def head_entries(heads, head_grads):
    """The tape entries of ``heads`` (one NDArray or a list) and their cotangents (jax arrays,
    ones where no head gradient is given); raises MXNetError for a head not in a graph."""
    if not isinstance(heads, (list, tuple)):
        heads = [heads]
    for h in heads:
        if h._ag is None:
            raise MXNetError(
                'backward: cannot differentiate an array that is not in a computational graph. '
                'Call attach_grad() on the inputs and compute the output inside '
                '`with autograd.record():`')
    entries = [h._ag for h in heads]
    if head_grads is None:
        return entries, [_tape.ones_like(h._data) for h in heads]
    if not isinstance(head_grads, (list, tuple)):
        head_grads = [head_grads]
    if len(head_grads) != len(heads):
        raise MXNetError('backward: %d head gradients given for %d heads' % (len(head_grads), len(heads)))
    cts = []
    for h, g in zip(heads, head_grads):
        if g is None:
            cts.append(_tape.ones_like(h._data))
            continue
        g = g._data if isinstance(g, NDArray) else jnp.asarray(g, h._data.dtype)
        if g.shape != h._data.shape:
            if g.size < h._data.size:
                raise MXNetError('backward: head gradient of shape %s does not match head of shape %s'
                                 % (g.shape, h._data.shape))
            # MXNet reads the head's number of elements from the gradient's buffer, in row-major
            # order, without checking its shape (test_contrib_control_flow's foreach relies on it).
            g = g.reshape(-1)[:h._data.size].reshape(h._data.shape)
        if g.sharding != h._data.sharding:  # a head gradient made on another device
            g = jax.device_put(g, h._data.sharding)
        cts.append(g)
    return entries, cts


@x64
def backward_heads(heads, head_grads=None, retain_graph=False, train_mode=True):
    """MXNet's backward: the gradients of ``heads`` written into the variables' ``.grad``."""
    entries, cts = head_entries(heads, head_grads)
    prev = (_ag_state.recording, _ag_state.training)
    _ag_state.recording = False
    if train_mode is not None:
        _ag_state.training = bool(train_mode)
    hook = profiler_hook
    if hook is not None:
        started = hook.start()
    try:
        result = _tape.backward(entries, cts, retain_graph)
    finally:
        _ag_state.recording, _ag_state.training = prev
    if hook is not None:  # the whole backward pass is one event: its nodes run fused
        hook.operator('backward', started, [g for _, _, g in result.values()])
    if all(leaf.req == 'null' for leaf, _, _ in result.values()):
        raise MXNetError('backward: there are no inputs in the computational graph that require gradients '
                         "(every variable reached has grad_req='null')")
    for leaf, _, g in result.values():
        leaf.store(g)


def waitall():
    """Wait for all pending computation (jax dispatches asynchronously): every live array is ready.
    Raises the error of a failed operator whose outputs are still alive, as MXNet's does."""
    jax.effects_barrier()
    jax.block_until_ready(jax.live_arrays())
    if _pending.entries:
        _pending.raise_any()


# ---------------------------------------------------------------------------------------
# Creating arrays
# ---------------------------------------------------------------------------------------

def _infer_dtype(source, dtype):
    if dtype is not None:
        dtype = np.dtype(dtype)
        if dtype.kind in 'USO':
            # MXNet looks the dtype up in its type table: strings and Python objects are a KeyError
            # (e.g. the default batchify of string samples, or of ragged numpy samples)
            raise KeyError('array: dtype %s is not an MXNet array type' % dtype)
        return dtype
    if isinstance(source, NDArray):
        return source._data.dtype
    # MXNet: float32 for anything that is not an NDArray, numpy integer arrays included.
    return np.dtype(_DEFAULT_DTYPE)


@x64
def array(source_array, ctx=None, dtype=None):
    """An NDArray from a nested list, a numpy array, a scalar or another NDArray (float32 by default)."""
    ctx = Context(ctx) if ctx is not None and not isinstance(ctx, Context) else (ctx or current_context())
    if _sparse_storage.is_scipy_csr(source_array):  # MXNet makes a CSRNDArray of the matrix's dtype
        return _wrap_sparse(_sparse_storage.csr_from_scipy(source_array, dtype, ctx.jax_device), ctx)
    dtype = _infer_dtype(source_array, dtype)
    if isinstance(source_array, NDArray) and source_array._sparse:  # MXNet keeps the storage type
        return source_array.astype(dtype).copyto(ctx)
    if isinstance(source_array, NDArray):
        src = source_array._data.astype(dtype)
        return NDArray._from_jax(jax.device_put(src, ctx.jax_device), ctx)
    try:
        host = np.asarray(source_array, dtype=dtype)
    except (TypeError, ValueError) as err:
        raise MXNetError('array: cannot make an array from %s: %s' % (type(source_array).__name__, err)) from None
    if host is source_array or host.base is not None:  # the caller's memory: an NDArray owns a copy
        host = host.copy()
    return NDArray._from_jax(put(host, ctx.jax_device), ctx)


def check_same_dtype(op_name, lhs, rhs):
    """mx.nd arithmetic does not promote: MXNet rejects float32 + int32 (mx.np promotes, through
    the same table operators, so the check lives here in the nd front end)."""
    if lhs._data.dtype != rhs._data.dtype and type(lhs) is NDArray and type(rhs) is NDArray \
            and amp_hook is None:  # under AMP the cast policy gives both one dtype, as in MXNet
        raise MXNetError('%s: the inputs must have the same dtype, got lhs %s and rhs %s (use astype to convert)'
                         % (op_name, lhs._data.dtype, rhs._data.dtype))


def _unsupported(other):
    """MXNet takes NDArrays and scalars only: a numpy array raises TypeError (numpy must not take
    over the operation); other types are left to Python."""
    if isinstance(other, np.ndarray):
        raise TypeError('type %s not supported' % str(type(other)))
    return NotImplemented


def _binary(op_array, op_scalar, reverse_scalar=None):
    """An arithmetic dunder method: array-array uses the broadcast operator, array-scalar the scalar one."""
    def method(self, other):
        if isinstance(other, NDArray):
            check_same_dtype(op_array, self, other)
            return invoke(op_array, [self, other], {})
        if isinstance(other, numbers.Number) or isinstance(other, np.generic):
            return invoke(op_scalar, [self], {'scalar': other})
        return _unsupported(other)
    return method


def _rbinary(op_array, op_scalar):
    def method(self, other):
        if isinstance(other, numbers.Number) or isinstance(other, np.generic):
            return invoke(op_scalar, [self], {'scalar': other})
        return _unsupported(other)
    return method


_ASSIGNED_IN_GRAPH = (
    'Assigning to NDArrays that are already in a computational graph will cause undefined behavior '
    'when evaluating gradients. Please call backward first to clear the graph or do this out side '
    'of a record section. Also note that you cannot use inplace operations like +=, *=, '
    'relu(x, out=x), y[idx]=x, etc inside a record section.')
_INPLACE_RECORDED = 'Inplace operations (+=, -=, x[:]=, etc) are not supported when recording with autograd.'


def check_recorded_write(target, inputs, reads_target):
    """MXNet's refusals of a write into ``target`` while autograd records: ``target`` is in a
    graph already, or an operator reading ``target`` (``+=``, ``x[i] = v``, ``out=`` an input)
    takes a tracked input, which would put ``target`` in the graph as its own input."""
    if not _ag_state.recording:
        return
    if _tape.in_graph(target._ag):
        raise MXNetError(_ASSIGNED_IN_GRAPH)
    if reads_target and any(isinstance(x, NDArray) and _tape.in_graph(x._ag) for x in inputs):
        raise MXNetError(_INPLACE_RECORDED)


def _inplace(method):
    def imethod(self, other):
        check_recorded_write(self, (self, other), True)
        result = method(self, other)
        if result is NotImplemented:
            return result
        data = result._data
        if data.shape != self._data.shape:  # broadcasting may not grow the target
            raise MXNetError('in-place operation: shape inconsistent, provided %s, inferred %s'
                             % (shape_str(self.shape), shape_str(data.shape)))
        self._set_data(_cast(data, self._data.dtype))
        if _ag_state.recording and result._ag is not None:
            self._ag = result._ag
        return self
    return imethod


# Python's arithmetic on NDArrays: which operator implements which Python operator is in the
# operator table (the 'nd' arith entries); nd has no bitwise or floor-division operators.
_ND_OPERATORS = ('add', 'sub', 'mul', 'truediv', 'mod', 'pow', 'eq', 'ne', 'gt', 'ge', 'lt', 'le')
for _base, _function, _slots in python_operators('nd', _ND_OPERATORS):
    _m = _binary(_slots['array'], _slots['scalar'])
    setattr(NDArray, '__%s__' % _base, _m)
    if _base not in COMPARISONS:
        setattr(NDArray, '__i%s__' % _base, _inplace(_m))
        _rsc = _slots['rscalar']
        setattr(NDArray, '__r%s__' % _base, _rbinary(_slots['array'], _rsc) if _rsc != _slots['scalar'] else _m)
NDArray.__div__ = NDArray.__truediv__
NDArray.__rdiv__ = NDArray.__rtruediv__
NDArray.__idiv__ = NDArray.__itruediv__
del _base, _function, _slots, _m, _rsc


# MXNet's storage type names and ids (ndarray.ndarray._STORAGE_TYPE_STR_TO_ID); gluonjax stores
# every array dense ('default'), the other two are named so code that looks them up works.
_STORAGE_TYPE_UNDEFINED = -1
_STORAGE_TYPE_DEFAULT = 0
_STORAGE_TYPE_ROW_SPARSE = 1
_STORAGE_TYPE_CSR = 2
_STORAGE_TYPE_STR_TO_ID = {'undefined': _STORAGE_TYPE_UNDEFINED, 'default': _STORAGE_TYPE_DEFAULT,
                           'row_sparse': _STORAGE_TYPE_ROW_SPARSE, 'csr': _STORAGE_TYPE_CSR}
_STORAGE_TYPE_ID_TO_STR = {v: k for k, v in _STORAGE_TYPE_STR_TO_ID.items()}
py_slice = slice   # MXNet's name for Python's slice in this module
