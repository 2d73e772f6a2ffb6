"""GluonTS 0.16.2's extended tutorial on MXNet: a custom estimator around networks written as HybridBlocks with F
(a point-forecast MLP, a probabilistic MLP with a scaler and a distribution output, an LSTM unrolled over the
context), trained briefly from fixed weights, forecasting through RepresentableBlockPredictor and its SymbolBlock
form, serialized and loaded back."""
import json
import os
import pathlib
import tempfile
from functools import partial

import numpy as np
import mxnet as mx
from mxnet import gluon
from gluonts.core.component import validated
from gluonts.dataset.common import ListDataset
from gluonts.dataset.field_names import FieldName
from gluonts.dataset.loader import TrainDataLoader, ValidationDataLoader
from gluonts.evaluation import Evaluator, make_evaluation_predictions
from gluonts.model.predictor import Predictor
from gluonts.mx import Trainer, copy_parameters
from gluonts.mx.batchify import batchify
from gluonts.mx.block.scaler import MeanScaler
from gluonts.mx.distribution import DistributionOutput, GaussianOutput
from gluonts.mx.model.estimator import GluonEstimator
from gluonts.mx.model.predictor import RepresentableBlockPredictor
from gluonts.mx.trainer.callback import TrainingHistory
from gluonts.mx.util import get_hybrid_forward_input_names
from gluonts.transform import (AddObservedValuesIndicator, ExpectedNumInstanceSampler, InstanceSplitter,
                               SelectFields, TestSplitSampler, ValidationSplitSampler)

from _gts_common import PRED, Ramp, rows, seed, sig  # noqa: F401


def r(x, n=3):
    if isinstance(x, mx.nd.NDArray):
        x = x.asnumpy()
    return np.round(np.asarray(x, dtype=np.float64), n).tolist()


CTX = 8
train_ds = ListDataset([{'start': '2022-01-03', 'target': s[:-PRED]} for s in rows], freq='D')
test_ds = ListDataset([{'start': '2022-01-03', 'target': s} for s in rows], freq='D')


# ---- point forecasts: an MLP from the context window to the prediction window
class MyNetwork(gluon.HybridBlock):
    @validated()  # RepresentableBlockPredictor serializes the network by its arguments
    def __init__(self, prediction_length: int, num_cells: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.prediction_length = prediction_length
        self.num_cells = num_cells
        with self.name_scope():
            self.nn = gluon.nn.HybridSequential()
            self.nn.add(gluon.nn.Dense(units=self.num_cells, activation='relu'))
            self.nn.add(gluon.nn.Dense(units=self.num_cells, activation='relu'))
            self.nn.add(gluon.nn.Dense(units=self.prediction_length, activation='softrelu'))


class MyTrainNetwork(MyNetwork):
    def hybrid_forward(self, F, past_target, future_target):
        prediction = self.nn(past_target)
        return (prediction - future_target).abs().mean(axis=-1)


class MyPredNetwork(MyTrainNetwork):
    def hybrid_forward(self, F, past_target):
        prediction = self.nn(past_target)
        return prediction.expand_dims(axis=1)  # (batch, 1 sample, prediction_length)


class MyEstimator(GluonEstimator):
    @validated()
    def __init__(self, prediction_length: int, context_length: int, freq: str, num_cells: int,
                 batch_size: int = 4, trainer: Trainer = Trainer()) -> None:
        super().__init__(trainer=trainer, batch_size=batch_size)
        self.prediction_length = prediction_length
        self.context_length = context_length
        self.freq = freq
        self.num_cells = num_cells

    train_class, pred_class = MyTrainNetwork, MyPredNetwork

    def create_transformation(self):
        return AddObservedValuesIndicator(target_field=FieldName.TARGET, output_field=FieldName.OBSERVED_VALUES)

    def splitter(self, sampler):
        return InstanceSplitter(target_field=FieldName.TARGET, is_pad_field=FieldName.IS_PAD,
                                start_field=FieldName.START, forecast_start_field=FieldName.FORECAST_START,
                                instance_sampler=sampler, past_length=self.context_length,
                                future_length=self.prediction_length, time_series_fields=[FieldName.OBSERVED_VALUES])

    def create_training_data_loader(self, data, **kwargs):
        names = get_hybrid_forward_input_names(self.train_class)
        return TrainDataLoader(dataset=data, transform=self.splitter(
            ExpectedNumInstanceSampler(num_instances=1, min_future=self.prediction_length)) + SelectFields(names),
            batch_size=self.batch_size, stack_fn=partial(batchify, ctx=self.trainer.ctx, dtype=self.dtype), **kwargs)

    def create_validation_data_loader(self, data, **kwargs):
        names = get_hybrid_forward_input_names(self.train_class)
        return ValidationDataLoader(dataset=data, transform=self.splitter(
            ValidationSplitSampler(min_future=self.prediction_length)) + SelectFields(names),
            batch_size=self.batch_size, stack_fn=partial(batchify, ctx=self.trainer.ctx, dtype=self.dtype))

    def network_args(self):
        return dict(prediction_length=self.prediction_length, num_cells=self.num_cells)

    def create_training_network(self):
        return self.train_class(**self.network_args())

    def create_predictor(self, transformation, trained_network):
        prediction_network = self.pred_class(**self.network_args())
        copy_parameters(trained_network, prediction_network)
        return RepresentableBlockPredictor(input_transform=transformation + self.splitter(TestSplitSampler()),
                                           prediction_net=prediction_network, batch_size=self.batch_size,
                                           prediction_length=self.prediction_length, ctx=self.trainer.ctx)


# ---- probabilistic forecasts: the MLP gives a distribution's arguments; mean scaling
class MyProbNetwork(gluon.HybridBlock):
    @validated()
    def __init__(self, prediction_length: int, distr_output: DistributionOutput, num_cells: int,
                 num_sample_paths: int = 5, **kwargs) -> None:
        super().__init__(**kwargs)
        self.prediction_length = prediction_length
        self.distr_output = distr_output
        self.num_cells = num_cells
        self.num_sample_paths = num_sample_paths
        with self.name_scope():
            self.nn = gluon.nn.HybridSequential()
            self.nn.add(gluon.nn.Dense(units=self.num_cells, activation='relu'))
            self.nn.add(gluon.nn.Dense(units=self.prediction_length * self.num_cells, activation='relu'))
            self.proj_distr_args = distr_output.get_args_proj()
            self.scaler = MeanScaler(keepdims=True)

    def distribution(self, F, past_target, past_observed_values):
        scaled, scale = self.scaler(past_target, past_observed_values)
        hidden = self.nn(scaled).reshape(shape=(-1, self.prediction_length, self.num_cells))
        args = self.proj_distr_args(hidden)
        return self.distr_output.distribution(args, scale=scale), scale


class MyProbTrainNetwork(MyProbNetwork):
    def hybrid_forward(self, F, past_target, future_target, past_observed_values):
        distr, _ = self.distribution(F, past_target, past_observed_values)
        return distr.loss(future_target).mean(axis=-1)


class MyProbPredNetwork(MyProbTrainNetwork):
    def hybrid_forward(self, F, past_target, past_observed_values):
        distr, _ = self.distribution(F, past_target, past_observed_values)
        samples = distr.sample(self.num_sample_paths)  # (samples, batch, prediction_length)
        return samples.swapaxes(0, 1)


class MyProbEstimator(MyEstimator):
    @validated()
    def __init__(self, prediction_length: int, context_length: int, freq: str, num_cells: int,
                 distr_output: DistributionOutput, num_sample_paths: int = 5, batch_size: int = 4,
                 trainer: Trainer = Trainer()) -> None:
        super().__init__(prediction_length=prediction_length, context_length=context_length, freq=freq,
                         num_cells=num_cells, batch_size=batch_size, trainer=trainer)
        self.distr_output = distr_output
        self.num_sample_paths = num_sample_paths

    train_class, pred_class = MyProbTrainNetwork, MyProbPredNetwork

    def network_args(self):
        return dict(prediction_length=self.prediction_length, num_cells=self.num_cells,
                    distr_output=self.distr_output, num_sample_paths=self.num_sample_paths)


# ---- an LSTM over the context, then the MLP head (the tutorial's RNN model, trimmed)
class MyRNNNetwork(gluon.HybridBlock):
    @validated()
    def __init__(self, prediction_length: int, context_length: int, num_cells: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.prediction_length = prediction_length
        self.context_length = context_length
        self.num_cells = num_cells
        with self.name_scope():
            self.rnn = gluon.rnn.HybridSequentialRNNCell()
            self.rnn.add(gluon.rnn.LSTMCell(hidden_size=num_cells))
            self.head = gluon.nn.Dense(units=prediction_length)
            self.scaler = MeanScaler(keepdims=True)

    def forecast(self, F, past_target, past_observed_values):
        scaled, scale = self.scaler(past_target, past_observed_values)
        inputs = F.concat(scaled.expand_dims(axis=-1), past_observed_values.expand_dims(axis=-1), dim=-1)
        outputs, state = self.rnn.unroll(length=self.context_length, inputs=inputs, layout='NTC', merge_outputs=True)
        last = F.slice_axis(outputs, axis=1, begin=-1, end=None).squeeze(axis=1)
        return F.broadcast_mul(self.head(last), scale)


class MyRNNTrainNetwork(MyRNNNetwork):
    def hybrid_forward(self, F, past_target, future_target, past_observed_values):
        return F.mean(F.abs(self.forecast(F, past_target, past_observed_values) - future_target), axis=-1)


class MyRNNPredNetwork(MyRNNTrainNetwork):
    def hybrid_forward(self, F, past_target, past_observed_values):
        return F.expand_dims(self.forecast(F, past_target, past_observed_values), axis=1)


class MyRNNEstimator(MyEstimator):
    train_class, pred_class = MyRNNTrainNetwork, MyRNNPredNetwork

    def network_args(self):
        return dict(prediction_length=self.prediction_length, context_length=self.context_length,
                    num_cells=self.num_cells)


def trainer(history, hybridize=True):
    return Trainer(epochs=2, num_batches_per_epoch=3, learning_rate=1e-2, hybridize=hybridize, init=Ramp(),
                   callbacks=[history])


def run(title, make):
    print('==', title)
    seed()
    history = TrainingHistory()
    estimator = make(history)
    predictor = estimator.train(train_ds, validation_data=test_ds)
    print('losses', sig(history.loss_history), sig(history.validation_loss_history))
    net = predictor.prediction_net
    print(type(predictor).__name__, type(net).__name__)
    for name, p in sorted(net.collect_params().items()):
        print(' ', name, p.shape)
    seed()
    forecast_it, ts_it = make_evaluation_predictions(dataset=test_ds, predictor=predictor, num_samples=5)
    forecasts, tss = list(forecast_it), list(ts_it)
    f = forecasts[0]
    print(type(f).__name__, f.samples.shape, str(f.start_date), f.prediction_length)
    return predictor, forecasts, tss


print('== validated estimator')
est = MyEstimator(prediction_length=PRED, context_length=CTX, freq='D', num_cells=6)
print(type(est).__name__, est.prediction_length, est.context_length, est.batch_size)
print(sorted(get_hybrid_forward_input_names(MyTrainNetwork)), sorted(get_hybrid_forward_input_names(MyProbTrainNetwork)))
attempt_types = []
for bad in (dict(prediction_length='x'), dict(num_cells=None)):
    try:
        MyEstimator(**dict(dict(prediction_length=PRED, context_length=CTX, freq='D', num_cells=6), **bad))
        attempt_types.append('ok')
    except Exception as e:
        attempt_types.append(type(e).__name__)
print(attempt_types)

predictor, forecasts, tss = run('point forecasts (MLP)', lambda h: MyEstimator(
    prediction_length=PRED, context_length=CTX, freq='D', num_cells=6, trainer=trainer(h)))
for f in forecasts:
    print(r(f.samples[0]))
agg, _ = Evaluator(quantiles=[0.5], num_workers=0)(iter(tss), iter(forecasts), num_series=len(test_ds))
print('MSE', round(float(agg['MSE']), 3), 'ND', round(float(agg['ND']), 3))
with tempfile.TemporaryDirectory() as d:
    predictor.serialize(pathlib.Path(d))
    print(sorted(os.listdir(d)))
    loaded = Predictor.deserialize(pathlib.Path(d))
    print(type(loaded).__name__, type(loaded.prediction_net).__name__)
    print(r(next(iter(loaded.predict(test_ds))).samples[0]))
symbolic = predictor.as_symbol_block_predictor(dataset=test_ds)
print(type(symbolic).__name__, type(symbolic.prediction_net).__name__, symbolic.as_symbol_block_predictor() is symbolic)
print(sorted(symbolic.prediction_net.collect_params().keys())[:2])
print(r(next(iter(symbolic.predict(test_ds))).samples[0]))
with tempfile.TemporaryDirectory() as d:
    symbolic.serialize(pathlib.Path(d))
    print(sorted(os.listdir(d)))
    graph = json.loads((pathlib.Path(d) / 'prediction_net-symbol.json').read_text())
    print([(n['op'], n['name']) for n in graph['nodes']])
    print(json.loads((pathlib.Path(d) / 'prediction_net-in_out_format.json').read_text()))
    loaded = Predictor.deserialize(pathlib.Path(d))
    print(type(loaded).__name__, type(loaded.prediction_net).__name__)
    print(r(next(iter(loaded.predict(test_ds))).samples[0]))

predictor, forecasts, tss = run('probabilistic forecasts (MLP, Gaussian, mean scaling)', lambda h: MyProbEstimator(
    prediction_length=PRED, context_length=CTX, freq='D', num_cells=5, distr_output=GaussianOutput(),
    num_sample_paths=7, trainer=trainer(h)))
print(all(np.isfinite(f.samples).all() for f in forecasts), forecasts[0].samples.dtype)
print(all((f.quantile(0.1) <= f.quantile(0.9)).all() for f in forecasts))

predictor, forecasts, tss = run('LSTM over the context (not hybridized)', lambda h: MyRNNEstimator(
    prediction_length=PRED, context_length=CTX, freq='D', num_cells=5, trainer=trainer(h, hybridize=False)))
for f in forecasts:
    print(r(f.samples[0]))

print('== the networks called directly')
seed()
net = MyProbTrainNetwork(prediction_length=PRED, distr_output=GaussianOutput(), num_cells=4)
net.initialize(Ramp())
past = mx.nd.array(np.stack([s[:CTX] for s in rows]))
future = mx.nd.array(np.stack([s[CTX:CTX + PRED] for s in rows]))
observed = mx.nd.ones_like(past)
eager = net(past, future, observed)
net.hybridize()
hybrid = net(past, future, observed)
print(eager.shape, r(eager), r(hybrid))
distr, scale = net.distribution(mx.nd, past, observed)
print(type(distr).__name__, distr.batch_shape, distr.event_shape, r(scale.reshape((-1,))))
print(r(distr.mean[0]), r(distr.stddev[0]))
rnn = MyRNNTrainNetwork(prediction_length=PRED, context_length=CTX, num_cells=3)
rnn.initialize(Ramp())
print(r(rnn(past, future, observed)))
rnn.hybridize()
print(r(rnn(past, future, observed)))
