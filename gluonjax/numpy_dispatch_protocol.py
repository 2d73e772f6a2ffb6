"""``mx.numpy_dispatch_protocol``: official NumPy functions and ufuncs on ``mx.np.ndarray`` run
mx.np's (gluonjax/numpy/_dispatch.py), and the decorators MXNet's tests use to say so."""
import functools

from .numpy import _dispatch

__all__ = ['with_array_function_protocol', 'with_array_ufunc_protocol']

# The NumPy function / ufunc names dispatched to mx.np (MXNet's names, as listed there)
_NUMPY_ARRAY_FUNCTION_LIST = _dispatch.FUNCTION_NAMES
_NUMPY_ARRAY_UFUNC_LIST = _dispatch.UFUNC_NAMES


def _reporting(protocol):
    """A decorator running a function that relies on ``protocol``; a failure is re-raised as a
    RuntimeError naming the function, as MXNet's decorators do."""
    def decorator(func):
        @functools.wraps(func)
        def run(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except Exception as err:
                raise RuntimeError('Running function %s with NumPy %s protocol failed with exception %s'
                                   % (func.__name__, protocol, err)) from err
        return run
    return decorator


with_array_function_protocol = _reporting('array function')
with_array_ufunc_protocol = _reporting('array ufunc')
