"""Helpers of the Straight Dope compat scripts (sweep_sd_*; a module, not a script: `_` names are
skipped): deterministic arrays and weights in place of the book's random draws, rounded printing."""
import numpy as onp
import mxnet as mx

nd = mx.nd


def pat(shape, k=0, scale=0.5, offset=0.0):
    """A fixed float32 NDArray of `shape` (a sine pattern), standing in for nd.random_normal."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    n = int(onp.prod(shape)) if shape else 1
    return nd.array((onp.sin(onp.arange(n) * 0.37 + k) * scale + offset).reshape(shape))


def fill(params, scale=0.3):
    """Set every parameter of a ParameterDict to a fixed pattern (variances and gammas positive)."""
    for k, name in enumerate(sorted(params.keys())):
        p = params[name]
        v = pat(p.shape, k, scale)
        if name.endswith(('running_var', 'gamma')):
            v = nd.abs(v) + 0.5
        p.set_data(v)


def r(x, n=4):
    """Values rounded to n decimals as a list (or a float)."""
    if hasattr(x, 'asnumpy'):
        x = x.asnumpy()
    a = onp.round(onp.asarray(x, dtype=onp.float64), n) + 0.0
    return a.tolist()


def show(name, x, n=4, k=8):
    """A name, an NDArray's shape and dtype, and its first k values rounded."""
    print(name, x.shape, onp.dtype(x.dtype).name, r(x, n) if x.size <= k else r(x.reshape((-1,))[:k], n))


def attempt(f):
    try:
        out = f()
        print('ok', out if not hasattr(out, 'shape') else out.shape)
    except Exception as e:
        print(type(e).__name__)
