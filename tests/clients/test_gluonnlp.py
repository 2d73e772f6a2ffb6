"""GluonNLP 0.10.0, unmodified, on gluonjax (``import mxnet`` resolved to gluonjax).

BERT-base builds from the model zoo; a small BERT (pooler, masked-LM decoder, NSP classifier) and a
transformer NMTModel, with weights saved by real MXNet (tests/clients/data/make_gluonnlp_ref.py),
hybridize and give MXNet's outputs; BERTAdam (contrib adamw_update) takes a training step, with
the gradients clipped by ``clip_grad_global_norm`` (which calls ``nd.multi_sum_sq``).
"""
import os
import sys

import numpy as np
import pytest

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


# ---- data, attention, sampling and the model zoo, without downloads (values from MXNet 1.9.1,
# session 19, where not computed here) --------------------------------------------------------

def _bert_vocab():
    return nlp.vocab.BERTVocab(nlp.data.count_tokens('hello world un ##aff ##able play ##ing'.split()))


def _words_vocab():
    return nlp.Vocab(nlp.data.count_tokens('the quick brown fox jumps over the lazy dog the end'.split()))


def test_vocab_and_bert_tokenizer_on_a_local_vocab():
    vocab = _words_vocab()
    assert len(vocab) == 13 and vocab.idx_to_token[:5] == ['<unk>', '<pad>', '<bos>', '<eos>', 'the']
    assert vocab['zzz'] == 0 and vocab[['fox', 'dog']] == [8, 6] and vocab.to_tokens([4, 5]) == ['the', 'brown']
    bert_vocab = _bert_vocab()
    tokenizer = nlp.data.BERTTokenizer(bert_vocab, lower=True)
    assert tokenizer('Hello World unaffable playing xyz!') == [
        'hello', 'world', 'un', '##aff', '##able', 'play', '##ing', '[UNK]', '[UNK]']
    ids, length, segments = nlp.data.BERTSentenceTransform(tokenizer, max_seq_length=10, pair=True)(
        ('hello world', 'playing'))
    assert ids.tolist() == [1, 8, 11, 2, 9, 7, 2, 4, 4, 4] and int(length) == 7
    assert segments.tolist() == [0, 0, 0, 0, 1, 1, 1, 0, 0, 0]


def test_batchify_pads_stacks_and_groups():
    batchify = nlp.data.batchify
    padded = batchify.Pad(axis=0, pad_val=-1)([np.array([1, 2, 3]), np.array([4, 5]), np.array([6])])
    assert isinstance(padded, mx.nd.NDArray) and padded.dtype == np.int64
    assert padded.asnumpy().tolist() == [[1, 2, 3], [4, 5, -1], [6, -1, -1]]
    padded, lengths = batchify.Pad(pad_val=0, ret_length=True)([np.ones((2, 2)), np.ones((1, 2))])
    assert padded.shape == (2, 2, 2) and padded.asnumpy()[1, 1].tolist() == [0, 0]
    assert lengths.asnumpy().tolist() == [2, 1] and lengths.dtype == np.int32
    assert batchify.Pad(pad_val=0, dtype='float16')([np.array([1, 2]), np.array([3])]).dtype == np.float16
    pairs = batchify.Tuple(batchify.Pad(pad_val=0), batchify.Stack())
    tokens, labels = pairs([(np.array([1, 2]), 0), (np.array([3]), 1)])
    assert tokens.asnumpy().tolist() == [[1, 2], [3, 0]] and labels.asnumpy().tolist() == [0, 1]
    fields = batchify.Dict({'x': batchify.Pad(pad_val=0), 'y': batchify.Stack()})(
        [{'x': np.array([1, 2]), 'y': 1}, {'x': np.array([3]), 'y': 2}])
    assert fields['x'].asnumpy().tolist() == [[1, 2], [3, 0]] and fields['y'].asnumpy().tolist() == [1, 2]
    sampler = nlp.data.FixedBucketSampler([5, 3, 8, 2, 9, 7, 1, 4], batch_size=2, num_buckets=2, shuffle=False)
    assert list(sampler) == [[2, 4], [5], [0, 1], [3, 6], [7]] and len(sampler) == 5


Q = np.arange(24).reshape(2, 3, 4) / 10.
K = np.arange(40).reshape(2, 5, 4) / 20.
V = np.arange(30).reshape(2, 5, 3) / 7.
MASK = np.tile(np.array([[1, 1, 1, 0, 0]]), (2, 3, 1))


def _masked_softmax(scores, mask):
    scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_dot_product_attention_against_numpy():
    want = _masked_softmax(Q @ K.transpose(0, 2, 1) / np.sqrt(4), MASK)
    for hybridize in (False, True):
        cell = nlp.model.DotProductAttentionCell(scaled=True)
        cell.initialize()
        if hybridize:
            cell.hybridize()
        out, att = cell(mx.nd.array(Q), mx.nd.array(K), mx.nd.array(V), mx.nd.array(MASK))
        np.testing.assert_allclose(att.asnumpy(), want, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(out.asnumpy(), want @ V, rtol=1e-5, atol=1e-5)


# cell -> (output shape, rounded output sum, attention weights of the first query) on MXNet 1.9.1,
# with every weight 0.1
ATTENTION = {
    'luong': (lambda: nlp.model.DotProductAttentionCell(units=4, luong_style=True),
              (2, 3, 3), 30.507, [0.3254, 0.3333, 0.3414, 0, 0]),
    'normalized': (lambda: nlp.model.DotProductAttentionCell(scaled=False, normalized=True),
                   (2, 3, 3), 29.608, [0.3592, 0.3266, 0.3142, 0, 0]),
    'mlp': (lambda: nlp.model.MLPAttentionCell(units=6), (2, 3, 3), 29.719, [0.3179, 0.3332, 0.3489, 0, 0]),
    'mlp_normalized': (lambda: nlp.model.MLPAttentionCell(units=6, normalized=True),
                       (2, 3, 3), 29.817, [0.3077, 0.3329, 0.3594, 0, 0]),
    'multi_head': (lambda: nlp.model.MultiHeadAttentionCell(nlp.model.DotProductAttentionCell(), 8, 8, 6, 2),
                   (2, 3, 6), 17.97, [0.3301, 0.3333, 0.3365, 0, 0]),
}


@pytest.mark.parametrize('name', sorted(ATTENTION))
def test_attention_cells_match_mxnet(name):
    make, shape, total, first = ATTENTION[name]
    for hybridize in (False, True):
        cell = make()
        cell.initialize(mx.init.Constant(0.1))
        if hybridize:
            cell.hybridize()
        out, att = cell(mx.nd.array(Q), mx.nd.array(K), mx.nd.array(V), mx.nd.array(MASK))
        assert out.shape == shape
        np.testing.assert_allclose(float(out.asnumpy().astype(np.float64).sum()), total, atol=2e-3)
        np.testing.assert_allclose(att.asnumpy().reshape(-1, 5)[0], first, atol=1e-4)


def test_attention_cell_refuses_keys_and_values_of_other_lengths():
    with pytest.raises(mx.base.MXNetError):
        nlp.model.DotProductAttentionCell()(mx.nd.array(Q), mx.nd.ones((2, 5, 3)), mx.nd.array(V)).wait_to_read()


class _CountingDecoder:
    """Prefers the token after its input (log-probabilities of a fixed table), ends at 5."""

    def __call__(self, inputs, states):
        logits = mx.nd.one_hot((inputs + 1) % 6, 6) * 2 + mx.nd.arange(6).reshape((1, 6)) * 0.1
        return mx.nd.log_softmax(logits), states


def test_beam_search_matches_mxnet():
    scorer = nlp.model.BeamSearchScorer(alpha=0.0, K=5.0)
    sampler = nlp.model.BeamSearchSampler(beam_size=3, decoder=_CountingDecoder(), eos_id=5, scorer=scorer,
                                          max_length=6)
    samples, scores, lengths = sampler(mx.nd.array([0, 2]), mx.nd.zeros((2, 1)))
    assert samples.asnumpy().tolist() == [
        [[0, 5, -1, -1, -1, -1], [0, 1, 2, 3, 4, 5], [0, 4, 5, -1, -1, -1]],
        [[2, 3, 4, 5, -1, -1], [2, 5, -1, -1, -1, -1], [2, 4, 5, -1, -1, -1]]]
    np.testing.assert_allclose(scores.asnumpy(), [[-2.2, -2.511, -2.71], [-1.363, -2.3, -2.809]], atol=1e-3)
    assert lengths.asnumpy().tolist() == [[2, 6, 3], [4, 2, 3]]


def test_sequence_sampler_draws_beams_that_end_in_eos():
    sampler = nlp.model.SequenceSampler(beam_size=2, decoder=_CountingDecoder(), eos_id=5, max_length=5)
    mx.random.seed(0)
    samples, scores, lengths = sampler(mx.nd.array([0, 2]), mx.nd.zeros((2, 1)))
    assert samples.shape[:2] == (2, 2) and samples.shape[2] <= 7 and scores.shape == lengths.shape == (2, 2)
    samples, lengths = samples.asnumpy(), lengths.asnumpy()
    for b in range(2):
        for k in range(2):
            n = int(lengths[b, k])
            assert samples[b, k, 0] == [0, 2][b] and (samples[b, k, n:] == -1).all()
            assert samples[b, k, n - 1] == 5 or n == samples.shape[2]


# name -> (keywords, class, number of Parameters, number of weights), as MXNet 1.9.1 builds them
ZOO = {
    'bert_12_768_12': (dict(use_pooler=True, use_decoder=True, use_classifier=True), 'BERTModel', 206, 21762062),
    'roberta_12_768_12': (dict(use_decoder=True), 'RoBERTaModel', 201, 21759756),
    'standard_lstm_lm_200': ({}, 'StandardRNN', 10, 645813),
    'awd_lstm_lm_600': ({}, 'AWDRNN', 14, 5453813),
    'big_rnn_lm_2048_512': ({}, 'BigRNN', 8, 5265933),
}


@pytest.mark.parametrize('name', sorted(ZOO))
def test_model_zoo_builds_without_download(name):
    keywords, cls, count, weights = ZOO[name]
    vocab = _bert_vocab() if 'bert' in name else _words_vocab()  # 12 and 13 tokens
    model = nlp.model.get_model(name, dataset_name=None, vocab=vocab, pretrained=False, **keywords)
    model = model[0] if isinstance(model, tuple) else model
    assert type(model).__name__ == cls
    params = model.collect_params()
    assert len(list(params.keys())) == count
    assert sum(int(np.prod(p.shape)) for p in params.values() if all(d > 0 for d in p.shape)) == weights


def test_model_zoo_refuses_unknown_names():
    with pytest.raises(ValueError):
        nlp.model.get_model('nope')
    with pytest.raises(ValueError):
        nlp.model.get_model('bert_12_768_12', dataset_name='nope', pretrained=False)


def test_language_models_run_a_batch():
    lm = nlp.model.StandardRNN('lstm', 13, 8, 10, 2, 0.0, False)
    lm.initialize(mx.init.Constant(0.05))
    out, states = lm(mx.nd.array([[1, 2], [3, 4], [5, 6]]), lm.begin_state(batch_size=2))
    assert out.shape == (3, 2, 13) and [s.shape for s in states] == [(2, 2, 10), (2, 2, 10)]
    logits = out.asnumpy()
    np.testing.assert_allclose(logits, logits[..., :1].repeat(13, -1), rtol=1e-5)  # equal decoder rows
    awd = nlp.model.AWDRNN('lstm', 13, 8, 10, 2, True, 0.0, 0.0, 0.0, 0.0, 0.0)
    awd.initialize()
    awd.hybridize()
    out, states = awd(mx.nd.array([[1, 2], [3, 4], [5, 6]]), awd.begin_state(batch_size=2))
    assert out.shape == (3, 2, 13) and len(states) == 2 and np.isfinite(out.asnumpy()).all()


def test_encoder_blocks_match_mxnet():
    highway = nlp.model.Highway(4, num_layers=2)
    highway.initialize(mx.init.Constant(0.1))
    np.testing.assert_allclose(float(highway(mx.nd.ones((2, 4))).asnumpy().sum()), 6.493, atol=2e-3)
    conv = nlp.model.ConvolutionalEncoder(embed_size=4, num_filters=(3, 5), ngram_filter_sizes=(1, 2),
                                          num_highway=1, output_size=6)
    conv.initialize(mx.init.Constant(0.1))
    conv.hybridize()
    out = conv(mx.nd.ones((7, 2, 4)), mx.nd.ones((7, 2)))
    assert out.shape == (2, 6)
    np.testing.assert_allclose(float(out.asnumpy().sum()), 5.165, atol=2e-3)
    elmo = nlp.model.get_model('elmo_2x1024_128_2048cnn_1xhighway', dataset_name=None, pretrained=False)
    elmo = elmo[0] if isinstance(elmo, tuple) else elmo
    assert type(elmo).__name__ == 'ELMoBiLM' and len(list(elmo.collect_params().keys())) == 39
    elmo.initialize(mx.init.Constant(0.01))
    layers, _ = elmo(mx.nd.ones((2, 3, 50)), elmo.begin_state(mx.nd.zeros, batch_size=2), mx.nd.ones((2, 3)))
    assert [o.shape for o in layers] == [(2, 3, 256)] * 3
    np.testing.assert_allclose(float(layers[-1].asnumpy().sum()), 9216.0, rtol=1e-4)


def test_weight_drop_and_losses():
    dense = mx.gluon.nn.Dense(3, in_units=4)
    dense.initialize(mx.init.Constant(0.1))
    nlp.model.utils.apply_weight_drop(dense, 'weight', 0.5)
    with mx.autograd.predict_mode():  # no drop outside training
        np.testing.assert_allclose(dense(mx.nd.ones((2, 4))).asnumpy(), np.full((2, 3), 0.4), rtol=1e-6)
    logits = np.array([[[0., 1.], [1., 0.]], [[2., 0.], [0., 0.]]])
    labels = np.array([[1, 1], [0, 1]])
    loss = nlp.loss.MaskedSoftmaxCELoss()(mx.nd.array(logits), mx.nd.array(labels), mx.nd.array([1, 2]))
    log_p = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    nll = -np.take_along_axis(log_p, labels[..., None], -1)[..., 0] * np.array([[1, 0], [1, 1]])
    np.testing.assert_allclose(loss.asnumpy(), nll.mean(1), rtol=1e-5)  # a mean over all steps, masked ones as 0
    smoothed = nlp.loss.LabelSmoothing(axis=-1, epsilon=0.1, units=4)(mx.nd.array([0, 2]))
    np.testing.assert_allclose(smoothed.asnumpy(), 0.025 + 0.9 * np.eye(4)[[0, 2]], rtol=1e-6)
    accuracy = nlp.metric.MaskedAccuracy()
    accuracy.update([mx.nd.array([1, 2, 3])], [mx.nd.array([[0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0]])],
                    [mx.nd.array([1, 1, 0])])
    assert accuracy.get() == ('masked-accuracy', 1.0)
