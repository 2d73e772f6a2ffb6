"""BaseModule: the training, scoring and prediction loops every module shares.

A module is a symbol with its parameters and an optimizer. Subclasses give ``bind``,
``init_params``, ``init_optimizer``, ``forward``, ``backward``, ``update``,
``get_outputs`` and ``update_metric``; ``fit``, ``score``, ``predict`` and
``iter_predict`` are written once here on top of them (MXNet 1.9.1's behaviour:
the same callbacks, log lines and return values).
"""
import logging
import time
import warnings

import numpy as np

from ..io import DataDesc
from ..model import BatchEndParam

__all__ = ['BaseModule']


def _as_list(obj):
    return list(obj) if isinstance(obj, (list, tuple)) else [obj]


def _check_names(what, names):
    if names is None:
        return []
    if isinstance(names, str):
        names = [names]
    names = list(names)
    for n in names:
        if not isinstance(n, str):
            raise TypeError('%s_names must be strings, got %r' % (what, n))
    return names


def _check_input_names(symbol, names, typename, throw):
    """Each of ``names`` must be an argument of ``symbol``."""
    args = symbol.list_arguments()
    for name in names:
        if name in args:
            continue
        candidates = [a for a in args if not a.endswith('_weight') and not a.endswith('_bias')
                      and not a.endswith('_gamma') and not a.endswith('_beta')]
        # in red, as MXNet 1.9.1 prints it
        msg = ("\033[91mYou created Module with Module(..., %s_names=%s) but input with name '%s' is "
               "not found in symbol.list_arguments(). Did you mean one of:\n\t%s\033[0m"
               % (typename, names, name, '\n\t'.join(candidates)))
        if throw:
            raise ValueError(msg)
        warnings.warn(msg)


def _check_names_match(names, descs, what, throw):
    """The names of the given shapes must be the module's names: an error for data, a warning
    for labels (MXNet 1.9.1 binds a module whose label names match no input, with a warning)."""
    if sorted(d.name for d in descs) != sorted(names):
        msg = ("Data provided by %s_shapes don't match names specified by %s_names (%s vs. %s)"
               % (what, what, descs, names))
        if throw:
            raise ValueError(msg)
        warnings.warn(msg)


def _parse_one(names, shapes, what):
    if shapes is None:
        shapes = []
    descs = []
    for item in shapes:
        if isinstance(item, DataDesc):
            descs.append(item)
        elif isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], str):
            shape = item[1]
            descs.append(DataDesc(item[0], tuple(shape) if isinstance(shape, (tuple, list)) else shape))
        else:
            raise TypeError('%s_shapes must be a list of (name, shape) pairs or DataDescs, got %r'
                             % (what, item))
    _check_names_match(names, descs, what, what != 'label')
    for d in descs:
        if not isinstance(d.shape, (tuple, list)) or \
                not all(isinstance(s, (int, np.integer)) and s >= 0 for s in d.shape):
            raise TypeError('%s shape of %r must be a tuple of non-negative ints, got %r'
                             % (what, d.name, d.shape))
    return descs


def _parse_data_desc(data_names, label_names, data_shapes, label_shapes):
    """DataDescs for the data and label shapes, checked against the module's names."""
    data_shapes = _parse_one(data_names, data_shapes, 'data')
    if label_shapes is not None:
        label_shapes = _parse_one(label_names, label_shapes, 'label')
    else:
        _check_names_match(label_names, [], 'label', False)
    return data_shapes, label_shapes


class BaseModule:
    """The base of Module, BucketingModule and SequentialModule."""

    def __init__(self, logger=logging):
        self.logger = logger
        self.binded = False
        self.for_training = False
        self.inputs_need_grad = False
        self.params_initialized = False
        self.optimizer_initialized = False
        self._symbol = None
        self._total_exec_bytes = 0

    # ---- high-level loops ------------------------------------------------------------------
    def forward_backward(self, data_batch):
        """A training forward and its backward."""
        self.forward(data_batch, is_train=True)
        self.backward()

    def score(self, eval_data, eval_metric, num_batch=None, batch_end_callback=None,
              score_end_callback=None, reset=True, epoch=0, sparse_row_id_fn=None):
        """Evaluate ``eval_metric`` over ``eval_data``; returns ``[(name, value)]``."""
        from .. import metric
        if not (self.binded and self.params_initialized):
            raise AssertionError('score: bind the module and initialise its parameters first')
        if reset:
            eval_data.reset()
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        eval_metric.reset()
        actual_num_batch = 0
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            if isinstance(eval_batch, list):
                self.update_metric(eval_metric, [eb.label for eb in eval_batch], pre_sliced=True)
            else:
                self.update_metric(eval_metric, eval_batch.label)
            if batch_end_callback is not None:
                params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric, locals=locals())
                for callback in _as_list(batch_end_callback):
                    callback(params)
            actual_num_batch += 1
        if score_end_callback:
            params = BatchEndParam(epoch=epoch, nbatch=actual_num_batch, eval_metric=eval_metric,
                                   locals=locals())
            for callback in _as_list(score_end_callback):
                callback(params)
        return eval_metric.get_name_value()

    def iter_predict(self, eval_data, num_batch=None, reset=True, sparse_row_id_fn=None):
        """Yield ``(outputs, nbatch, batch)`` for each batch (padding removed)."""
        if not (self.binded and self.params_initialized):
            raise AssertionError('iter_predict: bind the module and initialise its parameters first')
        if reset:
            eval_data.reset()
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            pad = eval_batch.pad or 0
            outputs = [out[0:out.shape[0] - pad] for out in self.get_outputs()]
            yield (outputs, nbatch, eval_batch)

    def predict(self, eval_data, num_batch=None, merge_batches=True, reset=True,
                always_output_list=False, sparse_row_id_fn=None):
        """Run the model over ``eval_data`` (an iterator, or an NDArray / numpy array taken as one
        batch) and return the outputs: concatenated over batches with ``merge_batches``
        (one array when there is one output, unless ``always_output_list``), else one list of
        outputs per batch."""
        from .. import ndarray as nd
        import numpy as np
        from ..io import DataBatch
        if not (self.binded and self.params_initialized):
            raise AssertionError('predict: bind the module and initialise its parameters first')
        if isinstance(eval_data, (nd.NDArray, np.ndarray)):
            if isinstance(eval_data, np.ndarray):
                eval_data = nd.array(eval_data)
            self.forward(DataBatch([eval_data]))
            return self.get_outputs()[0]
        if reset:
            eval_data.reset()
        output_list = []
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            pad = eval_batch.pad or 0
            output_list.append([out[0:out.shape[0] - pad].copy() for out in self.get_outputs()])
        if not output_list:
            return output_list
        if merge_batches:
            num_outputs = len(output_list[0])
            for out in output_list:
                if len(out) != num_outputs:
                    raise AssertionError('Cannot merge batches, as num of outputs is not the same in '
                                         'mini-batches. Maybe bucketing is used?')
            merged = [nd.concat(*[out[i] for out in output_list], dim=0) for i in range(num_outputs)]
            if num_outputs == 1 and not always_output_list:
                return merged[0]
            return merged
        return output_list

    def _begin_epoch(self, epoch, train_data):
        """Called by ``fit`` before each epoch's first batch (SVRGModule computes its full
        gradients here); nothing by default."""

    def fit(self, train_data, eval_data=None, eval_metric='acc', epoch_end_callback=None,
            batch_end_callback=None, kvstore='local', optimizer='sgd',
            optimizer_params=(('learning_rate', 0.01),), eval_end_callback=None,
            eval_batch_end_callback=None, initializer=None, arg_params=None, aux_params=None,
            allow_missing=False, force_rebind=False, force_init=False, begin_epoch=0,
            num_epoch=None, validation_metric=None, monitor=None, sparse_row_id_fn=None):
        """Train on ``train_data`` for epochs ``begin_epoch .. num_epoch-1``.

        Binds, initialises parameters (``initializer``, default Uniform(0.01), or
        ``arg_params``/``aux_params``) and the optimizer, then for every batch runs forward,
        backward, update and the metric, calling ``batch_end_callback`` with a
        ``BatchEndParam``; after each epoch logs ``Epoch[i] Train-<metric>=<value>`` and the
        time, calls ``epoch_end_callback(epoch, symbol, arg_params, aux_params)`` and scores
        ``eval_data`` with ``validation_metric`` (default ``eval_metric``).
        """
        from .. import metric
        from ..initializer import Uniform
        if num_epoch is None:
            raise AssertionError('please specify number of epochs')
        if initializer is None:
            initializer = Uniform(0.01)
        self.bind(data_shapes=train_data.provide_data, label_shapes=train_data.provide_label,
                  for_training=True, force_rebind=force_rebind)
        if monitor is not None:
            self.install_monitor(monitor)
        self.init_params(initializer=initializer, arg_params=arg_params, aux_params=aux_params,
                         allow_missing=allow_missing, force_init=force_init)
        self.init_optimizer(kvstore=kvstore, optimizer=optimizer, optimizer_params=optimizer_params)
        if validation_metric is None:
            validation_metric = eval_metric
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)

        for epoch in range(begin_epoch, num_epoch):
            tic = time.time()
            eval_metric.reset()
            nbatch = 0
            self._begin_epoch(epoch, train_data)
            data_iter = iter(train_data)
            end_of_batch = False
            next_data_batch = next(data_iter)
            eval_name_vals = []
            while not end_of_batch:
                data_batch = next_data_batch
                if monitor is not None:
                    monitor.tic()
                self.forward_backward(data_batch)
                self.update()
                if isinstance(data_batch, list):
                    self.update_metric(eval_metric, [db.label for db in data_batch], pre_sliced=True)
                else:
                    self.update_metric(eval_metric, data_batch.label)
                try:
                    next_data_batch = next(data_iter)
                    self.prepare(next_data_batch, sparse_row_id_fn=sparse_row_id_fn)
                except StopIteration:
                    end_of_batch = True
                if monitor is not None:
                    monitor.toc_print()
                if end_of_batch:
                    eval_name_vals = eval_metric.get_global_name_value()
                if batch_end_callback is not None:
                    params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric,
                                           locals=locals())
                    for callback in _as_list(batch_end_callback):
                        callback(params)
                nbatch += 1
            for name, val in eval_name_vals:
                self.logger.info('Epoch[%d] Train-%s=%f', epoch, name, val)
            toc = time.time()
            self.logger.info('Epoch[%d] Time cost=%.3f', epoch, (toc - tic))

            arg_params_, aux_params_ = self.get_params()
            self.set_params(arg_params_, aux_params_)
            if epoch_end_callback is not None:
                for callback in _as_list(epoch_end_callback):
                    callback(epoch, self.symbol, arg_params_, aux_params_)
            if eval_data:
                res = self.score(eval_data, validation_metric, score_end_callback=eval_end_callback,
                                 batch_end_callback=eval_batch_end_callback, epoch=epoch)
                for name, val in res:
                    self.logger.info('Epoch[%d] Validation-%s=%f', epoch, name, val)
            train_data.reset()

    # ---- symbol and parameters -------------------------------------------------------------
    @property
    def data_names(self):
        raise NotImplementedError()

    @property
    def output_names(self):
        raise NotImplementedError()

    @property
    def data_shapes(self):
        raise NotImplementedError()

    @property
    def label_shapes(self):
        raise NotImplementedError()

    @property
    def output_shapes(self):
        raise NotImplementedError()

    @property
    def symbol(self):
        """The symbol of this module."""
        return self._symbol

    def get_params(self):
        raise NotImplementedError()

    def init_params(self, initializer=None, arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        raise NotImplementedError()

    # (arg_params, aux_params, force_init, allow_extra) -> None: how a module sets only the
    # parameters given (Module, BucketingModule); None: through init_params.
    _set_given_params = None

    def set_params(self, arg_params, aux_params, allow_missing=False, force_init=True,
                   allow_extra=False):
        """Set the parameters (as ``init_params`` with these values, forced by default); with
        ``allow_missing`` only the given ones change, where the module can set them directly."""
        if not allow_missing or self._set_given_params is None:
            self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                             allow_missing=allow_missing, force_init=force_init, allow_extra=allow_extra)
            return
        if self.params_initialized and not force_init:
            warnings.warn('Parameters already initialized and force_init=False. '
                          'set_params call ignored.', stacklevel=2)
            return
        self._set_given_params(arg_params, aux_params, force_init, allow_extra)
        self._params_dirty = True
        self.params_initialized = True

    def save_params(self, fname):
        """Write the parameters to ``fname`` (MXNet's .params format, ``arg:``/``aux:`` keys)."""
        from .. import ndarray as nd
        from ..context import cpu
        arg_params, aux_params = self.get_params()
        save_dict = {('arg:%s' % k): v.as_in_context(cpu()) for k, v in arg_params.items()}
        save_dict.update({('aux:%s' % k): v.as_in_context(cpu()) for k, v in aux_params.items()})
        nd.save(fname, save_dict)

    def load_params(self, fname):
        """Read parameters written by ``save_params`` (or MXNet) and set them."""
        from .. import ndarray as nd
        from ..model import _split_params
        arg_params, aux_params = _split_params(nd.load(fname), fname)
        self.set_params(arg_params, aux_params)

    def get_states(self, merge_multi_context=True):
        if not (self.binded and self.params_initialized):
            raise AssertionError('get_states: bind the module and initialise its parameters first')
        if merge_multi_context:
            return []
        return [[]]

    def set_states(self, states=None, value=None):
        if not (self.binded and self.params_initialized):
            raise AssertionError('set_states: bind the module and initialise its parameters first')
        if states or value:
            raise AssertionError('this module has no states')

    def install_monitor(self, mon):
        raise NotImplementedError()

    def prepare(self, data_batch, sparse_row_id_fn=None):
        """Prepare for the next batch (nothing to do: no sparse row pulls here)."""
        if sparse_row_id_fn is not None:
            warnings.warn(UserWarning('sparse_row_id_fn is not invoked for BaseModule.'))

    # ---- computations ----------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        raise NotImplementedError()

    def backward(self, out_grads=None):
        raise NotImplementedError()

    def get_outputs(self, merge_multi_context=True):
        raise NotImplementedError()

    def get_input_grads(self, merge_multi_context=True):
        raise NotImplementedError()

    def update(self):
        raise NotImplementedError()

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        raise NotImplementedError()

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req='write'):
        raise NotImplementedError()

    def init_optimizer(self, kvstore='local', optimizer='sgd',
                       optimizer_params=(('learning_rate', 0.01),), force_init=False):
        raise NotImplementedError()
