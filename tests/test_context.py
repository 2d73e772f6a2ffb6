"""Contexts: cpu(i) on forced host devices, gpu errors, the default-context scope."""
import pytest

import gluonjax as mx
from gluonjax import nd
from gluonjax.base import MXNetError


def test_cpu_devices_map_to_jax_devices():
    import jax
    n = len(jax.devices('cpu'))
    assert n == 4, 'tests/conftest.py asks for four CPU devices'
    for i in range(n):
        a = nd.ones((2,), ctx=mx.cpu(i))
        assert a.context == mx.cpu(i)
        assert next(iter(a._data.devices())) == jax.devices('cpu')[i]
    # a cpu id beyond the real devices falls back to device 0, as MXNet lets any cpu(i) mean the host
    assert mx.cpu(17).jax_device == jax.devices('cpu')[0]


def test_context_scope_and_equality():
    assert mx.current_context() == mx.cpu(0)
    with mx.Context('cpu', 2):
        assert mx.current_context() == mx.cpu(2)
        assert nd.zeros((1,)).context == mx.cpu(2)
        with mx.cpu(1):
            assert nd.ones((1,)).context == mx.cpu(1)
        assert mx.current_context() == mx.cpu(2)
    assert mx.current_context() == mx.cpu(0)
    assert mx.cpu(1) == mx.Context('cpu', 1) and mx.cpu(1) != mx.gpu(1)
    assert repr(mx.gpu(2)) == 'gpu(2)' and str(mx.cpu()) == 'cpu(0)'
    assert len({mx.cpu(0), mx.cpu(0), mx.cpu(1)}) == 2


def test_gpu_without_gpu_is_a_clear_error():
    if mx.context.num_gpus() > 0:
        pytest.skip('a GPU is present')
    ctx = mx.gpu(0)  # making the context works, as in MXNet
    with pytest.raises(MXNetError, match=r'gpu\(0\).*num_gpus'):
        nd.ones((2,), ctx=ctx)
    assert mx.context.num_gpus() == 0


def test_copy_between_devices():
    a = nd.array([1., 2.], ctx=mx.cpu(0))
    b = a.as_in_context(mx.cpu(3))
    assert b.context == mx.cpu(3)
    assert a.as_in_context(mx.cpu(0)) is a
    c = a.copyto(mx.cpu(1))
    assert c.context == mx.cpu(1) and c.asnumpy().tolist() == [1., 2.]
    assert (b * 2).context == mx.cpu(3)


def test_unknown_device_type():
    with pytest.raises(MXNetError, match='device type'):
        mx.Context('tpu', 0)


def test_reentering_one_context_object_restores_the_default():
    """Nested Blocks enter their input's context object again while it is entered: leaving both
    must give back the context in force before (MXNet kept it on the object and lost it)."""
    import threading
    outer = mx.cpu(3)
    with outer:
        with mx.cpu(1):
            with outer:
                assert mx.context.current_context() == mx.cpu(3)
            assert mx.context.current_context() == mx.cpu(1)
        assert mx.context.current_context() == mx.cpu(3)
    assert mx.context.current_context() == mx.cpu(0)
    seen = []

    def worker():
        with outer:
            seen.append(mx.context.current_context())
        seen.append(mx.context.current_context())
    with outer:
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert seen == [mx.cpu(3), mx.cpu(0)] and mx.context.current_context() == mx.cpu(0)


def test_context_class_keeps_mxnet_default_ctx_attribute():
    # MXNet 1.x scripts pass ctx=mx.Context.default_ctx (SymbolBlock.imports in its RNN tests);
    # in MXNet 1.9.1 it is the deprecated spelling of current_context(), inside a `with` too
    assert mx.Context.default_ctx == mx.cpu(0)
    with mx.Context('cpu', 1):
        assert mx.Context.default_ctx == mx.cpu(1) == mx.current_context()


def test_class_level_current_scopes_are_per_thread():
    """MXNet's Context.default_ctx, AttrScope.current and NameManager.current: assigning them
    sets the calling thread's scope only; a thread inside its own ``with`` keeps its own."""
    import threading
    from gluonjax.context import Context
    from gluonjax.name import NameManager
    seen, go = {}, threading.Event()

    def worker():
        with mx.cpu(3), mx.AttrScope(x='worker'), mx.name.Prefix('w_'):
            go.wait()
            seen.update(ctx=Context.default_ctx, attr=mx.AttrScope.current._attr,
                        name=NameManager.current.get(None, 'a'))
    thread = threading.Thread(target=worker)
    thread.start()
    try:
        Context.default_ctx = mx.cpu(1)
        mx.AttrScope.current = mx.AttrScope(x='main')
        NameManager.current = NameManager()
        assert mx.current_context() == mx.cpu(1) and mx.AttrScope.current._attr == {'x': 'main'}
    finally:
        go.set()
        thread.join()
        Context.default_ctx = mx.cpu(0)
        mx.AttrScope.current = mx.AttrScope()
    assert seen == {'ctx': mx.cpu(3), 'attr': {'x': 'worker'}, 'name': 'w_a0'}
