"""SVRGModule: a Module trained with stochastic variance reduced gradients."""
import logging

from ...context import cpu
from ...module import Module
from ...module.module import _create_kvstore
from ...optimizer import create
from .svrg_optimizer import _SVRGOptimizer

__all__ = ['SVRGModule']


def _nd():
    from ... import ndarray
    return ndarray


class SVRGModule(Module):
    """A Module whose update uses the SVRG gradient
    ``g_batch(w) - g_batch(w_snapshot) + full_grad(w_snapshot)``.

    The snapshot weights live in a second Module (``_mod_aux``) that runs every batch beside this
    one; ``update_full_grads(train_data)`` copies the current weights into it and averages their
    gradient over the whole data set. ``fit`` does so every ``update_freq`` epochs.

    Parameters are Module's, plus
    update_freq : int
        The number of epochs between two full-gradient computations (a positive int).
    """

    def __init__(self, symbol, data_names=('data',), label_names=('softmax_label',), logger=logging,
                 context=cpu(), work_load_list=None, fixed_param_names=None, state_names=None,
                 group2ctxs=None, compression_params=None, update_freq=None):
        super().__init__(symbol, data_names=data_names, label_names=label_names, logger=logger,
                         context=context, work_load_list=work_load_list,
                         fixed_param_names=fixed_param_names, state_names=state_names,
                         group2ctxs=group2ctxs, compression_params=compression_params)
        if not isinstance(update_freq, int) or isinstance(update_freq, bool):
            raise TypeError('update_freq in SVRGModule must be an integer to represent the frequency '
                            'for calculating full gradients, got %r' % (update_freq,))
        if update_freq <= 0:
            raise ValueError('update_freq in SVRGModule must be a positive integer to represent the '
                             'frequency for calculating full gradients, got %d' % update_freq)
        self.update_freq = update_freq
        self._mod_aux = Module(symbol, data_names, label_names, logger, context, work_load_list,
                               fixed_param_names, state_names, group2ctxs, compression_params)
        self._param_dict = None  # per device: parameter name -> mean full gradient at the snapshot
        self._ctx_len = len(self._context)

    # ---- both modules ------------------------------------------------------------------------
    def _reset_bind(self):
        super()._reset_bind()
        self._mod_aux._reset_bind()

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req='write'):
        """Bind this module, and the snapshot module too when ``for_training``."""
        super().bind(data_shapes, label_shapes, for_training, inputs_need_grad, force_rebind,
                     shared_module, grad_req)
        if for_training:
            self._mod_aux.bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                               force_rebind, shared_module, grad_req)

    def reshape(self, data_shapes, label_shapes=None):
        super().reshape(data_shapes, label_shapes=label_shapes)
        self._mod_aux.reshape(data_shapes, label_shapes=label_shapes)

    def forward(self, data_batch, is_train=None):
        """Forward on this module; a training forward runs the snapshot module too."""
        super().forward(data_batch, is_train)
        if is_train:
            self._mod_aux.forward(data_batch, is_train)

    def backward(self, out_grads=None):
        super().backward(out_grads)
        if self._mod_aux.binded:
            self._mod_aux.backward(out_grads)

    def prepare(self, data_batch, sparse_row_id_fn=None):
        super().prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
        self._mod_aux.prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)

    # ---- optimizer ---------------------------------------------------------------------------
    def init_optimizer(self, kvstore='local', optimizer='sgd',
                       optimizer_params=(('learning_rate', 0.01),), force_init=False):
        """Install an ``_SVRGOptimizer`` wrapping ``optimizer``; with a KVStore, also a key
        ``<param>_full`` per parameter where full gradients are summed across workers."""
        nd = _nd()
        arg_params = self.get_params()[0]
        self._param_dict = [{name: nd.zeros(value.shape, ctx=ctx) for name, value in arg_params.items()}
                            for ctx in self._context]
        svrg = self._create_optimizer(optimizer, kvstore, optimizer_params)
        super().init_optimizer(kvstore=kvstore, optimizer=svrg, optimizer_params=optimizer_params,
                               force_init=force_init)
        if self._kvstore:
            for name in self._exec_group.param_names:
                self._kvstore.init(name + '_full', nd.zeros(self._arg_params[name].shape))

    def _create_optimizer(self, default_opt, kvstore, optimizer_params):
        """The ``_SVRGOptimizer``, with the rescaling and key names Module would give ``default_opt``
        and one more key name per parameter for its full gradient."""
        kv, update_on_kvstore = _create_kvstore(kvstore, self._ctx_len, self._arg_params)
        batch_size = self._exec_group.batch_size
        if kv is not None and 'dist' in kv.type and '_sync' in kv.type:
            batch_size *= kv.num_workers
        names = self._exec_group.param_names
        if update_on_kvstore:
            idx2name = dict(enumerate(names))
        else:
            idx2name = {i * self._ctx_len + k: n for k in range(self._ctx_len) for i, n in enumerate(names)}
        next_key = max(idx2name) + 1 if idx2name else 0
        for offset, name in enumerate(self._param_dict[0]):
            idx2name[next_key + offset] = name + '_full'
        params = dict(optimizer_params)
        params.setdefault('rescale_grad', 1.0 / batch_size)
        params['default_optimizer'] = default_opt
        params['param_idx2name'] = idx2name
        return create(_SVRGOptimizer.__name__, **params)

    # ---- SVRG --------------------------------------------------------------------------------
    def update_full_grads(self, train_data):
        """Take a snapshot of the current weights and average their gradient over ``train_data``
        (a padded last batch counts as the fraction of it that is real data); with a KVStore
        the averages are summed over devices and workers there."""
        nd = _nd()
        names = self._exec_group.param_names
        arg, aux = self.get_params()
        self._mod_aux.set_params(arg_params=arg, aux_params=aux)
        sums = [{name: nd.zeros(self._param_dict[k][name].shape, ctx=ctx) for name in names}
                for k, ctx in enumerate(self._context)]
        train_data.reset()
        num_batches, pad = 0, 0
        for batch in train_data:
            self._mod_aux.forward(batch, is_train=True)
            self._mod_aux.backward()
            grads = self._mod_aux._exec_group.grad_arrays
            for k in range(self._ctx_len):
                for i, name in enumerate(names):
                    sums[k][name] += grads[i][k]
            num_batches += 1
            pad = batch.pad or 0
        real_batches = num_batches - pad / train_data.batch_size
        for name in names:
            means = [sums[k][name] / real_batches for k in range(self._ctx_len)]
            if self._kvstore:
                self._accumulate_kvstore(name, means)
            else:
                for k in range(self._ctx_len):
                    self._param_dict[k][name] = means[k]

    def _accumulate_kvstore(self, key, value):
        """Sum the per-device full gradients ``value`` of parameter ``key`` in the KVStore and
        give each device its share."""
        self._kvstore.push(key + '_full', value)
        self._kvstore._barrier()
        self._kvstore.pull(key + '_full', value)
        for k in range(self._ctx_len):
            self._param_dict[k][key] = value[k] / self._ctx_len

    def _update_svrg_gradients(self):
        """Replace each gradient by ``g(w) - g(w_snapshot) + full_grad(w_snapshot)``."""
        names = self._exec_group.param_names
        current = self._exec_group.grad_arrays
        snapshot = self._mod_aux._exec_group.grad_arrays
        for k in range(self._ctx_len):
            for i, name in enumerate(names):
                grad = current[i][k]
                if grad is None:
                    continue
                grad[:] = grad - snapshot[i][k] + self._param_dict[k][name]

    def update(self):
        """The optimizer step with the SVRG gradients."""
        self._update_svrg_gradients()
        super().update()

    def _begin_epoch(self, epoch, train_data):
        if epoch % self.update_freq == 0:
            self.update_full_grads(train_data)
        train_data.reset()
