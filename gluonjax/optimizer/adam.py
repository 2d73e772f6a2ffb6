"""Adam-family optimizers: Adam, AdamW, Adamax, Nadam and LAMB, with MXNet's formulas.

Bias corrections depend only on the update count ``t`` of each weight; they are worked
out on the host in float64, as MXNet's Python does, and reach the compiled rule as
per-weight scalars.
"""
import math

import jax.numpy as jnp
import numpy as np

from .optimizer import Optimizer, register
from .sgd import _checked, lazy_stype, rescaled, zeros_state

__all__ = ['Adam', 'AdamW', 'Adamax', 'Nadam', 'LAMB']


def _in_dtype(value, dtype):
    """A hyper-parameter as MXNet's fused kernels hold it: a float32 operator parameter cast
    to the weight's dtype, so that their ``1 - beta2`` is, for float16, 1 - 0.99902 rather
    than 0.001 rounded (and for float64, 1 - 0.999 as a float32)."""
    return float(np.asarray(np.float32(value), dtype=dtype))


def _moments(g, mean, var, beta1, beta2):
    mean = beta1 * mean + (1 - beta1) * g
    var = beta2 * var + (1 - beta2) * jnp.square(g)
    return mean, var


@register
class Adam(Optimizer):
    """Adam, as MXNet 1.9's ``adam_update`` with the bias correction folded into lr.

    ::

        g = clip(rescale_grad * grad + wd * weight)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g**2
        lr_t = lr * sqrt(1 - beta2**t) / (1 - beta1**t)
        weight = weight - lr_t * m / (sqrt(v) + epsilon)

    Parameters
    ----------
    learning_rate : float, default 0.001
    beta1 : float, default 0.9
    beta2 : float, default 0.999
    epsilon : float, default 1e-8
    lazy_update : bool, default True
        With a row_sparse gradient, update only the rows it holds (weight and states);
        otherwise every row, the missing gradient rows counting as zero.
    """
    _row_wise = True

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 lazy_update=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = _checked(self, 'beta1', beta1)
        self.beta2 = _checked(self, 'beta2', beta2)
        self.epsilon = _checked(self, 'epsilon', epsilon)
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        stype = lazy_stype(self, weight)
        return (zeros_state(weight, stype=stype), zeros_state(weight, stype=stype))

    def _config(self):
        return (self._clip(), self.beta1, self.beta2, self.epsilon)

    def _leaf_hyper(self, index, lr, wd):
        t = self._index_update_count[index]
        return (lr * math.sqrt(1. - self.beta2 ** t) / (1. - self.beta1 ** t), wd)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, beta1, beta2, eps = cfg
        r, lr, wd = h[0], h[1], h[2]
        g = r * g + wd * w
        if clip is not None:
            g = jnp.clip(g, -clip, clip)
        beta1, beta2 = _in_dtype(beta1, w.dtype), _in_dtype(beta2, w.dtype)  # adam_update's casts
        mean, var = _moments(g, inner[0], inner[1], beta1, beta2)
        return w - lr * mean / (jnp.sqrt(var) + eps), (mean, var)


@register
class AdamW(Optimizer):
    """Adam with decoupled weight decay (MXNet 2's AdamW on MXNet 1.9's ``adamw_update``).

    ::

        g = clip(rescale_grad * grad)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g**2
        lr_t = lr * sqrt(1 - beta2**t) / (1 - beta1**t)     (lr_t = lr without correct_bias)
        weight = weight - lr_t * (m / (sqrt(v) + epsilon) + wd * weight)

    MXNet 1.9 has no 'adamw' optimizer, only the ``contrib.adamw_update`` operator; this
    is the optimizer MXNet 2 builds on it. A rescale_grad of 0, inf or nan skips the update.

    Parameters
    ----------
    learning_rate : float, default 0.001
    beta1 : float, default 0.9
    beta2 : float, default 0.999
    epsilon : float, default 1e-6
    correct_bias : bool, default True
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6,
                 correct_bias=True, use_fused_step=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = _checked(self, 'beta1', beta1)
        self.beta2 = _checked(self, 'beta2', beta2)
        self.epsilon = _checked(self, 'epsilon', epsilon)
        self.correct_bias = bool(correct_bias)
        self.use_fused_step = use_fused_step

    def create_state(self, index, weight):
        return (zeros_state(weight), zeros_state(weight))

    def _config(self):
        return (self._clip(), self.beta1, self.beta2, self.epsilon)

    def _leaf_hyper(self, index, lr, wd):
        if self.correct_bias:
            t = self._index_update_count[index]
            lr *= math.sqrt(1. - self.beta2 ** t) / (1. - self.beta1 ** t)
        return (lr, wd)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, beta1, beta2, eps = cfg
        r, eta, wd = h[0], h[1], h[2]
        mean, var = _moments(rescaled(g, r, clip), inner[0], inner[1], beta1, beta2)
        new_w = w - eta * (mean / (jnp.sqrt(var) + eps) + wd * w)
        ok = jnp.isfinite(r) & (r != 0)
        return (jnp.where(ok, new_w, w),
                (jnp.where(ok, mean, inner[0]), jnp.where(ok, var, inner[1])))


@register
class Adamax(Optimizer):
    """AdaMax, Adam with the infinity norm.

    ::

        g = clip(rescale_grad * grad + wd * weight)
        m = beta1 * m + (1 - beta1) * g
        u = maximum(beta2 * u, abs(g))
        weight = weight - lr / (1 - beta1**t) * m / u
    """
    _clip_if_not_none = True

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = _checked(self, 'beta1', beta1)
        self.beta2 = _checked(self, 'beta2', beta2)

    def create_state(self, index, weight):
        return (zeros_state(weight), zeros_state(weight))

    def _config(self):
        return (self._clip(), self.beta1, self.beta2)

    def _leaf_hyper(self, index, lr, wd):
        t = self._index_update_count[index]
        return (lr / (1. - self.beta1 ** t), wd)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, beta1, beta2 = cfg
        r, lr, wd = h[0], h[1], h[2]
        g = r * g + wd * w
        if clip is not None:
            g = jnp.clip(g, -clip, clip)
        mean = beta1 * inner[0] + (1. - beta1) * g
        u = jnp.maximum(beta2 * inner[1], jnp.abs(g))
        return w - lr * mean / u, (mean, u)


@register
class Nadam(Optimizer):
    """Nesterov Adam, with MXNet's momentum schedule.

    ::

        g = clip(rescale_grad * grad + wd * weight)
        mu_t = beta1 * (1 - 0.5 * 0.96**(t * schedule_decay)),  mu_t1 likewise at t + 1
        m_schedule = m_schedule * mu_t          (one product over all updates, as in MXNet)
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g**2
        m_bar = (1 - mu_t) * g / (1 - m_schedule) + mu_t1 * m / (1 - m_schedule * mu_t1)
        weight = weight - lr * m_bar / (sqrt(v / (1 - beta2**t)) + epsilon)
    """
    _clip_if_not_none = True

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 schedule_decay=0.004, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = _checked(self, 'beta1', beta1)
        self.beta2 = _checked(self, 'beta2', beta2)
        self.epsilon = _checked(self, 'epsilon', epsilon)
        self.schedule_decay = _checked(self, 'schedule_decay', schedule_decay)
        self.m_schedule = 1.

    def create_state(self, index, weight):
        return (zeros_state(weight), zeros_state(weight))

    def _config(self):
        return (self._clip(), self.beta1, self.beta2, self.epsilon)

    def _leaf_hyper(self, index, lr, wd):
        t = self._index_update_count[index]
        mu_t = self.beta1 * (1. - 0.5 * pow(0.96, t * self.schedule_decay))
        mu_t1 = self.beta1 * (1. - 0.5 * pow(0.96, (t + 1) * self.schedule_decay))
        self.m_schedule = self.m_schedule * mu_t
        return (lr, wd, mu_t, mu_t1, 1. - self.m_schedule, 1. - self.m_schedule * mu_t1,
                1. - pow(self.beta2, t))

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, beta1, beta2, eps = cfg
        r, lr, wd, mu_t, mu_t1, c_sched, c_next, c_var = (h[i] for i in range(8))
        g = r * g + wd * w
        if clip is not None:
            g = jnp.clip(g, -clip, clip)
        mean, var = _moments(g, inner[0], inner[1], beta1, beta2)
        m_bar = (1. - mu_t) * (g / c_sched) + mu_t1 * (mean / c_next)
        return w - lr * m_bar / (jnp.sqrt(var / c_var) + eps), (mean, var)


@register
class LAMB(Optimizer):
    """LAMB: Adam's direction scaled by the trust ratio ``|weight| / |update|``.

    ::

        g = clip(rescale_grad * grad)
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g**2
        m_hat, v_hat = m / (1 - beta1**t), v / (1 - beta2**t)   (m, v without bias_correction)
        u = m_hat / (sqrt(v_hat) + epsilon) + wd * weight
        r1 = |weight| clamped to [lower_bound, upper_bound] when given;  r2 = |u|
        weight = weight - lr * (r1 / r2 if r1 > 0 and r2 > 0 else 1) * u

    Parameters
    ----------
    learning_rate : float, default 0.001
    beta1, beta2, epsilon : float
    lower_bound, upper_bound : float, optional
    bias_correction : bool, default True
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6,
                 lower_bound=None, upper_bound=None, bias_correction=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = _checked(self, 'beta1', beta1)
        self.beta2 = _checked(self, 'beta2', beta2)
        self.epsilon = _checked(self, 'epsilon', epsilon)
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.bias_correction = bool(bias_correction)
        self.aggregate_num = 45

    def create_state(self, index, weight):
        return (zeros_state(weight), zeros_state(weight))

    def _config(self):
        return (self._clip(), self.beta1, self.beta2, self.epsilon, self.bias_correction,
                float(self.lower_bound) if self.lower_bound else None,
                float(self.upper_bound) if self.upper_bound else None)

    def _leaf_hyper(self, index, lr, wd):
        t = self._index_update_count[index]
        return (lr, wd, 1. - self.beta1 ** t, 1. - self.beta2 ** t)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, beta1, beta2, eps, bias_correction, lower, upper = cfg
        r, lr, wd, c1, c2 = h[0], h[1], h[2], h[3], h[4]
        beta1, beta2 = _in_dtype(beta1, w.dtype), _in_dtype(beta2, w.dtype)  # lamb_update_phase1's
        mean, var = _moments(rescaled(g, r, clip), inner[0], inner[1], beta1, beta2)
        if bias_correction:
            u = (mean / c1) / (jnp.sqrt(var / c2) + eps) + wd * w
        else:
            u = mean / (jnp.sqrt(var) + eps) + wd * w
        r1 = jnp.sqrt(jnp.sum(jnp.square(w.astype(jnp.float32))))
        r2 = jnp.sqrt(jnp.sum(jnp.square(u.astype(jnp.float32))))
        if lower is not None:
            r1 = jnp.maximum(r1, lower)
        if upper is not None:
            r1 = jnp.minimum(r1, upper)
        ratio = jnp.where((r1 > 0) & (r2 > 0), r1 / r2, 1.0).astype(w.dtype)
        return w - lr * ratio * u, (mean, var)
