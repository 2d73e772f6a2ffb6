"""``mx.sym._internal``: the table's operators whose MXNet names start with '_' (``_plus_scalar``,
``_crop_assign``), under those names, as in MXNet's generated module."""
from ..ops import all_ops as _all_ops
from ._gen import make_function as _make_function

globals().update({name: _make_function(op, name) for name, op in _all_ops().items()
                  if name.startswith('_') and name not in globals()})
