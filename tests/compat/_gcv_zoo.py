"""Helpers of the sweep_gcv_* model-zoo scripts: build a GluonCV network without downloads and
print what a user sees of it (output shapes and dtypes, parameter counts and names)."""
import numpy as np
import mxnet as mx
from gluoncv import model_zoo


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def shapes(out):
    if isinstance(out, (list, tuple)):
        return [shapes(o) for o in out]
    return '%s %s' % (out.shape, np.dtype(out.dtype).name)


def describe(net, names=3):
    """Parameter count, element count and a few sorted names of an initialised network."""
    params = net.collect_params()
    keys = sorted(params.keys())
    size = sum(int(np.prod(p.shape)) for p in params.values())
    print('  params', len(keys), size, keys[:names], keys[-2:])
    grads = sorted({p.grad_req for p in params.values()})
    print('  grad_req', grads, 'dtypes', sorted({np.dtype(p.dtype).name for p in params.values()}))


def run(name, shape, hybridize=True, **kwargs):
    """get_model(name) initialised, run once on a constant input of ``shape``; its outputs."""
    net = model_zoo.get_model(name, pretrained=False, **kwargs)
    net.initialize(mx.init.Xavier())
    if hybridize:
        net.hybridize()
    out = net(mx.nd.ones(shape) * 0.5)
    print(name, type(net).__name__, shapes(out))
    describe(net)
    return net, out
