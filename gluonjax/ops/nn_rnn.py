"""The fused RNN operator (rnn_relu, rnn_tanh, lstm, gru) on MXNet's flat parameter vector.

Layout of ``parameters`` (MXNet's, shared with cuDNN): every weight first, then every
bias. Weights go layer by layer, and within a layer direction by direction (left to
right, then right to left), each as i2h (gates*H, inputs), h2h (gates*H, H or P) and,
with a projection, h2r (P, H); biases likewise as i2h (gates*H,) then h2h (gates*H,).
Gates are stacked in the order i, f, g, o for LSTM and r, z, n for GRU.

The input projection of every time step is one matmul; only the recurrence runs in
``lax.scan``, the directions of a layer as a vmapped axis of one scan and the layers after the
first (which share their shapes) as one scan over layers.
"""
import jax
import jax.numpy as jnp
from jax import lax

from ..base import MXNetError, shape_str
import numpy as np

from . import _onnx
from ._registry import P, register
from .nn_util import compute_dtype, same_dtype

__all__ = ['rnn_param_size', 'GATE_SUFFIXES', 'rnn_param_pieces']

_GATES = {'rnn_relu': 1, 'rnn_tanh': 1, 'lstm': 4, 'gru': 3}


def _rnn_inputs(attrs):
    if attrs is None:
        return ('data', 'parameters', 'state', 'state_cell', 'sequence_length')
    names = ['data', 'parameters', 'state']
    if attrs.get('mode') == 'lstm':
        names.append('state_cell')
    if attrs.get('use_sequence_length'):
        names.append('sequence_length')
    return tuple(names)


def _rnn_outputs(attrs):
    if not attrs['state_outputs']:
        return 1
    return 3 if attrs['mode'] == 'lstm' else 2


def _layer_shapes(mode, input_size, state_size, num_layers, bidirectional, projection_size):
    """Per (layer, direction): the shapes of (i2h, h2h[, h2r]) weights and of the two biases."""
    g, h = _GATES[mode], state_size
    dirs = 2 if bidirectional else 1
    rec = projection_size or h
    shapes, ni = [], input_size
    for _ in range(num_layers):
        for _ in range(dirs):
            w = [(g * h, ni), (g * h, rec)] + ([(rec, h)] if projection_size else [])
            shapes.append((w, [(g * h,), (g * h,)]))
        ni = rec * dirs
    return shapes


def rnn_param_size(mode, input_size, state_size, num_layers, bidirectional=False, projection_size=None):
    """Length of the flat parameter vector."""
    total = 0
    for ws, bs in _layer_shapes(mode, input_size, state_size, num_layers, bidirectional, projection_size):
        for s in ws + bs:
            total += s[0] * (s[1] if len(s) > 1 else 1)
    return total


# The name suffix of each gate's block in the legacy ``mx.rnn`` cells (``lstm_l0_i2h_f_bias``).
GATE_SUFFIXES = {'rnn_relu': ('',), 'rnn_tanh': ('',), 'lstm': ('_i', '_f', '_c', '_o'), 'gru': ('_r', '_z', '_o')}


def rnn_param_pieces(prefix, mode, input_size, state_size, num_layers, bidirectional=False):
    """[(name, start, shape)] of every gate's weight and bias in the flat vector, in its order.

    The names are the ones ``mx.rnn.FusedRNNCell.unpack_weights`` gives the pieces:
    prefix, direction (``l``/``r``), layer, ``i2h``/``h2h``, gate suffix, ``weight``/``bias``
    (``lstm_r1_h2h_f_weight``). No projection: the legacy cells have none.
    """
    gates = GATE_SUFFIXES[mode]
    h = state_size
    directions = ('l', 'r') if bidirectional else ('l',)
    shapes = _layer_shapes(mode, input_size, state_size, num_layers, bidirectional, None)
    pieces, pos = [], 0
    for kind in ('weight', 'bias'):
        for k, (w_shapes, _) in enumerate(shapes):
            layer, direction = divmod(k, len(directions))
            for group, w_shape in zip(('i2h', 'h2h'), w_shapes):
                shape = (h, w_shape[1]) if kind == 'weight' else (h,)
                for gate in gates:
                    name = '%s%s%d_%s%s_%s' % (prefix, directions[direction], layer, group, gate, kind)
                    pieces.append((name, pos, shape))
                    pos += int(np.prod(shape))
    return pieces


def _cell(mode, h_size, clip):
    """The recurrence step (carry, projected input) -> (carry, output) for one direction."""
    def step(carry, xw, w_h, b_h, w_r):
        h, c = carry
        hw = h @ w_h.T + b_h
        if mode == 'lstm':
            z = xw + hw
            i, f, g, o = (z[:, k * h_size:(k + 1) * h_size] for k in range(4))
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            if clip is not None:
                c = jnp.clip(c, clip[0], clip[1])
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            if w_r is not None:
                h = h @ w_r.T
        elif mode == 'gru':
            xr, xz, xn = (xw[:, k * h_size:(k + 1) * h_size] for k in range(3))
            hr, hz, hn = (hw[:, k * h_size:(k + 1) * h_size] for k in range(3))
            r = jax.nn.sigmoid(xr + hr)
            u = jax.nn.sigmoid(xz + hz)
            n = jnp.tanh(xn + r * hn)
            h = (1 - u) * n + u * h
        else:
            act = jax.nn.relu if mode == 'rnn_relu' else jnp.tanh
            h = act(xw + hw)
        return (h, c), h
    return step


def _reverse_valid(x, lengths):
    """Each sequence (time-major) reversed within its valid length; padding stays in place."""
    t = x.shape[0]
    idx = jnp.arange(t)[:, None]
    src = jnp.where(idx < lengths[None, :], lengths[None, :] - 1 - idx, idx)
    return jnp.take_along_axis(x, src.reshape(src.shape + (1,) * (x.ndim - 2)), axis=0)


def _scan_direction(xw, h0, c0, w_h, b_h, w_r, step, lengths):
    """One direction's recurrence over its projected inputs xw (seq_len, batch, gates*H)."""
    if lengths is None:
        def body(carry, xs):
            return step(carry, xs, w_h, b_h, w_r)
        (h, c), out = lax.scan(body, (h0, c0), xw)
        return out, h, c

    def masked(carry, xs):
        xt, ti = xs
        new, out = step(carry, xt, w_h, b_h, w_r)
        valid = (ti < lengths)[:, None]
        new = tuple(jnp.where(valid, a, b) for a, b in zip(new, carry))
        return new, jnp.where(valid, out, 0)
    (h, c), out = lax.scan(masked, (h0, c0), (xw, jnp.arange(xw.shape[0])))
    return out, h, c


def _stepped(step, params, carry, xs, n):
    """``lax.scan(partial(step, params), carry, xs)`` over the first ``n`` positions of ``xs`` only
    (``n`` traced): one program serves every length up to ``xs``'s, at the cost of those ``n``
    steps. Outputs past ``n`` are zeros. ``jax.custom_vjp`` because reverse-mode jax cannot
    differentiate a loop of traced length: the backward loop runs the same ``n`` steps in
    reverse, each step's forward recomputed from the carry saved before it."""
    return _stepped_vjp(step, params, carry, xs, n)


def _stepped_forward(step, params, carry, xs, n):
    length = xs.shape[0]
    y = jax.eval_shape(lambda: step(params, carry, xs[0])[1])
    ys = jnp.zeros((length,) + y.shape, y.dtype)
    saved = jax.tree_util.tree_map(lambda c: jnp.zeros((length,) + c.shape, c.dtype), carry)

    def body(t, state):
        carry, ys, saved = state
        saved = jax.tree_util.tree_map(lambda buf, c: lax.dynamic_update_index_in_dim(buf, c, t, 0), saved, carry)
        carry, y = step(params, carry, lax.dynamic_index_in_dim(xs, t, 0, False))
        return carry, lax.dynamic_update_index_in_dim(ys, y, t, 0), saved
    carry, ys, saved = lax.fori_loop(0, n, body, (carry, ys, saved))
    return (carry, ys), (params, saved, xs, n)


def _stepped_backward(step, residuals, cotangents):
    params, saved, xs, n = residuals
    ct_carry, ct_ys = cotangents

    def body(i, state):
        t = n - 1 - i
        ct_carry, ct_params, ct_xs = state
        carry = jax.tree_util.tree_map(lambda buf: lax.dynamic_index_in_dim(buf, t, 0, False), saved)
        _, vjp = jax.vjp(step, params, carry, lax.dynamic_index_in_dim(xs, t, 0, False))
        d_params, ct_carry, d_x = vjp((ct_carry, lax.dynamic_index_in_dim(ct_ys, t, 0, False)))
        return (ct_carry, jax.tree_util.tree_map(jnp.add, ct_params, d_params),
                lax.dynamic_update_index_in_dim(ct_xs, d_x, t, 0))
    zeros = (jax.tree_util.tree_map(jnp.zeros_like, params), jnp.zeros_like(xs))
    ct_carry, ct_params, ct_xs = lax.fori_loop(0, n, body, (ct_carry,) + zeros)
    return ct_params, ct_carry, ct_xs, None


_stepped_vjp = jax.custom_vjp(lambda step, *args: _stepped_forward(step, *args)[0], nondiff_argnums=(0,))
_stepped_vjp.defvjp(_stepped_forward, _stepped_backward)


def _stepped_layer(x, h0, c0, weights, biases, step, n):
    """One forward direction over the first ``n`` steps of ``x`` (OpDef.steps). The input
    projection runs inside the loop, step by step, so it too costs only the real steps; the
    positions past ``n`` repeat the output at ``n - 1``, without gradient (a padded size
    bucket's positions hold values the graph computes with, as the input's edge padding)."""
    params = (weights[0], biases[0], weights[1], biases[1], weights[2] if len(weights) > 2 else None)

    def projected(params, carry, x_t):
        w_i, b_i, w_h, b_h, w_r = params
        return step(carry, x_t @ w_i.T + b_i, w_h, b_h, w_r)
    (h, c), out = _stepped(projected, params, (h0, c0), x, n)
    last = lax.stop_gradient(lax.dynamic_index_in_dim(out, jnp.maximum(n - 1, 0), 0))
    out = jnp.where(jnp.arange(x.shape[0])[:, None, None] < n, out, last)
    return out, h, c


def _time_reversed(x, lengths):
    return jnp.flip(x, 0) if lengths is None else _reverse_valid(x, lengths)


def _run_layer(x, h0, c0, weights, biases, step, lengths, steps=None):
    """One layer, every direction at once: the directions are a vmapped axis of one scan (the
    right-to-left one runs on time-reversed inputs), so a bidirectional layer compiles as one
    recurrence. ``weights``/``biases`` and the states carry a leading direction axis. With
    ``steps`` (one direction only), the recurrence stops after that many steps."""
    if steps is not None:
        out, h, c = _stepped_layer(x, h0[0], c0[0], [w[0] for w in weights], [b[0] for b in biases], step, steps)
        return out, h[None], c[None]
    w_i, w_h = weights[0], weights[1]
    w_r = weights[2] if len(weights) > 2 else None
    b_i, b_h = biases
    xw = jnp.einsum('tni,dgi->dtng', x, w_i) + b_i[:, None, None, :]
    if xw.shape[0] == 2:
        xw = jnp.stack([xw[0], _time_reversed(xw[1], lengths)])
    def direction(xw, h0, c0, w_h, b_h, w_r):
        return _scan_direction(xw, h0, c0, w_h, b_h, w_r, step, lengths)
    out, h, c = jax.vmap(direction)(xw, h0, c0, w_h, b_h, w_r)
    if out.shape[0] == 2:
        out = jnp.stack([out[0], _time_reversed(out[1], lengths)])
    t, n = x.shape[:2]
    return jnp.moveaxis(out, 0, 2).reshape(t, n, -1), h, c


def _stacked_params(params, mode, n_in, state_size, num_layers, dirs, projection_size):
    """(layer 0's (weights, biases), the later layers' (weights, biases)) cut from the flat vector.

    Each piece has a leading direction axis, and the later layers' pieces a layer axis before
    it: every layer after the first has the same shapes, so they are contiguous blocks of one
    size in MXNet's layout and run as one ``lax.scan`` over layers (a stack of any depth
    compiles as two layers)."""
    shapes = _layer_shapes(mode, n_in, state_size, num_layers, dirs == 2, projection_size)
    per_layer = [shapes[k * dirs] for k in range(num_layers)]  # the directions of a layer share shapes
    pos, cut_weights = 0, []
    for count, (w_shapes, _) in ((1, per_layer[0]), (num_layers - 1, per_layer[-1])):
        if not count:
            cut_weights.append(None)
            continue
        block = params[pos:pos + count * dirs * sum(a * b for a, b in w_shapes)].reshape(count, dirs, -1)
        pos += block.size
        cut_weights.append(_split(block, w_shapes))
    bias_shapes = per_layer[0][1]
    biases = params[pos:].reshape(num_layers, dirs, -1)
    cut_biases = _split(biases, bias_shapes)
    first = ([w[0] for w in cut_weights[0]], [b[0] for b in cut_biases])
    later = (cut_weights[1], [b[1:] for b in cut_biases])
    return first, later


def _split(block, shapes):
    """The trailing axis of ``block`` cut into pieces of ``shapes``, leading axes kept."""
    out, pos = [], 0
    for s in shapes:
        size = int(np.prod(s))
        out.append(block[..., pos:pos + size].reshape(block.shape[:-1] + tuple(s)))
        pos += size
    return out


def _dropout(x, key, p, ct):
    keep = jax.random.bernoulli(key, 1.0 - p, x.shape)
    return jnp.where(keep, x / (1.0 - p), 0).astype(ct)


def _input_shapes_rule(a, s):
    """The fused RNN's parameter vector and initial states from the data (seq_len, batch, width)."""
    d = s.get('data')
    if d is None:
        return {}
    h, layers, proj = a['state_size'], a['num_layers'], a.get('projection_size')
    dirs = 2 if a.get('bidirectional') else 1
    size = rnn_param_size(a['mode'], d[2], h, layers, a.get('bidirectional', False), proj)
    # with a projection the hidden state has the projected size, the cell keeps state_size
    return {'parameters': (size,), 'state': (layers * dirs, d[1], proj or h),
            'state_cell': (layers * dirs, d[1], h)}


# ---- the ONNX form: one ONNX LSTM / GRU / RNN node per layer ----------------------------------

# Where MXNet's gates go in ONNX's order: LSTM i, o, f, c from MXNet's i, f, g, o; GRU z, r, h from r, z, n.
_ONNX_GATE_ORDER = {'lstm': (0, 3, 1, 2), 'gru': (1, 0, 2), 'rnn_relu': (0,), 'rnn_tanh': (0,)}
_ONNX_OP = {'lstm': 'LSTM', 'gru': 'GRU', 'rnn_relu': 'RNN', 'rnn_tanh': 'RNN'}


def _flat_pieces(shapes):
    """(start, shape) of every weight and bias in the flat vector, per (layer, direction), as
    MXNet lays them out: ([weights], [biases])."""
    pos, weights, biases = 0, [], []
    for ws, _ in shapes:
        weights.append([(pos + sum(a * b for a, b in ws[:k]), s) for k, s in enumerate(ws)])
        pos += sum(a * b for a, b in ws)
    for _, bs in shapes:
        biases.append([(pos + bs[0][0] * k, s) for k, s in enumerate(bs)])
        pos += sum(s[0] for s in bs)
    return list(zip(weights, biases))


def _onnx_gates(g, params, piece, mode):
    """One weight or bias cut from the flat vector, its gates put in ONNX's order."""
    (start, shape), n_gates = piece, len(_ONNX_GATE_ORDER[mode])
    size = int(np.prod(shape))
    flat = g.add('Slice', [params, _onnx.ints(g, [start]), _onnx.ints(g, [start + size])])
    gated = _onnx.reshape_to(g, flat, (n_gates, shape[0] // n_gates) + tuple(shape[1:]))
    ordered = g.add('Gather', [gated, _onnx.ints(g, _ONNX_GATE_ORDER[mode])], axis=0)
    return _onnx.reshape_to(g, ordered, (1,) + tuple(shape))


def _onnx_rnn(g, node):
    """Each layer an ONNX LSTM / GRU (linear_before_reset, as MXNet's) / RNN node; its output
    (seq, directions, batch, H) laid out as MXNet's (seq, batch, directions * H)."""
    a = node.attrs
    for name in ('projection_size', 'lstm_state_clip_min', 'lstm_state_clip_max'):
        if a[name] is not None:
            raise g.unsupported(node, '%s=%s' % (name, a[name]))
    if a['use_sequence_length']:
        raise g.unsupported(node, 'use_sequence_length=True')
    mode, h, dirs = a['mode'], a['state_size'], 2 if a['bidirectional'] else 1
    x, params = node.inputs[:2]
    states = node.inputs[2:4] if mode == 'lstm' else node.inputs[2:3]
    pieces = _flat_pieces(_layer_shapes(mode, node.in_shapes[0][2], h, a['num_layers'], a['bidirectional'], None))
    extra = {'linear_before_reset': 1} if mode == 'gru' else {}
    if mode.startswith('rnn_'):
        extra['activations'] = ['Relu' if mode == 'rnn_relu' else 'Tanh'] * dirs
    direction = 'bidirectional' if dirs == 2 else 'forward'
    finals = [[] for _ in states]
    for layer in range(a['num_layers']):
        ks = range(layer * dirs, (layer + 1) * dirs)
        w = [_onnx_gates(g, params, pieces[k][0][0], mode) for k in ks]
        r = [_onnx_gates(g, params, pieces[k][0][1], mode) for k in ks]
        b = [g.add('Concat', [_onnx_gates(g, params, p, mode) for p in pieces[k][1]], axis=1) for k in ks]
        bounds = [_onnx.ints(g, [ks[0]]), _onnx.ints(g, [ks[-1] + 1])]
        initial = [g.add('Slice', [s] + bounds) for s in states]  # this layer's directions
        outs = g.add(_ONNX_OP[mode], [x] + [g.add('Concat', v, axis=0) if dirs > 1 else v[0] for v in (w, r, b)]
                     + [''] + initial, n_out=1 + len(states), hidden_size=h, direction=direction, **extra)
        y = g.add('Transpose', [outs[0]], perm=[0, 2, 1, 3])
        x = _onnx.reshape_to(g, y, (0, 0, -1))
        for final, out in zip(finals, outs[1:]):
            final.append(out)
    if not a['state_outputs']:
        return x
    return [x] + [g.add('Concat', f, axis=0) if len(f) > 1 else f[0] for f in finals]


def _rnn_steps(attrs):
    """``OpDef.steps`` of RNN: a forward-only network may stop after the real time steps."""
    return None if attrs['bidirectional'] or attrs['use_sequence_length'] else (0, 0)


def _rnn_along(attrs, ndims):
    """``OpDef.along`` of RNN: the batch axis of data, states and lengths; the time axis of the data
    too when the network runs forward only over all of it (each step depends on the steps before)."""
    data = {1} if attrs['bidirectional'] or attrs['use_sequence_length'] else {0, 1}
    axes = {'data': data, 'state': {1}, 'state_cell': {1}, 'sequence_length': {0}}
    return [frozenset(axes.get(name, ())) for name in _rnn_inputs(attrs)]


@register('RNN', onnx=_onnx_rnn, input_shapes=_input_shapes_rule, npx=('rnn',), inputs=_rnn_inputs, num_outputs=_rnn_outputs,
          output_names=('output', 'state_output', 'statecell_output'), mode_dependent=True, random=True,
          along=_rnn_along, steps=_rnn_steps,
          params=[P('state_size', 'int'), P('num_layers', 'int'), P('bidirectional', 'bool', False),
                  P('mode', 'str'), P('p', 'float', 0.0), P('state_outputs', 'bool', False),
                  P('projection_size', 'int', None, optional=True),
                  P('lstm_state_clip_min', 'float', None, optional=True),
                  P('lstm_state_clip_max', 'float', None, optional=True),
                  P('lstm_state_clip_nan', 'bool', False), P('use_sequence_length', 'bool', False)])
def rnn(data, parameters, state, *rest, state_size, num_layers, bidirectional, mode, p, state_outputs,
        projection_size, lstm_state_clip_min, lstm_state_clip_max, lstm_state_clip_nan, use_sequence_length,
        _train=False, _key=None, _steps=None):
    """A stack of recurrent layers over time-major data (seq_len, batch, input_size).

    ``state`` (and ``state_cell`` for lstm) are (num_layers * directions, batch, H).
    Returns the last layer's outputs (seq_len, batch, directions * H) and, with
    ``state_outputs``, the final states. ``p`` is dropout between layers in training.
    With ``use_sequence_length`` each sequence stops at its length: later outputs are
    0 and the final state is the one at the last valid step. ``_steps``: see ``OpDef.steps``.
    """
    op = 'RNN'
    if mode not in _GATES:
        raise MXNetError("%s: mode must be one of rnn_relu, rnn_tanh, lstm, gru, got %r" % (op, mode))
    if projection_size and mode != 'lstm':
        raise MXNetError('%s: projection_size is supported only with mode lstm' % op)
    rest = list(rest)
    state_cell = rest.pop(0) if mode == 'lstm' else None
    lengths = rest.pop(0) if use_sequence_length else None
    if mode == 'lstm' and state_cell is None:
        raise MXNetError('%s: mode lstm needs the state_cell input' % op)
    if data.ndim != 3:
        raise MXNetError('%s: data must be 3-D (seq_len, batch, input_size), got %s' % (op, shape_str(data.shape)))
    t, n, n_in = data.shape
    dirs = 2 if bidirectional else 1
    rec = projection_size or state_size
    size = rnn_param_size(mode, n_in, state_size, num_layers, bidirectional, projection_size)
    if parameters.shape != (size,):
        raise MXNetError('%s: shape inconsistent for parameters, provided %s, inferred %s (mode=%s, input_size=%d, '
                         'state_size=%d, num_layers=%d, bidirectional=%s)'
                         % (op, shape_str(parameters.shape), shape_str((size,)), mode, n_in, state_size,
                            num_layers, bidirectional))
    expected = (num_layers * dirs, n, rec)
    if state.shape != expected:
        raise MXNetError('%s: shape inconsistent for state, provided %s, inferred %s'
                         % (op, shape_str(state.shape), shape_str(expected)))
    if state_cell is not None and state_cell.shape != (num_layers * dirs, n, state_size):
        raise MXNetError('%s: shape inconsistent for state_cell, provided %s, inferred %s'
                         % (op, shape_str(state_cell.shape), shape_str((num_layers * dirs, n, state_size))))
    if lengths is not None and lengths.shape != (n,):
        raise MXNetError('%s: sequence_length must be (batch,) = %s, got %s'
                         % (op, shape_str((n,)), shape_str(lengths.shape)))
    same_dtype(op, data, parameters=parameters, state=state, state_cell=state_cell)
    ct = compute_dtype(data.dtype)
    first, later = _stacked_params(parameters.astype(ct), mode, n_in, state_size, num_layers, dirs,
                                   projection_size)
    clip = None
    if mode == 'lstm' and (lstm_state_clip_min is not None or lstm_state_clip_max is not None):
        clip = (lstm_state_clip_min if lstm_state_clip_min is not None else -jnp.inf,
                lstm_state_clip_max if lstm_state_clip_max is not None else jnp.inf)
    if lengths is not None:
        lengths = jnp.clip(lengths.astype(jnp.int32), 0, t)
    step = _cell(mode, state_size, clip)
    h0 = state.astype(ct).reshape((num_layers, dirs) + state.shape[1:])
    c0 = (state_cell.astype(ct) if state_cell is not None else jnp.zeros((num_layers * dirs, n, state_size), ct))
    c0 = c0.reshape((num_layers, dirs, n, state_size))
    dropout = _train and p > 0 and _key is not None
    keys = jax.random.split(_key, max(num_layers - 1, 1)) if dropout else None
    x, h_first, c_first = _run_layer(data.astype(ct), h0[0], c0[0], first[0], first[1], step, lengths, _steps)
    h_out, c_out = h_first[None], c_first[None]
    if num_layers > 1:
        def one_layer(x, layer):
            weights, biases, h, c, key = layer
            if dropout:  # between layers: on each layer's input but the first's
                x = _dropout(x, key, p, ct)
            x, h, c = _run_layer(x, h, c, weights, biases, step, lengths, _steps)
            return x, (h, c)
        x, (h_rest, c_rest) = lax.scan(one_layer, x, (later[0], later[1], h0[1:], c0[1:],
                                                      keys if dropout else jnp.zeros(num_layers - 1)))
        h_out = jnp.concatenate([h_out, h_rest])
        c_out = jnp.concatenate([c_out, c_rest])
    result = (x.astype(data.dtype),)
    if state_outputs:
        result += (h_out.reshape((num_layers * dirs,) + h_out.shape[2:]).astype(data.dtype),)
        if mode == 'lstm':
            result += (c_out.reshape((num_layers * dirs,) + c_out.shape[2:]).astype(data.dtype),)
    return result if len(result) > 1 else result[0]


@register('_rnn_param_concat', variadic=True, onnx=lambda g, node: g.add('Concat', node.inputs, axis=node.attrs['dim']),
          params=[P('num_args', 'int', 1), P('dim', 'int', 1)])
def rnn_param_concat(*args, num_args, dim):
    """Concatenate the (flattened) RNN parameters along ``dim`` into the fused operator's vector."""
    if not args:
        raise MXNetError('_rnn_param_concat: needs at least one input')
    return jnp.concatenate(args, axis=dim)
