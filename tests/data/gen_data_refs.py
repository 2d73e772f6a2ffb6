"""Generate the reference files of tests/test_data.py with real MXNet 1.9.1 (run once, by hand).

    /tmp/mxref/bin/python tests/data/gen_data_refs.py

Writes vision_transforms_ref.npz (outputs of gluon.data.vision.transforms on small random
images) and records.rec / records.idx (a RecordIO file written by mx.recordio, with one
record that contains the RecordIO magic number, so that it is stored in several parts).
"""
import os
import struct

import mxnet as mx
import numpy as np
from mxnet.gluon.data.vision import transforms as T

HERE = os.path.dirname(os.path.abspath(__file__))


def transforms_refs():
    rs = np.random.RandomState(0)
    out = {}
    img = rs.randint(0, 256, (5, 7, 3)).astype(np.uint8)
    grey = rs.randint(0, 256, (9, 6, 1)).astype(np.uint8)
    flt = rs.uniform(0, 1, (6, 8, 3)).astype(np.float32)
    sq = rs.randint(0, 256, (8, 8, 3)).astype(np.uint8)
    out.update(img=img, grey=grey, flt=flt, sq=sq)
    nd = {k: mx.nd.array(v, dtype=v.dtype) for k, v in out.items()}
    out['to_tensor_img'] = T.ToTensor()(nd['img']).asnumpy()
    out['to_tensor_batch'] = T.ToTensor()(mx.nd.stack(nd['img'], nd['img'])).asnumpy()
    out['normalize_img'] = T.Normalize((0.1, 0.2, 0.3), (0.5, 0.6, 0.7))(T.ToTensor()(nd['img'])).asnumpy()
    out['normalize_grey'] = T.Normalize(0.13, 0.31)(T.ToTensor()(nd['grey'])).asnumpy()
    cases = {
        'resize_4': (T.Resize(4), 'img'),
        'resize_4x3': (T.Resize((4, 3)), 'img'),
        'resize_keep': (T.Resize(4, keep_ratio=True), 'img'),
        'resize_keep_tall': (T.Resize(4, keep_ratio=True), 'grey'),
        'resize_up': (T.Resize(10), 'img'),
        'resize_up_grey': (T.Resize((11, 13)), 'grey'),
        'resize_float': (T.Resize(10), 'flt'),
        'resize_float_down': (T.Resize((3, 5)), 'flt'),
        'resize_half': (T.Resize(4), 'sq'),
        'resize_nearest': (T.Resize((5, 4), interpolation=0), 'img'),
        'center_crop_3': (T.CenterCrop(3), 'img'),
        'center_crop_4x2': (T.CenterCrop((4, 2)), 'img'),
    }
    for name, (t, src) in cases.items():
        out[name] = t(nd[src]).asnumpy()
    np.savez_compressed(os.path.join(HERE, 'vision_transforms_ref.npz'), **out)


def records():
    idx, rec = os.path.join(HERE, 'records.idx'), os.path.join(HERE, 'records.rec')
    writer = mx.recordio.MXIndexedRecordIO(idx, rec, 'w')
    magic = struct.pack('<I', 0xced7230a)
    payloads = [b'first record', b'', b'abc' + magic + b'defg' + magic + b'h', bytes(range(256)) * 3]
    for key, payload in zip([3, 7, 11, 20], payloads):
        writer.write_idx(key, payload)
    writer.close()


if __name__ == '__main__':
    transforms_refs()
    records()
