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
