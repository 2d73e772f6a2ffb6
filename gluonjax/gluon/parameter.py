"""Parameters of Gluon Blocks: ``Parameter``, ``Constant`` and ``ParameterDict``.

A Parameter holds one NDArray per context it was initialised on. Unless its ``grad_req``
is ``'null'``, every one of those arrays is an autograd *leaf* (see
``autograd.mark_variables``) whose gradient buffer is the Parameter's ``grad(ctx)``:
any operator recorded on the array, eager or inside a hybridized block, sends its
gradient there. Shapes may contain 0 for unknown dimensions; initialisation is then
deferred until the first forward pass tells the Block the input shapes.
"""
import collections
import threading
import warnings

import jax
import jax.numpy as jnp
import numpy as np

from .. import autograd, initializer
from .._transfer import put
from .._x64 import x64
from ..base import MXNetError, shape_str
from ..context import Context, cpu, current_context, on_host_cpu
from .utils import _brief_print_list, _indent, shape_is_known

_UNSET = object()
from ..numpy._state import to_np as _to_np  # npx.set_np(): Parameters give mx.np arrays
from ..numpy._state import is_np_shape

__all__ = ['DeferredInitializationError', 'Parameter', 'Constant', 'ParameterDict']


class DeferredInitializationError(MXNetError):
    """A Parameter's initialisation waits for the first forward pass to know its shape."""


def _tensor_types():
    from ..ndarray import NDArray
    try:
        from ..symbol import Symbol
        return (Symbol, NDArray)
    except ImportError:  # the symbol package is optional for eager use
        return (NDArray,)


# Bumped whenever some Parameter replaces its arrays (initialisation, reset_ctx, cast), so
# that hybridized blocks know when their cached lists of parameter arrays are stale.
_generation = [0]

# While a HybridBlock is traced, Parameter.data() returns the parameter's Symbol, so that
# Gluon-2 style ``forward`` code reading ``self.weight.data()`` traces too.
_trace_state = threading.local()


def _tracing():
    return getattr(_trace_state, 'depth', 0) > 0


@x64
def _fresh_zeros(x):
    """Zeros like ``x`` on its device, made on the host: a net's first gradient buffers would
    otherwise compile one program per parameter shape (seconds for a model-zoo net)."""
    return put(np.zeros(x.shape, x.dtype), x.sharding)


def _as_ctx_list(ctx):
    if ctx is None:
        return [current_context()]
    if isinstance(ctx, Context):
        return [ctx]
    if isinstance(ctx, str):
        return [Context(ctx)]
    return [c if isinstance(c, Context) else Context(c) for c in ctx]


def _dtype_name(dtype):
    return np.dtype(dtype).name


class Parameter:
    """A weight of a Block: one array per context, its gradient buffers and its settings.

    Parameters
    ----------
    name : str
        Full name (``dense0_weight``); it is the key in parameter files.
    grad_req : {'write', 'add', 'null'}, default 'write'
        How gradients are stored; 'null' means no gradient (and detaches the arrays).
    shape : int or tuple of int, optional
        0 marks a dimension that is not known yet (deferred initialisation).
    dtype : numpy dtype or str, default float32
    lr_mult, wd_mult : float
        Multipliers of the learning rate and weight decay for this Parameter.
    init : Initializer or str, optional
        Initializer of this Parameter; the one given to ``initialize`` otherwise.
    allow_deferred_init : bool
        Whether ``initialize`` may wait for the shape to be known.
    differentiable : bool
        False forces grad_req 'null' (running statistics of BatchNorm).

    Example::

        w = gluon.Parameter('fc_weight', shape=(64, 100), init=mx.init.Xavier())
        w.initialize(ctx=mx.cpu())
        y = mx.nd.FullyConnected(x, w.data(), no_bias=True, num_hidden=64)
    """

    def __init__(self, name, grad_req='write', shape=None, dtype=np.float32, lr_mult=1.0,
                 wd_mult=1.0, init=None, allow_deferred_init=False, differentiable=True,
                 stype='default', grad_stype='default'):
        self._var = None
        self._var_key = None
        self._data = None
        self._grad = None
        self._ctx_list = None
        self._ctx_map = None
        self._trainer = None
        self._deferred_init = ()
        self._differentiable = differentiable
        self._allow_deferred_init = allow_deferred_init
        self._grad_req = None
        if isinstance(shape, (int, np.integer)):
            shape = (int(shape),)
        self._shape = tuple(shape) if shape is not None else None
        self._var_shape = _UNSET  # the shape when the graph variable was first made (export writes it)
        self.name = name
        self._dtype = dtype
        self.lr_mult = lr_mult
        self.wd_mult = wd_mult
        self.grad_req = grad_req
        self.init = init
        for kind, value in (('stype', stype), ('grad_stype', grad_stype)):
            if value not in ('default', 'row_sparse', 'csr'):
                raise AssertionError("%s for Parameter '%s' must be one of 'default', 'row_sparse', "
                                 "or 'csr', but got '%s'" % (kind, name, value))
        # Sparse storage is stored dense: gradients are the same numbers, only denser.
        self._stype = stype
        self._grad_stype = grad_stype

    def __repr__(self):
        return 'Parameter {name} (shape={shape}, dtype={dtype})'.format(
            name=self.name, shape=self.shape, dtype=self.dtype)

    # ---- settings ------------------------------------------------------------------------
    @property
    def grad_req(self):
        return self._grad_req

    @grad_req.setter
    def grad_req(self, req):
        if req not in ('write', 'add', 'null'):
            raise AssertionError("grad_req must be one of 'write', 'add', or 'null', but got '%s'" % req)
        if not self._differentiable:
            req = 'null'
        if self._grad_req == req:
            return
        self._grad_req = req
        if req == 'null' and self._grad is not None:
            self._grad = None
            autograd.unmark_variables(self._data)  # detached: operators on it are no longer recorded
        elif self._data is not None:
            self._init_grad()

    @property
    def dtype(self):
        return self._dtype

    @dtype.setter
    def dtype(self, dtype):
        self.cast(dtype)

    @property
    def shape(self):
        # A Parameter is never zero-size, so 0 marks an unknown dimension; under NumPy shape
        # semantics (npx.set_np()) 0 is a size and MXNet shows the unknown dimension as -1
        if self._shape is not None and is_np_shape():
            return tuple(-1 if d == 0 else d for d in self._shape)
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        new_shape = tuple(new_shape) if new_shape is not None else None
        if self._shape is None:
            if new_shape is not None and self._var_shape is _UNSET:
                self._var_shape = None
            self._shape = new_shape
            return
        if len(self._shape) != len(new_shape) or not all(
                j in (-1, 0, i) for i, j in zip(new_shape, self._shape)):
            raise AssertionError("Parameter '%s': expected shape %s is incompatible with given shape %s"
                             % (self.name, str(new_shape), str(self._shape)))
        if new_shape != self._shape and self._var_shape is _UNSET:
            # MXNet traces the graph (making the variable) before it completes the shape
            self._var_shape = self._shape
        self._shape = new_shape

    @property
    def stype(self):
        return self._stype

    def _set_trainer(self, trainer):
        """Remember the Trainer updating this Parameter (as MXNet's Trainer calls it). A sparse
        Parameter's rows are pulled through its one Trainer's store: a second Trainer is refused."""
        current = self._trainer
        if self._stype != 'default' and trainer is not None and current is not None and current is not trainer:
            raise RuntimeError("Parameter '%s' (stype %r) already has a Trainer; a sparse Parameter "
                               'takes only one' % (self.name, self._stype))
        self._trainer = trainer

    # ---- reading ---------------------------------------------------------------------------
    def _check_and_get(self, arr_list, ctx):
        if arr_list is not None:
            if ctx is list:
                return arr_list
            if ctx is None:
                if len(arr_list) == 1:
                    return arr_list[0]
                ctx = current_context()
            idx = self._ctx_map.get(ctx)
            if idx is None:
                # MXNet keys a Parameter's copies by device kind, the host kinds together: a batch
                # from DataLoader workers (cpu_shared) or pinned memory reads the cpu copy
                idx = self._ctx_map.get(on_host_cpu(ctx))
            if idx is not None:
                return arr_list[idx]
            raise RuntimeError("Parameter '%s' was not initialized on context %s. It was only "
                             "initialized on %s." % (self.name, str(ctx), str(self._ctx_list)))
        if self._deferred_init:
            raise DeferredInitializationError(
                "Parameter '%s' has not been initialized yet because initialization was "
                "deferred. Actual initialization happens during the first forward pass. "
                "Please pass one batch of data through the network before accessing Parameters. "
                "You can also avoid deferred initialization by specifying in_units, "
                "num_features, etc., for network layers." % self.name)
        raise RuntimeError(
            "Parameter '%s' has not been initialized. Note that you should initialize "
            "parameters and create Trainer with Block.collect_params() instead of Block.params "
            "because the later does not include Parameters of nested child Blocks" % self.name)

    def _check_dense(self, what):
        """A row_sparse Parameter is read through its Trainer's rows (``row_sparse_data``)."""
        if self._stype != 'default':
            raise RuntimeError("Cannot return a copy of Parameter '%s' via %s() because its storage "
                               "type is %s. Please use row_sparse_data() instead."
                               % (self.name, what, self._stype))

    def _arrays(self):
        """The arrays on every context, whatever their storage (for the Trainer and saving)."""
        return self._check_and_get(self._data, list)

    def data(self, ctx=None):
        """This Parameter's array on ``ctx`` (the only one, or the current context's)."""
        if _tracing():
            return _to_np(self.var())
        self._check_dense('data')
        return _to_np(self._check_and_get(self._data, ctx))

    def list_data(self):
        """The arrays on every context, in the order of initialisation."""
        self._check_dense('list_data')
        return _to_np(self._check_and_get(self._data, list))

    def grad(self, ctx=None):
        """The gradient buffer on ``ctx``."""
        if self._data is not None and self._grad is None:
            raise RuntimeError("Cannot get gradient array for Parameter '%s' because grad_req='null'"
                             % self.name)
        return _to_np(self._check_and_get(self._grad, ctx))

    def list_grad(self):
        if self._data is not None and self._grad is None:
            raise RuntimeError("Cannot get gradient array for Parameter '%s' because grad_req='null'"
                             % self.name)
        return _to_np(self._check_and_get(self._grad, list))

    def list_ctx(self):
        """The contexts this Parameter lives on (or will, once deferred initialisation ends)."""
        if self._data is None:
            if self._deferred_init:
                return self._deferred_init[1]
            raise RuntimeError("Parameter '%s' has not been initialized" % self.name)
        return self._ctx_list

    def _check_row_sparse(self, what):
        if self._stype != 'row_sparse':
            raise RuntimeError("Cannot return copies of Parameter '%s' via %s() because its storage "
                               "type is %s. Please use data() instead." % (self.name, what, self._stype))
        if self._trainer is None:
            raise RuntimeError("Cannot get row_sparse data for Parameter '%s' when no Trainer is "
                               "created with it." % self.name)

    def row_sparse_data(self, row_id):
        """The rows ``row_id`` of this row_sparse Parameter, a row_sparse array on ``row_id``'s
        context (the Trainer updates the whole array on each device, so its rows are current)."""
        self._check_row_sparse('row_sparse_data')
        return self._rows(self._check_and_get(self._data, row_id.context), row_id)

    def list_row_sparse_data(self, row_id):
        """The rows ``row_id`` on every context."""
        self._check_row_sparse('list_row_sparse_data')
        return [self._rows(arr, row_id.as_in_context(arr.context)) for arr in self._arrays()]

    @staticmethod
    def _rows(arr, row_id):
        """The rows ``row_id`` of ``arr``, standing for ``arr`` in autograd (MXNet pulls the rows
        into the Parameter's own array): their gradient is the Parameter's gradient."""
        from ..ndarray import sparse
        with autograd.pause():
            rows = sparse.retain(arr, row_id)
        rows._ag = arr._ag
        return rows

    @x64
    def _reduce(self):
        """The value on the CPU: the mean over contexts (they are equal after a Trainer step)."""
        arrays = self._arrays()
        device = cpu().jax_device
        if len(arrays) == 1:
            value = jax.device_put(arrays[0]._data, device)
        else:
            value = sum(jax.device_put(a._data, device) for a in arrays) / len(arrays)
            value = value.astype(arrays[0]._data.dtype)
        from ..ndarray import NDArray
        return NDArray._from_jax(value, cpu())

    # ---- initialisation ------------------------------------------------------------------
    def initialize(self, init=None, ctx=None, default_init=initializer.Uniform(), force_reinit=False):
        """Create the arrays on ``ctx`` (one context or a list) and fill them.

        ``init`` wins over the Parameter's own ``init``, which wins over ``default_init``.
        With unknown dimensions in the shape, initialisation waits for the first forward pass.
        """
        if self._data is not None and not force_reinit:
            warnings.warn("Parameter '%s' is already initialized, ignoring. Set force_reinit=True "
                          "to re-initialize." % self.name, stacklevel=2)
            return
        self._data = self._grad = None
        ctx = _as_ctx_list(ctx)
        if init is None:
            init = default_init if self.init is None else self.init
        if not shape_is_known(self.shape):
            if self._allow_deferred_init:
                self._deferred_init = (init, ctx, default_init, None)
                return
            raise ValueError("Cannot initialize Parameter '%s' because it has invalid shape: %s."
                             % (self.name, str(self.shape)))
        self._deferred_init = (init, ctx, default_init, None)
        self._finish_deferred_init()

    @x64
    def _finish_deferred_init(self):
        """Initialise now that the shape is known (called by the Block at the first forward)."""
        if not self._deferred_init:
            return
        init, ctx, default_init, data = self._deferred_init
        if not shape_is_known(self.shape):
            raise AssertionError("Cannot initialize Parameter '%s' because it has invalid shape: %s. "
                             "Please specify in_units, in_channels, etc for `Block`s."
                             % (self.name, str(self.shape)))
        self._deferred_init = ()
        from ..ndarray import NDArray
        with autograd.pause():
            if data is None:
                host = jax.device_put(np.zeros(self.shape, dtype=_dtype_name(self.dtype)), cpu().jax_device)
                data = NDArray._from_jax(host, cpu())
                initializer.create(default_init)(
                    initializer.InitDesc(self.name, {'__init__': init}), data)
            elif not isinstance(data, NDArray):
                data = NDArray._from_jax(jnp.asarray(np.asarray(data, dtype=_dtype_name(self.dtype))), cpu())
            self._init_impl(data, ctx)

    @x64
    def _init_impl(self, data, ctx_list):
        """Put copies of ``data`` on every context and make the gradient buffers."""
        from ..ndarray import NDArray
        self._ctx_list = list(ctx_list)
        self._ctx_map = {c: i for i, c in enumerate(self._ctx_list)}
        dtype = np.dtype(_dtype_name(self.dtype))
        value = data._data if isinstance(data, NDArray) else jnp.asarray(data)
        if value.dtype != dtype:
            value = value.astype(dtype)
        # as MXNet, a Parameter initialised under NumPy semantics holds mx.np arrays from then on
        if self._stype != 'default':  # kept in its storage type (all rows present)
            from ..ndarray import sparse
            self._data = [sparse._from_dense(jax.device_put(value, c.jax_device), self._stype, c)
                          for c in self._ctx_list]
        else:
            self._data = _to_np([NDArray._from_jax(jax.device_put(value, c.jax_device), c)
                                 for c in self._ctx_list])
        _generation[0] += 1
        self._init_grad()

    def _init_grad(self):
        """Gradient buffers of zeros, and the arrays marked as autograd leaves."""
        from ..ndarray import NDArray
        if self.grad_req == 'null':
            self._grad = None
            autograd.unmark_variables(self._data or ())
            return
        if self._grad_stype != 'default':  # a row_sparse gradient (Embedding with sparse_grad=True)
            from ..ndarray import sparse
            self._grad = [sparse.zeros(self._grad_stype, d.shape, d.context, d.dtype) for d in self._data]
        else:
            self._grad = [type(d)._from_jax(_fresh_zeros(d._data), d._ctx) for d in self._data]
        autograd.mark_variables(self._data, self._grad, self.grad_req)

    def reset_ctx(self, ctx):
        """Move this Parameter to other contexts (one or a list)."""
        ctx = _as_ctx_list(ctx)
        if self._data:
            data = self._reduce()
            with autograd.pause():
                self._init_impl(data, ctx)
        elif self._deferred_init:
            init, _, default_init, data = self._deferred_init
            self._deferred_init = (init, ctx, default_init, data)
        else:
            raise ValueError("Cannot reset context for Parameter '%s' because it has not been "
                             "initialized." % self.name)

    @x64
    def set_data(self, data):
        """Set the value on every context (the shape must fit)."""
        from ..ndarray import NDArray
        shape = tuple(data.shape)
        self.shape = shape
        if self._data is None:
            if not self._deferred_init:
                raise AssertionError("Parameter '%s' has not been initialized" % self.name)
            self._deferred_init = self._deferred_init[:3] + (data,)
            return
        value = data._data if isinstance(data, NDArray) else jnp.asarray(np.asarray(data))
        for arr in self._data:
            if arr.shape != shape:
                raise AssertionError("Parameter '%s': cannot set data of shape %s into shape %s"
                                 % (self.name, shape_str(shape), shape_str(arr.shape)))
            arr._set_data(jax.device_put(value.astype(arr._data.dtype), arr.context.jax_device))

    def zero_grad(self):
        """Set the gradient buffers to 0 (no effect without gradients)."""
        if self._grad is None:
            return
        from ..ndarray.ndarray import _zeros_like
        for g in self._grad:
            g._set_data(_zeros_like(g._data))

    def var(self):
        """The Symbol variable standing for this Parameter in graphs."""
        from .. import symbol
        if self._var_shape is _UNSET:
            self._var_shape = self._shape
        key = (self.shape, _dtype_name(self.dtype), self.lr_mult, self.wd_mult)
        if self._var is None or self._var_key != key:
            shape = self.shape
            if shape is not None and is_np_shape():  # NumPy shapes mark an unknown dimension -1 (0 is a size)
                shape = tuple(-1 if d == 0 else d for d in shape)
            kwargs = {'shape': shape, 'dtype': self.dtype, 'lr_mult': self.lr_mult,
                      'wd_mult': self.wd_mult, 'stype': self._stype}  # MXNet writes __storage_type__
            if self.init is not None:
                kwargs['init'] = self.init
            self._var = symbol.var(self.name, **kwargs)
            self._var_key = key
        return self._var

    @x64
    def cast(self, dtype):
        """Cast the arrays and gradients to ``dtype``."""
        self._dtype = dtype
        if self._data is None:
            return
        with autograd.pause():
            for arr in self._data:
                arr._set_data(arr._data.astype(_dtype_name(dtype)))
            if self._grad is not None:
                for g in self._grad:
                    g._set_data(g._data.astype(_dtype_name(dtype)))
        _generation[0] += 1

    # ---- loading ---------------------------------------------------------------------------
    def _check_loadable(self, data, cast_dtype=False, dtype_source='current', ctx=None):
        """An error message when ``data`` cannot be loaded into this Parameter (on ``ctx``), else None."""
        if self.shape:
            if len(self.shape) != len(data.shape) or not all(
                    s in (-1, 0, d) for s, d in zip(self.shape, data.shape)):
                return ("Failed loading Parameter '%s' from saved params: shape incompatible "
                        "expected %s vs saved %s" % (self.name, str(self.shape), str(tuple(data.shape))))
        if self.dtype is not None and not cast_dtype:
            if np.dtype(self.dtype) != np.dtype(data.dtype):
                return ("Failed loading Parameter '%s' from saved params: dtype incompatible "
                        "expected %s vs saved %s. Set cast_dtype=True to cast the dtype of saved "
                        "params." % (self.name, _dtype_name(self.dtype), _dtype_name(data.dtype)))
        if ctx is not None and (self._data is not None or self._deferred_init):
            # initialize() chose the devices (deferred or not): loading moves nothing (reset_ctx does)
            held = self.list_ctx()
            if set(_as_ctx_list(ctx)) != set(held):
                return ("Failed to load Parameter '%s' on %s because it was previous initialized "
                        "on %s." % (self.name, str(ctx), str(held)))
        return None

    def _load_init(self, data, ctx, cast_dtype=False, dtype_source='current'):
        """(Re)initialise from loaded ``data``; the caller has checked it with _check_loadable."""
        if cast_dtype and dtype_source not in ('current', 'saved'):
            raise AssertionError("dtype_source must be 'current' or 'saved', not %r" % (dtype_source,))
        message = self._check_loadable(data, cast_dtype, dtype_source, ctx)
        if message:
            raise AssertionError(message)
        if self.shape:
            self._shape = tuple(d for d in data.shape)
        else:
            self._shape = tuple(data.shape)
        retype = (cast_dtype and dtype_source == 'saved'
                  and np.dtype(self.dtype) != np.dtype(data.dtype))
        if retype:
            self._dtype = data.dtype
        # otherwise the arrays keep the Parameter's dtype: _init_impl and set_data cast to it
        if ctx is not None:
            ctx = _as_ctx_list(ctx)
        # the devices chosen by initialize() (deferred or not) are kept (_check_loadable)
        held = self.list_ctx() if self._data is not None or self._deferred_init else None
        if self._data is None:
            self._init_impl(data, held or ctx or [cpu()])
        elif retype:
            self._init_impl(data, held)
        else:
            self.set_data(data)
        self._deferred_init = ()
        trainer = self._trainer
        if trainer is not None and trainer._kv_initialized and trainer._update_on_kvstore:
            # the store holds the weights it updates: a loaded value replaces them (MXNet too)
            trainer._reset_kvstore()


class Constant(Parameter):
    """A Parameter that autograd and Trainer leave alone (grad_req is always 'null').

    Example::

        const = gluon.Constant('const', [[1, 2], [3, 4]])
    """

    def __init__(self, name, value):
        from ..ndarray import NDArray, array
        if not isinstance(value, NDArray):
            value = array(value)
        self.value = value
        super().__init__(name, grad_req='null', shape=value.shape, dtype=value.dtype,
                         init=_ConstantInit(value))

    def __repr__(self):
        return 'Constant {name} (shape={shape}, dtype={dtype})'.format(
            name=self.name, shape=self.shape, dtype=self.dtype)

    @property
    def grad_req(self):
        return 'null'

    @grad_req.setter
    def grad_req(self, req):
        if req != 'null':
            warnings.warn('Constant parameter "{}" does not support grad_req other than "null", '
                          'and new value "{}" is ignored.'.format(self.name, req))
        self._grad_req = 'null'


class _ConstantInit(initializer.Initializer):
    """Copies a Constant's value."""

    def __init__(self, value):
        super().__init__()
        self._value = value

    def _init_weight(self, _, arr):
        initializer._fill(arr, self._value.asnumpy())

    def dumps(self):
        return initializer.Constant(self._value.asnumpy().tolist()).dumps()


class ParameterDict:
    """An ordered dict of Parameters keyed by full name; Blocks make theirs with a prefix.

    ``get(name)`` returns the Parameter ``prefix + name``, creating it (or taking it from
    the ``shared`` dict) when missing.
    """

    def __init__(self, prefix='', shared=None):
        self._prefix = prefix
        self._params = collections.OrderedDict()
        self._shared = shared

    def __repr__(self):
        name = self._prefix + ' ' if self._prefix else ''
        content = '\n'.join(_indent('  {0}'.format(v), 2) for v in self.values())
        return '{name}(\n{content}\n)'.format(name=name, content=content)

    def __getitem__(self, key):
        return self._params[key]

    def __iter__(self):
        return iter(self._params)

    def __len__(self):
        return len(self._params)

    def __contains__(self, key):
        return key in self._params

    def items(self):
        return self._params.items()

    def keys(self):
        return self._params.keys()

    def values(self):
        return self._params.values()

    @property
    def prefix(self):
        return self._prefix

    def _get_impl(self, name):
        if name in self._params:
            return self._params[name]
        if self._shared is not None and name in self._shared._params:
            self._params[name] = self._shared._params[name]
            return self._params[name]
        return None

    def get(self, name, **kwargs):
        """The Parameter ``prefix + name``; created with ``kwargs`` when it does not exist."""
        name = self.prefix + name
        param = self._get_impl(name)
        if param is None:
            param = Parameter(name, **kwargs)
            param._adopted = True  # named by its Block already
            self._params[name] = param
            return param
        for k, v in kwargs.items():
            existing = getattr(param, k, None)
            if existing is None:
                setattr(param, k, v)
                continue
            if k == 'shape':
                v = (v,) if isinstance(v, int) else tuple(v)
                stored = param._shape  # 0 marks an unknown dimension (-1 as given under set_np)
                if len(v) == len(stored) and all(a == b or a in (-1, 0) or b in (-1, 0)
                                                 for a, b in zip(v, stored)):
                    param._shape = tuple(b if a in (-1, 0) else a for a, b in zip(v, stored))
                    continue
            elif k == 'dtype' and np.dtype(v) == np.dtype(existing):
                continue
            if v is not None and v != existing:
                raise AssertionError("Cannot retrieve Parameter '%s' because desired attribute does not "
                                 "match with stored for attribute '%s': desired '%s' vs stored '%s'."
                                 % (name, k, str(v), str(existing)))
        return param

    def get_constant(self, name, value=None):
        """The Constant ``prefix + name``; created from ``value`` when it does not exist."""
        name = self.prefix + name
        param = self._get_impl(name)
        if param is None:
            if value is None:
                raise KeyError("No constant named '{}'. Please specify value if you want to create "
                               "a new constant.".format(name))
            param = Constant(name, value)
            param._adopted = True
            self._params[name] = param
        elif value is not None:
            if not isinstance(param, Constant):
                raise AssertionError("Parameter '{}' already exists but it is not a constant.".format(name))
            value = value.asnumpy() if hasattr(value, 'asnumpy') else np.asarray(value)
            if param.shape != value.shape or not (param.value.asnumpy() == value).all():
                raise AssertionError("Constant '{}' already exists but it's value doesn't match new "
                                 "value".format(name))
        return param

    def update(self, other):
        """Add every Parameter of ``other`` (same names must mean the same Parameter)."""
        for k, v in other.items():
            if k in self._params and self._params[k] is not v:
                raise AssertionError("Cannot update self with other because they have different "
                                 "Parameters with the same name '%s'" % k)
        for k, v in other.items():
            self._params[k] = v

    def initialize(self, init=initializer.Uniform(), ctx=None, verbose=False, force_reinit=False):
        """Initialise every Parameter; ``init`` is the default for those without their own."""
        if verbose and hasattr(init, 'set_verbosity'):
            init.set_verbosity(verbose=verbose)
        for v in self.values():
            v.initialize(None, ctx, init, force_reinit=force_reinit)

    def zero_grad(self):
        for p in self.values():
            p.zero_grad()

    def reset_ctx(self, ctx):
        for p in self.values():
            p.reset_ctx(ctx)

    def list_ctx(self):
        seen = []
        for p in self.values():
            for c in p.list_ctx():
                if c not in seen:
                    seen.append(c)
        return seen

    def setattr(self, name, value):
        """Set an attribute on every Parameter (``setattr('grad_req', 'null')``)."""
        for p in self.values():
            setattr(p, name, value)

    def save(self, filename, strip_prefix=''):
        """Save to ``filename`` with full names (minus ``strip_prefix``)."""
        from ..ndarray import save
        arg_dict = {}
        for param in self.values():
            if not param.name.startswith(strip_prefix):
                raise ValueError(
                    "Prefix '%s' is to be striped before saving, but Parameter's name '%s' does not "
                    "start with '%s'. This may be due to your Block shares parameters from other "
                    "Blocks or you forgot to use 'with name_scope()' when creating child blocks."
                    % (strip_prefix, param.name, strip_prefix))
            arg_dict[param.name[len(strip_prefix):]] = param._reduce()
        save(filename, arg_dict)

    def load(self, filename, ctx=None, allow_missing=False, ignore_extra=False, restore_prefix='',
             cast_dtype=False, dtype_source='current'):
        """Load a file of named arrays (``arg:``/``aux:`` names too) into these Parameters."""
        if restore_prefix:
            for name in self.keys():
                if not name.startswith(restore_prefix):
                    raise AssertionError("restore_prefix is '%s' but Parameters name '%s' does not start "
                                     "with '%s'." % (restore_prefix, name, restore_prefix))
        loaded = _load_file(filename, 'ParameterDict.load')
        self.load_dict(loaded, ctx, allow_missing, ignore_extra, restore_prefix, filename,
                       cast_dtype, dtype_source)

    def load_dict(self, param_dict, ctx=None, allow_missing=False, ignore_extra=False,
                  restore_prefix='', filename=None, cast_dtype=False, dtype_source='current'):
        """Load from a dict name -> NDArray; everything is checked before anything is assigned."""
        items = param_dict.items() if isinstance(param_dict, dict) else param_dict
        arg_dict = {restore_prefix + _strip_arg_aux(k): v for k, v in items}
        source = "file '%s'" % filename if filename else 'param_dict'
        resolved = [(name, p, name if name in arg_dict else None) for name, p in self.items()]
        owner = "ParameterDict '%s'" % self._prefix if self._prefix else 'ParameterDict'
        assign_checked(resolved, set(self.keys()), arg_dict, source, owner,
                       allow_missing, ignore_extra, ctx, cast_dtype, dtype_source)


def _strip_arg_aux(name):
    return name[4:] if name.startswith(('arg:', 'aux:')) else name


def _load_file(filename, who):
    """mx.nd.load, with errors that say which file could not be read and why; files of either
    shape semantics load (MXNet refuses legacy files under npx.set_np())."""
    from ..ndarray._io import load_any
    try:
        loaded = load_any(filename)
    except FileNotFoundError:
        raise MXNetError("%s: parameter file '%s' does not exist" % (who, filename)) from None
    except MXNetError as err:
        raise MXNetError("%s: cannot read parameter file '%s': %s" % (who, filename, err)) from None
    except (OSError, ValueError, EOFError) as err:
        raise MXNetError("%s: cannot read parameter file '%s' (not an MXNet parameter file or "
                         "truncated): %s" % (who, filename, err)) from None
    if isinstance(loaded, list):
        if loaded:
            raise MXNetError("%s: '%s' holds %d unnamed arrays; a parameter file maps names to "
                             "arrays (save it with save_parameters or export)"
                             % (who, filename, len(loaded)))
        loaded = {}
    return loaded


def assign_checked(resolved, known, loaded, source, owner, allow_missing, ignore_extra, ctx,
                   cast_dtype=False, dtype_source='current', extra_error=AssertionError):
    """Check, then load: ``resolved`` lists (name, Parameter, key in ``loaded`` or None).

    ``known`` holds the keys of ``loaded`` that name a Parameter; the rest are extra.
    Missing Parameters, extra arrays, and shape or dtype mismatches are all found before any
    Parameter changes, so a failed load leaves the Block as it was. The exception types are
    MXNet's: AssertionError for missing Parameters and mismatches, ``extra_error`` for extra
    arrays (ValueError in Block.load_parameters, AssertionError in ParameterDict.load).
    """
    missing = [name for name, _, key in resolved if key is None]
    if missing and not allow_missing:
        raise AssertionError(
            "%s: Parameter%s %s %s missing in %s, which contains parameters: %s. Set "
            "allow_missing=True to ignore missing parameters."
            % (owner, 's' if len(missing) > 1 else '', _brief_print_list(missing),
               'are' if len(missing) > 1 else 'is', source, _brief_print_list(sorted(loaded))))
    position = {k: i for i, k in enumerate(loaded)}
    todo, mismatch = [], None  # mismatch: (position in the file, message) of the first one
    for name, param, key in resolved:
        if key is None:
            continue
        message = param._check_loadable(loaded[key], cast_dtype, dtype_source, ctx)
        if message and (mismatch is None or position[key] < mismatch[0]):
            mismatch = (position[key], message)
        todo.append((param, loaded[key]))
    extra = [k for k in loaded if k not in known]
    # MXNet walks the file in order, so the first bad entry decides the exception type:
    # an extra name (extra_error) or a mismatched shape/dtype (AssertionError)
    if extra and not ignore_extra and (mismatch is None or position[extra[0]] < mismatch[0]):
        raise extra_error(
            "%s: Parameter%s %s loaded from %s %s not present in the Block, which contains "
            "parameters %s. Set ignore_extra=True to ignore."
            % (owner, 's' if len(extra) > 1 else '', _brief_print_list(extra), source,
               'are' if len(extra) > 1 else 'is', _brief_print_list([n for n, _, _ in resolved])))
    if mismatch:
        raise AssertionError('%s: %s (in %s)' % (owner, mismatch[1], source))
    for param, value in todo:
        param._load_init(value, ctx, cast_dtype=cast_dtype, dtype_source=dtype_source)


def __getattr__(name):
    if name == 'tensor_types':  # (Symbol, NDArray), resolved late: symbol imports gluon pieces
        return _tensor_types()
    raise AttributeError(name)
