"""``mx.contrib.amp``: automatic mixed precision (see :mod:`.amp`)."""
from .amp import *  # noqa: F401,F403
from .amp import __all__  # noqa: F401
from . import lists  # noqa: F401
