import os
import tempfile

import mxnet as mx
from mxnet import nd

sentences = [[1, 2, 3], [4, 5], [6, 7, 8, 9], [1, 2], [3, 4, 5], [6, 7], [8, 9, 1, 2, 3, 4, 5], [2, 3, 4]]
for layout in ['NT', 'TN']:
    it = mx.rnn.BucketSentenceIter(sentences, 2, buckets=[2, 3, 5], invalid_label=0, layout=layout)
    print(it.buckets, it.default_bucket_key, it.provide_data, it.provide_label, len(it.idx))
    batches = sorted((b.bucket_key, b.data[0].shape, b.provide_data[0].shape, b.pad) for b in it)
    print(batches)
    # every row of a batch is one sentence padded with invalid_label; the label is it shifted left
    it.reset()
    known = {tuple(s) for s in sentences}
    checks = []
    for batch in it:
        data, label = batch.data[0].asnumpy(), batch.label[0].asnumpy()
        if layout == 'TN':
            data, label = data.T, label.T
        rows = [tuple(int(w) for w in row if w != 0) for row in data]
        checks.append((batch.bucket_key, all(r in known for r in rows),
                       bool((label[:, :-1] == data[:, 1:]).all()), label[:, -1].tolist()))
    print(sorted(checks))

auto = mx.rnn.BucketSentenceIter(sentences, 2)
print(auto.buckets, auto.default_bucket_key, auto.data[0].dtype)

# checkpoints keep per-gate weights on disk and packed ones in memory
cell = mx.rnn.FusedRNNCell(3, num_layers=1, mode='gru', prefix='g_')
outputs, _ = cell.unroll(2, mx.sym.Variable('data'), layout='TNC', merge_outputs=True)
flat = nd.arange(3 * 3 * (2 + 3 + 2)) / 10  # gates * hidden * (input + hidden + 2 biases)
with tempfile.TemporaryDirectory() as tmp:
    prefix = os.path.join(tmp, 'ck')
    mx.rnn.save_rnn_checkpoint(cell, prefix, 3, outputs, {'g_parameters': flat}, {})
    saved = nd.load('%s-0003.params' % prefix)
    print(sorted((k, v.shape) for k, v in saved.items()))
    sym, args, aux = mx.rnn.load_rnn_checkpoint([cell], prefix, 3)
    print(sym.list_arguments(), sorted(args), aux, bool((args['g_parameters'] == flat).asnumpy().all()))
    callback = mx.rnn.do_rnn_checkpoint(cell, prefix, period=2)
    for epoch in range(4):
        callback(epoch, outputs, {'g_parameters': flat}, {})
    print(sorted(f for f in os.listdir(tmp) if f.endswith('.params')))
