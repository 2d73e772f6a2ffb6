"""The Optimizer base class, the registry (``create``, ``register``) and the Updater.

How an update runs:

* The host side is MXNet's: an Optimizer counts updates per weight index
  (``_index_update_count``, ``num_update``), asks its ``lr_scheduler``, applies
  ``lr_mult``/``wd_mult``, and for each weight works out a few scalars in float64
  (Adam's bias-corrected learning rate, for instance), exactly as MXNet's Python does
  before it calls its C++ kernels.
* The device side is an optax ``GradientTransformationExtraArgs`` built from the
  optimizer's *rule*: a pure function ``rule(cfg, weight, grad, state, h)`` giving the new
  weight and state by MXNet's kernel formula, where ``cfg`` is the static configuration
  (momentum, betas, clipping...) and ``h`` the per-weight scalars. ``Updater`` runs the
  transformation over *all* the weights it is given in one compiled call, then
  ``optax.apply_updates``. Updates are carried in float64 for float32 weights (and float32
  for float16), so that applying them gives back the rule's new weight bit for bit.

A custom optimizer written in MXNet's style (``update(index, weight, grad, state)`` with
NDArray operations) still works: the Updater calls its ``update`` for each weight.
"""
import json
import math
import numbers
import struct
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import optax

from .._caches import lru_cache
from .._x64 import x64
from ..base import MXNetError
from ..ops import _tiers

__all__ = ['Optimizer', 'Updater', 'create', 'register', 'get_updater']


def _number(who, name, value, allow_none=False):
    """``value`` itself (MXNet keeps an int as an int: Ftrl's ``beta`` prints as 1); an
    MXNetError naming the optimizer and argument when it is not a number."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise MXNetError('%s: %s must be a number, got %r (%s)'
                         % (who, name, value, type(value).__name__))
    if math.isnan(value):
        raise MXNetError('%s: %s must be a number, got nan' % (who, name))
    return value


# ---------------------------------------------------------------------------------------
# The compiled update
# ---------------------------------------------------------------------------------------

def _wide(dtype):
    """The dtype updates are carried in, so that ``w + (new - w)`` rounds back to ``new``."""
    dtype = jnp.dtype(dtype)
    if dtype == jnp.float16 or dtype == jnp.bfloat16:
        return jnp.float32
    if dtype == jnp.float32 and jax.config.jax_enable_x64:
        return jnp.float64
    return dtype


def mxnet_transform(rule, cfg):
    """An optax transformation applying MXNet's update ``rule`` to a list of weights.

    State: one ``(inner, master)`` pair per weight, ``inner`` the tuple of the rule's state
    arrays and ``master`` the float32 copy of a float16 weight under ``multi_precision``
    (None otherwise). Extra argument ``hypers``: a (num_weights, k) array of per-weight
    scalars, ``[rescale_grad, lr, wd, ...]``.
    """
    def init(params):
        raise MXNetError('mxnet_transform.init: the Updater creates the states with '
                         'Optimizer.create_state, as in MXNet')

    def update(grads, state, params=None, *, hypers):
        updates, new_state = [], []
        for i, (w, g, (inner, master)) in enumerate(zip(params, grads, state)):
            h = hypers[i]
            if master is not None:
                new32, inner = rule(cfg, master, g.astype(jnp.float32), inner, h.astype(jnp.float32))
                new_w, master = new32.astype(w.dtype), new32
            else:
                new_w, inner = rule(cfg, w, g.astype(w.dtype), inner, h.astype(w.dtype))
                new_w = new_w.astype(w.dtype)
            wide = _wide(w.dtype)
            updates.append(new_w.astype(wide) - w.astype(wide))
            new_state.append((tuple(inner), master))
        return updates, new_state

    return optax.GradientTransformationExtraArgs(init, update)


_COMPILED = lru_cache('optimizer.steps', 256)  # (rule, hyperparameter config) -> jitted step


def _compiled_step(rule, cfg):
    """One jitted function updating every weight given: cached by (rule, cfg)."""
    key = (rule, cfg)
    fn = _COMPILED.get(key)
    if fn is None:
        tx = mxnet_transform(rule, cfg)

        def step(weights, grads, state, hypers):
            updates, state = tx.update(grads, state, weights, hypers=hypers)
            return optax.apply_updates(weights, updates), state
        fn = _COMPILED[key] = _tiers.jit(step, donate_argnums=(2,))
    return fn


class _Hypers:
    """Device copies of the per-weight scalars, reused while their values do not change."""
    __slots__ = ('_cache',)

    def __init__(self):
        self._cache = {}

    def get(self, rows, device):
        key = (rows, device)
        arr = self._cache.get(key)
        if arr is None:
            if len(self._cache) > 8:
                self._cache.clear()
            arr = self._cache[key] = jax.device_put(np.asarray(rows, dtype=np.float64), device)
        return arr


# ---------------------------------------------------------------------------------------
# Optimizer
# ---------------------------------------------------------------------------------------

class Optimizer:
    """The base class of all optimizers (MXNet's ``mx.optimizer.Optimizer``).

    Parameters
    ----------
    rescale_grad : float, default 1.0
        Gradients are multiplied by this first (``Trainer`` sets ``1 / batch_size``).
    param_idx2name : dict of int to str, optional
        Names of the weight indices (names not ending in ``_weight`` or ``_gamma`` get no
        weight decay).
    clip_gradient : float, optional
        Clip (rescaled) gradients to ``[-clip_gradient, clip_gradient]``.
    learning_rate : float, optional
        The learning rate (0.01 when neither it nor ``lr_scheduler`` is given); it
        replaces the scheduler's ``base_lr``.
    lr_scheduler : LRScheduler, optional
    wd : float, default 0.0
        Weight decay (L2 regularisation) coefficient.
    begin_num_update : int, default 0
    multi_precision : bool, default False
        Keep a float32 master copy of float16 weights and update that.
    param_dict : dict of int to gluon.Parameter, optional
        Where ``lr_mult`` and ``wd_mult`` are read from (the Trainer passes it).

    A subclass sets ``rule`` (the kernel formula), and overrides ``create_state``,
    ``_config`` and ``_leaf_hyper`` as needed; see ``gluonjax/optimizer/sgd.py``.
    """
    opt_registry = {}

    #: the pure update formula (see mxnet_transform); None for Python-style optimizers
    rule = None
    #: MXNet's C++ kernels clip when clip_gradient is truthy; its Python formulas when not None
    _clip_if_not_none = False

    def __init__(self, rescale_grad=1., param_idx2name=None, wd=0., clip_gradient=None,
                 learning_rate=None, lr_scheduler=None, sym=None, begin_num_update=0,
                 multi_precision=False, param_dict=None):
        who = type(self).__name__
        self.rescale_grad = _number(who, 'rescale_grad', rescale_grad)
        if lr_scheduler is not None and not callable(lr_scheduler):
            raise MXNetError('%s: lr_scheduler must be an LRScheduler (called with num_update), got %r'
                             % (who, lr_scheduler))
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = _number(who, 'learning_rate', learning_rate, allow_none=True)
        if lr_scheduler is not None and self.lr is not None and lr_scheduler.base_lr != self.lr:
            print(UserWarning('learning rate from ``lr_scheduler`` has been overwritten by '
                              '``learning_rate`` in optimizer.'))
            lr_scheduler.base_lr = self.lr
        self.wd = _number(who, 'wd', wd)
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = int(begin_num_update)
        self.num_update = self.begin_num_update
        self._all_index_update_counts = {0: {}}
        self._index_update_count = self._all_index_update_counts[0]
        self.clip_gradient = _number(who, 'clip_gradient', clip_gradient, allow_none=True)
        self.multi_precision = bool(multi_precision)
        self.aggregate_num = 0
        if param_idx2name is None:
            param_idx2name = {}
        if not isinstance(param_idx2name, dict):
            raise AssertionError('param_idx2name should be a dict of param indexes to names.')
        self.idx2name = param_idx2name.copy()
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        self.allow_np_array = False
        self._hypers = _Hypers()
        self.set_lr_mult({})
        self.set_wd_mult({})

    # ---- registry -------------------------------------------------------------------
    @staticmethod
    def register(klass):
        """Register an Optimizer subclass under its lower-cased class name."""
        if not isinstance(klass, type):
            raise MXNetError('register: expected an Optimizer class, got %r' % (klass,))
        name = klass.__name__.lower()
        if name in Optimizer.opt_registry:
            old = Optimizer.opt_registry[name]
            warnings.warn('WARNING: New optimizer %s.%s is overriding existing optimizer %s.%s'
                          % (klass.__module__, klass.__name__, old.__module__, old.__name__))
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """An optimizer by (case-insensitive) name: ``create('sgd', learning_rate=0.1)``."""
        if not isinstance(name, str):
            raise MXNetError('create_optimizer: name must be a string, got %r' % (name,))
        klass = Optimizer.opt_registry.get(name.lower())
        if klass is None:
            raise ValueError('Cannot find optimizer %s' % name)
        return klass(**kwargs)

    # ---- learning rate --------------------------------------------------------------
    @property
    def learning_rate(self):
        if self.lr_scheduler is not None:
            return self.lr_scheduler(self.num_update)
        return self.lr

    def set_learning_rate(self, lr):
        """Set the learning rate (not allowed while an lr_scheduler drives it)."""
        if self.lr_scheduler is not None:
            raise UserWarning('LRScheduler of the optimizer has already been defined. Note that '
                              'set_learning_rate can mutate the value of the learning rate of the '
                              'optimizer only when the LRScheduler of the optimizer is undefined.')
        self.lr = _number(type(self).__name__, 'learning_rate', lr)

    def set_lr_scale(self, args_lrscale):
        raise DeprecationWarning

    def set_lr_mult(self, args_lr_mult):
        """Learning-rate multipliers by weight index (or name, with ``sym``)."""
        self.lr_mult = {}
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and '__lr_mult__' in attr[name]:
                    self.lr_mult[name] = float(attr[name]['__lr_mult__'])
        self.lr_mult.update(args_lr_mult)

    def set_wd_mult(self, args_wd_mult):
        """Weight-decay multipliers by index or name; names not ending in _weight/_gamma get 0."""
        self.wd_mult = {}
        for n in self.idx2name.values():
            if not (n.endswith('_weight') or n.endswith('_gamma')):
                self.wd_mult[n] = 0.0
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and '__wd_mult__' in attr[name]:
                    self.wd_mult[name] = float(attr[name]['__wd_mult__'])
        self.wd_mult.update(args_wd_mult)

    # ---- counting -------------------------------------------------------------------
    def _set_current_context(self, device_id):
        """Count updates per device, as MXNet's updaters do."""
        if device_id not in self._all_index_update_counts:
            self._all_index_update_counts[device_id] = {}
        self._index_update_count = self._all_index_update_counts[device_id]

    def _update_count(self, index):
        if not isinstance(index, (list, tuple)):
            index = [index]
        counts = self._index_update_count
        for idx in index:
            if idx not in counts:
                counts[idx] = self.begin_num_update
            counts[idx] += 1
            if counts[idx] > self.num_update:
                self.num_update = counts[idx]

    def _base_lr(self):
        lr = self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr
        if lr is None:
            raise MXNetError('%s: no learning rate: give learning_rate or an lr_scheduler'
                             % type(self).__name__)
        return lr

    def _get_lrs(self, indices):
        lr = self._base_lr()
        lrs = [lr for _ in indices]
        for i, index in enumerate(indices):
            if index in self.param_dict:
                lrs[i] *= self.param_dict[index].lr_mult
            elif index in self.lr_mult:
                lrs[i] *= self.lr_mult[index]
            elif index in self.idx2name:
                lrs[i] *= self.lr_mult.get(self.idx2name[index], 1.0)
        return lrs

    def _get_lr(self, index):
        return self._get_lrs([index])[0]

    def _get_wds(self, indices):
        wds = [self.wd for _ in indices]
        for i, index in enumerate(indices):
            if index in self.param_dict:
                wds[i] *= self.param_dict[index].wd_mult
            elif index in self.wd_mult:
                wds[i] *= self.wd_mult[index]
            elif index in self.idx2name:
                wds[i] *= self.wd_mult.get(self.idx2name[index], 1.0)
        return wds

    def _get_wd(self, index):
        return self._get_wds([index])[0]

    # ---- states ---------------------------------------------------------------------
    def create_state(self, index, weight):
        """The auxiliary state of one weight (None, an NDArray or a tuple of them)."""
        return None

    def _uses_master(self, weight):
        return self.multi_precision and np.dtype(weight.dtype) == np.float16

    #: where create_state_multi_precision puts the float32 master copy: 'first' or 'last'
    _master_position = 'first'

    def create_state_multi_precision(self, index, weight):
        """``create_state``, plus a float32 master copy of a float16 weight under multi_precision."""
        if self._uses_master(weight):
            master = weight.astype(np.float32)
            inner = self.create_state(index, master)
            return (inner, master) if self._master_position == 'last' else (master, inner)
        if np.dtype(weight.dtype) == np.float16 and not self.multi_precision:
            warnings.warn('Accumulating with float16 in optimizer can lead to poor accuracy or slow '
                          'convergence. Consider using multi_precision=True option of the %s optimizer'
                          % type(self).__name__)
        return self.create_state(index, weight)

    def _split_state(self, weight, state):
        """(list of inner state NDArrays, master NDArray or None) of a state from create_state."""
        master = None
        if self._uses_master(weight) and isinstance(state, (tuple, list)) and len(state) == 2:
            if self._master_position == 'last':
                state, master = state
            else:
                master, state = state
        if state is None:
            inner = []
        elif isinstance(state, (tuple, list)):
            inner = [s for s in state if s is not None]
        else:
            inner = [state]
        return inner, master

    # ---- the update -----------------------------------------------------------------
    def _config(self):
        """The static part of the rule's configuration (hashable): a new one recompiles."""
        return (self._clip(),)

    def _clip(self):
        c = self.clip_gradient
        if self._clip_if_not_none:
            return None if c is None else float(c)
        return float(c) if c and c > 0 else None  # MXNet's kernels skip clipping below 0

    def _leaf_hyper(self, index, lr, wd):
        """Per-weight scalars after ``[rescale_grad]``; called after the count is updated."""
        return (lr, wd)

    def _hyper_rows(self, indices, weights, grads):
        """Count the updates, then the rows of per-weight scalars, as MXNet's Python does."""
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        rescale = self.rescale_grad
        return tuple((rescale,) + tuple(self._leaf_hyper(i, lr, wd))
                     for i, lr, wd in zip(indices, lrs, wds))

    def _compiled_update(self):
        """Whether updates run as the compiled rule: a rule, and update() not overridden."""
        klass = type(self)
        return (klass.rule is not None and klass.update is Optimizer.update
                and klass.update_multi_precision is Optimizer.update_multi_precision)

    def _check_float(self, index, weight):
        if not jnp.issubdtype(weight.dtype, jnp.floating):  # MXNet's kernels are float-only (bfloat16 counts)
            raise MXNetError('%s.update: weight %r has dtype %s; optimizers update floating-point '
                             'weights only' % (type(self).__name__, index, np.dtype(weight.dtype).name))

    def _update_batch(self, indices, weights, grads, states):
        """Update every weight given in one compiled call."""
        for i, w in zip(indices, weights):
            self._check_float(i, w)
        self._run(indices, weights, grads, [self._split_state(w, s) for w, s in zip(weights, states)])

    @x64  # float64 weights and the float64 hyper-parameter rows (see gluonjax/_x64.py)
    def _run(self, indices, weights, grads, split):
        """The compiled update; ``split`` holds (inner state NDArrays, master or None) per weight."""
        rows = self._hyper_rows(indices, weights, grads)
        fn = _compiled_step(type(self).rule, self._config())
        lazy = [k for k, (w, g) in enumerate(zip(weights, grads)) if self._lazy_rows(g, w)]
        # one compiled call per device: the weights of a model-parallel Module (group2ctxs) live
        # on several, and one jitted call takes the arrays of one
        by_device = {}
        for k in range(len(weights)):
            if k not in lazy:
                by_device.setdefault(next(iter(weights[k]._data.devices())), []).append(k)
        for device, dense in by_device.items():
            self._step(fn, device, [rows[k] for k in dense], [weights[k] for k in dense],
                       [grads[k]._data for k in dense], [split[k] for k in dense])
        for k in lazy:
            row_ids = grads[k]._storage.indices
            if row_ids.shape[0]:
                device = next(iter(weights[k]._data.devices()))
                self._step(fn, device, [rows[k]], [weights[k]], [grads[k]._storage.data], [split[k]], row_ids)

    #: the rule works row by row (SGD, Adam), so a row_sparse gradient with ``lazy_update`` can
    #: update only its rows, as MXNet's lazy updates do
    _row_wise = False
    #: a row_sparse weight with a row_sparse gradient updates only the gradient's rows, whatever
    #: ``lazy_update`` says (MXNet's sparse kernel of ftrl_update)
    _sparse_rows_only = False

    def _lazy_rows(self, grad, weight):
        if grad.stype != 'row_sparse':
            return False
        if self._sparse_rows_only and weight.stype == 'row_sparse':
            return True
        return self._row_wise and getattr(self, 'lazy_update', False)

    def _step(self, fn, device, rows, weights, grads, split, row_ids=None):
        """Run the compiled update on ``weights`` (on their rows ``row_ids`` only, when given)."""
        def take(arr):
            return arr._data if row_ids is None else arr._data[row_ids]

        def put(arr, value):
            arr._set_data(value if row_ids is None else arr._data.at[row_ids].set(value))
        hypers = self._hypers.get(tuple(rows), device)
        state_in = [(tuple([take(a) for a in inner]), None if master is None else take(master))
                    for inner, master in split]
        new_w, new_state = fn([take(w) for w in weights], grads, state_in, hypers)
        for w, nw in zip(weights, new_w):
            put(w, nw)
        for (inner, master), (ni, nm) in zip(split, new_state):
            for a, v in zip(inner, ni):
                put(a, v)
            if master is not None:
                put(master, nm)

    def update(self, index, weight, grad, state):
        """Update ``weight`` in place from ``grad`` and ``state`` (lists of them work too)."""
        if type(self).rule is None:
            raise NotImplementedError('%s must implement update(index, weight, grad, state)'
                                      % type(self).__name__)
        if isinstance(index, (list, tuple)):
            self._update_batch(list(index), list(weight), list(grad), list(state))
        else:
            self._update_batch([index], [weight], [grad], [state])

    def update_multi_precision(self, index, weight, grad, state):
        """``update`` for a state made by ``create_state_multi_precision``."""
        if self._compiled_update():
            self.update(index, weight, grad, state)
            return
        if not isinstance(index, (list, tuple)):
            index, weight, grad, state = [index], [weight], [grad], [state]
        for i, w, g, s in zip(index, weight, grad, state):
            if self._uses_master(w):
                inner, master = s if self._master_position == 'last' else s[::-1]
                self.update(i, master, g.astype(np.float32), inner)
                w._set_data(master._data.astype(w._data.dtype))
            else:
                self.update(i, w, g, s)

    # ---- saving ---------------------------------------------------------------------
    _SAVED_SKIP = ('param_dict', 'lr_scheduler', 'sym_info', '_hypers', '_all_index_update_counts',
                   '_index_update_count', 'idx2name', 'lr_mult', 'wd_mult')

    def _get_config(self):
        """The optimizer as JSON: class, hyperparameters, counts and scheduler."""
        attrs = {}
        for k, v in vars(self).items():
            if k in self._SAVED_SKIP:
                continue
            if v is None or isinstance(v, (bool, int, float, str)):
                attrs[k] = v
        config = {
            'class': type(self).__name__.lower(), 'attrs': attrs,
            'counts': {str(dev): [[_key_json(i), n] for i, n in counts.items()]
                       for dev, counts in self._all_index_update_counts.items()},
            'lr_mult': [[_key_json(k), v] for k, v in self.lr_mult.items()],
            'wd_mult': [[_key_json(k), v] for k, v in self.wd_mult.items()],
            'idx2name': [[_key_json(k), v] for k, v in self.idx2name.items()],
            'lr_scheduler': None,
        }
        if self.lr_scheduler is not None:
            from .. import lr_scheduler as lrs
            klass = type(self.lr_scheduler)
            if getattr(lrs, klass.__name__, None) is not klass:
                raise MXNetError('save_states: the lr_scheduler %r cannot be saved: only the classes of '
                                 'mx.lr_scheduler can (%s)' % (self.lr_scheduler, ', '.join(lrs.__all__)))
            config['lr_scheduler'] = {'class': klass.__name__, 'attrs': self.lr_scheduler._get_config()}
        return config

    @staticmethod
    def _from_config(config):
        """An optimizer rebuilt from ``_get_config()`` output (validated)."""
        from .. import lr_scheduler as lrs
        name = config.get('class')
        klass = Optimizer.opt_registry.get(name)
        if klass is None:
            raise MXNetError('load_states: the file names optimizer %r, which is not registered' % (name,))
        opt = klass.__new__(klass)
        Optimizer.__init__(opt)
        for k, v in config['attrs'].items():
            setattr(opt, k, v)
        opt._all_index_update_counts = {int(dev): {_key_load(i): n for i, n in pairs}
                                        for dev, pairs in config['counts'].items()}
        opt._all_index_update_counts.setdefault(0, {})
        opt._index_update_count = opt._all_index_update_counts[0]
        opt.lr_mult = {_key_load(k): v for k, v in config['lr_mult']}
        opt.wd_mult = {_key_load(k): v for k, v in config['wd_mult']}
        opt.idx2name = {_key_load(k): v for k, v in config['idx2name']}
        sched = config.get('lr_scheduler')
        if sched is not None:
            sklass = getattr(lrs, sched['class'], None)
            if not (isinstance(sklass, type) and issubclass(sklass, lrs.LRScheduler)):
                raise MXNetError('load_states: unknown lr_scheduler class %r' % (sched['class'],))
            s = sklass.__new__(sklass)
            s._set_config(sched['attrs'])
            opt.lr_scheduler = s
        return opt

    def __getstate__(self):
        raise TypeError('gluonjax optimizers are not pickled: use Trainer.save_states / '
                        'Updater.get_states, which write a JSON header and the state arrays')

    def __repr__(self):
        return '%s(learning_rate=%s, wd=%s)' % (type(self).__name__, self.lr, self.wd)


def _key_json(k):
    return k if isinstance(k, (int, str)) else str(k)


def _key_load(k):
    return k


register = Optimizer.register
create = Optimizer.create_optimizer


# ---------------------------------------------------------------------------------------
# Updater and its saved states
# ---------------------------------------------------------------------------------------

_MAGIC = b'GLUONJAX-OPTIMIZER-STATES\n'
_VERSION = 1


def _state_layout(state, arrays, prefix):
    """JSON description of a state (None / NDArray / nested tuple), collecting its arrays."""
    from ..ndarray import NDArray
    if state is None:
        return None
    if isinstance(state, NDArray):
        name = '%s' % prefix
        arrays[name] = state
        return {'array': name}
    if isinstance(state, (tuple, list)):
        return {'tuple' if isinstance(state, tuple) else 'list':
                [_state_layout(s, arrays, '%s.%d' % (prefix, i)) for i, s in enumerate(state)]}
    raise MXNetError('get_states: cannot save an optimizer state of type %s' % type(state).__name__)


def _state_build(layout, arrays, where):
    if layout is None:
        return None
    if not isinstance(layout, dict) or len(layout) != 1:
        raise MXNetError('load_states: malformed state entry %r for %s' % (layout, where))
    kind, value = next(iter(layout.items()))
    if kind == 'array':
        if value not in arrays:
            raise MXNetError('load_states: the state array %r of %s is missing from the file' % (value, where))
        return arrays[value]
    if kind in ('tuple', 'list'):
        items = [_state_build(v, arrays, where) for v in value]
        return tuple(items) if kind == 'tuple' else items
    raise MXNetError('load_states: malformed state entry %r for %s' % (layout, where))


def dump_states(states, optimizer=None):
    """Bytes holding ``states`` ({index: state}) and, optionally, the optimizer.

    Format: a magic line, a little-endian uint64 header length, a JSON header (version,
    optimizer, layout of each state) and the state arrays in MXNet's ``nd.save`` format.
    """
    from ..ndarray._serialization import save_arrays_to_bytes
    arrays = {}
    layout = [[_key_json(k), _state_layout(s, arrays, 's%d' % n)] for n, (k, s) in enumerate(states.items())]
    header = {'version': _VERSION, 'states': layout,
              'optimizer': optimizer._get_config() if optimizer is not None else None}
    head = json.dumps(header).encode('utf-8')
    payload = save_arrays_to_bytes({k: v.asnumpy() for k, v in arrays.items()}) if arrays else b''
    return _MAGIC + struct.pack('<Q', len(head)) + head + payload


def load_states(data, ctx=None):
    """(states, optimizer or None) from ``dump_states`` bytes, with clear errors on bad input."""
    from ..ndarray import array
    from ..ndarray._serialization import load_arrays_from_bytes
    if not isinstance(data, (bytes, bytearray)):
        raise MXNetError('load_states: expected bytes, got %s' % type(data).__name__)
    data = bytes(data)
    if not data.startswith(_MAGIC):
        hint = ' (it looks like a pickle written by MXNet, which gluonjax does not read)' \
            if data[:1] == b'\x80' else ''
        raise MXNetError('load_states: not a gluonjax optimizer-state file%s' % hint)
    pos = len(_MAGIC)
    if len(data) < pos + 8:
        raise MXNetError('load_states: the file is truncated')
    (n,) = struct.unpack('<Q', data[pos:pos + 8])
    pos += 8
    try:
        header = json.loads(data[pos:pos + n].decode('utf-8'))
    except (UnicodeDecodeError, ValueError) as err:
        raise MXNetError('load_states: the header is not valid JSON (%s)' % err) from None
    if not isinstance(header, dict) or header.get('version') != _VERSION or 'states' not in header:
        raise MXNetError('load_states: unsupported state file version %r'
                         % (header.get('version') if isinstance(header, dict) else header,))
    payload = data[pos + n:]
    arrays = {}
    if payload:
        loaded = load_arrays_from_bytes(payload)
        if not isinstance(loaded, dict):
            raise MXNetError('load_states: the state arrays have no names')
        arrays = {k: array(v, ctx=ctx, dtype=v.dtype) for k, v in loaded.items()}
    states = {}
    for key, layout in header['states']:
        states[_key_load(key)] = _state_build(layout, arrays, 'index %r' % (key,))
    opt_config = header.get('optimizer')
    optimizer = Optimizer._from_config(opt_config) if opt_config is not None else None
    return states, optimizer


class Updater:
    """Applies an optimizer to weights by index, keeping their states (``get_updater``).

    ``updater(index, grad, weight)`` updates ``weight`` in place; lists of indices,
    gradients and weights are updated together in one compiled call.
    """

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}
        self.aggregate_updates = optimizer.aggregate_num > 0
        self._split = {}  # index -> (state, its split form), valid while the state is the same object

    def __call__(self, index, grad, weight):
        if not isinstance(index, (list, tuple)):
            indices, grads, weights = [index], [grad], [weight]
        else:
            indices, grads, weights = list(index), list(grad), list(weight)
        if len(indices) != len(grads) or len(indices) != len(weights):
            raise MXNetError('Updater: %d indices, %d gradients and %d weights differ in number'
                             % (len(indices), len(grads), len(weights)))
        for w, g in zip(weights, grads):
            if w.shape != g.shape:
                raise MXNetError('Updater: gradient of shape %s does not match weight of shape %s'
                                 % (g.shape, w.shape))
        indices = [i.decode() if isinstance(i, bytes) else i for i in indices]
        self._update(indices, grads, weights)

    def _update(self, indices, grads, weights):
        """``__call__`` without the argument checks (the Trainer's path)."""
        if not weights:
            return
        opt = self.optimizer
        opt._set_current_context(weights[0].context.device_id)
        split = self._split
        for i, idx in enumerate(indices):
            if idx not in self.states:
                if opt._compiled_update():  # checked once per weight, when its state is made
                    opt._check_float(idx, weights[i])
                self.states[idx] = opt.create_state_multi_precision(idx, weights[i])
                self.states_synced[idx] = True
                split.pop(idx, None)
            elif not self.states_synced[idx]:
                self.states[idx] = self.sync_state_context(self.states[idx], weights[i].context)
                self.states_synced[idx] = True
                split.pop(idx, None)
        if not opt._compiled_update():  # an MXNet-style optimizer written with NDArray operations
            for i, w, g in zip(indices, weights, grads):
                opt.update_multi_precision(i, w, g, self.states[i])
            return
        parts = []
        for idx, w in zip(indices, weights):
            entry = split.get(idx)
            if entry is None or entry[0] is not self.states[idx]:
                entry = split[idx] = (self.states[idx], opt._split_state(w, self.states[idx]))
            parts.append(entry[1])
        dtype = weights[0]._data.dtype
        if all(w._data.dtype == dtype for w in weights):
            opt._run(indices, weights, grads, parts)
            return
        # weights of different dtypes go in separate calls, in MXNet's order
        groups = {}
        for item in zip(indices, weights, grads, parts):
            groups.setdefault(item[1]._data.dtype, []).append(item)
        for group in groups.values():
            idx, ws, gs, ps = zip(*group)
            opt._run(list(idx), list(ws), list(gs), list(ps))

    def sync_state_context(self, state, context):
        """The state moved to ``context``."""
        from ..ndarray import NDArray
        if isinstance(state, NDArray):
            return state.as_in_context(context)
        if isinstance(state, (tuple, list)):
            synced = [self.sync_state_context(s, context) for s in state]
            return tuple(synced) if isinstance(state, tuple) else synced
        return state

    def set_states(self, states):
        """Load states written by ``get_states`` (optimizer included when it was dumped)."""
        states, optimizer = load_states(states)
        self.states = states
        self._split = {}
        if optimizer is not None:
            if self.optimizer is not None:
                optimizer.param_dict = self.optimizer.param_dict
            self.optimizer = optimizer
        self.states_synced = dict.fromkeys(self.states.keys(), False)

    def get_states(self, dump_optimizer=False):
        """The states (and with ``dump_optimizer`` the optimizer) as bytes: no pickle."""
        return dump_states(self.states, self.optimizer if dump_optimizer else None)


def get_updater(optimizer):
    """An :class:`Updater` for ``optimizer`` (what KVStore.set_optimizer uses)."""
    return Updater(optimizer)
