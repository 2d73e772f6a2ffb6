"""DGL graph operators (contrib.edge_id, dgl_adjacency, dgl_subgraph, dgl_graph_compact and the
neighbour samplers) on csr graphs, against outputs recorded from MXNet 1.9.1, and their dense forms."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError

SUBGRAPH_X = [[1, 0, 0, 2], [3, 0, 4, 0], [0, 5, 0, 0], [0, 6, 7, 0]]


def _complete_graph():
    """MXNet's docstring graph: 5 vertices, every vertex linked to the 4 others, edge ids 1..20."""
    data = np.arange(1, 21, dtype=np.int64)
    indices = np.array([1, 2, 3, 4, 0, 2, 3, 4, 0, 1, 3, 4, 0, 1, 2, 4, 0, 1, 2, 3], dtype=np.int64)
    indptr = np.array([0, 4, 8, 12, 16, 20], dtype=np.int64)
    return mx.nd.sparse.csr_matrix((data, indices, indptr), shape=(5, 5), dtype=np.int64)


def test_edge_id_reads_stored_edges_and_gives_minus_one_elsewhere():
    x = mx.nd.sparse.csr_matrix(([0.0, 2.0, 3.0], [0, 1, 2], [0, 1, 2, 3]), shape=(3, 3))  # a stored 0 is an edge
    u, v = mx.nd.array([0, 0, 1, 1, 2, 2]), mx.nd.array([0, 1, 1, 2, 0, 2])
    assert mx.nd.contrib.edge_id(x, u, v).asnumpy().tolist() == [0, -1, 2, -1, -1, 3]
    dense = mx.nd.array([[1, 0, 0], [0, 2, 0], [0, 0, 3]])
    assert mx.nd.contrib.edge_id(dense, u, v).asnumpy().tolist() == [1, -1, 2, -1, -1, 3]
    with pytest.raises(MXNetError, match='edge_id'):
        mx.nd.contrib.edge_id(dense, u, mx.nd.array([0, 1]))


def test_dgl_adjacency_is_float32_ones_on_the_graph_structure():
    g = _complete_graph()
    adj = mx.nd.contrib.dgl_adjacency(g)
    assert adj.stype == 'csr' and adj.dtype == np.float32 and adj.shape == (5, 5)
    np.testing.assert_array_equal(adj.indptr.asnumpy(), g.indptr.asnumpy())
    np.testing.assert_array_equal(adj.asnumpy(), 1 - np.eye(5))


def test_dgl_subgraph_matches_mxnet():
    x = mx.nd.array(SUBGRAPH_X, dtype=np.int64).tostype('csr')
    sub, mapping = mx.nd.contrib.dgl_subgraph(x, mx.nd.array([0, 1, 2], dtype=np.int64), return_mapping=True)
    # recorded from MXNet 1.9.1
    for out, data in ((sub, [0, 1, 2, 3]), (mapping, [1, 3, 4, 5])):
        assert out.stype == 'csr' and out.dtype == np.int64 and out.shape == (3, 3)
        assert out.data.asnumpy().tolist() == data
        assert out.indices.asnumpy().tolist() == [0, 0, 2, 1]
        assert out.indptr.asnumpy().tolist() == [0, 1, 3, 4]
    dense_sub, dense_map = mx.nd.contrib.dgl_subgraph(mx.nd.array(SUBGRAPH_X), mx.nd.array([0, 1, 2]),
                                                      return_mapping=True)
    np.testing.assert_array_equal(dense_map.asnumpy(), mapping.asnumpy())
    np.testing.assert_array_equal(dense_sub.asnumpy(), sub.asnumpy())
    with pytest.raises(MXNetError, match='sorted'):
        mx.nd.contrib.dgl_subgraph(x, mx.nd.array([2, 0], dtype=np.int64))


def test_uniform_sample_of_all_neighbours_matches_mxnet_and_compacts():
    g = _complete_graph()
    ids, sub, layer = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(
        g, mx.nd.array([0], dtype=np.int64), num_args=2, num_hops=1, num_neighbor=4, max_num_vertices=4)
    # recorded from MXNet 1.9.1: vertex 0's four edges, the first three neighbours taken in
    assert ids.asnumpy().tolist() == [0, 1, 2, 3, 4]
    assert sub.stype == 'csr' and sub.shape == (4, 5)
    assert sub.asnumpy().tolist() == [[0, 1, 2, 3, 4], [0] * 5, [0] * 5, [0] * 5]
    assert layer.asnumpy().tolist() == [0, 1, 1, 1]
    ids, sub, layer = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(
        g, mx.nd.array([0, 4], dtype=np.int64), num_args=2, num_hops=1, num_neighbor=2, max_num_vertices=5)
    n = int(ids.asnumpy()[-1])
    vertices = ids.asnumpy()[:n]
    assert 2 <= n <= 5 and np.all(np.diff(vertices) > 0) and {0, 4} <= set(vertices.tolist())
    rows = sub.asnumpy()
    assert all((rows[i] != 0).sum() == 2 for i, v in enumerate(vertices) if v in (0, 4))
    compact = mx.nd.contrib.dgl_graph_compact(sub, ids, graph_sizes=(n,), return_mapping=False)
    assert compact.shape == (n, n)
    assert compact.indptr.asnumpy().tolist() == sub.indptr.asnumpy()[:n + 1].tolist()
    np.testing.assert_array_equal(vertices[compact.indices.asnumpy()], sub.indices.asnumpy())


def test_non_uniform_sample_never_draws_a_zero_probability_neighbour():
    g = _complete_graph()
    prob = mx.nd.array([0.5, 0.0, 0.5, 0.0, 0.5])
    mx.random.seed(3)
    ids, sub, p, layer = mx.nd.contrib.dgl_csr_neighbor_non_uniform_sample(
        g, prob, mx.nd.array([0], dtype=np.int64), num_args=3, num_hops=1, num_neighbor=2, max_num_vertices=5)
    assert ids.asnumpy().tolist() == [0, 2, 4, -1, -1, 3]
    assert sub.asnumpy()[0].tolist() == [0, 0, 2, 0, 4]
    np.testing.assert_allclose(p.asnumpy(), [0.5, 0.5, 0.5, 0, 0])
    assert layer.asnumpy().tolist() == [0, 1, 1, -1, -1]


def test_samplers_are_reproducible_after_seed_and_run_dense():
    g = _complete_graph()
    seeds = mx.nd.array([1], dtype=np.int64)

    def draw(graph):
        mx.random.seed(7)
        return [o.asnumpy().tolist() for o in mx.nd.contrib.dgl_csr_neighbor_uniform_sample(
            graph, seeds, num_args=2, num_hops=2, num_neighbor=1, max_num_vertices=3)]
    first = draw(g)
    assert draw(g) == first
    dense = draw(g.tostype('default'))
    assert dense[0][-1] == first[0][-1] and np.asarray(dense[1]).shape == (3, 5)

