"""``mx.util``: the switches of NumPy semantics, under the names MXNet also gives them here, and
MXNet's environment helpers."""
import os

from .numpy_extension._mode import (set_np, reset_np, is_np_array, is_np_shape, use_np,  # noqa: F401
                                    use_np_array, use_np_shape, np_array, np_shape, is_np_default_dtype)


def set_np_shape(active):
    """Turn NumPy shape semantics on or off; returns the previous state (as MXNet)."""
    from .numpy._state import set_np_state
    previous = is_np_shape()
    set_np_state(is_np_array() and active, active)
    return previous


def getenv(name):
    """The value of environment variable ``name`` as the runtime sees it, or None when unset.

    MXNet reads its C++ library's environment here; gluonjax has one environment, the process's."""
    return os.environ.get(name)


def setenv(name, value):
    """Set environment variable ``name`` to the string ``value``; ``value=None`` unsets it."""
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = str(value)


def get_gpu_count():
    """How many GPUs jax can see."""
    from .context import num_gpus
    return num_gpus()


def get_gpu_memory(gpu_dev_id):
    """(free, total) bytes of GPU ``gpu_dev_id``, as MXNet returns them."""
    from .context import gpu_memory_info
    return gpu_memory_info(gpu_dev_id)


class _NumpyArrayScope:
    """MXNet's scope object behind ``np_array(active)``: ``with _NumpyArrayScope(True):`` turns NumPy
    array semantics on (or off) in this thread for the block; ``_is_np_array`` says which."""
    _current = None   # MXNet keeps the innermost scope here; gluonjax's state lives in numpy._state

    def __init__(self, is_np_array):
        self._is_np_array = bool(is_np_array)
        self._scope = None

    def __enter__(self):
        from .numpy._state import np_scope
        self._scope = np_scope(array=self._is_np_array, shape=is_np_shape())
        self._scope.__enter__()
        return self

    def __exit__(self, ptype, value, trace):
        scope, self._scope = self._scope, None
        return scope.__exit__(ptype, value, trace)
