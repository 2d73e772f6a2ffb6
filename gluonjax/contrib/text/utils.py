"""Counting the tokens of a string."""
import collections
import re

__all__ = ['count_tokens_from_str']


def count_tokens_from_str(source_str, token_delim=' ', seq_delim='\n', to_lower=False, counter_to_update=None):
    """A ``collections.Counter`` of the tokens of ``source_str``, split at ``token_delim`` and
    ``seq_delim`` (empty tokens dropped, lower-cased with ``to_lower``); ``counter_to_update``,
    when given, is updated and returned."""
    tokens = re.split('%s|%s' % (re.escape(token_delim), re.escape(seq_delim)), source_str)
    tokens = [t.lower() if to_lower else t for t in tokens if t]
    counter = collections.Counter() if counter_to_update is None else counter_to_update
    counter.update(tokens)
    return counter
