"""GluonTS 0.16.2's linear dynamical system on MXNet (DeepState's likelihood): innovation state-space models'
coefficients (level, level-trend, seasonal, composite from a frequency), the Kalman filter's log-likelihood and
final state on fixed data (with missing values and a scale), and sample shapes; the low-rank GP distribution
(GPVAR's)."""
import warnings

import numpy as np
import mxnet as mx
from gluonts.mx.distribution.lds import LDS, ParameterBounds
from gluonts.mx.distribution.lowrank_gp import LowrankGPOutput
from gluonts.mx.model.deepstate.issm import CompositeISSM, LevelISSM, LevelTrendISSM

warnings.simplefilter('ignore')


def r(x, n=4):
    if isinstance(x, mx.nd.NDArray):
        x = x.asnumpy()
    x = np.asarray(x, dtype=np.float64) + 0.0
    return np.where(np.abs(x) > 100, np.round(x, 2), np.round(x, n)).tolist()


B, T = 2, 5
features = mx.nd.zeros((B, T, 1))

print('== ISSMs')
for issm in (LevelISSM(), LevelTrendISSM()):
    em, tr, inn = issm.get_issm_coeff(features)
    print(type(issm).__name__, issm.latent_dim(), issm.output_dim(), em.shape, tr.shape, inn.shape)
    print(r(em[0, 0]), r(tr[0, 0]), r(inn[0, 0]))
comp = CompositeISSM.get_from_freq('D', add_trend=True)
print(type(comp).__name__, comp.latent_dim(), [type(s).__name__ for s in comp.seasonal_issms])
seasonal_features = mx.nd.array(np.stack([np.stack([np.zeros(T), np.arange(T) % 7], -1)] * B).astype('float32'))
em, tr, inn = comp.get_issm_coeff(seasonal_features)
print(em.shape, tr.shape, inn.shape, r(em[0, 1]), r(inn[0, 1]))

print('== Kalman filter')
issm = LevelTrendISSM()
em, tr, inn = issm.get_issm_coeff(features)
latent = issm.latent_dim()
x = mx.nd.array(np.stack([np.array([1., 1.5, 1.2, 2.0, 2.4]), np.array([0., -0.5, 0.3, 0.1, 0.2])])[..., None])
lds = LDS(emission_coeff=em, transition_coeff=tr, innovation_coeff=inn * 0.3,
          noise_std=mx.nd.full((B, T, 1), 0.5), residuals=mx.nd.zeros((B, T, 1)),
          prior_mean=mx.nd.zeros((B, latent)), prior_cov=mx.nd.array(np.stack([np.eye(latent)] * B)),
          latent_dim=latent, output_dim=1, seq_length=T)
print(lds.batch_shape, lds.event_shape, lds.event_dim)
log_p, mean, cov = lds.log_prob(x)
print(log_p.shape, r(log_p), r(mean), r(cov))
observed = mx.nd.array([[1., 0., 1., 1., 0.], [1., 1., 1., 1., 1.]])  # (batch, time)
log_p, mean, cov = lds.log_prob(x, observed=observed)
print(r(log_p), r(mean))
log_p, mean, cov = lds.log_prob(x, scale=mx.nd.array([[2.], [0.5]]))
print(r(log_p), r(mean))
mx.random.seed(0)
print(lds.sample().shape, lds.sample(3).shape, lds.sample_marginals(4).shape)
print(lds.sample(2, scale=mx.nd.array([[2.], [0.5]])).shape)
bounds = ParameterBounds(lower=1e-3, upper=2.0)
print(bounds.lower, bounds.upper)

print('== low-rank GP (GPVAR)')
out = LowrankGPOutput(dim=3, rank=2)
proj = out.get_args_proj()
proj.initialize()
feats = mx.nd.array(np.linspace(-1, 1, 3 * 4).reshape(3, 4))  # (batch * dim, features)
proj(feats)
for name, p in sorted(proj.collect_params().items()):
    p.set_data(mx.nd.array((((np.arange(p.data().size) * 5 % 11) - 5) / 10.0).reshape(p.shape)))
args = proj(feats)
print([a.shape for a in args], [r(a[0]) for a in args])
d = out.distribution([a.reshape((1, 3, -1)) if len(a.shape) > 1 else a.reshape((1, 3)) for a in args], dim=3)
print(type(d).__name__, d.batch_shape, d.event_shape)
point = mx.nd.array([[0.5, -0.2, 1.0]])
print(r(d.log_prob(point)), r(d.mean), r(d.variance))
mx.random.seed(0)
print(d.sample().shape, d.sample(4).shape)
