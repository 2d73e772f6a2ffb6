"""MXNet's NumPy-mode operator names: the np/npx module paths, the _internal functions under
MXNet's names, hand-written NumPy-mode JSON (MXNet aliases and its own _npi_ operators) loaded,
run and written back, and the np operators only these graphs use (where with scalars,
arctan2 with a number, average, moveaxis, identity, insert, unique, nonzero)."""
import json
import os
import tempfile

import numpy as onp
import mxnet as mx
import mxnet.ndarray.numpy
import mxnet.ndarray.numpy_extension
import mxnet.symbol.numpy
import mxnet.symbol.numpy_extension
from mxnet import gluon, npx
from mxnet.ndarray.numpy import _internal as I


def attempt(f):
    try:  # (MXNet raises some errors only when the values are read)
        r = f()
        rows = [(x.dtype, x.shape, onp.round(x.asnumpy().astype('float64'), 4).tolist())
                for x in (r if isinstance(r, (list, tuple)) else [r])]
    except Exception as e:
        print('error', type(e).__name__)
        return
    for row in rows:
        print(*row)


print(mx.ndarray.numpy is mx.nd.np, mx.symbol.numpy is mx.sym.np)
print(mx.ndarray.numpy_extension is mx.nd.npx, mx.symbol.numpy_extension is mx.sym.npx)
npx.set_np()

x = mx.np.array([[-1.5, -0.2, 0.0], [0.4, 1.0, 2.5]])
# (no negative or zero integers for the unary maths: MXNet casts their NaN and inf results to int32
# as the CPU's conversion gives, INT_MIN, where XLA saturates)
xi = mx.np.array([[5, 6, 7], [1, 2, 3]], dtype='int32')
for name in ('exp', 'expm1', 'log1p', 'sqrt', 'cbrt', 'sin', 'tanh', 'arcsinh', 'degrees', 'radians', 'negative',
             'sign', 'square', 'rint', 'ceil', 'floor', 'trunc', 'fix', 'absolute', 'abs', 'reciprocal'):
    print(name)
    attempt(lambda: getattr(I, name)(x))
    attempt(lambda: getattr(I, name)(xi))
print('binary')
attempt(lambda: I.hypot(x, x))
attempt(lambda: I.arctan2(x, x + 3))
attempt(lambda: I.arctan2_scalar(x, scalar=2.0))
attempt(lambda: I.rarctan2_scalar(x, scalar=2.0))
attempt(lambda: I.arctan2_scalar(xi, scalar=2.0))
attempt(lambda: I.add(x, xi))
attempt(lambda: I.multiply(xi, xi))
print('where')
c = x > 0
attempt(lambda: I.where_lscalar(c, x, scalar=9.0))
attempt(lambda: I.where_rscalar(c, x, scalar=9.0))
attempt(lambda: I.where_scalar2(c, x=1.5, y=-2))
attempt(lambda: I.where_lscalar(c, xi, scalar=2.5))
attempt(lambda: I.where_lscalar(c, mx.np.ones((4,)), scalar=1.0))
print('average')
w = mx.np.array([1.0, 2.0, 3.0])
attempt(lambda: I.average(x, w, axis=1, returned=True, weighted=True))
attempt(lambda: I.average(x, x + 2, axis=None, returned=True, weighted=True))
attempt(lambda: I.average(x, axis=0, returned=True, weighted=False))
attempt(lambda: I.average(xi, axis=None, returned=False, weighted=False))
attempt(lambda: I.average(xi, mx.np.array([1, 2], dtype='int32'), axis=0, returned=True, weighted=True))
attempt(lambda: I.average(x, w, axis=0, returned=False, weighted=True))
print('creation and shapes')
attempt(lambda: I.identity(shape=(3, 3), dtype='int32'))
attempt(lambda: I.ones(shape=(2,)))
attempt(lambda: I.zeros(shape=(1, 2), dtype='int64'))
attempt(lambda: I.arange(start=1, stop=4, step=0.5))
attempt(lambda: I.linspace(start=0, stop=1, num=5, endpoint=False))
attempt(lambda: mx.np.moveaxis(mx.np.zeros((2, 3, 4)), [0, 1], [2, 0]))
attempt(lambda: I.dsplit(mx.np.arange(8).reshape(1, 2, 4), indices=(), axis=2, sections=2))
print('insert')
ar = mx.np.arange(6).reshape(2, 3)
v = mx.np.array([10., 20.])
attempt(lambda: I.insert_scalar(ar, v, int_ind=1, axis=1))
attempt(lambda: I.insert_scalar(ar, val=7, int_ind=-1))
attempt(lambda: I.insert_slice(ar, v, start=0, stop=2, step=1, axis=1))
attempt(lambda: I.insert_tensor(ar, v, mx.np.array([0, 2], dtype='int64'), axis=1))
attempt(lambda: I.insert_scalar(ar, val=7, int_ind=5, axis=1))
print('unique')
u = mx.np.array([[3., 1., 3.], [2., 1., 2.], [3., 1., 3.]])
attempt(lambda: I.unique(u, return_index=True, return_inverse=True, return_counts=True))
attempt(lambda: I.unique(u, return_counts=True, axis=0))
attempt(lambda: I.unique(u, return_inverse=True, axis=1))
print('nonzero')
attempt(lambda: npx.nonzero(x))
attempt(lambda: npx.nonzero(mx.np.array(3)))
attempt(lambda: npx.nonzero(mx.np.array(0)))
attempt(lambda: npx.nonzero(mx.np.array([True, False, True])))
attempt(lambda: npx.nonzero(mx.np.zeros((2, 0))))
attempt(lambda: I.nonzero(xi))

# Hand-written NumPy-mode graphs: each node's op as MXNet names it, loaded, run and written back.
tmp = tempfile.mkdtemp()


def graph(ops):
    nodes = [{'op': 'null', 'name': 'data', 'inputs': []}]
    for i, (op, inputs, attrs) in enumerate(ops):
        nodes.append({'op': op, 'name': 'n%d' % i, 'attrs': attrs, 'inputs': [[j, 0, 0] for j in inputs]})
    return json.dumps({'nodes': nodes, 'arg_nodes': [0], 'heads': [[len(nodes) - 1, 0, 0]],
                       'node_row_ptr': list(range(len(nodes) + 1)),
                       'attrs': {'is_np_shape': ['int', 1], 'mxnet_version': ['int', 10901]}})


cases = {
    'aliases': [('_npx_activation', [0], {'act_type': 'tanh'}), ('_npx_relu', [1], {}),
                ('_npx_leaky_relu', [2], {'act_type': 'leaky', 'slope': '0.1'}),
                ('_npx_softmax', [3], {'axis': '-1'}), ('_npx_log_softmax', [4], {'axis': '0'}),
                ('_np_amax', [5], {'axis': '1', 'keepdims': 'True'}), ('_npi_maximum', [5, 6], {}),
                ('_npx_sigmoid', [7], {}), ('_npi_expand_dims', [8], {'axis': '0'}),
                ('_npx_batch_flatten', [9], {}), ('_npx_slice', [10], {'begin': '(0, 1)', 'end': '(1, 3)'})],
    'maths': [('_npi_exp', [0], {}), ('_npi_log1p', [1], {}), ('_npi_absolute', [0], {}), ('_npi_hypot', [2, 3], {}),
              ('_npi_arctan2_scalar', [4], {'scalar': '2.0', 'is_int': 'False'}), ('_npi_add', [4, 5], {}),
              ('_npi_sign', [0], {}), ('_npi_multiply', [6, 7], {}), ('_npi_where_rscalar', [0, 8], {'scalar': '0.5'}),
              ('_np_moveaxis', [9], {'source': '(0,)', 'destination': '(1,)'}), ('_np_copy', [10], {}),
              ('_npi_square', [11], {}), ('_npi_swapaxes', [12], {'dim1': '0', 'dim2': '1'})],
}
data = mx.np.array([[-1.0, 0.5, 2.0], [0.25, -0.75, 1.5]])
for name, ops in cases.items():
    path = os.path.join(tmp, name + '-symbol.json')
    with open(path, 'w') as f:
        f.write(graph(ops))
    blk = gluon.SymbolBlock.imports(path, ['data'])
    out = blk(data)
    print(name, type(out).__name__, out.shape, out.dtype)
    print(onp.round(out.asnumpy().astype('float64'), 4).tolist())
    sym = mx.sym.load(path)
    print([n['op'] for n in json.loads(sym.tojson())['nodes']])
    print(sym.list_arguments(), sym.infer_shape(data=(2, 3))[1])
    out = sym.bind(mx.cpu(), {'data': data}).forward()[0]
    print(onp.round(out.asnumpy().astype('float64'), 4).tolist())
