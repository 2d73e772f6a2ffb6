"""Reference for tests/clients/test_gluonnlp.py, made with real MXNet 1.9.1 and GluonNLP 0.10.0:
a 2-layer BERT (pooler, masked-LM decoder, NSP classifier) and a 2-layer transformer NMTModel,
their parameters and their hybridized outputs for fixed inputs.

    /tmp/mxref-nlp/bin/python tests/clients/data/make_gluonnlp_ref.py   (gluonnlp installed --no-deps)
"""
import os

import mxnet as mx
import numpy as np
import gluonnlp as nlp

HERE = os.path.dirname(os.path.abspath(__file__))


def models():
    """The two networks and their inputs (the test builds the same ones on gluonjax)."""
    vocab = nlp.vocab.BERTVocab(nlp.data.count_tokens(list('abcdefghij')))
    encoder = nlp.model.BERTEncoder(num_layers=2, units=64, hidden_size=128, max_length=32, num_heads=4,
                                    dropout=0.1, prefix='enc_')
    bert = nlp.model.BERTModel(encoder, vocab_size=len(vocab), token_type_vocab_size=2, units=64,
                               embed_size=64, use_pooler=True, use_decoder=True, use_classifier=True,
                               prefix='bert_')
    bert_inputs = (mx.nd.array([[5, 6, 7, 8, 1], [9, 10, 11, 3, 1]]),     # tokens
                   mx.nd.array([[0, 0, 1, 1, 0], [0, 1, 1, 1, 1]]),       # segments
                   mx.nd.array([4, 5]),                                   # valid lengths
                   mx.nd.array([[1, 2], [0, 3]]))                         # masked positions
    enc, dec, one_step = nlp.model.transformer.get_transformer_encoder_decoder(
        num_layers=2, units=32, hidden_size=64, num_heads=4, max_src_length=20, max_tgt_length=20)
    nmt = nlp.model.translation.NMTModel(src_vocab=vocab, tgt_vocab=vocab, encoder=enc, decoder=dec,
                                         one_step_ahead_decoder=one_step, embed_size=32,
                                         prefix='transformer_')
    nmt_inputs = (mx.nd.array([[5, 6, 7, 8], [9, 10, 11, 3]]), mx.nd.array([[2, 5, 6], [2, 7, 8]]),
                  mx.nd.array([4, 3]), mx.nd.array([3, 2]))
    return vocab, (bert, bert_inputs), (nmt, nmt_inputs)


def main():
    mx.random.seed(0)
    _, (bert, bert_inputs), (nmt, nmt_inputs) = models()
    bert.initialize(mx.init.Normal(0.02))
    nmt.initialize(mx.init.Xavier())
    bert.hybridize()
    nmt.hybridize()
    outs = {'bert%d' % i: o.asnumpy() for i, o in enumerate(bert(*bert_inputs))}
    outs['nmt'] = nmt(*nmt_inputs)[0].asnumpy()
    bert.save_parameters(os.path.join(HERE, 'gluonnlp_bert.params'))
    nmt.save_parameters(os.path.join(HERE, 'gluonnlp_nmt.params'))
    np.savez(os.path.join(HERE, 'gluonnlp_outputs.npz'), **outs)


if __name__ == '__main__':
    main()
