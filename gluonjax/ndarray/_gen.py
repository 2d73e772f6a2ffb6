"""Generating ``mx.nd.*`` functions and NDArray methods from the operator table."""
from ..base import MXNetError
from ..ops._frontend import split_call, function_doc, named
from .ndarray import NDArray, invoke


def _is_array(x):
    return isinstance(x, NDArray)


def _symbolic_call(args, kwargs):
    """Whether a call holds Symbols: Gluon-2 style ``forward`` code being traced by hybridize()."""
    from ..symbol import Symbol
    return (any(isinstance(a, Symbol) for a in args)
            or any(isinstance(v, Symbol) for v in kwargs.values()))


def make_function(op, public_name):
    def fn(*args, **kwargs):
        if (not args or not isinstance(args[0], NDArray)) and _symbolic_call(args, kwargs):
            from .. import symbol
            return getattr(symbol, public_name)(*args, **kwargs)
        inputs, params, extras = split_call(op, args, dict(kwargs), _is_array)
        for i, x in enumerate(inputs):
            if not isinstance(x, NDArray):
                names = op.input_names(params) if not op.variadic else ['data'] * len(inputs)
                raise MXNetError('%s: input %r must be an NDArray, got %s'
                                 % (op.name, names[i] if i < len(names) else i, type(x).__name__))
        return invoke(op.name, inputs, params, out=extras.get('out'), ctx=extras.get('ctx'))
    return named(fn, op, public_name)


# NDArray methods that are operators applied to the array itself.
METHODS = {
    'sum': 'sum', 'nansum': 'nansum', 'mean': 'mean', 'max': 'max', 'min': 'min', 'prod': 'prod',
    'nanprod': 'nanprod', 'norm': 'norm', 'argmax': 'argmax', 'argmin': 'argmin',
    'argmax_channel': 'argmax_channel', 'argsort': 'argsort', 'sort': 'sort', 'topk': 'topk',
    'exp': 'exp', 'expm1': 'expm1', 'log': 'log', 'log10': 'log10', 'log2': 'log2', 'log1p': 'log1p',
    'sqrt': 'sqrt', 'rsqrt': 'rsqrt', 'cbrt': 'cbrt', 'rcbrt': 'rcbrt', 'square': 'square',
    'reciprocal': 'reciprocal', 'abs': 'abs', 'sign': 'sign', 'round': 'round', 'rint': 'rint',
    'fix': 'fix', 'floor': 'floor', 'ceil': 'ceil', 'trunc': 'trunc', 'sin': 'sin', 'cos': 'cos',
    'tan': 'tan', 'arcsin': 'arcsin', 'arccos': 'arccos', 'arctan': 'arctan', 'sinh': 'sinh',
    'cosh': 'cosh', 'tanh': 'tanh', 'arcsinh': 'arcsinh', 'arccosh': 'arccosh', 'arctanh': 'arctanh',
    'degrees': 'degrees', 'radians': 'radians', 'sigmoid': 'sigmoid', 'relu': 'relu',
    'softmax': 'softmax', 'log_softmax': 'log_softmax', 'softmin': 'softmin', 'clip': 'clip',
    'expand_dims': 'expand_dims', 'squeeze': 'squeeze', 'flatten': 'Flatten', 'tile': 'tile',
    'repeat': 'repeat', 'pad': 'pad', 'swapaxes': 'SwapAxis', 'slice': 'slice',
    'slice_axis': 'slice_axis', 'slice_like': 'slice_like', 'take': 'take', 'pick': 'pick',
    'one_hot': 'one_hot', 'flip': 'reverse', 'diag': 'diag', 'dot': 'dot', 'batch_dot': 'batch_dot',
    'depth_to_space': 'depth_to_space', 'space_to_depth': 'space_to_depth', 'shape_array': 'shape_array',
    'size_array': 'size_array', 'erf': 'erf', 'gamma': 'gamma', 'gammaln': 'gammaln',
}


def _method(op_name, public_name):
    from ..ops import find_op
    op = find_op(op_name)

    def method(self, *args, **kwargs):
        if not args and not kwargs:  # x.sum(): skip argument matching on the hot path
            return invoke(op.name, [self], {})
        inputs, params, extras = split_call(op, (self,) + args, dict(kwargs), _is_array)
        return invoke(op.name, inputs, params, out=extras.get('out'))
    method.__name__ = public_name
    method.__doc__ = function_doc(op)
    return method


def add_methods():
    from ..ops import find_op
    for public, op_name in METHODS.items():
        if find_op(op_name) is not None and public not in NDArray.__dict__:
            setattr(NDArray, public, _method(op_name, public))
