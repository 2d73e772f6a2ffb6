"""Symbol: MXNet's computation graph, built from the operator table.

A graph is made of :class:`_Node` objects. A variable node has ``op`` None; an
operator node holds its :class:`~gluonjax.ops.OpDef`, its attributes as
MXNet's strings (exactly what symbol JSON stores: the operator's parameters and
hidden attributes such as ``__shape__`` or ``__lr_mult__``) and its inputs as
``(node, output index, version)`` entries. A :class:`Symbol` is a list of
``(node, output index)`` heads over such a graph.

Symbols may know their shape and dtype: a variable made with ``shape=`` and
``dtype=`` does, and an operator applied to inputs whose shapes are all known
computes its output shapes at once (``jax.eval_shape`` of the operator's pure
function), so ``x.shape`` works while tracing a hybridized block.
"""
import builtins as _builtins
import ctypes
import numbers
import weakref

import numpy as np

from ..base import MXNetError, NotImplementedForSymbol, NotSupportedError, upper_layer
from ..ops import find_op, get_op
from ..ops._frontend import COMPARISONS, ArrayType, python_operators
from ..ops._registry import arith_table
from . import _attribute, _infer, _name
from ._attr_order import mxnet_order
from ._infer import DTYPE_TO_FLAG

__all__ = ['Symbol', 'var', 'Variable', 'Group',
           'pow', 'power', 'maximum', 'minimum', 'hypot', 'zeros', 'ones', 'full', 'arange', 'linspace']

# Attributes MXNet stores with double underscores (``lr_mult`` is kept as ``__lr_mult__``)
# and also lists without them.
HIDDEN_KEYS = ('ctx_group', 'lr_mult', 'wd_mult', 'force_mirroring', 'mirror_stage', 'profiler_scope')


_UNSET = object()
# mx.contrib.amp's cast policy once amp.init() ran: (op, parsed params, input entries, input
# names) -> entries with casts in front (gluonjax.contrib.amp installs it).
amp_hook = None


def hidden_key(key):
    """The key under which an attribute is stored (``lr_mult`` -> ``__lr_mult__``)."""
    return '__%s__' % key if key in HIDDEN_KEYS else key


class _Node:
    """One node of a graph: a variable (``op`` None) or an operator with its inputs."""
    __slots__ = ('op', 'name', 'attrs', 'inputs', 'subgraphs', 'version', '_parsed', '_avals', '__weakref__')

    def __init__(self, op, name, attrs=None, inputs=(), subgraphs=()):
        self.op = op
        self.name = name
        self.attrs = dict(attrs) if attrs else {}
        self.inputs = list(inputs)     # [(node, index, version)]
        # A control-flow node's own graphs (loop body, condition, branches): Symbols whose
        # inputs are the node's inputs, never shared with the outer graph, never modified.
        self.subgraphs = tuple(subgraphs)
        self.version = 0               # variables: how many operators have written this state
        self._parsed = None
        self._avals = _UNSET           # output (shape, dtype) pairs, None when unknown

    @property
    def is_variable(self):
        return self.op is None

    @property
    def op_name(self):
        return 'null' if self.op is None else self.op.name

    def params(self):
        """The operator's parameters among the attributes (MXNet strings)."""
        pmap = self.op._param_map
        if self.op.open_params:  # every attribute but the hidden ones (Custom's prop keywords)
            return {k: v for k, v in self.attrs.items()
                    if k in pmap or not (k.startswith('__') or k in HIDDEN_KEYS)}
        return {k: v for k, v in self.attrs.items() if k in pmap}

    def parsed(self):
        """The parameters parsed to Python values, defaults filled in (cached)."""
        if self._parsed is None:
            self._parsed = self.op.parse_attrs(self.params())
        return self._parsed

    def input_names(self):
        return self.op.input_names(self.parsed(), len(self.inputs))

    def num_outputs(self):
        return 1 if self.op is None else self.op.n_outputs(self.parsed())

    def num_visible_outputs(self):
        return 1 if self.op is None else self.op.n_visible_outputs(self.parsed())

    def output_name(self, index):
        if self.op is None:
            return self.name
        names = self.op.list_output_names(self.parsed())
        suffix = names[index] if index < len(names) else 'output%d' % index
        return '%s_%s' % (self.name, suffix) if self.name else suffix  # an atomic symbol's node has no name

    def aux_indices(self):
        """Positions of the inputs that are auxiliary states (written by the operator)."""
        if self.op is None or not self.op.aux:
            return ()
        aux = self.op.aux_names(self.parsed())
        return tuple(i for i, n in enumerate(self.input_names()) if n in aux)

    def avals(self):
        """Per-output (shape, dtype) when known, else None (computed once)."""
        if self._avals is _UNSET:
            self._avals = _infer.node_avals(self)
        return self._avals

    def set_attr(self, key, value):
        self.attrs[key] = value
        if self.op is not None and key in self.op._param_map:
            self._parsed = None
        self._avals = _UNSET


_by_handle = weakref.WeakValueDictionary()  # id -> Symbol, for Symbol.handle
_c_handles = {}  # id -> Symbol made by a C function, until Symbol(handle) takes it


def topo_order(heads, descend=None):
    """Nodes reachable from ``heads`` (nodes), inputs before users, in MXNet's DFS order.

    With ``descend``, only the inputs of nodes for which ``descend(node)`` holds are visited.
    """
    order, visited = [], set()
    for head in heads:
        if id(head) in visited:
            continue
        visited.add(id(head))
        stack = [(head, 0)]
        while stack:
            node, i = stack[-1]
            if i == len(node.inputs) or (descend is not None and not descend(node)):
                order.append(node)
                stack.pop()
                continue
            stack[-1] = (node, i + 1)
            child = node.inputs[i][0]
            if id(child) not in visited:
                visited.add(id(child))
                stack.append((child, 0))
    return order


class Symbol(ArrayType):
    """A symbolic graph: one or several outputs of graph nodes (MXNet's ``mx.sym.Symbol``)."""
    __slots__ = ('_outputs', '__weakref__')
    __array_priority__ = 1000.0

    def __init__(self, outputs):
        if isinstance(outputs, ctypes.c_void_p):  # MXNet's Symbol(handle)
            outputs = Symbol.from_handle(outputs)._outputs
        self._outputs = list(outputs)  # [(node, index)]

    # ---- handles, for ctypes code written against MXNet's C library (mx.base._LIB) ----------
    @property
    def handle(self):
        """A ctypes handle standing for this Symbol: ``Symbol(handle)`` is a Symbol of its graph."""
        _by_handle[id(self)] = self
        return ctypes.c_void_p(id(self))

    @staticmethod
    def from_handle(handle):
        """The Symbol of a handle from :attr:`handle` or from a C function of ``mx.base._LIB``."""
        value = getattr(handle, 'value', handle)
        sym = _c_handles.pop(value, None)
        if sym is None:
            sym = _by_handle.get(value)
        if sym is None:
            raise MXNetError('Symbol: %r is not the handle of a live Symbol' % (handle,))
        return sym

    @staticmethod
    def keep_for_handle(sym):
        """Keep ``sym`` alive until a ``Symbol(handle)`` takes it, as a C function's result."""
        _c_handles[id(sym)] = sym

    @classmethod
    def _apply_op(cls, op, hint, inputs, params, extras):
        """A node of ``op`` on Symbol ``inputs``, named after ``hint`` unless extras name it."""
        # out= names no array in a graph: MXNet's generated symbol functions take it and drop it
        # (sym.elemwise_add(l, r, out=l) is l + r), so code shared with mx.nd runs unchanged
        if op.creation and 'ctx' in extras and 'ctx' in op._param_map:
            params['ctx'] = str(extras['ctx'])
        return create(op, inputs, params, name=extras.get('name'), attr=extras.get('attr'), hint=hint)

    # ---- identity ----------------------------------------------------------------------
    @property
    def name(self):
        """The node's name when every output comes from one node, else None."""
        nodes = self._head_nodes()
        return nodes[0].name if len(nodes) == 1 else None

    def __repr__(self):
        name = self.name
        if name is None:
            return '<Symbol group [%s]>' % ', '.join(s.name for s in self)
        return '<Symbol %s>' % name

    __hash__ = object.__hash__

    def __len__(self):
        return len(self._outputs)

    def __iter__(self):
        return (Symbol([o]) for o in self._outputs)

    def __getitem__(self, index):
        if isinstance(index, str):
            names = self.list_outputs()
            hits = [i for i, n in enumerate(names) if n == index]
            if not hits:
                raise ValueError('Cannot find output that matches name "%s"' % index)
            if len(hits) > 1:
                raise ValueError('There are multiple outputs with name "%s"' % index)
            index = hits[0]
        if isinstance(index, slice):
            return Group([Symbol([o]) for o in self._outputs[index]])
        if not isinstance(index, (int, np.integer)):
            raise TypeError('Symbol indices must be integers, slices or output names, not %s'
                            % type(index).__name__)
        if not -len(self._outputs) <= index < len(self._outputs):
            raise IndexError('Symbol index %d out of range: the symbol has %d outputs'
                             % (index, len(self._outputs)))
        return Symbol([self._outputs[index]])

    def __bool__(self):
        raise NotImplementedForSymbol(self.__bool__, 'bool')

    # NDArray-only methods: a hybrid_forward calling them on its traced input fails with MXNet's
    # error type (NotImplementedForSymbol, an MXNetError) rather than an AttributeError
    def wait_to_read(self):
        raise NotImplementedForSymbol(self.wait_to_read, None)

    def asnumpy(self):
        raise NotImplementedForSymbol(self.asnumpy, None)

    def asscalar(self):
        raise NotImplementedForSymbol(self.asscalar, None)

    def as_in_context(self, *args, **kwargs):
        raise NotImplementedForSymbol(self.as_in_context, None)

    def detach(self):
        raise NotImplementedForSymbol(self.detach, None)

    def backward(self, *args, **kwargs):
        raise NotImplementedForSymbol(self.backward, None)

    def __copy__(self):
        return Symbol(copy_graph(self._outputs))

    def __deepcopy__(self, memo):
        return self.__copy__()

    # ---- shape and dtype known while building ----------------------------------------------
    def _aval(self):
        if len(self._outputs) != 1:
            return None
        node, i = self._outputs[0]
        avals = node.avals()
        return None if avals is None else avals[i]

    @property
    def shape(self):
        """The output's shape when known (variables with ``shape=``, ops on known inputs), else None."""
        aval = self._aval()
        return None if aval is None or aval[0] is None else tuple(aval[0])

    @property
    def dtype(self):
        """The output's dtype (a numpy type, as NDArray.dtype) when known, else None."""
        aval = self._aval()
        return None if aval is None or aval[1] is None else np.dtype(aval[1]).type

    @property
    def ndim(self):
        shape = self.shape
        return None if shape is None else len(shape)

    # ---- structure -----------------------------------------------------------------------
    def _head_nodes(self):
        """The distinct nodes the outputs come from."""
        return list({id(n): n for n, _ in self._outputs}.values())

    def _topo(self):
        return topo_order([n for n, _ in self._outputs])

    def _mutable_nodes(self, order):
        mutable = set()
        for node in order:
            for i in node.aux_indices():
                mutable.add(id(node.inputs[i][0]))
        return mutable

    def list_arguments(self):
        """Names of the input variables that are not auxiliary states, in graph order."""
        order = self._topo()
        mutable = self._mutable_nodes(order)
        return [n.name for n in order if n.is_variable and id(n) not in mutable]

    def list_auxiliary_states(self):
        """Names of the variables that operators write (BatchNorm's moving statistics)."""
        order = self._topo()
        mutable = self._mutable_nodes(order)
        return [n.name for n in order if n.is_variable and id(n) in mutable]

    def list_inputs(self):
        """Names of every input variable, arguments and auxiliary states, in graph order."""
        return [n.name for n in self._topo() if n.is_variable]

    def list_outputs(self):
        return [n.output_name(i) for n, i in self._outputs]

    def get_internals(self):
        """Every visible output of every node, in graph order, as one grouped symbol."""
        outs = []
        for node in self._topo():
            outs.extend((node, i) for i in range(node.num_visible_outputs()))
        return Symbol(outs)

    def get_children(self):
        """The inputs of the output nodes, grouped; None for a variable. A node several outputs
        come from counts once (``SliceChannel(data).get_children()`` is ``data``), as in MXNet."""
        children, seen = [], set()
        for node, _ in self._outputs:
            if id(node) not in seen:
                seen.add(id(node))
                children.extend((n, i) for n, i, _v in node.inputs)
        return Symbol(children) if children else None

    # ---- attributes ------------------------------------------------------------------------
    def attr(self, key):
        """The value of attribute ``key`` of the symbol's node (None if absent or a group)."""
        if self.name is None:
            return None
        return self._outputs[0][0].attrs.get(hidden_key(key))

    def list_attr(self, recursive=False):
        """Attributes of the (first output's) node (MXNet 1.x raises DeprecationWarning for ``recursive=True``)."""
        if recursive:
            raise DeprecationWarning('Symbol.list_attr with recursive=True has been deprecated. '
                                     'Please use attr_dict instead.')
        if not self._outputs:
            return {}
        # a group shows its first output's node, as MXNet's shallow listing does
        return _with_plain_hidden(self._outputs[0][0].attrs)

    def attr_dict(self):
        """Attributes of every node that has some: {node name: {key: value}}."""
        return {n.name: _with_plain_hidden(n.attrs) for n in self._topo() if n.attrs}

    def _set_attr(self, **kwargs):
        """Set attributes (string values) on the symbol's node."""
        for key, value in kwargs.items():
            if not isinstance(value, str):
                raise ValueError('Set Attr only accepts string values')
            for node in self._head_nodes():
                node.set_attr(hidden_key(key), value)
        for node in self._head_nodes():  # MXNet stores the attributes, then parses all the node's
            if node.op is not None:
                _check_attr_names(node.op, node.attrs)

    # ---- composition -------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        s = self.__copy__()
        s._compose(*args, **kwargs)
        return s

    def _gen_atomic_symbol(self):
        """This symbol's operator alone, with its parameters and no inputs or name (MXNet's
        atomic symbol); calling it builds a new node on the given inputs: ``atomic(data=x, name='fc')``."""
        nodes = self._head_nodes()
        if len(nodes) != 1 or nodes[0].is_variable:
            raise MXNetError('_gen_atomic_symbol: needs the output(s) of one operator node, got %s' % self.list_outputs())
        node = _Node(nodes[0].op, '', nodes[0].params())
        return Symbol([(node, i) for i in range(node.num_visible_outputs())])

    def _atomic_node(self):
        nodes = self._head_nodes()
        if len(nodes) == 1 and not nodes[0].is_variable and not nodes[0].inputs and not nodes[0].op.creation:
            return nodes[0]
        return None

    def _compose(self, *args, **kwargs):
        """Replace input variables by other symbols, in place: ``net._compose(data=other)``."""
        name = kwargs.pop('name', None)
        atomic = self._atomic_node()
        if atomic is not None:
            self._outputs = _compose_atomic(atomic, args, kwargs, name)._outputs
            return
        if args:
            raise MXNetError('Symbol.Compose: positional arguments are not supported for a composed graph; '
                             'give inputs by name, e.g. net(data=other)')
        subst = {}
        for key, value in kwargs.items():
            if not isinstance(value, Symbol):
                raise TypeError('Compose expects Symbol as arguments, got %s for %r' % (type(value).__name__, key))
            if len(value._outputs) != 1:
                raise MXNetError('Symbol.Compose: keyword argument %s is a group of %d outputs, '
                                 'a single output is required' % (key, len(value._outputs)))
            subst[key] = value._outputs[0]
        order = self._topo()
        names = [n.name for n in order if n.is_variable]
        for key in subst:
            if key not in names:
                raise MXNetError('Symbol.Compose: keyword argument name %s not found. Candidate arguments:\n%s'
                                 % (key, '\n'.join('\t[%d]%s' % (i, n) for i, n in enumerate(names))))
        self._outputs = copy_graph(self._outputs, subst)
        if name:
            for node in self._head_nodes():
                node.name = name

    # ---- arithmetic: the operators come from the table ('sym' arith entries), set below the class
    def __neg__(self):
        return self.__mul__(-1.0)

    def __pos__(self):
        return self

    def __abs__(self):
        return _apply('abs', [self], {})

    # ---- shape and type inference --------------------------------------------------------------
    def squeeze(self, axis=None, inplace=False, name=None):  # noqa: inplace is NDArray's view flag
        """The squeeze operator on this symbol; ``inplace`` (a view, for NDArrays) changes nothing in
        a graph, and MXNet's Symbol takes it so that one ``forward`` serves both."""
        return _apply('squeeze', [self], {'axis': axis}, name=name)

    def infer_shape(self, *args, **kwargs):
        """(argument shapes, output shapes, auxiliary shapes) from some input shapes.

        Returns (None, None, None), after warning about the unknown arguments, when
        the given shapes do not determine every shape.
        """
        try:
            return _infer.infer_shape(self, args, kwargs, partial=False)
        except MXNetError:
            _print_infer_arguments('infer_shape', args, kwargs)
            raise

    def infer_shape_partial(self, *args, **kwargs):
        """As infer_shape, with ``()`` for the shapes that cannot be inferred."""
        return _infer.infer_shape(self, args, kwargs, partial=True)

    def infer_type(self, *args, **kwargs):
        """(argument types, output types, auxiliary types) as numpy types from some input dtypes."""
        try:
            return _infer.infer_type(self, args, kwargs, partial=False)
        except MXNetError:
            _print_infer_arguments('infer_type', args, kwargs)
            raise

    def infer_type_partial(self, *args, **kwargs):
        """As infer_type, with None for the types that cannot be inferred."""
        return _infer.infer_type(self, args, kwargs, partial=True)

    def debug_str(self):
        """The graph as MXNet's ``Symbol::Print`` lists it: outputs, then every node in graph order."""
        if len(self._outputs) == 1 and not self._outputs[0][0].inputs:
            node = self._outputs[0][0]
            if node.is_variable:
                return 'Variable:%s\n' % node.name
            return 'AtomicFunctor  Op:%s\n' % node.op.name
        lines = ['Symbol Outputs:']
        lines.extend('\toutput[%d]=%s(%d)' % (i, n.name, idx) for i, (n, idx) in enumerate(self._outputs))
        for node in self._topo():
            if node.is_variable:
                lines.append('Variable:%s' % node.name)
                continue
            lines.append('-' * 20)
            lines.append('Op:%s, Name=%s' % (node.op.name, node.name))
            lines.append('Inputs:')
            for j, (n, i, v) in enumerate(node.inputs):
                lines.append('\targ[%d]=%s(%d)%s' % (j, n.name, i, ' version=%d' % v if n.is_variable else ''))
            if node.attrs:
                lines.append('Attrs:')
                lines.extend('\t%s=%s' % kv for kv in sorted(node.attrs.items()))
        return '\n'.join(lines) + '\n'

    def gradient(self, wrt):
        raise NotSupportedError('Symbol.gradient is not supported (MXNet does not implement it either); '
                                'use bind(...).backward()')

    def as_np_ndarray(self):
        """The same graph as a NumPy-mode Symbol: its operators and methods follow ``mx.np``
        (MXNet's ``_Symbol`` of ``mx.sym.np``); ``as_nd_ndarray`` goes back."""
        np_front = upper_layer('numpy')[0]  # mx.np is a layer above
        return np_front._symbol.as_np_symbol(Symbol(self._outputs))

    def as_nd_ndarray(self):
        return self


def _print_infer_arguments(what, args, kwargs):
    """MXNet's infer_shape/infer_type print the inputs they were given before re-raising an error."""
    print('%s error. Arguments:' % what)
    for i, arg in enumerate(args):
        print('  #%d: %s' % (i, arg))
    for key, value in kwargs.items():
        print('  %s: %s' % (key, value))


def _with_plain_hidden(attrs):
    """Attributes as MXNet lists them: in its hash map's order (see ``_attr_order``), each
    hidden key such as ``__lr_mult__`` followed by its plain form ``lr_mult``."""
    out = {}
    for key in mxnet_order(tuple(attrs)):
        out[key] = attrs[key]
        if key.startswith('__') and key.endswith('__') and key[2:-2] in HIDDEN_KEYS:
            out[key[2:-2]] = attrs[key]
    return out


def copy_graph(outputs, subst=None):
    """Copies of the nodes behind ``outputs``; variables named in ``subst`` become those entries."""
    subst = subst or {}
    mapping = {}
    for node in topo_order([n for n, _ in outputs]):
        if node.is_variable and node.name in subst:
            mapping[id(node)] = subst[node.name]
            continue
        new = _Node(node.op, node.name, node.attrs, subgraphs=node.subgraphs)
        new.version = node.version
        new._parsed = node._parsed
        new.inputs = [_remap(mapping, n, i, v) for n, i, v in node.inputs]
        if not subst:
            new._avals = node._avals
        mapping[id(node)] = (new, 0)
    out = []
    for node, i in outputs:
        target = mapping[id(node)]
        out.append((target[0], target[1] if node.is_variable else i))
    if subst:  # shapes change with the new inputs: compute them again, inputs first
        for node in topo_order([n for n, _ in out]):
            node.avals()
    return out


def _remap(mapping, node, index, version):
    target = mapping[id(node)]
    if node.is_variable:
        return (target[0], target[1], version if target[0].is_variable else 0)
    return (target[0], index, version)


# ---------------------------------------------------------------------------------------------
# Creating symbols
# ---------------------------------------------------------------------------------------------

def var(name, attr=None, shape=None, lr_mult=None, wd_mult=None, dtype=None, init=None, stype=None,
        profiler_scope=None, **kwargs):
    """A variable: a named input of the graph.

    ``shape``, ``dtype``, ``init``, ``lr_mult`` and ``wd_mult`` are stored as
    MXNet's hidden attributes (``__shape__``, ...); extra attributes must be
    spelled ``__name__``.
    """
    if not isinstance(name, str):
        raise TypeError('Expect a string for variable `name`')
    attrs = _user_attrs(attr)
    if shape is not None:  # written as MXNet writes str(shape): 5, (2, 3) or [2, 3]
        if isinstance(shape, (int, np.integer)):
            attrs['__shape__'] = str(int(shape))
        else:
            attrs['__shape__'] = str(type(shape)(int(d) for d in shape) if isinstance(shape, list)
                                     else tuple(int(d) for d in shape))
    if lr_mult is not None:
        attrs['__lr_mult__'] = str(lr_mult)
    if wd_mult is not None:
        attrs['__wd_mult__'] = str(wd_mult)
    if dtype is not None:
        dt = np.dtype(dtype).name
        if dt not in DTYPE_TO_FLAG:
            raise MXNetError('var %r: dtype %s is not supported' % (name, dt))
        attrs['__dtype__'] = str(DTYPE_TO_FLAG[dt])
    if init is not None:
        attrs['__init__'] = init if isinstance(init, str) else init.dumps()
    if stype is not None:
        attrs['__storage_type__'] = str({'default': 0, 'row_sparse': 1, 'csr': 2}.get(stype, stype))
    if profiler_scope is not None:
        attrs['__profiler_scope__'] = profiler_scope
    for key, value in kwargs.items():
        if key.startswith('__') and key.endswith('__'):
            attrs[key] = str(value)
        else:
            raise ValueError('Attribute name=%s is not supported. Additional attributes must start and end '
                             'with double underscores, e.g, __yourattr__' % key)
    return Symbol([(_Node(None, name, attrs), 0)])


Variable = var


def Group(symbols, name=None):
    """One symbol whose outputs are the outputs of ``symbols``, in order."""
    symbols = list(symbols)
    if not symbols or any(not isinstance(s, Symbol) for s in symbols):
        raise TypeError('Expected a list of symbols as input')
    outs = []
    for s in symbols:
        outs.extend(s._outputs)
    return Symbol(outs)


def _user_attrs(attr, stringify=False):
    # An operator call stores its attr= values as str(value), as MXNet's creator does (GluonCV
    # passes attr={'__init__': Xavier(...)}); a variable's attributes must be strings already.
    attrs = {}
    for key, value in _attribute.current_attrs(attr).items():
        if not isinstance(value, str):
            if not stringify:
                raise ValueError('Attributes need to be string: %r=%r' % (key, value))
            value = str(value)
        attrs[hidden_key(key)] = value
    return attrs


def _compose_atomic(node, args, kwargs, name):
    """A new node of an atomic symbol's operator and parameters on inputs given by position or name."""
    names = node.op.input_names(node.parsed(), len(args) + len(kwargs))
    unknown = [k for k in kwargs if k not in names[len(args):]]
    if unknown:
        raise MXNetError('Symbol.Compose: %s takes inputs %s, got %s' % (node.op.name, names, unknown))
    inputs = list(args) + [kwargs.get(n) for n in names[len(args):]]
    return create(node.op, inputs, node.params(), name=name)


def create(op, inputs, params, name=None, attr=None, hint=None, subgraphs=()):
    """A new operator node over ``inputs`` (Symbols or None), MXNet-named; returns its Symbol.

    Missing inputs become variables named ``<name>_<input>`` carrying a copy of the
    node's attributes, as MXNet's composition makes them. ``subgraphs`` are a
    control-flow operator's graphs (see ``symbol/_control_flow.py``).
    """
    params, hidden = _split_hidden(op, params)
    parsed = op.parse_attrs(params)  # validate now, naming the operator
    user = _user_attrs(attr, stringify=True)
    _check_attr_names(op, user)
    attrs = _op_attrs(op, op.format_attrs(params), {**user, **hidden})
    name = _name.current().get(name, hint or op.name.lower())
    if op.variadic:
        if any(x is None for x in inputs):
            raise MXNetError('%s: inputs must all be given (got None)' % op.name)
        n_args = parsed.get(op.num_args_param, len(inputs))
        if n_args != len(inputs) and op.num_args_param in op._param_map:
            raise MXNetError('%s: %s=%d but %d inputs were given' % (op.name, op.num_args_param, n_args, len(inputs)))
    names = op.input_names(parsed, len(inputs))
    if len(inputs) > len(names):
        raise MXNetError('%s: too many inputs: %d given, the operator takes %s'
                         % (op.name, len(inputs), ', '.join(names) or 'none'))
    entries = []
    for i, in_name in enumerate(names):
        x = inputs[i] if i < len(inputs) else None
        if x is None:
            entries.append((_Node(None, '%s_%s' % (name, in_name), attrs), 0))
            continue
        if not isinstance(x, Symbol):
            raise TypeError('%s: input %r must be a Symbol, got %s' % (op.name, in_name, type(x).__name__))
        if len(x._outputs) != 1:
            raise MXNetError('%s: argument %s is a group of %d outputs, a single output is required'
                             % (op.name, in_name, len(x._outputs)))
        entries.append(x._outputs[0])
    if amp_hook is not None:
        entries = amp_hook(op, parsed, entries, names)
    node = _Node(op, name, attrs, subgraphs=subgraphs)
    node._parsed = parsed
    _connect(node, entries, names)
    node.avals()  # known input shapes give output shapes now, and shape errors surface here
    return Symbol([(node, i) for i in range(op.n_visible_outputs(parsed))])


def _split_hidden(op, params):
    """(operator parameters, hidden attributes): ``lr_mult=2`` given to an operator that has no
    such parameter is the node attribute ``__lr_mult__`` (``attr_dict`` lists it both ways), as
    MXNet's symbol creation stores MXNet's hidden keys; a keyword already spelled ``__name__``
    (``__layout__``) is such an attribute too."""
    hidden = {hidden_key(k): str(v) for k, v in params.items()
              if (k in HIDDEN_KEYS and k not in op._param_map) or _dunder(k)}
    if not hidden:
        return params, {}
    return {k: v for k, v in params.items() if hidden_key(k) not in hidden}, hidden


def _dunder(key):
    return len(key) > 4 and key.startswith('__') and key.endswith('__')


def _check_attr_names(op, names):
    """MXNet parses an operator node's attributes as its parameters: a plain name (``attr={'note': ..}``,
    an ``AttrScope(group=..)``) that is no parameter is refused; ``__hidden__`` names always pass, and so
    does anything given to an operator without parameters."""
    if not op._param_map or op.open_params:
        return
    unknown = [k for k in names if not _dunder(k) and k not in op._param_map]
    if unknown:
        raise MXNetError('%s: cannot find argument %s (possible arguments: %s; other attributes must be '
                         'spelled __name__)' % (op.name, ', '.join(map(repr, unknown)), ', '.join(op._param_map)))


def _op_attrs(op, formatted, user):
    """An operator node's attributes in the order MXNet inserts them (which decides the order
    ``list_attr`` shows): extra keywords, the scope's and user's attributes, then the
    operator's parameters in their declared order. An operator taking any keyword (Custom:
    ``op_type`` and its prop's own) is called through ``**kwargs`` in MXNet, which passes them on
    in the caller's order, the scope's and user's attributes after them."""
    if op.open_params:
        attrs = dict(formatted)
        attrs.update(user)
        return attrs
    attrs = {k: v for k, v in formatted.items() if k not in op._param_map}
    attrs.update(user)
    for key in op._param_map:
        if key in formatted and key not in user:
            attrs[key] = formatted[key]
    return attrs


def _connect(node, entries, names):
    """Set the node's inputs: variables written by the operator get a new version, and
    variables feeding inputs with a conventional initialiser get it (BatchNorm's moving_var)."""
    init = node.op.input_inits or {}
    aux = set(node.op.aux_names(node.parsed())) if node.op.aux else ()
    inputs = []
    for (src, index), in_name in zip(entries, names):
        version = 0
        if src.is_variable:
            if in_name in aux:
                src.version += 1
            version = src.version
            if in_name in init and '__init__' not in src.attrs:
                src.attrs['__init__'] = init[in_name]
        inputs.append((src, index, version))
    node.inputs = inputs


def _apply(op_name, inputs, params, name=None, hint=None):
    op = get_op(op_name)
    return create(op, list(inputs), dict(params), name=name, hint=hint or op_name.lower())


def _operator(array_op, scalar_op):
    """``sym <op> other``: the array operator for a Symbol, the scalar one for a number."""
    def method(sym, other):
        if isinstance(other, Symbol):
            if array_op is None:
                return NotImplemented
            return _apply(array_op, [sym, other], {})
        if isinstance(other, (numbers.Number, np.generic)):
            return _apply(scalar_op, [sym], {'scalar': other})
        raise TypeError('type %s not supported' % type(other).__name__)
    return method


# Python's operators on Symbols; which operator implements which is in the table ('sym' entries).
for _base, _function, _slots in python_operators('sym', ('add', 'sub', 'mul', 'truediv', 'mod', 'pow', 'eq',
                                                        'ne', 'gt', 'ge', 'lt', 'le')):
    setattr(Symbol, '__%s__' % _base, _operator(_slots['array'], _slots['scalar']))
    if _base not in COMPARISONS:
        setattr(Symbol, '__r%s__' % _base, _operator(None, _slots['rscalar']))
Symbol.__div__, Symbol.__rdiv__ = Symbol.__truediv__, Symbol.__rtruediv__


def _binary_function(function, slots, pyfn):
    def fn(left, right):
        if isinstance(left, Symbol) and isinstance(right, Symbol):
            return _apply(slots['array'], [left, right], {})
        if isinstance(left, Symbol) and isinstance(right, (numbers.Number, np.generic)):
            return _apply(slots['scalar'], [left], {'scalar': right})
        if isinstance(right, Symbol) and isinstance(left, (numbers.Number, np.generic)):
            return _apply(slots['rscalar'], [right], {'scalar': left})
        if isinstance(left, (numbers.Number, np.generic)) and isinstance(right, (numbers.Number, np.generic)):
            return pyfn(left, right)
        raise TypeError('types (%s, %s) not supported' % (type(left).__name__, type(right).__name__))
    fn.__name__ = fn.__qualname__ = function
    return fn


# sym.power, sym.maximum, ...: the 'symfunc' entries of the table; numbers on both sides: Python's.
_NUMBERS = {'power': _builtins.pow, 'maximum': _builtins.max, 'minimum': _builtins.min, 'hypot': np.hypot}
globals().update({function: _binary_function(function, slots, _NUMBERS[function])
                  for function, slots in arith_table('symfunc').items()})
pow = power  # noqa: A001,F821 (MXNet's two names; power is made just above)


def _dtype_name(dtype):
    return np.dtype(np.float32 if dtype is None else dtype).name


def zeros(shape, dtype=None, **kwargs):
    """A symbol of zeros (MXNet's ``_zeros`` operator)."""
    return _creation('_zeros', dict(shape=shape, dtype=_dtype_name(dtype)), kwargs)


def ones(shape, dtype=None, **kwargs):
    return _creation('_ones', dict(shape=shape, dtype=_dtype_name(dtype)), kwargs)


def full(shape, val, dtype=None, **kwargs):
    return _creation('_full', dict(shape=shape, dtype=_dtype_name(dtype), value=float(val)), kwargs)


def arange(start, stop=None, step=1.0, repeat=1, infer_range=False, name=None, dtype=None):
    return _creation('_arange', dict(start=start, stop=stop, step=step, repeat=repeat, infer_range=infer_range,
                                     dtype=_dtype_name(dtype)), {'name': name})


def linspace(start, stop, num, endpoint=True, name=None, dtype=None):
    return _creation('_linspace', dict(start=start, stop=stop, num=num, endpoint=endpoint,
                                       dtype=_dtype_name(dtype)), {'name': name})


def _creation(op_name, params, kwargs):
    name = kwargs.pop('name', None)
    attr = kwargs.pop('attr', None)
    kwargs.pop('ctx', None)
    params.update(kwargs)
    op = get_op(op_name)
    return create(op, [], params, name=name, attr=attr, hint=op_name.lower())
