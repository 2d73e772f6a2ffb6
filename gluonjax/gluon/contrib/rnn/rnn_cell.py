"""Contributed recurrent cells: variational (per-sequence) dropout and the projected LSTM, and
``dynamic_unroll`` (a cell run over a sequence by one ``contrib.foreach`` loop)."""
from ...rnn.rnn_cell import (BidirectionalCell, HybridRecurrentCell, ModifierCell, SequentialRNNCell,
                             _format_sequence, _get_begin_state, _is_tensor,
                             _mask_sequence_variable_length)

__all__ = ['VariationalDropoutCell', 'LSTMPCell']


class VariationalDropoutCell(ModifierCell):
    """Variational dropout (Gal and Ghahramani, 2016) around ``base_cell``.

    One dropout mask per sequence, drawn at its first step and reused at every step, for the
    inputs (``drop_inputs``), the first state h (``drop_states``) and the outputs
    (``drop_outputs``); ``reset()`` (called by ``unroll``) draws new masks. Without state
    dropout, ``unroll`` drops the whole sequence at once with the mask shared along time.
    """

    def __init__(self, base_cell, drop_inputs=0., drop_states=0., drop_outputs=0.):
        if drop_states and isinstance(base_cell, BidirectionalCell):
            raise AssertionError('BidirectionalCell doesn\'t support variational state dropout. '
                                 'Please add VariationalDropoutCell to the cells underneath instead.')
        if drop_states and isinstance(base_cell, SequentialRNNCell) and \
                any(isinstance(c, BidirectionalCell) for c in base_cell._children.values()):
            raise AssertionError('Bidirectional SequentialRNNCell doesn\'t support variational state '
                                 'dropout. Please add VariationalDropoutCell to the cells underneath instead.')
        super().__init__(base_cell)
        self.drop_inputs = drop_inputs
        self.drop_states = drop_states
        self.drop_outputs = drop_outputs
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _alias(self):
        return 'vardrop'

    def reset(self):
        super().reset()
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    @staticmethod
    def _mask(F, like, rate):
        # Dropout of ones: 0 or 1/(1-rate) per element in training, ones otherwise
        return F.Dropout(F.ones_like(like), p=rate)

    def hybrid_forward(self, F, inputs, states):
        if self.drop_states and self.drop_states_mask is None:
            self.drop_states_mask = self._mask(F, states[0], self.drop_states)
        if self.drop_inputs and self.drop_inputs_mask is None:
            self.drop_inputs_mask = self._mask(F, inputs, self.drop_inputs)
        if self.drop_states:
            # only h (always the first state) is dropped
            states = [states[0] * self.drop_states_mask] + list(states[1:])
        if self.drop_inputs:
            inputs = inputs * self.drop_inputs_mask
        output, next_states = self.base_cell(inputs, states)
        if self.drop_outputs:
            if self.drop_outputs_mask is None:
                self.drop_outputs_mask = self._mask(F, output, self.drop_outputs)
            output = output * self.drop_outputs_mask
        return output, next_states

    def __repr__(self):
        return '{name}(p_out = {p_out}, p_state = {p_state})'.format(
            name=self.__class__.__name__, p_out=self.drop_outputs, p_state=self.drop_states)

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        if self.drop_states:
            # the state mask acts inside the recurrence: step by step
            return super().unroll(length, inputs, begin_state=begin_state, layout=layout,
                                  merge_outputs=merge_outputs, valid_length=valid_length)
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, True)
        states = _get_begin_state(self, F, begin_state, inputs, batch_size)
        if self.drop_inputs:
            inputs = F.Dropout(inputs, p=self.drop_inputs, axes=(axis,))
        outputs, states = self.base_cell.unroll(length, inputs, states, layout, merge_outputs=True,
                                                valid_length=valid_length)
        if self.drop_outputs:
            outputs = F.Dropout(outputs, p=self.drop_outputs, axes=(axis,))
        merge_outputs = _is_tensor(outputs) if merge_outputs is None else merge_outputs
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis, merge_outputs)
        return outputs, states


class LSTMPCell(HybridRecurrentCell):
    r"""LSTM with a projected recurrent state (Sak et al., 2014); gates [i, f, c, o].

    States are ``[r, c]``: ``r = h2r_weight @ h`` (``projection_size``) is the output and
    the recurrent input, ``c`` the cell state (``hidden_size``).
    """

    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None,
                 h2h_weight_initializer=None, h2r_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros',
                 input_size=0, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self._projection_size = projection_size
        gates = 4 * hidden_size
        self.i2h_weight = self.params.get('i2h_weight', shape=(gates, input_size),
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get('h2h_weight', shape=(gates, projection_size),
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.h2r_weight = self.params.get('h2r_weight', shape=(projection_size, hidden_size),
                                          init=h2r_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get('i2h_bias', shape=(gates,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get('h2h_bias', shape=(gates,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size, self._projection_size), '__layout__': 'NC'},
                {'shape': (batch_size, self._hidden_size), '__layout__': 'NC'}]

    def _alias(self):
        return 'lstmp'

    def __repr__(self):
        shape = self.i2h_weight.shape
        proj_shape = self.h2r_weight.shape
        return '{name}({input} -> {hidden} -> {proj})'.format(
            name=self.__class__.__name__, input=shape[1] if shape[1] else None,
            hidden=shape[0], proj=proj_shape[0])  # MXNet prints the 4 gates together

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, h2r_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        gates = 4 * self._hidden_size
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=gates,
                               name=prefix + 'i2h')
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias, num_hidden=gates,
                               name=prefix + 'h2h')
        slices = F.SliceChannel(i2h + h2h, num_outputs=4, name=prefix + 'slice')
        in_gate = F.Activation(slices[0], act_type='sigmoid', name=prefix + 'i')
        forget_gate = F.Activation(slices[1], act_type='sigmoid', name=prefix + 'f')
        in_transform = F.Activation(slices[2], act_type='tanh', name=prefix + 'c')
        out_gate = F.Activation(slices[3], act_type='sigmoid', name=prefix + 'o')
        next_c = F.elemwise_add(forget_gate * states[1], in_gate * in_transform, name=prefix + 'state')
        hidden = F.elemwise_mul(out_gate, F.Activation(next_c, act_type='tanh'), name=prefix + 'hidden')
        next_r = F.FullyConnected(data=hidden, num_hidden=self._projection_size, weight=h2r_weight,
                                  no_bias=True, name=prefix + 'out')
        return next_r, [next_r, next_c]


def dynamic_unroll(cell, inputs, begin_state, drop_inputs=0, drop_outputs=0, layout='TNC',
                   valid_length=None):
    """Runs ``cell`` over every step of ``inputs`` with one ``contrib.foreach`` loop (one graph
    node when hybridized, whatever the sequence length).

    ``inputs`` is one tensor in ``layout`` ('TNC' or 'NTC'); ``drop_inputs``/``drop_outputs``
    are dropout rates shared across time. With ``valid_length`` (shape (batch,)) each
    sequence's states stop changing after its length and later outputs are zero.
    Returns (outputs in ``layout``, states).
    """
    inputs, axis, F, _ = _format_sequence(0, inputs, layout, True)
    if axis != 0:
        inputs = F.swapaxes(inputs, dim1=0, dim2=axis)    # foreach iterates over axis 0
    if drop_inputs:
        inputs = F.Dropout(inputs, p=drop_inputs, axes=(0,))
    states = list(begin_state) if isinstance(begin_state, (list, tuple)) else [begin_state]

    if valid_length is None:
        def step(x, cell_states):
            return cell(x, cell_states)
    else:
        states.append(F.zeros((1,)))        # the step number rides along as the last state

        def step(x, loop_states):
            cell_states, step_no = loop_states[:-1], loop_states[-1]
            out, new_states = cell(x, cell_states)
            running = F.broadcast_greater(valid_length, step_no)
            new_states = [F.where(running, new, old) for new, old in zip(new_states, cell_states)]
            return out, new_states + [step_no + 1]

    outputs, states = F.contrib.foreach(step, inputs, states)
    if drop_outputs:
        outputs = F.Dropout(outputs, p=drop_outputs, axes=(0,))
    if axis != 0:
        outputs = F.swapaxes(outputs, dim1=0, dim2=axis)
    if valid_length is None:
        return outputs, states
    outputs = F.SequenceMask(outputs, sequence_length=valid_length, use_sequence_length=True,
                             axis=axis)
    return outputs, states[:-1]
