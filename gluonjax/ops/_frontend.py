"""Turning table operators into front-end functions (nd.X, sym.X, F.X).

MXNet's generated functions take array inputs first, then parameters, either
positionally in the operator's declared order or by keyword; ``out=`` and
``name=`` are accepted everywhere. This module maps a call onto
(inputs, parameters) once, for every front end.
"""
import keyword

from ..base import MXNetError
from ._registry import get_op

_FRONTEND_KWARGS = ('out', 'name', 'ctx', 'attr')

# The Python operator behind each arithmetic function name of the front ends: a fact of Python,
# not of any operator (which operator implements ``add`` in which front end is in the table).
PYTHON_OPERATORS = {
    'add': 'add', 'subtract': 'sub', 'multiply': 'mul', 'divide': 'truediv', 'true_divide': 'truediv',
    'floor_divide': 'floordiv', 'modulo': 'mod', 'mod': 'mod', 'power': 'pow', 'equal': 'eq',
    'not_equal': 'ne', 'greater': 'gt', 'greater_equal': 'ge', 'lesser': 'lt', 'less': 'lt',
    'lesser_equal': 'le', 'less_equal': 'le', 'bitwise_and': 'and', 'bitwise_or': 'or', 'bitwise_xor': 'xor',
}
# Comparisons have no reflected form: Python turns ``2 < x`` into ``x > 2`` itself.
COMPARISONS = frozenset(('eq', 'ne', 'gt', 'ge', 'lt', 'le'))


def python_operators(front, defined):
    """[(dunder base name, function, {form: operator name})] for the Python operators of one
    front end that it ``defined`` (a collection of base names such as 'add', 'eq')."""
    from ._registry import arith_table
    found = []
    for function, slots in sorted(arith_table(front).items()):
        base = PYTHON_OPERATORS.get(function)
        if base in defined:
            found.append((base, function, slots))
    return found


class ArrayType:
    """The one dispatch protocol of the front ends: NDArray (and so ``mx.np.ndarray``) and
    Symbol derive from it, and each says how an operator applies to it. A generated function
    (``nd.relu``, ``npx.relu``) hands a call to the type of its first array input, so
    ``nd.relu(symbol)`` builds a graph node (Gluon 2 style ``forward`` being traced by
    hybridize()) without the nd front end knowing about symbols."""
    __slots__ = ()

    @classmethod
    def _apply_op(cls, op, hint, inputs, params, extras):
        """Apply OpDef ``op`` to ``inputs`` with parsed-or-raw ``params``; ``hint`` names a graph
        node, ``extras`` holds the front end's out=/ctx=/name=/attr= arguments."""
        raise NotImplementedError


def is_array(x):
    return isinstance(x, ArrayType)


def owner_of(inputs):
    """The array type that runs a call: the type of its first array input (None: no input)."""
    for x in inputs:
        if isinstance(x, ArrayType):
            return type(x)
    return None


def split_call(op, args, kwargs, is_array, array_slots=False):
    """(inputs, params, extras) of a front-end call to ``op``.

    Leading positional arguments for which ``is_array`` holds (or None) are the
    inputs; later positionals fill parameters in declared order; keywords naming
    inputs are inputs, the rest parameters. ``extras`` holds out/name/ctx/attr.
    With ``array_slots`` the first positionals fill the inputs whatever they are, and one that is
    not an array raises AssertionError, as MXNet's generated ``mx.nd`` functions assert.
    """
    extras = {k: kwargs.pop(k) for k in _FRONTEND_KWARGS if k in kwargs}
    args = list(args)
    if op.variadic:
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = list(args[0])
        inputs = [a for a in args]
        if 'data' in kwargs:
            d = kwargs.pop('data')
            inputs.extend(d if isinstance(d, (list, tuple)) else [d])
        kwargs.setdefault(op.num_args_param, len(inputs))
        return inputs, kwargs, extras
    names = op.input_names(op._default_attrs) if not callable(op.inputs) else _max_inputs(op, kwargs)
    inputs = []
    while args and (is_array(args[0]) or args[0] is None) and len(inputs) < len(names):
        inputs.append(args.pop(0))
    if array_slots and args and len(inputs) < len(names):
        raise AssertionError('%s: input %r must be an array, got %s'
                             % (op.name, names[len(inputs)], type(args[0]).__name__))
    if args:
        for p, value in zip(op.params, args):
            if p.name in kwargs:
                raise MXNetError('%s: parameter %r given both by position and by keyword' % (op.name, p.name))
            kwargs[p.name] = value
        if len(args) > len(op.params):
            raise MXNetError('%s: too many positional arguments (%d inputs and %d parameters expected)'
                             % (op.name, len(names), len(op.params)))
    named = {}
    for n in names:
        if n in kwargs:
            named[n] = kwargs.pop(n)
    if named:
        inputs = inputs + [None] * (len(names) - len(inputs))
        for i, n in enumerate(names):
            if n in named:
                if inputs[i] is not None:
                    raise MXNetError('%s: input %r given both by position and by keyword' % (op.name, n))
                inputs[i] = named[n]
    while inputs and inputs[-1] is None:
        inputs.pop()
    return inputs, kwargs, extras


def _max_inputs(op, kwargs=None):
    """Every input the operator can take (for optional inputs such as FullyConnected's bias)."""
    if op.call_inputs is not None and kwargs is not None:
        return op.call_inputs(kwargs)
    return op.inputs(None)


def function_doc(op):
    lines = [op.doc.strip() or op.name, '', 'Parameters', '----------']
    for n in (op.inputs if not callable(op.inputs) else _max_inputs(op)) if not op.variadic else ('*data',):
        lines.append('%s : NDArray or Symbol' % n)
    for p in op.params:
        lines.append('%s : %s%s' % (p.name, p.kind, '' if p.required else ', default %r' % (p.default,)))
    return '\n'.join(lines)


def named(fn, op, public_name):
    """``fn`` as the front-end function ``public_name`` of ``op``: its name and generated docstring."""
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = function_doc(op)
    return fn


def populate(namespace, make_function, prefixes=('',)):
    """Add ``make_function(op, short)`` to the dict ``namespace`` for every operator named
    ``<prefix><short>`` (aliases included) whose short name is free and not a keyword:
    ``mx.nd.sum`` with prefix '', ``mx.sym.linalg.gemm2`` for ``_linalg_gemm2``."""
    from . import all_ops
    for name, op in all_ops().items():
        for prefix in prefixes:
            short = name[len(prefix):]
            if name.startswith(prefix) and short and short not in namespace and not keyword.iskeyword(short):
                namespace[short] = make_function(op, short)


def lookup(name):
    return get_op(name)


# ---- MXNet's Python functions over one operator, in every front end --------------------------

def _split_v2(split_op):
    def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
        """Split ``ary`` along ``axis`` into equal sections (an int) or at the given indices
        (a tuple of ints, as numpy.split)."""
        if isinstance(indices_or_sections, int):
            return split_op(ary, axis=axis, squeeze_axis=squeeze_axis, sections=indices_or_sections)
        if isinstance(indices_or_sections, (tuple, list)):
            return split_op(ary, indices=(0,) + tuple(indices_or_sections), axis=axis, squeeze_axis=squeeze_axis)
        raise ValueError('split_v2: indices_or_sections must be an int or a tuple of ints, got %r'
                         % (indices_or_sections,))
    return split_v2


def _histogram(histogram_op):
    def histogram(a, bins=10, range=None):  # noqa: A002 (MXNet's parameter name)
        """(counts, bin edges) of the flattened ``a``: ``bins`` equal bins over ``range``, or the
        bins between the edges of the 1-D array ``bins``."""
        if is_array(bins):
            return histogram_op(a, bins)
        if not isinstance(bins, int):
            raise ValueError('histogram: bins must be an int or an array of edges, got %r' % (bins,))
        if range is None:
            if not hasattr(a, 'asnumpy'):
                raise ValueError('histogram: range must be given with a number of bins in symbol mode')
            values = a.asnumpy()  # NumPy's rule: the data's extent, widened when it is one value
            low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
            range = (low - 0.5, high + 0.5) if low == high else (low, high)
        return histogram_op(a, bin_cnt=bins, range=range)
    return histogram


def add_python_functions(namespace, array_type=None):
    """Add MXNet's Python functions that translate their arguments for one operator of
    ``namespace`` (mx.nd or mx.sym): ``split_v2`` over ``_split_v2``, ``histogram`` over ``_histogram``;
    ``split_v2`` is also a method of ``array_type`` (NDArray, Symbol), as in MXNet."""
    for public, make, op_name in (('split_v2', _split_v2, '_split_v2'), ('histogram', _histogram, '_histogram')):
        fn = make(namespace[op_name])
        fn.__name__ = fn.__qualname__ = public
        namespace[public] = fn
    if array_type is not None and 'split_v2' not in array_type.__dict__:
        array_type.split_v2 = namespace['split_v2']
