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

# zeros of both signs, subnormals (XLA's CPU code reads them as zero), infinities, NaN, halves,
SPECIAL = [0.0, -0.0, 1e-39, -1e-39, 1e-45, 1.0, -2.5, 3.3e38, -3.3e38, np.inf, -np.inf, np.nan,
           0.5, 1.5, -0.5, 2.0, 7.25, 1e-30, 1.17e-38, -1.17e-38, 1e-310, -1e-310,
           1e-4, 3e-6, -4e-7, 6e-8, 65504.0]  # float16: small normal, subnormals, the largest
# The host path serves processes where jax runs on the CPU alone (see _host._setup).
pytestmark = pytest.mark.skipif(mx.context.num_gpus() > 0, reason='a GPU is present: no host path')
# (operators whose output shape depends on input values have tests of their own: bincount's below)
HOSTED = sorted(name for name, op in canonical_ops().items()
                if op.host is not None and not op.creation and op.value_attrs is None)


def _same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    both_nan = np.isnan(a) & np.isnan(b)
    assert np.array_equal(a.view(np.uint8).reshape(a.size, -1)[~both_nan.ravel()],
                          b.view(np.uint8).reshape(b.size, -1)[~both_nan.ravel()])


def _both_ways(kernel, args):
    """The host form's and the compiled kernel's outputs; ([], []) where the compiled kernel
    refuses the dtype, after checking that the host path refuses it too (it traces first)."""
    prev = on()
    try:
        _host.forget()
        try:
            compiled = kernel.jitted(*args)
        except TypeError:
            with pytest.raises(TypeError):
                _host.run(kernel, tuple(args))
            return [], []
        host = _host.run(kernel, tuple(args))
    finally:
        restore(prev)
    assert host is not _host.COLD, 'the host form did not run'
    return host, compiled


def test_every_host_form_is_listed():
    assert {'broadcast_add', 'elemwise_mul', '_div_scalar', 'broadcast_greater', 'sqrt'} <= set(HOSTED)
    assert set(SHAPED) <= set(HOSTED)


# Input shapes and attributes of the host forms that move data or reduce (the others take 1-D SPECIAL values).
SHAPED = {
    'Reshape': ([(2, 3, 4)], {'shape': (0, -1)}), 'Flatten': ([(2, 3, 4)], {}),
    'reshape_like': ([(2, 3, 4), (6, 4)], {}), 'transpose': ([(2, 3, 4)], {'axes': (2, 0, 1)}),
    'SwapAxis': ([(2, 3, 4)], {'dim1': 0, 'dim2': -1}), 'expand_dims': ([(2, 3, 4)], {'axis': -1}),
    'squeeze': ([(2, 1, 4)], {}), 'Concat': ([(2, 3, 4), (2, 1, 4)], {'dim': -2, 'num_args': 2}),
    'stack': ([(2, 3), (2, 3)], {'axis': -1, 'num_args': 2}),
    'slice': ([(5, 6)], {'begin': (1, None), 'end': (None, 0), 'step': (2, -1)}),
    'slice_axis': ([(5, 6)], {'axis': -1, 'begin': 1, 'end': -2}), 'tile': ([(2, 3)], {'reps': (2, 1, 2)}),
    'reverse': ([(2, 3, 4)], {'axis': (0, 2)}), 'broadcast_to': ([(2, 1, 4)], {'shape': (2, 5, 0)}),
    'broadcast_axis': ([(2, 1, 1)], {'axis': (1, 2), 'size': (3, 4)}),
    'max': ([(3, 4, 5)], {'axis': (0, 2), 'keepdims': True}), 'min': ([(3, 4, 5)], {'axis': 1}),
    'sum': ([(3, 4, 5)], {'axis': (0, 2)}),
    'broadcast_like': ([(2, 1, 4), (2, 5, 4)], {}), 'Cast': ([(3, 9)], {'dtype': 'float64'}),
    '_np_reshape': ([(2, 3, 4)], {'newshape': (4, -1)}), '_npx_reshape': ([(2, 3, 4)], {'newshape': (-2, -1)}),
    '_np_transpose': ([(2, 3, 4)], {'axes': (2, 0, -2)}), '_np_squeeze': ([(2, 1, 4)], {}),
    '_npi_concatenate': ([(2, 3, 4), (2, 1, 4)], {'axis': -2, 'num_args': 2}),
    '_npi_stack': ([(2, 3), (2, 3)], {'axis': 1, 'num_args': 2}), '_npi_flip': ([(2, 3, 4)], {'axis': (0, 2)}),
    '_npi_tril': ([(3, 4, 5)], {'k': 1}), '_npi_triu': ([(5,)], {'k': -1}),
    '_npi_vstack': ([(4,), (2, 4)], {'num_args': 2}), '_npi_hstack': ([(2, 3), (2, 1)], {'num_args': 2}),
    '_npi_broadcast_to': ([(3, 1)], {'shape': (2, 3, 4)}),
    '_np_max': ([(3, 4, 5)], {'axis': (0, 2), 'keepdims': True}), '_np_min': ([(3, 4, 5)], {'axis': -1}),
    'sort': ([(4, 9)], {'axis': 0}), 'argmax': ([(3, 4, 5)], {'axis': 1}), 'argmin': ([(3, 4, 5)], {}),
    '_np_any': ([(3, 4, 5)], {'axis': (0, 2), 'keepdims': True}), '_np_all': ([(3, 4, 5)], {'axis': 1}),
    'take': ([(4, 5, 2), (3, 2)], {'axis': 1, 'mode': 'wrap'}),
    '_np_sum': ([(3, 4, 5)], {'axis': (0, 2), 'dtype': 'int64'}), '_np_prod': ([(3, 4)], {'axis': 1, 'keepdims': True}),
    '_np_diag': ([(4, 5)], {'k': -1}), '_np_diagflat': ([(2, 3)], {'k': 2}),
    '_np_diagonal': ([(3, 4, 5)], {'offset': 1, 'axis1': 2, 'axis2': 0}), '_npi_diag_indices_from': ([(3, 3, 3)], {}),
    '_np_trace': ([(3, 4, 5)], {'offset': 1, 'axis1': 2, 'axis2': 0}),  # diagonals of two elements
    '_npi_full_like': ([(2, 3)], {'fill_value': -2.0, 'dtype': 'float16'}), '_npi_unravel_index': ([(7,)], {'shape': (3, 5, 4)}),
    '_npi_where': ([(2, 1), (2, 3), (3,)], {}),
    '_npi_split': ([(6, 4)], {'indices': (1, 4), 'axis': 0}), '_npi_diff': ([(4, 9)], {'n': 3, 'axis': 1}),
    '_npi_ediff1d': ([(3, 4), (2,), (3,)], {'to_begin_arr_given': True, 'to_end_scalar': 2.5}),
}
INTEGER_SUMS = ('sum', '_np_sum', '_np_prod')  # float data stays compiled or runs as padded rows
REDUCTIONS = ('max', 'min', 'sum', '_np_max', '_np_min', 'sort')  # exact on some data only
SUBNORMALS_DECLINED = REDUCTIONS + ('_np_any', '_np_all', 'argmax', 'argmin', '_npi_where')  # XLA's CPU code reads them as zero
FINITE_INDICES = ('take', '_npi_unravel_index')  # XLA converts non-finite float indices its own way: compiled (test below)


def _served(name):
    """The dtypes the operator's host form declares it serves (ops/_host.py)."""
    kind = getattr(canonical_ops()[name].host, 'host_dtypes', None)
    dtypes = ['float32', 'float64', 'float16']
    if kind in ('ints', 'all'):
        dtypes += ['int32', 'uint8', 'int64']
    if kind == 'all':
        dtypes += ['float16', 'bool']
    return dtypes


def _values(dtype, size, rng, special=True):
    if np.dtype(dtype).kind == 'f':
        pool = np.array(SPECIAL if special else [], dtype=np.float64)
        pool = np.concatenate([pool, rng.uniform(-3, 3, max(size - len(pool), 0))])
        with np.errstate(over='ignore'):  # SPECIAL's 3.3e38 is inf in float16
            return rng.permutation(pool)[:size].astype(dtype)
    if dtype == 'bool':
        return rng.randint(0, 2, size).astype(bool)
    values = rng.randint(-300, 300, size)
    return np.where(values == 0, 7, values).astype(dtype)  # uint8 wraps, as a user's data might


def _device(arrays):
    import jax
    prev = on()
    try:
        return [jax.device_put(x) for x in arrays]
    finally:
        restore(prev)


@pytest.mark.parametrize('name', [n for n in HOSTED if n not in SHAPED])
def test_host_form_gives_the_compiled_bits(name):
    op = canonical_ops()[name]
    rng = np.random.RandomState(0)
    n_in = len(op.inputs)
    scalars = [{}] if 'scalar' not in op._param_map else [{'scalar': s} for s in (0.0, 1e-39, 2.5, -1.5, np.nan)]
    for dtype in _served(name):
        lhs = _values(dtype, 32, rng)
        arrays = _device([lhs, np.roll(lhs, 5)][:n_in])
        for kw in scalars:
            if np.dtype(dtype).kind in 'iub' and kw and not np.isfinite(kw['scalar']):
                continue  # a NaN scalar has no integer value
            if np.dtype(dtype).kind in 'iu' and 'div' in name and kw and np.clip(
                    np.trunc(kw['scalar']), np.iinfo(dtype).min, np.iinfo(dtype).max) == 0:
                continue  # integer division by zero stays compiled (the next test)
            kernel = kernel_for(name, kw)
            args = arrays + [kernel.attrs[d] for d in kernel.dynamic]
            for h, c in zip(*_both_ways(kernel, args)):
                _same_bits(h, c)


@pytest.mark.parametrize('name', sorted(SHAPED))
def test_moves_and_reductions_on_the_host_give_the_compiled_bits(name):
    shapes, attrs = SHAPED[name]
    rng = np.random.RandomState(1)
    kernel = kernel_for(name, attrs)
    for dtype in _served(name):
        if name in INTEGER_SUMS and dtype.startswith('float'):
            continue  # float sums stay compiled (the next test)
        if name == 'sort' and dtype == 'float16':
            continue  # MXNet's sort refuses float16
        special = name not in SUBNORMALS_DECLINED + FINITE_INDICES  # data computed exactly (see below for the rest)
        arrays = _device([_values(dtype, int(np.prod(s)), rng, special).reshape(s) for s in shapes])
        for h, c in zip(*_both_ways(kernel, arrays + [kernel.attrs[d] for d in kernel.dynamic])):
            _same_bits(h, c)


@pytest.mark.parametrize('name', REDUCTIONS)
def test_reductions_leave_inexact_data_to_the_compiled_kernel(name):
    # float sums round in XLA's order; max/min of zeros of both signs or subnormals: XLA's
    # choices. The host form declines; a reduction with padded rows (tests/test_ops_buckets.py)
    # serves the call by them, any other compiles.
    values = np.array([0.0, -0.0, 1.0, 2.0], np.float32) if name != 'sum' else np.array([0.5, 0.25], np.float32)
    kernel = kernel_for(name, {})
    prev = on()
    try:
        _host.forget()
        arrays = tuple(_device([values]))
        with pytest.raises(_host.Fallback):
            kernel.host(values)
        out = _host.run(kernel, arrays)
        if kernel.op.rows is None:
            assert out is _host.COLD  # no form serves it: the cheaply compiled kernel runs
        else:
            np.testing.assert_array_equal(np.asarray(out[0]), np.asarray(kernel.jitted(*arrays)[0]))
    finally:
        restore(prev)


@pytest.mark.parametrize('name', ['max', 'min', '_np_max', '_np_min', 'argmax', 'argmin'])
def test_extremes_of_data_with_nan_and_ties_on_the_host_give_the_compiled_bits(name):
    # NaN wins wherever a slice holds one (the compiled max propagates it, as MXNet's and NumPy's);
    # ties and NaNs give the first index; an (8, 8, 8, 8) array is where XLA's own max drops NaNs.
    rng = np.random.RandomState(2)
    data = rng.randint(1, 4, (8, 8, 8, 8)).astype(np.float32)  # no zeros: their sign is XLA's choice
    data[rng.rand(*data.shape) < 0.01] = np.nan
    attrs = {'axis': 1} if name.startswith('arg') else {'axis': (0, 3)}
    kernel = kernel_for(name, attrs)
    host, compiled = _both_ways(kernel, _device([data]))
    expect = getattr(np, name.replace('_np_', ''))(data, **attrs)
    np.testing.assert_array_equal(np.asarray(compiled[0]), expect)
    _same_bits(host[0], compiled[0])


def test_integer_division_where_c_leaves_it_undefined_gives_the_compiled_bits():
    """The host form falls back; the pointwise operator's size-bucket program serves the call."""
    for a, b in (([7, -7], [0, 2]), ([np.iinfo(np.int32).min, 5], [-1, 2])):
        kernel = kernel_for('broadcast_div', {})
        prev = on()
        try:
            _host.forget()
            args = tuple(_device([np.int32(a), np.int32(b)]))
            with pytest.raises(_host.Fallback):
                kernel.host(*[np.asarray(x) for x in args])
            _same_bits(_host.run(kernel, args)[0], kernel.jitted(*args)[0])
        finally:
            restore(prev)
    np.testing.assert_array_equal((nd.array([-7, 7], dtype='int32') / nd.array([2, -2], dtype='int32')).asnumpy(),
                                  [-3, -3])


def test_host_forms_raise_the_operators_errors():
    x = nd.array(np.zeros((2, 3)))
    with pytest.raises(MXNetError, match='transpose'):
        nd.transpose(x, axes=(0, 0))
    with pytest.raises(MXNetError, match='broadcast_to'):
        nd.broadcast_to(x, shape=(4, 3))
    with pytest.raises(ValueError, match='remapped'):  # the method checks first, as MXNet's does
        x.broadcast_to((4, 3))
    with pytest.raises(MXNetError, match='slice_axis'):
        nd.slice_axis(x, axis=1, begin=2, end=1)


def test_host_form_broadcasts_and_checks_like_the_operator():
    a = nd.array(np.arange(6.).reshape(2, 3))
    b = nd.array([[10.], [20.]])
    np.testing.assert_array_equal((a + b).asnumpy(), np.arange(6.).reshape(2, 3) + [[10.], [20.]])
    with pytest.raises(MXNetError, match=r'broadcast_add: operands could not be broadcast together with shapes \[2,3\] \[3,2\]'):
        nd.broadcast_add(a, nd.ones((3, 2)))
    with pytest.raises(MXNetError, match=r'elemwise_add: shapes \[2,3\] and \[2,1\] must be equal'):
        nd.elemwise_add(a, b)


def _repeat_expression(shape, calls, compiles):
    """Compiles per call of ``a * b + c - 0.5`` on new arrays of ``shape``, each result checked."""
    rng = np.random.RandomState(1)
    a, b, c = (nd.array(rng.rand(*shape)) for _ in range(3))
    want = a.asnumpy() * b.asnumpy() + c.asnumpy() - 0.5
    counts = []
    for _ in range(calls):
        before = compiles[0]
        out = (a * b + c - 0.5).asnumpy()
        counts.append(compiles[0] - before)
        np.testing.assert_array_equal(out, want)
    return counts


def test_repeated_shapes_stay_on_the_host_while_cheaper_than_a_compile(compiles):
    calls = mx.ops._host.HOST_CALLS + 4  # a few microseconds each: far below a compile's cost
    assert _repeat_expression((13, 29), calls, compiles) == [0] * calls


def test_repeated_shapes_compile_once_their_host_time_reaches_the_budget(compiles, monkeypatch):
    monkeypatch.setattr(mx.ops._host, 'HOST_BUDGET_S', 0.0)  # any host time is too much
    counts = _repeat_expression((17, 31), mx.ops._host.HOST_CALLS + 2, compiles)
    assert counts[:mx.ops._host.HOST_CALLS] == [0] * mx.ops._host.HOST_CALLS
    assert counts[mx.ops._host.HOST_CALLS] == 3  # past its first calls: its operators compile
    assert counts[-1] == 0


def test_a_signature_past_its_host_calls_runs_compiled_by_one_lookup_until_forgotten(compiles, monkeypatch):
    monkeypatch.setattr(mx.ops._host, 'HOST_BUDGET_S', 0.0)
    kernel = kernel_for('broadcast_add', {})
    a, b = nd.array(np.arange(6.0).reshape(2, 3)), nd.array([[0.5, 1.5, 2.5]])
    _host.forget()
    for _ in range(mx.ops._host.HOST_CALLS + 1):
        out = a + b
    assert kernel.steady == {(a._data.aval, b._data.aval): True}  # remembered once it ran compiled
    before = compiles[0]
    np.testing.assert_array_equal((a + b).asnumpy(), np.arange(6.0).reshape(2, 3) + [0.5, 1.5, 2.5])
    np.testing.assert_array_equal(out.asnumpy(), (a + b).asnumpy())
    assert compiles[0] == before
    c = nd.array(np.ones((4, 3)))  # another shape is counted anew: its first calls on the host
    np.testing.assert_array_equal((c + b).asnumpy(), np.ones((4, 3)) + [0.5, 1.5, 2.5])
    assert _host.calls((kernel.key, (((4, 3), np.dtype('float32')), ((1, 3), np.dtype('float32'))))) == 1
    _host.forget()
    assert kernel.steady is None  # forgotten with the counts: the next call is a first call again
    np.testing.assert_array_equal((a + b).asnumpy(), np.arange(6.0).reshape(2, 3) + [0.5, 1.5, 2.5])
    assert _host.calls((kernel.key, (((2, 3), np.dtype('float32')), ((1, 3), np.dtype('float32'))))) == 1


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


CAST_DTYPES = ['float16', 'float32', 'float64', 'int8', 'uint8', 'int32', 'int64', 'uint32', 'bool']


@pytest.mark.parametrize('source', CAST_DTYPES)
def test_casts_on_the_host_give_the_compiled_bits_or_decline(source):
    # floats outside the integer range and NaN: XLA saturates (NaN -> 0) where C wraps, so the
    # host form declines them; subnormals read and written as zero, as XLA's CPU code does
    rng = np.random.RandomState(2)
    special = _values(source, 40, rng)
    in_range = _values(source, 40, rng, special=False)
    for target in CAST_DTYPES:
        kernel = kernel_for('Cast', {'dtype': target})
        for values in (special, in_range):
            (x,) = _device([values])
            prev = on()
            try:
                _host.forget()
                host = _host.run(kernel, (x,))
                compiled = kernel.jitted(x)
            finally:
                restore(prev)
            to = np.dtype(target)  # integers narrower than 32 bits are reached through int32
            out_of_range = to.kind in 'iu' and np.dtype(source).kind == 'f' and (
                values is special or (to.kind == 'u' and to.itemsize >= 4 and (values <= -1).any()))
            if out_of_range:
                assert host is _host.COLD, (source, target)
                continue
            assert host is not _host.COLD, (source, target)
            _same_bits(host[0], compiled[0])


def test_astype_and_broadcast_like_on_new_shapes_compile_nothing(compiles):
    x = nd.array(np.arange(6).reshape(2, 3, 1) - 2.5)
    like = nd.ones((2, 3, 4))
    before = compiles[0]
    for dtype in ('float32', 'float64', 'int32', 'uint8', 'float16', 'bool'):
        assert np.array_equal(x.astype(dtype).asnumpy(), x.asnumpy().astype(dtype))
    assert np.array_equal(x.broadcast_like(like).asnumpy(), np.broadcast_to(x.asnumpy(), (2, 3, 4)))
    assert compiles[0] == before


def test_np_moves_and_extremes_on_new_shapes_compile_nothing(compiles, np_mode):
    from gluonjax import np as mnp
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7.5
    x = mnp.array(a)
    before = compiles[0]
    assert np.array_equal(mnp.transpose(x, (2, 0, 1)).asnumpy(), a.transpose(2, 0, 1))
    assert np.array_equal(mnp.concatenate([x, x], axis=1).asnumpy(), np.concatenate([a, a], axis=1))
    assert np.array_equal(mnp.tril(x, k=-1).asnumpy(), np.tril(a, k=-1))
    assert np.array_equal(x.reshape(4, -1).asnumpy(), a.reshape(4, -1))
    assert np.array_equal(mnp.max(x, axis=(0, 2)).asnumpy(), a.max(axis=(0, 2)))
    assert np.array_equal(x.min(axis=1, keepdims=True).asnumpy(), a.min(axis=1, keepdims=True))
    assert compiles[0] == before


@pytest.mark.parametrize('dtype', ['float16', 'float32', 'float64', 'int32', 'uint8', 'bool'])
def test_filled_arrays_on_the_host_give_the_compiled_bits(dtype):
    for name, attrs in [('_empty', {}), ('_zeros', {}), ('_ones', {}), ('_full', {'value': 3.0}),
                        ('_full', {'value': -0.0}), ('_full', {'value': 2.5}), ('_full', {'value': np.inf})]:
        kernel = kernel_for(name, dict(attrs, shape=(2, 3), dtype=dtype))
        args = tuple(kernel.attrs[d] for d in kernel.dynamic)
        prev = on()
        try:
            _host.forget()
            host = _host.run(kernel, args)
            compiled = kernel.jitted(*args)
        finally:
            restore(prev)
        inexact = attrs.get('value') in (2.5, np.inf) and (np.dtype(dtype).kind in 'iub' or attrs['value'] == np.inf)
        if inexact:  # left to jax's conversion
            assert host is _host.COLD
        else:
            _same_bits(host[0], compiled[0])


def test_any_and_all_leave_subnormals_to_the_compiled_kernel():
    kernel = kernel_for('_np_any', {})
    prev = on()
    try:
        _host.forget()
        assert _host.run(kernel, tuple(_device([np.array([0.0, 1e-39], np.float32)]))) is _host.COLD
    finally:
        restore(prev)


def test_take_on_the_host_leaves_non_finite_indices_to_the_compiled_kernel_and_defers_raise():
    """take's host form: NaN or huge float indices fall back to the compiled kernel; mode='raise'
    reports an index out of range at the next wait on the output, as MXNet's engine does."""
    kernel = kernel_for('take', {'mode': 'clip'})
    data = np.arange(4, dtype=np.float32)
    for bad in (np.nan, 3e9):
        args = tuple(_device([data, np.array([1, bad], np.float32)]))
        prev = on()
        try:
            _host.forget()
            assert _host.run(kernel, args) is _host.COLD
        finally:
            restore(prev)
    _host.forget()
    for _ in range(_host.HOST_CALLS + 1):  # on the host, then compiled (the check in a callback)
        out = nd.take(nd.array(data), nd.array([0, 4]), mode='raise')
        assert out.shape == (2,)
        with pytest.raises(MXNetError, match='take: index 4 is out of bounds for an axis of size 4'):
            out.asnumpy()
    np.testing.assert_array_equal(nd.take(nd.array(data), nd.array([3, -1]), mode='wrap').asnumpy(), [3, 3])


def test_take_of_data_at_integer_indices_of_another_dtype_runs_on_the_host():
    """take's data and indices each keep their dtype (``moves(..., mixed_dtypes=True)``): float16/32,
    int8 and bool data at int32/int64/uint8 indices, every mode, give the compiled bits."""
    rng = np.random.RandomState(4)
    for dtype, index_dtype in (('float32', 'int32'), ('float16', 'int64'), ('int8', 'int32'), ('bool', 'uint8'),
                               ('float64', 'int32')):
        data = _values(dtype, 24, rng).reshape(4, 6)
        indices = rng.randint(-8, 9, (2, 3)) if index_dtype != 'uint8' else rng.randint(0, 9, (2, 3))
        for mode in ('clip', 'wrap'):
            kernel = kernel_for('take', {'axis': 1, 'mode': mode})
            host, compiled = _both_ways(kernel, _device([data, indices.astype(index_dtype)]))
            _same_bits(host[0], compiled[0])


def test_where_with_a_condition_of_another_dtype_runs_on_the_host():
    """np.where's condition keeps its dtype; x and y of one dtype, broadcast together, give the
    compiled bits; a subnormal condition (zero to XLA's CPU code) and mixed x/y stay compiled."""
    rng = np.random.RandomState(5)
    kernel = kernel_for('_npi_where', {})
    for cond_dtype, dtype in (('bool', 'float32'), ('float32', 'float16'), ('int8', 'int64'), ('float64', 'bool'),
                              ('uint8', 'float64')):
        cond = _values(cond_dtype, 6, rng, special=False).reshape(2, 3)
        x, y = _values(dtype, 3, rng).reshape(1, 3), _values(dtype, 8, rng).reshape(4, 1, 2)[:, :, :1]
        host, compiled = _both_ways(kernel, _device([cond, x, y]))
        _same_bits(host[0], compiled[0])
    prev = on()
    try:
        for cond, x, y in ((np.float32([1e-39, 1]), np.float32([1, 2]), np.float32([3, 4])),
                           (np.float32([0, 1]), np.float32([1, 2]), np.float16([3, 4]))):
            _host.forget()
            assert _host.run(kernel, tuple(_device([cond, x, y]))) is _host.COLD
    finally:
        restore(prev)


def test_bincount_counts_as_mxnet():
    """np.bincount (MXNet's values: counts in the data's dtype, sums in the weights'), on the host
    for its first calls, then compiled: the same results."""
    from gluonjax import np as mnp
    data = mnp.array([1, 3, 3, 0], dtype='int8')
    _host.forget()
    for _ in range(_host.HOST_CALLS + 2):
        counts = mnp.bincount(data, minlength=6)
        assert counts.dtype == np.int8 and counts.asnumpy().tolist() == [1, 1, 0, 2, 0, 0]
        sums = mnp.bincount(data, mnp.array([1, 2, 3, 4], dtype='float16'))
        assert sums.dtype == np.float16 and sums.asnumpy().tolist() == [4, 1, 0, 5]
    assert mnp.bincount(mnp.array([], dtype='int32'), minlength=3).asnumpy().tolist() == [0, 0, 0]
    with pytest.raises(MXNetError, match='nonnegative'):
        mnp.bincount(mnp.array([-1, 2], dtype='int32'))
    with pytest.raises(MXNetError, match='integer type'):
        mnp.bincount(mnp.array([1.0, 2.0]))


@pytest.mark.parametrize('wtype', ['float16', 'float32', 'float64', 'int32'])
def test_bincount_sums_of_weights_on_the_host_have_the_compiled_bits(wtype):
    from gluonjax import np as mnp
    rs = np.random.RandomState(0)
    data = mnp.array(rs.randint(0, 7, 200), dtype='int8')
    weights = mnp.array(rs.uniform(0, 10, 200).astype(wtype), dtype=wtype)
    _host.forget()
    outs = [mnp.bincount(data, weights, 3).asnumpy() for _ in range(_host.HOST_CALLS + 2)]
    for out in outs[1:]:
        _same_bits(out, outs[0])
    assert np.allclose(outs[0], np.bincount(data.asnumpy(), weights.asnumpy().astype('float64')), rtol=1e-2)


def test_trace_first_calls_on_the_host_and_their_gradients_match_numpy(compiles):
    # diagonals of at most two elements, and integers, run on the host; longer float diagonals
    # compile (XLA's order of summation rounds them); a hybridized block's first calls run node
    # by node, so a new offset compiles no graph
    from gluonjax import npx
    from gluonjax.gluon import HybridBlock

    class Trace(HybridBlock):
        def __init__(self, offset):
            super().__init__()
            self._offset = offset

        def hybrid_forward(self, F, x):
            return F.np.trace(x, offset=self._offset, axis1=-1, axis2=0)

    rng = np.random.RandomState(3)
    npx.set_np()
    try:
        for dtype in ('float32', 'int32', 'float16'):
            data = rng.uniform(-10, 10, (4, 2, 3)).astype(dtype)
            for offset in (-3, -1, 0, 2):
                x = mx.np.array(data, dtype=dtype)
                x.attach_grad()
                block = Trace(offset)
                block.hybridize()
                before = compiles[0]
                with autograd.record():
                    out = block(x)
                out.backward()
                want = np.trace(data, offset, -1, 0).astype(dtype)
                np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-3 if dtype == 'float16' else 1e-6)
                idx = np.indices(data.shape)
                grad = (idx[-1] + offset == idx[0]).astype(dtype)
                np.testing.assert_array_equal(x.grad.asnumpy(), grad)
                made = compiles[1][before:]
                if dtype != 'int32' and offset == 0:  # 3 float elements: the compiled vjp form records it
                    assert 'jit(forward)' in made
                elif offset != -3:  # past the dtype's first offset: its gradient's program serves all
                    assert made == [], made
    finally:
        npx.reset_np()
