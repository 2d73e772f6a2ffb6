"""Data movement recorded on the host (gluonjax/ops/_first_records.py): a first recorded call
of diagonal, take, split... compiles neither its vjp form nor its backward, and gives the
gradients the compiled path gives."""
import numpy as onp
import pytest

import gluonjax as mx
from gluonjax import autograd, np, npx
from gluonjax.ops import _host

pytestmark = pytest.mark.skipif(mx.context.num_gpus() > 0, reason='a GPU is present: no host path')


@pytest.fixture(autouse=True)
def _fresh_counts():
    npx.set_np()
    _host.forget()
    yield
    npx.reset_np()


def _recorded(fn, *arrays):
    with autograd.record():
        out = fn(*arrays)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return outs, outs[0]._ag[0]


@pytest.mark.parametrize('dtype', ['float16', 'float32', 'float64', 'int8', 'uint8', 'int64'])
def test_diagflat_and_diagonal_recorded_on_the_host(dtype):
    x = np.array(onp.arange(12).reshape(3, 4) - 5, dtype=dtype)
    x.attach_grad()
    (y,), node = _recorded(lambda a: np.diagflat(a, 2), x)
    assert node.pullback is None and node.backward_fn is not None  # nothing compiled
    assert onp.array_equal(y.asnumpy(), onp.diagflat(x.asnumpy(), 2))
    y.backward()
    assert x.grad.dtype == onp.dtype(dtype)
    assert onp.array_equal(x.grad.asnumpy(), onp.ones((3, 4)))
    (d,), _ = _recorded(lambda a: np.diagonal(a, 1), x)
    d.backward(np.array([2, 3, 4], dtype=dtype))
    expected = onp.zeros((3, 4))
    expected[[0, 1, 2], [1, 2, 3]] = [2, 3, 4]
    assert onp.array_equal(x.grad.asnumpy(), expected)


def test_repeated_sources_add_their_cotangents():
    data = onp.random.RandomState(0).uniform(-1, 1, (3, 4)).astype('float32')
    x = np.array(data)
    x.attach_grad()
    (y,), node = _recorded(lambda a: np.take(a, np.array([0, 0, 2, -1]), axis=1, mode='wrap'), x)
    assert node.pullback is None
    ct = onp.arange(12, dtype='float32').reshape(3, 4)
    y.backward(np.array(ct))
    expected = onp.zeros((3, 4), 'float32')
    onp.add.at(expected.T, [0, 0, 2, 3], ct.T)
    assert onp.array_equal(x.grad.asnumpy(), expected)


def test_split_outputs_and_graph_mixed_with_compiled_nodes():
    x = np.array(onp.arange(8.0).reshape(2, 4))
    x.attach_grad()
    with autograd.record():
        a, b = np.split(x, 2, axis=1)  # host node
        z = (a * b).sum()              # compiled nodes: the split's pullback is compiled and fused
    z.backward()
    xv = x.asnumpy()
    assert onp.array_equal(x.grad.asnumpy(), onp.concatenate([xv[:, 2:], xv[:, :2]], axis=1))
    with autograd.record():
        parts = np.array_split(x, 3, axis=1)
    autograd.backward(parts)
    assert onp.array_equal(x.grad.asnumpy(), onp.ones((2, 4)))


def test_hybridized_one_operator_block_and_create_graph():
    class Diag(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, a):
            return F.np.diagonal(a, -1)
    block = Diag()
    block.hybridize()
    x = np.array(onp.arange(9.0).reshape(3, 3))
    x.attach_grad()
    (y,), node = _recorded(block, x)
    assert node.pullback is None
    y.backward()
    assert onp.array_equal(x.grad.asnumpy(), onp.eye(3, k=-1))
    with autograd.record():
        y = np.diagonal(x * x)
        g = autograd.grad(y, [x], create_graph=True)[0]  # the host node differentiated as recorded
        s = g.sum()
    s.backward()
    assert onp.array_equal(x.grad.asnumpy(), 2 * onp.eye(3))


def test_a_cast_is_not_a_move():
    x = mx.nd.array([[1.5, 2.5]], dtype='float32')
    x.attach_grad()
    with autograd.record():
        y = x.astype('float64')
    assert 'deferred' in y._ag[0].backward_fn.__qualname__  # its gradient compiled, not moved
    y.backward()
    assert onp.array_equal(x.grad.asnumpy(), [[1, 1]])


def _compiled_gradients(fn, arrays):
    """The gradients by the vjp forms compiled at once (every signature compiled)."""
    from gluonjax.ops import _first_records
    saved = _first_records.record
    _first_records.record = lambda *a: None
    try:
        with autograd.record():
            out = fn(*arrays)
        out.backward()
        return [a.grad.asnumpy() for a in arrays]
    finally:
        _first_records.record = saved


@pytest.mark.parametrize('dtype', ['float16', 'float32', 'float64'])
def test_deferred_gradients_of_pointwise_and_other_operators(dtype):
    rng = onp.random.RandomState(1)
    cases = [(lambda a, b: np.arctan2(a, b) * a, [(5, 7), (5, 7)]),   # pointwise: bucketed backward
             (lambda a, b: a / b, [(3, 1), (1, 4)]),                  # broadcast: per shape
             (lambda a: np.ediff1d(a, to_begin=2.0), [(2, 3)]),
             (lambda a: a.sum(axis=1) * 3, [(4, 5)])]                 # rows
    for fn, shapes in cases:
        data = [rng.uniform(0.5, 2, s).astype(dtype) for s in shapes]
        arrays = [np.array(d) for d in data]
        for a in arrays:
            a.attach_grad()
        with autograd.record():
            out = fn(*arrays)
        out.backward()
        got = [a.grad.asnumpy() for a in arrays]
        again = [np.array(d) for d in data]
        for a in again:
            a.attach_grad()
        for g, e in zip(got, _compiled_gradients(fn, again)):
            assert g.dtype == e.dtype
            onp.testing.assert_allclose(g, e, rtol=1e-3 if dtype == 'float16' else 1e-6)


def test_a_recorded_call_never_differentiated_compiles_no_vjp():
    from gluonjax import _tape
    x = np.array(onp.arange(6.0).reshape(2, 3) + 17)
    x.attach_grad()
    before = len(_tape._fwd_cache)
    with autograd.record():
        y = np.exp(x) + x
    assert len(_tape._fwd_cache) == before
    assert onp.allclose(y.asnumpy(), onp.exp(x.asnumpy()) + x.asnumpy())


@pytest.mark.parametrize('dtypes', [('float32', 'float32'), ('float16', 'float64'), ('int32', 'float32')])
def test_broadcast_pointwise_first_calls_in_a_bucket(dtypes):
    """A broadcasting pointwise operator's first calls run in a size bucket, the inputs broadcast
    on the host; the broadcast input's gradient is its elements' summed."""
    rng = onp.random.RandomState(2)
    a0 = rng.uniform(1, 2, (2, 3, 4)).astype(dtypes[0])
    b0 = rng.uniform(1, 2, (3, 1)).astype(dtypes[1])
    fn = lambda a, b: np.power(a, b) * 2  # noqa: E731
    a, b = np.array(a0), np.array(b0)
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        y = fn(a, b)
    y.backward()
    a2, b2 = np.array(a0), np.array(b0)
    a2.attach_grad()
    b2.attach_grad()
    ga, gb = _compiled_gradients(fn, [a2, b2])
    assert y.dtype == onp.result_type(a0, b0) or dtypes[0] == 'int32'
    for g, e in ((a.grad.asnumpy(), ga), (b.grad.asnumpy(), gb)):
        assert g.dtype == e.dtype and g.shape == e.shape
        onp.testing.assert_allclose(g, e, rtol=1e-3 if 'float16' in dtypes else 1e-5)
    with pytest.raises(mx.base.MXNetError):  # the elemwise operator still refuses two shapes
        mx.nd.elemwise_add(mx.nd.ones((3, 1)), mx.nd.ones((3, 4)))


@pytest.mark.parametrize('name', ['sum', 'mean', 'prod', 'max', 'norm'])
def test_reductions_of_new_shapes_differentiated_by_their_row_buckets(name, compiles):
    """A recorded reduction's first calls: its gradient is the vjp of the program reducing the
    rows of its (M, K) bucket, shared by the shapes of that bucket, not a program per shape."""
    rng = onp.random.RandomState(7)
    nd = mx.nd
    grads = {'sum': lambda x, ax, o: onp.ones_like(x),
             'mean': lambda x, ax, o: onp.ones_like(x) / (x.size // o.size),
             'prod': lambda x, ax, o: onp.prod(x, axis=ax, keepdims=True) / x,
             'max': lambda x, ax, o: (x == onp.max(x, axis=ax, keepdims=True)).astype(x.dtype),
             'norm': lambda x, ax, o: x / onp.sqrt((x * x).sum(axis=ax, keepdims=True))}
    before = compiles[0]
    for rows in range(3, 15):  # 12 shapes never seen before, reduced over their last two axes
        x = rng.uniform(0.5, 1.5, (rows, 3, 5)).astype('float32')
        a = nd.array(x)
        a.attach_grad()
        with autograd.record():
            out = getattr(nd, name)(a, axis=(1, 2))
        out.backward()
        onp.testing.assert_allclose(a.grad.asnumpy(), grads[name](x, (1, 2), out.asnumpy()), rtol=1e-5)
    assert compiles[0] - before <= 4  # the row buckets' programs (rows of 16), not one per shape


def test_a_recorded_signature_past_its_first_calls_runs_its_vjp_form_by_one_lookup():
    from gluonjax.ops._kernel import kernel_for
    x, w = np.array(onp.arange(6.0).reshape(2, 3)), np.array([[0.5, -1.0, 2.0]])
    x.attach_grad()
    for i in range(_host.HOST_CALLS + 2):
        (y,), node = _recorded(lambda a, b: a * b, x, w)
        # past the first calls the compiled vjp form records it (its pullback, freed by backward)
        assert (node.pullback is not None) == (i >= _host.HOST_CALLS)
        y.backward()
        assert onp.array_equal(x.grad.asnumpy(), onp.broadcast_to(w.asnumpy(), (2, 3)))
    kernel = kernel_for('broadcast_mul', {}, True)  # what mx.np's `*` runs
    assert (x._data.aval, w._data.aval) in kernel.steady
    _host.forget()
    assert kernel.steady is None
    (y,), node = _recorded(lambda a, b: a * b, x, w)
    assert node.pullback is None  # a first call again: recorded on the host
    y.backward()
    assert onp.array_equal(x.grad.asnumpy(), onp.broadcast_to(w.asnumpy(), (2, 3)))
