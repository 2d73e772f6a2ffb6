"""GluonTS 0.16.2's MXNet distributions as a network's last layer: each DistributionOutput's argument
projection on fixed features and weights (hybridized and not), the distribution's shapes, moments, densities,
CDF, quantiles, CRPS and loss, slicing, sample shapes and scaled (affine) forms: the parametric families
(sweep_gts_dist2.py: the others, multivariate ones, bijections)."""

import numpy as np
import mxnet as mx
from gluonts.mx import distribution as D

from _gts_common import fixed, flat, ramp  # noqa: F401


def r(x, n=4):
    if isinstance(x, mx.nd.NDArray):
        x = x.asnumpy()
    x = np.asarray(x, dtype=np.float64) + 0.0  # -0.0 reads 0.0 (Box-Cox's lambda_2 is -0.0 * ones)
    return np.where(np.abs(x) > 1e3, np.round(x, 1), np.round(x, n)).tolist()


def attempt(label, f):
    try:
        v = f()
        print(' ', label, r(v) if isinstance(v, (mx.nd.NDArray, np.ndarray)) else v)
    except Exception as e:
        print(' ', label, type(e).__name__)


FEATURES = mx.nd.array(np.linspace(-1, 1, 2 * 3 * 4).reshape(2, 3, 4))

# name -> (output, a point in the support, batch of the same shape as the distribution's batch)
CASES = [
    ('Gaussian', lambda: D.GaussianOutput(), 1.5),
    ('StudentT', lambda: D.StudentTOutput(), 1.5),
    ('Laplace', lambda: D.LaplaceOutput(), 1.5),
    ('LaplaceFixedVariance', lambda: D.LaplaceFixedVarianceOutput(), 1.5),
    ('Gamma', lambda: D.GammaOutput(), 1.5),
    ('Beta', lambda: D.BetaOutput(), 0.3),
    ('NegativeBinomial', lambda: D.NegativeBinomialOutput(), 2.0),
    ('Poisson', lambda: D.PoissonOutput(), 2.0),
    ('Uniform', lambda: D.UniformOutput(), 0.2),
    ('GenPareto', lambda: D.GenParetoOutput(), 1.5),
    ('LogitNormal', lambda: D.LogitNormalOutput(), 0.3),
]

for name, make, point in CASES:
    print('==', name)
    mx.random.seed(0)
    out = make()
    print(' ', type(out).__name__, getattr(out, 'args_dim', None), out.event_shape, out.event_dim)
    proj = out.get_args_proj()
    fixed(proj, FEATURES)
    args = proj(FEATURES)
    alist = flat(args)  # Poisson's projection gives one array, a mixture's a nested tuple
    print('  args', type(args).__name__, [a.shape for a in alist], [r(a[0, 0]) for a in alist])
    proj.hybridize()
    hargs = proj(FEATURES)
    hlist = flat(hargs)
    print('  hybridized same', all(np.allclose(a.asnumpy(), b.asnumpy(), atol=1e-5) for a, b in zip(alist, hlist)))
    d = out.distribution(args)
    print(' ', type(d).__name__, d.batch_shape, d.event_shape, d.event_dim, d.batch_dim)
    x = mx.nd.full(d.batch_shape, point)
    attempt('mean', lambda: d.mean[0])
    attempt('stddev', lambda: d.stddev[0])
    attempt('log_prob', lambda: d.log_prob(x)[0])
    attempt('loss', lambda: d.loss(x)[0])
    attempt('cdf', lambda: d.cdf(x)[0])
    attempt('crps', lambda: d.crps(x)[0])
    attempt('quantile', lambda: d.quantile(mx.nd.array([0.1, 0.5, 0.9]))[:, 0])
    attempt('sample', lambda: d.sample().shape)
    attempt('sample(3)', lambda: d.sample(3).shape)
    attempt('sample_rep', lambda: d.sample_rep(2).shape)
    attempt('slice', lambda: d.slice_axis(axis=1, begin=0, end=2).batch_shape)
    attempt('getitem', lambda: d[0].batch_shape)
    scaled = out.distribution(args, loc=mx.nd.full((2, 3), 1.0), scale=mx.nd.full((2, 3), 2.0))
    print('  scaled', type(scaled).__name__, scaled.batch_shape)
    attempt('scaled log_prob', lambda: scaled.log_prob(x * 2 + 1)[0])
    attempt('scaled mean', lambda: scaled.mean[0])
