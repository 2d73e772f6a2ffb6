"""The operator table: every operator is defined here once.

An entry holds the operator's MXNet name and aliases, its MXNet parameters with
their defaults and string form (as written in symbol JSON), the names of its
array inputs, and a pure function on jax arrays. ``mx.nd.*``, ``mx.sym.*``,
the ``F`` of ``hybrid_forward``, ``mx.npx.*`` and the ``mx.np`` functions that are one operator
call (their NumPy signatures: :class:`Np`) are all generated from this one table.

Writing an operator::

    @register('FullyConnected', npx=('fully_connected',), inputs=_fc_inputs,
              params=[P('num_hidden', 'int'), P('no_bias', 'bool', False), P('flatten', 'bool', True)])
    def fully_connected(data, weight, bias=None, *, num_hidden, no_bias, flatten):
        ...

The function receives the arrays positionally (in ``inputs`` order) and every
parameter by keyword, already parsed to Python values (tuples, not lists, so
that they can key caches). It returns one array, or a tuple when the operator
has several outputs.
"""
import ast
import dataclasses
import inspect
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np

from ..base import MXNetError

__all__ = ['P', 'OpDef', 'Arith', 'Np', 'Plot', 'plot_dims', 'arith', 'register', 'register_like', 'add_alias', 'set_sparse_form', 'add_sparse_alias', 'get_op', 'find_op', 'all_ops', 'canonical_ops',
           'REQUIRED', 'ELEMENTWISE', 'MOVES', 'ORDER', 'along_axes']


# How an operator treats an axis of its inputs that is padded at its end (``OpDef.along``):
ELEMENTWISE = 'elementwise'  # each output element from the inputs' elements at its index (broadcasting)
MOVES = 'moves'  # permutes axes (transpose): a position along any axis stays one position
ORDER = 'order'  # keeps the elements' row-major order (Reshape): see symbol/_buckets.py


def along_axes(*per_input):
    """An ``OpDef.along`` rule from one rule per input: a function ``(attrs, ndim) -> axes``,
    ``'all'``, or None (the input may not be padded)."""
    def rule(attrs, ndims):
        out = []
        for i, ndim in enumerate(ndims):
            r = per_input[i] if i < len(per_input) else None
            out.append(frozenset(range(ndim)) if r == 'all' else frozenset() if r is None
                       else frozenset(a % ndim for a in r(attrs, ndim) if -ndim <= a < ndim))
        return out
    return rule


class _Required:
    def __repr__(self):
        return 'REQUIRED'


REQUIRED = _Required()


# --- parameter kinds: how a value is read from a string (symbol JSON) or from Python ---

def _parse_bool(v):
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ('true', '1'):
            return True
        if s in ('false', '0'):
            return False
        raise ValueError('expected a boolean, got %r' % v)
    return bool(v)


def _literal(v):
    """A Python literal from MXNet's string form: '(5, 5)', '[1,2]', '3', 'None'."""
    s = v.strip()
    if s in ('None', ''):
        return None
    try:
        return ast.literal_eval(s)
    except (ValueError, SyntaxError):
        raise ValueError('cannot read %r as a value' % v)


def _parse_shape(v):
    if isinstance(v, str):
        v = _literal(v)
    if v is None:
        return ()
    if isinstance(v, (int, np.integer)):
        return (int(v),)
    return tuple(int(x) for x in v)


def _parse_shapes(v):
    """A tuple of int tuples, MXNet's Tuple<Tuple<int>> ('((1, 0), (2, 1))')."""
    if isinstance(v, str):
        v = _literal(v)
    return tuple(_parse_shape(x) for x in v or ())


def _parse_opt_ints(v):
    """A tuple whose entries are ints or None (slice's begin/end/step: '(None, 2)')."""
    if isinstance(v, str):
        v = _literal(v)
    if v is None:
        return ()
    if isinstance(v, (int, np.integer)):
        return (int(v),)
    return tuple(None if x is None else int(x) for x in v)


def _parse_optional(inner):
    def parse(v):
        if v is None or (isinstance(v, str) and v.strip() in ('None', '')):
            return None
        return inner(v)
    return parse


def _parse_int(v):
    if isinstance(v, str):
        v = _literal(v)
    if isinstance(v, float) and not v.is_integer():
        raise ValueError('expected an integer, got %r' % v)
    return int(v)


def _parse_float(v):
    if isinstance(v, str) and v in ('True', 'False'):  # a Python bool written as MXNet's string
        return float(v == 'True')
    return float(v)


def _parse_axis(v):
    """An axis parameter: an int, a tuple of ints, or None (all axes)."""
    if isinstance(v, str):
        v = _literal(v)
    if v is None:
        return None
    if isinstance(v, (int, np.integer)):
        return int(v)
    t = tuple(int(x) for x in v)
    return t


def _parse_dtype(v):
    if v is None:
        return None
    if isinstance(v, str) and v.strip() in ('None', ''):
        return None
    return np.dtype(v).name


def _parse_str(v):
    return str(v)


def _parse_float_tuple(v):
    if isinstance(v, str):
        v = _literal(v)
    if isinstance(v, (int, float)):
        return (float(v),)
    return tuple(float(x) for x in v)


KINDS = {
    'int': _parse_int,
    'float': _parse_float,
    'bool': _parse_bool,
    'str': _parse_str,
    'shape': _parse_shape,
    'shapes': _parse_shapes,
    'optints': _parse_opt_ints,
    'axis': _parse_axis,
    'dtype': _parse_dtype,
    'floats': _parse_float_tuple,
    'any': lambda v: v,
}


# MXNet's names of the parameter kinds in operator descriptions.
_KIND_NAMES = {'int': 'int', 'float': 'float', 'bool': 'boolean', 'str': 'string', 'shape': 'Shape(tuple)',
               'shapes': 'tuple of <Shape(tuple)>', 'optints': 'Shape(tuple)', 'axis': 'Shape(tuple)',
               'dtype': 'dtype', 'floats': 'tuple of <float>', 'any': 'any'}


def _default_str(value):
    """A default value as MXNet's descriptions write it: strings and None quoted, booleans 0/1."""
    if value is None or isinstance(value, str):
        return "'%s'" % value
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, (tuple, list)):
        return '[%s]' % ','.join(str(v) for v in value)
    return str(value)


def _format(value):
    """MXNet's string form of a parameter value, as it appears in symbol JSON."""
    if isinstance(value, (list, tuple)):
        return '(' + ', '.join(_format(v) for v in value) + (',)' if len(value) == 1 else ')')
    if isinstance(value, np.dtype):
        return value.name
    if isinstance(value, type) and issubclass(value, np.generic):
        return np.dtype(value).name
    return str(value)


@dataclasses.dataclass(frozen=True)
class P:
    """One MXNet parameter of an operator: name, kind (a key of KINDS), default."""
    name: str
    kind: str = 'any'
    default: Any = REQUIRED
    optional: bool = False  # None is also accepted
    # The values an enumeration parameter takes (MXNet's enum fields: Activation's act_type).
    choices: Tuple[Any, ...] = ()

    @property
    def required(self):
        return self.default is REQUIRED

    def parse(self, value, op_name):
        parser = KINDS[self.kind]
        if self.optional:
            parser = _parse_optional(parser)
        try:
            parsed = parser(value)
        except (TypeError, ValueError) as err:
            raise MXNetError('%s: invalid value %r for parameter %r (%s): %s'
                             % (op_name, value, self.name, self.kind, err)) from None
        if self.choices and parsed not in self.choices:
            raise MXNetError('%s: invalid value %r for parameter %r, valid values are: %s'
                             % (op_name, value, self.name, self.choices_str())) from None
        return parsed

    def choices_str(self):
        """The choices as MXNet writes an enumeration: None first, then sorted, in braces."""
        names = sorted(repr(c) for c in self.choices if c is not None)
        return '{%s}' % ', '.join((['None'] if None in self.choices else []) + names)

    def type_str(self):
        """MXNet's description of the parameter's type (``mx.operator.get_operator_arguments``):
        "int, required", "boolean, optional, default=0", "{'relu', 'tanh'}, required"."""
        if self.choices:
            kind, sep = self.choices_str(), ','   # MXNet writes no space after an enum's braces
        else:
            kind, sep = _KIND_NAMES[self.kind] + (' or None' if self.optional else ''), ', '
        if self.required:
            return kind + ', required'
        return '%s%soptional, default=%s' % (kind, sep, _default_str(self.default))


@dataclasses.dataclass(frozen=True)
class Arith:
    """One Python-level arithmetic function an operator implements in one front end.

    ``front`` is 'nd', 'sym' or 'np'; ``function`` the front end's function name ('add',
    'subtract', ..., which also names the Python operator: ``__add__``); ``form`` says where the
    operands are: 'array' (two arrays), 'scalar' (array op number) or 'rscalar' (number op
    array). ``call_name`` is the name the front end calls the operator by when it is not the
    canonical one (MXNet's symbols call elemwise_add '_Plus', which names nodes '_plus0')."""
    front: str
    function: str
    form: str = 'array'
    call_name: Optional[str] = None


def arith(fronts, function, forms='array', call_name=None):
    """Arith entries for each of the space-separated ``fronts`` and ``forms``."""
    return tuple(Arith(f, function, form, call_name) for f in fronts.split() for form in forms.split())


def _python_signature(text):
    """(name, inspect.Signature) of a signature written as Python writes one: ``'tril(m, k=0)'``
    (defaults are literals)."""
    name, paren, rest = text.partition('(')
    try:
        args = ast.parse('def _(%s: pass' % rest).body[0].args
        defaults = [ast.literal_eval(d) for d in args.defaults]
        kw_defaults = [inspect.Parameter.empty if d is None else ast.literal_eval(d) for d in args.kw_defaults]
    except (SyntaxError, ValueError):
        raise ValueError('cannot read the NumPy signature %r' % text) from None
    if not paren or args.posonlyargs:
        raise ValueError('cannot read the NumPy signature %r' % text)
    kind = inspect.Parameter
    defaults = [kind.empty] * (len(args.args) - len(defaults)) + defaults
    params = [kind(a.arg, kind.POSITIONAL_OR_KEYWORD, default=d) for a, d in zip(args.args, defaults)]
    if args.vararg:
        params.append(kind(args.vararg.arg, kind.VAR_POSITIONAL))
    params += [kind(a.arg, kind.KEYWORD_ONLY, default=d) for a, d in zip(args.kwonlyargs, kw_defaults)]
    if args.kwarg:
        params.append(kind(args.kwarg.arg, kind.VAR_KEYWORD))
    return name.strip(), inspect.Signature(params)


@dataclasses.dataclass(frozen=True)
class Np:
    """One ``mx.np`` function (or ``np.ndarray`` method) that is a single call of the operator.

    ``signature`` is NumPy's, as NumPy writes it: ``'tril(m, k=0)'``, ``'linalg.inv(a)'`` (a
    function of ``mx.np.linalg``). Its leading parameters are the operator's array inputs, in
    ``inputs`` order (a variadic operator: ``*arrays``, or one parameter holding a sequence of
    arrays); ``out`` is the output array; every other parameter is the operator parameter of the
    same name, or the one ``params`` maps it to, and is read by that parameter's kind. So the
    signature is the only thing written: conversions are the table's own parameter parsing.

    ``aliases``: other ``mx.np`` names of the function (``max`` of ``amax``). ``method``: also
    the ``np.ndarray`` method of that name (True: the function's name), the array being
    ``self``; ``function=False`` for a method alone (``ndarray.clip(min, max)`` has other
    parameter names than ``np.clip(a, a_min, a_max)``). ``fixed``: operator parameters the
    function always sets (argsort's int64 indices). ``unsupported``: NumPy parameters accepted
    at their default only (else NotImplementedError); ``ignored``: accepted and without effect
    (sort's ``kind``: every algorithm gives the same result). ``numpy_scalars``: given only
    numbers, the function is NumPy's own (ufuncs). ``integers_only``: MXNet rejects float arrays
    (bitwise functions). Several outputs come as a list (``atleast_1d(a, b)``), or a tuple with
    ``tuple_outputs`` (``linalg.slogdet``); ``rows_as_tuple``: the one output's rows as a tuple
    (``unravel_index``: an array of coordinates per axis, as NumPy gives them).
    """
    signature: str
    aliases: Tuple[str, ...] = ()
    params: Tuple[Tuple[str, str], ...] = ()
    method: Union[bool, str] = False
    function: bool = True
    fixed: Tuple[Tuple[str, Any], ...] = ()
    unsupported: Tuple[str, ...] = ()
    ignored: Tuple[str, ...] = ()
    numpy_scalars: bool = False
    integers_only: bool = False
    tuple_outputs: bool = False
    rows_as_tuple: bool = False
    name: str = dataclasses.field(init=False, compare=False)
    python_signature: inspect.Signature = dataclasses.field(init=False, compare=False, repr=False)

    def __post_init__(self):
        # dicts are accepted for readability and kept as tuples (the entry is hashable)
        for field in ('params', 'fixed'):
            value = getattr(self, field)
            if isinstance(value, dict):
                object.__setattr__(self, field, tuple(value.items()))
        name, signature = _python_signature(self.signature)
        object.__setattr__(self, 'name', name)
        object.__setattr__(self, 'python_signature', signature)

    @property
    def star(self):
        """The ``*arrays`` parameter of a variadic operator, or None."""
        return next((p.name for p in self.python_signature.parameters.values()
                     if p.kind is inspect.Parameter.VAR_POSITIONAL), None)

    @property
    def ufunc_keywords(self):
        """Whether it takes NumPy's ufunc keywords (``**kwargs``: where, casting, order, dtype,
        subok), at their defaults only, as MXNet."""
        return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in self.python_signature.parameters.values())

    @property
    def parameters(self):
        """[(NumPy parameter, default or REQUIRED)] of the named parameters, in order."""
        return [(p.name, REQUIRED if p.default is p.empty else p.default)
                for p in self.python_signature.parameters.values()
                if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]

    @property
    def function_names(self):
        return (self.name,) + tuple(self.aliases) if self.function else ()

    @property
    def method_name(self):
        if not self.method:
            return None
        return self.name.rpartition('.')[2] if self.method is True else self.method

    def array_parameters(self, op):
        """The NumPy parameters that are the operator's array inputs."""
        if self.star:
            return (self.star,)
        count = 1 if op.variadic else len(op.input_names(op._default_attrs) if not callable(op.inputs)
                                               else op.inputs(None))
        return tuple(name for name, _ in self.parameters[:count])

    def targets(self, op):
        """[(NumPy parameter, operator parameter)] of the parameters the operator reads."""
        skip = set(self.array_parameters(op)) | set(self.unsupported) | set(self.ignored) | {'out', 'ctx'}
        renamed = dict(self.params)
        return [(name, renamed.get(name, name)) for name, _ in self.parameters if name not in skip]

    def check(self, op):
        """Fail at registration on a signature that does not fit the operator."""
        names = [name for name, _ in self.parameters]
        known = set(op.param_names)
        for name, target in self.targets(op):
            if target not in known:
                raise ValueError('%s: NumPy parameter %r of %r is no parameter of the operator (it takes %s)'
                                 % (op.name, name, self.signature, ', '.join(sorted(known)) or 'none'))
        for name in tuple(dict(self.params)) + self.unsupported + self.ignored:
            if name not in names:
                raise ValueError('%s: %r names no parameter of %r' % (op.name, name, self.signature))
        for target, _ in self.fixed:
            if target not in known:
                raise ValueError('%s: fixed parameter %r is no parameter of the operator' % (op.name, target))


def ufunc(name):
    """The ``mx.np`` function of a one-array operator by NumPy's ufunc convention: ``exp(x, out=None)``,
    NumPy's own function on numbers (``np=('exp',)`` in an entry stands for it)."""
    return Np('%s(x, out=None, **kwargs)' % name, numpy_scalars=True)


def plot_dims(attrs, key, default):
    """An attribute such as kernel='(5, 5)' as plot labels write it ('5x5'), or ``default``."""
    import re
    return 'x'.join(re.findall(r'\d+', attrs[key])) if key in attrs else default


@dataclasses.dataclass(frozen=True)
class Plot:
    """How plot_network draws an operator: its colour ``group`` (a key of viz's palette) and,
    when given, a ``label`` function (attrs as strings -> text); without one the node's name."""
    group: str
    label: Optional[Callable] = None


@dataclasses.dataclass(eq=False)
class OpDef:
    """One operator of the table."""
    name: str
    fn: Callable
    params: Tuple[P, ...] = ()
    # Names of array inputs, or a function of the parsed attributes returning them
    # (FullyConnected has no "bias" input when no_bias=True); called with None it returns every
    # input the operator can take.
    inputs: Union[Tuple[str, ...], Callable] = ('data',)
    # A variadic operator (concat, add_n) takes any number of arrays arg0, arg1, ...; 'num_args'
    # counts them. With a callable ``inputs`` it names them: (attrs, num_args) -> names.
    variadic: bool = False
    # The parameter counting a variadic operator's inputs (MXNet's key_var_num_args).
    num_args_param: str = 'num_args'
    # Inputs that are auxiliary states (BatchNorm's moving statistics), listed last in inputs;
    # or a function of the parsed attributes (Custom: the user's prop lists them).
    aux: Union[Tuple[str, ...], Callable] = ()
    # Number of outputs, or a function of the parsed attributes.
    num_outputs: Union[int, Callable] = 1
    # Outputs seen by the user; the rest are internal (MXNet's "visible outputs").
    num_visible_outputs: Union[int, Callable, None] = None
    # Names of the outputs in list_outputs ('output' when one).
    output_names: Union[Tuple[str, ...], Callable, None] = None
    aliases: Tuple[str, ...] = ()
    # The function takes '_train' (True in training mode: Dropout, BatchNorm).
    mode_dependent: bool = False
    # The function takes a PRNG key as keyword '_key' (random operators, Dropout).
    random: bool = False
    # The function returns updated auxiliary states after its outputs (BatchNorm in training).
    updates_aux: bool = False
    # MXNet writes those states when backward passes through the node, not in forward (so
    # recorded passes count only once backward runs, in backward order). A function
    # (attrs, before, after, now) -> states to store then, where before/after are the states the
    # forward read and computed and ``now`` the current ones, when another pass changed them since.
    rebase_aux: Optional[Callable] = None
    # Inputs the operator writes in place (MXNet's FMutateInputs: sgd_mom_update's mom): the
    # function returns their new values after its outputs, and eager calls store them. A
    # function of the parsed attributes where their number varies (multi_adamw_update's num_weights,
    # reset_arrays' num_arrays).
    mutate_inputs: Union[Tuple[str, ...], Callable] = ()
    # Parameters passed to the compiled function as traced values, not baked in
    # (the scalar of _mul_scalar), so that new values do not compile new kernels.
    dynamic_params: Tuple[str, ...] = ()
    # The input names a front-end call may give, from its raw keywords, where ``inputs`` cannot
    # tell without parsed attributes (Custom: the user's prop lists them); default inputs(None).
    call_inputs: Optional[Callable] = None
    # Keywords beyond ``params`` are accepted and kept as MXNet's strings (Custom hands them
    # to the user's CustomOpProp).
    open_params: bool = False
    # Creation operators make arrays from nothing: they take ctx and run on its device.
    creation: bool = False
    # Control flow: a node carries this many subgraphs, which the function takes as
    # ``_subgraphs`` (see ops/control_flow.py); it runs only as a node of a symbol graph.
    subgraphs: int = 0
    # Its first calls run the optimised program too, not the cheap tier's (ops/_tiers.py): the
    # samplers, whose draws must repeat after mx.random.seed whichever call makes them (the
    # optimised code fuses multiply-adds, the cheap code rounds them apart: low + (high - low) * u
    # differed in 11,755 of 40,000 uniform draws), and whose loops the cheap tier runs 10-30 times
    # slower (a million gamma draws 0.61 s against 0.07 s, compiled in 1.2 s against 1.4 s).
    optimised_at_once: bool = False
    doc: str = ''
    # ---- where the operator appears beyond nd.<name> and sym.<name> -------------------------
    # Python arithmetic it implements: Arith entries (``x + y`` on NDArrays is broadcast_add).
    arith: Tuple['Arith', ...] = ()
    # Names of the NDArray and Symbol methods that apply it to the array itself (``x.sum()``).
    methods: Tuple[str, ...] = ()
    # The ``mx.np`` functions and ``np.ndarray`` methods that are one call of it, with NumPy's
    # signatures (Np entries; a bare name stands for a ufunc of one array, ``np.exp(x, out=None)``),
    # and the names of the ``mx.npx`` functions (MXNet's calling convention).
    np: Tuple['Np', ...] = ()
    npx: Tuple[str, ...] = ()
    # The operator MXNet's NumPy front end puts in a graph where an mx.np/npx call of this one is
    # traced (``np.exp`` is ``_npi_exp``, ``x + 1`` is ``_npi_add_scalar``), set by set_np_graph_op;
    # None: this operator itself. Eager calls are unaffected.
    np_graph: Optional[str] = None
    # Shapes of inputs that follow from the data (a layer's weight from its input), as MXNet's
    # FInferShape gives them: (attrs, {input name: known shape}) -> {input name: shape}.
    input_shapes: Optional[Callable] = None
    # Output dtypes where they are not all the first input's (or the ``dtype`` parameter's), as
    # MXNet's FInferType gives them without shapes (``infer_type``): (attrs, input dtype names)
    # -> one dtype per output (topk's values keep the data's, its indices take ``dtype``).
    out_dtypes: Optional[Callable] = None
    # All array inputs and the output share one shape (elemwise_add, MXNet's ElemwiseShape): a
    # known one gives the others.
    same_shape_inputs: bool = False
    # Shape inference with unknown dimensions (``infer_shape_partial``) may reason through it;
    # False where MXNet's rule gives nothing until every input shape is known (``where``);
    # 'by_axis' where an unknown axis of the data leaves that output axis unknown whatever the
    # parameters say (``slice`` with an explicit begin and end), as MXNet's rule does.
    partial_shapes: Union[bool, str] = True
    # The output holds exactly the data's elements (Reshape): a fully known output fixes the one
    # unknown dimension of the data by its size, as MXNet's reshape shape rule does backwards.
    keeps_size: bool = False
    # Outputs MXNet's own graphs count for a node (JSON node_row_ptr), hidden ones included
    # (masks, saved statistics, workspaces), where the function returns fewer: int or fn(attrs).
    mxnet_outputs: Union[int, Callable, None] = None
    # Initialisers MXNet writes onto the variables fed to these inputs when a graph is composed
    # ({input name: initialiser JSON}: BatchNorm's moving_var starts at one).
    input_inits: Optional[dict] = None
    # How mx.viz.plot_network draws a node: a Plot (colour group and label), None for the default.
    plot: Optional['Plot'] = None
    # The operator written with NumPy, giving the same bits as ``fn`` compiled (exactly rounded
    # arithmetic, data movement): eager calls on the CPU run it while their shapes are new, so
    # a first call costs microseconds instead of a compile (see ops/_host.py). Same signature
    # as ``fn``, on numpy arrays.
    host: Optional[Callable] = None
    # Each output element is computed from the input elements at its own index, by the same code
    # wherever it sits (exp, add, comparisons): an eager call whose inputs share one new shape
    # runs the program compiled for that shape's size bucket instead (see ops/_host.py).
    pointwise: bool = False
    # A reduction an eager call on a new shape may compute as rows padded to a bucket size:
    # fn(attrs, input shape) -> ops._host.Rows (see ops/_host.py).
    rows: Optional[Callable] = None
    # The input axes along which an output element at some position depends only on the inputs
    # at that position or before it (elementwise maths, rows of a matrix product, a forward RNN
    # along time): padding such an axis at its end leaves the outputs at the real positions
    # exact, so a hybridized graph meeting a new length runs on its padded size bucket
    # (symbol/_buckets.py). ELEMENTWISE, MOVES, ORDER, or fn(attrs, input ndims) -> a frozenset of
    # allowed axes per input (``along_axes``); None: no axis. Creation operators with any rule
    # fill every position alike, so their shape may follow the padded size.
    along: Any = None
    # A recurrence along one of those axes that can stop after the real positions of a padded
    # input (a forward RNN along time): fn(attrs) -> (input index, axis), or None where it
    # cannot. Given ``_steps`` (a traced count), the function computes only the first ``_steps``
    # positions and repeats the last of them after, without gradient; a padded graph passes the
    # real length (symbol/_buckets.py), so a larger size bucket costs the recurrence nothing.
    steps: Optional[Callable] = None
    # How mx.onnx.export_model writes a node of the operator: fn(g, node) -> ONNX output names
    # (see ops/_onnx.py); None where there is no ONNX form (the export names the op and node).
    onnx: Optional[Callable] = None
    # The operator on row_sparse/csr storage (MXNet's FComputeEx with its storage-type rule), set
    # by ops/sparse.py through ``set_sparse_form``: fn(kernel, *inputs), inputs jax arrays or
    # ops.sparse.RowSparse/CSR, returning a tuple of outputs of either kind, or None where MXNet
    # falls back to dense storage. Run eagerly: sparse sizes depend on the data.
    sparse: Optional[Callable] = None
    # MXNet has no dense kernel for it (retain): eager calls on dense inputs run the sparse form
    # too, whose storage check refuses them.
    sparse_only: bool = False
    # The output's shape depends on input values (boolean_mask's count of selected rows):
    # fn(attrs, *inputs as numpy arrays) -> {keyword: value} of static keywords the function
    # also takes, read on the host before each eager call (``ops/_kernel.with_values``); in a
    # graph the keywords are absent and the function raises.
    value_attrs: Optional[Callable] = None
    # False where MXNet registers no gradient (FGradient) for the operator: binding a graph that
    # needs a gradient through it fails, as in MXNet (a stop_gradient above it makes it fine).
    gradient: bool = True
    _param_map: dict = dataclasses.field(default_factory=dict, repr=False)

    def __post_init__(self):
        self._param_map = {p.name: p for p in self.params}
        self.np = tuple(ufunc(spec) if isinstance(spec, str) else spec for spec in self.np)
        for spec in self.np:
            spec.check(self)

    @property
    def _default_attrs(self):
        return {p.name: p.default for p in self.params if not p.required}

    # -- attributes ------------------------------------------------------------------
    def parse_attrs(self, kwargs):
        """Parsed attribute values, defaults filled in, for the user's keyword arguments.

        Unknown names are rejected (ignored by an operator without parameters, as MXNet's
        ``broadcast_maximum(a, b, axis=1)``), required ones checked; ``kwargs`` values may be
        Python values or MXNet's strings.
        """
        attrs = {}
        for key, value in kwargs.items():
            p = self._param_map.get(key)
            if p is None and self.open_params:
                attrs[key] = value if isinstance(value, str) else _format(value)
                continue
            if p is None and not self.params:
                continue  # MXNet parses no attributes for an operator without parameters: extras are ignored
            if p is None:
                raise MXNetError('%s: unknown parameter %r; it takes %s'
                                 % (self.name, key, ', '.join(sorted(self._param_map)) or 'no parameters'))
            attrs[key] = p.parse(value, self.name)
        for p in self.params:
            if p.name not in attrs:
                if p.required:
                    raise MXNetError('%s: required parameter %r is missing' % (self.name, p.name))
                attrs[p.name] = p.default
        return attrs

    def format_attrs(self, kwargs):
        """MXNet's string form of the parameters the user gave (what symbol JSON stores)."""
        return {k: _format(v) for k, v in kwargs.items() if v is not None or k in self._param_map}

    @property
    def param_names(self):
        return tuple(self._param_map)

    # -- inputs and outputs ------------------------------------------------------------
    def shapes_from_data(self, attrs, data_shape):
        """{input name: shape} of the inputs that data of ``data_shape`` determines (a layer's
        weight and bias), by the operator's ``input_shapes`` rule."""
        if self.input_shapes is None:
            return {}
        return self.input_shapes(attrs, {'data': tuple(int(d) for d in data_shape)})

    def input_names(self, attrs, num_args=None):
        if self.variadic:
            n = num_args if num_args is not None else attrs.get(self.num_args_param, 1)
            if callable(self.inputs):  # variadic in some modes only (UpSampling: nearest, not bilinear)
                return tuple(self.inputs(attrs, n))
            return tuple('arg%d' % i for i in range(n))
        names = self.inputs(attrs) if callable(self.inputs) else self.inputs
        return tuple(names)

    def aux_names(self, attrs):
        """The names of the inputs that are auxiliary states (``aux``)."""
        return tuple(self.aux(attrs)) if callable(self.aux) else self.aux

    def mutated_inputs(self, attrs):
        """The names of the inputs the operator writes in place (``mutate_inputs``)."""
        m = self.mutate_inputs
        return tuple(m(attrs)) if callable(m) else m

    def n_outputs(self, attrs):
        return self.num_outputs(attrs) if callable(self.num_outputs) else self.num_outputs

    def n_visible_outputs(self, attrs):
        v = self.num_visible_outputs
        if v is None:
            return self.n_outputs(attrs)
        return v(attrs) if callable(v) else v

    def list_output_names(self, attrs):
        n = self.n_visible_outputs(attrs)
        names = self.output_names(attrs) if callable(self.output_names) else self.output_names
        if names is None:  # numbered as MXNet numbers them: by all outputs, hidden ones included
            total = self.n_outputs(attrs)
            names = ('output',) if total == 1 else tuple('output%d' % i for i in range(total))
        return tuple(names)[:n]


_TABLE = {}
_CANONICAL = {}


def register(name, *, params=(), inputs=('data',), aliases=(), **options):
    """Decorator adding a pure jax function to the table under ``name`` and its aliases."""
    def wrap(fn):
        _enter(OpDef(name=name, fn=fn, params=tuple(params), inputs=inputs,
                     aliases=tuple(aliases), doc=fn.__doc__ or '', **options))
        return fn
    return wrap


def _enter(op):
    """Put ``op`` in the table under its name and aliases, none of them taken before."""
    for key in (op.name,) + op.aliases:
        if key in _TABLE:
            raise ValueError('operator %r registered twice' % key)
        _TABLE[key] = op
    _CANONICAL[op.name] = op
    return op


def add_alias(name, *aliases):
    """Other MXNet names of operator ``name`` registered apart from its entry (MXNet's
    NumPy-mode aliases, ops/numpy_names.py): ``_npx_activation`` is Activation."""
    op = get_op(name)
    for alias in aliases:
        if alias in _TABLE:
            raise ValueError('operator %r registered twice' % alias)
        _TABLE[alias] = op
    op.aliases = op.aliases + tuple(aliases)


def set_np_graph_op(name, graph_name):
    """Operator ``graph_name`` stands for ``name`` in the graphs of traced mx.np/npx calls, as in
    MXNet's NumPy-mode -symbol.json (OpDef.np_graph)."""
    op, twin = get_op(name), get_op(graph_name)
    if twin.name != graph_name:
        raise ValueError('%r is an alias of %s, not an operator of its own' % (graph_name, twin.name))
    op.np_graph = graph_name


def register_like(name, base, inputs=None, aliases=()):
    """An entry ``name`` computing what ``base`` computes, with its own array input names
    (``inputs``): MXNet's NumPy-mode twin of a legacy operator (``_npi_exp(x)`` of ``exp(data)``).
    It is its own node in symbol JSON, as in MXNet, and takes over none of the base's front-end
    names (methods, mx.np functions, arithmetic) or sparse form."""
    like = get_op(base)
    return _enter(dataclasses.replace(like, name=name, inputs=like.inputs if inputs is None else tuple(inputs),
                                      aliases=tuple(aliases), arith=(), methods=(), np=(), npx=(), sparse=None,
                                      np_graph=None, _param_map={}))


def set_sparse_form(name, fn, sparse_aliases=True, sparse_only=False):
    """Give operator ``name`` its sparse form and MXNet's ``_sparse_<name>`` aliases (which put
    it in ``mx.nd.sparse`` under its public names: add_n and ElementWiseSum); without
    ``sparse_aliases`` where MXNet has none (BatchNorm's form only checks its storage rule);
    ``sparse_only`` where MXNet has no dense kernel (OpDef.sparse_only)."""
    op = get_op(name)
    if op.sparse is not None:
        raise ValueError('operator %r has two sparse forms' % name)
    op.sparse = fn
    op.sparse_only = sparse_only
    for public in (name,) + op.aliases if sparse_aliases else ():
        alias = '_sparse_' + public
        if not public.startswith('_') and alias not in _TABLE:
            _TABLE[alias] = op


def add_sparse_alias(name):
    """MXNet's ``_sparse_<name>`` alias for an operator that computes on dense storage here
    (MXNet lists it in ``mx.nd.sparse``)."""
    alias = '_sparse_' + name
    if alias not in _TABLE:
        _TABLE[alias] = get_op(name)


def find_op(name) -> Optional[OpDef]:
    return _TABLE.get(name)


def get_op(name) -> OpDef:
    op = _TABLE.get(name)
    if op is None:
        raise MXNetError('unknown operator %r: gluonjax has no operator by that name' % (name,))
    return op


def all_ops():
    """Every name (canonical names and aliases) with its OpDef."""
    return dict(_TABLE)


def canonical_ops():
    return dict(_CANONICAL)


# ---- views of the table for the front ends ---------------------------------------------------

def arith_table(front):
    """{function: {form: name to call}} of the Python arithmetic of one front end ('nd', 'sym',
    'np'), from the operators' ``arith`` entries; each slot is filled by exactly one operator."""
    table = {}
    for op in _CANONICAL.values():
        for a in op.arith:
            if a.front != front:
                continue
            slot = table.setdefault(a.function, {})
            if a.form in slot:
                raise ValueError('%s.%s (%s) is implemented by both %s and %s'
                                 % (front, a.function, a.form, slot[a.form], op.name))
            slot[a.form] = a.call_name or op.name
    return table


def named_by(field):
    """{public name: operator} for one naming field of the table ('methods', 'np', 'npx')."""
    if field == 'np':
        return {public: op for public, (op, _) in np_entries().items()}
    names = {}
    for op in _CANONICAL.values():
        for public in getattr(op, field):
            if public in names:
                raise ValueError('%s name %r is claimed by both %s and %s'
                                 % (field, public, names[public].name, op.name))
            names[public] = op
    return names


def np_entries(kind='function'):
    """{public name: (operator, Np entry)} of the ``mx.np`` functions (``kind='function'``, names
    such as 'linalg.inv' included) or of the ``np.ndarray`` methods (``kind='method'``)."""
    found = {}
    for op in _CANONICAL.values():
        for spec in op.np:
            names = spec.function_names if kind == 'function' else (spec.method_name,) if spec.method else ()
            for public in names:
                if public in found:
                    raise ValueError('np %s %r is claimed by both %s and %s'
                                     % (kind, public, found[public][0].name, op.name))
                found[public] = (op, spec)
    return found
