"""Checkpoints of networks built from ``mx.rnn`` cells, saved with the per-gate weights."""
import warnings

from ..model import load_checkpoint, save_checkpoint
from .rnn_cell import BaseRNNCell

__all__ = ['rnn_unroll', 'save_rnn_checkpoint', 'load_rnn_checkpoint', 'do_rnn_checkpoint']


def rnn_unroll(cell, length, inputs=None, begin_state=None, input_prefix='', layout='NTC'):
    """Deprecated: ``cell.unroll(length, inputs, begin_state, layout=layout)``."""
    warnings.warn('rnn_unroll is deprecated. Please call cell.unroll directly.')
    return cell.unroll(length=length, inputs=inputs, begin_state=begin_state, layout=layout)


def _as_cells(cells):
    return [cells] if isinstance(cells, BaseRNNCell) else cells


def save_rnn_checkpoint(cells, prefix, epoch, symbol, arg_params, aux_params):
    """``model.save_checkpoint`` with each cell's weights unpacked (one array per gate), so the
    file does not depend on whether the cells were fused."""
    for cell in _as_cells(cells):
        arg_params = cell.unpack_weights(arg_params)
    save_checkpoint(prefix, epoch, symbol, arg_params, aux_params)


def load_rnn_checkpoint(cells, prefix, epoch):
    """``model.load_checkpoint`` with the weights packed again for ``cells``."""
    sym, arg_params, aux_params = load_checkpoint(prefix, epoch)
    for cell in _as_cells(cells):
        arg_params = cell.pack_weights(arg_params)
    return sym, arg_params, aux_params


def do_rnn_checkpoint(cells, prefix, period=1):
    """An epoch-end callback saving an RNN checkpoint every ``period`` epochs."""
    period = int(max(1, period))

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            save_rnn_checkpoint(cells, prefix, iter_no + 1, sym, arg, aux)
    return _callback
