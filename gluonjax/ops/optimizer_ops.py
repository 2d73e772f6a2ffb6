"""MXNet's optimizer update operators (``mx.nd.sgd_update``, ``adam_update``, ...).

Each takes the weight, its gradient and the optimizer's state arrays and returns the new weight;
the new states are written into the state arrays in place (MXNet's FMutateInputs, the table's
``mutate_inputs``), and ``out=weight`` writes the weight in place too, as optimizers call them.

The gradient is ``g = clip(rescale_grad * grad)``, clipped to [-clip_gradient, clip_gradient]
only when clip_gradient >= 0 (MXNet's default -1 means no clipping).
"""
import jax.numpy as jnp

from ..base import MXNetError, shape_str
from ._registry import P, register

_COMMON = [P('wd', 'float', 0.0), P('rescale_grad', 'float', 1.0), P('clip_gradient', 'float', -1.0)]


def _grad(op, weight, grad, rescale_grad, clip_gradient, *states):
    for name, array in (('grad', grad),) + tuple(('state %d' % i, s) for i, s in enumerate(states)):
        if array.shape != weight.shape:
            raise MXNetError('%s: %s has shape %s, the weight %s' % (op, name, shape_str(array.shape),
                                                                   shape_str(weight.shape)))
    g = rescale_grad * grad
    return jnp.clip(g, -clip_gradient, clip_gradient) if clip_gradient >= 0 else g


def _clip_weight(weight, clip_weights):
    return jnp.clip(weight, -clip_weights, clip_weights) if clip_weights >= 0 else weight


@register('sgd_update', inputs=('weight', 'grad'),
          params=[P('lr', 'float')] + _COMMON + [P('lazy_update', 'bool', True)])
def sgd_update(weight, grad, *, lr, wd, rescale_grad, clip_gradient, lazy_update):
    """weight = (1 - lr * wd) * weight - lr * g."""
    g = _grad('sgd_update', weight, grad, rescale_grad, clip_gradient)
    return ((1 - lr * wd) * weight - lr * g).astype(weight.dtype)


@register('sgd_mom_update', inputs=('weight', 'grad', 'mom'), mutate_inputs=('mom',),
          params=[P('lr', 'float'), P('momentum', 'float', 0.0)] + _COMMON + [P('lazy_update', 'bool', True)])
def sgd_mom_update(weight, grad, mom, *, lr, momentum, wd, rescale_grad, clip_gradient, lazy_update):
    """mom = momentum * mom - lr * wd * weight - lr * g; weight = weight + mom."""
    g = _grad('sgd_mom_update', weight, grad, rescale_grad, clip_gradient, mom)
    mom = momentum * mom - (lr * wd) * weight - lr * g
    return (weight + mom).astype(weight.dtype), mom.astype(weight.dtype)


@register('nag_mom_update', inputs=('weight', 'grad', 'mom'), mutate_inputs=('mom',),
          params=[P('lr', 'float'), P('momentum', 'float', 0.0)] + _COMMON)
def nag_mom_update(weight, grad, mom, *, lr, momentum, wd, rescale_grad, clip_gradient):
    """Nesterov momentum: g' = g + wd * weight; mom = momentum * mom - lr * g';
    weight = weight + momentum * mom - lr * g'. (MXNet's kernel, called with out=weight, reads
    the weight it has just written when it computes mom; the momentum here uses the weight given.)"""
    g = _grad('nag_mom_update', weight, grad, rescale_grad, clip_gradient, mom) + wd * weight
    mom = momentum * mom - lr * g
    return (weight + momentum * mom - lr * g).astype(weight.dtype), mom.astype(weight.dtype)


@register('signsgd_update', inputs=('weight', 'grad'), params=[P('lr', 'float')] + _COMMON)
def signsgd_update(weight, grad, *, lr, wd, rescale_grad, clip_gradient):
    """weight = (1 - lr * wd) * weight - lr * sign(g)."""
    g = _grad('signsgd_update', weight, grad, rescale_grad, clip_gradient)
    return ((1 - lr * wd) * weight - lr * jnp.sign(g)).astype(weight.dtype)


@register('signum_update', inputs=('weight', 'grad', 'mom'), mutate_inputs=('mom',),
          params=[P('lr', 'float'), P('momentum', 'float', 0.0)] + _COMMON + [P('wd_lh', 'float', 0.0)])
def signum_update(weight, grad, mom, *, lr, momentum, wd, rescale_grad, clip_gradient, wd_lh):
    """mom = momentum * mom - (1 - momentum) * (wd * weight + g);
    weight = (1 - lr * wd_lh) * weight + lr * sign(mom)."""
    g = _grad('signum_update', weight, grad, rescale_grad, clip_gradient, mom)
    mom = momentum * mom - (1 - momentum) * (wd * weight + g)
    return ((1 - lr * wd_lh) * weight + lr * jnp.sign(mom)).astype(weight.dtype), mom.astype(weight.dtype)


@register('adam_update', inputs=('weight', 'grad', 'mean', 'var'), mutate_inputs=('mean', 'var'),
          params=[P('lr', 'float'), P('beta1', 'float', 0.9), P('beta2', 'float', 0.999),
                  P('epsilon', 'float', 1e-8)] + _COMMON + [P('lazy_update', 'bool', True)])
def adam_update(weight, grad, mean, var, *, lr, beta1, beta2, epsilon, wd, rescale_grad, clip_gradient,
                lazy_update):
    """g' = g + wd * weight; mean and var move towards g' and g'**2;
    weight = weight - lr * mean / (sqrt(var) + epsilon) (bias correction is the caller's, in lr)."""
    g = _grad('adam_update', weight, grad, rescale_grad, clip_gradient, mean, var) + wd * weight
    mean = beta1 * mean + (1 - beta1) * g
    var = beta2 * var + (1 - beta2) * jnp.square(g)
    new = weight - lr * mean / (jnp.sqrt(var) + epsilon)
    return new.astype(weight.dtype), mean.astype(weight.dtype), var.astype(weight.dtype)


@register('rmsprop_update', inputs=('weight', 'grad', 'n'), mutate_inputs=('n',),
          params=[P('lr', 'float'), P('gamma1', 'float', 0.95), P('epsilon', 'float', 1e-8)] + _COMMON
          + [P('clip_weights', 'float', -1.0)])
def rmsprop_update(weight, grad, n, *, lr, gamma1, epsilon, wd, rescale_grad, clip_gradient, clip_weights):
    """g' = g + wd * weight; n = (1 - gamma1) * g'**2 + gamma1 * n;
    weight = clip(weight - lr * g' / sqrt(n + epsilon), clip_weights)."""
    g = _grad('rmsprop_update', weight, grad, rescale_grad, clip_gradient, n) + wd * weight
    n = (1 - gamma1) * jnp.square(g) + gamma1 * n
    new = _clip_weight(weight - lr * g / jnp.sqrt(n + epsilon), clip_weights)
    return new.astype(weight.dtype), n.astype(weight.dtype)


@register('rmspropalex_update', inputs=('weight', 'grad', 'n', 'g', 'delta'), mutate_inputs=('n', 'g', 'delta'),
          params=[P('lr', 'float'), P('gamma1', 'float', 0.95), P('gamma2', 'float', 0.9),
                  P('epsilon', 'float', 1e-8)] + _COMMON + [P('clip_weights', 'float', -1.0)])
def rmspropalex_update(weight, grad, n, g, delta, *, lr, gamma1, gamma2, epsilon, wd, rescale_grad, clip_gradient,
                       clip_weights):
    """RMSProp with momentum (Graves, 2013): n and g average grad'**2 and grad';
    delta = gamma2 * delta - lr * grad' / sqrt(n - g**2 + epsilon); weight = clip(weight + delta)."""
    grad = _grad('rmspropalex_update', weight, grad, rescale_grad, clip_gradient, n, g, delta) + wd * weight
    n = (1 - gamma1) * jnp.square(grad) + gamma1 * n
    g = (1 - gamma1) * grad + gamma1 * g
    delta = gamma2 * delta - lr * grad / jnp.sqrt(n - jnp.square(g) + epsilon)
    new = _clip_weight(weight + delta, clip_weights)
    return tuple(x.astype(weight.dtype) for x in (new, n, g, delta))


@register('ftrl_update', inputs=('weight', 'grad', 'z', 'n'), mutate_inputs=('z', 'n'),
          params=[P('lr', 'float'), P('lamda1', 'float', 0.01), P('beta', 'float', 1.0)] + _COMMON)
def ftrl_update(weight, grad, z, n, *, lr, lamda1, beta, wd, rescale_grad, clip_gradient):
    """Follow the regularised leader (McMahan et al., 2013): z += g - (sqrt(n + g**2) - sqrt(n)) *
    weight / lr; n += g**2; weight = (sign(z) * lamda1 - z) / ((beta + sqrt(n)) / lr + wd) where
    |z| > lamda1, else 0."""
    g = _grad('ftrl_update', weight, grad, rescale_grad, clip_gradient, z, n)
    z = z + g - (jnp.sqrt(n + jnp.square(g)) - jnp.sqrt(n)) * weight / lr
    n = n + jnp.square(g)
    new = jnp.where(jnp.abs(z) > lamda1, (jnp.sign(z) * lamda1 - z) / ((beta + jnp.sqrt(n)) / lr + wd), 0)
    return new.astype(weight.dtype), z.astype(weight.dtype), n.astype(weight.dtype)


@register('ftml_update', inputs=('weight', 'grad', 'd', 'v', 'z'), mutate_inputs=('d', 'v', 'z'),
          params=[P('lr', 'float'), P('beta1', 'float', 0.6), P('beta2', 'float', 0.999), P('epsilon', 'float', 1e-8),
                  P('t', 'int'), P('wd', 'float', 0.0), P('rescale_grad', 'float', 1.0),
                  P('clip_grad', 'float', -1.0)])
def ftml_update(weight, grad, d, v, z, *, lr, beta1, beta2, epsilon, t, wd, rescale_grad, clip_grad):
    """Follow the moving leader (Zheng & Kwok, 2017) at step ``t``; the weight decay is added to
    the gradient before clipping (clip_grad), unlike the other updates."""
    g = _grad('ftml_update', weight, grad + (wd / rescale_grad) * weight, rescale_grad, clip_grad, d, v, z)
    v = beta2 * v + (1 - beta2) * jnp.square(g)
    d_t = (1 - beta1 ** t) / lr * (jnp.sqrt(v / (1 - beta2 ** t)) + epsilon)
    z = beta1 * z + (1 - beta1) * g - (d_t - beta1 * d) * weight
    return tuple(x.astype(weight.dtype) for x in (-z / d_t, d_t, v, z))


# ---- multi-precision SGD: a float32 master copy (weight32) of float16 weights ------------------------
# The step runs on weight32 with the gradient in float32; the new weight32 is stored in place and
# the weight output is its value in the weight's dtype.

_MP_PARAMS = [P('lr', 'float')]


def _mp_grad(op, weight, grad, weight32, rescale_grad, clip_gradient, *states):
    if weight32.shape != weight.shape:
        raise MXNetError('%s: weight32 has shape %s, the weight %s' % (op, shape_str(weight32.shape),
                                                                     shape_str(weight.shape)))
    return _grad(op, weight, grad.astype(jnp.float32), rescale_grad, clip_gradient, *states)


@register('mp_sgd_update', inputs=('weight', 'grad', 'weight32'), mutate_inputs=('weight32',),
          params=[P('lr', 'float')] + _COMMON + [P('lazy_update', 'bool', True)])
def mp_sgd_update(weight, grad, weight32, *, lr, wd, rescale_grad, clip_gradient, lazy_update):
    """sgd_update on the float32 master weight32."""
    g = _mp_grad('mp_sgd_update', weight, grad, weight32, rescale_grad, clip_gradient)
    master = (1 - lr * wd) * weight32 - lr * g
    return master.astype(weight.dtype), master.astype(weight32.dtype)


@register('mp_sgd_mom_update', inputs=('weight', 'grad', 'mom', 'weight32'), mutate_inputs=('mom', 'weight32'),
          params=[P('lr', 'float'), P('momentum', 'float', 0.0)] + _COMMON + [P('lazy_update', 'bool', True)])
def mp_sgd_mom_update(weight, grad, mom, weight32, *, lr, momentum, wd, rescale_grad, clip_gradient, lazy_update):
    """sgd_mom_update on the float32 master weight32 (mom is float32 too)."""
    g = _mp_grad('mp_sgd_mom_update', weight, grad, weight32, rescale_grad, clip_gradient, mom)
    mom = momentum * mom - (lr * wd) * weight32 - lr * g
    master = weight32 + mom
    return master.astype(weight.dtype), mom.astype(jnp.float32), master.astype(weight32.dtype)


@register('mp_nag_mom_update', inputs=('weight', 'grad', 'mom', 'weight32'), mutate_inputs=('mom', 'weight32'),
          params=[P('lr', 'float'), P('momentum', 'float', 0.0)] + _COMMON)
def mp_nag_mom_update(weight, grad, mom, weight32, *, lr, momentum, wd, rescale_grad, clip_gradient):
    """nag_mom_update on the float32 master weight32 (mom is float32 too)."""
    g = _mp_grad('mp_nag_mom_update', weight, grad, weight32, rescale_grad, clip_gradient, mom) + wd * weight32
    mom = momentum * mom - lr * g
    master = weight32 + momentum * mom - lr * g
    return master.astype(weight.dtype), mom.astype(jnp.float32), master.astype(weight32.dtype)


# ---- LAMB (You et al., 2019), in MXNet's two phases ----------------------------------------------------

@register('lamb_update_phase1', inputs=('weight', 'grad', 'mean', 'var'), mutate_inputs=('mean', 'var'),
          params=[P('beta1', 'float', 0.9), P('beta2', 'float', 0.999), P('epsilon', 'float', 1e-6), P('t', 'int'),
                  P('bias_correction', 'bool', True), P('wd', 'float'), P('rescale_grad', 'float', 1.0),
                  P('clip_gradient', 'float', -1.0)])
def lamb_update_phase1(weight, grad, mean, var, *, beta1, beta2, epsilon, t, bias_correction, wd, rescale_grad,
                       clip_gradient):
    """The Adam direction of LAMB at step ``t``: mean and var move towards g and g**2 (in place);
    returns mean' / (sqrt(var') + epsilon) + wd * weight, with mean' and var' bias-corrected
    when ``bias_correction``."""
    g = _grad('lamb_update_phase1', weight, grad, rescale_grad, clip_gradient, mean, var)
    mean = beta1 * mean + (1 - beta1) * g
    var = beta2 * var + (1 - beta2) * jnp.square(g)
    mean_hat, var_hat = mean, var
    if bias_correction:
        mean_hat, var_hat = mean / (1 - beta1 ** t), var / (1 - beta2 ** t)
    direction = mean_hat / (jnp.sqrt(var_hat) + epsilon) + wd * weight
    return direction.astype(weight.dtype), mean.astype(weight.dtype), var.astype(weight.dtype)


@register('lamb_update_phase2', inputs=('weight', 'g', 'r1', 'r2'),
          params=[P('lr', 'float'), P('lower_bound', 'float', -1.0), P('upper_bound', 'float', -1.0)])
def lamb_update_phase2(weight, g, r1, r2, *, lr, lower_bound, upper_bound):
    """weight - lr * (r1 / r2) * g with the trust ratio of the weight's norm r1 (clipped to
    [lower_bound, upper_bound] where those are >= 0) and the direction's norm r2; 1 when
    either norm is 0."""
    if r1.size != 1 or r2.size != 1:
        raise MXNetError('lamb_update_phase2: r1 and r2 must hold one norm each, got %s and %s'
                         % (shape_str(r1.shape), shape_str(r2.shape)))
    r1, r2 = r1.reshape(()), r2.reshape(())
    if lower_bound >= 0:
        r1 = jnp.maximum(r1, lower_bound)
    if upper_bound >= 0:
        r1 = jnp.minimum(r1, upper_bound)
    ratio = jnp.where((r1 == 0) | (r2 == 0), 1, r1 / jnp.where(r2 == 0, 1, r2))
    return (weight - lr * ratio * g).astype(weight.dtype)


# ---- AdamW (decoupled weight decay; MXNet 1.9's contrib adamw_update family) ------------------------
# The rescale factor is an array input (a loss scaler's), and a factor that is 0, inf or NaN
# skips the update: every array keeps its value, as in MXNet, so an overflowed step does nothing.

_ADAMW = [P('beta1', 'float', 0.9), P('beta2', 'float', 0.999), P('epsilon', 'float', 1e-8),
          P('clip_gradient', 'float', -1.0)]


def _adamw_step(op, weight, grad, mean, var, rescale_grad, *, lr, eta, wd, beta1, beta2, epsilon, clip_gradient):
    """(new weight, mean, var) in the weight's dtype, or the old ones where the update is skipped."""
    if rescale_grad.size != 1:
        raise MXNetError('%s: rescale_grad must hold one value, got %s' % (op, shape_str(rescale_grad.shape)))
    scale = rescale_grad.reshape(()).astype(weight.dtype)
    g = _grad(op, weight, grad.astype(weight.dtype), scale, clip_gradient, mean, var)
    new_mean = beta1 * mean + (1 - beta1) * g
    new_var = beta2 * var + (1 - beta2) * jnp.square(g)
    new = weight - eta * (lr * new_mean / (jnp.sqrt(new_var) + epsilon) + wd * weight)
    run = jnp.isfinite(scale) & (scale != 0)
    return tuple(jnp.where(run, a, old).astype(old.dtype) for a, old in
                 ((new, weight), (new_mean, mean), (new_var, var)))


@register('_adamw_update', inputs=('weight', 'grad', 'mean', 'var', 'rescale_grad'), mutate_inputs=('mean', 'var'),
          params=[P('lr', 'float'), P('eta', 'float'), P('wd', 'float', 0.0)] + _ADAMW)
def adamw_update(weight, grad, mean, var, rescale_grad, *, lr, eta, wd, beta1, beta2, epsilon, clip_gradient):
    """AdamW: mean and var move towards g and g**2 (in place);
    weight - eta * (lr * mean / (sqrt(var) + epsilon) + wd * weight)."""
    return _adamw_step('adamw_update', weight, grad, mean, var, rescale_grad, lr=lr, eta=eta, wd=wd, beta1=beta1,
                       beta2=beta2, epsilon=epsilon, clip_gradient=clip_gradient)


@register('_mp_adamw_update', inputs=('weight', 'grad', 'mean', 'var', 'weight32', 'rescale_grad'),
          mutate_inputs=('mean', 'var', 'weight32'),
          params=[P('lr', 'float'), P('eta', 'float'), P('wd', 'float', 0.0)] + _ADAMW)
def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, *, lr, eta, wd, beta1, beta2, epsilon,
                    clip_gradient):
    """adamw_update on the float32 master weight32; the weight gets its value in its own dtype."""
    if weight32.shape != weight.shape:
        raise MXNetError('mp_adamw_update: weight32 has shape %s, the weight %s'
                         % (shape_str(weight32.shape), shape_str(weight.shape)))
    master, mean, var = _adamw_step('mp_adamw_update', weight32, grad, mean, var, rescale_grad, lr=lr, eta=eta,
                                    wd=wd, beta1=beta1, beta2=beta2, epsilon=epsilon, clip_gradient=clip_gradient)
    return master.astype(weight.dtype), mean, var, master


def _multi_names(per_weight, tail=('rescale_grad',)):
    """Input names of a multi-tensor update: ``per_weight`` arrays for each weight, then ``tail``
    (one weight's when the number is not known: ``attrs`` None)."""
    def names(attrs):
        count = 1 if attrs is None else int(attrs.get('num_weights', 1))
        return tuple('%s_%d' % (name, i) for i in range(count) for name in per_weight) + tuple(tail)
    return names


def _multi_mutated(states):
    return lambda attrs: tuple('%s_%d' % (name, i) for i in range(attrs['num_weights']) for name in states)


_MULTI_ADAMW = [P('num_weights', 'int', 1), P('lrs', 'floats'), P('wds', 'floats'), P('etas', 'floats')] + _ADAMW


def _multi_adamw(op, step, per_weight, arrays, num_weights, lrs, wds, etas, **common):
    if not len(lrs) == len(wds) == len(etas) == num_weights:
        raise MXNetError('%s: lrs, wds and etas need num_weights=%d values each, got %d, %d and %d'
                         % (op, num_weights, len(lrs), len(wds), len(etas)))
    groups = [arrays[i * per_weight:(i + 1) * per_weight] for i in range(num_weights)]
    results = [step(*group, arrays[-1], lr=lr, wd=wd, eta=eta, **common)
               for group, lr, wd, eta in zip(groups, lrs, wds, etas)]
    return tuple(r[0] for r in results) + tuple(a for r in results for a in r[1:])


_MULTI_ADAMW_INPUTS = _multi_names(('weight', 'grad', 'mean', 'var'))
_MULTI_MP_ADAMW_INPUTS = _multi_names(('weight', 'grad', 'mean', 'var', 'weight32'))


@register('_multi_adamw_update', inputs=_MULTI_ADAMW_INPUTS, call_inputs=_MULTI_ADAMW_INPUTS,
          mutate_inputs=_multi_mutated(('mean', 'var')), num_outputs=lambda attrs: attrs['num_weights'],
          params=_MULTI_ADAMW)
def multi_adamw_update(*arrays, num_weights, lrs, wds, etas, **common):
    """adamw_update of several weights in one call, each with its own lr, wd and eta."""
    return _multi_adamw('multi_adamw_update', adamw_update, 4, arrays, num_weights, lrs, wds, etas, **common)


@register('_multi_mp_adamw_update', inputs=_MULTI_MP_ADAMW_INPUTS, call_inputs=_MULTI_MP_ADAMW_INPUTS,
          mutate_inputs=_multi_mutated(('mean', 'var', 'weight32')), num_outputs=lambda attrs: attrs['num_weights'],
          params=_MULTI_ADAMW)
def multi_mp_adamw_update(*arrays, num_weights, lrs, wds, etas, **common):
    """mp_adamw_update of several weights in one call, each with its own lr, wd and eta."""
    return _multi_adamw('multi_mp_adamw_update', mp_adamw_update, 5, arrays, num_weights, lrs, wds, etas, **common)


# ---- SGD of several weights in one call (MXNet's aggregated updates: Optimizer.aggregate_num) ----------
# The inputs are each weight's arrays in turn (weight, grad[, mom][, weight32]); the outputs the new
# weights (``out=`` the weights, as the optimizer calls them) and the states are written in place.
# The "preloaded" forms take the learning rates and weight decays as two arrays after them.

def _multi_sgd(op, step, per_weight, arrays, num_weights, lrs, wds, **common):
    if len(arrays) != per_weight * num_weights:
        raise MXNetError('%s: num_weights=%d needs %d arrays (%d per weight), got %d'
                         % (op, num_weights, per_weight * num_weights, per_weight, len(arrays)))
    if not len(lrs) == len(wds) == num_weights:
        raise MXNetError('%s: lrs and wds need num_weights=%d values each, got %d and %d'
                         % (op, num_weights, len(lrs), len(wds)))
    results = []
    for i in range(num_weights):
        out = step(*arrays[i * per_weight:(i + 1) * per_weight], lr=lrs[i], wd=wds[i], **common)
        results.append(out if isinstance(out, tuple) else (out,))
    return tuple(r[0] for r in results) + tuple(a for r in results for a in r[1:])


def _preloaded(op, step, per_weight, arrays, num_weights, **common):
    """_multi_sgd with lrs and wds read from the last two arrays (traced, so new rates compile nothing)."""
    *arrays, lrs, wds = arrays
    for name, values in (('lrs', lrs), ('wds', wds)):
        if values.shape != (num_weights,):
            raise MXNetError('%s: %s must be a vector of num_weights=%d values, got shape %s'
                             % (op, name, num_weights, shape_str(values.shape)))
    return _multi_sgd(op, step, per_weight, arrays, num_weights, list(lrs), list(wds), **common)


def _sgd_as_momentum(weight, grad, **params):
    # MXNet's aggregated kernel runs plain SGD as momentum SGD from a zero momentum:
    # weight + (-lr * wd * weight - lr * g), rounded otherwise than sgd_update's (1 - lr * wd) * weight - lr * g
    return sgd_mom_update(weight, grad, jnp.zeros_like(weight), momentum=0.0, **params)[0]


def _mp_sgd_as_momentum(weight, grad, weight32, **params):
    new, _mom, master = mp_sgd_mom_update(weight, grad, jnp.zeros_like(weight32), weight32, momentum=0.0, **params)
    return new, master


_MULTI_SGD = [P('num_weights', 'int', 1), P('rescale_grad', 'float', 1.0), P('clip_gradient', 'float', -1.0)]
_MOMENTUM = [P('momentum', 'float', 0.0)]
_RATES = [P('lrs', 'floats'), P('wds', 'floats')]
# per form: (the one-weight update, its arrays per weight, the states it writes, its extra parameters)
_MULTI_SGD_FORMS = {
    'sgd': (_sgd_as_momentum, ('weight', 'grad'), (), []),
    'sgd_mom': (sgd_mom_update, ('weight', 'grad', 'mom'), ('mom',), _MOMENTUM),
    'mp_sgd': (_mp_sgd_as_momentum, ('weight', 'grad', 'weight32'), ('weight32',), []),
    'mp_sgd_mom': (mp_sgd_mom_update, ('weight', 'grad', 'mom', 'weight32'), ('mom', 'weight32'), _MOMENTUM),
}


def _register_multi_sgd(form, preloaded):
    step, per_weight, states, extra = _MULTI_SGD_FORMS[form]
    name = '%smulti_%s_update' % ('preloaded_' if preloaded else '', form)
    inputs = _multi_names(per_weight, ('lrs', 'wds') if preloaded else ())

    def update(*arrays, num_weights, **params):
        apply = _preloaded if preloaded else _multi_sgd
        return apply(name, step, len(per_weight), arrays, num_weights, lazy_update=False, **params)
    update.__name__ = name
    update.__doc__ = '%s_update of each of num_weights weights in one call, each with its own lr and wd%s.' % (
        form, ' (the arrays lrs and wds after the weights\' arrays)' if preloaded else '')
    register(name, inputs=inputs, call_inputs=inputs, mutate_inputs=_multi_mutated(states),
             num_outputs=lambda attrs: attrs['num_weights'],
             params=_MULTI_SGD + extra + ([] if preloaded else _RATES))(update)


for _form in _MULTI_SGD_FORMS:
    _register_multi_sgd(_form, preloaded=False)
    _register_multi_sgd(_form, preloaded=True)


@register('multi_lars', inputs=('lrs', 'weights_sum_sq', 'grads_sum_sq', 'wds'),
          params=[P('eta', 'float'), P('eps', 'float'), P('rescale_grad', 'float', 1.0)])
def multi_lars(lrs, weights_sum_sq, grads_sum_sq, wds, *, eta, eps, rescale_grad):
    """LARS learning rates (You et al., 2017) from per-weight squared norms (multi_sum_sq's):
    lr * eta * |w| / (|g| * rescale_grad + wd * |w| + eps), the lr unchanged where either norm is 0."""
    arrays = {'lrs': lrs, 'weights_sum_sq': weights_sum_sq, 'grads_sum_sq': grads_sum_sq, 'wds': wds}
    if len({a.shape for a in arrays.values()}) > 1:
        raise MXNetError('multi_lars: lrs, weights_sum_sq, grads_sum_sq and wds must share one shape, got %s'
                         % ', '.join('%s %s' % (n, shape_str(a.shape)) for n, a in arrays.items()))
    w, g = jnp.sqrt(weights_sum_sq), jnp.sqrt(grads_sum_sq)
    scaled = lrs * eta * w / (g * rescale_grad + wds * w + eps)
    return jnp.where((w > 0) & (g > 0), scaled, lrs).astype(lrs.dtype)


def _all_arrays(attrs):
    return tuple('arg%d' % i for i in range(int(attrs['num_arrays'])))


@register('reset_arrays', variadic=True, num_args_param='num_arrays', num_outputs=0,
          mutate_inputs=_all_arrays, params=[P('num_arrays', 'int', 1)])
def reset_arrays(*arrays, num_arrays):
    """Set every input array to zeros in place (MXNet's one-call gradient reset); no outputs."""
    if len(arrays) != num_arrays:
        raise MXNetError('reset_arrays: num_arrays is %d but %d arrays were given' % (num_arrays, len(arrays)))
    return tuple(jnp.zeros_like(a) for a in arrays)


@register('multi_sum_sq', variadic=True, num_args_param='num_arrays', params=[P('num_arrays', 'int', 1)])
def multi_sum_sq(*arrays, num_arrays):
    """The sum of squares of each input, as one float32 vector (num_arrays,): the per-array norms
    a global-norm clipping or LARS needs (GluonNLP's ``clip_grad_global_norm`` calls it). The
    inputs share one dtype; float16 ones are summed in float32."""
    op = 'multi_sum_sq'
    if len(arrays) != num_arrays:
        raise MXNetError('%s: num_arrays is %d but %d arrays were given' % (op, num_arrays, len(arrays)))
    if len({a.dtype for a in arrays}) > 1:
        raise MXNetError('%s: the arrays must share one dtype, got %s' % (op, ', '.join(str(a.dtype) for a in arrays)))
    return jnp.stack([jnp.sum(jnp.square(a.astype(jnp.float32))) for a in arrays])
