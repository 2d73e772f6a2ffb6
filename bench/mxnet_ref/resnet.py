"""bench/bench_resnet.py's MXNet side (run by it when MXNET_PYTHON names a python with MXNet 1.9.1;
never part of the project). Prints MXNet's version, then for each request line ``MODE NUMBER``
(MODE imperative or hybridized) the milliseconds per call of NUMBER waited forward calls."""
import sys
import time

import mxnet as mx
import numpy as np
from mxnet.gluon.model_zoo import vision


def main():
    batch, size = int(sys.argv[1]), int(sys.argv[2])
    x = mx.nd.array(np.random.RandomState(0).uniform(0, 1, (batch, 3, size, size)))
    nets = {'imperative': vision.resnet18_v1(), 'hybridized': vision.resnet18_v1()}
    for net in nets.values():
        net.initialize()
    nets['hybridized'].hybridize(static_alloc=True, static_shape=True)
    for net in nets.values():
        net(x).wait_to_read()
    print(mx.__version__, flush=True)
    for line in sys.stdin:
        mode, number = line.split()
        net = nets[mode]
        t = time.perf_counter()
        for _ in range(int(number)):
            net(x).wait_to_read()
        print((time.perf_counter() - t) / int(number) * 1e3, flush=True)


if __name__ == '__main__':
    main()
