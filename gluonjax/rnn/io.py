"""Sentence data for the legacy ``mx.rnn`` API: word coding and a bucketing iterator."""
import bisect
import random

import numpy as np

from .. import ndarray
from ..io import DataBatch, DataDesc, DataIter

__all__ = ['encode_sentences', 'BucketSentenceIter']


def encode_sentences(sentences, vocab=None, invalid_label=-1, invalid_key='\n', start_label=0,
                     unknown_token=None):
    """Sentences (lists of words) as lists of integer codes, and the vocabulary used.

    Without ``vocab`` a new one is built (``invalid_key`` coded ``invalid_label``, other words
    numbered from ``start_label``, skipping ``invalid_label``). With a ``vocab``, a word not in it
    is coded as ``unknown_token`` (added to the vocabulary on first use) or is an error.
    """
    next_code = start_label
    new_vocab = vocab is None
    if new_vocab:
        vocab = {invalid_key: invalid_label}
    coded_sentences = []
    for sentence in sentences:
        coded = []
        for word in sentence:
            if word not in vocab:
                if not (new_vocab or unknown_token):
                    raise AssertionError('Unknown token %s' % word)
                if next_code == invalid_label:
                    next_code += 1
                if unknown_token:
                    word = unknown_token
                vocab[word] = next_code
                next_code += 1
            coded.append(vocab[word])
        coded_sentences.append(coded)
    return coded_sentences, vocab


class BucketSentenceIter(DataIter):
    """Batches of coded sentences, each padded to the smallest bucket length that holds it.

    The label is the sentence shifted left by one word (next-word prediction), padded with
    ``invalid_label``. Each batch's ``bucket_key`` is its length; ``layout`` 'NT' gives
    (batch, time) arrays, 'TN' (time, batch). Without ``buckets``, every length that at least
    ``batch_size`` sentences have is a bucket; longer sentences are dropped.
    """

    def __init__(self, sentences, batch_size, buckets=None, invalid_label=-1, data_name='data',
                 label_name='softmax_label', dtype='float32', layout='NT'):
        super().__init__()
        if not buckets:
            counts = np.bincount([len(s) for s in sentences])
            buckets = [length for length, count in enumerate(counts) if count >= batch_size]
        buckets = sorted(buckets)
        per_bucket = [[] for _ in buckets]
        discarded = 0
        for sentence in sentences:
            slot = bisect.bisect_left(buckets, len(sentence))
            if slot == len(buckets):
                discarded += 1
                continue
            row = np.full((buckets[slot],), invalid_label, dtype=dtype)
            row[:len(sentence)] = sentence
            per_bucket[slot].append(row)
        # buckets no sentence fell into are dropped
        self.buckets = [b for b, rows in zip(buckets, per_bucket) if rows]
        self.data = [np.asarray(rows, dtype=dtype) for rows in per_bucket if rows]
        print('WARNING: discarded %d sentences longer than the largest bucket.' % discarded)

        self.batch_size = batch_size
        self.data_name = data_name
        self.label_name = label_name
        self.dtype = dtype
        self.invalid_label = invalid_label
        self.layout = layout
        self.major_axis = layout.find('N')
        if self.major_axis not in (0, 1):
            raise ValueError('Invalid layout %s: Must by NT (batch major) or TN (time major)' % layout)
        self.default_bucket_key = max(self.buckets)
        shape = self._shape(self.default_bucket_key)
        self.provide_data = [DataDesc(name=data_name, shape=shape, layout=layout)]
        self.provide_label = [DataDesc(name=label_name, shape=shape, layout=layout)]
        self.idx = [(i, start) for i, rows in enumerate(self.data)
                    for start in range(0, len(rows) - batch_size + 1, batch_size)]
        self.curr_idx = 0
        self.nddata = []
        self.ndlabel = []
        self.reset()

    def _shape(self, length):
        return (self.batch_size, length) if self.major_axis == 0 else (length, self.batch_size)

    def reset(self):
        """Shuffle the batches and the sentences within each bucket."""
        self.curr_idx = 0
        random.shuffle(self.idx)
        for rows in self.data:
            np.random.shuffle(rows)
        self.nddata, self.ndlabel = [], []
        for rows in self.data:
            label = np.empty_like(rows)
            label[:, :-1] = rows[:, 1:]
            label[:, -1] = self.invalid_label
            self.nddata.append(ndarray.array(rows, dtype=self.dtype))
            self.ndlabel.append(ndarray.array(label, dtype=self.dtype))

    def next(self):
        if self.curr_idx == len(self.idx):
            raise StopIteration
        i, start = self.idx[self.curr_idx]
        self.curr_idx += 1
        data = self.nddata[i][start:start + self.batch_size]
        label = self.ndlabel[i][start:start + self.batch_size]
        if self.major_axis == 1:
            data, label = data.T, label.T
        return DataBatch([data], [label], pad=0, bucket_key=self.buckets[i],
                         provide_data=[DataDesc(name=self.data_name, shape=data.shape, layout=self.layout)],
                         provide_label=[DataDesc(name=self.label_name, shape=label.shape, layout=self.layout)])
