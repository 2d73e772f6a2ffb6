"""gluon.data: samplers, datasets, DataLoader, vision datasets and transforms.

Expected dtypes, shapes and transform outputs come from MXNet 1.9.1
(tests/data/gen_data_refs.py wrote the reference files).
"""
import gzip
import os
import shutil
import struct

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError
from gluonjax.gluon import data as gdata
from gluonjax.gluon.data import dataloader as dl_module
from gluonjax.gluon.data.vision import _idx
from gluonjax.gluon.data.vision import transforms as T

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, 'data')


@pytest.fixture(scope='module')
def mnist_train():
    return gdata.vision.MNIST(train=True)


class _PlainDataset(gdata.Dataset):
    """A user dataset: no host batcher, so the DataLoader reads it sample by sample."""

    def __init__(self, *arrays):
        self._arrays = arrays

    def __len__(self):
        return len(self._arrays[0])

    def __getitem__(self, i):
        items = tuple(a[i] for a in self._arrays)
        return items if len(items) > 1 else items[0]


def _np(batch):
    return [b.asnumpy() for b in batch] if isinstance(batch, list) else batch.asnumpy()


# ---------------------------------------------------------------------------------------
# Samplers
# ---------------------------------------------------------------------------------------

def test_sequential_and_random_sampler():
    assert list(gdata.SequentialSampler(4, start=3)) == [3, 4, 5, 6]
    np.random.seed(0)
    first = list(gdata.RandomSampler(10))
    np.random.seed(0)
    assert list(gdata.RandomSampler(10)) == first
    assert sorted(first) == list(range(10)) and first != list(range(10))
    assert len(gdata.RandomSampler(7)) == 7


@pytest.mark.parametrize('last_batch, expected', [
    ('keep', [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]),
    ('discard', [[0, 1, 2], [3, 4, 5], [6, 7, 8]]),
])
def test_batch_sampler_keep_discard(last_batch, expected):
    sampler = gdata.BatchSampler(gdata.SequentialSampler(10), 3, last_batch)
    assert list(sampler) == expected
    assert len(sampler) == len(expected)


def test_batch_sampler_rollover_carries_samples_to_next_epoch():
    sampler = gdata.BatchSampler(gdata.SequentialSampler(10), 3, 'rollover')
    assert list(sampler) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert len(sampler) == 3  # one sample left over: (1 + 10) // 3
    assert list(sampler)[0] == [9, 0, 1]


def test_filter_sampler_and_bad_sampler_args():
    assert list(gdata.FilterSampler(lambda x: x % 2 == 0, list(range(7)))) == [0, 2, 4, 6]
    with pytest.raises(ValueError, match="last_batch must be one of"):
        gdata.BatchSampler(gdata.SequentialSampler(4), 2, 'drop')
    with pytest.raises(ValueError, match='batch_size must be positive'):
        gdata.BatchSampler(gdata.SequentialSampler(4), 0)


# ---------------------------------------------------------------------------------------
# Datasets
# ---------------------------------------------------------------------------------------

def test_array_dataset_samples():
    x = np.arange(12, dtype=np.float32).reshape(6, 2)
    y = mx.nd.array(np.arange(6), dtype='int32')
    ds = gdata.ArrayDataset(x, y, list('abcdef'))
    assert len(ds) == 6
    data, label, letter = ds[4]
    np.testing.assert_array_equal(data, x[4])
    assert isinstance(label, np.int32) and label == 4  # 1-D NDArrays become numpy, as in MXNet
    assert letter == 'e'
    single = gdata.ArrayDataset(x)
    np.testing.assert_array_equal(single[1], x[1])
    with pytest.raises(AssertionError, match='same length'):  # MXNet's exception types
        gdata.ArrayDataset(x, np.arange(5))
    with pytest.raises(AssertionError, match='at least 1'):
        gdata.ArrayDataset()


def test_simple_dataset_and_transforms():
    ds = gdata.SimpleDataset([1, 2, 3, 4])
    assert ds[2] == 3 and len(ds) == 4
    assert list(ds.transform(lambda v: v * 10)) == [10, 20, 30, 40]
    pairs = gdata.ArrayDataset([1, 2, 3], [4, 5, 6])
    assert pairs.transform(lambda a, b: a + b)[1] == 7
    assert pairs.transform_first(lambda a: -a)[2] == (-3, 6)
    calls = []

    def counted(v):
        calls.append(v)
        return v
    eager = ds.transform(counted, lazy=False)
    assert len(calls) == 4 and list(eager) == [1, 2, 3, 4]


def test_filter_shard_take_sample():
    ds = gdata.SimpleDataset(list(range(10)))
    assert list(ds.filter(lambda v: v > 6)) == [7, 8, 9]
    shards = [list(ds.shard(3, i)) for i in range(3)]
    assert shards == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert list(ds.take(3)) == [0, 1, 2] and len(ds.take(None)) == 10
    assert list(ds.sample(gdata.SequentialSampler(2, start=5))) == [5, 6]
    with pytest.raises(AssertionError, match='out of bounds'):
        ds.shard(3, 3)
    with pytest.raises(TypeError, match='Invalid sampler'):
        ds.sample([1, 2])


def test_record_file_dataset():
    ds = gdata.RecordFileDataset(os.path.join(REF, 'records.rec'))
    magic = struct.pack('<I', 0xced7230a)
    assert len(ds) == 4
    assert ds[0] == b'first record' and ds[1] == b''
    # written by MXNet in several parts because it contains the RecordIO magic number
    assert ds[2] == b'abc' + magic + b'defg' + magic + b'h'
    assert ds[3] == bytes(range(256)) * 3
    with pytest.raises(MXNetError, match='cannot open'):
        gdata.RecordFileDataset(os.path.join(REF, 'missing.rec'))


# ---------------------------------------------------------------------------------------
# DataLoader
# ---------------------------------------------------------------------------------------

def test_dataloader_dtypes_follow_mxnet():
    x = np.random.rand(10, 3)  # float64 stays float64 in MXNet's default batchify
    ds = gdata.ArrayDataset(x, np.arange(10))
    data, label = next(iter(gdata.DataLoader(ds, batch_size=4)))
    assert data.dtype == np.float64 and data.shape == (4, 3)
    assert label.dtype == np.int64 and label.shape == (4,)
    np.testing.assert_array_equal(data.asnumpy(), x[:4])
    ds2 = gdata.ArrayDataset(mx.nd.array(x), [1.5] * 10, [1] * 10)
    d2, f2, i2 = next(iter(gdata.DataLoader(ds2, batch_size=4)))
    assert (d2.dtype, f2.dtype, i2.dtype) == (np.float32, np.float64, np.int64)
    assert next(iter(gdata.DataLoader(gdata.SimpleDataset([1, 2, 3]), batch_size=2))).dtype == np.int64
    assert next(iter(gdata.DataLoader(mx.nd.array(x, dtype='float16'), batch_size=2))).dtype == np.float16
    # nd[i] of a 1-D NDArray has shape (1,) in MXNet 1.x, so batches are (N, 1)
    assert next(iter(gdata.DataLoader(gdata.SimpleDataset(mx.nd.array([1, 2, 3])), batch_size=2))).shape == (2, 1)


@pytest.mark.parametrize('last_batch, sizes', [('keep', [4, 4, 2]), ('discard', [4, 4]), ('rollover', [4, 4])])
def test_dataloader_last_batch(last_batch, sizes):
    loader = gdata.DataLoader(np.arange(10), batch_size=4, last_batch=last_batch)
    assert len(loader) == len(sizes)
    batches = [b.asnumpy() for b in loader]
    assert [len(b) for b in batches] == sizes
    if last_batch == 'rollover':
        assert len(loader) == 3  # (2 left over + 10) // 4
        assert list(next(iter(loader)).asnumpy()) == [8, 9, 0, 1]


def test_dataloader_shuffle_covers_every_sample():
    loader = gdata.DataLoader(np.arange(23), batch_size=5, shuffle=True)
    seen = np.concatenate([b.asnumpy() for b in loader])
    assert sorted(seen.tolist()) == list(range(23)) and seen.tolist() != list(range(23))


def test_host_batches_equal_sample_by_sample_batches():
    rng = np.random.RandomState(1)
    x = rng.randint(0, 256, (9, 5, 4, 3)).astype(np.uint8)
    y = rng.randint(0, 10, 9).astype(np.int32)
    fast = list(gdata.DataLoader(gdata.ArrayDataset(x, y), batch_size=4))
    slow = list(gdata.DataLoader(_PlainDataset(x, y), batch_size=4))
    for f, s in zip(fast, slow):
        for a, b in zip(f, s):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    # a Compose of transforms is applied to whole batches on the host, with the same result
    pipeline = T.Compose([T.ToTensor(), T.Normalize((0.1, 0.2, 0.3), (0.3, 0.2, 0.1))])
    fast_t = list(gdata.DataLoader(gdata.ArrayDataset(mx.nd.array(x, dtype='uint8'), y)
                                   .transform_first(pipeline), batch_size=4))
    slow_t = list(gdata.DataLoader(gdata.ArrayDataset(mx.nd.array(x, dtype='uint8'), y)
                                   .transform_first(lambda img: pipeline(img)), batch_size=4))
    for f, s in zip(fast_t, slow_t):
        assert f[0].shape == s[0].shape and f[0].dtype == s[0].dtype == np.float32
        np.testing.assert_array_equal(f[0].asnumpy(), s[0].asnumpy())


def test_dataloader_falls_back_for_samples_numpy_cannot_stack():
    ds = gdata.SimpleDataset([(1, 2.0), (3, 4.0), (5, 6.0)])
    a, b = next(iter(gdata.DataLoader(ds, batch_size=3)))
    assert a.asnumpy().tolist() == [1, 3, 5] and a.dtype == np.int64
    assert b.asnumpy().tolist() == [2.0, 4.0, 6.0] and b.dtype == np.float64


def test_dataloader_threads_give_the_same_batches():
    x = np.arange(40, dtype=np.float32).reshape(20, 2)
    plain = [_np(b) for b in gdata.DataLoader(_PlainDataset(x, np.arange(20)), batch_size=3)]
    for ds in (gdata.ArrayDataset(x, np.arange(20)), _PlainDataset(x, np.arange(20))):
        loader = gdata.DataLoader(ds, batch_size=3, num_workers=2)
        got = list(loader)
        assert len(got) == 7 and got[0][0].context == mx.Context('cpu_shared', 0)
        for g, p in zip(got, plain):
            np.testing.assert_array_equal(g[0].asnumpy(), p[0])
            np.testing.assert_array_equal(g[1].asnumpy(), p[1])
        assert len(list(loader)) == 7  # a second epoch


def test_dataloader_options():
    x = np.arange(8, dtype=np.float32)
    pinned = next(iter(gdata.DataLoader(x, batch_size=4, pin_memory=True)))
    assert pinned.context == mx.cpu_pinned(0)
    summed = next(iter(gdata.DataLoader(x, batch_size=4, batchify_fn=lambda s: float(sum(s)))))
    assert summed == 6.0
    batches = gdata.BatchSampler(gdata.SequentialSampler(8), 5, 'discard')
    assert [b.shape for b in gdata.DataLoader(x, batch_sampler=batches)] == [(5,)]


def test_dataloader_errors():
    empty = gdata.DataLoader(gdata.SimpleDataset([]), batch_size=2)  # as MXNet: no batches
    assert len(empty) == 0 and list(empty) == []
    with pytest.raises(ValueError, match='batch_size must be positive'):
        gdata.DataLoader(np.arange(4), batch_size=0)
    with pytest.raises(ValueError, match='batch_size must be an integer'):
        gdata.DataLoader(np.arange(4), batch_size=2.5)
    with pytest.raises(ValueError, match='batch_size must be specified'):
        gdata.DataLoader(np.arange(4))
    with pytest.raises(ValueError, match="last_batch must be one of"):
        gdata.DataLoader(np.arange(4), batch_size=2, last_batch='drop')
    with pytest.raises(ValueError, match='shuffle must not be specified'):
        gdata.DataLoader(np.arange(4), batch_size=2, shuffle=True, sampler=gdata.SequentialSampler(4))
    with pytest.raises(ValueError, match='must not be specified if batch_sampler'):
        gdata.DataLoader(np.arange(4), batch_size=2,
                         batch_sampler=gdata.BatchSampler(gdata.SequentialSampler(4), 2))
    with pytest.raises(MXNetError, match='different shapes'):
        list(gdata.DataLoader(gdata.SimpleDataset([mx.nd.zeros((2,)), mx.nd.zeros((3,))]), batch_size=2))


def test_default_batchify_fn_nested():
    samples = [(mx.nd.array([1, 2]), np.int32(3)), (mx.nd.array([4, 5]), np.int32(6))]
    data, label = dl_module.default_batchify_fn(samples)
    assert data.shape == (2, 2) and data.dtype == np.float32
    assert label.dtype == np.int32 and label.asnumpy().tolist() == [3, 6]


# ---------------------------------------------------------------------------------------
# MNIST and FashionMNIST
# ---------------------------------------------------------------------------------------

def test_mnist_train_samples(mnist_train):
    assert len(mnist_train) == 60000
    img, label = mnist_train[0]
    assert img.shape == (28, 28, 1) and img.dtype == np.uint8
    assert isinstance(label, np.int32)
    assert [int(mnist_train[i][1]) for i in range(5)] == [5, 0, 4, 1, 9]
    assert mnist_train._data.shape == (60000, 28, 28, 1)
    pixels = img.asnumpy()
    assert pixels.max() == 255 and pixels.min() == 0


def test_mnist_test_split_and_transform():
    test = gdata.vision.MNIST(train=False, transform=lambda d, l: (d.asnumpy().sum(), l + 100))
    assert len(test) == 10000
    total, label = test[0]
    assert label == 107  # the first test digit is a 7
    assert total > 0


def test_mnist_dataloader_batches(mnist_train):
    loader = gdata.DataLoader(mnist_train.transform_first(T.ToTensor()), batch_size=64, shuffle=False)
    data, label = next(iter(loader))
    assert data.shape == (64, 1, 28, 28) and data.dtype == np.float32
    assert label.dtype == np.int32 and label.asnumpy()[:5].tolist() == [5, 0, 4, 1, 9]
    np.testing.assert_allclose(data.asnumpy()[3, 0], mnist_train[3][0].asnumpy()[:, :, 0] / np.float32(255),
                               rtol=1e-6)
    assert len(loader) == 938


def test_mnist_files_are_checked(tmp_path):
    """A user root with the same files works; a corrupt file fails its MD5 check; a root without
    files falls back to the shipped copy."""
    for name in os.listdir(_idx.PACKAGE_MNIST_DIR):
        shutil.copy(os.path.join(_idx.PACKAGE_MNIST_DIR, name), tmp_path / name)
    assert len(gdata.vision.MNIST(root=str(tmp_path), train=False)) == 10000
    with gzip.open(tmp_path / 't10k-labels-idx1-ubyte.gz', 'rb') as f:
        raw = bytearray(f.read())
    raw[-1] = (raw[-1] + 1) % 10
    with gzip.open(tmp_path / 't10k-labels-idx1-ubyte.gz', 'wb') as f:
        f.write(bytes(raw))
    with pytest.raises(MXNetError, match='corrupt: the MD5'):
        gdata.vision.MNIST(root=str(tmp_path), train=False)
    assert len(gdata.vision.MNIST(root=str(tmp_path / 'nothing-here'), train=False)) == 10000


def test_shipped_mnist_md5_is_verified():
    path = os.path.join(_idx.PACKAGE_MNIST_DIR, 't10k-labels-idx1-ubyte.gz')
    labels = _idx.read_idx(path, _idx.MNIST_MD5['t10k-labels-idx1-ubyte'])
    assert labels.shape == (10000,) and not labels.flags.writeable
    with pytest.raises(MXNetError, match='corrupt'):
        _idx.read_idx(path, '0' * 32)


def _write_idx(path, array):
    header = struct.pack('>BBBB', 0, 0, 0x08, array.ndim) + struct.pack('>' + 'I' * array.ndim, *array.shape)
    with gzip.open(path, 'wb') as f:
        f.write(header + array.astype(np.uint8).tobytes())


def test_fashion_mnist_missing_names_the_debian_package(tmp_path, monkeypatch):
    monkeypatch.setattr(_idx, 'DEBIAN_FASHION_MNIST_DIR', str(tmp_path / 'no-debian'))
    monkeypatch.setattr(gdata.vision.datasets, '_MXNET_HOME', str(tmp_path / 'no-home'))
    with pytest.raises(MXNetError, match='apt-get install dataset-fashion-mnist'):
        gdata.vision.FashionMNIST(root=str(tmp_path / 'empty'))


def test_fashion_mnist_reads_files_from_root(tmp_path, monkeypatch):
    rng = np.random.RandomState(0)
    images, labels = rng.randint(0, 256, (5, 28, 28)), np.array([3, 1, 4, 1, 5])
    _write_idx(tmp_path / 't10k-images-idx3-ubyte.gz', images)
    _write_idx(tmp_path / 't10k-labels-idx1-ubyte.gz', labels)
    md5 = {}
    for name in ('t10k-images-idx3-ubyte', 't10k-labels-idx1-ubyte'):
        import hashlib
        with gzip.open(tmp_path / (name + '.gz'), 'rb') as f:
            md5[name] = hashlib.md5(f.read()).hexdigest()
    monkeypatch.setattr(_idx, 'FASHION_MNIST_MD5', md5)
    ds = gdata.vision.FashionMNIST(root=str(tmp_path), train=False)
    img, label = ds[2]
    assert len(ds) == 5 and img.shape == (28, 28, 1) and img.dtype == np.uint8 and label == 4
    np.testing.assert_array_equal(img.asnumpy()[:, :, 0], images[2])


@pytest.mark.skipif(not os.path.isdir(_idx.DEBIAN_FASHION_MNIST_DIR),
                    reason='Debian package dataset-fashion-mnist is not installed')
def test_fashion_mnist_from_debian_package():
    ds = gdata.vision.FashionMNIST(train=False)
    img, label = ds[0]
    assert len(ds) == 10000 and img.shape == (28, 28, 1) and label == 9  # an ankle boot


def test_cifar10_is_read_from_root_never_downloaded(tmp_path):
    with pytest.raises(MXNetError, match='does not download'):
        gdata.vision.CIFAR10(root=str(tmp_path))
    rng = np.random.RandomState(0)
    rec = np.concatenate([np.array([[7], [2]]), rng.randint(0, 256, (2, 3072))], axis=1).astype(np.uint8)
    rec.tofile(tmp_path / 'test_batch.bin')
    ds = gdata.vision.CIFAR10(root=str(tmp_path), train=False)
    img, label = ds[1]
    assert img.shape == (32, 32, 3) and label == 2 and label.dtype == np.int32
    np.testing.assert_array_equal(img.asnumpy()[:, :, 0].ravel(), rec[1, 1:1025])


def test_image_folder_dataset(tmp_path):
    PIL = pytest.importorskip('PIL.Image')
    for i, cls in enumerate(['cat', 'dog']):
        os.makedirs(tmp_path / cls)
        PIL.fromarray(np.full((4, 6, 3), 40 * i, dtype=np.uint8)).save(tmp_path / cls / 'a.png')
    ds = gdata.vision.ImageFolderDataset(str(tmp_path))
    assert ds.synsets == ['cat', 'dog'] and len(ds) == 2
    img, label = ds[1]
    assert img.shape == (4, 6, 3) and img.dtype == np.uint8 and label == 1 and img.asnumpy().max() == 40
    grey, _ = gdata.vision.ImageFolderDataset(str(tmp_path), flag=0)[0]
    assert grey.shape == (4, 6, 1)


# ---------------------------------------------------------------------------------------
# Transforms
# ---------------------------------------------------------------------------------------

@pytest.fixture(scope='module')
def ref():
    return dict(np.load(os.path.join(REF, 'vision_transforms_ref.npz')))


def test_to_tensor_and_normalize_match_mxnet(ref):
    img = mx.nd.array(ref['img'], dtype='uint8')
    out = T.ToTensor()(img)
    assert out.dtype == np.float32 and out.shape == (3, 5, 7)
    np.testing.assert_allclose(out.asnumpy(), ref['to_tensor_img'], rtol=1e-6)
    batch = T.ToTensor()(np.stack([ref['img'], ref['img']]))
    np.testing.assert_allclose(batch, ref['to_tensor_batch'], rtol=1e-6)
    norm = T.Normalize((0.1, 0.2, 0.3), (0.5, 0.6, 0.7))(out)
    np.testing.assert_allclose(norm.asnumpy(), ref['normalize_img'], rtol=1e-5, atol=1e-6)
    grey = T.Normalize(0.13, 0.31)(T.ToTensor()(mx.nd.array(ref['grey'], dtype='uint8')))
    np.testing.assert_allclose(grey.asnumpy(), ref['normalize_grey'], rtol=1e-5, atol=1e-6)


RESIZE_CASES = {
    'resize_4': (lambda: T.Resize(4), 'img'),
    'resize_4x3': (lambda: T.Resize((4, 3)), 'img'),
    'resize_keep': (lambda: T.Resize(4, keep_ratio=True), 'img'),
    'resize_keep_tall': (lambda: T.Resize(4, keep_ratio=True), 'grey'),
    'resize_up': (lambda: T.Resize(10), 'img'),
    'resize_up_grey': (lambda: T.Resize((11, 13)), 'grey'),
    'resize_float': (lambda: T.Resize(10), 'flt'),
    'resize_float_down': (lambda: T.Resize((3, 5)), 'flt'),
    'resize_half': (lambda: T.Resize(4), 'sq'),
    'resize_nearest': (lambda: T.Resize((5, 4), interpolation=0), 'img'),
    'center_crop_3': (lambda: T.CenterCrop(3), 'img'),
    'center_crop_4x2': (lambda: T.CenterCrop((4, 2)), 'img'),
}


@pytest.mark.parametrize('case', sorted(RESIZE_CASES))
def test_resize_and_crop_match_mxnet(ref, case):
    make, src = RESIZE_CASES[case]
    expected = ref[case]
    out = make()(mx.nd.array(ref[src], dtype=ref[src].dtype))
    assert out.shape == expected.shape and out.dtype == expected.dtype
    # OpenCV rounds uint8 bilinear results in fixed point: off by one at most
    tol = 1e-5 if expected.dtype == np.float32 else 1
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), expected, atol=tol, rtol=0)
    host = make()(ref[src])
    np.testing.assert_allclose(host.astype(np.float64), out.asnumpy(), atol=tol, rtol=0)


def test_batched_resize_equals_per_image(ref):
    imgs = np.stack([ref['img'], ref['img'][::-1]])
    batch = T.Resize((6, 3))._host_batch(imgs)
    for i in range(2):
        one = T.Resize((6, 3))(mx.nd.array(imgs[i], dtype='uint8')).asnumpy()
        assert np.abs(batch[i].astype(int) - one.astype(int)).max() <= 1


def test_cast_flip_compose():
    img = mx.nd.array(np.arange(24).reshape(2, 4, 3), dtype='uint8')
    assert T.Cast()(img).dtype == np.float32 and T.Cast('float16')(img).dtype == np.float16
    np.random.seed(0)
    outs = {T.RandomFlipLeftRight()(img).asnumpy().tobytes() for _ in range(20)}
    assert outs == {img.asnumpy().tobytes(), img.asnumpy()[:, ::-1].tobytes()}
    outs = {T.RandomFlipTopBottom()(img).asnumpy().tobytes() for _ in range(20)}
    assert outs == {img.asnumpy().tobytes(), img.asnumpy()[::-1].tobytes()}
    composed = T.Compose([T.Cast(), T.ToTensor()])
    assert composed(img).shape == (3, 2, 4) and 'ToTensor' in repr(composed)
    # MXNet gathers runs of HybridBlock transforms (not CenterCrop) into a HybridSequential
    mixed = repr(T.Compose([T.CenterCrop(2), T.ToTensor(), T.Normalize(0.5, 0.5)]))
    assert mixed.split('\n')[:4] == ['Compose(', '  (0): CenterCrop(', '  ', '  )']
    assert mixed.split('\n')[4:6] == ['  (1): HybridSequential(', '    (0): ToTensor(']
    crop = T.RandomResizedCrop(3)(mx.nd.array(np.random.randint(0, 255, (8, 9, 3)), dtype='uint8'))
    assert crop.shape == (3, 3, 3) and crop.dtype == np.uint8


@pytest.mark.parametrize('loader_kwargs', [{'num_workers': 2}, {'pin_memory': True}])
def test_worker_and_pinned_batches_train_a_cpu_network(loader_kwargs):
    """A batch in cpu_shared (DataLoader workers) or cpu_pinned memory reads the Parameters' cpu
    copies, operators on it give cpu arrays (views and astype keep the batch's context), and the
    built-in loss takes the cpu output with the cpu_shared label: MXNet's behaviour."""
    x = np.cos(np.arange(40)).reshape(8, 5).astype(np.float32)
    y = (np.arange(8) % 3).astype(np.float32)
    loader = gdata.DataLoader(gdata.ArrayDataset(mx.nd.array(x), mx.nd.array(y)), batch_size=8, **loader_kwargs)
    net = mx.gluon.nn.Dense(3, in_units=5, weight_initializer=mx.init.Constant(0.1))
    net.initialize()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5})
    (d, l), = list(loader)
    host = 'cpu_shared' if 'num_workers' in loader_kwargs else 'cpu_pinned'
    assert d.context.device_type == host and l.context.device_type == host
    assert net.weight.data(d.context) is net.weight.data(mx.cpu())
    assert (d * 2).context == mx.cpu() and d.reshape((40,)).context == d.context
    assert d[0].context == d.context and d.astype('float16').context == d.context
    with mx.autograd.record():
        out = net(d)
        loss = mx.gluon.loss.SoftmaxCrossEntropyLoss()(out, l)
    loss.backward()
    assert out.context == mx.cpu() and loss.context == mx.cpu()
    logits = x @ np.full((3, 5), 0.1, np.float32).T
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(loss.asnumpy(), -np.log(p[np.arange(8), y.astype(int)]), rtol=1e-5)
    onehot = np.eye(3, dtype=np.float32)[y.astype(int)]
    np.testing.assert_allclose(net.weight.grad().asnumpy(), (p - onehot).T @ x, rtol=1e-4, atol=1e-6)
    trainer.step(8)
    np.testing.assert_allclose(net.weight.data().asnumpy(), 0.1 - 0.5 / 8 * ((p - onehot).T @ x), rtol=1e-4, atol=1e-6)


def test_compose_children_gather_runs_of_hybrid_transforms():
    """len() and indexing see MXNet's children: a run of two or more HybridBlock transforms (user
    HybridBlocks included) is one HybridSequential child; applying the Compose applies them all in
    order, a user Block ending the run."""
    T = mx.gluon.data.vision.transforms

    class AddOne(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return x + 1

    class Twice(mx.gluon.Block):
        def forward(self, x):
            return x * 2

    img = mx.nd.array(np.arange(18).reshape(2, 3, 3), dtype='uint8')
    c = T.Compose([T.ToTensor(), AddOne(), T.Normalize(0.5, 0.25), Twice()])
    assert len(c) == 2 and type(c[0]).__name__ == 'HybridSequential' and len(c[0]) == 3
    assert isinstance(c[0][1], AddOne) and isinstance(c[1], Twice)
    ref = (np.arange(18).reshape(2, 3, 3).transpose(2, 0, 1) / 255.0 + 1 - 0.5) / 0.25 * 2
    np.testing.assert_allclose(c(img).asnumpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(c[0](img).asnumpy(), ref / 2, rtol=1e-6)
    mixed = T.Compose([T.Resize(2), T.CenterCrop(2), T.ToTensor(), T.Normalize(0.5, 0.5)])
    assert len(mixed) == 3 and [type(t).__name__ for t in mixed] == ['Resize', 'CenterCrop', 'HybridSequential']
    single = T.Compose([T.CenterCrop(2), T.ToTensor(), T.CenterCrop(1)])
    assert [type(t).__name__ for t in single] == ['CenterCrop', 'ToTensor', 'CenterCrop']


def test_transform_errors():
    with pytest.raises(MXNetError, match=r'shape \(height, width, channels\).*\[2,2\]'):
        T.ToTensor()(mx.nd.zeros((2, 2)))
    with pytest.raises(MXNetError, match='mean must have either 1 or 3 elements'):
        T.Normalize((0.1, 0.2), (0.5, 0.6))(mx.nd.zeros((3, 5, 7)))
    with pytest.raises(MXNetError, match='Apply ToTensor first'):
        T.Normalize(0.1, 0.3)(mx.nd.zeros((5, 7, 3)))
    # a crop larger than the image is shrunk to fit and resized back, as mx.image.center_crop
    assert T.CenterCrop(9)(mx.nd.zeros((5, 7, 3))).shape == (9, 9, 3)
    resize = T.Resize(0)  # checked when called, as MXNet's operator checks it
    with pytest.raises(MXNetError, match='Resize: size must be one positive int'):
        resize(mx.nd.zeros((5, 7, 3)))


def test_batches_of_ndarray_samples_stay_on_their_context():
    x = mx.nd.array(np.arange(12).reshape(6, 2), ctx=mx.cpu(1))
    ds = gdata.ArrayDataset(x, np.arange(6))
    with mx.cpu(2):
        data, label = next(iter(gdata.DataLoader(ds, batch_size=4)))
        slow_data, slow_label = next(iter(gdata.DataLoader(_PlainDataset(x, np.arange(6)), batch_size=4)))
    assert data.context == slow_data.context == mx.cpu(1)  # nd.stack keeps the samples' context
    assert label.context == slow_label.context == mx.cpu(2)  # nd.array uses the current context
