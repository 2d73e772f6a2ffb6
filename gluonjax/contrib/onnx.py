"""``mx.contrib.onnx``: MXNet 1.9.1's older path to the ONNX export, ``mx.onnx.export_model``.

MXNet 1.9.1 announces on stdout that this path is deprecated in favour of ``mx.onnx``, and so
does gluonjax. Importing ONNX models (``import_model``, ``get_model_metadata``,
``import_to_gluon``) is not provided.
"""
from ..onnx import export_model as _export_model

__all__ = ['export_model', 'import_model', 'get_model_metadata', 'import_to_gluon']


def export_model(*args, **kwargs):
    """``mx.onnx.export_model`` (see there), after MXNet's notice that this path is deprecated."""
    print('Calling mxnet.contrib.onnx.export_model...')
    print('mxnet.contrib.onnx.export_model is deprecated: use mxnet.onnx.export_model, where the '
          'ONNX module now lives.')
    return _export_model(*args, **kwargs)


def _no_import(name):
    def fn(*args, **kwargs):
        raise NotImplementedError('mx.contrib.onnx.%s: gluonjax exports ONNX models (mx.onnx.export_model) '
                                  'but does not import them' % name)
    fn.__name__ = name
    return fn


import_model = _no_import('import_model')
get_model_metadata = _no_import('get_model_metadata')
import_to_gluon = _no_import('import_to_gluon')
