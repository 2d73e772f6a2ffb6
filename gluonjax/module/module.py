"""Module: a symbol bound to devices, with its parameters and optimizer (MXNet's ``mx.mod.Module``)."""
import logging
import os
import warnings

from ..base import MXNetError
from ..context import Context, cpu
from ..initializer import InitDesc, Uniform
from .base_module import BaseModule, _check_input_names, _check_names, _parse_data_desc
from .executor_group import DataParallelExecutorGroup
from ..symbol.executor import _storage_types

__all__ = ['Module']


def _nd():
    from .. import ndarray
    return ndarray


def _create_kvstore(kvstore, num_device, arg_params):
    """``(kvstore or None, update_on_kvstore)`` as MXNet's Module decides them."""
    update_on_kvstore = bool(int(os.getenv('MXNET_UPDATE_ON_KVSTORE', '1')))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, str):
        if num_device == 1 and 'dist' not in kvstore:
            kv = None  # one device: nothing to reduce
        else:
            from kvstore import create
            kv = create(kvstore)
    else:
        from kvstore.base import KVStoreBase
        if not isinstance(kvstore, KVStoreBase):
            raise TypeError('kvstore must be a KVStore, a str or None, got %s' % type(kvstore).__name__)
        kv = kvstore
    if kv is None:
        update_on_kvstore = False
    return kv, update_on_kvstore


class Module(BaseModule):
    """A symbol trained and run on one or several devices.

    Parameters
    ----------
    symbol : Symbol
    data_names, label_names : list of str
        The arguments fed from a batch's data and label (``label_names`` may be None).
    context : Context or list of Context
        Several contexts split each batch between them (data parallelism): gradients are
        summed over devices before the update.
    work_load_list : list of float, optional
        The relative share of the batch each context gets (equal by default).
    fixed_param_names : list of str, optional
        Parameters that are not updated.
    state_names : list of str, optional
        Arguments that are states, set by the user (``set_states``), not parameters.
    """

    def __init__(self, symbol, data_names=('data',), label_names=('softmax_label',), logger=logging,
                 context=None, work_load_list=None, fixed_param_names=None, state_names=None,
                 group2ctxs=None, compression_params=None):
        super().__init__(logger=logger)
        from ..symbol import Symbol
        if not isinstance(symbol, Symbol):
            raise TypeError('Module: symbol must be a Symbol, got %s' % type(symbol).__name__)
        if context is None:
            context = cpu()
        if isinstance(context, Context):
            context = [context]
        context = list(context)
        for c in context:
            if not isinstance(c, Context):
                raise TypeError('Module: context must be a Context or a list of them, got %r' % (c,))
        self._context = context
        if work_load_list is None:
            work_load_list = [1] * len(context)
        if len(work_load_list) != len(context):  # an AssertionError, as MXNet 1.9.1 raises
            raise AssertionError('Module: work_load_list has %d entries for %d contexts'
                             % (len(work_load_list), len(context)))
        self._work_load_list = list(work_load_list)
        self._group2ctxs = group2ctxs
        self._symbol = symbol
        data_names = _check_names('data', data_names)
        label_names = _check_names('label', label_names)
        state_names = _check_names('state', state_names)
        fixed_param_names = _check_names('fixed_param', fixed_param_names)
        _check_input_names(symbol, data_names, 'data', True)
        _check_input_names(symbol, label_names, 'label', False)
        _check_input_names(symbol, state_names, 'state', True)
        _check_input_names(symbol, fixed_param_names, 'fixed_param', True)
        arg_names = symbol.list_arguments()
        input_names = data_names + label_names + state_names
        self._param_names = [x for x in arg_names if x not in input_names]
        self._fixed_param_names = fixed_param_names
        self._aux_names = symbol.list_auxiliary_states()
        self._data_names = data_names
        self._label_names = label_names
        self._state_names = state_names
        self._output_names = symbol.list_outputs()
        self._arg_params = None
        self._aux_params = None
        self._params_dirty = False
        self._compression_params = compression_params
        self._optimizer = None
        self._kvstore = None
        self._update_on_kvstore = None
        self._updater = None
        self._preload_opt_states = None
        self._grad_req = None
        self._exec_group = None
        self._data_shapes = None
        self._label_shapes = None

    @staticmethod
    def load(prefix, epoch, load_optimizer_states=False, **kwargs):
        """A Module from the checkpoint ``prefix``/``epoch`` (bind it before use); the other
        keyword arguments go to ``Module``."""
        from ..model import load_checkpoint
        sym, args, auxs = load_checkpoint(prefix, epoch)
        mod = Module(symbol=sym, **kwargs)
        mod._arg_params = args
        mod._aux_params = auxs
        mod.params_initialized = True
        if load_optimizer_states:
            mod._preload_opt_states = '%s-%04d.states' % (prefix, epoch)
        return mod

    def save_checkpoint(self, prefix, epoch, save_optimizer_states=False, remove_amp_cast=True):
        """Write ``prefix-symbol.json``, ``prefix-%04d.params`` (and ``.states``)."""
        self._symbol.save('%s-symbol.json' % prefix, remove_amp_cast=remove_amp_cast)
        param_name = '%s-%04d.params' % (prefix, epoch)
        self.save_params(param_name)
        logging.info('Saved checkpoint to "%s"', param_name)
        if save_optimizer_states:
            state_name = '%s-%04d.states' % (prefix, epoch)
            self.save_optimizer_states(state_name)
            logging.info('Saved optimizer state to "%s"', state_name)

    def _reset_bind(self):
        self.binded = False
        self._exec_group = None
        self._data_shapes = None
        self._label_shapes = None

    # ---- properties --------------------------------------------------------------------------
    @property
    def data_names(self):
        return self._data_names

    @property
    def label_names(self):
        return self._label_names

    @property
    def output_names(self):
        return self._output_names

    @property
    def data_shapes(self):
        self._check_bound('data_shapes')
        return self._data_shapes

    @property
    def label_shapes(self):
        self._check_bound('label_shapes')
        return self._label_shapes

    @property
    def output_shapes(self):
        self._check_bound('output_shapes')
        return self._exec_group.get_output_shapes()

    def _check_bound(self, what):
        if not self.binded:
            raise AssertionError('%s: call bind() first' % what)

    def _check_ready(self, what, optimizer=False):
        if not (self.binded and self.params_initialized):
            raise AssertionError('%s: bind the module and initialise its parameters first' % what)
        if optimizer and not self.optimizer_initialized:
            raise AssertionError('%s: call init_optimizer() first' % what)

    # ---- parameters --------------------------------------------------------------------------
    def get_params(self):
        """``(arg_params, aux_params)``: dicts of name to NDArray (averaged over devices)."""
        self._check_ready('get_params')
        if self._params_dirty:
            self._sync_params_from_devices()
        return (self._arg_params, self._aux_params)

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        """Initialise the parameters: from ``arg_params``/``aux_params`` where given, else (only
        with ``allow_missing``, or without those dicts) with ``initializer``."""
        if self.params_initialized and not force_init:
            warnings.warn('Parameters already initialized and force_init=False. '
                          'init_params call ignored.', stacklevel=2)
            return
        self._check_bound('init_params')

        def _impl(name, arr, cache):
            if cache is not None:
                if name in cache:
                    src = cache[name]
                    if src is not arr:
                        # MXNetError: MXNet's copy into the module's array fails there
                        if tuple(src.shape) != tuple(arr.shape):
                            raise MXNetError('init_params: %r has shape %s in the given parameters, '
                                             'the module needs %s' % (str(name), src.shape, arr.shape))
                        src.copyto(arr)
                else:
                    if not allow_missing:
                        raise RuntimeError('%s is not presented' % name)
                    if initializer is not None:
                        initializer(name, arr)
            else:
                if initializer is None:
                    raise RuntimeError('init_params: no initializer and no value for %s' % name)
                initializer(name, arr)

        attrs = self._symbol.attr_dict()
        for name, arr in sorted(self._arg_params.items()):
            _impl(InitDesc(name, attrs.get(name, None)), arr, arg_params)
        for name, arr in sorted(self._aux_params.items()):
            _impl(InitDesc(name, attrs.get(name, None)), arr, aux_params)
        self.params_initialized = True
        self._params_dirty = False
        self._exec_group.set_params(self._arg_params, self._aux_params, allow_extra=True)

    def _set_given_params(self, arg_params, aux_params, force_init, allow_extra):
        self._exec_group.set_params(arg_params, aux_params, allow_extra=allow_extra)

    def _sync_params_from_devices(self):
        self._exec_group.get_params(self._arg_params, self._aux_params)
        self._params_dirty = False

    # ---- binding -----------------------------------------------------------------------------
    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req='write'):
        """Bind executors for ``data_shapes``/``label_shapes`` (lists of DataDesc or
        ``(name, shape)``) on the module's contexts."""
        if force_rebind:
            self._reset_bind()
        if self.binded:
            self.logger.warning('Already bound, ignoring bind()')
            return
        if not for_training and inputs_need_grad:
            raise AssertionError('bind: inputs_need_grad needs for_training=True')
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._grad_req = grad_req
        self._data_shapes, self._label_shapes = _parse_data_desc(
            self.data_names, self.label_names, data_shapes, label_shapes)
        shared_group = None
        if shared_module is not None:
            if not (isinstance(shared_module, Module) and shared_module.binded
                    and shared_module.params_initialized):
                raise AssertionError('bind: shared_module must be a bound Module with initialised '
                                     'parameters')
            shared_group = shared_module._exec_group
            if len(shared_group.execs) < len(self._context):
                raise AssertionError('bind: shared_module runs on fewer contexts')
        self._exec_group = DataParallelExecutorGroup(
            self._symbol, self._context, self._work_load_list, self._data_shapes, self._label_shapes,
            self._param_names, for_training, inputs_need_grad, shared_group, logger=self.logger,
            fixed_param_names=self._fixed_param_names, grad_req=grad_req,
            state_names=self._state_names, group2ctxs=self._group2ctxs)
        if shared_module is not None:
            self.params_initialized = True
            self._arg_params = shared_module._arg_params
            self._aux_params = shared_module._aux_params
        elif self.params_initialized:
            self._exec_group.set_params(self._arg_params, self._aux_params, allow_extra=True)
        else:
            if self._arg_params is not None or self._aux_params is not None:
                raise AssertionError('bind: parameters exist but are not initialised')
            nd = _nd()
            # a parameter variable's stype ('row_sparse' weights of sparse models) is its storage
            stypes = _storage_types(self._symbol, {})[0]
            self._arg_params = {name: nd.zeros(x[0].shape, dtype=x[0].dtype, stype=stypes.get(name, 'default'))
                                for name, x in zip(self._param_names, self._exec_group.param_arrays)}
            self._aux_params = {name: nd.zeros(x[0].shape, dtype=x[0].dtype)
                                for name, x in zip(self._aux_names, self._exec_group.aux_arrays)}
        if shared_module is not None and shared_module.optimizer_initialized:
            self.borrow_optimizer(shared_module)
        self.binded = True

    def reshape(self, data_shapes, label_shapes=None):
        """Rebind for new input shapes (the batch size, say), keeping the parameters."""
        self._check_bound('reshape')
        self._data_shapes, self._label_shapes = _parse_data_desc(
            self.data_names, self.label_names, data_shapes, label_shapes)
        self._exec_group.reshape(self._data_shapes, self._label_shapes)

    # ---- optimizer ---------------------------------------------------------------------------
    def init_optimizer(self, kvstore='local', optimizer='sgd',
                       optimizer_params=(('learning_rate', 0.01),), force_init=False):
        """Set up the optimizer (a name with ``optimizer_params``, or an Optimizer); gradients are
        rescaled by 1/batch size unless an Optimizer object says otherwise."""
        from .. import optimizer as opt
        self._check_ready('init_optimizer')
        if self.optimizer_initialized and not force_init:
            self.logger.warning('optimizer already initialized, ignoring...')
            return
        if self._params_dirty:
            self._sync_params_from_devices()
        kv, update_on_kvstore = _create_kvstore(kvstore, len(self._context), self._arg_params)
        batch_size = self._exec_group.batch_size
        if kv is not None and 'dist' in kv.type and '_sync' in kv.type:
            batch_size *= kv.num_workers
        rescale_grad = 1.0 / batch_size
        if update_on_kvstore:
            idx2name = dict(enumerate(self._exec_group.param_names))
        else:
            idx2name = {}
            for k in range(len(self._context)):
                idx2name.update({i * len(self._context) + k: n
                                 for i, n in enumerate(self._exec_group.param_names)})
        if isinstance(optimizer, str):
            optimizer_params = dict(optimizer_params)
            if 'rescale_grad' not in optimizer_params:
                optimizer_params['rescale_grad'] = rescale_grad
            optimizer = opt.create(optimizer, sym=self.symbol, param_idx2name=idx2name,
                                   **optimizer_params)
        else:
            if not isinstance(optimizer, opt.Optimizer):
                raise TypeError('init_optimizer: optimizer must be a name or an Optimizer, got %s'
                                % type(optimizer).__name__)
            if optimizer.rescale_grad != rescale_grad:
                warnings.warn('Optimizer created manually outside Module but rescale_grad is not '
                              'normalized to 1.0/batch_size/num_workers (%s vs. %s). Is this intended?'
                              % (optimizer.rescale_grad, rescale_grad), stacklevel=2)
            if not optimizer.idx2name:
                optimizer.idx2name = idx2name.copy()
        self._optimizer = optimizer
        self._kvstore = kv
        self._update_on_kvstore = update_on_kvstore
        self._updater = None
        if kv is not None:
            if self._compression_params:
                kv.set_gradient_compression(self._compression_params)
            if update_on_kvstore:
                kv.set_optimizer(self._optimizer)
            names = self._exec_group.param_names
            kv.init(names, [self._arg_params[n] for n in names])
            if update_on_kvstore:
                kv.pull(names, out=self._exec_group.param_arrays)
        if not update_on_kvstore:
            self._updater = opt.get_updater(optimizer)
        self.optimizer_initialized = True
        if self._preload_opt_states is not None:
            self.load_optimizer_states(self._preload_opt_states)
            self._preload_opt_states = None

    def borrow_optimizer(self, shared_module):
        """Use ``shared_module``'s optimizer, kvstore and updater (BucketingModule)."""
        if not shared_module.optimizer_initialized:
            raise AssertionError('borrow_optimizer: the shared module has no optimizer')
        self._optimizer = shared_module._optimizer
        self._kvstore = shared_module._kvstore
        self._update_on_kvstore = shared_module._update_on_kvstore
        self._updater = shared_module._updater
        self.optimizer_initialized = True

    # ---- computations ------------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        """Run forward on ``data_batch`` (rebinding first when its shapes differ from the bound
        ones); ``is_train`` defaults to ``for_training``."""
        from ..io import DataDesc
        self._check_ready('forward')
        curr = tuple(d.shape for d in self._data_shapes)
        if isinstance(data_batch, list):
            new = tuple(b.data[0].shape for b in data_batch)
        else:
            if not isinstance(getattr(data_batch, 'data', None), (list, tuple)):
                raise TypeError('forward: data_batch must be a DataBatch (with a list of data arrays), '
                                'got %s' % type(data_batch).__name__)
            if len(data_batch.data) != len(self._data_shapes):
                raise ValueError('forward: the batch has %d data arrays, the module takes %d (%s)'
                                 % (len(data_batch.data), len(self._data_shapes),
                                    ', '.join(self.data_names)))
            new = tuple(tuple(d.shape) for d in data_batch.data)
        if curr != new:
            if getattr(data_batch, 'provide_data', None):
                new_dshape = data_batch.provide_data
            else:
                new_dshape = [DataDesc(i.name, shape, i.dtype, i.layout)
                              for i, shape in zip(self._data_shapes, new)]
            if getattr(data_batch, 'provide_label', None):
                new_lshape = data_batch.provide_label
            elif getattr(data_batch, 'label', None) and self._label_shapes:
                new_lshape = [DataDesc(i.name, j.shape, i.dtype, i.layout)
                              for i, j in zip(self._label_shapes, data_batch.label)]
            else:
                new_lshape = None
            self.reshape(new_dshape, new_lshape)
        self._exec_group.forward(data_batch, is_train)

    def backward(self, out_grads=None):
        """Gradients of the last (training) forward; ``out_grads`` are head gradients."""
        self._check_ready('backward')
        self._exec_group.backward(out_grads=out_grads)

    def update(self):
        """Apply the optimizer to every parameter with its gradient (summed over the devices by
        the kvstore, if any)."""
        self._check_ready('update', optimizer=True)
        self._params_dirty = True
        group = self._exec_group
        names, params, grads = [], [], []
        for name, p, g in zip(group.param_names, group.param_arrays, group.grad_arrays):
            if g[0] is None:
                continue
            names.append(name)
            params.append(p)
            grads.append(g)
        if not names:
            return
        kv = self._kvstore
        if self._update_on_kvstore:
            kv.push(names, grads)
            kv.pull(names, out=params)
            return
        num_device = len(self._context)
        if kv is not None:
            kv.pushpull(names, grads, out=grads)
        # without a store nothing is summed: as in MXNet 1.9.1, each device updates its copy with
        # its own slice's gradient (fit averages the copies at the end of each epoch)
        index = {n: i for i, n in enumerate(group.param_names)}
        for k in range(num_device):
            self._updater([index[n] * num_device + k for n in names],
                          [g[k] for g in grads], [p[k] for p in params])

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Update ``eval_metric`` with the last outputs and ``labels``."""
        self._exec_group.update_metric(eval_metric, labels, pre_sliced)

    def get_outputs(self, merge_multi_context=True):
        self._check_ready('get_outputs')
        return self._exec_group.get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        self._check_ready('get_input_grads')
        if not self.inputs_need_grad:
            raise AssertionError('get_input_grads: bind with inputs_need_grad=True')
        return self._exec_group.get_input_grads(merge_multi_context=merge_multi_context)

    def get_states(self, merge_multi_context=True):
        self._check_ready('get_states')
        return self._exec_group.get_states(merge_multi_context=merge_multi_context)

    def set_states(self, states=None, value=None):
        self._check_ready('set_states')
        self._exec_group.set_states(states, value)

    def install_monitor(self, mon):
        """Install ``mon`` (a Monitor) on every executor."""
        self._check_bound('install_monitor')
        self._exec_group.install_monitor(mon)

    def save_optimizer_states(self, fname):
        """Write the optimizer's states to ``fname``."""
        self._check_ready('save_optimizer_states', optimizer=True)
        if self._update_on_kvstore:
            self._kvstore.save_optimizer_states(fname)
        else:
            with open(fname, 'wb') as fout:
                fout.write(self._updater.get_states())

    def load_optimizer_states(self, fname):
        """Read optimizer states written by ``save_optimizer_states``."""
        self._check_ready('load_optimizer_states', optimizer=True)
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
        else:
            with open(fname, 'rb') as fin:
                self._updater.set_states(fin.read())

    def prepare(self, data_batch, sparse_row_id_fn=None):
        """Nothing to prepare (no sparse row pulls)."""
        self._check_bound('prepare')
