"""mx.model.FeedForward (MXNet 1.x's first training API, used by its older example scripts):
numbers and log lines checked against what MXNet 1.9.1 prints for the same script."""
import logging

import numpy as np
import pytest

import gluonjax as mx


def _data():
    rng = np.random.RandomState(0)
    X = rng.randn(40, 3).astype(np.float32)
    return X, (X[:, 0] + X[:, 1] > 0).astype(np.float32)


def _net():
    fc = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
    return mx.sym.SoftmaxOutput(fc, name='softmax')


def _model(ctx):
    with pytest.warns(DeprecationWarning, match='FeedForward has been deprecated. Please use mxnet.mod.Module'):
        return mx.model.FeedForward(_net(), ctx=ctx, num_epoch=3, learning_rate=0.5, momentum=0.9,
                                    initializer=mx.init.Constant(0.1), numpy_batch_size=10)


# MXNet 1.9.1, same data, network and arguments
MX_WEIGHT = [[-2.24611, -3.1747, -1.20604], [2.44611, 3.37469, 1.40604]]
MX_BIAS = [-0.2623, 0.2623]


def test_fit_trains_as_mxnet_and_logs_its_lines(caplog):
    X, y = _data()
    model = _model(mx.cpu())
    seen, ends = [], []
    caplog.set_level(logging.INFO)
    model.fit(mx.io.NDArrayIter(X, y, batch_size=10), eval_data=mx.io.NDArrayIter(X[:20], y[:20], batch_size=10),
              batch_end_callback=lambda p: seen.append((p.epoch, p.nbatch)),
              epoch_end_callback=lambda e, s, a, x: ends.append((e, sorted(a))))
    np.testing.assert_allclose(model.arg_params['fc_weight'].asnumpy(), MX_WEIGHT, atol=1e-4)
    np.testing.assert_allclose(model.arg_params['fc_bias'].asnumpy(), MX_BIAS, atol=1e-4)
    assert seen[:5] == [(0, 1), (0, 2), (0, 3), (0, 4), (1, 1)] and len(seen) == 12  # nbatch counts from 1
    assert ends == [(e, ['fc_bias', 'fc_weight']) for e in range(3)]
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == 'Start training with [cpu(0)]'
    assert lines[1:3] == ['Epoch[0] Resetting Data Iterator', lines[2]] and lines[2].startswith('Epoch[0] Time cost=')
    assert lines[3] == 'Epoch[0] Validation-accuracy=1.000000'
    assert model.score(mx.io.NDArrayIter(X[:20], y[:20], batch_size=10)) == 1.0


def test_predict_numpy_input_save_and_load(tmp_path):
    X, y = _data()
    model = _model(mx.cpu())
    model.fit(X, y)   # numpy input: an NDArrayIter of numpy_batch_size, shuffled, roll over
    p = model.predict(mx.io.NDArrayIter(X[:7], y[:7], batch_size=5))
    assert p.shape == (7, 2)   # the padded last batch is cut to its real rows
    np.testing.assert_allclose(p.sum(1), 1.0, rtol=1e-5)
    out, data, label = model.predict(X[:3], return_data=True)
    assert out.shape == (3, 2) and data.shape == (3, 3) and label.shape == (3,)
    prefix = str(tmp_path / 'ff')
    model.save(prefix)   # epoch defaults to num_epoch
    with pytest.warns(DeprecationWarning):
        loaded = mx.model.FeedForward.load(prefix, 3)
    assert loaded.begin_epoch == 3
    np.testing.assert_allclose(loaded.predict(X[:3]), out, rtol=1e-5)
    with pytest.raises(ValueError, match='y must be specified'):
        model.fit(X)


def test_several_devices_sum_their_gradients_like_one():
    X, y = _data()
    one = _model(mx.cpu())
    one.fit(mx.io.NDArrayIter(X, y, batch_size=10))
    two = _model([mx.cpu(0), mx.cpu(1)])
    two.fit(mx.io.NDArrayIter(X, y, batch_size=10))
    for name in ('fc_weight', 'fc_bias'):
        np.testing.assert_allclose(two.arg_params[name].asnumpy(), one.arg_params[name].asnumpy(), atol=1e-5)


def test_duplicated_argument_names_are_refused():
    a = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
    b = mx.sym.FullyConnected(a, num_hidden=2, name='fc')
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match='duplicated argument name "fc_weight"'):
        mx.model.FeedForward(b)


class _BucketIter(mx.io.DataIter):
    """Two bucket keys (input widths 3 and 5) taking turns, as a bucketing iterator gives them."""

    def __init__(self):
        super().__init__(batch_size=4)
        rng = np.random.RandomState(0)
        self.default_bucket_key = 3
        self.provide_data = [('data', (4, 3))]
        self.provide_label = [('softmax_label', (4,))]
        self.batches = []
        for key in (3, 5, 3, 5):
            x = rng.randn(4, key).astype(np.float32)
            y = (x.sum(1) > 0).astype(np.float32)
            self.batches.append(mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)], bucket_key=key,
                                                provide_data=[('data', (4, key))],
                                                provide_label=[('softmax_label', (4,))]))

    def __iter__(self):
        return iter(self.batches)

    def reset(self):
        pass


def test_sym_gen_trains_one_set_of_parameters_across_buckets():
    def sym_gen(key):
        x = mx.sym.slice_axis(mx.sym.var('data'), axis=1, begin=0, end=2)
        return mx.sym.SoftmaxOutput(mx.sym.FullyConnected(x, num_hidden=2, name='fc'), name='softmax')
    with pytest.warns(DeprecationWarning):
        model = mx.model.FeedForward(sym_gen, num_epoch=2, learning_rate=0.5, initializer=mx.init.Constant(0.1))
    model.fit(_BucketIter())
    # MXNet 1.9.1 on the same batches
    np.testing.assert_allclose(model.arg_params['fc_weight'].asnumpy(),
                               [[-0.66717, -0.50277], [0.86717, 0.70277]], atol=1e-5)
    np.testing.assert_allclose(model.arg_params['fc_bias'].asnumpy(), [-0.0702, 0.0702], atol=1e-5)
