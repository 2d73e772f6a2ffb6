"""Record MXNet 1.9.1's optimizer update operators for tests/test_ops_optimizer.py.

Run with the reference interpreter: /tmp/mxref/bin/python tests/data/mxnet_ref/make_update_ops_data.py
Writes update_ops_ref.npz beside this script: per operator its input arrays (weight, grad, states)
and every array after ``op(*arrays, out=weight, **CASES[op])``, which updates weight and states in place.
"""
import json
import os

import mxnet as mx
import numpy as np

CASES = {
    'sgd_update': (2, dict(lr=0.1, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    'sgd_mom_update': (3, dict(lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5)),
    'nag_mom_update': (3, dict(lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, clip_gradient=0.4)),
    'signsgd_update': (2, dict(lr=0.1, wd=0.01)),
    'signum_update': (3, dict(lr=0.1, momentum=0.9, wd=0.01, wd_lh=0.02)),
    'adam_update': (4, dict(lr=0.1, wd=0.01, rescale_grad=0.5)),
    'rmsprop_update': (3, dict(lr=0.1, wd=0.01, clip_weights=0.5)),
    'rmspropalex_update': (5, dict(lr=0.1, wd=0.01)),
    'ftrl_update': (4, dict(lr=0.1, wd=0.01, lamda1=0.2)),
    'ftml_update': (5, dict(lr=0.1, wd=0.01, t=3, clip_grad=0.5)),
}


def main():
    rng = np.random.RandomState(0)
    arrays = {}
    for name, (n, kwargs) in CASES.items():
        ins = [rng.rand(2, 3).astype('float32') * 2 - 1 for _ in range(n)]
        ins[2:] = [np.abs(a) for a in ins[2:]]  # states such as n and var are positive
        if name == 'rmspropalex_update':  # n >= g**2, as a real run keeps them
            ins[2] = ins[3] ** 2 + ins[2]
        nds = [mx.nd.array(a) for a in ins]
        getattr(mx.nd, name)(*nds, out=nds[0], **kwargs)
        for i, (a, b) in enumerate(zip(ins, nds)):
            arrays['%s/in%d' % (name, i)] = a
            arrays['%s/out%d' % (name, i)] = b.asnumpy()
    arrays['__cases__'] = np.array(json.dumps(CASES))
    np.savez_compressed(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'update_ops_ref.npz'), **arrays)


if __name__ == '__main__':
    main()
