"""Vision datasets: MNIST, FashionMNIST, CIFAR10/100, image folders and image RecordIO files.

gluonjax never downloads. MNIST ships inside the package (``gluonjax/data/mnist``,
CC BY-SA 3.0, Yann LeCun and Corinna Cortes). Fashion-MNIST is read from Debian's
``dataset-fashion-mnist`` package or from ``root``. CIFAR is read from ``root``
when its binary files are there. Each sample is ``(image, label)``: the image an
NDArray H x W x C (uint8), the label a numpy int32, as in MXNet.
"""
import os
import struct
import warnings

import numpy as np

from ....base import MXNetError
from ....ndarray.ndarray import array as _nd_array
from .. import dataset
from . import _idx

__all__ = ['MNIST', 'FashionMNIST', 'CIFAR10', 'CIFAR100', 'ImageRecordDataset', 'ImageFolderDataset']

_MXNET_HOME = os.path.join('~', '.mxnet', 'datasets')


def _missing_files(what, names, roots, advice):
    where = ', '.join(os.path.expanduser(r) for r in roots if r)
    return MXNetError('%s: the files %s were not found in %s. %s' % (what, ', '.join(names), where, advice))


class MNIST(dataset._DownloadedDataset):
    """MNIST handwritten digits (http://yann.lecun.com/exdb/mnist), read from the copy
    gluonjax ships.

    Each sample is an image NDArray of shape (28, 28, 1), dtype uint8, and its label
    (numpy int32).

    Parameters
    ----------
    root : str
        A folder holding the four IDX files (``train-images-idx3-ubyte.gz``, ...). When
        they are not there the shipped copy is used; nothing is ever downloaded.
    train : bool, default True
        The training set (60,000 images) or the test set (10,000).
    transform : function, default None
        Called as ``transform(data, label)`` on each sample, e.g.
        ``lambda data, label: (data.astype(np.float32)/255, label)``.
    """

    def __init__(self, root=_idx.PACKAGE_MNIST_DIR, train=True, transform=None):
        self._train = train
        super().__init__(root, transform)

    def _get_data(self):
        names = _idx.split_names(self._train)
        paths = _idx.find_files(names, [self._root, _idx.PACKAGE_MNIST_DIR])
        if paths is None:
            raise _missing_files('MNIST', names, [self._root, _idx.PACKAGE_MNIST_DIR],
                                 'The copy shipped with gluonjax is missing: reinstall gluonjax.')
        images, labels = _idx.load_split(paths, self._train, _idx.MNIST_MD5)
        self._host_data = images.reshape(images.shape + (1,))
        self._label = labels.astype(np.int32)


class FashionMNIST(MNIST):
    """Fashion-MNIST (https://github.com/zalandoresearch/fashion-mnist): 28x28 grey images of
    clothes in 10 classes, a drop-in replacement for MNIST.

    The files are read from ``root``, else from ``/usr/share/datasets/fashion-mnist`` (Debian's
    package ``dataset-fashion-mnist``: ``apt-get install dataset-fashion-mnist``). Samples are as
    in MNIST.
    """

    def __init__(self, root=_idx.DEBIAN_FASHION_MNIST_DIR, train=True, transform=None):
        super().__init__(root, train, transform)

    def _get_data(self):
        names = _idx.split_names(self._train)
        roots = [self._root, _idx.DEBIAN_FASHION_MNIST_DIR, os.path.join(_MXNET_HOME, 'fashion-mnist')]
        paths = _idx.find_files(names, roots)
        if paths is None:
            raise _missing_files(
                'FashionMNIST', [n + '.gz' for n in names], roots,
                'gluonjax does not download datasets. Install them with Debian\'s package: '
                '`apt-get install dataset-fashion-mnist` (files in %s), or pass root= a folder holding '
                'the Fashion-MNIST IDX files.' % _idx.DEBIAN_FASHION_MNIST_DIR)
        images, labels = _idx.load_split(paths, self._train, _idx.FASHION_MNIST_MD5)
        self._host_data = images.reshape(images.shape + (1,))
        self._label = labels.astype(np.int32)


def _cifar_files(what, root, subdir, names, archive, url):
    roots = [root, os.path.join(root, subdir)]
    for r in roots:
        if all(os.path.isfile(os.path.join(r, n)) for n in names):
            return [os.path.join(r, n) for n in names]
    raise _missing_files(what, names, roots,
                         'gluonjax does not download datasets: download %s from %s and extract it into %s.'
                         % (archive, url, root))


def _read_cifar(path, n_labels):
    """Images (N, 32, 32, 3) uint8 and the label columns of a CIFAR binary file."""
    record = n_labels + 3072
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size % record:
        raise MXNetError('%s is not a CIFAR binary file: its size %d is not a multiple of %d'
                         % (path, raw.size, record))
    raw = raw.reshape(-1, record)
    images = raw[:, n_labels:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    return np.ascontiguousarray(images), raw[:, :n_labels].astype(np.int32)


class CIFAR10(dataset._DownloadedDataset):
    """CIFAR-10 (https://www.cs.toronto.edu/~kriz/cifar.html): images (32, 32, 3) uint8 in 10 classes.

    Read from the binary version's files (``data_batch_1.bin`` ... ``test_batch.bin``) in ``root`` or
    ``root/cifar-10-batches-bin``; gluonjax never downloads them.
    """

    def __init__(self, root=os.path.join(_MXNET_HOME, 'cifar10'), train=True, transform=None):
        self._train = train
        super().__init__(root, transform)

    def _get_data(self):
        names = ['data_batch_%d.bin' % i for i in range(1, 6)] if self._train else ['test_batch.bin']
        files = _cifar_files('CIFAR10', self._root, 'cifar-10-batches-bin', names, 'cifar-10-binary.tar.gz',
                             'https://www.cs.toronto.edu/~kriz/cifar.html')
        parts = [_read_cifar(f, 1) for f in files]
        self._host_data = np.concatenate([p[0] for p in parts])
        self._label = np.concatenate([p[1][:, 0] for p in parts])


class CIFAR100(CIFAR10):
    """CIFAR-100: images (32, 32, 3) uint8 with 100 fine (``fine_label=True``) or 20 coarse labels.

    Read from ``train.bin`` / ``test.bin`` in ``root`` or ``root/cifar-100-binary``.
    """

    def __init__(self, root=os.path.join(_MXNET_HOME, 'cifar100'), fine_label=False, train=True, transform=None):
        self._fine_label = fine_label
        super().__init__(root, train, transform)

    def _get_data(self):
        names = ['train.bin' if self._train else 'test.bin']
        files = _cifar_files('CIFAR100', self._root, 'cifar-100-binary', names, 'cifar-100-binary.tar.gz',
                             'https://www.cs.toronto.edu/~kriz/cifar.html')
        images, labels = _read_cifar(files[0], 2)
        self._host_data = images
        self._label = labels[:, 1 if self._fine_label else 0]


# ---------------------------------------------------------------------------------------
# Encoded images (need Pillow to decode)
# ---------------------------------------------------------------------------------------

def _decode_image(buf, flag, what):
    """An encoded image (bytes) as an NDArray H x W x C uint8: 3 channels (RGB) when flag=1, else 1."""
    try:
        from PIL import Image
    except ImportError:
        raise MXNetError('%s: decoding images needs Pillow (`pip install pillow`)' % what) from None
    import io
    try:
        img = Image.open(io.BytesIO(buf))
        img = img.convert('RGB' if flag else 'L')
    except Exception as err:  # Pillow raises several unrelated types
        raise MXNetError('%s: cannot decode the image: %s' % (what, err)) from None
    arr = np.asarray(img, dtype=np.uint8)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    return _nd_array(arr, dtype=np.uint8)


_IR_FORMAT = 'IfQQ'
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def _unpack_record(record):
    """(label, image bytes) of an image record (MXNet's IRHeader then the encoded image)."""
    flag, label, _, _ = struct.unpack(_IR_FORMAT, record[:_IR_SIZE])
    body = record[_IR_SIZE:]
    if flag > 0:
        label = np.frombuffer(body[:4 * flag], dtype=np.float32)
        body = body[4 * flag:]
    return label, body


class ImageRecordDataset(dataset.RecordFileDataset):
    """Images and labels from a RecordIO file made by im2rec (decoded with Pillow).

    ``flag``: 1 for 3-channel colour images, 0 for greyscale. Each sample is
    ``(image NDArray H x W x C, label)``; ``transform(data, label)`` is applied when given.
    """

    def __init__(self, filename, flag=1, transform=None):
        super().__init__(filename)
        self._flag = flag
        self._transform = transform

    def __getitem__(self, idx):
        label, img = _unpack_record(super().__getitem__(idx))
        data = _decode_image(img, self._flag, 'ImageRecordDataset')
        if self._transform is not None:
            return self._transform(data, label)
        return data, label


class ImageFolderDataset(dataset.Dataset):
    """Images stored as ``root/<class name>/<image file>``; labels are the class folders'
    indices in sorted order (``synsets`` lists the names).

    ``flag``: 1 for colour, 0 for greyscale. ``items`` holds ``(path, label)`` pairs.
    """

    def __init__(self, root, flag=1, transform=None):
        self._root = os.path.expanduser(root)
        self._flag = flag
        self._transform = transform
        self._exts = ['.jpg', '.jpeg', '.png']
        self._list_images(self._root)

    def _list_images(self, root):
        if not os.path.isdir(root):
            # the errors of os.listdir, which MXNet calls on root directly, with a clearer message
            error = NotADirectoryError if os.path.exists(root) else FileNotFoundError
            raise error('ImageFolderDataset: %s is not a folder' % root)
        self.synsets = []
        self.items = []
        for folder in sorted(os.listdir(root)):
            path = os.path.join(root, folder)
            if not os.path.isdir(path):
                warnings.warn('Ignoring %s, which is not a directory.' % path, stacklevel=3)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for filename in sorted(os.listdir(path)):
                filename = os.path.join(path, filename)
                ext = os.path.splitext(filename)[1]
                if ext.lower() not in self._exts:
                    warnings.warn('Ignoring %s of type %s. Only support %s' % (filename, ext, ', '.join(self._exts)))
                    continue
                self.items.append((filename, label))

    def __getitem__(self, idx):
        path, label = self.items[idx]
        with open(path, 'rb') as f:
            img = _decode_image(f.read(), self._flag, 'ImageFolderDataset')
        if self._transform is not None:
            return self._transform(img, label)
        return img, label

    def __len__(self):
        return len(self.items)
