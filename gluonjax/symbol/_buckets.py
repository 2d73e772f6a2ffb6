"""Which axes of a graph's data inputs may be padded at their end, and where that padding shows
in the outputs: a hybridized graph meeting a new length runs on its size bucket.

XLA compiles a program per input shape. A tagger or language model fed sequences of ever new
lengths compiles its whole forward and backward again for each length (1-3 s on a CPU), where
MXNet runs its kernels at once. But many graphs compute each output position from the inputs at
the same or earlier positions of some axis (time in a forward RNN, the batch almost
everywhere): padded at the end of that axis, the outputs at the real positions are the same
numbers, and a program compiled for one padded size serves every length up to it.

Which axes those are is decided from the operator table (``OpDef.along``: the axes each
operator keeps positions along) and from the graph's shapes: the graph's shapes are inferred
for two sizes of the candidate axis, and a value whose shape changes carries the axis (its
*tag*: the axis where it shows and how many of its positions each input position makes, 2 for
a (T, N, C) -> (T * N, C) reshape); every operator meeting a tagged input must keep positions
along it. A value computed from tagged inputs that does not carry the tag (an RNN's final
state, a sum over time) mixes padded positions in: it may feed nothing and be no output.
"""
import jax

from ..ops._registry import ELEMENTWISE, MOVES, ORDER

__all__ = ['axis_tags']

_PROBES = (3, 7)  # added to the axis's size for the two shape inferences
_TAINTED = 'tainted'


def axis_tags(graph, data_names, specs, train, group, key=None):
    """Where padding the data inputs' axes ``group`` ([(data position, axis)], all of one size)
    shows in the graph's outputs: ``(heads, masks, per_position)``, or None when they may not be
    padded.
    ``heads`` has per output an ``(axis, unit)`` or None (an output not depending on them);
    ``masks`` maps the index of each reduction over a padded axis (``OpDef.rows``) in the
    graph's steps to its ``(input, axis, unit)``: run with the padded positions masked by the
    reduction's neutral element (``GraphFunction``'s ``masks``), it gives the real result; and
    likewise each recurrence along a padded axis (``OpDef.steps``), run over the real steps only.
    ``per_position`` counts the elements the graph's values hold per position of the axis: what
    one padded position costs, roughly.

    ``specs`` are the data inputs' and parameters' ShapeDtypeStructs by name, ``key`` the PRNG
    key's of a random graph."""
    if not _may_pad(graph, data_names, specs, group):
        return None
    size = specs[data_names[group[0][0]]].shape[group[0][1]]
    probes = [size + p for p in _PROBES]
    try:
        shapes = [graph.slot_shapes(_resized(specs, data_names, group, p), train, key) for p in probes]
    except Exception:  # the graph does not take that axis at other sizes
        return None
    tags = {}  # (slot, output index) -> (axis, unit), _TAINTED; clean values are absent
    slot_of = {name: s for s, name in graph._variables}
    for pos, axis in group:
        tags[(slot_of[data_names[pos]], 0)] = (axis, 1)
    span = probes[1] - probes[0]
    masks, per_position = {}, 0
    for n, step in enumerate(graph._steps):
        ins = [tags.get(entry) for entry in step.slots]
        outs = [_tag(shapes[0][step.out_slot][i], shapes[1][step.out_slot][i], probes[0], span)
                for i in range(len(shapes[0][step.out_slot]))]
        if _TAINTED in ins:
            outs = [_TAINTED] * len(outs)
        elif all(t is None for t in ins):
            # a creation operator sized by inference (zeros((0, n)) of a batch) fills it alike
            if any(t is not None for t in outs) and (step.slots or step.op.along is None or _TAINTED in outs):
                return None
        elif train and step.op.updates_aux:
            return None
        elif _keeps(step, ins, outs, shapes[0]):
            outs = [_TAINTED if t is None else t for t in outs]
            stops = _stops(step, ins)
            if stops:
                masks[n] = stops
        elif _maskable(step, ins, outs):
            masks[n] = [(i, t[0], t[1]) for i, t in enumerate(ins) if t is not None]
        else:
            return None
        for i, t in enumerate(outs):
            if t is not None:
                tags[(step.out_slot, i)] = t
                per_position += (_size(shapes[1][step.out_slot][i]) - _size(shapes[0][step.out_slot][i])) // span
    heads = [tags.get(entry) for entry in graph._heads]
    return None if _TAINTED in heads else (heads, masks, per_position)


def _may_pad(graph, data_names, specs, group):
    """False where the graph's structure alone rules the padding out, before its shapes are
    traced (twice, for a ResNet 0.1-0.5 s): a value computed from the padded inputs (not through
    a reduction, which may mask) meets an operator keeping no positions, or an operator reading
    a padded input directly does not keep that axis."""
    variable_slot = {name: slot for slot, name in graph._variables}
    name_of = {slot: name for slot, name in graph._variables}
    padded = {(variable_slot[data_names[pos]], 0): axis for pos, axis in group}
    reached = set(padded)
    for step in graph._steps:
        if not any(entry in reached for entry in step.slots):
            continue
        along = step.op.along
        if along is None and step.op.rows is None:
            return False
        if callable(along) and all(s in name_of for s, _ in step.slots):  # inputs' ndims are known
            allowed = along(step.kernel(False).attrs, [len(specs[name_of[s]].shape) for s, _ in step.slots])
            if step.op.rows is None and any(entry in padded and padded[entry] not in allowed[i]
                                            for i, entry in enumerate(step.slots)):
                return False
        if step.op.rows is None:
            reached.update((step.out_slot, i) for i in range(step.n_out))
    return True


def _resized(specs, data_names, group, size):
    specs = dict(specs)
    for pos, axis in group:
        spec = specs[data_names[pos]]
        shape = list(spec.shape)
        shape[axis] = size
        specs[data_names[pos]] = jax.ShapeDtypeStruct(tuple(shape), spec.dtype)
    return specs


def _stops(step, ins):
    """``[(input, axis, unit)]`` of a recurrence stepping along its input's padded axis, which
    may stop after the real positions (``OpDef.steps``); None otherwise."""
    where = step.op.steps(step.kernel(False).attrs) if step.op.steps is not None else None
    tag = ins[where[0]] if where is not None else None
    if tag is None or tag[0] != where[1]:
        return None
    return [(where[0], tag[0], tag[1])]


def _maskable(step, ins, outs):
    """A reduction of its one input over the padded axis (its result does not carry the axis)."""
    return (step.op.rows is not None and len(ins) == 1 and ins[0] is not None
            and all(t is None for t in outs))


def _tag(a, b, first, span):
    """The tag of a value of shape ``a`` at the first probe and ``b`` at the second; None where
    the shape does not change, _TAINTED where it changes in another way than one axis of
    ``unit * size`` positions."""
    changed = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(a) != len(b) or len(changed) > 1:
        return _TAINTED
    if not changed:
        return None
    i = changed[0]
    unit, rest = divmod(b[i] - a[i], span)
    return (i, unit) if unit > 0 and not rest and a[i] == unit * first else _TAINTED


def _keeps(step, ins, outs, shapes):
    """Whether ``step``'s operator keeps the positions along its inputs' tags (``OpDef.along``),
    the outputs' tags ``outs`` found from the shapes."""
    along = step.op.along
    if along is None or _TAINTED in outs:
        return False
    in_shapes = [shapes[s][i] for s, i in step.slots]
    tagged = [(i, t) for i, t in enumerate(ins) if t is not None]
    if along == ELEMENTWISE:  # broadcasting aligns the trailing axes: the tag stays where it is
        out_ndim = len(shapes[step.out_slot][0])
        return all(o is None or all(o == (axis + out_ndim - len(in_shapes[i]), unit) for i, (axis, unit) in tagged)
                   for o in outs)
    if along == MOVES:
        return True
    if along == ORDER:  # the positions before the tag keep their count: its positions stay whole rows
        (i, (axis, _)), = tagged
        out_axis = outs[0][0]
        return _size(in_shapes[i][:axis]) == _size(shapes[step.out_slot][0][:out_axis])
    allowed = along(step.kernel(False).attrs, [len(s) for s in in_shapes])
    return all(axis in allowed[i] for i, (axis, _) in tagged)


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n
