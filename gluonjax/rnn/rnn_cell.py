"""MXNet 1.x's symbolic recurrent cells (``mx.rnn``), built on the symbol layer.

A cell turns one time step's input Symbol and its state Symbols into an output Symbol and the
next states; ``unroll`` repeats that over a sequence. The graphs, node names and parameter
names are MXNet 1.9.1's (``lstm_t3_out``, ``lstm_i2h_weight``), so checkpoints and
``list_outputs()`` match. ``FusedRNNCell`` is one ``RNN`` operator node over the flat parameter
vector; ``unpack_weights``/``pack_weights`` convert between that vector and per-gate arrays.
"""
import functools
import warnings

import numpy as np

from .. import initializer as init
from .. import ndarray
from .. import symbol
from ..ops.nn_rnn import GATE_SUFFIXES, rnn_param_pieces, rnn_param_size
from ..symbol import Symbol

__all__ = ['RNNParams', 'BaseRNNCell', 'RNNCell', 'LSTMCell', 'GRUCell', 'FusedRNNCell',
           'SequentialRNNCell', 'DropoutCell', 'ModifierCell', 'ZoneoutCell', 'ResidualCell',
           'BidirectionalCell', 'BaseConvRNNCell', 'ConvRNNCell', 'ConvLSTMCell', 'ConvGRUCell']


def _like(values, array):
    """NumPy ``values`` as an NDArray on ``array``'s device and dtype. Packing and unpacking
    weights moves them on the host: slicing and concatenating on the device would compile a
    program for every piece's shape."""
    return ndarray.array(values, ctx=array.context, dtype=array.dtype)


def _normalize_sequence(length, inputs, layout, merge, in_layout=None):
    """``inputs`` as one Symbol with time on ``layout``'s T axis (merge True) or as a list of
    ``length`` per-step Symbols (merge False); None keeps the form given. Returns (inputs, T axis)."""
    if inputs is None:
        raise ValueError('unroll: inputs must be a Symbol or a list of Symbols, got None')
    axis = layout.find('T')
    in_axis = in_layout.find('T') if in_layout is not None else axis
    if isinstance(inputs, Symbol):
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise ValueError('unroll does not take a grouped symbol as input: pass list(inputs), '
                                 'or one symbol for unroll to split along time')
            inputs = list(symbol.split(inputs, axis=in_axis, num_outputs=length, squeeze_axis=1))
    else:
        if length is not None and len(inputs) != length:
            raise ValueError('unroll: %d inputs given for length %d' % (len(inputs), length))
        if merge is True:
            inputs = symbol.Concat(*[symbol.expand_dims(step, axis=axis) for step in inputs], dim=axis)
            in_axis = axis
    if isinstance(inputs, Symbol) and axis != in_axis:
        inputs = symbol.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis


class RNNParams:
    """The weight Variables of a cell, made once per name so that cells can share them."""

    def __init__(self, prefix=''):
        self._prefix = prefix
        self._params = {}

    def get(self, name, **kwargs):
        """The Variable ``prefix + name``; ``kwargs`` (init, shape, ...) apply when it is made."""
        name = self._prefix + name
        if name not in self._params:
            self._params[name] = symbol.Variable(name, **kwargs)
        return self._params[name]


class BaseRNNCell:
    """A recurrent cell: ``cell(inputs, states) -> (output, next_states)`` on Symbols.

    ``prefix`` starts every node and parameter name; ``params`` (an RNNParams) shares weights
    with another cell. Subclasses give ``state_info``, ``_gate_names`` and ``__call__``.
    """

    def __init__(self, prefix='', params=None):
        if params is None:
            params = RNNParams(prefix)
            self._own_params = True
        else:
            self._own_params = False
        self._prefix = prefix
        self._params = params
        self._modified = False
        self.reset()

    def reset(self):
        """Restart the step and state counters that number the nodes (``_t0_``, ``begin_state_0``)."""
        self._init_counter = -1
        self._counter = -1
        for cell in getattr(self, '_cells', ()):
            cell.reset()

    def __call__(self, inputs, states):
        raise NotImplementedError('%s does not define a step' % type(self).__name__)

    @property
    def params(self):
        """The cell's RNNParams (asking for them means they may be shared: not owned any more)."""
        self._own_params = False
        return self._params

    @property
    def state_info(self):
        """One dict per state: its ``shape`` (0 for the batch) and ``__layout__``."""
        raise NotImplementedError()

    @property
    def state_shape(self):
        return [info['shape'] for info in self.state_info]

    @property
    def _gate_names(self):
        """Suffixes of the gates stacked in the i2h/h2h weights (``('_i', '_f', '_c', '_o')``)."""
        return ()

    def begin_state(self, func=symbol.zeros, **kwargs):
        """The initial states, one ``func(name=prefix + 'begin_state_<n>', shape=..., ...)`` each."""
        if self._modified:
            raise AssertionError('After applying a modifier cell (%s) the base cell cannot be called '
                               'directly: call the modifier cell instead.' % type(self).__name__)
        states = []
        for info in self.state_info:
            self._init_counter += 1
            args = dict(kwargs)
            if info is not None:
                args.update(info)
            states.append(func(name='%sbegin_state_%d' % (self._prefix, self._init_counter), **args))
        return states

    def unpack_weights(self, args):
        """``args`` with the stacked i2h/h2h weights and biases split into one array per gate."""
        args = args.copy()
        if not self._gate_names:
            return args
        h = self._num_hidden
        for group in ('i2h', 'h2h'):
            for kind in ('weight', 'bias'):
                stacked = args.pop('%s%s_%s' % (self._prefix, group, kind))
                values = stacked.asnumpy()
                for j, gate in enumerate(self._gate_names):
                    args['%s%s%s_%s' % (self._prefix, group, gate, kind)] = _like(values[j * h:(j + 1) * h], stacked)
        return args

    def pack_weights(self, args):
        """The inverse of :meth:`unpack_weights`: per-gate arrays stacked back into i2h/h2h."""
        args = args.copy()
        if not self._gate_names:
            return args
        for group in ('i2h', 'h2h'):
            for kind in ('weight', 'bias'):
                gates = [args.pop('%s%s%s_%s' % (self._prefix, group, gate, kind)) for gate in self._gate_names]
                args['%s%s_%s' % (self._prefix, group, kind)] = _like(np.concatenate([g.asnumpy() for g in gates]),
                                                                      gates[0])
        return args

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None):
        """Apply the cell ``length`` times: ``(outputs, final states)``.

        ``inputs`` is one Symbol (split along ``layout``'s T axis) or a list of per-step Symbols;
        ``merge_outputs`` True gives one Symbol, False a list, None the form of ``inputs``.
        """
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, False)
        states = self.begin_state() if begin_state is None else begin_state
        outputs = []
        for step in range(length):
            output, states = self(inputs[step], states)
            outputs.append(output)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, inputs, activation, **kwargs):
        """``activation`` applied: an act_type name, or a function building the node."""
        if isinstance(activation, str):
            return symbol.Activation(inputs, act_type=activation, **kwargs)
        return activation(inputs, **kwargs)


class _DenseCell(BaseRNNCell):
    """A cell whose gates are two fully connected layers, of the input (i2h) and of the hidden
    state (h2h), with ``num_states`` states of ``num_hidden`` each."""
    num_states = 1

    def __init__(self, num_hidden, prefix, params, i2h_bias_init=None):
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._iW = self.params.get('i2h_weight')
        self._hW = self.params.get('h2h_weight')
        self._iB = self.params.get('i2h_bias', **({'init': i2h_bias_init} if i2h_bias_init else {}))
        self._hB = self.params.get('h2h_bias')

    @property
    def state_info(self):
        return [{'shape': (0, self._num_hidden), '__layout__': 'NC'} for _ in range(self.num_states)]


class RNNCell(_DenseCell):
    """Elman cell: ``out = activation(W_i x + b_i + W_h h + b_h)``."""

    def __init__(self, num_hidden, activation='tanh', prefix='rnn_', params=None):
        super().__init__(num_hidden, prefix, params)
        self._activation = activation

    @property
    def _gate_names(self):
        return ('',)

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB,
                                    num_hidden=self._num_hidden, name='%si2h' % name)
        h2h = symbol.FullyConnected(data=states[0], weight=self._hW, bias=self._hB,
                                    num_hidden=self._num_hidden, name='%sh2h' % name)
        output = self._get_activation(i2h + h2h, self._activation, name='%sout' % name)
        return output, [output]


class LSTMCell(_DenseCell):
    """LSTM cell (gates i, f, c, o stacked in that order); the forget gate's i2h bias starts at
    ``forget_bias``."""
    num_states = 2

    def __init__(self, num_hidden, prefix='lstm_', params=None, forget_bias=1.0):
        super().__init__(num_hidden, prefix, params, i2h_bias_init=init.LSTMBias(forget_bias=forget_bias))

    @property
    def _gate_names(self):
        return GATE_SUFFIXES['lstm']

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        h4 = self._num_hidden * 4
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB, num_hidden=h4, name='%si2h' % name)
        h2h = symbol.FullyConnected(data=states[0], weight=self._hW, bias=self._hB, num_hidden=h4, name='%sh2h' % name)
        gates = symbol.SliceChannel(i2h + h2h, num_outputs=4, name='%sslice' % name)
        return _lstm_update(gates, states[1], name, lambda x, **kw: symbol.Activation(x, act_type='tanh', **kw))


def _lstm_update(gates, prev_c, name, activation):
    """(next_h, [next_h, next_c]) from the four sliced gate pre-activations of an LSTM step."""
    in_gate = symbol.Activation(gates[0], act_type='sigmoid', name='%si' % name)
    forget_gate = symbol.Activation(gates[1], act_type='sigmoid', name='%sf' % name)
    in_transform = activation(gates[2], name='%sc' % name)
    out_gate = symbol.Activation(gates[3], act_type='sigmoid', name='%so' % name)
    next_c = symbol._internal._plus(forget_gate * prev_c, in_gate * in_transform, name='%sstate' % name)
    next_h = symbol._internal._mul(out_gate, activation(next_c), name='%sout' % name)
    return next_h, [next_h, next_c]


def _gru_update(i2h, h2h, prev_h, name, activation):
    """(next_h, [next_h]) of a GRU step from its i2h and h2h pre-activations (r, z, n stacked)."""
    i2h_r, i2h_z, i2h_n = symbol.SliceChannel(i2h, num_outputs=3, name='%s_i2h_slice' % name)
    h2h_r, h2h_z, h2h_n = symbol.SliceChannel(h2h, num_outputs=3, name='%s_h2h_slice' % name)
    reset_gate = symbol.Activation(i2h_r + h2h_r, act_type='sigmoid', name='%s_r_act' % name)
    update_gate = symbol.Activation(i2h_z + h2h_z, act_type='sigmoid', name='%s_z_act' % name)
    candidate = activation(i2h_n + reset_gate * h2h_n, name='%s_h_act' % name)
    next_h = symbol._internal._plus((1. - update_gate) * candidate, update_gate * prev_h, name='%sout' % name)
    return next_h, [next_h]


class GRUCell(_DenseCell):
    """GRU cell (Cho et al., 2014; gates r, z and the candidate stacked in that order)."""

    def __init__(self, num_hidden, prefix='gru_', params=None):
        super().__init__(num_hidden, prefix, params)

    @property
    def _gate_names(self):
        return GATE_SUFFIXES['gru']

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        h3 = self._num_hidden * 3
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB, num_hidden=h3, name='%s_i2h' % name)
        h2h = symbol.FullyConnected(data=states[0], weight=self._hW, bias=self._hB, num_hidden=h3, name='%s_h2h' % name)
        return _gru_update(i2h, h2h, states[0], name,
                           lambda x, **kw: symbol.Activation(x, act_type='tanh', **kw))


class FusedRNNCell(BaseRNNCell):
    """A stack of recurrent layers as one ``RNN`` operator node (``mode``: rnn_relu, rnn_tanh,
    lstm, gru) over one flat ``<prefix>parameters`` Variable. It is unrolled, never stepped."""

    def __init__(self, num_hidden, num_layers=1, mode='lstm', bidirectional=False, dropout=0.,
                 get_next_state=False, forget_bias=1.0, prefix=None, params=None):
        if mode not in GATE_SUFFIXES:
            raise ValueError('FusedRNNCell: mode must be one of %s, got %r' % (', '.join(GATE_SUFFIXES), mode))
        if prefix is None:
            prefix = '%s_' % mode
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._dropout = dropout
        self._get_next_state = get_next_state
        self._directions = ['l', 'r'] if bidirectional else ['l']
        initializer = init.FusedRNN(None, num_hidden, num_layers, mode, bidirectional, forget_bias)
        self._parameter = self.params.get('parameters', init=initializer)

    @property
    def state_info(self):
        shape = (len(self._directions) * self._num_layers, 0, self._num_hidden)
        return [{'shape': shape, '__layout__': 'LNC'} for _ in range(2 if self._mode == 'lstm' else 1)]

    @property
    def _gate_names(self):
        return GATE_SUFFIXES[self._mode]

    def _input_size(self, flat_size):
        """The input width a flat parameter vector of ``flat_size`` values was made for."""
        h, dirs, gates = self._num_hidden, len(self._directions), len(self._gate_names)
        per_first_layer = flat_size // (gates * h * dirs) - (self._num_layers - 1) * (h * dirs + h + 2)
        input_size = per_first_layer - h - 2
        if input_size <= 0 or rnn_param_size(self._mode, input_size, h, self._num_layers,
                                              self._bidirectional) != flat_size:
            raise ValueError('FusedRNNCell: %d parameters do not fit a %d-layer %s of %d hidden units'
                             % (flat_size, self._num_layers, self._mode, h))
        return input_size

    def _pieces(self, input_size):
        return rnn_param_pieces(self._prefix, self._mode, input_size, self._num_hidden,
                                self._num_layers, self._bidirectional)

    def unpack_weights(self, args):
        """``args`` with ``<prefix>parameters`` replaced by one array per gate, layer and direction
        (``<prefix>l0_i2h_f_weight``, ...)."""
        args = args.copy()
        flat = args.pop(self._parameter.name)
        values = flat.asnumpy()
        for name, start, shape in self._pieces(self._input_size(flat.size)):
            size = 1
            for d in shape:
                size *= d
            args[name] = _like(values[start:start + size].reshape(shape), flat)
        return args

    def pack_weights(self, args):
        """The inverse of :meth:`unpack_weights`: the per-gate arrays as one flat vector."""
        args = args.copy()
        first = args['%sl0_i2h%s_weight' % (self._prefix, self._gate_names[0])]
        pieces = [args.pop(name).asnumpy().reshape(-1) for name, _, _ in self._pieces(first.shape[1])]
        args[self._parameter.name] = _like(np.concatenate(pieces), first)
        return args

    def __call__(self, inputs, states):
        raise NotImplementedError('FusedRNNCell cannot be stepped. Please use unroll')

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None):
        self.reset()
        inputs, axis = _normalize_sequence(length, inputs, layout, True)
        if axis == 1:
            warnings.warn('NTC layout detected. Consider using TNC for FusedRNNCell for faster speed')
            inputs = symbol.swapaxes(inputs, dim1=0, dim2=1)
        elif axis != 0:
            raise ValueError('FusedRNNCell: layout %r must have T first or second' % layout)
        states = self.begin_state() if begin_state is None else begin_state
        state_inputs = {'state': states[0]}
        if self._mode == 'lstm':
            state_inputs['state_cell'] = states[1]
        rnn = symbol.RNN(data=inputs, parameters=self._parameter, state_size=self._num_hidden,
                         num_layers=self._num_layers, bidirectional=self._bidirectional,
                         p=self._dropout, state_outputs=self._get_next_state, mode=self._mode,
                         name=self._prefix + 'rnn', **state_inputs)
        if self._get_next_state:
            outputs, states = rnn[0], [rnn[k] for k in range(1, len(rnn.list_outputs()))]
            for state in states:
                state._set_attr(__layout__='LNC')
        else:
            outputs, states = rnn, []
        if axis == 1:
            outputs = symbol.swapaxes(outputs, dim1=0, dim2=1)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def unfuse(self):
        """The same network as a SequentialRNNCell of per-step cells with the same parameter names."""
        def make(cell_prefix):
            h = self._num_hidden
            if self._mode in ('rnn_relu', 'rnn_tanh'):
                return RNNCell(h, activation=self._mode[4:], prefix=cell_prefix)
            return (LSTMCell if self._mode == 'lstm' else GRUCell)(h, prefix=cell_prefix)

        stack = SequentialRNNCell()
        for layer in range(self._num_layers):
            if self._bidirectional:
                stack.add(BidirectionalCell(make('%sl%d_' % (self._prefix, layer)),
                                            make('%sr%d_' % (self._prefix, layer)),
                                            output_prefix='%sbi_l%d_' % (self._prefix, layer)))
            else:
                stack.add(make('%sl%d_' % (self._prefix, layer)))
            if self._dropout > 0 and layer != self._num_layers - 1:
                stack.add(DropoutCell(self._dropout, prefix='%s_dropout%d_' % (self._prefix, layer)))
        return stack


def _adopt_params(parent, children, override, what):
    """Collect the children's parameters in ``parent``'s; with ``override`` (the parent was given
    ``params``) the children, which must own theirs, take the parent's first."""
    if override:
        for child in children:
            if not child._own_params:
                raise AssertionError('Either specify params for %s or child cells, not both.' % what)
            child.params._params.update(parent.params._params)
    for child in children:
        parent.params._params.update(child.params._params)


class _CompositeCell(BaseRNNCell):
    """A cell made of the cells in ``self._cells``: their weights are (un)packed in turn."""

    def unpack_weights(self, args):
        for cell in self._cells:
            args = cell.unpack_weights(args)
        return args

    def pack_weights(self, args):
        for cell in self._cells:
            args = cell.pack_weights(args)
        return args


class SequentialRNNCell(_CompositeCell):
    """Cells applied one after another, each on the previous one's output."""

    def __init__(self, params=None):
        super().__init__(prefix='', params=params)
        self._override_cell_params = params is not None
        self._cells = []

    def add(self, cell):
        """Append ``cell`` to the stack."""
        self._cells.append(cell)
        _adopt_params(self, [cell], self._override_cell_params, 'SequentialRNNCell')

    @property
    def state_info(self):
        return [info for cell in self._cells for info in cell.state_info]

    def begin_state(self, **kwargs):
        if self._modified:
            raise AssertionError('After applying a modifier cell the base cell cannot be called directly.')
        return [state for cell in self._cells for state in cell.begin_state(**kwargs)]

    def __call__(self, inputs, states):
        self._counter += 1
        next_states, pos = [], 0
        for cell in self._cells:
            if isinstance(cell, BidirectionalCell):
                raise NotImplementedError('a SequentialRNNCell holding a BidirectionalCell cannot be '
                                          'stepped. Please use unroll')
            n = len(cell.state_info)
            inputs, cell_states = cell(inputs, states[pos:pos + n])
            pos += n
            next_states.extend(cell_states)
        return inputs, next_states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None):
        self.reset()
        if begin_state is None:
            begin_state = self.begin_state()
        next_states, pos = [], 0
        last = len(self._cells) - 1
        for i, cell in enumerate(self._cells):
            n = len(cell.state_info)
            inputs, states = cell.unroll(length, inputs=inputs, begin_state=begin_state[pos:pos + n],
                                         layout=layout, merge_outputs=merge_outputs if i == last else None)
            pos += n
            next_states.extend(states)
        return inputs, next_states


class DropoutCell(BaseRNNCell):
    """Dropout on the input, with no state (put between the layers of a SequentialRNNCell)."""

    def __init__(self, dropout, prefix='dropout_', params=None):
        super().__init__(prefix, params)
        if not isinstance(dropout, (int, float)):
            raise ValueError('DropoutCell: dropout must be a number, got %r' % (dropout,))
        self.dropout = dropout

    @property
    def state_info(self):
        return []

    def __call__(self, inputs, states):
        if self.dropout > 0:
            inputs = symbol.Dropout(data=inputs, p=self.dropout)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None):
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, Symbol):  # one node over the whole sequence
            return self(inputs, [])
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout, merge_outputs=merge_outputs)


class ModifierCell(BaseRNNCell):
    """A cell wrapping ``base_cell`` to change what it does; the base cell is then used through it
    only (its own ``begin_state`` refuses)."""

    def __init__(self, base_cell):
        super().__init__()
        base_cell._modified = True
        self.base_cell = base_cell

    @property
    def params(self):
        self._own_params = False
        return self.base_cell.params

    @property
    def state_info(self):
        return self.base_cell.state_info

    def begin_state(self, init_sym=symbol.zeros, **kwargs):
        if self._modified:
            raise AssertionError('After applying a modifier cell the base cell cannot be called directly.')
        self.base_cell._modified = False
        try:
            return self.base_cell.begin_state(func=init_sym, **kwargs)
        finally:
            self.base_cell._modified = True

    def unpack_weights(self, args):
        return self.base_cell.unpack_weights(args)

    def pack_weights(self, args):
        return self.base_cell.pack_weights(args)

    def __call__(self, inputs, states):
        raise NotImplementedError('%s does not define a step' % type(self).__name__)


class ZoneoutCell(ModifierCell):
    """Zoneout (Krueger et al., 2016): in training each unit keeps its previous output/state with
    probability ``zoneout_outputs``/``zoneout_states``."""

    def __init__(self, base_cell, zoneout_outputs=0., zoneout_states=0.):
        if isinstance(base_cell, FusedRNNCell):
            raise ValueError("FusedRNNCell doesn't support zoneout. Please unfuse first.")
        if isinstance(base_cell, BidirectionalCell):
            raise ValueError("BidirectionalCell doesn't support zoneout since it doesn't support step. "
                             "Please add ZoneoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self.prev_output = None

    def reset(self):
        super().reset()
        self.prev_output = None

    def __call__(self, inputs, states):
        next_output, next_states = self.base_cell(inputs, states)

        def keep_new(p, like):  # 1 where the new value is kept (0 only in training, with probability p)
            return symbol.Dropout(symbol.ones_like(like), p=p)

        prev_output = self.prev_output if self.prev_output is not None else symbol.zeros((0, 0))
        output = next_output
        if self.zoneout_outputs != 0.:
            output = symbol.where(keep_new(self.zoneout_outputs, next_output), next_output, prev_output)
        if self.zoneout_states != 0.:
            next_states = [symbol.where(keep_new(self.zoneout_states, new), new, old)
                           for new, old in zip(next_states, states)]
        self.prev_output = output
        return output, next_states


class ResidualCell(ModifierCell):
    """Adds the input to the base cell's output (He et al., 2015)."""

    def __call__(self, inputs, states):
        output, states = self.base_cell(inputs, states)
        return symbol.elemwise_add(output, inputs, name='%s_plus_residual' % output.name), states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None):
        self.reset()
        self.base_cell._modified = False
        try:
            outputs, states = self.base_cell.unroll(length, inputs=inputs, begin_state=begin_state,
                                                    layout=layout, merge_outputs=merge_outputs)
        finally:
            self.base_cell._modified = True
        if merge_outputs is None:
            merge_outputs = isinstance(outputs, Symbol)
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if merge_outputs:
            return symbol.elemwise_add(outputs, inputs, name='%s_plus_residual' % outputs.name), states
        return [symbol.elemwise_add(o, i, name='%s_plus_residual' % o.name)
                for o, i in zip(outputs, inputs)], states


class BidirectionalCell(_CompositeCell):
    """``l_cell`` over the sequence and ``r_cell`` over it reversed, outputs concatenated per step
    (named ``<output_prefix>t<i>``, or ``<output_prefix>out`` merged)."""

    def __init__(self, l_cell, r_cell, params=None, output_prefix='bi_'):
        super().__init__('', params=params)
        self._output_prefix = output_prefix
        self._override_cell_params = params is not None
        _adopt_params(self, [l_cell, r_cell], self._override_cell_params, 'BidirectionalCell')
        self._cells = [l_cell, r_cell]

    def __call__(self, inputs, states):
        raise NotImplementedError('Bidirectional cannot be stepped. Please use unroll')

    @property
    def state_info(self):
        return [info for cell in self._cells for info in cell.state_info]

    def begin_state(self, **kwargs):
        if self._modified:
            raise AssertionError('After applying a modifier cell the base cell cannot be called directly.')
        return [state for cell in self._cells for state in cell.begin_state(**kwargs)]

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None):
        self.reset()
        inputs, axis = _normalize_sequence(length, inputs, layout, False)
        states = self.begin_state() if begin_state is None else begin_state
        l_cell, r_cell = self._cells
        n_left = len(l_cell.state_info)
        l_outputs, l_states = l_cell.unroll(length, inputs=inputs, begin_state=states[:n_left],
                                            layout=layout, merge_outputs=merge_outputs)
        r_outputs, r_states = r_cell.unroll(length, inputs=list(reversed(inputs)), begin_state=states[n_left:],
                                            layout=layout, merge_outputs=merge_outputs)
        if merge_outputs is None:
            merge_outputs = isinstance(l_outputs, Symbol) and isinstance(r_outputs, Symbol)
        if merge_outputs:
            # r_cell's merged outputs run backwards in time: flip them to line up with l_cell's
            l_outputs, r_outputs = [l_outputs], [symbol.reverse(r_outputs, axis=axis)]
            names = ['%sout' % self._output_prefix]
        else:
            l_outputs, r_outputs = (_as_steps(o, length, axis) for o in (l_outputs, r_outputs))
            r_outputs = list(reversed(r_outputs))
            names = ['%st%d' % (self._output_prefix, i) for i in range(length)]
        outputs = [symbol.Concat(l_o, r_o, dim=2 if merge_outputs else 1, name=name)
                   for l_o, r_o, name in zip(l_outputs, r_outputs, names)]
        # the states come back as two lists, one per direction, as MXNet returns them
        return (outputs[0] if merge_outputs else outputs), [l_states, r_states]


def _as_steps(outputs, length, axis):
    """A merged output Symbol split into ``length`` per-step Symbols; a list is kept."""
    if isinstance(outputs, Symbol):
        return list(symbol.SliceChannel(outputs, axis=axis, num_outputs=length, squeeze_axis=1))
    return outputs


class BaseConvRNNCell(BaseRNNCell):
    """Convolutional recurrent cells: the i2h and h2h transforms are convolutions over
    ``conv_layout`` maps; the state's shape is the i2h convolution's output on ``input_shape``."""

    def __init__(self, input_shape, num_hidden, h2h_kernel, h2h_dilate, i2h_kernel, i2h_stride,
                 i2h_pad, i2h_dilate, i2h_weight_initializer, h2h_weight_initializer,
                 i2h_bias_initializer, h2h_bias_initializer, activation, prefix='', params=None,
                 conv_layout='NCHW'):
        super().__init__(prefix=prefix, params=params)
        if h2h_kernel[0] % 2 != 1 or h2h_kernel[1] % 2 != 1:
            raise ValueError('Only support odd number, get h2h_kernel= %s' % str(h2h_kernel))
        # the h2h convolution keeps the state's size: 'same' padding for odd kernels
        self._h2h_pad = (h2h_dilate[0] * (h2h_kernel[0] - 1) // 2, h2h_dilate[1] * (h2h_kernel[1] - 1) // 2)
        self._h2h_kernel = h2h_kernel
        self._h2h_dilate = h2h_dilate
        self._i2h_kernel = i2h_kernel
        self._i2h_stride = i2h_stride
        self._i2h_pad = i2h_pad
        self._i2h_dilate = i2h_dilate
        self._num_hidden = num_hidden
        self._input_shape = input_shape
        self._conv_layout = conv_layout
        self._activation = activation
        probe = symbol.Convolution(data=symbol.Variable('data'), num_filter=num_hidden, kernel=i2h_kernel,
                                   stride=i2h_stride, pad=i2h_pad, dilate=i2h_dilate, layout=conv_layout)
        self._state_shape = (0,) + tuple(probe.infer_shape(data=input_shape)[1][0][1:])
        self._iW = self.params.get('i2h_weight', init=i2h_weight_initializer)
        self._hW = self.params.get('h2h_weight', init=h2h_weight_initializer)
        self._iB = self.params.get('i2h_bias', init=i2h_bias_initializer)
        self._hB = self.params.get('h2h_bias', init=h2h_bias_initializer)

    @property
    def _num_gates(self):
        return len(self._gate_names)

    @property
    def state_info(self):
        return [{'shape': self._state_shape, '__layout__': self._conv_layout},
                {'shape': self._state_shape, '__layout__': self._conv_layout}]

    def _conv_forward(self, inputs, states, name):
        filters = self._num_hidden * self._num_gates
        i2h = symbol.Convolution(name='%si2h' % name, data=inputs, num_filter=filters, kernel=self._i2h_kernel,
                                 stride=self._i2h_stride, pad=self._i2h_pad, dilate=self._i2h_dilate,
                                 weight=self._iW, bias=self._iB, layout=self._conv_layout)
        h2h = symbol.Convolution(name='%sh2h' % name, data=states[0], num_filter=filters, kernel=self._h2h_kernel,
                                 dilate=self._h2h_dilate, pad=self._h2h_pad, stride=(1, 1),
                                 weight=self._hW, bias=self._hB, layout=self._conv_layout)
        return i2h, h2h

    def __call__(self, inputs, states):
        raise NotImplementedError('BaseConvRNNCell is abstract class for convolutional RNN')


_LEAKY = functools.partial(symbol.LeakyReLU, act_type='leaky', slope=0.2)


def _conv_defaults(cls_prefix):
    """The keyword defaults the three convolutional cells share, with the class's prefix."""
    return dict(h2h_kernel=(3, 3), h2h_dilate=(1, 1), i2h_kernel=(3, 3), i2h_stride=(1, 1),
                i2h_pad=(1, 1), i2h_dilate=(1, 1), i2h_weight_initializer=None, h2h_weight_initializer=None,
                i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', activation=_LEAKY,
                prefix=cls_prefix, params=None, conv_layout='NCHW')


class ConvRNNCell(BaseConvRNNCell):
    """Convolutional Elman cell (default prefix ``ConvRNN_``, activation leaky ReLU 0.2)."""

    def __init__(self, input_shape, num_hidden, **kwargs):
        super().__init__(input_shape, num_hidden, **dict(_conv_defaults('ConvRNN_'), **kwargs))

    @property
    def _gate_names(self):
        return ('',)

    @property
    def state_info(self):
        return [{'shape': self._state_shape, '__layout__': self._conv_layout}]

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        i2h, h2h = self._conv_forward(inputs, states, name)
        output = self._get_activation(i2h + h2h, self._activation, name='%sout' % name)
        return output, [output]


class ConvLSTMCell(BaseConvRNNCell):
    """Convolutional LSTM (Shi et al., NIPS 2015; default prefix ``ConvLSTM_``)."""

    def __init__(self, input_shape, num_hidden, **kwargs):
        super().__init__(input_shape, num_hidden, **dict(_conv_defaults('ConvLSTM_'), **kwargs))

    @property
    def _gate_names(self):
        return GATE_SUFFIXES['lstm']

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        i2h, h2h = self._conv_forward(inputs, states, name)
        gates = symbol.SliceChannel(i2h + h2h, num_outputs=4, axis=self._conv_layout.find('C'),
                                    name='%sslice' % name)
        return _lstm_update(gates, states[1], name,
                            lambda x, **kw: self._get_activation(x, self._activation, **kw))


class ConvGRUCell(BaseConvRNNCell):
    """Convolutional GRU (default prefix ``ConvGRU_``)."""

    def __init__(self, input_shape, num_hidden, **kwargs):
        super().__init__(input_shape, num_hidden, **dict(_conv_defaults('ConvGRU_'), **kwargs))

    @property
    def _gate_names(self):
        return GATE_SUFFIXES['gru']

    @property
    def state_info(self):
        return [{'shape': self._state_shape, '__layout__': self._conv_layout}]

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        i2h, h2h = self._conv_forward(inputs, states, name)
        return _gru_update(i2h, h2h, states[0], name,
                           lambda x, **kw: self._get_activation(x, self._activation, **kw))
