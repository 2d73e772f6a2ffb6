"""Helpers of the `sweep_ex_gluon_*` scripts (MXNet 1.9's example/gluon programs on tiny data):
deterministic parameter values and rounded printing (a module, not a script: `_` names are skipped)."""
import numpy as onp
import mxnet as mx

nd = mx.nd


def pattern(shape, k, scale=0.3):
    """A fixed array of `shape`, different for each k, values in [-scale, scale]."""
    n = int(onp.prod(shape)) if len(shape) else 1
    v = onp.sin(onp.arange(n, dtype='float64') * 0.7 + 1.3 * k + 0.1) * scale
    return v.reshape(shape).astype('float32')


def fill(params, scale=0.3, seed=0):
    """Set every parameter (sorted by name) to a fixed pattern; variances and gammas positive."""
    if hasattr(params, 'collect_params'):
        params = params.collect_params()
    for k, (name, p) in enumerate(sorted(params.items())):
        v = pattern(p.shape, k + seed, scale)
        if name.endswith(('running_var', 'gamma')):
            v = onp.abs(v) + 0.5
        p.set_data(nd.array(v, dtype=p.dtype))


def r(x, d=4):
    """A value rounded for printing: NDArrays as lists, numbers as floats."""
    if isinstance(x, (list, tuple)):
        return [r(y, d) for y in x]
    if isinstance(x, nd.NDArray):
        x = x.asnumpy()
    if isinstance(x, onp.ndarray):
        return (x.astype('float64').round(d) + 0).tolist()
    if isinstance(x, (float, onp.floating)):
        return round(float(x), d) + 0
    return x


def show(label, x, d=4):
    if isinstance(x, nd.NDArray):
        print(label, x.dtype.__name__, x.shape, r(x, d))
    else:
        print(label, r(x, d))


def attempt(label, f):
    try:
        out = f()
    except Exception as e:  # the type name only: MXNet's messages carry C++ stack traces
        print(label, 'raises', type(e).__name__)
    else:
        show(label, out)


def params_of(block):
    for name, p in sorted(block.collect_params().items()):
        print(' ', name, p.shape, onp.dtype(p.dtype).name, p.grad_req)
