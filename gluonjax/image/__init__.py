"""``mx.image`` (also ``mx.img``): image decoding, resizing, cropping, augmenters and ImageIter;
``mx.image.det`` (``detection``): the detection augmenters and ImageDetIter."""
from . import image  # noqa: F401
from .image import *  # noqa: F401,F403
from . import detection  # noqa: F401
from . import detection as det  # noqa: F401
from .detection import *  # noqa: F401,F403

__all__ = image.__all__ + detection.__all__
