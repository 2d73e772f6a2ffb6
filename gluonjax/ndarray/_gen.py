"""Generating ``mx.nd.*`` functions and NDArray methods from the operator table."""
from ..base import MXNetError
from ..ops._frontend import function_doc, is_array, named, owner_of, split_call
from ..ops._registry import named_by
from .ndarray import NDArray, invoke


def _is_array(x):
    return isinstance(x, NDArray)


def _check_num_args(op, inputs, params):
    """MXNet runs an operator on exactly the inputs its attributes name: nd.stack(a, b,
    num_args=3) is refused, not read as two inputs."""
    given = params.get(op.num_args_param)
    if given is not None and not callable(op.inputs) and int(given) != len(inputs):
        raise MXNetError('%s: expects %s=%d inputs, but got %d'
                         % (op.name, op.num_args_param, int(given), len(inputs)))


def make_function(op, public_name):
    hint = public_name.lower()

    def fn(*args, **kwargs):
        inputs, params, extras = split_call(op, args, dict(kwargs), is_array, array_slots=True)
        owner = owner_of(inputs)
        if owner is not None and not issubclass(owner, NDArray):  # e.g. a Symbol: its own graph node
            return owner._apply_op(op, hint, inputs, params, extras)
        if callable(op.inputs) and any(x is None for x in inputs):
            # an optional input passed as None is left out and the later ones move up, as MXNet's
            # generated functions skip None arrays (ctc_loss(x, label, None, label_lengths,
            # use_label_lengths=True) has inputs data, label, label_lengths)
            inputs = [x for x in inputs if x is not None]
        for i, x in enumerate(inputs):
            if not isinstance(x, NDArray):  # MXNet's generated functions assert their array inputs
                names = op.input_names(params) if not op.variadic else ['data'] * len(inputs)
                raise AssertionError('%s: input %r must be an NDArray, got %s'
                                 % (op.name, names[i] if i < len(names) else i, type(x).__name__))
        if op.variadic:
            _check_num_args(op, inputs, params)
        return invoke(op.name, inputs, params, out=extras.get('out'), ctx=extras.get('ctx'))
    return named(fn, op, public_name)


def _method(op, public_name):
    def method(self, *args, **kwargs):
        if not args and not kwargs:  # x.sum(): skip argument matching on the hot path
            return invoke(op.name, [self], {})
        inputs, params, extras = split_call(op, (self,) + args, dict(kwargs), _is_array)
        return invoke(op.name, inputs, params, out=extras.get('out'))
    method.__name__ = public_name
    method.__doc__ = function_doc(op)
    return method


def add_methods():
    """NDArray methods named by the table's ``methods`` (``x.sum()``), where NDArray has no
    hand-written one (``reshape`` takes MXNet's special shape codes in Python)."""
    for public, op in named_by('methods').items():
        if public not in NDArray.__dict__:
            setattr(NDArray, public, _method(op, public))
