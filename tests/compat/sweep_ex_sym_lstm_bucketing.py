# MXNet 1.9's example/rnn/bucketing (lstm_bucketing.py) on a tiny corpus: mx.rnn.encode_sentences,
# BucketSentenceIter, a SequentialRNNCell of LSTMCells unrolled per bucket (merge_outputs) in a
# BucketingModule fitted with Perplexity(invalid_label) and Speedometer(auto_reset=False), the
# LSTM forget-gate bias initializer declared on the variables, save/load_rnn_checkpoint and the
# do_rnn_checkpoint callback, and a model whose cells are reset and unrolled again for inference.
import os
import random
import re

import numpy as np
import mxnet as mx
from _fit_logs import log_to_stdout, r, Steady


class SteadyPerplexity(Steady):
    def steady(self, msg):
        msg = re.sub(r'perplexity=([0-9.]+)', lambda m: 'perplexity=%.3f' % float(m.group(1)), msg)
        return super().steady(msg)


log_to_stdout(SteadyPerplexity)
random.seed(5)
np.random.seed(5)

TEXT = ['the cat sat on the mat', 'a dog sat', 'the dog ran on the mat today', 'a cat ran',
        'the mat sat', 'a dog ran on a mat', 'the cat', 'dog sat on the cat today']
NUM_HIDDEN, NUM_EMBED, NUM_LAYERS, INVALID = 4, 3, 2, 0


class Wave(mx.init.Initializer):
    """Deterministic weights (a scaled cosine); biases zero unless the variable says otherwise."""

    def _init_weight(self, name, arr):
        n = int(np.prod(arr.shape))
        arr[:] = (np.cos(np.arange(n) * 0.61 + len(name)) * 0.3).reshape(arr.shape)

    def _init_bias(self, name, arr):
        arr[:] = 0.0


print('--- encoding the corpus')
sentences, vocab = mx.rnn.encode_sentences([s.split() for s in TEXT], invalid_label=INVALID, start_label=1)
print(sorted(vocab.items(), key=lambda kv: kv[1]))
print(sentences[:3])
it = mx.rnn.BucketSentenceIter(sentences, batch_size=2, buckets=[3, 5, 7], invalid_label=INVALID)
print(it.default_bucket_key, it.provide_data, it.provide_label)

stack = mx.rnn.SequentialRNNCell()
for i in range(NUM_LAYERS):
    stack.add(mx.rnn.LSTMCell(num_hidden=NUM_HIDDEN, prefix='lstm_l%d_' % i, forget_bias=1.5))


def sym_gen(seq_len):
    data = mx.sym.Variable('data')
    label = mx.sym.Variable('softmax_label')
    embed = mx.sym.Embedding(data=data, input_dim=len(vocab) + 1, output_dim=NUM_EMBED, name='embed')
    stack.reset()
    outputs, states = stack.unroll(seq_len, inputs=embed, merge_outputs=True)
    pred = mx.sym.FullyConnected(data=mx.sym.Reshape(outputs, shape=(-1, NUM_HIDDEN)),
                                 num_hidden=len(vocab) + 1, name='pred')
    label = mx.sym.Reshape(label, shape=(-1,))
    return mx.sym.SoftmaxOutput(data=pred, label=label, name='softmax'), ('data',), ('softmax_label',)


print('--- one bucket\'s symbol')
sym, dn, ln = sym_gen(3)
print(sym.list_arguments())
print(sym.infer_shape(data=(2, 3), softmax_label=(2, 3))[1])
print([k for k in sym.get_internals().list_outputs() if k.startswith('lstm_l1_t2')])
print(sorted(sym.attr_dict()['lstm_l0_i2h_bias'].items()))
print(stack.params._params.keys() if hasattr(stack.params, '_params') else sorted(stack.params._params))

print('--- fit')
model = mx.mod.BucketingModule(sym_gen, default_bucket_key=it.default_bucket_key, context=mx.cpu())
model.fit(train_data=it, eval_data=mx.rnn.BucketSentenceIter(sentences[:4], batch_size=2, buckets=[3, 5, 7],
                                                              invalid_label=INVALID),
          eval_metric=mx.metric.Perplexity(INVALID), optimizer='sgd',
          optimizer_params={'learning_rate': 0.1, 'momentum': 0.5, 'wd': 0.00001},
          initializer=Wave(), num_epoch=2,
          batch_end_callback=mx.callback.Speedometer(2, 2, auto_reset=False),
          epoch_end_callback=mx.rnn.do_rnn_checkpoint(stack, 'lstm', 1))
arg, aux = model.get_params()
print(sorted(arg))
print(r(arg['lstm_l0_i2h_bias'][4:8]), r(arg['pred_bias'][:4]))
print(sorted(os.listdir('.')))

print('--- rnn checkpoints')
sym2, arg2, aux2 = mx.rnn.load_rnn_checkpoint(stack, 'lstm', 2)
print(sym2.list_outputs(), sorted(arg2) == sorted(arg), aux2)
print(r(arg2['lstm_l1_h2h_weight'][0]))
raw = mx.nd.load('lstm-0002.params')
print(sorted(raw)[:4])
mx.rnn.save_rnn_checkpoint(stack, 'again', 3, sym2, arg2, aux2)
print(sorted(mx.nd.load('again-0003.params')) == sorted(raw))

print('--- inference with the trained weights')
infer = mx.mod.Module(sym_gen(5)[0], data_names=('data',), label_names=('softmax_label',), context=mx.cpu())
infer.bind(data_shapes=[('data', (1, 5))], label_shapes=[('softmax_label', (1, 5))], for_training=False)
infer.set_params(arg2, aux2)
infer.forward(mx.io.DataBatch([mx.nd.array([sentences[2][:5]])], [mx.nd.zeros((1, 5))]), is_train=False)
prob = infer.get_outputs()[0]
print(prob.shape, r(prob.argmax(axis=1), 0), r(prob.max(axis=1), 3))
metric = mx.metric.Perplexity(INVALID)
metric.update([mx.nd.array([sentences[2][1:6]])], [prob])
print(metric.get()[0], round(metric.get()[1], 3))
print(round(model.score(mx.rnn.BucketSentenceIter(sentences, batch_size=2, buckets=[3, 5, 7],
                                                  invalid_label=INVALID), mx.metric.Perplexity(INVALID))[0][1], 3))
