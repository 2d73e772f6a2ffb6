"""mx.nd.contrib's int8 quantization operators MXNet 1.9.1 runs on a CPU: quantize, quantize_v2,
dequantize, requantize and the quantized layers; codes, dtypes, ranges and the errors."""
import numpy as np

import mxnet as mx


def attempt(f):
    try:
        r = f()
        r = [r] if isinstance(r, mx.nd.NDArray) else r
        print('ok', [(str(o.dtype), o.shape, np.round(o.asnumpy().astype('float64'), 4).tolist()) for o in r])
    except Exception as e:
        print(type(e).__name__)


def digest(r):
    """dtype, range and a checksum of the codes of a larger quantized tensor."""
    q, lo, hi = r
    codes = q.asnumpy().astype('int64')
    print(q.dtype, q.shape, lo.asnumpy().tolist(), hi.asnumpy().tolist(), int(codes.sum()), int((codes * codes).sum()),
          codes.ravel()[:8].tolist())


x = mx.nd.array([[-1.5, 0.25, 3.], [0.7, -0.01, 2.2]])
mn, mx_ = mx.nd.array([-1.5]), mx.nd.array([3.])
# quantize: the range given
for dt in ['int8', 'uint8', 'int32', 'auto', 'float32']:
    attempt(lambda: mx.nd.contrib.quantize(x, mn, mx_, out_type=dt))
attempt(lambda: mx.nd.contrib.quantize(x, mn, mx_))
attempt(lambda: mx.nd.contrib.quantize(x.astype('float64'), mn, mx_))
attempt(lambda: mx.nd.contrib.quantize(x, mn.reshape((1, 1)), mx_))
attempt(lambda: mx.nd.contrib.quantize(x, mx.nd.array([-1., 0.]), mx.nd.array([2., 1.])))
attempt(lambda: mx.nd.contrib.quantize(x, mx.nd.array([1.]), mx.nd.array([2.]), out_type='uint8'))
# quantize_v2: the calibrated range, else the data's
for dt in ['int8', 'uint8', 'auto']:
    attempt(lambda: mx.nd.contrib.quantize_v2(x, out_type=dt))
    attempt(lambda: mx.nd.contrib.quantize_v2(x, out_type=dt, min_calib_range=-2., max_calib_range=2.))
attempt(lambda: mx.nd.contrib.quantize_v2(mx.nd.abs(x), out_type='auto'))
attempt(lambda: mx.nd.contrib.quantize_v2(x, out_type='uint8', min_calib_range=-4., max_calib_range=1.))
attempt(lambda: mx.nd.contrib.quantize_v2(x, out_type='auto', min_calib_range=0., max_calib_range=2.))
attempt(lambda: mx.nd.contrib.quantize_v2(x, out_type='int32'))
attempt(lambda: mx.nd.contrib.quantize_v2(x.astype('int8'), out_type='int8'))
attempt(lambda: mx.nd.contrib.quantize_v2(x.astype('int8'), min_calib_range=-3., max_calib_range=3.))
attempt(lambda: mx.nd.contrib.quantize_v2(x, min_calib_range=1.))
attempt(lambda: mx.nd.contrib.quantize_v2(x, min_calib_range=2., max_calib_range=-1.))
for dt in ['float64', 'float16', 'int32']:
    attempt(lambda: mx.nd.contrib.quantize_v2(x.astype(dt)))
attempt(lambda: mx.nd.contrib.quantize_v2(mx.nd.array([])))
rs = np.random.RandomState(0)
big = mx.nd.array(rs.randn(40, 50) * 2)
for dt, calib in [('int8', {}), ('int8', dict(min_calib_range=-1.7, max_calib_range=2.3)),
                  ('uint8', dict(min_calib_range=0.3, max_calib_range=2.9)), ('auto', dict(min_calib_range=0., max_calib_range=2.5))]:
    digest(mx.nd.contrib.quantize_v2(big, out_type=dt, **calib))
digest(mx.nd.contrib.quantize_v2(mx.nd.abs(big), out_type='uint8'))
digest(mx.nd.contrib.quantize(big, mx.nd.array([-3.]), mx.nd.array([2.]), out_type='int8'))
digest(mx.nd.contrib.quantize(mx.nd.abs(big), mx.nd.array([0.]), mx.nd.array([2.5]), out_type='uint8'))

# dequantize
q, qmin, qmax = mx.nd.contrib.quantize_v2(x, out_type='int8')
attempt(lambda: mx.nd.contrib.dequantize(q, qmin, qmax))
attempt(lambda: mx.nd.contrib.dequantize(q, qmin, qmax, out_type='float32'))
attempt(lambda: mx.nd.contrib.dequantize(q, qmin, qmax, out_type='float16'))
u, umin, umax = mx.nd.contrib.quantize_v2(mx.nd.abs(x), out_type='uint8')
attempt(lambda: mx.nd.contrib.dequantize(u, umin, umax))
attempt(lambda: mx.nd.contrib.dequantize(mx.nd.array([5, 7], dtype='uint8'), mx.nd.array([-3.]), mx.nd.array([2.])))
attempt(lambda: mx.nd.contrib.dequantize(mx.nd.array([5, -7], dtype='int8'), mx.nd.array(-1.), mx.nd.array(1.)))
attempt(lambda: mx.nd.contrib.dequantize(mx.nd.array([5, -7], dtype='int8'), mx.nd.array([-1., 2.]), mx.nd.array([1., 3.])))
i32 = mx.nd.array([[-2000000000, 5, 1000000000]], dtype='int32')
attempt(lambda: mx.nd.contrib.dequantize(i32, mx.nd.array([-10.]), mx.nd.array([10.])))
attempt(lambda: mx.nd.contrib.dequantize(x, qmin, qmax))
print(np.round(mx.nd.contrib.dequantize(*mx.nd.contrib.quantize_v2(big)).asnumpy().astype('float64').sum(), 3))

# requantize: int32 codes to int8/uint8
r10, r10n = mx.nd.array([10.]), mx.nd.array([-10.])
attempt(lambda: mx.nd.contrib.requantize(i32, r10n, r10))
attempt(lambda: mx.nd.contrib.requantize(i32, r10n, r10, min_calib_range=-5., max_calib_range=5.))
attempt(lambda: mx.nd.contrib.requantize(i32, r10n, r10, out_type='uint8'))
attempt(lambda: mx.nd.contrib.requantize(i32, r10n, r10, out_type='auto'))
for dt in ['int8', 'uint8', 'auto']:
    attempt(lambda: mx.nd.contrib.requantize(mx.nd.array([2**30, -2**29], dtype='int32'), mx.nd.array([-1.]),
                                             mx.nd.array([1.]), out_type=dt, min_calib_range=-0.3, max_calib_range=0.2))
attempt(lambda: mx.nd.contrib.requantize(mx.nd.array([5, -7], dtype='int32'), mx.nd.array(-1.), mx.nd.array(1.)))
attempt(lambda: mx.nd.contrib.requantize(mx.nd.array([5, -7], dtype='int32'), mx.nd.array([-1., 2.]), mx.nd.array([1., 3.])))
attempt(lambda: mx.nd.contrib.requantize(q, qmin, qmax))
attempt(lambda: mx.nd.contrib.requantize(mx.nd.array([5, -7]), mx.nd.array([-1.]), mx.nd.array([1.])))
ints = rs.randint(-2**31 + 1, 2**31 - 1, size=3000)
ints[::3] //= 1000
ints = mx.nd.array(ints, dtype='int32')
for dt, calib in [('int8', {}), ('int8', dict(min_calib_range=-0.004, max_calib_range=0.003)), ('uint8', {}),
                  ('uint8', dict(min_calib_range=0.001, max_calib_range=0.003)), ('auto', dict(min_calib_range=0., max_calib_range=0.002))]:
    digest(mx.nd.contrib.requantize(ints, mx.nd.array([-0.01]), mx.nd.array([0.007]), out_type=dt, **calib))

# quantized layers
qa, amin, amax = mx.nd.contrib.quantize_v2(mx.nd.array([[1., -2., 3., 0.5]]), out_type='int8')
attempt(lambda: mx.nd.contrib.quantized_act(qa, amin, amax, act_type='relu'))
attempt(lambda: mx.nd.contrib.quantized_act(qa, amin, amax, act_type='sigmoid'))
attempt(lambda: mx.nd.contrib.quantized_act(qa.astype('float32'), amin, amax, act_type='relu'))
attempt(lambda: mx.nd.contrib.quantized_act(qa.astype('int32'), amin, amax, act_type='relu'))
attempt(lambda: mx.nd.contrib.quantized_flatten(qa, amin, amax))
attempt(lambda: mx.nd.contrib.quantized_flatten(q.reshape((1, 2, 3)), qmin, qmax))
attempt(lambda: mx.nd.contrib.quantized_flatten(qa.astype('uint8').reshape((2, 2, 1)), amin, amax))
attempt(lambda: mx.nd.contrib.quantized_flatten(qa.astype('int32').reshape((2, 2, 1)), amin, amax))
w = mx.nd.array([[1., 0., -1., 2.], [0.5, 0.5, 0.5, 0.5]])
qw, wmin, wmax = mx.nd.contrib.quantize_v2(w, out_type='int8')
qb, bmin, bmax = mx.nd.contrib.quantize_v2(mx.nd.array([0.1, -0.2]), out_type='int8')
attempt(lambda: mx.nd.contrib.quantized_fully_connected(qa, qw, qb, amin, amax, wmin, wmax, bmin, bmax, num_hidden=2))
attempt(lambda: mx.nd.contrib.quantized_fully_connected(qa, qw, amin, amax, wmin, wmax, num_hidden=2, no_bias=True))
attempt(lambda: mx.nd.contrib.quantized_fully_connected(qa, qw, amin, amax, wmin, wmax, num_hidden=3, no_bias=True))
attempt(lambda: mx.nd.contrib.quantized_fully_connected(qa.reshape((1, 2, 2)), qw, amin, amax, wmin, wmax, num_hidden=2, no_bias=True))
for trial in range(4):
    a = mx.nd.array(rs.randint(-128, 128, size=(3, 7)), dtype='int8')
    wt = mx.nd.array(rs.randint(-128, 128, size=(5, 7)), dtype='int8')
    b = mx.nd.array(rs.randint(-128, 128, size=(5,)), dtype='int8')
    ra, rw, rb = [mx.nd.array([v]) for v in rs.uniform(0.1, 5, 3)]
    o, lo, hi = mx.nd.contrib.quantized_fully_connected(a, wt, b, -ra, ra, -rw, rw, -rb, rb, num_hidden=5)
    print(o.dtype, o.asnumpy().ravel().tolist(), np.round(hi.asnumpy().astype('float64'), 1).tolist())

# quantized pooling (max, and averages rounded half to even), elementwise add, embedding
codes = mx.nd.array(rs.randint(-128, 128, size=(2, 3, 7, 9)), dtype='int8')
lo, hi = mx.nd.array([-2.5]), mx.nd.array([2.5])
for kw in [dict(kernel=(2, 2), stride=(2, 2), pool_type='max'), dict(kernel=(3, 3), stride=(2, 2), pool_type='avg'),
           dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='avg'),
           dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='avg', count_include_pad=False),
           dict(kernel=(1, 1), global_pool=True, pool_type='avg'), dict(kernel=(1, 1), global_pool=True, pool_type='max'),
           dict(kernel=(2, 2), stride=(2, 2), pool_type='max', pooling_convention='full')]:
    digest(mx.nd.contrib.quantized_pooling(codes, lo, hi, **kw))
ucodes = mx.nd.array(rs.randint(0, 256, size=(2, 3, 7, 9)), dtype='uint8')
digest(mx.nd.contrib.quantized_pooling(ucodes, mx.nd.array([0.]), hi, kernel=(3, 3), stride=(2, 2), pool_type='avg'))
attempt(lambda: mx.nd.contrib.quantized_pooling(codes.astype('float32'), lo, hi, kernel=(2, 2), pool_type='max'))
e1 = mx.nd.array(rs.randint(-128, 128, size=(4, 6)), dtype='int8')
e2 = mx.nd.array(rs.randint(-128, 128, size=(4, 6)), dtype='int8')
ranges = [mx.nd.array([-1.]), mx.nd.array([1.5]), mx.nd.array([-3.]), mx.nd.array([0.5])]
attempt(lambda: mx.nd.contrib.quantized_elemwise_add(e1, e2, *ranges))
attempt(lambda: mx.nd.contrib.quantized_elemwise_add(e1, e2, *ranges, min_calib_range=-2., max_calib_range=2.5))
attempt(lambda: mx.nd.contrib.quantized_elemwise_add(qa, qa, amin, amax, amin, amax))
attempt(lambda: mx.nd.contrib.quantized_elemwise_add(e1.astype('float32'), e2, *ranges))
table = mx.nd.array(rs.randint(-128, 128, size=(6, 4)), dtype='int8')
attempt(lambda: mx.nd.contrib.quantized_embedding(mx.nd.array([[0, 5], [2, 2]]), table, mx.nd.array([-1.]),
                                                  mx.nd.array([2.]), input_dim=6, output_dim=4))
