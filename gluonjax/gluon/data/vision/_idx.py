"""Reading the IDX files of MNIST and Fashion-MNIST from disk, never from the network.

The IDX format is a 4-byte magic number (two zero bytes, a type code, the number
of dimensions), one big-endian uint32 per dimension, then the values. Files are
read gzip-compressed (``.gz``) or plain. Each file is decoded and its MD5 checked
once per process; later loads share the cached, read-only array.
"""
import gzip
import hashlib
import os
import threading

import numpy as np

from ...._caches import lru_cache
from ....base import MXNetError

__all__ = ['read_idx', 'find_files', 'PACKAGE_MNIST_DIR', 'MNIST_MD5', 'FASHION_MNIST_MD5',
           'DEBIAN_FASHION_MNIST_DIR', 'load_split']

PACKAGE_MNIST_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'data', 'mnist'))
DEBIAN_FASHION_MNIST_DIR = '/usr/share/datasets/fashion-mnist'

# MD5 of the decompressed content (so the check holds whatever gzip level was used).
MNIST_MD5 = {
    'train-images-idx3-ubyte': '6bbc9ace898e44ae57da46a324031adb',
    'train-labels-idx1-ubyte': 'a25bea736e30d166cdddb491f175f624',
    't10k-images-idx3-ubyte': '2646ac647ad5339dbf082846283269ea',
    't10k-labels-idx1-ubyte': '27ae3e4e09519cfbb04c329615203637',
}
FASHION_MNIST_MD5 = {
    'train-images-idx3-ubyte': 'f4a8712d7a061bf5bd6d2ca38dc4d50a',
    'train-labels-idx1-ubyte': '9018921c3c673c538a1fc5bad174d6f9',
    't10k-images-idx3-ubyte': '8181f5470baa50b63fa0f6fddb340f0a',
    't10k-labels-idx1-ubyte': '15d484375f8d13e6eb1aabb0c3f46965',
}

_IDX_TYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: np.dtype('>i2'), 0x0C: np.dtype('>i4'),
              0x0D: np.dtype('>f4'), 0x0E: np.dtype('>f8')}

_cache = lru_cache('data.idx_files', 8)  # (path, size, mtime) -> decoded array: whole datasets
_lock = threading.Lock()


def _decode(raw, path):
    """The array held by the bytes of an IDX file."""
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_TYPES:
        raise MXNetError('%s is not an IDX file (bad magic number %r)' % (path, bytes(raw[:4])))
    dtype, ndim = np.dtype(_IDX_TYPES[raw[2]]), raw[3]
    header = 4 + 4 * ndim
    shape = tuple(int(d) for d in np.frombuffer(raw, dtype='>u4', count=ndim, offset=4))
    expected = header + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != expected:
        raise MXNetError('%s is truncated or corrupt: its header says shape %s (%d bytes) but it holds %d bytes'
                         % (path, shape, expected, len(raw)))
    arr = np.frombuffer(raw, dtype=dtype, offset=header).reshape(shape)
    return arr.astype(dtype.newbyteorder('='), copy=False)


def read_idx(path, md5=None):
    """The array in IDX file ``path`` (gzip or plain), checking the MD5 of its content when given.

    The result is cached per process and read-only: copy it before writing to it.
    """
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    with _lock:
        hit = _cache.get(key)
    if hit is not None and (md5 is None or hit[1] == md5):
        return hit[0]
    opener = gzip.open if path.endswith('.gz') else open
    try:
        with opener(path, 'rb') as f:
            raw = f.read()
    except (OSError, EOFError) as err:
        raise MXNetError('cannot read %s: %s' % (path, err)) from None
    digest = hashlib.md5(raw).hexdigest()
    if md5 is not None and digest != md5:
        raise MXNetError('%s is corrupt: the MD5 of its content is %s, expected %s. Replace the file '
                         '(or remove it to use the copy gluonjax ships).' % (path, digest, md5))
    arr = _decode(raw, path)
    arr.flags.writeable = False
    with _lock:
        _cache[key] = (arr, digest)
    return arr


def find_files(names, roots):
    """The first folder of ``roots`` holding every file of ``names`` (as ``name.gz`` or ``name``).

    Returns ``{name: path}``, or None when no folder has them all.
    """
    for root in roots:
        if not root:
            continue
        root = os.path.expanduser(root)
        found = {}
        for name in names:
            for candidate in (name + '.gz', name):
                path = os.path.join(root, candidate)
                if os.path.isfile(path):
                    found[name] = path
                    break
            else:
                break
        else:
            return found
    return None


def load_split(paths, train, md5_table):
    """(images, labels) of the train or test split from ``paths`` found by ``find_files``."""
    prefix = 'train' if train else 't10k'
    img_name, lbl_name = prefix + '-images-idx3-ubyte', prefix + '-labels-idx1-ubyte'
    images = read_idx(paths[img_name], md5_table.get(img_name))
    labels = read_idx(paths[lbl_name], md5_table.get(lbl_name))
    if images.ndim != 3 or labels.ndim != 1 or images.shape[0] != labels.shape[0]:
        raise MXNetError('%s and %s do not match: images of shape %s, labels of shape %s'
                         % (paths[img_name], paths[lbl_name], images.shape, labels.shape))
    return images, labels


def split_names(train):
    prefix = 'train' if train else 't10k'
    return [prefix + '-images-idx3-ubyte', prefix + '-labels-idx1-ubyte']
