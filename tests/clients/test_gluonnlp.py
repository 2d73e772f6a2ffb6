"""GluonNLP 0.10.0, unmodified, on gluonjax (``import mxnet`` resolved to gluonjax).

BERT-base builds from the model zoo; a small BERT (pooler, masked-LM decoder, NSP classifier) and a
transformer NMTModel, with weights saved by real MXNet (tests/clients/data/make_gluonnlp_ref.py),
hybridize and give MXNet's outputs; BERTAdam (contrib adamw_update) takes a training step, with
the gradients clipped by ``clip_grad_global_norm`` (which calls ``nd.multi_sum_sq``).
"""
import os
import sys

import numpy as np

from client_import import import_client  # tests/clients/client_import.py (pytest puts this folder on sys.path)

nlp = import_client('gluonnlp')
import mxnet as mx  # noqa: E402  (gluonjax, after import_client's alias)

DATA = os.path.join(os.path.dirname(__file__), 'data')
sys.path.insert(0, DATA)
from make_gluonnlp_ref import models  # noqa: E402  (the networks the reference was made with)

REF = np.load(os.path.join(DATA, 'gluonnlp_outputs.npz'))


def test_bert_base_from_model_zoo():
    vocab = nlp.vocab.BERTVocab(nlp.data.count_tokens(list('abc')))
    bert, _ = nlp.model.get_model('bert_12_768_12', dataset_name=None, vocab=vocab, pretrained=False,
                                  use_pooler=True, use_decoder=False, use_classifier=False)
    bert.initialize()
    seq, pooled = bert(mx.nd.array([[5, 6, 7, 1]]), mx.nd.zeros((1, 4)), mx.nd.array([3]))
    assert seq.shape == (1, 4, 768) and pooled.shape == (1, 768)
    assert len(bert.collect_params()) == 199   # 12 layers of 16 parameters, embeddings, pooler
    assert np.isfinite(seq.asnumpy()).all()


def test_bert_and_transformer_match_mxnet():
    _, (bert, bert_inputs), (nmt, nmt_inputs) = models()
    bert.load_parameters(os.path.join(DATA, 'gluonnlp_bert.params'))
    nmt.load_parameters(os.path.join(DATA, 'gluonnlp_nmt.params'))
    bert.hybridize()
    nmt.hybridize()
    for i, out in enumerate(bert(*bert_inputs)):
        np.testing.assert_allclose(out.asnumpy(), REF['bert%d' % i], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(nmt(*nmt_inputs)[0].asnumpy(), REF['nmt'], rtol=1e-4, atol=1e-5)


def test_bert_adam_training_step_lowers_loss():
    _, (bert, (tokens, segments, lengths, masked)), _ = models()
    bert.load_parameters(os.path.join(DATA, 'gluonnlp_bert.params'))
    bert.hybridize()
    trainer = mx.gluon.Trainer(bert.collect_params(), 'bertadam', {'learning_rate': 1e-3})
    loss_fn = mx.gluon.loss.SoftmaxCELoss()
    labels = mx.nd.array([[6, 7], [9, 3]])
    losses = []
    for _ in range(2):
        with mx.autograd.record():
            loss = loss_fn(bert(tokens, segments, lengths, masked)[3], labels).mean()
        loss.backward()
        params = [p for p in bert.collect_params().values() if p.grad_req != 'null']
        want = np.sqrt(sum(float((p.grad().asnumpy().astype(np.float64) ** 2).sum()) for p in params))
        norm = nlp.utils.clip_grad_global_norm(params, 1.0)
        np.testing.assert_allclose(norm.asscalar(), want, rtol=1e-5)
        clipped = np.sqrt(sum(float((p.grad().asnumpy().astype(np.float64) ** 2).sum()) for p in params))
        np.testing.assert_allclose(clipped, min(want, 1.0), rtol=1e-4)
        trainer.step(1)
        losses.append(float(loss.asscalar()))
    assert losses[1] < losses[0]
