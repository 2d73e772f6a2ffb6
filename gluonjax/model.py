"""Checkpoints of symbolic models (MXNet's ``mx.model``).

A checkpoint is two files: ``prefix-symbol.json`` (the graph, in MXNet's JSON) and
``prefix-%04d.params`` (the arrays, in MXNet's binary ``.params`` format) whose keys
are ``arg:<name>`` for arguments and ``aux:<name>`` for auxiliary states. Files written
here load in MXNet 1.9.1 and the other way round.
"""
import logging
from collections import namedtuple

__all__ = ['BatchEndParam', 'save_checkpoint', 'load_checkpoint', 'load_params']

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


def _split_params(saved, fname):
    arg_params, aux_params = {}, {}
    if not isinstance(saved, dict):
        raise ValueError('Invalid param file %s: it holds a list of arrays, not arg:/aux: names' % fname)
    for key, value in saved.items():
        kind, _, name = key.partition(':')
        if kind == 'arg' and name:
            arg_params[name] = value
        elif kind == 'aux' and name:
            aux_params[name] = value
        else:
            raise ValueError('Invalid param file %s: key %r is neither arg:<name> nor aux:<name>'
                             % (fname, key))
    return arg_params, aux_params


def load_params(prefix, epoch):
    """``(arg_params, aux_params)`` read from ``prefix-%04d.params``."""
    from . import ndarray as nd
    fname = _params_name(prefix, epoch)
    return _split_params(nd.load(fname), fname)


def load_checkpoint(prefix, epoch):
    """``(symbol, arg_params, aux_params)`` of the checkpoint ``prefix`` at ``epoch``."""
    from . import symbol as sym
    symbol = sym.load('%s-symbol.json' % prefix)
    arg_params, aux_params = load_params(prefix, epoch)
    return symbol, arg_params, aux_params
