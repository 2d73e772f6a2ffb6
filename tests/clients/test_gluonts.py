"""GluonTS 0.16.2's MXNet estimators, unmodified, trained and evaluated on gluonjax.

Workloads (data, estimator settings) are in gluonts_workload.py, shared with the script that
recorded real MXNet 1.9.1 on them (data/gluonts_mxnet_reference.json). XLA compiles each
network a few times (training forward and backward, prediction). On the quiet 2-core machine,
compilation cache off (session 10): MQCNN 7 s, DeepAR 27 s, Transformer 36 s (both tests), with
SimpleFeedForward and NBEATS faster. DeepState (its Kalman filter unrolled over 12 steps, compiled
once per program: ops/_costly.py) 44 s at load 7 (32 s of CPU; session 13). All run by default.
"""
import json
import math
import os

import numpy as np
import pytest

from client_import import import_client  # tests/clients/client_import.py (pytest puts this folder on sys.path)

import_client('gluonts.mx')

import gluonts_workload as workload  # noqa: E402
from gluonts.model.predictor import Predictor  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, 'data', 'gluonts_mxnet_reference.json')) as _f:
    REFERENCE = json.load(_f)
# gluonjax's metrics against real MXNet's on the same workload: different random streams
# (initial weights, batches, samples) give a spread, so a band, not equality
BAND = (0.5, 1.5)
ESTIMATORS = ('SimpleFeedForward', 'NBEATS', 'DeepAR', 'MQCNN', 'Transformer', 'DeepState')

_trained = {}


def _trained_predictor(name):
    if name not in _trained:
        _trained[name] = workload.train(name)
    return _trained[name]


def _forecast_means(predictor, seed=0):
    import mxnet as mx
    mx.random.seed(seed)
    np.random.seed(seed)
    train, _ = workload.datasets()
    return np.stack([f.mean for f in predictor.predict(train, num_samples=workload.NUM_SAMPLES)])


@pytest.mark.parametrize('name', ESTIMATORS)
def test_estimator_trains_predicts_and_evaluates(name):
    metrics = workload.evaluate(_trained_predictor(name))
    for key in ('MASE', 'ND', 'mean_wQuantileLoss', 'RMSE'):
        assert math.isfinite(metrics[key]), (key, metrics[key])
    ref = REFERENCE['estimators'].get(name)
    if ref is not None:  # real MXNet ran this workload
        for key in ('MASE', 'ND'):
            low, high = BAND[0] * ref[key], BAND[1] * ref[key]
            assert low <= metrics[key] <= high, '%s %s: gluonjax %.4f, MXNet 1.9.1 %.4f' % (
                name, key, metrics[key], ref[key])


def test_simple_feed_forward_beats_the_naive_forecast():
    metrics = workload.evaluate(_trained_predictor('SimpleFeedForward'))
    naive = workload.naive_metrics()
    assert metrics['ND'] < 0.75 * naive['ND'], (metrics['ND'], naive['ND'])
    assert metrics['MASE'] < naive['MASE']


@pytest.mark.parametrize('name', ESTIMATORS)
def test_predictor_serializes_and_forecasts_the_same(name, tmp_path):
    predictor = _trained_predictor(name)
    predictor.serialize(tmp_path)
    loaded = Predictor.deserialize(tmp_path)
    assert type(loaded) is type(predictor)
    np.testing.assert_allclose(_forecast_means(loaded), _forecast_means(predictor), rtol=1e-5, atol=1e-5)


def test_binned_distribution_quantiles_run_its_foreach():
    """BinnedOutput's quantile walks the bins with F.contrib.foreach."""
    import mxnet as mx
    from gluonts.mx.distribution import Binned
    probs = np.array([[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]])
    centers = np.array([[-1., 0., 1., 2.]] * 2)
    binned = Binned(mx.nd.array(np.log(probs)), mx.nd.array(centers))
    levels = np.array([0.05, 0.5, 0.95])
    want = [[centers[b][np.argmax(np.cumsum(probs[b]) > q)] for b in range(2)] for q in levels]
    np.testing.assert_allclose(binned.quantile(mx.nd.array(levels)).asnumpy(), want)
    np.testing.assert_allclose(binned.mean.asnumpy(), (probs * centers).sum(1), rtol=1e-6)
    np.testing.assert_allclose(binned.log_prob(mx.nd.array([0.1, 1.9])).asnumpy(), np.log([0.2, 0.25]), rtol=1e-6)
