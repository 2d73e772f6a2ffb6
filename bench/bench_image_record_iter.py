"""mx.io.ImageRecordIter throughput against the seed's LeNet training step it would feed.

    python bench/bench_image_record_iter.py [--threads N] [--images N]

Packs JPEGs made on the fly into .rec files (MNIST digits, 28x28 greyscale; and 224x224
colour images, random smooth patterns) and reads them back in batches of 64 with
``preprocess_threads`` worker threads, timing whole epochs (decode, crop, normalise, batch,
hand over as NDArrays). Then times the seed's hybridized LeNet training step (batch 64) and
prints images per second of both and their ratio: above 1 the iterator keeps up with
training on this machine.
"""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import numpy as np  # noqa: E402

import gluonjax as mx  # noqa: E402
from gluonjax import autograd, gluon, nd  # noqa: E402
from _timing import machine, per_call_us  # noqa: E402
from bench_gluon import lenet  # noqa: E402

BATCH = 64


def make_rec(path, images, labels, quality=90):
    with mx.recordio.MXIndexedRecordIO(path[:-4] + '.idx', path, 'w') as w:
        for i, (im, lab) in enumerate(zip(images, labels)):
            w.write_idx(i, mx.recordio.pack_img((0, float(lab), i, 0), im, quality=quality, img_fmt='.jpg'))
    return os.path.getsize(path)


def smooth_images(n, size, seed=0):
    rs = np.random.RandomState(seed)
    yy, xx = np.mgrid[0:size, 0:size] / size
    out = []
    for _ in range(n):
        f = rs.uniform(1, 6, (3, 2))
        p = rs.uniform(0, 6, 3)
        img = np.stack([127 + 120 * np.sin(f[c, 0] * 6 * xx + f[c, 1] * 6 * yy + p[c]) for c in range(3)], axis=2)
        out.append(np.clip(img + rs.normal(0, 8, img.shape), 0, 255).astype(np.uint8))
    return out


def images_per_second(rec, data_shape, threads, epochs=3, **kw):
    it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=data_shape, batch_size=BATCH,
                               preprocess_threads=threads, **kw)
    for b in it:          # warm-up epoch
        b.data[0].wait_to_read()
    best = 0.0
    for _ in range(epochs):
        it.reset()
        t, n = time.perf_counter(), 0
        for b in it:
            b.data[0].wait_to_read()
            n += BATCH - b.pad
        best = max(best, n / (time.perf_counter() - t))
    it.close()
    return best


def lenet_step_seconds():
    rng = np.random.RandomState(0)
    data = nd.array(rng.uniform(0, 1, (BATCH, 1, 28, 28)))
    label = nd.array(rng.randint(0, 10, BATCH))
    net = lenet(True)
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    params = list(net.collect_params().values())

    def step():
        with autograd.record():
            out = loss(net(data), label)
        out.backward()
        trainer.step(BATCH)
        for p in params:
            p.data().wait_to_read()
    return per_call_us(step, number=20, repeat=5, warmup=5) / 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--threads', type=int, default=os.cpu_count())
    parser.add_argument('--images', type=int, default=1024)
    args = parser.parse_args()
    print('machine: %s; preprocess_threads=%d, batch %d' % (machine(), args.threads, BATCH))
    d = tempfile.mkdtemp()
    mnist = mx.test_utils.get_mnist()
    digits = np.round(mnist['train_data'][:args.images * 4, 0] * 255).astype(np.uint8)
    size = make_rec(os.path.join(d, 'mnist.rec'), digits, mnist['train_label'][:len(digits)])
    print('MNIST .rec: %d JPEGs 28x28 grey, %.1f MB' % (len(digits), size / 1e6))
    big = smooth_images(args.images // 2, 256)
    size = make_rec(os.path.join(d, 'big.rec'), big, np.arange(len(big)) % 1000)
    print('ImageNet-like .rec: %d JPEGs 256x256 colour, %.1f MB' % (len(big), size / 1e6))

    step = lenet_step_seconds()
    lenet_ips = BATCH / step
    mnist_ips = images_per_second(os.path.join(d, 'mnist.rec'), (1, 28, 28), args.threads)
    big_ips = images_per_second(os.path.join(d, 'big.rec'), (3, 224, 224), args.threads, rand_crop=True,
                                rand_mirror=True, mean_r=123.68, mean_g=116.28, mean_b=103.53,
                                std_r=58.395, std_g=57.12, std_b=57.375)
    big_resize_ips = images_per_second(os.path.join(d, 'big.rec'), (3, 224, 224), args.threads, resize=224)
    print('seed LeNet training step (hybridized, batch %d): %.2f ms = %.0f images/s' % (BATCH, step * 1e3, lenet_ips))
    print('ImageRecordIter, MNIST 28x28 grey:               %8.0f images/s   ratio to LeNet %.2f'
          % (mnist_ips, mnist_ips / lenet_ips))
    print('ImageRecordIter, 256->224 colour crop+mirror+norm: %6.0f images/s   ratio to LeNet %.2f'
          % (big_ips, big_ips / lenet_ips))
    print('ImageRecordIter, 256 resize 224 + centre crop:   %8.0f images/s   ratio to LeNet %.2f'
          % (big_resize_ips, big_resize_ips / lenet_ips))


if __name__ == '__main__':
    main()
