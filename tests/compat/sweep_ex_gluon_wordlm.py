"""MXNet 1.9's example/gluon word_language_model (model.py, model_cell.py, model_layer.py,
train.py) on a tiny corpus: the fused-layer and cell-unroll RNN models in all four modes, tied
weights, begin_state, detach, clip_global_norm, IntervalSampler batches, SGD with a decaying
learning rate, evaluation and checkpoints."""
import math
import os
import tempfile

import numpy as onp
import mxnet as mx
from mxnet import gluon, autograd, nd
from mxnet.gluon import contrib, nn, rnn
from _ex_gluon import fill, r, show, attempt, params_of


class RNNModel(gluon.Block):
    """model.py: encoder, fused recurrent layer, decoder."""
    def __init__(self, mode, vocab_size, num_embed, num_hidden, num_layers, dropout=0.5,
                 tie_weights=False, **kwargs):
        super(RNNModel, self).__init__(**kwargs)
        with self.name_scope():
            self.drop = nn.Dropout(dropout)
            self.encoder = nn.Embedding(vocab_size, num_embed,
                                        weight_initializer=mx.init.Uniform(0.1))
            if mode == 'rnn_relu':
                self.rnn = rnn.RNN(num_hidden, num_layers, dropout=dropout, input_size=num_embed)
            elif mode == 'rnn_tanh':
                self.rnn = rnn.RNN(num_hidden, num_layers, 'tanh', dropout=dropout,
                                   input_size=num_embed)
            elif mode == 'lstm':
                self.rnn = rnn.LSTM(num_hidden, num_layers, dropout=dropout, input_size=num_embed)
            elif mode == 'gru':
                self.rnn = rnn.GRU(num_hidden, num_layers, dropout=dropout, input_size=num_embed)
            else:
                raise ValueError("Invalid mode %s. Options are rnn_relu, "
                                 "rnn_tanh, lstm, and gru" % mode)
            if tie_weights:
                self.decoder = nn.Dense(vocab_size, in_units=num_hidden, params=self.encoder.params)
            else:
                self.decoder = nn.Dense(vocab_size, in_units=num_hidden)
            self.num_hidden = num_hidden

    def forward(self, inputs, hidden):
        emb = self.drop(self.encoder(inputs))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output.reshape((-1, self.num_hidden)))
        return decoded, hidden

    def begin_state(self, *args, **kwargs):
        return self.rnn.begin_state(*args, **kwargs)


class CellModel(gluon.Block):
    """model_cell.py: the same with a SequentialRNNCell unrolled over the sequence."""
    def __init__(self, mode, vocab_size, num_embed, num_hidden, num_layers, dropout=0.,
                 var_drop_in=0., var_drop_state=0., var_drop_out=0., tie_weights=False, **kwargs):
        super(CellModel, self).__init__(**kwargs)
        with self.name_scope():
            self.drop = nn.Dropout(dropout)
            self.encoder = nn.Embedding(vocab_size, num_embed,
                                        weight_initializer=mx.init.Uniform(0.1))
            self.rnn = rnn.SequentialRNNCell()
            for i in range(num_layers):
                if mode == 'rnn_relu':
                    cell = rnn.RNNCell(num_hidden, 'relu')
                elif mode == 'rnn_tanh':
                    cell = rnn.RNNCell(num_hidden, 'tanh')
                elif mode == 'lstm':
                    cell = rnn.LSTMCell(num_hidden)
                else:
                    cell = rnn.GRUCell(num_hidden)
                if var_drop_in + var_drop_state + var_drop_out != 0:
                    cell = contrib.rnn.VariationalDropoutCell(cell, var_drop_in, var_drop_state,
                                                              var_drop_out)
                self.rnn.add(cell)
                if i != num_layers - 1 and dropout != 0:
                    self.rnn.add(rnn.DropoutCell(dropout))
            if tie_weights:
                self.decoder = nn.Dense(vocab_size, in_units=num_hidden, params=self.encoder.params)
            else:
                self.decoder = nn.Dense(vocab_size, in_units=num_hidden)
            self.num_hidden = num_hidden

    def forward(self, inputs, hidden):
        emb = self.drop(self.encoder(inputs))
        output, hidden = self.rnn.unroll(emb.shape[0], emb, hidden, layout='TNC',
                                         merge_outputs=True)
        output = self.drop(output)
        decoded = self.decoder(output.reshape((-1, self.num_hidden)))
        return decoded, hidden

    def begin_state(self, *args, **kwargs):
        return self.rnn.begin_state(*args, **kwargs)


def detach(hidden):
    if isinstance(hidden, (tuple, list)):
        hidden = [i.detach() for i in hidden]
    else:
        hidden = hidden.detach()
    return hidden


ntokens, emsize, nhid, bptt, batch_size = 11, 4, 5, 3, 2
context = mx.cpu(0)
corpus = nd.array([(i * 7 + 3) % ntokens for i in range(2 * batch_size * bptt * 3 + 1)])


class LMDataset(gluon.data.SimpleDataset):
    """(data, target) windows of bptt tokens, as contrib.data.text's WikiText2 gives them."""
    def __init__(self, tokens, seq_len):
        n = (len(tokens) - 1) // seq_len
        super(LMDataset, self).__init__(
            [(tokens[i * seq_len:(i + 1) * seq_len], tokens[i * seq_len + 1:(i + 1) * seq_len + 1])
             for i in range(n)])


print('== IntervalSampler batches')
train_dataset = LMDataset(corpus, bptt)
nbatch_train = len(train_dataset) // batch_size
sampler = contrib.data.IntervalSampler(len(train_dataset), nbatch_train)
print(len(train_dataset), nbatch_train, list(sampler), len(sampler))
print(list(contrib.data.IntervalSampler(7, 3, rollover=False)))
train_data = gluon.data.DataLoader(train_dataset, batch_size=batch_size, sampler=sampler,
                                   last_batch='discard')
for data, target in train_data:
    print(' ', data.shape, r(data.T), r(target.T.reshape((-1, 1))[:3, 0]))
    break

print('== models')
for mode in ['rnn_relu', 'rnn_tanh', 'lstm', 'gru']:
    model = RNNModel(mode, ntokens, emsize, nhid, 2, 0.0, False)
    model.initialize(mx.init.Xavier(), ctx=context)
    fill(model, 0.4)
    hidden = model.begin_state(func=mx.nd.zeros, batch_size=batch_size, ctx=context)
    print(mode, model.rnn, [h.shape for h in hidden])
    out, hidden = model(data.T, hidden)
    print('  out', out.shape, r(out[:2, :4]), [r(h.sum(), 3) for h in hidden])
print(RNNModel('lstm', ntokens, nhid, nhid, 1, 0.2, True))
attempt('bad mode', lambda: RNNModel('rnn', ntokens, emsize, nhid, 1))
attempt('model_layer rnn_relu argument order',
        lambda: rnn.RNN(nhid, 'relu', 2, dropout=0.0, input_size=emsize).initialize())
tied = RNNModel('lstm', ntokens, nhid, nhid, 1, 0.0, True)
params_of(tied)
print('tied same', tied.decoder.weight is tied.encoder.weight)

print('== cell models')
for mode in ['rnn_relu', 'lstm', 'gru']:
    cm = CellModel(mode, ntokens, emsize, nhid, 2, dropout=0.3, var_drop_in=0.2, tie_weights=False)
    print(cm.rnn)
    cm.initialize(mx.init.Xavier(), ctx=context)
    hidden = cm.begin_state(func=mx.nd.zeros, batch_size=batch_size, ctx=context)
    print('  state', [h.shape for h in hidden])
    cm(data.T, hidden)
    fill(cm, 0.4)
    out, hidden = cm(data.T, hidden)
    print('  predict', out.shape, r(out[:2, :4]), [r(h.sum(), 3) for h in hidden])
    params_of(cm)

print('== training')
model = RNNModel('lstm', ntokens, emsize, nhid, 2, 0.0, False)
model.initialize(mx.init.Xavier(), ctx=context)
fill(model, 0.4)
lr = 2.0
trainer = gluon.Trainer(model.collect_params(), 'sgd', {'learning_rate': lr, 'momentum': 0, 'wd': 0},
                        compression_params=None)
loss = gluon.loss.SoftmaxCrossEntropyLoss()


def evaluate(data_source):
    total_L = 0.0
    ntotal = 0
    hidden = model.begin_state(func=mx.nd.zeros, batch_size=batch_size, ctx=context)
    for i, (data, target) in enumerate(data_source):
        data = data.as_in_context(context).T
        target = target.as_in_context(context).T.reshape((-1, 1))
        output, hidden = model(data, hidden)
        L = loss(output, target)
        total_L += mx.nd.sum(L).asscalar()
        ntotal += L.size
    return total_L / ntotal


best_val = float('Inf')
with tempfile.TemporaryDirectory() as tmp:
    save = os.path.join(tmp, 'model.params')
    for epoch in range(3):
        total_L = 0.0
        hidden = model.begin_state(func=mx.nd.zeros, batch_size=batch_size, ctx=context)
        for i, (data, target) in enumerate(train_data):
            data = data.as_in_context(context).T
            target = target.as_in_context(context).T.reshape((-1, 1))
            hidden = detach(hidden)
            with autograd.record():
                output, hidden = model(data, hidden)
                L = loss(output, target)
                L = L / (bptt * batch_size)
                L.backward()
            grads = [p.grad(context) for p in model.collect_params().values()]
            norm = gluon.utils.clip_global_norm(grads, 0.25)
            trainer.step(1)
            total_L += mx.nd.sum(L).asscalar()
        print('[Epoch %d] loss %.4f, norm %.4f, lr %g' % (epoch, total_L / nbatch_train, norm,
                                                          trainer.learning_rate))
        val_L = evaluate(train_data)
        print('[Epoch %d] valid loss %.4f, valid ppl %.3f' % (epoch, val_L, math.exp(val_L)))
        if val_L < best_val and epoch < 2:
            best_val = val_L
            model.save_parameters(save)
        else:
            lr = lr * 0.25
            trainer.set_learning_rate(lr)
            print('  lr now', trainer.learning_rate)
    model.load_parameters(save, context)
    print('Best test loss %.4f' % evaluate(train_data))
    print(sorted(nd.load(save))[:4])
attempt('clip_global_norm nan', lambda: gluon.utils.clip_global_norm(
    [nd.array([float('nan'), 1.0])], 1.0))
g = [nd.array([3.0, 4.0]), nd.array([[12.0]])]
print('clip', r(gluon.utils.clip_global_norm(g, 6.5, check_isfinite=False)), r(g))
