"""Data-parallel executors: one bound graph per device, each running a slice of the batch.

``DataParallelExecutorGroup`` is what a ``Module`` runs on: it binds the symbol once per
context (shapes from the batch slice the context gets), keeps each parameter as one
array per device, loads a batch's slices, runs forward and backward on every device and
merges the outputs. A training forward runs forward *and* the gradients as one compiled
program per shapes (``_TrainExecutor`` on one device; on several, one ``shard_map`` program
over all of them); ``backward()`` then only stores the gradients.
"""
import logging

import jax
import jax.numpy as jnp
import numpy as np

from .. import _caches
from ..base import MXNetError, shape_str
from ..io import DataDesc
from ..ops import _tiers
from ..symbol.executor import Executor, _storage_types, _variable_contexts

__all__ = ['DataParallelExecutorGroup']


def _nd():
    from .. import ndarray
    return ndarray


def _split_input_slice(batch_size, work_load_list):
    """Slices of ``range(batch_size)`` proportional to ``work_load_list``."""
    total = float(sum(work_load_list))
    counts = [int(round(w * batch_size / total)) for w in work_load_list]
    counts[-1] = batch_size - sum(counts[:-1])
    slices, begin = [], 0
    for n in counts:
        end = min(begin + n, batch_size)
        if end <= begin:
            raise ValueError('The batch of %d samples is too small to split over %d devices with '
                             'workloads %s' % (batch_size, len(work_load_list), list(work_load_list)))
        slices.append(slice(begin, end))
        begin = end
    return slices


# (graph structure, differentiated arguments) -> the jitted forward-and-gradients program, shared by
# the executors of one graph: a Module bound anew (another grad_req, a rebind) compiles nothing new.
_fused_functions = _caches.lru_cache('module.fused_train_functions', 256)
# Graph structures whose training forward was followed by a backward with head gradients (a loss
# computed outside the graph): their gradients of ones would be thrown away, so such a forward
# runs alone and the backward compiles the graph's vjp, one program instead of two.
_given_heads = _caches.lru_cache('module.explicit_head_structures', 1024)


def _train_step(graph, diff_names):
    """The training forward of ``graph`` with the gradients of ``diff_names`` for head gradients
    of ones: ``(args, aux, key) -> (outputs, new auxiliary states, gradients)``."""
    def run(args, aux, key):
        fixed = {n: v for n, v in args.items() if n not in diff_names}

        def f(diff):
            return graph(dict(fixed, **diff, **aux), True, key)
        outs, vjp, new_aux = jax.vjp(f, {n: args[n] for n in diff_names}, has_aux=True)
        grads = vjp([jnp.ones_like(o) for o in outs])[0]
        return outs, new_aux, grads
    return run


class _TrainExecutor(Executor):
    """An Executor whose training forward also computes the gradients in the same program.

    ``forward(is_train=True)`` runs ``outputs, new_aux, grads = f(args, aux, key)`` (head
    gradients ones, which loss operators ignore), keeps the gradients, and
    ``backward()`` without head gradients writes them; with head gradients it runs the
    executor's own backward program (and later training forwards of the graph run alone).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pending = None
        self._alone = None
        names = self._fn.arg_names
        self._diff_names = tuple(n for n in names if self._grad_req[n] != 'null'
                                 and jnp.issubdtype(self.arg_dict[n].dtype, jnp.inexact))

    def _fused(self):
        fn = self._jit.get('fused')
        if fn is None:
            shared_key = (self._fn.structure_key, self._diff_names)
            fn = _fused_functions.get(shared_key)
            if fn is None:
                fn = _fused_functions[shared_key] = self._make_fused()
            self._jit['fused'] = fn
        return fn

    def _make_fused(self):
        return _tiers.jit(_train_step(self._fn, self._diff_names))

    def _forward_alone(self):
        """Whether a training forward runs without the gradients: the graph's backward is given
        head gradients (decided once per executor from what earlier executors of it saw)."""
        alone = self._alone
        if alone is None:
            alone = self._alone = self._fn.structure_key in _given_heads
        return alone

    def forward(self, is_train=False, **kwargs):
        if (not (is_train and self._diff_names) or kwargs or self._step_devices is not None
                or self._forward_alone()):
            self._pending = None
            return super().forward(is_train, **kwargs)
        from .. import random as _random
        key = _random.next_key(self._ctx) if self._fn.has_random else None
        args, aux = self._jax_inputs()
        outs, new_aux, grads = self._fused()(args, aux, key)
        self._last = (args, aux, key, True)
        self._pending = grads
        for name, value in new_aux.items():
            self.aux_dict[name]._set_data(value)
        NDArray = _nd().NDArray
        self._outputs = [NDArray._from_jax(o, self._ctx) for o in outs]
        if self._monitor is not None:
            self._monitor(self)
        return self._outputs

    def backward(self, out_grads=None, is_train=True):
        self._backward(out_grads, is_train)
        report = getattr(self, '_monitor_backward', None)
        if report is not None:
            report(self)

    def _backward(self, out_grads, is_train):
        pending, self._pending = self._pending, None
        if out_grads is not None and pending is not None:
            _given_heads[self._fn.structure_key] = True
            self._alone = True
        if out_grads is not None or pending is None:
            return super().backward(out_grads, is_train)
        for name in self._diff_names:
            target = self.grad_dict[name]
            g = pending[name]
            if g.dtype != target._data.dtype:
                g = g.astype(target._data.dtype)
            self._store_gradient(name, target, g)


def _first(a, b):
    return a if a is not None else b


def _batch_axis(desc):
    layout = getattr(desc, 'layout', None)
    return DataDesc.get_batch_axis(layout)


def _as_desc(shape):
    """A DataDesc from a DataDesc or a (name, shape) pair."""
    return shape if isinstance(shape, DataDesc) else DataDesc(*shape)


class DataParallelExecutorGroup:
    """The executors of one symbol over ``contexts``, each given a share of the batch.

    Parameters
    ----------
    symbol : Symbol
    contexts : list of Context
    workload : list of float
        The relative share of the batch each context gets.
    data_shapes, label_shapes : list of DataDesc
    param_names : list of str
        The arguments that are parameters (not data, labels or states).
    for_training, inputs_need_grad : bool
    shared_group : DataParallelExecutorGroup, optional
        Reuse its parameter arrays (BucketingModule): parameters are shared.
    fixed_param_names : list of str
        Parameters that are not trained (no gradient).
    grad_req : str, list or dict
    state_names : list of str

    On several devices a training forward runs every device's forward and backward as one
    compiled program (``shard_map`` over the devices, each on its own slice and its own copy
    of the parameters), so a new shape compiles once, not once per device; set the class
    attribute ``one_program = False`` for one program per device.
    """
    one_program = True

    def __init__(self, symbol, contexts, workload, data_shapes, label_shapes, param_names,
                 for_training, inputs_need_grad, shared_group=None, logger=logging,
                 fixed_param_names=None, grad_req='write', state_names=None, group2ctxs=None):
        self.param_names = list(param_names)
        self.arg_names = symbol.list_arguments()
        self.aux_names = symbol.list_auxiliary_states()
        self.symbol = symbol
        self.contexts = list(contexts)
        self.workload = list(workload)
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self.logger = logger
        self.fixed_param_names = list(fixed_param_names or [])
        self.state_names = list(state_names or [])
        self.shared_group = shared_group
        self.group2ctxs = group2ctxs
        self.execs = []
        self._default_execs = None
        self.data_shapes = None
        self.label_shapes = None
        self.data_names = None
        self.label_names = None
        self.data_layouts = None
        self.label_layouts = None
        self.output_names = symbol.list_outputs()
        self.output_layouts = [DataDesc.get_batch_axis(symbol[i].attr('__layout__'))
                               for i in range(len(self.output_names))]
        self.num_outputs = len(self.output_names)
        data_shapes = [_as_desc(d) for d in data_shapes]
        label_shapes = [_as_desc(d) for d in label_shapes] if label_shapes else label_shapes
        # per device, the arrays of the arguments that are not parameters (data, labels), by
        # name; a group bound with a shared_group fills and reads that group's dicts, so
        # modules of equal input shapes (buckets) share their input arrays, as in MXNet
        self.shared_data_arrays = (shared_group.shared_data_arrays if shared_group is not None
                                   else [{} for _ in self.contexts])
        self.grad_req = self._grad_reqs(grad_req, data_shapes, label_shapes)
        self.bind_exec(data_shapes, label_shapes, shared_group)

    def _grad_reqs(self, grad_req, data_shapes, label_shapes):
        data_names = [d.name for d in data_shapes]
        if isinstance(grad_req, str):
            reqs = {}
            for name in self.arg_names:
                if name in self.param_names:
                    reqs[name] = 'null' if name in self.fixed_param_names else grad_req
                elif name in data_names:
                    reqs[name] = grad_req if self.inputs_need_grad else 'null'
                else:
                    reqs[name] = 'null'
        elif isinstance(grad_req, (list, tuple)):
            if len(grad_req) != len(self.arg_names):
                raise ValueError('grad_req has %d entries, the symbol has %d arguments (%s)'
                                 % (len(grad_req), len(self.arg_names), ', '.join(self.arg_names)))
            reqs = dict(zip(self.arg_names, grad_req))
        elif isinstance(grad_req, dict):
            reqs = {}
            for name in self.arg_names:
                if name in self.param_names:
                    reqs[name] = 'null' if name in self.fixed_param_names else 'write'
                elif name in data_names:
                    reqs[name] = 'write' if self.inputs_need_grad else 'null'
                else:
                    reqs[name] = 'null'
            reqs.update(grad_req)
        else:
            raise ValueError('grad_req must be a str, list or dict, got %s' % type(grad_req).__name__)
        if not self.for_training:
            reqs = dict.fromkeys(reqs, 'null')
        return reqs

    # ---- binding ---------------------------------------------------------------------------
    def decide_slices(self, data_shapes):
        """The batch size and each context's slice of it (checked across inputs)."""
        if not data_shapes:
            raise ValueError('bind: no data shapes given')
        major_axis = [_batch_axis(d) for d in data_shapes]
        batch_size = None
        for desc, axis in zip(data_shapes, major_axis):
            if axis == -1:
                continue
            size = desc.shape[axis]
            if batch_size is None:
                batch_size = size
            elif size != batch_size:
                raise ValueError('all data must have the same batch size: batch_size = %d, but %s has '
                                 'shape %s' % (batch_size, desc.name, shape_str(desc.shape)))
        self.batch_size = batch_size
        self.slices = _split_input_slice(batch_size, self.workload)
        return major_axis

    def _sliced_shape(self, shapes, i, major_axis):
        out = []
        for desc, axis in zip(shapes, major_axis):
            shape = list(desc.shape)
            if axis >= 0:
                shape[axis] = self.slices[i].stop - self.slices[i].start
            out.append(DataDesc(desc.name, tuple(shape), desc.dtype, desc.layout))
        return out

    def _group2ctx(self, i):
        """The ``group2ctx`` of the i-th device's executor: ``group2ctxs`` is one dict for all
        devices (a group's value a context, or a list of one, or of one per device) or a list of dicts."""
        spec = self.group2ctxs
        if not spec:
            return None
        if isinstance(spec, (list, tuple)):
            if len(spec) != len(self.contexts):
                raise ValueError('group2ctxs: %d dicts for %d contexts' % (len(spec), len(self.contexts)))
            return spec[i]
        picked = {}
        for group, where in spec.items():
            if isinstance(where, (list, tuple)):
                if len(where) == 1:  # one context for every device, as MXNet reads it
                    where = list(where) * len(self.contexts)
                if len(where) != len(self.contexts):
                    raise ValueError('group2ctxs: group %r has %d contexts for %d devices'
                                     % (group, len(where), len(self.contexts)))
                where = where[i]
            picked[group] = where
        return picked

    def bind_exec(self, data_shapes, label_shapes, shared_group=None, reshape=False):
        """Bind one executor per context for these shapes (arrays of equal shapes are kept)."""
        self.batch_size = None
        self._check_label_names(label_shapes)
        self.data_layouts = self.decide_slices(data_shapes)
        self.label_layouts = [_batch_axis(d) for d in label_shapes] if label_shapes else None
        old = self.execs
        self.execs = []
        for i in range(len(self.contexts)):
            dshapes = self._sliced_shape(data_shapes, i, self.data_layouts)
            lshapes = self._sliced_shape(label_shapes, i, self.label_layouts) if label_shapes else []
            prev = old[i] if reshape and old else None
            shared = shared_group.execs[i] if shared_group is not None else None
            self.execs.append(self._bind_ith_exec(i, dshapes, lshapes, shared, prev))
        self.data_shapes = list(data_shapes)
        self.label_shapes = list(label_shapes) if label_shapes else None
        self.data_names = [d.name for d in data_shapes]
        self.label_names = [d.name for d in label_shapes] if label_shapes else []
        self._spmd = None   # the one-program training step, built on first use for these shapes
        self._collect_arrays()

    def _check_label_names(self, label_shapes):
        """Every label given must be an input of the symbol: a KeyError naming it, as MXNet 1.9.1
        raises (the usual sign of an iterator's label name differing from the symbol's)."""
        for desc in label_shapes or []:
            if desc.name not in self.arg_names:
                raise KeyError('bind: label %r is not an input of the symbol (its arguments: %s)'
                               % (desc.name, ', '.join(self.arg_names)))

    def _bind_ith_exec(self, i, data_shapes, label_shapes, shared_exec, prev_exec):
        ctx = self.contexts[i]
        nd = _nd()
        input_shapes = {d.name: tuple(d.shape) for d in list(data_shapes) + list(label_shapes)}
        input_types = {d.name: d.dtype for d in list(data_shapes) + list(label_shapes)}
        try:
            arg_shapes, _, aux_shapes = self.symbol.infer_shape(**input_shapes)
        except MXNetError as err:
            given = ', '.join('%s: %s' % (n, s) for n, s in input_shapes.items())
            raise ValueError('bind: the input shapes (%s) do not fit the symbol: %s' % (given, err)) from None
        if arg_shapes is None:
            given = ', '.join('%s: %s' % (n, s) for n, s in input_shapes.items())
            raise ValueError('bind: the input shapes (%s) do not determine every argument shape of the '
                             'symbol (arguments %s)' % (given, ', '.join(self.arg_names)))
        try:
            arg_types, _, aux_types = self.symbol.infer_type(**input_types)
        except MXNetError:
            arg_types = aux_types = None
        if arg_types is None:
            arg_types = [None] * len(arg_shapes)
            aux_types = [None] * len(aux_shapes)

        def dtype(t):
            return np.dtype(t) if t is not None else np.dtype(np.float32)

        def reuse(source, name, shape, dt):
            """The array of ``name`` in an executor being replaced or shared, if it fits."""
            if source is None:
                return None
            arr = source.get(name)
            if arr is not None and arr.shape == tuple(shape) and arr.dtype == dt:
                return arr
            return None

        args, grads, aux = [], [], []
        # row_sparse gradients where MXNet infers them (SparseEmbedding, Embedding(sparse_grad=True)):
        # the optimizer then updates only the rows a batch looked up (lazy_update)
        # parameters in their variables' storage (a row_sparse weight, for row_sparse_pull)
        arg_stypes, grad_stypes = _storage_types(self.symbol, {})
        shared_args = shared_exec.arg_dict if shared_exec is not None else None
        shared_grads = shared_exec.grad_dict if shared_exec is not None else None
        prev_args = prev_exec.arg_dict if prev_exec is not None else None
        prev_grads = prev_exec.grad_dict if prev_exec is not None else None
        shared_data = self.shared_data_arrays[i]
        group2ctx = self._group2ctx(i)
        where = _variable_contexts(self.symbol, ctx, group2ctx)  # model parallelism: per ctx_group
        for name, shape, t in zip(self.arg_names, arg_shapes, arg_types):
            dt = dtype(t)
            is_param = name in self.param_names
            arr = _first(reuse(shared_args if is_param else shared_data, name, shape, dt),
                         reuse(prev_args, name, shape, dt))
            if arr is None:
                if is_param and shared_args is not None and name in shared_args:
                    raise ValueError('bind: parameter %r has shape %s here but %s in the shared module'
                                     % (name, shape_str(shape), shape_str(shared_args[name].shape)))
                arr = nd.zeros(shape, ctx=where.get(name, ctx), dtype=dt,
                               stype=arg_stypes.get(name, 'default') if is_param else 'default')
            if not is_param:
                shared_data[name] = arr
            args.append(arr)
            if self.grad_req[name] == 'null':
                grads.append(None)
            else:
                g = _first(reuse(shared_grads, name, shape, dt) if is_param else None,
                           reuse(prev_grads, name, shape, dt))
                grads.append(g if g is not None else nd.zeros(shape, ctx=where.get(name, ctx), dtype=dt,
                                                              stype=grad_stypes.get(name, 'default')))
        shared_aux = shared_exec.aux_dict if shared_exec is not None else None
        prev_aux = prev_exec.aux_dict if prev_exec is not None else None
        for name, shape, t in zip(self.aux_names, aux_shapes, aux_types):
            dt = dtype(t)
            arr = _first(reuse(shared_aux, name, shape, dt), reuse(prev_aux, name, shape, dt))
            aux.append(arr if arr is not None else nd.zeros(shape, ctx=where.get(name, ctx), dtype=dt))
        exe = _TrainExecutor(self.symbol, ctx, args, grads, dict(self.grad_req), aux, group2ctx)
        if self.execs and not group2ctx:  # the devices run the same graph: trace it once (jit specialises per device)
            exe._fn = self.execs[0]._fn
            exe._jit = self.execs[0]._jit
        if prev_exec is not None and prev_exec._monitor is not None:
            exe._monitor = prev_exec._monitor
            exe._monitor_backward = getattr(prev_exec, '_monitor_backward', None)
        return exe

    def _collect_arrays(self):
        execs = self.execs
        self.data_arrays = [[(self.slices[i], e.arg_dict[name]) for i, e in enumerate(execs)]
                            for name in self.data_names]
        self.label_arrays = [[(self.slices[i], e.arg_dict[name]) for i, e in enumerate(execs)]
                             for name in self.label_names]
        self.state_arrays = [[e.arg_dict[name] for e in execs] for name in self.state_names]
        self.param_arrays = [[e.arg_arrays[i] for e in execs]
                             for i, name in enumerate(self.arg_names) if name in self.param_names]
        if self.for_training:
            self.grad_arrays = [[e.grad_arrays[i] for e in execs]
                                for i, name in enumerate(self.arg_names) if name in self.param_names]
        else:
            self.grad_arrays = None
        self.aux_arrays = [[e.aux_arrays[i] for e in execs] for i in range(len(self.aux_names))]
        if self.inputs_need_grad:
            self.input_grad_arrays = [[e.grad_dict[name] for e in execs] for name in self.data_names]
        else:
            self.input_grad_arrays = None

    def reshape(self, data_shapes, label_shapes):
        """Rebind for new input shapes, keeping every array whose shape is unchanged."""
        if data_shapes == self.data_shapes and label_shapes == self.label_shapes:
            return
        self.bind_exec(data_shapes, label_shapes, self.shared_group, reshape=True)

    # ---- parameters ------------------------------------------------------------------------
    def set_params(self, arg_params, aux_params, allow_extra=False):
        """Copy ``arg_params``/``aux_params`` into every device's arrays."""
        for exe in self.execs:
            exe.copy_params_from(arg_params, aux_params, allow_extra_params=allow_extra)

    def get_params(self, arg_params, aux_params):
        """Write the mean over devices of each parameter into ``arg_params``/``aux_params``."""
        nd = _nd()
        for names, arrays, target in ((self.param_names, self.param_arrays, arg_params),
                                      (self.aux_names, self.aux_arrays, aux_params)):
            for name, block in zip(names, arrays):
                if len(block) == 1:
                    value = block[0]._data
                else:
                    dev = block[0].context.jax_device
                    value = sum(jax.device_put(w._data, dev) for w in block) / len(block)
                dst = target.get(name)
                if dst is None:
                    target[name] = nd.NDArray._from_jax(value, block[0].context)
                else:
                    value = jax.device_put(value.astype(dst._data.dtype), dst.context.jax_device)
                    dst._set_data(value)

    # ---- running ---------------------------------------------------------------------------
    def _load(self, targets, sources, what, axes):
        nd = _nd()
        if len(sources) != len(targets):
            raise ValueError('forward: the batch has %d %s arrays, the module takes %d'
                             % (len(sources), what, len(targets)))
        for src, dsts, axis in zip(sources, targets, axes):
            if isinstance(src, nd.NDArray):
                data, src_ctx = src._data, src.context
            else:
                data, src_ctx = jnp.asarray(np.asarray(src)), None
            for slc, dst in dsts:
                if len(dsts) == 1 or axis < 0:
                    part = data
                else:
                    index = [slice(None)] * data.ndim
                    index[axis] = slc
                    part = data[tuple(index)]
                if part.shape != dst.shape:
                    raise ValueError('forward: %s array of shape %s does not fit the bound shape %s'
                                     % (what, shape_str(part.shape), shape_str(dst.shape)))
                if part.dtype != dst._data.dtype:
                    part = part.astype(dst._data.dtype)
                if len(dsts) > 1 or src_ctx != dst.context:  # already there: no copy, no dispatch
                    part = jax.device_put(part, dst.context.jax_device)
                dst._set_data(part)

    def forward(self, data_batch, is_train=None):
        """Load the batch's slices and run forward on every device."""
        self._load(self.data_arrays, data_batch.data, 'data', self.data_layouts)
        if is_train is None:
            is_train = self.for_training
        if self.label_arrays and data_batch.label:
            self._load(self.label_arrays, data_batch.label, 'label',
                       self.label_layouts or [0] * len(self.label_arrays))
        if is_train and self.one_program and self._spmd_forward():
            return
        for exe in self.execs:
            exe.forward(is_train=is_train)

    # ---- several devices, one program --------------------------------------------------------
    def _make_spmd(self):
        """The training forward+backward of every device as ONE compiled program (``shard_map``
        over the devices), or False where it does not apply (one device, unequal slices, 0-d
        arrays, nothing to differentiate, a key type that cannot be stacked, or model
        parallelism: ``group2ctxs`` puts each executor's nodes on several devices)."""
        execs = self.execs
        if len(execs) < 2 or not execs[0]._diff_names or self.group2ctxs:
            return False
        devices = [c.jax_device for c in self.contexts]
        if len(set(devices)) != len(devices):
            return False
        e0 = execs[0]
        for e in execs:
            if e._diff_names != e0._diff_names:
                return False
            for a, b in zip(e.arg_arrays + e.aux_arrays, e0.arg_arrays + e0.aux_arrays):
                if a.shape != b.shape or a.ndim == 0:
                    return False
        if any(len(o.shape) == 0 for o in e0.outputs):
            return False
        if e0._fn.has_random:
            from .. import random as _random
            if np.ndim(_random.next_key(e0._ctx)) == 0:
                return False
        from jax.sharding import Mesh, NamedSharding, PartitionSpec
        mesh = Mesh(np.array(devices), ('dev',))
        local = _train_step(e0._fn, e0._diff_names)
        spec = PartitionSpec('dev')
        fn = _tiers.jit(jax.shard_map(local, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=False))
        return fn, NamedSharding(mesh, spec), devices

    def _spmd_forward(self):
        """Run the training step of all devices as one program; False when it does not apply."""
        if self._spmd is None:
            self._spmd = self._make_spmd()
        if self._spmd is False:
            return False
        fn, sharding, devices = self._spmd
        execs = self.execs
        e0 = execs[0]
        per_dev = [e._jax_inputs() for e in execs]
        keys = None
        if e0._fn.has_random:
            from .. import random as _random
            keys = [_random.next_key(e._ctx) for e in execs]

        def stacked(vals):
            # each device's array is one block of a global array split over the devices on axis 0
            v0 = vals[0]
            return jax.make_array_from_single_device_arrays(
                (len(vals) * v0.shape[0],) + tuple(v0.shape[1:]), sharding, vals)

        def split(arr):
            by_device = {shard.device: shard.data for shard in arr.addressable_shards}
            return [by_device[d] for d in devices]
        args = {n: stacked([pd[0][n] for pd in per_dev]) for n in e0._fn.arg_names}
        aux = {n: stacked([pd[1][n] for pd in per_dev]) for n in e0._fn.aux_names}
        key = stacked(keys) if keys is not None else None
        outs, new_aux, grads = fn(args, aux, key)
        outs = [split(o) for o in outs]
        new_aux = {n: split(v) for n, v in new_aux.items()}
        grads = {n: split(v) for n, v in grads.items()}
        NDArray = _nd().NDArray
        for k, e in enumerate(execs):
            e._last = (per_dev[k][0], per_dev[k][1], keys[k] if keys is not None else None, True)
            e._pending = {n: g[k] for n, g in grads.items()}
            for n, v in new_aux.items():
                e.aux_dict[n]._set_data(v[k])
            e._outputs = [NDArray._from_jax(o[k], e._ctx) for o in outs]
            if e._monitor is not None:
                e._monitor(e)
        return True

    def backward(self, out_grads=None):
        """Gradients on every device (``out_grads`` are split like the batch)."""
        if not self.for_training:
            raise AssertionError('re-bind with for_training=True to run backward')
        if out_grads is None:
            for exe in self.execs:
                exe.backward()
            return
        nd = _nd()
        if isinstance(out_grads, nd.NDArray):
            out_grads = [out_grads]
        for i, exe in enumerate(self.execs):
            if len(self.execs) == 1:
                exe.backward(out_grads=list(out_grads))
                continue
            parts = []
            for grad, axis in zip(out_grads, self.output_layouts):
                if axis >= 0:
                    idx = [slice(None)] * grad.ndim
                    idx[axis] = self.slices[i]
                    g = grad._data[tuple(idx)]
                else:
                    g = grad._data
                parts.append(nd.NDArray._from_jax(jax.device_put(g, self.contexts[i].jax_device),
                                                  self.contexts[i]))
            exe.backward(out_grads=parts)

    def _merge(self, per_device, axes):
        nd = _nd()
        merged = []
        for arrays, axis in zip(per_device, axes):
            if len(arrays) == 1 or axis < 0:
                merged.append(arrays[0])
            else:
                ctx = arrays[0].context
                dev = ctx.jax_device
                merged.append(nd.NDArray._from_jax(
                    jnp.concatenate([jax.device_put(a._data, dev) for a in arrays], axis=axis), ctx))
        return merged

    def get_outputs(self, merge_multi_context=True, begin=0, end=None):
        """The outputs: merged over devices (a list of arrays) or per device (lists of lists)."""
        end = self.num_outputs if end is None else end
        outputs = [[exe.outputs[i] for exe in self.execs] for i in range(begin, end)]
        if merge_multi_context:
            return self._merge(outputs, self.output_layouts[begin:end])
        return outputs

    def get_states(self, merge_multi_context=True):
        if merge_multi_context:
            return self._merge(self.state_arrays, [0] * len(self.state_arrays))
        return self.state_arrays

    def set_states(self, states=None, value=None):
        # AssertionErrors for the misuse, as MXNet 1.9.1 asserts
        if states is not None:
            if value is not None:
                raise AssertionError('set_states: give states or value, not both')
            for dsts, srcs in zip(self.state_arrays, states):
                for d, s in zip(dsts, srcs):
                    s.copyto(d)
        else:
            if value is None:
                raise AssertionError('set_states: give states or value')
            for dsts in self.state_arrays:
                for d in dsts:
                    d[:] = value

    def get_input_grads(self, merge_multi_context=True):
        if not self.inputs_need_grad:
            raise AssertionError('bind with inputs_need_grad=True to get input gradients')
        if merge_multi_context:
            return self._merge(self.input_grad_arrays, self.data_layouts)
        return self.input_grad_arrays

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Update ``eval_metric`` with each device's outputs and its slice of ``labels``."""
        from collections import OrderedDict
        nd = _nd()
        for i, exe in enumerate(self.execs):
            if pre_sliced:
                labels_slice = labels[i]
            elif len(self.execs) == 1:
                labels_slice = labels
            else:
                labels_slice = []
                for label, axis in zip(labels, self.label_layouts or [0] * len(labels)):
                    if axis >= 0:
                        idx = [slice(None)] * label.ndim
                        idx[axis] = self.slices[i]
                        labels_slice.append(nd.NDArray._from_jax(label._data[tuple(idx)], label.context))
                    else:
                        labels_slice.append(label)
            labels_ = OrderedDict(zip(self.label_names, labels_slice))
            preds = OrderedDict(zip(self.output_names, exe.outputs))
            eval_metric.update_dict(labels_, preds)

    def install_monitor(self, mon):
        for exe in self.execs:
            mon.install(exe)

    def get_output_shapes(self):
        """``[(name, shape)]`` of the outputs for the whole batch."""
        shapes = []
        for name, out, axis in zip(self.output_names, self.execs[0].outputs, self.output_layouts):
            shape = list(out.shape)
            if axis >= 0 and shape:
                shape[axis] = self.batch_size
            shapes.append((name, tuple(shape)))
        return shapes
