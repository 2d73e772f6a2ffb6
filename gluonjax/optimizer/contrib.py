"""``mx.optimizer.contrib``: GroupAdaGrad (AdaGrad with one learning rate per row)."""
import jax.numpy as jnp

from .optimizer import Optimizer, register
from .sgd import _checked, rescaled

__all__ = ['GroupAdaGrad']


@register
class GroupAdaGrad(Optimizer):
    """AdaGrad keeping one history value per row of a 2-D weight.

    ::

        g = clip(rescale_grad * grad)
        history = history + mean(g**2, axis=1, keepdims=True)     (shape (rows, 1))
        weight = weight - lr * g / sqrt(history + eps)

    Weight decay is not supported (an AssertionError when ``wd`` is not 0, as in MXNet).

    Parameters
    ----------
    eps : float, default 1e-5
    """
    _clip_if_not_none = True

    def __init__(self, eps=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = _checked(self, 'eps', eps)

    def create_state(self, index, weight):
        from ..ndarray import zeros
        assert len(weight.shape) == 2, 'GroupAdaGrad: the weight must be 2-D, got shape %s' % (
            weight.shape,)
        return zeros((weight.shape[0], 1), weight.context)

    def _config(self):
        return (self._clip(), self.float_stable_eps)

    def _leaf_hyper(self, index, lr, wd):
        assert wd == 0, 'Weight decay is not supported for GroupAdaGrad'
        return (lr, wd)

    @staticmethod
    def rule(cfg, w, g, inner, h):
        clip, eps = cfg
        r, lr = h[0], h[1]
        g = rescaled(g, r, clip)
        history = inner[0] + jnp.mean(jnp.square(g), axis=1, keepdims=True).astype(inner[0].dtype)
        return w - lr * g / jnp.sqrt(history + eps), (history,)
