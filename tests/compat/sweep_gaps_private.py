"""The module paths of MXNet's NumPy front end that libraries import, private ones included."""
import importlib
for mod in ['mxnet.ndarray.numpy._op', 'mxnet.ndarray.numpy', 'mxnet.ndarray.numpy.random', 'mxnet.ndarray.numpy.linalg',
            'mxnet.ndarray.numpy_extension', 'mxnet.ndarray.numpy_extension._op', 'mxnet.ndarray.numpy_extension.random',
            'mxnet.symbol.numpy._symbol', 'mxnet.symbol.numpy', 'mxnet.symbol.numpy.random', 'mxnet.symbol.numpy.linalg',
            'mxnet.symbol.numpy_extension', 'mxnet.symbol.numpy_extension._op', 'mxnet.symbol.numpy_extension.random',
            'mxnet.numpy_extension', 'mxnet.numpy_extension.utils', 'mxnet.numpy_extension.random', 'mxnet.numpy_extension._op',
            'mxnet.numpy.multiarray', 'mxnet.numpy.utils', 'mxnet.numpy.function_base', 'mxnet.numpy.stride_tricks', 'mxnet.numpy.io',
            'mxnet.numpy.arrayprint', 'mxnet.numpy.fallback', 'mxnet.numpy.fallback_linalg', 'mxnet.numpy.linalg', 'mxnet.numpy.random',
            'mxnet.ndarray.numpy._internal', 'mxnet.symbol.numpy._internal', 'mxnet.ndarray.numpy_extension._internal',
            'mxnet.numpy_op_signature', 'mxnet.numpy_dispatch_protocol', 'mxnet.util', 'mxnet.ndarray._internal', 'mxnet.symbol._internal',
            'mxnet._numpy_op_doc', 'mxnet.ndarray.op', 'mxnet.symbol.op',
            'mxnet.ndarray.gen_op', 'mxnet.symbol.gen_op', 'mxnet.gluon.block', 'mxnet.gluon.utils', 'mxnet.base', 'mxnet.ndarray.ndarray',
            'mxnet.symbol.symbol', 'mxnet.ndarray.contrib', 'mxnet.ndarray.sparse', 'mxnet.ndarray.utils', 'mxnet.context', 'mxnet.device']:
    try:
        m = importlib.import_module(mod)
        print(mod, 'ok')
    except Exception as e:
        print(mod, type(e).__name__)
from mxnet.ndarray.numpy import _op
print(callable(_op.add), callable(_op.sum), callable(_op.zeros))
from mxnet.symbol.numpy import _symbol
print(isinstance(_symbol._Symbol, type), callable(_symbol.add), callable(_symbol.zeros))
from mxnet import numpy_extension as npx
print(callable(npx.relu), callable(npx.set_np), callable(npx.softmax))
import mxnet as mx
a = mx.np.array([1., 2.])
print(_op.add(a, a), _op.sum(a), type(_op.zeros((2,))).__name__)
print(mx.nd.np._op.add is _op.add if hasattr(mx.nd, 'np') else None)
from mxnet.ndarray.numpy import _internal as _npi
print(_npi.add(a, a))
from mxnet.ndarray.numpy_extension import _op as _npxop
print(_npxop.relu(mx.np.array([-1., 2.])))
from mxnet.numpy.multiarray import ndarray as ND
print(ND is mx.np.ndarray)
from mxnet.util import use_np, is_np_array, set_np
from mxnet.numpy_extension.utils import save, load
from mxnet.numpy.stride_tricks import broadcast_arrays
print(callable(save), callable(load), [b.shape for b in broadcast_arrays(mx.np.ones((2, 1)), mx.np.ones((3,)))])
from mxnet.symbol.numpy import _symbol as S
s = S.add(mx.sym.var('x').as_np_ndarray(), 1.0)
print(type(s).__name__ in ('_Symbol', 'NumpySymbol'), s.list_arguments())
from mxnet.ndarray import op as ndop
from mxnet.symbol import op as symop
print(ndop.relu(mx.nd.array([-1, 1])).asnumpy().tolist(), symop.relu(mx.sym.var('a')).list_arguments())
