"""``mx.sym.image``: the table's ``_image_*`` operators under their short names."""
import sys as _sys

from ._gen import populate_namespace as _populate

_populate(_sys.modules[__name__], ('_image_',))
