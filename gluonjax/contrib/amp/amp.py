"""Automatic mixed precision: matrix products in float16/bfloat16, the rest where it is safe.

``init()`` installs one cast policy in the two places every operator call passes: the eager
dispatch (``ndarray.invoke``) and symbol node creation (``symbol.create``, which hybridized
blocks trace through). For an operator on the low-precision list (FullyConnected,
Convolution, ...) the float inputs are cast to the target dtype with ``amp_cast``; for one on
the float32 list (softmax, norms, losses, reductions) back to float32; for one that needs
equal input dtypes (``+``, ``concat``) to the widest of them. Parameters stay float32 (the
master weights) and their gradients come back float32 through ``amp_cast``'s gradient.

Dynamic loss scaling (float16 gradients underflow): ``init_trainer`` gives the Trainer a
:class:`LossScaler`, ``scale_loss`` multiplies the loss by the scale and sets the Trainer to
divide the gradients by it, and the Trainer skips a step whose gradients overflowed.

Unlike MXNet 1.9.1, whose CPU operators cast NDArrays only between float32 and bfloat16,
both float16 and bfloat16 run on every device here.
"""
import contextlib
import logging

import numpy as np
import jax.numpy as jnp

from ... import symbol as _symbol_package  # noqa: F401  (mx.sym front end: installs Symbol methods)
from ...base import MXNetError
from ...ndarray import ndarray as _ndarray
from ...ops import find_op, get_op
from ...symbol import symbol as _symbol
from ...gluon import trainer as _trainer
from ...gluon.block import HybridBlock, SymbolBlock
from . import lists
from .loss_scaler import LossScaler

__all__ = ['init', 'init_trainer', 'scale_loss', 'unscale', 'convert_symbol', 'convert_model',
           'convert_hybrid_block', 'list_lp16_ops', 'list_fp32_ops', 'list_conditional_fp32_ops',
           'list_widest_type_cast', 'list_loss_output_functions', 'LossScaler']

_WIDEST = 'widest'
_FLOATS = ('float16', 'bfloat16', 'float32')  # float64 arrays are left alone, as in MXNet
_state = {'policy': None, 'loss_scaler': None, 'scaler_taken': False}
# MXNet's module flag, set by init(); libraries read it (GluonNLP masks attention with -1e4, not -1e18).
_amp_initialized = False


def _dtype_name(dtype):
    if dtype in ('bfloat16', jnp.bfloat16) or getattr(dtype, 'name', None) == 'bfloat16':
        return 'bfloat16'
    name = np.dtype(dtype).name
    if name != 'float16':
        raise ValueError("AMP supports target_dtype 'float16' or 'bfloat16', got %r" % (dtype,))
    return name


def _canonical(names):
    """The table's names of the operators ``names`` (MXNet names, aliases included) that exist."""
    found = (find_op(n) for n in names)
    return {op.name for op in found if op is not None}


class _Policy:
    """Which dtype each operator's float inputs are cast to: a dtype name, 'widest' or None."""

    def __init__(self, target, target_ops=None, fp32_ops=None, conditional_fp32_ops=None, excluded=()):
        self.target = target
        bf16 = target == 'bfloat16'
        if target_ops is None:
            target_ops = lists.BF16_FUNCS if bf16 else lists.FP16_FUNCS
        self.rules = {}
        # bfloat16 (MXNet's CPU lists): whatever is not known to run in bfloat16 runs in float32
        self.default = 'float32' if bf16 and fp32_ops is None else None
        for name in _canonical(lists.WIDEST_TYPE_CASTS):
            self.rules[name] = _WIDEST
        for name in _canonical(lists.BF16_FP32_FUNCS) if bf16 else ():
            self.rules[name] = None  # runs in bfloat16 or float32 alike
        if fp32_ops is not None or not bf16:
            for name in _canonical(lists.FP16_FP32_FUNCS if fp32_ops is None else fp32_ops):
                self.rules[name] = 'float32'
        for name in _canonical(target_ops):
            self.rules[name] = target
        for name in ('amp_cast', 'amp_multicast', 'Cast'):  # the casts themselves
            self.rules[name] = None
        self.conditional = {}
        for name, param, values in (lists.CONDITIONAL_FP32_FUNCS if conditional_fp32_ops is None
                                    else conditional_fp32_ops):
            op = find_op(name)
            if op is not None:
                self.conditional[op.name] = (param, tuple(values))
        self.excluded = set(excluded)
        self.loss_outputs = _canonical(lists.LOSS_OUTPUT_FUNCTIONS)

    def rule(self, op_name, attrs):
        if op_name in self.conditional:
            param, values = self.conditional[op_name]
            if str(attrs.get(param)) in values:
                return 'float32'
        return self.rules.get(op_name, self.default)


# ---- the eager dispatch --------------------------------------------------------------------
def _cast_array(x, dtype):
    current = np.dtype(x.dtype).name
    if current == dtype or current not in _FLOATS:
        return x
    return _ndarray.invoke('amp_cast', [x], {'dtype': dtype})


def _eager_casts(policy, scaler):
    """The hook ``ndarray.invoke`` calls with (operator, inputs, parameters) under AMP."""
    def cast_inputs(op_name, inputs, kwargs):
        if op_name in policy.loss_outputs:
            kwargs['grad_scale'] = float(kwargs.get('grad_scale', 1.0)) * scaler.loss_scale
        rule = policy.rule(op_name, kwargs)
        if rule is None or not inputs:
            return inputs
        n_aux = len(get_op(op_name).aux_names(kwargs))
        data, aux = inputs[:len(inputs) - n_aux], inputs[len(inputs) - n_aux:]
        if rule == _WIDEST:
            names = [np.dtype(x.dtype).name for x in data]
            rule = 'float32' if 'float32' in names else policy.target
        return [_cast_array(x, rule) for x in data] + list(aux)
    return cast_inputs


# ---- symbol graphs -------------------------------------------------------------------------
def _cast_entries(policy, op, attrs, entries, names, naming):
    """``entries`` ((node, index) pairs feeding ``op``) with amp_cast / amp_multicast nodes in
    front of the non-auxiliary ones, as the policy's rule for ``op`` says; ``naming(entry,
    what)`` names a new node (None: the current NameManager's automatic name)."""
    rule = policy.rule(op.name, attrs)
    if rule is None:
        return entries
    aux = op.aux_names(attrs)
    positions = [i for i, n in enumerate(names[:len(entries)]) if n not in aux]
    if rule == _WIDEST:
        if len(positions) < 2:
            return entries
        group = _symbol.create(get_op('amp_multicast'), [_symbol.Symbol([entries[i]]) for i in positions],
                               {'num_outputs': len(positions)}, name=naming(entries[positions[0]], 'amp_multicast'))
        entries = list(entries)
        for k, i in enumerate(positions):
            entries[i] = group._outputs[k]
        return entries
    entries = list(entries)
    for i in positions:
        node, _ = entries[i]
        if node.op is not None and node.op.name == 'amp_cast' and node.attrs.get('dtype') == rule:
            continue  # already cast to that dtype
        cast = _symbol.create(get_op('amp_cast'), [_symbol.Symbol([entries[i]])], {'dtype': rule},
                              name=naming(entries[i], 'amp_cast_' + rule))
        entries[i] = cast._outputs[0]
    return entries


def _symbol_casts(policy):
    """The hook ``symbol.create`` calls with (operator, parsed parameters, entries, names)."""
    def cast(op, attrs, entries, names):
        return _cast_entries(policy, op, attrs, entries, names, lambda entry, what: None)
    return cast


# ---- the public API --------------------------------------------------------------------------
def init(target_dtype='float16', target_precision_ops=None, conditional_fp32_ops=None, fp32_ops=None):
    """Turn AMP on for every operator called from now on (once per process, as in MXNet).

    target_dtype : 'float16' or 'bfloat16'
    target_precision_ops, fp32_ops : lists of operator names replacing AMP's lists
    conditional_fp32_ops : list of (operator, parameter, [values]) run in float32 for those values
    """
    if _state['policy'] is not None:
        return
    policy = _Policy(_dtype_name(target_dtype), target_precision_ops, fp32_ops, conditional_fp32_ops)
    scaler = LossScaler()
    global _amp_initialized
    _state.update(policy=policy, loss_scaler=scaler)
    _amp_initialized = True
    _ndarray.amp_hook = _eager_casts(policy, scaler)
    _symbol.amp_hook = _symbol_casts(policy)
    logging.info('Using AMP')


def _check_trainer(trainer):
    if not isinstance(trainer, _trainer.Trainer):
        raise TypeError('AMP is only compatible with a Gluon Trainer, got %s' % type(trainer).__name__)


def init_trainer(optimizer_or_trainer):
    """Give a Trainer dynamic loss scaling (after :func:`init`)."""
    if _state['policy'] is None:
        raise MXNetError('AMP not initialized, did you forget to call amp.init()?')
    _check_trainer(optimizer_or_trainer)
    # the first trainer shares the scaler that scales loss-output layers' gradients
    scaler = LossScaler() if _state['scaler_taken'] else _state['loss_scaler']
    _state['scaler_taken'] = True
    optimizer_or_trainer._amp_loss_scaler = scaler
    optimizer_or_trainer._amp_original_scale = optimizer_or_trainer._scale


@contextlib.contextmanager
def scale_loss(loss, optimizer_or_trainer):
    """``with amp.scale_loss(loss, trainer) as scaled: scaled.backward()``: the loss (or list
    of losses) times the loss scale; the trainer's next step divides the gradients by it."""
    trainer = optimizer_or_trainer
    scaler = getattr(trainer, '_amp_loss_scaler', None)
    if scaler is None:
        raise MXNetError('Loss scaler is not initialized, did you forget to call amp.init_trainer()?')
    trainer._scale = trainer._amp_original_scale / scaler.loss_scale
    if isinstance(loss, (list, tuple)):
        yield [l * scaler.loss_scale for l in loss]
    else:
        yield loss * scaler.loss_scale


def unscale(optimizer_or_trainer):
    """Divide the gradients by the loss scale now (before clipping them, say)."""
    trainer = optimizer_or_trainer
    _check_trainer(trainer)
    for param in trainer._params:
        if param.grad_req == 'null':
            continue
        for grad in param.list_grad():
            grad[:] = grad * trainer._scale
    trainer._scale = 1.0


def convert_symbol(sym, target_dtype='float16', target_dtype_ops=None, fp32_ops=None,
                   conditional_fp32_ops=None, excluded_sym_names=None, data_names=None,
                   cast_optional_params=False):
    """A copy of ``sym`` with AMP's casts in front of the operators AMP's lists name.

    The casts are named ``<input>_amp_cast_<dtype>`` as MXNet names them; operators named in
    ``excluded_sym_names`` keep their inputs. Parameters are not converted
    (``cast_optional_params`` is accepted and ignored: amp_cast casts them at run time).
    """
    policy = _Policy(_dtype_name(target_dtype), target_dtype_ops, fp32_ops, conditional_fp32_ops,
                     excluded_sym_names or ())
    outputs = _symbol.copy_graph(sym._outputs)

    def naming(entry, what):
        node, index = entry
        return '%s_%s' % (node.name if node.is_variable else node.output_name(index), what)
    for node in _symbol.topo_order([n for n, _ in outputs]):
        if node.is_variable or node.name in policy.excluded or node.op.name in ('amp_cast', 'amp_multicast'):
            continue
        entries = [(src, index) for src, index, _ in node.inputs]
        versions = [version for _, _, version in node.inputs]
        new = _cast_entries(policy, node.op, node.parsed(), entries, node.input_names(), naming)
        node.inputs = [(src, index, version if (src, index) == old else 0)
                       for (src, index), old, version in zip(new, entries, versions)]
    for node in _symbol.topo_order([n for n, _ in outputs]):
        node._avals = _symbol._UNSET  # dtypes changed: infer again
    return _symbol.Symbol(outputs)


def convert_model(sym, arg_params, aux_params, target_dtype='float16', target_dtype_ops=None,
                  fp32_ops=None, conditional_fp32_ops=None, excluded_sym_names=None,
                  cast_optional_params=False):
    """(converted symbol, arg_params, aux_params): the parameters stay float32 master copies."""
    converted = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops, conditional_fp32_ops,
                               excluded_sym_names, cast_optional_params=cast_optional_params)
    return converted, dict(arg_params), dict(aux_params)


def convert_hybrid_block(block, target_dtype='float16', target_dtype_ops=None, fp32_ops=None,
                         conditional_fp32_ops=None, excluded_sym_names=None, ctx=None,
                         cast_optional_params=False):
    """A SymbolBlock running ``block``'s graph with AMP's casts, sharing its Parameters.

    ``block`` must be a HybridBlock that was hybridized and called once (its graph is known).
    """
    if not isinstance(block, HybridBlock):
        raise ValueError('convert_hybrid_block: block must be a HybridBlock, got %s' % type(block).__name__)
    graph = getattr(block, '_cached_graph', ())
    if not graph:
        raise RuntimeError('convert_hybrid_block: call block.hybridize() and run the block once first, '
                           'so that its graph is known')
    inputs, out = graph
    converted = convert_symbol(out, target_dtype, target_dtype_ops, fp32_ops, conditional_fp32_ops,
                               excluded_sym_names, cast_optional_params=cast_optional_params)
    return SymbolBlock(converted, list(inputs), params=block.collect_params())


def list_lp16_ops(target_dtype):
    """The operators AMP runs in ``target_dtype``."""
    return list(lists.BF16_FUNCS if _dtype_name(target_dtype) == 'bfloat16' else lists.FP16_FUNCS)


def list_fp32_ops(target_dtype):
    """The operators AMP runs in float32 (for bfloat16: every operator not listed elsewhere)."""
    return list(lists.FP16_FP32_FUNCS)


def list_conditional_fp32_ops(target_dtype):
    return [(name, param, list(values)) for name, param, values in lists.CONDITIONAL_FP32_FUNCS]


def list_widest_type_cast(target_dtype):
    return list(lists.WIDEST_TYPE_CASTS)


def list_loss_output_functions(target_dtype):
    return list(lists.LOSS_OUTPUT_FUNCTIONS)
