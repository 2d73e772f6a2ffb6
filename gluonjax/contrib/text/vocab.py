"""Vocabularies: the tokens of a counter, indexed by frequency."""
__all__ = ['Vocabulary']

UNKNOWN_IDX = 0


class Vocabulary:
    """Tokens indexed for embedding lookups.

    Index 0 is ``unknown_token`` (what every token outside the vocabulary maps to), then the
    ``reserved_tokens`` in order, then the tokens of ``counter`` that occur at least
    ``min_freq`` times, most frequent first (ties in token order), at most
    ``most_freq_count`` of them.
    """

    def __init__(self, counter=None, most_freq_count=None, min_freq=1, unknown_token='<unk>',
                 reserved_tokens=None):
        assert min_freq > 0, '`min_freq` must be set to a positive value.'
        if reserved_tokens is not None:
            assert unknown_token not in reserved_tokens, '`reserved_tokens` cannot contain `unknown_token`.'
            assert len(set(reserved_tokens)) == len(reserved_tokens), \
                '`reserved_tokens` cannot contain duplicate reserved tokens.'
        self._unknown_token = unknown_token
        self._reserved_tokens = list(reserved_tokens) if reserved_tokens is not None else None
        self._idx_to_token = [unknown_token] + (self._reserved_tokens or [])
        self._token_to_idx = {token: i for i, token in enumerate(self._idx_to_token)}
        if counter is not None:
            self._index_counter(counter, most_freq_count, min_freq)

    def _index_counter(self, counter, most_freq_count, min_freq):
        by_frequency = sorted(sorted(counter.items()), key=lambda item: item[1], reverse=True)
        limit = len(self._idx_to_token) + (len(counter) if most_freq_count is None else most_freq_count)
        for token, freq in by_frequency:
            if freq < min_freq or len(self._idx_to_token) == limit:
                break
            if token not in self._token_to_idx:
                self._token_to_idx[token] = len(self._idx_to_token)
                self._idx_to_token.append(token)

    def __len__(self):
        return len(self._idx_to_token)

    @property
    def token_to_idx(self):
        """dict: token -> index."""
        return self._token_to_idx

    @property
    def idx_to_token(self):
        """list: index -> token."""
        return self._idx_to_token

    @property
    def unknown_token(self):
        return self._unknown_token

    @property
    def reserved_tokens(self):
        return self._reserved_tokens

    def to_indices(self, tokens):
        """The index of a token, or the list of indices of a list of tokens (0 when unknown)."""
        if isinstance(tokens, list):
            return [self._token_to_idx.get(token, UNKNOWN_IDX) for token in tokens]
        return self._token_to_idx.get(tokens, UNKNOWN_IDX)

    def to_tokens(self, indices):
        """The token of an index, or the list of tokens of a list of indices."""
        single = not isinstance(indices, list)
        tokens = []
        for idx in [indices] if single else indices:
            if not isinstance(idx, int) or not 0 <= idx < len(self._idx_to_token):
                raise ValueError('Token index %r in the provided `indices` is invalid: the vocabulary has '
                                 '%d tokens' % (idx, len(self._idx_to_token)))
            tokens.append(self._idx_to_token[idx])
        return tokens[0] if single else tokens
