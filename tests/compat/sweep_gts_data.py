"""GluonTS 0.16.2 quick-start data path on MXNet: ListDataset fields, the transformations an estimator
chains, batchify into NDArrays, the forecast types (sample, quantile, distribution) and the Evaluator."""
import warnings

import numpy as np
import pandas as pd
import mxnet as mx
from gluonts.dataset.common import ListDataset
from gluonts.dataset.field_names import FieldName
from gluonts.dataset.util import to_pandas
from gluonts.evaluation import Evaluator, MultivariateEvaluator
from gluonts.model.forecast import QuantileForecast, SampleForecast
from gluonts.mx.batchify import batchify, stack
from gluonts.mx.distribution import Gaussian, StudentT
from gluonts.mx.model.forecast import DistributionForecast
from gluonts.transform import (AddAgeFeature, AddObservedValuesIndicator, AddTimeFeatures, AsNumpyArray, Chain,
                               ExpectedNumInstanceSampler, InstanceSplitter, TestSplitSampler, VstackFeatures)
from gluonts.time_feature import time_features_from_frequency_str

warnings.simplefilter('ignore')


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def r4(x):
    if isinstance(x, mx.nd.NDArray):
        x = x.asnumpy()
    return np.round(np.asarray(x, dtype=np.float64), 4).tolist()


np.random.seed(0)
T = 40
t = np.arange(T)
series = [10 + 3 * np.sin(2 * np.pi * t / 7 + i) + 0.1 * i * t for i in range(3)]
series[1][33] = np.nan

print('== ListDataset')
ds = ListDataset([{'start': '2021-03-01', 'target': s, FieldName.FEAT_STATIC_CAT: [i], FieldName.ITEM_ID: 's%d' % i}
                  for i, s in enumerate(series)], freq='D')
print(len(ds))
entry = next(iter(ds))
print(sorted(entry))
print(type(entry['start']).__name__, str(entry['start']), entry['start'].freqstr)
print(entry['target'].dtype, entry['target'].shape, entry[FieldName.FEAT_STATIC_CAT].dtype, entry[FieldName.FEAT_STATIC_CAT])
pds = to_pandas(entry)
print(len(pds), str(pds.index[0]), str(pds.index[-1]), round(float(pds.sum()), 3))
multi = ListDataset([{'start': '2021-03-01', 'target': np.stack(series[:2])}], freq='D', one_dim_target=False)
print(next(iter(multi))['target'].shape)
attempt(lambda: list(ListDataset([{'start': '2021-03-01', 'target': np.stack(series[:2])}], freq='D')))
attempt(lambda: list(ListDataset([{'target': series[0]}], freq='D')))

print('== transformations')
prediction_length, context_length = 5, 10
trans = Chain([
    AsNumpyArray(field=FieldName.TARGET, expected_ndim=1),
    AddObservedValuesIndicator(target_field=FieldName.TARGET, output_field=FieldName.OBSERVED_VALUES),
    AddTimeFeatures(start_field=FieldName.START, target_field=FieldName.TARGET, output_field=FieldName.FEAT_TIME,
                    time_features=time_features_from_frequency_str('D'), pred_length=prediction_length),
    AddAgeFeature(target_field=FieldName.TARGET, output_field=FieldName.FEAT_AGE, pred_length=prediction_length),
    VstackFeatures(output_field=FieldName.FEAT_TIME, input_fields=[FieldName.FEAT_TIME, FieldName.FEAT_AGE]),
])
splitter = InstanceSplitter(target_field=FieldName.TARGET, is_pad_field=FieldName.IS_PAD, start_field=FieldName.START,
                            forecast_start_field=FieldName.FORECAST_START,
                            instance_sampler=ExpectedNumInstanceSampler(num_instances=1, min_future=prediction_length),
                            past_length=context_length, future_length=prediction_length,
                            time_series_fields=[FieldName.FEAT_TIME, FieldName.OBSERVED_VALUES])
train_items = list((trans + splitter).apply(ds, is_train=True))
print(len(train_items) > 0)
item = train_items[0]
for k in sorted(item):
    v = item[k]
    print(k, getattr(v, 'shape', type(v).__name__))
print(r4(item['past_observed_values'].sum() + item['future_observed_values'].sum()), r4(item['past_time_feat'][-1]))
test_splitter = InstanceSplitter(target_field=FieldName.TARGET, is_pad_field=FieldName.IS_PAD,
                                 start_field=FieldName.START, forecast_start_field=FieldName.FORECAST_START,
                                 instance_sampler=TestSplitSampler(), past_length=context_length,
                                 future_length=prediction_length,
                                 time_series_fields=[FieldName.FEAT_TIME, FieldName.OBSERVED_VALUES])
test_items = list((trans + test_splitter).apply(ds, is_train=False))
print(len(test_items), [str(x[FieldName.FORECAST_START]) for x in test_items])
print(r4(test_items[1]['past_target']), r4(test_items[1]['past_observed_values']))
print(test_items[0]['past_time_feat'].shape, test_items[0]['future_time_feat'].shape)

print('== batchify')
batch = batchify(test_items, ctx=mx.cpu())
for k in sorted(batch):
    v = batch[k]
    if isinstance(v, mx.nd.NDArray):
        print(k, type(v).__name__, v.shape, v.dtype, v.context)
    else:
        print(k, type(v).__name__, len(v))
print(r4(batch['past_target'].sum(axis=1)))
st = stack([np.ones((2, 3), 'float32'), np.zeros((2, 3), 'float32')], ctx=mx.cpu())
print(type(st).__name__, st.shape, st.dtype)
st = stack([np.arange(3), np.arange(3)], ctx=mx.cpu())
print(type(st).__name__, st.shape, st.dtype)
st = stack([mx.nd.ones((2,)), mx.nd.zeros((2,))], ctx=mx.cpu())
print(type(st).__name__, st.shape, r4(st))
print(stack(['a', 'b'], ctx=mx.cpu()))

print('== SampleForecast')
start = pd.Period('2021-04-10', freq='D')
samples = np.stack([np.arange(5) * 1.0 + k for k in range(20)]).astype('float32')
sf = SampleForecast(samples=samples, start_date=start, item_id='x')
print(sf.num_samples, sf.prediction_length, sf.item_id, str(sf.start_date), str(sf.index[-1]))
print(r4(sf.mean), r4(sf.quantile(0.1)), r4(sf.quantile('0.9')), r4(sf.median))
print(repr(sf).split('(')[0])
qf = sf.to_quantile_forecast(['0.1', '0.5', '0.9'])
print(type(qf).__name__, qf.forecast_keys, qf.forecast_array.shape, r4(qf.quantile(0.5)))

print('== QuantileForecast')
qarr = np.stack([np.arange(5) + d for d in (-1.0, 0.0, 2.0)])
qf = QuantileForecast(forecast_arrays=qarr, start_date=start, forecast_keys=['0.1', '0.5', '0.9'])
print(r4(qf.quantile(0.5)), r4(qf.quantile(0.9)), r4(qf.mean), qf.prediction_length)

print('== DistributionForecast')
mu = mx.nd.array([[1., 2., 3., 4., 5.]])
sigma = mx.nd.array([[0.5, 1., 1.5, 2., 2.5]])
df = DistributionForecast(Gaussian(mu.squeeze(axis=0), sigma.squeeze(axis=0)), start_date=start, item_id='g')
print(df.prediction_length, str(df.index[0]))
print(r4(df.mean), r4(df.quantile(0.5)), r4(df.quantile(0.9)), r4(df.quantile('0.1')))
print(r4(df.mean_ts.values), str(df.mean_ts.index[0]))
tdf = DistributionForecast(StudentT(mx.nd.array([0., 1.]), mx.nd.array([1., 2.]), mx.nd.array([3., 4.])),
                           start_date=start)
print(r4(tdf.mean))

print('== Evaluator')
truth = [pd.Series(s, index=pd.period_range('2021-03-01', periods=T, freq='D')) for s in series]
forecasts = []
for i, s in enumerate(series):
    base = np.nan_to_num(s[-5:]) + 0.5 * (i - 1)
    forecasts.append(SampleForecast(samples=np.stack([base + 0.2 * (k - 5) for k in range(11)]),
                                    start_date=pd.Period('2021-04-05', freq='D'), item_id='s%d' % i))
ev = Evaluator(quantiles=[0.1, 0.5, 0.9], num_workers=0)
agg, per_item = ev(iter(truth), iter(forecasts), num_series=3)
for k in sorted(agg):
    v = agg[k]
    print(k, 'nan' if np.isnan(v) else round(float(v), 4))
print(per_item.shape, sorted(per_item.columns)[:6])
print(r4(per_item['MSE'].values))

print('== MultivariateEvaluator')
mtruth = [pd.DataFrame(np.stack(series[:2], 1), index=pd.period_range('2021-03-01', periods=T, freq='D'))]
msamp = np.stack([np.stack([series[0][-5:], series[1][-5:]], 1) + 0.3 * (k - 1) for k in range(5)])
mf = [SampleForecast(samples=np.nan_to_num(msamp), start_date=pd.Period('2021-04-05', freq='D'))]
mev = MultivariateEvaluator(quantiles=[0.5], target_agg_funcs={'sum': np.sum}, num_workers=0)
magg, _ = mev(iter(mtruth), iter(mf), num_series=1)
for k in sorted(magg):
    if k.endswith(('_MSE', '_abs_error', '_mean_wQuantileLoss', '_ND')):
        print(k, round(float(magg[k]), 4))
