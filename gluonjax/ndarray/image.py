"""``mx.nd.image``: the table's ``_image_*`` operators under their short names."""
from ..ops._frontend import populate as _populate
from ._gen import make_function as _make_function

_populate(globals(), _make_function, ('_image_',))
