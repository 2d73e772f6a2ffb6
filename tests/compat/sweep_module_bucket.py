# BucketingModule as bucketed training scripts use it: mx.rnn.BucketSentenceIter batches, fit
# logs, score/predict across buckets, parameters before and after binding, monitors, errors.
import random
import re
import warnings

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r, Steady

warnings.simplefilter('ignore')


class SteadyPerplexity(Steady):
    """Also round the perplexity (a float32 sum of logs, summed in another order by XLA)."""

    def steady(self, msg):
        msg = re.sub(r'perplexity=([0-9.]+)', lambda m: 'perplexity=%.4f' % float(m.group(1)), msg)
        return super().steady(msg)


log_to_stdout(SteadyPerplexity)
# BucketSentenceIter.reset shuffles with Python's and NumPy's generators
random.seed(3)
np.random.seed(3)


VOCAB = 6
sentences = [[1 + (i * 7 + j * 3) % (VOCAB - 1) for j in range(3 + i % 4)] for i in range(24)]
EMB = (np.cos(np.arange(VOCAB * 3) * 0.7).reshape(VOCAB, 3) * 0.5).astype('float32')
OUT = (np.sin(np.arange(VOCAB * 3) * 1.1).reshape(VOCAB, 3) * 0.5).astype('float32')


def sym_gen(seq_len):
    data = mx.sym.var('data')
    label = mx.sym.var('softmax_label')
    emb = mx.sym.Embedding(data, input_dim=VOCAB, output_dim=3, name='embed')
    pred = mx.sym.FullyConnected(mx.sym.reshape(emb, shape=(-1, 3)), num_hidden=VOCAB, name='pred')
    out = mx.sym.SoftmaxOutput(pred, mx.sym.reshape(label, shape=(-1,)), name='softmax')
    return out, ('data',), ('softmax_label',)


def params():
    return {'embed_weight': mx.nd.array(EMB), 'pred_weight': mx.nd.array(OUT),
            'pred_bias': mx.nd.zeros((VOCAB,))}


def make_iter():
    return mx.rnn.BucketSentenceIter(sentences, batch_size=4, buckets=[4, 6], invalid_label=0)


print('--- the iterator')
it = make_iter()
print(it.default_bucket_key, it.provide_data, it.provide_label)
keys = [(b.bucket_key, b.data[0].shape, b.provide_data[0].shape) for b in it]
print(sorted(keys))

print('--- fit')
mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=it.default_bucket_key, context=mx.cpu())
mod.fit(make_iter(), num_epoch=2, arg_params=params(), optimizer_params={'learning_rate': 0.5},
        eval_metric=mx.metric.Perplexity(ignore_label=0),
        batch_end_callback=mx.callback.Speedometer(4, frequent=3))
print(sorted(mod._buckets), mod._curr_bucket_key)
arg, aux = mod.get_params()
print(sorted(arg), r(arg['pred_bias']))
print([(n, round(v, 4)) for n, v in mod.score(make_iter(), mx.metric.Perplexity(ignore_label=0))])
out = mod.predict(make_iter(), merge_batches=False)
print(len(out), sorted(set(o[0].shape for o in out)))
attempt(lambda: mod.predict(make_iter()))

print('--- set_params before binding, init twice, get_outputs per bucket')
m = mx.mod.BucketingModule(sym_gen, default_bucket_key=6, context=mx.cpu())
attempt(lambda: m.set_params(params(), {}))
m.bind(data_shapes=[('data', (4, 6))], label_shapes=[('softmax_label', (4, 6))], for_training=False)
m.set_params(params(), {})
print(m.params_initialized, r(m.get_params()[0]['pred_bias']))
m.init_params()
b = mx.io.DataBatch([mx.nd.ones((4, 4))], [mx.nd.ones((4, 4))], bucket_key=4,
                    provide_data=[mx.io.DataDesc('data', (4, 4))],
                    provide_label=[mx.io.DataDesc('softmax_label', (4, 4))])
m.forward(b, is_train=False)
print(m.get_outputs()[0].shape, m._curr_bucket_key, m.output_shapes, m.data_shapes[0].shape)
print(r(m.get_outputs()[0][0], 3))
attempt(lambda: m.backward())
attempt(lambda: m.init_optimizer())
print(m.optimizer_initialized)

print('--- monitor across buckets')
m = mx.mod.BucketingModule(sym_gen, default_bucket_key=6, context=mx.cpu())
m.bind(data_shapes=[('data', (4, 6))], label_shapes=[('softmax_label', (4, 6))])
m.init_params(arg_params=params())
mon = mx.monitor.Monitor(1, stat_func=lambda x: mx.nd.round(x.sum() * 10) / 10, pattern='pred_output', sort=True)
m.install_monitor(mon)
for batch in make_iter():
    mon.tic()
    m.forward(batch, is_train=False)
    print(batch.bucket_key, mon.toc())

print('--- errors')
attempt(lambda: mx.mod.BucketingModule(sym_gen))
attempt(lambda: mx.mod.BucketingModule(sym_gen, default_bucket_key=6).bind(
    data_shapes=[('data', (4, 6))], label_shapes=[('softmax_label', (4, 6))], shared_module=m))
fresh = mx.mod.BucketingModule(sym_gen, default_bucket_key=6)
attempt(lambda: fresh.switch_bucket(4, [('data', (4, 4))]))
attempt(lambda: fresh.output_shapes)
attempt(lambda: fresh.get_outputs())
attempt(lambda: fresh.symbol)
print(fresh.data_names, fresh.output_names)
