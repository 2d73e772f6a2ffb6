"""mx.nd.linalg: operators of the table under the linalg namespace (``_linalg_gemm2`` as ``gemm2``)."""
import keyword as _keyword

from ..ops import all_ops as _all_ops
from ._gen import make_function as _make_function

for _name, _op in _all_ops().items():
    if _name.startswith('_linalg_') and not _keyword.iskeyword(_name[8:]):
        globals().setdefault(_name[8:], _make_function(_op, _name[8:]))
