"""Graph operators of DGL (MXNet's ``contrib.dgl_*`` and ``contrib.edge_id``).

A graph is a square csr matrix whose stored values are edge ids: row ``u`` holds the edges
leaving ``u``, column ``v`` their targets. MXNet defines these operators on csr graphs only;
here each has a dense kernel (an entry that is not zero is an edge) and a sparse form for csr
graphs (``OpDef.sparse``), where a stored zero is an edge too and csr outputs keep MXNet's
components. The index work (rows, BFS, sampling) is done on the host with NumPy, as the output
sizes depend on the values. The neighbour samplers draw from gluonjax's random state
(``mx.random.seed`` makes them reproducible); MXNet seeds them from the clock.
"""

import jax
import jax.numpy as jnp
import numpy as np

from .._x64 import x64
from ..base import MXNetError
from . import _rng
from ._registry import P, register, set_sparse_form
from .sparse import CSR, INDEX_DTYPE, csr_from_parts

__all__ = []


def _host(x):
    return np.asarray(x)


def _on_device(host, like):
    return jax.device_put(host, next(iter(like.devices())))


def _csr_parts(graph):
    """(indptr, indices, data) on the host of a CSR value."""
    return _host(graph.indptr), _host(graph.indices), _host(graph.data)


def _dense_parts(dense):
    """(indptr, indices, data) of a dense host matrix, its non-zero entries being the edges."""
    rows, cols = np.nonzero(dense)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=dense.shape[0]))])
    return indptr.astype(INDEX_DTYPE), cols.astype(INDEX_DTYPE), dense[rows, cols]


def _require_csr(op, graph):
    if not isinstance(graph, CSR):
        raise MXNetError('%s: the graph must be a csr matrix here, got %s storage'
                         % (op, getattr(graph, 'stype', 'default')))


def _require_edge_ids(op, graph):
    # the values of a DGL graph are edge ids, int64 in MXNet's type check (checked where a csr graph
    # is computed on, so that shape inference of a graph node, whose inputs default to float32, works)
    if graph.dtype != jnp.int64:
        raise MXNetError('%s: the graph must hold int64 edge ids, got %s' % (op, graph.dtype))


# ---- edge_id -----------------------------------------------------------------------------

@register('_contrib_edge_id', inputs=('data', 'u', 'v'))
def edge_id(data, u, v):
    """``data[u[i], v[i]]`` where that edge exists, else -1 (dense: an edge is a non-zero)."""
    _check_edge_args(data, u, v)
    value = data[u.astype(jnp.int32), v.astype(jnp.int32)]
    return jnp.where(value != 0, value, -1).astype(data.dtype)


def _check_edge_args(data, u, v):
    if len(data.shape) != 2 or len(u.shape) != 1 or tuple(v.shape) != tuple(u.shape):
        raise MXNetError('edge_id: data must be 2-d and u, v 1-d of one length, got %s, %s and %s'
                         % (data.shape, u.shape, v.shape))


def _edge_id_sparse(kernel, data, u, v):
    if not isinstance(data, CSR):
        return None
    _check_edge_args(data, u, v)
    indptr, indices, values = _csr_parts(data)
    out = np.full(u.shape, -1, values.dtype)
    for k, (row, col) in enumerate(zip(_host(u).astype(np.int64), _host(v).astype(np.int64))):
        hit = np.nonzero(indices[indptr[row]:indptr[row + 1]] == col)[0]
        if hit.size:
            out[k] = values[indptr[row] + hit[0]]
    return (_on_device(out, data.data),)


# ---- dgl_adjacency -----------------------------------------------------------------------

@register('_contrib_dgl_adjacency', inputs=('data',))
def dgl_adjacency(data):
    """The adjacency matrix of a graph: 1.0 (float32) at every edge."""
    return (data != 0).astype(jnp.float32)


def _adjacency_sparse(kernel, data):
    _require_csr('dgl_adjacency', data)
    _require_edge_ids('dgl_adjacency', data)
    return (CSR(jnp.ones(data.data.shape, jnp.float32), data.indices, data.indptr, data.shape),)


# ---- dgl_subgraph ------------------------------------------------------------------------

def _subgraph_inputs(attrs, n):
    return ('graph',) + tuple('varray%d' % i for i in range(n - 1))


def _subgraph_outputs(attrs):
    graphs = attrs['num_args'] - 1
    return 2 * graphs if attrs['return_mapping'] else graphs


def _new_edge_ids(mask, dtype):
    """Edge ids 0, 1, ... numbered row by row at the edges of ``mask``."""
    ids = jnp.cumsum(mask.reshape(-1)).reshape(mask.shape) - 1
    return jnp.where(mask, ids, 0).astype(dtype)


@register('_contrib_dgl_subgraph', variadic=True, inputs=_subgraph_inputs, num_outputs=_subgraph_outputs,
          params=[P('num_args', 'int', 2), P('return_mapping', 'bool', False)])
def dgl_subgraph(graph, *varrays, num_args, return_mapping):
    """The subgraph induced by each (sorted) vertex array: its edges numbered anew (0, 1, ... row
    by row), then, with ``return_mapping``, the same subgraphs holding the original edge ids."""
    induced = [graph[v.astype(jnp.int32)][:, v.astype(jnp.int32)] for v in varrays]
    renumbered = [_new_edge_ids(g != 0, graph.dtype) for g in induced]
    return tuple(renumbered + (induced if return_mapping else []))


def _subgraph_sparse(kernel, graph, *varrays):
    _require_csr('dgl_subgraph', graph)
    indptr, indices, values = _csr_parts(graph)
    renumbered, mapped = [], []
    for varray in varrays:
        vertices = _host(varray).astype(np.int64)
        if np.any(np.diff(vertices) < 0):
            raise MXNetError('dgl_subgraph: the input vertex list has to be sorted')
        if vertices.size and vertices.max() >= graph.shape[0]:
            raise MXNetError('dgl_subgraph: vertex id %d is not in a graph of %d vertices'
                             % (vertices.max(), graph.shape[0]))
        position = {int(v): i for i, v in enumerate(vertices)}
        sub_ptr, sub_cols, sub_ids = [0], [], []
        for v in vertices:
            for k in range(indptr[v], indptr[v + 1]):
                if int(indices[k]) in position:
                    sub_cols.append(position[int(indices[k])])
                    sub_ids.append(values[k])
            sub_ptr.append(len(sub_cols))
        shape = (vertices.size, vertices.size)
        new_ids = _on_device(np.arange(len(sub_cols)).astype(values.dtype), graph.data)
        renumbered.append(csr_from_parts(new_ids, sub_cols, sub_ptr, shape))
        old_ids = _on_device(np.asarray(sub_ids, values.dtype), graph.data)
        mapped.append(csr_from_parts(old_ids, sub_cols, sub_ptr, shape))
    return tuple(renumbered + (mapped if kernel.attrs['return_mapping'] else []))


# ---- dgl_graph_compact -------------------------------------------------------------------

def _compact_inputs(attrs, n):
    graphs = n // 2
    return tuple('graph%d' % i for i in range(graphs)) + tuple('varray%d' % i for i in range(graphs))


def _compact_outputs(attrs):
    graphs = attrs['num_args'] // 2
    return 2 * graphs if attrs['return_mapping'] else graphs


def _compact_sizes(op, graph_sizes, graphs):
    sizes = tuple(int(s) for s in graph_sizes)
    if len(sizes) != graphs:
        raise MXNetError('%s: graph_sizes has %d entries for %d graphs' % (op, len(sizes), graphs))
    return sizes


@register('_contrib_dgl_graph_compact', variadic=True, inputs=_compact_inputs, num_outputs=_compact_outputs,
          params=[P('num_args', 'int', 2), P('return_mapping', 'bool', False), P('graph_sizes', 'shape', ())])
def dgl_graph_compact(*graph_data, num_args, return_mapping, graph_sizes):
    """Sampled subgraphs (rows in ``varray`` order, columns in original vertex ids) made square:
    the first ``graph_sizes[i]`` rows, columns renumbered by their position in ``varray``, edges
    numbered anew; with ``return_mapping``, the same with the sampled edge ids."""
    graphs = len(graph_data) // 2
    sizes = _compact_sizes('dgl_graph_compact', graph_sizes, graphs)
    compact = [g[:n][:, ids[:n].astype(jnp.int32)]
               for g, ids, n in zip(graph_data[:graphs], graph_data[graphs:], sizes)]
    renumbered = [_new_edge_ids(c != 0, c.dtype) for c in compact]  # MXNet's graphs are int64
    return tuple(renumbered + (compact if return_mapping else []))


def _compact_sparse(kernel, *graph_data):
    graphs = len(graph_data) // 2
    sizes = _compact_sizes('dgl_graph_compact', kernel.attrs['graph_sizes'], graphs)
    renumbered, mapped = [], []
    for graph, varray, n in zip(graph_data[:graphs], graph_data[graphs:], sizes):
        _require_csr('dgl_graph_compact', graph)
        indptr, indices, values = _csr_parts(graph)
        position = {int(v): i for i, v in enumerate(_host(varray)[:n])}
        ptr = indptr[:n + 1]
        try:
            cols = [position[int(c)] for c in indices[:ptr[-1]]]
        except KeyError as err:
            raise MXNetError('dgl_graph_compact: column %s is not among the first %d vertex ids'
                             % (err.args[0], n)) from None
        new_ids = _on_device(np.arange(len(cols)).astype(values.dtype), graph.data)
        renumbered.append(csr_from_parts(new_ids, cols, ptr, (n, n)))
        old_ids = _on_device(values[:ptr[-1]], graph.data)
        mapped.append(csr_from_parts(old_ids, cols, ptr, (n, n)))
    return tuple(renumbered + (mapped if kernel.attrs['return_mapping'] else []))


# ---- neighbour sampling ------------------------------------------------------------------

_SAMPLE_PARAMS = [P('num_args', 'int', 2), P('num_hops', 'int', 1), P('num_neighbor', 'int', 2),
                  P('max_num_vertices', 'int', 100)]


def _pick_neighbors(rng, count, num_neighbor, weights):
    """Positions (increasing) of at most ``num_neighbor`` of a row's ``count`` edges, drawn without
    replacement, uniformly or in proportion to ``weights`` (edges of weight 0 are never drawn)."""
    if weights is None:
        if count <= num_neighbor:
            return np.arange(count)
        return np.sort(rng.choice(count, num_neighbor, replace=False))
    candidates = np.nonzero(weights > 0)[0] if count > num_neighbor else np.arange(count)
    if candidates.size <= num_neighbor:
        return candidates
    p = weights[candidates] / weights[candidates].sum()
    return np.sort(rng.choice(candidates, num_neighbor, replace=False, p=p))


def _sample_one(rng, indptr, indices, values, seeds, prob, num_hops, num_neighbor, max_vertices):
    """MXNet's neighbour sampling of one seed array: a BFS from the seeds that, for each vertex
    less than ``num_hops`` away, keeps some of its out-edges, until ``max_vertices`` vertices are
    reached. Returns (vertex ids sorted, their hop, {vertex: (columns, edge ids)})."""
    if seeds.size > max_vertices:
        raise MXNetError('dgl_csr_neighbor_sample: %d seeds for max_num_vertices=%d'
                         % (seeds.size, max_vertices))
    layer = {}
    queue = []
    for s in seeds.tolist():
        if s not in layer:
            layer[s] = 0
            queue.append(s)
    edges = {}
    head = 0
    while head < len(queue) and len(layer) < max_vertices:
        vertex = queue[head]
        head += 1
        if layer[vertex] >= num_hops:
            continue
        start, end = indptr[vertex], indptr[vertex + 1]
        weights = None if prob is None else prob[indices[start:end]]
        picked = start + _pick_neighbors(rng, end - start, num_neighbor, weights)
        edges[vertex] = (indices[picked], values[picked])
        for neighbor in indices[picked].tolist():
            if len(layer) >= max_vertices:
                break
            if neighbor not in layer:
                layer[neighbor] = layer[vertex] + 1
                queue.append(neighbor)
    vertices = np.array(sorted(layer), dtype=np.int64)
    return vertices, np.array([layer[v] for v in vertices.tolist()], dtype=np.int64), edges


def _sample_host(indptr, indices, values, n_cols, seed_arrays, prob, attrs, rng):
    """Host outputs of a sampler, grouped as MXNet orders them: the sample ids of every seed
    array (padded with -1, the count last), their csr parts, their probabilities (non-uniform),
    their hops (padded with -1)."""
    max_vertices = attrs['max_num_vertices']
    ids, parts, probs, layers = [], [], [], []
    for seeds in seed_arrays:
        vertices, hops, edges = _sample_one(rng, indptr, indices, values, seeds.astype(np.int64), prob,
                                            attrs['num_hops'], attrs['num_neighbor'], max_vertices)
        n = vertices.size
        sample_id = np.full(max_vertices + 1, -1, seeds.dtype)
        sample_id[:n], sample_id[-1] = vertices, n
        layer = np.full(max_vertices, -1, seeds.dtype)
        layer[:n] = hops
        empty = (np.zeros(0, indices.dtype), np.zeros(0, values.dtype))
        rows = [edges.get(v, empty) for v in vertices.tolist()] + [empty] * (max_vertices - n)
        counts = [len(cols) for cols, _ in rows]
        ptr = np.concatenate([[0], np.cumsum(counts)]).astype(INDEX_DTYPE)
        cols = np.concatenate([c for c, _ in rows] + [empty[0]]).astype(INDEX_DTYPE)
        data = np.concatenate([d for _, d in rows] + [empty[1]]).astype(values.dtype)
        ids.append(sample_id)
        parts.append((data, cols, ptr, (max_vertices, n_cols)))
        layers.append(layer)
        if prob is not None:
            sub_prob = np.zeros(max_vertices, prob.dtype)
            sub_prob[:n] = prob[vertices]
            probs.append(sub_prob)
    return ids, parts, probs, layers


def _host_rng(key):
    """A NumPy generator seeded from a jax PRNG key (gluonjax's random state)."""
    return np.random.default_rng(np.asarray(jax.random.key_data(key) if jnp.issubdtype(key.dtype, jax.dtypes.prng_key)
                                            else key).astype(np.uint64).tolist())


def _check_graph(op, shape):
    if len(shape) != 2 or shape[0] != shape[1]:
        raise MXNetError('%s: the graph must be a square 2-d matrix, got shape %s' % (op, tuple(shape)))


def _sampler_dense(op, graph, prob, seed_arrays, attrs, key):
    """The dense kernel of a sampler: the host sampler through a callback, the subgraphs dense."""
    _check_graph(op, graph.shape)
    max_vertices = attrs['max_num_vertices']
    specs = ([jax.ShapeDtypeStruct((max_vertices + 1,), s.dtype) for s in seed_arrays]
             + [jax.ShapeDtypeStruct((max_vertices, graph.shape[1]), graph.dtype) for _ in seed_arrays]
             + ([jax.ShapeDtypeStruct((max_vertices,), prob.dtype) for _ in seed_arrays] if prob is not None else [])
             + [jax.ShapeDtypeStruct((max_vertices,), s.dtype) for s in seed_arrays])

    def host(key, dense, p, *seeds):
        indptr, indices, values = _dense_parts(np.asarray(dense))
        ids, parts, probs, layers = _sample_host(indptr, indices, values, dense.shape[1],
                                                 [np.asarray(s) for s in seeds],
                                                 None if p is None else np.asarray(p), attrs, _host_rng(key))
        subgraphs = []
        for data, cols, ptr, shape in parts:
            out = np.zeros(shape, dense.dtype)
            out[np.repeat(np.arange(shape[0]), np.diff(ptr)), cols] = data
            subgraphs.append(out)
        return tuple(ids + subgraphs + probs + layers)
    return tuple(jax.pure_callback(host, tuple(specs), key, graph, prob, *seed_arrays))


@x64
def _sampler_sparse(op, kernel, graph, prob, seed_arrays):
    _require_csr(op, graph)
    _check_graph(op, graph.shape)
    indptr, indices, values = _csr_parts(graph)
    rng = _host_rng(_rng.next_key())
    ids, parts, probs, layers = _sample_host(indptr, indices, values, graph.shape[1],
                                             [_host(s) for s in seed_arrays],
                                             None if prob is None else _host(prob), kernel.attrs, rng)
    like = graph.data
    subgraphs = [csr_from_parts(_on_device(data, like), cols, ptr, shape) for data, cols, ptr, shape in parts]
    dense = [_on_device(a, like) for a in ids] + subgraphs + [_on_device(a, like) for a in probs + layers]
    return tuple(dense)


def _uniform_inputs(attrs, n):
    return ('csr_matrix',) + tuple('seed_array%d' % i for i in range(n - 1))


def _non_uniform_inputs(attrs, n):
    return ('csr_matrix', 'probability') + tuple('seed_array%d' % i for i in range(n - 2))


@register('_contrib_dgl_csr_neighbor_uniform_sample', variadic=True, inputs=_uniform_inputs, random=True,
          num_outputs=lambda attrs: 3 * (attrs['num_args'] - 1), params=_SAMPLE_PARAMS)
def dgl_csr_neighbor_uniform_sample(csr_matrix, *seed_arrays, num_args, num_hops, num_neighbor,
                                    max_num_vertices, _key):
    """A subgraph sampled around each seed array, up to ``num_neighbor`` out-edges drawn uniformly
    per vertex for ``num_hops`` hops and ``max_num_vertices`` vertices. Outputs, per seed array in
    turn: the vertex ids (sorted, padded with -1, their count last), the sampled edges (a
    ``max_num_vertices`` x N graph, row i the edges of vertex i), and each vertex's hop."""
    attrs = {'num_hops': num_hops, 'num_neighbor': num_neighbor, 'max_num_vertices': max_num_vertices}
    return _sampler_dense('dgl_csr_neighbor_uniform_sample', csr_matrix, None, seed_arrays, attrs, _key)


@register('_contrib_dgl_csr_neighbor_non_uniform_sample', variadic=True, inputs=_non_uniform_inputs,
          random=True, num_outputs=lambda attrs: 4 * (attrs['num_args'] - 2), params=_SAMPLE_PARAMS)
def dgl_csr_neighbor_non_uniform_sample(csr_matrix, probability, *seed_arrays, num_args, num_hops,
                                        num_neighbor, max_num_vertices, _key):
    """``dgl_csr_neighbor_uniform_sample`` drawing each neighbour in proportion to
    ``probability[neighbour]``; the sampled vertices' probabilities come third."""
    attrs = {'num_hops': num_hops, 'num_neighbor': num_neighbor, 'max_num_vertices': max_num_vertices}
    return _sampler_dense('dgl_csr_neighbor_non_uniform_sample', csr_matrix, probability, seed_arrays,
                          attrs, _key)


set_sparse_form('_contrib_edge_id', _edge_id_sparse)
set_sparse_form('_contrib_dgl_adjacency', _adjacency_sparse)
set_sparse_form('_contrib_dgl_subgraph', _subgraph_sparse)
set_sparse_form('_contrib_dgl_graph_compact', _compact_sparse)
set_sparse_form('_contrib_dgl_csr_neighbor_uniform_sample',
                lambda kernel, graph, *seeds: _sampler_sparse('dgl_csr_neighbor_uniform_sample', kernel,
                                                              graph, None, seeds))
set_sparse_form('_contrib_dgl_csr_neighbor_non_uniform_sample',
                lambda kernel, graph, prob, *seeds: _sampler_sparse('dgl_csr_neighbor_non_uniform_sample',
                                                                    kernel, graph, prob, seeds))
