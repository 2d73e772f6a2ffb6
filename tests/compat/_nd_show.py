"""show/attempt of the operator sweep scripts: an NDArray as its dtype, shape and values to 4
decimals (a module, not a script: `_` names are skipped)."""
import mxnet as mx

nd = mx.nd


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    elif isinstance(x, nd.NDArray):
        print(x.dtype.__name__, x.shape, (x.asnumpy().round(4) + 0).tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)
