"""Executors: a Symbol bound to arrays (MXNet's ``bind`` / ``simple_bind``).

``forward`` runs the graph as one ``jax.jit``-compiled function (compiled once
per input shapes and dtypes, per training mode); ``backward`` runs a compiled
forward-plus-vjp with the inputs of the last forward and writes the gradients
into ``grad_arrays`` following ``grad_req`` ('write', 'add', 'null'). The
default head gradient is ones; loss operators (SoftmaxOutput,
LinearRegressionOutput, ...) ignore it and give their own gradient, as in MXNet.
"""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax._src.interpreters import partial_eval as _pe

from .. import _caches, _tape
from .._x64 import x64
from ..base import MXNetError, shape_str
from ..context import Context, context_of_device, current_context
from ..ndarray import _pending
from ..ops import _int_grads, get_op, sparse as _sparse
from ..ops._tiers import Tiered
from . import _infer, _partition
from ._monitor import MonitorCallback as _MonitorCallback
from .graph import GraphFunction
from .symbol import Symbol, _Node

# Graphs of at most this many operator nodes run their first forward node by node.
SMALL_GRAPH_STEPS = 16

__all__ = ['Executor', 'simple_bind']


def _ctx(ctx):
    if ctx is None:
        return current_context()
    return ctx if isinstance(ctx, Context) else Context(ctx)


def _nd():
    from .. import ndarray
    return ndarray


def _as_list(names, arrays, what, required=True):
    """Arrays in ``names`` order from a list or a dict (None where absent and not required)."""
    if arrays is None:
        if required and names:
            raise ValueError('bind: %s are required (%s)' % (what, ', '.join(names)))
        return [None] * len(names)
    if isinstance(arrays, dict):
        out = [arrays.get(n) for n in names]
        if required:
            missing = [n for n, a in zip(names, out) if a is None]
            if missing:
                raise ValueError('bind: key `%s` is missing in %s (the symbol takes %s)'
                                 % (missing[0], what, ', '.join(names)))
        return out
    if not isinstance(arrays, list):
        raise TypeError('bind: %s must be a list of NDArrays or a dict of str to NDArray, not %s'
                        % (what, type(arrays).__name__))
    arrays = list(arrays)
    if len(arrays) != len(names):
        raise ValueError('bind: %d %s given, the symbol has %d (%s)'
                         % (len(arrays), what, len(names), ', '.join(names)))
    return arrays


def _check_nd(name, a):
    from ..ndarray import NDArray
    if not isinstance(a, NDArray):
        raise TypeError('bind: %r must be an NDArray, got %s' % (name, type(a).__name__))
    return a


# (graph structure, 'forward'/'backward', train) -> the jitted function
_shared_functions = _caches.lru_cache('symbol.executor_functions', 512)
# (graph structure, argument shapes, auxiliary shapes) of binds whose shapes were checked
_checked_shapes = _caches.lru_cache('symbol.executor_checked_shapes', 512)


def _check_bound_shapes(symbol, fn, args, aux):
    """MXNet infers the graph's shapes from the bound arrays when it binds, so a shape that
    contradicts an operator (a weight for 6 inputs bound with data of 5) is bind's MXNetError,
    not the first forward's. Checked once per graph and set of shapes (a bind per batch costs a
    lookup)."""
    key = (fn.structure_key, tuple(a.shape for a in args), tuple(a.shape for a in aux))
    if key in _checked_shapes:
        return
    shapes = dict(zip(fn.arg_names, (a.shape for a in args)))
    shapes.update(zip(fn.aux_names, (a.shape for a in aux)))
    try:
        _infer.infer_shape(symbol, (), shapes, True)
    except MXNetError as err:
        # only a contradiction between shapes is bind's error; inference can fail where the forward
        # would not (dtypes guessed as float32 meeting a bool-only operator, control-flow bodies),
        # and the forward then reports what is wrong in its own words
        if 'Shape inconsistent' in str(err):
            raise
    except Exception:
        pass
    _checked_shapes[key] = True


def _cotangent(out, head_grad):
    """The cotangent of one output: its head gradient (ones by default); an integer output
    (shape_array, index_array) carries none, which jax spells as float0 zeros."""
    if not jnp.issubdtype(out.dtype, jnp.inexact):
        return np.zeros(out.shape, jax.dtypes.float0)
    if head_grad is None:
        return jnp.ones_like(out)
    if head_grad.shape != out.shape and head_grad.size == out.size == 0:  # any empty array will do
        return jnp.zeros_like(out)
    return _tape.cast(head_grad, out.dtype)


def _integers_involved(f, diff):
    """Whether the graph ``f`` has integer arguments to differentiate or integer outputs."""
    names = tuple(diff)
    return _int_grads.involved(lambda *v: tuple(f(dict(zip(names, v)))[0]), [diff[n] for n in names],
                               tuple(range(len(names))))


def _integer_backward(f, diff, head_grads):
    """The gradients of ``diff`` (name -> value) where integers take part, as MXNet computes
    them: integer outputs take their head gradients in their own type (ones by default) and
    integer arguments get theirs truncated (``ops/_int_grads.py``)."""
    names = tuple(diff)
    outs, pull = _int_grads.vjp(lambda *v: tuple(f(dict(zip(names, v)))[0]), [diff[n] for n in names],
                                tuple(range(len(names))))
    heads = []
    for o, h in zip(outs, head_grads):
        if jnp.issubdtype(o.dtype, jnp.inexact):
            heads.append(_cotangent(o, h))
        elif h is None:
            heads.append(jnp.ones_like(o))
        else:
            heads.append(h.astype(o.dtype))
    wrong = [i for i, (o, h) in enumerate(zip(outs, heads)) if h.shape != o.shape]
    if wrong:  # accepted where the backward does not read it (shape_array's), as in _cotangents
        given = list(heads)
        for i in wrong:
            heads[i] = jnp.zeros(outs[i].shape, heads[i].dtype)
        _check_unread(lambda hs: pull(tuple(hs)), heads, wrong, given, outs)
    return dict(zip(names, pull(tuple(heads))))


def _check_unread(vjp, heads, wrong, given, outs):
    """Raise where the backward ``vjp`` reads one of the head gradients ``wrong`` (of another
    shape than their outputs)."""
    closed = jax.make_jaxpr(vjp)(heads)
    _, used = _pe.dce_jaxpr(closed.jaxpr, [True] * len(closed.jaxpr.outvars))  # what the results need
    for i in wrong:
        if used[i]:
            raise MXNetError('backward: the head gradient of output %d has shape %s, the output %s'
                             % (i, shape_str(given[i].shape), shape_str(outs[i].shape)))


def _cotangents(vjp, outs, head_grads):
    """The cotangents of the outputs. A head gradient of another shape than its output is
    accepted where the backward pass does not read it (MXNet's executor takes the array as given,
    and an operator without a gradient, Proposal's, never looks at it); elsewhere it is an error."""
    heads = [_cotangent(o, g) for o, g in zip(outs, head_grads)]
    wrong = [i for i, (o, h) in enumerate(zip(outs, heads)) if h.shape != o.shape]
    if not wrong:
        return heads
    for i in wrong:
        heads[i] = jnp.zeros_like(outs[i])
    _check_unread(vjp, heads, wrong, head_grads, outs)
    return heads


class Executor:
    """A Symbol bound to argument, gradient and auxiliary arrays."""

    def __init__(self, symbol, ctx, args, args_grad=None, grad_req='write', aux_states=None,
                 group2ctx=None):
        symbol = _partition.from_environment(symbol)  # MXNET_SUBGRAPH_BACKEND, as MXNet binds
        self._symbol = symbol
        self._ctx = _ctx(ctx)
        self._fn = GraphFunction(symbol)
        # model parallelism: the device of each operator node, from its ctx_group (None: all on ctx)
        self._group2ctx = group2ctx
        self._step_devices = _step_devices(self._fn, self._ctx, group2ctx)
        arg_names, aux_names = self._fn.arg_names, self._fn.aux_names
        self.arg_arrays = [_check_nd(n, a) for n, a in zip(arg_names, _as_list(arg_names, args, 'arguments'))]
        self.aux_arrays = [_check_nd(n, a) for n, a in
                           zip(aux_names, _as_list(aux_names, aux_states, 'auxiliary states'))]
        _check_bound_shapes(symbol, self._fn, self.arg_arrays, self.aux_arrays)
        grads = _as_list(arg_names, args_grad, 'gradient arrays', required=False)
        self._grad_req = self._reqs(arg_names, grad_req, grads)
        _check_differentiable(symbol, {n for n, r in self._grad_req.items() if r != 'null'})
        self.grad_arrays = list(grads)  # kept as given, even where grad_req is 'null' (as MXNet)
        for n, g, a in zip(arg_names, self.grad_arrays, self.arg_arrays):
            if g is not None and g.shape != a.shape:
                raise MXNetError('bind: gradient array of %r has shape %s, the argument %s'
                                 % (n, shape_str(g.shape), shape_str(a.shape)))
        self.arg_dict = dict(zip(arg_names, self.arg_arrays))
        self.grad_dict = dict(zip(arg_names, self.grad_arrays))  # None where grad_req is 'null'
        self.aux_dict = dict(zip(aux_names, self.aux_arrays))
        self._outputs = None
        self._last = None       # (args, aux, key, train) of the last forward
        self._failure = None    # the pending error of an operator of the last forward (ndarray/_pending.py)
        self._jit = {}
        self._signature = None  # the bound arrays' shapes and dtypes, once a compiled graph runs
        self._out_stypes = {}   # argument storage types -> output storage types (sparse arguments)
        self._monitor = None
        self._ran_by_node = set()  # forward modes run node by node (see _first_forward_node_by_node)
        self._backward_by_node = set()  # (mode, differentiated names) of backwards run so
        # MXNet's graph pass, on unless the variable is 0 when the executor is made
        self._eliminate_common_expr = os.environ.get('MXNET_ELIMINATE_COMMON_EXPR', '1') != '0'

    def get_optimized_symbol(self):
        """The symbol as MXNet's executor runs it: with common expressions merged (see
        ``merge_common_expressions``) unless MXNET_ELIMINATE_COMMON_EXPR=0 at bind. gluonjax runs
        the symbol as given (XLA merges common expressions in the compiled graph itself)."""
        if self._eliminate_common_expr:
            return merge_common_expressions(self._symbol)
        return Symbol(list(self._symbol._outputs))

    @staticmethod
    def _reqs(names, grad_req, grads):
        if isinstance(grad_req, str):
            reqs = {n: grad_req for n in names}
        elif isinstance(grad_req, dict):
            reqs = {n: grad_req.get(n, 'null') for n in names}
        else:
            grad_req = list(grad_req)
            if len(grad_req) != len(names):
                raise MXNetError('bind: grad_req has %d entries, the symbol %d arguments' % (len(grad_req), len(names)))
            reqs = dict(zip(names, grad_req))
        for n, r in reqs.items():
            if r not in ('write', 'add', 'null', 'inplace'):
                raise ValueError("bind: grad_req of %r must be 'write', 'add' or 'null', not %r" % (n, r))
        # Without a gradient array there is nowhere to write: that argument's req is null.
        return {n: ('write' if r == 'inplace' else r) if g is not None else 'null'
                for (n, r), g in zip(reqs.items(), grads)}

    # ---- properties ------------------------------------------------------------------------
    @property
    @x64
    def outputs(self):
        """The outputs of the last forward (before any forward: zeros of the inferred shapes)."""
        if self._outputs is None:
            nd = _nd()
            shapes = jax.eval_shape(lambda a, x: self._fn(dict(a, **x), False, jax.random.PRNGKey(0))[0],
                                    *self._jax_inputs())
            self._outputs = [nd.zeros(s.shape, ctx=self._ctx, dtype=s.dtype) for s in shapes]
        return self._outputs

    @property
    def output_dict(self):
        return dict(zip(self._fn.output_names, self.outputs))

    def _jax_inputs(self):
        args = {n: a._data for n, a in self.arg_dict.items()}
        aux = {n: a._data for n, a in self.aux_dict.items()}
        return args, aux

    def _compiled(self, kind, train):
        train = train and self._fn.mode_dependent   # a graph that ignores the mode compiles once
        fn = self._jit.get((kind, train))
        if fn is not None:
            return fn
        if self._step_devices is not None:
            # nodes on several devices: the graph runs eagerly, each node's kernel compiled alone
            fn = self._jit[(kind, train)] = self._make_compiled(kind, train, self._step_devices)
            return fn
        # Executors of the same graph (a bind per iteration, reshape, simple_bind) share the
        # compiled function: binding costs no new trace or compile, as MXNet's bind costs none.
        shared_key = (self._fn.structure_key, kind, train)
        fn = _shared_functions.get(shared_key)
        if fn is None:
            fn = _shared_functions[shared_key] = self._make_compiled(kind, train)
        self._jit[(kind, train)] = fn
        return fn

    def _run(self, kind, train, *args):
        """The compiled graph of ``kind`` on ``args``: for the first calls of the bound shapes, its
        cheaply compiled tier (an executor bound for one check runs a few times: ops/_tiers.py)."""
        fn = self._compiled(kind, train)
        if isinstance(fn, Tiered):
            if self._signature is None:
                self._signature = tuple([(a.shape, a.dtype) for a in self.arg_arrays + self.aux_arrays])
            fn = fn.pick((id(fn), self._signature, args[3] if kind == 'backward' else ()))
        return fn(*args)

    def _make_compiled(self, kind, train, devices=None):
        graph = self._fn
        if kind == 'forward':
            def run(args, aux, key):
                return graph(dict(args, **aux), train, key, devices)
        else:
            def run(args, aux, key, diff_names, head_grads):
                fixed = {n: v for n, v in args.items() if n not in diff_names}

                def f(diff):
                    outs, new_aux = graph(dict(fixed, **diff, **aux), train, key, devices)
                    return outs, new_aux
                diff = {n: args[n] for n in diff_names}
                if _integers_involved(f, diff):
                    return _integer_backward(f, diff, head_grads)
                outs, vjp, _ = jax.vjp(f, diff, has_aux=True)
                heads = _cotangents(vjp, outs, head_grads)
                if devices is not None:
                    heads = [jax.device_put(h, next(iter(o.devices()))) for h, o in zip(heads, outs)]
                return vjp(heads)[0]
            if devices is not None:
                return run
            return Tiered(run, graph.optimised_at_once, static_argnums=(3,))
        return run if devices is not None else Tiered(run, graph.optimised_at_once)

    # ---- running ---------------------------------------------------------------------------
    @x64  # the graph runs with 64-bit dtypes on (see gluonjax/_x64.py)
    def forward(self, is_train=False, **kwargs):
        """Run the graph; keyword arguments are copied into the argument arrays first."""
        for name, value in kwargs.items():
            if name not in self.arg_dict:
                raise TypeError('forward: unknown argument %r (the symbol takes %s)'
                                 % (name, ', '.join(self._fn.arg_names)))
            target = self.arg_dict[name]
            target[:] = value
        from .. import random as _random
        key = _random.next_key(self._ctx) if self._fn.has_random else None
        self._failure = None
        args, aux = self._jax_inputs()
        nd = _nd()
        arg_stypes = tuple(a.stype for a in self.arg_arrays)
        out_stypes = self._out_stypes.get(arg_stypes) if any(s != 'default' for s in arg_stypes) else ()
        if out_stypes is None and self._step_devices is None:
            # sparse arguments, first time: node by node with the sparse forms, which tells the
            # outputs' storage types (MXNet's storage inference); later runs are compiled
            storage = {n: a._storage for n, a in self.arg_dict.items()}
            outs, new_aux = self._fn.run_storage(dict(storage, **aux), bool(is_train), key)
            self._out_stypes[arg_stypes] = tuple(_sparse.stype_of(o) for o in outs)
            self._outputs = [nd.NDArray._from_jax(o, self._ctx) if _sparse.stype_of(o) == 'default'
                             else nd.sparse.BaseSparseNDArray._from_value(o, self._ctx) for o in outs]
        elif self._step_devices is None and self._first_forward_node_by_node(bool(is_train)):
            failures = []
            outs, new_aux = self._fn.run_storage(dict(args, **aux), bool(is_train), key, failures)
            self._store_outputs(outs, ['default'] * len(outs))
            if failures:  # MXNet's engine raises it at the next wait on an output
                self._failure = _pending.Failure(failures[0])
                _pending.mark(self._outputs, self._failure)
        else:
            outs, new_aux = self._run('forward', bool(is_train), args, aux, key)
            self._store_outputs(outs, out_stypes or ['default'] * len(outs))
        self._last = (args, aux, key, bool(is_train))
        if is_train:
            for name, value in new_aux.items():
                self.aux_dict[name]._set_data(value)
        if self._monitor is not None:
            self._monitor(self)
        return self._outputs

    @x64
    def _first_output_sums(self, name, values, is_train):
        """The float64 sum of the first output for each of ``values`` (a numpy stack of values of
        argument ``name``; the other arguments and the auxiliary states as they are now), from one
        compiled, vectorised forward: the finite differences of ``check_numeric_gradient`` cost a
        compile per argument shape instead of a forward per perturbed element. None where the graph
        cannot run batched (random operators, sparse arguments, host-side operators)."""
        if self._fn.has_random or any(a.stype != 'default' for a in self.arg_arrays):
            return None
        args, aux = self._jax_inputs()
        fn = _batched_sums(self._fn, name, bool(is_train) and self._fn.mode_dependent)
        try:
            return np.asarray(fn(jnp.asarray(values, dtype=args[name].dtype), args, aux))
        except Exception:  # an operator without a batched form (a Python CustomOp, a host callback)
            return None

    def _store_outputs(self, outs, stypes):
        """Write the forward's results into the output arrays, as MXNet's executor writes into the
        same arrays every forward (arrays taken from ``exe.outputs`` see later forwards, and an
        executor made by ``reshape`` writes into the memory it shares with its base executor)."""
        nd = _nd()
        previous = self._outputs or [None] * len(outs)
        arrays = []
        for old, o, stype in zip(previous, outs, stypes):
            ctx = self._ctx if self._step_devices is None else context_of_device(next(iter(o.devices())))
            if stype != 'default':
                arrays.append(nd.sparse.BaseSparseNDArray._from_value(_sparse.from_dense(o, stype), ctx, o))
            elif (old is not None and old.stype == 'default' and old.shape == o.shape and old.dtype == o.dtype
                  and old.context == ctx):
                old._set_data(o)
                arrays.append(old)
            else:
                arrays.append(nd.NDArray._from_jax(o, ctx))
        self._outputs = arrays


    def _first_forward_node_by_node(self, train):
        """Whether this forward runs the graph node by node: the first one in each mode of a
        small graph. Its nodes' kernels are shared with every graph and eager call that uses
        them (and run on the host while their shapes are new), where the compiled graph would be
        a program of its own; an executor bound for one check (a forward, or a forward and a
        backward, which compiles its own) compiles no forward program. Later calls compile it."""
        if self._fn.has_dynamic_shapes:  # no static-shape program can run it (boolean_mask)
            return True
        train = train and self._fn.mode_dependent
        if len(self._fn._steps) > SMALL_GRAPH_STEPS or self._fn.has_subgraphs or train in self._ran_by_node:
            return False
        self._ran_by_node.add(train)
        return True

    def _first_backward_node_by_node(self, train, args, aux, diff_names, heads):
        """The gradients of the first backward (per mode and differentiated arguments) of a
        small graph whose operators' first calls on new shapes compile nothing (pointwise
        operators, moves, reductions: ``GraphFunction.first_calls_compile_nothing``), computed
        node by node on the autograd tape, where the compiled backward would be a program for
        these shapes alone (MXNet's tests bind an executor per random shape: test_operator's
        test_broadcast_binary_op compiled 1,309 executor programs). None where the compiled
        backward runs: later backwards, other graphs, integer values, unusual head gradients."""
        fn, outs = self._fn, self._outputs
        wanted = (train and fn.mode_dependent, diff_names)
        if (wanted in self._backward_by_node or self._step_devices is not None or outs is None
                or len(fn._steps) > SMALL_GRAPH_STEPS or not fn.first_calls_compile_nothing):
            return None
        values = [o._data for o in outs]
        if any(not jnp.issubdtype(v.dtype, jnp.inexact) for v in values + [args[n] for n in diff_names]) or any(
                h is not None and h.shape != v.shape for h, v in zip(heads, values)):
            return None
        self._backward_by_node.add(wanted)
        cts = [_tape.ones_like(v) if h is None else _tape.cast(h, v.dtype) for h, v in zip(heads, values)]
        return fn.recorded_gradients(dict(args, **aux), train, diff_names, cts)

    @x64
    def backward(self, out_grads=None, is_train=True):
        """Gradients of the outputs (head gradients ``out_grads``, default ones) into grad_arrays."""
        if all(req == 'null' for req in self._grad_req.values()):
            return  # nothing to compute, as in MXNet
        if self._last is None:  # MXNet's backward runs on what the bound arrays hold (tests of
            self.forward(is_train=is_train)  # linear operators call it alone): their forward first
        if self._failure is not None:  # the forward failed: the gradients carry its error
            _pending.mark([g for g in self.grad_arrays if g is not None], self._failure)
            return
        args, aux, key, train = self._last
        n_out = len(self._fn.output_names)
        from ..ndarray import NDArray
        if out_grads is None:
            heads = [None] * n_out
        else:
            if isinstance(out_grads, NDArray):
                out_grads = [out_grads]
            out_grads = list(out_grads)
            if len(out_grads) < n_out:
                raise MXNetError('backward: %d head gradients given for %d outputs' % (len(out_grads), n_out))
            out_grads = out_grads[:n_out]  # MXNet ignores the extra ones
            heads = [None if g is None else (g._data if isinstance(g, NDArray) else jnp.asarray(g))
                     for g in out_grads]
        # integer arguments too: MXNet differentiates them in their own type (a Cast passes the
        # gradient through; softmax's lengths get zeros), see ops/_int_grads.py
        diff_names = tuple(n for n in self._fn.arg_names if self._grad_req[n] != 'null')
        if not diff_names:
            return
        grads = self._first_backward_node_by_node(train, args, aux, diff_names, heads)
        if grads is None:
            grads = self._run('backward', train, args, aux, key, diff_names, heads)
        for name in diff_names:
            target = self.grad_dict[name]
            g = _tape.cast(grads[name], target._data.dtype)
            if self._step_devices is not None:
                g = jax.device_put(g, target.context.jax_device)
            self._store_gradient(name, target, g)

    def _store_gradient(self, name, target, g):
        """Write the dense gradient ``g`` of argument ``name`` into its array ``target``. A
        row_sparse gradient of an embedding weight stores the rows the lookup read, zero rows
        among them, as MXNet's does: a lazy optimizer update then decays exactly those rows."""
        add = self._grad_req[name] == 'add'
        rows = None if add or target.stype != 'row_sparse' else self._looked_up_rows(name)
        if rows is None:
            target._set_data(_tape.add(target._data, g) if add else g)
        else:
            target._set_storage(_sparse.rsp_rows(g, rows))

    def _looked_up_rows(self, name):
        """Sorted distinct rows of ``name``'s row_sparse gradient as MXNet stores them (the rows its
        embedding lookups read, the columns of the csr it multiplies), or None where they come
        from a computed array."""
        sources = getattr(self, '_lookup_sources', None)
        if sources is None:
            sources = self._lookup_sources = _lookup_sources(self._symbol)
        found = sources.get(name)
        if not found:
            return None
        parts = []
        for kind, src in found:
            arr = self.arg_dict[src]
            if kind == 'index':
                parts.append(np.asarray(arr.asnumpy()).reshape(-1))
            elif arr.stype == 'csr':
                parts.append(np.asarray(arr.indices.asnumpy()))
            else:  # a csr variable bound to a dense array: the columns holding a value
                dense = arr.asnumpy()
                parts.append(np.flatnonzero(np.any(dense.reshape(dense.shape[0], -1) != 0, axis=0)))
        rows = np.clip(np.concatenate(parts), 0, self.arg_dict[name].shape[0] - 1)  # MXNet clips indices
        return np.unique(rows.astype(np.int64))

    def copy_params_from(self, arg_params, aux_params=None, allow_extra_params=False):
        """Copy parameter values into the bound arrays (names must be arguments unless allowed)."""
        for name, array in (arg_params or {}).items():
            if name in self.arg_dict:
                array.copyto(self.arg_dict[name])
            elif not allow_extra_params:
                raise ValueError('Find name "%s" that is not in the arguments' % name)
        for name, array in (aux_params or {}).items():
            if name in self.aux_dict:
                array.copyto(self.aux_dict[name])
            elif not allow_extra_params:
                raise ValueError('Find name "%s" that is not in the auxiliary states' % name)

    def reshape(self, partial_shaping=False, allow_up_sizing=False, **kwargs):
        """A new executor for new input shapes, sharing memory with this one as MXNet's does: an
        array whose shape stays is the same array, a smaller one is a view of the first elements of
        this executor's array (so are the outputs), a larger one (``allow_up_sizing``) is new."""
        arg_shapes, out_shapes, aux_shapes = self._symbol.infer_shape(**kwargs)
        if arg_shapes is None:
            raise MXNetError('reshape: the given shapes do not determine every shape')
        nd = _nd()

        def share(name, old, shape, what):
            shape = tuple(shape)
            if old.shape == shape:
                return old
            if name not in kwargs and not partial_shaping:
                raise MXNetError('reshape: the shape of %s %r, which was not given, changed from %s to %s; '
                                     'set partial_shaping=True if this is intended'
                                     % (what, name, shape_str(old.shape), shape_str(shape)))
            size = int(np.prod(shape, dtype=np.int64))
            if size > old.size:
                if not allow_up_sizing:
                    raise MXNetError('reshape: the new shape %s of %s %r is larger than the original %s; '
                                         'set allow_up_sizing=True to allocate a new array'
                                         % (shape_str(shape), what, name, shape_str(old.shape)))
                return nd.zeros(shape, ctx=old.context, dtype=old.dtype)
            return _leading_view(old, shape)
        names, aux_names = self._fn.arg_names, self._fn.aux_names
        args = [share(n, a, s, 'argument') for n, a, s in zip(names, self.arg_arrays, arg_shapes)]
        grads = [None if g is None else share(n, g, s, 'gradient')
                 for n, g, s in zip(names, self.grad_arrays, arg_shapes)]
        aux = [share(n, a, s, 'auxiliary state') for n, a, s in zip(aux_names, self.aux_arrays, aux_shapes)]
        new = Executor(self._symbol, self._ctx, args, grads, dict(self._grad_req), aux, self._group2ctx)
        new._outputs = [_leading_view(o, s) if o.stype == 'default' and o.size >= np.prod(s, dtype=np.int64)
                        else nd.zeros(s, ctx=self._ctx, dtype=o.dtype)
                        for o, s in zip(self.outputs, out_shapes)]
        return new

    def set_monitor_callback(self, callback, monitor_all=False):
        """After each forward, call ``callback(name, NDArray)`` for every operator output (named
        as ``get_internals().list_outputs()``); with ``monitor_all`` each node's inputs too
        (see _monitor.py)."""
        self._monitor = None if callback is None else _MonitorCallback(callback, monitor_all)

    def _set_monitor_hook(self, hook):
        """gluonjax's Monitor: ``hook(executor)`` after each forward."""
        self._monitor = hook

    def debug_str(self):
        """The symbol's nodes, then what MXNet's memory plan reports: the memory the executor's
        programs take beyond the bound arrays, here XLA's own account of the compiled forward
        (its temporaries and outputs) and, where gradients are asked for, of the backward (its
        temporaries: the gradients go to the bound gradient arrays)."""
        return '%sTotal %d MB allocated\n' % (self._symbol.debug_str(), self._planned_bytes() // 2 ** 20)

    @x64
    def _planned_bytes(self):
        if self._step_devices is not None:  # node by node: no whole program to account for
            return 0
        from .. import random as _random
        key = _random.next_key(self._ctx) if self._fn.has_random else None
        args, aux = self._jax_inputs()
        diff_names = tuple(n for n in self._fn.arg_names if self._grad_req[n] != 'null')
        total = _program_bytes(self._compiled('forward', bool(diff_names)), (args, aux, key), True)
        if diff_names:
            heads = [None] * len(self._fn.output_names)
            total += _program_bytes(self._compiled('backward', True), (args, aux, key, diff_names, heads), False)
        return total


def _program_bytes(fn, args, outputs):
    """Bytes of the optimised program's temporaries (and outputs) for ``args``, by XLA's analysis."""
    analysis = fn.hot.lower(*args).compile().memory_analysis()
    if analysis is None:  # a backend without the analysis
        return 0
    return analysis.temp_size_in_bytes + (analysis.output_size_in_bytes if outputs else 0)


def _check_differentiable(symbol, wanted):
    """An MXNetError if a gradient of an argument in ``wanted`` must pass through an operator
    without one (``batch_take``), as MXNet's bind fails; ``BlockGrad`` stops gradients."""
    if not wanted:
        return
    reaches = {}  # id(node) -> whether a gradient from it flows to a wanted argument
    for node in symbol._topo():  # inputs first
        if node.is_variable:
            reaches[id(node)] = node.name in wanted
        else:
            reaches[id(node)] = node.op.name != 'BlockGrad' and any(reaches[id(src)] for src, _i, _v in node.inputs)
    stack, seen = [node for node, _i in symbol._outputs], set()
    while stack:  # the nodes a gradient from the outputs passes through
        node = stack.pop()
        if id(node) in seen or not reaches[id(node)]:
            continue
        seen.add(id(node))
        if node.is_variable:
            continue
        if not node.op.gradient:
            raise MXNetError("bind: operator %s (node %s) is non-differentiable: MXNet registers no gradient "
                             "for it (wrap it in stop_gradient, or bind with grad_req='null')"
                             % (node.op.name, node.name))
        stack.extend(src for src, _i, _v in node.inputs)


_batched_sum_functions = _caches.lru_cache('symbol.executor_batched_sums', 64)


def _batched_sums(graph, name, train):
    """jit(vmap) of the graph's first-output sum over a stack of values of argument ``name``."""
    key = (graph.structure_key, name, train)
    fn = _batched_sum_functions.get(key)
    if fn is None:
        def one(value, args, aux):
            outs, _ = graph(dict(args, **{name: value}, **aux), train, None)
            return jnp.sum(outs[0].astype(jnp.float64))
        # run once per check of an argument: the cheaply compiled tier (ops/_tiers.py)
        fn = _batched_sum_functions[key] = Tiered(jax.vmap(one, in_axes=(0, None, None))).cold
    return fn


def _leading_view(arr, shape):
    """An array of ``shape`` sharing ``arr``'s first elements (MXNet's memory reuse on reshape)."""
    shape = tuple(shape)
    if arr.shape == shape:
        return arr
    from ..ndarray.ndarray import make_view
    size = int(np.prod(shape, dtype=np.int64))
    out = type(arr)._from_jax(arr._data.reshape(-1)[:size].reshape(shape), arr._ctx)
    make_view(arr, out, 0, size)
    return out


def merge_common_expressions(symbol):
    """``symbol`` with MXNet's common expression elimination: operator nodes of one operator with
    equal parameters and equal inputs become the first of them. Nodes that draw random numbers,
    depend on the training mode or keep state stay apart (MXNet: those with resources or state);
    an output that ends up the same entry as an earlier output is a ``_copy`` of it (named
    ``<node>_<index>_copy``), so outputs stay separate arrays."""
    merged, first = {}, {}
    for node in symbol._topo():
        if node.is_variable:
            merged[id(node)] = node
            continue
        inputs = [(merged[id(src)], i, v) for src, i, v in node.inputs]
        op = node.op
        key = None
        if not (op.random or op.mode_dependent or op.updates_aux or op.mutate_inputs or node.subgraphs):
            key = (op.name, tuple(sorted(node.params().items())), tuple((id(src), i) for src, i, _ in inputs))
            if key in first:
                merged[id(node)] = first[key]
                continue
        new = _Node(op, node.name, node.attrs, inputs, node.subgraphs)
        merged[id(node)] = new
        if key is not None:
            first[key] = new
    outputs, taken = [], set()
    for node, i in symbol._outputs:
        entry = (merged[id(node)], i)
        if (id(entry[0]), i) in taken:
            copy = _Node(get_op('_copy'), '%s_%d_copy' % (entry[0].name, i), {}, [(entry[0], i, 0)])
            entry = (copy, 0)
        taken.add((id(entry[0]), entry[1]))
        outputs.append(entry)
    return Symbol(outputs)


def simple_bind(symbol, ctx, grad_req='write', type_dict=None, shapes=None, stype_dict=None,
                group2ctx=None):
    """An Executor with zero-filled arrays of the shapes (and dtypes) inferred from ``shapes``;
    with ``group2ctx`` each array is on the context of its variable's ctx_group."""
    ctx = _ctx(ctx)
    where = _variable_contexts(symbol, ctx, group2ctx)
    shapes = shapes or {}
    try:  # MXNet reports any inference failure as a RuntimeError listing the given shapes
        arg_shapes, _, aux_shapes = symbol.infer_shape_partial(**shapes)
        names = symbol.list_arguments()
        aux_names = symbol.list_auxiliary_states()
        unknown = [n for n, s in zip(names + aux_names, arg_shapes + aux_shapes) if not s or 0 in s]
        if unknown:
            raise MXNetError('simple_bind: cannot infer the shapes of %s from the given shapes; give them '
                             'as keyword arguments' % ', '.join(unknown))
        arg_types, _, aux_types = symbol.infer_type_partial(**(type_dict or {}))
    except MXNetError as err:
        given = ''.join('%s: %s\n' % kv for kv in shapes.items())
        raise RuntimeError('simple_bind error. Arguments:\n%s%s' % (given, err)) from None
    nd = _nd()

    def dt(t):
        return np.dtype(t or np.float32)
    arg_stypes, grad_stypes = _storage_types(symbol, stype_dict or {})
    args = [nd.zeros(s, ctx=where.get(n, ctx), dtype=dt(t), stype=arg_stypes.get(n, 'default'))
            for n, s, t in zip(names, arg_shapes, arg_types)]
    aux = [nd.zeros(s, ctx=where.get(n, ctx), dtype=dt(t)) for n, s, t in zip(aux_names, aux_shapes, aux_types)]
    reqs = Executor._reqs(names, grad_req, [True] * len(names))
    grads = [nd.zeros(s, ctx=where.get(n, ctx), dtype=dt(t), stype=grad_stypes.get(n, 'default'))
             if reqs[n] != 'null' else None
             for n, s, t in zip(names, arg_shapes, arg_types)]
    return Executor(symbol, ctx, args, grads, grad_req, aux, group2ctx)


def _group_context(node, ctx, group2ctx):
    """The context of a node: its ctx_group's in ``group2ctx``, else the executor's ``ctx``."""
    group = node.attrs.get('__ctx_group__')
    target = group2ctx.get(group, ctx) if group is not None else ctx
    if not isinstance(target, Context):
        raise TypeError('group2ctx: the context of group %r must be a Context, got %r' % (group, target))
    return target


def _step_devices(graph, ctx, group2ctx):
    """The jax device of each operator node of ``graph`` (None without ``group2ctx``)."""
    if not group2ctx:
        return None
    if not isinstance(group2ctx, dict):
        raise TypeError('group2ctx must be a dict of ctx_group name to Context, got %s'
                        % type(group2ctx).__name__)
    return [_group_context(step.node, ctx, group2ctx).jax_device for step in graph._steps]


def _variable_contexts(symbol, ctx, group2ctx):
    """{variable name: Context} under ``group2ctx``: a variable's own ctx_group, else that of
    the first operator reading it (MXNet places an ungrouped input beside its consumer)."""
    if not group2ctx:
        return {}
    where = {}
    for node in symbol._topo():
        if node.is_variable:
            if '__ctx_group__' in node.attrs:
                where[node.name] = _group_context(node, ctx, group2ctx)
            continue
        for src, _i, _v in node.inputs:
            if src.is_variable and src.name not in where:
                where[src.name] = _group_context(node, ctx, group2ctx)
    return where


_STYPE_IDS = {'0': 'default', '1': 'row_sparse', '2': 'csr'}


def _sparse_gradient_inputs(node, arg_stypes):
    """The inputs of ``node`` whose gradient MXNet stores row_sparse, each with what decides its
    rows: {input name: (kind, source node)}, kind 'index' (an embedding's looked-up rows) or
    'csr' (the columns a csr lhs stores: dot(csr, w)'s gradient of w)."""
    inputs = dict(zip(node.input_names(), node.inputs))
    if 'weight' in _sparse.row_sparse_gradients(node.op.name, node.parsed()):
        return {'weight': ('index', inputs['data'][0])}
    if node.op.name == 'dot' and not node.parsed().get('transpose_a'):
        lhs = inputs['lhs'][0]
        if lhs.is_variable and arg_stypes.get(lhs.name) == 'csr':
            return {'rhs': ('csr', lhs)}
    return {}


def _lookup_sources(symbol):
    """{argument: [(kind, variable name)]} of the arguments whose gradient is row_sparse, the
    variables deciding its rows (see ``_sparse_gradient_inputs``); None where one is computed."""
    arg_stypes = _storage_types(symbol, {})[0]
    out = {}
    for node in symbol._topo():
        if node.is_variable:
            continue
        for name, (kind, src) in _sparse_gradient_inputs(node, arg_stypes).items():
            target = dict(zip(node.input_names(), node.inputs))[name][0]
            if not target.is_variable:
                continue
            known = out.get(target.name, [])
            out[target.name] = None if known is None or not src.is_variable else known + [(kind, src.name)]
    return out


def _storage_types(symbol, stype_dict):
    """({argument: storage type}, {argument: gradient storage type}) for simple_bind: the
    variables' ``stype`` (or ``stype_dict``), and row_sparse gradients where every consumer of
    an argument says so (Embedding with sparse_grad=True, dot of a csr variable), as MXNet's
    storage inference does."""
    attrs = symbol.attr_dict()
    arg_stypes = {n: _STYPE_IDS.get(str(a.get('__storage_type__')), a.get('__storage_type__'))
                  for n, a in attrs.items() if a.get('__storage_type__') not in (None, '0', 'default')}
    arg_stypes.update(stype_dict)
    votes = {}
    for node in symbol._topo():
        if node.is_variable:
            continue
        sparse_inputs = _sparse_gradient_inputs(node, arg_stypes)
        for name, (src, _, _) in zip(node.input_names(), node.inputs):
            if src.is_variable:
                votes.setdefault(src.name, []).append(name in sparse_inputs)
    grad_stypes = {n: 'row_sparse' for n, v in votes.items() if v and all(v)}
    return arg_stypes, grad_stypes


# ---- Symbol's execution methods (Symbol is below this module: installed here) -------------------

def _bind(self, ctx, args, args_grad=None, grad_req='write', aux_states=None, group2ctx=None,
          shared_exec=None):
    """An Executor over given argument arrays (a list in list_arguments order, or a dict)."""
    return Executor(self, ctx, args, args_grad, grad_req, aux_states, group2ctx)


def _simple_bind(self, ctx, grad_req='write', type_dict=None, stype_dict=None, group2ctx=None,
                 shared_arg_names=None, shared_exec=None, shared_buffer=None, **kwargs):
    """An Executor with arrays allocated from input shapes (``data=(32, 784)``); keywords whose
    value is not a tuple are ignored, as MXNet ignores them (``force_rebind=True``)."""
    shapes = {name: shape for name, shape in kwargs.items() if isinstance(shape, tuple)}
    return simple_bind(self, ctx, grad_req, type_dict, shapes, stype_dict, group2ctx)


def _eval(self, ctx=None, **kwargs):
    """Run the graph on NDArrays given by name; returns the list of outputs."""
    return self.bind(ctx or current_context(), kwargs).forward()


Symbol.bind, Symbol.simple_bind, Symbol.eval = _bind, _simple_bind, _eval
