"""mx.contrib.text: token counts, vocabularies and embeddings read from local files."""
import hashlib
from collections import Counter

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError
from gluonjax.contrib import text


def test_count_tokens_and_vocabulary_order():
    counter = text.utils.count_tokens_from_str(' a b b\nc c c  some_word$\n')
    assert counter == Counter({'c': 3, 'b': 2, 'a': 1, 'some_word$': 1})
    vocab = text.vocab.Vocabulary(counter, reserved_tokens=['<pad>'])
    # unknown, reserved, then by frequency with ties in token order
    assert vocab.idx_to_token == ['<unk>', '<pad>', 'c', 'b', 'a', 'some_word$']
    assert vocab.to_indices(['b', 'nope']) == [3, 0] and vocab.to_tokens(2) == 'c'
    assert text.vocab.Vocabulary(counter, most_freq_count=1, min_freq=2).idx_to_token == ['<unk>', 'c']
    with pytest.raises(ValueError):
        vocab.to_tokens(6)
    with pytest.raises(AssertionError):
        text.vocab.Vocabulary(counter, reserved_tokens=['<unk>'])


def test_custom_and_composite_embeddings(tmp_path):
    first, second = tmp_path / 'a.txt', tmp_path / 'b.txt'
    first.write_text('a 0.1 0.2\nb 0.3 0.4\n<unk> 9 9\n')
    second.write_text('2 1\nb 5\nc 6\n')  # a fastText-style header line first
    e1 = text.embedding.CustomEmbedding(str(first))
    assert e1.idx_to_token == ['<unk>', 'a', 'b'] and e1.vec_len == 2
    np.testing.assert_allclose(e1.get_vecs_by_tokens(['A', 'zz'], lower_case_backup=True).asnumpy(),
                               [[0.1, 0.2], [9, 9]], rtol=1e-6)
    e2 = text.embedding.CustomEmbedding(str(second), init_unknown_vec=mx.nd.ones)
    vocab = text.vocab.Vocabulary(Counter(['c', 'c', 'b', 'a']))
    both = text.embedding.CompositeEmbedding(vocab, [e1, e2])
    assert both.idx_to_token == ['<unk>', 'c', 'a', 'b']
    np.testing.assert_allclose(both.idx_to_vec.asnumpy(), [[9, 9, 1], [9, 9, 6], [0.1, 0.2, 1], [0.3, 0.4, 5]],
                               rtol=1e-6)
    both.update_token_vectors('c', mx.nd.array([1, 2, 3]))
    np.testing.assert_allclose(both.get_vecs_by_tokens('c').asnumpy(), [1, 2, 3])
    with pytest.raises(ValueError, match='Token zz is unknown'):
        both.update_token_vectors('zz', mx.nd.array([1, 2, 3]))
    (tmp_path / 'bad.txt').write_text('a 1 2\nb 3\n')
    with pytest.raises(AssertionError, match='dimension'):
        text.embedding.CustomEmbedding(str(tmp_path / 'bad.txt'))


def test_registered_embeddings_read_local_files_only(tmp_path):
    @text.embedding.register
    class LocalTest(text.embedding._TokenEmbedding):
        pretrained_file_name_sha1 = {'v.vec': None}
        namespace = 'local'

        def __init__(self, embedding_root, **kwargs):
            super().__init__(**kwargs)
            self._load_embedding(self._get_pretrained_file(embedding_root, 'v.vec'), ' ', mx.nd.zeros)

    assert text.embedding.get_pretrained_file_names('localtest') == ['v.vec']
    with pytest.raises(MXNetError, match='does not download'):
        text.embedding.create('localtest', embedding_root=str(tmp_path))
    (tmp_path / 'local').mkdir()
    (tmp_path / 'local' / 'v.vec').write_text('x 1 2\n')
    assert text.embedding.create('localtest', embedding_root=str(tmp_path)).token_to_idx['x'] == 1
    with pytest.raises(KeyError):
        text.embedding.get_pretrained_file_names('word2vec')


def test_glove_reads_a_local_file_checked_by_sha1(tmp_path, monkeypatch):
    assert len(text.embedding.get_pretrained_file_names('glove')) == 10
    assert 'wiki.simple.vec' in text.embedding.get_pretrained_file_names()['fasttext']
    folder = tmp_path / 'glove'
    folder.mkdir()
    (folder / 'glove.6B.50d.txt').write_text('the 1 2\n')
    with pytest.raises(MXNetError, match='expected SHA-1'):
        text.embedding.create('glove', pretrained_file_name='glove.6B.50d.txt', embedding_root=str(tmp_path))
    monkeypatch.setitem(text.embedding.GloVe.pretrained_file_name_sha1, 'glove.6B.50d.txt',
                        hashlib.sha1(b'the 1 2\n').hexdigest())
    glove = text.embedding.GloVe('glove.6B.50d.txt', embedding_root=str(tmp_path))
    assert glove.idx_to_token == ['<unk>', 'the'] and glove.vec_len == 2
    with pytest.raises(KeyError, match='Cannot find pre-trained file'):
        text.embedding.GloVe('glove.7B.txt')
