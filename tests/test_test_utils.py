"""mx.test_utils, mx.runtime and the small mx.base / mx.util names MXNet's own tests import."""
import os
import sys

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import test_utils as tu


def test_star_import_hands_out_mxnets_public_names():
    ns = {}
    exec('from gluonjax.test_utils import *', ns)
    for name in ('assert_almost_equal', 'check_numeric_gradient', 'check_symbolic_forward', 'check_symbolic_backward',
                 'check_consistency', 'default_context', 'set_default_context', 'use_np', 'rand_ndarray',
                 'verify_generator', 'gen_buckets_probs_with_ppf', 'discard_stderr', 'assert_exception', 'environment',
                 'is_cd_run', 'has_tvm_ops', 'is_op_runnable', 'collapse_sum_like', 'compare_ndarray_tuple',
                 'compare_optimizer', 'new_matrix_with_real_eigvals_nd', 'getenv', 'Features',
                 # MXNet's module has no __all__: its imports come with a star-import
                 'mx', 'np', 'sys', 'os', 'npt', 'rnd', 'Context', 'Symbol', 'json'):
        assert name in ns, name
    assert ns['mx'] is mx and ns['np'] is np and ns['sys'] is sys
    assert ns['use_np'] is mx.util.use_np
    assert not hasattr(tu, '__all__')
    assert len([n for n in ns if not n.startswith('_')]) > 100   # MXNet 1.9.1's has about 110


def test_assert_almost_equal_numbers():
    tu.assert_almost_equal(mx.nd.array([1.0, 2.0]), np.array([1.0, 2.00001]))
    with pytest.raises(AssertionError, match=r'Error .* exceeds tolerance rtol=1\.000000e-04.*\n'
                                             r'Location of maximum error: \(1,\), a=2\.00000000, b=2\.0999999'):
        tu.assert_almost_equal(np.array([1.0, 2.0], np.float32), np.array([1.0, 2.1], np.float32))
    assert tu.almost_equal(np.array([1.0, np.nan]), np.array([1.0, np.nan]), equal_nan=True)
    assert not tu.almost_equal(np.array([1.0, np.nan]), np.array([1.0, np.nan]))
    assert tu.find_max_violation(np.array([0., 1., 5.]), np.array([0., 1., 4.]), rtol=0, atol=0.5)[0] == (2,)
    tu.assert_almost_equal_with_err(np.arange(10.), np.r_[np.arange(9.), 100.], etol=0.2)
    with pytest.raises(AssertionError):
        tu.assert_almost_equal_with_err(np.arange(10.), np.r_[np.arange(8.), 100., 100.], etol=0.1)


def test_check_numeric_gradient_passes_on_a_right_gradient_and_fails_on_a_wrong_one():
    np.random.seed(0)
    x, y = mx.sym.Variable('x'), mx.sym.Variable('y')
    loc = [np.random.rand(3, 4) + 0.5, np.random.rand(3, 4)]
    tu.check_numeric_gradient(mx.sym.sin(x) * y, loc, numeric_eps=1e-3, rtol=1e-2, atol=1e-3)
    tu.check_numeric_gradient(x * x, {'x': loc[0]}, grad_nodes={'x': 'add'}, numeric_eps=1e-3, rtol=1e-2, atol=1e-3)

    # a block whose backward is wrong: d(2x)/dx reported as 3
    class Wrong(mx.autograd.Function):
        def forward(self, a):
            return a * 2

        def backward(self, dy):
            return dy * 3

    inp = mx.nd.array(loc[0])
    inp.attach_grad()
    with mx.autograd.record():
        out = Wrong()(inp)
    out.backward(mx.nd.ones_like(out))
    numeric = (2 * (loc[0] + 1e-3) - 2 * (loc[0] - 1e-3)) / 2e-3
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(numeric, inp.grad, rtol=1e-2, atol=1e-3)
    # and check_numeric_gradient itself catches a wrong symbolic gradient: BlockGrad's is 0
    with pytest.raises(AssertionError, match='NUMERICAL_x'):
        tu.check_numeric_gradient(mx.sym.BlockGrad(x) * 3, [loc[0]], numeric_eps=1e-3, rtol=1e-2, atol=1e-3)


def test_numeric_grad_batches_its_perturbations_and_gives_the_loops_numbers(monkeypatch):
    # f = sum(tanh(x @ w.T) * proj); the batched forwards (a small batch, so the last one is
    # padded) give the same central differences as numpy's, and as one forward per element
    np.random.seed(1)
    x, w, p = np.random.rand(3, 5), np.random.rand(4, 5), np.random.rand(3, 4) + 0.1
    sym = mx.sym.FullyConnected(mx.sym.Variable('x'), mx.sym.Variable('w'), num_hidden=4, no_bias=True)
    sym = mx.sym.tanh(sym) * mx.sym.Variable('p')
    loc = {'x': x, 'w': w, 'p': p}
    exe = sym.bind(mx.cpu(), args={k: mx.nd.array(v, dtype='float64') for k, v in loc.items()})
    monkeypatch.setattr(tu, '_NUMERIC_GRAD_BATCH_ELEMENTS', 6 * 15)   # 3 elements a batch: 20 = 6*3 + 2
    eps = 1e-4
    batched = tu.numeric_grad(exe, loc, eps=eps, dtype=np.float64)

    def f(x_, w_):
        return (np.tanh(x_ @ w_.T) * p).sum()
    expect_w = np.zeros_like(w)
    for i in range(w.size):
        d = np.zeros(w.size)
        d[i] = eps / 2
        expect_w.flat[i] = (f(x, w + d.reshape(w.shape)) - f(x, w - d.reshape(w.shape))) / eps
    np.testing.assert_allclose(batched['w'], expect_w, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(batched['p'], np.tanh(x @ w.T), rtol=1e-6)
    monkeypatch.setattr(exe, '_first_output_sums', lambda *a: None)      # the per-element loop
    looped = tu.numeric_grad(exe, loc, eps=eps, dtype=np.float64)
    for k in loc:
        np.testing.assert_allclose(batched[k], looped[k], rtol=1e-9, atol=1e-12)


def test_numeric_grad_of_a_random_graph_runs_one_forward_per_element():
    x = mx.sym.Variable('x')
    exe = (mx.sym.Dropout(x, p=0.0) * 2).bind(mx.cpu(), args={'x': mx.nd.ones((2, 2))})
    assert exe._first_output_sums('x', np.ones((2, 2, 2), np.float32), True) is None
    grads = tu.numeric_grad(exe, {'x': np.ones((2, 2), np.float32)}, eps=1e-2)
    np.testing.assert_allclose(grads['x'], 2 * np.ones((2, 2)), rtol=1e-3)


def test_check_symbolic_forward_and_backward():
    lhs, rhs = mx.sym.Variable('lhs'), mx.sym.Variable('rhs')
    m1, m2 = np.array([[1., 2.], [3., 4.]]), np.array([[5., 6.], [7., 8.]])
    out = tu.check_symbolic_forward(mx.sym.dot(lhs, rhs), [m1, m2], [np.array([[19., 22.], [43., 50.]])])
    assert out[0].shape == (2, 2)
    with pytest.raises(AssertionError, match='EXPECTED_dot'):
        tu.check_symbolic_forward(mx.sym.dot(lhs, rhs, name='dot'), [m1, m2], [np.zeros((2, 2))])
    og = np.ones((2, 2))
    for req in ('write', 'add'):
        grads = tu.check_symbolic_backward(lhs * rhs, [m1, m2], [og], [m2, m1], grad_req=req)
        assert sorted(grads) == ['lhs', 'rhs']
    tu.check_symbolic_backward(lhs * rhs, {'lhs': m1, 'rhs': m2}, [og], {'lhs': m2}, grad_req={'lhs': 'write',
                                                                                               'rhs': 'null'})
    with pytest.raises(AssertionError, match='BACKWARD_lhs'):
        tu.check_symbolic_backward(lhs * rhs, [m1, m2], [og], [m1, m2])


def test_check_consistency_across_contexts_and_dtypes():
    sym = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=3, name='fc')
    ctx_list = [{'ctx': mx.cpu(0), 'data': (2, 4), 'type_dict': {'data': np.float64}},
                {'ctx': mx.cpu(0), 'data': (2, 4), 'type_dict': {'data': np.float32}}]
    gt = tu.check_consistency(sym, ctx_list)
    assert gt['fc_output'].shape == (2, 3) and gt['fc_weight'].shape == (3, 4)


def test_collapse_sum_like_and_np_reduce():
    a = np.arange(24.).reshape(2, 3, 4)
    np.testing.assert_array_equal(tu.collapse_sum_like(a, (3, 1)), a.sum(axis=(0, 2)).reshape(3, 1))
    np.testing.assert_array_equal(tu.collapse_sum_like(a, (1, 3, 4)), a.sum(axis=0, keepdims=True))
    np.testing.assert_array_equal(tu.collapse_sum_like(a, (2, 3, 4)), a)
    np.testing.assert_array_equal(tu.np_reduce(a, (0, 2), True, np.sum), a.sum(axis=(0, 2), keepdims=True))


def test_verify_generator_accepts_the_right_distribution_and_rejects_a_wrong_one():
    import scipy.stats as ss
    mx.random.seed(1)
    buckets, probs = tu.gen_buckets_probs_with_ppf(lambda q: ss.norm.ppf(q, 0, 1), 5)
    assert len(buckets) == 5 and probs == [0.2] * 5 and buckets[0][0] == -np.inf
    ps = tu.verify_generator(lambda n: mx.nd.random.normal(0, 1, shape=(n,)).asnumpy(), buckets, probs,
                             nsamples=20000)
    assert len(ps) == 5
    with pytest.raises(AssertionError, match='Generator test fails'):
        tu.verify_generator(lambda n: np.random.normal(0.3, 1, size=n), buckets, probs, nsamples=20000)
    # discrete buckets
    tu.verify_generator(lambda n: np.random.randint(0, 4, size=n), [0, 1, 2, 3], [0.25] * 4, nsamples=20000)
    assert tu.mean_check(lambda n: np.random.normal(2, 1, size=n), 2, 1, nsamples=100000)
    assert not tu.mean_check(lambda n: np.random.normal(2.1, 1, size=n), 2, 1, nsamples=100000)


def test_rand_ndarray_and_sparse_helpers():
    a = tu.rand_ndarray((3, 4))
    assert a.shape == (3, 4) and a.dtype == np.float32 and a.context == tu.default_context()
    for stype in ('row_sparse', 'csr'):
        sparse = tu.rand_ndarray((3, 4), stype, density=1)
        assert sparse.stype == stype and np.all(sparse.asnumpy() != 0)
        assert tu.create_sparse_array((3, 4), stype, data_init=2).stype == stype
    rows = tu.rand_sparse_ndarray((5, 2), 'row_sparse', rsp_indices=np.array([1, 3]))[0]
    assert rows.indices.asnumpy().tolist() == [1, 3]
    powerlaw = tu.rand_sparse_ndarray((4, 16), 'csr', density=0.2, distribution='powerlaw')[0]
    per_row = np.diff(powerlaw.indptr.asnumpy())
    assert per_row[1] == 2 * per_row[0] and per_row[2] == 2 * per_row[1]


def test_contexts_and_environment():
    prev = tu.default_context()
    try:
        tu.set_default_context(mx.cpu(1))
        assert tu.default_context() == mx.cpu(1)
        assert mx.nd.zeros((1,)).context == mx.cpu(1)
    finally:
        tu.set_default_context(prev)
    with tu.environment('GJ_TU_VAR', '7'):
        assert os.environ['GJ_TU_VAR'] == '7' and mx.util.getenv('GJ_TU_VAR') == '7'
        with tu.environment({'GJ_TU_VAR': None}):
            assert mx.util.getenv('GJ_TU_VAR') is None
        assert os.environ['GJ_TU_VAR'] == '7'
    assert 'GJ_TU_VAR' not in os.environ
    with tu.environment('CD_JOB', '1'):
        assert tu.is_cd_run()
    with tu.environment('CD_JOB', None):
        assert not tu.is_cd_run()
    assert not tu.has_tvm_ops() and tu.is_op_runnable()
    tu.assert_exception(lambda: 1 / 0, ZeroDivisionError)
    with pytest.raises(AssertionError):
        tu.assert_exception(lambda: None, ZeroDivisionError)


def test_same_array_tells_views_from_copies():
    a = mx.nd.arange(6).reshape((2, 3))
    assert tu.same_array(a, a)
    assert tu.same_array(a, a[0:2])                      # a view: writing a shows in it
    assert not tu.same_array(a, a.copy())
    np.testing.assert_array_equal(a.asnumpy(), np.arange(6).reshape(2, 3))   # left as it was


def test_discard_stderr_silences_file_descriptor_2(capfd):
    with tu.discard_stderr():
        os.write(2, b'hidden\n')
    os.write(2, b'shown\n')
    assert capfd.readouterr().err == 'shown\n'


def test_compare_optimizer_and_ndarray_tuples():
    tu.compare_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9),
                         mx.optimizer.SGD(learning_rate=0.1, momentum=0.9), (3, 4), np.float32)
    with pytest.raises(AssertionError):
        tu.compare_optimizer(mx.optimizer.SGD(learning_rate=0.1), mx.optimizer.SGD(learning_rate=0.2),
                             (3, 4), np.float32)
    tu.compare_ndarray_tuple((mx.nd.ones((2,)), None), (np.ones(2), mx.nd.zeros((2,))))


def test_real_eigenvalue_matrices():
    np.random.seed(3)
    m = tu.new_matrix_with_real_eigvals_nd((2, 4, 4))
    assert m.shape == (2, 4, 4)
    assert np.allclose(np.linalg.eigvals(m).imag, 0, atol=1e-6)
    s = tu.new_sym_matrix_with_real_eigvals_nd((3, 3))
    np.testing.assert_allclose(s, s.T, atol=1e-12)


def test_runtime_features_are_honest():
    import jax
    f = mx.runtime.Features()
    assert f is mx.runtime.Features() and len(f) >= 30
    has_gpu = any(d.platform == 'gpu' for d in jax.devices())
    assert f.is_enabled('CUDA') == has_gpu and f.is_enabled('cuda') == has_gpu
    assert not f.is_enabled('MKLDNN') and not f.is_enabled('TVM_OP')
    assert [x.name for x in mx.runtime.feature_list()] == list(f)
    with pytest.raises(RuntimeError, match='unknown'):
        f.is_enabled('NO_SUCH_FEATURE')
    assert repr(f['CUDA']).endswith('CUDA')


def test_base_and_util_names():
    from gluonjax.base import py_str, _as_list, data_dir
    from gluonjax.ndarray.ndarray import _STORAGE_TYPE_STR_TO_ID, py_slice
    assert py_str(b'abc') == 'abc' and py_str('x') == 'x'
    assert _as_list(3) == [3] and _as_list((1, 2)) == (1, 2)
    with tu.environment('MXNET_HOME', '/tmp/gj_home'):
        assert data_dir() == '/tmp/gj_home'
    with tu.environment('MXNET_HOME', None):
        assert data_dir() == os.path.join(os.path.expanduser('~'), '.mxnet')
    assert _STORAGE_TYPE_STR_TO_ID == {'undefined': -1, 'default': 0, 'row_sparse': 1, 'csr': 2}
    assert py_slice is slice
    mx.util.setenv('GJ_UTIL_VAR', 'v')
    assert mx.util.getenv('GJ_UTIL_VAR') == 'v'
    mx.util.setenv('GJ_UTIL_VAR', None)
    assert mx.util.getenv('GJ_UTIL_VAR') is None


def test_numpy_array_scope():
    from gluonjax.util import _NumpyArrayScope, is_np_array
    assert not is_np_array()
    with _NumpyArrayScope(True) as scope:
        assert scope._is_np_array and is_np_array()
        with _NumpyArrayScope(False):
            assert not is_np_array()
        assert is_np_array()
    assert not is_np_array()


def test_numeric_grad_differentiates_the_named_arguments_only():
    """check_numeric_gradient asks numeric_grad for the grad_nodes alone (each other argument
    would cost a compile and its forwards for a gradient nobody compares)."""
    x, y = mx.sym.Variable('x'), mx.sym.Variable('y')
    loc = {'x': np.array([[1.0, 2.0]], np.float32), 'y': np.array([[3.0, 5.0]], np.float32)}
    ex = (x * y).bind(mx.cpu(), {k: mx.nd.array(v) for k, v in loc.items()})
    grads = tu.numeric_grad(ex, loc, eps=1e-2, names=['x'])
    np.testing.assert_allclose(grads['x'], loc['y'], rtol=1e-3)
    np.testing.assert_array_equal(grads['y'], 0)
    np.testing.assert_allclose(tu.numeric_grad(ex, loc, eps=1e-2)['y'], loc['x'], rtol=1e-3)


def test_identity_matrices_of_mxnets_linalg_tests():
    eye = tu.get_identity_mat(3)
    assert isinstance(eye, mx.nd.NDArray) and eye.dtype == np.float32
    np.testing.assert_array_equal(eye.asnumpy(), np.eye(3))
    batch = tu.get_identity_mat_batch(2)
    assert batch.shape == (2, 2, 2) and (batch.asnumpy() == np.eye(2)).all()
