"""Reference for tests/clients/test_sockeye.py, made with real MXNet 1.9.1 and Sockeye 2.3.17: a
1-layer transformer SockeyeModel, its parameters and its hybridized logits for a fixed batch.

    /tmp/mxref-nlp/bin/python tests/clients/data/make_sockeye_ref.py   (sockeye, pyyaml, sacrebleu,
    portalocker installed --no-deps)
"""
import os

import mxnet as mx
import numpy as np
from sockeye import constants as C, data_io, encoder, model, transformer

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB, UNITS, MAX_LEN = 20, 16, 10


def build():
    """The model (uninitialised) and its inputs: source/target ids with one factor, and lengths."""
    layers = transformer.TransformerConfig(
        model_size=UNITS, attention_heads=2, feed_forward_num_hidden=32, act_type='relu', num_layers=1,
        dropout_attention=0, dropout_act=0, dropout_prepost=0,
        positional_embedding_type=C.FIXED_POSITIONAL_EMBEDDING, preprocess_sequence='n',
        postprocess_sequence='r', max_seq_len_source=MAX_LEN, max_seq_len_target=MAX_LEN)
    stats = data_io.DataStatistics(
        num_sents=0, num_discarded=0, num_tokens_source=0, num_tokens_target=0, num_unks_source=0,
        num_unks_target=0, max_observed_len_source=MAX_LEN, max_observed_len_target=MAX_LEN,
        size_vocab_source=VOCAB, size_vocab_target=VOCAB, length_ratio_mean=1.0, length_ratio_std=0.1,
        buckets=[], num_sents_per_bucket=[], average_len_target_per_bucket=[],
        length_ratio_stats_per_bucket=None)
    data = data_io.DataConfig(data_statistics=stats, max_seq_len_source=MAX_LEN, max_seq_len_target=MAX_LEN,
                              num_source_factors=1, num_target_factors=1)
    embed = encoder.EmbeddingConfig(vocab_size=VOCAB, num_embed=UNITS, dropout=0)
    config = model.ModelConfig(config_data=data, vocab_source_size=VOCAB, vocab_target_size=VOCAB,
                               config_embed_source=embed, config_embed_target=embed, config_encoder=layers,
                               config_decoder=layers, weight_tying_type=C.WEIGHT_TYING_SRC_TRG_SOFTMAX)
    inputs = (mx.nd.array([[[3], [4], [5], [0]], [[6], [7], [0], [0]]]), mx.nd.array([3, 2]),
              mx.nd.array([[[2], [8], [9]], [[2], [10], [0]]]), mx.nd.array([3, 2]))
    return model.SockeyeModel(config), inputs


def main():
    mx.random.seed(0)
    net, inputs = build()
    net.initialize(mx.init.Xavier())
    net.hybridize()
    logits = net(*inputs)[C.LOGITS_NAME]
    net.save_parameters(os.path.join(HERE, 'sockeye_transformer.params'))
    np.save(os.path.join(HERE, 'sockeye_logits.npy'), logits.asnumpy())


if __name__ == '__main__':
    main()
