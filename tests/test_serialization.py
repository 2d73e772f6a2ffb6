"""MXNet 1.x NDArray file format (gluonjax/ndarray/_serialization.py).

Reference files in tests/data/mxnet_ref/ were written by MXNet 1.9.1 with
tests/data/mxnet_ref/make_serialization_data.py; ``reference_arrays`` below repeats its formulas.
"""
import json
import os
import pickle
import stat
import struct
import subprocess
import textwrap

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError
from gluonjax.ndarray._serialization import (save_arrays, load_arrays, save_arrays_to_bytes,
                                             load_arrays_from_bytes, NDArrayFileNotFoundError)

REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'mxnet_ref')
MXREF_PY = '/tmp/mxref/bin/python'

DTYPES = ['float32', 'float64', 'float16', 'uint8', 'int8', 'int32', 'int64', 'bool']
V2 = 0xF993FAC9


def reference_arrays():
    return {
        'f32_4d': np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) / 4 - 2,
        'f64_1d': np.arange(5, dtype=np.float64) * 1.5 - 3.25,
        'f16_2d': (np.arange(12, dtype=np.float16) - 6).reshape(3, 4) / 8,
        'u8_1d': np.arange(250, 257, dtype=np.int64).astype(np.uint8),
        'i8_2d': (np.arange(10, dtype=np.int8) * 25 - 120).reshape(2, 5),
        'i32_2d': (np.arange(9, dtype=np.int32) - 4).reshape(3, 3) * 100000,
        'i64_2d': (np.arange(4, dtype=np.int64).reshape(2, 2) + 2 ** 40).astype(np.int64),
        'bool_2d': (np.arange(6).reshape(2, 3) % 2) == 0,
        'f32_1elem': np.array([7.5], dtype=np.float32),
        'f32_5d': np.arange(32, dtype=np.float32).reshape(1, 2, 2, 2, 4),
    }


DICT_NAMES = {
    'f32_4d': 'net.conv0.weight', 'f64_1d': 'f64', 'f16_2d': 'f16', 'u8_1d': 'u8',
    'i8_2d': 'i8', 'i32_2d': 'i32', 'i64_2d': 'i64', 'bool_2d': 'mask',
    'f32_1elem': 'gamma_\u00e9\u4e2d', 'f32_5d': '',
}


def ref_path(name):
    return os.path.join(REF, name)


def ref_bytes(name):
    with open(ref_path(name), 'rb') as f:
        return f.read()


def assert_same(a, b):
    assert isinstance(a, np.ndarray)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_array_equal(a, b)


def sample(dtype, shape=(2, 3)):
    n = int(np.prod(shape))
    if dtype == 'bool':
        return (np.arange(n) % 3 == 0).reshape(shape)
    return (np.arange(n) - n // 2).astype(dtype).reshape(shape)


def header(count):
    return struct.pack('<QQQ', 0x112, 0, count)


def dense_record(shape, flag, payload, magic=V2, dev=(1, 0)):
    return (struct.pack('<Ii', magic, 0) + struct.pack('<i', len(shape))
            + struct.pack('<%dq' % len(shape), *shape) + struct.pack('<iii', dev[0], dev[1], flag)
            + payload)


# --------------------------------------------------------------------------- round trips (ours)

@pytest.mark.parametrize('dtype', DTYPES)
def test_round_trip_each_dtype(tmp_path, dtype):
    arrays = [sample(dtype), sample(dtype, (4,)), sample(dtype, (1, 2, 1, 3))]
    f = tmp_path / 'x.params'
    save_arrays(f, arrays)
    back = load_arrays(f)
    assert isinstance(back, list) and len(back) == 3
    for a, b in zip(back, arrays):
        assert_same(a, b)
        assert a.flags.writeable and a.flags.c_contiguous


def test_round_trip_list_and_dict(tmp_path):
    ref = reference_arrays()
    save_arrays(tmp_path / 'l.params', list(ref.values()))
    back = load_arrays(str(tmp_path / 'l.params'))
    for a, b in zip(back, ref.values()):
        assert_same(a, b)
    d = {DICT_NAMES[k]: v for k, v in ref.items()}
    save_arrays(tmp_path / 'd.params', d)
    back = load_arrays(tmp_path / 'd.params')
    assert list(back) == list(d)
    for k in d:
        assert_same(back[k], d[k])


def test_round_trip_bytes_and_special_shapes():
    arrays = [np.float32(1.5), np.zeros((0, 3), np.int32), np.zeros((2, 0, 1), np.float16),
              np.asfortranarray(np.arange(6.).reshape(2, 3)), np.arange(10)[::3],
              np.arange(4, dtype='>i4')]
    back = load_arrays_from_bytes(save_arrays_to_bytes(arrays))
    for a, b in zip(back, arrays):
        assert_same(a, np.asarray(b).astype(np.asarray(b).dtype.newbyteorder('=')))
    assert back[5].dtype.byteorder in ('=', '|')
    assert load_arrays_from_bytes(bytearray(save_arrays_to_bytes([]))) == []
    assert load_arrays_from_bytes(save_arrays_to_bytes({})) == []  # MXNet: an empty dict loads as []


def test_round_trip_bfloat16():
    ml_dtypes = pytest.importorskip('ml_dtypes')
    a = np.array([1.5, -2.0, 3.0e38], dtype=ml_dtypes.bfloat16)
    raw = save_arrays_to_bytes([a])
    assert struct.unpack_from('<i', raw, 24 + 4 + 4 + 4 + 8 + 8)[0] == 12
    assert_same(load_arrays_from_bytes(raw)[0], a)


def test_bool_bytes_other_than_one_read_as_true():
    raw = header(1) + dense_record((3,), 7, bytes([0, 1, 7])) + struct.pack('<Q', 0)
    assert load_arrays_from_bytes(raw)[0].tolist() == [False, True, True]


def test_single_array_and_tuple_accepted():
    a = np.arange(3, dtype=np.float32)
    assert save_arrays_to_bytes(a) == save_arrays_to_bytes([a]) == save_arrays_to_bytes((a,))


# --------------------------------------------------------------------------- MXNet-written files

def test_mxnet_list_file():
    back = load_arrays(ref_path('nd_list.params'))
    ref = list(reference_arrays().values())
    assert isinstance(back, list) and len(back) == len(ref)
    for a, b in zip(back, ref):
        assert_same(a, b)


def test_mxnet_dict_file():
    back = load_arrays(ref_path('nd_dict.params'))
    ref = reference_arrays()
    assert isinstance(back, dict)
    assert list(back) == [DICT_NAMES[k] for k in ref]
    for k, v in ref.items():
        assert_same(back[DICT_NAMES[k]], v)


def test_mxnet_empty_file():
    assert load_arrays(ref_path('nd_empty.params')) == []


def test_mxnet_np_shape_file():
    back = load_arrays(ref_path('np_shape.params'))
    assert_same(back[0], np.array(2.5, dtype=np.float32))
    assert_same(back[1], np.zeros((0, 3), np.float32))
    assert_same(back[2], np.arange(6, dtype=np.int64).reshape(2, 3))


def test_mxnet_legacy_scalar_file():
    # MXNet 1.9.1 writes a 0-d array as a v2 record with ndim 0 followed by its data, which
    # its own mx.nd.load cannot read back; we read the value.
    assert_same(load_arrays(ref_path('nd_scalar_legacy.params'))[0], np.array(3.5, np.float32))


def test_mxnet_gluon_params_file():
    back = load_arrays(ref_path('gluon_dense.params'))
    assert list(back) == ['weight', 'bias']
    assert_same(back['weight'], np.arange(6, dtype=np.float32).reshape(3, 2))
    assert_same(back['bias'], np.array([-1, 0, 1], np.float32))


def test_load_from_bytes_matches_file():
    raw = ref_bytes('nd_dict.params')
    a, b = load_arrays_from_bytes(raw), load_arrays(ref_path('nd_dict.params'))
    assert list(a) == list(b)
    for k in a:
        assert_same(a[k], b[k])


@pytest.mark.parametrize('name,np_shape', [('nd_list.params', None), ('nd_dict.params', None),
                                           ('nd_empty.params', None), ('gluon_dense.params', None),
                                           ('np_shape.params', None), ('np_shape.params', True),
                                           ('sparse.params', None)])
def test_byte_identical_to_mxnet(tmp_path, name, np_shape):
    content = load_arrays(ref_path(name))
    assert save_arrays_to_bytes(content, np_shape=np_shape) == ref_bytes(name)
    save_arrays(tmp_path / name, content, np_shape=np_shape)
    assert (tmp_path / name).read_bytes() == ref_bytes(name)


def test_sparse_arrays_written_by_mxnet_load_as_their_parts():
    # sparse.params: MXNet's {'dense', 'rsp' (4x3, rows 0 and 2), 'csr' (2x3)}
    back = load_arrays(ref_path('sparse.params'))
    rsp, csr = back['rsp'], back['csr']
    assert (rsp.stype, rsp.shape, csr.stype, csr.shape) == ('row_sparse', (4, 3), 'csr', (2, 3))
    assert_same(rsp.data, np.arange(6, dtype=np.float32).reshape(2, 3))
    assert_same(rsp.aux[0], np.array([0, 2], np.int64))
    assert_same(csr.data, np.array([1., 2.], np.float32))
    assert_same(csr.aux[0], np.array([0, 1, 2], np.int64))  # indptr, then indices: MXNet's aux order
    assert_same(csr.aux[1], np.array([0, 2], np.int64))
    assert_same(back['dense'], np.arange(4, dtype=np.float32))
    # the NDArray front end gives them back in their storage
    nds = mx.nd.load(ref_path('sparse.params'))
    assert (nds['rsp'].stype, nds['csr'].stype) == ('row_sparse', 'csr')
    dense = np.zeros((4, 3), np.float32)
    dense[[0, 2]] = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(nds['rsp'].asnumpy(), dense)
    np.testing.assert_array_equal(nds['csr'].asnumpy(), [[1., 0., 0.], [0., 0., 2.]])


def test_sparse_record_with_a_zero_storage_shape_takes_it_from_the_aux_shapes():
    # MXNet 1.9.1 writes the storage shape before computing the array: x.tostype('csr') saved at
    # once can say (0,) while 3 values follow (its reader derives the shape from the aux shapes)
    raw = bytearray(ref_bytes('sparse.params'))
    good = bytes(raw)
    at = good.index(struct.pack('<Ii', 0xF993FAC9, 2)) + 8  # the csr record's storage shape
    assert struct.unpack('<iq', good[at:at + 12]) == (1, 2)
    raw[at + 4:at + 12] = struct.pack('<q', 0)
    back = load_arrays_from_bytes(bytes(raw))
    assert_same(back['csr'].data, np.array([1., 2.], np.float32))
    assert save_arrays_to_bytes(back) == good


def test_sparse_nd_arrays_round_trip_in_their_storage(tmp_path):
    rsp = mx.nd.array([[0, 0], [1, 2], [0, 0], [3, 0]]).tostype('row_sparse')
    csr = mx.nd.array([[0, 1.5, 0], [2, 0, 3]]).tostype('csr')
    f = str(tmp_path / 's.params')
    mx.nd.save(f, {'rsp': rsp, 'csr': csr, 'd': mx.nd.arange(3)})
    back = mx.nd.load(f)
    assert [back[k].stype for k in ('rsp', 'csr', 'd')] == ['row_sparse', 'csr', 'default']
    assert back['rsp'].indices.asnumpy().tolist() == [1, 3]
    assert back['csr'].indptr.asnumpy().tolist() == [0, 1, 3]
    np.testing.assert_array_equal(back['rsp'].asnumpy(), rsp.asnumpy())
    np.testing.assert_array_equal(back['csr'].asnumpy(), csr.asnumpy())
    # the file is laid out as MXNet's: every record's sizes check out on a re-read of the parts
    parts = load_arrays(f)
    assert parts['rsp'].data.shape == (2, 2) and parts['csr'].data.shape == (3,)


# --------------------------------------------------------------------------- older record versions

def test_v1_and_original_records():
    v1 = (struct.pack('<I', 0xF993FAC8) + struct.pack('<iqq', 2, 2, 2) + struct.pack('<iii', 1, 0, 6)
          + np.arange(4, dtype='<i8').tobytes())
    v0 = struct.pack('<III', 2, 1, 3) + struct.pack('<iii', 1, 0, 0) + np.arange(3, dtype='<f4').tobytes()
    back = load_arrays_from_bytes(header(2) + v1 + v0 + struct.pack('<Q', 0))
    assert_same(back[0], np.arange(4, dtype=np.int64).reshape(2, 2))
    assert_same(back[1], np.arange(3, dtype=np.float32).reshape(1, 3))


def test_gpu_context_record_loads():
    raw = header(1) + dense_record((2,), 0, np.ones(2, '<f4').tobytes(), dev=(2, 1)) + struct.pack('<Q', 0)
    assert_same(load_arrays_from_bytes(raw)[0], np.ones(2, np.float32))


def test_extra_mshadow_dtypes_load():
    raw = header(1) + dense_record((3,), 8, np.array([-1, 0, 1], '<i2').tobytes()) + struct.pack('<Q', 0)
    assert_same(load_arrays_from_bytes(raw)[0], np.array([-1, 0, 1], np.int16))


# --------------------------------------------------------------------------- bad input

def check_bad(raw, *patterns, tmp_path=None):
    with pytest.raises(MXNetError) as e:
        load_arrays_from_bytes(raw)
    for p in patterns:
        assert p in str(e.value), str(e.value)
    if tmp_path is not None:
        f = tmp_path / 'bad.params'
        f.write_bytes(raw)
        with pytest.raises(MXNetError) as e2:
            load_arrays(f)
        assert str(f) in str(e2.value)
        for p in patterns:
            assert p in str(e2.value), str(e2.value)
    return str(e.value)


def test_every_truncation_raises(tmp_path):
    raw = ref_bytes('nd_dict.params')
    for n in range(len(raw)):
        with pytest.raises(MXNetError):
            load_arrays_from_bytes(raw[:n])
    check_bad(raw[:200], 'truncated at array 1', tmp_path=tmp_path)
    check_bad(raw[:-3], 'truncated at name 9')
    list_raw = ref_bytes('nd_list.params')
    check_bad(list_raw[:-4], 'truncated at the name list (after array 9)')


def test_bad_magic(tmp_path):
    raw = bytearray(ref_bytes('nd_list.params'))
    raw[0] = 0x13
    check_bad(bytes(raw), 'is not an MXNet NDArray file (bad magic 0x0000000000000113',
              tmp_path=tmp_path)


@pytest.mark.parametrize('content,hint', [
    (pickle.dumps({'w': [1.0, 2.0, 3.0]}), 'pickle'),
    (json.dumps({'nodes': [], 'arg_nodes': [], 'heads': []}).encode(), 'JSON'),
    (b'\x93NUMPY\x01\x00v\x00' + b' ' * 118, '.npy'),
    (b'PK\x03\x04' + bytes(40), 'zip'),
])
def test_foreign_files(tmp_path, content, hint):
    check_bad(content, 'is not an MXNet NDArray file', hint, tmp_path=tmp_path)


def test_random_bytes_and_tiny_files(tmp_path):
    rng = np.random.default_rng(1)
    for n in (1, 7, 15, 16, 64, 4096):
        check_bad(rng.integers(0, 256, n, dtype=np.uint8).tobytes(), 'not an MXNet NDArray file')
    check_bad(b'', 'is empty', tmp_path=tmp_path)


def test_absurd_sizes():
    # A shape claiming far more data than the file holds.
    raw = header(1) + dense_record((1 << 40, 1 << 20), 0, b'\0' * 16) + struct.pack('<Q', 0)
    msg = check_bad(raw, 'truncated at array 0', 'needs')
    assert str(1 << 62) in msg
    # An array count far larger than the file.
    check_bad(header(1 << 60) + bytes(32), 'claims 1152921504606846976 arrays')
    # An absurd ndim.
    raw = header(1) + struct.pack('<Iii', V2, 0, 100000) + bytes(64)
    check_bad(raw, 'array 0', 'impossible ndim 100000')
    # Negative dimension.
    check_bad(header(1) + dense_record((2, -5), 0, b'') + bytes(8), 'negative dimension')
    # A name longer than the file.
    raw = header(1) + dense_record((1,), 0, bytes(4)) + struct.pack('<QQ', 1, 1 << 50) + b'abc'
    check_bad(raw, 'truncated at name 0')


def test_bad_fields():
    ok = dense_record((2,), 0, bytes(8))
    tail = struct.pack('<Q', 0)
    check_bad(header(1) + dense_record((2,), 42, bytes(8)) + tail, 'array 0', 'unknown dtype flag 42')
    check_bad(header(1) + dense_record((2,), 0, bytes(8), dev=(9, 0)) + tail, 'unknown device type 9')
    check_bad(header(1) + struct.pack('<Ii', V2, 7) + bytes(40), 'unknown storage type 7')
    check_bad(header(2) + ok + struct.pack('<I', 0xDEADBEEF) + bytes(40) + tail,
              'array 1: bad array magic 0xDEADBEEF')
    check_bad(header(1) + ok + struct.pack('<Q', 3) + bytes(30), '3 names for 1 arrays')
    check_bad(header(1) + ok + struct.pack('<QQ', 1, 2) + b'\xff\xfe', 'name 0 is not valid UTF-8')
    check_bad(header(1) + ok + tail + b'junk', '4 unexpected bytes')
    unknown = struct.pack('<Iii', 0xF993FACA, 0, -1)
    check_bad(header(1) + unknown + tail, 'unknown shape')


def test_mutated_files_only_raise_mxneterror():
    raw = ref_bytes('nd_dict.params')
    rng = np.random.default_rng(0)
    for _ in range(400):
        b = bytearray(raw)
        for pos in rng.integers(0, len(b), rng.integers(1, 4)):
            b[pos] = int(rng.integers(0, 256))
        try:
            load_arrays_from_bytes(bytes(b))
        except MXNetError:
            pass


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(NDArrayFileNotFoundError) as e:
        load_arrays(tmp_path / 'nope.params')
    assert isinstance(e.value, MXNetError) and isinstance(e.value, FileNotFoundError)
    assert 'nope.params' in str(e.value)
    with pytest.raises(MXNetError, match='directory'):
        load_arrays(tmp_path)


# --------------------------------------------------------------------------- saving: errors, atomicity

@pytest.mark.parametrize('bad', [np.zeros(2, np.int16), np.zeros(2, np.complex64),
                                 np.array(['a']), np.array([object()]), np.zeros(2, np.uint32)])
def test_save_rejects_unsupported_dtypes(tmp_path, bad):
    with pytest.raises(MXNetError, match="array 'w' has dtype .* cannot hold"):
        save_arrays(tmp_path / 'x.params', {'w': bad})
    assert os.listdir(tmp_path) == []


def test_save_rejects_bad_containers(tmp_path):
    with pytest.raises(MXNetError, match='keys must be str'):
        save_arrays(tmp_path / 'x.params', {1: np.zeros(2, np.float32)})
    with pytest.raises(MXNetError, match='array 1 is NoneType'):
        save_arrays(tmp_path / 'x.params', [np.zeros(1), None])
    with pytest.raises(MXNetError, match='not str'):
        save_arrays(tmp_path / 'x.params', 'hello')
    with pytest.raises(MXNetError, match="array 's' is 0-d"):
        save_arrays(tmp_path / 'x.params', {'s': np.float32(1)}, np_shape=False)
    assert os.listdir(tmp_path) == []


def test_zero_d_switches_file_to_np_shape_records():
    raw = save_arrays_to_bytes([np.ones(2, np.float32), np.float32(2)])
    assert struct.unpack_from('<I', raw, 24)[0] == 0xF993FACA
    raw = save_arrays_to_bytes([np.ones(2, np.float32)])
    assert struct.unpack_from('<I', raw, 24)[0] == V2
    raw = save_arrays_to_bytes([np.ones(2, np.float32)], np_shape=True)
    assert struct.unpack_from('<I', raw, 24)[0] == 0xF993FACA


def test_save_is_atomic(tmp_path, monkeypatch):
    f = tmp_path / 'model.params'
    save_arrays(f, {'a': np.arange(3, dtype=np.float32)})
    before = f.read_bytes()
    mode = stat.S_IMODE(os.stat(f).st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask

    import gluonjax.ndarray._serialization as ser

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(ser.os, 'fsync', boom)
    with pytest.raises(KeyboardInterrupt):
        save_arrays(f, {'a': np.zeros(100, np.float32)})
    assert f.read_bytes() == before
    assert os.listdir(tmp_path) == ['model.params']


# --------------------------------------------------------------------------- optional: real MXNet

@pytest.mark.skipif(not os.path.exists(MXREF_PY), reason='reference MXNet venv not present')
def test_real_mxnet_loads_our_files(tmp_path):
    ref = reference_arrays()
    save_arrays(tmp_path / 'list.params', list(ref.values()))
    save_arrays(tmp_path / 'dict.params', {DICT_NAMES[k]: v for k, v in ref.items()})
    save_arrays(tmp_path / 'np.params', [np.float32(2.5), np.zeros((0, 3), np.int32)])
    script = textwrap.dedent('''
        import sys, numpy as np, mxnet as mx
        d = sys.argv[1]
        out = {}
        for i, a in enumerate(mx.nd.load(d + '/list.params')):
            out['list/%d' % i] = a.asnumpy()
        for k, a in mx.nd.load(d + '/dict.params').items():
            out['dict/' + k] = a.asnumpy()
        with mx.util.np_shape(True):
            for i, a in enumerate(mx.nd.load(d + '/np.params')):
                out['np/%d' % i] = a.asnumpy()
        np.savez(d + '/out.npz', **out)
    ''')
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH',)}
    subprocess.run([MXREF_PY, '-c', script, str(tmp_path)], check=True, env=env,
                   capture_output=True, timeout=300)
    with np.load(tmp_path / 'out.npz') as got:
        for i, v in enumerate(ref.values()):
            assert_same(got['list/%d' % i], v)
        for k, v in ref.items():
            assert_same(got['dict/' + DICT_NAMES[k]], v)
        assert_same(got['np/0'], np.array(2.5, np.float32))
        assert_same(got['np/1'], np.zeros((0, 3), np.int32))


def test_reference_data_is_small():
    total = sum(os.path.getsize(ref_path(f)) for f in os.listdir(REF) if f.endswith('.params'))
    assert 0 < total < 50_000
