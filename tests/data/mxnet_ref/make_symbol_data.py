"""Generate the Symbol reference files under tests/data/mxnet_ref/symbol/ with real MXNet 1.9.

Run with the reference interpreter (never from the tests):

    /tmp/mxref/bin/python tests/data/mxnet_ref/make_symbol_data.py

For each network of ``symbol_nets.py`` it writes ``<net>-symbol.json`` (MXNet's
``tojson()``), and for the small ones ``<net>_io.npz``: fixed inputs
(``arg:<name>``, ``aux:<name>``), outputs in prediction mode (``pred:<i>``), in
training mode (``train:<i>``), the auxiliary states after that training forward
(``aux_after:<name>``), and the gradients of a backward with head gradients
``head:<i>`` (``grad:<name>``). It also writes ``summary.json`` with
``print_summary`` texts and ``plot.json`` with ``plot_network`` nodes and edges,
and ``infer_shape.json`` with MXNet's inferred shapes of every internal output.
"""
import contextlib
import io
import json
import os
import sys

import mxnet as mx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'symbol')
sys.path.insert(0, HERE)
from symbol_nets import NETS, record_plot  # noqa: E402

# Small input shapes (and integer-valued inputs) for the networks whose numbers are stored.
IO = {
    'mf': dict(net_kw=dict(k=4, max_user=10, max_item=8),
               shapes={'user': (5,), 'item': (5,), 'score': (5,)},
               ints={'user': 10, 'item': 8}, no_grad=('score',)),
    'mlp': dict(shapes={'data': (3, 5), 'out_label': (3,)}, ints={'out_label': 4}),
    'lenet': dict(net_kw=dict(c1=3, c2=4, hidden=8), shapes={'data': (2, 1, 16, 16), 'softmax_label': (2,)},
                  ints={'softmax_label': 10}),
    'bnnet': dict(shapes={'data': (2, 3, 6, 6)}),
    'multi': dict(shapes={'data': (4, 5)}),
    'arith': dict(shapes={'a': (2, 3), 'b': (2, 3)}),
}


def path(name):
    return os.path.join(OUT, name)


def write_io(name, spec):
    sym = NETS[name](mx, **spec.get('net_kw', {}))
    rng = np.random.RandomState(sum(map(ord, name)))
    arg_shapes, out_shapes, aux_shapes = sym.infer_shape(**spec['shapes'])
    data = {}
    args = {}
    for n, s in zip(sym.list_arguments(), arg_shapes):
        if n in spec.get('ints', {}):
            v = rng.randint(0, spec['ints'][n], size=s).astype('float32')
        else:
            v = rng.uniform(-1, 1, size=s).astype('float32')
        args[n] = mx.nd.array(v)
        data['arg:' + n] = v
    aux = {}
    for n, s in zip(sym.list_auxiliary_states(), aux_shapes):
        v = rng.uniform(0.5, 1.5, size=s).astype('float32')
        aux[n] = mx.nd.array(v)
        data['aux:' + n] = v
    # No gradients for integer inputs (indices, class labels) and regression targets.
    no_grad = set(spec.get('ints', {})) | set(spec.get('no_grad', ()))
    grads = {n: mx.nd.zeros(a.shape) for n, a in args.items() if n not in no_grad}
    exe = sym.bind(mx.cpu(), args=args, args_grad=grads, aux_states=aux,
                   grad_req={n: 'write' if n in grads else 'null' for n in args})
    for i, o in enumerate(exe.forward(is_train=False)):
        data['pred:%d' % i] = o.asnumpy()
    outs = exe.forward(is_train=True)
    for i, o in enumerate(outs):
        data['train:%d' % i] = o.asnumpy()
    heads = [mx.nd.array(rng.uniform(-1, 1, size=o.shape).astype('float32')) for o in outs]
    for i, h in enumerate(heads):
        data['head:%d' % i] = h.asnumpy()
    exe.backward(heads)
    for n, g in grads.items():
        data['grad:' + n] = g.asnumpy()
    for n, a in aux.items():
        data['aux_after:' + n] = a.asnumpy()
    np.savez(path('%s_io.npz' % name), **data)
    if spec.get('net_kw'):  # smaller than the network of <name>-symbol.json
        sym.save(path('%s_small-symbol.json' % name))


def capture(fn, *args, **kwargs):
    """What ``fn`` prints, or None when MXNet fails (its print_summary cannot take 1-D inputs)."""
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            fn(*args, **kwargs)
    except IndexError:
        return None
    return buf.getvalue()


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, build in NETS.items():
        build(mx).save(path('%s-symbol.json' % name))
    for name, spec in IO.items():
        write_io(name, spec)
    shapes = {'mf': {'user': (32,), 'item': (32,), 'score': (32,)}, 'lenet': {'data': (64, 1, 28, 28)},
              'bnnet': {'data': (2, 3, 6, 6)}, 'mlp': {'data': (3, 5)}, 'multi': {'data': (4, 5)},
              'arith': {'a': (2, 3), 'b': (2, 3)}, 'wide': {'x': (2, 3)}}
    summary = {}
    plots = {}
    inferred = {}
    for name, shape in shapes.items():
        sym = NETS[name](mx)
        summary[name] = {'shape': capture(mx.viz.print_summary, sym, shape=shape),
                         'noshape': capture(mx.viz.print_summary, sym)}
        plots[name] = {'plain': record_plot(mx, sym),
                       'shape': record_plot(mx, sym, shape=shape),
                       'weights': record_plot(mx, sym, hide_weights=False),
                       'dtype': record_plot(mx, sym, shape=shape, dtype={k: 'float32' for k in shape})}
        internals = sym.get_internals()
        _, outs, _ = internals.infer_shape(**shape)
        inferred[name] = dict(zip(internals.list_outputs(), [list(s) for s in outs]))
    summary['lenet_narrow'] = capture(mx.viz.print_summary, NETS['lenet'](mx), shape=shapes['lenet'],
                                      line_length=80, positions=[30, 50, 60, 80])
    with open(path('summary.json'), 'w') as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    with open(path('plot.json'), 'w') as f:
        json.dump(plots, f, indent=1, sort_keys=True)
    with open(path('infer_shape.json'), 'w') as f:
        json.dump(inferred, f, indent=1, sort_keys=True)


if __name__ == '__main__':
    main()
