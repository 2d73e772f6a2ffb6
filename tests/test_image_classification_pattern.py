"""MXNet's image-classification training pattern (example/image-classification's fit.py):
``Module.fit`` on ``mx.io.ImageRecordIter`` over a .rec packed from MNIST, ``kvstore='device'``
on 4 CPU devices, trains to the accuracy the Gluon path reaches on the same records."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon

pytest.importorskip('PIL')

N_TRAIN, N_VAL, BATCH, EPOCHS = 2048, 512, 64, 3
DEVICES = [mx.cpu(i) for i in range(4)]


@pytest.fixture(scope='module')
def records(tmp_path_factory):
    """train.rec/val.rec of MNIST digits as PNGs, the way im2rec packs images."""
    mnist = mx.test_utils.get_mnist()
    folder = tmp_path_factory.mktemp('mnist_rec')
    paths = {}
    for part, data, label in (('train', mnist['train_data'][:N_TRAIN], mnist['train_label'][:N_TRAIN]),
                              ('val', mnist['test_data'][:N_VAL], mnist['test_label'][:N_VAL])):
        idx, rec = str(folder / (part + '.idx')), str(folder / (part + '.rec'))
        pixels = np.round(data[:, 0] * 255).astype(np.uint8)
        with mx.recordio.MXIndexedRecordIO(idx, rec, 'w') as writer:
            for i, (image, digit) in enumerate(zip(pixels, label)):
                writer.write_idx(i, mx.recordio.pack_img((0, float(digit), i, 0), image, img_fmt='.png'))
        paths[part] = rec
    return paths


def _iter(rec, shuffle):
    return mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(1, 28, 28), batch_size=BATCH, shuffle=shuffle,
                                 scale=1.0 / 255, preprocess_threads=2, seed=0)


def _mlp_symbol():
    data = mx.sym.Flatten(mx.sym.var('data'))
    hidden = mx.sym.Activation(mx.sym.FullyConnected(data, num_hidden=128, name='fc1'), act_type='relu')
    out = mx.sym.FullyConnected(hidden, num_hidden=10, name='fc2')
    return mx.sym.SoftmaxOutput(out, name='softmax')


def test_module_fit_on_image_record_iter_with_device_kvstore(records):
    mx.random.seed(0)
    train, val = _iter(records['train'], True), _iter(records['val'], False)
    mod = mx.mod.Module(_mlp_symbol(), context=DEVICES)
    mod.fit(train, eval_data=val, eval_metric='acc', kvstore='device', optimizer='sgd',
            optimizer_params={'learning_rate': 0.1, 'momentum': 0.9},
            initializer=mx.init.Xavier(), num_epoch=EPOCHS)
    module_acc = dict(mod.score(val, 'acc'))['accuracy']

    mx.random.seed(0)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Flatten(), gluon.nn.Dense(128, activation='relu'), gluon.nn.Dense(10))
    net.initialize(mx.init.Xavier(), ctx=DEVICES)
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9},
                            kvstore='device')
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    train = _iter(records['train'], True)
    for _ in range(EPOCHS):
        train.reset()
        for batch in train:
            xs = gluon.utils.split_and_load(batch.data[0], DEVICES)
            ys = gluon.utils.split_and_load(batch.label[0], DEVICES)
            with autograd.record():
                losses = [loss(net(x), y) for x, y in zip(xs, ys)]
            autograd.backward(losses)
            trainer.step(BATCH)
    metric = mx.metric.Accuracy()
    val.reset()
    for batch in val:
        metric.update([batch.label[0]], [net(batch.data[0].as_in_context(DEVICES[0]))])
    gluon_acc = metric.get()[1]

    # 3 epochs of 2,048 digits: both paths near 0.9 on held-out digits, within a few points
    assert module_acc > 0.85 and gluon_acc > 0.85, (module_acc, gluon_acc)
    assert abs(module_acc - gluon_acc) < 0.04, (module_acc, gluon_acc)
