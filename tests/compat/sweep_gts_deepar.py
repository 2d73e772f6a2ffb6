"""GluonTS 0.16.2's DeepAREstimator on MXNet, trained briefly from fixed weights (dropout off, so the training
and validation losses are the same numbers on any framework): parameter names, sample forecasts' shapes and
quantile order, Evaluator, and a predictor serialized and loaded back."""
import os
import pathlib
import tempfile

import numpy as np
import mxnet as mx
from gluonts.dataset.common import ListDataset
from gluonts.evaluation import Evaluator, make_evaluation_predictions
from gluonts.model.predictor import Predictor
from gluonts.mx import DeepAREstimator, Trainer
from gluonts.mx.distribution import GaussianOutput
from gluonts.mx.trainer.callback import TrainingHistory
from _gts_common import PRED, T, Ramp, rows, seed, sig, t  # noqa: F401


def r(x, n=3):
    return np.round(np.asarray(x, dtype=np.float64), n).tolist()


train_ds = ListDataset([{'start': '2022-01-03', 'target': s[:-PRED], 'feat_static_cat': [i]} for i, s in enumerate(rows)],
                       freq='D')
test_ds = ListDataset([{'start': '2022-01-03', 'target': s, 'feat_static_cat': [i]} for i, s in enumerate(rows)],
                      freq='D')


def trainer(history):
    return Trainer(epochs=2, num_batches_per_epoch=2, learning_rate=1e-2, hybridize=True, init=Ramp(),
                   callbacks=[history])


def describe(predictor):
    print(type(predictor).__name__, predictor.prediction_length, predictor.lead_time)
    net = predictor.prediction_net
    print(type(net).__name__)
    for name, p in sorted(net.collect_params().items()):
        print(' ', name, p.shape, p.dtype.__name__ if hasattr(p.dtype, '__name__') else p.dtype)


def check(predictor, num_samples):
    seed()
    forecast_it, ts_it = make_evaluation_predictions(dataset=test_ds, predictor=predictor, num_samples=num_samples)
    forecasts, tss = list(forecast_it), list(ts_it)
    f = forecasts[0]
    print(len(forecasts), type(f).__name__, f.samples.shape, f.samples.dtype, str(f.start_date), f.item_id)
    print(all(np.isfinite(f.samples).all() for f in forecasts))
    print(all((f.quantile(0.1) <= f.quantile(0.5)).all() and (f.quantile(0.5) <= f.quantile(0.9)).all()
              for f in forecasts))
    agg, items = Evaluator(quantiles=[0.1, 0.5, 0.9], num_workers=0)(iter(tss), iter(forecasts),
                                                                     num_series=len(test_ds))
    print(sorted(k for k in agg if 'Quantile' in k)[:4], items.shape, np.isfinite(agg['MSE']))


print('== DeepAR: 2-layer LSTM, static category, StudentT')
seed()
history = TrainingHistory()
est = DeepAREstimator(freq='D', prediction_length=PRED, context_length=8, num_layers=2, num_cells=6, dropout_rate=0.0,
                      use_feat_static_cat=True, cardinality=[4], embedding_dimension=[2], lags_seq=[1, 7],
                      num_parallel_samples=10, batch_size=4, trainer=trainer(history))
predictor = est.train(train_ds, validation_data=test_ds)
print("losses", sig(history.loss_history), sig(history.validation_loss_history))
describe(predictor)
check(predictor, 16)

print('== serialize')
with tempfile.TemporaryDirectory() as d:
    predictor.serialize(pathlib.Path(d))
    print(sorted(os.listdir(d)))
    loaded = Predictor.deserialize(pathlib.Path(d))
    print(type(loaded).__name__, type(loaded.prediction_net).__name__, loaded.prediction_length)
    seed()
    a = list(loaded.predict(test_ds))
    seed()
    b = list(predictor.predict(test_ds))
    print(a[0].samples.shape, all(np.allclose(x.samples, y.samples, atol=1e-4) for x, y in zip(a, b)))

print('== DeepAR: GRU, Gaussian, no scaling')
seed()
history = TrainingHistory()
est = DeepAREstimator(freq='D', prediction_length=PRED, context_length=6, num_layers=1, num_cells=5, cell_type='gru',
                      dropout_rate=0.0, distr_output=GaussianOutput(), scaling=False, lags_seq=[1, 2],
                      num_parallel_samples=8, batch_size=4, trainer=trainer(history))
predictor = est.train(train_ds)
print("losses", sig(history.loss_history))
describe(predictor)
check(predictor, 8)
