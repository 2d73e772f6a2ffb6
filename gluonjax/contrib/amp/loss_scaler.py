"""Dynamic loss scaling for AMP, with MXNet's constants and its one-step-late scale update."""
import logging

import jax
import jax.numpy as jnp

from ... import _x64


@_x64.jit
def _all_finite(grads):
    return jnp.all(jnp.stack([jnp.all(jnp.isfinite(g)) for g in grads]))


class LossScaler:
    """The loss scale: 2**16 to start, halved after a step whose gradients overflowed (that step
    is skipped), doubled after 2000 clean steps in a row, at most 2**24.

    As in MXNet, the scale a check decides takes effect from the next ``scale_loss``: the
    scale of the step being checked is the one its loss was multiplied by.
    """

    def __init__(self):
        self._loss_scale = 2.0 ** 16
        self._next_loss_scale = self._loss_scale
        self._max_loss_scale = 2.0 ** 24
        self._scale_seq_len = 2000
        self._unskipped = 0

    @property
    def loss_scale(self):
        return self._loss_scale

    def has_overflow(self, params):
        """Whether a gradient of ``params`` holds inf or nan; moves the scale on (see above)."""
        grads = tuple(g._data for p in params if p.grad_req != 'null' for g in p.list_grad())
        overflow = bool(grads) and not bool(jax.device_get(_all_finite(grads)))
        self._loss_scale = self._next_loss_scale
        if overflow:
            self._next_loss_scale = self._loss_scale / 2.0
            self._unskipped = 0
            logging.info('AMP: decreasing loss scale to %f', self._next_loss_scale)
        else:
            self._unskipped += 1
        if self._unskipped == self._scale_seq_len:
            self._unskipped = 0
            self._next_loss_scale = min(self._max_loss_scale, self._loss_scale * 2.0)
            logging.info('AMP: increasing loss scale to %f', self._next_loss_scale)
        return overflow
