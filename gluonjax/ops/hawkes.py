"""The log likelihood of marked Hawkes processes with exponential kernels (``mx.nd.contrib.hawkesll``).

Each of K marks is a self-exciting process with intensity
``lda_k + alpha_k * beta_k * s_k(t)``, where the memory ``s_k(t)`` is the sum of
``exp(-beta_k (t - t_i))`` over earlier events of mark k (plus the carried-in ``state`` decayed
from time 0). One ``lax.scan`` walks the events; the compensator (the integral of the
intensity over ``(0, max_time]``) has a closed form: ``lda_k T + alpha_k (s_k(0) + n_k - s_k(T))``.
"""
import jax
import jax.numpy as jnp
from jax import lax

from ..base import MXNetError, shape_str
from ._registry import register


def _check_shapes(lda, alpha, beta, state, lags, marks, valid_length, max_time):
    n, k = lda.shape if lda.ndim == 2 else (None, None)
    expect = {'alpha': (alpha, (k,)), 'beta': (beta, (k,)), 'state': (state, (n, k)),
              'marks': (marks, lags.shape), 'valid_length': (valid_length, (n,)), 'max_time': (max_time, (n,))}
    bad = [name for name, (arr, shape) in expect.items() if arr.shape != shape]
    if n is None or lags.ndim != 2 or lags.shape[0] != n or bad:
        raise MXNetError('hawkesll: expected lda (N, K), alpha and beta (K,), state (N, K), lags and marks '
                         '(N, T), valid_length and max_time (N,); got lda %s alpha %s beta %s state %s lags %s '
                         'marks %s valid_length %s max_time %s'
                         % tuple(shape_str(a.shape) for a in (lda, alpha, beta, state, lags, marks,
                                                              valid_length, max_time)))


@register('_contrib_hawkesll', inputs=('lda', 'alpha', 'beta', 'state', 'lags', 'marks', 'valid_length',
                                       'max_time'), num_outputs=2)
def hawkesll(lda, alpha, beta, state, lags, marks, valid_length, max_time):
    """Log likelihood (N,) of N sequences of marked events, and the memory (N, K) at ``max_time``.

    ``lags`` (N, T) are the times between consecutive events, ``marks`` (N, T) their process ids,
    ``valid_length`` (N,) how many events of each row are real. As in MXNet, gradients reach
    ``lda``, ``alpha`` and ``beta`` only: the carried-in state and the returned memory are
    treated as constants.
    """
    _check_shapes(lda, alpha, beta, state, lags, marks, valid_length, max_time)
    dtype = lda.dtype
    state0 = lax.stop_gradient(state.astype(dtype))
    lags = lax.stop_gradient(lags.astype(dtype))
    max_time = lax.stop_gradient(max_time.astype(dtype))
    n_valid = lax.stop_gradient(valid_length).astype(jnp.int32)
    k = lda.shape[1]

    def event(carry, xs):
        now, last, memory, loglik, count = carry
        j, lag, mark = xs
        real = (j < n_valid)[:, None]
        now = now + jnp.where(real[:, 0], lag, 0)
        hit = (jax.nn.one_hot(mark, k, dtype=jnp.bool_)) & real
        decayed = memory * jnp.exp(-beta * (now[:, None] - last))
        intensity = jnp.sum(jnp.where(hit, lda + alpha * beta * decayed, 0), axis=1)
        loglik = loglik + jnp.where(real[:, 0], jnp.log(jnp.where(real[:, 0], intensity, 1)), 0)
        memory = jnp.where(hit, decayed + 1, memory)
        last = jnp.where(hit, now[:, None], last)
        return (now, last, memory, loglik, count + hit.astype(dtype)), None

    n = lda.shape[0]
    start = (jnp.zeros(n, dtype), jnp.zeros((n, k), dtype), state0, jnp.zeros(n, dtype), jnp.zeros((n, k), dtype))
    steps = (jnp.arange(lags.shape[1]), lags.T, marks.T.astype(jnp.int32))
    (_, last, memory, loglik, count), _ = lax.scan(event, start, steps)
    memory_end = memory * jnp.exp(-beta * (max_time[:, None] - last))
    compensator = jnp.sum(lda * max_time[:, None] + alpha * (state0 + count - memory_end), axis=1)
    return (loglik - compensator).astype(dtype), lax.stop_gradient(memory_end).astype(dtype)
