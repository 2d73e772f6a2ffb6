"""Random operators: MXNet's ``_random_*`` (scalar parameters), ``_sample_*`` (array
parameters), ``_random_*_like``, ``_sample_multinomial`` and ``_shuffle``.

Each function receives a jax PRNG key as ``_key`` (split from the per-context
key of ``mx.random``, so results repeat after ``mx.random.seed``; the samplers
run optimised from their first call, OpDef.optimised_at_once). Parameters
are checked while tracing, with MXNet's rules. As in MXNet, sampled values carry
no gradient to the distribution parameters (multinomial's log-probabilities do
carry one to the probabilities).
"""
import functools
import math
import operator

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.special import erfinv, gammaln

from ..base import DeferredError, MXNetError, shape_str
from ._registry import P, register

_FLOATS = ('float16', 'float32', 'float64')


def _dtype(name, dtype, allowed=_FLOATS, default='float32'):
    dtype = dtype or default
    if dtype not in allowed:
        raise MXNetError('%s: dtype must be one of %s, got %r' % (name, ', '.join(allowed), dtype))
    return dtype


# ---- distributions: (key, shape, dtype, *params) -> samples; params broadcast to shape ----

def _wide(dtype):
    """The dtype samples are drawn in: float32 at least. As MXNet, float16 samples are float32
    ones rounded; drawn in float16 (10 random bits) uniform(0, 1) would give exactly 0 one time in
    1024, where MXNet's almost never does (a zero gradient then makes Adamax's m / u a NaN)."""
    return jnp.promote_types(dtype, jnp.float32)


def _uniform(key, shape, dtype, low, high):
    return (low + (high - low) * jax.random.uniform(key, shape, _wide(dtype))).astype(dtype)


def _normal(key, shape, dtype, loc, scale):
    return (loc + scale * jax.random.normal(key, shape, _wide(dtype))).astype(dtype)


def _exponential(key, shape, dtype, lam):
    return (jax.random.exponential(key, shape, _wide(dtype)) / lam).astype(dtype)


def _gamma(key, shape, dtype, alpha, beta):
    # Sampled in float32 at least: gamma's rejection sampler is poor in float16.
    work = _wide(dtype)
    (seed,) = _stream_seeds(key, shape)
    return (_standard_gamma(seed, jnp.broadcast_to(jnp.asarray(alpha, work), shape)) * beta).astype(dtype)


def _poisson(key, shape, dtype, lam):
    (seed,) = _stream_seeds(key, shape)
    return _standard_poisson(seed, jnp.broadcast_to(jnp.asarray(lam, _wide(dtype)), shape)).astype(dtype)


def _negative_binomial(key, shape, dtype, k, p):
    """Failures before the k-th success: Poisson with a Gamma(k, (1-p)/p) rate."""
    gamma_seed, poisson_seed = _stream_seeds(key, shape, 2)
    work = _wide(dtype)
    k, p = jnp.broadcast_to(jnp.asarray(k, work), shape), jnp.asarray(p, work)
    return _standard_poisson(poisson_seed, _standard_gamma(gamma_seed, k) * (1 - p) / p).astype(dtype)


def _generalized_negative_binomial(key, shape, dtype, mu, alpha):
    """Poisson with a Gamma(1/alpha, alpha*mu) rate (mean mu, variance mu + alpha*mu^2); alpha=0 is Poisson(mu)."""
    gamma_seed, poisson_seed = _stream_seeds(key, shape, 2)
    work = _wide(dtype)
    alpha, mu = jnp.asarray(alpha, work), jnp.broadcast_to(jnp.asarray(mu, work), shape)
    safe = jnp.where(alpha > 0, alpha, 1)
    rate = jnp.where(alpha > 0, _standard_gamma(gamma_seed, jnp.broadcast_to(1 / safe, shape)) * safe * mu, mu)
    return _standard_poisson(poisson_seed, rate).astype(dtype)


# ---- rejection samplers in rounds -----------------------------------------------------------
# jax.random.gamma and jax.random.poisson run a rejection loop per element with threefry key
# splits inside. On a CPU that costs: a threefry in a loop body adds ~1-2 s of XLA compile
# (a loaded 2-core machine; each distribution, dtype and shape compiles its own program), and
# the per-element loops run slowly. Here each round draws one candidate for every element and
# keeps the first accepted one; the round's uniforms come from the element's own splitmix64
# stream, seeded by 64 threefry bits drawn once outside the loop. Measured against jax's
# samplers on 262144 values: gamma compiles in 2.0 s instead of 7-10 s and runs in 0.04 s
# instead of 0.5 s; poisson 1.6 s instead of 3.5-3.9 s, 0.04 s instead of 0.15-0.2 s. Element
# i depends only on its own seed, so with jax's partitionable threefry a draw of n values is the
# first n of a longer draw (``nd.random`` cuts draws from power-of-two lengths).

_MAX_ROUNDS = 64  # a round accepts >= 90% of the candidates
# splitmix64 (Steele, Lea and Flood, 2014): a Weyl sequence through a 64-bit finaliser
_GOLDEN = 0x9E3779B97F4A7C15


def _stream_seeds(key, shape, n=1):
    """``n`` arrays of ``shape`` of 64-bit seeds (a trailing axis keeps a shorter draw a prefix)."""
    bits = jax.random.bits(key, tuple(shape) + (n,), jnp.uint64)
    return [bits[..., j] for j in range(n)]


def _splitmix64(z):
    z = (z ^ (z >> 30)) * jnp.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> 27)) * jnp.uint64(0x94D049BB133111EB)
    return z ^ (z >> 31)


def _uniforms(seed, round_, n, dtype):
    """Round ``round_``'s ``n`` uniforms in [0, 1) of each element's stream: seed.shape + (n,)."""
    mantissa = jnp.finfo(dtype).nmant + 1
    offsets = (1 + jnp.arange(n, dtype=jnp.uint64)) * jnp.uint64(_GOLDEN)
    start = seed + jnp.asarray(round_).astype(jnp.uint64) * jnp.uint64(n * _GOLDEN % 2 ** 64)
    bits = _splitmix64(start[..., None] + offsets)
    return (bits >> (64 - mantissa)).astype(dtype) * 2.0 ** -int(mantissa)


def _in_rounds(seed, dtype, n_uniforms, candidate, invalid, skip=None):
    """Rounds until every element accepted a candidate: ``candidate(round, uniforms, state) ->
    (value, accepted, state)``, ``uniforms`` of seed.shape + (n_uniforms,) in [0, 1) from each
    element's stream. Elements marked ``invalid`` are NaN (no endless loop on a NaN or negative
    parameter); those marked ``skip`` (drawn another way by the caller) are left at zero."""
    def round_(carry):
        i, out, done, state = carry
        value, ok, state = candidate(i, _uniforms(seed, i, n_uniforms, dtype), state)
        return i + 1, jnp.where(done, out, value.astype(dtype)), done | ok, state

    def more(carry):
        return ~jnp.all(carry[2]) & (carry[0] < _MAX_ROUNDS)

    done = invalid if skip is None else invalid | skip
    start = (0, jnp.zeros(seed.shape, dtype), done, jnp.ones(seed.shape, dtype))
    out = lax.while_loop(more, round_, start)[1]
    return jnp.where(invalid, jnp.nan, out)


def _standard_gamma(seed, alpha):
    """Gamma(alpha, 1) by Marsaglia and Tsang's method (> 95% accepted per round); below
    alpha = 1 a Gamma(alpha + 1) sample times U ** (1 / alpha)."""
    boost = alpha < 1
    d = jnp.where(boost, alpha + 1, alpha) - 1 / 3
    c = 1 / jnp.sqrt(9 * d)
    boost_power = 1 / jnp.where(boost, alpha, 1)

    def candidate(_i, u, state):
        x = 2 ** 0.5 * erfinv(2 * u[..., 0] - 1)  # a standard normal (a Python float keeps the dtype)
        v = (1 + c * x) ** 3
        ok = (v > 0) & (jnp.log(u[..., 1]) < 0.5 * x * x + d - d * v + d * jnp.log(jnp.where(v > 0, v, 1)))
        return d * v * jnp.where(boost, u[..., 2] ** boost_power, 1), ok, state
    return _in_rounds(seed, alpha.dtype, 3, candidate, ~(alpha >= 0))


def _standard_poisson(seed, lam):
    """Poisson(lam): below lam = 10 by inverting the distribution function (one uniform), above
    it by Hoermann's transformed rejection (PTRS, ~90% accepted per round), as NumPy does."""
    small = lam < 10
    invalid = ~(lam >= 0) | ~jnp.isfinite(lam)
    searched = small & ~invalid
    by_search = _poisson_by_search(seed, jnp.where(searched, lam, 0))
    return jnp.where(searched, by_search, _poisson_ptrs(seed, jnp.where(small, 10, lam), invalid, small))


def _poisson_by_search(seed, lam):
    """The smallest k with P(X <= k) > u: the loop's rounds add one term of the distribution
    function each and draw no random numbers (Knuth's product of uniforms, NumPy's method, draws
    one per round: a million samples at lam = 8.5 took 12 times as long). A term too small to
    move the sum ends an element's search (u within rounding of 1)."""
    dtype = lam.dtype
    u = _uniforms(seed, 0, 1, dtype)[..., 0]
    term = jnp.exp(-lam)
    eps = jnp.finfo(dtype).eps

    def step(carry):
        k, term, total, out, done = carry
        k = k + 1
        term = term * lam / k
        total = total + term
        out = jnp.where(done, out, k)
        return k, term, total, out, done | (u < total) | (term < eps * total)

    def more(carry):
        return ~jnp.all(carry[4]) & (carry[0] < _MAX_SEARCH)

    start = (jnp.zeros((), dtype), term, term, jnp.zeros(lam.shape, dtype), u < term)
    return lax.while_loop(more, step, start)[3]


_MAX_SEARCH = 256  # terms of a search (below lam = 10 the sum is 1 within float64's rounding by 60)


def _log_factorial(k):
    """log(k!) by Stirling's series (relative error below 1e-11 from k = 8); smaller k are
    raised by 8 first: k! = (k + 8)! / ((k + 1) ... (k + 8)). jax's gammaln, evaluated for
    every element of every PTRS round, was most of the round's time."""
    low = k < 8
    x = jnp.where(low, k + 8, k) + 1
    inv = 1 / x
    series = (1 / 12 - (1 / 360 - inv * inv / 1260) * inv * inv) * inv
    stirling = (x - 0.5) * jnp.log(x) - x + 0.5 * math.log(2 * math.pi) + series
    rises = functools.reduce(operator.mul, [jnp.where(low, k + j, 1) for j in range(1, 9)])
    return stirling - jnp.log(rises)


def _poisson_ptrs(seed, lam, invalid, skip):
    """Hoermann's PTRS for lam >= 10 (elements marked ``skip`` are drawn by the search)."""
    b = 0.931 + 2.53 * jnp.sqrt(lam)
    a = -0.059 + 0.02483 * b
    log_lam = jnp.log(lam)
    log_inv_alpha = jnp.log(1.1239 + 1.1328 / (b - 3.4))
    v_r = 0.9277 - 3.6224 / (b - 2)

    def candidate(_i, u, state):
        us = 0.5 - jnp.abs(u[..., 0] - 0.5)
        k = jnp.floor((2 * a / us + b) * (u[..., 0] - 0.5) + lam + 0.43)
        v = u[..., 1]
        accept = ((us >= 0.07) & (v <= v_r)) | (
            (k >= 0) & ~((us < 0.013) & (v > us))
            & (jnp.log(v) + log_inv_alpha - jnp.log(a / (us * us) + b)
               <= -lam + k * log_lam - _log_factorial(jnp.maximum(k, 0))))
        return k, accept, state
    return _in_rounds(seed, lam.dtype, 2, candidate, invalid, skip)


def _positive(*names):
    def check(op, values):
        for n in names:
            if not values[n] > 0:
                raise MXNetError('%s: parameter %s must be positive, got %r' % (op, n, values[n]))
    return check


def _check_uniform(op, v):
    if v['high'] < v['low']:
        raise MXNetError('%s: low must be less than or equal to high, got low=%r, high=%r' % (op, v['low'], v['high']))


def _check_poisson(op, v):
    if v['lam'] < 0:
        raise MXNetError('%s: lam must be non-negative, got %r' % (op, v['lam']))


def _check_nb(op, v):
    if not v['k'] > 0 or not 0 < v['p'] <= 1:
        raise MXNetError('%s: need k > 0 and 0 < p <= 1, got k=%r, p=%r' % (op, v['k'], v['p']))


def _check_gnb(op, v):
    if v['mu'] < 0 or v['alpha'] < 0:
        raise MXNetError('%s: mu and alpha must be non-negative, got mu=%r, alpha=%r' % (op, v['mu'], v['alpha']))


# name: (sampler, [(MXNet scalar param, default: its type)], names of the _sample_ inputs, check)
_DISTRIBUTIONS = {
    'uniform': (_uniform, [('low', 0.0), ('high', 1.0)], ('low', 'high'), _check_uniform),
    'normal': (_normal, [('loc', 0.0), ('scale', 1.0)], ('mu', 'sigma'), _positive('scale')),
    'exponential': (_exponential, [('lam', 1.0)], ('lam',), _positive('lam')),
    'gamma': (_gamma, [('alpha', 1.0), ('beta', 1.0)], ('alpha', 'beta'), _positive('alpha', 'beta')),
    'poisson': (_poisson, [('lam', 1.0)], ('lam',), _check_poisson),
    'negative_binomial': (_negative_binomial, [('k', 1), ('p', 1.0)], ('k', 'p'), _check_nb),  # k: MXNet's int
    'generalized_negative_binomial': (_generalized_negative_binomial, [('mu', 1.0), ('alpha', 1.0)],
                                      ('mu', 'alpha'), _check_gnb),
}
# MXNet's names for some of them ('normal', 'uniform' are also top-level operators).
_ALIASES = {'uniform': ('uniform', 'random_uniform'), 'normal': ('normal', 'random_normal')}


def _kind(default):
    return 'int' if isinstance(default, int) else 'float'


def _checked_when_run(check, name, values, aval):
    """MXNet checks the parameters when the sampler runs, on its engine: the error reaches the
    user at the next wait on the output (a DeferredError), not at the call."""
    try:
        check(name, values)
    except MXNetError as err:
        raise DeferredError(str(err), [aval]) from None


def _make_random(dist, sampler, scalar_params, check):
    name = '_random_' + dist
    names = [n for n, _ in scalar_params]

    def op(*, shape, ctx, dtype, _key, **values):
        if not shape:
            raise MXNetError('%s: shape must be given (got %r)' % (name, shape))
        _checked_when_run(check, name, values, (tuple(shape), _dtype(name, dtype)))
        return sampler(_key, shape, _dtype(name, dtype), *[values[n] for n in names])
    op.__name__ = name
    op.__doc__ = 'Samples of the %s distribution (%s) with the given shape; float32 by default.' % (
        dist.replace('_', ' '), ', '.join(names))
    register(name, inputs=(), aliases=_ALIASES.get(dist, ('random_' + dist,)), creation=True, random=True,
             optimised_at_once=True, params=[P(n, _kind(d), d) for n, d in scalar_params]
             + [P('shape', 'shape', ()), P('ctx', 'str', ''), P('dtype', 'dtype', None, optional=True)])(op)


def _make_sample(dist, sampler, input_names):
    name = '_sample_' + dist

    def op(*params, shape, dtype, _key):
        first = params[0]
        for n, p in zip(input_names[1:], params[1:]):
            if p.shape != first.shape:
                raise MXNetError('%s: %s %s and %s %s must have the same shape'
                                 % (name, input_names[0], shape_str(first.shape), n, shape_str(p.shape)))
            if p.dtype != first.dtype:
                raise MXNetError('%s: %s (%s) and %s (%s) must have the same dtype'
                                 % (name, input_names[0], first.dtype, n, p.dtype))
        out_shape = first.shape + tuple(shape)
        # Parameters broadcast over the trailing sample axes; no gradient flows back to them.
        cast = [lax.stop_gradient(p).astype(jnp.float32 if p.dtype == jnp.float16 else p.dtype)
                .reshape(first.shape + (1,) * len(shape)) for p in params]
        return sampler(_key, out_shape, _dtype(name, dtype), *cast).astype(_dtype(name, dtype))
    op.__name__ = name
    op.__doc__ = ('Samples of the %s distribution for each element of the parameter arrays (%s): '
                  'shape params.shape + shape.' % (dist.replace('_', ' '), ', '.join(input_names)))
    register(name, inputs=tuple(input_names), aliases=('sample_' + dist,), random=True,
             optimised_at_once=True, params=[P('shape', 'shape', ()), P('dtype', 'dtype', None, optional=True)])(op)


def _make_like(dist, sampler, scalar_params, check):
    name = '_random_%s_like' % dist
    names = [n for n, _ in scalar_params]

    def op(data, *, _key, **values):
        _checked_when_run(check, name, values, (data.shape, data.dtype))
        if not jnp.issubdtype(data.dtype, jnp.floating):
            raise MXNetError('%s: data must be a floating point array, got %s' % (name, data.dtype))
        return sampler(_key, data.shape, data.dtype, *[values[n] for n in names]).astype(data.dtype)
    op.__name__ = name
    op.__doc__ = 'Samples of the %s distribution with the shape and dtype of the input.' % dist.replace('_', ' ')
    register(name, random=True, optimised_at_once=True,
             params=[P(n, _kind(d), d) for n, d in scalar_params])(op)


for _dist, (_sampler, _scalars, _inputs, _check) in _DISTRIBUTIONS.items():
    _make_random(_dist, _sampler, _scalars, _check)
    _make_sample(_dist, _sampler, _inputs)
    _make_like(_dist, _sampler, _scalars, _check)


@register('_random_randint', inputs=(), aliases=('random_randint',), creation=True, random=True,
          params=[P('low', 'int'), P('high', 'int'), P('shape', 'shape', ()), P('ctx', 'str', ''),
                  P('dtype', 'dtype', None, optional=True)])
def random_randint(*, low, high, shape, ctx, dtype, _key):
    """Integers drawn uniformly from [low, high); int32 by default."""
    if high < low:
        raise MXNetError('_random_randint: low must be less than or equal to high, got low=%d, high=%d' % (low, high))
    if not shape:
        raise MXNetError('_random_randint: shape must be given (got %r)' % (shape,))
    return jax.random.randint(_key, shape, low, high, _dtype('_random_randint', dtype, ('int32', 'int64'), 'int32'))


def _multinomial_outputs(attrs):
    return 2 if attrs['get_prob'] else 1


def _multinomial_dtypes(attrs, dtypes):
    # the indices come in ``dtype``, their log-probabilities in the probabilities' dtype
    return (attrs['dtype'], dtypes[0]) if attrs['get_prob'] else (attrs['dtype'],)


# The largest category index each output dtype writes exactly, as MXNet checks before drawing.
_LARGEST_EXACT = {'uint8': 255, 'float16': 2 ** 11, 'float32': 2 ** 24, 'int32': 2 ** 31 - 1, 'float64': 2 ** 53}


@register('_sample_multinomial', aliases=('sample_multinomial',), random=True, optimised_at_once=True,
          num_outputs=_multinomial_outputs, out_dtypes=_multinomial_dtypes,
          params=[P('shape', 'shape', ()), P('get_prob', 'bool', False), P('dtype', 'dtype', 'int32')])
def sample_multinomial(data, *, shape, get_prob, dtype, _key):
    """Category indices drawn from the probabilities on the last axis of ``data``.

    The result has shape data.shape[:-1] + shape ((1,) per distribution when
    shape is empty and data is 1-D); with get_prob the log-probabilities of the
    drawn categories come second, differentiable with respect to ``data``.
    """
    dtype = _dtype('_sample_multinomial', dtype, ('float16', 'float32', 'float64', 'int32', 'uint8'), 'int32')
    if data.ndim < 1:
        raise MXNetError('_sample_multinomial: data must have at least one dimension')
    largest = _LARGEST_EXACT[dtype]
    if data.shape[-1] - 1 > largest:
        raise MXNetError('_sample_multinomial: %d categories (data of shape %s) cannot all be written in dtype '
                         '%s, whose integers are exact only up to %d' % (data.shape[-1], shape_str(data.shape),
                                                                          dtype, largest))
    batch = data.shape[:-1]
    draws = tuple(shape) if shape else (() if batch else (1,))
    k = data.shape[-1]
    logits = jnp.log(lax.stop_gradient(data).astype(jnp.float32))
    logits = logits.reshape(batch + (1,) * len(draws) + (k,))
    idx = jax.random.categorical(_key, logits, axis=-1, shape=batch + draws)
    if not get_prob:
        return idx.astype(dtype)
    probs = data.reshape(batch + (1,) * len(draws) + (k,))
    probs = jnp.broadcast_to(probs, batch + draws + (k,))
    logp = jnp.log(jnp.take_along_axis(probs, idx[..., None], axis=-1)[..., 0])
    return idx.astype(dtype), logp


@register('_shuffle', aliases=('shuffle',), random=True)
def shuffle(data, *, _key):
    """The input with its first axis randomly permuted."""
    if data.ndim < 1:
        raise MXNetError('_shuffle: data must have at least one dimension, got shape []')
    return jax.random.permutation(_key, data, axis=0, independent=False)


# ---- densities: _random_pdf_<dist>(sample, *params, is_log) --------------------------------
# Each parameter array has the leading shape of ``sample`` (one distribution per entry, the
# sample's further axes being draws from it); the result has the sample's shape (dirichlet: less
# its last axis, the simplex). Differentiable in the sample and the parameters, as MXNet's.

def _log_nb(x, k, p):
    """log P(x failures before the k-th success), success probability p."""
    return gammaln(x + k) - gammaln(x + 1) - gammaln(k) + k * jnp.log(p) + x * jnp.log1p(-p)


# dist: (parameter names, log density of (sample, *params)); gamma's beta and exponential's lam
# are rates here, as in MXNet's density operators
_LOG_DENSITIES = {
    'uniform': (('low', 'high'), lambda x, low, high: jnp.broadcast_to(-jnp.log(high - low), x.shape)),
    'normal': (('mu', 'sigma'), lambda x, mu, sigma: (-0.5 * jnp.square((x - mu) / sigma)
                                                      - jnp.log(sigma) - 0.5 * jnp.log(2 * jnp.pi))),
    'gamma': (('alpha', 'beta'), lambda x, a, b: a * jnp.log(b) + (a - 1) * jnp.log(x) - b * x - gammaln(a)),
    'exponential': (('lam',), lambda x, lam: jnp.log(lam) - lam * x),
    'poisson': (('lam',), lambda x, lam: x * jnp.log(lam) - lam - gammaln(x + 1)),
    'negative_binomial': (('k', 'p'), _log_nb),
    'generalized_negative_binomial': (('mu', 'alpha'), lambda x, mu, alpha: _log_nb(x, 1 / alpha, 1 / (1 + alpha * mu))),
}


def _pdf_params(name, sample, params, trailing):
    """The parameters reshaped to broadcast against the sample; checks their shapes."""
    lead = params[0].shape[:params[0].ndim - trailing]
    for p in params:
        if p.shape != params[0].shape or sample.shape[:len(lead)] != lead or sample.ndim < p.ndim:
            raise MXNetError('%s: the parameters (shapes %s) must share a shape that leads the sample\'s %s'
                             % (name, ', '.join(shape_str(q.shape) for q in params), shape_str(sample.shape)))
    draws = sample.ndim - params[0].ndim
    return [p.reshape(lead + (1,) * draws + p.shape[len(lead):]) for p in params]


def _make_pdf(dist, names, log_density):
    name = '_random_pdf_' + dist

    def op(sample, *params, is_log):
        params = _pdf_params(name, sample, params, 0)
        work = jnp.promote_types(sample.dtype, jnp.float32)
        out = log_density(sample.astype(work), *[p.astype(work) for p in params])
        return (out if is_log else jnp.exp(out)).astype(sample.dtype)
    op.__name__ = name
    op.__doc__ = 'The %s density (log density with is_log) of each sample.' % dist.replace('_', ' ')
    register(name, inputs=('sample',) + names, aliases=('random_pdf_' + dist,),
             params=[P('is_log', 'bool', False)])(op)


for _dist, (_names, _log_density) in _LOG_DENSITIES.items():
    _make_pdf(_dist, _names, _log_density)


@register('_random_pdf_dirichlet', inputs=('sample', 'alpha'), aliases=('random_pdf_dirichlet',),
          params=[P('is_log', 'bool', False)])
def random_pdf_dirichlet(sample, alpha, *, is_log):
    """The Dirichlet density of each sample on the simplex (the last axis, of alpha's length)."""
    if alpha.ndim < 1 or sample.shape[-1:] != alpha.shape[-1:]:
        raise MXNetError('_random_pdf_dirichlet: sample %s and alpha %s must end in the same axis'
                         % (shape_str(sample.shape), shape_str(alpha.shape)))
    (a,) = _pdf_params('_random_pdf_dirichlet', sample, (alpha,), 1)
    work = jnp.promote_types(sample.dtype, jnp.float32)
    x, a = sample.astype(work), a.astype(work)
    out = (jnp.sum((a - 1) * jnp.log(x), axis=-1) + gammaln(jnp.sum(a, axis=-1))
           - jnp.sum(gammaln(a), axis=-1))
    return (out if is_log else jnp.exp(out)).astype(sample.dtype)


@register('_sample_unique_zipfian', inputs=(), creation=True, random=True, optimised_at_once=True, num_outputs=2,
          params=[P('range_max', 'int'), P('shape', 'shape', ())])
def sample_unique_zipfian(*, range_max, shape, _key):
    """For each row of ``shape`` (batch, n): n distinct classes of [0, range_max) drawn from the
    log-uniform distribution, drawing again on a repeat; returns the classes and, per row, the
    number of draws it took (both int64)."""
    if len(shape) != 2 or range_max < 1 or not 0 < shape[1] <= range_max:
        raise MXNetError('_sample_unique_zipfian: shape must be (batch, n) with 0 < n <= range_max (%d), got %s'
                         % (range_max, shape_str(shape)))
    batch, n = shape
    log_range = jnp.log(jnp.float64(range_max + 1))

    def row(key):
        def draw(state):
            seen, count, trials, out, key = state
            key, sub = jax.random.split(key)
            c = (jnp.exp(jax.random.uniform(sub, (), jnp.float64) * log_range) - 1).astype(jnp.int64) % range_max
            new = ~seen[c]
            out = out.at[count].set(jnp.where(new, c, out[count]))
            return seen.at[c].set(True), count + new, trials + 1, out, key
        start = (jnp.zeros(range_max, bool), jnp.int64(0), jnp.int64(0), jnp.zeros(n, jnp.int64), key)
        _, _, trials, out, _ = lax.while_loop(lambda s: s[1] < n, draw, start)
        return out, trials
    # rows one after the other: under vmap every draw would select over all rows' seen-sets
    return lax.map(row, jax.random.split(_key, batch))


# ---- NumPy's samplers (mx.np.random) with gradients ---------------------------------------
# Each distribution parameter is a number (an operator parameter) or an array (an input, in
# parameter order: input1, input2), broadcast against ``size``. A sample is a differentiable
# function of its parameters and of parameter-free noise, so unlike ``_sample_*`` the gradient
# reaches array parameters (the pathwise gradient MXNet's ``_npi_*`` samplers give).

def _unit_exponential(key, shape, dtype):
    return -jnp.log1p(-jax.random.uniform(key, shape, dtype))


_NP_SAMPLERS = {
    'normal': (('loc', 'scale'), lambda key, shape, dtype, loc, scale: loc + scale * jax.random.normal(key, shape, dtype)),
    'exponential': (('scale',), lambda key, shape, dtype, scale: scale * _unit_exponential(key, shape, dtype)),
    'rayleigh': (('scale',), lambda key, shape, dtype, scale: scale * jnp.sqrt(2 * _unit_exponential(key, shape, dtype))),
    'weibull': (('a',), lambda key, shape, dtype, a: _unit_exponential(key, shape, dtype) ** (1 / a)),
    'pareto': (('a',), lambda key, shape, dtype, a: jnp.expm1(_unit_exponential(key, shape, dtype) / a)),
    'logistic': (('loc', 'scale'), lambda key, shape, dtype, loc, scale: loc + scale * jax.random.logistic(key, shape, dtype)),
    'gumbel': (('loc', 'scale'), lambda key, shape, dtype, loc, scale: loc + scale * jax.random.gumbel(key, shape, dtype)),
    'power': (('a',), lambda key, shape, dtype, a: jnp.exp(-_unit_exponential(key, shape, dtype) / a)),
    'uniform': (('low', 'high'), lambda key, shape, dtype, low, high: low + (high - low) * jax.random.uniform(key, shape, dtype)),
    # jax's gamma samples carry the implicit reparameterisation gradient in the shape
    'gamma': (('shape', 'scale'), lambda key, size, dtype, shape, scale: scale * jax.random.gamma(key, shape, size, dtype)),
}


# MXNet's sampler names where they are not _npi_<dist> (its _npi_power is np.power of two arrays).
_SAMPLER_NAMES = {'power': '_npi_powerd'}


def _np_sampler(dist, names, sample, batch=False):
    """Registers ``_npi_<dist>``: samples of shape ``size`` (the parameters' broadcast shape when
    None); with ``batch``, ``_npi_<dist>_n``: ``size`` samples of that shape (shape size + it)."""
    name = _SAMPLER_NAMES.get(dist, '_npi_' + dist) + ('_n' if batch else '')

    def inputs(attrs):
        given = [n for n in names if attrs is None or attrs.get(n) is None]
        return tuple('input%d' % (i + 1) for i in range(len(given)))

    def op(*arrays, size, ctx, dtype, _key, **numbers):
        arrays = iter(arrays)
        dtype = _dtype(name, dtype)
        values = [next(arrays).astype(dtype) if numbers[n] is None else jnp.asarray(numbers[n], dtype) for n in names]
        try:
            shape = jnp.broadcast_shapes(*(v.shape for v in values))
            shape = tuple(size or ()) + shape if batch else shape if size is None else size
            values = [jnp.broadcast_to(v, shape) for v in values]
        except ValueError:
            raise MXNetError('%s: parameters of shapes %s do not broadcast to size %s'
                             % (name, ', '.join(shape_str(v.shape) for v in values), size)) from None
        return sample(_key, shape, dtype, *values).astype(dtype)
    op.__name__ = name
    op.__doc__ = ('Samples of the %s distribution (%s: numbers or arrays), of shape ``size`` or the parameters\' '
                  'broadcast shape; differentiable in array parameters.' % (dist, ', '.join(names)))
    register(name, inputs=inputs, random=True, optimised_at_once=True,
             params=[P(n, 'float', None, optional=True) for n in names]
             + [P('size', 'shape', None, optional=True), P('ctx', 'str', ''), P('dtype', 'dtype', None, optional=True)])(op)


for _dist, (_names, _sample) in _NP_SAMPLERS.items():
    _np_sampler(_dist, _names, _sample)
for _dist in ('uniform', 'normal'):
    _np_sampler(_dist, *_NP_SAMPLERS[_dist], batch=True)


@register('_npi_multivariate_normal', inputs=('mean', 'cov'), random=True, optimised_at_once=True,
          params=[P('size', 'shape', None, optional=True)])
def np_multivariate_normal(mean, cov, *, size, _key):
    """Samples of N(mean, cov) for the broadcast batch of means (..., k) and covariances
    (..., k, k): mean + L z with L the Cholesky factor of cov; shape size + batch + (k,)."""
    k = mean.shape[-1] if mean.ndim else 0
    if mean.ndim < 1 or cov.ndim < 2 or cov.shape[-2:] != (k, k):
        raise MXNetError('_npi_multivariate_normal: mean (..., k) and cov (..., k, k) are required, got %s and %s'
                         % (shape_str(mean.shape), shape_str(cov.shape)))
    batch = jnp.broadcast_shapes(mean.shape[:-1], cov.shape[:-2])
    shape = tuple(size or ()) + batch + (k,)
    work = jnp.promote_types(mean.dtype, jnp.float32)  # float16 has no Cholesky factorisation
    factor = jnp.linalg.cholesky(cov.astype(work))
    z = jax.random.normal(_key, shape, work)
    return (mean.astype(work) + jnp.einsum('...ij,...j->...i', factor, z)).astype(mean.dtype)


def _bernoulli_inputs(attrs):
    given = attrs is None or (attrs.get('prob') is None and attrs.get('logit') is None)
    return ('input1',) if given else ()


@register('_npi_bernoulli', inputs=_bernoulli_inputs, random=True, optimised_at_once=True,
          params=[P('prob', 'float', None, optional=True), P('logit', 'float', None, optional=True),
                  P('size', 'shape', None, optional=True), P('ctx', 'str', ''),
                  P('dtype', 'dtype', None, optional=True), P('is_logit', 'bool', False)])
def np_bernoulli(*arrays, prob, logit, size, ctx, dtype, is_logit, _key):
    """0/1 samples that are 1 with probability ``prob`` (or sigmoid(``logit``) when ``is_logit``):
    a number, or the array input broadcast against ``size``."""
    number = logit if is_logit else prob
    value = arrays[0].astype(jnp.float32) if arrays else jnp.asarray(number, jnp.float32)
    if is_logit:
        value = jax.nn.sigmoid(value)
    shape = value.shape if size is None else tuple(size)
    try:
        value = jnp.broadcast_to(value, shape)
    except ValueError:
        raise MXNetError('_npi_bernoulli: the probability of shape %s does not broadcast to size %s'
                         % (shape_str(value.shape), shape_str(shape))) from None
    return (jax.random.uniform(_key, shape, jnp.float32) < value).astype(dtype or jnp.float32)


def _choice_inputs(attrs):
    """The population as an array (when ``a`` is not a number) and the weights (when weighted)."""
    if attrs is None:
        return ('input1', 'input2')
    return (('input1',) if attrs.get('a') is None else ()) + (('input2',) if attrs.get('weighted') else ())


@register('_npi_choice', inputs=_choice_inputs, random=True, optimised_at_once=True,
          params=[P('a', 'int', None, optional=True), P('size', 'shape', None, optional=True), P('ctx', 'str', ''),
                  P('replace', 'bool', True), P('weighted', 'bool', False)])
def np_choice(*arrays, a, size, ctx, replace, weighted, _key):
    """int64 indices into a population of ``a`` (or of the first input's length), drawn uniformly
    or with the weights input, with or without replacement; np.random.choice takes them from the
    population."""
    n = a if a is not None else arrays[0].shape[0]
    shape = (1,) if size is None else tuple(size)
    count = math.prod(shape)
    if n <= 0 or (not replace and count > n):
        raise MXNetError('_npi_choice: cannot take %d samples from a population of %d%s'
                         % (count, n, '' if replace else ' without replacement'))
    if weighted:
        logits = jnp.log(arrays[-1].astype(jnp.float64))
        if arrays[-1].shape != (n,):
            raise MXNetError('_npi_choice: weights of shape %s for a population of %d'
                             % (shape_str(arrays[-1].shape), n))
    else:
        logits = jnp.zeros((n,), jnp.float64)
    if replace:
        idx = jax.random.categorical(_key, logits, shape=shape)
    else:  # the largest Gumbel-perturbed log-weights: weighted sampling without replacement
        perturbed = logits + jax.random.gumbel(_key, (n,), jnp.float64)
        idx = jnp.argsort(-perturbed)[:count].reshape(shape)
    return idx.astype(jnp.int64)
