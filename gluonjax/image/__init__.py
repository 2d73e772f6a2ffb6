"""``mx.image`` (also ``mx.img``): image decoding, resizing, cropping, augmenters and ImageIter."""
from . import image  # noqa: F401
from .image import *  # noqa: F401,F403
from .image import __all__  # noqa: F401
