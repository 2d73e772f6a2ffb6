"""mx.recordio: MXNet's .rec/.idx format byte for byte, image record headers, errors."""
import os
import struct

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, 'data')
MAGIC = 0xced7230a


def part(cflag, payload):
    """One part as dmlc-core lays it out, written independently of gluonjax: magic, lrec, payload."""
    return struct.pack('<II', MAGIC, (cflag << 29) | len(payload)) + payload


def pad(n):
    return b'\0' * ((4 - n % 4) % 4)


def test_sequential_round_trip(tmp_path):
    path = str(tmp_path / 'seq.rec')
    records = [bytes([i]) * i for i in range(40)] + [b'', b'x' * 1001]
    writer = mx.recordio.MXRecordIO(path, 'w')
    for r in records:
        writer.write(r)
    assert writer.tell() == sum(8 + len(r) + len(pad(len(r))) for r in records)
    writer.close()
    reader = mx.recordio.MXRecordIO(path, 'r')
    assert [reader.read() for _ in records] == records
    assert reader.read() is None
    reader.reset()
    assert reader.read() == records[0]
    reader.close()


def test_bytes_written_match_the_format(tmp_path):
    idx, rec = str(tmp_path / 'a.idx'), str(tmp_path / 'a.rec')
    magic = struct.pack('<I', MAGIC)
    aligned = b'abcd' + magic + b'efgh' + magic + b'i'      # magic at offsets 4 and 12: split
    unaligned = b'abc' + magic + b'x'                        # magic at offset 3: not split
    edge = b'abcd' + magic                                   # magic in the last aligned word
    writer = mx.recordio.MXIndexedRecordIO(idx, rec, 'w')
    for key, payload in [(5, b'hello'), (9, aligned), (2, unaligned), (7, edge), (1, b'')]:
        writer.write_idx(key, payload)
    writer.close()
    expected = [part(0, b'hello') + pad(5),
                part(1, b'abcd') + part(2, b'efgh') + part(3, b'i') + pad(1),
                part(0, unaligned) + pad(len(unaligned)),
                part(1, b'abcd') + part(3, b''),
                part(0, b'')]
    data = open(rec, 'rb').read()
    assert data == b''.join(expected)
    offsets = np.cumsum([0] + [len(e) for e in expected])[:5]
    assert open(idx).read() == ''.join('%d\t%d\n' % (k, o) for k, o in zip([5, 9, 2, 7, 1], offsets))
    reader = mx.recordio.MXIndexedRecordIO(idx, rec, 'r')
    assert reader.keys == [5, 9, 2, 7, 1]
    assert reader.read_idx(9) == aligned and reader.read_idx(7) == edge
    assert reader.read_idx(2) == unaligned and reader.read_idx(1) == b'' and reader.read_idx(5) == b'hello'


def test_reads_and_rewrites_the_file_mxnet_wrote(tmp_path):
    # tests/data/records.* were written by MXNet 1.9.1 (tests/data/gen_data_refs.py)
    reader = mx.recordio.MXIndexedRecordIO(os.path.join(REF, 'records.idx'), os.path.join(REF, 'records.rec'), 'r')
    magic = struct.pack('<I', MAGIC)
    payloads = [b'first record', b'', b'abc' + magic + b'defg' + magic + b'h', bytes(range(256)) * 3]
    assert reader.keys == [3, 7, 11, 20]
    assert [reader.read_idx(k) for k in reader.keys] == payloads
    writer = mx.recordio.MXIndexedRecordIO(str(tmp_path / 'r.idx'), str(tmp_path / 'r.rec'), 'w')
    for k, p in zip(reader.keys, payloads):
        writer.write_idx(k, p)
    writer.close()
    assert open(tmp_path / 'r.rec', 'rb').read() == open(os.path.join(REF, 'records.rec'), 'rb').read()
    assert open(tmp_path / 'r.idx').read() == open(os.path.join(REF, 'records.idx')).read()


def test_pack_unpack_headers():
    s = mx.recordio.pack(mx.recordio.IRHeader(7, 3.5, 12345, 6), b'payload')
    # flag is forced to 0 for a scalar label; layout 'IfQQ' little-endian, native alignment (no padding)
    assert s == struct.pack('<IfQQ', 0, 3.5, 12345, 6) + b'payload'
    header, body = mx.recordio.unpack(s)
    assert header == (0, 3.5, 12345, 6) and body == b'payload'
    multi = mx.recordio.pack((0, [1.5, 2.0, -3.0], 4, 0), b'img')
    assert multi == struct.pack('<IfQQ', 3, 0.0, 4, 0) + struct.pack('<3f', 1.5, 2.0, -3.0) + b'img'
    header, body = mx.recordio.unpack(multi)
    assert header.flag == 3 and header.id == 4 and body == b'img'
    assert header.label.dtype == np.float32 and header.label.tolist() == [1.5, 2.0, -3.0]
    nd_label = mx.recordio.pack((0, mx.nd.array([1, 2]), 0, 0), b'')
    assert mx.recordio.unpack(nd_label)[0].label.tolist() == [1.0, 2.0]


def test_pack_img_unpack_img_png_is_lossless():
    rs = np.random.RandomState(0)
    bgr = rs.randint(0, 256, (9, 13, 3)).astype(np.uint8)
    s = mx.recordio.pack_img((0, 2.0, 1, 0), bgr, quality=3, img_fmt='.png')
    header, img = mx.recordio.unpack_img(s, 1)
    assert header.label == 2.0 and img.dtype == np.uint8
    np.testing.assert_array_equal(img, bgr)
    # the payload is a PNG whose pixels are RGB (the channels are swapped on the way in)
    rgb = mx.image.imdecode(mx.recordio.unpack(s)[1]).asnumpy()
    np.testing.assert_array_equal(rgb, bgr[:, :, ::-1])
    grey = rs.randint(0, 256, (5, 6)).astype(np.uint8)
    _, out = mx.recordio.unpack_img(mx.recordio.pack_img((0, 0, 0, 0), grey, img_fmt='.png'), 0)
    np.testing.assert_array_equal(out, grey)
    smooth = np.stack(list(np.meshgrid(np.arange(16) * 8, np.arange(12) * 10, indexing='xy')) + [np.full((12, 16), 90)],
                      axis=2).astype(np.uint8)
    _, jpg = mx.recordio.unpack_img(mx.recordio.pack_img((0, 0, 0, 0), smooth, quality=95), 1)
    assert jpg.shape == smooth.shape and np.abs(jpg.astype(int) - smooth).max() <= 6


def test_writer_publishes_files_on_close(tmp_path):
    idx, rec = str(tmp_path / 'w.idx'), str(tmp_path / 'w.rec')
    writer = mx.recordio.MXIndexedRecordIO(idx, rec, 'w')
    writer.write_idx(0, b'abc')
    assert not os.path.exists(rec) and not os.path.exists(idx)       # still being written
    writer.close()
    assert sorted(os.listdir(tmp_path)) == ['w.idx', 'w.rec']
    with mx.recordio.MXRecordIO(str(tmp_path / 'x.rec'), 'w') as w:
        w.write(b'1')
    assert os.path.getsize(tmp_path / 'x.rec') == 12
    writer = mx.recordio.MXIndexedRecordIO(idx, rec, 'w')
    writer.write_idx(0, b'dropped')
    writer.reset()                      # starts again from an empty file
    writer.write_idx(1, b'kept')
    writer.close()
    assert sorted(os.listdir(tmp_path)) == ['w.idx', 'w.rec', 'x.rec']
    reader = mx.recordio.MXIndexedRecordIO(idx, rec, 'r')
    assert reader.keys == [1] and reader.read_idx(1) == b'kept' and reader.read() is None


def test_errors_name_file_offset_and_key(tmp_path):
    good = part(0, b'abcd') + part(0, b'efghij') + pad(6)
    bad_magic = tmp_path / 'magic.rec'
    bad_magic.write_bytes(good[:12] + b'\x00' * 8 + good[20:])
    r = mx.recordio.MXRecordIO(str(bad_magic), 'r')
    assert r.read() == b'abcd'
    with pytest.raises(MXNetError, match=r'magic\.rec.*bad magic number 0x00000000.*byte offset 12'):
        r.read()
    truncated = tmp_path / 'trunc.rec'
    truncated.write_bytes(good[:-3])
    r = mx.recordio.MXRecordIO(str(truncated), 'r')
    r.read()
    with pytest.raises(MXNetError, match=r'trunc\.rec.*truncated record \(5 of 8 bytes\).*byte offset 12'):
        r.read()
    split = tmp_path / 'split.rec'
    split.write_bytes(part(1, b'abcd'))
    with pytest.raises(MXNetError, match='ends inside a multi-part record'):
        mx.recordio.MXRecordIO(str(split), 'r').read()
    (tmp_path / 'k.idx').write_text('0\t0\n1\t12\n')
    (tmp_path / 'k.rec').write_bytes(good)
    r = mx.recordio.MXIndexedRecordIO(str(tmp_path / 'k.idx'), str(tmp_path / 'k.rec'), 'r')
    with pytest.raises(KeyError, match=r'key 5 is not in the index .*k\.idx \(2 keys, from 0 to 1\)'):
        r.read_idx(5)
    (tmp_path / 'bad.idx').write_text('0\t0\nnot a line\n')
    with pytest.raises(ValueError, match=r'bad\.idx line 2: expected "key<TAB>byte offset"'):
        mx.recordio.MXIndexedRecordIO(str(tmp_path / 'bad.idx'), str(tmp_path / 'k.rec'), 'r')
    with pytest.raises(MXNetError, match='cannot open .*missing.rec'):
        mx.recordio.MXRecordIO(str(tmp_path / 'missing.rec'), 'r')
    with pytest.raises(ValueError, match='Invalid flag'):
        mx.recordio.MXRecordIO(str(tmp_path / 'k.rec'), 'a')
    with pytest.raises(AssertionError, match='open for reading'):
        mx.recordio.MXRecordIO(str(tmp_path / 'k.rec'), 'r').write(b'x')
    with pytest.raises(struct.error, match='shorter than its 24-byte header'):
        mx.recordio.unpack(b'short')
    with pytest.raises(ValueError, match='announces 3 labels'):
        mx.recordio.unpack(struct.pack('<IfQQ', 3, 0, 0, 0) + b'\0' * 4)


def test_scan_offsets_and_pread(tmp_path):
    path = str(tmp_path / 's.rec')
    magic = struct.pack('<I', MAGIC)
    records = [b'a', b'abcd' + magic + b'e', b'', b'xyz' * 5]
    with mx.recordio.MXRecordIO(path, 'w') as w:
        for r in records:
            w.write(r)
    offsets = mx.recordio.scan_offsets(path)
    fd = os.open(path, os.O_RDONLY)
    try:
        got = [mx.recordio.read_record_at(fd, o, path)[0] for o in offsets]
    finally:
        os.close(fd)
    assert got == records and offsets[0] == 0 and offsets[1] == 12
    end = os.path.getsize(path)
    with open(path, 'ab') as f:
        f.write(part(0, b'abcdefgh')[:10])
    with pytest.raises(MXNetError, match=r's\.rec.*truncated record.*byte offset %d' % end):
        mx.recordio.scan_offsets(path)


def test_read_lst_entries_and_errors(tmp_path):
    from gluonjax.recordio import read_lst
    path = tmp_path / 'images.lst'
    path.write_text('0\t1.0\ta.jpg\n\n7\t2\t0.5\tsub/b.jpg\n')
    assert list(read_lst(str(path), 'ImageIter')) == [(0, [1.0], 'a.jpg'), (7, [2.0, 0.5], 'sub/b.jpg')]
    with pytest.raises(MXNetError, match=r'ImageRecordIter: .*images.lst line 1: expected "index<TAB>2 '
                                         r'label\(s\)<TAB>path", got .0\\t1.0\\ta.jpg.'):
        list(read_lst(str(path), 'ImageRecordIter', min_labels=2))
    with pytest.raises(MXNetError, match='ImageIter: cannot open .*missing.lst'):
        list(read_lst(str(tmp_path / 'missing.lst'), 'ImageIter'))
