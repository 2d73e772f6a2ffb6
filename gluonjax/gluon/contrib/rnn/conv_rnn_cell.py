"""Convolutional recurrent cells (Shi et al., 2015): ``Conv{1,2,3}D{RNN,LSTM,GRU}Cell``.

The fully connected input-to-hidden and hidden-to-hidden maps of the plain cells become
convolutions; the states are feature maps. Parameter names, shapes and gate order are
MXNet 1.9.1's (``i2h_weight`` (gates * hidden_channels, in_channels, *i2h_kernel) in 'NC...'
layouts), so MXNet checkpoints load. The hidden-to-hidden convolution is padded to keep the
state's size, which is why ``h2h_kernel`` must be odd.
"""
from ....base import numeric_types
from ...rnn.rnn_cell import HybridRecurrentCell

__all__ = ['Conv1DRNNCell', 'Conv2DRNNCell', 'Conv3DRNNCell',
           'Conv1DLSTMCell', 'Conv2DLSTMCell', 'Conv3DLSTMCell',
           'Conv1DGRUCell', 'Conv2DGRUCell', 'Conv3DGRUCell']

_DEFAULT_LAYOUT = {1: 'NCW', 2: 'NCHW', 3: 'NCDHW'}


def _conv_out_size(sizes, kernels, pads, dilates):
    """Spatial size after a stride-1 convolution (0 stays 0: not known yet)."""
    return tuple(x + 2 * p - d * (k - 1) if x else 0
                 for x, k, p, d in zip(sizes, kernels, pads, dilates))


class _BaseConvRNNCell(HybridRecurrentCell):
    """A convolutional recurrent cell of ``_dims`` spatial dimensions; subclasses give the
    gates (``_gate_names``) and the step (``hybrid_forward``)."""
    _dims = None
    _gate_names = ()

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad=0,
                 i2h_dilate=1, h2h_dilate=1, i2h_weight_initializer=None,
                 h2h_weight_initializer=None, i2h_bias_initializer='zeros',
                 h2h_bias_initializer='zeros', conv_layout=None, activation='tanh',
                 prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        dims = self._dims
        specs = dict(i2h_kernel=i2h_kernel, i2h_pad=i2h_pad, i2h_dilate=i2h_dilate,
                     h2h_kernel=h2h_kernel, h2h_dilate=h2h_dilate)
        for name, spec in specs.items():
            assert isinstance(spec, numeric_types) or len(spec) == dims, \
                "For {0}D convolution, the convolution settings can only be either int or " \
                "list/tuple of length {0}: {1}={2}".format(dims, name, spec)
        spec = {name: (value,) * dims if isinstance(value, numeric_types) else tuple(value)
                for name, value in specs.items()}
        assert all(k % 2 == 1 for k in spec['h2h_kernel']), \
            "Only support odd number, get h2h_kernel= %s" % str(h2h_kernel)
        self._hidden_channels = hidden_channels
        self._input_shape = tuple(input_shape)
        self._conv_layout = conv_layout or _DEFAULT_LAYOUT[dims]
        self._activation = activation
        self._i2h_kernel, self._i2h_pad = spec['i2h_kernel'], spec['i2h_pad']
        self._i2h_dilate, self._h2h_kernel = spec['i2h_dilate'], spec['h2h_kernel']
        self._h2h_dilate = spec['h2h_dilate']
        self._stride = (1,) * dims
        # 'same' padding for the state: d * (k - 1) / 2 on each side
        self._h2h_pad = tuple(d * (k - 1) // 2 for d, k in zip(self._h2h_dilate, self._h2h_kernel))
        self._channel_axis = self._conv_layout.find('C')
        channels_first = self._channel_axis == 1
        # input_shape is one step's shape without the batch axis, in conv_layout
        in_channels = self._input_shape[self._channel_axis - 1]
        spatial = self._input_shape[1:] if channels_first else self._input_shape[:-1]
        out_size = _conv_out_size(spatial, self._i2h_kernel, self._i2h_pad, self._i2h_dilate)
        self._state_shape = ((hidden_channels,) + out_size if channels_first
                             else out_size + (hidden_channels,))
        total = hidden_channels * len(self._gate_names)
        i2h_shape = ((total, in_channels) + self._i2h_kernel if channels_first
                     else (total,) + self._i2h_kernel + (in_channels,))
        h2h_shape = ((total, hidden_channels) + self._h2h_kernel if channels_first
                     else (total,) + self._h2h_kernel + (hidden_channels,))
        self.i2h_weight = self.params.get('i2h_weight', shape=i2h_shape,
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get('h2h_weight', shape=h2h_shape,
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get('i2h_bias', shape=(total,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get('h2h_bias', shape=(total,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)

    def _weight_channel_axis(self):
        return 1 if self._channel_axis == 1 else -1

    def _infer_param_shapes(self, x, *args):
        """An input_shape given with 0 channels takes them from the first input."""
        shape = list(self.i2h_weight.shape)
        shape[self._weight_channel_axis()] = int(x.shape[self._channel_axis])
        self.i2h_weight.shape = tuple(shape)

    def state_info(self, batch_size=0):
        info = {'shape': (batch_size,) + self._state_shape, '__layout__': self._conv_layout}
        return [dict(info) for _ in range(self._num_states)]

    def __repr__(self):
        shape = self.i2h_weight.shape
        in_channels = shape[self._weight_channel_axis()]
        return '{name}({inp} -> {out}, {act}, {layout})'.format(
            name=type(self).__name__, inp=in_channels if in_channels else None, out=shape[0],
            act=self._activation, layout=self._conv_layout)

    def _convolutions(self, F, inputs, state, i2h_weight, h2h_weight, i2h_bias, h2h_bias,
                      prefix):
        """(input-to-hidden, hidden-to-hidden) convolutions of all gates at once."""
        num_filter = self._hidden_channels * len(self._gate_names)
        i2h = F.Convolution(data=inputs, weight=i2h_weight, bias=i2h_bias, num_filter=num_filter,
                            kernel=self._i2h_kernel, stride=self._stride, pad=self._i2h_pad,
                            dilate=self._i2h_dilate, layout=self._conv_layout,
                            name=prefix + 'i2h')
        h2h = F.Convolution(data=state, weight=h2h_weight, bias=h2h_bias, num_filter=num_filter,
                            kernel=self._h2h_kernel, stride=self._stride, pad=self._h2h_pad,
                            dilate=self._h2h_dilate, layout=self._conv_layout,
                            name=prefix + 'h2h')
        return i2h, h2h

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h, h2h = self._convolutions(F, inputs, states[0], i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        return self._step(F, i2h, h2h, states, prefix)


class _ConvRNNCell(_BaseConvRNNCell):
    _gate_names = ('',)
    _num_states = 1

    def _alias(self):
        return 'conv_rnn'

    def _step(self, F, i2h, h2h, states, prefix):
        output = self._get_activation(F, i2h + h2h, self._activation, name=prefix + 'out')
        return output, [output]


class _ConvLSTMCell(_BaseConvRNNCell):
    """States are ``[h, c]``; gates [input, forget, cell, output]."""
    _gate_names = ('_i', '_f', '_c', '_o')
    _num_states = 2

    def _alias(self):
        return 'conv_lstm'

    def _step(self, F, i2h, h2h, states, prefix):
        gates = F.SliceChannel(i2h + h2h, num_outputs=4, axis=self._channel_axis,
                               name=prefix + 'slice')
        in_gate = F.Activation(gates[0], act_type='sigmoid', name=prefix + 'i')
        forget_gate = F.Activation(gates[1], act_type='sigmoid', name=prefix + 'f')
        in_transform = self._get_activation(F, gates[2], self._activation, name=prefix + 'c')
        out_gate = F.Activation(gates[3], act_type='sigmoid', name=prefix + 'o')
        next_c = F.elemwise_add(forget_gate * states[1], in_gate * in_transform,
                                name=prefix + 'state')
        next_h = F.elemwise_mul(out_gate, self._get_activation(F, next_c, self._activation),
                                name=prefix + 'out')
        return next_h, [next_h, next_c]


class _ConvGRUCell(_BaseConvRNNCell):
    """Gates [reset, update, new]; as in MXNet the reset gate scales the whole
    hidden-to-hidden convolution, its bias included."""
    _gate_names = ('_r', '_z', '_o')
    _num_states = 1

    def _alias(self):
        return 'conv_gru'

    def _step(self, F, i2h, h2h, states, prefix):
        i2h_r, i2h_z, i2h_n = F.SliceChannel(i2h, num_outputs=3, axis=self._channel_axis,
                                             name=prefix + 'i2h_slice')
        h2h_r, h2h_z, h2h_n = F.SliceChannel(h2h, num_outputs=3, axis=self._channel_axis,
                                             name=prefix + 'h2h_slice')
        reset_gate = F.Activation(i2h_r + h2h_r, act_type='sigmoid', name=prefix + 'r_act')
        update_gate = F.Activation(i2h_z + h2h_z, act_type='sigmoid', name=prefix + 'z_act')
        candidate = self._get_activation(F, i2h_n + reset_gate * h2h_n, self._activation,
                                         name=prefix + 'h_act')
        next_h = F.elemwise_add((1. - update_gate) * candidate, update_gate * states[0],
                                name=prefix + 'out')
        return next_h, [next_h]


_PARAMS_DOC = """
    Parameters
    ----------
    input_shape : tuple of int
        One step's input shape without the batch axis, in ``conv_layout`` (channels may be 0:
        taken from the first input).
    hidden_channels : int
    i2h_kernel, h2h_kernel : int or tuple
        Kernels of the input and state convolutions (``h2h_kernel`` odd).
    i2h_pad, i2h_dilate, h2h_dilate : int or tuple
    i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer
    conv_layout : str, default {layout}
    activation : str or Block, default 'tanh'
    prefix, params
"""


def _document(cls, summary):
    cls.__doc__ = summary + '\n' + _PARAMS_DOC.format(layout=repr(_DEFAULT_LAYOUT[cls._dims]))
    return cls


class Conv1DRNNCell(_ConvRNNCell):
    _dims = 1


class Conv2DRNNCell(_ConvRNNCell):
    _dims = 2


class Conv3DRNNCell(_ConvRNNCell):
    _dims = 3


class Conv1DLSTMCell(_ConvLSTMCell):
    _dims = 1


class Conv2DLSTMCell(_ConvLSTMCell):
    _dims = 2


class Conv3DLSTMCell(_ConvLSTMCell):
    _dims = 3


class Conv1DGRUCell(_ConvGRUCell):
    _dims = 1


class Conv2DGRUCell(_ConvGRUCell):
    _dims = 2


class Conv3DGRUCell(_ConvGRUCell):
    _dims = 3


for _cls, _what in [(Conv1DRNNCell, 'RNN'), (Conv2DRNNCell, 'RNN'), (Conv3DRNNCell, 'RNN'),
                    (Conv1DLSTMCell, 'LSTM'), (Conv2DLSTMCell, 'LSTM'), (Conv3DLSTMCell, 'LSTM'),
                    (Conv1DGRUCell, 'GRU'), (Conv2DGRUCell, 'GRU'), (Conv3DGRUCell, 'GRU')]:
    _document(_cls, '%dD convolutional %s cell.' % (_cls._dims, _what))
del _cls, _what
