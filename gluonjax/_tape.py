"""The autograd tape: recorded operations, leaves and the backward pass, on jax arrays.

This module sits between the operator kernels and NDArray: it knows jax arrays, pure
functions and the node objects below, never NDArray (the ndarray layer calls in here;
``gluonjax.autograd`` is MXNet's user API on top). An *entry* (what an array's ``_ag``
holds) is a :class:`Leaf`, a ``(Node, output index)`` pair, or None for an untracked array.

Recording keeps what backward needs: :func:`record_call` runs an operator as one compiled
call returning its outputs *and* the residuals of its vector-Jacobian product (``jax.vjp``'s
pullback is a pytree whose leaves are the residuals). Backward therefore never computes a
forward again: the first time a graph structure is seen each node's pullback runs as its own
compiled call; when the structure repeats (a training loop) all pullbacks run as one compiled
function, fused by XLA.
"""
import collections
import threading

import jax
import jax.numpy as jnp
import numpy as np

from . import _caches
from ._transfer import put
from ._x64 import x64
from .base import MXNetError
from .ops import _costly, _host, _int_grads
from .ops._kernel import error_cause, kernel_for
from .ops._tiers import Tiered, signature_of

__all__ = ['state', 'Leaf', 'Node', 'tracked', 'record_call', 'custom_node', 'backward',
           'walk', 'graph_nodes', 'node_grads', 'vjp_at_inputs', 'add', 'ones_like', 'zeros_like', 'full']


class _State(threading.local):
    recording = False
    training = False


state = _State()


class Leaf:
    """The autograd state of a variable: its gradient buffer and how it is written.

    ``grad`` is the buffer (an object whose ``_data`` holds a jax array, an NDArray in
    practice), ``req`` is 'write', 'add' or 'null'. ``fresh`` becomes True when backward writes
    the gradient (MXNet's ``_fresh_grad``) and ``gluon.Trainer`` clears it after each update.
    """
    __slots__ = ('grad', 'req', 'fresh', '__weakref__')

    def __init__(self, grad, req):
        self.grad, self.req, self.fresh = grad, req, False

    def store(self, g):
        """Write gradient ``g`` (a jax array) into the buffer according to ``req``.

        A 'null' variable reached by a backward pass loses its buffer: MXNet's ``.grad`` is
        None from then on (zeros before), until ``attach_grad`` is called again.
        """
        if self.req == 'null':
            self.grad = None
            return
        buf = self.grad
        if buf is None:
            return
        self.fresh = True
        g = cast(g, buf._data.dtype)
        buf._set_data(add(buf._data, g) if self.req == 'add' else g)


class Node:
    """One recorded operation.

    ``parents[i]`` is the entry of input ``i`` (None for a constant: a scalar, a PRNG key,
    an untracked array) and ``values[i]`` its value when recorded. ``pullback`` is the
    operator's vjp at those inputs (residuals included), taking the cotangents of all
    outputs and giving those of the tracked inputs. ``fn``/``key`` name the pure forward
    function (equal keys, equal functions): ``create_graph`` differentiates it again.
    ``backward_fn`` replaces the pullback for hand-written backwards (``autograd.Function``,
    copies between devices). ``on_backward``, when set, is called each time a backward pass
    goes through the node: MXNet updates BatchNorm's running statistics there. ``graph``, for
    a hybridized Block's call, is what ``autograd.get_symbol`` shows of it (see gluon/_cached_graph.py).
    """
    __slots__ = ('fn', 'key', 'parents', 'values', 'n_out', 'pullback', 'out_avals',
                 'backward_fn', 'name', 'on_backward', 'graph', 'settled')

    def __init__(self, fn, key, parents, values, n_out, pullback=None, out_avals=None,
                 backward_fn=None, name=''):
        self.fn, self.key, self.parents, self.values = fn, key, parents, values
        self.n_out, self.pullback, self.out_avals = n_out, pullback, out_avals
        self.backward_fn, self.name = backward_fn, name
        self.on_backward = self.graph = None
        self.settled = False  # its pullback compiles optimised at once (see record_call)

    def free(self):
        self.values = self.pullback = None


def in_graph(entry):
    """Whether an array's autograd entry puts it in a graph MXNet would still record on: a leaf,
    or an operator's output whose graph no backward has freed."""
    if entry is None:
        return False
    return entry.__class__ is not tuple or entry[0].values is not None


def tracked(parents):
    """Whether any of the entries leads back to a leaf (an operator on them must be recorded)."""
    for p in parents:
        if p is not None:
            return True
    return False


# ---------------------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------------------

_NO_VJP = object()  # the vjp form failed to trace: record without residuals
_fwd_cache = _caches.lru_cache('tape.vjp_forms', 4096)  # (kernel key, inputs, device)


def _vjp_form(fn, key, need, device):
    """``fn``'s compiled forward that also returns its pullback w.r.t. inputs ``need``."""
    ck = (key, need, device)
    f = _fwd_cache.get(ck)
    if f is None:
        def forward(*args):
            if _int_grads.involved(fn, args, need):  # integer gradients, as MXNet computes them
                return _int_grads.vjp(fn, args, need)

            def part(*diff):
                full = list(args)
                for i, d in zip(need, diff):
                    full[i] = d
                return fn(*full)
            return jax.vjp(part, *[args[i] for i in need])
        kw = {} if device is None else {'out_shardings': jax.sharding.SingleDeviceSharding(device)}
        f = _fwd_cache[ck] = Tiered(forward, **kw)
    return f


def compiled_pullback(fn, key, parents, values, device=None):
    """The compiled pullback of a node recorded without one (ops/_first_records.py), computed
    from its recorded inputs by its vjp form; None where jax cannot differentiate it."""
    f = _vjp_form(fn, key, _needed(parents), device)
    if f is _NO_VJP:
        return None
    try:
        return f.pick((id(f), signature_of(values)))(*values)[1]
    except Exception:
        return None


def vjp_signature(fn, key, parents, values, device=None):
    """The signature ``record_call`` counts for this call's compile tier (``Tiered.pick``), or
    None where the operator is recorded without residuals."""
    f = _vjp_form(fn, key, _needed(parents), device)
    return None if f is _NO_VJP else (id(f), signature_of(values))


def _needed(parents):
    return tuple([i for i, p in enumerate(parents) if p is not None])


def record_call(fn, key, parents, values, jitted, name='', device=None, cold=None, settled=False):
    """Run ``fn(*values)`` and record it as a node; returns ``(outputs, node)``.

    ``parents`` are the entries of ``values`` (the caller has checked that one is tracked);
    ``jitted`` is ``fn``'s plain compiled form. Exceptions of the operator propagate
    unchanged for the caller to name. An operator jax cannot differentiate (a host callback)
    still runs: it is recorded without residuals and fails only if a backward reaches it.
    ``cold``: the compile tier, where the caller has counted the call (``vjp_signature``).
    ``settled``: the call's programs, its pullback too, are compiled optimised at once (a padded
    size bucket's, which will serve many signatures: gluon/_bucketed_call.py).
    """
    need = _needed(parents)
    f = _vjp_form(fn, key, need, device)
    pullback = None
    if f is not _NO_VJP:
        try:
            if settled:
                cold = False
            tier = f.pick_for(values) if cold is None else f.choose((id(f), signature_of(values)), cold)
            outs, pullback = tier(*values)
        except Exception:
            outs = jitted(*values)  # a genuine operator error raises here with its own message
            _fwd_cache[(key, need, device)] = _NO_VJP
    else:
        outs = jitted(*values)
    n = len(outs)
    # Zeros stand in for unused outputs' cotangents: a one-output node always gets one.
    avals = tuple([(o.shape, o.dtype) for o in outs]) if n > 1 else None
    node = Node(fn, key, parents, tuple(values), n, pullback, avals, name=name)
    node.settled = settled
    return outs, node


# The key of nodes that change no value, only its shape (a padded call's pad and cut,
# gluon/_bucketed_call.py): autograd.get_symbol shows their input in their place.
PASS_THROUGH = 'pass_through'


def custom_node(key, parents, values, n_out, backward_fn, name=''):
    """A node whose backward is ``backward_fn(out_cts, need, create_graph)`` -> input gradients.

    ``out_cts`` has None for outputs that got no gradient; the result lists the gradients of
    the inputs ``need`` (positions of the tracked parents).
    """
    return Node(None, key, tuple(parents), tuple(values), n_out, backward_fn=backward_fn, name=name)


# ---------------------------------------------------------------------------------------
# Small compiled helpers
# ---------------------------------------------------------------------------------------

def cast(x, dtype):
    """``x`` as ``dtype`` by the Cast kernel (a new shape runs on the host, not a compile)."""
    if x.dtype == dtype:
        return x
    return kernel_for('Cast', {'dtype': np.dtype(dtype).name})(x)[0]


def add(a, b):
    """``a + b`` for two arrays of one shape and dtype (two gradients of one array) by the eager
    operator's kernel: a shape met for the first times runs in a size bucket, not a compile."""
    return kernel_for('elemwise_add', {})(a, b)[0]


def _add_any(a, b):
    """Sum two cotangents of one entry; they may sit on different devices only after a
    cross-device copy, in which case the second moves to the first's device."""
    if a.sharding != b.sharding:
        b = jax.device_put(b, a.sharding)
    return add(a, b)


_ones_cache = _caches.register('tape.ones', {}, 256)  # filled up to 256 entries
_HOST_FILL = 1 << 20  # elements: up to 4-8 MB, a copy from the host costs less than a compile


@x64  # float64/int64 stay 64-bit, whoever calls (see _x64.py)
def full(shape, dtype, value, sharding=None):
    """An array of ``value``, made on the host and put on ``sharding`` (default device if None).

    ``jnp.zeros``/``jnp.ones`` compile a program for every new shape (30-100 ms on a CPU): a
    gradient buffer, a head gradient or a missing cotangent per new shape cost a compile each.
    Only arrays too large to copy cheaply are filled on the device.
    """
    size = 1
    for d in shape:
        size *= d
    if size <= _HOST_FILL:
        return put(np.full(shape, value, dtype), sharding)
    return jax.device_put(jnp.full(shape, value, dtype), sharding)


def ones_like(x):
    """A cached array of ones shaped, typed and placed like ``x`` (the default head gradient)."""
    key = (x.shape, x.dtype, x.sharding)
    arr = _ones_cache.get(key)
    if arr is None:
        arr = full(x.shape, x.dtype, 1, x.sharding)
        if len(_ones_cache) < 256:
            _ones_cache[key] = arr
    return arr


def zeros_like(x):
    """Zeros shaped, typed and placed like the jax array ``x``, without a compile per shape."""
    return full(x.shape, x.dtype, 0, x.sharding)


def _is_float0(x):
    return x.dtype == jax.dtypes.float0


def _full_cts(cts, avals):
    """The cotangent tuple a pullback takes: zeros for missing ones (integer and boolean
    outputs take cotangents of their own type: see ``ops/_int_grads.py``)."""
    full = []
    for i, c in enumerate(cts):
        if c is None:
            shape, dtype = avals[i]
            c = jnp.zeros(shape, dtype)
        full.append(c)
    return tuple(full)


def _pull_impl(pullback, cts, avals):
    return pullback(_full_cts(cts, avals))


_pull = Tiered(_pull_impl, static_argnums=2)  # compiled once per operator and shapes


_replay_cache = _caches.lru_cache('tape.input_vjps', 1024)


def vjp_at_inputs(node, need, ct_mask):
    """A node's vjp computed from its recorded inputs: for nodes recorded without residuals,
    and for ``create_graph``, where the backward must itself be a differentiable function of
    the inputs (it is recorded as an operator)."""
    key = (node.key, need, ct_mask)
    f = _replay_cache.get(key)
    if f is None:
        fn = node.fn

        def vjp(inputs, cts):
            def part(*diff):
                args = list(inputs)
                for i, d in zip(need, diff):
                    args[i] = d
                return fn(*args)
            if _int_grads.involved(fn, inputs, need):
                outs, pull = _int_grads.vjp(fn, inputs, need)
            else:
                outs, pull = jax.vjp(part, *[inputs[i] for i in need])
            it = iter(cts)
            return pull(tuple(next(it) if m else jnp.zeros_like(o) for m, o in zip(ct_mask, outs)))
        f = _replay_cache[key] = Tiered(vjp)
    return f


def replay_grads(node, need, out_cts, run=None):
    """The gradients of a node's inputs ``need`` computed again from its recorded inputs, by its
    vjp compiled per signature in two tiers (``run(f, values, cts, need)``, when given, calls it)."""
    inputs = [node.values[i] for i in need]
    if all(x.size == 0 and jnp.issubdtype(x.dtype, jnp.inexact) for x in inputs):
        return [zeros_like(x) for x in inputs]  # nothing to compute: no program for these shapes
    mask = tuple(c is not None for c in out_cts)
    present = [c for c in out_cts if c is not None]
    f = vjp_at_inputs(node, need, mask)
    if run is not None:
        return run(f, node.values, present, need)
    tier = f.pick((id(f), signature_of(node.values), signature_of(present)))
    return tier(node.values, present)


def node_grads(node, need, out_cts):
    """Gradients of a node's inputs ``need`` from its outputs' cotangents (None: no gradient);
    an entry is None where the input is not differentiable (integers)."""
    if node.backward_fn is not None:
        return node.backward_fn(out_cts, need, False)
    if node.pullback is not None:
        signature = ('pull', _piece(node), tuple([c is None for c in out_cts]))
        pull = _pull.choose(signature, False) if node.settled else _pull.pick(signature)
        grads = pull(node.pullback, tuple(out_cts), node.out_avals)
    else:
        mask = tuple(c is not None for c in out_cts)
        try:
            grads = replay_grads(node, need, out_cts)
        except Exception as err:
            msg = str(err).strip().splitlines()
            raise MXNetError('backward: %s cannot be differentiated (inputs: %s): %s'
                             % (node.name or node.key[0], ', '.join(str(tuple(v.shape)) for v in node.values),
                                msg[0] if msg else type(err).__name__)) from None
    return [None if _is_float0(g) else g for g in grads]


# ---------------------------------------------------------------------------------------
# Backward
# ---------------------------------------------------------------------------------------

def _graph(head_entries):
    """The nodes reachable from the heads, producers first, and a hashable description of the graph.

    Returns ``(nodes, structure, leaves)``: ``structure`` names each node's function and where
    each of its tracked inputs comes from (a leaf or an earlier node's output), so equal
    structures run the same compiled backward; ``leaves`` are (Leaf, value) pairs in the
    order the structure refers to them. One post-order walk does it all.
    """
    nodes, struct, leaves = [], [], []
    pos, leaf_pos, seen = {}, {}, set()
    stack = [(e[0], False) for e in reversed(head_entries)]
    while stack:
        node, expanded = stack.pop()
        nid = id(node)
        if expanded:
            refs = []
            for p, v in zip(node.parents, node.values):
                if p is None:
                    continue
                if p.__class__ is tuple:
                    if p[0].values is None:  # freed by an earlier backward: a constant now, as in MXNet
                        continue
                    refs.append((pos[id(p[0])], p[1]))
                else:
                    at = leaf_pos.get(id(p))
                    if at is None:
                        at = leaf_pos[id(p)] = len(leaves)
                        leaves.append((p, v))
                    refs.append((-1, at))
            pos[nid] = len(nodes)
            nodes.append(node)
            struct.append((node.key, tuple(refs), node.out_avals))
            continue
        if nid in seen:
            continue
        seen.add(nid)
        if node.values is None:  # only a head gets here: freed inputs are skipped below
            raise MXNetError(
                'backward: the graph was already freed by an earlier backward(); pass '
                'retain_graph=True to the first backward to run backward twice')
        stack.append((node, True))
        for p in reversed(node.parents):
            if p.__class__ is tuple and id(p[0]) not in seen and p[0].values is not None:
                stack.append((p[0], False))
    heads = tuple((pos[id(e[0])], e[1]) for e in head_entries)
    return nodes, (tuple(struct), heads), leaves


def graph_nodes(head_entries):
    """The recorded nodes reachable from the head entries, producers first."""
    return _graph(head_entries)[0]


def _make_fused(structure):
    """One function applying every node's pullback, consumers first, to the head cotangents."""
    struct, heads = structure
    n_leaves = 1 + max([r[1] for _, refs, _ in struct for r in refs if r[0] < 0], default=-1)

    def run(pullbacks, head_cts):
        cts = [[None] * (len(a) if a is not None else 1) for _, _, a in struct]
        leaf_g = [None] * n_leaves

        def put(acc, i, g):
            acc[i] = g if acc[i] is None else acc[i] + g
        for (n, i), c in zip(heads, head_cts):
            put(cts[n], i, c)
        for k in range(len(struct) - 1, -1, -1):
            _, refs, avals = struct[k]
            if all(c is None for c in cts[k]):  # no gradient reaches it (a comparison's output)
                continue
            grads = pullbacks[k](_full_cts(cts[k], avals))
            cts[k] = None
            for (src, i), g in zip(refs, grads):
                if _is_float0(g):
                    continue
                put(leaf_g if src < 0 else cts[src], i, g)
        return leaf_g
    return Tiered(run)


_FUSED_CACHE_SIZE = 64
_SMALL_GRAPH = 4  # nodes: walking them costs a few dispatches, never worth a second compile
_seen_structures = _caches.register('tape.seen_structures', collections.OrderedDict(), 4 * _FUSED_CACHE_SIZE)
_fused_cache = _caches.register('tape.fused_backwards', collections.OrderedDict(), _FUSED_CACHE_SIZE)
_seen_pieces = _caches.lru_cache('tape.seen_nodes', 4096)  # _piece(node) of nodes in past graphs


def _piece(node):
    """What names a node's compiled pullback: its function and its inputs' shapes and dtypes."""
    return (node.key, tuple([(getattr(v, 'shape', None), getattr(v, 'dtype', None)) for v in node.values]))


def _unrolled(pieces):
    """Whether a graph repeats its nodes (a loop unrolled step by step: an RNN cell's unroll):
    walking it compiles each distinct pullback once, where one fused program would compile every
    step over again (a 5-step, 8-cell unroll: 6 s fused, 3 s walked, under load)."""
    return len(pieces) >= _UNROLLED_MIN and len(set(pieces)) * _UNROLLED_RATIO <= len(pieces)


_UNROLLED_MIN, _UNROLLED_RATIO = 32, 3


def _fused_backward(nodes, node_heads, structure, leaves):
    # Compile as little as possible. A graph with nodes never seen before (a first training
    # step, a new input shape) is compiled as one fused program at once: cheaper than one
    # program per node, and compiled once (an unrolled loop aside, see _unrolled). A new graph
    # made only of familiar nodes (a network whose structure changes with its input) walks them,
    # sharing each node's compiled pullback; it is fused only if its structure repeats and it
    # has enough nodes for one dispatch instead of many to pay for the compile.
    fused = _fused_cache.get(structure)
    if fused is None:
        repeated = not _first_meeting(structure)
        pieces = [_piece(n) for n in nodes]
        familiar = all(p in _seen_pieces for p in pieces)
        for p in pieces:
            _seen_pieces[p] = True
        if (familiar or _unrolled(pieces)) and (not repeated or len(nodes) <= _SMALL_GRAPH):
            return walk(nodes, node_heads)
        fused = _fused_cache[structure] = _make_fused(structure)
        if len(_fused_cache) > _FUSED_CACHE_SIZE:
            _fused_cache.popitem(last=False)
    else:
        _fused_cache.move_to_end(structure)
    pullbacks, head_cts = [n.pullback for n in nodes], [c for _, c in node_heads]
    avals = tuple([getattr(v, 'aval', None) for n in nodes for v in n.values])
    hot = fused.steady_hot(avals)  # these inputs ran the optimised program before: one lookup
    if hot is not None:
        grads = hot(pullbacks, head_cts)
    else:
        signature = (id(fused), tuple([_piece(n) for n in nodes]))
        weighed = _costly.weighed(fused, signature)
        cold = _costly.stays_cold(weighed) or _host.first_call(signature)
        run = fused.choose(signature, cold and not any(n.settled for n in nodes))
        grads = _costly.timed(weighed, cold, lambda: run(pullbacks, head_cts))
        if not cold:
            _host.steady.note(fused, avals, True)
    return {id(leaf): (leaf, v, g) for (leaf, v), g in zip(leaves, grads) if g is not None}


def walk(nodes, node_heads, grads_of=node_grads, accumulate=_add_any):
    """Reverse walk over ``nodes`` (producers first), one backward call per node.

    ``grads_of(node, need, out_cts)`` gives the tracked inputs' gradients and ``accumulate``
    sums two gradients; ``autograd.grad(create_graph=True)`` passes recorded versions of both.
    Returns ``{id(leaf): (leaf, value, gradient)}``.
    """
    cts = {}

    def put(key, value):
        prev = cts.get(key)
        cts[key] = value if prev is None else accumulate(prev, value)

    for (node, i), c in node_heads:
        put((id(node), i), c)
    leaf_grads = {}
    for node in reversed(nodes):  # consumers first
        out_cts = [cts.pop((id(node), i), None) for i in range(node.n_out)]
        if all(c is None for c in out_cts):
            continue
        need = tuple(i for i, p in enumerate(node.parents) if p is not None)
        if not need:
            continue
        for i, g in zip(need, grads_of(node, need, out_cts)):
            if g is None:
                continue
            p = node.parents[i]
            if p.__class__ is Leaf:
                prev = leaf_grads.get(id(p))
                leaf_grads[id(p)] = (p, node.values[i], g if prev is None else accumulate(prev[2], g))
            else:
                put((id(p[0]), p[1]), g)
    return leaf_grads


def _partition(node_heads, split):
    """``[(heads, graph, fusable)]``: one graph per device the heads live on (a loss per device),
    or a single graph for all heads when those graphs share nodes (a copy between devices)."""
    if not node_heads:
        return []
    if not split or len(node_heads) == 1:
        return [(node_heads, _graph([e for e, _ in node_heads]), split)]
    groups = {}
    for entry, c in node_heads:
        groups.setdefault(frozenset(c.devices()), []).append((entry, c))
    if len(groups) == 1:
        return [(node_heads, _graph([e for e, _ in node_heads]), True)]
    parts, seen = [], set()
    for group in groups.values():
        graph = _graph([e for e, _ in group])
        ids = {id(n) for n in graph[0]}
        if not ids.isdisjoint(seen):
            # one graph over several devices: only the walk runs each node where it lives
            return [(node_heads, _graph([e for e, _ in node_heads]), False)]
        seen |= ids
        parts.append((group, graph, True))
    return parts


def _first_meeting(structure):
    """Whether a backward meets this graph structure for the first time (it is remembered now)."""
    if structure in _seen_structures:
        return False
    _seen_structures[structure] = True
    if len(_seen_structures) > 4 * _FUSED_CACHE_SIZE:
        _seen_structures.popitem(last=False)
    return True


def _compiled_or_host(nodes):
    """Whether every node has a compiled pullback, once the nodes recorded on the host
    (ops/_first_records.py) get theirs: only where another node has one, so that the graph is
    fused as before; a graph of host nodes alone is walked on the host, compiling nothing."""
    later = []
    for n in nodes:
        if n.pullback is None:
            compile_pullback = getattr(n.backward_fn, 'compile_pullback', None)
            if compile_pullback is None:
                return False
            later.append((n, compile_pullback))
    if len(later) == len(nodes):
        return False
    for n, compile_pullback in later:
        pullback = compile_pullback()
        if pullback is None:
            return False
        n.pullback, n.backward_fn = pullback, None
    return True


def backward(heads, cts, retain_graph=False, custom=None):
    """Gradients of the leaves reachable from the head entries, given the heads' cotangents.

    ``heads`` are entries (Leaf or (Node, index)) and ``cts`` jax arrays. ``custom``, when
    given, is ``(grads_of, accumulate)`` for :func:`walk` (used to record the backward itself).
    Returns ``{id(leaf): (leaf, value, gradient)}``; leaves reached by no differentiable path
    get zeros, as in MXNet (with ``custom``, they are missing). Heads on different devices (a loss per device) are
    independent graphs: each runs on its own device.
    """
    node_heads = [(e, c) for e, c in zip(heads, cts) if e.__class__ is tuple]
    accumulate = custom[1] if custom is not None else _add_any
    result, all_nodes = {}, []
    for group, (nodes, structure, leaves), fusable in _partition(node_heads, custom is None):
        try:
            if custom is not None:
                part = walk(nodes, group, *custom)
            elif fusable and _compiled_or_host(nodes):
                part = _fused_backward(nodes, group, structure, leaves)
            else:
                part = walk(nodes, group)
        except MXNetError:
            raise
        except Exception as err:  # a jax failure, or a Python operator's backward (host callback)
            raise MXNetError('backward: %s' % error_cause(err)) from None
        for k, (leaf, v, g) in part.items():
            prev = result.get(k)
            result[k] = (leaf, v, g if prev is None else accumulate(prev[2], g))
        if custom is None:  # reached by no differentiable path (integer inputs): MXNet writes zeros
            for leaf, v in leaves:
                if id(leaf) not in result:
                    result[id(leaf)] = (leaf, v, zeros_like(v))
        for n in reversed(nodes):  # consumers first, the order of MXNet's backward operators
            if n.on_backward is not None:
                n.on_backward()
        all_nodes.extend(nodes)
    for e, c in zip(heads, cts):
        if e.__class__ is Leaf:  # d head / d head
            prev = result.get(id(e))
            result[id(e)] = (e, None, c if prev is None else accumulate(prev[2], c))
    if not retain_graph:
        for n in all_nodes:
            n.free()
    return result
