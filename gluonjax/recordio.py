"""``mx.recordio``: MXNet's RecordIO files (``.rec``) and their ``.idx`` indexes.

The format is dmlc-core's, byte for byte, so files written here are read by MXNet and the
other way round. A record is stored as one or more *parts*::

    uint32 magic 0xced7230a | uint32 lrec | payload | zero padding to a multiple of 4

``lrec`` holds the part's payload length in its low 29 bits and a continue flag in its top
3 bits: 0 a whole record, 1 the first part, 2 a middle part, 3 the last part. The writer
splits a record wherever the magic number occurs at a 4-byte aligned offset of the payload
(the magic itself is dropped and restored by the reader), so a reader that has lost its
place can find the next record by scanning for the magic number. All integers are
little-endian. An ``.idx`` file is text, one ``key<TAB>byte offset`` line per record.

An image record (``pack``/``unpack``) starts with ``IRHeader`` as the struct ``'IfQQ'``
(flag, label, id, id2); when ``flag > 0`` the label is the ``flag`` float32 values that
follow the header and the header's own label field is 0.

Writes are all-or-nothing per file: a writer writes to ``<uri>.tmp-<pid>`` (and the
index to ``<idx_path>.tmp-<pid>``) and renames them over the final names when it is
closed (``close()``, ``del``, garbage collection or interpreter exit). A process killed
mid-write leaves the temporary files and no half-written ``.rec`` that looks valid; a
reader that meets a truncated or corrupted file anyway raises ``MXNetError`` naming the
file and the byte offset.
"""
import numbers
import os
import struct
import weakref
from collections import namedtuple

import numpy as np

from .base import MXNetError, upper_layer

__all__ = ['MXRecordIO', 'MXIndexedRecordIO', 'IRHeader', 'pack', 'unpack', 'pack_img', 'unpack_img']

_MAGIC = 0xced7230a
_MAGIC_BYTES = struct.pack('<I', _MAGIC)
_LEN_MASK = (1 << 29) - 1
_MAX_RECORD = 1 << 29


def _encode_part(cflag, payload):
    return struct.pack('<II', _MAGIC, (cflag << 29) | len(payload)) + payload


def encode_record(buf):
    """The bytes dmlc-core's RecordIOWriter writes for one record (parts and padding)."""
    buf = bytes(buf)
    size = len(buf)
    if size >= _MAX_RECORD:
        raise MXNetError('RecordIO: a record must be shorter than 2^29 bytes, got %d' % size)
    out, start = [], 0
    # The magic number is looked for at aligned offsets only, as dmlc-core does.
    pos = buf.find(_MAGIC_BYTES)
    while pos != -1 and pos + 4 <= (size >> 2) << 2:
        if pos % 4 == 0:
            out.append(_encode_part(1 if start == 0 else 2, buf[start:pos]))
            start = pos + 4
            pos = buf.find(_MAGIC_BYTES, start)
        else:
            pos = buf.find(_MAGIC_BYTES, pos + 1)
    out.append(_encode_part(3 if start != 0 else 0, buf[start:]))
    out.append(b'\0' * ((4 - size % 4) % 4))
    return b''.join(out)


class _Files:
    """The open files of a record writer/reader; finalized apart from its owner (so that
    garbage collection or interpreter exit still closes and renames them)."""

    def __init__(self):
        self.rec = None
        self.idx = None
        self.renames = []   # (temporary, final) pairs, done in order on close

    def close(self):
        for f in (self.rec, self.idx):
            if f is not None:
                f.close()
        self.rec = self.idx = None
        renames, self.renames = self.renames, []
        for tmp, final in renames:
            os.replace(tmp, final)


def _open(path, mode, what):
    try:
        return open(path, mode)
    except OSError as err:
        raise MXNetError('%s: cannot open %s: %s' % (what, path, err.strerror)) from None


class MXRecordIO:
    """Reads or writes a RecordIO file sequentially.

    ``uri``: the ``.rec`` path; ``flag``: ``'r'`` to read, ``'w'`` to write (the file is
    created or truncated; it appears under its name when the writer is closed).
    """

    def __init__(self, uri, flag):
        self.uri = str(uri)
        self.flag = flag
        self.is_open = False
        self.writable = None
        self._files = None
        self._finalizer = None
        self.open()

    # -- opening and closing ---------------------------------------------------------
    def _tmp(self, path):
        return '%s.tmp-%d' % (path, os.getpid())

    def open(self):
        """Opens the file (for writing: a fresh temporary file)."""
        if self.flag not in ('r', 'w'):
            raise ValueError("Invalid flag %s" % self.flag)
        files = _Files()
        self.writable = self.flag == 'w'
        if self.writable:
            tmp = self._tmp(self.uri)
            files.rec = _open(tmp, 'wb', type(self).__name__)
            files.renames.append((tmp, self.uri))
        else:
            files.rec = _open(self.uri, 'rb', type(self).__name__)
        self._files = files
        self._finalizer = weakref.finalize(self, files.close)
        self.is_open = True

    def close(self):
        """Closes the file; a writer's file takes its final name now."""
        if not self.is_open:
            return
        self.is_open = False
        self._finalizer()

    def __del__(self):
        try:
            self.close()
        except Exception:  # never raise from a destructor
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def reset(self):
        """Goes back to the first record; a writer starts an empty file again (what it wrote
        before is dropped, never published)."""
        if self.is_open and self.writable:
            dropped, self._files.renames = self._files.renames, []
            self.close()
            for tmp, _ in dropped:
                os.remove(tmp)
        self.close()
        self.open()

    def _check(self, writing):
        """Fails on a closed file, and with AssertionError (MXNet's asserts) in the wrong mode."""
        if not self.is_open:
            raise MXNetError('%s: %s is closed' % (type(self).__name__, self.uri))
        name = type(self).__name__
        if writing and not self.writable:
            raise AssertionError('%s: %s is open for reading (flag "r"); cannot write' % (name, self.uri))
        if not writing and self.writable:
            raise AssertionError('%s: %s is open for writing (flag "w"); cannot read' % (name, self.uri))

    # -- writing ----------------------------------------------------------------------
    def write(self, buf):
        """Appends ``buf`` (bytes) as one record."""
        self._check(True)
        if isinstance(buf, str):
            raise TypeError('%s.write: records are bytes, got str (encode it first)' % type(self).__name__)
        self._files.rec.write(encode_record(buf))   # one write call per record

    def tell(self):
        """The byte offset where the next record will be written (a writer's only, as in MXNet)."""
        self._check(True)
        return self._files.rec.tell()

    # -- reading ----------------------------------------------------------------------
    def _corrupt(self, offset, what):
        return MXNetError('%s: %s is not a valid RecordIO file: %s at byte offset %d'
                          % (type(self).__name__, self.uri, what, offset))

    def read(self):
        """The next record as bytes, or None at the end of the file."""
        self._check(False)
        f = self._files.rec
        parts = []
        while True:
            offset = f.tell()
            head = f.read(8)
            if not head:
                if parts:
                    raise self._corrupt(offset, 'the file ends inside a multi-part record')
                return None
            if len(head) < 8:
                raise self._corrupt(offset, 'truncated record header (%d of 8 bytes)' % len(head))
            magic, lrec = struct.unpack('<II', head)
            if magic != _MAGIC:
                raise self._corrupt(offset, 'bad magic number 0x%08x (expected 0x%08x)' % (magic, _MAGIC))
            cflag, length = lrec >> 29, lrec & _LEN_MASK
            if cflag > 3 or (parts and cflag not in (2, 3)) or (not parts and cflag not in (0, 1)):
                raise self._corrupt(offset, 'unexpected continue flag %d' % cflag)
            padded = (length + 3) & ~3
            data = f.read(padded)
            if len(data) < padded:
                raise self._corrupt(offset, 'truncated record (%d of %d bytes)' % (len(data), padded))
            parts.append(data[:length])
            if cflag in (0, 3):
                return _MAGIC_BYTES.join(parts)

    def _seek(self, pos):
        self._files.rec.seek(pos)


class MXIndexedRecordIO(MXRecordIO):
    """A RecordIO file with an index (``idx_path``, ``key<TAB>offset`` lines) for random access.

    ``keys`` lists the keys in file order; ``key_type`` converts the keys read from the index.
    """

    def __init__(self, idx_path, uri, flag, key_type=int):
        self.idx_path = str(idx_path)
        self.idx = {}
        self.keys = []
        self.key_type = key_type
        self.fidx = None
        super().__init__(uri, flag)

    def open(self):
        super().open()
        self.idx = {}
        self.keys = []
        if self.writable:
            tmp = self._tmp(self.idx_path)
            self._files.idx = _open(tmp, 'w', type(self).__name__)
            # the index is renamed after the records: an index never names a missing record
            self._files.renames.append((tmp, self.idx_path))
        else:
            self._files.idx = _open(self.idx_path, 'r', type(self).__name__)
            for line_no, line in enumerate(self._files.idx, 1):
                fields = line.strip().split('\t')
                if fields == ['']:
                    continue
                try:
                    key, pos = self.key_type(fields[0]), int(fields[1])
                    if len(fields) != 2 or pos < 0:
                        raise ValueError
                except (ValueError, IndexError) as err:   # the types MXNet's parsing raises
                    raise type(err)('MXIndexedRecordIO: %s line %d: expected "key<TAB>byte offset", got %r'
                                    % (self.idx_path, line_no, line.rstrip('\n'))) from None
                self.idx[key] = pos
                self.keys.append(key)
        self.fidx = self._files.idx

    def seek(self, idx):
        """Moves the read position to the record with key ``idx``."""
        self._check(False)
        try:
            pos = self.idx[idx]
        except (KeyError, TypeError):
            raise KeyError('MXIndexedRecordIO: key %r is not in the index %s (%d keys%s)'
                           % (idx, self.idx_path, len(self.keys),
                              ', from %r to %r' % (self.keys[0], self.keys[-1]) if self.keys else '')) from None
        self._seek(pos)

    def read_idx(self, idx):
        """The record with key ``idx``."""
        self.seek(idx)
        record = self.read()
        if record is None:
            raise MXNetError('MXIndexedRecordIO: key %r of %s points at byte offset %d, past the end of %s'
                             % (idx, self.idx_path, self.idx[idx], self.uri))
        return record

    def write_idx(self, idx, buf):
        """Appends ``buf`` as a record with key ``idx``."""
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self._files.idx.write('%s\t%d\n' % (str(key), pos))
        self.idx[key] = pos
        self.keys.append(key)


IRHeader = namedtuple('HEADER', ['flag', 'label', 'id', 'id2'])
IRHeader.__doc__ = """The header of an image record: ``flag`` (0, or the number of float32 labels that
follow the header), ``label`` (a number, or an array of labels for ``pack``), ``id`` and ``id2``
(the record's id, low and high 64 bits)."""

_IR_FORMAT = 'IfQQ'
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def pack(header, s):
    """Bytes of an image record: ``header`` (an IRHeader or 4-tuple) then the bytes ``s``.

    A label that is not a number is stored as float32 values after the header, and the
    header's flag becomes their count.
    """
    header = IRHeader(*header)
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
        extra = b''
    else:
        label = np.asarray(header.label.asnumpy() if hasattr(header.label, 'asnumpy') else header.label,
                           dtype=np.float32).ravel()
        header = header._replace(flag=label.size, label=0)
        extra = label.tobytes()
    try:
        head = struct.pack(_IR_FORMAT, *header)
    except struct.error as err:   # still struct.error, as MXNet's struct.pack raises
        raise struct.error('recordio.pack: bad header %r: %s' % (tuple(header), err)) from None
    return head + extra + bytes(s)


def unpack(s):
    """(IRHeader, payload bytes) of an image record; ``label`` is a float32 array when flag > 0."""
    # struct.error and ValueError, as MXNet's struct.unpack and np.frombuffer raise
    if len(s) < _IR_SIZE:
        raise struct.error('recordio.unpack: a record of %d bytes is shorter than its %d-byte header'
                           % (len(s), _IR_SIZE))
    header = IRHeader(*struct.unpack(_IR_FORMAT, s[:_IR_SIZE]))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        if len(s) < 4 * header.flag:
            raise ValueError('recordio.unpack: the header announces %d labels (%d bytes) but only %d bytes follow'
                             % (header.flag, 4 * header.flag, len(s)))
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag).copy())
        s = s[header.flag * 4:]
    return header, s


def unpack_img(s, iscolor=-1):
    """(IRHeader, image as a numpy array) of an image record, decoded with Pillow.

    As with ``cv2.imdecode``: ``iscolor`` 1 gives H x W x 3 in **BGR** order, 0 gives H x W
    greyscale, -1 keeps the file's channels (BGR/BGRA for colour images).
    """
    _decode_numpy = upper_layer('image')._decode_numpy  # mx.image is built on this module
    header, s = unpack(s)
    return header, _decode_numpy(s, iscolor, bgr=True, what='recordio.unpack_img', squeeze=True)


def pack_img(header, img, quality=95, img_fmt='.jpg'):
    """Bytes of an image record holding ``img`` (numpy H x W x C **BGR**, or H x W) encoded
    by Pillow as JPEG (``quality`` 1-100) or PNG (``quality`` = compression level 0-9)."""
    _encode_numpy = upper_layer('image')._encode_numpy
    return pack(header, _encode_numpy(img, quality, img_fmt, bgr=True))


# ---------------------------------------------------------------------------------------
# Thread-safe random access (used by mx.io.ImageRecordIter's worker threads)
# ---------------------------------------------------------------------------------------

def _bad(path, offset, what):
    return MXNetError('RecordIO: %s is not a valid RecordIO file: %s at byte offset %d' % (path, what, offset))


def read_record_at(fd, offset, path):
    """(record bytes, offset of the next record) of the record at ``offset`` of the open
    file descriptor ``fd`` (``os.pread``: no shared file position, safe from any thread)."""
    parts = []
    while True:
        head = os.pread(fd, 8, offset)
        if len(head) < 8:
            raise _bad(path, offset, 'truncated record header (%d of 8 bytes)' % len(head)
                       if head or parts else 'no record (end of file)')
        magic, lrec = struct.unpack('<II', head)
        if magic != _MAGIC:
            raise _bad(path, offset, 'bad magic number 0x%08x (expected 0x%08x)' % (magic, _MAGIC))
        cflag, length = lrec >> 29, lrec & _LEN_MASK
        if cflag > 3 or (parts and cflag not in (2, 3)) or (not parts and cflag not in (0, 1)):
            raise _bad(path, offset, 'unexpected continue flag %d' % cflag)
        padded = (length + 3) & ~3
        data = os.pread(fd, padded, offset + 8) if padded else b''
        if len(data) < padded:
            raise _bad(path, offset, 'truncated record (%d of %d bytes)' % (len(data), padded))
        parts.append(data[:length])
        offset += 8 + padded
        if cflag in (0, 3):
            return _MAGIC_BYTES.join(parts), offset


def scan_offsets(path):
    """Byte offsets of the records of the RecordIO file ``path`` (reads only the headers)."""
    offsets = []
    try:
        f = open(path, 'rb')
    except OSError as err:
        raise MXNetError('RecordIO: cannot open %s: %s' % (path, err.strerror)) from None
    with f:
        size = os.fstat(f.fileno()).st_size
        offset, in_record = 0, False
        while offset < size:
            f.seek(offset)
            head = f.read(8)
            if len(head) < 8:
                raise _bad(path, offset, 'truncated record header (%d of 8 bytes)' % len(head))
            magic, lrec = struct.unpack('<II', head)
            if magic != _MAGIC:
                raise _bad(path, offset, 'bad magic number 0x%08x (expected 0x%08x)' % (magic, _MAGIC))
            cflag, length = lrec >> 29, lrec & _LEN_MASK
            if not in_record:
                offsets.append(offset)
            in_record = cflag in (1, 2)
            offset += 8 + ((length + 3) & ~3)
        if offset > size or in_record:
            raise _bad(path, offsets[-1], 'truncated record (the file ends at byte %d)' % size)
    return offsets


def read_lst(path, who, min_labels=1):
    """The entries of an image list file (MXNet's .lst, as im2rec writes it): one
    ``index<TAB>label(s)<TAB>path`` per line. Yields ``(index, labels, image path)``, the labels
    a list of floats; ``who`` names the reader in errors (a missing file, a malformed line)."""
    try:
        f = open(path)
    except OSError as err:
        raise MXNetError('%s: cannot open %s: %s' % (who, path, err.strerror)) from None
    with f:
        for line_no, line in enumerate(f, 1):
            fields = line.strip().split('\t')
            if fields == ['']:
                continue
            try:
                if len(fields) < 2 + min_labels:
                    raise ValueError
                yield int(float(fields[0])), [float(v) for v in fields[1:-1]], fields[-1]
            except ValueError:
                raise MXNetError('%s: %s line %d: expected "index<TAB>%d label(s)<TAB>path", got %r'
                                 % (who, path, line_no, min_labels, line.rstrip('\n'))) from None
