"""``mx.onnx``: export a symbol (or a hybridized Gluon block) with its parameters as an ONNX model.

``mx.onnx.export_model(sym, params, in_shapes, in_types, onnx_file_path)`` has MXNet 1.9.1's
signature. Each operator's ONNX form is a field of its operator-table entry (``OpDef.onnx``,
see ``gluonjax/ops/_onnx.py``); ``get_operator_support()`` lists the operators that have one.
The ``onnx`` package is needed to export (``pip install 'gluonjax[onnx]'``), not to import this
module.
"""
from ._export import OPSET, export_model, get_operator_support

__all__ = ['export_model', 'get_operator_support', 'OPSET']
