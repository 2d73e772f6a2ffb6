"""Autograd: MXNet's user API (record, pause, backward, grad, mark_variables, Function).

The tape itself (nodes, leaves, recording and the backward pass on jax arrays) lives in
``gluonjax/_tape.py``; NDArray records operators there. This module turns NDArrays into
tape entries and back (see docs/DESIGN.md):

* ``attach_grad()`` / :func:`mark_variables` make an NDArray a *leaf*: it owns a gradient
  buffer and a ``grad_req`` ('write', 'add' or 'null').
* Under ``record()``, every operator applied to something that leads back to a leaf runs
  in a form that also keeps its vjp residuals, and appends a node; the outputs point at it.
* ``backward()`` applies the recorded pullbacks, consumers first: node by node the first
  time a graph structure is seen, as one compiled function when it repeats. No forward is
  computed again. ``grad(create_graph=True)`` instead records each node's backward as an
  operator, so higher-order gradients work.
"""
import jax
import jax.numpy as jnp
import numpy as np

from . import _tape
from ._tape import Leaf, Node  # noqa: F401  (the tape's objects, under their old names)
from ._x64 import x64
from .base import MXNetError, upper_layer
from .ndarray.ndarray import NDArray
from .ops import find_op

__all__ = ['record', 'pause', 'train_mode', 'predict_mode', 'is_recording', 'is_training',
           'set_recording', 'set_training', 'mark_variables', 'unmark_variables', 'backward',
           'grad', 'Function', 'get_symbol',
           'NDArray']  # MXNet's module has no __all__: `from mxnet.autograd import *` brings NDArray too

_state = _tape.state  # recording / training flags, per thread


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
# Variables, backward and grad
# ---------------------------------------------------------------------------------------

def mark_variables(variables, gradients, grad_reqs='write'):
    """Mark arrays as variables whose gradients go into the given buffers."""
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


def unmark_variables(variables):
    """Detach arrays from autograd in place: operators on them are no longer recorded
    (gluon uses it for Parameters whose grad_req becomes 'null')."""
    for var in [variables] if isinstance(variables, NDArray) else variables:
        var._ag = None


@x64  # jax runs on the tape's arrays (vjp, ones): gluonjax's 64-bit boundary (see _x64.py)
def backward(heads, head_grads=None, retain_graph=False, train_mode=True):  # noqa: train_mode shadows
    """Compute the gradients of ``heads`` and write them to the variables' ``.grad``."""
    from .ndarray.ndarray import backward_heads
    backward_heads(heads, head_grads, retain_graph, train_mode)


@x64
def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False,
         train_mode=True):  # noqa: train_mode shadows
    """Gradients of ``heads`` with respect to ``variables``, returned rather than stored.

    With ``create_graph=True`` the computation of the gradients is recorded, so
    the returned arrays can be differentiated again.
    """
    from .ndarray.ndarray import head_entries
    single = isinstance(variables, NDArray)
    variables = [variables] if single else list(variables)
    for v in variables:
        if not isinstance(v._ag, Leaf):
            raise MXNetError('autograd.grad: every variable must have attach_grad() called on it '
                             '(or be marked with autograd.mark_variables) before recording')
    if retain_graph is None:
        retain_graph = create_graph
    entries, cts = head_entries(heads, head_grads)
    with _Scope(create_graph, train_mode):
        if create_graph:
            result = _tape.backward(entries, [_wrap(c) for c in cts], retain_graph,
                                    custom=(_recorded_grads, _recorded_add))
        else:
            result = _tape.backward(entries, cts, retain_graph)
    for leaf, _, _ in result.values():
        if leaf.req == 'null':
            leaf.grad = None  # as backward does (see Leaf.store)
    out = []
    for v in variables:
        entry = result.get(id(v._ag))
        g = _tape.zeros_like(v._data) if entry is None else entry[2]
        # an mx.np variable gets an mx.np gradient
        out.append(g if isinstance(g, NDArray) else type(v)._from_jax(g))
    return out


def _recorded_add(a, b):
    return a + b  # NDArrays under record(): the addition is recorded


def _recorded_grads(node, need, out_cts):
    """A node's backward applied as a recorded operator of the forward inputs and the
    cotangents, so that the gradients it gives can be differentiated again."""
    if node.backward_fn is not None:  # autograd.Function, copies between devices
        grads = node.backward_fn(out_cts, need, True)
        if grads is not NotImplemented:  # (a node recorded on the host: differentiated below)
            return grads
    from .ndarray.ndarray import apply_fn
    ct_mask = tuple(c is not None for c in out_cts)
    present = [c for c in out_cts if c is not None]
    f = _tape.vjp_at_inputs(node, need, ct_mask)
    n_in = len(node.values)
    inputs = [_input_array(node, i) for i in range(n_in)] + [_wrap(c) for c in present]

    def bwd_fn(*args):
        return tuple(f(list(args[:n_in]), list(args[n_in:])))
    grads = apply_fn(bwd_fn, ('vjp', node.key, need, ct_mask), inputs, name='backward')
    return [None if g._data.dtype == jax.dtypes.float0 else g for g in grads]


def _input_array(node, i):
    """An NDArray standing for a node's recorded input, tracked as it was when recorded."""
    arr = NDArray._from_jax(node.values[i])
    arr._ag = node.parents[i]
    return arr


def _wrap(x):
    return x if isinstance(x, NDArray) else NDArray._from_jax(x)


def _unwrap(x):
    return x._data if hasattr(x, '_data') else x


@x64
def get_symbol(x):
    """The recorded computation of ``x`` as a Symbol, named as MXNet names it: a variable
    ``var<k>`` per marked variable and ``null<k>`` per other array input, a node ``node_<k>`` per
    recorded operator with the parameters it was called with. A hybridized Block's call shows as
    its graph's operators or as one ``_CachedOp`` node, as its ``inline_limit`` decides."""
    if not isinstance(x._ag, tuple):
        raise MXNetError('autograd.get_symbol: the array was not computed under autograd.record() '
                         'from an array with attach_grad()')
    sym = upper_layer('symbol')
    built, n_vars = {}, [0]

    def input_symbols(parents, values):
        inputs = []
        for parent, value in zip(parents, values):
            if parent.__class__ is tuple:
                out = built[id(parent[0])]
                inputs.append(out[parent[1]] if len(out.list_outputs()) > 1 else out)
                continue
            source = value if parent is None else parent
            if id(source) not in built:
                built[id(source)] = sym.var('%s%d' % ('null' if parent is None else 'var', n_vars[0]))
                n_vars[0] += 1
            inputs.append(built[id(source)])
        return inputs

    def new_null():
        n_vars[0] += 1
        return sym.var('null%d' % (n_vars[0] - 1))

    k = -1  # the number of the recorded operator (node_<k>)
    for node in _tape.graph_nodes([x._ag]):  # producers first
        if node.key[0] == _tape.PASS_THROUGH:  # a padded call's pad or cut: its input in its place
            inputs = input_symbols(node.parents, node.values)
            built[id(node)] = inputs[0] if len(inputs) == 1 else built[id(node.parents[0][0])]
            continue
        k += 1
        if node.graph is not None:
            graph, names, inline = node.graph
            parents = node.parents[:len(names)]
            by_name = dict(zip(names, input_symbols(parents, node.values[:len(names)])))
            if inline:
                tracked = [by_name[n] for n, p in zip(names, parents) if p is not None]
                built[id(node)] = _recorded_part(graph(**by_name), tracked, new_null, sym.topo_order)
                continue
            inputs = [by_name[n] for n in graph.list_inputs()]
            built[id(node)] = sym.create(find_op('_CachedOp'), inputs, {'subgraph': graph.tojson()},
                                         name='node_%d' % k)
            continue
        op = find_op(node.key[0]) if node.fn is not None and isinstance(node.key[0], str) else None
        if op is None:
            raise NotImplementedError('autograd.get_symbol: the recorded %r is not an operator of the table '
                                      '(autograd.Function or a device copy)' % (node.name or node.key[0],))
        params, n_arrays = _recorded_params(op, node)
        inputs = input_symbols(node.parents[:n_arrays], node.values[:n_arrays])
        built[id(node)] = sym.create(op, inputs, params, name='node_%d' % k)
    head, index = built[id(x._ag[0])], x._ag[1]
    return head[index] if len(head.list_outputs()) > 1 else head


def _recorded_part(composed, tracked, new_null, topo_order):
    """An inlined graph as MXNet records it: operators computed from untracked inputs only are
    not recorded, so each of their outputs that a recorded operator reads becomes a ``null``
    input (the nodes of ``composed`` past the substituted inputs are fresh copies, changed here)."""
    seeds = {id(t._outputs[0][0]) for t in tracked}
    live = set(seeds)
    # the graph's own nodes, inputs first: the tracked inputs (earlier records) bound it
    order = topo_order([node for node, _ in composed._outputs], descend=lambda n: id(n) not in seeds)
    for n in order:
        if not n.is_variable and id(n) not in live and any(id(i[0]) in live for i in n.inputs):
            live.add(id(n))
    cut = {}

    def entry(node, index, version):
        if node.is_variable or id(node) in live:
            return (node, index, version)
        if (id(node), index) not in cut:
            cut[(id(node), index)] = new_null()._outputs[0][0]
        return (cut[(id(node), index)], 0, 0)
    for n in order:
        if id(n) in live and id(n) not in seeds:
            n.inputs = [entry(*i) for i in n.inputs]
    composed._outputs = [entry(node, index, 0)[:2] for node, index in composed._outputs]
    return composed


def _recorded_params(op, node):
    """(the parameters a recorded node was called with, its number of array inputs): the static
    ones are in its kernel key, the dynamic ones (``_mul_scalar``'s scalar) follow its arrays."""
    static = dict(node.key[1])
    defaults = {p.name: p.default for p in op.params}
    params = {k: v for k, v in static.items() if k != '_train' and (k not in defaults or v != defaults[k])}
    n_arrays = len(node.values) - (1 if op.random else 0)  # a random operator's PRNG key comes last
    dynamic = [n for n in op.dynamic_params if n not in static][:n_arrays]
    n_arrays -= len(dynamic)
    for name, value in zip(dynamic, node.values[n_arrays:]):
        params[name] = np.asarray(value).item()
    return params, n_arrays


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
            cts = [_wrap(c) if c is not None else _wrap(_tape.zeros_like(o._data))
                   for c, o in zip(out_cts, outs)]
            with _Scope(create_graph, None):
                grads = func.backward(*cts)
            grads = (grads,) if isinstance(grads, NDArray) else tuple(grads)
            if len(grads) != len(inputs):
                raise MXNetError('%s.backward returned %d gradients for %d inputs'
                                 % (type(func).__name__, len(grads), len(inputs)))
            return [grads[i] if create_graph else _unwrap(grads[i]) for i in need]

        node = _tape.custom_node(('Function', id(self)), parents, [x._data for x in inputs],
                                 len(outs), backward_fn, name=type(self).__name__)
        for i, o in enumerate(outs):
            o._ag = (node, i)
