"""Record MXNet 1.9.1's interleaved multi-head attention products for tests/test_ops_linalg.py.

Run with the reference interpreter: /tmp/mxref/bin/python tests/data/mxnet_ref/make_attention_data.py
Writes attention_ref.npz beside this script (heads=2, head_dim=4, batch 2, lengths 3 and 5).
"""
import os

import mxnet as mx
import numpy as np


def main():
    rng = np.random.RandomState(0)
    length, batch, heads, head_dim, key_length = 3, 2, 2, 4, 5
    qkv = rng.rand(length, batch, heads * 3 * head_dim).astype('float32')
    queries = rng.rand(length, batch, heads * head_dim).astype('float32')
    keys_values = rng.rand(key_length, batch, heads * 2 * head_dim).astype('float32')
    self_scores = rng.rand(batch * heads, length, length).astype('float32')
    encdec_scores = rng.rand(batch * heads, length, key_length).astype('float32')
    nd, contrib = mx.nd.array, mx.nd.contrib
    arrays = dict(
        qkv=qkv, queries=queries, keys_values=keys_values, self_scores=self_scores, encdec_scores=encdec_scores,
        selfatt_qk=contrib.interleaved_matmul_selfatt_qk(nd(qkv), heads=heads),
        selfatt_valatt=contrib.interleaved_matmul_selfatt_valatt(nd(qkv), nd(self_scores), heads=heads),
        encdec_qk=contrib.interleaved_matmul_encdec_qk(nd(queries), nd(keys_values), heads=heads),
        encdec_valatt=contrib.interleaved_matmul_encdec_valatt(nd(keys_values), nd(encdec_scores), heads=heads))
    arrays = {k: v.asnumpy() if isinstance(v, mx.nd.NDArray) else v for k, v in arrays.items()}
    np.savez_compressed(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'attention_ref.npz'), **arrays)


if __name__ == '__main__':
    main()
