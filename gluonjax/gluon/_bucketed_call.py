"""A hybridized graph's first calls on a new length, run by the program of a padded size bucket.

A sequence model trained on sentences of ever new lengths compiled its forward and backward
for each length: 1-3 s per new length on a CPU, where MXNet starts at once. Where the graph
keeps positions along a data axis (``symbol/_buckets.py``: a forward RNN along time, most
layers along the batch), a call whose shape is met for one of its first times
(``ops/_host.first_call``, the count the two compile tiers share) runs instead on its inputs
padded along those axes to the next power of two: one program serves every length up to it.
The padding repeats the last real position (``edge``), so the padded positions hold values the
graph already computes with (no log(0) from zeros); the outputs are cut back to the real
positions. Under ``autograd.record()`` the cut is a tape node whose backward pads the
cotangents with zeros: the padded positions feed no real output, so every gradient is the
exact-shape program's (up to the order of a sum's terms, as in any bucket).
Past its first calls a signature gets its exact program only where that pays for its compile
(:class:`Usage`): a training loop on one shape at once, as before; one length among many (a
tagger over sentences of every length) only once it has come back ``EXACT_AT`` times, the
bucket's optimised program serving it meanwhile (the LSTM tagger of bench/bench_new_shapes.py
compiled 29 exact programs at its 9th pass over 10 lengths, 1.6-1.9 s each on the 2-core CPU,
to run each step about as fast as the padded program it replaced).
"""
import jax
import numpy as np

from .. import _tape
from .._transfer import put
from ..ops._host import pow2
from ..ops._tiers import signature_of
from ..symbol._buckets import axis_tags

__all__ = ['plan', 'run', 'Usage']

EXACT_AT = 64  # calls of a signature after which its exact program is compiled in any case
# The least padded size of a sequence axis (one the graph reduces over or a recurrence steps
# along: its masks) where a position costs little: at most LIGHT elements in the graph's values,
# a recurrence stopping after the real steps (OpDef.steps). One program then serves every sentence
# up to 64 words: the LSTM tagger of bench/bench_new_shapes.py (lengths 11-38) and its loss
# compiled 3 forward and backward programs each at the powers of two, whose optimised compiles
# (3.5 s on the 2-core CPU) could not all fall in its first pass; one program's do.
SHARED_BUCKET = 64
LIGHT = 1 << 16


class Usage:
    """How often a graph met each call signature, deciding when one gets its exact program."""
    __slots__ = ('total', 'calls')
    _MAX = 4096  # signatures counted at most (ever new shapes: forget and count again)

    def __init__(self):
        self.total, self.calls = 0, {}

    def count(self, signature):
        """Count a call; how many calls of ``signature`` there have been, this one included."""
        self.total += 1
        n = self.calls.get(signature, 0) + 1
        if n == 1 and len(self.calls) >= self._MAX:
            self.calls.clear()
        self.calls[signature] = n
        return n

    def exact(self, n):
        """Whether a signature met for the ``n``-th time, past its first calls, should run its exact
        program: it makes up half the graph's calls or more, or it has come back ``EXACT_AT`` times."""
        return n >= EXACT_AT or 2 * n >= self.total


def plan(runner, entry, train, vals):
    """``(pads, cuts, masks, lengths, shared)`` for padding this call, or None: ``pads`` lists
    (data position, axis, padded size, k) with ``k`` the index of its real length among the call's
    lengths (axes of several inputs that must grow together share one), ``cuts`` per output the
    (axis, real length) pairs to cut it back to, ``masks`` the reductions and recurrences over
    padded axes (hashable: see ``GraphFunction``'s ``masks``), ``lengths`` the real length of each
    ``k``, ``shared`` whether an axis was padded to ``SHARED_BUCKET`` (see ``run``)."""
    n_data = len(runner.data_index)
    shapes = [vals[pos].shape for pos in range(n_data)]
    pads, cuts, masks, used, lengths, shared = [], [[] for _ in runner.graph._heads], {}, set(), [], False
    for pos in range(n_data):
        for axis, size in enumerate(shapes[pos]):
            if size == 0 or any(p[:2] == (pos, axis) for p in pads):
                continue
            if pow2(size) == size:  # its own bucket: padded (by nothing) where other lengths were,
                groups = _padded_before(entry, pos, axis, shapes)  # to share their program
            else:  # with the other inputs' axes of its size (a label beside its prediction), or alone
                groups = _groups(pos, axis, shapes, pads)
            found = None
            for group in groups:
                found = _tags(runner, entry, train, vals, group)
                if found is not None:
                    break
            if found is None:
                continue
            entry.padded_groups.add(tuple(group))
            heads, group_masks, per_position = found
            if any(t is not None and (i, t[0]) in used for i, t in enumerate(heads)):
                continue  # (two axes showing in one output axis: only the first is padded)
            k = len(lengths)
            lengths.append(size)
            light_sequence = bool(group_masks) and per_position <= LIGHT  # reduced or stepped along, cheap
            shared = shared or light_sequence
            bucket = max(pow2(size), SHARED_BUCKET) if light_sequence else pow2(size)
            pads.extend((j, b, bucket, k) for j, b in group)
            for i, t in enumerate(heads):
                if t is not None:
                    used.add((i, t[0]))
                    cuts[i].append((t[0], t[1] * size))
            for step, entries in group_masks.items():
                masks.setdefault(step, []).extend((i, a, unit, k) for i, a, unit in entries)
    if not pads:
        return None
    return pads, cuts, tuple(sorted((step, tuple(e)) for step, e in masks.items())), lengths, shared


def _padded_before(entry, pos, axis, shapes):
    """The groups of axes with ``(pos, axis)`` that earlier calls padded, all of one size here: a
    length that is its bucket's size (32 among sentences of 11 to 38 words) then runs the bucket's
    program, compiled already, rather than compiling its own; a graph only ever called on one
    shape (a training loop at batch 64) never had an axis padded and keeps its exact program."""
    size = shapes[pos][axis]
    return [g for g in entry.padded_groups
            if (pos, axis) in g and all(shapes[j][b] == size for j, b in g)]


def _groups(pos, axis, shapes, pads):
    together = [(j, b) for j, shape in enumerate(shapes) for b, d in enumerate(shape)
                if d == shapes[pos][axis] and not any(p[:2] == (j, b) for p in pads)]
    return [together, [(pos, axis)]] if len(together) > 1 else [[(pos, axis)]]


def _tags(runner, entry, train, vals, group):
    """``symbol._buckets.axis_tags`` for this call, kept on the compiled graph ``entry`` (shared by
    graphs of one structure) per the shapes it does not depend on."""
    cache = entry.axis_tags
    n_data = len(runner.data_index)
    shapes = tuple(tuple(-1 if (i, k) in group else d for k, d in enumerate(v.shape)) if i < n_data else v.shape
                   for i, v in enumerate(vals))
    key = (train, tuple(group), shapes, tuple(v.dtype for v in vals))
    found = cache.get(key, False)
    if found is False:
        names = runner.data_keys + runner.param_keys
        specs = {n: jax.ShapeDtypeStruct(v.shape, v.dtype) for n, v in zip(names, vals)}
        rng = jax.ShapeDtypeStruct(vals[-1].shape, vals[-1].dtype) if runner.needs_key else None
        found = cache[key] = axis_tags(runner.graph, runner.data_keys, specs, train, group, rng)
    return found


def run(entry, plan_, vals, parents, name, graph_form=None):
    """The compiled graph ``entry`` (its form for the plan's masks, which takes the real lengths
    as a last argument) on ``vals`` padded by ``plan_``; returns ``(outs, node)`` as the exact
    call would (``node``: the tape node of the cut outputs, None when not recording).

    A program padded to ``SHARED_BUCKET`` serves every length below it for as long as the graph
    meets new lengths: it is compiled optimised at once, not first in the cheap tier
    (ops/_tiers.py), whose second compile would fall among the first lengths' later calls (the
    tagger of bench/bench_new_shapes.py: 1.6 s at its 9th step)."""
    pads, cuts, masks, lengths, shared = plan_
    padded = list(vals)
    for pos, axis, size, _ in pads:
        padded[pos] = _pad(padded[pos], axis, size)
    if masks:
        padded.append(put(np.asarray(lengths, np.int32), vals[0].sharding))
    if parents:
        parents = list(parents) + [None] * (len(padded) - len(parents))
        for pos, axis, _, _ in pads:
            if parents[pos] is not None:
                parents[pos] = _pad_node(parents[pos], vals[pos], axis)
        outs, node = _tape.record_call(entry.fn, entry.token, parents, padded, entry.run, name, settled=shared)
        node.graph = graph_form
    else:
        run_, signature = entry.run, (id(entry.run), signature_of(padded))
        outs, node = (run_.choose(signature, False) if shared else run_.pick(signature))(*padded), None
    cut = [_cut(o, c) for o, c in zip(outs, cuts)] + list(outs[len(cuts):])
    if node is None:
        return cut, None
    return cut, _cut_node(node, outs, cuts, name)


def _pad(x, axis, size):
    host = np.asarray(x)
    widths = [(0, 0)] * host.ndim
    widths[axis] = (0, size - host.shape[axis])
    return put(np.pad(host, widths, mode='edge'), x.sharding)


def _cut(x, cuts):
    if not cuts:
        return x
    index = [slice(None)] * x.ndim
    for axis, length in cuts:
        index[axis] = slice(0, length)
    return put(np.ascontiguousarray(np.asarray(x)[tuple(index)]), x.sharding)


def _pad_with_zeros(ct, shape, cuts, create_graph):
    """A cotangent of a cut output, padded with zeros to the padded output's ``shape``."""
    if not cuts:
        return ct
    if create_graph:  # recorded: the padding is an operator of the recorded backward
        from ..ndarray import ndarray as _nd
        for axis, _ in cuts:
            rest = list(ct.shape)
            rest[axis] = shape[axis] - ct.shape[axis]
            ct = _nd.concat(ct, _nd.zeros(tuple(rest), ctx=ct.context, dtype=ct.dtype), dim=axis)
        return ct
    host = np.zeros(shape, ct.dtype)
    host[tuple(slice(0, n) for n in ct.shape)] = np.asarray(ct)
    return put(host, ct.sharding)


def _cut_node(node, padded_outs, cuts, name):
    """The tape node from the padded call's outputs to the cut ones."""
    shapes = [o.shape for o in padded_outs]

    def backward_fn(out_cts, need, create_graph):
        return [None if out_cts[i] is None else _pad_with_zeros(out_cts[i], shapes[i], cuts[i], create_graph)
                for i in need]
    n = len(cuts)
    return _tape.custom_node((_tape.PASS_THROUGH, 'bucket_cut'), [(node, i) for i in range(n)],
                             tuple(padded_outs[:n]), n, backward_fn, name=name)


def _pad_node(parent, value, axis):
    """The tape node from a tracked data input to its padded copy: the padded positions' gradient
    is zero (they feed no real output), so the input's gradient is the padded one cut back."""
    length = value.shape[axis]

    def backward_fn(out_cts, need, create_graph):
        ct = out_cts[0]
        if ct is None:
            return [None]
        if create_graph:
            from ..ndarray import ndarray as _nd
            return [_nd.slice_axis(ct, axis=axis, begin=0, end=length)]
        return [_cut(ct, [(axis, length)])]
    return (_tape.custom_node((_tape.PASS_THROUGH, 'bucket_pad'), (parent,), (value,), 1, backward_fn, name='pad'), 0)

