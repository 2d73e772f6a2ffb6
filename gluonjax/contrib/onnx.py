"""``mx.contrib.onnx``: MXNet 1.9.1's older path to the ONNX export, ``mx.onnx.export_model``.

MXNet 1.9.1 announces on stdout that this path is deprecated in favour of ``mx.onnx``, and so
does gluonjax. Importing ONNX models (``import_model``, ``get_model_metadata``,
``import_to_gluon``) lives here only, as in MXNet 1.9.1 (``gluonjax/onnx/_import.py``).
"""
from ..onnx import export_model as _export_model
from ..onnx._import import get_model_metadata, import_model, import_to_gluon

__all__ = ['export_model', 'import_model', 'get_model_metadata', 'import_to_gluon']


def export_model(*args, **kwargs):
    """``mx.onnx.export_model`` (see there), after MXNet's notice that this path is deprecated."""
    print('Calling mxnet.contrib.onnx.export_model...')
    print('mxnet.contrib.onnx.export_model is deprecated: use mxnet.onnx.export_model, where the '
          'ONNX module now lives.')
    return _export_model(*args, **kwargs)
