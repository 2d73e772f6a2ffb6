"""Autograd: MXNet's record / backward on a tape of pure jax functions.

The model (see docs/DESIGN.md):

* ``attach_grad()`` makes an NDArray a *leaf*: it owns a gradient buffer and a
  ``grad_req`` ('write', 'add' or 'null').
* Under ``record()``, every operator applied to something that leads back to a
  leaf appends a :class:`Node` holding the operator's pure function, a
  hashable key naming that function, and the input values. The outputs point
  at the node.
* ``backward()`` walks the nodes reachable from the heads. A graph whose
  structure was seen before runs as one compiled function (``jax.vjp`` of the
  replayed forward, fused by XLA); otherwise each node's vector-Jacobian
  product runs as its own cached, compiled function. ``autograd.Function``
  nodes and ``create_graph`` always take the per-node walk, which records the
  backward computation itself when asked, so higher-order gradients work.
"""
import collections
import threading

import jax
import jax.numpy as jnp

from .base import MXNetError

__all__ = ['record', 'pause', 'train_mode', 'predict_mode', 'is_recording', 'is_training',
           'set_recording', 'set_training', 'mark_variables', 'backward', 'grad', 'Function']


class _State(threading.local):
    recording = False
    training = False


_state = _State()


def is_recording():
    return _state.recording


def is_training():
    return _state.training


def set_recording(is_recording):  # noqa: redefined name is MXNet's API
    prev, _state.recording = _state.recording, bool(is_recording)
    return prev


def set_training(train_mode):  # noqa: redefined name is MXNet's API
    prev, _state.training = _state.training, bool(train_mode)
    return prev


class _Scope:
    """Sets recording and/or training mode for a ``with`` block, restoring them on exit."""
    __slots__ = ('_rec', '_train', '_prev')

    def __init__(self, is_record, train_mode):
        self._rec, self._train, self._prev = is_record, train_mode, None

    def __enter__(self):
        self._prev = (_state.recording, _state.training)
        if self._rec is not None:
            _state.recording = self._rec
        if self._train is not None:
            _state.training = self._train
        return self

    def __exit__(self, *exc):
        _state.recording, _state.training = self._prev


def record(train_mode=True):
    """Record operations for ``backward()``; training mode by default, as in MXNet."""
    return _Scope(True, train_mode)


def pause(train_mode=False):
    """Stop recording inside a ``record()`` block."""
    return _Scope(False, train_mode)


def train_mode():
    return _Scope(None, True)


def predict_mode():
    return _Scope(None, False)


# ---------------------------------------------------------------------------------------
# The tape
# ---------------------------------------------------------------------------------------

class Leaf:
    """The autograd state of a variable: its gradient buffer and how it is written.

    ``fresh`` becomes True when backward writes the gradient (MXNet's ``_fresh_grad``);
    ``gluon.Trainer`` reads it to find stale gradients and clears it after each update.
    """
    __slots__ = ('grad', 'req', 'fresh', '__weakref__')

    def __init__(self, grad, req):
        self.grad, self.req, self.fresh = grad, req, False


class Node:
    """One recorded operation.

    ``fn`` is pure: jax arrays in, a tuple of jax arrays out. ``key`` names ``fn``
    (equal keys mean equal functions), so compiled backward passes can be cached.
    ``parents[i]`` is the autograd entry of input ``i``: a Leaf, a (Node, index)
    pair, or None for a constant. ``values[i]`` is the input's value when recorded.
    ``on_backward``, when set, is called (no arguments) each time a backward pass goes
    through the node: MXNet updates BatchNorm's running statistics there, not in forward.
    """
    __slots__ = ('fn', 'key', 'parents', 'values', 'n_out', 'backward_fn', 'name', 'on_backward')

    def __init__(self, fn, key, parents, values, n_out, backward_fn=None, name=''):
        self.fn, self.key, self.parents, self.values = fn, key, parents, values
        self.n_out, self.backward_fn, self.name = n_out, backward_fn, name
        self.on_backward = None

    def free(self):
        self.values = None


def record_node(fn, key, inputs, outputs, name=''):
    """Append a node for ``outputs = fn(*inputs)`` when recording and any input is tracked.

    ``inputs`` and ``outputs`` are NDArrays; ``fn`` works on their jax arrays.
    """
    parents = tuple(x._ag for x in inputs)
    if not any(p is not None for p in parents):
        return
    node = Node(fn, key, parents, tuple(x._data for x in inputs), len(outputs), name=name)
    for i, out in enumerate(outputs):
        out._ag = (node, i)


# ---------------------------------------------------------------------------------------
# Backward
# ---------------------------------------------------------------------------------------

def _graph(head_entries):
    """The nodes reachable from the heads, producers first, and a hashable description of the graph.

    Returns ``(nodes, structure, leaves, consts)``: ``structure`` names each node's function and
    where each of its inputs comes from (a leaf, a constant or an earlier node's output), so
    equal structures replay as the same compiled function; ``leaves`` are (Leaf, value) pairs
    and ``consts`` the constant input values, in the order the structure refers to them.
    One post-order walk does it all: a node is placed once all its producers are.
    """
    nodes, struct, leaves, consts = [], [], [], []
    pos, leaf_pos, seen = {}, {}, set()
    stack = [(e[0], False) for e in reversed(head_entries)]
    while stack:
        node, expanded = stack.pop()
        nid = id(node)
        if expanded:
            refs = []
            for p, v in zip(node.parents, node.values):
                if p is None:
                    refs.append(('c', len(consts)))
                    consts.append(v)
                elif p.__class__ is tuple:
                    refs.append(('n', pos[id(p[0])], p[1]))
                else:
                    at = leaf_pos.get(id(p))
                    if at is None:
                        at = leaf_pos[id(p)] = len(leaves)
                        leaves.append((p, v))
                    refs.append(('l', at))
            pos[nid] = len(nodes)
            nodes.append(node)
            struct.append((node.key, tuple(refs)))
            continue
        if nid in seen:
            continue
        seen.add(nid)
        if node.values is None:
            raise MXNetError(
                'backward: the graph was already freed by an earlier backward(); pass '
                'retain_graph=True to the first backward to run backward twice')
        stack.append((node, True))
        for p in reversed(node.parents):
            if p.__class__ is tuple and id(p[0]) not in seen:
                stack.append((p[0], False))
    heads = tuple(('n', pos[id(e[0])], e[1]) for e in head_entries)
    return nodes, (tuple(struct), heads), leaves, consts


_seen_structures = collections.OrderedDict()
_fused_cache = collections.OrderedDict()
_FUSED_CACHE_SIZE = 64


def _make_fused(nodes, structure):
    """One function replaying the recorded forward and returning the leaves' gradients."""
    fns = [n.fn for n in nodes]
    struct, head_refs = structure

    def replay(leaf_vals, const_vals, head_cts):
        def forward(leaf_vals):
            outs = []

            def get(ref):
                kind = ref[0]
                if kind == 'c':
                    return const_vals[ref[1]]
                if kind == 'l':
                    return leaf_vals[ref[1]]
                return outs[ref[1]][ref[2]]
            for fn, (_, refs) in zip(fns, struct):
                outs.append(fn(*[get(r) for r in refs]))
            return [get(h) for h in head_refs]
        _, vjp = jax.vjp(forward, leaf_vals)
        return vjp(head_cts)[0]
    return jax.jit(replay)


def _ones_like(x):
    return _compiled_ones(x.shape, x.dtype, x.sharding)


_ones_cache = {}


def _compiled_ones(shape, dtype, sharding):
    key = (shape, dtype, sharding)
    arr = _ones_cache.get(key)
    if arr is None:
        arr = jax.device_put(jnp.ones(shape, dtype), sharding)
        if len(_ones_cache) < 256:
            _ones_cache[key] = arr
    return arr


def _head_gradients(heads, head_grads):
    if head_grads is None:
        return [_ones_like(h._data) for h in heads]
    if not isinstance(head_grads, (list, tuple)):
        head_grads = [head_grads]
    if len(head_grads) != len(heads):
        raise MXNetError('backward: %d head gradients given for %d heads' % (len(head_grads), len(heads)))
    cts = []
    for h, g in zip(heads, head_grads):
        if g is None:
            cts.append(_ones_like(h._data))
            continue
        g = g._data if hasattr(g, '_data') else jnp.asarray(g, h._data.dtype)
        if g.shape != h._data.shape:
            raise MXNetError('backward: head gradient of shape %s does not match head of shape %s'
                             % (g.shape, h._data.shape))
        cts.append(g)
    return cts


def _check_heads(heads):
    for h in heads:
        if h._ag is None:
            raise MXNetError(
                'backward: cannot differentiate an array that is not in a computational graph. '
                'Call attach_grad() on the inputs and compute the output inside '
                '`with autograd.record():`')


def _run_backward(heads, head_grads, retain_graph, create_graph, variables=None):
    """Gradients for the leaves reachable from ``heads``: a list of (Leaf, value, gradient)."""
    if not isinstance(heads, (list, tuple)):
        heads = [heads]
    _check_heads(heads)
    cts = _head_gradients(heads, head_grads)
    leaf_heads = [(h, c) for h, c in zip(heads, cts) if isinstance(h._ag, Leaf)]
    node_heads = [(h._ag, c) for h, c in zip(heads, cts) if isinstance(h._ag, tuple)]
    result, nodes = {}, []
    if node_heads:
        nodes, structure, leaves, consts = _graph([e for e, _ in node_heads])
        if not create_graph and all(n.backward_fn is None for n in nodes):
            result = _fused_backward(nodes, node_heads, structure, leaves, consts)
        else:
            result = _walk_backward(nodes, node_heads, create_graph)
        for n in reversed(nodes):  # consumers first, the order of MXNet's backward operators
            if n.on_backward is not None:
                n.on_backward()
    for h, c in leaf_heads:  # d head / d head
        leaf = h._ag
        prev = result.get(id(leaf))
        result[id(leaf)] = (leaf, h._data, c if prev is None else _add(prev[2], c))
    if not retain_graph:
        for n in nodes:
            n.free()
    return result


def _fused_backward(nodes, node_heads, structure, leaves, consts):
    # Compile the whole graph only once its structure repeats (a training loop):
    # one-off graphs take the per-node walk, whose compiled pieces are shared.
    fused = _fused_cache.get(structure)
    if fused is None:
        if structure not in _seen_structures:
            _seen_structures[structure] = True
            if len(_seen_structures) > 4 * _FUSED_CACHE_SIZE:
                _seen_structures.popitem(last=False)
            return _walk_backward(nodes, node_heads, False)
        fused = _fused_cache[structure] = _make_fused(nodes, structure)
        if len(_fused_cache) > _FUSED_CACHE_SIZE:
            _fused_cache.popitem(last=False)
    else:
        _fused_cache.move_to_end(structure)
    grads = fused([v for _, v in leaves], consts, [c for _, c in node_heads])
    return {id(leaf): (leaf, v, g) for (leaf, v), g in zip(leaves, grads)}


_node_vjp_cache = {}


def _node_vjp(node, need, ct_mask):
    """Compiled backward of one node: gradients of the needed inputs from the given cotangents."""
    key = (node.key, need, ct_mask)
    f = _node_vjp_cache.get(key)
    if f is None:
        fn = node.fn

        def vjp(inputs, cts):
            def partial_fn(*diff):
                args = list(inputs)
                for i, d in zip(need, diff):
                    args[i] = d
                return fn(*args)
            outs, pullback = jax.vjp(partial_fn, *[inputs[i] for i in need])
            it = iter(cts)
            full = tuple(next(it) if m else jnp.zeros_like(o) for m, o in zip(ct_mask, outs))
            return pullback(full)
        f = _node_vjp_cache[key] = jax.jit(vjp)
    return f


@jax.jit
def _add(a, b):
    return a + b


def _walk_backward(nodes, node_heads, create_graph):
    """Reverse walk, one compiled vjp per node; records itself when ``create_graph``."""
    cts = {}

    def accumulate(key, value):
        prev = cts.get(key)
        cts[key] = value if prev is None else _accumulate(prev, value, create_graph)

    for (node, i), c in node_heads:
        accumulate((id(node), i), _wrap(c) if create_graph else c)
    leaf_grads = {}
    for node in reversed(nodes):  # consumers first
        out_cts = [cts.pop((id(node), i), None) for i in range(node.n_out)]
        if all(c is None for c in out_cts):
            continue
        need = tuple(i for i, p in enumerate(node.parents) if p is not None)
        if not need:
            continue
        in_grads = _node_backward(node, need, out_cts, create_graph)
        for i, g in zip(need, in_grads):
            p = node.parents[i]
            if isinstance(p, Leaf):
                prev = leaf_grads.get(id(p))
                g = g if prev is None else _accumulate(prev[2], g, create_graph)
                leaf_grads[id(p)] = (p, node.values[i], g)
            else:
                accumulate((id(p[0]), p[1]), g)
    return leaf_grads


def _accumulate(a, b, create_graph):
    if create_graph:
        return a + b  # NDArrays: the addition is recorded
    return _add(a, b)


def _node_backward(node, need, out_cts, create_graph):
    if node.backward_fn is not None:  # autograd.Function
        return node.backward_fn(out_cts, need, create_graph)
    ct_mask = tuple(c is not None for c in out_cts)
    present = [c for c in out_cts if c is not None]
    f = _node_vjp(node, need, ct_mask)
    if not create_graph:
        return f(node.values, present)
    # Record the backward itself: a node whose inputs are the forward inputs and the cotangents.
    from .ndarray.ndarray import apply_fn
    inputs = [_input_array(node, i) for i in range(len(node.values))] + [_wrap(c) for c in present]
    n_in = len(node.values)

    def bwd_fn(*args):
        return tuple(f(list(args[:n_in]), list(args[n_in:])))
    return apply_fn(bwd_fn, ('vjp', node.key, need, ct_mask), inputs, name='backward')


def _input_array(node, i):
    """An NDArray standing for a node's recorded input, tracked as it was when recorded."""
    from .ndarray.ndarray import NDArray
    arr = NDArray._from_jax(node.values[i])
    arr._ag = node.parents[i]
    return arr


def _wrap(x):
    from .ndarray.ndarray import NDArray
    return x if isinstance(x, NDArray) else NDArray._from_jax(x)


def _unwrap(x):
    return x._data if hasattr(x, '_data') else x


def _write_grad(leaf, value, g):
    """Store a gradient into the leaf's buffer according to its grad_req.

    A ``'null'`` variable reached by a backward pass loses its buffer: MXNet's ``.grad``
    is None from then on (zeros before), until ``attach_grad`` is called again.
    """
    if leaf.req == 'null':
        leaf.grad = None
        return
    if leaf.grad is None:
        return
    leaf.fresh = True
    g = _unwrap(g)
    buf = leaf.grad
    if g.dtype != buf._data.dtype:
        g = g.astype(buf._data.dtype)
    if leaf.req == 'add':
        buf._data = _add(buf._data, g)
    else:
        buf._data = g


def backward(heads, head_grads=None, retain_graph=False, train_mode=True):  # noqa: train_mode shadows
    """Compute the gradients of ``heads`` and write them to the variables' ``.grad``."""
    with _Scope(False, train_mode):
        result = _run_backward(heads, head_grads, retain_graph, False)
    if all(leaf.req == 'null' for leaf, _, _ in result.values()):
        raise MXNetError('backward: there are no inputs in the computational graph that require gradients '
                         "(every variable reached has grad_req='null')")
    for leaf, value, g in result.values():
        _write_grad(leaf, value, g)


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False,
         train_mode=True):  # noqa: train_mode shadows
    """Gradients of ``heads`` with respect to ``variables``, returned rather than stored.

    With ``create_graph=True`` the computation of the gradients is recorded, so
    the returned arrays can be differentiated again.
    """
    from .ndarray.ndarray import NDArray
    single = isinstance(variables, NDArray)
    variables = [variables] if single else list(variables)
    for v in variables:
        if not isinstance(v._ag, Leaf):
            raise MXNetError('autograd.grad: every variable must have attach_grad() called on it '
                             '(or be marked with autograd.mark_variables) before recording')
    if retain_graph is None:
        retain_graph = create_graph
    with _Scope(create_graph, train_mode):
        result = _run_backward(heads, head_grads, retain_graph, create_graph)
    for leaf, _, _ in result.values():
        if leaf.req == 'null':
            leaf.grad = None  # as backward does (see _write_grad)
    out = []
    for v in variables:
        entry = result.get(id(v._ag))
        g = jnp.zeros_like(v._data) if entry is None else entry[2]
        # an mx.np variable gets an mx.np gradient
        out.append(g if isinstance(g, NDArray) else type(v)._from_jax(g))
    return out


def mark_variables(variables, gradients, grad_reqs='write'):
    """Mark arrays as variables whose gradients go into the given buffers."""
    from .ndarray.ndarray import NDArray
    if isinstance(variables, NDArray):
        variables, gradients = [variables], [gradients]
    if isinstance(grad_reqs, str):
        grad_reqs = [grad_reqs] * len(variables)
    if not len(variables) == len(gradients) == len(grad_reqs):
        raise MXNetError('mark_variables: %d variables, %d gradients and %d grad_reqs differ in number'
                         % (len(variables), len(gradients), len(grad_reqs)))
    for var, g, req in zip(variables, gradients, grad_reqs):
        if req not in ('write', 'add', 'null'):
            raise MXNetError("mark_variables: grad_req must be 'write', 'add' or 'null', not %r" % (req,))
        var._ag = Leaf(g, req)


def get_symbol(x):
    raise MXNetError('autograd.get_symbol is not supported: hybridize a HybridBlock and use '
                     'export() to obtain the graph')


# ---------------------------------------------------------------------------------------
# Custom differentiable functions
# ---------------------------------------------------------------------------------------

class Function:
    """A differentiable function with a hand-written backward, as in MXNet.

    Subclass it and write ``forward(self, *inputs)`` and ``backward(self, *output_grads)``
    on NDArrays; ``save_for_backward`` keeps what backward needs.
    """

    def __init__(self):
        self._used = False
        self.saved_tensors = ()

    def save_for_backward(self, *args):
        self.saved_tensors = args

    def forward(self, *inputs):
        raise NotImplementedError

    def backward(self, *output_grads):
        raise NotImplementedError

    def __call__(self, *inputs):
        from .ndarray.ndarray import NDArray
        with _Scope(False, None):
            outputs = self.forward(*inputs)
        single = isinstance(outputs, NDArray)
        outs = (outputs,) if single else tuple(outputs)
        if _state.recording:
            self._record(inputs, outs)
        return outputs

    def _record(self, inputs, outs):
        parents = tuple(x._ag for x in inputs)
        if all(p is None for p in parents):
            return
        func = self

        def backward_fn(out_cts, need, create_graph):
            cts = [_wrap(c) if c is not None else _wrap(jnp.zeros_like(o._data))
                   for c, o in zip(out_cts, outs)]
            with _Scope(create_graph, None):
                grads = func.backward(*cts)
            from .ndarray.ndarray import NDArray
            grads = (grads,) if isinstance(grads, NDArray) else tuple(grads)
            if len(grads) != len(inputs):
                raise MXNetError('%s.backward returned %d gradients for %d inputs'
                                 % (type(func).__name__, len(grads), len(inputs)))
            return [grads[i] if create_graph else _unwrap(grads[i]) for i in need]

        node = Node(None, ('Function', id(self)), parents, tuple(x._data for x in inputs),
                    len(outs), backward_fn=backward_fn, name=type(self).__name__)
        for i, o in enumerate(outs):
            o._ag = (node, i)
