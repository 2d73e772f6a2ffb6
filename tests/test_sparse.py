"""Sparse storage (row_sparse, csr): components, conversions, operators' output storage, sparse
gradients and lazy updates. Expected storage types and printed forms are MXNet 1.9.1's (recorded
with the reference interpreter: /tmp/mxref, see the comments); values are checked against NumPy."""
import pickle

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon, nd
from gluonjax.base import MXNetError

DENSE = np.array([[0, 1], [0, 0], [2, 3]], dtype=np.float32)


def rsp():
    return nd.array(DENSE).tostype('row_sparse')


def csr():
    return nd.array(DENSE).tostype('csr')


def test_components_dtypes_and_printing():
    r, c = rsp(), csr()
    assert (r.stype, c.stype, nd.array(DENSE).stype) == ('row_sparse', 'csr', 'default')
    assert r.indices.asnumpy().tolist() == [0, 2]
    assert r.data.asnumpy().tolist() == [[0, 1], [2, 3]]
    assert c.indptr.asnumpy().tolist() == [0, 1, 1, 3]
    assert c.indices.asnumpy().tolist() == [1, 0, 1]
    assert c.data.asnumpy().tolist() == [1, 2, 3]
    # MXNet: int64 aux arrays, and only the header is printed
    assert r.indices.dtype == np.int64 and c.indptr.dtype == np.int64 and c.indices.dtype == np.int64
    assert repr(r) == '\n<RowSparseNDArray 3x2 @cpu(0)>'
    assert str(c) == '\n<CSRNDArray 3x2 @cpu(0)>'
    assert isinstance(r, nd.sparse.RowSparseNDArray) and isinstance(c, nd.sparse.CSRNDArray)
    np.testing.assert_array_equal(r.asnumpy(), DENSE)
    assert type(c.todense()) is nd.NDArray and c.todense().stype == 'default'


def test_creation_from_components_dense_and_shape():
    r = nd.sparse.row_sparse_array(([[1, 2], [3, 4]], [0, 2]), shape=(3, 2))
    np.testing.assert_array_equal(r.asnumpy(), [[1, 2], [0, 0], [3, 4]])
    assert r.dtype == np.float32 and r.indices.dtype == np.int64
    c = nd.sparse.csr_matrix(([1, 2, 3], [0, 1, 1], [0, 1, 1, 3]), shape=(3, 2))
    np.testing.assert_array_equal(c.asnumpy(), [[1, 0], [0, 0], [0, 3]])
    inferred = nd.sparse.csr_matrix(([1, 2, 3], [0, 1, 1], [0, 1, 1, 3]))
    assert inferred.shape == (3, 2)
    coo = nd.sparse.csr_matrix(([5, 6], ([0, 2], [1, 0])), shape=(3, 2))
    np.testing.assert_array_equal(coo.asnumpy(), [[0, 5], [0, 0], [6, 0]])
    from_dense = nd.sparse.csr_matrix(DENSE, dtype='float64')
    assert from_dense.dtype == np.float64 and from_dense.indices.asnumpy().tolist() == [1, 0, 1]
    empty = nd.sparse.zeros('row_sparse', (3, 2))
    assert empty.data.shape == (0, 2) and empty.indices.shape == (0,)
    assert nd.zeros((2, 3), stype='csr').stype == 'csr'
    assert nd.sparse.csr_matrix((3, 2)).indptr.asnumpy().tolist() == [0, 0, 0, 0]
    with pytest.raises(ValueError):
        nd.sparse.row_sparse_array((2, 2), shape=(3, 2))
    with pytest.raises(ValueError):
        nd.sparse.zeros('dense', (2, 2))
    with pytest.raises(ValueError):     # MXNet: csr is 2-d only
        nd.array([1, 2, 3]).tostype('csr')
    with pytest.raises(ValueError):     # MXNet refuses row_sparse <-> csr
        rsp().tostype('csr')


def test_check_format_rejects_bad_components():
    bad_ptr = nd.sparse.csr_matrix(([7, 8, 9], [0, 2, 1], [0, 5, 2, 3]), shape=(3, 4))
    unsorted = nd.sparse.csr_matrix(([7, 8, 9], [2, 1, 1], [0, 2, 2, 3]), shape=(3, 4))
    rows_out = nd.sparse.row_sparse_array(([[1, 2], [3, 4]], [1, 4]), shape=(3, 2))
    for arr in (bad_ptr, unsorted, rows_out):
        with pytest.raises(MXNetError):
            arr.check_format()
    csr().check_format()
    rsp().check_format()


# (expression, MXNet 1.9.1's output storage)
STORAGE_CASES = [
    (lambda r, c, d: r + r, 'row_sparse'), (lambda r, c, d: r + d, 'default'),
    (lambda r, c, d: c + c, 'csr'), (lambda r, c, d: r * d, 'row_sparse'),
    (lambda r, c, d: nd.elemwise_mul(d, c), 'csr'), (lambda r, c, d: r * 2, 'row_sparse'),
    (lambda r, c, d: r + 0, 'row_sparse'), (lambda r, c, d: r + 1, 'default'),
    (lambda r, c, d: c / 2, 'csr'), (lambda r, c, d: -r, 'row_sparse'),
    (lambda r, c, d: nd.sqrt(c), 'csr'), (lambda r, c, d: nd.exp(r), 'default'),
    (lambda r, c, d: r > 0, 'row_sparse'), (lambda r, c, d: r > -1, 'default'),
    (lambda r, c, d: nd.broadcast_mul(c, nd.ones((3, 1))), 'csr'),
    (lambda r, c, d: nd.broadcast_add(c, nd.ones((3, 1))), 'default'),
    (lambda r, c, d: nd.add_n(r, r, r), 'row_sparse'), (lambda r, c, d: nd.zeros_like(r), 'row_sparse'),
    (lambda r, c, d: r.astype('float64'), 'row_sparse'), (lambda r, c, d: nd.sum(r), 'default'),
    (lambda r, c, d: c[1:3], 'csr'), (lambda r, c, d: nd.slice(c, begin=(1,), end=(3,)), 'csr'),
]


@pytest.mark.parametrize('case', range(len(STORAGE_CASES)))
def test_operator_output_storage_and_values(case):
    expr, stype = STORAGE_CASES[case]
    d = nd.array(np.arange(6, dtype=np.float32).reshape(3, 2) + 1)
    out = expr(rsp(), csr(), d)
    dense_out = expr(nd.array(DENSE), nd.array(DENSE), d)
    assert out.stype == stype
    np.testing.assert_allclose(out.asnumpy(), dense_out.asnumpy(), rtol=1e-6)


def test_row_sparse_sum_keeps_the_union_of_rows():
    r = rsp()
    assert (r + (-r)).indices.asnumpy().tolist() == [0, 2]   # as MXNet: structure, not values
    other = nd.sparse.row_sparse_array(([[5, 5]], [1]), shape=(3, 2))
    out = nd.elemwise_add(r, other)
    assert out.indices.asnumpy().tolist() == [0, 1, 2]
    np.testing.assert_array_equal(out.asnumpy(), DENSE + [[0, 0], [5, 5], [0, 0]])
    empty = nd.sparse.zeros('row_sparse', (3, 2))
    total = nd.add_n(empty, r, empty)
    assert total.stype == 'row_sparse' and total.indices.asnumpy().tolist() == [0, 2]
    np.testing.assert_array_equal(total.asnumpy(), DENSE)


def test_dot_storage_rules_and_values():
    rng = np.random.RandomState(0)
    a = rng.rand(4, 5).astype(np.float32) * (rng.rand(4, 5) > 0.5)
    b = rng.rand(5, 3).astype(np.float32)
    a_csr = nd.array(a).tostype('csr')
    out = nd.sparse.dot(a_csr, nd.array(b))
    assert out.stype == 'default'
    np.testing.assert_allclose(out.asnumpy(), a @ b, rtol=1e-5)
    b2 = rng.rand(4, 3).astype(np.float32)
    out_t = nd.dot(a_csr, nd.array(b2), transpose_a=True)
    assert out_t.stype == 'row_sparse'
    np.testing.assert_allclose(out_t.asnumpy(), a.T @ b2, rtol=1e-5)
    # MXNet: the rows are the columns the csr matrix stores something in
    assert out_t.indices.asnumpy().tolist() == sorted(set(np.nonzero(a)[1].tolist()))
    out_rsp = nd.dot(a_csr, nd.array(b).tostype('row_sparse'))
    np.testing.assert_allclose(out_rsp.asnumpy(), a @ b, rtol=1e-5)
    d = rng.rand(2, 4).astype(np.float32)
    out_dc = nd.dot(nd.array(d), a_csr)
    assert out_dc.stype == 'csr'
    np.testing.assert_allclose(out_dc.asnumpy(), d @ a, rtol=1e-5)
    with pytest.raises(MXNetError):
        nd.dot(a_csr, nd.ones((4, 3)))


def test_retain_take_getnnz_square_sum():
    kept = nd.sparse.retain(rsp(), nd.array([1, 2]))
    # MXNet 1.9.1 stores every requested row, zeros where the array held none
    assert kept.stype == 'row_sparse' and kept.indices.asnumpy().tolist() == [1, 2]
    np.testing.assert_array_equal(kept.data.asnumpy(), [[0, 0], [2, 3]])
    np.testing.assert_array_equal(kept.asnumpy(), [[0, 0], [0, 0], [2, 3]])
    taken = nd.take(csr(), nd.array([2, 0, 7]))       # 'clip': 7 -> 2
    assert taken.stype == 'csr'
    np.testing.assert_array_equal(taken.asnumpy(), DENSE[[2, 0, 2]])
    assert nd.contrib.getnnz(csr()).asnumpy().tolist() == [3]
    assert nd.contrib.getnnz(csr(), axis=1).asnumpy().tolist() == [1, 0, 2]
    sq = nd._internal._square_sum(rsp(), axis=1, keepdims=True)
    assert sq.stype == 'row_sparse'
    np.testing.assert_array_equal(sq.asnumpy(), [[1], [0], [13]])


@pytest.mark.parametrize('rows', [[0, 1], [1, 4], [0, 3], [3, 0, 3], []])
def test_retain_stores_the_requested_rows(rows):
    data = np.arange(12, dtype=np.float32).reshape(3, 2, 2) + 1
    held = [0, 2, 3]
    r = nd.sparse.row_sparse_array((data, held), shape=(5, 2, 2))
    kept = nd.sparse.retain(r, nd.array(rows))
    want = sorted(set(rows))
    dense = np.zeros((5, 2, 2), np.float32)
    dense[held] = data
    assert kept.indices.asnumpy().tolist() == want and kept.indices.dtype == np.int64
    np.testing.assert_array_equal(kept.data.asnumpy().reshape(-1, 2, 2), dense[want])
    expected = np.zeros_like(dense)
    expected[want] = dense[want]
    np.testing.assert_array_equal(kept.asnumpy(), expected)


def test_retain_of_an_empty_array_and_bad_rows():
    kept = nd.sparse.retain(nd.sparse.zeros('row_sparse', (4, 2)), nd.array([1, 2]))
    assert kept.indices.shape == (0,) and kept.data.shape == (0, 2)
    with pytest.raises(MXNetError, match='row indices'):
        nd.sparse.retain(rsp(), nd.array([5]))


@pytest.mark.parametrize('make, lazy, n', [
    (lambda: mx.optimizer.SGD(learning_rate=0.1, momentum=0.9), True, 1),
    (lambda: mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, lazy_update=False), False, 1),
    (lambda: mx.optimizer.Adam(learning_rate=0.1), True, 2),
    (lambda: mx.optimizer.Adam(learning_rate=0.1, lazy_update=False), False, 2),
    (lambda: mx.optimizer.AdaGrad(learning_rate=0.1), True, 1),
    (lambda: mx.optimizer.RMSProp(learning_rate=0.1), True, 1),
    (lambda: mx.optimizer.Ftrl(learning_rate=0.1), True, 2)])
def test_states_of_a_row_sparse_weight_are_row_sparse_where_mxnet_keeps_them(make, lazy, n):
    opt = make()
    weight = nd.array([[1, 2], [3, 4], [5, 6]]).tostype('row_sparse')
    state = opt.create_state(0, weight)
    states = state if isinstance(state, tuple) else (state,)
    assert len(states) == n
    assert [s.stype for s in states] == ['row_sparse' if lazy else 'default'] * n
    dense_weight = nd.array([[1, 2], [3, 4], [5, 6]])
    dense_state = opt.create_state(1, dense_weight)
    assert all(s.stype == 'default' for s in (dense_state if isinstance(dense_state, tuple) else (dense_state,)))
    grad = nd.sparse.row_sparse_array(([[1, -2]], [1]), shape=(3, 2))
    for _ in range(2):
        opt.update(0, weight, grad, state)
        opt.update(1, dense_weight, grad, dense_state)
    # the gradient's row: the same numbers whatever the storage; the weight keeps its own, and
    # its other rows do not move (zero gradient, no weight decay; Ftrl's sparse kernel skips them)
    assert weight.stype == 'row_sparse'
    np.testing.assert_allclose(weight.asnumpy()[1], dense_weight.asnumpy()[1], rtol=1e-6)
    np.testing.assert_array_equal(weight.asnumpy()[[0, 2]], [[1, 2], [5, 6]])
    assert np.all(weight.asnumpy()[1] != [3, 4])
    for s, d in zip(states, dense_state if isinstance(dense_state, tuple) else (dense_state,)):
        np.testing.assert_allclose(s.asnumpy()[1], d.asnumpy()[1], rtol=1e-6)


def test_lazy_sgd_of_the_row_sparse_tutorial():
    # MXNet 1.9.1's row_sparse tutorial: only the gradient's rows of weight and momentum move
    weight = nd.ones((4, 2)).tostype('row_sparse')
    grad = nd.sparse.row_sparse_array(([[1, 2], [4, 5]], [1, 2]), shape=(4, 2))
    sgd = mx.optimizer.SGD(learning_rate=0.01, momentum=0.01)
    momentum = sgd.create_state(0, weight)
    sgd.update(0, weight, grad, momentum)
    g = np.array([[0, 0], [1, 2], [4, 5], [0, 0]], np.float32)
    np.testing.assert_allclose(momentum.asnumpy(), -0.01 * g, rtol=1e-6)
    np.testing.assert_allclose(weight.asnumpy(), 1 - 0.01 * g, rtol=1e-6)
    assert weight.stype == momentum.stype == 'row_sparse'


def test_setitem_copy_pickle_and_unsupported():
    r = rsp()
    r[:] = np.ones((3, 2))
    assert r.stype == 'row_sparse' and r.indices.asnumpy().tolist() == [0, 1, 2]
    c = csr()
    target = nd.sparse.zeros('csr', (3, 2))
    c.copyto(target)
    np.testing.assert_array_equal(target.asnumpy(), DENSE)
    back = pickle.loads(pickle.dumps(c))
    assert back.stype == 'csr' and back.asnumpy().tolist() == DENSE.tolist()
    with pytest.raises(Exception):
        rsp()[1]
    with pytest.raises(MXNetError):
        rsp().reshape((2, 3))


def test_embedding_sparse_grad_and_lazy_sgd():
    emb = gluon.nn.Embedding(6, 3, sparse_grad=True)
    emb.initialize(mx.init.Constant(1.0))
    trainer = gluon.Trainer(emb.collect_params(), 'sgd', {'learning_rate': 0.5, 'wd': 0.1})
    with autograd.record():
        loss = emb(nd.array([1, 3, 3])).sum()
    loss.backward()
    grad = emb.weight.grad()
    assert grad.stype == 'row_sparse' and grad.indices.asnumpy().tolist() == [1, 3]
    trainer.step(1)
    w = emb.weight.data().asnumpy()
    # lazy update: only rows 1 and 3 move, weight decay included (MXNet 1.9.1: 0.45, -0.05)
    np.testing.assert_allclose(w[1], 1 - 0.5 * (1 + 0.1), rtol=1e-6)
    np.testing.assert_allclose(w[3], 1 - 0.5 * (2 + 0.1), rtol=1e-5)
    np.testing.assert_array_equal(w[[0, 2, 4, 5]], 1)


def test_adam_lazy_and_standard_updates():
    def run(lazy):
        weight = nd.ones((4, 2))
        grad = nd.sparse.row_sparse_array(([[1, 1]], [2]), shape=(4, 2))
        opt = mx.optimizer.Adam(learning_rate=0.1, lazy_update=lazy)
        state = opt.create_state(0, weight)
        opt.update(0, weight, grad, state)
        return weight.asnumpy(), state[0].asnumpy()
    w_lazy, m_lazy = run(True)
    np.testing.assert_array_equal(w_lazy[[0, 1, 3]], 1)
    assert w_lazy[2, 0] < 1 and m_lazy[2, 0] != 0 and np.all(m_lazy[[0, 1, 3]] == 0)
    w_std, _ = run(False)
    np.testing.assert_allclose(w_std[2], w_lazy[2], rtol=1e-6)
    np.testing.assert_array_equal(w_std[[0, 1, 3]], 1)   # zero gradient and wd=0: adam moves nothing


def test_kvstore_row_sparse_pull():
    kv = mx.kv.create('local')
    kv.init('e', nd.ones((4, 2)) * 3)
    out = nd.sparse.zeros('row_sparse', (4, 2))
    kv.row_sparse_pull('e', out=out, row_ids=nd.array([3, 1, 3]))
    assert out.stype == 'row_sparse' and out.indices.asnumpy().tolist() == [1, 3]
    np.testing.assert_array_equal(out.asnumpy(), [[0, 0], [3, 3], [0, 0], [3, 3]])


def test_dot_forward_stype_sets_the_output_storage():
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.ones((3, 2), np.float32)
    for lhs in ('default', 'csr'):
        for wanted in ('default', 'csr', 'row_sparse'):
            out = nd.dot(nd.array(a).tostype(lhs), nd.array(b), forward_stype=wanted)
            assert out.stype == wanted
            np.testing.assert_allclose(out.asnumpy(), a @ b)


def test_executor_with_sparse_arguments_gives_mxnet_storage():
    x = mx.sym.var('x', stype='row_sparse')
    exe = mx.sym.sqrt(x * 4).bind(mx.cpu(), {'x': rsp()})
    out = exe.forward()[0]
    assert out.stype == 'row_sparse'      # MXNet: sqrt and *4 keep row_sparse
    np.testing.assert_allclose(out.asnumpy(), np.sqrt(DENSE * 4))
    exe = mx.sym.exp(x).bind(mx.cpu(), {'x': rsp()})
    assert exe.forward()[0].stype == 'default'


def test_simple_bind_gives_embedding_a_row_sparse_gradient():
    data, weight = mx.sym.var('data'), mx.sym.var('w', stype='row_sparse')
    for sparse_grad, expected in ((True, 'row_sparse'), (False, 'default')):
        emb = mx.sym.Embedding(data, weight, input_dim=5, output_dim=2, sparse_grad=sparse_grad)
        exe = emb.simple_bind(mx.cpu(), grad_req={'data': 'null', 'w': 'write'}, data=(3,))
        assert exe.arg_dict['w'].stype == 'row_sparse'
        exe.arg_dict['w'][:] = np.arange(10, dtype=np.float32).reshape(5, 2)
        exe.arg_dict['data'][:] = np.array([4, 1, 4])
        exe.forward(is_train=True)
        exe.backward([nd.ones((3, 2))])
        grad = exe.grad_dict['w']
        assert grad.stype == expected
        np.testing.assert_array_equal(grad.asnumpy(), [[0, 0], [1, 1], [0, 0], [0, 0], [2, 2]])


def test_scatter_operators_compute_on_stored_values_only():
    r = rsp()
    plus = nd._internal._scatter_plus_scalar(r, scalar=9)
    assert plus.stype == 'row_sparse' and plus.indices.asnumpy().tolist() == [0, 2]
    np.testing.assert_array_equal(plus.asnumpy(), [[9, 10], [0, 0], [11, 12]])
    div = nd._internal._scatter_elemwise_div(csr(), nd.ones((3, 2)) * 2)
    assert div.stype == 'csr'
    np.testing.assert_array_equal(div.asnumpy(), DENSE / 2)
    dense = nd._internal._scatter_minus_scalar(nd.array(DENSE), scalar=1)
    np.testing.assert_array_equal(dense.asnumpy(), DENSE - 1)


def test_batch_norm_on_sparse_inputs_refuses_fix_gamma_as_mxnet():
    # MXNet's storage rule: BatchNorm falls back to dense for sparse inputs, except fix_gamma=True
    data = mx.sym.Variable('data', stype='row_sparse')
    args = {'data': mx.nd.array(np.random.normal(size=(2, 3))).tostype('row_sparse'),
            'batchnorm0_gamma': mx.nd.ones((3,)).tostype('row_sparse'),
            'batchnorm0_beta': mx.nd.zeros((3,)).tostype('row_sparse')}
    aux = {'batchnorm0_moving_mean': mx.nd.zeros((3,)), 'batchnorm0_moving_var': mx.nd.ones((3,))}
    with pytest.raises(mx.base.MXNetError, match='fix_gamma'):
        mx.sym.BatchNorm(data, fix_gamma=True, name='batchnorm0').bind(mx.cpu(), args, aux_states=aux).forward()
    out = mx.sym.BatchNorm(data, fix_gamma=False, name='batchnorm0').bind(mx.cpu(), args, aux_states=aux).forward()
    assert out[0].stype == 'default' and out[0].shape == (2, 3)
