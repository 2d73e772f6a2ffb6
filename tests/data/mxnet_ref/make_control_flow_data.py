"""Records what MXNet 1.9.1 computes for small foreach / while_loop / cond graphs.

Run with the reference interpreter (``/tmp/mxref/bin/python make_control_flow_data.py``); writes
``control_flow.json``: each graph's symbol JSON, its inputs, outputs and input gradients (for
head gradients of ones), read by tests/test_control_flow.py.
"""
import json
import os

import mxnet as mx
import numpy as np


def foreach_graph():
    data, state, free = mx.sym.var('data'), mx.sym.var('state'), mx.sym.var('free')

    def step(x, states):
        out = x * 2 + states[0] * free
        return out, [out + 1]
    outs, states = mx.sym.contrib.foreach(step, data, [state])
    return mx.sym.Group([outs] + states), {
        'data': np.linspace(-1, 1, 8).reshape(4, 2), 'state': np.array([0.5, -0.25]),
        'free': np.array([0.9, 1.1])}


def while_graph():
    i, s, w = mx.sym.var('i'), mx.sym.var('s'), mx.sym.var('w')
    outs, final = mx.sym.contrib.while_loop(
        cond=lambda i, s: i < 3, func=lambda i, s: ([s * w], [i + 1, mx.sym.broadcast_add(s * w, i)]),
        loop_vars=[i, s], max_iterations=5)
    return mx.sym.Group(outs + final), {'i': np.array([0.0]), 's': np.array([1.0, 2.0]),
                                         'w': np.array([0.5, -1.5])}


def cond_graph():
    a, b = mx.sym.var('a'), mx.sym.var('b')
    out = mx.sym.contrib.cond((a * b).sum() < 0, then_func=lambda: [a * b, a + 1],
                              else_func=lambda: [a - b, b * 3])
    return mx.sym.Group(out), {'a': np.array([1.0, -2.0, 3.0]), 'b': np.array([0.5, 0.25, -2.0])}


def record(make):
    mx.attribute.AttrScope._subgraph_names.clear()
    with mx.name.NameManager():  # node names counted from 0 for each graph
        sym, inputs = make()
    args = {k: mx.nd.array(v) for k, v in inputs.items()}
    grads = {k: mx.nd.zeros(v.shape) for k, v in inputs.items()}
    exe = sym.bind(mx.cpu(), args=args, args_grad=grads)
    outs = exe.forward(is_train=True)
    exe.backward([mx.nd.ones(o.shape) for o in outs])
    return {'json': sym.tojson(), 'inputs': {k: v.tolist() for k, v in inputs.items()},
            'outputs': [o.asnumpy().tolist() for o in outs],
            'grads': {k: g.asnumpy().tolist() for k, g in grads.items()}}


if __name__ == '__main__':
    result = {name: record(make) for name, make in
              (('foreach', foreach_graph), ('while_loop', while_graph), ('cond', cond_graph))}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'control_flow.json'), 'w') as f:
        json.dump(result, f, indent=1, sort_keys=True)
