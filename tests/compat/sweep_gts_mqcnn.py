"""GluonTS 0.16.2's quantile estimators on MXNet (MQCNNEstimator, MQRNNEstimator), trained briefly from fixed
weights: losses and quantile forecasts are the same numbers on any framework; Evaluator; serialize/deserialize."""
import os
import pathlib
import tempfile

import numpy as np
import mxnet as mx
from gluonts.dataset.common import ListDataset
from gluonts.evaluation import Evaluator, make_evaluation_predictions
from gluonts.model.predictor import Predictor
from gluonts.mx import MQCNNEstimator, MQRNNEstimator, Trainer
from gluonts.mx.trainer.callback import TrainingHistory
from _gts_common import PRED, T, Ramp, rows, seed, sig, t  # noqa: F401


def r(x, n=3):
    return np.round(np.asarray(x, dtype=np.float64), n).tolist()


dyn = [np.cos(2 * np.pi * t / 7 + i) for i in range(4)]


def dataset(target_length, feature_length):
    """Training wants features as long as the target; forecasting wants them PRED steps longer."""
    return ListDataset([{'start': '2022-01-03', 'target': s[:target_length], 'feat_static_cat': [i],
                         'feat_dynamic_real': [d[:feature_length]]} for i, (s, d) in enumerate(zip(rows, dyn))],
                       freq='D')


train_ds = dataset(T - PRED, T - PRED)
test_ds = dataset(T, T)  # make_evaluation_predictions cuts the target alone
future_ds = dataset(T - PRED, T)


def trainer(history):
    return Trainer(epochs=2, num_batches_per_epoch=2, learning_rate=1e-2, hybridize=True, init=Ramp(),
                   callbacks=[history])


def describe(predictor):
    print(type(predictor).__name__, predictor.prediction_length, predictor.lead_time)
    net = predictor.prediction_net
    print(type(net).__name__)
    for name, p in sorted(net.collect_params().items()):
        print(' ', name, p.shape)


print('== MQCNN: quantile forecasts')
seed()
history = TrainingHistory()
est = MQCNNEstimator(freq='D', prediction_length=PRED, context_length=8, quantiles=[0.1, 0.5, 0.9],
                     channels_seq=[4, 4], dilation_seq=[1, 2], kernel_size_seq=[2, 2], decoder_mlp_dim_seq=[6],
                     use_feat_dynamic_real=True, use_feat_static_cat=True, cardinality=[4], embedding_dimension=[2],
                     batch_size=4, trainer=trainer(history))
predictor = est.train(train_ds)
print('losses', sig(history.loss_history))
describe(predictor)
forecast_it, ts_it = make_evaluation_predictions(dataset=test_ds, predictor=predictor)
forecasts, tss = list(forecast_it), list(ts_it)
f = forecasts[0]
print(len(forecasts), type(f).__name__, f.forecast_keys, f.forecast_array.shape, str(f.start_date))
for f in forecasts:
    print(r(f.quantile(0.1)), r(f.quantile(0.5)), r(f.quantile(0.9)))
agg, items = Evaluator(quantiles=[0.1, 0.5, 0.9], num_workers=0)(iter(tss), iter(forecasts), num_series=len(test_ds))
for k in ('MSE', 'ND', 'mean_wQuantileLoss', 'Coverage[0.5]'):
    print(k, round(float(agg[k]), 3))

print('== serialize')
with tempfile.TemporaryDirectory() as d:
    predictor.serialize(pathlib.Path(d))
    print(sorted(os.listdir(d)))
    loaded = Predictor.deserialize(pathlib.Path(d))
    print(type(loaded).__name__, type(loaded.prediction_net).__name__)
    a, b = list(loaded.predict(future_ds)), list(predictor.predict(future_ds))
    print(all(np.allclose(x.forecast_array, y.forecast_array, atol=1e-5) for x, y in zip(a, b)))
    print(r(a[0].quantile(0.5)))

print('== MQRNN')
seed()
history = TrainingHistory()
est = MQRNNEstimator(freq='D', prediction_length=PRED, context_length=8, quantiles=[0.25, 0.5, 0.75],
                     decoder_mlp_dim_seq=[5], batch_size=4, trainer=trainer(history))
predictor = est.train(train_ds)
print('losses', sig(history.loss_history))
describe(predictor)
forecasts = list(predictor.predict(future_ds))
f = forecasts[0]
print(type(f).__name__, f.forecast_keys, f.forecast_array.shape)
print(r(f.quantile(0.25)), r(f.quantile(0.75)))
