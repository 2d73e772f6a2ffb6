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
        Also collect the inputs of every operator (here: every graph variable).
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
        self._internals = {}   # id(executor) -> (output names, jitted function)

    def install(self, exe):
        """Watch executor ``exe`` (its forward reports to this monitor)."""
        exe.set_monitor_callback(self._on_forward, self.monitor_all)
        self.exes.append(exe)

    def stat_helper(self, name, array):
        """Record ``stat_func(array)`` under ``name`` while a collection is active."""
        if not self.activated or not self.re_prog.match(name):
            return
        self.queue.append((self.step, name, self.stat_func(array)))

    def _internal_fn(self, exe):
        entry = self._internals.get(id(exe))
        if entry is None:
            from .symbol.graph import GraphFunction
            internals = exe._symbol.get_internals()
            variables = set(internals.list_inputs())
            names = internals.list_outputs()
            keep = [i for i, n in enumerate(names) if self.monitor_all or n not in variables]
            graph = GraphFunction(internals)

            def run(inputs, train, key):
                outs, _ = graph(inputs, train, key)
                return [outs[i] for i in keep]
            entry = ([names[i] for i in keep], jax.jit(run, static_argnums=(1,)))
            self._internals[id(exe)] = entry
        return entry

    def _on_forward(self, exe):
        """Called by an executor after its forward: record its operators' outputs."""
        if not self.activated:
            return
        names, fn = self._internal_fn(exe)
        if exe._last is not None:
            args, aux, key, train = exe._last
        else:
            (args, aux), key, train = exe._jax_inputs(), None, False
        if key is None and exe._fn.has_random:
            key = jax.random.PRNGKey(0)
        from .ndarray import NDArray
        values = fn(dict(args, **aux), train, key)
        for name, value in zip(names, values):
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
