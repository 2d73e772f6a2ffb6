# mx.test_utils helpers scripts and libraries call, mx.util and mx.runtime.Features.
import contextlib
import io

import numpy as np
import mxnet as mx
from mxnet import test_utils as tu


def attempt(f):
    try:
        v = f()
        print(v if isinstance(v, (str, int, float, list, tuple, bool, type(None))) else type(v).__name__)
    except Exception as e:
        print(type(e).__name__)


def quietly(f):
    """attempt(f)'s line, without what f prints before it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        attempt(f)
    print(out.getvalue().splitlines()[-1])


a = np.array([1.0, 2.0, 3.0], dtype='float32')
print('--- assert_almost_equal')
attempt(lambda: tu.assert_almost_equal(a, a + 1e-6))
attempt(lambda: tu.assert_almost_equal(a, a + 0.1))
attempt(lambda: tu.assert_almost_equal(a, a + 0.1, rtol=0.1))
attempt(lambda: tu.assert_almost_equal(a, a + 0.1, atol=0.2))
attempt(lambda: tu.assert_almost_equal(mx.nd.array(a), a))
attempt(lambda: tu.assert_almost_equal(mx.nd.array(a), mx.nd.array(a) * 1.5))
attempt(lambda: tu.assert_almost_equal(a, a[:2]))
attempt(lambda: tu.assert_almost_equal(np.array([np.nan]), np.array([np.nan])))
attempt(lambda: tu.assert_almost_equal(np.array([np.nan]), np.array([np.nan]), equal_nan=True))
attempt(lambda: tu.assert_almost_equal(1.0, 1.0 + 1e-9))
attempt(lambda: tu.assert_almost_equal(np.array([1, 2]), np.array([1, 3])))
attempt(lambda: tu.assert_almost_equal(np.array([1, 2]), np.array([1, 2])))
attempt(lambda: tu.assert_almost_equal(np.array([1.0], 'float16'), np.array([1.004], 'float16')))
attempt(lambda: tu.assert_almost_equal(np.array([1.0], 'float64'), np.array([1.0001], 'float64')))
attempt(lambda: tu.assert_almost_equal(np.array([True, False]), np.array([True, False])))
attempt(lambda: tu.assert_almost_equal(a, a, names=('x', 'y')))
attempt(lambda: tu.assert_almost_equal(mx.np.array(a), mx.np.array(a)))
attempt(lambda: tu.assert_almost_equal_ignore_nan(np.array([1.0, np.nan]), np.array([1.0, 5.0])))
attempt(lambda: tu.assert_almost_equal_ignore_nan(np.array([1.0, np.nan]), np.array([2.0, 5.0])))
print('--- almost_equal / same / assert_allclose')
print(tu.almost_equal(a, a + 1e-6), tu.almost_equal(a, a + 0.1), tu.almost_equal(a, a + 0.1, rtol=0.1))
print(tu.almost_equal(a, a[:1] * 0 + 1.0), tu.almost_equal(np.array([np.nan]), np.array([np.nan])),
      tu.almost_equal(np.array([np.nan]), np.array([np.nan]), equal_nan=True))
attempt(lambda: tu.almost_equal(a, a[:2]))
print(tu.same(a, a), tu.same(a, a + 1e-7), tu.same(a, a[:2]), tu.same(mx.nd.array(a), mx.nd.array(a)))
print(tu.same(np.array([np.nan]), np.array([np.nan])))
attempt(lambda: tu.assert_allclose(a, a))
attempt(lambda: tu.assert_allclose(a, a + 1e-6))
attempt(lambda: tu.assert_allclose(a, a + 1e-6, rtol=1e-5))
attempt(lambda: tu.assert_allclose(np.array([np.nan]), np.array([np.nan])))
attempt(lambda: tu.assert_exception(lambda: 1 / 0, ZeroDivisionError))
attempt(lambda: tu.assert_exception(lambda: 1, ZeroDivisionError))
print(tu.same_array(mx.nd.ones((2,)), mx.nd.ones((2,))))
x = mx.nd.ones((2,))
print(tu.same_array(x, x))
print('--- tolerances')
print(tu.get_rtol(None), tu.get_atol(None), tu.get_rtol(0.5), tu.get_atol(0.25))
print(tu.default_rtols(), tu.default_atols())
print(tu.effective_dtype(mx.nd.ones((1,), dtype='float16')), tu.default_numeric_eps()[np.dtype(np.float32)])
print('--- random shapes and arrays')
np.random.seed(0)
mx.random.seed(0)
s2, s3, s4 = tu.rand_shape_2d(), tu.rand_shape_3d(4, 5, 6), tu.rand_shape_nd(4, 3)
print(type(s2).__name__, len(s2), all(1 <= d <= 10 for d in s2), type(s3).__name__, len(s3))
print(type(s4).__name__, len(s4), all(1 <= d <= 3 for d in s4))
print(len(tu.rand_shape_nd(3, 2, allow_zero_size=True)))
for stype, dtype in [('default', None), ('default', 'float64'), ('default', 'int32'), ('csr', None),
                     ('row_sparse', 'float64')]:
    r = tu.rand_ndarray((3, 4), stype, density=0.5, dtype=dtype)
    print(type(r).__name__, r.shape, r.dtype, r.stype)
print(type(tu.random_arrays((2, 3))).__name__, tu.random_arrays((2, 3)).shape, tu.random_arrays((2,), (3,))[1].shape)
print(tu.random_arrays((2, 3)).dtype)
print('--- np_reduce')
d = np.arange(24, dtype='float64').reshape(2, 3, 4)
print(tu.np_reduce(d, 1, False, np.sum).tolist())
print(tu.np_reduce(d, (0, 2), True, np.sum).tolist())
print(tu.np_reduce(d, None, False, np.max).tolist())
print(tu.np_reduce(d, [2], True, np.min).shape)
print('--- contexts')
print(tu.default_context())
tu.set_default_context(mx.cpu(1))
print(tu.default_context(), mx.current_context())
tu.set_default_context(mx.cpu())
print(tu.default_context())
print(tu.list_gpus())
print('--- numeric and symbolic checks')
data = mx.sym.Variable('data')
loc = {'data': np.array([[0.5, -1.0], [2.0, 0.25]], dtype='float64')}
attempt(lambda: tu.check_numeric_gradient(mx.sym.tanh(data), [loc['data']], numeric_eps=1e-4, rtol=1e-2, atol=1e-3))
attempt(lambda: tu.check_numeric_gradient(mx.sym.sum(data * data), loc, rtol=1e-2, atol=1e-2))
attempt(lambda: tu.check_symbolic_forward(data * 2, loc, [loc['data'] * 2]))
attempt(lambda: tu.check_symbolic_forward(data * 2, loc, [loc['data'] * 3]))
attempt(lambda: tu.check_symbolic_forward(data * 2, [loc['data']], [loc['data'] * 2]))
attempt(lambda: tu.check_symbolic_backward(data * 3, loc, [np.ones((2, 2))], [np.full((2, 2), 3.0)]))
attempt(lambda: tu.check_symbolic_backward(data * 3, loc, [np.ones((2, 2))], {'data': np.full((2, 2), 3.0)}))
attempt(lambda: tu.check_symbolic_backward(data * 3, loc, [np.ones((2, 2))], [np.full((2, 2), 2.0)]))
w = mx.sym.Variable('w')
fc = mx.sym.FullyConnected(data, weight=w, num_hidden=2, no_bias=True)
loc2 = {'data': np.array([[1.0, 2.0]]), 'w': np.array([[1.0, 0.0], [0.5, -1.0]])}
attempt(lambda: tu.check_symbolic_forward(fc, loc2, [np.array([[1.0, -1.5]])]))
out = tu.check_symbolic_forward(fc, loc2, [np.array([[1.0, -1.5]])])
print(type(out).__name__, len(out), out[0].tolist() if isinstance(out[0], np.ndarray) else type(out[0]).__name__)
out = tu.check_symbolic_backward(fc, loc2, [np.ones((1, 2))],
                                [np.array([[1.5, -1.0]]), np.array([[1.0, 2.0], [1.0, 2.0]])])
print(type(out).__name__, sorted(out) if isinstance(out, dict) else type(out).__name__)
attempt(lambda: tu.check_numeric_gradient(fc, loc2, rtol=1e-2, atol=1e-2))
print('--- mx.util')
print(mx.util.is_np_array(), mx.util.is_np_shape())
mx.util.set_np()
print(mx.util.is_np_array(), mx.util.is_np_shape())
mx.util.reset_np()
print(mx.util.is_np_array(), mx.util.is_np_shape())


@mx.util.use_np
def f():
    return mx.util.is_np_array(), mx.util.is_np_shape()


print(f(), mx.util.is_np_array())
mx.util.setenv('MXNET_SWEEP_FLAG', '7')
print(mx.util.getenv('MXNET_SWEEP_FLAG'))
mx.util.setenv('MXNET_SWEEP_FLAG', None)
print(mx.util.getenv('MXNET_SWEEP_FLAG'))
print(mx.util.getenv('MXNET_SWEEP_NOT_SET'))
print(mx.util.get_gpu_count() >= 0)
attempt(lambda: mx.util.get_gpu_memory(0) if mx.util.get_gpu_count() == 0 else 'gpu')
print(mx.util.set_np_shape(True), mx.util.is_np_shape(), mx.util.set_np_shape(False), mx.util.is_np_shape())
with mx.util.np_shape(True):
    print(mx.is_np_shape())
with mx.util.np_array(True):
    print(mx.is_np_array())
print(mx.is_np_shape(), mx.is_np_array())
print('--- runtime')
feats = mx.runtime.Features()
print(feats is mx.runtime.Features(), type(feats).__name__)
print(feats.is_enabled('cuda') == (mx.context.num_gpus() > 0))
print(len(feats), list(feats.keys()))
attempt(lambda: feats.is_enabled('NOPE'))
fl = mx.runtime.feature_list()
print(type(fl).__name__, len(fl), type(fl[0]).__name__, fl[0].name, [f.name for f in fl][:5])
print(repr(feats['TVM_OP']), repr(feats['CAFFE']), feats['DEBUG'].enabled, feats['SIGNAL_HANDLER'].name)
print('--- more helpers')
attempt(lambda: tu.assert_almost_equal(a, a[:1], use_broadcast=False))
attempt(lambda: tu.assert_almost_equal(a, a * 2, mismatches=(1, 2)))
attempt(lambda: tu.assert_almost_equal(a, a * 2, mismatches=(5, 0)))
attempt(lambda: tu.assert_almost_equal(np.arange(30.0).reshape(5, 6), np.arange(30.0).reshape(5, 6) + 3))
for dtype in ['float16', 'uint8', 'int64']:
    r = tu.rand_ndarray((2, 3), dtype=dtype)
    print(r.dtype, r.shape)
print(type(tu.rand_coord_2d(0, 4, 0, 5)).__name__, len(tu.random_sample([1, 2, 3, 4], 2)))
print(tu.collapse_sum_like(np.ones((2, 3, 4)), (3, 1)).tolist())
with tu.environment('MXNET_SWEEP_ENV', '3'):
    print(mx.util.getenv('MXNET_SWEEP_ENV'))
print(mx.util.getenv('MXNET_SWEEP_ENV'))
with tu.environment({'MXNET_SWEEP_A': '1', 'MXNET_SWEEP_B': None}):
    print(mx.util.getenv('MXNET_SWEEP_A'), mx.util.getenv('MXNET_SWEEP_B'))
print(tu.is_cd_run(), tu.has_tvm_ops(), tu.is_op_runnable())
print(tu.simple_forward(data * 2 + 1, data=np.array([1.0, 2.0])).tolist())
print(tu.same_symbol_structure(data * 2, data * 2), tu.same_symbol_structure(data * 2, data + 2))
# the report printed before the error shows numbers of a random projection: only the outcome here
quietly(lambda: tu.check_numeric_gradient(mx.sym.BlockGrad(data) * data, loc, rtol=1e-3, atol=1e-3))
di = tu.DummyIter(mx.io.NDArrayIter(np.ones((4, 2)), batch_size=2))
print(di.provide_data, di.batch_size, [b.data[0].shape for b in [next(di), next(di), next(di)]])
print(feats.is_enabled('opencv'), feats.is_enabled('TVM_OP'), feats.is_enabled('caffe'))
print(tu.get_atol(), tu.get_rtol(), tu.get_atol(0.5), tu.get_etol(), tu.get_etol(0.1))
print(tu.get_tolerance(np.ones(1, 'float16'), None, tu.default_rtols()),
      tu.get_tolerance(np.ones(1, 'float16'), {np.dtype('float16'): 0.3}, tu.default_rtols()))
print(tu.get_tols(np.ones(1, 'float16'), np.ones(1, 'float64'), None, None))
