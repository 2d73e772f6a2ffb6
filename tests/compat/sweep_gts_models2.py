"""GluonTS 0.16.2's MXNet estimators as sweep_gts_models.py runs them (LSTNet, DeepFactor, CanonicalRNN,
GaussianProcess): each trained one short
run with every parameter set to fixed values once the network is built (a training callback, so layers' own
Xavier initializers do not matter) and dropout off: the training losses, point forecasts and parameter counts are
then the same numbers on any framework; sampled forecasts give their shapes and quantile order."""


import numpy as np
import mxnet as mx
import gluonts.mx as gm
from gluonts.dataset.common import ListDataset
from gluonts.mx.trainer.callback import TrainingHistory

from _gts_common import PRED, FixedWeights, rows, use_steady_adam  # noqa: F401

use_steady_adam()


def r(x, n=3):
    return np.round(np.asarray(x, dtype=np.float64), n).tolist()


train_ds = ListDataset([{'start': '2022-01-03', 'target': s[:-PRED], 'feat_static_cat': [i]}
                        for i, s in enumerate(rows)], freq='D')
test_ds = ListDataset([{'start': '2022-01-03', 'target': s[:-PRED], 'feat_static_cat': [i]}
                       for i, s in enumerate(rows)], freq='D')

multi_ds = ListDataset([{'start': '2022-01-03', 'target': np.stack(rows[:3])[:, :-PRED]}], freq='D', one_dim_target=False)


def run(title, make, deterministic, digits=5, train=train_ds, test=test_ds):
    print('==', title)
    mx.random.seed(0)
    np.random.seed(0)
    history = TrainingHistory()
    trainer = gm.Trainer(epochs=2, num_batches_per_epoch=2, learning_rate=1e-2, hybridize=True,
                         callbacks=[FixedWeights(), history])
    predictor = make(trainer).train(train)
    print('  losses', [float('%.*g' % (digits, v)) for v in history.loss_history])
    print(' ', type(predictor).__name__, type(predictor.prediction_net).__name__)
    mx.random.seed(1)
    forecasts = list(predictor.predict(test))
    f = forecasts[0]
    kind = type(f).__name__
    shape = f.samples.shape if kind == 'SampleForecast' else f.forecast_array.shape
    print(' ', len(forecasts), kind, shape, str(f.start_date))
    if deterministic:
        for f in forecasts:
            print('   ', r(f.mean))
    else:
        print('  finite', all(np.isfinite(f.samples).all() for f in forecasts))
        print('  ordered', all((f.quantile(0.1) <= f.quantile(0.9)).all() for f in forecasts))


run('LSTNet', lambda tr: gm.LSTNetEstimator(prediction_length=PRED, context_length=8, num_series=3, skip_size=2,
                                            ar_window=2, channels=4, kernel_size=3, dropout_rate=0.0, batch_size=4,
                                            trainer=tr), True, train=multi_ds, test=multi_ds)
run('DeepFactor', lambda tr: gm.DeepFactorEstimator(freq='D', prediction_length=PRED, context_length=8,
                                                    num_hidden_global=6, num_factors=2, num_hidden_local=3,
                                                    num_parallel_samples=6, batch_size=4, trainer=tr), False)
run('CanonicalRNN', lambda tr: gm.CanonicalRNNEstimator(freq='D', prediction_length=PRED, context_length=8,
                                                        num_cells=5, num_layers=1, num_parallel_samples=6,
                                                        trainer=tr), False)
run('GaussianProcess', lambda tr: gm.GaussianProcessEstimator(freq='D', prediction_length=PRED, context_length=8,
                                                              cardinality=4, num_parallel_samples=6, batch_size=4,
                                                              trainer=tr), False)
