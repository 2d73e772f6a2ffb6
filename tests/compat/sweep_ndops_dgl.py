import numpy as np
import mxnet as mx

nd = mx.nd
C = nd.contrib


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    elif isinstance(x, nd.NDArray):
        print(x.stype, x.dtype.__name__, x.shape, x.asnumpy().tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


dense = np.array([[0, 1, 0, 2], [3, 0, 4, 0], [0, 5, 0, 0], [0, 6, 7, 0]], dtype=np.int64)
g = nd.array(dense, dtype='int64').tostype('csr')
print('== edge_id')
attempt(lambda: C.edge_id(g, nd.array([0, 0, 1, 3, 2], dtype='int64'), nd.array([1, 0, 2, 2, 1], dtype='int64')))
attempt(lambda: C.edge_id(g, nd.array([0, 1]), nd.array([1, 0])))
attempt(lambda: C.edge_id(g, nd.array([0, 1, 2], dtype='int64'), nd.array([1, 0], dtype='int64')))
print('== dgl_adjacency')
attempt(lambda: C.dgl_adjacency(g))
attempt(lambda: C.dgl_adjacency(g.astype('float32')))
print('== dgl_subgraph')
attempt(lambda: C.dgl_subgraph(g, nd.array([0, 1, 2], dtype='int64'), return_mapping=True))
attempt(lambda: C.dgl_subgraph(g, nd.array([0, 1, 2], dtype='int64'), return_mapping=False))
attempt(lambda: C.dgl_subgraph(g, nd.array([1, 3], dtype='int64'), nd.array([0, 2, 3], dtype='int64'),
                               return_mapping=True))
