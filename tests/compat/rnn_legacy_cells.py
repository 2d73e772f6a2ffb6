import mxnet as mx
from mxnet import nd


def ramp(shape, k):
    """Deterministic values: a slow ramp, different per k."""
    n = 1
    for d in shape:
        n *= d
    return (nd.arange(n).reshape(shape) % 7 - 3) / (10.0 + k)


def run(sym, shapes):
    """Bind with ramp values for every argument (data included), forward, print the outputs."""
    arg_shapes, out_shapes, _ = sym.infer_shape(**shapes)
    args = {name: ramp(s, k) for k, (name, s) in enumerate(zip(sym.list_arguments(), arg_shapes))}
    outs = sym.bind(mx.cpu(), args).forward()
    print(sym.list_outputs(), out_shapes)
    print([round(float(o.sum().asscalar()), 4) for o in outs])
    return args, outs


data = mx.sym.Variable('data')
for cell in [mx.rnn.RNNCell(6, prefix='rnn_'), mx.rnn.RNNCell(6, activation='relu', prefix='relu_'),
             mx.rnn.LSTMCell(6, prefix='lstm_'), mx.rnn.GRUCell(6, prefix='gru_')]:
    outputs, states = cell.unroll(3, data, layout='NTC', merge_outputs=True)
    print(type(cell).__name__, sorted(cell.params._params), [s.name for s in cell.begin_state()])
    run(mx.sym.Group([outputs] + states), {'data': (2, 3, 5)})
    outputs, _ = cell.unroll(3, data, layout='TNC', merge_outputs=False)
    print([o.name for o in outputs], outputs[0].infer_shape(data=(3, 2, 5))[1])

# stacked, bidirectional, residual and dropout cells; names and values
stack = mx.rnn.SequentialRNNCell()
stack.add(mx.rnn.BidirectionalCell(mx.rnn.LSTMCell(4, prefix='l_'), mx.rnn.GRUCell(4, prefix='r_'),
                                   output_prefix='bi_'))
stack.add(mx.rnn.DropoutCell(0.5, prefix='drop_'))
stack.add(mx.rnn.ResidualCell(mx.rnn.RNNCell(8, prefix='res_')))
outputs, states = stack.unroll(3, data, merge_outputs=True)
print(sorted(stack.params._params), [i['shape'] for i in stack.state_info], [type(s).__name__ for s in states])
states = states[0] + states[1] + states[2:]  # the bidirectional cell's states come as two lists
run(mx.sym.Group([outputs] + states), {'data': (2, 3, 5)})
outputs, _ = stack.unroll(3, data, merge_outputs=False)
print([o.name for o in outputs])

# a fused LSTM and its unfused form compute the same thing
fused = mx.rnn.FusedRNNCell(4, num_layers=2, mode='lstm', bidirectional=True, prefix='f_', get_next_state=True)
outputs, states = fused.unroll(3, data, layout='TNC', merge_outputs=True)
sym = mx.sym.Group([outputs] + states)
args, outs = run(sym, {'data': (3, 2, 5)})
unpacked = fused.unpack_weights({'f_parameters': args['f_parameters']})
print(sorted((k, v.shape) for k, v in unpacked.items()))
print(round(float(unpacked['f_r1_h2h_f_weight'].sum().asscalar()), 4), unpacked['f_l0_i2h_c_bias'].asnumpy().round(4).tolist())
packed = fused.pack_weights(unpacked)
print(sorted(packed), bool((packed['f_parameters'] == args['f_parameters']).asnumpy().all()))
unfused = fused.unfuse()
outputs, _ = unfused.unroll(3, data, layout='TNC', merge_outputs=True)
cell_args = unfused.pack_weights(unpacked)
print(sorted(cell_args)[:4], len(cell_args))
cell_args.update({'data': args['data']})
for name, s in zip(outputs.list_arguments(), outputs.infer_shape(data=(3, 2, 5))[0]):
    if name not in cell_args:
        cell_args[name] = nd.zeros(s)
out = outputs.bind(mx.cpu(), cell_args).forward()[0]
print(outputs.name, round(float(out.sum().asscalar()), 4), bool(abs(out - outs[0]).max().asscalar() < 1e-5))

# the fused parameters' initializer: every gate's piece by the global rule, forget biases set
for mode in ['lstm', 'gru']:
    fused = mx.rnn.FusedRNNCell(3, num_layers=1, mode=mode, prefix='g_', forget_bias=2.5)
    outputs, _ = fused.unroll(2, data, layout='TNC', merge_outputs=True)
    mod = mx.mod.Module(outputs, label_names=None)
    mod.bind(data_shapes=[('data', (2, 1, 2))], for_training=False)
    mod.init_params(mx.init.Constant(0.5))
    flat = mod.get_params()[0]['g_parameters']
    print(mode, flat.shape, flat.asnumpy().round(2).tolist())

# weights unpacked per gate and packed again
lstm = mx.rnn.LSTMCell(2, prefix='p_')
stacked = {'p_i2h_weight': ramp((8, 3), 1), 'p_i2h_bias': ramp((8,), 2), 'p_h2h_weight': ramp((8, 2), 3),
           'p_h2h_bias': ramp((8,), 4), 'other': nd.ones((1,))}
per_gate = lstm.unpack_weights(stacked)
print(sorted(per_gate), per_gate['p_h2h_o_weight'].asnumpy().round(4).tolist())
back = lstm.pack_weights(per_gate)
print(sorted(back), all(bool((back[k] == stacked[k]).asnumpy().all()) for k in stacked))

coded, vocab = mx.rnn.encode_sentences([['a', 'b'], ['c', 'a', 'd']], invalid_label=0, start_label=0)
print(coded, sorted(vocab.items()))
