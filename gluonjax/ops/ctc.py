"""Connectionist temporal classification loss (MXNet's ``CTCLoss`` / ``ctc_loss``), on optax."""
import jax.numpy as jnp
import optax

from ..base import MXNetError, shape_str
from ._registry import P, register


def _ctc_inputs(attrs):
    if attrs is None:
        return ('data', 'label', 'data_lengths', 'label_lengths')
    names = ['data', 'label']
    if attrs.get('use_data_lengths'):
        names.append('data_lengths')
    if attrs.get('use_label_lengths'):
        names.append('label_lengths')
    return tuple(names)


@register('CTCLoss', mxnet_outputs=2, output_names=('output0',), npx=('ctc_loss',), inputs=_ctc_inputs, aliases=('ctc_loss', '_contrib_CTCLoss', '_contrib_ctc_loss'),
          params=[P('use_data_lengths', 'bool', False), P('use_label_lengths', 'bool', False),
                  P('blank_label', 'str', 'first')])
def ctc_loss(data, label, *lengths, use_data_lengths, use_label_lengths, blank_label):
    """CTC loss of each sequence of a batch.

    ``data``: (sequence_length, batch, alphabet_size) activations before softmax;
    ``label``: (batch, label_length). With ``blank_label='first'`` the blank is class 0,
    labels are 1.. and padded with 0; with ``'last'`` the blank is the last class, labels
    are 0.. and padded with -1. A label ends at its first padding value unless
    ``label_lengths`` are given; ``data_lengths`` give each sequence's length.
    Returns (batch,) losses.
    """
    if blank_label not in ('first', 'last'):
        raise MXNetError("CTCLoss: blank_label must be 'first' or 'last', not %r" % (blank_label,))
    if data.ndim != 3 or label.ndim != 2 or label.shape[0] != data.shape[1]:
        raise MXNetError('CTCLoss: data must be (sequence_length, batch, alphabet_size) and label '
                         '(batch, label_length); got data %s and label %s'
                         % (shape_str(data.shape), shape_str(label.shape)))
    steps, batch, classes = data.shape
    if label.shape[1] > steps:
        raise MXNetError('CTCLoss: label %s has room for more labels (%d) than data %s has steps (%d); '
                         'the label length cannot exceed the sequence length'
                         % (shape_str(label.shape), label.shape[1], shape_str(data.shape), steps))
    lengths = list(lengths)
    data_lengths = lengths.pop(0) if use_data_lengths else None
    label_lengths = lengths.pop(0) if use_label_lengths else None
    for name, arr in (('data_lengths', data_lengths), ('label_lengths', label_lengths)):
        if arr is not None and arr.shape != (batch,):
            raise MXNetError('CTCLoss: %s must have shape %s (one length per sequence), got %s'
                             % (name, shape_str((batch,)), shape_str(arr.shape)))
    logits = jnp.transpose(data, (1, 0, 2))
    if data_lengths is not None:
        logit_pad = (jnp.arange(steps)[None, :] >= data_lengths.astype(jnp.int32)[:, None])
    else:
        logit_pad = jnp.zeros((batch, steps), bool)
    # steps past a sequence's length are not read (MXNet: their gradient is 0 even where they
    # hold NaN), so they are replaced before the softmax rather than only masked after it
    logits = jnp.where(logit_pad[:, :, None], jnp.zeros((), logits.dtype), logits)
    labels = label.astype(jnp.int32)
    if label_lengths is not None:
        label_pad = jnp.arange(label.shape[1])[None, :] >= label_lengths.astype(jnp.int32)[:, None]
    else:
        pad_value = 0 if blank_label == 'first' else -1
        label_pad = jnp.cumsum(labels == pad_value, axis=1) > 0
    labels = jnp.where(label_pad, 0, labels)
    blank = 0 if blank_label == 'first' else classes - 1
    loss = optax.ctc_loss(logits, logit_pad.astype(logits.dtype), labels, label_pad.astype(logits.dtype),
                          blank_id=blank)
    # a label that no alignment fits (each repeat needs a blank between: length + repeats >
    # steps) costs 0 with a zero gradient in MXNet, rather than optax's large finite stand-in
    # for an infinite cost
    real = ~label_pad
    repeats = jnp.sum(real[:, 1:] & real[:, :-1] & (labels[:, 1:] == labels[:, :-1]), axis=1)
    needed = jnp.sum(real, axis=1) + repeats
    available = steps - jnp.sum(logit_pad, axis=1)
    loss = jnp.where(needed > available, jnp.zeros((), loss.dtype), loss)
    return loss.astype(data.dtype)
