"""GluonTS 0.16.2's quick start on MXNet: SimpleFeedForwardEstimator trained briefly from fixed weights (the
training losses and the distribution forecasts are then the same numbers on any framework), forecasts from
make_evaluation_predictions, the Evaluator's metrics, and a predictor serialized and loaded back."""
import os
import tempfile

import numpy as np
import mxnet as mx
from gluonts.dataset.common import ListDataset
from gluonts.evaluation import Evaluator, make_evaluation_predictions
from gluonts.model.predictor import Predictor
from gluonts.mx import SimpleFeedForwardEstimator, Trainer
from gluonts.mx.distribution import GaussianOutput
from gluonts.mx.trainer.callback import TrainingHistory
from _gts_common import PRED, T, Ramp, rows, seed, sig, t  # noqa: F401


def r(x, n=3):
    return np.round(np.asarray(x, dtype=np.float64), n).tolist()


train_ds = ListDataset([{'start': '2022-01-03', 'target': s[:-PRED]} for s in rows], freq='D')
test_ds = ListDataset([{'start': '2022-01-03', 'target': s} for s in rows], freq='D')


def trainer(history):
    return Trainer(epochs=2, num_batches_per_epoch=3, learning_rate=1e-2, hybridize=True, init=Ramp(),
                   callbacks=[history])


def describe(predictor):
    print(type(predictor).__name__, predictor.prediction_length, predictor.lead_time)
    net = predictor.prediction_net
    print(type(net).__name__)
    for name, p in sorted(net.collect_params().items()):
        print(' ', name, p.shape, p.dtype.__name__ if hasattr(p.dtype, '__name__') else p.dtype)


print('== distribution forecasts (sampling=False, Gaussian)')
seed()
history = TrainingHistory()
est = SimpleFeedForwardEstimator(prediction_length=PRED, context_length=8, num_hidden_dimensions=[6], sampling=False,
                                 distr_output=GaussianOutput(), batch_size=4, trainer=trainer(history))
predictor = est.train(train_ds)
print("losses", sig(history.loss_history))
describe(predictor)
forecast_it, ts_it = make_evaluation_predictions(dataset=test_ds, predictor=predictor, num_samples=10)
forecasts, tss = list(forecast_it), list(ts_it)
print(len(forecasts), len(tss), type(forecasts[0]).__name__, type(tss[0]).__name__, tss[0].shape)
f = forecasts[0]
print(str(f.start_date), f.prediction_length, f.mean.shape, f.mean.dtype)
for f in forecasts:
    print(r(f.mean), r(f.quantile(0.1)), r(f.quantile(0.9)))
agg, items = Evaluator(quantiles=[0.1, 0.5, 0.9], num_workers=0)(iter(tss), iter(forecasts), num_series=len(test_ds))
for k in ('MSE', 'abs_error', 'MASE', 'ND', 'RMSE', 'mean_wQuantileLoss', 'Coverage[0.9]', 'QuantileLoss[0.5]'):
    print(k, round(float(agg[k]), 3))
print(items.shape)

print('== serialize')
with tempfile.TemporaryDirectory() as d:
    predictor.serialize(__import__('pathlib').Path(d))
    print(sorted(os.listdir(d)))
    loaded = Predictor.deserialize(__import__('pathlib').Path(d))
    print(type(loaded).__name__, type(loaded.prediction_net).__name__)
    again = list(loaded.predict(test_ds))
    print(all(np.allclose(a.mean, b.mean, atol=1e-5) for a, b in zip(again, predictor.predict(test_ds))))
    print(r(again[0].mean))
    print(sorted(loaded.prediction_net.collect_params().keys()) == sorted(predictor.prediction_net.collect_params().keys()))

print('== sample forecasts (sampling=True, StudentT)')
seed()
history = TrainingHistory()
est = SimpleFeedForwardEstimator(prediction_length=PRED, context_length=8, num_hidden_dimensions=[5, 3],
                                 num_parallel_samples=20, batch_size=4, trainer=trainer(history))
predictor = est.train(train_ds)
print("losses", sig(history.loss_history))
describe(predictor)
seed()
forecasts = list(predictor.predict(test_ds, num_samples=30))
f = forecasts[0]
print(type(f).__name__, f.samples.shape, f.samples.dtype, f.num_samples, str(f.start_date))
print(all(np.isfinite(f.samples).all() for f in forecasts))
print(all((f.quantile(0.1) <= f.quantile(0.5)).all() and (f.quantile(0.5) <= f.quantile(0.9)).all() for f in forecasts))
print(list(predictor.predict(test_ds))[0].samples.shape)
