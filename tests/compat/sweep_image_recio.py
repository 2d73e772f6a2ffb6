import os, tempfile
import numpy as np
import mxnet as mx
from mxnet import recordio


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


tmp = tempfile.mkdtemp()

# headers: label kinds and flag handling
for label in (2, 2.5, np.float32(3), [], [1], (1, 2), np.array([1, 2, 3], dtype=np.int64)):
    attempt(lambda: recordio.unpack(recordio.pack(recordio.IRHeader(7, label, 1, 2), b'z')))
print(recordio.unpack(recordio.pack((0, 1.0, 2, 3), b'q')))
print(len(recordio.pack(recordio.IRHeader(0, 1.0, 2 ** 40, 0), b'')), recordio.unpack(recordio.pack(recordio.IRHeader(0, 1.0, 2 ** 40, 5), b''))[0])
attempt(lambda: recordio.pack(recordio.IRHeader(0, 1.0, -1, 0), b''))
attempt(lambda: recordio.pack(recordio.IRHeader(0, 1.0, 0, 0), 'text'))
attempt(lambda: recordio.unpack(recordio.pack(recordio.IRHeader(0, [1.0, 2.0], 0, 0), b'')[:28]))

# record files: payloads with the magic number inside, empty records, string keys
magic = b'\x0a\x23\xd7\xce'
payloads = [b'', b'a', magic, b'abcd' + magic + b'efgh', magic * 3, bytes(range(256)) * 3]
path = os.path.join(tmp, 'm.rec')
w = recordio.MXRecordIO(path, 'w')
for p in payloads:
    w.write(p)

w.close()
print(os.path.getsize(path))
r = recordio.MXRecordIO(path, 'r')
print([r.read() == p for p in payloads], r.read())
r.close()
ipath, idx = os.path.join(tmp, 's.rec'), os.path.join(tmp, 's.idx')
w = recordio.MXIndexedRecordIO(idx, ipath, 'w', key_type=str)
for k in ('b', 'a', 'c'):
    w.write_idx(k, k.encode() * 5)
w.close()
print(open(idx).read().split())
r = recordio.MXIndexedRecordIO(idx, ipath, 'r', key_type=str)
print(r.keys, r.read_idx('a'), r.read_idx('c'), r.read())
attempt(lambda: r.read_idx(0))
r.close()
attempt(lambda: recordio.MXIndexedRecordIO(idx, ipath, 'r').keys)
with open(os.path.join(tmp, 'short.idx'), 'w') as f:
    f.write('0\t0\n1\n')
attempt(lambda: recordio.MXIndexedRecordIO(os.path.join(tmp, 'short.idx'), ipath, 'r').keys)
w = recordio.MXIndexedRecordIO(idx, ipath, 'w')
w.write_idx(5, b'five')
w.write_idx('6', b'six')
w.close()
r = recordio.MXIndexedRecordIO(idx, ipath, 'r')
print(r.keys, r.read_idx(6))
r.close()
print(recordio.MXRecordIO(ipath, 'r').read())
