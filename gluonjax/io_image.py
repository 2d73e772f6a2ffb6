"""``mx.io.ImageRecordIter``: batches of images from a RecordIO file, decoded in threads.

What MXNet's C++ iterator does, with Pillow and numpy: each record (an ``IRHeader`` and an
encoded image, as written by im2rec or ``recordio.pack_img``) is decoded, its shorter edge
resized to ``resize`` (if given), cropped to ``data_shape`` (centre, or random with
``rand_crop``), mirrored (``rand_mirror``/``mirror``) and normalised to
``(pixel - mean) * scale / std`` per RGB channel. Batches are ``DataBatch``es of float32
NCHW data and float32 labels, shaped ``(batch,)`` (or ``(batch, label_width)``).

Records are read with ``os.pread`` and decoded by ``preprocess_threads`` worker threads
(Pillow and numpy release the GIL while decoding and copying); ``prefetch_buffer`` batches
are prepared ahead of the one being consumed.

Differences from MXNet (see MIGRATING): shuffling draws a permutation of the records from
``seed`` and the epoch number (MXNet shuffles chunks of the file); partitions
(``num_parts``) are contiguous runs of records of equal counts (MXNet splits the file by
bytes); random crops and mirrors are drawn from ``seed`` and the sample's position, so they
do not depend on the number of threads, but are not MXNet's draws.
"""
import collections
import os
import struct
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import recordio
from .base import MXNetError, NotSupportedError
from .io import DataBatch, DataDesc, DataIter
from .ndarray.ndarray import array as _nd_array

__all__ = ['ImageRecordIter', 'ImageRecordUInt8Iter']

# MXNet arguments of augmentations gluonjax does not implement: accepted at their defaults.
_UNSUPPORTED_DEFAULTS = {
    'max_rotate_angle': 0, 'max_aspect_ratio': 0, 'max_shear_ratio': 0, 'max_crop_size': -1,
    'min_crop_size': -1, 'max_random_scale': 1, 'min_random_scale': 1, 'max_img_size': 1e10,
    'min_img_size': 0, 'random_h': 0, 'random_s': 0, 'random_l': 0, 'rotate': -1, 'fill_value': 255,
    'pad': 0, 'mean_img': '', 'max_random_contrast': 0, 'max_random_illumination': 0,
    'random_resized_crop': False, 'brightness': 0, 'contrast': 0, 'saturation': 0, 'pca_noise': 0,
    'max_random_area': 1, 'min_random_area': 1, 'max_random_aspect_ratio': 0, 'min_random_aspect_ratio': None,
    'rand_gray': 0, 'hue': 0, 'seed_aug': None,
}
# MXNet arguments that change nothing here (threading and device placement are ours).
_IGNORED = {'prefetch_buffer_keep', 'ctx', 'verbose', 'shuffle_chunk_size', 'shuffle_chunk_seed',
            'num_decode_threads', 'device_id', 'layout', 'aug_seq', 'label_pad_width', 'label_pad_value'}


def _reader_close(fd, pool):
    if pool is not None:
        # Wait for the workers, so none reads fd after it closes. The last reference to an
        # iterator can drop in one of its own workers (a task holds it); no other task of
        # that iterator runs then, and a thread cannot wait for itself.
        in_worker = threading.current_thread() in getattr(pool, '_threads', ())
        pool.shutdown(wait=not in_worker, cancel_futures=True)
    if fd is not None:
        os.close(fd)


class ImageRecordIter(DataIter):
    """Iterate over images of a RecordIO file (``path_imgrec``, optional ``path_imgidx``).

    Required: ``data_shape`` (C, H, W) with C 1 or 3, ``batch_size``. Common arguments:
    ``shuffle``, ``seed``, ``rand_crop``, ``rand_mirror``, ``mirror``, ``resize`` (shorter
    edge, -1 keeps the size), ``inter_method`` (OpenCV codes; 1 bilinear), ``mean_r/g/b``,
    ``std_r/g/b``, ``scale``, ``label_width``, ``path_imglist`` (labels by image index),
    ``part_index``/``num_parts``, ``preprocess_threads``, ``prefetch_buffer``,
    ``round_batch`` (True: the last batch is completed from the start of the data and
    ``pad`` counts the borrowed images, which the next epoch then skips; False: the last
    batch is completed with zeros, ``pad`` counts them), ``dtype`` ('float32' or 'uint8'),
    ``data_name``, ``label_name``.
    """

    def __init__(self, path_imgrec=None, data_shape=None, batch_size=None, path_imgidx=None,
                 path_imglist=None, label_width=1, shuffle=False, seed=0, rand_crop=False,
                 rand_mirror=False, mirror=False, mean_r=0.0, mean_g=0.0, mean_b=0.0, mean_a=0.0,
                 std_r=1.0, std_g=1.0, std_b=1.0, std_a=1.0, scale=1.0, resize=-1, inter_method=1,
                 part_index=0, num_parts=1, preprocess_threads=4, prefetch_buffer=4, round_batch=True,
                 data_name='data', label_name='softmax_label', dtype='float32', **kwargs):
        super().__init__(batch_size or 0)
        name = type(self).__name__
        for key, value in kwargs.items():
            if key in _UNSUPPORTED_DEFAULTS:
                if value != _UNSUPPORTED_DEFAULTS[key] and value not in (None, ''):
                    raise NotSupportedError('%s: argument %s=%r is not supported by gluonjax (only its default %r)'
                                            % (name, key, value, _UNSUPPORTED_DEFAULTS[key]))
            elif key not in _IGNORED:
                raise MXNetError('%s: unknown argument %r' % (name, key))
        if not path_imgrec:
            raise MXNetError('%s: path_imgrec is required' % name)
        if data_shape is None or batch_size is None:
            raise MXNetError('%s: data_shape and batch_size are required' % name)
        data_shape = tuple(int(d) for d in data_shape)
        if len(data_shape) != 3 or data_shape[0] not in (1, 3) or min(data_shape) <= 0:
            raise MXNetError('%s: data_shape must be (channels, height, width) with 1 or 3 channels, got %s'
                             % (name, data_shape))
        batch_size = int(batch_size)
        if batch_size <= 0:
            raise MXNetError('%s: batch_size must be positive, got %d' % (name, batch_size))
        if not 0 <= part_index < num_parts:
            raise MXNetError('%s: part_index %d must be in [0, num_parts=%d)' % (name, part_index, num_parts))
        if dtype not in ('float32', 'uint8', np.float32, np.uint8):
            raise NotSupportedError("%s: dtype %r is not supported (use 'float32' or 'uint8')" % (name, dtype))
        if inter_method not in (0, 1, 2, 3, 4, 9, 10):
            raise MXNetError('%s: inter_method must be 0-4, 9 or 10, got %r' % (name, inter_method))
        self.path_imgrec = str(path_imgrec)
        self.batch_size = batch_size
        self.data_shape = data_shape
        self.label_width = int(label_width)
        self.shuffle = bool(shuffle)
        self.seed = int(seed)
        self.rand_crop, self.rand_mirror, self.mirror = bool(rand_crop), bool(rand_mirror), bool(mirror)
        self.resize = int(resize)
        self.inter_method = inter_method
        self.round_batch = bool(round_batch)
        self.dtype = np.dtype(dtype)
        c = data_shape[0]
        mean = np.array([mean_r, mean_g, mean_b][:c] if c == 3 else [mean_r], dtype=np.float32)
        std = np.array([std_r, std_g, std_b][:c] if c == 3 else [std_r], dtype=np.float32)
        self._mean = mean.reshape(c, 1, 1)
        self._mult = (np.float32(scale) / std).astype(np.float32).reshape(c, 1, 1)
        # (pixel - mean) * mult for every uint8 value, per channel: the same float32 arithmetic
        # as computing it per pixel, as one table lookup
        self._lut = (np.arange(256, dtype=np.float32)[None, :] - self._mean[:, :, 0]) * self._mult[:, :, 0]
        self._labels = self._read_imglist(path_imglist) if path_imglist else None

        if path_imgidx:
            index = recordio.MXIndexedRecordIO(path_imgidx, self.path_imgrec, 'r')
            offsets = [index.idx[k] for k in index.keys]
            index.close()
        else:
            offsets = recordio.scan_offsets(self.path_imgrec)
        n = len(offsets)
        offsets = np.asarray(offsets[n * part_index // num_parts:n * (part_index + 1) // num_parts], dtype=np.int64)
        if len(offsets) == 0:
            raise MXNetError('%s: %s part %d of %d has no records' % (name, self.path_imgrec, part_index, num_parts))
        self._offsets = offsets
        self.num_image = len(offsets)

        label_shape = (batch_size,) if self.label_width == 1 else (batch_size, self.label_width)
        self.provide_data = [DataDesc(data_name, (batch_size,) + data_shape, self.dtype)]
        self.provide_label = [DataDesc(label_name, label_shape, np.float32)]

        self._fd = os.open(self.path_imgrec, os.O_RDONLY)
        self._threads = max(1, int(preprocess_threads))
        self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix='ImageRecordIter')
        self._finalizer = weakref.finalize(self, _reader_close, self._fd, self._pool)
        self._prefetch = max(1, int(prefetch_buffer))
        self._lock = threading.Lock()
        self._epoch = 0
        self._samples = 0           # samples planned so far: seeds each sample's random draws
        self._carry = None          # (order, position) after a round_batch wrap
        self._inflight = collections.deque()
        self._start_epoch(None)

    # -- labels from an image list ---------------------------------------------------------
    def _read_imglist(self, path):
        return {key: np.asarray(labels[:self.label_width], dtype=np.float32)
                for key, labels, _ in recordio.read_lst(path, type(self).__name__, self.label_width)}

    # -- epoch planning --------------------------------------------------------------------
    def _draw_order(self):
        if not self.shuffle:
            return np.arange(self.num_image)
        order = np.random.RandomState((self.seed + self._epoch) % (2 ** 32)).permutation(self.num_image)
        self._epoch += 1
        return order

    def _start_epoch(self, carry):
        if carry is not None:
            self._order, self._pos = carry
        else:
            self._order, self._pos = self._draw_order(), 0
        self._done = False

    def _plan(self):
        """The next batch's (record positions, pad, carry) or None at the end of the epoch."""
        if self._done or self._pos >= self.num_image:
            return None
        take = self._order[self._pos:self._pos + self.batch_size]
        self._pos += len(take)
        missing = self.batch_size - len(take)
        carry = None
        if missing:
            self._done = True
            if self.round_batch:
                order = self._draw_order()
                extra = np.resize(order, missing)      # wraps again if the data is smaller than a batch
                take = np.concatenate([take, extra])
                carry = (order, missing % self.num_image if missing >= self.num_image else missing)
        return take, missing, carry

    def _submit(self, plan):
        positions, pad, carry = plan
        data = np.zeros((self.batch_size,) + self.data_shape, dtype=self.dtype)
        label = np.zeros(self.provide_label[0].shape, dtype=np.float32)
        index = np.zeros(self.batch_size, dtype=np.int64)
        n_real = self.batch_size if self.round_batch else self.batch_size - pad
        futures = []
        for slot in range(n_real):
            seed = (self.seed, self._samples)
            self._samples += 1
            futures.append(self._pool.submit(self._load, int(self._offsets[positions[slot]]), seed,
                                             data, label, index, slot))
        self._inflight.append((futures, data, label, index, pad, carry))

    def _fill_queue(self):
        while len(self._inflight) < self._prefetch:
            plan = self._plan()
            if plan is None:
                return
            self._submit(plan)

    # -- one image (runs in a worker thread) -----------------------------------------------
    def _load(self, offset, seed, data, label, index, slot):
        from .image.image import _decode_numpy, _interp_method, _resize_np
        record, _ = recordio.read_record_at(self._fd, offset, self.path_imgrec)
        try:
            header, payload = recordio.unpack(record)
        except (struct.error, ValueError) as err:  # a damaged record: name the file and the offset
            raise MXNetError('ImageRecordIter: record at byte offset %d of %s: %s'
                             % (offset, self.path_imgrec, err)) from None
        where = 'record at byte offset %d of %s (id %d)' % (offset, self.path_imgrec, header.id)
        c, h, w = self.data_shape
        try:
            img = _decode_numpy(payload, 1 if c == 3 else 0, what='ImageRecordIter')
        except MXNetError as err:
            raise MXNetError('ImageRecordIter: %s: %s' % (where, err)) from None
        rng = np.random.default_rng(seed)
        if self.resize > 0:
            ih, iw = img.shape[:2]
            nh, nw = (self.resize * ih // iw, self.resize) if ih > iw else (self.resize, self.resize * iw // ih)
            interp = self.inter_method if self.inter_method != 10 else int(rng.integers(0, 5))
            img = _resize_np(img, nw, nh, _interp_method(interp, (ih, iw, nh, nw)))
        ih, iw = img.shape[:2]
        if ih < h or iw < w:
            raise MXNetError('ImageRecordIter: %s: the image is %dx%d (height x width), smaller than data_shape %s; '
                             'use resize=' % (where, ih, iw, self.data_shape))
        y0, x0 = (ih - h) // 2, (iw - w) // 2
        if self.rand_crop:
            y0, x0 = int(rng.integers(0, ih - h + 1)), int(rng.integers(0, iw - w + 1))
        img = img[y0:y0 + h, x0:x0 + w]
        if self.mirror or (self.rand_mirror and rng.random() < 0.5):
            img = img[:, ::-1]
        if self.dtype == np.uint8:
            data[slot] = img.transpose(2, 0, 1)
        else:
            for ch in range(c):
                np.take(self._lut[ch], img[:, :, ch], out=data[slot, ch])
        if self._labels is not None:
            if header.id not in self._labels:
                raise MXNetError('ImageRecordIter: %s: image index %d is not in path_imglist' % (where, header.id))
            lab = self._labels[header.id]
        elif header.flag > 0:
            if header.flag != self.label_width:
                raise MXNetError('ImageRecordIter: %s: the record has %d labels but label_width is %d'
                                 % (where, header.flag, self.label_width))
            lab = header.label
        else:
            if self.label_width != 1:
                raise MXNetError('ImageRecordIter: %s: the record has one label but label_width is %d'
                                 % (where, self.label_width))
            lab = header.label
        label[slot] = lab
        index[slot] = header.id

    # -- DataIter --------------------------------------------------------------------------
    def reset(self):
        for futures, *_ in self._inflight:
            for f in futures:
                f.cancel()
        for futures, *_ in self._inflight:
            for f in futures:
                if not f.cancelled():
                    f.exception()   # wait; errors of discarded batches are dropped
        self._inflight.clear()
        carry, self._carry = self._carry, None
        self._start_epoch(carry)

    def next(self):
        self._fill_queue()
        if not self._inflight:
            raise StopIteration
        futures, data, label, index, pad, carry = self._inflight.popleft()
        try:
            for f in futures:
                f.result()
        except BaseException:
            self._inflight.clear()
            self._done = True
            raise
        if carry is not None:
            self._carry = carry
        self._fill_queue()   # keep the workers busy while the caller uses this batch
        return DataBatch([_nd_array(data, dtype=data.dtype)], [_nd_array(label)], pad=pad, index=index,
                         provide_data=self.provide_data, provide_label=self.provide_label)

    def iter_next(self):
        raise NotSupportedError('ImageRecordIter: use next() (or iterate); iter_next/getdata are not provided')

    def close(self):
        """Stop the worker threads and close the file."""
        self._inflight.clear()
        self._finalizer()


def ImageRecordUInt8Iter(*args, **kwargs):  # noqa: N802
    """``ImageRecordIter`` giving uint8 data (no normalisation)."""
    kwargs['dtype'] = 'uint8'
    return ImageRecordIter(*args, **kwargs)
