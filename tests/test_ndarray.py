"""NDArray semantics: dtypes, mutation, indexing, printing, conversion, save/load, errors."""
import subprocess
import sys

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import nd
from gluonjax.base import MXNetError


def test_print_matches_mxnet():
    out = subprocess.run([sys.executable, '-c', 'import gluonjax as mx; print(mx.nd.ones((2,3))*2)'],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # What MXNet 1.9.1 prints for the same line.
    assert out.stdout == '\n[[2. 2. 2.]\n [2. 2. 2.]]\n<NDArray 2x3 @cpu(0)>\n'


def test_repr_forms():
    assert repr(nd.ones((2,))) == '\n[1. 1.]\n<NDArray 2 @cpu(0)>'
    assert repr(nd.array(5)) == '\n5.0\n<NDArray  @cpu(0)>'
    big = repr(nd.ones((200, 300)))
    assert '...' in big and big.endswith('<NDArray 200x300 @cpu(0)>')


@pytest.mark.parametrize('source,expected', [
    ([1, 2, 3], np.float32),
    (np.arange(3), np.float32),          # MXNet's nd.array defaults to float32 unless dtype is given
    (np.arange(3.0), np.float32),
    (np.arange(3, dtype=np.int32), np.float32),   # MXNet 1.9.1: float32 unless the source is an NDArray
    (np.arange(3, dtype=np.float16), np.float32),
    (2.5, np.float32),
])
def test_array_default_dtype(source, expected):
    assert nd.array(source).dtype == expected
    assert nd.array(nd.array(source, dtype='int32')).dtype == np.int32


def test_array_explicit_dtype_and_float64():
    a = nd.array([1.5, 2.5], dtype='float64')
    assert a.dtype == np.float64
    assert a.asnumpy().dtype == np.float64
    assert (a * 2).dtype == np.float64
    assert nd.zeros((2,), dtype='int32').dtype == np.int32


def test_properties():
    a = nd.zeros((2, 3, 4))
    assert a.shape == (2, 3, 4) and a.size == 24 and a.ndim == 3
    assert a.context == mx.cpu(0) and a.ctx == mx.cpu(0)
    assert a.T.shape == (4, 3, 2)
    assert a.stype == 'default'


def test_mutation_setitem_and_inplace():
    x = nd.array([[1, 2, 3], [4, 5, 6]])
    alias = x
    x[:] = 7
    assert (alias.asnumpy() == 7).all()
    x[1:2] = nd.array([[1, 2, 3]])
    np.testing.assert_array_equal(x.asnumpy(), [[7, 7, 7], [1, 2, 3]])
    x[0, 1] = 0
    x[:, 2] = nd.array([9, 8])
    np.testing.assert_array_equal(x.asnumpy(), [[7, 0, 9], [1, 2, 8]])
    y = nd.ones((2, 3))
    x += y
    assert alias is x
    np.testing.assert_array_equal(alias.asnumpy(), [[8, 1, 10], [2, 3, 9]])
    x *= 2
    x -= 1
    x /= 2
    np.testing.assert_allclose(x.asnumpy(), (np.array([[8, 1, 10], [2, 3, 9]]) * 2 - 1) / 2)


def test_out_argument():
    a, b = nd.ones((2, 2)), nd.ones((2, 2)) * 3
    out = nd.zeros((2, 2))
    r = nd.broadcast_add(a, b, out=out)
    assert r is out
    np.testing.assert_array_equal(out.asnumpy(), 4)
    with pytest.raises(MXNetError, match='shape'):
        nd.broadcast_add(a, b, out=nd.zeros((3,)))


def test_indexing_reads(rng):
    base = rng.standard_normal((4, 5, 6)).astype(np.float32)
    x = nd.array(base)
    for key in [1, -1, slice(1, 3), slice(None, None, 2), (1, 2), (slice(1, 3), 2), (1, slice(0, 4, 3), -2),
                (Ellipsis, 1), (None, 1), (slice(3, 1),)]:
        expected = base[key]
        got = x[key].asnumpy()
        if expected.ndim == 0:
            expected = expected.reshape(1)  # MXNet returns shape (1,) for a full integer index
        np.testing.assert_array_equal(got, expected, err_msg=str(key))
    idx = nd.array([0, 2])
    np.testing.assert_array_equal(x[idx].asnumpy(), base[[0, 2]])
    np.testing.assert_array_equal(x[[3, 1]].asnumpy(), base[[3, 1]])


def test_indexing_loop_does_not_recompile():
    from gluonjax.ndarray import _indexing
    x = nd.arange(100).reshape((10, 10))
    before = len(_indexing._fn_cache)
    rows = [x[i].asnumpy()[0] for i in range(10)]
    blocks = [x[i:i + 2].shape for i in range(8)]
    assert rows == [10.0 * i for i in range(10)]
    assert blocks == [(2, 10)] * 8
    assert len(_indexing._fn_cache) - before <= 2


def test_index_errors():
    x = nd.zeros((3, 4))
    with pytest.raises(IndexError, match='out of bounds'):
        x[3]
    with pytest.raises(IndexError, match='too many indices'):
        x[0, 0, 0]
    with pytest.raises(ValueError, match='cannot assign'):
        x[0] = nd.ones((5,))
    with pytest.raises(ValueError, match='cannot assign'):
        x[:, 0] = nd.ones((x.shape[0], 1))
    with pytest.raises(ValueError, match='does not support slicing'):
        x['a']


def test_numpy_interop():
    x = nd.array([[1, 2], [3, 4]])
    a = np.asarray(x)
    assert a.dtype == np.float32 and a.shape == (2, 2)
    with pytest.raises(TypeError, match='not supported'):  # as in MXNet: NDArrays and scalars only
        x + np.ones((2, 2))
    with pytest.raises(TypeError, match='not supported'):
        np.ones((2, 2)) * x
    s = nd.array([3.5]).asscalar()
    assert isinstance(s, np.float32) and s == 3.5
    with pytest.raises(ValueError):
        x.asscalar()
    assert float(nd.array([2.0])) == 2.0


def test_astype_copy_copyto():
    x = nd.array([1.7, -2.2])
    y = x.astype('int32')
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y.asnumpy(), [1, -2])
    c = x.copy()
    c[:] = 0
    assert x.asnumpy()[0] != 0
    dst = nd.zeros((2,))
    x.copyto(dst)
    np.testing.assert_array_equal(dst.asnumpy(), x.asnumpy())
    z = x.copyto(mx.cpu(0))
    assert z.context == mx.cpu(0)
    with pytest.raises(MXNetError, match='shape'):
        x.copyto(nd.zeros((3,)))


def test_scalar_arithmetic_keeps_dtype():
    x = nd.array([1, 2, 3], dtype='int32')
    assert (x * 2).dtype == np.int32
    assert (x + 1.5).dtype == np.int32  # MXNet casts the scalar to the array's type
    f = nd.array([1, 2, 3])
    assert (f * 0.5).dtype == np.float32
    np.testing.assert_allclose((2 - f).asnumpy(), [1, 0, -1])
    np.testing.assert_allclose((2 / f).asnumpy(), [2, 1, 2 / 3], rtol=1e-6)
    np.testing.assert_allclose((2 ** f).asnumpy(), [2, 4, 8])
    np.testing.assert_allclose((f ** 2).asnumpy(), [1, 4, 9])
    np.testing.assert_array_equal((f > 1).asnumpy(), [0, 1, 1])
    assert (f > 1).dtype == np.float32
    np.testing.assert_array_equal((1 < f).asnumpy(), [0, 1, 1])


def test_broadcast_and_errors():
    a = nd.ones((2, 3))
    b = nd.array([1, 2, 3])
    np.testing.assert_array_equal((a + b).asnumpy(), [[2, 3, 4]] * 2)
    with pytest.raises(MXNetError, match=r'broadcast_add.*\[2,3\].*\[4\]'):
        a + nd.ones((4,))
    with pytest.raises(MXNetError, match='elemwise_add'):
        nd.elemwise_add(a, b)


def test_python_level_functions():
    a = nd.array([1, 5, 3])
    np.testing.assert_array_equal(nd.maximum(a, 2).asnumpy(), [2, 5, 3])
    np.testing.assert_array_equal(nd.minimum(4, a).asnumpy(), [1, 4, 3])
    np.testing.assert_array_equal(nd.subtract(10, a).asnumpy(), [9, 5, 7])
    np.testing.assert_array_equal(nd.add(a, a).asnumpy(), [2, 10, 6])
    np.testing.assert_array_equal(nd.lesser(a, 3).asnumpy(), [1, 0, 0])
    np.testing.assert_array_equal(nd.greater(3, a).asnumpy(), [1, 0, 0])


def test_creation():
    np.testing.assert_array_equal(nd.zeros((2, 3)).asnumpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(nd.ones(4).asnumpy(), np.ones(4))
    np.testing.assert_array_equal(nd.full((2,), 7).asnumpy(), [7, 7])
    np.testing.assert_array_equal(nd.arange(5).asnumpy(), np.arange(5, dtype=np.float32))
    np.testing.assert_array_equal(nd.arange(2, 8, 2).asnumpy(), [2, 4, 6])
    np.testing.assert_array_equal(nd.arange(0, 2, repeat=2).asnumpy(), [0, 0, 1, 1])
    np.testing.assert_array_equal(nd.eye(3, k=1).asnumpy(), np.eye(3, k=1))
    np.testing.assert_allclose(nd.linspace(0, 1, 5).asnumpy(), np.linspace(0, 1, 5))
    x = nd.array([[1, 2]])
    np.testing.assert_array_equal(nd.zeros_like(x).asnumpy(), [[0, 0]])
    np.testing.assert_array_equal(nd.ones_like(x).asnumpy(), [[1, 1]])
    assert nd.empty((2, 2)).shape == (2, 2)
    assert nd.arange(3).dtype == np.float32


def test_unary_math_matches_numpy(rng):
    x = rng.uniform(0.1, 0.9, (3, 4)).astype(np.float32)
    a = nd.array(x)
    for name, ref in [('exp', np.exp), ('log', np.log), ('sqrt', np.sqrt), ('square', np.square),
                      ('abs', np.abs), ('sign', np.sign), ('sin', np.sin), ('cos', np.cos), ('tanh', np.tanh),
                      ('sigmoid', lambda v: 1 / (1 + np.exp(-v))), ('relu', lambda v: np.maximum(v, 0)),
                      ('arcsin', np.arcsin), ('floor', np.floor), ('reciprocal', lambda v: 1 / v)]:
        got = getattr(nd, name)(a - 0.5 if name in ('abs', 'sign', 'relu') else a).asnumpy()
        want = ref(x - 0.5 if name in ('abs', 'sign', 'relu') else x)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)
        assert got.dtype == np.float32


def test_reductions(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    a = nd.array(x)
    np.testing.assert_allclose(a.sum().asnumpy(), [x.sum()], rtol=1e-5)
    assert a.sum().shape == (1,)
    np.testing.assert_allclose(nd.sum(a, axis=1).asnumpy(), x.sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(nd.mean(a, axis=(0, 2), keepdims=True).asnumpy(), x.mean(axis=(0, 2), keepdims=True),
                               rtol=1e-5)
    np.testing.assert_allclose(nd.max(a, axis=1, exclude=True).asnumpy(), x.max(axis=(0, 2)), rtol=1e-6)
    np.testing.assert_allclose(nd.prod(a, axis=2).asnumpy(), x.prod(axis=2), rtol=1e-5)
    np.testing.assert_allclose(nd.norm(a).asnumpy(), [np.sqrt((x ** 2).sum())], rtol=1e-5)
    np.testing.assert_allclose(nd.norm(a, ord=1, axis=1).asnumpy(), np.abs(x).sum(axis=1), rtol=1e-5)
    am = nd.argmax(a, axis=1)
    np.testing.assert_array_equal(am.asnumpy(), x.argmax(axis=1))
    assert am.dtype == np.float32  # MXNet returns indices as floats
    np.testing.assert_array_equal(nd.argmin(a, axis=0).asnumpy(), x.argmin(axis=0))
    np.testing.assert_allclose(nd.sum_axis(a, axis=1).asnumpy(), x.sum(axis=1), rtol=1e-5)
    with pytest.raises(MXNetError, match=r'sum: axis 3 is out of range .*\[2,3,4\]'):
        nd.sum(a, axis=3)


def test_positional_parameters():
    a = nd.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(nd.sum(a, 1).asnumpy(), [3, 7])
    np.testing.assert_array_equal(a.sum(axis=0).asnumpy(), [4, 6])
    with pytest.raises(MXNetError, match="unknown parameter 'axes'"):
        nd.sum(a, axes=1)


def test_save_load_roundtrip(tmp_path):
    f = str(tmp_path / 'x.params')
    d = {'w': nd.array([[1, 2], [3, 4]]), 'b': nd.array([1, 2, 3], dtype='int32')}
    nd.save(f, d)
    back = nd.load(f)
    assert set(back) == {'w', 'b'}
    np.testing.assert_array_equal(back['w'].asnumpy(), d['w'].asnumpy())
    assert back['b'].dtype == np.int32
    nd.save(f, [nd.ones((2,)), nd.zeros((1, 2))])
    lst = nd.load(f)
    assert isinstance(lst, list) and lst[1].shape == (1, 2)
    with pytest.raises(TypeError, match='NDArray'):  # TypeError, as MXNet raises
        nd.save(f, {'w': np.ones(2)})
    with pytest.raises(MXNetError, match='does not exist') as err:
        nd.load(str(tmp_path / 'missing'))
    assert isinstance(err.value, FileNotFoundError) and type(err.value).__name__ == 'MXNetError'


def test_waitall_and_wait_to_read():
    x = nd.ones((10, 10)) * 3
    x.wait_to_read()
    nd.waitall()
    assert x.asnumpy().sum() == 300


# MXNet 1.9.1's pickled state of nd.array([1, 2]): {'handle': one NDArray file record}.
_MXNET_PICKLED_STATE = bytes.fromhex('c9fa93f9000000000100000002000000000000000100000000000000'
                                     '000000000000803f00000040')


@pytest.mark.parametrize('dtype', ['float32', 'float64', 'int64', 'uint8'])
def test_pickle_round_trip(dtype):
    import pickle
    x = nd.array(np.arange(6).reshape(2, 3), dtype=dtype)
    y = pickle.loads(pickle.dumps(x))
    assert y.dtype == x.dtype and y.shape == (2, 3)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())


def test_pickled_state_is_mxnets():
    assert bytes(nd.array([1, 2]).__getstate__()['handle']) == _MXNET_PICKLED_STATE
    x = nd.zeros((1,))
    x.__setstate__({'handle': bytearray(_MXNET_PICKLED_STATE)})
    np.testing.assert_array_equal(x.asnumpy(), [1, 2])
    with pytest.raises(MXNetError, match='truncated'):
        x.__setstate__({'handle': _MXNET_PICKLED_STATE[:-2]})


def test_asnumpy_is_a_writable_copy():
    x = nd.ones((2,))
    host = x.asnumpy()
    host[0] = 5
    assert x.asnumpy()[0] == 1


def test_zeros_ones_write_out():
    out = nd.full((2, 2), 3)
    nd.ones((2, 2), out=out)
    np.testing.assert_array_equal(out.asnumpy(), 1)
    nd.zeros((2, 2), out=out)
    np.testing.assert_array_equal(out.asnumpy(), 0)


def test_contrib_isinf_isnan_isfinite():
    data = np.array([1, np.inf, -np.inf, np.nan], dtype=np.float32)
    for fn, ref in [(nd.contrib.isinf, np.isinf), (nd.contrib.isnan, np.isnan), (nd.contrib.isfinite, np.isfinite)]:
        out = fn(nd.array(data))
        assert out.dtype == np.float32
        np.testing.assert_array_equal(out.asnumpy(), ref(data).astype(np.float32))


def test_basic_indexing_slice_is_contiguous_matches_numpy():
    import itertools
    host = np.zeros((4, 5, 6))
    slices = [slice(None), slice(2), slice(1, 3), slice(None, None, 2), slice(0, 1), slice(None, None, -1), 1]
    for key in itertools.product(slices, repeat=3):
        assert nd.NDArray._basic_indexing_slice_is_contiguous(key, host.shape) == host[key].flags.contiguous, key


def test_fill_element_0index_matches_numpy():
    lhs = np.zeros((3, 4), dtype=np.float32)
    expected = lhs.copy()
    expected[np.arange(3), [0, 3, 1]] = [1, 2, 3]
    out = nd.fill_element_0index(nd.array(lhs), nd.array([1, 2, 3]), nd.array([0, 3, 1]))
    np.testing.assert_array_equal(out.asnumpy(), expected)


def test_basic_slices_and_reshape_share_memory():
    """MXNet's x[i], x[i:j], contiguous tuple indices and reshape are views: writes go both ways."""
    base = nd.zeros((2, 3))
    row = base[1]
    row[:] = 7
    np.testing.assert_array_equal(base.asnumpy(), [[0, 0, 0], [7, 7, 7]])
    top = base[0:1]
    top += 1
    np.testing.assert_array_equal(base.asnumpy(), [[1, 1, 1], [7, 7, 7]])
    base[:] = 3
    np.testing.assert_array_equal(row.asnumpy(), [3, 3, 3])
    m = nd.arange(24).reshape((2, 3, 4))
    inner = m[1, 1:3]           # contiguous: a view
    strided = m[:, 1]           # not contiguous: a copy
    inner[:] = -1
    strided[:] = 100
    expect = np.arange(24, dtype=np.float32).reshape((2, 3, 4))
    expect[1, 1:3] = -1
    np.testing.assert_array_equal(m.asnumpy(), expect)
    flat = m.reshape((-1,))
    flat[0] = 42
    assert m[0, 0, 0].asscalar() == 42
    m[1] = 0                    # seen through the reshape and the slice views
    assert flat.asnumpy()[12:].sum() == 0 and inner.asnumpy().sum() == 0
    z = nd.zeros((4,))
    part = z[1:3]
    nd.ones((2,)).copyto(part)
    nd.elemwise_add(part, part, out=part)
    np.testing.assert_array_equal(z.asnumpy(), [0, 2, 2, 0])
    q = nd.arange(4)
    q[::2][:] = 9               # stepped slices copy
    np.testing.assert_array_equal(q.asnumpy(), [0, 1, 2, 3])


def test_asscalar_and_reshape_errors_as_mxnet():
    assert nd.array([[2.5]]).asscalar().shape == (1, 1)   # MXNet returns asnumpy()[()] beyond 1-D
    assert nd.array(2.5).asscalar() == np.float32(2.5)
    x = nd.arange(24).reshape((2, 3, 4))
    with pytest.raises(ValueError, match='Cannot reshape array of size 24'):
        x.reshape((6, 0))            # smaller: ValueError, as MXNet's method
    with pytest.raises(MXNetError, match='Reshape'):
        x.reshape((5, 5))            # larger: the operator's MXNetError


def test_setitem_with_float_index_array():
    b = nd.zeros((3, 2))
    b[nd.array([2, 0])] = nd.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(b.asnumpy(), [[3, 4], [0, 0], [1, 2]])


def test_arange_computes_in_output_dtype():
    np.testing.assert_array_equal(nd.arange(0, 1, 0.1).asnumpy(),
                                  np.float32(0) + np.arange(10).astype(np.float32) * np.float32(0.1))
    np.testing.assert_array_equal(nd.arange(3, repeat=2).asnumpy(), [0, 0, 1, 1, 2, 2])
    np.testing.assert_array_equal(nd.arange(5, 2, -1).asnumpy(), [5, 4, 3])
    for args in [(0,), (5, 2), (2, 5, -1), (0, 5, 0)]:
        with pytest.raises(MXNetError, match='arange'):
            nd.arange(*args)


def test_arange_casts_start_and_step_as_c_does():
    """MXNet 1.9.1's outputs: negative values wrap around in uint8, floats truncate."""
    out = nd.arange(50, -50, -2, dtype='uint8').asnumpy()
    np.testing.assert_array_equal(out[23:27], [4, 2, 0, 254])
    assert out.dtype == np.uint8 and out.shape == (50,)
    np.testing.assert_array_equal(nd.arange(-100, 100, dtype='uint8').asnumpy()[:3], [156, 157, 158])
    out = nd.arange(1.3, 456.6, 1.3, dtype='uint8').asnumpy()
    assert out.shape == (351,) and out[:3].tolist() == [1, 2, 3]


def test_copy_and_deepcopy_are_independent():
    import copy
    a = nd.ones((2,))
    for b in (copy.copy(a), copy.deepcopy(a)):
        b[:] = 5
    np.testing.assert_array_equal(a.asnumpy(), [1, 1])


def test_squeeze_inplace_is_a_view_and_symbols_accept_the_flag():
    x = mx.nd.ones((2, 1, 3))
    view, copy = x.squeeze(axis=1, inplace=True), x.squeeze()
    x[:] = 5
    assert view.shape == (2, 3) and view.asnumpy().sum() == 30.0 and copy.asnumpy().sum() == 6.0

    class Squeeze(mx.gluon.HybridBlock):  # MXNet's test_squeeze_consistency: one forward for both
        def forward(self, x):
            return x.squeeze(inplace=True)
    block = Squeeze()
    block.hybridize()
    assert block(mx.nd.ones((3, 2, 1))).shape == (3, 2)


def test_dlpack_round_trip_and_from_numpy():
    a = mx.nd.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    for capsule in (a.to_dlpack_for_read(), mx.nd.to_dlpack_for_write(a.copy())):
        b = mx.nd.from_dlpack(capsule)
        assert b.shape == (3, 4) and b.dtype == np.float32
        np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())
    for dtype in ('float64', 'int64'):  # 64-bit buffers keep their type, as in MXNet
        assert mx.nd.from_dlpack(mx.nd.ones((2,), dtype=dtype).to_dlpack_for_read()).dtype == np.dtype(dtype)
    host = np.array([[1, 2], [3, 4]], dtype=np.float32)
    m = mx.nd.from_numpy(host)
    np.testing.assert_array_equal(m.asnumpy(), host)
    assert not host.flags['WRITEABLE']  # zero_copy hands the buffer over, as MXNet does
    assert mx.nd.from_numpy(np.zeros((1, 0, 2)), zero_copy=False).shape == (1, 0, 2)
    with pytest.raises(ValueError, match='C-contiguous'):
        mx.nd.from_numpy(np.ones((2, 3)).T)


def test_c_function_from_dlpack_takes_over_a_capsule_tensor():
    """ctypes code written for MXNet's library: MXNDArrayFromDLPack on the DLManagedTensor of a
    capsule writes a handle that NDArray(handle=...) takes over; a NULL pointer is refused."""
    import ctypes
    from gluonjax.base import NDArrayHandle, _LIB, c_str, check_call
    a = mx.nd.array(np.arange(6, dtype=np.float64).reshape(2, 3), dtype='float64')
    capsule = ctypes.py_object(a.to_dlpack_for_read())
    pointer = ctypes.c_void_p(ctypes.pythonapi.PyCapsule_GetPointer(capsule, c_str('dltensor')))
    handle = NDArrayHandle()
    check_call(_LIB.MXNDArrayFromDLPack(pointer, ctypes.byref(handle)))
    ctypes.pythonapi.PyCapsule_SetName(capsule, c_str('used_dltensor'))  # the tensor is ours now
    ctypes.pythonapi.PyCapsule_SetDestructor(capsule, None)
    b = mx.nd.NDArray(handle=handle)
    assert b.dtype == np.float64
    np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())
    with pytest.raises(MXNetError, match='NULL'):
        _LIB.MXNDArrayFromDLPack(ctypes.c_void_p(), ctypes.byref(NDArrayHandle()))
    with pytest.raises(AttributeError, match='no C library'):
        _LIB.MXNDArrayFree
    with pytest.raises(MXNetError):
        check_call(-1)


def test_from_numpy_zero_copy_shares_the_buffer_with_later_writes():
    host = np.arange(6, dtype=np.float32).reshape(3, 2)
    m = mx.nd.from_numpy(host)
    m[2, 1] = 100
    m += 1
    m[0][:] = -1  # through a view of the array
    np.testing.assert_array_equal(host, [[-1, -1], [3, 4], [5, 101]])
    np.testing.assert_array_equal(m.asnumpy(), host)
    assert not host.flags['WRITEABLE']


def test_load_needs_the_shape_semantics_the_file_was_saved_with(tmp_path):
    fname = str(tmp_path / 'arrays')
    for saved_np, loaded_np in ((True, False), (False, True)):
        with mx.np_shape(saved_np):
            mx.nd.save(fname, [mx.nd.array(np.ones((2, 0, 1))), mx.nd.ones((2, 1))])  # (nd.ones refuses 0 outside np_shape)
        with mx.np_shape(loaded_np), pytest.raises(MXNetError, match='NumPy shape semantics'):
            mx.nd.load(fname)
    with mx.np_shape(True):
        mx.nd.save(fname, [mx.nd.array(np.ones(())), mx.nd.ones((0, 4))])
        assert [a.shape for a in mx.nd.load(fname)] == [(), (0, 4)]
    assert [a.shape for a in mx.npx.load(fname)] == [(), (0, 4)]  # npx.load reads either


def test_engine_bulk_size_is_kept_and_restored():
    assert mx.engine.set_bulk_size(4) == 0
    with mx.engine.bulk(10):
        x = mx.nd.ones((3,))
        x += 1
        assert mx.engine.set_bulk_size(10) == 10
    assert mx.engine.set_bulk_size(0) == 4
    assert x.asnumpy().tolist() == [2.0] * 3


def test_stepped_slice_of_one_element_is_a_view():
    """x[::20] of 6 rows is x[0:1], contiguous: MXNet returns a view, so writes reach x."""
    x = mx.nd.array(np.arange(24).reshape(6, 4))
    y = x[::20]
    y[:] = -1
    assert x.asnumpy()[0].tolist() == [-1] * 4 and x.asnumpy()[1].tolist() == [4, 5, 6, 7]
    z = x[::2]  # several rows with a step: a copy
    z[:] = 0
    assert x.asnumpy()[2].tolist() == [8, 9, 10, 11]


def test_reshape_like_method_takes_the_operator_keywords():
    a = mx.nd.arange(12).reshape((2, 3, 2))
    assert a.reshape_like(rhs=mx.nd.ones((6, 2))).shape == (6, 2)
    assert a.reshape_like(mx.nd.ones((6, 7)), lhs_begin=0, lhs_end=2, rhs_begin=0, rhs_end=1).shape == (6, 2)


def test_creation_refuses_unknown_legacy_shapes_as_mxnet():
    # outside mx.np_shape(), MXNet reads a 0 dimension and () as unknown (MXNet 1.9.1, checked by hand)
    for make in (lambda: mx.nd.zeros(()), lambda: mx.nd.zeros((2, 0)), lambda: mx.nd.ones((0,)),
                 lambda: mx.nd.zeros(0), lambda: mx.nd.full((), 1)):
        with pytest.raises(MXNetError, match='inferring shapes failed: shape .* unknown dimension'):
            make()
    assert mx.nd.full((2, 0), 1).shape == (2, 0) and mx.nd.empty((2, 0)).shape == (2, 0)
    assert mx.nd.array(np.zeros((2, 0))).shape == (2, 0)
    with mx.np_shape():
        assert mx.nd.zeros(()).shape == () and mx.nd.ones((0, 1, 0, 4)).shape == (0, 1, 0, 4)


def test_onehot_encode_fills_out_and_logs_mxnet_deprecation(capsys):
    # MXNet 1.9.1 (example/profiler/profiler_ndarray.py) prints on each call:
    # [19:02:08] ../src/ndarray/./ndarray_function-inl.h:96: The operator onehot_encode is deprecated; use one_hot instead.
    out = mx.nd.zeros((3, 4))
    mx.nd.onehot_encode(mx.nd.array([1, 3, 0]), out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.eye(4)[[1, 3, 0]])
    err = capsys.readouterr().err
    assert err.endswith('] ../src/ndarray/./ndarray_function-inl.h:96: The operator onehot_encode is '
                        'deprecated; use one_hot instead.\n')


@pytest.mark.parametrize('dtype', ['float32', 'float16', 'int8', 'int64', 'uint8'])
def test_numpy_dtype_of_an_ndarray_is_its_dtype(dtype):
    # MXNet code calls np.dtype(arr) (NumPy 1.x read the float32 class off .dtype; NumPy 2 needs the protocol)
    a = nd.ones((2, 3), dtype=dtype)
    assert np.dtype(a) == np.dtype(dtype) and a.dtype is np.dtype(dtype).type
    assert np.dtype(a).itemsize * a.size == a.asnumpy().nbytes
    if dtype.startswith('float'):  # sparse arrays hold float data here
        assert np.dtype(a.tostype('csr')) == np.dtype(a.tostype('row_sparse')) == np.dtype(dtype)
    assert np.zeros(2, dtype=a).dtype == np.dtype(dtype)
