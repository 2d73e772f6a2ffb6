"""Checkpoints of symbolic models (MXNet's ``mx.model``).

A checkpoint is two files: ``prefix-symbol.json`` (the graph, in MXNet's JSON) and
``prefix-%04d.params`` (the arrays, in MXNet's binary ``.params`` format) whose keys
are ``arg:<name>`` for arguments and ``aux:<name>`` for auxiliary states. Files written
here load in MXNet 1.9.1 and the other way round.

``FeedForward`` is MXNet 1.x's first training API (deprecated there in favour of
``mx.mod.Module``, still used by its older examples): a symbol trained on one or several
devices, a batch split across them, their gradients summed before one update per parameter
(MXNet's 'local' kvstore).
"""
import functools
import logging
import time
import warnings
from collections import namedtuple

import numpy as np

__all__ = ['BatchEndParam', 'save_checkpoint', 'load_checkpoint', 'load_params', 'FeedForward']

#: what batch-end callbacks receive: the epoch, the batch number, the metric and the
#: caller's locals
BatchEndParam = namedtuple('BatchEndParams', ['epoch', 'nbatch', 'eval_metric', 'locals'])


def _params_name(prefix, epoch):
    return '%s-%04d.params' % (prefix, epoch)


def save_checkpoint(prefix, epoch, symbol, arg_params, aux_params, remove_amp_cast=True):
    """Write ``prefix-symbol.json`` (unless ``symbol`` is None) and ``prefix-%04d.params``."""
    from . import ndarray as nd
    from .context import cpu
    if symbol is not None:
        symbol.save('%s-symbol.json' % prefix, remove_amp_cast=remove_amp_cast)
    arrays = {}
    for kind, params in (('arg', arg_params), ('aux', aux_params)):
        for name, value in (params or {}).items():
            if not isinstance(value, nd.NDArray):
                raise TypeError('save_checkpoint: %s_params[%r] must be an NDArray, got %s'
                                % (kind, name, type(value).__name__))
            arrays['%s:%s' % (kind, name)] = value.as_in_context(cpu())
    fname = _params_name(prefix, epoch)
    nd.save(fname, arrays)
    logging.info('Saved checkpoint to "%s"', fname)


def _split_params(saved, fname, skip_other_kinds=False):
    """``(arg_params, aux_params)`` from the ``arg:<name>``/``aux:<name>`` keys of a loaded file.

    A key of another kind is an error for a module's ``load_params`` and skipped by
    ``mx.model.load_params`` (``skip_other_kinds``), as in MXNet 1.9.1; a key without a kind
    is an error for both."""
    arg_params, aux_params = {}, {}
    if not isinstance(saved, dict):
        raise ValueError('Invalid param file %s: it holds a list of arrays, not arg:/aux: names' % fname)
    for key, value in saved.items():
        kind, colon, name = key.partition(':')
        if kind == 'arg' and name:
            arg_params[name] = value
        elif kind == 'aux' and name:
            aux_params[name] = value
        elif not (skip_other_kinds and colon):
            raise ValueError('Invalid param file %s: key %r is neither arg:<name> nor aux:<name>'
                             % (fname, key))
    return arg_params, aux_params


def load_params(prefix, epoch):
    """``(arg_params, aux_params)`` read from ``prefix-%04d.params`` (keys of other kinds than
    ``arg:``/``aux:`` are skipped; an empty file gives two empty dicts, with a warning)."""
    from . import ndarray as nd
    fname = _params_name(prefix, epoch)
    saved = nd.load(fname)
    if not saved:  # (an empty dict saved reads back as an empty list)
        logging.warning("Params file '%s' is empty", fname)
        return {}, {}
    return _split_params(saved, fname, skip_other_kinds=True)


def load_checkpoint(prefix, epoch):
    """``(symbol, arg_params, aux_params)`` of the checkpoint ``prefix`` at ``epoch``."""
    from . import symbol as sym
    symbol = sym.load('%s-symbol.json' % prefix)
    arg_params, aux_params = load_params(prefix, epoch)
    return symbol, arg_params, aux_params


# ---- FeedForward ---------------------------------------------------------------------------
def _check_arguments(symbol):
    """MXNet refuses a symbol with two arguments (or auxiliary states) of the same name."""
    for what, names in (('argument', symbol.list_arguments()),
                        ('auxiliary state', symbol.list_auxiliary_states())):
        seen = set()
        for name in names:
            if name in seen:
                raise ValueError('Find duplicated %s name "%s", please make the weight name '
                                 'non-duplicated(using name arguments), %ss are %s'
                                 % (what, name, what, names))
            seen.add(name)


def _multiple_callbacks(callbacks, *args, **kwargs):
    if isinstance(callbacks, (list, tuple)):
        for cb in callbacks:
            cb(*args, **kwargs)
    elif callbacks:
        callbacks(*args, **kwargs)


def _log_validation_metrics(param):
    """What ``mx.callback.LogValidationMetricsCallback`` logs (callback.py imports this module)."""
    for name, value in param.eval_metric.get_name_value():
        logging.info('Epoch[%d] Validation-%s=%f', param.epoch, name, value)


def _slices(batch_size, n):
    """MXNet's even split of a batch over ``n`` devices: [slice, ...]."""
    sizes = [int(round(batch_size / n))] * n
    sizes[-1] = batch_size - sum(sizes[:-1])
    if min(sizes) <= 0:
        raise ValueError('FeedForward: a batch of %d cannot be split over %d devices' % (batch_size, n))
    starts = np.cumsum([0] + sizes)
    return [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]


class _Executors:
    """One executor per device for one symbol and one set of input shapes."""

    def __init__(self, symbol, ctx, descs, param_names, for_training):
        self.symbol, self.descs = symbol, descs
        self.input_names = [d.name for d in descs]
        self.slices = _slices(descs[0].shape[0], len(ctx))
        grad_req = {n: ('write' if for_training and n in param_names else 'null')
                    for n in symbol.list_arguments()}
        types = {d.name: getattr(d, 'dtype', np.float32) for d in descs}
        self.execs = []
        for c, sl in zip(ctx, self.slices):
            shapes = {d.name: (sl.stop - sl.start,) + tuple(d.shape[1:]) for d in descs}
            self.execs.append(symbol.simple_bind(c, grad_req=grad_req, type_dict=types, **shapes))

    def load(self, batch):
        arrays = list(batch.data) + list(batch.label or [])
        for name, array in zip(self.input_names, arrays):
            for exe, sl in zip(self.execs, self.slices):
                target = exe.arg_dict[name]
                src = array[sl] if len(self.execs) > 1 else array
                src.astype(target.dtype).copyto(target) if src.dtype != target.dtype else src.copyto(target)

    def update_metric(self, metric, labels):
        for exe, sl in zip(self.execs, self.slices):
            metric.update([l[sl] if len(self.execs) > 1 else l for l in labels], exe.outputs)

    def set_params(self, arg_params, aux_params):
        for exe in self.execs:
            exe.copy_params_from(arg_params, aux_params, allow_extra_params=True)

    def copy_to(self, arg_params, aux_params):
        """The devices' average of each parameter and auxiliary state, into the given dicts."""
        from .context import cpu
        for params, which in ((arg_params, 'arg_dict'), (aux_params, 'aux_dict')):
            for name, target in params.items():
                copies = [getattr(exe, which)[name].as_in_context(cpu()) for exe in self.execs]
                total = copies[0]
                for c in copies[1:]:
                    total = total + c
                (total / len(copies) if len(copies) > 1 else total).astype(target.dtype).copyto(target)


def _update_summed(group, param_names, updater):
    """Sum each parameter's gradient over the devices, update the first device's copy once and
    hand it to the others (MXNet's 'local' kvstore)."""
    execs = group.execs
    for index, name in enumerate(param_names):
        grad = execs[0].grad_dict[name]
        for exe in execs[1:]:
            grad = grad + exe.grad_dict[name].as_in_context(grad.context)
        weight = execs[0].arg_dict[name]
        updater(index, grad, weight)
        for exe in execs[1:]:
            weight.copyto(exe.arg_dict[name])


def _update_per_device(group, param_names, updater):
    """No kvstore: each device updates its copy with its own slice's gradient."""
    execs = group.execs
    for index, name in enumerate(param_names):
        for k, exe in enumerate(execs):
            updater(index * len(execs) + k, exe.grad_dict[name], exe.arg_dict[name])


class FeedForward:
    """MXNet 1.x's ``mx.model.FeedForward``: train and predict with a symbol (deprecated in
    MXNet 1.9.1, where it warns as here; ``mx.mod.Module`` replaces it).

    ``symbol`` is a Symbol, or a function of a bucket key giving one (``sym_gen``, for a
    bucketing data iterator). ``kwargs`` go to the optimizer (``learning_rate``, ``momentum``,
    ``wd``, ...). ``ctx`` one context or a list: each batch is split across them.
    """

    def __init__(self, symbol, ctx=None, num_epoch=None, epoch_size=None, optimizer='sgd',
                 initializer=None, numpy_batch_size=128, arg_params=None, aux_params=None,
                 allow_extra_params=False, begin_epoch=0, **kwargs):
        warnings.warn('\033[91mmxnet.model.FeedForward has been deprecated. '
                      'Please use mxnet.mod.Module instead.\033[0m', DeprecationWarning, stacklevel=2)
        from .context import Context, cpu
        from .initializer import Uniform
        from .symbol import Symbol
        if isinstance(symbol, Symbol):
            self.symbol, self.sym_gen = symbol, None
        elif callable(symbol):
            self.symbol, self.sym_gen = None, symbol
        else:
            raise TypeError('FeedForward: symbol must be a Symbol or a function of a bucket key, got %s'
                            % type(symbol).__name__)
        self.arg_params, self.aux_params = arg_params, aux_params
        self.allow_extra_params = allow_extra_params
        self.argument_checked = False
        if self.sym_gen is None:
            self._check_arguments()
        self.ctx = [cpu()] if ctx is None else [ctx] if isinstance(ctx, Context) else list(ctx)
        self.num_epoch, self.epoch_size = num_epoch, epoch_size
        self.kwargs = kwargs.copy()
        self.optimizer = optimizer
        self.initializer = initializer if initializer is not None else Uniform(0.01)
        self.numpy_batch_size = numpy_batch_size
        self._pred_exec = None
        self.begin_epoch = begin_epoch

    def _check_arguments(self):
        if self.argument_checked:
            return
        self.argument_checked = True
        _check_arguments(self.symbol)
        if self.allow_extra_params:  # drop what the symbol does not take
            if self.arg_params:
                names = set(self.symbol.list_arguments())
                self.arg_params = {k: v for k, v in self.arg_params.items() if k in names}
            if self.aux_params:
                names = set(self.symbol.list_auxiliary_states())
                self.aux_params = {k: v for k, v in self.aux_params.items() if k in names}

    def _init_params(self, inputs, overwrite=False):
        """Zero arrays of the inferred shapes and types, filled from the given parameters or
        by the initializer; returns (argument names, parameter names, auxiliary names)."""
        from . import ndarray as nd
        from .io import DataDesc
        inputs = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in inputs]
        shapes = {d.name: d.shape for d in inputs}
        arg_shapes, _, aux_shapes = self.symbol.infer_shape(**shapes)
        arg_types, _, aux_types = self.symbol.infer_type(**{d.name: d.dtype for d in inputs})
        arg_names = self.symbol.list_arguments()
        param_names = [n for n in arg_names if n not in shapes]
        aux_names = self.symbol.list_auxiliary_states()
        arg_params = {n: nd.zeros(shape=s, dtype=t)
                      for n, s, t in zip(arg_names, arg_shapes, arg_types) if n in param_names}
        aux_params = {n: nd.zeros(shape=s, dtype=t) for n, s, t in zip(aux_names, aux_shapes, aux_types)}
        for new, old in ((arg_params, self.arg_params), (aux_params, self.aux_params)):
            for name, array in new.items():
                if old and name in old and not overwrite:
                    array[:] = old[name][:]
                else:
                    self.initializer(name, array)
        self.arg_params, self.aux_params = arg_params, aux_params
        return arg_names, list(param_names), aux_names

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_pred_exec'] = None
        return state

    def _init_iter(self, X, y, is_train):
        from . import io
        from .ndarray import NDArray
        if isinstance(X, (np.ndarray, NDArray)):
            if y is None:
                if is_train:
                    raise ValueError('y must be specified when X is numpy.ndarray')
                y = np.zeros(X.shape[0])
            if not isinstance(y, (np.ndarray, NDArray)):
                raise TypeError('y must be ndarray when X is numpy.ndarray')
            if X.shape[0] != y.shape[0]:
                raise ValueError('The numbers of data points and labels not equal')
            if y.ndim == 2 and y.shape[1] == 1:
                y = y.flatten()
            if y.ndim != 1:
                raise ValueError('Label must be 1D or 2D (with 2nd dimension being 1)')
            batch = min(X.shape[0], self.numpy_batch_size)
            if is_train:
                return io.NDArrayIter(X, y, batch, shuffle=True, last_batch_handle='roll_over')
            return io.NDArrayIter(X, y, batch, shuffle=False)
        if not isinstance(X, io.DataIter):
            raise TypeError('X must be DataIter, NDArray or numpy.ndarray')
        return X

    def _init_eval_iter(self, eval_data):
        from . import io
        if eval_data is None:
            return None
        if isinstance(eval_data, (tuple, list)) and len(eval_data) == 2:
            if eval_data[0] is None:
                raise ValueError('Eval data is NONE')
            if eval_data[1] is None and isinstance(eval_data[0], io.DataIter):
                return eval_data[0]
            data, label = (np.array(x) if isinstance(x, list) else x for x in eval_data)
            return self._init_iter(data, label, is_train=True)
        if not isinstance(eval_data, io.DataIter):
            raise TypeError('Eval data must be DataIter, or NDArray/numpy.ndarray/list pair '
                            '(i.e. tuple/list of length 2)')
        return eval_data

    def _init_predictor(self, data_shapes, type_dict):
        """An inference executor on the first context holding the current parameters."""
        shapes = {n: a.shape for n, a in self.arg_params.items()}
        shapes.update(dict(data_shapes))
        if self._pred_exec is not None:
            arg_shapes, _, _ = self.symbol.infer_shape(**shapes)
            if arg_shapes == [x.shape for x in self._pred_exec.arg_arrays]:
                return
        exe = self.symbol.simple_bind(self.ctx[0], grad_req='null', type_dict=type_dict, **shapes)
        exe.copy_params_from(self.arg_params, self.aux_params)
        self._pred_exec = exe

    def _predictor_for(self, X):
        type_dict = {k: v.dtype for k, v in self.arg_params.items()}
        for d in X.provide_data:
            type_dict[d[0]] = getattr(d, 'dtype', np.float32)
        data_shapes = [(d[0], d[1]) for d in X.provide_data]
        self._init_predictor(data_shapes, type_dict)
        return [self._pred_exec.arg_dict[name] for name, _ in data_shapes]

    def predict(self, X, num_batch=None, return_data=False, reset=True):
        """The outputs over ``X`` (numpy arrays; a list of them for several outputs), on the
        first context; with ``return_data`` also the data and labels."""
        X = self._init_iter(X, None, is_train=False)
        outputs = None
        data_list = [[] for _ in X.provide_data]
        label_list = [[] for _ in X.provide_label]
        for batch in self._forward_batches(X, num_batch, reset):
            if outputs is None:
                outputs = [[] for _ in self._pred_exec.outputs]
            real = X.batch_size - (batch.pad or 0)
            for lst, out in zip(outputs, self._pred_exec.outputs):
                lst.append(out[0:real].asnumpy())
            if return_data:
                for lst, x in zip(data_list, batch.data):
                    lst.append(x[0:real].asnumpy())
                for lst, x in zip(label_list, batch.label):
                    lst.append(x[0:real].asnumpy())
        outputs = [np.concatenate(x) for x in outputs]
        outputs = outputs[0] if len(outputs) == 1 else outputs
        if not return_data:
            return outputs
        data = [np.concatenate(x) for x in data_list]
        label = [np.concatenate(x) for x in label_list]
        return outputs, data[0] if len(data) == 1 else data, label[0] if len(label) == 1 else label

    def score(self, X, eval_metric='acc', num_batch=None, batch_end_callback=None, reset=True):
        """``eval_metric`` (default accuracy) of the model's outputs over ``X``."""
        from . import metric as metric_mod
        if not isinstance(eval_metric, metric_mod.EvalMetric):
            eval_metric = metric_mod.create(eval_metric)
        X = self._init_iter(X, None, is_train=False)
        for i, batch in enumerate(self._forward_batches(X, num_batch, reset)):
            eval_metric.update(batch.label, self._pred_exec.outputs)
            _multiple_callbacks(batch_end_callback, BatchEndParam(0, i, eval_metric, locals()))
        return eval_metric.get()[1]

    def _forward_batches(self, X, num_batch, reset):
        """Each batch of ``X`` (the first ``num_batch`` of them), after the predictor's forward on it."""
        if reset:
            X.reset()
        data_arrays = self._predictor_for(X)
        for i, batch in enumerate(X):
            if num_batch is not None and i == num_batch:
                break
            for src, dst in zip(batch.data, data_arrays):
                src.copyto(dst)
            self._pred_exec.forward(is_train=False)
            yield batch

    def fit(self, X, y=None, eval_data=None, eval_metric='acc', epoch_end_callback=None,
            batch_end_callback=None, kvstore='local', logger=None, work_load_list=None,
            monitor=None, eval_end_callback=None, eval_batch_end_callback=None):
        """Train for epochs ``begin_epoch`` .. ``num_epoch - 1``; logs each epoch's time and,
        by default, the validation metric, as MXNet 1.9.1 does."""
        from . import metric as metric_mod
        from . import optimizer as opt
        if kvstore is not None and not isinstance(kvstore, str):
            raise TypeError('FeedForward.fit: kvstore must be a string here (local or device), got %s'
                            % type(kvstore).__name__)
        if kvstore and 'dist' in kvstore:
            raise ValueError('FeedForward.fit: kvstore %r: distributed training is not supported; '
                             'use mx.mod.Module with a dist kvstore' % kvstore)
        if eval_end_callback is None:
            eval_end_callback = _log_validation_metrics
        data = self._init_iter(X, y, is_train=True)
        eval_data = self._init_eval_iter(eval_data)
        if self.sym_gen:
            self.symbol = self.sym_gen(data.default_bucket_key)
            self._check_arguments()
        self.kwargs['sym'] = self.symbol
        _, param_names, _ = self._init_params(data.provide_data + data.provide_label)
        if not isinstance(eval_metric, metric_mod.EvalMetric):
            eval_metric = metric_mod.create(eval_metric)
        # without a kvstore each device's copy is a parameter of its own to the optimizer
        # (index i * devices + k), as in MXNet 1.9.1; a store sums the gradients first
        per_device = kvstore is None and len(self.ctx) > 1
        copies = len(self.ctx) if per_device else 1
        self.kwargs['param_idx2name'] = {i * copies + k: name for i, name in enumerate(param_names)
                                         for k in range(copies)}
        if isinstance(self.optimizer, str):
            optimizer = opt.create(self.optimizer, rescale_grad=1.0 / data.batch_size, **self.kwargs)
        else:
            optimizer = self.optimizer
            if not optimizer.idx2name:
                optimizer.idx2name = dict(self.kwargs['param_idx2name'])
        update = _update_per_device if per_device else _update_summed
        self._train(data, eval_data, eval_metric, param_names,
                    functools.partial(update, updater=opt.get_updater(optimizer)),
                    epoch_end_callback, batch_end_callback, logger or logging, monitor,
                    eval_end_callback, eval_batch_end_callback)

    def _executors(self, cache, batch, descs, param_names):
        """The executors for this batch's bucket and shapes (bound once, then reused)."""
        key = (getattr(batch, 'bucket_key', None), tuple((d[0], tuple(d[1])) for d in descs))
        group = cache.get(key)
        if group is None:
            from .io import DataDesc
            symbol = self.symbol if self.sym_gen is None else self.sym_gen(batch.bucket_key)
            descs = [d if isinstance(d, DataDesc) else DataDesc(*d) for d in descs]
            group = cache[key] = _Executors(symbol, self.ctx, descs, param_names, True)
        return group

    def _train(self, train_data, eval_data, eval_metric, param_names, update,
               epoch_end_callback, batch_end_callback, logger, monitor, eval_end_callback,
               eval_batch_end_callback):
        logger.info('Start training with %s', str(self.ctx))
        cache, current = {}, None

        def group_for(batch, data_iter):
            nonlocal current
            descs = getattr(batch, 'provide_data', None) or data_iter.provide_data
            labels = getattr(batch, 'provide_label', None) or data_iter.provide_label
            group = self._executors(cache, batch, list(descs) + list(labels or []), param_names)
            if group is not current:  # parameters travel with the training, not with a bucket
                if current is not None:
                    current.copy_to(self.arg_params, self.aux_params)
                group.set_params(self.arg_params, self.aux_params)
                if monitor is not None and not getattr(group, 'monitored', False):
                    for exe in group.execs:
                        monitor.install(exe)
                    group.monitored = True
                current = group
            return group

        train_data.reset()
        for epoch in range(self.begin_epoch, self.num_epoch):
            tic = time.time()
            eval_metric.reset()
            nbatch = 0
            while True:
                do_reset = True
                for batch in train_data:
                    group = group_for(batch, train_data)
                    group.load(batch)
                    if monitor is not None:
                        monitor.tic()
                    for exe in group.execs:
                        exe.forward(is_train=True)
                        exe.backward()
                    update(group, param_names)
                    if monitor is not None:
                        monitor.toc_print()
                    group.update_metric(eval_metric, batch.label)
                    nbatch += 1
                    _multiple_callbacks(batch_end_callback, BatchEndParam(epoch, nbatch, eval_metric, locals()))
                    if self.epoch_size is not None and nbatch >= self.epoch_size:
                        do_reset = False
                        break
                if do_reset:
                    logger.info('Epoch[%d] Resetting Data Iterator', epoch)
                    train_data.reset()
                if self.epoch_size is None or nbatch >= self.epoch_size:
                    break
            logger.info('Epoch[%d] Time cost=%.3f', epoch, time.time() - tic)
            if current is not None:
                current.copy_to(self.arg_params, self.aux_params)
            _multiple_callbacks(epoch_end_callback, epoch, self.symbol, self.arg_params, self.aux_params)
            if eval_data:
                self._evaluate(eval_data, eval_metric, epoch, group_for, eval_end_callback,
                               eval_batch_end_callback)

    def _evaluate(self, eval_data, eval_metric, epoch, group_for, eval_end_callback,
                  eval_batch_end_callback):
        eval_metric.reset()
        eval_data.reset()
        total = 0
        for i, batch in enumerate(eval_data):
            group = group_for(batch, eval_data)
            group.load(batch)
            for exe in group.execs:
                exe.forward(is_train=False)
            group.update_metric(eval_metric, batch.label)
            _multiple_callbacks(eval_batch_end_callback, BatchEndParam(epoch, i, eval_metric, locals()))
            total += 1
        _multiple_callbacks(eval_end_callback, BatchEndParam(epoch, total, eval_metric, locals()))
        eval_data.reset()

    def save(self, prefix, epoch=None, remove_amp_cast=True):
        """Checkpoint: ``prefix-symbol.json`` and ``prefix-%04d.params`` (epoch default num_epoch)."""
        epoch = self.num_epoch if epoch is None else epoch
        if epoch is None:
            raise ValueError('FeedForward.save: give an epoch (num_epoch is not set)')
        save_checkpoint(prefix, epoch, self.symbol, self.arg_params, self.aux_params,
                        remove_amp_cast=remove_amp_cast)

    @staticmethod
    def load(prefix, epoch, ctx=None, **kwargs):
        """A FeedForward from the checkpoint ``prefix`` at ``epoch`` (training resumes there)."""
        symbol, arg_params, aux_params = load_checkpoint(prefix, epoch)
        return FeedForward(symbol, ctx=ctx, arg_params=arg_params, aux_params=aux_params,
                           begin_epoch=epoch, **kwargs)

    @staticmethod
    def create(symbol, X, y=None, ctx=None, num_epoch=None, epoch_size=None, optimizer='sgd',
               initializer=None, eval_data=None, eval_metric='acc', epoch_end_callback=None,
               batch_end_callback=None, kvstore='local', logger=None, work_load_list=None,
               eval_end_callback=None, eval_batch_end_callback=None, **kwargs):
        """A FeedForward built and trained in one call."""
        model = FeedForward(symbol, ctx=ctx, num_epoch=num_epoch, epoch_size=epoch_size,
                            optimizer=optimizer, initializer=initializer, **kwargs)
        model.fit(X, y, eval_data=eval_data, eval_metric=eval_metric,
                  epoch_end_callback=epoch_end_callback, batch_end_callback=batch_end_callback,
                  kvstore=kvstore, logger=logger, work_load_list=work_load_list,
                  eval_end_callback=eval_end_callback, eval_batch_end_callback=eval_batch_end_callback)
        return model
