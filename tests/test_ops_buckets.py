"""First calls of pointwise operators in size buckets (gluonjax/ops/_host.py): the program compiled
for a padded 1-D bucket gives the bits of the program compiled for the exact shape, for every
pointwise operator of the table, so a new shape compiles nothing."""
import jax
import numpy as np
import pytest

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
    kernel = kernel_for(name, {'scalar': 2.5} if 'scalar' in op._param_map else {})
    dynamic = [kernel.attrs[d] for d in kernel.dynamic]
    if kernel.host is None and jax.devices()[0].platform != 'cpu':
        pytest.skip('on an accelerator only exactly rounded operators use size buckets (ops/_host.py)')
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
                _same_bits(g, w, '%s %s %s' % (name, dtype, shape))
    finally:
        restore(prev)


def test_new_shapes_of_a_pointwise_operator_share_bucket_programs(compiles):
    rng = np.random.RandomState(1)
    shapes = [(3 + i, 5 + 2 * i) for i in range(12)]  # 15 to 266 elements: buckets 64, 128, 256, 512
    arrays = [nd.array(rng.uniform(0.5, 2, s)) for s in shapes]
    before = compiles[0]
    outs = [nd.exp(a) for a in arrays]
    assert compiles[0] - before <= 4
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
    assert [_host.bucket_size(n) for n in (1, 64, 65, 128, 129, 1000, 1 << 20)] == \
        [64, 64, 128, 128, 256, 1024, 1 << 20]
