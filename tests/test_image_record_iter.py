"""mx.io.ImageRecordIter: MNIST digits packed into a .rec come back in order, with labels and pixels."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError, NotSupportedError

pytest.importorskip('PIL')

N = 300


@pytest.fixture(scope='module')
def mnist_rec(tmp_path_factory):
    mnist = mx.test_utils.get_mnist()
    imgs = np.round(mnist['train_data'][:N, 0] * 255).astype(np.uint8)
    labels = mnist['train_label'][:N].astype(np.float32)
    d = tmp_path_factory.mktemp('mnist')
    idx, rec = str(d / 'mnist.idx'), str(d / 'mnist.rec')
    with mx.recordio.MXIndexedRecordIO(idx, rec, 'w') as w:
        for i, (im, lab) in enumerate(zip(imgs, labels)):
            w.write_idx(i, mx.recordio.pack_img((0, float(lab), i, 0), im, img_fmt='.png'))
    return idx, rec, imgs, labels


def collect(it):
    batches = list(it)
    data = np.concatenate([b.data[0].asnumpy() for b in batches])
    label = np.concatenate([b.label[0].asnumpy() for b in batches])
    return batches, data, label


def test_reads_mnist_in_order(mnist_rec):
    idx, rec, imgs, labels = mnist_rec
    it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(1, 28, 28), batch_size=64, preprocess_threads=2)
    assert it.provide_data[0].shape == (64, 1, 28, 28) and it.provide_label[0].shape == (64,)
    batches, data, label = collect(it)
    assert len(batches) == 5 and [b.pad for b in batches] == [0, 0, 0, 0, 20]
    assert data.dtype == np.float32 and data.shape == (320, 1, 28, 28)
    np.testing.assert_array_equal(data[:N, 0], imgs)
    np.testing.assert_array_equal(label[:N], labels)
    # round_batch: the last batch borrows the first 20 images, and the next epoch skips them
    np.testing.assert_array_equal(data[N:, 0], imgs[:20])
    assert batches[0].index.tolist() == list(range(64))
    it.reset()
    again = it.next()
    np.testing.assert_array_equal(again.label[0].asnumpy(), labels[20:84])


def test_normalisation_mirror_and_no_round_batch(mnist_rec):
    idx, rec, imgs, labels = mnist_rec
    it = mx.io.ImageRecordIter(path_imgrec=rec, path_imgidx=idx, data_shape=(1, 20, 24), batch_size=128,
                               mean_r=33.0, std_r=2.0, scale=0.5, mirror=True, round_batch=False)
    batches, data, label = collect(it)
    assert [b.pad for b in batches] == [0, 0, 84]
    ref = (imgs[:, 4:24, 2:26].astype(np.float32) - 33.0) * np.float32(0.5 / 2.0)
    np.testing.assert_allclose(data[:N, 0], ref[:, :, ::-1], rtol=1e-6)
    assert (data[N:] == 0).all() and (label[N:] == 0).all()
    u8 = mx.io.ImageRecordUInt8Iter(path_imgrec=rec, data_shape=(1, 28, 28), batch_size=100)
    assert u8.next().data[0].dtype == np.uint8
    # MXNet 1.x's older names take the same arguments
    u8_v1 = mx.io.ImageRecordUInt8Iter_v1(path_imgrec=rec, data_shape=(1, 28, 28), batch_size=100).next()
    assert u8_v1.data[0].dtype == np.uint8
    np.testing.assert_array_equal(u8_v1.data[0].asnumpy()[:, 0], imgs[:100])
    v1 = mx.io.ImageRecordIter_v1(path_imgrec=rec, data_shape=(1, 28, 28), batch_size=100, scale=0.5).next()
    np.testing.assert_allclose(v1.data[0].asnumpy()[:, 0], imgs[:100] * np.float32(0.5))


def test_shuffle_crop_partition_resize(mnist_rec):
    idx, rec, imgs, labels = mnist_rec
    kw = dict(path_imgrec=rec, path_imgidx=idx, data_shape=(1, 28, 28), batch_size=50)
    _, data, label = collect(mx.io.ImageRecordIter(shuffle=True, seed=3, **kw))
    _, data2, label2 = collect(mx.io.ImageRecordIter(shuffle=True, seed=3, preprocess_threads=1, **kw))
    np.testing.assert_array_equal(label, label2)          # seeded: independent of the thread count
    assert sorted(label.tolist()) == sorted(labels.tolist()) and (label != labels).any()
    order = [int(np.flatnonzero((imgs == d[0]).all(axis=(1, 2)))[0]) for d in data[:10]]
    np.testing.assert_array_equal(label[:10], labels[order])
    _, part, plabel = collect(mx.io.ImageRecordIter(part_index=1, num_parts=3, **kw))
    np.testing.assert_array_equal(plabel, labels[100:200])
    crop = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(1, 20, 20), batch_size=10, rand_crop=True,
                                 rand_mirror=True, seed=1)
    b = crop.next().data[0].asnumpy()
    for d, im in zip(b[:, 0], imgs[:10]):
        windows = [im[y:y + 20, x:x + 20] for y in range(9) for x in range(9)]
        assert any((d == w).all() or (d == w[:, ::-1]).all() for w in windows)
    big = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 32, 32), batch_size=4, resize=32)
    first = big.next().data[0].asnumpy()
    assert first.shape == (4, 3, 32, 32)
    np.testing.assert_array_equal(first[:, 0], first[:, 2])       # a grey image decoded as RGB


def test_multi_label_and_errors(tmp_path, mnist_rec):
    _, rec, imgs, _ = mnist_rec
    path = str(tmp_path / 'multi.rec')
    with mx.recordio.MXRecordIO(path, 'w') as w:
        for i in range(3):
            w.write(mx.recordio.pack_img((0, [i, 10 + i], i, 0), imgs[i], img_fmt='.png'))
    it = mx.io.ImageRecordIter(path_imgrec=path, data_shape=(1, 28, 28), batch_size=3, label_width=2)
    assert it.next().label[0].asnumpy().tolist() == [[0, 10], [1, 11], [2, 12]]
    with pytest.raises(MXNetError, match=r'record at byte offset 0 of .*multi\.rec \(id 0\): the record has 2 labels '
                                         'but label_width is 1'):
        mx.io.ImageRecordIter(path_imgrec=path, data_shape=(1, 28, 28), batch_size=3).next()
    with pytest.raises(MXNetError, match=r'the image is 28x28 .*smaller than data_shape \(1, 30, 30\)'):
        mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(1, 30, 30), batch_size=3).next()
    with pytest.raises(NotSupportedError, match='max_rotate_angle=10'):
        mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(1, 28, 28), batch_size=3, max_rotate_angle=10)
    with pytest.raises(MXNetError, match="unknown argument 'bogus'"):
        mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(1, 28, 28), batch_size=3, bogus=1)
    with pytest.raises(MXNetError, match=r'data_shape must be \(channels, height, width\)'):
        mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(28, 28), batch_size=3)
    broken = tmp_path / 'broken.rec'
    broken.write_bytes(open(rec, 'rb').read()[:1000])
    with pytest.raises(MXNetError, match=r'broken\.rec.*truncated record'):
        mx.io.ImageRecordIter(path_imgrec=str(broken), data_shape=(1, 28, 28), batch_size=3)
    short = str(tmp_path / 'short.rec')  # a whole record holding less than an image header
    with mx.recordio.MXRecordIO(short, 'w') as w:
        w.write(b'tiny')
    with pytest.raises(MXNetError, match=r'record at byte offset 0 of .*short\.rec: .*shorter than its 24-byte header'):
        mx.io.ImageRecordIter(path_imgrec=short, data_shape=(1, 28, 28), batch_size=1).next()
