"""``mx.operator``: operators written in Python, as MXNet's CustomOp / CustomOpProp / register.

::

    @mx.operator.register('sqr')
    class SqrProp(mx.operator.CustomOpProp):
        def create_operator(self, ctx, in_shapes, in_dtypes):
            return Sqr()

    class Sqr(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * in_data[0])
        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])

    y = mx.nd.Custom(x, op_type='sqr')          # also mx.sym.Custom, F.Custom in hybrid_forward

The table's ``Custom`` operator (gluonjax/ops/custom.py) runs forward and backward on the host;
as in MXNet, one CustomOp instance serves a forward and the backward that follows it (per
input shapes and dtypes), so state kept on ``self`` in forward is there in backward. The
keyword arguments of the call reach the prop's constructor as strings, as in MXNet.
"""
import collections
import ctypes
import functools

import numpy as np

from . import autograd, profiler
from .base import MXNetError
from .context import cpu
from .ndarray.ndarray import NDArray, array
from .ops import _registry, custom as _custom

__all__ = ['CustomOp', 'CustomOpProp', 'register', 'get_all_registered_operators', 'PythonOp', 'NumpyOp',
           'OperatorArguments', 'get_operator_arguments',
           # MXNet's module exports everything it imports; monitor callbacks written for MXNet
           # (``NDArray(ctypes.cast(arr, NDArrayHandle))``) take these from ``mxnet.operator import *``.
           'ctypes', 'NDArray', 'NDArrayHandle']

# MXNet's C handle type; a gluonjax NDArray passes for one (NDArray._as_parameter_).
NDArrayHandle = ctypes.c_void_p


class CustomOp:
    """The computation of a Python operator: override ``forward`` and ``backward``."""

    def forward(self, is_train, req, in_data, out_data, aux):
        """Compute ``out_data`` from ``in_data`` (lists of NDArrays), writing with ``assign``."""
        raise NotImplementedError('%s.forward' % type(self).__name__)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Compute ``in_grad`` from ``out_grad``, writing with ``assign``."""
        raise NotImplementedError('%s.backward' % type(self).__name__)

    def assign(self, dst, req, src):
        """Write ``src`` into ``dst`` as ``req`` says: 'write'/'inplace' copy, 'add' adds, 'null' skips."""
        if req == 'null':
            return
        if req in ('write', 'inplace'):
            dst[:] = src
        elif req == 'add':
            dst[:] += src
        else:
            raise MXNetError("CustomOp.assign: req must be 'null', 'write', 'inplace' or 'add', got %r" % (req,))


class CustomOpProp:
    """What a Python operator takes and gives: its inputs, outputs, shapes and types."""

    def __init__(self, need_top_grad=True):
        self.need_top_grad_ = need_top_grad

    def list_arguments(self):
        return ['data']

    def list_outputs(self):
        return ['output']

    def list_auxiliary_states(self):
        return []

    def infer_shape(self, in_shape):
        """(input shapes, output shapes, aux shapes); by default every output has input 0's shape."""
        return in_shape, [in_shape[0]] * len(self.list_outputs()), []

    def infer_type(self, in_type):
        """(input types, output types, aux types); by default input 0's type everywhere."""
        return (in_type, [in_type[0]] * len(self.list_outputs()),
                [in_type[0]] * len(self.list_auxiliary_states()))

    def infer_storage_type(self, in_stype):
        return in_stype, ['default'] * len(self.list_outputs()), ['default'] * len(self.list_auxiliary_states())

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        deps = list(in_data) + list(out_data)
        return (list(out_grad) if self.need_top_grad_ else []) + deps

    def create_operator(self, ctx, in_shapes, in_dtypes):
        raise NotImplementedError('%s.create_operator' % type(self).__name__)


def register(reg_name):
    """Class decorator registering a CustomOpProp subclass under ``op_type=reg_name``."""
    def do_register(prop_cls):
        if not (isinstance(prop_cls, type) and issubclass(prop_cls, CustomOpProp)):
            raise TypeError('mx.operator.register(%r): expects a CustomOpProp subclass, got %r' % (reg_name, prop_cls))
        _custom.PROPS[reg_name] = prop_cls
        _instance.cache_clear()  # a new definition under an old name takes effect
        return prop_cls
    return do_register


def get_all_registered_operators():
    """Every operator name, as MXNet lists them: the operator table's names and aliases, and the
    Python operators registered with ``mx.operator.register``."""
    return sorted(set(_registry.all_ops()) | set(_custom.PROPS))


OperatorArguments = collections.namedtuple('OperatorArguments', ['narg', 'names', 'types'])


def get_operator_arguments(op_name):
    """The array inputs and parameters of an operator with MXNet's type descriptions:
    ``get_operator_arguments('Activation').types`` is
    ``['NDArray-or-Symbol', "{'relu', 'sigmoid', 'softrelu', 'softsign', 'tanh'}, required"]``."""
    op = _registry.get_op(op_name)
    if op.variadic:
        names, types = ['data'], ['NDArray-or-Symbol[]']
    else:
        names = list(op.inputs(None) if callable(op.inputs) else op.inputs)
        types = ['NDArray-or-Symbol'] * len(names)
    names += [p.name for p in op.params]
    types += [p.type_str() for p in op.params]
    return OperatorArguments(len(names), names, types)


@functools.lru_cache(maxsize=256)
def _instance(spec):
    """The CustomOp serving one (attributes, shapes, dtypes): made once, as MXNet makes one per bind."""
    attrs, (in_shapes, in_types, _, _) = dict(spec[0]), spec[1]
    prop = _custom.make_prop(attrs)
    return prop, prop.create_operator(cpu(), [list(s) for s in in_shapes], [np.dtype(t) for t in in_types])


def _arrays(values):
    return [array(np.asarray(v), dtype=np.asarray(v).dtype) for v in values]


def _user_call(spec, stage, fn):
    op_type = dict(spec[0])['op_type']
    try:
        with autograd.pause(), profiler.custom_operator(op_type, stage):
            return fn()
    except MXNetError as err:
        raise MXNetError('Custom %r: %s: %s' % (op_type, stage, err)) from None
    except Exception as err:
        raise MXNetError('Custom %r: %s raised %s: %s' % (op_type, stage, type(err).__name__, err)) from None


def _results(spec, stage, arrays, shapes, dtypes):
    out = []
    for i, (a, shape, dtype) in enumerate(zip(arrays, shapes, dtypes)):
        value = a.asnumpy() if isinstance(a, NDArray) else np.asarray(a)
        if value.shape != tuple(shape):
            raise MXNetError('Custom %r: %s gave output %d of shape %s, %s was declared'
                             % (dict(spec[0])['op_type'], stage, i, value.shape, tuple(shape)))
        out.append(value.astype(dtype, copy=False))
    return tuple(out)


def _forward(spec, is_train, *values):
    prop, op = _instance(spec)
    n_args = len(prop.list_arguments())
    in_shapes, in_types, out_shapes, out_types = spec[1]
    arrays = _arrays(values)
    outs = [array(np.zeros(s, dtype=t)) for s, t in zip(out_shapes, out_types)]
    _user_call(spec, 'forward', lambda: op.forward(is_train=is_train, req=['write'] * len(outs),
                                                    in_data=arrays[:n_args], out_data=outs, aux=arrays[n_args:]))
    # the auxiliary states follow the outputs, as the forward wrote them
    return (_results(spec, 'forward', outs, out_shapes, out_types)
            + _results(spec, 'forward', arrays[n_args:], in_shapes[n_args:], in_types[n_args:]))


def _backward(spec, n_in, *values):
    prop, op = _instance(spec)
    n_args = len(prop.list_arguments())
    in_shapes, in_types, out_shapes, out_types = spec[1]
    n_out = len(out_shapes)
    grads, ins, outs = values[:n_out], values[n_out:n_out + n_in], values[n_out + n_in:]
    ins = _arrays(ins)
    in_grad = [array(np.zeros(s, dtype=t)) for s, t in zip(in_shapes, in_types)]
    _user_call(spec, 'backward', lambda: op.backward(req=['write'] * n_args, out_grad=_arrays(grads),
                                                     in_data=ins[:n_args], out_data=_arrays(outs),
                                                     in_grad=in_grad[:n_args], aux=ins[n_args:]))
    return _results(spec, 'backward', in_grad, in_shapes, in_types)


_custom.HOST.update(forward=_forward, backward=_backward)


# ---- MXNet's older Python operators: PythonOp / NumpyOp (deprecated there, kept for old scripts) ----

class PythonOp:
    """An operator whose forward and backward are Python methods; by default the identity.
    Override ``forward(in_data, out_data)``, ``backward(out_grad, in_data, out_data, in_grad)``,
    ``infer_shape``, ``list_arguments`` and ``list_outputs``; ``get_symbol(*args, **kwargs)`` (or
    calling the object) gives its symbol."""

    def __init__(self, need_top_grad=True):
        self.need_top_grad_ = need_top_grad

    def __call__(self, *args, **kwargs):
        return self.get_symbol(*args, **kwargs)

    def get_symbol(self, *args, **kwargs):
        raise NotImplementedError('%s.get_symbol' % type(self).__name__)

    def forward(self, in_data, out_data):
        out_data[0][:] = in_data[0]

    def backward(self, out_grad, in_data, out_data, in_grad):
        in_grad[0][:] = out_grad[0]

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]]

    def list_outputs(self):
        return ['output']

    def list_arguments(self):
        return ['data']

    def need_top_grad(self):
        return self.need_top_grad_


class NumpyOp(PythonOp):
    """A PythonOp computing on NumPy arrays: ``forward`` and ``backward`` fill the given output
    arrays in place. Its symbol is a ``Custom`` node of an operator type registered for this
    object, so it runs wherever Custom does."""

    def get_symbol(self, *args, **kwargs):
        from . import symbol  # the symbol layer is below this one
        op_type = '_numpy_op_%d' % id(self)
        if op_type not in _custom.PROPS:
            register(op_type)(_numpy_op_prop(self))
        return symbol.Custom(*args, op_type=op_type, **kwargs)


def _numpy_op_prop(numpy_op):
    """A CustomOpProp class running ``numpy_op``'s methods on NumPy copies of the arrays."""

    class _Op(CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            outs = [np.zeros(o.shape, o.dtype) for o in out_data]
            numpy_op.forward(in_data=[x.asnumpy() for x in in_data], out_data=outs)
            for dst, r, src in zip(out_data, req, outs):
                self.assign(dst, r, array(src, dtype=src.dtype))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            grads = [np.zeros(g.shape, g.dtype) for g in in_grad]
            numpy_op.backward(out_grad=[g.asnumpy() for g in out_grad], in_data=[x.asnumpy() for x in in_data],
                              out_data=[y.asnumpy() for y in out_data], in_grad=grads)
            for dst, r, src in zip(in_grad, req, grads):
                self.assign(dst, r, array(src, dtype=src.dtype))

    class _Prop(CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=numpy_op.need_top_grad())

        def list_arguments(self):
            return numpy_op.list_arguments()

        def list_outputs(self):
            return numpy_op.list_outputs()

        def infer_shape(self, in_shape):
            ins, outs = numpy_op.infer_shape(in_shape)[:2]
            return ins, outs, []

        def create_operator(self, ctx, in_shapes, in_dtypes):
            return _Op()

    return _Prop
