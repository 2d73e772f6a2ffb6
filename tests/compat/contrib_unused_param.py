import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import nn
import warnings
warnings.simplefilter('ignore')


class Known(gluon.HybridBlock):
    """An unused Parameter whose shape is known: MXNet only warns."""
    def __init__(self, in_units=4, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.fc = nn.Dense(3, in_units=in_units)
            self.extra = self.params.get('extra', shape=(2, 2))

    def hybrid_forward(self, F, x, extra):
        return self.fc(x)


class Deferred(gluon.HybridBlock):
    """A child never called in the forward, its shapes deferred."""
    def __init__(self, used_in_units=0, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.fc = nn.Dense(3, in_units=used_in_units)
            self.unused = nn.Dense(5)

    def hybrid_forward(self, F, x):
        return self.fc(x)


x = nd.ones((2, 4))


def run(net, hybridize, times=2):
    net.initialize(mx.init.Constant(0.5))
    if hybridize:
        net.hybridize()
    for _ in range(times):
        try:
            print(net.name, hybridize, net(x).asnumpy().tolist())
        except Exception as e:
            print(net.name, hybridize, type(e).__name__)
    print(sorted((k, v.shape) for k, v in net.collect_params().items()))


run(Known(), False)
run(Known(), True)
run(Known(in_units=0), False)
run(Known(in_units=0), True)      # the used Dense needs its shape: inference fails on 'extra'
run(Deferred(), False)
run(Deferred(), True)             # ValueError: the unused Dense's shape cannot be inferred
run(Deferred(used_in_units=4), True)   # nothing to infer: only a warning
net = Deferred(used_in_units=4)
net.initialize()
net.hybridize()
net(x)
try:
    net.unused.weight.data()
except Exception as e:
    print(type(e).__name__)
