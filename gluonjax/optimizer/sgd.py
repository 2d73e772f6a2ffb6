"""SGD-family optimizers: SGD, NAG, Signum, LARS and DCASGD, with MXNet 1.9's kernel formulas.

Notation of the rules (``h`` holds the per-weight scalars): ``r`` = rescale_grad,
``clip(x)`` = elementwise clipping to ``[-clip_gradient, clip_gradient]`` when
clip_gradient is set.
"""
import math

import jax.numpy as jnp

from .._x64 import x64
from .optimizer import Optimizer, register

__all__ = ['SGD', 'ccSGD', 'NAG', 'Signum', 'LARS', 'DCASGD', 'SGLD', 'LBSGD', 'Test']


def zeros_state(weight, dtype=None, stype='default'):
    """A fresh array of zeros shaped like ``weight`` on its context (states are donated), in
    storage ``stype`` (MXNet keeps a row_sparse weight's states row_sparse where its sparse
    kernels update them: SGD and Adam with ``lazy_update``, AdaGrad, RMSProp, Ftrl)."""
    from ..ndarray import zeros
    return zeros(weight.shape, weight.context, dtype=dtype or weight.dtype, stype=stype)


def lazy_stype(opt, weight):
    """The storage of ``weight``'s states under ``opt``: the weight's with ``lazy_update``."""
    return weight.stype if getattr(opt, 'lazy_update', False) else 'default'


def rescaled(g, r, clip):
    """``clip(r * g)``: the gradient as MXNet's kernels see it."""
    g = r * g
    return g if clip is None else jnp.clip(g, -clip, clip)


def _sgd_rule(clip, momentum, w, g, inner, lr, wd, r):
    """MXNet's sgd_update / sgd_mom_update kernels."""
    if clip is None:
        step = (lr * r) * g
    else:
        step = lr * rescaled(g, r, clip)
    if inner:
        (mom,) = inner
        mom = momentum * mom - (lr * wd) * w - step
        return w + mom, (mom,)
    return (1 - lr * wd) * w - step, ()


@register
class SGD(Optimizer):
    """Stochastic gradient descent with momentum and weight decay.

    Without momentum::

        weight = (1 - lr * wd) * weight - lr * clip(rescale_grad * grad)

    With momentum::

        state = momentum * state - lr * wd * weight - lr * clip(rescale_grad * grad)
        weight = weight + state

    Parameters
    ----------
    momentum : float, default 0
    lazy_update : bool, default True
        With a row_sparse gradient, update only the rows it holds (weight and states);
        otherwise every row, the missing gradient rows counting as zero.
    multi_precision : bool, default False
        Update a float32 master copy of float16 weights.
    """
    _row_wise = True
    _master_position = 'last'

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = _checked(self, 'momentum', momentum)
        self.lazy_update = lazy_update
        self.aggregate_num = 4

    def create_state(self, index, weight):
        return zeros_state(weight, stype=lazy_stype(self, weight)) if self.momentum != 0.0 else None

    def _config(self):
        return (self._clip(),)

    def _leaf_hyper(self, index, lr, wd):
        return (lr, wd, self.momentum)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        (clip,) = cfg
        return _sgd_rule(clip, h[3], w, g, inner, h[1], h[2], h[0])


@register
class ccSGD(SGD):  # noqa: N801 - MXNet's name
    """Deprecated alias of SGD, kept for MXNet compatibility."""


@register
class NAG(Optimizer):
    """Nesterov accelerated gradient, as MXNet 1.9's ``nag_mom_update`` computes it.

    With ``g = clip(rescale_grad * grad)``::

        m = momentum * state
        weight_new = weight - m + (momentum + 1) * (m - lr * (g + wd * weight))
        state = m - lr * (g + wd * weight_new)

    The last line reads the *updated* weight: MXNet's kernel writes the weight in place
    before it updates the momentum, and this reproduces its numbers. Without momentum
    NAG is SGD.
    """
    _master_position = 'last'

    def __init__(self, momentum=0.0, **kwargs):
        super().__init__(**kwargs)
        self.momentum = _checked(self, 'momentum', momentum)

    def create_state(self, index, weight):
        return zeros_state(weight) if self.momentum != 0.0 else None

    def _leaf_hyper(self, index, lr, wd):
        return (lr, wd, self.momentum)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        (clip,) = cfg
        r, lr, wd, momentum = h[0], h[1], h[2], h[3]
        if not inner:
            return _sgd_rule(clip, momentum, w, g, inner, lr, wd, r)
        (mom,) = inner
        g = rescaled(g, r, clip)
        m = momentum * mom
        new_w = w - m + (momentum + 1) * (m - lr * (g + wd * w))
        mom = m - lr * (g + wd * new_w)
        return new_w, (mom,)


@register
class Signum(Optimizer):
    """Signum (sign of momentum) and signSGD (``momentum=0``).

    With ``g = clip(rescale_grad * grad)``::

        state = momentum * state - (1 - momentum) * (g + wd * weight)
        weight = (1 - lr * wd_lh) * weight + lr * sign(state)

    and without momentum ``weight = (1 - lr * wd) * weight - lr * sign(g)``.

    Parameters
    ----------
    momentum : float, default 0.9
    wd_lh : float, default 0
        Decoupled weight decay.
    """

    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = _checked(self, 'momentum', momentum)
        self.wd_lh = _checked(self, 'wd_lh', wd_lh)

    def create_state(self, index, weight):
        return zeros_state(weight) if self.momentum != 0.0 else None

    def _leaf_hyper(self, index, lr, wd):
        return (lr, wd, self.momentum, self.wd_lh)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        (clip,) = cfg
        r, lr, wd, momentum, wd_lh = h[0], h[1], h[2], h[3], h[4]
        g = rescaled(g, r, clip)
        if inner:
            (mom,) = inner
            mom = momentum * mom - (1 - momentum) * (g + wd * w)
            return (1 - lr * wd_lh) * w + lr * jnp.sign(mom), (mom,)
        return (1 - lr * wd) * w - lr * jnp.sign(g), ()


@register
class LARS(Optimizer):
    """Layer-wise adaptive rate scaling on top of SGD with momentum.

    Each weight whose name does not end in ``gamma``, ``beta`` or ``bias`` (a Trainer
    gives no names, so every weight) gets the learning rate::

        lr * eta * |weight| / (rescale_grad * |grad| + wd * |weight| + eps)

    when both norms are positive, then SGD's update. With ``momentum_correction`` the
    momentum is scaled by the ratio of the current to the previous learning rate.

    Parameters
    ----------
    momentum : float, default 0
    eta : float, default 0.001
    eps : float, default 0
    momentum_correction : bool, default True
    """
    _master_position = 'last'

    def __init__(self, momentum=0.0, lazy_update=True, eta=0.001, eps=0,
                 momentum_correction=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = _checked(self, 'momentum', momentum)
        self.momentum_correction = momentum_correction
        self.lazy_update = lazy_update
        self.aggregate_num = 4
        self.eta = _checked(self, 'eta', eta)
        self.eps = _checked(self, 'eps', eps)
        self.skip = 0
        self.last_lr = None
        self.cur_lr = None

    def _get_lrs(self, indices):
        if self.cur_lr is not None:
            self.last_lr = self.cur_lr
        lr = self._base_lr()
        if self.cur_lr is None:
            self.last_lr = lr
        self.cur_lr = lr
        return super()._get_lrs(indices)

    def set_wd_mult(self, args_wd_mult):
        self.wd_mult = {}
        for n in self.idx2name.values():
            if not n.endswith('_weight'):
                self.wd_mult[n] = 0.0
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and '__wd_mult__' in attr[name]:
                    self.wd_mult[name] = float(attr[name]['__wd_mult__'])
        self.wd_mult.update(args_wd_mult)

    def create_state(self, index, weight):
        return zeros_state(weight) if self.momentum != 0.0 else None

    def _hyper_rows(self, indices, weights, grads):
        rows = super()._hyper_rows(indices, weights, grads)
        momentum = self.momentum
        if self.momentum > 0 and self.momentum_correction and self.last_lr != 0:
            momentum = self.momentum * (self.cur_lr / self.last_lr)
        out = []
        for i, row in zip(indices, rows):
            name = self.idx2name.get(i, str(i))
            scaled = not (name.endswith('gamma') or name.endswith('beta') or name.endswith('bias'))
            out.append(row + (momentum, 1.0 if scaled else 0.0))
        return tuple(out)

    def _leaf_hyper(self, index, lr, wd):
        return (lr, wd)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        (clip, eta, eps) = cfg
        r, lr, wd, momentum, scaled = h[0], h[1], h[2], h[3], h[4]
        w32 = w.astype(jnp.float32)
        w_norm = jnp.sqrt(jnp.sum(w32 * w32))
        g32 = g.astype(jnp.float32)
        g_norm = jnp.sqrt(jnp.sum(g32 * g32)) * r.astype(jnp.float32)
        wd32, lr32 = wd.astype(jnp.float32), lr.astype(jnp.float32)
        lars = lr32 * eta * w_norm / (g_norm + wd32 * w_norm + eps)
        lars_lr = jnp.where((w_norm > 0) & (g_norm > 0), lars, lr32)
        lr = jnp.where(scaled > 0, lars_lr, lr32).astype(w.dtype)
        return _sgd_rule(clip, momentum, w, g, inner, lr, wd, r)

    def _config(self):
        return (self._clip(), self.eta, self.eps)


@register
class DCASGD(Optimizer):
    """Delay-compensated asynchronous SGD (Zheng et al., 2016), as MXNet 1.9's Python.

    With ``g = clip(rescale_grad * grad)`` and ``previous`` the weight before the last update::

        step = -lr * (g + wd * weight + lamda * g * g * (weight - previous))
        state = momentum * state + step          (state = step without momentum)
        previous = weight
        weight = weight + state

    Parameters
    ----------
    momentum : float, default 0
    lamda : float, default 0.04
        Strength of the delay compensation.
    """
    _clip_if_not_none = True

    def __init__(self, momentum=0.0, lamda=0.04, **kwargs):
        super().__init__(**kwargs)
        self.momentum = _checked(self, 'momentum', momentum)
        self.lamda = _checked(self, 'lamda', lamda)
        self.weight_previous = {}

    def create_state(self, index, weight):
        mom = zeros_state(weight) if self.momentum != 0.0 else None
        previous = zeros_state(weight)
        previous[:] = weight  # its own buffer: states are donated to the compiled update
        return (mom, previous)

    def _leaf_hyper(self, index, lr, wd):
        return (lr, wd, self.momentum, self.lamda)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        (clip,) = cfg
        r, lr, wd, momentum, lamda = h[0], h[1], h[2], h[3], h[4]
        g = rescaled(g, r, clip)
        previous = inner[-1]
        step = -lr * (g + wd * w + lamda * g * g * (w - previous))
        if len(inner) == 2:
            mom = momentum * inner[0] + step
            return w + mom, (mom, w)
        return w + step, (w,)


def _checked(opt, name, value):
    from .optimizer import _number
    value = _number(type(opt).__name__, name, value)
    if math.isinf(value):
        from ..base import MXNetError
        raise MXNetError('%s: %s must be finite, got %r' % (type(opt).__name__, name, value))
    return value


@register
class SGLD(Optimizer):
    """Stochastic gradient Langevin dynamics: a half SGD step plus Gaussian noise.

    With ``g = clip(rescale_grad * grad)``::

        weight = weight - lr / 2 * (g + wd * weight)
        weight = weight + normal(0, sqrt(lr))          (one draw per element)

    The noise comes from ``mx.random`` (``mx.random.seed`` makes it repeatable).
    """
    _clip_if_not_none = True

    def create_state(self, index, weight):
        return None

    def update(self, index, weight, grad, state):
        from .. import ndarray as nd
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        g = grad * self.rescale_grad
        if self.clip_gradient is not None:
            g = nd.clip(g, -self.clip_gradient, self.clip_gradient)
        weight[:] = weight + -lr / 2 * (g + wd * weight)
        noise = nd.random.normal(0, math.sqrt(lr), shape=weight.shape, dtype=weight.dtype,
                                 ctx=weight.context)
        weight[:] = weight + noise


@register
class LBSGD(Optimizer):
    """Large-batch SGD: SGD (with momentum) whose learning rate is warmed up per update.

    Gradients are summed over ``batch_scale`` calls; every ``batch_scale``-th call
    updates the weight with SGD's rule (see :class:`SGD`) using their mean and the learning
    rate ``lr * mult``, the calls in between leave it unchanged. With ``n`` the number of
    gradients summed since ``begin_epoch`` and ``N = warmup_epochs * updates_per_epoch``,
    ``mult`` is ``batch_scale`` once ``n >= N`` and before that, by ``warmup_strategy``:

    * ``'linear'``: ``1 + (batch_scale - 1) * n / N``
    * ``'power2'``: ``1 + (batch_scale - 1) * n**2 / N**2``
    * ``'sqrt'``: ``1 + (batch_scale - 1) * sqrt(n / N)``
    * ``'lars'``: ``sqrt(|w|^2 / (|g|^2 + wd * |w|^2 + 1e-18))`` clipped to [0.01, 100]
      (whatever ``n``)
    * anything else: 1.

    Parameters
    ----------
    momentum : float, default 0
    warmup_strategy : str, default 'linear'
    warmup_epochs : int, default 5
    batch_scale : int, default 1
    updates_per_epoch : int, default 32
    begin_epoch : int, default 0
    num_epochs : int, default 60
        Kept as an attribute (MXNet does not use it either).
    """
    _master_position = 'last'

    def __init__(self, momentum=0.0, multi_precision=False, warmup_strategy='linear',
                 warmup_epochs=5, batch_scale=1, updates_per_epoch=32, begin_epoch=0, num_epochs=60,
                 **kwargs):
        super().__init__(multi_precision=multi_precision, **kwargs)
        self.momentum = _checked(self, 'momentum', momentum)
        self.warmup_strategy = warmup_strategy
        self.warmup_epochs = warmup_epochs
        self.batch_scale = batch_scale
        self.updates_per_epoch = updates_per_epoch
        self.init_updates = begin_epoch * updates_per_epoch
        self.num_epochs = num_epochs
        self.lbmult = 1
        self.cumgrads = {}
        self.adaptive = False
        self.admult = 1

    def create_state(self, index, weight):
        return zeros_state(weight) if self.momentum != 0.0 else None

    def _get_lbmult(self, nup):
        """The warm-up factor of the learning rate after ``nup`` summed gradients."""
        nwup = self.warmup_epochs * self.updates_per_epoch
        top = float(self.batch_scale)
        if nup >= nwup:
            return top
        if nwup <= 1:
            return 1.0
        if self.warmup_strategy == 'linear':
            return 1.0 + (top - 1) * nup / nwup
        if self.warmup_strategy == 'power2':
            return 1.0 + (top - 1) * (nup * nup) / (nwup * nwup)
        if self.warmup_strategy == 'sqrt':
            return 1.0 + (top - 1) * math.sqrt(float(nup) / nwup)
        return 1.0

    def _get_lars(self, weight, g, wd):
        """The 'lars' factor from the squared norms (summed in float32, as MXNet does)."""
        w2 = float(jnp.sum(jnp.square(weight._data.astype(jnp.float32))))
        g2 = float(jnp.sum(jnp.square(g._data.astype(jnp.float32))))
        return min(max(math.sqrt(w2 / (g2 + wd * w2 + 1e-18)), 0.01), 100.0)

    def _cumulate_gradient(self, grad, index):
        entry = self.cumgrads.get(index)
        if entry and entry['num_cums'] > 0:
            entry = {'cum_grad': entry['cum_grad'] + grad, 'num_cums': entry['num_cums'] + 1}
        else:
            entry = {'cum_grad': grad, 'num_cums': self.init_updates + 1}
        self.cumgrads[index] = entry
        return entry

    @x64  # runs the rule eagerly: float64 weights stay float64
    def update(self, index, weight, grad, state):
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        self._update_count(index)
        entry = self._cumulate_gradient(grad, index)
        if entry['num_cums'] % self.batch_scale != 0:
            return  # MXNet runs sgd_update with lr=0 here: the weight does not change
        g = entry['cum_grad'] / self.batch_scale
        if self.warmup_strategy == 'lars':
            lr = lr * self._get_lars(weight, g, wd)
        else:
            lr = lr * self._get_lbmult(entry['num_cums'])
        momentum = self.momentum if self.momentum > 0 else 0.0
        dtype = weight._data.dtype
        h = jnp.asarray([self.rescale_grad, lr, wd, momentum], dtype=dtype)
        inner = (state._data,) if state is not None else ()
        new_w, new_inner = SGD.rule((self._clip(),), weight._data, g._data.astype(dtype), inner, h)
        weight._set_data(new_w.astype(dtype))
        if state is not None:
            state._set_data(new_inner[0].astype(dtype))
        entry['cum_grad'] = 0


@register
class Test(Optimizer):
    """MXNet's test optimizer: ``weight += rescale_grad * grad``, the state a copy of the weight."""

    def create_state(self, index, weight):
        from ..ndarray import zeros
        return zeros(weight.shape, weight.context)

    def update(self, index, weight, grad, state):
        weight[:] = weight + grad * self.rescale_grad
        state[:] = weight
