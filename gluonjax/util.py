"""``mx.util``: the switches of NumPy semantics, under the names MXNet also gives them here."""
from .numpy_extension._mode import (set_np, reset_np, is_np_array, is_np_shape, use_np,  # noqa: F401
                                    use_np_array, use_np_shape, np_array, np_shape, is_np_default_dtype)


def set_np_shape(active):
    """Turn NumPy shape semantics on or off; returns the previous state (as MXNet)."""
    from .numpy._state import set_np_state
    previous = is_np_shape()
    set_np_state(is_np_array() and active, active)
    return previous
