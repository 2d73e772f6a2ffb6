"""The ``npx`` operator functions, generated from the operator table.

Each public name maps to an operator of the table (``fully_connected`` is
``FullyConnected``); the calling convention is MXNet's (array inputs first, parameters
positionally in declared order or by keyword), shared with ``mx.nd`` through
:func:`gluonjax.ops._frontend.split_call`.
"""
from ..base import MXNetError
from ..ndarray.ndarray import NDArray
from ..ops import find_op
from ..ops._frontend import split_call, function_doc
from ..numpy._core import apply_op, is_symbol

# npx name -> operator of the table
_OPS = {
    'relu': 'relu', 'sigmoid': 'sigmoid', 'softmax': 'softmax', 'log_softmax': 'log_softmax',
    'masked_softmax': 'softmax', 'softmin': 'softmin', 'activation': 'Activation', 'leaky_relu': 'LeakyReLU',
    'batch_dot': 'batch_dot', 'sequence_mask': 'SequenceMask', 'one_hot': 'one_hot', 'pick': 'pick',
    'topk': 'topk', 'batch_norm': 'BatchNorm', 'layer_norm': 'LayerNorm', 'group_norm': 'GroupNorm',
    'instance_norm': 'InstanceNorm', 'convolution': 'Convolution', 'deconvolution': 'Deconvolution',
    'fully_connected': 'FullyConnected', 'pooling': 'Pooling', 'embedding': 'Embedding', 'dropout': 'Dropout',
    'rnn': 'RNN', 'gather_nd': 'gather_nd', 'scatter_nd': 'scatter_nd', 'reshape_like': 'reshape_like',
    'broadcast_like': 'broadcast_like', 'slice_channel': 'SliceChannel', 'smooth_l1': 'smooth_l1',
    'erf': 'erf', 'erfinv': 'erfinv', 'gamma': 'gamma', 'gammaln': 'gammaln', 'stop_gradient': 'BlockGrad',
    'batch_flatten': 'Flatten', 'l2_normalization': 'L2Normalization', 'lrn': 'LRN',
    'softmax_cross_entropy': 'softmax_cross_entropy', 'ctc_loss': 'CTCLoss', 'shape_array': 'shape_array',
}


def _is_input(x):
    return isinstance(x, NDArray) or is_symbol(x)


def _make(public, op):
    def fn(*args, **kwargs):
        inputs, params, extras = split_call(op, args, dict(kwargs), _is_input)
        for i, x in enumerate(inputs):
            if x is not None and not _is_input(x):
                raise MXNetError('npx.%s: input %d must be an mx.np.ndarray, got %s'
                                 % (public, i, type(x).__name__))
        return apply_op(op.name, inputs, params, out=extras.get('out'), hint=public)
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = function_doc(op)
    return fn


__all__ = []
for _public, _op_name in _OPS.items():
    _op = find_op(_op_name)
    if _op is not None:
        globals()[_public] = _make(_public, _op)
        __all__.append(_public)
del _public, _op_name, _op
