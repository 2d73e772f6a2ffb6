"""``mx.contrib.autograd``: the autograd API of MXNet 0.11, kept by MXNet 1.x for old scripts.

Training and recording are one switch here (``train_section`` records and trains,
``test_section`` does neither); ``grad_and_loss`` wraps a function so that it returns the
gradients of its output with respect to its arguments. It is written over ``mx.autograd``.
"""
import functools

from .. import autograd as _autograd
from ..ndarray import NDArray, zeros_like

__all__ = ['set_is_training', 'TrainingStateScope', 'train_section', 'test_section',
           'mark_variables', 'backward', 'compute_gradient', 'grad_and_loss', 'grad']


def set_is_training(is_train):
    """Turn training and recording on or off together; returns the previous training state."""
    prev = _autograd.set_training(is_train)
    _autograd.set_recording(is_train)
    return prev


class TrainingStateScope:
    """A ``with`` block in which training (and recording) is ``enter_state``."""

    def __init__(self, enter_state):
        self._enter_state = enter_state
        self._prev = None

    def __enter__(self):
        self._prev = set_is_training(self._enter_state)

    def __exit__(self, *exc):
        if self._prev != self._enter_state:
            set_is_training(self._prev)


def train_section():
    """``with train_section():`` records operators, in training mode."""
    return TrainingStateScope(True)


def test_section():
    """``with test_section():`` inside a train_section: inference, nothing recorded."""
    return TrainingStateScope(False)


mark_variables = _autograd.mark_variables


def backward(outputs, out_grads=None, retain_graph=False):
    """Gradients of ``outputs`` (an NDArray or a list) into the marked variables' buffers;
    ``out_grads`` may hold None for the heads that take the default gradient of ones."""
    if isinstance(outputs, NDArray):
        outputs = [outputs]
        out_grads = None if out_grads is None else [out_grads]
    _autograd.backward(list(outputs), out_grads, retain_graph=retain_graph)


def compute_gradient(outputs):
    """``backward(outputs)``: kept for compatibility."""
    backward(outputs)


def grad_and_loss(func, argnum=None):
    """``func`` wrapped to return ``(gradients, output)``: the gradients of the output with
    respect to the arguments (those at positions ``argnum`` when given: an int or a list)."""
    @functools.wraps(func)
    def wrapped(*args):
        variables = args
        if argnum is not None:
            positions = argnum if isinstance(argnum, list) else [argnum]
            variables = [args[i] for i in positions]
        for x in variables:
            if not isinstance(x, NDArray):
                raise TypeError('type of autograd input should NDArray, got %s' % type(x).__name__)
        grads = [zeros_like(x) for x in variables]
        mark_variables(list(variables), grads)
        with train_section():
            outputs = func(*args)
        compute_gradient([outputs] if isinstance(outputs, NDArray) else outputs)
        return grads, outputs
    return wrapped


def grad(func, argnum=None):
    """``func`` wrapped to return the gradients of its output with respect to its arguments."""
    grad_with_loss = grad_and_loss(func, argnum)

    @functools.wraps(grad_with_loss)
    def wrapped(*args):
        return grad_with_loss(*args)[0]
    return wrapped
