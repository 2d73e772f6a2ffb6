"""``Executor.set_monitor_callback``: the names and values an executor reports after each forward.

MXNet reports, node by node in graph order, each operator output as ``<node>_<output name>``
(``conv_output``). With ``monitor_all=True`` it first reports the node's inputs: a variable input
under its own name (``conv_weight``), then every input as ``<node>_<input name>``, where the input
name is the one the operator registers for the monitor (``conv_data``, ``concat_arg0``) or, for
operators that register none, ``input<i>`` (``act_input0``).
"""
import jax

from ..ops import _tiers
from .graph import GraphFunction

# Operators of one array input whose MXNet registration names that input for the monitor
# (FListInputNames): the others of one input report it as ``input0``. Operators of several
# inputs all name them (``lhs``/``rhs``, ``arg0``...), and so do the linear algebra ones (``A``).
# Found by running MXNet 1.9.1's monitor over the table's one-input operators.
_NAMED_SINGLE_INPUT = frozenset((
    'Dropout', 'LeakyReLU', 'softmax', 'log_softmax', 'Pooling', 'LRN', 'SliceChannel', 'Pad',
    'one_hot', 'tile', 'repeat', 'reverse', 'depth_to_space', 'space_to_depth', 'moments',
    'GridGenerator', 'IdentityAttachKLSparseReg', 'MakeLoss', '_contrib_BilinearResize2D',
    '_ravel_multi_index', 'SequenceMask', 'SequenceLast', 'SequenceReverse', 'SwapAxis', 'squeeze',
    'diag', 'L2Normalization', 'all_finite', '_contrib_quadratic', '_contrib_index_array',
    '_contrib_MultiBoxPrior', '_sample_exponential', '_sample_poisson', 'Crop', 'UpSampling',
))


def monitor_input_names(node):
    """The names under which ``monitor_all`` reports the inputs of an operator node."""
    names = node.input_names()
    op = node.op
    if len(names) == 1 and not (op.variadic or op.name in _NAMED_SINGLE_INPUT
                                or op.name.startswith('_linalg_')):
        return ['input0']
    return list(names)


class MonitorCallback:
    """``set_monitor_callback``'s callback, called with the executor after each forward: runs the
    graph's internal outputs (one compiled function, made on first use) and reports them in
    MXNet's order and names."""

    def __init__(self, callback, monitor_all):
        self.callback, self.monitor_all = callback, bool(monitor_all)
        self._fn = None

    def _plan(self, symbol):
        """[(name, index into the internal outputs)] in the order MXNet reports them."""
        internals = symbol.get_internals()
        slot = {(id(node), i): k for k, (node, i) in enumerate(internals._outputs)}
        reports = []
        for node in symbol._topo():
            if node.is_variable:
                continue
            if self.monitor_all:
                for (src, i, _v), name in zip(node.inputs, monitor_input_names(node)):
                    if src.is_variable:
                        reports.append((src.name, slot[(id(src), i)]))
                    reports.append(('%s_%s' % (node.name, name), slot[(id(src), i)]))
            reports.extend((node.output_name(i), slot[(id(node), i)])
                           for i in range(node.num_visible_outputs()))
        return internals, reports

    def __call__(self, exe):
        if self._fn is None:
            internals, self._reports = self._plan(exe._symbol)
            graph = GraphFunction(internals)
            self._fn = _tiers.jit(lambda inputs, train, key: graph(inputs, train, key)[0],
                               static_argnums=(1,))
        args, aux, key, train = exe._last
        if key is None and exe._fn.has_random:
            key = jax.random.PRNGKey(0)
        from .. import ndarray as nd
        values = self._fn(dict(args, **aux), train, key)
        for name, k in self._reports:
            self.callback(name, nd.NDArray._from_jax(values[k], exe._ctx))
