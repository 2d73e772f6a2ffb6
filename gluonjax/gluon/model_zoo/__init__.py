"""``mx.gluon.model_zoo``: MXNet 1.9.1's image classification models (``vision``).

Parameter names, shapes, order and printed forms are those of MXNet 1.9.1, so weight files
written by MXNet (``save_parameters`` or ``collect_params().save``) load into these nets.
Pretrained weights are read from local files only: gluonjax never downloads (see
``model_store.get_model_file``).
"""
from . import model_store  # noqa: F401
from . import vision  # noqa: F401
