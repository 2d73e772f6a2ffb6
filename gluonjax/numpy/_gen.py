"""``mx.np`` functions and ``np.ndarray`` methods generated from the operator table.

An operator's ``np`` entries (:class:`gluonjax.ops._registry.Np`) give NumPy's signature of each
function that is one call of it (``'tril(m, k=0)'``); this module turns an entry into a function
with that signature (``inspect.signature`` shows it) and a docstring, as ``ndarray/_gen.py`` does
for ``mx.nd``. A call binds its arguments by the signature, hands the array parameters to the
operator as its inputs, the others as the operator parameters they name (parsed by the table's
own parameter kinds), and ``out=``/``ctx=`` to the call.
"""
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


class _Call:
    """One Np entry made ready to run: what each parameter of its signature is, worked out once."""

    def __init__(self, op, spec, public):
        self.op, self.spec, self.public = op, spec, public
        params = list(spec.python_signature.parameters.values())
        # without *args or keyword-only parameters, arguments are bound here (inspect's binder
        # costs more than the operator call)
        self.simple = all(p.kind in (p.POSITIONAL_OR_KEYWORD, p.VAR_KEYWORD) for p in params)
        self.names = [p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        self.defaults = {p.name: p.default for p in params if p.default is not p.empty}
        self.positions = {name: i for i, name in enumerate(self.names)}
        self.arrays = spec.array_parameters(op)
        self.sequence = bool(spec.star) or op.variadic  # one parameter holds all the arrays
        # None for an operator parameter that does not take None means the operator's default
        # (np.zeros' dtype=None is the operator's float32)
        self.targets = [(name, target, op._param_map[target].optional or op._param_map[target].default is None)
                        for name, target in spec.targets(op)]
        self.several = op.num_outputs != 1  # an int, or a function of the attributes
        self.unsupported = [(name, default) for name, default in spec.parameters if name in spec.unsupported]
        self.has_params = bool(self.targets or self.unsupported or spec.fixed or op.variadic)

    def bind(self, args, kwargs):
        """{parameter: value} of a call, defaults filled in; NumPy's ufunc keywords checked."""
        if not self.simple:
            try:
                bound = self.spec.python_signature.bind(*args, **kwargs)
            except TypeError as err:
                raise TypeError('%s(): %s' % (self.public, err)) from None
            bound.apply_defaults()
            return bound.arguments
        if len(args) > len(self.names):
            raise TypeError('%s() takes %d positional arguments but %d were given'
                            % (self.public, len(self.names), len(args)))
        bound = self.defaults.copy()
        bound.update(zip(self.names, args))
        if kwargs:
            extra = {}
            for key, value in kwargs.items():
                at = self.positions.get(key)
                if at is None and self.spec.ufunc_keywords:
                    extra[key] = value
                elif at is None:
                    raise TypeError('%s() got an unexpected keyword argument %r' % (self.public, key))
                elif at < len(args):
                    raise TypeError('%s() got multiple values for argument %r' % (self.public, key))
                else:
                    bound[key] = value
            check_ufunc_keywords(self.public, extra)
        if len(bound) < len(self.names):
            missing = [name for name in self.names if name not in bound]
            raise TypeError('%s() missing required argument(s) %s' % (self.public, ', '.join(map(repr, missing))))
        return bound

    def __call__(self, args, kwargs):
        bound = self.bind(args, kwargs)
        spec = self.spec
        if spec.numpy_scalars and all(is_scalar(bound[n]) for n in self.arrays):  # NumPy's own function
            return getattr(onp, spec.name)(*(bound[n] for n in self.names if n != 'out'))
        if self.sequence:
            arrays = [to_array(x, self.public, self.arrays[0]) for x in bound[self.arrays[0]]]
        else:
            arrays = [to_array(bound[n], self.public, n) for n in self.arrays]
        if spec.integers_only:
            check_integers(self.public, arrays)
        params = self.params(bound, len(arrays)) if self.has_params else None
        res = apply_op(self.op.name, arrays, params, out=bound.get('out'), ctx=bound.get('ctx'))
        if self.several and (isinstance(res, list) or (is_symbol(res) and len(res.list_outputs()) > 1)):
            res = (tuple if spec.tuple_outputs else list)(res)
        return res

    def params(self, bound, n_arrays):
        """The operator parameters of a call: the NumPy arguments under the names they map to."""
        for name, default in self.unsupported:
            if not _is_default(bound[name], default):
                raise NotImplementedError('%s: %s=%r is not supported (as in MXNet)' % (self.public, name, bound[name]))
        params = dict(self.spec.fixed)
        for name, target, takes_none in self.targets:
            value = bound[name]
            if value is not None or takes_none:
                params[target] = value
        if self.op.variadic:
            params['num_args'] = n_arrays
        return params


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
    run = _Call(op, spec, public)

    def fn(*args, **kwargs):
        return run(args, kwargs)
    fn.__name__ = fn.__qualname__ = public.rpartition('.')[2]
    fn.__signature__ = spec.python_signature
    fn.__doc__ = _doc(op, spec, public, fn.__signature__)
    fn.np_entry = (op, spec)  # where it comes from (tests/test_op_table.py reads it)
    return fn


def make_method(op, spec):
    """The ``np.ndarray`` method of ``spec``: the function with the array as ``self``."""
    public = spec.method_name
    run = _Call(op, spec, public)

    def method(self, *args, **kwargs):
        return run((self,) + args, kwargs)
    params = list(spec.python_signature.parameters.values())
    method.__name__ = method.__qualname__ = public
    method.__signature__ = spec.python_signature.replace(parameters=[params[0].replace(name='self')] + params[1:])
    method.__doc__ = _doc(op, spec, public, method.__signature__, method=True)
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
