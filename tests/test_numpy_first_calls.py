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
