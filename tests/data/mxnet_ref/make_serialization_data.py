"""Write the reference NDArray files in this folder with the real MXNet 1.9.1.

Run with a Python that has ``mxnet==1.9.1`` (e.g. ``/tmp/mxref/bin/python
tests/data/mxnet_ref/make_serialization_data.py``).  Not imported by the tests; the tests
rebuild the same values with the formulas below (keep ``tests/test_serialization.py`` in step).

Files:
  nd_list.params        mx.nd.save of a list: one array per dtype MXNet 1.9.1 supports
  nd_dict.params        mx.nd.save of a dict with the same arrays (names incl. non-ASCII)
  nd_empty.params       mx.nd.save of []
  np_shape.params       mx.npx.save (np-shape / v3 records): a 0-d, a zero-size and a 2-d array
  nd_scalar_legacy.params  mx.nd.save of a 0-d array outside np-shape mode (MXNet's own
                        mx.nd.load cannot read this file back; gluonjax can)
  sparse.params         mx.nd.save of {'dense', 'rsp' (row_sparse), 'csr'}
  gluon_dense.params    gluon.nn.Dense(3, in_units=2).save_parameters, weights set to aranges
"""
import os

import mxnet as mx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def reference_arrays():
    """name -> numpy array; the tests build the same dict."""
    return {
        'f32_4d': np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) / 4 - 2,
        'f64_1d': np.arange(5, dtype=np.float64) * 1.5 - 3.25,
        'f16_2d': (np.arange(12, dtype=np.float16) - 6).reshape(3, 4) / 8,
        'u8_1d': np.arange(250, 257, dtype=np.int64).astype(np.uint8),   # wraps past 255
        'i8_2d': (np.arange(10, dtype=np.int8) * 25 - 120).reshape(2, 5),
        'i32_2d': (np.arange(9, dtype=np.int32) - 4).reshape(3, 3) * 100000,
        'i64_2d': (np.arange(4, dtype=np.int64).reshape(2, 2) + 2 ** 40).astype(np.int64),
        'bool_2d': (np.arange(6).reshape(2, 3) % 2) == 0,
        'f32_1elem': np.array([7.5], dtype=np.float32),
        'f32_5d': np.arange(32, dtype=np.float32).reshape(1, 2, 2, 2, 4),
    }


DICT_NAMES = {  # array name in reference_arrays -> key used in nd_dict.params
    'f32_4d': 'net.conv0.weight', 'f64_1d': 'f64', 'f16_2d': 'f16', 'u8_1d': 'u8',
    'i8_2d': 'i8', 'i32_2d': 'i32', 'i64_2d': 'i64', 'bool_2d': 'mask',
    'f32_1elem': 'gamma_\u00e9\u4e2d', 'f32_5d': '',
}


def save_twice(path, data, save):
    """Save twice, check MXNet's writer is deterministic."""
    save(path, data)
    first = open(path, 'rb').read()
    save(path, data)
    assert open(path, 'rb').read() == first, path


def main():
    ref = reference_arrays()
    nd = {k: mx.nd.array(v, dtype=v.dtype) for k, v in ref.items()}
    for k, v in nd.items():
        assert v.dtype == ref[k].dtype and v.shape == ref[k].shape, k
        assert (v.asnumpy() == ref[k]).all(), k

    save_twice(os.path.join(HERE, 'nd_list.params'), list(nd.values()), mx.nd.save)
    save_twice(os.path.join(HERE, 'nd_dict.params'),
               {DICT_NAMES[k]: v for k, v in nd.items()}, mx.nd.save)
    save_twice(os.path.join(HERE, 'nd_empty.params'), [], mx.nd.save)

    scalar = mx.nd.array(np.float32(3.5))
    assert scalar.shape == ()
    save_twice(os.path.join(HERE, 'nd_scalar_legacy.params'), [scalar], mx.nd.save)

    rsp = mx.nd.sparse.row_sparse_array((np.arange(6, dtype=np.float32).reshape(2, 3), [0, 2]),
                                        shape=(4, 3))
    csr = mx.nd.sparse.csr_matrix((np.array([1., 2.], np.float32), np.array([0, 2]),
                                   np.array([0, 1, 2])), shape=(2, 3))
    save_twice(os.path.join(HERE, 'sparse.params'),
               {'dense': mx.nd.arange(4), 'rsp': rsp, 'csr': csr}, mx.nd.save)

    net = mx.gluon.nn.Dense(3, in_units=2)
    net.initialize()
    net.weight.set_data(mx.nd.arange(6).reshape(3, 2))
    net.bias.set_data(mx.nd.array([-1, 0, 1]))
    save_twice(os.path.join(HERE, 'gluon_dense.params'), None,
               lambda path, _: net.save_parameters(path))

    from mxnet import npx
    npx.set_np()
    try:
        np_arrays = [mx.np.array(2.5, dtype='float32'), mx.np.zeros((0, 3), dtype='float32'),
                     mx.np.arange(6, dtype='int64').reshape(2, 3)]
        save_twice(os.path.join(HERE, 'np_shape.params'), np_arrays, npx.save)
    finally:
        npx.reset_np()

    # Sanity: MXNet reads back what it wrote (except nd_scalar_legacy.params, see above).
    back = mx.nd.load(os.path.join(HERE, 'nd_dict.params'))
    assert sorted(back) == sorted(DICT_NAMES.values())
    total = 0
    for f in sorted(os.listdir(HERE)):
        if f.endswith('.params'):
            size = os.path.getsize(os.path.join(HERE, f))
            total += size
            print('%-26s %6d bytes' % (f, size))
    print('total', total, 'bytes; mxnet', mx.__version__)


if __name__ == '__main__':
    main()
