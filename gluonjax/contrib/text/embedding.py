"""Token embeddings: vectors for the tokens of a vocabulary.

``CustomEmbedding`` reads a pre-trained file (one token and its values per line);
``CompositeEmbedding`` concatenates the vectors of several embeddings for one vocabulary.
``register`` / ``create`` / ``get_pretrained_file_names`` form the registry of named
embeddings. ``GloVe`` and ``FastText`` know MXNet's pre-trained files by name and SHA-1 but never
download them: the file must already be at ``embedding_root/<glove|fasttext>/<file name>``.
"""
import hashlib
import logging
import os

import numpy as np

from ... import ndarray as nd
from ...base import MXNetError, data_dir
from . import vocab
from ._pretrained_files import FILES

__all__ = ['register', 'create', 'get_pretrained_file_names', 'GloVe', 'FastText', 'CustomEmbedding',
           'CompositeEmbedding']

_REGISTRY = {}


def register(embedding_cls):
    """Class decorator: make ``embedding_cls`` (a ``_TokenEmbedding``) available to ``create``
    under its lower-cased class name."""
    if not issubclass(embedding_cls, _TokenEmbedding):
        raise TypeError('register: %s is not a token embedding class' % embedding_cls.__name__)
    _REGISTRY[embedding_cls.__name__.lower()] = embedding_cls
    return embedding_cls


def create(embedding_name, **kwargs):
    """An instance of the registered embedding ``embedding_name``."""
    try:
        cls = _REGISTRY[embedding_name.lower()]
    except KeyError:
        raise KeyError('Cannot find `embedding_name` %s. Use `get_pretrained_file_names()` to list the registered '
                       'embeddings: %s' % (embedding_name, sorted(_REGISTRY))) from None
    return cls(**kwargs)


def get_pretrained_file_names(embedding_name=None):
    """The pre-trained file names of one registered embedding, or {name: file names} of all."""
    if embedding_name is None:
        return {name: list(cls.pretrained_file_name_sha1) for name, cls in _REGISTRY.items()}
    if embedding_name.lower() not in _REGISTRY:
        raise KeyError('Cannot find `embedding_name` %s: registered embeddings are %s'
                       % (embedding_name, sorted(_REGISTRY)))
    return list(_REGISTRY[embedding_name.lower()].pretrained_file_name_sha1)


def _sha1(path):
    digest = hashlib.sha1()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            digest.update(chunk)
    return digest.hexdigest()


class _TokenEmbedding(vocab.Vocabulary):
    """A vocabulary with a vector per token (``idx_to_vec``, one row per index; row 0 is the
    unknown token's vector)."""

    #: {pre-trained file name: SHA-1} of a registered embedding
    pretrained_file_name_sha1 = {}
    #: folder of its files under ``embedding_root``
    namespace = None

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._idx_to_vec = None

    @classmethod
    def _check_pretrained_file_names(cls, pretrained_file_name):
        if pretrained_file_name not in cls.pretrained_file_name_sha1:
            raise KeyError('Cannot find pre-trained file %s for token embedding %s; valid names are %s'
                           % (pretrained_file_name, cls.__name__.lower(), sorted(cls.pretrained_file_name_sha1)))

    @classmethod
    def _get_pretrained_file(cls, embedding_root, pretrained_file_name):
        """The path of a pre-trained file already on disk with the expected SHA-1."""
        path = os.path.join(os.path.expanduser(embedding_root), cls.namespace or '', pretrained_file_name)
        expected = cls.pretrained_file_name_sha1.get(pretrained_file_name)
        if not os.path.isfile(path):
            raise MXNetError('%s: gluonjax does not download pre-trained embeddings; put %s at %s'
                             % (cls.__name__, pretrained_file_name, path))
        if expected is not None and _sha1(path) != expected:
            raise MXNetError('%s: %s does not have the expected SHA-1 %s' % (cls.__name__, path, expected))
        return path

    def _load_embedding(self, pretrained_file_path, elem_delim, init_unknown_vec, encoding='utf8'):
        """Read token vectors from a text file, one ``token<delim>v1<delim>v2...`` per line. A
        first line of two values (fastText's "count dimension" header) is skipped; the unknown
        token's own line, if any, gives row 0, else ``init_unknown_vec(shape=vec_len)``."""
        pretrained_file_path = os.path.expanduser(pretrained_file_path)
        if not os.path.isfile(pretrained_file_path):
            raise ValueError('`pretrained_file_path` must be a valid path to the pre-trained token embedding file.')
        logging.info('Loading pre-trained token embedding vectors from %s', pretrained_file_path)
        rows, unknown_row, vec_len = [], None, None
        with open(pretrained_file_path, 'r', encoding=encoding) as f:
            for line_num, line in enumerate(f):
                elems = line.rstrip().split(elem_delim)
                assert len(elems) > 1, 'At line %d of the pre-trained text embedding file: the data format of the ' \
                    'pre-trained token embedding file %s is unexpected.' % (line_num, pretrained_file_path)
                token, values = elems[0], [float(v) for v in elems[1:]]
                if line_num == 0 and len(values) == 1:
                    continue  # a header line
                if vec_len is None:
                    vec_len = len(values)
                assert len(values) == vec_len, 'At line %d of the pre-trained token embedding file: the dimension ' \
                    'of token %s is %d but the dimension of previous tokens is %d. Dimensions of all the tokens ' \
                    'must be the same.' % (line_num, token, len(values), vec_len)
                if token == self.unknown_token:
                    unknown_row = values
                elif token in self._token_to_idx:
                    logging.warning('At line %d of the pre-trained token embedding file: the embedding vector for '
                                    'token %s has been loaded and a duplicate embedding for the same token is seen '
                                    'and skipped.', line_num, token)
                else:
                    self._token_to_idx[token] = len(self._idx_to_token)
                    self._idx_to_token.append(token)
                    rows.append(values)
        if vec_len is None:
            raise ValueError('%s holds no token vectors' % pretrained_file_path)
        specials = len(self._idx_to_token) - len(rows)  # the unknown and reserved tokens
        unknown = np.asarray(unknown_row, np.float32) if unknown_row is not None else \
            init_unknown_vec(shape=vec_len).asnumpy()
        table = np.concatenate([np.tile(unknown, (specials, 1)), np.asarray(rows, np.float32).reshape(-1, vec_len)])
        self._idx_to_vec = nd.array(table)

    @property
    def vec_len(self):
        return None if self._idx_to_vec is None else self._idx_to_vec.shape[1]

    @property
    def idx_to_vec(self):
        """NDArray (len(self), vec_len): the vector of each index."""
        return self._idx_to_vec

    def _index_of(self, token, lower_case_backup):
        if token in self._token_to_idx or not lower_case_backup:
            return self._token_to_idx.get(token, vocab.UNKNOWN_IDX)
        return self._token_to_idx.get(token.lower(), vocab.UNKNOWN_IDX)

    def get_vecs_by_tokens(self, tokens, lower_case_backup=False):
        """The vector of a token (1-D), or the vectors of a list of tokens (2-D); unknown tokens get
        row 0. With ``lower_case_backup`` a token not found is looked up again in lower case."""
        single = not isinstance(tokens, list)
        indices = [self._index_of(t, lower_case_backup) for t in ([tokens] if single else tokens)]
        vecs = nd.take(self._idx_to_vec, nd.array(indices, dtype='int64'))
        return vecs[0] if single else vecs

    def update_token_vectors(self, tokens, new_vectors):
        """Replace the vectors of ``tokens`` (one token or a list) by the rows of ``new_vectors``."""
        assert self._idx_to_vec is not None, 'The property `idx_to_vec` has not been properly set.'
        tokens = tokens if isinstance(tokens, list) else [tokens]
        if new_vectors.ndim == 1:
            new_vectors = new_vectors.expand_dims(0)
        assert new_vectors.shape == (len(tokens), self.vec_len), \
            'The length of new_vectors must be equal to the number of tokens and the width of new_vectors must ' \
            'be equal to the dimension of embeddings of the glossary.'
        indices = []
        for token in tokens:
            if token not in self._token_to_idx:
                raise ValueError('Token %s is unknown. To update the embedding vector for an unknown token, please '
                                 'specify it explicitly as the `unknown_token` %s in `tokens`. This is to avoid '
                                 'unintended updates.' % (token, self._idx_to_token[vocab.UNKNOWN_IDX]))
            indices.append(self._token_to_idx[token])
        table = self._idx_to_vec.asnumpy()
        table[indices] = new_vectors.asnumpy()
        self._idx_to_vec[:] = table

    def _set_vocabulary(self, vocabulary, embeddings):
        """Take ``vocabulary``'s tokens, with the concatenated vectors of ``embeddings`` for them
        (row 0: each embedding's unknown vector)."""
        tokens = vocabulary.idx_to_token
        parts = []
        for emb in embeddings:
            rows = emb.get_vecs_by_tokens(list(tokens[1:])).asnumpy() if len(tokens) > 1 else \
                np.zeros((0, emb.vec_len), np.float32)
            parts.append(np.concatenate([emb.idx_to_vec[0].asnumpy()[None], rows]))
        self._idx_to_vec = nd.array(np.concatenate(parts, axis=1))
        self._token_to_idx = dict(vocabulary.token_to_idx)
        self._idx_to_token = list(tokens)
        self._unknown_token = vocabulary.unknown_token
        self._reserved_tokens = vocabulary.reserved_tokens


class _PretrainedEmbedding(_TokenEmbedding):
    """An embedding read from one of its class's pre-trained files (``pretrained_file_name``, found
    under ``embedding_root``, by default ``$MXNET_HOME/embeddings``); with ``vocabulary`` it takes
    that vocabulary's tokens."""
    default_file = None

    def __init__(self, pretrained_file_name=None, embedding_root=None, init_unknown_vec=nd.zeros, vocabulary=None,
                 **kwargs):
        pretrained_file_name = pretrained_file_name or self.default_file
        self._check_pretrained_file_names(pretrained_file_name)
        super().__init__(**kwargs)
        root = embedding_root if embedding_root is not None else os.path.join(data_dir(), 'embeddings')
        self._load_embedding(self._get_pretrained_file(root, pretrained_file_name), ' ', init_unknown_vec)
        if vocabulary is not None:
            self._set_vocabulary(vocabulary, [self])


@register
class GloVe(_PretrainedEmbedding):
    """GloVe vectors (Pennington et al., 2014) from one of the files of nlp.stanford.edu/projects/glove."""
    pretrained_file_name_sha1 = FILES['glove']
    namespace = 'glove'
    default_file = 'glove.840B.300d.txt'


@register
class FastText(_PretrainedEmbedding):
    """fastText vectors (Bojanowski et al., 2017) from one of the ``.vec`` files of fasttext.cc."""
    pretrained_file_name_sha1 = FILES['fasttext']
    namespace = 'fasttext'
    default_file = 'wiki.simple.vec'


class CustomEmbedding(_TokenEmbedding):
    """Token vectors read from ``pretrained_file_path``: lines of a token and its values joined by
    ``elem_delim``. With ``vocabulary``, the embedding takes that vocabulary's tokens instead."""

    def __init__(self, pretrained_file_path, elem_delim=' ', encoding='utf8', init_unknown_vec=nd.zeros,
                 vocabulary=None, **kwargs):
        super().__init__(**kwargs)
        self._load_embedding(pretrained_file_path, elem_delim, init_unknown_vec, encoding)
        if vocabulary is not None:
            self._set_vocabulary(vocabulary, [self])


class CompositeEmbedding(_TokenEmbedding):
    """The vectors of ``token_embeddings`` (one or a list) concatenated for the tokens of
    ``vocabulary``."""

    def __init__(self, vocabulary, token_embeddings):
        if not isinstance(token_embeddings, list):
            token_embeddings = [token_embeddings]
        for emb in token_embeddings:
            assert isinstance(emb, _TokenEmbedding), \
                'The argument `token_embeddings` must be an instance or a list of instances of ' \
                '`mxnet.contrib.text.embedding._TokenEmbedding`.'
        super().__init__(unknown_token=vocabulary.unknown_token)
        self._set_vocabulary(vocabulary, token_embeddings)
