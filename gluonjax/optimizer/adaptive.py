"""Per-coordinate adaptive optimizers: RMSProp, AdaGrad, AdaDelta, Ftrl and FTML (MXNet's formulas)."""
import jax.numpy as jnp

from .optimizer import Optimizer, register
from .sgd import _checked, rescaled, zeros_state

__all__ = ['RMSProp', 'AdaGrad', 'AdaDelta', 'Ftrl', 'FTML']


@register
class RMSProp(Optimizer):
    """RMSProp: Tieleman & Hinton's, or Graves's centered version (``centered=True``).

    With ``g = clip(rescale_grad * grad + wd * weight)``::

        n = (1 - gamma1) * g**2 + gamma1 * n
        weight = weight - lr * g / sqrt(n + epsilon)                      (centered=False)

        s = (1 - gamma1) * g + gamma1 * s                                 (centered=True)
        delta = gamma2 * delta - lr * g / sqrt(n - s**2 + epsilon)
        weight = weight + delta

    then the weights are clipped to ``[-clip_weights, clip_weights]`` when given.

    Parameters
    ----------
    learning_rate : float, default 0.001
    gamma1 : float, default 0.9
        Decay of the moving averages.
    gamma2 : float, default 0.9
        Momentum of the centered version.
    epsilon : float, default 1e-8
    centered : bool, default False
    clip_weights : float, optional
    """

    def __init__(self, learning_rate=0.001, gamma1=0.9, gamma2=0.9, epsilon=1e-8, centered=False,
                 clip_weights=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1 = _checked(self, 'gamma1', gamma1)
        self.gamma2 = _checked(self, 'gamma2', gamma2)
        self.centered = bool(centered)
        self.epsilon = _checked(self, 'epsilon', epsilon)
        self.clip_weights = clip_weights

    def create_state(self, index, weight):
        n = 3 if self.centered else 1
        return tuple(zeros_state(weight, stype=weight.stype) for _ in range(n))

    def _config(self):
        return (self._clip(), self.gamma1, self.gamma2, self.epsilon,
                float(self.clip_weights) if self.clip_weights else None)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, gamma1, gamma2, eps, clip_weights = cfg
        r, lr, wd = h[0], h[1], h[2]
        g = r * g + wd * w
        if clip is not None:
            g = jnp.clip(g, -clip, clip)
        n = (1 - gamma1) * jnp.square(g) + gamma1 * inner[0]
        if len(inner) == 1:
            w = w - lr * g / jnp.sqrt(n + eps)
            state = (n,)
        else:
            s = (1 - gamma1) * g + gamma1 * inner[1]
            delta = gamma2 * inner[2] - lr * g / jnp.sqrt(n - jnp.square(s) + eps)
            w = w + delta
            state = (n, s, delta)
        if clip_weights is not None:
            w = jnp.clip(w, -clip_weights, clip_weights)
        return w, state


@register
class AdaGrad(Optimizer):
    """AdaGrad.

    ::

        g = clip(rescale_grad * grad)
        history = history + g**2
        weight = weight - lr * (g / sqrt(history + eps) + wd * weight)

    Parameters
    ----------
    eps : float, default 1e-7
    """
    _clip_if_not_none = True

    def __init__(self, eps=1e-7, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = _checked(self, 'eps', eps)

    def create_state(self, index, weight):
        return zeros_state(weight, stype=weight.stype)

    def _config(self):
        return (self._clip(), self.float_stable_eps)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, eps = cfg
        r, lr, wd = h[0], h[1], h[2]
        g = rescaled(g, r, clip)
        history = inner[0] + jnp.square(g)
        return w + (g / jnp.sqrt(history + eps) + w * wd) * -lr, (history,)


@register
class AdaDelta(Optimizer):
    """AdaDelta (no learning rate).

    ::

        g = clip(rescale_grad * grad)
        acc_g = rho * acc_g + (1 - rho) * g**2
        delta = sqrt(acc_delta + epsilon) / sqrt(acc_g + epsilon) * g
        acc_delta = rho * acc_delta + (1 - rho) * delta**2
        weight = weight - (delta + wd * weight)

    Parameters
    ----------
    rho : float, default 0.9
    epsilon : float, default 1e-5
    """
    _clip_if_not_none = True

    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.rho = _checked(self, 'rho', rho)
        self.epsilon = _checked(self, 'epsilon', epsilon)

    def create_state(self, index, weight):
        return (zeros_state(weight), zeros_state(weight))

    def _config(self):
        return (self._clip(), self.rho, self.epsilon)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, rho, eps = cfg
        r, wd = h[0], h[2]
        g = rescaled(g, r, clip)
        acc_g = rho * inner[0] + (1. - rho) * jnp.square(g)
        delta = jnp.sqrt(inner[1] + eps) / jnp.sqrt(acc_g + eps) * g
        acc_delta = rho * inner[1] + (1. - rho) * jnp.square(delta)
        return w - (delta + wd * w), (acc_g, acc_delta)


@register
class Ftrl(Optimizer):
    """Follow the regularized leader (FTRL-proximal).

    ::

        g = clip(rescale_grad * grad)
        z = z + g - (sqrt(n + g**2) - sqrt(n)) * weight / lr
        n = n + g**2
        weight = (sign(z) * lamda1 - z) / ((beta + sqrt(n)) / lr + wd) * (abs(z) > lamda1)

    Parameters
    ----------
    lamda1 : float, default 0.01
        L1 regularisation.
    learning_rate : float, default 0.1
    beta : float, default 1
    """

    _sparse_rows_only = True

    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super().__init__(**kwargs)
        from .optimizer import _number
        self.lamda1 = _checked(self, 'lamda1', lamda1)
        self.beta = _checked(self, 'beta', beta)
        self.lr = _number('Ftrl', 'learning_rate', learning_rate)

    def create_state(self, index, weight):
        return (zeros_state(weight, stype=weight.stype), zeros_state(weight, stype=weight.stype))

    def _config(self):
        return (self._clip(), self.lamda1, self.beta)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, lamda1, beta = cfg
        r, lr, wd = h[0], h[1], h[2]
        g = rescaled(g, r, clip)
        z, n = inner
        z = z + g - (jnp.sqrt(n + jnp.square(g)) - jnp.sqrt(n)) * w / lr
        n = n + jnp.square(g)
        new_w = (jnp.sign(z) * lamda1 - z) / ((beta + jnp.sqrt(n)) / lr + wd) * (jnp.abs(z) > lamda1)
        return new_w, (z, n)


@register
class FTML(Optimizer):
    """Follow the moving leader (Zheng & Kwok, 2017), as MXNet 1.9's ``ftml_update``.

    With ``g = clip(rescale_grad * grad + wd * weight)`` and ``t`` the update count::

        v = beta2 * v + (1 - beta2) * g**2
        d_t = (1 - beta1**t) / lr * (sqrt(v / (1 - beta2**t)) + epsilon)
        z = beta1 * z + (1 - beta1) * g - (d_t - beta1 * d) * weight
        d = d_t
        weight = -z / d_t

    Parameters
    ----------
    beta1 : float, default 0.6
    beta2 : float, default 0.999
    epsilon : float, default 1e-8
    """

    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super().__init__(**kwargs)
        self.beta1 = _checked(self, 'beta1', beta1)
        self.beta2 = _checked(self, 'beta2', beta2)
        self.epsilon = _checked(self, 'epsilon', epsilon)

    def create_state(self, index, weight):
        return (zeros_state(weight), zeros_state(weight), zeros_state(weight))  # d, v, z

    def _config(self):
        return (self._clip(), self.beta1, self.beta2, self.epsilon)

    def _leaf_hyper(self, index, lr, wd):
        t = self._index_update_count[index]
        return (lr, wd, 1. - self.beta1 ** t, 1. - self.beta2 ** t)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, beta1, beta2, eps = cfg
        r, lr, wd, corr1, corr2 = h[0], h[1], h[2], h[3], h[4]
        g = r * g + wd * w
        if clip is not None:
            g = jnp.clip(g, -clip, clip)
        d, v, z = inner
        v = beta2 * v + (1 - beta2) * jnp.square(g)
        d_t = corr1 / lr * (jnp.sqrt(v / corr2) + eps)
        z = beta1 * z + (1 - beta1) * g - (d_t - beta1 * d) * w
        return -z / d_t, (d_t, v, z)
