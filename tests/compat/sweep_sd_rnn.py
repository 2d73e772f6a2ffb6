"""The Straight Dope, chapter 5 (recurrent networks): a character RNN, LSTM and GRU from scratch
(one-hot inputs, softmax with temperature, greedy sampling), and Gluon's RNN language model with
Embedding, rnn.RNN/LSTM/GRU, tied weights, begin_state, detach and clip_global_norm."""
import math
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon
from mxnet.gluon import nn, rnn
from _sd_common import pat, fill, r, show, attempt

ctx = mx.cpu(0)
text = 'the time machine by h g wells the time traveller for so it will be convenient to speak of him'
character_list = list(set(text))
character_list.sort()
vocab_size = len(character_list)
character_dict = {}
for e, char in enumerate(character_list):
    character_dict[char] = e
print(vocab_size, character_dict['t'])
time_numerical = [character_dict[char] for char in text]
print(len(time_numerical), time_numerical[:10])
print(''.join([character_list[idx] for idx in time_numerical[:20]]))


def one_hots(numerical_list, vocab_size=vocab_size):
    result = nd.zeros((len(numerical_list), vocab_size), ctx=ctx)
    for i, idx in enumerate(numerical_list):
        result[i, idx] = 1.0
    return result


print(one_hots(time_numerical[:2]).shape, r(nd.argmax(one_hots(time_numerical[:4]), axis=1)))


def textify(embedding):
    result = ''
    indices = nd.argmax(embedding, axis=1).asnumpy()
    for idx in indices:
        result += character_list[int(idx)]
    return result


print(textify(one_hots(time_numerical[0:12])))
batch_size, seq_length = 2, 4
num_samples = (len(time_numerical) - 1) // seq_length
dataset = one_hots(time_numerical[:seq_length * num_samples]).reshape((num_samples, seq_length, vocab_size))
print(dataset.shape, textify(dataset[0]))
num_batches = 3
train_data = dataset[:num_batches * batch_size].reshape((num_batches, batch_size, seq_length, vocab_size))
train_data = nd.swapaxes(train_data, 1, 2)
print(train_data.shape)
labels = one_hots(time_numerical[1:seq_length * num_batches * batch_size + 1])
train_label = labels.reshape((num_batches, batch_size, seq_length, vocab_size))
train_label = nd.swapaxes(train_label, 1, 2)
print(train_label.shape, textify(train_data[0, :, 0, :]), textify(train_label[0, :, 0, :]))

num_inputs = vocab_size
num_hidden = 8
num_outputs = vocab_size


def softmax(y_linear, temperature=1.0):
    lin = (y_linear - nd.max(y_linear, axis=1).reshape((-1, 1))) / temperature
    exp = nd.exp(lin)
    partition = nd.sum(exp, axis=1).reshape((-1, 1))
    return exp / partition


print(r(softmax(nd.array([[1, -1], [-1, 1]]), temperature=1000.0)), r(softmax(nd.array([[10, -10], [-10, 10]]))))


def cross_entropy(yhat, y):
    return - nd.mean(nd.sum(y * nd.log(yhat), axis=0, exclude=True))


def average_ce_loss(outputs, labels):
    assert (len(outputs) == len(labels))
    total_loss = 0.
    for (output, label) in zip(outputs, labels):
        total_loss = total_loss + cross_entropy(output, label)
    return total_loss / len(outputs)


def SGD(params, lr):
    for param in params:
        param[:] = param - lr * param.grad


print('== simple rnn from scratch')
Wxh = pat((num_inputs, num_hidden), 1, 0.1)
Whh = pat((num_hidden, num_hidden), 2, 0.1)
bh = pat(num_hidden, 3, 0.1)
Why = pat((num_hidden, num_outputs), 4, 0.1)
by = pat(num_outputs, 5, 0.1)
params = [Wxh, Whh, bh, Why, by]
for param in params:
    param.attach_grad()


def simple_rnn(inputs, state, temperature=1.0):
    outputs = []
    h = state
    for X in inputs:
        h_linear = nd.dot(X, Wxh) + nd.dot(h, Whh) + bh
        h = nd.tanh(h_linear)
        yhat_linear = nd.dot(h, Why) + by
        yhat = softmax(yhat_linear, temperature=temperature)
        outputs.append(yhat)
    return (outputs, h)


def sample(prefix, num_chars, model, init_state, temperature=1.0):
    string = prefix
    prefix_numerical = [character_dict[char] for char in prefix]
    input = one_hots(prefix_numerical)
    sample_state = init_state
    outputs, sample_state = model(input, sample_state, temperature=temperature)
    for i in range(num_chars):
        outputs, sample_state = model(input, sample_state, temperature=temperature)
        choice = int(nd.argmax(outputs[-1][0], axis=0).asscalar())
        string += character_list[choice]
        input = one_hots([choice])
    return string


def train(model, params, init_state, epochs=2, lr=2.0):
    for e in range(epochs):
        train_loss = 0.0
        state = init_state
        for i in range(num_batches):
            data_one_hot = train_data[i]
            label_one_hot = train_label[i]
            with autograd.record():
                outputs, state = model(data_one_hot, state)
                loss = average_ce_loss(outputs, label_one_hot)
                loss.backward()
            SGD(params, lr)
            if isinstance(state, tuple):
                state = tuple(s.detach() for s in state)
            else:
                state = state.detach()
            if (i == 0) and (e == 0):
                moving_loss = nd.mean(loss).asscalar()
            else:
                moving_loss = .99 * moving_loss + .01 * nd.mean(loss).asscalar()
        print('Epoch %s. Loss: %.4f' % (e, moving_loss))


state = nd.zeros(shape=(batch_size, num_hidden), ctx=ctx)
outputs, state = simple_rnn(train_data[0], state)
print(len(outputs), outputs[0].shape, state.shape, r(nd.sum(outputs[0], axis=1)))
train(simple_rnn, params, nd.zeros(shape=(batch_size, num_hidden), ctx=ctx))
print(repr(sample('the t', 12, simple_rnn, nd.zeros(shape=(1, num_hidden), ctx=ctx), temperature=.5)))
show('Whh.grad', Whh.grad)

print('== lstm from scratch')
Wxg, Wxi, Wxf, Wxo = [pat((num_inputs, num_hidden), k, 0.1) for k in range(4)]
Whg, Whi, Whf, Who = [pat((num_hidden, num_hidden), k + 4, 0.1) for k in range(4)]
bg, bi, bf, bo = [pat(num_hidden, k + 8, 0.1) for k in range(4)]
Why = pat((num_hidden, num_outputs), 12, 0.1)
by = pat(num_outputs, 13, 0.1)
params = [Wxg, Wxi, Wxf, Wxo, Whg, Whi, Whf, Who, bg, bi, bf, bo, Why, by]
for param in params:
    param.attach_grad()


def lstm_rnn(inputs, state, temperature=1.0):
    h, c = state
    outputs = []
    for X in inputs:
        g = nd.tanh(nd.dot(X, Wxg) + nd.dot(h, Whg) + bg)
        i = nd.sigmoid(nd.dot(X, Wxi) + nd.dot(h, Whi) + bi)
        f = nd.sigmoid(nd.dot(X, Wxf) + nd.dot(h, Whf) + bf)
        o = nd.sigmoid(nd.dot(X, Wxo) + nd.dot(h, Who) + bo)
        c = f * c + i * g
        h = o * nd.tanh(c)
        yhat_linear = nd.dot(h, Why) + by
        yhat = softmax(yhat_linear, temperature=temperature)
        outputs.append(yhat)
    return (outputs, (h, c))


zero = lambda n: (nd.zeros(shape=(n, num_hidden), ctx=ctx), nd.zeros(shape=(n, num_hidden), ctx=ctx))
train(lstm_rnn, params, zero(batch_size), epochs=1)
print(repr(sample('the t', 12, lstm_rnn, zero(1))))
show('Wxf.grad', Wxf.grad)

print('== gru from scratch')
Wxz, Wxr, Wxh = [pat((num_inputs, num_hidden), k + 20, 0.1) for k in range(3)]
Whz, Whr, Whh = [pat((num_hidden, num_hidden), k + 23, 0.1) for k in range(3)]
bz, br, bh = [pat(num_hidden, k + 26, 0.1) for k in range(3)]
Why = pat((num_hidden, num_outputs), 29, 0.1)
by = pat(num_outputs, 30, 0.1)
params = [Wxz, Wxr, Wxh, Whz, Whr, Whh, bz, br, bh, Why, by]
for param in params:
    param.attach_grad()


def gru_rnn(inputs, h, temperature=1.0):
    outputs = []
    for X in inputs:
        z = nd.sigmoid(nd.dot(X, Wxz) + nd.dot(h, Whz) + bz)
        r_ = nd.sigmoid(nd.dot(X, Wxr) + nd.dot(h, Whr) + br)
        g = nd.tanh(nd.dot(X, Wxh) + nd.dot(r_ * h, Whh) + bh)
        h = z * h + (1 - z) * g
        yhat_linear = nd.dot(h, Why) + by
        yhat = softmax(yhat_linear, temperature=temperature)
        outputs.append(yhat)
    return (outputs, h)


train(gru_rnn, params, nd.zeros(shape=(batch_size, num_hidden), ctx=ctx), epochs=1)
print(repr(sample('the t', 12, gru_rnn, nd.zeros(shape=(1, num_hidden), ctx=ctx))))
show('Whr.grad', Whr.grad)

print('== rnn language model with gluon')


class RNNModel(gluon.Block):
    def __init__(self, mode, vocab_size, num_embed, num_hidden, num_layers, dropout=0.5, tie_weights=False, **kwargs):
        super(RNNModel, self).__init__(**kwargs)
        with self.name_scope():
            self.drop = nn.Dropout(dropout)
            self.encoder = nn.Embedding(vocab_size, num_embed, weight_initializer=mx.init.Uniform(0.1))
            if mode == 'rnn_relu':
                self.rnn = rnn.RNN(num_hidden, num_layers, activation='relu', dropout=dropout, input_size=num_embed)
            elif mode == 'rnn_tanh':
                self.rnn = rnn.RNN(num_hidden, num_layers, dropout=dropout, input_size=num_embed)
            elif mode == 'lstm':
                self.rnn = rnn.LSTM(num_hidden, num_layers, dropout=dropout, input_size=num_embed)
            elif mode == 'gru':
                self.rnn = rnn.GRU(num_hidden, num_layers, dropout=dropout, input_size=num_embed)
            else:
                raise ValueError('Invalid mode %s. Options are rnn_relu, rnn_tanh, lstm, and gru' % mode)
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


def batchify(data, batch_size):
    nbatch = data.shape[0] // batch_size
    data = data[:nbatch * batch_size]
    data = data.reshape((batch_size, nbatch)).T
    return data


def get_batch(source, i):
    seq_len = min(args_bptt, source.shape[0] - 1 - i)
    data = source[i: i + seq_len]
    target = source[i + 1: i + 1 + seq_len]
    return data, target.reshape((-1,))


def detach(hidden):
    if isinstance(hidden, (tuple, list)):
        hidden = [i.detach() for i in hidden]
    else:
        hidden = hidden.detach()
    return hidden


corpus = nd.array(time_numerical)
args_bptt, args_batch_size, args_clip, args_lr = 8, 3, 0.2, 1.0
train_d = batchify(corpus, args_batch_size).as_in_context(ctx)
print(train_d.shape, r(train_d[:2]))
data, target = get_batch(train_d, 0)
print(data.shape, target.shape)
loss = gluon.loss.SoftmaxCrossEntropyLoss()
for mode, tie, layers in (('rnn_relu', False, 1), ('lstm', True, 2), ('gru', False, 1)):
    model = RNNModel(mode, vocab_size, 8, 8, layers, dropout=0.0, tie_weights=tie)
    model.collect_params().initialize(mx.init.Xavier(), ctx=ctx)
    print(model)
    fill(model.collect_params(), 0.2)
    print(sorted((k, v.shape) for k, v in model.collect_params().items())[:5])
    trainer = gluon.Trainer(model.collect_params(), 'sgd', {'learning_rate': args_lr, 'momentum': 0, 'wd': 0})
    hidden = model.begin_state(func=mx.nd.zeros, batch_size=args_batch_size, ctx=ctx)
    print(type(hidden).__name__, [h.shape for h in hidden])
    total_L = 0.0
    for ibatch, i in enumerate(range(0, 3 * args_bptt, args_bptt)):
        data, target = get_batch(train_d, i)
        hidden = detach(hidden)
        with autograd.record():
            output, hidden = model(data, hidden)
            L = loss(output, target)
            L.backward()
        grads = [i.grad(ctx) for i in model.collect_params().values()]
        norm = gluon.utils.clip_global_norm(grads, args_clip * args_bptt * args_batch_size)
        trainer.step(args_batch_size)
        total_L += mx.nd.sum(L).asscalar()
        if ibatch == 0:
            print('norm %.4f' % norm)
    cur_L = total_L / train_d.size
    print('%s tie=%s loss %.4f ppl %.3f' % (mode, tie, cur_L, math.exp(cur_L)))
    if tie:
        print(model.decoder.weight is model.encoder.weight, model.decoder.weight.name)
attempt(lambda: RNNModel('bad', vocab_size, 8, 8, 1))
lstm = rnn.LSTM(8, 1, layout='NTC', bidirectional=True, input_size=4)
lstm.initialize()
fill(lstm.collect_params(), 0.2)
out, (h, c) = lstm(pat((2, 3, 4)), lstm.begin_state(batch_size=2))
show('bi-lstm', out)
print(h.shape, c.shape, r(h[1, 0]))
out = lstm(pat((2, 3, 4)))
print(type(out).__name__, out.shape)
arr = [nd.array([3.0, 4.0]), nd.array([12.0])]
print(r(gluon.utils.clip_global_norm(arr, 1.0)), r(arr[0]), r(arr[1]))
