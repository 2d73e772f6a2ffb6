"""Recurrent cells: one time step at a time, and ``unroll`` over a sequence.

Parameter names and gate order are MXNet's, so MXNet weights load: ``i2h_weight``
(gates * hidden, input), ``h2h_weight`` (gates * hidden, hidden), ``i2h_bias``,
``h2h_bias``; LSTM gates are [input, forget, cell, output], GRU gates [reset, update, new].
"""
from ... import ndarray
from ...base import numeric_types
from ..block import Block, HybridBlock
from ..nn import LeakyReLU
from ..utils import _indent

__all__ = ['RecurrentCell', 'HybridRecurrentCell', 'RNNCell', 'LSTMCell', 'GRUCell',
           'SequentialRNNCell', 'HybridSequentialRNNCell', 'DropoutCell', 'ModifierCell',
           'ZoneoutCell', 'ResidualCell', 'BidirectionalCell']


def _symbol():
    from ... import symbol
    return symbol


def _is_symbol(x):
    from ...symbol import Symbol
    return isinstance(x, Symbol)


def _is_tensor(x):
    return isinstance(x, ndarray.NDArray) or _is_symbol(x)


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _cells_state_info(cells, batch_size):
    return sum([c.state_info(batch_size) for c in cells], [])


def _cells_begin_state(cells, **kwargs):
    return sum([c.begin_state(**kwargs) for c in cells], [])


def _get_begin_state(cell, F, begin_state, inputs, batch_size):
    """Zero states when none are given (on the inputs' context)."""
    if begin_state is not None:
        return begin_state
    if F is ndarray:
        ctx = inputs.context if _is_tensor(inputs) else inputs[0].context
        with ctx:
            return cell.begin_state(func=F.zeros, batch_size=batch_size)
    return cell.begin_state(func=F.zeros, batch_size=batch_size)


def _batch_of(x, axis):
    shape = getattr(x, 'shape', None)
    if shape and len(shape) > axis and shape[axis]:
        return int(shape[axis])
    return 0


def _format_sequence(length, inputs, layout, merge, in_layout=None):
    """(inputs as a list of steps or one merged tensor, time axis, F, batch size)."""
    if inputs is None:
        raise AssertionError('unroll(inputs=None) is not supported: create the input variables and pass them')
    axis = layout.find('T')
    batch_axis = layout.find('N')
    in_axis = in_layout.find('T') if in_layout is not None else axis
    batch_size = 0
    if _is_symbol(inputs):
        F = _symbol()
        batch_size = _batch_of(inputs, batch_axis)
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise AssertionError("unroll doesn't allow grouped symbol as input. Please convert to list "
                                     "with list(inputs) first or let unroll handle splitting.")
            inputs = list(F.split(inputs, axis=in_axis, num_outputs=length, squeeze_axis=1))
    elif isinstance(inputs, ndarray.NDArray):
        F = ndarray
        batch_size = inputs.shape[batch_axis]
        if merge is False:
            if length is not None and length != inputs.shape[in_axis]:
                raise AssertionError('unroll: length %d differs from the %d steps of the input'
                                     % (length, inputs.shape[in_axis]))
            inputs = _as_list(ndarray.split(inputs, axis=in_axis, num_outputs=inputs.shape[in_axis],
                                            squeeze_axis=1))
    else:
        if length is not None and len(inputs) != length:
            raise AssertionError('unroll: length %d differs from the %d inputs given' % (length, len(inputs)))
        if _is_symbol(inputs[0]):
            F = _symbol()
            batch_size = _batch_of(inputs[0], 0)
        else:
            F = ndarray
            batch_size = inputs[0].shape[0]
        if merge is True:
            inputs = F.stack(*inputs, axis=axis)
            in_axis = axis
    if _is_tensor(inputs) and axis != in_axis:
        inputs = F.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis, F, batch_size


def _split_steps(F, data, length, axis):
    """``data`` cut into ``length`` steps along ``axis`` (squeezed), always as a list: a split
    Symbol is one grouped Symbol and an NDArray split in one piece is one NDArray."""
    steps = F.split(data, num_outputs=length, axis=axis, squeeze_axis=True)
    return list(steps) if _is_symbol(steps) else _as_list(steps)


def _mask_sequence_variable_length(F, data, length, valid_length, time_axis, merge):
    if not _is_tensor(data):
        data = F.stack(*data, axis=time_axis)
    outputs = F.SequenceMask(data, sequence_length=valid_length, use_sequence_length=True,
                             axis=time_axis)
    if not merge:
        outputs = _split_steps(F, outputs, length, time_axis)
    return outputs


def _reverse_sequences(sequences, unroll_step, valid_length=None):
    F = _symbol() if _is_symbol(sequences[0]) else ndarray
    if valid_length is None:
        return list(reversed(sequences))
    reversed_sequences = F.SequenceReverse(F.stack(*sequences, axis=0), sequence_length=valid_length,
                                           use_sequence_length=True)
    return _split_steps(F, reversed_sequences, unroll_step, 0)


class RecurrentCell(Block):
    """Base class of recurrent cells: ``cell(inputs, states) -> (output, new_states)``."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._modified = False
        self.reset()

    def reset(self):
        """Reset the step counters before a new sequence."""
        self._init_counter = -1
        self._counter = -1
        for cell in self._children.values():
            cell.reset()

    def state_info(self, batch_size=0):
        """Shape (and layout) of each state."""
        raise NotImplementedError()

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial states made by ``func`` (zeros by default)."""
        if self._modified:
            raise AssertionError('After applying modifier cells (e.g. ZoneoutCell) the base cell cannot '
                                 'be called directly. Call the modifier cell instead.')
        states = []
        for info in self.state_info(batch_size):
            self._init_counter += 1
            info = dict(info, **kwargs) if info is not None else dict(kwargs)
            info.pop('__layout__', None)
            states.append(func(name='%sbegin_state_%d' % (self._prefix, self._init_counter), **info))
        return states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        """Run ``length`` steps over ``inputs`` (one tensor in ``layout``, or a list of steps).

        Returns (outputs, states): outputs merged into one tensor when ``merge_outputs``
        (a list of steps otherwise), and the last states.
        """
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        states = _get_begin_state(self, F, begin_state, inputs, batch_size)
        outputs, all_states = [], []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
            if valid_length is not None:
                all_states.append(states)
        if valid_length is not None:
            states = [F.SequenceLast(F.stack(*ele, axis=0), sequence_length=valid_length,
                                     use_sequence_length=True, axis=0) for ele in zip(*all_states)]
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis, True)
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, F, inputs, activation, **kwargs):
        # MXNet's cells call these four as operators of their own (node names tanh0, ...)
        if activation in ('tanh', 'relu', 'sigmoid', 'softsign'):
            return getattr(F, activation)(inputs, **kwargs)
        if isinstance(activation, str):
            return F.Activation(inputs, act_type=activation, **kwargs)
        if isinstance(activation, LeakyReLU):
            return F.LeakyReLU(inputs, act_type='leaky', slope=activation._alpha, **kwargs)
        return activation(inputs, **kwargs)

    def forward(self, inputs, states):
        self._counter += 1
        return super().forward(inputs, states)


class HybridRecurrentCell(RecurrentCell, HybridBlock):
    """A recurrent cell that can be hybridized."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError

    def _infer_param_shapes(self, x, *args):
        if hasattr(self, 'i2h_weight'):
            rows = self.i2h_weight.shape[0]
            self.i2h_weight.shape = (rows, int(x.shape[-1]))


def _mapping(weight, gates=1):
    shape = weight.shape
    return '{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0] // gates if gates > 1 else shape[0])


class RNNCell(HybridRecurrentCell):
    r"""Elman RNN cell: ``h_t = activation(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)``.

    Parameters
    ----------
    hidden_size : int
    activation : str or Block, default 'tanh'
    input_size : int, default 0
        Inferred at the first forward pass when 0.
    """

    def __init__(self, hidden_size, activation='tanh', i2h_weight_initializer=None,
                 h2h_weight_initializer=None, i2h_bias_initializer='zeros', h2h_bias_initializer='zeros',
                 input_size=0, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._activation = activation
        self._input_size = input_size
        self.i2h_weight = self.params.get('i2h_weight', shape=(hidden_size, input_size),
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get('h2h_weight', shape=(hidden_size, hidden_size),
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get('i2h_bias', shape=(hidden_size,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get('h2h_bias', shape=(hidden_size,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size, self._hidden_size), '__layout__': 'NC'}]

    def _alias(self):
        return 'rnn'

    def __repr__(self):
        return '{name}({mapping}, {act})'.format(name=self.__class__.__name__,
                                                 mapping=_mapping(self.i2h_weight), act=self._activation)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias,
                               num_hidden=self._hidden_size, name=prefix + 'i2h')
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias,
                               num_hidden=self._hidden_size, name=prefix + 'h2h')
        output = self._get_activation(F, F.elemwise_add(i2h, h2h, name=prefix + 'plus0'),
                                      self._activation, name=prefix + 'out')
        return output, [output]


class LSTMCell(HybridRecurrentCell):
    r"""Long short-term memory cell (Hochreiter and Schmidhuber, 1997); gates [i, f, c, o].

    States are ``[h, c]``.
    """

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', input_size=0, prefix=None,
                 params=None, activation='tanh', recurrent_activation='sigmoid'):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self.i2h_weight = self.params.get('i2h_weight', shape=(4 * hidden_size, input_size),
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get('h2h_weight', shape=(4 * hidden_size, hidden_size),
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get('i2h_bias', shape=(4 * hidden_size,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get('h2h_bias', shape=(4 * hidden_size,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)
        self._activation = activation
        self._recurrent_activation = recurrent_activation

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size, self._hidden_size), '__layout__': 'NC'},
                {'shape': (batch_size, self._hidden_size), '__layout__': 'NC'}]

    def _alias(self):
        return 'lstm'

    def __repr__(self):
        return '{name}({mapping})'.format(name=self.__class__.__name__, mapping=_mapping(self.i2h_weight))

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias,
                               num_hidden=self._hidden_size * 4, name=prefix + 'i2h')
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias,
                               num_hidden=self._hidden_size * 4, name=prefix + 'h2h')
        gates = F.elemwise_add(i2h, h2h, name=prefix + 'plus0')
        slices = F.SliceChannel(gates, num_outputs=4, name=prefix + 'slice')
        act, ract = self._activation, self._recurrent_activation
        in_gate = self._get_activation(F, slices[0], ract, name=prefix + 'i')
        forget_gate = self._get_activation(F, slices[1], ract, name=prefix + 'f')
        in_transform = self._get_activation(F, slices[2], act, name=prefix + 'c')
        out_gate = self._get_activation(F, slices[3], ract, name=prefix + 'o')
        next_c = F.elemwise_add(F.elemwise_mul(forget_gate, states[1], name=prefix + 'mul0'),
                                F.elemwise_mul(in_gate, in_transform, name=prefix + 'mul1'),
                                name=prefix + 'state')
        next_h = F.elemwise_mul(out_gate, F.Activation(next_c, act_type=act, name=prefix + 'activation0'),
                                name=prefix + 'out')
        return next_h, [next_h, next_c]


class GRUCell(HybridRecurrentCell):
    r"""Gated recurrent unit cell (Cho et al., 2014); gates [r, z, n], MXNet's formula:
    ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``, ``h' = (1 - z) * n + z * h``."""

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', input_size=0, prefix=None,
                 params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self.i2h_weight = self.params.get('i2h_weight', shape=(3 * hidden_size, input_size),
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get('h2h_weight', shape=(3 * hidden_size, hidden_size),
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get('i2h_bias', shape=(3 * hidden_size,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get('h2h_bias', shape=(3 * hidden_size,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size, self._hidden_size), '__layout__': 'NC'}]

    def _alias(self):
        return 'gru'

    def __repr__(self):
        return '{name}({mapping})'.format(name=self.__class__.__name__, mapping=_mapping(self.i2h_weight))

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        prev_h = states[0]
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias,
                               num_hidden=self._hidden_size * 3, name=prefix + 'i2h')
        h2h = F.FullyConnected(data=prev_h, weight=h2h_weight, bias=h2h_bias,
                               num_hidden=self._hidden_size * 3, name=prefix + 'h2h')
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3, name=prefix + 'i2h_slice')
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3, name=prefix + 'h2h_slice')
        reset_gate = F.Activation(F.elemwise_add(i2h_r, h2h_r, name=prefix + 'plus0'),
                                  act_type='sigmoid', name=prefix + 'r_act')
        update_gate = F.Activation(F.elemwise_add(i2h_z, h2h_z, name=prefix + 'plus1'),
                                   act_type='sigmoid', name=prefix + 'z_act')
        next_h_tmp = F.Activation(F.elemwise_add(i2h, F.elemwise_mul(reset_gate, h2h, name=prefix + 'mul0'),
                                                 name=prefix + 'plus2'),
                                  act_type='tanh', name=prefix + 'h_act')
        ones = F.ones_like(update_gate, name=prefix + 'ones_like0')
        next_h = F.elemwise_add(
            F.elemwise_mul(F.elemwise_sub(ones, update_gate, name=prefix + 'minus0'), next_h_tmp,
                           name=prefix + 'mul1'),
            F.elemwise_mul(update_gate, prev_h, name=prefix + 'mul20'), name=prefix + 'out')
        return next_h, [next_h]


def _seq_repr(cell):
    modstr = '\n'.join('({i}): {m}'.format(i=i, m=_indent(repr(m), 2)) for i, m in cell._children.items())
    return '{name}(\n{modstr}\n)'.format(name=cell.__class__.__name__, modstr=modstr)


def _seq_step(cell, inputs, states):
    cell._counter += 1
    next_states = []
    p = 0
    for child in cell._children.values():
        if isinstance(child, BidirectionalCell):
            raise NotImplementedError('BidirectionalCell cannot be stepped; use unroll')
        n = len(child.state_info())
        state = states[p:p + n]
        p += n
        inputs, state = child(inputs, state)
        next_states.append(state)
    return inputs, sum(next_states, [])


def _seq_unroll(cell, length, inputs, begin_state, layout, merge_outputs, valid_length):
    cell.reset()
    inputs, _, F, batch_size = _format_sequence(length, inputs, layout, None)
    num_cells = len(cell._children)
    begin_state = _get_begin_state(cell, F, begin_state, inputs, batch_size)
    p = 0
    next_states = []
    for i, child in enumerate(cell._children.values()):
        n = len(child.state_info())
        states = begin_state[p:p + n]
        p += n
        inputs, states = child.unroll(length, inputs=inputs, begin_state=states, layout=layout,
                                      merge_outputs=None if i < num_cells - 1 else merge_outputs,
                                      valid_length=valid_length)
        next_states.extend(states)
    return inputs, next_states


class _CellStack:
    """What SequentialRNNCell and HybridSequentialRNNCell share: the output of each cell is
    the input of the next, and their states are concatenated in order."""

    def __repr__(self):
        return _seq_repr(self)

    def add(self, cell):
        """Append a cell."""
        self.register_child(cell)

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        return _cells_begin_state(self._children.values(), **kwargs)

    def __call__(self, inputs, states):
        return _seq_step(self, inputs, states)

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        return _seq_unroll(self, length, inputs, begin_state, layout, merge_outputs, valid_length)

    def __getitem__(self, i):
        return self._children[str(i)]

    def __len__(self):
        return len(self._children)


class SequentialRNNCell(_CellStack, RecurrentCell):
    """Stacks recurrent cells: the output of each is the input of the next."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)


class HybridSequentialRNNCell(_CellStack, HybridRecurrentCell):
    """Stacks hybrid recurrent cells."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, inputs, states):
        return self.__call__(inputs, states)


class DropoutCell(HybridRecurrentCell):
    """Applies Dropout to the inputs; no state."""

    def __init__(self, rate, axes=(), prefix=None, params=None):
        super().__init__(prefix, params)
        if not isinstance(rate, numeric_types):
            raise AssertionError('rate must be a number')
        self._rate = rate
        self._axes = axes

    def __repr__(self):
        return '{name}(rate={rate}, axes={axes})'.format(name=self.__class__.__name__, rate=self._rate,
                                                          axes=self._axes)

    def state_info(self, batch_size=0):
        return []

    def _alias(self):
        return 'dropout'

    def hybrid_forward(self, F, inputs, states):
        if self._rate > 0:
            inputs = F.Dropout(data=inputs, p=self._rate, axes=self._axes, name='t%d_fwd' % self._counter)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, _, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if _is_tensor(inputs):
            return self.hybrid_forward(F, inputs, begin_state if begin_state else [])
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout,
                              merge_outputs=merge_outputs, valid_length=None)


class ModifierCell(HybridRecurrentCell):
    """Base class of cells that wrap another cell (Zoneout, Residual)."""

    def __init__(self, base_cell):
        if base_cell._modified:
            raise AssertionError('Cell %s is already modified. One cell cannot be modified twice'
                                 % base_cell.name)
        base_cell._modified = True
        super().__init__(prefix=base_cell.prefix + self._alias(), params=None)
        self.base_cell = base_cell

    @property
    def params(self):
        return self.base_cell.params

    def state_info(self, batch_size=0):
        return self.base_cell.state_info(batch_size)

    def begin_state(self, func=ndarray.zeros, **kwargs):
        self.base_cell._modified = False
        begin = self.base_cell.begin_state(func=func, **kwargs)
        self.base_cell._modified = True
        return begin

    def hybrid_forward(self, F, inputs, states):
        raise NotImplementedError

    def __repr__(self):
        return '{name}({base_cell})'.format(name=self.__class__.__name__, base_cell=self.base_cell)


class ZoneoutCell(ModifierCell):
    """Zoneout (Krueger et al., 2016): randomly keep the previous output/state."""

    def __init__(self, base_cell, zoneout_outputs=0., zoneout_states=0.):
        if isinstance(base_cell, BidirectionalCell):
            raise AssertionError("BidirectionalCell doesn't support zoneout since it doesn't support step. "
                                 "Please add ZoneoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self._prev_output = None

    def __repr__(self):
        return '{name}(p_out={p_out}, p_state={p_state}, {base})'.format(
            name=self.__class__.__name__, p_out=self.zoneout_outputs, p_state=self.zoneout_states,
            base=self.base_cell)

    def _alias(self):
        return 'zoneout'

    def reset(self):
        super().reset()
        self._prev_output = None

    def hybrid_forward(self, F, inputs, states):
        cell, p_outputs, p_states = self.base_cell, self.zoneout_outputs, self.zoneout_states
        next_output, next_states = cell(inputs, states)

        def mask(p, like):
            return F.Dropout(F.ones_like(like), p=p)
        prev_output = self._prev_output
        if prev_output is None:
            prev_output = F.zeros_like(next_output)
        output = (F.where(mask(p_outputs, next_output), next_output, prev_output)
                  if p_outputs != 0. else next_output)
        states = ([F.where(mask(p_states, new_s), new_s, old_s) for new_s, old_s in zip(next_states, states)]
                  if p_states != 0. else next_states)
        self._prev_output = output
        return output, states


class ResidualCell(ModifierCell):
    """Adds the input to the base cell's output (residual connection)."""

    def hybrid_forward(self, F, inputs, states):
        output, states = self.base_cell(inputs, states)
        output = F.elemwise_add(output, inputs, name='t%d_fwd' % self._counter)
        return output, states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        self.reset()
        self.base_cell._modified = False
        outputs, states = self.base_cell.unroll(length, inputs=inputs, begin_state=begin_state,
                                                layout=layout, merge_outputs=merge_outputs,
                                                valid_length=valid_length)
        self.base_cell._modified = True
        merge_outputs = _is_tensor(outputs) if merge_outputs is None else merge_outputs
        inputs, axis, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if valid_length is not None:
            inputs = _mask_sequence_variable_length(F, inputs, length, valid_length, axis, merge_outputs)
        if merge_outputs:
            outputs = F.elemwise_add(outputs, inputs)
        else:
            outputs = [F.elemwise_add(i, j) for i, j in zip(outputs, inputs)]
        return outputs, states


class BidirectionalCell(HybridRecurrentCell):
    """Runs ``l_cell`` forward and ``r_cell`` backward over the sequence; outputs concatenated."""

    def __init__(self, l_cell, r_cell, output_prefix='bi_'):
        super().__init__(prefix='', params=None)
        self.register_child(l_cell, 'l_cell')
        self.register_child(r_cell, 'r_cell')
        self._output_prefix = output_prefix

    def __call__(self, inputs, states):
        raise NotImplementedError('Bidirectional cannot be stepped. Please use unroll')

    def __repr__(self):
        return '{name}(forward={l_cell}, backward={r_cell})'.format(
            name=self.__class__.__name__, l_cell=self._children['l_cell'], r_cell=self._children['r_cell'])

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        return _cells_begin_state(self._children.values(), **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        reversed_inputs = list(_reverse_sequences(inputs, length, valid_length))
        states = _get_begin_state(self, F, begin_state, inputs, batch_size)
        l_cell, r_cell = self._children.values()
        n_l = len(l_cell.state_info(batch_size))
        l_outputs, l_states = l_cell.unroll(length, inputs=inputs, begin_state=states[:n_l],
                                            layout=layout, merge_outputs=merge_outputs,
                                            valid_length=valid_length)
        r_outputs, r_states = r_cell.unroll(length, inputs=reversed_inputs, begin_state=states[n_l:],
                                            layout=layout, merge_outputs=False,
                                            valid_length=valid_length)
        reversed_r_outputs = _reverse_sequences(r_outputs, length, valid_length)
        if merge_outputs is None:
            merge_outputs = _is_tensor(l_outputs)
            l_outputs, _, _, _ = _format_sequence(None, l_outputs, layout, merge_outputs)
            reversed_r_outputs, _, _, _ = _format_sequence(None, reversed_r_outputs, layout, merge_outputs)
        if merge_outputs:
            reversed_r_outputs = F.stack(*reversed_r_outputs, axis=axis) \
                if not _is_tensor(reversed_r_outputs) else reversed_r_outputs
            outputs = F.concat(l_outputs, reversed_r_outputs, dim=2, name='%sout' % self._output_prefix)
        else:
            outputs = [F.concat(l_o, r_o, dim=1, name='%st%d' % (self._output_prefix, i))
                       for i, (l_o, r_o) in enumerate(zip(l_outputs, reversed_r_outputs))]
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis, merge_outputs)
        return outputs, l_states + r_states

