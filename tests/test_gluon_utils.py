"""gluon.utils: split_data, split_and_load, clip_global_norm, check_sha1, download."""
import hashlib

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import nd
from gluonjax.base import MXNetError
from gluonjax.gluon import utils


def test_split_data_even_and_uneven():
    x = nd.array(np.arange(20).reshape(10, 2))
    parts = utils.split_data(x, 2)
    assert [p.shape for p in parts] == [(5, 2), (5, 2)]
    np.testing.assert_array_equal(parts[1].asnumpy(), np.arange(10, 20).reshape(5, 2))
    with pytest.raises(ValueError, match='cannot be evenly split'):
        utils.split_data(x, 3)
    parts = utils.split_data(x, 3, even_split=False)
    assert [p.shape[0] for p in parts] == [4, 3, 3]
    tiny = utils.split_data(nd.arange(2), 3, even_split=False)  # MXNet 1.9: the last slice is empty
    assert [p.shape for p in tiny] == [(1,), (1,), (0,)]
    cols = utils.split_data(nd.array(np.arange(12).reshape(2, 6)), 3, batch_axis=1)
    np.testing.assert_array_equal(cols[2].asnumpy(), [[4, 5], [10, 11]])


def test_split_and_load_puts_slices_on_each_context():
    ctxs = [mx.cpu(0), mx.cpu(1)]
    parts = utils.split_and_load(np.arange(8, dtype=np.float32).reshape(4, 2), ctxs)
    assert [p.context for p in parts] == ctxs
    np.testing.assert_array_equal(parts[1].asnumpy(), [[4, 5], [6, 7]])
    single = utils.split_and_load(nd.ones((3, 2)), [mx.cpu(1)])
    assert single[0].context == mx.cpu(1) and single[0].shape == (3, 2)


def test_clip_global_norm():
    a, b = nd.array([3.0, 0.0]), nd.array([[0.0, 4.0]])
    norm = utils.clip_global_norm([a, b], 1.0)
    assert norm == pytest.approx(5.0) and type(norm) is np.float32  # MXNet's asscalar()
    np.testing.assert_allclose(a.asnumpy(), [0.6, 0], rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), [[0, 0.8]], rtol=1e-6)
    c = nd.array([0.1, 0.2])
    total = utils.clip_global_norm([c], 10.0, check_isfinite=False)
    assert isinstance(total, nd.NDArray)
    np.testing.assert_allclose(c.asnumpy(), [0.1, 0.2], rtol=1e-6)   # below the limit: unchanged
    with pytest.warns(UserWarning, match='nan or inf'):
        utils.clip_global_norm([nd.array([np.inf, 1.0])], 1.0)


def test_check_sha1_and_offline_download(tmp_path):
    f = tmp_path / 'data.bin'
    f.write_bytes(b'gluonjax')
    assert utils.check_sha1(str(f), hashlib.sha1(b'gluonjax').hexdigest())
    assert not utils.check_sha1(str(f), '0' * 40)
    # an existing file with the right hash is not fetched again
    assert utils.download('http://127.0.0.1:9/data.bin', path=str(f),
                          sha1_hash=hashlib.sha1(b'gluonjax').hexdigest()) == str(f)
    with pytest.raises(MXNetError, match='could not fetch http://127.0.0.1:9/missing.bin'):
        utils.download('http://127.0.0.1:9/missing.bin', path=str(tmp_path), retries=0)
