"""``mx.np`` functions and ``np.ndarray`` methods generated from the operator table.

An operator's ``np`` entries (:class:`gluonjax.ops._registry.Np`) give NumPy's signature of each
function that is one call of it (``'tril(m, k=0)'``); this module turns an entry into a function
with that signature (``inspect.signature`` shows it) and a docstring, as ``ndarray/_gen.py`` does
for ``mx.nd``. A call binds its arguments by the signature, hands the array parameters to the
operator as its inputs, the others as the operator parameters they name (parsed by the table's
own parameter kinds), and ``out=``/``ctx=`` to the call.
"""
import ast
import inspect
import numbers

import numpy as onp

from ..base import MXNetError
from ..ndarray.ndarray import NDArray
from ..ops._registry import REQUIRED, np_entries
from ._core import apply_op, is_scalar, is_symbol, to_array

# NumPy's ufunc keywords and the only values MXNet's ufuncs accept for them.
UFUNC_KEYWORDS = {'where': True, 'casting': 'same_kind', 'order': 'K', 'dtype': None, 'subok': True}


_CASTINGS = ('no', 'equiv', 'safe', 'same_kind', 'unsafe')


def check_ufunc_keywords(public, kwargs):
    for key, value in kwargs.items():
        if key not in UFUNC_KEYWORDS:
            raise TypeError('%s() got an unexpected keyword argument %r' % (public, key))
        # a value NumPy itself rejects is a TypeError; a valid one MXNet lacks is NotImplementedError
        if key == 'dtype' and value is not None:
            onp.dtype(value)
        if key == 'casting' and value not in _CASTINGS:
            raise TypeError('%s: casting must be one of %s, got %r' % (public, ', '.join(_CASTINGS), value))
        if value != UFUNC_KEYWORDS[key]:
            raise NotImplementedError('%s: %s=%r is not supported (only %r)' % (public, key, value, UFUNC_KEYWORDS[key]))


def check_integers(public, arrays):
    for x in arrays:
        if isinstance(x, NDArray) and x.dtype.kind not in 'iub':
            raise MXNetError('%s: only integer and bool arrays are supported, got %s' % (public, x.dtype))


def _is_default(value, default):
    return value is default or (isinstance(value, (str, numbers.Number)) and value == default)


def _is_several(res):
    return isinstance(res, list) or (is_symbol(res) and len(res.list_outputs()) > 1)


def _rows(res):
    """An array's rows as a tuple (a Symbol stays the operator's one output)."""
    return res if is_symbol(res) else tuple(res[i] for i in range(res.shape[0]))


# What the generated functions call; their own locals start with '_' so that no NumPy parameter
# name (``arrays`` of np.stack, ``a``, ...) can shadow them.
_RUNTIME = {'_apply': apply_op, '_to_array': to_array, '_is_scalar': is_scalar, '_onp': onp,
            '_is_default': _is_default, '_is_several': _is_several, '_rows': _rows, '_check_integers': check_integers,
            '_check_ufunc_keywords': check_ufunc_keywords, '_NotImplementedError': NotImplementedError}


def _parameter_list(spec, rename):
    """Python's text of ``spec``'s signature, defaults read from the namespace ``_D``."""
    parts, keyword_only = [], False
    for p in spec.python_signature.parameters.values():
        name = rename.get(p.name, p.name)
        if p.kind is p.VAR_POSITIONAL:
            parts.append('*' + name)
            keyword_only = True
            continue
        if p.kind is p.VAR_KEYWORD:
            parts.append('**' + name)
            continue
        if p.kind is p.KEYWORD_ONLY and not keyword_only:
            parts.append('*')
            keyword_only = True
        parts.append(name if p.default is p.empty else '%s=_D[%r]' % (name, p.name))
    return ', '.join(parts)


def _body(op, spec, public, rename):
    """The lines of a generated function: one straight-line call of the operator."""
    var = lambda name: rename.get(name, name)  # noqa: E731 (the method's array is 'self')
    names = [name for name, _ in spec.parameters]
    arrays = spec.array_parameters(op)
    lines = []
    if spec.ufunc_keywords:
        keywords = var(_var_keyword(spec))
        lines.append('if %s: _check_ufunc_keywords(%r, %s)' % (keywords, public, keywords))
    if spec.numpy_scalars:  # NumPy's own function on numbers
        lines.append('if %s: return _onp.%s(%s)' % (' and '.join('_is_scalar(%s)' % var(n) for n in arrays),
                                                     spec.name, ', '.join(var(n) for n in names if n != 'out')))
    if spec.star or op.variadic:  # one parameter holds all the arrays
        lines.append('_arrays = [_to_array(_x, %r, %r) for _x in %s]' % (public, arrays[0], var(arrays[0])))
    else:
        lines.append('_arrays = [%s]' % ', '.join('_to_array(%s, %r, %r)' % (var(n), public, n) for n in arrays))
    if spec.integers_only:
        lines.append('_check_integers(%r, _arrays)' % public)
    for name in spec.unsupported:
        lines.append('if not _is_default(%s, _D[%r]): raise _NotImplementedError(%r %% (%s,))'
                     % (var(name), name, '%s: %s=%%r is not supported (as in MXNet)' % (public, name), var(name)))
    always, unless_none = [], []
    for name, target in spec.targets(op):
        param = op._param_map[target]
        # None is either a value the operator takes, or means its default (np.zeros' dtype=None
        # is the operator's float32)
        (always if param.optional or param.default is None else unless_none).append((name, target))
    for target, value in spec.fixed:  # written into the source as they print
        if ast.literal_eval(repr(value)) != value:
            raise TypeError('%s: fixed parameter %s=%r is not a literal' % (public, target, value))
    lines.append('_params = {%s}' % ', '.join(['%r: %r' % kv for kv in spec.fixed] +
                                              ['%r: %s' % (target, var(name)) for name, target in always]))
    for name, target in unless_none:
        lines.append('if %s is not None: _params[%r] = %s' % (var(name), target, var(name)))
    if op.variadic:
        lines.append('_params[%r] = len(_arrays)' % op.num_args_param)
    lines.append('_res = _apply(%r, _arrays, _params, out=%s, ctx=%s)'
                 % (op.name, var('out') if 'out' in names else None, var('ctx') if 'ctx' in names else None))
    if op.num_outputs != 1:  # an int, or a function of the attributes
        lines.append('if _is_several(_res): _res = %s(_res)' % ('tuple' if spec.tuple_outputs else 'list'))
    if spec.rows_as_tuple:
        lines.append('_res = _rows(_res)')
    lines.append('return _res')
    return lines


def _var_keyword(spec):
    return next(p.name for p in spec.python_signature.parameters.values() if p.kind is p.VAR_KEYWORD)


def _generate(op, spec, public, method=False):
    """A plain Python function with NumPy's signature that makes one call of the operator.

    Written as source and compiled once per entry, so that Python binds the arguments itself
    and a call costs what a hand-written wrapper costs."""
    first = spec.parameters[0][0] if spec.parameters else None
    rename = {first: 'self'} if method else {}
    short = spec.method_name if method else public.rpartition('.')[2]
    source = 'def %s(%s):\n%s\n' % (short, _parameter_list(spec, rename),
                                      '\n'.join('    ' + line for line in _body(op, spec, public, rename)))
    namespace = dict(_RUNTIME, _D=dict(spec.parameters))
    exec(compile(source, '<gluonjax.np %s>' % public, 'exec'), namespace)  # noqa: S102 (our own text)
    fn = namespace[short]
    fn.__source__ = source  # for readers and tests: what the entry became
    return fn


def _doc(op, spec, public, signature, method=False):
    arrays = spec.array_parameters(op)
    targets = dict(spec.targets(op))
    lines = ['%s%s' % (public, signature), '', inspect.cleandoc(op.doc or op.name).split('\n\n')[0], '',
             'One call of the operator ``%s``%s.' % (op.name, ''.join(', %s=%r' % kv for kv in spec.fixed)), '',
             'Parameters', '----------']
    for i, (name, default) in enumerate(spec.parameters):
        if method and i == 0:
            continue
        if name in arrays:
            text = 'ndarray (the operator\'s input%s)' % ('s' if op.variadic or spec.star else '')
        elif name == 'out':
            text = 'ndarray, optional: the array the result is written into'
        elif name == 'ctx':
            text = 'Context, optional: the device of the result (the current context by default)'
        elif name in spec.unsupported:
            text = 'only %r is supported, as in MXNet' % (default,)
        elif name in spec.ignored:
            text = 'accepted for NumPy compatibility; it changes nothing'
        else:
            p = op._param_map[targets[name]]
            given = '' if default is REQUIRED else ', default %r' % (default,)
            text = '%s%s (the operator\'s parameter %r)' % (p.kind, given, p.name)
        lines.append('%s : %s' % (name, text))
    if spec.star:
        lines.append('*%s : ndarray (the operator\'s inputs)' % spec.star)
    return '\n'.join(lines)


def make_function(op, spec, public):
    """The ``mx.np`` function ``public`` (a name of ``spec``) of operator ``op``."""
    fn = _generate(op, spec, public)
    fn.__qualname__ = fn.__name__
    fn.__signature__ = spec.python_signature
    fn.__doc__ = _doc(op, spec, public, fn.__signature__)
    fn.np_entry = (op, spec)  # where it comes from (tests/test_op_table.py reads it)
    return fn


def make_method(op, spec):
    """The ``np.ndarray`` method of ``spec``: the function with the array as ``self``."""
    method = _generate(op, spec, spec.method_name, method=True)
    params = list(spec.python_signature.parameters.values())
    method.__signature__ = spec.python_signature.replace(parameters=[params[0].replace(name='self')] + params[1:])
    method.__doc__ = _doc(op, spec, spec.method_name, method.__signature__, method=True)
    method.np_entry = (op, spec)
    return method


def functions(namespace=''):
    """{name: function} of the table's ``mx.np`` functions in ``namespace`` ('' or 'linalg')."""
    found = {}
    for public, (op, spec) in np_entries('function').items():
        space, _, short = public.rpartition('.')
        if space == namespace:
            found[short] = make_function(op, spec, public)
    return found


def methods():
    """{name: method} of the table's ``np.ndarray`` methods."""
    return {public: make_method(op, spec) for public, (op, spec) in np_entries('method').items()}
