"""``mx.nd.CachedOp``: a Symbol run on NDArrays as one compiled function (MXNet's CachedOp).

The graph becomes a pure function of its inputs in ``list_inputs()`` order (``GraphFunction``),
compiled once per training mode by ``ops._tiers.jit`` (``jax.jit`` with gluonjax's XLA options;
XLA compiles it once per input signature). Under ``autograd.record()`` a call is one tape node
holding the whole graph's pullback, as a hybridized Block's call is.
"""
import itertools

from .. import _tape
from .._tape import state as _ag_state
from .._x64 import x64
from ..base import MXNetError
from ..ndarray.ndarray import NDArray
from ..ops import _tiers
from ..ops._rng import next_key
from .graph import GraphFunction

__all__ = ['CachedOp']

_tokens = itertools.count()


class CachedOp:
    """``sym`` as a callable on NDArrays: ``op(*inputs, out=None)`` with the inputs in
    ``sym.list_inputs()`` order; returns an NDArray, or a list for several outputs.
    ``flags`` (MXNet's static_alloc & co.) tune MXNet's memory planning and change nothing here."""

    def __init__(self, sym, flags=()):
        self._graph = GraphFunction(sym)
        self._names = list(self._graph.input_names)
        self._jitted = {}  # training mode -> (compiled function, tape key)
        # what autograd.get_symbol shows of a recorded call: the operators inline when there are
        # at most inline_limit of them and static_alloc is off (MXNet's rule), else one _CachedOp
        flags = {k: str(v).lower() for k, v in (flags.items() if isinstance(flags, dict) else flags)}
        n_ops = sum(1 for node in sym._topo() if not node.is_variable)
        inline = flags.get('static_alloc', 'false') not in ('true', '1') and n_ops <= int(flags.get('inline_limit', 2))
        self._recorded_form = (sym, self._names, inline)

    def _compiled(self, train):
        entry = self._jitted.get(train)
        if entry is None:
            graph, names = self._graph, self._names

            def cached_op(*arrays):
                key = arrays[-1] if graph.has_random else None
                outs, _aux = graph(dict(zip(names, arrays)), train, key)
                return tuple(outs)
            entry = self._jitted[train] = (_tiers.jit(cached_op), ('cached_op', next(_tokens)))
        return entry

    @x64
    def __call__(self, *args, out=None, default_ctx=None):
        if len(args) != len(self._names):
            raise MXNetError('CachedOp: %d inputs given, the graph takes %d (%s)'
                             % (len(args), len(self._names), ', '.join(self._names)))
        for name, a in zip(self._names, args):
            if not isinstance(a, NDArray):
                raise TypeError('CachedOp: input %r must be an NDArray, got %s' % (name, type(a).__name__))
        ctx = args[0].context if args else default_ctx
        train = _ag_state.training
        jitted, token = self._compiled(train)
        vals = [a._data for a in args]
        parents = [a._ag for a in args]
        if self._graph.has_random:
            vals.append(next_key(ctx))
            parents.append(None)
        try:
            if _ag_state.recording and _tape.tracked(parents):
                outs, node = _tape.record_call(jitted, token, parents, vals, jitted, 'CachedOp')
                node.graph = self._recorded_form
            else:
                outs, node = jitted(*vals), None
        except MXNetError:
            raise
        except Exception as err:  # a jax error: name the graph's inputs and their shapes
            shapes = ', '.join('%s %s' % (n, a.shape) for n, a in zip(self._names, args))
            raise MXNetError('CachedOp failed on inputs %s: %s' % (shapes, str(err).strip().splitlines()[0])) from None
        results = [NDArray._from_jax(o, ctx) for o in outs]
        if node is not None:
            for i, r in enumerate(results):
                r._ag = (node, i)
        if out is not None:
            targets = [out] if isinstance(out, NDArray) else list(out)
            for target, r in zip(targets, results):
                r.copyto(target)
            return out
        return results[0] if len(results) == 1 else results
