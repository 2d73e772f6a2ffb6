"""Monitor: statistics of a network's arrays during training (MXNet's ``mx.monitor``).

``Monitor(interval, stat_func, pattern)`` installed on executors (``mod.install_monitor``)
records, on every ``interval``-th batch between ``tic()`` and ``toc()``, ``stat_func`` of
every operator output whose name matches ``pattern`` (read from the executor's graph
after its forward) and of every argument and auxiliary state. ``toc()`` returns
``[(step, name, text)]``; ``toc_print()`` logs them as MXNet does.
"""
import logging
import math
import re

import jax
import jax.numpy as jnp

from .ops import _tiers
from .symbol._monitor import MonitorCallback

__all__ = ['Monitor']


def _default_stat(x):
    """The root mean square of ``x``: ``norm(x) / sqrt(size)``."""
    return x.norm() / math.sqrt(max(x.size, 1))


class Monitor:
    """Collect ``stat_func`` of intermediate outputs, arguments and auxiliary states.

    Parameters
    ----------
    interval : int
        Collect on every ``interval``-th call of ``tic``.
    stat_func : callable NDArray -> NDArray (or list of NDArrays), optional
        The statistic; default the root mean square ``norm(x) / sqrt(x.size)``.
    pattern : str
        A regular expression; only names it matches (``re.match``) are collected.
    sort : bool
        Sort the results by name.
    monitor_all : bool
        Also collect the inputs of every operator (``relu_input0``, ``fc_weight``), as
        ``Executor.set_monitor_callback`` reports them.
    """

    def __init__(self, interval, stat_func=None, pattern='.*', sort=False, monitor_all=False):
        if not isinstance(interval, int) or isinstance(interval, bool) or interval < 1:
            raise ValueError('Monitor: interval must be a positive int, got %r' % (interval,))
        if stat_func is not None and not callable(stat_func):
            raise TypeError('Monitor: stat_func must be callable, got %r' % (stat_func,))
        try:
            self.re_prog = re.compile(pattern)
        except (re.error, TypeError) as err:
            raise ValueError('Monitor: pattern %r is not a regular expression (%s)' % (pattern, err)) from None
        self.interval = interval
        self.stat_func = stat_func or _default_stat
        self.activated = False
        self.queue = []
        self.step = 0
        self.exes = []
        self.sort = sort
        self.monitor_all = monitor_all
        self._internals = {}   # ('backward', id(executor)) -> (gradient names, jitted function)

    def install(self, exe):
        """Watch executor ``exe`` (its forward reports to this monitor, and a Module's
        executors report their backward too)."""
        report = MonitorCallback(self.stat_helper, self.monitor_all)  # MXNet's names and order
        exe._set_monitor_hook(lambda e: report(e) if self.activated else None)
        exe._monitor_backward = self._on_backward
        self.exes.append(exe)

    def stat_helper(self, name, array):
        """Record ``stat_func(array)`` under ``name`` while a collection is active."""
        if not self.activated or not self.re_prog.match(name):
            return
        self.queue.append((self.step, name, self.stat_func(array)))

    def _backward_fn(self, exe):
        """A jitted function giving the gradient of every operator's inputs (what MXNet's
        backward operators output). Named and ordered as MXNet 1.9.1 reports its backward
        nodes: last operator first, ``<node>_backward_output`` for an operator of one input,
        ``<node>_backward_output0``, ``..._output1``, ... (one per input, in order) otherwise."""
        key_ = ('backward', id(exe))
        entry = self._internals.get(key_)
        if entry is not None:
            return entry
        graph = exe._fn
        names, probe_ids, reported = [], [], []   # probes in forward order, reports backward
        for i, step in enumerate(graph._steps):
            probe_ids.extend((i, pos) for pos in range(len(step.node.input_names())))
        for i in reversed(range(len(graph._steps))):
            step = graph._steps[i]
            n_inputs = len(step.node.input_names())
            for pos in range(n_inputs):
                suffix = 'output' if n_inputs == 1 else 'output%d' % pos
                names.append('%s_backward_%s' % (step.name, suffix))
                reported.append((i, pos))

        def run(inputs, probes, train, key):
            values = [None] * graph._n_slots
            for slot, name in graph._variables:
                values[slot] = (inputs[name],)
            for i, step in enumerate(graph._steps):
                kernel = step.kernel(train)
                call_args = [values[s][k] + probes[(i, pos)] if (i, pos) in probes else values[s][k]
                             for pos, (s, k) in enumerate(step.slots)]
                if kernel.dynamic:
                    call_args.extend(kernel.attrs[n] for n in kernel.dynamic)
                if step.op.random:
                    key, sub = jax.random.split(key)
                    call_args.append(sub)
                outs = kernel.fn(*call_args)
                if step.op.updates_aux and len(outs) > kernel.n_out:
                    outs = outs[:kernel.n_out]
                values[step.out_slot] = outs
            return [values[s][k] for s, k in graph._heads]

        def grads(inputs, train, key):
            # probes: zeros shaped like each inexact operator input, found by one shape pass
            avals = jax.eval_shape(lambda inp: _inputs_of_steps(graph, inp, train, key), inputs)
            probes = {pid: jnp.zeros(a.shape, a.dtype) for pid, a in zip(probe_ids, avals)
                      if jnp.issubdtype(a.dtype, jnp.inexact)}
            outs, vjp = jax.vjp(lambda p: run(inputs, p, train, key), probes)
            g = vjp([jnp.ones_like(o) for o in outs])[0]
            return [g.get(pid) for pid in reported]
        fn = _tiers.jit(grads, static_argnums=(1,))
        entry = self._internals[key_] = (names, fn)
        return entry

    def _on_backward(self, exe):
        """Called by a Module's executor after its backward: record the operators' gradients."""
        if not self.activated or exe._last is None:
            return
        names, fn = self._backward_fn(exe)
        args, aux, key, train = exe._last
        if key is None and exe._fn.has_random:
            key = jax.random.PRNGKey(0)
        from .ndarray import NDArray
        for name, value in zip(names, fn(dict(args, **aux), train, key)):
            if value is not None:
                self.stat_helper(name, NDArray._from_jax(value, exe._ctx))

    def tic(self):
        """Start collecting for this batch when it is an ``interval``-th one."""
        if self.step % self.interval == 0:
            self.queue = []
            self.activated = True
        self.step += 1

    def toc(self):
        """Stop collecting; ``[(step, name, text)]`` with arguments and auxiliary states added."""
        if not self.activated:
            return []
        for exe in self.exes:
            for name, array in list(zip(exe._symbol.list_arguments(), exe.arg_arrays)) + \
                    list(zip(exe._symbol.list_auxiliary_states(), exe.aux_arrays)):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
        self.activated = False
        from .ndarray import NDArray
        if self.sort:
            self.queue.sort(key=lambda entry: entry[1])
        res = []
        for step, name, values in self.queue:
            if isinstance(values, NDArray):
                values = [values]
            if not isinstance(values, list):
                raise TypeError('Monitor: stat_func must return an NDArray or a list of them, got %s'
                                % type(values).__name__)
            text = ''
            for v in values:
                if not isinstance(v, NDArray):
                    raise TypeError('Monitor: stat_func must return NDArrays, got %s' % type(v).__name__)
                text += (str(v.asscalar()) if v.shape in ((1,), ()) else str(v.asnumpy())) + '\t'
            res.append((step, name, text))
        self.queue = []
        return res

    def toc_print(self):
        """``toc()`` and log each entry: ``Batch:       1 fc1_output            0.5``."""
        for step, name, text in self.toc():
            logging.info('Batch: {:7d} {:30s} {:s}'.format(step, name, text))


def _inputs_of_steps(graph, inputs, train, key):
    """The value of every operator input, in step then input order (for shapes)."""
    values = [None] * graph._n_slots
    for slot, name in graph._variables:
        values[slot] = (inputs[name],)
    seen = []
    for step in graph._steps:
        kernel = step.kernel(train)
        args = [values[s][k] for s, k in step.slots]
        seen.extend(args)
        call_args = list(args)
        if kernel.dynamic:
            call_args.extend(kernel.attrs[n] for n in kernel.dynamic)
        if step.op.random:
            key, sub = jax.random.split(key)
            call_args.append(sub)
        outs = kernel.fn(*call_args)
        if step.op.updates_aux and len(outs) > kernel.n_out:
            outs = outs[:kernel.n_out]
        values[step.out_slot] = outs
    return seen
