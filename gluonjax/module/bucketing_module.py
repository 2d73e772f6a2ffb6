"""BucketingModule: one Module per bucket key (sequence length, say), parameters shared.

``sym_gen(bucket_key) -> (symbol, data_names, label_names)`` builds each bucket's graph;
a batch's ``bucket_key`` picks (and on first use binds) its module, bound with the
default bucket's module as ``shared_module`` so every bucket reads and updates the same
parameter arrays. Each bucket compiles its own program once.
"""
import logging
import warnings

from ..context import cpu
from ..initializer import Uniform
from ..name import NameManager
from .base_module import BaseModule, _check_input_names
from .module import Module

__all__ = ['BucketingModule']


class BucketingModule(BaseModule):
    """Modules for several bucket keys sharing one set of parameters.

    Parameters
    ----------
    sym_gen : callable
        ``sym_gen(bucket_key)`` returns ``(symbol, data_names, label_names)``.
    default_bucket_key : hashable
        The key of the largest bucket: its module owns the parameters.
    context, work_load_list, fixed_param_names, state_names, ...
        As for Module.
    """

    def __init__(self, sym_gen, default_bucket_key=None, logger=logging, context=None,
                 work_load_list=None, fixed_param_names=None, state_names=None, group2ctxs=None,
                 compression_params=None):
        super().__init__(logger=logger)
        if default_bucket_key is None:
            raise AssertionError('BucketingModule: default_bucket_key is required')
        if not callable(sym_gen):
            raise TypeError('BucketingModule: sym_gen must be callable, got %r' % (sym_gen,))
        self._default_bucket_key = default_bucket_key
        self._sym_gen = sym_gen
        symbol, data_names, label_names = self._call_sym_gen(default_bucket_key)
        data_names = list(data_names) if data_names is not None else []
        label_names = list(label_names) if label_names is not None else []
        state_names = list(state_names) if state_names is not None else []
        fixed_param_names = list(fixed_param_names) if fixed_param_names is not None else []
        _check_input_names(symbol, data_names, 'data', True)
        _check_input_names(symbol, label_names, 'label', False)
        _check_input_names(symbol, state_names, 'state', True)
        _check_input_names(symbol, fixed_param_names, 'fixed_param', True)
        self._compression_params = compression_params
        self._fixed_param_names = fixed_param_names
        self._state_names = state_names
        self._context = context if context is not None else cpu()
        self._work_load_list = work_load_list
        self._group2ctxs = group2ctxs
        self._buckets = {}
        self._curr_module = None
        self._curr_bucket_key = None
        self._params_dirty = False
        self._monitor = None
        self._grad_req = None
        self._arg_params = None     # parameters given before binding (BucketingModule.load)
        self._aux_params = None

    def _call_sym_gen(self, *args, **kwargs):
        # a fresh name counter per call, as MXNet does: every bucket's automatic names
        # (embedding0_weight) are the same, so the buckets share those parameters
        with NameManager():
            out = self._sym_gen(*args, **kwargs)
        if not (isinstance(out, (tuple, list)) and len(out) == 3):
            raise ValueError('sym_gen must return (symbol, data_names, label_names), got %r' % (out,))
        return out

    def _reset_bind(self):
        self.binded = False
        self._buckets = {}
        self._curr_module = None
        self._curr_bucket_key = None

    def _new_module(self, bucket_key):
        symbol, data_names, label_names = self._call_sym_gen(bucket_key)
        return Module(symbol, data_names, label_names, logger=self.logger, context=self._context,
                      work_load_list=self._work_load_list, fixed_param_names=self._fixed_param_names,
                      state_names=self._state_names, group2ctxs=self._group2ctxs,
                      compression_params=self._compression_params)

    # ---- properties --------------------------------------------------------------------------
    @property
    def data_names(self):
        if self.binded:
            return self._curr_module.data_names
        return self._call_sym_gen(self._default_bucket_key)[1]

    @property
    def output_names(self):
        if self.binded:
            return self._curr_module.output_names
        return self._call_sym_gen(self._default_bucket_key)[0].list_outputs()

    @property
    def data_shapes(self):
        self._check_bound('data_shapes')
        return self._curr_module.data_shapes

    @property
    def label_shapes(self):
        self._check_bound('label_shapes')
        return self._curr_module.label_shapes

    @property
    def output_shapes(self):
        self._check_bound('output_shapes')
        return self._curr_module.output_shapes

    @property
    def symbol(self):
        self._check_bound('symbol')
        return self._curr_module.symbol

    def _check_bound(self, what):
        if not self.binded:
            raise AssertionError('%s: call bind() first' % what)

    def _check_ready(self, what):
        if not (self.binded and self.params_initialized):
            raise AssertionError('%s: bind the module and initialise its parameters first' % what)

    # ---- parameters --------------------------------------------------------------------------
    def get_params(self):
        self._check_ready('get_params')
        self._curr_module._params_dirty = self._params_dirty
        params = self._curr_module.get_params()
        self._params_dirty = False
        return params

    def _set_given_params(self, arg_params, aux_params, force_init, allow_extra):
        self._curr_module.set_params(arg_params, aux_params, allow_missing=True,
                                     force_init=force_init, allow_extra=allow_extra)

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        if self.params_initialized and not force_init:
            return
        self._check_bound('init_params')
        self._curr_module.init_params(initializer=initializer, arg_params=arg_params,
                                      aux_params=aux_params, allow_missing=allow_missing,
                                      force_init=force_init, allow_extra=allow_extra)
        self._params_dirty = False
        self.params_initialized = True

    def get_states(self, merge_multi_context=True):
        self._check_ready('get_states')
        return self._curr_module.get_states(merge_multi_context=merge_multi_context)

    def set_states(self, states=None, value=None):
        self._check_ready('set_states')
        self._curr_module.set_states(states, value)

    # ---- binding -----------------------------------------------------------------------------
    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req='write'):
        """Bind the default bucket's module (other buckets bind on first use)."""
        arg_params = aux_params = None
        if self.params_initialized:
            if self._curr_module is not None:
                arg_params, aux_params = self.get_params()
            else:
                arg_params, aux_params = self._arg_params, self._aux_params
        if force_rebind:
            self._reset_bind()
        if self.binded:
            self.logger.warning('Already bound, ignoring bind()')
            return
        if shared_module is not None:
            raise AssertionError('shared_module for BucketingModule is not supported')
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._grad_req = grad_req
        # a module BucketingModule.load made from the checkpoint's symbol, else a new one
        module = self._buckets.get(self._default_bucket_key) or self._new_module(self._default_bucket_key)
        module.bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                    force_rebind=False, shared_module=None, grad_req=grad_req)
        self.binded = True
        self._curr_module = module
        self._curr_bucket_key = self._default_bucket_key
        self._buckets[self._default_bucket_key] = module
        if self.params_initialized and arg_params is not None:
            self.set_params(arg_params, aux_params)

    def switch_bucket(self, bucket_key, data_shapes, label_shapes=None):
        """Make ``bucket_key``'s module current, binding it (sharing parameters) on first use."""
        self._check_bound('switch_bucket')
        module = self._buckets.get(bucket_key)
        if module is None or not module.binded:  # new, or loaded from a checkpoint unbound
            if data_shapes is None:
                raise ValueError('switch_bucket: bucket %r is not bound yet, its data_shapes are needed'
                                 % (bucket_key,))
            module = module or self._new_module(bucket_key)
            default = self._buckets[self._default_bucket_key]
            module.bind(data_shapes, label_shapes, self._curr_module.for_training,
                        self._curr_module.inputs_need_grad, force_rebind=False,
                        shared_module=default, grad_req=self._grad_req)
            if self._monitor is not None:
                module.install_monitor(self._monitor)
            self._buckets[bucket_key] = module
        self._curr_module = module
        self._curr_bucket_key = bucket_key

    def init_optimizer(self, kvstore='local', optimizer='sgd',
                       optimizer_params=(('learning_rate', 0.01),), force_init=False):
        self._check_ready('init_optimizer')
        if self.optimizer_initialized and not force_init:
            self.logger.warning('optimizer already initialized, ignoring.')
            return
        self._curr_module.init_optimizer(kvstore, optimizer, optimizer_params, force_init=force_init)
        for mod in self._buckets.values():
            if mod is not self._curr_module:
                mod.borrow_optimizer(self._curr_module)
        self.optimizer_initialized = True

    def prepare(self, data_batch, sparse_row_id_fn=None):
        """Bind the batch's bucket ahead of its forward."""
        self._check_ready('prepare')
        original = self._curr_bucket_key
        self.switch_bucket(data_batch.bucket_key, data_batch.provide_data, data_batch.provide_label)
        self.switch_bucket(original, None, None)

    # ---- computations ------------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        self._check_ready('forward')
        key = data_batch.bucket_key
        if key is None:
            key = self._default_bucket_key
        self.switch_bucket(key, data_batch.provide_data, data_batch.provide_label)
        self._curr_module.forward(data_batch, is_train=is_train)

    def backward(self, out_grads=None):
        self._check_ready('backward')
        self._curr_module.backward(out_grads=out_grads)

    def update(self):
        self._check_ready('update')
        if not self.optimizer_initialized:
            raise AssertionError('update: call init_optimizer() first')
        self._params_dirty = True
        self._curr_module.update()

    def get_outputs(self, merge_multi_context=True):
        self._check_ready('get_outputs')
        return self._curr_module.get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        self._check_ready('get_input_grads')
        return self._curr_module.get_input_grads(merge_multi_context=merge_multi_context)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        self._check_ready('update_metric')
        self._curr_module.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon):
        self._check_bound('install_monitor')
        self._monitor = mon
        for mod in self._buckets.values():
            mod.install_monitor(mon)

    # ---- files -------------------------------------------------------------------------------
    def save_checkpoint(self, prefix, epoch, remove_amp_cast=False):
        """Write each bucket's ``prefix-<key>-symbol.json``, the shared ``prefix-%04d.params``
        and ``prefix.buckets`` (the bucket keys)."""
        from .. import ndarray as nd
        if not self._buckets:
            raise AssertionError('Empty BucketingModule cannot be saved')
        param_name = '%s-%04d.params' % (prefix, epoch)
        self.save_params(param_name)
        for key in self._buckets:
            symbol = self._call_sym_gen(key)[0]
            symbol.save('%s-%s-symbol.json' % (prefix, key), remove_amp_cast=remove_amp_cast)
        # (no 'Saved checkpoint' log line here: MXNet 1.9.1 logs one for Module only)
        nd.save('%s.buckets' % prefix, nd.array(list(self._buckets.keys()), dtype='int32'))

    @staticmethod
    def load(prefix, epoch, sym_gen=None, default_bucket_key=None, **kwargs):
        """A BucketingModule with the parameters of checkpoint ``prefix``/``epoch`` and, unbound,
        a module for each bucket the checkpoint lists, made from that bucket's saved symbol
        (``sym_gen`` still gives the data and label names)."""
        from .. import ndarray as nd
        from .. import symbol as sym
        from ..model import load_params
        if sym_gen is None or default_bucket_key is None:
            raise AssertionError('BucketingModule.load needs sym_gen and default_bucket_key')
        mod = BucketingModule(sym_gen=sym_gen, default_bucket_key=default_bucket_key, **kwargs)
        for key in nd.load('%s.buckets' % prefix)[0].asnumpy().astype('int32').tolist():
            _, data_names, label_names = mod._call_sym_gen(key)
            symbol = sym.load('%s-%s-symbol.json' % (prefix, key))
            mod._buckets[key] = Module(symbol, data_names, label_names, **kwargs)
        arg_params, aux_params = load_params(prefix, epoch)
        mod._arg_params = arg_params
        mod._aux_params = aux_params
        mod.params_initialized = True
        return mod
