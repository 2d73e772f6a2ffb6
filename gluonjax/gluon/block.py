"""Blocks: ``Block``, ``HybridBlock`` and ``SymbolBlock``.

A Block owns Parameters and child Blocks and computes ``forward``. Names follow MXNet:
a Block created outside any scope is named from a global counter per class
(``dense0_``), one created inside a parent's ``name_scope()`` gets the parent's prefix and
a counter local to the parent (``hybridsequential0_dense1_``); Parameters are named
``prefix + name`` (``dense0_weight``), and those names are the keys of parameter files.

``HybridBlock.hybridize()`` makes later calls run a compiled graph: the first call with a
new input signature traces ``hybrid_forward`` with ``F = mx.sym`` and Symbols that carry
the real shapes (so ``x.shape`` works), and the graph is compiled with ``jax.jit`` as one
pure function of (inputs, parameters, PRNG key); see :mod:`gluonjax.gluon._cached_graph`.
"""
import collections
import copy
import os
import re
import threading
import warnings

import numpy as np

from .. import initializer
from .. import name as _name
from ..base import MXNetError
from ..context import on_host_cpu
from .. import symbol
from ..ndarray import NDArray
from ..ndarray.ndarray import _STORAGE_TYPE_STR_TO_ID
from ..symbol import Symbol
from .parameter import Parameter, ParameterDict, DeferredInitializationError, _trace_state
from .utils import _indent, HookHandle
from . import _export
from ..numpy._state import to_np as _to_np  # npx.set_np(): Blocks return mx.np arrays
from ..numpy._state import is_np_array as _is_np_array

__all__ = ['Block', 'HybridBlock', 'SymbolBlock']


class _BlockScope:
    """The scope of a Block's ``name_scope()``: children created inside get its prefix."""
    _current = threading.local()

    def __init__(self, block):
        self._block = block
        self._counter = {}
        self._entries = []  # (the scope it replaced, its name prefix) per active entry

    @staticmethod
    def create(prefix, params, hint):
        """The prefix and ParameterDict of a new Block, from the scope it is created in."""
        current = getattr(_BlockScope._current, 'value', None)
        if current is None:
            if prefix is None:
                prefix = _name.current().get(None, hint) + '_'
            if params is None:
                params = ParameterDict(prefix)
            else:
                params = ParameterDict(params.prefix, params)
            return prefix, params
        if prefix is None:
            count = current._counter.get(hint, 0)
            prefix = '%s%d_' % (hint, count)
            current._counter[hint] = count + 1
        if params is None:
            parent = current._block.params
            params = ParameterDict(parent.prefix + prefix, parent._shared)
        else:
            params = ParameterDict(params.prefix, params)
        return current._block.prefix + prefix, params

    def __enter__(self):
        if self._block._empty_prefix:
            return self
        # re-entrant: a Block's scope may be entered again inside itself (deferred shape
        # inference while it is traced), so each entry keeps what it replaced
        name_scope = _name.Prefix(self._block.prefix)
        self._entries.append((getattr(_BlockScope._current, 'value', None), name_scope))
        _BlockScope._current.value = self
        name_scope.__enter__()
        return self

    def __exit__(self, ptype, value, trace):
        if self._block._empty_prefix:
            return
        old_scope, name_scope = self._entries.pop()
        name_scope.__exit__(ptype, value, trace)
        _BlockScope._current.value = old_scope


# ---------------------------------------------------------------------------------------
# Nested inputs and outputs
# ---------------------------------------------------------------------------------------

def _flatten(args, inout_str):
    """A flat list of arrays (or Symbols, or None) and a format to rebuild the nesting."""
    if isinstance(args, NDArray):
        return [args], 0
    if Symbol and isinstance(args, Symbol):
        length = len(args.list_outputs())
        return [args], (length if length > 1 else 0)
    if args is None:
        return [None], -1
    if not isinstance(args, (list, tuple)):
        raise ValueError('When hybridized, the %s of HybridBlock must be (nested) list of Symbol '
                         'or NDArray, but got %s of type %s' % (inout_str, str(args), type(args)))
    flat, fmts = [], []
    for item in args:
        arg, fmt = _flatten(item, inout_str)
        flat.extend(arg)
        fmts.append(fmt)
    return flat, fmts


def _arrays_in(args):
    """The NDArrays and Symbols in nested lists, other values (scalars) passed over: what an
    unhybridized HybridBlock looks at, as MXNet's ``_gather_type_ctx_info``."""
    if isinstance(args, NDArray) or (Symbol and isinstance(args, Symbol)):
        return [args]
    if isinstance(args, (list, tuple)):
        return [a for item in args for a in _arrays_in(item)]
    return []


def _regroup(args, fmt):
    """Inverse of _flatten."""
    def merge(args, fmt):
        if isinstance(fmt, int):
            if fmt == 0:
                return args[0], args[1:]
            if fmt == -1:
                return None, args[1:]
            return list(args[:fmt]), args[fmt:]
        ret = []
        for f in fmt:
            res, args = merge(args, f)
            ret.append(res)
        return ret, args
    return merge(args, fmt)[0]


def _size_family(sig, other):
    """``sig`` (``_runner_for``'s signature) with the sizes that differ from ``other``'s as -1, or
    None where the two differ in more than sizes (formats, ranks, dtypes) or in nothing."""
    if len(sig) != len(other) or sig[0] != other[0]:
        return None
    family = [sig[0]]
    for a, b in zip(sig[1:], other[1:]):
        if a is None or b is None:
            if a is not b:
                return None
            family.append(None)
            continue
        (shape_a, dtype_a), (shape_b, dtype_b) = a, b
        if dtype_a != dtype_b or len(shape_a) != len(shape_b):
            return None
        family.append((tuple(x if x == y else -1 for x, y in zip(shape_a, shape_b)), dtype_a))
    family = tuple(family)
    return None if family == sig else family


def _in_family(sig, family):
    if len(sig) != len(family) or sig[0] != family[0]:
        return False
    for a, f in zip(sig[1:], family[1:]):
        if a is None or f is None:
            if a is not f:
                return False
            continue
        if a[1] != f[1] or len(a[0]) != len(f[0]) or any(y != -1 and x != y for x, y in zip(a[0], f[0])):
            return False
    return True


def _freeze_fmt(fmt):
    return tuple(_freeze_fmt(f) for f in fmt) if isinstance(fmt, list) else fmt


# ---------------------------------------------------------------------------------------
# Block
# ---------------------------------------------------------------------------------------

class Block:
    """Base class of all layers and models; subclass it and write ``forward``.

    Children assigned as attributes are registered (``self.dense = nn.Dense(20)``);
    create them inside ``with self.name_scope():`` so their names carry this Block's prefix.

    Parameters
    ----------
    prefix : str, optional
        Prefix of the names of this Block's Parameters and children.
    params : ParameterDict, optional
        Parameters to share with another Block (``params=other.collect_params()``).
    """

    # summary() lists a container's children, not the container itself (as MXNet, which
    # skips Sequential and HybridSequential); the containers, a layer above, set it.
    _summary_skips = False

    def __init__(self, prefix=None, params=None):
        self._empty_prefix = prefix == ''
        self._prefix, self._params = _BlockScope.create(prefix, params, self._alias())
        self._name = self._prefix[:-1] if self._prefix.endswith('_') else self._prefix
        self._scope = _BlockScope(self)
        self._children = collections.OrderedDict()
        self._reg_params = {}
        self._forward_hooks = collections.OrderedDict()
        self._forward_pre_hooks = collections.OrderedDict()

    def __repr__(self):
        modstr = '\n'.join('  ({key}): {block}'.format(key=key, block=_indent(repr(block), 2))
                           for key, block in self.__dict__.items() if isinstance(block, Block))
        return '{name}(\n{modstr}\n)'.format(name=self.__class__.__name__, modstr=modstr)

    def __setattr__(self, name, value):
        """Registers child Blocks and Parameters assigned as attributes."""
        if hasattr(self, name):
            existing = getattr(self, name)
            if isinstance(existing, (Parameter, Block)) and not isinstance(value, type(existing)):
                raise TypeError('Changing attribute type for {name} from {type1} to {type2} is not '
                                'allowed.'.format(name=name, type1=type(existing), type2=type(value)))
        if isinstance(value, Block):
            self.register_child(value, name)
        elif isinstance(value, Parameter):
            if name in self._reg_params and self._reg_params[name] is not value:
                raise AssertionError("Overriding Parameter attribute %s is not allowed. If you want to "
                                 "share parameters between blocks, please set 'params' at Block "
                                 "construction instead." % name)
            self._reg_params[name] = value
            self._adopt_parameter(value)
        super().__setattr__(name, value)

    def _adopt_parameter(self, param):
        """Put a Parameter made outside ``self.params.get`` (Gluon-2 style) into this Block's dict.

        Its name gets the Block's prefix (``scale`` becomes ``mynet0_scale``) once, so that
        two Blocks of the same class do not clash in collect_params() and files.
        """
        if any(p is param for p in self._params.values()):
            return
        if not getattr(param, '_adopted', False):
            if self._prefix and not param.name.startswith(self._prefix):
                param.name = self._prefix + param.name
            param._adopted = True
        self._params._params[param.name] = param

    def _check_container_with_block(self):
        children = set(id(c) for c in self._children.values())

        def unregistered(data):
            if isinstance(data, (list, tuple)):
                return any(unregistered(e) for e in data)
            if isinstance(data, dict):
                return any(unregistered(v) for v in data.values())
            return isinstance(data, Block) and id(data) not in children
        for k, v in self.__dict__.items():
            if isinstance(v, (list, tuple, dict)) and not (k.startswith('__') or k == '_children'):
                if unregistered(v):
                    warnings.warn('"{name}" is an unregistered container with Blocks. Note that '
                                  'Blocks inside the list, tuple or dict will not be registered '
                                  'automatically. Make sure to register them using register_child() '
                                  'or switching to nn.Sequential/nn.HybridSequential instead.'
                                  .format(name=self.__class__.__name__ + '.' + k), stacklevel=3)

    def _alias(self):
        return self.__class__.__name__.lower()

    @property
    def prefix(self):
        """Prefix of this Block's names (``dense0_``)."""
        return self._prefix

    @property
    def name(self):
        """Name of this Block: the prefix without the trailing '_'."""
        return self._name

    def name_scope(self):
        """A ``with`` scope in which children and Symbols get this Block's prefix."""
        return self._scope

    @property
    def params(self):
        """This Block's own ParameterDict (not its children's)."""
        return self._params

    def _describe(self):
        return "%s (%s)" % (self.name or '<unnamed>', type(self).__name__)

    def collect_params(self, select=None):
        """A ParameterDict of this Block's and its children's Parameters.

        ``select`` is a regular expression matched against full names
        (``'.*weight|.*bias'``).
        """
        self._check_container_with_block()
        ret = ParameterDict(self._params.prefix)
        if not select:
            ret.update(self.params)
        else:
            pattern = re.compile(select)
            ret.update({n: p for n, p in self.params.items() if pattern.match(n)})
        for child in self._children.values():
            ret.update(child.collect_params(select=select))
        return ret

    def _collect_params_with_prefix(self, prefix=''):
        """Parameters keyed by their structural name: attribute names joined by '.'."""
        if prefix:
            prefix += '.'
        ret = {prefix + key: val for key, val in self._reg_params.items()}
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    # ---- files -----------------------------------------------------------------------------
    def save_parameters(self, filename, deduplicate=False):
        """Save the Parameters under their structural names (``0.weight``) with mx.nd.save."""
        _export.save_parameters(self, filename, deduplicate)

    def save_params(self, filename):
        """[Deprecated] Save with full names minus this Block's prefix; use save_parameters."""
        warnings.warn('save_params is deprecated. Please use save_parameters. Note that if you '
                      'want load from SymbolBlock later, please use export instead.')
        self.collect_params().save(filename, strip_prefix=self.prefix)

    def load_parameters(self, filename, ctx=None, allow_missing=False, ignore_extra=False,
                        cast_dtype=False, dtype_source='current'):
        """Load Parameters from a file written by save_parameters, ParameterDict.save or export.

        All three of MXNet's naming schemes are recognised: structural names (``0.weight``),
        full names (``dense0_weight``, also without this Block's prefix) and export names
        (``arg:dense0_weight``). When the global name counters differ between the saving and
        the loading program (``dense3_`` vs ``dense0_``), names are also matched after
        removing the prefix the names have in common. The file is checked completely before
        any Parameter changes.
        """
        _export.load_parameters(self, filename, ctx, allow_missing, ignore_extra, cast_dtype, dtype_source)

    def load_params(self, filename, ctx=None, allow_missing=False, ignore_extra=False):
        """[Deprecated] Use load_parameters."""
        warnings.warn('load_params is deprecated. Please use load_parameters.')
        self.load_parameters(filename, ctx, allow_missing, ignore_extra)

    def save(self, prefix):
        """Save the parameters to ``prefix-model.params`` and, as MXNet, the Block tree to
        ``prefix-model.json``: each Block (by class and creation order) with its name and the keys
        its parent gave its children, so that ``load`` into a Block built the same way finds the
        parameters even when the children's names (and keys made from them) differ."""
        import json

        def describe(blk, index, structure):
            entry = {'orig_name': blk.name, 'children': {},
                     'hybridized': bool(isinstance(blk, HybridBlock) and blk._active)}
            structure[type(blk).__name__.lower() + str(index[0])] = entry
            for key, child in blk._children.items():
                index[0] += 1
                entry['children'][child.name] = key
                describe(child, index, entry)
        model = {}
        describe(self, [0], model)
        with open(prefix + '-model.json', 'w') as f:
            json.dump(model, f)
        self.save_parameters(prefix + '-model.params')

    def load(self, prefix):
        """Load what ``save`` wrote: give the children back the keys they had when saved (and
        hybridize the Blocks that were), then load the parameters."""
        import json
        with open(prefix + '-model.json') as f:
            model = json.load(f)

        def restore(blk, index, structure):
            label = type(blk).__name__.lower() + str(index[0])
            if label not in structure:
                raise MXNetError('load: %s-model.json has no %s: the Block is not built as the saved one was'
                                 % (prefix, label))
            entry = structure[label]
            saved_names = []
            for child in blk._children.values():
                index[0] += 1
                saved_names.append(restore(child, index, entry))
            children = list(blk._children.values())
            blk._children.clear()
            for child, saved in zip(children, saved_names):
                blk._children[entry['children'][saved]] = child
            if entry.get('hybridized') and isinstance(blk, HybridBlock):
                blk._active = True
            return entry['orig_name']
        restore(self, [0], model)
        self.load_parameters(prefix + '-model.params')

    # ---- structure ---------------------------------------------------------------------------
    def register_child(self, block, name=None):
        """Register ``block`` as a child; attributes that are Blocks are registered already."""
        if name is None:
            name = str(len(self._children))
        self._children[name] = block

    def register_forward_pre_hook(self, hook):
        """Call ``hook(block, inputs)`` before every forward; returns a HookHandle."""
        handle = HookHandle()
        handle.attach(self._forward_pre_hooks, hook)
        return handle

    def register_forward_hook(self, hook):
        """Call ``hook(block, inputs, outputs)`` after every forward; returns a HookHandle."""
        handle = HookHandle()
        handle.attach(self._forward_hooks, hook)
        return handle

    def register_op_hook(self, callback, monitor_all=False):
        """Accepted for compatibility; compiled XLA graphs have no per-operator callbacks."""
        for child in self._children.values():
            child.register_op_hook(callback, monitor_all)

    def apply(self, fn):
        """Apply ``fn(block)`` to every descendant, then to this Block; returns self."""
        for child in self._children.values():
            child.apply(fn)
        fn(self)
        return self

    def initialize(self, init=initializer.Uniform(), ctx=None, verbose=False, force_reinit=False):
        """Initialise the Parameters of this Block and its children (``collect_params().initialize``)."""
        self.collect_params().initialize(init, ctx, verbose, force_reinit)

    def hybridize(self, active=True, **kwargs):
        """Hybridize the HybridBlocks among the children (a plain Block itself stays eager)."""
        for child in self._children.values():
            child.hybridize(active, **kwargs)

    def cast(self, dtype):
        """Cast the Parameters of this Block and its children to ``dtype``."""
        for child in self._children.values():
            child.cast(dtype)
        for _, param in self.params.items():
            param.cast(dtype)

    def zero_grad(self):
        """Set the gradients of all Parameters to 0."""
        self.collect_params().zero_grad()

    def reset_ctx(self, ctx):
        self.collect_params().reset_ctx(ctx)

    # ---- running -----------------------------------------------------------------------------
    def __call__(self, *args):
        """Run ``forward`` (with the hooks)."""
        hooks_on = not _hooks_quiet()
        if hooks_on:
            for hook in self._forward_pre_hooks.values():
                hook(self, args)
        out = _to_np(self.forward(*args))
        if hooks_on:
            for hook in self._forward_hooks.values():
                hook(self, args, out)
        return out

    def forward(self, *args):
        """Override to compute the output from NDArrays."""
        raise NotImplementedError

    def summary(self, *inputs):
        """Print each layer's output shape and parameter count for a forward pass on ``inputs``."""
        summary = collections.OrderedDict()
        seen = set()
        hooks = []

        def shape_str(args):

            def conv(a):
                if isinstance(a, (list, tuple)):
                    return [conv(x) for x in a]
                return a.shape if isinstance(a, NDArray) else a
            shapes = conv(args)
            if isinstance(shapes, list):
                return str(shapes)[1:-1]
            return str(shapes)

        def register(block):
            if isinstance(block, HybridBlock) and block._active:
                raise AssertionError('"{}" must not be hybridized to print summary.'.format(block.name))

            def hook(block, _, outputs):
                key = '%s-%i' % (block.__class__.__name__, len(summary))
                entry = summary[key] = collections.OrderedDict()
                entry['output_shape'] = shape_str(outputs)
                n_params = trainable = shared = 0
                for p in block.params.values():
                    size = p.data().size
                    n_params += size
                    trainable += 0 if p.grad_req == 'null' else size
                    if id(p) in seen:
                        shared += size
                    else:
                        seen.add(id(p))
                entry['n_params'], entry['trainable'], entry['shared'] = n_params, trainable, shared
            if not block._summary_skips:
                hooks.append(block.register_forward_hook(hook))

        summary['Input'] = collections.OrderedDict(
            output_shape=shape_str(inputs), n_params=0, trainable=0, shared=0)
        try:
            self.apply(register)
            self(*inputs)
            line = '{:>20}  {:>42} {:>15}'
            print('-' * 80)
            print(line.format('Layer (type)', 'Output Shape', 'Param #'))
            print('=' * 80)
            total = trainable = shared = 0
            for layer, entry in summary.items():
                print(line.format(layer, str(entry['output_shape']), entry['n_params']))
                total += entry['n_params']
                trainable += entry['trainable']
                shared += entry['shared']
            print('=' * 80)
            print('Parameters in forward computation graph, duplicate included')
            print('   Total params: ' + str(total))
            print('   Trainable params: ' + str(trainable))
            print('   Non-trainable params: ' + str(total - trainable))
            print('Shared params in forward computation graph: ' + str(shared))
            print('Unique parameters in model: ' + str(total - shared))
            print('-' * 80)
        finally:
            for h in hooks:
                h.detach()


# ---------------------------------------------------------------------------------------
# HybridBlock
# ---------------------------------------------------------------------------------------

class _TraceScope:
    """Marks a trace in progress: Parameter.data() returns Symbols meanwhile."""

    def __enter__(self):
        _trace_state.depth = getattr(_trace_state, 'depth', 0) + 1

    def __exit__(self, *exc):
        _trace_state.depth -= 1


class _QuietHooks:
    """Marks a trace whose Blocks run no forward hooks: a hybridized Block's trace of a new
    input signature after its first. MXNet traces a hybridized Block once (its CachedOp then
    serves every shape), so the hooks of its children ran then, and only then."""

    def __init__(self, quiet):
        self._quiet = quiet

    def __enter__(self):
        self._before = _hooks_quiet()
        _trace_state.quiet_hooks = self._before or self._quiet

    def __exit__(self, *exc):
        _trace_state.quiet_hooks = self._before


def _hooks_quiet():
    return getattr(_trace_state, 'quiet_hooks', False)


def _trace_error(block, err):
    """Annotate an error raised while tracing ``block`` with the Block's path (once)."""
    if getattr(err, '_gluon_block_path', False):
        return err
    if getattr(block, '_implicitly_hybridized', False):
        msg = 'in %s: %s' % (block._describe(), err)
    else:
        msg = 'while tracing %s for hybridize(): %s' % (block._describe(), err)
    new = None
    if not isinstance(err, MXNetError):
        # the user's code failed (a TypeError for a wrong number of inputs): MXNet lets that
        # exception through with its own type; operators fail with MXNetError
        try:
            new = type(err)(msg)
        except Exception:  # an exception class with another constructor
            new = None
    elif type(err) is not MXNetError and hasattr(err, 'where'):
        # NotImplementedForSymbol (x.asnumpy() on a traced input): MXNet's type, the path in front
        new = type(err).__new__(type(err))
        new.__dict__.update(err.__dict__)
        new.args = err.args
        new.where = msg[:len(msg) - len(str(err))]
    if new is None:
        new = MXNetError(msg)
    new._gluon_block_path = True
    return new


def _check_np_outputs(out):
    """Under NumPy semantics a Block's outputs are converted to ``mx.np`` arrays (gluonjax's layers
    compute with classic operators), but outputs mixing ``mx.np`` arrays with classic NDArrays (or
    NumPy-style with classic Symbols) are the user's mix-up: a TypeError, as in MXNet."""
    if not _is_np_array() or not isinstance(out, (list, tuple)):
        return
    from ..numpy._core import np_class
    from ..numpy._symbol import NumpySymbol
    arrays = [o for o in _flatten(list(out), 'output')[0] if isinstance(o, (NDArray, Symbol))]
    if len(set(isinstance(o, (np_class(), NumpySymbol)) for o in arrays)) > 1:
        raise TypeError("Block's output ndarrays/symbols must all be of type mxnet.numpy.ndarray or "
                        "NumPy-style Symbols under NumPy semantics; got both those and classic %s"
                        % ('Symbols' if isinstance(arrays[0], Symbol) else 'NDArrays'))


def _print_infer_failure(inputs, infer_fn='infer_shape', attr='shape'):
    """What MXNet's Symbol.infer_shape (infer_type) prints on stdout when it fails: the graph's
    inputs (``data``, or ``data0``, ``data1``, ... for several) and their shapes (dtypes)."""
    arrays = [a for a in _flatten(list(inputs), 'input')[0] if a is not None]
    names = ['data'] if len(arrays) == 1 else ['data%d' % i for i in range(len(arrays))]
    print('%s error. Arguments:' % infer_fn)
    for name, a in zip(names, arrays):
        value = getattr(a, attr)
        print('  %s: %s' % (name, tuple(value) if attr == 'shape' else value))


def _in_param_dtype(block, args):
    """``args`` with their float arrays cast to ``block``'s float Parameters' one dtype, or None
    when no array changes (or the Parameters' float dtypes differ among themselves)."""
    kinds = {np.dtype(p.dtype) for p in block.collect_params().values()
             if p.dtype is not None and np.dtype(p.dtype).kind == 'f'}
    if len(kinds) != 1:
        return None
    (dtype,) = kinds
    changed = False

    def cast(a):
        nonlocal changed
        if isinstance(a, (list, tuple)):
            return type(a)(cast(b) for b in a)
        if isinstance(a, NDArray) and np.dtype(a.dtype).kind == 'f' and np.dtype(a.dtype) != dtype:
            changed = True
            return a.astype(dtype)
        return a
    out = [cast(a) for a in args]
    return out if changed else None


def _runs_in_param_dtype(block, args, fn):
    """Whether ``fn`` (a forward, a shape inference), which failed on ``args``, runs on them with
    their float arrays cast to ``block``'s Parameters' dtype: the failure was the dtypes', which
    MXNet's shape inference never sees (its shapes are inferred, its forward raises the dtypes')."""
    recast = _in_param_dtype(block, args)
    if recast is None:
        return False
    try:
        fn(*recast)
    except Exception:
        return False
    return True


def _inference_failed(err):
    """Whether an error met while tracing is a failed shape or type inference (an operator's
    MXNetError, or a deferred Parameter's ValueError), not the user's own exception."""
    return isinstance(err, MXNetError) or getattr(err, '_deferred_failure', False)


def _deferred_error(block, err):
    """The ValueError MXNet raises when a Block with deferred Parameters fails on its first
    input (its shape inference fails there), annotated with the Block's path (once)."""
    if getattr(err, '_gluon_block_path', False) and isinstance(err, ValueError):
        return err
    new = ValueError('Deferred initialization failed because shape cannot be inferred. %s'
                     % _trace_error(block, err))
    new._gluon_block_path = True
    new._deferred_failure = True
    return new


def _whole_graph_failure(block, err, params, args):
    """What a hybridized Block's first call raises for an error met while tracing it.

    With Parameters still deferred, MXNet infers the shapes of the whole graph before running
    it, so any operator's shape error (in a child without deferred Parameters too) is its
    deferred-initialisation ValueError, after printing the inputs; otherwise ``err`` itself.
    """
    if not _inference_failed(err) or not any(p._deferred_init for p in params.values()):
        return err
    _print_infer_failure(args)
    return _deferred_error(block, err)


class HybridBlock(Block):
    """A Block that can also run as a compiled graph (``hybridize()``).

    Write ``hybrid_forward(self, F, x, *args, **params)``: ``F`` is ``mx.nd`` when running
    eagerly and ``mx.sym`` while tracing; Parameters registered on the Block arrive as
    keyword arguments by attribute name. Gluon-2 style ``forward(self, x)`` overriding works
    as well (Parameter.data() gives Symbols while tracing).

    Example::

        class Model(gluon.HybridBlock):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                with self.name_scope():
                    self.dense0 = nn.Dense(20)
                    self.dense1 = nn.Dense(20)

            def hybrid_forward(self, F, x):
                return F.relu(self.dense1(F.relu(self.dense0(x))))

        model = Model(); model.initialize(); model.hybridize()
        y = model(mx.nd.zeros((10, 10)))    # traced, compiled, run
    """

    _MAX_CACHED_SIGNATURES = 16

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._cached_graph = ()
        self._cached = collections.OrderedDict()   # signature -> _GraphRunner
        self._in_format = None
        self._out_format = None
        self._active = False
        self._flags = []
        self._callback = None
        self._monitor_all = False
        self._backend = None
        self._backend_opts = {}

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if isinstance(value, HybridBlock):
            self._clear_cached_op()

    def register_child(self, block, name=None):
        if not isinstance(block, HybridBlock):
            raise ValueError(
                'Children of HybridBlock must also be HybridBlock, but %s has type %s. If you are '
                'using Sequential, please try HybridSequential instead.' % (str(block), str(type(block))))
        super().register_child(block, name)
        self._clear_cached_op()

    def _clear_cached_op(self):
        self._cached_graph = ()
        if getattr(self, '_cached', None):
            self._cached = collections.OrderedDict()
        self.__dict__.pop('_size_families', None)

    def hybridize(self, active=True, backend=None, clear=True, static_alloc=False, static_shape=False,
                  inline_limit=2, forward_bulk_size=None, backward_bulk_size=None, **kwargs):
        """Turn compiled execution on (or off) for this Block and its children.

        ``static_alloc`` and ``static_shape`` are accepted: XLA allocates statically and
        compiles per shape anyway.
        """
        if kwargs:
            self._backend_opts = kwargs
        self._backend = backend
        self._active = active
        self._flags = [('static_alloc', static_alloc), ('static_shape', static_shape),
                       ('inline_limit', inline_limit)]
        if clear:
            self._clear_cached_op()
        if active and (self._forward_hooks or self._forward_pre_hooks):
            warnings.warn('"{block}" is being hybridized while still having forward hook/pre-hook. '
                          'If "{block}" is a child of HybridBlock, the hooks will not take effect.'
                          .format(block=self))
        super().hybridize(active, static_alloc=static_alloc, static_shape=static_shape,
                          inline_limit=inline_limit)

    def cast(self, dtype):
        self._clear_cached_op()
        super().cast(dtype)

    def optimize_for(self, x, *args, backend=None, clear=False, static_alloc=False,
                     static_shape=False, inline_limit=2, forward_bulk_size=None,
                     backward_bulk_size=None, **kwargs):
        """Hybridize and build the compiled graph for these inputs now, partitioned for
        ``backend`` (symbol/_partition.py). Without a backend it is MXNet's ValueError."""
        if kwargs:
            self._backend_opts = kwargs
        if not backend:
            raise ValueError('Must specify "backend" to optimize_for')
        self.hybridize(True, backend, clear, static_alloc, static_shape, inline_limit,
                       forward_bulk_size, backward_bulk_size)
        self._runner_for(*((x,) + args))

    def _for_backend(self, graph):
        """The traced ``graph`` as this block's backend partitions it (hybridize(backend=))."""
        if self._backend is None:
            return graph
        return graph.optimize_for(self._backend)

    # ---- who overrides what ----------------------------------------------------------------
    def _gluon2(self):
        """True when the subclass writes ``forward`` itself instead of ``hybrid_forward``."""
        cls = type(self)
        flag = _GLUON2.get(cls)
        if flag is None:
            flag = _GLUON2[cls] = (cls.forward is not HybridBlock.forward
                                   and cls.hybrid_forward is HybridBlock.hybrid_forward)
        return flag

    def _runs_graph(self):
        """True when calling the Block on NDArrays runs its compiled graph once hybridized
        (its ``forward`` is HybridBlock's, or the Gluon 2 ``forward`` that hybridize traces)."""
        cls = type(self)
        flag = _RUNS_GRAPH.get(cls)
        if flag is None:
            flag = _RUNS_GRAPH[cls] = cls.forward is HybridBlock.forward or self._gluon2()
        return flag

    def __call__(self, *args):
        if (self._active and len(args) == 1 and isinstance(args[0], NDArray) and not self._forward_hooks
                and not self._forward_pre_hooks and self._runs_graph() and not _in_trace()):
            return _to_np(self._call_one(args[0]))  # the common call, without the detours below
        hooks_on = not _hooks_quiet()
        if hooks_on:
            for hook in self._forward_pre_hooks.values():
                hook(self, args)
        if self._gluon2():
            out = self._call_gluon2(*args)
        else:
            out = self.forward(*args)
        _check_np_outputs(out)
        out = _to_np(out)
        if hooks_on:
            for hook in self._forward_hooks.values():
                hook(self, args, out)
        return out

    def _call_gluon2(self, *args):
        flat, _ = _flatten(list(args), 'input')
        if self._active and any(isinstance(a, NDArray) for a in flat) and not _in_trace():
            return self._call_cached_op(*args)
        if any(isinstance(a, NDArray) for a in flat):
            return self.forward(*args)
        with _TraceScope(), self.name_scope():
            try:
                return self.forward(*args)
            except Exception as err:
                raise _trace_error(self, err) from err

    # ---- forward -----------------------------------------------------------------------------
    def forward(self, x, *args):
        """Run ``hybrid_forward`` on NDArrays (eagerly or compiled) or on Symbols."""
        if isinstance(x, NDArray) and not args:  # the common case, fast
            if self._active and not _in_trace():
                return self._call_cached_op(x)
            return self._eager_forward(x)
        flat = _arrays_in([x] + list(args))
        has_nd = any(isinstance(a, NDArray) for a in flat)
        has_sym = any(Symbol and isinstance(a, Symbol) for a in flat)
        if has_nd and has_sym:
            raise ValueError('In HybridBlock, we do not support mixed NDArrays and Symbols types for '
                             'the input. Please check the type of the args.')
        if has_nd:
            first = next(a for a in flat if isinstance(a, NDArray))
            if self._active and not _in_trace():
                return self._call_cached_op(x, *args)
            return self._eager_forward(x, *args, ctx=first.context)
        if not has_sym:
            raise ValueError('In HybridBlock, there must be one NDArray or one Symbol in the input. '
                             'Please check the type of the args.')
        return self._symbolic_forward(x, *args)

    def _eager_forward(self, x, *args, ctx=None):
        ctx = ctx or x.context
        with ctx:
            from .. import ndarray
            try:
                params = {k: v.data(ctx) for k, v in self._reg_params.items()}
            except DeferredInitializationError:
                self._deferred_infer_shape(x, *args)
                for v in self._reg_params.values():
                    v._finish_deferred_init()
                params = {k: v.data(ctx) for k, v in self._reg_params.items()}
                try:  # MXNet infers every shape first: a shape error here is its ValueError
                    return self.hybrid_forward(ndarray, x, *args, **params)
                except MXNetError as err:
                    if _runs_in_param_dtype(self, [x] + list(args),
                                            lambda *a: self.hybrid_forward(ndarray, *a, **params)):
                        raise  # MXNet's shapes were inferred: its forward raises this MXNetError
                    _print_infer_failure([x] + list(args))
                    raise _deferred_error(self, err) from None
                except TypeError as err:  # inputs hybrid_forward does not take (an extra array):
                    raise _deferred_error(self, err) from None  # MXNet's symbolic trace meets it first
            return self.hybrid_forward(ndarray, x, *args, **params)

    def _symbolic_forward(self, x, *args):
        deferred = any(not _shape_known(p.shape) for p in self._reg_params.values())
        wrap = _deferred_error if deferred else _trace_error
        if deferred and _input_shapes_known([x] + list(args)):
            try:
                self._infer_param_shapes(x, *args)
            except Exception as err:
                raise wrap(self, err) from err
        with _TraceScope(), self.name_scope():
            params = {k: v.var() for k, v in self._reg_params.items()}
            try:
                return self.hybrid_forward(symbol, x, *args, **params)
            except Exception as err:
                raise wrap(self, err) from err

    def hybrid_forward(self, F, x, *args, **kwargs):
        """Override to compute the output with ``F`` (mx.nd or mx.sym)."""
        raise NotImplementedError

    # ---- shapes ------------------------------------------------------------------------------
    def _infer_param_shapes(self, *args):
        """Fill in unknown dimensions of this Block's Parameters from the inputs' shapes.

        Built-in layers override this with their rule (Dense: ``in_units`` from the input).
        The generic rule asks the traced graph's shape inference.
        """
        unknown = [p for p in self._reg_params.values() if not _shape_known(p.shape)]
        if not unknown:
            return
        names = ['data%d' % i for i in range(len(args))] if len(args) > 1 else ['data']
        inputs = _to_np([symbol.var(n) for n in names])  # NumPy-mode Symbols under npx.set_np(), as when traced
        params = {k: v.var() for k, v in self._reg_params.items()}
        with _TraceScope(), self.name_scope():
            out = self.hybrid_forward(symbol, *inputs, **params)
        out, _ = _flatten(out, 'output')
        out = symbol.Group(out) if len(out) > 1 else out[0]
        try:
            arg_shapes, _, aux_shapes = out.infer_shape_partial(
                **{n: a.shape for n, a in zip(names, args)})
            cause = 'no shapes inferred'
        except Exception as err:  # the graph's own shape error explains it best
            arg_shapes, cause = None, err
        if arg_shapes is None:
            raise MXNetError(
                'cannot infer the shape of Parameter(s) %s of %s from inputs of shape %s (%s). Give '
                'the full shape when creating the Parameter, or override _infer_param_shapes.'
                % (', '.join(p.name for p in unknown), self._describe(),
                   ', '.join(str(a.shape) for a in args), cause))
        shapes = dict(zip(out.list_arguments(), arg_shapes))
        shapes.update(zip(out.list_auxiliary_states(), aux_shapes))
        for p in unknown:
            if p.name in shapes and shapes[p.name]:
                p.shape = tuple(shapes[p.name])

    def _deferred_infer_shape(self, *args):
        """Complete this Block's own Parameter shapes (children do theirs when they run)."""
        infer = self._get_graph if self._gluon2() else self._infer_param_shapes
        try:
            infer(*args)
        except Exception as err:
            # MXNet infers shapes without dtypes: float data of another type than the Parameters'
            # (float64 NumPy data) gets its shapes, and the forward then raises the operator's
            # MXNetError about the dtypes. Inferring on copies in the Parameters' type does that.
            if _runs_in_param_dtype(self, args, infer):
                return
            _print_infer_failure(args)
            raise ValueError('Deferred initialization failed because shape cannot be inferred. %s'
                             % err) from None

    def infer_shape(self, *args):
        """Infer the shapes of the Parameters of this Block and its children from inputs."""
        self._infer_attrs('infer_shape', 'shape', *args)

    def infer_type(self, *args):
        """Infer the dtypes of the Parameters of this Block and its children from inputs (a
        Parameter declares its dtype, so this checks the inputs against it)."""
        self._infer_attrs('infer_type', 'dtype', *args)

    def _infer_attrs(self, infer_fn, attr, *args):
        """Trace this Block on ``args`` and set ``attr`` of every Parameter of the graph from the
        graph's ``infer_fn``, as MXNet does. Inputs that do not fit the Parameters are MXNet's
        MXNetError, after the inputs are printed as MXNet's Symbol inference prints them."""
        try:
            inputs, out = self._get_graph(*args)  # a trace runs every child's own shape rule
        except Exception as err:
            if not _inference_failed(err):
                raise  # the user's own error in hybrid_forward
            _print_infer_failure(args, infer_fn, attr)
            raise MXNetError(str(err)) from None
        real = [a for a in _flatten(list(args), 'input')[0] if a is not None]
        arg_attrs, _, aux_attrs = getattr(out, infer_fn)(
            **{i.name: getattr(a, attr) for i, a in zip(inputs, real)})
        if arg_attrs is None:
            raise ValueError('%s: cannot infer the %s of every Parameter of %s from inputs %s'
                             % (infer_fn, attr, self._describe(), [getattr(a, attr) for a in real]))
        found = dict(zip(out.list_arguments(), arg_attrs))
        found.update(zip(out.list_auxiliary_states(), aux_attrs))
        for p in self.collect_params().values():
            if p.name in found:
                setattr(p, attr, found[p.name])

    # ---- tracing and the compiled graph ------------------------------------------------------
    def _get_graph(self, *args):
        """Trace this Block on Symbols shaped like ``args``: (input Symbols, output Symbol)."""
        flat, self._in_format = _flatten(list(args), 'input')
        real = [a for a in flat if a is not None]
        if not real:
            raise ValueError('All args are None and we do not support such a case. Received args=%s'
                             % (args,))
        inputs, sym_inputs = [], []
        for a in flat:
            if a is None:
                inputs.append(None)
                continue
            name = 'data' if len(real) == 1 else 'data%d' % len(sym_inputs)
            if hasattr(a, 'dtype') and not isinstance(a, Symbol):
                var = symbol.var(name, shape=tuple(a.shape), dtype=np.dtype(a.dtype).name)
            else:
                var = symbol.var(name)
            inputs.append(var)
            sym_inputs.append(var)
        grouped = _to_np(_regroup(inputs, self._in_format))
        with _TraceScope(), self.name_scope():
            try:
                if self._gluon2():
                    out = self.forward(*grouped)
                else:
                    params = {k: v.var() for k, v in self._reg_params.items()}
                    if any(not _shape_known(p.shape) for p in self._reg_params.values()):
                        self._infer_param_shapes(*grouped)
                        params = {k: v.var() for k, v in self._reg_params.items()}
                    out = self.hybrid_forward(symbol, *grouped, **params)
            except Exception as err:
                raise _trace_error(self, err) from err
        _check_np_outputs(out)
        out, self._out_format = _flatten(out, 'output')
        out_sym = symbol.Group(out) if len(out) > 1 else out[0]
        self._cached_graph = (sym_inputs, out_sym)
        return self._cached_graph

    def _runner_for(self, *args):
        """The compiled graph for the signature of ``args``, tracing and compiling if new."""
        from ._cached_graph import GraphRunner
        flat, fmt = _flatten(list(args), 'input')
        sig = (_freeze_fmt(fmt),) + tuple(
            None if a is None else (a._data.shape, a._data.dtype) for a in flat)
        runner = self._cached.get(sig)
        if runner is not None:
            return runner, flat
        if self._cached and not getattr(self, '_implicitly_hybridized', False):  # losses: MXNet's are eager
            _check_same_structure(next(iter(self._cached.values())).in_format, fmt)
        runner = self._size_independent_runner(sig)
        if runner is None:
            params = self.collect_params()
            shapes_before = [(p, p._shape) for p in params.values()]
            try:
                with _QuietHooks(bool(self._cached)):
                    sym_inputs, out = self._get_graph(*args)
            except Exception as err:
                if (_inference_failed(err) and any(p._deferred_init for p in params.values())
                        and _runs_in_param_dtype(self, args, self._runner_for)):
                    # the Parameters are shaped now: the call fails as MXNet's forward does
                    return self._runner_for(*args)
                failure = _whole_graph_failure(self, err, params, args)
                if failure is err:
                    raise
                raise failure from None
            # Children the trace created own Parameters of the graph too (GluonCV's FasterRCNN
            # makes its target generator on first use in training): MXNet collects after tracing
            params = self._params_after_trace(params, shapes_before)
            # A child traced with some inputs' shapes unknown (an RNN cell's begin_state of batch
            # size 0 beside known data) could not shape its Parameters: the whole graph can
            _require_shapes(_shapes_from_graph(params.values(), sym_inputs, out, flat), flat)
            runner = GraphRunner(self._for_backend(out), [s.name for s in sym_inputs], params, self)
            _check_unused_with_deferred(runner, shapes_before)
            runner.finish_deferred_init()
            runner.in_format, runner.out_format = self._in_format, self._out_format
            self._note_size_independence(sig, runner)
        self._cached[sig] = runner
        if len(self._cached) > self._MAX_CACHED_SIGNATURES:
            self._cached.popitem(last=False)
        return runner, flat

    def _params_after_trace(self, params, shapes_before):
        """``collect_params()`` again, with Parameters new since ``params`` added to ``shapes_before``."""
        after = self.collect_params()
        if len(after) != len(params):
            shapes_before += [(p, p._shape) for name, p in after.items() if name not in params]
        return after

    # A graph traced for two sizes of some input axes and found the same (equal structure keys:
    # operators, parameters, wiring) does not depend on those sizes: a third size reuses it
    # without tracing again (a tagger meeting a new sentence length traced its LSTM anew, 0.1 s).
    # {signature with those sizes as -1: runner}.
    def _size_independent_runner(self, sig):
        for family, runner in getattr(self, '_size_families', {}).items():
            if _in_family(sig, family):
                return runner
        return None

    def _note_size_independence(self, sig, runner):
        families = self.__dict__.setdefault('_size_families', {})
        key = runner.graph.structure_key
        for other_sig, other in self._cached.items():
            if other is runner or other.graph.structure_key != key or other.param_keys != runner.param_keys \
                    or (other.in_format, other.out_format) != (runner.in_format, runner.out_format):
                continue
            family = _size_family(sig, other_sig)
            if family is not None:
                families[family] = runner
                if len(families) > self._MAX_CACHED_SIGNATURES:
                    families.pop(next(iter(families)))

    def _call_one(self, x):
        """Run the compiled graph on one NDArray (the common call, kept short)."""
        data = x._data
        runner = self._cached.get(((0,), (data.shape, data.dtype)))  # _runner_for's signature
        if runner is None:
            runner, _ = self._runner_for(x)
        out = runner([x], x._ctx or x.context)
        return out[0] if runner.out_format == 0 else _regroup(out, runner.out_format)

    def _call_cached_op(self, *args):
        """Run the compiled graph (one autograd node when recording)."""
        if len(args) == 1 and isinstance(args[0], NDArray):
            return self._call_one(args[0])
        runner, flat = self._runner_for(*args)
        real = [a for a in flat if a is not None]
        ctxs = set(a.context for a in real)
        ctx = real[0].context
        if len(ctxs) > 1:
            # the host's aliases (a DataLoader worker's cpu_shared batch, pinned memory) are the
            # host: a loss (hybridized from the start) takes a cpu output and a cpu_shared label,
            # as MXNet's eager loss does, and gives a cpu result
            ctxs = set(on_host_cpu(c) for c in ctxs)
            ctx = next(iter(ctxs))
        if len(ctxs) > 1:
            raise ValueError('Find multiple contexts in the input, After hybridized, the HybridBlock '
                             'only supports one input context. You can print the ele.ctx in the '
                             'input arguments to inspect their contexts. Find all contexts = %s'
                             % ctxs)
        out = runner(real, ctx)
        return _regroup(out, runner.out_format)

    # ---- export ------------------------------------------------------------------------------
    def export(self, path, epoch=0, remove_amp_cast=True):
        """Write ``path-symbol.json`` and ``path-%04d.params`` (``arg:``/``aux:`` names).

        Call it after the hybridized Block has run once; ``SymbolBlock.imports`` and MXNet's
        ``SymbolBlock.imports`` / ``Module`` load the files. With one input it is called
        ``data``, with several ``data0``, ``data1``, ...  Returns None, as MXNet 1.x does.
        """
        _export.export(self, path, epoch)


_GLUON2 = {}
_RUNS_GRAPH = {}


def _in_trace():
    return getattr(_trace_state, 'depth', 0) > 0


def _check_same_structure(stored, fmt):
    """Once compiled, a hybridized Block takes new shapes but not a new argument structure
    (which arguments are None, how lists nest), as in MXNet; arguments left out at the end
    and given as None (a default of hybrid_forward) are the same structure."""
    if fmt == stored:
        return
    short, long_ = sorted((stored, fmt), key=len)
    if len(short) < len(long_) and long_[:len(short)] == short \
            and all(f == -1 for f in long_[len(short):]):
        return
    raise ValueError('The argument structure of HybridBlock does not match the cached version. '
                     'Stored format = %s, input format = %s' % (fmt, stored))


def _check_unused_with_deferred(runner, shapes_before):
    """MXNet's ValueError when a hybridized Block must finish deferred initialisation while
    some of its Parameters are not in the graph.

    MXNet then infers the shapes of all the Block's Parameters (``collect_params()`` order)
    from the graph; an unused one is not in it, so inference fails on the first unused one,
    even one whose shape is known, after assigning the shapes before it. Without deferred
    Parameters in the graph, unused ones only get GraphRunner's warning.
    """
    unused = runner.unused_params
    if not unused or not any(p._deferred_init for p in runner.params):
        return
    first = unused[0]
    at = next(i for i, (p, _) in enumerate(shapes_before) if p.name == first)
    for p, shape in shapes_before[at:]:
        p._shape = shape
    raise ValueError("Deferred initialization failed because shape cannot be inferred. '%s'. "
                     'Parameter %s is not used by the forward computation, so its shape cannot be '
                     'inferred: remove it, use it, or give the deferred shapes when creating the layers.'
                     % (first, first))


def _shape_known(shape):
    return shape is not None and all(d > 0 for d in shape)


def _shapes_from_graph(params, sym_inputs, out, flat):
    """Infer the unknown shapes of those of ``params`` in the graph ``out`` (and not loaded from
    a file) from the whole graph and the inputs' shapes, as MXNet's deferred initialisation
    does; returns those whose shapes stay unknown."""
    in_graph = set(out.list_arguments()) | set(out.list_auxiliary_states())
    unknown = [p for p in params if p.name in in_graph and not _shape_known(p.shape) and p._data is None]
    if not unknown:
        return []
    shapes = {s.name: a.shape for s, a in zip(sym_inputs, [a for a in flat if a is not None])}
    arg_shapes, _, aux_shapes = out.infer_shape(**shapes)
    found = dict(zip(out.list_arguments(), arg_shapes or []))
    found.update(zip(out.list_auxiliary_states(), aux_shapes or []))
    for p in unknown:
        if found.get(p.name):
            p.shape = tuple(found[p.name])
    return [p for p in unknown if not _shape_known(p.shape)]


def _require_shapes(unknown, flat):
    """MXNet's ValueError where deferred Parameters of a graph stay unshaped after inference."""
    unknown = [p for p in unknown if p._deferred_init]
    if unknown:
        raise ValueError('Deferred initialization failed because shape cannot be inferred: '
                         'the shapes of %s do not follow from inputs of shape %s'
                         % (', '.join(p.name for p in unknown),
                            ', '.join(str(a.shape) for a in flat if a is not None)))


def _input_shapes_known(args):
    flat, _ = _flatten(list(args), 'input')
    for a in flat:
        if a is None:
            continue
        shape = getattr(a, 'shape', None)
        if shape is None or not all(isinstance(d, (int, np.integer)) and d > 0 for d in shape):
            return False
    return True


# ---------------------------------------------------------------------------------------
# SymbolBlock
# ---------------------------------------------------------------------------------------

def _refuse_row_sparse_variables(graph):
    """A SymbolBlock's Parameters are dense (MXNet asserts so too)."""
    row_sparse = str(_STORAGE_TYPE_STR_TO_ID['row_sparse'])
    for name, attrs in graph.attr_dict().items():
        if attrs.get('__storage_type__') == row_sparse:
            raise AssertionError("SymbolBlock doesn't support Parameter '%s' because its storage "
                                 "type is 'row_sparse'." % name)


class SymbolBlock(HybridBlock):
    """A Block made from a Symbol graph: pre-trained models, or parts of one.

    Parameters
    ----------
    outputs : Symbol or list of Symbol
    inputs : Symbol or list of Symbol
        The variables of ``outputs`` that are inputs; every other variable is a Parameter.
    params : ParameterDict, optional
        Parameters to use for the graph's variables (shared with another Block).

    Example::

        net = gluon.SymbolBlock.imports('lenet-symbol.json', ['data'], 'lenet-0000.params')
        y = net(x)
    """

    @staticmethod
    def imports(symbol_file, input_names, param_file=None, ctx=None, allow_missing=False,
                ignore_extra=False):
        """Load a SymbolBlock from ``export``'s files (here or in MXNet)."""
        sym = symbol.load(symbol_file)
        if isinstance(input_names, str):
            input_names = [input_names]
        inputs = [symbol.var(i) for i in input_names]
        if _is_np_array():  # MXNet loads NumPy symbols then (the Block prints <_Symbol ...>)
            sym, inputs = sym.as_np_ndarray(), [i.as_np_ndarray() for i in inputs]
        ret = SymbolBlock(sym, inputs)
        if param_file is not None:
            ret.collect_params().load(param_file, ctx, allow_missing, ignore_extra, cast_dtype=True,
                                      dtype_source='saved')
        return ret

    def __repr__(self):
        s = '{name}(\n{modstr}\n)'
        modstr = '{block} : {numinputs} -> {numoutputs}'.format(
            block=self._cached_graph[1], numinputs=len(self._cached_graph[0]),
            numoutputs=len(self._cached_graph[1].list_outputs()))
        return s.format(name=self.__class__.__name__, modstr=modstr)

    def __init__(self, outputs, inputs, params=None):
        super().__init__(prefix=None, params=None)
        self._prefix = ''
        self._params = ParameterDict('', params)
        if isinstance(inputs, Symbol) and len(inputs.list_outputs()) == 1:
            inputs = [inputs]
        if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
            outputs = outputs[0]
        syms, self._in_format = _flatten(inputs, 'input')
        out, self._out_format = _flatten(outputs, 'output')
        input_names = set()
        for s in syms:
            if len(s.get_internals().list_outputs()) != 1:
                raise AssertionError('Input symbols must be variable, but %s is an output of operators'
                                 % str(s))
            input_names.add(s.name)
        out = symbol.Group(out) if len(out) > 1 else out[0]
        _refuse_row_sparse_variables(out)
        shapes = _var_shapes(out)
        for arg in out.list_arguments():
            if arg not in input_names:
                self.params.get(arg, allow_deferred_init=True, shape=shapes.get(arg))
        for aux in out.list_auxiliary_states():
            if aux not in input_names:
                self.params.get(aux, grad_req='null', allow_deferred_init=True, shape=shapes.get(aux))
        self._cached_graph = syms, out
        cut = len(os.path.commonprefix(list(self._params.keys())))  # character-wise
        self._reg_params = {key[cut:]: val for key, val in self._params.items()}
        self._runner = None

    def forward(self, x, *args):
        if isinstance(x, NDArray):
            with x.context:
                return self._call_cached_op(x, *args)
        if not isinstance(x, Symbol):
            raise AssertionError('HybridBlock requires the first argument to forward be either Symbol '
                             'or NDArray, but got %s' % type(x))
        flat, fmt = _flatten([x] + list(args), 'input')
        if _freeze_fmt(fmt) != _freeze_fmt(self._in_format):
            raise AssertionError('SymbolBlock: invalid input format %s, expected %s' % (fmt, self._in_format))
        sym_inputs, out = self._cached_graph
        if _input_shapes_known(flat):  # traced inside a parent: its deferred Parameters need shapes now
            self._deferred_shapes(sym_inputs, out, flat)
        # The Parameters' own variables carry their shapes, so the blocks after this one see shapes too
        graph_inputs = set(out.list_inputs())
        args = {p.name: p.var() for p in self._params.values() if p.name in graph_inputs}
        args.update((k.name, v) for k, v in zip(sym_inputs, flat))
        ret = copy.copy(out)
        ret._compose(**args)
        return _regroup(list(ret), self._out_format)

    def _clear_cached_op(self):
        graph = getattr(self, '_cached_graph', ())
        super()._clear_cached_op()
        self._cached_graph = graph
        self._runner = None

    def _runner_for(self, *args):
        from ._cached_graph import GraphRunner
        flat, fmt = _flatten(list(args), 'input')
        if getattr(self, '_runner', None) is None:
            sym_inputs, out = self._cached_graph
            _require_shapes(self._deferred_shapes(sym_inputs, out, flat), flat)
            runner = GraphRunner(self._for_backend(out), [s.name for s in sym_inputs], self.collect_params(), self)
            runner.finish_deferred_init()
            runner.in_format, runner.out_format = self._in_format, self._out_format
            if any(p._data is None for p in runner.params):
                return runner, flat  # not kept: shapes are inferred again once initialize() is called
            self._runner = runner
        return self._runner, flat

    def _call_cached_op(self, *args):
        runner, flat = self._runner_for(*args)
        real = [a for a in flat if a is not None]
        out = runner(real, real[0].context)
        return _regroup(out, runner.out_format)

    def _deferred_shapes(self, sym_inputs, out, flat):
        """Infer the shapes of Parameters not loaded from a file, from the inputs' shapes;
        returns those whose shapes stay unknown."""
        return _shapes_from_graph(self._params.values(), sym_inputs, out, flat)

    def _infer_param_shapes(self, *args):
        sym_inputs, out = self._cached_graph
        self._deferred_shapes(sym_inputs, out, list(args))

    def _get_graph(self, *args):
        """The graph this Block was made from: nothing to trace (infer_shape, infer_type)."""
        return self._cached_graph

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError

    def cast(self, dtype):
        self._clear_cached_op()
        super().cast(dtype)
        if np.dtype(dtype).name == 'float16':  # BatchNorm keeps float32 parameters for half data
            for name in _batchnorm_variables(self._cached_graph[1].list_inputs()):
                if name in self.params:
                    self.params[name].cast('float32')

    def reset_ctx(self, ctx):
        for p in self.collect_params().values():
            p.reset_ctx(ctx)


def _batchnorm_variables(names):
    """The variables among ``names`` that are a BatchNorm's, recognised by their names as MXNet's
    SymbolBlock.cast recognises them: ``<p>running_var`` (or ``moving_var``) with the same
    prefix's ``running_mean`` (``moving_mean``), ``gamma`` and ``beta``."""
    present = set(names)
    found = []
    for stats in ('running', 'moving'):
        for name in names:
            if name.endswith(stats + '_var'):
                prefix = name[:-len(stats + '_var')]
                group = [name] + [prefix + t for t in (stats + '_mean', 'gamma', 'beta')]
                if all(n in present for n in group):
                    found.extend(group)
    return found


def _var_shapes(sym):
    """Shapes declared on the graph's variables (``__shape__``), unknown dimensions as 0."""
    shapes = {}
    try:
        attrs = sym.attr_dict()
    except Exception:  # a Symbol without attributes
        return shapes
    for name, a in attrs.items():
        text = a.get('__shape__')
        if text:
            try:
                shape = tuple(int(d) for d in text.strip('()[] ').split(',') if d.strip())
            except ValueError:
                continue
            shapes[name] = tuple(max(d, 0) for d in shape)
    return shapes

