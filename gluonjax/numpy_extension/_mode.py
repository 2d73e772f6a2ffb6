"""``npx.set_np()`` and friends: switching Gluon to ``mx.np`` arrays."""
import functools
import inspect

from ..base import MXNetError
from ..numpy._state import is_np_array, is_np_shape, set_np_state, np_scope

__all__ = ['set_np', 'reset_np', 'is_np_array', 'is_np_shape', 'use_np', 'use_np_array', 'use_np_shape',
           'np_array', 'np_shape', 'is_np_default_dtype']


def set_np(shape=True, array=True, dtype=False):
    """Use NumPy semantics: Gluon Blocks, Parameters and DataLoaders give ``mx.np.ndarray``.

    As in MXNet, ``array=True`` requires ``shape=True``; ``dtype=True`` (float64 defaults)
    is not supported by gluonjax.
    """
    if array and not shape:
        raise ValueError('NumPy Shape semantics is required in using NumPy array semantics.')
    if dtype:
        raise MXNetError('set_np(dtype=True): float64 default dtypes are not supported by gluonjax')
    set_np_state(array, shape)


def reset_np():
    """Back to the legacy ``mx.nd`` semantics."""
    set_np_state(False, False)


def is_np_default_dtype():
    return False


def np_array(active=True):
    """A ``with`` scope in which NumPy array semantics are on (or off)."""
    return np_scope(active, active or is_np_shape())


def np_shape(active=True):
    return np_scope(is_np_array() and active, active)


def _wrap(func, array, shape):
    @functools.wraps(func)
    def run(*args, **kwargs):
        with np_scope(array, shape):
            return func(*args, **kwargs)
    return run


def _decorate(obj, array, shape):
    if inspect.isclass(obj):
        # inherited entry points too (as MXNet wraps every method): Block.__call__ finishes the
        # deferred initialisation of Parameters, which then hold mx.np arrays
        for name in ('__init__', '__call__', 'forward', 'hybrid_forward'):
            fn = getattr(obj, name, None)
            if fn is not None and callable(fn) and fn is not getattr(object, name, None):
                setattr(obj, name, _wrap(fn, array, shape))
        return obj
    if callable(obj):
        return _wrap(obj, array, shape)
    raise TypeError('use_np: expected a function or a class, got %s' % type(obj).__name__)


def use_np(func):
    """Decorate a function or a Block class so it runs with NumPy semantics."""
    return _decorate(func, True, True)


def use_np_array(func):
    return _decorate(func, True, True)


def use_np_shape(func):
    return _decorate(func, is_np_array(), True)
