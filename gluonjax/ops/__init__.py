"""The operator table (see _registry.py); importing this package registers every operator."""
from ._registry import P, OpDef, register, get_op, find_op, all_ops, canonical_ops, REQUIRED  # noqa: F401
from ._kernel import Kernel, kernel_for  # noqa: F401

# Families written as separate modules; each registers its operators on import. A family
# that fails to import is an error: the table would otherwise miss its operators silently.
from . import elemwise, reduce, shape, nn, creation, random_ops, indexing, linalg, ctc, numpy_ops, custom  # noqa: F401,E402,E501
from . import control_flow, numpy_more, vision, sparse, optimizer_ops  # noqa: F401,E402
from . import mixed_precision, quantization  # noqa: F401,E402
from . import image  # noqa: F401,E402
from . import hawkes  # noqa: F401,E402
from . import dgl  # noqa: F401,E402
from . import cached_op  # noqa: F401,E402
from . import numpy_names  # noqa: F401,E402  (names of operators above: imported last)
