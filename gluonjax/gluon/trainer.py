"""``gluon.Trainer``: applies an Optimizer to a set of Parameters after ``backward``.

    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    with autograd.record():
        loss = loss_fn(net(data), label)
    loss.backward()
    trainer.step(data.shape[0])          # gradients are scaled by 1 / batch_size

``step`` updates every Parameter of a device in *one* compiled call (the optimizer's
optax transformation over all weights, gradients and states at once; see
``gluonjax/optimizer/optimizer.py``), so a step costs one dispatch, not one per weight.

Several devices (``initialize(ctx=[...])``): gradients are summed over the devices by the
``kvstore`` package (an XLA all-reduce). Where the optimizer runs follows MXNet's rules
(``update_on_kvstore=None``): in the store when there is one (``trainer._kvstore._updater``,
one compiled update for all keys, the result copied to every device), unless
``MXNET_UPDATE_ON_KVSTORE=0``; on the devices (each applies the same update to its copy)
with ``update_on_kvstore=False`` or a row_sparse gradient of a dense weight. A row_sparse
weight is always updated in a store, made even for one device; it is read by rows
(``Parameter.row_sparse_data``).

Stale gradients are found as MXNet finds them: backward marks each gradient fresh
(the arrays' ``_fresh_grad``, MXNet's name) and ``step`` clears the mark.
"""
import numbers

import jax

from .. import optimizer as opt
from .._x64 import x64
from ..base import MXNetError, upper_layer
from ..numpy.multiarray import ndarray as _np_ndarray
from .parameter import Parameter, ParameterDict

__all__ = ['Trainer']


def _kvstore_package():
    """The ``kvstore`` package (a layer above gluon: reached through base.upper_layer), or None
    when it is not installed."""
    try:
        return upper_layer('kvstore')
    except ImportError:
        return None


class Trainer:
    """Applies an Optimizer on a set of Parameters (MXNet's ``gluon.Trainer``).

    Parameters
    ----------
    params : ParameterDict, dict or list of Parameter
        The Parameters to optimize (a dict is taken in sorted key order, as MXNet does).
    optimizer : str or Optimizer
        An optimizer name (``'sgd'``, ``'adam'``, ...) or instance.
    optimizer_params : dict, optional
        Keyword arguments of the optimizer, e.g. ``{'learning_rate': 0.1}``; must be empty
        when ``optimizer`` is an instance.
    kvstore : str, KVStore or None, default 'device'
        How gradients are summed across devices ('device', 'local', 'nccl', 'dist_sync',
        ...). With one device and a non-dist name no store is used.
    compression_params : dict, optional
        Gradient compression (not supported by gluonjax's stores: an error when a store is used).
    update_on_kvstore : bool, optional
        Run the optimizer in the store. None: update on the devices (see the module doc).

    Properties
    ----------
    learning_rate : float
        The optimizer's current learning rate.
    optimizer : Optimizer
    """

    def __init__(self, params, optimizer, optimizer_params=None, kvstore='device',
                 compression_params=None, update_on_kvstore=None):
        if isinstance(params, (dict, ParameterDict)):
            params = [params[key] for key in sorted(list(params.keys()))]
        if not isinstance(params, (list, tuple)):
            raise ValueError('First argument must be a list or dict of Parameters, got %s.' % (type(params)))
        self._params = []
        self._contains_sparse_weight = False
        self._contains_sparse_grad = False
        self._param2idx = {}
        for i, param in enumerate(params):
            if not isinstance(param, Parameter):
                raise ValueError('First argument must be a list or dict of Parameters, got list of %s.'
                                 % (type(param)))
            if param.name in self._param2idx:
                raise MXNetError('Trainer: Parameter %r is given twice; pass each Parameter once'
                                 % param.name)
            self._param2idx[param.name] = i
            self._params.append(param)
            self._contains_sparse_weight |= param._stype == 'row_sparse'
            self._contains_sparse_grad |= param._grad_stype == 'row_sparse'
            param._set_trainer(self)
        if not self._params:
            raise MXNetError('Trainer: no Parameters to optimize (an empty ParameterDict or list)')
        if update_on_kvstore not in (None, True, False):
            raise MXNetError('Trainer: update_on_kvstore must be None, True or False, not %r'
                             % (update_on_kvstore,))
        self._compression_params = compression_params
        self._contexts = self._check_contexts()
        if not optimizer_params:  # as MXNet: None, '' or [] mean no parameters
            optimizer_params = {}
        self._init_optimizer(optimizer, optimizer_params)
        self._scale = self._optimizer.rescale_grad
        self._kvstore_params = {'kvstore': kvstore, 'update_on_kvstore': update_on_kvstore}
        self._kv_initialized = False
        self._kvstore = None
        self._update_on_kvstore = None
        self._distributed = None
        self._params_to_init = []
        self._reset_kvstore()

    def _check_contexts(self):
        contexts = None
        for param in self._params:
            ctx = param.list_ctx()
            if contexts is not None and contexts != ctx:
                raise MXNetError('All Parameters must be initialized on the same set of contexts, but '
                                 'Parameter %s is initialized on %s while previous Parameters are '
                                 'initialized on %s.' % (param.name, str(ctx), str(contexts)))
            contexts = ctx
        return contexts

    def _init_optimizer(self, optimizer, optimizer_params):
        param_dict = {i: param for i, param in enumerate(self._params)}
        if isinstance(optimizer, opt.Optimizer):
            if optimizer_params:
                raise AssertionError('optimizer_params must be None if optimizer is an instance of '
                                     'Optimizer instead of str')
            self._optimizer = optimizer
            # not copied: changing a Parameter's lr_mult or wd_mult later takes effect
            self._optimizer.param_dict = param_dict
        elif isinstance(optimizer, str):
            if not isinstance(optimizer_params, dict):  # MXNet's **optimizer_params fails so
                raise TypeError('Trainer: optimizer_params must be a dict such as {"learning_rate": 0.1}, '
                                'not %s' % type(optimizer_params).__name__)
            self._optimizer = opt.create(optimizer, param_dict=param_dict, **optimizer_params)
        else:  # MXNet fails calling optimizer.lower()
            raise AttributeError('Trainer: optimizer must be a name such as "sgd" or an Optimizer, not %s'
                                 % type(optimizer).__name__)
        self._updaters = [opt.get_updater(self._optimizer) for _ in self._contexts]

    # ---- the store -----------------------------------------------------------------------
    def _reset_kvstore(self):
        """Forget the store (Parameter.reset_ctx calls this); it is made again at the next step."""
        if self._kvstore and 'dist' in self._kvstore.type:
            raise RuntimeError('Cannot reset distributed KVStore.')
        self._kv_initialized = False
        self._kvstore = None
        self._distributed = None
        self._update_on_kvstore = None
        self._params_to_init = list(self._params)

    def _init_kvstore(self):
        """Create the store and choose where the optimizer runs, by MXNet's rules: a row_sparse
        weight is always updated in a store (made even for one device); a dense weight with a
        row_sparse gradient on the devices, unless distributed; dense ones in the store when
        there is one (several devices or 'dist'), unless ``MXNET_UPDATE_ON_KVSTORE=0``."""
        config = self._kvstore_params
        name = config['kvstore']
        wanted = config['update_on_kvstore']
        kvpkg = _kvstore_package()
        if kvpkg is None:
            if isinstance(name, str) and 'dist' in name:
                raise MXNetError("Trainer: kvstore %r needs the 'kvstore' package, which is not "
                                 'installed' % name)
            kv, update_on_kvstore = None, False
        elif self._contains_sparse_weight:
            kv, update_on_kvstore = self._sparse_weight_store(kvpkg, name, wanted)
        else:
            arg_arrays = {param.name: param._check_and_get(param._data, self._contexts[0])
                          for param in self._params if not param._deferred_init}
            kv, update_on_kvstore = kvpkg._create_kvstore(name, len(self._contexts), arg_arrays)
            if self._contains_sparse_grad:
                update_on_kvstore = bool(kv is not None and 'dist' in kv.type)
                if wanted is False and update_on_kvstore:
                    raise ValueError('Cannot set update_on_kvstore=False on dist kvstore when sparse '
                                     'gradients are present.')
        self._distributed = bool(kv is not None and 'dist' in kv.type)
        if kv is not None:
            if self._distributed and 'async' in kv.type:
                if wanted is False:
                    raise ValueError('Please set update_on_kvstore=True when training in async mode.')
                update_on_kvstore = True
            if wanted is not None:
                update_on_kvstore = wanted
            if update_on_kvstore and not kv.is_capable('optimizer'):
                if wanted:
                    raise ValueError('Please set update_on_kvstore=False when training with {}'
                                     .format(type(kv)))
                update_on_kvstore = False
            if self._compression_params:
                kv.set_gradient_compression(self._compression_params)
            if update_on_kvstore:
                kv.set_optimizer(self._optimizer)
        self._kvstore = kv
        self._update_on_kvstore = update_on_kvstore if kv is not None else None
        self._kv_initialized = True

    @staticmethod
    def _sparse_weight_store(kvpkg, name, wanted):
        """The store of row_sparse weights: always one, always running the optimizer."""
        if wanted is False:
            raise ValueError('Cannot set update_on_kvstore=False when sparse weights are present.')
        if isinstance(name, kvpkg.KVStoreBase):
            kv = name
        elif isinstance(name, str):
            kv = kvpkg.create(name)
        else:
            raise TypeError("Cannot create '%s' KVStore with row_sparse parameters. The type must "
                            'be KVStore or str.' % name)
        if not kv.is_capable('optimizer'):
            raise AssertionError('KVStore with sparse weight requires optimizer support. Please use '
                                 'KVStore with optimizer support, e.g. "local" or "device".')
        return kv, True

    def _init_params(self):
        """Give the store the initial weights (every device starts from the first's copy)."""
        waiting = []
        for param in self._params_to_init:
            if param._deferred_init:
                waiting.append(param)
            elif self._kvstore is not None:
                arrays = param._arrays()
                self._kvstore.broadcast(self._param2idx[param.name], arrays[0], arrays)
        self._params_to_init = waiting

    def _prepare(self):
        if not self._kv_initialized:
            self._init_kvstore()
        if self._params_to_init:
            self._init_params()

    # ---- learning rate -------------------------------------------------------------------
    @property
    def learning_rate(self):
        if not isinstance(self._optimizer, opt.Optimizer):
            raise UserWarning('Optimizer has to be defined before its learning rate can be accessed.')
        return self._optimizer.learning_rate

    @property
    def optimizer(self):
        if isinstance(self._optimizer, opt.Optimizer):
            return self._optimizer
        raise UserWarning('Optimizer has not been initialized yet')

    def set_learning_rate(self, lr):
        """Set the optimizer's learning rate (a number; not allowed with an lr_scheduler)."""
        if not isinstance(self._optimizer, opt.Optimizer):
            raise UserWarning('Optimizer has to be defined before its learning rate is mutated.')
        self._optimizer.set_learning_rate(lr)

    # ---- stepping ------------------------------------------------------------------------
    def _check_and_rescale_grad(self, scale):
        if self._update_on_kvstore and self._distributed and self._kv_initialized:
            if self._optimizer.rescale_grad != scale:
                raise UserWarning('Possible change in the `batch_size` from previous `step` detected. '
                                  'Optimizer gradient normalizing factor will not change w.r.t new '
                                  'batch_size when update_on_kvstore=True and when distributed kvstore '
                                  'is used.')
        self._optimizer.rescale_grad = scale

    def _scale_for(self, batch_size, who):
        # MXNet passes the scale to its optimizer kernels as text, which parses for a 0-d
        # mx.np array only (d2l's train_seq2seq steps by ``Y_valid_len.sum()``)
        if isinstance(batch_size, _np_ndarray) and batch_size.ndim == 0:
            batch_size = batch_size.item()
        what = ('Trainer.%s: batch_size must be a number or a 0-d mx.np array (the number of samples '
                'the gradients were summed over), got %r' % (who, batch_size))
        if hasattr(batch_size, 'shape'):  # an array MXNet's kernels cannot read as a scale
            raise MXNetError(what)
        if isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Real):
            raise TypeError(what)  # MXNet's scale / batch_size: a TypeError
        if batch_size == 0:
            raise ZeroDivisionError('Trainer.%s: batch_size is 0' % who)
        if not batch_size > 0:  # MXNet steps against the gradient then (docs/MIGRATING.md)
            raise MXNetError('Trainer.%s: batch_size must be positive, got %r' % (who, batch_size))
        return self._scale / batch_size

    def step(self, batch_size, ignore_stale_grad=False):
        """One update of every Parameter, after ``backward()`` and outside ``record()``.

        Gradients are summed over devices, scaled by ``1 / batch_size`` and given to the
        optimizer. ``ignore_stale_grad=True`` skips Parameters whose gradient backward
        did not write since the last step instead of raising.
        """
        rescale_grad = self._scale_for(batch_size, 'step')
        self._check_and_rescale_grad(rescale_grad)
        self._prepare()
        self._allreduce_grads()
        self._update(ignore_stale_grad)

    def allreduce_grads(self):
        """Sum the gradients over devices (``step`` = ``allreduce_grads`` + ``update``)."""
        self._prepare()
        if self._kvstore and self._update_on_kvstore:
            raise AssertionError('allreduce_grads() when parameters are updated on kvstore is not '
                             'supported. Try setting `update_on_kvstore` to False when creating trainer.')
        self._allreduce_grads()

    def _grad_params(self):
        return [(i, p) for i, p in enumerate(self._params) if p.grad_req != 'null']

    def _allreduce_grads(self):
        if self._kvstore is None:
            if len(self._contexts) > 1 and _kvstore_package() is None \
                    and self._kvstore_params['kvstore'] is not None:
                self._sum_grads_directly()
            return
        entries = self._grad_params()
        if not entries:
            return
        keys = [i for i, _ in entries]
        grads = [p.list_grad() for _, p in entries]
        if self._update_on_kvstore:
            self._kvstore.pushpull(keys, grads, out=[p._arrays() for _, p in entries])
        else:
            self._kvstore.pushpull(keys, grads)

    @x64
    def _sum_grads_directly(self):
        """Without the kvstore package: sum each gradient over devices, copy the sum back."""
        for _, param in self._grad_params():
            grads = param.list_grad()
            first = next(iter(grads[0]._data.devices()))
            total = grads[0]._data
            for g in grads[1:]:
                total = total + jax.device_put(g._data, first)
            for g in grads:
                g._set_data(jax.device_put(total, next(iter(g._data.devices()))))

    def update(self, batch_size, ignore_stale_grad=False):
        """Apply the optimizer to the (already summed) gradients (after ``allreduce_grads``)."""
        self._prepare()
        if self._kvstore and self._update_on_kvstore:
            raise AssertionError('update() when parameters are updated on kvstore is not supported. Try '
                             'setting `update_on_kvstore` to False when creating trainer.')
        self._check_and_rescale_grad(self._scale_for(batch_size, 'update'))
        self._update(ignore_stale_grad)

    def _update(self, ignore_stale_grad=False):
        loss_scaler = getattr(self, '_amp_loss_scaler', None)
        if loss_scaler is not None and loss_scaler.has_overflow(self._params):
            return  # skip on overflow
        local = not (self._kvstore and self._update_on_kvstore)
        updates = [([], [], []) for _ in self._updaters]
        for i, param in enumerate(self._params):
            if param.grad_req == 'null':
                continue
            datas = param._arrays()
            if not ignore_stale_grad:
                for data in datas:
                    if not data._fresh_grad:
                        raise UserWarning(  # MXNet's type for a stale gradient
                            'Gradient of Parameter `%s` on context %s has not been updated by backward '
                            'since last `step`. This could mean a bug in your model that made it only '
                            'use a subset of the Parameters (Blocks) for this iteration. If you are '
                            'intentionally only using a subset, call step with ignore_stale_grad=True '
                            'to suppress this warning and skip updating of Parameters with stale '
                            'gradient' % (param.name, str(data.context)))
            if not local:
                continue
            for (indices, grads, weights), arr, grad in zip(updates, datas, param.list_grad()):
                fresh = arr._fresh_grad
                if not ignore_stale_grad or fresh:
                    indices.append(i)
                    grads.append(grad)
                    weights.append(arr)
                    if fresh:
                        arr._fresh_grad = False
        if local:
            for updater, (indices, grads, weights) in zip(self._updaters, updates):
                if indices:
                    updater._update(indices, grads, weights)

    # ---- saving --------------------------------------------------------------------------
    def save_states(self, fname):
        """Save the optimizer and its states (momentum, ...) to ``fname``.

        The file is gluonjax's own format (a JSON header and the state arrays in MXNet's
        NDArray format), not MXNet's pickle. Parameters' lr_mult/wd_mult are not saved.
        """
        if self._optimizer is None:
            raise MXNetError('save_states: the Trainer has no optimizer')
        self._prepare()
        if self._update_on_kvstore:
            if self._params_to_init:
                raise MXNetError('Cannot save trainer states when some parameters are not yet '
                                 'initialized in kvstore.')
            self._kvstore.save_optimizer_states(fname, dump_optimizer=True)
        else:
            data = self._updaters[0].get_states(dump_optimizer=True)
            with open(fname, 'wb') as fout:
                fout.write(data)

    def load_states(self, fname):
        """Load what ``save_states`` wrote; checks the states against these Parameters."""
        self._prepare()
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
            self._optimizer = self._kvstore._updater.optimizer
            self._check_loaded(self._kvstore._updater.states, fname)
        else:
            with open(fname, 'rb') as f:  # a missing file is FileNotFoundError, as in MXNet
                states = f.read()
            for updater in self._updaters:
                updater.set_states(states)
                updater.optimizer = self._updaters[0].optimizer
            self._optimizer = self._updaters[0].optimizer
            self._check_loaded(self._updaters[0].states, fname)
        self._optimizer.param_dict = {i: param for i, param in enumerate(self._params)}

    def _check_loaded(self, states, fname):
        """Every loaded state must belong to one of these Parameters and have its shape."""
        from ..ndarray import NDArray

        def arrays(state):
            if isinstance(state, NDArray):
                yield state
            elif isinstance(state, (tuple, list)):
                for s in state:
                    yield from arrays(s)
        for idx, state in states.items():
            if not isinstance(idx, int) or not 0 <= idx < len(self._params):
                raise MXNetError('load_states: %r holds states for parameter index %r, but this Trainer '
                                 'has %d Parameters' % (fname, idx, len(self._params)))
            param = self._params[idx]
            for a in arrays(state):
                if param.shape is not None and tuple(a.shape) != tuple(param.shape):
                    raise MXNetError('load_states: the state of Parameter %r in %r has shape %s, but the '
                                     'Parameter has shape %s' % (param.name, fname, a.shape, param.shape))

    def __repr__(self):
        return 'Trainer(%s, %d Parameters, contexts=%s)' % (
            type(self._optimizer).__name__, len(self._params), self._contexts)
