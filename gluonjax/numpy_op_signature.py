"""``mx.numpy_op_signature``: the Python function behind a NumPy-mode operator name.

MXNet names its NumPy operators ``_np_<name>`` (``mx.np.<name>``) and ``_npx_<name>``
(``mx.npx.<name>``); :func:`_get_builtin_op` maps such a name to the function of the front end
(generated from the operator table or written over it), or None for other names.
"""
import types

from . import numpy as _np
from . import numpy_extension as _npx

__all__ = []

_FRONT_ENDS = (('_np_', _np), ('_npx_', _npx))


def _get_builtin_op(op_name):
    """The ``mx.np``/``mx.npx`` function named by ``_np_X``/``_npx_X`` (``X`` may be
    ``linalg_Y`` or ``random_Y`` for a submodule's function); None when there is none."""
    for prefix, module in _FRONT_ENDS:
        if not op_name.startswith(prefix):
            continue
        name = op_name[len(prefix):].lstrip('_')  # MXNet's _np__random_shuffle is np.random.shuffle
        head, _, rest = name.partition('_')
        sub = getattr(module, head, None)
        if rest and isinstance(sub, types.ModuleType) and hasattr(sub, rest):
            return getattr(sub, rest)
        return getattr(module, name, None)
    return None
