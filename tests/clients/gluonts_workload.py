"""The GluonTS workloads of tests/clients/test_gluonts.py, shared with the script that ran them
on real MXNet 1.9.1 (tests/clients/data/make_gluonts_reference.py): same data, same settings.

Imports ``mxnet`` and ``gluonts`` only inside the functions, so the caller decides what
``mxnet`` is (gluonjax through its alias, or MXNet itself).
"""
import numpy as np

PREDICTION_LENGTH = 12
NUM_SERIES = 8
LENGTH = 200
NUM_SAMPLES = 20


def freq():
    """Hourly: pandas 2.2 renamed the alias 'H' to 'h' and pandas 3 accepts only 'h'."""
    import pandas as pd
    major, minor = (int(v) for v in pd.__version__.split('.')[:2])
    return 'h' if (major, minor) >= (2, 2) else 'H'


def datasets():
    """(train, test): seeded daily-periodic sines plus noise; test adds the last 12 hours."""
    from gluonts.dataset.common import ListDataset
    rng = np.random.RandomState(0)
    t = np.arange(LENGTH)
    series = [10 + 5 * np.sin(2 * np.pi * t / 24 + i) + rng.normal(0, 0.5, LENGTH) for i in range(NUM_SERIES)]
    train = ListDataset([{'start': '2020-01-01', 'target': s[:-PREDICTION_LENGTH]} for s in series], freq=freq())
    test = ListDataset([{'start': '2020-01-01', 'target': s} for s in series], freq=freq())
    return train, test


def trainer(epochs=2, batches=10):
    from gluonts.mx import Trainer
    return Trainer(epochs=epochs, num_batches_per_epoch=batches, learning_rate=1e-2, hybridize=True)


def estimator(name):
    """The estimator ``name`` (tiny: trained in seconds, compiled in tens of seconds)."""
    import gluonts.mx as gm
    kw = dict(prediction_length=PREDICTION_LENGTH, trainer=trainer())
    if name == 'SimpleFeedForward':
        return gm.SimpleFeedForwardEstimator(context_length=24, num_hidden_dimensions=[20], **kw)
    if name == 'DeepAR':
        return gm.DeepAREstimator(freq=freq(), context_length=12, num_cells=10, num_layers=1,
                                  num_parallel_samples=NUM_SAMPLES, **kw)
    if name == 'MQCNN':
        return gm.MQCNNEstimator(freq=freq(), context_length=24, **kw)
    if name == 'Transformer':
        return gm.TransformerEstimator(freq=freq(), context_length=24, model_dim=16, num_heads=2,
                                       num_parallel_samples=NUM_SAMPLES, **kw)
    if name == 'NBEATS':
        return gm.NBEATSEstimator(freq=freq(), context_length=24, num_stacks=2, widths=[16], num_blocks=[1],
                                  num_block_layers=[2], sharing=[False], **kw)
    if name == 'DeepState':
        # its Kalman filter (and LSTM) unroll over past_length steps into one program: 12 steps
        # compile in seconds (48 took minutes on CPU, so it did not run in CI)
        return gm.DeepStateEstimator(freq=freq(), past_length=12, use_feat_static_cat=False, cardinality=[1],
                                     num_parallel_samples=NUM_SAMPLES, **kw)
    raise ValueError(name)


def train(name, seed=0):
    """A predictor of ``name`` trained on the workload's data with seeded MXNet and numpy."""
    import mxnet as mx
    mx.random.seed(seed)
    np.random.seed(seed)
    return estimator(name).train(datasets()[0])


def evaluate(predictor, seed=0):
    """GluonTS's aggregate metrics of ``predictor`` on the last 12 hours."""
    import mxnet as mx
    from gluonts.evaluation import Evaluator, make_evaluation_predictions
    mx.random.seed(seed)
    forecasts, series = make_evaluation_predictions(datasets()[1], predictor, num_samples=NUM_SAMPLES)
    metrics, _ = Evaluator(num_workers=0)(series, forecasts)
    return metrics


def naive_metrics():
    """The same metrics for the last observed value repeated (GluonTS's naive baseline)."""
    from gluonts.model.seasonal_naive import SeasonalNaivePredictor
    return evaluate(SeasonalNaivePredictor(prediction_length=PREDICTION_LENGTH, season_length=1))
