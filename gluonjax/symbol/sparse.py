"""``mx.sym.sparse``: the table's ``_sparse_*`` operators under their short names."""
from ..ops._frontend import populate as _populate
from ._gen import make_function as _make_function

_populate(globals(), _make_function, ('_sparse_',))
