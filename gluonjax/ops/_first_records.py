"""A signature's first recorded calls without compiling their vjp form.

Under ``record()`` an operator runs its compiled *vjp form* (``_tape.record_call``), and backward
runs its compiled pullback: two programs per new signature (200-300 ms under load), where the
eager call of the same operator runs on the host or in a size bucket in microseconds
(ops/_host.py). For the first ``HOST_CALLS`` recorded calls of a signature:

- **Data movement** (an operator whose host form is ``_host.moves``: diagonal, take, split,
  transpose...) compiles nothing. The forward is the host form; its gradient is a data movement
  too, each output element being a copy of one input element or a constant. Where each comes
  from is read off the host form itself, run on the input positions (int64 arange, offset by
  2^40 and again by 2^41: an element that moves with the offset is a copy, one that stays is a
  constant), and checked against the real outputs bit for bit (a cast, which changes values,
  declines). The backward adds the cotangents into the source positions on the host (float sums
  in float64, rounded once; integers wrap in their own type, as MXNet's integer backward does).
- **Other operators a first eager call serves without compiling** (a host form, a size bucket,
  padded rows) run that way, and the node keeps its inputs instead of a pullback: one program
  computing the gradients from the inputs is compiled if and when a backward reaches it
  (``_tape.replay_grads``), in the cheap tier; for a pointwise operator on inputs of one shape it
  is the program for the size bucket, as the forward's. A recorded call whose gradient is never
  taken compiles nothing; one that is differentiated compiles one program where it compiled two.

A backward over a graph that also holds compiled nodes (a reshape between layers in a training
loop) compiles these nodes' vjp forms then and fuses them with the rest, as before
(``_tape.backward``). ``create_graph`` differentiates the recorded inputs as for any node
(``_tape.vjp_at_inputs``).
"""
import jax
import numpy as np

from .. import _caches, _tape
from .._transfer import put
from ..base import MXNetError
from . import _host
from ._tiers import Tiered

__all__ = ['record', 'record_kernel']

_OFFSET = 1 << 40  # input positions start here (and at twice this): far above any array's size


def record(kernel, parents, values):
    """``(outputs, node)`` of ``kernel`` on ``values`` recorded without compiling its vjp form, or
    None where the compiled vjp form must run (a signature met often, an operator or data no
    first call serves)."""
    op = kernel.op
    if not kernel.first_calls or op.random or op.updates_aux or op.mutate_inputs or not _host.on_cpu():
        return None
    recorded = None
    if kernel.host is not None and getattr(op.host, 'host_dtypes', None) == 'all':
        recorded = _moves(kernel, parents, values)  # (moves count their recorded calls apart)
    elif kernel.steady is not None:  # past its first calls no first call serves it (ops/_host._Steady)
        arrays = values[:len(values) - len(kernel.dynamic)]
        if tuple([getattr(a, 'aval', None) for a in arrays]) in kernel.steady:
            return None
    return recorded if recorded is not None else _deferred(kernel, parents, values)


def record_kernel(kernel, parents, values):
    """``(outputs, node)`` of ``kernel`` on ``values`` recorded on the tape (``parents``: the
    values' entries, one tracked): a first call as :func:`record` records it, any other by the
    kernel's compiled vjp form."""
    recorded = record(kernel, parents, values)
    if recorded is not None:
        return recorded
    return _tape.record_call(kernel.fn, kernel.key, parents, values, kernel.tiered, kernel.op.name,
                             kernel.key[2])


def _deferred(kernel, parents, values):
    """The call run as a first eager call (host, bucket, rows), its gradient compiled later."""
    for p in parents[len(values) - len(kernel.dynamic):]:
        if p is not None:
            return None
    outs = _host.run(kernel, tuple(values), while_cheap=False)
    if outs is None or outs is _host.COLD:
        return None
    node = _tape.Node(kernel.fn, kernel.key, tuple(parents), tuple(values), len(outs), None,
                      tuple([(o.shape, o.dtype) for o in outs]) if len(outs) > 1 else None,
                      name=kernel.op.name)
    n_arrays = len(values) - len(kernel.dynamic)
    shape = _host.broadcast_shape(kernel, values[:n_arrays], values[n_arrays:]) \
        if kernel.op.pointwise and n_arrays > 0 else None

    reduced = kernel.op.rows is not None and _host.row_reducible(values[:n_arrays], values[n_arrays:])

    def backward_fn(out_cts, need, create_graph):
        if create_graph:
            return NotImplemented
        run = _in_bucket(n_arrays, shape) if shape is not None and all(
            c is None or (c.shape == shape and not c.weak_type) for c in out_cts) else None
        if reduced and out_cts[0] is not None and out_cts[0].shape == outs[0].shape:
            run = _in_rows_grads(kernel)
        grads = _tape.replay_grads(node, need, out_cts, run)
        return [None if _tape._is_float0(g) else g for g in grads]
    backward_fn.compile_pullback = lambda: _tape.compiled_pullback(
        kernel.fn, kernel.key, parents, values, kernel.key[2])
    node.backward_fn = backward_fn
    return outs, node


def _in_bucket(n_arrays, shape):
    """A runner of a pointwise operator's gradients by the program for the size bucket of its
    inputs broadcast to ``shape`` (each gradient element is computed from the inputs and
    cotangents at its index alone); the scalars after the arrays pass unchanged. An input that
    was broadcast gets its elements' gradients summed on the host (floats in float64, rounded
    once), as the forward's broadcast is a move."""
    def run(f, values, cts, need):
        arrays = values[:n_arrays]
        placement = arrays[0].sharding
        n = int(np.prod(shape, dtype=np.int64))
        size = _host.bucket_size(n)

        def pad(a):
            buf = np.ones(size, a.dtype)
            buf[:n] = np.broadcast_to(np.asarray(a), shape).reshape(-1)
            return put(buf, placement)
        padded = [pad(a) for a in arrays] + list(values[n_arrays:])
        # optimised at once, as the forward's bucket programs: one serves every size up to its own
        grads = f.hot(padded, [pad(c) for c in cts])
        return [g if _tape._is_float0(g) else put(_sum_to(np.asarray(g)[:n].reshape(shape), a.shape), placement)
                for g, a in zip(grads, [arrays[i] for i in need])]
    return run


def _in_rows_grads(kernel):
    """A runner of a reduction's gradient by the vjp of the program reducing the rows of its
    (M, K) bucket (ops/_host.py: ``Rows``), shared by every shape of that bucket: the cotangents
    of the real rows' results in (a mean's divided by its count), the gradient of the real
    rows cut back and laid out as the input."""
    def run(f, values, cts, need):
        x, ct = values[0], np.asarray(cts[0])
        rows, order, m, k = _host.rows_of(kernel, x)
        buf = _host.padded_rows(rows, np.asarray(x).transpose(order).reshape(m, k))
        head = np.zeros(buf.shape[0], ct.dtype)
        head[:m] = (ct.reshape(m).astype(np.float64) / k).astype(ct.dtype) if rows.per_count else ct.reshape(m)
        row_kernel = kernel.sibling(rows.op, dict(rows.attrs, axis=1))
        vjp = _row_vjp(row_kernel)
        tier = vjp.pick((id(vjp), buf.shape, buf.dtype))
        g = np.asarray(tier(put(buf, x.sharding), put(head, x.sharding)))[:m, :k]
        g = g.reshape([x.shape[i] for i in order]).transpose(np.argsort(order))
        return [put(np.ascontiguousarray(g), x.sharding)]
    return run


_row_vjps = _caches.lru_cache('first_records.row_vjps', 256)  # row kernel key -> Tiered vjp


def _row_vjp(row_kernel):
    """``(rows, cotangents of their results) -> gradient of the rows``, in two compile tiers."""
    f = _row_vjps.get(row_kernel.key)
    if f is None:
        fn = row_kernel.fn
        f = _row_vjps[row_kernel.key] = Tiered(lambda rows, ct: jax.vjp(lambda r: fn(r)[0], rows)[1](ct)[0])
    return f


def _sum_to(g, shape):
    """``g`` summed over the axes an input of ``shape`` was broadcast along."""
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape) if d == 1 and g.shape[lead + i] != 1)
    acc = np.float64 if g.dtype.kind == 'f' else g.dtype
    return g.sum(axis=axes, dtype=acc).reshape(shape).astype(g.dtype)


def _moves(kernel, parents, values):
    """The call as data movement on the host, forward and backward, or None."""
    form = kernel.op.host
    n_arrays = len(values) - len(kernel.dynamic)
    arrays, dynamic = values[:n_arrays], values[n_arrays:]
    need = tuple([i for i, p in enumerate(parents[:n_arrays]) if p is not None])
    moved = getattr(form, 'moved', None)
    if moved is None:
        if getattr(form, 'mixed_dtypes', False):
            return None
        moved = tuple(range(n_arrays))
    if not need or any(i not in moved for i in need) or any(p is not None for p in parents[n_arrays:]):
        return None
    for a in arrays:
        if not _host.hostable(a):
            return None
    dtype = arrays[moved[0]].dtype
    if dtype == np.bool_ or any(arrays[i].dtype != dtype for i in moved):
        return None
    if not _host.first_call(('recorded moves', kernel.key, need, tuple([(a.shape, a.dtype) for a in arrays]))):
        return None
    host_args = [np.asarray(a) for a in arrays]
    outs = _run(kernel, host_args, dynamic)
    if outs is None or any(o.dtype != dtype for o in outs):
        return None  # the form declined, or it changes the dtype (a cast): not a move
    sources = _sources(kernel, host_args, dynamic, moved, outs)
    if sources is None:
        return None
    placement = arrays[0].sharding
    results = tuple([put(o, placement) for o in outs])
    backward = _backward(sources, [(host_args[i].shape, host_args[i].dtype) for i in moved], moved,
                         [a.sharding for a in arrays])
    backward.compile_pullback = lambda: _tape.compiled_pullback(
        kernel.fn, kernel.key, parents, values, kernel.key[2])
    avals = tuple([(o.shape, o.dtype) for o in outs]) if len(outs) > 1 else None
    node = _tape.Node(kernel.fn, kernel.key, tuple(parents), tuple(values), len(outs), None, avals,
                      backward_fn=backward, name=kernel.op.name)
    return results, node


def _run(kernel, host_args, dynamic):
    try:
        with np.errstate(all='ignore'):
            outs = kernel.host(*host_args, *dynamic)
    except MXNetError:  # the operator's own check, in its words
        raise
    except Exception:  # Fallback, or anything else: the compiled kernel runs and reports it
        return None
    return [np.asarray(o) for o in outs]


def _sources(kernel, host_args, dynamic, moved, outs):
    """Per output, the flat source position of each element among the moved inputs laid end to
    end (-1 for a constant), or None where the form is not a pure move of these inputs."""
    runs = []
    for base in (_OFFSET, 2 * _OFFSET):
        args, start = list(host_args), base
        for i in moved:
            size = host_args[i].size
            args[i] = np.arange(start, start + size, dtype=np.int64).reshape(host_args[i].shape)
            start += size
        got = _run(kernel, args, dynamic)
        if got is None or len(got) != len(outs) or any(g.dtype != np.int64 for g in got):
            return None
        runs.append(got)
    flat_in = np.concatenate([host_args[i].reshape(-1) for i in moved]) if moved else np.zeros(0)
    bits = _bits(flat_in)
    sources = []
    for out, first, second in zip(outs, *runs):
        if first.shape != out.shape:
            return None
        copied = second - first == _OFFSET
        if not np.array_equal(first[~copied], second[~copied]):
            return None  # neither a copy nor a constant
        src = np.where(copied, first - _OFFSET, -1).reshape(-1)
        if np.any(src >= flat_in.size):
            return None
        picked = src >= 0
        if not np.array_equal(_bits(out.reshape(-1))[picked], bits[src[picked]]):
            return None  # the real outputs are not the inputs' bits moved
        sources.append(src)
    return sources


def _bits(a):
    return a.view(np.dtype('u%d' % a.dtype.itemsize)) if a.dtype.itemsize in (1, 2, 4, 8) else a


def _backward(sources, in_avals, moved, shardings):
    """The node's backward: the cotangents added into the positions they were copied from."""
    sizes = [int(np.prod(s, dtype=np.int64)) for s, _ in in_avals]
    starts = np.cumsum([0] + sizes)
    dtype = in_avals[0][1]
    where = {i: k for k, i in enumerate(moved)}

    def backward_fn(out_cts, need, create_graph):
        if create_graph:
            return NotImplemented
        total = int(starts[-1])
        if dtype.kind == 'f':
            acc = np.zeros(total, np.float64)
            for src, ct in zip(sources, out_cts):
                if ct is not None:
                    picked = src >= 0
                    acc += np.bincount(src[picked], np.asarray(ct, np.float64).reshape(-1)[picked],
                                       minlength=total)
        else:  # integers wrap as MXNet's integer backward does
            acc = np.zeros(total, dtype)
            for src, ct in zip(sources, out_cts):
                if ct is not None:
                    picked = src >= 0
                    np.add.at(acc, src[picked], np.asarray(ct).astype(dtype).reshape(-1)[picked])
        grads = []
        for i in need:
            k = where[i]
            g = acc[starts[k]:starts[k + 1]].astype(dtype).reshape(in_avals[k][0])
            grads.append(put(g, shardings[i]))
        return grads
    return backward_fn
