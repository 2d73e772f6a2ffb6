"""GluonTS 0.16.2's other MXNet estimators and its distributions, unmodified, on gluonjax.

test_gluonts.py trains the six estimators real MXNet was recorded on; here every other
``gluonts.mx`` estimator trains one epoch of two batches on a tiny hourly dataset, forecasts
(the forecast types and shapes GluonTS gives on MXNet 1.9.1, checked there in session 19) and
survives a ``serialize``/``deserialize`` round trip; the distributions' densities, moments and
sample shapes are checked against scipy. Not here: ``Seq2SeqEstimator`` (on MXNet 1.9.1 too it
fails, feeding a 2-d target to ``batch_dot``) and ``DeepTPPEstimator`` (GluonTS 0.16.2 builds
its ``ContinuousTimeInstanceSplitter`` without the ``freq`` it requires).

On the shared 2-core machine at load 10 (session 19) the whole file took 3 minutes: most
estimators 2-15 s, GPVAR 19 s, TFT 23 s, DeepVAR 34 s (at load 14, TFT took 100 s). GPVAR unrolls
its LSTM once per target dimension (2918 graph nodes at 4 dimensions and 2 layers: 2 minutes of
XLA compilation), so it runs at 2 dimensions and one layer.
"""
import numpy as np
import pytest
from scipy import special, stats

from client_import import import_client  # tests/clients/client_import.py (pytest puts this folder on sys.path)

import_client('gluonts.mx')

import gluonts_workload as workload  # noqa: E402
import mxnet as mx  # noqa: E402  (gluonjax, after import_client's alias)
import gluonts.mx as gm  # noqa: E402
from gluonts.dataset.common import ListDataset  # noqa: E402
from gluonts.model.predictor import Predictor  # noqa: E402
from gluonts.mx import distribution as D  # noqa: E402

PREDICTION = 6
SAMPLES = 5
SERIES = 4


def _trainer(hybridize=True):
    return gm.Trainer(epochs=1, num_batches_per_epoch=2, learning_rate=1e-2, hybridize=hybridize)


def _univariate():
    rng = np.random.RandomState(0)
    t = np.arange(60)
    return ListDataset([{'start': '2020-01-01', 'target': 10 + np.sin(2 * np.pi * t / 24 + i) + rng.normal(0, .1, 60),
                         'feat_static_cat': [i]} for i in range(SERIES)], freq=workload.freq())


def _multivariate(dim):
    rng = np.random.RandomState(0)
    t = np.arange(60)
    target = np.stack([10 + np.sin(2 * np.pi * t / 24 + i) + rng.normal(0, .1, 60) for i in range(dim)])
    return ListDataset([{'start': '2020-01-01', 'target': target}], freq=workload.freq(), one_dim_target=False)


def _intermittent():
    """Counts with gaps between demands (the renewal process's data)."""
    return ListDataset([{'start': '2020-01-01', 'target': np.array([0, 0, 1, 0, 2, 0, 0, 3, 1, 0] * 6, float)}] * 3,
                       freq=workload.freq())


def _estimator(name):
    freq = workload.freq()
    kw = dict(prediction_length=PREDICTION, trainer=_trainer())
    sampled = dict(kw, num_parallel_samples=SAMPLES)
    if name == 'MQRNN':
        return gm.MQRNNEstimator(freq=freq, context_length=12, **kw)
    if name == 'WaveNet':
        return gm.WaveNetEstimator(freq=freq, num_bins=16, n_residue=4, n_skip=4, dilation_depth=2, **sampled)
    if name == 'DeepFactor':
        return gm.DeepFactorEstimator(freq=freq, context_length=12, num_hidden_global=8, num_factors=2,
                                      num_hidden_local=4, **sampled)
    if name == 'DeepVAR':
        return gm.DeepVAREstimator(freq=freq, target_dim=SERIES, context_length=12, num_cells=8, rank=2,
                                   lags_seq=[1, 2], conditioning_length=10, **sampled)
    if name == 'GPVAR':
        return gm.GPVAREstimator(freq=freq, target_dim=2, context_length=6, num_layers=1, num_cells=8, rank=2,
                                 lags_seq=[1, 2], conditioning_length=10, **sampled)
    if name == 'LSTNet':
        return gm.LSTNetEstimator(context_length=12, num_series=SERIES, skip_size=2, ar_window=2, channels=4,
                                  kernel_size=3, **kw)
    if name == 'NBEATSEnsemble':
        return gm.NBEATSEnsembleEstimator(freq=freq, meta_context_length=[2], meta_loss_function=['MAPE'],
                                          meta_bagging_size=1, num_stacks=2, widths=[8], num_blocks=[1],
                                          num_block_layers=[2], sharing=[False], **kw)
    if name == 'TFT':
        return gm.TemporalFusionTransformerEstimator(freq=freq, context_length=12, hidden_dim=8, num_heads=2, **kw)
    if name == 'CanonicalRNN':
        return gm.CanonicalRNNEstimator(freq=freq, context_length=12, num_cells=8, num_layers=1, **sampled)
    if name == 'GaussianProcess':
        return gm.GaussianProcessEstimator(freq=freq, cardinality=SERIES, context_length=12, **sampled)
    if name == 'DeepRenewal':
        return gm.DeepRenewalProcessEstimator(context_length=12, num_cells=8, num_layers=1, **sampled)
    raise ValueError(name)


# name -> (data, forecast type, shape of one forecast's samples (None: a QuantileForecast), of its mean)
CASES = {
    'MQRNN': (_univariate, 'QuantileForecast', None, (PREDICTION,)),
    'WaveNet': (_univariate, 'SampleForecast', (SAMPLES, PREDICTION), (PREDICTION,)),
    'DeepFactor': (_univariate, 'SampleForecast', (SAMPLES, PREDICTION), (PREDICTION,)),
    'DeepVAR': (lambda: _multivariate(SERIES), 'SampleForecast', (SAMPLES, PREDICTION, SERIES), (PREDICTION, SERIES)),
    'GPVAR': (lambda: _multivariate(2), 'SampleForecast', (SAMPLES, PREDICTION, 2), (PREDICTION, 2)),
    'LSTNet': (lambda: _multivariate(SERIES), 'SampleForecast', (1, PREDICTION, SERIES), (PREDICTION, SERIES)),
    'NBEATSEnsemble': (_univariate, 'SampleForecast', (1, PREDICTION), (PREDICTION,)),
    'TFT': (_univariate, 'QuantileForecast', None, (PREDICTION,)),
    'CanonicalRNN': (_univariate, 'SampleForecast', (SAMPLES, PREDICTION), (PREDICTION,)),
    'GaussianProcess': (_univariate, 'SampleForecast', (SAMPLES, PREDICTION), (PREDICTION,)),
    'DeepRenewal': (_intermittent, 'SampleForecast', (SAMPLES, PREDICTION), (PREDICTION,)),
}


def _means(predictor, dataset):
    mx.random.seed(1)
    np.random.seed(1)
    return np.stack([f.mean for f in predictor.predict(dataset)])


@pytest.mark.parametrize('name', sorted(CASES))
def test_estimator_trains_forecasts_and_round_trips(name, tmp_path):
    make_data, kind, samples_shape, mean_shape = CASES[name]
    dataset = make_data()
    mx.random.seed(0)
    np.random.seed(0)
    predictor = _estimator(name).train(dataset)
    forecasts = list(predictor.predict(dataset))
    assert len(forecasts) == len(dataset)
    for f in forecasts:
        assert type(f).__name__ == kind
        assert f.mean.shape == mean_shape and np.isfinite(f.mean).all()
        if samples_shape is not None:
            assert f.samples.shape == samples_shape
    predictor.serialize(tmp_path)
    loaded = Predictor.deserialize(tmp_path)
    assert type(loaded) is type(predictor)
    np.testing.assert_allclose(_means(loaded, dataset), _means(predictor, dataset), rtol=1e-4, atol=1e-4)


# ---- distributions against scipy ----------------------------------------------------------------

def _nd(values):
    return mx.nd.array(np.asarray(values, dtype=np.float32))


X = np.array([0.5, 3.0])
UNIT = np.array([0.3, 0.8])  # points inside (0, 1)
COUNTS = np.array([1.0, 7.0])

# name -> (distribution, points, the same distribution in scipy)
UNIVARIATE = {
    'Gaussian': (lambda: D.Gaussian(_nd([0., 1.]), _nd([1., 2.])), X,
                 stats.norm(loc=[0., 1.], scale=[1., 2.])),
    'StudentT': (lambda: D.StudentT(_nd([0., 1.]), _nd([1., 2.]), _nd([3., 5.])), X,
                 stats.t(df=[3., 5.], loc=[0., 1.], scale=[1., 2.])),
    'Laplace': (lambda: D.Laplace(_nd([0., 1.]), _nd([1., 2.])), X,
                stats.laplace(loc=[0., 1.], scale=[1., 2.])),
    'Gamma': (lambda: D.Gamma(_nd([2., 3.]), _nd([1., 0.5])), X,  # shape and rate
              stats.gamma(a=[2., 3.], scale=[1., 2.])),
    'Beta': (lambda: D.Beta(_nd([2., 3.]), _nd([1., 0.5])), UNIT,
             stats.beta(a=[2., 3.], b=[1., 0.5])),
    'NegativeBinomial': (lambda: D.NegativeBinomial(_nd([2., 5.]), _nd([0.5, 1.])), COUNTS,  # mean and shape alpha
                         stats.nbinom(n=[2., 1.], p=[0.5, 1 / 6.])),
    'Poisson': (lambda: D.Poisson(_nd([2., 5.])), COUNTS, stats.poisson(mu=[2., 5.])),
    'Uniform': (lambda: D.Uniform(_nd([0., 1.]), _nd([1., 4.])), np.array([0.5, 2.]),
                stats.uniform(loc=[0., 1.], scale=[1., 3.])),
    'GenPareto': (lambda: D.GenPareto(_nd([0.2, 0.1]), _nd([1., 2.])), X,
                  stats.genpareto(c=[0.2, 0.1], scale=[1., 2.])),
}


def _log_density(frozen, x):
    return frozen.logpmf(x) if hasattr(frozen, 'logpmf') else frozen.logpdf(x)


@pytest.mark.parametrize('name', sorted(UNIVARIATE))
def test_univariate_distribution_matches_scipy(name):
    make, x, ref = UNIVARIATE[name]
    d = make()
    np.testing.assert_allclose(d.log_prob(_nd(x)).asnumpy(), _log_density(ref, x), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(d.mean.asnumpy(), ref.mean(), rtol=1e-5)
    np.testing.assert_allclose(d.stddev.asnumpy(), ref.std(), rtol=1e-4)
    mx.random.seed(0)
    assert d.sample().shape == (2,) and d.sample(3).shape == (3, 2)
    draws = d.sample(20000).asnumpy()
    np.testing.assert_allclose(draws.mean(0), ref.mean(), rtol=0.05, atol=0.05)


def test_gaussian_cdf_and_quantile_match_scipy():
    d = D.Gaussian(_nd([0., 1.]), _nd([1., 2.]))
    ref = stats.norm(loc=[0., 1.], scale=[1., 2.])
    np.testing.assert_allclose(d.cdf(_nd(X)).asnumpy(), ref.cdf(X), rtol=1e-5)
    levels = np.array([0.1, 0.5, 0.9])
    np.testing.assert_allclose(d.quantile(_nd(levels)).asnumpy(), ref.ppf(levels[:, None]), rtol=1e-4, atol=1e-5)


def test_categorical_matches_its_probabilities():
    probs = np.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    d = D.Categorical(_nd(np.log(probs)))
    np.testing.assert_allclose(d.log_prob(_nd([2., 0.])).asnumpy(), np.log([0.5, 0.1]), rtol=1e-5)
    np.testing.assert_allclose(d.mean.asnumpy(), probs @ np.arange(3), rtol=1e-5)
    mx.random.seed(0)
    draws = d.sample(20000).asnumpy()
    assert draws.shape == (20000, 2)
    np.testing.assert_allclose([np.mean(draws[:, b] == 2) for b in range(2)], probs[:, 2], atol=0.02)


def test_mixture_is_the_weighted_sum_of_its_components():
    weights = np.array([[0.3, 0.7], [0.5, 0.5]])
    d = D.MixtureDistribution(_nd(weights), [D.Gaussian(_nd([0., 1.]), _nd([1., 2.])),
                                             D.StudentT(_nd([1., 0.]), _nd([1., 1.]), _nd([4., 4.]))])
    parts = [stats.norm(loc=[0., 1.], scale=[1., 2.]), stats.t(df=4., loc=[1., 0.], scale=1.)]
    pdf = weights[:, 0] * parts[0].pdf(X) + weights[:, 1] * parts[1].pdf(X)
    np.testing.assert_allclose(d.log_prob(_nd(X)).asnumpy(), np.log(pdf), rtol=1e-5)
    means = np.stack([p.mean() for p in parts], 1)
    second = np.stack([p.var() + p.mean() ** 2 for p in parts], 1)
    np.testing.assert_allclose(d.mean.asnumpy(), (weights * means).sum(1), rtol=1e-5)
    mean = (weights * means).sum(1)
    np.testing.assert_allclose(d.variance.asnumpy(), (weights * second).sum(1) - mean ** 2, rtol=1e-4)
    mx.random.seed(0)
    assert d.sample(3).shape == (3, 2)


def test_multivariate_gaussians_match_scipy():
    mu, x = np.array([0., 1.]), np.array([0.5, 0.])
    chol = np.array([[1., 0.], [0.5, 1.]])
    full = D.MultivariateGaussian(_nd([mu]), _nd([chol]))
    np.testing.assert_allclose(full.log_prob(_nd([x])).asnumpy(),
                               [stats.multivariate_normal(mu, chol @ chol.T).logpdf(x)], rtol=1e-5)
    diag, w = np.array([1., 2.]), np.array([[0.5], [0.2]])
    lowrank = D.LowrankMultivariateGaussian(2, 1, _nd([mu]), _nd([diag]), _nd([w]))
    cov = np.diag(diag) + w @ w.T
    np.testing.assert_allclose(lowrank.variance.asnumpy()[0], cov, rtol=1e-5)
    np.testing.assert_allclose(lowrank.log_prob(_nd([x])).asnumpy(),
                               [stats.multivariate_normal(mu, cov).logpdf(x)], rtol=1e-5)
    mx.random.seed(0)
    assert full.sample().shape == (1, 2) and lowrank.sample(3).shape == (3, 1, 2)
    draws = lowrank.sample(20000).asnumpy()[:, 0]
    np.testing.assert_allclose(np.cov(draws.T), cov, atol=0.1)


def test_dirichlet_matches_scipy():
    alpha, x = np.array([1., 2., 3.]), np.array([0.2, 0.3, 0.5])
    d = D.Dirichlet(_nd([alpha]))
    np.testing.assert_allclose(d.log_prob(_nd([x])).asnumpy(), [stats.dirichlet(alpha).logpdf(x)], rtol=1e-5)
    np.testing.assert_allclose(d.mean.asnumpy()[0], alpha / alpha.sum(), rtol=1e-5)


def test_logit_normal_density_is_the_normal_of_the_logit():
    d = D.LogitNormal(_nd([0., 1.]), _nd([1., 0.5]))
    logit = special.logit(UNIT)
    want = stats.norm(loc=[0., 1.], scale=[1., 0.5]).logpdf(logit) - np.log(UNIT * (1 - UNIT))
    np.testing.assert_allclose(d.log_prob(_nd(UNIT)).asnumpy(), want, rtol=1e-4)


def test_zero_and_one_inflated_beta_broadcasts_its_probabilities():
    """Its log_prob calls ``prob.broadcast_like(x)`` of shape (1,) to (3, 1): the NDArray method
    adds the leading axis, as MXNet's does."""
    d = D.ZeroAndOneInflatedBeta(_nd([2.]), _nd([3.]), zero_probability=_nd([0.1]), one_probability=_nd([0.2]))
    x = np.array([[0.], [1.], [0.4]])
    want = [[np.log(0.1)], [np.log(0.2)], [np.log(0.7) + stats.beta(2, 3).logpdf(0.4)]]
    np.testing.assert_allclose(d.log_prob(_nd(x)).asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(d.mean.asnumpy(), [0.7 * 0.4 + 0.2], rtol=1e-5)


def test_empirical_distribution_quantiles_and_crps_match_mxnet():
    """Values real MXNet 1.9.1 gives (GluonTS's own quantile ordering included): the CRPS
    broadcasts the levels with ``NDArray.broadcast_like`` across ranks."""
    d = D.EmpiricalDistribution(samples=_nd(np.arange(12).reshape(4, 3)), event_dim=0)
    np.testing.assert_allclose(d.quantile(_nd([0.1, 0.5])).asnumpy(), [[9, 10, 11], [3, 4, 5]])
    np.testing.assert_allclose(d.crps_univariate(_nd([2., 5., 9.])).asnumpy(), [2.0, 2.0, 4.5], rtol=1e-5)


def test_piecewise_linear_quantile_function_and_crps():
    """gamma + sum of slope_l * relu(level - knot_l): a CDF inverse made of linear pieces."""
    gamma, slopes = np.array([0., 1.]), np.array([[1., 2., 4.], [1., 1., 1.]])
    widths = np.array([[0.25, 0.5, 0.25]] * 2)
    d = D.PiecewiseLinear(_nd(gamma), _nd(slopes), _nd(widths))
    knots = np.concatenate([np.zeros((2, 1)), np.cumsum(widths, 1)[:, :-1]], 1)
    # the deltas of the slopes, each weighting a hinge at its knot
    deltas = np.diff(np.concatenate([np.zeros((2, 1)), slopes], 1), axis=1)

    def quantile(level):
        return gamma + (deltas * np.maximum(level[:, None] - knots, 0)).sum(1)

    for level in (0.1, 0.5, 0.9):
        x = quantile(np.full(2, level))
        np.testing.assert_allclose(d.cdf(_nd(x)).asnumpy(), [level, level], rtol=1e-4)
    # CRPS = 2 * integral over levels of the pinball loss of the quantile
    z = np.array([0.6, 1.2])
    levels = (np.arange(20000) + 0.5) / 20000
    q = np.stack([quantile(np.full(2, a)) for a in levels])
    crps = 2 * np.mean((levels[:, None] - (z <= q)) * (z - q), axis=0)
    np.testing.assert_allclose(d.crps(_nd(z)).asnumpy(), crps, rtol=1e-3)


# name -> (output, event shape, the score it is trained on)
OUTPUTS = {
    'Gaussian': (lambda: D.GaussianOutput(), (), 'log_prob'),
    'StudentT': (lambda: D.StudentTOutput(), (), 'log_prob'),
    'NegativeBinomial': (lambda: D.NegativeBinomialOutput(), (), 'log_prob'),
    'Beta': (lambda: D.BetaOutput(), (), 'log_prob'),
    'Mixture': (lambda: D.MixtureDistributionOutput([D.GaussianOutput(), D.StudentTOutput()]), (), 'log_prob'),
    'PiecewiseLinear': (lambda: D.PiecewiseLinearOutput(num_pieces=3), (), 'crps'),  # a quantile function: no density
    'Categorical': (lambda: D.CategoricalOutput(num_cats=4), (), 'log_prob'),
    'LowrankMultivariateGaussian': (lambda: D.LowrankMultivariateGaussianOutput(dim=3, rank=2), (3,), 'log_prob'),
    'Dirichlet': (lambda: D.DirichletOutput(dim=3), (3,), 'log_prob'),
}


@pytest.mark.parametrize('name', sorted(OUTPUTS))
def test_distribution_output_projects_features_hybridized(name):
    """A network's last layer: features (batch, time, units) -> the distribution's arguments."""
    make, event_shape, score = OUTPUTS[name]
    output = make()
    proj = output.get_args_proj()
    proj.initialize()
    proj.hybridize()
    d = output.distribution(proj(mx.nd.ones((2, 5, 4))))
    assert d.batch_shape == (2, 5) and d.event_shape == event_shape
    mx.random.seed(0)
    sample = d.sample()
    assert sample.shape == (2, 5) + event_shape
    assert np.isfinite(getattr(d, score)(sample).asnumpy()).all()


def test_trainer_callbacks_average_models_and_reduce_the_learning_rate():
    """GluonTS's training callbacks read and write the Parameters and the Trainer's learning rate."""
    from gluonts.mx.trainer.callback import TrainingHistory
    from gluonts.mx.trainer.learning_rate_scheduler import LearningRateReduction
    from gluonts.mx.trainer.model_averaging import ModelAveraging, SelectNBestMean
    history = TrainingHistory()
    callbacks = [history, ModelAveraging(avg_strategy=SelectNBestMean(num_models=2)),
                 LearningRateReduction(objective='min', base_lr=1e-2, patience=0, decay_factor=0.5)]
    trainer = gm.Trainer(epochs=3, num_batches_per_epoch=2, learning_rate=1e-2, hybridize=True, callbacks=callbacks)
    mx.random.seed(0)
    np.random.seed(0)
    estimator = gm.SimpleFeedForwardEstimator(context_length=12, num_hidden_dimensions=[8],
                                              prediction_length=PREDICTION, trainer=trainer)
    predictor = estimator.train(_univariate(), validation_data=_univariate())
    assert len(history.loss_history) == len(history.validation_loss_history) == 3
    assert np.isfinite(history.loss_history + history.validation_loss_history).all()
    means = np.stack([f.mean for f in predictor.predict(_univariate())])
    assert means.shape == (SERIES, PREDICTION) and np.isfinite(means).all()
