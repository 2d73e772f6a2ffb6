"""``mx.nd.contrib``: the table's ``_contrib_*`` operators under their short names, and the
control-flow functions foreach, while_loop and cond."""
from ..ops._frontend import populate as _populate
from ._control_flow import foreach, while_loop, cond  # noqa: F401
from ._gen import make_function as _make_function

_populate(globals(), _make_function, ('_contrib_',))


# MXNet's contrib isinf/isfinite/isnan are Python compositions of table operators, not
# operators of their own; like comparisons they give 0/1 in the input's dtype.
def isinf(data):
    """1 where ``data`` is +inf or -inf, else 0 (in ``data``'s dtype)."""
    return data.abs() == float('inf')


def isfinite(data):
    """1 where ``data`` is neither inf nor NaN, else 0 (in ``data``'s dtype)."""
    return (data == data) * (data.abs() != float('inf'))


def isnan(data):
    """1 where ``data`` is NaN, else 0 (in ``data``'s dtype)."""
    return data != data


# MXNet's contrib AdamW functions: Python front ends of the _adamw_update operators that take
# rescale_grad as a number or a one-element array (the operators read it as an array input).
def _rescale_array(rescale_grad, like):
    from .ndarray import NDArray, array
    if isinstance(rescale_grad, NDArray):
        return rescale_grad
    return array([rescale_grad], ctx=like.context, dtype='float32')


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """AdamW step: mean and var are updated in place, the new weight goes to ``out``."""
    from ._internal import _adamw_update
    return _adamw_update(weight, grad, mean, var, _rescale_array(rescale_grad, weight), lr=lr, eta=eta,
                         beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd, clip_gradient=clip_gradient,
                         out=out, name=name, **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                    epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """adamw_update on the float32 master copy ``weight32`` (updated in place)."""
    from ._internal import _mp_adamw_update
    return _mp_adamw_update(weight, grad, mean, var, weight32, _rescale_array(rescale_grad, weight), lr=lr,
                            eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                            clip_gradient=clip_gradient, out=out, name=name, **kwargs)


def _multi_update(update, columns, rescale_grad, lrs, wds, etas, out, size, kwargs):
    """One ``update`` per weight (column i of ``columns``), each with its lr, wd and eta;
    ``out`` is the list of arrays that receive the new weights."""
    size = size or len(columns[0])
    outs = list(out) if out is not None else [None] * size
    results = [update(*(col[i] for col in columns), rescale_grad, lr=lrs[i], wd=wds[i], eta=etas[i],
                      out=outs[i], **kwargs) for i in range(size)]
    return results if out is None else out


def multi_adamw_update(weights, grads, mean, var, rescale_grad, lrs, wds, etas, out=None, name=None,
                       size=0, **kwargs):
    """adamw_update for each weight in turn (one operator call per weight, not one fused kernel)."""
    return _multi_update(adamw_update, (weights, grads, mean, var), rescale_grad, lrs, wds, etas, out,
                         size, kwargs)


def multi_mp_adamw_update(weights, grads, mean, var, weights32, rescale_grad, lrs, wds, etas, out=None,
                          name=None, size=0, **kwargs):
    """mp_adamw_update for each weight in turn."""
    return _multi_update(mp_adamw_update, (weights, grads, mean, var, weights32), rescale_grad, lrs, wds,
                         etas, out, size, kwargs)
