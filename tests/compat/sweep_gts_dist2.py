"""GluonTS 0.16.2's MXNet distributions as a network's last layer, as sweep_gts_dist.py for the others:
categorical, binned, quantile-function (piecewise linear, ISQF), inflated and mixture outputs, Box-Cox; then
the multivariate outputs, bijections, transformed and empirical distributions."""

import numpy as np
import mxnet as mx
from gluonts.mx import distribution as D
from gluonts.mx.distribution import bijection

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
    ('Categorical', lambda: D.CategoricalOutput(num_cats=3), 2.0),
    ('Binned', lambda: D.BinnedOutput(bin_centers=mx.nd.array([-1., 0., 1., 2.])), 1.0),
    ('PiecewiseLinear', lambda: D.PiecewiseLinearOutput(num_pieces=3), 0.7),
    ('FixedKnotsPiecewiseLinear', lambda: D.FixedKnotsPiecewiseLinearOutput(quantile_levels=[0.1, 0.5, 0.9]), 0.7),
    ('ISQF', lambda: D.ISQFOutput(num_pieces=2, qk_x=[0.1, 0.5, 0.9]), 0.7),
    ('ZeroInflatedBeta', lambda: D.ZeroInflatedBetaOutput(), 0.3),
    ('ZeroAndOneInflatedBeta', lambda: D.ZeroAndOneInflatedBetaOutput(), 0.3),
    ('ZeroInflatedPoisson', lambda: D.ZeroInflatedPoissonOutput(), 2.0),
    ('ZeroInflatedNegativeBinomial', lambda: D.ZeroInflatedNegativeBinomialOutput(), 2.0),
    ('Mixture', lambda: D.MixtureDistributionOutput([D.GaussianOutput(), D.LaplaceOutput()]), 1.5),
    ('NanMixture', lambda: D.NanMixtureOutput(D.GaussianOutput()), 1.5),
    ('BoxCoxGaussian', lambda: D.TransformedDistributionOutput(D.GaussianOutput(), [D.InverseBoxCoxTransformOutput()]),
     1.5),
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

print('== multivariate')
for name, make, dim in [
    ('MultivariateGaussian', lambda: D.MultivariateGaussianOutput(dim=3), 3),
    ('LowrankMultivariateGaussian', lambda: D.LowrankMultivariateGaussianOutput(dim=3, rank=2), 3),
    ('Dirichlet', lambda: D.DirichletOutput(dim=3), 3),
    ('DirichletMultinomial', lambda: D.DirichletMultinomialOutput(dim=3, n_trials=4), 3),
]:
    print('==', name)
    mx.random.seed(0)
    out = make()
    proj = out.get_args_proj()
    fixed(proj, FEATURES)
    args = proj(FEATURES)
    print('  args', [a.shape for a in args])
    d = out.distribution(args)
    print(' ', type(d).__name__, d.batch_shape, d.event_shape, d.event_dim)
    point = mx.nd.array([[[0.2, 0.3, 0.5]] * 3] * 2) if name.startswith('Dirichlet') else mx.nd.ones((2, 3, 3))
    if name == 'DirichletMultinomial':
        point = mx.nd.array([[[1., 1., 2.]] * 3] * 2)
    attempt('mean', lambda: d.mean[0, 0])
    attempt('variance', lambda: d.variance[0, 0])
    attempt('log_prob', lambda: d.log_prob(point)[0])
    attempt('sample', lambda: d.sample().shape)
    attempt('sample(2)', lambda: d.sample(2).shape)

print('== bijections')
x = mx.nd.array([0.5, 1.0, 2.0])
exp = bijection.exp
print(r(exp.f(x)), r(exp.f_inv(exp.f(x))), r(exp.log_abs_det_jac(x, exp.f(x))), exp.event_dim, exp.sign)
softrelu = bijection.softrelu
print(r(softrelu.f(x)), r(softrelu.f_inv(softrelu.f(x))), r(softrelu.log_abs_det_jac(x, softrelu.f(x))))
aff = bijection.AffineTransformation(loc=mx.nd.array([1.]), scale=mx.nd.array([2.]))
print(r(aff.f(x)), r(aff.f_inv(aff.f(x))), r(aff.log_abs_det_jac(x, aff.f(x))), r(aff.sign))
box = D.box_cox_transform.BoxCoxTransform(lambda_1=mx.nd.array([0.5, 0.5, 0.5]), lambda_2=mx.nd.array([0., 0., 0.]))
print(r(box.f(x)), r(box.f_inv(box.f(x))), r(box.log_abs_det_jac(x)))
inv = D.box_cox_transform.InverseBoxCoxTransform(lambda_1=mx.nd.array([0.5, 0.5, 0.5]),
                                                  lambda_2=mx.nd.array([0., 0., 0.]))
print(r(inv.f(x)), r(inv.f_inv(inv.f(x))))
td = D.TransformedDistribution(D.Gaussian(mx.nd.array([0., 1.]), mx.nd.array([1., 0.5])), [bijection.exp, aff])
print(td.batch_shape, r(td.log_prob(mx.nd.array([3., 4.]))), r(td.cdf(mx.nd.array([3., 4.]))))
print(r(td.quantile(mx.nd.array([0.25, 0.75]))))
mx.random.seed(0)
print(td.sample(4).shape, bool((td.sample(50).asnumpy() > 1).all()))

print('== EmpiricalDistribution')
ed = D.EmpiricalDistribution(samples=mx.nd.array(np.arange(24).reshape(6, 4) % 7), event_dim=0)
print(ed.batch_shape, r(ed.mean), r(ed.stddev), r(ed.quantile(mx.nd.array([0.2, 0.8]))))
print(r(ed.crps_univariate(mx.nd.array([1., 2., 3., 4.]))))
