"""A Symbol as one pure function of jax arrays, ready for ``jax.jit``.

``GraphFunction(symbol)(inputs, train, key)`` runs the graph's nodes in
topological order with each operator's kernel function (the same pure
functions ``mx.nd`` runs), inside ``jax.named_scope(node name)`` so compiled
programs and profiles carry the layer names. It is what executors and
hybridized blocks compile.
"""
import jax
import jax.numpy as jnp
import numpy as np

from .. import _tape
from ..base import DeferredError, MXNetError
from ..ops import sparse as _sparse
from ..ops._first_records import record_kernel
from ..ops._kernel import kernel_for, operator_error, same_kind, with_values
from . import _node_kernel
from ._infer import entry_shapes, pending_shape
from ._node_kernel import node_kernel

__all__ = ['GraphFunction', 'SubgraphFunction', 'node_kernel']

class _Step:
    """One operator node, ready to run: its kernels and where its inputs come from."""
    __slots__ = ('node', 'name', 'op', 'params', 'slots', 'kernels', 'aux', 'out_slot', 'n_out')

    def __init__(self, node, slots, out_slot):
        self.node = node
        self.name = node.name
        self.op = node.op
        if node.op.mutate_inputs:
            raise NotImplementedError('%s (node %s) updates its inputs %s in place; gluonjax runs such '
                                      'operators imperatively only (mx.nd.%s)'
                                      % (node.op.name, node.name, ', '.join(node.op.mutated_inputs(node.parsed())), node.op.name))
        self.params = node.params()
        self.slots = slots          # [(slot of the input's node, output index)]
        self.out_slot = out_slot
        self.kernels = {}
        self.aux = node.aux_indices()
        self.n_out = node.num_outputs()

    def kernel(self, train, shape=None):
        """The kernel; ``shape`` replaces the shape of a creation node whose dimensions inference decided."""
        k = self.kernels.get((train, shape))
        if k is None:
            params = self.params if shape is None else dict(self.params, shape=str(shape))
            try:
                k = self.kernels[(train, shape)] = (node_kernel(self.node, train) if shape is None
                                                    else kernel_for(self.op.name, params, train))
            except MXNetError as err:
                raise MXNetError('Error in operator %s: %s' % (self.name, err)) from None
        return k


def _shape_unknown(node):
    avals = node.avals()
    return avals is None or any(shape is None for shape, _d in avals)


class GraphFunction:
    """The graph of ``symbol`` as ``f(inputs, train, key) -> (outputs, new_aux)``.

    ``inputs`` maps every name of ``input_names`` (arguments and auxiliary
    states) to a jax array; ``key`` is a PRNG key split among random operators
    (Dropout, samplers). ``new_aux`` maps auxiliary state names to the values the
    operators wrote (BatchNorm's moving statistics in training), the others
    unchanged. Pure: jit it, vjp it, vmap it.
    """

    def __init__(self, symbol):
        # A Symbol, tested without importing symbol.py (whose shape inference uses this module).
        if not callable(getattr(symbol, '_topo', None)):
            raise TypeError('GraphFunction expects a Symbol, got %s' % type(symbol).__name__)
        self.symbol = symbol
        order = symbol._topo()
        self.arg_names = symbol.list_arguments()
        self.aux_names = symbol.list_auxiliary_states()
        self.input_names = symbol.list_inputs()
        self.output_names = symbol.list_outputs()
        slot_of = {}
        self._variables = []   # (slot, name)
        self._steps = []
        for node in order:
            slot = len(slot_of)
            slot_of[id(node)] = slot
            if node.is_variable:
                self._variables.append((slot, node.name))
            else:
                slots = [(slot_of[id(n)], i) for n, i, _v in node.inputs]
                self._steps.append(_Step(node, slots, slot))
        self._n_slots = len(slot_of)
        self._heads = [(slot_of[id(n)], i) for n, i in symbol._outputs]
        self._aux_slot = {name: slot for slot, name in self._variables if name in set(self.aux_names)}
        self.has_random = any(s.op.random for s in self._steps)
        self.optimised_at_once = any(s.op.optimised_at_once for s in self._steps)
        self.has_subgraphs = any(s.op.subgraphs for s in self._steps)
        # an output shape follows input values (boolean_mask): only run_storage runs the graph
        self.has_dynamic_shapes = any(s.op.value_attrs is not None and _shape_unknown(s.node) for s in self._steps)
        # whether training mode changes anything (else one compiled function serves both modes)
        self.mode_dependent = any(s.op.mode_dependent for s in self._steps)
        # zeros((0, n)) & co.: MXNet decides their unknown dimensions from their consumers
        self._pending = [s.node for s in self._steps if pending_shape(s.node) is not None]

    def __repr__(self):
        return '<GraphFunction %s -> %s>' % (self.input_names, self.output_names)

    @property
    def structure_key(self):
        """A hashable key equal for graphs that compute the same function of the same named
        inputs: operators, parameters and wiring, not the operator nodes' names (each new
        ``mx.sym.random.uniform`` is named anew). Executors of equal keys share compiled code."""
        key = getattr(self, '_structure_key', None)
        if key is None:
            steps = tuple((s.op.name, tuple(sorted(s.node.params().items())), tuple(s.slots),
                           id(s.node) if s.node.subgraphs else None)  # subgraphs: not shared
                          for s in self._steps)
            key = self._structure_key = (tuple(self._variables), steps, tuple(self._heads),
                                         tuple(self.aux_names))
        return key

    def __call__(self, inputs, train=False, key=None, devices=None, masks=None, lengths=None):
        """``devices`` (a jax device per operator node, in ``_steps`` order) runs each node on its
        device, its inputs copied there (model parallelism, ``group2ctx``): eager only, as one
        compiled program runs on one device. ``masks`` and ``lengths``: see ``_evaluate``."""
        values, new_aux = self._evaluate(inputs, train, key, devices, masks, lengths)
        outputs = [values[s][i] for s, i in self._heads]
        aux = {name: new_aux.get(name, values[slot][0]) for name, slot in self._aux_slot.items()}
        return outputs, aux

    def slot_shapes(self, specs, train, key=None):
        """The shapes of every node's outputs for inputs ``specs`` ({name: jax.ShapeDtypeStruct}),
        traced without computing: a list by slot (``_variables``, ``_steps``' ``out_slot``) of
        tuples of shapes. ``key``: the PRNG key (or its ShapeDtypeStruct) of a random graph."""
        values = jax.eval_shape(lambda ins, k: self._evaluate(ins, train, k, None)[0], specs, key)
        return [tuple(tuple(v.shape) for v in slot) for slot in values]

    def _evaluate(self, inputs, train, key, devices, masks=None, lengths=None):
        """Every slot's values (a tuple per slot, in ``_steps`` order) and the written aux states.
        ``masks`` ({step index: [(input, axis, unit, k)]}, symbol/_buckets.py) runs those
        reductions and recurrences over only the first ``unit * lengths[k]`` positions of a
        padded axis."""
        values = [None] * self._n_slots
        for slot, name in self._variables:
            try:
                values[slot] = (inputs[name],)
            except KeyError:
                raise MXNetError('GraphFunction: input %r is missing (the graph takes %s)'
                                 % (name, ', '.join(self.input_names))) from None
        new_aux = {}
        if key is None and self.has_random:
            key = jax.random.PRNGKey(0)
        decided = self._pending_shapes(inputs) if self._pending else {}
        for n, step in enumerate(self._steps):
            args = [values[s][i] for s, i in step.slots]
            if devices is not None:
                args = jax.device_put(args, devices[n])
            kernel = step.kernel(train, decided.get(id(step.node)))
            call_args = list(args)
            if kernel.dynamic:
                call_args.extend(kernel.attrs[n] for n in kernel.dynamic)
            if step.op.random:
                key, sub = jax.random.split(key)
                call_args.append(sub)
            with jax.named_scope(step.name):
                try:
                    mask = masks.get(n) if masks else None
                    if mask is None:
                        outs = kernel.fn(*call_args)
                    elif step.op.rows is not None:
                        outs = _masked_reduction(kernel, call_args[0], mask, lengths)
                    else:  # a recurrence along the padded axis (OpDef.steps)
                        (_input, _axis, unit, k), = mask
                        outs = kernel.fn(*call_args, _steps=unit * lengths[k])
                except MXNetError as err:
                    raise same_kind(err, 'Error in operator %s: %s' % (step.name, err)) from None
                except Exception as err:  # jax's own errors: name the node, operator and shapes
                    err = operator_error(step.op.name, step.node.input_names(), call_args, err)
                    raise same_kind(err, 'Error in operator %s: %s' % (step.name, err)) from None
            if step.op.updates_aux and len(outs) > kernel.n_out:
                for pos, value in zip(step.aux, outs[kernel.n_out:]):
                    src_slot = step.slots[pos][0]
                    values[src_slot] = (value,)  # later readers see the written state, as in MXNet
                    name = step.node.inputs[pos][0].name
                    new_aux[name] = value
                outs = outs[:kernel.n_out]
            values[step.out_slot] = outs
        return values, new_aux

    def run_storage(self, inputs, train=False, key=None, failures=None):
        """Run the graph node by node on storage values (jax arrays or ``ops.sparse``
        RowSparse/CSR), each operator's sparse form deciding its output storage where an input
        is sparse, as MXNet's executor dispatches sparse kernels; other nodes compute on dense
        values. Returns (outputs, new_aux) like ``__call__``; eager, not traceable. With a list
        ``failures``, an operator's error that MXNet reports only at the next wait (a DeferredError)
        is appended to it and the node's outputs are zeros."""
        values = [None] * self._n_slots
        for slot, name in self._variables:
            values[slot] = (inputs[name],)
        if key is None and self.has_random:
            key = jax.random.PRNGKey(0)
        new_aux = {}
        decided = self._pending_shapes(inputs) if self._pending else {}
        for step in self._steps:
            args = [values[s][i] for s, i in step.slots]
            kernel = step.kernel(train, decided.get(id(step.node)))
            if step.op.value_attrs is not None:  # the output shape read off the input values
                kernel = with_values(kernel, [np.asarray(_sparse.to_dense(a)) for a in args])
            outs = None
            if step.op.sparse is not None and any(_sparse.stype_of(a) != 'default' for a in args):
                outs = step.op.sparse(kernel, *args)
            if outs is None:
                call_args = [_sparse.to_dense(a) for a in args]
                if kernel.dynamic:
                    call_args.extend(kernel.attrs[n] for n in kernel.dynamic)
                if step.op.random:
                    key, sub = jax.random.split(key)
                    call_args.append(sub)
                try:
                    outs = kernel(*call_args)
                except DeferredError as err:
                    if failures is None:
                        raise MXNetError('Error in operator %s: %s' % (step.name, err)) from None
                    # MXNet reports it at the next wait on the outputs: zeros go on meanwhile
                    failures.append(MXNetError('Error in operator %s: %s' % (step.name, err)))
                    outs = tuple(jax.numpy.zeros(shape, dtype) for shape, dtype in err.avals)
                except MXNetError as err:
                    raise MXNetError('Error in operator %s: %s' % (step.name, err)) from None
                if step.op.updates_aux and len(outs) > kernel.n_out:
                    for pos, value in zip(step.aux, outs[kernel.n_out:]):
                        values[step.slots[pos][0]] = (value,)
                        new_aux[step.node.inputs[pos][0].name] = value
                    outs = outs[:kernel.n_out]
            values[step.out_slot] = outs
        outputs = [values[s][i] for s, i in self._heads]
        aux = {name: new_aux.get(name, values[slot][0]) for name, slot in self._aux_slot.items()}
        return outputs, aux

    @property
    def first_calls_compile_nothing(self):
        """Whether each operator's first eager calls on new shapes are served without compiling
        for those shapes (a host form, a pointwise size bucket, reduction rows: ops/_host.py), and
        the graph has nothing :meth:`recorded_gradients` leaves out (random operators, auxiliary
        state updates, shapes read from values, subgraphs)."""
        return not (self.has_random or self.has_subgraphs or self.has_dynamic_shapes or self._pending) and all(
            (s.op.host is not None or s.op.pointwise or s.op.rows is not None)
            and not (s.op.updates_aux or s.op.value_attrs is not None) for s in self._steps)

    def recorded_gradients(self, inputs, train, diff_names, head_cts):
        """``{name: gradient}`` of the outputs, given their cotangents ``head_cts`` (None for an
        output to leave out), with respect to the arguments ``diff_names``: the graph run node by
        node as recorded eager calls (a signature's first calls compile no vjp form where the
        eager call compiles nothing: ops/_first_records.py), then one backward on the tape. For
        a graph whose :attr:`first_calls_compile_nothing`; eager, not traceable."""
        leaves = {name: _tape.Leaf(None, 'write') for name in diff_names}
        values, entries = [None] * self._n_slots, [None] * self._n_slots
        for slot, name in self._variables:
            values[slot], entries[slot] = (inputs[name],), (leaves.get(name),)
        for step in self._steps:
            kernel = step.kernel(train)
            args = [values[s][i] for s, i in step.slots] + [kernel.attrs[n] for n in kernel.dynamic]
            parents = [entries[s][i] for s, i in step.slots] + [None] * len(kernel.dynamic)
            try:
                if _tape.tracked(parents):
                    outs, node = record_kernel(kernel, parents, args)
                    made = [(node, i) for i in range(kernel.n_out)]
                else:
                    outs, made = kernel(*args), [None] * kernel.n_out
            except MXNetError as err:
                raise MXNetError('Error in operator %s: %s' % (step.name, err)) from None
            values[step.out_slot], entries[step.out_slot] = tuple(outs[:kernel.n_out]), tuple(made)
        heads = [(entries[s][i], ct) for (s, i), ct in zip(self._heads, head_cts)
                 if ct is not None and entries[s][i] is not None]
        found = _tape.backward([e for e, _ in heads], [c for _, c in heads]) if heads else {}
        grads = {}
        for name, leaf in leaves.items():
            hit = found.get(id(leaf))
            grads[name] = hit[2] if hit is not None else _tape.zeros_like(inputs[name])
        return grads

    def _pending_shapes(self, inputs):
        """{id(node): shape} of the creation nodes with unknown dimensions, for these inputs."""
        shapes = {n: tuple(int(d) for d in inputs[n].shape) for n in self.input_names}
        dtypes = {n: np.dtype(inputs[n].dtype).name for n in self.input_names}
        return entry_shapes(self.symbol, shapes, dtypes, self._pending)


def _masked_reduction(kernel, x, masks, lengths):
    """The reduction ``kernel`` of ``x`` over its real positions along padded axes: the padded
    ones set to the reduction's neutral element, a mean divided by the real count."""
    rows = kernel.op.rows(kernel.attrs, x.shape)
    padded = int(np.prod([x.shape[a] for a in rows.axes], dtype=np.int64))
    real = padded
    for _input, axis, unit, k in masks:
        n = unit * lengths[k]
        keep = jax.lax.broadcasted_iota(jnp.int32, x.shape, axis) < n
        x = jnp.where(keep, x, jnp.asarray(rows.neutral, x.dtype))
        real = real // x.shape[axis] * n
    if not rows.per_count:
        return kernel.fn(x)
    totals = kernel.sibling(rows.op, kernel.attrs).fn(x)
    return tuple([(t / real.astype(t.dtype)).astype(t.dtype) for t in totals])


class SubgraphFunction:
    """A control-flow node's subgraph as ``f(arrays, train, key) -> list of arrays``, the arrays
    being its inputs in ``list_inputs`` order (the order the node's ``*_locs`` refer to).

    Auxiliary states a subgraph's operators write (BatchNorm's running statistics inside a
    loop body) are not carried out of the loop: they keep the values the node was given.
    """

    def __init__(self, symbol):
        self.graph = GraphFunction(symbol)

    def __call__(self, arrays, train, key):
        outputs, _aux = self.graph(dict(zip(self.graph.input_names, arrays)), train, key)
        return outputs


_node_kernel.subgraph_function.append(SubgraphFunction)
