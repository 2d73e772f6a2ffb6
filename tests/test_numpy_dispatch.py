"""Official NumPy functions on mx.np arrays (NEP 13/18 protocols, gluonjax/numpy/_dispatch.py)."""
import numpy as onp
import pytest

from gluonjax import autograd, np
from gluonjax.numpy_dispatch_protocol import (_NUMPY_ARRAY_FUNCTION_LIST, _NUMPY_ARRAY_UFUNC_LIST,
                                              with_array_function_protocol)


def _x():
    return np.array([[1., 2.], [3., 4.]])


def test_listed_functions_and_ufuncs_run_mx_np_and_give_mx_arrays():
    assert {'mean', 'linalg.norm', 'where'} <= set(_NUMPY_ARRAY_FUNCTION_LIST)
    assert {'add', 'sin', 'greater'} <= set(_NUMPY_ARRAY_UFUNC_LIST)
    assert 'round_' not in _NUMPY_ARRAY_FUNCTION_LIST  # NumPy 2 has no round_ to dispatch
    x = _x()
    for out, expect in ((onp.mean(x, axis=0), [2., 3.]), (onp.sin(x), onp.sin([[1., 2.], [3., 4.]])),
                        (onp.linalg.norm(x), onp.sqrt(30.)), (onp.fliplr(x), [[2., 1.], [4., 3.]])):
        assert isinstance(out, np.ndarray)
        onp.testing.assert_allclose(out.asnumpy(), expect, rtol=1e-6)


def test_dispatched_functions_are_recorded_by_autograd():
    x = _x()
    x.attach_grad()
    with autograd.record():
        y = onp.sum(onp.square(x))
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), 2 * x.asnumpy())


def test_unlisted_functions_run_numpy_on_a_host_copy_outside_autograd():
    out = onp.cumprod(_x())
    assert isinstance(out, np.ndarray)
    onp.testing.assert_array_equal(out.asnumpy(), [1., 2., 6., 24.])
    with autograd.record(), pytest.raises(ValueError, match='cumprod'):
        onp.cumprod(_x())


def test_numpy_scalars_on_the_left_stay_scalars():
    x = np.array([1., 2.])
    for out, expect in ((onp.float64(1) == x, [True, False]), (onp.float64(1) < x, [False, True]),
                        (onp.float32(2.5) * x, [2.5, 5.]), (onp.int64(3) + x, [4., 5.])):
        assert isinstance(out, np.ndarray)
        onp.testing.assert_array_equal(out.asnumpy(), expect)


def test_ufunc_methods_other_than_call_are_refused():
    with pytest.raises(TypeError):
        onp.add.reduce(_x())


def test_protocol_decorator_reports_the_failing_function():
    @with_array_function_protocol
    def broken():
        raise KeyError('x')
    with pytest.raises(RuntimeError, match='broken'):
        broken()


def test_out_of_range_python_ints_wrap_as_in_mxnet():
    # MXNet 1.9.1 (NumPy 1.x's cast): np.array([1621], dtype=uint8) is [85]
    assert np.array([1621], dtype='uint8').asnumpy().tolist() == [85]
    assert np.array([300, -1], dtype='int8').asnumpy().tolist() == [44, -1]
