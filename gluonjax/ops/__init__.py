"""The operator table (see _registry.py); importing this package registers every operator."""
from ._registry import P, OpDef, register, get_op, find_op, all_ops, canonical_ops, REQUIRED  # noqa: F401
from ._kernel import Kernel, kernel_for  # noqa: F401
from . import elemwise  # noqa: F401
import importlib as _importlib

# Families written as separate modules; each registers its operators on import.
for _family in ('reduce', 'shape', 'nn', 'creation', 'random_ops', 'indexing', 'linalg', 'ctc', 'numpy_ops', 'custom'):
    try:
        _importlib.import_module('.' + _family, __name__)
    except ModuleNotFoundError as _err:
        if _err.name != __name__ + '.' + _family:
            raise
