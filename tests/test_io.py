"""mx.io (NDArrayIter and friends) and mx.test_utils.

The expected batches were printed by MXNet 1.9.1 for the same calls (shuffled
ones after ``np.random.seed``): gluonjax reproduces them exactly.
"""
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError


def _rows(it):
    return [(b.data[0].asnumpy().ravel().tolist(), b.pad) for b in it]


def test_pad_discard_roll_over_match_mxnet():
    it = mx.io.NDArrayIter(np.arange(10).reshape((10, 1)), np.arange(10), 3, last_batch_handle='pad')
    assert _rows(it) == [([0, 1, 2], 0), ([3, 4, 5], 0), ([6, 7, 8], 0), ([9, 0, 1], 2)]
    it = mx.io.NDArrayIter(np.arange(5).reshape((5, 1)), np.arange(5), 12, last_batch_handle='pad')
    assert _rows(it) == [([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1], 7)]
    it = mx.io.NDArrayIter(np.arange(10).reshape((10, 1)), np.arange(10), 3, last_batch_handle='discard')
    assert [r for r, _ in _rows(it)] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert not it.iter_next()
    it = mx.io.NDArrayIter(np.arange(10).reshape((10, 1)), np.arange(10), 3, last_batch_handle='roll_over')
    epochs = []
    for _ in range(3):
        epochs.append(_rows(it))
        it.reset()
    assert epochs == [
        [([0, 1, 2], 0), ([3, 4, 5], 0), ([6, 7, 8], 0)],
        [([9, 0, 1], 1), ([2, 3, 4], 0), ([5, 6, 7], 0)],
        [([8, 9, 0], 2), ([1, 2, 3], 0), ([4, 5, 6], 0), ([7, 8, 9], 0)],
    ]
    it.hard_reset()
    assert _rows(it)[0] == ([0, 1, 2], 0)


def test_shuffle_matches_mxnet_sequence():
    np.random.seed(3)
    it = mx.io.NDArrayIter(np.arange(10).reshape((10, 1)), np.arange(10), 4, shuffle=True)
    first = _rows(it)
    it.reset()
    second = _rows(it)
    assert first == [([5, 4, 1, 2], 0), ([9, 6, 7, 0], 0), ([3, 8, 5, 4], 2)]
    assert second == [([1, 2, 4, 9], 0), ([3, 8, 6, 0], 0), ([5, 7, 1, 2], 2)]
    # labels follow their data
    it.reset()
    for batch in it:
        np.testing.assert_array_equal(batch.data[0].asnumpy().ravel(), batch.label[0].asnumpy())


def test_dtypes_names_and_descriptions():
    it = mx.io.NDArrayIter(np.arange(10, dtype=np.int64).reshape(5, 2), np.arange(5), 2)
    batch = next(it)
    assert batch.data[0].dtype == np.float32 and batch.label[0].dtype == np.float32  # numpy -> float32
    assert repr(it.provide_data) == "[DataDesc[data,(2, 2),<class 'numpy.float32'>,NCHW]]"
    assert repr(it.provide_label) == "[DataDesc[softmax_label,(2,),<class 'numpy.float32'>,NCHW]]"
    assert str(batch) == 'DataBatch: data shapes: [(2, 2)] label shapes: [(2,)]'
    ints = mx.nd.array(np.arange(10).reshape(5, 2), dtype='int32')
    assert next(mx.io.NDArrayIter(ints, None, 2)).data[0].dtype == np.int32
    # MXNet rebuilds shuffled NDArrays as float32
    assert next(mx.io.NDArrayIter(ints, None, 2, shuffle=True)).data[0].dtype == np.float32
    nolabel = mx.io.NDArrayIter(ints, batch_size=2)
    assert nolabel.provide_label == [] and next(nolabel).label == []
    multi = mx.io.NDArrayIter({'b': np.zeros((4, 2)), 'a': np.ones((4, 3))}, [np.zeros(4), np.ones(4)], 2)
    assert [d.name for d in multi.provide_data] == ['a', 'b']
    assert [d.name for d in multi.provide_label] == ['_0_softmax_label', '_1_softmax_label']
    batch = next(multi)
    assert [d.shape for d in batch.data] == [(2, 3), (2, 2)]
    assert batch.label[1].asnumpy().tolist() == [1.0, 1.0]
    named = mx.io.NDArrayIter(np.zeros((4, 2)), np.zeros(4), 2, data_name='x', label_name='y')
    assert named.provide_data[0].name == 'x' and named.provide_label[0].name == 'y'


def test_iter_protocol():
    data = np.arange(14, dtype=np.float32).reshape(7, 2)
    it = mx.io.NDArrayIter(data, np.arange(7), 3)
    assert it.iter_next() and it.getpad() == 0 and it.getindex() is None
    np.testing.assert_array_equal(it.getdata()[0].asnumpy(), data[:3])
    np.testing.assert_array_equal(it.getlabel()[0].asnumpy(), [0, 1, 2])
    assert it.iter_next() and it.iter_next() and it.getpad() == 2
    np.testing.assert_array_equal(it.getdata()[0].asnumpy(), data[[6, 0, 1]])
    assert not it.iter_next()
    with pytest.raises(StopIteration):
        it.next()
    it.reset()
    assert len(list(it)) == 3
    whole = dict(it.data)['data']
    np.testing.assert_array_equal(whole.asnumpy(), data)


def test_source_is_copied_and_context_kept():
    data = np.ones((4, 2), dtype=np.float32)
    it = mx.io.NDArrayIter(data, batch_size=2)
    data[:] = 5
    assert next(it).data[0].asnumpy().max() == 1.0
    nd = mx.nd.ones((4, 2), ctx=mx.cpu(1))
    assert next(mx.io.NDArrayIter(nd, batch_size=2)).data[0].context == mx.cpu(1)


def test_labels_longer_than_the_data_are_read_up_to_the_data():
    # MXNet's test_sample_weight_loss scores data[10:] against the 20 labels of the whole set
    it = mx.io.NDArrayIter(np.arange(4).reshape(4, 1), {'label': np.arange(10) + 100}, batch_size=2)
    batches = [(b.data[0].asnumpy().ravel().tolist(), b.label[0].asnumpy().tolist()) for b in it]
    assert batches == [([0, 1], [100, 101]), ([2, 3], [102, 103])]


def test_ndarrayiter_errors():
    with pytest.raises(MXNetError, match='as many samples as the data'):
        mx.io.NDArrayIter(np.zeros((4, 2)), np.zeros(3), 2)
    with pytest.raises(MXNetError, match='batch_size must be a positive integer'):
        mx.io.NDArrayIter(np.zeros((4, 2)), np.zeros(4), 0)
    with pytest.raises(MXNetError, match='last_batch_handle'):
        mx.io.NDArrayIter(np.zeros((4, 2)), np.zeros(4), 2, last_batch_handle='keep')
    with pytest.raises(MXNetError, match='no samples'):
        mx.io.NDArrayIter(np.zeros((0, 2)), None, 2)
    with pytest.raises(TypeError, match='Input must be NDArray'):
        mx.io.NDArrayIter(5, None, 2)


def test_seed_style_mnist_iteration():
    mnist = mx.test_utils.get_mnist()
    assert mnist['train_data'].shape == (60000, 1, 28, 28) and mnist['train_data'].dtype == np.float32
    assert mnist['test_data'].shape == (10000, 1, 28, 28)
    assert mnist['train_label'].shape == (60000,) and mnist['train_label'].dtype == np.int8
    assert mnist['train_label'][:5].tolist() == [5, 0, 4, 1, 9]
    assert mnist['test_label'][:5].tolist() == [7, 2, 1, 0, 4]
    assert 0.0 == mnist['train_data'].min() and mnist['train_data'].max() == 1.0
    train = mx.io.NDArrayIter(mnist['train_data'], mnist['train_label'], 64, shuffle=True)
    count = 0
    for i, batch in enumerate(train):
        count += 1
        if i == 0:
            data, label = batch.data[0], batch.label[0]
            assert data.shape == (64, 1, 28, 28) and data.dtype == np.float32
            assert label.shape == (64,) and label.dtype == np.float32
    assert count == 938 and batch.pad == 64 * 938 - 60000
    train.reset()
    assert next(train).data[0].shape == (64, 1, 28, 28)


def test_resize_and_prefetching_iter():
    base = mx.io.NDArrayIter(np.arange(20, dtype=np.float32).reshape(10, 2), np.arange(10), 4)
    resized = mx.io.ResizeIter(base, 5)
    assert [b.data[0].shape[0] for b in resized] == [4] * 5
    a = mx.io.NDArrayIter({'data': np.ones((8, 2))}, batch_size=4)
    b = mx.io.NDArrayIter({'data': np.zeros((8, 3))}, batch_size=4)
    pre = mx.io.PrefetchingIter([a, b], rename_data=[{'data': 'd1'}, {'data': 'd2'}])
    assert [d.name for d in pre.provide_data] == ['d1', 'd2']
    batches = list(pre)
    assert len(batches) == 2 and [d.shape for d in batches[0].data] == [(4, 2), (4, 3)]
    pre.reset()
    assert len(list(pre)) == 2


def test_mnist_and_csv_iters(tmp_path):
    it = mx.io.MNISTIter(image='missing/t10k-images-idx3-ubyte', label='missing/t10k-labels-idx1-ubyte',
                         batch_size=100, shuffle=False, flat=True)
    batch = next(it)
    assert batch.data[0].shape == (100, 784) and batch.label[0].asnumpy()[:3].tolist() == [7, 2, 1]
    np.savetxt(tmp_path / 'x.csv', np.arange(12).reshape(4, 3), delimiter=',')
    np.savetxt(tmp_path / 'y.csv', np.arange(4), delimiter=',')
    csv = mx.io.CSVIter(data_csv=str(tmp_path / 'x.csv'), data_shape=(3,), label_csv=str(tmp_path / 'y.csv'),
                        batch_size=3)
    assert csv.iter_next() and csv.getdata().shape == (3, 3) and csv.getlabel().asnumpy().tolist() == [0, 1, 2]
    csv.reset()  # (getdata/getlabel of MXNet's C++ iterators return one array, not a list)
    batches = list(csv)
    assert batches[1].pad == 2 and batches[1].data[0].asnumpy()[0].tolist() == [9, 10, 11]
    with pytest.raises(MXNetError, match='data_shape and batch_size are required'):
        mx.io.ImageRecordIter(path_imgrec='x.rec')


def test_ndarrayiter_batches_csr_inputs_as_csr():
    scipy_sparse = pytest.importorskip('scipy.sparse')
    dense = np.random.RandomState(0).rand(7, 4).astype(np.float32)
    dense[dense < 0.5] = 0
    csr = mx.nd.array(dense).tostype('csr')
    with pytest.raises(NotImplementedError, match="last_batch_handle='discard' only"):
        mx.io.NDArrayIter({'data': csr}, dense, 3)
    for data in (csr, scipy_sparse.csr_matrix(dense)):
        batches = list(mx.io.NDArrayIter(data, dense, 3, last_batch_handle='discard'))
        assert len(batches) == 2 and all(b.data[0].stype == 'csr' for b in batches)
        np.testing.assert_array_equal(batches[1].data[0].asnumpy(), dense[3:6])
        np.testing.assert_array_equal(batches[1].label[0].asnumpy(), dense[3:6])


# ---------------------------------------------------------------------------------------
# test_utils
# ---------------------------------------------------------------------------------------

def test_assert_almost_equal_and_same():
    tu = mx.test_utils
    tu.assert_almost_equal(mx.nd.array([1, 2]), np.array([1, 2.00001]))
    with pytest.raises(AssertionError, match=r'Location of maximum error: \(1,\), a=2.0+, b=2.1'):
        tu.assert_almost_equal(mx.nd.array([1, 2]), np.array([1, 2.1]))
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(np.array([1, 2], dtype=np.int32), np.array([1, 3], dtype=np.int32))
    tu.assert_almost_equal(np.array([1.0, 5.0]), np.array([1.0, 5.2]), rtol=0.1, atol=0)
    assert tu.same(mx.nd.array([1, 2]), np.array([1.0, 2.0])) and not tu.same(np.zeros(2), np.zeros(3))
    assert tu.almost_equal(np.ones(3), np.ones(3) + 1e-9)
    tu.assert_almost_equal_ignore_nan(np.array([np.nan, 1.0]), np.array([2.0, 1.0]))
    tu.assert_exception(lambda: 1 / 0, ZeroDivisionError)


def test_random_helpers_and_contexts():
    tu = mx.test_utils
    x = tu.rand_ndarray((3, 4))
    assert x.shape == (3, 4) and x.dtype == np.float32
    assert tu.rand_ndarray((2,), dtype='float64').dtype == np.float64
    assert tu.rand_ndarray((2, 2), stype='csr', density=0.5).stype == 'csr'
    assert all(1 <= d <= 10 for d in tu.rand_shape_nd(4))
    assert tu.random_arrays((2, 3)).dtype == np.float32
    assert tu.default_context() == mx.current_context()
    try:
        tu.set_default_context(mx.cpu(2))
        assert mx.nd.zeros((1,)).context == mx.cpu(2) and tu.default_context() == mx.cpu(2)
    finally:
        tu.set_default_context(mx.cpu(0))
    assert tu.np_reduce(np.ones((2, 3, 4)), [0, 2], True, np.sum).shape == (1, 3, 1)


def test_offline_helpers(tmp_path, monkeypatch):
    tu = mx.test_utils
    with pytest.raises(MXNetError, match='does not download'):
        tu.download('http://data.mxnet.io/data/mnist/train-labels-idx1-ubyte.gz', dirname=str(tmp_path))
    existing = tmp_path / 'there.txt'
    existing.write_text('x')
    assert tu.download('http://example.com/there.txt', dirname=str(tmp_path)) == str(existing)
    monkeypatch.chdir(tmp_path)
    tu.get_mnist_ubyte()
    assert os.path.getsize('data/t10k-labels-idx1-ubyte') == 10008
    with tu.environment('GLUONJAX_TEST_VAR', '1'):
        assert os.environ['GLUONJAX_TEST_VAR'] == '1'
    assert 'GLUONJAX_TEST_VAR' not in os.environ


def test_csviter_last_batch_as_mxnet_fills_it(tmp_path):
    # 8 rows, batch 3. round_batch wraps to the start (pad = rows wrapped) and the next
    # epoch starts after the wrapped rows; without it the unfilled places keep the
    # previous batch's rows.
    path = str(tmp_path / 'd.csv')
    np.savetxt(path, np.arange(8, dtype=np.float32).reshape(8, 1), delimiter=',')
    it = mx.io.CSVIter(data_csv=path, data_shape=(1,), batch_size=3)
    epochs = []
    for _ in range(3):
        epochs.append([(b.data[0].asnumpy().ravel().tolist(), b.pad) for b in it])
        it.reset()
    assert epochs[0] == [([0, 1, 2], 0), ([3, 4, 5], 0), ([6, 7, 0], 1)]
    assert epochs[1] == [([1, 2, 3], 0), ([4, 5, 6], 0), ([7, 0, 1], 2)]
    assert epochs[2][0] == ([2, 3, 4], 0)
    it = mx.io.CSVIter(data_csv=path, data_shape=(1,), batch_size=3, round_batch=False)
    for _ in range(2):
        assert [(b.data[0].asnumpy().ravel().tolist(), b.pad) for b in it] == \
            [([0, 1, 2], 0), ([3, 4, 5], 0), ([6, 7, 5], 1)]
        it.reset()


def test_mnist_iter_says_what_it_loaded_unless_silent(capsys):
    # MXNet 1.9.1's C++ iterator line, e.g. in example/module/mnist_mlp.py's output:
    # [18:59:41] ../src/io/iter_mnist.cc:109: MNISTIter: load 10000 images, shuffle=1, shape=(100,784)
    # and for images (example/stochastic-depth/sd_mnist.py):
    # [19:08:09] ../src/io/iter_mnist.cc:112: MNISTIter: load 10000 images, shuffle=1, shape=[100,1,28,28]
    mx.io.MNISTIter(image='missing/t10k-images-idx3-ubyte', label='missing/t10k-labels-idx1-ubyte',
                    batch_size=100, flat=True)
    mx.io.MNISTIter(image='missing/t10k-images-idx3-ubyte', label='missing/t10k-labels-idx1-ubyte',
                    batch_size=50, shuffle=False)
    mx.io.MNISTIter(image='missing/t10k-images-idx3-ubyte', label='missing/t10k-labels-idx1-ubyte', silent=True)
    lines = capsys.readouterr().err.splitlines()
    assert [line[11:] for line in lines] == [
        '../src/io/iter_mnist.cc:109: MNISTIter: load 10000 images, shuffle=1, shape=(100,784)',
        '../src/io/iter_mnist.cc:112: MNISTIter: load 10000 images, shuffle=0, shape=[50,1,28,28]']
    assert all(line[0] == '[' and line[9:11] == '] ' for line in lines)


def test_libsvm_iter_batches_csr_rows_without_a_dense_copy(tmp_path):
    path = tmp_path / 'd.libsvm'
    path.write_text('1 0:1.5 2:3\n0 1:2\n2 0:-1 3:4.25\n')
    it = mx.io.LibSVMIter(data_libsvm=str(path), data_shape=(100000,), batch_size=2)
    assert it._data[0][1].host.values.size == 5  # the rows stay sparse on the host
    batches = list(it)
    assert [b.data[0].stype for b in batches] == ['csr', 'csr'] and [b.pad for b in batches] == [0, 1]
    assert batches[1].data[0].indices.asnumpy().tolist() == [0, 3, 0, 2]
    assert batches[1].label[0].asnumpy().tolist() == [2, 1] and batches[1].index.tolist() == [2, 0]
    with pytest.raises(MXNetError, match='round_batch=False'):
        mx.io.LibSVMIter(data_libsvm=str(path), data_shape=(4,), batch_size=2, round_batch=False)
    with pytest.raises(MXNetError, match='column indices 0..3, outside a row shape of 3'):
        mx.io.LibSVMIter(data_libsvm=str(path), data_shape=(3,), batch_size=2)


def test_mxnet_io_io_is_mx_io():
    import importlib
    assert importlib.import_module('gluonjax.io.io') is mx.io and mx.io.io.DataIter is mx.io.DataIter


def test_assert_almost_equal_prints_the_worst_elements_as_mxnet(capsys):
    with pytest.raises(AssertionError):
        mx.test_utils.assert_almost_equal(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 4.0]), names=('x', 'y'),
                                          mismatches=(1, 10))
    out = capsys.readouterr().out
    assert '*** Maximum errors for vector of size 3:  rtol=1e-05, atol=1e-20' in out
    assert '  1: Error ' in out and 'Location of error: (2,), x=3.00000000, y=4.00000000' in out
    assert '  2: Error ' not in out
