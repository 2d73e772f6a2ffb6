"""First calls of pointwise operators in size buckets (gluonjax/ops/_host.py): the program compiled
for a padded 1-D bucket gives the bits of the program compiled for the exact shape, for every
pointwise operator of the table, so a new shape compiles nothing."""
import jax
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import nd
from gluonjax._x64 import on, restore
from gluonjax.ops import _host
from gluonjax.ops._kernel import kernel_for
from gluonjax.ops._registry import canonical_ops

POINTWISE = sorted(name for name, op in canonical_ops().items() if op.pointwise)
SPECIAL = [0.0, -0.0, 1e-39, -1e-39, 1e-45, 1.0, -2.5, 3.3e38, -3.3e38, np.inf, -np.inf, np.nan,
           0.5, 1.5, -0.5, 2.0, 7.25, 1e-30, 1e-310, 1e-4, 6e-8, 65504.0, 88.7, -87.3, 0.999, -1.0]
# (dtype, shape): a size that leaves a tail after the CPU's vector widths, and a 0-d array. Each
# compiles its own program: a few per operator keep this test under a minute. (A wider check of the
# transcendental operators was run by hand: see ops/elemwise.py's _SIZE_DEPENDENT.)
CASES = [('float32', (5, 13)), ('float32', ()), ('float16', (5, 13)), ('int32', (5, 13))]


def _values(dtype, shape, rng):
    size = int(np.prod(shape))
    if np.dtype(dtype).kind == 'f':
        pool = np.concatenate([SPECIAL, rng.normal(0, 10, max(size - len(SPECIAL), 0))])
        with np.errstate(over='ignore'):
            return rng.permutation(pool)[:size].astype(dtype).reshape(shape)
    values = rng.randint(-300, 300, size)
    return np.where(values == 0, 7, values).astype(dtype).reshape(shape)


def _same_bits(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    got, want = got.reshape(-1), want.reshape(-1)
    nan = np.isnan(got) & np.isnan(want) if got.dtype.kind == 'f' else np.zeros(got.shape, bool)
    g, w = got.view(np.uint8).reshape(got.size, -1), want.view(np.uint8).reshape(want.size, -1)
    bad = ~np.all(g == w, axis=1) & ~nan.ravel()
    assert not bad.any(), '%s: %d of %d elements differ, e.g. %r vs %r' % (
        what, bad.sum(), bad.size, got.ravel()[bad][:3], want.ravel()[bad][:3])


def test_pointwise_operators_are_marked():
    assert {'exp', 'tanh', 'broadcast_add', 'elemwise_mul', '_div_scalar', '_greater_scalar',
            'broadcast_power', 'relu', 'sigmoid'} <= set(POINTWISE)
    assert not {'sum', 'softmax', 'dot', 'Reshape', 'transpose', 'arctan', 'log'} & set(POINTWISE)


@pytest.mark.parametrize('name', POINTWISE)
def test_bucket_program_gives_the_exact_shape_programs_bits(name):
    op = canonical_ops()[name]
    rng = np.random.RandomState(0)
    kernel = kernel_for(name, {p: v for p, v in (('scalar', 2.5), ('a_min', -4.0), ('a_max', 3.5))
                               if p in op._param_map})
    dynamic = [kernel.attrs[d] for d in kernel.dynamic]
    # on a GPU, transcendental functions may give another last bit in a bucket (ops/_host.py)
    last_bit_only = kernel.host is None and jax.devices()[0].platform != 'cpu'
    prev = on()
    try:
        for dtype, shape in CASES:
            arrays = [jax.device_put(_values(dtype, shape, rng)) for _ in op.inputs]
            try:
                want = kernel.jitted(*arrays, *dynamic)
            except TypeError:  # the operator refuses the dtype (jax's own check at trace time)
                continue
            got = _host._in_bucket(kernel, arrays, dynamic)
            for g, w in zip(got, want):
                what = '%s %s %s' % (name, dtype, shape)
                g, w = np.asarray(g), np.asarray(w)
                if last_bit_only and g.dtype.kind == 'f':
                    finite = np.isfinite(w)
                    np.testing.assert_array_equal(g[~finite], w[~finite], err_msg=what)
                    np.testing.assert_array_max_ulp(g[finite], w[finite], maxulp=2)
                else:
                    _same_bits(g, w, what)
    finally:
        restore(prev)


def test_new_shapes_of_a_pointwise_operator_share_bucket_programs(compiles):
    rng = np.random.RandomState(1)
    shapes = [(3 + i, 5 + 20 * i) for i in range(12)]  # 15 to 3,465 elements: buckets 1024, 2048, 4096
    arrays = [nd.array(rng.uniform(0.5, 2, s)) for s in shapes]
    before = compiles[0]
    outs = [nd.exp(a) for a in arrays]
    assert compiles[0] - before <= 3
    for a, out in zip(arrays, outs):
        assert out.shape == a.shape and out.context == a.context
        np.testing.assert_allclose(out.asnumpy(), np.exp(a.asnumpy()), rtol=1e-6)


def test_a_signature_met_often_compiles_its_own_program(compiles):
    x = nd.array(np.linspace(0.1, 1, 37))
    for _ in range(_host.HOST_CALLS):
        nd.tanh(x)
    before = compiles[0]
    nd.tanh(x).wait_to_read()
    assert compiles[0] - before == 1  # the exact shape, once its first calls are spent
    before = compiles[0]
    nd.tanh(x).wait_to_read()
    assert compiles[0] == before


def test_bucket_sizes():
    assert [_host.bucket_size(n) for n in (1, 64, 1000, 1024, 1025, 5000, 1 << 20)] == \
        [1024, 1024, 1024, 1024, 2048, 8192, 1 << 20]


# ---- reductions as padded rows ---------------------------------------------------------------

ROW_REDUCTIONS = sorted(name for name, op in canonical_ops().items() if op.rows is not None)
# (shape, axis, keepdims, exclude): full reductions, one axis, several, excluded axes, none, 0-d
ROW_CASES = [((7,), None, False, False), ((3, 4, 5), (0, 2), False, False), ((2, 3), 1, True, False),
             ((4, 1, 6), None, True, False), ((2, 3, 4), (1,), False, True), ((5, 9), (), False, True),
             ((), None, False, False), ((6, 40), -1, False, False)]


def test_reductions_are_marked():
    assert {'sum', 'mean', 'prod', 'nansum', 'nanprod', 'max', 'min', 'norm'} <= set(ROW_REDUCTIONS)


@pytest.mark.parametrize('name', ROW_REDUCTIONS)
def test_rows_give_the_reduction_of_the_exact_shape(name):
    """The padded-rows form gives the exact-shape program's values (up to the rounding of another
    summation order), its shape and its dtype, for float16/32/64, NaN and infinities included."""
    rng = np.random.RandomState(2)
    prev = on()
    try:
        for dtype in ('float32', 'float64', 'float16'):
            for shape, axis, keepdims, exclude in ROW_CASES:
                kwargs = {'axis': axis, 'keepdims': keepdims}
                if 'exclude' in canonical_ops()[name]._param_map:
                    kwargs['exclude'] = exclude
                elif exclude:
                    continue
                kernel = kernel_for(name, kwargs)
                x = rng.uniform(-1.5, 1.5, shape).astype(dtype)
                if x.size > 3:
                    x.reshape(-1)[:3] = [np.nan, np.inf, -0.0]
                array = jax.device_put(x)
                want = np.asarray(kernel.jitted(array)[0])
                got = _host._in_rows(kernel, array)
                if got is None:  # declined: max and min of data with NaN (see _host.Rows)
                    assert name in ('max', 'min') and np.isnan(x).any()
                    continue
                got = np.asarray(got[0])
                what = '%s %s %s %s' % (name, dtype, shape, kwargs)
                assert got.dtype == want.dtype and got.shape == want.shape, what
                # two summation orders differ by at most the rounding of each of the K additions
                terms = max(x.size // max(want.size, 1), 1)
                tol = 2 * terms * np.finfo(dtype).eps * 1.5
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=what)
    finally:
        restore(prev)


@pytest.mark.skipif(mx.context.num_gpus() > 0, reason='a GPU is present: no host path')
def test_sums_of_new_shapes_compile_nothing_on_the_cpu(compiles):
    """Sums, means, nansums and norms of ever new shapes are summed on the host in float64 and
    rounded once; subnormal inputs read as zero, as XLA's CPU arithmetic reads them."""
    rng = np.random.RandomState(4)
    before = compiles[0]
    for i in range(12):
        x = rng.uniform(-1, 1, (3 + i, 2 + i % 5)).astype('float32')
        a = nd.array(x)
        np.testing.assert_allclose(nd.sum(a, axis=1).asnumpy(), x.sum(axis=1, dtype=np.float64), rtol=1e-6)
        np.testing.assert_allclose(a.mean().asnumpy(), [x.mean(dtype=np.float64)], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(nd.norm(a).asnumpy(), [np.sqrt((x.astype(np.float64) ** 2).sum())], rtol=1e-6)
        np.testing.assert_allclose(nd.nansum(a, axis=0).asnumpy(), x.sum(axis=0, dtype=np.float64), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(mx.np.sum(a.as_np_ndarray(), axis=0).asnumpy(), x.sum(axis=0, dtype=np.float64),
                                   rtol=1e-6, atol=1e-7)
    assert compiles[0] - before == 0
    tiny = nd.array(np.float32([1e-40, 1e-40, 2.0]))
    assert nd.sum(tiny).asnumpy()[0] == 2.0 and nd.sum(tiny[:2]).asnumpy()[0] == 0.0


def test_new_shapes_of_a_reduction_share_row_programs(compiles):
    rng = np.random.RandomState(3)
    shapes = [(2 + i % 4, 3 + i, 2 + i % 3) for i in range(16)]  # 16 shapes, rows of 12 to 72
    arrays = [nd.array(rng.uniform(-1, 1, s)) for s in shapes]
    before = compiles[0]
    outs = [nd.sum(a, axis=(0, 2)) for a in arrays] + [a.mean() for a in arrays]
    assert compiles[0] - before <= 8  # row lengths 4, 8, 16 for the sums; 32-256 for the means
    for a, s, m in zip(arrays, outs[:16], outs[16:]):
        np.testing.assert_allclose(s.asnumpy(), a.asnumpy().sum(axis=(0, 2)), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(m.asnumpy(), [a.asnumpy().mean()], rtol=1e-5, atol=1e-6)
        assert s.context == a.context
