"""A hybridized Block's compiled graph: MXNet's CachedOp, as one ``jax.jit`` function.

The traced Symbol becomes a pure function of (data arrays, parameter arrays, PRNG key)
through ``gluonjax.symbol.graph.GraphFunction``; ``jax.jit`` compiles it. A call gathers
the parameters' current arrays (the list of array handles is cached per context and
rebuilt only when some Parameter replaced its arrays), runs the compiled function, and
wraps the outputs. In training mode the function also returns the new auxiliary states
(BatchNorm's running statistics), which are written back into the Parameters when backward
passes through the recorded call, as MXNet does.

Under ``autograd.record()`` (with a tracked input) the call is one tape node: the compiled
function runs in its vjp form, which also returns the pullback's residuals, so backward
applies the whole graph's pullback without computing its forward again.
"""
import itertools
import operator
import warnings

from .. import _caches, _tape
from .._tape import state as _ag_state
from .._x64 import x64
from ..base import MXNetError
from ..ndarray import ndarray as _ndarray
from ..ops import _costly, _first_records, _host
from ..ops._kernel import error_cause, same_kind
from ..ops._tiers import Tiered
from ..symbol.executor import SMALL_GRAPH_STEPS
from ..ndarray.ndarray import NDArray
from . import _bucketed_call
from .parameter import _generation

_tokens = itertools.count()
# graph signature (GraphRunner._signature) -> _Compiled, shared by Blocks of equal structure
_shared = _caches.lru_cache('gluon.hybrid_graphs', 512)
_array_of = operator.attrgetter('_data')  # an NDArray's jax array, without a Python call


def _shape_unknown(node):
    avals = node.avals()
    return avals is None or any(shape is None for shape, _ in avals)


class _Compiled:
    """The function for one training mode: ``run`` called on arrays, ``fn`` its pure form
    (what the tape differentiates) and ``token`` the key naming it on the tape."""
    __slots__ = ('run', 'fn', 'token', 'axis_tags', 'padded_groups')

    def __init__(self, run, token, fn=None):
        self.run, self.token = run, token
        self.fn = run if fn is None else fn
        self.axis_tags = {}  # which axes a call may pad (gluon/_bucketed_call.py), by shapes
        self.padded_groups = set()  # the groups of axes earlier calls padded (ditto)


def _param_array(param, ctx):
    """``param``'s array for a graph run on ``ctx``. A Parameter held on one other device only is
    MXNet's MXNetError (its CachedOp takes that array and meets inputs of another device), not
    the RuntimeError of ``data(ctx)``."""
    try:
        return param.data(ctx)
    except RuntimeError:
        held = param.list_ctx() if param._data is not None else []
        if len(held) == 1:
            raise MXNetError('hybridized block: the inputs are on %s but Parameter %r is on %s; move '
                             'the inputs (as_in_context) or the Parameters (reset_ctx)'
                             % (ctx, param.name, held[0])) from None
        raise


class GraphRunner:
    """Runs a Symbol graph compiled with jax.jit on a Block's Parameters."""

    def __init__(self, out_sym, data_names, params, block):
        from ..symbol.graph import GraphFunction
        self.block = block
        self.symbol = out_sym
        self.graph = GraphFunction(out_sym)
        input_names = list(self.graph.input_names)
        aux = set(self.graph.aux_names)
        data_names = list(data_names)
        unknown = [n for n in input_names if n not in data_names and n not in params]
        if unknown:
            raise MXNetError('Unknown input to HybridBlock %s: %s. Every variable of the graph '
                             'must be an input or a Parameter of the Block (or its children).'
                             % (block._describe(), ', '.join(unknown)))
        self.data_keys = [n for n in input_names if n in data_names]
        self.data_index = [data_names.index(n) for n in self.data_keys]
        self.all_data_in_order = self.data_index == list(range(len(data_names)))  # the common case
        unused = [i for i, n in enumerate(data_names) if n not in input_names]
        if unused:
            warnings.warn('The %s input to HybridBlock is not used by any computation. Is this '
                          'intended?' % ', '.join('%d-th' % i for i in unused), stacklevel=5)
        self.param_keys = [n for n in input_names if n not in data_names]
        self.params = [params[n] for n in self.param_keys]
        unused_params = self.unused_params = [n for n in params.keys() if n not in set(self.param_keys)]
        if unused_params:
            warnings.warn('Parameter %s is not used by any computation. Is this intended?'
                          % ', '.join(unused_params), stacklevel=5)
        self.aux_keys = [n for n in self.param_keys if n in aux]
        self.aux_pos = [self.param_keys.index(n) for n in self.aux_keys]
        self.n_out = len(self.graph.output_names)
        self.needs_key = bool(getattr(self.graph, 'has_random', True))
        # An operator whose output shape depends on input values (bincount, boolean_mask): the
        # graph cannot be one compiled program, so it runs node by node, as MXNet's CachedOp runs
        # a graph with dynamic-shape operators
        self.value_dependent = any(s.op.value_attrs is not None and _shape_unknown(s.node) for s in self.graph._steps)
        # A small graph of the inputs alone whose operators all serve new shapes without compiling
        # (pointwise, moves, reductions: a Block slicing and adding its inputs, as MXNet's tests
        # build one per case) runs a signature's first calls node by node as eager calls: a graph
        # met once compiles nothing, where its own program would be compiled for that one call.
        # (A Block with Parameters, a layer, stays one recorded call, as MXNet's CachedOp.)
        graph = self.graph
        self.first_calls_by_node = (graph.first_calls_compile_nothing and not self.param_keys
                                    and 1 < len(graph._steps) <= SMALL_GRAPH_STEPS)
        self.in_format = self.out_format = None
        self._compiled = {}
        # calls per signature, counted over all the block's graphs (one per traced input signature)
        self._usage = block.__dict__.get('_call_usage')
        if self._usage is None:
            self._usage = block.__dict__['_call_usage'] = _bucketed_call.Usage()
        self.extra = ()  # a single operator's dynamic parameter values (_dynamic_values)
        self._arrays = {}
        self._last_arrays = (None, None, None)  # (ctx, generation, arrays) of the last call
        self._reached = {}  # {which inputs are recorded: the auxiliary states backward writes}
        self._recorded_form = None

    def finish_deferred_init(self):
        """Initialise Parameters whose shapes the trace has just completed."""
        for p in self.params:
            if p._deferred_init:
                p._finish_deferred_init()

    # ---- the pure function ---------------------------------------------------------------
    def _compile(self, train, masks=()):
        kernel = None if masks else self._single_kernel(train)
        if kernel is not None:
            # called as the eager operator is: a new shape may run on the host (ops/_host.py)
            return _Compiled(kernel, kernel.key, kernel.fn)
        graph = self.graph
        names = self.data_keys + self.param_keys
        n_in = len(names)
        aux_keys = tuple(self.aux_keys) if train else ()
        needs_key = self.needs_key
        masked = dict(masks) or None  # reductions over padded axes: the real lengths come last

        def hybrid_block(*arrays):
            inputs = dict(zip(names, arrays[:n_in]))
            key = arrays[n_in] if needs_key else None
            outs, new_aux = graph(inputs, train, key, masks=masked, lengths=arrays[-1] if masked else None)
            outs = tuple(outs)
            if aux_keys:
                outs += tuple(new_aux.get(k, inputs[k]) for k in aux_keys)
            return outs
        hybrid_block.__name__ = (self.block.name or 'hybrid_block').replace('-', '_')
        return _Compiled(Tiered(hybrid_block), ('hybrid', next(_tokens)), hybrid_block)

    def _single_kernel(self, train):
        """The Kernel of a graph that is one operator applied to the data inputs in order (a
        Block wrapping one function, as most of MXNet's operator tests write), or None.

        Such a Block runs the operator's own Kernel under the operator's key, so the Block and
        the eager call share one compiled forward, vjp form and backward (they were compiled
        twice, once per front end), and a new shape may run on the host as an eager call does."""
        graph = self.graph
        if len(graph._steps) != 1 or self.param_keys or self.needs_key or graph._pending or graph.has_subgraphs:
            return None
        step = graph._steps[0]
        slot_of = {name: slot for slot, name in graph._variables}
        if step.slots != [(slot_of[name], 0) for name in self.data_keys]:
            return None
        kernel = step.kernel(train)
        if step.op.updates_aux or graph._heads != [(step.out_slot, i) for i in range(kernel.n_out)]:
            return None
        return kernel

    def _dynamic_values(self, train):
        """The values of a single operator's dynamic parameters (np.trace's offset), passed after
        the data as constants, so Blocks differing only in them share the operator's program."""
        kernel = self._single_kernel(train)
        return tuple(kernel.attrs[n] for n in kernel.dynamic) if kernel is not None else ()

    def _entry(self, train, masks=()):
        """The compiled function for ``train``, shared with every Block whose graph has the same
        structure (a test or a script building a new Block per call compiles it once, and its
        vjp form and fused backward, keyed by the token, are shared too). ``masks``: its form
        for a padded call reducing over padded axes (gluon/_bucketed_call.py)."""
        signature = (self._signature(train), masks)
        entry = _shared.get(signature)
        if entry is None:
            entry = _shared[signature] = self._compile(train, masks)
        if not masks:
            self._compiled[train] = entry
            self.extra = self._dynamic_values(train)
        return entry

    def _signature(self, train):
        """What the compiled function depends on: the graph's structure with each variable named
        by its position among the function's arguments (parameter names carry the Block's
        prefix, so equal Blocks differ by name only)."""
        position = {n: i for i, n in enumerate(self.data_keys + self.param_keys)}
        variables, steps, heads, _aux = self.graph.structure_key
        return (tuple((slot, position[name]) for slot, name in variables), steps, heads,
                tuple(position[k] for k in self.aux_keys) if train else (), train, self.needs_key)

    def _param_arrays(self, ctx):
        """The Parameters' NDArrays on ``ctx`` (the list is rebuilt only when a Parameter
        replaced its arrays; the last context is checked first, by identity, as it is the one
        a training loop or a server asks for every call)."""
        last_ctx, last_generation, arrays = self._last_arrays
        if ctx is last_ctx and last_generation == _generation[0]:
            return arrays
        cached = self._arrays.get(ctx)
        if cached is None or cached[0] != _generation[0]:
            cached = self._arrays[ctx] = (_generation[0], [_param_array(p, ctx) for p in self.params])
        self._last_arrays = (ctx, cached[0], cached[1])
        return cached[1]

    # ---- running ---------------------------------------------------------------------------
    @x64  # the compiled graph is traced and run with 64-bit dtypes on (see gluonjax/_x64.py)
    def __call__(self, args, ctx):
        """Run on the flat list of input NDArrays ``args``; returns the output NDArrays."""
        if self.value_dependent:
            return self._run_nodes(args, ctx)
        train = _ag_state.training
        entry = self._compiled.get(train)
        if entry is None:
            entry = self._entry(train)
        arrays = self._param_arrays(ctx)
        vals = list(map(_array_of, args)) if self.all_data_in_order else [args[i]._data for i in self.data_index]
        vals += map(_array_of, arrays)
        if self.extra:
            vals.extend(self.extra)
        if self.needs_key:
            from .. import random as _random
            vals.append(_random.next_key(ctx))
        hook = _ndarray.profiler_hook
        if self.first_calls_by_node and hook is None and _host.on_cpu() and _host.first_call(
                self._data_signature(entry.run, vals)):
            return self._run_nodes(args, ctx)
        parents = self._parents(args, arrays) if _ag_state.recording else ()
        if hook is not None:
            started = hook.start()
        try:
            recorded = parents and _tape.tracked(parents)
            run = entry.run
            if run.__class__ is not Tiered:  # one operator's Kernel: first calls as the eager call's
                outs, node = self._record_kernel(run, entry, parents, vals) if recorded else (run(*vals), None)
                if node is not None:
                    node.graph = self._graph_form(parents)
            else:
                outs, node = self._run(entry, train, vals, parents if recorded else None)
        except Exception as err:
            raise self._error(err) from None
        if hook is not None:  # the compiled graph is one event, named as MXNet names a hybridized call
            hook.operator('_CachedOp', started, outs)
        n = self.n_out
        results = [NDArray._from_jax(outs[0], ctx)] if n == 1 else [NDArray._from_jax(o, ctx) for o in outs[:n]]
        if node is not None:
            for i, r in enumerate(results):
                r._ag = (node, i)
            if train and self.aux_keys and results:
                # as MXNet: running statistics are written when backward passes the graph
                node.on_backward = self._aux_writer([arrays[pos] for pos in self.aux_pos], outs[n:],
                                                    self._reached_aux(parents))
        return results

    def _record_kernel(self, kernel, entry, parents, vals):
        """``(outputs, node)`` of a recorded call of a one-operator graph, as an eager call of
        the operator records it (data movement on the host for its first calls)."""
        recorded = _first_records.record(kernel, parents, vals)
        if recorded is not None:
            outs, node = recorded
            node.name = self.block.name
            return outs, node
        return _tape.record_call(entry.fn, entry.token, parents, vals, kernel, self.block.name)

    def _run(self, entry, train, vals, parents):
        """``(outputs, tape node or None)`` of the compiled graph on ``vals``: a signature's first
        calls run on a padded size bucket where the graph allows (gluon/_bucketed_call.py), or
        else in the cheaply compiled tier (ops/_tiers.py)."""
        run = entry.run
        if parents is None:  # the Parameters' shapes are fixed: the data's decide
            signature = self._data_signature(run, vals)
        else:
            signature = _tape.vjp_signature(entry.fn, entry.token, parents, vals)
        weighed = _costly.weighed(run, signature)
        costly = _costly.stays_cold(weighed)
        first = costly or (signature is not None and _host.first_call(signature))
        calls = 0 if signature is None else self._usage.count(signature)
        padded = signature is not None and not costly and (first or not self._usage.exact(calls))
        padding = _bucketed_call.plan(self, entry, train, vals) if padded else None
        if padding is not None:
            try:
                masks = padding[2]
                return _bucketed_call.run(self._entry(train, masks) if masks else entry, padding, vals,
                                          parents, self.block.name, self._graph_form(parents))
            except Exception:  # the padded shapes fail where the real ones may not: run those
                pass
        if parents is not None:
            outs, node = _costly.timed(weighed, first, lambda: _tape.record_call(
                entry.fn, entry.token, parents, vals, run, self.block.name, cold=None if signature is None else first))
            node.graph = self._graph_form(parents)
            return outs, node
        return _costly.timed(weighed, first, lambda: run.choose(signature, first)(*vals)), None

    def _data_signature(self, run, vals):
        """A call's signature by its data (the Parameters' shapes are fixed): the one count of
        first calls that the node-by-node runs and the unrecorded compiled runs share, so that
        a signature past its node-by-node calls compiles its optimised program at once."""
        return (id(run), tuple([(a.shape, a.dtype) for a in vals[:len(self.data_index)]]))

    def _graph_form(self, parents):
        """What ``autograd.get_symbol`` shows of a recorded call (None when not recording)."""
        if parents is None:
            return None
        return self._recorded_form or self._make_recorded_form()

    def _make_recorded_form(self):
        """(symbol, its variables in the order of the call's values, inline): what
        ``autograd.get_symbol`` shows of a recorded call. As MXNet's CachedOp, a graph of at most
        ``inline_limit`` operators (and not ``static_alloc``) shows as its operators, a larger one
        as one ``_CachedOp`` node."""
        flags = dict(getattr(self.block, '_flags', ()))
        n_ops = sum(1 for node in self.symbol._topo() if not node.is_variable)
        inline = not flags.get('static_alloc', False) and n_ops <= flags.get('inline_limit', 2)
        self._recorded_form = (self.symbol, self.data_keys + self.param_keys, inline)
        return self._recorded_form

    def _run_nodes(self, args, ctx):
        """Run the graph as eager operator calls on NDArrays (each one recorded when autograd
        records, each value-dependent one reading its inputs' values on the host)."""
        graph = self.graph
        inputs = dict(zip(self.data_keys, [args[i] for i in self.data_index]))
        inputs.update(zip(self.param_keys, self._param_arrays(ctx)))
        values = [None] * graph._n_slots
        for slot, name in graph._variables:
            values[slot] = (inputs[name],)
        decided = graph._pending_shapes({k: v._data for k, v in inputs.items()}) if graph._pending else {}
        try:
            for step in graph._steps:
                shape = decided.get(id(step.node))
                params = step.params if shape is None else dict(step.params, shape=str(shape))
                outs = _ndarray.invoke(step.op.name, [values[s][i] for s, i in step.slots], params,
                                       ctx=ctx if not step.slots else None)
                values[step.out_slot] = tuple(outs) if isinstance(outs, (list, tuple)) else (outs,)
        except Exception as err:
            raise self._error(err) from None
        return [values[s][i] for s, i in graph._heads]

    def _aux_writer(self, aux_arrays, after, reached):
        """A function storing the new auxiliary states named in ``reached`` into their arrays
        (see ndarray._aux_writer)."""
        before = [a._data for a in aux_arrays]
        rules = self._aux_rules()

        def write():
            for key, arr, b, a in zip(self.aux_keys, aux_arrays, before, after):
                if key not in reached:
                    continue
                op, attrs = rules.get(key, (None, None))
                if arr._data is not b and op is not None and op.rebase_aux is not None:
                    a = op.rebase_aux(attrs, (b,), (a,), (arr._data,))[0]
                arr._set_data(a)
        return write

    def _reached_aux(self, parents):
        """The auxiliary states a backward pass writes, for the call's tape entries ``parents``:
        those of operators with an input computed from a recorded input. As eager calls (an
        operator on untracked inputs is not recorded), MXNet runs the backward of no other
        operator, and writes running statistics there: a BatchNorm on the data with neither
        gamma nor beta learned (ResNet V2's first) keeps its statistics."""
        names = self.data_keys + self.param_keys
        key = tuple(p is not None for p in parents[:len(names)])
        reached = self._reached.get(key)
        if reached is None:
            reached = self._reached[key] = self._aux_reached_from({n for n, t in zip(names, key) if t})
        return reached

    def _aux_reached_from(self, tracked):
        """The auxiliary states of the updating operators reached from the inputs ``tracked``."""
        graph = self.graph
        live = {slot for slot, name in graph._variables if name in tracked}
        reached = set()
        for step in graph._steps:
            if not any(slot in live for j, (slot, _i) in enumerate(step.slots) if j not in step.aux):
                continue
            live.add(step.out_slot)
            if step.op is not None and step.op.updates_aux:
                reached.update(step.node.inputs[pos][0].name for pos in step.aux)
        return reached

    def _aux_rules(self):
        """{aux name: (operator, attrs)} of the operators updating each auxiliary state."""
        rules = getattr(self, '_rules', None)
        if rules is None:
            rules = self._rules = {}
            for step in self.graph._steps:
                if step.op is not None and step.op.updates_aux:
                    attrs = step.kernel(True).attrs
                    for pos in step.aux:
                        rules[step.node.inputs[pos][0].name] = (step.op, attrs)
        return rules

    def _parents(self, args, arrays):
        """The tape entries of the compiled function's inputs (the PRNG key is a constant)."""
        parents = [args[i]._ag for i in self.data_index]
        parents.extend([a._ag for a in arrays])
        parents.extend([None] * len(self.extra))
        if self.needs_key:
            parents.append(None)
        return parents

    def _error(self, err):
        """An MXNetError naming the Block, keeping the operator's own message."""
        msg = error_cause(err) if str(err).strip() else type(err).__name__
        return same_kind(err, 'hybridized %s failed: %s' % (self.block._describe(), msg))
