"""Data movement recorded by autograd without a compile: forward and backward on the host.

Under ``record()`` an operator runs its compiled *vjp form* (``_tape.record_call``), and backward
runs its compiled pullback: two programs per new signature (200-300 ms under load), where the
eager call of the same operator runs its host form in microseconds (ops/_host.py). For operators
whose host form is data movement (``_host.moves``: diagonal, take, split, transpose...) the
gradient is a data movement too: each output element is a copy of one input element or a
constant, so the gradient of an input element is the sum of the cotangents of the elements
copied from it. This module records such a call's first ``HOST_CALLS`` calls per signature
without compiling anything:

- the forward is the host form, as in an eager call;
- where each output element comes from is read off the host form itself, run on the input
  positions (int64 arange, offset by 2^40 and again by 2^41: an element that moves with the
  offset is a copy, one that stays is a constant), and checked against the real outputs bit for
  bit; an operator whose host form changes values (a cast) declines here and is compiled;
- the backward adds the cotangents into the source positions on the host (float sums in float64,
  rounded once; integers wrap in their own type, as MXNet's integer backward computes).

A backward over a graph that also holds compiled nodes (a reshape between layers in a training
loop) compiles the node's vjp form then and fuses it with the rest, as before (``_tape.backward``).
``create_graph`` differentiates the recorded inputs as for any node (``_tape.vjp_at_inputs``).
"""
import numpy as np

from .. import _tape
from .._transfer import put
from ..base import MXNetError
from . import _host

__all__ = ['record']

_OFFSET = 1 << 40  # input positions start here (and at twice this): far above any array's size


def record(kernel, parents, values):
    """``(outputs, node)`` of ``kernel`` on ``values`` recorded on the host, or None where the
    compiled vjp form must run (not data movement, a signature met often, data it declines)."""
    form = kernel.op.host
    if kernel.host is None or kernel.op.random or getattr(form, 'host_dtypes', None) != 'all' \
            or not _host.on_cpu():
        return None
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
