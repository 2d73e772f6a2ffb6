"""Module-level caches: registered with a bound, emptied by clear_caches, bounded when LRU."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import _caches
from gluonjax.gluon import nn
from gluonjax.ops import _kernel


def _use_everything():
    """Run things that fill the caches: operators, indexing, shape inference, a hybridized block."""
    x = mx.nd.arange(12).reshape((3, 4))
    y = (x * 2 + 1)[1:3]
    y[0] = 5
    net = nn.Dense(2, in_units=4)
    net.initialize()
    net.hybridize()
    out = net(x)
    x.attach_grad()
    with mx.autograd.record():
        z = (x * x).sum()
    z.backward()
    sym = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3)
    sym.infer_shape(data=(2, 4))
    return y.asnumpy(), out.asnumpy(), x.grad.asnumpy()


def test_clear_caches_empties_every_registered_cache():
    _use_everything()
    filled = [name for name, (cache, _) in _caches.registered().items() if len(cache)]
    assert 'ops.kernels' in filled and 'ndarray.index_fns' in filled
    mx.clear_caches()
    left = {name: len(cache) for name, (cache, _) in _caches.registered().items() if len(cache)}
    assert left == {}


def test_everything_still_works_after_clear_caches():
    before = _use_everything()
    mx.clear_caches()
    after = _use_everything()
    y, _, grad = after
    np.testing.assert_array_equal(y, before[0])
    np.testing.assert_array_equal(grad, before[2])
    assert y[0].tolist() == [5, 5, 5, 5]


def test_lru_cache_keeps_its_bound_and_drops_the_least_recently_used():
    cache = _caches.LRUCache(3)
    for k in 'abc':
        cache[k] = k.upper()
    assert cache.get('a') == 'A'  # a use: 'b' is now the oldest
    cache['d'] = 'D'
    assert len(cache) == 3
    assert 'b' not in cache and cache.get('a') == 'A' and cache.get('d') == 'D'


def test_kernel_cache_respects_its_bound(monkeypatch):
    monkeypatch.setattr(_kernel._cache, 'maxsize', 2)
    x = mx.nd.ones((2, 2))
    for axis in (0, 1, None):
        out = x.sum(axis=axis)
    assert len(_kernel._cache) <= 2
    assert out.asscalar() == 4


def test_caches_that_grow_with_user_input_are_bounded():
    # Unbounded entries are keyed by a fixed set (devices), or are known and listed here
    # until their files' owners make them LRUs.
    unbounded = {name for name, (_, bound) in _caches.registered().items() if bound is None}
    assert unbounded <= {'context.devices'}
    for name, (cache, bound) in _caches.registered().items():
        if isinstance(cache, _caches.LRUCache):
            assert cache.maxsize == bound, name


def test_a_name_is_registered_once():
    with pytest.raises(ValueError, match='already registered'):
        _caches.register('ops.kernels', {}, 1)
