"""SequentialModule: modules chained so each one's outputs are the next one's data."""
import copy
import logging

from ..initializer import Uniform
from .base_module import BaseModule

__all__ = ['SequentialModule']


class SequentialModule(BaseModule):
    """A chain of modules. ``add(module, take_labels=True)`` gives a module the batch's labels
    (and the metric its outputs); ``auto_wiring=True`` renames the previous outputs to the
    module's data names."""

    META_TAKE_LABELS = 'take_labels'
    META_AUTO_WIRING = 'auto_wiring'

    def __init__(self, logger=logging):
        super().__init__(logger=logger)
        self._modules = []
        self._metas = []
        self._label_shapes = None
        self._data_shapes = None
        self._meta_keys = {self.META_TAKE_LABELS, self.META_AUTO_WIRING}

    def add(self, module, **kwargs):
        """Append ``module``; returns self so calls chain."""
        if not isinstance(module, BaseModule):
            raise TypeError('SequentialModule.add: expected a module, got %s' % type(module).__name__)
        for key in kwargs:
            if key not in self._meta_keys:  # an AssertionError, as MXNet 1.9.1 raises
                raise AssertionError('Unknown meta "%s", a typo?' % key)
        self._modules.append(module)
        self._metas.append(kwargs)
        self.binded = False
        self.params_initialized = False
        self.optimizer_initialized = False
        return self

    @property
    def data_names(self):
        return self._modules[0].data_names if self._modules else []

    @property
    def output_names(self):
        return self._modules[-1].output_names if self._modules else []

    @property
    def data_shapes(self):
        self._check_bound('data_shapes')
        return self._modules[0].data_shapes

    @property
    def label_shapes(self):
        self._check_bound('label_shapes')
        return self._label_shapes

    @property
    def output_shapes(self):
        self._check_bound('output_shapes')
        return self._modules[-1].output_shapes

    def _check_bound(self, what):
        if not self.binded:
            raise AssertionError('%s: call bind() first' % what)

    def _check_ready(self, what):
        if not (self.binded and self.params_initialized):
            raise AssertionError('%s: bind the module and initialise its parameters first' % what)

    def get_params(self):
        self._check_ready('get_params')
        arg_params, aux_params = {}, {}
        for module in self._modules:
            arg, aux = module.get_params()
            arg_params.update(arg)
            aux_params.update(aux)
        return arg_params, aux_params

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        if self.params_initialized and not force_init:
            return
        self._check_bound('init_params')
        for module in self._modules:
            module.init_params(initializer=initializer, arg_params=arg_params, aux_params=aux_params,
                               allow_missing=allow_missing, force_init=force_init,
                               allow_extra=allow_extra)
        owner = {}
        for i, module in enumerate(self._modules):
            arg, aux = module.get_params()
            for name in list(arg) + list(aux):
                if name in owner:
                    j = owner[name]
                    raise AssertionError('Duplicated parameter names: name "%s" in layer %d (%s) is '
                                         'already used in layer %d (%s).'
                                         % (name, i, type(module).__name__, j,
                                            type(self._modules[j]).__name__))
                owner[name] = i
        self.params_initialized = True

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req='write'):
        if self.binded and not force_rebind:
            self.logger.warning('Already bound, ignoring bind()')
            return
        if inputs_need_grad and not for_training:
            raise AssertionError('bind: inputs_need_grad needs for_training=True')
        if shared_module is not None:
            raise AssertionError('Shared module is not supported')
        if not self._modules:
            raise AssertionError('Attempting to bind an empty SequentialModule')
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._label_shapes = label_shapes
        my_data_shapes = data_shapes
        needs_label = False
        for i, module in enumerate(self._modules):
            meta = self._metas[i]
            if meta.get(self.META_TAKE_LABELS, False):
                my_label_shapes = label_shapes
                needs_label = True
            else:
                my_label_shapes = None
            my_inputs_need_grad = bool(inputs_need_grad or (for_training and i > 0))
            if meta.get(self.META_AUTO_WIRING, False):
                names = module.data_names
                if len(names) != len(my_data_shapes):
                    raise ValueError('auto_wiring: layer %d takes %d inputs, the previous layer gives %d'
                                     % (i, len(names), len(my_data_shapes)))
                my_data_shapes = [(new, tuple(desc[1])) for new, desc in zip(names, my_data_shapes)]
            module.bind(data_shapes=my_data_shapes, label_shapes=my_label_shapes,
                        for_training=for_training, inputs_need_grad=my_inputs_need_grad,
                        force_rebind=force_rebind, shared_module=None, grad_req=grad_req)
            my_data_shapes = module.output_shapes
        if not needs_label:
            self._label_shapes = None
        self.binded = True

    def init_optimizer(self, kvstore='local', optimizer='sgd',
                       optimizer_params=(('learning_rate', 0.01),), force_init=False):
        self._check_ready('init_optimizer')
        if self.optimizer_initialized and not force_init:
            self.logger.warning('optimizer already initialized, ignoring.')
            return
        for module in self._modules:
            module.init_optimizer(kvstore=kvstore, optimizer=optimizer,
                                  optimizer_params=optimizer_params, force_init=force_init)
        self.optimizer_initialized = True

    def forward(self, data_batch, is_train=None):
        self._check_ready('forward')
        data_batch = copy.copy(data_batch)
        for i, module in enumerate(self._modules):
            module.forward(data_batch, is_train=is_train)
            if i + 1 == len(self._modules):
                break
            data_batch.data = module.get_outputs()
            if getattr(data_batch, 'provide_data', None):
                names = self._modules[i + 1].data_names
                data_batch.provide_data = [(n, x.shape) for n, x in zip(names, data_batch.data)]

    def backward(self, out_grads=None):
        self._check_ready('backward')
        for i in reversed(range(len(self._modules))):
            module = self._modules[i]
            module.backward(out_grads=out_grads)
            if i == 0:
                break
            out_grads = module.get_input_grads()

    def update(self):
        self._check_ready('update')
        for module in self._modules:
            module.update()

    def get_outputs(self, merge_multi_context=True):
        self._check_ready('get_outputs')
        return self._modules[-1].get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        self._check_ready('get_input_grads')
        if not self.inputs_need_grad:
            raise AssertionError('get_input_grads: bind with inputs_need_grad=True')
        return self._modules[0].get_input_grads(merge_multi_context=merge_multi_context)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        self._check_ready('update_metric')
        for meta, module in zip(self._metas, self._modules):
            if meta.get(self.META_TAKE_LABELS, False):
                module.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon):
        self._check_bound('install_monitor')
        for module in self._modules:
            module.install_monitor(mon)
