"""``mx.contrib.text``: token counting, vocabularies and token embeddings (MXNet 1.x's text API).

``utils.count_tokens_from_str`` counts the tokens of a string, ``vocab.Vocabulary`` indexes the
frequent ones, and ``embedding`` holds vectors for them: ``CustomEmbedding`` reads a
pre-trained file from disk, ``CompositeEmbedding`` concatenates several embeddings over one
vocabulary. Pre-trained GloVe/fastText files are never downloaded: an embedding registered with
``embedding.register`` reads its file from ``embedding_root`` and checks its SHA-1.
"""
from . import utils, vocab, embedding  # noqa: F401

__all__ = ['utils', 'vocab', 'embedding']
