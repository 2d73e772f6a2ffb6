"""What the GluonTS scripts (``sweep_gts_*``) share: quiet GluonTS, fixed weights (the same numbers on every
framework, so trained losses and forecasts compare exactly), seeds, rounding, and four short daily series."""
import logging
import warnings

import numpy as np
import mxnet as mx
from gluonts.mx.trainer.callback import Callback

warnings.simplefilter('ignore')
logging.disable(logging.CRITICAL)


def ramp(shape):
    """Fixed values for a weight of ``shape``, scaled by its fan-in."""
    n = int(np.prod(shape))
    fan = shape[-1] if len(shape) > 1 else n
    return (((np.arange(n) * 5 % 11) - 5) / (5.0 * np.sqrt(fan))).reshape(shape)


class Ramp(mx.init.Initializer):
    """Fixed weights, the same numbers on every framework (biases stay zero)."""

    def _init_weight(self, name, arr):
        arr[:] = ramp(arr.shape)


def fixed(block, x):
    """Initializes ``block`` with fixed values, also where a layer names its own initializer (Xavier)."""
    block.initialize(Ramp())
    block(x)
    for p in block.collect_params().values():
        if p.grad_req != 'null':
            p.set_data(mx.nd.array(ramp(p.shape)) if p.name.endswith('weight') else mx.nd.zeros(p.shape))


class FixedWeights(Callback):
    """Sets every trainable parameter to fixed values after the first forward pass built the network."""

    def on_network_initializing_end(self, training_network):
        params = training_network.collect_params()
        for name in sorted(params):
            p = params[name]
            if p.grad_req == 'null':
                continue
            if name.endswith(('bias', 'beta')):
                p.set_data(mx.nd.zeros(p.shape))
            elif name.endswith('gamma'):
                p.set_data(mx.nd.ones(p.shape))
            else:
                p.set_data(mx.nd.array(ramp(p.shape)))
        print('  trainable', sum(int(np.prod(params[k].shape)) for k in params if params[k].grad_req != 'null'))


class SteadyAdam(mx.optimizer.Adam):
    """GluonTS's Trainer makes an Adam; a larger epsilon keeps gradients of float-rounding size (1e-7, whose
    bits differ between any two frameworks) from taking steps of nearly the learning rate."""

    def __init__(self, **kwargs):
        kwargs.setdefault('epsilon', 1e-4)
        super().__init__(**kwargs)


def use_steady_adam():
    """Makes GluonTS's Trainer take :class:`SteadyAdam` for its Adam."""
    mx.optimizer.Adam = SteadyAdam


def sig(values):
    """Five significant digits (losses of a few hundred differ in the last bits of float32)."""
    return [float('%.5g' % v) for v in values]


def seed():
    mx.random.seed(0)
    np.random.seed(0)


def flat(args):
    if isinstance(args, (list, tuple)):
        return [a for x in args for a in flat(x)]
    return [args]


# four daily series of 48 steps, forecast 4 steps ahead
PRED = 4
T = 48
t = np.arange(T)
rows = [10 + 3 * np.sin(2 * np.pi * t / 7 + i) + 0.05 * i * t for i in range(4)]
