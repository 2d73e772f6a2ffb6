# MXNet 1.9's example/autoencoder (stacked autoencoder, layer-wise pretraining then fine-tuning)
# on tiny data: stacks of FullyConnected/Activation/Dropout/IdentityAttachKLSparseReg ending in
# LinearRegressionOutput, executors bound by hand from dicts of args/grads/aux states, an
# updater from mx.optimizer.get_updater with lr multipliers and rescale_grad, CustomMetric,
# NDArrayIter over a dict with roll_over, the debug graph of internals behind BlockGrad, and
# feature extraction through bound executors.
import logging

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

log_to_stdout()

DIMS = [6, 4, 3]
X = ((np.cos(np.arange(10 * DIMS[0]) * 0.45) + 1) / 2).reshape(10, DIMS[0]).astype('float32')


def det_init(args):
    for k in sorted(args):
        v = args[k]
        n = int(np.prod(v.shape))
        v[:] = (np.sin(np.arange(n) * 0.9 + len(k)) * 0.3).reshape(v.shape)


def make_stack(i, data, num_input, num_hidden, sparse=None, idropout=None, odropout=None,
               encoder_act='relu', decoder_act='relu'):
    x = data
    if idropout:
        x = mx.symbol.Dropout(data=x, p=idropout)
    x = mx.symbol.FullyConnected(name='encoder_%d' % i, data=x, num_hidden=num_hidden)
    if encoder_act:
        x = mx.symbol.Activation(data=x, act_type=encoder_act)
        if encoder_act == 'sigmoid' and sparse:
            x = mx.symbol.IdentityAttachKLSparseReg(data=x, name='sparse_encoder_%d' % i, penalty=sparse)
    if odropout:
        x = mx.symbol.Dropout(data=x, p=odropout)
    x = mx.symbol.FullyConnected(name='decoder_%d' % i, data=x, num_hidden=num_input)
    if decoder_act:
        x = mx.symbol.Activation(data=x, act_type=decoder_act)
        if decoder_act == 'sigmoid' and sparse:
            x = mx.symbol.IdentityAttachKLSparseReg(data=x, name='sparse_decoder_%d' % i, penalty=sparse)
    x = mx.symbol.LinearRegressionOutput(data=x, label=data)
    args = {'encoder_%d_weight' % i: mx.nd.empty((num_hidden, num_input)),
            'encoder_%d_bias' % i: mx.nd.empty((num_hidden,)),
            'decoder_%d_weight' % i: mx.nd.empty((num_input, num_hidden)),
            'decoder_%d_bias' % i: mx.nd.empty((num_input,))}
    grads = {k: mx.nd.empty(v.shape) for k, v in args.items()}
    mult = {k: (2.0 if k.endswith('bias') else 1.0) for k in args}
    auxs = {}
    if encoder_act == 'sigmoid' and sparse:
        auxs['sparse_encoder_%d_moving_avg' % i] = mx.nd.ones((num_hidden,)) * 0.5
    if decoder_act == 'sigmoid' and sparse:
        auxs['sparse_decoder_%d_moving_avg' % i] = mx.nd.ones((num_input,)) * 0.5
    det_init(args)
    return x, args, grads, mult, auxs


def make_encoder(data, dims, act='relu', output_act=None):
    x, internals = data, []
    for i in range(len(dims) - 1):
        x = mx.symbol.FullyConnected(name='encoder_%d' % i, data=x, num_hidden=dims[i + 1])
        if act and i < len(dims) - 2:
            x = mx.symbol.Activation(data=x, act_type=act)
        elif output_act and i == len(dims) - 2:
            x = mx.symbol.Activation(data=x, act_type=output_act)
        internals.append(x)
    return x, internals


def make_decoder(feature, dims, act='relu', input_act=None):
    x = feature
    for i in reversed(range(len(dims) - 1)):
        x = mx.symbol.FullyConnected(name='decoder_%d' % i, data=x, num_hidden=dims[i])
        if act and i > 0:
            x = mx.symbol.Activation(data=x, act_type=act)
        elif input_act and i == 0:
            x = mx.symbol.Activation(data=x, act_type=input_act)
    return x


def l2_norm(label, pred):
    return np.mean(np.square(label - pred)) / 2.0


def solve(sym, args, args_grad, auxs, data_iter, n_iter, lr_mult, debug=False, lr=0.1):
    opt = mx.optimizer.create('sgd', momentum=0.9, wd=0.001, learning_rate=lr)
    updater = mx.optimizer.get_updater(opt)
    metric = mx.metric.CustomMetric(l2_norm)
    input_desc = data_iter.provide_data + data_iter.provide_label
    input_names = [k for k, _ in input_desc]
    input_buffs = [mx.nd.empty(shape) for _, shape in input_desc]
    args = dict(args, **dict(zip(input_names, input_buffs)))
    output_names = sym.list_outputs()
    if debug:
        sym = sym.get_internals()
        blobs = sym.list_outputs()
        group = []
        for i, name in enumerate(blobs):
            if name not in args:
                x = sym[i]
                if name not in output_names:
                    x = mx.symbol.BlockGrad(x, name=name)
                group.append(x)
        sym = mx.symbol.Group(group)
        print('debug outputs', sym.list_outputs())
    exe = sym.bind(mx.cpu(), args=args, args_grad=args_grad, aux_states=auxs)
    print(len(sym.list_arguments()) == len(exe.grad_arrays),
          [n for n, g in zip(sym.list_arguments(), exe.grad_arrays) if g is None])
    update_dict = {n: g for n, g in zip(sym.list_arguments(), exe.grad_arrays) if g is not None}
    opt.rescale_grad = 1.0 / input_buffs[0].shape[0]
    opt.set_lr_mult(lr_mult)
    data_iter.reset()
    for i in range(n_iter):
        try:
            batch = data_iter.next()
        except StopIteration:
            data_iter.reset()
            batch = data_iter.next()
        for d, buff in zip(batch.data + batch.label, input_buffs):
            d.copyto(buff)
        exe.forward(is_train=True)
        out = exe.outputs[sym.list_outputs().index(output_names[0])].copyto(mx.cpu())
        exe.backward()
        for key in sorted(update_dict):
            updater(key, update_dict[key], args[key])
        metric.update([input_buffs[-1]], [out])
        if debug and i == 0:
            internals = dict(zip(sym.list_outputs(), exe.outputs))
            for k in sorted(internals):
                logging.info('Iter:%d  param:%s\t\tstat(mean_abs):%.4f', i, k,
                             np.fabs(internals[k].asnumpy()).mean())
    logging.info('metric %s %.4f', metric.get()[0], metric.get()[1])
    return exe


def extract_feature(sym, args, auxs, data_iter, n):
    input_names = [k for k, _ in data_iter.provide_data]
    input_buffs = [mx.nd.empty(shape) for _, shape in data_iter.provide_data]
    args = dict(args, **dict(zip(input_names, input_buffs)))
    exe = sym.bind(mx.cpu(), args=args, aux_states=auxs)
    outputs = [[] for _ in exe.outputs]
    data_iter.hard_reset()
    for batch in data_iter:
        for d, buff in zip(batch.data, input_buffs):
            d.copyto(buff)
        exe.forward(is_train=False)
        for o, out in zip(outputs, exe.outputs):
            o.append(out[:out.shape[0] - batch.pad].asnumpy())
    outputs = [np.concatenate(o, axis=0)[:n] for o in outputs]
    return dict(zip(sym.list_outputs(), outputs))


print('--- stacks')
data = mx.symbol.Variable('data')
stacks, args, grads, mults, auxs = [], {}, {}, {}, {}
for i in range(len(DIMS) - 1):
    s, a, g, m, x = make_stack(i, data, DIMS[i], DIMS[i + 1], sparse=0.01 if i == 1 else None,
                               idropout=None if i == 0 else 0.0, odropout=None,
                               encoder_act='sigmoid' if i == 1 else 'relu',
                               decoder_act=None if i == 0 else 'sigmoid')
    stacks.append(s)
    args.update(a)
    grads.update(g)
    mults.update(m)
    auxs.update(x)
    print(s.list_arguments(), s.list_auxiliary_states(), s.list_outputs())
print(sorted(args), sorted(auxs))
encoder, internals = make_encoder(data, DIMS)
decoder = make_decoder(encoder, DIMS)
loss = mx.symbol.LinearRegressionOutput(data=decoder, label=data)
print(loss.list_arguments())
print([s.list_outputs() for s in internals])
print(stacks[1].tojson().count('IdentityAttachKLSparseReg'),
      [(n['name'], n['attrs']) for n in __import__('json').loads(stacks[1].tojson())['nodes']
       if n['op'] == 'IdentityAttachKLSparseReg'])
print(stacks[1].infer_shape(data=(5, DIMS[1])))

print('--- layer-wise pretraining')
it = mx.io.NDArrayIter({'data': X}, batch_size=4, shuffle=False, last_batch_handle='roll_over')
print(it.provide_data, it.provide_label)
solve(stacks[0], args, grads, auxs, it, 5, {})
print(r(args['encoder_0_bias']), r(args['decoder_0_bias']))
feats = extract_feature(internals[0], args, auxs,
                        mx.io.NDArrayIter({'data': X}, batch_size=4, last_batch_handle='pad'), X.shape[0])
print(list(feats), [v.shape for v in feats.values()])
X1 = list(feats.values())[0]
it1 = mx.io.NDArrayIter({'data': X1}, batch_size=4, last_batch_handle='roll_over')
solve(stacks[1], args, grads, auxs, it1, 5, {}, debug=True)
print(r(args['encoder_1_bias']), r(auxs['sparse_encoder_1_moving_avg']), r(auxs['sparse_decoder_1_moving_avg']))

print('--- fine-tuning with lr multipliers')
it = mx.io.NDArrayIter({'data': X}, batch_size=5, shuffle=False, last_batch_handle='roll_over')
solve(loss, args, grads, {}, it, 4, mults, lr=0.05)
print(r(args['decoder_0_bias']), r(args['encoder_1_weight'][0]))
Y = list(extract_feature(loss, args, {}, mx.io.NDArrayIter({'data': X}, batch_size=4, last_batch_handle='pad'),
                         X.shape[0]).values())[0]
print(Y.shape, round(float(np.mean(np.square(Y - X)) / 2.0), 4))

print('--- binding mistakes')
bad = dict(args)
bad.pop('encoder_0_bias')
attempt(lambda: loss.bind(mx.cpu(), args=dict(bad, data=mx.nd.zeros((2, 6)))))
attempt(lambda: loss.bind(mx.cpu(), args=dict(args, data=mx.nd.zeros((2, 5)))))
attempt(lambda: stacks[1].bind(mx.cpu(), args=dict(args, data=mx.nd.zeros((2, 4))), aux_states={}))
exe = loss.bind(mx.cpu(), args=dict(args, data=mx.nd.zeros((2, 6))), args_grad=None)
print(len(exe.arg_arrays), sorted(exe.arg_dict)[:3])
