"""First calls on the host (gluonjax/ops/_host.py): equal bits to the compiled operators, no
compile for a shape met once or twice."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax._x64 import on, restore
from gluonjax.base import MXNetError
from gluonjax.ops import _host
from gluonjax.ops._kernel import kernel_for
from gluonjax.ops._registry import canonical_ops

# zeros of both signs, subnormals (XLA's CPU code reads them as zero), infinities, NaN, halves
SPECIAL = [0.0, -0.0, 1e-39, -1e-39, 1e-45, 1.0, -2.5, 3.3e38, -3.3e38, np.inf, -np.inf, np.nan,
           0.5, 1.5, -0.5, 2.0, 7.25, 1e-30, 1.17e-38, -1.17e-38, 1e-310, -1e-310]
HOSTED = sorted(name for name, op in canonical_ops().items() if op.host is not None and not op.creation)


def _same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    both_nan = np.isnan(a) & np.isnan(b)
    assert np.array_equal(a.view(np.uint8).reshape(a.size, -1)[~both_nan.ravel()],
                          b.view(np.uint8).reshape(b.size, -1)[~both_nan.ravel()])


def _both_ways(kernel, args):
    prev = on()
    try:
        _host._seen.clear()
        host = _host.run(kernel, tuple(args))
        compiled = kernel.jitted(*args)
    finally:
        restore(prev)
    assert host is not None, 'the host form did not run'
    return host, compiled


def test_every_host_form_is_listed():
    assert {'broadcast_add', 'elemwise_mul', '_div_scalar', 'broadcast_greater', 'sqrt'} <= set(HOSTED)


@pytest.mark.parametrize('dtype', ['float32', 'float64'])
@pytest.mark.parametrize('name', HOSTED)
def test_host_form_gives_the_compiled_bits(name, dtype):
    import jax
    op = canonical_ops()[name]
    rng = np.random.RandomState(0)
    special = np.array(SPECIAL).astype(dtype)
    lhs = np.concatenate([special, rng.uniform(-3, 3, 10).astype(dtype)])
    rhs = np.roll(lhs, 5)
    n_in = len(op.inputs)
    scalars = [{}] if 'scalar' not in op._param_map else [{'scalar': s} for s in (0.0, 1e-39, 2.5, -1.5, np.nan)]
    prev = on()
    try:
        arrays = [jax.device_put(x) for x in (lhs, rhs)[:n_in]]
    finally:
        restore(prev)
    for kw in scalars:
        kernel = kernel_for(name, kw)
        args = arrays + [kernel.attrs[d] for d in kernel.dynamic]
        for h, c in zip(*_both_ways(kernel, args)):
            _same_bits(h, c)


def test_host_form_broadcasts_and_checks_like_the_operator():
    a = nd.array(np.arange(6.).reshape(2, 3))
    b = nd.array([[10.], [20.]])
    np.testing.assert_array_equal((a + b).asnumpy(), np.arange(6.).reshape(2, 3) + [[10.], [20.]])
    with pytest.raises(MXNetError, match=r'broadcast_add: operands could not be broadcast together with shapes \[2,3\] \[3,2\]'):
        nd.broadcast_add(a, nd.ones((3, 2)))
    with pytest.raises(MXNetError, match=r'elemwise_add: shapes \[2,3\] and \[2,1\] must be equal'):
        nd.elemwise_add(a, b)


def test_new_shapes_run_without_compiling_until_they_repeat(compiles):
    rng = np.random.RandomState(1)
    shape = (13, 29)  # a shape no other test uses
    a, b, c = (nd.array(rng.rand(*shape)) for _ in range(3))
    want = a.asnumpy() * b.asnumpy() + c.asnumpy() - 0.5
    counts = []
    for _ in range(4):
        before = compiles[0]
        out = (a * b + c - 0.5).asnumpy()
        counts.append(compiles[0] - before)
        np.testing.assert_array_equal(out, want)
    assert counts[:mx.ops._host.HOST_CALLS] == [0] * mx.ops._host.HOST_CALLS
    assert counts[mx.ops._host.HOST_CALLS] == 3  # the signature came back: its operators compile
    assert counts[-1] == 0


def test_host_path_keeps_devices_dtypes_and_recording():
    x = nd.array(np.float64([1.5, -2.0]), ctx=mx.cpu(2), dtype='float64')
    y = x * 3 + 1
    assert y.context == mx.cpu(2) and y.dtype == np.float64
    np.testing.assert_array_equal(y.asnumpy(), [5.5, -5.0])
    z = nd.zeros((3, 7), ctx=mx.cpu(1), dtype='int32')
    assert z.context == mx.cpu(1) and z.dtype == np.int32 and z.asnumpy().sum() == 0
    w = nd.array([1., 2., 3.])
    w.attach_grad()
    with autograd.record():  # recorded operators keep their compiled pullbacks
        loss = (w * w + w).sum()
    loss.backward()
    np.testing.assert_array_equal(w.grad.asnumpy(), [3., 5., 7.])
