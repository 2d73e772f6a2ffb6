"""mx.np calls on new shapes without a compile per shape (issue 15, session 11): samplers with
number parameters drawn per length bucket give the exact-shape operator's numbers, basic
indexing copied on the host gives NumPy's values and MXNet's views, ``x[()] = v`` fills x."""
import numpy as onp
import pytest

import gluonjax as mx
from gluonjax import np
from gluonjax.numpy._core import apply_op
from gluonjax.ops import _host

pytestmark = pytest.mark.usefixtures('np_mode')  # tests/conftest.py


@pytest.mark.parametrize('dist, params', [('normal', {'loc': 1.0, 'scale': 2.0}), ('gamma', {'shape': 0.7, 'scale': 1.0})])
def test_number_parameter_samplers_draw_the_exact_shape_numbers(dist, params):
    dtyped = dist in ('normal', 'gamma')
    for size, dtype in (((3, 4), None), (None, 'float64')):  # (None: one sample, a 0-d array)
        kwargs = {'dtype': dtype} if dtyped else {}
        mx.random.seed(3)
        drawn = getattr(np.random, dist)(*params.values(), size=size, **kwargs)
        mx.random.seed(3)
        exact = apply_op('_npi_' + dist, [], dict(params, size=size, dtype=dtype if dtyped else None))
        assert drawn.shape == exact.shape and drawn.dtype == exact.dtype
        onp.testing.assert_array_equal(drawn.asnumpy(), exact.asnumpy())


def test_basic_indexing_on_the_host_gives_numpy_values_and_views():
    x = onp.arange(24).reshape(2, 3, 4)
    _host.forget()
    for _ in range(_host.HOST_CALLS + 1):  # on the host, then compiled
        a = np.array(x, dtype='int64')
        for key in (0, -1, (1, 2), (0, slice(1, 3)), (None, 1), (1, Ellipsis)):
            got = a[key]
            assert got.dtype == onp.int64 and got.shape == x[key].shape
            onp.testing.assert_array_equal(got.asnumpy(), x[key])
        view = a[1]
        view[0] = 100  # a contiguous basic index shares memory with the array, as MXNet's
        assert a[1, 0].asnumpy().tolist() == [100] * 4
    with pytest.raises(IndexError):
        a[2]


def test_assigning_to_the_empty_index_fills_the_array():
    for shape in ((), (3,), (2, 3)):
        a, v = np.zeros(shape), np.array(onp.full(shape, 2.5, 'float32'))
        a[()] = v
        onp.testing.assert_array_equal(a.asnumpy(), onp.full(shape, 2.5))
    a = np.zeros((2, 2))
    a[()] = 5
    assert a.asnumpy().tolist() == [[5, 5], [5, 5]]


_BASIC_KEYS = (1, (slice(None), slice(1, 4, 2)), (-1, None, slice(3, 0, -1)), (Ellipsis, 2), (0, slice(None), 1))


def _basic_index_case(a, key, hybridize, compiles):
    """``a[key] * 2`` (recorded, then differentiated) by a Block of the inputs alone: its value,
    its gradient, and the programs compiled for it."""
    class Index(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return x[key] * 2
    net = Index()
    if hybridize:
        net.hybridize()
    x = a.copy()
    x.attach_grad()
    before = compiles[0]
    with mx.autograd.record():
        y = net(x)
    y.backward()
    return y.asnumpy(), x.grad.asnumpy(), compiles[0] - before


@pytest.mark.parametrize('hybridize', [False, True])
def test_recorded_basic_indexing_compiles_nothing_on_a_new_index(hybridize, compiles):
    """MXNet's tests build a Block per random index: its first recorded calls (eager, or
    hybridized into slice/squeeze/expand_dims nodes and run node by node) compile nothing, and
    their values and gradients are NumPy's."""
    values = onp.arange(60, dtype='float32').reshape(3, 4, 5)
    a = np.array(values)
    for key in _BASIC_KEYS:
        _basic_index_case(a, key, hybridize, compiles)  # the operators' and the tape's own programs
    _host.forget()
    for key in _BASIC_KEYS:
        got, grad, compiled = _basic_index_case(a, key, hybridize, compiles)
        onp.testing.assert_array_equal(got, values[key] * 2)
        want = onp.zeros_like(values)
        want[key] = 2  # each selected element is used once
        onp.testing.assert_array_equal(grad, want)
        assert compiled == 0, 'a new index %r compiled %d programs' % (key, compiled)


def test_hybridized_graph_of_moves_gives_the_compiled_values_after_its_first_calls():
    """A signature's first calls run node by node; past them the compiled graph runs: the same
    values and gradients either way, and shape inference (from the moves' host forms) agrees."""
    values = onp.arange(60, dtype='float32').reshape(3, 4, 5)
    key = (slice(None), slice(1, 4, 2))

    class Index(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x, y):
            return (x[key] + y[key]).T

    net = Index()
    net.hybridize()
    _host.forget()
    for _ in range(_host.HOST_CALLS + 2):
        x, y = np.array(values), np.array(values + 1)
        x.attach_grad()
        with mx.autograd.record():
            out = net(x, y)
        out.backward()
        onp.testing.assert_array_equal(out.asnumpy(), (values[key] + values[key] + 1).T)
        want = onp.zeros_like(values)
        want[key] = 1
        onp.testing.assert_array_equal(x.grad.asnumpy(), want)
    sym = net(mx.sym.var('x', shape=(3, 4, 5)).as_np_ndarray(), mx.sym.var('y', shape=(3, 4, 5)).as_np_ndarray())
    _, out_shapes, _ = sym.infer_shape(x=(3, 4, 5), y=(3, 4, 5))
    assert out_shapes == [(5, 2, 3)]
